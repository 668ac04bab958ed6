/* SPDX-License-Identifier: MIT */
/* Partial results that do not add up: the values behind the percentiles (a process counts how
 * many lie in each bucket of a range, and those counts add up; partial_conc.c has the
 * concurrency's). doc/mpi.md. */
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

#include "partial_priv.h"

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

/* No edge has values. */
static int no_gaps(struct iodfg_partial_values *v, struct iodfg_error *err)
{
    v->edge_off = calloc(v->nslots + 2, sizeof(*v->edge_off));
    v->edge_v = malloc(sizeof(*v->edge_v));
    return v->edge_off && v->edge_v ? 0 : iodfg_error_set(err, IODFG_E_NOMEM, NULL);
}

int iodfg_partial_values_build(const struct iodfg_session *s, int gaps,
                               struct iodfg_partial_values *v, struct iodfg_error *err)
{
    memset(v, 0, sizeof(*v));
    const struct iodfg_analysis *an = iodfg_session_analysis(s);
    v->nact = iodfg_session_mapping(s)->nactivities;
    v->nslots = iodfg_dfg_slots(iodfg_analysis_dfg(an));
    if (durations(s, v)) {
        iodfg_partial_values_fini(v);
        return iodfg_error_set(err, IODFG_E_NOMEM, NULL);
    }
    if (gaps ? edge_gaps(s, v, err) : no_gaps(v, err)) {
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
