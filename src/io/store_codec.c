/* SPDX-License-Identifier: MIT */
/* The scale-offset chunk codec: see store_codec.h for the layout. Values are handled as bit
 * patterns in uint64_t (32-bit values zero-extended); only the minimum and maximum look at the
 * sign, as HDF5's codec does. */
#include "config.h"

#include "store_codec.h"

#include <string.h>

#include "store_codec_simd.h"
#include "store_vectorize.h"

static uint64_t width_mask(unsigned size)
{
    return size == 8 ? UINT64_MAX : UINT32_MAX;
}

static void value_put(void *out, unsigned size, size_t k, uint64_t v)
{
    if (size == 8) {
        memcpy((char *)out + k * 8, &v, 8);
    } else {
        uint32_t w = (uint32_t)v;
        memcpy((char *)out + k * 4, &w, 4);
    }
}

static int host_is_little_endian(void)
{
    const uint16_t one = 1;
    unsigned char b;
    memcpy(&b, &one, 1);
    return b == 1;
}

/* Values stored whole are little-endian in the chunk. */
static void copy_little_endian(void *to, const void *from, size_t n, unsigned size)
{
    memcpy(to, from, n * size);
    if (host_is_little_endian()) {
        return;
    }
    unsigned char *p = to;
    for (size_t i = 0; i < n; i++, p += size) {
        for (unsigned a = 0, b = size - 1; a < b; a++, b--) {
            unsigned char t = p[a];
            p[a] = p[b];
            p[b] = t;
        }
    }
}

/* Sign-extend a 32-bit pattern so that signed values compare as numbers. */
static int64_t as_signed(uint64_t v, unsigned size)
{
    return size == 8 ? (int64_t)v : (int64_t)(int32_t)(uint32_t)v;
}

/* Bits to tell n values apart: the ceiling of log2(n). */
static unsigned ceil_log2(uint64_t n)
{
    unsigned v = 0;
    for (uint64_t x = n; x >>= 1;) {
        v++;
    }
    return (n & (n - 1)) == 0 ? v : v + 1;
}

static inline uint64_t swap_be64(uint64_t v)
{
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_BIG_ENDIAN__
    return v;
#elif defined(__GNUC__)
    return __builtin_bswap64(v);
#else
    unsigned char b[8];
    memcpy(b, &v, 8);
    uint64_t r = 0;
    for (int i = 0; i < 8; i++) {
        r = r << 8 | b[i];
    }
    return r;
#endif
}

static inline uint64_t load_be64(const unsigned char *b)
{
    uint64_t v;
    memcpy(&v, b, 8);
    return swap_be64(v);
}


size_t store_so_bound(const struct store_so_params *p)
{
    return STORE_SO_HEADER + (size_t)p->nelmts * p->size + 16;
}

static void put_header(unsigned char *out, uint32_t minbits, uint64_t minval)
{
    memset(out, 0, STORE_SO_HEADER);
    for (int i = 0; i < 4; i++) {
        out[i] = (unsigned char)(minbits >> (8 * i));
    }
    out[4] = 8;
    for (int i = 0; i < 8; i++) {
        out[5 + i] = (unsigned char)(minval >> (8 * i));
    }
}

/* A big-endian bit writer: bits gather in a register and leave 32 at a time (writing each
 * value into memory instead would stall on every overlapping store). */
struct bitwriter {
    uint64_t acc; /* the low n bits are pending */
    unsigned n;
    unsigned char *o;
};

static inline void put_be32(unsigned char *o, uint32_t v)
{
    o[0] = (unsigned char)(v >> 24);
    o[1] = (unsigned char)(v >> 16);
    o[2] = (unsigned char)(v >> 8);
    o[3] = (unsigned char)v;
}

/* Append the w low bits of v (w <= 32). */
static inline void put_bits(struct bitwriter *bw, uint64_t v, unsigned w)
{
    bw->acc = bw->acc << w | v;
    bw->n += w;
    if (bw->n >= 32) {
        bw->n -= 32;
        put_be32(bw->o, (uint32_t)(bw->acc >> bw->n));
        bw->o += 4;
    }
}

static void flush_bits(struct bitwriter *bw)
{
    for (; bw->n >= 8; bw->o++) {
        bw->n -= 8;
        *bw->o = (unsigned char)(bw->acc >> bw->n);
    }
    if (bw->n) {
        *bw->o = (unsigned char)(bw->acc << (8 - bw->n));
    }
}

#define PACK(T)                                                                                    \
    do {                                                                                           \
        const T *x = values;                                                                       \
        T f = (T)p->fill, m = (T)min;                                                              \
        for (size_t k = 0; k < p->nelmts; k++) {                                                   \
            uint64_t v = p->has_fill && x[k] == f ? ones : (uint64_t)(T)(x[k] - m);                \
            if (w <= 32) {                                                                         \
                put_bits(&bw, v, w);                                                               \
            } else {                                                                               \
                put_bits(&bw, v >> 32, w - 32);                                                    \
                put_bits(&bw, v & UINT32_MAX, 32);                                                 \
            }                                                                                      \
        }                                                                                          \
    } while (0)

/* The 8 bytes at o as a big-endian v. */
static inline void store_be64(unsigned char *o, uint64_t v)
{
    v = swap_be64(v);
    memcpy(o, &v, 8);
}

/* Values of at most 56 bits, with no branch per value: g values at a time (as many as fit in
 * 56 bits) are joined, then the pending bits (at most 7 + 56) are stored as 8 big-endian bytes
 * and the whole bytes among them passed over; the bytes past them are overwritten by the next
 * store (the payload has 8 bytes of slack). Joining first keeps the chain through the
 * accumulator one step per g values. */
#define PACK_NARROW_WITH(T, VALUE)                                                                 \
    do {                                                                                           \
        const T *x = values;                                                                       \
        T f = (T)p->fill, m = (T)min;                                                              \
        (void)f;                                                                                   \
        unsigned g = PACK_NARROW_MAX / w, gw = g * w, n = 0;                                       \
        uint64_t acc = 0;                                                                          \
        size_t k = 0, total = p->nelmts;                                                           \
        for (; k + g <= total; k += g) {                                                           \
            uint64_t v = 0;                                                                        \
            for (size_t e = k; e < k + g; e++) {                                                   \
                v = v << w | (VALUE(T, e));                                                        \
            }                                                                                      \
            acc = acc << gw | v;                                                                   \
            n += gw;                                                                               \
            store_be64(payload, acc << (64 - n));                                                  \
            payload += n >> 3;                                                                     \
            n &= 7;                                                                                \
        }                                                                                          \
        for (; k < total; k++) {                                                                   \
            acc = acc << w | (VALUE(T, k));                                                        \
            n += w;                                                                                \
            store_be64(payload, acc << (64 - n));                                                  \
            payload += n >> 3;                                                                     \
            n &= 7;                                                                                \
        }                                                                                          \
    } while (0)
#define FILL_VALUE(T, e) (x[e] == f ? ones : (uint64_t)(T)(x[e] - m))
#define PLAIN_VALUE(T, e) ((uint64_t)(T)(x[e] - m))
#define PACK_NARROW(T)                                                                             \
    do {                                                                                           \
        if (p->has_fill) {                                                                         \
            PACK_NARROW_WITH(T, FILL_VALUE);                                                       \
        } else {                                                                                   \
            PACK_NARROW_WITH(T, PLAIN_VALUE);                                                      \
        }                                                                                          \
    } while (0)
#define PACK_NARROW_MAX 56

/* Values minus min (fill values as all ones) in w bits each, most significant first. */
static void pack(const struct store_so_params *p, const void *values, uint64_t min, unsigned w,
                 unsigned char *payload)
{
    uint64_t ones = w == 64 ? UINT64_MAX : (1ull << w) - 1;
    if (w <= PACK_NARROW_MAX) {
        if (p->size == 8) {
            PACK_NARROW(uint64_t);
        } else {
            PACK_NARROW(uint32_t);
        }
        return;
    }
    struct bitwriter bw = {0, 0, payload};
    if (p->size == 8) {
        PACK(uint64_t);
    } else {
        PACK(uint32_t);
    }
    flush_bits(&bw);
}

/* The least and greatest value that is not the fill value (0, 0 when there is none), as
 * bit patterns; one branch-free loop per type, which the compiler vectorises. With a fill
 * value, fill values count as the type's greatest value for the minimum and its least for the
 * maximum, which cannot move them off the first value that is not one; chosen by a mask, as
 * a condition kept the loop scalar, with a branch per value. */
#define RANGE_OF(T, NAME, T_MIN, T_MAX)                                                            \
    STORE_VECTORIZE static void NAME(const T *v, size_t n, int has_fill, T f, uint64_t *min,       \
                                     uint64_t *max)                                                \
    {                                                                                              \
        size_t k = 0;                                                                              \
        while (k < n && has_fill && v[k] == f) {                                                   \
            k++;                                                                                   \
        }                                                                                          \
        T lo = k < n ? v[k] : 0, hi = lo;                                                          \
        if (has_fill) {                                                                            \
            for (; k < n; k++) {                                                                   \
                T x = v[k], m = (T)((T)0 - (T)(x == f)); /* all ones at a fill value */            \
                T keep = (T)(x & ~m);                                                              \
                T for_lo = (T)(keep | ((T)(T_MAX)&m));                                             \
                T for_hi = (T)(keep | ((T)(T_MIN)&m));                                             \
                lo = for_lo < lo ? for_lo : lo;                                                    \
                hi = for_hi > hi ? for_hi : hi;                                                    \
            }                                                                                      \
        } else {                                                                                   \
            for (; k < n; k++) {                                                                   \
                lo = v[k] < lo ? v[k] : lo;                                                        \
                hi = v[k] > hi ? v[k] : hi;                                                        \
            }                                                                                      \
        }                                                                                          \
        *min = (uint64_t)lo;                                                                       \
        *max = (uint64_t)hi;                                                                       \
    }
RANGE_OF(int64_t, range_i64, INT64_MIN, INT64_MAX)
RANGE_OF(uint64_t, range_u64, 0, UINT64_MAX)
RANGE_OF(int32_t, range_i32, INT32_MIN, INT32_MAX)
RANGE_OF(uint32_t, range_u32, 0, UINT32_MAX)

static void range_of(const struct store_so_params *p, const void *values, uint64_t *min,
                     uint64_t *max)
{
    size_t n = p->nelmts;
    if (p->size == 8 && p->is_signed) {
        range_i64(values, n, p->has_fill, (int64_t)p->fill, min, max);
    } else if (p->size == 8) {
        range_u64(values, n, p->has_fill, p->fill, min, max);
    } else if (p->is_signed) {
        range_i32(values, n, p->has_fill, (int32_t)(uint32_t)p->fill, min, max);
    } else {
        range_u32(values, n, p->has_fill, (uint32_t)p->fill, min, max);
    }
    *min &= width_mask(p->size);
    *max &= width_mask(p->size);
}

size_t store_so_encode(const struct store_so_params *p, const void *values, unsigned char *out)
{
    uint64_t mask = width_mask(p->size), min, max;
    range_of(p, values, &min, &max);
    unsigned full = p->size * 8, w;
    uint64_t diff = (max - min) & mask, minval = min;
    if (diff > mask - 2) {
        w = full;
        minval = 0; // HDF5 leaves the minimum out when the range needs every bit
    } else {
        w = ceil_log2(p->has_fill ? diff + 2 : diff + 1);
    }
    // HDF5 keeps the minimum as unsigned long long: a signed one sign-extended.
    if (p->is_signed) {
        minval = (uint64_t)as_signed(minval, p->size);
    }
    put_header(out, w, minval);
    size_t nbytes = (size_t)p->nelmts * p->size;
    if (w == full) {
        copy_little_endian(out + STORE_SO_HEADER, values, p->nelmts, p->size);
        return STORE_SO_HEADER + nbytes;
    }
    size_t payload = (size_t)p->nelmts * w / 8 + 1;
    memset(out + STORE_SO_HEADER, 0, payload + 8);
    if (w > 0) {
        pack(p, values, min, w, out + STORE_SO_HEADER);
    }
    return STORE_SO_HEADER + payload;
}

int store_so_header(const struct store_so_params *p, const unsigned char *head, uint64_t chunk_bytes,
                    struct store_so_chunk *h, const char **why)
{
    if (chunk_bytes < STORE_SO_HEADER) {
        *why = "a scale-offset chunk shorter than its header";
        return -1;
    }
    h->minbits = (uint32_t)head[0] | (uint32_t)head[1] << 8 | (uint32_t)head[2] << 16 |
                 (uint32_t)head[3] << 24;
    unsigned mv = head[4] < 8 ? head[4] : 8;
    h->minval = 0;
    for (unsigned i = 0; i < mv; i++) {
        h->minval |= (uint64_t)head[5 + i] << (8 * i);
    }
    if (h->minbits > p->size * 8) {
        *why = "a scale-offset chunk with more bits per value than the type has";
        return -1;
    }
    uint64_t need = h->minbits == p->size * 8 ? (uint64_t)p->nelmts * p->size
                                              : ((uint64_t)p->nelmts * h->minbits + 7) / 8;
    if (chunk_bytes - STORE_SO_HEADER < need) {
        *why = "a scale-offset chunk shorter than the values it announces";
        return -1;
    }
    return 0;
}

void store_so_span(const struct store_so_params *p, const struct store_so_chunk *h, uint64_t i,
                   uint64_t n, uint64_t *offset, uint64_t *bytes)
{
    uint64_t w = h->minbits;
    if (w == p->size * 8) {
        *offset = STORE_SO_HEADER + i * p->size;
        *bytes = n * p->size;
    } else {
        *offset = STORE_SO_HEADER + i * w / 8;
        *bytes = n ? ((i + n) * w + 7) / 8 - i * w / 8 : 0;
    }
}

/* Value at bit position bit of in (w bits, 1..64). */
static inline uint64_t get_bits(const unsigned char *in, uint64_t bit, unsigned w)
{
    const unsigned char *b = in + (bit >> 3);
    unsigned sh = (unsigned)(bit & 7);
    uint64_t x = load_be64(b) << sh;
    if (w + sh > 64) {
        x |= (uint64_t)b[8] >> (8 - sh);
    }
    return x >> (64 - w);
}

/* The same for w <= 57, the common case: a value then lies within the 8 bytes loaded (shift
 * 0..7 plus w bits), so the loop has no branch on the width; right is 64 - w. */
static inline uint64_t get_narrow(const unsigned char *in, uint64_t bit, unsigned right)
{
    return (load_be64(in + (bit >> 3)) << (bit & 7)) >> right;
}

#define NARROW_MAX 57

/* Decode n values of type T into out, each read by GET(bit). */
#define UNPACK_WITH(T, GET)                                                                        \
    do {                                                                                           \
        T *o = out, f = (T)p->fill, m = (T)h->minval;                                              \
        uint64_t ones = w == 64 ? UINT64_MAX : (1ull << w) - 1;                                    \
        uint64_t bit = i * w - i * w / 8 * 8;                                                      \
        if (p->has_fill) {                                                                         \
            for (uint64_t k = 0; k < n; k++, bit += w) {                                           \
                uint64_t v = GET(bit);                                                             \
                o[k] = v == ones ? f : (T)((T)v + m);                                              \
            }                                                                                      \
        } else {                                                                                   \
            for (uint64_t k = 0; k < n; k++, bit += w) {                                           \
                o[k] = (T)((T)GET(bit) + m);                                                       \
            }                                                                                      \
        }                                                                                          \
    } while (0)

/* Values of at most 28 bits, eight at a time once they start on a byte boundary: eight values
 * then fill w bytes, read as 8 / V words of V values each (word q starts q * V * w bits on, at
 * most 6 bits past a byte, so V values fit when V * w + 6 <= 64: V = 4 up to 14 bits, 2 up to
 * 29) and cut by shifts, with no position arithmetic per value. Fill values compare with their
 * all-ones pattern; without fill, with a value no w bits hold. */
#define GROUP4_MAX 14
#define GROUP2_MAX 28
#if defined(__GNUC__) && !defined(__clang__) && __GNUC__ >= 8
#define UNROLL_4 _Pragma("GCC unroll 4")
#else
#define UNROLL_4
#endif
/* Value bits (an expression) into o[at]: the fill value, or the value plus the minimum. */
#define CUT_1(T, bits, at)                                                                         \
    do {                                                                                           \
        uint64_t v_ = (bits);                                                                      \
        o[at] = v_ == fill_bits ? f : (T)((T)v_ + m);                                              \
    } while (0)
#define UNPACK_GROUPS(T, V)                                                                        \
    do {                                                                                           \
        T *o = out, f = (T)p->fill, m = (T)h->minval;                                              \
        uint64_t fill_bits = p->has_fill ? (1ull << w) - 1 : UINT64_MAX;                           \
        uint64_t bit = i * w - i * w / 8 * 8, k = 0;                                               \
        for (; k < n && (bit & 7); k++, bit += w) {                                                \
            CUT_1(T, get_narrow(in, bit, right), k);                                               \
        }                                                                                          \
        const unsigned char *b = in + (bit >> 3);                                                  \
        for (; k + 8 <= n; k += 8, b += w) {                                                       \
            UNROLL_4                                                                               \
            for (unsigned q = 0; q < 8 / (V); q++) {                                               \
                unsigned at = q * (V)*w;                                                           \
                uint64_t x = load_be64(b + (at >> 3)) << (at & 7);                                 \
                UNROLL_4                                                                           \
                for (unsigned j = 0; j < (V); j++) {                                               \
                    CUT_1(T, (x << (j * w)) >> right, k + q * (V) + j);                            \
                }                                                                                  \
            }                                                                                      \
        }                                                                                          \
        for (bit = (uint64_t)(b - in) * 8; k < n; k++, bit += w) {                                 \
            CUT_1(T, get_narrow(in, bit, right), k);                                               \
        }                                                                                          \
    } while (0)

#define GET_NARROW(bit) get_narrow(in, bit, right)
#define GET_WIDE(bit) get_bits(in, bit, w)

#define UNPACK(T)                                                                                  \
    do {                                                                                           \
        unsigned right = 64 - w;                                                                   \
        if (w <= GROUP4_MAX) {                                                                     \
            UNPACK_GROUPS(T, 4);                                                                   \
        } else if (w <= GROUP2_MAX) {                                                              \
            UNPACK_GROUPS(T, 2);                                                                   \
        } else if (w <= NARROW_MAX) {                                                              \
            UNPACK_WITH(T, GET_NARROW);                                                            \
        } else {                                                                                   \
            UNPACK_WITH(T, GET_WIDE);                                                              \
        }                                                                                          \
    } while (0)

void store_so_decode_portable(const struct store_so_params *p, const struct store_so_chunk *h,
                              const unsigned char *in, uint64_t i, uint64_t n, void *out)
{
    unsigned w = h->minbits;
    if (w == p->size * 8) {
        copy_little_endian(out, in, (size_t)n, p->size);
        return;
    }
    if (w == 0) {
        for (uint64_t k = 0; k < n; k++) {
            value_put(out, p->size, (size_t)k, h->minval);
        }
    } else if (p->size == 8) {
        UNPACK(uint64_t);
    } else {
        UNPACK(uint32_t);
    }
}

void store_so_decode(const struct store_so_params *p, const struct store_so_chunk *h,
                     const unsigned char *in, uint64_t i, uint64_t n, void *out)
{
    unsigned w = h->minbits;
    if (n < 64 || !store_so_simd_takes(p, w)) {
        store_so_decode_portable(p, h, in, i, n, out);
        return;
    }
    // The values before the first that starts on a byte, whole groups of eight, the rest.
    uint64_t lead = 0, skip = i * w % 8;
    while ((i + lead) * w % 8 != 0) {
        lead++;
    }
    store_so_decode_portable(p, h, in, i, lead, out);
    const unsigned char *g = in + (skip + lead * w) / 8;
    size_t readable = (size_t)((skip + n * w + 7) / 8 + 8 - (skip + lead * w) / 8);
    char *o = (char *)out + lead * p->size;
    size_t done = store_so_simd_groups(p, h, g, readable, (size_t)((n - lead) / 8), o);
    store_so_decode_portable(p, h, g + done * w, 0, n - lead - done * 8, o + done * 8 * p->size);
}
