/* SPDX-License-Identifier: MIT */
/* The Heatmap view (H): cases, hosts or cids down, time bins across, each cell shaded by the
 * bytes moved, the busy time or the calls of its row in its bin (iodfg/heatmap.h), G and R as two
 * bands, rows aggregated when more than fit; zoom and pan as the Timeline's, Enter filters to a
 * cell, Backspace comes back, X writes an SVG snapshot. */
#include "config.h"

#include "tui/views/heatmap/heatmap_view.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "iodfg/error.h"
#include "iodfg/svg.h"

#include "tui/app.h"
#include "tui/view.h"
#include "tui/viewmodel.h"
#include "tui/views/snapshot.h"

/* The rows a snapshot has at most (it is a picture for a report, not the screen). */
#define SVG_ROWS 96
#define SVG_BINS 100

static void *open_heatmap(struct tui_app *app)
{
    (void)app;
    struct tui_heatmap_view *hv = calloc(1, sizeof(*hv));
    if (hv) {
        iodfg_heatmap_init(&hv->hm);
    }
    return hv;
}

static void close_heatmap(struct tui_app *app, void *st)
{
    (void)app;
    struct tui_heatmap_view *hv = st;
    iodfg_heatmap_fini(&hv->hm);
    tui_heatmap_jumps_free(hv);
    free(hv);
}

static int build(struct tui_app *app, struct tui_heatmap_view *hv, int64_t from, int64_t to,
                 uint32_t nbins, uint32_t max_rows)
{
    struct iodfg_picture_input in;
    struct iodfg_selection sel;
    tui_picture_input(app, &in, &sel);
    in.tl = NULL; // no peaks: the view shows bytes, busy time and calls
    struct iodfg_heatmap_opts o = {hv->by, from, to, nbins, max_rows};
    struct iodfg_error err;
    iodfg_error_clear(&err);
    hv->built = 0;
    if (iodfg_heatmap_build(&hv->hm, &in, &o, &err)) {
        iodfg_error_format(&err, hv->error, sizeof(hv->error));
        return -1;
    }
    hv->error[0] = '\0';
    hv->built = tui_app_generation(app) + 1;
    hv->from_ns = from;
    hv->to_ns = to;
    hv->nbins = nbins;
    hv->max_rows = max_rows;
    hv->span_from = hv->hm.span_from_ns;
    hv->span_to = hv->hm.span_to_ns;
    hv->span_built = hv->built;
    return 0;
}

int tui_heatmap_update(struct tui_app *app, struct tui_heatmap_view *hv, uint32_t nbins,
                       uint32_t max_rows)
{
    uint64_t gen = tui_app_generation(app) + 1;
    if (hv->z.zoom > 0 && hv->span_built != gen && build(app, hv, 0, 0, nbins, max_rows)) {
        return -1; // the span, which a zoom divides, is the whole picture's
    }
    int64_t from = 0, to = 0;
    if (hv->z.zoom > 0) {
        tui_picture_window(&hv->z, hv->span_from, hv->span_to, nbins, &from, &to);
    }
    if (hv->built == gen && hv->hm.by == hv->by && from == hv->from_ns && to == hv->to_ns &&
        nbins == hv->nbins && max_rows == hv->max_rows) {
        return 0;
    }
    return build(app, hv, from, to, nbins, max_rows);
}

int64_t tui_heatmap_width(const struct tui_heatmap_view *hv)
{
    return hv->built ? hv->hm.to_ns - hv->hm.from_ns : 0;
}

/* ---- commands ---- */

static unsigned move(struct tui_app *app, void *st, enum tui_cmd cmd)
{
    (void)app;
    struct tui_heatmap_view *hv = st;
    hv->row = tui_picture_move(hv->row, hv->hm.nrows, cmd);
    return TUI_REDRAW;
}

/* Left / Right: the cell cursor; past an edge of a zoomed window, a pan. */
static unsigned cell(struct tui_app *app, void *st, enum tui_cmd cmd)
{
    (void)app;
    struct tui_heatmap_view *hv = st;
    int right = cmd == TUI_CMD_CELL_RIGHT;
    if (right && hv->bin + 1 < hv->hm.nbins) {
        hv->bin++;
    } else if (!right && hv->bin > 0) {
        hv->bin--;
    } else if (hv->z.zoom > 0) {
        tui_picture_zoom_cmd(&hv->z, right ? TUI_CMD_PAN_RIGHT : TUI_CMD_PAN_LEFT,
                             tui_heatmap_width(hv));
    }
    return TUI_REDRAW;
}

static unsigned zoom(struct tui_app *app, void *st, enum tui_cmd cmd)
{
    (void)app;
    struct tui_heatmap_view *hv = st;
    tui_picture_zoom_cmd(&hv->z, cmd, tui_heatmap_width(hv));
    return TUI_REDRAW;
}

static unsigned rows_next(struct tui_app *app, void *st, enum tui_cmd cmd)
{
    (void)cmd;
    struct tui_heatmap_view *hv = st;
    hv->by = hv->by == IODFG_HEATMAP_CASE   ? IODFG_HEATMAP_HOST
             : hv->by == IODFG_HEATMAP_HOST ? IODFG_HEATMAP_CID
                                            : IODFG_HEATMAP_CASE;
    hv->row = 0;
    tui_app_set_message(app, 0, "rows by %s", tui_heatmap_by_text(hv->by, 0));
    return TUI_REDRAW;
}

static unsigned metric_next(struct tui_app *app, void *st, enum tui_cmd cmd)
{
    (void)cmd;
    struct tui_heatmap_view *hv = st;
    hv->metric = (enum iodfg_heatmap_metric)((hv->metric + 1) % IODFG_HM__N);
    tui_app_set_message(app, 0, "shade by %s", tui_heatmap_metric_text(hv->metric));
    return TUI_REDRAW;
}

static unsigned enter(struct tui_app *app, void *st, enum tui_cmd cmd)
{
    (void)cmd;
    return tui_heatmap_enter(app, st);
}

/* Backspace: the view's own jump first, else the global one (another view's, or a filter). */
static unsigned back(struct tui_app *app, void *st, enum tui_cmd cmd)
{
    (void)cmd;
    return tui_heatmap_back(app, st) ? TUI_REDRAW : TUI_PASS;
}

static unsigned snapshot(struct tui_app *app, void *st, enum tui_cmd cmd)
{
    (void)st;
    (void)cmd;
    return tui_snapshot_ask(app, "heatmap");
}

static const struct tui_cmd_entry cmds[] = {
    {TUI_CMD_MOVE_UP, move},
    {TUI_CMD_MOVE_DOWN, move},
    {TUI_CMD_PAGE_UP, move},
    {TUI_CMD_PAGE_DOWN, move},
    {TUI_CMD_MOVE_FIRST, move},
    {TUI_CMD_MOVE_LAST, move},
    {TUI_CMD_CELL_LEFT, cell},
    {TUI_CMD_CELL_RIGHT, cell},
    {TUI_CMD_ZOOM_IN, zoom},
    {TUI_CMD_ZOOM_OUT, zoom},
    {TUI_CMD_PAN_LEFT, zoom},
    {TUI_CMD_PAN_RIGHT, zoom},
    {TUI_CMD_FIT, zoom},
    {TUI_CMD_ROWS_NEXT, rows_next},
    {TUI_CMD_METRIC_NEXT, metric_next},
    {TUI_CMD_FILTER_CELL, enter},
    {TUI_CMD_JUMP_BACK, back},
    {TUI_CMD_EXPORT_SVG, snapshot},
};

/* ---- the snapshot ---- */

/* The SVG of what is shown: the same rows, window and shade, at a report's resolution. */
static int make_svg(struct tui_app *app, void *st, const struct iodfg_picture_meta *meta,
                    struct iodfg_buf *out, struct iodfg_error *err)
{
    struct tui_heatmap_view *hv = st;
    if (!hv->built) {
        return iodfg_error_set(err, IODFG_E_EMPTY, "nothing is shown yet");
    }
    struct iodfg_picture_input in;
    struct iodfg_selection sel;
    tui_picture_input(app, &in, &sel);
    in.tl = NULL;
    struct iodfg_heatmap_opts o = {hv->by, hv->hm.from_ns, hv->hm.to_ns, SVG_BINS, SVG_ROWS};
    struct iodfg_heatmap hm;
    iodfg_heatmap_init(&hm);
    int rc = iodfg_heatmap_build(&hm, &in, &o, err);
    if (rc == 0) {
        struct iodfg_svg_opts so;
        iodfg_svg_opts_init(&so);
        so.metric = hv->metric;
        rc = iodfg_svg_heatmap(out, &hm, meta, &so) ? iodfg_error_set(err, IODFG_E_NOMEM, NULL) : 0;
    }
    iodfg_heatmap_fini(&hm);
    return rc;
}

static unsigned prompt(struct tui_app *app, void *st, const char *text, int done)
{
    return done ? tui_snapshot_done(app, st, text, make_svg) : TUI_REDRAW;
}

/* ---- ops ---- */

static int back_op(struct tui_app *app, void *st)
{
    return tui_heatmap_back(app, st);
}

static void render(struct tui_app *app, void *st, const struct tui_render_in *in,
                   struct tui_viewmodel *vm)
{
    tui_heatmap_page(app, st, in->width, in->height, &vm->page);
}

/* The cell's line is a sentence: cut at its end, no name in it to keep whole. */
static size_t detail(struct tui_app *app, void *st, char *buf, size_t size)
{
    tui_heatmap_detail(app, st, buf, size);
    return 0;
}

const struct tui_view_ops tui_view_heatmap = {
    .open = open_heatmap,
    .close = close_heatmap,
    .back = back_op,
    .cmds = cmds,
    .ncmds = sizeof(cmds) / sizeof(cmds[0]),
    .prompt = prompt,
    .render = render,
    .detail = detail,
};
