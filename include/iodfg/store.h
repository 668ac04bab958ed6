/* SPDX-License-Identifier: MIT */
/* The HDF5 event-log store: write cases into one file atomically, load it back, summarise it.
 * The file layout is described in doc/format.md. */
#ifndef IODFG_STORE_H
#define IODFG_STORE_H

#include <stdint.h>

struct iodfg_error;
struct iodfg_eventlog;
struct iodfg_store_writer;

/* Version of the layout this build writes; it reads every minor of the same major. */
#define IODFG_STORE_FORMAT "iodfg-eventlog"
#define IODFG_STORE_VERSION 4u
#define IODFG_STORE_MINOR 1u

/* Create a writer whose output becomes final_path on commit. It writes to a temp file
 * ".NAME.tmp-XXXXXX" in the same directory and refuses an existing final_path unless force
 * (IODFG_E_EXISTS). NULL with err set on failure. One writer is used by one thread at a time. */
struct iodfg_store_writer *iodfg_store_create(const char *final_path, int force,
                                              struct iodfg_error *err);

/* With on, each case group also gets a virtual dataset per column: its rows of the /events
 * columns, for readers that want one table per case (iodfg does not read them; HDF5 makes
 * them slowly, about 0.6 ms per case) and the file then needs HDF5 1.10 to be read. Off by
 * default; set before writing cases. 0, or -1 with err set. */
int iodfg_store_set_case_views(struct iodfg_store_writer *w, int on, struct iodfg_error *err);

/* Name of the temp file (borrowed until commit/abort), so a signal handler can unlink it. */
const char *iodfg_store_temp_path(const struct iodfg_store_writer *w);

/* Append every case of log (any pool: its strings and keys are re-interned into the writer's
 * own tables, so memory stays bounded by one chunk of rows, 4.5 MiB, plus those tables).
 * Cases keep the order written. 0, or -1 with err set (the writer must then be aborted). */
int iodfg_store_write_cases(struct iodfg_store_writer *w, const struct iodfg_eventlog *log,
                            struct iodfg_error *err);

/* Write the shared tables and root attributes, close, fsync and move the file onto
 * final_path. Frees w in every case; on failure the temp file is removed. */
int iodfg_store_commit(struct iodfg_store_writer *w, struct iodfg_error *err);

/* Close and delete the temp file and free w. NULL is fine. */
void iodfg_store_abort(struct iodfg_store_writer *w);

/* 1 if path is a regular HDF5 file (not necessarily an iodfg one), 0 otherwise (text traces,
 * missing or unreadable files; pipes and devices are not opened). */
int iodfg_store_is_hdf5(const char *path);

/* Call first in main(), before any log is opened: HDF5 then leaves its files to the operating
 * system at exit instead of closing them from an exit handler, which crashes on a file whose
 * close failed (a full disk, a file size limit: seen with HDF5 1.10). The writers close their
 * files themselves. */
void iodfg_store_process_init(void);

/* Called now and then while loading with the events read so far and the total. */
typedef void (*iodfg_progress_fn)(void *ctx, uint64_t done, uint64_t total);

/* Load a whole log keeping the given columns (enum iodfg_column bits, e.g.
 * IODFG_COL_ANALYSIS). progress may be NULL. The caller frees the result with
 * iodfg_eventlog_free. NULL with err set: IODFG_E_IO (cannot read), IODFG_E_FORMAT (not an
 * iodfg event log, or damaged; msg names the case), IODFG_E_VERSION (newer major version),
 * IODFG_E_NOMEM. */
struct iodfg_eventlog *iodfg_store_load(const char *path, unsigned columns,
                                        iodfg_progress_fn progress, void *ctx,
                                        struct iodfg_error *err);

/* The same with a number of threads (at most 4): 1 reads on the calling thread only, 0 picks one
 * per core (fewer for small logs). Threads other than the caller only read and check raw column
 * data with pread; every HDF5 call stays on the calling thread. iodfg_store_load uses 0. */
struct iodfg_eventlog *iodfg_store_load_threads(const char *path, unsigned columns,
                                                unsigned threads, iodfg_progress_fn progress,
                                                void *ctx, struct iodfg_error *err);

/* The same for cases [first, first + n) of the log only (fewer when it has fewer), in one
 * thread, without handles (the handle table is the whole log's): what one process of an MPI job
 * reads. Needs format 3.0 or newer (IODFG_E_VERSION otherwise). */
struct iodfg_eventlog *iodfg_store_load_cases(const char *path, unsigned columns, uint32_t first,
                                              uint32_t n, iodfg_progress_fn progress, void *ctx,
                                              struct iodfg_error *err);

/* Which cases [*first, *first + *count) of a log of ncases, of events[i] events each (NULL when
 * out of memory), one process reads. */
typedef void (*iodfg_store_part_fn)(void *ctx, uint64_t ncases, const uint64_t *events,
                                    uint32_t *first, uint32_t *count);
/* iodfg_store_load_cases for the cases part(part_ctx, ...) chooses once the log is open from its
 * case table: one opening of the file instead of iodfg_store_stat's and the load's. */
struct iodfg_eventlog *iodfg_store_load_part(const char *path, unsigned columns,
                                             iodfg_store_part_fn part, void *part_ctx,
                                             struct iodfg_error *err);

/* Cheap summary from the root attributes, without reading events: number of cases, events
 * and the format's major version (any output pointer may be NULL). 0, or -1 as for load. */
int iodfg_store_stat(const char *path, uint64_t *cases, uint64_t *events, unsigned *version,
                     struct iodfg_error *err);

#endif
