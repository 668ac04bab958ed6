/* SPDX-License-Identifier: MIT */
/* The Timeline's state and its event index (timeline_index.c): what the grid (timeline_grid.c), the
 * index and the Timeline view (timeline_view.c) share. */
#ifndef IODFG_TUI_VIEWS_TIMELINE_TIMELINE_INDEX_H
#define IODFG_TUI_VIEWS_TIMELINE_TIMELINE_INDEX_H

#include <stdint.h>

#include "iodfg/eventlog.h"
#include "iodfg/mapping.h"

struct iodfg_eventlog;
struct tui_app;
struct tui_listmodel;
struct tui_timeline_job;

/* Prefix sums (modulo 2^64) of one index slot: starts in start order, ends in end order. */
struct tui_timeline_sums {
    uint64_t s, e;
};

/* The timeline of one activity (or all: activity = UINT32_MAX) over bins. One index of every
 * activity's selected events is built once per rebuild (all_index: one group of all mapped
 * events instead): per activity, per case row, the prefix sums of the events' starts and of
 * their sorted ends (times relative to t0_ns), so that the busy time of a row in any interval
 * takes a few short searches; zoom, pan and a change of activity cost no pass over the events. */
struct tui_timeline {
    uint32_t activity;
    int64_t t0_ns, t1_ns;   /* the whole span of the selection */
    enum iodfg_clock clock; /* the clock of the rows (the most used when cases differ) */
    uint32_t clock_dropped; /* selected cases of other clocks: not on this time axis */
    int64_t from_ns, bin_ns;
    int nbins;
    /* the index (for index_stamp, all_index) */
    uint32_t ngroups;    /* activities (1 with all_index) */
    uint64_t *group_ev;  /* ngroups + 1: each group's slice of sums (minus the leading 0) */
    uint64_t *group_row; /* ngroups + 1: each group's slice of row_case / row_start */
    uint32_t *row_case;  /* the case of each row of every group */
    uint64_t *row_start; /* index rows + 1: each row's slice of sums */
    struct tui_timeline_sums *sums;   /* index events + 1; sums[0] = {0, 0} */
    struct tui_timeline_sums *coarse; /* the start and end (not summed) of every 8th slot */
    uint64_t sums_cap, coarse_cap;    /* their allocated slots (kept across rebuilds) */
    int all_index;
    uint64_t index_stamp; /* the app's generation + 1 the index was built for */
    /* the activity's rows */
    uint32_t *rows; /* cases with events of the activity (nrows; points into row_case) */
    uint32_t nrows;
    uint64_t *row_off; /* nrows + 1: each row's events, from 0 (ev_base + row_off[r] in sums) */
    uint64_t ev_base;
    float *fit_cover, *fit_conc; /* the grid at zoom 0 for fit_nbins (the index's stamp) */
    int fit_nbins, fit_peak;
    uint64_t fit_stamp;
    float *cover;      /* nrows * nbins: busy fraction of each bin (timeline_grid.c) */
    float *conc;       /* nbins: mean concurrency of each bin (sum of the covers) */
    int peak_bin;      /* bin of the highest concurrency, -1 when none */
    uint64_t stamp;    /* the app's generation it was computed for */
    int zoom, pan_set; /* zoom level (0 = fit); pan is from_ns when pan_set */
    int64_t width_ns;  /* the window's width when set (fit, peak), else the zoom's */
    int64_t cursor_ns; /* the time cursor, where zooms centre (when cursor_set) */
    int cursor_set;
    int fit_activity;         /* the window is the activity's events (0 again: whole span) */
    uint32_t top;             /* first row shown */
    uint32_t cursor;          /* selected row (Enter lists its events) */
    int show_events;          /* the event list of the selected row replaces the chart */
    uint32_t events_row_case; /* the case whose events are listed */
    uint64_t *events;         /* the listed event indices */
    uint64_t nevents;
    /* the index is built by a job (timeline_job.h), on a background thread for large logs:
     * those of async_min events or more (0: TUI_TIMELINE_ASYNC_EVENTS) */
    struct tui_timeline_job *job; /* running or finished but not installed; NULL when none */
    uint64_t async_min;
    uint64_t index_failed; /* the app's generation + 1 whose index ran out of memory */
    double index_ms;       /* how long the installed index took to build */
    /* the event list (Enter): its table over events (the Timeline view's) */
    struct tui_listmodel *events_lm;
    const struct iodfg_eventlog *log;
};

/* The Timeline view's state (what its open made). */
struct tui_timeline *tui_app_timeline_state(struct tui_app *app);
/* Free what tl holds (waiting for its job), keeping tl itself. */
void tui_timeline_fini(struct tui_timeline *tl);

/* Every TL_STEP-th slot of the index is sampled (tl->coarse). */
#define TL_STEP 8

/* The index of the selection for activity a (UINT32_MAX: all mapped events) is ready for the
 * current generation: 0; 1 while a background job builds it; -1 when out of memory. Starts or
 * restarts the job as needed (timeline_job.h). */
int tui_timeline_index(struct tui_app *app, struct tui_timeline *tl, uint32_t a);

/* The group of event i: its activity (all mapped events are group 0 with all), or UINT32_MAX. */
static inline uint32_t tui_timeline_group(const uint32_t *act, const uint32_t *key, uint64_t i,
                                          uint32_t ngroups, int all)
{
    uint32_t g = act[key[i]];
    if (g == IODFG_NO_ACTIVITY) {
        return UINT32_MAX;
    }
    return all ? 0 : g < ngroups ? g : UINT32_MAX;
}

#endif
