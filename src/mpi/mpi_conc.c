/* SPDX-License-Identifier: MIT */
/* iodfg-mpi: maximum concurrency over the processes' parts, exactly: bucket sums reduced, the
 * pairs that may hold the maximum cut finer as windows, and only the windows' points swept
 * (doc/mpi.md, "Maximum concurrency"). */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "iodfg/bigmem.h"
#include "iodfg/error.h"
#include "iodfg/eventlog.h"
#include "iodfg/partial.h"
#include "iodfg/session.h"

#include "mpi_reduce.h"
#include "mpi_sums.h"

/* Pairs (bucket, activity) of the pruned sweep at most: the sums' all-reduction stays small. */
enum { CONC_PAIRS = 1 << 16, CONC_BUCKETS = 4096 };
/* The windows' rounds: each cuts a window into at most WINDOW_PIECES pieces (a round's sums no
 * larger than the buckets'), until at most WINDOW_POINTS points per process are left in them, at
 * most WINDOW_ROUNDS times. On the recorded 3.2 M-line set two rounds leave a few hundred of
 * the 600,000 points the buckets picked. */
enum { WINDOW_PIECES = 16, WINDOW_POINTS = 1 << 13, WINDOW_ROUNDS = 4 };

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
 * own bucket sums and everyone's, the windows (the same on every process) and its own points in
 * them, and the points other processes sent it of the windows it sweeps (one run each). */
struct conc {
    struct iodfg_partial_view view;
    uint32_t nb;
    struct iodfg_partial_point *split;
    struct iodfg_partial_point *sample; /* this process's samples for the splitters */
    uint64_t *sample_at;                /* their positions */
    int nsample;
    uint64_t *pos;
    int64_t *mine, *sums, *at;
    uint8_t *pick;
    uint64_t picked; /* how many pairs are picked */
    int64_t *low;
    uint32_t *first;
    struct iodfg_partial_window *w;
    uint32_t nw;
    struct iodfg_partial_reach *reach;
    uint32_t *wid, *to;   /* the pairs' first windows, the pieces' windows next */
    uint64_t *pp;         /* the pieces' positions in the view */
    int64_t *mine_pieces; /* this process's sums of the pieces (none with one a window) */
    size_t npieces;
    struct iodfg_partial_pieces pieces;
    int in_place; /* its own buckets' points swept from the view */
    struct iodfg_partial_point *own;
    size_t nown;
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
    c->nb = nb = (uint32_t)nsplit + 1;
    size_t np = (size_t)nb * nact;
    c->pos = malloc((nb + 1) * sizeof(*c->pos));
    c->low = malloc((nact + 1) * sizeof(*c->low));
    c->first = malloc((nact + 1) * sizeof(*c->first));
    // one block on huge pages: on this VM each 4 KiB page first touched costs about 13 us,
    // 10 ms for the 2.6 MB of one array of sums of a recorded set
    size_t words = IODFG_PARTIAL_SUMS * np;
    c->mine = iodfg_bigmem_alloc((2 * words + np) * sizeof(int64_t) + np + 1);
    if (c->mine) {
        c->sums = c->mine + words;
        c->at = c->sums + words;
        c->pick = (uint8_t *)(c->at + np);
    }
    ok = c->pos && c->mine && c->low && c->first;
    MPI_Allreduce(MPI_IN_PLACE, &ok, 1, MPI_INT, MPI_MIN, job->comm);
    if (ok) {
        iodfg_partial_bucket_pos(&c->view, c->split, nb, c->sample, c->sample_at,
                                 (size_t)c->nsample, c->pos);
    }
    return ok ? 0 : -1;
}

/* The sums of every process added, and the pairs that may hold the maximum picked from them (the
 * same on every process). 0, or -1 when out of memory (every process). */
static int pick_pairs(const struct mpi_job *job, struct conc *c, uint32_t nact)
{
    size_t np = (size_t)c->nb * nact;
    int ok = iodfg_partial_bucket_sums(&c->view, c->pos, c->nb, nact, c->mine) == 0;
    MPI_Allreduce(MPI_IN_PLACE, &ok, 1, MPI_INT, MPI_MIN, job->comm);
    if (!ok) {
        return -1;
    }
    if (mpi_sums_reduce(job, c->mine, c->sums, np)) {
        return -1;
    }
    c->picked = iodfg_partial_bucket_pick(c->sums, c->nb, nact, c->at, c->pick, c->low, c->first);
    return 0;
}

/* The pieces of this round, the same on every process: as many per window as keep the sums no
 * larger than the buckets', at most WINDOW_PIECES; 1 (no round) when the windows hold few points,
 * when there are too many windows to cut, or when the last round kept more than half of the
 * points it had (was: the bounds do not tell these windows' points apart, as with short events
 * that rarely overlap: more rounds would cost more than they save). */
static uint32_t pieces_per_window(const struct mpi_job *job, uint32_t nw, uint64_t total,
                                  uint64_t was)
{
    uint32_t sub = nw ? CONC_PAIRS / nw : 0;
    sub = sub > WINDOW_PIECES ? WINDOW_PIECES : sub;
    int worth = total > WINDOW_POINTS * (uint64_t)job->size && total <= was / 2;
    return worth && sub >= 2 ? sub : 1;
}

/* The pieces kept of the first windows (to: each one's window next), how many (*next_nw) and the
 * job's points in them (*total), by every process's sums of them (mine: this process's). 0, or
 * -1 when out of memory (every process). */
static int pick_pieces(const struct mpi_job *job, struct conc *c, uint32_t nact, uint32_t sub,
                       int64_t *mine, uint32_t *to, struct iodfg_partial_window *next,
                       uint32_t *next_nw, uint64_t *total)
{
    size_t np = (size_t)c->nw * sub;
    int64_t *sums = mine + IODFG_PARTIAL_SUMS * np;
    int ok = mpi_sums_reduce(job, mine, sums, np) == 0;
    int64_t n =
        ok ? iodfg_partial_window_pick(c->w, c->nw, sub, sums, nact, c->reach, next, to) : 0;
    if (ok) {
        ok = n >= 0;
        MPI_Allreduce(MPI_IN_PLACE, &ok, 1, MPI_INT, MPI_MIN, job->comm);
    }
    *next_nw = (uint32_t)n;
    *total = ok ? iodfg_partial_window_points(sums, np, to) : 0;
    return ok ? 0 : -1;
}

/* The picked pairs as the first windows; when they hold many points, but no more than half of
 * the job's (else the buckets' bounds did not tell the points apart, as in a log of short events
 * at a steady pace, and pieces would not either: the rule of the later rounds), a first round on
 * the view (each bucket cut into pieces of equal time, found by binary search, so that no point
 * is copied before it): c->pieces, with each piece's window next. 0, or -1 when out of memory
 * (every process). */
static int first_windows(const struct mpi_job *job, struct conc *c, uint32_t nact, uint64_t *total,
                         uint64_t *was)
{
    size_t np = (size_t)c->nb * nact;
    uint64_t picked = c->picked;
    *total = *was = iodfg_partial_bucket_count(c->sums, c->nb, nact, c->pick, 0, c->nb);
    uint64_t all = iodfg_partial_bucket_count(c->sums, c->nb, nact, NULL, 0, c->nb);
    uint32_t sub = pieces_per_window(job, (uint32_t)picked, *total, all);
    size_t npieces = (size_t)picked * sub;
    c->wid = malloc((np + 1) * sizeof(*c->wid));
    c->to = malloc((npieces + 1) * sizeof(*c->to));
    c->pp = malloc(((size_t)c->nb * (sub + 1) + 1) * sizeof(*c->pp));
    // one piece a window: the pieces' sums are the pairs' (no pass)
    c->mine_pieces =
        sub > 1 ? iodfg_bigmem_alloc((2 * IODFG_PARTIAL_SUMS * npieces + 1) * sizeof(int64_t))
                : NULL;
    struct iodfg_partial_window *next = malloc((npieces + 1) * sizeof(*next));
    c->w = malloc((picked + 1) * sizeof(*c->w));
    c->reach = malloc((nact + 1) * sizeof(*c->reach));
    int ok = c->wid && c->to && c->pp && (c->mine_pieces || sub == 1) && next && c->w && c->reach;
    if (ok) {
        c->nw = iodfg_partial_windows_of_pick(c->at, c->pick, c->nb, nact, c->low, c->first, c->w,
                                              c->wid, c->reach);
        iodfg_partial_piece_pos(&c->view, c->pos, c->split, c->nb, nact, c->wid, sub, c->pp);
    }
    if (ok && sub > 1) {
        ok = iodfg_partial_piece_sums(&c->view, c->pp, c->nb, nact, c->wid, sub, c->nw,
                                      c->mine_pieces) == 0;
    }
    MPI_Allreduce(MPI_IN_PLACE, &ok, 1, MPI_INT, MPI_MIN, job->comm);
    uint32_t nw = c->nw;
    for (size_t k = 0; ok && sub == 1 && k < npieces; k++) {
        c->to[k] = (uint32_t)k; // one piece a window: all kept as they are
    }
    if (ok && sub > 1) {
        ok = pick_pieces(job, c, nact, sub, c->mine_pieces, c->to, next, &nw, total) == 0;
    }
    if (ok) {
        c->pieces = (struct iodfg_partial_pieces){&c->view,
                                                  c->pp,
                                                  c->nb,
                                                  nact,
                                                  sub,
                                                  c->wid,
                                                  c->to,
                                                  first_bucket(job, c->nb, job->rank),
                                                  first_bucket(job, c->nb, job->rank + 1)};
        c->npieces = npieces;
    }
    if (ok && sub > 1) {
        free(c->w);
        c->w = next;
        c->nw = nw;
        next = NULL;
    }
    free(next);
    return ok ? 0 : -1;
}

/* This process's points of the pieces kept copied: all of them when rounds on the copies follow,
 * else only those of other processes' buckets (its own are swept from its timeline where they
 * lie; in_place). 0, or -1 when out of memory (every process). */
static int copy_own(const struct mpi_job *job, struct conc *c, int in_place)
{
    uint64_t nown = c->mine_pieces ? iodfg_partial_window_points(c->mine_pieces, c->npieces, c->to)
                                   : iodfg_partial_bucket_count(c->mine, c->nb, c->pieces.nact,
                                                                c->pick, 0, c->nb);
    c->own = iodfg_bigmem_alloc((nown + 1) * sizeof(*c->own)); // untouched room is not paid
    int ok = c->own != NULL;
    MPI_Allreduce(MPI_IN_PLACE, &ok, 1, MPI_INT, MPI_MIN, job->comm);
    if (ok) {
        struct iodfg_partial_pieces before = c->pieces, after = c->pieces;
        before.b0 = 0;
        before.b1 = in_place ? c->pieces.b0 : c->nb;
        after.b0 = in_place ? c->pieces.b1 : c->nb;
        after.b1 = c->nb;
        c->nown = iodfg_partial_piece_copy(&before, c->own);
        c->nown += iodfg_partial_piece_copy(&after, c->own + c->nown);
        c->in_place = in_place;
    }
    return ok ? 0 : -1;
}

/* One round: every window cut into sub pieces, this process's sums of them added to everyone's,
 * and the pieces that may hold the maximum kept as the windows next, with this process's points
 * in them; *total: the job's points in them. 0, or -1 when out of memory (every process). */
static int refine_round(const struct mpi_job *job, struct conc *c, uint32_t nact, uint32_t sub,
                        uint64_t *total)
{
    size_t np = (size_t)c->nw * sub;
    int64_t *span = malloc((IODFG_PARTIAL_SPAN * (size_t)c->nw + 1) * sizeof(*span));
    int64_t *mine = iodfg_bigmem_alloc((2 * IODFG_PARTIAL_SUMS * np + 1) * sizeof(*mine));
    struct iodfg_partial_window *next = malloc((np + 1) * sizeof(*next));
    uint32_t *to = malloc((np + 1) * sizeof(*to));
    int ok = span && mine && next && to;
    MPI_Allreduce(MPI_IN_PLACE, &ok, 1, MPI_INT, MPI_MIN, job->comm);
    if (ok) {
        iodfg_partial_window_span(c->own, c->nown, c->nw, span);
        MPI_Allreduce(MPI_IN_PLACE, span, IODFG_PARTIAL_SPAN * (int)c->nw, MPI_INT64_T, MPI_MIN,
                      job->comm);
        ok = iodfg_partial_window_sums(c->own, c->nown, span, c->nw, sub, mine) == 0;
        MPI_Allreduce(MPI_IN_PLACE, &ok, 1, MPI_INT, MPI_MIN, job->comm);
    }
    int64_t *sums = ok ? mine + IODFG_PARTIAL_SUMS * np : NULL;
    ok = ok && mpi_sums_reduce(job, mine, sums, np) == 0;
    int64_t n =
        ok ? iodfg_partial_window_pick(c->w, c->nw, sub, sums, nact, c->reach, next, to) : 0;
    if (ok) {
        ok = n >= 0;
        MPI_Allreduce(MPI_IN_PLACE, &ok, 1, MPI_INT, MPI_MIN, job->comm);
    }
    if (ok) {
        c->nown = iodfg_partial_window_keep(c->own, c->nown, span, sub, to);
        *total = iodfg_partial_window_points(sums, np, to);
        free(c->w);
        c->w = next;
        c->nw = (uint32_t)n;
        next = NULL;
    }
    free(span);
    free(mine);
    free(next);
    free(to);
    return ok ? 0 : -1;
}

/* This process's points copied and the windows cut finer on the copies until few points are left
 * in them (the same rounds on every process); with no round to come, its own buckets' points
 * stay in its timeline. 0, or -1 when out of memory (every process). */
static int refine_windows(const struct mpi_job *job, struct conc *c, uint32_t nact, uint64_t total,
                          uint64_t was)
{
    if (copy_own(job, c, pieces_per_window(job, c->nw, total, was) == 1)) {
        return -1;
    }
    for (int r = 1; r < WINDOW_ROUNDS; r++) {
        uint32_t sub = pieces_per_window(job, c->nw, total, was);
        if (sub == 1) {
            return 0;
        }
        was = total;
        if (refine_round(job, c, nact, sub, &total)) {
            return -1;
        }
    }
    return 0;
}

/* Send each process this process's points of the windows in that process's buckets and receive
 * theirs of this process's buckets into c->got (a sorted run per process), pointing c->run at
 * them and at this process's own run where it lies. 0, or -1 when out of memory (every process). */
static int exchange(const struct mpi_job *job, struct conc *c)
{
    int P = job->size;
    int *scount = calloc((size_t)P, sizeof(int)), *rcount = calloc((size_t)P, sizeof(int));
    int *sdispl = calloc((size_t)P, sizeof(int)), *rdispl = calloc((size_t)P, sizeof(int));
    int ok = scount && rcount && sdispl && rdispl;
    size_t ngot = 0;
    // the own points lie in the buckets' order, so each process's share follows the last one's
    for (size_t i = 0, p = 0; ok && i < c->nown; i++) {
        while (c->w[c->own[i].act].bucket >= first_bucket(job, c->nb, (int)p + 1)) {
            p++;
        }
        scount[p]++;
    }
    for (int p = 1; ok && p < P; p++) {
        sdispl[p] = sdispl[p - 1] + scount[p - 1];
    }
    // its own share stays where it lies: a run of its own
    size_t own_at = ok ? (size_t)sdispl[job->rank] : 0,
           own_len = ok ? (size_t)scount[job->rank] : 0;
    if (ok) {
        scount[job->rank] = 0;
    }
    MPI_Allreduce(MPI_IN_PLACE, &ok, 1, MPI_INT, MPI_MIN, job->comm);
    if (ok) {
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
        MPI_Alltoallv(c->own, scount, sdispl, type, c->got, rcount, rdispl, type, job->comm);
        MPI_Type_free(&type);
        for (int p = 0; p < P; p++) {
            c->run[p] = p == job->rank ? c->own + own_at : c->got + rdispl[p];
            c->len[p] = p == job->rank ? own_len : (size_t)rcount[p];
        }
    }
    free(scount);
    free(rcount);
    free(sdispl);
    free(rdispl);
    return ok ? 0 : -1;
}

/* The windows of this process's buckets swept: its best counts per activity. */
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
        rc = iodfg_partial_sweep_windows(c->in_place ? &c->pieces : NULL, c->run, c->len,
                                         (size_t)job->size, c->w, c->nw, best, when, err);
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
    free(c->low);
    free(c->first);
    free(c->w);
    free(c->reach);
    free(c->wid);
    free(c->to);
    free(c->pp);
    free(c->mine_pieces);
    free(c->own);
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
    uint64_t total = 0, was = 0;
    if (mpi_agree(job, rc, err) || cut_buckets(job, &c, nact) || pick_pairs(job, &c, nact) ||
        first_windows(job, &c, nact, &total, &was) || refine_windows(job, &c, nact, total, was) ||
        exchange(job, &c) || mpi_agree(job, sweep_own(job, &c, nact, b, err), err)) {
        rc = iodfg_error_set(err, IODFG_E_NOMEM, "out of memory for the concurrency sweep");
    } else {
        reduce_best(job, b, all, nact, mc, when);
    }
    conc_fini(&c);
    free(b);
    free(all);
    return rc;
}
