/* SPDX-License-Identifier: MIT */
/* Parser benchmark: newline scan vs. strace parser vs. parser + event log, on the same bytes.
 *   bench_parse --generate DIR FILES LINES   write a realistic IOR-like trace set
 *   bench_parse FILE...                       measure (single thread) and print per-core rates */
#include "config.h"

#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "iodfg/error.h"
#include "iodfg/eventlog.h"
#include "iodfg/strace.h"

static double now_s(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + ts.tv_nsec / 1e9;
}

static char *slurp(const char *path, size_t *len)
{
    FILE *f = fopen(path, "rb");
    if (!f) {
        perror(path);
        exit(1);
    }
    fseek(f, 0, SEEK_END);
    long n = ftell(f);
    fseek(f, 0, SEEK_SET);
    char *buf = malloc((size_t)n + 1);
    if (!buf || fread(buf, 1, (size_t)n, f) != (size_t)n) {
        exit(1);
    }
    fclose(f);
    *len = (size_t)n;
    return buf;
}

// One rank of an IOR-like run: library loading, then write and read phases on /p/scratch.
static void generate(const char *dir, int files, long lines)
{
    for (int f = 0; f < files; f++) {
        char path[4096];
        snprintf(path, sizeof(path), "%s/%s_jwc%02dn%03d_%d.st", dir, f % 2 ? "fpp" : "ssf", f / 48,
                 f % 48, 30000 + f);
        FILE *out = fopen(path, "w");
        if (!out) {
            perror(path);
            exit(1);
        }
        int pid = 30000 + f;
        long long t = (8LL * 3600 + 55 * 60) * 1000000LL + f * 37; // microseconds
        const char *target =
            f % 2 ? "/p/scratch/cjsc/fpp/test.00000001" : "/p/scratch/cjsc/ssf/test";
        for (long i = 0; i < lines; i++) {
            t += 40 + (i * 7919) % 200;
            long long h = t / 3600000000LL, m = t / 60000000LL % 60, s = t / 1000000 % 60,
                      us = t % 1000000;
            long kind = i % 20;
            long long off = (long long)(i / 4) * 1048576;
            if (i < 40) {
                fprintf(out,
                        "%d  %02lld:%02lld:%02lld.%06lld read(3</usr/lib64/libmpi.so.40.%ld>, "
                        "\"\\177ELF\\2\\1\\1\\0\\0\\0\\0\\0\\0\\0\\0\\0\\3\\0>\\0\\1\\0\\0\\0\"...,"
                        " 832) = 832 <0.000%03ld>\n",
                        pid, h, m, s, us, i, 10 + i % 90);
            } else if (kind == 0) {
                fprintf(out,
                        "%d  %02lld:%02lld:%02lld.%06lld lseek(5<%s>, %lld, SEEK_SET) = %lld "
                        "<0.000004>\n",
                        pid, h, m, s, us, target, off, off);
            } else if (kind == 7) {
                fprintf(out,
                        "%d  %02lld:%02lld:%02lld.%06lld write(5<%s>, "
                        "\"\\0\\0\\0\\0\\0\\0\\0\\0\\0\\0\\0\\0\\0\\0\\0\\0\\0\\0\\0\\0\\0\\0\\0\\0"
                        "\\0\\0\\0\\0\\0\\0\\0\\0\"..., 1048576 <unfinished ...>\n",
                        pid, h, m, s, us, target);
                fprintf(
                    out,
                    "%d  %02lld:%02lld:%02lld.%06lld <... write resumed>) = 1048576 <0.002%03ld>\n",
                    pid, h, m, s, us + 3, i % 1000);
            } else if (kind == 13) {
                fprintf(out,
                        "%d  %02lld:%02lld:%02lld.%06lld openat(AT_FDCWD</p/home/jusers/u>, "
                        "\"%s\", O_RDWR|O_CREAT, 0664) = 5<%s> <0.001%03ld>\n",
                        pid, h, m, s, us, target, target, i % 1000);
            } else if (kind < 10) {
                fprintf(out,
                        "%d  %02lld:%02lld:%02lld.%06lld write(5<%s>, "
                        "\"\\0\\0\\0\\0\\0\\0\\0\\0\\0\\0\\0\\0\\0\\0\\0\\0\\0\\0\\0\\0\\0\\0\\0\\0"
                        "\\0\\0\\0\\0\\0\\0\\0\\0\"..., 1048576) = 1048576 <0.00%04ld>\n",
                        pid, h, m, s, us, target, 1000 + i % 9000);
            } else {
                fprintf(out,
                        "%d  %02lld:%02lld:%02lld.%06lld read(5<%s>, "
                        "\"\\0\\0\\0\\0\\0\\0\\0\\0\\0\\0\\0\\0\\0\\0\\0\\0\\0\\0\\0\\0\\0\\0\\0\\0"
                        "\\0\\0\\0\\0\\0\\0\\0\\0\"..., 1048576) = 1048576 <0.00%04ld>\n",
                        pid, h, m, s, us, target, 800 + i % 9000);
            }
        }
        fclose(out);
    }
}

// Lines of a file read with read(2) in 1 MiB blocks, as `wc -l` does.
static uint64_t file_scan(const char *path)
{
    static char block[1 << 20];
    int fd = open(path, O_RDONLY);
    uint64_t lines = 0;
    ssize_t n;
    while (fd >= 0 && (n = read(fd, block, sizeof(block))) > 0) {
        const char *p = block, *end = block + n;
        while (p < end && (p = memchr(p, '\n', (size_t)(end - p))) != NULL) {
            lines++;
            p++;
        }
    }
    if (fd >= 0) {
        close(fd);
    }
    return lines;
}

static int count_sink(void *ctx, const struct iodfg_raw_event *ev, struct iodfg_error *err)
{
    (void)err;
    uint64_t *n = ctx;
    *n += (uint64_t)ev->path_len + 1;
    return 0;
}

// The parser alone over a file read as convert reads it (blocks of read(2)).
static uint64_t file_parse(const char *path, uint64_t *sink)
{
    int fd = open(path, O_RDONLY);
    if (fd < 0) {
        return 0;
    }
    struct iodfg_strace_result r;
    iodfg_strace_parse_fd(fd, count_sink, sink, NULL, NULL, &r, NULL);
    close(fd);
    return r.lines;
}

int main(int argc, char **argv)
{
    if (argc == 5 && strcmp(argv[1], "--generate") == 0) {
        generate(argv[2], atoi(argv[3]), atol(argv[4]));
        return 0;
    }
    if (argc == 3 && strcmp(argv[1], "--parse-only") == 0) { // one pass, for callgrind
        uint64_t sink = 0;
        return file_parse(argv[2], &sink) ? 0 : 1;
    }
    if (argc == 3 && strcmp(argv[1], "--log-only") == 0) { // parser + event log, for profiles
        int fd = open(argv[2], O_RDONLY);
        struct iodfg_eventlog *log = iodfg_eventlog_new(IODFG_COL_ALL);
        struct iodfg_case_info ci;
        memset(&ci, 0, sizeof(ci));
        struct iodfg_strace_result r;
        int rc = fd < 0 || iodfg_eventlog_begin_case(log, &ci, NULL) ||
                 iodfg_strace_parse_fd(fd, iodfg_strace_sink_eventlog, log, NULL, NULL, &r, NULL) ||
                 iodfg_eventlog_end_case(log, NULL);
        iodfg_eventlog_free(log);
        if (fd >= 0) {
            close(fd);
        }
        return rc ? 1 : 0;
    }
    if (argc < 2) {
        fprintf(stderr, "usage: bench_parse FILE... | --generate DIR FILES LINES | --parse-only "
                        "FILE | --log-only FILE\n");
        return 2;
    }
    size_t total = 0, nfiles = (size_t)argc - 1;
    char **bufs = calloc(nfiles, sizeof(*bufs));
    size_t *lens = calloc(nfiles, sizeof(*lens));
    for (size_t i = 0; i < nfiles; i++) {
        bufs[i] = slurp(argv[i + 1], &lens[i]);
        total += lens[i];
    }
    // Each phase runs REPS times and the best time counts: this VM's timings are noisy.
    enum { REPS = 3 };
    double t_scan = 1e30, t_parse = 1e30, t_log = 1e30, t_fscan = 1e30, t_fparse = 1e30;
    uint64_t lines = 0, sink = 0, events = 0;
    size_t mem = 0;
    for (int rep = 0; rep < REPS; rep++) {
        // 1. memchr newline scan
        double t0 = now_s();
        lines = 0;
        for (size_t i = 0; i < nfiles; i++) {
            const char *p = bufs[i], *end = bufs[i] + lens[i];
            while (p < end && (p = memchr(p, '\n', (size_t)(end - p))) != NULL) {
                lines++;
                p++;
            }
        }
        double t = now_s() - t0;
        t_scan = t < t_scan ? t : t_scan;
        // 2. parser alone
        t0 = now_s();
        events = 0;
        for (size_t i = 0; i < nfiles; i++) {
            struct iodfg_strace_result r;
            iodfg_strace_parse(bufs[i], lens[i], count_sink, &sink, &r, NULL);
            events += r.counts[IODFG_COUNT_EVENTS];
        }
        t = now_s() - t0;
        t_parse = t < t_parse ? t : t_parse;
        // 1b. newline scan of the files (read + memchr, like wc -l)
        t0 = now_s();
        for (size_t i = 0; i < nfiles; i++) {
            file_scan(argv[i + 1]);
        }
        t = now_s() - t0;
        t_fscan = t < t_fscan ? t : t_fscan;
        // 2b. parser alone on the files, read in blocks
        t0 = now_s();
        for (size_t i = 0; i < nfiles; i++) {
            file_parse(argv[i + 1], &sink);
        }
        t = now_s() - t0;
        t_fparse = t < t_fparse ? t : t_fparse;
        // 3. parser + in-memory event log (interning, columns, sort)
        t0 = now_s();
        mem = 0;
        for (size_t i = 0; i < nfiles; i++) {
            struct iodfg_eventlog *log = iodfg_eventlog_new(IODFG_COL_ALL);
            struct iodfg_case_info ci;
            memset(&ci, 0, sizeof(ci));
            iodfg_eventlog_begin_case(log, &ci, NULL);
            struct iodfg_strace_result r;
            iodfg_strace_parse_frames(bufs[i], lens[i], iodfg_strace_sink_eventlog,
                                      iodfg_strace_frame_eventlog, log, &r, NULL); // as convert
            iodfg_eventlog_end_case(log, NULL);
            mem += iodfg_eventlog_memory(log);
            iodfg_eventlog_free(log);
        }
        t = now_s() - t0;
        t_log = t < t_log ? t : t_log;
    }
    double mb = (double)total / 1e6;
    printf("input: %zu files, %.1f MB, %llu lines, %llu events (1 thread, best of 3)\n", nfiles, mb,
           (unsigned long long)lines, (unsigned long long)events);
    printf("%-28s %8.2f Mlines/s %8.0f MB/s\n", "memory: newline scan", lines / t_scan / 1e6,
           mb / t_scan);
    printf("%-28s %8.2f Mlines/s %8.0f MB/s  (%.0f%% of the memory scan)\n", "memory: parser alone",
           lines / t_parse / 1e6, mb / t_parse, 100 * t_scan / t_parse);
    printf("%-28s %8.2f Mlines/s %8.0f MB/s\n", "files: newline scan (read)", lines / t_fscan / 1e6,
           mb / t_fscan);
    printf("%-28s %8.2f Mlines/s %8.0f MB/s  (%.0f%% of the file scan)\n",
           "files: parser alone (read)", lines / t_fparse / 1e6, mb / t_fparse,
           100 * t_fscan / t_fparse);
    printf("%-28s %8.2f Mlines/s %8.0f MB/s  %.1f bytes/event in memory\n", "parser + event log",
           lines / t_log / 1e6, mb / t_log, events ? (double)mem / (double)events : 0);
    (void)sink;
    for (size_t i = 0; i < nfiles; i++) {
        free(bufs[i]);
    }
    free(bufs);
    free(lens);
    return 0;
}
