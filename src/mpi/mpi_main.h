/* SPDX-License-Identifier: MIT */
/* iodfg-mpi: the commands, an analysing command's part of the job, and the job-wide progress
 * bar. */
#ifndef IODFG_MPI_MAIN_H
#define IODFG_MPI_MAIN_H

#include <stdint.h>

#include "iodfg/session_job.h"

#include "mpi_comm.h"
#include "mpi_phases.h"

struct iodfg_bin_opts;
struct iodfg_characterization;
struct iodfg_error;
struct iodfg_selection;
struct iodfg_session;

/* The commands: argv[0] is the command's name; every process returns the same enum cli_exit. */
int mpi_convert(const struct mpi_job *job, int argc, char **argv);
int mpi_dfg(const struct mpi_job *job, int argc, char **argv);
int mpi_stats(const struct mpi_job *job, int argc, char **argv);
int mpi_characterize(const struct mpi_job *job, int argc, char **argv);
/* The commands of a file in one job (mpi_batch.c). */
int mpi_batch(const struct mpi_job *job, int argc, char **argv);
/* Run the command argv[1] (argv[0] is the program). */
int mpi_dispatch(const struct mpi_job *job, int argc, char **argv);

/* This process's part of an analysing command: the job on its session (session_job.h), whose
 * reductions below get the part as their ctx. */
struct mpi_part {
    const struct mpi_job *job;
    struct iodfg_job sj;
    int edge_gaps; /* the output shows the edges' gap medians: the merge finds them */
    struct mpi_phases phases;
};
/* The session job's merge (mpi_results.c) and characterisation (mpi_charz.c). */
int mpi_merge_results(void *ctx, struct iodfg_session *s, struct iodfg_error *err);
int mpi_charz(void *ctx, const struct iodfg_session *s, const struct iodfg_selection *sel,
              const struct iodfg_bin_opts *o, int64_t alignment, struct iodfg_characterization *r,
              struct iodfg_error *err);

/* One progress bar for the whole job, on process 0: every process adds the bytes it parsed to a
 * counter in process 0's memory (one-sided), which process 0 shows now and then. */
struct mpi_progress {
    const struct mpi_job *job;
    MPI_Win win;
    uint64_t *sum; /* process 0: the counter */
    uint64_t total, told;
    double last;
    int on;
};
/* Collective. total: bytes of the whole job; quiet: no bar. 0, or -1 (memory). */
int mpi_progress_init(struct mpi_progress *p, const struct mpi_job *job, uint64_t total, int quiet);
/* iodfg_ingest_progress_fn: this process has parsed done of its total bytes. */
void mpi_progress_step(void *ctx, uint64_t done, uint64_t total);
/* This process has finished parsing (the bar ends on process 0 when every process has). */
void mpi_progress_done(struct mpi_progress *p);
/* Collective. */
void mpi_progress_fini(struct mpi_progress *p);

#endif
