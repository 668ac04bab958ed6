/* SPDX-License-Identifier: MIT */
/* Helpers shared by the command handlers (app_cmd.c) and the prompt answers (app_prompt.c). */
#ifndef IODFG_TUI_APP_CMD_PRIV_H
#define IODFG_TUI_APP_CMD_PRIV_H

struct iodfg_error;
struct tui_app;

/* Show "what: error" as an error message. */
void tui_app_report(struct tui_app *app, const char *what, const struct iodfg_error *err);
/* Rebuild after a change of state; record it for undo when it worked. Returns TUI_REDRAW. */
unsigned tui_app_changed(struct tui_app *app);

#endif
