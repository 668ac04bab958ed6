/* SPDX-License-Identifier: MIT */
/* Unit tests: activity statistics (Sankaran et al. 2024 IV-B): rd, b, dr̄, mc with ties,
 * percentiles. */
#include "config.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "iodfg/error.h"
#include "iodfg/eventlog.h"
#include "iodfg/mapping.h"
#include "iodfg/rules.h"
#include "iodfg/stats.h"
#include "iodfg/timeline.h"

#include "../../src/engine/stats_priv.h"
#include "dfg_testlog.h"
#include "testutil.h"

static struct iodfg_eventlog *LOG;
static struct iodfg_mapping MAP;
static struct iodfg_stats ST;

static void setup(void)
{
    LOG = iodfg_eventlog_new(IODFG_COL_ANALYSIS);
    ck_assert_ptr_nonnull(LOG);
    iodfg_stats_init(&ST);
}

static void teardown(void)
{
    iodfg_stats_fini(&ST);
    tlog_map_free(&MAP);
    iodfg_eventlog_free(LOG);
}

static const struct iodfg_activity_stats *stat(const char *name)
{
    uint32_t a = tlog_act(&MAP, name);
    ck_assert_msg(a != IODFG_NO_ACTIVITY, "no activity %s", name);
    return &ST.act[a];
}

static void build(const uint8_t *case_on, int per_pid)
{
    struct iodfg_selection sel;
    struct iodfg_error err;
    iodfg_selection_all(&sel);
    sel.case_on = case_on;
    sel.per_pid = per_pid;
    iodfg_error_clear(&err);
    ck_assert_int_eq(iodfg_stats_build(&ST, LOG, &MAP, &sel, &err), 0);
}

#define T0 1700000000000000000LL
#define SW_FEW_TEST 4 /* sweeps of more flagged activities than this use the general coded path */

START_TEST(paper_ca_stats)
{
    static const uint8_t ca[6] = {1, 1, 1, 0, 0, 0};
    tlog_paper_log(LOG);
    tlog_map_fhat(&MAP, LOG);
    build(ca, 0);
    const struct iodfg_activity_stats *u = stat("read:/usr/lib");
    ck_assert_uint_eq(u->count, 9);
    ck_assert_uint_eq(u->cases, 3);
    ck_assert_int_eq(u->bytes, 9 * 832);
    ck_assert_int_eq(u->dur_sum_ns, 3 * (203 + 79 + 87) * 1000);
    // total over C_a: 3 * (203+79+87+52+40+41+44+111) us = 3 * 657 us
    ck_assert_int_eq(ST.total_dur_ns, 3 * 657000);
    ck_assert_double_eq(u->rd, (double)(3 * 369000) / (double)(3 * 657000));
    // the three cases run the same trace at the same clock times: each interval overlaps its
    // two copies exactly (equal starts), so mc = 3, first reached at the first read
    ck_assert_uint_eq(u->mc, 3);
    ck_assert_int_eq(u->mc_time_ns, (8 * 3600 + 55 * 60 + 54) * 1000000000LL + 153994000LL);
    // dr̄ of read:/proc/filesystems: events 478 B / 52 us and 0 B / 40 us (a known size of 0
    // counts), three times each
    const struct iodfg_activity_stats *p = stat("read:/proc/filesystems");
    ck_assert_uint_eq(p->dr_n, 6);
    ck_assert_double_eq_tol(p->dr_mean, 478e9 / 52000.0 / 2.0, 1e-6);
    ck_assert_double_eq_tol(p->DR, 3 * 478e9 / 52000.0 / 2.0, 1e-6);
    ck_assert_int_eq(p->dur_min_ns, 40000);
    ck_assert_int_eq(p->dur_max_ns, 52000);
    ck_assert_int_eq(p->dur_median_ns, 40000); // values 40,40,40,52,52,52: rank 3
    ck_assert_int_eq(p->dur_p95_ns, 52000);    // rank ceil(5.7) = 6
    // ls -l activities have no events in C_a
    ck_assert_uint_eq(stat("read:/etc/passwd")->count, 0);
    ck_assert_int_eq(stat("read:/etc/passwd")->dur_median_ns, IODFG_UNKNOWN);
    ck_assert_double_eq(stat("read:/etc/passwd")->rd, 0.0);
}
END_TEST

/* Intervals of one activity (µs after T0): case 1 [0,10) [10,15); case 2 [5,10) and a zero-length
 * one at 12; case 3 [9,12). At 9: [0,10) [5,10) [9,12) = 3. At 10 the two ending at 10 have
 * ended (half-open) while [10,15) starts: [9,12) [10,15) = 2. */
START_TEST(max_concurrency_ties)
{
    tlog_add_case(LOG, "c1",
                  "1 1700000000.000000 read(3</d/f>, \"\", 8) = 8 <0.000010>\n"
                  "1 1700000000.000010 read(3</d/f>, \"\", 8) = 8 <0.000005>\n");
    tlog_add_case(LOG, "c2",
                  "2 1700000000.000005 read(3</d/f>, \"\", 8) = 8 <0.000005>\n"
                  "2 1700000000.000012 read(3</d/f>, \"\", 8) = 0 <0.000000>\n");
    tlog_add_case(LOG, "c3", "3 1700000000.000009 read(3</d/f>, \"\", 8) = 8 <0.000003>\n");
    tlog_map_fhat(&MAP, LOG);
    build(NULL, 0);
    const struct iodfg_activity_stats *s = stat("read:/d/f");
    ck_assert_uint_eq(s->count, 5);
    ck_assert_uint_eq(s->cases, 3);
    ck_assert_uint_eq(s->mc, 3);
    ck_assert_int_eq(s->mc_time_ns, T0 + 9000);
    ck_assert_int_eq(s->bytes, 32);
    // rates of the events with dur > 0: 8/10us, 8/5us, 8/5us, 8/3us (the 0-dur one is left out)
    ck_assert_uint_eq(s->dr_n, 4);
    double want = (8e9 / 10000 + 8e9 / 5000 + 8e9 / 5000 + 8e9 / 3000) / 4;
    ck_assert_double_eq_tol(s->dr_mean, want, 1e-6);
    ck_assert_double_eq_tol(s->DR, 3 * want, 1e-6);
    ck_assert_int_eq(s->dur_min_ns, 0);
    ck_assert_int_eq(s->dur_max_ns, 10000);
    ck_assert_int_eq(s->dur_median_ns, 5000); // 0,3,5,5,10: rank 3
    ck_assert_int_eq(s->dur_p95_ns, 10000);
    ck_assert_double_eq(s->rd, 1.0);
}
END_TEST

START_TEST(touching_intervals_do_not_overlap)
{
    // back-to-back in different cases: [0,10) and [10,20): mc 1
    tlog_add_case(LOG, "c1", "1 1700000000.000000 read(3</d/f>, \"\", 8) = 8 <0.000010>\n");
    tlog_add_case(LOG, "c2", "2 1700000000.000010 read(3</d/f>, \"\", 8) = 8 <0.000010>\n");
    tlog_map_fhat(&MAP, LOG);
    build(NULL, 0);
    ck_assert_uint_eq(stat("read:/d/f")->mc, 1);
    ck_assert_int_eq(stat("read:/d/f")->mc_time_ns, T0);
}
END_TEST

/* Times of different clocks are never compared: a -tt case and a -r case both at time 0 are
 * not concurrent, until --align start puts both on one (relative) clock. */
START_TEST(clocks_are_never_mixed)
{
    tlog_add_case(LOG, "tod", "1 00:00:00.000000 read(3</d/f>, \"\", 8) = 8 <0.000010>\n");
    tlog_add_case(LOG, "rel", "2      0.000000 read(3</d/f>, \"\", 8) = 8 <0.000010>\n");
    ck_assert_int_eq(iodfg_eventlog_case(LOG, 0)->clock, IODFG_CLOCK_TIME_OF_DAY);
    ck_assert_int_eq(iodfg_eventlog_case(LOG, 1)->clock, IODFG_CLOCK_RELATIVE);
    ck_assert_int_eq(iodfg_eventlog_columns(LOG)->start_ns[0],
                     iodfg_eventlog_columns(LOG)->start_ns[1]);
    uint32_t n[IODFG_CLOCK__N];
    ck_assert_int_eq(iodfg_eventlog_clocks(LOG, NULL, n), 2);
    tlog_map_fhat(&MAP, LOG);
    build(NULL, 0);
    ck_assert_uint_eq(stat("read:/d/f")->mc, 1);
    ck_assert_int_eq(iodfg_eventlog_align_starts(LOG), 0);
    ck_assert_int_eq(iodfg_eventlog_clocks(LOG, NULL, n), 1);
    ck_assert_uint_eq(n[IODFG_CLOCK_RELATIVE], 2);
    build(NULL, 0);
    ck_assert_uint_eq(stat("read:/d/f")->mc, 2);
}
END_TEST

START_TEST(unknown_values)
{
    // no -T: durations unknown; a failed write has no size
    tlog_add_case(LOG, "c",
                  "1 1700000000.000000 read(3</d/f>, \"\", 8) = 8\n"
                  "1 1700000000.000010 write(3</d/f>, \"\", 8) = -1 EBADF (Bad file descriptor)\n"
                  "1 1700000000.000020 read(3</d/f>, \"\", 8) = 4\n");
    tlog_map_fhat(&MAP, LOG);
    build(NULL, 0);
    const struct iodfg_activity_stats *r = stat("read:/d/f");
    ck_assert_uint_eq(r->count, 2);
    ck_assert_uint_eq(r->dur_n, 0);
    ck_assert_int_eq(r->dur_sum_ns, 0);
    ck_assert_int_eq(r->bytes, 12);
    ck_assert_uint_eq(r->dr_n, 0);
    ck_assert_double_eq(r->dr_mean, 0.0);
    ck_assert_uint_eq(r->mc, 0);
    ck_assert_int_eq(r->dur_median_ns, IODFG_UNKNOWN);
    ck_assert_double_eq(r->rd, 0.0); // total duration 0: rd 0 rather than 0/0
    ck_assert_uint_eq(stat("write:/d/f")->count, 1);
    ck_assert_int_eq(stat("write:/d/f")->bytes, 0);
}
END_TEST

START_TEST(extreme_values_saturate)
{
    // Crafted input: 11 writes of 0.9 EB lasting 63 years each. Sums saturate instead of
    // overflowing (the sanitizer build would flag an overflow); a start past the year 2116
    // and a duration past 73 years are clamped when the events are pushed.
    char text[4096];
    size_t at = 0;
    for (int i = 0; i < 11; i++) {
        at += (size_t)snprintf(text + at, sizeof(text) - at,
                               "1 17000000%02d.000000 write(3</d/f>, \"\", 8) = "
                               "900000000000000000 <2000000000.000000>\n",
                               i);
    }
    snprintf(text + at, sizeof(text) - at,
             "1 1700000011.000000 read(3</d/f>, \"\", 8) = 8 <8999999999.000000>\n"
             "1 8999999999.000000 read(3</d/f>, \"\", 8) = 8 <0.000001>\n");
    tlog_add_case(LOG, "c", text);
    ck_assert_uint_eq(iodfg_eventlog_event_count(LOG), 13);
    const struct iodfg_columns *c = iodfg_eventlog_columns(LOG);
    ck_assert_int_eq(c->dur_ns[11], IODFG_DUR_MAX);
    ck_assert_int_eq(c->start_ns[12], IODFG_START_MAX);
    tlog_map_fhat(&MAP, LOG);
    build(NULL, 0);
    const struct iodfg_activity_stats *w = stat("write:/d/f");
    ck_assert_uint_eq(w->count, 11);
    ck_assert_int_eq(w->dur_sum_ns, INT64_MAX);
    ck_assert_int_eq(w->bytes, INT64_MAX);
    ck_assert_uint_eq(w->mc, 11);
    const struct iodfg_activity_stats *r = stat("read:/d/f");
    ck_assert_int_eq(r->dur_sum_ns, IODFG_DUR_MAX + 1000);
}
END_TEST

START_TEST(per_pid_case_count)
{
    tlog_add_case(LOG, "c",
                  "1 1700000000.000000 read(3</d/f>, \"\", 8) = 8 <0.000001>\n"
                  "2 1700000000.000010 read(3</d/f>, \"\", 8) = 8 <0.000001>\n"
                  "1 1700000000.000020 read(3</d/f>, \"\", 8) = 8 <0.000001>\n");
    tlog_map_fhat(&MAP, LOG);
    build(NULL, 0);
    ck_assert_uint_eq(stat("read:/d/f")->cases, 1);
    build(NULL, 1);
    ck_assert_uint_eq(stat("read:/d/f")->cases, 2);
}
END_TEST

static int cmp64(const void *a, const void *b)
{
    int64_t x = *(const int64_t *)a, y = *(const int64_t *)b;
    return x < y ? -1 : x > y;
}

START_TEST(percentile_nearest_rank)
{
    int64_t v[20];
    for (int i = 0; i < 20; i++) {
        v[i] = 20 - i;
    }
    ck_assert_int_eq(iodfg_stats_percentile(v, 20, 95), 19); // rank ceil(19) = 19
    ck_assert_int_eq(iodfg_stats_percentile(v, 20, 50), 10);
    ck_assert_int_eq(iodfg_stats_percentile(v, 20, 100), 20);
    ck_assert_int_eq(iodfg_stats_percentile(v, 1, 95), v[0]);
    ck_assert_int_eq(iodfg_stats_percentile(v, 0, 50), IODFG_UNKNOWN);
    // against sorting, with many duplicates
    srand(7);
    for (int round = 0; round < 200; round++) {
        size_t n = 1 + (size_t)(rand() % 300);
        int64_t *a = malloc(n * sizeof(*a)), *b = malloc(n * sizeof(*b));
        for (size_t i = 0; i < n; i++) {
            a[i] = b[i] = rand() % (round % 5 + 2);
        }
        qsort(b, n, sizeof(*b), cmp64);
        unsigned pct = (unsigned)(1 + rand() % 100);
        size_t rank = (pct * n + 99) / 100;
        ck_assert_int_eq(iodfg_stats_percentile(a, n, pct), b[rank - 1]);
        free(a);
        free(b);
    }
}
END_TEST

/* An activity of several keys (every read, by the rule `map call ~ . => {call}`): its minimum
 * and maximum duration are over all of its keys' events, the smallest in the second key. */
START_TEST(several_keys_one_activity)
{
    tlog_add_case(LOG, "c1",
                  "1 1700000000.000000 read(4</tmp/b>, \"\", 8) = 8 <0.005000>\n"
                  "1 1700000000.010000 read(3</tmp/a>, \"\", 8) = 8 <0.000100>\n"
                  "1 1700000000.020000 read(4</tmp/b>, \"\", 8) = 8 <0.006000>\n");
    struct iodfg_error err;
    iodfg_error_clear(&err);
    struct iodfg_rules *rs = iodfg_rules_new();
    const char *rules = "map call ~ . => {call}\n";
    ck_assert_int_eq(iodfg_rules_compile(rs, rules, strlen(rules), "t", &err), 0);
    struct iodfg_mapping m;
    ck_assert_int_eq(iodfg_mapping_init(&m, &err), 0);
    ck_assert_int_eq(iodfg_rules_apply(rs, LOG, NULL, &m, NULL, &err), 0);
    struct iodfg_selection sel;
    iodfg_selection_all(&sel);
    ck_assert_int_eq(iodfg_stats_build(&ST, LOG, &m, &sel, &err), 0);
    uint32_t a;
    ck_assert_int_eq(iodfg_mapping_find(&m, "read", &a), 0);
    const struct iodfg_activity_stats *r = &ST.act[a];
    ck_assert_uint_eq(r->count, 3);
    ck_assert_int_eq(r->dur_min_ns, 100000);
    ck_assert_int_eq(r->dur_max_ns, 6000000);
    ck_assert_int_eq(r->dur_median_ns, 5000000);
    ck_assert_int_eq(r->dur_sum_ns, 11100000);
    iodfg_mapping_fini(&m);
    iodfg_rules_free(rs);
}
END_TEST

/* Median and p95 of durations through the histograms of large groups (two passes: count into
 * log-spaced buckets, then select in the target buckets) equal sorting, on durations from 1 ns
 * to minutes, also with groups of one value and of equal values. */
START_TEST(percentiles_through_histograms)
{
    char *text = malloc(600 * 96);
    size_t len = 0;
    uint64_t x = 12345;
    int64_t durs[3][600];
    size_t nd[3] = {0, 0, 0};
    for (int i = 0; i < 600; i++) {
        x = x * 6364136223846793005ull + 1442695040888963407ull;
        int k = i % 3; // /x: wide range; /y: equal values; /z: one event
        if (k == 2 && i > 2) {
            k = 0;
        }
        int64_t ns =
            k == 1 ? 7000 : (int64_t)(1 + (x >> 20) % 1000000) * (int64_t)(1 + (x >> 50) % 4000);
        durs[k][nd[k]++] = ns;
        len += (size_t)sprintf(text + len, "1 %d.%09d read(3</d/%c>, \"\", 8) = 8 <%lld.%09lld>\n",
                               1700000000 + i, 0, "xyz"[k], (long long)(ns / 1000000000),
                               (long long)(ns % 1000000000));
    }
    tlog_add_case(LOG, "c1", text);
    free(text);
    tlog_map_fhat(&MAP, LOG);
    uint64_t keep = iodfg_pctl_large;
    for (int pass = 0; pass < 2; pass++) {
        iodfg_pctl_large = pass ? 1 : keep; // every group through a histogram, or none
        build(NULL, 0);
        for (int k = 0; k < 3; k++) {
            char name[16];
            snprintf(name, sizeof(name), "read:/d/%c", "xyz"[k]);
            const struct iodfg_activity_stats *s = stat(name);
            int64_t *v = malloc(nd[k] * sizeof(*v));
            memcpy(v, durs[k], nd[k] * sizeof(*v));
            qsort(v, nd[k], sizeof(*v), cmp64);
            ck_assert_msg(s->dur_median_ns == v[(50 * nd[k] + 99) / 100 - 1], "%s pass %d", name,
                          pass);
            ck_assert_msg(s->dur_p95_ns == v[(95 * nd[k] + 99) / 100 - 1], "%s pass %d", name,
                          pass);
            free(v);
        }
    }
    iodfg_pctl_large = keep;
}
END_TEST

/* The exact sweep over the timeline with per-event codes (segments swept two or four at once,
 * interleaved) against brute force, on logs whose timelines cut into 1 to 32 segments, every
 * activity, most of them or one to four of them (the sweep of a few) flagged, on one and two
 * threads. */
START_TEST(sweep_interleaved_segments)
{
    static const int sizes[] = {20, 150, 175, 200, 230, 260, 600, 1200};
    for (size_t si = 0; si < sizeof(sizes) / sizeof(sizes[0]); si++) {
        iodfg_stats_fini(&ST);
        tlog_map_free(&MAP);
        iodfg_eventlog_free(LOG);
        LOG = iodfg_eventlog_new(IODFG_COL_ANALYSIS);
        srand(100 + (unsigned)si);
        char *text = malloc((size_t)sizes[si] * 100 + 1);
        for (int c = 0; c < 3; c++) {
            size_t len = 0;
            long t = rand() % 20;
            for (int i = 0; i < sizes[si] / 3; i++) {
                t += rand() % 4;
                len += (size_t)snprintf(text + len, 100,
                                        "%d 1700000000.%06ld %s(3</d%d>) = 0 <0.%06d>\n", 10 + c, t,
                                        rand() % 2 ? "read" : "write", rand() % 5, rand() % 30);
            }
            text[len] = '\0';
            char name[16];
            snprintf(name, sizeof(name), "c%d", c);
            tlog_add_case(LOG, name, text);
        }
        free(text);
        tlog_map_fhat(&MAP, LOG);
        uint32_t na = MAP.nactivities;
        ck_assert_uint_gt(na, SW_FEW_TEST);
        struct iodfg_selection sel;
        iodfg_selection_all(&sel);
        struct iodfg_timeline tl;
        ck_assert_int_eq(iodfg_timeline_build(&tl, LOG, NULL), 0);
        uint64_t n = iodfg_eventlog_event_count(LOG);
        const struct iodfg_columns *col = iodfg_eventlog_columns(LOG);
        uint64_t *bits = malloc(((n + 63) / 64 + 1) * sizeof(*bits));
        uint16_t *codes = malloc(n * sizeof(*codes));
        uint8_t *dirty = malloc(na);
        iodfg_stats_select_bits(bits, LOG, &sel);
        // variants 0-3: every activity or all but the first (the general coded sweep), codes
        // rebuilt or kept, one or two threads; 4-7: 1 to 4 flagged activities (the few sweep)
        for (int variant = 0; variant < 8; variant++) {
            int nf = variant - 3;
            memset(dirty, variant < 4, na);
            dirty[0] = 0;
            for (int k = 0; k < nf; k++) {
                dirty[na - 1 - (uint32_t)k] = 1;
            }
            ck_assert_int_eq(iodfg_stats_resize(&ST, na, NULL), 0);
            for (uint32_t a = 0; a < na; a++) {
                ST.act[a].mc = 12345;
            }
            int flagged = variant % 2 || variant >= 4;
            ck_assert_int_eq(
                iodfg_stats_sweep(&ST, LOG, &tl, codes, variant < 2 || variant >= 4, bits,
                                  MAP.activity_of_key, flagged ? dirty : NULL, NULL, NULL,
                                  variant < 4 ? 1 + variant / 2 : 1 + variant % 2, NULL),
                0);
            for (uint32_t a = 0; a < na; a++) {
                if (flagged && !dirty[a]) {
                    continue;
                }
                uint32_t mc = 0;
                int64_t mc_t = IODFG_UNKNOWN;
                for (uint64_t e = 0; e < n; e++) {
                    if (MAP.activity_of_key[col->key[e]] != a || col->dur_ns[e] <= 0) {
                        continue;
                    }
                    int64_t t = col->start_ns[e];
                    uint32_t k = 0;
                    for (uint64_t f = 0; f < n; f++) {
                        k += MAP.activity_of_key[col->key[f]] == a && col->dur_ns[f] > 0 &&
                             col->start_ns[f] <= t && col->start_ns[f] + col->dur_ns[f] > t;
                    }
                    if (k > mc || (k == mc && t < mc_t)) {
                        mc = k;
                        mc_t = t;
                    }
                }
                ck_assert_msg(ST.act[a].mc == mc && ST.act[a].mc_time_ns == mc_t,
                              "size %d variant %d activity %u: mc %u at %lld, expected %u at %lld",
                              sizes[si], variant, a, ST.act[a].mc, (long long)ST.act[a].mc_time_ns,
                              mc, (long long)mc_t);
            }
            if (flagged) {
                ck_assert_uint_eq(ST.act[0].mc, 12345); // not flagged: left alone
            }
        }
        free(bits);
        free(codes);
        free(dirty);
        iodfg_timeline_fini(&tl);
    }
}
END_TEST

static Suite *suite(void)
{
    Suite *s = suite_create("stats");
    TCase *tc = tcase_create("core");
    tcase_add_checked_fixture(tc, setup, teardown);
    tcase_add_test(tc, paper_ca_stats);
    tcase_add_test(tc, max_concurrency_ties);
    tcase_add_test(tc, touching_intervals_do_not_overlap);
    tcase_add_test(tc, unknown_values);
    tcase_add_test(tc, clocks_are_never_mixed);
    tcase_add_test(tc, per_pid_case_count);
    tcase_add_test(tc, extreme_values_saturate);
    tcase_add_test(tc, percentile_nearest_rank);
    tcase_add_test(tc, several_keys_one_activity);
    tcase_add_test(tc, percentiles_through_histograms);
    tcase_add_test(tc, sweep_interleaved_segments);
    suite_add_tcase(s, tc);
    return s;
}

int main(void)
{
    return testutil_run(suite());
}
