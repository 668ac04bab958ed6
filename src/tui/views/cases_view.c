/* SPDX-License-Identifier: MIT */
/* The Cases view (6): the cases the filters keep, with their G/R marks (g and r put the case
 * into a group, Enter filters to it), or (v) the variants: the distinct activity sequences and
 * the cases that follow each (Enter puts them into G, r into R). */
#include "config.h"

#include "tui/views/cases_view.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "iodfg/error.h"
#include "iodfg/eventlog.h"
#include "iodfg/filter.h"
#include "iodfg/format.h"
#include "iodfg/glyph.h"
#include "iodfg/mapping.h"
#include "iodfg/session.h"
#include "iodfg/strpool.h"
#include "iodfg/trace.h"

#include "tui/app.h"
#include "tui/view.h"
#include "tui/viewmodel.h"
#include "tui/views/common.h"

enum { CC_MARK, CC_NAME, CC_CID, CC_HOST, CC_RID, CC_EVENTS, CC_SPAN, CC__N };
static const struct tui_column case_cols[CC__N] = {
    {"G/R", 3, 0, TUI_COL_SORTABLE, "group"},
    {"Case", 20, 0, TUI_COL_SORTABLE | TUI_COL_SEARCH | TUI_COL_FLEX | TUI_COL_NAME, "case"},
    {"cid", 10, 2, TUI_COL_SORTABLE | TUI_COL_SEARCH, "cid"},
    {"host", 10, 3, TUI_COL_SORTABLE | TUI_COL_SEARCH, "host"},
    {"rid", 8, 3, TUI_COL_SORTABLE | TUI_COL_SEARCH, "rid"},
    {"Events", 9, 0, TUI_COL_NUM, "events"},
    {"Span", 9, 1, TUI_COL_NUM, "span_ns"},
};

enum { VC_MARK, VC_CASES, VC_LEN, VC_SEQ, VC__N };
static const struct tui_column var_cols[VC__N] = {
    {"G/R", 9, 0, 0, "groups"},
    {"Cases", 6, 0, TUI_COL_NUM, "cases"},
    {"Length", 7, 0, TUI_COL_NUM, "length"},
    {"Variant (activity sequence)", 20, 0, TUI_COL_SEARCH | TUI_COL_FLEX | TUI_COL_NAME, "variant"},
};

/* ---- the cases table ---- */

static size_t case_rows(void *ctx)
{
    return ((struct tui_cases_view *)ctx)->nrows;
}

static int64_t case_span(const struct tui_app *app, uint32_t c)
{
    const struct iodfg_eventlog *log = tui_app_log(app);
    const uint64_t *off = iodfg_eventlog_case_offsets(log);
    const struct iodfg_columns *col = iodfg_eventlog_columns(log);
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
    const struct iodfg_eventlog *log = tui_app_log(app);
    const struct iodfg_case_info *ci = iodfg_eventlog_case(log, c);
    const struct iodfg_strpool *pool = iodfg_eventlog_pool(log);
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
    int explicit = (int)iodfg_session_group_of(tui_app_session(app), c),
        g = tui_app_case_group(app, c);
    if (g == IODFG_GROUP_NONE) {
        return "";
    }
    return g == IODFG_GROUP_G ? (explicit ? "G" : "g") : (explicit ? "R" : "r");
}

static const char *case_cell(void *ctx, size_t row, int col, char *buf, size_t size)
{
    struct tui_cases_view *cv = ctx;
    uint32_t c = cv->rows[row];
    const uint64_t *off = iodfg_eventlog_case_offsets(tui_app_log(cv->table.app));
    switch (col) {
    case CC_MARK:
        return case_mark(cv->table.app, c);
    case CC_EVENTS:
        return iodfg_format_count(buf, size, off[c + 1] - off[c], 0);
    case CC_SPAN:
        return iodfg_format_duration(buf, size, case_span(cv->table.app, c), 0);
    default:
        return case_str(cv->table.app, c, col);
    }
}

/* Exported: counts and the span in nanoseconds, "" when the case has no events. */
static const char *case_exact(void *ctx, size_t row, int col, char *buf, size_t size)
{
    struct tui_cases_view *cv = ctx;
    uint32_t c = cv->rows[row];
    if (col == CC_EVENTS) {
        const uint64_t *off = iodfg_eventlog_case_offsets(tui_app_log(cv->table.app));
        snprintf(buf, size, "%" PRIu64, off[c + 1] - off[c]);
        return buf;
    }
    if (col == CC_SPAN) {
        int64_t span = case_span(cv->table.app, c);
        if (span == IODFG_UNKNOWN) {
            return "";
        }
        snprintf(buf, size, "%" PRId64, span);
        return buf;
    }
    return case_cell(ctx, row, col, buf, size);
}

static int case_compare(void *ctx, size_t a, size_t b, int col)
{
    struct tui_cases_view *cv = ctx;
    uint32_t x = cv->rows[a], y = cv->rows[b];
    const uint64_t *off = iodfg_eventlog_case_offsets(tui_app_log(cv->table.app));
    switch (col) {
    case CC_MARK:
        return strcmp(case_mark(cv->table.app, x), case_mark(cv->table.app, y));
    case CC_EVENTS:
        return tui_cmp_u64(off[x + 1] - off[x], off[y + 1] - off[y]);
    case CC_SPAN:
        return tui_cmp_double((double)case_span(cv->table.app, x),
                              (double)case_span(cv->table.app, y));
    default:
        return strcmp(case_str(cv->table.app, x, col), case_str(cv->table.app, y, col));
    }
}

static int case_style(void *ctx, size_t row, int col)
{
    struct tui_cases_view *cv = ctx;
    if (col > CC_NAME) {
        return -1;
    }
    int g = tui_app_case_group(cv->table.app, cv->rows[row]);
    return g == IODFG_GROUP_G ? TUI_STYLE_DIFF_GREEN : g == IODFG_GROUP_R ? TUI_STYLE_DIFF_RED : -1;
}

/* The case id read at the row's position (after a reload: of the new rows). */
static unsigned long long case_key(void *ctx, size_t row)
{
    struct tui_cases_view *cv = ctx;
    return row < cv->nrows ? cv->rows[row] : UINT64_MAX;
}

static const struct tui_list_ops case_ops = {case_rows,  case_cell, case_compare,
                                             case_style, case_key,  case_exact};

/* ---- the variants table ---- */

static size_t var_rows(void *ctx)
{
    return ((struct tui_cases_view *)ctx)->nvariants;
}

/* The variant's activity sequence, "a → b → c", as much as fits. */
static const char *sequence(const struct tui_app *app, uint32_t c, char *buf, size_t size)
{
    const struct iodfg_session *ses = tui_app_session(app);
    const struct iodfg_eventlog *log = tui_app_log(app);
    const uint32_t *act = iodfg_session_key_activities(ses);
    const uint32_t *key = iodfg_eventlog_columns(log)->key;
    uint64_t lo, hi;
    size_t n = 0;
    buf[0] = '\0';
    if (!iodfg_trace_case_range(log, iodfg_session_built_selection(ses), c, &lo, &hi)) {
        return buf;
    }
    for (uint64_t i = lo; i < hi && n + 8 < size; i++) {
        uint32_t a = act[key[i]];
        if (a == IODFG_NO_ACTIVITY) {
            continue;
        }
        int w = snprintf(buf + n, size - n, "%s%s", n ? iodfg_glyph_text(" → ") : "",
                         tui_app_activity_name(app, a));
        n = w < 0 || (size_t)w >= size - n ? size - 1 : n + (size_t)w;
    }
    return buf;
}

static const char *var_cell(void *ctx, size_t row, int col, char *buf, size_t size)
{
    struct tui_cases_view *cv = ctx;
    const struct tui_variant *v = &cv->variants[row];
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
    default:
        return sequence(cv->table.app, v->first_case, buf, size);
    }
}

static int var_compare(void *ctx, size_t a, size_t b, int col)
{
    struct tui_cases_view *cv = ctx;
    const struct tui_variant *x = &cv->variants[a], *y = &cv->variants[b];
    return col == VC_LEN ? tui_cmp_u64(x->length, y->length) : tui_cmp_u64(x->ncases, y->ncases);
}

static const struct tui_list_ops var_ops = {var_rows, var_cell, var_compare, NULL, NULL, NULL};

/* The variant (activity-sequence hash) case c follows in the current mapping and selection,
 * and its length in *length (may be NULL); 0 and length 0 when c has no mapped events. */
static uint64_t case_variant(const struct tui_app *app, uint32_t c, uint64_t *length)
{
    const struct iodfg_session *ses = tui_app_session(app);
    const struct iodfg_eventlog *log = tui_app_log(app);
    const uint32_t *act = iodfg_session_key_activities(ses);
    const uint32_t *key = iodfg_eventlog_columns(log)->key;
    uint64_t lo, hi;
    if (!iodfg_trace_case_range(log, iodfg_session_built_selection(ses), c, &lo, &hi)) {
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

/* The variants of the current mapping, with their cases in G and R. 0 or -1. */
static int compute_variants(struct tui_cases_view *cv)
{
    struct tui_app *app = cv->table.app;
    uint32_t nc = iodfg_eventlog_case_count(tui_app_log(app));
    struct var_pair *p = malloc(((size_t)nc + 1) * sizeof(*p));
    if (!p) {
        return -1;
    }
    size_t n = 0;
    for (uint32_t c = 0; c < nc; c++) {
        uint64_t len, h = case_variant(app, c, &len);
        if (len) {
            p[n++] = (struct var_pair){h, len, c};
        }
    }
    qsort(p, n, sizeof(*p), cmp_pair);
    free(cv->variants);
    cv->variants = malloc((n + 1) * sizeof(*cv->variants));
    cv->nvariants = 0;
    for (size_t i = 0; cv->variants && i < n; i++) {
        if (i == 0 || p[i].hash != p[i - 1].hash) {
            cv->variants[cv->nvariants++] =
                (struct tui_variant){p[i].hash, p[i].c, 0, 0, 0, p[i].length};
        }
        struct tui_variant *v = &cv->variants[cv->nvariants - 1];
        v->ncases++;
        v->ng += tui_app_case_group(app, p[i].c) == IODFG_GROUP_G;
        v->nr += tui_app_case_group(app, p[i].c) == IODFG_GROUP_R;
    }
    free(p);
    if (!cv->variants) {
        return -1;
    }
    return tui_listmodel_reload(cv->variants_lm);
}

/* ---- the view ---- */

static void *open_cases(struct tui_app *app)
{
    struct tui_cases_view *cv =
        tui_table_view_new(sizeof(struct tui_cases_view), app, case_cols, CC__N, &case_ops, -1);
    if (!cv) {
        return NULL;
    }
    cv->variants_lm = tui_listmodel_new(var_cols, VC__N, &var_ops, cv);
    if (!cv->variants_lm) {
        tui_table_view_free(cv, NULL);
        return NULL;
    }
    tui_listmodel_sort(cv->variants_lm, VC_CASES, 0);
    return cv;
}

static void close_cases(struct tui_app *app, void *st)
{
    (void)app;
    struct tui_cases_view *cv = st;
    tui_listmodel_free(cv->variants_lm);
    free(cv->variants);
    tui_table_view_free(cv, cv->rows);
}

/* The cases the filters keep (and the variants, when shown). */
static int changed(struct tui_app *app, void *st, const struct iodfg_session_change *what)
{
    (void)what;
    struct tui_cases_view *cv = st;
    uint32_t nc = iodfg_eventlog_case_count(tui_app_log(app));
    if (!cv->rows) {
        cv->rows = malloc(((size_t)nc + 1) * sizeof(uint32_t));
        if (!cv->rows) {
            return -1;
        }
    }
    const uint8_t *on = iodfg_session_filter_result(tui_app_session(app))->case_on;
    uint32_t n = 0;
    for (uint32_t c = 0; c < nc; c++) {
        if (!on || on[c]) {
            cv->rows[n++] = c;
        }
    }
    cv->nrows = n;
    if (tui_listmodel_reload(cv->table.lm)) {
        return -1;
    }
    return cv->show_variants ? compute_variants(cv) : 0;
}

static struct tui_listmodel *table(struct tui_app *app, void *st)
{
    (void)app;
    struct tui_cases_view *cv = st;
    return cv->show_variants ? cv->variants_lm : cv->table.lm;
}

/* Put every case that follows variant v into group. Returns the number of cases. */
static uint32_t group_variant(struct tui_app *app, const struct tui_variant *v,
                              enum iodfg_group group)
{
    uint32_t nc = iodfg_eventlog_case_count(tui_app_log(app)), n = 0;
    for (uint32_t c = 0; c < nc; c++) {
        if (case_variant(app, c, NULL) == v->hash) {
            iodfg_session_group_set(tui_app_session(app), c, group);
            n++;
        }
    }
    return n;
}

static unsigned variant_into(struct tui_app *app, struct tui_cases_view *cv, enum iodfg_group group)
{
    if (cv->nvariants == 0) {
        return TUI_REDRAW;
    }
    struct tui_listmodel *lm = cv->variants_lm;
    struct tui_variant v = cv->variants[tui_listmodel_row(lm, tui_listmodel_cursor(lm))];
    uint32_t n = group_variant(app, &v, group);
    tui_app_set_message(app, 0, "%u cases of this variant into %c", n,
                        group == IODFG_GROUP_G ? 'G' : 'R');
    return TUI_CHANGED;
}

/* g / r: the case under the cursor into the group (out of it when it is there already), or a
 * variant's cases; with no case to select the global handler says where to go. */
static unsigned group(struct tui_app *app, void *st, enum tui_cmd cmd)
{
    struct tui_cases_view *cv = st;
    enum iodfg_group g = cmd == TUI_CMD_GROUP_G ? IODFG_GROUP_G : IODFG_GROUP_R;
    if (cv->show_variants) {
        return variant_into(app, cv, g);
    }
    if (cv->nrows == 0) {
        return TUI_PASS;
    }
    uint32_t c = tui_table_view_cursor_id(cv, cv->rows);
    struct iodfg_session *ses = tui_app_session(app);
    enum iodfg_group now = iodfg_session_group_of(ses, c);
    iodfg_session_group_set(ses, c, now == g ? IODFG_GROUP_NONE : g);
    tui_listmodel_move(cv->table.lm, 1);
    return TUI_CHANGED;
}

/* Enter: a filter on the case's name; on a variant, its cases into G. */
static unsigned enter_row(struct tui_app *app, void *st, enum tui_cmd cmd)
{
    (void)cmd;
    struct tui_cases_view *cv = st;
    if (cv->show_variants) {
        return variant_into(app, cv, IODFG_GROUP_G);
    }
    if (cv->nrows == 0) {
        return TUI_REDRAW;
    }
    uint32_t c = tui_table_view_cursor_id(cv, cv->rows);
    char f[300];
    snprintf(f, sizeof(f), "name=%s", tui_app_case_name(app, c));
    struct iodfg_error err;
    iodfg_error_clear(&err);
    if (iodfg_filter_stack_push_text(iodfg_session_filters(tui_app_session(app)), f, &err)) {
        tui_app_report(app, "filter", &err);
        return TUI_REDRAW;
    }
    return TUI_CHANGED;
}

/* c: the selected case's cid against the rest: its cases into G, and R left to every other
 * case (the rule for a single group), so one key sets up the comparison of two runs. */
static unsigned compare_cid(struct tui_app *app, void *st, enum tui_cmd cmd)
{
    (void)cmd;
    struct tui_cases_view *cv = st;
    if (cv->show_variants || cv->nrows == 0) {
        tui_app_set_message(app, 1, "compare: select a case (v shows the cases)");
        return TUI_REDRAW;
    }
    const struct iodfg_eventlog *log = tui_app_log(app);
    struct iodfg_session *ses = tui_app_session(app);
    uint32_t sel = tui_table_view_cursor_id(cv, cv->rows);
    uint32_t cid = iodfg_eventlog_case(log, sel)->cid, n = 0;
    iodfg_session_groups_clear(ses);
    for (uint32_t c = 0; c < iodfg_eventlog_case_count(log); c++) {
        if (iodfg_eventlog_case(log, c)->cid == cid) {
            iodfg_session_group_set(ses, c, IODFG_GROUP_G);
            n++;
        }
    }
    tui_app_set_message(app, 0, "G = cid %s (%u cases), R = every other case; 5 shows the Diff",
                        iodfg_strpool_get(iodfg_eventlog_pool(log), cid), n);
    return TUI_CHANGED;
}

static unsigned variants(struct tui_app *app, void *st, enum tui_cmd cmd)
{
    (void)cmd;
    struct tui_cases_view *cv = st;
    cv->show_variants = !cv->show_variants;
    if (cv->show_variants && compute_variants(cv)) {
        tui_app_set_message(app, 1, "variants: out of memory");
    }
    return TUI_REDRAW;
}

static const struct tui_cmd_entry cmds[] = {
    {TUI_CMD_GROUP_G, group},         {TUI_CMD_GROUP_R, group},
    {TUI_CMD_SHOW_EVENTS, enter_row}, {TUI_CMD_VARIANTS, variants},
    {TUI_CMD_GROUP_CID, compare_cid},
};

static void render(struct tui_app *app, void *st, const struct tui_render_in *in,
                   struct tui_viewmodel *vm)
{
    vm->table = table(app, st); // the variants when shown
    tui_page_table(&vm->page, 0, 0, in->width, in->height,
                   "nothing to show (check filters and rules)");
}

static size_t detail(struct tui_app *app, void *st, char *buf, size_t size)
{
    return tui_table_detail(table(app, st), buf, size);
}

const struct tui_view_ops tui_view_cases = {
    .open = open_cases,
    .close = close_cases,
    .changed = changed,
    .cmds = cmds,
    .ncmds = sizeof(cmds) / sizeof(cmds[0]),
    .render = render,
    .detail = detail,
    .table = table,
    .sorted = tui_table_view_sorted,
};
