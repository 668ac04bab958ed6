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
#include "iodfg/session.h"

/* ---- percentiles: histograms summed, the range narrowed to the bucket of the rank ---- */

/* One percentile being found: the range it lies in, its rank there, and this process's values in
 * that range (own: a copy, once narrowed; before, the caller's). */
struct hunt {
    struct iodfg_partial_cut cut;
    uint64_t rank, n;
    const int64_t *v;
    int64_t *own;
    int done;
};

/* One round over the unfinished hunts: their histograms summed over the processes, each range
 * narrowed to the bucket holding its rank and this process's values in it kept. 0, or -1 when
 * out of memory (every process). */
static int hunt_round(const struct mpi_job *job, struct hunt *h, size_t n, size_t open,
                      int64_t *out)
{
    size_t B = IODFG_PARTIAL_BUCKETS;
    uint64_t *hist = calloc(open * B + 1, sizeof(*hist)), *mine = malloc((open * B + 1) * 8);
    int ok = hist && mine;
    MPI_Allreduce(MPI_IN_PLACE, &ok, 1, MPI_INT, MPI_MIN, job->comm);
    for (size_t i = 0, j = 0; ok && i < n; i++) {
        if (!h[i].done) {
            iodfg_partial_hist(h[i].v, h[i].n, &h[i].cut, hist + B * j++);
        }
    }
    if (ok) {
        memcpy(mine, hist, open * B * sizeof(*hist));
        MPI_Allreduce(MPI_IN_PLACE, hist, (int)(open * B), MPI_UINT64_T, MPI_SUM, job->comm);
    }
    for (size_t i = 0, j = 0; ok && i < n; i++) {
        if (h[i].done) {
            continue;
        }
        size_t at = B * j++;
        uint32_t b = iodfg_partial_narrow(&h[i].cut, hist + at, &h[i].rank);
        if (iodfg_partial_cut_value(&h[i].cut, &out[i])) {
            h[i].done = 1;
            continue;
        }
        int64_t *keep = malloc((mine[at + b] + 1) * sizeof(*keep));
        ok = keep != NULL;
        if (ok) {
            h[i].n = iodfg_partial_keep(h[i].v, h[i].n, &h[i].cut, keep);
            free(h[i].own);
            h[i].v = h[i].own = keep;
        }
    }
    MPI_Allreduce(MPI_IN_PLACE, &ok, 1, MPI_INT, MPI_MIN, job->comm);
    free(hist);
    free(mine);
    return ok ? 0 : -1;
}

void mpi_percentiles(const struct mpi_job *job, const struct mpi_pctl *t, size_t n, int64_t *out)
{
    struct hunt *h = calloc(n + 1, sizeof(*h));
    int ok = h != NULL;
    MPI_Allreduce(MPI_IN_PLACE, &ok, 1, MPI_INT, MPI_MIN, job->comm);
    for (size_t i = 0; i < n; i++) {
        out[i] = IODFG_UNKNOWN;
        if (ok) {
            iodfg_partial_cut_all(&h[i].cut);
            h[i] = (struct hunt){h[i].cut, t[i].rank, t[i].n, t[i].v, NULL, t[i].rank == 0};
        }
    }
    // every process sees the same sums, so all finish the same hunts in the same round
    while (ok) {
        size_t open = 0;
        for (size_t i = 0; i < n; i++) {
            open += !h[i].done;
        }
        if (open == 0 || hunt_round(job, h, n, open, out)) {
            break;
        }
    }
    for (size_t i = 0; ok && i < n; i++) {
        out[i] = h[i].done ? out[i] : IODFG_UNKNOWN;
        free(h[i].own);
    }
    free(h);
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

/* The point type of the exchange (counts and offsets in points, not bytes). */
static MPI_Datatype point_type(void)
{
    MPI_Datatype type;
    MPI_Type_contiguous((int)sizeof(struct iodfg_partial_point), MPI_BYTE, &type);
    MPI_Type_commit(&type);
    return type;
}

/* Splitters: size - 1 points cutting the job's sorted points in about equal runs: the quantiles
 * of every process's own sorted points, gathered, sorted, and their quantiles taken. *nsplit of
 * them (none when no process has a point). */
static int splitters(const struct mpi_job *job, const struct iodfg_partial_point *sorted, size_t n,
                     struct iodfg_partial_point *split, int *nsplit)
{
    int want = job->size - 1;
    struct iodfg_partial_point *mine = calloc((size_t)want + 1, sizeof(*mine));
    struct iodfg_partial_point *all = calloc((size_t)job->size * want + 1, sizeof(*all));
    int *have = calloc((size_t)job->size, sizeof(*have));
    int ok = mine && all && have;
    MPI_Allreduce(MPI_IN_PLACE, &ok, 1, MPI_INT, MPI_MIN, job->comm);
    if (ok) {
        int k = n ? want : 0;
        for (int i = 0; i < k; i++) {
            mine[i] = sorted[(size_t)((double)(i + 1) * (double)n / (double)(want + 1))];
        }
        MPI_Allgather(&k, 1, MPI_INT, have, 1, MPI_INT, job->comm);
        MPI_Datatype type = point_type();
        MPI_Allgather(mine, want, type, all, want, type, job->comm);
        MPI_Type_free(&type);
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
    }
    free(mine);
    free(all);
    free(have);
    return ok ? 0 : -1;
}

/* The first of the n sorted points that is not below s: where the run of the process owning
 * the points from splitter s on starts (equal points go together). */
static size_t run_start(const struct iodfg_partial_point *sorted, size_t n,
                        const struct iodfg_partial_point *s)
{
    size_t lo = 0, hi = n;
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        if (iodfg_partial_point_cmp(&sorted[mid], s) < 0) {
            lo = mid + 1;
        } else {
            hi = mid;
        }
    }
    return lo;
}

/* What one process sweeps: its points (in the sweep's order), the points other processes sent
 * it, and the sorted runs of both that fall in its time range. */
struct sweep_bufs {
    struct iodfg_partial_point *pts, *got;
    size_t n, got_cap;
    const struct iodfg_partial_point **run; /* one per process */
    size_t *len;
};

/* Send each other process the run of this process's sorted points that falls in its time range;
 * keep the own run where it is, receive the others' runs into b->got (each sorted) and point
 * b->run at all of them. 0, or -1 (every process). */
static int exchange(const struct mpi_job *job, struct sweep_bufs *b,
                    const struct iodfg_partial_point *split, int nsplit)
{
    int P = job->size;
    int *scount = calloc((size_t)P, sizeof(int)), *rcount = calloc((size_t)P, sizeof(int));
    int *sdispl = calloc((size_t)P, sizeof(int)), *rdispl = calloc((size_t)P, sizeof(int));
    int ok = scount && rcount && sdispl && rdispl;
    MPI_Allreduce(MPI_IN_PLACE, &ok, 1, MPI_INT, MPI_MIN, job->comm);
    size_t own = 0, ngot = 0;
    if (ok) {
        for (int p = 0; p < P; p++) {
            size_t lo = p == 0 ? 0 : p <= nsplit ? run_start(b->pts, b->n, &split[p - 1]) : b->n;
            size_t hi = p < nsplit ? run_start(b->pts, b->n, &split[p]) : b->n;
            sdispl[p] = (int)lo;
            scount[p] = p == job->rank ? 0 : (int)(hi - lo);
            own = p == job->rank ? lo : own;
            b->len[p] = p == job->rank ? hi - lo : 0;
        }
        MPI_Alltoall(scount, 1, MPI_INT, rcount, 1, MPI_INT, job->comm);
        for (int p = 0; p < P; p++) {
            rdispl[p] = (int)ngot;
            ngot += (size_t)rcount[p];
        }
        if (ngot > b->got_cap) {
            free(b->got);
            b->got = iodfg_bigmem_alloc((ngot + 1) * sizeof(*b->got));
            b->got_cap = b->got ? ngot : 0;
        }
        ok = b->got != NULL;
        MPI_Allreduce(MPI_IN_PLACE, &ok, 1, MPI_INT, MPI_MIN, job->comm);
    }
    if (ok) {
        MPI_Datatype type = point_type();
        MPI_Alltoallv(b->pts, scount, sdispl, type, b->got, rcount, rdispl, type, job->comm);
        MPI_Type_free(&type);
        for (int p = 0; p < P; p++) {
            b->run[p] = p == job->rank ? b->pts + own : b->got + rdispl[p];
            b->len[p] = p == job->rank ? b->len[p] : (size_t)rcount[p];
        }
    }
    free(scount);
    free(rcount);
    free(sdispl);
    free(rdispl);
    return ok ? 0 : -1;
}

/* This process's range of the sweep: its sorted runs, the count carried in from the earlier
 * ranges (an exclusive scan of the ranges' net changes), and its best counts. */
static int sweep_range(const struct mpi_job *job, const struct sweep_bufs *sb, uint32_t nact,
                       struct best *b, struct iodfg_error *err)
{
    int64_t *net = calloc((size_t)nact + 1, sizeof(*net));
    int64_t *carry = calloc((size_t)nact + 1, sizeof(*carry));
    int64_t *best = malloc(((size_t)nact + 1) * sizeof(*best));
    int64_t *when = calloc((size_t)nact + 1, sizeof(*when));
    int ok = net && carry && best && when;
    MPI_Allreduce(MPI_IN_PLACE, &ok, 1, MPI_INT, MPI_MIN, job->comm);
    int rc = ok ? 0 : iodfg_error_set(err, IODFG_E_NOMEM, NULL);
    if (ok) {
        for (int p = 0; p < job->size; p++) {
            iodfg_partial_points_net(sb->run[p], sb->len[p], net);
        }
        MPI_Exscan(net, carry, (int)nact, MPI_INT64_T, MPI_SUM, job->comm);
        if (job->rank == 0) {
            memset(carry, 0, (size_t)nact * sizeof(*carry));
        }
        for (uint32_t a = 0; a < nact; a++) {
            best[a] = INT64_MIN;
        }
        rc = iodfg_partial_sweep_runs(sb->run, sb->len, (size_t)job->size, carry, nact, best, when,
                                      err);
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

/* The process's points, in the sweep's order, in b->pts, as its one run; with other processes,
 * room in b->got for a share of the exchange a little above its own (untouched pages cost
 * nothing). 0, or -1 with err. */
static int own_points(const struct mpi_job *job, const struct iodfg_session *s,
                      struct sweep_bufs *b, struct iodfg_error *err)
{
    b->run = calloc((size_t)job->size, sizeof(*b->run));
    b->len = calloc((size_t)job->size, sizeof(*b->len));
    if (!b->run || !b->len || iodfg_partial_points(s, &b->pts, &b->n, err)) {
        return iodfg_error_set(err, IODFG_E_NOMEM, NULL);
    }
    b->run[0] = b->pts;
    b->len[0] = b->n;
    if (job->size > 1) {
        b->got_cap = b->n / 2 + b->n / 4 + 64;
        b->got = iodfg_bigmem_alloc((b->got_cap + 1) * sizeof(*b->got));
        if (!b->got) {
            b->got_cap = 0;
            return iodfg_error_set(err, IODFG_E_NOMEM, NULL);
        }
    }
    return 0;
}

int mpi_concurrency(const struct mpi_job *job, const struct iodfg_session *s, uint32_t nact,
                    uint32_t *mc, int64_t *when, struct iodfg_error *err)
{
    struct sweep_bufs bufs = {0};
    struct iodfg_partial_point *split = calloc((size_t)job->size, sizeof(*split));
    struct best *b = calloc((size_t)nact + 1, sizeof(*b)),
                *all = calloc((size_t)nact + 1, sizeof(*all));
    int nsplit = 0;
    int rc = split && b && all ? own_points(job, s, &bufs, err)
                               : iodfg_error_set(err, IODFG_E_NOMEM, NULL);
    if (mpi_agree(job, rc, err) ||
        (job->size > 1 && (splitters(job, bufs.pts, bufs.n, split, &nsplit) ||
                           exchange(job, &bufs, split, nsplit))) ||
        mpi_agree(job, sweep_range(job, &bufs, nact, b, err), err)) {
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
    free(bufs.pts);
    free(bufs.got);
    free(bufs.run);
    free(bufs.len);
    free(split);
    free(b);
    free(all);
    return rc;
}
