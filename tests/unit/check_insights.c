/* SPDX-License-Identifier: MIT */
/* Unit tests: insights on hand-built event logs; each rule fires at its threshold and stays
 * silent just below it; thresholds, ranking, G/R comparison and renamed activities. */
#include "config.h"

#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "iodfg/buf.h"
#include "iodfg/error.h"
#include "iodfg/eventlog.h"
#include "iodfg/focus.h"
#include "iodfg/insights.h"
#include "iodfg/mapping.h"
#include "iodfg/rules.h"
#include "iodfg/strpool.h"

#include "dfg_testlog.h"
#include "testutil.h"

/* ---- trace text: one line per call, times in microseconds ---- */

struct gen {
    struct iodfg_buf b;
    long t_us;
};

static void line(struct gen *g, long dur_us, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
static void line(struct gen *g, long dur_us, const char *fmt, ...)
{
    char call[512];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(call, sizeof(call), fmt, ap);
    va_end(ap);
    long t = g->t_us;
    iodfg_buf_addf(&g->b, "1 %02ld:%02ld:%02ld.%06ld %s <%ld.%06ld>\n", t / 3600000000L,
                   t / 60000000L % 60, t / 1000000L % 60, t % 1000000L, call, dur_us / 1000000L,
                   dur_us % 1000000L);
    g->t_us += dur_us + 1;
}

static struct iodfg_eventlog *LOG;
static struct iodfg_mapping MAP;
static struct iodfg_insights INS;
static struct iodfg_insight_thresholds T;

static void setup(void)
{
    LOG = iodfg_eventlog_new(IODFG_COL_ALL);
    ck_assert_ptr_nonnull(LOG);
    memset(&MAP, 0, sizeof(MAP));
    iodfg_insights_init(&INS);
    iodfg_insight_thresholds_default(&T);
}

static void teardown(void)
{
    iodfg_insights_fini(&INS);
    if (MAP.activity_of_key) {
        tlog_map_free(&MAP);
    }
    iodfg_eventlog_free(LOG);
}

// Case name "cid_host_rid": the cid is the part before the first '_'.
static void add_case(const char *name, struct gen *g)
{
    char cid[64];
    snprintf(cid, sizeof(cid), "%.*s", (int)strcspn(name, "_"), name);
    tlog_add_case_cid(LOG, name, cid, g->b.data ? g->b.data : "");
    iodfg_buf_fini(&g->b);
}

// Map with f-hat and judge everything.
static void judge(void)
{
    if (!MAP.activity_of_key) {
        tlog_map_fhat(&MAP, LOG);
    }
    struct iodfg_selection sel;
    iodfg_selection_all(&sel);
    struct iodfg_error err;
    iodfg_error_clear(&err);
    ck_assert_msg(iodfg_insights_build(&INS, LOG, &MAP, &sel, &T, NULL, &err) == 0, "%s", err.msg);
}

static const struct iodfg_insight *find(enum iodfg_insight_rule r)
{
    for (size_t i = 0; i < INS.n; i++) {
        if (INS.v[i].rule == r) {
            return &INS.v[i];
        }
    }
    return NULL;
}

static double num(const struct iodfg_insight *f, const char *name)
{
    for (uint32_t i = 0; i < f->nnum; i++) {
        if (strcmp(f->num[i].name, name) == 0) {
            return f->num[i].value;
        }
    }
    ck_abort_msg("no number %s", name);
    return NAN;
}

static const char *case_of(uint32_t c)
{
    return iodfg_strpool_get(iodfg_eventlog_pool(LOG), iodfg_eventlog_case(LOG, c)->name);
}

/* ---- small transfers, terminals, seeks ---- */

static void small_writes(int nsmall, int nlarge)
{
    struct gen g = {0};
    line(&g, 1, "openat(AT_FDCWD, \"/d/f\", O_WRONLY) = 3</d/f>");
    for (int i = 0; i < nsmall + nlarge; i++) {
        long n = i < nsmall ? 1 : 1048576;
        line(&g, 2, "write(3</d/f>, \"\", %ld) = %ld", n, n);
    }
    add_case("a_h_1", &g);
}

START_TEST(small_io_at_count_floor)
{
    small_writes(100, 0);
    judge();
    const struct iodfg_insight *f = find(IODFG_INS_SMALL_IO);
    ck_assert_ptr_nonnull(f);
    ck_assert_double_eq(num(f, "small_ops"), 100);
    ck_assert_double_eq(num(f, "small_share"), 1);
    ck_assert_int_eq(f->subject_kind, IODFG_SUBJ_ACTIVITY);
    ck_assert_str_eq(iodfg_mapping_name(&MAP, f->subject), "write:/d/f");
    ck_assert_str_eq(case_of(f->cases[0]), "a_h_1");
    ck_assert_int_eq(f->has_window, 1);
}
END_TEST

START_TEST(small_io_below_count_floor)
{
    small_writes(99, 0);
    judge();
    ck_assert_ptr_null(find(IODFG_INS_SMALL_IO));
}
END_TEST

START_TEST(small_io_share)
{
    small_writes(50, 50);
    judge();
    ck_assert_ptr_nonnull(find(IODFG_INS_SMALL_IO));
}
END_TEST

START_TEST(small_io_share_below)
{
    small_writes(49, 51);
    judge();
    ck_assert_ptr_null(find(IODFG_INS_SMALL_IO));
}
END_TEST

/* As Drishti does (Bez et al. 2022): a transfer under 1 MiB is small, so 4 KiB writes are; 1 MiB
 * writes are not. */
static void sized_writes(int n, long size)
{
    struct gen g = {0};
    line(&g, 1, "openat(AT_FDCWD, \"/d/f\", O_WRONLY) = 3</d/f>");
    for (int i = 0; i < n; i++) {
        line(&g, 2, "write(3</d/f>, \"\", %ld) = %ld", size, size);
    }
    add_case("a_h_1", &g);
}

START_TEST(small_io_default_is_under_one_mib)
{
    ck_assert_double_eq(T.small_size, 1048576);
    sized_writes(100, 4096);
    judge();
    const struct iodfg_insight *f = find(IODFG_INS_SMALL_IO);
    ck_assert_ptr_nonnull(f);
    ck_assert_ptr_nonnull(strstr(f->text, "less than 1.00 MiB"));
    ck_assert_double_eq(num(f, "mean_small_bytes"), 4096);
}
END_TEST

START_TEST(small_io_one_mib_is_not_small)
{
    sized_writes(100, 1048576);
    judge();
    ck_assert_ptr_null(find(IODFG_INS_SMALL_IO));
    iodfg_insights_fini(&INS);
    tlog_map_free(&MAP);
    iodfg_eventlog_free(LOG);
    LOG = iodfg_eventlog_new(IODFG_COL_ALL);
    sized_writes(100, 1048575);
    judge();
    ck_assert_ptr_nonnull(find(IODFG_INS_SMALL_IO));
}
END_TEST

static void tty_writes(int n)
{
    struct gen g = {0};
    for (int i = 0; i < n; i++) {
        line(&g, 1, "write(1</dev/pts/3>, \"x\", 1) = 1");
    }
    add_case("a_h_1", &g);
}

START_TEST(tiny_tty)
{
    tty_writes(100);
    judge();
    const struct iodfg_insight *f = find(IODFG_INS_TINY_TTY);
    ck_assert_ptr_nonnull(f);
    ck_assert_double_eq(num(f, "writes"), 100);
    ck_assert_ptr_null(find(IODFG_INS_SMALL_IO)); // a terminal is not a file
    ck_assert_ptr_null(find(IODFG_INS_ACCESS_UNKNOWN));
}
END_TEST

START_TEST(tiny_tty_below)
{
    tty_writes(99);
    judge();
    ck_assert_ptr_null(find(IODFG_INS_TINY_TTY));
}
END_TEST

static void seek_pairs(int n, int other_fd)
{
    struct gen g = {0};
    line(&g, 1, "openat(AT_FDCWD, \"/d/f\", O_WRONLY) = 3</d/f>");
    line(&g, 1, "openat(AT_FDCWD, \"/d/g\", O_WRONLY) = 4</d/g>");
    for (int i = 0; i < n; i++) {
        line(&g, 5, "lseek(3</d/f>, %d, SEEK_SET) = %d", i * 8192, i * 8192);
        line(&g, 2, "write(3</d/f>, \"\", 8192) = 8192");
    }
    for (int i = 0; i < other_fd; i++) { // a seek on one descriptor, a write on another
        line(&g, 5, "lseek(3</d/f>, 0, SEEK_SET) = 0");
        line(&g, 2, "write(4</d/g>, \"\", 8192) = 8192");
    }
    add_case("a_h_1", &g);
}

START_TEST(seek_io)
{
    seek_pairs(16, 20);
    judge();
    const struct iodfg_insight *f = find(IODFG_INS_SEEK_IO);
    ck_assert_ptr_nonnull(f);
    ck_assert_double_eq(num(f, "pairs"), 16);
    ck_assert_double_eq(num(f, "seek_time_ns"), 16 * 5000);
    ck_assert_int_eq(f->nedge, 1);
    ck_assert_str_eq(iodfg_mapping_name(&MAP, f->edge[0][0]), "lseek:/d/f");
    ck_assert_str_eq(iodfg_mapping_name(&MAP, f->edge[0][1]), "write:/d/f");
    ck_assert_uint_eq(f->npaths, 1);
    ck_assert_str_eq(iodfg_strpool_get(INS.pool, f->paths[0]), "/d/f");
}
END_TEST

START_TEST(seek_io_below)
{
    seek_pairs(15, 20);
    judge();
    ck_assert_ptr_null(find(IODFG_INS_SEEK_IO));
}
END_TEST

/* ---- access patterns ---- */

START_TEST(access_unknown_without_open)
{
    struct gen g = {0};
    for (int i = 0; i < 100; i++) { // the open was not traced
        line(&g, 1, "write(3</d/f>, \"\", 8192) = 8192");
    }
    add_case("a_h_1", &g);
    judge();
    const struct iodfg_insight *f = find(IODFG_INS_ACCESS_UNKNOWN);
    ck_assert_ptr_nonnull(f);
    ck_assert_int_eq(f->severity, IODFG_SEV_INFO);
    ck_assert_double_eq(num(f, "unknown"), 100);
    ck_assert_ptr_null(find(IODFG_INS_RANDOM_ACCESS));
}
END_TEST

static void backwards(int nrandom, int nseq)
{
    struct gen g = {0};
    line(&g, 1, "openat(AT_FDCWD, \"/d/f\", O_RDONLY) = 3</d/f>");
    for (int i = 0; i < nseq; i++) {
        line(&g, 1, "pread64(3</d/f>, \"\", 4096, %d) = 4096", i * 4096);
    }
    for (int i = 0; i < nrandom; i++) { // each one before the previous
        line(&g, 1, "pread64(3</d/f>, \"\", 4096, %d) = 4096", (nrandom - i) * 4096);
    }
    add_case("a_h_1", &g);
}

START_TEST(random_access)
{
    backwards(20, 80); // 20 of 100 known offsets go back (the first backwards read included)
    judge();
    const struct iodfg_insight *f = find(IODFG_INS_RANDOM_ACCESS);
    ck_assert_ptr_nonnull(f);
    ck_assert_double_eq(num(f, "known"), 100);
    ck_assert_double_eq(num(f, "random") + num(f, "strided"), 20);
}
END_TEST

START_TEST(random_access_below)
{
    backwards(19, 81);
    judge();
    ck_assert_ptr_null(find(IODFG_INS_RANDOM_ACCESS));
}
END_TEST

/* ---- metadata, opens, failures ---- */

static void stats_and_write(int nstat)
{
    struct gen g = {0};
    for (int i = 0; i < nstat; i++) {
        line(&g, 10, "newfstatat(AT_FDCWD, \"/etc/conf/x%d\", {}, 0) = 0", i % 3);
    }
    line(&g, 1, "openat(AT_FDCWD, \"/d/f\", O_WRONLY) = 3</d/f>");
    line(&g, 100, "write(3</d/f>, \"\", 8192) = 8192");
    add_case("a_h_1", &g);
}

START_TEST(metadata_heavy)
{
    stats_and_write(50);
    judge();
    const struct iodfg_insight *f = find(IODFG_INS_METADATA);
    ck_assert_ptr_nonnull(f);
    ck_assert_double_eq(num(f, "meta_calls"), 51); // the openat too
    ck_assert_double_eq(num(f, "meta_time_ns"), 50 * 10000 + 1000);
    ck_assert_uint_eq(f->ncases, 1);
    ck_assert_str_eq(iodfg_strpool_get(INS.pool, f->paths[0]), "/etc/conf");
}
END_TEST

START_TEST(metadata_below)
{
    stats_and_write(48); // 49 calls with the openat
    judge();
    ck_assert_ptr_null(find(IODFG_INS_METADATA));
}
END_TEST

static void opens(int n)
{
    struct gen g = {0};
    for (int i = 0; i < n; i++) {
        line(&g, 3, "openat(AT_FDCWD, \"/d/conf\", O_RDONLY) = 3</d/conf>");
        line(&g, 1, "close(3</d/conf>) = 0");
    }
    add_case("a_h_1", &g);
}

START_TEST(repeated_open)
{
    opens(10);
    judge();
    const struct iodfg_insight *f = find(IODFG_INS_REPEATED_OPEN);
    ck_assert_ptr_nonnull(f);
    ck_assert_double_eq(num(f, "max_opens_per_case"), 10);
    ck_assert_double_eq(num(f, "time_ns"), 30000);
    ck_assert_str_eq(iodfg_strpool_get(INS.pool, f->subject), "/d/conf");
}
END_TEST

START_TEST(repeated_open_below)
{
    opens(9);
    judge();
    ck_assert_ptr_null(find(IODFG_INS_REPEATED_OPEN));
}
END_TEST

static void failures(int n)
{
    struct gen g = {0};
    for (int i = 0; i < n; i++) {
        line(&g, 2,
             "openat(AT_FDCWD, \"/opt/p%02d/libm.so\", O_RDONLY) = -1 ENOENT (No such "
             "file or directory)",
             i);
    }
    line(&g, 2, "openat(AT_FDCWD, \"/x\", O_RDONLY) = -1 EACCES (Permission denied)");
    add_case("a_h_1", &g);
}

START_TEST(failed_storm)
{
    failures(20);
    judge();
    const struct iodfg_insight *f = find(IODFG_INS_FAILED_STORM);
    ck_assert_ptr_nonnull(f);
    ck_assert_str_eq(iodfg_strpool_get(INS.pool, f->subject), "ENOENT");
    ck_assert_double_eq(num(f, "calls"), 20);
    ck_assert_double_eq(num(f, "max_dirs_per_name"), 20);
    ck_assert_uint_eq(f->paths_total, 20);
    ck_assert_uint_eq(f->npaths, IODFG_INSIGHT_KEEP);
}
END_TEST

START_TEST(failed_storm_below)
{
    failures(19);
    judge();
    ck_assert_ptr_null(find(IODFG_INS_FAILED_STORM));
}
END_TEST

/* ---- files shared, read again, locked ---- */

// Two cases write /s/f, the second starting `offset_us` after the first (each writes 1 s).
static void two_writers(long offset_us)
{
    for (int c = 0; c < 2; c++) {
        struct gen g = {.t_us = c * offset_us};
        line(&g, 1, "openat(AT_FDCWD, \"/s/f\", O_WRONLY) = 3</s/f>");
        for (int i = 0; i < 10; i++) {
            line(&g, 100000, "write(3</s/f>, \"\", 8192) = 8192");
        }
        add_case(c ? "a_h_2" : "a_h_1", &g);
    }
}

START_TEST(shared_file)
{
    two_writers(500000);
    judge();
    const struct iodfg_insight *f = find(IODFG_INS_SHARED_FILE);
    ck_assert_ptr_nonnull(f);
    ck_assert_double_eq(num(f, "cases"), 2);
    ck_assert_double_eq(num(f, "writes"), 20);
    ck_assert_double_eq(num(f, "max_concurrent_cases"), 2);
    ck_assert_uint_eq(f->ncases, 2);
    ck_assert_int_eq(f->has_window, 1);
    ck_assert_int_gt(f->to_ns - f->from_ns, 400000000);
}
END_TEST

START_TEST(shared_file_apart)
{
    two_writers(2000000); // one after the other
    judge();
    ck_assert_ptr_null(find(IODFG_INS_SHARED_FILE));
}
END_TEST

static void read_twice(int second_kib)
{
    struct gen g = {0};
    line(&g, 1, "openat(AT_FDCWD, \"/d/in\", O_RDONLY) = 3</d/in>");
    for (int i = 0; i < 4; i++) {
        line(&g, 10, "read(3</d/in>, \"\", 16384) = 16384");
    }
    line(&g, 1, "lseek(3</d/in>, 0, SEEK_SET) = 0");
    for (int i = 0; i < second_kib / 16; i++) {
        line(&g, 10, "read(3</d/in>, \"\", 16384) = 16384");
    }
    add_case("a_h_1", &g);
}

START_TEST(reread)
{
    read_twice(64);
    judge();
    const struct iodfg_insight *f = find(IODFG_INS_REREAD);
    ck_assert_ptr_nonnull(f);
    ck_assert_double_eq(num(f, "reread_bytes"), 65536);
    ck_assert_double_eq(num(f, "read_bytes"), 131072);
}
END_TEST

START_TEST(reread_below)
{
    read_twice(48);
    judge();
    ck_assert_ptr_null(find(IODFG_INS_REREAD));
}
END_TEST

static void lock_cycles(int n)
{
    struct gen g = {0};
    line(&g, 1, "openat(AT_FDCWD, \"/d/l\", O_WRONLY) = 3</d/l>");
    for (int i = 0; i < n; i++) {
        line(&g, 1, "flock(3</d/l>, LOCK_EX) = 0");
        line(&g, 1, "write(3</d/l>, \"\", 100) = 100");
        line(&g, 1, "flock(3</d/l>, LOCK_UN) = 0");
    }
    line(&g, 1, "flock(3</d/l>, LOCK_EX) = 0"); // a lock without I/O is no cycle
    line(&g, 1, "flock(3</d/l>, LOCK_UN) = 0");
    add_case("a_h_1", &g);
}

START_TEST(lock_cycle)
{
    lock_cycles(10);
    judge();
    const struct iodfg_insight *f = find(IODFG_INS_LOCK_CYCLE);
    ck_assert_ptr_nonnull(f);
    ck_assert_double_eq(num(f, "cycles"), 10);
    ck_assert_double_eq(num(f, "flock_calls"), 22);
}
END_TEST

START_TEST(lock_cycle_below)
{
    lock_cycles(9);
    judge();
    ck_assert_ptr_null(find(IODFG_INS_LOCK_CYCLE));
}
END_TEST

/* ---- time: stair-cases, imbalance, stragglers, bursts ---- */

// n cases issue one write each at the same moment; case i's takes (i + 1) * 100 ms.
static void staircase(int n)
{
    for (int c = 0; c < n; c++) {
        struct gen g = {.t_us = 1000000};
        line(&g, (c + 1) * 100000L, "write(3</s/f>, \"\", 8192) = 8192");
        char name[32];
        snprintf(name, sizeof(name), "s_h_%d", c);
        add_case(name, &g);
    }
}

START_TEST(stair_case)
{
    staircase(9); // 8 calls queue behind their predecessor
    judge();
    const struct iodfg_insight *f = find(IODFG_INS_STAIR_CASE);
    ck_assert_ptr_nonnull(f);
    ck_assert_double_eq(num(f, "queued"), 8);
    ck_assert_double_eq_tol(num(f, "stair"), 8.0 / 9.0, 1e-6);
}
END_TEST

START_TEST(stair_case_below)
{
    staircase(8);
    judge();
    ck_assert_ptr_null(find(IODFG_INS_STAIR_CASE));
}
END_TEST

// Three cases of run r: two spend 100 ms in calls, the third `worst_ms`, ending later.
static void three_cases(const char *run, long worst_ms)
{
    for (int c = 0; c < 3; c++) {
        struct gen g = {.t_us = 1000000};
        line(&g, c == 2 ? worst_ms * 1000 : 100000, "write(3</d/%s%d>, \"\", 8192) = 8192", run, c);
        char name[32];
        snprintf(name, sizeof(name), "%s_h_%d", run, c);
        add_case(name, &g);
    }
}

START_TEST(imbalance)
{
    three_cases("r", 200);
    judge();
    const struct iodfg_insight *f = find(IODFG_INS_IMBALANCE);
    ck_assert_ptr_nonnull(f);
    ck_assert_double_eq(num(f, "ratio"), 2);
    ck_assert_str_eq(case_of(f->cases[0]), "r_h_2"); // the worst case named first
    ck_assert_int_eq(f->subject_kind, IODFG_SUBJ_RUN);
    ck_assert_str_eq(iodfg_strpool_get(INS.pool, f->subject), "r");
    const struct iodfg_insight *s = find(IODFG_INS_STRAGGLER);
    ck_assert_ptr_nonnull(s);
    ck_assert_double_eq(num(s, "late_ns"), 100e6);
    ck_assert_str_eq(case_of(s->cases[0]), "r_h_2");
}
END_TEST

/* The median the imbalance and straggler findings compare with: of an even number of cases the
 * lower middle (the cases sorted from the worst), of an odd number the middle. */
START_TEST(imbalance_median)
{
    static const long even[] = {100, 300, 900, 200}, odd[] = {150, 900, 100, 300, 200};
    const long *sets[] = {even, odd};
    size_t sizes[] = {4, 5};
    for (int k = 0; k < 2; k++) {
        teardown();
        setup();
        for (size_t c = 0; c < sizes[k]; c++) {
            struct gen g = {.t_us = 1000000};
            line(&g, sets[k][c] * 1000, "write(3</d/m%zu>, \"\", 8192) = 8192", c);
            char name[32];
            snprintf(name, sizeof(name), "m_h_%zu", c);
            add_case(name, &g);
        }
        judge();
        const struct iodfg_insight *f = find(IODFG_INS_IMBALANCE);
        ck_assert_ptr_nonnull(f);
        ck_assert_double_eq(num(f, "median_ns"), 200e6);
        ck_assert_double_eq(num(f, "ratio"), 4.5);
        const struct iodfg_insight *s = find(IODFG_INS_STRAGGLER);
        ck_assert_ptr_nonnull(s);
        ck_assert_double_eq(num(s, "late_ns"), 700e6); // ends 1.9 s against the median 1.2 s
        ck_assert_double_eq(num(s, "median_span_ns"), 200e6);
    }
}
END_TEST

START_TEST(imbalance_below)
{
    three_cases("r", 199);
    T.straggler_share = 1.5; // 99 ms late, 100 ms median span: no straggler at 1.5
    judge();
    ck_assert_ptr_null(find(IODFG_INS_IMBALANCE));
    ck_assert_ptr_null(find(IODFG_INS_STRAGGLER));
}
END_TEST

START_TEST(imbalance_within_runs)
{
    // run a: all 100 ms; run b: all 300 ms. Together the 300 ms cases would be 3 times the
    // median; within their runs nothing is out of balance.
    for (int r = 0; r < 2; r++) {
        for (int c = 0; c < 3; c++) {
            struct gen g = {.t_us = 1000000};
            line(&g, r ? 300000 : 100000, "write(3</d/f>, \"\", 8192) = 8192");
            char name[32];
            snprintf(name, sizeof(name), "%c_h_%d", r ? 'b' : 'a', c);
            add_case(name, &g);
        }
    }
    judge();
    ck_assert_ptr_null(find(IODFG_INS_IMBALANCE));
}
END_TEST

static void burst(int n)
{
    struct gen g = {0};
    line(&g, 1, "openat(AT_FDCWD, \"/d/f\", O_WRONLY) = 3</d/f>");
    for (int i = 0; i < n; i++) {
        line(&g, 10, "write(3</d/f>, \"\", 65536) = 65536");
    }
    g.t_us = 100000000; // then quiet for 100 s
    line(&g, 10, "write(3</d/f>, \"\", 65536) = 65536");
    add_case("a_h_1", &g);
}

START_TEST(bursty)
{
    burst(99); // 100 writes in all
    judge();
    const struct iodfg_insight *f = find(IODFG_INS_BURSTY);
    ck_assert_ptr_nonnull(f);
    ck_assert_double_lt(num(f, "intensity"), 0.05);
    ck_assert_double_gt(num(f, "burstiness"), 0.9);
    ck_assert_str_eq(iodfg_strpool_get(INS.pool, f->subject), "writes");
}
END_TEST

START_TEST(bursty_below)
{
    burst(98);
    judge();
    ck_assert_ptr_null(find(IODFG_INS_BURSTY));
}
END_TEST

/* ---- thresholds, ranking, groups, names ---- */

START_TEST(threshold_set_and_errors)
{
    struct iodfg_error err;
    iodfg_error_clear(&err);
    ck_assert_int_eq(iodfg_insight_threshold_set(&T, " small-size = 8192 ", &err), 0);
    ck_assert_double_eq(T.small_size, 8192);
    ck_assert_int_eq(iodfg_insight_threshold_set(&T, "small-sise=1", &err), -1);
    ck_assert_uint_eq(err.col, 1);
    ck_assert_ptr_nonnull(strstr(err.msg, "unknown threshold 'small-sise'"));
    iodfg_error_clear(&err);
    ck_assert_int_eq(iodfg_insight_threshold_set(&T, "small-share=1.5", &err), -1);
    ck_assert_uint_eq(err.col, 13);
    iodfg_error_clear(&err);
    ck_assert_int_eq(iodfg_insight_threshold_set(&T, "small-share=", &err), -1);
    iodfg_error_clear(&err);
    ck_assert_int_eq(iodfg_insight_threshold_set(&T, "small-share", &err), -1);
    ck_assert_double_eq(T.small_share, 0.5); // unchanged by the failures
}
END_TEST

START_TEST(thresholds_file)
{
    struct iodfg_error err;
    iodfg_error_clear(&err);
    static const char good[] = "# mine\n\nreopens = 3  # fewer\nmin-ops=5\n";
    ck_assert_int_eq(iodfg_insight_thresholds_parse(&T, good, strlen(good), "f", &err), 0);
    ck_assert_double_eq(T.reopens, 3);
    ck_assert_double_eq(T.min_ops, 5);
    static const char bad[] = "reopens = 4\nmin-ops 6\n";
    ck_assert_int_eq(iodfg_insight_thresholds_parse(&T, bad, strlen(bad), "f.conf", &err), -1);
    ck_assert_str_eq(err.where, "f.conf");
    ck_assert_uint_eq(err.line, 2);
    ck_assert_uint_eq(err.col, 9);
    ck_assert_double_eq(T.reopens, 3); // nothing changed on error
    // the format reads back the same
    struct iodfg_buf b;
    iodfg_buf_init(&b);
    ck_assert_int_eq(iodfg_insight_thresholds_format(&T, &b), 0);
    struct iodfg_insight_thresholds u;
    iodfg_insight_thresholds_default(&u);
    ck_assert_int_eq(iodfg_insight_thresholds_parse(&u, b.data, b.len, "x", &err), 0);
    ck_assert_int_eq(memcmp(&u, &T, sizeof(u)), 0);
    iodfg_buf_fini(&b);
}
END_TEST

START_TEST(ranked_and_capped)
{
    small_writes(100, 0);
    tty_writes(0);
    opens(10);
    judge();
    for (size_t i = 1; i < INS.n; i++) {
        ck_assert_int_ge(INS.v[i - 1].severity, INS.v[i].severity);
    }
    size_t before = INS.n;
    T.max_per_rule = 1;
    T.min_ops = 1;
    judge();
    ck_assert_int_le(INS.n, before + 1);
    for (size_t i = 0; i < INS.n; i++) {
        for (size_t j = i + 1; j < INS.n; j++) {
            ck_assert_int_ne(INS.v[i].rule, INS.v[j].rule);
        }
    }
}
END_TEST

START_TEST(rules_off)
{
    small_writes(100, 0);
    uint8_t on[IODFG_INS__N] = {0};
    on[IODFG_INS_REPEATED_OPEN] = 1;
    tlog_map_fhat(&MAP, LOG);
    struct iodfg_selection sel;
    iodfg_selection_all(&sel);
    ck_assert_int_eq(iodfg_insights_build(&INS, LOG, &MAP, &sel, &T, on, NULL), 0);
    ck_assert_uint_eq(INS.n, 0);
}
END_TEST

START_TEST(renamed_activities)
{
    seek_pairs(20, 0);
    judge();
    struct iodfg_insights a = INS;
    iodfg_insights_init(&INS);
    // the same events under other names: every file activity renamed
    struct iodfg_mapping other;
    tlog_map_fhat(&other, LOG);
    uint32_t n = other.nactivities;
    for (uint32_t i = 0; i < n; i++) {
        char name[256];
        snprintf(name, sizeof(name), "renamed %u", i);
        tlog_new_act(&other, name);
    }
    for (uint32_t k = 0; k < other.nkeys; k++) {
        if (other.activity_of_key[k] != IODFG_NO_ACTIVITY) {
            other.activity_of_key[k] += n;
        }
    }
    tlog_map_free(&MAP);
    MAP = other;
    judge();
    ck_assert_uint_eq(INS.n, a.n);
    for (size_t i = 0; i < a.n; i++) {
        ck_assert_int_eq(INS.v[i].rule, a.v[i].rule);
        ck_assert_str_eq(INS.v[i].text, a.v[i].text);
        ck_assert_str_eq(iodfg_strpool_get(INS.pool, INS.v[i].paths[0]),
                         iodfg_strpool_get(a.pool, a.v[i].paths[0]));
    }
    iodfg_insights_fini(&a);
}
END_TEST

START_TEST(compare_groups)
{
    small_writes(100, 0);
    opens(10);
    tlog_map_fhat(&MAP, LOG);
    uint8_t g_on[2] = {1, 0}, r_on[2] = {0, 1};
    struct iodfg_selection g = {.case_on = g_on, .from_ns = INT64_MIN, .to_ns = INT64_MAX};
    struct iodfg_selection r = {.case_on = r_on, .from_ns = INT64_MIN, .to_ns = INT64_MAX};
    struct iodfg_insights gi, ri;
    iodfg_insights_init(&gi);
    iodfg_insights_init(&ri);
    ck_assert_int_eq(iodfg_insights_build(&gi, LOG, &MAP, &g, &T, NULL, NULL), 0);
    ck_assert_int_eq(iodfg_insights_build(&ri, LOG, &MAP, &r, &T, NULL, NULL), 0);
    struct iodfg_insight_change *ch;
    size_t n;
    ck_assert_int_eq(iodfg_insights_compare(&gi, &ri, &MAP, &ch, &n, NULL), 0);
    int g_small = 0, r_open = 0;
    for (size_t i = 0; i < n; i++) {
        g_small += ch[i].side == IODFG_INS_G_ONLY && ch[i].g->rule == IODFG_INS_SMALL_IO;
        r_open += ch[i].side == IODFG_INS_R_ONLY && ch[i].r->rule == IODFG_INS_REPEATED_OPEN;
    }
    ck_assert_int_eq(g_small, 1);
    ck_assert_int_eq(r_open, 1);
    free(ch);
    // the same findings on both sides: no difference
    ck_assert_int_eq(iodfg_insights_compare(&gi, &gi, &MAP, &ch, &n, NULL), 0);
    ck_assert_uint_eq(n, 0);
    free(ch);
    iodfg_insights_fini(&gi);
    iodfg_insights_fini(&ri);
}
END_TEST

/* Start over with an empty log (for a second scenario in one test). */
static void reset(void)
{
    iodfg_insights_fini(&INS);
    if (MAP.activity_of_key) {
        tlog_map_free(&MAP);
    }
    iodfg_eventlog_free(LOG);
    LOG = iodfg_eventlog_new(IODFG_COL_ALL);
    ck_assert_ptr_nonnull(LOG);
}

/* The tiny writes all at one time stamp: the rate is unknown, and said so (never "nan"). */
START_TEST(tiny_tty_rate_unknown)
{
    struct iodfg_buf b;
    iodfg_buf_init(&b);
    for (int i = 0; i < 100; i++) {
        iodfg_buf_addf(&b, "1 08:00:00.000001 write(1</dev/pts/3>, \"x\", 1) = 1\n"); // no -T
    }
    tlog_add_case_cid(LOG, "a_h_1", "a", b.data);
    iodfg_buf_fini(&b);
    judge();
    const struct iodfg_insight *f = find(IODFG_INS_TINY_TTY);
    ck_assert_ptr_nonnull(f);
    ck_assert_ptr_null(strstr(f->text, "nan"));
    ck_assert_ptr_null(strstr(f->text, "inf"));
    ck_assert_ptr_nonnull(strstr(f->text, "unknown rate (all at one time stamp"));
    ck_assert(isnan(num(f, "per_second")));
}
END_TEST

/* ---- how I/O spreads over cases and files ---- */

/* n cases each writing a file of /o (all the same one with same_file); with two_each, every
 * case writes a second file there too. */
static void own_files(int n, int same_file, int two_each)
{
    for (int c = 0; c < n; c++) {
        struct gen g = {.t_us = c * 7};
        int file = same_file ? 0 : c;
        line(&g, 1, "openat(AT_FDCWD, \"/o/f.%d\", O_WRONLY|O_CREAT, 0644) = 3</o/f.%d>", file,
             file);
        for (int i = 0; i < 16; i++) {
            line(&g, 10, "write(3</o/f.%d>, \"\", 16384) = 16384", file);
        }
        if (two_each) {
            line(&g, 10, "write(4</o/log.%d>, \"\", 100) = 100", c);
        }
        char name[32];
        snprintf(name, sizeof(name), "fpp_h_%d", c);
        add_case(name, &g);
    }
}

START_TEST(file_per_process)
{
    own_files(4, 0, 0);
    judge();
    const struct iodfg_insight *f = find(IODFG_INS_FILE_PER_PROCESS);
    ck_assert_ptr_nonnull(f);
    ck_assert_double_eq(num(f, "files"), 4);
    ck_assert_double_eq(num(f, "writes"), 64);
    ck_assert_double_eq(num(f, "bytes"), 64 * 16384.0);
    ck_assert_int_eq(f->subject_kind, IODFG_SUBJ_PATH);
    ck_assert_str_eq(iodfg_strpool_get(INS.pool, f->subject), "/o");
    ck_assert_uint_eq(f->paths_total, 4);
    ck_assert_uint_eq(f->cases_total, 4);
    ck_assert_str_eq(iodfg_mapping_name(&MAP, f->act[0]), "write:/o/f.0");
}
END_TEST

START_TEST(file_per_process_not)
{
    own_files(4, 1, 0); // one shared file
    judge();
    ck_assert_ptr_null(find(IODFG_INS_FILE_PER_PROCESS));
    reset();
    own_files(4, 0, 1); // each case writes two files of the directory
    judge();
    ck_assert_ptr_null(find(IODFG_INS_FILE_PER_PROCESS));
    reset();
    own_files(1, 0, 0); // one file is not fpp-files (2)
    judge();
    ck_assert_ptr_null(find(IODFG_INS_FILE_PER_PROCESS));
}
END_TEST

/* n cases open and pwrite /s/f; the first `seekers` of them also lseek it `seeks` times (as
 * MPI-IO's rank 0 asks for the file's size). */
static void seekers_of(int n, int seekers, int seeks)
{
    for (int c = 0; c < n; c++) {
        struct gen g = {.t_us = c * 7};
        line(&g, 1, "openat(AT_FDCWD, \"/s/f\", O_RDWR) = 3</s/f>");
        for (int i = 0; c < seekers && i < seeks; i++) {
            line(&g, 5, "lseek(3</s/f>, 0, SEEK_END) = 1048576");
        }
        for (int i = 0; i < 4; i++) {
            line(&g, 10, "pwrite64(3</s/f>, \"\", 16384, %d) = 16384", (c * 4 + i) * 16384);
        }
        char name[32];
        snprintf(name, sizeof(name), "ssf_h_%d", c);
        add_case(name, &g);
    }
}

START_TEST(one_case)
{
    seekers_of(4, 1, 4);
    judge();
    const struct iodfg_insight *f = find(IODFG_INS_ONE_CASE);
    ck_assert_ptr_nonnull(f);
    ck_assert_str_eq(iodfg_mapping_name(&MAP, f->subject), "lseek:/s/f");
    ck_assert_double_eq(num(f, "ops"), 4);
    ck_assert_double_eq(num(f, "cases_using"), 4);
    ck_assert_uint_eq(f->cases_total, 1);
    ck_assert_str_eq(case_of(f->cases[0]), "ssf_h_0");
    ck_assert_str_eq(iodfg_strpool_get(INS.pool, f->paths[0]), "/s/f");
    // every case writes: no "one case" for the writes
    for (size_t i = 0; i < INS.n; i++) {
        ck_assert(INS.v[i].rule != IODFG_INS_ONE_CASE || INS.v[i].subject == f->subject);
    }
}
END_TEST

START_TEST(one_case_not)
{
    seekers_of(4, 2, 4); // two cases seek
    judge();
    ck_assert_ptr_null(find(IODFG_INS_ONE_CASE));
    reset();
    seekers_of(4, 1, 3); // fewer than one-case-ops
    judge();
    ck_assert_ptr_null(find(IODFG_INS_ONE_CASE));
    reset();
    seekers_of(1, 1, 4); // nobody else uses the file
    judge();
    ck_assert_ptr_null(find(IODFG_INS_ONE_CASE));
}
END_TEST

/* ---- focus classes ---- */

/* The application's small writes (200 us) and the loader's small reads of a library (100 reads of
 * loader_us each), in a run that waits 1 s in futex. */
static void app_and_loader(long loader_us)
{
    struct gen g = {0};
    line(&g, 1000000, "futex(0x7f, FUTEX_WAIT_PRIVATE, 0, NULL) = 0");
    line(&g, 1, "openat(AT_FDCWD, \"/d/f\", O_WRONLY) = 3</d/f>");
    for (int i = 0; i < 100; i++) {
        line(&g, 2, "write(3</d/f>, \"\", 1) = 1");
    }
    line(&g, 1, "openat(AT_FDCWD, \"/usr/lib/libz.so.1\", O_RDONLY) = 4</usr/lib/libz.so.1>");
    for (int i = 0; i < 100; i++) {
        line(&g, loader_us, "read(4</usr/lib/libz.so.1>, \"\", 832) = 832");
    }
    add_case("a_h_1", &g);
}

static void judge_classes(void)
{
    tlog_map_fhat(&MAP, LOG);
    struct iodfg_error err;
    iodfg_error_clear(&err);
    struct iodfg_focus *fo = iodfg_focus_new(NULL, 0, NULL, &err);
    ck_assert_ptr_nonnull(fo);
    struct iodfg_focus_classes cl;
    iodfg_focus_classes_init(&cl);
    ck_assert_int_eq(iodfg_focus_classify(fo, LOG, &cl, &err), 0);
    struct iodfg_selection sel;
    iodfg_selection_all(&sel);
    ck_assert_msg(iodfg_insights_build_classes(&INS, LOG, &MAP, &sel, &T, NULL, &cl, &err) == 0,
                  "%s", err.msg);
    iodfg_focus_classes_fini(&cl);
    iodfg_focus_free(fo);
}

START_TEST(classes_rank_application_first)
{
    app_and_loader(5); // the loader's reads take longer, but both are low
    judge();
    ck_assert_uint_ge(INS.n, 2);
    ck_assert_str_eq(iodfg_mapping_name(&MAP, INS.v[0].subject), "read:/usr/lib");
    ck_assert_str_eq(iodfg_insight_class(&INS, &INS.v[0]), ""); // not split: no classes
    iodfg_insights_fini(&INS);
    tlog_map_free(&MAP);
    judge_classes();
    ck_assert_int_eq(INS.app_first, 1);
    ck_assert_uint_ge(INS.n, 2);
    ck_assert_int_eq(INS.v[0].severity, IODFG_SEV_LOW);
    ck_assert_str_eq(iodfg_mapping_name(&MAP, INS.v[0].subject), "write:/d/f");
    ck_assert_uint_eq(INS.v[0].fclass, 0);
    ck_assert_str_eq(iodfg_insight_class(&INS, &INS.v[0]), "");
    const struct iodfg_insight *r = NULL;
    for (size_t i = 1; !r && i < INS.n; i++) { // the loader's small reads come later
        r = INS.v[i].rule == IODFG_INS_SMALL_IO ? &INS.v[i] : NULL;
    }
    ck_assert_ptr_nonnull(r);
    ck_assert_str_eq(iodfg_mapping_name(&MAP, r->subject), "read:/usr/lib");
    ck_assert_str_eq(iodfg_insight_class(&INS, r), "loader");
    ck_assert_double_eq_tol(r->time_ns, 500000, 1);
}
END_TEST

/* A runtime finding of a higher severity still comes first: the search-path storm at scale. */
START_TEST(classes_runtime_first_when_more_severe)
{
    app_and_loader(5000); // 500 ms of the loader's against 1 s: high
    judge_classes();
    ck_assert_int_eq(INS.v[0].severity, IODFG_SEV_HIGH);
    ck_assert_str_eq(iodfg_insight_class(&INS, &INS.v[0]), "loader");
    ck_assert_str_eq(iodfg_mapping_name(&MAP, INS.v[1].subject), "write:/d/f");
}
END_TEST

/* ---- comparing groups by place ---- */

// Cases `prefix`_h_1 and _2 write `path` with `call` at once, 10 writes of dur_us each.
static void writers(const char *prefix, const char *path, const char *call, long dur_us)
{
    for (int c = 0; c < 2; c++) {
        struct gen g = {.t_us = c * 1000};
        line(&g, 1, "openat(AT_FDCWD, \"%s\", O_WRONLY) = 3<%s>", path, path);
        for (int i = 0; i < 10; i++) {
            if (strcmp(call, "write") == 0) {
                line(&g, dur_us, "write(3<%s>, \"\", 8192) = 8192", path);
            } else {
                line(&g, dur_us, "%s(3<%s>, \"\", 8192, %d) = 8192", call, path,
                     (c * 10 + i) * 8192);
            }
        }
        char name[64];
        snprintf(name, sizeof(name), "%s_h_%d", prefix, c + 1);
        add_case(name, &g);
    }
}

static void judge_two(long r_dur_us, struct iodfg_insights *gi, struct iodfg_insights *ri)
{
    writers("g", "/s/run/posix/test", "write", 100000);
    writers("r", "/s/run/mpiio/test", "pwrite64", r_dur_us);
    tlog_map_fhat(&MAP, LOG);
    uint8_t g_on[4] = {1, 1, 0, 0}, r_on[4] = {0, 0, 1, 1};
    struct iodfg_selection g = {.case_on = g_on, .from_ns = INT64_MIN, .to_ns = INT64_MAX};
    struct iodfg_selection r = {.case_on = r_on, .from_ns = INT64_MIN, .to_ns = INT64_MAX};
    iodfg_insights_init(gi);
    iodfg_insights_init(ri);
    ck_assert_int_eq(iodfg_insights_build(gi, LOG, &MAP, &g, &T, NULL, NULL), 0);
    ck_assert_int_eq(iodfg_insights_build(ri, LOG, &MAP, &r, &T, NULL, NULL), 0);
}

/* shared-file on the data file of two runs is one row, although path and call differ. */
START_TEST(align_by_place)
{
    struct iodfg_insights gi, ri;
    judge_two(100000, &gi, &ri);
    struct iodfg_insight_change *ch;
    size_t n;
    ck_assert_int_eq(iodfg_insights_align(&gi, &ri, &ch, &n, NULL), 0);
    int rows = 0;
    for (size_t i = 0; i < n; i++) {
        const struct iodfg_insight *x = ch[i].g ? ch[i].g : ch[i].r;
        if (x->rule == IODFG_INS_SHARED_FILE) {
            rows++;
            ck_assert_int_eq(ch[i].side, IODFG_INS_SAME);
            ck_assert_ptr_nonnull(ch[i].g);
            ck_assert_ptr_nonnull(ch[i].r);
            ck_assert_str_eq(iodfg_strpool_get(gi.pool, ch[i].g->subject), "/s/run/posix/test");
            ck_assert_str_eq(iodfg_strpool_get(ri.pool, ch[i].r->subject), "/s/run/mpiio/test");
        }
    }
    ck_assert_int_eq(rows, 1);
    free(ch);
    ck_assert_int_eq(iodfg_insights_compare(&gi, &ri, &MAP, &ch, &n, NULL), 0);
    for (size_t i = 0; i < n; i++) { // the same per case: not a difference
        ck_assert((ch[i].g ? ch[i].g : ch[i].r)->rule != IODFG_INS_SHARED_FILE);
    }
    free(ch);
    iodfg_insights_fini(&gi);
    iodfg_insights_fini(&ri);
}
END_TEST

/* Three times the time per case is a change, at one severity. */
START_TEST(align_changed_per_case)
{
    struct iodfg_insights gi, ri;
    judge_two(300000, &gi, &ri);
    struct iodfg_insight_change *ch;
    size_t n;
    ck_assert_int_eq(iodfg_insights_compare(&gi, &ri, &MAP, &ch, &n, NULL), 0);
    int changed = 0;
    for (size_t i = 0; i < n; i++) {
        if (ch[i].side == IODFG_INS_BOTH && ch[i].g->rule == IODFG_INS_SHARED_FILE) {
            changed++;
            ck_assert_int_eq(ch[i].g->severity, ch[i].r->severity);
        }
    }
    ck_assert_int_eq(changed, 1);
    ck_assert_str_eq(iodfg_insight_side_mark(IODFG_INS_BOTH), "changed");
    ck_assert_str_eq(iodfg_insight_side_mark(IODFG_INS_SAME), "=");
    free(ch);
    iodfg_insights_fini(&gi);
    iodfg_insights_fini(&ri);
}
END_TEST

START_TEST(missing_columns)
{
    struct iodfg_eventlog *small = iodfg_eventlog_new(IODFG_COL_ANALYSIS);
    tlog_add_case(small, "a_h_1",
                  "1 00:00:01.000000 write(1</dev/pts/1>, \"\", 1) = 1 <0.000001>\n");
    struct iodfg_mapping m;
    tlog_map_fhat(&m, small);
    struct iodfg_selection sel;
    iodfg_selection_all(&sel);
    struct iodfg_error err;
    iodfg_error_clear(&err);
    ck_assert_int_eq(iodfg_insights_build(&INS, small, &m, &sel, &T, NULL, &err), -1);
    ck_assert_int_eq(err.code, IODFG_E_ARG);
    tlog_map_free(&m);
    iodfg_eventlog_free(small);
}
END_TEST

START_TEST(empty_selection)
{
    judge();
    ck_assert_uint_eq(INS.n, 0);
    ck_assert_uint_eq(INS.events, 0);
}
END_TEST

static Suite *insights_suite(void)
{
    Suite *s = suite_create("insights");
    TCase *tc = tcase_create("core");
    tcase_add_checked_fixture(tc, setup, teardown);
    tcase_add_test(tc, small_io_at_count_floor);
    tcase_add_test(tc, small_io_below_count_floor);
    tcase_add_test(tc, small_io_share);
    tcase_add_test(tc, small_io_share_below);
    tcase_add_test(tc, small_io_default_is_under_one_mib);
    tcase_add_test(tc, small_io_one_mib_is_not_small);
    tcase_add_test(tc, tiny_tty_rate_unknown);
    tcase_add_test(tc, file_per_process);
    tcase_add_test(tc, file_per_process_not);
    tcase_add_test(tc, one_case);
    tcase_add_test(tc, one_case_not);
    tcase_add_test(tc, classes_rank_application_first);
    tcase_add_test(tc, classes_runtime_first_when_more_severe);
    tcase_add_test(tc, align_by_place);
    tcase_add_test(tc, align_changed_per_case);
    tcase_add_test(tc, tiny_tty);
    tcase_add_test(tc, tiny_tty_below);
    tcase_add_test(tc, seek_io);
    tcase_add_test(tc, seek_io_below);
    tcase_add_test(tc, access_unknown_without_open);
    tcase_add_test(tc, random_access);
    tcase_add_test(tc, random_access_below);
    tcase_add_test(tc, metadata_heavy);
    tcase_add_test(tc, metadata_below);
    tcase_add_test(tc, repeated_open);
    tcase_add_test(tc, repeated_open_below);
    tcase_add_test(tc, failed_storm);
    tcase_add_test(tc, failed_storm_below);
    tcase_add_test(tc, shared_file);
    tcase_add_test(tc, shared_file_apart);
    tcase_add_test(tc, reread);
    tcase_add_test(tc, reread_below);
    tcase_add_test(tc, lock_cycle);
    tcase_add_test(tc, lock_cycle_below);
    tcase_add_test(tc, stair_case);
    tcase_add_test(tc, stair_case_below);
    tcase_add_test(tc, imbalance);
    tcase_add_test(tc, imbalance_below);
    tcase_add_test(tc, imbalance_median);
    tcase_add_test(tc, imbalance_within_runs);
    tcase_add_test(tc, bursty);
    tcase_add_test(tc, bursty_below);
    tcase_add_test(tc, threshold_set_and_errors);
    tcase_add_test(tc, thresholds_file);
    tcase_add_test(tc, ranked_and_capped);
    tcase_add_test(tc, rules_off);
    tcase_add_test(tc, renamed_activities);
    tcase_add_test(tc, compare_groups);
    tcase_add_test(tc, missing_columns);
    tcase_add_test(tc, empty_selection);
    suite_add_tcase(s, tc);
    return s;
}

int main(void)
{
    return testutil_run(insights_suite());
}
