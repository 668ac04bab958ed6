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
#include "iodfg/stats.h"
#include "iodfg/strpool.h"
#include "tui/listmodel.h"
#include "tui/undo.h"
#include "tui/views.h"

static const char *const view_names[TUI_VIEW_COUNT] = {
    "activities", "transitions", "graph",           "timeline",
    "diff",       "cases",       "rules", "characterisation", "handles", "help"};

const char *tui_view_name(enum tui_view v)
{
    return v < TUI_VIEW_COUNT ? view_names[v] : "";
}

static double now_ms(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec * 1e3 + (double)ts.tv_nsec / 1e6;
}

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
    return iodfg_mapping_name(&app->map, a);
}

const char *tui_app_case_name(const struct tui_app *app, uint32_t c)
{
    const struct iodfg_case_info *ci = iodfg_eventlog_case(app->log, c);
    return ci ? iodfg_strpool_get(iodfg_eventlog_pool(app->log), ci->name) : "";
}

/* Cut-off counts for the thresholds: the smallest edge count among the top path_pct percent of
 * edges, and the number of activities kept (0 = no limit). */
static void thresholds(struct tui_app *app, const struct iodfg_dfg *g, const uint64_t *act_count,
                       uint64_t *min_count, uint32_t *top_k)
{
    *min_count = iodfg_filter_stack_min_edge(app->filters);
    *top_k = iodfg_filter_stack_top(app->filters);
    if (app->path_pct < 100) {
        size_t n = 0;
        uint64_t *c = malloc((g->nedges + 1) * sizeof(*c));
        for (size_t i = 0; c && i < g->nedges; i++) {
            if (g->edges[i].count > 0) {
                c[n++] = g->edges[i].count;
            }
        }
        if (c && n > 0) {
            // descending insertion-free: sort
            for (size_t i = 1; i < n; i++) {
                uint64_t v = c[i];
                size_t j = i;
                for (; j > 0 && c[j - 1] < v; j--) {
                    c[j] = c[j - 1];
                }
                c[j] = v;
            }
            size_t keep = ((size_t)app->path_pct * n + 99) / 100;
            keep = keep ? keep : 1;
            if (c[keep - 1] > *min_count) {
                *min_count = c[keep - 1];
            }
        }
        free(c);
    }
    if (app->act_pct < 100) {
        uint32_t with = 0;
        for (uint32_t a = 0; a < g->nactivities; a++) {
            with += act_count[a] > 0;
        }
        uint32_t k = (uint32_t)(((uint64_t)app->act_pct * with + 99) / 100);
        k = k ? k : 1;
        if (*top_k == 0 || k < *top_k) {
            *top_k = k;
        }
    }
}

static int grow(void *pp, size_t *cap, size_t n, size_t elem)
{
    if (n <= *cap) {
        return 0;
    }
    void *p = realloc(*(void **)pp, n * elem);
    if (!p) {
        return -1;
    }
    *(void **)pp = p;
    *cap = n;
    return 0;
}

static int prune(struct tui_app *app, struct iodfg_error *err)
{
    const struct iodfg_dfg *g = iodfg_analysis_dfg(app->an);
    const struct iodfg_stats *st = iodfg_analysis_stats(app->an);
    uint32_t na = g->nactivities;
    if (grow(&app->node_on, &app->node_cap, (size_t)na + 1, 1) ||
        grow(&app->edge_on, &app->edge_cap, g->nedges + 1, 1)) {
        return iodfg_error_set(err, IODFG_E_NOMEM, NULL);
    }
    uint64_t *cnt = calloc((size_t)na + 1, sizeof(*cnt));
    if (!cnt) {
        return iodfg_error_set(err, IODFG_E_NOMEM, NULL);
    }
    app->events_shown = 0;
    for (uint32_t a = 0; a < na && a < st->nactivities; a++) {
        cnt[a] = st->act[a].count;
    }
    uint64_t min_count;
    uint32_t top_k;
    thresholds(app, g, cnt, &min_count, &top_k);
    int rc = iodfg_dfg_prune(g, cnt, min_count, top_k, app->node_on, app->edge_on, err);
    app->activities_shown = 0;
    for (uint32_t a = 0; rc == 0 && a < na; a++) {
        if (app->node_on[a]) {
            app->activities_shown++;
            app->events_shown += cnt[a];
        }
    }
    free(cnt);
    return rc;
}

static int build_diff(struct tui_app *app, struct iodfg_error *err)
{
    app->diff_valid = 0;
    if (app->ng == 0 || app->nr == 0) {
        return 0;
    }
    iodfg_diff_fini(&app->diff);
    iodfg_diff_init(&app->diff);
    if (iodfg_diff_build(&app->diff, app->an, app->g_on, app->r_on, err)) {
        return -1;
    }
    app->diff_valid = 1;
    return 0;
}

int tui_app_rebuild(struct tui_app *app, int filters_changed, struct iodfg_error *err)
{
    double t0 = now_ms();
    if (filters_changed &&
        iodfg_filter_stack_apply(app->filters, app->log, &app->fres, err)) {
        return -1;
    }
    if (iodfg_rules_apply(app->rules, app->log, app->fres.key_on, &app->map, &app->report,
                          err)) {
        return -1;
    }
    struct iodfg_selection sel;
    iodfg_selection_all(&sel);
    iodfg_filter_result_selection(&app->fres, &sel);
    if (!app->an) {
        app->an = iodfg_analysis_new(app->log, &app->map, &sel, err);
        if (!app->an) {
            return -1;
        }
    } else {
        if (iodfg_analysis_update(app->an, &app->map, app->report.changed, app->report.nchanged,
                                  err)) {
            return -1;
        }
        if (filters_changed && iodfg_analysis_set_selection(app->an, &sel, err)) {
            return -1;
        }
    }
    app->unmapped = 0;
    for (uint32_t k = 0; k < app->map.nkeys; k++) {
        if (app->map.activity_of_key[k] == IODFG_NO_ACTIVITY) {
            app->unmapped += app->key_events[k];
        }
    }
    if (prune(app, err) || build_diff(app, err)) {
        return -1;
    }
    app->generation++;
    if (tui_views_reload(app)) {
        return iodfg_error_set(err, IODFG_E_NOMEM, NULL);
    }
    app->rebuild_ms = now_ms() - t0;
    return 0;
}

void tui_app_record(struct tui_app *app)
{
    struct iodfg_buf b;
    iodfg_buf_init(&b);
    if (tui_app_snapshot(app, &b) == 0) {
        tui_undo_push(app->undo, b.data ? b.data : "", b.len);
    }
    iodfg_buf_fini(&b);
}

// Events per key: a rule edit then counts unmapped events over keys, not over every event.
static uint64_t *count_key_events(const struct iodfg_eventlog *log)
{
    uint32_t nkeys = iodfg_eventlog_key_count(log);
    uint64_t *n = calloc((size_t)nkeys + 1, sizeof(*n));
    const uint32_t *key = iodfg_eventlog_columns(log)->key;
    uint64_t events = iodfg_eventlog_event_count(log);
    for (uint64_t i = 0; n && key && i < events; i++) {
        if (key[i] < nkeys) {
            n[key[i]]++;
        }
    }
    return n;
}

struct tui_app *tui_app_new(const struct iodfg_eventlog *log, int own_log, const char *log_name,
                            const char *rules_text, const char *rules_path,
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
    app->path_pct = app->act_pct = 100;
    app->graph_act = UINT32_MAX;
    app->graph_side = 1;
    app->rule_cursor = 1;
    tui_charz_init(&app->charz);
    tui_overview_init(&app->overview);
    iodfg_filter_result_init(&app->fres);
    iodfg_rules_report_init(&app->report);
    iodfg_diff_init(&app->diff);
    app->events_total = iodfg_eventlog_event_count(log);
    uint32_t nc = iodfg_eventlog_case_count(log);
    app->rules = iodfg_rules_new();
    app->filters = iodfg_filter_stack_new();
    app->g_on = calloc((size_t)nc + 1, 1);
    app->r_on = calloc((size_t)nc + 1, 1);
    app->undo = tui_undo_new(256);
    app->key_events = count_key_events(log);
    if (!app->rules || !app->filters || !app->g_on || !app->r_on || !app->undo ||
        !app->key_events ||
        iodfg_mapping_init(&app->map, err) || tui_views_init(app)) {
        iodfg_error_set(err, IODFG_E_NOMEM, NULL);
        tui_app_free(app);
        return NULL;
    }
    const char *text = rules_text ? rules_text : iodfg_rules_default_text();
    if (iodfg_rules_compile(app->rules, text, strlen(text), rules_path ? rules_path : "rules",
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
    if (tui_app_rebuild(app, 1, err)) {
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
    free(app->key_events);
    tui_charz_fini(&app->charz); // waits for its job, which reads the log
    tui_overview_fini(&app->overview);
    tui_views_fini(app);
    iodfg_analysis_free(app->an);
    iodfg_diff_fini(&app->diff);
    iodfg_mapping_fini(&app->map);
    iodfg_rules_report_fini(&app->report);
    iodfg_filter_result_fini(&app->fres);
    iodfg_rules_free(app->rules);
    iodfg_filter_stack_free(app->filters);
    tui_undo_free(app->undo);
    free(app->g_on);
    free(app->r_on);
    free(app->node_on);
    free(app->edge_on);
    free(app->edit_orig);
    free(app->rules_path);
    free(app->rules_saved);
    free(app->session_path);
    if (app->own_log) {
        iodfg_eventlog_free((struct iodfg_eventlog *)(uintptr_t)app->log); // the app owns it
    }
    free(app);
}

/* ---- groups --------------------------------------------------------------------------- */

static void count_groups(struct tui_app *app)
{
    uint32_t nc = iodfg_eventlog_case_count(app->log);
    app->ng = app->nr = 0;
    for (uint32_t c = 0; c < nc; c++) {
        app->ng += app->g_on[c] != 0;
        app->nr += app->r_on[c] != 0;
    }
}

void tui_app_group_set(struct tui_app *app, uint32_t c, int group)
{
    if (c >= iodfg_eventlog_case_count(app->log)) {
        return;
    }
    app->g_on[c] = group == 1;
    app->r_on[c] = group == 2;
    count_groups(app);
}

int tui_app_group_match(struct tui_app *app, const char *pattern, int group,
                        struct iodfg_error *err)
{
    struct iodfg_filter_stack *fs = iodfg_filter_stack_new();
    if (!fs) {
        return iodfg_error_set(err, IODFG_E_NOMEM, NULL);
    }
    // A bare word is a regex on the case name; otherwise the filter syntax (cid=ssf, ...).
    int plain = strpbrk(pattern, "=~") == NULL;
    struct iodfg_buf b;
    iodfg_buf_init(&b);
    if (plain) {
        iodfg_buf_addf(&b, "name~%s", pattern);
    } else {
        iodfg_buf_addf(&b, "%s", pattern);
    }
    uint32_t nc = iodfg_eventlog_case_count(app->log);
    uint8_t *mask = calloc((size_t)nc + 1, 1);
    int rc = -1;
    if (!mask || b.failed) {
        iodfg_error_set(err, IODFG_E_NOMEM, NULL);
    } else if (iodfg_filter_stack_push_text(fs, b.data, err) == 0 &&
               iodfg_filter_case_mask(fs, app->log, mask, err) == 0) {
        uint32_t n = 0;
        for (uint32_t c = 0; c < nc; c++) {
            if (mask[c]) {
                app->g_on[c] = group == 1;
                app->r_on[c] = group == 2;
                n++;
            }
        }
        count_groups(app);
        rc = (int)n;
    }
    free(mask);
    iodfg_buf_fini(&b);
    iodfg_filter_stack_free(fs);
    return rc;
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
    if (!dir || iodfg_rules_drilldown(callc, dir, levels, &rule, &filter)) {
        iodfg_error_set(err, IODFG_E_NOMEM, NULL);
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
    struct iodfg_buf f;
    iodfg_buf_init(&f);
    iodfg_filter_stack_format(app->filters, "  ", &f);
    char groups[64] = "";
    if (app->ng || app->nr) {
        snprintf(groups, sizeof(groups), " · G %u R %u", app->ng, app->nr);
    }
    char th[64] = "";
    if (app->path_pct < 100 || app->act_pct < 100) {
        snprintf(th, sizeof(th), " · paths %d%% acts %d%%", app->path_pct, app->act_pct);
    }
    snprintf(buf, size, "%u activities · %llu/%llu events · %llu unmapped%s%s · %.1f ms%s%s",
             app->activities_shown, (unsigned long long)app->events_shown,
             (unsigned long long)app->events_total, (unsigned long long)app->unmapped, groups, th,
             app->rebuild_ms, f.len ? " · filter: " : "", f.len ? f.data : "");
    iodfg_buf_fini(&f);
}
