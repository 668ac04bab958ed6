/* SPDX-License-Identifier: MIT */
/* Commands of the TUI: the current view's own table first (view.h), then the global table
 * here. Each handler changes the app and returns enum tui_result flags (prompts it opens come
 * back in app_prompt.c). */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "iodfg/buf.h"
#include "iodfg/error.h"
#include "iodfg/sanitize.h"

#include "tui/app.h"
#include "tui/app_priv.h"
#include "tui/listmodel.h"
#include "tui/view.h"

struct tui_listmodel *tui_app_table(struct tui_app *app)
{
    return tui_app_view_table(app, app->view);
}

void tui_app_report(struct tui_app *app, const char *what, const struct iodfg_error *err)
{
    char msg[400];
    tui_app_set_message(app, 1, "%s: %s", what, iodfg_error_format(err, msg, sizeof(msg)));
}

unsigned tui_app_changed(struct tui_app *app)
{
    return tui_app_settle(app, TUI_CHANGED);
}

unsigned tui_app_ask(struct tui_app *app, enum tui_prompt p, const char *label, const char *init)
{
    app->prompt = p;
    snprintf(app->prompt_label, sizeof(app->prompt_label), "%s", label);
    snprintf(app->prompt_init, sizeof(app->prompt_init), "%s", init ? init : "");
    return TUI_PROMPT | TUI_REDRAW;
}

/* ---- views, help, quitting ---- */

static unsigned show_view(struct tui_app *app, struct tui_listmodel *lm, enum tui_cmd cmd)
{
    (void)lm;
    app->show_filters = 0;
    tui_app_show(app, tui_view_of_command(cmd));
    return TUI_REDRAW;
}

static unsigned help(struct tui_app *app, struct tui_listmodel *lm, enum tui_cmd cmd)
{
    (void)lm;
    (void)cmd;
    if (app->view != TUI_VIEW_HELP) {
        app->prev_view = app->view;
    }
    tui_app_show(app, TUI_VIEW_HELP);
    return TUI_REDRAW;
}

/* Esc: closes the filter list (views close what they have open first). */
static unsigned close_view(struct tui_app *app, struct tui_listmodel *lm, enum tui_cmd cmd)
{
    (void)lm;
    (void)cmd;
    app->show_filters = 0;
    return TUI_REDRAW;
}

static int rules_unsaved(const struct tui_app *app)
{
    struct iodfg_buf b;
    iodfg_buf_init(&b);
    iodfg_rules_format(app->rules, &b);
    int diff = strcmp(b.data ? b.data : "", app->rules_saved ? app->rules_saved : "") != 0;
    iodfg_buf_fini(&b);
    return diff;
}

static unsigned quit(struct tui_app *app, struct tui_listmodel *lm, enum tui_cmd cmd)
{
    (void)lm;
    (void)cmd;
    if (rules_unsaved(app)) {
        return tui_app_ask(app, TUI_PROMPT_QUIT,
                           "rules not saved: y quit, w save and quit, other key stays", "");
    }
    return TUI_QUIT;
}

/* ---- the current table ---- */

static unsigned move(struct tui_app *app, struct tui_listmodel *lm, enum tui_cmd cmd)
{
    (void)app;
    tui_cmd_move_table(lm, cmd);
    return TUI_REDRAW;
}

static unsigned sort(struct tui_app *app, struct tui_listmodel *lm, enum tui_cmd cmd)
{
    (void)app;
    if (cmd == TUI_CMD_SORT_NEXT) {
        tui_listmodel_sort_next(lm);
    } else {
        tui_listmodel_sort_reverse(lm);
    }
    return TUI_REDRAW;
}

static unsigned search(struct tui_app *app, struct tui_listmodel *lm, enum tui_cmd cmd)
{
    (void)cmd;
    tui_listmodel_search_begin(lm);
    return tui_app_ask(app, TUI_PROMPT_SEARCH, "/", "");
}

static unsigned search_next(struct tui_app *app, struct tui_listmodel *lm, enum tui_cmd cmd)
{
    int down = cmd == TUI_CMD_SEARCH_NEXT;
    if (!tui_listmodel_search_next(lm, down ? 1 : -1)) {
        tui_app_set_message(app, 0, "no match");
    } else if (tui_listmodel_search_wrapped(lm)) {
        tui_app_set_message(app, 0, "search wrapped to the %s", down ? "top" : "bottom");
    }
    return TUI_REDRAW;
}

/* < > (Left Right in tables): the name columns sideways, a third of a typical name at a time. */
static unsigned scroll_names(struct tui_app *app, struct tui_listmodel *lm, enum tui_cmd cmd)
{
    (void)app;
    int step = cmd == TUI_CMD_SCROLL_RIGHT ? 8 : -8;
    tui_listmodel_set_hscroll(lm,
                              cmd == TUI_CMD_SCROLL_LEFT ? 0 : tui_listmodel_hscroll(lm) + step);
    return TUI_REDRAW;
}

/* y: the selected row's name (the name its detail line starts with) to the terminal's
 * clipboard, sanitised; the loop writes it (OSC 52) when the answer has TUI_COPY. */
static unsigned copy_name(struct tui_app *app, struct tui_listmodel *lm, enum tui_cmd cmd)
{
    (void)lm;
    (void)cmd;
    const struct tui_view_ops *ops = tui_view_ops(app->view);
    char line[1024];
    line[0] = '\0';
    size_t n = ops->detail ? ops->detail(app, app->view_state[app->view], line, sizeof(line)) : 0;
    if (n == 0) {
        tui_app_set_message(app, 1, "copy-name: nothing with a name is selected here");
        return TUI_REDRAW;
    }
    struct iodfg_buf b;
    iodfg_buf_init(&b);
    iodfg_sanitize_term(&b, line, n);
    snprintf(app->clipboard, sizeof(app->clipboard), "%s", b.data ? b.data : "");
    iodfg_buf_fini(&b);
    tui_app_set_message(app, 0, "copied with OSC 52 (the terminal may not support it): %s",
                        app->clipboard);
    return TUI_REDRAW | TUI_COPY;
}

/* `:` a command line (app_cmdline.c runs it). */
static unsigned command_line(struct tui_app *app, struct tui_listmodel *lm, enum tui_cmd cmd)
{
    (void)lm;
    (void)cmd;
    return tui_app_ask(app, TUI_PROMPT_COMMAND, ":", "");
}

/* h / l in the Characterisation view: the previous / next activity in the Activities table's
 * order (the selected activity). */
static unsigned next_activity(struct tui_app *app, struct tui_listmodel *lm, enum tui_cmd cmd)
{
    (void)lm;
    tui_listmodel_move(tui_app_view_table(app, TUI_VIEW_ACTIVITIES),
                       cmd == TUI_CMD_ACTIVITY_NEXT ? 1 : -1);
    tui_app_activity_moved(app);
    return TUI_REDRAW;
}

/* ---- filters, groups, thresholds, undo ---- */

static unsigned add_filter(struct tui_app *app, struct tui_listmodel *lm, enum tui_cmd cmd)
{
    (void)lm;
    (void)cmd;
    return tui_app_ask(app, TUI_PROMPT_FILTER, "filter (path~RE call=a,b cid=X time=A..B)", "");
}

static unsigned list_filters(struct tui_app *app, struct tui_listmodel *lm, enum tui_cmd cmd)
{
    (void)lm;
    (void)cmd;
    app->show_filters = !app->show_filters;
    return TUI_REDRAW;
}

static unsigned pop_filter(struct tui_app *app, struct tui_listmodel *lm, enum tui_cmd cmd)
{
    (void)lm;
    (void)cmd;
    if (iodfg_filter_stack_pop(app->filters)) {
        tui_app_set_message(app, 0, "no filter to remove");
        return TUI_REDRAW;
    }
    return tui_app_changed(app);
}

/* Backspace in the views a finding jumps to: back to where the jump came from (a view's back
 * op), else the last filter goes. */
static unsigned jump_back(struct tui_app *app, struct tui_listmodel *lm, enum tui_cmd cmd)
{
    return tui_app_back(app) ? TUI_REDRAW : pop_filter(app, lm, cmd);
}

/* Enter on an activity (Activities, Transitions, Diff, Graph): a rule one directory level
 * deeper and the matching filter. */
static unsigned drill(struct tui_app *app, struct tui_listmodel *lm, enum tui_cmd cmd)
{
    (void)lm;
    (void)cmd;
    const struct tui_view_ops *ops = tui_view_ops(app->view);
    uint32_t a = ops->activity ? ops->activity(app, app->view_state[app->view]) : UINT32_MAX;
    if (a == UINT32_MAX || a >= app->map->nactivities) {
        tui_app_set_message(app, 1, "drill-down: select an activity");
        return TUI_REDRAW;
    }
    struct iodfg_error err;
    iodfg_error_clear(&err);
    char name[256];
    snprintf(name, sizeof(name), "%s", tui_app_activity_name(app, a));
    if (tui_app_drilldown(app, a, &err)) {
        tui_app_report(app, "drill-down", &err);
        return TUI_REDRAW;
    }
    tui_app_changed(app);
    tui_listmodel_first(tui_app_view_table(app, TUI_VIEW_ACTIVITIES));
    tui_app_set_message(app, 0, "drilled into %s (rule 1 and a filter added; u undoes)", name);
    return TUI_REDRAW;
}

/* g, r and Enter on a handle elsewhere than where they apply: where to go. */
static unsigned group_here(struct tui_app *app, struct tui_listmodel *lm, enum tui_cmd cmd)
{
    (void)lm;
    (void)cmd;
    tui_app_set_message(app, 1, "select a case in the Cases view");
    return TUI_REDRAW;
}

static unsigned filter_path_here(struct tui_app *app, struct tui_listmodel *lm, enum tui_cmd cmd)
{
    (void)lm;
    (void)cmd;
    tui_app_set_message(app, 1, "filter-path: select a handle in 9 Handles");
    return TUI_REDRAW;
}

static unsigned group_match(struct tui_app *app, struct tui_listmodel *lm, enum tui_cmd cmd)
{
    (void)lm;
    if (cmd == TUI_CMD_GROUP_G_MATCH) {
        return tui_app_ask(app, TUI_PROMPT_GROUP_G, "cases into G (regex on name, or cid=X)", "");
    }
    return tui_app_ask(app, TUI_PROMPT_GROUP_R, "cases into R (regex on name, or cid=X)", "");
}

static unsigned group_clear(struct tui_app *app, struct tui_listmodel *lm, enum tui_cmd cmd)
{
    (void)lm;
    (void)cmd;
    iodfg_session_groups_clear(app->ses);
    return tui_app_changed(app);
}

/* [ ] { }: the path or activity threshold by 10 percent, within 10..100. */
static unsigned threshold(struct tui_app *app, struct tui_listmodel *lm, enum tui_cmd cmd)
{
    (void)lm;
    int which = cmd == TUI_CMD_ACTIVITY_THRESHOLD_DOWN || cmd == TUI_CMD_ACTIVITY_THRESHOLD_UP;
    int delta = cmd == TUI_CMD_PATH_THRESHOLD_UP || cmd == TUI_CMD_ACTIVITY_THRESHOLD_UP ? 10 : -10;
    int pct[2];
    iodfg_session_thresholds(app->ses, &pct[0], &pct[1]);
    int v = pct[which] + delta;
    v = v < 10 ? 10 : v > 100 ? 100 : v;
    if (v == pct[which]) {
        return TUI_REDRAW;
    }
    pct[which] = v;
    iodfg_session_set_thresholds(app->ses, pct[0], pct[1]);
    return tui_app_changed(app);
}

/* A: the runtime's activities folded, or all shown (app_focus.c). */
static unsigned focus(struct tui_app *app, struct tui_listmodel *lm, enum tui_cmd cmd)
{
    (void)lm;
    (void)cmd;
    return tui_app_focus_set(app, NULL);
}

static unsigned undo_redo(struct tui_app *app, struct tui_listmodel *lm, enum tui_cmd cmd)
{
    (void)lm;
    int redo = cmd == TUI_CMD_REDO;
    struct iodfg_error err;
    iodfg_error_clear(&err);
    int rc = redo ? iodfg_session_redo(app->ses, &err) : iodfg_session_undo(app->ses, &err);
    if (rc > 0) {
        tui_app_set_message(app, 0, "nothing to %s", redo ? "redo" : "undo");
    } else if (rc < 0 || tui_app_rebuild(app, &err)) {
        tui_app_report(app, redo ? "redo" : "undo", &err);
    } else {
        tui_app_set_message(app, 0, "%s", redo ? "redone" : "undone");
    }
    return TUI_REDRAW;
}

/* ---- output ---- */

/* Ask for the file name of an export, proposing one that does not exist yet. */
static unsigned export(struct tui_app *app, struct tui_listmodel *lm, enum tui_cmd cmd)
{
    int dot = cmd == TUI_CMD_EXPORT_DOT;
    if (!dot && !lm) {
        tui_app_set_message(app, 1, "export-tsv: this view has no table");
        return TUI_REDRAW;
    }
    char name[128];
    do {
        snprintf(name, sizeof(name), "iodfg-%s-%u.%s", tui_view_name(app->view), ++app->export_seq,
                 dot ? "dot" : "tsv");
    } while (access(name, F_OK) == 0 && app->export_seq < 10000);
    return tui_app_ask(app, dot ? TUI_PROMPT_EXPORT_DOT : TUI_PROMPT_EXPORT_TSV,
                       dot ? "export DOT to" : "export TSV to", name);
}

/* P: the name of a rule preset (the engine's table names them). */
static unsigned rule_preset(struct tui_app *app, struct tui_listmodel *lm, enum tui_cmd cmd)
{
    (void)lm;
    (void)cmd;
    char label[64] = "rule preset (";
    const char *name;
    for (size_t i = 0; (name = iodfg_rules_preset_name(i, NULL)); i++) {
        size_t k = strlen(label);
        snprintf(label + k, sizeof(label) - k, "%s%s", i ? ", " : "", name);
    }
    size_t k = strlen(label);
    snprintf(label + k, sizeof(label) - k, ")");
    return tui_app_ask(app, TUI_PROMPT_PRESET, label, "");
}

static unsigned save_session(struct tui_app *app, struct tui_listmodel *lm, enum tui_cmd cmd)
{
    (void)lm;
    (void)cmd;
    struct iodfg_error err;
    iodfg_error_clear(&err);
    const char *path = app->session_path ? app->session_path : "iodfg.session";
    if (tui_app_session_save(app, path, &err)) {
        tui_app_report(app, "session", &err);
    } else {
        tui_app_set_message(app, 0, "session saved to %s", path);
    }
    return TUI_REDRAW;
}

static unsigned cycle_theme(struct tui_app *app, struct tui_listmodel *lm, enum tui_cmd cmd)
{
    (void)app;
    (void)lm;
    (void)cmd;
    return TUI_THEME | TUI_REDRAW;
}

/* ---- the global table ---- */

enum {
    NEEDS_TABLE = 1 /* acts on the current view's table: nothing happens without one */
};

/* Global handlers get the current view's table (NULL: none) instead of a view's state. */
static const struct {
    enum tui_cmd cmd;
    unsigned (*fn)(struct tui_app *app, struct tui_listmodel *lm, enum tui_cmd cmd);
    unsigned flags;
} global_cmds[] = {
#define VIEW(id, ops, name, key, tab, title, help) {TUI_CMD_VIEW_##id, show_view, 0},
#include "tui/views.def"
#undef VIEW
    {TUI_CMD_HELP, help, 0},
    {TUI_CMD_CLOSE, close_view, 0},
    {TUI_CMD_CANCEL, close_view, 0},
    {TUI_CMD_QUIT, quit, 0},
    {TUI_CMD_MOVE_UP, move, NEEDS_TABLE},
    {TUI_CMD_MOVE_DOWN, move, NEEDS_TABLE},
    {TUI_CMD_PAGE_UP, move, NEEDS_TABLE},
    {TUI_CMD_PAGE_DOWN, move, NEEDS_TABLE},
    {TUI_CMD_MOVE_FIRST, move, NEEDS_TABLE},
    {TUI_CMD_MOVE_LAST, move, NEEDS_TABLE},
    {TUI_CMD_SCROLL_LEFT, scroll_names, NEEDS_TABLE},
    {TUI_CMD_SCROLL_RIGHT, scroll_names, NEEDS_TABLE},
    {TUI_CMD_SORT_NEXT, sort, NEEDS_TABLE},
    {TUI_CMD_SORT_REVERSE, sort, NEEDS_TABLE},
    {TUI_CMD_SEARCH, search, NEEDS_TABLE},
    {TUI_CMD_SEARCH_NEXT, search_next, NEEDS_TABLE},
    {TUI_CMD_SEARCH_PREV, search_next, NEEDS_TABLE},
    {TUI_CMD_ADD_FILTER, add_filter, 0},
    {TUI_CMD_LIST_FILTERS, list_filters, 0},
    {TUI_CMD_POP_FILTER, pop_filter, 0},
    {TUI_CMD_DRILL_DOWN, drill, 0},
    {TUI_CMD_JUMP_BACK, jump_back, 0},
    {TUI_CMD_RULE_PRESET, rule_preset, 0},
    {TUI_CMD_PATH_THRESHOLD_DOWN, threshold, 0},
    {TUI_CMD_PATH_THRESHOLD_UP, threshold, 0},
    {TUI_CMD_ACTIVITY_THRESHOLD_DOWN, threshold, 0},
    {TUI_CMD_ACTIVITY_THRESHOLD_UP, threshold, 0},
    {TUI_CMD_FOCUS, focus, 0},
    {TUI_CMD_UNDO, undo_redo, 0},
    {TUI_CMD_REDO, undo_redo, 0},
    {TUI_CMD_ACTIVITY_PREV, next_activity, 0},
    {TUI_CMD_ACTIVITY_NEXT, next_activity, 0},
    {TUI_CMD_FILTER_PATH, filter_path_here, 0},
    {TUI_CMD_GROUP_G, group_here, 0},
    {TUI_CMD_GROUP_R, group_here, 0},
    {TUI_CMD_GROUP_G_MATCH, group_match, 0},
    {TUI_CMD_GROUP_R_MATCH, group_match, 0},
    {TUI_CMD_GROUP_CLEAR, group_clear, 0},
    {TUI_CMD_EXPORT_DOT, export, 0},
    {TUI_CMD_EXPORT_TSV, export, 0},
    {TUI_CMD_SAVE_SESSION, save_session, 0},
    {TUI_CMD_CYCLE_THEME, cycle_theme, 0},
    {TUI_CMD_COPY_NAME, copy_name, 0},
    {TUI_CMD_COMMAND_LINE, command_line, 0},
};

int tui_app_command_global(enum tui_cmd cmd)
{
    for (size_t i = 0; i < sizeof(global_cmds) / sizeof(global_cmds[0]); i++) {
        if (global_cmds[i].cmd == cmd) {
            return 1;
        }
    }
    return 0;
}

static unsigned run_global(struct tui_app *app, struct tui_listmodel *lm, enum tui_cmd cmd)
{
    for (size_t i = 0; i < sizeof(global_cmds) / sizeof(global_cmds[0]); i++) {
        if (global_cmds[i].cmd == cmd) {
            if ((global_cmds[i].flags & NEEDS_TABLE) && !lm) {
                return TUI_REDRAW;
            }
            return global_cmds[i].fn(app, lm, cmd);
        }
    }
    return TUI_REDRAW; // none (redraw, none, or a view's command elsewhere)
}

unsigned tui_app_command(struct tui_app *app, enum tui_cmd cmd)
{
    struct tui_listmodel *lm = tui_app_table(app); // refills a stale table first
    if (cmd != TUI_CMD_NONE) {
        app->message[0] = '\0';
    }
    const struct tui_view_ops *ops = tui_view_ops(app->view);
    unsigned r = tui_cmd_run(ops->cmds, ops->ncmds, app, app->view_state[app->view], cmd);
    return tui_app_settle(app, r & TUI_PASS ? run_global(app, lm, cmd) : r);
}
