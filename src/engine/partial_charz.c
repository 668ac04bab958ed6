/* SPDX-License-Identifier: MIT */
/* Partial characterisations (iodfg/partial.h): the rows of Wright et al.'s bandwidths and of
 * the access patterns add up; the stair-case index is swept again over every part's intervals
 * in the timeline's order. */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "iodfg/access.h"
#include "iodfg/bandwidth.h"
#include "iodfg/dfg.h"
#include "iodfg/error.h"
#include "iodfg/eventlog.h"
#include "iodfg/mapping.h"
#include "iodfg/partial.h"
#include "iodfg/trace.h"

#include "stats_priv.h"

void iodfg_partial_bw_rows_add(struct iodfg_bw_row *dst, const struct iodfg_bw_row *src, size_t n)
{
    for (size_t i = 0; i < n; i++) {
        struct iodfg_bw_row *d = &dst[i];
        const struct iodfg_bw_row *s = &src[i];
        if (s->count == 0) {
            continue;
        }
        if (d->count == 0 || s->first_ns < d->first_ns) {
            d->first_ns = s->first_ns;
        }
        if (d->count == 0 || s->last_ns > d->last_ns) {
            d->last_ns = s->last_ns;
        }
        d->count += s->count;
        d->cases += s->cases; // the parts hold different cases
        d->bytes = iodfg_sat_add(d->bytes, s->bytes);
        d->dur_sum_ns = iodfg_sat_add(d->dur_sum_ns, s->dur_sum_ns);
    }
}

void iodfg_partial_access_rows_add(struct iodfg_access_row *dst, const struct iodfg_access_row *src,
                                   size_t n)
{
    for (size_t i = 0; i < n; i++) {
        for (int x = 0; x < 2; x++) {
            iodfg_access_dir_add(&dst[i].dir[x], &src[i].dir[x]);
        }
    }
}

int iodfg_partial_spans(const struct iodfg_eventlog *log, const struct iodfg_mapping *map,
                        const struct iodfg_selection *sel, struct iodfg_partial_span **out,
                        size_t *n, struct iodfg_error *err)
{
    const struct iodfg_columns *col = iodfg_eventlog_columns(log);
    uint32_t nc = iodfg_eventlog_case_count(log);
    size_t k = 0;
    struct iodfg_partial_span *sp =
        malloc(((size_t)iodfg_eventlog_event_count(log) + 1) * sizeof(*sp));
    if (!sp) {
        return iodfg_error_set(err, IODFG_E_NOMEM, NULL);
    }
    for (uint32_t c = 0; c < nc && col->dur_ns; c++) {
        uint64_t lo, hi;
        if (!iodfg_trace_case_range(log, sel, c, &lo, &hi)) {
            continue;
        }
        uint8_t clock = (uint8_t)iodfg_eventlog_case(log, c)->clock;
        for (uint64_t e = lo; e < hi; e++) {
            uint32_t a = map->activity_of_key[col->key[e]];
            if (a != IODFG_NO_ACTIVITY && col->dur_ns[e] > 0) { // the timeline's intervals
                sp[k++] = (struct iodfg_partial_span){col->start_ns[e],
                                                      col->start_ns[e] + col->dur_ns[e], a, clock};
            }
        }
    }
    *out = sp;
    *n = k;
    return 0;
}

/* A boundary of span idx in the timeline's order: clock, time, ends before starts, entry. */
struct bound {
    int64_t t;
    uint32_t idx;
    uint8_t clock, start;
};

static int bound_cmp(const void *pa, const void *pb)
{
    const struct bound *a = pa, *b = pb;
    if (a->clock != b->clock) {
        return a->clock < b->clock ? -1 : 1;
    }
    if (a->t != b->t) {
        return a->t < b->t ? -1 : 1;
    }
    if (a->start != b->start) {
        return a->start < b->start ? -1 : 1;
    }
    return a->idx < b->idx ? -1 : a->idx > b->idx;
}

int iodfg_partial_serial(struct iodfg_serial *s, const struct iodfg_partial_span *spans, size_t n,
                         uint32_t nact, struct iodfg_error *err)
{
    iodfg_serial_fini(s);
    struct bound *b = malloc((2 * n + 1) * sizeof(*b));
    struct iodfg_serial_state *st = calloc((size_t)nact + 1, sizeof(*st));
    s->act = calloc((size_t)nact + 1, sizeof(*s->act));
    if (!b || !st || !s->act || n >= UINT32_MAX) {
        free(b);
        free(st);
        iodfg_serial_fini(s);
        return iodfg_error_set(err, IODFG_E_NOMEM, NULL);
    }
    s->nactivities = nact;
    for (size_t i = 0; i < n; i++) {
        b[2 * i] = (struct bound){spans[i].start_ns, (uint32_t)i, spans[i].clock, 1};
        b[2 * i + 1] = (struct bound){spans[i].end_ns, (uint32_t)i, spans[i].clock, 0};
    }
    qsort(b, 2 * n, sizeof(*b), bound_cmp);
    for (size_t i = 0; i < 2 * n; i++) { // the sweep of serial.c
        const struct iodfg_partial_span *e = &spans[b[i].idx];
        iodfg_serial_step(&s->act[e->act], &st[e->act], b[i].start, e->start_ns, e->end_ns);
    }
    for (uint32_t a = 0; a < nact; a++) {
        struct iodfg_serial_row *r = &s->act[a];
        r->stair = r->busy_ns > 0 ? (double)r->staggered_ns / (double)r->busy_ns : 0;
    }
    free(b);
    free(st);
    return 0;
}
