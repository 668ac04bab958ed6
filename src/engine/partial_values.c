/* SPDX-License-Identifier: MIT */
/* Partial results that do not add up: the values behind the percentiles (a process counts how
 * many lie in each bucket of a range, and those counts add up; partial_conc.c has the
 * concurrency's): the edges' gaps collected, the activities' durations read where they lie.
 * doc/mpi.md. */
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
    v->nslots = iodfg_dfg_slots(iodfg_analysis_dfg(iodfg_session_analysis(s)));
    if (gaps ? edge_gaps(s, v, err) : no_gaps(v, err)) {
        iodfg_partial_values_fini(v);
        return -1;
    }
    return 0;
}

/* ---- the durations read where they lie, for iodfg-mpi's rounds ---- */

/* One range of the keeping pass: a value v is in it when (v ^ 2^63) - lo <= span. A value in
 * either range of its activity is written at out[k] of both (room for cap + 1) and counted only
 * where it is in the range and k is below cap. A range of none: lo = span = 0 (only
 * v = INT64_MIN, the unknown duration, which the walk skips), out a spare word. */
struct keep_slot {
    uint64_t lo, span;
    int64_t *out;
    uint64_t k, cap;
};

static inline uint64_t slot_holds(const struct keep_slot *r, int64_t d)
{
    return ((uint64_t)d ^ IODFG_CUT_SIGN) - r->lo <= r->span;
}

static inline void keep_one(struct keep_slot *r, int64_t d, uint64_t *over)
{
    uint64_t in = slot_holds(r, d), full = r->k >= r->cap;
    r->out[r->k] = d;
    *over |= in & full;
    r->k += in & !full;
}

/* A walk over the durations: each counted in its activity's first-cut histogram, or kept by its
 * activity's two ranges (slot 2a and 2a + 1). */
struct dur_walk {
    uint64_t *hist; /* HIST_COPIES histograms of copy_words counts each (or one: copy_words 0) */
    size_t copy_words;
    struct keep_slot *slot;
    uint64_t over; /* a range got more than its cap */
};

/* Histograms counted side by side in the first pass, then added up; only while they are small
 * (iodfg_partial_hist_copies_max): thousands of activities would take 32 kB each. */
#define HIST_COPIES 4
size_t iodfg_partial_hist_copies_max = (size_t)4 << 20;

static inline __attribute__((always_inline)) void dur_take(struct dur_walk *w, uint32_t a,
                                                           int64_t d, uint64_t e, int keeping)
{
    if (!keeping) {
        // one of HIST_COPIES histograms by event: an activity's durations fall mostly in a few
        // buckets, and each count waited for the previous one's store to the same word
        w->hist[(e % HIST_COPIES) * w->copy_words + (size_t)a * IODFG_PARTIAL_BUCKETS +
                iodfg_cut_log_bucket(d)]++;
        return;
    }
    // most durations lie outside both narrowed ranges: test them before storing anything
    struct keep_slot *r = &w->slot[2 * (size_t)a];
    if (slot_holds(&r[0], d) || slot_holds(&r[1], d)) {
        keep_one(&r[0], d, &w->over);
        keep_one(&r[1], d, &w->over);
    }
}

/* Every known duration of the session's selected, mapped events into w, in event order: over
 * the session's activity codes when it wrote them, else over the selected cases' keys. */
static inline __attribute__((always_inline)) void dur_walk(const struct iodfg_session *s,
                                                           struct dur_walk *w, int keeping)
{
    struct part p = part_of(s);
    const int64_t *dur = p.col->dur_ns;
    const uint16_t *code = iodfg_analysis_event_codes(iodfg_session_analysis(s));
    if (!dur) {
        return;
    }
    if (code) {
        uint64_t n = iodfg_eventlog_event_count(p.log);
        for (uint64_t e = 0; e < n; e++) {
            uint32_t a = iodfg_code_activity(code[e]);
            if (a != IODFG_NO_ACTIVITY && dur[e] != IODFG_UNKNOWN) {
                dur_take(w, a, dur[e], e, keeping);
            }
        }
        return;
    }
    uint32_t nc = iodfg_eventlog_case_count(p.log);
    for (uint32_t c = 0; c < nc; c++) {
        uint64_t lo, hi;
        if (!iodfg_trace_case_range(p.log, p.sel, c, &lo, &hi)) {
            continue;
        }
        for (uint64_t e = lo; e < hi; e++) {
            uint32_t a = p.act[p.col->key[e]];
            if (a != IODFG_NO_ACTIVITY && dur[e] != IODFG_UNKNOWN) {
                dur_take(w, a, dur[e], e, keeping);
            }
        }
    }
}

void iodfg_partial_dur_hist(const struct iodfg_session *s, uint64_t *hist)
{
    size_t words = (size_t)iodfg_session_analysis(s)->nactivities * IODFG_PARTIAL_BUCKETS;
    size_t bytes = HIST_COPIES * words * sizeof(uint64_t);
    uint64_t *copies =
        words && bytes <= iodfg_partial_hist_copies_max ? iodfg_bigmem_alloc(bytes) : NULL;
    if (copies) {
        memset(copies, 0, bytes);
    }
    struct dur_walk w = {copies ? copies : hist, copies ? words : 0, NULL, 0};
    dur_walk(s, &w, 0);
    for (size_t c = 0; copies && c < HIST_COPIES; c++) {
        for (size_t i = 0; i < words; i++) {
            hist[i] += copies[c * words + i];
        }
    }
    free(copies);
}

int iodfg_partial_dur_keep(const struct iodfg_session *s, struct iodfg_partial_keep_to *keep,
                           size_t nkeep)
{
    // every activity of the session's codes and of its keys has two slots
    size_t nslots = 2 * (size_t)iodfg_session_analysis(s)->nactivities;
    int64_t spare[1];
    struct dur_walk w = {NULL, 0, calloc(nslots + 1, sizeof(*w.slot)), 0};
    if (!w.slot) {
        return -1;
    }
    for (size_t j = 0; j < nslots; j++) {
        const struct iodfg_partial_keep_to *k = j < nkeep && keep[j].out ? &keep[j] : NULL;
        w.slot[j] = k ? (struct keep_slot){k->cut.lo, k->cut.hi - k->cut.lo, k->out, 0, k->cap}
                      : (struct keep_slot){0, 0, spare, 0, 0};
    }
    dur_walk(s, &w, 1);
    for (size_t j = 0; j < nslots && j < nkeep; j++) {
        keep[j].k = keep[j].out ? w.slot[j].k : keep[j].k;
    }
    free(w.slot);
    return w.over ? -1 : 0;
}

void iodfg_partial_values_fini(struct iodfg_partial_values *v)
{
    free(v->edge_off);
    free(v->edge_v);
    memset(v, 0, sizeof(*v));
}

uint64_t iodfg_partial_rank(uint64_t n, unsigned pct)
{
    uint64_t rank = ((uint64_t)pct * n + 99) / 100; // as iodfg_stats_percentile
    return rank < 1 ? 1 : rank;
}
