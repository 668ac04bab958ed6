/* SPDX-License-Identifier: MIT */
/* The Timeline's chart as a view model (timeline_draw.c). */
#ifndef IODFG_TUI_VIEWS_TIMELINE_TIMELINE_DRAW_H
#define IODFG_TUI_VIEWS_TIMELINE_TIMELINE_DRAW_H

#include "tui/views/timeline/timeline_index.h"

struct tui_app;
struct tui_page;

#define TUI_TIMELINE_LABEL_W 22 /* the case names' column */

/* The chart of tl's grid in w x h body cells: a heading (the activity, the window on the log's
 * clock, the bin), the concurrency sparkline with its peak and the time cursor marked, the
 * stair-case index, one row per case, then what "peak" and "max concurrency" mean and a legend
 * of the density glyphs. Moves tl->top to keep the row cursor in view. */
void tui_timeline_chart(struct tui_app *app, struct tui_timeline *tl, int w, int h,
                        struct tui_page *pg);

#endif
