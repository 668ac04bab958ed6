/* SPDX-License-Identifier: MIT */
/* The Offsets view's background build: on a log of TUI_OFFSETS_ASYNC_EVENTS events or more the
 * offset map is built on a thread of lower priority (bgthread.h) over private copies of what a
 * rebuild may change (the activity of every key, the selection's case mask, the groups, the
 * focus; the event log never changes), so that the keys stay live; the UI thread installs a
 * finished map whole when it is still the one wanted, and drops a stale one. */
#include "config.h"

#include <pthread.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "iodfg/error.h"
#include "iodfg/eventlog.h"
#include "iodfg/mapping.h"

#include "tui/app.h"
#include "tui/bgthread.h"
#include "tui/views/offsets/offsets_view.h"

struct tui_offsets_job {
    pthread_t th;
    int threaded; /* th runs and is not joined yet */
    atomic_int done;
    uint64_t gen; /* the app's generation + 1 it builds for */
    uint32_t path;
    struct iodfg_picture_input in; /* over the copies below */
    struct iodfg_mapping map;      /* its activity_of_key only (names are not read) */
    struct iodfg_selection sel;
    uint8_t *case_on, *group[2], *act_on;
    struct iodfg_offsetmap om;
    struct iodfg_error err;
    int rc;
    double ms, cpu_ms; /* the build's wall and processor time */
};

static double clock_ms(clockid_t id)
{
    struct timespec ts;
    clock_gettime(id, &ts);
    return (double)ts.tv_sec * 1e3 + (double)ts.tv_nsec / 1e6;
}

static void *dup_bytes(const void *p, size_t n, int *failed)
{
    if (!p) {
        return NULL;
    }
    void *q = malloc(n ? n : 1);
    if (!q) {
        *failed = 1;
        return NULL;
    }
    return memcpy(q, p, n);
}

static void job_free(struct tui_offsets_job *j)
{
    if (!j) {
        return;
    }
    iodfg_offsetmap_fini(&j->om);
    free(j->map.activity_of_key);
    free(j->case_on);
    free(j->group[0]);
    free(j->group[1]);
    free(j->act_on);
    free(j);
}

/* The job's input: copies of what the session may change while it runs. */
static int copy_input(struct tui_offsets_job *j, const struct iodfg_picture_input *in)
{
    uint32_t nc = iodfg_eventlog_case_count(in->log);
    int failed = 0;
    j->map = *in->map;
    j->map.names = NULL;
    j->map.name_of = NULL;
    j->map.activity_of_key =
        dup_bytes(in->map->activity_of_key, (size_t)in->map->nkeys * sizeof(uint32_t), &failed);
    j->sel = *in->sel;
    j->case_on = dup_bytes(in->sel->case_on, nc, &failed);
    j->sel.case_on = j->case_on;
    j->group[0] = dup_bytes(in->group[0], nc, &failed);
    j->group[1] = dup_bytes(in->group[1], nc, &failed);
    j->act_on = dup_bytes(in->act_on, in->map->nactivities, &failed);
    j->in = (struct iodfg_picture_input){
        in->log, &j->map, &j->sel, j->act_on, {j->group[0], j->group[1]}, NULL};
    return failed ? -1 : 0;
}

static void *job_run(void *arg)
{
    struct tui_offsets_job *j = arg;
    double t0 = clock_ms(CLOCK_MONOTONIC), c0 = clock_ms(CLOCK_THREAD_CPUTIME_ID);
    j->rc = iodfg_offsetmap_build(&j->om, &j->in, j->path, &j->err);
    j->ms = clock_ms(CLOCK_MONOTONIC) - t0;
    j->cpu_ms = clock_ms(CLOCK_THREAD_CPUTIME_ID) - c0;
    atomic_store(&j->done, 1);
    return NULL;
}

int tui_offsets_job_start(struct tui_app *app, struct tui_offsets_view *ov,
                          const struct iodfg_picture_input *in, uint32_t path)
{
    struct tui_offsets_job *j = calloc(1, sizeof(*j));
    if (!j) {
        return -1;
    }
    atomic_init(&j->done, 0);
    j->gen = tui_app_generation(app) + 1;
    j->path = path;
    iodfg_error_clear(&j->err);
    j->om = ov->om; // its points' memory is reused by the build
    iodfg_offsetmap_init(&ov->om);
    ov->built = 0;
    if (copy_input(j, in)) {
        job_free(j);
        return -1;
    }
    ov->job = j;
    j->threaded = tui_bgthread_start(&j->th, job_run, j) == 0;
    if (!j->threaded) {
        job_run(j); // no thread: at once, installed by the next poll
    }
    return 0;
}

int tui_offsets_job_busy(const struct tui_offsets_view *ov, uint64_t gen, uint32_t path)
{
    const struct tui_offsets_job *j = ov->job;
    return j && j->gen == gen && j->path == path;
}

uint32_t tui_offsets_job_path(const struct tui_offsets_view *ov)
{
    return ov->job ? ov->job->path : UINT32_MAX;
}

int tui_offsets_job_poll(struct tui_app *app, struct tui_offsets_view *ov)
{
    struct tui_offsets_job *j = ov->job;
    if (!j || !atomic_load(&j->done)) {
        return 0;
    }
    if (j->threaded) {
        pthread_join(j->th, NULL);
    }
    ov->job = NULL;
    if (j->gen == tui_app_generation(app) + 1 && j->rc == 0) { // still the selection's
        struct iodfg_offsetmap old = ov->om;
        ov->om = j->om;
        j->om = old;
        ov->built = j->gen;
        ov->serial++;
        ov->build_ms = j->ms;
        ov->build_cpu_ms = j->cpu_ms;
        ov->cursor = ov->cursor < ov->om.ncases ? ov->cursor : 0;
    } else if (j->rc) {
        iodfg_error_format(&j->err, ov->error, sizeof(ov->error));
        ov->failed = j->gen;
        ov->failed_path = j->path;
    }
    job_free(j);
    return 1;
}

void tui_offsets_job_stop(struct tui_offsets_view *ov)
{
    struct tui_offsets_job *j = ov->job;
    if (j && j->threaded) {
        pthread_join(j->th, NULL); // the build has no cancel: it reads the log until it ends
    }
    job_free(j);
    ov->job = NULL;
}
