/* SPDX-License-Identifier: MIT */
/* iodfg-mpi: per-phase wall and CPU times of every process, printed by process 0. */
#include "config.h"

#include "mpi_phases.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <time.h>

static double clock_s(clockid_t id)
{
    struct timespec ts;
    clock_gettime(id, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

static double cpu_now(void)
{
    return clock_s(CLOCK_PROCESS_CPUTIME_ID);
}

/* Kernel CPU seconds: on a virtual machine page faults can cost more than the work. */
static double sys_now(void)
{
    struct rusage ru;
    getrusage(RUSAGE_SELF, &ru);
    return (double)ru.ru_stime.tv_sec + (double)ru.ru_stime.tv_usec / 1e6;
}

double mpi_wall_now(void)
{
    return clock_s(CLOCK_MONOTONIC);
}

int mpi_env_switch(const char *name)
{
    const char *env = getenv(name);
    return env && *env && strcmp(env, "0") != 0;
}

void mpi_phases_start(struct mpi_phases *p, const struct mpi_job *job)
{
    memset(p, 0, sizeof(*p));
    p->job = job;
    p->on = mpi_env_switch("IODFG_MPI_PHASES");
    p->wall0 = MPI_Wtime();
    p->cpu0 = cpu_now();
    p->sys0 = sys_now();
}

int mpi_phase(struct mpi_phases *p, const char *name)
{
    if (!p->on || p->n == MPI_PHASES_MAX) {
        return 0;
    }
    double w = MPI_Wtime(), c = cpu_now(), k = sys_now();
    p->name[p->n] = name;
    p->wall[p->n] = w - p->wall0;
    p->cpu[p->n] = c - p->cpu0;
    p->sys[p->n] = k - p->sys0;
    p->n++;
    p->wall0 = w;
    p->cpu0 = c;
    p->sys0 = k;
    return 0;
}

void mpi_phases_report(struct mpi_phases *p)
{
    if (!p->on) {
        return;
    }
    int size = p->job->size, n = p->n, root = p->job->rank == 0;
    size_t cells = (size_t)size * MPI_PHASES_MAX;
    double *wall = root ? calloc(cells, sizeof(*wall)) : NULL;
    double *cpu = root ? calloc(cells, sizeof(*cpu)) : NULL;
    double *sys = root ? calloc(cells, sizeof(*sys)) : NULL;
    if (root && (!wall || !cpu || !sys)) {
        MPI_Abort(p->job->comm, 1);
    }
    MPI_Gather(p->wall, MPI_PHASES_MAX, MPI_DOUBLE, wall, MPI_PHASES_MAX, MPI_DOUBLE, 0,
               p->job->comm);
    MPI_Gather(p->cpu, MPI_PHASES_MAX, MPI_DOUBLE, cpu, MPI_PHASES_MAX, MPI_DOUBLE, 0,
               p->job->comm);
    MPI_Gather(p->sys, MPI_PHASES_MAX, MPI_DOUBLE, sys, MPI_PHASES_MAX, MPI_DOUBLE, 0,
               p->job->comm);
    if (root) {
        fprintf(stderr, "phase               wall max s  cpu s per process (of it kernel)\n");
        for (int i = 0; i < n; i++) {
            double most = 0;
            for (int r = 0; r < size; r++) {
                most = wall[r * MPI_PHASES_MAX + i] > most ? wall[r * MPI_PHASES_MAX + i] : most;
            }
            fprintf(stderr, "%-20s %10.3f ", p->name[i], most);
            for (int r = 0; r < size && r < 8; r++) {
                fprintf(stderr, " %7.3f (%.3f)", cpu[r * MPI_PHASES_MAX + i],
                        sys[r * MPI_PHASES_MAX + i]);
            }
            fputc('\n', stderr);
        }
    }
    free(wall);
    free(cpu);
    free(sys);
}
