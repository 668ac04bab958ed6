/* SPDX-License-Identifier: MIT */
/* The help view (`?`): every keymap's keys, from the keymaps themselves, and what the columns
 * mean, scrolled with the move keys; Esc goes back to the view it was opened from. */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "iodfg/buf.h"
#include "iodfg/glyph.h"

#include "tui/app.h"
#include "tui/theme.h"
#include "tui/view.h"
#include "tui/viewmodel.h"
#include "tui/views/glossary.h"

#define MAX_TOP 10000

struct help {
    int top;          /* first line shown */
    int lines, shown; /* of the last frame: lines in all, lines on screen */
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
    return tui_app_help_close(app, cmd);
}

static const struct tui_cmd_entry cmds[] = {
    {TUI_CMD_MOVE_UP, scroll},   {TUI_CMD_MOVE_DOWN, scroll},  {TUI_CMD_PAGE_UP, scroll},
    {TUI_CMD_PAGE_DOWN, scroll}, {TUI_CMD_MOVE_FIRST, scroll}, {TUI_CMD_MOVE_LAST, scroll},
    {TUI_CMD_CLOSE, back},       {TUI_CMD_CANCEL, back},
};

/* The key list (tui_keymap_help) and the glossary of columns from line top (kept so that the
 * last page is full), headings in their style. */
static void render(struct tui_app *app, void *st, const struct tui_render_in *in,
                   struct tui_viewmodel *vm)
{
    struct help *h = st;
    struct iodfg_buf b;
    iodfg_buf_init(&b);
    tui_keymap_help_from(in->km, TUI_HELP_TEXT, tui_view_keymap(tui_app_previous_view(app)), &b);
    tui_glossary(&b);
    int total = 0;
    for (const char *p = b.data; p && *p; p++) {
        total += *p == '\n';
    }
    int max_top = total > in->height ? total - in->height : 0;
    h->top = h->top > max_top ? max_top : h->top;
    h->lines = total;
    h->shown = total < in->height ? total : in->height;
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

/* Where one is in the list, and that it scrolls. */
static size_t detail(struct tui_app *app, void *st, char *buf, size_t size)
{
    (void)app;
    const struct help *h = st;
    snprintf(buf, size,
             iodfg_glyph_text("lines %d-%d of %d · j/k PgUp/PgDn Home/End scroll · Esc back"),
             h->lines ? h->top + 1 : 0, h->top + h->shown, h->lines);
    return 0;
}

const struct tui_view_ops tui_view_help = {
    .open = open_help,
    .close = close_help,
    .enter = enter,
    .cmds = cmds,
    .ncmds = sizeof(cmds) / sizeof(cmds[0]),
    .render = render,
    .detail = detail,
};
