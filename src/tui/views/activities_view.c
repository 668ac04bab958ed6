/* SPDX-License-Identifier: MIT */
/* The Activities view (1): the activities shown, with their statistics, as a sortable table;
 * its cursor is the selected activity that the Graph, Timeline and Characterisation views
 * follow. */
#include "config.h"

#include "tui/views/activities_view.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "iodfg/dfg.h"
#include "iodfg/error.h"
#include "iodfg/eventlog.h"
#include "iodfg/export.h"
#include "iodfg/format.h"
#include "iodfg/glyph.h"
#include "iodfg/mapping.h"
#include "iodfg/session.h"
#include "iodfg/stacks.h"
#include "iodfg/stats.h"
#include "iodfg/strpool.h"

#include "tui/app.h"
#include "tui/listmodel.h"
#include "tui/view.h"
#include "tui/viewmodel.h"
#include "tui/views/common.h"

static const struct tui_column act_cols[TUI_AC__N] = {
    {"G/R", 3, 0, 0, NULL},
    {"Activity", 20, 0, TUI_COL_SORTABLE | TUI_COL_SEARCH | TUI_COL_FLEX | TUI_COL_NAME, NULL},
    {"Count", 8, 0, TUI_COL_NUM, NULL},
    {"Cases", 6, 3, TUI_COL_NUM, NULL},
    {"Σdur", 9, 0, TUI_COL_NUM, NULL},
    {"rd%", 6, 1, TUI_COL_NUM, NULL},
    {"Bytes", 9, 2, TUI_COL_NUM, NULL},
    {"dr̄", 11, 4, TUI_COL_NUM, NULL},
    {"mc", 4, 3, TUI_COL_NUM, NULL},
    {"DR", 11, 5, TUI_COL_NUM, NULL},
};

/* ---- the table ---- */

static size_t act_rows(void *ctx)
{
    return ((struct tui_activities_view *)ctx)->nrows;
}

static const struct iodfg_activity_stats *act_stats(const struct tui_activities_view *av,
                                                    size_t row)
{
    return &iodfg_session_stats(tui_app_session(av->table.app))->act[av->rows[row]];
}

static const char *act_cell(void *ctx, size_t row, int col, char *buf, size_t size)
{
    struct tui_activities_view *av = ctx;
    uint32_t a = av->rows[row];
    const struct iodfg_activity_stats *s = act_stats(av, row);
    switch (col) {
    case TUI_AC_MARK:
        return tui_app_activity_mark(av->table.app, a);
    case TUI_AC_NAME:
        return tui_app_activity_name(av->table.app, a);
    case TUI_AC_COUNT:
        return iodfg_format_count(buf, size, s->count, 0);
    case TUI_AC_CASES:
        return iodfg_format_count(buf, size, s->cases, 0);
    case TUI_AC_DUR:
        return iodfg_format_duration(buf, size, s->dur_sum_ns, 0);
    case TUI_AC_RD:
        return iodfg_format_percent(buf, size, s->rd, 0);
    case TUI_AC_BYTES:
        return s->bytes ? iodfg_format_bytes(buf, size, s->bytes, 0) : iodfg_glyph_text("–");
    case TUI_AC_DRMEAN:
        return s->dr_n ? iodfg_format_rate(buf, size, s->dr_mean, 0) : iodfg_glyph_text("–");
    case TUI_AC_MC:
        return iodfg_format_count(buf, size, s->mc, 0);
    default:
        return s->dr_n ? iodfg_format_rate(buf, size, s->DR, 0) : iodfg_glyph_text("–");
    }
}

/* Under focus app the runtime's folded rows go below the application's (0 while all). */
static int act_group(const struct tui_activities_view *av, size_t row)
{
    const struct iodfg_session *ses = tui_app_session(av->table.app);
    return iodfg_session_focus(ses) == IODFG_FOCUS_APP &&
           iodfg_session_activity_class(ses, av->rows[row]) != 0;
}

static int act_compare(void *ctx, size_t a, size_t b, int col)
{
    struct tui_activities_view *av = ctx;
    const struct iodfg_activity_stats *x = act_stats(av, a), *y = act_stats(av, b);
    int ga = act_group(av, a), gb = act_group(av, b), desc = 0;
    if (ga != gb) { // the application's first in either direction (the table negates for desc)
        tui_listmodel_sort_column(av->table.lm, &desc);
        return (ga < gb ? -1 : 1) * (desc ? -1 : 1);
    }
    switch (col) {
    case TUI_AC_NAME:
        return strcmp(tui_app_activity_name(av->table.app, av->rows[a]),
                      tui_app_activity_name(av->table.app, av->rows[b]));
    case TUI_AC_COUNT:
        return tui_cmp_u64(x->count, y->count);
    case TUI_AC_CASES:
        return tui_cmp_u64(x->cases, y->cases);
    case TUI_AC_DUR:
        return tui_cmp_double((double)x->dur_sum_ns, (double)y->dur_sum_ns);
    case TUI_AC_RD:
        return tui_cmp_double(x->rd, y->rd);
    case TUI_AC_BYTES:
        return tui_cmp_double((double)x->bytes, (double)y->bytes);
    case TUI_AC_DRMEAN:
        return tui_cmp_double(x->dr_mean, y->dr_mean);
    case TUI_AC_MC:
        return tui_cmp_u64(x->mc, y->mc);
    default:
        return tui_cmp_double(x->DR, y->DR);
    }
}

static int act_style(void *ctx, size_t row, int col)
{
    struct tui_activities_view *av = ctx;
    return col <= TUI_AC_NAME ? tui_side_style(iodfg_session_activity_side(
                                    tui_app_session(av->table.app), av->rows[row]))
                              : -1;
}

static unsigned long long act_key(void *ctx, size_t row)
{
    return ((struct tui_activities_view *)ctx)->rows[row];
}

static const struct tui_list_ops act_ops = {act_rows,  act_cell, act_compare,
                                            act_style, act_key,  NULL};

/* ---- the view ---- */

static void *open_activities(struct tui_app *app)
{
    return tui_table_view_new(sizeof(struct tui_activities_view), app, act_cols, TUI_AC__N,
                              &act_ops, TUI_AC_DUR);
}

static void close_activities(struct tui_app *app, void *st)
{
    (void)app;
    iodfg_callsites_fini(&((struct tui_activities_view *)st)->sites);
    tui_table_view_free(st, ((struct tui_activities_view *)st)->rows);
}

/* A strace -k log: each activity's call sites over the selection (a pass over the events). */
static void count_sites(struct tui_app *app, struct tui_activities_view *av)
{
    struct iodfg_session *ses = tui_app_session(app);
    const struct iodfg_eventlog *log = iodfg_session_log(ses);
    iodfg_callsites_fini(&av->sites);
    if (!iodfg_eventlog_stacks(log)) {
        return;
    }
    struct iodfg_error err;
    iodfg_error_clear(&err);
    struct iodfg_selection sel;
    const struct iodfg_focus *f = iodfg_session_focus_rules(ses, &err);
    uint32_t *site = NULL;
    if (f && iodfg_session_selection(ses, IODFG_GROUP_NONE, &sel) == 0 &&
        iodfg_callsites_resolve(f, log, &site, &err) == 0) {
        iodfg_callsites_build(&av->sites, log, iodfg_session_mapping(ses), &sel, site, &err);
    }
    free(site); // without sites the detail line just has none to show
}

/* The activities with events that the pruning keeps; the cursor stays on its activity. */
static int changed(struct tui_app *app, void *st, const struct iodfg_session_change *what)
{
    (void)what;
    struct tui_activities_view *av = st;
    const struct iodfg_session *ses = tui_app_session(app);
    const struct iodfg_stats *stats = iodfg_session_stats(ses);
    const uint8_t *node_on = iodfg_session_node_on(ses);
    uint32_t na = iodfg_dfg_nactivities(iodfg_session_dfg(ses));
    uint32_t *rows = malloc(((size_t)na + 1) * sizeof(*rows));
    if (!rows) {
        return -1;
    }
    uint32_t n = 0;
    for (uint32_t a = 0; a < na && a < stats->nactivities; a++) {
        if (stats->act[a].count > 0 && node_on[a]) {
            rows[n++] = a;
        }
    }
    count_sites(app, av);
    return tui_table_replace(av->table.lm, &av->rows, &av->nrows, rows, n);
}

static uint32_t activity(struct tui_app *app, void *st)
{
    (void)app;
    return tui_table_view_cursor_id(st, ((struct tui_activities_view *)st)->rows);
}

/* Moving the cursor selects another activity: the views that follow it hear so. */
static unsigned move(struct tui_app *app, void *st, enum tui_cmd cmd)
{
    tui_cmd_move_table(((struct tui_activities_view *)st)->table.lm, cmd);
    tui_app_activity_moved(app);
    return TUI_REDRAW;
}

static const struct tui_cmd_entry cmds[] = {
    {TUI_CMD_MOVE_UP, move},   {TUI_CMD_MOVE_DOWN, move},  {TUI_CMD_PAGE_UP, move},
    {TUI_CMD_PAGE_DOWN, move}, {TUI_CMD_MOVE_FIRST, move}, {TUI_CMD_MOVE_LAST, move},
};

/* "   sites: write_header 200 · write_payload 32" for activity a (strace -k logs), the sites
 * by time as the call-site report ranks them. */
static void sites_text(struct tui_app *app, const struct tui_activities_view *av, uint32_t a,
                       char *buf, size_t size)
{
    const struct iodfg_eventlog *log = iodfg_session_log(tui_app_session(app));
    const struct iodfg_stacks *st = iodfg_eventlog_stacks(log);
    const struct iodfg_strpool *pool = iodfg_eventlog_pool(log);
    size_t len = strlen(buf);
    int first = 1;
    for (size_t i = 0; i < av->sites.nrows && len + 1 < size; i++) {
        const struct iodfg_callsite_row *r = &av->sites.rows[i];
        if (r->activity != a) {
            continue;
        }
        const char *name =
            r->site == 0 ? "(no stack)"
            : r->site == IODFG_CALLSITE_RUNTIME
                ? "(runtime)"
                : iodfg_strpool_get(pool, iodfg_stacks_frames(st)[r->site - 1].function);
        // (the screen sanitises the detail line as it draws it)
        snprintf(buf + len, size - len, "%s%.48s %llu",
                 first ? "   sites: " : iodfg_glyph_text(" · "), *name ? name : "?",
                 (unsigned long long)r->calls);
        len += strlen(buf + len);
        first = 0;
    }
}

/* The selected activity's load, data rate, duration percentiles and call sites. */
static size_t detail(struct tui_app *app, void *st, char *buf, size_t size)
{
    uint32_t a = activity(app, st);
    if (a == UINT32_MAX || size == 0) {
        return 0;
    }
    const struct iodfg_activity_stats *s = &iodfg_session_stats(tui_app_session(app))->act[a];
    char b1[32], b2[32], b3[32], b4[32], b5[32];
    snprintf(buf, size, iodfg_glyph_text("%s   Load: %s (%s)   DR: %u × %s   dur p50 %s p95 %s"),
             tui_app_activity_name(app, a), iodfg_format_percent(b1, 32, s->rd, 0),
             s->bytes ? iodfg_format_bytes(b2, 32, s->bytes, 0) : iodfg_glyph_text("–"), s->mc,
             s->dr_n ? iodfg_format_rate(b3, 32, s->dr_mean, 0) : iodfg_glyph_text("–"),
             iodfg_format_duration(b4, 32, s->dur_median_ns, 0),
             iodfg_format_duration(b5, 32, s->dur_p95_ns, 0));
    sites_text(app, st, a, buf, size);
    size_t n = strlen(tui_app_activity_name(app, a));
    return n < size ? n : size - 1;
}

static int export_rows(struct tui_app *app, const uint32_t *order, size_t n, struct iodfg_buf *out,
                       struct iodfg_error *err)
{
    const struct iodfg_session *ses = tui_app_session(app);
    return iodfg_export_tsv_activities(out, iodfg_session_stats(ses), iodfg_session_mapping(ses),
                                       order, n, err);
}

/* Exact values in base units from the engine's exporter, in the table's order. */
static int export_tsv(struct tui_app *app, void *st, struct iodfg_buf *out, struct iodfg_error *err)
{
    (void)app;
    return tui_table_view_export(st, ((struct tui_activities_view *)st)->rows, export_rows, out,
                                 err);
}

const struct tui_view_ops tui_view_activities = {
    .open = open_activities,
    .close = close_activities,
    .changed = changed,
    .cmds = cmds,
    .ncmds = sizeof(cmds) / sizeof(cmds[0]),
    .render = tui_table_view_render,
    .detail = detail,
    .table = tui_table_view_table,
    .sorted = tui_table_view_table,
    .activity = activity,
    .export_tsv = export_tsv,
};
