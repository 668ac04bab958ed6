/* SPDX-License-Identifier: MIT */
/* Layered layout of a small graph on a cell grid (overview.h). The steps follow the classic
 * Sugiyama scheme, kept simple because the graphs are small: back edges by a depth-first search
 * from the start node, longest-path layers over the other edges, a dummy node per layer crossed
 * by a long edge, barycentre ordering sweeps, centred packing, then ports, routing tracks and
 * the channels of back edges. */
#include "config.h"

#include "tui/overview.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "iodfg/format.h"
#include "iodfg/glyph.h"

#include "tui/utf8.h"

#define GAP_X 2 /* columns between boxes of a layer */

struct node { /* a box or a dummy */
    int layer, order, x, w;
    int input;  /* input node index, or -1 for a dummy */
    double key; /* ordering key */
};

struct seg {      /* one forward hop between adjacent layers */
    int from, to; /* struct node indices */
    int edge;     /* input edge; its count is labelled on the first hop */
    int first;
    int px0, px1; /* out port column (bottom of from), in port column (top of to) */
    int track;    /* row index within the gap, -1 when straight */
};

struct back {     /* a drawn back edge */
    int from, to; /* struct node indices (boxes) */
    int edge;
    int chan; /* channel column */
    int px0, px1;
    int tdep, tarr; /* tracks in the gap below from and above to */
};

struct lay {
    uint32_t nn, ncap;
    struct node *n;
    uint32_t ns, scap;
    struct seg *s;
    uint32_t nb;
    struct back *b;
    int *gap_tracks; /* per gap 0..nlayers */
    int *gap_y;      /* first row of each gap */
    int *layer_y;
};

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

/* ---- ports ---- */

struct port_ref {
    int target; /* column the line heads to (for sorting) */
    int *col;   /* where the chosen column goes */
};

static int cmp_port(const void *a, const void *b)
{
    const struct port_ref *x = a, *y = b;
    return (x->target > y->target) - (x->target < y->target);
}

/* Spread k ports over the inner columns of a box (all on the one column of a dummy). */
static void assign_ports(const struct node *n, struct port_ref *p, int k)
{
    qsort(p, (size_t)k, sizeof(*p), cmp_port);
    int inner = n->w > 2 ? n->w - 2 : 1, x0 = n->w > 2 ? n->x + 1 : n->x;
    for (int i = 0; i < k; i++) {
        *p[i].col = x0 + (k <= inner ? (2 * i + 1) * inner / (2 * k) : i * inner / k);
    }
}

static int node_center(const struct node *n)
{
    return n->x + n->w / 2;
}

/* Assign node u's out ports (out = 1: towards the other end of each hop, back edges towards
 * their channel on the right) or in ports (out = 0: from where each line comes). */
static void node_ports(struct lay *L, int u, int out, int width, struct port_ref *pr)
{
    int k = 0;
    for (uint32_t s = 0; s < L->ns; s++) {
        struct seg *g = &L->s[s];
        if ((out ? g->from : g->to) == u) {
            pr[k++] = (struct port_ref){node_center(&L->n[out ? g->to : g->from]),
                                        out ? &g->px0 : &g->px1};
        }
    }
    for (uint32_t b = 0; b < L->nb; b++) {
        struct back *bk = &L->b[b];
        if ((out ? bk->from : bk->to) == u) {
            pr[k++] = (struct port_ref){bk->chan + width, out ? &bk->px0 : &bk->px1};
        }
    }
    assign_ports(&L->n[u], pr, k);
}

/* ---- drawing on the grid ---- */

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
static int label_seg(struct tui_overview *ov, const struct lay *L, const struct seg *s,
                     const char *text, int gy, int tracks)
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
    (void)L;
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

/* ---- the whole layout ---- */

struct track_ref {
    int key;
    int *track;
};

static int cmp_track(const void *a, const void *b)
{
    const struct track_ref *x = a, *y = b;
    return (x->key > y->key) - (x->key < y->key);
}

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
    uint32_t *finish = malloc(((size_t)nn + 1) * sizeof(*finish));
    uint32_t *disc = malloc(((size_t)nn + 1) * sizeof(*disc));
    int *layer = calloc((size_t)nn + 1, sizeof(*layer));
    if (!is_back || !finish || !disc || !layer ||
        find_back_edges(nn, edges, ne, start, is_back, finish, disc)) {
        free(is_back);
        free(finish);
        free(disc);
        free(layer);
        return fail(ov, &L, why, why_size, "out of memory");
    }
    // longest path layers: nodes in reverse finishing order are topologically sorted
    for (uint32_t i = nn; i-- > 0;) {
        uint32_t u = finish[i];
        for (uint32_t k = 0; k < ne; k++) {
            if (edges[k].from == u && edges[k].to != u && !is_back[k] &&
                layer[edges[k].to] < layer[u] + 1) {
                layer[edges[k].to] = layer[u] + 1;
            }
        }
    }
    int nl = 0;
    for (uint32_t u = 0; u < nn; u++) {
        nl = layer[u] + 1 > nl ? layer[u] + 1 : nl;
    }
    ov->nnodes = nn;
    ov->nlayers = (uint32_t)nl;
    ov->box = calloc(nn, sizeof(*ov->box));
    ov->undrawn = malloc(((size_t)ne + 1) * sizeof(*ov->undrawn));
    L.b = malloc(((size_t)ne + 1) * sizeof(*L.b));
    int bad = !ov->box || !ov->undrawn || !L.b;
    for (uint32_t u = 0; u < nn && !bad; u++) {
        char t[2 * TUI_OV_PART_MAX + 8];
        tui_overview_node_text(&nodes[u], 1, t, sizeof(t));
        int lw = (int)tui_utf8_width(nodes[u].label, strlen(nodes[u].label));
        lw = lw < 1 ? 1 : lw > TUI_OV_LABEL_MAX ? TUI_OV_LABEL_MAX : lw;
        int tw = (int)tui_utf8_width(t, strlen(t));
        ov->box[u].label_w = lw;
        ov->box[u].layer = layer[u];
        bad = add_node(&L, layer[u], (int)u, lw + (tw ? tw + 1 : 0) + 2) < 0;
        L.n[u].order = (int)disc[u];
    }
    // forward edges become chains of hops through dummies; back edges get channels
    for (uint32_t k = 0; k < ne && !bad; k++) {
        uint32_t u = edges[k].from, v = edges[k].to;
        if (u == v || u >= nn || v >= nn) {
            continue;
        }
        if (is_back[k] || layer[v] <= layer[u]) {
            if (L.nb < TUI_OV_MAX_CHANNELS) {
                L.b[L.nb++] = (struct back){(int)u, (int)v, (int)k, 0, 0, 0, 0, 0};
            } else {
                ov->undrawn[ov->nundrawn++] = k;
            }
            ov->nback++;
            continue;
        }
        int prev = (int)u;
        for (int l = layer[u] + 1; l < layer[v] && !bad; l++) {
            int d = add_node(&L, l, -1, 1);
            bad = d < 0 || add_seg(&L, prev, d, (int)k, prev == (int)u) < 0;
            if (!bad) {
                L.n[d].order = (int)L.nn + (int)disc[u]; // after the boxes, near their source
                prev = d;
            }
        }
        bad = bad || add_seg(&L, prev, (int)v, (int)k, prev == (int)u) < 0;
    }
    free(is_back);
    free(finish);
    free(disc);
    free(layer);
    // a box is wide enough for a column of its own per port (lines never merge at a box)
    for (uint32_t u = 0; u < nn && !bad; u++) {
        int kin = 0, kout = 0;
        for (uint32_t s = 0; s < L.ns; s++) {
            kout += L.s[s].from == (int)u;
            kin += L.s[s].to == (int)u;
        }
        for (uint32_t b = 0; b < L.nb; b++) {
            kout += L.b[b].from == (int)u;
            kin += L.b[b].to == (int)u;
        }
        int k = kin > kout ? kin : kout, need = 2 * k + 1;
        L.n[u].w = L.n[u].w < need ? need : L.n[u].w;
    }
    int *idx = malloc(((size_t)L.nn + 1) * sizeof(*idx));
    int *lstart = calloc((size_t)nl + 2, sizeof(*lstart));
    if (bad || !idx || !lstart) {
        free(idx);
        free(lstart);
        return fail(ov, &L, why, why_size, "out of memory");
    }
    // nodes grouped by layer (idx[lstart[l] .. lstart[l + 1]))
    for (uint32_t i = 0; i < L.nn; i++) {
        lstart[L.n[i].layer + 1]++;
    }
    for (int l = 0; l < nl; l++) {
        lstart[l + 1] += lstart[l];
    }
    int *fill = calloc((size_t)nl + 1, sizeof(*fill));
    if (!fill) {
        free(idx);
        free(lstart);
        return fail(ov, &L, why, why_size, "out of memory");
    }
    for (uint32_t i = 0; i < L.nn; i++) {
        idx[lstart[L.n[i].layer] + fill[L.n[i].layer]++] = (int)i;
    }
    free(fill);
    for (int l = 0; l < nl; l++) {
        int *p = idx + lstart[l], cnt = lstart[l + 1] - lstart[l];
        qsort_r(p, (size_t)cnt, sizeof(*p), cmp_int_by_order, L.n);
        for (int i = 0; i < cnt; i++) {
            L.n[p[i]].order = i;
        }
    }
    for (int pass = 0; pass < 4; pass++) {
        int down = pass % 2 == 0;
        for (int k = 1; k < nl; k++) {
            int l = down ? k : nl - 1 - k;
            sweep_layer(&L, l, down, idx + lstart[l], lstart[l + 1] - lstart[l]);
        }
    }
    // centred packing left of the back-edge channels
    int avail = width - (L.nb ? (int)L.nb + 1 : 0);
    for (int l = 0; l < nl; l++) {
        int *p = idx + lstart[l], cnt = lstart[l + 1] - lstart[l], total = 0;
        for (int i = 0; i < cnt; i++) {
            total += L.n[p[i]].w + (i ? GAP_X : 0);
        }
        if (total > avail) {
            free(idx);
            free(lstart);
            char msg[160];
            snprintf(msg, sizeof(msg),
                     "too wide for %d columns (a layer needs %d): widen the terminal or prune",
                     width, total + (width - avail));
            return fail(ov, &L, why, why_size, msg);
        }
        int x = avail / 2 - total / 2; // single boxes of any width share one centre column
        for (int i = 0; i < cnt; i++) {
            L.n[p[i]].x = x;
            x += L.n[p[i]].w + GAP_X;
        }
    }
    free(idx);
    free(lstart);
    for (uint32_t i = 0; i < L.nb; i++) {
        L.b[i].chan = width - 1 - (int)i;
    }
    // ports: out ports sorted by where the line heads, in ports by where it comes from
    struct port_ref *pr = malloc(((size_t)L.ns + L.nb + 1) * sizeof(*pr));
    if (!pr) {
        return fail(ov, &L, why, why_size, "out of memory");
    }
    for (uint32_t u = 0; u < L.nn; u++) {
        node_ports(&L, (int)u, 1, width, pr);
        node_ports(&L, (int)u, 0, width, pr);
    }
    free(pr);
    // tracks per gap g (above layer g; gap nl is below the last layer)
    L.gap_tracks = calloc((size_t)nl + 1, sizeof(int));
    L.gap_y = calloc((size_t)nl + 1, sizeof(int));
    L.layer_y = calloc((size_t)nl + 1, sizeof(int));
    struct track_ref *tr = malloc(((size_t)L.ns + 2 * L.nb + 1) * sizeof(*tr));
    if (!L.gap_tracks || !L.gap_y || !L.layer_y || !tr) {
        free(tr);
        return fail(ov, &L, why, why_size, "out of memory");
    }
    for (int g = 0; g <= nl; g++) {
        int k = 0;
        // arrivals of back edges first (they come from the channels above the forward hops)
        for (uint32_t b = 0; b < L.nb; b++) {
            if (L.n[L.b[b].to].layer == g) {
                tr[k++] = (struct track_ref){-100000 - L.b[b].px1, &L.b[b].tarr};
            }
        }
        for (uint32_t s = 0; s < L.ns; s++) {
            const struct seg *sg = &L.s[s];
            if (L.n[sg->to].layer == g && sg->px0 != sg->px1) {
                // left-going hops from the left first, right-going ones from the right first,
                // so that nested hops do not cross
                int key = sg->px1 < sg->px0 ? sg->px0 : 50000 - sg->px0;
                tr[k++] = (struct track_ref){key, &L.s[s].track};
            }
        }
        for (uint32_t b = 0; b < L.nb; b++) {
            if (L.n[L.b[b].from].layer + 1 == g) {
                tr[k++] = (struct track_ref){100000 - L.b[b].px0, &L.b[b].tdep};
            }
        }
        qsort(tr, (size_t)k, sizeof(*tr), cmp_track);
        for (int i = 0; i < k; i++) {
            *tr[i].track = i;
        }
        L.gap_tracks[g] = k;
    }
    free(tr);
    int y = 0;
    for (int g = 0; g <= nl; g++) {
        L.gap_y[g] = y;
        int t = L.gap_tracks[g];
        y += g == 0 ? (t ? t + 1 : 0) : g == nl ? t : t + 1;
        if (g < nl) {
            L.layer_y[g] = y;
            y += 3;
        }
    }
    ov->w = width;
    ov->h = y;
    ov->cell = calloc((size_t)ov->w * (size_t)(ov->h ? ov->h : 1), 1);
    if (!ov->cell) {
        return fail(ov, &L, why, why_size, "out of memory");
    }
    for (uint32_t u = 0; u < nn; u++) {
        ov->box[u] = (struct tui_ov_box){L.layer_y[L.n[u].layer], L.n[u].x,     L.n[u].w,
                                         ov->box[u].label_w,      L.n[u].layer, nodes[u]};
        draw_box(ov, &ov->box[u]);
    }
    for (uint32_t d = nn; d < L.nn; d++) { // a dummy: the line passes through its layer
        line(ov, L.layer_y[L.n[d].layer] - 1, L.n[d].x, L.layer_y[L.n[d].layer] + 3, L.n[d].x);
    }
    for (uint32_t s = 0; s < L.ns; s++) {
        const struct seg *sg = &L.s[s];
        int g = L.n[sg->to].layer;
        int top = L.layer_y[g - 1] + 2, arrow = L.layer_y[g] - 1;
        int from_dummy = L.n[sg->from].input < 0, to_dummy = L.n[sg->to].input < 0;
        int y0 = from_dummy ? top + 1 : top; // a box's bottom border gets the port tee
        if (sg->track < 0) {
            line(ov, y0, sg->px0, to_dummy ? arrow + 1 : arrow, sg->px1);
        } else {
            int ty = L.gap_y[g] + sg->track;
            line(ov, y0, sg->px0, ty, sg->px0);
            line(ov, ty, sg->px0, ty, sg->px1);
            line(ov, ty, sg->px1, to_dummy ? arrow + 1 : arrow, sg->px1);
        }
        if (!to_dummy) {
            bits(ov, arrow, sg->px1, TUI_OV_ARROW);
        }
    }
    for (uint32_t b = 0; b < L.nb; b++) {
        const struct back *bk = &L.b[b];
        int gd = L.n[bk->from].layer + 1, ga = L.n[bk->to].layer;
        int yd = L.gap_y[gd] + bk->tdep, ya = L.gap_y[ga] + bk->tarr;
        int arrow = L.layer_y[ga] - 1;
        line(ov, L.layer_y[gd - 1] + 2, bk->px0, yd, bk->px0);
        line(ov, yd, bk->px0, yd, bk->chan);
        line(ov, yd, bk->chan, ya, bk->chan);
        line(ov, ya, bk->chan, ya, bk->px1);
        line(ov, ya, bk->px1, arrow, bk->px1);
        bits(ov, arrow, bk->px1, TUI_OV_ARROW);
    }
    // edge counts, longest labels first so they get the free room
    for (uint32_t s = 0; s < L.ns; s++) {
        const struct seg *sg = &L.s[s];
        if (!sg->first) {
            continue;
        }
        char t[24];
        iodfg_format_count(t, sizeof(t), edges[sg->edge].count, 0);
        int g = L.n[sg->to].layer;
        if (label_seg(ov, &L, sg, t, L.gap_y[g], L.gap_tracks[g])) {
            return fail(ov, &L, why, why_size, "out of memory");
        }
    }
    for (uint32_t b = 0; b < L.nb; b++) {
        const struct back *bk = &L.b[b];
        char t[24];
        iodfg_format_count(t, sizeof(t), edges[bk->edge].count, 0);
        int yd = L.gap_y[L.n[bk->from].layer + 1] + bk->tdep, len = (int)strlen(t);
        int x = (bk->px0 + bk->chan - len + 1) / 2;
        if (bk->chan - bk->px0 - 1 >= len + 2 && text_fits(ov, yd, x, len, 1) &&
            put_label(ov, yd, x, t)) {
            return fail(ov, &L, why, why_size, "out of memory");
        }
    }
    lay_free(&L);
    return 0;
}
