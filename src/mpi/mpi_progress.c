/* SPDX-License-Identifier: MIT */
/* iodfg-mpi: one progress bar for the whole job, drawn by process 0 from a counter that every
 * process adds its parsed bytes to with one-sided MPI (no process waits for another). */
#include "config.h"

#include <stdio.h>
#include <string.h>

#include "cmdline/cli_progress.h"
#include "mpi_main.h"

int mpi_progress_init(struct mpi_progress *p, const struct mpi_job *job, uint64_t total, int quiet)
{
    memset(p, 0, sizeof(*p));
    p->job = job;
    p->total = total;
    p->win = MPI_WIN_NULL;
    int on = !quiet, all = 0;
    MPI_Allreduce(&on, &all, 1, MPI_INT, MPI_MIN, job->comm);
    if (!all) {
        return 0;
    }
    MPI_Aint size = job->rank == 0 ? (MPI_Aint)sizeof(uint64_t) : 0;
    if (MPI_Win_allocate(size, (int)sizeof(uint64_t), MPI_INFO_NULL, job->comm, &p->sum, &p->win) !=
        MPI_SUCCESS) {
        p->win = MPI_WIN_NULL;
        return -1;
    }
    if (job->rank == 0) {
        *p->sum = 0;
    }
    MPI_Barrier(job->comm);
    p->on = 1;
    return 0;
}

/* Add what this process parsed since it last told; process 0 then draws the job's total. */
static void tell(struct mpi_progress *p, uint64_t done)
{
    uint64_t delta = done - p->told, now = 0;
    p->told = done;
    MPI_Win_lock(MPI_LOCK_SHARED, 0, 0, p->win);
    MPI_Accumulate(&delta, 1, MPI_UINT64_T, 0, 0, 1, MPI_UINT64_T, MPI_SUM, p->win);
    MPI_Win_unlock(0, p->win);
    if (p->job->rank == 0) {
        MPI_Win_lock(MPI_LOCK_SHARED, 0, 0, p->win);
        MPI_Get(&now, 1, MPI_UINT64_T, 0, 0, 1, MPI_UINT64_T, p->win);
        MPI_Win_unlock(0, p->win);
        cli_progress(NULL, now, p->total);
    }
}

void mpi_progress_step(void *ctx, uint64_t done, uint64_t total)
{
    struct mpi_progress *p = ctx;
    (void)total;
    double t = MPI_Wtime();
    if (p->on && done > p->told && t - p->last >= 0.2) {
        p->last = t;
        tell(p, done);
    }
}

void mpi_progress_done(struct mpi_progress *p)
{
    if (!p->on) {
        return;
    }
    MPI_Barrier(p->job->comm); // every process has added all it parsed
    if (p->job->rank == 0) {
        cli_progress(NULL, p->total, p->total);
        cli_progress_end();
    }
}

void mpi_progress_fini(struct mpi_progress *p)
{
    // a job that stopped before its parse never set the bar up: its window is not MPI_WIN_NULL
    if (p->job && p->win != MPI_WIN_NULL) {
        MPI_Win_free(&p->win);
    }
    p->on = 0;
}
