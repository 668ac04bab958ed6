/* SPDX-License-Identifier: MIT */
/* String pool: one growable byte arena, an offsets array and an open-addressing hash index. */
#include "config.h"

#include "iodfg/strpool.h"

#include <stdlib.h>
#include <string.h>

#define XXH_INLINE_ALL
#include <xxhash.h>

#include "iodfg/error.h"

struct iodfg_strpool {
    char *bytes;       // strings, each NUL-terminated
    uint64_t nbytes;
    uint64_t cap_bytes;
    uint64_t *offsets; // count+1 entries
    uint32_t *hashes;  // hash of each string (low 32 bits), to skip most memcmp calls
    uint32_t count;
    uint32_t cap;      // capacity of offsets-1 and hashes
    uint32_t *slots;   // id+1, 0 = empty
    uint32_t nslots;   // power of two
};

static uint32_t hash_bytes(const char *s, size_t len)
{
    return (uint32_t)XXH3_64bits(s, len);
}

static int grow_index(struct iodfg_strpool *pool)
{
    uint32_t n = pool->nslots ? pool->nslots * 2 : 64;
    if (n == 0) {
        return -1;
    }
    uint32_t *slots = calloc(n, sizeof(*slots));
    if (!slots) {
        return -1;
    }
    for (uint32_t id = 0; id < pool->count; id++) {
        uint32_t i = pool->hashes[id] & (n - 1);
        while (slots[i]) {
            i = (i + 1) & (n - 1);
        }
        slots[i] = id + 1;
    }
    free(pool->slots);
    pool->slots = slots;
    pool->nslots = n;
    return 0;
}

static int reserve_ids(struct iodfg_strpool *pool, uint32_t need)
{
    if (need <= pool->cap) {
        return 0;
    }
    uint64_t cap = pool->cap ? (uint64_t)pool->cap * 2 : 64;
    while (cap < need) {
        cap *= 2;
    }
    if (cap > UINT32_MAX - 1) {
        cap = UINT32_MAX - 1;
        if (cap < need) {
            return -1;
        }
    }
    uint64_t *off = realloc(pool->offsets, (cap + 1) * sizeof(*off));
    if (!off) {
        return -1;
    }
    pool->offsets = off;
    uint32_t *h = realloc(pool->hashes, cap * sizeof(*h));
    if (!h) {
        return -1;
    }
    pool->hashes = h;
    pool->cap = (uint32_t)cap;
    return 0;
}

static int reserve_bytes(struct iodfg_strpool *pool, uint64_t need)
{
    if (need <= pool->cap_bytes) {
        return 0;
    }
    if (need > ((uint64_t)1 << 40)) {
        return -1;
    }
    uint64_t cap = pool->cap_bytes ? pool->cap_bytes * 2 : 4096;
    while (cap < need) {
        cap *= 2;
    }
    char *b = realloc(pool->bytes, cap);
    if (!b) {
        return -1;
    }
    pool->bytes = b;
    pool->cap_bytes = cap;
    return 0;
}

// Append without checking for duplicates; the index must have room.
static int append(struct iodfg_strpool *pool, const char *s, size_t len, uint32_t h, uint32_t *id)
{
    if (reserve_ids(pool, pool->count + 1) || reserve_bytes(pool, pool->nbytes + len + 1)) {
        return -1;
    }
    if ((uint64_t)(pool->count + 1) * 4 > (uint64_t)pool->nslots * 3 && grow_index(pool)) {
        return -1;
    }
    uint32_t new_id = pool->count;
    if (len) {
        memcpy(pool->bytes + pool->nbytes, s, len);
    }
    pool->bytes[pool->nbytes + len] = '\0';
    pool->offsets[new_id] = pool->nbytes;
    pool->nbytes += len + 1;
    pool->offsets[new_id + 1] = pool->nbytes;
    pool->hashes[new_id] = h;
    pool->count++;
    uint32_t i = h & (pool->nslots - 1);
    while (pool->slots[i]) {
        i = (i + 1) & (pool->nslots - 1);
    }
    pool->slots[i] = new_id + 1;
    *id = new_id;
    return 0;
}

struct iodfg_strpool *iodfg_strpool_new(void)
{
    struct iodfg_strpool *pool = calloc(1, sizeof(*pool));
    uint32_t id;
    if (!pool || grow_index(pool) || append(pool, "", 0, hash_bytes("", 0), &id)) {
        iodfg_strpool_free(pool);
        return NULL;
    }
    return pool;
}

void iodfg_strpool_free(struct iodfg_strpool *pool)
{
    if (!pool) {
        return;
    }
    free(pool->bytes);
    free(pool->offsets);
    free(pool->hashes);
    free(pool->slots);
    free(pool);
}

void iodfg_strpool_clear(struct iodfg_strpool *pool)
{
    memset(pool->slots, 0, (size_t)pool->nslots * sizeof(*pool->slots));
    pool->count = 0;
    pool->nbytes = 0;
    uint32_t id;
    // "" fits: the arrays held it before.
    (void)append(pool, "", 0, hash_bytes("", 0), &id);
}

static int lookup(const struct iodfg_strpool *pool, const char *s, size_t len, uint32_t h,
                  uint32_t *id)
{
    uint32_t mask = pool->nslots - 1;
    for (uint32_t i = h & mask; pool->slots[i]; i = (i + 1) & mask) {
        uint32_t cand = pool->slots[i] - 1;
        if (pool->hashes[cand] != h) {
            continue;
        }
        uint64_t off = pool->offsets[cand];
        if (pool->offsets[cand + 1] - off - 1 == len && memcmp(pool->bytes + off, s, len) == 0) {
            *id = cand;
            return 0;
        }
    }
    return -1;
}

/* The same for text holding NUL bytes: each becomes '?' (strings are stored NUL-terminated, and
 * an event log with an inner NUL could not be read back). */
static int intern_nul(struct iodfg_strpool *pool, const char *s, size_t len, uint32_t *id)
{
    char *copy = malloc(len);
    if (!copy) {
        return -1;
    }
    for (size_t i = 0; i < len; i++) {
        copy[i] = s[i] ? s[i] : '?';
    }
    int rc = iodfg_strpool_intern(pool, copy, len, id);
    free(copy);
    return rc;
}

int iodfg_strpool_intern(struct iodfg_strpool *pool, const char *s, size_t len, uint32_t *id)
{
    uint32_t h = hash_bytes(s, len);
    if (lookup(pool, s, len, h, id) == 0) {
        return 0;
    }
    if (len && memchr(s, '\0', len)) { // only a string not seen yet is looked at
        return intern_nul(pool, s, len, id);
    }
    return append(pool, s, len, h, id);
}

int iodfg_strpool_find(const struct iodfg_strpool *pool, const char *s, size_t len, uint32_t *id)
{
    return lookup(pool, s, len, hash_bytes(s, len), id);
}

const char *iodfg_strpool_get(const struct iodfg_strpool *pool, uint32_t id)
{
    if (id >= pool->count) {
        return "";
    }
    return pool->bytes + pool->offsets[id];
}

size_t iodfg_strpool_len(const struct iodfg_strpool *pool, uint32_t id)
{
    if (id >= pool->count) {
        return 0;
    }
    return (size_t)(pool->offsets[id + 1] - pool->offsets[id] - 1);
}

uint32_t iodfg_strpool_count(const struct iodfg_strpool *pool)
{
    return pool->count;
}

const char *iodfg_strpool_bytes(const struct iodfg_strpool *pool, uint64_t *nbytes)
{
    *nbytes = pool->nbytes;
    return pool->bytes;
}

const uint64_t *iodfg_strpool_offsets(const struct iodfg_strpool *pool)
{
    return pool->offsets;
}

struct iodfg_strpool *iodfg_strpool_from_raw(const char *bytes, uint64_t nbytes,
                                             const uint64_t *offsets, uint32_t count,
                                             struct iodfg_error *err)
{
    if (count == 0 || offsets[0] != 0 || offsets[count] != nbytes || nbytes == 0 ||
        bytes[0] != '\0') {
        iodfg_error_set(err, IODFG_E_FORMAT, "string table is empty or does not start with \"\"");
        return NULL;
    }
    struct iodfg_strpool *pool = calloc(1, sizeof(*pool));
    if (!pool || reserve_ids(pool, count) || reserve_bytes(pool, nbytes)) {
        iodfg_strpool_free(pool);
        iodfg_error_set(err, IODFG_E_NOMEM, NULL);
        return NULL;
    }
    while ((uint64_t)count * 4 > (uint64_t)pool->nslots * 3) {
        if (grow_index(pool)) {
            iodfg_strpool_free(pool);
            iodfg_error_set(err, IODFG_E_NOMEM, NULL);
            return NULL;
        }
    }
    for (uint32_t i = 0; i < count; i++) {
        uint64_t a = offsets[i], b = offsets[i + 1];
        if (b <= a || b > nbytes || bytes[b - 1] != '\0' || memchr(bytes + a, '\0', b - a - 1)) {
            iodfg_strpool_free(pool);
            iodfg_error_set(err, IODFG_E_FORMAT, "string table entry %u is malformed", i);
            return NULL;
        }
        uint32_t h = hash_bytes(bytes + a, b - a - 1), dup;
        if (lookup(pool, bytes + a, b - a - 1, h, &dup) == 0) {
            iodfg_strpool_free(pool);
            iodfg_error_set(err, IODFG_E_FORMAT, "string table entry %u repeats entry %u", i, dup);
            return NULL;
        }
        uint32_t id;
        append(pool, bytes + a, b - a - 1, h, &id); // cannot fail: room reserved above
    }
    return pool;
}

size_t iodfg_strpool_memory(const struct iodfg_strpool *pool)
{
    return sizeof(*pool) + pool->cap_bytes + (size_t)(pool->cap + 1) * sizeof(uint64_t) +
           (size_t)pool->cap * sizeof(uint32_t) + (size_t)pool->nslots * sizeof(uint32_t);
}
