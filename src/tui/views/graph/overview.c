/* SPDX-License-Identifier: MIT */
/* Layered layout of a small graph on a cell grid (overview.h): placing its boxes (routing and
 * painting follow in overview_route.c and overview_paint.c). The steps follow the classic
 * Sugiyama scheme, kept simple because the graphs are small: back edges by a depth-first search
 * from the start node, longest-path layers over the other edges, a dummy node per layer crossed
 * by a long edge, barycentre ordering sweeps, centred packing, then ports, routing tracks and
 * the channels of back edges. */
#include "config.h"

#include "tui/views/graph/overview.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "iodfg/format.h"
#include "iodfg/glyph.h"

#include "tui/utf8.h"
#include "tui/views/graph/overview_priv.h"

static int grow(void **p, uint32_t *cap, uint32_t need, size_t elem)
{
    if (need <= *cap) {
        return 0;
    }
    uint32_t c = *cap ? *cap * 2 : 16;
    while (c < need) {
        c *= 2;
    }
    void *q = realloc(*p, (size_t)c * elem);
    if (!q) {
        return -1;
    }
    *p = q;
    *cap = c;
    return 0;
}

void tui_overview_init(struct tui_overview *ov)
{
    memset(ov, 0, sizeof(*ov));
}

void tui_overview_fini(struct tui_overview *ov)
{
    free(ov->cell);
    free(ov->box);
    free(ov->label);
    free(ov->undrawn);
    tui_overview_init(ov);
}

void tui_overview_node_parts(const struct tui_ov_node_in *n, char *count, char *loops)
{
    count[0] = loops[0] = '\0';
    if (n->count) {
        iodfg_format_count(count, TUI_OV_PART_MAX, n->count, 0);
        if (n->loops) {
            strcat(count, " ");
        }
    }
    if (n->loops) {
        iodfg_format_count(loops, TUI_OV_PART_MAX, n->loops, 0);
    }
}

void tui_overview_node_text(const struct tui_ov_node_in *n, int utf8, char *out, size_t size)
{
    char c[TUI_OV_PART_MAX + 1], l[TUI_OV_PART_MAX];
    tui_overview_node_parts(n, c, l);
    snprintf(out, size, "%s%s%s", c, n->loops ? (utf8 ? iodfg_glyph_text("↻") : "~") : "", l);
}

/* ---- layers ---- */

/* Depth-first search from start, then from every unvisited node: marks back edges (to a node
 * on the stack) and records the finishing order. */
static int find_back_edges(uint32_t nn, const struct tui_ov_edge_in *e, uint32_t ne, uint32_t start,
                           uint8_t *is_back, uint32_t *finish, uint32_t *disc)
{
    uint8_t *color = calloc(nn + 1, 1);
    uint32_t *stack = malloc(((size_t)nn + 1) * sizeof(*stack));
    uint32_t *next = calloc((size_t)nn + 1, sizeof(*next)); // edge scan position per node
    if (!color || !stack || !next) {
        free(color);
        free(stack);
        free(next);
        return -1;
    }
    uint32_t nf = 0, nd = 0;
    for (uint32_t r = 0; r <= nn; r++) {
        uint32_t root = r == 0 ? start : r - 1;
        if (root >= nn || color[root]) {
            continue;
        }
        uint32_t sp = 0;
        stack[sp++] = root;
        color[root] = 1;
        disc[root] = nd++;
        while (sp) {
            uint32_t u = stack[sp - 1];
            while (next[u] < ne && e[next[u]].from != u) {
                next[u]++;
            }
            if (next[u] == ne) {
                color[u] = 2;
                finish[nf++] = u;
                sp--;
                continue;
            }
            uint32_t i = next[u]++, v = e[i].to;
            if (v == u) {
                continue; // self-loops are shown in the box
            }
            if (color[v] == 1) {
                is_back[i] = 1;
            } else if (color[v] == 0) {
                color[v] = 1;
                disc[v] = nd++;
                stack[sp++] = v;
            }
        }
    }
    free(color);
    free(stack);
    free(next);
    return 0;
}

static int add_node(struct lay *L, int layer, int input, int w)
{
    if (grow((void **)&L->n, &L->ncap, L->nn + 1, sizeof(*L->n))) {
        return -1;
    }
    L->n[L->nn] = (struct node){layer, 0, 0, w, input, 0};
    return (int)L->nn++;
}

static int add_seg(struct lay *L, int from, int to, int edge, int first)
{
    if (grow((void **)&L->s, &L->scap, L->ns + 1, sizeof(*L->s))) {
        return -1;
    }
    L->s[L->ns++] = (struct seg){from, to, edge, first, 0, 0, -1};
    return 0;
}

/* ---- ordering and placement ---- */

static int cmp_node_key(const void *a, const void *b, void *ctx)
{
    const struct node *n = ctx;
    const struct node *x = &n[*(const int *)a], *y = &n[*(const int *)b];
    if (x->key != y->key) {
        return x->key < y->key ? -1 : 1;
    }
    return x->order - y->order;
}

/* Order layer l by the mean order of each node's neighbours in the layer above (down) or
 * below (up); nodes without neighbours keep their place. */
static void sweep_layer(struct lay *L, int l, int down, int *idx, int cnt)
{
    for (int i = 0; i < cnt; i++) {
        struct node *n = &L->n[idx[i]];
        double sum = 0;
        int k = 0;
        for (uint32_t s = 0; s < L->ns; s++) {
            const struct seg *g = &L->s[s];
            int self = down ? g->to : g->from, other = down ? g->from : g->to;
            if (self == idx[i] && L->n[other].layer == l + (down ? -1 : 1)) {
                sum += L->n[other].order;
                k++;
            }
        }
        n->key = k ? sum / k : n->order;
    }
    qsort_r(idx, (size_t)cnt, sizeof(*idx), cmp_node_key, L->n);
    for (int i = 0; i < cnt; i++) {
        L->n[idx[i]].order = i;
    }
}

static int cmp_int_by_order(const void *a, const void *b, void *ctx)
{
    const struct node *n = ctx;
    return n[*(const int *)a].order - n[*(const int *)b].order;
}

/* ---- the whole layout ---- */

static void lay_free(struct lay *L)
{
    free(L->n);
    free(L->s);
    free(L->b);
    free(L->gap_tracks);
    free(L->gap_y);
    free(L->layer_y);
}

static int fail(struct tui_overview *ov, struct lay *L, char *why, size_t size, const char *msg)
{
    snprintf(why, size, "%s", msg);
    lay_free(L);
    tui_overview_fini(ov);
    return -1;
}

/* Back edges (is_back) and the discovery order (disc) by a depth-first search from start, then
 * longest-path layers over the other edges. The number of layers, or -1 out of memory. */
static int assign_layers(uint32_t nn, const struct tui_ov_edge_in *edges, uint32_t ne,
                         uint32_t start, uint8_t *is_back, uint32_t *disc, int *layer)
{
    uint32_t *finish = malloc(((size_t)nn + 1) * sizeof(*finish));
    if (!finish || find_back_edges(nn, edges, ne, start, is_back, finish, disc)) {
        free(finish);
        return -1;
    }
    // nodes in reverse finishing order are topologically sorted
    for (uint32_t i = nn; i-- > 0;) {
        uint32_t u = finish[i];
        for (uint32_t k = 0; k < ne; k++) {
            if (edges[k].from == u && edges[k].to != u && !is_back[k] &&
                layer[edges[k].to] < layer[u] + 1) {
                layer[edges[k].to] = layer[u] + 1;
            }
        }
    }
    free(finish);
    int nl = 0;
    for (uint32_t u = 0; u < nn; u++) {
        nl = layer[u] + 1 > nl ? layer[u] + 1 : nl;
    }
    return nl;
}

/* A box per node (wide enough for its label and counts), forward edges as chains of hops
 * through a dummy per layer crossed, back edges as channels on the right (the ones beyond
 * TUI_OV_MAX_CHANNELS are listed as undrawn). 0, or -1 out of memory. */
static int add_boxes_and_hops(struct lay *L, struct tui_overview *ov,
                              const struct tui_ov_node_in *nodes, uint32_t nn,
                              const struct tui_ov_edge_in *edges, uint32_t ne,
                              const uint8_t *is_back, const uint32_t *disc, const int *layer)
{
    ov->box = calloc(nn, sizeof(*ov->box));
    ov->undrawn = malloc(((size_t)ne + 1) * sizeof(*ov->undrawn));
    L->b = malloc(((size_t)ne + 1) * sizeof(*L->b));
    int bad = !ov->box || !ov->undrawn || !L->b;
    for (uint32_t u = 0; u < nn && !bad; u++) {
        char t[2 * TUI_OV_PART_MAX + 8];
        tui_overview_node_text(&nodes[u], 1, t, sizeof(t));
        int lw = (int)tui_utf8_width(nodes[u].label, strlen(nodes[u].label));
        lw = lw < 1 ? 1 : lw > TUI_OV_LABEL_MAX ? TUI_OV_LABEL_MAX : lw;
        int tw = (int)tui_utf8_width(t, strlen(t));
        ov->box[u].label_w = lw;
        ov->box[u].layer = layer[u];
        bad = add_node(L, layer[u], (int)u, lw + (tw ? tw + 1 : 0) + 2) < 0;
        L->n[u].order = (int)disc[u];
    }
    for (uint32_t k = 0; k < ne && !bad; k++) {
        uint32_t u = edges[k].from, v = edges[k].to;
        if (u == v || u >= nn || v >= nn) {
            continue;
        }
        if (is_back[k] || layer[v] <= layer[u]) {
            if (L->nb < TUI_OV_MAX_CHANNELS) {
                L->b[L->nb++] = (struct back){(int)u, (int)v, (int)k, 0, 0, 0, 0, 0};
            } else {
                ov->undrawn[ov->nundrawn++] = k;
            }
            ov->nback++;
            continue;
        }
        int prev = (int)u;
        for (int l = layer[u] + 1; l < layer[v] && !bad; l++) {
            int d = add_node(L, l, -1, 1);
            bad = d < 0 || add_seg(L, prev, d, (int)k, prev == (int)u) < 0;
            if (!bad) {
                L->n[d].order = (int)L->nn + (int)disc[u]; // after the boxes, near their source
                prev = d;
            }
        }
        bad = bad || add_seg(L, prev, (int)v, (int)k, prev == (int)u) < 0;
    }
    return bad ? -1 : 0;
}

/* A box is wide enough for a column of its own per port (lines never merge at a box). */
static void widen_for_ports(struct lay *L, uint32_t nn)
{
    for (uint32_t u = 0; u < nn; u++) {
        int kin = 0, kout = 0;
        for (uint32_t s = 0; s < L->ns; s++) {
            kout += L->s[s].from == (int)u;
            kin += L->s[s].to == (int)u;
        }
        for (uint32_t b = 0; b < L->nb; b++) {
            kout += L->b[b].from == (int)u;
            kin += L->b[b].to == (int)u;
        }
        int k = kin > kout ? kin : kout, need = 2 * k + 1;
        L->n[u].w = L->n[u].w < need ? need : L->n[u].w;
    }
}

/* The nodes grouped by layer, idx[lstart[l] .. lstart[l + 1]), first in discovery order, then
 * ordered by barycentre sweeps down and up. 0, or -1 out of memory. */
static int order_layers(struct lay *L, int nl, int *idx, int *lstart)
{
    for (uint32_t i = 0; i < L->nn; i++) {
        lstart[L->n[i].layer + 1]++;
    }
    for (int l = 0; l < nl; l++) {
        lstart[l + 1] += lstart[l];
    }
    int *fill = calloc((size_t)nl + 1, sizeof(*fill));
    if (!fill) {
        return -1;
    }
    for (uint32_t i = 0; i < L->nn; i++) {
        idx[lstart[L->n[i].layer] + fill[L->n[i].layer]++] = (int)i;
    }
    free(fill);
    for (int l = 0; l < nl; l++) {
        int *p = idx + lstart[l], cnt = lstart[l + 1] - lstart[l];
        qsort_r(p, (size_t)cnt, sizeof(*p), cmp_int_by_order, L->n);
        for (int i = 0; i < cnt; i++) {
            L->n[p[i]].order = i;
        }
    }
    for (int pass = 0; pass < 4; pass++) {
        int down = pass % 2 == 0;
        for (int k = 1; k < nl; k++) {
            int l = down ? k : nl - 1 - k;
            sweep_layer(L, l, down, idx + lstart[l], lstart[l + 1] - lstart[l]);
        }
    }
    return 0;
}

/* Each layer centred left of the back-edge channels, which take the rightmost columns. 0, or
 * -1 with msg when a layer does not fit in width. */
static int pack_layers(struct lay *L, int nl, const int *idx, const int *lstart, int width,
                       char *msg, size_t size)
{
    int avail = width - (L->nb ? (int)L->nb + 1 : 0);
    for (int l = 0; l < nl; l++) {
        const int *p = idx + lstart[l];
        int cnt = lstart[l + 1] - lstart[l], total = 0;
        for (int i = 0; i < cnt; i++) {
            total += L->n[p[i]].w + (i ? GAP_X : 0);
        }
        if (total > avail) {
            snprintf(msg, size,
                     "too wide for %d columns (a layer needs %d): widen the terminal or prune",
                     width, total + (width - avail));
            return -1;
        }
        int x = avail / 2 - total / 2; // single boxes of any width share one centre column
        for (int i = 0; i < cnt; i++) {
            L->n[p[i]].x = x;
            x += L->n[p[i]].w + GAP_X;
        }
    }
    for (uint32_t i = 0; i < L->nb; i++) {
        L->b[i].chan = width - 1 - (int)i;
    }
    return 0;
}

int tui_overview_layout(struct tui_overview *ov, const struct tui_ov_node_in *nodes, uint32_t nn,
                        const struct tui_ov_edge_in *edges, uint32_t ne, uint32_t start, int width,
                        char *why, size_t why_size)
{
    tui_overview_fini(ov);
    struct lay L;
    memset(&L, 0, sizeof(L));
    if (nn > TUI_OV_MAX_NODES) {
        snprintf(why, why_size, "%u nodes: the overview draws up to %d (prune with { } or filter)",
                 nn, TUI_OV_MAX_NODES);
        return -1;
    }
    if (nn == 0) {
        snprintf(why, why_size, "no activities to draw");
        return -1;
    }
    uint8_t *is_back = calloc((size_t)ne + 1, 1);
    uint32_t *disc = malloc(((size_t)nn + 1) * sizeof(*disc));
    int *layer = calloc((size_t)nn + 1, sizeof(*layer));
    int nl =
        is_back && disc && layer ? assign_layers(nn, edges, ne, start, is_back, disc, layer) : -1;
    if (nl >= 0) {
        ov->nnodes = nn;
        ov->nlayers = (uint32_t)nl;
    }
    int bad = nl < 0 || add_boxes_and_hops(&L, ov, nodes, nn, edges, ne, is_back, disc, layer);
    free(is_back);
    free(disc);
    free(layer);
    int *idx = bad ? NULL : malloc(((size_t)L.nn + 1) * sizeof(*idx));
    int *lstart = bad ? NULL : calloc((size_t)nl + 2, sizeof(*lstart));
    if (!idx || !lstart) {
        free(idx);
        free(lstart);
        return fail(ov, &L, why, why_size, "out of memory");
    }
    widen_for_ports(&L, nn);
    char msg[160] = "out of memory";
    bad = order_layers(&L, nl, idx, lstart) ||
          pack_layers(&L, nl, idx, lstart, width, msg, sizeof(msg));
    free(idx);
    free(lstart);
    if (bad || tui_ov_place_ports(&L, width) || tui_ov_route_tracks(&L, nl)) {
        return fail(ov, &L, why, why_size, msg);
    }
    ov->w = width;
    ov->h = tui_ov_stack_rows(&L, nl);
    ov->cell = calloc((size_t)ov->w * (size_t)(ov->h ? ov->h : 1), 1);
    if (!ov->cell || tui_ov_paint(ov, &L, nodes, nn, edges)) {
        return fail(ov, &L, why, why_size, "out of memory");
    }
    lay_free(&L);
    return 0;
}
