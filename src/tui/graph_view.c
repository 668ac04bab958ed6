/* SPDX-License-Identifier: MIT */
/* The Graph view's model: the neighbourhood of the selected activity (its predecessor and
 * successor edges, ranked by count) and the overview, the shown (pruned) DFG handed to the
 * layered layout, laid out again only when a rebuild or the width changes. */
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
    uint32_t na = app->map->nactivities;
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
            nodes[nn].label = iodfg_export_node_name(app->map, id, &len);
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

/* ---- the neighbourhood ---- */

uint32_t tui_app_graph_activity(struct tui_app *app)
{
    if (app->graph_act != UINT32_MAX && app->graph_act < app->map->nactivities &&
        app->node_on[app->graph_act]) {
        return app->graph_act;
    }
    return tui_app_selected_activity(app);
}

static const struct iodfg_dfg *sort_g; // qsort has no context argument

static int by_count(const void *a, const void *b)
{
    uint64_t x = sort_g->edges[*(const uint32_t *)a].count;
    uint64_t y = sort_g->edges[*(const uint32_t *)b].count;
    return (x < y) - (x > y);
}

void tui_app_graph_update(struct tui_app *app)
{
    const struct iodfg_dfg *g = iodfg_analysis_dfg(app->an);
    uint32_t a = tui_app_graph_activity(app);
    free(app->pred);
    free(app->succ);
    app->pred = malloc((g->nedges + 1) * sizeof(uint32_t));
    app->succ = malloc((g->nedges + 1) * sizeof(uint32_t));
    app->npred = app->nsucc = 0;
    if (!app->pred || !app->succ || a == UINT32_MAX) {
        return;
    }
    for (size_t i = 0; i < g->nedges; i++) {
        const struct iodfg_dfg_edge *e = &g->edges[i];
        if (e->count == 0 || !app->edge_on[i]) {
            continue;
        }
        if (e->to == a) {
            app->pred[app->npred++] = (uint32_t)i;
        }
        if (e->from == a) {
            app->succ[app->nsucc++] = (uint32_t)i;
        }
    }
    sort_g = g;
    qsort(app->pred, app->npred, sizeof(uint32_t), by_count);
    qsort(app->succ, app->nsucc, sizeof(uint32_t), by_count);
    for (int s = 0; s < 2; s++) {
        uint32_t n = s ? app->nsucc : app->npred;
        if (app->graph_pos[s] >= n) {
            app->graph_pos[s] = n ? n - 1 : 0;
        }
    }
}
