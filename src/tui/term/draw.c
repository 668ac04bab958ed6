/* SPDX-License-Identifier: MIT */
/* The painter of view models: a page's spans (text, fills, rules, glyph runs, charts) and its
 * table, in a rectangle of the screen from the page's top row. Every view draws through it;
 * text goes through the screen's sanitising call only. */
#include "config.h"

#include "tui/listmodel.h"
#include "tui/term/screen.h"
#include "tui/term/ui.h"
#include "tui/theme.h"
#include "tui/viewmodel.h"

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
                        (sp->flags & TUI_SPAN_RIGHT ? TUI_TEXT_RIGHT : 0) |
                            (sp->flags & TUI_SPAN_MIDDLE ? TUI_TEXT_MIDDLE : 0));
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
