/* SPDX-License-Identifier: MIT */
/* iodfg-mpi: the job's processes and the few collective steps the commands share (agreeing on
 * success, moving bytes). <mpi.h> is included only in src/mpi/. */
#ifndef IODFG_MPI_COMM_H
#define IODFG_MPI_COMM_H

#include <mpi.h>
#include <stddef.h>
#include <stdint.h>

struct iodfg_error;

struct mpi_job {
    MPI_Comm comm;
    int rank, size;
};

/* Collective: limit this process's threads to its share of the processors it shares with the
 * job's other processes on its node (iodfg_cpu_share); how many it may now use. */
unsigned mpi_share_cores(const struct mpi_job *job);
/* Collective: 0 when every process passed rc 0; else -1 on every process, with err set on each
 * to the error of the lowest-ranked process that failed. */
int mpi_agree(const struct mpi_job *job, int rc, struct iodfg_error *err);
/* Collective: every process's exit status (an enum cli_exit, 0 = ok): the lowest failing
 * process's on every process. What that process said on its standard error (which processes
 * other than 0 keep in a temporary file, see mpi_capture_stderr) is printed by process 0. */
int mpi_agree_status(const struct mpi_job *job, int rc);
/* On processes other than 0: keep standard error in a temporary file. 0, or -1. */
int mpi_capture_stderr(void);
/* On processes other than 0: forget what the capture holds (a batch's next command). */
void mpi_reset_stderr(const struct mpi_job *job);

/* Collective: process 0's len bytes at *data to every process; the others get a malloc'd copy
 * in *data (freed by the caller). 0, or -1 with err (on every process). */
int mpi_bcast_bytes(const struct mpi_job *job, char **data, uint64_t *len, struct iodfg_error *err);
/* Collective: every process's len bytes at mine, back to back in process order, into *all
 * (malloc'd), process p's at (*off)[p] .. (*off)[p + 1] (size + 1 entries, malloc'd). 0, or -1
 * with err (on every process). */
int mpi_allgather_bytes(const struct mpi_job *job, const void *mine, uint64_t len, char **all,
                        uint64_t **off, struct iodfg_error *err);
/* The same to process 0 only: there *all holds them; elsewhere *all is an empty buffer and *off
 * says what each process gave. */
int mpi_gather_bytes(const struct mpi_job *job, const void *mine, uint64_t len, char **all,
                     uint64_t **off, struct iodfg_error *err);
/* Collective: sum n counters over the processes into every process's v. */
void mpi_sum_u64(const struct mpi_job *job, uint64_t *v, int n);

#endif
