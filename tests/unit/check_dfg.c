/* SPDX-License-Identifier: MIT */
/* Unit tests: DFG construction (seed 001 IV-A worked example), gaps, per-pid cases, windows,
 * empty and unmapped traces, pruning. */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "iodfg/dfg.h"
#include "iodfg/error.h"
#include "iodfg/eventlog.h"
#include "iodfg/mapping.h"
#include "iodfg/stats.h"
#include "iodfg/trace.h"

#include "../../src/engine/dfg_priv.h"
#include "../../src/engine/stats_priv.h"
#include "dfg_testlog.h"
#include "testutil.h"

static struct iodfg_eventlog *LOG;
static struct iodfg_mapping MAP;
static struct iodfg_dfg G;

static void setup(void)
{
    LOG = iodfg_eventlog_new(IODFG_COL_ANALYSIS);
    ck_assert_ptr_nonnull(LOG);
    iodfg_dfg_init(&G);
}

static void teardown(void)
{
    iodfg_dfg_fini(&G);
    tlog_map_free(&MAP);
    iodfg_eventlog_free(LOG);
}

static uint32_t node(const char *name)
{
    if (!strcmp(name, "start")) {
        return IODFG_NODE_START;
    }
    if (!strcmp(name, "end")) {
        return IODFG_NODE_END;
    }
    uint32_t a = tlog_act(&MAP, name);
    ck_assert_msg(a != IODFG_NO_ACTIVITY, "no activity %s", name);
    return a;
}

static const struct iodfg_dfg_edge *edge(const char *from, const char *to)
{
    return iodfg_dfg_find(&G, node(from), node(to));
}

static uint64_t count(const char *from, const char *to)
{
    const struct iodfg_dfg_edge *e = edge(from, to);
    return e ? e->count : 0;
}

static void build(const uint8_t *case_on, int per_pid, int64_t from, int64_t to)
{
    struct iodfg_selection sel;
    struct iodfg_error err;
    iodfg_selection_all(&sel);
    sel.case_on = case_on;
    sel.per_pid = per_pid;
    sel.from_ns = from;
    sel.to_ns = to;
    iodfg_error_clear(&err);
    ck_assert_int_eq(iodfg_dfg_build(&G, LOG, &MAP, &sel, &err), 0);
}

#define U "read:/usr/lib"
#define P "read:/proc/filesystems"
#define L "read:/etc/locale.alias"
#define W "write:/dev/pts"
#define N "read:/etc/nsswitch.conf"
#define PW "read:/etc/passwd"
#define GR "read:/etc/group"
/* f̂ truncates /usr/share/zoneinfo/Europe/Berlin to /usr/share. The paper's listing of L(C_b)
 * writes read:/usr/lib for these two events, which contradicts its own f̂ (and its Fig. 3
 * colours the zoneinfo reads red, i.e. an ls -l-only activity): we follow f̂. */
#define Z "read:/usr/share"

static const uint8_t CA[6] = {1, 1, 1, 0, 0, 0}, CB[6] = {0, 0, 0, 1, 1, 1};

START_TEST(paper_ca)
{
    tlog_paper_log(LOG);
    tlog_map_fhat(&MAP, LOG);
    build(CA, 0, INT64_MIN, INT64_MAX);
    // L(C_a) = { <●, U, U, U, P, P, L, L, W, ■>^3 }
    ck_assert_uint_eq(G.traces, 3);
    ck_assert_uint_eq(iodfg_dfg_edge_count(&G), 8);
    ck_assert_uint_eq(count("start", U), 3);
    ck_assert_uint_eq(count(U, U), 6);
    ck_assert_uint_eq(count(U, P), 3);
    ck_assert_uint_eq(count(P, P), 3);
    ck_assert_uint_eq(count(P, L), 3);
    ck_assert_uint_eq(count(L, L), 3);
    ck_assert_uint_eq(count(L, W), 3);
    ck_assert_uint_eq(count(W, "end"), 3);
    ck_assert_uint_eq(edge(U, U)->cases, 3);
    // U->U gaps per case: .156640 - (.153994 + 203us) = 2443 us, .159294 - .156719 = 2575 us
    ck_assert_uint_eq(edge(U, U)->gap_n, 6);
    ck_assert_int_eq(edge(U, U)->gap_sum_ns, 3 * (2443000 + 2575000));
    ck_assert_double_eq(edge(U, U)->gap_mean_ns, 2509000.0);
    ck_assert_int_eq(edge(U, U)->gap_median_ns, 2443000); // lower median of 6 values
    ck_assert_uint_eq(edge("start", U)->gap_n, 0);
    ck_assert_int_eq(edge("start", U)->gap_median_ns, IODFG_UNKNOWN);
    ck_assert_ptr_null(edge(L, N));
}
END_TEST

START_TEST(paper_cb)
{
    tlog_paper_log(LOG);
    tlog_map_fhat(&MAP, LOG);
    build(CB, 0, INT64_MIN, INT64_MAX);
    ck_assert_uint_eq(G.traces, 3);
    ck_assert_uint_eq(iodfg_dfg_edge_count(&G), 16);
    const char *seq[][2] = {{"start", U}, {U, P},   {P, P},  {P, L}, {L, L}, {L, N}, {N, N},
                            {N, PW},      {PW, GR}, {GR, W}, {W, Z}, {Z, Z}, {Z, W}, {W, "end"}};
    for (size_t i = 0; i < sizeof(seq) / sizeof(seq[0]); i++) {
        ck_assert_msg(count(seq[i][0], seq[i][1]) == 3, "%s -> %s", seq[i][0], seq[i][1]);
    }
    ck_assert_uint_eq(count(U, U), 6);
    ck_assert_uint_eq(count(W, W), 6);
    ck_assert_uint_eq(edge(W, W)->cases, 3);
    ck_assert_uint_eq(count(L, W), 0);
}
END_TEST

START_TEST(paper_cx)
{
    tlog_paper_log(LOG);
    tlog_map_fhat(&MAP, LOG);
    build(NULL, 0, INT64_MIN, INT64_MAX);
    ck_assert_uint_eq(G.traces, 6);
    ck_assert_uint_eq(iodfg_dfg_edge_count(&G), 17);
    ck_assert_uint_eq(count("start", U), 6);
    ck_assert_uint_eq(edge("start", U)->cases, 6);
    ck_assert_uint_eq(count(U, U), 12);
    ck_assert_uint_eq(count(U, P), 6);
    ck_assert_uint_eq(count(L, L), 6);
    ck_assert_uint_eq(count(L, W), 3);
    ck_assert_uint_eq(count(L, N), 3);
    ck_assert_uint_eq(count(W, W), 6);
    ck_assert_uint_eq(count(W, "end"), 6);
    ck_assert_uint_eq(MAP.nactivities, 8);
}
END_TEST

#define T0 1700000000000000000LL /* -ttt 1700000000.000000 in ns */

/* -f output with two pids in one file. */
static const char *const TWO_PIDS = "1  1700000000.000000 read(3</a/x>, \"\", 1) = 1 <0.000001>\n"
                                    "2  1700000000.000010 read(3</a/y>, \"\", 1) = 1 <0.000001>\n"
                                    "1  1700000000.000020 read(3</a/x>, \"\", 1) = 1 <0.000001>\n"
                                    "2  1700000000.000030 read(3</a/y>, \"\", 1) = 1 <0.000001>\n"
                                    "1  1700000000.000040 write(3</b/z>, \"\", 1) = 1 <0.000001>\n";

START_TEST(per_pid_cases)
{
    tlog_add_case(LOG, "c", TWO_PIDS);
    tlog_map_fhat(&MAP, LOG);
    build(NULL, 0, INT64_MIN, INT64_MAX);
    // one trace: x y x y z
    ck_assert_uint_eq(G.traces, 1);
    ck_assert_uint_eq(count("read:/a/x", "read:/a/y"), 2);
    ck_assert_uint_eq(count("read:/a/y", "read:/a/x"), 1);
    ck_assert_uint_eq(count("read:/a/y", "write:/b/z"), 1);
    // per pid: <x x z> and <y y>; the x->x transition interleaves with pid 2's but counts one case
    build(NULL, 1, INT64_MIN, INT64_MAX);
    ck_assert_uint_eq(G.traces, 2);
    ck_assert_uint_eq(iodfg_dfg_edge_count(&G), 7);
    ck_assert_uint_eq(count("start", "read:/a/x"), 1);
    ck_assert_uint_eq(count("read:/a/x", "read:/a/x"), 1);
    ck_assert_uint_eq(count("read:/a/x", "write:/b/z"), 1);
    ck_assert_uint_eq(count("write:/b/z", "end"), 1);
    ck_assert_uint_eq(count("start", "read:/a/y"), 1);
    ck_assert_uint_eq(count("read:/a/y", "read:/a/y"), 1);
    ck_assert_uint_eq(count("read:/a/y", "end"), 1);
    // gap x->x: 20 us - (0 + 1 us) = 19 us
    ck_assert_int_eq(edge("read:/a/x", "read:/a/x")->gap_sum_ns, 19000);
}
END_TEST

START_TEST(per_pid_interleaved_cases_count)
{
    // pid 1: A A A, pid 2: A A, interleaved: A->A occurs in both traces, twice in pid 1's
    tlog_add_case(LOG, "c",
                  "1  1700000000.000000 read(3</a/x>, \"\", 1) = 1 <0.000001>\n"
                  "2  1700000000.000010 read(3</a/x>, \"\", 1) = 1 <0.000001>\n"
                  "1  1700000000.000020 read(3</a/x>, \"\", 1) = 1 <0.000001>\n"
                  "2  1700000000.000030 read(3</a/x>, \"\", 1) = 1 <0.000001>\n"
                  "1  1700000000.000040 read(3</a/x>, \"\", 1) = 1 <0.000001>\n");
    tlog_map_fhat(&MAP, LOG);
    build(NULL, 1, INT64_MIN, INT64_MAX);
    ck_assert_uint_eq(count("read:/a/x", "read:/a/x"), 3);
    ck_assert_uint_eq(edge("read:/a/x", "read:/a/x")->cases, 2);
    ck_assert_uint_eq(edge("start", "read:/a/x")->cases, 2);
}
END_TEST

START_TEST(window)
{
    tlog_add_case(LOG, "c", TWO_PIDS);
    tlog_map_fhat(&MAP, LOG);
    // [T0 + 10 us, T0 + 40 us): y x y
    build(NULL, 0, T0 + 10000, T0 + 40000);
    ck_assert_uint_eq(G.traces, 1);
    ck_assert_uint_eq(iodfg_dfg_edge_count(&G), 4);
    ck_assert_uint_eq(count("start", "read:/a/y"), 1);
    ck_assert_uint_eq(count("read:/a/y", "read:/a/x"), 1);
    ck_assert_uint_eq(count("read:/a/x", "read:/a/y"), 1);
    ck_assert_uint_eq(count("read:/a/y", "end"), 1);
    // a window with no event: nothing at all
    build(NULL, 0, T0 + 5000000000, T0 + 6000000000);
    ck_assert_uint_eq(G.traces, 0);
    ck_assert_uint_eq(iodfg_dfg_edge_count(&G), 0);
}
END_TEST

START_TEST(empty_and_unmapped)
{
    tlog_add_case(LOG, "empty", "");
    tlog_add_case(LOG, "unmapped", "1  1700000000.000000 close(3</a/x>) = 0 <0.000001>\n");
    tlog_add_case(LOG, "mixed",
                  "1  1700000000.000000 read(3</a/x>, \"\", 1) = 1 <0.000001>\n"
                  "1  1700000000.000010 close(3</a/x>) = 0 <0.000002>\n"
                  "1  1700000000.000020 read(3</a/x>, \"\", 1) = 1 <0.000001>\n");
    tlog_map_fhat(&MAP, LOG);
    // drop close: the partial mapping removes those events from the traces
    const struct iodfg_key *keys = iodfg_eventlog_keys(LOG);
    (void)keys;
    uint32_t close_act = tlog_act(&MAP, "close:/a/x");
    for (uint32_t k = 0; k < MAP.nkeys; k++) {
        if (MAP.activity_of_key[k] == close_act) {
            MAP.activity_of_key[k] = IODFG_NO_ACTIVITY;
        }
    }
    build(NULL, 0, INT64_MIN, INT64_MAX);
    // empty and all-unmapped traces add nothing (no start->end edge); the close vanishes and
    // the gap bridges it:  1700000000.000020 -  1700000000.000001 = 19 us
    ck_assert_uint_eq(G.traces, 1);
    ck_assert_uint_eq(iodfg_dfg_edge_count(&G), 3);
    ck_assert_ptr_null(iodfg_dfg_find(&G, IODFG_NODE_START, IODFG_NODE_END));
    ck_assert_uint_eq(count("read:/a/x", "read:/a/x"), 1);
    ck_assert_int_eq(edge("read:/a/x", "read:/a/x")->gap_sum_ns, 19000);
}
END_TEST

START_TEST(unknown_duration_gap)
{
    // no -T: durations unknown, gaps are start differences
    tlog_add_case(LOG, "c",
                  "1  1700000000.000000 read(3</a/x>, \"\", 1) = 1\n"
                  "1  1700000000.000007 read(3</a/x>, \"\", 1) = 1\n");
    tlog_map_fhat(&MAP, LOG);
    build(NULL, 0, INT64_MIN, INT64_MAX);
    ck_assert_int_eq(edge("read:/a/x", "read:/a/x")->gap_sum_ns, 7000);
    ck_assert_int_eq(edge("read:/a/x", "read:/a/x")->gap_median_ns, 7000);
}
END_TEST

/* A hand-made graph: 0,1 on the main path; 2 only via weak edges; 3 reachable but only
 * reaching the end through 2. */
static void prune_graph(void)
{
    iodfg_dfg_init(&G);
    G.nactivities = 4;
    struct {
        uint32_t f, t;
        uint64_t n;
    } es[] = {{IODFG_NODE_START, 0, 10},
              {0, 1, 10},
              {1, IODFG_NODE_END, 10},
              {0, 2, 1},
              {2, IODFG_NODE_END, 1},
              {IODFG_NODE_START, 3, 5},
              {3, 2, 5}};
    for (size_t i = 0; i < sizeof(es) / sizeof(es[0]); i++) {
        struct iodfg_dfg_edge *e = iodfg_dfg_slot(&G, es[i].f, es[i].t);
        ck_assert_ptr_nonnull(e);
        e->count = es[i].n;
    }
}

START_TEST(prune_connectivity)
{
    prune_graph();
    const uint64_t act_count[4] = {20, 10, 6, 5};
    uint8_t node_on[4], edge_on[16];
    ck_assert_int_eq(iodfg_dfg_prune(&G, act_count, 1, 0, node_on, edge_on, NULL), 0);
    ck_assert(node_on[0] && node_on[1] && node_on[2] && node_on[3]);
    for (size_t i = 0; i < G.nedges; i++) {
        ck_assert(edge_on[i]);
    }
    // min count 2 drops 0->2 and 2->end: 2 cannot reach ■, so 3 (whose only way out is 2)
    // goes too, with start->3 and 3->2; what stays is ● 0 1 ■ and their edges
    ck_assert_int_eq(iodfg_dfg_prune(&G, act_count, 2, 0, node_on, edge_on, NULL), 0);
    ck_assert(node_on[0] && node_on[1]);
    ck_assert(!node_on[2] && !node_on[3]);
    size_t kept = 0;
    for (size_t i = 0; i < G.nedges; i++) {
        kept += edge_on[i];
        if (edge_on[i]) {
            ck_assert_uint_ge(G.edges[i].count, 10);
        }
    }
    ck_assert_uint_eq(kept, 3);
    // top 2 activities by count (0 and 1) at min count 1
    ck_assert_int_eq(iodfg_dfg_prune(&G, act_count, 1, 2, node_on, edge_on, NULL), 0);
    ck_assert(node_on[0] && node_on[1] && !node_on[2] && !node_on[3]);
    // top 3 keeps 0, 1, 2 (count 6 beats 5); 2 still reaches ■ at min count 1
    ck_assert_int_eq(iodfg_dfg_prune(&G, act_count, 1, 3, node_on, edge_on, NULL), 0);
    ck_assert(node_on[0] && node_on[1] && node_on[2] && !node_on[3]);
    // every kept edge joins kept nodes (or ●/■)
    for (size_t i = 0; i < G.nedges; i++) {
        const struct iodfg_dfg_edge *e = &G.edges[i];
        if (edge_on[i]) {
            ck_assert(e->from == IODFG_NODE_START || node_on[e->from]);
            ck_assert(e->to == IODFG_NODE_END || node_on[e->to]);
        }
    }
}
END_TEST

/* A random -f -ttt -T trace per case: a few pids over a dozen files, durations of many
 * magnitudes (some unknown), overlapping calls. */
static void random_log_sz(unsigned seed, int ncases, int sizes)
{
    static const char *const calls[] = {"read", "write", "pread64", "close"};
    static const char *const paths[] = {"/a/b/c", "/a/b/d", "/a/e", "/f", "/g/h/i", "/l/m"};
    srand(seed);
    char *text = malloc(1 << 16);
    for (int c = 0; c < ncases; c++) {
        size_t len = 0;
        int n = rand() % 60;
        long t = rand() % 50;
        for (int i = 0; i < n; i++) {
            t += rand() % 7;
            const char *call = calls[rand() % 4], *path = paths[rand() % 6];
            if (rand() % 8 == 0) {
                len += (size_t)snprintf(text + len, 200, "%d 1700000000.%06ld %s(3<%s>) = 0\n",
                                        100 + rand() % 3, t, call, path);
            } else if (sizes) { // results (sizes) that make uneven transfer rates
                int pid = 100 + rand() % 3, z = rand() % 5000;
                len += (size_t)snprintf(text + len, 200,
                                        "%d 1700000000.%06ld %s(3<%s>) = %d <0.%06d>\n", pid, t,
                                        call, path, z, 1 + rand() % (1 << (rand() % 20)));
            } else {
                len += (size_t)snprintf(
                    text + len, 200, "%d 1700000000.%06ld %s(3<%s>) = 0 <0.%06d>\n",
                    100 + rand() % 3, t, call, path, rand() % (1 << (rand() % 20)));
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
    random_log_sz(seed, ncases, 0);
}

struct hist_ctx {
    const struct iodfg_dfg *g;
    uint32_t **h; /* per edge slot: brute-force gap histogram */
};

static int hist_gap(void *vctx, uint32_t from, uint32_t to, int has_gap, int64_t gap,
                    uint32_t trace, uint64_t ev)
{
    (void)trace;
    (void)ev;
    struct hist_ctx *hc = vctx;
    if (has_gap) {
        const struct iodfg_dfg_edge *e = iodfg_dfg_find(hc->g, from, to);
        ck_assert_ptr_nonnull(e);
        hc->h[e - hc->g->edges][iodfg_pbucket(gap)]++;
    }
    return 0;
}

/* The two-thread count with histograms (after a large rule edit) equals counting the cases one
 * by one, slot order included, and the histograms it keeps count exactly each group's values;
 * with a small budget of edge histograms the others are left out, never wrong. */
START_TEST(count_hist_equals_sequential_count)
{
    random_log(7, 9);
    tlog_map_fhat(&MAP, LOG);
    for (uint32_t k = 0; k < MAP.nkeys; k += 5) {
        MAP.activity_of_key[k] = IODFG_NO_ACTIVITY; // some events vanish
    }
    uint64_t keep_large = iodfg_pctl_large, keep_split = iodfg_scan_split_min;
    uint32_t keep_max = iodfg_count_hist_max, keep_dense = iodfg_scan_dense_max;
    const struct iodfg_columns *col = iodfg_eventlog_columns(LOG);
    uint32_t na = MAP.nactivities, nc = iodfg_eventlog_case_count(LOG);
    const uint8_t mask[9] = {1, 0, 1, 1, 1, 0, 1, 1, 1};
    for (int path = 0; path < 24; path++) {
        static const uint32_t budget[4] = {0, 1, 3, 256};
        iodfg_count_hist_max = budget[path % 4];
        iodfg_scan_split_min = path % 8 < 4 ? 0 : UINT64_MAX;
        iodfg_pctl_large = path < 8 ? 1 : 6;
        iodfg_scan_dense_max = path % 3 ? keep_dense : 0;
        struct iodfg_selection sel;
        iodfg_selection_all(&sel);
        if (path >= 16) {
            sel.case_on = mask;
            sel.from_ns = 1700000000000000000LL + 20000;
        }
        struct iodfg_dfg R, F;
        struct iodfg_stats st;
        struct iodfg_hstore hs;
        iodfg_dfg_init(&R);
        iodfg_dfg_init(&F);
        iodfg_stats_init(&st);
        iodfg_hstore_init(&hs);
        R.nactivities = F.nactivities = na;
        for (uint32_t c = 0; c < nc; c++) {
            uint64_t lo, hi;
            if (iodfg_trace_case_range(LOG, &sel, c, &lo, &hi)) {
                ck_assert_int_eq(
                    iodfg_dfg_count_case(&R, LOG, MAP.activity_of_key, lo, hi, 0, 1, NULL), 0);
            }
        }
        ck_assert_int_eq(iodfg_stats_build(&st, LOG, &MAP, &sel, NULL), 0);
        ck_assert_int_eq(
            iodfg_dfg_count_hist(&F, LOG, MAP.activity_of_key, &sel, &st, NULL, &hs, NULL, NULL),
            0);
        ck_assert_uint_eq(F.traces, R.traces);
        ck_assert_uint_eq(F.nedges, R.nedges);
        ck_assert_uint_gt(R.nedges, 10);
        for (size_t i = 0; i < R.nedges; i++) {
            const struct iodfg_dfg_edge *x = &F.edges[i], *y = &R.edges[i];
            ck_assert_msg(x->from == y->from && x->to == y->to && x->count == y->count &&
                              x->cases == y->cases && x->gap_n == y->gap_n &&
                              x->gap_sum_ns == y->gap_sum_ns,
                          "path %d: slot %zu differs", path, i);
            ck_assert_uint_eq(F.touched[i], 1);
        }
        // brute-force histograms of durations per activity and of gaps per edge
        uint32_t **ah = calloc(na, sizeof(*ah)), **eh = calloc(R.nedges, sizeof(*eh));
        for (uint32_t a = 0; a < na; a++) {
            ah[a] = calloc(IODFG_PB_N, sizeof(**ah));
        }
        for (size_t i = 0; i < R.nedges; i++) {
            eh[i] = calloc(IODFG_PB_N, sizeof(**eh));
        }
        struct hist_ctx hc = {&F, eh};
        for (uint32_t c = 0; c < nc; c++) {
            uint64_t lo, hi;
            if (!iodfg_trace_case_range(LOG, &sel, c, &lo, &hi)) {
                continue;
            }
            for (uint64_t e = lo; e < hi; e++) {
                uint32_t a = MAP.activity_of_key[col->key[e]];
                if (a != IODFG_NO_ACTIVITY && col->dur_ns[e] != IODFG_UNKNOWN) {
                    ah[a][iodfg_pbucket(col->dur_ns[e])]++;
                }
            }
            ck_assert_int_ge(
                iodfg_trace_walk_case(LOG, MAP.activity_of_key, lo, hi, 0, hist_gap, &hc, NULL), 0);
        }
        size_t kept = 0;
        for (uint32_t a = 0; a < na; a++) {
            int large = st.act[a].dur_n >= iodfg_pctl_large;
            uint32_t *h = a < hs.nact ? hs.act[a] : NULL;
            ck_assert_msg(!h == !large, "path %d: activity %u histogram %p", path, a, (void *)h);
            if (h) {
                ck_assert(!memcmp(h, ah[a], IODFG_PB_N * sizeof(*h)));
                kept++;
            }
        }
        size_t kept_edges = 0;
        for (size_t i = 0; i < R.nedges; i++) {
            uint32_t *h = i < hs.nedge ? hs.edge[i] : NULL;
            int large = R.edges[i].gap_n >= iodfg_pctl_large;
            ck_assert(!h || large);
            if (iodfg_count_hist_max >= R.nedges) {
                ck_assert_msg(!h == !large, "path %d: edge %zu histogram", path, i);
            }
            if (h) {
                ck_assert(!memcmp(h, eh[i], IODFG_PB_N * sizeof(*h)));
                kept_edges++;
            }
        }
        ck_assert_uint_eq(hs.count, kept + kept_edges);
        if (path < 8) {
            ck_assert_uint_gt(kept, 0);
        }
        // the stamps left stay older than later traces: recounting a case changes nothing
        for (uint32_t c = 0; c < nc; c++) {
            uint64_t lo, hi;
            if (iodfg_trace_case_range(LOG, &sel, c, &lo, &hi)) {
                for (int sign = -1; sign <= 1; sign += 2) {
                    ck_assert_int_eq(
                        iodfg_dfg_count_case(&F, LOG, MAP.activity_of_key, lo, hi, 0, sign, NULL),
                        0);
                }
            }
        }
        for (size_t i = 0; i < R.nedges; i++) {
            ck_assert_uint_eq(F.edges[i].cases, R.edges[i].cases);
            ck_assert_uint_eq(F.edges[i].count, R.edges[i].count);
        }
        for (uint32_t a = 0; a < na; a++) {
            free(ah[a]);
        }
        for (size_t i = 0; i < R.nedges; i++) {
            free(eh[i]);
        }
        free(ah);
        free(eh);
        iodfg_hstore_fini(&hs);
        iodfg_stats_fini(&st);
        iodfg_dfg_fini(&R);
        iodfg_dfg_fini(&F);
    }
    iodfg_pctl_large = keep_large;
    iodfg_scan_split_min = keep_split;
    iodfg_count_hist_max = keep_max;
    iodfg_scan_dense_max = keep_dense;
}
END_TEST

/* The fused full count (a new selection) equals counting the cases one by one, slot order
 * included; its key sums are those of iodfg_stats_key_sums bit for bit (with two workers the
 * second one's transfer rates are added again in event order); every event gets its code
 * (IODFG_CODE_OFF outside the selection, over stale codes); it keeps exactly the histograms of
 * the large activities (none above iodfg_count_full_act_max activities) and large edges. */
START_TEST(count_full_equals_sequential_count)
{
    random_log_sz(8, 11, 1);
    tlog_map_fhat(&MAP, LOG);
    for (uint32_t k = 0; k < MAP.nkeys; k += 4) {
        MAP.activity_of_key[k] = IODFG_NO_ACTIVITY; // some events vanish
    }
    uint64_t keep_large = iodfg_pctl_large, keep_split = iodfg_scan_split_min;
    uint32_t keep_max = iodfg_count_hist_max, keep_dense = iodfg_scan_dense_max;
    uint32_t keep_all = iodfg_count_full_act_max;
    const struct iodfg_columns *col = iodfg_eventlog_columns(LOG);
    uint32_t na = MAP.nactivities, nc = iodfg_eventlog_case_count(LOG), nk = MAP.nkeys;
    uint64_t n = iodfg_eventlog_event_count(LOG);
    const uint8_t mask[11] = {1, 0, 1, 1, 1, 0, 1, 1, 1, 0, 1};
    uint16_t *codes = malloc(n * sizeof(*codes));
    uint64_t *bits = malloc(((n + 63) / 64 + 1) * sizeof(*bits));
    struct iodfg_key_sums *ks = malloc(nk * sizeof(*ks)), *rs = malloc(nk * sizeof(*rs));
    for (int path = 0; path < 32; path++) {
        static const uint32_t budget[4] = {0, 1, 3, 256};
        iodfg_count_hist_max = budget[path % 4];
        iodfg_scan_split_min = path % 8 < 4 ? 0 : UINT64_MAX;
        iodfg_pctl_large = path < 8 ? 1 : path < 16 ? 6 : 12;
        iodfg_scan_dense_max = path % 3 ? keep_dense : 0;
        iodfg_count_full_act_max = path % 5 == 4 ? 0 : keep_all;
        struct iodfg_selection sel;
        iodfg_selection_all(&sel);
        if (path >= 12) {
            sel.case_on = path % 2 ? mask : NULL;
            sel.from_ns = 1700000000000000000LL + 20000 + 5000 * (path % 3);
            sel.to_ns = path % 4 ? 1700000000000000000LL + 190000 : INT64_MAX;
        }
        struct iodfg_dfg R, F;
        struct iodfg_hstore hs;
        iodfg_dfg_init(&R);
        iodfg_dfg_init(&F);
        iodfg_hstore_init(&hs);
        R.nactivities = F.nactivities = na;
        for (uint32_t c = 0; c < nc; c++) {
            uint64_t lo, hi;
            if (iodfg_trace_case_range(LOG, &sel, c, &lo, &hi)) {
                ck_assert_int_eq(
                    iodfg_dfg_count_case(&R, LOG, MAP.activity_of_key, lo, hi, 0, 1, NULL), 0);
            }
        }
        for (uint64_t e = 0; e < n; e++) {
            codes[e] = (uint16_t)(e * 7 % (na + 1)); // stale codes of some other mapping
        }
        memset(ks, 0x5a, nk * sizeof(*ks));
        ck_assert_int_eq(
            iodfg_dfg_count_full(&F, LOG, MAP.activity_of_key, &sel, &hs, codes, ks, NULL), 0);
        ck_assert_uint_eq(F.traces, R.traces);
        ck_assert_uint_eq(F.nedges, R.nedges);
        ck_assert_uint_gt(R.nedges, 10);
        for (size_t i = 0; i < R.nedges; i++) {
            const struct iodfg_dfg_edge *x = &F.edges[i], *y = &R.edges[i];
            ck_assert_msg(x->from == y->from && x->to == y->to && x->count == y->count &&
                              x->cases == y->cases && x->gap_n == y->gap_n &&
                              x->gap_sum_ns == y->gap_sum_ns,
                          "path %d: slot %zu differs", path, i);
            ck_assert_uint_eq(F.touched[i], 1);
        }
        // key sums and codes
        iodfg_stats_select_bits(bits, LOG, &sel);
        iodfg_stats_key_sums(rs, nk, LOG, bits);
        for (uint32_t k = 0; k < nk; k++) {
            ck_assert_msg(!memcmp(&ks[k], &rs[k], sizeof(ks[k])), "path %d: key %u sums", path, k);
        }
        uint64_t dr = 0;
        for (uint32_t k = 0; k < nk; k++) {
            dr += rs[k].dr_n;
        }
        ck_assert_uint_gt(dr, 20);
        for (uint64_t e = 0; e < n; e++) {
            uint32_t a = MAP.activity_of_key[col->key[e]];
            uint16_t want = !(bits[e / 64] >> (e % 64) & 1) ? IODFG_CODE_OFF
                            : a == IODFG_NO_ACTIVITY        ? IODFG_CODE_NONE
                                                            : (uint16_t)a;
            ck_assert_msg(codes[e] == want, "path %d: code of event %llu", path,
                          (unsigned long long)e);
        }
        // brute-force histograms of durations per activity and of gaps per edge
        uint32_t **ah = calloc(na, sizeof(*ah)), **eh = calloc(R.nedges, sizeof(*eh));
        uint64_t *durn = calloc(na, sizeof(*durn));
        for (uint32_t a = 0; a < na; a++) {
            ah[a] = calloc(IODFG_PB_N, sizeof(**ah));
        }
        for (size_t i = 0; i < R.nedges; i++) {
            eh[i] = calloc(IODFG_PB_N, sizeof(**eh));
        }
        struct hist_ctx hc = {&F, eh};
        for (uint32_t c = 0; c < nc; c++) {
            uint64_t lo, hi;
            if (!iodfg_trace_case_range(LOG, &sel, c, &lo, &hi)) {
                continue;
            }
            for (uint64_t e = lo; e < hi; e++) {
                uint32_t a = MAP.activity_of_key[col->key[e]];
                if (a != IODFG_NO_ACTIVITY && col->dur_ns[e] != IODFG_UNKNOWN) {
                    ah[a][iodfg_pbucket(col->dur_ns[e])]++;
                    durn[a]++;
                }
            }
            ck_assert_int_ge(
                iodfg_trace_walk_case(LOG, MAP.activity_of_key, lo, hi, 0, hist_gap, &hc, NULL), 0);
        }
        size_t kept = 0, large_acts = 0;
        for (uint32_t a = 0; a < na; a++) {
            int large = durn[a] >= iodfg_pctl_large;
            large_acts += large;
            uint32_t *h = a < hs.nact ? hs.act[a] : NULL;
            ck_assert_msg(!h == !(large && na <= iodfg_count_full_act_max),
                          "path %d: activity %u histogram %p", path, a, (void *)h);
            if (h) {
                ck_assert(!memcmp(h, ah[a], IODFG_PB_N * sizeof(*h)));
                kept++;
            }
        }
        ck_assert_msg(large_acts > 0, "path %d: no large activity", path);
        size_t kept_edges = 0;
        for (size_t i = 0; i < R.nedges; i++) {
            uint32_t *h = i < hs.nedge ? hs.edge[i] : NULL;
            int large = R.edges[i].gap_n >= iodfg_pctl_large;
            ck_assert(!h || large);
            if (iodfg_count_hist_max >= R.nedges) {
                ck_assert_msg(!h == !large, "path %d: edge %zu histogram", path, i);
            }
            if (h) {
                ck_assert(!memcmp(h, eh[i], IODFG_PB_N * sizeof(*h)));
                kept_edges++;
            }
        }
        ck_assert_uint_eq(hs.count, kept + kept_edges);
        for (uint32_t a = 0; a < na; a++) {
            free(ah[a]);
        }
        for (size_t i = 0; i < R.nedges; i++) {
            free(eh[i]);
        }
        free(ah);
        free(eh);
        free(durn);
        iodfg_hstore_fini(&hs);
        iodfg_dfg_fini(&R);
        iodfg_dfg_fini(&F);
    }
    free(codes);
    free(bits);
    free(ks);
    free(rs);
    iodfg_pctl_large = keep_large;
    iodfg_scan_split_min = keep_split;
    iodfg_count_hist_max = keep_max;
    iodfg_scan_dense_max = keep_dense;
    iodfg_count_full_act_max = keep_all;
}
END_TEST

static Suite *suite(void)
{
    Suite *s = suite_create("dfg");
    TCase *tc = tcase_create("core");
    tcase_set_timeout(tc, 120); // the randomised comparisons take seconds under ASan on 2 cores
    tcase_add_checked_fixture(tc, setup, teardown);
    tcase_add_test(tc, paper_ca);
    tcase_add_test(tc, paper_cb);
    tcase_add_test(tc, paper_cx);
    tcase_add_test(tc, per_pid_cases);
    tcase_add_test(tc, per_pid_interleaved_cases_count);
    tcase_add_test(tc, window);
    tcase_add_test(tc, empty_and_unmapped);
    tcase_add_test(tc, unknown_duration_gap);
    tcase_add_test(tc, prune_connectivity);
    tcase_add_test(tc, count_hist_equals_sequential_count);
    tcase_add_test(tc, count_full_equals_sequential_count);
    suite_add_tcase(s, tc);
    return s;
}

int main(void)
{
    return testutil_run(suite());
}
