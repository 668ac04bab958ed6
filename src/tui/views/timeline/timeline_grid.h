/* SPDX-License-Identifier: MIT */
/* The Timeline's grid (timeline_grid.c): per-case busy bins and the concurrency profile of the
 * selected activity (or all) over the event index, and the event list of one case. */
#ifndef IODFG_TUI_VIEWS_TIMELINE_TIMELINE_GRID_H
#define IODFG_TUI_VIEWS_TIMELINE_TIMELINE_GRID_H

#include "tui/views/timeline/timeline_index.h"

struct tui_app;

/* Compute the timeline of the selected activity for nbins bins (cached). 0, 1 while its index
 * is built in the background (timeline_job.h), -1 when out of memory. */
int tui_app_timeline(struct tui_app *app, int nbins);
/* The span of the selected activity's events (its rows' first start to last end, as the index
 * holds them), absolute. 0, or -1 when it has none. */
int tui_timeline_extent(const struct tui_timeline *tl, int64_t *from, int64_t *to);
/* Timeline drill-in: list the events of the selected row (case) and activity in the state's
 * events_lm (shown instead of the chart until closed). 0, or -1 when there is no row. */
int tui_app_timeline_events(struct tui_app *app);

#endif
