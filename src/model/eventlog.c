/* SPDX-License-Identifier: MIT */
/* Columnar event log: growable column arrays, case table, (call, path) key table. */
#include "config.h"

#include "iodfg/eventlog.h"

#include <stdlib.h>
#include <string.h>

#include "iodfg/bigmem.h"
#include "iodfg/error.h"
#include "iodfg/stacks.h"
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
    iodfg_stacks_free(log->stacks);
    free(log->stack);
    free(log->cur);
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
    eventlog_raw_cache_reset(&log->raw_cache);
    log->nhandles = 0;
    log->handle_base = 0;
    iodfg_stacks_free(log->stacks); // rare (strace -k): not worth keeping
    log->stacks = NULL;
    free(log->stack);
    log->stack = NULL;
    log->ncur = 0;
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
           log->key_nslots * sizeof(uint32_t) + iodfg_strpool_memory(log->pool) +
           (log->stack ? 4 * log->cap : 0) + iodfg_stacks_memory(log->stacks);
}

/* ---- keys ---------------------------------------------------------------- */

static uint32_t key_hash(uint32_t call, uint32_t path, uint32_t layer, uint32_t site)
{
    uint64_t x = ((uint64_t)call << 32 | path) * 0x9E3779B97F4A7C15ull;
    x ^= ((uint64_t)site << 32 | layer) * 0xC2B2AE3D27D4EB4Full;
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
            uint32_t i = key_hash(log->keys[k].call, log->keys[k].path, log->keys[k].layer,
                                  log->keys[k].site) &
                         (n - 1);
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
    return iodfg_eventlog_key_site(log, call, path, layer, IODFG_STR_EMPTY, key);
}

int iodfg_eventlog_key_site(struct iodfg_eventlog *log, uint32_t call, uint32_t path,
                            uint32_t layer, uint32_t site, uint32_t *key)
{
    uint32_t h = key_hash(call, path, layer, site);
    if (log->key_nslots) {
        uint32_t mask = log->key_nslots - 1;
        for (uint32_t i = h & mask; log->key_slots[i]; i = (i + 1) & mask) {
            const struct iodfg_key *k = &log->keys[log->key_slots[i] - 1];
            if (k->call == call && k->path == path && k->layer == layer && k->site == site) {
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
    k->site = site;
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

int eventlog_grow_columns(struct iodfg_eventlog *log, uint64_t cap)
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
        (m & IODFG_COL_HANDLE && realloc_col((void **)&c->handle, 4, log->n, cap)) ||
        eventlog_stack_grow(log, log->cap, cap)) {
        return -1;
    }
    log->cap = cap;
    return 0;
}

int eventlog_grow_seq(struct iodfg_eventlog *log, uint64_t cap)
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
    if (eventlog_grow_columns(log, events)) {
        return iodfg_error_set(err, IODFG_E_NOMEM, "out of memory for %llu events",
                               (unsigned long long)events);
    }
    return 0;
}

int iodfg_eventlog_reserve_case(struct iodfg_eventlog *log, uint64_t events,
                                struct iodfg_error *err)
{
    // whole huge pages for the narrowest (4-byte) columns, so for all: a fresh log's first
    // touch of its 4 KiB pages one by one cost more than parsing the file into it
    if (events < SIZE_MAX / 4) {
        events = iodfg_bigmem_fit((size_t)events, 4);
    }
    if (iodfg_eventlog_reserve(log, events, err)) {
        return -1;
    }
    if (events > log->seq_cap && eventlog_grow_seq(log, events)) {
        return iodfg_error_set(err, IODFG_E_NOMEM, "out of memory for %llu events",
                               (unsigned long long)events);
    }
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

/* ---- path kinds ---- */

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
