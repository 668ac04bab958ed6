/* SPDX-License-Identifier: MIT */
/* The timeline: the start and end points of every event with an interval in time order, merged
 * from sorted per-case runs with a heap (the input of the concurrency sweep). */
#include "config.h"

#include "iodfg/timeline.h"

#include <stdlib.h>
#include <string.h>

#include "iodfg/error.h"
#include "iodfg/eventlog.h"
#include "iodfg/stats.h"

struct run {
    int64_t t;
    uint32_t e, kind;  /* current event, 0 = end point, 1 = start point */
    uint64_t pos, end; /* next position in the run, end of the run */
};

static int run_less(const struct run *a, const struct run *b)
{
    if (a->t != b->t) {
        return a->t < b->t;
    }
    if (a->kind != b->kind) {
        return a->kind < b->kind;
    }
    return a->e < b->e;
}

static void sift_down(struct run *h, size_t n, size_t i)
{
    struct run x = h[i];
    for (;;) {
        size_t l = 2 * i + 1, m = l;
        if (l >= n) {
            break;
        }
        if (l + 1 < n && run_less(&h[l + 1], &h[l])) {
            m = l + 1;
        }
        if (!run_less(&h[m], &x)) {
            break;
        }
        h[i] = h[m];
        i = m;
    }
    h[i] = x;
}

static int64_t dur_of(const struct iodfg_columns *col, uint64_t e)
{
    return col->dur_ns ? col->dur_ns[e] : IODFG_UNKNOWN;
}

static int has_interval(const struct iodfg_columns *col, uint64_t e)
{
    return dur_of(col, e) > 0;
}

static int64_t end_time(const struct iodfg_columns *col, uint64_t e)
{
    return col->start_ns[e] + dur_of(col, e);
}

static int cmp_end(const void *pa, const void *pb, void *ctx)
{
    const struct iodfg_columns *col = ctx;
    uint32_t a = *(const uint32_t *)pa, b = *(const uint32_t *)pb;
    int64_t ta = end_time(col, a), tb = end_time(col, b);
    if (ta != tb) {
        return ta < tb ? -1 : 1;
    }
    return a < b ? -1 : a > b;
}

/* Load the run's current element (its position must be valid). */
static void run_load(struct run *r, const struct iodfg_columns *col, const uint32_t *ends)
{
    if (r->kind) {
        r->e = (uint32_t)r->pos;
        r->t = col->start_ns[r->pos];
    } else {
        r->e = ends[r->pos];
        r->t = end_time(col, r->e);
    }
}

/* Advance a start run to its next event with an interval; 0 when exhausted. */
static int run_next_start(struct run *r, const struct iodfg_columns *col)
{
    while (r->pos < r->end && !has_interval(col, r->pos)) {
        r->pos++;
    }
    return r->pos < r->end;
}

/* Merge the hn runs of h (a heap is made here) into tl->pts from *out on. */
static void merge(struct iodfg_timeline *tl, uint64_t *out, struct run *h, size_t hn,
                  const struct iodfg_columns *col, const uint32_t *ends)
{
    for (size_t i = hn / 2; i-- > 0;) {
        sift_down(h, hn, i);
    }
    while (hn) {
        struct run *r = &h[0];
        tl->pts[(*out)++] = r->e | (r->kind ? IODFG_PT_START : 0);
        r->pos++;
        int more = r->kind ? run_next_start(r, col) : r->pos < r->end;
        if (more) {
            run_load(r, col, ends);
        } else {
            h[0] = h[--hn];
        }
        if (hn) {
            sift_down(h, hn, 0);
        }
    }
}

int iodfg_timeline_build(struct iodfg_timeline *tl, const struct iodfg_eventlog *log,
                         struct iodfg_error *err)
{
    memset(tl, 0, sizeof(*tl));
    uint64_t n = iodfg_eventlog_event_count(log);
    const struct iodfg_columns *col = iodfg_eventlog_columns(log);
    if (n >= IODFG_PT_START) {
        return iodfg_error_set(err, IODFG_E_LIMIT, "too many events for the timeline (%llu)",
                               (unsigned long long)n);
    }
    if (!col->start_ns) {
        return iodfg_error_set(err, IODFG_E_ARG, "the event log has no start column");
    }
    const uint64_t *off = iodfg_eventlog_case_offsets(log);
    uint32_t nc = iodfg_eventlog_case_count(log);
    uint64_t m = 0;
    for (uint64_t e = 0; e < n; e++) {
        m += has_interval(col, e);
    }
    tl->n = n;
    tl->npts = 2 * m;
    tl->pts = malloc((size_t)(m ? 2 * m : 1) * sizeof(*tl->pts));
    uint32_t *ends = malloc((size_t)(m ? m : 1) * sizeof(*ends));
    uint64_t *eoff = malloc(((size_t)nc + 1) * sizeof(*eoff));
    struct run *h = malloc(((size_t)nc * 2 + 1) * sizeof(*h));
    if (!tl->pts || !ends || !eoff || !h) {
        free(ends);
        free(eoff);
        free(h);
        iodfg_timeline_fini(tl);
        return iodfg_error_set(err, IODFG_E_NOMEM, "out of memory for the timeline");
    }
    // each case's events with an interval, sorted by end (usually already in order)
    uint64_t k = 0;
    for (uint32_t c = 0; c < nc; c++) {
        eoff[c] = k;
        int sorted = 1;
        for (uint64_t e = off[c]; e < off[c + 1]; e++) {
            if (has_interval(col, e)) {
                sorted = sorted && (k == eoff[c] || end_time(col, ends[k - 1]) <= end_time(col, e));
                ends[k++] = (uint32_t)e;
            }
        }
        if (!sorted) {
            qsort_r(ends + eoff[c], (size_t)(k - eoff[c]), sizeof(*ends), cmp_end,
                    (void *)(uintptr_t)col);
        }
    }
    eoff[nc] = k;
    // merge the 2 * nc sorted runs with a heap, one clock after the other: times of different
    // clocks are never compared (each clock's points end with its last interval closed)
    uint64_t out = 0;
    for (int clock = 0; clock < IODFG_CLOCK__N; clock++) {
        size_t hn = 0;
        for (uint32_t c = 0; c < nc; c++) {
            if ((int)iodfg_eventlog_case(log, c)->clock != clock) {
                continue;
            }
            struct run r = {0, 0, 1, off[c], off[c + 1]};
            if (run_next_start(&r, col)) {
                run_load(&r, col, ends);
                h[hn++] = r;
            }
            if (eoff[c] < eoff[c + 1]) {
                r = (struct run){0, 0, 0, eoff[c], eoff[c + 1]};
                run_load(&r, col, ends);
                h[hn++] = r;
            }
        }
        merge(tl, &out, h, hn, col, ends);
    }
    free(ends);
    free(eoff);
    free(h);
    return 0;
}

void iodfg_timeline_fini(struct iodfg_timeline *tl)
{
    free(tl->pts);
    memset(tl, 0, sizeof(*tl));
}
