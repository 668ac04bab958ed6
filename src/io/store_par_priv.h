/* SPDX-License-Identifier: MIT */
/* Internals of the MPI job's store (iodfg-mpi): what each process other than 0 sends process 0,
 * which alone writes the file (store_par.c), and how it is made (store_par_part.c). Included
 * only by those files, after <hdf5.h> (the MPI build's, which brings <mpi.h>). */
#ifndef IODFG_IO_STORE_PAR_PRIV_H
#define IODFG_IO_STORE_PAR_PRIV_H

#include <stdint.h>

#include "store_priv.h"

struct iodfg_buf;
struct iodfg_handle;
struct iodfg_store_par_meta;
struct iodfg_store_par_part;

/* A part's events [first, first + n) cut at the /events chunks: head rows up to the first chunk
 * boundary (or the end), then nchunks whole chunks, then tail rows. */
struct store_par_cut {
    uint64_t head, nchunks, tail;
};
struct store_par_cut store_par_cut_of(uint64_t first, uint64_t n);

/* A process's part reaches process 0 as a series of messages, so that process 0 writes one
 * while the next is coded, and takes each into the same memory: the head rows, then the whole
 * chunks STORE_PAR_BATCH at a time, then the last (tail rows, handle rows, stack ids, block sums).
 * Every message has this header, then the pieces it counts, each at a multiple of 8 bytes: the
 * head rows (column by column, the file's values), the coded chunks' lengths (nchunks x
 * STORE_C__N), the coded chunks (chunk by chunk, column by column), the tail rows, the handle
 * rows, the stack ids, the block sums. ok = 0: the process failed and its part ends there; last:
 * the part's last message. */
struct store_par_hdr {
    uint64_t ok, head, nchunks, tail, coded, nhandles, hbase, nids, nsums, last;
};
#define STORE_PAR_BATCH 4
/* The pieces of a message, pointing into it. */
struct store_par_view {
    struct store_par_hdr h;
    const char *head[STORE_C__N], *tail[STORE_C__N];
    const char *coded;
    const uint64_t *sizes;
    const struct iodfg_handle *handles;
    const uint32_t *ids;
    const struct store_block_sum *sums;
};
/* The pieces of msg (len bytes). 0, or -1 when the lengths do not add up. */
int store_par_view_of(const char *msg, uint64_t len, struct store_par_view *v);

/* This process's part, coded here, to process 0 in its messages (the last says when packing
 * failed). 0, or -1 when out of memory or MPI failed. */
int store_par_send_part(MPI_Comm comm, const struct iodfg_store_par_meta *meta,
                        const struct iodfg_store_par_part *part);

/* Rows [at, at + n) of this part's column c, in the file's ids, into buf. */
void store_par_rows(const struct iodfg_store_par_meta *meta,
                    const struct iodfg_store_par_part *part, enum store_col c, uint64_t at,
                    uint64_t n, void *buf);
/* This part's rows of /event_checksums (its cases' blocks) into *out (malloc'd), *n of them. 0,
 * or -1 when out of memory. */
int store_par_block_sums(const struct iodfg_store_par_meta *meta,
                         const struct iodfg_store_par_part *part, struct store_block_sum **out,
                         uint64_t *n);

/* Process 0's memory for the messages, reused from one to the next. */
struct store_par_inbox {
    char *data;
    uint64_t len, cap;
};
/* The next message process from sends into in (grown when it is too small), its header into h.
 * -1 when out of memory or MPI fails: the message is then received and dropped all the same,
 * and h still holds its header when it had one (else it says last). */
int store_par_recv(MPI_Comm comm, int from, struct store_par_inbox *in, struct store_par_hdr *h);
/* Process 0, once the file is written or given up: tells every other process of comm. */
void store_par_done(MPI_Comm comm);
/* Another process: waits for process 0's word, asleep between looks (a collective would poll
 * at full speed on a core that process 0, writing the file alone, may need). */
void store_par_wait_done(MPI_Comm comm);

#endif
