/* SPDX-License-Identifier: MIT */
/* An event log's call stacks: frames pushed after their event, one stack id per event. */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "iodfg/error.h"
#include "iodfg/eventlog.h"
#include "iodfg/stacks.h"
#include "iodfg/strpool.h"

#include "eventlog_priv.h"

/* The per-event stack column, made (zeros) when the first stack comes. 0 or -1. */
int eventlog_stack_column(struct iodfg_eventlog *log)
{
    if (!log->stacks && !(log->stacks = iodfg_stacks_new())) {
        return -1;
    }
    if (!log->stack) {
        log->stack = calloc(log->cap ? log->cap : 1, sizeof(*log->stack));
        if (!log->stack) {
            return -1;
        }
    }
    return 0;
}

int eventlog_stack_grow(struct iodfg_eventlog *log, uint64_t have, uint64_t cap)
{
    if (!log->stack) {
        return 0;
    }
    uint32_t *s = realloc(log->stack, (size_t)(cap ? cap : 1) * sizeof(*s));
    if (!s) {
        return -1;
    }
    if (cap > have) {
        memset(s + have, 0, (size_t)(cap - have) * sizeof(*s));
    }
    log->stack = s;
    return 0;
}

int eventlog_stack_flush(struct iodfg_eventlog *log)
{
    uint32_t id;
    if (log->ncur == 0) {
        return 0;
    }
    if (iodfg_stacks_intern(log->stacks, log->cur, log->ncur, &id)) {
        return -1;
    }
    log->stack[log->cur_event] = id;
    log->ncur = 0;
    return 0;
}

int iodfg_eventlog_push_frame(struct iodfg_eventlog *log, const struct iodfg_raw_frame *fr,
                              struct iodfg_error *err)
{
    uint64_t first = log->building ? log->offsets[log->ncases] : log->n, ev = log->n;
    while (ev > first && log->seq[ev - 1 - first] != fr->seq) { // the last one, mostly
        ev--;
    }
    if (ev == first) {
        return iodfg_error_set(err, IODFG_E_ARG, "a stack frame without an event");
    }
    ev--;
    if (log->ncur && log->cur_event != ev && eventlog_stack_flush(log)) {
        return iodfg_error_set(err, IODFG_E_NOMEM, NULL);
    }
    struct iodfg_frame f = {.flags = fr->flags, .offset = fr->offset, .address = fr->address};
    uint32_t id;
    if (eventlog_stack_column(log) ||
        iodfg_strpool_intern(log->pool, fr->object, fr->object_len, &f.object) ||
        iodfg_strpool_intern(log->pool, fr->function, fr->function_len, &f.function) ||
        iodfg_stacks_frame(log->stacks, &f, &id)) {
        return iodfg_error_set(err, IODFG_E_NOMEM, NULL);
    }
    if (log->ncur == log->cur_cap) {
        uint32_t cap = log->cur_cap ? log->cur_cap * 2 : 32;
        uint32_t *c = realloc(log->cur, cap * sizeof(*c));
        if (!c) {
            return iodfg_error_set(err, IODFG_E_NOMEM, NULL);
        }
        log->cur = c;
        log->cur_cap = cap;
    }
    log->cur[log->ncur++] = id;
    log->cur_event = ev;
    return 0;
}

const struct iodfg_stacks *iodfg_eventlog_stacks(const struct iodfg_eventlog *log)
{
    return log->stack ? log->stacks : NULL;
}

const uint32_t *iodfg_eventlog_stack_ids(const struct iodfg_eventlog *log)
{
    return log->stack;
}

int iodfg_eventlog_adopt_stacks(struct iodfg_eventlog *log, struct iodfg_stacks *stacks_take,
                                uint32_t *ids_take, struct iodfg_error *err)
{
    const char *bad = NULL;
    uint32_t ns = iodfg_stacks_count(stacks_take), nf = iodfg_stacks_frame_count(stacks_take);
    uint32_t nstr = iodfg_strpool_count(log->pool);
    const struct iodfg_frame *fr = iodfg_stacks_frames(stacks_take);
    if (log->building || log->stack) {
        bad = "the log already has stacks";
    }
    for (uint32_t f = 0; !bad && f < nf; f++) {
        if (fr[f].object >= nstr || fr[f].function >= nstr) {
            bad = "a stack frame names a string that does not exist";
        }
    }
    for (uint64_t i = 0; !bad && i < log->n; i++) {
        if (ids_take[i] > ns) {
            bad = "an event names a stack that does not exist";
        }
    }
    if (bad) {
        iodfg_stacks_free(stacks_take);
        free(ids_take);
        return iodfg_error_set(err, log->building ? IODFG_E_ARG : IODFG_E_FORMAT, "%s", bad);
    }
    iodfg_stacks_free(log->stacks);
    log->stacks = stacks_take;
    free(log->stack);
    log->stack = ids_take;
    if (eventlog_stack_grow(log, log->n, log->cap > log->n ? log->cap : log->n)) {
        return iodfg_error_set(err, IODFG_E_NOMEM, NULL);
    }
    return 0;
}

int iodfg_eventlog_split_keys(struct iodfg_eventlog *log, const uint32_t *site,
                              struct iodfg_error *err)
{
    uint32_t *key = log->cols.key;
    if (!log->stack || !key) {
        return 0;
    }
    for (uint64_t e = 0; e < log->n; e++) {
        uint32_t s = site[log->stack[e]];
        if (s == IODFG_STR_EMPTY || log->keys[key[e]].site == s) {
            continue;
        }
        struct iodfg_key k = log->keys[key[e]]; // a copy: adding a key may move the table
        if (iodfg_eventlog_key_site(log, k.call, k.path, k.layer, s, &key[e])) {
            return iodfg_error_set(err, IODFG_E_NOMEM, NULL);
        }
        if (k.fs || k.fstype || k.scope > IODFG_SCOPE_UNKNOWN) {
            iodfg_eventlog_key_set_fs(log, key[e], k.fs, k.fstype, (enum iodfg_scope)k.scope);
        }
    }
    return 0;
}
