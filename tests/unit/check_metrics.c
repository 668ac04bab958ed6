/* SPDX-License-Identifier: MIT */
/* Unit tests: El Sayed et al. 2016's binned metrics (Eq. 3-9) with hand-computed values and edge
 * cases, the binning of events, Eq. (1) resampling of counters and the ASCII chart. */
#include "config.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "iodfg/buf.h"
#include "iodfg/cancel.h"
#include "iodfg/characterize.h"
#include "iodfg/counters.h"
#include "iodfg/counters_csv.h"
#include "iodfg/error.h"
#include "iodfg/eventlog.h"
#include "iodfg/mapping.h"
#include "iodfg/metrics.h"

#include "dfg_testlog.h"
#include "testutil.h"

#define EPS 1e-9
#define R IODFG_DIR_READ
#define W IODFG_DIR_WRITE

static struct iodfg_binned B;

static void setup(void)
{
    iodfg_binned_init(&B);
}

static void teardown(void)
{
    iodfg_binned_fini(&B);
}

// nservers x nbins zeroed bins of 1 s.
static void grid(uint32_t ns, uint32_t nb)
{
    struct iodfg_error err;
    iodfg_error_clear(&err);
    ck_assert_int_eq(iodfg_binned_alloc(&B, ns, nb, &err), 0);
    B.dt_ns = 1000000000;
    B.span_ns = (int64_t)nb * B.dt_ns;
}

static void set(int x, uint32_t s, const double *v)
{
    for (uint32_t i = 0; i < B.nbins; i++) {
        B.bytes[x][(size_t)s * B.nbins + i] = v[i];
        B.ops[x][(size_t)s * B.nbins + i] = v[i] > 0;
    }
}

START_TEST(test_two_servers)
{
    grid(2, 4);
    set(R, 0, (const double[]){10, 0, 5, 0});
    set(R, 1, (const double[]){10, 0, 0, 0});
    iodfg_binned_finish(&B, 0);
    const struct iodfg_dir_metrics *m = &B.dir[R];
    ck_assert_double_eq_tol(m->volume, 25, EPS); // Eq. 4
    ck_assert_double_eq_tol(m->bw_max, 20, EPS); // Eq. 5: bin 0, 20 B in 1 s
    ck_assert_uint_eq(m->bw_max_bin, 0);
    ck_assert_double_eq_tol(m->iops_max, 2, EPS); // Eq. 6
    ck_assert_double_eq_tol(m->server_bw_max, 10, EPS);
    ck_assert_uint_eq(m->busy_bins, 2);              // H = 1 0 1 0
    ck_assert_double_eq_tol(m->intensity, 0.5, EPS); // Eq. 7
    ck_assert_double_eq_tol(m->l_io, 1, EPS);
    ck_assert_double_eq_tol(m->l_noio, 1, EPS);
    ck_assert_double_eq_tol(m->burstiness, 1 - tanh(1), EPS); // Eq. 8
    ck_assert_double_eq_tol(m->par_raw, 0.75, EPS);           // π = 1, 0, 1/2, 0 over 2 busy
    ck_assert_double_eq_tol(m->parallel, 0.5, EPS);           // Eq. 9: (2 * 0.75 - 1) / 1
    ck_assert_double_eq_tol(B.total_bytes[R][0], 20, EPS);
    // threshold c = 5: δ needs more than 5 bytes, so bin 2 (5 bytes) no longer counts
    iodfg_binned_finish(&B, 5);
    ck_assert_uint_eq(m->busy_bins, 1);
    ck_assert_double_eq_tol(m->intensity, 0.25, EPS);
    ck_assert_double_eq_tol(m->l_noio, 3, EPS);
    ck_assert_double_eq_tol(m->burstiness, 1 - tanh(1.0 / 3), EPS);
    ck_assert_double_eq_tol(m->parallel, 1, EPS);
    // the write side stayed empty: no I/O
    ck_assert_double_eq_tol(B.dir[W].volume, 0, EPS);
    ck_assert_double_eq_tol(B.dir[W].intensity, 0, EPS);
    ck_assert_double_eq_tol(B.dir[W].burstiness, 0, EPS);
    ck_assert_double_eq_tol(B.dir[W].parallel, 0, EPS);
    ck_assert_double_eq_tol(B.dir[W].par_raw, 0, EPS);
}
END_TEST

START_TEST(test_all_busy)
{
    grid(2, 4);
    set(W, 0, (const double[]){1, 1, 1, 1});
    iodfg_binned_finish(&B, 0);
    const struct iodfg_dir_metrics *m = &B.dir[W];
    ck_assert_double_eq_tol(m->intensity, 1, EPS);
    ck_assert_double_eq_tol(m->l_io, 4, EPS);
    ck_assert_double_eq_tol(m->l_noio, 0, EPS);
    ck_assert_double_eq_tol(m->burstiness, 0, EPS); // l_noIO = 0: ρ = 0 (Eq. 8, second case)
    ck_assert_double_eq_tol(m->par_raw, 0.5, EPS);  // one of two servers in every bin
    ck_assert_double_eq_tol(m->parallel, 0, EPS);
}
END_TEST

START_TEST(test_one_server_and_single_bin)
{
    grid(1, 2);
    set(R, 0, (const double[]){3, 0});
    iodfg_binned_finish(&B, 0);
    ck_assert_double_eq_tol(B.dir[R].par_raw, 1, EPS);
    ck_assert_double_eq_tol(B.dir[R].parallel, 0, EPS); // |S| = 1: P = 0, not 0/0
    ck_assert_double_eq_tol(B.dir[R].burstiness, 1 - tanh(1), EPS);
    iodfg_binned_fini(&B);
    grid(1, 1);
    set(R, 0, (const double[]){7});
    iodfg_binned_finish(&B, 0);
    ck_assert_double_eq_tol(B.dir[R].intensity, 1, EPS);
    ck_assert_double_eq_tol(B.dir[R].l_io, 1, EPS);
    ck_assert_double_eq_tol(B.dir[R].burstiness, 0, EPS);
    ck_assert_double_eq_tol(B.dir[R].bw_max, 7, EPS);
}
END_TEST

START_TEST(test_spread)
{
    double b[4] = {0};
    iodfg_metrics_spread(b, 4, 0, 10, 5, 20, 100); // [5,25): 5 + 10 + 5 ns
    ck_assert_double_eq_tol(b[0], 25, EPS);
    ck_assert_double_eq_tol(b[1], 50, EPS);
    ck_assert_double_eq_tol(b[2], 25, EPS);
    ck_assert_double_eq_tol(b[3], 0, EPS);
    memset(b, 0, sizeof(b));
    iodfg_metrics_spread(b, 4, 0, 10, 15, 0, 8);             // zero duration: the start bin
    iodfg_metrics_spread(b, 4, 0, 10, 10, 10, 4);            // exactly one bin
    iodfg_metrics_spread(b, 4, 0, 10, 30, IODFG_UNKNOWN, 2); // unknown duration
    iodfg_metrics_spread(b, 4, 0, 10, 40, 0, 1);             // at the grid end: last bin
    ck_assert_double_eq_tol(b[1], 12, EPS);
    ck_assert_double_eq_tol(b[3], 3, EPS);
    ck_assert_double_eq_tol(b[0] + b[2], 0, EPS);
}
END_TEST

START_TEST(test_default_dt)
{
    ck_assert_int_eq(iodfg_metrics_default_dt(1000000000), 10000000); // 1 s -> 10 ms
    ck_assert_int_eq(iodfg_metrics_default_dt(1000000001), 20000000);
    ck_assert_int_eq(iodfg_metrics_default_dt(0), 1000);
    ck_assert_int_eq(iodfg_metrics_default_dt(58000000), 1000000); // 58 ms -> 1 ms
}
END_TEST

START_TEST(test_interpolate)
{
    const double ts[] = {0, 10, 20}, vs[] = {0, 1000, 1000};
    ck_assert_double_eq_tol(iodfg_metrics_interpolate(2.5, ts, vs, 3), 250, EPS); // Eq. 1
    ck_assert_double_eq_tol(iodfg_metrics_interpolate(10, ts, vs, 3), 1000, EPS);
    ck_assert_double_eq_tol(iodfg_metrics_interpolate(-1, ts, vs, 3), 0, EPS);
    ck_assert_double_eq_tol(iodfg_metrics_interpolate(30, ts, vs, 3), 1000, EPS);
    ck_assert_double_eq_tol(iodfg_metrics_interpolate(3, ts, vs, 0), 0, EPS);
}
END_TEST

static struct iodfg_eventlog *two_case_log(void)
{
    struct iodfg_eventlog *log = iodfg_eventlog_new(IODFG_COL_ALL);
    ck_assert_ptr_nonnull(log);
    tlog_add_case(log, "A",
                  "1 00:00:01.000000 write(3</d/f>, \"\", 100) = 100 <0.500000>\n"
                  "1 00:00:02.000000 read(3</d/f>, \"\", 50) = 50 <0.000000>\n"
                  "1 00:00:02.100000 read(3</d/f>, \"\", 50) = -1 EIO (I/O error) "
                  "<0.000000>\n");
    tlog_add_case(log, "B",
                  "2 00:00:01.250000 write(4</d/g>, \"\", 300) = 300 <1.000000>\n"
                  "2 00:00:01.300000 fstat(4</d/g>, {}) = 0 <0.000001>\n");
    return log;
}

/* A set cancel request stops the binning, and the whole characterisation: an error saying so,
 * and nothing built. */
START_TEST(test_build_cancelled)
{
    struct iodfg_eventlog *log = two_case_log();
    struct iodfg_mapping map;
    tlog_map_fhat(&map, log);
    struct iodfg_selection sel;
    iodfg_selection_all(&sel);
    struct iodfg_bin_opts o = {.dt_ns = 500000000, .threshold = 0, .by = IODFG_BY_HOST};
    struct iodfg_cancel stop;
    iodfg_cancel_init(&stop);
    iodfg_cancel_request(&stop);
    struct iodfg_error err;
    iodfg_error_clear(&err);
    ck_assert_int_eq(iodfg_binned_build(&B, log, &map, &sel, &o, &stop, &err), -1);
    ck_assert_int_eq(err.code, IODFG_E_CANCELLED);
    ck_assert_uint_eq(B.nbins, 0);
    ck_assert_uint_eq(B.nservers, 0);
    struct iodfg_characterization ch;
    iodfg_characterization_init(&ch);
    for (int threads = 1; threads <= 2; threads++) {
        iodfg_error_clear(&err);
        ck_assert_int_eq(
            iodfg_characterize(&ch, log, &map, &sel, &o, 4096, NULL, threads, &stop, &err), -1);
        ck_assert_int_eq(err.code, IODFG_E_CANCELLED);
        ck_assert_uint_eq(ch.bins.nbins, 0);
        ck_assert_ptr_null(ch.serial.act);
        ck_assert_ptr_null(ch.access.act);
    }
    // not requested: the same call builds
    iodfg_cancel_init(&stop);
    iodfg_error_clear(&err);
    ck_assert_int_eq(iodfg_characterize(&ch, log, &map, &sel, &o, 4096, NULL, 2, &stop, &err), 0);
    ck_assert_uint_eq(ch.bins.nbins, 3);
    iodfg_characterization_fini(&ch);
    tlog_map_free(&map);
    iodfg_eventlog_free(log);
}
END_TEST

START_TEST(test_build_from_log)
{
    struct iodfg_eventlog *log = two_case_log();
    struct iodfg_mapping map;
    tlog_map_fhat(&map, log);
    struct iodfg_selection sel;
    iodfg_selection_all(&sel);
    struct iodfg_bin_opts o = {.dt_ns = 500000000, .threshold = 0, .by = IODFG_BY_HOST};
    struct iodfg_error err;
    iodfg_error_clear(&err);
    ck_assert_int_eq(iodfg_binned_build(&B, log, &map, &sel, &o, NULL, &err), 0);
    // span 1.0 s .. 2.25 s: three bins of 0.5 s; hosts unknown, so servers are the cases
    ck_assert_int_eq(B.span_ns, 1250000000);
    ck_assert_uint_eq(B.nbins, 3);
    ck_assert_uint_eq(B.nservers, 2);
    ck_assert_str_eq(B.server[0], "A");
    ck_assert_str_eq(B.server[1], "B");
    const double *wa = B.bytes[W], *wb = B.bytes[W] + 3;
    ck_assert_double_eq_tol(wa[0], 100, EPS);
    ck_assert_double_eq_tol(wb[0], 75, EPS); // 300 B over [1.25, 2.25): 1/4, 1/2, 1/4
    ck_assert_double_eq_tol(wb[1], 150, EPS);
    ck_assert_double_eq_tol(wb[2], 75, EPS);
    ck_assert_double_eq_tol(B.ops[W][3 + 1], 0.5, EPS);
    ck_assert_double_eq_tol(B.bytes[R][2], 50,
                            EPS); // zero-duration read at 2.0; failed one skipped
    ck_assert_double_eq_tol(B.dir[R].ops, 1, EPS);
    const struct iodfg_dir_metrics *w = &B.dir[W];
    ck_assert_double_eq_tol(w->volume, 400, EPS);
    ck_assert_double_eq_tol(w->bw_max, 350, EPS);   // 175 B in 0.5 s
    ck_assert_double_eq_tol(w->iops_max, 2.5, EPS); // 1.25 ops in 0.5 s
    ck_assert_double_eq_tol(w->intensity, 1, EPS);
    ck_assert_double_eq_tol(w->burstiness, 0, EPS);
    ck_assert_double_eq_tol(w->par_raw, 2.0 / 3, EPS);
    ck_assert_double_eq_tol(w->parallel, 1.0 / 3, EPS);
    const struct iodfg_dir_metrics *r = &B.dir[R];
    ck_assert_double_eq_tol(r->intensity, 1.0 / 3, EPS);
    ck_assert_double_eq_tol(r->burstiness, 1 - tanh(0.5), EPS);
    ck_assert_double_eq_tol(r->parallel, 0, EPS);
    // by file: the same numbers, servers named by path
    o.by = IODFG_BY_FILE;
    ck_assert_int_eq(iodfg_binned_build(&B, log, &map, &sel, &o, NULL, &err), 0);
    ck_assert_str_eq(B.server[0], "/d/f");
    ck_assert_double_eq_tol(B.dir[W].parallel, 1.0 / 3, EPS);
    // a window keeping only case B's events: one server, and the grid follows the selection
    sel.from_ns = 1250000000;
    sel.to_ns = 1900000000;
    o.by = IODFG_BY_CASE;
    o.dt_ns = 0;
    ck_assert_int_eq(iodfg_binned_build(&B, log, &map, &sel, &o, NULL, &err), 0);
    ck_assert_uint_eq(B.nservers, 1);
    ck_assert_int_eq(B.dt_ns, 10000000); // default: 1 s span -> 10 ms
    ck_assert_uint_eq(B.nbins, 100);
    // volumes and counts are exact sums of the events, not of its spread over 100 bins
    ck_assert_double_eq(B.dir[W].volume, 300);
    ck_assert_double_eq(B.dir[W].ops, 1);
    ck_assert_double_eq_tol(B.dir[W].parallel, 0, EPS);
    // nothing selected: no bins, everything 0
    uint8_t none[2] = {0, 0};
    sel.case_on = none;
    ck_assert_int_eq(iodfg_binned_build(&B, log, &map, &sel, &o, NULL, &err), 0);
    ck_assert_uint_eq(B.nbins, 0);
    ck_assert_double_eq_tol(B.dir[R].intensity, 0, EPS);
    tlog_map_free(&map);
    iodfg_eventlog_free(log);
}
END_TEST

START_TEST(test_counters)
{
    static const char csv[] =
        "# two servers\n"
        "server,time,bytes_read,bytes_written,read_ops,write_ops,opens,closes\n"
        "io1,0,0,0,0,0,0,0\n"
        "io1,10,1000,0,10,0,1,0\n"
        "io2,5,0,0,0,0,0,0\n"
        "io2,15,0,2000,0,20,0,1\n";
    struct iodfg_counters c;
    struct iodfg_error err;
    iodfg_counters_init(&c);
    iodfg_error_clear(&err);
    ck_assert_int_eq(iodfg_counters_parse(&c, csv, strlen(csv), "t.csv", &err), 0);
    struct iodfg_bin_opts o = {.dt_ns = 5000000000LL, .threshold = 0};
    ck_assert_int_eq(iodfg_binned_from_counters(&B, &c, &o, &err), 0);
    ck_assert_uint_eq(B.nbins, 3);
    ck_assert_uint_eq(B.nservers, 2);
    // io1 bytes_read at t = 0, 5, 10, 15: 0, 500 (Eq. 1), 1000, 1000 (after its last sample)
    ck_assert_double_eq_tol(B.bytes[R][0], 500, EPS);
    ck_assert_double_eq_tol(B.bytes[R][1], 500, EPS);
    ck_assert_double_eq_tol(B.bytes[R][2], 0, EPS);
    // io2 bytes_written at t = 0 (before its first sample), 5, 10, 15: 0, 0, 1000, 2000
    ck_assert_double_eq_tol(B.bytes[W][3 + 0], 0, EPS);
    ck_assert_double_eq_tol(B.bytes[W][3 + 1], 1000, EPS);
    ck_assert_double_eq_tol(B.bytes[W][3 + 2], 1000, EPS);
    ck_assert_double_eq_tol(B.dir[R].volume, 1000, EPS);
    ck_assert_double_eq_tol(B.dir[R].bw_max, 100, EPS);
    ck_assert_double_eq_tol(B.dir[W].bw_max, 200, EPS);
    ck_assert_double_eq_tol(B.dir[W].iops_max, 2, EPS);
    ck_assert_double_eq_tol(B.dir[R].intensity, 2.0 / 3, EPS);
    ck_assert_double_eq_tol(B.dir[R].burstiness, 1 - tanh(2), EPS);
    ck_assert_double_eq_tol(B.dir[R].par_raw, 0.5, EPS);
    ck_assert_double_eq_tol(B.dir[R].parallel, 0, EPS);
    iodfg_counters_fini(&c);
}
END_TEST

START_TEST(test_chart)
{
    grid(1, 4);
    set(R, 0, (const double[]){4, 0, 2, 0});
    set(W, 0, (const double[]){0, 4, 0, 0});
    iodfg_binned_finish(&B, 0);
    struct iodfg_buf out;
    iodfg_buf_init(&out);
    ck_assert_int_eq(iodfg_binned_chart(&out, &B, 0, 4, 5), 0);
    ck_assert_str_eq(out.data, "#   \n"
                               "# # \n"
                               "----\n"
                               " #  \n"
                               " #  \n");
    iodfg_buf_clear(&out);
    ck_assert_int_eq(iodfg_binned_chart(&out, &B, 0, 2, 3), 0); // two bins per column, max
    ck_assert_str_eq(out.data, "##\n--\n# \n");
    ck_assert_int_eq(iodfg_binned_chart(&out, &B, 0, 2, 2), -1);
    uint8_t cells[8 * 3];
    ck_assert_double_eq_tol(iodfg_binned_chart_cells(&B, 1, 8, 3, cells), 1, EPS); // 1 op/s
    ck_assert_uint_eq(cells[0], IODFG_CELL_READ);
    ck_assert_uint_eq(cells[8], IODFG_CELL_AXIS);
    ck_assert_uint_eq(cells[16 + 2], IODFG_CELL_WRITE);
    iodfg_buf_fini(&out);
}
END_TEST

START_TEST(test_call_flags)
{
    ck_assert_uint_eq(iodfg_metrics_call_flags("pread64", 7), IODFG_IO_READ | IODFG_IO_POSITIONAL);
    ck_assert_uint_eq(iodfg_metrics_call_flags("writev", 6), IODFG_IO_WRITE);
    ck_assert_uint_eq(iodfg_metrics_call_flags("lseek", 5), IODFG_IO_SEEK);
    ck_assert_uint_eq(iodfg_metrics_call_flags("openat", 6), IODFG_IO_OPEN);
    ck_assert_uint_eq(iodfg_metrics_call_flags("fsync", 5), 0);
    ck_assert_uint_eq(iodfg_metrics_call_flags("writ", 4), 0);
    enum iodfg_server_by by;
    ck_assert_int_eq(iodfg_server_by_parse("file", &by), 0);
    ck_assert_int_eq(by, IODFG_BY_FILE);
    ck_assert_int_eq(iodfg_server_by_parse("rack", &by), -1);
}
END_TEST

int main(void)
{
    Suite *s = suite_create("metrics");
    TCase *tc = tcase_create("time_bins");
    tcase_add_checked_fixture(tc, setup, teardown);
    tcase_add_test(tc, test_two_servers);
    tcase_add_test(tc, test_all_busy);
    tcase_add_test(tc, test_one_server_and_single_bin);
    tcase_add_test(tc, test_spread);
    tcase_add_test(tc, test_default_dt);
    tcase_add_test(tc, test_interpolate);
    tcase_add_test(tc, test_build_from_log);
    tcase_add_test(tc, test_build_cancelled);
    tcase_add_test(tc, test_counters);
    tcase_add_test(tc, test_chart);
    tcase_add_test(tc, test_call_flags);
    suite_add_tcase(s, tc);
    return testutil_run(s);
}
