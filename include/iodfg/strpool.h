/* SPDX-License-Identifier: MIT */
/* String pool: every distinct byte string is stored once and named by a dense uint32 id. */
#ifndef IODFG_STRPOOL_H
#define IODFG_STRPOOL_H

#include <stddef.h>
#include <stdint.h>

struct iodfg_error;
struct iodfg_strpool;

/* Id of the empty string, present in every pool. */
#define IODFG_STR_EMPTY 0u

/* A new pool holding only "" (id 0). NULL when out of memory. Free with iodfg_strpool_free. */
struct iodfg_strpool *iodfg_strpool_new(void);
void iodfg_strpool_free(struct iodfg_strpool *pool);
/* Forget every string but "" and keep the memory, so that a pool reused for the next file
 * touches no fresh pages. */
void iodfg_strpool_clear(struct iodfg_strpool *pool);

/* Intern len bytes at s and store its id in *id. A NUL byte in it is stored as '?' (strings are
 * kept NUL-terminated).
 * Returns 0, or -1 when out of memory or past 2^32-2 strings / 2^40 bytes. */
int iodfg_strpool_intern(struct iodfg_strpool *pool, const char *s, size_t len, uint32_t *id);

/* Look a string up without adding it: 0 and *id when present, -1 when absent. */
int iodfg_strpool_find(const struct iodfg_strpool *pool, const char *s, size_t len, uint32_t *id);

/* The NUL-terminated string of id (borrowed until the next intern); "" for an unknown id. */
const char *iodfg_strpool_get(const struct iodfg_strpool *pool, uint32_t id);
/* Its length in bytes. */
size_t iodfg_strpool_len(const struct iodfg_strpool *pool, uint32_t id);
/* Number of strings, "" included. */
uint32_t iodfg_strpool_count(const struct iodfg_strpool *pool);

/* Raw storage, for writing the pool out: all strings NUL-terminated back to back; string i
 * starts at offsets[i], and offsets has count+1 entries (the last is the total size). */
const char *iodfg_strpool_bytes(const struct iodfg_strpool *pool, uint64_t *nbytes);
const uint64_t *iodfg_strpool_offsets(const struct iodfg_strpool *pool);

/* Rebuild a pool from raw storage as returned above (copies it). Checks that offsets
 * increase, that each string is NUL-terminated without inner NULs, that string 0 is "" and
 * that no string repeats; reports a violation as IODFG_E_FORMAT in err. */
struct iodfg_strpool *iodfg_strpool_from_raw(const char *bytes, uint64_t nbytes,
                                             const uint64_t *offsets, uint32_t count,
                                             struct iodfg_error *err);

/* Bytes of memory held by the pool. */
size_t iodfg_strpool_memory(const struct iodfg_strpool *pool);

#endif
