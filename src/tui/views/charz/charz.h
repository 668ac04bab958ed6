/* SPDX-License-Identifier: MIT */
/* The Characterisation view model (no curses): El Sayed et al. 2016 metrics, Wright et al. 2013
 * bandwidths and time shares, stair-case index and access patterns of the selection (or of G and
 * R), computed on a background thread, and the view laid out as a page of text spans for the
 * renderer. */
#ifndef IODFG_TUI_VIEWS_CHARZ_CHARZ_H
#define IODFG_TUI_VIEWS_CHARZ_CHARZ_H

#include <stddef.h>
#include <stdint.h>

#include "iodfg/characterize.h"
#include "iodfg/eventlog.h"
#include "iodfg/metrics.h"
#include "iodfg/stats.h"

#include "tui/viewmodel.h"

struct tui_app;
struct tui_charz_job;

/* Busy-bin thresholds c (bytes) that threshold-up / threshold-down step through. */
#define TUI_CHARZ_NTHRESHOLDS 12

struct tui_charz {
    /* parameters */
    int64_t dt_ns;           /* requested Δt; 0 = iodfg_metrics_default_dt of the span */
    int threshold_idx;       /* into the thresholds */
    enum iodfg_server_by by; /* what a server is */
    uint64_t param_seq;      /* bumped when Δt or the server dimension change */
    /* installed results (main thread only) */
    int have;           /* res[] hold results */
    int ngroups;        /* 1: the selection, 2: G (res[0]) and R (res[1]) */
    uint32_t ncases[2]; /* cases of each group within the filters */
    struct iodfg_characterization res[2];
    int access_ok;             /* the log has the offset, fd and pid columns */
    enum iodfg_clock clock;    /* the clock of the cases characterised */
    uint32_t clock_dropped;    /* selected cases of other clocks left out (time bins) */
    uint64_t res_gen, res_seq; /* app generation and param_seq the results belong to */
    double compute_ms;
    char error[256]; /* the last computation's error, "" when fine */
    /* background */
    struct tui_charz_job *job; /* running, or NULL */
};

void tui_charz_init(struct tui_charz *cz);
/* Waits for a running job, then frees everything. */
void tui_charz_fini(struct tui_charz *cz);

/* Start a job when the results do not match the app's generation and parameters (and none
 * runs), install a finished one. Returns 1 when new results were installed, else 0. */
int tui_app_charz_update(struct tui_app *app);
/* Install a finished job without starting one (the event loop polls this while busy). */
int tui_app_charz_poll(struct tui_app *app);
/* Ask the running job to stop: its inputs are about to change. A stopped job installs
 * nothing; the next update starts one for the new inputs. */
void tui_app_charz_cancel(struct tui_app *app);
/* Wait for the running job and install its results (tests, quitting). */
void tui_app_charz_wait(struct tui_app *app);
/* 1 while a job runs. */
int tui_app_charz_busy(struct tui_app *app);

/* The threshold c in bytes of the current step. */
double tui_charz_threshold(const struct tui_charz *cz);
/* Step the threshold by dir (+1/-1) and re-finish installed results (cheap). 0, or -1 at the
 * end of the range. */
int tui_charz_threshold_step(struct tui_charz *cz, int dir);
/* The index of threshold c among the steps, -1 when c is not one of them. */
int tui_charz_threshold_index(double c);
/* Set Δt (0 = automatic), the server dimension and the threshold step (a session being
 * restored); results are recomputed when Δt or the servers change. */
void tui_charz_set_params(struct tui_charz *cz, int64_t dt_ns, enum iodfg_server_by by,
                          int threshold_idx);
/* The next "nice" Δt (1, 2, 5 × 10^k ns, >= 1 µs) below (dir < 0) or above (dir > 0) dt_ns. */
int64_t tui_charz_dt_step(int64_t dt_ns, int dir);
/* Zoom: dir < 0 narrower bins, > 0 wider, 0 back to the default. 0, or -1 when the limit
 * (1 µs, 100000 bins, one bin) is reached or there are no results yet. */
int tui_charz_zoom(struct tui_charz *cz, int dir);
/* Cycle host -> case -> file. */
void tui_charz_next_server(struct tui_charz *cz);

/* ---- the laid-out page ---- */

/* Lay out the view for width columns (G and R side by side when both fit, else one after the
 * other): header, El Sayed et al. 2016 metrics, bandwidth and IOPS charts, Wright et al. 2013
 * bandwidths, time-share bars per case, and the selected activity's stair-case index, access
 * patterns and sizes. 0 or -1 (out of memory). */
int tui_charz_page(struct tui_app *app, int width, struct tui_page *pg);

#endif
