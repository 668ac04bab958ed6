/* SPDX-License-Identifier: MIT */
/* The clocks of a log's cases: which are used, aligning every case at its start, and where
 * relative times count from. */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "iodfg/eventlog.h"

#include "eventlog_priv.h"

int iodfg_eventlog_clocks(const struct iodfg_eventlog *log, const uint8_t *case_on, uint32_t *n)
{
    memset(n, 0, IODFG_CLOCK__N * sizeof(*n));
    for (uint32_t c = 0; c < log->ncases; c++) {
        if ((!case_on || case_on[c]) && log->offsets[c + 1] > log->offsets[c]) {
            n[log->cases[c].clock < IODFG_CLOCK__N ? log->cases[c].clock : 0]++;
        }
    }
    int used = 0;
    for (int k = 0; k < IODFG_CLOCK__N; k++) {
        used += n[k] > 0;
    }
    return used;
}

enum iodfg_clock iodfg_clock_majority(const uint32_t *n)
{
    static const enum iodfg_clock order[] = {IODFG_CLOCK_TIME_OF_DAY, IODFG_CLOCK_EPOCH,
                                             IODFG_CLOCK_RELATIVE, IODFG_CLOCK_NONE};
    enum iodfg_clock best = order[0];
    for (size_t i = 1; i < sizeof(order) / sizeof(order[0]); i++) {
        best = n[order[i]] > n[best] ? order[i] : best;
    }
    return best;
}

uint32_t iodfg_eventlog_keep_clock(const struct iodfg_eventlog *log, uint8_t *mask,
                                   enum iodfg_clock clock)
{
    uint32_t cleared = 0;
    for (uint32_t c = 0; c < log->ncases; c++) {
        if (mask[c] && log->cases[c].clock != clock && log->offsets[c + 1] > log->offsets[c]) {
            mask[c] = 0;
            cleared++;
        }
    }
    return cleared;
}

int iodfg_eventlog_align_starts(struct iodfg_eventlog *log)
{
    int64_t *start = log->cols.start_ns;
    int64_t *t0 = calloc((size_t)log->ncases + 1, sizeof(*t0));
    if (!t0) {
        return -1;
    }
    log->has_origin = 0; // every case starts at 0 now
    for (uint32_t c = 0; c < log->ncases; c++) {
        uint64_t lo = log->offsets[c], hi = log->offsets[c + 1];
        t0[c] = start && hi > lo ? start[lo] : 0; // a case is sorted by start
        for (uint64_t e = lo; start && e < hi; e++) {
            start[e] -= t0[c];
        }
        log->cases[c].clock = IODFG_CLOCK_RELATIVE;
    }
    for (uint32_t h = 0; h < log->nhandles; h++) {
        struct iodfg_handle *hd = &log->handles[h];
        int64_t d = hd->case_id < log->ncases ? t0[hd->case_id] : 0;
        hd->created_ns -= hd->created_ns != IODFG_UNKNOWN ? d : 0;
        hd->destroyed_ns -= hd->destroyed_ns != IODFG_UNKNOWN ? d : 0;
    }
    free(t0);
    return 0;
}

int64_t iodfg_eventlog_earliest_start(const struct iodfg_eventlog *log)
{
    const int64_t *start = log->cols.start_ns;
    int64_t t = INT64_MAX;
    for (uint32_t c = 0; start && c < log->ncases; c++) {
        if (log->offsets[c] < log->offsets[c + 1] && start[log->offsets[c]] < t) {
            t = start[log->offsets[c]]; // cases are sorted by start
        }
    }
    return t;
}

int64_t iodfg_eventlog_time_origin(const struct iodfg_eventlog *log)
{
    if (log->has_origin) {
        return log->origin_ns;
    }
    int64_t t = iodfg_eventlog_earliest_start(log);
    return t == INT64_MAX ? 0 : t;
}

void iodfg_eventlog_set_time_origin(struct iodfg_eventlog *log, int64_t ns)
{
    log->has_origin = 1;
    log->origin_ns = ns;
}
