/* SPDX-License-Identifier: MIT */
/* The Transitions view (2): the directly-follows edges shown, with their counts and gaps, as a
 * sortable table. */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "iodfg/dfg.h"
#include "iodfg/error.h"
#include "iodfg/export.h"
#include "iodfg/format.h"
#include "iodfg/glyph.h"
#include "iodfg/mapping.h"
#include "iodfg/session.h"

#include "tui/app.h"
#include "tui/view.h"
#include "tui/viewmodel.h"
#include "tui/views/common.h"
#include "tui/views/table_view.h"

enum { EC_MARK, EC_FROM, EC_TO, EC_COUNT, EC_CASES, EC_GAP, EC_MEDIAN, EC__N };
static const struct tui_column edge_cols[EC__N] = {
    {"G/R", 3, 0, 0, NULL},
    {"From", 19, 0, TUI_COL_SORTABLE | TUI_COL_SEARCH | TUI_COL_FLEX | TUI_COL_NAME, NULL},
    {"To", 19, 0, TUI_COL_SORTABLE | TUI_COL_SEARCH | TUI_COL_FLEX | TUI_COL_NAME, NULL},
    {"Count", 8, 0, TUI_COL_NUM, NULL},
    {"Cases", 6, 2, TUI_COL_NUM, NULL},
    {"Mean gap", 9, 1, TUI_COL_NUM, NULL},
    {"Median gap", 10, 3, TUI_COL_NUM, NULL},
};

struct transitions {
    struct tui_table_view table; /* first: the table view's state */
    uint32_t *rows;              /* edge slots of the DFG (stable across incremental updates) */
    uint32_t nrows;
};

/* ---- the table ---- */

static const struct iodfg_dfg_edge *edge_at(const struct transitions *tv, size_t row)
{
    return iodfg_dfg_edge_at(iodfg_session_dfg(tui_app_session(tv->table.app)), tv->rows[row]);
}

static enum iodfg_diff_side edge_side(const struct transitions *tv, const struct iodfg_dfg_edge *e)
{
    return iodfg_session_edge_side(tui_app_session(tv->table.app), e->from, e->to);
}

static size_t edge_rows(void *ctx)
{
    return ((struct transitions *)ctx)->nrows;
}

static const char *edge_cell(void *ctx, size_t row, int col, char *buf, size_t size)
{
    struct transitions *tv = ctx;
    const struct iodfg_dfg_edge *e = edge_at(tv, row);
    switch (col) {
    case EC_MARK:
        return iodfg_diff_side_mark(edge_side(tv, e));
    case EC_FROM:
        return tui_app_node_name(tv->table.app, e->from);
    case EC_TO:
        return tui_app_node_name(tv->table.app, e->to);
    case EC_COUNT:
        return iodfg_format_count(buf, size, e->count, 0);
    case EC_CASES:
        return iodfg_format_count(buf, size, e->cases, 0);
    case EC_GAP:
        return e->gap_n ? iodfg_format_duration(buf, size, (int64_t)e->gap_mean_ns, 0)
                        : iodfg_glyph_text("–");
    default:
        return e->gap_n ? iodfg_format_duration(buf, size, e->gap_median_ns, 0)
                        : iodfg_glyph_text("–");
    }
}

static int edge_compare(void *ctx, size_t a, size_t b, int col)
{
    struct transitions *tv = ctx;
    const struct iodfg_dfg_edge *x = edge_at(tv, a), *y = edge_at(tv, b);
    switch (col) {
    case EC_FROM:
    case EC_TO:
        return strcmp(tui_app_node_name(tv->table.app, col == EC_FROM ? x->from : x->to),
                      tui_app_node_name(tv->table.app, col == EC_FROM ? y->from : y->to));
    case EC_COUNT:
        return tui_cmp_u64(x->count, y->count);
    case EC_CASES:
        return tui_cmp_u64(x->cases, y->cases);
    case EC_GAP:
        return tui_cmp_double(x->gap_mean_ns, y->gap_mean_ns);
    default:
        return tui_cmp_double((double)x->gap_median_ns, (double)y->gap_median_ns);
    }
}

static int edge_style(void *ctx, size_t row, int col)
{
    struct transitions *tv = ctx;
    return col <= EC_TO ? tui_side_style(edge_side(tv, edge_at(tv, row))) : -1;
}

static unsigned long long edge_key(void *ctx, size_t row)
{
    return ((struct transitions *)ctx)->rows[row];
}

static const struct tui_list_ops edge_ops = {edge_rows,  edge_cell, edge_compare,
                                             edge_style, edge_key,  NULL};

/* ---- the view ---- */

static void *open_transitions(struct tui_app *app)
{
    return tui_table_view_new(sizeof(struct transitions), app, edge_cols, EC__N, &edge_ops,
                              EC_COUNT);
}

static void close_transitions(struct tui_app *app, void *st)
{
    (void)app;
    tui_table_view_free(st, ((struct transitions *)st)->rows);
}

/* The edges with events that the pruning keeps; the cursor stays on its edge. */
static int changed(struct tui_app *app, void *st, const struct iodfg_session_change *what)
{
    (void)what;
    struct transitions *tv = st;
    const struct iodfg_dfg *g = iodfg_session_dfg(tui_app_session(app));
    const uint8_t *edge_on = iodfg_session_edge_on(tui_app_session(app));
    uint32_t *rows = malloc((iodfg_dfg_slots(g) + 1) * sizeof(*rows));
    if (!rows) {
        return -1;
    }
    uint32_t n = 0;
    for (size_t i = 0; i < iodfg_dfg_slots(g); i++) {
        if (iodfg_dfg_edge_at(g, i)->count > 0 && edge_on[i]) {
            rows[n++] = (uint32_t)i;
        }
    }
    return tui_table_replace(tv->table.lm, &tv->rows, &tv->nrows, rows, n);
}

/* The edge's source, or its target when the source is the start node. */
static uint32_t activity(struct tui_app *app, void *st)
{
    size_t row;
    if (!tui_table_view_cursor(st, &row)) {
        return UINT32_MAX;
    }
    const struct iodfg_dfg_edge *e = edge_at(st, row);
    return e->from < iodfg_session_mapping(tui_app_session(app))->nactivities ? e->from : e->to;
}

static int export_rows(struct tui_app *app, const uint32_t *order, size_t n, struct iodfg_buf *out,
                       struct iodfg_error *err)
{
    const struct iodfg_session *ses = tui_app_session(app);
    return iodfg_export_tsv_edges(out, iodfg_session_dfg(ses), iodfg_session_mapping(ses), order, n,
                                  err);
}

/* Exact values in base units from the engine's exporter, in the table's order. */
static int export_tsv(struct tui_app *app, void *st, struct iodfg_buf *out, struct iodfg_error *err)
{
    (void)app;
    return tui_table_view_export(st, ((struct transitions *)st)->rows, export_rows, out, err);
}

const struct tui_view_ops tui_view_transitions = {
    .open = open_transitions,
    .close = close_transitions,
    .changed = changed,
    .render = tui_table_view_render,
    .detail = tui_table_view_detail,
    .table = tui_table_view_table,
    .sorted = tui_table_view_table,
    .activity = activity,
    .export_tsv = export_tsv,
};
