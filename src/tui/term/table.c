/* SPDX-License-Identifier: MIT */
/* The table widget: draws a tui_listmodel with theme styles (no direct curses calls). */
#include "config.h"

#include <stdio.h>
#include <string.h>

#include "iodfg/glyph.h"

#include "tui/listmodel.h"
#include "tui/term/screen.h"
#include "tui/theme.h"
#include "tui/utf8.h"

#define COL_GAP 2
#define MAX_COLS 64

static void draw_header(struct tui_screen *s, struct tui_rect r, const struct tui_listmodel *lm,
                        const int *widths)
{
    int desc;
    int sorted = tui_listmodel_sort_column(lm, &desc);
    tui_screen_fill(s, r.y, r.x, r.w, TUI_STYLE_HEADER);
    int x = r.x + 1;
    for (int c = 0; c < tui_listmodel_ncols(lm); c++) {
        if (!widths[c]) {
            continue;
        }
        const struct tui_column *col = tui_listmodel_column(lm, c);
        char title[128];
        // ASCII sort marks are letters ('v', '^'): a space keeps them apart from the title
        snprintf(title, sizeof(title), "%s%s%s", iodfg_glyph_text(col->title),
                 c == sorted && !tui_screen_is_utf8(s) ? " " : "",
                 c == sorted ? tui_screen_glyph(s, desc ? TUI_G_SORT_DOWN : TUI_G_SORT_UP) : "");
        tui_screen_text(s, r.y, x, widths[c],
                        c == sorted ? TUI_STYLE_HEADER_SORTED : TUI_STYLE_HEADER, title,
                        (col->flags & TUI_COL_RIGHT) ? TUI_TEXT_RIGHT : 0);
        x += widths[c] + COL_GAP;
    }
}

/* The sideways scroll the name columns can use on the rows shown: the longest name's excess
 * over its column (plus the ellipsis that marks a scrolled name); the model's is clamped to it. */
static int clamp_hscroll(struct tui_listmodel *lm, const int *widths, size_t top, int rows)
{
    int want = tui_listmodel_hscroll(lm), need = 0;
    if (want == 0) {
        return 0;
    }
    size_t n = tui_listmodel_count(lm);
    for (int c = 0; c < tui_listmodel_ncols(lm); c++) {
        if (!widths[c] || !(tui_listmodel_column(lm, c)->flags & TUI_COL_NAME)) {
            continue;
        }
        for (int line = 0; line < rows && top + (size_t)line < n; line++) {
            char buf[512];
            const char *t = tui_listmodel_cell(lm, top + (size_t)line, c, buf, sizeof(buf));
            int excess = (int)tui_utf8_width(t, strlen(t)) - widths[c] + 1;
            need = excess > need ? excess : need;
        }
    }
    if (want > need) {
        tui_listmodel_set_hscroll(lm, need);
    }
    return want > need ? need : want;
}

void tui_table_draw(struct tui_screen *s, struct tui_rect r, struct tui_listmodel *lm,
                    const char *empty)
{
    int ncols = tui_listmodel_ncols(lm);
    if (r.h < 2 || r.w < 4 || ncols > MAX_COLS) {
        return;
    }
    int widths[MAX_COLS];
    tui_listmodel_layout(lm, r.w - 2, COL_GAP, widths);
    draw_header(s, r, lm, widths);
    tui_listmodel_set_height(lm, (size_t)(r.h - 1));
    size_t n = tui_listmodel_count(lm), top = tui_listmodel_top(lm);
    size_t cursor = tui_listmodel_cursor(lm);
    if (n == 0) {
        tui_screen_text(s, r.y + 2, r.x + 2, r.w - 4, TUI_STYLE_DIM, empty ? empty : "(empty)", 0);
        return;
    }
    int skip = clamp_hscroll(lm, widths, top, r.h - 1);
    for (int line = 0; line < r.h - 1 && top + (size_t)line < n; line++) {
        size_t i = top + (size_t)line;
        int y = r.y + 1 + line;
        int row_style = i == cursor                    ? TUI_STYLE_CURSOR
                        : tui_listmodel_matches(lm, i) ? TUI_STYLE_SEARCH_MATCH
                                                       : TUI_STYLE_NORMAL;
        tui_screen_fill(s, y, r.x, r.w, row_style);
        if (i == cursor) {
            // The cursor is visible without colour too.
            tui_screen_text(s, y, r.x, 1, row_style, tui_screen_glyph(s, TUI_G_CURSOR), 0);
        }
        int x = r.x + 1;
        for (int c = 0; c < ncols; c++) {
            if (!widths[c]) {
                continue;
            }
            char buf[512];
            const char *text = tui_listmodel_cell(lm, i, c, buf, sizeof(buf));
            int style = row_style;
            int cs = tui_listmodel_cell_style(lm, i, c);
            if (cs >= 0 && cs < TUI_STYLE_COUNT && row_style == TUI_STYLE_NORMAL) {
                style = cs;
            }
            const struct tui_column *col = tui_listmodel_column(lm, c);
            int name = (col->flags & TUI_COL_NAME) != 0;
            tui_screen_name(s, y, x, widths[c], style, text,
                            ((col->flags & TUI_COL_RIGHT) ? TUI_TEXT_RIGHT : 0) |
                                (name ? TUI_TEXT_MIDDLE : 0),
                            name ? skip : 0);
            x += widths[c] + COL_GAP;
        }
    }
}
