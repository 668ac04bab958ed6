/* SPDX-License-Identifier: MIT */
/* What every table view does the same way, in one place: its state starts with a struct
 * tui_table_view (the app, the table, and for a lazy view what fills it), made and freed here,
 * and these functions serve as its view ops (open, close, changed, table, render, detail) or
 * inside them (the cursor's row, the TSV export in the table's order). */
#ifndef IODFG_TUI_VIEWS_TABLE_VIEW_H
#define IODFG_TUI_VIEWS_TABLE_VIEW_H

#include <stddef.h>
#include <stdint.h>

#include "tui/view.h"

struct iodfg_buf;
struct iodfg_error;
struct iodfg_session_change;
struct tui_app;
struct tui_column;
struct tui_list_ops;
struct tui_listmodel;
struct tui_render_in;
struct tui_viewmodel;

struct tui_table_view {
    struct tui_app *app; /* for the table's callbacks */
    struct tui_listmodel *lm;
    /* A lazy view (fill set) fills its rows only when shown: a rebuild marks them stale. fill
     * gets the view's state and clears stale; 0, or -1 when out of memory. */
    int (*fill)(void *st);
    enum tui_view view;
    int stale;
};

/* A view state of size bytes (zeroed) that starts with a struct tui_table_view: its table
 * over ncols cols with ops (ctx: the state), sorted by sort_col (-1: unsorted). NULL when out
 * of memory. */
void *tui_table_view_new(size_t size, struct tui_app *app, const struct tui_column *cols, int ncols,
                         const struct tui_list_ops *ops, int sort_col);
/* Make it lazy: filled by fill when view v is shown (stale until then). */
void tui_table_view_lazy(void *st, enum tui_view v, int (*fill)(void *st));
/* Free the table, rows (the view's own array, may be NULL) and the state. */
void tui_table_view_free(void *st, void *rows);

/* View ops. changed (lazy views): marks its rows stale and fills them when it is shown. table:
 * the table, a stale lazy one filled first (an error message when out of memory). sorted: the
 * table as it is. render: the table filling the body ("nothing to show" when empty). detail:
 * the generic line of the cursor's row. */
int tui_table_view_changed(struct tui_app *app, void *st, const struct iodfg_session_change *what);
struct tui_listmodel *tui_table_view_table(struct tui_app *app, void *st);
struct tui_listmodel *tui_table_view_sorted(struct tui_app *app, void *st);
void tui_table_view_render(struct tui_app *app, void *st, const struct tui_render_in *in,
                           struct tui_viewmodel *vm);
size_t tui_table_view_detail(struct tui_app *app, void *st, char *buf, size_t size);

/* The source row under the cursor into *row: 1, or 0 when the table is empty or stale. */
int tui_table_view_cursor(const void *st, size_t *row);
/* The id of the cursor's row when the rows show ids (rows), UINT32_MAX when none. */
uint32_t tui_table_view_cursor_id(const void *st, const uint32_t *rows);

/* The ids of the rows (rows) in the table's order, written by export (an engine exporter over
 * the app's results). 0, or -1 with err. */
typedef int (*tui_table_export_fn)(struct tui_app *app, const uint32_t *order, size_t n,
                                   struct iodfg_buf *out, struct iodfg_error *err);
int tui_table_view_export(void *st, const uint32_t *rows, tui_table_export_fn export,
                          struct iodfg_buf *out, struct iodfg_error *err);

#endif
