/* SPDX-License-Identifier: MIT */
/* Columnar event log: growable column arrays, case table, (call, path) key table. */
#include "config.h"

#include "iodfg/eventlog.h"

#include <stdlib.h>
#include <string.h>

#include "iodfg/bigmem.h"
#include "iodfg/error.h"
#include "iodfg/strpool.h"

#include "eventlog_priv.h"

const char *iodfg_clock_name(enum iodfg_clock clock)
{
    switch (clock) {
    case IODFG_CLOCK_RELATIVE:
        return "relative";
    case IODFG_CLOCK_TIME_OF_DAY:
        return "time-of-day";
    case IODFG_CLOCK_EPOCH:
        return "epoch";
    case IODFG_CLOCK_NONE:
    case IODFG_CLOCK__N:
        break;
    }
    return "none";
}

static const char *const count_names[] = {
#define IODFG_X_NAME(id, name, text) name,
    IODFG_COUNT_LIST(IODFG_X_NAME)
#undef IODFG_X_NAME
};
static const char *const count_texts[] = {
#define IODFG_X_TEXT(id, name, text) text,
    IODFG_COUNT_LIST(IODFG_X_TEXT)
#undef IODFG_X_TEXT
};

const char *iodfg_count_name(enum iodfg_count c)
{
    return (unsigned)c < IODFG_COUNT__N ? count_names[c] : "?";
}

const char *iodfg_count_text(enum iodfg_count c)
{
    return (unsigned)c < IODFG_COUNT__N ? count_texts[c] : "?";
}

struct iodfg_eventlog *iodfg_eventlog_new(unsigned columns)
{
    struct iodfg_strpool *pool = iodfg_strpool_new();
    if (!pool) {
        return NULL;
    }
    return iodfg_eventlog_new_with_pool(columns, pool);
}

struct iodfg_eventlog *iodfg_eventlog_new_with_pool(unsigned columns,
                                                    struct iodfg_strpool *pool_take)
{
    struct iodfg_eventlog *log = calloc(1, sizeof(*log));
    if (!log) {
        iodfg_strpool_free(pool_take);
        return NULL;
    }
    log->pool = pool_take;
    log->mask = columns & IODFG_COL_ALL;
    log->offsets = calloc(1, sizeof(*log->offsets));
    if (!log->offsets) {
        iodfg_eventlog_free(log);
        return NULL;
    }
    return log;
}

void iodfg_columns_free(struct iodfg_columns *c)
{
    free(c->start_ns);
    free(c->dur_ns);
    free(c->size);
    free(c->offset);
    free(c->req);
    free(c->key);
    free(c->err);
    free(c->pid);
    free(c->fd);
    free(c->handle);
    memset(c, 0, sizeof(*c));
}

void iodfg_eventlog_free(struct iodfg_eventlog *log)
{
    if (!log) {
        return;
    }
    iodfg_columns_free(&log->cols);
    free(log->seq);
    free(log->cases);
    free(log->offsets);
    free(log->keys);
    free(log->key_slots);
    free(log->handles);
    iodfg_strpool_free(log->pool);
    free(log);
}

void iodfg_eventlog_clear(struct iodfg_eventlog *log)
{
    log->n = 0;
    log->building = 0;
    log->ncases = 0;
    log->offsets[0] = 0;
    log->nkeys = 0;
    if (log->key_slots) {
        memset(log->key_slots, 0, (size_t)log->key_nslots * sizeof(*log->key_slots));
    }
    log->raw_cache.valid = 0;
    log->nhandles = 0;
    log->handle_base = 0;
    iodfg_strpool_clear(log->pool);
}

struct iodfg_strpool *iodfg_eventlog_pool(const struct iodfg_eventlog *log)
{
    return log->pool;
}

unsigned iodfg_eventlog_column_mask(const struct iodfg_eventlog *log)
{
    return log->mask;
}

uint64_t iodfg_eventlog_event_count(const struct iodfg_eventlog *log)
{
    return log->n;
}

uint32_t iodfg_eventlog_case_count(const struct iodfg_eventlog *log)
{
    return log->ncases;
}

const struct iodfg_case_info *iodfg_eventlog_case(const struct iodfg_eventlog *log, uint32_t c)
{
    return c < log->ncases ? &log->cases[c] : NULL;
}

const uint64_t *iodfg_eventlog_case_offsets(const struct iodfg_eventlog *log)
{
    return log->offsets;
}

const struct iodfg_columns *iodfg_eventlog_columns(const struct iodfg_eventlog *log)
{
    return &log->cols;
}

uint32_t iodfg_eventlog_key_count(const struct iodfg_eventlog *log)
{
    return log->nkeys;
}

const struct iodfg_key *iodfg_eventlog_keys(const struct iodfg_eventlog *log)
{
    return log->keys;
}

size_t iodfg_eventlog_memory(const struct iodfg_eventlog *log)
{
    size_t per_event = 0;
    unsigned m = log->mask;
    per_event += (m & IODFG_COL_START ? 8 : 0) + (m & IODFG_COL_DUR ? 8 : 0) +
                 (m & IODFG_COL_SIZE ? 8 : 0) + (m & IODFG_COL_OFFSET ? 8 : 0) +
                 (m & IODFG_COL_REQ ? 8 : 0) + (m & IODFG_COL_KEY ? 4 : 0) +
                 (m & IODFG_COL_ERR ? 4 : 0) + (m & IODFG_COL_PID ? 4 : 0) +
                 (m & IODFG_COL_FD ? 4 : 0) + (m & IODFG_COL_HANDLE ? 4 : 0);
    return sizeof(*log) + per_event * log->cap + 8 * log->seq_cap +
           log->handles_cap * sizeof(*log->handles) + log->cases_cap * sizeof(*log->cases) +
           (log->cases_cap + 1) * sizeof(uint64_t) + log->keys_cap * sizeof(*log->keys) +
           log->key_nslots * sizeof(uint32_t) + iodfg_strpool_memory(log->pool);
}

/* ---- keys ---------------------------------------------------------------- */

static uint32_t key_hash(uint32_t call, uint32_t path, uint32_t layer)
{
    uint64_t x = ((uint64_t)call << 32 | path) * 0x9E3779B97F4A7C15ull;
    x ^= (uint64_t)layer * 0xC2B2AE3D27D4EB4Full;
    return (uint32_t)(x >> 32);
}

static int grow_keys(struct iodfg_eventlog *log)
{
    if (log->nkeys == log->keys_cap) {
        uint32_t cap = log->keys_cap ? log->keys_cap * 2 : 256;
        struct iodfg_key *k = realloc(log->keys, cap * sizeof(*k));
        if (!k) {
            return -1;
        }
        log->keys = k;
        log->keys_cap = cap;
    }
    if ((uint64_t)(log->nkeys + 1) * 2 > log->key_nslots) {
        uint32_t n = log->key_nslots ? log->key_nslots * 2 : 512;
        uint32_t *slots = calloc(n, sizeof(*slots));
        if (!slots) {
            return -1;
        }
        for (uint32_t k = 0; k < log->nkeys; k++) {
            uint32_t i =
                key_hash(log->keys[k].call, log->keys[k].path, log->keys[k].layer) & (n - 1);
            while (slots[i]) {
                i = (i + 1) & (n - 1);
            }
            slots[i] = k + 1;
        }
        free(log->key_slots);
        log->key_slots = slots;
        log->key_nslots = n;
    }
    return 0;
}

int iodfg_eventlog_key(struct iodfg_eventlog *log, uint32_t call, uint32_t path, uint32_t *key)
{
    return iodfg_eventlog_key_layer(log, call, path, IODFG_STR_EMPTY, key);
}

int iodfg_eventlog_key_layer(struct iodfg_eventlog *log, uint32_t call, uint32_t path,
                             uint32_t layer, uint32_t *key)
{
    uint32_t h = key_hash(call, path, layer);
    if (log->key_nslots) {
        uint32_t mask = log->key_nslots - 1;
        for (uint32_t i = h & mask; log->key_slots[i]; i = (i + 1) & mask) {
            const struct iodfg_key *k = &log->keys[log->key_slots[i] - 1];
            if (k->call == call && k->path == path && k->layer == layer) {
                *key = log->key_slots[i] - 1;
                return 0;
            }
        }
    }
    if (log->nkeys == UINT32_MAX - 1 || grow_keys(log)) {
        return -1;
    }
    uint32_t id = log->nkeys++;
    struct iodfg_key *k = &log->keys[id];
    memset(k, 0, sizeof(*k));
    k->call = call;
    k->path = path;
    k->layer = layer;
    k->kind = (uint8_t)iodfg_path_kind_of(iodfg_strpool_get(log->pool, path),
                                          iodfg_strpool_len(log->pool, path));
    k->scope = (uint8_t)(k->kind == IODFG_PATH_FILE ? IODFG_SCOPE_UNKNOWN : IODFG_SCOPE_NONE);
    uint32_t mask = log->key_nslots - 1, i = h & mask;
    while (log->key_slots[i]) {
        i = (i + 1) & mask;
    }
    log->key_slots[i] = id + 1;
    *key = id;
    return 0;
}

void iodfg_eventlog_key_set_fs(struct iodfg_eventlog *log, uint32_t key, uint32_t fs,
                               uint32_t fstype, enum iodfg_scope scope)
{
    if (key < log->nkeys) {
        log->keys[key].fs = fs;
        log->keys[key].fstype = fstype;
        log->keys[key].scope = (uint8_t)scope;
    }
}

/* ---- building ------------------------------------------------------------ */

static int realloc_col(void **p, size_t elem, uint64_t n, uint64_t cap)
{
    void *q = iodfg_bigmem_realloc(*p, elem * n, elem * cap);
    if (!q) {
        return -1;
    }
    *p = q;
    return 0;
}

static int grow_columns(struct iodfg_eventlog *log, uint64_t cap)
{
    struct iodfg_columns *c = &log->cols;
    unsigned m = log->mask;
    if ((m & IODFG_COL_START && realloc_col((void **)&c->start_ns, 8, log->n, cap)) ||
        (m & IODFG_COL_DUR && realloc_col((void **)&c->dur_ns, 8, log->n, cap)) ||
        (m & IODFG_COL_SIZE && realloc_col((void **)&c->size, 8, log->n, cap)) ||
        (m & IODFG_COL_OFFSET && realloc_col((void **)&c->offset, 8, log->n, cap)) ||
        (m & IODFG_COL_REQ && realloc_col((void **)&c->req, 8, log->n, cap)) ||
        (m & IODFG_COL_KEY && realloc_col((void **)&c->key, 4, log->n, cap)) ||
        (m & IODFG_COL_ERR && realloc_col((void **)&c->err, 4, log->n, cap)) ||
        (m & IODFG_COL_PID && realloc_col((void **)&c->pid, 4, log->n, cap)) ||
        (m & IODFG_COL_FD && realloc_col((void **)&c->fd, 4, log->n, cap)) ||
        (m & IODFG_COL_HANDLE && realloc_col((void **)&c->handle, 4, log->n, cap))) {
        return -1;
    }
    log->cap = cap;
    return 0;
}

/* Room for cap input orders of the open case (on huge pages: 4 KiB faults cost more than the
 * copy). 0, or -1 out of memory. */
static int grow_seq(struct iodfg_eventlog *log, uint64_t cap)
{
    uint64_t *q = iodfg_bigmem_realloc(log->seq, log->seq_cap * sizeof(*q), cap * sizeof(*q));
    if (!q) {
        return -1;
    }
    log->seq = q;
    log->seq_cap = cap;
    return 0;
}

int iodfg_eventlog_reserve(struct iodfg_eventlog *log, uint64_t events, struct iodfg_error *err)
{
    if (events <= log->cap) {
        return 0;
    }
    if (grow_columns(log, events)) {
        return iodfg_error_set(err, IODFG_E_NOMEM, "out of memory for %llu events",
                               (unsigned long long)events);
    }
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
    if (log->n == log->cap) {
        if (grow_columns(log, log->cap ? log->cap * 2 : 1024)) {
            return iodfg_error_set(err, IODFG_E_NOMEM, NULL);
        }
    }
    uint64_t i = log->n;
    struct iodfg_columns *c = &log->cols;
    uint64_t rel = i - log->offsets[log->ncases];
    if (rel == log->seq_cap && grow_seq(log, iodfg_bigmem_grow(log->seq_cap, 8, 1024))) {
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
    log->seq[rel] = seq;
    log->n++;
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
    // Consecutive events mostly repeat the previous (call, path): skip the hashing then.
    struct raw_key_cache *kc = &log->raw_cache;
    if (kc->valid && raw->call_len == kc->call_len && raw->path_len == kc->path_len &&
        memcmp(raw->call, kc->call, raw->call_len) == 0 &&
        memcmp(raw->path, kc->path, raw->path_len) == 0) {
        ev.key = kc->key;
    } else {
        uint32_t call, path;
        if (iodfg_strpool_intern(log->pool, raw->call, raw->call_len, &call) ||
            iodfg_strpool_intern(log->pool, raw->path, raw->path_len, &path) ||
            iodfg_eventlog_key(log, call, path, &ev.key)) {
            return iodfg_error_set(err, IODFG_E_NOMEM, NULL);
        }
        kc->valid = raw->call_len <= sizeof(kc->call) && raw->path_len <= sizeof(kc->path);
        if (kc->valid) {
            memcpy(kc->call, raw->call, raw->call_len);
            memcpy(kc->path, raw->path, raw->path_len);
            kc->call_len = raw->call_len;
            kc->path_len = raw->path_len;
            kc->key = ev.key;
        }
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
    if (!log->sorted) {
        rc = iodfg_eventlog_sort_range(log, first, log->n);
        if (rc) {
            iodfg_error_set(err, IODFG_E_NOMEM, NULL);
        }
    }
    log->building = 0;
    log->raw_cache.valid = 0;
    if (rc) {
        log->n = first; // drop the half-built case
        log->nhandles = log->handle_base;
        return -1;
    }
    log->ncases++;
    log->offsets[log->ncases] = log->n;
    return 0;
}

int iodfg_eventlog_adopt(struct iodfg_eventlog *log, struct iodfg_columns *cols, uint64_t events,
                         struct iodfg_case_info *cases, uint64_t *offsets, uint32_t case_count,
                         struct iodfg_error *err)
{
    if (log->building) {
        return iodfg_error_set(err, IODFG_E_ARG, "a case is open");
    }
    iodfg_columns_free(&log->cols);
    free(log->cases);
    free(log->offsets);
    log->cols = *cols;
    memset(cols, 0, sizeof(*cols));
    log->n = log->cap = events;
    log->cases = cases;
    log->offsets = offsets;
    log->ncases = log->cases_cap = case_count;
    return 0;
}

int iodfg_eventlog_adopt_handles(struct iodfg_eventlog *log, struct iodfg_handle *handles,
                                 uint32_t count, struct iodfg_error *err)
{
    if (log->building || log->nhandles) {
        return iodfg_error_set(err, IODFG_E_ARG, "the log already has handles");
    }
    if (count == UINT32_MAX) {
        return iodfg_error_set(err, IODFG_E_LIMIT, "too many handles");
    }
    free(log->handles);
    log->handles = handles;
    log->nhandles = log->handles_cap = count;
    return 0;
}
