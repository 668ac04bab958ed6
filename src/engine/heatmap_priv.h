/* SPDX-License-Identifier: MIT */
/* Engine-internal: the state of one heatmap build, shared by its passes (heatmap_build.c: rows
 * and grid; heatmap_fill.c: the binning; heatmap_peak.c: the concurrency sweep). */
#ifndef IODFG_ENGINE_HEATMAP_PRIV_H
#define IODFG_ENGINE_HEATMAP_PRIV_H

#include <stdint.h>

#include "iodfg/eventlog.h"
#include "iodfg/heatmap.h"
#include "iodfg/mapping.h"
#include "iodfg/picture.h"

struct iodfg_error;

/* band[] value of a case that is not shown. */
#define HM_OFF IODFG_PICTURE_OFF

struct hm_build {
    const struct iodfg_picture_input *in;
    struct iodfg_heatmap *hm;
    const struct iodfg_columns *col;
    uint8_t *band;      /* per case: its band, HM_OFF when not shown */
    int64_t t0, t1;     /* the counted events' first start and last end */
    uint8_t *has_act;   /* activity rows: [band * nactivities + a] has events */
    uint32_t *case_src; /* per shown case: its source row (case, host, cid rows) */
    uint32_t *disp;     /* per source row: its displayed row */
    uint32_t *case_row; /* per case: its displayed row (case, host, cid rows) */
    uint32_t *act_row;  /* activity rows: [band * nactivities + a]: displayed row */
    uint32_t src_cap;
    uint32_t *code; /* with peaks: per event of the log, its displayed row or UINT32_MAX */
};

/* The activity of event e when it is counted (mapped and in the focus), else
 * IODFG_NO_ACTIVITY. */
static inline uint32_t hm_counted(const struct hm_build *b, uint64_t e)
{
    uint32_t a = b->in->map->activity_of_key[b->col->key[e]];
    if (a != IODFG_NO_ACTIVITY && b->in->act_on && !b->in->act_on[a]) {
        return IODFG_NO_ACTIVITY;
    }
    return a;
}

/* The duration of event e that the heatmap counts: 0 when unknown or negative. */
static inline int64_t hm_dur(const struct iodfg_columns *col, uint64_t e)
{
    int64_t d = col->dur_ns ? col->dur_ns[e] : 0;
    return d == IODFG_UNKNOWN || d < 0 ? 0 : d;
}

/* The binning pass over the counted events (heatmap_fill.c). 0 or -1 with err. */
int hm_fill(struct hm_build *b, struct iodfg_error *err);
/* The row sums, totals and largest cells. */
void hm_finish(struct hm_build *b);
/* The exact peak concurrency of every cell from the timeline (heatmap_peak.c). 0 or -1. */
int hm_peaks(struct hm_build *b, struct iodfg_error *err);
void hm_build_fini(struct hm_build *b);

#endif
