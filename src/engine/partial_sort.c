/* SPDX-License-Identifier: MIT */
/* Orders of partial results. The concurrency sweep's order for interval boundaries: a stable
 * radix sort (least significant digit first) on end-before-start, the time and the clock, which
 * takes a few passes where qsort's comparisons took seconds (doc/mpi.md, profile). The buckets of
 * the percentiles' histograms: a log scale, then equal parts of a range. */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "iodfg/bigmem.h"
#include "iodfg/partial.h"

#include "partial_priv.h"

enum { TIME_DIGITS = 4, DIGIT_BITS = 16, BUCKETS = 1 << DIGIT_BITS };

/* The time as an unsigned number in the same order. */
static uint64_t time_key(const struct iodfg_partial_point *p)
{
    return (uint64_t)p->time_ns ^ ((uint64_t)1 << 63);
}

/* Digit d of a point: 0 end-before-start, 1..4 the time's 16-bit digits from the lowest, 5 the
 * clock (the most significant). */
static unsigned digit(const struct iodfg_partial_point *p, int d)
{
    if (d == 0) {
        return p->start != 0;
    }
    if (d <= TIME_DIGITS) {
        return (unsigned)(time_key(p) >> (DIGIT_BITS * (d - 1))) & (BUCKETS - 1);
    }
    return p->clock;
}

static int cmp_point(const void *a, const void *b)
{
    return iodfg_partial_point_cmp(a, b);
}

/* One stable counting pass of digit d from src to dst; 0 when every point has the same digit
 * (nothing to move). */
static int pass(const struct iodfg_partial_point *src, struct iodfg_partial_point *dst, size_t n,
                int d, uint64_t *count)
{
    memset(count, 0, BUCKETS * sizeof(*count));
    for (size_t i = 0; i < n; i++) {
        count[digit(&src[i], d)]++;
    }
    uint64_t at = 0;
    for (unsigned b = 0; b < BUCKETS; b++) {
        if (count[b] == n) {
            return 0;
        }
        uint64_t c = count[b];
        count[b] = at;
        at += c;
    }
    for (size_t i = 0; i < n; i++) {
        dst[count[digit(&src[i], d)]++] = src[i];
    }
    return 1;
}

/* The radix passes with tmp (n points) as scratch space. */
static void sort_with(struct iodfg_partial_point *pts, size_t n, struct iodfg_partial_point *tmp)
{
    uint64_t *count = n > 64 ? malloc(BUCKETS * sizeof(*count)) : NULL;
    if (!count) { // small, or no memory for the radix passes
        qsort(pts, n, sizeof(*pts), cmp_point);
        return;
    }
    struct iodfg_partial_point *src = pts, *dst = tmp;
    for (int d = 0; d <= TIME_DIGITS + 1; d++) {
        if (pass(src, dst, n, d, count)) {
            struct iodfg_partial_point *t = src;
            src = dst;
            dst = t;
        }
    }
    if (src != pts) {
        memcpy(pts, src, n * sizeof(*pts));
    }
    free(count);
}

void iodfg_partial_points_sort(struct iodfg_partial_point *pts, size_t n)
{
    struct iodfg_partial_point *tmp = n > 64 ? iodfg_bigmem_alloc(n * sizeof(*tmp)) : NULL;
    if (!tmp) {
        qsort(pts, n, sizeof(*pts), cmp_point);
        return;
    }
    sort_with(pts, n, tmp);
    free(tmp);
}

/* ---- the percentiles' buckets ---- */

/* The range [*lo, *hi] of the x with iodfg_cut_log_of(x) == k. */
static void log_range(uint32_t k, uint64_t *lo, uint64_t *hi)
{
    if (k < 8) {
        *lo = *hi = k;
        return;
    }
    int e = (int)(k / 8) + 2;
    *lo = (uint64_t)(8 + k % 8) << (e - 3);
    *hi = *lo + (((uint64_t)1 << (e - 3)) - 1);
}

void iodfg_partial_cut_all(struct iodfg_partial_cut *c)
{
    *c = (struct iodfg_partial_cut){0, UINT64_MAX, 0, 1};
}

void iodfg_partial_hist(const int64_t *v, uint64_t n, const struct iodfg_partial_cut *c,
                        uint64_t *hist)
{
    for (uint64_t i = 0; i < n; i++) {
        if (iodfg_cut_holds(c, v[i])) {
            hist[iodfg_cut_bucket(c, v[i])]++;
        }
    }
}

uint32_t iodfg_partial_narrow(struct iodfg_partial_cut *c, const uint64_t *hist, uint64_t *rank)
{
    uint32_t b = 0;
    uint64_t below = 0;
    while (b + 1 < IODFG_PARTIAL_BUCKETS && below + hist[b] < *rank) {
        below += hist[b++];
    }
    *rank -= below;
    if (c->log) {
        uint64_t lo, hi;
        log_range(b >= 512 ? b - 512 : 511 - b, &lo, &hi);
        // negative v = ~x: the order turns
        c->lo = b >= 512 ? lo ^ IODFG_CUT_SIGN : ~hi ^ IODFG_CUT_SIGN;
        c->hi = b >= 512 ? hi ^ IODFG_CUT_SIGN : ~lo ^ IODFG_CUT_SIGN;
        c->log = 0;
    } else {
        uint64_t lo = c->lo + ((uint64_t)b << c->shift), width = ((uint64_t)1 << c->shift) - 1;
        c->hi = c->hi - lo < width ? c->hi : lo + width;
        c->lo = lo;
    }
    uint64_t span = c->hi - c->lo;
    int bits = span ? 64 - __builtin_clzll(span) : 0;
    c->shift = bits > 10 ? bits - 10 : 0; // IODFG_PARTIAL_BUCKETS = 2^10 equal parts
    return b;
}

int iodfg_partial_cut_value(const struct iodfg_partial_cut *c, int64_t *v)
{
    *v = (int64_t)(c->lo ^ IODFG_CUT_SIGN);
    return !c->log && c->lo == c->hi;
}

uint64_t iodfg_partial_keep(const int64_t *v, uint64_t n, const struct iodfg_partial_cut *c,
                            int64_t *out)
{
    uint64_t k = 0;
    for (uint64_t i = 0; i < n; i++) {
        if (iodfg_cut_holds(c, v[i])) {
            out[k++] = v[i];
        }
    }
    return k;
}

void iodfg_partial_keep2(const int64_t *v, uint64_t n, const struct iodfg_partial_cut *c1,
                         int64_t *out1, uint64_t *k1, const struct iodfg_partial_cut *c2,
                         int64_t *out2, uint64_t *k2)
{
    uint64_t a = 0, b = 0;
    for (uint64_t i = 0; i < n; i++) {
        out1[a] = out2[b] = v[i];
        a += (uint64_t)iodfg_cut_holds(c1, v[i]);
        b += (uint64_t)iodfg_cut_holds(c2, v[i]);
    }
    *k1 = a;
    *k2 = b;
}
