/* SPDX-License-Identifier: MIT */
/* The views still drawn by the old code (term/draw.c) with their state in the app while they
 * move into files of their own: Graph, Timeline, Characterisation; their commands already come
 * through view tables. Each goes from here when its file comes. */
#include "config.h"

#include <stdint.h>

#include "iodfg/analysis.h"
#include "iodfg/dfg.h"
#include "iodfg/format.h"
#include "iodfg/glyph.h"

#include "tui/app.h"
#include "tui/view.h"

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
                            dir == 0   ? iodfg_glyph_text("Δt is already automatic")
                            : cz->have ? iodfg_glyph_text("Δt cannot change further")
                                       : "wait for the results");
    } else if (dir) {
        tui_app_set_message(app, 0, iodfg_glyph_text("Δt %s"),
                            iodfg_format_duration(v, sizeof(v), cz->dt_ns, 0));
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
