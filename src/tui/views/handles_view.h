/* SPDX-License-Identifier: MIT */
/* The Handles view (handles_view.c): its state, columns and lines, for the tests. */
#ifndef IODFG_TUI_VIEWS_HANDLES_VIEW_H
#define IODFG_TUI_VIEWS_HANDLES_VIEW_H

#include <stddef.h>
#include <stdint.h>

#include "iodfg/handles.h"

#include "tui/views/table_view.h"

/* Columns of the Handles table. */
enum tui_handle_col {
    TUI_HC_MARK, /* "!" for a handle never closed */
    TUI_HC_ID,
    TUI_HC_CASE,
    TUI_HC_PID,
    TUI_HC_FD,
    TUI_HC_ORIGIN,
    TUI_HC_LAYER,
    TUI_HC_PATH,
    TUI_HC_FLAGS,
    TUI_HC_CREATED,
    TUI_HC_DESTROYED,
    TUI_HC_LIFETIME,
    TUI_HC_OPS,
    TUI_HC_READ,
    TUI_HC_WRITTEN,
    TUI_HC__N
};

struct tui_handles_view {
    struct tui_table_view table; /* first: the table view's state (lazy: refilled when shown) */
    uint32_t *rows;              /* ids of the handles shown (of the cases the filters keep) */
    uint32_t nrows;
    int open_only;                   /* only the handles never closed */
    struct iodfg_handle_summary sum; /* of the rows */
    int64_t t0;                      /* origin of the times shown (iodfg_handles_time_origin) */
};

/* The handle id under the cursor, 0 when the table is empty. */
uint32_t tui_handles_view_selected(struct tui_app *app);
/* The summary line above the table / the detail line of handle id (its path, then its parent
 * chain), returning the path's length (a detail op's name). */
void tui_handles_view_header(struct tui_app *app, char *buf, size_t size);
size_t tui_handles_view_detail(struct tui_app *app, uint32_t id, char *buf, size_t size);

#endif
