/* SPDX-License-Identifier: MIT */
/* The statistics walk: cases per activity, exact duration percentiles and edge gap medians in
 * one or two passes over the selected events, on two threads when the log is large. */
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
#include "stats_pctl.h"
#include "stats_priv.h"

#define ALWAYS_INLINE inline __attribute__((always_inline))
/* A trace of at least this many events per activity counts its activities' cases after it. */
#define SCAN_LATE_RATIO 8

uint64_t iodfg_scan_split_min = 1u << 14;
uint32_t iodfg_scan_dense_max = 512;

/* A group in the running pass. A target bucket is a range of values: in offset space
 * (o = v ^ 2^63, which orders like v) those of [lo, lo + span], so that a value is tested
 * against a target bucket without computing its bucket. */
struct scan_group {
    uint64_t lo0, span0; /* target 0's bucket */
    uint64_t lo1, span1; /* target 1's bucket when another one (else target 0's again) */
    uint32_t hidx;       /* counting histogram, or IODFG_PB_NONE */
    uint8_t mode;
};

/* What both workers read. */
struct scan_job {
    const struct iodfg_eventlog *log;
    const struct iodfg_columns *col;
    const uint32_t *act;
    const struct iodfg_selection *sel;
    const uint32_t *cases; /* NULL = every case */
    const uint64_t *span;  /* per listed case: the events taking values lie in [span[2k],
                              span[2k+1]) or are the one with an activity after it; NULL:
                              anywhere */
    struct iodfg_dfg *g;
    struct pctl *P;
    uint32_t na;    /* activity groups (0 without statistics) */
    uint8_t *aw;    /* per activity: its group takes values in this pass */
    uint32_t *etab; /* dense (from, to) -> group taking values in this pass, or IODFG_PB_NONE */
    uint32_t tdim;  /* activities of the dense table (0: hash lookups) */
    struct scan_group *grp; /* per group: what it does with a value in this pass */
    int pass, any_edge;     /* any_edge: some edge group takes values in this pass */
    const uint16_t *codes;  /* per event: its activity code (ready), or NULL: act[key] */
    int fast;               /* no group counts a histogram in this pass and etab is set: the
                               groups' ranges decide alone (scan_trace_fast) */
    int sparse;             /* a fast pass where some activity takes no durations: an event's
                               times are read only when one of its values is taken */
};

struct scan_worker {
    const struct scan_job *J;
    uint32_t k0, k1;       /* listed cases [k0, k1) */
    int dir;               /* 0: fill regions upward from their start, 1: downward from their end */
    int64_t step;          /* +1 or -1 */
    int64_t *fill, *fill1; /* per group: next slot */
    uint32_t *hist;        /* this worker's histograms */
    uint32_t *stamp;       /* per activity: last trace counted */
    uint64_t *ncases;      /* per activity: traces holding it */
    uint32_t base;         /* trace numbers used so far */
    uint32_t last_from, last_to, last_gi; /* one-entry cache of hash lookups */
    struct fast_group *fg;                /* per group, in a fast pass */
    uint8_t *takes; /* per activity, in a sparse pass: its group takes durations */
    int rc;
    struct iodfg_error err;
};

static ALWAYS_INLINE void take(struct scan_worker *w, uint32_t gi, int64_t v)
{
    const struct scan_job *J = w->J;
    const struct scan_group *sg = &J->grp[gi];
    switch (sg->mode) {
    case PM_GATHER:
        J->P->vals[w->fill[gi]] = v;
        w->fill[gi] += w->step;
        break;
    case PM_HIST:
        w->hist[(size_t)sg->hidx * IODFG_PB_N + iodfg_pbucket(v)]++;
        break;
    case PM_TARGET: {
        uint64_t o = (uint64_t)v ^ IODFG_PB_SIGN;
        if (o - sg->lo0 <= sg->span0) {
            J->P->vals[w->fill[gi]] = v;
            w->fill[gi] += w->step;
        } else if (o - sg->lo1 <= sg->span1) {
            J->P->vals[w->fill1[gi]] = v;
            w->fill1[gi] += w->step;
        }
        break;
    }
    default:
        break;
    }
}

/* The group of edge (from, to) taking values in this pass, or IODFG_PB_NONE. */
static inline uint32_t edge_group(struct scan_worker *w, uint32_t from, uint32_t to)
{
    const struct scan_job *J = w->J;
    if (J->etab) {
        return J->etab[(size_t)from * J->tdim + to];
    }
    if (from == w->last_from && to == w->last_to) {
        return w->last_gi;
    }
    const struct iodfg_dfg_edge *e = iodfg_dfg_find(J->g, from, to);
    uint32_t gi = IODFG_PB_NONE;
    if (e) {
        gi = J->na + (uint32_t)(e - J->g->edges);
        if (J->grp[gi].mode == PM_SKIP) {
            gi = IODFG_PB_NONE;
        }
    }
    w->last_from = from;
    w->last_to = to;
    w->last_gi = gi;
    return gi;
}

static int scan_one(void *vw, uint32_t from, uint32_t to, int has_gap, int64_t gap, uint32_t trace,
                    uint64_t ev)
{
    struct scan_worker *w = vw;
    const struct scan_job *J = w->J;
    if (to < J->na && J->aw[to]) {
        if (!J->pass && w->stamp[to] != w->base + trace + 1) {
            w->stamp[to] = w->base + trace + 1;
            w->ncases[to]++;
        }
        int64_t d = J->col->dur_ns ? J->col->dur_ns[ev] : IODFG_UNKNOWN;
        if (d != IODFG_UNKNOWN) {
            take(w, to, d);
        }
    }
    if (has_gap && J->any_edge) {
        uint32_t gi = edge_group(w, from, to);
        if (gi != IODFG_PB_NONE) {
            take(w, gi, gap);
        }
    }
    return 0;
}

/* One trace made of the events [lo, hi): scan_one without the call (the common case). */
static void scan_trace(struct scan_worker *w, uint64_t lo, uint64_t hi, uint32_t tr)
{
    const struct scan_job *J = w->J;
    const uint32_t *key = J->col->key, *act = J->act;
    const int64_t *start = J->col->start_ns, *dur = J->col->dur_ns;
    const uint8_t *aw = J->aw;
    uint32_t na = J->na, prev = IODFG_NODE_START;
    int any_edge = J->any_edge, first = !J->pass;
    // the times of an event are read only when one of its values is taken: long runs of events
    // of activities and edges that take none then cost one key column read
    uint64_t prev_e = lo;
    for (uint64_t e = lo; e < hi; e++) {
        uint32_t a = act[key[e]];
        if (a == IODFG_NO_ACTIVITY) {
            continue;
        }
        if (a < na && aw[a]) {
            if (first && w->stamp[a] != tr) {
                w->stamp[a] = tr;
                w->ncases[a]++;
            }
            int64_t d = dur ? dur[e] : IODFG_UNKNOWN;
            if (d != IODFG_UNKNOWN) {
                take(w, a, d);
            }
        }
        if (any_edge && prev != IODFG_NODE_START) {
            uint32_t gi = edge_group(w, prev, a);
            if (gi != IODFG_PB_NONE) {
                int64_t pd = dur ? dur[prev_e] : IODFG_UNKNOWN;
                take(w, gi, start[e] - (start[prev_e] + (pd == IODFG_UNKNOWN ? 0 : pd)));
            }
        }
        prev = a;
        prev_e = e;
    }
}

/* A group in a fast pass, as one worker sees it: its ranges and where its next values go. */
struct fast_group {
    uint64_t lo0, span0, lo1, span1;
    int64_t fill0, fill1;
};

/* Take v into group f when it lies in one of its ranges (a gathering group has the range of
 * every value as target 0; a group taking no values, empty ranges at offset 0, which only
 * IODFG_UNKNOWN would meet and which is never taken). */
static ALWAYS_INLINE void take_fast(struct fast_group *restrict f, int64_t *restrict vals,
                                    int64_t step, int64_t v)
{
    uint64_t o = (uint64_t)v ^ IODFG_PB_SIGN;
    if (__builtin_expect(o - f->lo0 <= f->span0, 0)) {
        vals[f->fill0] = v;
        f->fill0 += step;
    } else if (__builtin_expect(o - f->lo1 <= f->span1, 0)) {
        vals[f->fill1] = v;
        f->fill1 += step;
    }
}

/* scan_trace of a fast pass (no histogram counted, edges through the dense table, the start and
 * dur columns present, the activity groups those of the table's activities or none): first
 * counts the cases of the wanted activities (1: on an activity's first event in the trace, 2:
 * every event stamps its activity and the wanted ones stamped are counted after the trace, which
 * is cheaper when the trace is long against the activities), acts takes durations; sparse reads
 * the times of an event only when its activity (w->takes) or its edge takes a value, so that the
 * runs of events taking none (after a rule edit, most) cost the code column alone. */
static ALWAYS_INLINE void scan_trace_fast(struct scan_worker *w, uint64_t lo, uint64_t hi,
                                          uint32_t tr, const int first, const int acts,
                                          const int coded, const int sparse, uint32_t prev0,
                                          uint64_t prev_e0)
{
    const uint16_t *restrict codes = w->J->codes;
    const struct scan_job *J = w->J;
    const uint32_t *restrict key = J->col->key;
    const uint32_t *restrict act = J->act;
    const uint32_t *restrict etab = J->etab;
    const int64_t *restrict start = J->col->start_ns;
    const int64_t *restrict dur = J->col->dur_ns;
    const uint8_t *restrict aw = J->aw;
    struct fast_group *restrict fg = w->fg;
    uint32_t *restrict stamp = w->stamp;
    uint64_t *restrict ncases = w->ncases;
    int64_t *restrict vals = J->P->vals;
    const int64_t step = w->step;
    const uint32_t tdim = J->any_edge ? J->tdim : 0; // no edge takes values: never looked up
    const uint8_t *restrict takes = w->takes;
    uint32_t prev = prev0; // the activity (or ●) before lo, at event prev_e
    uint64_t prev_e = prev_e0;
    int64_t prev_end = 0;
    if (!sparse && prev < tdim) {
        int64_t pd = dur[prev_e];
        prev_end = start[prev_e] + (pd == IODFG_UNKNOWN ? 0 : pd);
    }
    for (uint64_t e = lo; e < hi; e++) {
        uint32_t a;
        if (coded) { // selected events only: NONE for no activity
            a = codes[e];
            if (a >= IODFG_CODE_NONE) {
                continue;
            }
        } else {
            a = act[key[e]];
            if (a == IODFG_NO_ACTIVITY) {
                continue;
            }
        }
        int64_t d = sparse ? 0 : dur[e], s = sparse ? 0 : start[e];
        if (acts) {
            if (first == 2) { // the trace's activities are counted after it
                stamp[a] = tr;
            } else if (first && aw[a] && stamp[a] != tr) {
                stamp[a] = tr;
                ncases[a]++;
            }
            d = sparse && takes[a] ? dur[e] : d;
            if ((!sparse || takes[a]) && d != IODFG_UNKNOWN) {
                take_fast(&fg[a], vals, step, d);
            }
        }
        if (prev < tdim) { // ● first, above every activity
            uint32_t gi = etab[(size_t)prev * tdim + a];
            if (gi != IODFG_PB_NONE) {
                if (sparse) { // the previous event's end, read now
                    int64_t pd = dur[prev_e];
                    prev_end = start[prev_e] + (pd == IODFG_UNKNOWN ? 0 : pd);
                    s = start[e];
                }
                take_fast(&fg[gi], vals, step, s - prev_end);
            }
        }
        prev = a;
        prev_e = e;
        prev_end = sparse ? prev_end : s + (d == IODFG_UNKNOWN ? 0 : d);
    }
    for (uint32_t a = 0; first == 2 && a < J->na; a++) {
        ncases[a] += aw[a] && stamp[a] == tr;
    }
}

/* The activity of event e of a fast pass, or IODFG_NO_ACTIVITY. */
static inline uint32_t fast_act(const struct scan_job *J, uint64_t e)
{
    if (J->codes) {
        return iodfg_code_activity(J->codes[e]);
    }
    return J->act[J->col->key[e]];
}

/* Narrow the trace [*lo, *hi) of listed case k to its span (J->span), widened to the event
 * with an activity just after it (its gap from the span's last one); *prev, *prev_e: the
 * activity before the span (● when none) and its event, for the span's first gap. */
static void fast_span(const struct scan_job *J, uint32_t k, uint64_t *lo, uint64_t *hi,
                      uint32_t *prev, uint64_t *prev_e)
{
    uint64_t a = J->span[2 * (size_t)k], b = J->span[2 * (size_t)k + 1];
    if (a >= b || a >= *hi || b <= *lo) {
        *hi = *lo; // no event of the case takes a value
        return;
    }
    a = a > *lo ? a : *lo;
    b = b < *hi ? b : *hi;
    for (; b < *hi; b++) {
        if (fast_act(J, b) != IODFG_NO_ACTIVITY) {
            b++;
            break;
        }
    }
    for (uint64_t e = a; e-- > *lo;) {
        uint32_t p = fast_act(J, e);
        if (p != IODFG_NO_ACTIVITY) {
            *prev = p;
            *prev_e = e;
            break;
        }
    }
    *lo = a;
    *hi = b;
}

/* scan_trace_fast with acts, sparse when the pass is, over listed case k's span when there is
 * one. */
static ALWAYS_INLINE void scan_fast(struct scan_worker *w, uint32_t k, uint64_t lo, uint64_t hi,
                                    uint32_t tr, const int first, const int coded)
{
    uint32_t prev = IODFG_NODE_START;
    uint64_t prev_e = lo;
    if (w->J->span) {
        fast_span(w->J, k, &lo, &hi, &prev, &prev_e);
    }
    if (w->J->sparse) {
        scan_trace_fast(w, lo, hi, tr, first, 1, coded, 1, prev, prev_e);
    } else {
        scan_trace_fast(w, lo, hi, tr, first, 1, coded, 0, prev, prev_e);
    }
}

/* Prepare the worker's fast groups for the pass (J->fast). */
static void scan_fast_setup(struct scan_worker *w)
{
    const struct scan_job *J = w->J;
    for (uint32_t i = 0; i < J->P->ng; i++) {
        const struct scan_group *sg = &J->grp[i];
        struct fast_group *f = &w->fg[i];
        f->lo0 = sg->lo0;
        f->span0 = sg->span0;
        f->lo1 = sg->lo1;
        f->span1 = sg->span1;
        if (sg->mode == PM_SKIP || (i < J->na && !J->aw[i])) {
            f->lo0 = f->span0 = f->lo1 = f->span1 = 0;
        }
        f->fill0 = w->fill[i];
        f->fill1 = w->fill1[i];
        if (i < J->na) {
            w->takes[i] = (f->lo0 | f->span0 | f->lo1 | f->span1) != 0;
        }
    }
}

static void scan_run(struct scan_worker *w)
{
    const struct scan_job *J = w->J;
    int per_pid = J->sel->per_pid && J->col->pid;
    for (uint32_t k = w->k0; k < w->k1 && !w->rc; k++) {
        uint64_t lo, hi;
        if (!iodfg_trace_case_range(J->log, J->sel, J->cases ? J->cases[k] : k, &lo, &hi)) {
            continue;
        }
        if (w->base > UINT32_MAX / 2 - (hi - lo) - 2) {
            memset(w->stamp, 0, (size_t)J->na * sizeof(*w->stamp));
            w->base = 0;
        }
        if (!per_pid) {
            if (J->fast) {
                uint32_t tr = w->base + 1;
                int late = (uint64_t)J->na * SCAN_LATE_RATIO <= hi - lo;
                if (!J->na) {
                    scan_trace_fast(w, lo, hi, tr, 0, 0, 0, 0, IODFG_NODE_START, lo);
                } else if (J->codes) {
                    if (!J->pass && late) {
                        scan_fast(w, k, lo, hi, tr, 2, 1);
                    } else if (!J->pass) {
                        scan_fast(w, k, lo, hi, tr, 1, 1);
                    } else {
                        scan_fast(w, k, lo, hi, tr, 0, 1);
                    }
                } else if (!J->pass && late) {
                    scan_fast(w, k, lo, hi, tr, 2, 0);
                } else if (!J->pass) {
                    scan_fast(w, k, lo, hi, tr, 1, 0);
                } else {
                    scan_fast(w, k, lo, hi, tr, 0, 0);
                }
            } else {
                scan_trace(w, lo, hi, w->base + 1);
            }
            w->base += 2;
            continue;
        }
        long ntr = iodfg_trace_walk_case(J->log, J->act, lo, hi, 1, scan_one, w, &w->err);
        if (ntr < 0) {
            w->rc = -1;
        } else {
            w->base += (uint32_t)ntr + 1;
        }
    }
}

static void *scan_thread(void *vw)
{
    scan_run(vw);
    return NULL;
}

/* Set the fill positions of worker w for the pass. */
static void scan_fills(struct scan_worker *w, const struct pctl *P)
{
    for (uint32_t i = 0; i < P->ng; i++) {
        const struct pgroup *g = &P->g[i];
        if (g->mode == PM_GATHER) {
            w->fill[i] = (int64_t)(w->dir ? g->off + g->n - 1 : g->off);
        } else if (g->mode == PM_TARGET) {
            w->fill[i] = (int64_t)(w->dir ? g->off + g->m0 - 1 : g->off);
            w->fill1[i] = (int64_t)(w->dir ? g->off1 + g->m1 - 1 : g->off1);
        }
    }
}

/* What takes values in the pass: modes, activity flags and the dense edge table. */
static void scan_pass_setup(struct scan_job *J, int pass)
{
    const struct pctl *P = J->P;
    J->pass = pass;
    for (uint32_t i = 0; i < P->ng; i++) {
        const struct pgroup *g = &P->g[i];
        struct scan_group *sg = &J->grp[i];
        sg->mode = g->mode;
        sg->hidx = g->hist;
        sg->lo0 = sg->span0 = sg->lo1 = sg->span1 = 0;
        if (g->mode == PM_GATHER) { // every value lies in target 0's range
            sg->span0 = UINT64_MAX;
        }
        if (g->mode == PM_TARGET) {
            iodfg_pbucket_range(g->bkt[0], &sg->lo0, &sg->span0);
            sg->lo1 = sg->lo0;
            sg->span1 = sg->span0;
            if (g->npct == 2 && g->bkt[1] != g->bkt[0]) {
                iodfg_pbucket_range(g->bkt[1], &sg->lo1, &sg->span1);
            }
        }
    }
    for (uint32_t a = 0; a < J->na; a++) {
        // the first pass also counts the cases of every wanted activity
        J->aw[a] = pass ? P->g[a].mode != PM_SKIP : P->g[a].want;
    }
    J->fast = (J->etab != NULL || !J->g) && J->col->start_ns && J->col->dur_ns &&
              (!J->na || (J->g && J->na == J->tdim)) && !(J->sel->per_pid && J->col->pid);
    J->sparse = 0;
    for (uint32_t i = 0; i < P->ng; i++) {
        J->fast = J->fast && P->g[i].mode != PM_HIST;
        J->sparse |= i < J->na && (P->g[i].mode == PM_SKIP || !J->aw[i]);
    }
    J->sparse &= J->fast;
    J->any_edge = 0;
    size_t ne = J->g ? J->g->nedges : 0;
    if (J->etab) {
        for (size_t i = 0; i < (size_t)J->tdim * J->tdim; i++) {
            J->etab[i] = IODFG_PB_NONE;
        }
    }
    for (size_t i = 0; i < ne; i++) {
        const struct iodfg_dfg_edge *e = &J->g->edges[i];
        int on = e->count && P->g[J->na + i].mode != PM_SKIP;
        J->any_edge |= on;
        if (on && J->etab && e->from < J->tdim && e->to < J->tdim) {
            J->etab[(size_t)e->from * J->tdim + e->to] = J->na + (uint32_t)i;
        }
    }
}

/* The percentile groups of the scan into P->g: the wanted activities (their case counts reset)
 * and edges, with the histograms hs kept for them. 1 when any is wanted, 0 when none, -1 out of
 * memory. */
static int plan_groups(struct pctl *P, struct iodfg_stats *st, const struct iodfg_dfg *g,
                       uint32_t na, size_t ne, const uint8_t *dirty, int act_dirty_none,
                       const uint8_t *edge_dirty, struct iodfg_hstore *hs)
{
    P->ng = (uint32_t)(na + ne);
    P->g = calloc((size_t)P->ng + 1, sizeof(*P->g));
    if (!P->g) {
        return -1;
    }
    int any = 0;
    for (uint32_t a = 0; a < na; a++) {
        struct pgroup *pg = &P->g[a];
        pg->want = !act_dirty_none && (!dirty || dirty[a]);
        if (pg->want) {
            st->act[a].cases = 0;
            pg->n = st->act[a].dur_n;
            pg->npct = 2;
            pg->kept = iodfg_hstore_kept(hs, 0, a, pg->n);
            any = 1;
        }
    }
    for (size_t i = 0; i < ne; i++) {
        struct pgroup *pg = &P->g[na + i];
        pg->want = !edge_dirty || edge_dirty[i];
        if (pg->want) {
            pg->n = g->edges[i].gap_n;
            pg->npct = 1;
            pg->kept = iodfg_hstore_kept(hs, 1, i, pg->n);
            any = 1;
        }
    }
    return any;
}

uint32_t iodfg_scan_split(const struct iodfg_eventlog *log, const uint32_t *cases, uint32_t nc)
{
    const uint64_t *off = iodfg_eventlog_case_offsets(log);
    uint64_t total = 0, cum = 0;
    for (uint32_t k = 0; k < nc; k++) {
        uint32_t c = cases ? cases[k] : k;
        total += off[c + 1] - off[c];
    }
    uint32_t split = nc;
    if (nc > 1 && total >= iodfg_scan_split_min) {
        for (split = 0; split < nc - 1 && 2 * cum < total; split++) {
            uint32_t c = cases ? cases[split] : split;
            cum += off[c + 1] - off[c];
        }
        split = split ? split : 1;
    }
    return split;
}

/* Worker t of the scan over listed cases [k0, k1) (the second walks backwards). 0, or -1 out of
 * memory. */
static int worker_setup(struct scan_worker *w, struct scan_job *J, struct pctl *P, int t,
                        uint32_t k0, uint32_t k1)
{
    w->J = J;
    w->dir = t;
    w->step = t ? -1 : 1;
    w->k0 = k0;
    w->k1 = k1;
    iodfg_error_clear(&w->err);
    w->fill = malloc(((size_t)P->ng + 1) * sizeof(*w->fill));
    w->fill1 = malloc(((size_t)P->ng + 1) * sizeof(*w->fill1));
    w->fg = malloc(((size_t)P->ng + 1) * sizeof(*w->fg));
    w->takes = malloc((size_t)J->na + 1);
    w->stamp = calloc((size_t)J->na + 1, sizeof(*w->stamp));
    w->ncases = calloc((size_t)J->na + 1, sizeof(*w->ncases));
    w->hist = t ? (P->nh ? calloc((size_t)P->nh * IODFG_PB_N, sizeof(*w->hist)) : NULL) : P->hist;
    return !w->fill || !w->fill1 || !w->fg || !w->takes || !w->stamp || !w->ncases ||
                   (P->nh && !w->hist)
               ? -1
               : 0;
}

static void worker_free(struct scan_worker *w, int t)
{
    free(w->fill);
    free(w->fill1);
    free(w->fg);
    free(w->takes);
    free(w->stamp);
    free(w->ncases);
    if (t) {
        free(w->hist);
    }
}

/* One pass of the nw workers over their cases. 0, or -1 with err (the first worker's error). */
static int scan_pass(struct scan_job *J, struct pctl *P, struct scan_worker *W, int nw, int pass,
                     struct iodfg_error *err)
{
    scan_pass_setup(J, pass);
    for (int t = 0; t < nw; t++) {
        scan_fills(&W[t], P);
        if (J->fast) {
            scan_fast_setup(&W[t]);
        }
        W[t].last_from = W[t].last_to = IODFG_NO_ACTIVITY;
        W[t].last_gi = IODFG_PB_NONE;
    }
    struct iodfg_fork fork = {0};
    if (nw > 1) {
        iodfg_fork_start(&fork, 1, IODFG_FORK_TASK, scan_thread, &W[1]);
    }
    scan_run(&W[0]);
    iodfg_fork_join(&fork);
    for (int t = 0; t < nw; t++) {
        if (W[t].rc) {
            if (err) {
                *err = W[t].err;
            }
            return -1;
        }
    }
    return 0;
}

/* After the first pass: the activities' case counts, the workers' histograms added up and kept
 * in hs (NULL: none). */
static void merge_first_pass(struct iodfg_stats *st, struct pctl *P, const struct scan_worker *W,
                             int nw, uint32_t na, struct iodfg_hstore *hs)
{
    for (uint32_t a = 0; a < na; a++) {
        if (P->g[a].want) {
            st->act[a].cases = W[0].ncases[a] + (nw > 1 ? W[1].ncases[a] : 0);
        }
    }
    if (nw > 1) {
        for (size_t i = 0; i < (size_t)P->nh * IODFG_PB_N; i++) {
            P->hist[i] += W[1].hist[i];
        }
    }
    for (uint32_t i = 0; hs && i < P->ng; i++) {
        if (P->g[i].hist != IODFG_PB_NONE) {
            iodfg_hstore_put(hs, i >= na, i < na ? i : i - na,
                             P->hist + (size_t)P->g[i].hist * IODFG_PB_N);
        }
    }
}

int iodfg_stats_scan_kept(struct iodfg_stats *st, struct iodfg_dfg *g,
                          const struct iodfg_eventlog *log, const uint32_t *act,
                          const struct iodfg_selection *sel, const uint32_t *cases, size_t ncases,
                          const uint8_t *dirty, int act_dirty_none, const uint8_t *edge_dirty,
                          struct iodfg_hstore *hs, const uint16_t *codes, struct iodfg_error *err)
{
    return iodfg_stats_scan_spans(st, g, log, act, sel, cases, ncases, NULL, dirty, act_dirty_none,
                                  edge_dirty, hs, codes, err);
}

int iodfg_stats_scan_spans(struct iodfg_stats *st, struct iodfg_dfg *g,
                           const struct iodfg_eventlog *log, const uint32_t *act,
                           const struct iodfg_selection *sel, const uint32_t *cases, size_t ncases,
                           const uint64_t *span, const uint8_t *dirty, int act_dirty_none,
                           const uint8_t *edge_dirty, struct iodfg_hstore *hs,
                           const uint16_t *codes, struct iodfg_error *err)
{
    uint32_t na = st ? st->nactivities : 0;
    size_t ne = g ? g->nedges : 0;
    struct pctl P;
    struct scan_job J;
    struct scan_worker W[2];
    memset(&P, 0, sizeof(P));
    memset(&J, 0, sizeof(J));
    memset(W, 0, sizeof(W));
    int rc = -1;
    if ((uint64_t)na + ne >= UINT32_MAX) {
        return iodfg_error_set(err, IODFG_E_LIMIT, "too many activities and edges");
    }
    int any = plan_groups(&P, st, g, na, ne, dirty, act_dirty_none, edge_dirty, hs);
    if (any <= 0) {
        free(P.g);
        return any < 0 ? iodfg_error_set(err, IODFG_E_NOMEM, "out of memory for percentiles") : 0;
    }
    if (iodfg_pctl_layout(&P)) {
        goto nomem;
    }
    J.log = log;
    J.col = iodfg_eventlog_columns(log);
    J.act = act;
    J.sel = sel;
    J.cases = cases;
    J.span = cases ? span : NULL;
    J.codes = g && g->nactivities <= IODFG_CODE_MAX_ACT ? codes : NULL;
    J.g = g;
    J.P = &P;
    J.na = na;
    J.aw = malloc((size_t)na + 1);
    J.grp = malloc(((size_t)P.ng + 1) * sizeof(*J.grp));
    J.tdim = g && g->nactivities <= iodfg_scan_dense_max ? g->nactivities : 0;
    if (J.tdim) {
        J.etab = malloc((size_t)J.tdim * J.tdim * sizeof(*J.etab));
    }
    if (!J.aw || !J.grp || (J.tdim && !J.etab)) {
        goto nomem;
    }
    // two workers over halves of the listed cases (by events) when there is enough work
    uint32_t nc = cases ? (uint32_t)ncases : iodfg_eventlog_case_count(log);
    uint32_t split = iodfg_scan_split(log, cases, nc);
    int nw = split < nc ? 2 : 1;
    for (int t = 0; t < nw; t++) {
        if (worker_setup(&W[t], &J, &P, t, t ? split : 0, t ? nc : split)) {
            goto nomem;
        }
    }
    for (int pass = 0; pass < 2; pass++) {
        if (scan_pass(&J, &P, W, nw, pass, err)) {
            goto out;
        }
        if (pass) {
            break;
        }
        merge_first_pass(st, &P, W, nw, na, hs);
        int t = iodfg_pctl_targets(&P);
        if (t < 0) {
            goto nomem;
        }
        if (!t) {
            break;
        }
    }
    iodfg_pctl_store(&P, st, g, na);
    rc = 0;
    goto out;
nomem:
    iodfg_error_set(err, IODFG_E_NOMEM, "out of memory for percentiles");
out:
    for (int t = 0; t < 2; t++) {
        worker_free(&W[t], t);
    }
    free(J.aw);
    free(J.grp);
    free(J.etab);
    iodfg_pctl_fini(&P);
    return rc;
}
