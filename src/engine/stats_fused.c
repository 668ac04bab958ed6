/* SPDX-License-Identifier: MIT */
/* The fused recount after a large rule edit or for a full computation (a new selection): the DFG
 * of every selected case counted on two threads, with the histograms of durations and gaps that
 * the statistics walk then reuses (and, for a full computation, the key sums and every event's
 * activity code). */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "iodfg/dfg.h"
#include "iodfg/error.h"
#include "iodfg/eventlog.h"
#include "iodfg/forkjoin.h"
#include "iodfg/mapping.h"
#include "iodfg/stats.h"
#include "iodfg/trace.h"

#include "dfg_priv.h"
#include "stats_priv.h"

/* ---- DFG count with histograms: the recount from scratch after a large rule edit ----
 * Two workers count halves of the cases (by events) into their own DFGs, the second one merged
 * into the first afterwards in its slot order (the slots then come in the order one walk over
 * all cases makes them, and every count and sum is an integer sum). In the same walk over the
 * key, start and dur columns they count the histograms of the activity durations and edge gaps,
 * which are kept for the large groups: the statistics walk that follows then gathers only the
 * values of their target buckets, in one pass instead of two. */

uint32_t iodfg_count_hist_max = 256;
uint32_t iodfg_count_full_act_max = 128;

struct ch_worker {
    const struct iodfg_eventlog *log;
    const struct iodfg_selection *sel;
    const uint32_t *act;
    uint32_t c0, c1; /* cases [c0, c1) */
    struct iodfg_dfg *g;
    uint16_t *codes;             /* per event: its code written on the way, or NULL */
    int full;                    /* full count: codes of unselected events too */
    struct iodfg_key_sums *sums; /* per key: sums of the worker's events, or NULL: none */
    uint32_t na;
    uint32_t *tab;      /* dense: (prev, to) -> slot + 1, prev na = ●, to na = ■; or NULL */
    uint32_t **ah;      /* per activity: duration histogram or NULL */
    uint32_t **eh;      /* per slot: gap histogram or NULL */
    uint8_t *elost;     /* per slot: a gap went uncounted (no histogram) */
    size_t neh, nalloc; /* entries of eh/elost; histograms allocated */
    size_t last_slot;   /* one-entry cache of slot lookups without the table */
    uint32_t last_from, last_to;
    int rc;
};

/* The slot of (from, to) in the worker's DFG, or SIZE_MAX when out of memory. */
static size_t ch_slot(struct ch_worker *w, uint32_t from, uint32_t to)
{
    uint32_t *t = NULL;
    if (w->tab) {
        uint32_t fi = from == IODFG_NODE_START ? w->na : from;
        uint32_t ti = to == IODFG_NODE_END ? w->na : to;
        t = &w->tab[(size_t)fi * (w->na + 1) + ti];
        if (*t) {
            return *t - 1;
        }
    } else if (from == w->last_from && to == w->last_to) {
        return w->last_slot;
    }
    struct iodfg_dfg_edge *e = iodfg_dfg_slot(w->g, from, to);
    if (!e) {
        return SIZE_MAX;
    }
    size_t slot = (size_t)(e - w->g->edges);
    if (slot >= w->neh) {
        size_t m = w->neh ? w->neh * 2 : 64;
        while (m <= slot) {
            m *= 2;
        }
        uint32_t **eh = realloc(w->eh, m * sizeof(*eh));
        if (!eh) {
            return SIZE_MAX;
        }
        w->eh = eh;
        uint8_t *el = realloc(w->elost, m);
        if (!el) {
            return SIZE_MAX;
        }
        w->elost = el;
        memset(w->eh + w->neh, 0, (m - w->neh) * sizeof(*eh));
        memset(w->elost + w->neh, 0, m - w->neh);
        w->neh = m;
    }
    if (t) {
        *t = (uint32_t)slot + 1;
    } else {
        w->last_from = from;
        w->last_to = to;
        w->last_slot = slot;
    }
    return slot;
}

/* The edge histogram of slot for its next gaps: allocated on the slot's first gap within the
 * budget; NULL once a gap went uncounted. */
static uint32_t *ch_gap_hist(struct ch_worker *w, size_t slot)
{
    uint32_t *h = w->eh[slot];
    if (!h && !w->elost[slot]) {
        h = w->nalloc < iodfg_count_hist_max ? calloc(IODFG_PB_N, sizeof(*h)) : NULL;
        w->nalloc += h != NULL;
        w->eh[slot] = h;
        w->elost[slot] = h == NULL;
    }
    return h;
}

/* A run of n occurrences of one edge, with their gaps' sum when they have gaps, into its slot. */
static inline void ch_run_store(struct iodfg_dfg_edge *ed, uint64_t n, int has_gap, int64_t gap)
{
    ed->count += n;
    ed->gap_n += has_gap ? n : 0;
    ed->gap_sum_ns = iodfg_sat_add(ed->gap_sum_ns, gap);
}

/* Count one trace made of the events [lo, hi) (count_trace of dfg.c plus the histograms). A run
 * of events on one edge adds up in registers and is stored when the edge changes. */
static inline __attribute__((always_inline)) int ch_trace_impl(struct ch_worker *w, uint64_t lo,
                                                               uint64_t hi, const int with_sums,
                                                               const int with_codes)
{
    struct iodfg_dfg *g = w->g;
    const struct iodfg_columns *col = iodfg_eventlog_columns(w->log);
    const uint32_t *restrict key = col->key;
    const uint32_t *restrict act = w->act;
    const int64_t *restrict start = col->start_ns;
    const int64_t *restrict dur = col->dur_ns;
    const int64_t *restrict size = col->size;
    struct iodfg_key_sums *restrict sums = w->sums;
    uint32_t *const *ah = w->ah;
    const uint32_t *restrict tab = w->tab;
    const uint32_t na = w->na;
    if (g->next_stamp > UINT32_MAX / 2 - 4) { // stamps would wrap: restart them
        if (g->nedges) {
            memset(g->stamp, 0, g->nedges * sizeof(*g->stamp));
        }
        g->next_stamp = 0;
    }
    uint32_t prev = IODFG_NODE_START, stamp = g->next_stamp + 1;
    int64_t prev_end = 0;
    size_t cur = SIZE_MAX;  // the slot of the running edge
    uint32_t run_from = IODFG_NO_ACTIVITY, run_to = IODFG_NO_ACTIVITY; // and its ends
    uint64_t run_n = 0;     // its occurrences in the run
    int64_t run_gap = 0;    // and the sum of their gaps
    uint32_t *run_h = NULL; // its gap histogram
    int run_has_gap = 0;
    uint16_t *restrict codes = w->codes;
    for (uint64_t e = lo; e < hi; e++) {
        uint32_t k = key[e];
        if (with_sums) {
            iodfg_key_sums_add(&sums[k], dur ? dur[e] : IODFG_UNKNOWN,
                               size ? size[e] : IODFG_UNKNOWN);
        }
        uint32_t a = act[k];
        if (with_codes) {
            codes[e] = a == IODFG_NO_ACTIVITY ? IODFG_CODE_NONE : (uint16_t)a;
        }
        if (a == IODFG_NO_ACTIVITY) {
            continue;
        }
        if (a != run_to || prev != run_from) { // another edge than the running one
            uint32_t t =
                tab ? tab[(size_t)(prev == IODFG_NODE_START ? na : prev) * (na + 1) + a] : 0;
            size_t slot = t ? t - 1 : ch_slot(w, prev, a);
            if (slot == SIZE_MAX) {
                return -1;
            }
            run_from = prev;
            run_to = a;
            if (cur != SIZE_MAX) {
                ch_run_store(&g->edges[cur], run_n, run_has_gap, run_gap);
            }
            cur = slot;
            run_n = 0;
            run_gap = 0;
            run_has_gap = prev != IODFG_NODE_START;
            run_h = run_has_gap ? ch_gap_hist(w, slot) : NULL;
            g->touched[slot] = 1;
            if (g->stamp[slot] != stamp) {
                g->stamp[slot] = stamp;
                g->edges[slot].cases++;
            }
        }
        run_n++;
        int64_t s = start[e], d = dur ? dur[e] : IODFG_UNKNOWN;
        if (run_has_gap) {
            run_gap = iodfg_sat_add(run_gap, s - prev_end);
            if (run_h) {
                run_h[iodfg_pbucket(s - prev_end)]++;
            }
        }
        if (d != IODFG_UNKNOWN && ah[a]) {
            ah[a][iodfg_pbucket(d)]++;
        }
        prev = a;
        prev_end = s + (d == IODFG_UNKNOWN ? 0 : d);
    }
    g->next_stamp += 2;
    if (prev == IODFG_NODE_START) {
        return 0;
    }
    ch_run_store(&g->edges[cur], run_n, run_has_gap, run_gap);
    size_t slot = ch_slot(w, prev, IODFG_NODE_END);
    if (slot == SIZE_MAX) {
        return -1;
    }
    struct iodfg_dfg_edge *ed = &g->edges[slot];
    g->touched[slot] = 1;
    ed->count++;
    if (g->stamp[slot] != stamp) {
        g->stamp[slot] = stamp;
        ed->cases++;
    }
    g->traces++;
    return 0;
}

static int ch_trace(struct ch_worker *w, uint64_t lo, uint64_t hi)
{
    return w->codes ? ch_trace_impl(w, lo, hi, 0, 1) : ch_trace_impl(w, lo, hi, 0, 0);
}

static int ch_trace_sums(struct ch_worker *w, uint64_t lo, uint64_t hi)
{
    return w->codes ? ch_trace_impl(w, lo, hi, 1, 1) : ch_trace_impl(w, lo, hi, 1, 0);
}

static void codes_off(uint16_t *codes, uint64_t lo, uint64_t hi)
{
    for (uint64_t e = lo; e < hi; e++) {
        codes[e] = IODFG_CODE_OFF;
    }
}

static void ch_run(struct ch_worker *w)
{
    const uint64_t *off = iodfg_eventlog_case_offsets(w->log);
    for (uint32_t c = w->c0; c < w->c1 && !w->rc; c++) {
        uint64_t lo, hi;
        if (!iodfg_trace_case_range(w->log, w->sel, c, &lo, &hi)) {
            lo = hi = off[c + 1];
        } else if (w->sums ? ch_trace_sums(w, lo, hi) : ch_trace(w, lo, hi)) {
            w->rc = -1;
        }
        if (w->full && w->codes) { // the events of the case outside the selection
            codes_off(w->codes, off[c], lo);
            codes_off(w->codes, hi, off[c + 1]);
        }
    }
}

static void *ch_thread(void *vw)
{
    ch_run(vw);
    return NULL;
}

static void ch_free(struct ch_worker *w)
{
    for (size_t i = 0; i < w->neh; i++) {
        free(w->eh[i]);
    }
    for (uint32_t a = 0; w->ah && a < w->na; a++) {
        free(w->ah[a]);
    }
    free(w->eh);
    free(w->elost);
    free(w->ah);
    free(w->tab);
}

/* The dr term of one event as iodfg_key_sums_add adds it (z and d known, d > 0). */
static inline int dr_term(int64_t d, int64_t z, double *x)
{
    if (z == IODFG_UNKNOWN || d == IODFG_UNKNOWN || d <= 0) {
        return 0;
    }
    *x = (double)z * 1e9 / (double)d;
    return 1;
}

/* The second worker's key sums into the first one's: integer sums add up exactly; a floating
 * dr_sum is exact when one side has no term, and the keys with terms on both sides get the
 * second worker's terms added again in event order (as one walk adds them). */
static int merge_sums(struct ch_worker *w0, const struct ch_worker *w1, uint32_t nkeys)
{
    uint8_t *refold = NULL;
    for (uint32_t k = 0; k < nkeys; k++) {
        struct iodfg_key_sums *s = &w0->sums[k];
        const struct iodfg_key_sums *t = &w1->sums[k];
        if (!t->count) {
            continue;
        }
        s->count += t->count;
        s->dur_n += t->dur_n;
        s->dur_sum_ns = iodfg_sat_add(s->dur_sum_ns, t->dur_sum_ns);
        s->bytes = iodfg_sat_add(s->bytes, t->bytes);
        s->dur_min_ns = t->dur_min_ns < s->dur_min_ns ? t->dur_min_ns : s->dur_min_ns;
        s->dur_max_ns = t->dur_max_ns > s->dur_max_ns ? t->dur_max_ns : s->dur_max_ns;
        if (t->dr_n && !s->dr_n) {
            s->dr_sum = t->dr_sum;
        } else if (t->dr_n) {
            if (!refold) {
                refold = calloc((size_t)nkeys + 1, 1);
                if (!refold) {
                    return -1;
                }
            }
            refold[k] = 1;
        }
        s->dr_n += t->dr_n;
    }
    if (!refold) {
        return 0;
    }
    const struct iodfg_columns *col = iodfg_eventlog_columns(w1->log);
    const uint32_t *key = col->key;
    const int64_t *dur = col->dur_ns, *size = col->size;
    for (uint32_t c = w1->c0; c < w1->c1 && dur && size; c++) {
        uint64_t lo, hi;
        if (!iodfg_trace_case_range(w1->log, w1->sel, c, &lo, &hi)) {
            continue;
        }
        for (uint64_t e = lo; e < hi; e++) {
            double x;
            if (refold[key[e]] && dr_term(dur[e], size[e], &x)) {
                w0->sums[key[e]].dr_sum += x;
            }
        }
    }
    free(refold);
    return 0;
}

/* What every worker of a count shares. */
struct ch_plan {
    const struct iodfg_eventlog *log;
    const struct iodfg_selection *sel;
    const uint32_t *act;
    const struct iodfg_stats *st;
    const uint8_t *dirty;
    struct iodfg_hstore *hs;
    uint16_t *codes;
    struct iodfg_key_sums *sums; /* NULL: none added */
    uint32_t na, nkeys;
    int full; /* a full count (iodfg_dfg_count_full) */
};

/* Worker t over cases [c0, c1) counting into g: its tables, key sums and the activity
 * histograms it keeps. 0, or -1 out of memory. */
static int ch_setup(struct ch_worker *w, const struct ch_plan *p, int t, uint32_t c0, uint32_t c1,
                    struct iodfg_dfg *g)
{
    uint32_t na = p->na;
    w->log = p->log;
    w->sel = p->sel;
    w->act = p->act;
    w->c0 = c0;
    w->c1 = c1;
    w->g = g;
    w->codes = p->codes;
    w->full = p->full;
    w->na = na;
    w->last_from = w->last_to = IODFG_NO_ACTIVITY;
    w->nalloc = p->hs ? 0 : iodfg_count_hist_max; // nothing to keep: no edge histograms
    w->ah = calloc((size_t)na + 1, sizeof(*w->ah));
    if (na <= iodfg_scan_dense_max) {
        w->tab = calloc(((size_t)na + 1) * (na + 1), sizeof(*w->tab));
    }
    if (p->sums) {
        w->sums = t ? malloc(((size_t)p->nkeys + 1) * sizeof(*w->sums)) : p->sums;
        if (!w->sums) {
            return -1;
        }
        iodfg_key_sums_clear(w->sums, p->nkeys);
    }
    if (!w->ah || (na <= iodfg_scan_dense_max && !w->tab)) {
        return -1;
    }
    // a full count knows no group sizes yet: every activity's histogram, when few
    const struct iodfg_stats *st = p->st;
    int all = p->full && na <= iodfg_count_full_act_max;
    for (uint32_t a = 0; p->hs && (all || st) && a < na && (all || a < st->nactivities); a++) {
        if (all || ((!p->dirty || p->dirty[a]) && st->act[a].dur_n >= iodfg_pctl_large)) {
            w->ah[a] = calloc(IODFG_PB_N, sizeof(**w->ah));
            if (!w->ah[a]) {
                return -1;
            }
        }
    }
    return 0;
}

/* The second worker's edges (g1, in its slot order) into g, their gap histograms into the first
 * worker's. 0, or -1 out of memory. */
static int merge_edges(struct iodfg_dfg *g, const struct iodfg_dfg *g1, struct ch_worker *w0,
                       struct ch_worker *w1)
{
    for (size_t i = 0; i < g1->nedges; i++) {
        const struct iodfg_dfg_edge *e1 = &g1->edges[i];
        size_t slot = ch_slot(w0, e1->from, e1->to);
        if (slot == SIZE_MAX) {
            return -1;
        }
        struct iodfg_dfg_edge *d = &g->edges[slot];
        int seen = d->count != 0; // the first worker counted this edge too
        d->count += e1->count;
        d->cases += e1->cases;
        d->gap_n += e1->gap_n;
        d->gap_sum_ns = iodfg_sat_add(d->gap_sum_ns, e1->gap_sum_ns);
        g->touched[slot] = 1;
        g->stamp[slot] = 0; // older than every trace counted from now on
        uint32_t *h1 = i < w1->neh ? w1->eh[i] : NULL;
        int lost1 = i < w1->neh && w1->elost[i];
        if (lost1 || w0->elost[slot]) {
            w0->elost[slot] = 1;
        } else if (h1 && w0->eh[slot]) {
            for (size_t b = 0; b < IODFG_PB_N; b++) {
                w0->eh[slot][b] += h1[b];
            }
        } else if (h1 && !seen) {
            w0->eh[slot] = h1;
            w1->eh[i] = NULL;
        } else if (h1) {
            w0->elost[slot] = 1; // cannot happen: a seen edge with gaps has a histogram or is lost
        }
    }
    g->traces += g1->traces;
    uint64_t ns = (uint64_t)g->next_stamp + g1->next_stamp;
    g->next_stamp = (uint32_t)(ns < UINT32_MAX / 2 ? ns : UINT32_MAX / 2);
    for (uint32_t a = 0; a < w0->na; a++) {
        for (size_t b = 0; w0->ah[a] && b < IODFG_PB_N; b++) {
            w0->ah[a][b] += w1->ah[a][b];
        }
    }
    return 0;
}

/* Keep the histograms of the large groups in hs (exact by construction; scans check the totals). */
static void keep_large(struct iodfg_hstore *hs, const struct iodfg_dfg *g, struct ch_worker *w0,
                       int full)
{
    for (uint32_t a = 0; a < w0->na; a++) {
        uint64_t n = 0;
        for (size_t b = 0; full && w0->ah[a] && b < IODFG_PB_N; b++) {
            n += w0->ah[a][b]; // the activity's dur_n
        }
        if (w0->ah[a] && (!full || n >= iodfg_pctl_large)) {
            iodfg_hstore_take(hs, 0, a, &w0->ah[a]);
        }
    }
    for (size_t i = 0; i < g->nedges && i < w0->neh; i++) {
        if (w0->eh[i] && !w0->elost[i] && g->edges[i].gap_n >= iodfg_pctl_large) {
            iodfg_hstore_take(hs, 1, i, &w0->eh[i]);
        }
    }
}

static int count_hist(struct iodfg_dfg *g, const struct iodfg_eventlog *log, const uint32_t *act,
                      const struct iodfg_selection *sel, const struct iodfg_stats *st,
                      const uint8_t *dirty, struct iodfg_hstore *hs, uint16_t *codes,
                      struct iodfg_key_sums *sums, int full, struct iodfg_error *err)
{
    struct ch_plan p = {
        log, sel, act, st, dirty, hs, codes, sums, g->nactivities, iodfg_eventlog_key_count(log),
        full};
    uint32_t nc = iodfg_eventlog_case_count(log);
    struct ch_worker W[2];
    struct iodfg_dfg g1;
    memset(W, 0, sizeof(W));
    iodfg_dfg_init(&g1);
    g1.nactivities = p.na;
    int rc = -1;
    // two workers over halves of the cases (by events) when there is enough work
    uint32_t split = iodfg_scan_split(log, NULL, nc);
    int nw = split < nc ? 2 : 1;
    for (int t = 0; t < nw; t++) {
        if (ch_setup(&W[t], &p, t, t ? split : 0, t ? nc : split, t ? &g1 : g)) {
            goto nomem;
        }
    }
    struct iodfg_fork fork = {0};
    if (nw > 1) {
        iodfg_fork_start(&fork, 1, IODFG_FORK_TASK, ch_thread, &W[1]);
    }
    ch_run(&W[0]);
    iodfg_fork_join(&fork);
    if (W[0].rc || W[1].rc || (sums && nw > 1 && merge_sums(&W[0], &W[1], p.nkeys))) {
        goto nomem;
    }
    if (nw > 1 && merge_edges(g, &g1, &W[0], &W[1])) {
        goto nomem;
    }
    keep_large(hs, g, &W[0], full);
    rc = 0;
    goto out;
nomem:
    iodfg_error_set(err, IODFG_E_NOMEM, "out of memory counting transitions");
out:
    if (W[1].sums != sums) {
        free(W[1].sums);
    }
    ch_free(&W[0]);
    ch_free(&W[1]);
    iodfg_dfg_fini(&g1);
    return rc;
}

int iodfg_dfg_count_hist(struct iodfg_dfg *g, const struct iodfg_eventlog *log, const uint32_t *act,
                         const struct iodfg_selection *sel, const struct iodfg_stats *st,
                         const uint8_t *dirty, struct iodfg_hstore *hs, uint16_t *codes,
                         struct iodfg_error *err)
{
    return count_hist(g, log, act, sel, st, dirty, hs, codes, NULL, 0, err);
}

int iodfg_dfg_count_full(struct iodfg_dfg *g, const struct iodfg_eventlog *log, const uint32_t *act,
                         const struct iodfg_selection *sel, struct iodfg_hstore *hs,
                         uint16_t *codes, struct iodfg_key_sums *sums, struct iodfg_error *err)
{
    const uint64_t *off = iodfg_eventlog_case_offsets(log);
    uint32_t nc = iodfg_eventlog_case_count(log);
    if (codes) { // events in no case (none in a well-formed log)
        codes_off(codes, 0, off[0]);
        codes_off(codes, off[nc], iodfg_eventlog_event_count(log));
    }
    return count_hist(g, log, act, sel, NULL, NULL, hs, codes, sums, 1, err);
}
