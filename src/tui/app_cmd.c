/* SPDX-License-Identifier: MIT */
/* Command handlers of the TUI: each changes the app state and returns enum tui_result flags
 * (prompts they open come back in app_prompt.c). */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "iodfg/analysis.h"
#include "iodfg/buf.h"
#include "iodfg/dfg.h"
#include "iodfg/error.h"
#include "iodfg/eventlog.h"
#include "iodfg/export.h"
#include "iodfg/format.h"
#include "iodfg/strpool.h"

#include "tui/app.h"
#include "tui/listmodel.h"
#include "tui/timeline_job.h"
#include "tui/views.h"

struct tui_listmodel *tui_app_table(struct tui_app *app)
{
    const struct tui_view_ops *ops = tui_view_ops(app->view);
    if (ops->table) {
        return ops->table(app, app->view_state[app->view]);
    }
    if (app->view == TUI_VIEW_CASES && app->show_variants) {
        return app->variants_lm;
    }
    if (app->view == TUI_VIEW_TIMELINE) {
        return app->tl.show_events ? app->events_lm : NULL;
    }
    return app->view < TUI_VIEW_COUNT ? app->lm[app->view] : NULL;
}

void tui_app_report(struct tui_app *app, const char *what, const struct iodfg_error *err)
{
    char msg[400];
    tui_app_set_message(app, 1, "%s: %s", what, iodfg_error_format(err, msg, sizeof(msg)));
}

unsigned tui_app_changed(struct tui_app *app)
{
    struct iodfg_error err;
    iodfg_error_clear(&err);
    if (tui_app_rebuild(app, &err)) {
        tui_app_report(app, "rebuild", &err);
    } else {
        tui_app_record(app);
    }
    return TUI_REDRAW;
}

unsigned tui_app_ask(struct tui_app *app, enum tui_prompt p, const char *label, const char *init)
{
    app->prompt = p;
    snprintf(app->prompt_label, sizeof(app->prompt_label), "%s", label);
    snprintf(app->prompt_init, sizeof(app->prompt_init), "%s", init ? init : "");
    return TUI_PROMPT | TUI_REDRAW;
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

static unsigned propose(struct tui_app *app, enum tui_prompt p, const char *ext)
{
    char name[128];
    do {
        snprintf(name, sizeof(name), "iodfg-%s-%u.%s", tui_view_name(app->view), ++app->export_seq,
                 ext);
    } while (access(name, F_OK) == 0 && app->export_seq < 10000);
    return tui_app_ask(app, p, p == TUI_PROMPT_EXPORT_DOT ? "export DOT to" : "export TSV to",
                       name);
}

static unsigned undo_redo(struct tui_app *app, int redo)
{
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

static uint32_t row_activity(struct tui_app *app)
{
    struct tui_listmodel *lm = tui_app_table(app);
    if (!lm || tui_listmodel_count(lm) == 0) {
        return UINT32_MAX;
    }
    size_t row = tui_listmodel_row(lm, tui_listmodel_cursor(lm));
    switch (app->view) {
    case TUI_VIEW_ACTIVITIES:
        return app->act_rows[row];
    case TUI_VIEW_TRANSITIONS: {
        const struct iodfg_dfg_edge *e = &iodfg_analysis_dfg(app->an)->edges[app->edge_rows[row]];
        return e->from < app->map->nactivities ? e->from : e->to;
    }
    case TUI_VIEW_DIFF:
        return app->diff_rows[row].is_edge ? app->diff->edges[app->diff_rows[row].idx].from
                                           : app->diff_rows[row].idx;
    default:
        return UINT32_MAX;
    }
}

static unsigned drill(struct tui_app *app)
{
    uint32_t a = app->view == TUI_VIEW_GRAPH ? tui_app_graph_activity(app) : row_activity(app);
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
    tui_listmodel_first(app->lm[TUI_VIEW_ACTIVITIES]);
    tui_app_set_message(app, 0, "drilled into %s (rule 1 and a filter added; u undoes)", name);
    return TUI_REDRAW;
}

/* Put every case that follows variant v into group (1 G, 2 R). Returns the number of cases. */
static uint32_t group_variant(struct tui_app *app, const struct tui_variant *v, int group)
{
    uint32_t nc = iodfg_eventlog_case_count(app->log), n = 0;
    for (uint32_t c = 0; c < nc; c++) {
        if (tui_views_case_variant(app, c, NULL) == v->hash) {
            iodfg_session_group_set(app->ses, c, (enum iodfg_group)group);
            n++;
        }
    }
    return n;
}

static unsigned variant_selected(struct tui_app *app, int group)
{
    struct tui_listmodel *lm = app->variants_lm;
    if (app->nvariants == 0) {
        return TUI_REDRAW;
    }
    struct tui_variant v = app->variants[tui_listmodel_row(lm, tui_listmodel_cursor(lm))];
    uint32_t n = group_variant(app, &v, group);
    tui_app_changed(app);
    tui_app_set_message(app, 0, "%u cases of this variant into %c", n, group == 1 ? 'G' : 'R');
    return TUI_REDRAW;
}

/* Enter: Cases filters to the case, a variant puts its cases into G, Timeline lists the
 * selected case's events of the activity. */
static unsigned show_events(struct tui_app *app, struct tui_listmodel *lm)
{
    if (app->view == TUI_VIEW_TIMELINE) {
        if (!app->tl.show_events && tui_app_timeline_busy(app)) {
            tui_app_set_message(app, 0, "indexing the timeline… Enter again when it is drawn");
            return TUI_REDRAW;
        }
        if (!app->tl.show_events && tui_app_timeline_events(app)) {
            tui_app_set_message(app, 1, "no events to list");
        }
        return TUI_REDRAW;
    }
    if (app->view != TUI_VIEW_CASES) {
        return TUI_REDRAW;
    }
    if (app->show_variants) {
        return variant_selected(app, 1);
    }
    if (app->ncase_rows == 0) {
        return TUI_REDRAW;
    }
    uint32_t c = app->case_rows[tui_listmodel_row(lm, tui_listmodel_cursor(lm))];
    char f[300];
    snprintf(f, sizeof(f), "name=%s", tui_app_case_name(app, c));
    struct iodfg_error err;
    iodfg_error_clear(&err);
    if (iodfg_filter_stack_push_text(app->filters, f, &err)) {
        tui_app_report(app, "filter", &err);
        return TUI_REDRAW;
    }
    return tui_app_changed(app);
}

/* Enter in Handles (which takes it when a handle is selected). */
static unsigned filter_path(struct tui_app *app)
{
    tui_app_set_message(app, 1, "filter-path: select a handle in 9 Handles");
    return TUI_REDRAW;
}

static unsigned group_selected(struct tui_app *app, int group)
{
    if (app->view == TUI_VIEW_CASES && app->show_variants) {
        return variant_selected(app, group);
    }
    if (app->view != TUI_VIEW_CASES || app->ncase_rows == 0) {
        tui_app_set_message(app, 1, "select a case in the Cases view");
        return TUI_REDRAW;
    }
    struct tui_listmodel *lm = app->lm[TUI_VIEW_CASES];
    uint32_t c = app->case_rows[tui_listmodel_row(lm, tui_listmodel_cursor(lm))];
    int now = (int)iodfg_session_group_of(app->ses, c);
    iodfg_session_group_set(app->ses, c, (enum iodfg_group)(now == group ? 0 : group));
    tui_listmodel_move(lm, 1);
    return tui_app_changed(app);
}

static unsigned move(struct tui_app *app, enum tui_cmd cmd)
{
    long step = cmd == TUI_CMD_MOVE_UP      ? -1
                : cmd == TUI_CMD_MOVE_DOWN  ? 1
                : cmd == TUI_CMD_PAGE_UP    ? -20
                : cmd == TUI_CMD_PAGE_DOWN  ? 20
                : cmd == TUI_CMD_MOVE_FIRST ? -1000000000L
                                            : 1000000000L;
    struct tui_listmodel *lm = tui_app_table(app);
    if (lm) {
        if (cmd == TUI_CMD_PAGE_UP || cmd == TUI_CMD_PAGE_DOWN) {
            tui_listmodel_page(lm, step < 0 ? -1 : 1);
        } else if (cmd == TUI_CMD_MOVE_FIRST) {
            tui_listmodel_first(lm);
        } else if (cmd == TUI_CMD_MOVE_LAST) {
            tui_listmodel_last(lm);
        } else {
            tui_listmodel_move(lm, step);
        }
        if (app->view == TUI_VIEW_ACTIVITIES) {
            app->graph_act = UINT32_MAX;
            tui_app_graph_update(app);
        }
        return TUI_REDRAW;
    }
    long v, max;
    switch (app->view) {
    case TUI_VIEW_CHARZ: // the renderer clamps to the page
        v = (long)app->charz.top + (step > 100000 ? 100000 : step < -100000 ? -100000 : step);
        app->charz.top = (int)(v < 0 ? 0 : v);
        break;
    case TUI_VIEW_TIMELINE: // the cursor row; the renderer scrolls to keep it visible
        v = (long)app->tl.cursor + step;
        max = app->tl.nrows ? (long)app->tl.nrows - 1 : 0;
        app->tl.cursor = (uint32_t)(v < 0 ? 0 : v > max ? max : v);
        break;
    case TUI_VIEW_GRAPH: {
        if (app->graph_overview) { // scroll; the renderer clamps to the canvas
            v = (long)app->overview_top + (step > 100000    ? 100000
                                           : step < -100000 ? -100000
                                                            : step);
            app->overview_top = (int)(v < 0 ? 0 : v);
            break;
        }
        int s = app->graph_side > 0;
        v = (long)app->graph_pos[s] + step;
        max = (long)(s ? app->nsucc : app->npred) - 1;
        app->graph_pos[s] = (size_t)(v > max ? (max < 0 ? 0 : max) : v < 0 ? 0 : v);
        break;
    }
    default:
        break;
    }
    return TUI_REDRAW;
}

static unsigned follow(struct tui_app *app)
{
    int s = app->graph_side > 0;
    uint32_t n = s ? app->nsucc : app->npred;
    if (n == 0) {
        return TUI_REDRAW;
    }
    const struct iodfg_dfg_edge *e =
        &iodfg_analysis_dfg(app->an)->edges[(s ? app->succ : app->pred)[app->graph_pos[s]]];
    uint32_t to = s ? e->to : e->from;
    if (to >= app->map->nactivities) {
        tui_app_set_message(app, 0, "%s is the %s node", s ? "■" : "●", s ? "end" : "start");
        return TUI_REDRAW;
    }
    app->graph_act = to;
    app->graph_pos[0] = app->graph_pos[1] = 0;
    tui_app_graph_update(app);
    return TUI_REDRAW;
}

static unsigned timeline_cmd(struct tui_app *app, enum tui_cmd cmd)
{
    struct tui_timeline *tl = &app->tl;
    int64_t width = tl->bin_ns * tl->nbins;
    switch (cmd) {
    case TUI_CMD_ZOOM_IN:
        tl->zoom += tl->zoom < 40;
        tl->pan_set = 1;
        tl->from_ns += width / 4; // keep the centre
        break;
    case TUI_CMD_ZOOM_OUT:
        tl->zoom -= tl->zoom > 0;
        tl->from_ns -= width / 2;
        break;
    case TUI_CMD_PAN_LEFT:
        tl->pan_set = 1;
        tl->from_ns -= width / 4;
        break;
    case TUI_CMD_PAN_RIGHT:
        tl->pan_set = 1;
        tl->from_ns += width / 4;
        break;
    default: // fit
        tl->zoom = 0;
        tl->pan_set = 0;
        break;
    }
    tl->stamp = 0;
    return TUI_REDRAW;
}

/* Characterisation: Δt, servers and threshold; the activity is the Activities cursor. */
static unsigned charz_cmd(struct tui_app *app, enum tui_cmd cmd)
{
    struct tui_charz *cz = &app->charz;
    char v[IODFG_FORMAT_MIN];
    switch (cmd) {
    case TUI_CMD_ZOOM_IN:
    case TUI_CMD_ZOOM_OUT:
    case TUI_CMD_FIT: {
        int dir = cmd == TUI_CMD_ZOOM_IN ? -1 : cmd == TUI_CMD_ZOOM_OUT ? 1 : 0;
        if (tui_charz_zoom(cz, dir)) {
            tui_app_set_message(app, 0, "%s",
                                dir == 0   ? "Δt is already automatic"
                                : cz->have ? "Δt cannot change further"
                                           : "wait for the results");
        } else if (dir) {
            tui_app_set_message(app, 0, "Δt %s", iodfg_format_duration(v, sizeof(v), cz->dt_ns, 0));
        }
        break;
    }
    case TUI_CMD_SERVER_NEXT:
        tui_charz_next_server(cz);
        tui_app_set_message(app, 0, "servers by %s", iodfg_server_by_name(cz->by));
        break;
    case TUI_CMD_THRESHOLD_UP:
    case TUI_CMD_THRESHOLD_DOWN:
        if (tui_charz_threshold_step(cz, cmd == TUI_CMD_THRESHOLD_UP ? 1 : -1) == 0) {
            tui_app_set_message(
                app, 0, "threshold c = %s",
                iodfg_format_bytes(v, sizeof(v), (int64_t)tui_charz_threshold(cz), 0));
        }
        break;
    case TUI_CMD_ACTIVITY_PREV:
    case TUI_CMD_ACTIVITY_NEXT: { // in the Activities table's order
        struct tui_listmodel *lm = app->lm[TUI_VIEW_ACTIVITIES];
        if (lm) {
            tui_listmodel_move(lm, cmd == TUI_CMD_ACTIVITY_NEXT ? 1 : -1);
            app->graph_act = UINT32_MAX;
        }
        break;
    }
    default: // panning has no meaning here
        break;
    }
    return TUI_REDRAW;
}

/* Step the path (which = 0) or activity threshold by delta percent. */
static unsigned threshold(struct tui_app *app, int which, int delta)
{
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

unsigned tui_app_command(struct tui_app *app, enum tui_cmd cmd)
{
    struct tui_listmodel *lm = tui_app_table(app);
    if (cmd != TUI_CMD_NONE) {
        app->message[0] = '\0';
    }
    const struct tui_view_ops *ops = tui_view_ops(app->view);
    unsigned r = tui_cmd_run(ops->cmds, ops->ncmds, app, app->view_state[app->view], lm, cmd);
    if (!(r & TUI_PASS)) {
        return r;
    }
    switch (cmd) {
    case TUI_CMD_VIEW_ACTIVITIES:
    case TUI_CMD_VIEW_TRANSITIONS:
    case TUI_CMD_VIEW_GRAPH:
    case TUI_CMD_VIEW_TIMELINE:
    case TUI_CMD_VIEW_DIFF:
    case TUI_CMD_VIEW_CASES:
    case TUI_CMD_VIEW_RULES:
    case TUI_CMD_VIEW_CHARZ:
    case TUI_CMD_VIEW_HANDLES:
        app->view = (enum tui_view)(cmd - TUI_CMD_VIEW_ACTIVITIES);
        app->show_filters = 0;
        if (app->view == TUI_VIEW_GRAPH) {
            tui_app_graph_update(app);
        }
        if (app->view == TUI_VIEW_DIFF && !(app->diff != NULL)) {
            tui_app_set_message(app, 0, "mark cases with g and r in 6 Cases to compare G and R");
        }
        return TUI_REDRAW;
    case TUI_CMD_HELP:
        if (app->view != TUI_VIEW_HELP) {
            app->prev_view = app->view;
        }
        tui_app_show(app, TUI_VIEW_HELP);
        return TUI_REDRAW;
    case TUI_CMD_CLOSE:
    case TUI_CMD_CANCEL:
        if (app->view == TUI_VIEW_TIMELINE) {
            app->tl.show_events = 0;
        }
        app->show_filters = 0;
        return TUI_REDRAW;
    case TUI_CMD_QUIT:
        if (rules_unsaved(app)) {
            return tui_app_ask(app, TUI_PROMPT_QUIT,
                               "rules not saved: y quit, w save and quit, other key stays", "");
        }
        return TUI_QUIT;
    case TUI_CMD_MOVE_UP:
    case TUI_CMD_MOVE_DOWN:
    case TUI_CMD_PAGE_UP:
    case TUI_CMD_PAGE_DOWN:
    case TUI_CMD_MOVE_FIRST:
    case TUI_CMD_MOVE_LAST:
        return move(app, cmd);
    case TUI_CMD_SORT_NEXT:
    case TUI_CMD_SORT_REVERSE:
        if (lm) {
            if (cmd == TUI_CMD_SORT_NEXT) {
                tui_listmodel_sort_next(lm);
            } else {
                tui_listmodel_sort_reverse(lm);
            }
        }
        return TUI_REDRAW;
    case TUI_CMD_SEARCH:
        if (!lm) {
            return TUI_REDRAW;
        }
        tui_listmodel_search_begin(lm);
        return tui_app_ask(app, TUI_PROMPT_SEARCH, "/", "");
    case TUI_CMD_SEARCH_NEXT:
    case TUI_CMD_SEARCH_PREV:
        if (lm && !tui_listmodel_search_next(lm, cmd == TUI_CMD_SEARCH_NEXT ? 1 : -1)) {
            tui_app_set_message(app, 0, "no match");
        }
        return TUI_REDRAW;
    case TUI_CMD_ADD_FILTER:
        return tui_app_ask(app, TUI_PROMPT_FILTER, "filter (path~RE call=a,b cid=X time=A..B)", "");
    case TUI_CMD_LIST_FILTERS:
        app->show_filters = !app->show_filters;
        return TUI_REDRAW;
    case TUI_CMD_POP_FILTER:
        if (iodfg_filter_stack_pop(app->filters)) {
            tui_app_set_message(app, 0, "no filter to remove");
            return TUI_REDRAW;
        }
        return tui_app_changed(app);
    case TUI_CMD_DRILL_DOWN:
        return drill(app);
    case TUI_CMD_FOLLOW:
        return follow(app);
    case TUI_CMD_FOCUS_LEFT:
    case TUI_CMD_FOCUS_RIGHT:
        app->graph_side = cmd == TUI_CMD_FOCUS_LEFT ? -1 : 1;
        return TUI_REDRAW;
    case TUI_CMD_OVERVIEW:
        app->graph_overview = !app->graph_overview;
        app->overview_top = 0;
        return TUI_REDRAW;
    case TUI_CMD_SHOW_EVENTS:
        return show_events(app, lm);
    case TUI_CMD_PATH_THRESHOLD_DOWN:
        return threshold(app, 0, -10);
    case TUI_CMD_PATH_THRESHOLD_UP:
        return threshold(app, 0, 10);
    case TUI_CMD_ACTIVITY_THRESHOLD_DOWN:
        return threshold(app, 1, -10);
    case TUI_CMD_ACTIVITY_THRESHOLD_UP:
        return threshold(app, 1, 10);
    case TUI_CMD_UNDO:
    case TUI_CMD_REDO:
        return undo_redo(app, cmd == TUI_CMD_REDO);
    case TUI_CMD_ZOOM_IN:
    case TUI_CMD_ZOOM_OUT:
    case TUI_CMD_PAN_LEFT:
    case TUI_CMD_PAN_RIGHT:
    case TUI_CMD_FIT:
        if (app->view == TUI_VIEW_CHARZ) {
            return charz_cmd(app, cmd);
        }
        return timeline_cmd(app, cmd);
    case TUI_CMD_SERVER_NEXT:
    case TUI_CMD_THRESHOLD_UP:
    case TUI_CMD_THRESHOLD_DOWN:
    case TUI_CMD_ACTIVITY_PREV:
    case TUI_CMD_ACTIVITY_NEXT:
        return charz_cmd(app, cmd);
    case TUI_CMD_DIFF_ONLY:
        app->diff_only = !app->diff_only;
        tui_views_reload(app);
        return TUI_REDRAW;
    case TUI_CMD_OPEN_ONLY:
        return TUI_REDRAW; // the Handles view's
    case TUI_CMD_FILTER_PATH:
        return filter_path(app);
    case TUI_CMD_GROUP_G:
    case TUI_CMD_GROUP_R:
        return group_selected(app, cmd == TUI_CMD_GROUP_G ? 1 : 2);
    case TUI_CMD_GROUP_G_MATCH:
        return tui_app_ask(app, TUI_PROMPT_GROUP_G, "cases into G (regex on name, or cid=X)", "");
    case TUI_CMD_GROUP_R_MATCH:
        return tui_app_ask(app, TUI_PROMPT_GROUP_R, "cases into R (regex on name, or cid=X)", "");
    case TUI_CMD_GROUP_CLEAR:
        iodfg_session_groups_clear(app->ses);
        return tui_app_changed(app);
    case TUI_CMD_VARIANTS:
        app->show_variants = !app->show_variants;
        if (app->show_variants && tui_views_variants(app)) {
            tui_app_set_message(app, 1, "variants: out of memory");
        }
        return TUI_REDRAW;
    case TUI_CMD_RULE_ADD:
    case TUI_CMD_RULE_EDIT:
    case TUI_CMD_RULE_DELETE:
    case TUI_CMD_RULE_MOVE_UP:
    case TUI_CMD_RULE_MOVE_DOWN:
    case TUI_CMD_RULE_SAVE:
        return TUI_REDRAW; // the Rules view's
    case TUI_CMD_EXPORT_DOT:
        return propose(app, TUI_PROMPT_EXPORT_DOT, "dot");
    case TUI_CMD_EXPORT_TSV:
        if (!lm) {
            tui_app_set_message(app, 1, "export-tsv: this view has no table");
            return TUI_REDRAW;
        }
        return propose(app, TUI_PROMPT_EXPORT_TSV, "tsv");
    case TUI_CMD_SAVE_SESSION: {
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
    case TUI_CMD_CYCLE_THEME:
        return TUI_THEME | TUI_REDRAW;
    case TUI_CMD_REDRAW:
    case TUI_CMD_NONE:
    case TUI_CMD_COUNT:
        break;
    }
    return TUI_REDRAW;
}
