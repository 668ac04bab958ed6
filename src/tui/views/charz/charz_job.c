/* SPDX-License-Identifier: MIT */
/* Characterisation view model: the computation on a background thread (over private copies of
 * the mapping and the case masks, so rebuilds never race it), and its parameters. */
#include "config.h"

#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "iodfg/cancel.h"
#include "iodfg/error.h"
#include "iodfg/eventlog.h"
#include "iodfg/mapping.h"
#include "iodfg/session.h"
#include "iodfg/timeline.h"

#include "tui/app.h"
#include "tui/bgthread.h"
#include "tui/views/charz/charz.h"

#define ALIGNMENT 4096
#define MAX_BINS 100000

static const double thresholds[TUI_CHARZ_NTHRESHOLDS] = {
    0,         1024,      4096,       16384,      65536,       262144,
    1048576.0, 4194304.0, 16777216.0, 67108864.0, 268435456.0, 1073741824.0};

struct tui_charz_job {
    pthread_t th;
    int threaded; /* th runs job_run and is not joined yet */
    atomic_int done;
    struct iodfg_cancel cancel; /* set when a rebuild makes the result stale */
    const struct iodfg_eventlog *log;
    struct iodfg_mapping map; /* activity_of_key copied; no names */
    uint8_t *mask[2];
    struct iodfg_selection sel[2];
    int ngroups;
    uint32_t ncases[2];
    enum iodfg_clock clock; /* the cases' clock (the most used when they differ) */
    uint32_t clock_dropped; /* cases of other clocks left out: bins cannot mix clocks */
    struct iodfg_bin_opts opts;
    int access;
    const struct iodfg_timeline *tl; /* the analysis's, read-only and alive as long as the app */
    struct iodfg_characterization res[2];
    struct iodfg_error err;
    int rc;
    uint64_t gen, seq;
    double ms;
};

static double now_ms(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec * 1e3 + (double)ts.tv_nsec / 1e6;
}

void tui_charz_init(struct tui_charz *cz)
{
    memset(cz, 0, sizeof(*cz));
    iodfg_characterization_init(&cz->res[0]);
    iodfg_characterization_init(&cz->res[1]);
}

static void job_free(struct tui_charz_job *j)
{
    if (!j) {
        return;
    }
    free(j->map.activity_of_key);
    free(j->mask[0]);
    free(j->mask[1]);
    iodfg_characterization_fini(&j->res[0]);
    iodfg_characterization_fini(&j->res[1]);
    free(j);
}

void tui_charz_fini(struct tui_charz *cz)
{
    if (cz->job) {
        if (cz->job->threaded) {
            pthread_join(cz->job->th, NULL);
        }
        job_free(cz->job);
        cz->job = NULL;
    }
    iodfg_characterization_fini(&cz->res[0]);
    iodfg_characterization_fini(&cz->res[1]);
}

/* Everything but access patterns, for a log without the offset/fd/pid columns. */
static int compute_partial(struct iodfg_characterization *ch, const struct tui_charz_job *j,
                           const struct iodfg_selection *sel, const struct iodfg_timeline *tl,
                           struct iodfg_error *err)
{
    iodfg_characterization_fini(ch);
    if (iodfg_binned_build(&ch->bins, j->log, &j->map, sel, &j->opts, &j->cancel, err) ||
        iodfg_bandwidth_build(&ch->bw, j->log, &j->map, sel, err) ||
        iodfg_serial_build(&ch->serial, j->log, &j->map, sel, tl, &j->cancel, err)) {
        iodfg_characterization_fini(ch);
        return -1;
    }
    return 0;
}

static void *job_run(void *arg)
{
    struct tui_charz_job *j = arg;
    double t0 = now_ms();
    const struct iodfg_timeline *tl = j->tl;
    j->rc = 0;
    for (int g = 0; g < j->ngroups && j->rc == 0; g++) {
        j->rc = j->access ? iodfg_characterize(&j->res[g], j->log, &j->map, &j->sel[g], &j->opts,
                                               ALIGNMENT, tl, 2, &j->cancel, &j->err)
                          : compute_partial(&j->res[g], j, &j->sel[g], tl, &j->err);
    }
    // G and R on one Δt (the wider of their automatic ones) so the charts compare
    int64_t dt0 = j->res[0].bins.dt_ns, dt1 = j->res[1].bins.dt_ns;
    if (j->rc == 0 && j->ngroups == 2 && j->opts.dt_ns <= 0 && dt0 != dt1) {
        int g = dt0 < dt1 ? 0 : 1;
        struct iodfg_bin_opts o = j->opts;
        o.dt_ns = dt0 > dt1 ? dt0 : dt1;
        j->rc = iodfg_binned_build(&j->res[g].bins, j->log, &j->map, &j->sel[g], &o, &j->cancel,
                                   &j->err);
    }
    j->ms = now_ms() - t0;
    atomic_store(&j->done, 1);
    return NULL;
}

/* Time bins cannot mix clocks: keep the cases of the clock most of them use, and count the
 * others (the page says so). */
static void one_clock(struct tui_charz_job *j)
{
    uint32_t n[IODFG_CLOCK__N], all[IODFG_CLOCK__N] = {0};
    for (int g = 0; g < j->ngroups; g++) {
        iodfg_eventlog_clocks(j->log, j->mask[g], n);
        for (int k = 0; k < IODFG_CLOCK__N; k++) {
            all[k] += n[k];
        }
    }
    j->clock = iodfg_clock_majority(all);
    for (int g = 0; g < j->ngroups; g++) {
        uint32_t cut = iodfg_eventlog_keep_clock(j->log, j->mask[g], j->clock);
        j->ncases[g] -= cut;
        j->clock_dropped += cut;
    }
}

/* A job over copies of what a rebuild may change under it. NULL when out of memory. */
static struct tui_charz_job *job_new(struct tui_app *app)
{
    struct tui_charz *cz = tui_app_charz(app);
    const struct iodfg_session *ses = tui_app_session(app);
    const struct iodfg_mapping *map = iodfg_session_mapping(ses);
    struct tui_charz_job *j = calloc(1, sizeof(*j));
    if (!j) {
        return NULL;
    }
    iodfg_characterization_init(&j->res[0]);
    iodfg_characterization_init(&j->res[1]);
    iodfg_error_clear(&j->err);
    iodfg_cancel_init(&j->cancel);
    j->log = tui_app_log(app);
    j->map.nkeys = map->nkeys;
    j->map.nactivities = map->nactivities;
    j->map.activity_of_key = malloc(((size_t)map->nkeys + 1) * sizeof(uint32_t));
    uint32_t nc = iodfg_eventlog_case_count(tui_app_log(app));
    j->ngroups = iodfg_session_diff(ses) ? 2 : 1;
    for (int g = 0; g < j->ngroups; g++) {
        j->mask[g] = calloc((size_t)nc + 1, 1);
    }
    if (!j->map.activity_of_key || !j->mask[0] || (j->ngroups == 2 && !j->mask[1])) {
        job_free(j);
        return NULL;
    }
    memcpy(j->map.activity_of_key, map->activity_of_key, map->nkeys * sizeof(uint32_t));
    const struct iodfg_selection *base = iodfg_session_built_selection(ses);
    for (int g = 0; g < j->ngroups; g++) {
        const uint8_t *grp = j->ngroups == 2
                                 ? iodfg_session_group_mask(ses, g ? IODFG_GROUP_R : IODFG_GROUP_G)
                                 : NULL;
        for (uint32_t c = 0; c < nc; c++) {
            j->mask[g][c] = (!base->case_on || base->case_on[c]) && (!grp || grp[c]);
            j->ncases[g] += j->mask[g][c];
        }
        j->sel[g] = *base;
        j->sel[g].case_on = j->mask[g];
    }
    one_clock(j);
    j->opts.dt_ns = cz->dt_ns;
    j->opts.threshold = tui_charz_threshold(cz);
    j->opts.by = cz->by;
    unsigned need = IODFG_COL_OFFSET | IODFG_COL_FD | IODFG_COL_PID;
    j->access = (iodfg_eventlog_column_mask(tui_app_log(app)) & need) == need;
    j->tl = iodfg_session_timeline(ses);
    j->gen = tui_app_generation(app);
    j->seq = cz->param_seq;
    return j;
}

static void install(struct tui_charz *cz)
{
    struct tui_charz_job *j = cz->job;
    if (j->threaded) {
        pthread_join(j->th, NULL);
        j->threaded = 0;
    }
    cz->job = NULL;
    if (j->rc && j->err.code == IODFG_E_CANCELLED) {
        job_free(j); // stale: the next update starts a job for the current inputs
        return;
    }
    cz->res_gen = j->gen;
    cz->res_seq = j->seq;
    cz->compute_ms = j->ms;
    if (j->rc) {
        char msg[300];
        snprintf(cz->error, sizeof(cz->error), "%s", iodfg_error_format(&j->err, msg, sizeof(msg)));
        job_free(j);
        return;
    }
    cz->error[0] = '\0';
    for (int g = 0; g < 2; g++) {
        iodfg_characterization_fini(&cz->res[g]);
        cz->res[g] = j->res[g];
        iodfg_characterization_init(&j->res[g]);
        cz->ncases[g] = j->ncases[g];
    }
    cz->ngroups = j->ngroups;
    cz->access_ok = j->access;
    cz->clock = j->clock;
    cz->clock_dropped = j->clock_dropped;
    cz->have = 1;
    double c = tui_charz_threshold(cz);
    if (c != j->opts.threshold) { // changed while the job ran
        for (int g = 0; g < cz->ngroups; g++) {
            iodfg_binned_finish(&cz->res[g].bins, c);
        }
    }
    job_free(j);
}

int tui_app_charz_poll(struct tui_app *app)
{
    struct tui_charz *cz = tui_app_charz(app);
    if (cz->job && atomic_load(&cz->job->done)) {
        install(cz);
        return 1;
    }
    return 0;
}

int tui_app_charz_update(struct tui_app *app)
{
    struct tui_charz *cz = tui_app_charz(app);
    int installed = tui_app_charz_poll(app);
    if (cz->job && (cz->job->gen != tui_app_generation(app) || cz->job->seq != cz->param_seq)) {
        iodfg_cancel_request(&cz->job->cancel); // computed for inputs that are gone
    }
    int stale = cz->res_gen != tui_app_generation(app) || cz->res_seq != cz->param_seq ||
                (!cz->have && !cz->error[0]);
    if (!cz->job && stale) {
        struct tui_charz_job *j = job_new(app);
        if (!j) {
            snprintf(cz->error, sizeof(cz->error), "out of memory");
            cz->res_gen = tui_app_generation(app);
            cz->res_seq = cz->param_seq;
            return installed;
        }
        cz->job = j;
        j->threaded = tui_bgthread_start(&j->th, job_run, j) == 0;
        if (!j->threaded) { // no thread: compute here (the UI waits this once)
            job_run(j);
            install(cz);
            return 1;
        }
    }
    return installed;
}

void tui_app_charz_cancel(struct tui_app *app)
{
    struct tui_charz *cz = tui_app_charz(app);
    if (cz->job) {
        iodfg_cancel_request(&cz->job->cancel);
    }
}

void tui_app_charz_wait(struct tui_app *app)
{
    struct tui_charz *cz = tui_app_charz(app);
    if (cz->job) {
        install(cz); // joins the thread
    }
}

int tui_app_charz_busy(struct tui_app *app)
{
    return tui_app_charz(app)->job != NULL;
}

/* ---- parameters ---- */

double tui_charz_threshold(const struct tui_charz *cz)
{
    int i = cz->threshold_idx;
    return thresholds[i < 0 ? 0 : i >= TUI_CHARZ_NTHRESHOLDS ? TUI_CHARZ_NTHRESHOLDS - 1 : i];
}

int tui_charz_threshold_index(double c)
{
    for (int i = 0; i < TUI_CHARZ_NTHRESHOLDS; i++) {
        if (thresholds[i] == c) {
            return i;
        }
    }
    return -1;
}

void tui_charz_set_params(struct tui_charz *cz, int64_t dt_ns, enum iodfg_server_by by,
                          int threshold_idx)
{
    if (dt_ns != cz->dt_ns || by != cz->by) {
        cz->dt_ns = dt_ns;
        cz->by = by;
        cz->param_seq++;
    }
    if (threshold_idx >= 0 && threshold_idx < TUI_CHARZ_NTHRESHOLDS &&
        threshold_idx != cz->threshold_idx) {
        cz->threshold_idx = threshold_idx;
        for (int g = 0; cz->have && g < cz->ngroups; g++) {
            iodfg_binned_finish(&cz->res[g].bins, thresholds[threshold_idx]);
        }
    }
}

int tui_charz_threshold_step(struct tui_charz *cz, int dir)
{
    int i = cz->threshold_idx + (dir > 0 ? 1 : -1);
    if (i < 0 || i >= TUI_CHARZ_NTHRESHOLDS) {
        return -1;
    }
    cz->threshold_idx = i;
    for (int g = 0; cz->have && g < cz->ngroups; g++) {
        iodfg_binned_finish(&cz->res[g].bins, thresholds[i]);
    }
    return 0;
}

int64_t tui_charz_dt_step(int64_t dt_ns, int dir)
{
    static const int64_t mant[3] = {1, 2, 5};
    int64_t prev = 1000;
    for (int64_t p = 1000; p <= INT64_MAX / 50; p *= 10) {
        for (int m = 0; m < 3; m++) {
            int64_t v = p * mant[m];
            if (dir > 0 && v > dt_ns) {
                return v;
            }
            if (dir < 0 && v >= dt_ns) {
                return prev;
            }
            prev = v;
        }
    }
    return prev;
}

int tui_charz_zoom(struct tui_charz *cz, int dir)
{
    if (dir == 0) {
        if (cz->dt_ns == 0) {
            return -1;
        }
        cz->dt_ns = 0;
        cz->param_seq++;
        return 0;
    }
    if (!cz->have) {
        return -1;
    }
    const struct iodfg_binned *b = &cz->res[0].bins;
    // from the last request: keys pressed while a job runs add up
    int64_t cur = cz->dt_ns > 0 ? cz->dt_ns : b->dt_ns > 0 ? b->dt_ns : 1000;
    int64_t next = tui_charz_dt_step(cur, dir);
    int64_t span = b->span_ns > 0 ? b->span_ns : 1;
    if (next == cur || (dir < 0 && span / next >= MAX_BINS) || (dir > 0 && cur >= span)) {
        return -1;
    }
    cz->dt_ns = next;
    cz->param_seq++;
    return 0;
}

void tui_charz_next_server(struct tui_charz *cz)
{
    cz->by = cz->by == IODFG_BY_HOST   ? IODFG_BY_CASE
             : cz->by == IODFG_BY_CASE ? IODFG_BY_FILE
                                       : IODFG_BY_HOST;
    cz->param_seq++;
}
