/* SPDX-License-Identifier: MIT */
/* Benchmark of the pictures' models on an event log (make bench gives it the IOR-like log it
 * converts): what a view computes for its first draw after a rebuild, and the SVG writers.
 * Usage: bench_pictures LOG.h5 [--runs R] [--bins B]
 * Every run starts from empty models (no memory of an earlier build reused): a first draw.
 * Steps (each printed as "NAME_ms: min X median Y (R runs) cpu min Z": wall and CPU time of
 * the process, CPU time being what a shared machine's load does not inflate):
 *   heatmap       rows = cases, B bins over the whole span (the Heatmap view's first draw)
 *   heatmap_zoom  the same over the middle tenth of the span (a zoom)
 *   timeline      rows = activities with the exact peak per bin (the timeline picture)
 *   offsets       the offset map of the data file with the most bytes (the Offset view)
 *   svg_*         writing each picture's SVG from its model */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "iodfg/buf.h"
#include "iodfg/error.h"
#include "iodfg/eventlog.h"
#include "iodfg/heatmap.h"
#include "iodfg/mapping.h"
#include "iodfg/offsetmap.h"
#include "iodfg/picture.h"
#include "iodfg/session.h"
#include "iodfg/store.h"
#include "iodfg/svg.h"

#define MAX_RUNS 64

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

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

static void report(const char *name, double *ms, double *cpu, int n, const char *extra)
{
    qsort(ms, (size_t)n, sizeof(double), cmp_double);
    qsort(cpu, (size_t)n, sizeof(double), cmp_double);
    printf("%s_ms: min %.1f median %.1f (%d runs) cpu min %.1f%s%s\n", name, ms[0], ms[n / 2], n,
           cpu[0], extra ? "  " : "", extra ? extra : "");
}

static void die(const char *what, const struct iodfg_error *err)
{
    char buf[600];
    fprintf(stderr, "bench_pictures: %s: %s\n", what, iodfg_error_format(err, buf, sizeof(buf)));
    exit(1);
}

struct ctx {
    struct iodfg_picture_input in;
    struct iodfg_heatmap hm;
    struct iodfg_offsetmap om;
    struct iodfg_buf svg;
    uint32_t bins;
};

static void heatmap(struct ctx *x, enum iodfg_heatmap_by by, int zoom, int peaks)
{
    struct iodfg_heatmap_opts o = {.by = by, .nbins = x->bins};
    if (zoom) {
        int64_t a = x->hm.span_from_ns, w = x->hm.span_to_ns - a;
        o.from_ns = a + w / 2 - w / 20;
        o.to_ns = a + w / 2 + w / 20;
    }
    struct iodfg_picture_input in = x->in;
    in.tl = peaks ? x->in.tl : NULL;
    struct iodfg_error err;
    iodfg_error_clear(&err);
    if (iodfg_heatmap_build(&x->hm, &in, &o, &err)) {
        die("heatmap", &err);
    }
}

int main(int argc, char **argv)
{
    int runs = 5;
    struct ctx x = {.bins = 100};
    const char *path = NULL;
    for (int i = 1; i < argc; i++) {
        if (!strcmp(argv[i], "--runs") && i + 1 < argc) {
            runs = atoi(argv[++i]);
        } else if (!strcmp(argv[i], "--bins") && i + 1 < argc) {
            x.bins = (uint32_t)atoi(argv[++i]);
        } else {
            path = argv[i];
        }
    }
    if (!path || runs < 1 || runs > MAX_RUNS) {
        fprintf(stderr, "usage: bench_pictures LOG.h5 [--runs 1..%d] [--bins B]\n", MAX_RUNS);
        return 2;
    }
    struct iodfg_error err;
    iodfg_error_clear(&err);
    double t = now_ms();
    struct iodfg_eventlog *log = iodfg_store_load(path, IODFG_COL_ALL, NULL, NULL, &err);
    if (!log) {
        die(path, &err);
    }
    double load = now_ms() - t;
    t = now_ms();
    struct iodfg_session *s = iodfg_session_new(log, &err);
    if (!s || iodfg_session_rebuild(s, &err)) {
        die("session", &err);
    }
    printf("log: %llu events in %u cases; load %.0f ms, session rebuild %.0f ms (not timed "
           "below)\n",
           (unsigned long long)iodfg_eventlog_event_count(log), iodfg_eventlog_case_count(log),
           load, now_ms() - t);
    struct iodfg_selection sel;
    iodfg_picture_input_session(&x.in, &sel, s, NULL);
    iodfg_heatmap_init(&x.hm);
    iodfg_offsetmap_init(&x.om);
    iodfg_buf_init(&x.svg);
    double ms[9][MAX_RUNS], cpu[9][MAX_RUNS], c;
    size_t svg_len[3] = {0, 0, 0};
    for (int r = 0; r < runs; r++) { // each run a first draw: the models start empty
        iodfg_heatmap_fini(&x.hm);
        iodfg_offsetmap_fini(&x.om);
        t = now_ms();
        c = cpu_ms();
        heatmap(&x, IODFG_HEATMAP_CASE, 0, 0);
        ms[0][r] = now_ms() - t;
        cpu[0][r] = cpu_ms() - c;
        t = now_ms();
        c = cpu_ms();
        iodfg_buf_clear(&x.svg);
        iodfg_svg_heatmap(&x.svg, &x.hm, NULL, NULL);
        ms[4][r] = now_ms() - t;
        cpu[4][r] = cpu_ms() - c;
        svg_len[0] = x.svg.len;
        t = now_ms();
        c = cpu_ms();
        heatmap(&x, IODFG_HEATMAP_CASE, 1, 0);
        ms[1][r] = now_ms() - t;
        cpu[1][r] = cpu_ms() - c;
        t = now_ms();
        c = cpu_ms();
        heatmap(&x, IODFG_HEATMAP_ACTIVITY, 0, 1);
        ms[2][r] = now_ms() - t;
        cpu[2][r] = cpu_ms() - c;
        t = now_ms();
        c = cpu_ms();
        iodfg_buf_clear(&x.svg);
        iodfg_svg_timeline(&x.svg, &x.hm, NULL, NULL);
        ms[5][r] = now_ms() - t;
        cpu[5][r] = cpu_ms() - c;
        svg_len[1] = x.svg.len;
        t = now_ms();
        c = cpu_ms();
        if (iodfg_offsetmap_build(&x.om, &x.in, UINT32_MAX, &err)) {
            die("offsets", &err);
        }
        ms[3][r] = now_ms() - t;
        cpu[3][r] = cpu_ms() - c;
        t = now_ms();
        c = cpu_ms();
        iodfg_buf_clear(&x.svg);
        iodfg_svg_offsets(&x.svg, &x.om, NULL, NULL);
        ms[6][r] = now_ms() - t;
        cpu[6][r] = cpu_ms() - c;
        svg_len[2] = x.svg.len;
    }
    char extra[160];
    snprintf(extra, sizeof(extra), "(%u bins)", x.bins);
    report("heatmap", ms[0], cpu[0], runs, extra);
    report("heatmap_zoom", ms[1], cpu[1], runs, extra);
    report("timeline", ms[2], cpu[2], runs, extra);
    snprintf(extra, sizeof(extra), "(%zu points)", x.om.npoints);
    report("offsets", ms[3], cpu[3], runs, extra);
    snprintf(extra, sizeof(extra), "(%zu bytes)", svg_len[0]);
    report("svg_heatmap", ms[4], cpu[4], runs, extra);
    snprintf(extra, sizeof(extra), "(%zu bytes)", svg_len[1]);
    report("svg_timeline", ms[5], cpu[5], runs, extra);
    snprintf(extra, sizeof(extra), "(%zu bytes)", svg_len[2]);
    report("svg_offsets", ms[6], cpu[6], runs, extra);
    iodfg_buf_fini(&x.svg);
    iodfg_offsetmap_fini(&x.om);
    iodfg_heatmap_fini(&x.hm);
    iodfg_session_free(s);
    iodfg_eventlog_free(log);
    return 0;
}
