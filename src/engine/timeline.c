/* SPDX-License-Identifier: MIT */
/* The timeline: the start and end points of every event with an interval in time order, merged
 * from sorted per-case runs with a heap (the input of the concurrency sweep). Each case gives
 * two runs: its events in start order (as the log keeps them) and its events in end order
 * (sorted by insertion as they are gathered, or radix-sorted; the cases in two halves on two
 * threads). A large clock's merge is cut at a point in time into two halves that
 * two threads merge at once: every point of the first half comes before every point of the
 * second, so the result is the same as one merge. */
#include "config.h"

#include "iodfg/timeline.h"

#include <stdlib.h>
#include <string.h>

#include "iodfg/bigmem.h"
#include "iodfg/error.h"
#include "iodfg/eventlog.h"
#include "iodfg/forkjoin.h"
#include "iodfg/stats.h"

/* Points of one clock below which a second thread costs more than it saves. */
#define SPLIT_MIN_POINTS (1u << 18)
/* Bits per pass of the radix sort by end time. */
#define RADIX_BITS 11
#define RADIX (1u << RADIX_BITS)

struct run {
    int64_t t;
    uint32_t e, kind;  /* current event, 0 = end point, 1 = start point */
    uint64_t pos, end; /* next position in the run, end of the run */
};

/* What the merges read. */
struct src {
    const struct iodfg_columns *col;
    const uint32_t *ends; /* events with an interval, by case, each case's in end order */
    uint32_t *pts;
};

static int has_interval(const struct iodfg_columns *col, uint64_t e)
{
    return col->dur_ns && col->dur_ns[e] > 0;
}

static int64_t end_time(const struct iodfg_columns *col, uint64_t e)
{
    return col->start_ns[e] + col->dur_ns[e];
}

/* How far ahead a run's next cache lines are fetched: with a thousand cases the merge draws
 * from thousands of places, and each waited for memory at every new line. */
#define AHEAD 16

/* Load the run's current element (its position must be valid). */
static void run_load(struct run *r, const struct src *s)
{
    const struct iodfg_columns *col = s->col;
    if (r->kind) {
        r->e = (uint32_t)r->pos;
        r->t = col->start_ns[r->pos];
#ifdef __GNUC__
        __builtin_prefetch(&col->start_ns[r->pos + AHEAD]);
        __builtin_prefetch(&col->dur_ns[r->pos + AHEAD]);
#endif
    } else {
        r->e = s->ends[r->pos];
        r->t = end_time(col, r->e);
#ifdef __GNUC__
        __builtin_prefetch(&s->ends[r->pos + AHEAD]);
        if (r->pos + AHEAD / 2 < r->end) {
            uint32_t ahead = s->ends[r->pos + AHEAD / 2];
            __builtin_prefetch(&col->start_ns[ahead]);
            __builtin_prefetch(&col->dur_ns[ahead]);
        }
#endif
    }
}

/* Advance a start run to its next event with an interval; 0 when exhausted. */
static int run_next_start(struct run *r, const struct iodfg_columns *col)
{
    while (r->pos < r->end && !has_interval(col, r->pos)) {
        r->pos++;
    }
    return r->pos < r->end;
}

/* A run's current point as one comparable key: time, then end (0) before start (1), then
 * event; an exhausted run compares greater than every point. */
struct key {
    int64_t t;
    uint64_t order;
};

/* Without branches: which run wins is a coin toss for the branch predictor, and the merge
 * makes several such decisions per point. */
static inline int key_less(const struct key *a, const struct key *b)
{
    return (a->t < b->t) | ((a->t == b->t) & (a->order < b->order));
}

static void run_key(const struct run *r, struct key *k)
{
    if (r->pos < r->end) {
        k->t = r->t;
        k->order = (uint64_t)r->kind << 32 | r->e;
    } else {
        k->t = INT64_MAX;
        k->order = UINT64_MAX;
    }
}

/* Merge the primed runs h[0..hn) (npts points) into pts[out...) with a tournament tree of
 * losers: one comparison of two-word keys per level for each point (any time range). 0, or -1
 * out of memory. */
static int merge_wide(const struct src *s, struct run *h, size_t hn, uint64_t npts, uint64_t out)
{
    size_t k = hn;
    struct key *key = malloc(k * sizeof(*key));
    uint32_t *loser = malloc(k * sizeof(*loser)); // [1, k): the loser at each inner node
    uint32_t *win = malloc(2 * k * sizeof(*win)); // the winners, to build the tree
    int rc = key && loser && win ? 0 : -1;
    for (size_t i = 0; rc == 0 && i < k; i++) {
        run_key(&h[i], &key[i]);
        win[k + i] = (uint32_t)i;
    }
    for (size_t j = k - 1; rc == 0 && j >= 1; j--) { // node j's children are 2j and 2j + 1
        uint32_t a = win[2 * j], b = win[2 * j + 1];
        int b_wins = key_less(&key[b], &key[a]);
        win[j] = b_wins ? b : a;
        loser[j] = b_wins ? a : b;
    }
    uint32_t w = rc == 0 && k > 1 ? win[1] : 0;
    for (uint64_t p = 0; rc == 0 && p < npts; p++) {
        struct run *r = &h[w];
        s->pts[out++] = r->e | (r->kind ? IODFG_PT_START : 0);
        r->pos++;
        if (r->kind ? run_next_start(r, s->col) : r->pos < r->end) {
            run_load(r, s);
        }
        run_key(r, &key[w]);
        // the winner's key stays in registers: each level then waits only for a comparison,
        // the losers' keys on the path to the root being loaded meanwhile
        struct key wk = key[w];
        for (size_t j = (k + w) / 2; j >= 1; j /= 2) {
            uint32_t l = loser[j];
            struct key lk = key[l];
            int less = key_less(&lk, &wk);
            uint32_t m = 0u - (uint32_t)less;
            uint64_t m64 = 0 - (uint64_t)less;
            loser[j] = (w & m) | (l & ~m);
            w = (l & m) | (w & ~m);
            wk.t = (int64_t)(((uint64_t)lk.t & m64) | ((uint64_t)wk.t & ~m64));
            wk.order = (lk.order & m64) | (wk.order & ~m64);
        }
    }
    free(key);
    free(loser);
    free(win);
    return rc;
}

/* One-word keys: the time since tmin above the run's rank, which orders ties as the timeline
 * wants them: end runs before start runs, each kind in case order (the runs' events ascend
 * with the cases), and within a run its own order. */
struct packed {
    int64_t tmin;
    unsigned rank_bits;
    uint32_t *rank;    /* per run */
    uint32_t *of_rank; /* the run of each rank */
};

static uint64_t packed_key(const struct packed *pk, const struct run *r, size_t i)
{
    return r->pos < r->end ? (uint64_t)(r->t - pk->tmin) << pk->rank_bits | pk->rank[i]
                           : UINT64_MAX;
}

/* Merge the primed runs like merge_wide, each level one compare of one word and two
 * conditional moves. 0, or -1 out of memory. */
static int merge_packed(const struct src *s, struct run *h, size_t hn, uint64_t npts, uint64_t out,
                        struct packed *pk)
{
    size_t k = hn;
    uint64_t *loser = malloc(k * sizeof(*loser)); // [1, k): the losing key at each inner node
    uint64_t *win = malloc(2 * k * sizeof(*win)); // the winning keys, to build the tree
    pk->rank = malloc(k * sizeof(*pk->rank));
    pk->of_rank = malloc(k * sizeof(*pk->of_rank));
    int rc = loser && win && pk->rank && pk->of_rank ? 0 : -1;
    uint32_t next[2] = {0, 0}; // next rank of an end run, of a start run
    for (size_t i = 0; rc == 0 && i < k; i++) {
        next[1] += !h[i].kind;
    }
    for (size_t i = 0; rc == 0 && i < k; i++) {
        uint32_t r = next[h[i].kind]++;
        pk->rank[i] = r;
        pk->of_rank[r] = (uint32_t)i;
        win[k + i] = packed_key(pk, &h[i], i);
    }
    for (size_t j = k - 1; rc == 0 && j >= 1; j--) {
        uint64_t a = win[2 * j], b = win[2 * j + 1];
        win[j] = a < b ? a : b;
        loser[j] = a < b ? b : a;
    }
    uint64_t wk = rc == 0 ? win[1] : 0; // with one run, its leaf is the root
    uint64_t mask = ((uint64_t)1 << pk->rank_bits) - 1;
    for (uint64_t p = 0; rc == 0 && p < npts; p++) {
        uint32_t w = pk->of_rank[wk & mask];
        struct run *r = &h[w];
        s->pts[out++] = r->e | (r->kind ? IODFG_PT_START : 0);
        r->pos++;
        if (r->kind ? run_next_start(r, s->col) : r->pos < r->end) {
            run_load(r, s);
        }
        wk = packed_key(pk, r, w);
        for (size_t j = (k + w) / 2; j >= 1; j /= 2) {
            uint64_t l = loser[j];
            loser[j] = l < wk ? wk : l;
            wk = l < wk ? l : wk;
        }
    }
    free(loser);
    free(win);
    free(pk->rank);
    free(pk->of_rank);
    return rc;
}

/* Merge the runs h[0..hn) (npts points) into pts[out...): with one-word keys when the runs'
 * time range leaves room for their ranks, else with two-word keys. 0, or -1 out of memory. */
static int merge(const struct src *s, struct run *h, size_t hn, uint64_t npts, uint64_t out)
{
    if (hn == 0) {
        return 0;
    }
    int64_t tmin = INT64_MAX, tmax = INT64_MIN;
    for (size_t i = 0; i < hn; i++) {
        struct run *r = &h[i];
        if (r->kind ? run_next_start(r, s->col) : r->pos < r->end) {
            run_load(r, s);
            // each run ascends: its first point is its least, its last event its latest
            int64_t last =
                r->kind ? s->col->start_ns[r->end - 1] : end_time(s->col, s->ends[r->end - 1]);
            tmin = r->t < tmin ? r->t : tmin;
            tmax = last > tmax ? last : tmax;
        }
    }
    struct packed pk = {tmin, 0, NULL, NULL};
    while (((size_t)1 << pk.rank_bits) < hn) {
        pk.rank_bits++;
    }
    if (tmin > tmax || (uint64_t)tmax - (uint64_t)tmin < (UINT64_MAX >> pk.rank_bits)) {
        return merge_packed(s, h, hn, npts, out, &pk);
    }
    return merge_wide(s, h, hn, npts, out);
}

/* ---- cutting one clock's merge in two -------------------------------------------------------- */

/* The first position of run r whose time is t or later. */
static uint64_t run_lower_bound(const struct run *r, const struct src *s, int64_t t)
{
    uint64_t lo = r->pos, hi = r->end;
    while (lo < hi) {
        uint64_t mid = lo + (hi - lo) / 2;
        int64_t tm = r->kind ? s->col->start_ns[mid] : end_time(s->col, s->ends[mid]);
        if (tm < t) {
            lo = mid + 1;
        } else {
            hi = mid;
        }
    }
    return lo;
}

/* About how many points come before time t (start runs count their events without an
 * interval too: good enough to balance the halves). */
static uint64_t rough_below(const struct run *h, size_t hn, const struct src *s, int64_t t)
{
    uint64_t n = 0;
    for (size_t i = 0; i < hn; i++) {
        n += run_lower_bound(&h[i], s, t) - h[i].pos;
    }
    return n;
}

/* The time that cuts the runs' points into halves of about equal size. */
static int64_t middle_time(const struct run *h, size_t hn, const struct src *s, uint64_t total)
{
    int64_t lo = IODFG_START_MIN, hi = IODFG_START_MAX + IODFG_DUR_MAX;
    while (lo < hi) {
        int64_t mid = lo + (hi - lo) / 2;
        if (rough_below(h, hn, s, mid) < total / 2) {
            lo = mid + 1;
        } else {
            hi = mid;
        }
    }
    return lo;
}

struct half {
    const struct src *s;
    struct run *h;
    size_t hn;
    uint64_t npts, out;
    int rc;
};

static void *merge_half(void *arg)
{
    struct half *hf = arg;
    hf->rc = merge(hf->s, hf->h, hf->hn, hf->npts, hf->out);
    return NULL;
}

/* Merge the runs h[0..hn) (npts points) into pts[out...), in two halves on two threads when
 * they are many. scratch has room for hn runs. 0, or -1 out of memory. */
static int merge_clock(const struct src *s, struct run *h, size_t hn, uint64_t npts, uint64_t out,
                       struct run *scratch, uint64_t split_points)
{
    if (npts < split_points || hn < 2) {
        return merge(s, h, hn, npts, out);
    }
    int64_t t = middle_time(h, hn, s, npts);
    uint64_t left = 0; // exact points before t: the second half starts there
    for (size_t i = 0; i < hn; i++) {
        uint64_t cut = run_lower_bound(&h[i], s, t);
        scratch[i] = h[i];
        scratch[i].pos = cut;
        h[i].end = cut;
        if (h[i].kind) {
            for (uint64_t e = h[i].pos; e < cut; e++) {
                left += has_interval(s->col, e);
            }
        } else {
            left += cut - h[i].pos;
        }
    }
    struct half second = {s, scratch, hn, npts - left, out + left, 0};
    struct iodfg_fork fork;
    iodfg_fork_start(&fork, 1, IODFG_FORK_TASK, merge_half, &second);
    int rc = merge(s, h, hn, left, out);
    iodfg_fork_join(&fork);
    return rc || second.rc ? -1 : 0;
}

/* ---- each case's events in end order --------------------------------------------------------- */

struct radix {
    uint64_t *key, *key2;
    uint32_t *id2;
    size_t cap;
};

/* ids[0..n) (ascending) sorted by end time, ties in id order: an LSD radix sort on the end
 * minus the least end, as many passes as its range needs (stable: ties stay in id order). */
static void sort_by_end(uint32_t *ids, size_t n, const struct iodfg_columns *col, struct radix *rx)
{
    int64_t min = end_time(col, ids[0]), max = min;
    for (size_t i = 0; i < n; i++) {
        int64_t t = end_time(col, ids[i]);
        rx->key[i] = (uint64_t)t;
        min = t < min ? t : min;
        max = t > max ? t : max;
    }
    uint64_t range = (uint64_t)max - (uint64_t)min;
    uint64_t *k = rx->key, *k2 = rx->key2;
    uint32_t *id = ids, *i2 = rx->id2;
    for (size_t i = 0; i < n; i++) {
        k[i] -= (uint64_t)min;
    }
    for (unsigned shift = 0; shift < 64 && (range >> shift) != 0; shift += RADIX_BITS) {
        size_t count[RADIX] = {0};
        for (size_t i = 0; i < n; i++) {
            count[k[i] >> shift & (RADIX - 1)]++;
        }
        size_t sum = 0;
        for (size_t d = 0; d < RADIX; d++) {
            size_t c = count[d];
            count[d] = sum;
            sum += c;
        }
        for (size_t i = 0; i < n; i++) {
            size_t at = count[k[i] >> shift & (RADIX - 1)]++;
            k2[at] = k[i];
            i2[at] = id[i];
        }
        uint64_t *tk = k;
        k = k2;
        k2 = tk;
        uint32_t *ti = id;
        id = i2;
        i2 = ti;
    }
    if (id != ids) {
        memcpy(ids, id, n * sizeof(*ids));
    }
}

/* Moves an insertion sort may take per event before the radix sort is cheaper. */
#define INSERTION_MOVES 8

/* Case c's events with an interval into ends[off[c]...), in end order (ties in id order); the
 * end of that run is returned in *stop. Sorted by insertion as they are gathered (a trace's
 * calls overlap only a little, so its ends come almost in start order) while that takes at most
 * INSERTION_MOVES moves per event; past that the rest is appended and the stable radix sort
 * finishes (the sorted prefix holds smaller ids than the rest, so ties are still in id order).
 * 0, or -1 out of memory. */
static int collect_case(const struct iodfg_columns *col, const uint64_t *off, uint32_t c,
                        uint32_t *ends, uint64_t *stop, struct radix *rx)
{
    uint64_t lo = off[c], k = lo;
    uint64_t budget = INSERTION_MOVES * (off[c + 1] - lo), moves = 0;
    int64_t last = INT64_MIN; // the latest end so far: most ends just follow it
    uint64_t e = lo;
    for (; e < off[c + 1] && moves <= budget; e++) {
        if (!has_interval(col, e)) {
            continue;
        }
        int64_t t = end_time(col, e);
        uint64_t j = k++;
        if (t >= last) {
            last = t;
        } else {
            while (j > lo && end_time(col, ends[j - 1]) > t) {
                ends[j] = ends[j - 1];
                j--;
            }
            moves += k - 1 - j;
        }
        ends[j] = (uint32_t)e;
    }
    int sorted = e == off[c + 1] && moves <= budget;
    for (; e < off[c + 1]; e++) {
        if (has_interval(col, e)) {
            ends[k++] = (uint32_t)e;
        }
    }
    *stop = k;
    size_t n = (size_t)(k - lo);
    if (sorted) {
        return 0;
    }
    if (n > rx->cap) {
        free(rx->key);
        free(rx->key2);
        free(rx->id2);
        rx->key = iodfg_bigmem_alloc(n * sizeof(*rx->key));
        rx->key2 = iodfg_bigmem_alloc(n * sizeof(*rx->key2));
        rx->id2 = iodfg_bigmem_alloc(n * sizeof(*rx->id2));
        rx->cap = n;
        if (!rx->key || !rx->key2 || !rx->id2) {
            return -1;
        }
    }
    sort_by_end(ends + lo, n, col, rx);
    return 0;
}

/* Cases [c0, c1) gathered into ends (each at its own events' offsets, eend: where its run
 * stops), on one thread with its own radix scratch. */
struct gather {
    const struct iodfg_columns *col;
    const uint64_t *off;
    uint32_t c0, c1;
    uint32_t *ends;
    uint64_t *eend;
    int rc;
};

static void *gather_cases(void *arg)
{
    struct gather *g = arg;
    struct radix rx = {0};
    g->rc = 0;
    for (uint32_t c = g->c0; g->rc == 0 && c < g->c1; c++) {
        g->rc = collect_case(g->col, g->off, c, g->ends, &g->eend[c], &rx);
    }
    free(rx.key);
    free(rx.key2);
    free(rx.id2);
    return NULL;
}

/* Every case's end run, the cases cut in two halves of about equal events gathered on two
 * threads when the log is large. 0, or -1 out of memory. */
static int collect_ends(const struct iodfg_eventlog *log, uint32_t *ends, uint64_t *eend,
                        uint64_t split_points)
{
    const uint64_t *off = iodfg_eventlog_case_offsets(log);
    uint32_t nc = iodfg_eventlog_case_count(log);
    uint64_t n = off[nc];
    uint32_t cut = 0;
    while (cut < nc && off[cut + 1] <= n / 2) {
        cut++;
    }
    struct gather g[2] = {{iodfg_eventlog_columns(log), off, 0, cut, ends, eend, 0},
                          {iodfg_eventlog_columns(log), off, cut, nc, ends, eend, 0}};
    struct iodfg_fork fork;
    iodfg_fork_start(&fork, 2 * n >= split_points && cut > 0 && cut < nc, IODFG_FORK_TASK,
                     gather_cases, &g[1]);
    gather_cases(&g[0]);
    iodfg_fork_join(&fork);
    return g[0].rc || g[1].rc ? -1 : 0;
}

int iodfg_timeline_build(struct iodfg_timeline *tl, const struct iodfg_eventlog *log,
                         struct iodfg_error *err)
{
    return iodfg_timeline_build_split(tl, log, SPLIT_MIN_POINTS, err);
}

int iodfg_timeline_build_split(struct iodfg_timeline *tl, const struct iodfg_eventlog *log,
                               uint64_t split_points, struct iodfg_error *err)
{
    memset(tl, 0, sizeof(*tl));
    uint64_t n = iodfg_eventlog_event_count(log);
    const struct iodfg_columns *col = iodfg_eventlog_columns(log);
    if (n >= IODFG_PT_START) {
        return iodfg_error_set(err, IODFG_E_LIMIT, "too many events for the timeline (%llu)",
                               (unsigned long long)n);
    }
    if (!col->start_ns) {
        return iodfg_error_set(err, IODFG_E_ARG, "the event log has no start column");
    }
    const uint64_t *off = iodfg_eventlog_case_offsets(log);
    uint32_t nc = iodfg_eventlog_case_count(log);
    // each case's end run lies at its own events' offsets: the cases are gathered independently
    uint32_t *ends = iodfg_bigmem_alloc((size_t)(n ? n : 1) * sizeof(*ends));
    uint64_t *eend = malloc(((size_t)nc + 1) * sizeof(*eend));
    struct run *h = malloc(((size_t)nc * 2 + 1) * sizeof(*h));
    struct run *scratch = malloc(((size_t)nc * 2 + 1) * sizeof(*scratch));
    int rc = !ends || !eend || !h || !scratch || collect_ends(log, ends, eend, split_points);
    uint64_t m = 0;
    for (uint32_t c = 0; rc == 0 && c < nc; c++) {
        m += eend[c] - off[c];
    }
    tl->n = n;
    tl->npts = 2 * m;
    tl->pts = rc ? NULL : iodfg_bigmem_alloc((size_t)(m ? 2 * m : 1) * sizeof(*tl->pts));
    if (rc || !tl->pts) {
        rc = iodfg_error_set(err, IODFG_E_NOMEM, "out of memory for the timeline");
    }
    // one clock after the other: times of different clocks are never compared (each clock's
    // points end with its last interval closed)
    struct src s = {col, ends, tl->pts};
    uint64_t out = 0;
    for (int clock = 0; rc == 0 && clock < IODFG_CLOCK__N; clock++) {
        size_t hn = 0;
        uint64_t npts = 0;
        for (uint32_t c = 0; c < nc; c++) {
            if ((int)iodfg_eventlog_case(log, c)->clock != clock) {
                continue;
            }
            h[hn++] = (struct run){0, 0, 1, off[c], off[c + 1]};
            h[hn++] = (struct run){0, 0, 0, off[c], eend[c]};
            npts += 2 * (eend[c] - off[c]);
        }
        if (merge_clock(&s, h, hn, npts, out, scratch, split_points)) {
            rc = iodfg_error_set(err, IODFG_E_NOMEM, "out of memory for the timeline");
        }
        out += npts;
    }
    free(ends);
    free(eend);
    free(h);
    free(scratch);
    if (rc) {
        iodfg_timeline_fini(tl);
    }
    return rc;
}

void iodfg_timeline_fini(struct iodfg_timeline *tl)
{
    free(tl->pts);
    memset(tl, 0, sizeof(*tl));
}
