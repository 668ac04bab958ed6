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

/* ---- concurrency: bucket sums reduced, then only the pairs that can hold the maximum swept ----
 */

/* Pairs (bucket, activity) of the pruned sweep at most: the sums' all-reduction stays small. */
enum { CONC_PAIRS = 1 << 16, CONC_BUCKETS = 4096 };

/* The best count of an activity at one process, for the reduction: the higher wins, and of
 * equal ones the lower process (it owns the earlier buckets). */
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

/* Splitters: want points cutting the job's sorted points in about equal runs: quantiles of
 * every process's timeline positions (about 4 per bucket in all, so that the gathered samples
 * stay small with many processes), gathered, sorted, and their quantiles taken. *nsplit of them
 * (none when no process has a point). This process's samples stay in *mine_out, their positions
 * in *at (*nmine of them), to narrow the search of the splitters in its timeline. 0, or -1 when out
 * of memory (every process). */
static int splitters(const struct mpi_job *job, const struct iodfg_partial_view *v, int want,
                     struct iodfg_partial_point *split, int *nsplit,
                     struct iodfg_partial_point **mine_out, uint64_t **at, int *nmine)
{
    int take = (int)(4 * ((int64_t)want + 1) / job->size);
    take = take > want ? want : take < 1 ? 1 : take;
    struct iodfg_partial_point *mine = *mine_out = calloc((size_t)take + 1, sizeof(*mine));
    struct iodfg_partial_point *all = calloc((size_t)job->size * take + 1, sizeof(*all));
    int *have = calloc((size_t)job->size, sizeof(*have));
    *at = calloc((size_t)take + 1, sizeof(**at));
    int ok = mine && all && have && *at;
    MPI_Allreduce(MPI_IN_PLACE, &ok, 1, MPI_INT, MPI_MIN, job->comm);
    if (ok) {
        int k = *nmine = v->n ? take : 0;
        for (int i = 0; i < k; i++) {
            (*at)[i] = (uint64_t)((double)(i + 1) * (double)v->n / (take + 1));
            iodfg_partial_view_at(v, (*at)[i], &mine[i]);
        }
        MPI_Allgather(&k, 1, MPI_INT, have, 1, MPI_INT, job->comm);
        MPI_Datatype type = point_type();
        MPI_Allgather(mine, take, type, all, take, type, job->comm);
        MPI_Type_free(&type);
        size_t m = 0;
        for (int p = 0; p < job->size; p++) {
            for (int i = 0; i < have[p]; i++) {
                all[m++] = all[(size_t)p * take + i];
            }
        }
        iodfg_partial_points_sort(all, m);
        *nsplit = m ? want : 0; // fewer samples than splitters: some buckets are empty
        for (int i = 0; i < *nsplit; i++) {
            split[i] = all[(size_t)((double)(i + 1) * (double)m / (double)(want + 1))];
        }
    }
    free(all);
    free(have);
    return ok ? 0 : -1;
}

/* What one process holds for the pruned sweep: its view and its buckets' positions in it, its
 * own bucket sums and everyone's, and the points other processes sent it (one run each). */
struct conc {
    struct iodfg_partial_view view;
    struct iodfg_partial_buckets bk;
    struct iodfg_partial_point *split;
    struct iodfg_partial_point *sample; /* this process's samples for the splitters */
    uint64_t *sample_at;                /* their positions */
    int nsample;
    uint64_t *pos;
    int64_t *mine, *sums, *at;
    uint8_t *pick;
    struct iodfg_partial_point *got;
    const struct iodfg_partial_point **run;
    size_t *len;
};

/* The first bucket process p owns (p = size: nb); owners hold consecutive buckets. */
static uint32_t first_bucket(const struct mpi_job *job, uint32_t nb, int p)
{
    return (uint32_t)((uint64_t)nb * (uint64_t)p / (uint64_t)job->size);
}

/* The buckets: as many as fit CONC_PAIRS for nact activities, cut at splitters, and this
 * process's positions of them. 0, or -1 when out of memory (every process). */
static int cut_buckets(const struct mpi_job *job, struct conc *c, uint32_t nact)
{
    uint32_t nb = CONC_PAIRS / (nact ? nact : 1);
    nb = nb > CONC_BUCKETS ? CONC_BUCKETS : nb < 2 ? 2 : nb;
    int nsplit = 0;
    c->split = calloc(nb, sizeof(*c->split));
    int ok = c->split != NULL;
    MPI_Allreduce(MPI_IN_PLACE, &ok, 1, MPI_INT, MPI_MIN, job->comm);
    if (!ok || splitters(job, &c->view, (int)nb - 1, c->split, &nsplit, &c->sample, &c->sample_at,
                         &c->nsample)) {
        return -1;
    }
    nb = (uint32_t)nsplit + 1;
    size_t np = (size_t)nb * nact;
    c->pos = malloc((nb + 1) * sizeof(*c->pos));
    // one block on huge pages: on this VM each 4 KiB page first touched costs about 13 us,
    // 10 ms for the 2.6 MB of one array of sums of a recorded set
    size_t words = IODFG_PARTIAL_SUMS * np;
    c->mine = iodfg_bigmem_alloc((2 * words + np) * sizeof(int64_t) + np + 1);
    if (c->mine) {
        c->sums = c->mine + words;
        c->at = c->sums + words;
        c->pick = (uint8_t *)(c->at + np);
    }
    ok = c->pos && c->mine;
    MPI_Allreduce(MPI_IN_PLACE, &ok, 1, MPI_INT, MPI_MIN, job->comm);
    if (ok) {
        iodfg_partial_bucket_pos(&c->view, c->split, nb, c->sample, c->sample_at,
                                 (size_t)c->nsample, c->pos);
        c->bk = (struct iodfg_partial_buckets){nb,
                                               first_bucket(job, nb, job->rank),
                                               first_bucket(job, nb, job->rank + 1),
                                               c->split,
                                               c->pos,
                                               c->at,
                                               c->pick};
    }
    return ok ? 0 : -1;
}

/* The sums of every process added, and the pairs to sweep picked from them (the same on every
 * process). 0, or -1 when out of memory (every process). */
static int pick_pairs(const struct mpi_job *job, struct conc *c, uint32_t nact)
{
    size_t np = (size_t)c->bk.nb * nact;
    int ok = iodfg_partial_bucket_sums(&c->view, c->pos, c->bk.nb, nact, c->mine) == 0;
    MPI_Allreduce(MPI_IN_PLACE, &ok, 1, MPI_INT, MPI_MIN, job->comm);
    if (!ok) {
        return -1;
    }
    if (mpi_sums_reduce(job, c->mine, c->sums, np)) {
        return -1;
    }
    iodfg_partial_bucket_pick(c->sums, c->bk.nb, nact, c->at, c->pick);
    return 0;
}

/* Send each process this process's points of the picked pairs of that process's buckets and
 * receive theirs of this process's buckets into c->got (a sorted run per process), pointing
 * c->run at them. 0, or -1 when out of memory (every process). */
static int exchange(const struct mpi_job *job, struct conc *c, uint32_t nact)
{
    int P = job->size;
    int *scount = calloc((size_t)P, sizeof(int)), *rcount = calloc((size_t)P, sizeof(int));
    int *sdispl = calloc((size_t)P, sizeof(int)), *rdispl = calloc((size_t)P, sizeof(int));
    int ok = scount && rcount && sdispl && rdispl;
    size_t nsend = 0, ngot = 0;
    for (int p = 0; ok && p < P; p++) {
        uint32_t b0 = first_bucket(job, c->bk.nb, p), b1 = first_bucket(job, c->bk.nb, p + 1);
        uint64_t m = p == job->rank
                         ? 0
                         : iodfg_partial_bucket_count(c->mine, c->bk.nb, nact, c->pick, b0, b1);
        sdispl[p] = (int)nsend;
        scount[p] = (int)m;
        nsend += m;
    }
    struct iodfg_partial_point *send = ok ? iodfg_bigmem_alloc((nsend + 1) * sizeof(*send)) : NULL;
    ok = send != NULL;
    MPI_Allreduce(MPI_IN_PLACE, &ok, 1, MPI_INT, MPI_MIN, job->comm);
    if (ok) {
        for (int p = 0; p < P; p++) {
            uint32_t b0 = first_bucket(job, c->bk.nb, p), b1 = first_bucket(job, c->bk.nb, p + 1);
            if (p != job->rank) {
                iodfg_partial_bucket_copy(&c->view, c->pos, nact, c->pick, b0, b1,
                                          send + sdispl[p]);
            }
        }
        MPI_Alltoall(scount, 1, MPI_INT, rcount, 1, MPI_INT, job->comm);
        for (int p = 0; p < P; p++) {
            rdispl[p] = (int)ngot;
            ngot += (size_t)rcount[p];
        }
        c->got = iodfg_bigmem_alloc((ngot + 1) * sizeof(*c->got));
        ok = c->got != NULL;
        MPI_Allreduce(MPI_IN_PLACE, &ok, 1, MPI_INT, MPI_MIN, job->comm);
    }
    if (ok) {
        MPI_Datatype type = point_type();
        MPI_Alltoallv(send, scount, sdispl, type, c->got, rcount, rdispl, type, job->comm);
        MPI_Type_free(&type);
        for (int p = 0; p < P; p++) {
            c->run[p] = c->got + rdispl[p];
            c->len[p] = (size_t)rcount[p];
        }
    }
    free(send);
    free(scount);
    free(rcount);
    free(sdispl);
    free(rdispl);
    return ok ? 0 : -1;
}

/* This process's buckets swept (its own points in place, the received runs beside them): its
 * best counts per activity. */
static int sweep_own(const struct mpi_job *job, const struct conc *c, uint32_t nact, struct best *b,
                     struct iodfg_error *err)
{
    int64_t *best = malloc(((size_t)nact + 1) * sizeof(*best));
    int64_t *when = calloc((size_t)nact + 1, sizeof(*when));
    int rc = best && when ? 0 : iodfg_error_set(err, IODFG_E_NOMEM, NULL);
    for (uint32_t a = 0; rc == 0 && a < nact; a++) {
        best[a] = INT64_MIN;
    }
    if (rc == 0) {
        rc = iodfg_partial_sweep_buckets(&c->view, &c->bk, c->run, c->len, (size_t)job->size, nact,
                                         best, when, err);
        for (uint32_t a = 0; a < nact; a++) {
            b[a] = (struct best){best[a], when[a], job->rank};
        }
    }
    free(best);
    free(when);
    return rc;
}

static void conc_fini(struct conc *c)
{
    iodfg_partial_view_fini(&c->view);
    free(c->split);
    free(c->sample);
    free(c->sample_at);
    free(c->pos);
    free(c->mine); // with sums, at and pick
    free(c->got);
    free(c->run);
    free(c->len);
}

/* The best counts of every process reduced to process 0's mc and when. */
static void reduce_best(const struct mpi_job *job, const struct best *b, struct best *all,
                        uint32_t nact, uint32_t *mc, int64_t *when)
{
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

int mpi_concurrency(const struct mpi_job *job, const struct iodfg_session *s, uint32_t nact,
                    uint32_t *mc, int64_t *when, struct iodfg_error *err)
{
    struct conc c = {0};
    struct best *b = calloc((size_t)nact + 1, sizeof(*b)),
                *all = calloc((size_t)nact + 1, sizeof(*all));
    c.run = calloc((size_t)job->size, sizeof(*c.run));
    c.len = calloc((size_t)job->size, sizeof(*c.len));
    int rc = b && all && c.run && c.len ? iodfg_partial_view_init(s, &c.view, err)
                                        : iodfg_error_set(err, IODFG_E_NOMEM, NULL);
    if (mpi_agree(job, rc, err) || cut_buckets(job, &c, nact) || pick_pairs(job, &c, nact) ||
        exchange(job, &c, nact) || mpi_agree(job, sweep_own(job, &c, nact, b, err), err)) {
        rc = iodfg_error_set(err, IODFG_E_NOMEM, "out of memory for the concurrency sweep");
    } else {
        reduce_best(job, b, all, nact, mc, when);
    }
    conc_fini(&c);
    free(b);
    free(all);
    return rc;
}
