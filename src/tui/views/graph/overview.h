/* SPDX-License-Identifier: MIT */
/* The Graph view's whole-graph overview for small graphs: a layered drawing (longest-path
 * layers from the start node, dummy nodes on long edges, barycentre ordering, one routing track
 * per bent edge, back edges along channels on the right). Pure layout on a cell grid; the
 * terminal code turns the line bits into box characters. */
#ifndef IODFG_TUI_VIEWS_GRAPH_OVERVIEW_H
#define IODFG_TUI_VIEWS_GRAPH_OVERVIEW_H

#include <stddef.h>
#include <stdint.h>

/* Cell bits: line ends towards the neighbour cell (N, E, S, W), an arrowhead pointing down,
 * box border or interior, a cell covered by text. */
enum {
    TUI_OV_N = 1,
    TUI_OV_E = 2,
    TUI_OV_S = 4,
    TUI_OV_W = 8,
    TUI_OV_ARROW = 16,
    TUI_OV_BOX = 32,
    TUI_OV_TEXT = 64
};

#define TUI_OV_MAX_NODES 48   /* larger graphs get no overview (the neighbourhood works) */
#define TUI_OV_LABEL_MAX 28   /* label columns inside a box */
#define TUI_OV_MAX_CHANNELS 8 /* back edges drawn; the others are listed */

struct tui_ov_node_in {
    const char *label; /* untrusted; measured as it will be drawn (sanitised) */
    uint64_t count;    /* events (0 for the start/end nodes: no count shown) */
    uint64_t loops;    /* occurrences of its self-loop */
    uint32_t id;       /* the caller's tag, copied to the box */
};

struct tui_ov_edge_in {
    uint32_t from, to; /* node indices; from == to is a self-loop (shown in the box) */
    uint64_t count;
};

struct tui_ov_box {
    int y, x, w; /* the top-left corner and width; boxes are 3 rows high */
    int label_w; /* columns for the label; the count and loop text follow it */
    int layer;
    struct tui_ov_node_in node; /* as given (the label is borrowed from the caller) */
};

struct tui_ov_label { /* an edge count placed next to its line */
    int y, x;
    char text[24];
};

struct tui_overview {
    int w, h;        /* canvas */
    uint8_t *cell;   /* h * w bits */
    uint32_t nnodes; /* boxes, one per input node, in input order */
    struct tui_ov_box *box;
    size_t nlabels;
    struct tui_ov_label *label;
    uint32_t nlayers;
    uint32_t nback;    /* back edges (to the same or an earlier layer) */
    uint32_t *undrawn; /* indices into the input edges of back edges not drawn */
    uint32_t nundrawn;
};

void tui_overview_init(struct tui_overview *ov);
void tui_overview_fini(struct tui_overview *ov);

/* Lay out nodes and edges in at most width columns. start is the node the layers grow from
 * (UINT32_MAX: none). Returns 0, or -1 with a reason in why (too many nodes, too wide for the
 * terminal, out of memory); ov is then empty. */
int tui_overview_layout(struct tui_overview *ov, const struct tui_ov_node_in *nodes, uint32_t nn,
                        const struct tui_ov_edge_in *edges, uint32_t ne, uint32_t start, int width,
                        char *why, size_t why_size);

/* The same, and when the graph does not fit (too many nodes, too wide) the largest set of the
 * most frequent nodes that does, grown from the nodes of count 0 (start, end; always kept) along
 * edges so that it stays connected (overview_fit.c). Returns how many nodes were left out
 * (0: all shown), or -1 with why when not even one activity fits. */
int tui_overview_fit(struct tui_overview *ov, const struct tui_ov_node_in *nodes, uint32_t nn,
                     const struct tui_ov_edge_in *edges, uint32_t ne, uint32_t start, int width,
                     char *why, size_t why_size);

/* The text after a node's label in two parts around the loop glyph (TUI_G_LOOP when loops is
 * not empty): the count and a blank ("48 "), the loops ("44"); count has room for
 * TUI_OV_PART_MAX + 1 bytes, loops for TUI_OV_PART_MAX. */
#define TUI_OV_PART_MAX 32
void tui_overview_node_parts(const struct tui_ov_node_in *n, char *count, char *loops);
/* The text shown after a node's label: "48" or "48 ↻44" ("48 ~44" without utf8; the same
 * width), empty for count 0 and no loop. */
void tui_overview_node_text(const struct tui_ov_node_in *n, int utf8, char *out, size_t size);

#endif
