/* SPDX-License-Identifier: MIT */
/* Engine-internal: the key-pair table of a selection (how often key a directly precedes key b in
 * a trace, with ● and ■) and the first tier of a rule edit made from it and the key sums: the
 * activities' decomposable statistics and, under a total mapping, the DFG's edge counts, in time
 * that depends on the keys, not on the events. */
#ifndef IODFG_ENGINE_KEYPAIRS_H
#define IODFG_ENGINE_KEYPAIRS_H

#include <stddef.h>
#include <stdint.h>

struct iodfg_analysis;
struct iodfg_dfg;
struct iodfg_error;
struct iodfg_eventlog;
struct iodfg_mapping;
struct iodfg_selection;
struct iodfg_stats;

struct iodfg_keypair {
    uint32_t from, to; /* keys, IODFG_NODE_START / IODFG_NODE_END for ● and ■ */
    uint64_t count;    /* 0: an empty slot */
};

/* An open-addressing table of key pairs; zeroed storage is an empty, invalid table. */
struct iodfg_keypairs {
    struct iodfg_keypair *slot; /* cap slots, a power of two */
    size_t cap, n;
    int valid; /* built for the analysis' current selection */
};

void iodfg_keypairs_fini(struct iodfg_keypairs *kp);
/* The log's events from which the build counts half of the cases on a second thread (tests set
 * 0 to split any log). */
extern uint64_t iodfg_keypairs_split_min;
/* Count the key pairs of every trace of sel (one per case, or one per pid with per_pid): the
 * transitions the DFG counts when every key is its own activity. 0 or -1 with err (memory). */
int iodfg_keypairs_build(struct iodfg_keypairs *kp, const struct iodfg_eventlog *log,
                         const struct iodfg_selection *sel, uint32_t nkeys,
                         struct iodfg_error *err);
/* The DFG's edge counts and traces under act (nact activities; every key of a pair must have an
 * activity) into g, cleared first; cases and gaps stay 0. 0 or -1 with err (memory). */
int iodfg_keypairs_dfg(const struct iodfg_keypairs *kp, const uint32_t *act, uint32_t nact,
                       struct iodfg_dfg *g, struct iodfg_error *err);
size_t iodfg_keypairs_memory(const struct iodfg_keypairs *kp);

/* The first tier of the analysis under map (its selection, map's mapping): into st the
 * activities' count, dur_n, dur_sum_ns, rd, bytes, dr_n, dr_sum, dr_mean, dur_min_ns and
 * dur_max_ns, exactly as a rebuild finds them (the rest 0); when every key with selected events
 * has an activity in map (*total = 1), into g the edge counts and traces. Returns 0, 1 when the
 * analysis cannot (its results are a job's, or its key sums are not known), -1 with err. */
int iodfg_analysis_first_tier(struct iodfg_analysis *an, const struct iodfg_mapping *map,
                              struct iodfg_stats *st, struct iodfg_dfg *g, int *total,
                              struct iodfg_error *err);

#endif
