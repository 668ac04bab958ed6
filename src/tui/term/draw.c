/* SPDX-License-Identifier: MIT */
/* Renderers of the Graph, Timeline, Rules and Help views, the Diff summary and the filter list
 * (through the screen's sanitising text calls only). */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "iodfg/analysis.h"
#include "iodfg/buf.h"
#include "iodfg/dfg.h"
#include "iodfg/eventlog.h"
#include "iodfg/export.h"
#include "iodfg/format.h"
#include "iodfg/stats.h"

#include "tui/app.h"
#include "tui/charz.h"
#include "tui/keymap.h"
#include "tui/term/screen.h"
#include "tui/term/ui.h"
#include "tui/theme.h"
#include "tui/viewmodel.h"

/* ---- the page painter ---- */

/* A glyph run: each cell its glyph, ' ' cells left alone. */
static void draw_glyphs(struct tui_screen *s, int y, int x, const struct tui_span *sp)
{
    for (int i = 0; i < sp->width && sp->text[i]; i++) {
        if (sp->text[i] != ' ') {
            tui_screen_text(s, y, x + i, 1, sp->style,
                            tui_screen_glyph(s, TUI_GLYPH_OF_CELL(sp->text[i])), 0);
        }
    }
}

/* The Characterisation's chart and bar cells. */
static void draw_cells(struct tui_screen *s, int y, int x, const struct tui_span *sp)
{
    for (int i = 0; sp->text[i] && i < sp->width; i++) {
        char ch = sp->text[i];
        if (ch == ' ') {
            continue;
        }
        if (sp->kind == TUI_SPAN_BAR) {
            // each call has its own glyph; alternate two styles so neighbours stand apart
            char g[2] = {ch, '\0'};
            tui_screen_text(s, y, x + i, 1, i % 2 ? TUI_STYLE_TIMELINE_BAR : TUI_STYLE_SPARK, g, 0);
        } else if (ch == '-') {
            tui_screen_text(s, y, x + i, 1, TUI_STYLE_BORDER, tui_screen_glyph(s, TUI_G_HLINE), 0);
        } else { // read and write cells differ by glyph and side of the axis, not colour only
            int rd = ch == 'r';
            tui_screen_text(s, y, x + i, 1, rd ? TUI_STYLE_DIFF_GREEN : TUI_STYLE_DIFF_RED,
                            tui_screen_glyph(s, rd ? TUI_G_FULL : TUI_G_MEDIUM), 0);
        }
    }
}

static void draw_span(struct tui_screen *s, struct tui_rect r, int y, const struct tui_span *sp,
                      struct tui_listmodel *table)
{
    int x = r.x + sp->col;
    switch (sp->kind) {
    case TUI_SPAN_TEXT:
        tui_screen_text(s, y, x, sp->width, sp->style, sp->text,
                        sp->flags & TUI_SPAN_RIGHT ? TUI_TEXT_RIGHT : 0);
        break;
    case TUI_SPAN_FILL:
        tui_screen_fill(s, y, x, sp->width, sp->style);
        break;
    case TUI_SPAN_HLINE:
        tui_screen_hline(s, y, x, sp->width, sp->style);
        break;
    case TUI_SPAN_GLYPHS:
        draw_glyphs(s, y, x, sp);
        break;
    case TUI_SPAN_TABLE:
        if (table) {
            tui_table_draw(s, (struct tui_rect){y, x, sp->height, sp->width}, table, sp->text);
        }
        break;
    default:
        draw_cells(s, y, x, sp);
        break;
    }
}

void tui_draw_page(struct tui_screen *s, struct tui_rect r, const struct tui_viewmodel *vm)
{
    const struct tui_page *pg = &vm->page;
    for (size_t i = 0; i < pg->n; i++) {
        const struct tui_span *sp = &pg->span[i];
        int y = sp->row - vm->top;
        if (y >= 0 && y < r.h) {
            draw_span(s, r, r.y + y, sp, vm->table);
        }
    }
    if (vm->cursor_row >= 0) {
        tui_screen_cursor(s, r.y + vm->cursor_row, r.x + vm->cursor_col);
    }
}

/* ---- characterisation ---- */

void tui_draw_charz(struct tui_screen *s, struct tui_rect r, struct tui_app *app)
{
    tui_app_charz_update(app);
    struct tui_viewmodel vm;
    tui_viewmodel_init(&vm);
    tui_charz_page(app, r.w, &vm.page);
    struct tui_charz *cz = &app->charz;
    int max_top = vm.page.rows > r.h ? vm.page.rows - r.h : 0;
    cz->top = cz->top > max_top ? max_top : cz->top < 0 ? 0 : cz->top;
    vm.top = cz->top;
    if (vm.page.failed) {
        vm.page.failed = 0;
        tui_page_text(&vm.page, vm.top + r.h - 1, 1, r.w - 2, TUI_STYLE_ERROR, "out of memory");
    }
    tui_draw_page(s, r, &vm);
    tui_viewmodel_fini(&vm);
}

/* ---- diff summary and filter list ---- */

void tui_draw_filters(struct tui_screen *s, struct tui_rect r, struct tui_app *app)
{
    size_t n = iodfg_filter_stack_count(app->filters);
    int h = (int)n + 2;
    h = h > r.h ? r.h : h;
    int y0 = r.y + r.h - h;
    for (int y = y0; y < r.y + r.h; y++) {
        tui_screen_fill(s, y, r.x, r.w, TUI_STYLE_NORMAL);
    }
    tui_screen_hline(s, y0, r.x, r.w, TUI_STYLE_BORDER);
    tui_screen_text(s, y0, r.x + 2, r.w - 4, TUI_STYLE_HELP_HEADING,
                    n ? " filter stack (Backspace pops the last) " : " no filters (f adds one) ",
                    0);
    for (size_t i = 0; i < n && y0 + 1 + (int)i < r.y + r.h; i++) {
        struct iodfg_buf b;
        iodfg_buf_init(&b);
        iodfg_buf_addf(&b, "%zu  ", i + 1);
        iodfg_filter_format(iodfg_filter_stack_get(app->filters, i), &b);
        tui_screen_text(s, y0 + 1 + (int)i, r.x + 2, r.w - 4, TUI_STYLE_NORMAL,
                        b.data ? b.data : "", 0);
        iodfg_buf_fini(&b);
    }
}
