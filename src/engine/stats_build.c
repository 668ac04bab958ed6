/* SPDX-License-Identifier: MIT */
/* Activity statistics, the top of the stats files: the full computation and the walk's entry
 * points. The sums, the sweep, the walk and the percentiles live in the other stats_*.c, below
 * this file; the types they share are in stats.h and stats_priv.h. */
#include "config.h"

#include "iodfg/stats.h"

#include <stdlib.h>
#include <string.h>

#include "iodfg/dfg.h"
#include "iodfg/error.h"
#include "iodfg/eventlog.h"
#include "iodfg/mapping.h"
#include "iodfg/timeline.h"
#include "iodfg/trace.h"

#include "dfg_priv.h"
#include "stats_priv.h"

int iodfg_stats_scan(struct iodfg_stats *st, struct iodfg_dfg *g, const struct iodfg_eventlog *log,
                     const uint32_t *act, const struct iodfg_selection *sel, const uint32_t *cases,
                     size_t ncases, const uint8_t *dirty, int act_dirty_none,
                     const uint8_t *edge_dirty, struct iodfg_error *err)
{
    return iodfg_stats_scan_kept(st, g, log, act, sel, cases, ncases, dirty, act_dirty_none,
                                 edge_dirty, NULL, NULL, err);
}

int iodfg_stats_edge_medians(struct iodfg_dfg *g, const struct iodfg_eventlog *log,
                             const uint32_t *act, const struct iodfg_selection *sel,
                             const uint32_t *cases, size_t ncases, const uint8_t *edge_dirty,
                             struct iodfg_error *err)
{
    if (!g->nedges) {
        return 0;
    }
    return iodfg_stats_scan(NULL, g, log, act, sel, cases, ncases, NULL, 1, edge_dirty, err);
}

int iodfg_stats_build(struct iodfg_stats *st, const struct iodfg_eventlog *log,
                      const struct iodfg_mapping *map, const struct iodfg_selection *sel,
                      struct iodfg_error *err)
{
    struct iodfg_timeline tl;
    uint64_t n = iodfg_eventlog_event_count(log);
    uint32_t nkeys = iodfg_eventlog_key_count(log);
    uint64_t *bits = malloc((size_t)((n + 63) / 64 + 1) * sizeof(*bits));
    struct iodfg_key_sums *sums = malloc(((size_t)nkeys + 1) * sizeof(*sums));
    int rc = -1;
    memset(&tl, 0, sizeof(tl));
    if (!bits || !sums) {
        iodfg_error_set(err, IODFG_E_NOMEM, "out of memory for statistics");
        goto out;
    }
    iodfg_stats_reset(st);
    if (iodfg_stats_resize(st, map->nactivities, err) || iodfg_timeline_build(&tl, log, err)) {
        goto out;
    }
    iodfg_stats_select_bits(bits, log, sel);
    iodfg_stats_key_sums(sums, nkeys, log, bits);
    iodfg_stats_aggregate(st, sums, map->activity_of_key, nkeys, NULL);
    if (iodfg_stats_sweep(st, log, &tl, NULL, 0, bits, map->activity_of_key, NULL, NULL, NULL, 1,
                          err) ||
        iodfg_stats_scan(st, NULL, log, map->activity_of_key, sel, NULL, 0, NULL, 0, NULL, err)) {
        goto out;
    }
    rc = 0;
out:
    iodfg_timeline_fini(&tl);
    free(bits);
    free(sums);
    return rc;
}
