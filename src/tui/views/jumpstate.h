/* SPDX-License-Identifier: MIT */
/* What the views' jumps share (jumpstate.c): Enter in Insights or on a Heatmap cell pushes
 * filters after keeping the session's inputs as text; Backspace restores that text. */
#ifndef IODFG_TUI_VIEWS_JUMPSTATE_H
#define IODFG_TUI_VIEWS_JUMPSTATE_H

struct iodfg_error;
struct tui_app;

/* The session's inputs as text (malloc'd; free it), NULL when out of memory. */
char *tui_jump_state(struct tui_app *app);
/* Push the filters of text, one a line (each line ends in '\n'); on failure none stays pushed.
 * 0, or -1 with err. */
int tui_jump_push_filters(struct tui_app *app, const char *text, struct iodfg_error *err);
/* Bring back the inputs of state (tui_jump_state's text), rebuilt and recorded for undo; an
 * error goes to the message line as "back: ...". 0 or -1. */
int tui_jump_restore(struct tui_app *app, const char *state);

#endif
