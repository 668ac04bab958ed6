/* SPDX-License-Identifier: MIT */
/* Unit tests: the CSV reader of per-server counter samples (El Sayed et al. 2016). */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "iodfg/counters.h"
#include "iodfg/counters_csv.h"
#include "iodfg/error.h"

#include "testutil.h"

static struct iodfg_counters C;
static struct iodfg_error ERR;

static void setup(void)
{
    iodfg_counters_init(&C);
    iodfg_error_clear(&ERR);
}

static void teardown(void)
{
    iodfg_counters_fini(&C);
}

static int parse(const char *text)
{
    iodfg_error_clear(&ERR);
    return iodfg_counters_parse(&C, text, strlen(text), "t.csv", &ERR);
}

START_TEST(test_file)
{
    ck_assert_int_eq(iodfg_counters_read(&C, testutil_data("counters/two_servers.csv"), &ERR), 0);
    ck_assert_uint_eq(C.nservers, 2);
    ck_assert_str_eq(C.server[0], "io1");
    ck_assert_uint_eq(C.first[1] - C.first[0], 4);
    ck_assert_uint_eq(C.first[2], C.nsamples);
}
END_TEST

START_TEST(test_order_header_reset)
{
    // columns in another order, samples out of time order, a counter reset on io1
    ck_assert_int_eq(
        parse("time,server,bytes_written,bytes_read,read_ops,write_ops,opens,closes\r\n"
              "20,io1,0,20,0,0,0,0\n"
              "\n"
              "0,io1,0,100,1,0,0,0\n"
              "10,io1,0,150,2,0,0,0\n"
              "30,io1,0,70,3,0,0,0\n"
              "  # done\n"),
        0);
    ck_assert_uint_eq(C.nservers, 1);
    ck_assert_uint_eq(C.nsamples, 4);
    ck_assert_double_eq(C.t_s[0], 0);
    ck_assert_double_eq(C.t_s[3], 30);
    ck_assert_double_eq(C.v[IODFG_CTR_BYTES_READ][1], 150);
    ck_assert_double_eq(C.v[IODFG_CTR_BYTES_READ][2], 170); // reset: 150 + 20
    ck_assert_double_eq(C.v[IODFG_CTR_BYTES_READ][3], 220);
    ck_assert_double_eq(C.v[IODFG_CTR_READ_OPS][2], 2); // 0 after 2: a reset
    ck_assert_double_eq(C.v[IODFG_CTR_READ_OPS][3], 5);
}
END_TEST

START_TEST(test_no_header)
{
    ck_assert_int_eq(parse("a,1.5,1,2,3,4,5,6\nb,2,0,0,0,0,0,0\n"), 0);
    ck_assert_uint_eq(C.nservers, 2);
    ck_assert_double_eq(C.v[IODFG_CTR_CLOSES][0], 6);
    ck_assert_double_eq(C.t_s[0], 1.5);
}
END_TEST

START_TEST(test_errors)
{
    ck_assert_int_eq(parse("io1,0,1,2,3,4,5\n"), -1);
    ck_assert_uint_eq(ERR.line, 1);
    ck_assert_str_eq(ERR.msg, "too few columns (expected 8)");
    ck_assert_int_eq(parse("io1,0,0,0,0,0,0,0\nio1,x,1,2,3,4,5,6\n"), -1);
    ck_assert_uint_eq(ERR.line, 2);
    ck_assert_uint_eq(ERR.col, 5);
    ck_assert_str_eq(ERR.where, "t.csv");
    ck_assert_int_eq(parse("io1,0,-1,0,0,0,0,0\n"), -1);
    ck_assert_uint_eq(ERR.col, 7);
    ck_assert_int_eq(parse("io1,3,0,0,0,0,0,0\nio1,3,1,0,0,0,0,0\n"), -1);
    ck_assert_uint_eq(ERR.line, 2);
    ck_assert_int_eq(parse("server,time,bytes_read,bytes_written,read_ops,write_ops,opens,shuts\n"),
                     -1);
    ck_assert_uint_eq(ERR.col, 63);
    iodfg_error_clear(&ERR);
    ck_assert_int_eq(iodfg_counters_read(&C, testutil_data("counters/bad_column.csv"), &ERR), -1);
    ck_assert_uint_eq(ERR.line, 3);
    iodfg_error_clear(&ERR);
    ck_assert_int_eq(iodfg_counters_read(&C, "/nonexistent/c.csv", &ERR), -1);
    ck_assert_int_eq(ERR.code, IODFG_E_IO);
}
END_TEST

START_TEST(test_empty)
{
    // no rows at all: nothing to sort (qsort of a NULL array was undefined behaviour)
    ck_assert_int_eq(parse(""), 0);
    ck_assert_uint_eq(C.nsamples, 0);
    ck_assert_int_eq(
        parse("server,time,bytes_read,bytes_written,read_ops,write_ops,opens,closes\n# none\n"), 0);
    ck_assert_uint_eq(C.nsamples, 0);
    ck_assert_uint_eq(C.nservers, 0);
    // a file without samples is refused, naming it
    char *dir = testutil_tmpdir();
    char path[4200];
    snprintf(path, sizeof(path), "%s/empty.csv", dir);
    testutil_write_file(
        path, "server,time,bytes_read,bytes_written,read_ops,write_ops,opens,closes\n", 69);
    iodfg_error_clear(&ERR);
    ck_assert_int_eq(iodfg_counters_read(&C, path, &ERR), -1);
    ck_assert_int_eq(ERR.code, IODFG_E_EMPTY);
    ck_assert_str_eq(ERR.where, path);
    ck_assert_uint_eq(C.nsamples, 0);
    // so is a FIFO or a device, before it is read
    iodfg_error_clear(&ERR);
    ck_assert_int_eq(iodfg_counters_read(&C, "/dev/zero", &ERR), -1);
    ck_assert_str_eq(ERR.msg, "cannot read the counters file: a character device, not a regular file");
    testutil_rmtree(dir);
    free(dir);
}
END_TEST

int main(void)
{
    Suite *s = suite_create("counters");
    TCase *tc = tcase_create("csv");
    tcase_add_checked_fixture(tc, setup, teardown);
    tcase_add_test(tc, test_file);
    tcase_add_test(tc, test_order_header_reset);
    tcase_add_test(tc, test_no_header);
    tcase_add_test(tc, test_errors);
    tcase_add_test(tc, test_empty);
    suite_add_tcase(s, tc);
    return testutil_run(s);
}
