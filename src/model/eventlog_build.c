/* SPDX-License-Identifier: MIT */
/* Event log operations over whole cases: stable sort, append with re-interning, path kinds. */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "iodfg/error.h"
#include "iodfg/eventlog.h"
#include "iodfg/handles.h"
#include "iodfg/strpool.h"

#include "eventlog_priv.h"

struct sort_item {
    int64_t start;
    uint64_t seq;
    uint64_t idx;
};

static int cmp_item(const void *a, const void *b)
{
    const struct sort_item *x = a, *y = b;
    if (x->start != y->start) {
        return x->start < y->start ? -1 : 1;
    }
    if (x->seq != y->seq) {
        return x->seq < y->seq ? -1 : 1;
    }
    return x->idx < y->idx ? -1 : x->idx > y->idx;
}

#define PERMUTE(col, type)                                                                         \
    do {                                                                                           \
        if (c->col) {                                                                              \
            type *t = tmp;                                                                         \
            for (uint64_t i = 0; i < n; i++) {                                                     \
                t[i] = c->col[lo + items[i].idx];                                                  \
            }                                                                                      \
            memcpy(c->col + lo, t, n * sizeof(type));                                              \
        }                                                                                          \
    } while (0)

int iodfg_eventlog_sort_range(struct iodfg_eventlog *log, uint64_t lo, uint64_t hi)
{
    uint64_t n = hi - lo;
    struct iodfg_columns *c = &log->cols;
    if (n < 2 || !c->start_ns) {
        return 0;
    }
    struct sort_item *items = malloc(n * sizeof(*items));
    void *tmp = malloc(n * sizeof(int64_t));
    if (!items || !tmp) {
        free(items);
        free(tmp);
        return -1;
    }
    for (uint64_t i = 0; i < n; i++) {
        items[i].start = c->start_ns[lo + i];
        items[i].seq = log->seq ? log->seq[i] : i;
        items[i].idx = i;
    }
    qsort(items, n, sizeof(*items), cmp_item);
    PERMUTE(start_ns, int64_t);
    PERMUTE(dur_ns, int64_t);
    PERMUTE(size, int64_t);
    PERMUTE(offset, int64_t);
    PERMUTE(req, int64_t);
    PERMUTE(key, uint32_t);
    PERMUTE(err, uint32_t);
    PERMUTE(pid, int32_t);
    PERMUTE(fd, int32_t);
    PERMUTE(handle, uint32_t);
    free(items);
    free(tmp);
    return 0;
}

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
                       struct iodfg_error *err)
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
    const struct iodfg_columns *c = &src->cols;
    for (uint64_t i = src->offsets[cs]; i < src->offsets[cs + 1]; i++) {
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
    }
    return iodfg_eventlog_end_case(dst, err);
}

int iodfg_eventlog_append(struct iodfg_eventlog *dst, const struct iodfg_eventlog *src,
                          struct iodfg_error *err)
{
    uint32_t *smap = remap_strings(dst->pool, src->pool);
    uint32_t *kmap = smap ? remap_keys(dst, src, smap) : NULL;
    int rc = 0;
    if (!kmap) {
        rc = iodfg_error_set(err, IODFG_E_NOMEM, NULL);
    } else if (iodfg_eventlog_reserve(dst, dst->n + src->n, err)) {
        rc = -1;
    }
    uint32_t hbase = dst->nhandles;
    if (rc == 0) {
        rc = append_handles(dst, src, smap, err);
    }
    for (uint32_t cs = 0; rc == 0 && cs < src->ncases; cs++) {
        rc = append_case(dst, src, cs, smap, kmap, hbase, err);
    }
    free(smap);
    free(kmap);
    return rc;
}

static int has_prefix(const char *s, size_t len, const char *pre)
{
    size_t n = strlen(pre);
    return len >= n && memcmp(s, pre, n) == 0;
}

enum iodfg_path_kind iodfg_path_kind_of(const char *path, size_t len)
{
    if (len == 0) {
        return IODFG_PATH_NONE;
    }
    if (path[0] == '/') {
        return IODFG_PATH_FILE;
    }
    if (has_prefix(path, len, "pipe:[")) {
        return IODFG_PATH_PIPE;
    }
    if (has_prefix(path, len, "anon_inode:")) {
        return IODFG_PATH_ANON;
    }
    // -y prints sockets as socket:[inode]; -yy as PROTO:[details] (TCP, UDPv6, UNIX-STREAM...)
    size_t i = 0;
    while (i < len && ((path[i] >= 'A' && path[i] <= 'Z') || (path[i] >= 'a' && path[i] <= 'z') ||
                       (path[i] >= '0' && path[i] <= '9') || path[i] == '-' || path[i] == '_')) {
        i++;
    }
    if (i > 0 && i + 1 < len && path[i] == ':' && path[i + 1] == '[') {
        return IODFG_PATH_SOCKET;
    }
    return IODFG_PATH_FILE; // a relative name, as in a failed open of "foo.txt"
}

const char *iodfg_path_kind_name(enum iodfg_path_kind kind)
{
    switch (kind) {
    case IODFG_PATH_FILE:
        return "file";
    case IODFG_PATH_SOCKET:
        return "socket";
    case IODFG_PATH_PIPE:
        return "pipe";
    case IODFG_PATH_ANON:
        return "anon";
    case IODFG_PATH_OTHER:
        return "other";
    case IODFG_PATH_NONE:
        break;
    }
    return "none";
}
