/* SPDX-License-Identifier: MIT */
/* Benchmark: every characterisation metric (characterisation bins of El Sayed et al.,
 * bandwidth and time shares of Wright et al.,
 * the stair-case sweep, access patterns) on a synthetic log of N events (default 10 million).
 *   tests/bench/bench_metrics [EVENTS] [CASES] */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "iodfg/access.h"
#include "iodfg/bandwidth.h"
#include "iodfg/characterize.h"
#include "iodfg/error.h"
#include "iodfg/eventlog.h"
#include "iodfg/mapping.h"
#include "iodfg/metrics.h"
#include "iodfg/stats.h"
#include "iodfg/strpool.h"
#include "iodfg/timeline.h"

static double now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

static uint32_t intern(struct iodfg_eventlog *log, const char *s)
{
    uint32_t id = 0;
    if (iodfg_strpool_intern(iodfg_eventlog_pool(log), s, strlen(s), &id)) {
        fprintf(stderr, "out of memory\n");
        exit(1);
    }
    return id;
}

// IOR-like cases: open, then lseek+write / pwrite / lseek+read / pread cycles, then close.
static struct iodfg_eventlog *make_log(uint64_t n, uint32_t nc)
{
    static const char *const calls[] = {"openat", "lseek",   "write", "pwrite64",
                                        "read",   "pread64", "close"};
    struct iodfg_eventlog *log = iodfg_eventlog_new(IODFG_COL_ALL);
    struct iodfg_error err;
    iodfg_error_clear(&err);
    uint32_t key[7][2];
    for (int c = 0; c < 7; c++) {
        for (int p = 0; p < 2; p++) {
            iodfg_eventlog_key(log, intern(log, calls[c]),
                               intern(log, p ? "/scratch/run/shared" : "/scratch/run/own"),
                               &key[c][p]);
        }
    }
    struct iodfg_columns col;
    memset(&col, 0, sizeof(col));
    col.start_ns = malloc(n * 8);
    col.dur_ns = malloc(n * 8);
    col.size = malloc(n * 8);
    col.offset = malloc(n * 8);
    col.req = malloc(n * 8);
    col.key = malloc(n * 4);
    col.err = calloc(n, 4);
    col.pid = malloc(n * 4);
    col.fd = malloc(n * 4);
    struct iodfg_case_info *cases = calloc(nc, sizeof(*cases));
    uint64_t *off = malloc((nc + 1) * sizeof(*off));
    uint64_t s = 88172645463325252ull, e = 0;
    for (uint32_t c = 0; c < nc; c++) {
        char name[64];
        snprintf(name, sizeof(name), "run_node%u_%u", c % 8, c);
        cases[c].name = intern(log, name);
        snprintf(name, sizeof(name), "node%u", c % 8);
        cases[c].host = intern(log, name);
        off[c] = e;
        uint64_t end = (c + 1) * n / nc;
        int64_t t = 1000000000 + (int64_t)(c % 16) * 1000, pos = 0;
        int p = c & 1;
        for (uint64_t i = 0; e < end; i++, e++) {
            s ^= s << 13, s ^= s >> 7, s ^= s << 17;
            int op = i == 0 ? 0 : e + 1 == end ? 6 : 1 + (int)((i - 1) % 5);
            int64_t size = op >= 2 && op <= 5 ? 65536 >> (s % 4) : IODFG_UNKNOWN;
            col.start_ns[e] = t;
            col.dur_ns[e] = 2000 + (int64_t)(s % 20000);
            col.key[e] = key[op][p];
            col.pid[e] = 1000 + (int32_t)c;
            col.fd[e] = 3;
            col.size[e] = size;
            col.req[e] = size;
            col.offset[e] = op == 1                ? (pos = (int64_t)(s % 1024) * 65536)
                            : (op == 3 || op == 5) ? pos + 65536
                                                   : IODFG_UNKNOWN;
            t += col.dur_ns[e] + (int64_t)(s >> 40) % 5000;
        }
    }
    off[nc] = e;
    if (iodfg_eventlog_adopt(log, &col, n, cases, off, nc, &err)) {
        fprintf(stderr, "adopt: %s\n", err.msg);
        exit(1);
    }
    return log;
}

int main(int argc, char **argv)
{
    uint64_t n = argc > 1 ? strtoull(argv[1], NULL, 10) : 10000000;
    uint32_t nc = argc > 2 ? (uint32_t)strtoul(argv[2], NULL, 10) : 64;
    double t0 = now();
    struct iodfg_eventlog *log = make_log(n, nc);
    double t1 = now();
    // mapping: one activity per key (call:path), like the default f-hat
    struct iodfg_mapping map;
    memset(&map, 0, sizeof(map));
    map.nkeys = iodfg_eventlog_key_count(log);
    map.nactivities = map.nkeys;
    map.activity_of_key = malloc(map.nkeys * sizeof(uint32_t));
    for (uint32_t k = 0; k < map.nkeys; k++) {
        map.activity_of_key[k] = k;
    }
    struct iodfg_selection sel;
    iodfg_selection_all(&sel);
    struct iodfg_error err;
    iodfg_error_clear(&err);
    struct iodfg_timeline tl;
    struct iodfg_binned bn;
    struct iodfg_bandwidth bw;
    struct iodfg_serial sr;
    struct iodfg_access ac;
    iodfg_binned_init(&bn);
    iodfg_bandwidth_init(&bw);
    iodfg_serial_init(&sr);
    iodfg_access_init(&ac);
    struct iodfg_bin_opts o = {.dt_ns = 0, .threshold = 0, .by = IODFG_BY_HOST};
    double a = now();
    int rc = iodfg_timeline_build(&tl, log, &err);
    double b = now();
    rc |= iodfg_binned_build(&bn, log, &map, &sel, &o, NULL, &err);
    double c = now();
    rc |= iodfg_bandwidth_build(&bw, log, &map, &sel, &err);
    double d = now();
    rc |= iodfg_serial_build(&sr, log, &map, &sel, &tl, NULL, &err);
    double e = now();
    rc |= iodfg_access_build(&ac, log, &map, &sel, 4096, NULL, &err);
    double f = now();
    if (rc) {
        fprintf(stderr, "bench_metrics: %s\n", err.msg);
        return 1;
    }
    printf("bench_metrics: %llu events, %u cases (synthetic log built in %.0f ms)\n",
           (unsigned long long)n, nc, (t1 - t0) * 1e3);
    printf("  timeline (shared with stats)  %7.1f ms\n", (b - a) * 1e3);
    printf("  characterisation bins+metrics %7.1f ms  (%u bins, %u servers, I_w %.3f)\n",
           (c - b) * 1e3, bn.nbins, bn.nservers, bn.dir[1].intensity);
    printf("  bandwidth + time shares       %7.1f ms  (write effective %.3g B/s)\n", (d - c) * 1e3,
           bw.overall[IODFG_BW_WRITE].effective);
    printf("  stair-case sweep              %7.1f ms\n", (e - d) * 1e3);
    printf("  access patterns + histograms  %7.1f ms  (%zu files)\n", (f - e) * 1e3, ac.nfiles);
    printf("  sum of the parts              %7.1f ms (one thread, without the timeline)\n",
           (f - b) * 1e3);
    struct iodfg_characterization ch;
    iodfg_characterization_init(&ch);
    double best = 1e9;
    for (int rep = 0; rep < 3; rep++) {
        double g = now();
        if (iodfg_characterize(&ch, log, &map, &sel, &o, 4096, &tl, 2, NULL, &err)) {
            fprintf(stderr, "bench_metrics: %s\n", err.msg);
            return 1;
        }
        double h = now();
        best = h - g < best ? h - g : best;
    }
    printf("  iodfg_characterize, 2 threads %7.1f ms (best of 3; all metrics, timeline given)\n",
           best * 1e3);
    iodfg_characterization_fini(&ch);
    iodfg_binned_fini(&bn);
    iodfg_bandwidth_fini(&bw);
    iodfg_serial_fini(&sr);
    iodfg_access_fini(&ac);
    iodfg_timeline_fini(&tl);
    free(map.activity_of_key);
    iodfg_eventlog_free(log);
    return 0;
}
