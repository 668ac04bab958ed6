/* SPDX-License-Identifier: MIT */
/* iodfg-mpi: the processes of one node divide the processors they share. mpirun binds each
 * process to a core and srun to its allocation, so that each sees only its own. Not bound
 * (mpirun --bind-to none, or more processes than cores) each sees all of them and would start a
 * thread per processor: P processes on a node would then run P times too many threads. */
#include "config.h"

#include <stdlib.h>

#include "iodfg/cpus.h"

#include "mpi_comm.h"

unsigned mpi_share_cores(const struct mpi_job *job)
{
    MPI_Comm node;
    if (MPI_Comm_split_type(job->comm, MPI_COMM_TYPE_SHARED, job->rank, MPI_INFO_NULL, &node) !=
        MPI_SUCCESS) {
        return iodfg_cpu_count();
    }
    int n = 1, me = 0;
    MPI_Comm_size(node, &n);
    MPI_Comm_rank(node, &me);
    uint64_t mine[IODFG_CPU_MASK_WORDS];
    iodfg_cpu_mask(mine);
    uint64_t *all = malloc((size_t)n * sizeof(mine));
    int ok = all != NULL;
    MPI_Allreduce(MPI_IN_PLACE, &ok, 1, MPI_INT, MPI_MIN, node);
    if (ok) {
        MPI_Allgather(mine, IODFG_CPU_MASK_WORDS, MPI_UINT64_T, all, IODFG_CPU_MASK_WORDS,
                      MPI_UINT64_T, node);
        iodfg_cpu_limit(iodfg_cpu_share(all, (size_t)n, (size_t)me));
    }
    free(all);
    MPI_Comm_free(&node);
    return iodfg_cpu_count();
}
