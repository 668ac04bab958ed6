/* SPDX-License-Identifier: MIT */
/* Internals shared by the HDF5 store's writer and reader: layout constants, the row type, and
 * the schema helpers of store_schema.c. */
#ifndef IODFG_IO_STORE_PRIV_H
#define IODFG_IO_STORE_PRIV_H

#include <stdint.h>

#include "iodfg/error.h"
#include "iodfg/eventlog.h"

/* One row of a case's `events` table, in memory and (little-endian) on disk: the paper's
 * columns first, then the extra ones; 64 bytes, no padding. */
struct store_row {
    int32_t pid;
    uint32_t call; /* string id (= keys/call[key]) */
    int64_t start; /* ns; IODFG_UNKNOWN (INT64_MIN) marks unknown values in every int64 column */
    int64_t dur;
    uint32_t fp; /* string id of the path (= keys/path[key]) */
    uint32_t key;
    int64_t size, offset, req;
    int32_t fd;
    uint32_t err; /* string id of the errno name, 0 ("") when the call succeeded */
};

/* Most rows per chunk and per read/write slab. Tables of up to this many rows are contiguous;
 * longer ones are cut into equal chunks of at most this many rows (so that the last chunk
 * wastes little space), and slabs follow the chunks. */
#define STORE_CHUNK_ROWS 65536u

/* Rows per chunk (and slab) of a table of n rows. */
static inline uint64_t store_chunk_rows(uint64_t n)
{
    uint64_t k = (n + STORE_CHUNK_ROWS - 1) / STORE_CHUNK_ROWS;
    return k > 1 ? (n + k - 1) / k : STORE_CHUNK_ROWS;
}

/* Group and dataset names. */
#define STORE_CASES "cases"
#define STORE_EVENTS "events"
#define STORE_STR_BYTES "strings/bytes"
#define STORE_STR_OFFSETS "strings/offsets"
#define STORE_KEY_CALL "keys/call"
#define STORE_KEY_PATH "keys/path"
/* Since 1.1: per-case handle column, the handle table, key layers and file systems. */
#define STORE_HANDLE "handle"
#define STORE_HANDLES "handles"
#define STORE_KEY_LAYER "keys/layer"
#define STORE_KEY_FS "keys/fs"
#define STORE_KEY_FSTYPE "keys/fstype"
#define STORE_KEY_SCOPE "keys/scope"

/* Since 2.0 a case group holds one 1-D dataset per column instead of the `events` table, in
 * this order (the writer creates them so; the loader finds them by name). */
enum store_col {
    STORE_C_PID,
    STORE_C_CALL,
    STORE_C_START,
    STORE_C_DUR,
    STORE_C_FP,
    STORE_C_SIZE,
    STORE_C_KEY,
    STORE_C_OFFSET,
    STORE_C_REQ,
    STORE_C_FD,
    STORE_C_ERR,
    STORE_C_HANDLE, /* optional in 2.0, as in 1.1 (the same dataset name); always there in 3.0 */
    STORE_C__N
};

/* Since 3.0 the events of all cases lie in one 1-D dataset per column under /events (the cases'
 * rows back to back, in case order), chunked in STORE_EVENT_CHUNK_ROWS rows; whole chunks are
 * stored unfiltered (only the last, partial one is deflated), so that a loader reads a column
 * with a few large reads and opens 12 datasets whatever the number of cases. /case_table holds
 * one row per case: what the loader needs (the case groups keep their attributes for other
 * readers, and with --case-views a virtual view of their rows of each column; the loader does
 * not open them). */
#define STORE_EVENT_GROUP "events"
#define STORE_CASE_TABLE "case_table"
#define STORE_EVENT_CHUNK_ROWS (1u << 16)
/* 4.0: the /events columns' filters are scale-offset (first) and deflate (second); a chunk's
 * filter mask has bit i set when filter i was skipped. */
#define STORE_MASK_DEFLATE_SKIPPED 2u

/* One row of /case_table, in memory (the file type is the little-endian equivalent). */
struct store_case_row {
    uint32_t name, cid, host, rid, source; /* string ids */
    uint32_t naming, clock;                /* enum iodfg_naming, enum iodfg_clock */
    uint64_t first, rows;                  /* the case's rows of the /events columns */
    uint64_t lines, bytes;
    uint64_t counts[IODFG_COUNT__N]; /* one member per count, named as iodfg_count_name says */
};

/* 4.1: checksums (store_sum.c). Every dataset but the /events columns has an attribute
 * `checksum`: the XXH3-64 of its values (integers little-endian at their width); of a compound
 * table, the sum mod 2^64 over its rows i of the XXH3-64 of row i (members in order, packed,
 * little-endian) with seed i, so that processes writing parts of it can add theirs up. The
 * /events columns are summed in blocks: each case's rows cut every STORE_SUM_BLOCK_ROWS rows
 * from its first; /event_checksums has one row per block, cases in case order, one member per
 * column (named as the column): the XXH3-64 of the block's values of that column. */
#define STORE_CHECKSUM "checksum"
#define STORE_BLOCK_SUMS "event_checksums"
#define STORE_SUM_BLOCK_ROWS (1u << 16)
struct store_block_sum {
    uint64_t sum[STORE_C__N]; /* by enum store_col */
};
/* XXH3-64 of n little-endian values of width bytes at p (native order in memory). */
uint64_t store_sum_values(const void *p, uint64_t n, unsigned width);
/* store_sum_values a run at a time: n more values into xxh3_state (an XXH3_state_t, reset). */
void store_sum_update(void *xxh3_state, const void *p, uint64_t n, unsigned width);
/* Blocks of a case of rows rows. */
uint64_t store_blocks_of(uint64_t rows);
/* The block sums of the cases being written, in case order. */
struct store_block_hash;
struct store_block_hash *store_block_hash_new(void);
void store_block_hash_free(struct store_block_hash *h);
/* k more rows of the current case: column c's values (the file's, native order) at vals[c]. 0, or
 * -1 when out of memory. */
int store_block_hash_add(struct store_block_hash *h, const void *const *vals, uint32_t k);
/* The current case ends (its last, shorter block is summed). 0 or -1. */
int store_block_hash_end_case(struct store_block_hash *h);
const struct store_block_sum *store_block_hash_sums(const struct store_block_hash *h, uint64_t *n);

struct store_col_desc {
    const char *name;
    unsigned size; /* bytes per value, on disk and in memory */
    int is_signed;
};
extern const struct store_col_desc store_cols[STORE_C__N];
/* Since 4.0 every /events column is coded with HDF5's scale-offset filter (store_codec.h)
 * and this fill value, the column's "no value": IODFG_UNKNOWN for 64-bit columns, INT32_MIN
 * (no descriptor) for the signed 32-bit ones, 0 (no string, no handle) for the others. Its bit
 * pattern, zero-extended. */
uint64_t store_col_fill(enum store_col c);

/* Names of enum iodfg_naming values as stored in the `naming` case attribute. */
const char *store_naming_name(unsigned naming);

/* Set err to code with "<context>: <HDF5's reason>", the reason taken from the current HDF5
 * error stack (outermost and innermost entries), which is then cleared. Adds path as
 * err->where. Returns -1. */
int store_h5_error(struct iodfg_error *err, enum iodfg_status code, const char *path,
                   const char *fmt, ...) __attribute__((format(printf, 4, 5)));

/* Turn off HDF5's automatic error printing for the calling thread (HDF5 keeps it per thread
 * in thread-safe builds), so the library never writes to stderr; failures are remembered for
 * store_h5_error instead. Call at the start of every store operation. */
void store_h5_quiet(void);

#ifdef H5_VERS_MAJOR
/* (Only for files that include <hdf5.h>: the header itself stays free of it.) */

/* The compound type of struct store_row: file = 1 for the little-endian file type, 0 for the
 * native memory type. A negative id when HDF5 fails. The caller closes it. */
hid_t store_row_type(int file);
/* The type of column c: file = 1 for the little-endian file type, 0 for the native one (a
 * predefined type: do not close it). */
hid_t store_col_type(enum store_col c, int file);
/* The same for struct iodfg_handle (rows of /handles). */
hid_t store_handle_type(int file);
/* The same for struct store_case_row (rows of /case_table). */
hid_t store_case_type(int file);
/* The same for struct store_block_sum (rows of /event_checksums). */
hid_t store_block_sum_type(int file);
/* The checksum of n rows of compound memory type mtype at rows, numbered from first (the part
 * of the table's sum these rows make). */
uint64_t store_sum_rows(hid_t mtype, const void *rows, uint64_t n, uint64_t first);
/* The checksum of n values of memory type mtype (integers, or compound rows) at buf. */
uint64_t store_sum_of(hid_t mtype, const void *buf, uint64_t n);
/* Read (write = 0) or write values [first, first + n) of 1-D dataset d as memory type mtype
 * from or into buf. 0, or -1 (HDF5's error stack says why). */
int store_h5_rows(hid_t d, hid_t mtype, uint64_t first, uint64_t n, void *buf, int write);
#endif

#endif
