/* SPDX-License-Identifier: MIT */
/* Engine-internal building blocks of the DFG used by the incremental analysis and the
 * statistics: counting and uncounting the traces of a case into the edge table. */
#ifndef IODFG_ENGINE_DFG_PRIV_H
#define IODFG_ENGINE_DFG_PRIV_H

#include <stddef.h>
#include <stdint.h>

#include "iodfg/dfg.h"

#include "keysums.h"

struct iodfg_error;
struct iodfg_eventlog;

/* Forget every edge (keeps the memory). */
void iodfg_dfg_clear(struct iodfg_dfg *g);
/* The slot of edge (from, to), created with count 0 when missing. NULL when out of memory. */
struct iodfg_dfg_edge *iodfg_dfg_slot(struct iodfg_dfg *g, uint32_t from, uint32_t to);
/* Add (sign = +1) or remove (sign = -1) the transitions of one case's traces (events [lo, hi),
 * one trace, or one per pid) to g, counting gap sums (not means or medians). 0 or -1 with err
 * (out of memory). */
int iodfg_dfg_count_case(struct iodfg_dfg *g, const struct iodfg_eventlog *log, const uint32_t *act,
                         uint64_t lo, uint64_t hi, int per_pid, int sign, struct iodfg_error *err);
/* iodfg_dfg_count_case (sign +1, one trace per case) that also adds every event of [lo, hi)
 * to its key's sums in the same walk. 0 or -1 with err (out of memory). */
int iodfg_dfg_count_case_sums(struct iodfg_dfg *g, const struct iodfg_eventlog *log,
                              const uint32_t *act, uint64_t lo, uint64_t hi,
                              struct iodfg_key_sums *sums, struct iodfg_error *err);
/* Recompute gap_mean_ns of every edge from gap_sum_ns / gap_n. */
void iodfg_dfg_finish_means(struct iodfg_dfg *g);

#endif
