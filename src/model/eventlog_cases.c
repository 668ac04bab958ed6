/* SPDX-License-Identifier: MIT */
/* Filling an event log case by case: open a case, push its events (parsed or raw, with their
 * handles), close it (sorted by start time, stable in input order). */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "iodfg/bigmem.h"
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

/* Sort the open case's events [lo, hi) by (start, seq[i - lo]). 0, or -1 when out of memory. */
static int sort_range(struct iodfg_eventlog *log, uint64_t lo, uint64_t hi)
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
    uint32_t *stack = log->stack ? log->stack : NULL;
    if (stack) {
        uint32_t *t = tmp;
        for (uint64_t i = 0; i < n; i++) {
            t[i] = stack[lo + items[i].idx];
        }
        memcpy(stack + lo, t, n * sizeof(*t));
    }
    free(items);
    free(tmp);
    return 0;
}

int iodfg_eventlog_begin_case(struct iodfg_eventlog *log, const struct iodfg_case_info *info,
                              struct iodfg_error *err)
{
    if (log->building) {
        return iodfg_error_set(err, IODFG_E_ARG, "a case is already open");
    }
    if (log->ncases == UINT32_MAX - 1) {
        return iodfg_error_set(err, IODFG_E_LIMIT, "too many cases");
    }
    if (log->ncases == log->cases_cap) {
        uint32_t cap = log->cases_cap ? log->cases_cap * 2 : 16;
        struct iodfg_case_info *cs = realloc(log->cases, cap * sizeof(*cs));
        uint64_t *off = cs ? realloc(log->offsets, (cap + 1) * sizeof(*off)) : NULL;
        if (cs) {
            log->cases = cs;
        }
        if (!off) {
            return iodfg_error_set(err, IODFG_E_NOMEM, NULL);
        }
        log->offsets = off;
        log->cases_cap = cap;
    }
    log->cases[log->ncases] = *info;
    log->offsets[log->ncases + 1] = log->n;
    log->handle_base = log->nhandles;
    log->building = 1;
    log->sorted = 1;
    return 0;
}

struct iodfg_case_info *iodfg_eventlog_open_case(struct iodfg_eventlog *log)
{
    return log->building ? &log->cases[log->ncases] : NULL;
}

/* Times into the domain of eventlog.h (IODFG_START_MIN ...). */
static int64_t clamp_start(int64_t t)
{
    return t < IODFG_START_MIN ? IODFG_START_MIN : t > IODFG_START_MAX ? IODFG_START_MAX : t;
}

static int64_t clamp_dur(int64_t d)
{
    return d < 0 ? IODFG_UNKNOWN : d > IODFG_DUR_MAX ? IODFG_DUR_MAX : d;
}

int iodfg_eventlog_push(struct iodfg_eventlog *log, const struct iodfg_event *ev, uint64_t seq,
                        struct iodfg_error *err)
{
    if (!log->building) {
        return iodfg_error_set(err, IODFG_E_ARG, "no case is open");
    }
    if (log->ncur && eventlog_stack_flush(log)) {
        return iodfg_error_set(err, IODFG_E_NOMEM, NULL);
    }
    if (log->n == log->cap) {
        if (eventlog_grow_columns(log, log->cap ? log->cap * 2 : 1024)) {
            return iodfg_error_set(err, IODFG_E_NOMEM, NULL);
        }
    }
    uint64_t i = log->n;
    struct iodfg_columns *c = &log->cols;
    uint64_t rel = i - log->offsets[log->ncases];
    if (rel == log->seq_cap && eventlog_grow_seq(log, iodfg_bigmem_grow(log->seq_cap, 8, 1024))) {
        return iodfg_error_set(err, IODFG_E_NOMEM, NULL);
    }
    int64_t start = clamp_start(ev->start_ns);
    if (rel > 0) {
        int64_t prev = c->start_ns ? c->start_ns[i - 1] : 0;
        int64_t cur = c->start_ns ? start : 0;
        if (cur < prev || (cur == prev && seq < log->seq[rel - 1])) {
            log->sorted = 0;
        }
    }
    if (c->start_ns) {
        c->start_ns[i] = start;
    }
    if (c->dur_ns) {
        c->dur_ns[i] = clamp_dur(ev->dur_ns);
    }
    if (c->size) {
        c->size[i] = ev->size;
    }
    if (c->offset) {
        c->offset[i] = ev->offset;
    }
    if (c->req) {
        c->req[i] = ev->req;
    }
    if (c->key) {
        c->key[i] = ev->key;
    }
    if (c->err) {
        c->err[i] = ev->err;
    }
    if (c->pid) {
        c->pid[i] = ev->pid;
    }
    if (c->fd) {
        c->fd[i] = ev->fd;
    }
    if (c->handle) {
        c->handle[i] = ev->handle;
    }
    if (log->stack) {
        log->stack[i] = 0;
    }
    log->seq[rel] = seq;
    log->n++;
    return 0;
}

/* Whether src's starts [lo, hi) ascend once clamped (the order push would keep unsorted). */
static int starts_ascend(const int64_t *start, uint64_t lo, uint64_t hi)
{
    for (uint64_t i = lo + 1; start && i < hi; i++) {
        if (clamp_start(start[i]) < clamp_start(start[i - 1])) {
            return 0;
        }
    }
    return 1;
}

/* Column x of n events from s (at lo) into d (at at), else its default dflt. */
#define COPY_COL(x, dflt)                                                                          \
    do {                                                                                           \
        if (d->x && s->x) {                                                                        \
            memcpy(d->x + at, s->x + lo, n * sizeof(*d->x));                                       \
        } else if (d->x) {                                                                         \
            for (uint64_t i = 0; i < n; i++) {                                                     \
                d->x[at + i] = (dflt);                                                             \
            }                                                                                      \
        }                                                                                          \
    } while (0)

/* The mapped id columns (key, err, handle, stack) of cp's n events into log at at. */
static void copy_ids(struct iodfg_eventlog *log, const struct eventlog_copy *cp, uint64_t at,
                     uint64_t n)
{
    const struct iodfg_columns *s = &cp->src->cols;
    struct iodfg_columns *d = &log->cols;
    uint64_t lo = cp->lo;
    for (uint64_t i = 0; d->key && i < n; i++) {
        d->key[at + i] = s->key ? cp->kmap[s->key[lo + i]] : 0;
    }
    for (uint64_t i = 0; d->err && i < n; i++) {
        d->err[at + i] = s->err ? cp->smap[s->err[lo + i]] : IODFG_STR_EMPTY;
    }
    for (uint64_t i = 0; d->handle && i < n; i++) {
        uint32_t h = s->handle ? s->handle[lo + i] : 0;
        d->handle[at + i] = h ? h + cp->hbase : IODFG_NO_HANDLE;
    }
    for (uint64_t i = 0; log->stack && i < n; i++) {
        log->stack[at + i] = cp->stmap ? cp->stmap[cp->src->stack[lo + i]] : 0;
    }
}

int eventlog_push_copy(struct iodfg_eventlog *log, const struct eventlog_copy *cp)
{
    const struct iodfg_columns *s = &cp->src->cols;
    struct iodfg_columns *d = &log->cols;
    uint64_t lo = cp->lo, n = cp->hi - cp->lo, at = log->n;
    if (!log->building || log->ncur || at != log->offsets[log->ncases] ||
        (d->start_ns && !starts_ascend(s->start_ns, lo, cp->hi))) {
        return 1;
    }
    if (at + n > log->cap &&
        eventlog_grow_columns(log, at + n > log->cap * 2 ? at + n : log->cap * 2)) {
        return -1;
    }
    for (uint64_t i = 0; d->start_ns && i < n; i++) {
        d->start_ns[at + i] = s->start_ns ? clamp_start(s->start_ns[lo + i]) : 0;
    }
    for (uint64_t i = 0; d->dur_ns && i < n; i++) {
        d->dur_ns[at + i] = clamp_dur(s->dur_ns ? s->dur_ns[lo + i] : IODFG_UNKNOWN);
    }
    COPY_COL(size, IODFG_UNKNOWN);
    COPY_COL(offset, IODFG_UNKNOWN);
    COPY_COL(req, IODFG_UNKNOWN);
    COPY_COL(pid, 0);
    COPY_COL(fd, IODFG_NO_FD);
    copy_ids(log, cp, at, n);
    log->n += n;
    return 0;
}

/* Define the handles of raw, account its use and implicit closes; *handle gets its log id. */
static int push_handles(struct iodfg_eventlog *log, const struct iodfg_raw_event *raw, uint32_t key,
                        uint32_t *handle, struct iodfg_error *err)
{
    for (unsigned i = 0; i < raw->ndef; i++) {
        uint32_t id;
        if (eventlog_handle_define(log, &raw->hdef[i], raw, key, &id)) {
            return iodfg_error_set(err, IODFG_E_NOMEM, NULL);
        }
    }
    uint32_t defined = log->nhandles - log->handle_base;
    for (unsigned i = 0; i < raw->nclosed; i++) {
        if (raw->hclosed[i] && raw->hclosed[i] <= defined) {
            struct iodfg_handle *h = &log->handles[log->handle_base + raw->hclosed[i] - 1];
            h->destroyed_ns = raw->start_ns;
        }
    }
    if (raw->handle > defined) {
        return iodfg_error_set(err, IODFG_E_ARG, "handle %u used before its definition",
                               raw->handle);
    }
    *handle = raw->handle ? log->handle_base + raw->handle : IODFG_NO_HANDLE;
    if (*handle) {
        eventlog_handle_count(&log->handles[*handle - 1], raw->hop, raw->start_ns, raw->dur_ns,
                              raw->size);
    }
    return 0;
}

static int raw_cache_has(const struct raw_key_slot *k, const struct iodfg_raw_event *raw)
{
    return k->valid && raw->call_len == k->call_len && raw->path_len == k->path_len &&
           memcmp(raw->call, k->call, raw->call_len) == 0 &&
           memcmp(raw->path, k->path, raw->path_len) == 0;
}

// The slot holding raw's key (then the other one is the less recently used), or NULL.
static struct raw_key_slot *raw_cache_find(struct raw_key_cache *kc,
                                           const struct iodfg_raw_event *raw)
{
    for (unsigned i = 0; i < 2; i++) {
        if (raw_cache_has(&kc->slot[i], raw)) {
            kc->next = i ^ 1;
            return &kc->slot[i];
        }
    }
    return NULL;
}

// Remember raw's key in the less recently used slot (names too long for a slot are not kept).
static void raw_cache_put(struct raw_key_cache *kc, const struct iodfg_raw_event *raw, uint32_t key)
{
    struct raw_key_slot *k = &kc->slot[kc->next];
    k->valid = raw->call_len <= sizeof(k->call) && raw->path_len <= sizeof(k->path);
    if (k->valid) {
        memcpy(k->call, raw->call, raw->call_len);
        memcpy(k->path, raw->path, raw->path_len);
        k->call_len = raw->call_len;
        k->path_len = raw->path_len;
        k->key = key;
        kc->next ^= 1;
    }
}

int iodfg_eventlog_push_raw(struct iodfg_eventlog *log, const struct iodfg_raw_event *raw,
                            struct iodfg_error *err)
{
    // The handle times below are taken from the event's times: clamp them first (rarely needed).
    struct iodfg_raw_event fixed;
    if (clamp_start(raw->start_ns) != raw->start_ns || clamp_dur(raw->dur_ns) != raw->dur_ns) {
        fixed = *raw;
        fixed.start_ns = clamp_start(raw->start_ns);
        fixed.dur_ns = clamp_dur(raw->dur_ns);
        raw = &fixed;
    }
    struct iodfg_event ev = {
        .start_ns = raw->start_ns,
        .dur_ns = raw->dur_ns,
        .size = raw->size,
        .offset = raw->offset,
        .req = raw->req,
        .pid = raw->pid,
        .fd = raw->fd,
        .err = IODFG_STR_EMPTY,
    };
    // Consecutive events mostly repeat one of the last two (call, path): skip the hashing then.
    struct raw_key_slot *hit = raw_cache_find(&log->raw_cache, raw);
    if (hit) {
        ev.key = hit->key;
    } else {
        uint32_t call, path;
        if (iodfg_strpool_intern(log->pool, raw->call, raw->call_len, &call) ||
            iodfg_strpool_intern(log->pool, raw->path, raw->path_len, &path) ||
            iodfg_eventlog_key(log, call, path, &ev.key)) {
            return iodfg_error_set(err, IODFG_E_NOMEM, NULL);
        }
        raw_cache_put(&log->raw_cache, raw, ev.key);
    }
    if (raw->err_len && iodfg_strpool_intern(log->pool, raw->err, raw->err_len, &ev.err)) {
        return iodfg_error_set(err, IODFG_E_NOMEM, NULL);
    }
    if (raw->ndef | raw->nclosed) {
        if (push_handles(log, raw, ev.key, &ev.handle, err)) {
            return -1;
        }
    } else if (raw->handle) { // a use of a defined handle: the common case
        ev.handle = log->handle_base + raw->handle;
        if (ev.handle > log->nhandles) {
            return iodfg_error_set(err, IODFG_E_ARG, "handle %u used before its definition",
                                   raw->handle);
        }
        eventlog_handle_count(&log->handles[ev.handle - 1], raw->hop, raw->start_ns, raw->dur_ns,
                              raw->size);
    }
    return iodfg_eventlog_push(log, &ev, raw->seq, err);
}

int iodfg_eventlog_end_case(struct iodfg_eventlog *log, struct iodfg_error *err)
{
    if (!log->building) {
        return iodfg_error_set(err, IODFG_E_ARG, "no case is open");
    }
    uint64_t first = log->offsets[log->ncases];
    int rc = 0;
    if (log->ncur && eventlog_stack_flush(log)) {
        rc = iodfg_error_set(err, IODFG_E_NOMEM, NULL);
    }
    if (rc == 0 && !log->sorted) {
        rc = sort_range(log, first, log->n);
        if (rc) {
            iodfg_error_set(err, IODFG_E_NOMEM, NULL);
        }
    }
    log->building = 0;
    eventlog_raw_cache_reset(&log->raw_cache);
    if (rc) {
        log->n = first; // drop the half-built case
        log->ncur = 0;
        log->nhandles = log->handle_base;
        return -1;
    }
    log->ncases++;
    log->offsets[log->ncases] = log->n;
    return 0;
}
