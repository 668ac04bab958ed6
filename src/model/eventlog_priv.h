/* SPDX-License-Identifier: MIT */
/* Internals of the event log shared by the model's files. */
#ifndef IODFG_MODEL_EVENTLOG_PRIV_H
#define IODFG_MODEL_EVENTLOG_PRIV_H

#include <stdint.h>

#include "iodfg/eventlog.h"

struct raw_key_cache {
    int valid;
    char call[32], path[224];
    size_t call_len, path_len;
    uint32_t key;
};

struct iodfg_eventlog {
    struct iodfg_strpool *pool;
    unsigned mask;
    struct iodfg_columns cols;
    uint64_t n, cap;
    uint64_t *seq; // input order of the open case's events (index 0 = its first), for sorting
    uint64_t seq_cap;
    int building, sorted;
    struct iodfg_case_info *cases;
    uint64_t *offsets; // ncases+1 (plus one while building)
    uint32_t ncases, cases_cap;
    struct iodfg_key *keys;
    uint32_t nkeys, keys_cap;
    uint32_t *key_slots; // key id + 1, 0 = empty
    uint32_t key_nslots;
    struct raw_key_cache raw_cache;
};

/* Sort the open case's events [lo, hi) by (start, seq[i - lo]). 0, or -1 when out of memory. */
int iodfg_eventlog_sort_range(struct iodfg_eventlog *log, uint64_t lo, uint64_t hi);

#endif
