/* SPDX-License-Identifier: MIT */
/* HDF5 store internals for strace -k stacks (4.2): the /stacks group, written and read. */
#ifndef IODFG_IO_STORE_STACKS_H
#define IODFG_IO_STORE_STACKS_H

#include <stdint.h>

#include <hdf5.h>

struct iodfg_eventlog;
struct iodfg_stacks;
struct reader;

/* The /stacks group (a file has it when some event has a stack; its minor version is then 2):
 * frame_object, frame_function (string ids), frame_flags (IODFG_FRAME_*), frame_offset and
 * frame_address, one row per frame; offsets (stacks + 1 entries) and frames: stack i is frame
 * rows frames[offsets[i] .. offsets[i+1]), innermost first; event_stack: one value per /events
 * row, 0 for none, else 1 + its stack's row. */
#define STORE_STACKS "stacks"
#define STORE_FRAME_OBJECT "frame_object"
#define STORE_FRAME_FUNCTION "frame_function"
#define STORE_FRAME_FLAGS "frame_flags"
#define STORE_FRAME_OFFSET "frame_offset"
#define STORE_FRAME_ADDRESS "frame_address"
#define STORE_STACK_OFFSETS "offsets"
#define STORE_STACK_FRAMES "frames"
#define STORE_EVENT_STACK "event_stack"
#define STORE_MINOR_STACKS 2u

/* The writer's stacks: the table in the file's string ids and a stack id per row written. */
struct store_stack_writer {
    struct iodfg_stacks *stacks; // NULL while no log had stacks
    uint32_t *ids;
    uint64_t n, cap;
};
void store_stacks_init(struct store_stack_writer *sw);
void store_stacks_fini(struct store_stack_writer *sw);
/* The stacks of src's events, about to be written as rows from rows_before on (src's cases in
 * order), its strings mapped by smap. 0, or -1 when out of memory. */
int store_stacks_add(struct store_stack_writer *sw, const struct iodfg_eventlog *src,
                     const uint32_t *smap, uint64_t rows_before);
/* /stacks of file (sw->stacks not NULL). 0 or -1. */
int store_stacks_write(hid_t file, const struct store_stack_writer *sw);

/* How a dataset of /stacks is made: put(ctx, group, name, file type, memory type, the n values)
 * with its checksum. 0 or -1. */
typedef int (*store_stacks_put_fn)(void *ctx, hid_t g, const char *name, hid_t ft, hid_t mt,
                                   const void *data, uint64_t n);
/* The frame table, offsets and frames of st into group g through put_fn. 0 or -1. */
int store_stacks_write_tables(hid_t g, const struct iodfg_stacks *st, store_stacks_put_fn put_fn,
                              void *ctx);
/* Give dataset d its checksum attribute. 0 or -1. */
int store_stacks_checksum(hid_t d, uint64_t sum);
/* The serial writer's put_fn (ctx unused): chunked and deflated from 4,096 values on. */
int store_stacks_put(void *ctx, hid_t g, const char *name, hid_t ft, hid_t mt, const void *data,
                     uint64_t n);
/* /stacks as the MPI job's process 0 writes it (store_par_stacks.c): the tables of st, then
 * event_stack (total values, contiguous) a run of rows at a time, in row order, its checksum
 * the XXH3-64 of the whole column. */
struct store_par_stacks {
    hid_t g, d;
    void *xxh; // XXH3_state_t
};
/* Create /stacks of file with st's tables and an empty event_stack of total values. 0 or -1
 * (s can be closed all the same). */
int store_par_stacks_open(struct store_par_stacks *s, hid_t file, const struct iodfg_stacks *st,
                          uint64_t total);
/* The n ids of rows [first, first + n) (first: the rows put so far). 0 or -1. */
int store_par_stacks_put(struct store_par_stacks *s, const uint32_t *ids, uint64_t first,
                         uint64_t n);
/* Give event_stack its checksum (with rc = 0) and close everything. rc, or -1 on failure. */
int store_par_stacks_close(struct store_par_stacks *s, int rc);

/* Write n values (memory type mtype) from buf to rows [first, + n) of 1-D dataset d
 * (store_par_part.c). 0 or -1. */
int store_par_slab(hid_t d, hid_t mtype, uint64_t first, uint64_t n, const void *buf);

/* Load /stacks, when the file has it, into the reader's log (already adopted its events): the
 * ids of the rows of the cases kept (first[i], rows[i] of ncases). 0, or -1 with err. */
int store_stacks_load(struct reader *r, const uint64_t *first, const uint64_t *rows,
                      uint32_t ncases);

#endif
