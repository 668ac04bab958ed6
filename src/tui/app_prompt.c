/* SPDX-License-Identifier: MIT */
/* Prompt answers of the TUI (tui_app_prompt_change while typing, tui_app_prompt_done on Enter
 * or Esc): live rule edits, filters, group patterns, file names for exports and the rules
 * file; and the DOT and TSV exports of what is shown. */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "iodfg/atomicfile.h"
#include "iodfg/buf.h"
#include "iodfg/error.h"
#include "iodfg/export.h"
#include "iodfg/sanitize.h"

#include "tui/app.h"
#include "tui/app_priv.h"
#include "tui/listmodel.h"

/* ---- prompts ---- */

/* A live prompt the current view opened; a rule edit is settled in two tiers, accepted too
 * (tiers: 1). */
static unsigned view_prompt(struct tui_app *app, const char *text, int done, int tiers)
{
    const struct tui_view_ops *ops = tui_view_ops(app->view);
    unsigned r =
        ops->prompt ? ops->prompt(app, app->view_state[app->view], text, done) : TUI_REDRAW;
    return !done ? tui_app_settle_live(app, r)
           : tiers ? tui_app_settle_first(app, r)
                   : tui_app_settle(app, r);
}

unsigned tui_app_prompt_change(struct tui_app *app, const char *text)
{
    if (app->prompt == TUI_PROMPT_RULE) {
        return view_prompt(app, text, 0, 1);
    }
    struct tui_listmodel *lm = app->prompt == TUI_PROMPT_SEARCH ? tui_app_table(app) : NULL;
    if (lm) {
        int found = tui_listmodel_search_set(lm, text);
        const char *bad = tui_listmodel_search_error(lm);
        if (*text && bad) { // typing "(" on the way to "(read|write)": as text meanwhile
            tui_app_set_message(app, 0, "%s; not a regex (%s): matching it as text",
                                found > 0 ? "found" : "no match", bad);
        } else if (found == 0 && *text) {
            tui_app_set_message(app, 0, "no match");
        } else if (found > 0 && tui_listmodel_search_wrapped(lm)) {
            tui_app_set_message(app, 0, "search wrapped to the top");
        } else {
            app->message[0] = '\0';
        }
    }
    return TUI_REDRAW;
}

static unsigned write_export(struct tui_app *app, const char *path, int dot)
{
    struct iodfg_error err;
    iodfg_error_clear(&err);
    struct iodfg_buf b;
    iodfg_buf_init(&b);
    int rc = dot ? tui_app_export_dot(app, &b, &err) : tui_app_export_tsv(app, &b, &err);
    if (rc == 0) {
        rc = iodfg_atomic_write(path, b.data ? b.data : "", b.len, 0, &err);
    }
    iodfg_buf_fini(&b);
    if (rc) {
        tui_app_report(app, dot ? "export-dot" : "export-tsv", &err);
    } else {
        tui_app_set_message(app, 0, "wrote %s", path);
    }
    return TUI_REDRAW;
}

static unsigned save_rules(struct tui_app *app, const char *path)
{
    struct iodfg_error err;
    iodfg_error_clear(&err);
    struct iodfg_buf b;
    iodfg_buf_init(&b);
    iodfg_rules_format(app->rules, &b);
    if (tui_app_not_input(app, path, &err) ||
        iodfg_atomic_write(path, b.data ? b.data : "", b.len, 1, &err)) {
        tui_app_report(app, "save", &err);
        iodfg_buf_fini(&b);
        return TUI_REDRAW;
    }
    free(app->rules_saved);
    app->rules_saved = strdup(b.data ? b.data : "");
    if (!app->rules_path || strcmp(app->rules_path, path) != 0) {
        free(app->rules_path);
        app->rules_path = strdup(path);
    }
    iodfg_buf_fini(&b);
    tui_app_set_message(app, 0, "rules saved to %s", path);
    return TUI_REDRAW;
}

/* Load the rules of the preset called name into the live rules (undoable like any rule edit). */
static unsigned load_preset(struct tui_app *app, const char *name)
{
    const char *text = iodfg_rules_preset(name);
    if (!text) {
        tui_app_set_message(app, 1, "rule-preset: no preset called %s", name);
        return TUI_REDRAW;
    }
    struct iodfg_error err;
    iodfg_error_clear(&err);
    if (iodfg_session_set_rules(app->ses, text, strlen(text), name, &err)) {
        tui_app_report(app, "rule-preset", &err);
        return TUI_REDRAW;
    }
    tui_app_changed(app);
    if (!app->message[0]) {
        tui_app_set_message(app, 0, "rules: preset %s loaded (u undoes)", name);
    }
    return TUI_REDRAW;
}

unsigned tui_app_prompt_done(struct tui_app *app, const char *text)
{
    enum tui_prompt p = app->prompt;
    app->prompt = TUI_PROMPT_NONE;
    struct iodfg_error err;
    iodfg_error_clear(&err);
    struct tui_listmodel *lm = tui_app_table(app);
    switch (p) {
    case TUI_PROMPT_SEARCH:
        if (!text && lm) {
            tui_listmodel_search_set(lm, "");
        }
        return TUI_REDRAW;
    case TUI_PROMPT_RULE:
        return view_prompt(app, text, 1, 1);
    case TUI_PROMPT_EXPORT_SVG: // the view that asked writes its picture
        return view_prompt(app, text, 1, 0);
    case TUI_PROMPT_COMMAND:
        return text && *text ? tui_app_command_line(app, text) : TUI_REDRAW;
    case TUI_PROMPT_QUIT:
        if (text && strcmp(text, "y") == 0) {
            return TUI_QUIT;
        }
        if (text && strcmp(text, "w") == 0) {
            save_rules(app, app->rules_path ? app->rules_path : "iodfg.rules");
            return app->message_error ? TUI_REDRAW : TUI_QUIT;
        }
        return TUI_REDRAW;
    default:
        break;
    }
    if (!text || !*text) {
        return TUI_REDRAW;
    }
    switch (p) {
    case TUI_PROMPT_FILTER:
        if (iodfg_filter_stack_push_text(app->filters, text, &err)) {
            tui_app_report(app, "filter", &err);
            return TUI_REDRAW;
        }
        return tui_app_changed(app);
    case TUI_PROMPT_GROUP_G:
    case TUI_PROMPT_GROUP_R: {
        long n = iodfg_session_group_match(
            app->ses, text, p == TUI_PROMPT_GROUP_G ? IODFG_GROUP_G : IODFG_GROUP_R, &err);
        if (n < 0) {
            tui_app_report(app, "group", &err);
            return TUI_REDRAW;
        }
        tui_app_changed(app);
        tui_app_set_message(app, 0, "%ld cases into %c", n, p == TUI_PROMPT_GROUP_G ? 'G' : 'R');
        return TUI_REDRAW;
    }
    case TUI_PROMPT_EXPORT_DOT:
    case TUI_PROMPT_EXPORT_TSV:
        return write_export(app, text, p == TUI_PROMPT_EXPORT_DOT);
    case TUI_PROMPT_SAVE_RULES:
        return save_rules(app, text);
    case TUI_PROMPT_PRESET:
        return load_preset(app, text);
    default:
        return TUI_REDRAW;
    }
}

/* ---- exports ---- */

int tui_app_export_dot(struct tui_app *app, struct iodfg_buf *out, struct iodfg_error *err)
{
    struct iodfg_buf comment;
    iodfg_buf_init(&comment);
    iodfg_buf_addf(&comment, "iodfg %s\nrules:\n", app->log_name);
    iodfg_rules_format(app->rules, &comment);
    iodfg_buf_add(&comment, "filters:", 8);
    if (iodfg_filter_stack_count(app->filters)) {
        iodfg_buf_add(&comment, " ", 1);
        iodfg_filter_stack_format(app->filters, "  ", &comment);
    }
    int paths, acts;
    iodfg_session_thresholds(app->ses, &paths, &acts);
    iodfg_buf_addf(&comment, "\nthresholds: paths %d%% activities %d%%", paths, acts);
    if ((app->diff != NULL)) {
        iodfg_buf_addf(&comment, "\ngroups: G %u cases, R %u cases", app->counts->g_cases,
                       app->counts->r_cases);
    }
    struct iodfg_dot_options o;
    iodfg_dot_options_init(&o);
    o.comment = comment.data;
    o.node_on = app->node_on;
    o.edge_on = app->edge_on;
    const struct tui_view_ops *ops = tui_view_ops(app->view);
    if (ops->export_dot) {
        ops->export_dot(app, app->view_state[app->view], &o);
    }
    int rc = comment.failed ? iodfg_error_set(err, IODFG_E_NOMEM, NULL)
                            : iodfg_export_dot(out, iodfg_session_dfg(app->ses),
                                               iodfg_session_stats(app->ses), app->map, &o, err);
    iodfg_buf_fini(&comment);
    return rc;
}

int tui_app_export_tsv(struct tui_app *app, struct iodfg_buf *out, struct iodfg_error *err)
{
    struct tui_listmodel *lm = tui_app_table(app);
    if (!lm) {
        return iodfg_error_set(err, IODFG_E_ARG, "this view has no table");
    }
    const struct tui_view_ops *ops = tui_view_ops(app->view);
    if (ops->export_tsv) { // exact values in base units
        return ops->export_tsv(app, app->view_state[app->view], out, err);
    }
    int nc = tui_listmodel_ncols(lm);
    for (int c = 0; c < nc; c++) {
        const struct tui_column *col = tui_listmodel_column(lm, c);
        iodfg_buf_addf(out, "%s%s", c ? "\t" : "", col->tsv ? col->tsv : col->title);
    }
    iodfg_buf_add(out, "\n", 1);
    size_t n = tui_listmodel_count(lm);
    for (size_t i = 0; i < n; i++) {
        for (int c = 0; c < nc; c++) {
            char buf[1024];
            const char *t = tui_listmodel_exact_cell(lm, i, c, buf, sizeof(buf));
            if (c) {
                iodfg_buf_add(out, "\t", 1);
            }
            iodfg_sanitize_tsv(out, t, strlen(t));
        }
        iodfg_buf_add(out, "\n", 1);
    }
    return out->failed ? iodfg_error_set(err, IODFG_E_NOMEM, NULL) : 0;
}
