/* SPDX-License-Identifier: MIT */
/* Tests of the Characterisation view model: the background job over the app's selection, G vs
 * R, threshold and Δt steps, the page layout (side by side or stacked) and a log loaded without
 * the columns access patterns need. */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <check.h>

#include "iodfg/buf.h"
#include "iodfg/error.h"
#include "iodfg/eventlog.h"
#include "iodfg/strace.h"
#include "iodfg/strpool.h"

#include "testutil.h"
#include "tui/app.h"
#include "tui/app_priv.h"
#include "tui/views/charz/charz.h"

static struct iodfg_eventlog *LOG;
static struct tui_app *APP;

static uint32_t S(const char *s)
{
    uint32_t id;
    ck_assert_int_eq(iodfg_strpool_intern(iodfg_eventlog_pool(LOG), s, strlen(s), &id), 0);
    return id;
}

static void add_case(const char *cid, const char *text)
{
    struct iodfg_case_info info;
    memset(&info, 0, sizeof(info));
    char name[64];
    snprintf(name, sizeof(name), "%s_node1_1", cid);
    info.cid = S(cid);
    info.host = S("node1");
    info.rid = S("1");
    info.name = S(name);
    ck_assert_int_eq(iodfg_eventlog_begin_case(LOG, &info, NULL), 0);
    struct iodfg_strace_result res;
    ck_assert_int_eq(
        iodfg_strace_parse(text, strlen(text), iodfg_strace_sink_eventlog, LOG, &res, NULL), 0);
    ck_assert_int_eq(iodfg_eventlog_end_case(LOG, NULL), 0);
}

/* Case g: open at 0 s, 1000-byte writes over [1, 2) s and [4, 5) s (consecutive offsets 0 and
 * 1000). Case r: 4096-byte pread64 at offsets 0 and 8192 over [0, 0.5) s and [1, 1.5) s. */
static void make_app(unsigned columns)
{
    LOG = iodfg_eventlog_new(columns);
    ck_assert_ptr_nonnull(LOG);
    add_case("g", "100 1700000000.000000 openat(AT_FDCWD, \"/d/f\", O_RDWR) = 3</d/f> <0.000000>\n"
                  "100 1700000001.000000 write(3</d/f>, \"x\", 1000) = 1000 <1.000000>\n"
                  "100 1700000004.000000 write(3</d/f>, \"x\", 1000) = 1000 <1.000000>\n");
    add_case("r", "200 1700000000.000000 pread64(3</d/f>, \"x\", 4096, 0) = 4096 <0.500000>\n"
                  "200 1700000001.000000 pread64(3</d/f>, \"x\", 4096, 8192) = 4096 <0.500000>\n");
    struct iodfg_error err;
    iodfg_error_clear(&err);
    APP = tui_app_new(LOG, 1, "test.h5", NULL, NULL, &err);
    ck_assert_msg(APP != NULL, "%s", err.msg);
}

static void setup(void)
{
    make_app(IODFG_COL_ALL);
}

static void teardown(void)
{
    tui_app_free(APP);
}

static void compute(void)
{
    tui_app_charz_update(APP);
    tui_app_charz_wait(APP);
    ck_assert_msg(APP->charz.have, "no results: %s", APP->charz.error);
    ck_assert(!tui_app_charz_busy(APP));
}

/* The activity whose name starts with prefix. */
static uint32_t act_named(const char *prefix)
{
    for (uint32_t a = 0; a < APP->map->nactivities; a++) {
        if (strncmp(tui_app_activity_name(APP, a), prefix, strlen(prefix)) == 0) {
            return a;
        }
    }
    ck_abort_msg("no activity %s", prefix);
    return 0;
}

/* The first page row containing text, or -1. */
static int find_row(const struct tui_page *pg, const char *text)
{
    char buf[1024];
    for (int r = 0; r < pg->rows; r++) {
        if (strstr(tui_page_row_text(pg, r, buf, sizeof(buf)), text)) {
            return r;
        }
    }
    return -1;
}

START_TEST(test_selection)
{
    compute();
    const struct tui_charz *cz = &APP->charz;
    ck_assert_int_eq(cz->ngroups, 1);
    ck_assert_uint_eq(cz->ncases[0], 2);
    ck_assert(cz->access_ok);
    const struct iodfg_characterization *ch = &cz->res[0];
    // El Sayed et al. 2016: span 0..5 s, default Δt 50 ms -> 100 bins; each write is 50 B per bin
    ck_assert_int_eq(ch->bins.dt_ns, 50000000);
    ck_assert_uint_eq(ch->bins.nbins, 100);
    ck_assert_double_eq_tol(ch->bins.dir[1].volume, 2000, 1e-9);
    ck_assert_double_eq_tol(ch->bins.dir[0].volume, 8192, 1e-9);
    ck_assert_double_eq_tol(ch->bins.dir[1].bw_max, 1000, 1e-6);
    ck_assert_uint_eq(ch->bins.dir[1].busy_bins, 40);
    ck_assert_uint_eq(ch->bins.dir[0].busy_bins, 20);
    // Wright et al. 2013: writes 2000 B over 4 s of wall clock, 2 s of durations
    ck_assert_uint_eq(ch->bw.overall[IODFG_BW_WRITE].count, 2);
    ck_assert_double_eq_tol(ch->bw.overall[IODFG_BW_WRITE].perceived, 500, 1e-9);
    ck_assert_double_eq_tol(ch->bw.overall[IODFG_BW_WRITE].effective, 1000, 1e-9);
    // reads: 8192 B over 1.5 s of wall clock, 1 s of durations
    ck_assert_double_eq_tol(ch->bw.overall[IODFG_BW_READ].perceived, 8192 / 1.5, 1e-6);
    ck_assert_double_eq_tol(ch->bw.overall[IODFG_BW_READ].effective, 8192, 1e-9);
    // access: writes consecutive, reads consecutive then sequential
    uint32_t w = act_named("write:"), r = act_named("pread64:");
    ck_assert_uint_eq(ch->access.act[w].dir[1].ops, 2);
    ck_assert_uint_eq(ch->access.act[w].dir[1].consecutive, 2);
    ck_assert_uint_eq(ch->access.act[w].dir[1].hist[10], 2); // [512, 1024)
    ck_assert_uint_eq(ch->access.act[r].dir[0].consecutive, 1);
    ck_assert_uint_eq(ch->access.act[r].dir[0].sequential, 1);
    ck_assert_uint_eq(ch->access.act[r].dir[0].hist[13], 2); // [4096, 8192)
    // the writes never overlap: no stair-case
    ck_assert_double_eq(ch->serial.act[w].stair, 0);
}
END_TEST

START_TEST(test_groups)
{
    struct iodfg_error err;
    iodfg_error_clear(&err);
    ck_assert_int_eq(iodfg_session_group_match(APP->ses, "cid=g", IODFG_GROUP_G, &err), 1);
    ck_assert_int_eq(iodfg_session_group_match(APP->ses, "cid=r", IODFG_GROUP_R, &err), 1);
    ck_assert_int_eq(tui_app_rebuild(APP, &err), 0);
    compute();
    const struct tui_charz *cz = &APP->charz;
    ck_assert_int_eq(cz->ngroups, 2);
    // G: the writes only (span 0..5 s, Δt 50 ms); R: the reads only (span 0..1.5 s, whose own
    // Δt would be 20 ms, on G's wider 50 ms so that the two compare: 30 bins)
    ck_assert_double_eq_tol(cz->res[0].bins.dir[1].volume, 2000, 1e-9);
    ck_assert_double_eq_tol(cz->res[0].bins.dir[0].volume, 0, 1e-9);
    ck_assert_double_eq_tol(cz->res[1].bins.dir[0].volume, 8192, 1e-9);
    ck_assert_double_eq_tol(cz->res[1].bins.dir[1].volume, 0, 1e-9);
    ck_assert_int_eq(cz->res[0].bins.dt_ns, 50000000);
    ck_assert_int_eq(cz->res[1].bins.dt_ns, 50000000);
    ck_assert_uint_eq(cz->res[1].bins.nbins, 30);
    ck_assert_uint_eq(cz->res[0].bw.overall[IODFG_BW_ALL].count, 3);
    ck_assert_uint_eq(cz->res[1].bw.overall[IODFG_BW_ALL].count, 2);

    // side by side at 100 columns, one after the other at 80
    struct tui_page pg;
    tui_page_init(&pg);
    ck_assert_int_eq(tui_charz_page(APP, 100, &pg), 0);
    int g = find_row(&pg, "G: 1 cases, 3 events"), r = find_row(&pg, "R: 1 cases, 2 events");
    ck_assert_int_ge(g, 0);
    ck_assert_int_eq(g, r);
    ck_assert_int_ge(find_row(&pg, "bandwidth: read"), 0);
    tui_page_fini(&pg);
    tui_page_init(&pg);
    ck_assert_int_eq(tui_charz_page(APP, 80, &pg), 0);
    g = find_row(&pg, "G: 1 cases");
    r = find_row(&pg, "R: 1 cases");
    ck_assert_int_ge(g, 0);
    ck_assert_int_gt(r, g);
    // G's bandwidth chart has write cells and no read cells; R's the opposite
    int wcells[2] = {0, 0}, rcells[2] = {0, 0};
    for (size_t i = 0; i < pg.n; i++) {
        if (pg.span[i].kind != TUI_SPAN_CHART) {
            continue;
        }
        int grp = pg.span[i].row > r;
        for (const char *p = pg.span[i].text; *p; p++) {
            wcells[grp] += *p == 'w';
            rcells[grp] += *p == 'r';
        }
    }
    ck_assert_int_gt(wcells[0], 0);
    ck_assert_int_eq(rcells[0], 0);
    ck_assert_int_gt(rcells[1], 0);
    ck_assert_int_eq(wcells[1], 0);
    tui_page_fini(&pg);

    // clearing the groups: a new generation, one group again
    ck_assert_int_eq(tui_app_command(APP, TUI_CMD_GROUP_CLEAR) & TUI_REDRAW, TUI_REDRAW);
    compute();
    ck_assert_int_eq(APP->charz.ngroups, 1);
}
END_TEST

START_TEST(test_filters_recompute)
{
    compute();
    uint64_t gen = APP->charz.res_gen;
    APP->prompt = TUI_PROMPT_FILTER;
    tui_app_prompt_done(APP, "call=write");
    ck_assert_uint_gt(APP->generation, gen);
    compute();
    const struct iodfg_characterization *ch = &APP->charz.res[0];
    ck_assert_uint_eq(ch->bw.overall[IODFG_BW_ALL].count, 2);
    ck_assert_double_eq_tol(ch->bins.dir[0].volume, 0, 1e-9);
    ck_assert_double_eq_tol(ch->bins.dir[1].volume, 2000, 1e-9);
}
END_TEST

/* A rebuild while a job runs asks it to stop. Whether it stops or finishes first, what it
 * leaves is never taken for the new inputs and is no error; the next update computes them. */
START_TEST(test_rebuild_stops_the_running_job)
{
    compute();
    uint64_t gen = APP->generation;
    APP->prompt = TUI_PROMPT_FILTER;
    tui_app_prompt_done(APP, "call=write");
    ck_assert_uint_gt(APP->generation, gen);
    tui_app_charz_update(APP); // a job for the filtered selection
    ck_assert(tui_app_charz_busy(APP));
    tui_app_command(APP, TUI_CMD_POP_FILTER); // all calls again: a rebuild
    tui_app_charz_wait(APP);
    ck_assert_str_eq(APP->charz.error, "");
    ck_assert_uint_ne(APP->charz.res_gen, APP->generation);
    compute();
    ck_assert_uint_eq(APP->charz.res_gen, APP->generation);
    const struct iodfg_characterization *ch = &APP->charz.res[0];
    ck_assert_double_eq_tol(ch->bins.dir[0].volume, 8192, 1e-9);
    ck_assert_double_eq_tol(ch->bins.dir[1].volume, 2000, 1e-9);
}
END_TEST

START_TEST(test_params)
{
    ck_assert_int_eq(tui_charz_dt_step(1000000, -1), 500000);
    ck_assert_int_eq(tui_charz_dt_step(1000000, 1), 2000000);
    ck_assert_int_eq(tui_charz_dt_step(3000, 1), 5000);
    ck_assert_int_eq(tui_charz_dt_step(3000, -1), 2000);
    ck_assert_int_eq(tui_charz_dt_step(1000, -1), 1000);
    ck_assert_int_eq(tui_charz_dt_step(50000000, -1), 20000000);

    struct tui_charz *cz = &APP->charz;
    ck_assert_int_eq(tui_charz_zoom(cz, -1), -1); // no results yet
    compute();
    // threshold c = 1 KiB: 50 B write bins are no longer busy; reads (409.6 B/bin) neither
    ck_assert_int_eq(tui_charz_threshold_step(cz, -1), -1);
    ck_assert_int_eq(tui_charz_threshold_step(cz, 1), 0);
    ck_assert_double_eq(tui_charz_threshold(cz), 1024);
    ck_assert_uint_eq(cz->res[0].bins.dir[1].busy_bins, 0);
    ck_assert_uint_eq(cz->res[0].bins.dir[0].busy_bins, 0);
    tui_charz_threshold_step(cz, -1);
    ck_assert_uint_eq(cz->res[0].bins.dir[1].busy_bins, 40);
    // zoom in: Δt 20 ms, 250 bins, recomputed
    APP->view = TUI_VIEW_CHARZ;
    ck_assert_int_eq(tui_app_command(APP, TUI_CMD_ZOOM_IN), TUI_REDRAW);
    ck_assert_int_eq(cz->dt_ns, 20000000);
    compute();
    ck_assert_uint_eq(cz->res[0].bins.nbins, 250);
    ck_assert_uint_eq(cz->res[0].bins.dir[1].busy_bins, 100);
    tui_app_command(APP, TUI_CMD_FIT);
    ck_assert_int_eq(cz->dt_ns, 0);
    // servers by case: two servers
    tui_app_command(APP, TUI_CMD_SERVER_NEXT);
    ck_assert_int_eq(cz->by, IODFG_BY_CASE);
    compute();
    ck_assert_uint_eq(cz->res[0].bins.nservers, 2);
    ck_assert_uint_eq(cz->res[0].bins.nbins, 100);
    // the selected activity follows h/l (the Activities cursor)
    uint32_t a = tui_app_selected_activity(APP);
    tui_app_command(APP, TUI_CMD_ACTIVITY_NEXT);
    ck_assert_uint_ne(tui_app_selected_activity(APP), a);
    tui_app_command(APP, TUI_CMD_ACTIVITY_PREV);
    ck_assert_uint_eq(tui_app_selected_activity(APP), a);
}
END_TEST

START_TEST(test_page_activity)
{
    compute();
    // select the write activity in the Activities table
    uint32_t w = act_named("write:");
    for (int i = 0; i < 10 && tui_app_selected_activity(APP) != w; i++) {
        tui_app_command(APP, TUI_CMD_ACTIVITY_NEXT);
    }
    ck_assert_uint_eq(tui_app_selected_activity(APP), w);
    struct tui_page pg;
    tui_page_init(&pg);
    ck_assert_int_eq(tui_charz_page(APP, 80, &pg), 0);
    char buf[1024];
    int r = find_row(&pg, "2 events in 1 cases");
    ck_assert_int_ge(r, 0);
    ck_assert_int_ge(find_row(&pg, "stair-case 0.000 · 0 queued"), 0);
    int h = find_row(&pg, "access ");
    ck_assert_int_ge(h, 0);
    // the write row: 2 ops, both consecutive, offset 1000 unaligned, median bin [512, 1024)
    tui_page_row_text(&pg, h + 2, buf, sizeof(buf));
    ck_assert_str_eq(buf, " write      2 100%   0%   0%   0%  50%    512 B");
    int s = find_row(&pg, "request size");
    ck_assert_int_ge(s, 0);
    tui_page_row_text(&pg, s + 1, buf, sizeof(buf));
    ck_assert_msg(strstr(buf, "     0      2  ") != NULL, "'%s'", buf);
    // per-case bars: both cases, with glyphs
    ck_assert_int_ge(find_row(&pg, "g_node1_1"), 0);
    ck_assert_int_ge(find_row(&pg, "r_node1_1"), 0);
    int bars = 0;
    for (size_t i = 0; i < pg.n; i++) {
        bars += pg.span[i].kind == TUI_SPAN_BAR;
    }
    ck_assert_int_eq(bars, 2);
    tui_page_fini(&pg);
}
END_TEST

START_TEST(test_missing_columns)
{
    tui_app_free(APP);
    make_app(IODFG_COL_ANALYSIS);
    compute();
    ck_assert(!APP->charz.access_ok);
    ck_assert_double_eq_tol(APP->charz.res[0].bins.dir[1].volume, 2000, 1e-9);
    struct tui_page pg;
    tui_page_init(&pg);
    ck_assert_int_eq(tui_charz_page(APP, 80, &pg), 0);
    ck_assert_int_ge(find_row(&pg, "access patterns need the offset, fd and pid columns"), 0);
    tui_page_fini(&pg);
}
END_TEST

/* Δt, servers and threshold survive a session file (and are validated when read back). */
START_TEST(test_session_params)
{
    struct tui_charz *cz = &APP->charz;
    compute();
    tui_charz_set_params(cz, 20000000, IODFG_BY_FILE, tui_charz_threshold_index(4096));
    ck_assert_int_eq(tui_charz_threshold_index(4096), 2);
    ck_assert_int_eq(tui_charz_threshold_index(4097), -1);
    struct iodfg_buf b;
    iodfg_buf_init(&b);
    ck_assert_int_eq(tui_app_session_format(APP, &b), 0);
    ck_assert_ptr_nonnull(strstr(b.data, "\ndt 20000000\nby file\nthreshold 4096\n"));
    char path[512], *dir = testutil_tmpdir();
    snprintf(path, sizeof(path), "%s/c.session", dir);
    struct iodfg_error err;
    iodfg_error_clear(&err);
    ck_assert_int_eq(tui_app_session_save(APP, path, &err), 0);
    // back to the defaults, then the saved ones from the file
    tui_charz_set_params(cz, 0, IODFG_BY_HOST, 0);
    ck_assert_int_eq(cz->dt_ns, 0);
    ck_assert_double_eq(tui_charz_threshold(cz), 0);
    uint64_t seq = cz->param_seq;
    ck_assert_int_eq(tui_app_session_load(APP, path, &err), 0);
    ck_assert_int_eq(cz->dt_ns, 20000000);
    ck_assert_int_eq(cz->by, IODFG_BY_FILE);
    ck_assert_double_eq(tui_charz_threshold(cz), 4096);
    ck_assert_uint_gt(cz->param_seq, seq);
    compute();
    ck_assert_uint_eq(cz->res[0].bins.nbins, 250);
    ck_assert_str_eq(cz->res[0].bins.server[0], "/d/f");
    // a threshold that is not one of the steps names the line
    FILE *f = fopen(path, "w");
    ck_assert_ptr_nonnull(f);
    fputs("# iodfg session 1\nthreshold 1000\n", f);
    fclose(f);
    ck_assert_int_eq(tui_app_session_load(APP, path, &err), -1);
    ck_assert_int_eq(err.line, 2);
    iodfg_buf_fini(&b);
    testutil_rmtree(dir);
    free(dir);
}
END_TEST

static Suite *suite(void)
{
    Suite *s = suite_create("tui_charz");
    TCase *tc = tcase_create("charz");
    tcase_add_checked_fixture(tc, setup, teardown);
    tcase_add_test(tc, test_selection);
    tcase_add_test(tc, test_groups);
    tcase_add_test(tc, test_filters_recompute);
    tcase_add_test(tc, test_rebuild_stops_the_running_job);
    tcase_add_test(tc, test_params);
    tcase_add_test(tc, test_page_activity);
    tcase_add_test(tc, test_missing_columns);
    tcase_add_test(tc, test_session_params);
    suite_add_tcase(s, tc);
    return s;
}

int main(void)
{
    return testutil_run(suite());
}
