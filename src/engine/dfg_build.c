/* SPDX-License-Identifier: MIT */
/* The one-shot DFG of a selection: every case counted, then the edge gap medians (which the
 * statistics walk computes). */
#include "config.h"

#include "iodfg/dfg.h"
#include "iodfg/eventlog.h"
#include "iodfg/mapping.h"
#include "iodfg/trace.h"

#include "dfg_priv.h"
#include "stats_priv.h"

int iodfg_dfg_build(struct iodfg_dfg *g, const struct iodfg_eventlog *log,
                    const struct iodfg_mapping *map, const struct iodfg_selection *sel,
                    struct iodfg_error *err)
{
    iodfg_dfg_clear(g);
    g->nactivities = map->nactivities;
    uint32_t ncase = iodfg_eventlog_case_count(log);
    for (uint32_t c = 0; c < ncase; c++) {
        uint64_t lo, hi;
        if (iodfg_trace_case_range(log, sel, c, &lo, &hi) &&
            iodfg_dfg_count_case(g, log, map->activity_of_key, lo, hi, sel->per_pid, 1, err)) {
            return -1;
        }
    }
    iodfg_dfg_finish_means(g);
    return iodfg_stats_edge_medians(g, log, map->activity_of_key, sel, NULL, 0, NULL, err);
}
