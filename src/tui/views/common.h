/* SPDX-License-Identifier: MIT */
/* What the table views share: column flags, comparisons and the G/R colours. */
#ifndef IODFG_TUI_VIEWS_COMMON_H
#define IODFG_TUI_VIEWS_COMMON_H

#include <stdint.h>

#include "iodfg/diff.h"

#include "tui/listmodel.h"
#include "tui/theme.h"

/* A numeric column: right-aligned, sortable, largest first. */
#define TUI_COL_NUM (TUI_COL_RIGHT | TUI_COL_SORTABLE | TUI_COL_DESC)

static inline int tui_cmp_u64(uint64_t a, uint64_t b)
{
    return (a > b) - (a < b);
}

static inline int tui_cmp_double(double a, double b)
{
    return (a > b) - (a < b);
}

/* The style of what only G or only R has (-1: the row's own). The marker column says the same
 * in text, so colour never carries it alone. */
static inline int tui_side_style(enum iodfg_diff_side side)
{
    return side == IODFG_DIFF_G_ONLY   ? TUI_STYLE_DIFF_GREEN
           : side == IODFG_DIFF_R_ONLY ? TUI_STYLE_DIFF_RED
                                       : -1;
}

#endif
