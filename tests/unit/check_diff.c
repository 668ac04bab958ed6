/* SPDX-License-Identifier: MIT */
/* Unit tests: G/R partition colouring (Sankaran et al. 2024 IV-C, Fig. 3d) and side-by-side
 * differences. */
#include "config.h"

#include <math.h>
#include <string.h>

#include "iodfg/analysis.h"
#include "iodfg/diff.h"
#include "iodfg/error.h"
#include "iodfg/eventlog.h"
#include "iodfg/mapping.h"

#include "dfg_testlog.h"
#include "testutil.h"

static struct iodfg_eventlog *LOG;
static struct iodfg_mapping MAP;
static struct iodfg_analysis *AN;
static struct iodfg_diff D;

static void setup(void)
{
    LOG = iodfg_eventlog_new(IODFG_COL_ANALYSIS);
    tlog_paper_log(LOG);
    tlog_map_fhat(&MAP, LOG);
    struct iodfg_selection sel;
    iodfg_selection_all(&sel);
    AN = iodfg_analysis_new(LOG, &MAP, &sel, NULL);
    ck_assert_ptr_nonnull(AN);
    iodfg_diff_init(&D);
}

static void teardown(void)
{
    iodfg_diff_fini(&D);
    iodfg_analysis_free(AN);
    tlog_map_free(&MAP);
    iodfg_eventlog_free(LOG);
}

static const uint8_t CA[6] = {1, 1, 1, 0, 0, 0}, CB[6] = {0, 0, 0, 1, 1, 1};

static enum iodfg_diff_side node_side(const char *name)
{
    uint32_t a = tlog_act(&MAP, name);
    ck_assert(a != IODFG_NO_ACTIVITY);
    return D.nodes[a].side;
}

static enum iodfg_diff_side edge_side(const char *from, const char *to)
{
    const struct iodfg_diff_edge *e =
        iodfg_diff_find_edge(&D, tlog_act(&MAP, from), tlog_act(&MAP, to));
    ck_assert_msg(e != NULL, "no edge %s -> %s", from, to);
    return e->side;
}

START_TEST(paper_partition_colouring)
{
    struct iodfg_error err;
    iodfg_error_clear(&err);
    // G = C_a (ls), R = C_b (ls -l)
    ck_assert_int_eq(iodfg_diff_build(&D, AN, CA, CB, &err), 0);
    ck_assert_int_eq(node_side("read:/etc/nsswitch.conf"), IODFG_DIFF_R_ONLY);
    ck_assert_int_eq(node_side("read:/etc/passwd"), IODFG_DIFF_R_ONLY);
    ck_assert_int_eq(node_side("read:/etc/group"), IODFG_DIFF_R_ONLY);
    ck_assert_int_eq(node_side("read:/usr/share"), IODFG_DIFF_R_ONLY); // zoneinfo
    ck_assert_int_eq(node_side("read:/usr/lib"), IODFG_DIFF_BOTH);
    // in both (uncoloured), but ls -l writes 4 times per case where ls writes once: changed
    ck_assert_int_eq(node_side("write:/dev/pts"), IODFG_DIFF_CHANGED);
    ck_assert(iodfg_diff_side_in_both(node_side("write:/dev/pts")));
    // the single ls-only relation (Fig. 3d)
    ck_assert_int_eq(edge_side("read:/etc/locale.alias", "write:/dev/pts"), IODFG_DIFF_G_ONLY);
    size_t green = 0, red = 0, both = 0;
    for (size_t i = 0; i < D.nedges; i++) {
        green += D.edges[i].side == IODFG_DIFF_G_ONLY;
        red += D.edges[i].side == IODFG_DIFF_R_ONLY;
        both += iodfg_diff_side_in_both(D.edges[i].side);
    }
    ck_assert_uint_eq(green, 1);
    ck_assert_uint_eq(red, 9); // L->N N->N N->PW PW->G G->W W->Z Z->Z Z->W W->W
    ck_assert_uint_eq(both, 7);
    for (uint32_t a = 0; a < D.nactivities; a++) {
        ck_assert(D.nodes[a].side != IODFG_DIFF_G_ONLY);
    }
    // side by side: write:/dev/pts 3 events in G, 12 in R; bytes 150 vs 3*(9+74+53+65)
    uint32_t w = tlog_act(&MAP, "write:/dev/pts");
    ck_assert_double_eq(D.nodes[w].g[IODFG_DM_COUNT], 3.0);
    ck_assert_double_eq(D.nodes[w].r[IODFG_DM_COUNT], 12.0);
    ck_assert_double_eq(D.nodes[w].abs[IODFG_DM_COUNT], 9.0);
    ck_assert_double_eq(D.nodes[w].rel[IODFG_DM_COUNT], 3.0);
    ck_assert_double_eq(D.nodes[w].g[IODFG_DM_BYTES], 150.0);
    ck_assert_double_eq(D.nodes[w].r[IODFG_DM_BYTES], 603.0);
    ck_assert_double_eq(D.nodes[w].g[IODFG_DM_DUR_MEAN], 111000.0);
    ck_assert_double_eq(D.nodes[w].r[IODFG_DM_DUR_MEAN], (74 + 99 + 73 + 99) * 1000.0 / 4);
    // per case: 3 cases on each side
    ck_assert_uint_eq(D.g_traces, 3);
    ck_assert_uint_eq(D.r_traces, 3);
    ck_assert_double_eq(D.nodes[w].g_pc[IODFG_DM_COUNT], 1.0);
    ck_assert_double_eq(D.nodes[w].r_pc[IODFG_DM_COUNT], 4.0);
    ck_assert_double_eq(D.nodes[w].ratio[IODFG_DM_COUNT], 4.0);
    ck_assert_double_eq(D.nodes[w].g_pc[IODFG_DM_BYTES], 50.0);
    ck_assert_double_eq(D.nodes[w].r_pc[IODFG_DM_BYTES], 201.0);
    ck_assert_double_eq(D.nodes[w].g_pc[IODFG_DM_CASES], 1.0); // every case of G
    ck_assert_double_eq(D.nodes[w].g_pc[IODFG_DM_DUR_SUM], 111000.0);
    uint32_t n = tlog_act(&MAP, "read:/etc/nsswitch.conf");
    ck_assert(isnan(D.nodes[n].rel[IODFG_DM_COUNT])); // nothing in G to compare with
    const struct iodfg_diff_edge *e = iodfg_diff_find_edge(
        &D, tlog_act(&MAP, "read:/etc/locale.alias"), tlog_act(&MAP, "write:/dev/pts"));
    ck_assert_uint_eq(e->g_count, 3);
    ck_assert_uint_eq(e->r_count, 0);
    ck_assert_double_eq(e->count_abs, -3.0);
    ck_assert_double_eq(e->count_rel, -1.0);
}
END_TEST

START_TEST(overlap_is_an_error)
{
    static const uint8_t g[6] = {1, 1, 0, 0, 0, 0}, r[6] = {0, 1, 0, 1, 0, 0};
    struct iodfg_error err;
    iodfg_error_clear(&err);
    ck_assert_int_eq(iodfg_diff_build(&D, AN, g, r, &err), -1);
    ck_assert_int_eq(err.code, IODFG_E_ARG);
    ck_assert_ptr_nonnull(strstr(err.msg, "a_host1_9043"));
}
END_TEST

/* Per case, not in total: 96 calls in 4 cases against 4 in 4 is changed, 8 in 4 against 2 in 1
 * is not; the ratio is changeable and kept by a rebuild. */
START_TEST(changed_is_per_case)
{
    ck_assert_int_eq(iodfg_diff_changed(24.0, 1.0, IODFG_DIFF_CHANGED_RATIO), 1);
    ck_assert_int_eq(iodfg_diff_changed(2.0, 2.0, IODFG_DIFF_CHANGED_RATIO), 0);
    ck_assert_int_eq(iodfg_diff_changed(2.0, 2.9, IODFG_DIFF_CHANGED_RATIO), 0);
    ck_assert_int_eq(iodfg_diff_changed(2.0, 3.0, IODFG_DIFF_CHANGED_RATIO), 1);
    ck_assert_int_eq(iodfg_diff_changed(0.0, 3.0, IODFG_DIFF_CHANGED_RATIO), 1);
    ck_assert_int_eq(iodfg_diff_changed(0.0, 0.0, IODFG_DIFF_CHANGED_RATIO), 0);
    ck_assert_int_eq(iodfg_diff_changed(2.0, 3.0, 2.0), 0);
    struct iodfg_error err;
    iodfg_error_clear(&err);
    // G = one ls case, R = the three ls -l cases: write:/dev/pts 1 against 4 per case
    static const uint8_t g1[6] = {1, 0, 0, 0, 0, 0};
    D.changed_ratio = 5.0;
    ck_assert_int_eq(iodfg_diff_build(&D, AN, g1, CB, &err), 0);
    ck_assert_double_eq(D.changed_ratio, 5.0);
    ck_assert_int_eq(node_side("write:/dev/pts"), IODFG_DIFF_BOTH); // 4x is under 5x
    D.changed_ratio = 3.0;
    ck_assert_int_eq(iodfg_diff_build(&D, AN, g1, CB, &err), 0);
    ck_assert_int_eq(node_side("write:/dev/pts"), IODFG_DIFF_CHANGED);
    ck_assert_int_eq(node_side("read:/usr/lib"), IODFG_DIFF_BOTH); // 3 and 3 reads per case
    uint32_t w = tlog_act(&MAP, "write:/dev/pts");
    ck_assert_double_eq(D.nodes[w].g[IODFG_DM_COUNT], 1.0);
    ck_assert_double_eq(D.nodes[w].r[IODFG_DM_COUNT], 12.0);
    ck_assert_double_eq(D.nodes[w].r_pc[IODFG_DM_COUNT], 4.0);
}
END_TEST

START_TEST(names)
{
    ck_assert_str_eq(iodfg_diff_side_name(IODFG_DIFF_G_ONLY), "green");
    ck_assert_str_eq(iodfg_diff_side_name(IODFG_DIFF_R_ONLY), "red");
    ck_assert_str_eq(iodfg_diff_side_name(IODFG_DIFF_CHANGED), "changed");
    ck_assert_str_eq(iodfg_diff_side_mark(IODFG_DIFF_CHANGED), "!=");
    ck_assert_str_eq(iodfg_diff_side_mark(IODFG_DIFF_BOTH), "=");
    ck_assert_str_eq(iodfg_diff_metric_name(IODFG_DM_BYTES), "bytes");
}
END_TEST

static Suite *suite(void)
{
    Suite *s = suite_create("diff");
    TCase *tc = tcase_create("core");
    tcase_add_checked_fixture(tc, setup, teardown);
    tcase_add_test(tc, paper_partition_colouring);
    tcase_add_test(tc, overlap_is_an_error);
    tcase_add_test(tc, changed_is_per_case);
    tcase_add_test(tc, names);
    suite_add_tcase(s, tc);
    return s;
}

int main(void) { return testutil_run(suite()); }
