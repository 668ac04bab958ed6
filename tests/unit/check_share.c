/* SPDX-License-Identifier: MIT */
/* Unit tests: work shared out by weight (trace files by bytes, a log's cases by events). */
#include "config.h"

#include <stdlib.h>

#include "iodfg/share.h"

#include "testutil.h"

/* Every part's items: consecutive, in part order, covering all n; each part's weight at most
 * its equal share and the largest item (half an item at each end); by count without weights. */
static void check_shares(const uint64_t *w, size_t n, int nparts)
{
    uint64_t total = 0, largest = 0;
    for (size_t i = 0; w && i < n; i++) {
        total += w[i];
        largest = w[i] > largest ? w[i] : largest;
    }
    size_t next = 0;
    for (int p = 0; p < nparts; p++) {
        size_t lo = 99, hi = 99;
        iodfg_share_of(w, n, p, nparts, &lo, &hi);
        ck_assert_uint_eq(lo, next);
        ck_assert_uint_le(lo, hi);
        uint64_t mine = 0;
        for (size_t i = lo; i < hi; i++) {
            mine += total ? w[i] : 1;
        }
        uint64_t all = total ? total : n, biggest = total ? largest : 1;
        ck_assert_uint_le(mine * (uint64_t)nparts, all + biggest * (uint64_t)nparts);
        next = hi;
    }
    ck_assert_uint_eq(next, n);
}

START_TEST(shares_cover_every_item_in_order)
{
    const size_t ns[] = {0, 1, 2, 5, 97};
    const int parts[] = {1, 2, 3, 4, 7, 16};
    uint64_t w[97];
    srand(7);
    for (size_t a = 0; a < sizeof(ns) / sizeof(*ns); a++) {
        for (size_t b = 0; b < sizeof(parts) / sizeof(*parts); b++) {
            for (int kind = 0; kind < 4; kind++) {
                for (size_t i = 0; i < ns[a]; i++) { // equal, random with zeros, one huge, none
                    w[i] = kind == 0   ? 100
                           : kind == 1 ? (uint64_t)(rand() % 4) * (uint64_t)(rand() % 1000)
                           : kind == 2 ? (i == ns[a] / 2 ? 1000000 : 3)
                                       : 0;
                }
                check_shares(w, ns[a], parts[b]);
            }
            check_shares(NULL, ns[a], parts[b]);
        }
    }
}
END_TEST

START_TEST(a_heavy_item_gets_a_part_of_its_own)
{
    // one rank of a job did most of the I/O: by count it would share a part with three others
    const uint64_t w[] = {1000, 1, 1, 1, 1, 1, 1, 1};
    size_t lo, hi;
    iodfg_share_of(w, 8, 0, 2, &lo, &hi);
    ck_assert_uint_eq(lo, 0);
    ck_assert_uint_eq(hi, 1);
    iodfg_share_of(w, 8, 1, 2, &lo, &hi);
    ck_assert_uint_eq(lo, 1);
    ck_assert_uint_eq(hi, 8);
}
END_TEST

START_TEST(equal_items_are_shared_by_count)
{
    const uint64_t w[] = {5, 5, 5, 5, 5, 5, 5, 5, 5, 5};
    const size_t want[][2] = {{0, 3}, {3, 7}, {7, 10}};
    for (int p = 0; p < 3; p++) {
        size_t lo, hi, lo0, hi0;
        iodfg_share_of(w, 10, p, 3, &lo, &hi);
        iodfg_share_of(NULL, 10, p, 3, &lo0, &hi0);
        ck_assert_uint_eq(lo, want[p][0]);
        ck_assert_uint_eq(hi, want[p][1]);
        ck_assert_uint_eq(lo0, lo);
        ck_assert_uint_eq(hi0, hi);
    }
}
END_TEST

static Suite *suite(void)
{
    Suite *s = suite_create("share");
    TCase *tc = tcase_create("share");
    tcase_add_test(tc, shares_cover_every_item_in_order);
    tcase_add_test(tc, a_heavy_item_gets_a_part_of_its_own);
    tcase_add_test(tc, equal_items_are_shared_by_count);
    suite_add_tcase(s, tc);
    return s;
}

int main(void)
{
    return testutil_run(suite());
}
