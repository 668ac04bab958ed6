/* SPDX-License-Identifier: MIT */
/* iodfg-mpi: percentiles and maximum concurrency over the processes' parts, exactly. */
#include "config.h"

#include "mpi_reduce.h"

#include <stdlib.h>
#include <string.h>

#include "iodfg/bigmem.h"
#include "iodfg/error.h"
#include "iodfg/eventlog.h"
#include "iodfg/partial.h"

/* ---- percentiles: a bisection on the value, the counts of values up to it summed ---- */

/* The int64 value at position u of the uint64 order (int64 order with the sign bit flipped). */
static int64_t unord(uint64_t u)
{
    return (int64_t)(u ^ (1ULL << 63));
}

void mpi_percentiles(const struct mpi_job *job, const struct mpi_pctl *t, size_t n, int64_t *out)
{
    uint64_t *lo = calloc(n + 1, sizeof(*lo)), *hi = malloc((n + 1) * sizeof(*hi));
    uint64_t *cnt = malloc((n + 1) * sizeof(*cnt));
    int ok = lo && hi && cnt;
    MPI_Allreduce(MPI_IN_PLACE, &ok, 1, MPI_INT, MPI_MIN, job->comm);
    for (size_t i = 0; ok && i < n; i++) {
        hi[i] = UINT64_MAX;
    }
    // 64 halvings find the smallest value whose count reaches the rank, for every target at once
    for (int round = 0; ok && round < 64; round++) {
        for (size_t i = 0; i < n; i++) {
            uint64_t mid = lo[i] + (hi[i] - lo[i]) / 2;
            cnt[i] = t[i].rank ? iodfg_partial_count_le(t[i].v, t[i].n, unord(mid)) : 0;
        }
        MPI_Allreduce(MPI_IN_PLACE, cnt, (int)n, MPI_UINT64_T, MPI_SUM, job->comm);
        for (size_t i = 0; i < n; i++) {
            uint64_t mid = lo[i] + (hi[i] - lo[i]) / 2;
            if (cnt[i] >= t[i].rank) {
                hi[i] = mid;
            } else {
                lo[i] = mid + 1;
            }
        }
    }
    for (size_t i = 0; i < n; i++) {
        out[i] = ok && t[i].rank ? unord(lo[i]) : IODFG_UNKNOWN;
    }
    free(lo);
    free(hi);
    free(cnt);
}

/* ---- concurrency: points sent to the owner of their time range, swept with a carried count ----
 */

/* The best count of an activity at one process, for the reduction: the higher wins, and of
 * equal ones the lower process (it owns the earlier time range). */
struct best {
    int64_t best, when;
    int64_t rank;
};

static void best_op(void *in, void *inout, int *len, MPI_Datatype *type)
{
    (void)type;
    const struct best *a = in;
    struct best *b = inout;
    for (int i = 0; i < *len; i++) {
        if (a[i].best > b[i].best || (a[i].best == b[i].best && a[i].rank < b[i].rank)) {
            b[i] = a[i];
        }
    }
}

/* Splitters: size - 1 points cutting the job's sorted points in about equal runs, from size - 1
 * samples of each process's points (quantiles of a sorted regular sample of them: the points
 * themselves are sorted once, by their owner). *nsplit of them (fewer when there are few). */
static int splitters(const struct mpi_job *job, const struct iodfg_partial_point *pts, size_t n,
                     struct iodfg_partial_point *split, int *nsplit)
{
    int want = job->size - 1;
    struct iodfg_partial_point *mine = calloc((size_t)want + 1, sizeof(*mine));
    struct iodfg_partial_point *all = calloc((size_t)job->size * want + 1, sizeof(*all));
    int *have = calloc((size_t)job->size, sizeof(*have));
    if (!mine || !all || !have) {
        free(mine);
        free(all);
        free(have);
        return -1;
    }
    size_t ns = n < 64 * (size_t)want ? n : 64 * (size_t)want;
    struct iodfg_partial_point *sample = calloc(ns + 1, sizeof(*sample));
    if (!sample) {
        free(mine);
        free(all);
        free(have);
        return -1;
    }
    for (size_t i = 0; i < ns; i++) {
        sample[i] = pts[(size_t)((double)i * (double)n / (double)ns)];
    }
    iodfg_partial_points_sort(sample, ns);
    int k = ns ? want : 0;
    for (int i = 0; i < k; i++) {
        mine[i] = sample[(size_t)((double)(i + 1) * (double)ns / (double)(want + 1))];
    }
    free(sample);
    MPI_Allgather(&k, 1, MPI_INT, have, 1, MPI_INT, job->comm);
    int bytes = (int)sizeof(*mine);
    MPI_Allgather(mine, want * bytes, MPI_BYTE, all, want * bytes, MPI_BYTE, job->comm);
    size_t m = 0;
    for (int p = 0; p < job->size; p++) {
        for (int i = 0; i < have[p]; i++) {
            all[m++] = all[(size_t)p * want + i];
        }
    }
    iodfg_partial_points_sort(all, m);
    *nsplit = m ? want : 0;
    for (int i = 0; i < *nsplit; i++) {
        split[i] = all[(size_t)((double)(i + 1) * (double)m / (double)(want + 1))];
    }
    free(mine);
    free(all);
    free(have);
    return 0;
}

/* The process owning p: how many splitters are not above it (equal points go together). */
static int owner(const struct iodfg_partial_point *split, int nsplit,
                 const struct iodfg_partial_point *p)
{
    int lo = 0, hi = nsplit;
    while (lo < hi) {
        int mid = (lo + hi) / 2;
        if (iodfg_partial_point_cmp(&split[mid], p) <= 0) {
            lo = mid + 1;
        } else {
            hi = mid;
        }
    }
    return lo;
}

/* Send every point to its owner; *got (malloc'd) gets this process's points. 0, or -1. */
static int exchange(const struct mpi_job *job, struct iodfg_partial_point *pts, size_t n,
                    const struct iodfg_partial_point *split, int nsplit,
                    struct iodfg_partial_point **got, size_t *ngot)
{
    int P = job->size, bytes = (int)sizeof(*pts);
    int *scount = calloc((size_t)P, sizeof(int)), *rcount = calloc((size_t)P, sizeof(int));
    int *sdispl = calloc((size_t)P, sizeof(int)), *rdispl = calloc((size_t)P, sizeof(int));
    struct iodfg_partial_point *out = iodfg_bigmem_alloc((n + 1) * sizeof(*out));
    int ok = scount && rcount && sdispl && rdispl && out;
    for (size_t i = 0; ok && i < n; i++) {
        scount[owner(split, nsplit, &pts[i])] += bytes;
    }
    MPI_Allreduce(MPI_IN_PLACE, &ok, 1, MPI_INT, MPI_MIN, job->comm);
    if (ok) {
        MPI_Alltoall(scount, 1, MPI_INT, rcount, 1, MPI_INT, job->comm);
        long long total = 0;
        for (int p = 0; p < P; p++) {
            sdispl[p] = p ? sdispl[p - 1] + scount[p - 1] : 0;
            rdispl[p] = (int)total;
            total += rcount[p];
        }
        // each owner's points as one run, in their order (sdispl counts bytes)
        for (size_t i = 0; i < n; i++) {
            int o = owner(split, nsplit, &pts[i]);
            out[sdispl[o] / bytes] = pts[i];
            sdispl[o] += bytes;
        }
        for (int p = 0; p < P; p++) {
            sdispl[p] -= scount[p];
        }
        *ngot = (size_t)total / sizeof(**got);
        *got = iodfg_bigmem_alloc((size_t)total + sizeof(**got));
        ok = *got != NULL;
        MPI_Allreduce(MPI_IN_PLACE, &ok, 1, MPI_INT, MPI_MIN, job->comm);
        if (ok) {
            MPI_Alltoallv(out, scount, sdispl, MPI_BYTE, *got, rcount, rdispl, MPI_BYTE, job->comm);
        }
    }
    free(out);
    free(scount);
    free(rcount);
    free(sdispl);
    free(rdispl);
    return ok ? 0 : -1;
}

/* This process's range of the sweep: its points sorted, the count carried in from the earlier
 * ranges (an exclusive scan of the ranges' net changes), and its best counts. */
static int sweep_range(const struct mpi_job *job, struct iodfg_partial_point *got, size_t ngot,
                       uint32_t nact, struct best *b, struct iodfg_error *err)
{
    int64_t *net = calloc((size_t)nact + 1, sizeof(*net));
    int64_t *carry = calloc((size_t)nact + 1, sizeof(*carry));
    int64_t *best = malloc(((size_t)nact + 1) * sizeof(*best));
    int64_t *when = calloc((size_t)nact + 1, sizeof(*when));
    int ok = net && carry && best && when;
    MPI_Allreduce(MPI_IN_PLACE, &ok, 1, MPI_INT, MPI_MIN, job->comm);
    int rc = ok ? 0 : iodfg_error_set(err, IODFG_E_NOMEM, NULL);
    if (ok) {
        iodfg_partial_points_sort(got, ngot);
        iodfg_partial_points_net(got, ngot, net);
        MPI_Exscan(net, carry, (int)nact, MPI_INT64_T, MPI_SUM, job->comm);
        if (job->rank == 0) {
            memset(carry, 0, (size_t)nact * sizeof(*carry));
        }
        for (uint32_t a = 0; a < nact; a++) {
            best[a] = INT64_MIN;
        }
        rc = iodfg_partial_sweep(got, ngot, carry, nact, best, when, err);
        for (uint32_t a = 0; a < nact; a++) {
            b[a] = (struct best){best[a], when[a], job->rank};
        }
    }
    free(net);
    free(carry);
    free(best);
    free(when);
    return rc;
}

int mpi_concurrency(const struct mpi_job *job, const struct iodfg_session *s, uint32_t nact,
                    uint32_t *mc, int64_t *when, struct iodfg_error *err)
{
    struct iodfg_partial_point *pts = NULL, *got = NULL;
    struct iodfg_partial_point *split = calloc((size_t)job->size, sizeof(*split));
    struct best *b = calloc((size_t)nact + 1, sizeof(*b)),
                *all = calloc((size_t)nact + 1, sizeof(*all));
    size_t n = 0, ngot = 0;
    int nsplit = 0;
    int rc = split && b && all ? iodfg_partial_points(s, &pts, &n, err)
                               : iodfg_error_set(err, IODFG_E_NOMEM, NULL);
    if (rc == 0 && job->size == 1) { // one process owns every point
        got = pts;
        ngot = n;
        pts = NULL;
    }
    if (mpi_agree(job, rc, err) ||
        (job->size > 1 && (splitters(job, pts, n, split, &nsplit) ||
                           exchange(job, pts, n, split, nsplit, &got, &ngot))) ||
        mpi_agree(job, sweep_range(job, got, ngot, nact, b, err), err)) {
        rc = iodfg_error_set(err, IODFG_E_NOMEM, "out of memory for the concurrency sweep");
    } else {
        MPI_Datatype type;
        MPI_Op op;
        MPI_Type_contiguous((int)sizeof(*b), MPI_BYTE, &type);
        MPI_Type_commit(&type);
        MPI_Op_create(best_op, 1, &op);
        MPI_Reduce(b, all, (int)nact, type, op, 0, job->comm);
        MPI_Op_free(&op);
        MPI_Type_free(&type);
        for (uint32_t a = 0; job->rank == 0 && a < nact; a++) {
            mc[a] = all[a].best > 0 ? (uint32_t)all[a].best : 0;
            when[a] = all[a].best > 0 ? all[a].when : IODFG_UNKNOWN;
        }
    }
    free(pts);
    free(got);
    free(split);
    free(b);
    free(all);
    return rc;
}
