/* SPDX-License-Identifier: MIT */
/* Traces: the selected range of a case and the walk over its transitions (one trace per case, or
 * one per pid grouped by a stable counting sort). */
#include "config.h"

#include "iodfg/trace.h"

#include <stdlib.h>

#include "iodfg/dfg.h"
#include "iodfg/error.h"
#include "iodfg/eventlog.h"
#include "iodfg/mapping.h"

static uint64_t lower_bound(const int64_t *v, uint64_t lo, uint64_t hi, int64_t x)
{
    while (lo < hi) {
        uint64_t mid = lo + (hi - lo) / 2;
        if (v[mid] < x) {
            lo = mid + 1;
        } else {
            hi = mid;
        }
    }
    return lo;
}

int iodfg_trace_case_range(const struct iodfg_eventlog *log, const struct iodfg_selection *sel,
                           uint32_t c, uint64_t *lo, uint64_t *hi)
{
    if (sel->case_on && !sel->case_on[c]) {
        return 0;
    }
    const uint64_t *off = iodfg_eventlog_case_offsets(log);
    const int64_t *start = iodfg_eventlog_columns(log)->start_ns;
    *lo = off[c];
    *hi = off[c + 1];
    if (start && sel->from_ns != INT64_MIN) {
        *lo = lower_bound(start, *lo, *hi, sel->from_ns);
    }
    if (start && sel->to_ns != INT64_MAX) {
        *hi = lower_bound(start, *lo, *hi, sel->to_ns);
    }
    return *lo < *hi;
}

static int64_t end_of(const struct iodfg_columns *col, uint64_t e)
{
    int64_t d = col->dur_ns ? col->dur_ns[e] : IODFG_UNKNOWN;
    return col->start_ns[e] + (d == IODFG_UNKNOWN ? 0 : d);
}

/* Walk one trace made of the events idx[0..n) (or lo..hi when idx is NULL). */
static long walk_trace(const struct iodfg_columns *col, const uint32_t *act, const uint32_t *idx,
                       uint64_t lo, uint64_t hi, uint32_t trace, iodfg_transition_fn fn, void *ctx)
{
    uint32_t prev = IODFG_NODE_START;
    int64_t prev_end = 0;
    for (uint64_t i = lo; i < hi; i++) {
        uint64_t e = idx ? idx[i] : i;
        uint32_t a = act[col->key[e]];
        if (a == IODFG_NO_ACTIVITY) {
            continue;
        }
        int has_gap = prev != IODFG_NODE_START;
        if (fn(ctx, prev, a, has_gap, has_gap ? col->start_ns[e] - prev_end : 0, trace, e)) {
            return -1;
        }
        prev = a;
        prev_end = end_of(col, e);
    }
    if (prev == IODFG_NODE_START) {
        return 0; // an empty trace contributes nothing, not a ●→■ edge
    }
    return fn(ctx, prev, IODFG_NODE_END, 0, 0, trace, UINT64_MAX) ? -1 : 1;
}

static size_t pid_lookup(const int32_t *pids, const uint32_t *used, size_t cap, int32_t pid)
{
    size_t i = ((uint32_t)pid * 2654435761u) & (cap - 1);
    while (used[i] && pids[i] != pid) {
        i = (i + 1) & (cap - 1);
    }
    return i;
}

/* Number the pids of events [lo, hi) in order of first appearance: tr[e - lo] = trace number.
 * Returns the number of traces, or -1 when out of memory. */
static long number_pids(const struct iodfg_columns *col, uint64_t lo, uint64_t hi, uint32_t *tr)
{
    size_t cap = 16, ntr = 0;
    int32_t *pids = malloc(cap * sizeof(*pids));
    uint32_t *used = calloc(cap, sizeof(*used)); // trace number + 1, 0 = empty
    if (!pids || !used) {
        goto nomem;
    }
    for (uint64_t e = lo; e < hi; e++) {
        size_t i = pid_lookup(pids, used, cap, col->pid[e]);
        if (!used[i]) {
            if (2 * (ntr + 1) > cap) { // keep the load at most 1/2
                size_t ncap = cap * 2;
                int32_t *np = malloc(ncap * sizeof(*np));
                uint32_t *nu = calloc(ncap, sizeof(*nu));
                if (!np || !nu) {
                    free(np);
                    free(nu);
                    goto nomem;
                }
                for (size_t k = 0; k < cap; k++) {
                    if (used[k]) {
                        size_t j = pid_lookup(np, nu, ncap, pids[k]);
                        np[j] = pids[k];
                        nu[j] = used[k];
                    }
                }
                free(pids);
                free(used);
                pids = np;
                used = nu;
                cap = ncap;
                i = pid_lookup(pids, used, cap, col->pid[e]);
            }
            pids[i] = col->pid[e];
            used[i] = (uint32_t)++ntr;
        }
        tr[e - lo] = used[i] - 1;
    }
    free(pids);
    free(used);
    return (long)ntr;
nomem:
    free(pids);
    free(used);
    return -1;
}

long iodfg_trace_walk_case(const struct iodfg_eventlog *log, const uint32_t *act, uint64_t lo,
                           uint64_t hi, int per_pid, iodfg_transition_fn fn, void *ctx,
                           struct iodfg_error *err)
{
    const struct iodfg_columns *col = iodfg_eventlog_columns(log);
    if (!per_pid || !col->pid) {
        long n = walk_trace(col, act, NULL, lo, hi, 0, fn, ctx);
        return n < 0 ? iodfg_error_set(err, IODFG_E_NOMEM, "out of memory counting transitions")
                     : n;
    }
    // per pid: group the events by pid (counting sort, stable) and walk each pid's trace in
    // turn, so that the transitions of one trace are reported together
    size_t n = (size_t)(hi - lo);
    if (!n) {
        return 0;
    }
    uint32_t *tr = malloc(n * sizeof(*tr));
    uint32_t *idx = malloc(n * sizeof(*idx));
    uint64_t *pos = NULL;
    long ntr = -1, nonempty = 0;
    if (tr && idx) {
        ntr = number_pids(col, lo, hi, tr);
    }
    if (ntr >= 0) {
        pos = calloc((size_t)ntr + 1, sizeof(*pos));
    }
    if (!pos) {
        free(tr);
        free(idx);
        return iodfg_error_set(err, IODFG_E_NOMEM, "out of memory counting transitions");
    }
    for (size_t i = 0; i < n; i++) {
        pos[tr[i] + 1]++;
    }
    for (long t = 0; t < ntr; t++) {
        pos[t + 1] += pos[t];
    }
    for (size_t i = 0; i < n; i++) {
        idx[pos[tr[i]]++] = (uint32_t)(lo + i);
    }
    uint64_t begin = 0;
    for (long t = 0; t < ntr && nonempty >= 0; t++) {
        long r = walk_trace(col, act, idx, begin, pos[t], (uint32_t)nonempty, fn, ctx);
        nonempty = r < 0 ? -1 : nonempty + r;
        begin = pos[t];
    }
    free(tr);
    free(idx);
    free(pos);
    return nonempty < 0 ? iodfg_error_set(err, IODFG_E_NOMEM, "out of memory counting transitions")
                        : nonempty;
}
