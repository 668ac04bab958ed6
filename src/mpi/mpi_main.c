/* SPDX-License-Identifier: MIT */
/* iodfg-mpi entry point: iodfg's commands as one MPI job (mpirun, srun). Every process parses the
 * same command line; only process 0 prints, and every process returns the same exit status. */
#include "config.h"

#include "mpi_main.h"

#include <locale.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "iodfg/glyph.h"
#include "iodfg/store.h"

#include "cmdline/cli.h"
#include "mpi_phases.h"

struct command {
    const char *name;
    int (*run)(const struct mpi_job *job, int argc, char **argv);
    const char *summary;
};

static const struct command commands[] = {
    {"convert", mpi_convert, "turn strace files into one HDF5 event log"},
    {"dfg", mpi_dfg, "the Directly-Follows Graph of LOG.h5 (DOT, TSV, JSON)"},
    {"stats", mpi_stats, "rank activities and transitions of LOG.h5 by their statistics"},
    {"characterize", mpi_characterize, "I/O characterisation of LOG.h5: bandwidths, bins, access"},
    {"batch", mpi_batch, "the commands of a file, one per line, in this one job"},
};

static void usage(FILE *out)
{
    fputs("usage: mpirun -n P iodfg-mpi COMMAND [OPTIONS] ARGS...\n"
          "       srun iodfg-mpi COMMAND [OPTIONS] ARGS...\n"
          "iodfg's commands as one MPI job; the options are those of `iodfg COMMAND`.\n"
          "Commands:\n",
          out);
    for (size_t i = 0; i < sizeof(commands) / sizeof(commands[0]); i++) {
        fprintf(out, "  %-13s %s\n", commands[i].name, commands[i].summary);
    }
}

int mpi_dispatch(const struct mpi_job *job, int argc, char **argv)
{
    if (argc < 2) {
        usage(stderr);
        return CLI_USAGE;
    }
    if (strcmp(argv[1], "--version") == 0 || strcmp(argv[1], "-V") == 0) {
        printf("%s (MPI)\n", PACKAGE_STRING);
        return CLI_OK;
    }
    if (strcmp(argv[1], "--help") == 0 || strcmp(argv[1], "-h") == 0) {
        usage(stdout);
        return CLI_OK;
    }
    for (size_t i = 0; i < sizeof(commands) / sizeof(commands[0]); i++) {
        if (strcmp(argv[1], commands[i].name) == 0) {
            return commands[i].run(job, argc - 1, argv + 1);
        }
    }
    // iodfg's other commands run on one process over the log the job wrote
    static const char *const serial_only[] = {"bandwidth", "info",   "handles",
                                              "insights",  "export", "tui"};
    for (size_t i = 0; i < sizeof(serial_only) / sizeof(serial_only[0]); i++) {
        if (strcmp(argv[1], serial_only[i]) == 0) {
            cli_errorf("'%s' does not run as an MPI job: run `iodfg %s` on the event log (one "
                       "process, e.g. on a login node)",
                       argv[1], argv[1]);
            return CLI_USAGE;
        }
    }
    cli_errorf("unknown command '%s'", argv[1]);
    usage(stderr);
    return CLI_USAGE;
}

/* A job whose processes Open MPI's launcher started all on this node (it says so in the
 * environment before MPI_Init) takes the ob1 messaging layer, which runs over shared memory,
 * unless the user chose one (OMPI_MCA_pml, which mpirun --mca pml also sets). Left to itself,
 * Open MPI opens and starts every network layer it has (cm with PSM and PSM2 here): an empty job
 * of 2 processes took 0.95-1.03 s against 0.72-0.79 s. A job over several nodes, or one started
 * by another launcher (srun), keeps Open MPI's choice. */
static void mpi_one_node_default(void)
{
    const char *size = getenv("OMPI_COMM_WORLD_SIZE");
    const char *local = getenv("OMPI_COMM_WORLD_LOCAL_SIZE");
    if (size && local && strcmp(size, local) == 0 && !getenv("OMPI_MCA_pml")) {
        setenv("OMPI_MCA_pml", "ob1", 0);
    }
}

int main(int argc, char **argv)
{
    int provided = 0;
    // With IODFG_MPI_TIME set, process 0 prints to standard error the job's time between
    // MPI_Init and MPI_Finalize (its slowest process), and MPI_Init's and MPI_Finalize's own:
    // what the job's wall time holds besides the launch (make bench-mpi); and the processors
    // its processes may use (the fewest and the most of one process).
    double t_start = mpi_wall_now();
    // Open MPI's processes poll for messages at full speed while they wait in a collective; on
    // a shared node (or more processes than cores) that takes the CPU from the processes still
    // parsing or coding (doc/mpi.md, profile). The job's few collectives lose nothing by
    // yielding. A value the user set wins.
    setenv("OMPI_MCA_mpi_yield_when_idle", "1", 0);
    mpi_one_node_default();
    // Parsing threads never call MPI: only the main thread does.
    MPI_Init_thread(&argc, &argv, MPI_THREAD_FUNNELED, &provided);
    double t_init = mpi_wall_now();
    struct mpi_job job = {MPI_COMM_WORLD, 0, 1};
    MPI_Comm_rank(job.comm, &job.rank);
    MPI_Comm_size(job.comm, &job.size);
    unsigned cpus = mpi_share_cores(&job); // before any thread starts
    setlocale(LC_ALL, "");
    cli_program = "iodfg-mpi";
    cli_log_only = 1; // a job analyses one event log
    iodfg_glyph_init(-1);
    iodfg_store_process_init();
    // Every process parses the same command line: only process 0 says what is wrong or prints
    // results; what another says when it alone fails reaches process 0 (mpi_agree_status).
    if (job.rank != 0 && (!freopen("/dev/null", "w", stdout) || mpi_capture_stderr())) {
        MPI_Abort(job.comm, CLI_FAIL);
    }
    int rc = cli_stdout_status(mpi_dispatch(&job, argc, argv)); // process 0's output reached it
    // the fewest processors as the most of their negations: one reduction
    double t[4] = {mpi_wall_now() - t_init, t_init - t_start, -(double)cpus, (double)cpus};
    double most[4] = {0, 0, 0, 0};
    int timed = mpi_env_switch("IODFG_MPI_TIME");
    if (timed) {
        MPI_Reduce(t, most, 4, MPI_DOUBLE, MPI_MAX, 0, job.comm);
    }
    double t_fini = mpi_wall_now();
    MPI_Finalize();
    if (timed && job.rank == 0) {
        fprintf(stderr,
                "iodfg-mpi: in program %.3f s, MPI_Init %.3f s, MPI_Finalize %.3f s, processors "
                "per process %u-%u\n",
                most[0], most[1], mpi_wall_now() - t_fini, (unsigned)-most[2], (unsigned)most[3]);
    }
    return rc;
}
