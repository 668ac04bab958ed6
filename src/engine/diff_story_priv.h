/* SPDX-License-Identifier: MIT */
/* Engine-internal: what the story's scan (diff_story.c) counts per key, activity and group, and
 * the text of a row (diff_story_text.c). */
#ifndef IODFG_ENGINE_DIFF_STORY_PRIV_H
#define IODFG_ENGINE_DIFF_STORY_PRIV_H

#include <stddef.h>
#include <stdint.h>

#include "iodfg/diff.h"

#include "diff_shape.h"
#include "keysums.h"

struct iodfg_eventlog;
struct iodfg_mapping;
struct iodfg_session;

/* One group's numbers. */
struct story_side {
    struct iodfg_key_sums *ks;     /* per key */
    struct iodfg_key_sums *as;     /* per activity */
    uint32_t *act_cases;           /* per activity: cases with its events */
    uint32_t *act_last1, *act_one; /* per activity: the last case + 1, the first case */
    uint64_t *seeked;              /* per activity: reads/writes right after a seek of their
                                    * descriptor (needs the pid and fd columns) */
    uint64_t cases;                /* cases with selected events */
    int64_t time_ns;               /* their call time */
};

struct story_ctx {
    const struct iodfg_session *s;
    const struct iodfg_eventlog *log;
    const struct iodfg_mapping *map;
    uint32_t nkeys, nact;
    uint8_t *kflags;             /* per key: iodfg_metrics_call_flags */
    struct story_side side[2];   /* G, R */
    struct diff_shape *shape;    /* per activity, over the keys with events in G or R */
    uint32_t *key_order, *first; /* keys by activity: key_order[first[a] .. first[a + 1]) */
};

/* The text of row r (fills r->text). */
void story_text(const struct story_ctx *x, struct iodfg_diff_story_row *r);

#endif
