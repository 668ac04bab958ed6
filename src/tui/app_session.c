/* SPDX-License-Identifier: MIT */
/* Session files and undo snapshots: rules, filters, groups, thresholds (plus view, sort and the
 * Characterisation view's Δt, servers and threshold in a session), one item per line
 * ("rule map ...", "filter path~^/usr", "g CASE", "view rules", "dt 0", "by host"). */
#include "config.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "iodfg/atomicfile.h"
#include "iodfg/buf.h"
#include "iodfg/error.h"
#include "iodfg/eventlog.h"
#include "iodfg/metrics.h"
#include "iodfg/strpool.h"
#include "iodfg/textfile.h"

#include "tui/app.h"
#include "tui/app_priv.h"
#include "tui/listmodel.h"

/* The table of view v whose sort order a session keeps (NULL: none). */
static struct tui_listmodel *sorted_table(struct tui_app *app, enum tui_view v)
{
    const struct tui_view_ops *ops = tui_view_ops(v);
    return ops->sorted ? ops->sorted(app, app->view_state[v]) : NULL;
}

int tui_app_snapshot(const struct tui_app *app, struct iodfg_buf *out)
{
    return iodfg_session_state_format(app->ses, out);
}

/* "log PATH" for each file the app was opened on, absolute so that `iodfg --session FILE`
 * opens them from anywhere (the log's name when it was opened on none). */
static void log_lines(const struct tui_app *app, struct iodfg_buf *out)
{
    size_t n = 0;
    for (size_t i = 0; i < app->ninputs; i++) {
        const char *p = app->inputs[i];
        if (!p || strpbrk(p, "\n\r")) {
            continue; // a name a line cannot hold
        }
        char *abs = realpath(p, NULL);
        iodfg_buf_addf(out, "log %s\n", abs ? abs : p);
        free(abs);
        n++;
    }
    if (n == 0) {
        iodfg_buf_addf(out, "log %s\n", app->log_name);
    }
}

int tui_app_session_format(struct tui_app *app, struct iodfg_buf *out)
{
    iodfg_buf_addf(out, "# iodfg session 1\n");
    log_lines(app, out);
    enum tui_view v = app->view == TUI_VIEW_HELP ? app->prev_view : app->view;
    iodfg_buf_addf(out, "view %s\n", tui_view_name(v));
    for (int i = 0; i < TUI_VIEW_COUNT; i++) {
        struct tui_listmodel *lm = sorted_table(app, (enum tui_view)i);
        if (!lm) {
            continue;
        }
        int desc = 0;
        int col = tui_listmodel_sort_column(lm, &desc);
        iodfg_buf_addf(out, "sort %s %d %d\n", tui_view_name((enum tui_view)i), col, desc);
    }
    // the Characterisation view's parameters: Δt (0 = automatic), servers, threshold c in bytes
    const struct tui_charz *cz = &app->charz;
    iodfg_buf_addf(out, "dt %lld\nby %s\nthreshold %.0f\n", (long long)cz->dt_ns,
                   iodfg_server_by_name(cz->by), tui_charz_threshold(cz));
    return tui_app_snapshot(app, out);
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

/* The TUI's own lines of a session file, parsed before anything changes. */
struct tui_lines {
    struct tui_app *app;
    int view;
    int sorts[TUI_VIEW_COUNT][2]; /* column (-2: none given), descending */
    long long dt;
    enum iodfg_server_by by;
    int threshold_idx;
};

/* A bad value: what was expected, the value found (col: where in arg, 1-based). -1. */
static int bad_value(struct iodfg_error *err, const char *arg, size_t col, const char *expected)
{
    const char *v = arg + col - 1;
    size_t n = strcspn(v, " ");
    iodfg_error_set(err, IODFG_E_PARSE, "expected %s, found '%.*s'", expected,
                    (int)(n > 60 ? 60 : n), v);
    if (err) {
        err->col = (unsigned long)col;
    }
    return -1;
}

static int sort_line(struct tui_lines *t, const char *arg, struct iodfg_error *err)
{
    char vname[32];
    int col, desc, at_col = 0, at_desc = 0, end = 0;
    if (sscanf(arg, "%31s %n%d %n%d%n", vname, &at_col, &col, &at_desc, &desc, &end) != 3 ||
        arg[end]) {
        return bad_value(err, arg, 1, "VIEW COLUMN DESCENDING, as in 'sort activities 3 1'");
    }
    int v = view_by_name(vname);
    struct tui_listmodel *lm = v < 0 ? NULL : sorted_table(t->app, (enum tui_view)v);
    if (!lm) {
        return bad_value(err, arg, 1, "a view with a sorted table");
    }
    if (col < -1 || col >= tui_listmodel_ncols(lm)) {
        char what[64];
        snprintf(what, sizeof(what), "a column from -1 to %d", tui_listmodel_ncols(lm) - 1);
        return bad_value(err, arg, (size_t)at_col + 1, what);
    }
    if (desc != 0 && desc != 1) {
        return bad_value(err, arg, (size_t)at_desc + 1, "0 (ascending) or 1 (descending)");
    }
    t->sorts[v][0] = col;
    t->sorts[v][1] = desc;
    return 0;
}

static int tui_line(void *ctx, const char *key, const char *arg, struct iodfg_error *err)
{
    struct tui_lines *t = ctx;
    if (strcmp(key, "view") == 0) {
        t->view = view_by_name(arg);
        return t->view < 0 ? bad_value(err, arg, 1, "a view name (activities, transitions, ...)")
                           : 0;
    }
    if (strcmp(key, "dt") == 0) {
        char *end;
        errno = 0;
        t->dt = strtoll(arg, &end, 10);
        int bad = end == arg || *end || errno || t->dt < 0 || t->dt > IODFG_DUR_MAX;
        return bad ? bad_value(err, arg, 1, "a Δt in ns from 0 (automatic) to 2^61") : 0;
    }
    if (strcmp(key, "by") == 0) {
        return iodfg_server_by_parse(arg, &t->by) ? bad_value(err, arg, 1, "a server dimension")
                                                  : 0;
    }
    if (strcmp(key, "threshold") == 0) {
        char *end;
        double c = strtod(arg, &end);
        t->threshold_idx = end == arg || *end ? -1 : tui_charz_threshold_index(c);
        return t->threshold_idx < 0 ? bad_value(err, arg, 1, "one of the threshold steps") : 0;
    }
    if (strcmp(key, "sort") == 0) {
        return sort_line(t, arg, err);
    }
    return 1;
}

static void apply_lines(struct tui_app *app, const struct tui_lines *t)
{
    for (int i = 0; i < TUI_VIEW_COUNT; i++) {
        struct tui_listmodel *lm = sorted_table(app, (enum tui_view)i);
        if (t->sorts[i][0] >= -1 && lm) {
            tui_listmodel_sort(lm, t->sorts[i][0], 0);
            int desc = 0;
            tui_listmodel_sort_column(lm, &desc);
            if (t->sorts[i][0] >= 0 && desc != t->sorts[i][1]) {
                tui_listmodel_sort_reverse(lm);
            }
        }
    }
    if (t->view >= 0) {
        app->view = (enum tui_view)t->view;
    }
    tui_charz_set_params(&app->charz, t->dt >= 0 ? (int64_t)t->dt : app->charz.dt_ns, t->by,
                         t->threshold_idx >= 0 ? t->threshold_idx : app->charz.threshold_idx);
}

/* Parse text; with session set also the view, sort and Characterisation lines. */
static int restore(struct tui_app *app, const char *text, size_t len, int session,
                   const char *where, struct iodfg_error *err)
{
    struct tui_lines t = {
        .app = app, .view = -1, .dt = -1, .by = app->charz.by, .threshold_idx = -1};
    for (int i = 0; i < TUI_VIEW_COUNT; i++) {
        t.sorts[i][0] = -2;
    }
    if (iodfg_session_state_parse(app->ses, text, len, where, session ? tui_line : NULL, &t, err) ||
        tui_app_rebuild(app, err)) {
        return -1;
    }
    if (session) {
        apply_lines(app, &t);
    }
    return 0;
}

int tui_app_restore(struct tui_app *app, const char *text, size_t len, struct iodfg_error *err)
{
    return restore(app, text, len, 0, "snapshot", err);
}

int tui_app_session_load(struct tui_app *app, const char *path, struct iodfg_error *err)
{
    size_t len;
    char *text = iodfg_textfile_read(path, "session file", (size_t)16 << 20, &len, err);
    if (!text) {
        return -1;
    }
    int rc = restore(app, text, len, 1, path, err);
    free(text);
    if (rc == 0) {
        tui_app_record(app);
    }
    return rc;
}

int tui_app_not_input(const struct tui_app *app, const char *path, struct iodfg_error *err)
{
    for (size_t i = 0; i < app->ninputs; i++) {
        if (iodfg_atomic_not_input(path, app->inputs[i], err)) {
            return -1;
        }
    }
    return 0;
}

int tui_app_session_save(struct tui_app *app, const char *path, struct iodfg_error *err)
{
    if (tui_app_not_input(app, path, err)) {
        return -1;
    }
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
