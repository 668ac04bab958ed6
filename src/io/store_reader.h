/* SPDX-License-Identifier: MIT */
/* Internals shared by the files of the HDF5 store's reader: the reader and loader state and the
 * steps the load driver (store_read.c) calls. Split so that each file keeps one concern: root
 * and tables (store_read_meta.c), cases (store_read_case.c), raw columns in threads
 * (store_read_cols.c), HDF5 reads (store_read_h5.c). */
#ifndef IODFG_IO_STORE_READER_H
#define IODFG_IO_STORE_READER_H

#include <pthread.h>
#include <stdatomic.h>
#include <stddef.h>
#include <stdint.h>

#include <hdf5.h>

#include "iodfg/error.h"
#include "iodfg/eventlog.h"
#include "iodfg/store.h"

#include "store_codec.h"
#include "store_priv.h"

/* The state of one load (or stat) of a file. */
struct reader {
    const char *path;
    hid_t file, cases, mtype, ftype; // ftype: our events type as written, for a quick check
    uint64_t fsize; // bound for dataset sizes (times 1100 for filtered ones: store_max_bytes)
    uint32_t nstr;  // strings in the file's table; ids read must be below
    struct iodfg_strpool *pool;
    struct iodfg_eventlog *log;
    uint32_t nkeys;
    struct iodfg_case_info *cases_info;
    uint64_t *offsets;
    uint32_t ncases;
    uint32_t nhandles; // rows of /handles (0 in files before 1.1)
    unsigned columns;  // columns asked for
    int vfd;           // HDF5's own descriptor of the file (sec2 driver), else -1: no raw reads
    uint64_t vfd_size; // its size
    struct case_plan *plan;
    struct store_event_cols *ev;        // 3.0: the /events columns (NULL for older layouts)
    int sums;                           // 4.1: the datasets carry checksums
    struct store_block_sum *block_sums; // 4.1: /event_checksums (NULL: nothing to check)
    struct iodfg_error *err;
};

/* A whole chunk of an /events column that we read ourselves: as it is, or scale-offset coded
 * (4.0) with the header so. */
struct store_chunk {
    uint64_t addr, bytes;
    int coded;
    struct store_so_chunk so;
};

/* The /events columns of a 3.0 or 4.0 file (those the load needs are open). */
struct store_event_cols {
    hid_t ids[STORE_C__N];
    uint64_t chunk_rows[STORE_C__N];        // raw columns: rows per chunk, 0 when contiguous
    uint64_t addr[STORE_C__N];              // contiguous raw columns: where the data starts
    struct store_chunk *chunks[STORE_C__N]; // chunked raw columns: each whole chunk
    struct store_so_params so[STORE_C__N];  // their scale-offset parameters (coded chunks)
    int tail_deflated[STORE_C__N]; // chunked: the last, partial chunk is scale-offset, then deflate
    uint64_t tail_first[STORE_C__N];        // raw columns: rows from here on are in tail
    void *tail[STORE_C__N]; // the rows of the last, partial chunk (native values, read at open)
};

/* How a case is read. */
struct case_plan {
    uint64_t first; // 3.0: the case's first row in the /events columns (0 before)
    uint64_t rows;
    int compound;   // an `events` table (1.0, 1.1)
    int raw;        // every column needed is a plain native array in the file: read with pread
    int has_handle; // the handle dataset exists
    uint64_t block; // 4.1: the case's first row of /event_checksums
    uint64_t addr[STORE_C__N]; // 2.0: file offsets of the raw data (raw cases)
};

/* A run of rows of a raw case, or (3.0) several whole small cases, read by whichever thread
 * takes it. */
struct item {
    uint32_t cs;
    uint32_t ncases;     // 1, or the whole cases cs .. cs + ncases - 1
    uint64_t first, end; // rows of case cs (ncases 1)
};

/* What went wrong in a raw read (put into words by the calling thread at the end: the string
 * pool that names cases may still grow while the helpers run). */
struct failure {
    enum { F_MSG, F_READ, F_ROW, F_HANDLE, F_SUM } kind; // F_MSG: the message is in source.err
    enum iodfg_status code;
    int col, errnum;
    const char *why;
    uint64_t row;
};

/* The handle ids a case owns: when exact, exactly lo .. lo + count - 1. */
struct store_handle_span {
    uint32_t lo, count, last;
    int exact;
};

/* The loading state shared by the threads. */
struct loader {
    struct reader *r;
    struct iodfg_columns *c;
    const uint64_t *kcp; // key -> (path << 32 | call); at least one entry
    const struct iodfg_handle *handles;
    struct store_handle_span *spans; // per case, once the handle table is read (NULL: none)
    // Work items are appended while the cases are scanned, taken in order (under lock).
    struct item *items;
    size_t nitems, cap, next;
    int closed; // no more items will come
    pthread_cond_t more;
    atomic_uint_fast64_t done;      // events read
    atomic_uint_fast32_t fail_case; // lowest case known to fail (UINT32_MAX: none)
    pthread_mutex_t lock;
    int failed;
    uint32_t fail_cs;
    uint64_t fail_row;
    struct iodfg_error fail_err;
    int fail_is_raw; // the failure is fail_f, still to be put into words
    struct failure fail_f;
};

/* Where rows of one case come from: raw reads of HDF5's descriptor, or H5Dread (ids). */
struct source {
    struct loader *L;
    uint32_t cs;
    const struct case_plan *p;
    const hid_t *ids;        // NULL for raw reads
    int check_handles;       // check handle ids here (raw reads leave it for the end)
    struct failure *f;       // raw reads: what failed
    struct iodfg_error *err; // H5Dread: the message
};

/* Per-thread buffers for the columns that are checked but not kept. */
struct scratch {
    uint32_t *key, *call, *fp, *err;
    int64_t *start;
};

/* The caller's progress callback and what it was last told. */
struct progress {
    iodfg_progress_fn fn;
    void *ctx;
    uint64_t total, reported;
};

/* ---- root, attributes and shared tables (store_read_meta.c) ---------------------------------- */

/* IODFG_E_FORMAT with a printf-style context and HDF5's reason, if it has one. Returns -1. */
int store_damaged(struct reader *r, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* Most bytes dataset d may decode to (the file size, times 1100 when filtered). */
uint64_t store_max_bytes(const struct reader *r, hid_t d);
/* String attribute a as a malloc'd copy in *out. 0, or -1 (err set). */
int store_read_str(struct reader *r, hid_t a, const char *name, char **out, size_t *len);
/* Non-negative integer attribute a. 0, or -1 (err set). */
int store_read_uint(struct reader *r, hid_t a, const char *name, uint64_t *v);
/* The same by name on loc: 0 = found, 1 = absent, -1 = bad (err set). */
int store_get_uint(struct reader *r, hid_t loc, const char *name, uint64_t *v);
/* Check and open r->path, its format and version attributes, and HDF5's descriptor. 0 or -1. */
int store_open_log(struct reader *r, unsigned *version);
/* Read `bytes` at offset `at` of descriptor fd into buf: 0, or -1 with errno (0 when the file
 * ended first). */
int store_pread_all(int fd, void *buf, size_t bytes, uint64_t at);
/* Where the chunks of chunked column c (n values, cr rows per chunk) lie and how they are
 * coded, when we can read them ourselves: ev->chunks[c], ev->so[c]; the last, partial one too
 * when it is coded like the whole ones (else ev->tail_first[c] says where it starts).
 * 0 = so, 1 = HDF5 must read them, -1 = error (err set: no memory, or a damaged chunk). */
int store_locate_chunks(struct reader *r, struct store_event_cols *ev, int c, uint64_t cr,
                        uint64_t n);
/* Rows [ev->tail_first[c], n) of chunked column c, the start of its last chunk, into out
 * ourselves when that chunk is scale-offset coded and then deflated (our serial writer's: zlib,
 * then our decoder; HDF5's decoder takes a byte at a time). A last chunk coded like the others
 * (iodfg-mpi's) is read where it lies (store_locate_chunks). 0 = done, 1 = HDF5 must read them. */
int store_read_deflated_tail(const struct reader *r, const struct store_event_cols *ev, int c,
                             uint64_t n, void *out);
/* Read all n elements (esize bytes each in memory type mt) of dataset d into buf, with pread
 * when it is stored as exactly that, else H5Dread. 0, or -1 (HDF5's stack or errno says why). */
int store_read_whole(const struct reader *r, hid_t d, hid_t mt, size_t esize, uint64_t n,
                     void *buf);
/* The whole 1-D compound table `name` (at most max rows), read as type(0) (the memory type
 * maker of store_priv.h, esize bytes per row) into *buf (from store_alloc_column; NULL when
 * empty), *n rows. 0, or -1 with err set. */
int store_get_table(struct reader *r, const char *name, hid_t (*type)(int), size_t esize,
                    uint64_t max, uint64_t *n, void **buf);
/* The string table into r->pool. 0 or -1. */
int store_load_strings(struct reader *r);
/* Create r->log (taking r->pool) and fill its key table. 0 or -1. */
int store_load_keys(struct reader *r, unsigned columns);
/* /handles, each row checked, into r->log (absent before 1.1). 0 or -1. */
int store_load_handles(struct reader *r, struct store_handle_span *spans);

/* ---- cases: groups, attributes and layout (store_read_case.c) -------------------------------- */

/* Open case i (in creation order) as a group. 0, or -1 (err set). */
int store_open_group(struct reader *r, uint32_t i, hid_t *g);
/* The events table of case i (formats 1.0 and 1.1), shape checked. 0 or -1. */
int store_open_events(struct reader *r, uint32_t i, hid_t g, hid_t *d, uint64_t *rows);
/* Close a case group and dataset (either may be negative). */
void store_close_case(hid_t g, hid_t d);
/* Open the column datasets case i needs into ids (the caller closes them) and fill p. 0 or -1. */
int store_open_columns(struct reader *r, uint32_t i, hid_t g, struct case_plan *p,
                       hid_t ids[STORE_C__N]);
/* Bits (1 << enum store_col) of the datasets a load of `columns` reads: those asked for and
 * those every load checks. */
unsigned store_needed_datasets(unsigned columns);
/* Close the datasets store_open_columns opened. */
void store_close_columns(hid_t ids[STORE_C__N]);
/* Case i's attributes, layout and row count into r->cases_info[i] and p. 0 or -1. */
int store_scan_case(struct reader *r, uint32_t i, struct case_plan *p);
/* Open /cases and size the per-case arrays. 0 or -1. */
int store_open_cases(struct reader *r);
/* Scan every case without reading events: their total in *total. 0 or -1. */
int store_scan_cases(struct reader *r, uint64_t *total);

/* ---- 3.0: the case table and the /events columns (store_read_events.c) ----------------------- */

/* /case_table into r->cases_info, r->plan (first, rows) and r->offsets; the sum of the rows in
 * *total. 0 or -1. */
int store_load_case_table(struct reader *r, uint64_t *total);
/* Open the /events columns the load needs (each `total` long) into r->ev and mark every case
 * raw when all of them can be read with pread. 0 or -1. */
int store_open_event_columns(struct reader *r, uint64_t total);
void store_close_event_columns(struct reader *r);
/* n values of raw /events column c from row `first` into buf. 0, or -1 with errno (0: the
 * file ended). */
int store_pread_rows(const struct reader *r, int c, uint64_t first, uint64_t n, void *buf);

/* ---- 2.0 and 3.0 columns read with pread in threads (store_read_cols.c) ---------------------- */

/* Record a failure (message in err) of case cs at row; the lowest (case, row) wins. */
void store_record_failure(struct loader *L, uint32_t cs, uint64_t row,
                          const struct iodfg_error *err);
/* The message of failure f of case cs into err (calling thread only). */
void store_put_failure(const struct loader *L, uint32_t cs, const struct failure *f,
                       struct iodfg_error *err);
/* Name of case cs (borrowed from the log's pool). */
const char *store_case_name(const struct loader *L, uint32_t cs);
/* Per-thread scratch buffers: 0, or -1 when out of memory (free them anyway). */
int store_scratch_alloc(struct scratch *x);
void store_scratch_free(struct scratch *x);
/* Read and check rows [first, end) of a columnar case into the log's columns. On failure
 * s->f says what and where. */
int store_read_rows(struct source *s, uint64_t first, uint64_t end, struct scratch *x);
/* Report progress (main thread only) when enough events were read since the last report. */
void store_report(struct loader *L, struct progress *pr);
/* Take and do raw work items until none is left or an earlier case failed. */
void store_run_items(struct loader *L, struct scratch *x, struct progress *pr);
/* Thread body of a helper: store_run_items with its own scratch buffers. */
void *store_worker(void *arg);
/* Stop the helpers (they finish the item in hand) and wait for them. */
void store_stop_helpers(struct loader *L, pthread_t *tid, unsigned *started);
/* Complete the spans store_load_handles counted (before any handle id is checked): a case
 * without handles gets the empty span at 1; a span is exact when its ids run without a gap. */
void store_handle_spans_finish(struct store_handle_span *spans, uint32_t ncases);
/* Check the handle columns of the raw cases up to case `last` against the handle table. */
void store_check_raw_handles(struct loader *L, uint32_t last);

/* ---- HDF5 reads: 1.x events tables and converted columns (store_read_h5.c) ------------------- */

/* Case cs stored as an `events` table (1.0, 1.1), read, checked and scattered. 0 or -1. */
int store_read_compound(struct reader *r, struct loader *L, uint32_t cs, struct store_row *rows,
                        struct progress *pr);
/* A columnar case HDF5 must convert, read with H5Dread; *bad_row on failure. 0 or -1. */
int store_read_converted(struct reader *r, struct loader *L, uint32_t cs, struct scratch *x,
                         uint64_t *bad_row);

/* ---- checksums (store_sum.c) ----------------------------------------------------------------- */

/* /event_checksums into r->block_sums, each case's first block into its plan (before a range
 * of the cases is kept). 0, or -1 with err set. */
int store_load_block_sums(struct reader *r);
/* Check the blocks of case cs that its rows [first, end) hold whole (first a multiple of the
 * block, end one or the case's end) in the log's columns cols, for the columns loaded. 0, or -1
 * with the column and the block's first row. */
int store_check_sums(const struct reader *r, const struct iodfg_columns *cols, uint32_t cs,
                     uint64_t first, uint64_t end, int *bad_col, uint64_t *bad_row);
/* The log's array filled from dataset c, NULL when not asked for (call, fp: never). */
void *store_log_column(const struct iodfg_columns *c, int col);

/* Memory for a column of `bytes` (freed with free()), huge-page aligned when large
 * (store_read_meta.c). */
void *store_alloc_column(size_t bytes);

/* A whole 1-D dataset of unsigned integers `name` (missing: damaged) read as mtype (esize bytes
 * each), at most max elements, its checksum checked (4.1); *buf is malloc'd. 0, or -1 with err. */
int store_get_array(struct reader *r, const char *name, hid_t mtype, size_t esize, uint64_t max,
                    uint64_t *n, void **buf);

#endif
