/* SPDX-License-Identifier: MIT */
/* Painting a placed overview on its cell grid (overview_priv.h): boxes, the lines of hops and
 * back edges as direction bits per cell (corners and crossings come out of their union), then
 * the edge counts where they fit without touching anything. */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "iodfg/format.h"

#include "tui/views/graph/overview_priv.h"

static void bits(struct tui_overview *ov, int y, int x, uint8_t b)
{
    if (y >= 0 && y < ov->h && x >= 0 && x < ov->w) {
        ov->cell[(size_t)y * (size_t)ov->w + (size_t)x] |= b;
    }
}

/* A straight line from (y0, x0) to (y1, x1): each cell gets the bits towards its neighbours
 * on the line, so corners and crossings come out of the union of bits. */
static void line(struct tui_overview *ov, int y0, int x0, int y1, int x1)
{
    if (y0 == y1 && x0 == x1) {
        return;
    }
    if (x0 == x1) {
        int a = y0 < y1 ? y0 : y1, b = y0 < y1 ? y1 : y0;
        for (int y = a; y <= b; y++) {
            bits(ov, y, x0, (uint8_t)((y > a ? TUI_OV_N : 0) | (y < b ? TUI_OV_S : 0)));
        }
    } else {
        int a = x0 < x1 ? x0 : x1, b = x0 < x1 ? x1 : x0;
        for (int x = a; x <= b; x++) {
            bits(ov, y0, x, (uint8_t)((x > a ? TUI_OV_W : 0) | (x < b ? TUI_OV_E : 0)));
        }
    }
}

static void draw_box(struct tui_overview *ov, const struct tui_ov_box *b)
{
    int y = b->y, x = b->x, r = b->x + b->w - 1;
    line(ov, y, x, y, r);
    line(ov, y + 2, x, y + 2, r);
    line(ov, y, x, y + 2, x);
    line(ov, y, r, y + 2, r);
    for (int i = x; i <= r; i++) {
        for (int j = y; j <= y + 2; j++) {
            bits(ov, j, i, TUI_OV_BOX);
        }
    }
}

/* Is [x, x + len) on row y free for text? On a track only plain horizontal line cells may be
 * covered (no corners or crossings), elsewhere only empty cells; labels never touch. */
static int text_fits(const struct tui_overview *ov, int y, int x, int len, int on_track)
{
    if (y < 0 || y >= ov->h || x < 0 || x + len > ov->w) {
        return 0;
    }
    const uint8_t *row = ov->cell + (size_t)y * (size_t)ov->w;
    for (int i = x; i < x + len; i++) {
        if (on_track ? (row[i] & ~(TUI_OV_E | TUI_OV_W)) != 0 : row[i] != 0) {
            return 0;
        }
    }
    return !(x > 0 && (row[x - 1] & TUI_OV_TEXT)) &&
           !(x + len < ov->w && (row[x + len] & TUI_OV_TEXT));
}

static int put_label(struct tui_overview *ov, int y, int x, const char *text)
{
    struct tui_ov_label *p = realloc(ov->label, (ov->nlabels + 1) * sizeof(*p));
    if (!p) {
        return -1;
    }
    ov->label = p;
    struct tui_ov_label *l = &p[ov->nlabels++];
    l->y = y;
    l->x = x;
    snprintf(l->text, sizeof(l->text), "%s", text);
    for (int i = x; i < x + (int)strlen(text); i++) {
        ov->cell[(size_t)y * (size_t)ov->w + (size_t)i] = TUI_OV_TEXT;
    }
    return 0;
}

/* The count of a hop: on its horizontal track when there is room, else beside its vertical. */
static int label_seg(struct tui_overview *ov, const struct seg *s, const char *text, int gy,
                     int tracks)
{
    int len = (int)strlen(text);
    if (s->track >= 0) {
        int y = gy + s->track;
        int a = s->px0 < s->px1 ? s->px0 : s->px1, b = s->px0 < s->px1 ? s->px1 : s->px0;
        int x = (a + b - len + 1) / 2;
        if (b - a - 1 >= len + 2 && text_fits(ov, y, x, len, 1)) {
            return put_label(ov, y, x, text);
        }
    }
    // beside the last vertical run, right then left, in the gap's rows
    for (int dy = tracks; dy >= 0; dy--) {
        int y = gy + dy;
        if (text_fits(ov, y, s->px1 + 1, len, 0)) {
            return put_label(ov, y, s->px1 + 1, text);
        }
        if (text_fits(ov, y, s->px1 - len, len, 0)) {
            return put_label(ov, y, s->px1 - len, text);
        }
    }
    return 0; // no room: the Transitions view has it
}

/* Boxes, then each dummy's vertical pass, the hops (straight, or down-across-down on their
 * track), and the back edges (down to their track, right to the channel, up, left, down). */
static void paint_lines(struct tui_overview *ov, const struct lay *L,
                        const struct tui_ov_node_in *nodes, uint32_t nn)
{
    for (uint32_t u = 0; u < nn; u++) {
        ov->box[u] = (struct tui_ov_box){L->layer_y[L->n[u].layer], L->n[u].x,     L->n[u].w,
                                         ov->box[u].label_w,        L->n[u].layer, nodes[u]};
        draw_box(ov, &ov->box[u]);
    }
    for (uint32_t d = nn; d < L->nn; d++) { // a dummy: the line passes through its layer
        int y = L->layer_y[L->n[d].layer];
        line(ov, y - 1, L->n[d].x, y + 3, L->n[d].x);
    }
    for (uint32_t s = 0; s < L->ns; s++) {
        const struct seg *sg = &L->s[s];
        int g = L->n[sg->to].layer;
        int top = L->layer_y[g - 1] + 2, arrow = L->layer_y[g] - 1;
        int from_dummy = L->n[sg->from].input < 0, to_dummy = L->n[sg->to].input < 0;
        int y0 = from_dummy ? top + 1 : top; // a box's bottom border gets the port tee
        if (sg->track < 0) {
            line(ov, y0, sg->px0, to_dummy ? arrow + 1 : arrow, sg->px1);
        } else {
            int ty = L->gap_y[g] + sg->track;
            line(ov, y0, sg->px0, ty, sg->px0);
            line(ov, ty, sg->px0, ty, sg->px1);
            line(ov, ty, sg->px1, to_dummy ? arrow + 1 : arrow, sg->px1);
        }
        if (!to_dummy) {
            bits(ov, arrow, sg->px1, TUI_OV_ARROW);
        }
    }
    for (uint32_t b = 0; b < L->nb; b++) {
        const struct back *bk = &L->b[b];
        int gd = L->n[bk->from].layer + 1, ga = L->n[bk->to].layer;
        int yd = L->gap_y[gd] + bk->tdep, ya = L->gap_y[ga] + bk->tarr;
        int arrow = L->layer_y[ga] - 1;
        line(ov, L->layer_y[gd - 1] + 2, bk->px0, yd, bk->px0);
        line(ov, yd, bk->px0, yd, bk->chan);
        line(ov, yd, bk->chan, ya, bk->chan);
        line(ov, ya, bk->chan, ya, bk->px1);
        line(ov, ya, bk->px1, arrow, bk->px1);
        bits(ov, arrow, bk->px1, TUI_OV_ARROW);
    }
}

/* Edge counts: each forward edge's on its first hop, each back edge's on its departure track. */
static int label_counts(struct tui_overview *ov, const struct lay *L,
                        const struct tui_ov_edge_in *edges)
{
    for (uint32_t s = 0; s < L->ns; s++) {
        const struct seg *sg = &L->s[s];
        if (!sg->first) {
            continue;
        }
        char t[24];
        iodfg_format_count(t, sizeof(t), edges[sg->edge].count, 0);
        int g = L->n[sg->to].layer;
        if (label_seg(ov, sg, t, L->gap_y[g], L->gap_tracks[g])) {
            return -1;
        }
    }
    for (uint32_t b = 0; b < L->nb; b++) {
        const struct back *bk = &L->b[b];
        char t[24];
        iodfg_format_count(t, sizeof(t), edges[bk->edge].count, 0);
        int yd = L->gap_y[L->n[bk->from].layer + 1] + bk->tdep, len = (int)strlen(t);
        int x = (bk->px0 + bk->chan - len + 1) / 2;
        if (bk->chan - bk->px0 - 1 >= len + 2 && text_fits(ov, yd, x, len, 1) &&
            put_label(ov, yd, x, t)) {
            return -1;
        }
    }
    return 0;
}

int tui_ov_paint(struct tui_overview *ov, const struct lay *L, const struct tui_ov_node_in *nodes,
                 uint32_t nn, const struct tui_ov_edge_in *edges)
{
    paint_lines(ov, L, nodes, nn);
    return label_counts(ov, L, edges);
}
