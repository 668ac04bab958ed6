/* SPDX-License-Identifier: MIT */
/* What the Timeline's grid (timeline.c) and its event index (timeline_index.c) share. */
#ifndef IODFG_TUI_TIMELINE_PRIV_H
#define IODFG_TUI_TIMELINE_PRIV_H

#include <stdint.h>

#include "iodfg/mapping.h"

struct tui_app;
struct tui_timeline;

/* Every TL_STEP-th slot of the index is sampled (tl->coarse). */
#define TL_STEP 8

/* The index of the selection for activity a (UINT32_MAX: all mapped events) is ready for the
 * current generation: 0; 1 while a background job builds it; -1 when out of memory. Starts or
 * restarts the job as needed (timeline_job.h). */
int tui_timeline_index(struct tui_app *app, struct tui_timeline *tl, uint32_t a);

/* The group of event i: its activity (all mapped events are group 0 with all), or UINT32_MAX. */
static inline uint32_t tui_timeline_group(const uint32_t *act, const uint32_t *key, uint64_t i,
                                          uint32_t ngroups, int all)
{
    uint32_t g = act[key[i]];
    if (g == IODFG_NO_ACTIVITY) {
        return UINT32_MAX;
    }
    return all ? 0 : g < ngroups ? g : UINT32_MAX;
}

#endif
