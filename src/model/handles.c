/* SPDX-License-Identifier: MIT */
/* The event log's handle table: definitions from parsers and readers, per-use accounting. */
#include "config.h"

#include "iodfg/handles.h"

#include <stdlib.h>
#include <string.h>

#include "iodfg/bigmem.h"
#include "iodfg/error.h"
#include "iodfg/eventlog.h"
#include "iodfg/strpool.h"

#include "eventlog_priv.h"

const char *iodfg_handle_origin_name(enum iodfg_handle_origin o)
{
    switch (o) {
    case IODFG_HANDLE_OPEN:
        return "open";
    case IODFG_HANDLE_DUP:
        return "dup";
    case IODFG_HANDLE_PRECREATED:
        return "precreated";
    case IODFG_HANDLE_INHERITED:
        return "inherited";
    }
    return "?";
}

const char *iodfg_scope_name(enum iodfg_scope scope)
{
    switch (scope) {
    case IODFG_SCOPE_UNKNOWN:
        return "unknown";
    case IODFG_SCOPE_LOCAL:
        return "local";
    case IODFG_SCOPE_GLOBAL:
        return "global";
    case IODFG_SCOPE_VIRTUAL:
        return "virtual";
    case IODFG_SCOPE_NONE:
        break;
    }
    return "none";
}

void iodfg_handle_move(struct iodfg_handle *h, const uint32_t *smap, uint32_t case_base,
                       uint32_t handle_base)
{
    h->case_id += case_base;
    h->parent = h->parent ? h->parent + handle_base : 0;
    h->path = smap[h->path];
    h->call = smap[h->call];
    h->flags = smap[h->flags];
    h->layer = smap[h->layer];
}

uint32_t iodfg_eventlog_handle_count(const struct iodfg_eventlog *log)
{
    return log->nhandles;
}

const struct iodfg_handle *iodfg_eventlog_handles(const struct iodfg_eventlog *log)
{
    return log->handles;
}

struct iodfg_handle *iodfg_eventlog_handle_get(struct iodfg_eventlog *log, uint32_t id)
{
    return id >= 1 && id <= log->nhandles ? &log->handles[id - 1] : NULL;
}

static int grow_handles(struct iodfg_eventlog *log)
{
    if (log->nhandles == UINT32_MAX - 1) {
        return -1;
    }
    if (log->nhandles == log->handles_cap) {
        size_t grown = iodfg_bigmem_grow(log->handles_cap, sizeof(*log->handles), 64);
        uint32_t cap = grown < UINT32_MAX ? (uint32_t)grown : UINT32_MAX - 1;
        struct iodfg_handle *h = iodfg_bigmem_realloc(
            log->handles, (size_t)log->handles_cap * sizeof(*h), (size_t)cap * sizeof(*h));
        if (!h) {
            return -1;
        }
        log->handles = h;
        log->handles_cap = cap;
    }
    return 0;
}

int iodfg_eventlog_handle_add(struct iodfg_eventlog *log, const struct iodfg_handle *h,
                              uint32_t *id, struct iodfg_error *err)
{
    if (h->parent > log->nhandles) {
        return iodfg_error_set(err, IODFG_E_ARG, "parent handle %u does not exist", h->parent);
    }
    if (grow_handles(log)) {
        return iodfg_error_set(err, IODFG_E_NOMEM, NULL);
    }
    log->handles[log->nhandles++] = *h;
    *id = log->nhandles;
    return 0;
}

int eventlog_handle_define(struct iodfg_eventlog *log, const struct iodfg_raw_handle *r,
                           const struct iodfg_raw_event *ev, uint32_t key, uint32_t *id)
{
    const char *call = ev->call;
    size_t call_len = ev->call_len;
    // Only handles opened by the event carry its call; pre-created ones arrive with a use.
    if (r->origin == IODFG_HANDLE_PRECREATED || r->origin == IODFG_HANDLE_INHERITED) {
        call_len = 0;
    }
    struct iodfg_handle h = {
        .case_id = log->ncases,
        .pid = r->pid,
        .fd = r->fd,
        .origin = r->origin,
        .parent = r->parent ? log->handle_base + r->parent : 0,
        .mode = r->mode,
        .created_ns = call_len ? ev->start_ns : IODFG_UNKNOWN,
        .destroyed_ns = IODFG_UNKNOWN,
    };
    // The event's own call and path are interned already (its key): most handles name them.
    const struct iodfg_key *k = key < log->nkeys ? &log->keys[key] : NULL;
    int same_path = k && r->path == ev->path && r->path_len == ev->path_len;
    if (grow_handles(log) ||
        (call_len && k ? (h.call = k->call, 0)
                       : iodfg_strpool_intern(log->pool, call, call_len, &h.call)) ||
        (same_path ? (h.path = k->path, 0)
                   : iodfg_strpool_intern(log->pool, r->path, r->path_len, &h.path)) ||
        (r->flags_len && iodfg_strpool_intern(log->pool, r->flags, r->flags_len, &h.flags)) ||
        (r->layer_len && iodfg_strpool_intern(log->pool, r->layer, r->layer_len, &h.layer))) {
        return -1;
    }
    log->handles[log->nhandles++] = h;
    *id = log->nhandles;
    return 0;
}

void iodfg_eventlog_handle_use(struct iodfg_eventlog *log, uint32_t id, unsigned hop,
                               int64_t start_ns, int64_t dur_ns, int64_t size)
{
    if (id >= 1 && id <= log->nhandles) {
        eventlog_handle_count(&log->handles[id - 1], hop, start_ns, dur_ns, size);
    }
}

uint32_t iodfg_handles_select(const struct iodfg_eventlog *log, const uint8_t *case_on,
                              int open_only, uint32_t *ids, struct iodfg_handle_summary *sum)
{
    uint32_t n = 0;
    if (sum) {
        memset(sum, 0, sizeof(*sum));
    }
    for (uint32_t i = 0; i < log->nhandles; i++) {
        const struct iodfg_handle *h = &log->handles[i];
        int open = h->destroyed_ns == IODFG_UNKNOWN;
        if ((open_only && !open) ||
            (case_on && (h->case_id >= log->ncases || !case_on[h->case_id]))) {
            continue;
        }
        if (ids) {
            ids[n] = i + 1;
        }
        n++;
        if (sum) {
            sum->count++;
            sum->never_closed += open;
            if (h->origin < IODFG_HANDLE_ORIGIN__N) {
                sum->by_origin[h->origin]++;
            }
        }
    }
    return n;
}

int64_t iodfg_handles_time_origin(const struct iodfg_eventlog *log)
{
    const struct iodfg_columns *c = iodfg_eventlog_columns(log);
    const uint64_t *off = iodfg_eventlog_case_offsets(log);
    int64_t t0 = INT64_MAX;
    for (uint32_t cs = 0; c->start_ns && cs < iodfg_eventlog_case_count(log); cs++) {
        if (off[cs] < off[cs + 1] && c->start_ns[off[cs]] < t0) {
            t0 = c->start_ns[off[cs]];
        }
    }
    return t0 == INT64_MAX ? 0 : t0;
}

int64_t iodfg_handle_lifetime(const struct iodfg_handle *h)
{
    if (h->created_ns == IODFG_UNKNOWN || h->destroyed_ns == IODFG_UNKNOWN) {
        return IODFG_UNKNOWN;
    }
    return h->destroyed_ns - h->created_ns;
}

size_t iodfg_handle_chain(const struct iodfg_eventlog *log, uint32_t id, uint32_t *chain,
                          size_t max)
{
    size_t n = 0;
    // a parent always precedes its child; the bound on the length guards against bad input
    while (n < max && n < log->nhandles && id >= 1 && id <= log->nhandles) {
        uint32_t p = log->handles[id - 1].parent;
        if (p == 0 || p > log->nhandles || p == id) {
            break;
        }
        chain[n++] = p;
        id = p;
    }
    return n;
}
