/* SPDX-License-Identifier: MIT */
/* Unit tests: the heatmap (rows by time bins): calls split by time, bytes spread over their
 * duration with exact sums, zero-duration calls, zoomed windows, aggregated rows and bands, the
 * focus, the clock, peak concurrency against the statistics' mc, TSV and JSON; and on the real
 * IOR runs, per-case bytes against `iodfg stats --format tsv`. */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "iodfg/buf.h"
#include "iodfg/error.h"
#include "iodfg/eventlog.h"
#include "iodfg/heatmap.h"
#include "iodfg/mapping.h"
#include "iodfg/picture.h"
#include "iodfg/session.h"
#include "iodfg/stats.h"
#include "iodfg/strpool.h"
#include "iodfg/timeline.h"

#include "dfg_testlog.h"
#include "picture_test.h"
#include "testutil.h"

static struct iodfg_eventlog *LOG;
static struct iodfg_mapping MAP;
static struct iodfg_heatmap HM;
static struct iodfg_selection SEL;
static struct iodfg_picture_input IN;
static struct iodfg_heatmap_opts OPT;

static void setup(void)
{
    LOG = iodfg_eventlog_new(IODFG_COL_ALL);
    ck_assert_ptr_nonnull(LOG);
    iodfg_heatmap_init(&HM);
    iodfg_selection_all(&SEL);
    memset(&IN, 0, sizeof(IN));
    IN.log = LOG;
    IN.map = &MAP;
    IN.sel = &SEL;
    memset(&OPT, 0, sizeof(OPT));
    MAP.activity_of_key = NULL;
}

static void teardown(void)
{
    iodfg_heatmap_fini(&HM);
    if (MAP.activity_of_key) {
        tlog_map_free(&MAP);
    }
    iodfg_eventlog_free(LOG);
}

static void build(void)
{
    struct iodfg_error err;
    iodfg_error_clear(&err);
    ck_assert_msg(iodfg_heatmap_build(&HM, &IN, &OPT, &err) == 0, "%s", err.msg);
}

static int64_t cell(uint32_t r, uint32_t b, enum iodfg_heatmap_metric m)
{
    return iodfg_heatmap_cell(&HM, r, b, m);
}

/* 1.000000: a 30 us write of 1000 bytes; a read of 7 bytes lasting 0; a 10 us write of 10. */
static const char small_trace[] = "1 00:00:01.000000 write(3</d/f>, \"\", 1000) = 1000 <0.000030>\n"
                                  "1 00:00:01.000010 read(3</d/f>, \"\", 7) = 7 <0.000000>\n"
                                  "1 00:00:01.000050 write(3</d/f>, \"\", 10) = 10 <0.000010>\n";

START_TEST(split_by_time_and_spread)
{
    tlog_add_case(LOG, "A", small_trace);
    tlog_map_fhat(&MAP, LOG);
    OPT.nbins = 6; // the default window: the span 1.000000 .. 1.000060, bins of 10 us
    build();
    ck_assert_int_eq(HM.from_ns, 1000000000);
    ck_assert_int_eq(HM.to_ns, 1000060000);
    ck_assert_uint_eq(HM.nrows, 1);
    // the first write: 1000 bytes over 3 bins by cumulative shares 333, 666, 1000
    ck_assert_int_eq(cell(0, 0, IODFG_HM_BYTES), 333);
    ck_assert_int_eq(cell(0, 1, IODFG_HM_BYTES), 333 + 7); // + the zero-duration read
    ck_assert_int_eq(cell(0, 2, IODFG_HM_BYTES), 334);
    ck_assert_int_eq(cell(0, 5, IODFG_HM_BYTES), 10);
    for (uint32_t b = 0; b < 3; b++) {
        ck_assert_int_eq(cell(0, b, IODFG_HM_BUSY), 10000);
    }
    ck_assert_int_eq(cell(0, 3, IODFG_HM_BUSY), 0);
    ck_assert_int_eq(cell(0, 5, IODFG_HM_BUSY), 10000);
    // calls count in their start bin
    ck_assert_int_eq(cell(0, 0, IODFG_HM_CALLS), 1);
    ck_assert_int_eq(cell(0, 1, IODFG_HM_CALLS), 1);
    ck_assert_int_eq(cell(0, 2, IODFG_HM_CALLS), 0);
    ck_assert_int_eq(cell(0, 5, IODFG_HM_CALLS), 1);
    ck_assert_int_eq(HM.bytes_total, 1017);
    ck_assert_int_eq(HM.busy_total_ns, 40000);
    ck_assert_uint_eq(HM.calls_total, 3);
    ck_assert_uint_eq(HM.zero_dur, 1);
    ck_assert_int_eq(HM.max_cell[IODFG_HM_BYTES], 340);
    ck_assert_int_eq(HM.row[0].bytes, 1017);
    ck_assert_str_eq(iodfg_heatmap_src_name(&HM, 0), "A");
}
END_TEST

/* A zoomed window cuts calls at its edges: only the parts inside count, calls only when they
 * start inside, and a zero-duration call only when its instant is inside. */
START_TEST(zoomed_window_cuts_calls)
{
    tlog_add_case(LOG, "A", small_trace);
    tlog_map_fhat(&MAP, LOG);
    OPT.from_ns = 1000015000;
    OPT.to_ns = 1000055000;
    OPT.nbins = 4;
    build();
    // bins of 10 us from 15 us: the first write's part [15, 25) of its 30 us takes
    // floor(1000 * 25 / 30) - floor(1000 * 15 / 30) bytes, its part [25, 30) the rest
    ck_assert_int_eq(cell(0, 0, IODFG_HM_BYTES), 833 - 500);
    ck_assert_int_eq(cell(0, 1, IODFG_HM_BYTES), 1000 - 833);
    ck_assert_int_eq(cell(0, 0, IODFG_HM_BUSY), 10000);
    ck_assert_int_eq(cell(0, 1, IODFG_HM_BUSY), 5000);
    ck_assert_int_eq(cell(0, 0, IODFG_HM_CALLS), 0); // started before the window
    ck_assert_int_eq(cell(0, 3, IODFG_HM_BYTES), 5); // half of the last write
    ck_assert_int_eq(cell(0, 3, IODFG_HM_CALLS), 1);
    ck_assert_uint_eq(HM.events_outside, 1); // the read at 10 us
    ck_assert_int_eq(HM.bytes_total, 500 + 5);
    ck_assert_int_eq(HM.span_from_ns, 1000000000); // the whole span, for a zoom reset
    ck_assert_int_eq(HM.span_to_ns, 1000060000);
}
END_TEST

START_TEST(bin_edges_cover_the_window)
{
    tlog_add_case(LOG, "A", small_trace);
    tlog_map_fhat(&MAP, LOG);
    OPT.from_ns = 7;
    OPT.to_ns = 7 + 1000;
    OPT.nbins = 7; // widths 142 or 143
    build();
    ck_assert_int_eq(HM.edge[0], 7);
    ck_assert_int_eq(HM.edge[7], 1007);
    for (uint32_t i = 0; i < 7; i++) {
        int64_t w = HM.edge[i + 1] - HM.edge[i];
        ck_assert(w == 142 || w == 143);
    }
    for (int64_t t = 0; t < 1020; t++) {
        long b = iodfg_heatmap_bin_of(&HM, t);
        if (t < 7 || t >= 1007) {
            ck_assert_int_eq(b, -1);
        } else {
            ck_assert(HM.edge[b] <= t && t < HM.edge[b + 1]);
        }
    }
}
END_TEST

/* A window wider than int64 nanoseconds is refused, not wrapped. */
START_TEST(window_too_wide)
{
    tlog_add_case(LOG, "A", small_trace);
    tlog_map_fhat(&MAP, LOG);
    OPT.from_ns = INT64_MIN;
    OPT.to_ns = INT64_MAX;
    struct iodfg_error err;
    iodfg_error_clear(&err);
    ck_assert_int_eq(iodfg_heatmap_build(&HM, &IN, &OPT, &err), -1);
    ck_assert_int_eq(err.code, IODFG_E_ARG);
    OPT.from_ns = -5; // a window before the events: all outside, nothing lost
    OPT.to_ns = 5;
    build();
    ck_assert_uint_eq(HM.nbins, 10);
    ck_assert_uint_eq(HM.events_outside, 3);
    ck_assert_int_eq(HM.bytes_total, 0);
}
END_TEST

START_TEST(share_is_exact)
{
    ck_assert_int_eq(iodfg_heatmap_share(1000, 10, 30), 333);
    ck_assert_int_eq(iodfg_heatmap_share(1000, 30, 30), 1000);
    ck_assert_int_eq(iodfg_heatmap_share(1000, 0, 30), 0);
    int64_t p62 = (int64_t)1 << 62, p61 = (int64_t)1 << 61;
    ck_assert_int_eq(iodfg_heatmap_share(p62, p61 - 1, p61), p62 - 2);
    ck_assert_int_eq(iodfg_heatmap_share(INT64_MAX, p61 - 1, p61), INT64_MAX - 4);
    ck_assert_int_eq(iodfg_heatmap_share(3, 1, 2), 1);
}
END_TEST

/* Random calls on random grids: bytes add up exactly to each call's part inside the window,
 * busy time to its overlap, calls to those starting inside. */
static void push(struct iodfg_eventlog *log, uint32_t key, int64_t s, int64_t d, int64_t size,
                 uint64_t seq)
{
    struct iodfg_event ev = {.start_ns = s,
                             .dur_ns = d,
                             .size = size,
                             .offset = IODFG_UNKNOWN,
                             .req = IODFG_UNKNOWN,
                             .key = key,
                             .pid = 1,
                             .fd = 3};
    struct iodfg_error err;
    ck_assert_int_eq(iodfg_eventlog_push(log, &ev, seq, &err), 0);
}

static uint32_t test_key(struct iodfg_eventlog *log, const char *call, const char *path)
{
    struct iodfg_strpool *pool = iodfg_eventlog_pool(log);
    uint32_t c, p, k;
    ck_assert_int_eq(iodfg_strpool_intern(pool, call, strlen(call), &c), 0);
    ck_assert_int_eq(iodfg_strpool_intern(pool, path, strlen(path), &p), 0);
    ck_assert_int_eq(iodfg_eventlog_key(log, c, p, &k), 0);
    return k;
}

static void begin_case(struct iodfg_eventlog *log, const char *name, const char *host,
                       enum iodfg_clock clock)
{
    struct iodfg_case_info info;
    memset(&info, 0, sizeof(info));
    struct iodfg_strpool *pool = iodfg_eventlog_pool(log);
    ck_assert_int_eq(iodfg_strpool_intern(pool, name, strlen(name), &info.name), 0);
    ck_assert_int_eq(iodfg_strpool_intern(pool, host, strlen(host), &info.host), 0);
    info.clock = clock;
    struct iodfg_error err;
    ck_assert_int_eq(iodfg_eventlog_begin_case(log, &info, &err), 0);
}

static void end_case(struct iodfg_eventlog *log)
{
    struct iodfg_error err;
    ck_assert_int_eq(iodfg_eventlog_end_case(log, &err), 0);
}

START_TEST(random_sums_are_exact)
{
    srand(1234 + (unsigned)_i);
    uint32_t k = test_key(LOG, "write", "/d/f");
    int64_t s[200], d[200], z[200];
    begin_case(LOG, "A", "h", IODFG_CLOCK_TIME_OF_DAY);
    for (int i = 0; i < 200; i++) {
        s[i] = rand() % 100000;
        d[i] = rand() % 4 == 0 ? 0 : rand() % 30000;
        z[i] = rand() % 3 == 0 ? (int64_t)rand() * 9973 : rand() % 5000;
        push(LOG, k, s[i], d[i], z[i], (uint64_t)i);
    }
    end_case(LOG);
    tlog_map_fhat(&MAP, LOG);
    for (int round = 0; round < 20; round++) {
        OPT.nbins = 1 + (uint32_t)(rand() % 300);
        OPT.from_ns = rand() % 2 ? 0 : rand() % 120000;
        OPT.to_ns = OPT.from_ns + 1 + rand() % 140000;
        if (round == 0) {
            OPT.from_ns = OPT.to_ns = 0; // the span: everything inside
        }
        build();
        int64_t want_b = 0, want_t = 0;
        uint64_t want_c = 0;
        for (int i = 0; i < 200; i++) {
            int64_t e = s[i] + d[i];
            if (d[i] == 0) {
                if (s[i] >= HM.from_ns && s[i] < HM.to_ns) {
                    want_b += z[i], want_c++;
                }
                continue;
            }
            int64_t lo = s[i] > HM.from_ns ? s[i] : HM.from_ns, hi = e < HM.to_ns ? e : HM.to_ns;
            if (lo < hi) {
                want_t += hi - lo;
                want_b += iodfg_heatmap_share(z[i], hi - s[i], d[i]) -
                          iodfg_heatmap_share(z[i], lo - s[i], d[i]);
            }
            want_c += s[i] >= HM.from_ns && s[i] < HM.to_ns;
        }
        int64_t got_b = 0, got_t = 0, got_c = 0;
        for (uint32_t b = 0; b < HM.nbins; b++) {
            got_b += cell(0, b, IODFG_HM_BYTES);
            got_t += cell(0, b, IODFG_HM_BUSY);
            got_c += cell(0, b, IODFG_HM_CALLS);
        }
        ck_assert_int_eq(got_b, want_b);
        ck_assert_int_eq(got_t, want_t);
        ck_assert_int_eq(got_c, (int64_t)want_c);
        if (round == 0) {
            int64_t all = 0;
            for (int i = 0; i < 200; i++) {
                all += z[i];
            }
            ck_assert_int_eq(got_b, all);
        }
    }
}
END_TEST

/* Ten cases, four rows at most: three cases a row (3, 3, 3, 1); with G of three and R of seven,
 * one G row and three R rows, never mixing the bands. */
START_TEST(rows_aggregate_and_bands)
{
    uint32_t k = test_key(LOG, "write", "/d/f");
    for (int c = 0; c < 10; c++) {
        char name[16];
        snprintf(name, sizeof(name), "r%d", c);
        begin_case(LOG, name, c < 5 ? "n1" : "n2", IODFG_CLOCK_TIME_OF_DAY);
        push(LOG, k, 100 * c, 10, c + 1, 0);
        end_case(LOG);
    }
    tlog_map_fhat(&MAP, LOG);
    OPT.max_rows = 4;
    OPT.nbins = 10;
    build();
    ck_assert_uint_eq(HM.per_row, 3);
    ck_assert_uint_eq(HM.nrows, 4);
    ck_assert_uint_eq(HM.row[3].count, 1);
    ck_assert_int_eq(HM.row[0].bytes, 1 + 2 + 3);
    ck_assert_int_eq(HM.row[3].bytes, 10);
    struct iodfg_buf b;
    iodfg_buf_init(&b);
    iodfg_heatmap_row_label(&HM, 0, &b);
    ck_assert_str_eq(b.data, "r0 .. r2 (3)");
    iodfg_buf_fini(&b);
    uint8_t g[10] = {1, 1, 1, 0, 0, 0, 0, 0, 0, 0}, r[10] = {0, 0, 0, 1, 1, 1, 1, 1, 1, 1};
    IN.group[0] = g;
    IN.group[1] = r;
    build();
    ck_assert_uint_eq(HM.nbands, 2);
    ck_assert_uint_eq(HM.band_rows[0], 1);
    ck_assert_uint_eq(HM.band_rows[1], 3);
    ck_assert_uint_eq(HM.row[0].band, 0);
    ck_assert_int_eq(HM.row[0].bytes, 6);
    ck_assert_uint_eq(HM.row[1].band, 1);
    ck_assert_int_eq(HM.row[1].bytes, 4 + 5 + 6);
    // cases in neither group are left out and counted
    r[9] = 0;
    build();
    ck_assert_uint_eq(HM.outside_groups, 1);
    ck_assert_int_eq(HM.bytes_total, 45);
    // hosts: n1 and n2, in G and R
    OPT.by = IODFG_HEATMAP_HOST;
    OPT.max_rows = 0;
    IN.group[0] = IN.group[1] = NULL;
    build();
    ck_assert_uint_eq(HM.nrows, 2);
    ck_assert_str_eq(iodfg_heatmap_src_name(&HM, 0), "n1");
    ck_assert_int_eq(HM.row[0].bytes, 15);
    ck_assert_int_eq(HM.row[1].bytes, 40);
}
END_TEST

/* The focus (act_on) and the mapping decide what counts; the selection's cases and window too. */
START_TEST(focus_and_selection)
{
    tlog_add_case(LOG, "A",
                  "1 00:00:01.000000 write(3</d/f>, \"\", 100) = 100 <0.000010>\n"
                  "1 00:00:01.000020 read(4</proc/x>, \"\", 50) = 50 <0.000010>\n"
                  "1 00:00:01.000040 write(3</d/f>, \"\", 1) = 1 <0.000010>\n");
    tlog_add_case(LOG, "B", "1 00:00:01.000000 write(3</d/f>, \"\", 7) = 7 <0.000010>\n");
    tlog_map_fhat(&MAP, LOG);
    uint8_t *on = calloc(MAP.nactivities + 1, 1);
    on[tlog_act(&MAP, "write:/d/f")] = 1;
    IN.act_on = on;
    build();
    ck_assert_int_eq(HM.bytes_total, 108);
    uint8_t cases[2] = {1, 0};
    SEL.case_on = cases;
    SEL.from_ns = 1000010000; // starts in [1.00001, 2)
    SEL.to_ns = 2000000000;
    build();
    ck_assert_uint_eq(HM.nrows, 1);
    ck_assert_int_eq(HM.bytes_total, 1);
    ck_assert_int_eq(HM.from_ns, 1000040000);
    free(on);
}
END_TEST

/* Cases of another clock are not on the time axis: left out and counted. */
START_TEST(one_clock)
{
    uint32_t k = test_key(LOG, "write", "/d/f");
    begin_case(LOG, "a", "h", IODFG_CLOCK_TIME_OF_DAY);
    push(LOG, k, 100, 10, 5, 0);
    end_case(LOG);
    begin_case(LOG, "b", "h", IODFG_CLOCK_TIME_OF_DAY);
    push(LOG, k, 200, 10, 6, 0);
    end_case(LOG);
    begin_case(LOG, "c", "h", IODFG_CLOCK_RELATIVE);
    push(LOG, k, 5, 10, 7, 0);
    end_case(LOG);
    tlog_map_fhat(&MAP, LOG);
    build();
    ck_assert_int_eq(HM.clock, IODFG_CLOCK_TIME_OF_DAY);
    ck_assert_uint_eq(HM.clock_dropped, 1);
    ck_assert_uint_eq(HM.nrows, 2);
    ck_assert_int_eq(HM.bytes_total, 11);
}
END_TEST

/* Peaks: three overlapping calls; the count carried into later bins; half-open intervals. */
/* The log's time order, for peaks (freed by the caller). */
static void with_timeline(struct iodfg_timeline *tl)
{
    struct iodfg_error err;
    ck_assert_int_eq(iodfg_timeline_build(tl, LOG, &err), 0);
    IN.tl = tl;
}

START_TEST(peaks_per_bin)
{
    uint32_t k = test_key(LOG, "write", "/d/f");
    begin_case(LOG, "a", "h", IODFG_CLOCK_TIME_OF_DAY);
    push(LOG, k, 0, 100, 1, 0);  // [0, 100)
    push(LOG, k, 10, 20, 1, 1);  // [10, 30)
    push(LOG, k, 30, 40, 1, 2);  // [30, 70): meets the previous one, no overlap
    push(LOG, k, 35, 0, 1, 3);   // an instant: no interval
    push(LOG, k, 100, 50, 1, 4); // [100, 150): starts as the first ends
    end_case(LOG);
    tlog_map_fhat(&MAP, LOG);
    struct iodfg_timeline tl;
    with_timeline(&tl);
    OPT.from_ns = 0;
    OPT.to_ns = 200;
    OPT.nbins = 10; // bins of 20 ns
    build();
    static const uint32_t want[10] = {2, 2, 2, 2, 1, 1, 1, 1, 0, 0};
    for (int b = 0; b < 10; b++) {
        ck_assert_msg(HM.peak[b] == want[b], "bin %d: %u", b, HM.peak[b]);
    }
    ck_assert_uint_eq(HM.row[0].peak, 2);
    // a window starting inside the calls carries their count in
    OPT.from_ns = 40;
    OPT.to_ns = 60;
    OPT.nbins = 2;
    build();
    ck_assert_uint_eq(HM.peak[0], 2);
    ck_assert_uint_eq(HM.peak[1], 2);
    iodfg_timeline_fini(&tl);
}
END_TEST

/* Activity rows: the highest peak of each row is the statistics' mc, its bytes and busy time
 * the statistics' bytes and duration sum (random overlapping calls on three activities). */
START_TEST(activity_rows_match_stats)
{
    srand(77);
    uint32_t keys[3] = {test_key(LOG, "write", "/d/f"), test_key(LOG, "read", "/d/f"),
                        test_key(LOG, "lseek", "/d/f")};
    for (int c = 0; c < 4; c++) {
        begin_case(LOG, c ? "b" : "a", "h", IODFG_CLOCK_TIME_OF_DAY);
        for (int i = 0; i < 300; i++) {
            push(LOG, keys[rand() % 3], rand() % 50000, rand() % 5 ? rand() % 3000 : 0,
                 rand() % 4096, (uint64_t)i);
        }
        end_case(LOG);
    }
    tlog_map_fhat(&MAP, LOG);
    struct iodfg_timeline tl;
    with_timeline(&tl);
    OPT.by = IODFG_HEATMAP_ACTIVITY;
    OPT.nbins = 37;
    build();
    struct iodfg_stats st;
    struct iodfg_error err;
    iodfg_stats_init(&st);
    ck_assert_int_eq(iodfg_stats_build(&st, LOG, &MAP, &SEL, &err), 0);
    ck_assert_uint_eq(HM.nrows, 3);
    for (uint32_t r = 0; r < HM.nrows; r++) {
        const struct iodfg_activity_stats *a = &st.act[HM.src[HM.row[r].first].id];
        ck_assert_uint_eq(HM.row[r].peak, a->mc);
        ck_assert_int_eq(HM.row[r].bytes, a->bytes);
        ck_assert_int_eq(HM.row[r].busy_ns, a->dur_sum_ns);
        ck_assert_uint_eq(HM.row[r].calls, a->count);
    }
    iodfg_stats_fini(&st);
    iodfg_timeline_fini(&tl);
}
END_TEST

START_TEST(tsv_and_json)
{
    tlog_add_case(LOG, "A\t\"<x>\"", small_trace);
    tlog_map_fhat(&MAP, LOG);
    OPT.nbins = 3;
    build();
    struct iodfg_buf b;
    iodfg_buf_init(&b);
    ck_assert_int_eq(iodfg_heatmap_tsv(&b, &HM), 0);
    ck_assert_str_eq(b.data,
                     "case\tband\tmembers\tbin\tfrom_ns\tto_ns\tbytes\tbusy_ns\tcalls\tpeak\n"
                     "A\\t\"<x>\"\t\t1\t0\t1000000000\t1000020000\t673\t20000\t2\t\n"
                     "A\\t\"<x>\"\t\t1\t1\t1000020000\t1000040000\t334\t10000\t0\t\n"
                     "A\\t\"<x>\"\t\t1\t2\t1000040000\t1000060000\t10\t10000\t1\t\n");
    iodfg_buf_clear(&b);
    struct iodfg_picture_meta meta = {.log_name = "run.h5", .filters = "cid=a"};
    ck_assert_int_eq(iodfg_heatmap_json(&b, &HM, &meta), 0);
    ck_assert_ptr_nonnull(strstr(b.data, "\"log\":\"run.h5\",\"filters\":\"cid=a\""));
    ck_assert_ptr_nonnull(strstr(b.data, "\"bytes\":[673,334,10]"));
    ck_assert_ptr_nonnull(strstr(b.data, "\"members\":[\"A\\t\\\"<x>\\\"\"]"));
    pic_json_ok(b.data, b.len);
    iodfg_buf_fini(&b);
}
END_TEST

/* The sum of a stats TSV's bytes column. */
static int64_t stats_bytes(const char *h5, const char *pred)
{
    char cmd[9000];
    snprintf(cmd, sizeof(cmd), "'%s' stats --format tsv --quiet --case '%s' '%s'",
             getenv("IODFG_BIN"), pred, h5);
    char *out = pic_run_command(cmd);
    int64_t sum = 0;
    int col = -1;
    for (char *line = strtok(out, "\n"); line; line = strtok(NULL, "\n")) {
        char *f = line, *t;
        for (int i = 0; f; i++, f = t ? t + 1 : NULL) {
            t = strchr(f, '\t');
            if (col < 0 && !strncmp(f, "bytes\t", 6)) {
                col = i;
            } else if (i == col && col >= 0 && line != out) {
                sum += strtoll(f, NULL, 10);
            }
        }
    }
    free(out);
    ck_assert_int_ge(col, 0);
    return sum;
}

/* The real IOR runs: every case's row holds the bytes `iodfg stats` gives for that case, and
 * the bins add up to them exactly. */
START_TEST(real_ior_bytes_match_stats)
{
    static const char *const cids[] = {"posixssf", "posixfpp", "mpiiossf", "mpiiofpp"};
    struct pic_run run;
    pic_run_open(&run, cids[_i], NULL);
    IN = run.in;
    OPT.nbins = 150;
    build();
    ck_assert_uint_eq(HM.nrows, 4);
    ck_assert_uint_eq(HM.events_outside, 0);
    int64_t io = 0;
    for (uint32_t r = 0; r < HM.nrows; r++) {
        const char *name = iodfg_heatmap_src_name(&HM, HM.row[r].first);
        char pred[256];
        snprintf(pred, sizeof(pred), "name=%s", name);
        int64_t want = stats_bytes(run.h5, pred), got = 0;
        for (uint32_t b = 0; b < HM.nbins; b++) {
            got += cell(r, b, IODFG_HM_BYTES);
        }
        ck_assert_msg(got == want, "%s: %lld bytes, stats %lld", name, (long long)got,
                      (long long)want);
        ck_assert_int_eq(HM.row[r].bytes, want);
        io += want;
    }
    ck_assert_int_eq(HM.bytes_total, io);
    ck_assert_int_ge(io, 2 * 1048576); // the data file written and read back at least
    iodfg_heatmap_fini(&HM);           // before the log it was built over
    pic_run_close(&run);
}
END_TEST

static Suite *heatmap_suite(void)
{
    Suite *s = suite_create("heatmap");
    TCase *tc = tcase_create("core");
    tcase_add_checked_fixture(tc, setup, teardown);
    tcase_add_test(tc, split_by_time_and_spread);
    tcase_add_test(tc, zoomed_window_cuts_calls);
    tcase_add_test(tc, bin_edges_cover_the_window);
    tcase_add_test(tc, share_is_exact);
    tcase_add_test(tc, window_too_wide);
    tcase_add_loop_test(tc, random_sums_are_exact, 0, 5);
    tcase_add_test(tc, rows_aggregate_and_bands);
    tcase_add_test(tc, focus_and_selection);
    tcase_add_test(tc, one_clock);
    tcase_add_test(tc, peaks_per_bin);
    tcase_add_test(tc, activity_rows_match_stats);
    tcase_add_test(tc, tsv_and_json);
    suite_add_tcase(s, tc);
    TCase *real = tcase_create("real");
    tcase_add_checked_fixture(real, setup, teardown);
    tcase_add_loop_test(real, real_ior_bytes_match_stats, 0, 4);
    suite_add_tcase(s, real);
    return s;
}

int main(void)
{
    return testutil_run(heatmap_suite());
}
