/* SPDX-License-Identifier: MIT */
/* The event log of `make bench-scale`: N events in C cases (10,000 by default) written straight
 * into HDF5 through the store writer (include/iodfg/store.h), never through text.
 * Usage: bench_scale_log --events N [--cases C] [--seed S] [--batch EVENTS] -o OUT.h5 PROFILE.h5...
 * Each case replays one recorded case of the PROFILE logs (converted real strace traces), in
 * turn: from a random event of it on, its events (call, path, size, offset, duration, errno, fd)
 * with its gaps between starts, looping to its first event when it runs out. The logs' cases
 * start together (each profile log is moved to one origin, each case gets up to 1 ms of jitter),
 * as the ranks of one job. A path only one recorded case used (a file per process, a rank's
 * /dev/shm segment, /proc/PID) becomes the case's own (its last digits are the case number), so
 * that the keys grow with the cases as in a real job; shared paths stay shared. The mix of
 * calls, paths, sizes and durations is thus the recorded one. The writer keeps one chunk of rows
 * and its string and key tables: memory is that plus one batch of cases (--batch events, 4 M by
 * default). Progress goes to standard error, the summary to standard output. */
#include "config.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "iodfg/error.h"
#include "iodfg/eventlog.h"
#include "iodfg/store.h"
#include "iodfg/strpool.h"

#define ORIGIN_NS (10LL * 3600 * 1000000000) // 10:00:00, the time of day every profile starts at

/* One recorded case: rows [first, first + n) of its profile log. */
struct tcase {
    const struct profile *prof;
    uint64_t first, n;
    uint32_t cid;
    int clock;
};

/* One profile log and what the replay needs of it. */
struct profile {
    struct iodfg_eventlog *log;
    const struct iodfg_columns *col;
    const struct iodfg_key *keys;
    struct iodfg_strpool *pool;
    int64_t shift;      // added to its starts: its earliest start goes to ORIGIN_NS
    uint8_t *private_k; // per key: its path was used by one case only
    uint32_t *smap;     // its string id -> the batch's (UINT32_MAX: not there yet)
    uint32_t nstrings;
};

/* The state of the generation: the batch being built and the maps of its strings. */
struct gen {
    struct iodfg_eventlog *batch;
    struct profile *prof;
    int nprof;
    uint32_t *kmap; // profile key -> batch key of the current case
    uint32_t maxk;
    uint64_t rng;
    struct iodfg_error err;
};

static double now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

static void die(const char *what, const struct iodfg_error *err)
{
    char buf[600];
    fprintf(stderr, "bench_scale_log: %s: %s\n", what,
            err ? iodfg_error_format(err, buf, sizeof(buf)) : "out of memory");
    exit(1);
}

static uint64_t next(uint64_t *x)
{
    *x ^= *x << 13;
    *x ^= *x >> 7;
    *x ^= *x << 17;
    return *x;
}

static uint32_t intern(struct gen *g, const char *s, size_t len)
{
    uint32_t id;
    if (iodfg_strpool_intern(iodfg_eventlog_pool(g->batch), s, len, &id)) {
        die("string pool", NULL);
    }
    return id;
}

/* Mark the keys whose path (a file or another named object) only one case of the log used. */
static void find_private(struct profile *p)
{
    uint32_t nk = iodfg_eventlog_key_count(p->log), ns = iodfg_strpool_count(p->pool);
    uint32_t *owner = malloc((size_t)ns * sizeof(*owner));
    p->private_k = calloc(nk ? nk : 1, 1);
    if (!owner || !p->private_k) {
        die("profile", NULL);
    }
    memset(owner, 0xff, (size_t)ns * sizeof(*owner)); // UINT32_MAX: unused, UINT32_MAX-1: shared
    const uint64_t *off = iodfg_eventlog_case_offsets(p->log);
    for (uint32_t c = 0; c < iodfg_eventlog_case_count(p->log); c++) {
        for (uint64_t e = off[c]; e < off[c + 1]; e++) {
            uint32_t s = p->keys[p->col->key[e]].path;
            owner[s] = owner[s] == UINT32_MAX || owner[s] == c ? c : UINT32_MAX - 1;
        }
    }
    for (uint32_t k = 0; k < nk; k++) {
        uint32_t s = p->keys[k].path;
        p->private_k[k] = s != IODFG_STR_EMPTY && owner[s] < UINT32_MAX - 1;
    }
    free(owner);
}

/* Load a profile log and add its cases to the templates. */
static void add_profile(const char *path, struct profile *p, struct tcase **tc, uint32_t *ntc)
{
    struct iodfg_error err;
    iodfg_error_clear(&err);
    p->log = iodfg_store_load(path, IODFG_COL_ALL & ~IODFG_COL_HANDLE, NULL, NULL, &err);
    if (!p->log) {
        die(path, &err);
    }
    p->col = iodfg_eventlog_columns(p->log);
    p->keys = iodfg_eventlog_keys(p->log);
    p->pool = iodfg_eventlog_pool(p->log);
    p->shift = ORIGIN_NS - iodfg_eventlog_earliest_start(p->log);
    find_private(p);
    p->nstrings = iodfg_strpool_count(p->pool);
    p->smap = malloc((size_t)p->nstrings * sizeof(*p->smap));
    if (!p->smap) {
        die("profile", NULL);
    }
    memset(p->smap, 0xff, (size_t)p->nstrings * sizeof(*p->smap));
    const uint64_t *off = iodfg_eventlog_case_offsets(p->log);
    uint32_t nc = iodfg_eventlog_case_count(p->log);
    *tc = realloc(*tc, ((size_t)*ntc + nc) * sizeof(**tc));
    if (!*tc) {
        die("profile", NULL);
    }
    for (uint32_t c = 0; c < nc; c++) {
        if (off[c + 1] > off[c]) {
            const struct iodfg_case_info *ci = iodfg_eventlog_case(p->log, c);
            (*tc)[(*ntc)++] = (struct tcase){p, off[c], off[c + 1] - off[c], ci->cid, ci->clock};
        }
    }
}

/* The batch's id of profile string s. */
static uint32_t map_string(struct gen *g, const struct profile *p, uint32_t s)
{
    if (p->smap[s] == UINT32_MAX) {
        p->smap[s] = intern(g, iodfg_strpool_get(p->pool, s), iodfg_strpool_len(p->pool, s));
    }
    return p->smap[s];
}

/* A private path of case c: its last run of digits replaced by c (as wide), else ".c" appended. */
static uint32_t private_path(struct gen *g, const char *path, uint32_t c)
{
    char buf[4200];
    size_t len = strlen(path), end = len;
    while (end > 0 && (path[end - 1] < '0' || path[end - 1] > '9')) {
        end--;
    }
    size_t beg = end;
    while (beg > 0 && path[beg - 1] >= '0' && path[beg - 1] <= '9') {
        beg--;
    }
    int n = end > beg ? snprintf(buf, sizeof(buf), "%.*s%0*u%s", (int)beg, path, (int)(end - beg),
                                 c, path + end)
                      : snprintf(buf, sizeof(buf), "%s.%u", path, c);
    return intern(g, buf, n < (int)sizeof(buf) ? (size_t)n : sizeof(buf) - 1);
}

/* The batch's key of profile key k for case c. */
static uint32_t map_key(struct gen *g, const struct profile *p, uint32_t k, uint32_t c)
{
    if (g->kmap[k] != UINT32_MAX) {
        return g->kmap[k];
    }
    const struct iodfg_key *pk = &p->keys[k];
    uint32_t path = p->private_k[k] ? private_path(g, iodfg_strpool_get(p->pool, pk->path), c)
                                    : map_string(g, p, pk->path);
    if (iodfg_eventlog_key_layer(g->batch, map_string(g, p, pk->call), path,
                                 map_string(g, p, pk->layer), &g->kmap[k])) {
        die("keys", NULL);
    }
    if (pk->fs || pk->fstype || pk->scope > IODFG_SCOPE_UNKNOWN) {
        iodfg_eventlog_key_set_fs(g->batch, g->kmap[k], map_string(g, p, pk->fs),
                                  map_string(g, p, pk->fstype), (enum iodfg_scope)pk->scope);
    }
    return g->kmap[k];
}

/* Begin case c, a replay of t, in the batch. */
static void begin_case(struct gen *g, const struct tcase *t, uint32_t c, uint64_t nev)
{
    char name[256], host[32], rid[16];
    const char *cid = iodfg_strpool_get(t->prof->pool, t->cid);
    snprintf(host, sizeof(host), "node%04u", c / 48);
    snprintf(rid, sizeof(rid), "%u", c);
    snprintf(name, sizeof(name), "%s_%s_%s", cid, host, rid);
    struct iodfg_case_info info;
    memset(&info, 0, sizeof(info));
    info.name = intern(g, name, strlen(name));
    info.cid = map_string(g, t->prof, t->cid);
    info.host = intern(g, host, strlen(host));
    info.rid = intern(g, rid, strlen(rid));
    strcat(name, ".st");
    info.source = intern(g, name, strlen(name));
    info.naming = IODFG_NAMING_PATTERN;
    info.clock = (enum iodfg_clock)t->clock;
    info.lines = nev;
    info.counts[IODFG_COUNT_EVENTS] = nev;
    if (iodfg_eventlog_begin_case(g->batch, &info, &g->err)) {
        die("case", &g->err);
    }
    memset(g->kmap, 0xff, (size_t)g->maxk * sizeof(*g->kmap));
}

/* Case c of nev events: template t replayed from a random event on. */
static void make_case(struct gen *g, const struct tcase *t, uint32_t c, uint64_t nev)
{
    const struct profile *p = t->prof;
    const struct iodfg_columns *col = p->col;
    begin_case(g, t, c, nev);
    uint64_t j = next(&g->rng) % t->n, r0 = t->first;
    int64_t wrap = t->n > 1 ? col->start_ns[r0 + 1] - col->start_ns[r0] : 1000;
    int64_t at = col->start_ns[r0 + j] + p->shift + (int64_t)(next(&g->rng) % 1000000);
    int32_t pid0 = col->pid[r0];
    struct iodfg_event ev;
    for (uint64_t i = 0; i < nev; i++) {
        uint64_t e = r0 + j;
        ev.start_ns = at;
        ev.dur_ns = col->dur_ns[e];
        ev.size = col->size[e];
        ev.offset = col->offset[e];
        ev.req = col->req[e];
        ev.key = map_key(g, p, col->key[e], c);
        ev.err = col->err[e] ? map_string(g, p, col->err[e]) : IODFG_STR_EMPTY;
        ev.pid = (int32_t)(1000000 + c * 8 + (uint32_t)(col->pid[e] - pid0) % 8);
        ev.fd = col->fd[e];
        ev.handle = IODFG_NO_HANDLE;
        if (iodfg_eventlog_push(g->batch, &ev, i, &g->err)) {
            die("event", &g->err);
        }
        j = j + 1 < t->n ? j + 1 : 0;
        at += j ? col->start_ns[r0 + j] - col->start_ns[e] : wrap;
    }
    if (iodfg_eventlog_end_case(g->batch, &g->err)) {
        die("case", &g->err);
    }
}

static void flush(struct gen *g, struct iodfg_store_writer *w)
{
    if (iodfg_store_write_cases(w, g->batch, &g->err)) {
        iodfg_store_abort(w);
        die("write", &g->err);
    }
    iodfg_eventlog_clear(g->batch);
    for (int i = 0; i < g->nprof; i++) {
        memset(g->prof[i].smap, 0xff, (size_t)g->prof[i].nstrings * sizeof(uint32_t));
    }
}

static void progress(uint64_t done, uint64_t total, double t0, double *last)
{
    double t = now();
    if (t - *last < 5 && done < total) {
        return;
    }
    *last = t;
    double rate = done / (t - t0 + 1e-9);
    fprintf(stderr,
            "bench_scale_log: %" PRIu64 " of %" PRIu64 " events (%.0f%%), %.1f M/s, %.0f s to go\n",
            done, total, 100.0 * (double)done / (double)total, rate / 1e6,
            (double)(total - done) / (rate + 1e-9));
}

/* What the command line asks for, and the recorded cases it replays. */
struct opts {
    uint64_t events, batch_events, seed;
    uint32_t cases, ntc;
    const char *out;
    struct profile prof[16];
    int nprof;
    struct tcase *tc;
};

static int parse_args(int argc, char **argv, struct opts *o)
{
    for (int i = 1; i < argc; i++) {
        const char *v = i + 1 < argc ? argv[i + 1] : NULL;
        if (!strcmp(argv[i], "--events") && v) {
            o->events = strtoull(argv[++i], NULL, 10);
        } else if (!strcmp(argv[i], "--cases") && v) {
            o->cases = (uint32_t)strtoul(argv[++i], NULL, 10);
        } else if (!strcmp(argv[i], "--seed") && v) {
            o->seed = strtoull(argv[++i], NULL, 10) | 1;
        } else if (!strcmp(argv[i], "--batch") && v) {
            o->batch_events = strtoull(argv[++i], NULL, 10);
        } else if (!strcmp(argv[i], "-o") && v) {
            o->out = argv[++i];
        } else if (argv[i][0] != '-' && o->nprof < 16) {
            add_profile(argv[i], &o->prof[o->nprof++], &o->tc, &o->ntc);
        } else {
            fprintf(stderr, "usage: bench_scale_log --events N [--cases C] [--seed S] "
                            "[--batch EVENTS] -o OUT.h5 PROFILE.h5...\n");
            return -1;
        }
    }
    if (!o->out || !o->events || !o->cases || !o->ntc) {
        fprintf(stderr, "bench_scale_log: give --events, -o and a profile log with events\n");
        return -1;
    }
    return 0;
}

/* Write the log: the cases in turn, a batch at a time. */
static void generate(struct opts *o)
{
    struct gen g = {.rng = o->seed, .prof = o->prof, .nprof = o->nprof};
    iodfg_error_clear(&g.err);
    for (int i = 0; i < o->nprof; i++) {
        uint32_t k = iodfg_eventlog_key_count(o->prof[i].log);
        g.maxk = k > g.maxk ? k : g.maxk;
    }
    g.kmap = malloc(((size_t)g.maxk + 1) * sizeof(*g.kmap));
    g.batch = iodfg_eventlog_new(IODFG_COL_ALL & ~IODFG_COL_HANDLE);
    struct iodfg_store_writer *w = iodfg_store_create(o->out, 1, &g.err);
    if (!g.kmap || !g.batch || !w) {
        die(o->out, w ? NULL : &g.err);
    }
    double t0 = now(), last = t0;
    uint64_t done = 0, in_batch = 0;
    for (uint32_t c = 0; c < o->cases; c++) {
        uint64_t n = o->events / o->cases + (c < o->events % o->cases);
        make_case(&g, &o->tc[c % o->ntc], c, n);
        done += n;
        in_batch += n;
        if (in_batch >= o->batch_events) {
            flush(&g, w);
            in_batch = 0;
            progress(done, o->events, t0, &last);
        }
    }
    flush(&g, w);
    if (iodfg_store_commit(w, &g.err)) {
        die(o->out, &g.err);
    }
    printf("generated: %" PRIu64 " events in %u cases from %u recorded cases, %.1f s\n", done,
           o->cases, o->ntc, now() - t0);
    iodfg_eventlog_free(g.batch);
    free(g.kmap);
}

int main(int argc, char **argv)
{
    iodfg_store_process_init();
    struct opts o = {.batch_events = 4000000, .seed = 88172645463325252ULL, .cases = 10000};
    if (parse_args(argc, argv, &o)) {
        return 2;
    }
    generate(&o);
    for (int i = 0; i < o.nprof; i++) {
        iodfg_eventlog_free(o.prof[i].log);
        free(o.prof[i].private_k);
        free(o.prof[i].smap);
    }
    free(o.tc);
    return 0;
}
