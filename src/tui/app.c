/* SPDX-License-Identifier: MIT */
/* TUI application state: the session's rebuild and the one path by which its results reach
 * the views, the views' registry calls, the accessors views read the app through, and the
 * status line. */
#include "config.h"

#include "tui/app.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "iodfg/buf.h"
#include "iodfg/dfg.h"
#include "iodfg/error.h"
#include "iodfg/eventlog.h"
#include "iodfg/export.h"
#include "iodfg/glyph.h"
#include "iodfg/stats.h"
#include "iodfg/strpool.h"

#include "tui/app_priv.h"
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

struct iodfg_session *tui_app_session(const struct tui_app *app)
{
    return app->ses;
}

const struct iodfg_eventlog *tui_app_log(const struct tui_app *app)
{
    return app->log;
}

uint64_t tui_app_generation(const struct tui_app *app)
{
    return app->generation;
}

struct tui_charz *tui_app_charz(struct tui_app *app)
{
    return &app->charz;
}

const struct iodfg_insight_thresholds *tui_app_insight_thresholds(const struct tui_app *app)
{
    return &app->insight_thresholds;
}

const char *tui_app_rules_path(const struct tui_app *app)
{
    return app->rules_path;
}

const char *tui_app_message(const struct tui_app *app)
{
    return app->message;
}

void tui_app_set_inputs(struct tui_app *app, char *const *inputs, size_t n)
{
    app->inputs = inputs;
    app->ninputs = n;
}

int tui_app_set_session_path(struct tui_app *app, const char *path)
{
    char *copy = strdup(path);
    if (!copy) {
        return -1;
    }
    free(app->session_path);
    app->session_path = copy;
    return 0;
}

void tui_app_set_insight_thresholds(struct tui_app *app, const struct iodfg_insight_thresholds *t)
{
    app->insight_thresholds = *t;
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

unsigned tui_app_help_close(struct tui_app *app, enum tui_cmd cmd)
{
    app->view = app->prev_view;
    return tui_app_command(app, cmd);
}

/* The one way results reach the views: each that shows them hears what changed, in tab order.
 * 0 or -1 (out of memory). */
static int publish(struct tui_app *app, const struct iodfg_session_change *what)
{
    for (int v = 0; v < TUI_VIEW_COUNT; v++) {
        const struct tui_view_ops *ops = tui_view_ops((enum tui_view)v);
        if (ops->changed && ops->changed(app, app->view_state[v], what)) {
            return -1;
        }
    }
    return 0;
}

int tui_app_busy(struct tui_app *app)
{
    if (iodfg_session_first(app->ses) || tui_app_second_busy(app) || tui_app_charz_busy(app)) {
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

double tui_app_now_ms(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec * 1e3 + (double)ts.tv_nsec / 1e6;
}

void tui_app_poll(struct tui_app *app)
{
    tui_app_second_poll(app);
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

int tui_app_take_results(struct tui_app *app, struct iodfg_error *err)
{
    read_results(app);
    if (app->generation != app->counts->generation) {
        app->generation = app->counts->generation;
        if (publish(app, &app->counts->change)) {
            return iodfg_error_set(err, IODFG_E_NOMEM, NULL);
        }
    }
    return 0;
}

int tui_app_rebuild(struct tui_app *app, struct iodfg_error *err)
{
    return iodfg_session_rebuild(app->ses, err) ? -1 : tui_app_take_results(app, err);
}

/* The first tier when it applies, else the full rebuild (an error goes to the message line).
 * 0 or -1. */
static int rebuild_live(struct tui_app *app)
{
    struct iodfg_error err;
    iodfg_error_clear(&err);
    int rc = iodfg_session_rebuild_first(app->ses, &err);
    if (rc == 1) { // the views keep the last full results; the idle loop brings the new ones
        app->first_ms = tui_app_now_ms();
    } else if (rc < 0 || tui_app_take_results(app, &err)) {
        tui_app_report(app, "rebuild", &err);
        return -1;
    }
    return 0;
}

unsigned tui_app_settle_live(struct tui_app *app, unsigned r)
{
    if (!(r & TUI_REBUILD)) {
        return tui_app_settle(app, r);
    }
    rebuild_live(app);
    return r & ~(unsigned)(TUI_REBUILD | TUI_RECORD);
}

unsigned tui_app_settle_first(struct tui_app *app, unsigned r)
{
    if (!(r & TUI_REBUILD)) {
        return tui_app_settle(app, r);
    }
    if (rebuild_live(app) == 0 && (r & TUI_RECORD)) {
        tui_app_record(app); // the inputs: the results may follow
    }
    return r & ~(unsigned)(TUI_REBUILD | TUI_RECORD);
}

unsigned tui_app_settle(struct tui_app *app, unsigned r)
{
    struct iodfg_error err;
    iodfg_error_clear(&err);
    if ((r & TUI_REBUILD) && tui_app_rebuild(app, &err)) {
        tui_app_report(app, "rebuild", &err); // the last good results stay: nothing to record
    } else if (r & TUI_RECORD) {
        tui_app_record(app);
    }
    return r & ~(unsigned)(TUI_REBUILD | TUI_RECORD);
}

void tui_app_record(struct tui_app *app)
{
    iodfg_session_record(app->ses);
}

struct tui_app *tui_app_new(const struct iodfg_eventlog *log, int own_log, const char *log_name,
                            const char *rules_text, const char *rules_path, struct iodfg_error *err)
{
    return tui_app_new_focused(log, own_log, log_name, rules_text, rules_path, NULL, err);
}

/* The rules, then the focus and its class rules: the session's inputs before the first build. */
static int set_inputs(struct tui_app *app, const char *rules_text, const char *rules_path,
                      const struct tui_app_focus *focus, struct iodfg_error *err)
{
    const char *text = rules_text ? rules_text : iodfg_rules_default_text();
    if (iodfg_session_set_rules(app->ses, text, strlen(text), rules_path ? rules_path : "rules",
                                err)) {
        return -1;
    }
    if (focus && focus->rules &&
        iodfg_session_set_focus_rules(app->ses, focus->rules, focus->len,
                                      focus->where ? focus->where : "focus rules", err)) {
        return -1;
    }
    if (focus) {
        iodfg_session_set_focus(app->ses, focus->mode ? IODFG_FOCUS_APP : IODFG_FOCUS_ALL);
    }
    return 0;
}

struct tui_app *tui_app_new_focused(const struct iodfg_eventlog *log, int own_log,
                                    const char *log_name, const char *rules_text,
                                    const char *rules_path, const struct tui_app_focus *focus,
                                    struct iodfg_error *err)
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
    // tests hold a live rule edit's first tier on the screen
    const char *second = getenv("IODFG_TUI_SECOND_TIER_MS");
    app->second_ms = second ? atof(second) : 0.0;
    const char *hold = getenv("IODFG_TUI_SECOND_HOLD_MS");
    app->second_hold_ms = hold ? atof(hold) : 0.0;
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
    if (set_inputs(app, rules_text, rules_path, focus, err)) {
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
    app->second_expect_ms = app->counts->rebuild_ms; // the first estimate: a whole build
    tui_app_record(app);
    return app;
}

void tui_app_free(struct tui_app *app)
{
    if (!app) {
        return;
    }
    tui_charz_fini(&app->charz); // waits for its job, which reads the log
    tui_app_second_stop(app);
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

/* ---- status ---------------------------------------------------------------------------- */

void tui_app_status(const struct tui_app *app, char *buf, size_t size)
{
    // a live rule edit's first tier: its exact counts, and what is still being computed
    const struct iodfg_session_first *first = iodfg_session_first(app->ses);
    const struct iodfg_session_counts *k = first ? &first->counts : app->counts;
    char pending[128] = ""; // beside the counts, so that a narrow status line keeps it
    if (first) {
        tui_app_second_pending(app, first->dfg ? "stats" : "edges, stats", pending,
                               sizeof(pending));
    }
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
    char focus[64];
    tui_app_focus_status(app, focus, sizeof(focus));
    snprintf(buf, size,
             iodfg_glyph_text(
                 "%u activities%s · %llu/%llu events%s · %llu unmapped%s%s%s · %.1f ms%s%s"),
             k->activities_shown, focus, (unsigned long long)k->events_shown,
             (unsigned long long)k->events, pending, (unsigned long long)k->unmapped, groups, th,
             limited, k->rebuild_ms, f.len ? iodfg_glyph_text(" · filter: ") : "",
             f.len ? f.data : "");
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

enum tui_view tui_app_previous_view(const struct tui_app *app)
{
    return app->view == TUI_VIEW_HELP ? app->prev_view : app->view;
}

const char *tui_app_clipboard(const struct tui_app *app)
{
    return app->clipboard;
}

enum tui_prompt tui_app_open_prompt(const struct tui_app *app, const char **initial)
{
    if (initial) {
        *initial = app->prompt_init;
    }
    return app->prompt;
}
