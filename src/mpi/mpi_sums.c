/* SPDX-License-Identifier: MIT */
/* iodfg-mpi: arrays added up over the processes as whole arrays (an all-reduction), or, when
 * most entries are empty, as the entries that are not (an all-gather). On a recorded set of 96
 * processes 11 % of the bucket pairs have points and 5 % of the first percentile round's
 * histogram buckets have values; the all-reduction of the 2.6 MB of bucket sums took 20 ms of
 * the job's 110 ms of concurrency. */
#include "config.h"

#include "mpi_sums.h"

#include <stdlib.h>
#include <string.h>

#include "iodfg/error.h"
#include "iodfg/partial.h"

#include "mpi_phases.h"

/* Whether to add up packed entries: when the job's own entries that are not empty (own here)
 * move fewer bytes than the whole arrays (n entries of elem bytes, packed ones of packed bytes),
 * unless a process has IODFG_MPI_DENSE set (tests take the arrays' way through it). One
 * all-reduction, so every process decides alike. */
static int packed_is_cheaper(const struct mpi_job *job, uint64_t own, size_t n, size_t elem,
                             size_t packed)
{
    uint64_t v[2] = {own, (uint64_t)mpi_env_switch("IODFG_MPI_DENSE")};
    MPI_Allreduce(MPI_IN_PLACE, v, 2, MPI_UINT64_T, MPI_SUM, job->comm);
    return v[1] == 0 && v[0] * packed < (uint64_t)n * elem;
}

/* Every process's n packed entries of elem bytes at out, back to back in process order, into
 * *all (malloc'd; *total of them). 0, or -1 when out of memory (every process). */
static int gather_packed(const struct mpi_job *job, const void *out, uint64_t n, size_t elem,
                         char **all, uint64_t *total)
{
    uint64_t *off = NULL;
    struct iodfg_error err;
    if (mpi_allgather_bytes(job, out, n * elem, all, &off, &err)) {
        return -1;
    }
    *total = off[job->size] / elem;
    free(off);
    return 0;
}

/* Every process's pairs with points (own of them here) gathered and added up. */
static int gather_pairs(const struct mpi_job *job, const int64_t *mine, int64_t *sums, size_t np,
                        uint64_t own)
{
    struct iodfg_partial_pair_sums *out = malloc((own + 1) * sizeof(*out));
    char *all = NULL;
    uint64_t total = 0;
    int ok = out != NULL;
    MPI_Allreduce(MPI_IN_PLACE, &ok, 1, MPI_INT, MPI_MIN, job->comm);
    if (ok) {
        uint64_t n = iodfg_partial_pairs_pack(mine, np, out);
        ok = gather_packed(job, out, n, sizeof(*out), &all, &total) == 0;
    }
    if (ok) {
        iodfg_partial_sums_clear(sums, np);
        // every process gets the same pairs, so it fails on all or none
        ok = iodfg_partial_pairs_add(sums, np, (const struct iodfg_partial_pair_sums *)all,
                                     total) == 0;
    }
    free(out);
    free(all);
    return ok ? 0 : -1;
}

int mpi_sums_reduce(const struct mpi_job *job, const int64_t *mine, int64_t *sums, size_t np)
{
    uint64_t own = iodfg_partial_pairs_count(mine, np);
    // each process receives every packed pair, or sends and receives about the whole arrays
    if (packed_is_cheaper(job, own, np, IODFG_PARTIAL_SUMS * sizeof(int64_t),
                          sizeof(struct iodfg_partial_pair_sums))) {
        return gather_pairs(job, mine, sums, np, own);
    }
    MPI_Allreduce(mine, sums, (int)(IODFG_PARTIAL_PEAK * np), MPI_INT64_T, MPI_SUM, job->comm);
    MPI_Allreduce(mine + IODFG_PARTIAL_PEAK * np, sums + IODFG_PARTIAL_PEAK * np, (int)np,
                  MPI_INT64_T, MPI_MAX, job->comm);
    return 0;
}

/* ---- counts: the percentiles' histograms ---- */

/* One count that is not 0. */
struct count_at {
    uint64_t i, n;
};

/* Every process's counts that are not 0 (own of them here) gathered and added up. */
static int gather_counts(const struct mpi_job *job, const uint64_t *mine, uint64_t *sum, size_t n,
                         uint64_t own)
{
    struct count_at *out = malloc((own + 1) * sizeof(*out));
    char *all = NULL;
    uint64_t k = 0, total = 0;
    int ok = out != NULL;
    MPI_Allreduce(MPI_IN_PLACE, &ok, 1, MPI_INT, MPI_MIN, job->comm);
    for (size_t i = 0; ok && i < n; i++) {
        if (mine[i]) {
            out[k++] = (struct count_at){i, mine[i]};
        }
    }
    ok = ok && gather_packed(job, out, k, sizeof(*out), &all, &total) == 0;
    if (ok) {
        const struct count_at *at = (const struct count_at *)all;
        memset(sum, 0, n * sizeof(*sum));
        for (uint64_t j = 0; j < total; j++) {
            sum[at[j].i] += at[j].n; // every process's indices are below n
        }
    }
    free(out);
    free(all);
    return ok ? 0 : -1;
}

int mpi_counts_reduce(const struct mpi_job *job, const uint64_t *mine, uint64_t *sum, size_t n)
{
    uint64_t own = 0;
    for (size_t i = 0; i < n; i++) {
        own += mine[i] != 0;
    }
    if (packed_is_cheaper(job, own, n, sizeof(*sum), sizeof(struct count_at))) {
        return gather_counts(job, mine, sum, n, own);
    }
    MPI_Allreduce(mine, sum, (int)n, MPI_UINT64_T, MPI_SUM, job->comm);
    return 0;
}
