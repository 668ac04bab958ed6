/* SPDX-License-Identifier: MIT */
/* A part's sums per pair of bucket and activity (partial_conc.c picks from them): one pass over
 * its view, each pair's running sums kept in four 32-bit lanes that one vector step updates
 * where the processor has SSE4.1. */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "iodfg/partial.h"

#include "partial_priv.h"

#if defined(__x86_64__) && (defined(__GNUC__) || defined(__clang__))
#define BUCKET_SSE 1
#include <immintrin.h>
#else
#define BUCKET_SSE 0
#endif

int iodfg_partial_bucket_vector = 1;

#if BUCKET_SSE
/* pair_acc_add in one step: the step added, then the lanes' maximum with (net, net, net, -net): the
 * net and the starts (never below the net) stay, the rise and the negated fall follow it. Each
 * point of a pair waits for the one before (its sums are stored and loaded again): fewer
 * instructions on that path are what makes the pass faster. */
static const int32_t bucket_step[2][4] = {{-1, 0, 0, 0}, {1, 1, 0, 0}};
_Static_assert(sizeof(struct pair_acc) == 4 * sizeof(int32_t), "a pair's sums are one vector");

__attribute__((target("sse4.1"))) static inline void pair_acc_add_sse(struct pair_acc *x, int start)
{
    __m128i v = _mm_loadu_si128((const __m128i *)x);
    v = _mm_add_epi32(v, _mm_loadu_si128((const __m128i *)bucket_step[start]));
    __m128i n = _mm_sign_epi32(_mm_shuffle_epi32(v, 0), _mm_set_epi32(-1, 1, 1, 1));
    _mm_storeu_si128((__m128i *)x, _mm_max_epi32(v, n));
}
#endif

/* The running sums of one bucket's pass: its point at i, then the next one, and its pairs. */
struct bucket_run {
    uint64_t i, end;
    struct pair_acc *acc;
};

/* Point i of the view into r's sums (coded: the view has the session's codes; sse: with
 * pair_acc_add_sse), prefetching the activity of the point `ahead` positions on. Branch-free
 * but for the skip. */
static inline __attribute__((always_inline)) void
bucket_point(const struct iodfg_partial_view *v, struct bucket_run *r, int coded, int sse)
{
    enum { AHEAD = 16 };
    uint64_t i = r->i++;
    uint32_t ahead = i + AHEAD < r->end ? v->ent[i + AHEAD] & ~IODFG_PT_START : 0;
    uint32_t p = v->ent[i], e = p & ~IODFG_PT_START, a;
    if (coded) {
        __builtin_prefetch(&v->code[ahead]);
        a = iodfg_code_activity(v->code[e]);
    } else {
        __builtin_prefetch(&v->pact[ahead]);
        a = v->pact[e];
    }
    if (a == IODFG_NO_ACTIVITY) {
        return;
    }
#if BUCKET_SSE
    if (sse) {
        pair_acc_add_sse(&r->acc[a], (p & IODFG_PT_START) != 0);
        return;
    }
#endif
    (void)sse;
    pair_acc_add(&r->acc[a], (p & IODFG_PT_START) != 0);
}

/* The pairs of bucket b, summed in acc, into sums ([k][b][a]), and acc cleared. */
static void bucket_out(struct pair_acc *acc, uint32_t b, uint32_t nb, uint32_t nact, int64_t *sums)
{
    size_t np = (size_t)nb * nact, at = (size_t)b * nact;
    for (uint32_t a = 0; a < nact; a++) {
        pair_acc_out(&acc[a], sums, np, at + a);
    }
    memset(acc, 0, nact * sizeof(*acc));
}

/* The pass, made once per kind of activity array and of step so that the loop tests neither.
 * Four buckets are walked side by side: their points lie apart in the columns, so four lookups
 * miss the cache at once instead of one after the other, and four pairs' chains of steps run at
 * once. acc: room for four buckets' pairs, cleared. */
static inline __attribute__((always_inline)) void
bucket_pass(const struct iodfg_partial_view *v, const uint64_t *pos, uint32_t nb, uint32_t nact,
            int64_t *sums, struct pair_acc *acc, int coded, int sse)
{
    enum { WAYS = 4 };
    for (uint32_t b = 0; b < nb; b += WAYS) {
        struct bucket_run r[WAYS];
        uint32_t ways = nb - b < WAYS ? nb - b : WAYS;
        uint64_t common = UINT64_MAX;
        for (uint32_t j = 0; j < ways; j++) {
            r[j] = (struct bucket_run){pos[b + j], pos[b + j + 1], acc + (size_t)j * nact};
            common = r[j].end - r[j].i < common ? r[j].end - r[j].i : common;
        }
        if (ways == WAYS) {
            for (uint64_t k = 0; k < common; k++) {
                bucket_point(v, &r[0], coded, sse);
                bucket_point(v, &r[1], coded, sse);
                bucket_point(v, &r[2], coded, sse);
                bucket_point(v, &r[3], coded, sse);
            }
        }
        for (uint32_t j = 0; j < ways; j++) {
            while (r[j].i < r[j].end) {
                bucket_point(v, &r[j], coded, sse);
            }
            bucket_out(r[j].acc, b + j, nb, nact, sums);
        }
    }
}

static void pass_plain(const struct iodfg_partial_view *v, const uint64_t *pos, uint32_t nb,
                       uint32_t nact, int64_t *sums, struct pair_acc *acc)
{
    if (v->code) {
        bucket_pass(v, pos, nb, nact, sums, acc, 1, 0);
    } else {
        bucket_pass(v, pos, nb, nact, sums, acc, 0, 0);
    }
}

#if BUCKET_SSE
__attribute__((target("sse4.1"))) static void pass_sse(const struct iodfg_partial_view *v,
                                                       const uint64_t *pos, uint32_t nb,
                                                       uint32_t nact, int64_t *sums,
                                                       struct pair_acc *acc)
{
    if (v->code) {
        bucket_pass(v, pos, nb, nact, sums, acc, 1, 1);
    } else {
        bucket_pass(v, pos, nb, nact, sums, acc, 0, 1);
    }
}
#endif

int iodfg_partial_bucket_sums(const struct iodfg_partial_view *v, const uint64_t *pos, uint32_t nb,
                              uint32_t nact, int64_t *sums)
{
    struct pair_acc *acc = calloc(4 * (size_t)nact + 1, sizeof(*acc));
    if (!acc) {
        return -1;
    }
#if BUCKET_SSE
    if (iodfg_partial_bucket_vector && __builtin_cpu_supports("sse4.1")) {
        pass_sse(v, pos, nb, nact, sums, acc);
        free(acc);
        return 0;
    }
#endif
    pass_plain(v, pos, nb, nact, sums, acc);
    free(acc);
    return 0;
}
