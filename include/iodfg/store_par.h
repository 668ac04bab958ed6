/* SPDX-License-Identifier: MIT */
/* The HDF5 event-log store of an MPI job (iodfg-mpi): one file, written by process 0 as the
 * serial writer writes one (its own files' events as they are parsed), each other process's
 * events a contiguous run of the /events rows, coded by that process and sent to process 0.
 * Built only with --with-mpi, against the MPI build of HDF5 (for MPI). Layout: doc/format.md. */
#ifndef IODFG_STORE_PAR_H
#define IODFG_STORE_PAR_H

#include <stdint.h>

struct iodfg_case_info;
struct iodfg_error;
struct iodfg_eventlog;
struct iodfg_handle;
struct iodfg_stacks;

/* What every process passes alike: the file's tables. */
struct iodfg_store_par_meta {
    const struct iodfg_eventlog *tab;    /* the file's string pool and key table (no events) */
    uint32_t nhandles;                   /* rows of the file's handle table, over all processes */
    uint32_t max_part_handles;           /* the largest part's handles (over all processes) */
    const struct iodfg_case_info *cases; /* every case in case order (string ids of tab) */
    uint32_t ncases;
    const uint64_t *case_first;        /* ncases + 1 entries: case i has rows [i], [i+1] */
    uint64_t max_part_rows;            /* the largest part's events (over all processes) */
    int case_views;                    /* as iodfg_store_set_case_views */
    const struct iodfg_stacks *stacks; /* strace -k: the file's stack table (strings in tab's
                                          ids), NULL for none: /stacks and minor 2 (4.2) */
};

/* What each process passes: its events, a contiguous run of the file's rows, and its handles,
 * a contiguous run of the file's handle table. */
struct iodfg_store_par_part {
    const struct iodfg_eventlog *log;   /* this process's cases (its own pool, keys and handles);
                                           on process 0 without events (streamed) */
    uint32_t *smap;                     /* log's string ids -> the file's (not changed) */
    uint32_t *kmap;                     /* log's key ids -> the file's (not changed) */
    uint32_t hbase;                     /* the file's id of log's handle 1, minus 1 */
    uint64_t first;                     /* the file's row of log's first event */
    const struct iodfg_handle *handles; /* log's handles in the file's ids: rows hbase, + n */
    uint32_t nhandles;
    const uint32_t *stack_ids; /* with meta->stacks: log's events' stack ids in it (0: none) */
};

/* A bound on the bytes the file of meta takes while it is written: the columns before HDF5 codes
 * them, the tables and the case groups (the log itself takes less). */
uint64_t iodfg_store_par_bytes(const struct iodfg_store_par_meta *meta);

/* Process 0's file being written. */
struct iodfg_store_par_sink;
/* On process 0 before the parse: create path (truncating it). NULL with err. */
struct iodfg_store_par_sink *iodfg_store_par_open(const char *path, int case_views,
                                                  struct iodfg_error *err);
/* On process 0, for each file parsed, in file order: append log's events (its cases), after
 * log's tables were appended to tab (iodfg_eventlog_append: tab holds its strings and keys; the
 * merge keeps process 0's ids, so they are the file's); hbase: tab's handle count before. 0,
 * or -1 with err. */
int iodfg_store_par_stream(struct iodfg_store_par_sink *sink, const struct iodfg_eventlog *log,
                           struct iodfg_eventlog *tab, uint32_t hbase, struct iodfg_error *err);
/* Close and free sink (NULL: nothing) without finishing the file. */
void iodfg_store_par_abort(struct iodfg_store_par_sink *sink);

/* Collective over the communicator *mpi_comm (a pointer to an MPI_Comm): finish the event log
 * of meta with every process's part. Process 0 passes its sink (taken: closed and freed), whose
 * events are its part's (part->log then holds its tables and no events), every other process
 * NULL: it codes its part and sends it to process 0. Every process returns 0, or -1 with err set
 * (the file is then incomplete: the caller removes it). */
int iodfg_store_par_write(struct iodfg_store_par_sink *sink, const char *path, const void *mpi_comm,
                          const struct iodfg_store_par_meta *meta,
                          const struct iodfg_store_par_part *part, struct iodfg_error *err);

/* Wait for *mpi_request (an MPI_Request) to complete, asleep between looks: MPI_Wait polls at
 * full speed, on a core that the process being waited for may need. */
void iodfg_store_par_wait(void *mpi_request);

#endif
