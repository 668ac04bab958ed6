/* SPDX-License-Identifier: MIT */
/* The Graph view (3): the neighbourhood of an activity (its predecessor and successor edges,
 * ranked by count, around its statistics; Enter follows an edge), or with o the overview: the
 * whole shown (pruned) graph laid out in layers (overview.c), laid out again only when a
 * rebuild or the width changes. */
#include "config.h"

#include "tui/views/graph/graph_view.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "iodfg/buf.h"
#include "iodfg/dfg.h"
#include "iodfg/export.h"
#include "iodfg/format.h"
#include "iodfg/glyph.h"
#include "iodfg/mapping.h"
#include "iodfg/session.h"
#include "iodfg/stats.h"

#include "tui/app.h"
#include "tui/theme.h"
#include "tui/view.h"
#include "tui/viewmodel.h"
#include "tui/views/common.h"
#include "tui/views/graph/overview.h"

#define SCROLL_MAX 100000

struct graph {
    uint32_t act;                        /* UINT32_MAX: follow the selected activity */
    int side;                            /* -1 predecessors, +1 successors */
    size_t pos[2];                       /* cursor among the predecessors, the successors */
    uint32_t *pred, npred, *succ, nsucc; /* edge slots around the activity, by count */
    int overview;                        /* the whole-graph overview is shown */
    struct tui_overview ov;              /* its layout */
    uint64_t ov_stamp;                   /* the app's generation + 1 it was laid out for */
    int ov_width, ov_top;                /* laid out for this width; first canvas row shown */
    char ov_why[160];                    /* why there is none ("" when laid out) */
    struct iodfg_buf ov_labels;          /* the boxes' labels, a tag first ("G+ write:/p") */
    uint32_t ov_hidden, ov_nodes;        /* activities left out to fit; nodes in the graph */
};

/* ---- the neighbourhood ---- */

static const struct iodfg_dfg *dfg_of(const struct tui_app *app)
{
    return iodfg_session_dfg(tui_app_session(app));
}

static uint32_t nactivities(const struct tui_app *app)
{
    return iodfg_session_mapping(tui_app_session(app))->nactivities;
}

/* The activity shown: the followed one while it is still shown, else the selected one. */
static uint32_t graph_activity(struct tui_app *app, void *st)
{
    struct graph *g = st;
    if (g->act != UINT32_MAX && g->act < nactivities(app) &&
        iodfg_session_node_on(tui_app_session(app))[g->act]) {
        return g->act;
    }
    return tui_app_selected_activity(app);
}

static const struct iodfg_dfg *sort_g; // qsort has no context argument

static int by_count(const void *a, const void *b)
{
    uint64_t x = iodfg_dfg_edge_at(sort_g, *(const uint32_t *)a)->count;
    uint64_t y = iodfg_dfg_edge_at(sort_g, *(const uint32_t *)b)->count;
    return (x < y) - (x > y);
}

/* The shown edges into and out of the activity, by count. */
static void update(struct tui_app *app, struct graph *g)
{
    const struct iodfg_dfg *dfg = dfg_of(app);
    const uint8_t *edge_on = iodfg_session_edge_on(tui_app_session(app));
    uint32_t a = graph_activity(app, g);
    free(g->pred);
    free(g->succ);
    g->pred = malloc((iodfg_dfg_slots(dfg) + 1) * sizeof(uint32_t));
    g->succ = malloc((iodfg_dfg_slots(dfg) + 1) * sizeof(uint32_t));
    g->npred = g->nsucc = 0;
    if (!g->pred || !g->succ || a == UINT32_MAX) {
        return;
    }
    for (size_t i = 0; i < iodfg_dfg_slots(dfg); i++) {
        const struct iodfg_dfg_edge *e = iodfg_dfg_edge_at(dfg, i);
        if (e->count == 0 || !edge_on[i]) {
            continue;
        }
        if (e->to == a) {
            g->pred[g->npred++] = (uint32_t)i;
        }
        if (e->from == a) {
            g->succ[g->nsucc++] = (uint32_t)i;
        }
    }
    sort_g = dfg;
    qsort(g->pred, g->npred, sizeof(uint32_t), by_count);
    qsort(g->succ, g->nsucc, sizeof(uint32_t), by_count);
    for (int s = 0; s < 2; s++) {
        uint32_t n = s ? g->nsucc : g->npred;
        if (g->pos[s] >= n) {
            g->pos[s] = n ? n - 1 : 0;
        }
    }
}

/* ---- the overview's layout ---- */

/* Overview node of a DFG node id: ● is 0, activity a is a + 1, ■ is na + 1. */
static uint32_t node_index(uint32_t id, uint32_t na)
{
    return id == IODFG_NODE_START ? 0 : id == IODFG_NODE_END ? na + 1 : id + 1;
}

/* G+, R+ or changed (any mark but "=") of DFG node id: the tag its box shows before its label
 * ("" for none), and its colour (*style; the tag says it without colour too). */
static const char *node_tag(const struct tui_app *app, uint32_t id, int *style)
{
    if (id == IODFG_NODE_START || id == IODFG_NODE_END) {
        return "";
    }
    enum iodfg_diff_side side = iodfg_session_activity_side(tui_app_session(app), id);
    const char *mark = iodfg_diff_side_mark(side);
    if (!mark[0] || strcmp(mark, "=") == 0) {
        return "";
    }
    int s = tui_side_style(side);
    *style = s >= 0 ? s : TUI_STYLE_WARNING;
    return mark;
}

/* The shown nodes, compacted into nodes (●, the activities the pruning keeps, ■): keep maps an
 * overview index to its compact one (UINT32_MAX: not shown). Returns their number. */
static uint32_t shown_nodes(const struct tui_app *app, struct tui_ov_node_in *nodes, uint32_t *keep,
                            struct iodfg_buf *labels, size_t *label_at)
{
    const struct iodfg_session *ses = tui_app_session(app);
    const struct iodfg_stats *st = iodfg_session_stats(ses);
    const struct iodfg_mapping *map = iodfg_session_mapping(ses);
    const uint8_t *node_on = iodfg_session_node_on(ses);
    uint32_t na = map->nactivities, nact = iodfg_dfg_nactivities(iodfg_session_dfg(ses)), nn = 0;
    for (uint32_t i = 0; i < na + 2; i++) {
        uint32_t a = i - 1;
        int end = i == 0 || i == na + 1;
        keep[i] = end || (a < nact && node_on[a]) ? nn : UINT32_MAX;
        if (keep[i] != UINT32_MAX) {
            size_t len;
            uint32_t id = i == 0 ? IODFG_NODE_START : i == na + 1 ? IODFG_NODE_END : a;
            // the start and end nodes in the terminal's characters (ASCII in the C locale), a
            // tag before the compared activities' labels ("G+ write:/p")
            const char *name =
                end ? tui_app_node_name(app, id) : iodfg_export_node_name(map, id, &len);
            int style;
            const char *tag = node_tag(app, id, &style);
            label_at[nn] = labels->len;
            iodfg_buf_addf(labels, "%s%s%s", tag, tag[0] ? " " : "", name);
            iodfg_buf_add(labels, "", 1);
            nodes[nn].id = id;
            nodes[nn].count = end || a >= st->nactivities ? 0 : st->act[a].count;
            nn++;
        }
    }
    for (uint32_t i = 0; i < nn; i++) { // the text moved while it grew: point at it now
        nodes[i].label = labels->failed ? "" : labels->data + label_at[i];
    }
    return nn;
}

/* The shown edges between shown nodes (self-loops counted in their node). Returns how many. */
static uint32_t shown_edges(const struct tui_app *app, const uint32_t *keep,
                            struct tui_ov_node_in *nodes, struct tui_ov_edge_in *edges)
{
    const struct iodfg_dfg *g = dfg_of(app);
    const uint8_t *edge_on = iodfg_session_edge_on(tui_app_session(app));
    uint32_t na = nactivities(app), ne = 0;
    for (size_t k = 0; k < iodfg_dfg_slots(g); k++) {
        const struct iodfg_dfg_edge *e = iodfg_dfg_edge_at(g, k);
        uint32_t u = keep[node_index(e->from, na)], v = keep[node_index(e->to, na)];
        if (!e->count || !edge_on[k] || u == UINT32_MAX || v == UINT32_MAX) {
            continue;
        }
        if (u == v) {
            nodes[u].loops += e->count;
        } else {
            edges[ne++] = (struct tui_ov_edge_in){u, v, e->count};
        }
    }
    return ne;
}

/* Lay the shown graph out in width columns when it changed. 0, or -1 with g->ov_why. */
static int lay_out(struct tui_app *app, struct graph *g, int width)
{
    uint64_t stamp = tui_app_generation(app) + 1;
    if (g->ov_stamp == stamp && g->ov_width == width) {
        return g->ov_why[0] ? -1 : 0;
    }
    g->ov_stamp = stamp;
    g->ov_width = width;
    g->ov_why[0] = '\0';
    uint32_t na = nactivities(app);
    size_t nedges = iodfg_dfg_slots(dfg_of(app));
    struct tui_ov_node_in *nodes = calloc((size_t)na + 2, sizeof(*nodes));
    struct tui_ov_edge_in *edges = malloc((nedges + 1) * sizeof(*edges));
    uint32_t *keep = malloc(((size_t)na + 2) * sizeof(*keep));
    size_t *label_at = malloc(((size_t)na + 2) * sizeof(*label_at));
    iodfg_buf_clear(&g->ov_labels); // the boxes' labels point into it until the next layout
    int rc = -1;
    if (!nodes || !edges || !keep || !label_at) {
        snprintf(g->ov_why, sizeof(g->ov_why), "out of memory");
    } else {
        uint32_t nn = shown_nodes(app, nodes, keep, &g->ov_labels, label_at);
        uint32_t ne = shown_edges(app, keep, nodes, edges);
        rc = tui_overview_fit(&g->ov, nodes, nn, edges, ne, 0, width, g->ov_why, sizeof(g->ov_why));
        if (rc >= 0) { // laid out (some left out, maybe): the reason it gave is not an error
            g->ov_why[0] = '\0';
        }
        g->ov_hidden = rc > 0 ? (uint32_t)rc : 0;
        g->ov_nodes = nn;
        rc = rc < 0 ? -1 : 0;
    }
    free(nodes);
    free(edges);
    free(keep);
    free(label_at);
    return rc;
}

/* ---- the view ---- */

static void *open_graph(struct tui_app *app)
{
    (void)app;
    struct graph *g = calloc(1, sizeof(*g));
    if (g) {
        g->act = UINT32_MAX;
        g->side = 1;
        tui_overview_init(&g->ov);
        iodfg_buf_init(&g->ov_labels);
    }
    return g;
}

static void close_graph(struct tui_app *app, void *st)
{
    (void)app;
    struct graph *g = st;
    tui_overview_fini(&g->ov);
    iodfg_buf_fini(&g->ov_labels);
    free(g->pred);
    free(g->succ);
    free(g);
}

static int changed(struct tui_app *app, void *st, const struct iodfg_session_change *what)
{
    (void)what;
    update(app, st);
    return 0;
}

static void enter(struct tui_app *app, void *st)
{
    update(app, st);
}

/* A new selection: the view follows it again. */
static void activity_moved(struct tui_app *app, void *st)
{
    struct graph *g = st;
    g->act = UINT32_MAX;
    update(app, g);
}

void tui_graph_view_select_edge(struct tui_app *app, uint32_t from, uint32_t to)
{
    struct graph *g = tui_app_view_state(app, TUI_VIEW_GRAPH);
    g->act = from;
    g->side = 1;
    g->overview = 0;
    g->pos[0] = g->pos[1] = 0;
    update(app, g);
    const struct iodfg_dfg *dfg = dfg_of(app);
    for (uint32_t i = 0; i < g->nsucc && g->pos[1] == 0; i++) {
        g->pos[1] = iodfg_dfg_edge_at(dfg, g->succ[i])->to == to ? i : 0;
    }
}

static long clamp_step(long step)
{
    return step > SCROLL_MAX ? SCROLL_MAX : step < -SCROLL_MAX ? -SCROLL_MAX : step;
}

/* j / k: the cursor of the focused side, or the overview's scroll (the renderer clamps it). */
static unsigned move(struct tui_app *app, void *st, enum tui_cmd cmd)
{
    (void)app;
    struct graph *g = st;
    long v, step = tui_cmd_step(cmd);
    if (g->overview) {
        v = (long)g->ov_top + clamp_step(step);
        g->ov_top = (int)(v < 0 ? 0 : v);
        return TUI_REDRAW;
    }
    int s = g->side > 0;
    v = (long)g->pos[s] + step;
    long max = (long)(s ? g->nsucc : g->npred) - 1;
    g->pos[s] = (size_t)(v > max ? (max < 0 ? 0 : max) : v < 0 ? 0 : v);
    return TUI_REDRAW;
}

/* Enter: the neighbour under the cursor becomes the activity shown. */
static unsigned follow(struct tui_app *app, void *st, enum tui_cmd cmd)
{
    (void)cmd;
    struct graph *g = st;
    int s = g->side > 0;
    uint32_t n = s ? g->nsucc : g->npred;
    if (n == 0) {
        return TUI_REDRAW;
    }
    const struct iodfg_dfg_edge *e =
        iodfg_dfg_edge_at(dfg_of(app), (s ? g->succ : g->pred)[g->pos[s]]);
    uint32_t to = s ? e->to : e->from;
    if (to >= nactivities(app)) {
        tui_app_set_message(app, 0, "%s is the %s node",
                            s ? iodfg_glyph_text("■") : iodfg_glyph_text("●"), s ? "end" : "start");
        return TUI_REDRAW;
    }
    g->act = to;
    g->pos[0] = g->pos[1] = 0;
    update(app, g);
    return TUI_REDRAW;
}

static unsigned focus(struct tui_app *app, void *st, enum tui_cmd cmd)
{
    (void)app;
    ((struct graph *)st)->side = cmd == TUI_CMD_FOCUS_LEFT ? -1 : 1;
    return TUI_REDRAW;
}

static unsigned overview(struct tui_app *app, void *st, enum tui_cmd cmd)
{
    (void)app;
    (void)cmd;
    struct graph *g = st;
    g->overview = !g->overview;
    g->ov_top = 0;
    return TUI_REDRAW;
}

static const struct tui_cmd_entry cmds[] = {
    {TUI_CMD_MOVE_UP, move},      {TUI_CMD_MOVE_DOWN, move},   {TUI_CMD_PAGE_UP, move},
    {TUI_CMD_PAGE_DOWN, move},    {TUI_CMD_MOVE_FIRST, move},  {TUI_CMD_MOVE_LAST, move},
    {TUI_CMD_FOLLOW, follow},     {TUI_CMD_FOCUS_LEFT, focus}, {TUI_CMD_FOCUS_RIGHT, focus},
    {TUI_CMD_OVERVIEW, overview},
};

/* ---- the neighbourhood's view model ---- */

/* The predecessors (succ 0) or successors in columns [x, x + w): a heading, then the
 * neighbours with their counts, the cursor's row marked when the side has the focus. */
static void side_list(struct tui_app *app, const struct graph *g, int x, int w, int h, int succ,
                      struct tui_page *pg)
{
    const struct iodfg_dfg *dfg = dfg_of(app);
    const uint32_t *list = succ ? g->succ : g->pred;
    uint32_t n = succ ? g->nsucc : g->npred;
    int has_focus = (g->side > 0) == succ;
    size_t pos = g->pos[succ];
    tui_page_text(pg, 0, x, w - 8, has_focus ? TUI_STYLE_HEADER_SORTED : TUI_STYLE_HEADER,
                  succ ? "successors" : "predecessors");
    tui_page_right(pg, 0, x + w - 7, 6, TUI_STYLE_HEADER, "count");
    size_t top = pos >= (size_t)(h - 1) ? pos - (size_t)(h - 2) : 0;
    for (int i = 0; i < h - 1 && top + (size_t)i < n; i++) {
        const struct iodfg_dfg_edge *e = iodfg_dfg_edge_at(dfg, list[top + (size_t)i]);
        int cur = has_focus && top + (size_t)i == pos, y = 1 + i;
        int style = cur ? TUI_STYLE_CURSOR : TUI_STYLE_NORMAL;
        const char *name = tui_app_node_name(app, succ ? e->to : e->from);
        char cnt[32];
        tui_page_fill(pg, y, x, w, style);
        if (cur) {
            tui_page_glyph(pg, y, x, style, TUI_G_CURSOR);
        }
        tui_page_name(pg, y, x + 1, w - 9, style, name);
        tui_page_right(pg, y, x + w - 7, 6, style,
                       iodfg_format_count(cnt, sizeof(cnt), e->count, 0));
    }
    if (n == 0) {
        tui_page_text(pg, 1, x + 1, w - 2, TUI_STYLE_DIM, "(none)");
    }
}

/* The activity's statistics between the lists, each line after an arrow. */
static void centre(struct tui_app *app, uint32_t a, int x, int w, int h, struct tui_page *pg)
{
    const struct iodfg_session *ses = tui_app_session(app);
    const struct iodfg_activity_stats *st = &iodfg_session_stats(ses)->act[a];
    int groups = iodfg_session_diff(ses) != NULL;
    char l[7][256], b1[32], b2[32], b3[32], b4[32];
    snprintf(l[0], 256, iodfg_glyph_text(" count %llu · cases %llu"), (unsigned long long)st->count,
             (unsigned long long)st->cases);
    snprintf(l[1], 256, " Load %s (%s)", iodfg_format_percent(b1, 32, st->rd, 0),
             st->bytes ? iodfg_format_bytes(b2, 32, st->bytes, 0) : iodfg_glyph_text("–"));
    snprintf(l[2], 256, iodfg_glyph_text(" DR %u × %s"), st->mc,
             st->dr_n ? iodfg_format_rate(b3, 32, st->dr_mean, 0) : iodfg_glyph_text("–"));
    snprintf(l[3], 256, iodfg_glyph_text(" Σdur %s"),
             iodfg_format_duration(b4, 32, st->dur_sum_ns, 0));
    snprintf(l[4], 256, " dur p50 %s", iodfg_format_duration(b1, 32, st->dur_median_ns, 0));
    snprintf(l[5], 256, " dur p95 %s", iodfg_format_duration(b2, 32, st->dur_p95_ns, 0));
    snprintf(l[6], 256, " %s", groups ? tui_app_activity_mark(app, a) : "");
    tui_page_name(pg, 0, x, w, TUI_STYLE_HEADER_SORTED, tui_app_activity_name(app, a));
    int n = groups ? 7 : 6;
    for (int i = 0; i < n && i + 1 < h; i++) {
        tui_page_glyph(pg, i + 1, x, TUI_STYLE_NORMAL, TUI_G_ARROW);
        tui_page_text(pg, i + 1, x + 1, w - 1, TUI_STYLE_NORMAL, l[i]);
    }
}

static void render_neighbourhood(struct tui_app *app, struct graph *g,
                                 const struct tui_render_in *in, struct tui_page *pg)
{
    uint32_t a = graph_activity(app, g);
    if (a == UINT32_MAX) {
        tui_page_text(pg, 1, 2, in->width - 4, TUI_STYLE_DIM, "no activity selected");
        return;
    }
    int side = (in->width - 30) / 2, mid = in->width - 2 * side;
    side_list(app, g, 0, side - 1, in->height, 0, pg);
    side_list(app, g, side + mid + 1, side - 1, in->height, 1, pg);
    for (int y = 0; y < in->height; y++) {
        tui_page_glyph(pg, y, side, TUI_STYLE_BORDER, TUI_G_VLINE);
        tui_page_glyph(pg, y, side + mid, TUI_STYLE_BORDER, TUI_G_VLINE);
    }
    centre(app, a, side + 2, mid - 3, in->height, pg);
}

/* ---- the overview's view model ---- */

/* The canvas rows top .. top + h: line bits as box glyphs, arrowheads. */
static void canvas(const struct tui_overview *ov, int top, int w, int h, struct tui_page *pg)
{
    int cols = ov->w < w ? ov->w : w;
    char *cells = malloc((size_t)(cols > 0 ? cols : 1));
    if (!cells) {
        pg->failed = 1;
        return;
    }
    for (int y = 0; y < h && top + y < ov->h; y++) {
        const uint8_t *row = ov->cell + (size_t)(top + y) * (size_t)ov->w;
        for (int x = 0; x < cols; x++) {
            uint8_t c = row[x];
            cells[x] = c & TUI_OV_ARROW ? TUI_GLYPH_CELL(TUI_G_ARROW_DOWN)
                       : c & (TUI_OV_N | TUI_OV_E | TUI_OV_S | TUI_OV_W)
                           ? TUI_GLYPH_CELL(TUI_G_BOX0 + (c & 15))
                           : ' ';
        }
        tui_page_glyphs(pg, y, 0, TUI_STYLE_BORDER, cells, cols);
    }
    free(cells);
}

/* A node's box row: its label (a G+ / R+ / changed tag first, the label in the tag's colour),
 * its count and self-loops; the activity shown highlighted. */
static void box(const struct tui_app *app, const struct tui_ov_box *b, int y, int cur,
                struct tui_page *pg)
{
    int style = cur ? TUI_STYLE_CURSOR : TUI_STYLE_NORMAL, ls = TUI_STYLE_HEADER_SORTED;
    tui_page_fill(pg, y, b->x + 1, b->w - 2, style);
    node_tag(app, b->node.id, &ls);
    tui_page_name(pg, y, b->x + 1, b->label_w, cur ? TUI_STYLE_CURSOR : ls, b->node.label);
    char count[TUI_OV_PART_MAX + 1], loops[TUI_OV_PART_MAX];
    tui_overview_node_parts(&b->node, count, loops);
    int x = b->x + 2 + b->label_w, ts = cur ? TUI_STYLE_CURSOR : TUI_STYLE_DIM;
    tui_page_text(pg, y, x, (int)strlen(count), ts, count);
    if (b->node.loops) {
        x += (int)strlen(count);
        tui_page_glyph(pg, y, x, ts, TUI_G_LOOP);
        tui_page_text(pg, y, x + 1, (int)strlen(loops), ts, loops);
    }
}

static void render_overview(struct tui_app *app, struct graph *g, const struct tui_render_in *in,
                            struct tui_page *pg)
{
    int w = in->width, h = in->height;
    if (lay_out(app, g, w) < 0) {
        tui_page_text(pg, 1, 2, w - 4, TUI_STYLE_DIM, g->ov_why);
        tui_page_text(pg, 2, 2, w - 4, TUI_STYLE_DIM, "o shows the neighbourhood of the selection");
        return;
    }
    const struct tui_overview *ov = &g->ov;
    int max_top = ov->h > h ? ov->h - h : 0;
    g->ov_top = g->ov_top > max_top ? max_top : g->ov_top;
    int top = g->ov_top;
    canvas(ov, top, w, h, pg);
    for (size_t i = 0; i < ov->nlabels; i++) {
        const struct tui_ov_label *l = &ov->label[i];
        if (l->y >= top && l->y < top + h) {
            tui_page_text(pg, l->y - top, l->x, (int)strlen(l->text), TUI_STYLE_DIM, l->text);
        }
    }
    uint32_t sel = graph_activity(app, g);
    for (uint32_t i = 0; i < ov->nnodes; i++) {
        int y = ov->box[i].y + 1 - top;
        if (y >= 0 && y < h) {
            box(app, &ov->box[i], y, ov->box[i].node.id == sel, pg);
        }
    }
    if (ov->h > h) { // more below or above: say where we are
        char m[64];
        snprintf(m, sizeof(m), " rows %d-%d of %d ", top + 1, top + h, ov->h);
        tui_page_text(pg, h - 1, w - (int)strlen(m), (int)strlen(m), TUI_STYLE_DETAIL, m);
    }
}

static void render(struct tui_app *app, void *st, const struct tui_render_in *in,
                   struct tui_viewmodel *vm)
{
    struct graph *g = st;
    if (g->overview) {
        render_overview(app, g, in, &vm->page);
    } else {
        render_neighbourhood(app, g, in, &vm->page);
    }
}

static size_t detail(struct tui_app *app, void *st, char *buf, size_t size)
{
    (void)app;
    struct graph *g = st;
    if (g->overview) {
        const struct tui_overview *ov = &g->ov;
        if (g->ov_hidden) { // what was left out to fit comes first
            snprintf(buf, size,
                     iodfg_glyph_text("overview: the %u most frequent of %u nodes, %u hidden to "
                                      "fit ({ } prune) · %u layers · o neighbourhood"),
                     ov->nnodes, g->ov_nodes, g->ov_hidden, ov->nlayers);
            return 0;
        }
        snprintf(buf, size,
                 iodfg_glyph_text("overview: %u nodes in %u layers, %u back edges%s · j/k scroll "
                                  "· o neighbourhood"),
                 ov->nnodes, ov->nlayers, ov->nback, ov->nundrawn ? " (some listed in 2)" : "");
    } else {
        snprintf(buf, size,
                 iodfg_glyph_text(
                     "h/l choose predecessors/successors · j/k move · Enter follows · o overview"));
    }
    return 0;
}

const struct tui_view_ops tui_view_graph = {
    .open = open_graph,
    .close = close_graph,
    .changed = changed,
    .enter = enter,
    .activity_moved = activity_moved,
    .cmds = cmds,
    .ncmds = sizeof(cmds) / sizeof(cmds[0]),
    .render = render,
    .detail = detail,
    .activity = graph_activity,
};
