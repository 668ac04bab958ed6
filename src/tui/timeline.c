/* SPDX-License-Identifier: MIT */
/* Models of the Graph view (neighbourhood lists) and the Timeline view (per-case busy bins and
 * the concurrency profile of one activity). */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "iodfg/analysis.h"
#include "iodfg/dfg.h"
#include "iodfg/eventlog.h"
#include "iodfg/mapping.h"
#include "tui/app.h"
#include "tui/listmodel.h"

/* ---- graph ---- */

uint32_t tui_app_graph_activity(struct tui_app *app)
{
    if (app->graph_act != UINT32_MAX && app->graph_act < app->map.nactivities &&
        app->graph_act < app->node_cap && app->node_on[app->graph_act]) {
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

/* ---- timeline ---- */

static void span(struct tui_app *app, int64_t *t0, int64_t *t1)
{
    const struct iodfg_columns *col = iodfg_eventlog_columns(app->log);
    const struct iodfg_selection *sel = iodfg_analysis_selection(app->an);
    uint32_t nc = iodfg_eventlog_case_count(app->log);
    int have = 0;
    *t0 = *t1 = 0;
    for (uint32_t c = 0; c < nc; c++) {
        uint64_t lo, hi;
        if (!iodfg_dfg_case_range(app->log, sel, c, &lo, &hi)) {
            continue;
        }
        int64_t s = col->start_ns[lo], emax = s;
        // the case's events are sorted by start: the latest end is near the last start
        for (uint64_t i = hi; i > lo && i + 64 > hi; i--) {
            int64_t d = col->dur_ns ? col->dur_ns[i - 1] : 0;
            int64_t e = col->start_ns[i - 1] + (d == IODFG_UNKNOWN ? 0 : d);
            emax = e > emax ? e : emax;
        }
        if (!have || s < *t0) {
            *t0 = s;
        }
        if (!have || emax > *t1) {
            *t1 = emax;
        }
        have = 1;
    }
    if (*t1 <= *t0) {
        *t1 = *t0 + 1;
    }
}

int tui_app_timeline(struct tui_app *app, int nbins)
{
    struct tui_timeline *tl = &app->tl;
    uint32_t a = tui_app_selected_activity(app);
    if (tl->stamp == app->generation + 1 && tl->nbins == nbins && tl->activity == a &&
        tl->cover) {
        return 0; // cached (zoom and pan reset the stamp)
    }
    if (nbins < 1) {
        nbins = 1;
    }
    span(app, &tl->t0_ns, &tl->t1_ns);
    int64_t whole = tl->t1_ns - tl->t0_ns;
    int64_t width = whole >> (tl->zoom > 40 ? 40 : tl->zoom);
    width = width < nbins ? nbins : width;
    if (!tl->pan_set) {
        tl->from_ns = tl->t0_ns;
    }
    if (tl->from_ns > tl->t1_ns - width) {
        tl->from_ns = tl->t1_ns - width;
    }
    if (tl->from_ns < tl->t0_ns) {
        tl->from_ns = tl->t0_ns;
    }
    tl->bin_ns = (width + nbins - 1) / nbins;
    tl->nbins = nbins;
    tl->activity = a;
    uint32_t nc = iodfg_eventlog_case_count(app->log);
    free(tl->rows);
    free(tl->cover);
    free(tl->conc);
    tl->rows = malloc(((size_t)nc + 1) * sizeof(uint32_t));
    tl->cover = calloc(((size_t)nc + 1) * (size_t)nbins, sizeof(float));
    tl->conc = calloc((size_t)nbins, sizeof(float));
    tl->nrows = 0;
    tl->peak_bin = -1;
    if (!tl->rows || !tl->cover || !tl->conc) {
        return -1;
    }
    const struct iodfg_columns *col = iodfg_eventlog_columns(app->log);
    const struct iodfg_selection *sel = iodfg_analysis_selection(app->an);
    const uint32_t *act = iodfg_analysis_activities(app->an);
    int64_t to = tl->from_ns + tl->bin_ns * nbins;
    for (uint32_t c = 0; c < nc; c++) {
        uint64_t lo, hi;
        if (!iodfg_dfg_case_range(app->log, sel, c, &lo, &hi)) {
            continue;
        }
        float *row = tl->cover + (size_t)tl->nrows * (size_t)nbins;
        int any = 0;
        for (uint64_t i = lo; i < hi; i++) {
            uint32_t ea = act[col->key[i]];
            if (ea == IODFG_NO_ACTIVITY || (a != UINT32_MAX && ea != a)) {
                continue;
            }
            any = 1;
            int64_t s = col->start_ns[i];
            int64_t d = col->dur_ns ? col->dur_ns[i] : 0;
            int64_t e = s + (d == IODFG_UNKNOWN || d < 1 ? 1 : d);
            if (e <= tl->from_ns || s >= to) {
                continue;
            }
            s = s < tl->from_ns ? tl->from_ns : s;
            e = e > to ? to : e;
            for (int64_t b = (s - tl->from_ns) / tl->bin_ns; b < nbins; b++) {
                int64_t bs = tl->from_ns + b * tl->bin_ns, be = bs + tl->bin_ns;
                if (bs >= e) {
                    break;
                }
                int64_t ov = (e < be ? e : be) - (s > bs ? s : bs);
                float f = (float)ov / (float)tl->bin_ns;
                row[b] += f < 0.02f ? 0.02f : f; // an instant still shows
            }
        }
        if (any) {
            tl->rows[tl->nrows++] = c;
        }
    }
    float peak = 0;
    for (uint32_t r = 0; r < tl->nrows; r++) {
        for (int b = 0; b < nbins; b++) {
            float *v = &tl->cover[(size_t)r * (size_t)nbins + (size_t)b];
            *v = *v > 1.0f ? 1.0f : *v;
            tl->conc[b] += *v;
        }
    }
    for (int b = 0; b < nbins; b++) {
        if (tl->conc[b] > peak) {
            peak = tl->conc[b];
            tl->peak_bin = b;
        }
    }
    tl->stamp = app->generation + 1;
    return 0;
}

uint32_t tui_app_selected_activity(struct tui_app *app)
{
    struct tui_listmodel *lm = app->lm[TUI_VIEW_ACTIVITIES];
    if (!lm || tui_listmodel_count(lm) == 0) {
        return UINT32_MAX;
    }
    return app->act_rows[tui_listmodel_row(lm, tui_listmodel_cursor(lm))];
}
