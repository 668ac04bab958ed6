/* SPDX-License-Identifier: MIT */
/* Engine-internal: the state of one offset map build, shared by its parts (offsetmap_build.c:
 * the points; offsetmap.c: files and patterns; offsetmap_overlap.c: the written ranges). */
#ifndef IODFG_ENGINE_OFFSETMAP_PRIV_H
#define IODFG_ENGINE_OFFSETMAP_PRIV_H

#include <stdint.h>

#include "iodfg/eventlog.h"
#include "iodfg/mapping.h"
#include "iodfg/offsetmap.h"
#include "iodfg/picture.h"

struct iodfg_error;

/* What iodfg_picture_cases tells besides the bands. */
struct om_cases {
    uint32_t nbands, clock_dropped, outside_groups;
    enum iodfg_clock clock;
};

struct om_build {
    const struct iodfg_picture_input *in;
    struct iodfg_offsetmap *om;
    const struct iodfg_columns *col;
    const struct iodfg_key *keys;
    uint8_t *kf;   /* per key: iodfg_metrics_key_flags */
    uint8_t *band; /* per case: iodfg_picture_cases */
    uint32_t ncases_log;
    uint32_t *row_of;      /* per case: its row in om->cases, UINT32_MAX none */
    uint8_t *seeked;       /* per handle id: its last use was a successful lseek */
    uint64_t threads_from; /* points (or events, to count them) from which two threads scan */
};

/* Whether key k is counted: mapped to an activity that the focus keeps. */
static inline int om_counted(const struct iodfg_picture_input *in, uint32_t k)
{
    uint32_t a = in->map->activity_of_key[k];
    return a != IODFG_NO_ACTIVITY && (!in->act_on || in->act_on[a]);
}

/* The access counts of every case row and the file, and their patterns (offsetmap.c). */
int om_patterns(struct om_build *x, struct iodfg_error *err);
/* The union and overlaps of the written ranges, and the points' overlap flags
 * (offsetmap_overlap.c). 0 or -1 with err. */
int om_overlaps(struct om_build *x, struct iodfg_error *err);

#endif
