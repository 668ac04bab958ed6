/* SPDX-License-Identifier: MIT */
/* Unit tests: G/R partition colouring (Sankaran et al. 2024 IV-C, Fig. 3d) and side-by-side
 * differences. */
#include "config.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

#include "iodfg/analysis.h"
#include "iodfg/buf.h"
#include "iodfg/diff.h"
#include "iodfg/error.h"
#include "iodfg/eventlog.h"
#include "iodfg/filter.h"
#include "iodfg/mapping.h"
#include "iodfg/session.h"

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

/* The same comparison the other way round: what R alone had is G's alone now, with G's values
 * on the G side (the colouring and the side-by-side values do not depend on which is which). */
START_TEST(green_side_mirrors_red)
{
    struct iodfg_error err;
    iodfg_error_clear(&err);
    ck_assert_int_eq(iodfg_diff_build(&D, AN, CB, CA, &err), 0); // G = ls -l, R = ls
    ck_assert_int_eq(node_side("read:/etc/passwd"), IODFG_DIFF_G_ONLY);
    ck_assert_int_eq(node_side("read:/usr/share"), IODFG_DIFF_G_ONLY);
    ck_assert_int_eq(node_side("read:/usr/lib"), IODFG_DIFF_BOTH);
    ck_assert_int_eq(edge_side("read:/etc/locale.alias", "write:/dev/pts"), IODFG_DIFF_R_ONLY);
    size_t green = 0, red = 0, both = 0, green_nodes = 0;
    for (size_t i = 0; i < D.nedges; i++) {
        green += D.edges[i].side == IODFG_DIFF_G_ONLY;
        red += D.edges[i].side == IODFG_DIFF_R_ONLY;
        both += D.edges[i].side == IODFG_DIFF_BOTH;
    }
    for (uint32_t a = 0; a < D.nactivities; a++) {
        ck_assert(D.nodes[a].side != IODFG_DIFF_R_ONLY);
        green_nodes += D.nodes[a].side == IODFG_DIFF_G_ONLY;
    }
    ck_assert_uint_eq(green, 9);
    ck_assert_uint_eq(red, 1);
    ck_assert_uint_eq(both, 7);
    ck_assert_uint_eq(green_nodes, 4);
    uint32_t w = tlog_act(&MAP, "write:/dev/pts");
    ck_assert_double_eq(D.nodes[w].g[IODFG_DM_COUNT], 12.0);
    ck_assert_double_eq(D.nodes[w].r[IODFG_DM_COUNT], 3.0);
    ck_assert_double_eq(D.nodes[w].abs[IODFG_DM_COUNT], -9.0);
    ck_assert_double_eq(D.nodes[w].rel[IODFG_DM_COUNT], -0.75);
    ck_assert_double_eq(D.nodes[w].g[IODFG_DM_DUR_MEAN], (74 + 99 + 73 + 99) * 1000.0 / 4);
    ck_assert_double_eq(D.nodes[w].r[IODFG_DM_DUR_MEAN], 111000.0);
    uint32_t p = tlog_act(&MAP, "read:/etc/passwd");
    ck_assert_double_gt(D.nodes[p].g[IODFG_DM_COUNT], 0.0);
    ck_assert_double_eq(D.nodes[p].r[IODFG_DM_COUNT], 0.0);
    ck_assert_double_eq(D.nodes[p].rel[IODFG_DM_COUNT], -1.0);
    const struct iodfg_diff_edge *e = iodfg_diff_find_edge(
        &D, tlog_act(&MAP, "read:/etc/locale.alias"), tlog_act(&MAP, "write:/dev/pts"));
    ck_assert_uint_eq(e->g_count, 0);
    ck_assert_uint_eq(e->r_count, 3);
    ck_assert(isnan(e->count_rel));
}
END_TEST

/* The mean duration of a side is over its events that have one: a call that never resumed (no
 * duration) counts as an event, not as a duration of 0. */
START_TEST(mean_duration_over_timed_events)
{
    struct iodfg_eventlog *log = iodfg_eventlog_new(IODFG_COL_ANALYSIS);
    tlog_add_case(log, "g1",
                  "1 1700000000.000000 read(3</d/f>, \"\", 8) = 8 <0.000010>\n"
                  "1 1700000000.000100 read(3</d/f>, <unfinished ...>\n");
    tlog_add_case(log, "r1", "1 1700000000.000000 read(3</d/f>, \"\", 8) = 8 <0.000030>\n");
    struct iodfg_mapping map;
    tlog_map_fhat(&map, log);
    struct iodfg_selection sel;
    iodfg_selection_all(&sel);
    struct iodfg_analysis *an = iodfg_analysis_new(log, &map, &sel, NULL);
    ck_assert_ptr_nonnull(an);
    struct iodfg_diff d;
    iodfg_diff_init(&d);
    static const uint8_t g[2] = {1, 0}, r[2] = {0, 1};
    struct iodfg_error err;
    iodfg_error_clear(&err);
    ck_assert_int_eq(iodfg_diff_build(&d, an, g, r, &err), 0);
    uint32_t a = tlog_act(&map, "read:/d/f");
    ck_assert_double_eq(d.nodes[a].g[IODFG_DM_COUNT], 2.0);
    ck_assert_double_eq(d.nodes[a].g[IODFG_DM_DUR_MEAN], 10000.0);
    ck_assert_double_eq(d.nodes[a].r[IODFG_DM_DUR_MEAN], 30000.0);
    ck_assert_double_eq(d.nodes[a].abs[IODFG_DM_DUR_MEAN], 20000.0);
    iodfg_diff_fini(&d);
    iodfg_analysis_free(an);
    tlog_map_free(&map);
    iodfg_eventlog_free(log);
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

/* ---- the story ---- */

/* One line of strace text per call, 10 us apart, each taking dur_us. */
static void call(struct iodfg_buf *b, long *t, long dur_us, const char *text)
{
    iodfg_buf_addf(b, "1 08:00:%02ld.%06ld %s <0.%06ld>\n", *t / 1000000, *t % 1000000, text,
                   dur_us);
    *t += dur_us + 10;
}

/* G (cid posix): lseek + write 4 times on `gpath`; R (cid mpiio): pwrite64 4 times on `rpath`,
 * and its first case asks for the size with 4 lseeks. Two cases each; every case reads a
 * library 1 (G) or 5 (R) times, each read taking loader_us. */
static struct iodfg_eventlog *story_log(const char *gpath, const char *rpath, const char *gcall,
                                        long loader_us)
{
    struct iodfg_eventlog *log = iodfg_eventlog_new(IODFG_COL_ALL);
    ck_assert_ptr_nonnull(log);
    char line[512];
    for (int c = 0; c < 4; c++) {
        int r = c >= 2;
        const char *path = r ? rpath : gpath;
        struct iodfg_buf b;
        iodfg_buf_init(&b);
        long t = 0;
        for (int i = 0; i < (r ? 5 : 1); i++) {
            call(&b, &t, loader_us, "read(5</usr/lib/libc.so.6>, \"\", 832) = 832");
        }
        snprintf(line, sizeof(line), "openat(AT_FDCWD, \"%s\", O_RDWR) = 3<%s>", path, path);
        call(&b, &t, 20, line);
        for (int i = 0; r && c == 2 && i < 4; i++) {
            snprintf(line, sizeof(line), "lseek(3<%s>, 0, SEEK_END) = 65536", path);
            call(&b, &t, 5, line);
        }
        for (int i = 0; i < 4; i++) {
            if (!r) {
                snprintf(line, sizeof(line), "lseek(3<%s>, %d, SEEK_SET) = %d", path, i * 16384,
                         i * 16384);
                call(&b, &t, 5, line);
                snprintf(line, sizeof(line), "%s(3<%s>, \"\", 16384) = 16384", gcall, path);
            } else {
                snprintf(line, sizeof(line), "pwrite64(3<%s>, \"\", 16384, %d) = 16384", path,
                         i * 16384);
            }
            call(&b, &t, 30, line);
        }
        char name[32];
        snprintf(name, sizeof(name), "%s_h_%d", r ? "mpiio" : "posix", c);
        tlog_add_case_cid(log, name, r ? "mpiio" : "posix", b.data);
        iodfg_buf_fini(&b);
    }
    return log;
}

static struct iodfg_session *story_session(struct iodfg_eventlog *log, int focus_app)
{
    struct iodfg_error err;
    iodfg_error_clear(&err);
    struct iodfg_session *s = iodfg_session_new(log, &err);
    ck_assert_ptr_nonnull(s);
    struct iodfg_filter_stack *g = iodfg_filter_stack_new(), *r = iodfg_filter_stack_new();
    ck_assert_int_eq(iodfg_filter_stack_push_text(g, "cid=posix", &err), 0);
    ck_assert_int_eq(iodfg_filter_stack_push_text(r, "cid=mpiio", &err), 0);
    ck_assert_int_eq(iodfg_session_set_groups(s, g, r, &err), 0);
    iodfg_filter_stack_free(g);
    iodfg_filter_stack_free(r);
    iodfg_session_set_focus(s, focus_app ? IODFG_FOCUS_APP : IODFG_FOCUS_ALL);
    ck_assert_msg(iodfg_session_prepare(s, &err) == 0, "%s", err.msg);
    return s;
}

static const struct iodfg_diff_story_row *story_row(const struct iodfg_diff_story *st,
                                                    const struct iodfg_session *s,
                                                    const char *g_act, const char *r_act)
{
    for (size_t i = 0; i < st->n; i++) {
        const struct iodfg_diff_story_row *w = &st->rows[i];
        if (!strcmp(iodfg_session_activity_name(s, w->g_act), g_act) &&
            !strcmp(iodfg_session_activity_name(s, w->r_act), r_act)) {
            return w;
        }
    }
    return NULL;
}

/* lseek + write against pwrite64 on the data file: one row saying so, with the numbers per case;
 * the 4 lseeks of one MPI-IO case are all in that case. */
START_TEST(story_call_variant)
{
    struct iodfg_eventlog *log = story_log("/s/run/posix/test", "/s/run/mpiio/test", "write", 20);
    struct iodfg_session *s = story_session(log, 0);
    struct iodfg_diff_story st;
    iodfg_diff_story_init(&st);
    struct iodfg_error err;
    iodfg_error_clear(&err);
    ck_assert_int_eq(iodfg_diff_story_build(&st, s, &err), 0);
    ck_assert_uint_eq(st.g_cases, 2);
    ck_assert_uint_eq(st.r_cases, 2);
    const struct iodfg_diff_story_row *v = story_row(&st, s, "write:/s/run", "pwrite64:/s/run");
    ck_assert_ptr_nonnull(v);
    ck_assert_int_eq(v->kind, IODFG_STORY_VARIANT);
    ck_assert_int_eq(v->side, IODFG_DIFF_CHANGED);
    ck_assert_double_eq(v->g[IODFG_STORY_COUNT], 4);
    ck_assert_double_eq(v->r[IODFG_STORY_COUNT], 4);
    ck_assert_double_eq(v->ratio[IODFG_STORY_COUNT], 1);
    ck_assert_double_eq(v->g[IODFG_STORY_BYTES], 65536);
    ck_assert_double_eq(v->g[IODFG_STORY_TIME], 120000);
    ck_assert_double_eq(v->explained_ns, 240000); // both sides' time: 4 x 30 us each
    ck_assert_msg(strstr(v->text, "write in G is pwrite64 in R, on /s/run: 4 lseek + write per "
                                  "case against 4 pwrite64") != NULL,
                  "%s", v->text);
    ck_assert_ptr_nonnull(strstr(v->text, "/s/run/posix/test 4 per case"));
    ck_assert_ptr_nonnull(strstr(v->text, "/s/run/mpiio/test 4 per case"));
    const struct iodfg_diff_story_row *l = story_row(&st, s, "lseek:/s/run", "lseek:/s/run");
    ck_assert_ptr_nonnull(l);
    ck_assert_int_eq(l->side, IODFG_DIFF_CHANGED);
    ck_assert_double_eq(l->g[IODFG_STORY_COUNT], 4);
    ck_assert_double_eq(l->r[IODFG_STORY_COUNT], 2); // 4 in 2 cases, all in one
    ck_assert_uint_eq(l->r_cases, 1);
    ck_assert_msg(strstr(l->text, "R: all in one case (mpiio_h_2)") != NULL, "%s", l->text);
    // the library: 1 against 5 reads per case, changed, ranked after the I/O above
    const struct iodfg_diff_story_row *lib = story_row(&st, s, "read:/usr/lib", "read:/usr/lib");
    ck_assert_ptr_nonnull(lib);
    ck_assert_double_eq(lib->ratio[IODFG_STORY_COUNT], 5);
    for (size_t i = 1; i < st.n; i++) { // ranked
        ck_assert(st.rows[i - 1].band > st.rows[i].band ||
                  (st.rows[i - 1].band == st.rows[i].band &&
                   st.rows[i - 1].explained_ns >= st.rows[i].explained_ns));
    }
    iodfg_diff_story_fini(&st);
    iodfg_session_free(s);
    iodfg_eventlog_free(log);
}
END_TEST

/* No variant across places, nor between reads and writes: one row per activity instead. */
START_TEST(story_no_variant)
{
    const char *cases[][3] = {{"/s/a/test", "/t/b/test", "write"},
                              {"/s/run/posix/test", "/s/run/mpiio/test", "read"}};
    for (int k = 0; k < 2; k++) {
        struct iodfg_eventlog *log = story_log(cases[k][0], cases[k][1], cases[k][2], 20);
        struct iodfg_session *s = story_session(log, 0);
        struct iodfg_diff_story st;
        iodfg_diff_story_init(&st);
        ck_assert_int_eq(iodfg_diff_story_build(&st, s, NULL), 0);
        for (size_t i = 0; i < st.n; i++) {
            ck_assert_int_eq(st.rows[i].kind, IODFG_STORY_ACTIVITY);
        }
        char g[64];
        snprintf(g, sizeof(g), "%s:%s", cases[k][2], k ? "/s/run" : "/s/a");
        const struct iodfg_diff_story_row *w = story_row(&st, s, g, g);
        ck_assert_ptr_nonnull(w);
        ck_assert_int_eq(w->side, IODFG_DIFF_G_ONLY);
        ck_assert_ptr_nonnull(strstr(w->text, " only in G: 4 calls per case"));
        iodfg_diff_story_fini(&st);
        iodfg_session_free(s);
        iodfg_eventlog_free(log);
    }
}
END_TEST

/* Under focus app the runtime's rows follow the application's of their band, however long, and
 * come before those of a lower band. */
START_TEST(story_application_first)
{
    struct iodfg_eventlog *log = story_log("/s/run/posix/test", "/s/run/mpiio/test", "write", 90);
    for (int app = 0; app < 2; app++) {
        struct iodfg_session *s = story_session(log, app);
        struct iodfg_diff_story st;
        iodfg_diff_story_init(&st);
        ck_assert_int_eq(iodfg_diff_story_build(&st, s, NULL), 0);
        const char *first = iodfg_session_activity_name(s, st.rows[0].g_act);
        ck_assert_str_eq(first, app ? "write:/s/run" : "read:/usr/lib");
        if (app) {
            const struct iodfg_diff_story_row *rt =
                story_row(&st, s, "runtime:loader", "runtime:loader");
            ck_assert_ptr_nonnull(rt);
            ck_assert_uint_ne(rt->fclass, 0);
            // it explains more (360 against 240 us per case) in the same band: second; the
            // lseek row explains little (band 0): after it
            ck_assert_int_eq(st.rows[0].band, rt->band);
            ck_assert_double_gt(rt->explained_ns, st.rows[0].explained_ns);
            ck_assert(rt == &st.rows[1]);
            ck_assert_str_eq(iodfg_session_activity_name(s, st.rows[2].g_act), "lseek:/s/run");
        }
        iodfg_diff_story_fini(&st);
        iodfg_session_free(s);
    }
    iodfg_eventlog_free(log);
}
END_TEST

START_TEST(story_needs_groups)
{
    struct iodfg_session *s = iodfg_session_new(LOG, NULL);
    ck_assert_int_eq(iodfg_session_prepare(s, NULL), 0);
    struct iodfg_diff_story st;
    iodfg_diff_story_init(&st);
    struct iodfg_error err;
    iodfg_error_clear(&err);
    ck_assert_int_eq(iodfg_diff_story_build(&st, s, &err), -1);
    ck_assert_int_eq(err.code, IODFG_E_ARG);
    ck_assert_uint_eq(st.n, 0);
    iodfg_session_free(s);
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
    tcase_add_test(tc, green_side_mirrors_red);
    tcase_add_test(tc, mean_duration_over_timed_events);
    tcase_add_test(tc, changed_is_per_case);
    tcase_add_test(tc, story_call_variant);
    tcase_add_test(tc, story_no_variant);
    tcase_add_test(tc, story_application_first);
    tcase_add_test(tc, story_needs_groups);
    tcase_add_test(tc, names);
    suite_add_tcase(s, tc);
    return s;
}

int main(void)
{
    return testutil_run(suite());
}
