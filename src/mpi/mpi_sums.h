/* SPDX-License-Identifier: MIT */
/* iodfg-mpi: the concurrency's bucket sums of every process added up (iodfg/partial.h). */
#ifndef IODFG_MPI_SUMS_H
#define IODFG_MPI_SUMS_H

#include <stddef.h>
#include <stdint.h>

#include "mpi_comm.h"

/* Collective: every process's sums of np pairs (mine: this process's) added up into sums on
 * every process. 0, or -1 when out of memory (every process). */
int mpi_sums_reduce(const struct mpi_job *job, const int64_t *mine, int64_t *sums, size_t np);

#endif
