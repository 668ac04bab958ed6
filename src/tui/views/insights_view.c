/* SPDX-License-Identifier: MIT */
/* The Insights view (i): the automatic findings of the selection (iodfg/insights.h), ranked
 * by severity and impact, with the selected finding's numbers, evidence and advice below the
 * table; with groups, G's and R's findings marked G+, R+, changed or = as `iodfg insights`
 * compares them. Judged again after every rebuild (when shown); Enter jumps to the evidence
 * (insights_jump.c). */
#include "config.h"

#include "tui/views/insights_view.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "iodfg/diff.h"
#include "iodfg/error.h"
#include "iodfg/format.h"
#include "iodfg/glyph.h"
#include "iodfg/mapping.h"
#include "iodfg/session.h"
#include "iodfg/strpool.h"

#include "tui/app.h"
#include "tui/listmodel.h"
#include "tui/viewmodel.h"
#include "tui/views/common.h"

enum { COL_MARK, COL_SEV, COL_RULE, COL_IMPACT, COL_FINDING, COL__N };

static const struct tui_column ins_cols[COL__N] = {
    {"G/R", 7, 3, TUI_COL_SORTABLE, "side"},
    {"Severity", 8, 0, TUI_COL_SORTABLE | TUI_COL_DESC, "severity"},
    {"Rule", 14, 0, TUI_COL_SORTABLE | TUI_COL_SEARCH, "rule"},
    {"Impact", 7, 1, TUI_COL_NUM, "impact_share"},
    {"Finding", 20, 0, TUI_COL_SEARCH | TUI_COL_FLEX | TUI_COL_NAME, "finding"},
};

/* The G/R column: the engine's markers of a comparison. */
static const char *mark_text(enum tui_ins_mark m)
{
    switch (m) {
    case TUI_INS_SAME:
        return iodfg_diff_side_mark(IODFG_DIFF_BOTH);
    case TUI_INS_G_ONLY:
        return iodfg_insight_side_mark(IODFG_INS_G_ONLY);
    case TUI_INS_R_ONLY:
        return iodfg_insight_side_mark(IODFG_INS_R_ONLY);
    case TUI_INS_CHANGED:
        return iodfg_insight_side_mark(IODFG_INS_BOTH);
    case TUI_INS_PLAIN:
        break;
    }
    return "";
}

/* ---- the table ---- */

static size_t ins_rows(void *ctx)
{
    return ((struct tui_insights_view *)ctx)->nrows;
}

static const char *subject(const struct tui_insights_view *iv, const struct tui_ins_row *r,
                           char *buf, size_t size)
{
    iodfg_insight_subject_text(r->set, iodfg_session_mapping(tui_app_session(iv->table.app)), r->f,
                               buf, size);
    return buf[0] ? buf : iodfg_insight_rule_title(r->f->rule);
}

static const char *ins_cell(void *ctx, size_t row, int col, char *buf, size_t size)
{
    struct tui_insights_view *iv = ctx;
    const struct tui_ins_row *r = &iv->rows[row];
    switch (col) {
    case COL_MARK:
        return mark_text(r->mark);
    case COL_SEV:
        return iodfg_insight_severity_name(r->f->severity);
    case COL_RULE:
        return iodfg_insight_rule_name(r->f->rule);
    case COL_IMPACT:
        return isfinite(r->f->impact) ? iodfg_format_percent(buf, size, r->f->impact, 0)
                                      : iodfg_glyph_text("–");
    default:
        return subject(iv, r, buf, size);
    }
}

static int ins_compare(void *ctx, size_t a, size_t b, int col)
{
    struct tui_insights_view *iv = ctx;
    const struct iodfg_insight *x = iv->rows[a].f, *y = iv->rows[b].f;
    switch (col) {
    case COL_MARK:
        return (int)iv->rows[a].mark - (int)iv->rows[b].mark;
    case COL_SEV:
        return (int)x->severity - (int)y->severity;
    case COL_IMPACT:
        return tui_cmp_double(isfinite(x->impact) ? x->impact : -1,
                              isfinite(y->impact) ? y->impact : -1);
    default: {
        char bx[512], by[512];
        return strcmp(ins_cell(ctx, a, col, bx, sizeof(bx)), ins_cell(ctx, b, col, by, sizeof(by)));
    }
    }
}

static int ins_style(void *ctx, size_t row, int col)
{
    struct tui_insights_view *iv = ctx;
    const struct tui_ins_row *r = &iv->rows[row];
    if (col == COL_MARK) {
        return r->mark == TUI_INS_G_ONLY   ? TUI_STYLE_DIFF_GREEN
               : r->mark == TUI_INS_R_ONLY ? TUI_STYLE_DIFF_RED
                                           : -1;
    }
    return col == COL_SEV && r->f->severity == IODFG_SEV_HIGH ? TUI_STYLE_WARNING : -1;
}

/* The rank: the cursor stays on the same place in the ranking across a rebuild. */
static unsigned long long ins_key(void *ctx, size_t row)
{
    (void)ctx;
    return row;
}

/* Exported: the impact as a share from 0 to 1 ("" when unknown), the rest as shown. */
static const char *ins_exact(void *ctx, size_t row, int col, char *buf, size_t size)
{
    struct tui_insights_view *iv = ctx;
    double v = iv->rows[row].f->impact;
    if (col != COL_IMPACT) {
        return ins_cell(ctx, row, col, buf, size);
    }
    if (!isfinite(v)) {
        return "";
    }
    snprintf(buf, size, "%.6f", v);
    return buf;
}

static const struct tui_list_ops ins_ops = {ins_rows,  ins_cell, ins_compare,
                                            ins_style, ins_key,  ins_exact};

/* ---- judging ---- */

static void clear(struct tui_insights_view *iv)
{
    iodfg_insights_fini(&iv->ins[0]);
    iodfg_insights_fini(&iv->ins[1]);
    iodfg_insights_init(&iv->ins[0]);
    iodfg_insights_init(&iv->ins[1]);
    free(iv->ch);
    free(iv->rows);
    iv->ch = NULL;
    iv->rows = NULL;
    iv->nch = 0;
    iv->nrows = 0;
    iv->compared = 0;
}

static const struct iodfg_insight_change *change_of(const struct tui_insights_view *iv,
                                                    const struct iodfg_insight *f, int g)
{
    for (size_t i = 0; i < iv->nch; i++) {
        if ((g ? iv->ch[i].g : iv->ch[i].r) == f) {
            return &iv->ch[i];
        }
    }
    return NULL;
}

/* The rows: every finding of G (or of the selection) in rank order, then R's own. */
static int fill_rows(struct tui_insights_view *iv)
{
    size_t n = iv->ins[0].n + iv->ins[1].n;
    iv->rows = calloc(n + 1, sizeof(*iv->rows));
    if (!iv->rows) {
        return -1;
    }
    for (size_t i = 0; i < iv->ins[0].n; i++) {
        struct tui_ins_row *r = &iv->rows[iv->nrows++];
        r->f = &iv->ins[0].v[i];
        r->set = &iv->ins[0];
        const struct iodfg_insight_change *c = iv->compared ? change_of(iv, r->f, 1) : NULL;
        r->mark = !iv->compared ? TUI_INS_PLAIN
                  : !c          ? TUI_INS_SAME
                  : c->r        ? TUI_INS_CHANGED
                                : TUI_INS_G_ONLY;
        r->other = c ? c->r : NULL;
    }
    for (size_t i = 0; iv->compared && i < iv->ins[1].n; i++) {
        const struct iodfg_insight_change *c = change_of(iv, &iv->ins[1].v[i], 0);
        if (c && c->side == IODFG_INS_R_ONLY) {
            iv->rows[iv->nrows++] = (struct tui_ins_row){c->r, &iv->ins[1], NULL, TUI_INS_R_ONLY};
        }
    }
    return 0;
}

/* Judge the findings of the session's current results, through the session. */
static int judge(void *st)
{
    struct tui_insights_view *iv = st;
    struct tui_app *app = iv->table.app;
    struct iodfg_session *ses = tui_app_session(app);
    clear(iv);
    iv->error[0] = '\0';
    const struct iodfg_insight_thresholds *t = tui_app_insight_thresholds(app);
    struct iodfg_error err;
    iodfg_error_clear(&err);
    iv->compared = iodfg_session_diff(ses) != NULL;
    int rc = 0;
    for (int g = 0; rc == 0 && g < 1 + iv->compared; g++) {
        int group = iv->compared ? (g ? IODFG_GROUP_R : IODFG_GROUP_G) : IODFG_GROUP_NONE;
        rc = iodfg_insights_session(&iv->ins[g], ses, group, t, NULL, &err);
    }
    if (rc == 0 && iv->compared) {
        rc = iodfg_insights_compare(&iv->ins[0], &iv->ins[1], iodfg_session_mapping(ses), &iv->ch,
                                    &iv->nch, &err);
    }
    if (rc == 0 && fill_rows(iv)) {
        rc = iodfg_error_set(&err, IODFG_E_NOMEM, NULL);
    }
    if (rc) {
        iodfg_error_format(&err, iv->error, sizeof(iv->error));
        clear(iv);
    }
    iv->table.stale = 0;
    int have;
    unsigned long long key = tui_listmodel_cursor_key(iv->table.lm, &have);
    return tui_listmodel_reload_at(iv->table.lm, have, key);
}

/* ---- the view ---- */

static void *open_insights(struct tui_app *app)
{
    struct tui_insights_view *iv =
        tui_table_view_new(sizeof(struct tui_insights_view), app, ins_cols, COL__N, &ins_ops, -1);
    if (!iv) {
        return NULL;
    }
    tui_table_view_lazy(iv, TUI_VIEW_INSIGHTS, judge);
    iodfg_insights_init(&iv->ins[0]);
    iodfg_insights_init(&iv->ins[1]);
    return iv;
}

static void close_insights(struct tui_app *app, void *st)
{
    (void)app;
    struct tui_insights_view *iv = st;
    clear(iv);
    iodfg_insights_fini(&iv->ins[0]);
    iodfg_insights_fini(&iv->ins[1]);
    tui_insights_jumps_free(iv);
    tui_table_view_free(iv, NULL);
}

const struct tui_ins_row *tui_insights_selected(struct tui_insights_view *iv)
{
    size_t row;
    return tui_table_view_cursor(iv, &row) ? &iv->rows[row] : NULL;
}

static unsigned jump(struct tui_app *app, void *st, enum tui_cmd cmd)
{
    (void)cmd;
    const struct tui_ins_row *r = tui_insights_selected(st);
    if (!r) {
        tui_app_set_message(app, 1, "jump: no finding selected");
        return TUI_REDRAW;
    }
    return tui_insights_jump(app, st, r);
}

static uint32_t selected_activity(struct tui_app *app, void *st)
{
    (void)app;
    const struct tui_ins_row *r = tui_insights_selected(st);
    if (!r) {
        return UINT32_MAX;
    }
    int subj = r->f->subject_kind == IODFG_SUBJ_ACTIVITY || r->f->subject_kind == IODFG_SUBJ_EDGE;
    return subj ? r->f->subject : r->f->nact ? r->f->act[0] : UINT32_MAX;
}

static const struct tui_cmd_entry cmds[] = {
    {TUI_CMD_JUMP, jump},
};

/* ---- the finding's lines ---- */

/* "label: a, b, c (N in all)" */
static void list_line(struct tui_page *pg, int *y, int w, const char *label,
                      const char *const *items, uint32_t n, uint32_t total)
{
    if (n == 0) {
        return;
    }
    char line[2048];
    size_t k = (size_t)snprintf(line, sizeof(line), "%-12s", label);
    for (uint32_t i = 0; i < n && k < sizeof(line); i++) {
        k += (size_t)snprintf(line + k, sizeof(line) - k, "%s%s", i ? ", " : "", items[i]);
    }
    if (total > n && k < sizeof(line)) {
        snprintf(line + k, sizeof(line) - k, " (%u in all)", total);
    }
    tui_page_text(pg, (*y)++, 1, w - 2, TUI_STYLE_NORMAL, line);
}

static void numbers_line(struct tui_page *pg, int *y, int w, const struct iodfg_insight *f)
{
    char line[1024];
    size_t k = (size_t)snprintf(line, sizeof(line), "%-12s", "numbers:");
    for (uint32_t i = 0; i < f->nnum && k < sizeof(line); i++) {
        double v = f->num[i].value;
        const char *sep = i ? "  " : "", *name = f->num[i].name;
        if (!isfinite(v)) {
            k += (size_t)snprintf(line + k, sizeof(line) - k, "%s%s unknown", sep, name);
        } else if (v == floor(v) && fabs(v) < 1e15) { // counts, bytes, nanoseconds
            k += (size_t)snprintf(line + k, sizeof(line) - k, "%s%s %.0f", sep, name, v);
        } else {
            k += (size_t)snprintf(line + k, sizeof(line) - k, "%s%s %.4g", sep, name, v);
        }
    }
    tui_page_text(pg, (*y)++, 1, w - 2, TUI_STYLE_NORMAL, line);
}

static void evidence_lines(struct tui_app *app, const struct tui_ins_row *r, struct tui_page *pg,
                           int *y, int w)
{
    const struct iodfg_insight *f = r->f;
    const char *items[IODFG_INSIGHT_KEEP];
    for (uint32_t i = 0; i < f->nact; i++) {
        items[i] = tui_app_activity_name(app, f->act[i]);
    }
    list_line(pg, y, w, "activities:", items, f->nact, f->act_total);
    for (uint32_t i = 0; i < f->ncases; i++) {
        items[i] = tui_app_case_name(app, f->cases[i]);
    }
    list_line(pg, y, w, "cases:", items, f->ncases, f->cases_total);
    for (uint32_t i = 0; i < f->npaths; i++) {
        items[i] = r->set->pool ? iodfg_strpool_get(r->set->pool, f->paths[i]) : "";
    }
    list_line(pg, y, w, f->rule == IODFG_INS_METADATA ? "dirs:" : "paths:", items, f->npaths,
              f->paths_total);
    if (f->has_window) { // on the log's clock, as `iodfg insights` says it
        char a[80], z[80];
        tui_page_textf(pg, (*y)++, 1, w - 2, TUI_STYLE_NORMAL,
                       iodfg_glyph_text("%-12s%s → %s (%.6f s)"),
                       "window:", iodfg_format_clock(a, sizeof(a), f->clock, f->from_ns, 6),
                       iodfg_format_clock(z, sizeof(z), f->clock, f->to_ns, 6),
                       (double)(f->to_ns - f->from_ns) / 1e9);
    }
}

/* The finding's text (program text) on one line, or broken at a blank onto two when it has
 * more bytes than w columns. */
static void text_lines(struct tui_page *pg, int *y, int w, const char *text)
{
    size_t n = strlen(text), cut = n;
    if (w > 20 && n > (size_t)w) {
        for (cut = (size_t)w; cut > 0 && text[cut] != ' '; cut--) {
        }
        cut = cut ? cut : n; // no blank: one line, clipped (never inside a character)
    }
    char first[sizeof(((struct iodfg_insight *)0)->text)];
    snprintf(first, sizeof(first), "%.*s", (int)cut, text);
    tui_page_text(pg, (*y)++, 1, w, TUI_STYLE_NORMAL, first);
    if (cut < n) {
        tui_page_text(pg, (*y)++, 1, w, TUI_STYLE_NORMAL, text + cut + (text[cut] == ' '));
    }
}

/* The selected finding under the table, from row y down. */
static void finding_lines(struct tui_app *app, const struct tui_ins_row *r, struct tui_page *pg,
                          int y, int w)
{
    const struct iodfg_insight *f = r->f;
    char imp[IODFG_FORMAT_MIN], sev[64];
    snprintf(sev, sizeof(sev), "%s", iodfg_insight_severity_name(f->severity));
    if (r->mark == TUI_INS_CHANGED) {
        snprintf(sev, sizeof(sev), "G %s, R %s", iodfg_insight_severity_name(f->severity),
                 iodfg_insight_severity_name(r->other->severity));
    } else if (r->mark == TUI_INS_G_ONLY || r->mark == TUI_INS_R_ONLY) {
        snprintf(sev, sizeof(sev), "%s, in %c only", iodfg_insight_severity_name(f->severity),
                 r->mark == TUI_INS_G_ONLY ? 'G' : 'R');
    }
    tui_page_textf(pg, y++, 1, w - 2, TUI_STYLE_HEADER, "%s (%s): %s",
                   iodfg_insight_rule_name(f->rule), sev, iodfg_insight_rule_title(f->rule));
    text_lines(pg, &y, w - 2, f->text);
    tui_page_textf(pg, y++, 1, w - 2, TUI_STYLE_NORMAL, "%-12s%s %s", "impact:",
                   isfinite(f->impact) ? iodfg_format_percent(imp, sizeof(imp), f->impact, 0)
                                       : "unknown",
                   iodfg_insight_impact_basis(f->rule));
    numbers_line(pg, &y, w, f);
    evidence_lines(app, r, pg, &y, w);
    tui_page_textf(pg, y++, 1, w - 2, TUI_STYLE_DETAIL, "%-12s%s",
                   "advice:", iodfg_insight_rule_advice(f->rule));
}

static void header(struct tui_insights_view *iv, char *buf, size_t size)
{
    char t[IODFG_FORMAT_MIN];
    const struct iodfg_insights *a = &iv->ins[0];
    if (iv->error[0]) {
        snprintf(buf, size, "insights: %s", iv->error);
    } else if (iv->compared) {
        snprintf(buf, size,
                 iodfg_glyph_text("G: %zu finding(s) over %u case(s) · R: %zu over %u · "
                                  "%zu difference(s)"),
                 a->n, a->cases, iv->ins[1].n, iv->ins[1].cases, iv->nch);
    } else {
        snprintf(buf, size,
                 iodfg_glyph_text("%zu finding(s) over %u case(s), %llu event(s), %s in calls"),
                 a->n, a->cases, (unsigned long long)a->events,
                 iodfg_format_duration(t, sizeof(t), a->call_time_ns, 0));
    }
}

static void render(struct tui_app *app, void *st, const struct tui_render_in *in,
                   struct tui_viewmodel *vm)
{
    struct tui_insights_view *iv = st;
    vm->table = tui_table_view_table(app, st); // judges stale findings first
    char head[512];
    header(iv, head, sizeof(head));
    tui_page_text(&vm->page, 0, 1, in->width - 2, TUI_STYLE_DETAIL, head);
    const struct tui_ins_row *r = tui_insights_selected(iv);
    int lines = r ? 10 : 0;
    int th = in->height - 1 - (lines ? lines + 1 : 0);
    if (th < 3) { // too low for both: the table alone
        th = in->height - 1;
        r = NULL;
    }
    tui_page_table(&vm->page, 1, 0, in->width, th,
                   iv->error[0] ? "no findings (see above)" : "no findings at these thresholds");
    if (r) {
        tui_page_hline(&vm->page, 1 + th, 0, in->width, TUI_STYLE_BORDER);
        finding_lines(app, r, &vm->page, 2 + th, in->width);
    }
}

static size_t detail(struct tui_app *app, void *st, char *buf, size_t size)
{
    const struct tui_ins_row *r = tui_insights_selected(st);
    enum tui_view v = r ? tui_insights_target(r->f) : TUI_VIEW_COUNT;
    (void)app;
    if (v == TUI_VIEW_COUNT) {
        snprintf(buf, size, iodfg_glyph_text("s sort · / search · P rule preset"));
        return 0;
    }
    snprintf(buf, size,
             iodfg_glyph_text("Enter shows the evidence in %c %s · Backspace there comes back · "
                              "P rule preset"),
             tui_view_key(v), tui_view_tab(v));
    return 0;
}

static int back(struct tui_app *app, void *st)
{
    return tui_insights_back(app, st);
}

const struct tui_view_ops tui_view_insights = {
    .open = open_insights,
    .close = close_insights,
    .changed = tui_table_view_changed,
    .cmds = cmds,
    .ncmds = sizeof(cmds) / sizeof(cmds[0]),
    .render = render,
    .detail = detail,
    .table = tui_table_view_table,
    .sorted = tui_table_view_sorted,
    .activity = selected_activity,
    .back = back,
};
