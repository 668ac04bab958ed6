/* SPDX-License-Identifier: MIT */
/* Unit tests: the timeline (every interval's start and end point in time order, clock by
 * clock) against a plain sort of all points, with the merge in one piece and cut in two halves
 * merged on two threads, on logs with ties, zero and unknown durations, long calls whose ends
 * come out of order (few: each case's ends are put in order by insertion; many, from the start
 * or only late in a case: by the radix sort, after a part by insertion), several clocks, empty
 * cases, and times so far apart that the merge's one-word keys do not fit. */
#include "config.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "iodfg/error.h"
#include "iodfg/eventlog.h"
#include "iodfg/timeline.h"

#include "testutil.h"

struct point {
    int64_t t;
    uint32_t kind, e; /* kind 0 = end, 1 = start */
    int clock;
};

static int point_cmp(const void *pa, const void *pb)
{
    const struct point *a = pa, *b = pb;
    if (a->clock != b->clock) {
        return a->clock < b->clock ? -1 : 1;
    }
    if (a->t != b->t) {
        return a->t < b->t ? -1 : 1;
    }
    if (a->kind != b->kind) {
        return a->kind < b->kind ? -1 : 1;
    }
    return a->e < b->e ? -1 : a->e > b->e;
}

/* Push event i of the open case: start and dur given, the rest unknown. */
static void push(struct iodfg_eventlog *log, uint32_t key, int64_t start, int64_t dur, uint32_t i)
{
    struct iodfg_event ev = {0};
    ev.start_ns = start;
    ev.dur_ns = dur;
    ev.key = key;
    ev.size = ev.offset = ev.req = IODFG_UNKNOWN;
    ev.fd = IODFG_NO_FD;
    ck_assert_int_eq(iodfg_eventlog_push(log, &ev, i, NULL), 0);
}

/* A log of ncases cases of random sizes (some empty), clocks and durations: one event in ten
 * lasts up to long_dur, from the (long_from / 4)th quarter of each case on. */
static struct iodfg_eventlog *random_log_long(unsigned seed, uint32_t ncases, uint32_t most,
                                              int intervals, int long_dur, uint32_t long_from)
{
    srand(seed);
    struct iodfg_eventlog *log = iodfg_eventlog_new(IODFG_COL_ALL);
    uint32_t key;
    ck_assert_int_eq(iodfg_eventlog_key(log, 0, 0, &key), 0);
    for (uint32_t c = 0; c < ncases; c++) {
        struct iodfg_case_info ci;
        memset(&ci, 0, sizeof(ci));
        ci.clock = (enum iodfg_clock)(rand() % 3 == 0 ? IODFG_CLOCK_RELATIVE : IODFG_CLOCK_EPOCH);
        ck_assert_int_eq(iodfg_eventlog_begin_case(log, &ci, NULL), 0);
        uint32_t n = (uint32_t)rand() % (most + 1);
        int64_t t = rand() % 50;
        for (uint32_t i = 0; i < n; i++) {
            t += rand() % 4; // ties within and across cases
            int r = rand() % 10;
            int long_call = r == 2 && 4 * i >= long_from * n;
            int64_t dur = r == 0      ? 0
                          : r == 1    ? IODFG_UNKNOWN
                          : long_call ? rand() % long_dur
                                      : rand() % 7;
            if (!intervals) {
                dur = r % 2 ? 0 : IODFG_UNKNOWN;
            }
            push(log, key, t, dur, i);
        }
        ck_assert_int_eq(iodfg_eventlog_end_case(log, NULL), 0);
    }
    return log;
}

static struct iodfg_eventlog *random_log(unsigned seed, uint32_t ncases, uint32_t most,
                                         int intervals)
{
    return random_log_long(seed, ncases, most, intervals, 5000, 0);
}

/* The timeline of log must be the points sorted by (clock, time, end before start, event). */
static void same_as_sort(const struct iodfg_eventlog *log, uint64_t split)
{
    const struct iodfg_columns *col = iodfg_eventlog_columns(log);
    const uint64_t *off = iodfg_eventlog_case_offsets(log);
    uint64_t n = iodfg_eventlog_event_count(log);
    struct point *p = malloc((size_t)(2 * n + 1) * sizeof(*p));
    size_t np = 0;
    for (uint32_t c = 0; c < iodfg_eventlog_case_count(log); c++) {
        int clock = (int)iodfg_eventlog_case(log, c)->clock;
        for (uint64_t e = off[c]; e < off[c + 1]; e++) {
            if (col->dur_ns[e] > 0) {
                p[np++] = (struct point){col->start_ns[e], 1, (uint32_t)e, clock};
                p[np++] = (struct point){col->start_ns[e] + col->dur_ns[e], 0, (uint32_t)e, clock};
            }
        }
    }
    qsort(p, np, sizeof(*p), point_cmp);
    struct iodfg_timeline tl;
    ck_assert_int_eq(iodfg_timeline_build_split(&tl, log, split, NULL), 0);
    ck_assert_uint_eq(tl.npts, np);
    for (size_t i = 0; i < np; i++) {
        uint32_t want = p[i].e | (p[i].kind ? IODFG_PT_START : 0);
        ck_assert_msg(tl.pts[i] == want, "split %llu, point %zu: %x, expected %x",
                      (unsigned long long)split, i, tl.pts[i], want);
    }
    iodfg_timeline_fini(&tl);
    free(p);
}

START_TEST(merged_as_a_sort_would_order)
{
    const uint64_t splits[] = {UINT64_MAX, 1, 2, 3, 100};
    for (unsigned seed = 1; seed <= 12; seed++) {
        struct iodfg_eventlog *log = random_log(seed, 1 + seed % 7, seed * 40, 1);
        for (size_t s = 0; s < sizeof(splits) / sizeof(splits[0]); s++) {
            same_as_sort(log, splits[s]);
        }
        iodfg_eventlog_free(log);
    }
}
END_TEST

START_TEST(a_large_log_on_two_threads)
{
    // Large enough for iodfg_timeline_build itself to cut the merge.
    struct iodfg_eventlog *log = random_log(99, 6, 120000, 1);
    same_as_sort(log, (uint64_t)1 << 18);
    iodfg_eventlog_free(log);
}
END_TEST

START_TEST(ends_nearly_in_order_or_late_disorder)
{
    // short calls only (ends sorted by insertion), a few long ones (insertion within its
    // budget), long calls in the last quarter (insertion gives up there, the radix sort ends)
    const int long_dur[] = {7, 40, 5000};
    const uint32_t from[] = {0, 0, 3};
    for (unsigned seed = 1; seed <= 6; seed++) {
        for (size_t v = 0; v < sizeof(long_dur) / sizeof(long_dur[0]); v++) {
            struct iodfg_eventlog *log =
                random_log_long(seed, 1 + seed % 4, 3000, 1, long_dur[v], from[v]);
            same_as_sort(log, UINT64_MAX);
            same_as_sort(log, 2);
            iodfg_eventlog_free(log);
        }
    }
}
END_TEST

START_TEST(no_intervals)
{
    // Events, but none with a known duration above 0: no points.
    struct iodfg_eventlog *log = random_log(5, 3, 50, 0);
    same_as_sort(log, 1);
    iodfg_eventlog_free(log);
}
END_TEST

/* Cases far apart in time, on one clock: their range leaves no room for the runs' ranks in one
 * word (the merge then compares two-word keys); ties at the extremes of the range. */
static struct iodfg_eventlog *far_apart_log(unsigned seed)
{
    srand(seed);
    const int64_t base[] = {IODFG_START_MIN, -5, IODFG_START_MAX - 40, IODFG_START_MIN + 3};
    struct iodfg_eventlog *log = iodfg_eventlog_new(IODFG_COL_ALL);
    uint32_t key;
    ck_assert_int_eq(iodfg_eventlog_key(log, 0, 0, &key), 0);
    for (uint32_t c = 0; c < 4; c++) {
        struct iodfg_case_info ci;
        memset(&ci, 0, sizeof(ci));
        ci.clock = IODFG_CLOCK_EPOCH;
        ck_assert_int_eq(iodfg_eventlog_begin_case(log, &ci, NULL), 0);
        int64_t t = base[c];
        for (uint32_t i = 0; i < 200; i++) {
            t += rand() % 3;
            push(log, key, t, rand() % 5 == 0 ? IODFG_DUR_MAX - rand() % 3 : rand() % 6, i);
        }
        ck_assert_int_eq(iodfg_eventlog_end_case(log, NULL), 0);
    }
    return log;
}

START_TEST(times_far_apart)
{
    for (unsigned seed = 1; seed <= 4; seed++) {
        struct iodfg_eventlog *log = far_apart_log(seed);
        same_as_sort(log, UINT64_MAX);
        same_as_sort(log, 2);
        iodfg_eventlog_free(log);
    }
}
END_TEST

static Suite *timeline_suite(void)
{
    Suite *s = suite_create("timeline");
    TCase *tc = tcase_create("core");
    tcase_set_timeout(tc, 60);
    tcase_add_test(tc, merged_as_a_sort_would_order);
    tcase_add_test(tc, a_large_log_on_two_threads);
    tcase_add_test(tc, ends_nearly_in_order_or_late_disorder);
    tcase_add_test(tc, no_intervals);
    tcase_add_test(tc, times_far_apart);
    suite_add_tcase(s, tc);
    return s;
}

int main(void)
{
    return testutil_run(timeline_suite());
}
