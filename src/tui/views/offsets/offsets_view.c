/* SPDX-License-Identifier: MIT */
/* The Offsets view (O): the offset map of one file (iodfg/offsetmap.h), offset up the side and time
 * across, one mark per read or write at a known or inferred offset, by case or by read or write;
 * the file is the one picked from the list of data files (Enter), else the selected activity's
 * when it names one, else the data file with the most bytes. Zoom and pan in time as the
 * Timeline's; X writes an SVG snapshot. */
#include "config.h"

#include "tui/views/offsets/offsets_view.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "iodfg/error.h"
#include "iodfg/eventlog.h"
#include "iodfg/format.h"
#include "iodfg/mapping.h"
#include "iodfg/session.h"
#include "iodfg/strpool.h"
#include "iodfg/svg.h"

#include "tui/app.h"
#include "tui/listmodel.h"
#include "tui/view.h"
#include "tui/viewmodel.h"
#include "tui/views/common.h"
#include "tui/views/snapshot.h"

/* The view's state with the log its file list names paths from. */
struct offsets_state {
    struct tui_offsets_view v; /* first: the view's functions take it */
    const struct iodfg_eventlog *log;
};

/* ---- the list of data files (Enter) ---- */

enum { FL_PATH, FL_BYTES, FL_CALLS, FL__N };
static const struct tui_column file_cols[FL__N] = {
    {"Data file", 20, 0, TUI_COL_SORTABLE | TUI_COL_SEARCH | TUI_COL_FLEX, "path"},
    {"Bytes", 10, 0, TUI_COL_NUM, "bytes"},
    {"Calls", 10, 1, TUI_COL_NUM, "calls"},
};

static size_t fl_rows(void *ctx)
{
    return ((struct offsets_state *)ctx)->v.nfiles;
}

static const char *fl_cell(void *ctx, size_t row, int col, char *buf, size_t size)
{
    const struct offsets_state *os = ctx;
    const struct iodfg_offsetmap_file *f = &os->v.files[row];
    if (col == FL_PATH) {
        return iodfg_strpool_get(iodfg_eventlog_pool(os->log), f->path); // sanitised when drawn
    }
    return col == FL_BYTES ? iodfg_format_bytes(buf, size, f->bytes, 0)
                           : iodfg_format_count(buf, size, f->calls, 0);
}

static const char *fl_exact(void *ctx, size_t row, int col, char *buf, size_t size)
{
    const struct offsets_state *os = ctx;
    const struct iodfg_offsetmap_file *f = &os->v.files[row];
    if (col == FL_PATH) {
        return fl_cell(ctx, row, col, buf, size);
    }
    snprintf(buf, size, "%lld", col == FL_BYTES ? (long long)f->bytes : (long long)f->calls);
    return buf;
}

static int fl_compare(void *ctx, size_t a, size_t b, int col)
{
    const struct offsets_state *os = ctx;
    const struct iodfg_offsetmap_file *x = &os->v.files[a], *y = &os->v.files[b];
    if (col == FL_PATH) {
        const struct iodfg_strpool *pool = iodfg_eventlog_pool(os->log);
        return strcmp(iodfg_strpool_get(pool, x->path), iodfg_strpool_get(pool, y->path));
    }
    return col == FL_BYTES ? tui_cmp_u64((uint64_t)x->bytes, (uint64_t)y->bytes)
                           : tui_cmp_u64(x->calls, y->calls);
}

static unsigned long long fl_key(void *ctx, size_t row)
{
    return ((struct offsets_state *)ctx)->v.files[row].path;
}

static const struct tui_list_ops file_ops = {fl_rows, fl_cell, fl_compare, NULL, fl_key, fl_exact};

/* ---- the file and the map ---- */

static int cmp_u32(const void *a, const void *b)
{
    uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;
    return (x > y) - (x < y);
}

static int is_data_file(const struct tui_offsets_view *ov, uint32_t path)
{
    return ov->sorted_paths &&
           bsearch(&path, ov->sorted_paths, ov->nfiles, sizeof(uint32_t), cmp_u32) != NULL;
}

/* The one data file the selected activity's keys name, UINT32_MAX when none or several. */
static uint32_t activity_file(struct tui_app *app, const struct tui_offsets_view *ov)
{
    uint32_t a = tui_app_selected_activity(app), file = UINT32_MAX;
    const uint32_t *act = iodfg_session_key_activities(tui_app_session(app));
    const struct iodfg_eventlog *log = tui_app_log(app);
    if (a == UINT32_MAX || !act) {
        return UINT32_MAX;
    }
    const struct iodfg_key *keys = iodfg_eventlog_keys(log);
    for (uint32_t k = 0, nk = iodfg_eventlog_key_count(log); k < nk; k++) {
        if (act[k] != a || !is_data_file(ov, keys[k].path) || keys[k].path == file) {
            continue;
        }
        if (file != UINT32_MAX) {
            return UINT32_MAX; // several: the activity names no one file
        }
        file = keys[k].path;
    }
    return file;
}

static int update_files(struct tui_app *app, struct tui_offsets_view *ov,
                        const struct iodfg_picture_input *in, struct iodfg_error *err)
{
    free(ov->files);
    free(ov->sorted_paths);
    ov->files = NULL;
    ov->sorted_paths = NULL;
    ov->nfiles = 0;
    ov->files_built = 0;
    if (iodfg_offsetmap_files(in, &ov->files, &ov->nfiles, err)) {
        return -1;
    }
    ov->sorted_paths = malloc((ov->nfiles + 1) * sizeof(uint32_t));
    if (!ov->sorted_paths) {
        return iodfg_error_set(err, IODFG_E_NOMEM, NULL);
    }
    for (size_t i = 0; i < ov->nfiles; i++) {
        ov->sorted_paths[i] = ov->files[i].path;
    }
    qsort(ov->sorted_paths, ov->nfiles, sizeof(uint32_t), cmp_u32);
    ov->files_built = tui_app_generation(app) + 1;
    if (ov->lm && tui_listmodel_reload(ov->lm)) {
        return iodfg_error_set(err, IODFG_E_NOMEM, NULL);
    }
    return 0;
}

int tui_offsets_update(struct tui_app *app, struct tui_offsets_view *ov)
{
    uint64_t gen = tui_app_generation(app) + 1;
    struct iodfg_picture_input in;
    struct iodfg_selection sel;
    tui_picture_input(app, &in, &sel);
    struct iodfg_error err;
    iodfg_error_clear(&err);
    if (ov->files_built != gen && update_files(app, ov, &in, &err)) {
        iodfg_error_format(&err, ov->error, sizeof(ov->error));
        return -1;
    }
    if (ov->nfiles == 0) {
        return 1;
    }
    uint32_t path = ov->files[0].path, af;
    ov->why = TUI_OFFSETS_MOST_BYTES;
    if (ov->pick != UINT32_MAX && is_data_file(ov, ov->pick)) {
        path = ov->pick;
        ov->why = TUI_OFFSETS_PICKED;
    } else if ((af = activity_file(app, ov)) != UINT32_MAX) {
        path = af;
        ov->why = TUI_OFFSETS_ACTIVITY;
    }
    if (ov->built == gen && ov->om.path == path) {
        return 0;
    }
    if (ov->failed == gen && ov->failed_path == path) {
        return -1; // the error stays shown until something changes
    }
    uint64_t amin = ov->async_min ? ov->async_min : TUI_OFFSETS_ASYNC_EVENTS;
    if (iodfg_eventlog_event_count(tui_app_log(app)) >= amin) {
        if (ov->job || tui_offsets_job_busy(ov, gen, path)) {
            return 2; // a stale job ends first; its poll redraws, which starts the next
        }
        if (tui_offsets_job_start(app, ov, &in, path)) {
            snprintf(ov->error, sizeof(ov->error), "out of memory for the offset map");
            return -1;
        }
        return 2;
    }
    ov->built = 0;
    if (iodfg_offsetmap_build(&ov->om, &in, path, &err)) {
        iodfg_error_format(&err, ov->error, sizeof(ov->error));
        ov->failed = gen;
        ov->failed_path = path;
        return -1;
    }
    ov->built = gen;
    ov->serial++;
    ov->cursor = ov->cursor < ov->om.ncases ? ov->cursor : 0;
    return 0;
}

/* ---- ops and commands ---- */

static void *open_offsets(struct tui_app *app)
{
    struct offsets_state *os = calloc(1, sizeof(*os));
    if (!os) {
        return NULL;
    }
    os->log = tui_app_log(app);
    os->v.pick = UINT32_MAX;
    iodfg_offsetmap_init(&os->v.om);
    os->v.lm = tui_listmodel_new(file_cols, FL__N, &file_ops, os);
    if (!os->v.lm) {
        free(os);
        return NULL;
    }
    return os;
}

static void close_offsets(struct tui_app *app, void *st)
{
    (void)app;
    struct tui_offsets_view *ov = st;
    tui_offsets_job_stop(ov);
    iodfg_offsetmap_fini(&ov->om);
    free(ov->cells);
    tui_listmodel_free(ov->lm);
    free(ov->files);
    free(ov->sorted_paths);
    free(ov);
}

static int busy(struct tui_app *app, void *st)
{
    (void)app;
    return ((struct tui_offsets_view *)st)->job != NULL;
}

static int poll(struct tui_app *app, void *st)
{
    return tui_offsets_job_poll(app, st);
}

static struct tui_listmodel *table(struct tui_app *app, void *st)
{
    (void)app;
    struct tui_offsets_view *ov = st;
    return ov->list ? ov->lm : NULL;
}

/* j / k: the case whose patterns the detail line names (and whose marks stand out); in the
 * list, its table's. */
static unsigned move(struct tui_app *app, void *st, enum tui_cmd cmd)
{
    (void)app;
    struct tui_offsets_view *ov = st;
    if (ov->list) {
        return TUI_PASS;
    }
    ov->cursor = tui_picture_move(ov->cursor, ov->om.ncases, cmd);
    return TUI_REDRAW;
}

static unsigned zoom(struct tui_app *app, void *st, enum tui_cmd cmd)
{
    (void)app;
    struct tui_offsets_view *ov = st;
    if (ov->list) {
        return TUI_REDRAW;
    }
    int64_t from, to;
    struct tui_picture_zoom z = ov->z;
    tui_picture_window(&z, ov->om.t_from, ov->om.t_to, 1, &from, &to);
    tui_picture_zoom_cmd(&ov->z, cmd, to - from);
    return TUI_REDRAW;
}

static unsigned marks(struct tui_app *app, void *st, enum tui_cmd cmd)
{
    (void)cmd;
    struct tui_offsets_view *ov = st;
    ov->by_rw = !ov->by_rw;
    tui_app_set_message(app, 0, "marks by %s", ov->by_rw ? "read or write" : "case");
    return TUI_REDRAW;
}

/* Enter: the list of data files; in it, the file under the cursor becomes the one shown. */
static unsigned pick(struct tui_app *app, void *st, enum tui_cmd cmd)
{
    (void)cmd;
    struct offsets_state *os = st;
    struct tui_offsets_view *ov = &os->v;
    if (!ov->list) {
        if (tui_offsets_update(app, ov) < 0 || ov->nfiles == 0) {
            tui_app_set_message(app, 1, "pick-file: no data file in this selection");
            return TUI_REDRAW;
        }
        ov->list = 1;
        return TUI_REDRAW;
    }
    if (tui_listmodel_count(ov->lm) == 0) {
        return TUI_REDRAW;
    }
    size_t row = tui_listmodel_row(ov->lm, tui_listmodel_cursor(ov->lm));
    ov->pick = ov->files[row].path;
    ov->list = 0;
    ov->z = (struct tui_picture_zoom){0, 0, 0};
    ov->cursor = 0;
    tui_app_set_message(app, 0, "offsets of %s",
                        iodfg_strpool_get(iodfg_eventlog_pool(os->log), ov->pick));
    return TUI_REDRAW;
}

/* Esc: the list closes (and the global close). */
static unsigned close_list(struct tui_app *app, void *st, enum tui_cmd cmd)
{
    (void)app;
    (void)cmd;
    ((struct tui_offsets_view *)st)->list = 0;
    return TUI_PASS;
}

static unsigned snapshot(struct tui_app *app, void *st, enum tui_cmd cmd)
{
    (void)st;
    (void)cmd;
    return tui_snapshot_ask(app, "offsets");
}

static const struct tui_cmd_entry cmds[] = {
    {TUI_CMD_MOVE_UP, move},        {TUI_CMD_MOVE_DOWN, move},   {TUI_CMD_PAGE_UP, move},
    {TUI_CMD_PAGE_DOWN, move},      {TUI_CMD_MOVE_FIRST, move},  {TUI_CMD_MOVE_LAST, move},
    {TUI_CMD_ZOOM_IN, zoom},        {TUI_CMD_ZOOM_OUT, zoom},    {TUI_CMD_PAN_LEFT, zoom},
    {TUI_CMD_PAN_RIGHT, zoom},      {TUI_CMD_FIT, zoom},         {TUI_CMD_MARKS_NEXT, marks},
    {TUI_CMD_PICK_FILE, pick},      {TUI_CMD_CLOSE, close_list}, {TUI_CMD_CANCEL, close_list},
    {TUI_CMD_EXPORT_SVG, snapshot},
};

/* The SVG of the file shown, of the points in the window shown (positions are still followed
 * from the start of each case: the offsets stay those of the whole selection). */
static int make_svg(struct tui_app *app, void *st, const struct iodfg_picture_meta *meta,
                    struct iodfg_buf *out, struct iodfg_error *err)
{
    struct tui_offsets_view *ov = st;
    int shown = tui_offsets_update(app, ov);
    if (shown != 0) {
        return iodfg_error_set(err, IODFG_E_EMPTY, "%s",
                               shown == 2 ? "the offset map is being computed: again when drawn"
                                          : "no offset map is shown");
    }
    struct iodfg_picture_input in;
    struct iodfg_selection sel;
    tui_picture_input(app, &in, &sel);
    struct tui_picture_zoom z = ov->z;
    int64_t from, to;
    tui_picture_window(&z, ov->om.t_from, ov->om.t_to, 1, &from, &to);
    if (ov->z.zoom > 0) {
        sel.from_ns = from > sel.from_ns ? from : sel.from_ns;
        sel.to_ns = to < sel.to_ns ? to : sel.to_ns;
    }
    struct iodfg_offsetmap om;
    iodfg_offsetmap_init(&om);
    int rc = iodfg_offsetmap_build(&om, &in, ov->om.path, err);
    if (rc == 0 && iodfg_svg_offsets(out, &om, meta, NULL)) {
        rc = iodfg_error_set(err, IODFG_E_NOMEM, NULL);
    }
    iodfg_offsetmap_fini(&om);
    return rc;
}

static unsigned prompt(struct tui_app *app, void *st, const char *text, int done)
{
    return done ? tui_snapshot_done(app, st, text, make_svg) : TUI_REDRAW;
}

static void render(struct tui_app *app, void *st, const struct tui_render_in *in,
                   struct tui_viewmodel *vm)
{
    struct tui_offsets_view *ov = st;
    if (ov->list) {
        tui_offsets_update(app, ov);
        tui_page_textf(&vm->page, 0, 1, in->width - 2, TUI_STYLE_HEADER,
                       "%zu data files of the selection, most bytes first: Enter shows one, "
                       "Esc returns",
                       ov->nfiles);
        vm->table = ov->lm;
        tui_page_table(&vm->page, 1, 0, in->width, in->height - 1, "no data files");
        return;
    }
    tui_offsets_page(app, ov, in->width, in->height, &vm->page);
}

/* The files list names a file (a name that loses its middle); the map's line is a sentence. */
static size_t detail(struct tui_app *app, void *st, char *buf, size_t size)
{
    struct tui_offsets_view *ov = st;
    if (ov->list && tui_listmodel_count(ov->lm)) {
        return tui_table_detail(ov->lm, buf, size);
    }
    tui_offsets_detail(app, ov, buf, size);
    return 0;
}

const struct tui_view_ops tui_view_offsets = {
    .open = open_offsets,
    .close = close_offsets,
    .cmds = cmds,
    .ncmds = sizeof(cmds) / sizeof(cmds[0]),
    .prompt = prompt,
    .render = render,
    .detail = detail,
    .table = table,
    .busy = busy,
    .poll = poll,
};
