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
 * of every process's timeline positions, gathered, sorted, and their quantiles taken. *nsplit
 * of them (none when no process has a point). */
static int splitters(const struct mpi_job *job, const struct iodfg_partial_view *v,
                     struct iodfg_partial_point *split, int *nsplit)
{
    int want = job->size - 1;
    struct iodfg_partial_point *mine = calloc((size_t)want + 1, sizeof(*mine));
    struct iodfg_partial_point *all = calloc((size_t)job->size * want + 1, sizeof(*all));
    int *have = calloc((size_t)job->size, sizeof(*have));
    int ok = mine && all && have;
    MPI_Allreduce(MPI_IN_PLACE, &ok, 1, MPI_INT, MPI_MIN, job->comm);
    if (ok) {
        int k = v->n ? want : 0;
        for (int i = 0; i < k; i++) {
            iodfg_partial_view_at(v, (uint64_t)((double)(i + 1) * (double)v->n / (want + 1)),
                                  &mine[i]);
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

/* What one process sweeps: its own points where they lie (the positions [lo, hi) of its view,
 * with net: their starts minus ends per activity), and the runs other processes sent it. */
struct sweep_bufs {
    struct iodfg_partial_view view;
    uint64_t lo, hi;
    int64_t *net;
    struct iodfg_partial_point *got;
    const struct iodfg_partial_point **run; /* one per process (its own: none) */
    size_t *len;
};

/* The points this process sends: those of its positions that fall in other processes' time
 * ranges, copied in process order into *out, counts and offsets in scount and sdispl; the own
 * range into b->lo, b->hi. Its own points' net is minus the net of those sent: every event's
 * start and end are both among its points. 0, or -1 when out of memory. */
static int pack_sends(const struct mpi_job *job, struct sweep_bufs *b,
                      const struct iodfg_partial_point *split, int nsplit, uint32_t nact,
                      struct iodfg_partial_point **out, int *scount, int *sdispl)
{
    uint64_t n = b->view.n, away = 0;
    uint64_t *cut = calloc((size_t)job->size + 1, sizeof(*cut));
    for (int p = 0; cut && p <= job->size; p++) {
        cut[p] = p == 0 ? 0 : p <= nsplit ? iodfg_partial_view_lower(&b->view, &split[p - 1]) : n;
    }
    for (int p = 0; cut && p < job->size; p++) {
        away += p == job->rank ? 0 : cut[p + 1] - cut[p];
    }
    *out = cut ? iodfg_bigmem_alloc((size_t)(away + 1) * sizeof(**out)) : NULL;
    if (!*out) {
        free(cut);
        return -1;
    }
    size_t k = 0;
    for (int p = 0; p < job->size; p++) {
        size_t m =
            p == job->rank ? 0 : iodfg_partial_view_copy(&b->view, cut[p], cut[p + 1], *out + k);
        sdispl[p] = (int)k;
        scount[p] = (int)m;
        k += m;
    }
    b->lo = cut[job->rank];
    b->hi = cut[job->rank + 1];
    iodfg_partial_points_net(*out, k, b->net);
    for (uint32_t a = 0; a < nact; a++) {
        b->net[a] = -b->net[a];
    }
    free(cut);
    return 0;
}

/* Send each other process the points of this process that fall in its time range and receive
 * theirs into b->got (each run sorted), pointing b->run at them. 0, or -1 (every process). */
static int exchange(const struct mpi_job *job, struct sweep_bufs *b,
                    const struct iodfg_partial_point *split, int nsplit, uint32_t nact)
{
    int P = job->size;
    int *scount = calloc((size_t)P, sizeof(int)), *rcount = calloc((size_t)P, sizeof(int));
    int *sdispl = calloc((size_t)P, sizeof(int)), *rdispl = calloc((size_t)P, sizeof(int));
    struct iodfg_partial_point *send = NULL;
    int ok = scount && rcount && sdispl && rdispl &&
             pack_sends(job, b, split, nsplit, nact, &send, scount, sdispl) == 0;
    MPI_Allreduce(MPI_IN_PLACE, &ok, 1, MPI_INT, MPI_MIN, job->comm);
    size_t ngot = 0;
    if (ok) {
        MPI_Alltoall(scount, 1, MPI_INT, rcount, 1, MPI_INT, job->comm);
        for (int p = 0; p < P; p++) {
            rdispl[p] = (int)ngot;
            ngot += (size_t)rcount[p];
        }
        b->got = iodfg_bigmem_alloc((ngot + 1) * sizeof(*b->got));
        ok = b->got != NULL;
        MPI_Allreduce(MPI_IN_PLACE, &ok, 1, MPI_INT, MPI_MIN, job->comm);
    }
    if (ok) {
        MPI_Datatype type = point_type();
        MPI_Alltoallv(send, scount, sdispl, type, b->got, rcount, rdispl, type, job->comm);
        MPI_Type_free(&type);
        for (int p = 0; p < P; p++) {
            b->run[p] = b->got + rdispl[p];
            b->len[p] = p == job->rank ? 0 : (size_t)rcount[p];
        }
    }
    free(send);
    free(scount);
    free(rcount);
    free(sdispl);
    free(rdispl);
    return ok ? 0 : -1;
}

/* This process's range of the sweep: its own and the received runs, the count carried in from
 * the earlier ranges (an exclusive scan of the ranges' net changes), and its best counts. */
static int sweep_range(const struct mpi_job *job, const struct sweep_bufs *sb, uint32_t nact,
                       struct best *b, struct iodfg_error *err)
{
    int64_t *carry = calloc((size_t)nact + 1, sizeof(*carry));
    int64_t *best = malloc(((size_t)nact + 1) * sizeof(*best));
    int64_t *when = calloc((size_t)nact + 1, sizeof(*when));
    int ok = carry && best && when;
    MPI_Allreduce(MPI_IN_PLACE, &ok, 1, MPI_INT, MPI_MIN, job->comm);
    int rc = ok ? 0 : iodfg_error_set(err, IODFG_E_NOMEM, NULL);
    if (ok) {
        for (int p = 0; p < job->size; p++) {
            iodfg_partial_points_net(sb->run[p], sb->len[p], sb->net);
        }
        MPI_Exscan(sb->net, carry, (int)nact, MPI_INT64_T, MPI_SUM, job->comm);
        if (job->rank == 0) {
            memset(carry, 0, (size_t)nact * sizeof(*carry));
        }
        for (uint32_t a = 0; a < nact; a++) {
            best[a] = INT64_MIN;
        }
        rc = iodfg_partial_sweep_view(&sb->view, sb->lo, sb->hi, sb->run, sb->len,
                                      (size_t)job->size, carry, nact, best, when, err);
        for (uint32_t a = 0; a < nact; a++) {
            b[a] = (struct best){best[a], when[a], job->rank};
        }
    }
    free(carry);
    free(best);
    free(when);
    return rc;
}

/* The process's view of its points, all of them its own run until the exchange. 0, or -1 with
 * err. */
static int own_points(const struct mpi_job *job, const struct iodfg_session *s, uint32_t nact,
                      struct sweep_bufs *b, struct iodfg_error *err)
{
    b->run = calloc((size_t)job->size, sizeof(*b->run));
    b->len = calloc((size_t)job->size, sizeof(*b->len));
    b->net = calloc((size_t)nact + 1, sizeof(*b->net));
    if (!b->run || !b->len || !b->net || iodfg_partial_view_init(s, &b->view, err)) {
        return iodfg_error_set(err, IODFG_E_NOMEM, NULL);
    }
    b->lo = 0;
    b->hi = b->view.n;
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
    int rc = split && b && all ? own_points(job, s, nact, &bufs, err)
                               : iodfg_error_set(err, IODFG_E_NOMEM, NULL);
    if (mpi_agree(job, rc, err) ||
        (job->size > 1 && (splitters(job, &bufs.view, split, &nsplit) ||
                           exchange(job, &bufs, split, nsplit, nact))) ||
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
    iodfg_partial_view_fini(&bufs.view);
    free(bufs.net);
    free(bufs.got);
    free(bufs.run);
    free(bufs.len);
    free(split);
    free(b);
    free(all);
    return rc;
}
