/* SPDX-License-Identifier: MIT */
/* The overview of a graph too big for the terminal: the most frequent nodes that still lay out,
 * grown from the fixed nodes along edges so that what is shown stays connected. */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>

#include "tui/views/graph/overview.h"

/* The order in which nodes join: the fixed ones (count 0: start, end) first, then repeatedly
 * the most frequent node next to one already in; a node next to none only when no other is.
 * order gets nn entries; returns how many are fixed. */
static uint32_t growth_order(const struct tui_ov_node_in *nodes, uint32_t nn,
                             const struct tui_ov_edge_in *edges, uint32_t ne, uint8_t *in,
                             uint32_t *order)
{
    uint32_t n = 0;
    for (uint32_t i = 0; i < nn; i++) {
        in[i] = nodes[i].count == 0;
        if (in[i]) {
            order[n++] = i;
        }
    }
    uint32_t fixed = n;
    while (n < nn) {
        uint32_t best = UINT32_MAX, loose = UINT32_MAX;
        for (uint32_t k = 0; k < ne; k++) { // a node next to the set
            uint32_t u = edges[k].from, v = edges[k].to, c = in[u] ? v : in[v] ? u : UINT32_MAX;
            if (c != UINT32_MAX && !in[c] &&
                (best == UINT32_MAX || nodes[c].count > nodes[best].count)) {
                best = c;
            }
        }
        for (uint32_t i = 0; best == UINT32_MAX && i < nn; i++) {
            if (!in[i] && (loose == UINT32_MAX || nodes[i].count > nodes[loose].count)) {
                loose = i;
            }
        }
        best = best != UINT32_MAX ? best : loose;
        in[best] = 1;
        order[n++] = best;
    }
    return fixed;
}

/* Lay out the first keep nodes of order (and the edges between them). */
static int layout_prefix(struct tui_overview *ov, const struct tui_ov_node_in *nodes, uint32_t nn,
                         const struct tui_ov_edge_in *edges, uint32_t ne, uint32_t start,
                         const uint32_t *order, uint32_t keep, int width, uint32_t *slot,
                         struct tui_ov_node_in *sub_nodes, struct tui_ov_edge_in *sub_edges,
                         char *why, size_t why_size)
{
    for (uint32_t i = 0; i < nn; i++) {
        slot[i] = UINT32_MAX;
    }
    for (uint32_t i = 0; i < keep; i++) { // in input order, so the drawing keeps its order
        slot[order[i]] = 0;
    }
    uint32_t m = 0, me = 0;
    for (uint32_t i = 0; i < nn; i++) {
        if (slot[i] == 0) {
            slot[i] = m;
            sub_nodes[m++] = nodes[i];
        }
    }
    for (uint32_t k = 0; k < ne; k++) {
        uint32_t u = slot[edges[k].from], v = slot[edges[k].to];
        if (u != UINT32_MAX && v != UINT32_MAX) {
            sub_edges[me++] = (struct tui_ov_edge_in){u, v, edges[k].count};
        }
    }
    uint32_t s = start < nn ? slot[start] : UINT32_MAX;
    return tui_overview_layout(ov, sub_nodes, m, sub_edges, me, s, width, why, why_size);
}

int tui_overview_fit(struct tui_overview *ov, const struct tui_ov_node_in *nodes, uint32_t nn,
                     const struct tui_ov_edge_in *edges, uint32_t ne, uint32_t start, int width,
                     char *why, size_t why_size)
{
    if (tui_overview_layout(ov, nodes, nn, edges, ne, start, width, why, why_size) == 0) {
        return 0;
    }
    uint8_t *in = malloc(nn ? nn : 1);
    uint32_t *order = malloc((nn ? nn : 1) * sizeof(*order));
    uint32_t *slot = malloc((nn ? nn : 1) * sizeof(*slot));
    struct tui_ov_node_in *sub_nodes = malloc((nn ? nn : 1) * sizeof(*sub_nodes));
    struct tui_ov_edge_in *sub_edges = malloc((ne ? ne : 1) * sizeof(*sub_edges));
    int rc = -1;
    if (!in || !order || !slot || !sub_nodes || !sub_edges) {
        snprintf(why, why_size, "out of memory");
        goto out;
    }
    uint32_t fixed = growth_order(nodes, nn, edges, ne, in, order);
    // the largest prefix that lays out (fewer nodes never need more room)
    uint32_t lo = fixed, hi = nn < TUI_OV_MAX_NODES ? nn : TUI_OV_MAX_NODES, best = 0;
    char first_why[160];
    snprintf(first_why, sizeof(first_why), "%s", why);
    while (lo < hi) {
        uint32_t mid = lo + (hi - lo + 1) / 2;
        if (layout_prefix(ov, nodes, nn, edges, ne, start, order, mid, width, slot, sub_nodes,
                          sub_edges, why, why_size) == 0) {
            best = mid;
            lo = mid;
        } else {
            hi = mid - 1;
        }
    }
    if (best <= fixed) { // not even one activity besides start and end
        snprintf(why, why_size, "%s", first_why);
        goto out;
    }
    layout_prefix(ov, nodes, nn, edges, ne, start, order, best, width, slot, sub_nodes, sub_edges,
                  why, why_size);
    rc = (int)(nn - best);
out:
    free(in);
    free(order);
    free(slot);
    free(sub_nodes);
    free(sub_edges);
    return rc;
}
