/* SPDX-License-Identifier: MIT */
/* Partial results that do not add up: the values behind the percentiles (a process counts how
 * many lie in each bucket of a range, and those counts add up) and the interval boundaries of
 * the concurrency sweep, read in place from the session's timeline (partial_conc.c sweeps
 * them). doc/mpi.md. */
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
#include "iodfg/timeline.h"
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

/* The edges' gaps while the traces are walked: each edge's go to its own place, known from
 * its gap count in the session's DFG (the count of the same walk), so no tagged copy is made. */
struct gaps {
    const struct iodfg_dfg *g;
    const uint64_t *off; /* edge slot i's gaps: v[off[i] .. off[i + 1]) */
    uint64_t *fill;      /* how many each has so far */
    int64_t *v;
    int over; /* a gap beyond an edge's count met */
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
    size_t slot = (size_t)(e - iodfg_dfg_edge_at(gs->g, 0));
    if (gs->fill[slot] == gs->off[slot + 1] - gs->off[slot]) {
        gs->over = 1; // more gaps than the DFG counted: not the session's walk
        return -1;
    }
    gs->v[gs->off[slot] + gs->fill[slot]++] = gap_ns;
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
    return 0;
}

/* Every edge's gaps, walking the selected cases' traces as the DFG count does. */
static int edge_gaps(const struct iodfg_session *s, struct iodfg_partial_values *v,
                     struct iodfg_error *err)
{
    const struct iodfg_analysis *an = iodfg_session_analysis(s);
    const struct iodfg_eventlog *log = iodfg_session_log(s);
    const struct iodfg_selection *sel = iodfg_analysis_selection(an);
    const struct iodfg_dfg *g = iodfg_analysis_dfg(an);
    v->edge_off = calloc(v->nslots + 2, sizeof(*v->edge_off));
    for (size_t i = 0; v->edge_off && i < v->nslots; i++) {
        v->edge_off[i + 1] = v->edge_off[i] + iodfg_dfg_edge_at(g, i)->gap_n;
    }
    struct gaps gs = {g, v->edge_off, calloc(v->nslots + 1, sizeof(uint64_t)), NULL, 0};
    if (v->edge_off) {
        v->edge_v = gs.v = iodfg_bigmem_alloc((v->edge_off[v->nslots] + 1) * sizeof(*v->edge_v));
    }
    if (!gs.fill || !gs.v) {
        free(gs.fill);
        return iodfg_error_set(err, IODFG_E_NOMEM, NULL);
    }
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
    for (size_t i = 0; rc == 0 && i < v->nslots; i++) {
        gs.over |= gs.fill[i] != v->edge_off[i + 1] - v->edge_off[i];
    }
    free(gs.fill);
    if (gs.over) {
        return iodfg_error_set(err, IODFG_E_ARG, "the gaps do not match the session's DFG");
    }
    return rc;
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

uint64_t iodfg_partial_rank(uint64_t n, unsigned pct)
{
    uint64_t rank = ((uint64_t)pct * n + 99) / 100; // as iodfg_stats_percentile
    return rank < 1 ? 1 : rank;
}

/* ---- concurrency ---- */

/* Per event of the log: its case's clock, | SELECTED when the selection keeps it. */
#define SELECTED IODFG_PARTIAL_SELECTED
static uint8_t *event_clocks(const struct part *pa)
{
    uint64_t n = iodfg_eventlog_event_count(pa->log);
    const uint64_t *off = iodfg_eventlog_case_offsets(pa->log);
    uint8_t *clk = malloc((size_t)n + 1);
    for (uint32_t c = 0; clk && c < iodfg_eventlog_case_count(pa->log); c++) {
        uint8_t clock = (uint8_t)iodfg_eventlog_case(pa->log, c)->clock;
        uint64_t lo, hi;
        memset(clk + off[c], clock, (size_t)(off[c + 1] - off[c]));
        if (iodfg_trace_case_range(pa->log, pa->sel, c, &lo, &hi)) {
            memset(clk + lo, clock | SELECTED, (size_t)(hi - lo));
        }
    }
    return clk;
}

int iodfg_partial_view_init(const struct iodfg_session *s, struct iodfg_partial_view *v,
                            struct iodfg_error *err)
{
    struct part pa = part_of(s);
    // the session's timeline is already in the sweep's order
    const struct iodfg_timeline *tl = iodfg_analysis_timeline(iodfg_session_analysis(s));
    *v = (struct iodfg_partial_view){tl->pts,           pa.col->dur_ns ? tl->npts : 0,
                                     event_clocks(&pa), pa.act,
                                     pa.col->start_ns,  pa.col->dur_ns,
                                     pa.col->key};
    return v->clk ? 0 : iodfg_error_set(err, IODFG_E_NOMEM, NULL);
}

void iodfg_partial_view_fini(struct iodfg_partial_view *v)
{
    free(v->clk);
    memset(v, 0, sizeof(*v));
}

int iodfg_partial_view_at(const struct iodfg_partial_view *v, uint64_t i,
                          struct iodfg_partial_point *pt)
{
    uint32_t e = v->ent[i] & ~IODFG_PT_START;
    int start = (v->ent[i] & IODFG_PT_START) != 0;
    uint32_t a = v->act[v->key[e]];
    int64_t t = v->start_ns[e] + (start ? 0 : v->dur_ns[e]);
    *pt = (struct iodfg_partial_point){t, a, (uint8_t)(v->clk[e] & ~SELECTED), (uint8_t)start, 0};
    return (v->clk[e] & SELECTED) && a != IODFG_NO_ACTIVITY;
}

uint64_t iodfg_partial_view_lower(const struct iodfg_partial_view *v,
                                  const struct iodfg_partial_point *p)
{
    uint64_t lo = 0, hi = v->n;
    while (lo < hi) {
        uint64_t mid = lo + (hi - lo) / 2;
        struct iodfg_partial_point m;
        iodfg_partial_view_at(v, mid, &m);
        if (iodfg_partial_point_cmp(&m, p) < 0) {
            lo = mid + 1;
        } else {
            hi = mid;
        }
    }
    return lo;
}

size_t iodfg_partial_view_copy(const struct iodfg_partial_view *v, uint64_t lo, uint64_t hi,
                               struct iodfg_partial_point *out)
{
    size_t k = 0;
    for (uint64_t i = lo; i < hi; i++) {
        k += (size_t)iodfg_partial_view_at(v, i, &out[k]);
    }
    return k;
}

int iodfg_partial_points(const struct iodfg_session *s, struct iodfg_partial_point **pts, size_t *n,
                         struct iodfg_error *err)
{
    struct iodfg_partial_view v;
    if (iodfg_partial_view_init(s, &v, err)) {
        return -1;
    }
    struct iodfg_partial_point *p = iodfg_bigmem_alloc((size_t)(v.n + 1) * sizeof(*p));
    if (p) {
        *n = iodfg_partial_view_copy(&v, 0, v.n, p);
        *pts = p;
    }
    iodfg_partial_view_fini(&v);
    return p ? 0 : iodfg_error_set(err, IODFG_E_NOMEM, NULL);
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
