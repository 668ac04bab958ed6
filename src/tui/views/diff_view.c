/* SPDX-License-Identifier: MIT */
/* The Diff view (5): the activities and transitions of groups G and R side by side with their
 * counts, durations and the relative change, marked G+ / R+ / != / = (d: differences only),
 * under a summary of both groups and the first rows of the story (iodfg_diff_story: what
 * differs per case, ranked by the time it explains: the calls one side replaces, the files each
 * side opens how often, how much more time, in which cases). */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "iodfg/diff.h"
#include "iodfg/error.h"
#include "iodfg/export.h"
#include "iodfg/format.h"
#include "iodfg/glyph.h"
#include "iodfg/session.h"
#include "iodfg/stats.h"

#include "tui/app.h"
#include "tui/listmodel.h"
#include "tui/view.h"
#include "tui/viewmodel.h"
#include "tui/views/common.h"
#include "tui/views/table_view.h"

enum { DC_MARK, DC_NAME, DC_GCOUNT, DC_RCOUNT, DC_GDUR, DC_RDUR, DC_DELTA, DC__N };
static const struct tui_column diff_cols[DC__N] = {
    {"G/R", 3, 0, TUI_COL_SORTABLE, "side"},
    {"Activity / transition", 24, 0,
     TUI_COL_SORTABLE | TUI_COL_SEARCH | TUI_COL_FLEX | TUI_COL_NAME, "activity_or_transition"},
    {"G count", 8, 0, TUI_COL_NUM, "g_count"},
    {"R count", 8, 0, TUI_COL_NUM, "r_count"},
    {"G Σdur", 9, 1, TUI_COL_NUM, "g_dur_sum_ns"},
    {"R Σdur", 9, 1, TUI_COL_NUM, "r_dur_sum_ns"},
    {"Δ count", 8, 2, TUI_COL_NUM, "count_rel_change"},
};

/* An activity or edge row. */
struct diff_row {
    int is_edge;
    uint32_t idx;           /* activity id or index into diff->edges */
    unsigned long long key; /* its names' hash: the cursor's item across rebuilds */
};

struct diff_view {
    struct tui_table_view table; /* first: the table view's state */
    struct diff_row *rows;
    size_t nrows;
    int only;                      /* differences only (no rows in both groups) */
    struct iodfg_diff_story story; /* what differs per case (n 0 without groups) */
    char story_error[200];         /* why it could not be built ("": it was), said in its place */
};

/* ---- the table ---- */

/* The session's comparison (NULL without groups). */
static const struct iodfg_diff *diff_of(const struct diff_view *dv)
{
    return iodfg_session_diff(tui_app_session(dv->table.app));
}

static size_t diff_rows(void *ctx)
{
    return ((struct diff_view *)ctx)->nrows;
}

static int row_side(const struct diff_view *dv, size_t row)
{
    const struct diff_row *r = &dv->rows[row];
    const struct iodfg_diff *d = diff_of(dv);
    return r->is_edge ? (int)d->edges[r->idx].side : (int)d->nodes[r->idx].side;
}

static double edge_value(const struct iodfg_diff_edge *e, int col)
{
    switch (col) {
    case DC_GCOUNT:
        return (double)e->g_count;
    case DC_RCOUNT:
        return (double)e->r_count;
    case DC_DELTA:
        return e->count_rel;
    default:
        return -1;
    }
}

static double value(const struct diff_view *dv, size_t row, int col)
{
    const struct diff_row *r = &dv->rows[row];
    if (r->is_edge) {
        return edge_value(&diff_of(dv)->edges[r->idx], col);
    }
    const struct iodfg_diff_node *n = &diff_of(dv)->nodes[r->idx];
    switch (col) {
    case DC_GCOUNT:
        return n->g[IODFG_DM_COUNT];
    case DC_RCOUNT:
        return n->r[IODFG_DM_COUNT];
    case DC_GDUR:
        return n->g[IODFG_DM_DUR_SUM];
    case DC_RDUR:
        return n->r[IODFG_DM_DUR_SUM];
    default:
        return n->rel[IODFG_DM_COUNT];
    }
}

static const char *diff_cell(void *ctx, size_t row, int col, char *buf, size_t size)
{
    struct diff_view *dv = ctx;
    const struct diff_row *r = &dv->rows[row];
    if (col == DC_MARK) {
        return iodfg_diff_side_mark((enum iodfg_diff_side)row_side(dv, row));
    }
    if (col == DC_NAME) {
        if (!r->is_edge) {
            return tui_app_activity_name(dv->table.app, r->idx);
        }
        const struct iodfg_diff_edge *e = &diff_of(dv)->edges[r->idx];
        snprintf(buf, size, iodfg_glyph_text("%s → %s"), tui_app_node_name(dv->table.app, e->from),
                 tui_app_node_name(dv->table.app, e->to));
        return buf;
    }
    double v = value(dv, row, col);
    if (col == DC_DELTA) {
        if (v != v) { // NAN: G is 0
            return iodfg_glyph_text("–");
        }
        snprintf(buf, size, "%+.0f%%", v * 100.0);
        return buf;
    }
    if (v < 0 || ((col == DC_GCOUNT || col == DC_RCOUNT) && v == 0)) {
        return iodfg_glyph_text("–");
    }
    if (col == DC_GDUR || col == DC_RDUR) {
        return v == 0 ? iodfg_glyph_text("–") : iodfg_format_duration(buf, size, (int64_t)v, 0);
    }
    return iodfg_format_count(buf, size, (uint64_t)v, 0);
}

/* Exported: plain counts, durations in ns, the relative change as a ratio (0.25 for +25%), a
 * transition as "from -> to"; "" where the figure does not exist. */
static const char *diff_exact(void *ctx, size_t row, int col, char *buf, size_t size)
{
    struct diff_view *dv = ctx;
    const struct diff_row *r = &dv->rows[row];
    if (col == DC_NAME && r->is_edge) {
        const struct iodfg_diff_edge *e = &diff_of(dv)->edges[r->idx];
        const struct iodfg_mapping *map = iodfg_session_mapping(tui_app_session(dv->table.app));
        size_t len; // the node names of the CLI's TSV
        snprintf(buf, size, "%s -> %s", iodfg_export_node_name(map, e->from, &len),
                 iodfg_export_node_name(map, e->to, &len));
        return buf;
    }
    if (col == DC_MARK || col == DC_NAME) {
        return diff_cell(ctx, row, col, buf, size);
    }
    double v = value(dv, row, col);
    if (v != v || v < 0) {
        return "";
    }
    snprintf(buf, size, col == DC_DELTA ? "%.17g" : "%.0f", v);
    return buf;
}

/* Is activity a (or an edge's end; start and end nodes are neither) the runtime's? */
static int runtime_node(const struct diff_view *dv, uint32_t a)
{
    const struct iodfg_session *ses = tui_app_session(dv->table.app);
    return a < diff_of(dv)->nactivities && iodfg_session_activity_class(ses, a) != 0;
}

/* Under focus app the application's rows above the runtime's, as in the Activities view: an
 * edge is the runtime's when neither end is the application's. */
static int row_group(const struct diff_view *dv, size_t row)
{
    if (iodfg_session_focus(tui_app_session(dv->table.app)) != IODFG_FOCUS_APP) {
        return 0;
    }
    const struct diff_row *r = &dv->rows[row];
    if (!r->is_edge) {
        return runtime_node(dv, r->idx);
    }
    const struct iodfg_diff_edge *e = &diff_of(dv)->edges[r->idx];
    int app = (e->from < diff_of(dv)->nactivities && !runtime_node(dv, e->from)) ||
              (e->to < diff_of(dv)->nactivities && !runtime_node(dv, e->to));
    return !app;
}

static int diff_compare(void *ctx, size_t a, size_t b, int col)
{
    struct diff_view *dv = ctx;
    int ga = row_group(dv, a), gb = row_group(dv, b), desc = 0;
    if (ga != gb) { // in either direction (the table negates for desc)
        tui_listmodel_sort_column(dv->table.lm, &desc);
        return (ga < gb ? -1 : 1) * (desc ? -1 : 1);
    }
    if (col == DC_MARK) {
        return row_side(dv, a) - row_side(dv, b);
    }
    if (col == DC_NAME) {
        char x[512], y[512];
        return strcmp(diff_cell(ctx, a, col, x, sizeof(x)), diff_cell(ctx, b, col, y, sizeof(y)));
    }
    double x = value(dv, a, col), y = value(dv, b, col);
    x = x != x ? -1e300 : x;
    y = y != y ? -1e300 : y;
    return tui_cmp_double(x, y);
}

static int diff_style(void *ctx, size_t row, int col)
{
    return col <= DC_NAME ? tui_side_style((enum iodfg_diff_side)row_side(ctx, row)) : -1;
}

/* The row's identity (its key, made when the rows were read): it does not need the results,
 * which a rebuild has replaced by the time the table looks for its cursor's item. */
static unsigned long long diff_key(void *ctx, size_t row)
{
    struct diff_view *dv = ctx;
    return row < dv->nrows ? dv->rows[row].key : UINT64_MAX;
}

/* FNV-1a of a name, continuing from h. */
static unsigned long long name_hash(unsigned long long h, const char *s)
{
    for (; *s; s++) {
        h = (h ^ (unsigned char)*s) * 1099511628211ULL;
    }
    return h;
}

/* An activity by its name and an edge by its two names: the same item after a rule change
 * renumbers the activities, or after d. */
static unsigned long long row_identity(const struct diff_view *dv, const struct diff_row *r)
{
    struct tui_app *app = dv->table.app;
    unsigned long long h = 14695981039346656037ULL;
    if (!r->is_edge) {
        return name_hash(h, tui_app_activity_name(app, r->idx)) & ~(1ULL << 63);
    }
    const struct iodfg_diff_edge *e = &diff_of(dv)->edges[r->idx];
    h = name_hash(h, tui_app_node_name(app, e->from));
    h = name_hash(h * 31 + 0x2d3e, tui_app_node_name(app, e->to));
    return h | (1ULL << 63);
}

static const struct tui_list_ops diff_ops = {diff_rows,  diff_cell, diff_compare,
                                             diff_style, diff_key,  diff_exact};

/* ---- the view ---- */

static void *open_diff(struct tui_app *app)
{
    struct diff_view *dv =
        tui_table_view_new(sizeof(struct diff_view), app, diff_cols, DC__N, &diff_ops, DC_GCOUNT);
    if (dv) {
        iodfg_diff_story_init(&dv->story);
    }
    return dv;
}

static void close_diff(struct tui_app *app, void *st)
{
    (void)app;
    iodfg_diff_story_fini(&((struct diff_view *)st)->story);
    tui_table_view_free(st, ((struct diff_view *)st)->rows);
}

/* The story of the session's groups, anew (none without groups). */
static void tell(struct diff_view *dv)
{
    iodfg_diff_story_fini(&dv->story);
    iodfg_diff_story_init(&dv->story);
    dv->story_error[0] = '\0';
    struct iodfg_error err;
    iodfg_error_clear(&err);
    if (diff_of(dv) && iodfg_diff_story_build(&dv->story, tui_app_session(dv->table.app), &err)) {
        char msg[160];
        snprintf(dv->story_error, sizeof(dv->story_error), "what differs: %s",
                 iodfg_error_format(&err, msg, sizeof(msg)));
    }
}

static int shown(const struct diff_view *dv, enum iodfg_diff_side side)
{
    return side != IODFG_DIFF_NEITHER && (!dv->only || side != IODFG_DIFF_BOTH);
}

/* The activities, then the edges, of either group (without those of both with only). */
static int fill(struct diff_view *dv)
{
    const struct iodfg_diff *d = diff_of(dv);
    size_t cap = d ? d->nactivities + d->nedges : 0;
    struct diff_row *rows = malloc((cap + 1) * sizeof(*rows));
    if (!rows) {
        return -1;
    }
    size_t n = 0;
    for (uint32_t a = 0; d && a < d->nactivities; a++) {
        if (shown(dv, d->nodes[a].side)) {
            rows[n] = (struct diff_row){0, a, 0};
            rows[n].key = row_identity(dv, &rows[n]);
            n++;
        }
    }
    for (size_t i = 0; d && i < d->nedges; i++) {
        if (shown(dv, d->edges[i].side)) {
            rows[n] = (struct diff_row){1, (uint32_t)i, 0};
            rows[n].key = row_identity(dv, &rows[n]);
            n++;
        }
    }
    int have; // the cursor's item, from the rows as they were
    unsigned long long key = tui_listmodel_cursor_key(dv->table.lm, &have);
    free(dv->rows);
    dv->rows = rows;
    dv->nrows = n;
    return tui_listmodel_reload_at(dv->table.lm, have, key);
}

static int changed(struct tui_app *app, void *st, const struct iodfg_session_change *what)
{
    (void)app;
    (void)what;
    tell(st);
    return fill(st);
}

static void enter(struct tui_app *app, void *st)
{
    if (!diff_of(st)) {
        tui_app_set_message(app, 0, "mark cases with g and r in 6 Cases to compare G and R");
    }
}

/* The activity of the row, or the source of its edge. */
static uint32_t activity(struct tui_app *app, void *st)
{
    struct diff_view *dv = st;
    size_t row;
    if (!tui_table_view_cursor(dv, &row)) {
        return UINT32_MAX;
    }
    (void)app;
    const struct diff_row *r = &dv->rows[row];
    return r->is_edge ? diff_of(dv)->edges[r->idx].from : r->idx;
}

/* d: the rows again, with or without those both groups have. */
static unsigned only(struct tui_app *app, void *st, enum tui_cmd cmd)
{
    (void)cmd;
    struct diff_view *dv = st;
    dv->only = !dv->only;
    if (fill(dv)) {
        tui_app_set_message(app, 1, "diff: out of memory");
    }
    return TUI_REDRAW;
}

static const struct tui_cmd_entry cmds[] = {
    {TUI_CMD_DIFF_ONLY, only},
};

static const char *plural(uint64_t n)
{
    return n == 1 ? "" : "s";
}

/* The groups' cases, events and summed durations, and how they differ. */
static void summary(const struct diff_view *dv, char *line, size_t size)
{
    const struct iodfg_diff *d = diff_of(dv);
    const struct iodfg_session_counts *k = iodfg_session_counts(tui_app_session(dv->table.app));
    if (!d) {
        snprintf(line, size, iodfg_glyph_text("G %u case%s · R %u case%s"), k->g_cases,
                 plural(k->g_cases), k->r_cases, plural(k->r_cases));
        return;
    }
    uint64_t gc = 0, rc = 0;
    int64_t gd = 0, rd = 0;
    for (uint32_t a = 0; a < d->g_stats.nactivities; a++) {
        gc += d->g_stats.act[a].count;
        gd += d->g_stats.act[a].dur_sum_ns;
    }
    for (uint32_t a = 0; a < d->r_stats.nactivities; a++) {
        rc += d->r_stats.act[a].count;
        rd += d->r_stats.act[a].dur_sum_ns;
    }
    char b1[32], b2[32];
    double delta = gd ? ((double)rd - (double)gd) / (double)gd * 100.0 : 0;
    snprintf(line, size,
             iodfg_glyph_text("G %u case%s: %llu event%s, Σdur %s · R %u case%s: %llu event%s, "
                              "Σdur %s · Δ %+.0f%%%s"),
             k->g_cases, plural(k->g_cases), (unsigned long long)gc, plural(gc),
             iodfg_format_duration(b1, 32, gd, 0), k->r_cases, plural(k->r_cases),
             (unsigned long long)rc, plural(rc), iodfg_format_duration(b2, 32, rd, 0), delta,
             dv->only ? iodfg_glyph_text(" · differences only") : "");
}

/* The story's first rows, one line each (the rest in `insights` with the same groups): as many
 * as a fifth of the height allows, at least one, at most 4. Returns the lines used. */
static int story_lines(const struct diff_view *dv, const struct tui_render_in *in,
                       struct tui_viewmodel *vm)
{
    if (!diff_of(dv)) {
        return 0;
    }
    if (dv->story_error[0] || dv->story.n == 0) {
        tui_page_text(&vm->page, 1, 1, in->width - 2, TUI_STYLE_DETAIL,
                      dv->story_error[0] ? dv->story_error
                                         : "what differs per case: nothing (no activity "
                                           "of one group only, none changed)");
        return 1;
    }
    int max = in->height / 5;
    max = max < 1 ? 1 : max > 4 ? 4 : max;
    int n = dv->story.n < (size_t)max ? (int)dv->story.n : max;
    for (int i = 0; i < n; i++) {
        const struct iodfg_diff_story_row *w = &dv->story.rows[i];
        tui_page_textf(&vm->page, 1 + i, 1, in->width - 2, tui_side_style(w->side), "%d %s %s",
                       i + 1, iodfg_diff_side_mark(w->side), w->text);
    }
    return n;
}

static void render(struct tui_app *app, void *st, const struct tui_render_in *in,
                   struct tui_viewmodel *vm)
{
    (void)app;
    struct diff_view *dv = st;
    char line[512];
    summary(dv, line, sizeof(line));
    tui_page_text(&vm->page, 0, 1, in->width - 2, TUI_STYLE_DETAIL, line);
    int top = 1 + story_lines(dv, in, vm);
    vm->table = dv->table.lm;
    tui_page_table(&vm->page, top, 0, in->width, in->height - top,
                   diff_of(dv) ? "no differences" : "no groups: mark cases in 6 Cases");
}

/* The DOT export colours the graph by the groups. */
static void export_dot(struct tui_app *app, void *st, struct iodfg_dot_options *o)
{
    (void)app;
    if (diff_of(st)) {
        o->diff = diff_of(st);
    }
}

const struct tui_view_ops tui_view_diff = {
    .open = open_diff,
    .close = close_diff,
    .changed = changed,
    .enter = enter,
    .cmds = cmds,
    .ncmds = sizeof(cmds) / sizeof(cmds[0]),
    .render = render,
    .detail = tui_table_view_detail,
    .table = tui_table_view_table,
    .sorted = tui_table_view_table,
    .activity = activity,
    .export_dot = export_dot,
};
