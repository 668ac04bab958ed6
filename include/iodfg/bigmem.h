/* SPDX-License-Identifier: MIT */
/* Memory for large arrays (event columns, timelines): aligned to 2 MiB and marked for
 * transparent huge pages, because on the virtual machines of login nodes faulting in 4 KiB
 * pages one by one costs more than filling them. Freed with free(). */
#ifndef IODFG_BIGMEM_H
#define IODFG_BIGMEM_H

#include <stddef.h>

/* bytes of memory (at least 1): huge-page backed when large. NULL when out of memory. */
void *iodfg_bigmem_alloc(size_t bytes);
/* Grow or shrink p (old_bytes of it in use; NULL allowed) to bytes, keeping the contents.
 * NULL when out of memory (p is then unchanged). */
void *iodfg_bigmem_realloc(void *p, size_t old_bytes, size_t bytes);

/* The next capacity of a doubling array of elem-byte elements now holding cap (from first when
 * 0): past 256 KiB it goes straight to a whole huge page, whose one fault costs less than the
 * small ones it replaces. */
size_t iodfg_bigmem_grow(size_t cap, size_t elem, size_t first);

/* A capacity of at least n elem-byte elements for an array reserved once: past 256 KiB it is
 * rounded up to whole huge pages, so that the array is backed by them (the pages never touched
 * cost no memory; the ones touched fault once each instead of 4 KiB at a time). */
size_t iodfg_bigmem_fit(size_t n, size_t elem);

#endif
