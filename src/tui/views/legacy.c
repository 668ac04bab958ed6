/* SPDX-License-Identifier: MIT */
/* The views still drawn by the old code (term/draw.c) with their state in the app while they
 * move into files of their own: Graph, Timeline, Characterisation; their commands already come
 * through view tables. Each goes from here when its file comes. */
#include "config.h"

#include <stdint.h>

#include "iodfg/analysis.h"
#include "iodfg/dfg.h"
#include "iodfg/format.h"

#include "tui/app.h"
#include "tui/timeline_job.h"
#include "tui/view.h"

/* ---- timeline ---- */

static unsigned tl_move(struct tui_app *app, void *st, enum tui_cmd cmd)
{
    (void)st;
    if (app->tl.show_events) {
        return TUI_PASS; // the event list is a table
    }
    long v = (long)app->tl.cursor + tui_cmd_step(cmd);
    long max = app->tl.nrows ? (long)app->tl.nrows - 1 : 0;
    app->tl.cursor = (uint32_t)(v < 0 ? 0 : v > max ? max : v);
    return TUI_REDRAW;
}

static unsigned tl_zoom(struct tui_app *app, void *st, enum tui_cmd cmd)
{
    (void)st;
    struct tui_timeline *tl = &app->tl;
    int64_t width = tl->bin_ns * tl->nbins;
    switch (cmd) {
    case TUI_CMD_ZOOM_IN:
        tl->zoom += tl->zoom < 40;
        tl->pan_set = 1;
        tl->from_ns += width / 4; // keep the centre
        break;
    case TUI_CMD_ZOOM_OUT:
        tl->zoom -= tl->zoom > 0;
        tl->from_ns -= width / 2;
        break;
    case TUI_CMD_PAN_LEFT:
        tl->pan_set = 1;
        tl->from_ns -= width / 4;
        break;
    case TUI_CMD_PAN_RIGHT:
        tl->pan_set = 1;
        tl->from_ns += width / 4;
        break;
    default: // fit
        tl->zoom = 0;
        tl->pan_set = 0;
        break;
    }
    tl->stamp = 0;
    return TUI_REDRAW;
}

static unsigned tl_events(struct tui_app *app, void *st, enum tui_cmd cmd)
{
    (void)st;
    (void)cmd;
    if (!app->tl.show_events && tui_app_timeline_busy(app)) {
        tui_app_set_message(app, 0, "indexing the timeline… Enter again when it is drawn");
        return TUI_REDRAW;
    }
    if (!app->tl.show_events && tui_app_timeline_events(app)) {
        tui_app_set_message(app, 1, "no events to list");
    }
    return TUI_REDRAW;
}

static unsigned tl_close(struct tui_app *app, void *st, enum tui_cmd cmd)
{
    (void)st;
    (void)cmd;
    app->tl.show_events = 0;
    return TUI_PASS;
}

static struct tui_listmodel *tl_table(struct tui_app *app, void *st)
{
    (void)st;
    return app->tl.show_events ? app->events_lm : NULL;
}

static const struct tui_cmd_entry tl_cmds[] = {
    {TUI_CMD_MOVE_UP, tl_move},   {TUI_CMD_MOVE_DOWN, tl_move},  {TUI_CMD_PAGE_UP, tl_move},
    {TUI_CMD_PAGE_DOWN, tl_move}, {TUI_CMD_MOVE_FIRST, tl_move}, {TUI_CMD_MOVE_LAST, tl_move},
    {TUI_CMD_ZOOM_IN, tl_zoom},   {TUI_CMD_ZOOM_OUT, tl_zoom},   {TUI_CMD_PAN_LEFT, tl_zoom},
    {TUI_CMD_PAN_RIGHT, tl_zoom}, {TUI_CMD_FIT, tl_zoom},        {TUI_CMD_SHOW_EVENTS, tl_events},
    {TUI_CMD_CLOSE, tl_close},    {TUI_CMD_CANCEL, tl_close},
};

const struct tui_view_ops tui_view_timeline = {
    .cmds = tl_cmds,
    .ncmds = sizeof(tl_cmds) / sizeof(tl_cmds[0]),
    .table = tl_table,
};

/* ---- characterisation ---- */

static unsigned cz_move(struct tui_app *app, void *st, enum tui_cmd cmd)
{
    (void)st;
    long step = tui_cmd_step(cmd); // the renderer clamps to the page
    long v = (long)app->charz.top + (step > 100000 ? 100000 : step < -100000 ? -100000 : step);
    app->charz.top = (int)(v < 0 ? 0 : v);
    return TUI_REDRAW;
}

static unsigned cz_zoom(struct tui_app *app, void *st, enum tui_cmd cmd)
{
    (void)st;
    struct tui_charz *cz = &app->charz;
    char v[IODFG_FORMAT_MIN];
    int dir = cmd == TUI_CMD_ZOOM_IN ? -1 : cmd == TUI_CMD_ZOOM_OUT ? 1 : 0;
    if (tui_charz_zoom(cz, dir)) {
        tui_app_set_message(app, 0, "%s",
                            dir == 0   ? "Δt is already automatic"
                            : cz->have ? "Δt cannot change further"
                                       : "wait for the results");
    } else if (dir) {
        tui_app_set_message(app, 0, "Δt %s", iodfg_format_duration(v, sizeof(v), cz->dt_ns, 0));
    }
    return TUI_REDRAW;
}

static unsigned cz_server(struct tui_app *app, void *st, enum tui_cmd cmd)
{
    (void)st;
    (void)cmd;
    tui_charz_next_server(&app->charz);
    tui_app_set_message(app, 0, "servers by %s", iodfg_server_by_name(app->charz.by));
    return TUI_REDRAW;
}

static unsigned cz_threshold(struct tui_app *app, void *st, enum tui_cmd cmd)
{
    (void)st;
    struct tui_charz *cz = &app->charz;
    char v[IODFG_FORMAT_MIN];
    if (tui_charz_threshold_step(cz, cmd == TUI_CMD_THRESHOLD_UP ? 1 : -1) == 0) {
        tui_app_set_message(app, 0, "threshold c = %s",
                            iodfg_format_bytes(v, sizeof(v), (int64_t)tui_charz_threshold(cz), 0));
    }
    return TUI_REDRAW;
}

static unsigned cz_none(struct tui_app *app, void *st, enum tui_cmd cmd)
{
    (void)app;
    (void)st;
    (void)cmd;
    return TUI_REDRAW; // panning has no meaning here
}

static const struct tui_cmd_entry cz_cmds[] = {
    {TUI_CMD_MOVE_UP, cz_move},
    {TUI_CMD_MOVE_DOWN, cz_move},
    {TUI_CMD_PAGE_UP, cz_move},
    {TUI_CMD_PAGE_DOWN, cz_move},
    {TUI_CMD_MOVE_FIRST, cz_move},
    {TUI_CMD_MOVE_LAST, cz_move},
    {TUI_CMD_ZOOM_IN, cz_zoom},
    {TUI_CMD_ZOOM_OUT, cz_zoom},
    {TUI_CMD_FIT, cz_zoom},
    {TUI_CMD_PAN_LEFT, cz_none},
    {TUI_CMD_PAN_RIGHT, cz_none},
    {TUI_CMD_SERVER_NEXT, cz_server},
    {TUI_CMD_THRESHOLD_UP, cz_threshold},
    {TUI_CMD_THRESHOLD_DOWN, cz_threshold},
};

const struct tui_view_ops tui_view_charz = {
    .cmds = cz_cmds,
    .ncmds = sizeof(cz_cmds) / sizeof(cz_cmds[0]),
};
