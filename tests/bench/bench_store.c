/* SPDX-License-Identifier: MIT */
/* Benchmark of the HDF5 store: parse synthetic strace text, write it, load it back.
 * Usage: bench_store [EVENTS [FILE.h5|- [CASES]]]  (default 2000000 events in 64 cases, a file
 * in $TMPDIR, removed afterwards unless FILE is given). Prints events/s for each step and bytes
 * per event. Parsing runs on one thread; loading is timed on one thread and with the default
 * (one per core). Many small cases (one per MPI rank) show what each case costs. */
#include "config.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include <hdf5.h>

#include "iodfg/error.h"
#include "iodfg/eventlog.h"
#include "iodfg/store.h"
#include "iodfg/strace.h"

static int ncases = 64;

static double now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

static void die(const char *what, const struct iodfg_error *err)
{
    char buf[600];
    fprintf(stderr, "bench_store: %s: %s\n", what,
            err ? iodfg_error_format(err, buf, sizeof(buf)) : "out of memory");
    exit(1);
}

/* strace -f -tt -T -y text of n events of one process: a few calls over ~2000 files. */
static char *make_trace(uint64_t n, uint64_t seed, size_t *len)
{
    static const char *const calls[] = {"read", "write", "pread64", "lseek", "fstat", "close"};
    size_t cap = (size_t)n * 120 + 1;
    char *buf = malloc(cap);
    if (!buf) {
        die("trace", NULL);
    }
    size_t at = 0;
    uint64_t x = seed, us = 8 * 3600 * 1000000ull;
    for (uint64_t i = 0; i < n; i++) {
        x = x * 6364136223846793005ull + 1442695040888963407ull;
        us += 1 + (x >> 60);
        unsigned c = (unsigned)(x >> 40) % 6, f = (unsigned)(x >> 20) % 2000;
        unsigned long long s = us / 1000000, u = us % 1000000;
        int w = snprintf(buf + at, cap - at,
                         "%u %02llu:%02llu:%02llu.%06llu %s(3</scratch/proj/run%u/file%u.dat>, "
                         "\"\"..., 4096) = %u <0.0000%02u>\n",
                         1000 + (unsigned)(seed % 97), s / 3600, s / 60 % 60, s % 60, u, calls[c],
                         f % 10, f, c < 3 ? 4096u : 0u, (unsigned)(x >> 8) % 100);
        at += (size_t)w;
    }
    *len = at;
    return buf;
}

static void progress(void *ctx, uint64_t done, uint64_t total)
{
    (void)done;
    (void)total;
    ++*(unsigned *)ctx;
}

static struct iodfg_eventlog *parse_all(char *const *texts, const size_t *lens, double *secs)
{
    struct iodfg_error err;
    iodfg_error_clear(&err);
    struct iodfg_eventlog *log = iodfg_eventlog_new(IODFG_COL_ALL);
    if (!log) {
        die("log", NULL);
    }
    double t0 = now();
    for (int c = 0; c < ncases; c++) {
        struct iodfg_case_info ci;
        memset(&ci, 0, sizeof(ci));
        struct iodfg_strace_result res;
        if (iodfg_eventlog_begin_case(log, &ci, &err) ||
            iodfg_strace_parse(texts[c], lens[c], iodfg_strace_sink_eventlog, log, &res, &err) ||
            iodfg_eventlog_end_case(log, &err)) {
            die("parse", &err);
        }
    }
    *secs = now() - t0;
    return log;
}

static double write_log(const struct iodfg_eventlog *log, const char *path)
{
    struct iodfg_error err;
    iodfg_error_clear(&err);
    double t0 = now();
    struct iodfg_store_writer *w = iodfg_store_create(path, 1, &err);
    if (!w || iodfg_store_write_cases(w, log, &err) || iodfg_store_commit(w, &err)) {
        die("write", &err);
    }
    return now() - t0;
}

static double cpu_now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

/* Seconds of processor time of a one-thread load of path (a busy machine's waits left out). */
static double load_cpu(const char *path, unsigned mask, uint64_t n)
{
    struct iodfg_error err;
    iodfg_error_clear(&err);
    double t0 = cpu_now();
    struct iodfg_eventlog *log = iodfg_store_load_threads(path, mask, 1, NULL, NULL, &err);
    double secs = cpu_now() - t0;
    if (!log || iodfg_eventlog_event_count(log) != n) {
        die("load", &err);
    }
    iodfg_eventlog_free(log);
    return secs;
}

static double load_log(const char *path, unsigned mask, unsigned threads, uint64_t n, double *mem)
{
    struct iodfg_error err;
    iodfg_error_clear(&err);
    unsigned calls = 0;
    double t0 = now();
    struct iodfg_eventlog *log =
        iodfg_store_load_threads(path, mask, threads, progress, &calls, &err);
    double secs = now() - t0;
    if (!log || iodfg_eventlog_event_count(log) != n) {
        die("load", &err);
    }
    *mem = (double)iodfg_eventlog_memory(log) / (double)n;
    iodfg_eventlog_free(log);
    return secs;
}

/* A copy of path at copy that declares format 4.0 (minor 0): loaded without its checksums, to
 * measure what they cost. */
static void copy_without_sums(const char *path, const char *copy)
{
    FILE *in = fopen(path, "rb"), *out = fopen(copy, "wb");
    char buf[1 << 16];
    size_t n;
    while (in && out && (n = fread(buf, 1, sizeof(buf), in)) > 0) {
        if (fwrite(buf, 1, n, out) != n) {
            die("copy", NULL);
        }
    }
    if (!in || !out || fclose(out) != 0) {
        die("copy", NULL);
    }
    fclose(in);
    hid_t f = H5Fopen(copy, H5F_ACC_RDWR, H5P_DEFAULT);
    hid_t a = f < 0 ? -1 : H5Aopen(f, "minor", H5P_DEFAULT);
    unsigned zero = 0;
    if (a < 0 || H5Awrite(a, H5T_NATIVE_UINT, &zero) < 0) {
        die("minor 0", NULL);
    }
    H5Aclose(a);
    H5Fclose(f);
}

static double min_d(double a, double b)
{
    return a < b ? a : b;
}

int main(int argc, char **argv)
{
    uint64_t n = argc > 1 ? strtoull(argv[1], NULL, 10) : 2000000;
    char path[4096];
    const char *tmp = getenv("TMPDIR");
    ncases = argc > 3 ? atoi(argv[3]) : 64;
    if (ncases < 1 || (uint64_t)ncases > n) {
        fprintf(stderr, "bench_store: CASES must be between 1 and EVENTS\n");
        return 2;
    }
    if (argc > 2 && strcmp(argv[2], "-") != 0) {
        snprintf(path, sizeof(path), "%s", argv[2]);
    } else {
        snprintf(path, sizeof(path), "%s/bench_store_%d.h5", tmp && *tmp ? tmp : "/tmp",
                 (int)getpid());
    }
    char **texts = malloc((size_t)ncases * sizeof(*texts));
    size_t *lens = malloc((size_t)ncases * sizeof(*lens)), bytes = 0;
    if (!texts || !lens) {
        die("texts", NULL);
    }
    for (int c = 0; c < ncases; c++) {
        uint64_t per = n / (uint64_t)ncases + ((uint64_t)c < n % (uint64_t)ncases);
        texts[c] = make_trace(per, (uint64_t)c + 1, &lens[c]);
        bytes += lens[c];
    }
    // Best of three rounds: the first touch of fresh memory (notably in a VM) is noise.
    double parse_s = 1e30, write_s = 1e30, mem_all = 0, mem_ana = 0;
    double all_s[2] = {1e30, 1e30}, ana_s[2] = {1e30, 1e30}; // one thread, then the default
    // processor time of one-thread loads with and without checking the checksums
    double sum_cpu[2] = {1e30, 1e30}, nosum_cpu[2] = {1e30, 1e30};
    char copy[4200];
    snprintf(copy, sizeof(copy), "%s.nosums", path);
    for (int round = 0; round < 3; round++) {
        double t;
        struct iodfg_eventlog *log = parse_all(texts, lens, &t);
        parse_s = min_d(parse_s, t);
        write_s = min_d(write_s, write_log(log, path));
        iodfg_eventlog_free(log);
        copy_without_sums(path, copy);
        for (int k = 0; k < 2; k++) {
            all_s[k] = min_d(all_s[k], load_log(path, IODFG_COL_ALL, k ? 0 : 1, n, &mem_all));
            ana_s[k] = min_d(ana_s[k], load_log(path, IODFG_COL_ANALYSIS, k ? 0 : 1, n, &mem_ana));
        }
        for (int rep = 0; rep < 3; rep++) { // interleaved, so that both see the same machine
            for (int k = 0; k < 2; k++) {
                unsigned mask = k ? IODFG_COL_ANALYSIS : IODFG_COL_ALL;
                sum_cpu[k] = min_d(sum_cpu[k], load_cpu(path, mask, n));
                nosum_cpu[k] = min_d(nosum_cpu[k], load_cpu(copy, mask, n));
            }
        }
    }
    unlink(copy);
    struct stat st;
    if (stat(path, &st) != 0) {
        die("stat", NULL);
    }
    printf("events            %llu in %d cases (%.0f MB of strace -f -tt -T -y text)\n",
           (unsigned long long)n, ncases, (double)bytes / 1e6);
    printf("parse text        %8.3f s  %7.2f M events/s  (one thread)\n", parse_s,
           (double)n / parse_s / 1e6);
    printf("write .h5         %8.3f s  %7.2f M events/s  (incl. fsync)\n", write_s,
           (double)n / write_s / 1e6);
    for (int t = 0; t < 2; t++) {
        const char *how = t ? "default threads" : "one thread";
        printf("load all columns  %8.3f s  %7.2f M events/s  %.1fx parsing  (%s)\n", all_s[t],
               (double)n / all_s[t] / 1e6, parse_s / all_s[t], how);
        printf("load analysis     %8.3f s  %7.2f M events/s  %.1fx parsing  (%s)\n", ana_s[t],
               (double)n / ana_s[t] / 1e6, parse_s / ana_s[t], how);
    }
    printf("checksum cost     %+7.1f %% all columns, %+7.1f %% analysis  (processor time of a "
           "one-thread load: %.3f s, %.3f s; %.3f s, %.3f s without checking them)\n",
           100 * (sum_cpu[0] / nosum_cpu[0] - 1), 100 * (sum_cpu[1] / nosum_cpu[1] - 1), sum_cpu[0],
           sum_cpu[1], nosum_cpu[0], nosum_cpu[1]);
    printf("file              %llu bytes, %.1f bytes/event\n", (unsigned long long)st.st_size,
           (double)st.st_size / (double)n);
    printf("memory            %.1f bytes/event (all columns), %.1f (analysis)\n", mem_all, mem_ana);
    for (int c = 0; c < ncases; c++) {
        free(texts[c]);
    }
    free(texts);
    free(lens);
    if (argc <= 2 || strcmp(argv[2], "-") == 0) {
        unlink(path);
    }
    return 0;
}
