/* SPDX-License-Identifier: MIT */
/* Models of the Graph view (neighbourhood lists) and the Timeline view (per-case busy bins and
 * the concurrency profile of one activity, over a per-activity event index; the event list
 * of one case). */
#include "config.h"

#include <pthread.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "iodfg/analysis.h"
#include "iodfg/dfg.h"
#include "iodfg/eventlog.h"
#include "iodfg/format.h"
#include "iodfg/mapping.h"
#include "iodfg/stats.h"
#include "iodfg/strpool.h"

#include "tui/app.h"
#include "tui/bgthread.h"
#include "tui/listmodel.h"
#include "tui/timeline_job.h"

/* ---- graph ---- */

uint32_t tui_app_graph_activity(struct tui_app *app)
{
    if (app->graph_act != UINT32_MAX && app->graph_act < app->map.nactivities &&
        app->graph_act < app->node_cap && app->node_on[app->graph_act]) {
        return app->graph_act;
    }
    return tui_app_selected_activity(app);
}

static const struct iodfg_dfg *sort_g; // qsort has no context argument

static int by_count(const void *a, const void *b)
{
    uint64_t x = sort_g->edges[*(const uint32_t *)a].count;
    uint64_t y = sort_g->edges[*(const uint32_t *)b].count;
    return (x < y) - (x > y);
}

void tui_app_graph_update(struct tui_app *app)
{
    const struct iodfg_dfg *g = iodfg_analysis_dfg(app->an);
    uint32_t a = tui_app_graph_activity(app);
    free(app->pred);
    free(app->succ);
    app->pred = malloc((g->nedges + 1) * sizeof(uint32_t));
    app->succ = malloc((g->nedges + 1) * sizeof(uint32_t));
    app->npred = app->nsucc = 0;
    if (!app->pred || !app->succ || a == UINT32_MAX) {
        return;
    }
    for (size_t i = 0; i < g->nedges; i++) {
        const struct iodfg_dfg_edge *e = &g->edges[i];
        if (e->count == 0 || !app->edge_on[i]) {
            continue;
        }
        if (e->to == a) {
            app->pred[app->npred++] = (uint32_t)i;
        }
        if (e->from == a) {
            app->succ[app->nsucc++] = (uint32_t)i;
        }
    }
    sort_g = g;
    qsort(app->pred, app->npred, sizeof(uint32_t), by_count);
    qsort(app->succ, app->nsucc, sizeof(uint32_t), by_count);
    for (int s = 0; s < 2; s++) {
        uint32_t n = s ? app->nsucc : app->npred;
        if (app->graph_pos[s] >= n) {
            app->graph_pos[s] = n ? n - 1 : 0;
        }
    }
}

/* ---- timeline ----
 *
 * What a cell shows. Each event occupies [start, start + max(dur, 1)) (an unknown or zero
 * duration is one nanosecond). For row r (a case) and bin [bs, be):
 *   busy = the summed overlap of the row's events with the bin, over the bin length;
 *   k    = how many of the row's events touch the bin (start < be and end > bs);
 *   cover = 0 when k = 0, else min(1, max(busy, 0.02 k)):
 * the busy fraction, but at least 0.02 per event in the bin, so an instant still shows and
 * many short calls add up. The concurrency sparkline is the sum of the rows' covers per bin
 * (mean concurrency), and the peak is its first highest bin.
 *
 * How it is computed without visiting the events of the window: with times relative to t0,
 * S(t) = sum over starts s < t of (t - s) - sum over ends e <= t of (t - e) is the busy time of
 * the row before t, so busy = (S(be) - S(bs)) / bin, and k = #(starts < be) - #(ends <= bs).
 * The index keeps, per row, the prefix sums of the starts (in start order) and of the ends
 * (sorted), 16 bytes an event, and every TL_STEP-th start and end apart (the samples); so each
 * bin edge costs a step along the samples, two searches among TL_STEP slots and a few
 * subtractions: a frame costs rows x bins, whatever the number of events in the window. The
 * sums are taken modulo 2^64: every difference used is exact because its true value is below
 * 2^63 (k < 50 events of at most one bin each; with 50 or more the cell is full anyway). */

/* Every TL_STEP-th slot of the index is sampled (tl->coarse). */
#define TL_STEP 8

static int64_t ev_dur(const struct iodfg_columns *col, uint64_t i)
{
    int64_t d = col->dur_ns ? col->dur_ns[i] : 0;
    return d == IODFG_UNKNOWN || d < 1 ? 1 : d;
}

/* Free the index; keep: but its two big arrays, for the next build to reuse (their pages are
 * already mapped, which is most of a build's cost). */
static void free_index(struct tui_timeline *tl, int keep)
{
    free(tl->group_ev);
    free(tl->group_row);
    free(tl->row_case);
    free(tl->row_start);
    free(tl->row_off);
    tl->group_ev = tl->group_row = tl->row_start = tl->row_off = NULL;
    tl->row_case = tl->rows = NULL;
    if (!keep) {
        free(tl->sums);
        free(tl->coarse);
        tl->sums = tl->coarse = NULL;
        tl->sums_cap = tl->coarse_cap = 0;
    }
    tl->ngroups = tl->nrows = 0;
    tl->index_stamp = 0;
}

/* Grow *p to at least n slots (kept when large enough). */
static int reserve_sums(struct tui_timeline_sums **p, uint64_t *cap, uint64_t n)
{
    if (*cap >= n && *p) {
        return 0;
    }
    free(*p);
    *p = malloc((size_t)n * sizeof(**p));
    *cap = *p ? n : 0;
    return *p ? 0 : -1;
}

/* ---- the index job ----
 *
 * A build reads the event log (never changed while the app lives) and private copies of what a
 * rebuild changes: the activity of every key and the selection with its case mask. It writes
 * only its own struct (out); the UI thread installs out whole once the job has said done and
 * been joined, so it never sees a half-built index. */
struct tui_timeline_job {
    pthread_t th;
    int threaded;              /* th runs job_run and is not joined yet */
    atomic_int done;           /* out is complete (or abandoned): rc says which */
    atomic_int cancel;         /* the UI thread no longer wants the result */
    atomic_int permille;       /* progress */
    atomic_uint_least64_t nev; /* the events indexed, once the first pass counted them */
    const struct iodfg_eventlog *log;
    struct iodfg_selection sel; /* its case_on points to case_on */
    uint8_t *case_on;           /* NULL: every case */
    uint32_t *act;              /* the activity of every key */
    uint32_t ngroups;           /* activities (1 with all) */
    int all;                    /* one group of every mapped event */
    uint64_t gen;               /* app->generation it indexes */
    struct tui_timeline out;    /* the index (only its index fields) */
    int rc;                     /* 0 built, -1 out of memory, 1 cancelled */
    double ms;
};

static double now_ms(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec * 1e3 + (double)ts.tv_nsec / 1e6;
}

static void job_free(struct tui_timeline_job *j)
{
    free_index(&j->out, 0);
    free(j->case_on);
    free(j->act);
    free(j);
}

void tui_app_timeline_free(struct tui_timeline *tl)
{
    if (tl->job) { // quitting: stop the job soon, wait for it (it reads the log)
        atomic_store(&tl->job->cancel, 1);
        if (tl->job->threaded) {
            pthread_join(tl->job->th, NULL);
        }
        job_free(tl->job);
        tl->job = NULL;
    }
    free_index(tl, 0);
    free(tl->cover);
    free(tl->conc);
    free(tl->fit_cover);
    free(tl->fit_conc);
    free(tl->events);
    tl->fit_cover = tl->fit_conc = NULL;
    tl->fit_stamp = 0;
    tl->events = NULL;
    tl->cover = tl->conc = NULL;
    tl->nevents = 0;
    tl->stamp = 0;
}

static int cmp_u64(const void *a, const void *b)
{
    uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
    return (x > y) - (x < y);
}

/* The group of event i: its activity (all mapped events are group 0 with all), or UINT32_MAX. */
static inline uint32_t ev_group(const uint32_t *act, const uint32_t *key, uint64_t i,
                                uint32_t ngroups, int all)
{
    uint32_t g = act[key[i]];
    if (g == IODFG_NO_ACTIVITY) {
        return UINT32_MAX;
    }
    return all ? 0 : g < ngroups ? g : UINT32_MAX;
}

/* Whether the job should stop, after noting its progress (per mille). */
static inline int job_check(struct tui_timeline_job *job, int permille)
{
    atomic_store_explicit(&job->permille, permille, memory_order_relaxed);
    return atomic_load_explicit(&job->cancel, memory_order_relaxed);
}

/* Prefix sums are taken this many slots between two looks at the cancel flag. */
#define TL_CHUNK 65536

/* The index of every activity's selected events (or of all mapped ones as one group) into
 * job->out: two passes over the selection and one over the index, only when the rebuild
 * changes (a change of activity then costs nothing). Rows of a group are its cases in case
 * order; the events of a row are in start order (as the log keeps a case). 0, -1 when out of
 * memory (all freed), 1 when cancelled (the two big arrays kept for the next build). */
static int build_index(struct tui_timeline_job *job)
{
    struct tui_timeline *tl = &job->out;
    const struct iodfg_columns *col = iodfg_eventlog_columns(job->log);
    const struct iodfg_selection *sel = &job->sel;
    const uint32_t *act = job->act;
    uint32_t nc = iodfg_eventlog_case_count(job->log);
    uint32_t ng = job->ngroups;
    int all = job->all;
    free_index(tl, 1);
    tl->ngroups = ng;
    tl->all_index = all;
    tl->group_ev = calloc((size_t)ng + 1, sizeof(uint64_t));
    tl->group_row = calloc((size_t)ng + 1, sizeof(uint64_t));
    uint64_t *fill = calloc((size_t)ng + 1, sizeof(uint64_t));
    uint64_t *rfill = calloc((size_t)ng + 1, sizeof(uint64_t));
    uint32_t *last = calloc((size_t)ng + 1, sizeof(uint32_t)); // case + 1 of the group's last row
    uint64_t *prev = calloc((size_t)ng + 1, sizeof(uint64_t)); // the last end in the group's row
    uint8_t *unsorted = NULL; // rows whose ends are out of start order
    uint64_t *tmp = NULL;
    int rc = -1;
    if (!tl->group_ev || !tl->group_row || !fill || !rfill || !last || !prev) {
        goto out;
    }
    // pass 1: the span, and the events and rows of each group
    int have = 0;
    tl->t0_ns = tl->t1_ns = 0;
    for (uint32_t c = 0; c < nc; c++) {
        if (job_check(job, (int)(300.0 * c / nc))) {
            rc = 1;
            goto out;
        }
        uint64_t lo, hi;
        if (!iodfg_dfg_case_range(job->log, sel, c, &lo, &hi)) {
            continue;
        }
        // the span covers every selected event, whatever the activity
        int64_t s = col->start_ns[lo], emax = s;
        for (uint64_t i = hi; i > lo && i + 64 > hi; i--) {
            int64_t e = col->start_ns[i - 1] + ev_dur(col, i - 1) -
                        (col->dur_ns && col->dur_ns[i - 1] > 0 ? 0 : 1);
            emax = e > emax ? e : emax;
        }
        tl->t0_ns = !have || s < tl->t0_ns ? s : tl->t0_ns;
        tl->t1_ns = !have || emax > tl->t1_ns ? emax : tl->t1_ns;
        have = 1;
        for (uint64_t i = lo; i < hi; i++) {
            uint32_t g = ev_group(act, col->key, i, ng, all);
            if (g != UINT32_MAX) {
                fill[g]++;
                if (last[g] != c + 1) {
                    last[g] = c + 1;
                    rfill[g]++;
                }
            }
        }
    }
    if (tl->t1_ns <= tl->t0_ns) {
        tl->t1_ns = tl->t0_ns + 1;
    }
    for (uint32_t g = 0; g < ng; g++) { // counts to offsets
        tl->group_ev[g + 1] = tl->group_ev[g] + fill[g];
        tl->group_row[g + 1] = tl->group_row[g] + rfill[g];
        fill[g] = tl->group_ev[g];
        rfill[g] = tl->group_row[g];
        last[g] = 0;
    }
    uint64_t nev = tl->group_ev[ng], nrow = tl->group_row[ng];
    atomic_store(&job->nev, nev);
    tl->row_case = malloc(((size_t)nrow + 1) * sizeof(uint32_t));
    tl->row_start = malloc(((size_t)nrow + 1) * sizeof(uint64_t));
    unsorted = calloc((size_t)nrow + 1, 1);
    if (reserve_sums(&tl->sums, &tl->sums_cap, nev + 1) ||
        reserve_sums(&tl->coarse, &tl->coarse_cap, nev / TL_STEP + 1) || !tl->row_case ||
        !tl->row_start || !unsorted) {
        goto out;
    }
    // pass 2: each event's relative start and end at its slot + 1, the rows where they begin
    struct tui_timeline_sums *sm = tl->sums;
    for (uint32_t c = 0; c < nc; c++) {
        if (job_check(job, 300 + (int)(500.0 * c / nc))) {
            rc = 1;
            goto out;
        }
        uint64_t lo, hi;
        if (!iodfg_dfg_case_range(job->log, sel, c, &lo, &hi)) {
            continue;
        }
        for (uint64_t i = lo; i < hi; i++) {
            uint32_t g = ev_group(act, col->key, i, ng, all);
            if (g == UINT32_MAX) {
                continue;
            }
            uint64_t at = fill[g]++;
            if (last[g] != c + 1) {
                last[g] = c + 1;
                tl->row_case[rfill[g]] = c;
                tl->row_start[rfill[g]++] = at;
                prev[g] = 0;
            }
            uint64_t s = (uint64_t)(col->start_ns[i] - tl->t0_ns);
            uint64_t e = s + (uint64_t)ev_dur(col, i);
            sm[at + 1].s = s;
            sm[at + 1].e = e;
            unsorted[rfill[g] - 1] |= e < prev[g];
            prev[g] = e;
        }
    }
    tl->row_start[nrow] = nev;
    // the ends of a row in order (already so unless its events overlap)
    size_t tmp_cap = 0;
    for (uint64_t r = 0; r < nrow; r++) {
        uint64_t a = tl->row_start[r] + 1, b = tl->row_start[r + 1] + 1, j;
        if (!unsorted[r]) {
            continue;
        }
        if (job_check(job, 800 + (int)(100.0 * (double)r / (double)nrow))) {
            rc = 1;
            goto out;
        }
        if (b - a > tmp_cap) {
            free(tmp);
            tmp_cap = (size_t)(b - a);
            tmp = malloc(tmp_cap * sizeof(*tmp));
            if (!tmp) {
                goto out;
            }
        }
        for (j = a; j < b; j++) {
            tmp[j - a] = sm[j].e;
        }
        qsort(tmp, (size_t)(b - a), sizeof(*tmp), cmp_u64);
        for (j = a; j < b; j++) {
            sm[j].e = tmp[j - a];
        }
    }
    // the samples, then the prefix sums
    sm[0].s = sm[0].e = 0;
    uint64_t k = 0, next = 1;
    for (uint64_t j0 = 1; j0 <= nev; j0 += TL_CHUNK) {
        if (job_check(job, 900 + (int)(100.0 * (double)j0 / (double)(nev + 1)))) {
            rc = 1;
            goto out;
        }
        uint64_t j1 = nev + 1 - j0 > TL_CHUNK ? j0 + TL_CHUNK : nev + 1;
        for (uint64_t j = j0; j < j1; j++) {
            if (j == next) {
                tl->coarse[k++] = sm[j];
                next += TL_STEP;
            }
            sm[j].s += sm[j - 1].s;
            sm[j].e += sm[j - 1].e;
        }
    }
    rc = 0;
out:
    free(fill);
    free(rfill);
    free(last);
    free(unsorted);
    free(prev);
    free(tmp);
    if (rc) {
        free_index(tl, rc > 0);
    }
    return rc;
}

static void *job_run(void *arg)
{
    struct tui_timeline_job *job = arg;
    double t0 = now_ms();
    job->rc = build_index(job);
    job->ms = now_ms() - t0;
    atomic_store(&job->done, 1);
    return NULL;
}

/* A job over copies of what a rebuild may change under it. NULL when out of memory. */
static struct tui_timeline_job *job_new(struct tui_app *app, int all)
{
    struct tui_timeline_job *job = calloc(1, sizeof(*job));
    if (!job) {
        return NULL;
    }
    atomic_init(&job->done, 0);
    atomic_init(&job->cancel, 0);
    atomic_init(&job->permille, 0);
    atomic_init(&job->nev, 0);
    const struct iodfg_selection *sel = iodfg_analysis_selection(app->an);
    uint32_t nk = iodfg_eventlog_key_count(app->log), nc = iodfg_eventlog_case_count(app->log);
    job->act = malloc(((size_t)nk + 1) * sizeof(uint32_t));
    job->case_on = sel->case_on ? malloc((size_t)nc + 1) : NULL;
    if (!job->act || (sel->case_on && !job->case_on)) {
        job_free(job);
        return NULL;
    }
    memcpy(job->act, iodfg_analysis_activities(app->an), (size_t)nk * sizeof(uint32_t));
    if (sel->case_on) {
        memcpy(job->case_on, sel->case_on, nc);
    }
    job->sel = *sel;
    job->sel.case_on = job->case_on;
    job->log = app->log;
    job->all = all;
    job->ngroups = all ? 1 : iodfg_analysis_stats(app->an)->nactivities;
    job->gen = app->generation;
    return job;
}

/* Join the job and take its index when it belongs to the current generation; else (stale,
 * cancelled, failed) keep only its two big arrays for the next build. */
static void job_finish(struct tui_app *app)
{
    struct tui_timeline *tl = &app->tl;
    struct tui_timeline_job *job = tl->job;
    if (job->threaded) {
        pthread_join(job->th, NULL);
        job->threaded = 0;
    }
    tl->job = NULL;
    struct tui_timeline *o = &job->out;
    if (job->rc == 0 && job->gen == app->generation) {
        free_index(tl, 0);
        tl->group_ev = o->group_ev;
        tl->group_row = o->group_row;
        tl->row_case = o->row_case;
        tl->row_start = o->row_start;
        tl->sums = o->sums;
        tl->coarse = o->coarse;
        tl->sums_cap = o->sums_cap;
        tl->coarse_cap = o->coarse_cap;
        tl->ngroups = o->ngroups;
        tl->all_index = o->all_index;
        tl->t0_ns = o->t0_ns;
        tl->t1_ns = o->t1_ns;
        tl->index_stamp = job->gen + 1;
        tl->index_ms = job->ms;
        tl->fit_stamp = 0;             // the cached fit grid belonged to the old index
        tl->activity = UINT32_MAX - 1; // no activity's rows until timeline_index picks them
        memset(o, 0, sizeof(*o));
    } else {
        if (job->rc < 0 && job->gen == app->generation) {
            tl->index_failed = job->gen + 1; // out of memory: not again before a rebuild
        }
        if (!tl->sums && !tl->coarse) {
            tl->sums = o->sums;
            tl->coarse = o->coarse;
            tl->sums_cap = o->sums_cap;
            tl->coarse_cap = o->coarse_cap;
            o->sums = o->coarse = NULL;
        }
    }
    job_free(job);
}

/* Start building the index for the current generation: in the background for a large log
 * (1), else at once (0 when built, -1 when out of memory). */
static int job_start(struct tui_app *app, struct tui_timeline *tl, int all)
{
    struct tui_timeline_job *job = job_new(app, all);
    if (!job) {
        return -1;
    }
    free_index(tl, 1); // the old index goes; its two big arrays go to the job to reuse
    job->out.sums = tl->sums;
    job->out.coarse = tl->coarse;
    job->out.sums_cap = tl->sums_cap;
    job->out.coarse_cap = tl->coarse_cap;
    tl->sums = tl->coarse = NULL;
    tl->sums_cap = tl->coarse_cap = 0;
    tl->fit_stamp = 0;
    tl->activity = UINT32_MAX - 1;
    tl->job = job;
    uint64_t min = tl->async_min ? tl->async_min : TUI_TIMELINE_ASYNC_EVENTS;
    if (iodfg_eventlog_event_count(app->log) >= min) {
        job->threaded = tui_bgthread_start(&job->th, job_run, job) == 0;
    }
    if (job->threaded) {
        return 1;
    }
    job_run(job); // a small log, or no thread: here (the UI waits this once)
    job_finish(app);
    return tl->index_stamp == app->generation + 1 ? 0 : -1;
}

int tui_app_timeline_poll(struct tui_app *app)
{
    struct tui_timeline_job *job = app->tl.job;
    if (!job) {
        return 0;
    }
    if (job->gen != app->generation) {
        atomic_store(&job->cancel, 1); // stale: stop soon
    }
    if (!atomic_load(&job->done)) {
        return 0;
    }
    job_finish(app);
    return 1;
}

int tui_app_timeline_busy(const struct tui_app *app)
{
    return app->tl.job != NULL;
}

void tui_app_timeline_wait(struct tui_app *app)
{
    if (app->tl.job) {
        job_finish(app); // joins the thread
    }
}

int tui_app_timeline_progress(struct tui_app *app, uint64_t *events)
{
    struct tui_timeline_job *job = app->tl.job;
    *events = job ? atomic_load(&job->nev) : 0;
    return job ? atomic_load_explicit(&job->permille, memory_order_relaxed) : -1;
}

/* Make the index current and point the rows at activity a's (a new row_off from 0). 0, 1 while
 * the index is built in the background, -1 when out of memory. */
static int timeline_index(struct tui_app *app, struct tui_timeline *tl, uint32_t a)
{
    int all = a == UINT32_MAX;
    uint64_t want = app->generation + 1;
    if ((tl->index_stamp != want || tl->all_index != all) && tl->job) {
        struct tui_timeline_job *job = tl->job;
        if (!atomic_load(&job->done)) {
            if (job->gen != app->generation || job->all != all) {
                atomic_store(&job->cancel, 1); // not what is wanted now: stop it soon
            }
            return 1; // the next one starts when it has stopped (the event loop polls)
        }
        job_finish(app);
    }
    if (tl->index_stamp != want || tl->all_index != all) {
        if (tl->index_failed == want) {
            return -1;
        }
        int rc = job_start(app, tl, all);
        if (rc) {
            return rc;
        }
    }
    if (tl->activity == a && tl->row_off) {
        return 0;
    }
    uint32_t g = all ? 0 : a;
    uint64_t r0 = 0, r1 = 0;
    if (g < tl->ngroups) {
        r0 = tl->group_row[g];
        r1 = tl->group_row[g + 1];
    }
    free(tl->row_off);
    tl->row_off = malloc(((size_t)(r1 - r0) + 1) * sizeof(uint64_t));
    tl->nrows = 0;
    tl->fit_stamp = 0; // the cached fit grid belonged to the old activity
    if (!tl->row_off) {
        tl->activity = UINT32_MAX - 1;
        return -1;
    }
    tl->rows = tl->row_case + r0;
    tl->nrows = (uint32_t)(r1 - r0);
    tl->ev_base = r1 > r0 ? tl->row_start[r0] : 0;
    for (uint64_t r = r0; r <= r1; r++) {
        tl->row_off[r - r0] = r1 > r0 ? tl->row_start[r] - tl->ev_base : 0;
    }
    tl->activity = a;
    if (tl->cursor >= tl->nrows) {
        tl->cursor = tl->nrows ? tl->nrows - 1 : 0;
    }
    return 0;
}

/* Value j of the row (start or sorted end), from its prefix sums. */
static inline uint64_t row_start(const struct tui_timeline_sums *sm, uint64_t j)
{
    return sm[j + 1].s - sm[j].s;
}

static inline uint64_t row_end(const struct tui_timeline_sums *sm, uint64_t j)
{
    return sm[j + 1].e - sm[j].e;
}

/* The number of the row's n starts below t (ends: at or below t), known to lie in [lo, hi]. */
static inline uint64_t count_below(const struct tui_timeline_sums *sm, int ends, uint64_t lo,
                                   uint64_t hi, uint64_t t)
{
    while (lo < hi) {
        uint64_t mid = lo + (hi - lo) / 2;
        if (ends ? row_end(sm, mid) <= t : row_start(sm, mid) < t) {
            lo = mid + 1;
        } else {
            hi = mid;
        }
    }
    return lo;
}

/* Where the count of a row's values below t lies, from the samples below t among the row's
 * m samples (relative index off + i * TL_STEP): [*lo, *hi], at most TL_STEP wide. */
static inline void sample_window(uint64_t below, uint64_t off, uint64_t n, uint64_t *lo,
                                 uint64_t *hi)
{
    uint64_t h = off + below * TL_STEP;
    *lo = below ? h - TL_STEP + 1 : 0;
    *hi = h < n ? h : n;
}

/* The number of samples cs[lo..hi) below t (ends: at or below t), the first lo known to be:
 * a gallop away from the guess g, then a binary search. */
static uint64_t samples_below(const struct tui_timeline_sums *cs, int ends, uint64_t lo,
                              uint64_t hi, uint64_t g, uint64_t t)
{
#define BELOW(j) (ends ? cs[j].e <= t : cs[j].s < t)
    g = g < lo ? lo : g > hi ? hi : g;
    uint64_t step = 1;
    if (g < hi && BELOW(g)) { // the answer is above g
        lo = g + 1;
        for (;;) {
            uint64_t p = lo + step - 1;
            if (p >= hi) {
                break;
            }
            if (!BELOW(p)) {
                hi = p;
                break;
            }
            lo = p + 1;
            step *= 2;
        }
    } else { // at or below g
        hi = g;
        while (hi - lo >= step) {
            uint64_t p = hi - step;
            if (BELOW(p)) {
                lo = p + 1;
                break;
            }
            hi = p;
            step *= 2;
        }
    }
    while (lo < hi) {
        uint64_t mid = lo + (hi - lo) / 2;
        if (BELOW(mid)) {
            lo = mid + 1;
        } else {
            hi = mid;
        }
    }
    return lo;
#undef BELOW
}

/* The first phase of a row's cover: where each of the nbins + 1 bin edges t, t + bin, ... lies
 * among the row's n events (index slots [a, a + n), sm = sums + a, so sm[0] is the sum before
 * the row), found among the samples (which lie together) within TL_STEP slots for the starts
 * and for the ends: win gets 4 values an edge. The slots the second phase reads are asked
 * from memory now, so that their loads overlap (with the rest of the frame's work) instead of
 * waiting in turn. Returns the number of bins to compute (past it every event has ended). */
static int locate_row(const struct tui_timeline_sums *sm, const struct tui_timeline_sums *coarse,
                      uint64_t a, uint64_t n, uint64_t t, uint64_t bin, int nbins, uint64_t *win)
{
    if (n == 0) {
        return 0;
    }
    uint64_t k0 = (a + TL_STEP - 1) / TL_STEP, m = (a + n + TL_STEP - 1) / TL_STEP - k0;
    uint64_t off = k0 * TL_STEP - a;
    const struct tui_timeline_sums *cs = coarse + k0;
    // the first edge among the samples (from where the row's mean rate puts it), then walk on
    uint64_t g = 0;
    if (m > 1 && t > cs[0].s) {
        uint64_t span = cs[m - 1].s - cs[0].s;
        g = t > cs[m - 1].s || span == 0
                ? m - 1
                : (uint64_t)((double)(t - cs[0].s) / (double)span * (double)(m - 1));
    }
    uint64_t bs = samples_below(cs, 0, 0, m, g, t);
    uint64_t be = samples_below(cs, 1, 0, bs, bs, t); // no more ends than starts below t
    for (int b = 0; b <= nbins; b++) {
        uint64_t u = t + (uint64_t)b * bin;
        while (bs < m && cs[bs].s < u) {
            bs++;
        }
        while (be < m && cs[be].e <= u) {
            be++;
        }
        uint64_t *w = win + 4 * b;
        sample_window(bs, off, n, &w[0], &w[1]);
        sample_window(be, off, n, &w[2], &w[3]);
#if defined(__GNUC__)
        for (int h = 0; h < 4; h += 2) { // the search reads sm[lo] .. sm[hi]: 4 slots a line
            for (uint64_t j = w[h]; j < w[h + 1] + 4; j += 4) {
                __builtin_prefetch(sm + (j < w[h + 1] ? j : w[h + 1]));
            }
        }
#endif
        if (w[2] >= n) { // every event ended: nothing further on
            return b;
        }
    }
    return nbins;
}

/* The second phase: the exact counts and sums at each edge, the covers of the first nb bins
 * into row (the others stay 0, as do cells nothing touches). */
static void cover_row(const struct tui_timeline_sums *sm, uint64_t t, uint64_t bin, int nb,
                      const uint64_t *win, float *row)
{
    uint64_t ns = count_below(sm, 0, win[0], win[1], t);
    uint64_t ne = count_below(sm, 1, win[2], win[3] < ns ? win[3] : ns, t);
    // busy time before t, modulo 2^64
    uint64_t busy = ns * t - (sm[ns].s - sm[0].s) - (ne * t - (sm[ne].e - sm[0].e));
    for (int b = 0; b < nb; b++) {
        const uint64_t *w = win + 4 * (b + 1);
        uint64_t u = t + bin;
        uint64_t ns1 = count_below(sm, 0, w[0], w[1], u);
        uint64_t k = ns1 - ne; // started before the bin's end, not ended at its start
        uint64_t ne1 = count_below(sm, 1, w[2], w[3] < ns1 ? w[3] : ns1, u);
        uint64_t busy1 = ns1 * u - (sm[ns1].s - sm[0].s) - (ne1 * u - (sm[ne1].e - sm[0].e));
        if (k) {
            double f = k >= 50 ? 1.0 : (double)(busy1 - busy) / (double)bin;
            double mk = 0.02 * (double)k; // an instant still shows
            f = f < mk ? mk : f;
            row[b] = f > 1.0 ? 1.0f : (float)f;
        }
        t = u;
        ns = ns1;
        ne = ne1;
        busy = busy1;
    }
}

int tui_app_timeline(struct tui_app *app, int nbins)
{
    struct tui_timeline *tl = &app->tl;
    uint32_t a = tui_app_selected_activity(app);
    if (nbins < 1) {
        nbins = 1;
    }
    if (tl->stamp == app->generation + 1 && tl->nbins == nbins && tl->activity == a && tl->cover) {
        return 0; // cached (zoom and pan reset the stamp)
    }
    int rc = timeline_index(app, tl, a);
    if (rc) {
        return rc; // 1: indexing in the background
    }
    int64_t whole = tl->t1_ns - tl->t0_ns;
    int64_t width = whole >> (tl->zoom > 40 ? 40 : tl->zoom);
    width = width < nbins ? nbins : width;
    if (!tl->pan_set) {
        tl->from_ns = tl->t0_ns;
    }
    if (tl->from_ns > tl->t1_ns - width) {
        tl->from_ns = tl->t1_ns - width;
    }
    if (tl->from_ns < tl->t0_ns) {
        tl->from_ns = tl->t0_ns;
    }
    tl->bin_ns = (width + nbins - 1) / nbins;
    tl->nbins = nbins;
    free(tl->cover);
    free(tl->conc);
    tl->cover = calloc(((size_t)tl->nrows + 1) * (size_t)nbins, sizeof(float));
    tl->conc = calloc((size_t)nbins, sizeof(float));
    tl->peak_bin = -1;
    if (!tl->cover || !tl->conc) {
        return -1;
    }
    size_t cells = (size_t)tl->nrows * (size_t)nbins;
    int fit = tl->zoom == 0; // the whole span: kept, since zooming out comes back to it
    if (fit && tl->fit_stamp == tl->index_stamp && tl->fit_nbins == nbins && tl->fit_cover) {
        memcpy(tl->cover, tl->fit_cover, cells * sizeof(float));
        memcpy(tl->conc, tl->fit_conc, (size_t)nbins * sizeof(float));
        tl->peak_bin = tl->fit_peak;
        tl->stamp = app->generation + 1;
        return 0;
    }
    uint64_t from = (uint64_t)(tl->from_ns - tl->t0_ns);
    float peak = 0;
    size_t wn = ((size_t)nbins + 1) * 4;
    uint64_t *buf = malloc(2 * wn * sizeof(uint64_t));
    if (!buf) {
        return -1;
    }
    uint64_t *win = buf, *wnext = buf + wn;
    // row r + 1 is located before row r is computed (see locate_row)
    const struct tui_timeline_sums *sm = tl->sums + tl->ev_base;
    uint64_t bin = (uint64_t)tl->bin_ns;
    int nb = tl->nrows
                 ? locate_row(sm, tl->coarse, tl->ev_base, tl->row_off[1], from, bin, nbins, win)
                 : 0;
    for (uint32_t r = 0; r < tl->nrows; r++) {
        int nb_next = 0;
        if (r + 1 < tl->nrows) {
            uint64_t o = tl->row_off[r + 1];
            nb_next = locate_row(sm + o, tl->coarse, tl->ev_base + o, tl->row_off[r + 2] - o, from,
                                 bin, nbins, wnext);
        }
        float *row = tl->cover + (size_t)r * (size_t)nbins;
        cover_row(sm + tl->row_off[r], from, bin, nb, win, row);
        for (int b = 0; b < nbins; b++) {
            tl->conc[b] += row[b];
        }
        uint64_t *w = win;
        win = wnext;
        wnext = w;
        nb = nb_next;
    }
    free(buf);
    for (int b = 0; b < nbins; b++) {
        if (tl->conc[b] > peak) {
            peak = tl->conc[b];
            tl->peak_bin = b;
        }
    }
    if (fit) {
        free(tl->fit_cover);
        free(tl->fit_conc);
        tl->fit_cover = malloc((cells + 1) * sizeof(float));
        tl->fit_conc = malloc((size_t)nbins * sizeof(float));
        tl->fit_stamp = 0;
        if (tl->fit_cover && tl->fit_conc) { // without memory, the next fit just recomputes
            memcpy(tl->fit_cover, tl->cover, cells * sizeof(float));
            memcpy(tl->fit_conc, tl->conc, (size_t)nbins * sizeof(float));
            tl->fit_nbins = nbins;
            tl->fit_peak = tl->peak_bin;
            tl->fit_stamp = tl->index_stamp;
        }
    }
    tl->stamp = app->generation + 1;
    return 0;
}

uint32_t tui_app_selected_activity(struct tui_app *app)
{
    struct tui_listmodel *lm = app->lm[TUI_VIEW_ACTIVITIES];
    if (!lm || tui_listmodel_count(lm) == 0) {
        return UINT32_MAX;
    }
    return app->act_rows[tui_listmodel_row(lm, tui_listmodel_cursor(lm))];
}

/* ---- the event list of one timeline row ---- */

enum { EV_START, EV_DUR, EV_SIZE, EV_CALL, EV_PATH, EV__N };
static const struct tui_column ev_cols[EV__N] = {
    {"Start", 11, 0, TUI_COL_RIGHT | TUI_COL_SORTABLE},
    {"Dur", 10, 0, TUI_COL_RIGHT | TUI_COL_SORTABLE | TUI_COL_DESC},
    {"Size", 9, 1, TUI_COL_RIGHT | TUI_COL_SORTABLE | TUI_COL_DESC},
    {"Call", 10, 0, TUI_COL_SORTABLE | TUI_COL_SEARCH},
    {"Path", 20, 0, TUI_COL_SORTABLE | TUI_COL_SEARCH | TUI_COL_FLEX},
};

static size_t ev_rows(void *ctx)
{
    return (size_t)((struct tui_app *)ctx)->tl.nevents;
}

static int64_t ev_value(const struct tui_app *app, size_t row, int col)
{
    const struct iodfg_columns *c = iodfg_eventlog_columns(app->log);
    uint64_t i = app->tl.events[row];
    switch (col) {
    case EV_START:
        return c->start_ns[i];
    case EV_DUR:
        return c->dur_ns ? c->dur_ns[i] : IODFG_UNKNOWN;
    default:
        return c->size ? c->size[i] : IODFG_UNKNOWN;
    }
}

static const char *ev_str(const struct tui_app *app, size_t row, int col)
{
    const struct iodfg_key *k =
        &iodfg_eventlog_keys(app->log)[iodfg_eventlog_columns(app->log)->key[app->tl.events[row]]];
    return iodfg_strpool_get(iodfg_eventlog_pool(app->log), col == EV_CALL ? k->call : k->path);
}

static const char *ev_cell(void *ctx, size_t row, int col, char *buf, size_t size)
{
    const struct tui_app *app = ctx;
    if (col >= EV_CALL) {
        return ev_str(app, row, col); // the renderer sanitises odd bytes
    }
    int64_t v = ev_value(app, row, col);
    if (v == IODFG_UNKNOWN) {
        return "–";
    }
    if (col == EV_START) {
        buf[0] = '+';
        iodfg_format_duration(buf + 1, size - 1, v - app->tl.t0_ns, 0);
        return buf;
    }
    return col == EV_DUR ? iodfg_format_duration(buf, size, v, 0)
                         : iodfg_format_bytes(buf, size, v, 0);
}

static int ev_compare(void *ctx, size_t a, size_t b, int col)
{
    const struct tui_app *app = ctx;
    if (col >= EV_CALL) {
        return strcmp(ev_str(app, a, col), ev_str(app, b, col));
    }
    int64_t x = ev_value(app, a, col), y = ev_value(app, b, col);
    return (x > y) - (x < y);
}

static unsigned long long ev_key(void *ctx, size_t row)
{
    const struct tui_app *app = ctx;
    return row < app->tl.nevents ? app->tl.events[row] : UINT64_MAX;
}

static const struct tui_list_ops ev_ops = {ev_rows, ev_cell, ev_compare, NULL, ev_key};

int tui_app_timeline_events(struct tui_app *app)
{
    struct tui_timeline *tl = &app->tl;
    uint32_t a = tui_app_selected_activity(app);
    if (timeline_index(app, tl, a)) {
        return -1;
    }
    if (tl->nrows == 0) {
        return -1;
    }
    if (!app->events_lm) {
        app->events_lm = tui_listmodel_new(ev_cols, EV__N, &ev_ops, app);
        if (!app->events_lm) {
            return -1;
        }
        tui_listmodel_sort(app->events_lm, EV_START, 0);
    }
    uint32_t r = tl->cursor < tl->nrows ? tl->cursor : tl->nrows - 1;
    uint64_t n = tl->row_off[r + 1] - tl->row_off[r];
    uint64_t *ev = malloc((n + 1) * sizeof(*ev));
    if (!ev) {
        return -1;
    }
    // the case's selected events of the row's group, in start order, as the index took them
    const struct iodfg_columns *col = iodfg_eventlog_columns(app->log);
    const uint32_t *act = iodfg_analysis_activities(app->an);
    uint64_t lo = 0, hi = 0, k = 0;
    iodfg_dfg_case_range(app->log, iodfg_analysis_selection(app->an), tl->rows[r], &lo, &hi);
    for (uint64_t i = lo; i < hi && k < n; i++) {
        uint32_t g = ev_group(act, col->key, i, tl->ngroups, tl->all_index);
        if (g != UINT32_MAX && (tl->all_index || g == a)) {
            ev[k++] = i;
        }
    }
    free(tl->events);
    tl->events = ev;
    tl->nevents = k;
    tl->events_row_case = tl->rows[r];
    tl->show_events = 1;
    if (tui_listmodel_reload(app->events_lm)) {
        return -1;
    }
    tui_listmodel_first(app->events_lm);
    return 0;
}
