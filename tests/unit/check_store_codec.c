/* SPDX-License-Identifier: MIT */
/* Unit tests: the scale-offset chunk codec. Round trips over every width, and the proof that
 * matters: for the same values HDF5's own scale-offset filter writes the same bytes, and
 * HDF5 reads back what our encoder wrote. */
#include "config.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <hdf5.h>

#include "../../src/io/store_codec.h"
#include "../../src/io/store_codec_simd.h"
#include "testutil.h"

#define N 4096u

static uint64_t rng = 88172645463325252ull;

static uint64_t next(void)
{
    rng ^= rng << 13;
    rng ^= rng >> 7;
    rng ^= rng << 17;
    return rng;
}

/* N values of the given size: base plus a random offset below 2^bits, a share of them fill. */
static void make_values(void *v, unsigned size, uint64_t base, unsigned bits, uint64_t fill,
                        unsigned fill_every)
{
    for (unsigned k = 0; k < N; k++) {
        uint64_t r = bits >= 64 ? next() : next() & ((1ull << bits) - 1);
        uint64_t x = fill_every && k % fill_every == 0 ? fill : base + r;
        if (size == 8) {
            memcpy((char *)v + k * 8, &x, 8);
        } else {
            uint32_t y = (uint32_t)x;
            memcpy((char *)v + k * 4, &y, 4);
        }
    }
}

static void round_trip(const struct store_so_params *p, const void *values)
{
    unsigned char *chunk = calloc(1, store_so_bound(p) + 8);
    size_t bytes = store_so_encode(p, values, chunk);
    ck_assert_uint_le(bytes, store_so_bound(p));
    struct store_so_chunk h;
    const char *why = NULL;
    ck_assert_int_eq(store_so_header(p, chunk, bytes, &h, &why), 0);
    char out[N * 8];
    // The whole chunk, then pieces at odd places.
    uint64_t spans[][2] = {{0, N}, {1, 7},     {N - 3, 3},     {333, 1000}, {N / 2, 1},
                           {5, 0}, {7, N - 7}, {N - 203, 203}, {3, 64}};
    for (size_t s = 0; s < sizeof(spans) / sizeof(spans[0]); s++) {
        uint64_t i = spans[s][0], n = spans[s][1], off, len;
        store_so_span(p, &h, i, n, &off, &len);
        ck_assert_uint_le(off + len, bytes);
        unsigned char *piece = calloc(1, (size_t)len + 8);
        memcpy(piece, chunk + off, (size_t)len);
        store_so_decode(p, &h, piece, i, n, out);
        ck_assert_int_eq(memcmp(out, (const char *)values + i * p->size, (size_t)n * p->size), 0);
        memset(out, 0xa5, sizeof(out));
        store_so_decode_portable(p, &h, piece, i, n, out);
        ck_assert_int_eq(memcmp(out, (const char *)values + i * p->size, (size_t)n * p->size), 0);
        free(piece);
    }
    free(chunk);
}

START_TEST(round_trips_every_width)
{
    char v[N * 8];
    for (unsigned size = 4; size <= 8; size += 4) {
        for (int sign = 0; sign <= 1; sign++) {
            for (int fill = 0; fill <= 1; fill++) {
                for (unsigned bits = 0; bits <= size * 8; bits++) {
                    struct store_so_params p = {size, sign, fill, 0, N};
                    p.fill = size == 8 ? (uint64_t)INT64_MIN : (uint64_t)(uint32_t)INT32_MIN;
                    uint64_t base = sign ? (uint64_t)-1000 : 77;
                    make_values(v, size, base, bits, p.fill, fill ? 5 : 0);
                    round_trip(&p, v);
                }
            }
        }
    }
}
END_TEST

/* The vector decoder alone, where the processor has it: every width it takes (up to 25 bits
 * into 4-byte columns, 57 into 8-byte ones), with and without fill, against the values
 * encoded. */
START_TEST(vector_groups_decode_every_width)
{
    if (!store_so_simd_available()) {
        fprintf(stderr, "check_store_codec: no vector decoder on this processor\n");
        return;
    }
    char v[N * 8], out[N * 8];
    for (unsigned size = 4; size <= 8; size += 4) {
        for (int fill = 0; fill <= 1; fill++) {
            unsigned most = size == 8 ? STORE_SO_SIMD_MAX_BITS_8 : STORE_SO_SIMD_MAX_BITS;
            for (unsigned bits = 1; bits <= most; bits++) {
                struct store_so_params p = {size, 0, fill, size == 8 ? UINT64_MAX : UINT32_MAX, N};
                // Values spanning exactly 2^r: a fill value takes one more code.
                unsigned r = bits - (unsigned)fill;
                make_values(v, size, 1000, r, p.fill, fill ? 3 : 0);
                uint64_t ends[2] = {1000, 1000 + (1ull << r) - 1};
                for (unsigned e = 0; e < 2; e++) { // rows 1 and 2 are not fill
                    if (size == 8) {
                        memcpy(v + (1 + e) * 8, &ends[e], 8);
                    } else {
                        uint32_t y = (uint32_t)ends[e];
                        memcpy(v + (1 + e) * 4, &y, 4);
                    }
                }
                unsigned char *chunk = calloc(1, store_so_bound(&p) + 8);
                size_t bytes = store_so_encode(&p, v, chunk);
                struct store_so_chunk h;
                const char *why = NULL;
                ck_assert_int_eq(store_so_header(&p, chunk, bytes, &h, &why), 0);
                ck_assert_uint_eq(h.minbits, bits);
                size_t data = bytes - STORE_SO_HEADER;
                size_t done =
                    store_so_simd_groups(&p, &h, chunk + STORE_SO_HEADER, data + 8, N / 8, out);
                // All but the last groups, whose 16-byte reads would pass the end.
                ck_assert_uint_ge(done, N / 8 - 16);
                ck_assert_uint_le(done, N / 8);
                ck_assert_int_eq(memcmp(out, v, done * 8 * size), 0);
                free(chunk);
            }
        }
    }
}
END_TEST

START_TEST(a_chunk_of_fill_values)
{
    int64_t v[N];
    for (unsigned k = 0; k < N; k++) {
        v[k] = INT64_MIN;
    }
    struct store_so_params p = {8, 1, 1, (uint64_t)INT64_MIN, N};
    round_trip(&p, v);
    unsigned char chunk[STORE_SO_HEADER + N * 8 + 32];
    ck_assert_uint_eq(store_so_encode(&p, v, chunk), STORE_SO_HEADER + N / 8 + 1);
}
END_TEST

START_TEST(damaged_headers_are_refused)
{
    struct store_so_params p = {4, 0, 0, 0, N};
    unsigned char head[STORE_SO_HEADER] = {33}; // more bits than a 32-bit value has
    struct store_so_chunk h;
    const char *why = NULL;
    ck_assert_int_eq(store_so_header(&p, head, 1 << 20, &h, &why), -1);
    ck_assert_ptr_nonnull(strstr(why, "more bits"));
    head[0] = 10; // 10 bits for N values need N * 10 / 8 bytes
    ck_assert_int_eq(store_so_header(&p, head, STORE_SO_HEADER + N * 10 / 8 - 1, &h, &why), -1);
    ck_assert_ptr_nonnull(strstr(why, "shorter"));
    ck_assert_int_eq(store_so_header(&p, head, STORE_SO_HEADER + N * 10 / 8, &h, &why), 0);
    ck_assert_int_eq(store_so_header(&p, head, 3, &h, &why), -1);
}
END_TEST

/* ---- against HDF5's own codec ---- */

static hid_t so_dataset(hid_t file, const char *name, hid_t ftype, hid_t mtype, const void *fill)
{
    hsize_t dims[1] = {N}, chunk[1] = {N};
    hid_t sp = H5Screate_simple(1, dims, NULL), dcpl = H5Pcreate(H5P_DATASET_CREATE);
    ck_assert_int_ge(H5Pset_chunk(dcpl, 1, chunk), 0);
    // No fill value given: make it undefined (HDF5's default fill, 0, counts as defined).
    ck_assert_int_ge(H5Pset_fill_value(dcpl, mtype, fill), 0);
    ck_assert_int_ge(H5Pset_scaleoffset(dcpl, H5Z_SO_INT, H5Z_SO_INT_MINBITS_DEFAULT), 0);
    hid_t d = H5Dcreate2(file, name, ftype, sp, H5P_DEFAULT, dcpl, H5P_DEFAULT);
    ck_assert_int_ge(d, 0);
    H5Pclose(dcpl);
    H5Sclose(sp);
    return d;
}

/* HDF5 encodes values: the chunk it stored must be ours byte for byte; and our chunk written
 * raw must read back through HDF5 as the values. */
static void same_as_hdf5(hid_t file, int *serial, const struct store_so_params *p,
                         const void *values)
{
    hid_t mtype = p->size == 8 ? (p->is_signed ? H5T_NATIVE_INT64 : H5T_NATIVE_UINT64)
                               : (p->is_signed ? H5T_NATIVE_INT32 : H5T_NATIVE_UINT32);
    hid_t ftype = p->size == 8 ? (p->is_signed ? H5T_STD_I64LE : H5T_STD_U64LE)
                               : (p->is_signed ? H5T_STD_I32LE : H5T_STD_U32LE);
    uint32_t fill32 = (uint32_t)p->fill;
    const void *fill = !p->has_fill ? NULL : p->size == 8 ? (const void *)&p->fill : &fill32;
    char name[32];
    snprintf(name, sizeof(name), "h%d", (*serial)++);
    hid_t d = so_dataset(file, name, ftype, mtype, fill);
    ck_assert_int_ge(H5Dwrite(d, mtype, H5S_ALL, H5S_ALL, H5P_DEFAULT, values), 0);
    hsize_t off[1] = {0}, stored = 0;
    ck_assert_int_ge(H5Dget_chunk_storage_size(d, off, &stored), 0);
    unsigned char *theirs = calloc(1, (size_t)stored + 8);
    uint32_t mask = 0;
    ck_assert_int_ge(H5Dread_chunk(d, H5P_DEFAULT, off, &mask, theirs), 0);
    unsigned char *ours = calloc(1, store_so_bound(p) + 8);
    size_t bytes = store_so_encode(p, values, ours);
    ck_assert_uint_eq(bytes, stored);
    // With no bits to store HDF5 still allocates one payload byte and leaves it unwritten
    // (ASan fills it with 0xbe), so only the header is comparable then.
    uint32_t minbits;
    memcpy(&minbits, ours, sizeof(minbits));
    size_t comparable = minbits == 0 ? STORE_SO_HEADER : bytes;
    ck_assert_int_eq(memcmp(ours, theirs, comparable), 0);
    H5Dclose(d);

    snprintf(name, sizeof(name), "o%d", (*serial)++);
    d = so_dataset(file, name, ftype, mtype, fill);
    ck_assert_int_ge(H5Dwrite_chunk(d, H5P_DEFAULT, 0, off, bytes, ours), 0);
    char back[N * 8];
    ck_assert_int_ge(H5Dread(d, mtype, H5S_ALL, H5S_ALL, H5P_DEFAULT, back), 0);
    ck_assert_int_eq(memcmp(back, values, (size_t)N * p->size), 0);
    H5Dclose(d);
    free(ours);
    free(theirs);
}

START_TEST(hdf5_writes_and_reads_the_same_bytes)
{
    testutil_fixture_begin("so.h5");
    H5Eset_auto2(H5E_DEFAULT, NULL, NULL);
    hid_t file = H5Fcreate(testutil_fixture_path, H5F_ACC_TRUNC, H5P_DEFAULT, H5P_DEFAULT);
    ck_assert_int_ge(file, 0);
    char v[N * 8];
    int serial = 0;
    unsigned widths[] = {0, 1, 2, 7, 13, 31, 32, 40, 56, 57, 60, 63, 64};
    for (unsigned size = 4; size <= 8; size += 4) {
        for (int sign = 0; sign <= 1; sign++) {
            for (int fill = 0; fill <= 1; fill++) {
                for (size_t b = 0; b < sizeof(widths) / sizeof(widths[0]); b++) {
                    if (widths[b] > size * 8) {
                        continue;
                    }
                    struct store_so_params p = {size, sign, fill, 0, N};
                    p.fill = size == 8 ? (uint64_t)INT64_MIN : (uint64_t)(uint32_t)INT32_MIN;
                    uint64_t base = sign ? (uint64_t)-123456 : 9;
                    make_values(v, size, base, widths[b], p.fill, fill ? 3 : 0);
                    same_as_hdf5(file, &serial, &p, v);
                }
            }
        }
    }
    H5Fclose(file);
    testutil_fixture_end();
}
END_TEST

/* The minimum and maximum skip fill values wherever they are (a leading run, the end, every
 * other value) and whatever they are (the type's least or greatest value, or next to a real
 * value that is one of those): HDF5's filter gives the same bytes. */
START_TEST(ranges_around_fill_values)
{
    testutil_fixture_begin("range.h5");
    H5Eset_auto2(H5E_DEFAULT, NULL, NULL);
    hid_t file = H5Fcreate(testutil_fixture_path, H5F_ACC_TRUNC, H5P_DEFAULT, H5P_DEFAULT);
    ck_assert_int_ge(file, 0);
    int serial = 0;
    for (unsigned size = 4; size <= 8; size += 4) {
        for (int sign = 0; sign <= 1; sign++) {
            uint64_t wmax = size == 8 ? UINT64_MAX : UINT32_MAX;
            uint64_t smax = wmax >> 1, smin = smax + 1; // the signed extremes as bit patterns
            uint64_t lo = sign ? smin : 0, hi = sign ? smax : wmax;
            const uint64_t fills[] = {lo, hi, lo + 1, hi - 1, 1000};
            for (size_t f = 0; f < sizeof(fills) / sizeof(fills[0]); f++) {
                for (int shape = 0; shape < 6; shape++) {
                    struct store_so_params p = {size, sign, 1, fills[f], N};
                    uint64_t v[N];
                    for (size_t k = 0; k < N; k++) {
                        // values next to the fill value around a small range; or all the
                        // type's least or greatest value
                        uint64_t x = shape == 4     ? lo
                                     : shape == 5   ? hi
                                     : (k % 7 == 3) ? fills[f] + 1
                                                    : 990 + k % 20;
                        int fill = shape == 0   ? k < N / 2
                                   : shape == 1 ? k >= N - 3
                                   : shape == 3 ? k != N / 3
                                                : k % 2 == 0;
                        v[k] = (fill ? fills[f] : x) & wmax;
                    }
                    char buf[N * 8];
                    for (size_t k = 0; k < N; k++) {
                        if (size == 8) {
                            memcpy(buf + k * 8, &v[k], 8);
                        } else {
                            uint32_t w = (uint32_t)v[k];
                            memcpy(buf + k * 4, &w, 4);
                        }
                    }
                    same_as_hdf5(file, &serial, &p, buf);
                }
            }
        }
    }
    H5Fclose(file);
    testutil_fixture_end();
}
END_TEST

static Suite *store_codec_suite(void)
{
    Suite *s = suite_create("store_codec");
    TCase *tc = tcase_create("core");
    tcase_set_timeout(tc, 60);
    tcase_add_test(tc, round_trips_every_width);
    tcase_add_test(tc, vector_groups_decode_every_width);
    tcase_add_test(tc, a_chunk_of_fill_values);
    tcase_add_test(tc, ranges_around_fill_values);
    tcase_add_test(tc, damaged_headers_are_refused);
    tcase_add_test(tc, hdf5_writes_and_reads_the_same_bytes);
    suite_add_tcase(s, tc);
    return s;
}

int main(void)
{
    return testutil_run(store_codec_suite());
}
