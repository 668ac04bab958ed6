/* SPDX-License-Identifier: MIT */
/* Renderer of the Graph view's overview: the layout's line bits as box-drawing characters
 * (ASCII + - | v on terminals without UTF-8), labels through the sanitising text call. */
#include "config.h"

#include <stdio.h>
#include <string.h>

#include "iodfg/format.h"

#include "tui/app.h"
#include "tui/overview.h"
#include "tui/term/screen.h"
#include "tui/term/ui.h"
#include "tui/theme.h"

/* Glyph of a cell's line bits (N E S W as 1 2 4 8). */
static const char *line_glyph(unsigned b, int utf8)
{
    static const char *const u[16] = {" ", "│", "─", "└", "│", "│", "┌", "├",
                                      "─", "┘", "─", "┴", "┐", "┤", "┬", "┼"};
    static const char *const a[16] = {" ", "|", "-", "+", "|", "|", "+", "+",
                                      "-", "+", "-", "+", "+", "+", "+", "+"};
    return (utf8 ? u : a)[b & 15];
}

void tui_draw_overview(struct tui_screen *s, struct tui_rect r, struct tui_app *app)
{
    if (tui_app_overview(app, r.w) < 0) {
        tui_screen_text(s, r.y + 1, r.x + 2, r.w - 4, TUI_STYLE_DIM, app->overview_why, 0);
        tui_screen_text(s, r.y + 2, r.x + 2, r.w - 4, TUI_STYLE_DIM,
                        "o shows the neighbourhood of the selection", 0);
        return;
    }
    const struct tui_overview *ov = &app->overview;
    int utf8 = tui_screen_is_utf8(s);
    int max_top = ov->h > r.h ? ov->h - r.h : 0;
    app->overview_top = app->overview_top > max_top ? max_top : app->overview_top;
    int top = app->overview_top;
    for (int y = 0; y < r.h && top + y < ov->h; y++) {
        const uint8_t *row = ov->cell + (size_t)(top + y) * (size_t)ov->w;
        for (int x = 0; x < ov->w && x < r.w; x++) {
            uint8_t c = row[x];
            if (c & TUI_OV_ARROW) {
                tui_screen_text(s, r.y + y, r.x + x, 1, TUI_STYLE_BORDER, utf8 ? "▼" : "v", 0);
            } else if (c & (TUI_OV_N | TUI_OV_E | TUI_OV_S | TUI_OV_W)) {
                tui_screen_text(s, r.y + y, r.x + x, 1, TUI_STYLE_BORDER, line_glyph(c, utf8), 0);
            }
        }
    }
    for (size_t i = 0; i < ov->nlabels; i++) {
        const struct tui_ov_label *l = &ov->label[i];
        if (l->y >= top && l->y < top + r.h) {
            tui_screen_text(s, r.y + l->y - top, r.x + l->x, (int)strlen(l->text), TUI_STYLE_DIM,
                            l->text, 0);
        }
    }
    uint32_t sel = tui_app_graph_activity(app);
    for (uint32_t i = 0; i < ov->nnodes; i++) {
        const struct tui_ov_box *b = &ov->box[i];
        int y = b->y + 1 - top;
        if (y < 0 || y >= r.h) {
            continue;
        }
        int cur = b->node.id == sel;
        int style = cur ? TUI_STYLE_CURSOR : TUI_STYLE_NORMAL;
        tui_screen_fill(s, r.y + y, r.x + b->x + 1, b->w - 2, style);
        tui_screen_text(s, r.y + y, r.x + b->x + 1, b->label_w,
                        cur ? TUI_STYLE_CURSOR : TUI_STYLE_HEADER_SORTED, b->node.label, 0);
        char t[64];
        tui_overview_node_text(&b->node, utf8, t, sizeof(t));
        if (t[0]) {
            int tw = b->w - 3 - b->label_w;
            tui_screen_text(s, r.y + y, r.x + b->x + 2 + b->label_w, tw,
                            cur ? TUI_STYLE_CURSOR : TUI_STYLE_DIM, t, 0);
        }
    }
    if (ov->h > r.h) { // more below or above: say where we are
        char m[64];
        snprintf(m, sizeof(m), " rows %d-%d of %d ", top + 1, top + r.h, ov->h);
        tui_screen_text(s, r.y + r.h - 1, r.x + r.w - (int)strlen(m), (int)strlen(m),
                        TUI_STYLE_DETAIL, m, 0);
    }
}
