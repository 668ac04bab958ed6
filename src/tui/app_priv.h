/* SPDX-License-Identifier: MIT */
/* The TUI application's state, private to the app's own files (app*.c) and white-box tests:
 * views and the terminal code read it through the functions of app.h. */
#ifndef IODFG_TUI_APP_PRIV_H
#define IODFG_TUI_APP_PRIV_H

#include <stddef.h>
#include <stdint.h>

#include "iodfg/diff.h"
#include "iodfg/filter.h"
#include "iodfg/insights.h"
#include "iodfg/mapping.h"
#include "iodfg/rules.h"
#include "iodfg/session.h"

#include "tui/app.h"
#include "tui/view.h"
#include "tui/views/charz/charz.h"

struct iodfg_analysis;
struct iodfg_eventlog;
struct tui_second;

struct tui_app {
    const struct iodfg_eventlog *log; /* borrowed (or owned when own_log) */
    int own_log;
    char log_name[256];
    struct iodfg_session *ses; /* the analysis: inputs, results, undo */
    /* borrowed from the session: stable for its life */
    struct iodfg_rules *rules;
    struct iodfg_filter_stack *filters;
    /* borrowed from the session, refreshed by every rebuild */
    const struct iodfg_analysis *an;
    const struct iodfg_mapping *map;
    const struct iodfg_diff *diff;    /* NULL without groups */
    const uint8_t *g_on, *r_on;       /* groups as compared (NULL without groups) */
    const uint8_t *node_on, *edge_on; /* pruning masks (nactivities / nedges) */
    const struct iodfg_session_counts *counts;
    uint64_t generation; /* changes with every rebuild that changed a result */
    double first_ms;     /* when a live rule edit's first tier was made (monotonic ms) */
    double second_ms;    /* idle time before its second tier (IODFG_TUI_SECOND_TIER_MS; 0) */
    struct tui_second *second; /* its second tier on a background thread (app_second.c) */
    double second_expect_ms;   /* how long the last one took: its progress' estimate */
    double second_hold_ms;     /* tests: each runs this long at least (IODFG_TUI_SECOND_HOLD_MS) */

    /* views */
    enum tui_view view, prev_view;
    void *view_state[TUI_VIEW_COUNT]; /* each view's own state (its ops' open) */

    /* the characterisation, computed in the background (views/charz/charz.h): the
     * Characterisation view shows it, the Timeline its stair-case index */
    struct tui_charz charz;

    /* the rules file */
    char *rules_path;
    char *rules_saved; /* rules text as last loaded or saved */

    char *session_path;
    /* the files the app was opened on (borrowed, may be NULL): a save never replaces one */
    char *const *inputs;
    size_t ninputs;
    /* what the Insights view judges with: the defaults, or the user's insights.conf */
    struct iodfg_insight_thresholds insight_thresholds;
    enum tui_prompt prompt;
    char prompt_label[64];
    char prompt_init[512];
    int show_filters;
    char clipboard[1024]; /* what TUI_COPY copies, sanitised */
    char message[512];
    int message_error;
    unsigned export_seq;
};

/* A command's answer r with its TUI_REBUILD and TUI_RECORD done: the session rebuilt (an error
 * goes to the message line) and the new inputs recorded for undo when it worked (app.c). */
unsigned tui_app_settle(struct tui_app *app, unsigned r);
/* The same for a live rule edit: the session's first tier only, when it applies (the status
 * line shows its exact counts, the rest pending; tui_app_poll brings the full results once the
 * keys pause), else the full rebuild. Records nothing. */
unsigned tui_app_settle_live(struct tui_app *app, unsigned r);
/* The same for an accepted rule edit: the first tier when it applies, recorded for undo when
 * it worked; the second tier follows from the idle loop as for a live one. */
unsigned tui_app_settle_first(struct tui_app *app, unsigned r);
/* The app's own commands, after a change of the session's inputs: tui_app_settle(app,
 * TUI_CHANGED) (returns TUI_REDRAW). */
unsigned tui_app_changed(struct tui_app *app);
/* The session's full results to the views, published when they changed (app.c). 0 or -1. */
int tui_app_take_results(struct tui_app *app, struct iodfg_error *err);
/* The monotonic clock in ms: when a first tier was made, when its second tier started (app.c). */
double tui_app_now_ms(void);
/* app_second.c: the second tier's job: ended (published when still wanted) and started at the
 * first pause after a first tier; whether one runs; wait for it (before the session goes); the
 * status line's pending mark with the job's progress (what: "stats" or "edges, stats"). */
void tui_app_second_poll(struct tui_app *app);
/* Tests and benchmarks: the pending second tier now, waited for (and published). */
void tui_app_second_wait(struct tui_app *app);
int tui_app_second_busy(const struct tui_app *app);
void tui_app_second_stop(struct tui_app *app);
void tui_app_second_pending(const struct tui_app *app, const char *what, char *buf, size_t size);
/* 1 when the global command table runs cmd (app_cmd.c). */
int tui_app_command_global(enum tui_cmd cmd);
/* Drill down on activity a: a rule one directory level deeper first, and the matching filter
 * (app_drill.c). */
int tui_app_drilldown(struct tui_app *app, uint32_t a, struct iodfg_error *err);
/* The status line's focus part: how many activities of the runtime are folded (app_focus.c). */
void tui_app_focus_status(const struct tui_app *app, char *buf, size_t size);

#endif
