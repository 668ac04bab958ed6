/* SPDX-License-Identifier: MIT */
/* iodfg-mpi: the reductions of the analysis that are more than sums (doc/mpi.md): nearest-rank
 * percentiles by summed histograms that narrow the range (mpi_reduce.c), maximum concurrency by
 * bucket sums that bound it, windows cut finer, and a sweep of the few points that may hold it
 * (mpi_conc.c). */
#ifndef IODFG_MPI_REDUCE_H
#define IODFG_MPI_REDUCE_H

#include <stddef.h>
#include <stdint.h>

#include "mpi_comm.h"

struct iodfg_error;
struct iodfg_session;

/* One percentile to find: the rank-th smallest (1-based) of the values that every process holds
 * at v[0..n) (its own part, in any order; rank counts over all). Or, with v NULL and first set,
 * the durations of one of the session's activities, read from its columns: first is this
 * process's histogram of them in the first round (iodfg_partial_dur_hist) and slot says which
 * range of iodfg_partial_dur_keep keeps them (2a: activity a's median, 2a + 1: its p95). */
struct mpi_pctl {
    const int64_t *v;
    uint64_t n;    /* this process's values */
    uint64_t rank; /* 0: no value anywhere (the result is IODFG_UNKNOWN) */
    const uint64_t *first;
    size_t slot;
};
/* Collective: the value of every target into out[i] (every process gets them; IODFG_UNKNOWN
 * when out of memory). s: the session whose durations targets with first read. */
void mpi_percentiles(const struct mpi_job *job, const struct iodfg_session *s,
                     const struct mpi_pctl *t, size_t n, int64_t *out);

/* Collective: the exact maximum concurrency of every activity (nact) over every process's part
 * of the session, and the time it is first reached, on process 0 (mc[a], when[a]; mc 0 and
 * when IODFG_UNKNOWN when no event of a has an interval). 0, or -1 with err (every process). */
int mpi_concurrency(const struct mpi_job *job, const struct iodfg_session *s, uint32_t nact,
                    uint32_t *mc, int64_t *when, struct iodfg_error *err);

#endif
