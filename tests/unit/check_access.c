/* SPDX-License-Identifier: MIT */
/* Unit tests: access patterns (consecutive / sequential / random / unknown, alignment) tracked
 * through open, lseek, read/write and pread/pwrite, and power-of-two size histograms. */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "iodfg/access.h"
#include "iodfg/cancel.h"
#include "iodfg/error.h"
#include "iodfg/eventlog.h"
#include "iodfg/mapping.h"
#include "iodfg/metrics.h"
#include "iodfg/strpool.h"

#include "dfg_testlog.h"
#include "testutil.h"

static struct iodfg_eventlog *LOG;
static struct iodfg_mapping MAP;
static struct iodfg_access AC;

static const char trace[] =
    "1 00:00:01.000000 openat(AT_FDCWD, \"/d/f\", O_RDWR) = 3</d/f> <0.000001>\n"
    "1 00:00:01.000010 write(3</d/f>, \"\", 100) = 100 <0.000001>\n"
    "1 00:00:01.000020 write(3</d/f>, \"\", 100) = 100 <0.000001>\n"
    "1 00:00:01.000030 lseek(3</d/f>, 4096, SEEK_SET) = 4096 <0.000001>\n"
    "1 00:00:01.000040 write(3</d/f>, \"\", 4096) = 4096 <0.000001>\n"
    "1 00:00:01.000050 lseek(3</d/f>, 0, SEEK_SET) = 0 <0.000001>\n"
    "1 00:00:01.000060 read(3</d/f>, \"\", 10) = 10 <0.000001>\n"
    "1 00:00:01.000070 pwrite64(3</d/f>, \"\", 10, 50) = 10 <0.000001>\n"
    "1 00:00:01.000080 pread64(3</d/f>, \"\", 0, 8192) = 0 <0.000001>\n"
    "1 00:00:01.000090 write(5</x>, \"\", 7) = 7 <0.000001>\n"
    "1 00:00:01.000100 close(3</d/f>) = 0 <0.000001>\n"
    "1 00:00:01.000110 write(3</d/f>, \"\", 1) = 1 <0.000001>\n"
    "1 00:00:01.000120 write(3</d/f>, \"\", 9) = -1 ENOSPC (No space left on device) <0.000001>\n";

static void setup(void)
{
    LOG = iodfg_eventlog_new(IODFG_COL_ALL);
    ck_assert_ptr_nonnull(LOG);
    tlog_add_case(LOG, "A", trace);
    tlog_map_fhat(&MAP, LOG);
    iodfg_access_init(&AC);
}

static void teardown(void)
{
    iodfg_access_fini(&AC);
    tlog_map_free(&MAP);
    iodfg_eventlog_free(LOG);
}

static void build(const struct iodfg_selection *sel)
{
    struct iodfg_error err;
    iodfg_error_clear(&err);
    ck_assert_int_eq(iodfg_access_build(&AC, LOG, &MAP, sel, 4096, NULL, &err), 0);
}

static void check_writes(const struct iodfg_access_dir *w)
{
    ck_assert_uint_eq(w->ops, 6);
    ck_assert_uint_eq(w->consecutive, 2); // at 0 (just opened), at 100
    ck_assert_uint_eq(w->sequential, 1);  // at 4096 after an end at 200
    ck_assert_uint_eq(w->random, 1);      // pwrite at 50 after an end at 8192
    ck_assert_uint_eq(w->unknown, 2);     // fd 5 never opened; fd 3 after close
    ck_assert_uint_eq(w->unaligned, 2);   // at 100 and at 50
    ck_assert_int_eq(w->bytes, 4314);
    ck_assert_uint_eq(w->hist[7], 2); // 100 in [64, 128)
    ck_assert_uint_eq(w->hist[13], 1);
    ck_assert_uint_eq(w->hist[4], 1);
    ck_assert_uint_eq(w->hist[3], 1);
    ck_assert_uint_eq(w->hist[1], 1);
}

/* A set cancel request stops the scan: an error saying so, and nothing built. */
START_TEST(test_cancelled)
{
    struct iodfg_selection sel;
    iodfg_selection_all(&sel);
    struct iodfg_cancel stop;
    iodfg_cancel_init(&stop);
    iodfg_cancel_request(&stop);
    struct iodfg_error err;
    iodfg_error_clear(&err);
    ck_assert_int_eq(iodfg_access_build(&AC, LOG, &MAP, &sel, 4096, &stop, &err), -1);
    ck_assert_int_eq(err.code, IODFG_E_CANCELLED);
    ck_assert_uint_eq(AC.nactivities, 0);
    ck_assert_ptr_null(AC.act);
}
END_TEST

START_TEST(test_patterns)
{
    struct iodfg_selection sel;
    iodfg_selection_all(&sel);
    build(&sel);
    check_writes(&AC.overall.dir[IODFG_DIR_WRITE]);
    const struct iodfg_access_dir *r = &AC.overall.dir[IODFG_DIR_READ];
    ck_assert_uint_eq(r->ops, 2);
    ck_assert_uint_eq(r->consecutive, 1); // read at 0 after the lseek
    ck_assert_uint_eq(r->sequential, 1);  // pread at 8192
    ck_assert_uint_eq(r->hist[0], 1);     // the 0-byte pread
    ck_assert_uint_eq(r->hist[4], 1);
    ck_assert_uint_eq(AC.nfiles, 2);
    ck_assert_str_eq(iodfg_strpool_get(iodfg_eventlog_pool(LOG), AC.files[0].path), "/d/f");
    ck_assert_uint_eq(AC.files[0].row.dir[IODFG_DIR_WRITE].ops, 5);
    ck_assert_uint_eq(AC.files[1].row.dir[IODFG_DIR_WRITE].unknown, 1);
    const struct iodfg_access_dir *pw = &AC.act[tlog_act(&MAP, "pwrite64:/d/f")].dir[1];
    ck_assert_uint_eq(pw->random, 1);
    ck_assert_int_eq(iodfg_access_median_bin(&AC.overall.dir[IODFG_DIR_WRITE]), 8);
    // this trace holds lseeks: positions followed from the open are known, not inferred
    ck_assert_uint_eq(AC.overall.dir[IODFG_DIR_WRITE].inferred, 0);
}
END_TEST

/* A trace without any lseek (strace -e trace=openat,read,write): the offsets of plain reads and
 * writes are inferred, those of p* calls stay known. */
START_TEST(test_without_lseek_offsets_are_inferred)
{
    tlog_add_case(LOG, "B",
                  "1 00:00:02.000000 openat(AT_FDCWD, \"/d/g\", O_RDONLY) = 3</d/g> <0.000001>\n"
                  "1 00:00:02.000010 read(3</d/g>, \"\", 100) = 100 <0.000001>\n"
                  "1 00:00:02.000020 read(3</d/g>, \"\", 100) = 100 <0.000001>\n"
                  "1 00:00:02.000030 pread64(3</d/g>, \"\", 10, 5000) = 10 <0.000001>\n");
    tlog_map_free(&MAP);
    tlog_map_fhat(&MAP, LOG);
    uint8_t only_b[2] = {0, 1};
    struct iodfg_selection sel;
    iodfg_selection_all(&sel);
    sel.case_on = only_b;
    build(&sel);
    const struct iodfg_access_dir *r = &AC.overall.dir[IODFG_DIR_READ];
    ck_assert_uint_eq(r->ops, 3);
    ck_assert_uint_eq(r->consecutive, 2);
    ck_assert_uint_eq(r->inferred, 2); // the two reads; the pread's offset was traced
}
END_TEST

START_TEST(test_unselected_events_still_move_positions)
{
    // drop lseek from the mapping and cut the window before the last events: positions still
    // follow the lseeks, and only the selected writes are counted
    for (uint32_t k = 0; k < MAP.nkeys; k++) {
        if (MAP.activity_of_key[k] == tlog_act(&MAP, "lseek:/d/f")) {
            MAP.activity_of_key[k] = IODFG_NO_ACTIVITY;
        }
    }
    struct iodfg_selection sel;
    iodfg_selection_all(&sel);
    build(&sel);
    check_writes(&AC.overall.dir[IODFG_DIR_WRITE]);
    sel.to_ns = 1000045000;
    build(&sel);
    const struct iodfg_access_dir *w = &AC.overall.dir[IODFG_DIR_WRITE];
    ck_assert_uint_eq(w->ops, 3);
    ck_assert_uint_eq(w->sequential, 1);
    uint8_t off[1] = {0};
    sel.case_on = off;
    build(&sel);
    ck_assert_uint_eq(AC.overall.dir[IODFG_DIR_WRITE].ops, 0);
    ck_assert_uint_eq(AC.nfiles, 0);
}
END_TEST

START_TEST(test_bins)
{
    int64_t lo, hi;
    ck_assert_uint_eq(iodfg_access_bin(0), 0);
    ck_assert_uint_eq(iodfg_access_bin(1), 1);
    ck_assert_uint_eq(iodfg_access_bin(4095), 12);
    ck_assert_uint_eq(iodfg_access_bin(4096), 13);
    ck_assert_uint_eq(iodfg_access_bin(INT64_MAX), 63);
    iodfg_access_bin_range(13, &lo, &hi);
    ck_assert_int_eq(lo, 4096);
    ck_assert_int_eq(hi, 8192);
    struct iodfg_access_dir d;
    memset(&d, 0, sizeof(d));
    ck_assert_int_eq(iodfg_access_median_bin(&d), -1);
}
END_TEST

START_TEST(test_needs_columns)
{
    struct iodfg_eventlog *small = iodfg_eventlog_new(IODFG_COL_ANALYSIS);
    tlog_add_case(small, "A", trace);
    struct iodfg_mapping map;
    tlog_map_fhat(&map, small);
    struct iodfg_selection sel;
    iodfg_selection_all(&sel);
    struct iodfg_error err;
    iodfg_error_clear(&err);
    ck_assert_int_eq(iodfg_access_build(&AC, small, &map, &sel, 4096, NULL, &err), -1);
    ck_assert_int_eq(err.code, IODFG_E_ARG);
    tlog_map_free(&map);
    iodfg_eventlog_free(small);
}
END_TEST

int main(void)
{
    Suite *s = suite_create("access");
    TCase *tc = tcase_create("patterns");
    tcase_add_checked_fixture(tc, setup, teardown);
    tcase_add_test(tc, test_patterns);
    tcase_add_test(tc, test_cancelled);
    tcase_add_test(tc, test_without_lseek_offsets_are_inferred);
    tcase_add_test(tc, test_unselected_events_still_move_positions);
    tcase_add_test(tc, test_bins);
    tcase_add_test(tc, test_needs_columns);
    suite_add_tcase(s, tc);
    return testutil_run(s);
}
