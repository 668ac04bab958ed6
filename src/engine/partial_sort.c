/* SPDX-License-Identifier: MIT */
/* The concurrency sweep's order for millions of interval boundaries: a stable radix sort (least
 * significant digit first) on end-before-start, the time and the clock, which takes a few passes
 * over the points where qsort's comparisons took seconds (doc/mpi.md, profile). */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "iodfg/bigmem.h"
#include "iodfg/partial.h"

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

void iodfg_partial_points_sort(struct iodfg_partial_point *pts, size_t n)
{
    struct iodfg_partial_point *tmp = n > 64 ? iodfg_bigmem_alloc(n * sizeof(*tmp)) : NULL;
    uint64_t *count = tmp ? malloc(BUCKETS * sizeof(*count)) : NULL;
    if (!count) { // small, or no memory for the radix passes
        free(tmp);
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
    free(tmp);
}
