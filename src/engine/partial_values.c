/* SPDX-License-Identifier: MIT */
/* Partial results that do not add up: the sorted values behind the percentiles (a process
 * counts how many lie below a bound, and those counts add up) and the interval boundaries of
 * the concurrency sweep (swept over time ranges with the count carried in). doc/mpi.md. */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "iodfg/analysis.h"
#include "iodfg/bigmem.h"
#include "iodfg/dfg.h"
#include "iodfg/error.h"
#include "iodfg/eventlog.h"
#include "iodfg/mapping.h"
#include "iodfg/partial.h"
#include "iodfg/session.h"
#include "iodfg/trace.h"

/* What the walks over the session's selection read. */
struct part {
    const struct iodfg_eventlog *log;
    const struct iodfg_selection *sel;
    const uint32_t *act; /* activity of each key */
    const struct iodfg_columns *col;
};

static struct part part_of(const struct iodfg_session *s)
{
    const struct iodfg_analysis *an = iodfg_session_analysis(s);
    const struct iodfg_eventlog *log = iodfg_session_log(s);
    struct part p = {log, iodfg_analysis_selection(an), iodfg_analysis_activities(an),
                     iodfg_eventlog_columns(log)};
    return p;
}

static int cmp_i64(const void *pa, const void *pb)
{
    int64_t a = *(const int64_t *)pa, b = *(const int64_t *)pb;
    return (a > b) - (a < b);
}

/* Sort each group of values in place (groups are off[i] .. off[i+1]). */
static void sort_groups(int64_t *v, const uint64_t *off, size_t n)
{
    for (size_t i = 0; i < n; i++) {
        qsort(v + off[i], (size_t)(off[i + 1] - off[i]), sizeof(*v), cmp_i64);
    }
}

/* An edge's gap, tagged with its slot, while the traces are walked. */
struct gap {
    uint64_t slot;
    int64_t gap;
};
struct gaps {
    const struct iodfg_dfg *g;
    struct gap *v;
    size_t n, cap;
};

static int add_gap(void *ctx, uint32_t from, uint32_t to, int has_gap, int64_t gap_ns,
                   uint32_t trace, uint64_t ev)
{
    (void)trace;
    (void)ev;
    struct gaps *gs = ctx;
    const struct iodfg_dfg_edge *e = has_gap ? iodfg_dfg_find(gs->g, from, to) : NULL;
    if (!e) {
        return 0;
    }
    if (gs->n == gs->cap) {
        size_t cap = gs->cap ? gs->cap * 2 : 4096;
        struct gap *p = iodfg_bigmem_realloc(gs->v, gs->n * sizeof(*p), cap * sizeof(*p));
        if (!p) {
            return -1;
        }
        gs->v = p;
        gs->cap = cap;
    }
    gs->v[gs->n++] = (struct gap){(uint64_t)(e - iodfg_dfg_edge_at(gs->g, 0)), gap_ns};
    return 0;
}

/* Activity a's known durations of the selected events, grouped by activity. */
static int durations(const struct iodfg_session *s, struct iodfg_partial_values *v)
{
    struct part p = part_of(s);
    const struct iodfg_eventlog *log = p.log;
    const struct iodfg_selection *sel = p.sel;
    const uint32_t *act = p.act;
    const struct iodfg_columns *col = p.col;
    uint32_t nc = iodfg_eventlog_case_count(log);
    v->act_off = calloc((size_t)v->nact + 2, sizeof(*v->act_off));
    for (int pass = 0; v->act_off && pass < 2; pass++) {
        for (uint32_t c = 0; c < nc && col->dur_ns; c++) {
            uint64_t lo, hi;
            if (!iodfg_trace_case_range(log, sel, c, &lo, &hi)) {
                continue;
            }
            for (uint64_t e = lo; e < hi; e++) {
                uint32_t a = act[col->key[e]];
                if (a == IODFG_NO_ACTIVITY || col->dur_ns[e] == IODFG_UNKNOWN) {
                    continue;
                }
                if (pass == 0) {
                    v->act_off[a + 1]++;
                } else {
                    v->act_v[v->act_off[a]++] = col->dur_ns[e];
                }
            }
        }
        if (pass == 0) {
            for (uint32_t a = 0; a < v->nact; a++) {
                v->act_off[a + 1] += v->act_off[a];
            }
            v->act_v = iodfg_bigmem_alloc((size_t)(v->act_off[v->nact] + 1) * sizeof(*v->act_v));
            if (!v->act_v) {
                return -1;
            }
        }
    }
    if (!v->act_off) {
        return -1;
    }
    memmove(v->act_off + 1, v->act_off, (size_t)v->nact * sizeof(*v->act_off)); // back to starts
    v->act_off[0] = 0;
    sort_groups(v->act_v, v->act_off, v->nact);
    return 0;
}

/* Every edge's gaps, walking the selected cases' traces as the DFG count does. */
static int edge_gaps(const struct iodfg_session *s, struct iodfg_partial_values *v,
                     struct iodfg_error *err)
{
    const struct iodfg_analysis *an = iodfg_session_analysis(s);
    const struct iodfg_eventlog *log = iodfg_session_log(s);
    const struct iodfg_selection *sel = iodfg_analysis_selection(an);
    struct gaps gs = {iodfg_analysis_dfg(an), NULL, 0, 0};
    uint32_t nc = iodfg_eventlog_case_count(log);
    int rc = 0;
    for (uint32_t c = 0; rc == 0 && c < nc; c++) {
        uint64_t lo, hi;
        if (iodfg_trace_case_range(log, sel, c, &lo, &hi) &&
            iodfg_trace_walk_case(log, iodfg_analysis_activities(an), lo, hi, sel->per_pid, add_gap,
                                  &gs, err) < 0) {
            rc = -1;
        }
    }
    v->edge_off = rc ? NULL : calloc(v->nslots + 2, sizeof(*v->edge_off));
    v->edge_v = v->edge_off ? iodfg_bigmem_alloc((gs.n + 1) * sizeof(*v->edge_v)) : NULL;
    if (rc || !v->edge_v) {
        free(gs.v);
        return iodfg_error_set(err, IODFG_E_NOMEM, NULL);
    }
    for (size_t i = 0; i < gs.n; i++) {
        v->edge_off[gs.v[i].slot + 1]++;
    }
    for (size_t i = 0; i < v->nslots; i++) {
        v->edge_off[i + 1] += v->edge_off[i];
    }
    uint64_t *fill = calloc(v->nslots + 1, sizeof(*fill));
    for (size_t i = 0; fill && i < gs.n; i++) {
        uint64_t s0 = gs.v[i].slot;
        v->edge_v[v->edge_off[s0] + fill[s0]++] = gs.v[i].gap;
    }
    free(gs.v);
    if (!fill) {
        return iodfg_error_set(err, IODFG_E_NOMEM, NULL);
    }
    free(fill);
    sort_groups(v->edge_v, v->edge_off, v->nslots);
    return 0;
}

int iodfg_partial_values_build(const struct iodfg_session *s, struct iodfg_partial_values *v,
                               struct iodfg_error *err)
{
    memset(v, 0, sizeof(*v));
    const struct iodfg_analysis *an = iodfg_session_analysis(s);
    v->nact = iodfg_session_mapping(s)->nactivities;
    v->nslots = iodfg_dfg_slots(iodfg_analysis_dfg(an));
    if (durations(s, v)) {
        iodfg_partial_values_fini(v);
        return iodfg_error_set(err, IODFG_E_NOMEM, NULL);
    }
    if (edge_gaps(s, v, err)) {
        iodfg_partial_values_fini(v);
        return -1;
    }
    return 0;
}

void iodfg_partial_values_fini(struct iodfg_partial_values *v)
{
    free(v->act_off);
    free(v->act_v);
    free(v->edge_off);
    free(v->edge_v);
    memset(v, 0, sizeof(*v));
}

uint64_t iodfg_partial_count_le(const int64_t *v, uint64_t n, int64_t x)
{
    uint64_t lo = 0, hi = n; // the first value > x
    while (lo < hi) {
        uint64_t mid = lo + (hi - lo) / 2;
        if (v[mid] <= x) {
            lo = mid + 1;
        } else {
            hi = mid;
        }
    }
    return lo;
}

uint64_t iodfg_partial_rank(uint64_t n, unsigned pct)
{
    uint64_t rank = ((uint64_t)pct * n + 99) / 100; // as iodfg_stats_percentile
    return rank < 1 ? 1 : rank;
}

/* ---- concurrency ---- */

int iodfg_partial_points(const struct iodfg_session *s, struct iodfg_partial_point **pts, size_t *n,
                         struct iodfg_error *err)
{
    struct part pa = part_of(s);
    const struct iodfg_eventlog *log = pa.log;
    const struct iodfg_selection *sel = pa.sel;
    const uint32_t *act = pa.act;
    const struct iodfg_columns *col = pa.col;
    uint32_t nc = iodfg_eventlog_case_count(log);
    size_t cap = 2 * (size_t)iodfg_eventlog_event_count(log) + 1, k = 0;
    struct iodfg_partial_point *p = iodfg_bigmem_alloc(cap * sizeof(*p));
    if (!p) {
        return iodfg_error_set(err, IODFG_E_NOMEM, NULL);
    }
    for (uint32_t c = 0; c < nc && col->dur_ns; c++) {
        uint64_t lo, hi;
        if (!iodfg_trace_case_range(log, sel, c, &lo, &hi)) {
            continue;
        }
        uint8_t clock = (uint8_t)iodfg_eventlog_case(log, c)->clock;
        for (uint64_t e = lo; e < hi; e++) {
            uint32_t a = act[col->key[e]];
            if (a == IODFG_NO_ACTIVITY || col->dur_ns[e] <= 0) { // the timeline's intervals
                continue;
            }
            p[k++] = (struct iodfg_partial_point){col->start_ns[e], a, clock, 1, 0};
            p[k++] =
                (struct iodfg_partial_point){col->start_ns[e] + col->dur_ns[e], a, clock, 0, 0};
        }
    }
    *pts = p;
    *n = k;
    return 0;
}

int iodfg_partial_point_cmp(const struct iodfg_partial_point *a,
                            const struct iodfg_partial_point *b)
{
    if (a->clock != b->clock) {
        return a->clock < b->clock ? -1 : 1;
    }
    if (a->time_ns != b->time_ns) {
        return a->time_ns < b->time_ns ? -1 : 1;
    }
    return (int)a->start - (int)b->start;
}

void iodfg_partial_points_net(const struct iodfg_partial_point *pts, size_t n, int64_t *net)
{
    for (size_t i = 0; i < n; i++) {
        net[pts[i].act] += pts[i].start ? 1 : -1;
    }
}

int iodfg_partial_sweep(const struct iodfg_partial_point *pts, size_t n, const int64_t *carry,
                        uint32_t nact, int64_t *best, int64_t *when, struct iodfg_error *err)
{
    int64_t *cur = malloc(((size_t)nact + 1) * sizeof(*cur));
    if (!cur) {
        return iodfg_error_set(err, IODFG_E_NOMEM, NULL);
    }
    memcpy(cur, carry, (size_t)nact * sizeof(*cur));
    for (size_t i = 0; i < n; i++) {
        const struct iodfg_partial_point *p = &pts[i];
        if (!p->start) {
            cur[p->act]--;
        } else if (++cur[p->act] > best[p->act]) {
            best[p->act] = cur[p->act];
            when[p->act] = p->time_ns;
        }
    }
    free(cur);
    return 0;
}
