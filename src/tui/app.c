/* SPDX-License-Identifier: MIT */
/* TUI application state: rebuild through the analysis API, pruning thresholds, groups. */
#include "config.h"

#include "tui/app.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "iodfg/analysis.h"
#include "iodfg/buf.h"
#include "iodfg/dfg.h"
#include "iodfg/error.h"
#include "iodfg/eventlog.h"
#include "iodfg/export.h"
#include "iodfg/glyph.h"
#include "iodfg/stats.h"
#include "iodfg/strpool.h"

#include "tui/listmodel.h"

void tui_app_set_message(struct tui_app *app, int error, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(app->message, sizeof(app->message), fmt, ap);
    va_end(ap);
    app->message_error = error;
}

const char *tui_app_activity_name(const struct tui_app *app, uint32_t a)
{
    return iodfg_session_activity_name(app->ses, a);
}

const char *tui_app_activity_mark(const struct tui_app *app, uint32_t a)
{
    return iodfg_diff_side_mark(iodfg_session_activity_side(app->ses, a));
}

const char *tui_app_node_name(const struct tui_app *app, uint32_t node)
{
    if (node == IODFG_NODE_START || node == IODFG_NODE_END) { // in the terminal's characters
        return iodfg_glyph(node == IODFG_NODE_START ? IODFG_GL_START : IODFG_GL_END);
    }
    size_t len;
    return iodfg_export_node_name(app->map, node, &len);
}

const char *tui_app_case_name(const struct tui_app *app, uint32_t c)
{
    return iodfg_session_case_name(app->ses, c);
}

int tui_app_case_group(const struct tui_app *app, uint32_t c)
{
    if (!app->g_on || c >= iodfg_eventlog_case_count(app->log)) {
        return IODFG_GROUP_NONE;
    }
    return app->g_on[c] ? IODFG_GROUP_G : app->r_on[c] ? IODFG_GROUP_R : IODFG_GROUP_NONE;
}

// The session's results, borrowed until the next rebuild.
static void read_results(struct tui_app *app)
{
    app->an = iodfg_session_analysis(app->ses);
    app->map = iodfg_session_mapping(app->ses);
    app->diff = iodfg_session_diff(app->ses);
    app->g_on = iodfg_session_group_mask(app->ses, IODFG_GROUP_G);
    app->r_on = iodfg_session_group_mask(app->ses, IODFG_GROUP_R);
    app->node_on = iodfg_session_node_on(app->ses);
    app->edge_on = iodfg_session_edge_on(app->ses);
    app->counts = iodfg_session_counts(app->ses);
}

/* ---- views ---- */

void *tui_app_view_state(const struct tui_app *app, enum tui_view v)
{
    return (unsigned)v < TUI_VIEW_COUNT ? app->view_state[v] : NULL;
}

struct tui_listmodel *tui_app_view_table(struct tui_app *app, enum tui_view v)
{
    const struct tui_view_ops *ops = tui_view_ops(v);
    return ops->table ? ops->table(app, app->view_state[v]) : NULL;
}

uint32_t tui_app_selected_activity(struct tui_app *app)
{
    const struct tui_view_ops *ops = tui_view_ops(TUI_VIEW_ACTIVITIES);
    return ops->activity(app, app->view_state[TUI_VIEW_ACTIVITIES]);
}

void tui_app_activity_moved(struct tui_app *app)
{
    for (int v = 0; v < TUI_VIEW_COUNT; v++) {
        const struct tui_view_ops *ops = tui_view_ops((enum tui_view)v);
        if (ops->activity_moved) {
            ops->activity_moved(app, app->view_state[v]);
        }
    }
}

int tui_app_back(struct tui_app *app)
{
    for (int v = 0; v < TUI_VIEW_COUNT; v++) {
        const struct tui_view_ops *ops = tui_view_ops((enum tui_view)v);
        int r = ops->back ? ops->back(app, app->view_state[v]) : 0;
        if (r) {
            return r;
        }
    }
    return 0;
}

void tui_app_show(struct tui_app *app, enum tui_view v)
{
    app->view = v;
    const struct tui_view_ops *ops = tui_view_ops(v);
    if (ops->enter) {
        ops->enter(app, app->view_state[v]);
    }
}

int tui_app_reload_views(struct tui_app *app)
{
    for (int v = 0; v < TUI_VIEW_COUNT; v++) {
        const struct tui_view_ops *ops = tui_view_ops((enum tui_view)v);
        if (ops->reload && ops->reload(app, app->view_state[v])) {
            return -1;
        }
    }
    return 0;
}

int tui_app_busy(struct tui_app *app)
{
    if (tui_app_charz_busy(app)) {
        return 1;
    }
    for (int v = 0; v < TUI_VIEW_COUNT; v++) {
        const struct tui_view_ops *ops = tui_view_ops((enum tui_view)v);
        if (ops->busy && ops->busy(app, app->view_state[v])) {
            return 1;
        }
    }
    return 0;
}

void tui_app_poll(struct tui_app *app)
{
    tui_app_charz_poll(app);
    for (int v = 0; v < TUI_VIEW_COUNT; v++) {
        const struct tui_view_ops *ops = tui_view_ops((enum tui_view)v);
        if (ops->poll) {
            ops->poll(app, app->view_state[v]);
        }
    }
}

static int open_views(struct tui_app *app)
{
    for (int v = 0; v < TUI_VIEW_COUNT; v++) {
        const struct tui_view_ops *ops = tui_view_ops((enum tui_view)v);
        if (ops->open && !(app->view_state[v] = ops->open(app))) {
            return -1;
        }
    }
    return 0;
}

static void close_views(struct tui_app *app)
{
    for (int v = 0; v < TUI_VIEW_COUNT; v++) {
        const struct tui_view_ops *ops = tui_view_ops((enum tui_view)v);
        if (ops->close && app->view_state[v]) {
            ops->close(app, app->view_state[v]);
        }
        app->view_state[v] = NULL;
    }
}

/* The session's recompute hook: new results make a running characterisation stale. */
static void on_recompute(void *app)
{
    tui_app_charz_cancel(app);
}

int tui_app_rebuild(struct tui_app *app, struct iodfg_error *err)
{
    if (iodfg_session_rebuild(app->ses, err)) {
        return -1;
    }
    read_results(app);
    if (app->generation != app->counts->generation) {
        app->generation = app->counts->generation;
        if (tui_app_reload_views(app)) {
            return iodfg_error_set(err, IODFG_E_NOMEM, NULL);
        }
    }
    return 0;
}

void tui_app_record(struct tui_app *app)
{
    iodfg_session_record(app->ses);
}

struct tui_app *tui_app_new(const struct iodfg_eventlog *log, int own_log, const char *log_name,
                            const char *rules_text, const char *rules_path, struct iodfg_error *err)
{
    struct tui_app *app = calloc(1, sizeof(*app));
    if (!app) {
        iodfg_error_set(err, IODFG_E_NOMEM, NULL);
        return NULL;
    }
    app->log = log;
    app->own_log = own_log;
    snprintf(app->log_name, sizeof(app->log_name), "%s", log_name ? log_name : "");
    app->generation = UINT64_MAX; // the first rebuild loads the views
    iodfg_insight_thresholds_default(&app->insight_thresholds);
    tui_charz_init(&app->charz);
    app->ses = iodfg_session_new(log, err);
    if (!app->ses || open_views(app)) {
        if (app->ses) {
            iodfg_error_set(err, IODFG_E_NOMEM, NULL);
        }
        app->own_log = 0;
        tui_app_free(app);
        return NULL;
    }
    app->rules = iodfg_session_rules(app->ses);
    app->filters = iodfg_session_filters(app->ses);
    iodfg_session_on_recompute(app->ses, on_recompute, app); // frees the processors for it
    const char *text = rules_text ? rules_text : iodfg_rules_default_text();
    if (iodfg_session_set_rules(app->ses, text, strlen(text), rules_path ? rules_path : "rules",
                                err)) {
        app->own_log = 0;
        tui_app_free(app);
        return NULL;
    }
    app->rules_path = rules_path ? strdup(rules_path) : NULL;
    struct iodfg_buf b;
    iodfg_buf_init(&b);
    iodfg_rules_format(app->rules, &b);
    app->rules_saved = strdup(b.data ? b.data : "");
    iodfg_buf_fini(&b);
    if (tui_app_rebuild(app, err)) {
        app->own_log = 0;
        tui_app_free(app);
        return NULL;
    }
    tui_app_record(app);
    return app;
}

void tui_app_free(struct tui_app *app)
{
    if (!app) {
        return;
    }
    tui_charz_fini(&app->charz); // waits for its job, which reads the log
    close_views(app);
    iodfg_session_free(app->ses);
    free(app->rules_path);
    free(app->rules_saved);
    free(app->session_path);
    if (app->own_log) {
        iodfg_eventlog_free((struct iodfg_eventlog *)(uintptr_t)app->log); // the app owns it
    }
    free(app);
}

/* ---- drill-down ------------------------------------------------------------------------ */

static size_t common_dir(const char *a, size_t alen, const char *b, size_t blen)
{
    size_t n = 0, last = 0;
    while (n < alen && n < blen && a[n] == b[n]) {
        n++;
        if (a[n - 1] == '/' && n > 1) {
            last = n - 1;
        }
    }
    // both continue with a separator (or end) at n: the whole common part is a directory
    if ((n == alen || a[n] == '/') && (n == blen || b[n] == '/')) {
        last = n;
    }
    return last;
}

/* The line holding exactly text, or 0: a second drill-down must not add the same rule. */
static unsigned long rule_line_of(const struct iodfg_rules *rules, const char *text)
{
    for (unsigned long l = 1; l <= iodfg_rules_line_count(rules); l++) {
        if (strcmp(iodfg_rules_line(rules, l), text) == 0) {
            return l;
        }
    }
    return 0;
}

int tui_app_drilldown(struct tui_app *app, uint32_t a, struct iodfg_error *err)
{
    const uint32_t *act = iodfg_analysis_activities(app->an);
    const struct iodfg_key *keys = iodfg_eventlog_keys(app->log);
    const struct iodfg_strpool *pool = iodfg_eventlog_pool(app->log);
    uint32_t nkeys = iodfg_eventlog_key_count(app->log);
    const char *prefix = NULL, *call = NULL;
    size_t plen = 0;
    int mixed_calls = 0;
    for (uint32_t k = 0; k < nkeys; k++) {
        if (act[k] != a) {
            continue;
        }
        const char *c = iodfg_strpool_get(pool, keys[k].call);
        const char *p = iodfg_strpool_get(pool, keys[k].path);
        size_t len = iodfg_strpool_len(pool, keys[k].path);
        if (keys[k].kind != IODFG_PATH_FILE || len == 0 || p[0] != '/') {
            continue;
        }
        if (!call) {
            call = c;
        } else if (strcmp(call, c) != 0) {
            mixed_calls = 1;
        }
        if (!prefix) {
            prefix = p;
            // a single file: its directory
            plen = len;
            const char *slash = memchr(p, '/', len) ? strrchr(p, '/') : NULL;
            plen = slash && slash > p ? (size_t)(slash - p) : len;
        } else {
            size_t n = common_dir(prefix, plen, p, len);
            plen = n < plen ? n : plen;
        }
    }
    if (!prefix || plen == 0) {
        return iodfg_error_set(err, IODFG_E_ARG, "'%s' has no file paths to drill into",
                               tui_app_activity_name(app, a));
    }
    char *dir = strndup(prefix, plen);
    char *callc = call && !mixed_calls ? strdup(call) : NULL;
    struct iodfg_buf rule, filter;
    iodfg_buf_init(&rule);
    iodfg_buf_init(&filter);
    int rc = -1;
    unsigned levels = iodfg_rules_path_levels(dir ? dir : "", plen) + 1;
    unsigned long same = 0;
    if (!dir || iodfg_rules_drilldown(callc, dir, levels, &rule, &filter)) {
        iodfg_error_set(err, IODFG_E_NOMEM, NULL);
    } else if ((same = rule_line_of(app->rules, rule.data)) != 0) {
        iodfg_error_set(err, IODFG_E_ARG, "'%s' is drilled into already (rule %lu)",
                        tui_app_activity_name(app, a), same);
    } else if (iodfg_rules_insert_line(app->rules, 1, rule.data, err) == 0) {
        rc = 0;
        if (filter.len && iodfg_filter_stack_push_text(app->filters, filter.data, err)) {
            rc = -1;
        }
        if (rc == 0 && callc) {
            char cf[300];
            snprintf(cf, sizeof(cf), "call=%s", callc);
            iodfg_filter_stack_push_text(app->filters, cf, NULL);
        }
    }
    iodfg_buf_fini(&rule);
    iodfg_buf_fini(&filter);
    free(dir);
    free(callc);
    return rc;
}

/* ---- status ---------------------------------------------------------------------------- */

void tui_app_status(const struct tui_app *app, char *buf, size_t size)
{
    const struct iodfg_session_counts *k = app->counts;
    struct iodfg_buf f;
    iodfg_buf_init(&f);
    iodfg_filter_stack_format(app->filters, "  ", &f);
    char groups[64] = "";
    if (app->diff) {
        snprintf(groups, sizeof(groups), iodfg_glyph_text(" · G %u%s R %u%s"), k->g_cases,
                 k->g_given ? "" : "*", k->r_cases, k->r_given ? "" : "*");
    }
    char th[64] = "";
    int paths, acts;
    iodfg_session_thresholds(app->ses, &paths, &acts);
    if (paths < 100 || acts < 100) {
        snprintf(th, sizeof(th), iodfg_glyph_text(" · paths %d%% acts %d%%"), paths, acts);
    }
    char limited[64] = "";
    if (k->rules_limited) {
        snprintf(limited, sizeof(limited),
                 iodfg_glyph_text(" · %u keys hit the match limit (rule %lu)"), k->rules_limited,
                 k->limit_line);
    }
    snprintf(
        buf, size,
        iodfg_glyph_text("%u activities · %llu/%llu events · %llu unmapped%s%s%s · %.1f ms%s%s"),
        k->activities_shown, (unsigned long long)k->events_shown, (unsigned long long)k->events,
        (unsigned long long)k->unmapped, groups, th, limited, k->rebuild_ms,
        f.len ? iodfg_glyph_text(" · filter: ") : "", f.len ? f.data : "");
    iodfg_buf_fini(&f);
}

const char *tui_app_log_name(const struct tui_app *app)
{
    return app->log_name;
}

enum tui_view tui_app_current_view(const struct tui_app *app)
{
    return app->view;
}

enum tui_prompt tui_app_open_prompt(const struct tui_app *app, const char **initial)
{
    if (initial) {
        *initial = app->prompt_init;
    }
    return app->prompt;
}
