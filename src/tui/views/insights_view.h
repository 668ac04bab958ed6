/* SPDX-License-Identifier: MIT */
/* The Insights view (insights_view.c): the automatic findings of the selection (or of G and R
 * and what differs between them) and the jumps to their evidence (insights_jump.c). */
#ifndef IODFG_TUI_VIEWS_INSIGHTS_VIEW_H
#define IODFG_TUI_VIEWS_INSIGHTS_VIEW_H

#include <stddef.h>
#include <stdint.h>

#include "iodfg/insights.h"

#include "tui/view.h"
#include "tui/views/table_view.h"

/* How a row's finding stands in the G/R comparison (PLAIN without groups). */
enum tui_ins_mark { TUI_INS_PLAIN, TUI_INS_SAME, TUI_INS_G_ONLY, TUI_INS_R_ONLY, TUI_INS_CHANGED };

struct tui_ins_row {
    const struct iodfg_insight *f;     /* shown: G's when both groups have it */
    const struct iodfg_insights *set;  /* the findings f belongs to */
    const struct iodfg_insight *other; /* R's finding of a changed severity, else NULL */
    enum tui_ins_mark mark;
};

/* Where a jump came from: the session's inputs as text, the view and the selections. */
struct tui_ins_jump {
    char *state;
    enum tui_view view;
    unsigned long long ins_key, act_key;
    int have_ins, have_act;
};

#define TUI_INS_JUMPS 16

struct tui_insights_view {
    struct tui_table_view table;  /* first: the table view's state (lazy: judged when shown) */
    struct iodfg_insights ins[2]; /* the selection's, or G's and R's */
    int compared;                 /* G and R were judged */
    struct iodfg_insight_change *ch;
    size_t nch;
    struct tui_ins_row *rows;
    uint32_t nrows;
    char error[256];                          /* why there are none ("" when judged) */
    struct tui_ins_jump jumps[TUI_INS_JUMPS]; /* the oldest first */
    size_t njumps;
};

/* The view that shows a finding's evidence (TUI_VIEW_COUNT: none). */
enum tui_view tui_insights_target(const struct iodfg_insight *f);
/* Enter: filter to the evidence of row, select its activity, edge or case, show its view, and
 * remember where it came from. Returns enum tui_result flags. */
unsigned tui_insights_jump(struct tui_app *app, struct tui_insights_view *iv,
                           const struct tui_ins_row *row);
/* Backspace after a jump (the view's back op, reached through tui_app_back): the inputs,
 * selections and Insights view as they were before the last jump. 1 when it went back, 0 when
 * there was no jump, -1 on error (reported). */
int tui_insights_back(struct tui_app *app, struct tui_insights_view *iv);
void tui_insights_jumps_free(struct tui_insights_view *iv);
/* The findings row under the cursor (NULL when none), for the tests. */
const struct tui_ins_row *tui_insights_selected(struct tui_insights_view *iv);

#endif
