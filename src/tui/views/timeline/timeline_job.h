/* SPDX-License-Identifier: MIT */
/* The Timeline's event index, built by a job (timeline_index.c): for a log of
 * TUI_TIMELINE_ASYNC_EVENTS events or more on a background thread of lower priority, over private
 * copies of what a rebuild changes (the activity of every key, the selection and its case mask; the
 * event log never changes), so the UI returns at once and a rebuild never races the job. A job
 * whose generation went stale is cancelled and its result discarded; the UI thread installs a
 * finished one whole, so it never reads a half-built index.
 *
 * tui_app_timeline (timeline_grid.h) returns 1 while the index of the current generation is being
 * built in the background (the view then shows the progress and the event loop polls); 0 when the
 * grid is ready, -1 when out of memory. tui_app_timeline_events returns -1 while indexing. */
#ifndef IODFG_TUI_VIEWS_TIMELINE_TIMELINE_JOB_H
#define IODFG_TUI_VIEWS_TIMELINE_TIMELINE_JOB_H

#include <stdint.h>

struct tui_app;

/* Logs below this many events are indexed at once on the UI thread. */
#define TUI_TIMELINE_ASYNC_EVENTS 1000000u

/* Install (or discard, when stale) a finished job, and cancel a job whose generation went
 * stale. Returns 1 when a job finished (the Timeline wants a redraw), else 0. */
int tui_app_timeline_poll(struct tui_app *app);
/* 1 while a job runs or waits to be installed. */
int tui_app_timeline_busy(struct tui_app *app);
/* Wait for the job and install it when it is current (tests, benchmarks). */
void tui_app_timeline_wait(struct tui_app *app);
/* The running job's progress in per mille, and the number of events it indexes in *events (0
 * until its first pass has counted them). -1 when no job runs. */
int tui_app_timeline_progress(struct tui_app *app, uint64_t *events);

#endif
