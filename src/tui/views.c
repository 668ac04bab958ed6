/* SPDX-License-Identifier: MIT */
/* Table view models: activities, transitions, diff, cases and variants as list-model callbacks. */
#include "config.h"

#include "tui/views.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "iodfg/analysis.h"
#include "iodfg/dfg.h"
#include "iodfg/eventlog.h"
#include "iodfg/export.h"
#include "iodfg/format.h"
#include "iodfg/stats.h"
#include "iodfg/strpool.h"
#include "iodfg/trace.h"

#include "tui/app.h"
#include "tui/listmodel.h"
#include "tui/theme.h"

static const char *node_name(const struct tui_app *app, uint32_t node)
{
    size_t len;
    return iodfg_export_node_name(app->map, node, &len);
}
#define NUM (TUI_COL_RIGHT | TUI_COL_SORTABLE | TUI_COL_DESC)

static int reload_old; // set while the list model asks for the key of the old cursor row

static const struct tui_column act_cols[TUI_AC__N] = {
    {"G/R", 3, 0, 0},     {"Activity", 20, 0, TUI_COL_SORTABLE | TUI_COL_SEARCH | TUI_COL_FLEX},
    {"Count", 8, 0, NUM}, {"Cases", 6, 3, NUM},
    {"Σdur", 9, 0, NUM},  {"rd%", 6, 1, NUM},
    {"Bytes", 9, 2, NUM}, {"dr̄", 11, 4, NUM},
    {"mc", 4, 3, NUM},    {"DR", 11, 5, NUM},
};

enum { EC_MARK, EC_FROM, EC_TO, EC_COUNT, EC_CASES, EC_GAP, EC_MEDIAN, EC__N };
static const struct tui_column edge_cols[EC__N] = {
    {"G/R", 3, 0, 0},
    {"From", 16, 0, TUI_COL_SORTABLE | TUI_COL_SEARCH | TUI_COL_FLEX},
    {"To", 22, 0, TUI_COL_SORTABLE | TUI_COL_SEARCH},
    {"Count", 8, 0, NUM},
    {"Cases", 6, 2, NUM},
    {"Mean gap", 9, 1, NUM},
    {"Median gap", 10, 3, NUM},
};

enum { DC_MARK, DC_NAME, DC_GCOUNT, DC_RCOUNT, DC_GDUR, DC_RDUR, DC_DELTA, DC__N };
static const struct tui_column diff_cols[DC__N] = {
    {"G/R", 3, 0, TUI_COL_SORTABLE},
    {"Activity / transition", 24, 0, TUI_COL_SORTABLE | TUI_COL_SEARCH | TUI_COL_FLEX},
    {"G count", 8, 0, NUM},
    {"R count", 8, 0, NUM},
    {"G Σdur", 9, 1, NUM},
    {"R Σdur", 9, 1, NUM},
    {"Δ count", 8, 2, NUM},
};

enum { CC_MARK, CC_NAME, CC_CID, CC_HOST, CC_RID, CC_EVENTS, CC_SPAN, CC__N };
static const struct tui_column case_cols[CC__N] = {
    {"G/R", 3, 0, TUI_COL_SORTABLE},
    {"Case", 16, 0, TUI_COL_SORTABLE | TUI_COL_SEARCH | TUI_COL_FLEX},
    {"cid", 10, 2, TUI_COL_SORTABLE | TUI_COL_SEARCH},
    {"host", 10, 3, TUI_COL_SORTABLE | TUI_COL_SEARCH},
    {"rid", 8, 3, TUI_COL_SORTABLE | TUI_COL_SEARCH},
    {"Events", 9, 0, NUM},
    {"Span", 9, 1, NUM},
};

enum { VC_MARK, VC_CASES, VC_LEN, VC_SEQ, VC__N };
static const struct tui_column var_cols[VC__N] = {
    {"G/R", 9, 0, 0},
    {"Cases", 6, 0, NUM},
    {"Length", 7, 0, NUM},
    {"Variant (activity sequence)", 20, 0, TUI_COL_SEARCH | TUI_COL_FLEX},
};

static int cmp_u64(uint64_t a, uint64_t b)
{
    return (a > b) - (a < b);
}

static int cmp_d(double a, double b)
{
    return (a > b) - (a < b);
}

static const char *side_mark(int side)
{
    switch (side) {
    case IODFG_DIFF_G_ONLY:
        return "G+";
    case IODFG_DIFF_R_ONLY:
        return "R+";
    case IODFG_DIFF_BOTH:
        return "=";
    default:
        return "";
    }
}

static int side_style(int side)
{
    return side == IODFG_DIFF_G_ONLY   ? TUI_STYLE_DIFF_GREEN
           : side == IODFG_DIFF_R_ONLY ? TUI_STYLE_DIFF_RED
                                       : -1;
}

static int act_side(const struct tui_app *app, uint32_t a)
{
    return (app->diff != NULL) && a < app->diff->nactivities ? (int)app->diff->nodes[a].side : 0;
}

const char *tui_views_act_mark(const struct tui_app *app, unsigned a)
{
    return side_mark(act_side(app, a));
}

static int edge_side(const struct tui_app *app, const struct iodfg_dfg_edge *e)
{
    if (!(app->diff != NULL)) {
        return 0;
    }
    const struct iodfg_diff_edge *d = iodfg_diff_find_edge(app->diff, e->from, e->to);
    return d ? (int)d->side : 0;
}

/* ---- activities ---- */

static size_t act_rows(void *ctx)
{
    reload_old = 0;
    return ((struct tui_app *)ctx)->nact_rows;
}

static const struct iodfg_activity_stats *act_stats(const struct tui_app *app, size_t row)
{
    return &iodfg_analysis_stats(app->an)->act[app->act_rows[row]];
}

static const char *act_cell(void *ctx, size_t row, int col, char *buf, size_t size)
{
    struct tui_app *app = ctx;
    uint32_t a = app->act_rows[row];
    const struct iodfg_activity_stats *s = act_stats(app, row);
    switch (col) {
    case TUI_AC_MARK:
        return side_mark(act_side(app, a));
    case TUI_AC_NAME:
        return tui_app_activity_name(app, a);
    case TUI_AC_COUNT:
        return iodfg_format_count(buf, size, s->count, 0);
    case TUI_AC_CASES:
        return iodfg_format_count(buf, size, s->cases, 0);
    case TUI_AC_DUR:
        return iodfg_format_duration(buf, size, s->dur_sum_ns, 0);
    case TUI_AC_RD:
        return iodfg_format_percent(buf, size, s->rd, 0);
    case TUI_AC_BYTES:
        return s->bytes ? iodfg_format_bytes(buf, size, s->bytes, 0) : "–";
    case TUI_AC_DRMEAN:
        return s->dr_n ? iodfg_format_rate(buf, size, s->dr_mean, 0) : "–";
    case TUI_AC_MC:
        return iodfg_format_count(buf, size, s->mc, 0);
    default:
        return s->dr_n ? iodfg_format_rate(buf, size, s->DR, 0) : "–";
    }
}

static int act_compare(void *ctx, size_t a, size_t b, int col)
{
    struct tui_app *app = ctx;
    const struct iodfg_activity_stats *x = act_stats(app, a), *y = act_stats(app, b);
    switch (col) {
    case TUI_AC_NAME:
        return strcmp(tui_app_activity_name(app, app->act_rows[a]),
                      tui_app_activity_name(app, app->act_rows[b]));
    case TUI_AC_COUNT:
        return cmp_u64(x->count, y->count);
    case TUI_AC_CASES:
        return cmp_u64(x->cases, y->cases);
    case TUI_AC_DUR:
        return cmp_d((double)x->dur_sum_ns, (double)y->dur_sum_ns);
    case TUI_AC_RD:
        return cmp_d(x->rd, y->rd);
    case TUI_AC_BYTES:
        return cmp_d((double)x->bytes, (double)y->bytes);
    case TUI_AC_DRMEAN:
        return cmp_d(x->dr_mean, y->dr_mean);
    case TUI_AC_MC:
        return cmp_u64(x->mc, y->mc);
    default:
        return cmp_d(x->DR, y->DR);
    }
}

static int act_style(void *ctx, size_t row, int col)
{
    struct tui_app *app = ctx;
    return col <= TUI_AC_NAME ? side_style(act_side(app, app->act_rows[row])) : -1;
}

static unsigned long long act_key(void *ctx, size_t row)
{
    struct tui_app *app = ctx;
    return reload_old ? app->act_rows[app->nact_rows + row] : app->act_rows[row];
}

static const struct tui_list_ops act_ops = {act_rows, act_cell, act_compare, act_style, act_key};

/* ---- transitions ---- */

static const struct iodfg_dfg_edge *edge_at(const struct tui_app *app, size_t row)
{
    return &iodfg_analysis_dfg(app->an)->edges[app->edge_rows[row]];
}

static size_t edge_rows(void *ctx)
{
    reload_old = 0;
    return ((struct tui_app *)ctx)->nedge_rows;
}

static const char *edge_cell(void *ctx, size_t row, int col, char *buf, size_t size)
{
    struct tui_app *app = ctx;
    const struct iodfg_dfg_edge *e = edge_at(app, row);
    switch (col) {
    case EC_MARK:
        return side_mark(edge_side(app, e));
    case EC_FROM:
        return node_name(app, e->from);
    case EC_TO:
        return node_name(app, e->to);
    case EC_COUNT:
        return iodfg_format_count(buf, size, e->count, 0);
    case EC_CASES:
        return iodfg_format_count(buf, size, e->cases, 0);
    case EC_GAP:
        return e->gap_n ? iodfg_format_duration(buf, size, (int64_t)e->gap_mean_ns, 0) : "–";
    default:
        return e->gap_n ? iodfg_format_duration(buf, size, e->gap_median_ns, 0) : "–";
    }
}

static int edge_compare(void *ctx, size_t a, size_t b, int col)
{
    struct tui_app *app = ctx;
    const struct iodfg_dfg_edge *x = edge_at(app, a), *y = edge_at(app, b);
    switch (col) {
    case EC_FROM:
    case EC_TO:
        return strcmp(node_name(app, col == EC_FROM ? x->from : x->to),
                      node_name(app, col == EC_FROM ? y->from : y->to));
    case EC_COUNT:
        return cmp_u64(x->count, y->count);
    case EC_CASES:
        return cmp_u64(x->cases, y->cases);
    case EC_GAP:
        return cmp_d(x->gap_mean_ns, y->gap_mean_ns);
    default:
        return cmp_d((double)x->gap_median_ns, (double)y->gap_median_ns);
    }
}

static int edge_style(void *ctx, size_t row, int col)
{
    struct tui_app *app = ctx;
    return col <= EC_TO ? side_style(edge_side(app, edge_at(app, row))) : -1;
}

static unsigned long long edge_key(void *ctx, size_t row)
{
    struct tui_app *app = ctx;
    // slots are stable across incremental updates
    return reload_old ? app->edge_rows[app->nedge_rows + row] : app->edge_rows[row];
}

static const struct tui_list_ops edge_ops = {edge_rows, edge_cell, edge_compare, edge_style,
                                             edge_key};

/* ---- diff ---- */

static size_t diff_rows(void *ctx)
{
    reload_old = 0;
    return ((struct tui_app *)ctx)->ndiff_rows;
}

static int diff_row_side(const struct tui_app *app, size_t row)
{
    const struct tui_diff_row *r = &app->diff_rows[row];
    return r->is_edge ? (int)app->diff->edges[r->idx].side : (int)app->diff->nodes[r->idx].side;
}

static double diff_value(const struct tui_app *app, size_t row, int col)
{
    const struct tui_diff_row *r = &app->diff_rows[row];
    if (r->is_edge) {
        const struct iodfg_diff_edge *e = &app->diff->edges[r->idx];
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
    const struct iodfg_diff_node *n = &app->diff->nodes[r->idx];
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
    struct tui_app *app = ctx;
    const struct tui_diff_row *r = &app->diff_rows[row];
    if (col == DC_MARK) {
        return side_mark(diff_row_side(app, row));
    }
    if (col == DC_NAME) {
        if (!r->is_edge) {
            return tui_app_activity_name(app, r->idx);
        }
        const struct iodfg_diff_edge *e = &app->diff->edges[r->idx];
        snprintf(buf, size, "%s → %s", node_name(app, e->from), node_name(app, e->to));
        return buf;
    }
    double v = diff_value(app, row, col);
    if (col == DC_DELTA) {
        if (v != v) { // NAN: G is 0
            return "–";
        }
        snprintf(buf, size, "%+.0f%%", v * 100.0);
        return buf;
    }
    if (v < 0 || ((col == DC_GCOUNT || col == DC_RCOUNT) && v == 0)) {
        return "–";
    }
    if (col == DC_GDUR || col == DC_RDUR) {
        return v == 0 ? "–" : iodfg_format_duration(buf, size, (int64_t)v, 0);
    }
    return iodfg_format_count(buf, size, (uint64_t)v, 0);
}

static int diff_compare(void *ctx, size_t a, size_t b, int col)
{
    struct tui_app *app = ctx;
    if (col == DC_MARK) {
        return diff_row_side(app, a) - diff_row_side(app, b);
    }
    if (col == DC_NAME) {
        char x[512], y[512];
        return strcmp(diff_cell(ctx, a, col, x, sizeof(x)), diff_cell(ctx, b, col, y, sizeof(y)));
    }
    double x = diff_value(app, a, col), y = diff_value(app, b, col);
    x = x != x ? -1e300 : x;
    y = y != y ? -1e300 : y;
    return cmp_d(x, y);
}

static int diff_style(void *ctx, size_t row, int col)
{
    return col <= DC_NAME ? side_style(diff_row_side(ctx, row)) : -1;
}

static unsigned long long diff_key(void *ctx, size_t row)
{
    struct tui_app *app = ctx;
    if (row >= app->ndiff_rows) {
        return UINT64_MAX;
    }
    const struct tui_diff_row *r = &app->diff_rows[row];
    if (!r->is_edge) {
        return r->idx;
    }
    const struct iodfg_diff_edge *e = &app->diff->edges[r->idx];
    return (1ULL << 63) | ((unsigned long long)e->from << 32) | e->to;
}

static const struct tui_list_ops diff_ops = {diff_rows, diff_cell, diff_compare, diff_style,
                                             diff_key};

/* ---- cases ---- */

static size_t case_rows(void *ctx)
{
    reload_old = 0;
    return ((struct tui_app *)ctx)->ncase_rows;
}

static int64_t case_span(const struct tui_app *app, uint32_t c)
{
    const uint64_t *off = iodfg_eventlog_case_offsets(app->log);
    const struct iodfg_columns *col = iodfg_eventlog_columns(app->log);
    if (off[c] == off[c + 1]) {
        return IODFG_UNKNOWN;
    }
    int64_t end = col->start_ns[off[c]];
    for (uint64_t i = off[c]; i < off[c + 1]; i++) {
        int64_t d = col->dur_ns ? col->dur_ns[i] : 0;
        int64_t e = col->start_ns[i] + (d == IODFG_UNKNOWN ? 0 : d);
        end = e > end ? e : end;
    }
    return end - col->start_ns[off[c]];
}

static const char *case_str(const struct tui_app *app, uint32_t c, int col)
{
    const struct iodfg_case_info *ci = iodfg_eventlog_case(app->log, c);
    const struct iodfg_strpool *pool = iodfg_eventlog_pool(app->log);
    uint32_t id = col == CC_NAME   ? ci->name
                  : col == CC_CID  ? ci->cid
                  : col == CC_HOST ? ci->host
                                   : ci->rid;
    return iodfg_strpool_get(pool, id);
}

/* "G"/"R" for a member of a group, "g"/"r" for a case compared in a group without members
 * of its own (every other case), "" otherwise. */
static const char *case_mark(const struct tui_app *app, uint32_t c)
{
    int explicit = (int)iodfg_session_group_of(app->ses, c), g = tui_app_case_group(app, c);
    if (g == IODFG_GROUP_NONE) {
        return "";
    }
    return g == IODFG_GROUP_G ? (explicit ? "G" : "g") : (explicit ? "R" : "r");
}

static const char *case_cell(void *ctx, size_t row, int col, char *buf, size_t size)
{
    struct tui_app *app = ctx;
    uint32_t c = app->case_rows[row];
    const uint64_t *off = iodfg_eventlog_case_offsets(app->log);
    switch (col) {
    case CC_MARK:
        return case_mark(app, c);
    case CC_EVENTS:
        return iodfg_format_count(buf, size, off[c + 1] - off[c], 0);
    case CC_SPAN:
        return iodfg_format_duration(buf, size, case_span(app, c), 0);
    default:
        return case_str(app, c, col);
    }
}

static int case_compare(void *ctx, size_t a, size_t b, int col)
{
    struct tui_app *app = ctx;
    uint32_t x = app->case_rows[a], y = app->case_rows[b];
    const uint64_t *off = iodfg_eventlog_case_offsets(app->log);
    switch (col) {
    case CC_MARK:
        return strcmp(case_mark(app, x), case_mark(app, y));
    case CC_EVENTS:
        return cmp_u64(off[x + 1] - off[x], off[y + 1] - off[y]);
    case CC_SPAN:
        return cmp_d((double)case_span(app, x), (double)case_span(app, y));
    default:
        return strcmp(case_str(app, x, col), case_str(app, y, col));
    }
}

static int case_style(void *ctx, size_t row, int col)
{
    struct tui_app *app = ctx;
    uint32_t c = app->case_rows[row];
    if (col > CC_NAME) {
        return -1;
    }
    int g = tui_app_case_group(app, c);
    return g == IODFG_GROUP_G ? TUI_STYLE_DIFF_GREEN : g == IODFG_GROUP_R ? TUI_STYLE_DIFF_RED : -1;
}

static unsigned long long case_key(void *ctx, size_t row)
{
    struct tui_app *app = ctx;
    return row < app->ncase_rows ? app->case_rows[row] : UINT64_MAX;
}

static const struct tui_list_ops case_ops = {case_rows, case_cell, case_compare, case_style,
                                             case_key};

/* ---- variants ---- */

static size_t var_rows(void *ctx)
{
    return ((struct tui_app *)ctx)->nvariants;
}

static const char *var_cell(void *ctx, size_t row, int col, char *buf, size_t size)
{
    struct tui_app *app = ctx;
    const struct tui_variant *v = &app->variants[row];
    switch (col) {
    case VC_MARK:
        if (!v->ng && !v->nr) {
            return "";
        }
        snprintf(buf, size, "G%u R%u", v->ng, v->nr);
        return buf;
    case VC_CASES:
        return iodfg_format_count(buf, size, v->ncases, 0);
    case VC_LEN:
        return iodfg_format_count(buf, size, v->length, 0);
    default: {
        const uint32_t *act = iodfg_analysis_activities(app->an);
        const uint32_t *key = iodfg_eventlog_columns(app->log)->key;
        uint64_t lo, hi;
        size_t n = 0;
        buf[0] = '\0';
        if (!iodfg_trace_case_range(app->log, iodfg_analysis_selection(app->an), v->first_case, &lo,
                                    &hi)) {
            return buf;
        }
        for (uint64_t i = lo; i < hi && n + 8 < size; i++) {
            uint32_t a = act[key[i]];
            if (a == IODFG_NO_ACTIVITY) {
                continue;
            }
            int w =
                snprintf(buf + n, size - n, "%s%s", n ? " → " : "", tui_app_activity_name(app, a));
            n = w < 0 || (size_t)w >= size - n ? size - 1 : n + (size_t)w;
        }
        return buf;
    }
    }
}

static int var_compare(void *ctx, size_t a, size_t b, int col)
{
    struct tui_app *app = ctx;
    const struct tui_variant *x = &app->variants[a], *y = &app->variants[b];
    return col == VC_LEN ? cmp_u64(x->length, y->length) : cmp_u64(x->ncases, y->ncases);
}

static const struct tui_list_ops var_ops = {var_rows, var_cell, var_compare, NULL, NULL};

struct var_pair {
    uint64_t hash, length;
    uint32_t c;
};

static int cmp_pair(const void *a, const void *b)
{
    const struct var_pair *x = a, *y = b;
    if (x->hash != y->hash) {
        return x->hash < y->hash ? -1 : 1;
    }
    return x->c < y->c ? -1 : x->c > y->c;
}

uint64_t tui_views_case_variant(const struct tui_app *app, uint32_t c, uint64_t *length)
{
    const uint32_t *act = iodfg_analysis_activities(app->an);
    const uint32_t *key = iodfg_eventlog_columns(app->log)->key;
    uint64_t lo, hi;
    if (!iodfg_trace_case_range(app->log, iodfg_analysis_selection(app->an), c, &lo, &hi)) {
        return length ? (*length = 0) : 0;
    }
    uint64_t h = 1469598103934665603ULL, len = 0; // FNV-1a over the activity sequence
    for (uint64_t i = lo; i < hi; i++) {
        uint32_t a = act[key[i]];
        if (a != IODFG_NO_ACTIVITY) {
            h = (h ^ a) * 1099511628211ULL;
            len++;
        }
    }
    if (length) {
        *length = len;
    }
    return len ? h ^ len : 0;
}

int tui_views_variants(struct tui_app *app)
{
    uint32_t nc = iodfg_eventlog_case_count(app->log);
    struct var_pair *p = malloc(((size_t)nc + 1) * sizeof(*p));
    if (!p) {
        return -1;
    }
    size_t n = 0;
    for (uint32_t c = 0; c < nc; c++) {
        uint64_t len, h = tui_views_case_variant(app, c, &len);
        if (len) {
            p[n++] = (struct var_pair){h, len, c};
        }
    }
    qsort(p, n, sizeof(*p), cmp_pair);
    free(app->variants);
    app->variants = malloc((n + 1) * sizeof(*app->variants));
    app->nvariants = 0;
    for (size_t i = 0; app->variants && i < n; i++) {
        if (i == 0 || p[i].hash != p[i - 1].hash) {
            app->variants[app->nvariants++] =
                (struct tui_variant){p[i].hash, p[i].c, 0, 0, 0, p[i].length};
        }
        struct tui_variant *v = &app->variants[app->nvariants - 1];
        v->ncases++;
        v->ng += tui_app_case_group(app, p[i].c) == IODFG_GROUP_G;
        v->nr += tui_app_case_group(app, p[i].c) == IODFG_GROUP_R;
    }
    free(p);
    if (!app->variants) {
        return -1;
    }
    return tui_listmodel_reload(app->variants_lm);
}

/* ---- setup and reload ---- */

int tui_views_init(struct tui_app *app)
{
    app->lm[TUI_VIEW_ACTIVITIES] = tui_listmodel_new(act_cols, TUI_AC__N, &act_ops, app);
    app->lm[TUI_VIEW_TRANSITIONS] = tui_listmodel_new(edge_cols, EC__N, &edge_ops, app);
    app->lm[TUI_VIEW_DIFF] = tui_listmodel_new(diff_cols, DC__N, &diff_ops, app);
    app->lm[TUI_VIEW_CASES] = tui_listmodel_new(case_cols, CC__N, &case_ops, app);
    app->variants_lm = tui_listmodel_new(var_cols, VC__N, &var_ops, app);
    if (!app->lm[TUI_VIEW_ACTIVITIES] || !app->lm[TUI_VIEW_TRANSITIONS] ||
        !app->lm[TUI_VIEW_DIFF] || !app->lm[TUI_VIEW_CASES] || !app->variants_lm) {
        return -1;
    }
    tui_listmodel_sort(app->lm[TUI_VIEW_ACTIVITIES], TUI_AC_DUR, 0);
    tui_listmodel_sort(app->lm[TUI_VIEW_TRANSITIONS], EC_COUNT, 0);
    tui_listmodel_sort(app->lm[TUI_VIEW_DIFF], DC_GCOUNT, 0);
    tui_listmodel_sort(app->variants_lm, VC_CASES, 0);
    return 0;
}

void tui_views_fini(struct tui_app *app)
{
    for (int i = 0; i < TUI_VIEW_COUNT; i++) {
        tui_listmodel_free(app->lm[i]);
        app->lm[i] = NULL;
    }
    tui_listmodel_free(app->variants_lm);
    free(app->act_rows);
    free(app->edge_rows);
    free(app->diff_rows);
    free(app->case_rows);
    free(app->variants);
    free(app->pred);
    free(app->succ);
    tui_listmodel_free(app->events_lm);
    app->events_lm = NULL;
    tui_app_timeline_free(&app->tl);
}

static int reload_acts(struct tui_app *app)
{
    const struct iodfg_stats *st = iodfg_analysis_stats(app->an);
    uint32_t na = iodfg_analysis_dfg(app->an)->nactivities;
    uint32_t *rows = malloc(((size_t)na + app->nact_rows + 1) * sizeof(*rows));
    if (!rows) {
        return -1;
    }
    uint32_t n = 0;
    for (uint32_t a = 0; a < na && a < st->nactivities; a++) {
        if (st->act[a].count > 0 && app->node_on[a]) {
            rows[n++] = a;
        }
    }
    // the old rows go after the new ones: act_key reads old row r at rows[n + r]
    if (app->nact_rows) {
        memcpy(rows + n, app->act_rows, app->nact_rows * sizeof(*rows));
    }
    free(app->act_rows);
    app->act_rows = rows;
    app->nact_rows = n;
    reload_old = 1;
    int rc = tui_listmodel_reload(app->lm[TUI_VIEW_ACTIVITIES]);
    reload_old = 0;
    return rc;
}

static int reload_edges(struct tui_app *app)
{
    const struct iodfg_dfg *g = iodfg_analysis_dfg(app->an);
    uint32_t *rows = malloc((g->nedges + app->nedge_rows + 1) * sizeof(*rows));
    if (!rows) {
        return -1;
    }
    uint32_t n = 0;
    for (size_t i = 0; i < g->nedges; i++) {
        if (g->edges[i].count > 0 && app->edge_on[i]) {
            rows[n++] = (uint32_t)i;
        }
    }
    if (app->nedge_rows) {
        memcpy(rows + n, app->edge_rows, app->nedge_rows * sizeof(*rows));
    }
    free(app->edge_rows);
    app->edge_rows = rows;
    app->nedge_rows = n;
    reload_old = 1;
    int rc = tui_listmodel_reload(app->lm[TUI_VIEW_TRANSITIONS]);
    reload_old = 0;
    return rc;
}

static int reload_diff(struct tui_app *app)
{
    size_t cap = (app->diff != NULL) ? app->diff->nactivities + app->diff->nedges : 0;
    struct tui_diff_row *rows = malloc((cap + 1) * sizeof(*rows));
    if (!rows) {
        return -1;
    }
    size_t n = 0;
    for (uint32_t a = 0; (app->diff != NULL) && a < app->diff->nactivities; a++) {
        int side = (int)app->diff->nodes[a].side;
        if (side != IODFG_DIFF_NEITHER && (!app->diff_only || side != IODFG_DIFF_BOTH)) {
            rows[n++] = (struct tui_diff_row){0, a};
        }
    }
    for (size_t i = 0; (app->diff != NULL) && i < app->diff->nedges; i++) {
        int side = (int)app->diff->edges[i].side;
        if (side != IODFG_DIFF_NEITHER && (!app->diff_only || side != IODFG_DIFF_BOTH)) {
            rows[n++] = (struct tui_diff_row){1, (uint32_t)i};
        }
    }
    free(app->diff_rows);
    app->diff_rows = rows;
    app->ndiff_rows = n;
    return tui_listmodel_reload(app->lm[TUI_VIEW_DIFF]);
}

static int reload_cases(struct tui_app *app)
{
    uint32_t nc = iodfg_eventlog_case_count(app->log);
    if (!app->case_rows) {
        app->case_rows = malloc(((size_t)nc + 1) * sizeof(uint32_t));
        if (!app->case_rows) {
            return -1;
        }
    }
    const uint8_t *on = iodfg_session_filter_result(app->ses)->case_on;
    uint32_t n = 0;
    for (uint32_t c = 0; c < nc; c++) {
        if (!on || on[c]) {
            app->case_rows[n++] = c;
        }
    }
    app->ncase_rows = n;
    return tui_listmodel_reload(app->lm[TUI_VIEW_CASES]);
}

int tui_views_reload(struct tui_app *app)
{
    if (reload_acts(app) || reload_edges(app) || reload_diff(app) || reload_cases(app)) {
        return -1;
    }
    if (app->show_variants && tui_views_variants(app)) {
        return -1;
    }
    tui_app_graph_update(app);
    app->tl.show_events = 0; // its activity may have changed: back to the chart
    return 0;
}
