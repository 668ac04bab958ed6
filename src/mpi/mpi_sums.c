/* SPDX-License-Identifier: MIT */
/* iodfg-mpi: the bucket sums added up as whole arrays (an all-reduction), or, when few pairs
 * have points, as the pairs that do (an all-gather): on a recorded set of 96 processes 11 % of
 * the pairs have points, and the all-reduction of 2.6 MB took 20 ms of the job's 110 ms of
 * concurrency. */
#include "config.h"

#include "mpi_sums.h"

#include <stdlib.h>

#include "iodfg/partial.h"

/* The all-gather's element: one packed pair. */
static MPI_Datatype pair_type(void)
{
    MPI_Datatype type;
    MPI_Type_contiguous((int)sizeof(struct iodfg_partial_pair_sums), MPI_BYTE, &type);
    MPI_Type_commit(&type);
    return type;
}

/* Every process's pairs with points (own of them here) gathered and added up. */
static int gather_pairs(const struct mpi_job *job, const int64_t *mine, int64_t *sums, size_t np,
                        uint64_t own)
{
    int *count = calloc((size_t)job->size, sizeof(*count));
    int *displ = calloc((size_t)job->size, sizeof(*displ));
    struct iodfg_partial_pair_sums *out = malloc((own + 1) * sizeof(*out)), *all = NULL;
    int ok = count && displ && out;
    uint64_t total = 0;
    MPI_Allreduce(MPI_IN_PLACE, &ok, 1, MPI_INT, MPI_MIN, job->comm);
    if (ok) {
        int n = (int)iodfg_partial_pairs_pack(mine, np, out);
        MPI_Allgather(&n, 1, MPI_INT, count, 1, MPI_INT, job->comm);
        for (int p = 0; p < job->size; p++) {
            displ[p] = (int)total;
            total += (uint64_t)count[p];
        }
        all = malloc((total + 1) * sizeof(*all));
        ok = all != NULL;
        MPI_Allreduce(MPI_IN_PLACE, &ok, 1, MPI_INT, MPI_MIN, job->comm);
    }
    if (ok) {
        MPI_Datatype type = pair_type();
        MPI_Allgatherv(out, count[job->rank], type, all, count, displ, type, job->comm);
        MPI_Type_free(&type);
        iodfg_partial_sums_clear(sums, np);
        // every process gets the same pairs, so it fails on all or none
        ok = iodfg_partial_pairs_add(sums, np, all, total) == 0;
    }
    free(count);
    free(displ);
    free(out);
    free(all);
    return ok ? 0 : -1;
}

int mpi_sums_reduce(const struct mpi_job *job, const int64_t *mine, int64_t *sums, size_t np)
{
    uint64_t own = iodfg_partial_pairs_count(mine, np), total = own;
    MPI_Allreduce(MPI_IN_PLACE, &total, 1, MPI_UINT64_T, MPI_SUM, job->comm);
    // each process receives every packed pair, or sends and receives about the whole arrays
    if (total * sizeof(struct iodfg_partial_pair_sums) <
        (uint64_t)np * IODFG_PARTIAL_SUMS * sizeof(int64_t)) {
        return gather_pairs(job, mine, sums, np, own);
    }
    MPI_Allreduce(mine, sums, (int)(IODFG_PARTIAL_PEAK * np), MPI_INT64_T, MPI_SUM, job->comm);
    MPI_Allreduce(mine + IODFG_PARTIAL_PEAK * np, sums + IODFG_PARTIAL_PEAK * np, (int)np,
                  MPI_INT64_T, MPI_MAX, job->comm);
    return 0;
}
