/* SPDX-License-Identifier: MIT */
/* Views as objects: each view of the TUI is one file src/tui/views/NAME_view.c (in a folder of
 * its own with its helpers) holding its private state and a struct tui_view_ops (designated
 * initialisers), listed in tab order in views.def. The app opens every view once and tells it
 * what changed when the results change (changed); the current view gets the commands of its
 * keymap first (its own table; the global table takes the rest) and renders a view model that
 * the terminal code paints. No curses. */
#ifndef IODFG_TUI_VIEW_H
#define IODFG_TUI_VIEW_H

#include <stddef.h>
#include <stdint.h>

#include "tui/command.h"
#include "tui/keymap.h"

struct iodfg_buf;
struct iodfg_dot_options;
struct iodfg_error;
struct iodfg_session_change;
struct tui_app;
struct tui_listmodel;
struct tui_viewmodel;

/* The views in tab order (their number keys, views.def); HELP is reached with `?`. */
enum tui_view {
#define VIEW(id, ops, name, key, tab, title, help) TUI_VIEW_##id,
#include "tui/views.def"
#undef VIEW
    TUI_VIEW_HELP,
    TUI_VIEW_COUNT
};

/* A view's command handler: changes the app (st: the view's state) and returns enum
 * tui_result flags (app.h), or TUI_PASS to hand the command on to the global table. */
typedef unsigned (*tui_cmd_fn)(struct tui_app *app, void *st, enum tui_cmd cmd);
#define TUI_PASS 0x100u

struct tui_cmd_entry {
    enum tui_cmd cmd;
    tui_cmd_fn fn;
};

/* Run the entry of cmd in table t (n entries). Returns its flags, or TUI_PASS when t has none. */
unsigned tui_cmd_run(const struct tui_cmd_entry *t, size_t n, struct tui_app *app, void *st,
                     enum tui_cmd cmd);
/* The rows a move command goes: -1, +1, a page (-20, +20) or to an end (-1e9, +1e9). */
long tui_cmd_step(enum tui_cmd cmd);

/* Helpers of table views: move lm's cursor by a move command; the generic detail line of its
 * cursor row ("name  cell 2   row N of M": its name columns, else cell 1; "" when empty),
 * returning the name's length as a detail op does; replace the ids a table's rows
 * show by fresh (n ids; takes it) and reload lm with its cursor kept on its item; the ids of
 * the rows in the table's order (*n of them; NULL when out of memory, free it). */
void tui_cmd_move_table(struct tui_listmodel *lm, enum tui_cmd cmd);
size_t tui_table_detail(struct tui_listmodel *lm, char *buf, size_t size);
int tui_table_replace(struct tui_listmodel *lm, uint32_t **rows, uint32_t *nrows, uint32_t *fresh,
                      uint32_t n);
uint32_t *tui_table_ids(struct tui_listmodel *lm, const uint32_t *rows, size_t *n);

/* What a view renders for: the body's size, the open prompt's text and cursor column (NULL
 * when none), the keymaps (for help). */
struct tui_render_in {
    int width, height;
    const char *edit_text;
    int edit_col;
    const struct tui_keymaps *km;
};

/* The operations of a view; any may be NULL (nothing to do, or nothing to say). st is the state
 * that open made, passed back to every other operation. */
struct tui_view_ops {
    void *(*open)(struct tui_app *app); /* NULL when out of memory */
    void (*close)(struct tui_app *app, void *st);
    /* The results changed: what the session's rebuild recomputed (what). Every view that shows
     * results reads them again here, in tab order (the Activities view first, whose cursor is the
     * selected activity the others follow). 0, or -1 when out of memory. */
    int (*changed)(struct tui_app *app, void *st, const struct iodfg_session_change *what);
    /* It became the current view (by its view command). */
    void (*enter)(struct tui_app *app, void *st);
    /* The selected activity (the Activities cursor) moved. */
    void (*activity_moved)(struct tui_app *app, void *st);
    /* Backspace in any view: undo what this view last did to the others (a jump). 1 when it
     * did, 0 when it has nothing to undo, -1 on error (reported). */
    int (*back)(struct tui_app *app, void *st);
    /* Its commands, tried before the global ones. */
    const struct tui_cmd_entry *cmds;
    size_t ncmds;
    /* A live prompt it opened (TUI_PROMPT_RULE) changed (done 0) or ended (done 1; text NULL
     * when cancelled), or the file name it asked for (TUI_PROMPT_EXPORT_SVG) was given (done 1).
     * Returns enum tui_result flags. */
    unsigned (*prompt)(struct tui_app *app, void *st, const char *text, int done);
    /* Lay the body out into vm; may move its own cursor and scroll position to fit. */
    void (*render)(struct tui_app *app, void *st, const struct tui_render_in *in,
                   struct tui_viewmodel *vm);
    /* The detail line (under the body) for what is selected, "" when nothing. Returns how many
     * bytes at its start are a name (activity, path, case; 0: none): on a narrow line the name
     * loses its middle, not what tells it apart, and the rest of the line still shows. */
    size_t (*detail)(struct tui_app *app, void *st, char *buf, size_t size);
    /* The table shown now; the table whose sort order a session file keeps. */
    struct tui_listmodel *(*table)(struct tui_app *app, void *st);
    struct tui_listmodel *(*sorted)(struct tui_app *app, void *st);
    /* The activity under its cursor (drill-down), UINT32_MAX when none. */
    uint32_t (*activity)(struct tui_app *app, void *st);
    /* A background job: 1 while it runs; installing a finished one (1 when it did). */
    int (*busy)(struct tui_app *app, void *st);
    int (*poll)(struct tui_app *app, void *st);
    /* Exports: its own TSV of its table (else the table's cells), its DOT options. */
    int (*export_tsv)(struct tui_app *app, void *st, struct iodfg_buf *out,
                      struct iodfg_error *err);
    void (*export_dot)(struct tui_app *app, void *st, struct iodfg_dot_options *o);
};

/* The registry (views.def and the help view). */
const struct tui_view_ops *tui_view_ops(enum tui_view v);
const char *tui_view_name(enum tui_view v); /* "activities" ... "handles", "help"; "" */
int tui_view_by_name(const char *name);     /* -1 when none */
int tui_view_key(enum tui_view v);          /* '1' ... '9', '?' */
const char *tui_view_tab(enum tui_view v);  /* "Activities", ... "" for help */
enum tui_map tui_view_keymap(enum tui_view v);
/* The view a view command shows, TUI_VIEW_COUNT for other commands. */
enum tui_view tui_view_of_command(enum tui_cmd cmd);

#endif
