/* SPDX-License-Identifier: MIT */
/* The progress bar of long reads and writes, on standard error when it is a terminal. */
#include "config.h"

#include "cli_progress.h"

#include <stdio.h>
#include <time.h>
#include <unistd.h>

#include "cli.h"

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
