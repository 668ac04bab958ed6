/* SPDX-License-Identifier: MIT */
/* Unit tests: Wright et al. 2013's perceived/effective bandwidth, time shares, the stair-case index
 * and the stacked-bar cells, with hand-computed values. */
#include "config.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "iodfg/bandwidth.h"
#include "iodfg/buf.h"
#include "iodfg/cancel.h"
#include "iodfg/error.h"
#include "iodfg/eventlog.h"
#include "iodfg/mapping.h"
#include "iodfg/strpool.h"

#include "dfg_testlog.h"
#include "testutil.h"

#define EPS 1e-9

static struct iodfg_eventlog *LOG;
static struct iodfg_mapping MAP;
static struct iodfg_selection SEL;

static void setup(void)
{
    LOG = iodfg_eventlog_new(IODFG_COL_ALL);
    ck_assert_ptr_nonnull(LOG);
    iodfg_selection_all(&SEL);
    memset(&MAP, 0, sizeof(MAP));
}

static void teardown(void)
{
    tlog_map_free(&MAP);
    iodfg_eventlog_free(LOG);
}

static uint32_t call_index(const struct iodfg_bandwidth *bw, const char *name)
{
    const struct iodfg_strpool *pool = iodfg_eventlog_pool(LOG);
    for (uint32_t i = 0; i < bw->ncalls; i++) {
        if (strcmp(iodfg_strpool_get(pool, bw->call_name[i]), name) == 0) {
            return i;
        }
    }
    ck_abort_msg("no call %s", name);
    return 0;
}

START_TEST(test_bandwidth)
{
    tlog_add_case(LOG, "A",
                  "1 00:00:01.000000 write(3</d/f>, \"\", 100) = 100 <0.500000>\n"
                  "1 00:00:02.000000 read(3</d/f>, \"\", 50) = 50 <0.000000>\n");
    tlog_add_case(LOG, "B", "2 00:00:01.250000 write(4</d/g>, \"\", 300) = 300 <1.000000>\n");
    tlog_map_fhat(&MAP, LOG);
    struct iodfg_bandwidth bw;
    struct iodfg_error err;
    iodfg_bandwidth_init(&bw);
    iodfg_error_clear(&err);
    ck_assert_int_eq(iodfg_bandwidth_build(&bw, LOG, &MAP, &SEL, &err), 0);
    const struct iodfg_bw_row *f = &bw.act[tlog_act(&MAP, "write:/d/f")];
    ck_assert_int_eq(f->bytes, 100);
    ck_assert_double_eq_tol(f->perceived, 200, EPS); // 100 B over 0.5 s
    ck_assert_double_eq_tol(f->effective, 200, EPS);
    ck_assert_double_eq_tol(f->share, 1.0 / 3, EPS); // 0.5 s of 1.5 s
    const struct iodfg_bw_row *r = &bw.act[tlog_act(&MAP, "read:/d/f")];
    ck_assert(isnan(r->perceived)); // zero span and zero duration: undefined
    ck_assert(isnan(r->effective));
    ck_assert_double_eq_tol(r->share, 0, EPS);
    const struct iodfg_bw_row *w = &bw.overall[IODFG_BW_WRITE];
    ck_assert_uint_eq(w->count, 2);
    ck_assert_uint_eq(w->cases, 2);
    ck_assert_double_eq_tol(w->perceived, 320, EPS);       // 400 B over 1.0 .. 2.25 s
    ck_assert_double_eq_tol(w->effective, 400 / 1.5, EPS); // 400 B over 1.5 s of calls
    ck_assert_double_eq_tol(bw.overall[IODFG_BW_READ].share, 0, EPS);
    ck_assert_int_eq(bw.overall[IODFG_BW_ALL].dur_sum_ns, 1500000000);
    uint32_t wc = call_index(&bw, "write");
    ck_assert_uint_eq(bw.call[wc].cases, 2);
    ck_assert_double_eq_tol(bw.call[wc].share, 1, EPS);
    // per case: A's write took all of A's I/O time; B's rows are B's alone
    ck_assert_int_eq(bw.case_call_dur[0 * bw.ncalls + wc], 500000000);
    ck_assert_int_eq(bw.case_call_dur[1 * bw.ncalls + wc], 1000000000);
    ck_assert_double_eq_tol(bw.case_row[0 * IODFG_BW__N + IODFG_BW_WRITE].share, 1, EPS);
    ck_assert_double_eq_tol(bw.case_row[1 * IODFG_BW__N + IODFG_BW_WRITE].perceived, 300, EPS);
    ck_assert_int_eq(bw.case_act_dur[1 * bw.nactivities + tlog_act(&MAP, "write:/d/g")],
                     1000000000);
    // case B only
    uint8_t on[2] = {0, 1};
    SEL.case_on = on;
    ck_assert_int_eq(iodfg_bandwidth_build(&bw, LOG, &MAP, &SEL, &err), 0);
    ck_assert_uint_eq(bw.overall[IODFG_BW_ALL].count, 1);
    ck_assert_double_eq_tol(bw.overall[IODFG_BW_WRITE].perceived, 300, EPS);
    ck_assert_uint_eq(bw.act[tlog_act(&MAP, "write:/d/f")].count, 0);
    iodfg_bandwidth_fini(&bw);
}
END_TEST

// One case per line: three writes of /d/s starting at the given times with the given durations.
static void serial_log(const double *start, const double *dur, int n)
{
    for (int i = 0; i < n; i++) {
        char name[16], text[160];
        snprintf(name, sizeof(name), "c%d", i);
        snprintf(text, sizeof(text), "%d 00:00:%09.6f write(3</d/s>, \"\", 10) = 10 <%.6f>\n",
                 i + 1, start[i], dur[i]);
        tlog_add_case(LOG, name, text);
    }
    tlog_map_fhat(&MAP, LOG);
}

static const struct iodfg_serial_row *serial(struct iodfg_serial *s)
{
    struct iodfg_error err;
    iodfg_error_clear(&err);
    ck_assert_int_eq(iodfg_serial_build(s, LOG, &MAP, &SEL, NULL, NULL, &err), 0);
    return &s->act[tlog_act(&MAP, "write:/d/s")];
}

/* A set cancel request stops the sweep: an error saying so, and nothing built. */
START_TEST(test_serial_cancelled)
{
    serial_log((const double[]){1, 1, 1}, (const double[]){1, 2, 3}, 3);
    struct iodfg_cancel stop;
    iodfg_cancel_init(&stop);
    struct iodfg_serial s;
    iodfg_serial_init(&s);
    struct iodfg_error err;
    iodfg_error_clear(&err);
    ck_assert_int_eq(iodfg_serial_build(&s, LOG, &MAP, &SEL, NULL, &stop, &err), 0);
    ck_assert_uint_gt(s.nactivities, 0);
    iodfg_cancel_request(&stop);
    ck_assert_int_eq(iodfg_serial_build(&s, LOG, &MAP, &SEL, NULL, &stop, &err), -1);
    ck_assert_int_eq(err.code, IODFG_E_CANCELLED);
    ck_assert_uint_eq(s.nactivities, 0);
    ck_assert_ptr_null(s.act);
    iodfg_serial_fini(&s);
}
END_TEST

START_TEST(test_stair)
{
    // three calls issued together, completing one after another every second
    serial_log((const double[]){1, 1, 1}, (const double[]){1, 2, 3}, 3);
    struct iodfg_serial s;
    iodfg_serial_init(&s);
    const struct iodfg_serial_row *r = serial(&s);
    ck_assert_int_eq(r->busy_ns, 3000000000);
    ck_assert_int_eq(r->staggered_ns, 2000000000); // min(1, 1) + min(2, 1)
    ck_assert_uint_eq(r->queued, 2);
    ck_assert_double_eq_tol(r->stair, 2.0 / 3, EPS);
    iodfg_serial_fini(&s);
}
END_TEST

START_TEST(test_parallel)
{
    serial_log((const double[]){1, 1, 1}, (const double[]){1, 1, 1}, 3);
    struct iodfg_serial s;
    iodfg_serial_init(&s);
    const struct iodfg_serial_row *r = serial(&s);
    ck_assert_int_eq(r->busy_ns, 1000000000);
    ck_assert_double_eq_tol(r->stair, 0, EPS);
    iodfg_serial_fini(&s);
}
END_TEST

START_TEST(test_chain_and_gap)
{
    // a chain overlapping by 0.1 s, then a separate call: busy 1.9 + 0.5 s, staggered 0.1 s
    serial_log((const double[]){1, 1.9, 5}, (const double[]){1, 1, 0.5}, 3);
    struct iodfg_serial s;
    iodfg_serial_init(&s);
    const struct iodfg_serial_row *r = serial(&s);
    ck_assert_int_eq(r->busy_ns, 2400000000);
    ck_assert_int_eq(r->staggered_ns, 100000000);
    ck_assert_double_eq_tol(r->stair, 0.1 / 2.4, 1e-9);
    // the window drops the chain's first call: nothing overlaps any more
    SEL.from_ns = 1500000000;
    r = serial(&s);
    ck_assert_int_eq(r->busy_ns, 1500000000);
    ck_assert_double_eq_tol(r->stair, 0, EPS);
    iodfg_serial_fini(&s);
}
END_TEST

START_TEST(test_share_cells)
{
    int16_t seg[8];
    ck_assert_int_eq(iodfg_share_cells((const int64_t[]){3, 1}, 2, 4, seg), 4);
    ck_assert_int_eq(seg[0], 0);
    ck_assert_int_eq(seg[2], 0);
    ck_assert_int_eq(seg[3], 1);
    // a tiny value still shows
    ck_assert_int_eq(iodfg_share_cells((const int64_t[]){1000, 1}, 2, 4, seg), 4);
    ck_assert_int_eq(seg[3], 1);
    ck_assert_int_eq(seg[2], 0);
    // more values than cells: largest remainders, ties in order
    ck_assert_int_eq(iodfg_share_cells((const int64_t[]){1, 1, 1}, 3, 2, seg), 2);
    ck_assert_int_eq(seg[0], 0);
    ck_assert_int_eq(seg[1], 1);
    // nothing at all
    ck_assert_int_eq(iodfg_share_cells((const int64_t[]){0, 0}, 2, 3, seg), 0);
    ck_assert_int_eq(seg[0], -1);
    struct iodfg_buf b;
    iodfg_buf_init(&b);
    ck_assert_int_eq(iodfg_share_bar(&b, (const int64_t[]){2, 0, 2}, 3, 4, "#=*"), 0);
    ck_assert_str_eq(b.data, "##**");
    iodfg_buf_fini(&b);
}
END_TEST

int main(void)
{
    Suite *s = suite_create("bandwidth");
    TCase *tc = tcase_create("bandwidth");
    tcase_add_checked_fixture(tc, setup, teardown);
    tcase_add_test(tc, test_bandwidth);
    tcase_add_test(tc, test_serial_cancelled);
    tcase_add_test(tc, test_stair);
    tcase_add_test(tc, test_parallel);
    tcase_add_test(tc, test_chain_and_gap);
    tcase_add_test(tc, test_share_cells);
    suite_add_tcase(s, tc);
    return testutil_run(s);
}
