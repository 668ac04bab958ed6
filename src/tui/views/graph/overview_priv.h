/* SPDX-License-Identifier: MIT */
/* The overview's layout state, shared by its two steps: placing (overview.c) and painting the
 * placed boxes, lines and labels on the cell grid (overview_paint.c), with routing between them
 * (overview_route.c). */
#ifndef IODFG_TUI_VIEWS_GRAPH_OVERVIEW_PRIV_H
#define IODFG_TUI_VIEWS_GRAPH_OVERVIEW_PRIV_H

#include <stdint.h>

#include "tui/views/graph/overview.h"

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

/* Routing (overview_route.c), after the boxes are placed: ports (0, or -1 out of memory), then
 * tracks per gap (0 or -1), then the rows of gaps and layers (returns the height). */
int tui_ov_place_ports(struct lay *L, int width);
int tui_ov_route_tracks(struct lay *L, int nl);
int tui_ov_stack_rows(struct lay *L, int nl);

/* Paint what L placed: boxes, lines of hops and back edges with their arrows, then the edge
 * counts where they fit. ov->cell is allocated (ov->w x ov->h). 0, or -1 out of memory. */
int tui_ov_paint(struct tui_overview *ov, const struct lay *L, const struct tui_ov_node_in *nodes,
                 uint32_t nn, const struct tui_ov_edge_in *edges);

#endif
