/* SPDX-License-Identifier: MIT */
/* iodfg-mpi: strace -k stacks across processes. Convert merges every process's stack table into
 * the one a serial convert writes; the analysing commands split keys by call site alike on every
 * process. */
#ifndef IODFG_MPI_STACKS_H
#define IODFG_MPI_STACKS_H

#include <stdint.h>

struct iodfg_error;
struct iodfg_eventlog;
struct iodfg_stacks;
struct mpi_job;

/* The log's stacks: the table (strings in the file's ids; NULL when no process has stacks) and
 * this process's events' stack ids in it. */
struct mpi_stacks {
    struct iodfg_stacks *tab;
    uint32_t *ids; /* one per event of the part; NULL with tab */
};

/* Collective: gather every process's stack table of part (its strings mapped by smap to the
 * file's) and merge them in process order, as a serial writer merges its files' tables in file
 * order: the same frame and stack ids. 0, or -1 with err (on every process). */
int mpi_stacks_merge(const struct mpi_job *job, const struct iodfg_eventlog *part,
                     const uint32_t *smap, struct mpi_stacks *out, struct iodfg_error *err);
void mpi_stacks_fini(struct mpi_stacks *s);

/* Collective: split the keys of this process's part of a log with stacks by call site
 * (iodfg_callsites_split_keys) so that every process gets the key table a serial run gets: the
 * sites' new keys are met in process order, each process's in its events' order. focus_path:
 * the focus rules (NULL: the user's or the built-in ones). 0, or -1 with err (every process). */
int mpi_sites_split(const struct mpi_job *job, struct iodfg_eventlog *log, const char *focus_path,
                    struct iodfg_error *err);

#endif
