/* SPDX-License-Identifier: MIT */
/* Unit tests: DFG construction (seed 001 IV-A worked example), gaps, per-pid cases, windows,
 * empty and unmapped traces, pruning. */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "iodfg/dfg.h"
#include "iodfg/error.h"
#include "iodfg/eventlog.h"
#include "iodfg/mapping.h"

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

static Suite *suite(void)
{
    Suite *s = suite_create("dfg");
    TCase *tc = tcase_create("core");
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
    suite_add_tcase(s, tc);
    return s;
}

int main(void) { return testutil_run(suite()); }
