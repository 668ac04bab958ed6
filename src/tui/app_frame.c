/* SPDX-License-Identifier: MIT */
/* The frame around the current view: what every view shares below its body. */
#include "config.h"

#include <stdio.h>
#include <string.h>

#include "iodfg/buf.h"
#include "iodfg/filter.h"
#include "iodfg/glyph.h"

#include "tui/app.h"
#include "tui/app_priv.h"
#include "tui/theme.h"
#include "tui/view.h"
#include "tui/viewmodel.h"

/* F: the filter stack in the lowest rows of the body, over the view. */
static void filter_list(const struct tui_app *app, const struct tui_render_in *in,
                        struct tui_viewmodel *vm)
{
    struct tui_page *pg = &vm->page;
    size_t n = iodfg_filter_stack_count(app->filters);
    int h = (int)n + 2, w = in->width;
    h = h > in->height ? in->height : h;
    int y0 = vm->top + in->height - h, end = vm->top + in->height; // rows of the page
    for (int y = y0; y < end; y++) {
        tui_page_fill(pg, y, 0, w, TUI_STYLE_NORMAL);
    }
    tui_page_hline(pg, y0, 0, w, TUI_STYLE_BORDER);
    tui_page_text(pg, y0, 2, w - 4, TUI_STYLE_HELP_HEADING,
                  n ? " filter stack (Backspace pops the last) " : " no filters (f adds one) ");
    for (size_t i = 0; i < n && y0 + 1 + (int)i < end; i++) {
        struct iodfg_buf b;
        iodfg_buf_init(&b);
        iodfg_buf_addf(&b, "%zu  ", i + 1);
        iodfg_filter_format(iodfg_filter_stack_get(app->filters, i), &b);
        tui_page_text(pg, y0 + 1 + (int)i, 2, w - 4, TUI_STYLE_NORMAL, b.data ? b.data : "");
        iodfg_buf_fini(&b);
    }
}

/* The command line's hint while it is typed, the message when there is one, else the view's
 * detail line. */
static void detail_line(struct tui_app *app, const struct tui_render_in *in,
                        struct tui_viewmodel *vm)
{
    if (app->prompt == TUI_PROMPT_COMMAND) {
        tui_app_command_hint(in->edit_text ? in->edit_text : "", vm->detail, sizeof(vm->detail));
        return;
    }
    if (app->message[0]) {
        snprintf(vm->detail, sizeof(vm->detail), "%s", app->message);
        vm->detail_style = app->message_error ? TUI_STYLE_ERROR : TUI_STYLE_WARNING;
        return;
    }
    const struct tui_view_ops *ops = tui_view_ops(app->view);
    if (ops->detail) {
        vm->detail_name =
            ops->detail(app, app->view_state[app->view], vm->detail, sizeof(vm->detail));
    }
}

/* The open prompt with its text and cursor; else the view's own status (while it edits in
 * place), else the app's. */
static void status_line(struct tui_app *app, const struct tui_render_in *in,
                        struct tui_viewmodel *vm)
{
    if (app->prompt != TUI_PROMPT_NONE && app->prompt != TUI_PROMPT_RULE) {
        int search = app->prompt == TUI_PROMPT_SEARCH || app->prompt == TUI_PROMPT_COMMAND;
        const char *text = in->edit_text && app->prompt != TUI_PROMPT_QUIT ? in->edit_text : "";
        snprintf(vm->status, sizeof(vm->status), "%s%s%s", app->prompt_label,
                 search ? "" : iodfg_glyph_text(" › "), text);
        vm->status_style = TUI_STYLE_PROMPT;
        if (app->prompt != TUI_PROMPT_QUIT) {
            int lw = (int)strlen(app->prompt_label) + (search ? 0 : 3);
            vm->status_cursor = 1 + lw + in->edit_col;
        }
    } else if (!vm->status[0]) {
        tui_app_status(app, vm->status, sizeof(vm->status));
        vm->status_style = TUI_STYLE_STATUS;
    }
}

void tui_app_frame(struct tui_app *app, const struct tui_render_in *in, struct tui_viewmodel *vm)
{
    tui_viewmodel_clear(vm);
    const struct tui_view_ops *ops = tui_view_ops(app->view);
    ops->render(app, app->view_state[app->view], in, vm);
    if (app->show_filters) {
        filter_list(app, in, vm);
    }
    detail_line(app, in, vm);
    status_line(app, in, vm);
}
