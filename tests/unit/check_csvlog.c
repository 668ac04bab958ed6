/* SPDX-License-Identifier: MIT */
/* Unit tests: CSV event logs as input (records, header names and mappings, exact times, bad
 * rows with line and column, cases of interleaved rows). */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "iodfg/csvlog.h"
#include "iodfg/error.h"
#include "iodfg/eventlog.h"
#include "iodfg/strace.h"
#include "iodfg/strpool.h"

#include "testutil.h"

static struct iodfg_strace_result RES;
static struct iodfg_error ERR;

static struct iodfg_eventlog *read_text(const char *text, const struct iodfg_csv_columns *map)
{
    testutil_write_file(testutil_fixture_path, text, strlen(text));
    iodfg_error_clear(&ERR);
    return iodfg_csvlog_read(testutil_fixture_path, map, IODFG_COL_ALL, &RES, &ERR);
}

static const char *str(const struct iodfg_eventlog *log, uint32_t id)
{
    return iodfg_strpool_get(iodfg_eventlog_pool(log), id);
}

static void begin(void)
{
    testutil_fixture_begin("events.csv");
}

START_TEST(iso_parsing)
{
    int64_t ns;
    ck_assert_int_eq(iodfg_csv_parse_iso("2024-02-29 12:00:00", 19, &ns), 0); // UTC by default
    ck_assert_int_eq(ns, 1709208000LL * 1000000000LL);
    const char *t = "2024-02-29T13:00:00.5+01:00";
    ck_assert_int_eq(iodfg_csv_parse_iso(t, strlen(t), &ns), 0);
    ck_assert_int_eq(ns, 1709208000LL * 1000000000LL + 500000000LL);
    t = "1970-01-01T05:39:01.722329123456Z"; // digits past nanoseconds are dropped
    ck_assert_int_eq(iodfg_csv_parse_iso(t, strlen(t), &ns), 0);
    ck_assert_int_eq(ns, 20341722329123LL);
    const char *bad[] = {"2023-02-29T00:00:00", "2024-13-01T00:00:00", "2024-01-01",
                         "2024-01-01T24:00:00", "2024-01-01T00:00:00+1", "1.5",
                         // past what int64 nanoseconds hold (1677..2262)
                         "9999-12-31T23:59:59Z", "1500-01-01T00:00:00Z"};
    for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
        ck_assert_int_eq(iodfg_csv_parse_iso(bad[i], strlen(bad[i]), &ns), -1);
    }
}
END_TEST

START_TEST(seconds_parsing)
{
    static const struct {
        const char *s;
        int64_t ns;
    } ok[] = {{"0.1", 100000000},   {"1795325941.619475681", 1795325941619475681LL},
              {"1e-6", 1000},       {"2.5E3", 2500000000000LL},
              {"-0.5", -500000000}, {"7", 7000000000LL},
              {"0.0000000015", 1}};
    for (size_t i = 0; i < sizeof(ok) / sizeof(ok[0]); i++) {
        int64_t ns;
        ck_assert_int_eq(iodfg_csv_parse_seconds(ok[i].s, strlen(ok[i].s), &ns), 0);
        ck_assert_int_eq(ns, ok[i].ns);
    }
    const char *bad[] = {"", "abc", "1.2.3", "1e", "99999999999999999999", "."};
    for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
        int64_t ns;
        ck_assert_int_eq(iodfg_csv_parse_seconds(bad[i], strlen(bad[i]), &ns), -1);
    }
}
END_TEST

START_TEST(records_and_cases)
{
    // quoted fields (comma, doubled quote, line break), CRLF, rows of two cases interleaved
    struct iodfg_eventlog *log =
        read_text("case:concept:name,call,path,start_timestamp,end_timestamp,bytes,pid,result\r\n"
                  "b,read,\"/x,\"\"y\"\"\nz\",1970-01-01T00:00:02Z,1970-01-01T00:00:03Z,5,9,\r\n"
                  "a,write,/w,1970-01-01T00:00:01Z,,7,8,EIO\r\n"
                  "b,close,/q\\\\r\\x41,1970-01-01T00:00:01Z,1970-01-01T00:00:01.5Z,,9,\r\n",
                  NULL);
    ck_assert_msg(log != NULL, "%s", ERR.msg);
    ck_assert_uint_eq(RES.counts[IODFG_COUNT_UNPARSABLE], 0);
    ck_assert_uint_eq(iodfg_eventlog_case_count(log), 2);
    ck_assert_str_eq(str(log, iodfg_eventlog_case(log, 0)->name), "b"); // first appearance
    ck_assert_int_eq(iodfg_eventlog_case(log, 0)->clock, IODFG_CLOCK_EPOCH);
    const struct iodfg_columns *col = iodfg_eventlog_columns(log);
    const struct iodfg_key *keys = iodfg_eventlog_keys(log);
    // case b sorted by start: close (1 s) before read (2 s)
    ck_assert_str_eq(str(log, keys[col->key[0]].path), "/q\\r\x41");
    ck_assert_int_eq(col->dur_ns[0], 500000000);
    ck_assert_int_eq(col->size[0], IODFG_UNKNOWN);
    ck_assert_str_eq(str(log, keys[col->key[1]].path), "/x,\"y\"\nz");
    ck_assert_int_eq(col->start_ns[1], 2000000000);
    ck_assert_int_eq(col->size[1], 5);
    ck_assert_int_eq(col->pid[1], 9);
    ck_assert_int_eq(col->dur_ns[2], IODFG_UNKNOWN);
    ck_assert_str_eq(str(log, col->err[2]), "EIO");
    ck_assert_int_eq(col->fd[2], IODFG_NO_FD);
    iodfg_eventlog_free(log);
}
END_TEST

START_TEST(bad_rows_counted_with_position)
{
    struct iodfg_eventlog *log =
        read_text("case,activity,start,duration,bytes\n"
                  "a,x,1,0.5,2\n"
                  "a,x,1,-0.5,2\n" // line 3: negative duration at column 7
                  "a,x,1,0.5,two\n"
                  ",x,1,0.5,2\n"
                  "a,x,1\n"
                  "a,x,2024-01-01T00:00:00,0.5,2\n" // ISO after seconds in one case
                  "a,\"x,1,0.5,2\n",
                  NULL);
    ck_assert_msg(log != NULL, "%s", ERR.msg);
    ck_assert_uint_eq(RES.counts[IODFG_COUNT_EVENTS], 1);
    ck_assert_uint_eq(RES.counts[IODFG_COUNT_UNPARSABLE], 6);
    ck_assert_uint_eq(RES.diags[0].line, 3);
    ck_assert_uint_eq(RES.diags[0].col, 7);
    ck_assert_str_eq(RES.diags[0].msg, "expected a duration in seconds (0 or more), found '-0.5'");
    ck_assert_uint_eq(RES.diags[1].col, 11);
    ck_assert_str_eq(RES.diags[1].msg, "expected a number of bytes, found 'two'");
    ck_assert_str_eq(RES.diags[2].msg, "expected a case name");
    ck_assert_str_eq(RES.diags[3].msg, "expected 5 fields as in the header, found 3");
    ck_assert_uint_eq(RES.diags[4].line, 7);
    ck_assert_uint_eq(RES.diags[5].line, 8);
    ck_assert_str_eq(RES.diags[5].msg, "expected a closing quote");
    ck_assert_int_eq(iodfg_eventlog_case(log, 0)->clock, IODFG_CLOCK_RELATIVE);
    iodfg_eventlog_free(log);
}
END_TEST

/* A quote that is never closed, or closed lines later by another stray one, no longer takes the
 * rows after it: its line is counted, and reading goes on at the next line. */
START_TEST(broken_quote_loses_no_rows)
{
    struct iodfg_eventlog *log = read_text("case,activity,start\n"
                                           "a,x,1\n"
                                           "a,\"x,2\n" // line 3: never closed
                                           "a,x,3\n"
                                           "a,x,4\n",
                                           NULL);
    ck_assert_msg(log != NULL, "%s", ERR.msg);
    ck_assert_uint_eq(RES.counts[IODFG_COUNT_EVENTS], 3);
    ck_assert_uint_eq(RES.counts[IODFG_COUNT_UNPARSABLE], 1);
    ck_assert_uint_eq(RES.diags[0].line, 3);
    ck_assert_uint_eq(RES.diags[0].col, 3);
    ck_assert_str_eq(RES.diags[0].msg, "expected a closing quote on this line (the quoted field "
                                       "ran over 2 line breaks)");
    ck_assert_int_eq(iodfg_eventlog_columns(log)->start_ns[2], 4000000000LL);
    iodfg_eventlog_free(log);
    // line 3's quote closed by line 5's, which is never closed: lines 3 and 5 are unparsable,
    // 4 and 6 are rows
    log = read_text("case,activity,start\n"
                    "a,x,1\n"
                    "a,\"x,2\n"
                    "a,x,3\n"
                    "a,\"x,4\n"
                    "a,x,5\n",
                    NULL);
    ck_assert_msg(log != NULL, "%s", ERR.msg);
    ck_assert_uint_eq(RES.counts[IODFG_COUNT_EVENTS], 3);
    ck_assert_uint_eq(RES.counts[IODFG_COUNT_UNPARSABLE], 2);
    ck_assert_uint_eq(RES.diags[0].line, 3);
    ck_assert_uint_eq(RES.diags[1].line, 5);
    ck_assert_str_eq(RES.diags[1].msg, "expected a closing quote on this line (the quoted field "
                                       "ran over 1 line break)");
    iodfg_eventlog_free(log);
    // a quoted line break in a row of the right shape is data, as before
    log = read_text("case,activity,start\na,\"x\ny\",1\na,z,2\n", NULL);
    ck_assert_msg(log != NULL, "%s", ERR.msg);
    ck_assert_uint_eq(RES.counts[IODFG_COUNT_EVENTS], 2);
    ck_assert_uint_eq(RES.counts[IODFG_COUNT_UNPARSABLE], 0);
    iodfg_eventlog_free(log);
    // too few fields: the column just after the last one
    log = read_text("case,activity,start\na,x\n", NULL);
    ck_assert_uint_eq(RES.diags[0].col, 4);
    iodfg_eventlog_free(log);
}
END_TEST

START_TEST(header_and_mapping)
{
    ck_assert_ptr_null(read_text("rank,op,t\n0,read,1\n", NULL));
    ck_assert_int_eq(ERR.code, IODFG_E_PARSE);
    ck_assert_uint_eq(ERR.line, 1);
    ck_assert_ptr_nonnull(strstr(ERR.msg, "expected a header naming the case"));
    struct iodfg_csv_columns m;
    ck_assert_int_eq(iodfg_csv_columns_parse(&m, "case=rank,call=op,start=t", &ERR), 0);
    struct iodfg_eventlog *log = read_text("rank,op,t\n0,read,1\n", &m);
    ck_assert_msg(log != NULL, "%s", ERR.msg);
    ck_assert_uint_eq(iodfg_eventlog_event_count(log), 1);
    iodfg_eventlog_free(log);
    ck_assert_int_eq(iodfg_csv_columns_parse(&m, "case=rank,start=missing", &ERR), 0);
    ck_assert_ptr_null(read_text("rank,op,t\n0,read,1\n", &m));
    ck_assert_ptr_nonnull(strstr(ERR.msg, "no column named 'missing'"));
    iodfg_error_clear(&ERR);
    ck_assert_int_eq(iodfg_csv_columns_parse(&m, "case=rank,when=t", &ERR), -1);
    ck_assert_uint_eq(ERR.col, 11);
    iodfg_error_clear(&ERR);
    ck_assert_int_eq(iodfg_csv_columns_parse(&m, "case", &ERR), -1);
    ck_assert_uint_eq(ERR.col, 1);
    ck_assert_ptr_null(read_text("", NULL));
    ck_assert_ptr_nonnull(strstr(ERR.msg, "empty file"));
}
END_TEST

static Suite *suite(void)
{
    Suite *s = suite_create("csvlog");
    TCase *tc = tcase_create("core");
    tcase_add_checked_fixture(tc, begin, testutil_fixture_end);
    tcase_add_test(tc, iso_parsing);
    tcase_add_test(tc, seconds_parsing);
    tcase_add_test(tc, records_and_cases);
    tcase_add_test(tc, bad_rows_counted_with_position);
    tcase_add_test(tc, header_and_mapping);
    tcase_add_test(tc, broken_quote_loses_no_rows);
    suite_add_tcase(s, tc);
    return s;
}

int main(void)
{
    return testutil_run(suite());
}
