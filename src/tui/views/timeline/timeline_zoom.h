/* SPDX-License-Identifier: MIT */
/* The Timeline's window commands (timeline_zoom.c). */
#ifndef IODFG_TUI_VIEWS_TIMELINE_TIMELINE_ZOOM_H
#define IODFG_TUI_VIEWS_TIMELINE_TIMELINE_ZOOM_H

#include "tui/command.h"
#include "tui/views/timeline/timeline_index.h"

struct tui_app;

/* Change tl's window for cmd: ZOOM_IN / ZOOM_OUT around the time cursor (else around the
 * selected activity's events in view), PAN_LEFT / PAN_RIGHT a quarter (the cursor with it),
 * FIT the activity's events (again: the whole span), ZOOM_PEAK into the burst at the
 * concurrency peak (again: closer), CURSOR_LEFT / CURSOR_RIGHT the time cursor a bin. It works
 * on the window drawn last; the next draw computes the new one. */
void tui_timeline_window(struct tui_app *app, struct tui_timeline *tl, enum tui_cmd cmd);

#endif
