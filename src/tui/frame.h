/* SPDX-License-Identifier: MIT */
/* The frame of the current view as a view model (no curses): its body, the filter list over
 * it, the detail line or the message, the status line or the open prompt, the cursor. */
#ifndef IODFG_TUI_FRAME_H
#define IODFG_TUI_FRAME_H

struct tui_app;
struct tui_render_in;
struct tui_viewmodel;

/* Lay out the frame of app's current view for in (the body's size, the prompt's text) into
 * vm (cleared first). */
void tui_app_frame(struct tui_app *app, const struct tui_render_in *in, struct tui_viewmodel *vm);

#endif
