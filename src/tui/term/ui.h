/* SPDX-License-Identifier: MIT */
/* The interactive TUI: terminal, keymaps and theme around a struct tui_app, the event loop,
 * prompts, and the painting of each frame's view model (term/draw.c). */
#ifndef IODFG_TUI_TERM_UI_H
#define IODFG_TUI_TERM_UI_H

struct iodfg_error;
struct tui_app;
struct tui_keymaps;
struct tui_rect;
struct tui_screen;
struct tui_ui;
struct tui_viewmodel;

/* Load keymaps (with the user config), the theme (name or path; NULL = "default") and take
 * over the terminal. NULL with err (the terminal is untouched then). */
struct tui_ui *tui_ui_open(const char *theme, unsigned screen_flags, struct iodfg_error *err);
void tui_ui_close(struct tui_ui *ui);

/* Draw a loading frame (log name, what, fraction 0..1 or < 0 when unknown) and wait up to
 * wait_ms for a key. Returns 1 when the user asked to quit (q, C-c), else 0. */
int tui_ui_progress(struct tui_ui *ui, const char *log, const char *what, double fraction,
                    int wait_ms);

/* Draw one frame of app (the loop does this after every key). */
void tui_ui_draw(struct tui_ui *ui, struct tui_app *app);

/* Run the event loop until the user quits. Returns 0. */
int tui_ui_run(struct tui_ui *ui, struct tui_app *app);

/* Paint a view model's page (and its table) in rect r, from its top row, and put the
 * terminal cursor where it says (term/draw.c). */
void tui_draw_page(struct tui_screen *s, struct tui_rect r, const struct tui_viewmodel *vm);

#endif
