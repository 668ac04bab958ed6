/* SPDX-License-Identifier: MIT */
/* The stair-case (serialisation) index of Wright et al. 2013 Fig. 9: one sweep over the timeline.
 */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "iodfg/bandwidth.h"
#include "iodfg/cancel.h"
#include "iodfg/error.h"
#include "iodfg/eventlog.h"
#include "iodfg/mapping.h"
#include "iodfg/stats.h"
#include "iodfg/timeline.h"

#include "stats_priv.h"

void iodfg_serial_init(struct iodfg_serial *s)
{
    memset(s, 0, sizeof(*s));
}

void iodfg_serial_fini(struct iodfg_serial *s)
{
    free(s->act);
    memset(s, 0, sizeof(*s));
}

void iodfg_serial_step(struct iodfg_serial_row *r, struct iodfg_serial_state *x, int start,
                       int64_t s, int64_t t)
{
    if (start) {
        if (x->inflight++ == 0) {
            x->busy_start = s;
            x->has_prev = 0;
        }
        return;
    }
    if (x->has_prev) {
        int64_t q = x->prev_end - s;                         // queued before e_{i-1}
        int64_t v = t - (s > x->prev_end ? s : x->prev_end); // served after it
        if (q > 0 && v > 0) {
            r->queued++;
            r->staggered_ns = iodfg_sat_add(r->staggered_ns, q < v ? q : v);
        }
    }
    x->prev_end = t;
    x->has_prev = 1;
    if (--x->inflight == 0) {
        r->busy_ns = iodfg_sat_add(r->busy_ns, t - x->busy_start);
    }
}

/* 0, or 1 when cancel was set (a look every CANCEL_EVERY points). */
static int sweep(struct iodfg_serial *sr, const struct iodfg_eventlog *log,
                 const struct iodfg_timeline *tl, const uint64_t *bits, const uint32_t *act,
                 struct iodfg_serial_state *st, const struct iodfg_cancel *cancel)
{
    const struct iodfg_columns *col = iodfg_eventlog_columns(log);
    enum { AHEAD = 16 }; // points in time order hop between cases: fetch their events early
    enum { CANCEL_EVERY = 1 << 16 };
    for (uint64_t i = 0; i < tl->npts; i++) {
        if (i % CANCEL_EVERY == 0 && iodfg_cancel_requested(cancel)) {
            return 1;
        }
        if (i + AHEAD < tl->npts) {
            uint32_t f = tl->pts[i + AHEAD] & ~IODFG_PT_START;
            __builtin_prefetch(&col->key[f]);
            __builtin_prefetch(&col->start_ns[f]);
            __builtin_prefetch(&col->dur_ns[f]);
        }
        uint32_t p = tl->pts[i], e = p & ~IODFG_PT_START;
        if (!(bits[e >> 6] >> (e & 63) & 1)) {
            continue;
        }
        uint32_t a = act[col->key[e]];
        if (a == IODFG_NO_ACTIVITY) {
            continue;
        }
        int64_t s = col->start_ns[e];
        iodfg_serial_step(&sr->act[a], &st[a], (p & IODFG_PT_START) != 0, s, s + col->dur_ns[e]);
    }
    return 0;
}

int iodfg_serial_build(struct iodfg_serial *s, const struct iodfg_eventlog *log,
                       const struct iodfg_mapping *map, const struct iodfg_selection *sel,
                       const struct iodfg_timeline *tl, const struct iodfg_cancel *cancel,
                       struct iodfg_error *err)
{
    iodfg_serial_fini(s);
    const struct iodfg_columns *col = iodfg_eventlog_columns(log);
    if (!col->start_ns || !col->dur_ns || !col->key) {
        return iodfg_error_set(err, IODFG_E_ARG,
                               "the event log lacks the start, dur or key column");
    }
    if (map->nkeys != iodfg_eventlog_key_count(log)) {
        return iodfg_error_set(err, IODFG_E_ARG, "the mapping does not belong to this log");
    }
    uint64_t n = iodfg_eventlog_event_count(log);
    struct iodfg_timeline own;
    memset(&own, 0, sizeof(own));
    if (!tl) {
        if (iodfg_timeline_build(&own, log, err)) {
            return -1;
        }
        tl = &own;
    }
    int rc = -1;
    uint64_t *bits = calloc(n / 64 + 1, sizeof(*bits));
    struct iodfg_serial_state *st = calloc((size_t)map->nactivities + 1, sizeof(*st));
    s->act = calloc((size_t)map->nactivities + 1, sizeof(*s->act));
    if (!bits || !st || !s->act) {
        iodfg_error_set(err, IODFG_E_NOMEM, NULL);
        iodfg_serial_fini(s);
        goto out;
    }
    s->nactivities = map->nactivities;
    iodfg_stats_select_bits(bits, log, sel);
    if (sweep(s, log, tl, bits, map->activity_of_key, st, cancel)) {
        iodfg_error_set(err, IODFG_E_CANCELLED, NULL);
        iodfg_serial_fini(s);
        goto out;
    }
    for (uint32_t a = 0; a < s->nactivities; a++) {
        struct iodfg_serial_row *r = &s->act[a];
        r->stair = r->busy_ns > 0 ? (double)r->staggered_ns / (double)r->busy_ns : 0;
    }
    rc = 0;
out:
    free(bits);
    free(st);
    iodfg_timeline_fini(&own);
    return rc;
}
