/* SPDX-License-Identifier: MIT */
/* Tests of the TUI's picture views without curses: the shade ramp, zoom and pan, the Offsets
 * grid, the filters of a Heatmap cell (odd names too), Enter on a cell and Backspace back, rows
 * that aggregate, G and R bands, the Offsets view on the real IOR shared file (known offsets,
 * strided, nothing invented), and the snapshots (proposed name, atomic SVG that xmllint
 * accepts, an existing file kept, PNG through rsvg-convert or a clear error without it). */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include <check.h>

#include "iodfg/buf.h"
#include "iodfg/error.h"
#include "iodfg/eventlog.h"
#include "iodfg/filter.h"
#include "iodfg/session.h"

#include "dfg_testlog.h"
#include "picture_test.h"
#include "testutil.h"
#include "tui/app.h"
#include "tui/theme.h"
#include "tui/viewmodel.h"
#include "tui/views/heatmap/heatmap_view.h"
#include "tui/views/offsets/offsets_view.h"
#include "tui/views/picture.h"
#include "tui/views/snapshot.h"

/* ---- the shade ramp, zoom and pan ---- */

START_TEST(test_level)
{
    ck_assert_int_eq(tui_picture_level(0, 100), 0);
    ck_assert_int_eq(tui_picture_level(-5, 100), 0);
    ck_assert_int_eq(tui_picture_level(5, 0), 0);
    ck_assert_int_eq(tui_picture_level(1, 1000000), 1); // anything above zero shows
    ck_assert_int_eq(tui_picture_level(100, 100), TUI_PICTURE_LEVELS);
    ck_assert_int_eq(tui_picture_level(50, 100), 4);
    ck_assert_int_eq(tui_picture_level(51, 100), 5);
    int last = 0;
    for (int64_t v = 1; v <= 1000; v++) {
        int l = tui_picture_level(v, 1000);
        ck_assert_int_ge(l, last);
        ck_assert_int_ge(l, 1);
        last = l;
    }
    ck_assert_int_eq(tui_picture_level(INT64_MAX, INT64_MAX), TUI_PICTURE_LEVELS);
    // low, middle and high styles rise with the level
    ck_assert_int_ne(tui_picture_level_style(1), tui_picture_level_style(8));
    ck_assert_int_ne(tui_picture_level_cell(1), tui_picture_level_cell(8));
}
END_TEST

START_TEST(test_window)
{
    struct tui_picture_zoom z = {0, 0, 0};
    int64_t from, to;
    tui_picture_window(&z, 1000, 2000, 10, &from, &to);
    ck_assert_int_eq(from, 1000);
    ck_assert_int_eq(to, 2000);
    ck_assert(tui_picture_zoom_cmd(&z, TUI_CMD_ZOOM_IN, to - from));
    tui_picture_window(&z, 1000, 2000, 10, &from, &to);
    ck_assert_int_eq(from, 1250); // the centre kept
    ck_assert_int_eq(to, 1750);
    for (int i = 0; i < 10; i++) {
        tui_picture_zoom_cmd(&z, TUI_CMD_PAN_RIGHT, to - from);
        tui_picture_window(&z, 1000, 2000, 10, &from, &to);
    }
    ck_assert_int_eq(to, 2000); // panning stops at the span's end
    ck_assert_int_eq(from, 1500);
    for (int i = 0; i < 10; i++) {
        tui_picture_zoom_cmd(&z, TUI_CMD_PAN_LEFT, to - from);
        tui_picture_window(&z, 1000, 2000, 10, &from, &to);
    }
    ck_assert_int_eq(from, 1000);
    for (int i = 0; i < 60; i++) { // deeper than the span allows: at least min_ns wide
        tui_picture_zoom_cmd(&z, TUI_CMD_ZOOM_IN, to - from);
        tui_picture_window(&z, 1000, 2000, 10, &from, &to);
    }
    ck_assert_int_eq(z.zoom, TUI_PICTURE_MAX_ZOOM);
    ck_assert_int_eq(to - from, 10);
    ck_assert_int_ge(from, 1000);
    ck_assert_int_le(to, 2000);
    ck_assert(tui_picture_zoom_cmd(&z, TUI_CMD_FIT, to - from));
    tui_picture_window(&z, 1000, 2000, 10, &from, &to);
    ck_assert_int_eq(from, 1000);
    ck_assert_int_eq(to, 2000);
    ck_assert(!tui_picture_zoom_cmd(&z, TUI_CMD_MOVE_UP, 1));
    ck_assert_int_eq(tui_picture_col(999, 1000, 2000, 10), 0);
    ck_assert_int_eq(tui_picture_col(1999, 1000, 2000, 10), 9);
    ck_assert_int_eq(tui_picture_col(5000, 1000, 2000, 10), 9);
    ck_assert_int_eq(tui_picture_col(1500, 1000, 2000, 10), 5);
}
END_TEST

/* ---- the Offsets grid ---- */

START_TEST(test_offsets_grid)
{
    struct iodfg_offset_point pts[] = {
        // row 0: a known write at 0, an inferred read at 300 (same cell row 0 with 256-byte rows?)
        {.start_ns = 100, .offset = 0, .length = 10, .row = 0, .write = 1, .source = 0},
        {.start_ns = 150, .offset = 300, .length = 10, .row = 0, .write = 0, .source = 1},
        {.start_ns = 900, .offset = 0, .length = 10, .row = 0, .write = 1, .source = 0},
        // row 1: a write over row 0's bytes (overlap) in the same cell as row 0's first
        {.start_ns = 101, .offset = 5, .length = 10, .row = 1, .write = 1, .overlap = 1},
        {.start_ns = 500, .offset = 5000, .length = 10, .row = 1, .write = 0}, // past the rows
    };
    struct iodfg_offsetmap om;
    memset(&om, 0, sizeof(om));
    om.points = pts;
    om.npoints = sizeof(pts) / sizeof(pts[0]);
    struct tui_offsets_cell cells[4 * 2];
    uint64_t outside;
    // 4 columns over [100, 500), 2 rows of 256 bytes; the cursor on row 1
    tui_offsets_grid(&om, 100, 500, 4, 2, 256, 1, cells, &outside);
    ck_assert_uint_eq(outside, 2); // the point at 900 (after the window) and at 5000
    const struct tui_offsets_cell *c = &cells[0];
    ck_assert_uint_eq(c->row, 0);
    ck_assert(c->flags & TUI_OM_CASES);
    ck_assert(c->flags & TUI_OM_OVERLAP);
    ck_assert(c->flags & TUI_OM_CURSOR);
    ck_assert(c->flags & TUI_OM_KNOWN);
    ck_assert_int_eq(tui_offsets_cell_char(c, 0), '*');
    const struct tui_offsets_cell *r = &cells[1 * 4 + 0]; // the inferred read at 300
    ck_assert_uint_eq(r->row, 0);
    ck_assert_uint_eq(r->flags, TUI_OM_READ | TUI_OM_INFERRED);
    ck_assert_int_eq(tui_offsets_cell_char(r, 1), 'r'); // inferred: lowercase
    ck_assert_int_eq(tui_offsets_cell_char(r, 0), '0');
    ck_assert_int_eq(tui_offsets_cell_style(r, 0), TUI_STYLE_DIM);
    for (int i = 0; i < 8; i++) { // nothing anywhere else: no position is invented
        if (i != 0 && i != 4) {
            ck_assert_uint_eq(cells[i].row, UINT32_MAX);
            ck_assert_int_eq(tui_offsets_cell_char(&cells[i], 0), ' ');
        }
    }
    // a window after the first points: only the one at 900
    tui_offsets_grid(&om, 800, 1000, 4, 2, 256, UINT32_MAX, cells, &outside);
    ck_assert_uint_eq(outside, 4);
    ck_assert_uint_eq(cells[2].row, 0);
    ck_assert_uint_eq(cells[2].flags, TUI_OM_WRITE | TUI_OM_KNOWN);
    ck_assert_int_eq(tui_offsets_cell_char(&cells[2], 1), 'W');
    ck_assert_int_eq(tui_offsets_cell_style(&cells[2], 1), TUI_STYLE_MARK_WRITE);
    ck_assert_int_eq(tui_offsets_row_bytes(1 << 20, 14), 128 << 10);
    ck_assert_int_eq(tui_offsets_case_symbol(10), 'a');
    ck_assert_int_eq(tui_offsets_case_symbol(62), '0');
}
END_TEST

/* ---- an app over a small log ---- */

static struct iodfg_eventlog *LOG;
static struct tui_app *APP;

/* Each case writes 1000 bytes at 0.1 s and reads 500 at 0.3 s of /data/f, one second apart. */
static void open_app(const char *const *names, int n)
{
    LOG = iodfg_eventlog_new(IODFG_COL_ALL);
    ck_assert_ptr_nonnull(LOG);
    for (int i = 0; i < n; i++) {
        char text[1024];
        snprintf(
            text, sizeof(text),
            "%d 1700000000.%06d openat(AT_FDCWD, \"/data/f\", O_RDWR) = 3</data/f> <0.000010>\n"
            "%d 1700000000.%06d write(3</data/f>, \"x\", 1000) = 1000 <0.001000>\n"
            "%d 1700000000.%06d read(3</data/f>, \"x\", 500) = 500 <0.001000>\n",
            9000 + i, 1000 * i, 9000 + i, 100000 + 1000 * i, 9000 + i, 300000 + 1000 * i);
        tlog_add_case_cid(LOG, names[i], i % 2 ? "odd" : "even", text);
    }
    struct iodfg_error err;
    iodfg_error_clear(&err);
    APP = tui_app_new(LOG, 1, "test.h5", NULL, NULL, &err);
    ck_assert_msg(APP != NULL, "%s", err.msg);
}

static void close_app(void)
{
    tui_app_free(APP);
    APP = NULL;
}

/* The body of the current view at w x h; the text of all its rows, one a line, into out. */
static void frame_text(int w, int h, char *out, size_t size)
{
    struct tui_viewmodel vm;
    tui_viewmodel_init(&vm);
    struct tui_render_in in = {w, h, NULL, 0, NULL};
    tui_app_frame(APP, &in, &vm);
    size_t k = 0;
    out[0] = '\0';
    for (int r = 0; r < vm.page.rows && k + 1 < size; r++) {
        char line[512];
        tui_page_row_text(&vm.page, r, line, sizeof(line));
        k += (size_t)snprintf(out + k, size - k, "%s\n", line);
    }
    ck_assert(!vm.page.failed);
    tui_viewmodel_fini(&vm);
}

static struct tui_heatmap_view *heatmap(void)
{
    return tui_app_view_state(APP, TUI_VIEW_HEATMAP);
}

/* An app over cases names (n), its Heatmap view drawn at w x h into text. */
static void heatmap_of(const char *const *names, int n, int w, int h, char *text, size_t size)
{
    open_app(names, n);
    tui_app_show(APP, TUI_VIEW_HEATMAP);
    frame_text(w, h, text, size);
}

START_TEST(test_heatmap_render)
{
    static const char *const names[] = {"r_a", "r_b", "r_c"};
    char text[8192];
    heatmap_of(names, 3, 80, 19, text, sizeof(text));
    ck_assert_msg(strstr(text, "bytes by case") != NULL, "%s", text);
    ck_assert_msg(strstr(text, "r_a ") && strstr(text, "r_b ") && strstr(text, "r_c "), "%s", text);
    ck_assert_msg(strstr(text, "3 cases, one per row") != NULL, "%s", text);
    ck_assert_msg(strstr(text, "up to ") != NULL, "%s", text);
    const struct iodfg_heatmap *hm = &heatmap()->hm;
    ck_assert_uint_eq(hm->nrows, 3);
    ck_assert_int_eq(hm->bytes_total, 3 * 1500);
    // m: busy time; g: rows by host (one host), then cid (two), then back to cases
    tui_app_command(APP, TUI_CMD_METRIC_NEXT);
    frame_text(80, 19, text, sizeof(text));
    ck_assert_msg(strstr(text, "busy time by case") != NULL, "%s", text);
    tui_app_command(APP, TUI_CMD_ROWS_NEXT);
    frame_text(80, 19, text, sizeof(text));
    ck_assert_uint_eq(heatmap()->hm.nrows, 1);
    ck_assert_msg(strstr(text, "1 host, one per row") != NULL, "%s", text);
    tui_app_command(APP, TUI_CMD_ROWS_NEXT);
    frame_text(80, 19, text, sizeof(text));
    ck_assert_uint_eq(heatmap()->hm.nrows, 2);
    ck_assert_msg(strstr(text, "even") && strstr(text, "odd"), "%s", text);
    // zoom in: half the span; fit: all of it again
    int64_t whole = heatmap()->hm.to_ns - heatmap()->hm.from_ns;
    tui_app_command(APP, TUI_CMD_ZOOM_IN);
    frame_text(80, 19, text, sizeof(text));
    ck_assert_int_le(heatmap()->hm.to_ns - heatmap()->hm.from_ns, whole / 2 + 1);
    tui_app_command(APP, TUI_CMD_FIT);
    frame_text(80, 19, text, sizeof(text));
    ck_assert_int_eq(heatmap()->hm.to_ns - heatmap()->hm.from_ns, whole);
    close_app();
}
END_TEST

/* The first bin of row 0 where a call starts. */
static uint32_t busy_bin(const struct iodfg_heatmap *hm, uint32_t row)
{
    for (uint32_t b = 0; b < hm->nbins; b++) {
        if (iodfg_heatmap_cell(hm, row, b, IODFG_HM_CALLS)) {
            return b;
        }
    }
    ck_abort_msg("no call in row %u", row);
    return 0;
}

START_TEST(test_heatmap_enter_back)
{
    static const char *const names[] = {"r_a", "r_b", "r_c"};
    char text[8192];
    heatmap_of(names, 3, 80, 19, text, sizeof(text));
    struct iodfg_session *ses = tui_app_session(APP);
    struct iodfg_filter_stack *fs = iodfg_session_filters(ses);
    // an empty cell is refused
    heatmap()->row = 1;
    heatmap()->bin = busy_bin(&heatmap()->hm, 1) + 1; // after the write, before the read
    ck_assert_int_eq(iodfg_heatmap_cell(&heatmap()->hm, 1, heatmap()->bin, IODFG_HM_CALLS), 0);
    tui_app_command(APP, TUI_CMD_FILTER_CELL);
    ck_assert_uint_eq(iodfg_filter_stack_count(fs), 0);
    ck_assert_msg(strstr(tui_app_message(APP), "no call starts") != NULL, "%s",
                  tui_app_message(APP));
    // a cell with calls: its case and bin
    heatmap()->bin = busy_bin(&heatmap()->hm, 1);
    int64_t lo = heatmap()->hm.edge[heatmap()->bin], hi = heatmap()->hm.edge[heatmap()->bin + 1];
    tui_app_command(APP, TUI_CMD_FILTER_CELL);
    ck_assert_uint_eq(iodfg_filter_stack_count(fs), 2);
    ck_assert_uint_eq(iodfg_session_counts(ses)->cases_selected, 1);
    struct iodfg_buf b;
    iodfg_buf_init(&b);
    iodfg_filter_stack_format(fs, "\n", &b);
    ck_assert_msg(strstr(b.data, "name=r_b\ntime=@") != NULL, "%s", b.data);
    const struct iodfg_filter_result *fr = iodfg_session_filter_result(ses);
    ck_assert_int_eq(fr->from_ns, lo); // the bin's window, to the nanosecond
    ck_assert_int_eq(fr->to_ns, hi);
    iodfg_buf_fini(&b);
    ck_assert_msg(strstr(tui_app_message(APP), "Backspace comes back") != NULL, "%s",
                  tui_app_message(APP));
    frame_text(80, 19, text, sizeof(text));
    ck_assert_uint_eq(heatmap()->hm.nrows, 1);
    ck_assert_msg(strstr(text, "r_b") && !strstr(text, "r_a"), "%s", text);
    // and back: no filter, three rows, the cursor where it was
    tui_app_command(APP, TUI_CMD_JUMP_BACK);
    ck_assert_uint_eq(iodfg_filter_stack_count(fs), 0);
    ck_assert_uint_eq(iodfg_session_counts(ses)->cases_selected, 3);
    ck_assert_uint_eq(heatmap()->row, 1);
    frame_text(80, 19, text, sizeof(text));
    ck_assert_uint_eq(heatmap()->hm.nrows, 3);
    // Backspace with nothing to come back from pops a filter, as elsewhere
    ck_assert_int_eq(iodfg_filter_stack_push_text(fs, "cid=even", NULL), 0);
    tui_app_command(APP, TUI_CMD_JUMP_BACK);
    ck_assert_uint_eq(iodfg_filter_stack_count(fs), 0);
    close_app();
}
END_TEST

/* Names a list cannot hold go into a regex of literals; the filters select exactly them. */
START_TEST(test_cell_filters_odd_names)
{
    static const char *const names[] = {"p q", "x,y", "a.b", "z(1"};
    char text[8192];
    heatmap_of(names, 4, 80, 6, text, sizeof(text)); // 3 rows at most: 2 per row
    const struct iodfg_heatmap *hm = &heatmap()->hm;
    ck_assert_uint_eq(hm->per_row, 2);
    ck_assert_msg(strstr(text, "4 cases in 2 rows of 2") != NULL, "%s", text);
    for (uint32_t row = 0; row < 2; row++) {
        struct iodfg_buf f;
        iodfg_buf_init(&f);
        char why[128];
        ck_assert_int_eq(tui_heatmap_cell_filters(hm, row, busy_bin(hm, row), &f, why, sizeof(why)),
                         0);
        struct iodfg_filter_stack *fs = iodfg_filter_stack_new();
        struct iodfg_error err;
        iodfg_error_clear(&err);
        ck_assert_msg(iodfg_filter_stack_parse(fs, f.data, f.len, "cell", &err) == 0, "%s: %s",
                      f.data, err.msg);
        struct iodfg_filter_result res;
        iodfg_filter_result_init(&res);
        ck_assert_int_eq(iodfg_filter_stack_apply(fs, LOG, &res, &err), 0);
        ck_assert_uint_eq(res.ncases_on, 2);
        ck_assert(res.case_on[2 * row] && res.case_on[2 * row + 1]);
        iodfg_filter_result_fini(&res);
        iodfg_filter_stack_free(fs);
        iodfg_buf_fini(&f);
    }
    close_app();
}
END_TEST

START_TEST(test_heatmap_bands)
{
    static const char *const names[] = {"r_a", "r_b", "r_c", "r_d"};
    open_app(names, 4);
    struct iodfg_session *ses = tui_app_session(APP);
    ck_assert_int_ge(iodfg_session_group_match(ses, "cid=even", IODFG_GROUP_G, NULL), 1);
    ck_assert_int_ge(iodfg_session_group_match(ses, "cid=odd", IODFG_GROUP_R, NULL), 1);
    ck_assert_int_eq(tui_app_rebuild(APP, NULL), 0);
    tui_app_show(APP, TUI_VIEW_HEATMAP);
    char text[8192];
    frame_text(80, 19, text, sizeof(text));
    ck_assert_uint_eq(heatmap()->hm.nbands, 2);
    ck_assert_msg(strstr(text, "G r_a") && strstr(text, "G r_c"), "%s", text);
    ck_assert_msg(strstr(text, "R r_b") && strstr(text, "R r_d"), "%s", text);
    ck_assert(strstr(text, "G r_c") < strstr(text, "R r_b")); // G's band first
    close_app();
}
END_TEST

/* ---- snapshots ---- */

static int have(const char *prog)
{
    char cmd[128];
    snprintf(cmd, sizeof(cmd), "command -v %s >/dev/null 2>&1", prog);
    return system(cmd) == 0;
}

static char *read_all(const char *path, size_t *n)
{
    FILE *f = fopen(path, "rb");
    if (!f) {
        return NULL;
    }
    char *buf = malloc(1 << 22);
    ck_assert_ptr_nonnull(buf);
    *n = fread(buf, 1, (1 << 22) - 1, f);
    buf[*n] = '\0';
    fclose(f);
    return buf;
}

static const char TINY_SVG[] =
    "<?xml version=\"1.0\"?>\n<svg xmlns=\"http://www.w3.org/2000/svg\" "
    "width=\"10\" height=\"10\"><rect width=\"5\" height=\"5\"/></svg>\n";

START_TEST(test_snapshot_files)
{
    testutil_fixture_begin("x");
    char old[4096];
    ck_assert_ptr_nonnull(getcwd(old, sizeof(old)));
    ck_assert_int_eq(chdir(testutil_fixture_dir), 0);
    char name[128];
    tui_snapshot_name("heatmap", name, sizeof(name));
    ck_assert_str_eq(name, "iodfg-heatmap-1.svg");
    struct iodfg_error err;
    iodfg_error_clear(&err);
    ck_assert_int_eq(tui_snapshot_write(name, TINY_SVG, strlen(TINY_SVG), &err), 0);
    tui_snapshot_name("heatmap", name, sizeof(name));
    ck_assert_str_eq(name, "iodfg-heatmap-2.svg"); // the next free one
    size_t n;
    char *got = read_all("iodfg-heatmap-1.svg", &n);
    ck_assert_str_eq(got, TINY_SVG);
    free(got);
    // an existing file is kept
    ck_assert_int_eq(tui_snapshot_write("iodfg-heatmap-1.svg", "x", 1, &err), -1);
    ck_assert_int_eq(err.code, IODFG_E_EXISTS);
    got = read_all("iodfg-heatmap-1.svg", &n);
    ck_assert_str_eq(got, TINY_SVG);
    free(got);
    // a PNG without rsvg-convert on PATH: a clear error, no file, no temp file left
    const char *path = getenv("PATH");
    char *saved = strdup(path ? path : "/usr/bin:/bin");
    setenv("PATH", testutil_fixture_dir, 1);
    iodfg_error_clear(&err);
    ck_assert_int_eq(tui_snapshot_write("t.png", TINY_SVG, strlen(TINY_SVG), &err), -1);
    ck_assert_msg(strstr(err.msg, "rsvg-convert") != NULL, "%s", err.msg);
    setenv("PATH", saved, 1);
    free(saved);
    ck_assert_int_ne(access("t.png", F_OK), 0);
    ck_assert_int_eq(system("test -z \"$(ls -A | grep -v '^iodfg-heatmap-1.svg$')\""), 0);
    if (have("rsvg-convert")) {
        iodfg_error_clear(&err);
        ck_assert_msg(tui_snapshot_write("t.png", TINY_SVG, strlen(TINY_SVG), &err) == 0, "%s",
                      err.msg);
        got = read_all("t.png", &n);
        ck_assert(n > 8 && memcmp(got, "\x89PNG", 4) == 0);
        free(got);
        // rsvg-convert refusing its input: an error, nothing left
        iodfg_error_clear(&err);
        ck_assert_int_eq(tui_snapshot_write("bad.png", "not svg", 7, &err), -1);
        ck_assert_msg(strstr(err.msg, "rsvg-convert failed") != NULL, "%s", err.msg);
        ck_assert_int_ne(access("bad.png", F_OK), 0);
    } else {
        fprintf(stderr, "SKIP: rsvg-convert not installed: no PNG rendered\n");
    }
    ck_assert_int_eq(chdir(old), 0);
    testutil_fixture_end();
}
END_TEST

/* ---- the real IOR runs ---- */

static void xmllint_ok(const char *path)
{
    if (!have("xmllint")) {
        fprintf(stderr, "SKIP: xmllint not installed: %s not checked\n", path);
        return;
    }
    char cmd[4300];
    snprintf(cmd, sizeof(cmd), "xmllint --noout '%s'", path);
    ck_assert_msg(system(cmd) == 0, "xmllint rejects %s", path);
}

/* Until the background jobs are done and installed, as the event loop polls. */
static void settle(void)
{
    while (tui_app_busy(APP)) {
        struct timespec ts = {0, 1000000};
        nanosleep(&ts, NULL);
        tui_app_poll(APP);
    }
}

/* The Offsets view of the POSIX shared-file run, built in the background: its test file, every
 * transfer at a known offset (lseek right before, traced through the handle column), strided,
 * no overlap; and X writes the three views' SVGs. */
START_TEST(test_real_ior)
{
    struct pic_run r;
    pic_run_open(&r, "posixssf", NULL);
    struct iodfg_error err;
    iodfg_error_clear(&err);
    APP = tui_app_new(r.log, 0, "ior.h5", NULL, NULL, &err);
    ck_assert_msg(APP != NULL, "%s", err.msg);
    // built in the background, as on a log of a million events or more
    struct tui_offsets_view *ov = tui_app_view_state(APP, TUI_VIEW_OFFSETS);
    ov->async_min = 1;
    tui_app_show(APP, TUI_VIEW_OFFSETS);
    char text[16384];
    frame_text(80, 19, text, sizeof(text));
    ck_assert_msg(strstr(text, "computing the offset map") != NULL, "%s", text);
    settle();
    frame_text(80, 19, text, sizeof(text));
    ck_assert_msg(strstr(text, "/tmp/scratch/posixssf/test") != NULL, "%s", text);
    ck_assert_msg(strstr(text, "writes strided") && strstr(text, "reads strided"), "%s", text);
    ck_assert_msg(strstr(text, "offsets: 128 known\n") != NULL, "%s", text); // none inferred
    ck_assert_msg(strstr(text, "no overlap between cases") != NULL, "%s", text);
    ck_assert_msg(!strstr(text, "unknown"), "%s", text);
    ck_assert_uint_eq(ov->om.npoints, 128);
    // Enter lists the data files; Enter again picks the one under the cursor
    tui_app_command(APP, TUI_CMD_PICK_FILE);
    frame_text(80, 19, text, sizeof(text));
    ck_assert_msg(strstr(text, "data files of the selection") != NULL, "%s", text);
    tui_app_command(APP, TUI_CMD_PICK_FILE);
    ck_assert_int_eq(ov->list, 0);
    frame_text(80, 19, text, sizeof(text));
    ck_assert_int_eq(ov->why, TUI_OFFSETS_PICKED);
    settle();
    // the snapshots
    char *dir = testutil_tmpdir();
    static const enum tui_view views[] = {TUI_VIEW_OFFSETS, TUI_VIEW_HEATMAP, TUI_VIEW_TIMELINE};
    for (size_t i = 0; i < 3; i++) {
        tui_app_show(APP, views[i]);
        frame_text(80, 19, text, sizeof(text));
        ck_assert_int_eq(tui_app_command(APP, TUI_CMD_EXPORT_SVG) & TUI_PROMPT, TUI_PROMPT);
        const char *init;
        ck_assert_int_eq(tui_app_open_prompt(APP, &init), TUI_PROMPT_EXPORT_SVG);
        ck_assert_msg(strncmp(init, "iodfg-", 6) == 0, "%s", init);
        char path[4200];
        snprintf(path, sizeof(path), "%s/%s.svg", dir, tui_view_name(views[i]));
        tui_app_prompt_done(APP, path);
        ck_assert_msg(strstr(tui_app_message(APP), "wrote ") != NULL, "%s", tui_app_message(APP));
        size_t n;
        char *svg = read_all(path, &n);
        ck_assert_ptr_nonnull(svg);
        ck_assert_msg(strstr(svg, "ior.h5") != NULL, "the log's name in %s", path);
        free(svg);
        xmllint_ok(path);
    }
    testutil_rmtree(dir);
    free(dir);
    tui_app_free(APP);
    APP = NULL;
    pic_run_close(&r);
}
END_TEST

static Suite *suite(void)
{
    Suite *s = suite_create("tui_pictures");
    TCase *tc = tcase_create("pure");
    tcase_add_test(tc, test_level);
    tcase_add_test(tc, test_window);
    tcase_add_test(tc, test_offsets_grid);
    suite_add_tcase(s, tc);
    tc = tcase_create("heatmap");
    tcase_add_test(tc, test_heatmap_render);
    tcase_add_test(tc, test_heatmap_enter_back);
    tcase_add_test(tc, test_cell_filters_odd_names);
    tcase_add_test(tc, test_heatmap_bands);
    suite_add_tcase(s, tc);
    tc = tcase_create("snapshot");
    tcase_add_test(tc, test_snapshot_files);
    suite_add_tcase(s, tc);
    tc = tcase_create("real");
    tcase_set_timeout(tc, 120);
    tcase_add_test(tc, test_real_ior);
    suite_add_tcase(s, tc);
    return s;
}

int main(void)
{
    return testutil_run(suite());
}
