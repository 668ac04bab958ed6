/* SPDX-License-Identifier: MIT */
/* Maximum concurrency per activity: an exact sweep over the timeline, split in time segments so
 * that threads can share it (analysis.c runs it next to other work through iodfg_sweep_work). */
#include "config.h"

#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>

#include "iodfg/error.h"
#include "iodfg/eventlog.h"
#include "iodfg/forkjoin.h"
#include "iodfg/mapping.h"
#include "iodfg/stats.h"
#include "iodfg/timeline.h"

#include "stats_priv.h"

/* ---- concurrency: exact sweep over the timeline, split in time segments ----
 * Each segment computes per activity its net count change and its best prefix (first point
 * reaching it); segments are then combined in time order, which is exact. Segments are taken
 * from a shared counter so that any number of threads can help. */

#define SW_SEGS 32
#define SW_AHEAD 96 /* prefetch distance in points */
#define SW_GROUP 4  /* segments a thread takes at once */
#define SW_FEW 4 /* a sweep of this many dirty activities at most keeps its counts in registers */

struct sweep_seg {
    uint64_t lo, hi;
    int32_t *cur, *best; /* per activity (+1 slot for codes without one): net, best prefix */
    uint32_t *besti;     /* point where best was first reached */
};

struct iodfg_sweep {
    const struct iodfg_timeline *tl;
    const struct iodfg_columns *col;
    uint16_t *codes;
    const uint64_t *bits, *moved;
    const uint32_t *act;
    const uint8_t *dirty;
    uint32_t na;
    unsigned nseg;
    atomic_uint next;
    int recode;              /* codes to update first: 2 all, 1 the moved events, 0 none */
    atomic_int claim, ready; /* a thread claimed the recoding; it is done */
    struct sweep_seg seg[SW_SEGS];
    int32_t *ints;
    uint32_t *idx;
    uint32_t nfew;        /* coded sweep of at most SW_FEW dirty activities: how many */
    uint32_t few[SW_FEW]; /* those activities */
    int few_on;           /* the coded sweep of sw->few only */
};

static int bit_of(const uint64_t *b, uint64_t e)
{
    return (int)(b[e / 64] >> (e & 63) & 1);
}

/* The code of event e under act and the selection bits. */
static inline uint16_t code_of(const uint64_t *bits, const uint32_t *act, const uint32_t *key,
                               uint64_t e)
{
    if (!bit_of(bits, e)) {
        return IODFG_CODE_OFF;
    }
    uint32_t a = act[key[e]];
    return a == IODFG_NO_ACTIVITY ? IODFG_CODE_NONE : (uint16_t)a;
}

/* Count point i of slot a (na = no activity: counted but never read). */
static inline void step(struct sweep_seg *sg, uint32_t a, int start, uint64_t i)
{
    int32_t v = sg->cur[a] + (start ? 1 : -1);
    sg->cur[a] = v;
    if (v > sg->best[a]) {
        sg->best[a] = v;
        sg->besti[a] = (uint32_t)i;
    }
}

/* One point of the coded sweep of the few activities: slot K (activity f##K, count c##K, best
 * b##K first reached at point i##K) counts it when the point's code is its activity (codes of no
 * activity and outside the selection are at least na, never equal to one). */
#define SW_FEW_POINT(K)                                                                            \
    do {                                                                                           \
        c##K += a == f##K ? inc : 0;                                                               \
        if (a == f##K && c##K > b##K) {                                                            \
            b##K = c##K;                                                                           \
            i##K = (uint32_t)i;                                                                    \
        }                                                                                          \
    } while (0)

/* The coded sweep of nf (1 to SW_FEW, a constant after inlining) dirty activities sw->few: the
 * counts live in registers, so that no point waits for the count its predecessor stored, and
 * only the slots in use are counted (same results as sweep_seg_run for them). */
static inline __attribute__((always_inline)) void sweep_few_n(struct iodfg_sweep *sw,
                                                              struct sweep_seg *sg, const int nf)
{
    const uint32_t *restrict pts = sw->tl->pts;
    const uint16_t *restrict codes = sw->codes;
    const uint32_t f0 = sw->few[0], f1 = nf > 1 ? sw->few[1] : UINT32_MAX;
    const uint32_t f2 = nf > 2 ? sw->few[2] : UINT32_MAX, f3 = nf > 3 ? sw->few[3] : UINT32_MAX;
    int32_t c0 = 0, c1 = 0, c2 = 0, c3 = 0;
    int32_t b0 = INT32_MIN, b1 = INT32_MIN, b2 = INT32_MIN, b3 = INT32_MIN;
    uint32_t i0 = 0, i1 = 0, i2 = 0, i3 = 0;
    uint64_t i = sg->lo, ahead = sg->hi - sg->lo > SW_AHEAD ? sg->hi - SW_AHEAD : sg->lo;
#define SW_FEW_BODY(PF)                                                                            \
    do {                                                                                           \
        uint32_t p = pts[i];                                                                       \
        if (PF) {                                                                                  \
            __builtin_prefetch(&codes[pts[i + SW_AHEAD] & ~IODFG_PT_START]);                       \
        }                                                                                          \
        uint32_t a = codes[p & ~IODFG_PT_START];                                                   \
        int32_t inc = (int32_t)(p >> 31) * 2 - 1;                                                  \
        SW_FEW_POINT(0);                                                                           \
        if (nf > 1) {                                                                              \
            SW_FEW_POINT(1);                                                                       \
        }                                                                                          \
        if (nf > 2) {                                                                              \
            SW_FEW_POINT(2);                                                                       \
        }                                                                                          \
        if (nf > 3) {                                                                              \
            SW_FEW_POINT(3);                                                                       \
        }                                                                                          \
    } while (0)
    for (; i < ahead; i++) {
        SW_FEW_BODY(1);
    }
    for (; i < sg->hi; i++) {
        SW_FEW_BODY(0);
    }
#undef SW_FEW_BODY
    const int32_t c[SW_FEW] = {c0, c1, c2, c3}, b[SW_FEW] = {b0, b1, b2, b3};
    const uint32_t bi[SW_FEW] = {i0, i1, i2, i3};
    for (int k = 0; k < nf; k++) {
        uint32_t a = sw->few[k];
        sg->cur[a] = c[k];
        sg->best[a] = b[k];
        sg->besti[a] = bi[k];
    }
}

static void sweep_seg_run_few(struct iodfg_sweep *sw, struct sweep_seg *sg)
{
    switch (sw->nfew) {
    case 1:
        sweep_few_n(sw, sg, 1);
        break;
    case 2:
        sweep_few_n(sw, sg, 2);
        break;
    case 3:
        sweep_few_n(sw, sg, 3);
        break;
    case 4:
        sweep_few_n(sw, sg, 4);
        break;
    default: // no dirty activity: nothing to count
        break;
    }
}

static void sweep_seg_reset(const struct iodfg_sweep *sw, struct sweep_seg *sg)
{
    for (uint32_t a = 0; a <= sw->na; a++) {
        sg->cur[a] = 0;
        sg->best[a] = INT32_MIN;
        sg->besti[a] = 0;
    }
}

/* One point of an interleaved coded sweep: segment X (locals cur_X, best_X, besti_X), point I;
 * PF: prefetch the code of the point SW_AHEAD on (which must exist in the segment). */
#define SW_POINT(X, I, PF)                                                                         \
    do {                                                                                           \
        if (PF) {                                                                                  \
            __builtin_prefetch(&codes[pts[(I) + SW_AHEAD] & ~IODFG_PT_START]);                     \
        }                                                                                          \
        uint32_t p_ = pts[I], a_ = codes[p_ & ~IODFG_PT_START];                                    \
        a_ = a_ < na ? a_ : na;                                                                    \
        int32_t v_ = cur_##X[a_] + (int32_t)(p_ >> 31) * 2 - 1;                                    \
        cur_##X[a_] = v_;                                                                          \
        if (v_ > best_##X[a_]) {                                                                   \
            best_##X[a_] = v_;                                                                     \
            besti_##X[a_] = (uint32_t)(I);                                                         \
        }                                                                                          \
    } while (0)

#define SW_SEG_LOCALS(X, SG)                                                                       \
    int32_t *restrict cur_##X = (SG)->cur, *restrict best_##X = (SG)->best;                        \
    uint32_t *restrict besti_##X = (SG)->besti;                                                    \
    const uint64_t lo_##X = (SG)->lo

/* The rest of segment z from point i on, alone. */
static void sweep_seg_tail(struct iodfg_sweep *sw, struct sweep_seg *z, uint64_t i)
{
    const uint32_t *pts = sw->tl->pts;
    const uint16_t *codes = sw->codes;
    uint32_t na = sw->na;
    for (; i < z->hi; i++) {
        uint32_t p = pts[i];
        uint32_t a = codes[p & ~IODFG_PT_START];
        step(z, a < na ? a : na, (int)(p >> 31), i);
    }
}

/* The coded sweep of two (four) segments at once, their points interleaved: the chains of counts
 * (each point waits for the count its segment's predecessor stored) then overlap. Same results
 * as sweep_seg_run on each. */
static void sweep_seg_run2(struct iodfg_sweep *sw, struct sweep_seg *x)
{
    const uint32_t *restrict pts = sw->tl->pts;
    const uint16_t *restrict codes = sw->codes;
    const uint32_t na = sw->na;
    uint64_t n = UINT64_MAX;
    for (unsigned r = 0; r < 2; r++) {
        sweep_seg_reset(sw, &x[r]);
        n = x[r].hi - x[r].lo < n ? x[r].hi - x[r].lo : n;
    }
    SW_SEG_LOCALS(0, &x[0]);
    SW_SEG_LOCALS(1, &x[1]);
    uint64_t j = 0;
    for (; j + SW_AHEAD < n; j++) {
        SW_POINT(0, lo_0 + j, 1);
        SW_POINT(1, lo_1 + j, 1);
    }
    for (; j < n; j++) {
        SW_POINT(0, lo_0 + j, 0);
        SW_POINT(1, lo_1 + j, 0);
    }
    for (unsigned r = 0; r < 2; r++) {
        sweep_seg_tail(sw, &x[r], x[r].lo + n);
    }
}

static void sweep_seg_run4(struct iodfg_sweep *sw, struct sweep_seg *x)
{
    const uint32_t *restrict pts = sw->tl->pts;
    const uint16_t *restrict codes = sw->codes;
    const uint32_t na = sw->na;
    uint64_t n = UINT64_MAX;
    for (unsigned r = 0; r < 4; r++) {
        sweep_seg_reset(sw, &x[r]);
        n = x[r].hi - x[r].lo < n ? x[r].hi - x[r].lo : n;
    }
    SW_SEG_LOCALS(0, &x[0]);
    SW_SEG_LOCALS(1, &x[1]);
    SW_SEG_LOCALS(2, &x[2]);
    SW_SEG_LOCALS(3, &x[3]);
    uint64_t j = 0;
    for (; j + SW_AHEAD < n; j++) {
        SW_POINT(0, lo_0 + j, 1);
        SW_POINT(1, lo_1 + j, 1);
        SW_POINT(2, lo_2 + j, 1);
        SW_POINT(3, lo_3 + j, 1);
    }
    for (; j < n; j++) {
        SW_POINT(0, lo_0 + j, 0);
        SW_POINT(1, lo_1 + j, 0);
        SW_POINT(2, lo_2 + j, 0);
        SW_POINT(3, lo_3 + j, 0);
    }
    for (unsigned r = 0; r < 4; r++) {
        sweep_seg_tail(sw, &x[r], x[r].lo + n);
    }
}

static void sweep_seg_run(struct iodfg_sweep *sw, struct sweep_seg *sg)
{
    const uint32_t *pts = sw->tl->pts;
    const uint32_t *key = sw->col->key;
    uint16_t *codes = sw->codes;
    uint32_t na = sw->na;
    sweep_seg_reset(sw, sg);
    if (!codes) { // too many activities for codes: look every point up
        for (uint64_t i = sg->lo; i < sg->hi; i++) {
            uint32_t e = pts[i] & ~IODFG_PT_START;
            if (!bit_of(sw->bits, e)) {
                continue;
            }
            uint32_t a = sw->act[key[e]];
            if (a != IODFG_NO_ACTIVITY && (!sw->dirty || sw->dirty[a])) {
                step(sg, a, (pts[i] & IODFG_PT_START) != 0, i);
            }
        }
        return;
    }
    if (sw->few_on) {
        sweep_seg_run_few(sw, sg);
        return;
    }
    for (uint64_t i = sg->lo; i < sg->hi; i++) {
        uint32_t p = pts[i];
        if (i + SW_AHEAD < sg->hi) {
            __builtin_prefetch(&codes[pts[i + SW_AHEAD] & ~IODFG_PT_START]);
        }
        uint32_t a = codes[p & ~IODFG_PT_START];
        step(sg, a < na ? a : na, (int)(p >> 31), i);
    }
}

/* Segments of a sweep over n points: small timelines get segments too, so that the exact
 * combination is always exercised. */
static unsigned seg_count(uint64_t n)
{
    return n / 64 < 1 ? 1 : n / 64 > SW_SEGS ? SW_SEGS : (unsigned)(n / 64);
}

/* Cut the points [lo, hi) in segments (at most as many as the first layout, over the whole
 * timeline, made room for). */
static void sweep_layout(struct iodfg_sweep *sw, uint64_t lo, uint64_t hi)
{
    uint64_t n = hi - lo;
    sw->nseg = seg_count(n);
    size_t nn = (size_t)sw->na + 1;
    for (unsigned t = 0; t < sw->nseg; t++) {
        struct sweep_seg *sg = &sw->seg[t];
        sg->lo = lo + n * t / sw->nseg;
        sg->hi = lo + n * (t + 1) / sw->nseg;
        sg->cur = sw->ints + nn * 2 * t;
        sg->best = sg->cur + nn;
        sg->besti = sw->idx + nn * t;
    }
}

struct iodfg_sweep *iodfg_sweep_new(const struct iodfg_stats *st, const struct iodfg_eventlog *log,
                                    const struct iodfg_timeline *tl, uint16_t *codes,
                                    int rebuild_codes, const uint64_t *bits, const uint32_t *act,
                                    const uint8_t *dirty, const uint64_t *moved, const uint8_t *src,
                                    struct iodfg_error *err)
{
    uint32_t na = st->nactivities;
    struct iodfg_sweep *sw = calloc(1, sizeof(*sw));
    if (!sw) {
        iodfg_error_set(err, IODFG_E_NOMEM, "out of memory for the concurrency sweep");
        return NULL;
    }
    sw->tl = tl;
    sw->col = iodfg_eventlog_columns(log);
    sw->codes = na > IODFG_CODE_MAX_ACT ? NULL : codes;
    sw->bits = bits;
    sw->moved = src ? moved : NULL;
    sw->act = act;
    sw->dirty = dirty;
    sw->na = na;
    sw->nseg = seg_count(tl->npts);
    atomic_init(&sw->next, 0);
    sw->recode = sw->codes && (rebuild_codes || sw->moved) ? (rebuild_codes ? 2 : 1) : 0;
    atomic_init(&sw->claim, 0);
    atomic_init(&sw->ready, !sw->recode);
    size_t nn = (size_t)na + 1;
    sw->ints = malloc(nn * 2 * sw->nseg * sizeof(*sw->ints));
    sw->idx = malloc(nn * sw->nseg * sizeof(*sw->idx));
    if (!sw->ints || !sw->idx) {
        iodfg_sweep_free(sw);
        iodfg_error_set(err, IODFG_E_NOMEM, "out of memory for the concurrency sweep");
        return NULL;
    }
    // a few dirty activities: their coded sweep keeps the counts in registers
    uint32_t nd = 0;
    for (uint32_t a = 0; sw->codes && dirty && a < na && nd <= SW_FEW; a++) {
        nd += dirty[a] != 0;
    }
    if (sw->codes && dirty && nd <= SW_FEW) {
        sw->few_on = 1;
        for (uint32_t a = 0; a < na; a++) {
            if (dirty[a]) {
                sw->few[sw->nfew++] = a;
            }
        }
    }
    sweep_layout(sw, 0, tl->npts);
    return sw;
}

uint64_t *iodfg_sweep_key_spans(const struct iodfg_timeline *tl, const struct iodfg_eventlog *log,
                                struct iodfg_error *err)
{
    uint32_t nk = iodfg_eventlog_key_count(log);
    const uint32_t *key = iodfg_eventlog_columns(log)->key;
    uint64_t *span = malloc(((size_t)nk + 1) * 2 * sizeof(*span));
    if (!span) {
        iodfg_error_set(err, IODFG_E_NOMEM, "out of memory for the timeline's key spans");
        return NULL;
    }
    for (uint32_t k = 0; k < nk; k++) {
        span[2 * (size_t)k] = UINT64_MAX;
        span[2 * (size_t)k + 1] = 0;
    }
    for (uint64_t i = 0; i < tl->npts; i++) {
        uint64_t *sk = &span[2 * (size_t)key[tl->pts[i] & ~IODFG_PT_START]];
        sk[0] = sk[0] == UINT64_MAX ? i : sk[0];
        sk[1] = i + 1;
    }
    return span;
}

void iodfg_sweep_limit(struct iodfg_sweep *sw, const uint64_t *span, uint32_t nkeys)
{
    if (!sw->dirty) {
        return;
    }
    uint64_t lo = UINT64_MAX, hi = 0;
    for (uint32_t k = 0; k < nkeys; k++) {
        uint32_t a = sw->act[k];
        if (a < sw->na && sw->dirty[a]) {
            lo = span[2 * (size_t)k] < lo ? span[2 * (size_t)k] : lo;
            hi = span[2 * (size_t)k + 1] > hi ? span[2 * (size_t)k + 1] : hi;
        }
    }
    sweep_layout(sw, lo < hi ? lo : 0, lo < hi ? hi : 0);
}

/* Update the codes before the sweep (one thread). */
static void sweep_recode(struct iodfg_sweep *sw)
{
    const uint32_t *key = sw->col->key;
    uint64_t n = sw->tl->n;
    if (sw->recode == 2) {
        for (uint64_t e = 0; e < n; e++) {
            sw->codes[e] = code_of(sw->bits, sw->act, key, e);
        }
        return;
    }
    for (uint64_t w = 0; w < (n + 63) / 64; w++) {
        for (uint64_t word = sw->moved[w]; word; word &= word - 1) {
            uint64_t e = w * 64 + (uint64_t)__builtin_ctzll(word);
            sw->codes[e] = code_of(sw->bits, sw->act, key, e);
        }
    }
}

void iodfg_sweep_recode_now(struct iodfg_sweep *sw)
{
    if (!atomic_load(&sw->ready) && !atomic_exchange(&sw->claim, 1)) {
        sweep_recode(sw);
        atomic_store(&sw->ready, 1);
    }
}

void iodfg_sweep_work(struct iodfg_sweep *sw)
{
    if (!atomic_load(&sw->ready)) {
        // the first thread recodes; another one arriving meanwhile leaves the segments to it
        if (atomic_exchange(&sw->claim, 1)) {
            return;
        }
        sweep_recode(sw);
        atomic_store(&sw->ready, 1);
    }
    // segments are taken by fours; the general coded sweep runs them interleaved
    for (;;) {
        unsigned t = SW_GROUP * atomic_fetch_add(&sw->next, 1u);
        if (t >= sw->nseg) {
            return;
        }
        unsigned m = sw->nseg - t < SW_GROUP ? sw->nseg - t : SW_GROUP;
        if (sw->codes && !sw->few_on && m == 4) {
            sweep_seg_run4(sw, &sw->seg[t]);
        } else if (sw->codes && !sw->few_on && m >= 2) {
            sweep_seg_run2(sw, &sw->seg[t]);
            for (unsigned r = 2; r < m; r++) {
                sweep_seg_run(sw, &sw->seg[t + r]);
            }
        } else {
            for (unsigned r = 0; r < m; r++) {
                sweep_seg_run(sw, &sw->seg[t + r]);
            }
        }
    }
}

void iodfg_sweep_end(struct iodfg_sweep *sw, struct iodfg_stats *st)
{
    // the best prefix of the whole is the best over segments of (count carried in + the
    // segment's best); ties keep the earlier point
    for (uint32_t a = 0; a < sw->na; a++) {
        if (sw->dirty && !sw->dirty[a]) {
            continue;
        }
        int64_t carry = 0, best = INT32_MIN;
        uint64_t besti = 0;
        for (unsigned t = 0; t < sw->nseg; t++) {
            const struct sweep_seg *sg = &sw->seg[t];
            if (sg->best[a] != INT32_MIN && carry + sg->best[a] > best) {
                best = carry + sg->best[a];
                besti = sg->besti[a];
            }
            carry += sg->cur[a];
        }
        struct iodfg_activity_stats *s = &st->act[a];
        s->mc = best > 0 ? (uint32_t)best : 0;
        s->mc_time_ns =
            best > 0 ? sw->col->start_ns[sw->tl->pts[besti] & ~IODFG_PT_START] : IODFG_UNKNOWN;
    }
    iodfg_stats_finish(st);
}

void iodfg_sweep_free(struct iodfg_sweep *sw)
{
    if (sw) {
        free(sw->ints);
        free(sw->idx);
        free(sw);
    }
}

static void *sweep_thread(void *vsw)
{
    iodfg_sweep_work(vsw);
    return NULL;
}

int iodfg_stats_sweep(struct iodfg_stats *st, const struct iodfg_eventlog *log,
                      const struct iodfg_timeline *tl, uint16_t *codes, int rebuild_codes,
                      const uint64_t *bits, const uint32_t *act, const uint8_t *dirty,
                      const uint64_t *moved, const uint8_t *src, int nthreads,
                      struct iodfg_error *err)
{
    struct iodfg_sweep *sw =
        iodfg_sweep_new(st, log, tl, codes, rebuild_codes, bits, act, dirty, moved, src, err);
    if (!sw) {
        return -1;
    }
    struct iodfg_fork helper;
    iodfg_fork_start(&helper, nthreads > 1 && sw->nseg > SW_GROUP, IODFG_FORK_HELP, sweep_thread,
                     sw);
    iodfg_sweep_work(sw);
    iodfg_fork_join(&helper);
    iodfg_sweep_end(sw, st);
    iodfg_sweep_free(sw);
    return 0;
}

/* ---- the sweep as a job beside the caller's walk ---- */

static void *sweep_main(void *vsw)
{
    iodfg_sweep_work(vsw);
    return NULL;
}

int iodfg_sweep_job_start(struct iodfg_sweep_job *j, struct iodfg_sweep *sw)
{
    j->sw = sw;
    if (!sw) {
        return -1;
    }
    iodfg_fork_start(&j->helper, 1, IODFG_FORK_HELP, sweep_main, sw);
    return 0;
}

void iodfg_sweep_job_finish(struct iodfg_sweep_job *j, struct iodfg_stats *st)
{
    if (!j->sw) {
        return;
    }
    iodfg_sweep_work(j->sw);
    iodfg_fork_join(&j->helper);
    iodfg_sweep_end(j->sw, st);
    iodfg_sweep_free(j->sw);
    j->sw = NULL;
}
