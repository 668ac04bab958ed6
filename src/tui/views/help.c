/* SPDX-License-Identifier: MIT */
/* The help view (`?`): every keymap's keys, from the keymaps themselves, scrolled with the
 * move keys; Esc goes back to the view it was opened from. */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "iodfg/buf.h"

#include "tui/app.h"
#include "tui/theme.h"
#include "tui/view.h"
#include "tui/viewmodel.h"

#define MAX_TOP 10000

struct help {
    int top; /* first line shown */
};

static void *open_help(struct tui_app *app)
{
    (void)app;
    return calloc(1, sizeof(struct help));
}

static void close_help(struct tui_app *app, void *st)
{
    (void)app;
    free(st);
}

static void enter(struct tui_app *app, void *st)
{
    (void)app;
    ((struct help *)st)->top = 0;
}

static unsigned scroll(struct tui_app *app, void *st, enum tui_cmd cmd)
{
    (void)app;
    struct help *h = st;
    long v = h->top + tui_cmd_step(cmd);
    h->top = (int)(v < 0 ? 0 : v > MAX_TOP ? MAX_TOP : v);
    return TUI_REDRAW;
}

/* Back to the view help was opened from, which then closes what it has open too. */
static unsigned back(struct tui_app *app, void *st, enum tui_cmd cmd)
{
    (void)st;
    app->view = app->prev_view;
    return tui_app_command(app, cmd);
}

static const struct tui_cmd_entry cmds[] = {
    {TUI_CMD_MOVE_UP, scroll},   {TUI_CMD_MOVE_DOWN, scroll},  {TUI_CMD_PAGE_UP, scroll},
    {TUI_CMD_PAGE_DOWN, scroll}, {TUI_CMD_MOVE_FIRST, scroll}, {TUI_CMD_MOVE_LAST, scroll},
    {TUI_CMD_CLOSE, back},       {TUI_CMD_CANCEL, back},
};

/* The key list (tui_keymap_help) from line top, headings in their style. */
static void render(struct tui_app *app, void *st, const struct tui_render_in *in,
                   struct tui_viewmodel *vm)
{
    (void)app;
    const struct help *h = st;
    struct iodfg_buf b;
    iodfg_buf_init(&b);
    tui_keymap_help(in->km, TUI_HELP_TEXT, &b);
    int line = 0, y = 0;
    for (char *p = b.data; p && *p && y < in->height; line++) {
        char *nl = strchr(p, '\n');
        if (nl) {
            *nl = '\0';
        }
        if (line >= h->top) {
            tui_page_text(&vm->page, y++, 1, in->width - 1,
                          p[0] != ' ' ? TUI_STYLE_HELP_HEADING : TUI_STYLE_NORMAL, p);
        }
        p = nl ? nl + 1 : p + strlen(p);
    }
    iodfg_buf_fini(&b);
}

const struct tui_view_ops tui_view_help = {
    .open = open_help,
    .close = close_help,
    .enter = enter,
    .cmds = cmds,
    .ncmds = sizeof(cmds) / sizeof(cmds[0]),
    .render = render,
};
