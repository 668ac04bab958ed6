/* SPDX-License-Identifier: MIT */
/* Shared command-line pieces: error output, totals, progress bar, loading logs or traces. */
#include "config.h"

#include "cli.h"

#include <signal.h>
#include <sys/stat.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "iodfg/casename.h"
#include "iodfg/error.h"
#include "iodfg/ingest.h"
#include "iodfg/mounts.h"
#include "iodfg/store.h"
#include "iodfg/strace.h"

void cli_error(const struct iodfg_error *err)
{
    char buf[1024];
    fprintf(stderr, "iodfg: %s\n", iodfg_error_format(err, buf, sizeof(buf)));
}

void cli_errorf(const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    fputs("iodfg: ", stderr);
    vfprintf(stderr, fmt, ap);
    fputc('\n', stderr);
    va_end(ap);
}

const char *cli_count(char *buf, size_t size, uint64_t v)
{
    char digits[32];
    int n = snprintf(digits, sizeof(digits), "%llu", (unsigned long long)v);
    size_t o = 0;
    for (int i = 0; i < n && o + 2 < size; i++) {
        if (i > 0 && (n - i) % 3 == 0) {
            buf[o++] = ',';
        }
        buf[o++] = digits[i];
    }
    buf[o] = '\0';
    return buf;
}

const char *cli_bytes(char *buf, size_t size, double v)
{
    static const char *const units[] = {"B", "KiB", "MiB", "GiB", "TiB", "PiB"};
    int u = 0;
    while (v >= 1024 && u < 5) {
        v /= 1024;
        u++;
    }
    snprintf(buf, size, u ? "%.1f %s" : "%.0f %s", v, units[u]);
    return buf;
}

int cli_opt_jobs(const char *s, unsigned *jobs)
{
    char *end;
    long v = strtol(s, &end, 10);
    if (*s == '\0' || *end != '\0' || v < 1 || v > 1024) {
        cli_errorf("--jobs expects a number from 1 to 1024, not '%s'", s);
        return CLI_USAGE;
    }
    *jobs = (unsigned)v;
    return 0;
}

int cli_need_inputs(int optind_, int argc, const char *what, const char *usage)
{
    if (optind_ < argc) {
        return 0;
    }
    cli_errorf("%s", what);
    fputs(usage, stderr);
    return CLI_USAGE;
}

void cli_totals_add(struct cli_ingest_totals *t, const char *path,
                    const struct iodfg_strace_result *r, int by_pattern)
{
    t->files++;
    t->lines += r->lines;
    t->bytes += r->bytes;
    t->events += r->counts[IODFG_COUNT_EVENTS];
    t->by_pattern += by_pattern != 0;
    t->files_without_events += r->counts[IODFG_COUNT_EVENTS] == 0;
    for (int i = 0; i < IODFG_COUNT__N; i++) {
        t->counts[i] += r->counts[i];
    }
    if (!t->first_problem[0] && r->ndiags) {
        snprintf(t->first_problem, sizeof(t->first_problem), "%s:%llu:%lu: %s", path,
                 (unsigned long long)r->diags[0].line, r->diags[0].col, r->diags[0].msg);
    }
}

void cli_totals_print(FILE *out, const struct cli_ingest_totals *t)
{
    char a[32], b[32], c[32], d[32];
    fprintf(out, "Read %s trace file%s (%s, %s lines): %s events", cli_count(a, sizeof(a), t->files),
            t->files == 1 ? "" : "s", cli_bytes(b, sizeof(b), (double)t->bytes),
            cli_count(c, sizeof(c), t->lines), cli_count(d, sizeof(d), t->events));
    const uint64_t *k = t->counts;
    if (k[IODFG_COUNT_MERGED]) {
        fprintf(out, ", %s of them merged from unfinished/resumed pairs",
                cli_count(a, sizeof(a), k[IODFG_COUNT_MERGED]));
    }
    fprintf(out, ".");
    if (t->files - t->by_pattern) {
        fprintf(out, " %s file%s did not match the name pattern and %s named after the file.",
                cli_count(a, sizeof(a), t->files - t->by_pattern),
                t->files - t->by_pattern == 1 ? "" : "s",
                t->files - t->by_pattern == 1 ? "is" : "are");
    }
    static const enum iodfg_count notes[] = {IODFG_COUNT_SIGNALS, IODFG_COUNT_EXITS,
                                             IODFG_COUNT_RESTARTS, IODFG_COUNT_NOTICES,
                                             IODFG_COUNT_BLANK};
    int any = 0;
    for (size_t i = 0; i < sizeof(notes) / sizeof(notes[0]); i++) {
        if (k[notes[i]]) {
            fprintf(out, "%s %s %s", any ? "," : " Not events:", cli_count(a, sizeof(a), k[notes[i]]),
                    iodfg_count_name(notes[i]));
            any = 1;
        }
    }
    if (any) {
        fprintf(out, ".");
    }
    if (k[IODFG_COUNT_UNMATCHED]) {
        fprintf(out, " %s unfinished/resumed halves had no partner and were kept on their own.",
                cli_count(a, sizeof(a), k[IODFG_COUNT_UNMATCHED]));
    }
    if (k[IODFG_COUNT_NO_DURATION]) {
        fprintf(out, " %s events have no duration (record with strace -T).",
                cli_count(a, sizeof(a), k[IODFG_COUNT_NO_DURATION]));
    }
    if (t->files_without_events) {
        fprintf(out, " %s file%s held no events.", cli_count(a, sizeof(a), t->files_without_events),
                t->files_without_events == 1 ? "" : "s");
    }
    if (k[IODFG_COUNT_UNPARSABLE]) {
        fprintf(out, " Skipped %s unparsable line%s; the first: %s.",
                cli_count(a, sizeof(a), k[IODFG_COUNT_UNPARSABLE]),
                k[IODFG_COUNT_UNPARSABLE] == 1 ? "" : "s", t->first_problem);
    }
    fprintf(out, "\n");
}

/* ---- temp files removed on signals ------------------------------------------ */

static char guarded[4096];

static void on_signal(int sig)
{
    if (guarded[0]) {
        unlink(guarded); // async-signal-safe
    }
    signal(sig, SIG_DFL);
    raise(sig);
}

void cli_temp_guard(const char *path)
{
    snprintf(guarded, sizeof(guarded), "%s", path);
    signal(SIGINT, on_signal);
    signal(SIGTERM, on_signal);
    signal(SIGHUP, on_signal);
}

void cli_temp_forget(void)
{
    signal(SIGINT, SIG_DFL);
    signal(SIGTERM, SIG_DFL);
    signal(SIGHUP, SIG_DFL);
    guarded[0] = '\0';
}

/* ---- progress bar ---------------------------------------------------------- */

static struct {
    int active;
    double t0, last;
} bar;

static double now_s(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + ts.tv_nsec / 1e9;
}

void cli_progress(void *ctx, uint64_t done, uint64_t total)
{
    (void)ctx;
    if (!isatty(STDERR_FILENO)) {
        return;
    }
    double t = now_s();
    if (!bar.active) {
        bar.active = 1;
        bar.t0 = t;
        bar.last = 0;
    }
    if (t - bar.last < 0.2 && done < total) {
        return;
    }
    bar.last = t;
    double frac = total ? (double)done / (double)total : 1.0;
    if (frac > 1) {
        frac = 1;
    }
    char fill[31];
    int w = (int)(frac * 30);
    for (int i = 0; i < 30; i++) {
        fill[i] = i < w ? '#' : '.';
    }
    fill[30] = '\0';
    char a[32], b[32], r[32];
    double el = t - bar.t0;
    fprintf(stderr, "\r%3.0f%% [%s] %s / %s  %s/s ", frac * 100, fill,
            cli_bytes(a, sizeof(a), (double)done), cli_bytes(b, sizeof(b), (double)total),
            cli_bytes(r, sizeof(r), el > 0 ? (double)done / el : 0));
    fflush(stderr);
}

void cli_progress_end(void)
{
    if (bar.active) {
        fprintf(stderr, "\r%*s\r", 79, "");
        fflush(stderr);
        bar.active = 0;
    }
}

/* ---- loading --------------------------------------------------------------- */

struct load_ctx {
    struct iodfg_eventlog *log;
    struct cli_ingest_totals *totals;
};

static int append_case(void *ctx, const struct iodfg_eventlog *one,
                       const struct iodfg_ingest_file *file, struct iodfg_error *err)
{
    struct load_ctx *lc = ctx;
    cli_totals_add(lc->totals, file->path, &file->result, file->named_by_pattern);
    return iodfg_eventlog_append(lc->log, one, err);
}

struct iodfg_mounts *cli_mounts_open(char *const *inputs, size_t n, const char *given, char *used,
                                     size_t size, struct iodfg_error *err)
{
    if (given) {
        snprintf(used, size, "%s", given);
        return iodfg_mounts_load(given, err);
    }
    for (size_t i = 0; i < n; i++) {
        char path[4200];
        struct stat st;
        if (stat(inputs[i], &st) == 0 && S_ISDIR(st.st_mode)) {
            snprintf(path, sizeof(path), "%s/mounts.txt", inputs[i]);
        } else {
            const char *slash = strrchr(inputs[i], '/');
            int dl = slash ? (int)(slash - inputs[i]) + 1 : 0;
            snprintf(path, sizeof(path), "%.*smounts.txt", dl, inputs[i]);
        }
        if (stat(path, &st) == 0 && S_ISREG(st.st_mode)) {
            snprintf(used, size, "%s", path);
            return iodfg_mounts_load(path, err);
        }
    }
    snprintf(used, size, "built-in list");
    return iodfg_mounts_builtin(err);
}

struct iodfg_eventlog *cli_load(char *const *inputs, size_t n, unsigned columns,
                                const struct cli_ingest_opts *o, struct cli_ingest_totals *totals,
                                struct iodfg_error *err)
{
    memset(totals, 0, sizeof(*totals));
    if (n == 1 && iodfg_store_is_hdf5(inputs[0])) {
        struct iodfg_eventlog *log =
            iodfg_store_load(inputs[0], columns, o->quiet ? NULL : cli_progress, NULL, err);
        cli_progress_end();
        // keep the classification stored by convert unless --mounts is given
        if (log && !o->mounts && iodfg_mounts_log_classified(log)) {
            snprintf(totals->mounts, sizeof(totals->mounts), "stored in the log");
        } else if (log) {
            struct iodfg_mounts *m =
                cli_mounts_open(NULL, 0, o->mounts, totals->mounts, sizeof(totals->mounts), err);
            if (!m || iodfg_mounts_classify(m, log, err)) {
                iodfg_eventlog_free(log);
                log = NULL;
            }
            iodfg_mounts_free(m);
        }
        return log;
    }
    struct iodfg_mounts *mounts =
        cli_mounts_open(inputs, n, o->mounts, totals->mounts, sizeof(totals->mounts), err);
    if (!mounts) {
        return NULL;
    }
    struct iodfg_casename *names = iodfg_casename_new(o->name_pattern, err);
    if (!names) {
        iodfg_mounts_free(mounts);
        return NULL;
    }
    size_t count = 0;
    char **files = iodfg_ingest_list((const char *const *)inputs, n, names, &count, err);
    struct iodfg_eventlog *log = files ? iodfg_eventlog_new(columns) : NULL;
    if (files && !log) {
        iodfg_error_set(err, IODFG_E_NOMEM, NULL);
    }
    if (log) {
        for (size_t i = 0; i < count; i++) {
            if (iodfg_store_is_hdf5(files[i])) {
                iodfg_error_set(err, IODFG_E_ARG,
                                "is an HDF5 file; give an event log alone, not with traces");
                iodfg_error_at(err, files[i], 0, 0);
                iodfg_eventlog_free(log);
                log = NULL;
                break;
            }
        }
    }
    if (log) {
        struct iodfg_ingest_opts io = {.names = names, .jobs = o->jobs, .columns = columns,
                                       .progress = o->quiet ? NULL : cli_progress,
                                       .mounts = mounts};
        struct load_ctx lc = {log, totals};
        if (iodfg_ingest_run(files, count, &io, append_case, &lc, err)) {
            iodfg_eventlog_free(log);
            log = NULL;
        }
        cli_progress_end();
    }
    iodfg_ingest_free_list(files);
    iodfg_casename_free(names);
    iodfg_mounts_free(mounts);
    return log;
}
