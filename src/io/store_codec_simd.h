/* SPDX-License-Identifier: MIT */
/* Vector instructions for the scale-offset decoder (store_codec.h): whole groups of eight
 * values, each group starting on a byte, decoded eight (wider values: four) at once on x86-64
 * processors with AVX2 (the check is made at run time). Elsewhere nothing is decoded here and the
 * portable loop does all of it; both give the same values (tests/unit/check_store_codec). */
#ifndef IODFG_IO_STORE_CODEC_SIMD_H
#define IODFG_IO_STORE_CODEC_SIMD_H

#include <stddef.h>

#include "store_codec.h"

#if defined(__x86_64__) && (defined(__GNUC__) || defined(__clang__))
#define STORE_SO_SIMD 1
#else
#define STORE_SO_SIMD 0
#endif
/* Widest values decoded here: a value and its shift within a byte fit a 32-bit word; into
 * 8-byte columns, a 64-bit word. */
#define STORE_SO_SIMD_MAX_BITS 25u
#define STORE_SO_SIMD_MAX_BITS_8 57u

/* Whether this processor runs the vector decoder. */
int store_so_simd_available(void);
/* Whether it decodes values of w bits into p's columns here (width and processor). */
int store_so_simd_takes(const struct store_so_params *p, unsigned w);
/* Decode up to `groups` groups of eight values (h->minbits bits each) from in, which starts
 * on a group and has `readable` bytes, into out (p->size bytes per value). Returns how many
 * groups were decoded: 0 when the width or the processor does not suit, fewer near the end
 * of the readable bytes, which a step reads past its own. */
size_t store_so_simd_groups(const struct store_so_params *p, const struct store_so_chunk *h,
                            const unsigned char *in, size_t readable, size_t groups, void *out);

#endif
