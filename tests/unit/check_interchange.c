/* SPDX-License-Identifier: MIT */
/* Unit tests: interchange exports (times as text, streaming in bounded pieces, Perfetto tracks
 * for overlapping calls and instants for calls without a duration, flush failures). */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "iodfg/buf.h"
#include "iodfg/csvlog.h"
#include "iodfg/error.h"
#include "iodfg/eventlog.h"
#include "iodfg/interchange.h"
#include "iodfg/mapping.h"

#include "dfg_testlog.h"
#include "testutil.h"

// The text a time formatter writes for ns (static buffer).
static const char *text_of(int (*fmt)(struct iodfg_buf *, int64_t, int), int64_t ns, int digits)
{
    static char out[64];
    struct iodfg_buf b;
    iodfg_buf_init(&b);
    fmt(&b, ns, digits);
    snprintf(out, sizeof(out), "%s", b.data ? b.data : "");
    iodfg_buf_fini(&b);
    return out;
}

static const char *iso(int64_t ns, int digits)
{
    return text_of(iodfg_interchange_iso_time, ns, digits);
}

static const char *secs(int64_t ns, int digits)
{
    return text_of(iodfg_interchange_seconds, ns, digits);
}

START_TEST(iso_times)
{
    ck_assert_str_eq(iso(0, 6), "1970-01-01T00:00:00.000000+00:00");
    ck_assert_str_eq(iso(1795325941619475681LL, 9), "2026-11-22T05:39:01.619475681+00:00");
    ck_assert_str_eq(iso(1795325941619475681LL, 6), "2026-11-22T05:39:01.619475+00:00");
    ck_assert_str_eq(iso(-1, 9), "1969-12-31T23:59:59.999999999+00:00");
    ck_assert_str_eq(iso(1709208000LL * 1000000000LL, 6), "2024-02-29T12:00:00.000000+00:00");
    // a time-of-day clock past midnight stays a day count from the epoch
    ck_assert_str_eq(iso(90061000001000LL, 6), "1970-01-02T01:01:01.000001+00:00");
    // every text parses back to the same nanoseconds (over 400 years, leap days included)
    for (int64_t ns = -2208988800123456789LL; ns < 4102444800000000000LL;
         ns += 9876543210987654LL) {
        int64_t back;
        const char *t = iso(ns, 9);
        ck_assert_int_eq(iodfg_csv_parse_iso(t, strlen(t), &back), 0);
        ck_assert_int_eq(back, ns);
    }
}
END_TEST

START_TEST(seconds_text)
{
    ck_assert_str_eq(secs(1500000000, 9), "1.500000000");
    ck_assert_str_eq(secs(1500000000, 6), "1.500000");
    ck_assert_str_eq(secs(-2500, 9), "-0.000002500");
    ck_assert_str_eq(secs(INT64_MIN, 9), "-9223372036.854775808");
    int64_t back;
    ck_assert_int_eq(iodfg_csv_parse_seconds("-0.000002500", 12, &back), 0);
    ck_assert_int_eq(back, -2500);
}
END_TEST

struct sink {
    struct iodfg_buf all;
    size_t pieces, largest;
    int fail_at; /* fail the n-th piece (0 = never) */
};

static int collect(void *ctx, const char *data, size_t n, struct iodfg_error *err)
{
    struct sink *s = ctx;
    s->pieces++;
    if (s->fail_at && (int)s->pieces == s->fail_at) {
        return iodfg_error_set(err, IODFG_E_IO, "disk full (test)");
    }
    s->largest = n > s->largest ? n : s->largest;
    iodfg_buf_add(&s->all, data, n);
    return 0;
}

static struct iodfg_eventlog *LOG;
static struct iodfg_mapping MAP;
static struct iodfg_selection SEL;
static struct iodfg_interchange_source SRC;

static void setup(const char *text)
{
    LOG = iodfg_eventlog_new(IODFG_COL_ALL);
    ck_assert_ptr_nonnull(LOG);
    tlog_add_case(LOG, "c_h_1", text);
    tlog_map_fhat(&MAP, LOG);
    iodfg_selection_all(&SEL);
    SRC = (struct iodfg_interchange_source){.log = LOG, .map = &MAP, .sel = &SEL};
}

static void teardown(void)
{
    tlog_map_free(&MAP);
    iodfg_eventlog_free(LOG);
}

static size_t count(const char *hay, const char *needle)
{
    size_t n = 0;
    for (const char *p = hay; (p = strstr(p, needle)); p++) {
        n++;
    }
    return n;
}

START_TEST(streams_in_bounded_pieces)
{
    // 40,000 calls: several MiB of CSV, never held whole
    size_t n = 40000;
    struct iodfg_buf text;
    iodfg_buf_init(&text);
    for (size_t i = 0; i < n; i++) {
        iodfg_buf_addf(&text,
                       "1 00:%02zu:%02zu.%06zu write(4</scratch/some/long/path/file-%zu>, \"\", "
                       "4096) = 4096 <0.000003>\n",
                       i / 600000 % 60, i / 10000 % 60, i % 10000 * 100, i % 7);
    }
    setup(text.data);
    iodfg_buf_fini(&text);
    struct sink s = {0};
    iodfg_buf_init(&s.all);
    struct iodfg_interchange_totals tot;
    struct iodfg_error err;
    iodfg_error_clear(&err);
    ck_assert_int_eq(iodfg_interchange_write(IODFG_XCHG_CSV, &SRC, collect, &s, &tot, &err), 0);
    ck_assert_uint_eq(tot.events, n);
    ck_assert_uint_gt(s.all.len, 4u << 20);
    ck_assert_uint_ge(s.pieces, 4);
    ck_assert_uint_le(s.largest, (1u << 20) + 4096); // a piece is 1 MiB plus at most one row
    ck_assert_uint_eq(count(s.all.data, "\n"), n + 1);
    iodfg_buf_fini(&s.all);
    teardown();
}
END_TEST

START_TEST(flush_failure_stops)
{
    setup("1 00:00:00.000001 read(3</a>, \"\", 1) = 1 <0.000010>\n");
    struct sink s = {.fail_at = 1};
    iodfg_buf_init(&s.all);
    struct iodfg_error err;
    iodfg_error_clear(&err);
    ck_assert_int_eq(iodfg_interchange_write(IODFG_XCHG_XES, &SRC, collect, &s, NULL, &err), -1);
    ck_assert_str_eq(err.msg, "disk full (test)"); // the callback's reason is kept
    iodfg_buf_fini(&s.all);
    teardown();
}
END_TEST

START_TEST(perfetto_tracks_and_instants)
{
    // the second read starts before the first ends (rounding, or a merged pair): its own track;
    // the third has no duration: an instant, not a slice of invented length
    setup("1 00:00:00.000001 read(3</a>, \"\", 1) = 1 <0.000010>\n"
          "1 00:00:00.000005 read(3</a>, \"\", 1) = 1 <0.000002>\n"
          "1 00:00:00.000020 read(3</a>, \"\", 1) = 1\n"
          "2 00:00:00.000006 write(4</b>, \"\", 1) = 1 <0.000001>\n");
    struct sink s = {0};
    iodfg_buf_init(&s.all);
    struct iodfg_interchange_totals tot;
    struct iodfg_error err;
    iodfg_error_clear(&err);
    ck_assert_int_eq(iodfg_interchange_write(IODFG_XCHG_PERFETTO, &SRC, collect, &s, &tot, &err),
                     0);
    const char *j = s.all.data;
    ck_assert_uint_eq(tot.lanes, 1);
    ck_assert_uint_eq(tot.unknown_dur, 1);
    ck_assert_uint_eq(tot.traces, 2); // a track per pid
    ck_assert_uint_eq(tot.cases, 1);
    ck_assert_ptr_nonnull(strstr(j,
                                 "\"tid\":1073741824,\"name\":\"thread_name\",\"args\":{\"name\":"
                                 "\"pid 1 (overlapping calls)\"}"));
    ck_assert_ptr_nonnull(
        strstr(j, "{\"ph\":\"X\",\"pid\":1,\"tid\":1073741824,\"ts\":5,\"dur\":2,"));
    ck_assert_ptr_nonnull(strstr(j, "{\"ph\":\"i\",\"s\":\"t\",\"pid\":1,\"tid\":1,\"ts\":20,"));
    ck_assert_ptr_nonnull(strstr(j, "{\"ph\":\"X\",\"pid\":1,\"tid\":2,\"ts\":6,\"dur\":1,"));
    ck_assert_uint_eq(count(j, "\"process_name\""), 1);
    iodfg_buf_fini(&s.all);
    teardown();
}
END_TEST

START_TEST(format_names)
{
    enum iodfg_interchange_format f;
    ck_assert_int_eq(iodfg_interchange_format_parse("xes", &f), 0);
    ck_assert_int_eq(f, IODFG_XCHG_XES);
    ck_assert_str_eq(iodfg_interchange_format_name(IODFG_XCHG_PERFETTO), "perfetto");
    ck_assert_int_eq(iodfg_interchange_format_parse("parquet", &f), -1);
}
END_TEST

static Suite *suite(void)
{
    Suite *s = suite_create("interchange");
    TCase *tc = tcase_create("core");
    tcase_set_timeout(tc, 60);
    tcase_add_test(tc, iso_times);
    tcase_add_test(tc, seconds_text);
    tcase_add_test(tc, streams_in_bounded_pieces);
    tcase_add_test(tc, flush_failure_stops);
    tcase_add_test(tc, perfetto_tracks_and_instants);
    tcase_add_test(tc, format_names);
    suite_add_tcase(s, tc);
    return s;
}

int main(void)
{
    return testutil_run(suite());
}
