/* SPDX-License-Identifier: MIT */
/* Activity statistics: key sums, exact sweep-line concurrency, nearest-rank percentiles. */
#include "config.h"

#include "iodfg/stats.h"

#include <stdlib.h>
#include <string.h>

#include "iodfg/dfg.h"
#include "iodfg/error.h"
#include "iodfg/eventlog.h"
#include "iodfg/mapping.h"

void iodfg_stats_init(struct iodfg_stats *st) { memset(st, 0, sizeof(*st)); }

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

int iodfg_stats_sweep(struct iodfg_stats *st, const struct iodfg_eventlog *log,
                      const struct iodfg_timeline *tl, const uint64_t *bits, const uint32_t *act,
                      const uint8_t *dirty, struct iodfg_error *err)
{
    uint32_t na = st->nactivities;
    uint32_t *cur = calloc(na ? na : 1, sizeof(*cur));
    if (!cur) {
        return iodfg_error_set(err, IODFG_E_NOMEM, "out of memory for the concurrency sweep");
    }
    for (uint32_t a = 0; a < na; a++) {
        if (!dirty || dirty[a]) {
            st->act[a].mc = 0;
            st->act[a].mc_time_ns = IODFG_UNKNOWN;
        }
    }
    const struct iodfg_columns *col = iodfg_eventlog_columns(log);
    const int64_t *start = col->start_ns, *dur = col->dur_ns;
    uint64_t n = tl->n, j = 0;
    // Ends are taken before starts at equal times: [s, e) intervals touching at t do not overlap.
    for (uint64_t i = 0; i < n; i++) {
        uint64_t s = tl->by_start[i];
        int64_t t = start[s];
        for (; j < n; j++) {
            uint64_t e = tl->by_end[j];
            int64_t d = dur ? dur[e] : IODFG_UNKNOWN;
            if (d <= 0 || start[e] + d > t) { // IODFG_UNKNOWN is negative: empty, skipped
                if (d <= 0) {
                    continue;
                }
                break;
            }
            if (!(bits[e / 64] >> (e & 63) & 1)) {
                continue;
            }
            uint32_t a = act[col->key[e]];
            if (a != IODFG_NO_ACTIVITY && (!dirty || dirty[a])) {
                cur[a]--;
            }
        }
        int64_t d = dur ? dur[s] : IODFG_UNKNOWN;
        if (d <= 0 || !(bits[s / 64] >> (s & 63) & 1)) {
            continue;
        }
        uint32_t a = act[col->key[s]];
        if (a != IODFG_NO_ACTIVITY && (!dirty || dirty[a]) && ++cur[a] > st->act[a].mc) {
            st->act[a].mc = cur[a];
            st->act[a].mc_time_ns = t;
        }
    }
    free(cur);
    iodfg_stats_finish(st);
    return 0;
}

struct scan_ctx {
    struct iodfg_stats *st;
    const struct iodfg_columns *col;
    const uint8_t *dirty;
    uint32_t *stamp; /* per activity: last trace counted */
    uint32_t base;
    uint64_t *fill;
    int64_t *durs;
};

static int scan_one(void *vctx, uint32_t from, uint32_t to, int has_gap, int64_t gap,
                    uint32_t trace, uint64_t ev)
{
    (void)from;
    (void)has_gap;
    (void)gap;
    struct scan_ctx *sx = vctx;
    if (to == IODFG_NODE_END || (sx->dirty && !sx->dirty[to])) {
        return 0;
    }
    if (sx->stamp[to] != sx->base + trace + 1) {
        sx->stamp[to] = sx->base + trace + 1;
        sx->st->act[to].cases++;
    }
    int64_t d = sx->col->dur_ns ? sx->col->dur_ns[ev] : IODFG_UNKNOWN;
    if (d != IODFG_UNKNOWN) {
        sx->durs[sx->fill[to]++] = d;
    }
    return 0;
}

int iodfg_stats_scan(struct iodfg_stats *st, const struct iodfg_eventlog *log, const uint32_t *act,
                     const struct iodfg_selection *sel, const uint32_t *cases, size_t ncases,
                     const uint8_t *dirty, struct iodfg_error *err)
{
    uint32_t na = st->nactivities;
    uint64_t total = 0;
    uint64_t *fill = malloc(((size_t)na + 1) * sizeof(*fill));
    uint32_t *stamp = calloc((size_t)na + 1, sizeof(*stamp));
    if (!fill || !stamp) {
        free(fill);
        free(stamp);
        return iodfg_error_set(err, IODFG_E_NOMEM, "out of memory for statistics");
    }
    for (uint32_t a = 0; a < na; a++) {
        fill[a] = total;
        if (!dirty || dirty[a]) {
            total += st->act[a].dur_n;
            st->act[a].cases = 0;
        }
    }
    int64_t *durs = malloc((size_t)(total ? total : 1) * sizeof(*durs));
    if (!durs) {
        free(fill);
        free(stamp);
        return iodfg_error_set(err, IODFG_E_NOMEM, "out of memory for duration percentiles");
    }
    struct scan_ctx sx = {st, iodfg_eventlog_columns(log), dirty, stamp, 0, fill, durs};
    uint32_t nc = cases ? (uint32_t)ncases : iodfg_eventlog_case_count(log);
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
            free(durs);
            free(fill);
            free(stamp);
            return -1;
        }
        sx.base += (uint32_t)ntr + 1;
    }
    uint64_t pos = 0;
    for (uint32_t a = 0; a < na; a++) {
        if (dirty && !dirty[a]) {
            continue;
        }
        struct iodfg_activity_stats *s = &st->act[a];
        s->dur_p95_ns = iodfg_stats_percentile(durs + pos, (size_t)s->dur_n, 95);
        s->dur_median_ns = iodfg_stats_percentile(durs + pos, (size_t)s->dur_n, 50);
        pos += s->dur_n;
    }
    free(durs);
    free(fill);
    free(stamp);
    return 0;
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
    if (iodfg_stats_sweep(st, log, &tl, bits, map->activity_of_key, NULL, err) ||
        iodfg_stats_scan(st, log, map->activity_of_key, sel, NULL, 0, NULL, err)) {
        goto out;
    }
    rc = 0;
out:
    iodfg_timeline_fini(&tl);
    free(bits);
    free(sums);
    return rc;
}

/* ---- timeline: events ordered by start and by end ---- */

struct run {
    int64_t t;
    uint64_t pos, end; /* next position in the run, end of the run */
};

static int run_less(const struct run *a, const struct run *b, const uint32_t *src)
{
    if (a->t != b->t) {
        return a->t < b->t;
    }
    return (src ? src[a->pos] : a->pos) < (src ? src[b->pos] : b->pos);
}

static void sift_down(struct run *h, size_t n, size_t i, const uint32_t *src)
{
    for (;;) {
        size_t l = 2 * i + 1, m = i;
        if (l < n && run_less(&h[l], &h[m], src)) {
            m = l;
        }
        if (l + 1 < n && run_less(&h[l + 1], &h[m], src)) {
            m = l + 1;
        }
        if (m == i) {
            return;
        }
        struct run t = h[i];
        h[i] = h[m];
        h[m] = t;
        i = m;
    }
}

static int64_t end_time(const struct iodfg_columns *col, uint64_t e)
{
    int64_t d = col->dur_ns ? col->dur_ns[e] : IODFG_UNKNOWN;
    return col->start_ns[e] + (d == IODFG_UNKNOWN ? 0 : d);
}

/* Merge the sorted runs [off[c], off[c+1]) of src (identity when src is NULL) into out, keyed
 * by start (by_end = 0) or end time. */
static int merge_runs(uint32_t *out, const uint32_t *src, const struct iodfg_eventlog *log,
                      int by_end)
{
    const struct iodfg_columns *col = iodfg_eventlog_columns(log);
    const uint64_t *off = iodfg_eventlog_case_offsets(log);
    uint32_t nc = iodfg_eventlog_case_count(log);
    struct run *h = malloc(((size_t)nc + 1) * sizeof(*h));
    if (!h) {
        return -1;
    }
    size_t n = 0;
    for (uint32_t c = 0; c < nc; c++) {
        if (off[c] < off[c + 1]) {
            uint64_t e = src ? src[off[c]] : off[c];
            h[n++] = (struct run){by_end ? end_time(col, e) : col->start_ns[e], off[c], off[c + 1]};
        }
    }
    for (size_t i = n / 2; i-- > 0;) {
        sift_down(h, n, i, src);
    }
    uint64_t k = 0;
    while (n) {
        uint64_t e = src ? src[h[0].pos] : h[0].pos;
        out[k++] = (uint32_t)e;
        if (++h[0].pos < h[0].end) {
            uint64_t f = src ? src[h[0].pos] : h[0].pos;
            h[0].t = by_end ? end_time(col, f) : col->start_ns[f];
        } else {
            h[0] = h[--n];
        }
        sift_down(h, n, 0, src);
    }
    free(h);
    return 0;
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

int iodfg_timeline_build(struct iodfg_timeline *tl, const struct iodfg_eventlog *log,
                         struct iodfg_error *err)
{
    memset(tl, 0, sizeof(*tl));
    uint64_t n = iodfg_eventlog_event_count(log);
    const struct iodfg_columns *col = iodfg_eventlog_columns(log);
    if (n >= UINT32_MAX) {
        return iodfg_error_set(err, IODFG_E_LIMIT, "too many events for the timeline (%llu)",
                               (unsigned long long)n);
    }
    if (!col->start_ns) {
        return iodfg_error_set(err, IODFG_E_ARG, "the event log has no start column");
    }
    tl->n = n;
    tl->by_start = malloc((size_t)(n ? n : 1) * sizeof(uint32_t));
    tl->by_end = malloc((size_t)(n ? n : 1) * sizeof(uint32_t));
    if (!tl->by_start || !tl->by_end) {
        goto nomem;
    }
    // by_start temporarily holds each case's events sorted by end, merged into by_end
    const uint64_t *off = iodfg_eventlog_case_offsets(log);
    uint32_t nc = iodfg_eventlog_case_count(log);
    for (uint32_t c = 0; c < nc; c++) {
        int sorted = 1;
        for (uint64_t e = off[c]; e < off[c + 1]; e++) {
            tl->by_start[e] = (uint32_t)e;
            sorted = sorted && (e == off[c] || end_time(col, e - 1) <= end_time(col, e));
        }
        if (!sorted) {
            qsort_r(tl->by_start + off[c], (size_t)(off[c + 1] - off[c]), sizeof(uint32_t), cmp_end,
                    (void *)(uintptr_t)col);
        }
    }
    if (merge_runs(tl->by_end, tl->by_start, log, 1) || merge_runs(tl->by_start, NULL, log, 0)) {
        goto nomem;
    }
    return 0;
nomem:
    iodfg_timeline_fini(tl);
    return iodfg_error_set(err, IODFG_E_NOMEM, "out of memory for the timeline");
}

void iodfg_timeline_fini(struct iodfg_timeline *tl)
{
    free(tl->by_start);
    free(tl->by_end);
    memset(tl, 0, sizeof(*tl));
}
