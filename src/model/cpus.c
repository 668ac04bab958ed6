/* SPDX-License-Identifier: MIT */
/* The processors a process may use (iodfg/cpus.h). */
#include "config.h"

#include "iodfg/cpus.h"

#include <sched.h>
#include <stdatomic.h>
#include <string.h>
#include <unistd.h>

static atomic_uint cpu_limit; /* 0: none */

static unsigned online(void)
{
    long n = sysconf(_SC_NPROCESSORS_ONLN);
    return n > 0 ? (unsigned)n : 1;
}

unsigned iodfg_cpu_count(void)
{
    uint64_t mask[IODFG_CPU_MASK_WORDS];
    iodfg_cpu_mask(mask);
    unsigned n = 0;
    for (unsigned w = 0; w < IODFG_CPU_MASK_WORDS; w++) {
        n += (unsigned)__builtin_popcountll(mask[w]);
    }
    n = n ? n : 1;
    unsigned limit = atomic_load(&cpu_limit);
    return limit && limit < n ? limit : n;
}

void iodfg_cpu_limit(unsigned n)
{
    atomic_store(&cpu_limit, n);
}

void iodfg_cpu_mask(uint64_t mask[IODFG_CPU_MASK_WORDS])
{
    memset(mask, 0, IODFG_CPU_MASK_WORDS * sizeof(*mask));
    const unsigned bits = IODFG_CPU_MASK_WORDS * 64;
#ifdef CPU_COUNT
    cpu_set_t set;
    if (sched_getaffinity(0, sizeof(set), &set) == 0 && CPU_COUNT(&set) > 0) {
        const unsigned top = bits < CPU_SETSIZE ? bits : CPU_SETSIZE;
        for (unsigned c = 0; c < top; c++) {
            mask[c / 64] |= CPU_ISSET(c, &set) ? (uint64_t)1 << (c % 64) : 0;
        }
        return;
    }
#endif
    for (unsigned c = 0; c < online() && c < bits; c++) {
        mask[c / 64] |= (uint64_t)1 << (c % 64);
    }
}

unsigned iodfg_cpu_share(const uint64_t *masks, size_t n, size_t mine)
{
    // sums of 1/k in a double are exact enough for a node's processes; the slack keeps k sums
    // of 1/k from rounding to just below 1
    const uint64_t *m = masks + mine * IODFG_CPU_MASK_WORDS;
    double share = 0;
    for (unsigned w = 0; w < IODFG_CPU_MASK_WORDS; w++) {
        for (uint64_t bits = m[w]; bits; bits &= bits - 1) {
            uint64_t bit = bits & -bits;
            size_t k = 0;
            for (size_t p = 0; p < n; p++) {
                k += (masks[p * IODFG_CPU_MASK_WORDS + w] & bit) != 0;
            }
            share += 1.0 / (double)k;
        }
    }
    unsigned whole = (unsigned)(share + 1e-9);
    return whole ? whole : 1;
}
