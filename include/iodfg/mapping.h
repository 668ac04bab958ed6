/* SPDX-License-Identifier: MIT */
/* A mapping of a log's (call, path) keys to activities, and a selection of its events.
 * This is the contract between the rules/filters modules (which fill them) and the
 * DFG/statistics modules (which read them). */
#ifndef IODFG_MAPPING_H
#define IODFG_MAPPING_H

#include <stdint.h>

struct iodfg_strpool;

/* activity_of_key value of a key that maps to no activity (dropped, unmatched or filtered). */
#define IODFG_NO_ACTIVITY UINT32_MAX

/* Keys -> activities. Activity ids are dense and stable: a name keeps its id for the life of
 * the mapping (ids of names no key maps to any more simply have no events). */
struct iodfg_mapping {
    uint32_t nkeys;
    uint32_t *activity_of_key;   /* nkeys entries */
    uint32_t nactivities;        /* every id in activity_of_key is < nactivities */
    struct iodfg_strpool *names; /* owns the activity names */
    uint32_t *name_of;           /* nactivities entries: string id in names */
};

/* Which events take part: cases, a time window and the case definition. */
struct iodfg_selection {
    const uint8_t *case_on; /* per case of the log: nonzero = included; NULL = all cases */
    int64_t from_ns, to_ns; /* events whose start lies in [from_ns, to_ns) */
    int per_pid;            /* nonzero: a case is (trace file, pid) instead of the trace file */
};

/* A selection of everything: all cases, all times, per-file cases. */
void iodfg_selection_all(struct iodfg_selection *sel);

#endif
