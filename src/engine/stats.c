/* SPDX-License-Identifier: MIT */
/* Activity statistics: key sums, exact sweep-line concurrency, nearest-rank percentiles. */
#include "config.h"

#include "iodfg/stats.h"

#include <pthread.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>

#include "iodfg/dfg.h"
#include "iodfg/error.h"
#include "iodfg/eventlog.h"
#include "iodfg/mapping.h"

#include "stats_priv.h"

#define ALWAYS_INLINE inline __attribute__((always_inline))

void iodfg_stats_init(struct iodfg_stats *st)
{
    memset(st, 0, sizeof(*st));
}

void iodfg_stats_fini(struct iodfg_stats *st)
{
    free(st->act);
    memset(st, 0, sizeof(*st));
}

static void reset_one(struct iodfg_activity_stats *s)
{
    memset(s, 0, sizeof(*s));
    s->mc_time_ns = IODFG_UNKNOWN;
    s->dur_min_ns = s->dur_median_ns = s->dur_p95_ns = s->dur_max_ns = IODFG_UNKNOWN;
}

int iodfg_stats_resize(struct iodfg_stats *st, uint32_t n, struct iodfg_error *err)
{
    if (n > st->nactivities) {
        struct iodfg_activity_stats *a = realloc(st->act, (size_t)n * sizeof(*a));
        if (!a) {
            return iodfg_error_set(err, IODFG_E_NOMEM, "out of memory for statistics");
        }
        st->act = a;
        for (uint32_t i = st->nactivities; i < n; i++) {
            reset_one(&a[i]);
        }
    }
    st->nactivities = n;
    return 0;
}

int iodfg_stats_copy(struct iodfg_stats *dst, const struct iodfg_stats *src,
                     struct iodfg_error *err)
{
    iodfg_stats_fini(dst);
    if (iodfg_stats_resize(dst, src->nactivities, err)) {
        return -1;
    }
    if (src->nactivities) {
        memcpy(dst->act, src->act, src->nactivities * sizeof(*dst->act));
    }
    dst->total_dur_ns = src->total_dur_ns;
    return 0;
}

/* Quickselect: v[k] becomes the value of rank k (0-based) in sorted order. */
static void select_nth(int64_t *v, size_t n, size_t k)
{
    size_t lo = 0, hi = n - 1;
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        // median of three as pivot
        int64_t a = v[lo], b = v[mid], c = v[hi];
        int64_t p = a < b ? (b < c ? b : (a < c ? c : a)) : (a < c ? a : (b < c ? c : b));
        size_t i = lo, j = hi;
        while (i <= j) {
            while (v[i] < p) {
                i++;
            }
            while (v[j] > p) {
                j--;
            }
            if (i <= j) {
                int64_t t = v[i];
                v[i] = v[j];
                v[j] = t;
                i++;
                if (j == 0) {
                    break;
                }
                j--;
            }
        }
        if (k <= j) {
            hi = j;
        } else if (k >= i) {
            lo = i;
        } else {
            return;
        }
    }
}

int64_t iodfg_stats_percentile(int64_t *v, size_t n, unsigned pct)
{
    if (!n) {
        return IODFG_UNKNOWN;
    }
    size_t rank = (size_t)(((uint64_t)pct * n + 99) / 100); // ceil(pct/100 * n), 1-based
    if (rank < 1) {
        rank = 1;
    }
    select_nth(v, n, rank - 1);
    return v[rank - 1];
}

int iodfg_stats_select_bits(uint64_t *bits, const struct iodfg_eventlog *log,
                            const struct iodfg_selection *sel)
{
    uint64_t n = iodfg_eventlog_event_count(log);
    memset(bits, 0, (size_t)((n + 63) / 64) * sizeof(*bits));
    uint32_t nc = iodfg_eventlog_case_count(log);
    for (uint32_t c = 0; c < nc; c++) {
        uint64_t lo, hi;
        if (!iodfg_dfg_case_range(log, sel, c, &lo, &hi)) {
            continue;
        }
        while (lo < hi && (lo & 63)) {
            bits[lo / 64] |= 1ULL << (lo & 63);
            lo++;
        }
        while (lo + 64 <= hi) {
            bits[lo / 64] = ~0ULL;
            lo += 64;
        }
        while (lo < hi) {
            bits[lo / 64] |= 1ULL << (lo & 63);
            lo++;
        }
    }
    return 0;
}

#define key_sums_add iodfg_key_sums_add

void iodfg_key_sums_clear(struct iodfg_key_sums *sums, uint32_t nkeys)
{
    for (uint32_t k = 0; k < nkeys; k++) {
        struct iodfg_key_sums *s = &sums[k];
        memset(s, 0, sizeof(*s));
        s->dur_min_ns = INT64_MAX;
        s->dur_max_ns = INT64_MIN;
    }
}

void iodfg_stats_key_sums(struct iodfg_key_sums *sums, uint32_t nkeys,
                          const struct iodfg_eventlog *log, const uint64_t *bits)
{
    iodfg_key_sums_clear(sums, nkeys);
    const struct iodfg_columns *col = iodfg_eventlog_columns(log);
    const uint32_t *key = col->key;
    const int64_t *dur = col->dur_ns, *size = col->size;
    uint64_t n = iodfg_eventlog_event_count(log);
    for (uint64_t w = 0; w < (n + 63) / 64; w++) {
        uint64_t word = bits[w];
        if (word == ~0ULL && dur && size) { // a run of 64 selected events, in event order
            for (uint64_t e = w * 64; e < w * 64 + 64; e++) {
                key_sums_add(&sums[key[e]], dur[e], size[e]);
            }
            continue;
        }
        while (word) {
            uint64_t e = w * 64 + (uint64_t)__builtin_ctzll(word);
            word &= word - 1;
            key_sums_add(&sums[key[e]], dur ? dur[e] : IODFG_UNKNOWN,
                         size ? size[e] : IODFG_UNKNOWN);
        }
    }
}

void iodfg_stats_finish(struct iodfg_stats *st)
{
    int64_t total = 0;
    for (uint32_t a = 0; a < st->nactivities; a++) {
        total += st->act[a].dur_sum_ns;
    }
    st->total_dur_ns = total;
    for (uint32_t a = 0; a < st->nactivities; a++) {
        struct iodfg_activity_stats *s = &st->act[a];
        s->rd = total > 0 ? (double)s->dur_sum_ns / (double)total : 0.0;
        s->dr_mean = s->dr_n ? s->dr_sum / (double)s->dr_n : 0.0;
        s->DR = (double)s->mc * s->dr_mean;
    }
}

void iodfg_stats_aggregate(struct iodfg_stats *st, const struct iodfg_key_sums *sums,
                           const uint32_t *act, uint32_t nkeys, const uint8_t *dirty)
{
    for (uint32_t a = 0; a < st->nactivities; a++) {
        if (!dirty || dirty[a]) {
            struct iodfg_activity_stats *s = &st->act[a];
            s->count = s->dur_n = s->dr_n = 0;
            s->dur_sum_ns = s->bytes = 0;
            s->dr_sum = 0.0;
            s->dur_min_ns = s->dur_max_ns = IODFG_UNKNOWN;
        }
    }
    for (uint32_t k = 0; k < nkeys; k++) {
        uint32_t a = act[k];
        if (a == IODFG_NO_ACTIVITY || (dirty && !dirty[a]) || !sums[k].count) {
            continue;
        }
        struct iodfg_activity_stats *s = &st->act[a];
        const struct iodfg_key_sums *ks = &sums[k];
        s->count += ks->count;
        s->dur_n += ks->dur_n;
        s->dur_sum_ns += ks->dur_sum_ns;
        s->bytes += ks->bytes;
        s->dr_n += ks->dr_n;
        s->dr_sum += ks->dr_sum;
        if (ks->dur_n) {
            if (s->dur_min_ns == IODFG_UNKNOWN || ks->dur_min_ns < s->dur_min_ns) {
                s->dur_min_ns = ks->dur_min_ns;
            }
            if (s->dur_max_ns == IODFG_UNKNOWN || ks->dur_max_ns > s->dur_max_ns) {
                s->dur_max_ns = ks->dur_max_ns;
            }
        }
    }
    iodfg_stats_finish(st);
}

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
    uint8_t *slot;        /* per code up to na: its index in few, or SW_FEW */
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

/* The coded sweep of the few dirty activities sw->few: the counts live in registers, so that no
 * point waits for the count its predecessor stored (same results as sweep_seg_run for them). */
static void sweep_seg_run_few(struct iodfg_sweep *sw, struct sweep_seg *sg)
{
    const uint32_t *pts = sw->tl->pts;
    const uint16_t *codes = sw->codes;
    const uint8_t *slot = sw->slot;
    uint32_t na = sw->na;
    int32_t c0 = 0, c1 = 0, c2 = 0, c3 = 0;
    int32_t b0 = INT32_MIN, b1 = INT32_MIN, b2 = INT32_MIN, b3 = INT32_MIN;
    uint32_t i0 = 0, i1 = 0, i2 = 0, i3 = 0;
    for (uint64_t i = sg->lo; i < sg->hi; i++) {
        uint32_t p = pts[i];
        if (i + SW_AHEAD < sg->hi) {
            __builtin_prefetch(&codes[pts[i + SW_AHEAD] & ~IODFG_PT_START]);
        }
        uint32_t a = codes[p & ~IODFG_PT_START];
        uint32_t k = slot[a < na ? a : na];
        int32_t inc = p >> 31 ? 1 : -1;
        c0 += k == 0 ? inc : 0;
        c1 += k == 1 ? inc : 0;
        c2 += k == 2 ? inc : 0;
        c3 += k == 3 ? inc : 0;
        if (k == 0 && c0 > b0) {
            b0 = c0;
            i0 = (uint32_t)i;
        }
        if (k == 1 && c1 > b1) {
            b1 = c1;
            i1 = (uint32_t)i;
        }
        if (k == 2 && c2 > b2) {
            b2 = c2;
            i2 = (uint32_t)i;
        }
        if (k == 3 && c3 > b3) {
            b3 = c3;
            i3 = (uint32_t)i;
        }
    }
    const int32_t c[SW_FEW] = {c0, c1, c2, c3}, b[SW_FEW] = {b0, b1, b2, b3};
    const uint32_t bi[SW_FEW] = {i0, i1, i2, i3};
    for (uint32_t k = 0; k < sw->nfew; k++) {
        uint32_t a = sw->few[k];
        sg->cur[a] = c[k];
        sg->best[a] = b[k];
        sg->besti[a] = bi[k];
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
    if (sw->slot) {
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
    // small timelines get segments too, so that the exact combination is always exercised
    sw->nseg = tl->npts / 64 < 1         ? 1
               : tl->npts / 64 > SW_SEGS ? SW_SEGS
                                         : (unsigned)(tl->npts / 64);
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
        sw->slot = malloc(nn);
        if (!sw->slot) {
            iodfg_sweep_free(sw);
            iodfg_error_set(err, IODFG_E_NOMEM, "out of memory for the concurrency sweep");
            return NULL;
        }
        memset(sw->slot, SW_FEW, nn);
        for (uint32_t a = 0; a < na; a++) {
            if (dirty[a]) {
                sw->slot[a] = (uint8_t)sw->nfew;
                sw->few[sw->nfew++] = a;
            }
        }
    }
    for (unsigned t = 0; t < sw->nseg; t++) {
        struct sweep_seg *sg = &sw->seg[t];
        sg->lo = tl->npts * t / sw->nseg;
        sg->hi = tl->npts * (t + 1) / sw->nseg;
        sg->cur = sw->ints + nn * 2 * t;
        sg->best = sg->cur + nn;
        sg->besti = sw->idx + nn * t;
    }
    return sw;
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
        if (sw->codes && !sw->slot && m == 4) {
            sweep_seg_run4(sw, &sw->seg[t]);
        } else if (sw->codes && !sw->slot && m >= 2) {
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
        free(sw->slot);
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
    pthread_t th;
    int threaded =
        nthreads > 1 && sw->nseg > SW_GROUP && !pthread_create(&th, NULL, sweep_thread, sw);
    iodfg_sweep_work(sw);
    if (threaded) {
        pthread_join(th, NULL);
    }
    iodfg_sweep_end(sw, st);
    iodfg_sweep_free(sw);
    return 0;
}

/* ---- exact nearest-rank percentiles of many groups of values ----
 * Small groups gather their values and select. Large groups first count their values in a
 * histogram of fixed log-spaced buckets (64 per power of two, exact below 64), which gives the
 * bucket holding each wanted rank; a second pass gathers only those buckets' values. A group
 * whose histogram was kept from an earlier scan (and updated since) gathers its target buckets
 * in the first pass already.
 * Up to two workers share one layout: worker 0 fills each region from its low end, worker 1
 * from its high end (a region holds exactly the values of both), and each worker counts into
 * its own histograms, summed between the passes. Selection does not depend on the order of
 * the values, so the result is the same however the work was split. */

uint64_t iodfg_pctl_large = 65536; /* groups with at least this many values use a histogram */
uint64_t iodfg_scan_split_min = 1u << 14;
#define PB_MAG IODFG_PB_MAG
#define PB_N IODFG_PB_N
#define PB_NONE UINT32_MAX
#define pbucket iodfg_pbucket

/* What a group does with a value in the running pass. */
enum { PM_SKIP, PM_GATHER, PM_HIST, PM_TARGET };

struct pgroup {
    uint64_t n;      /* values expected */
    uint64_t off;    /* gather: region of the n values; target: region of target 0's bucket */
    uint64_t off1;   /* target: region of target 1's bucket (when another bucket) */
    uint64_t m0, m1; /* target: values in those two regions */
    uint32_t *kept;  /* kept histogram of exactly the group's values, or NULL */
    uint32_t hist;   /* counting histogram index (first pass of a large group without one) */
    uint32_t bkt[2];
    uint64_t below[2];
    uint8_t want, npct;
    uint8_t kind; /* PM_GATHER or PM_TARGET once laid out; PM_SKIP: no values */
    uint8_t mode; /* in the running pass */
};

struct pctl {
    uint32_t ng, nh;
    struct pgroup *g;
    uint32_t *hist; /* worker 0's histograms; after a first pass the sums */
    int64_t *vals;
};

static const unsigned PCT[2][2] = {{50, 0}, {95, 50}};

static uint64_t rank_of(unsigned pct, uint64_t n)
{
    uint64_t r = (pct * n + 99) / 100;
    return r < 1 ? 1 : r;
}

static void pctl_fini(struct pctl *P)
{
    free(P->g);
    free(P->hist);
    free(P->vals);
    memset(P, 0, sizeof(*P));
}

/* The target buckets of group g from the histogram h of its n values. */
static void pctl_aim(struct pgroup *g, const uint32_t *h)
{
    for (unsigned j = 0; j < g->npct; j++) {
        uint64_t r = rank_of(PCT[g->npct - 1][j], g->n), below = 0;
        uint32_t b = 0;
        while (below + h[b] < r) {
            below += h[b++];
        }
        g->bkt[j] = b;
        g->below[j] = below;
    }
    g->m0 = h[g->bkt[0]];
    g->m1 = g->npct == 2 && g->bkt[1] != g->bkt[0] ? h[g->bkt[1]] : 0;
}

/* Lay out the wanted groups (want, n, npct and kept filled by the caller). */
static int pctl_layout(struct pctl *P)
{
    uint64_t nv = 0;
    uint32_t nh = 0;
    for (uint32_t i = 0; i < P->ng; i++) {
        struct pgroup *g = &P->g[i];
        g->hist = PB_NONE;
        g->kind = g->mode = PM_SKIP;
        if (!g->want || !g->n) {
            continue;
        }
        if (g->kept) {
            pctl_aim(g, g->kept);
            g->kind = g->mode = PM_TARGET;
            g->off = nv;
            g->off1 = nv + g->m0;
            nv += g->m0 + g->m1;
        } else if (g->n >= iodfg_pctl_large) {
            g->hist = nh++;
            g->kind = PM_TARGET;
            g->mode = PM_HIST;
        } else {
            g->kind = g->mode = PM_GATHER;
            g->off = nv;
            nv += g->n;
        }
    }
    P->nh = nh;
    P->hist = nh ? calloc((size_t)nh * PB_N, sizeof(*P->hist)) : NULL;
    P->vals = malloc((size_t)(nv ? nv : 1) * sizeof(*P->vals));
    return (nh && !P->hist) || !P->vals ? -1 : 0;
}

/* After the first pass (histograms summed): aim the counted groups at their target buckets and
 * make room for their values; they alone take values in the second pass. Returns 1 when a
 * second pass is needed, 0 when not, -1 when out of memory. */
static int pctl_targets(struct pctl *P)
{
    uint64_t nv = 0, extra = 0;
    for (uint32_t i = 0; i < P->ng; i++) {
        struct pgroup *g = &P->g[i];
        if (g->hist == PB_NONE) {
            if (g->kind == PM_GATHER && g->off + g->n > nv) {
                nv = g->off + g->n;
            }
            if (g->kind == PM_TARGET && g->off + g->m0 + g->m1 > nv) {
                nv = g->off + g->m0 + g->m1;
            }
            g->mode = PM_SKIP;
            continue;
        }
        pctl_aim(g, P->hist + (size_t)g->hist * PB_N);
        extra += g->m0 + g->m1;
    }
    if (!extra) {
        return 0;
    }
    int64_t *v = realloc(P->vals, (size_t)(nv + extra) * sizeof(*v));
    if (!v) {
        return -1;
    }
    P->vals = v;
    for (uint32_t i = 0; i < P->ng; i++) {
        struct pgroup *g = &P->g[i];
        if (g->hist != PB_NONE) {
            g->off = nv;
            g->off1 = nv + g->m0;
            nv += g->m0 + g->m1;
            g->mode = PM_TARGET;
        }
    }
    return 1;
}

/* The exact values of group gi's percentiles (out[0..npct)). */
static void pctl_result(struct pctl *P, uint32_t gi, int64_t *out)
{
    struct pgroup *g = &P->g[gi];
    if (!g->n || g->kind == PM_SKIP) {
        out[0] = out[1] = IODFG_UNKNOWN;
        return;
    }
    int64_t *v = P->vals + g->off;
    if (g->kind == PM_GATHER) {
        // the highest rank first: the lower ranks then lie in the part below it
        uint64_t hi = g->n;
        for (unsigned j = 0; j < g->npct; j++) {
            uint64_t r = rank_of(PCT[g->npct - 1][j], g->n);
            select_nth(v, (size_t)hi, (size_t)(r - 1));
            out[j] = v[r - 1];
            hi = r;
        }
        return;
    }
    for (unsigned j = 0; j < g->npct; j++) {
        int other = j == 1 && g->bkt[1] != g->bkt[0];
        int64_t *w = other ? P->vals + g->off1 : v;
        uint64_t m = other ? g->m1 : g->m0;
        uint64_t k = rank_of(PCT[g->npct - 1][j], g->n) - g->below[j] - 1;
        select_nth(w, (size_t)m, (size_t)k);
        out[j] = w[k];
    }
}

/* ---- kept histograms ---- */

void iodfg_hstore_init(struct iodfg_hstore *hs)
{
    memset(hs, 0, sizeof(*hs));
}

static void hstore_drop(uint32_t **h, size_t n)
{
    for (size_t i = 0; i < n; i++) {
        free(h[i]);
        h[i] = NULL;
    }
}

void iodfg_hstore_clear(struct iodfg_hstore *hs)
{
    hstore_drop(hs->act, hs->nact);
    hstore_drop(hs->edge, hs->nedge);
    hs->count = 0;
}

void iodfg_hstore_clear_edges(struct iodfg_hstore *hs)
{
    for (size_t i = 0; i < hs->nedge; i++) {
        hs->count -= hs->edge[i] != NULL;
    }
    hstore_drop(hs->edge, hs->nedge);
}

void iodfg_hstore_fini(struct iodfg_hstore *hs)
{
    iodfg_hstore_clear(hs);
    free(hs->act);
    free(hs->edge);
    memset(hs, 0, sizeof(*hs));
}

size_t iodfg_hstore_memory(const struct iodfg_hstore *hs)
{
    return (size_t)hs->count * PB_N * sizeof(uint32_t) +
           ((size_t)hs->nact + hs->nedge) * sizeof(uint32_t *);
}

/* The entry of activity a (edge 0) or edge slot i (edge 1), grown to hold it when grow. NULL when
 * out of range (or out of memory). */
static uint32_t **hstore_entry(struct iodfg_hstore *hs, int edge, size_t i, int grow)
{
    uint32_t ***arr = edge ? &hs->edge : &hs->act;
    size_t n = edge ? hs->nedge : hs->nact;
    if (i < n) {
        return &(*arr)[i];
    }
    if (!grow) {
        return NULL;
    }
    size_t m = n ? n : 16;
    while (m <= i) {
        m *= 2;
    }
    uint32_t **a = realloc(*arr, m * sizeof(*a));
    if (!a) {
        return NULL;
    }
    memset(a + n, 0, (m - n) * sizeof(*a));
    *arr = a;
    if (edge) {
        hs->nedge = m;
    } else {
        hs->nact = (uint32_t)m;
    }
    return &a[i];
}

struct move_ctx {
    struct iodfg_hstore *hs;
    struct iodfg_dfg *g;
    const int64_t *dur;
    uint32_t sign;
    uint32_t last_from, last_to; /* one-entry cache of the slot lookup */
    uint32_t *last_h;
};

static int move_one(void *vctx, uint32_t from, uint32_t to, int has_gap, int64_t gap,
                    uint32_t trace, uint64_t ev)
{
    (void)trace;
    struct move_ctx *mx = vctx;
    struct iodfg_hstore *hs = mx->hs;
    if (to < hs->nact && hs->act[to] && mx->dur && mx->dur[ev] != IODFG_UNKNOWN) {
        hs->act[to][pbucket(mx->dur[ev])] += mx->sign;
    }
    if (!has_gap || !hs->nedge) {
        return 0;
    }
    if (from != mx->last_from || to != mx->last_to) {
        struct iodfg_dfg_edge *e = iodfg_dfg_slot(mx->g, from, to);
        if (!e) {
            return -1;
        }
        size_t slot = (size_t)(e - mx->g->edges);
        mx->last_h = slot < hs->nedge ? hs->edge[slot] : NULL;
        mx->last_from = from;
        mx->last_to = to;
    }
    if (mx->last_h) {
        mx->last_h[pbucket(gap)] += mx->sign;
    }
    return 0;
}

int iodfg_hstore_move(struct iodfg_hstore *hs, struct iodfg_dfg *g,
                      const struct iodfg_eventlog *log, const uint32_t *old_act,
                      const uint32_t *new_act, const struct iodfg_selection *sel,
                      const uint32_t *cases, size_t ncases, struct iodfg_error *err)
{
    if (!hs->count) {
        return 0;
    }
    struct move_ctx mx = {hs, g, iodfg_eventlog_columns(log)->dur_ns, 0, 0, 0, NULL};
    for (int pass = 0; pass < 2; pass++) {
        mx.sign = pass ? 1u : UINT32_MAX; // wrapping: -1
        mx.last_from = mx.last_to = IODFG_NO_ACTIVITY;
        for (size_t i = 0; i < ncases; i++) {
            uint64_t lo, hi;
            if (iodfg_dfg_case_range(log, sel, cases[i], &lo, &hi) &&
                iodfg_dfg_walk_case(log, pass ? new_act : old_act, lo, hi, sel->per_pid, move_one,
                                    &mx, err) < 0) {
                if (err && !err->code) {
                    iodfg_error_set(err, IODFG_E_NOMEM, "out of memory for kept histograms");
                }
                return -1;
            }
        }
    }
    return 0;
}

/* ---- DFG count with histograms: the recount from scratch after a large rule edit ----
 * Two workers count halves of the cases (by events) into their own DFGs, the second one merged
 * into the first afterwards in its slot order (the slots then come in the order one walk over
 * all cases makes them, and every count and sum is an integer sum). In the same walk over the
 * key, start and dur columns they count the histograms of the activity durations and edge gaps,
 * which are kept for the large groups: the statistics walk that follows then gathers only the
 * values of their target buckets, in one pass instead of two. */

uint32_t iodfg_count_hist_max = 256;

struct ch_worker {
    const struct iodfg_eventlog *log;
    const struct iodfg_selection *sel;
    const uint32_t *act;
    uint32_t c0, c1; /* cases [c0, c1) */
    struct iodfg_dfg *g;
    uint16_t *codes; /* per event: its code written on the way, or NULL */
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
        h = w->nalloc < iodfg_count_hist_max ? calloc(PB_N, sizeof(*h)) : NULL;
        w->nalloc += h != NULL;
        w->eh[slot] = h;
        w->elost[slot] = h == NULL;
    }
    return h;
}

/* Count one trace made of the events [lo, hi) (count_trace of dfg.c plus the histograms). A run
 * of events on one edge adds up in registers and is stored when the edge changes. */
static int ch_trace(struct ch_worker *w, uint64_t lo, uint64_t hi)
{
    struct iodfg_dfg *g = w->g;
    const struct iodfg_columns *col = iodfg_eventlog_columns(w->log);
    const uint32_t *restrict key = col->key;
    const uint32_t *restrict act = w->act;
    const int64_t *restrict start = col->start_ns;
    const int64_t *restrict dur = col->dur_ns;
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
    uint64_t run_n = 0;     // its occurrences in the run
    int64_t run_gap = 0;    // and the sum of their gaps
    uint32_t *run_h = NULL; // its gap histogram
    int run_has_gap = 0;
    uint16_t *restrict codes = w->codes;
    for (uint64_t e = lo; e < hi; e++) {
        uint32_t a = act[key[e]];
        if (codes) {
            codes[e] = a == IODFG_NO_ACTIVITY ? IODFG_CODE_NONE : (uint16_t)a;
        }
        if (a == IODFG_NO_ACTIVITY) {
            continue;
        }
        uint32_t t = tab ? tab[(size_t)(prev == IODFG_NODE_START ? na : prev) * (na + 1) + a] : 0;
        size_t slot = t ? t - 1 : ch_slot(w, prev, a);
        if (slot == SIZE_MAX) {
            return -1;
        }
        if (slot != cur) {
            if (cur != SIZE_MAX) {
                struct iodfg_dfg_edge *ed = &g->edges[cur];
                ed->count += run_n;
                ed->gap_n += run_has_gap ? run_n : 0;
                ed->gap_sum_ns += run_gap;
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
            run_gap += s - prev_end;
            if (run_h) {
                run_h[pbucket(s - prev_end)]++;
            }
        }
        if (d != IODFG_UNKNOWN && ah[a]) {
            ah[a][pbucket(d)]++;
        }
        prev = a;
        prev_end = s + (d == IODFG_UNKNOWN ? 0 : d);
    }
    g->next_stamp += 2;
    if (prev == IODFG_NODE_START) {
        return 0;
    }
    struct iodfg_dfg_edge *ed = &g->edges[cur];
    ed->count += run_n;
    ed->gap_n += run_has_gap ? run_n : 0;
    ed->gap_sum_ns += run_gap;
    size_t slot = ch_slot(w, prev, IODFG_NODE_END);
    if (slot == SIZE_MAX) {
        return -1;
    }
    ed = &g->edges[slot];
    g->touched[slot] = 1;
    ed->count++;
    if (g->stamp[slot] != stamp) {
        g->stamp[slot] = stamp;
        ed->cases++;
    }
    g->traces++;
    return 0;
}

static void ch_run(struct ch_worker *w)
{
    for (uint32_t c = w->c0; c < w->c1 && !w->rc; c++) {
        uint64_t lo, hi;
        if (iodfg_dfg_case_range(w->log, w->sel, c, &lo, &hi) && ch_trace(w, lo, hi)) {
            w->rc = -1;
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

/* Move the histogram *h into the kept entry i of hs (edge or activity); frees it when the
 * entry cannot be made. */
static void ch_keep(struct iodfg_hstore *hs, int edge, size_t i, uint32_t **h)
{
    uint32_t **e = hstore_entry(hs, edge, i, 1);
    if (e) {
        if (*e) {
            free(*e);
            hs->count--;
        }
        *e = *h;
        hs->count++;
    } else {
        free(*h);
    }
    *h = NULL;
}

int iodfg_dfg_count_hist(struct iodfg_dfg *g, const struct iodfg_eventlog *log, const uint32_t *act,
                         const struct iodfg_selection *sel, const struct iodfg_stats *st,
                         const uint8_t *dirty, struct iodfg_hstore *hs, uint16_t *codes,
                         struct iodfg_error *err)
{
    uint32_t na = g->nactivities, nc = iodfg_eventlog_case_count(log);
    const uint64_t *off = iodfg_eventlog_case_offsets(log);
    struct ch_worker W[2];
    struct iodfg_dfg g1;
    memset(W, 0, sizeof(W));
    iodfg_dfg_init(&g1);
    g1.nactivities = na;
    int rc = -1;
    // two workers over halves of the cases (by events) when there is enough work
    uint64_t total = off[nc] - off[0], cum = 0;
    uint32_t split = nc;
    if (nc > 1 && total >= iodfg_scan_split_min) {
        for (split = 0; split < nc - 1 && 2 * cum < total; split++) {
            cum += off[split + 1] - off[split];
        }
        split = split ? split : 1;
    }
    int nw = split < nc ? 2 : 1;
    for (int t = 0; t < nw; t++) {
        struct ch_worker *w = &W[t];
        w->log = log;
        w->sel = sel;
        w->act = act;
        w->c0 = t ? split : 0;
        w->c1 = t ? nc : split;
        w->g = t ? &g1 : g;
        w->codes = codes;
        w->na = na;
        w->last_from = w->last_to = IODFG_NO_ACTIVITY;
        w->nalloc = hs ? 0 : iodfg_count_hist_max; // nothing to keep: no edge histograms
        w->ah = calloc((size_t)na + 1, sizeof(*w->ah));
        if (na <= iodfg_scan_dense_max) {
            w->tab = calloc(((size_t)na + 1) * (na + 1), sizeof(*w->tab));
        }
        if (!w->ah || (na <= iodfg_scan_dense_max && !w->tab)) {
            goto nomem;
        }
        for (uint32_t a = 0; hs && st && a < na && a < st->nactivities; a++) {
            if ((!dirty || dirty[a]) && st->act[a].dur_n >= iodfg_pctl_large) {
                w->ah[a] = calloc(PB_N, sizeof(**w->ah));
                if (!w->ah[a]) {
                    goto nomem;
                }
            }
        }
    }
    pthread_t th;
    int threaded = nw > 1 && !pthread_create(&th, NULL, ch_thread, &W[1]);
    ch_run(&W[0]);
    if (threaded) {
        pthread_join(th, NULL);
    } else if (nw > 1) {
        ch_run(&W[1]);
    }
    if (W[0].rc || W[1].rc) {
        goto nomem;
    }
    // the second worker's edges, in its slot order, into g
    struct ch_worker *w0 = &W[0], *w1 = &W[1];
    for (size_t i = 0; i < g1.nedges; i++) {
        const struct iodfg_dfg_edge *e1 = &g1.edges[i];
        size_t slot = ch_slot(w0, e1->from, e1->to);
        if (slot == SIZE_MAX) {
            goto nomem;
        }
        struct iodfg_dfg_edge *d = &g->edges[slot];
        int seen = d->count != 0; // the first worker counted this edge too
        d->count += e1->count;
        d->cases += e1->cases;
        d->gap_n += e1->gap_n;
        d->gap_sum_ns += e1->gap_sum_ns;
        g->touched[slot] = 1;
        g->stamp[slot] = 0; // older than every trace counted from now on
        uint32_t *h1 = i < w1->neh ? w1->eh[i] : NULL;
        int lost1 = i < w1->neh && w1->elost[i];
        if (lost1 || w0->elost[slot]) {
            w0->elost[slot] = 1;
        } else if (h1 && w0->eh[slot]) {
            for (size_t b = 0; b < PB_N; b++) {
                w0->eh[slot][b] += h1[b];
            }
        } else if (h1 && !seen) {
            w0->eh[slot] = h1;
            w1->eh[i] = NULL;
        } else if (h1) {
            w0->elost[slot] = 1; // cannot happen: a seen edge with gaps has a histogram or is lost
        }
    }
    if (nw > 1) {
        g->traces += g1.traces;
        uint64_t ns = (uint64_t)g->next_stamp + g1.next_stamp;
        g->next_stamp = (uint32_t)(ns < UINT32_MAX / 2 ? ns : UINT32_MAX / 2);
        for (uint32_t a = 0; a < na; a++) {
            for (size_t b = 0; w0->ah[a] && b < PB_N; b++) {
                w0->ah[a][b] += w1->ah[a][b];
            }
        }
    }
    // keep the histograms of the large groups (exact by construction; scans check the totals)
    for (uint32_t a = 0; a < na; a++) {
        if (w0->ah[a]) {
            ch_keep(hs, 0, a, &w0->ah[a]);
        }
    }
    for (size_t i = 0; i < g->nedges && i < w0->neh; i++) {
        if (w0->eh[i] && !w0->elost[i] && g->edges[i].gap_n >= iodfg_pctl_large) {
            ch_keep(hs, 1, i, &w0->eh[i]);
        }
    }
    rc = 0;
    goto out;
nomem:
    iodfg_error_set(err, IODFG_E_NOMEM, "out of memory counting transitions");
out:
    ch_free(&W[0]);
    ch_free(&W[1]);
    iodfg_dfg_fini(&g1);
    return rc;
}

/* ---- the statistics walk: cases, duration percentiles and edge gap medians ---- */

uint32_t iodfg_scan_dense_max = 512;

/* A group in the running pass. A target bucket is a range of values: in offset space
 * (o = v ^ 2^63, which orders like v) those of [lo, lo + span], so that a value is tested
 * against a target bucket without computing its bucket. */
struct scan_group {
    uint64_t lo0, span0; /* target 0's bucket */
    uint64_t lo1, span1; /* target 1's bucket when another one (else target 0's again) */
    uint32_t hidx;       /* counting histogram, or PB_NONE */
    uint8_t mode;
};

#define PB_SIGN (1ULL << 63)

/* The magnitudes u with iodfg_pb_mag(u) == m: [lo, hi]. */
static void mag_range(uint32_t m, uint64_t *lo, uint64_t *hi)
{
    if (m < 64) {
        *lo = *hi = m;
        return;
    }
    unsigned e = m / 64 + 5; // the leading bit, then six bits of m % 64
    *lo = 1ULL << e | (uint64_t)(m % 64) << (e - 6);
    *hi = *lo + ((1ULL << (e - 6)) - 1);
}

/* The values of bucket b (one that int64 values fall in) as an offset-space range. */
static void pbucket_range(uint32_t b, uint64_t *lo, uint64_t *span)
{
    uint64_t ulo, uhi;
    if (b >= PB_MAG) { // v = u
        mag_range(b - PB_MAG, &ulo, &uhi);
        *lo = ulo ^ PB_SIGN;
    } else { // v = -(u + 1), so o = 2^63 - 1 - u
        mag_range(PB_MAG - 1 - b, &ulo, &uhi);
        *lo = PB_SIGN - 1 - uhi;
    }
    *span = uhi - ulo;
}

/* What both workers read. */
struct scan_job {
    const struct iodfg_eventlog *log;
    const struct iodfg_columns *col;
    const uint32_t *act;
    const struct iodfg_selection *sel;
    const uint32_t *cases; /* NULL = every case */
    struct iodfg_dfg *g;
    struct pctl *P;
    uint32_t na;            /* activity groups (0 without statistics) */
    uint8_t *aw;            /* per activity: its group takes values in this pass */
    uint32_t *etab;         /* dense (from, to) -> group taking values in this pass, or PB_NONE */
    uint32_t tdim;          /* activities of the dense table (0: hash lookups) */
    struct scan_group *grp; /* per group: what it does with a value in this pass */
    int pass, any_edge;     /* any_edge: some edge group takes values in this pass */
    const uint16_t *codes;  /* per event: its activity code (ready), or NULL: act[key] */
    int fast;               /* no group counts a histogram in this pass and etab is set: the
                               groups' ranges decide alone (scan_trace_fast) */
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
        w->hist[(size_t)sg->hidx * PB_N + pbucket(v)]++;
        break;
    case PM_TARGET: {
        uint64_t o = (uint64_t)v ^ PB_SIGN;
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

/* The group of edge (from, to) taking values in this pass, or PB_NONE. */
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
    uint32_t gi = PB_NONE;
    if (e) {
        gi = J->na + (uint32_t)(e - J->g->edges);
        if (J->grp[gi].mode == PM_SKIP) {
            gi = PB_NONE;
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
        if (gi != PB_NONE) {
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
            if (gi != PB_NONE) {
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
    uint64_t o = (uint64_t)v ^ PB_SIGN;
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
 * counts the cases of the wanted activities, acts takes durations. */
static ALWAYS_INLINE void scan_trace_fast(struct scan_worker *w, uint64_t lo, uint64_t hi,
                                          uint32_t tr, const int first, const int acts,
                                          const int coded)
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
    uint32_t prev = IODFG_NODE_START;
    int64_t prev_end = 0;
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
        int64_t d = dur[e], s = start[e];
        if (acts) {
            if (first && aw[a] && stamp[a] != tr) {
                stamp[a] = tr;
                ncases[a]++;
            }
            if (d != IODFG_UNKNOWN) {
                take_fast(&fg[a], vals, step, d);
            }
        }
        if (prev < tdim) { // ● first, above every activity
            uint32_t gi = etab[(size_t)prev * tdim + a];
            if (gi != PB_NONE) {
                take_fast(&fg[gi], vals, step, s - prev_end);
            }
        }
        prev = a;
        prev_end = s + (d == IODFG_UNKNOWN ? 0 : d);
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
    }
}

static void scan_run(struct scan_worker *w)
{
    const struct scan_job *J = w->J;
    int per_pid = J->sel->per_pid && J->col->pid;
    for (uint32_t k = w->k0; k < w->k1 && !w->rc; k++) {
        uint64_t lo, hi;
        if (!iodfg_dfg_case_range(J->log, J->sel, J->cases ? J->cases[k] : k, &lo, &hi)) {
            continue;
        }
        if (w->base > UINT32_MAX / 2 - (hi - lo) - 2) {
            memset(w->stamp, 0, (size_t)J->na * sizeof(*w->stamp));
            w->base = 0;
        }
        if (!per_pid) {
            if (J->fast) {
                uint32_t tr = w->base + 1;
                if (!J->na) {
                    scan_trace_fast(w, lo, hi, tr, 0, 0, 0);
                } else if (J->codes) {
                    if (!J->pass) {
                        scan_trace_fast(w, lo, hi, tr, 1, 1, 1);
                    } else {
                        scan_trace_fast(w, lo, hi, tr, 0, 1, 1);
                    }
                } else if (!J->pass) {
                    scan_trace_fast(w, lo, hi, tr, 1, 1, 0);
                } else {
                    scan_trace_fast(w, lo, hi, tr, 0, 1, 0);
                }
            } else {
                scan_trace(w, lo, hi, w->base + 1);
            }
            w->base += 2;
            continue;
        }
        long ntr = iodfg_dfg_walk_case(J->log, J->act, lo, hi, 1, scan_one, w, &w->err);
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
            pbucket_range(g->bkt[0], &sg->lo0, &sg->span0);
            sg->lo1 = sg->lo0;
            sg->span1 = sg->span0;
            if (g->npct == 2 && g->bkt[1] != g->bkt[0]) {
                pbucket_range(g->bkt[1], &sg->lo1, &sg->span1);
            }
        }
    }
    for (uint32_t a = 0; a < J->na; a++) {
        // the first pass also counts the cases of every wanted activity
        J->aw[a] = pass ? P->g[a].mode != PM_SKIP : P->g[a].want;
    }
    J->fast = (J->etab != NULL || !J->g) && J->col->start_ns && J->col->dur_ns &&
              (!J->na || (J->g && J->na == J->tdim)) && !(J->sel->per_pid && J->col->pid);
    for (uint32_t i = 0; i < P->ng; i++) {
        J->fast = J->fast && P->g[i].mode != PM_HIST;
    }
    J->any_edge = 0;
    size_t ne = J->g ? J->g->nedges : 0;
    if (J->etab) {
        for (size_t i = 0; i < (size_t)J->tdim * J->tdim; i++) {
            J->etab[i] = PB_NONE;
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

/* The kept histogram of group i if it holds exactly n values (dropping a stale or empty one). */
static uint32_t *kept_of(struct iodfg_hstore *hs, int edge, size_t i, uint64_t n)
{
    uint32_t **h = hs ? hstore_entry(hs, edge, i, 0) : NULL;
    if (!h || !*h) {
        return NULL;
    }
    uint64_t sum = 0;
    for (size_t b = 0; b < PB_N; b++) {
        sum += (*h)[b];
    }
    if (sum != n || !n) {
        free(*h);
        *h = NULL;
        hs->count--;
        return NULL;
    }
    return *h;
}

/* Keep the histogram h of group i. */
static void keep_hist(struct iodfg_hstore *hs, int edge, size_t i, const uint32_t *h)
{
    uint32_t **e = hstore_entry(hs, edge, i, 1);
    if (!e) {
        return; // out of memory: the group is counted again next time
    }
    if (!*e) {
        *e = malloc(PB_N * sizeof(**e));
        if (!*e) {
            return;
        }
        hs->count++;
    }
    memcpy(*e, h, PB_N * sizeof(**e));
}

/* The percentiles of groups [lo, hi) into the statistics and the DFG. */
struct results_job {
    struct pctl *P;
    struct iodfg_stats *st;
    struct iodfg_dfg *g;
    uint32_t na, lo, hi;
};

static void *results_run(void *vr)
{
    struct results_job *r = vr;
    for (uint32_t i = r->lo; i < r->hi; i++) {
        if (!r->P->g[i].want) {
            continue;
        }
        int64_t out[2] = {IODFG_UNKNOWN, IODFG_UNKNOWN};
        pctl_result(r->P, i, out);
        if (i < r->na) {
            r->st->act[i].dur_p95_ns = out[0];
            r->st->act[i].dur_median_ns = out[1];
        } else {
            r->g->edges[i - r->na].gap_median_ns = out[0];
        }
    }
    return NULL;
}

/* The values the selections of group g go through. */
static uint64_t pctl_cost(const struct pgroup *g)
{
    return !g->want ? 0 : g->kind == PM_GATHER ? g->n : g->kind == PM_TARGET ? g->m0 + g->m1 : 0;
}

int iodfg_stats_scan_kept(struct iodfg_stats *st, struct iodfg_dfg *g,
                          const struct iodfg_eventlog *log, const uint32_t *act,
                          const struct iodfg_selection *sel, const uint32_t *cases, size_t ncases,
                          const uint8_t *dirty, int act_dirty_none, const uint8_t *edge_dirty,
                          struct iodfg_hstore *hs, const uint16_t *codes, struct iodfg_error *err)
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
    P.ng = (uint32_t)(na + ne);
    P.g = calloc((size_t)P.ng + 1, sizeof(*P.g));
    if (!P.g) {
        goto nomem;
    }
    int any = 0;
    for (uint32_t a = 0; a < na; a++) {
        struct pgroup *pg = &P.g[a];
        pg->want = !act_dirty_none && (!dirty || dirty[a]);
        if (pg->want) {
            st->act[a].cases = 0;
            pg->n = st->act[a].dur_n;
            pg->npct = 2;
            pg->kept = kept_of(hs, 0, a, pg->n);
            any = 1;
        }
    }
    for (size_t i = 0; i < ne; i++) {
        struct pgroup *pg = &P.g[na + i];
        pg->want = !edge_dirty || edge_dirty[i];
        if (pg->want) {
            pg->n = g->edges[i].gap_n;
            pg->npct = 1;
            pg->kept = kept_of(hs, 1, i, pg->n);
            any = 1;
        }
    }
    if (!any) {
        free(P.g);
        return 0;
    }
    if (pctl_layout(&P)) {
        goto nomem;
    }
    J.log = log;
    J.col = iodfg_eventlog_columns(log);
    J.act = act;
    J.sel = sel;
    J.cases = cases;
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
    int nw = split < nc ? 2 : 1;
    for (int t = 0; t < nw; t++) {
        struct scan_worker *w = &W[t];
        w->J = &J;
        w->dir = t;
        w->step = t ? -1 : 1;
        w->k0 = t ? split : 0;
        w->k1 = t ? nc : split;
        iodfg_error_clear(&w->err);
        w->fill = malloc(((size_t)P.ng + 1) * sizeof(*w->fill));
        w->fill1 = malloc(((size_t)P.ng + 1) * sizeof(*w->fill1));
        w->fg = malloc(((size_t)P.ng + 1) * sizeof(*w->fg));
        w->stamp = calloc((size_t)na + 1, sizeof(*w->stamp));
        w->ncases = calloc((size_t)na + 1, sizeof(*w->ncases));
        w->hist = t ? (P.nh ? calloc((size_t)P.nh * PB_N, sizeof(*w->hist)) : NULL) : P.hist;
        if (!w->fill || !w->fill1 || !w->fg || !w->stamp || !w->ncases || (P.nh && !w->hist)) {
            goto nomem;
        }
    }
    for (int pass = 0; pass < 2; pass++) {
        scan_pass_setup(&J, pass);
        for (int t = 0; t < nw; t++) {
            scan_fills(&W[t], &P);
            if (J.fast) {
                scan_fast_setup(&W[t]);
            }
            W[t].last_from = W[t].last_to = IODFG_NO_ACTIVITY;
            W[t].last_gi = PB_NONE;
        }
        pthread_t th;
        int threaded = nw > 1 && !pthread_create(&th, NULL, scan_thread, &W[1]);
        scan_run(&W[0]);
        if (threaded) {
            pthread_join(th, NULL);
        } else if (nw > 1) {
            scan_run(&W[1]);
        }
        for (int t = 0; t < nw; t++) {
            if (W[t].rc) {
                if (err) {
                    *err = W[t].err;
                }
                goto out;
            }
        }
        if (pass) {
            break;
        }
        for (uint32_t a = 0; a < na; a++) {
            if (P.g[a].want) {
                st->act[a].cases = W[0].ncases[a] + (nw > 1 ? W[1].ncases[a] : 0);
            }
        }
        if (nw > 1) {
            for (size_t i = 0; i < (size_t)P.nh * PB_N; i++) {
                P.hist[i] += W[1].hist[i];
            }
        }
        for (uint32_t i = 0; hs && i < P.ng; i++) {
            if (P.g[i].hist != PB_NONE) {
                keep_hist(hs, i >= na, i < na ? i : i - na, P.hist + (size_t)P.g[i].hist * PB_N);
            }
        }
        int t = pctl_targets(&P);
        if (t < 0) {
            goto nomem;
        }
        if (!t) {
            break;
        }
    }
    // the selections, split by their values over two threads when there are many
    struct results_job R[2] = {{&P, st, g, na, 0, P.ng}, {&P, st, g, na, P.ng, P.ng}};
    uint64_t work = 0, half = 0;
    for (uint32_t i = 0; i < P.ng; i++) {
        work += pctl_cost(&P.g[i]);
    }
    if (work >= iodfg_scan_split_min) {
        for (R[0].hi = 0; R[0].hi < P.ng && 2 * half < work; R[0].hi++) {
            half += pctl_cost(&P.g[R[0].hi]);
        }
        R[1].lo = R[0].hi;
    }
    pthread_t th;
    int threaded = R[1].lo < R[1].hi && !pthread_create(&th, NULL, results_run, &R[1]);
    results_run(&R[0]);
    if (threaded) {
        pthread_join(th, NULL);
    } else {
        results_run(&R[1]);
    }
    rc = 0;
    goto out;
nomem:
    iodfg_error_set(err, IODFG_E_NOMEM, "out of memory for percentiles");
out:
    for (int t = 0; t < 2; t++) {
        free(W[t].fill);
        free(W[t].fill1);
        free(W[t].fg);
        free(W[t].stamp);
        free(W[t].ncases);
        if (t) {
            free(W[t].hist);
        }
    }
    free(J.aw);
    free(J.grp);
    free(J.etab);
    pctl_fini(&P);
    return rc;
}

int iodfg_stats_scan(struct iodfg_stats *st, struct iodfg_dfg *g, const struct iodfg_eventlog *log,
                     const uint32_t *act, const struct iodfg_selection *sel, const uint32_t *cases,
                     size_t ncases, const uint8_t *dirty, int act_dirty_none,
                     const uint8_t *edge_dirty, struct iodfg_error *err)
{
    return iodfg_stats_scan_kept(st, g, log, act, sel, cases, ncases, dirty, act_dirty_none,
                                 edge_dirty, NULL, NULL, err);
}

int iodfg_stats_build(struct iodfg_stats *st, const struct iodfg_eventlog *log,
                      const struct iodfg_mapping *map, const struct iodfg_selection *sel,
                      struct iodfg_error *err)
{
    struct iodfg_timeline tl;
    uint64_t n = iodfg_eventlog_event_count(log);
    uint32_t nkeys = iodfg_eventlog_key_count(log);
    uint64_t *bits = malloc((size_t)((n + 63) / 64 + 1) * sizeof(*bits));
    struct iodfg_key_sums *sums = malloc(((size_t)nkeys + 1) * sizeof(*sums));
    int rc = -1;
    memset(&tl, 0, sizeof(tl));
    if (!bits || !sums) {
        iodfg_error_set(err, IODFG_E_NOMEM, "out of memory for statistics");
        goto out;
    }
    for (uint32_t a = 0; a < st->nactivities; a++) {
        reset_one(&st->act[a]);
    }
    if (iodfg_stats_resize(st, map->nactivities, err) || iodfg_timeline_build(&tl, log, err)) {
        goto out;
    }
    iodfg_stats_select_bits(bits, log, sel);
    iodfg_stats_key_sums(sums, nkeys, log, bits);
    iodfg_stats_aggregate(st, sums, map->activity_of_key, nkeys, NULL);
    if (iodfg_stats_sweep(st, log, &tl, NULL, 0, bits, map->activity_of_key, NULL, NULL, NULL, 1,
                          err) ||
        iodfg_stats_scan(st, NULL, log, map->activity_of_key, sel, NULL, 0, NULL, 0, NULL, err)) {
        goto out;
    }
    rc = 0;
out:
    iodfg_timeline_fini(&tl);
    free(bits);
    free(sums);
    return rc;
}

/* ---- timeline: interval boundaries in time order ---- */

struct run {
    int64_t t;
    uint32_t e, kind;  /* current event, 0 = end point, 1 = start point */
    uint64_t pos, end; /* next position in the run, end of the run */
};

static int run_less(const struct run *a, const struct run *b)
{
    if (a->t != b->t) {
        return a->t < b->t;
    }
    if (a->kind != b->kind) {
        return a->kind < b->kind;
    }
    return a->e < b->e;
}

static void sift_down(struct run *h, size_t n, size_t i)
{
    struct run x = h[i];
    for (;;) {
        size_t l = 2 * i + 1, m = l;
        if (l >= n) {
            break;
        }
        if (l + 1 < n && run_less(&h[l + 1], &h[l])) {
            m = l + 1;
        }
        if (!run_less(&h[m], &x)) {
            break;
        }
        h[i] = h[m];
        i = m;
    }
    h[i] = x;
}

static int64_t dur_of(const struct iodfg_columns *col, uint64_t e)
{
    return col->dur_ns ? col->dur_ns[e] : IODFG_UNKNOWN;
}

static int has_interval(const struct iodfg_columns *col, uint64_t e)
{
    return dur_of(col, e) > 0;
}

static int64_t end_time(const struct iodfg_columns *col, uint64_t e)
{
    return col->start_ns[e] + dur_of(col, e);
}

static int cmp_end(const void *pa, const void *pb, void *ctx)
{
    const struct iodfg_columns *col = ctx;
    uint32_t a = *(const uint32_t *)pa, b = *(const uint32_t *)pb;
    int64_t ta = end_time(col, a), tb = end_time(col, b);
    if (ta != tb) {
        return ta < tb ? -1 : 1;
    }
    return a < b ? -1 : a > b;
}

/* Load the run's current element (its position must be valid). */
static void run_load(struct run *r, const struct iodfg_columns *col, const uint32_t *ends)
{
    if (r->kind) {
        r->e = (uint32_t)r->pos;
        r->t = col->start_ns[r->pos];
    } else {
        r->e = ends[r->pos];
        r->t = end_time(col, r->e);
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

int iodfg_timeline_build(struct iodfg_timeline *tl, const struct iodfg_eventlog *log,
                         struct iodfg_error *err)
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
    uint64_t m = 0;
    for (uint64_t e = 0; e < n; e++) {
        m += has_interval(col, e);
    }
    tl->n = n;
    tl->npts = 2 * m;
    tl->pts = malloc((size_t)(m ? 2 * m : 1) * sizeof(*tl->pts));
    uint32_t *ends = malloc((size_t)(m ? m : 1) * sizeof(*ends));
    uint64_t *eoff = malloc(((size_t)nc + 1) * sizeof(*eoff));
    struct run *h = malloc(((size_t)nc * 2 + 1) * sizeof(*h));
    if (!tl->pts || !ends || !eoff || !h) {
        free(ends);
        free(eoff);
        free(h);
        iodfg_timeline_fini(tl);
        return iodfg_error_set(err, IODFG_E_NOMEM, "out of memory for the timeline");
    }
    // each case's events with an interval, sorted by end (usually already in order)
    uint64_t k = 0;
    for (uint32_t c = 0; c < nc; c++) {
        eoff[c] = k;
        int sorted = 1;
        for (uint64_t e = off[c]; e < off[c + 1]; e++) {
            if (has_interval(col, e)) {
                sorted = sorted && (k == eoff[c] || end_time(col, ends[k - 1]) <= end_time(col, e));
                ends[k++] = (uint32_t)e;
            }
        }
        if (!sorted) {
            qsort_r(ends + eoff[c], (size_t)(k - eoff[c]), sizeof(*ends), cmp_end,
                    (void *)(uintptr_t)col);
        }
    }
    eoff[nc] = k;
    // merge the 2 * nc sorted runs with a heap
    size_t hn = 0;
    for (uint32_t c = 0; c < nc; c++) {
        struct run r = {0, 0, 1, off[c], off[c + 1]};
        if (run_next_start(&r, col)) {
            run_load(&r, col, ends);
            h[hn++] = r;
        }
        if (eoff[c] < eoff[c + 1]) {
            r = (struct run){0, 0, 0, eoff[c], eoff[c + 1]};
            run_load(&r, col, ends);
            h[hn++] = r;
        }
    }
    for (size_t i = hn / 2; i-- > 0;) {
        sift_down(h, hn, i);
    }
    uint64_t out = 0;
    while (hn) {
        struct run *r = &h[0];
        tl->pts[out++] = r->e | (r->kind ? IODFG_PT_START : 0);
        r->pos++;
        int more = r->kind ? run_next_start(r, col) : r->pos < r->end;
        if (more) {
            run_load(r, col, ends);
        } else {
            h[0] = h[--hn];
        }
        if (hn) {
            sift_down(h, hn, 0);
        }
    }
    free(ends);
    free(eoff);
    free(h);
    return 0;
}

void iodfg_timeline_fini(struct iodfg_timeline *tl)
{
    free(tl->pts);
    memset(tl, 0, sizeof(*tl));
}
