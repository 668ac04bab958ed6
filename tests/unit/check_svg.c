/* SPDX-License-Identifier: MIT */
/* Unit tests: the SVG pictures are well-formed (xmllint, when installed), escape hostile names,
 * and say what they must: the log, filters, clock, axes with units, a legend and the notes (rows
 * per row, inferred and unknown offsets, what was left out); drawn for the real IOR runs. With
 * IODFG_PICTURES_OUT=DIR the real runs' pictures are kept there (to render and look at). */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "iodfg/buf.h"
#include "iodfg/error.h"
#include "iodfg/eventlog.h"
#include "iodfg/heatmap.h"
#include "iodfg/mapping.h"
#include "iodfg/offsetmap.h"
#include "iodfg/picture.h"
#include "iodfg/session.h"
#include "iodfg/svg.h"
#include "iodfg/timeline.h"

#include "dfg_testlog.h"
#include "picture_test.h"
#include "testutil.h"

static struct iodfg_buf B;

static void setup(void)
{
    iodfg_buf_init(&B);
}

static void teardown(void)
{
    iodfg_buf_fini(&B);
}

static int have_xmllint(void)
{
    return system("command -v xmllint >/dev/null 2>&1") == 0;
}

/* xmllint --noout on b (skipped without xmllint); keep: a file name under $IODFG_PICTURES_OUT. */
static void check_xml(const struct iodfg_buf *b, const char *keep)
{
    const char *out = getenv("IODFG_PICTURES_OUT");
    if (keep && out && *out) {
        char path[4200];
        snprintf(path, sizeof(path), "%s/%s", out, keep);
        testutil_write_file(path, b->data, b->len);
    }
    if (!have_xmllint()) {
        fprintf(stderr, "SKIP: xmllint not found, SVG not checked\n");
        return;
    }
    char *dir = testutil_tmpdir();
    char path[4200], cmd[8600];
    snprintf(path, sizeof(path), "%s/p.svg", dir);
    testutil_write_file(path, b->data, b->len);
    snprintf(cmd, sizeof(cmd), "xmllint --noout '%s'", path);
    int rc = system(cmd);
    testutil_rmtree(dir);
    free(dir);
    ck_assert_msg(rc == 0, "xmllint rejected the SVG%s%s", keep ? " " : "", keep ? keep : "");
}

static void has(const char *needle)
{
    if (!strstr(B.data, needle)) {
        fprintf(stderr, "%s\n", B.data);
    }
    ck_assert_msg(strstr(B.data, needle) != NULL, "no \"%s\" in the SVG", needle);
}

static const char hostile_trace[] =
    "1 00:00:01.000000 openat(AT_FDCWD, \"/d/a<b>&'\", O_RDWR) = 3</d/a<b>&'\x1b[31m> "
    "<0.000001>\n"
    "1 00:00:01.000010 write(3</d/a<b>&'\x1b[31m>, \"\", 100) = 100 <0.000010>\n"
    "1 00:00:01.000030 pwrite64(3</d/a<b>&'\x1b[31m>, \"\", 100, 50) = 100 <0.000010>\n"
    "1 00:00:01.000050 read(4</d/a<b>&'\x1b[31m>, \"\", 100) = 100 <0.000010>\n";

/* Hostile case, file and log names, filters: escaped, and every picture is well-formed. */
START_TEST(hostile_names)
{
    struct iodfg_eventlog *log = iodfg_eventlog_new(IODFG_COL_ALL);
    tlog_add_case(log, "c<1>&\"2\"\xff\xc2\x85", hostile_trace);
    tlog_add_case(log, "c2", hostile_trace);
    struct iodfg_mapping map;
    tlog_map_fhat(&map, log);
    struct iodfg_selection sel;
    iodfg_selection_all(&sel);
    struct iodfg_timeline tl;
    struct iodfg_error err;
    ck_assert_int_eq(iodfg_timeline_build(&tl, log, &err), 0);
    struct iodfg_picture_input in = {.log = log, .map = &map, .sel = &sel, .tl = &tl};
    struct iodfg_picture_meta meta = {.log_name = "run<&>.h5",
                                      .filters = "path~^/d/a\"<b>",
                                      .focus = "all",
                                      .groups = "G: cid='x'"};
    struct iodfg_heatmap hm;
    iodfg_heatmap_init(&hm);
    struct iodfg_heatmap_opts ho = {.nbins = 20};
    ck_assert_int_eq(iodfg_heatmap_build(&hm, &in, &ho, &err), 0);
    ck_assert_int_eq(iodfg_svg_heatmap(&B, &hm, &meta, NULL), 0);
    check_xml(&B, NULL);
    has("run&lt;&amp;&gt;.h5");
    has("path~^/d/a&quot;&lt;b&gt;");
    has("c&lt;1&gt;&amp;&quot;2&quot;\\xff");
    ck_assert_ptr_null(strstr(B.data, "\x1b"));
    iodfg_buf_clear(&B);
    uint32_t bad = tlog_new_act(&map, "w<&>\"'\x1b[31m\xff");
    for (uint32_t k = 0; k < map.nkeys; k++) { // every event under one hostile activity name
        map.activity_of_key[k] = bad;
    }
    ho.by = IODFG_HEATMAP_ACTIVITY;
    ck_assert_int_eq(iodfg_heatmap_build(&hm, &in, &ho, &err), 0);
    ck_assert_int_eq(iodfg_svg_timeline(&B, &hm, &meta, NULL), 0);
    check_xml(&B, NULL);
    has("w&lt;&amp;&gt;&quot;&apos;[31m\\xff");
    iodfg_buf_clear(&B);
    struct iodfg_offsetmap om;
    iodfg_offsetmap_init(&om);
    ck_assert_msg(iodfg_offsetmap_build(&om, &in, UINT32_MAX, &err) == 0, "%s", err.msg);
    ck_assert_int_eq(iodfg_svg_offsets(&B, &om, &meta, NULL), 0);
    check_xml(&B, NULL);
    has("Inferred: 0 reads, 2 writes.");
    has("Unknown (no open or lseek of the descriptor traced): 2 reads and 0 writes");
    iodfg_offsetmap_fini(&om);
    iodfg_heatmap_fini(&hm);
    iodfg_timeline_fini(&tl);
    tlog_map_free(&map);
    iodfg_eventlog_free(log);
}
END_TEST

/* An empty selection still gives a valid picture that says so. */
START_TEST(empty_selection)
{
    struct iodfg_eventlog *log = iodfg_eventlog_new(IODFG_COL_ALL);
    tlog_add_case(log, "a", hostile_trace);
    struct iodfg_mapping map;
    tlog_map_fhat(&map, log);
    uint8_t off[1] = {0};
    struct iodfg_selection sel;
    iodfg_selection_all(&sel);
    sel.case_on = off;
    struct iodfg_picture_input in = {.log = log, .map = &map, .sel = &sel};
    struct iodfg_heatmap hm;
    iodfg_heatmap_init(&hm);
    struct iodfg_heatmap_opts ho = {.nbins = 10};
    struct iodfg_error err;
    ck_assert_int_eq(iodfg_heatmap_build(&hm, &in, &ho, &err), 0);
    ck_assert_int_eq(iodfg_svg_heatmap(&B, &hm, NULL, NULL), 0);
    check_xml(&B, NULL);
    has("No counted events in the selection.");
    iodfg_buf_clear(&B);
    ho.by = IODFG_HEATMAP_ACTIVITY;
    ck_assert_int_eq(iodfg_heatmap_build(&hm, &in, &ho, &err), 0);
    ck_assert_int_eq(iodfg_svg_timeline(&B, &hm, NULL, NULL), 0);
    check_xml(&B, NULL);
    iodfg_heatmap_fini(&hm);
    tlog_map_free(&map);
    iodfg_eventlog_free(log);
}
END_TEST

/* The widest start-anchored small text of B (class "s": 10 px) ends inside width: notes wrap at
 * the picture's width however narrow (--width). Its length estimated as the writer does. */
static void notes_fit(int width)
{
    for (const char *p = B.data; (p = strstr(p, "<text x=\"")) != NULL; p++) {
        double x = atof(p + 9);
        const char *gt = strchr(p, '>'), *end = gt ? strchr(gt, '<') : NULL;
        ck_assert_ptr_nonnull(end);
        const char *cls = strstr(p, "class=\"s\">"); // small, anchored at its start
        if (!cls || cls + 9 != gt) {
            continue;
        }
        size_t chars = 0;
        for (const char *c = gt + 1; c < end; c++) {
            chars += (*c & 0xc0) != 0x80; // a character: its first byte, an entity's '&'
            if (*c == '&') {
                while (c + 1 < end && *c != ';') {
                    c++;
                }
            }
        }
        ck_assert_msg(x + (double)chars * 10 * 0.58 <= width + 1, "a note runs past %d px: %.*s",
                      width, (int)(end - gt - 1), gt + 1);
    }
}

/* A width outside 600..20000 is taken as the nearer end, 0 as the default 960: never another
 * width than asked without reason. */
START_TEST(width_range)
{
    struct iodfg_eventlog *log = iodfg_eventlog_new(IODFG_COL_ALL);
    tlog_add_case(log, "a", hostile_trace);
    struct iodfg_mapping map;
    tlog_map_fhat(&map, log);
    struct iodfg_selection sel;
    iodfg_selection_all(&sel);
    struct iodfg_picture_input in = {.log = log, .map = &map, .sel = &sel};
    struct iodfg_heatmap hm;
    iodfg_heatmap_init(&hm);
    struct iodfg_heatmap_opts ho = {.nbins = 10};
    struct iodfg_error err;
    ck_assert_int_eq(iodfg_heatmap_build(&hm, &in, &ho, &err), 0);
    static const int asked[] = {0, 1, 400, 599, 600, 601, 960, 20000, 20001, 99999};
    static const int given[] = {960, 600, 600, 600, 600, 601, 960, 20000, 20000, 20000};
    for (size_t i = 0; i < sizeof(asked) / sizeof(asked[0]); i++) {
        struct iodfg_svg_opts so;
        iodfg_svg_opts_init(&so);
        so.width = asked[i];
        iodfg_buf_clear(&B);
        ck_assert_int_eq(iodfg_svg_heatmap(&B, &hm, NULL, &so), 0);
        check_xml(&B, NULL);
        char want[96];
        snprintf(want, sizeof(want), "version=\"1.1\" width=\"%d\" ", given[i]);
        ck_assert_msg(strstr(B.data, want), "width %d: want %s", asked[i], want);
    }
    iodfg_heatmap_fini(&hm);
    tlog_map_free(&map);
    iodfg_eventlog_free(log);
}
END_TEST

/* Narrow pictures (the commands' --width 600) keep their notes inside. */
START_TEST(narrow_notes_wrap)
{
    struct iodfg_eventlog *log = iodfg_eventlog_new(IODFG_COL_ALL);
    tlog_add_case(log, "c1", hostile_trace);
    tlog_add_case(log, "c2", hostile_trace);
    struct iodfg_mapping map;
    tlog_map_fhat(&map, log);
    struct iodfg_selection sel;
    iodfg_selection_all(&sel);
    struct iodfg_picture_input in = {.log = log, .map = &map, .sel = &sel};
    struct iodfg_svg_opts so;
    iodfg_svg_opts_init(&so);
    so.width = 600;
    struct iodfg_error err;
    struct iodfg_offsetmap om;
    iodfg_offsetmap_init(&om);
    ck_assert_msg(iodfg_offsetmap_build(&om, &in, UINT32_MAX, &err) == 0, "%s", err.msg);
    ck_assert_int_eq(iodfg_svg_offsets(&B, &om, NULL, &so), 0);
    check_xml(&B, NULL);
    has("Unknown (no open or lseek");
    notes_fit(600);
    iodfg_buf_clear(&B);
    struct iodfg_heatmap hm;
    iodfg_heatmap_init(&hm);
    struct iodfg_heatmap_opts ho = {.nbins = 10};
    ck_assert_int_eq(iodfg_heatmap_build(&hm, &in, &ho, &err), 0);
    ck_assert_int_eq(iodfg_svg_heatmap(&B, &hm, NULL, &so), 0);
    check_xml(&B, NULL);
    notes_fit(600);
    iodfg_heatmap_fini(&hm);
    iodfg_offsetmap_fini(&om);
    tlog_map_free(&map);
    iodfg_eventlog_free(log);
}
END_TEST

static void meta_of(struct iodfg_picture_meta *meta, const struct iodfg_eventlog *log,
                    const char *filters, const char *groups)
{
    memset(meta, 0, sizeof(*meta));
    meta->log_name = "ior-real.h5";
    meta->filters = filters;
    meta->groups = groups;
    meta->focus = "all activities";
    meta->rules = "default (f-hat)";
    meta->origin_ns = iodfg_eventlog_time_origin(log);
}

/* The real IOR runs: the heatmap of cases (G = POSIX, R = MPI-IO: two bands), the timeline of
 * activities, the offset map of the shared file; each well-formed with its axes and notes. */
START_TEST(real_ior_pictures)
{
    struct pic_run run;
    pic_run_open(&run, "posixssf mpiiossf", NULL);
    struct iodfg_error err;
    ck_assert_int_eq(iodfg_session_group_match(run.s, "cid=posixssf", IODFG_GROUP_G, &err), 4);
    ck_assert_int_eq(iodfg_session_group_match(run.s, "cid=mpiiossf", IODFG_GROUP_R, &err), 4);
    pic_run_rebuild(&run);
    const struct iodfg_picture_input *in = &run.in;
    struct iodfg_picture_meta meta;
    meta_of(&meta, run.log, NULL, "G: cid=posixssf  R: cid=mpiiossf");
    struct iodfg_heatmap hm;
    iodfg_heatmap_init(&hm);
    struct iodfg_heatmap_opts ho = {.nbins = 120};
    ck_assert_int_eq(iodfg_heatmap_build(&hm, in, &ho, &err), 0);
    ck_assert_uint_eq(hm.nbands, 2);
    ck_assert_int_eq(iodfg_svg_heatmap(&B, &hm, &meta, NULL), 0);
    check_xml(&B, "heatmap-groups.svg");
    has("group G: 4 cases");
    has("group R: 4 cases");
    has("time of day");
    has("log: ior-real.h5");
    has("groups: G: cid=posixssf  R: cid=mpiiossf");
    has("Rows: 8 cases, one per row.");
    iodfg_buf_clear(&B);
    // the same with at most 3 rows: aggregated, and said so
    ho.max_rows = 3;
    ck_assert_int_eq(iodfg_heatmap_build(&hm, in, &ho, &err), 0);
    struct iodfg_svg_opts so;
    iodfg_svg_opts_init(&so);
    so.metric = IODFG_HM_BUSY;
    ck_assert_int_eq(iodfg_svg_heatmap(&B, &hm, &meta, &so), 0);
    check_xml(&B, "heatmap-aggregated.svg");
    has("Rows: 8 cases, 4 per row");
    iodfg_buf_clear(&B);
    ho.max_rows = 0;
    ho.by = IODFG_HEATMAP_ACTIVITY;
    ck_assert_int_eq(iodfg_heatmap_build(&hm, in, &ho, &err), 0);
    ck_assert_int_eq(iodfg_svg_timeline(&B, &hm, &meta, NULL), 0);
    check_xml(&B, "timeline-groups.svg");
    has("most calls in flight at one moment");
    iodfg_heatmap_fini(&hm);
    pic_run_close(&run);
}
END_TEST

/* One run with a filter: the heatmap, timeline and offset map as a support engineer pastes them. */
START_TEST(real_ior_one_run)
{
    static const char *const cids[] = {"posixssf", "mpiiossf", "posixfpp", "posixssf"};
    const char *filters = _i >= 2 ? "path~^/tmp/scratch" : NULL;
    struct pic_run run;
    pic_run_open(&run, cids[_i], filters);
    const struct iodfg_picture_input *in = &run.in;
    struct iodfg_picture_meta meta;
    meta_of(&meta, run.log, filters, NULL);
    struct iodfg_error err;
    struct iodfg_heatmap hm;
    iodfg_heatmap_init(&hm);
    struct iodfg_heatmap_opts ho = {.nbins = 100};
    ck_assert_int_eq(iodfg_heatmap_build(&hm, in, &ho, &err), 0);
    ck_assert_int_eq(iodfg_svg_heatmap(&B, &hm, &meta, NULL), 0);
    char name[64];
    snprintf(name, sizeof(name), "heatmap-%s%s.svg", cids[_i], filters ? "-scratch" : "");
    check_xml(&B, name);
    if (filters) {
        has("filters: path~^/tmp/scratch");
    }
    iodfg_buf_clear(&B);
    ho.by = IODFG_HEATMAP_ACTIVITY;
    ck_assert_int_eq(iodfg_heatmap_build(&hm, in, &ho, &err), 0);
    ck_assert_int_eq(iodfg_svg_timeline(&B, &hm, &meta, NULL), 0);
    snprintf(name, sizeof(name), "timeline-%s%s.svg", cids[_i], filters ? "-scratch" : "");
    check_xml(&B, name);
    iodfg_buf_clear(&B);
    struct iodfg_offsetmap om;
    iodfg_offsetmap_init(&om);
    ck_assert_int_eq(iodfg_offsetmap_build(&om, in, UINT32_MAX, &err), 0);
    ck_assert_int_eq(iodfg_svg_offsets(&B, &om, &meta, NULL), 0);
    snprintf(name, sizeof(name), "offsets-%s%s.svg", cids[_i], filters ? "-scratch" : "");
    check_xml(&B, name);
    has("File offsets over time");
    has(_i == 2 ? "writes sequential" : "writes strided");
    if (_i == 3) { // only the data file's calls: the lseek + write pairs in every lane
        iodfg_buf_clear(&B);
        ck_assert_int_eq(iodfg_heatmap_build(&hm, in, &ho, &err), 0);
        ck_assert_int_eq(iodfg_svg_timeline(&B, &hm, &meta, NULL), 0);
        has("lseek:/tmp/scratch");
    }
    // a grid beyond the mark limit says so
    iodfg_buf_clear(&B);
    struct iodfg_svg_opts so;
    iodfg_svg_opts_init(&so);
    so.max_points = 10;
    ck_assert_int_eq(iodfg_svg_offsets(&B, &om, &meta, &so), 0);
    check_xml(&B, NULL);
    has("More than 10 marks in a panel: drawn as cells of 3 px");
    iodfg_offsetmap_fini(&om);
    iodfg_heatmap_fini(&hm);
    pic_run_close(&run);
}
END_TEST

static Suite *svg_suite(void)
{
    Suite *s = suite_create("svg");
    TCase *tc = tcase_create("core");
    tcase_add_checked_fixture(tc, setup, teardown);
    tcase_add_test(tc, hostile_names);
    tcase_add_test(tc, empty_selection);
    tcase_add_test(tc, narrow_notes_wrap);
    tcase_add_test(tc, width_range);
    tcase_add_test(tc, real_ior_pictures);
    tcase_add_loop_test(tc, real_ior_one_run, 0, 4);
    suite_add_tcase(s, tc);
    return s;
}

int main(void)
{
    return testutil_run(svg_suite());
}
