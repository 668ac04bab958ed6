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

/* The edge table. The engine embeds it in its own structures (init/fini); every other user
 * holds a pointer from iodfg_dfg_new. */
struct iodfg_dfg {
    uint32_t nactivities; /* activity ids are < nactivities */
    uint64_t traces;      /* non-empty traces (empty ones add nothing, not a ●→■ edge) */
    struct iodfg_dfg_edge *edges; /* nedges slots, count 0 = absent */
    size_t nedges, cap;
    uint32_t *stamp;  /* per edge: last trace that counted it (for `cases`) */
    uint8_t *touched; /* per edge: set when counting changed the slot (cleared by the caller) */
    uint32_t *index;  /* open-addressing hash of (from, to) -> edge slot + 1 */
    size_t index_cap;
    uint32_t next_stamp; /* stamp of the next trace counted */
};

void iodfg_dfg_init(struct iodfg_dfg *g);
void iodfg_dfg_fini(struct iodfg_dfg *g);

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
