/* SPDX-License-Identifier: MIT */
/* The Characterisation view (8): the characterisation of the selection or of G and R
 * (charz_job.c computes it in the background, charz_page.c lays it out), scrolled with the move
 * keys; Δt, the servers and the busy-bin threshold change with their keys. */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>

#include "iodfg/format.h"
#include "iodfg/glyph.h"

#include "tui/app.h"
#include "tui/theme.h"
#include "tui/view.h"
#include "tui/viewmodel.h"
#include "tui/views/charz/charz.h"

#define SCROLL_MAX 100000

struct charz_view {
    int top; /* first page row shown */
};

static void *open_charz(struct tui_app *app)
{
    (void)app;
    return calloc(1, sizeof(struct charz_view));
}

static void close_charz(struct tui_app *app, void *st)
{
    (void)app;
    free(st);
}

/* j / k: scroll (the renderer clamps to the page). */
static unsigned scroll(struct tui_app *app, void *st, enum tui_cmd cmd)
{
    (void)app;
    struct charz_view *cv = st;
    long step = tui_cmd_step(cmd);
    long v = (long)cv->top + (step > SCROLL_MAX    ? SCROLL_MAX
                              : step < -SCROLL_MAX ? -SCROLL_MAX
                                                   : step);
    cv->top = (int)(v < 0 ? 0 : v);
    return TUI_REDRAW;
}

/* + - 0: narrower or wider bins, or the automatic Δt. */
static unsigned zoom(struct tui_app *app, void *st, enum tui_cmd cmd)
{
    (void)st;
    struct tui_charz *cz = tui_app_charz(app);
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

static unsigned server(struct tui_app *app, void *st, enum tui_cmd cmd)
{
    (void)st;
    (void)cmd;
    struct tui_charz *cz = tui_app_charz(app);
    tui_charz_next_server(cz);
    tui_app_set_message(app, 0, "servers by %s", iodfg_server_by_name(cz->by));
    return TUI_REDRAW;
}

static unsigned threshold(struct tui_app *app, void *st, enum tui_cmd cmd)
{
    (void)st;
    struct tui_charz *cz = tui_app_charz(app);
    char v[IODFG_FORMAT_MIN];
    if (tui_charz_threshold_step(cz, cmd == TUI_CMD_THRESHOLD_UP ? 1 : -1) == 0) {
        tui_app_set_message(app, 0, "threshold c = %s",
                            iodfg_format_bytes(v, sizeof(v), (int64_t)tui_charz_threshold(cz), 0));
    }
    return TUI_REDRAW;
}

/* Panning has no meaning here. */
static unsigned no_pan(struct tui_app *app, void *st, enum tui_cmd cmd)
{
    (void)app;
    (void)st;
    (void)cmd;
    return TUI_REDRAW;
}

static const struct tui_cmd_entry cmds[] = {
    {TUI_CMD_MOVE_UP, scroll},
    {TUI_CMD_MOVE_DOWN, scroll},
    {TUI_CMD_PAGE_UP, scroll},
    {TUI_CMD_PAGE_DOWN, scroll},
    {TUI_CMD_MOVE_FIRST, scroll},
    {TUI_CMD_MOVE_LAST, scroll},
    {TUI_CMD_ZOOM_IN, zoom},
    {TUI_CMD_ZOOM_OUT, zoom},
    {TUI_CMD_FIT, zoom},
    {TUI_CMD_PAN_LEFT, no_pan},
    {TUI_CMD_PAN_RIGHT, no_pan},
    {TUI_CMD_SERVER_NEXT, server},
    {TUI_CMD_THRESHOLD_UP, threshold},
    {TUI_CMD_THRESHOLD_DOWN, threshold},
};

/* The whole page, shown from the scroll position (starts or installs the computation). */
static void render(struct tui_app *app, void *st, const struct tui_render_in *in,
                   struct tui_viewmodel *vm)
{
    struct charz_view *cv = st;
    tui_app_charz_update(app);
    tui_charz_page(app, in->width, &vm->page);
    int max_top = vm->page.rows > in->height ? vm->page.rows - in->height : 0;
    cv->top = cv->top > max_top ? max_top : cv->top < 0 ? 0 : cv->top;
    vm->top = cv->top;
    if (vm->page.failed) {
        vm->page.failed = 0;
        tui_page_text(&vm->page, vm->top + in->height - 1, 1, in->width - 2, TUI_STYLE_ERROR,
                      "out of memory");
    }
}

static size_t detail(struct tui_app *app, void *st, char *buf, size_t size)
{
    (void)app;
    (void)st;
    snprintf(buf, size,
             iodfg_glyph_text(
                 "+/- Δt · 0 auto · b servers · c/C threshold · h/l activity · j/k scroll"));
    return 0;
}

const struct tui_view_ops tui_view_charz = {
    .open = open_charz,
    .close = close_charz,
    .cmds = cmds,
    .ncmds = sizeof(cmds) / sizeof(cmds[0]),
    .render = render,
    .detail = detail,
};
