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

#include "analysis_priv.h"
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

/* Put the known duration of each selected event of an activity at its activity's place: act_off
 * holds each activity's first free place and end its end. With the session's activity codes
 * (when codes and it has them) one pass over them, else over the selected cases' events and
 * their keys. 0, or -1 when an activity has more values than its place (counts not of this
 * selection). */
static int scatter_durations(const struct iodfg_session *s, struct iodfg_partial_values *v,
                             const uint64_t *end, int codes)
{
    struct part p = part_of(s);
    const int64_t *dur = p.col->dur_ns;
    const uint16_t *code = codes ? iodfg_analysis_event_codes(iodfg_session_analysis(s)) : NULL;
    uint64_t n = iodfg_eventlog_event_count(p.log);
    uint32_t nc = iodfg_eventlog_case_count(p.log);
    for (uint32_t c = 0; c < (code ? 1 : nc) && dur; c++) {
        uint64_t lo = 0, hi = n;
        if (!code && !iodfg_trace_case_range(p.log, p.sel, c, &lo, &hi)) {
            continue;
        }
        for (uint64_t e = lo; e < hi; e++) {
            uint32_t a = code ? iodfg_code_activity(code[e]) : p.act[p.col->key[e]];
            if (a == IODFG_NO_ACTIVITY || dur[e] == IODFG_UNKNOWN) {
                continue;
            }
            if (v->act_off[a] == end[a]) {
                return -1;
            }
            v->act_v[v->act_off[a]++] = dur[e];
        }
    }
    return 0;
}

/* Count each activity's known durations of the selected events into counts[a + 1]. */
static void count_durations(const struct iodfg_session *s, uint64_t *counts)
{
    struct part p = part_of(s);
    uint32_t nc = iodfg_eventlog_case_count(p.log);
    for (uint32_t c = 0; c < nc && p.col->dur_ns; c++) {
        uint64_t lo, hi;
        if (!iodfg_trace_case_range(p.log, p.sel, c, &lo, &hi)) {
            continue;
        }
        for (uint64_t e = lo; e < hi; e++) {
            uint32_t a = p.act[p.col->key[e]];
            counts[a + 1] += a != IODFG_NO_ACTIVITY && p.col->dur_ns[e] != IODFG_UNKNOWN;
        }
    }
}

/* Activity a's known durations of the selected events, grouped by activity. The session's
 * statistics count them (dur_n), which lays them out without a counting pass; should those
 * counts not match (they are the key sums of the same events), they are counted and placed
 * from the keys, as the counts are. */
static int durations(const struct iodfg_session *s, struct iodfg_partial_values *v)
{
    const struct iodfg_stats *st = iodfg_analysis_stats(iodfg_session_analysis(s));
    uint64_t *end = calloc((size_t)v->nact + 2, sizeof(*end));
    v->act_off = calloc((size_t)v->nact + 2, sizeof(*v->act_off));
    int rc = end && v->act_off ? 1 : -1;
    for (int counted = 0; rc == 1 && counted < 2; counted++) {
        memset(v->act_off, 0, ((size_t)v->nact + 2) * sizeof(*v->act_off));
        if (counted) {
            count_durations(s, v->act_off);
        }
        for (uint32_t a = 0; a < v->nact; a++) {
            v->act_off[a + 1] +=
                v->act_off[a] + (counted || st->nactivities != v->nact ? 0 : st->act[a].dur_n);
            end[a] = v->act_off[a + 1];
        }
        free(v->act_v);
        v->act_v = iodfg_bigmem_alloc((size_t)(v->act_off[v->nact] + 1) * sizeof(*v->act_v));
        rc = !v->act_v ? -1 : scatter_durations(s, v, end, !counted) == 0 ? 0 : 1;
        for (uint32_t a = 0; rc == 0 && a < v->nact; a++) {
            rc = v->act_off[a] == end[a] ? 0 : 1; // every place filled
        }
    }
    free(end);
    if (rc) {
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
