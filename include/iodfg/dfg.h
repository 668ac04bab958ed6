/* SPDX-License-Identifier: MIT */
/* Directly-Follows Graph of an activity log (Sankaran et al. 2024, section IV-A), edge
 * statistics, pruning. */
#ifndef IODFG_DFG_H
#define IODFG_DFG_H

#include <stddef.h>
#include <stdint.h>

struct iodfg_error;
struct iodfg_eventlog;
struct iodfg_mapping;
struct iodfg_selection;

/* Node ids: activities are 0..nactivities-1; the start (●) and end (■) nodes are these. */
#define IODFG_NODE_START (UINT32_MAX - 1)
#define IODFG_NODE_END (UINT32_MAX - 2)

/* One edge (from, to). An edge whose count is 0 is absent (incremental updates keep the slot).
 * gap = start of the second event - (start + dur) of the first, unknown dur counted as 0; only
 * activity -> activity edges have gaps (gap_n = 0 on edges from ● or into ■). */
struct iodfg_dfg_edge {
    uint32_t from, to;
    uint64_t count;        /* times from directly precedes to in a trace */
    uint64_t cases;        /* traces (cases) containing the edge at least once */
    uint64_t gap_n;        /* gaps observed (count, or 0 for ●/■ edges) */
    int64_t gap_sum_ns;    /* exact sum of the gaps */
    double gap_mean_ns;    /* gap_sum_ns / gap_n, 0 when gap_n = 0 */
    int64_t gap_median_ns; /* lower median (nearest rank 50%); IODFG_UNKNOWN when gap_n = 0 */
};

/* The graph: a table of edges (with a hash index) plus trace counts. Its fields are the
 * engine's (src/engine/dfg_priv.h); read it through the functions below. */
struct iodfg_dfg;

/* An empty graph, or NULL with err (out of memory). */
struct iodfg_dfg *iodfg_dfg_new(struct iodfg_error *err);
void iodfg_dfg_free(struct iodfg_dfg *g);
/* The graph's activities (ids < this), non-empty traces, and edge slots: slot i holds
 * iodfg_dfg_edge_at(g, i) for 0 <= i < iodfg_dfg_slots(g); a slot whose count is 0 is absent. */
uint32_t iodfg_dfg_nactivities(const struct iodfg_dfg *g);
uint64_t iodfg_dfg_traces(const struct iodfg_dfg *g);
size_t iodfg_dfg_slots(const struct iodfg_dfg *g);
const struct iodfg_dfg_edge *iodfg_dfg_edge_at(const struct iodfg_dfg *g, size_t slot);
/* The edge (from, to) if its count is > 0, else NULL. Borrowed until g changes. */
const struct iodfg_dfg_edge *iodfg_dfg_find(const struct iodfg_dfg *g, uint32_t from, uint32_t to);
/* Number of present edges (count > 0). */
size_t iodfg_dfg_edge_count(const struct iodfg_dfg *g);

/* One-shot full build of the DFG of the selected events of log under mapping into g (cleared
 * first), edge gap medians included. Returns 0, or -1 with err (out of memory). */
int iodfg_dfg_build(struct iodfg_dfg *g, const struct iodfg_eventlog *log,
                    const struct iodfg_mapping *map, const struct iodfg_selection *sel,
                    struct iodfg_error *err);

/* ---- pruning (process-mining sliders) ----
 * 1. If top_k > 0, keep the top_k activities by count (ties: lower id first), else all
 *    activities with events; activities not kept are hidden with their edges (no re-linking).
 * 2. Keep edges between kept nodes whose count >= min_count.
 * 3. Connectivity: keep only nodes that are reachable from ● AND reach ■ over kept edges, and
 *    the kept edges between them. One pass suffices: every node on a ●→v path of a node v that
 *    reaches ■ also reaches ■ (through v), so removing the others never disconnects a survivor.
 * Pruning never adds edges. node_on gets nactivities flags, edge_on gets nedges flags (slot
 * order; absent slots 0). act_count[a] is the activity's event count (from the statistics). */
int iodfg_dfg_prune(const struct iodfg_dfg *g, const uint64_t *act_count, uint64_t min_count,
                    uint32_t top_k, uint8_t *node_on, uint8_t *edge_on, struct iodfg_error *err);

#endif
