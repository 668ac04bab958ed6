/* SPDX-License-Identifier: MIT */
/* Appending one event log to another: strings and keys re-interned, handles and cases copied. */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "iodfg/error.h"
#include "iodfg/eventlog.h"
#include "iodfg/handles.h"
#include "iodfg/stacks.h"
#include "iodfg/strpool.h"

#include "eventlog_priv.h"

static uint32_t *remap_strings(struct iodfg_strpool *dst, const struct iodfg_strpool *src)
{
    uint32_t n = iodfg_strpool_count(src);
    uint32_t *map = malloc((size_t)n * sizeof(*map));
    if (!map) {
        return NULL;
    }
    for (uint32_t i = 0; i < n; i++) {
        if (iodfg_strpool_intern(dst, iodfg_strpool_get(src, i), iodfg_strpool_len(src, i),
                                 &map[i])) {
            free(map);
            return NULL;
        }
    }
    return map;
}

static uint32_t *remap_keys(struct iodfg_eventlog *dst, const struct iodfg_eventlog *src,
                            const uint32_t *smap)
{
    uint32_t *map = malloc(((size_t)src->nkeys + 1) * sizeof(*map));
    if (!map) {
        return NULL;
    }
    for (uint32_t k = 0; k < src->nkeys; k++) {
        const struct iodfg_key *sk = &src->keys[k];
        if (iodfg_eventlog_key_layer(dst, smap[sk->call], smap[sk->path], smap[sk->layer],
                                     &map[k])) {
            free(map);
            return NULL;
        }
        if (sk->fs || sk->fstype || sk->scope > IODFG_SCOPE_UNKNOWN) {
            iodfg_eventlog_key_set_fs(dst, map[k], smap[sk->fs], smap[sk->fstype],
                                      (enum iodfg_scope)sk->scope);
        }
    }
    return map;
}

/* Copy src's handles to dst (ids shift by dst's count; cases by dst's case count). */
static int append_handles(struct iodfg_eventlog *dst, const struct iodfg_eventlog *src,
                          const uint32_t *smap, struct iodfg_error *err)
{
    uint32_t base = dst->nhandles;
    for (uint32_t i = 0; i < src->nhandles; i++) {
        struct iodfg_handle h = src->handles[i];
        iodfg_handle_move(&h, smap, dst->ncases, base);
        uint32_t id;
        if (iodfg_eventlog_handle_add(dst, &h, &id, err)) {
            return -1;
        }
    }
    return 0;
}

static int append_case(struct iodfg_eventlog *dst, const struct iodfg_eventlog *src, uint32_t cs,
                       const uint32_t *smap, const uint32_t *kmap, uint32_t hbase,
                       const uint32_t *stmap, struct iodfg_error *err)
{
    struct iodfg_case_info info = src->cases[cs];
    info.name = smap[info.name];
    info.cid = smap[info.cid];
    info.host = smap[info.host];
    info.rid = smap[info.rid];
    info.source = smap[info.source];
    if (iodfg_eventlog_begin_case(dst, &info, err)) {
        return -1;
    }
    // at once, column by column, when the case is in start order (as a closed case is)
    struct eventlog_copy cp = {.src = src, .lo = src->offsets[cs], .hi = src->offsets[cs + 1]};
    cp.smap = smap;
    cp.kmap = kmap;
    cp.stmap = stmap;
    cp.hbase = hbase;
    int copied = eventlog_push_copy(dst, &cp);
    if (copied < 0) {
        return iodfg_error_set(err, IODFG_E_NOMEM, NULL);
    }
    const struct iodfg_columns *c = &src->cols;
    for (uint64_t i = src->offsets[cs]; copied && i < src->offsets[cs + 1]; i++) {
        struct iodfg_event ev = {
            .start_ns = c->start_ns ? c->start_ns[i] : 0,
            .dur_ns = c->dur_ns ? c->dur_ns[i] : IODFG_UNKNOWN,
            .size = c->size ? c->size[i] : IODFG_UNKNOWN,
            .offset = c->offset ? c->offset[i] : IODFG_UNKNOWN,
            .req = c->req ? c->req[i] : IODFG_UNKNOWN,
            .key = c->key ? kmap[c->key[i]] : 0,
            .err = c->err ? smap[c->err[i]] : IODFG_STR_EMPTY,
            .pid = c->pid ? c->pid[i] : 0,
            .fd = c->fd ? c->fd[i] : IODFG_NO_FD,
            .handle = c->handle && c->handle[i] ? c->handle[i] + hbase : IODFG_NO_HANDLE,
        };
        if (iodfg_eventlog_push(dst, &ev, i, err)) {
            return -1;
        }
        if (stmap) {
            dst->stack[dst->n - 1] = stmap[src->stack[i]];
        }
    }
    return iodfg_eventlog_end_case(dst, err);
}

/* The capacity for need events at least, doubling cap: a log that files are appended to one by
 * one (traces read straight by a command) was copied whole at every file. Room not yet used
 * is not touched, so it costs address space, not memory. */
static uint64_t grown(uint64_t cap, uint64_t need)
{
    uint64_t next = cap <= UINT64_MAX / 2 ? cap * 2 : UINT64_MAX;
    return next > need ? next : need;
}

int iodfg_eventlog_append(struct iodfg_eventlog *dst, const struct iodfg_eventlog *src,
                          struct iodfg_error *err)
{
    uint32_t *smap = remap_strings(dst->pool, src->pool);
    uint32_t *kmap = smap ? remap_keys(dst, src, smap) : NULL;
    int rc = 0;
    if (!kmap) {
        rc = iodfg_error_set(err, IODFG_E_NOMEM, NULL);
    } else if (dst->n + src->n > dst->cap &&
               eventlog_grow_columns(dst, grown(dst->cap, dst->n + src->n)) &&
               iodfg_eventlog_reserve(dst, dst->n + src->n, err)) {
        rc = -1; // not even the room it needs (doubling is only tried first: a memory limit)
    }
    uint32_t hbase = dst->nhandles;
    if (rc == 0) {
        rc = append_handles(dst, src, smap, err);
    }
    uint32_t *stmap = NULL;
    if (rc == 0 && src->stack &&
        (eventlog_stack_column(dst) || !(stmap = iodfg_stacks_merge(dst->stacks, src->stacks, smap)))) {
        rc = iodfg_error_set(err, IODFG_E_NOMEM, NULL);
    }
    for (uint32_t cs = 0; rc == 0 && cs < src->ncases; cs++) {
        rc = append_case(dst, src, cs, smap, kmap, hbase, stmap, err);
    }
    free(stmap);
    free(smap);
    free(kmap);
    return rc;
}
