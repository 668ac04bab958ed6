/* SPDX-License-Identifier: MIT */
/* iodfg-mpi: the string pools, key tables, handles and cases of every process merged into the
 * tables of one event log, with the ids a serial convert of the same files gives. */
#ifndef IODFG_MPI_MERGE_H
#define IODFG_MPI_MERGE_H

#include <stdint.h>

struct iodfg_buf;
struct iodfg_case_info;
struct iodfg_error;
struct iodfg_eventlog;
struct iodfg_handle;

/* A cursor over packed bytes: mpi_take gives the next n of them, or NULL when fewer are left. */
struct mpi_cursor {
    const char *p, *end;
};
const void *mpi_take(struct mpi_cursor *c, uint64_t n);

/* The tables of log (its pool, keys, handles and cases with their event counts) as bytes. 0, or
 * -1 when out of memory. */
int mpi_tables_pack(const struct iodfg_eventlog *log, struct iodfg_buf *out);

struct mpi_merged {
    struct iodfg_eventlog *tab;    /* the file's string pool and keys (no events) */
    uint32_t nhandles;             /* rows of the file's handle table */
    uint32_t max_handles;          /* handles of the largest part */
    struct iodfg_case_info *cases; /* every case, strings in tab's pool */
    uint32_t ncases;
    uint64_t *case_first;  /* ncases + 1 row offsets */
    uint64_t max_rows;     /* events of the largest part */
    uint32_t *smap, *kmap; /* this process's string and key ids -> the file's */
    uint32_t hbase;        /* the file's id of this process's handle 1, minus 1 */
    uint64_t first;        /* the file's row of this process's first event */
};

/* Merge the packed tables of n processes (process p's at all + off[p] .. off[p + 1]) in process
 * order, interning each one's strings and keys in its own order as a serial writer meets them;
 * mine: this process, whose handle rows (own, nown of them: its log's, which it writes next and
 * reads no more) are moved to the file's ids where they lie. The other processes' handles are
 * only counted: each process writes its own rows, so no process holds the whole table. 0, or -1
 * with err (memory, damaged tables). Release with mpi_merged_fini. */
int mpi_tables_merge(const char *all, const uint64_t *off, struct iodfg_handle *own, uint32_t nown,
                     int n, int mine, struct mpi_merged *m, struct iodfg_error *err);
void mpi_merged_fini(struct mpi_merged *m);

#endif
