/* SPDX-License-Identifier: MIT */
/* The Timeline's event index (see the comment at the top of timeline_grid.c for what it holds and
 * timeline_job.h for how it is built): per activity and case row, the prefix sums of the
 * events' starts and sorted ends with every TL_STEP-th one sampled, built by a job on a
 * background thread for large logs, installed whole by the UI thread. */
#include "config.h"

#include "tui/views/timeline/timeline_index.h"

#include <pthread.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "iodfg/dfg.h"
#include "iodfg/eventlog.h"
#include "iodfg/session.h"
#include "iodfg/stats.h"
#include "iodfg/trace.h"

#include "tui/app.h"
#include "tui/bgthread.h"
#include "tui/view.h"
#include "tui/views/timeline/timeline_job.h"

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
    uint64_t gen;               /* tui_app_generation(app) it indexes */
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

struct tui_timeline *tui_app_timeline_state(struct tui_app *app)
{
    return tui_app_view_state(app, TUI_VIEW_TIMELINE);
}

void tui_timeline_fini(struct tui_timeline *tl)
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

/* Whether the job should stop, after noting its progress (per mille). */
static inline int job_check(struct tui_timeline_job *job, int permille)
{
    atomic_store_explicit(&job->permille, permille, memory_order_relaxed);
    return atomic_load_explicit(&job->cancel, memory_order_relaxed);
}

/* Prefix sums are taken this many slots between two looks at the cancel flag. */
#define TL_CHUNK 65536

/* The scratch arrays of one index build, per group (ngroups + 1) or per row. */
struct index_scratch {
    uint64_t *fill;    /* events of the group so far (pass 1), then its next slot (pass 2) */
    uint64_t *rfill;   /* rows likewise */
    uint32_t *last;    /* case + 1 of the group's last row */
    uint64_t *prev;    /* the last end in the group's row */
    uint8_t *unsorted; /* per row: its ends are out of start order */
};

// Pass 1: the span of every selected event (whatever its activity), then the events and rows
// of each group, turned into the offsets tl->group_ev and tl->group_row. 0, or 1 cancelled.
static int count_groups(struct tui_timeline_job *job, struct index_scratch *x)
{
    struct tui_timeline *tl = &job->out;
    const struct iodfg_columns *col = iodfg_eventlog_columns(job->log);
    uint32_t nc = iodfg_eventlog_case_count(job->log), ng = job->ngroups;
    int have = 0;
    tl->t0_ns = tl->t1_ns = 0;
    for (uint32_t c = 0; c < nc; c++) {
        if (job_check(job, (int)(300.0 * c / nc))) {
            return 1;
        }
        uint64_t lo, hi;
        if (!iodfg_trace_case_range(job->log, &job->sel, c, &lo, &hi)) {
            continue;
        }
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
            uint32_t g = tui_timeline_group(job->act, col->key, i, ng, job->all);
            if (g != UINT32_MAX) {
                x->fill[g]++;
                if (x->last[g] != c + 1) {
                    x->last[g] = c + 1;
                    x->rfill[g]++;
                }
            }
        }
    }
    if (tl->t1_ns <= tl->t0_ns) {
        tl->t1_ns = tl->t0_ns + 1;
    }
    for (uint32_t g = 0; g < ng; g++) { // counts to offsets
        tl->group_ev[g + 1] = tl->group_ev[g] + x->fill[g];
        tl->group_row[g + 1] = tl->group_row[g] + x->rfill[g];
        x->fill[g] = tl->group_ev[g];
        x->rfill[g] = tl->group_row[g];
        x->last[g] = 0;
    }
    return 0;
}

// Pass 2: each event's relative start and end at its slot + 1, and the rows where they begin
// (a row: one case's events of one group). 0, or 1 cancelled.
static int place_events(struct tui_timeline_job *job, struct index_scratch *x)
{
    struct tui_timeline *tl = &job->out;
    const struct iodfg_columns *col = iodfg_eventlog_columns(job->log);
    uint32_t nc = iodfg_eventlog_case_count(job->log), ng = job->ngroups;
    struct tui_timeline_sums *sm = tl->sums;
    for (uint32_t c = 0; c < nc; c++) {
        if (job_check(job, 300 + (int)(500.0 * c / nc))) {
            return 1;
        }
        uint64_t lo, hi;
        if (!iodfg_trace_case_range(job->log, &job->sel, c, &lo, &hi)) {
            continue;
        }
        for (uint64_t i = lo; i < hi; i++) {
            uint32_t g = tui_timeline_group(job->act, col->key, i, ng, job->all);
            if (g == UINT32_MAX) {
                continue;
            }
            uint64_t at = x->fill[g]++;
            if (x->last[g] != c + 1) {
                x->last[g] = c + 1;
                tl->row_case[x->rfill[g]] = c;
                tl->row_start[x->rfill[g]++] = at;
                x->prev[g] = 0;
            }
            uint64_t s = (uint64_t)(col->start_ns[i] - tl->t0_ns);
            uint64_t e = s + (uint64_t)ev_dur(col, i);
            sm[at + 1].s = s;
            sm[at + 1].e = e;
            x->unsorted[x->rfill[g] - 1] |= e < x->prev[g];
            x->prev[g] = e;
        }
    }
    tl->row_start[tl->group_row[ng]] = tl->group_ev[ng];
    return 0;
}

// The ends of each row in order (already so unless its events overlap). 0, 1 cancelled, -1.
static int sort_row_ends(struct tui_timeline_job *job, const uint8_t *unsorted)
{
    struct tui_timeline *tl = &job->out;
    struct tui_timeline_sums *sm = tl->sums;
    uint64_t nrow = tl->group_row[job->ngroups];
    uint64_t *tmp = NULL;
    size_t tmp_cap = 0;
    for (uint64_t r = 0; r < nrow; r++) {
        uint64_t a = tl->row_start[r] + 1, b = tl->row_start[r + 1] + 1, j;
        if (!unsorted[r]) {
            continue;
        }
        if (job_check(job, 800 + (int)(100.0 * (double)r / (double)nrow))) {
            free(tmp);
            return 1;
        }
        if (b - a > tmp_cap) {
            free(tmp);
            tmp_cap = (size_t)(b - a);
            tmp = malloc(tmp_cap * sizeof(*tmp));
            if (!tmp) {
                return -1;
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
    free(tmp);
    return 0;
}

// The coarse samples (every TL_STEP-th slot), then the prefix sums. 0, or 1 cancelled.
static int prefix_sums(struct tui_timeline_job *job)
{
    struct tui_timeline *tl = &job->out;
    struct tui_timeline_sums *sm = tl->sums;
    uint64_t nev = tl->group_ev[job->ngroups];
    sm[0].s = sm[0].e = 0;
    uint64_t k = 0, next = 1;
    for (uint64_t j0 = 1; j0 <= nev; j0 += TL_CHUNK) {
        if (job_check(job, 900 + (int)(100.0 * (double)j0 / (double)(nev + 1)))) {
            return 1;
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
    return 0;
}

/* The index of every activity's selected events (or of all mapped ones as one group) into
 * job->out: two passes over the selection and one over the index, only when the rebuild
 * changes (a change of activity then costs nothing). Rows of a group are its cases in case
 * order; the events of a row are in start order (as the log keeps a case). 0, -1 when out of
 * memory (all freed), 1 when cancelled (the two big arrays kept for the next build). */
static int build_index(struct tui_timeline_job *job)
{
    struct tui_timeline *tl = &job->out;
    uint32_t ng = job->ngroups;
    free_index(tl, 1);
    tl->ngroups = ng;
    tl->all_index = job->all;
    tl->group_ev = calloc((size_t)ng + 1, sizeof(uint64_t));
    tl->group_row = calloc((size_t)ng + 1, sizeof(uint64_t));
    struct index_scratch x = {
        calloc((size_t)ng + 1, sizeof(uint64_t)), calloc((size_t)ng + 1, sizeof(uint64_t)),
        calloc((size_t)ng + 1, sizeof(uint32_t)), calloc((size_t)ng + 1, sizeof(uint64_t)), NULL};
    int rc = -1;
    if (tl->group_ev && tl->group_row && x.fill && x.rfill && x.last && x.prev) {
        rc = count_groups(job, &x);
    }
    if (rc == 0) {
        uint64_t nev = tl->group_ev[ng], nrow = tl->group_row[ng];
        atomic_store(&job->nev, nev);
        tl->row_case = malloc(((size_t)nrow + 1) * sizeof(uint32_t));
        tl->row_start = malloc(((size_t)nrow + 1) * sizeof(uint64_t));
        x.unsorted = calloc((size_t)nrow + 1, 1);
        if (reserve_sums(&tl->sums, &tl->sums_cap, nev + 1) ||
            reserve_sums(&tl->coarse, &tl->coarse_cap, nev / TL_STEP + 1) || !tl->row_case ||
            !tl->row_start || !x.unsorted) {
            rc = -1;
        }
    }
    rc = rc ? rc : place_events(job, &x);
    rc = rc ? rc : sort_row_ends(job, x.unsorted);
    rc = rc ? rc : prefix_sums(job);
    free(x.fill);
    free(x.rfill);
    free(x.last);
    free(x.unsorted);
    free(x.prev);
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
    const struct iodfg_selection *sel = iodfg_session_built_selection(tui_app_session(app));
    uint32_t nk = iodfg_eventlog_key_count(tui_app_log(app)),
             nc = iodfg_eventlog_case_count(tui_app_log(app));
    job->act = malloc(((size_t)nk + 1) * sizeof(uint32_t));
    job->case_on = malloc((size_t)nc + 1);
    if (!job->act || !job->case_on) {
        job_free(job);
        return NULL;
    }
    memcpy(job->act, iodfg_session_key_activities(tui_app_session(app)),
           (size_t)nk * sizeof(uint32_t));
    if (sel->case_on) {
        memcpy(job->case_on, sel->case_on, nc);
    } else {
        memset(job->case_on, 1, nc);
    }
    // one time axis holds the cases of one clock: the most used one
    uint32_t n[IODFG_CLOCK__N];
    iodfg_eventlog_clocks(tui_app_log(app), job->case_on, n);
    job->out.clock = iodfg_clock_majority(n);
    job->out.clock_dropped =
        iodfg_eventlog_keep_clock(tui_app_log(app), job->case_on, job->out.clock);
    job->sel = *sel;
    job->sel.case_on = job->case_on;
    job->log = tui_app_log(app);
    job->all = all;
    job->ngroups = all ? 1 : iodfg_session_stats(tui_app_session(app))->nactivities;
    job->gen = tui_app_generation(app);
    return job;
}

/* Join the job and take its index when it belongs to the current generation; else (stale,
 * cancelled, failed) keep only its two big arrays for the next build. */
static void job_finish(struct tui_app *app)
{
    struct tui_timeline *tl = tui_app_timeline_state(app);
    struct tui_timeline_job *job = tl->job;
    if (job->threaded) {
        pthread_join(job->th, NULL);
        job->threaded = 0;
    }
    tl->job = NULL;
    struct tui_timeline *o = &job->out;
    if (job->rc == 0 && job->gen == tui_app_generation(app)) {
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
        tl->clock = o->clock;
        tl->clock_dropped = o->clock_dropped;
        tl->index_stamp = job->gen + 1;
        tl->index_ms = job->ms;
        tl->fit_stamp = 0;             // the cached fit grid belonged to the old index
        tl->activity = UINT32_MAX - 1; // no activity's rows until timeline_index picks them
        memset(o, 0, sizeof(*o));
    } else {
        if (job->rc < 0 && job->gen == tui_app_generation(app)) {
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
    if (iodfg_eventlog_event_count(tui_app_log(app)) >= min) {
        job->threaded = tui_bgthread_start(&job->th, job_run, job) == 0;
    }
    if (job->threaded) {
        return 1;
    }
    job_run(job); // a small log, or no thread: here (the UI waits this once)
    job_finish(app);
    return tl->index_stamp == tui_app_generation(app) + 1 ? 0 : -1;
}

int tui_app_timeline_poll(struct tui_app *app)
{
    struct tui_timeline_job *job = tui_app_timeline_state(app)->job;
    if (!job) {
        return 0;
    }
    if (job->gen != tui_app_generation(app)) {
        atomic_store(&job->cancel, 1); // stale: stop soon
    }
    if (!atomic_load(&job->done)) {
        return 0;
    }
    job_finish(app);
    return 1;
}

int tui_app_timeline_busy(struct tui_app *app)
{
    return tui_app_timeline_state(app)->job != NULL;
}

void tui_app_timeline_wait(struct tui_app *app)
{
    if (tui_app_timeline_state(app)->job) {
        job_finish(app); // joins the thread
    }
}

int tui_app_timeline_progress(struct tui_app *app, uint64_t *events)
{
    struct tui_timeline_job *job = tui_app_timeline_state(app)->job;
    *events = job ? atomic_load(&job->nev) : 0;
    return job ? atomic_load_explicit(&job->permille, memory_order_relaxed) : -1;
}

/* Make the index current and point the rows at activity a's (a new row_off from 0). 0, 1 while
 * the index is built in the background, -1 when out of memory. */
int tui_timeline_index(struct tui_app *app, struct tui_timeline *tl, uint32_t a)
{
    int all = a == UINT32_MAX;
    uint64_t want = tui_app_generation(app) + 1;
    if ((tl->index_stamp != want || tl->all_index != all) && tl->job) {
        struct tui_timeline_job *job = tl->job;
        if (!atomic_load(&job->done)) {
            if (job->gen != tui_app_generation(app) || job->all != all) {
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
