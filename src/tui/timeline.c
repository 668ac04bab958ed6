/* SPDX-License-Identifier: MIT */
/* Models of the Graph view (neighbourhood lists) and the Timeline view (per-case busy bins and
 * the concurrency profile of one activity, over a per-activity event index; the event list
 * of one case). */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "iodfg/analysis.h"
#include "iodfg/dfg.h"
#include "iodfg/eventlog.h"
#include "iodfg/format.h"
#include "iodfg/mapping.h"
#include "iodfg/stats.h"
#include "iodfg/strpool.h"
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

static int64_t ev_end(const struct iodfg_columns *col, uint64_t i)
{
    int64_t d = col->dur_ns ? col->dur_ns[i] : 0;
    return col->start_ns[i] + (d == IODFG_UNKNOWN || d < 1 ? 1 : d);
}

void tui_app_timeline_free(struct tui_timeline *tl)
{
    free(tl->rows);
    free(tl->row_off);
    free(tl->ev);
    free(tl->row_maxdur);
    free(tl->cover);
    free(tl->conc);
    free(tl->fit_cover);
    free(tl->fit_conc);
    free(tl->events);
    tl->fit_cover = tl->fit_conc = NULL;
    tl->fit_stamp = 0;
    tl->rows = NULL;
    tl->row_off = tl->ev = tl->events = NULL;
    tl->row_maxdur = NULL;
    tl->cover = tl->conc = NULL;
    tl->nrows = 0;
    tl->nevents = 0;
    tl->index_stamp = tl->stamp = 0;
}

/* The index of activity a's selected events (all mapped ones for UINT32_MAX): one pass over
 * the selection, then only when the rebuild or the activity changes. */
static int build_index(struct tui_app *app, struct tui_timeline *tl, uint32_t a)
{
    const struct iodfg_columns *col = iodfg_eventlog_columns(app->log);
    const struct iodfg_selection *sel = iodfg_analysis_selection(app->an);
    const uint32_t *act = iodfg_analysis_activities(app->an);
    const struct iodfg_stats *st = iodfg_analysis_stats(app->an);
    uint32_t nc = iodfg_eventlog_case_count(app->log);
    uint64_t cap = a != UINT32_MAX && a < st->nactivities ? st->act[a].count
                                                          : iodfg_eventlog_event_count(app->log);
    free(tl->rows);
    free(tl->row_off);
    free(tl->ev);
    free(tl->row_maxdur);
    tl->rows = malloc(((size_t)nc + 1) * sizeof(uint32_t));
    tl->row_off = malloc(((size_t)nc + 2) * sizeof(uint64_t));
    tl->row_maxdur = malloc(((size_t)nc + 1) * sizeof(int64_t));
    tl->ev = malloc(((size_t)cap + 1) * sizeof(uint64_t));
    tl->nrows = 0;
    tl->index_stamp = 0;
    tl->fit_stamp = 0; // the cached fit grid belonged to the old index
    if (!tl->rows || !tl->row_off || !tl->row_maxdur || !tl->ev) {
        return -1;
    }
    uint64_t n = 0;
    int have = 0;
    tl->t0_ns = tl->t1_ns = 0;
    tl->row_off[0] = 0;
    for (uint32_t c = 0; c < nc; c++) {
        uint64_t lo, hi;
        if (!iodfg_dfg_case_range(app->log, sel, c, &lo, &hi)) {
            continue;
        }
        // the span covers every selected event, whatever the activity
        int64_t s = col->start_ns[lo], emax = s;
        for (uint64_t i = hi; i > lo && i + 64 > hi; i--) {
            int64_t e = ev_end(col, i - 1) - (col->dur_ns && col->dur_ns[i - 1] > 0 ? 0 : 1);
            emax = e > emax ? e : emax;
        }
        tl->t0_ns = !have || s < tl->t0_ns ? s : tl->t0_ns;
        tl->t1_ns = !have || emax > tl->t1_ns ? emax : tl->t1_ns;
        have = 1;
        uint64_t first = n;
        int64_t maxdur = 0;
        for (uint64_t i = lo; i < hi; i++) {
            uint32_t ea = act[col->key[i]];
            if (ea == IODFG_NO_ACTIVITY || (a != UINT32_MAX && ea != a)) {
                continue;
            }
            if (n == cap) { // the stats' count is the expected size; grow if it is short
                uint64_t *p = realloc(tl->ev, ((size_t)cap * 2 + 16) * sizeof(uint64_t));
                if (!p) {
                    return -1;
                }
                tl->ev = p;
                cap = cap * 2 + 15;
            }
            tl->ev[n++] = i;
            int64_t d = ev_end(col, i) - col->start_ns[i];
            maxdur = d > maxdur ? d : maxdur;
        }
        if (n > first) {
            tl->row_maxdur[tl->nrows] = maxdur;
            tl->rows[tl->nrows++] = c;
            tl->row_off[tl->nrows] = n;
        }
    }
    if (tl->t1_ns <= tl->t0_ns) {
        tl->t1_ns = tl->t0_ns + 1;
    }
    tl->activity = a;
    tl->index_stamp = app->generation + 1;
    if (tl->cursor >= tl->nrows) {
        tl->cursor = tl->nrows ? tl->nrows - 1 : 0;
    }
    return 0;
}

/* Add row r's events inside [from, to) to its cover bins (events are in start order, so a
 * binary search skips everything that ends before the window). */
static void bin_row(const struct iodfg_columns *col, struct tui_timeline *tl, uint32_t r,
                    float *row, int64_t to)
{
    uint64_t lo = tl->row_off[r], hi = tl->row_off[r + 1];
    int64_t early = tl->from_ns - tl->row_maxdur[r];
    while (lo < hi) {
        uint64_t mid = lo + (hi - lo) / 2;
        if (col->start_ns[tl->ev[mid]] < early) {
            lo = mid + 1;
        } else {
            hi = mid;
        }
    }
    for (uint64_t j = lo; j < tl->row_off[r + 1]; j++) {
        uint64_t i = tl->ev[j];
        int64_t s = col->start_ns[i];
        if (s >= to) {
            break;
        }
        int64_t e = ev_end(col, i);
        if (e <= tl->from_ns) {
            continue;
        }
        s = s < tl->from_ns ? tl->from_ns : s;
        e = e > to ? to : e;
        for (int64_t b = (s - tl->from_ns) / tl->bin_ns; b < tl->nbins; b++) {
            int64_t bs = tl->from_ns + b * tl->bin_ns, be = bs + tl->bin_ns;
            if (bs >= e) {
                break;
            }
            int64_t ov = (e < be ? e : be) - (s > bs ? s : bs);
            float f = (float)ov / (float)tl->bin_ns;
            row[b] += f < 0.02f ? 0.02f : f; // an instant still shows
        }
    }
}

int tui_app_timeline(struct tui_app *app, int nbins)
{
    struct tui_timeline *tl = &app->tl;
    uint32_t a = tui_app_selected_activity(app);
    if (nbins < 1) {
        nbins = 1;
    }
    if (tl->stamp == app->generation + 1 && tl->nbins == nbins && tl->activity == a &&
        tl->cover) {
        return 0; // cached (zoom and pan reset the stamp)
    }
    if ((tl->index_stamp != app->generation + 1 || tl->activity != a) &&
        build_index(app, tl, a)) {
        return -1;
    }
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
    free(tl->cover);
    free(tl->conc);
    tl->cover = calloc(((size_t)tl->nrows + 1) * (size_t)nbins, sizeof(float));
    tl->conc = calloc((size_t)nbins, sizeof(float));
    tl->peak_bin = -1;
    if (!tl->cover || !tl->conc) {
        return -1;
    }
    size_t cells = (size_t)tl->nrows * (size_t)nbins;
    int fit = tl->zoom == 0; // the whole span: kept, since zooming out comes back to it
    if (fit && tl->fit_stamp == tl->index_stamp && tl->fit_nbins == nbins && tl->fit_cover) {
        memcpy(tl->cover, tl->fit_cover, cells * sizeof(float));
        memcpy(tl->conc, tl->fit_conc, (size_t)nbins * sizeof(float));
        tl->peak_bin = tl->fit_peak;
        tl->stamp = app->generation + 1;
        return 0;
    }
    const struct iodfg_columns *col = iodfg_eventlog_columns(app->log);
    int64_t to = tl->from_ns + tl->bin_ns * nbins;
    float peak = 0;
    for (uint32_t r = 0; r < tl->nrows; r++) {
        float *row = tl->cover + (size_t)r * (size_t)nbins;
        bin_row(col, tl, r, row, to);
        for (int b = 0; b < nbins; b++) {
            row[b] = row[b] > 1.0f ? 1.0f : row[b];
            tl->conc[b] += row[b];
        }
    }
    for (int b = 0; b < nbins; b++) {
        if (tl->conc[b] > peak) {
            peak = tl->conc[b];
            tl->peak_bin = b;
        }
    }
    if (fit) {
        free(tl->fit_cover);
        free(tl->fit_conc);
        tl->fit_cover = malloc((cells + 1) * sizeof(float));
        tl->fit_conc = malloc((size_t)nbins * sizeof(float));
        tl->fit_stamp = 0;
        if (tl->fit_cover && tl->fit_conc) { // without memory, the next fit just re-bins
            memcpy(tl->fit_cover, tl->cover, cells * sizeof(float));
            memcpy(tl->fit_conc, tl->conc, (size_t)nbins * sizeof(float));
            tl->fit_nbins = nbins;
            tl->fit_peak = tl->peak_bin;
            tl->fit_stamp = tl->index_stamp;
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

/* ---- the event list of one timeline row ---- */

enum { EV_START, EV_DUR, EV_SIZE, EV_CALL, EV_PATH, EV__N };
static const struct tui_column ev_cols[EV__N] = {
    {"Start", 11, 0, TUI_COL_RIGHT | TUI_COL_SORTABLE},
    {"Dur", 10, 0, TUI_COL_RIGHT | TUI_COL_SORTABLE | TUI_COL_DESC},
    {"Size", 9, 1, TUI_COL_RIGHT | TUI_COL_SORTABLE | TUI_COL_DESC},
    {"Call", 10, 0, TUI_COL_SORTABLE | TUI_COL_SEARCH},
    {"Path", 20, 0, TUI_COL_SORTABLE | TUI_COL_SEARCH | TUI_COL_FLEX},
};

static size_t ev_rows(void *ctx)
{
    return (size_t)((struct tui_app *)ctx)->tl.nevents;
}

static int64_t ev_value(const struct tui_app *app, size_t row, int col)
{
    const struct iodfg_columns *c = iodfg_eventlog_columns(app->log);
    uint64_t i = app->tl.events[row];
    switch (col) {
    case EV_START:
        return c->start_ns[i];
    case EV_DUR:
        return c->dur_ns ? c->dur_ns[i] : IODFG_UNKNOWN;
    default:
        return c->size ? c->size[i] : IODFG_UNKNOWN;
    }
}

static const char *ev_str(const struct tui_app *app, size_t row, int col)
{
    const struct iodfg_key *k =
        &iodfg_eventlog_keys(app->log)[iodfg_eventlog_columns(app->log)->key[app->tl.events[row]]];
    return iodfg_strpool_get(iodfg_eventlog_pool(app->log), col == EV_CALL ? k->call : k->path);
}

static const char *ev_cell(void *ctx, size_t row, int col, char *buf, size_t size)
{
    const struct tui_app *app = ctx;
    if (col >= EV_CALL) {
        return ev_str(app, row, col); // the renderer sanitises odd bytes
    }
    int64_t v = ev_value(app, row, col);
    if (v == IODFG_UNKNOWN) {
        return "–";
    }
    if (col == EV_START) {
        buf[0] = '+';
        iodfg_format_duration(buf + 1, size - 1, v - app->tl.t0_ns, 0);
        return buf;
    }
    return col == EV_DUR ? iodfg_format_duration(buf, size, v, 0)
                         : iodfg_format_bytes(buf, size, v, 0);
}

static int ev_compare(void *ctx, size_t a, size_t b, int col)
{
    const struct tui_app *app = ctx;
    if (col >= EV_CALL) {
        return strcmp(ev_str(app, a, col), ev_str(app, b, col));
    }
    int64_t x = ev_value(app, a, col), y = ev_value(app, b, col);
    return (x > y) - (x < y);
}

static unsigned long long ev_key(void *ctx, size_t row)
{
    const struct tui_app *app = ctx;
    return row < app->tl.nevents ? app->tl.events[row] : UINT64_MAX;
}

static const struct tui_list_ops ev_ops = {ev_rows, ev_cell, ev_compare, NULL, ev_key};

int tui_app_timeline_events(struct tui_app *app)
{
    struct tui_timeline *tl = &app->tl;
    uint32_t a = tui_app_selected_activity(app);
    if ((tl->index_stamp != app->generation + 1 || tl->activity != a) &&
        build_index(app, tl, a)) {
        return -1;
    }
    if (tl->nrows == 0) {
        return -1;
    }
    if (!app->events_lm) {
        app->events_lm = tui_listmodel_new(ev_cols, EV__N, &ev_ops, app);
        if (!app->events_lm) {
            return -1;
        }
        tui_listmodel_sort(app->events_lm, EV_START, 0);
    }
    uint32_t r = tl->cursor < tl->nrows ? tl->cursor : tl->nrows - 1;
    uint64_t n = tl->row_off[r + 1] - tl->row_off[r];
    uint64_t *ev = malloc((n + 1) * sizeof(*ev));
    if (!ev) {
        return -1;
    }
    memcpy(ev, tl->ev + tl->row_off[r], n * sizeof(*ev));
    free(tl->events);
    tl->events = ev;
    tl->nevents = n;
    tl->events_row_case = tl->rows[r];
    tl->show_events = 1;
    if (tui_listmodel_reload(app->events_lm)) {
        return -1;
    }
    tui_listmodel_first(app->events_lm);
    return 0;
}
