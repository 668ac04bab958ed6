/* SPDX-License-Identifier: MIT */
/* Large arrays on transparent huge pages (advice only: without THP they are plain memory). */
#include "config.h"

#include "iodfg/bigmem.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

#define HUGE_PAGE ((size_t)2 << 20)
/* From one huge page on: a 4 KiB fault costs this VM about as much as filling 50 KiB, so a
 * huge page beats 512 small faults even when it is not full. */
#define BIG HUGE_PAGE

void *iodfg_bigmem_alloc(size_t bytes)
{
#ifdef MADV_HUGEPAGE
    if (bytes >= BIG && bytes <= SIZE_MAX - HUGE_PAGE) {
        size_t rounded = (bytes + HUGE_PAGE - 1) & ~(HUGE_PAGE - 1);
        void *p = NULL;
        if (posix_memalign(&p, HUGE_PAGE, rounded) != 0) {
            return NULL;
        }
        madvise(p, rounded, MADV_HUGEPAGE); // only advice: failure changes nothing
        return p;
    }
#endif
    return malloc(bytes ? bytes : 1);
}

void *iodfg_bigmem_realloc(void *p, size_t old_bytes, size_t bytes)
{
    if (bytes < BIG) {
        return realloc(p, bytes ? bytes : 1);
    }
    void *q = iodfg_bigmem_alloc(bytes);
    if (q && p) {
        memcpy(q, p, old_bytes < bytes ? old_bytes : bytes);
        free(p);
    }
    return q;
}

size_t iodfg_bigmem_grow(size_t cap, size_t elem, size_t first)
{
    size_t next = cap ? (cap <= SIZE_MAX / 2 ? cap * 2 : SIZE_MAX) : first;
    if (elem && next / 4 < SIZE_MAX / elem && next * elem > HUGE_PAGE / 8 &&
        next * elem < HUGE_PAGE) {
        next = (HUGE_PAGE + elem - 1) / elem; // bigmem_alloc takes it from a huge page
    }
    return next;
}

size_t iodfg_bigmem_fit(size_t n, size_t elem)
{
    if (!elem || n > (SIZE_MAX - HUGE_PAGE) / elem || n * elem <= HUGE_PAGE / 8) {
        return n;
    }
    size_t bytes = (n * elem + HUGE_PAGE - 1) & ~(HUGE_PAGE - 1);
    return bytes / elem;
}
