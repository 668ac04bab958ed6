/* SPDX-License-Identifier: MIT */
/* The scale-offset decoder's inner loop with AVX2 (store_codec_simd.h): eight values of at
 * most 25 bits per step, or four 8-byte values of at most 57, where the portable loop cuts
 * them one by one. */
#include "config.h"

#include "store_codec_simd.h"

#if STORE_SO_SIMD
#include <immintrin.h>
#include <string.h>

/* Eight values of w bits fill w bytes. Value j starts j * w bits in: its byte, read with the
 * three after it as a big-endian word, holds it from bit (j * w) % 8 on, as 7 + w <= 32. The
 * low four values come from the group's first 16 bytes, the high four from 16 bytes at byte
 * 4 * w / 8 (both within 13 bytes of their start), so one shuffle per 128-bit lane gathers
 * and byte-swaps all eight words. */
struct group_shape {
    __m256i shuffle, shift;
    size_t high; /* byte where the high four values' 16 bytes start */
};

__attribute__((target("avx2"))) static struct group_shape shape_of(unsigned w)
{
    struct group_shape g;
    unsigned char sh[32];
    uint32_t left[8];
    g.high = 4 * w / 8;
    for (unsigned j = 0; j < 8; j++) {
        unsigned bit = j * w, base = j < 4 ? 0 : (unsigned)g.high * 8;
        unsigned byte = (bit - base) / 8, lane = j % 4 + (j < 4 ? 0 : 4);
        for (unsigned b = 0; b < 4; b++) {
            sh[lane * 4 + b] =
                (unsigned char)(byte + 3 - b); // big-endian into a little-endian word
        }
        left[j] = bit % 8;
    }
    memcpy(&g.shuffle, sh, 32);
    memcpy(&g.shift, left, 32);
    return g;
}

/* The eight w-bit codes of the group at b, right-aligned in 32-bit lanes. */
__attribute__((target("avx2"))) static inline __m256i
codes(const unsigned char *b, const struct group_shape *g, __m128i right)
{
    __m256i x = _mm256_inserti128_si256(_mm256_castsi128_si256(_mm_loadu_si128((const __m128i *)b)),
                                        _mm_loadu_si128((const __m128i *)(b + g->high)), 1);
    x = _mm256_shuffle_epi8(x, g->shuffle);
    return _mm256_srl_epi32(_mm256_sllv_epi32(x, g->shift), right);
}

__attribute__((target("avx2"))) static void groups32(const unsigned char *in, size_t groups,
                                                     unsigned w, uint32_t m, int has_fill,
                                                     uint32_t f, uint32_t *out)
{
    struct group_shape g = shape_of(w);
    __m128i right = _mm_cvtsi32_si128((int)(32 - w));
    __m256i min = _mm256_set1_epi32((int)m), fill = _mm256_set1_epi32((int)f);
    __m256i ones = _mm256_set1_epi32((int)((1u << w) - 1));
    for (size_t t = 0; t < groups; t++, in += w, out += 8) {
        __m256i v = codes(in, &g, right);
        __m256i r = _mm256_add_epi32(v, min);
        if (has_fill) {
            r = _mm256_blendv_epi8(r, fill, _mm256_cmpeq_epi32(v, ones));
        }
        _mm256_storeu_si256((__m256i *)out, r);
    }
}

__attribute__((target("avx2"))) static inline __m256i widen(__m128i v, __m256i min, int has_fill,
                                                            __m256i fill, __m256i ones)
{
    __m256i x = _mm256_cvtepu32_epi64(v);
    __m256i r = _mm256_add_epi64(x, min);
    return has_fill ? _mm256_blendv_epi8(r, fill, _mm256_cmpeq_epi64(x, ones)) : r;
}

__attribute__((target("avx2"))) static void groups64(const unsigned char *in, size_t groups,
                                                     unsigned w, uint64_t m, int has_fill,
                                                     uint64_t f, uint64_t *out)
{
    struct group_shape g = shape_of(w);
    __m128i right = _mm_cvtsi32_si128((int)(32 - w));
    __m256i min = _mm256_set1_epi64x((long long)m), fill = _mm256_set1_epi64x((long long)f);
    __m256i ones = _mm256_set1_epi64x((long long)((1ull << w) - 1));
    for (size_t t = 0; t < groups; t++, in += w, out += 8) {
        __m256i v = codes(in, &g, right);
        _mm256_storeu_si256((__m256i *)out,
                            widen(_mm256_castsi256_si128(v), min, has_fill, fill, ones));
        _mm256_storeu_si256((__m256i *)(out + 4),
                            widen(_mm256_extracti128_si256(v, 1), min, has_fill, fill, ones));
    }
}

/* Wider values (up to 57 bits) into 8-byte columns, four at a time: each value's 8 bytes,
 * read as a big-endian word, hold it from bit (j * w) % 8 on, as 7 + w <= 64. */
__attribute__((target("avx2"))) static inline __m256i
wide4(const unsigned char *b, const unsigned *at, __m256i shift, __m128i right, __m256i swap)
{
    uint64_t x[4];
    for (int j = 0; j < 4; j++) {
        memcpy(&x[j], b + at[j], 8);
    }
    // from registers: a store and a 32-byte load of x would stall on store forwarding
    __m256i v =
        _mm256_set_epi64x((long long)x[3], (long long)x[2], (long long)x[1], (long long)x[0]);
    v = _mm256_shuffle_epi8(v, swap); // big-endian words
    return _mm256_srl_epi64(_mm256_sllv_epi64(v, shift), right);
}

__attribute__((target("avx2"))) static void groups64_wide(const unsigned char *in, size_t groups,
                                                          unsigned w, uint64_t m, int has_fill,
                                                          uint64_t f, uint64_t *out)
{
    unsigned at[8];
    uint64_t left[8];
    for (unsigned j = 0; j < 8; j++) {
        at[j] = j * w / 8;
        left[j] = j * w % 8;
    }
    __m256i shift_lo = _mm256_loadu_si256((const __m256i *)left);
    __m256i shift_hi = _mm256_loadu_si256((const __m256i *)(left + 4));
    __m256i swap = _mm256_setr_epi8(7, 6, 5, 4, 3, 2, 1, 0, 15, 14, 13, 12, 11, 10, 9, 8, 7, 6, 5,
                                    4, 3, 2, 1, 0, 15, 14, 13, 12, 11, 10, 9, 8);
    __m128i right = _mm_cvtsi32_si128((int)(64 - w));
    __m256i min = _mm256_set1_epi64x((long long)m), fill = _mm256_set1_epi64x((long long)f);
    __m256i ones = _mm256_set1_epi64x((long long)((1ull << w) - 1));
    for (size_t t = 0; t < groups; t++, in += w, out += 8) {
        for (int h = 0; h < 2; h++) {
            __m256i v = wide4(in, at + 4 * h, h ? shift_hi : shift_lo, right, swap);
            __m256i r = _mm256_add_epi64(v, min);
            if (has_fill) {
                r = _mm256_blendv_epi8(r, fill, _mm256_cmpeq_epi64(v, ones));
            }
            _mm256_storeu_si256((__m256i *)(out + 4 * h), r);
        }
    }
}

int store_so_simd_available(void)
{
    return __builtin_cpu_supports("avx2") != 0; // libgcc has read the processor's features
}

int store_so_simd_takes(const struct store_so_params *p, unsigned w)
{
    unsigned most = p->size == 8 ? STORE_SO_SIMD_MAX_BITS_8 : STORE_SO_SIMD_MAX_BITS;
    return w >= 1 && w <= most && store_so_simd_available();
}

size_t store_so_simd_groups(const struct store_so_params *p, const struct store_so_chunk *h,
                            const unsigned char *in, size_t readable, size_t groups, void *out)
{
    unsigned w = h->minbits;
    int wide = w > STORE_SO_SIMD_MAX_BITS;
    if (!store_so_simd_takes(p, w)) {
        return 0;
    }
    // A step reads 16 bytes from 4 * w / 8 on (wide: 8 from 7 * w / 8 on): stop where that
    // would pass the readable bytes.
    size_t reach = wide ? 7 * w / 8 + 8 : 4 * w / 8 + 16;
    size_t can = readable < reach ? 0 : (readable - reach) / w + 1;
    groups = groups < can ? groups : can;
    if (wide) {
        groups64_wide(in, groups, w, h->minval, p->has_fill, p->fill, out);
    } else if (p->size == 8) {
        groups64(in, groups, w, h->minval, p->has_fill, p->fill, out);
    } else {
        groups32(in, groups, w, (uint32_t)h->minval, p->has_fill, (uint32_t)p->fill, out);
    }
    return groups;
}

#else

int store_so_simd_available(void)
{
    return 0;
}

int store_so_simd_takes(const struct store_so_params *p, unsigned w)
{
    (void)p, (void)w;
    return 0;
}

size_t store_so_simd_groups(const struct store_so_params *p, const struct store_so_chunk *h,
                            const unsigned char *in, size_t readable, size_t groups, void *out)
{
    (void)p, (void)h, (void)in, (void)readable, (void)groups, (void)out;
    return 0;
}

#endif
