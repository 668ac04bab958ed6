/* SPDX-License-Identifier: MIT */
/* The table view models of the TUI (activities, transitions, diff, cases, variants): list
 * model callbacks over the app's analysis results, and their reload after a rebuild. */
#ifndef IODFG_TUI_VIEWS_H
#define IODFG_TUI_VIEWS_H

#include <stddef.h>
#include <stdint.h>

struct tui_app;

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

/* Create / free the list models of app. 0 or -1 (out of memory). */
int tui_views_init(struct tui_app *app);
void tui_views_fini(struct tui_app *app);
/* Refill the rows from the analysis and reload every model (cursor kept on its item). */
int tui_views_reload(struct tui_app *app);
/* Compute the variants of the current mapping (Cases view toggle). */
int tui_views_variants(struct tui_app *app);
/* The variant (activity-sequence hash) case c follows in the current mapping and selection,
 * and its length in *length (may be NULL); 0 and length 0 when c has no mapped events. */
uint64_t tui_views_case_variant(const struct tui_app *app, uint32_t c, uint64_t *length);
/* "G+", "R+", "=" or "" for an activity / edge slot of the current DFG. */
const char *tui_views_act_mark(const struct tui_app *app, unsigned a);

#endif
