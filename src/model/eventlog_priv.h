/* SPDX-License-Identifier: MIT */
/* Internals of the event log shared by the model's files. */
#ifndef IODFG_MODEL_EVENTLOG_PRIV_H
#define IODFG_MODEL_EVENTLOG_PRIV_H

#include <stdint.h>

#include "iodfg/eventlog.h"
#include "iodfg/handles.h"

/* The (call, path) keys of the last raw events: consecutive events mostly repeat one, or
 * alternate between two (lseek and write on one file). */
struct raw_key_cache {
    struct raw_key_slot {
        int valid;
        char call[32], path[224];
        size_t call_len, path_len;
        uint32_t key;
    } slot[2];
    unsigned next; // the slot a miss replaces
};

static inline void eventlog_raw_cache_reset(struct raw_key_cache *kc)
{
    kc->slot[0].valid = kc->slot[1].valid = 0;
    kc->next = 0;
}

struct iodfg_eventlog {
    struct iodfg_strpool *pool;
    unsigned mask;
    struct iodfg_columns cols;
    uint64_t n, cap;
    uint64_t *seq; // input order of the open case's events (index 0 = its first), for sorting
    uint64_t seq_cap;
    int building, sorted;
    int has_origin;    // origin_ns was given (a part of a larger log)
    int64_t origin_ns; // where relative times count from, when given
    struct iodfg_case_info *cases;
    uint64_t *offsets; // ncases+1 (plus one while building)
    uint32_t ncases, cases_cap;
    struct iodfg_key *keys;
    uint32_t nkeys, keys_cap;
    uint32_t *key_slots; // key id + 1, 0 = empty
    uint32_t key_nslots;
    struct raw_key_cache raw_cache;
    struct iodfg_handle *handles; // handle id h is handles[h - 1]
    uint32_t nhandles, handles_cap;
    uint32_t handle_base; // handles before the open case (its local id i is handle_base + i)
    struct iodfg_stacks *stacks; // strace -k call stacks (iodfg/stacks.h), NULL until the first
    uint32_t *stack;             // stack id per event (cap entries), NULL while no event has one
    uint32_t *cur;               // frame ids of the stack being pushed, of event cur_event
    uint32_t ncur, cur_cap;
    uint64_t cur_event;
};

/* Count one use of handle id (valid, 1-based) by an event: ops, bytes, lifetime per hop. */
static inline void eventlog_handle_count(struct iodfg_handle *h, unsigned hop, int64_t start_ns,
                                         int64_t dur_ns, int64_t size)
{
    h->ops++;
    if (hop == IODFG_HOP_READ) {
        h->bytes_read += size > 0 ? (uint64_t)size : 0;
    } else if (hop == IODFG_HOP_WRITE) {
        h->bytes_written += size > 0 ? (uint64_t)size : 0;
    } else if (hop == IODFG_HOP_CREATE) {
        h->created_ns = start_ns;
    } else if (hop == IODFG_HOP_CLOSE) {
        h->destroyed_ns = dur_ns == IODFG_UNKNOWN ? start_ns : start_ns + dur_ns;
    }
}

/* Define a handle from a parser's raw definition, first seen at event ev whose key is key; *id
 * gets its log id. 0, or -1 out of memory. */
int eventlog_handle_define(struct iodfg_eventlog *log, const struct iodfg_raw_handle *h,
                           const struct iodfg_raw_event *ev, uint32_t key, uint32_t *id);

/* The stack column to cap entries (zeros from have on); nothing without stacks. 0 or -1. */
int eventlog_stack_grow(struct iodfg_eventlog *log, uint64_t have, uint64_t cap);
/* Make the stack table and the per-event column (zeros) if missing. 0, or -1 out of memory. */
int eventlog_stack_column(struct iodfg_eventlog *log);
/* Intern the stack being pushed and give it to its event. 0, or -1 out of memory. */
int eventlog_stack_flush(struct iodfg_eventlog *log);

/* Room for cap events in every column of the log's mask. 0, or -1 out of memory. */
int eventlog_grow_columns(struct iodfg_eventlog *log, uint64_t cap);

/* Events [lo, hi) of another log, their ids mapped (strings, keys, stacks; handles shifted by
 * hbase), for eventlog_push_copy. */
struct eventlog_copy {
    const struct iodfg_eventlog *src;
    uint64_t lo, hi;
    const uint32_t *smap, *kmap, *stmap; // stmap: NULL when src has no stacks
    uint32_t hbase;
};
/* Push cp's events into the open case of log, which has none yet, column by column: what
 * iodfg_eventlog_push does for each of them when they come in start order (as a closed case
 * keeps them). 0 done, 1 not in start order (nothing pushed: push them one by one), -1 out of
 * memory. */
int eventlog_push_copy(struct iodfg_eventlog *log, const struct eventlog_copy *cp);
/* Room for cap input orders of the open case (on huge pages: 4 KiB faults cost more than the
 * copy). 0, or -1 out of memory. */
int eventlog_grow_seq(struct iodfg_eventlog *log, uint64_t cap);

#endif
