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

static void key_sums_init(struct iodfg_key_sums *s)
{
    memset(s, 0, sizeof(*s));
    s->dur_min_ns = INT64_MAX;
    s->dur_max_ns = INT64_MIN;
}

void iodfg_stats_key_sums(struct iodfg_key_sums *sums, uint32_t nkeys,
                          const struct iodfg_eventlog *log, const uint64_t *bits)
{
    for (uint32_t k = 0; k < nkeys; k++) {
        key_sums_init(&sums[k]);
    }
    const struct iodfg_columns *col = iodfg_eventlog_columns(log);
    uint64_t n = iodfg_eventlog_event_count(log);
    for (uint64_t w = 0; w < (n + 63) / 64; w++) {
        uint64_t word = bits[w];
        while (word) {
            uint64_t e = w * 64 + (uint64_t)__builtin_ctzll(word);
            word &= word - 1;
            struct iodfg_key_sums *s = &sums[col->key[e]];
            int64_t d = col->dur_ns ? col->dur_ns[e] : IODFG_UNKNOWN;
            int64_t z = col->size ? col->size[e] : IODFG_UNKNOWN;
            s->count++;
            if (d != IODFG_UNKNOWN) {
                s->dur_n++;
                s->dur_sum_ns += d;
                s->dur_min_ns = d < s->dur_min_ns ? d : s->dur_min_ns;
                s->dur_max_ns = d > s->dur_max_ns ? d : s->dur_max_ns;
            }
            if (z != IODFG_UNKNOWN) {
                s->bytes += z;
                if (d != IODFG_UNKNOWN && d > 0) {
                    s->dr_n++;
                    s->dr_sum += (double)z * 1e9 / (double)d;
                }
            }
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

#define SW_SEGS 16
#define SW_AHEAD 24 /* prefetch distance in points */

struct sweep_seg {
    uint64_t lo, hi;
    int32_t *cur, *best; /* per activity (+1 slot for codes without one): net, best prefix */
    uint32_t *besti;     /* point where best was first reached */
};

struct iodfg_sweep {
    const struct iodfg_timeline *tl;
    const struct iodfg_columns *col;
    uint16_t *codes;
    int rebuild;
    const uint64_t *bits, *moved;
    const uint32_t *act;
    const uint8_t *dirty;
    uint8_t stab[0x8000]; /* per code value: recode source */
    uint32_t na;
    unsigned nseg;
    atomic_uint next;
    struct sweep_seg seg[SW_SEGS];
    int32_t *ints;
    uint32_t *idx;
};

static int bit_of(const uint64_t *b, uint64_t e)
{
    return (int)(b[e / 64] >> (e & 63) & 1);
}

static uint16_t code_of(const struct iodfg_sweep *sw, uint32_t p)
{
    uint32_t e = p & ~IODFG_PT_START;
    uint16_t c = IODFG_CODE_OFF;
    if (bit_of(sw->bits, e)) {
        uint32_t a = sw->act[sw->col->key[e]];
        c = a == IODFG_NO_ACTIVITY ? IODFG_CODE_NONE : (uint16_t)a;
    }
    return (uint16_t)(c | (p & IODFG_PT_START ? 0x8000u : 0));
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

static void sweep_seg_run(struct iodfg_sweep *sw, struct sweep_seg *sg)
{
    const uint32_t *pts = sw->tl->pts;
    const uint32_t *key = sw->col->key;
    uint16_t *codes = sw->codes;
    uint32_t na = sw->na;
    for (uint32_t a = 0; a <= na; a++) {
        sg->cur[a] = 0;
        sg->best[a] = INT32_MIN;
        sg->besti[a] = 0;
    }
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
    } else if (sw->rebuild) {
        for (uint64_t i = sg->lo; i < sg->hi; i++) {
            if (i + SW_AHEAD < sg->hi) {
                uint32_t f = pts[i + SW_AHEAD] & ~IODFG_PT_START;
                __builtin_prefetch(&key[f]);
                __builtin_prefetch(&sw->bits[f / 64]);
            }
            uint16_t c = code_of(sw, pts[i]);
            codes[i] = c;
            uint32_t a = c & 0x7fffu;
            step(sg, a < na ? a : na, c >> 15, i);
        }
    } else if (sw->moved) {
        const uint64_t *moved = sw->moved;
        for (uint64_t i = sg->lo; i < sg->hi; i++) {
            uint16_t c = codes[i];
            uint32_t e = pts[i] & ~IODFG_PT_START;
            if (bit_of(moved, e) && sw->stab[c & 0x7fffu]) {
                uint32_t a = sw->act[key[e]];
                c = (uint16_t)((c & 0x8000u) | (a == IODFG_NO_ACTIVITY ? IODFG_CODE_NONE : a));
                codes[i] = c;
            }
            uint32_t a = c & 0x7fffu;
            step(sg, a < na ? a : na, c >> 15, i);
        }
    } else {
        for (uint64_t i = sg->lo; i < sg->hi; i++) {
            uint16_t c = codes[i];
            uint32_t a = c & 0x7fffu;
            step(sg, a < na ? a : na, c >> 15, i);
        }
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
    sw->rebuild = rebuild_codes;
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
    for (uint32_t a = 0; a < na && src; a++) {
        sw->stab[a] = src[a];
    }
    if (src) {
        sw->stab[IODFG_CODE_NONE] = src[na];
    }
    size_t nn = (size_t)na + 1;
    sw->ints = malloc(nn * 2 * sw->nseg * sizeof(*sw->ints));
    sw->idx = malloc(nn * sw->nseg * sizeof(*sw->idx));
    if (!sw->ints || !sw->idx) {
        iodfg_sweep_free(sw);
        iodfg_error_set(err, IODFG_E_NOMEM, "out of memory for the concurrency sweep");
        return NULL;
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

void iodfg_sweep_work(struct iodfg_sweep *sw)
{
    for (;;) {
        unsigned t = atomic_fetch_add(&sw->next, 1u);
        if (t >= sw->nseg) {
            return;
        }
        sweep_seg_run(sw, &sw->seg[t]);
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
    pthread_t th;
    int threaded = nthreads > 1 && sw->nseg > 1 && !pthread_create(&th, NULL, sweep_thread, sw);
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
 * bucket holding each wanted rank; a second pass gathers only those buckets' values. */

#define PB_MAG (59 * 64) /* buckets of magnitudes 0..2^64-1 */
#define PB_N (2 * PB_MAG)
uint64_t iodfg_pctl_large = 65536; /* groups with at least this many values use a histogram */
#define PB_NONE UINT32_MAX

static uint32_t mag_bucket(uint64_t u)
{
    if (u < 64) {
        return (uint32_t)u;
    }
    unsigned e = 63u - (unsigned)__builtin_clzll(u);
    return (uint32_t)((e - 5) * 64 + ((u >> (e - 6)) & 63));
}

/* Monotone map of int64 values to buckets 0..PB_N-1. */
static uint32_t pbucket(int64_t v)
{
    return v >= 0 ? PB_MAG + mag_bucket((uint64_t)v)
                  : PB_MAG - 1 - mag_bucket((uint64_t)(-(v + 1)));
}

struct pgroup {
    uint64_t n;           /* values expected */
    uint64_t off, fill;   /* small: gathered values; large: second-pass gather of target 0 */
    uint64_t off1, fill1; /* large: second-pass gather of target 1 (when another bucket) */
    uint32_t hist;        /* histogram index or PB_NONE (small or unwanted) */
    uint32_t bkt[2];
    uint64_t below[2];
    uint8_t want, npct;
};

struct pctl {
    uint32_t ng;
    struct pgroup *g;
    uint32_t *hist;
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

/* Lay out the wanted groups (want set, n and npct filled by the caller). */
static int pctl_layout(struct pctl *P)
{
    uint64_t nv = 0;
    uint32_t nh = 0;
    for (uint32_t i = 0; i < P->ng; i++) {
        struct pgroup *g = &P->g[i];
        g->hist = PB_NONE;
        if (!g->want || !g->n) {
            continue;
        }
        if (g->n >= iodfg_pctl_large) {
            g->hist = nh++;
        } else {
            g->off = g->fill = nv;
            nv += g->n;
        }
    }
    P->hist = nh ? calloc((size_t)nh * PB_N, sizeof(*P->hist)) : NULL;
    P->vals = malloc((size_t)(nv ? nv : 1) * sizeof(*P->vals));
    return (nh && !P->hist) || !P->vals ? -1 : 0;
}

static inline void pctl_add(struct pctl *P, uint32_t gi, int64_t v)
{
    struct pgroup *g = &P->g[gi];
    if (g->hist != PB_NONE) {
        P->hist[(size_t)g->hist * PB_N + pbucket(v)]++;
    } else {
        P->vals[g->fill++] = v;
    }
}

static inline void pctl_add2(struct pctl *P, uint32_t gi, int64_t v)
{
    struct pgroup *g = &P->g[gi];
    if (g->hist == PB_NONE) {
        return;
    }
    uint32_t b = pbucket(v);
    if (b == g->bkt[0]) {
        P->vals[g->fill++] = v;
    } else if (g->npct == 2 && b == g->bkt[1]) {
        P->vals[g->fill1++] = v;
    }
}

/* After the first pass: find the target buckets of the large groups and make room for their
 * values. Returns 1 when a second pass is needed, 0 when not, -1 when out of memory. */
static int pctl_targets(struct pctl *P)
{
    uint64_t nv = 0, extra = 0;
    for (uint32_t i = 0; i < P->ng; i++) {
        struct pgroup *g = &P->g[i];
        if (g->hist == PB_NONE) {
            if (g->want && g->n && g->off + g->n > nv) {
                nv = g->off + g->n;
            }
            continue;
        }
        const uint32_t *h = P->hist + (size_t)g->hist * PB_N;
        for (unsigned j = 0; j < g->npct; j++) {
            uint64_t r = rank_of(PCT[g->npct - 1][j], g->n), below = 0;
            uint32_t b = 0;
            while (below + h[b] < r) {
                below += h[b++];
            }
            g->bkt[j] = b;
            g->below[j] = below;
        }
        extra += h[g->bkt[0]];
        if (g->npct == 2 && g->bkt[1] != g->bkt[0]) {
            extra += h[g->bkt[1]];
        }
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
        if (g->hist == PB_NONE) {
            continue;
        }
        const uint32_t *h = P->hist + (size_t)g->hist * PB_N;
        g->off = g->fill = nv;
        nv += h[g->bkt[0]];
        g->off1 = g->fill1 = nv;
        if (g->npct == 2 && g->bkt[1] != g->bkt[0]) {
            nv += h[g->bkt[1]];
        }
    }
    return 1;
}

/* The exact values of group gi's percentiles (out[0..npct)). */
static void pctl_result(struct pctl *P, uint32_t gi, int64_t *out)
{
    struct pgroup *g = &P->g[gi];
    if (!g->n) {
        out[0] = out[1] = IODFG_UNKNOWN;
        return;
    }
    int64_t *v = P->vals + g->off;
    if (g->hist == PB_NONE) {
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
        uint64_t m = other ? g->fill1 - g->off1 : g->fill - g->off;
        uint64_t k = rank_of(PCT[g->npct - 1][j], g->n) - g->below[j] - 1;
        select_nth(w, (size_t)m, (size_t)k);
        out[j] = w[k];
    }
}

/* ---- the statistics walk: cases, duration percentiles and edge gap medians ---- */

struct scan_ctx {
    struct iodfg_stats *st;
    struct iodfg_dfg *g;
    const struct iodfg_columns *col;
    const uint8_t *dirty, *edge_dirty;
    int act_none, pass;
    uint32_t *stamp; /* per activity: last trace counted */
    uint32_t base, na;
    struct pctl *P;
    uint32_t last_from, last_to; /* one-entry cache of the edge lookup */
    size_t last_slot;
};

static int scan_one(void *vctx, uint32_t from, uint32_t to, int has_gap, int64_t gap,
                    uint32_t trace, uint64_t ev)
{
    struct scan_ctx *sx = vctx;
    if (to != IODFG_NODE_END && !sx->act_none && (!sx->dirty || sx->dirty[to])) {
        if (!sx->pass && sx->stamp[to] != sx->base + trace + 1) {
            sx->stamp[to] = sx->base + trace + 1;
            sx->st->act[to].cases++;
        }
        int64_t d = sx->col->dur_ns ? sx->col->dur_ns[ev] : IODFG_UNKNOWN;
        if (d != IODFG_UNKNOWN) {
            if (sx->pass) {
                pctl_add2(sx->P, to, d);
            } else {
                pctl_add(sx->P, to, d);
            }
        }
    }
    if (has_gap && sx->g) {
        size_t slot;
        if (from == sx->last_from && to == sx->last_to) {
            slot = sx->last_slot;
        } else {
            const struct iodfg_dfg_edge *e = iodfg_dfg_find(sx->g, from, to);
            if (!e) {
                return 0;
            }
            slot = (size_t)(e - sx->g->edges);
            sx->last_from = from;
            sx->last_to = to;
            sx->last_slot = slot;
        }
        if (!sx->edge_dirty || sx->edge_dirty[slot]) {
            if (sx->pass) {
                pctl_add2(sx->P, sx->na + (uint32_t)slot, gap);
            } else {
                pctl_add(sx->P, sx->na + (uint32_t)slot, gap);
            }
        }
    }
    return 0;
}

int iodfg_stats_scan(struct iodfg_stats *st, struct iodfg_dfg *g, const struct iodfg_eventlog *log,
                     const uint32_t *act, const struct iodfg_selection *sel, const uint32_t *cases,
                     size_t ncases, const uint8_t *dirty, int act_dirty_none,
                     const uint8_t *edge_dirty, struct iodfg_error *err)
{
    uint32_t na = st ? st->nactivities : 0;
    size_t ne = g ? g->nedges : 0;
    struct pctl P;
    memset(&P, 0, sizeof(P));
    if ((uint64_t)na + ne >= UINT32_MAX) {
        return iodfg_error_set(err, IODFG_E_LIMIT, "too many activities and edges");
    }
    P.ng = (uint32_t)(na + ne);
    P.g = calloc((size_t)P.ng + 1, sizeof(*P.g));
    uint32_t *stamp = calloc((size_t)na + 1, sizeof(*stamp));
    if (!P.g || !stamp) {
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
            any = 1;
        }
    }
    for (size_t i = 0; i < ne; i++) {
        struct pgroup *pg = &P.g[na + i];
        pg->want = !edge_dirty || edge_dirty[i];
        if (pg->want) {
            pg->n = g->edges[i].gap_n;
            pg->npct = 1;
            any = 1;
        }
    }
    if (!any) {
        free(P.g);
        free(stamp);
        return 0;
    }
    if (pctl_layout(&P)) {
        goto nomem;
    }
    struct scan_ctx sx = {st,
                          g,
                          iodfg_eventlog_columns(log),
                          dirty,
                          edge_dirty,
                          act_dirty_none,
                          0,
                          stamp,
                          0,
                          na,
                          &P,
                          IODFG_NO_ACTIVITY,
                          IODFG_NO_ACTIVITY,
                          0};
    uint32_t nc = cases ? (uint32_t)ncases : iodfg_eventlog_case_count(log);
    for (int pass = 0; pass < 2; pass++) {
        sx.pass = pass;
        for (uint32_t k = 0; k < nc; k++) {
            uint64_t lo, hi;
            if (!iodfg_dfg_case_range(log, sel, cases ? cases[k] : k, &lo, &hi)) {
                continue;
            }
            if (sx.base > UINT32_MAX / 2 - (hi - lo) - 2) {
                memset(stamp, 0, (size_t)na * sizeof(*stamp));
                sx.base = 0;
            }
            long ntr = iodfg_dfg_walk_case(log, act, lo, hi, sel->per_pid, scan_one, &sx, err);
            if (ntr < 0) {
                pctl_fini(&P);
                free(stamp);
                return -1;
            }
            sx.base += (uint32_t)ntr + 1;
        }
        if (pass == 0) {
            int t = pctl_targets(&P);
            if (t < 0) {
                goto nomem;
            }
            if (!t) {
                break;
            }
        }
    }
    for (uint32_t i = 0; i < P.ng; i++) {
        if (!P.g[i].want) {
            continue;
        }
        int64_t out[2] = {IODFG_UNKNOWN, IODFG_UNKNOWN};
        pctl_result(&P, i, out);
        if (i < na) {
            st->act[i].dur_p95_ns = out[0];
            st->act[i].dur_median_ns = out[1];
        } else {
            g->edges[i - na].gap_median_ns = out[0];
        }
    }
    pctl_fini(&P);
    free(stamp);
    return 0;
nomem:
    pctl_fini(&P);
    free(stamp);
    return iodfg_error_set(err, IODFG_E_NOMEM, "out of memory for percentiles");
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
