/* SPDX-License-Identifier: MIT */
/* Session files and undo snapshots: rules, filters, groups, thresholds (plus view, sort and the
 * Characterisation view's Δt, servers and threshold in a session), one item per line
 * ("rule map ...", "filter path~^/usr", "g CASE", "view rules", "dt 0", "by host"). */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "iodfg/atomicfile.h"
#include "iodfg/buf.h"
#include "iodfg/error.h"
#include "iodfg/eventlog.h"
#include "iodfg/metrics.h"
#include "iodfg/strpool.h"

#include "tui/app.h"
#include "tui/listmodel.h"

int tui_app_snapshot(const struct tui_app *app, struct iodfg_buf *out)
{
    iodfg_buf_addf(out, "paths %d\nacts %d\n", app->path_pct, app->act_pct);
    for (unsigned long l = 1; l <= iodfg_rules_line_count(app->rules); l++) {
        iodfg_buf_addf(out, "rule %s\n", iodfg_rules_line(app->rules, l));
    }
    for (size_t i = 0; i < iodfg_filter_stack_count(app->filters); i++) {
        iodfg_buf_add(out, "filter ", 7);
        iodfg_filter_format(iodfg_filter_stack_get(app->filters, i), out);
        iodfg_buf_add(out, "\n", 1);
    }
    uint32_t nc = iodfg_eventlog_case_count(app->log);
    for (uint32_t c = 0; c < nc; c++) {
        if (app->g_on[c] || app->r_on[c]) {
            iodfg_buf_addf(out, "%c %s\n", app->g_on[c] ? 'g' : 'r', tui_app_case_name(app, c));
        }
    }
    return out->failed ? -1 : 0;
}

int tui_app_session_format(const struct tui_app *app, struct iodfg_buf *out)
{
    iodfg_buf_addf(out, "# iodfg session 1\nlog %s\n", app->log_name);
    enum tui_view v = app->view == TUI_VIEW_HELP ? app->prev_view : app->view;
    iodfg_buf_addf(out, "view %s\n", tui_view_name(v));
    for (int i = 0; i < TUI_VIEW_COUNT; i++) {
        if (!app->lm[i]) {
            continue;
        }
        int desc = 0;
        int col = tui_listmodel_sort_column(app->lm[i], &desc);
        iodfg_buf_addf(out, "sort %s %d %d\n", tui_view_name((enum tui_view)i), col, desc);
    }
    // the Characterisation view's parameters: Δt (0 = automatic), servers, threshold c in bytes
    const struct tui_charz *cz = &app->charz;
    iodfg_buf_addf(out, "dt %lld\nby %s\nthreshold %.0f\n", (long long)cz->dt_ns,
                   iodfg_server_by_name(cz->by), tui_charz_threshold(cz));
    return tui_app_snapshot(app, out);
}

static uint32_t find_case(const struct tui_app *app, const char *name)
{
    uint32_t id;
    const struct iodfg_strpool *pool = iodfg_eventlog_pool(app->log);
    if (iodfg_strpool_find(pool, name, strlen(name), &id)) {
        return UINT32_MAX;
    }
    uint32_t nc = iodfg_eventlog_case_count(app->log);
    for (uint32_t c = 0; c < nc; c++) {
        if (iodfg_eventlog_case(app->log, c)->name == id) {
            return c;
        }
    }
    return UINT32_MAX;
}

static int view_by_name(const char *s)
{
    for (int i = 0; i < TUI_VIEW_COUNT; i++) {
        if (strcmp(s, tui_view_name((enum tui_view)i)) == 0) {
            return i;
        }
    }
    return -1;
}

/* Whether two filter stacks hold the same filters (compared by their text). */
static int same_filters(const struct iodfg_filter_stack *a, const struct iodfg_filter_stack *b)
{
    struct iodfg_buf x, y;
    iodfg_buf_init(&x);
    iodfg_buf_init(&y);
    iodfg_filter_stack_format(a, "", &x);
    iodfg_filter_stack_format(b, "", &y);
    int same = !x.failed && !y.failed && x.len == y.len &&
               (x.len == 0 || memcmp(x.data, y.data, x.len) == 0);
    iodfg_buf_fini(&x);
    iodfg_buf_fini(&y);
    return same;
}

/* Parse text; with session set also view and sort lines. */
static int restore(struct tui_app *app, const char *text, size_t len, int session,
                   const char *where, struct iodfg_error *err)
{
    struct iodfg_buf rules;
    iodfg_buf_init(&rules);
    struct iodfg_filter_stack *fs = iodfg_filter_stack_new();
    uint32_t nc = iodfg_eventlog_case_count(app->log);
    uint8_t *g = calloc((size_t)nc + 1, 1), *r = calloc((size_t)nc + 1, 1);
    int paths = 100, acts = 100, view = -1, rc = -1, threshold_idx = -1;
    long long dt = -1;
    enum iodfg_server_by by = app->charz.by;
    int sorts[TUI_VIEW_COUNT][2];
    for (int i = 0; i < TUI_VIEW_COUNT; i++) {
        sorts[i][0] = -2;
    }
    if (!fs || !g || !r) {
        iodfg_error_set(err, IODFG_E_NOMEM, NULL);
        goto out;
    }
    unsigned long lineno = 0;
    for (size_t pos = 0; pos < len;) {
        const char *nl = memchr(text + pos, '\n', len - pos);
        size_t n = nl ? (size_t)(nl - (text + pos)) : len - pos;
        char *line = strndup(text + pos, n);
        pos += n + (nl != NULL);
        lineno++;
        if (!line) {
            iodfg_error_set(err, IODFG_E_NOMEM, NULL);
            goto out;
        }
        char *sp = strchr(line, ' ');
        const char *arg = sp ? sp + 1 : "";
        if (sp) {
            *sp = '\0';
        }
        int bad = 0;
        if (line[0] == '#' || line[0] == '\0' || strcmp(line, "log") == 0) {
            // comment, blank, informational
        } else if (strcmp(line, "rule") == 0) {
            iodfg_buf_addf(&rules, "%s\n", arg);
        } else if (strcmp(line, "filter") == 0) {
            if (iodfg_filter_stack_push_text(fs, arg, err)) {
                iodfg_error_at(err, where, lineno, err->col ? err->col + 7 : 0);
                free(line);
                goto out;
            }
        } else if (strcmp(line, "g") == 0 || strcmp(line, "r") == 0) {
            uint32_t c = find_case(app, arg);
            if (c != UINT32_MAX) {
                (line[0] == 'g' ? g : r)[c] = 1;
                (line[0] == 'g' ? r : g)[c] = 0;
            }
        } else if (strcmp(line, "paths") == 0) {
            paths = atoi(arg);
            bad = paths < 0 || paths > 100;
        } else if (strcmp(line, "acts") == 0) {
            acts = atoi(arg);
            bad = acts < 0 || acts > 100;
        } else if (session && strcmp(line, "view") == 0) {
            view = view_by_name(arg);
            bad = view < 0;
        } else if (session && strcmp(line, "dt") == 0) {
            char *end;
            dt = strtoll(arg, &end, 10);
            bad = end == arg || *end || dt < 0;
        } else if (session && strcmp(line, "by") == 0) {
            bad = iodfg_server_by_parse(arg, &by) != 0;
        } else if (session && strcmp(line, "threshold") == 0) {
            char *end;
            double c = strtod(arg, &end);
            threshold_idx = end == arg || *end ? -1 : tui_charz_threshold_index(c);
            bad = threshold_idx < 0;
        } else if (session && strcmp(line, "sort") == 0) {
            char vname[32];
            int col, desc;
            int v = -1;
            if (sscanf(arg, "%31s %d %d", vname, &col, &desc) == 3) {
                v = view_by_name(vname);
            }
            bad = v < 0;
            if (!bad) {
                sorts[v][0] = col;
                sorts[v][1] = desc;
            }
        } else {
            bad = 1;
        }
        if (bad) {
            iodfg_error_set(err, IODFG_E_PARSE, "unknown session line '%s'", line);
            iodfg_error_at(err, where, lineno, 1);
            free(line);
            goto out;
        }
        free(line);
    }
    if (iodfg_rules_compile(app->rules, rules.data ? rules.data : "", rules.len, where, err)) {
        goto out;
    }
    // an unchanged filter stack keeps the selection, so undoing a rule edit stays incremental
    int filters_changed = !same_filters(app->filters, fs);
    iodfg_filter_stack_free(app->filters);
    app->filters = fs;
    fs = NULL;
    memcpy(app->g_on, g, nc);
    memcpy(app->r_on, r, nc);
    app->ng = app->nr = 0;
    for (uint32_t c = 0; c < nc; c++) {
        app->ng += g[c];
        app->nr += r[c];
    }
    app->path_pct = paths < 10 ? 10 : paths;
    app->act_pct = acts < 10 ? 10 : acts;
    rc = tui_app_rebuild(app, filters_changed, err);
    for (int i = 0; rc == 0 && i < TUI_VIEW_COUNT; i++) {
        if (sorts[i][0] >= -1 && app->lm[i]) {
            tui_listmodel_sort(app->lm[i], sorts[i][0], 0);
            int desc = 0;
            tui_listmodel_sort_column(app->lm[i], &desc);
            if (sorts[i][0] >= 0 && desc != sorts[i][1]) {
                tui_listmodel_sort_reverse(app->lm[i]);
            }
        }
    }
    if (rc == 0 && view >= 0) {
        app->view = (enum tui_view)view;
    }
    if (rc == 0 && session) {
        tui_charz_set_params(&app->charz, dt >= 0 ? (int64_t)dt : app->charz.dt_ns, by,
                             threshold_idx >= 0 ? threshold_idx : app->charz.threshold_idx);
    }
out:
    iodfg_buf_fini(&rules);
    iodfg_filter_stack_free(fs);
    free(g);
    free(r);
    return rc;
}

int tui_app_restore(struct tui_app *app, const char *text, size_t len, struct iodfg_error *err)
{
    return restore(app, text, len, 0, "snapshot", err);
}

int tui_app_session_load(struct tui_app *app, const char *path, struct iodfg_error *err)
{
    FILE *f = fopen(path, "rb");
    if (!f) {
        iodfg_error_set(err, IODFG_E_IO, "cannot open the session file");
        iodfg_error_at(err, path, 0, 0);
        return -1;
    }
    struct iodfg_buf b;
    iodfg_buf_init(&b);
    char chunk[8192];
    size_t n;
    while ((n = fread(chunk, 1, sizeof(chunk), f)) > 0) {
        iodfg_buf_add(&b, chunk, n);
    }
    fclose(f);
    int rc = -1;
    if (b.failed) {
        iodfg_error_set(err, IODFG_E_NOMEM, NULL);
    } else {
        rc = restore(app, b.data ? b.data : "", b.len, 1, path, err);
    }
    iodfg_buf_fini(&b);
    if (rc == 0) {
        tui_app_record(app);
    }
    return rc;
}

int tui_app_session_save(struct tui_app *app, const char *path, struct iodfg_error *err)
{
    struct iodfg_buf b;
    iodfg_buf_init(&b);
    int rc = -1;
    if (tui_app_session_format(app, &b)) {
        iodfg_error_set(err, IODFG_E_NOMEM, NULL);
    } else {
        rc = iodfg_atomic_write(path, b.data, b.len, 1, err);
    }
    iodfg_buf_fini(&b);
    return rc;
}
