/* SPDX-License-Identifier: MIT */
/* The traces holding each activity, counted alone: the statistics walk counts them beside the
 * percentiles, and builds that leave the percentiles to a merge (an iodfg-mpi job's parts)
 * still need them. */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "iodfg/error.h"
#include "iodfg/eventlog.h"
#include "iodfg/mapping.h"
#include "iodfg/stats.h"
#include "iodfg/trace.h"

#include "stats_priv.h"

/* The count so far: an activity is counted once per trace, on the trace's stamp. */
struct case_count {
    uint32_t *stamp;
    uint64_t *n;
    uint32_t na, base;
};

static void count_in(struct case_count *cc, uint32_t a, uint32_t trace)
{
    if (a < cc->na && cc->stamp[a] != trace) {
        cc->stamp[a] = trace;
        cc->n[a]++;
    }
}

/* A transition of a per-pid trace: its target is one of the trace's events (or its end). */
static int count_step(void *ctx, uint32_t from, uint32_t to, int has_gap, int64_t gap_ns,
                      uint32_t trace, uint64_t ev)
{
    (void)from, (void)has_gap, (void)gap_ns, (void)ev;
    struct case_count *cc = ctx;
    count_in(cc, to, cc->base + trace + 1);
    return 0;
}

/* The events [lo, hi) of one case as one trace. */
static void count_case(struct case_count *cc, const struct iodfg_eventlog *log, const uint32_t *act,
                       const uint16_t *codes, uint64_t lo, uint64_t hi)
{
    const uint32_t *key = iodfg_eventlog_columns(log)->key;
    uint32_t tr = ++cc->base;
    for (uint64_t e = lo; e < hi; e++) {
        count_in(cc, codes ? iodfg_code_activity(codes[e]) : act[key[e]], tr);
    }
}

int iodfg_stats_count_cases(struct iodfg_stats *st, const struct iodfg_eventlog *log,
                            const uint32_t *act, const struct iodfg_selection *sel,
                            const uint16_t *codes, struct iodfg_error *err)
{
    struct case_count cc = {calloc((size_t)st->nactivities + 1, sizeof(*cc.stamp)),
                            calloc((size_t)st->nactivities + 1, sizeof(*cc.n)), st->nactivities, 0};
    int rc = cc.stamp && cc.n ? 0 : iodfg_error_set(err, IODFG_E_NOMEM, NULL);
    int per_pid = sel->per_pid && iodfg_eventlog_columns(log)->pid;
    uint32_t nc = iodfg_eventlog_case_count(log);
    for (uint32_t c = 0; rc == 0 && c < nc; c++) {
        uint64_t lo, hi;
        if (!iodfg_trace_case_range(log, sel, c, &lo, &hi)) {
            continue;
        }
        if (cc.base > UINT32_MAX / 2 - (hi - lo) - 2) { // the stamps would wrap: start again
            memset(cc.stamp, 0, (size_t)cc.na * sizeof(*cc.stamp));
            cc.base = 0;
        }
        if (!per_pid) {
            count_case(&cc, log, act, codes, lo, hi);
            continue;
        }
        long ntr = iodfg_trace_walk_case(log, act, lo, hi, 1, count_step, &cc, err);
        rc = ntr < 0 ? -1 : 0;
        cc.base += (uint32_t)(ntr < 0 ? 0 : ntr) + 1;
    }
    for (uint32_t a = 0; rc == 0 && a < cc.na; a++) {
        st->act[a].cases = cc.n[a];
    }
    free(cc.stamp);
    free(cc.n);
    return rc;
}
