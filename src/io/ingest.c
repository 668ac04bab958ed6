/* SPDX-License-Identifier: MIT */
/* Parallel ingest of strace files: workers parse whole files, the caller receives them in order.
 * OTF2 archives are guarded (a forked child loads each anchor) before any worker starts. */
#include "config.h"

#include "iodfg/ingest.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include "iodfg/casename.h"
#include "iodfg/cpus.h"
#include "iodfg/csvlog.h"
#include "iodfg/error.h"
#include "iodfg/eventlog.h"
#include "iodfg/forkjoin.h"
#include "iodfg/mounts.h"
#include "iodfg/otf2.h"
#include "iodfg/strpool.h"

#include "otf2_guard.h"
#include "readfile.h"

/* ---- one file ------------------------------------------------------------ */

static uint32_t intern(struct iodfg_eventlog *log, const char *s)
{
    uint32_t id = IODFG_STR_EMPTY;
    if (iodfg_strpool_intern(iodfg_eventlog_pool(log), s, strlen(s), &id)) {
        return UINT32_MAX;
    }
    return id;
}

struct tick_ctx {
    _Atomic uint64_t *done;
};

static void tick(void *ctx, uint64_t bytes)
{
    struct tick_ctx *t = ctx;
    if (t->done) {
        atomic_fetch_add(t->done, bytes);
    }
}

static int is_archive(const char *path)
{
    return iodfg_otf2_is_anchor(path) && !iodfg_csvlog_is_csv(path);
}

// A file read whole (or refused) counts with all its bytes.
static void add_size(_Atomic uint64_t *done, const char *path)
{
    struct stat st;
    if (done && stat(path, &st) == 0) {
        atomic_fetch_add(done, (uint64_t)st.st_size);
    }
}

/* An OTF2 archive (one case per location, iodfg/otf2.h; guarded: the guard passed it already) or
 * a CSV event log (one case per case name, iodfg/csvlog.h), classified like a strace file. */
static struct iodfg_eventlog *read_multi(const char *path, unsigned columns,
                                         const struct iodfg_ingest_opts *o, int guarded,
                                         struct iodfg_ingest_file *info, _Atomic uint64_t *done,
                                         struct iodfg_error *err)
{
    const struct iodfg_mounts *mounts = o->mounts;
    info->path = path;
    info->named_by_pattern = iodfg_csvlog_is_csv(path); // cases named by the case column
    struct iodfg_eventlog *log;
    if (iodfg_csvlog_is_csv(path)) {
        log = iodfg_csvlog_read(path, o->csv, columns, &info->result, err);
    } else if (guarded) {
        log = iodfg_otf2_read_unguarded(path, columns, &info->result, err);
    } else {
        log = iodfg_otf2_read(path, columns, &info->result, err);
    }
    if (log && mounts && iodfg_mounts_classify(mounts, log, err)) {
        iodfg_error_at(err, path, 0, 0);
        iodfg_eventlog_free(log);
        log = NULL;
    }
    add_size(done, path);
    return log;
}

/* Parse one file into spare (an emptied log of an earlier file, whose pages are already
 * faulted in; taken over) or a new log. guarded: an OTF2 archive passed iodfg_otf2_guard. */
static struct iodfg_eventlog *parse_file(const struct iodfg_input *in,
                                         const struct iodfg_ingest_opts *o, int guarded,
                                         struct iodfg_ingest_file *info, _Atomic uint64_t *done,
                                         struct iodfg_eventlog *spare, struct iodfg_error *err)
{
    unsigned columns = o->columns;
    const char *path = in->path;
    const struct iodfg_casename *names = o->names;
    const struct iodfg_mounts *mounts = o->mounts;
    if (iodfg_otf2_is_anchor(path) || iodfg_csvlog_is_csv(path)) {
        iodfg_eventlog_free(spare);
        return read_multi(path, columns, o, guarded, info, done, err);
    }
    int fd;
    uint64_t size;
    if (readfile_open_fd(path, &fd, &size, err)) {
        iodfg_eventlog_free(spare);
        return NULL;
    }
    struct iodfg_eventlog *log = spare;
    if (log) {
        iodfg_eventlog_clear(log);
    } else {
        log = iodfg_eventlog_new(columns);
    }
    if (!log) {
        close(fd);
        iodfg_error_set(err, IODFG_E_NOMEM, NULL);
        return NULL;
    }
    char cid[1024], host[1024], rid[1024];
    info->path = path;
    info->named_by_pattern = iodfg_casename_apply(names, in->rel, cid, host, rid, sizeof(cid));
    if (!info->named_by_pattern) {
        snprintf(cid, sizeof(cid), "%s", in->name);
    }
    struct iodfg_case_info ci;
    memset(&ci, 0, sizeof(ci));
    ci.name = intern(log, in->name);
    ci.cid = intern(log, cid);
    ci.host = intern(log, host);
    ci.rid = intern(log, rid);
    ci.source = intern(log, path);
    ci.naming = info->named_by_pattern ? IODFG_NAMING_PATTERN : IODFG_NAMING_FILENAME;
    int rc = -1;
    // strace lines are rarely shorter than 60 bytes: reserve once instead of doubling.
    if (ci.name != UINT32_MAX && ci.cid != UINT32_MAX && ci.host != UINT32_MAX &&
        ci.rid != UINT32_MAX && ci.source != UINT32_MAX &&
        iodfg_eventlog_reserve_case(log, size / 60 + 16, err) == 0 &&
        iodfg_eventlog_begin_case(log, &ci, err) == 0) {
        struct tick_ctx t = {done};
        // Read in blocks rather than mapped: faulting in a mapping page by page costs more
        // than copying the blocks, and memory stays at a block plus the unfinished calls.
        rc = iodfg_strace_parse_fd_frames(fd, iodfg_strace_sink_eventlog,
                                          iodfg_strace_frame_eventlog, log, tick, &t,
                                          &info->result, err);
        struct iodfg_case_info *open = iodfg_eventlog_open_case(log);
        open->clock = info->result.clock;
        open->lines = info->result.lines;
        open->bytes = info->result.bytes;
        memcpy(open->counts, info->result.counts, sizeof(open->counts));
        if (iodfg_eventlog_end_case(log, err)) {
            rc = -1;
        }
        if (rc == 0 && mounts && iodfg_mounts_classify(mounts, log, err)) {
            rc = -1;
        }
    } else if (err && err->code == IODFG_OK) {
        iodfg_error_set(err, IODFG_E_NOMEM, NULL);
    }
    close(fd);
    if (rc) {
        iodfg_error_at(err, path, 0, 0);
        iodfg_eventlog_free(log);
        return NULL;
    }
    return log;
}

struct iodfg_eventlog *iodfg_ingest_file(const struct iodfg_input *in,
                                         const struct iodfg_casename *names, unsigned columns,
                                         struct iodfg_ingest_file *info, struct iodfg_error *err)
{
    memset(info, 0, sizeof(*info));
    struct iodfg_ingest_opts o = {.names = names, .columns = columns};
    return parse_file(in, &o, 0, info, NULL, NULL, err);
}

/* ---- the worker pool ----------------------------------------------------- */

struct slot {
    struct iodfg_eventlog *log;
    struct iodfg_ingest_file info;
    struct iodfg_error err;
    int guard; // an OTF2 archive: 1 passed the guard, -1 refused (err says why); else 0
    int done;
};

struct pool {
    const struct iodfg_input *files;
    size_t count;
    const struct iodfg_ingest_opts *opts;
    struct slot *slots;
    size_t next;      // next file a worker takes
    size_t delivered; // files handed to the sink so far
    size_t window;    // how far workers may run ahead of the sink (jobs + 1: every log more
                      // is fresh memory, whose first touch costs more than parsing)
    // Logs the sink is done with, emptied and reused by the next files: fresh memory for
    // every file cost more in page faults than parsing it.
    struct iodfg_eventlog **spares;
    size_t nspares, spares_cap;
    int stop;
    pthread_mutex_t mu;
    pthread_cond_t cv;
    _Atomic uint64_t bytes_done;
};

static void *worker(void *arg)
{
    struct pool *p = arg;
    pthread_mutex_lock(&p->mu);
    for (;;) {
        while (!p->stop && p->next < p->count && p->next >= p->delivered + p->window) {
            pthread_cond_wait(&p->cv, &p->mu);
        }
        if (p->stop || p->next >= p->count) {
            break;
        }
        size_t i = p->next++;
        struct iodfg_eventlog *spare = p->nspares ? p->spares[--p->nspares] : NULL;
        pthread_mutex_unlock(&p->mu);
        struct slot *s = &p->slots[i];
        s->info.index = i;
        if (s->guard < 0) { // refused before the workers started: its error is in s->err
            iodfg_eventlog_free(spare);
            add_size(&p->bytes_done, p->files[i].path);
        } else {
            iodfg_error_clear(&s->err);
            s->log = parse_file(&p->files[i], p->opts, s->guard > 0, &s->info, &p->bytes_done,
                                spare, &s->err);
        }
        pthread_mutex_lock(&p->mu);
        s->done = 1;
        pthread_cond_broadcast(&p->cv);
    }
    pthread_mutex_unlock(&p->mu);
    return NULL;
}

/* The guard forks, and its child allocates: forked while another thread holds an allocator
 * lock (the sanitizers' allocator has no fork handler), the child would wait for that lock until
 * the guard's wall-clock limit. So every archive is guarded here, before the workers start; a
 * refused one stops the ingest only when its turn comes, as its reading would have. */
static void guard_archives(struct pool *p)
{
    for (size_t i = 0; i < p->count; i++) {
        struct slot *s = &p->slots[i];
        if (is_archive(p->files[i].path)) {
            iodfg_error_clear(&s->err);
            s->guard = iodfg_otf2_guard(p->files[i].path, &s->err) ? -1 : 1;
        }
    }
}

static unsigned default_jobs(void)
{
    return iodfg_cpu_count();
}

static uint64_t total_bytes(const struct iodfg_input *files, size_t count)
{
    uint64_t total = 0;
    for (size_t i = 0; i < count; i++) {
        struct stat st;
        if (stat(files[i].path, &st) == 0 && S_ISREG(st.st_mode)) {
            total += (uint64_t)st.st_size;
        }
    }
    return total;
}

static void report(struct pool *p, uint64_t total)
{
    if (p->opts->progress) {
        p->opts->progress(p->opts->progress_ctx, atomic_load(&p->bytes_done), total);
    }
}

// Wait (on the caller's thread) for slot i, reporting progress about five times a second.
static void wait_slot(struct pool *p, size_t i, uint64_t total)
{
    pthread_mutex_lock(&p->mu);
    while (!p->slots[i].done) {
        struct timespec ts;
        clock_gettime(CLOCK_REALTIME, &ts);
        ts.tv_nsec += 200000000L;
        if (ts.tv_nsec >= 1000000000L) {
            ts.tv_sec++;
            ts.tv_nsec -= 1000000000L;
        }
        pthread_cond_timedwait(&p->cv, &p->mu, &ts);
        pthread_mutex_unlock(&p->mu);
        report(p, total);
        pthread_mutex_lock(&p->mu);
    }
    pthread_mutex_unlock(&p->mu);
}

int iodfg_ingest_run(const struct iodfg_input_list *list, const struct iodfg_ingest_opts *opts,
                     iodfg_case_fn sink, void *ctx, struct iodfg_error *err)
{
    const struct iodfg_input *files = list->files;
    size_t count = list->n;
    unsigned jobs = opts->jobs ? opts->jobs : default_jobs();
    if (jobs > count) {
        jobs = count ? (unsigned)count : 1;
    }
    struct pool p = {.files = files, .count = count, .opts = opts, .window = (size_t)jobs + 1};
    p.slots = calloc(count ? count : 1, sizeof(*p.slots));
    pthread_t *threads = calloc(jobs, sizeof(*threads));
    p.spares_cap = p.window + jobs;
    p.spares = calloc(p.spares_cap, sizeof(*p.spares));
    if (!p.slots || !threads || !p.spares) {
        free(p.slots);
        free(threads);
        free(p.spares);
        return iodfg_error_set(err, IODFG_E_NOMEM, NULL);
    }
    pthread_mutex_init(&p.mu, NULL);
    pthread_cond_init(&p.cv, NULL);
    atomic_init(&p.bytes_done, 0);
    uint64_t total = total_bytes(files, count);
    guard_archives(&p);
    unsigned started = iodfg_workers_start(threads, jobs, worker, &p);
    int rc = 0;
    if (started == 0) {
        rc = iodfg_error_set(err, IODFG_E_LIMIT, "cannot start worker threads");
    }
    for (size_t i = 0; rc == 0 && i < count; i++) {
        wait_slot(&p, i, total);
        struct slot *s = &p.slots[i];
        if (!s->log) {
            if (err) {
                *err = s->err;
            }
            rc = -1;
        } else {
            rc = sink(ctx, s->log, &s->info, err);
        }
        pthread_mutex_lock(&p.mu);
        if (s->log && p.nspares < p.spares_cap) {
            p.spares[p.nspares++] = s->log;
        } else {
            iodfg_eventlog_free(s->log);
        }
        s->log = NULL;
        p.delivered = i + 1;
        pthread_cond_broadcast(&p.cv);
        pthread_mutex_unlock(&p.mu);
    }
    pthread_mutex_lock(&p.mu);
    p.stop = 1;
    pthread_cond_broadcast(&p.cv);
    pthread_mutex_unlock(&p.mu);
    iodfg_workers_join(threads, started);
    if (rc == 0) {
        report(&p, total);
    }
    for (size_t i = 0; i < count; i++) {
        iodfg_eventlog_free(p.slots[i].log);
    }
    for (size_t i = 0; i < p.nspares; i++) {
        iodfg_eventlog_free(p.spares[i]);
    }
    free(p.spares);
    pthread_cond_destroy(&p.cv);
    pthread_mutex_destroy(&p.mu);
    free(p.slots);
    free(threads);
    return rc;
}
