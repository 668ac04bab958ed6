/* SPDX-License-Identifier: MIT */
/* iodfg-mpi: sums of arrays over the processes where most entries are empty: the concurrency's
 * bucket sums (iodfg/partial.h) and the percentiles' histograms. */
#ifndef IODFG_MPI_SUMS_H
#define IODFG_MPI_SUMS_H

#include <stddef.h>
#include <stdint.h>

#include "mpi_comm.h"

/* Collective: every process's sums of np pairs (mine: this process's) added up into sums on
 * every process. 0, or -1 when out of memory (every process). */
int mpi_sums_reduce(const struct mpi_job *job, const int64_t *mine, int64_t *sums, size_t np);

/* Collective: every process's n counts (mine) added up into sum (not overlapping mine) on every
 * process, as whole arrays or as the counts that are not 0. 0, or -1 when out of memory (every
 * process). */
int mpi_counts_reduce(const struct mpi_job *job, const uint64_t *mine, uint64_t *sum, size_t n);

#endif
