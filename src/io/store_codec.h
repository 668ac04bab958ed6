/* SPDX-License-Identifier: MIT */
/* HDF5's scale-offset filter (H5Z_FILTER_SCALEOFFSET, integer form) for one chunk, written
 * and read by iodfg itself: HDF5's own codec moves about 200 MB/s, ours several GB/s, and
 * both produce the same bytes, so every HDF5 reader (h5dump, h5py) decodes our chunks.
 *
 * A chunk is a 21-byte header (minbits as 4 little-endian bytes, the byte 8, the chunk's
 * minimum as 8 little-endian bytes, 8 zero bytes) and then each value minus the minimum in
 * minbits bits, most significant bit first, back to back. With a fill value, fill values
 * are left out of the minimum and stored as minbits one-bits. A chunk whose range needs the
 * full width stores the values as they are (little-endian). Pure code: no HDF5 here. */
#ifndef IODFG_IO_STORE_CODEC_H
#define IODFG_IO_STORE_CODEC_H

#include <stddef.h>
#include <stdint.h>

#define STORE_SO_HEADER 21u

/* The dataset's filter parameters that matter here. */
struct store_so_params {
    unsigned size;   /* bytes per value: 4 or 8 */
    int is_signed;   /* the minimum and maximum compare as signed values */
    int has_fill;    /* the dataset has a fill value */
    uint64_t fill;   /* its bit pattern (zero-extended) */
    uint32_t nelmts; /* values per chunk (a partial last chunk is padded to it) */
};

/* One chunk's header. */
struct store_so_chunk {
    uint32_t minbits;
    uint64_t minval;
};

/* The most bytes store_so_encode writes for a chunk. */
size_t store_so_bound(const struct store_so_params *p);
/* Encode p->nelmts native values into out (store_so_bound bytes); returns the chunk's size. */
size_t store_so_encode(const struct store_so_params *p, const void *values, unsigned char *out);

/* Read a chunk's header from its first bytes and check that a chunk of chunk_bytes holds
 * every value it announces. 0, or -1 (damaged) with *why set. */
int store_so_header(const struct store_so_params *p, const unsigned char *head, uint64_t chunk_bytes,
                    struct store_so_chunk *h, const char **why);
/* The bytes of the chunk (from its start) that hold values [i, i + n). */
void store_so_span(const struct store_so_params *p, const struct store_so_chunk *h, uint64_t i,
                   uint64_t n, uint64_t *offset, uint64_t *bytes);
/* Decode values [i, i + n) into out (native, p->size each) from the bytes that
 * store_so_span named, read into in; in must be followed by 8 readable bytes. */
void store_so_decode(const struct store_so_params *p, const struct store_so_chunk *h,
                     const unsigned char *in, uint64_t i, uint64_t n, void *out);
/* The same one value at a time, without vector instructions (tests compare the two). */
void store_so_decode_portable(const struct store_so_params *p, const struct store_so_chunk *h,
                              const unsigned char *in, uint64_t i, uint64_t n, void *out);

#endif
