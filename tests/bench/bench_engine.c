/* SPDX-License-Identifier: MIT */
/* Benchmark of the engine: full DFG+stats rebuild, one-rule incremental update, memory per event,
 * on a synthetic IOR-like log (file per process, write then read phases, a few shared files).
 * Usage: bench_engine [--events N] [--cases C] [--runs R] [--only STEP]
 *        (defaults 10000000 events, 1000 cases, 5 runs of each timed step)
 * --only runs one timed step (full_rebuild, one_rule, move_most, filter), so that a profiler
 * (valgrind --tool=callgrind --toggle-collect=iodfg_analysis_*) counts just that step.
 * Each timed step prints "NAME_ms: min X median Y (R runs)", and its CPU time over all threads.
 * filter_change alternates half of the cases and all of them (undo and redo of a filter);
 * filter_to_new_selection goes to another mask every run. */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <time.h>

#include "iodfg/analysis.h"
#include "iodfg/dfg.h"
#include "iodfg/error.h"
#include "iodfg/eventlog.h"
#include "iodfg/mapping.h"
#include "iodfg/stats.h"
#include "iodfg/strpool.h"

static double now_ms(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec * 1e3 + (double)ts.tv_nsec / 1e6;
}

static double cpu_ms(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
    return (double)ts.tv_sec * 1e3 + (double)ts.tv_nsec / 1e6;
}

/* Times of one step over the runs. */
#define MAX_RUNS 64
struct series {
    double ms[MAX_RUNS], cpu[MAX_RUNS], faults[MAX_RUNS];
    int n;
};

/* Page faults of the process so far (a fresh page costs this class of VM more than its use). */
static double minflt(void)
{
    struct rusage ru;
    getrusage(RUSAGE_SELF, &ru);
    return (double)ru.ru_minflt;
}

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

static void report(const char *name, struct series *s)
{
    qsort(s->ms, (size_t)s->n, sizeof(double), cmp_double);
    qsort(s->cpu, (size_t)s->n, sizeof(double), cmp_double);
    printf("%s_ms: min %.1f median %.1f (%d runs)\n", name, s->ms[0], s->ms[s->n / 2], s->n);
    printf("%s_cpu_ms: min %.1f median %.1f (all threads)\n", name, s->cpu[0], s->cpu[s->n / 2]);
    qsort(s->faults, (size_t)s->n, sizeof(double), cmp_double);
    printf("%s_page_faults: min %.0f median %.0f\n", name, s->faults[0], s->faults[s->n / 2]);
}

/* Step name runs: no --only, or --only names it. */
static int step_on(const char *only, const char *name)
{
    return !only || !strcmp(only, name);
}

/* report() of a step that ran (not left out by --only). */
static void report_on(const char *name, struct series *s)
{
    if (s->n) {
        report(name, s);
    }
}

/* Time and page faults since a, ac and af (now_ms, cpu_ms, minflt) into the next run of s. */
static void record(struct series *s, double a, double ac, double af)
{
    if (s->n < MAX_RUNS) {
        s->ms[s->n] = now_ms() - a;
        s->cpu[s->n] = cpu_ms() - ac;
        s->faults[s->n] = minflt() - af;
        s->n++;
    }
}

static long rss_kib(const char *field)
{
    FILE *f = fopen("/proc/self/status", "r");
    char line[256];
    long v = -1;
    size_t n = strlen(field);
    while (f && fgets(line, sizeof(line), f)) {
        if (!strncmp(line, field, n)) {
            v = strtol(line + n, NULL, 10);
        }
    }
    if (f) {
        fclose(f);
    }
    return v;
}

static uint64_t rng = 88172645463325252ULL;
static uint64_t next(void)
{
    rng ^= rng << 13;
    rng ^= rng >> 7;
    rng ^= rng << 17;
    return rng;
}

static uint32_t intern(struct iodfg_strpool *p, const char *s)
{
    uint32_t id;
    if (iodfg_strpool_intern(p, s, strlen(s), &id)) {
        fprintf(stderr, "out of memory\n");
        exit(1);
    }
    return id;
}

static void die(const struct iodfg_error *err)
{
    char buf[600];
    fprintf(stderr, "bench_engine: %s\n", iodfg_error_format(err, buf, sizeof(buf)));
    exit(1);
}

/* One rank: open, writes (with lseek now and then), fsync, reads, close, a few shared reads. */
static void make_case(struct iodfg_eventlog *log, uint32_t c, uint64_t nev, const uint32_t *calls,
                      const uint32_t *shared, struct iodfg_error *err)
{
    struct iodfg_strpool *pool = iodfg_eventlog_pool(log);
    char path[64], name[32];
    snprintf(path, sizeof(path), "/p/scratch/fpp/file.%05u", c);
    snprintf(name, sizeof(name), "ior_host%u_%u", c / 48, 1000 + c);
    uint32_t pid = intern(pool, path);
    struct iodfg_case_info info;
    memset(&info, 0, sizeof(info));
    info.name = intern(pool, name);
    if (iodfg_eventlog_begin_case(log, &info, err)) {
        die(err);
    }
    uint32_t keys[6];
    for (int i = 0; i < 6; i++) {
        if (iodfg_eventlog_key(log, calls[i], pid, &keys[i])) {
            die(err);
        }
    }
    int64_t t = 36000000000000LL + (int64_t)(next() % 2000000); // 10:00:00 + jitter
    struct iodfg_event ev;
    memset(&ev, 0, sizeof(ev));
    ev.pid = (int32_t)(20000 + c);
    ev.offset = ev.req = IODFG_UNKNOWN;
    for (uint64_t i = 0; i < nev; i++) {
        uint32_t k;
        int64_t size = IODFG_UNKNOWN, dur;
        if (i == 0) {
            k = keys[0]; // openat
            dur = 20000 + (int64_t)(next() % 30000);
        } else if (i + 1 == nev) {
            k = keys[5]; // close
            dur = 2000;
        } else if (i < 12) {
            k = shared[next() % 8]; // library and config reads
            size = 832;
            dur = 5000 + (int64_t)(next() % 20000);
        } else if (i % 97 == 0) {
            k = keys[3]; // lseek
            dur = 1000;
        } else if (i == nev / 2) {
            k = keys[4]; // fsync
            dur = 5000000 + (int64_t)(next() % 5000000);
        } else {
            k = i < nev / 2 ? keys[1] : keys[2]; // write / read of 1 MiB
            size = 1 << 20;
            dur = 100000 + (int64_t)(next() % 1900000);
        }
        ev.start_ns = t;
        ev.dur_ns = dur;
        ev.size = size;
        ev.key = k;
        if (iodfg_eventlog_push(log, &ev, i, err)) {
            die(err);
        }
        t += dur + 5000 + (int64_t)(next() % 45000);
    }
    if (iodfg_eventlog_end_case(log, err)) {
        die(err);
    }
}

/* The paper's f̂ over the log's keys. */
static void fhat(struct iodfg_mapping *map, const struct iodfg_eventlog *log)
{
    const struct iodfg_strpool *pool = iodfg_eventlog_pool(log);
    const struct iodfg_key *keys = iodfg_eventlog_keys(log);
    map->nkeys = iodfg_eventlog_key_count(log);
    map->activity_of_key = malloc(map->nkeys * sizeof(uint32_t));
    map->names = iodfg_strpool_new();
    map->name_of = malloc((map->nkeys * 2 + 16) * sizeof(uint32_t));
    map->nactivities = 0;
    for (uint32_t k = 0; k < map->nkeys; k++) {
        const char *path = iodfg_strpool_get(pool, keys[k].path);
        const char *cut = strchr(path + 1, '/');
        cut = cut ? strchr(cut + 1, '/') : NULL;
        char name[256];
        snprintf(name, sizeof(name), "%s:%.*s", iodfg_strpool_get(pool, keys[k].call),
                 cut ? (int)(cut - path) : (int)strlen(path), path);
        uint32_t id = intern(map->names, name), a;
        for (a = 0; a < map->nactivities && map->name_of[a] != id; a++) {
        }
        if (a == map->nactivities) {
            map->name_of[map->nactivities++] = id;
        }
        map->activity_of_key[k] = a;
    }
}

int main(int argc, char **argv)
{
    uint64_t nev = 10000000;
    uint32_t ncases = 1000;
    int runs = 5;
    const char *only = NULL;
    for (int i = 1; i + 1 < argc; i += 2) {
        if (!strcmp(argv[i], "--events")) {
            nev = strtoull(argv[i + 1], NULL, 10);
        } else if (!strcmp(argv[i], "--cases")) {
            ncases = (uint32_t)strtoul(argv[i + 1], NULL, 10);
        } else if (!strcmp(argv[i], "--runs")) {
            runs = atoi(argv[i + 1]);
        } else if (!strcmp(argv[i], "--only")) {
            only = argv[i + 1];
        } else {
            fprintf(stderr, "bench_engine: unknown option %s\n", argv[i]);
            return 2;
        }
    }
    if (only && !step_on(only, "full_rebuild") && !step_on(only, "one_rule") &&
        !step_on(only, "move_most") && !step_on(only, "filter")) {
        fprintf(stderr, "bench_engine: --only takes full_rebuild, one_rule, move_most or filter\n");
        return 2;
    }
    if (ncases == 0 || nev < 16 * (uint64_t)ncases || runs < 1 || runs > MAX_RUNS / 2) {
        fprintf(stderr, "bench_engine: needs 1 to %d runs and at least 16 events per case\n",
                MAX_RUNS / 2);
        return 2;
    }
    struct iodfg_error err;
    iodfg_error_clear(&err);
    double t0 = now_ms();
    struct iodfg_eventlog *log = iodfg_eventlog_new(IODFG_COL_ANALYSIS);
    struct iodfg_strpool *pool = iodfg_eventlog_pool(log);
    if (!log || iodfg_eventlog_reserve(log, nev, &err)) {
        die(&err);
    }
    static const char *const cn[6] = {"openat", "write", "read", "lseek", "fsync", "close"};
    uint32_t calls[6], shared[8];
    for (int i = 0; i < 6; i++) {
        calls[i] = intern(pool, cn[i]);
    }
    for (int i = 0; i < 8; i++) {
        char p[64];
        snprintf(p, sizeof(p), i < 6 ? "/usr/lib/x86_64-linux-gnu/lib%d.so" : "/etc/conf%d", i);
        if (iodfg_eventlog_key(log, calls[2], intern(pool, p), &shared[i])) {
            die(&err);
        }
    }
    for (uint32_t c = 0; c < ncases; c++) {
        make_case(log, c, nev / ncases, calls, shared, &err);
    }
    uint64_t n = iodfg_eventlog_event_count(log);
    struct iodfg_mapping map;
    fhat(&map, log);
    double t1 = now_ms();
    long rss_log = rss_kib("VmRSS:");
    printf("events: %llu\ncases: %u\nkeys: %u\nactivities: %u\n", (unsigned long long)n, ncases,
           map.nkeys, map.nactivities);
    printf("synthesis_ms: %.0f\n", t1 - t0);
    printf("log_bytes_per_event: %.1f\n", (double)iodfg_eventlog_memory(log) / (double)n);

    struct iodfg_selection sel;
    iodfg_selection_all(&sel);
    double t2 = now_ms();
    struct iodfg_analysis *an = iodfg_analysis_new(log, &map, &sel, &err);
    if (!an) {
        die(&err);
    }
    double t3 = now_ms();
    printf("index_and_first_build_ms: %.1f\n", t3 - t2);
    struct series full = {0};
    for (int r = 0; r < runs && step_on(only, "full_rebuild"); r++) {
        double a = now_ms(), ac = cpu_ms(), af = minflt();
        if (iodfg_analysis_rebuild(an, &map, &err)) {
            die(&err);
        }
        record(&full, a, ac, af);
    }
    report_on("full_rebuild", &full);

    // one rule edit: one rank's writes get their own activity, then go back
    uint32_t key = UINT32_MAX, rank = ncases > 17 ? 17 : ncases - 1;
    char rank_file[32];
    snprintf(rank_file, sizeof(rank_file), "file.%05u", rank);
    const struct iodfg_key *keys = iodfg_eventlog_keys(log);
    for (uint32_t k = 0; k < map.nkeys; k++) {
        const char *p = iodfg_strpool_get(pool, keys[k].path);
        if (keys[k].call == calls[1] && strstr(p, rank_file)) {
            key = k;
        }
    }
    if (key == UINT32_MAX) {
        fprintf(stderr, "bench_engine: no write key of rank %u\n", rank);
        return 1;
    }
    uint32_t old = map.activity_of_key[key];
    map.name_of[map.nactivities] = intern(map.names, "write:one_rank");
    uint32_t fresh = map.nactivities++;
    struct series one = {0};
    for (int r = 0; r < 2 * runs && step_on(only, "one_rule"); r++) {
        map.activity_of_key[key] = r % 2 ? old : fresh;
        double a = now_ms(), ac = cpu_ms(), af = minflt();
        if (iodfg_analysis_update(an, &map, &key, 1, &err)) {
            die(&err);
        }
        record(&one, a, ac, af);
        if (r == 0) {
            const struct iodfg_analysis_info *in = iodfg_analysis_last(an);
            printf("one_rule_edit: keys %u, cases recounted %llu, activities %u, edges %zu\n",
                   in->keys_changed, (unsigned long long)in->cases_recounted, in->activities_dirty,
                   in->edges_dirty);
        }
    }
    report_on("incremental_one_rule", &one);
    // a rule edit that moves nearly every event (as bench_tui's live edit does): the scratch
    // files of even and odd ranks get activities of their own per call, then fold back
    uint32_t *fold = malloc(map.nkeys * sizeof(*fold));
    uint32_t *split_act = malloc(map.nkeys * sizeof(*split_act));
    uint32_t split_base = map.nactivities;
    for (int i = 0; i < 12; i++) {
        char name[64];
        snprintf(name, sizeof(name), "%s:%s", cn[i % 6], i < 6 ? "even" : "odd");
        map.name_of[map.nactivities++] = intern(map.names, name);
    }
    memcpy(fold, map.activity_of_key, map.nkeys * sizeof(*fold));
    for (uint32_t k = 0; k < map.nkeys; k++) {
        const char *p = iodfg_strpool_get(pool, keys[k].path);
        const char *f = strstr(p, "/p/scratch/fpp/file.");
        split_act[k] = fold[k];
        for (int i = 0; f && i < 6; i++) {
            if (keys[k].call == calls[i]) {
                split_act[k] = split_base + (uint32_t)i + (strtoul(f + 20, NULL, 10) % 2 ? 6 : 0);
            }
        }
    }
    struct series big = {0};
    for (int r = 0; r < 2 * runs && step_on(only, "move_most"); r++) {
        memcpy(map.activity_of_key, r % 2 ? fold : split_act, map.nkeys * sizeof(*fold));
        double a = now_ms(), ac = cpu_ms(), af = minflt();
        if (iodfg_analysis_update(an, &map, NULL, 0, &err)) {
            die(&err);
        }
        record(&big, a, ac, af);
        if (r == 0) {
            const struct iodfg_analysis_info *in = iodfg_analysis_last(an);
            printf("move_most_events_edit: keys %u, cases recounted %llu, activities %u, edges "
                   "%zu\n",
                   in->keys_changed, (unsigned long long)in->cases_recounted, in->activities_dirty,
                   in->edges_dirty);
        }
    }
    memcpy(map.activity_of_key, fold, map.nkeys * sizeof(*fold));
    free(fold);
    free(split_act);
    report_on("incremental_move_most_events", &big);
    if (!only) {
        // a template edit that renames every activity (the partition of the events stays)
        uint32_t nbefore = map.nactivities;
        for (uint32_t a = 0; a < nbefore; a++) {
            char name[300];
            snprintf(name, sizeof(name), "renamed:%s",
                     iodfg_strpool_get(map.names, map.name_of[a]));
            map.name_of[map.nactivities++] = intern(map.names, name);
        }
        for (uint32_t k = 0; k < map.nkeys; k++) {
            map.activity_of_key[k] += nbefore;
        }
        double ra = now_ms();
        if (iodfg_analysis_update(an, &map, NULL, 0, &err)) {
            die(&err);
        }
        printf("rename_every_activity_ms: %.1f (cases recounted %llu)\n", now_ms() - ra,
               (unsigned long long)iodfg_analysis_last(an)->cases_recounted);
    }
    // a filter change: half of the cases
    uint8_t *on = malloc(ncases);
    for (uint32_t c = 0; c < ncases; c++) {
        on[c] = c % 2;
    }
    struct series filter = {0}, to_half = {0}, to_all = {0};
    for (int r = 0; r < 2 * runs && step_on(only, "filter"); r++) {
        sel.case_on = r % 2 ? NULL : on;
        double a = now_ms(), ac = cpu_ms(), af = minflt();
        if (iodfg_analysis_set_selection(an, &sel, &err)) {
            die(&err);
        }
        record(&filter, a, ac, af);
        record(r % 2 ? &to_all : &to_half, a, ac, af);
    }
    // the runs alternate between half of the cases and all of them (a full rebuild): the median
    // of both together is the faster of the slower half
    report_on("filter_change", &filter);
    report_on("filter_to_half", &to_half);
    report_on("filter_to_all", &to_all);
    // a filter to a selection never seen before (the analysis remembers the key sums of the
    // current and the previous selection only): every run another mask of about half the cases
    struct series fresh_sel = {0};
    sel.case_on = on;
    for (int r = 0; r < runs && step_on(only, "filter"); r++) {
        for (uint32_t c = 0; c < ncases; c++) {
            on[c] = (uint8_t)((c / (uint32_t)(r + 2)) % 2);
        }
        double a = now_ms(), ac = cpu_ms(), af = minflt();
        if (iodfg_analysis_set_selection(an, &sel, &err)) {
            die(&err);
        }
        record(&fresh_sel, a, ac, af);
    }
    report_on("filter_to_new_selection", &fresh_sel);
    sel.case_on = NULL; // back to every case for the check below
    if (iodfg_analysis_set_selection(an, &sel, &err)) {
        die(&err);
    }
    printf("regex_evaluations_per_rebuild: 0 (the engine reads a key->activity table; the rules "
           "module runs %u key matches per rule change)\n",
           map.nkeys);
    const struct iodfg_stats *st = iodfg_analysis_stats(an);
    uint32_t w = map.activity_of_key[key];
    printf("check: %s count %llu mc %u rd %.4f DR %.3g B/s\n",
           iodfg_strpool_get(map.names, map.name_of[w]), (unsigned long long)st->act[w].count,
           st->act[w].mc, st->act[w].rd, st->act[w].DR);
    printf("analysis_bytes_per_event: %.1f\n", (double)iodfg_analysis_memory(an) / (double)n);
    long hwm = rss_kib("VmHWM:"), rss = rss_kib("VmRSS:");
    printf("rss_after_log_bytes_per_event: %.1f\n", rss_log * 1024.0 / (double)n);
    printf("rss_bytes_per_event: %.1f\n", rss * 1024.0 / (double)n);
    printf("peak_rss_bytes_per_event: %.1f\n", hwm * 1024.0 / (double)n);
    iodfg_analysis_free(an);
    free(on);
    free(map.activity_of_key);
    free(map.name_of);
    iodfg_strpool_free(map.names);
    iodfg_eventlog_free(log);
    return 0;
}
