/* SPDX-License-Identifier: MIT */
/* The Call sites view (L): which function of the traced program issued the I/O, from the
 * strace -k stacks of the log: per activity each call site ranked by time, with file:line, the
 * rows of `iodfg callsites` (the engine counts them, the report names them). Enter filters the
 * session to the site (site~^NAME$, a filter like any other: Backspace removes it). */
#include "config.h"

#include "tui/views/sites_view.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "iodfg/buf.h"
#include "iodfg/error.h"
#include "iodfg/eventlog.h"
#include "iodfg/filter.h"
#include "iodfg/format.h"
#include "iodfg/glyph.h"
#include "iodfg/mapping.h"
#include "iodfg/rules.h"
#include "iodfg/session.h"
#include "iodfg/srcline.h"
#include "iodfg/stacks.h"

#include "tui/app.h"
#include "tui/listmodel.h"
#include "tui/theme.h"
#include "tui/view.h"
#include "tui/viewmodel.h"

#define NUM (TUI_COL_RIGHT | TUI_COL_SORTABLE | TUI_COL_DESC)
#define TXT (TUI_COL_SORTABLE | TUI_COL_SEARCH)

static const struct tui_column site_cols[TUI_SC__N] = {
    {"G", 6, 6, TUI_COL_SORTABLE, "group"},
    {"Activity", 14, 0, TXT | TUI_COL_FLEX | TUI_COL_NAME, "activity"},
    {"Call site", 14, 0, TXT | TUI_COL_FLEX | TUI_COL_NAME, "site"},
    {"File:line", 14, 2, TXT, "file_line"},
    {"Calls", 6, 0, NUM, "calls"},
    {"Time", 8, 0, NUM, "dur_sum"},
    {"Bytes", 8, 1, NUM, "bytes"},
    {"Cases", 5, 3, NUM, "cases"},
    {"Object", 12, 4, TXT | TUI_COL_FLEX | TUI_COL_NAME, "object"},
};

static const struct iodfg_callsite_row *row_of(const struct tui_sites_view *sv, size_t row)
{
    return &sv->cs[sv->rows[row].g].rows[sv->rows[row].i];
}

/* ---- the table ---- */

static size_t site_rows(void *ctx)
{
    return ((struct tui_sites_view *)ctx)->nrows;
}

static const char *site_cell(void *ctx, size_t row, int col, char *buf, size_t size)
{
    struct tui_sites_view *sv = ctx;
    const struct iodfg_callsite_row *r = row_of(sv, row);
    switch (col) {
    case TUI_SC_GROUP:
        return iodfg_report_site_group(&sv->rep, (int)sv->rows[row].g, r);
    case TUI_SC_ACTIVITY:
        return iodfg_mapping_name(sv->rep.map, r->activity);
    case TUI_SC_SITE:
        return iodfg_report_site_name(sv->rep.log, r->site, buf, size);
    case TUI_SC_LINE:
        return iodfg_report_site_line(&sv->rep, r->site, buf, size);
    case TUI_SC_CALLS:
        return iodfg_format_count(buf, size, r->calls, 0);
    case TUI_SC_TIME:
        return iodfg_format_duration(buf, size, r->dur_ns, 0);
    case TUI_SC_BYTES:
        return r->bytes ? iodfg_format_bytes(buf, size, r->bytes, 0) : iodfg_glyph_text("–");
    case TUI_SC_CASES:
        return iodfg_format_count(buf, size, r->cases, 0);
    default:
        return iodfg_report_site_object(sv->rep.log, r->site);
    }
}

/* Exported: plain counts, time in ns and bytes. */
static const char *site_exact(void *ctx, size_t row, int col, char *buf, size_t size)
{
    const struct iodfg_callsite_row *r = row_of(ctx, row);
    switch (col) {
    case TUI_SC_CALLS:
        snprintf(buf, size, "%" PRIu64, r->calls);
        return buf;
    case TUI_SC_TIME:
        snprintf(buf, size, "%" PRId64, r->dur_ns);
        return buf;
    case TUI_SC_BYTES:
        snprintf(buf, size, "%" PRId64, r->bytes);
        return buf;
    case TUI_SC_CASES:
        snprintf(buf, size, "%" PRIu32, r->cases);
        return buf;
    default:
        return site_cell(ctx, row, col, buf, size);
    }
}

static int cmp_u64(uint64_t a, uint64_t b)
{
    return (a > b) - (a < b);
}

static int site_compare(void *ctx, size_t a, size_t b, int col)
{
    const struct iodfg_callsite_row *x = row_of(ctx, a), *y = row_of(ctx, b);
    switch (col) {
    case TUI_SC_CALLS:
        return cmp_u64(x->calls, y->calls);
    case TUI_SC_TIME:
        return (x->dur_ns > y->dur_ns) - (x->dur_ns < y->dur_ns);
    case TUI_SC_BYTES:
        return (x->bytes > y->bytes) - (x->bytes < y->bytes);
    case TUI_SC_CASES:
        return cmp_u64(x->cases, y->cases);
    default: {
        char bx[4200], by[4200];
        return strcmp(site_cell(ctx, a, col, bx, sizeof(bx)),
                      site_cell(ctx, b, col, by, sizeof(by)));
    }
    }
}

static int site_style(void *ctx, size_t row, int col)
{
    struct tui_sites_view *sv = ctx;
    if (col != TUI_SC_GROUP || sv->rep.ngroups != 2) {
        return -1;
    }
    return sv->rows[row].g ? TUI_STYLE_DIFF_RED : TUI_STYLE_DIFF_GREEN;
}

/* (group, activity, site): the cursor stays on its site across sorts and rebuilds. */
static unsigned long long site_key(void *ctx, size_t row)
{
    struct tui_sites_view *sv = ctx;
    const struct iodfg_callsite_row *r = row_of(sv, row);
    return (unsigned long long)sv->rows[row].g << 63 | (unsigned long long)r->activity << 32 |
           r->site;
}

static const struct tui_list_ops site_ops = {site_rows,  site_cell, site_compare,
                                             site_style, site_key,  site_exact};

/* ---- filling ---- */

/* file:line of the sites of cs that have none looked up yet (an object is opened once). */
static int find_lines(struct tui_sites_view *sv, const struct iodfg_eventlog *log)
{
    uint32_t nf = iodfg_stacks_frame_count(iodfg_eventlog_stacks(log));
    if (!sv->src && !(sv->src = calloc((size_t)nf + 1, sizeof(*sv->src)))) {
        return -1;
    }
    if (!sv->sl && !(sv->sl = iodfg_srcline_new(NULL))) {
        return -1;
    }
    for (int g = 0; g < 2; g++) {
        for (size_t i = 0; i < sv->cs[g].nrows; i++) {
            uint32_t s = sv->cs[g].rows[i].site;
            struct iodfg_report_srcline *src = &sv->src[s];
            if (s == 0 || s > nf || src->file || src->line < 0) {
                continue;
            }
            if (!iodfg_srcline_frame(sv->sl, log, s, &src->file, &src->line)) {
                src->line = -1; // looked up: unknown
            }
        }
    }
    return 0;
}

/* The sites of the selection (of G and R when they are compared). 0, or -1 with err. */
static int count(struct tui_sites_view *sv, struct iodfg_error *err)
{
    struct iodfg_session *ses = tui_app_session(sv->table.app);
    const struct iodfg_eventlog *log = iodfg_session_log(ses);
    const struct iodfg_focus *focus = iodfg_session_focus_rules(ses, err);
    int ng = iodfg_session_diff(ses) ? 2 : 1;
    uint32_t *site = NULL;
    int rc = !focus || iodfg_callsites_resolve(focus, log, &site, err) ? -1 : 0;
    for (int g = 0; rc == 0 && g < ng; g++) {
        struct iodfg_selection sel;
        enum iodfg_group group = ng == 1 ? IODFG_GROUP_NONE : g ? IODFG_GROUP_R : IODFG_GROUP_G;
        if (iodfg_session_selection(ses, group, &sel)) {
            rc = iodfg_error_set(err, IODFG_E_ARG, "no such group");
        } else {
            rc =
                iodfg_callsites_build(&sv->cs[g], log, iodfg_session_mapping(ses), &sel, site, err);
        }
    }
    free(site);
    if (rc == 0 && find_lines(sv, log)) {
        rc = iodfg_error_set(err, IODFG_E_NOMEM, NULL);
    }
    sv->rep = (struct iodfg_report_callsites){.log = log,
                                              .map = iodfg_session_mapping(ses),
                                              .cs = {&sv->cs[0], &sv->cs[1]},
                                              .ngroups = ng,
                                              .src = sv->src,
                                              .libdw = iodfg_srcline_available()};
    return rc ? -1 : 0;
}

/* The rows shown: every row, or the selected activity's. 0, or -1 when out of memory. */
static int pick(struct tui_sites_view *sv)
{
    uint32_t a = tui_app_selected_activity(sv->table.app);
    size_t n = sv->cs[0].nrows + sv->cs[1].nrows;
    if (n > sv->cap) {
        struct tui_site_row *r = realloc(sv->rows, n * sizeof(*r));
        if (!r) {
            return -1;
        }
        sv->rows = r;
        sv->cap = n;
    }
    sv->nrows = 0;
    for (uint32_t g = 0; g < 2; g++) {
        for (size_t i = 0; i < sv->cs[g].nrows; i++) {
            if (!sv->one || sv->cs[g].rows[i].activity == a) {
                sv->rows[sv->nrows++] = (struct tui_site_row){g, (uint32_t)i};
            }
        }
    }
    return 0;
}

static int refill(void *st)
{
    struct tui_sites_view *sv = st;
    struct tui_app *app = sv->table.app;
    int have;
    unsigned long long key = tui_listmodel_cursor_key(sv->table.lm, &have);
    iodfg_callsites_fini(&sv->cs[0]);
    iodfg_callsites_fini(&sv->cs[1]);
    sv->nrows = 0;
    sv->error[0] = '\0';
    sv->table.stale = 0;
    sv->stacks = iodfg_eventlog_stacks(iodfg_session_log(tui_app_session(app))) != NULL;
    struct iodfg_error err;
    iodfg_error_clear(&err);
    if (sv->stacks && count(sv, &err)) {
        iodfg_error_format(&err, sv->error, sizeof(sv->error));
        iodfg_callsites_fini(&sv->cs[0]);
        iodfg_callsites_fini(&sv->cs[1]);
    }
    if (pick(sv)) {
        return -1;
    }
    return tui_listmodel_reload_at(sv->table.lm, have, key);
}

/* ---- the view ---- */

static void *open_sites(struct tui_app *app)
{
    struct tui_sites_view *sv =
        tui_table_view_new(sizeof(*sv), app, site_cols, TUI_SC__N, &site_ops, TUI_SC_TIME);
    if (!sv) {
        return NULL;
    }
    tui_table_view_lazy(sv, TUI_VIEW_SITES, refill);
    iodfg_callsites_init(&sv->cs[0]);
    iodfg_callsites_init(&sv->cs[1]);
    sv->rep.cs[0] = &sv->cs[0];
    sv->rep.cs[1] = &sv->cs[1];
    sv->rep.ngroups = 1;
    return sv;
}

static void close_sites(struct tui_app *app, void *st)
{
    (void)app;
    struct tui_sites_view *sv = st;
    iodfg_callsites_fini(&sv->cs[0]);
    iodfg_callsites_fini(&sv->cs[1]);
    iodfg_srcline_free(sv->sl); // the files of src live in it
    free(sv->src);
    tui_table_view_free(sv, sv->rows);
}

/* With the selected activity only, its rows follow the Activities cursor. */
static void activity_moved(struct tui_app *app, void *st)
{
    struct tui_sites_view *sv = st;
    if (!sv->one || sv->table.stale) {
        return;
    }
    int have;
    unsigned long long key = tui_listmodel_cursor_key(sv->table.lm, &have);
    if (pick(sv) || tui_listmodel_reload_at(sv->table.lm, have, key)) {
        tui_app_set_message(app, 1, "sites: out of memory");
    }
}

int tui_sites_view_selected(struct tui_app *app, const struct iodfg_callsite_row **row, int *group)
{
    struct tui_sites_view *sv = tui_app_view_state(app, TUI_VIEW_SITES);
    size_t r;
    if (!sv || !tui_table_view_cursor(sv, &r)) {
        return 0;
    }
    *row = row_of(sv, r);
    *group = (int)sv->rows[r].g;
    return 1;
}

static unsigned sites_one(struct tui_app *app, void *st, enum tui_cmd cmd)
{
    (void)cmd;
    struct tui_sites_view *sv = st;
    sv->one = !sv->one;
    activity_moved(app, st);
    if (!sv->one && !sv->table.stale && (pick(sv) || tui_listmodel_reload_at(sv->table.lm, 0, 0))) {
        tui_app_set_message(app, 1, "sites: out of memory");
    }
    return TUI_REDRAW;
}

/* Enter: a filter on the cursor's site (site~^NAME$; the events without a site of the program
 * have an empty one), composed with the others. */
static unsigned filter_site(struct tui_app *app, void *st, enum tui_cmd cmd)
{
    (void)cmd;
    struct tui_sites_view *sv = st;
    size_t r;
    if (!tui_table_view_cursor(sv, &r)) {
        return TUI_PASS;
    }
    const struct iodfg_callsite_row *row = row_of(sv, r);
    int none = row->site == 0 || row->site == IODFG_CALLSITE_RUNTIME;
    char buf[96];
    const char *name = none ? "" : iodfg_report_site_name(sv->rep.log, row->site, buf, sizeof(buf));
    struct iodfg_buf f;
    iodfg_buf_init(&f);
    iodfg_buf_addf(&f, "site~^");
    iodfg_rules_quote_regex(name, strlen(name), &f);
    iodfg_buf_addf(&f, "$");
    struct iodfg_error err;
    iodfg_error_clear(&err);
    int rc = f.failed ? iodfg_error_set(&err, IODFG_E_NOMEM, NULL)
                      : iodfg_filter_stack_push_text(iodfg_session_filters(tui_app_session(app)),
                                                     f.data, &err);
    iodfg_buf_fini(&f);
    if (rc) {
        tui_app_report(app, "filter", &err);
        return TUI_REDRAW;
    }
    if (none) {
        tui_app_set_message(app, 0,
                            "filtered to the events without a call site of the program "
                            "(Backspace removes it)");
    } else {
        tui_app_set_message(app, 0, "filtered to call site %.64s (Backspace removes it)", name);
    }
    return TUI_CHANGED; // a rebuild's error replaces the message
}

static const struct tui_cmd_entry cmds[] = {
    {TUI_CMD_FILTER_SITE, filter_site},
    {TUI_CMD_SITES_ONE, sites_one},
};

/* ---- lines ---- */

/* "write_header   callsites.c:22 in /home/u/prog   write:/tmp/x   Enter filters to this site"
 * (unknown lines: the call's address instead; with groups, "G only" and the like first). */
static size_t detail(struct tui_app *app, void *st, char *buf, size_t size)
{
    (void)app;
    struct tui_sites_view *sv = st;
    size_t r;
    if (size == 0 || !tui_table_view_cursor(sv, &r)) {
        snprintf(buf, size, "%s", sv->stacks ? "" : "no call stacks in this log");
        return 0;
    }
    const struct iodfg_callsite_row *row = row_of(sv, r);
    char nb[96], lb[4200], at[48] = "";
    const char *name = iodfg_report_site_name(sv->rep.log, row->site, nb, sizeof(nb));
    const char *obj = iodfg_report_site_object(sv->rep.log, row->site);
    const char *where = "";
    if (*obj && sv->src[row->site].file) {
        where = iodfg_report_site_line(&sv->rep, row->site, lb, sizeof(lb));
    } else if (*obj) { // sites of one function differ by their call's address
        const struct iodfg_frame *f =
            &iodfg_stacks_frames(iodfg_eventlog_stacks(sv->rep.log))[row->site - 1];
        snprintf(at, sizeof(at), "file:line unknown at 0x%" PRIx64, f->address);
        where = at;
    }
    int n = snprintf(buf, size, "%s   ", name);
    size_t name_len = n > 3 ? (size_t)n - 3 : 0;
    if (n >= 0 && (size_t)n < size) {
        const char *g = iodfg_report_site_group(&sv->rep, (int)sv->rows[r].g, row);
        snprintf(buf + n, size - (size_t)n, "%s%s%s%s%s   %s   Enter filters to this site", g,
                 *g ? "   " : "", where, *obj ? " in " : "", obj,
                 iodfg_mapping_name(sv->rep.map, row->activity));
    }
    return name_len < size ? name_len : size - 1;
}

/* "all activities (a: one) · 336 events, 336 with a stack, 300 with a call site" (G: and R:
 * with groups); "only ACTIVITY (a: all) · ..." with one. */
static void header(const struct tui_sites_view *sv, uint32_t a, char *buf, size_t size)
{
    int w = snprintf(buf, size, "%s%s (a: %s)", sv->one ? "only " : "all activities",
                     sv->one && a != UINT32_MAX ? iodfg_mapping_name(sv->rep.map, a) : "",
                     sv->one ? "all" : "one");
    size_t n = w < 0 ? size : (size_t)w;
    for (int g = 0; g < sv->rep.ngroups && n < size; g++) {
        const struct iodfg_callsites *cs = &sv->cs[g];
        w = snprintf(buf + n, size - n,
                     iodfg_glyph_text(" · %s%" PRIu64 " events, %" PRIu64 " with a stack, %" PRIu64
                                      " with a call site"),
                     sv->rep.ngroups == 2 ? (g ? "R: " : "G: ") : "", cs->events, cs->with_stack,
                     cs->with_site);
        n = w < 0 ? size : n + (size_t)w;
    }
}

static void render(struct tui_app *app, void *st, const struct tui_render_in *in,
                   struct tui_viewmodel *vm)
{
    struct tui_sites_view *sv = st;
    vm->table = tui_table_view_table(app, st); // refills stale rows first
    if (!sv->stacks) {
        tui_page_text(&vm->page, 0, 1, in->width - 2, TUI_STYLE_DETAIL,
                      "this log has no call stacks: record with strace -f -k ...");
        tui_page_text(&vm->page, 2, 1, in->width - 2, TUI_STYLE_NORMAL,
                      "strace -f -k -tt -T -y -o run.st PROGRAM  (strace with libdw or libunwind;");
        tui_page_text(&vm->page, 3, 1, in->width - 2, TUI_STYLE_NORMAL,
                      "build PROGRAM with -g for file:line)  then: iodfg tui run.st");
        vm->table = NULL;
        return;
    }
    char head[512];
    if (sv->error[0]) {
        snprintf(head, sizeof(head), "sites: %s", sv->error);
    } else {
        header(sv, tui_app_selected_activity(app), head, sizeof(head));
    }
    tui_page_text(&vm->page, 0, 1, in->width - 2, sv->error[0] ? TUI_STYLE_ERROR : TUI_STYLE_DETAIL,
                  head);
    tui_page_table(&vm->page, 1, 0, in->width, in->height - 1,
                   sv->one ? "the selected activity has no events here (a shows all)"
                           : "no events in the selection (check filters and rules)");
}

const struct tui_view_ops tui_view_sites = {
    .open = open_sites,
    .close = close_sites,
    .changed = tui_table_view_changed,
    .activity_moved = activity_moved,
    .cmds = cmds,
    .ncmds = sizeof(cmds) / sizeof(cmds[0]),
    .render = render,
    .detail = detail,
    .table = tui_table_view_table,
    .sorted = tui_table_view_sorted,
};
