/* SPDX-License-Identifier: MIT */
/* The Call sites view (sites_view.c): its state and columns, for the tests. */
#ifndef IODFG_TUI_VIEWS_SITES_VIEW_H
#define IODFG_TUI_VIEWS_SITES_VIEW_H

#include <stddef.h>
#include <stdint.h>

#include "iodfg/callsites.h"
#include "iodfg/report_callsites.h"

#include "tui/views/table_view.h"

struct iodfg_srcline;

/* Columns of the Call sites table: the rows `iodfg callsites` prints. */
enum tui_site_col {
    TUI_SC_GROUP, /* "G", "G only" ... with G/R groups, else "" */
    TUI_SC_ACTIVITY,
    TUI_SC_SITE, /* the function (or object+0xADDRESS) */
    TUI_SC_LINE, /* file:line */
    TUI_SC_CALLS,
    TUI_SC_TIME,
    TUI_SC_BYTES,
    TUI_SC_CASES,
    TUI_SC_OBJECT,
    TUI_SC__N
};

/* A row: row i of group g's call sites. */
struct tui_site_row {
    uint32_t g, i;
};

struct tui_sites_view {
    struct tui_table_view table;  /* first: the table view's state (lazy: refilled when shown) */
    struct iodfg_callsites cs[2]; /* the selection, or G and R */
    struct iodfg_report_callsites rep; /* cs, the log and the lines, for the cells */
    struct tui_site_row *rows;         /* the rows shown (one activity's with one) */
    size_t nrows, cap;
    int one;                          /* only the selected activity's sites */
    int stacks;                       /* the log has stacks */
    struct iodfg_srcline *sl;         /* file:line lookups (opened on first use) */
    struct iodfg_report_srcline *src; /* per frame id: file (NULL unknown), line (-1 looked up) */
    char error[256];                  /* why there are no rows, "" */
};

/* The row under the cursor into *row: 1, or 0 when none. */
int tui_sites_view_selected(struct tui_app *app, const struct iodfg_callsite_row **row, int *group);

#endif
