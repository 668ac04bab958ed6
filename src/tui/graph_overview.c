/* SPDX-License-Identifier: MIT */
/* The Graph view's overview: the shown (pruned) DFG handed to the layered layout, laid out
 * again only when a rebuild or the width changes. */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "iodfg/analysis.h"
#include "iodfg/dfg.h"
#include "iodfg/export.h"
#include "iodfg/stats.h"

#include "tui/app.h"

/* Overview node of a DFG node id: ● is 0, activity a is a + 1, ■ is na + 1. */
static uint32_t node_index(uint32_t id, uint32_t na)
{
    return id == IODFG_NODE_START ? 0 : id == IODFG_NODE_END ? na + 1 : id + 1;
}

int tui_app_overview(struct tui_app *app, int width)
{
    if (app->overview_stamp == app->generation + 1 && app->overview_width == width) {
        return app->overview_why[0] ? -1 : 0;
    }
    app->overview_stamp = app->generation + 1;
    app->overview_width = width;
    app->overview_why[0] = '\0';
    const struct iodfg_dfg *g = iodfg_analysis_dfg(app->an);
    const struct iodfg_stats *st = iodfg_analysis_stats(app->an);
    uint32_t na = app->map.nactivities;
    struct tui_ov_node_in *nodes = calloc((size_t)na + 2, sizeof(*nodes));
    struct tui_ov_edge_in *edges = malloc((g->nedges + 1) * sizeof(*edges));
    uint32_t *keep = malloc(((size_t)na + 2) * sizeof(*keep)); // overview index -> compact
    int rc = -1;
    if (!nodes || !edges || !keep) {
        snprintf(app->overview_why, sizeof(app->overview_why), "out of memory");
        goto out;
    }
    // the shown nodes, compacted: ●, the activities the pruning keeps, ■
    uint32_t nn = 0;
    for (uint32_t i = 0; i < na + 2; i++) {
        uint32_t a = i - 1;
        int on = i == 0 || i == na + 1 || (a < g->nactivities && app->node_on[a]);
        keep[i] = on ? nn : UINT32_MAX;
        if (on) {
            size_t len;
            uint32_t id = i == 0 ? IODFG_NODE_START : i == na + 1 ? IODFG_NODE_END : a;
            nodes[nn].label = iodfg_export_node_name(&app->map, id, &len);
            nodes[nn].id = id;
            nodes[nn].count = i == 0 || i == na + 1 || a >= st->nactivities ? 0 : st->act[a].count;
            nn++;
        }
    }
    uint32_t ne = 0;
    for (size_t k = 0; k < g->nedges; k++) {
        const struct iodfg_dfg_edge *e = &g->edges[k];
        uint32_t u = keep[node_index(e->from, na)], v = keep[node_index(e->to, na)];
        if (!e->count || !app->edge_on[k] || u == UINT32_MAX || v == UINT32_MAX) {
            continue;
        }
        if (u == v) {
            nodes[u].loops += e->count;
        } else {
            edges[ne++] = (struct tui_ov_edge_in){u, v, e->count};
        }
    }
    rc = tui_overview_layout(&app->overview, nodes, nn, edges, ne, 0, width, app->overview_why,
                             sizeof(app->overview_why));
out:
    free(nodes);
    free(edges);
    free(keep);
    return rc;
}
