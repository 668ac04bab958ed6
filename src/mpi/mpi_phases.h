/* SPDX-License-Identifier: MIT */
/* iodfg-mpi: where a job's time goes. With IODFG_MPI_PHASES=1 in the environment, process 0
 * prints to standard error, per phase, the wall time of the slowest process and each process's
 * CPU time and the kernel's part of it (the figures of doc/mpi.md's profile); otherwise nothing is
 * measured. */
#ifndef IODFG_MPI_PHASES_H
#define IODFG_MPI_PHASES_H

#include "mpi_comm.h"

enum { MPI_PHASES_MAX = 16 };

struct mpi_phases {
    const struct mpi_job *job;
    int on, n;
    const char *name[MPI_PHASES_MAX];
    double wall[MPI_PHASES_MAX], cpu[MPI_PHASES_MAX], sys[MPI_PHASES_MAX];
    double wall0, cpu0, sys0;
};

/* Whether the environment variable name is set and not "0" (IODFG_MPI_PHASES, IODFG_MPI_TIME). */
int mpi_env_switch(const char *name);
/* Wall-clock seconds, readable before MPI_Init (MPI_Wtime is not). */
double mpi_wall_now(void);

/* Start the clock (on when IODFG_MPI_PHASES is set and not "0"). */
void mpi_phases_start(struct mpi_phases *p, const struct mpi_job *job);
/* The phase that ends now is called name (a string literal). Returns 0 (for use in a chain of
 * steps that return 0 on success). */
int mpi_phase(struct mpi_phases *p, const char *name);
/* Collective when on: process 0 prints the table. */
void mpi_phases_report(struct mpi_phases *p);

#endif
