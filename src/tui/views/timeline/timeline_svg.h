/* SPDX-License-Identifier: MIT */
/* The Timeline's snapshot (timeline_svg.c): X asks for a file name, and the concurrency timeline
 * of the activities over the window the Timeline shows is written as SVG (or PNG). */
#ifndef IODFG_TUI_VIEWS_TIMELINE_TIMELINE_SVG_H
#define IODFG_TUI_VIEWS_TIMELINE_TIMELINE_SVG_H

#include "tui/command.h"

struct tui_app;

/* The Timeline's command (X) and prompt op (st: its struct tui_timeline). */
unsigned tui_timeline_svg_cmd(struct tui_app *app, void *st, enum tui_cmd cmd);
unsigned tui_timeline_svg_prompt(struct tui_app *app, void *st, const char *text, int done);

#endif
