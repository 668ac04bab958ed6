/* SPDX-License-Identifier: MIT */
/* STORE_VECTORIZE marks the store's branch-free loops over columns (ranges, checks) for the
 * compiler's vectoriser: -O2 leaves them scalar, and the x86-64 baseline lacks unsigned and
 * 64-bit vector compares, which AVX2 has (a clone chosen at load time where the processor
 * has it; ifunc needs glibc). */
#ifndef IODFG_IO_STORE_VECTORIZE_H
#define IODFG_IO_STORE_VECTORIZE_H

#if defined(__GNUC__) && !defined(__clang__) && defined(__x86_64__) && defined(__GLIBC__)
#define STORE_VECTORIZE __attribute__((optimize("O3"), target_clones("avx2", "default")))
#elif defined(__GNUC__) && !defined(__clang__)
#define STORE_VECTORIZE __attribute__((optimize("O3")))
#else
#define STORE_VECTORIZE
#endif

#endif
