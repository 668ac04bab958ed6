/* SPDX-License-Identifier: MIT */
/* iodfg-mpi: percentiles over the processes' parts, exactly (the concurrency: mpi_conc.c). */
#include "config.h"

#include "mpi_reduce.h"

#include <stdlib.h>
#include <string.h>

#include "iodfg/eventlog.h"
#include "iodfg/partial.h"
#include "iodfg/session.h"

#include "mpi_sums.h"

/* ---- percentiles: histograms summed, the range narrowed to the bucket of the rank ---- */

/* One percentile being found: the range it lies in, its rank there, and this process's values in
 * that range (own: a copy, once narrowed; before, the caller's, or the session's durations in its
 * columns while first is set). */
struct hunt {
    struct iodfg_partial_cut cut;
    uint64_t rank, n;
    const int64_t *v;
    int64_t *own;
    int64_t *keep; /* this round's values in the narrowed range, until they replace v */
    int done;
    const uint64_t *first; /* the durations' first-round histogram (mpi_pctl) */
    size_t slot;
};

/* Whether two hunts count the same values (an activity's median and p95 before the first
 * narrowing): in the same range one histogram serves both, and one pass keeps both's values. */
static int same_values(const struct hunt *a, const struct hunt *b)
{
    return a->v == b->v && a->n == b->n && a->first == b->first;
}

static int same_range(const struct hunt *a, const struct hunt *b)
{
    return same_values(a, b) && memcmp(&a->cut, &b->cut, sizeof(a->cut)) == 0;
}

/* Hunt i's values in its new range (counted k) replace those it had. */
static void take_kept(struct hunt *h, uint64_t k)
{
    free(h->own);
    h->v = h->own = h->keep;
    h->n = k;
    h->keep = NULL;
}

/* The narrowed hunts of the session's durations keep theirs, all in one pass over the columns.
 * 1, or 0 when out of memory. */
static int keep_durations(const struct iodfg_session *s, struct hunt *h, size_t n)
{
    size_t nslots = 0;
    for (size_t i = 0; i < n; i++) {
        nslots = h[i].keep && h[i].first && h[i].slot + 1 > nslots ? h[i].slot + 1 : nslots;
    }
    if (nslots == 0) {
        return 1;
    }
    struct iodfg_partial_keep_to *to = calloc(nslots, sizeof(*to));
    for (size_t i = 0; to && i < n; i++) {
        if (h[i].keep && h[i].first) {
            to[h[i].slot] = (struct iodfg_partial_keep_to){h[i].cut, h[i].keep, h[i].n, 0};
        }
    }
    int ok = to && iodfg_partial_dur_keep(s, to, nslots) == 0;
    for (size_t i = 0; i < n; i++) {
        if (h[i].keep && h[i].first) {
            h[i].first = NULL;
            take_kept(&h[i], ok ? to[h[i].slot].k : 0);
        }
    }
    free(to);
    return ok;
}

/* Every narrowed hunt keeps its values in its new range (h[i].keep), two hunts of the same values
 * in one pass. 1, or 0 when out of memory. */
static int keep_all(const struct iodfg_session *s, struct hunt *h, size_t n)
{
    int ok = keep_durations(s, h, n);
    for (size_t i = 0; i < n; i++) {
        if (!h[i].keep) {
            continue;
        }
        if (i + 1 < n && h[i + 1].keep && same_values(&h[i], &h[i + 1])) {
            uint64_t k[2];
            iodfg_partial_keep2(h[i].v, h[i].n, &h[i].cut, h[i].keep, &k[0], &h[i + 1].cut,
                                h[i + 1].keep, &k[1]);
            take_kept(&h[i], k[0]);
            take_kept(&h[++i], k[1]);
        } else {
            take_kept(&h[i], iodfg_partial_keep(h[i].v, h[i].n, &h[i].cut, h[i].keep));
        }
    }
    return ok;
}

/* One round over the unfinished hunts: their histograms summed over the processes, each range
 * narrowed to the bucket holding its rank and this process's values in it kept. 0, or -1 when
 * out of memory (every process). */
static int hunt_round(const struct mpi_job *job, const struct iodfg_session *s, struct hunt *h,
                      size_t n, size_t open, int64_t *out)
{
    size_t B = IODFG_PARTIAL_BUCKETS;
    uint64_t *mine = calloc(open * B + 1, sizeof(*mine)),
             *hist = malloc((open * B + 1) * sizeof(*hist));
    int ok = hist && mine;
    MPI_Allreduce(MPI_IN_PLACE, &ok, 1, MPI_INT, MPI_MIN, job->comm);
    for (size_t i = 0, j = 0; ok && i < n; i++) {
        if (h[i].done) {
            continue;
        }
        uint64_t *to = mine + B * j++;
        if (i > 0 && !h[i - 1].done && same_range(&h[i - 1], &h[i])) {
            memcpy(to, to - B, B * sizeof(*to)); // the previous open hunt's histogram
        } else if (h[i].first) {
            memcpy(to, h[i].first, B * sizeof(*to));
        } else {
            iodfg_partial_hist(h[i].v, h[i].n, &h[i].cut, to);
        }
    }
    ok = ok && mpi_counts_reduce(job, mine, hist, open * B) == 0;
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
        h[i].keep = malloc((mine[at + b] + 1) * sizeof(*h[i].keep));
        h[i].n = h[i].first ? mine[at + b] : h[i].n; // the durations' room in the new range
        ok = h[i].keep != NULL;
    }
    for (size_t i = 0; i < n; i++) { // kept when all have room, else freed
        if (!ok) {
            free(h[i].keep);
            h[i].keep = NULL;
        }
    }
    ok = keep_all(s, h, n) && ok;
    MPI_Allreduce(MPI_IN_PLACE, &ok, 1, MPI_INT, MPI_MIN, job->comm);
    free(hist);
    free(mine);
    return ok ? 0 : -1;
}

void mpi_percentiles(const struct mpi_job *job, const struct iodfg_session *s,
                     const struct mpi_pctl *t, size_t n, int64_t *out)
{
    struct hunt *h = calloc(n + 1, sizeof(*h));
    int ok = h != NULL;
    MPI_Allreduce(MPI_IN_PLACE, &ok, 1, MPI_INT, MPI_MIN, job->comm);
    for (size_t i = 0; i < n; i++) {
        out[i] = IODFG_UNKNOWN;
        if (ok) {
            iodfg_partial_cut_all(&h[i].cut);
            h[i] = (struct hunt){h[i].cut, t[i].rank,      t[i].n,     t[i].v,   NULL,
                                 NULL,     t[i].rank == 0, t[i].first, t[i].slot};
        }
    }
    // every process sees the same sums, so all finish the same hunts in the same round
    while (ok) {
        size_t open = 0;
        for (size_t i = 0; i < n; i++) {
            open += !h[i].done;
        }
        if (open == 0 || hunt_round(job, s, h, n, open, out)) {
            break;
        }
    }
    for (size_t i = 0; ok && i < n; i++) {
        out[i] = h[i].done ? out[i] : IODFG_UNKNOWN;
        free(h[i].own);
    }
    free(h);
}
