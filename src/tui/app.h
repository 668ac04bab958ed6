/* SPDX-License-Identifier: MIT */
/* The TUI application state (no curses): the event log, rules, filter stack, groups G/R,
 * pruning thresholds, the analysis and the view models; commands change it and return flags. */
#ifndef IODFG_TUI_APP_H
#define IODFG_TUI_APP_H

#include <stddef.h>
#include <stdint.h>

#include "iodfg/diff.h"
#include "iodfg/filter.h"
#include "iodfg/insights.h"
#include "iodfg/mapping.h"
#include "iodfg/rules.h"
#include "iodfg/session.h"

#include "tui/charz.h"
#include "tui/command.h"
#include "tui/view.h"

struct iodfg_analysis;
struct iodfg_buf;
struct iodfg_error;
struct iodfg_eventlog;
struct tui_listmodel;

/* What a command asks of the loop. */
enum tui_result { TUI_REDRAW = 1, TUI_QUIT = 2, TUI_PROMPT = 4, TUI_THEME = 8 };

/* Prompts the loop shows with a line editor; the answer goes to tui_app_prompt_done. */
enum tui_prompt {
    TUI_PROMPT_NONE,
    TUI_PROMPT_SEARCH,  /* incremental: tui_app_prompt_change on every change */
    TUI_PROMPT_FILTER,  /* a filter in the filter syntax */
    TUI_PROMPT_GROUP_G, /* a case pattern ("cid=ssf", or a regex on the case name) */
    TUI_PROMPT_GROUP_R,
    TUI_PROMPT_RULE,       /* live: every change recompiles the edited rule line */
    TUI_PROMPT_EXPORT_DOT, /* a file name (proposed) */
    TUI_PROMPT_EXPORT_TSV,
    TUI_PROMPT_SAVE_RULES,
    TUI_PROMPT_PRESET, /* the name of a rule preset */
    TUI_PROMPT_QUIT    /* one key: y quit, w save and quit, anything else stays */
};

struct tui_app {
    const struct iodfg_eventlog *log; /* borrowed (or owned when own_log) */
    int own_log;
    char log_name[256];
    struct iodfg_session *ses; /* the analysis: inputs, results, undo */
    /* borrowed from the session: stable for its life */
    struct iodfg_rules *rules;
    struct iodfg_filter_stack *filters;
    /* borrowed from the session, refreshed by every rebuild */
    const struct iodfg_analysis *an;
    const struct iodfg_mapping *map;
    const struct iodfg_diff *diff;    /* NULL without groups */
    const uint8_t *g_on, *r_on;       /* groups as compared (NULL without groups) */
    const uint8_t *node_on, *edge_on; /* pruning masks (nactivities / nedges) */
    const struct iodfg_session_counts *counts;
    uint64_t generation; /* changes with every rebuild that changed a result */

    /* views */
    enum tui_view view, prev_view;
    void *view_state[TUI_VIEW_COUNT]; /* each view's own state (its ops' open) */

    /* the characterisation, computed in the background (charz.h): the Characterisation view
     * shows it, the Timeline its stair-case index */
    struct tui_charz charz;

    /* the rules file */
    char *rules_path;
    char *rules_saved; /* rules text as last loaded or saved */

    char *session_path;
    /* the files the app was opened on (borrowed, may be NULL): a save never replaces one */
    char *const *inputs;
    size_t ninputs;
    /* what the Insights view judges with: the defaults, or the user's insights.conf */
    struct iodfg_insight_thresholds insight_thresholds;
    enum tui_prompt prompt;
    char prompt_label[64];
    char prompt_init[512];
    int show_filters;
    char message[512];
    int message_error;
    unsigned export_seq;
};

/* A new app over log (borrowed; when own_log, the app frees it). rules_text NULL means the
 * default f-hat rules. Builds the analysis. NULL with err. */
struct tui_app *tui_app_new(const struct iodfg_eventlog *log, int own_log, const char *log_name,
                            const char *rules_text, const char *rules_path,
                            struct iodfg_error *err);
void tui_app_free(struct tui_app *app);

/* Bring the analysis up to date with the session's inputs (it works out what changed) and
 * reload the views. 0, or -1 with err. */
int tui_app_rebuild(struct tui_app *app, struct iodfg_error *err);

/* Run a command; returns enum tui_result flags. */
unsigned tui_app_command(struct tui_app *app, enum tui_cmd cmd);
/* The prompt's text changed (live prompts) / was accepted (text) or cancelled (NULL). */
unsigned tui_app_prompt_change(struct tui_app *app, const char *text);
unsigned tui_app_prompt_done(struct tui_app *app, const char *text);

/* What the terminal loop shows and needs: the log's name (for the tabs), the current view, and
 * the open prompt (TUI_PROMPT_NONE: none) with the text it starts with in *initial. */
const char *tui_app_log_name(const struct tui_app *app);
enum tui_view tui_app_current_view(const struct tui_app *app);
enum tui_prompt tui_app_open_prompt(const struct tui_app *app, const char **initial);

/* The state of view v (what its open made), and its table shown now (NULL: none). */
void *tui_app_view_state(const struct tui_app *app, enum tui_view v);
struct tui_listmodel *tui_app_view_table(struct tui_app *app, enum tui_view v);
/* Show view v (its enter runs). */
void tui_app_show(struct tui_app *app, enum tui_view v);
/* Background jobs (the characterisation, the views'): 1 while one runs; install finished
 * ones (the event loop polls while busy and redraws). */
int tui_app_busy(struct tui_app *app);
void tui_app_poll(struct tui_app *app);
/* Reload every view after the results changed. 0 or -1 (out of memory). */
int tui_app_reload_views(struct tui_app *app);

/* The current table of the view (NULL for non-table views). */
struct tui_listmodel *tui_app_table(struct tui_app *app);
/* The selected activity: the one under the Activities view's cursor (UINT32_MAX when none);
 * tell the views that follow it that it moved. */
uint32_t tui_app_selected_activity(struct tui_app *app);
void tui_app_activity_moved(struct tui_app *app);
/* Backspace: the first view with something to undo undoes it (its back op); 0 when none had. */
int tui_app_back(struct tui_app *app);
/* "G+", "R+", "=" or "" for activity a in the G/R comparison. */
const char *tui_app_activity_mark(const struct tui_app *app, uint32_t a);
/* The name of DFG node id (an activity, the start or the end node). */
const char *tui_app_node_name(const struct tui_app *app, uint32_t node);
const char *tui_app_activity_name(const struct tui_app *app, uint32_t a);
const char *tui_app_case_name(const struct tui_app *app, uint32_t c);

/* Rules, filters and groups as text: the undo snapshot and the state part of a session. */
int tui_app_snapshot(const struct tui_app *app, struct iodfg_buf *out);
int tui_app_restore(struct tui_app *app, const char *text, size_t len, struct iodfg_error *err);
/* The whole session (snapshot plus view and sort) to / from a file. */
int tui_app_session_format(struct tui_app *app, struct iodfg_buf *out);
int tui_app_session_load(struct tui_app *app, const char *path, struct iodfg_error *err);
int tui_app_session_save(struct tui_app *app, const char *path, struct iodfg_error *err);
/* 0, or -1 with err set when path is one of the files the app was opened on (a rules or session
 * file saved over the log, by a name typed at a prompt, would lose it). */
int tui_app_not_input(const struct tui_app *app, const char *path, struct iodfg_error *err);

/* Record the current state for undo (after a change). */
void tui_app_record(struct tui_app *app);

/* The group case c is compared in: explicit members, or for a group without any, every other
 * selected case (enum iodfg_group). */
int tui_app_case_group(const struct tui_app *app, uint32_t c);

/* Drill down on activity a: a rule one directory level deeper first, and the matching filter. */
int tui_app_drilldown(struct tui_app *app, uint32_t a, struct iodfg_error *err);

/* Exports: DOT of what is shown / the current table as TSV into out. */
int tui_app_export_dot(struct tui_app *app, struct iodfg_buf *out, struct iodfg_error *err);
int tui_app_export_tsv(struct tui_app *app, struct iodfg_buf *out, struct iodfg_error *err);

/* For commands and views: show "what: error" as an error message; rebuild after a change of
 * the session's inputs and record it for undo when it worked (returns TUI_REDRAW); open prompt p
 * with a label and an initial text (returns TUI_PROMPT | TUI_REDRAW). */
void tui_app_report(struct tui_app *app, const char *what, const struct iodfg_error *err);
unsigned tui_app_changed(struct tui_app *app);
unsigned tui_app_ask(struct tui_app *app, enum tui_prompt p, const char *label, const char *init);

/* Status line text. */
void tui_app_status(const struct tui_app *app, char *buf, size_t size);
/* Set the message line (an error when error is set; "" clears it). */
void tui_app_set_message(struct tui_app *app, int error, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

#endif
