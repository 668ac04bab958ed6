/* SPDX-License-Identifier: MIT */
/* The TUI application (no curses): one analysis session over an event log, the views, the
 * prompts and the message line. Commands change it and return flags. Views and the terminal
 * code see the app only through these functions (its state is in app_priv.h); results come
 * from the session (iodfg/session.h) that tui_app_session gives. */
#ifndef IODFG_TUI_APP_H
#define IODFG_TUI_APP_H

#include <stddef.h>
#include <stdint.h>

#include "tui/command.h"
#include "tui/view.h"

struct iodfg_buf;
struct iodfg_error;
struct iodfg_eventlog;
struct iodfg_insight_thresholds;
struct iodfg_session;
struct tui_app;
struct tui_charz;
struct tui_listmodel;
struct tui_render_in;
struct tui_viewmodel;

/* What a command asks of the loop. A view's handler that changed the session's inputs (rules,
 * filters, groups) answers TUI_REBUILD, and TUI_RECORD too when the change is one undo step
 * (TUI_CHANGED): the app then rebuilds the session once and tells every view what changed
 * (their changed op), before the loop sees the answer. */
enum tui_result {
    TUI_REDRAW = 1,
    TUI_QUIT = 2,
    TUI_PROMPT = 4,
    TUI_THEME = 8,
    TUI_REBUILD = 16,
    TUI_RECORD = 32,
    TUI_COPY = 64, /* put tui_app_clipboard on the terminal's clipboard */
    TUI_CHANGED = TUI_REDRAW | TUI_REBUILD | TUI_RECORD
};

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
    TUI_PROMPT_EXPORT_SVG, /* a file name (proposed): the current view's prompt op writes it */
    TUI_PROMPT_SAVE_RULES,
    TUI_PROMPT_PRESET, /* the name of a rule preset */
    TUI_PROMPT_QUIT,   /* one key: y quit, w save and quit, anything else stays */
    TUI_PROMPT_COMMAND /* `:` a command by its name, and its argument (app_cmdline.c) */
};

/* A new app over log (borrowed; when own_log, the app frees it). rules_text NULL means the
 * default f-hat rules. Builds the analysis. NULL with err. */
struct tui_app *tui_app_new(const struct iodfg_eventlog *log, int own_log, const char *log_name,
                            const char *rules_text, const char *rules_path,
                            struct iodfg_error *err);
/* The focus an app opens with (doc/rules.md, "Focus"): mode is enum iodfg_focus_mode (the
 * entry opens on the application's I/O, 1; tui_app_new keeps every activity, 0); rules NULL: the
 * built-in class rules, else len bytes read from where (named in errors). */
struct tui_app_focus {
    int mode;
    const char *rules, *where;
    size_t len;
};
/* tui_app_new with that focus set before the first analysis, so that it is the opening state
 * (u does not go back past it); focus NULL as tui_app_new. */
struct tui_app *tui_app_new_focused(const struct iodfg_eventlog *log, int own_log,
                                    const char *log_name, const char *rules_text,
                                    const char *rules_path, const struct tui_app_focus *focus,
                                    struct iodfg_error *err);
/* Fold the runtime's activities (app) or show every activity (all): one undo step. NULL or
 * "" toggles; else "app" or "all" (an error message otherwise). */
unsigned tui_app_focus_set(struct tui_app *app, const char *mode);
void tui_app_free(struct tui_app *app);
/* What the entry sets after tui_app_new: the files the app was opened on (borrowed; a save
 * never replaces one), the session file W saves to (copied; 0 or -1 when out of memory), the
 * Insights view's thresholds (copied). */
void tui_app_set_inputs(struct tui_app *app, char *const *inputs, size_t n);
int tui_app_set_session_path(struct tui_app *app, const char *path);
void tui_app_set_insight_thresholds(struct tui_app *app, const struct iodfg_insight_thresholds *t);

/* Bring the analysis up to date with the session's inputs now (it works out what changed) and
 * tell the views what changed. 0, or -1 with err. A command answers TUI_REBUILD instead; this
 * is for a view that needs the new results before it goes on (an Insights jump selects in them). */
int tui_app_rebuild(struct tui_app *app, struct iodfg_error *err);

/* Run a command; returns enum tui_result flags. */
unsigned tui_app_command(struct tui_app *app, enum tui_cmd cmd);
/* Run a command line "NAME [ARGUMENT]" (`:`; app_cmdline.c): NAME is a command of
 * commands.def (or a unique start of one, or an alias: filter, preset, q); a command that asks
 * for something (a filter, a file name, a pattern, a rule) takes the argument as the answer.
 * Returns enum tui_result flags; a mistake is said on the message line. */
unsigned tui_app_command_line(struct tui_app *app, const char *line);
/* What the command line says while line is typed: the command it names and its help, or the
 * commands it could still become, into buf. */
void tui_app_command_hint(const char *line, char *buf, size_t size);
/* Tab at the command line: line completed to the next candidate (nth: how many Tabs in a
 * row, from 0), into buf; 0 when nothing completes. */
int tui_app_command_complete(const char *line, unsigned nth, char *buf, size_t size);
/* The text TUI_COPY puts on the clipboard (sanitised: no control bytes), "" when none. */
const char *tui_app_clipboard(const struct tui_app *app);
/* The prompt's text changed (live prompts) / was accepted (text) or cancelled (NULL). */
unsigned tui_app_prompt_change(struct tui_app *app, const char *text);
unsigned tui_app_prompt_done(struct tui_app *app, const char *text);

/* ---- what views read (borrowed; results until the next rebuild) ---- */

/* The analysis session: inputs a view changes (iodfg_session_rules, _filters, groups) and the
 * results it shows (iodfg_session_dfg, _stats, _mapping, _diff, _counts, ...). It lives as long
 * as the app. */
struct iodfg_session *tui_app_session(const struct tui_app *app);
/* The event log (the session's). */
const struct iodfg_eventlog *tui_app_log(const struct tui_app *app);
/* Changes with every rebuild that changed a result: what background work and caches are
 * stamped with. */
uint64_t tui_app_generation(const struct tui_app *app);
/* The characterisation computed in the background (views/charz/charz.h), which the
 * Characterisation and Timeline views show. */
struct tui_charz *tui_app_charz(struct tui_app *app);
/* The thresholds the Insights view judges with; the rules file (NULL: none yet); the message
 * line ("" when none). */
const struct iodfg_insight_thresholds *tui_app_insight_thresholds(const struct tui_app *app);
const char *tui_app_rules_path(const struct tui_app *app);
const char *tui_app_message(const struct tui_app *app);

/* What the terminal loop shows and needs: the log's name (for the tabs), the current view, and
 * the open prompt (TUI_PROMPT_NONE: none) with the text it starts with in *initial. */
const char *tui_app_log_name(const struct tui_app *app);
enum tui_view tui_app_current_view(const struct tui_app *app);
/* The view the help view was opened from (the current one otherwise). */
enum tui_view tui_app_previous_view(const struct tui_app *app);
enum tui_prompt tui_app_open_prompt(const struct tui_app *app, const char **initial);
/* Lay out the frame of the current view for in (the body's size, the prompt's text) into vm
 * (cleared first): its body, the filter list over it, the detail line or the message, the
 * status line or the open prompt (app_frame.c). */
void tui_app_frame(struct tui_app *app, const struct tui_render_in *in, struct tui_viewmodel *vm);

/* The state of view v (what its open made), and its table shown now (NULL: none). */
void *tui_app_view_state(const struct tui_app *app, enum tui_view v);
struct tui_listmodel *tui_app_view_table(struct tui_app *app, enum tui_view v);
/* Show view v (its enter runs). */
void tui_app_show(struct tui_app *app, enum tui_view v);
/* Leave the help view for the view it was opened from, which then runs cmd (Esc there closes
 * what it has open too). Returns cmd's flags. */
unsigned tui_app_help_close(struct tui_app *app, enum tui_cmd cmd);
/* Background jobs (the characterisation, the views'): 1 while one runs; install finished
 * ones (the event loop polls while busy and redraws). */
int tui_app_busy(struct tui_app *app);
void tui_app_poll(struct tui_app *app);

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
/* The group case c is compared in: explicit members, or for a group without any, every other
 * selected case (enum iodfg_group). */
int tui_app_case_group(const struct tui_app *app, uint32_t c);

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

/* Exports: DOT of what is shown / the current table as TSV into out. */
int tui_app_export_dot(struct tui_app *app, struct iodfg_buf *out, struct iodfg_error *err);
int tui_app_export_tsv(struct tui_app *app, struct iodfg_buf *out, struct iodfg_error *err);

/* For commands and views: show "what: error" as an error message; open prompt p with a label
 * and an initial text (returns TUI_PROMPT | TUI_REDRAW). */
void tui_app_report(struct tui_app *app, const char *what, const struct iodfg_error *err);
unsigned tui_app_ask(struct tui_app *app, enum tui_prompt p, const char *label, const char *init);

/* Status line text. */
void tui_app_status(const struct tui_app *app, char *buf, size_t size);
/* Set the message line (an error when error is set; "" clears it). */
void tui_app_set_message(struct tui_app *app, int error, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

#endif
