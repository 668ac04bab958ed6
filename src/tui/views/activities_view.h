/* SPDX-License-Identifier: MIT */
/* The Activities view (activities_view.c): its columns and state, for the tests. */
#ifndef IODFG_TUI_VIEWS_ACTIVITIES_VIEW_H
#define IODFG_TUI_VIEWS_ACTIVITIES_VIEW_H

#include <stdint.h>

#include "iodfg/callsites.h"

#include "tui/views/table_view.h"

/* Column indexes of the Activities table. */
enum tui_act_col {
    TUI_AC_MARK,
    TUI_AC_NAME,
    TUI_AC_COUNT,
    TUI_AC_CASES,
    TUI_AC_DUR,
    TUI_AC_RD,
    TUI_AC_BYTES,
    TUI_AC_DRMEAN,
    TUI_AC_MC,
    TUI_AC_DR,
    TUI_AC__N
};

struct tui_activities_view {
    struct tui_table_view table; /* first: the table view's state */
    uint32_t *rows;              /* the activities shown (with events, kept by the pruning) */
    uint32_t nrows;
    /* strace -k logs: the call sites of every activity, for the detail line (empty otherwise) */
    struct iodfg_callsites sites;
};

#endif
