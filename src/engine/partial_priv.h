/* SPDX-License-Identifier: MIT */
/* Partial results (iodfg/partial.h): what the walks over a session's selection read. */
#ifndef IODFG_ENGINE_PARTIAL_PRIV_H
#define IODFG_ENGINE_PARTIAL_PRIV_H

#include <stdint.h>

#include "iodfg/analysis.h"
#include "iodfg/eventlog.h"
#include "iodfg/partial.h"
#include "iodfg/session.h"

#include "stats_priv.h"

struct part {
    const struct iodfg_eventlog *log;
    const struct iodfg_selection *sel;
    const uint32_t *act; /* activity of each key */
    const struct iodfg_columns *col;
};

static inline struct part part_of(const struct iodfg_session *s)
{
    const struct iodfg_analysis *an = iodfg_session_analysis(s);
    const struct iodfg_eventlog *log = iodfg_session_log(s);
    struct part p = {log, iodfg_analysis_selection(an), iodfg_analysis_activities(an),
                     iodfg_eventlog_columns(log)};
    return p;
}

/* ---- the concurrency's running sums of one pair (bucket or window piece, activity) ----
 * Four 32-bit lanes (a part has fewer than 2^31 events), the fall kept negated so that every
 * lane but the net follows a maximum: partial_buckets.c updates them in one vector step. */

struct pair_acc {
    int32_t net, starts, rise, nfall;
};

/* A point of the pair. Branch-free: an end lowers net below a rise already reached and a start
 * raises it above a fall, so taking the maximum and the minimum at every point gives the rise of
 * the starts and the fall of the ends. */
static inline void pair_acc_add(struct pair_acc *x, int start)
{
    int32_t net = x->net + 2 * start - 1;
    x->net = net;
    x->starts += start;
    x->rise = net > x->rise ? net : x->rise;
    x->nfall = -net > x->nfall ? -net : x->nfall;
}

/* The pair's sums into entry i of sums (np pairs a kind). */
static inline void pair_acc_out(const struct pair_acc *x, int64_t *sums, size_t np, size_t i)
{
    int64_t fall = -(int64_t)x->nfall;
    sums[IODFG_PARTIAL_NET * np + i] = x->net;
    sums[IODFG_PARTIAL_RISE * np + i] = x->rise;
    sums[IODFG_PARTIAL_STARTS * np + i] = x->starts;
    sums[IODFG_PARTIAL_FALL * np + i] = fall;
    sums[IODFG_PARTIAL_PEAK * np + i] = x->rise >= 1 ? x->rise - fall : INT64_MIN;
}

/* ---- the concurrency's order and windows ---- */

/* ---- the rule of the buckets and the windows' pieces (i: one of np pairs of summed sums) ---- */

/* A count pair i is known to reach, with at its count at its start (doc/mpi.md, L(a)): at least
 * 1 and its end count when it has a start, and a part's rise over every part's fall; INT64_MIN
 * when it has no start. */
static inline int64_t pair_reach(const int64_t *sums, size_t np, int64_t at, size_t i)
{
    if (sums[IODFG_PARTIAL_STARTS * np + i] == 0) {
        return INT64_MIN;
    }
    int64_t end = at + sums[IODFG_PARTIAL_NET * np + i];
    int64_t reach = end > 1 ? end : 1, peak = sums[IODFG_PARTIAL_PEAK * np + i];
    int64_t rise = at + sums[IODFG_PARTIAL_FALL * np + i] + peak;
    return peak != INT64_MIN && rise > reach ? rise : reach;
}

/* Whether pair i may hold the first point reaching the maximum, low being reached (by the end of
 * a later pair unless not_after_first): its bound beats low, or only ties it where it could
 * still come first. */
static inline int pair_may_hold(const int64_t *sums, size_t np, int64_t at, size_t i, int64_t low,
                                int not_after_first)
{
    int64_t bound = at + sums[IODFG_PARTIAL_RISE * np + i];
    return sums[IODFG_PARTIAL_STARTS * np + i] > 0 &&
           (bound > low || (bound == low && not_after_first));
}

/* Pair i's points: starts and ends (the net is starts minus ends). */
static inline uint64_t pair_points(const int64_t *sums, size_t np, size_t i)
{
    return (uint64_t)(2 * sums[IODFG_PARTIAL_STARTS * np + i] - sums[IODFG_PARTIAL_NET * np + i]);
}

/* Event e's activity in the view, IODFG_NO_ACTIVITY when it has none or is not selected. */
static inline uint32_t event_act(const struct iodfg_partial_view *v, uint32_t e)
{
    if (v->code) {
        return iodfg_code_activity(v->code[e]);
    }
    return v->pact[e];
}

/* The activity of the point at position i of the view, IODFG_NO_ACTIVITY when it is not one of
 * the session's points (cheaper than iodfg_partial_view_at: no time is read). */
static inline uint32_t act_at(const struct iodfg_partial_view *v, uint64_t i)
{
    return event_act(v, v->ent[i] & ~IODFG_PT_START);
}

/* a before b in the sweep's order: the one definition of it, inline for the merges. */
static inline int point_before(const struct iodfg_partial_point *a,
                               const struct iodfg_partial_point *b)
{
    return a->clock != b->clock       ? a->clock < b->clock
           : a->time_ns != b->time_ns ? a->time_ns < b->time_ns
                                      : a->start < b->start;
}

/* Searches of at most this many places at once in iodfg_partial_lower_batch. */
enum { IODFG_PARTIAL_SEARCH_BATCH = 16 };

/* The first position in [lo[k], hi[k]) whose place is not below p[k], or hi[k], for the m (at
 * most IODFG_PARTIAL_SEARCH_BATCH) places p into out[k]: the m searches halve their ranges step
 * by step together, without branches, so that the places they read at a step are in flight at
 * once instead of one cache miss after the other. */
void iodfg_partial_lower_batch(const struct iodfg_partial_view *v,
                               const struct iodfg_partial_point *p, size_t m, const uint64_t *lo,
                               const uint64_t *hi, uint64_t *out);

/* Whether any of a bucket's nact pairs has a window. */
static inline int has_window(const uint32_t *wid, uint32_t nact)
{
    for (uint32_t a = 0; a < nact; a++) {
        if (wid[a] != IODFG_PARTIAL_NO_WINDOW) {
            return 1;
        }
    }
    return 0;
}

/* ---- the percentiles' cuts (iodfg_partial_cut), inline for the walks over values ---- */

/* Values v as offsets u = v ^ IODFG_CUT_SIGN, which order like v as unsigned. */
#define IODFG_CUT_SIGN ((uint64_t)1 << 63)

/* A power of two and the 3 bits below it of x: monotone, 0..495; small x (< 8) exactly. */
static inline uint32_t iodfg_cut_log_of(uint64_t x)
{
    if (x < 8) {
        return (uint32_t)x;
    }
    int e = 63 - __builtin_clzll(x);
    return (uint32_t)(8 * (e - 2)) + (uint32_t)((x >> (e - 3)) & 7);
}

/* The first cut's bucket of v: negative values below 512 (larger magnitudes lower), others from
 * 512 on. */
static inline uint32_t iodfg_cut_log_bucket(int64_t v)
{
    return v >= 0 ? 512 + iodfg_cut_log_of((uint64_t)v) : 511 - iodfg_cut_log_of(~(uint64_t)v);
}

static inline uint32_t iodfg_cut_bucket(const struct iodfg_partial_cut *c, int64_t v)
{
    return c->log ? iodfg_cut_log_bucket(v)
                  : (uint32_t)((((uint64_t)v ^ IODFG_CUT_SIGN) - c->lo) >> c->shift);
}

static inline int iodfg_cut_holds(const struct iodfg_partial_cut *c, int64_t v)
{
    uint64_t u = (uint64_t)v ^ IODFG_CUT_SIGN;
    return u >= c->lo && u <= c->hi;
}

#endif
