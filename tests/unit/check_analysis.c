/* SPDX-License-Identifier: MIT */
/* Unit tests: incremental analysis equals a full rebuild bit for bit under random rule edits. */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "iodfg/analysis.h"
#include "iodfg/dfg.h"
#include "iodfg/error.h"
#include "iodfg/eventlog.h"
#include "iodfg/mapping.h"
#include "iodfg/stats.h"
#include "iodfg/strpool.h"
#include "iodfg/timeline.h"
#include "iodfg/trace.h"

#include "../../src/engine/dfg_priv.h"
#include "../../src/engine/stats_priv.h"
#include "dfg_testlog.h"
#include "testutil.h"

static struct iodfg_eventlog *LOG;
static struct iodfg_mapping MAP;

static uint64_t SPLIT_MIN;

/* Every test splits the statistics walk over two threads, however small the log, unless it
 * says otherwise. */
static void setup(void)
{
    SPLIT_MIN = iodfg_scan_split_min;
    iodfg_scan_split_min = 0;
    LOG = iodfg_eventlog_new(IODFG_COL_ANALYSIS);
    ck_assert_ptr_nonnull(LOG);
}

static void teardown(void)
{
    iodfg_scan_split_min = SPLIT_MIN;
    tlog_map_free(&MAP);
    iodfg_eventlog_free(LOG);
}

/* A nanosecond value of many magnitudes (up to hours), mostly at an end of a bucket of the
 * percentile histogram (m * 2^j or one less, 64 <= m < 128). */
static long edge_value(void)
{
    int r = rand() % 8;
    if (r == 0) {
        return rand() % 70; // exact buckets
    }
    long v = (64L + rand() % 64) << (rand() % 36);
    return r % 2 ? v : v - 1;
}

/* A random -f -ttt -T trace: overlapping calls of a few pids over a dozen files. wide: times in
 * nanoseconds, durations and start steps from edge_value, so that durations and gaps (negative
 * ones too) fall at the ends of buckets of many magnitudes. */
static void random_log_ex(unsigned seed, int ncases, int wide)
{
    static const char *const calls[] = {"read", "write", "pread64", "close"};
    static const char *const paths[] = {"/a/b/c", "/a/b/d", "/a/e", "/f",   "/g/h/i/j",
                                        "/g/h/k", "/l/m",   "/n",   "/o/p", "/q/r/s"};
    srand(seed);
    char *text = malloc(1 << 16);
    for (int c = 0; c < ncases; c++) {
        size_t len = 0;
        int n = rand() % 40;
        long t = rand() % 50;
        for (int i = 0; i < n; i++) {
            t += wide ? edge_value() : rand() % 6; // equal starts happen
            const char *call = calls[rand() % 4];
            const char *path = paths[rand() % 10];
            int pid = 100 + rand() % 3;
            if (wide) {
                long sec = 1700000000L + t / 1000000000L, ns = t % 1000000000L;
                long d = edge_value();
                len += (size_t)snprintf(
                    text + len, 200, "%d %ld.%09ld %s(3<%s>, \"\", 9) = %d <%ld.%09ld>\n", pid, sec,
                    ns, call, path, rand() % 9, d / 1000000000L, d % 1000000000L);
            } else if (rand() % 10 == 0) { // no duration shown
                len += (size_t)snprintf(text + len, 200,
                                        "%d 1700000000.%06ld %s(3<%s>, \"\", 9) = %d\n", pid, t,
                                        call, path, rand() % 9);
            } else {
                len += (size_t)snprintf(text + len, 200,
                                        "%d 1700000000.%06ld %s(3<%s>, \"\", 9) = %d <0.%06d>\n",
                                        pid, t, call, path, rand() % 9, rand() % 8);
            }
        }
        text[len] = '\0';
        char name[32];
        snprintf(name, sizeof(name), "case%d", c);
        tlog_add_case(LOG, name, text);
    }
    free(text);
}

static void random_log(unsigned seed, int ncases)
{
    random_log_ex(seed, ncases, 0);
}

static void same_bits(const void *a, const void *b, size_t n, const char *what, uint32_t id)
{
    ck_assert_msg(!memcmp(a, b, n), "%s differs for %u", what, id);
}

/* Every count and statistic of a and g equals that of b and h, bit for bit. */
static void assert_same(const struct iodfg_stats *a, const struct iodfg_dfg *g,
                        const struct iodfg_stats *b, const struct iodfg_dfg *h)
{
    ck_assert_uint_eq(a->nactivities, b->nactivities);
    ck_assert_int_eq(a->total_dur_ns, b->total_dur_ns);
    for (uint32_t i = 0; i < a->nactivities; i++) {
        const struct iodfg_activity_stats *x = &a->act[i], *y = &b->act[i];
        ck_assert_msg(x->count == y->count && x->cases == y->cases && x->dur_n == y->dur_n &&
                          x->dur_sum_ns == y->dur_sum_ns && x->bytes == y->bytes &&
                          x->dr_n == y->dr_n && x->mc == y->mc && x->mc_time_ns == y->mc_time_ns,
                      "counts differ for activity %u", i);
        same_bits(&x->rd, &y->rd, sizeof(double), "rd", i);
        same_bits(&x->dr_sum, &y->dr_sum, sizeof(double), "dr_sum", i);
        same_bits(&x->dr_mean, &y->dr_mean, sizeof(double), "dr_mean", i);
        same_bits(&x->DR, &y->DR, sizeof(double), "DR", i);
        ck_assert_int_eq(x->dur_min_ns, y->dur_min_ns);
        ck_assert_int_eq(x->dur_median_ns, y->dur_median_ns);
        ck_assert_int_eq(x->dur_p95_ns, y->dur_p95_ns);
        ck_assert_int_eq(x->dur_max_ns, y->dur_max_ns);
    }
    ck_assert_uint_eq(g->traces, h->traces);
    ck_assert_uint_eq(iodfg_dfg_edge_count(g), iodfg_dfg_edge_count(h));
    for (size_t i = 0; i < h->nedges; i++) {
        const struct iodfg_dfg_edge *y = &h->edges[i];
        const struct iodfg_dfg_edge *x = iodfg_dfg_find(g, y->from, y->to);
        ck_assert_ptr_nonnull(x);
        ck_assert_msg(x->count == y->count && x->cases == y->cases && x->gap_n == y->gap_n &&
                          x->gap_sum_ns == y->gap_sum_ns && x->gap_median_ns == y->gap_median_ns,
                      "edge %u->%u differs", y->from, y->to);
        same_bits(&x->gap_mean_ns, &y->gap_mean_ns, sizeof(double), "gap mean", y->from);
    }
}

/* Every count and statistic of the incremental analysis equals a fresh full build. */
static void assert_equal(const struct iodfg_analysis *inc, const struct iodfg_selection *sel)
{
    struct iodfg_error err;
    iodfg_error_clear(&err);
    struct iodfg_analysis *full = iodfg_analysis_new(LOG, &MAP, sel, &err);
    ck_assert_ptr_nonnull(full);
    assert_same(iodfg_analysis_stats(inc), iodfg_analysis_dfg(inc), iodfg_analysis_stats(full),
                iodfg_analysis_dfg(full));
    iodfg_analysis_free(full);
}

static void random_edits(const struct iodfg_selection *sel, unsigned seed)
{
    struct iodfg_error err;
    iodfg_error_clear(&err);
    struct iodfg_analysis *an = iodfg_analysis_new(LOG, &MAP, sel, &err);
    ck_assert_ptr_nonnull(an);
    assert_equal(an, sel);
    srand(seed);
    for (int round = 0; round < 60; round++) {
        uint32_t changed[4];
        size_t n = 1 + (size_t)(rand() % 3);
        for (size_t i = 0; i < n; i++) {
            uint32_t k = (uint32_t)rand() % MAP.nkeys;
            int what = rand() % 4;
            if (what == 0) {
                MAP.activity_of_key[k] = IODFG_NO_ACTIVITY; // dropped
            } else if (what == 1) {
                char name[32];
                snprintf(name, sizeof(name), "new%d", rand() % 5);
                MAP.activity_of_key[k] = tlog_new_act(&MAP, name);
            } else {
                MAP.activity_of_key[k] = (uint32_t)rand() % MAP.nactivities;
            }
            changed[i] = k;
        }
        int use_list = rand() % 2;
        ck_assert_int_eq(iodfg_analysis_update(an, &MAP, use_list ? changed : NULL, n, &err), 0);
        ck_assert_int_eq(iodfg_analysis_last(an)->full, 0);
        assert_equal(an, sel);
    }
    iodfg_analysis_free(an);
}

START_TEST(incremental_equals_full)
{
    random_log(11, 12);
    tlog_map_fhat(&MAP, LOG);
    struct iodfg_selection sel;
    iodfg_selection_all(&sel);
    random_edits(&sel, 1);
}
END_TEST

START_TEST(incremental_equals_full_per_pid_window_mask)
{
    random_log(12, 10);
    tlog_map_fhat(&MAP, LOG);
    uint8_t on[10] = {1, 0, 1, 1, 0, 1, 1, 1, 0, 1};
    struct iodfg_selection sel;
    iodfg_selection_all(&sel);
    sel.per_pid = 1;
    random_edits(&sel, 2);
    sel.case_on = on;
    sel.from_ns = 1700000000000000000LL + 30000;
    sel.to_ns = 1700000000000000000LL + 120000;
    random_edits(&sel, 3);
    sel.per_pid = 0;
    random_edits(&sel, 4);
}
END_TEST

START_TEST(update_touches_only_affected_cases)
{
    tlog_add_case(LOG, "a", "1 1700000000.000000 read(3</x/1>, \"\", 1) = 1 <0.000001>\n");
    tlog_add_case(LOG, "b", "1 1700000000.000000 read(3</y/1>, \"\", 1) = 1 <0.000001>\n");
    tlog_add_case(LOG, "c", "1 1700000000.000000 read(3</y/1>, \"\", 1) = 1 <0.000001>\n");
    tlog_map_fhat(&MAP, LOG);
    struct iodfg_selection sel;
    iodfg_selection_all(&sel);
    struct iodfg_analysis *an = iodfg_analysis_new(LOG, &MAP, &sel, NULL);
    ck_assert_ptr_nonnull(an);
    ck_assert_int_eq(iodfg_analysis_last(an)->full, 1);
    // the shared timeline: three events of 1 us at the same start, starts together, then ends
    const struct iodfg_timeline *tl = iodfg_analysis_timeline(an);
    ck_assert_uint_eq(tl->n, 3);
    ck_assert_uint_eq(tl->npts, 6);
    for (uint32_t i = 0; i < 6; i++) {
        ck_assert_uint_eq(tl->pts[i], i < 3 ? (i | IODFG_PT_START) : i - 3);
    }
    uint32_t k = 0;
    ck_assert_uint_eq(MAP.activity_of_key[k], tlog_act(&MAP, "read:/x/1"));
    // read:/x/1 has one key: giving it another name keeps the partition, nothing is recounted
    MAP.activity_of_key[k] = tlog_new_act(&MAP, "renamed");
    ck_assert_int_eq(iodfg_analysis_update(an, &MAP, &k, 1, NULL), 0);
    const struct iodfg_analysis_info *info = iodfg_analysis_last(an);
    ck_assert_uint_eq(info->keys_changed, 1);
    ck_assert_uint_eq(info->cases_recounted, 0);
    ck_assert_uint_eq(info->activities_dirty, 2);
    ck_assert_uint_eq(iodfg_analysis_stats(an)->act[tlog_act(&MAP, "renamed")].count, 1);
    ck_assert_uint_eq(iodfg_analysis_stats(an)->act[tlog_act(&MAP, "read:/x/1")].count, 0);
    ck_assert_ptr_nonnull(
        iodfg_dfg_find(iodfg_analysis_dfg(an), IODFG_NODE_START, tlog_act(&MAP, "renamed")));
    // folding it into read:/y/1 changes the partition: only case a (holding the key) is recounted
    MAP.activity_of_key[k] = tlog_act(&MAP, "read:/y/1");
    ck_assert_int_eq(iodfg_analysis_update(an, &MAP, &k, 1, NULL), 0);
    info = iodfg_analysis_last(an);
    ck_assert_uint_eq(info->keys_changed, 1);
    ck_assert_uint_eq(info->cases_recounted, 1);
    ck_assert_uint_eq(info->activities_dirty, 2);
    ck_assert_uint_eq(iodfg_analysis_stats(an)->act[tlog_act(&MAP, "read:/y/1")].count, 3);
    ck_assert_uint_eq(iodfg_analysis_stats(an)->act[tlog_act(&MAP, "read:/y/1")].cases, 3);
    ck_assert_uint_eq(iodfg_analysis_stats(an)->act[tlog_act(&MAP, "renamed")].count, 0);
    ck_assert_ptr_null(
        iodfg_dfg_find(iodfg_analysis_dfg(an), IODFG_NODE_START, tlog_act(&MAP, "renamed")));
    assert_equal(an, &sel);
    // a mapping with fewer activities is refused
    MAP.nactivities--;
    struct iodfg_error err;
    iodfg_error_clear(&err);
    ck_assert_int_eq(iodfg_analysis_update(an, &MAP, NULL, 0, &err), -1);
    ck_assert_int_eq(err.code, IODFG_E_ARG);
    MAP.nactivities++;
    iodfg_analysis_free(an);
}
END_TEST

START_TEST(selection_change_is_full_rebuild)
{
    random_log(13, 6);
    tlog_map_fhat(&MAP, LOG);
    struct iodfg_selection sel;
    iodfg_selection_all(&sel);
    struct iodfg_analysis *an = iodfg_analysis_new(LOG, &MAP, &sel, NULL);
    ck_assert_ptr_nonnull(an);
    uint8_t on[6] = {0, 1, 1, 0, 1, 0};
    sel.case_on = on;
    sel.per_pid = 1;
    ck_assert_int_eq(iodfg_analysis_set_selection(an, &sel, NULL), 0);
    on[0] = 1; // the analysis copied the mask
    sel.case_on = (const uint8_t[]){0, 1, 1, 0, 1, 0};
    assert_equal(an, &sel);
    ck_assert_uint_gt(iodfg_analysis_memory(an), 0);
    iodfg_analysis_free(an);
}
END_TEST

static int cmp_i64(const void *a, const void *b)
{
    int64_t x = *(const int64_t *)a, y = *(const int64_t *)b;
    return x < y ? -1 : x > y;
}

/* Nearest rank by sorting: the p-th percentile is the value at rank ceil(p/100 * n). */
static int64_t ref_pct(int64_t *v, size_t n, unsigned p)
{
    if (!n) {
        return IODFG_UNKNOWN;
    }
    qsort(v, n, sizeof(*v), cmp_i64);
    size_t r = (p * n + 99) / 100;
    return v[(r ? r : 1) - 1];
}

struct gap_rec {
    uint32_t from, to;
    int64_t gap;
};
struct gap_list {
    struct gap_rec *v;
    size_t n;
};

static int rec_gap(void *ctx, uint32_t from, uint32_t to, int has_gap, int64_t gap, uint32_t trace,
                   uint64_t ev)
{
    (void)trace;
    (void)ev;
    struct gap_list *l = ctx;
    if (has_gap) {
        l->v[l->n++] = (struct gap_rec){from, to, gap};
    }
    return 0;
}

/* The cases of every activity (one trace per case) equal a brute-force count: the cases with a
 * selected event of the activity. */
static void assert_cases_brute_force(const struct iodfg_analysis *an,
                                     const struct iodfg_selection *sel)
{
    const struct iodfg_columns *col = iodfg_eventlog_columns(LOG);
    const uint32_t *act = iodfg_analysis_activities(an);
    const struct iodfg_stats *st = iodfg_analysis_stats(an);
    for (uint32_t a = 0; a < st->nactivities; a++) {
        uint64_t cases = 0;
        for (uint32_t c = 0; c < iodfg_eventlog_case_count(LOG); c++) {
            uint64_t lo, hi, e;
            if (!iodfg_trace_case_range(LOG, sel, c, &lo, &hi)) {
                continue;
            }
            for (e = lo; e < hi && act[col->key[e]] != a; e++) {
            }
            cases += e < hi;
        }
        ck_assert_msg(st->act[a].cases == cases, "activity %u: %llu cases, expected %llu", a,
                      (unsigned long long)st->act[a].cases, (unsigned long long)cases);
    }
}

/* mc, durations and gap medians of an analysis equal a brute-force computation. */
static void assert_brute_force(const struct iodfg_analysis *an, const struct iodfg_selection *sel)
{
    const struct iodfg_columns *col = iodfg_eventlog_columns(LOG);
    const uint32_t *act = iodfg_analysis_activities(an);
    const struct iodfg_stats *st = iodfg_analysis_stats(an);
    uint64_t n = iodfg_eventlog_event_count(LOG);
    uint8_t *on = calloc(n + 1, 1);
    int64_t *v = malloc((n + 1) * sizeof(*v));
    for (uint32_t c = 0; c < iodfg_eventlog_case_count(LOG); c++) {
        uint64_t lo, hi;
        if (iodfg_trace_case_range(LOG, sel, c, &lo, &hi)) {
            memset(on + lo, 1, hi - lo);
        }
    }
    for (uint32_t a = 0; a < st->nactivities; a++) {
        size_t m = 0;
        uint32_t mc = 0;
        int64_t mc_t = IODFG_UNKNOWN;
        for (uint64_t e = 0; e < n; e++) {
            if (!on[e] || act[col->key[e]] != a || col->dur_ns[e] == IODFG_UNKNOWN) {
                continue;
            }
            v[m++] = col->dur_ns[e];
            if (col->dur_ns[e] <= 0) {
                continue;
            }
            // events active at this start: [s, s+d) holding it (ends at t do not count)
            int64_t t = col->start_ns[e];
            uint32_t k = 0;
            for (uint64_t f = 0; f < n; f++) {
                k += on[f] && act[col->key[f]] == a && col->dur_ns[f] > 0 &&
                     col->start_ns[f] <= t && col->start_ns[f] + col->dur_ns[f] > t;
            }
            if (k > mc || (k == mc && t < mc_t)) {
                mc = k;
                mc_t = t;
            }
        }
        ck_assert_uint_eq(st->act[a].mc, mc);
        ck_assert_int_eq(st->act[a].mc_time_ns, mc_t);
        ck_assert_int_eq(st->act[a].dur_p95_ns, ref_pct(v, m, 95));
        ck_assert_int_eq(st->act[a].dur_median_ns, ref_pct(v, m, 50));
    }
    if (!sel->per_pid) {
        assert_cases_brute_force(an, sel);
    }
    struct gap_list gl = {malloc((n + 1) * sizeof(struct gap_rec)), 0};
    for (uint32_t c = 0; c < iodfg_eventlog_case_count(LOG); c++) {
        uint64_t lo, hi;
        if (iodfg_trace_case_range(LOG, sel, c, &lo, &hi)) {
            ck_assert_int_ge(
                iodfg_trace_walk_case(LOG, act, lo, hi, sel->per_pid, rec_gap, &gl, NULL), 0);
        }
    }
    const struct iodfg_dfg *g = iodfg_analysis_dfg(an);
    for (size_t i = 0; i < g->nedges; i++) {
        const struct iodfg_dfg_edge *e = &g->edges[i];
        if (!e->count) {
            continue;
        }
        size_t m = 0;
        for (size_t j = 0; j < gl.n; j++) {
            if (gl.v[j].from == e->from && gl.v[j].to == e->to) {
                v[m++] = gl.v[j].gap;
            }
        }
        ck_assert_uint_eq(e->gap_n, m);
        ck_assert_int_eq(e->gap_median_ns, ref_pct(v, m, 50));
    }
    free(gl.v);
    free(on);
    free(v);
}

/* rounds random one-key edits (to one of the first nact activities, or to none), each checked
 * against brute force and a fresh build. */
static void brute_force_edits(struct iodfg_analysis *an, const struct iodfg_selection *sel,
                              unsigned seed, int rounds, uint32_t nact)
{
    srand(seed);
    for (int round = 0; round < rounds; round++) {
        uint32_t k = (uint32_t)rand() % MAP.nkeys;
        MAP.activity_of_key[k] = rand() % 5 ? (uint32_t)rand() % nact : IODFG_NO_ACTIVITY;
        ck_assert_int_eq(iodfg_analysis_update(an, &MAP, &k, 1, NULL), 0);
        assert_brute_force(an, sel);
        assert_equal(an, sel);
    }
}

/* Exactness against brute force, through both percentile paths (gather and select, and
 * histogram then second pass), one or two scan workers and a sweep cut into time segments,
 * under random edits. */
START_TEST(exact_against_brute_force)
{
    uint64_t keep = iodfg_pctl_large;
    random_log(21, 12);
    tlog_map_fhat(&MAP, LOG);
    struct iodfg_selection sel;
    iodfg_selection_all(&sel);
    // paths 0/1: one worker; 2/3: two workers; odd paths: histograms (kept between updates)
    // and per-pid cases; path 2: edges found through the DFG's hash instead of a dense table
    uint32_t dense = iodfg_scan_dense_max;
    for (int path = 0; path < 4; path++) {
        iodfg_pctl_large = path % 2 ? 1 : keep;
        iodfg_scan_split_min = path < 2 ? UINT64_MAX : 0;
        iodfg_scan_dense_max = path == 2 ? 0 : dense;
        sel.per_pid = path % 2;
        struct iodfg_analysis *an = iodfg_analysis_new(LOG, &MAP, &sel, NULL);
        ck_assert_ptr_nonnull(an);
        assert_brute_force(an, &sel);
        brute_force_edits(an, &sel, 5 + (unsigned)path, 20, MAP.nactivities);
        iodfg_analysis_free(an);
    }
    iodfg_pctl_large = keep;
    iodfg_scan_dense_max = dense;
}
END_TEST

/* The same with durations and gaps of many magnitudes, both signs: the scan tests values against
 * the value ranges of the target buckets, which must be exactly the histogram's buckets. */
START_TEST(exact_against_brute_force_wide)
{
    uint64_t keep = iodfg_pctl_large, split = iodfg_scan_split_min;
    random_log_ex(22, 12, 1);
    tlog_map_fhat(&MAP, LOG);
    struct iodfg_selection sel;
    iodfg_selection_all(&sel);
    for (int path = 0; path < 3; path++) {
        // path 0: gather and select; 1: histograms kept between updates; 2: that with two workers
        iodfg_pctl_large = path ? 1 : keep;
        iodfg_scan_split_min = path == 2 ? 0 : UINT64_MAX;
        struct iodfg_analysis *an = iodfg_analysis_new(LOG, &MAP, &sel, NULL);
        ck_assert_ptr_nonnull(an);
        assert_brute_force(an, &sel);
        srand(9 + (unsigned)path);
        for (int round = 0; round < 20; round++) {
            uint32_t k = (uint32_t)rand() % MAP.nkeys;
            MAP.activity_of_key[k] =
                rand() % 5 ? (uint32_t)rand() % MAP.nactivities : IODFG_NO_ACTIVITY;
            ck_assert_int_eq(iodfg_analysis_update(an, &MAP, &k, 1, NULL), 0);
            assert_brute_force(an, &sel);
            assert_equal(an, &sel);
        }
        iodfg_analysis_free(an);
    }
    iodfg_pctl_large = keep;
    iodfg_scan_split_min = split;
}
END_TEST

/* Large edits (most events move, as when a rule is typed live) recount the DFG from scratch on
 * two threads with the histograms of the large groups: exact against brute force and a full
 * rebuild, whether every edge histogram fits the budget or some are left to the statistics walk
 * (budget 0, 1, 2), with one or two workers and with histograms for small groups too. */
START_TEST(large_edits_exact)
{
    uint64_t keep = iodfg_pctl_large, split = iodfg_scan_split_min;
    uint32_t keep_max = iodfg_count_hist_max;
    random_log_ex(23, 14, 1);
    tlog_map_fhat(&MAP, LOG);
    struct iodfg_selection sel;
    iodfg_selection_all(&sel);
    uint32_t na = MAP.nactivities;
    for (uint32_t a = 0; a < 6; a++) {
        char name[32];
        snprintf(name, sizeof(name), "spare%u", a);
        tlog_new_act(&MAP, name);
    }
    for (int path = 0; path < 8; path++) {
        static const uint32_t budget[4] = {0, 1, 2, 256};
        iodfg_count_hist_max = budget[path % 4];
        iodfg_pctl_large = path < 4 ? 1 : 3;
        iodfg_scan_split_min = path % 2 ? 0 : UINT64_MAX;
        sel.from_ns = path == 5 ? 1700000000000000000LL + 3000000000LL : INT64_MIN;
        struct iodfg_analysis *an = iodfg_analysis_new(LOG, &MAP, &sel, NULL);
        ck_assert_ptr_nonnull(an);
        srand(40 + (unsigned)path);
        for (int round = 0; round < 6; round++) {
            // every key to a random activity (a few unmapped): every case is recounted
            for (uint32_t k = 0; k < MAP.nkeys; k++) {
                MAP.activity_of_key[k] =
                    rand() % 9 ? (uint32_t)rand() % (na + 6 - (uint32_t)round) : IODFG_NO_ACTIVITY;
            }
            ck_assert_int_eq(iodfg_analysis_update(an, &MAP, NULL, 0, NULL), 0);
            ck_assert_int_eq(iodfg_analysis_last(an)->full, 0);
            assert_brute_force(an, &sel);
            assert_equal(an, &sel);
        }
        iodfg_analysis_free(an);
    }
    sel.from_ns = INT64_MIN;
    iodfg_pctl_large = keep;
    iodfg_scan_split_min = split;
    iodfg_count_hist_max = keep_max;
}
END_TEST

/* A template edit that renames every activity, then one that folds pairs of activities into one:
 * every key moves, every case is recounted, and the result still equals a full rebuild (with
 * and without histograms kept between updates). */
START_TEST(remap_every_key_equals_full)
{
    uint64_t keep = iodfg_pctl_large;
    random_log(31, 12);
    tlog_map_fhat(&MAP, LOG);
    struct iodfg_selection sel;
    iodfg_selection_all(&sel);
    uint32_t *orig = malloc(MAP.nkeys * sizeof(*orig));
    memcpy(orig, MAP.activity_of_key, MAP.nkeys * sizeof(*orig));
    for (int path = 0; path < 2; path++) {
        iodfg_pctl_large = path ? 1 : keep;
        memcpy(MAP.activity_of_key, orig, MAP.nkeys * sizeof(*orig));
        struct iodfg_analysis *an = iodfg_analysis_new(LOG, &MAP, &sel, NULL);
        ck_assert_ptr_nonnull(an);
        struct iodfg_stats before;
        iodfg_stats_init(&before);
        ck_assert_int_eq(iodfg_stats_copy(&before, iodfg_analysis_stats(an), NULL), 0);
        uint32_t na = MAP.nactivities;
        uint32_t *fresh = malloc(na * sizeof(*fresh));
        for (uint32_t a = 0; a < na; a++) {
            char name[32];
            snprintf(name, sizeof(name), "renamed%d_%u", path, a);
            fresh[a] = tlog_new_act(&MAP, name);
        }
        for (uint32_t k = 0; k < MAP.nkeys; k++) {
            if (orig[k] != IODFG_NO_ACTIVITY) {
                MAP.activity_of_key[k] = fresh[orig[k]];
            }
        }
        ck_assert_int_eq(iodfg_analysis_update(an, &MAP, NULL, 0, NULL), 0);
        ck_assert_int_eq(iodfg_analysis_last(an)->full, 0);
        assert_equal(an, &sel);
        const struct iodfg_stats *st = iodfg_analysis_stats(an);
        for (uint32_t a = 0; a < na; a++) {
            ck_assert_uint_eq(st->act[a].count, 0);
            ck_assert_uint_eq(st->act[fresh[a]].count, before.act[a].count);
            ck_assert_uint_eq(st->act[fresh[a]].cases, before.act[a].cases);
            ck_assert_int_eq(st->act[fresh[a]].dur_median_ns, before.act[a].dur_median_ns);
            ck_assert_int_eq(st->act[fresh[a]].dur_p95_ns, before.act[a].dur_p95_ns);
            ck_assert_uint_eq(st->act[fresh[a]].mc, before.act[a].mc);
        }
        for (uint32_t k = 0; k < MAP.nkeys; k++) {
            if (orig[k] != IODFG_NO_ACTIVITY) {
                MAP.activity_of_key[k] = fresh[orig[k] / 2 * 2];
            }
        }
        ck_assert_int_eq(iodfg_analysis_update(an, &MAP, NULL, 0, NULL), 0);
        ck_assert_int_eq(iodfg_analysis_last(an)->full, 0);
        assert_equal(an, &sel);
        free(fresh);
        iodfg_stats_fini(&before);
        iodfg_analysis_free(an);
    }
    free(orig);
    iodfg_pctl_large = keep;
}
END_TEST

/* The analysis (key sums added while the DFG is counted) equals the one-shot builds (a separate
 * key-sum pass over the selection bits, plain counting), bit for bit, over whole cases, a case
 * mask with a time window, and per-pid cases, with and without percentile histograms. */
START_TEST(analysis_equals_one_shot_builds)
{
    uint64_t keep = iodfg_pctl_large;
    random_log(41, 16);
    tlog_map_fhat(&MAP, LOG);
    uint32_t nc = iodfg_eventlog_case_count(LOG);
    uint8_t *on = malloc(nc);
    for (uint32_t c = 0; c < nc; c++) {
        on[c] = c % 3 != 1;
    }
    for (int v = 0; v < 6; v++) {
        iodfg_pctl_large = v % 2 ? 1 : keep;
        struct iodfg_selection sel;
        iodfg_selection_all(&sel);
        if (v / 2 == 1) {
            sel.case_on = on;
            sel.from_ns = 1700000000000010000LL;
            sel.to_ns = 1700000000000120000LL;
        }
        sel.per_pid = v / 2 == 2;
        struct iodfg_analysis *an = iodfg_analysis_new(LOG, &MAP, &sel, NULL);
        ck_assert_ptr_nonnull(an);
        struct iodfg_stats st;
        struct iodfg_dfg g;
        iodfg_stats_init(&st);
        iodfg_dfg_init(&g);
        ck_assert_int_eq(iodfg_stats_build(&st, LOG, &MAP, &sel, NULL), 0);
        ck_assert_int_eq(iodfg_dfg_build(&g, LOG, &MAP, &sel, NULL), 0);
        ck_assert_uint_gt(g.traces, 0);
        assert_same(iodfg_analysis_stats(an), iodfg_analysis_dfg(an), &st, &g);
        iodfg_stats_fini(&st);
        iodfg_dfg_fini(&g);
        iodfg_analysis_free(an);
    }
    free(on);
    iodfg_pctl_large = keep;
}
END_TEST

/* Slot by slot: the same edges in the same slots (export orders follow the slots). */
static void assert_same_slots(const struct iodfg_dfg *g, const struct iodfg_dfg *h)
{
    ck_assert_uint_eq(g->nedges, h->nedges);
    for (size_t i = 0; i < g->nedges; i++) {
        ck_assert_msg(g->edges[i].from == h->edges[i].from && g->edges[i].to == h->edges[i].to &&
                          g->edges[i].count == h->edges[i].count,
                      "slot %zu differs", i);
    }
}

/* A random selection: a case mask (or all), a time window (or none), per-pid cases now and
 * then (these take the older walk). */
static void random_selection(struct iodfg_selection *sel, uint8_t *on, uint32_t nc, int wide)
{
    iodfg_selection_all(sel);
    if (rand() % 3) {
        for (uint32_t c = 0; c < nc; c++) {
            on[c] = rand() % 3 != 0;
        }
        sel->case_on = on;
    }
    if (rand() % 2) {
        int64_t base = 1700000000000000000LL, span = wide ? 40000000000LL : 150000;
        sel->from_ns = base + rand() % (span / 2);
        sel->to_ns = rand() % 3 ? sel->from_ns + span / 4 + rand() % (span / 2) : INT64_MAX;
    }
    sel->per_pid = rand() % 5 == 0;
}

/* Full rebuilds (new selections) counted by the fused two-thread walk equal the older walk bit
 * for bit, slot order included, and brute force; incremental edits after them (which reuse the
 * codes and histograms the fused walk left) stay exact; the computation without codes or kept
 * histograms (iodfg_analysis_compute) equals them too. Through one or two workers, with and
 * without histograms (and every activity's histogram or none), small edge budgets. */
START_TEST(full_rebuilds_fused_equal_old_path)
{
    uint64_t keep = iodfg_pctl_large, split = iodfg_scan_split_min;
    uint32_t keep_max = iodfg_count_hist_max, keep_all = iodfg_count_full_act_max;
    for (int path = 0; path < 6; path++) {
        int wide = path % 2;
        tlog_map_free(&MAP);
        iodfg_eventlog_free(LOG);
        LOG = iodfg_eventlog_new(IODFG_COL_ANALYSIS);
        random_log_ex(60 + (unsigned)path, 14, wide);
        tlog_map_fhat(&MAP, LOG);
        uint32_t nc = iodfg_eventlog_case_count(LOG);
        uint8_t *on = malloc(nc);
        iodfg_pctl_large = path < 2 ? 1 : path < 4 ? 4 : keep;
        iodfg_scan_split_min = path % 3 ? 0 : UINT64_MAX;
        iodfg_count_hist_max = path == 2 ? 1 : keep_max;
        iodfg_count_full_act_max = path == 3 ? 0 : keep_all;
        struct iodfg_selection sel;
        iodfg_selection_all(&sel);
        struct iodfg_analysis *a = iodfg_analysis_new(LOG, &MAP, &sel, NULL);
        iodfg_analysis_fused_full = 0;
        struct iodfg_analysis *b = iodfg_analysis_new(LOG, &MAP, &sel, NULL);
        iodfg_analysis_fused_full = 1;
        ck_assert_ptr_nonnull(a);
        ck_assert_ptr_nonnull(b);
        srand(70 + (unsigned)path);
        for (int round = 0; round < 10; round++) {
            random_selection(&sel, on, nc, wide);
            ck_assert_int_eq(iodfg_analysis_set_selection(a, &sel, NULL), 0);
            ck_assert_int_eq(iodfg_analysis_last(a)->full, 1);
            iodfg_analysis_fused_full = 0;
            ck_assert_int_eq(iodfg_analysis_set_selection(b, &sel, NULL), 0);
            iodfg_analysis_fused_full = 1;
            assert_same(iodfg_analysis_stats(a), iodfg_analysis_dfg(a), iodfg_analysis_stats(b),
                        iodfg_analysis_dfg(b));
            assert_same_slots(iodfg_analysis_dfg(a), iodfg_analysis_dfg(b));
            assert_brute_force(a, &sel);
            struct iodfg_stats st;
            struct iodfg_dfg g;
            iodfg_stats_init(&st);
            iodfg_dfg_init(&g);
            ck_assert_int_eq(iodfg_analysis_compute(a, &sel, &g, &st, NULL), 0);
            assert_same(&st, &g, iodfg_analysis_stats(b), iodfg_analysis_dfg(b));
            assert_same_slots(&g, iodfg_analysis_dfg(b));
            iodfg_stats_fini(&st);
            iodfg_dfg_fini(&g);
            // edits after the rebuild: one key (kept codes and histograms), then every key
            for (int edit = 0; edit < 2; edit++) {
                uint32_t k = (uint32_t)rand() % MAP.nkeys;
                for (uint32_t j = 0; j < MAP.nkeys; j++) {
                    if (edit || j == k) {
                        MAP.activity_of_key[j] =
                            rand() % 6 ? (uint32_t)rand() % MAP.nactivities : IODFG_NO_ACTIVITY;
                    }
                }
                ck_assert_int_eq(iodfg_analysis_update(a, &MAP, edit ? NULL : &k, 1, NULL), 0);
                iodfg_analysis_fused_full = 0;
                ck_assert_int_eq(iodfg_analysis_rebuild(b, &MAP, NULL), 0);
                iodfg_analysis_fused_full = 1;
                assert_same(iodfg_analysis_stats(a), iodfg_analysis_dfg(a), iodfg_analysis_stats(b),
                            iodfg_analysis_dfg(b));
                assert_brute_force(a, &sel);
            }
        }
        // empty selections: every case off, a window after the last event
        for (int empty = 0; empty < 2; empty++) {
            iodfg_selection_all(&sel);
            memset(on, 0, nc);
            sel.case_on = empty ? NULL : on;
            sel.from_ns = empty ? INT64_MAX - 1 : INT64_MIN;
            ck_assert_int_eq(iodfg_analysis_set_selection(a, &sel, NULL), 0);
            iodfg_analysis_fused_full = 0;
            ck_assert_int_eq(iodfg_analysis_set_selection(b, &sel, NULL), 0);
            iodfg_analysis_fused_full = 1;
            ck_assert_uint_eq(iodfg_analysis_dfg(a)->traces, 0);
            assert_same(iodfg_analysis_stats(a), iodfg_analysis_dfg(a), iodfg_analysis_stats(b),
                        iodfg_analysis_dfg(b));
            assert_brute_force(a, &sel);
        }
        iodfg_analysis_free(a);
        iodfg_analysis_free(b);
        free(on);
    }
    iodfg_analysis_fused_full = 1;
    iodfg_pctl_large = keep;
    iodfg_scan_split_min = split;
    iodfg_count_hist_max = keep_max;
    iodfg_count_full_act_max = keep_all;
}
END_TEST

/* Few activities against long traces: the statistics walk counts the cases of the activities
 * after each trace instead of on their first event in it; exact against brute force, on one and
 * two workers, after a full build and under edits. */
START_TEST(cases_of_few_activities_exact)
{
    uint64_t split = iodfg_scan_split_min;
    random_log(23, 12);
    tlog_map_fhat(&MAP, LOG);
    MAP.nactivities = 3;
    for (uint32_t k = 0; k < MAP.nkeys; k++) {
        MAP.activity_of_key[k] = k % 3 ? k % 3 : IODFG_NO_ACTIVITY;
    }
    struct iodfg_selection sel;
    iodfg_selection_all(&sel);
    for (int path = 0; path < 2; path++) {
        iodfg_scan_split_min = path ? 0 : UINT64_MAX;
        struct iodfg_analysis *an = iodfg_analysis_new(LOG, &MAP, &sel, NULL);
        ck_assert_ptr_nonnull(an);
        assert_brute_force(an, &sel);
        brute_force_edits(an, &sel, 7 + (unsigned)path, 10, 3);
        iodfg_analysis_free(an);
    }
    iodfg_scan_split_min = split;
}
END_TEST

/* A filter toggled back under the same mapping (undo, redo) takes the results kept for it, by
 * set_selection or reset: they equal a fresh build, and so do edits after it (the codes are made
 * anew). After a rule edit, or when the mask changed in place, it is built anew; after the edit
 * is undone it is taken back again. */
START_TEST(filter_toggles_take_results_back)
{
    random_log(37, 12);
    tlog_map_fhat(&MAP, LOG);
    uint32_t nc = iodfg_eventlog_case_count(LOG);
    uint8_t *mask = malloc(nc);
    struct iodfg_selection all, half;
    iodfg_selection_all(&all);
    half = all;
    half.case_on = mask;
    for (uint32_t c = 0; c < nc; c++) {
        mask[c] = c % 3 != 0;
    }
    struct iodfg_analysis *an = iodfg_analysis_new(LOG, &MAP, &all, NULL);
    ck_assert_ptr_nonnull(an);
    // steps: 0 toggle, 1 rule edit then toggle, 2 undo of that edit then toggle, 3 mask changed in
    // place then toggle; whether the toggle takes results back
    static const int step[] = {0, 0, 0, 0, 1, 2, 0, 0, 3, 0, 0, 1, 2, 2};
    static const int back[] = {0, 1, 1, 1, 0, 0, 1, 1, 0, 1, 1, 0, 0, 1};
    uint32_t k = 0, old = 0;
    srand(5);
    for (size_t i = 0; i < sizeof(step) / sizeof(step[0]); i++) {
        const struct iodfg_selection *to = i % 2 ? &all : &half;
        if (step[i] == 1) {
            k = (uint32_t)rand() % MAP.nkeys;
            old = MAP.activity_of_key[k];
            MAP.activity_of_key[k] = (old + 1) % MAP.nactivities;
            ck_assert_int_eq(iodfg_analysis_update(an, &MAP, &k, 1, NULL), 0);
        } else if (step[i] == 2) {
            MAP.activity_of_key[k] = old;
            ck_assert_int_eq(iodfg_analysis_update(an, &MAP, &k, 1, NULL), 0);
        } else if (step[i] == 3) {
            for (uint32_t c = 0; c < nc; c++) {
                mask[c] = (uint8_t)(rand() % 2);
            }
        }
        // the session's way (mapping and selection at once) every third step
        ck_assert_int_eq(i % 3 == 2 ? iodfg_analysis_reset(an, &MAP, to, NULL)
                                    : iodfg_analysis_set_selection(an, to, NULL),
                         0);
        ck_assert_msg((iodfg_analysis_last(an)->cases_recounted == 0) == back[i], "step %zu", i);
        assert_equal(an, to);
        uint32_t e = (uint32_t)rand() % MAP.nkeys, keep = MAP.activity_of_key[e];
        MAP.activity_of_key[e] = (keep + 1) % MAP.nactivities; // an edit after it, and its undo
        ck_assert_int_eq(iodfg_analysis_update(an, &MAP, &e, 1, NULL), 0);
        assert_equal(an, to);
        MAP.activity_of_key[e] = keep;
        ck_assert_int_eq(iodfg_analysis_update(an, &MAP, &e, 1, NULL), 0);
        assert_equal(an, to);
    }
    iodfg_analysis_free(an);
    free(mask);
}
END_TEST

/* Cases that write their own file, then read it, in time order: after tlog_map_fhat every
 * activity's events lie in one phase of the timeline. */
static void phased_log(int ncases, int nev)
{
    char *text = malloc((size_t)nev * 80 + 1);
    srand(41);
    for (int c = 0; c < ncases; c++) {
        size_t len = 0;
        long t = rand() % 20;
        for (int i = 0; i < nev; i++) {
            t += 1 + rand() % 4;
            int r = rand() % 10;
            len += (size_t)snprintf(
                text + len, 80, "%d 1700000000.%06ld %s(3</%s/f%d>) = 1 <0.%06d>\n", 100 + c, t,
                i < nev / 2 ? "write" : "read", r ? "w" : "etc", r ? c : 0, rand() % 9);
        }
        char name[32];
        snprintf(name, sizeof(name), "case%d", c);
        tlog_add_case(LOG, name, text);
    }
    free(text);
}

/* Rule edits that only relabel events (no key to or from no activity) keep the gap medians of
 * the edges between unchanged activities, walk reading times only for the events that take
 * values, and sweep only the timeline points between the changed activities' first and last:
 * each equals brute force and a fresh build, also with kept histograms and two workers. */
START_TEST(relabel_edits_exact)
{
    uint64_t keep = iodfg_pctl_large;
    phased_log(16, 120);
    tlog_map_fhat(&MAP, LOG);
    // three activities: the cases' writes, their reads, the shared file's calls
    const struct iodfg_key *keys = iodfg_eventlog_keys(LOG);
    const struct iodfg_strpool *pool = iodfg_eventlog_pool(LOG);
    uint32_t act3[3] = {tlog_new_act(&MAP, "w"), tlog_new_act(&MAP, "r"), tlog_new_act(&MAP, "e")};
    for (uint32_t k = 0; k < MAP.nkeys; k++) {
        const char *call = iodfg_strpool_get(pool, keys[k].call);
        const char *path = iodfg_strpool_get(pool, keys[k].path);
        MAP.activity_of_key[k] = act3[strstr(path, "/etc/") ? 2 : strcmp(call, "write") ? 1 : 0];
    }
    struct iodfg_selection sel;
    iodfg_selection_all(&sel);
    for (int path = 0; path < 2; path++) {
        iodfg_pctl_large = path ? 1 : keep;
        struct iodfg_analysis *an = iodfg_analysis_new(LOG, &MAP, &sel, NULL);
        ck_assert_ptr_nonnull(an);
        // every key's timeline points lie in its span, whose ends are two of them
        const struct iodfg_timeline *tl = iodfg_analysis_timeline(an);
        uint64_t *span = iodfg_sweep_key_spans(tl, LOG, NULL);
        ck_assert_ptr_nonnull(span);
        const uint32_t *key = iodfg_eventlog_columns(LOG)->key;
        for (uint64_t i = 0; i < tl->npts; i++) {
            uint32_t k = key[tl->pts[i] & ~IODFG_PT_START];
            ck_assert(span[2 * k] <= i && i < span[2 * k + 1]);
            ck_assert_uint_eq(key[tl->pts[span[2 * k]] & ~IODFG_PT_START], k);
            ck_assert_uint_eq(key[tl->pts[span[2 * k + 1] - 1] & ~IODFG_PT_START], k);
        }
        free(span);
        uint32_t fresh = tlog_new_act(&MAP, "one");
        for (int round = 0; round < 12; round++) {
            uint32_t k = (uint32_t)rand() % MAP.nkeys, old = MAP.activity_of_key[k];
            if (old == IODFG_NO_ACTIVITY) {
                continue;
            }
            MAP.activity_of_key[k] = round % 3 ? fresh : (uint32_t)rand() % fresh;
            ck_assert_int_eq(iodfg_analysis_update(an, &MAP, &k, 1, NULL), 0);
            if (round % 3) { // the read->read edge and others between unchanged ones stay
                ck_assert_uint_lt(iodfg_analysis_last(an)->edges_dirty,
                                  iodfg_analysis_dfg(an)->nedges);
            }
            assert_brute_force(an, &sel);
            assert_equal(an, &sel);
            MAP.activity_of_key[k] = old; // and back
            ck_assert_int_eq(iodfg_analysis_update(an, &MAP, &k, 1, NULL), 0);
            assert_brute_force(an, &sel);
            assert_equal(an, &sel);
        }
        iodfg_analysis_free(an);
    }
    iodfg_pctl_large = keep;
}
END_TEST

/* Selections that come back (undo, redo, a filter toggled back) reuse the key sums made for
 * them: every rebuild and the rule edits after it equal fresh builds, also when the case mask
 * changes in place under the same pointer, and for time windows and per-pid cases. */
START_TEST(selections_coming_back_exact)
{
    random_log(31, 12);
    tlog_map_fhat(&MAP, LOG);
    uint32_t nc = iodfg_eventlog_case_count(LOG);
    uint8_t *mask = malloc(nc);
    struct iodfg_selection all, half, window, pids;
    iodfg_selection_all(&all);
    half = window = pids = all;
    half.case_on = mask;
    window.from_ns = 1700000000000000000LL + 20000;
    window.to_ns = 1700000000000000000LL + 90000;
    pids.per_pid = 1;
    for (uint32_t c = 0; c < nc; c++) {
        mask[c] = c % 2;
    }
    struct iodfg_analysis *an = iodfg_analysis_new(LOG, &MAP, &all, NULL);
    ck_assert_ptr_nonnull(an);
    const struct iodfg_selection *seq[] = {&half,   &all,  &half, &all,  &half, &window, &half,
                                           &window, &pids, &all,  &half, &half, &all};
    srand(3);
    for (size_t i = 0; i < sizeof(seq) / sizeof(seq[0]); i++) {
        if (i == 4 || i == 11) { // the mask changes in place: other cases, same pointer
            for (uint32_t c = 0; c < nc; c++) {
                mask[c] = (uint8_t)(rand() % 2);
            }
        }
        ck_assert_int_eq(iodfg_analysis_set_selection(an, seq[i], NULL), 0);
        assert_equal(an, seq[i]);
        uint32_t k = (uint32_t)rand() % MAP.nkeys;
        MAP.activity_of_key[k] = (uint32_t)rand() % MAP.nactivities;
        ck_assert_int_eq(iodfg_analysis_update(an, &MAP, &k, 1, NULL), 0);
        assert_equal(an, seq[i]);
    }
    iodfg_analysis_free(an);
    free(mask);
}
END_TEST

static Suite *suite(void)
{
    Suite *s = suite_create("analysis");
    TCase *tc = tcase_create("core");
    tcase_add_checked_fixture(tc, setup, teardown);
    tcase_set_timeout(tc, 60);
    tcase_add_test(tc, incremental_equals_full);
    tcase_add_test(tc, update_touches_only_affected_cases);
    tcase_add_test(tc, selection_change_is_full_rebuild);
    tcase_add_test(tc, exact_against_brute_force);
    tcase_add_test(tc, cases_of_few_activities_exact);
    tcase_add_test(tc, selections_coming_back_exact);
    tcase_add_test(tc, relabel_edits_exact);
    tcase_add_test(tc, filter_toggles_take_results_back);
    tcase_add_test(tc, remap_every_key_equals_full);
    tcase_add_test(tc, analysis_equals_one_shot_builds);
    tcase_add_test(tc, full_rebuilds_fused_equal_old_path);
    suite_add_tcase(s, tc);

    // The same properties over more paths, masks and edits: make check-fast leaves them out
    // (CK_EXCLUDE_TAGS=slow), make check runs them.
    tc = testutil_slow_tcase(s, "wide", setup, teardown);
    tcase_add_test(tc, incremental_equals_full_per_pid_window_mask);
    tcase_add_test(tc, exact_against_brute_force_wide);
    tcase_add_test(tc, large_edits_exact);
    return s;
}

int main(void)
{
    return testutil_run(suite());
}
