/* SPDX-License-Identifier: MIT */
/* iodfg-mpi: the merge of the analysis (the session job's merge, session_job.h). Every process
 * has rebuilt its session over its range of the log's cases; their partial results are combined
 * exactly (iodfg/partial.h, doc/mpi.md) into the whole log's DFG and statistics, and the groups'
 * with --green/--red, which process 0's session adopts. */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "iodfg/dfg.h"
#include "iodfg/diff.h"
#include "iodfg/error.h"
#include "iodfg/mapping.h"
#include "iodfg/partial.h"
#include "iodfg/session.h"
#include "iodfg/stats.h"

#include "mpi_main.h"
#include "mpi_phases.h"
#include "mpi_reduce.h"

/* The merged statistics' sums and the DFG's edges, on process 0. */
struct merged {
    struct iodfg_partial_key *keys;
    double *dr_sum;
    uint8_t *dr_has;
    uint64_t *act_cases;
    struct iodfg_dfg *g; // process 0: the merged DFG; every process: its edges' order
    struct iodfg_stats st;
    struct iodfg_diff groups; // with --green/--red: the groups' DFGs and compared sums
    uint32_t group_cases[2];
    int edge_gaps; // the output shows the edges' gap medians: else they stay unknown
};

static void key_op(void *in, void *inout, int *len, MPI_Datatype *type)
{
    (void)type;
    iodfg_partial_keys_add(inout, in, (uint32_t)*len);
}

/* Key sums reduced to process 0; the rates' sums folded process after process, in case order,
 * and sent on to process 0. */
static int merge_keys(const struct mpi_job *job, const struct iodfg_session *s, uint32_t nkeys,
                      struct merged *m, struct iodfg_error *err)
{
    struct iodfg_partial_key *mine = calloc((size_t)nkeys + 1, sizeof(*mine));
    int rc = mine ? iodfg_partial_keys(s, mine, err) : iodfg_error_set(err, IODFG_E_NOMEM, NULL);
    if (mpi_agree(job, rc, err)) {
        free(mine);
        return -1;
    }
    MPI_Datatype type;
    MPI_Op op;
    MPI_Type_contiguous((int)sizeof(*mine), MPI_BYTE, &type);
    MPI_Type_commit(&type);
    MPI_Op_create(key_op, 1, &op);
    MPI_Reduce(mine, m->keys, (int)nkeys, type, op, 0, job->comm);
    MPI_Op_free(&op);
    MPI_Type_free(&type);
    free(mine);
    // the fold: process p takes the sums of processes < p and goes on with its own rates
    if (job->rank > 0) {
        MPI_Recv(m->dr_sum, (int)nkeys, MPI_DOUBLE, job->rank - 1, 1, job->comm, MPI_STATUS_IGNORE);
        MPI_Recv(m->dr_has, (int)nkeys, MPI_UINT8_T, job->rank - 1, 2, job->comm,
                 MPI_STATUS_IGNORE);
    }
    rc = iodfg_partial_dr_fold(s, m->dr_sum, m->dr_has, err);
    int next = job->rank + 1 < job->size ? job->rank + 1 : 0;
    if (job->size > 1 && (job->rank + 1 < job->size || job->rank == job->size - 1)) {
        MPI_Send(m->dr_sum, (int)nkeys, MPI_DOUBLE, next, 1, job->comm);
        MPI_Send(m->dr_has, (int)nkeys, MPI_UINT8_T, next, 2, job->comm);
    }
    if (job->size > 1 && job->rank == 0) {
        MPI_Recv(m->dr_sum, (int)nkeys, MPI_DOUBLE, job->size - 1, 1, job->comm, MPI_STATUS_IGNORE);
        MPI_Recv(m->dr_has, (int)nkeys, MPI_UINT8_T, job->size - 1, 2, job->comm,
                 MPI_STATUS_IGNORE);
    }
    return mpi_agree(job, rc, err);
}

/* Every process's present edges of its DFG g, in slot order, added in process order into out
 * (on every process: all need the merged edges for the gap percentiles). */
static int merge_edges(const struct mpi_job *job, const struct iodfg_dfg *g, uint32_t nact,
                       struct iodfg_dfg *out, struct iodfg_error *err)
{
    size_t slots = iodfg_dfg_slots(g), n = 0;
    struct iodfg_dfg_edge *mine = calloc(slots + 1, sizeof(*mine));
    for (size_t i = 0; mine && i < slots; i++) {
        if (iodfg_dfg_edge_at(g, i)->count) {
            mine[n++] = *iodfg_dfg_edge_at(g, i);
        }
    }
    uint64_t traces = iodfg_dfg_traces(g);
    char *all = NULL;
    uint64_t *off = NULL;
    int rc = mine ? 0 : iodfg_error_set(err, IODFG_E_NOMEM, NULL);
    if (mpi_agree(job, rc, err) ||
        mpi_allgather_bytes(job, mine, n * sizeof(*mine), &all, &off, err)) {
        free(mine);
        return -1;
    }
    uint64_t *tr = calloc((size_t)job->size, sizeof(*tr));
    rc = tr ? 0 : iodfg_error_set(err, IODFG_E_NOMEM, NULL);
    if (mpi_agree(job, rc, err) == 0) {
        MPI_Allgather(&traces, 1, MPI_UINT64_T, tr, 1, MPI_UINT64_T, job->comm);
        for (int p = 0; rc == 0 && p < job->size; p++) {
            const struct iodfg_dfg_edge *e = (const void *)(all + off[p]);
            rc = iodfg_partial_dfg_add(out, nact, e, (size_t)(off[p + 1] - off[p]) / sizeof(*e),
                                       tr[p], err);
        }
        rc = mpi_agree(job, rc, err);
    }
    free(tr);
    free(all);
    free(off);
    free(mine);
    return rc;
}

/* What the comparison reads of each group's statistics (iodfg_diff_compare), per activity:
 * integers, summed. */
enum { GROUP_SUMS = 5 };

static void group_pack(uint64_t *v, const struct iodfg_stats *st, uint32_t nact)
{
    for (uint32_t a = 0; a < nact && a < st->nactivities; a++, v += GROUP_SUMS) {
        const struct iodfg_activity_stats *as = &st->act[a];
        v[0] = as->count;
        v[1] = as->cases;
        v[2] = as->dur_n;
        v[3] = (uint64_t)as->dur_sum_ns; // two's complement: adds as the serial int64 sum
        v[4] = (uint64_t)as->bytes;
    }
}

static void group_unpack(struct iodfg_stats *st, const uint64_t *v, uint32_t nact)
{
    for (uint32_t a = 0; a < nact; a++, v += GROUP_SUMS) {
        struct iodfg_activity_stats *as = &st->act[a];
        as->count = v[0];
        as->cases = v[1];
        as->dur_n = v[2];
        as->dur_sum_ns = (int64_t)v[3];
        as->bytes = (int64_t)v[4];
    }
}

/* The groups' DFGs (edges added in process order, as the whole DFG's) and compared sums, and
 * their case counts, of the whole job into m->groups on process 0. */
static int merge_groups(const struct mpi_job *job, const struct iodfg_session *s, uint32_t nact,
                        struct merged *m, struct iodfg_error *err)
{
    const struct iodfg_diff *d = iodfg_session_diff(s);
    size_t nv = 2 * GROUP_SUMS * (size_t)nact;
    uint64_t *v = calloc(nv + 1, sizeof(*v));
    int rc = d && v ? 0 : iodfg_error_set(err, IODFG_E_NOMEM, NULL);
    if (rc == 0 && (iodfg_diff_groups_alloc(&m->groups, err) ||
                    iodfg_stats_resize(&m->groups.g_stats, nact, err) ||
                    iodfg_stats_resize(&m->groups.r_stats, nact, err))) {
        rc = -1;
    }
    if (mpi_agree(job, rc, err)) {
        free(v);
        return -1;
    }
    group_pack(v, &d->g_stats, nact);
    group_pack(v + nv / 2, &d->r_stats, nact);
    MPI_Allreduce(MPI_IN_PLACE, v, (int)nv, MPI_UINT64_T, MPI_SUM, job->comm);
    group_unpack(&m->groups.g_stats, v, nact);
    group_unpack(&m->groups.r_stats, v + nv / 2, nact);
    free(v);
    const struct iodfg_session_counts *k = iodfg_session_counts(s);
    uint32_t cases[2] = {k->g_cases, k->r_cases};
    MPI_Allreduce(cases, m->group_cases, 2, MPI_UINT32_T, MPI_SUM, job->comm);
    if (merge_edges(job, d->g_dfg, nact, m->groups.g_dfg, err) ||
        merge_edges(job, d->r_dfg, nact, m->groups.r_dfg, err)) {
        return -1;
    }
    iodfg_partial_dfg_finish(m->groups.g_dfg, NULL);
    iodfg_partial_dfg_finish(m->groups.r_dfg, NULL);
    return 0;
}

/* Nearest-rank percentiles: durations (median, p95) per activity, gap medians per edge (unknown
 * when the output shows none). */
static int merge_percentiles(const struct mpi_job *job, const struct iodfg_session *s,
                             uint32_t nact, struct merged *m, int64_t *out, struct iodfg_error *err)
{
    struct iodfg_partial_values v;
    int rc = iodfg_partial_values_build(s, m->edge_gaps, &v, err);
    size_t ne = iodfg_dfg_slots(m->g), nt = 2 * (size_t)nact + ne;
    struct mpi_pctl *t = calloc(nt + 1, sizeof(*t));
    uint64_t *n = calloc(nt + 1, sizeof(*n));
    // the durations stay in the columns: their first round's histograms, counted in one pass
    uint64_t *first = calloc((size_t)nact * IODFG_PARTIAL_BUCKETS + 1, sizeof(*first));
    if (rc == 0 && (!t || !n || !first)) {
        iodfg_partial_values_fini(&v);
        rc = iodfg_error_set(err, IODFG_E_NOMEM, NULL);
    }
    if (mpi_agree(job, rc, err)) {
        free(t);
        free(n);
        free(first);
        if (rc == 0) {
            iodfg_partial_values_fini(&v);
        }
        return -1;
    }
    iodfg_partial_dur_hist(s, first);
    const struct iodfg_dfg *local = iodfg_session_dfg(s);
    for (uint32_t a = 0; a < nact; a++) {
        const uint64_t *h = first + (size_t)a * IODFG_PARTIAL_BUCKETS;
        uint64_t k = 0;
        for (size_t b = 0; b < IODFG_PARTIAL_BUCKETS; b++) {
            k += h[b];
        }
        t[2 * a] = (struct mpi_pctl){.n = k, .first = h, .slot = 2 * (size_t)a};
        t[2 * a + 1] = (struct mpi_pctl){.n = k, .first = h, .slot = 2 * (size_t)a + 1};
    }
    for (size_t i = 0; i < ne; i++) {
        const struct iodfg_dfg_edge *e = iodfg_dfg_edge_at(m->g, i);
        const struct iodfg_dfg_edge *l = iodfg_dfg_find(local, e->from, e->to);
        size_t slot = l ? (size_t)(l - iodfg_dfg_edge_at(local, 0)) : 0;
        t[2 * nact + i].v = l ? v.edge_v + v.edge_off[slot] : NULL;
        t[2 * nact + i].n = l ? v.edge_off[slot + 1] - v.edge_off[slot] : 0;
    }
    for (size_t i = 0; i < nt; i++) {
        n[i] = t[i].n;
    }
    MPI_Allreduce(MPI_IN_PLACE, n, (int)nt, MPI_UINT64_T, MPI_SUM, job->comm);
    for (size_t i = 0; i < nt; i++) {
        unsigned pct = i < 2 * (size_t)nact && (i & 1) ? 95 : 50;
        t[i].rank = n[i] ? iodfg_partial_rank(n[i], pct) : 0;
    }
    mpi_percentiles(job, s, t, nt, out);
    free(t);
    free(n);
    free(first);
    iodfg_partial_values_fini(&v);
    return 0;
}

/* On process 0: the whole log's statistics and DFG into the session. */
static int adopt(struct iodfg_session *s, const struct iodfg_mapping *map, struct merged *m,
                 const uint32_t *mc, const int64_t *when, const int64_t *pctl,
                 struct iodfg_error *err)
{
    if (iodfg_partial_stats(&m->st, map, m->keys, m->dr_sum, m->act_cases, err)) {
        return -1;
    }
    uint32_t nact = map->nactivities;
    for (uint32_t a = 0; a < nact; a++) {
        struct iodfg_activity_stats *as = &m->st.act[a];
        as->mc = mc[a];
        as->mc_time_ns = when[a];
        as->dur_median_ns = pctl[2 * a];
        as->dur_p95_ns = pctl[2 * a + 1];
    }
    iodfg_partial_stats_finish(&m->st);
    iodfg_partial_dfg_finish(m->g, pctl + 2 * (size_t)nact);
    int groups = iodfg_session_diff(s) != NULL;
    return iodfg_session_adopt(s, m->g, &m->st, groups ? &m->groups : NULL,
                               groups ? m->group_cases : NULL, err);
}

static int merge_all(struct mpi_part *p, struct iodfg_session *s, struct merged *m,
                     struct iodfg_error *err)
{
    const struct mpi_job *job = p->job;
    const struct iodfg_mapping *map = iodfg_session_mapping(s);
    uint32_t nkeys = map->nkeys, nact = map->nactivities;
    m->keys = calloc((size_t)nkeys + 1, sizeof(*m->keys));
    m->dr_sum = calloc((size_t)nkeys + 1, sizeof(*m->dr_sum));
    m->dr_has = calloc((size_t)nkeys + 1, 1);
    m->act_cases = calloc((size_t)nact + 1, sizeof(*m->act_cases));
    uint32_t *mc = calloc((size_t)nact + 1, sizeof(*mc));
    int64_t *when = calloc((size_t)nact + 1, sizeof(*when));
    int64_t *pctl = NULL;
    int rc = m->keys && m->dr_sum && m->dr_has && m->act_cases && mc && when
                 ? 0
                 : iodfg_error_set(err, IODFG_E_NOMEM, NULL);
    if (mpi_agree(job, rc, err) == 0 && mpi_phase(&p->phases, "agree") == 0 &&
        merge_keys(job, s, nkeys, m, err) == 0 && mpi_phase(&p->phases, "merge: key sums") == 0 &&
        merge_edges(job, iodfg_session_dfg(s), nact, m->g, err) == 0 &&
        mpi_phase(&p->phases, "merge: edges") == 0 &&
        mpi_concurrency(job, s, nact, mc, when, err) == 0 &&
        mpi_phase(&p->phases, "merge: concurrency") == 0) {
        const struct iodfg_stats *st = iodfg_session_stats(s);
        for (uint32_t a = 0; a < nact && a < st->nactivities; a++) {
            m->act_cases[a] = st->act[a].cases;
        }
        MPI_Allreduce(MPI_IN_PLACE, m->act_cases, (int)nact, MPI_UINT64_T, MPI_SUM, job->comm);
        pctl = malloc((2 * (size_t)nact + iodfg_dfg_slots(m->g) + 1) * sizeof(*pctl));
        rc = pctl ? 0 : iodfg_error_set(err, IODFG_E_NOMEM, NULL);
        if (mpi_agree(job, rc, err) == 0 && merge_percentiles(job, s, nact, m, pctl, err) == 0 &&
            mpi_phase(&p->phases, "merge: percentiles") == 0 &&
            (!iodfg_session_diff(s) || merge_groups(job, s, nact, m, err) == 0)) {
            rc = job->rank == 0 ? adopt(s, map, m, mc, when, pctl, err) : 0;
            mpi_phase(&p->phases, "merge: groups, adopt");
            rc = mpi_agree(job, rc, err);
        } else {
            rc = -1;
        }
    } else {
        rc = -1;
    }
    free(mc);
    free(when);
    free(pctl);
    return rc;
}

int mpi_merge_results(void *ctx, struct iodfg_session *s, struct iodfg_error *err)
{
    struct mpi_part *p = ctx;
    const struct mpi_job *job = p->job;
    mpi_phase(&p->phases, "session (this process)");
    // every process read the same tables and rules: the same keys and activities
    const struct iodfg_mapping *map = iodfg_session_mapping(s);
    uint32_t shape[2] = {map->nkeys, map->nactivities}, low[2], high[2];
    MPI_Allreduce(shape, low, 2, MPI_UINT32_T, MPI_MIN, job->comm);
    MPI_Allreduce(shape, high, 2, MPI_UINT32_T, MPI_MAX, job->comm);
    if (low[0] != high[0] || low[1] != high[1]) {
        return iodfg_error_set(err, IODFG_E_ARG,
                               "the processes mapped the log differently (%u..%u keys, %u..%u "
                               "activities)",
                               low[0], high[0], low[1], high[1]);
    }
    if (job->size == 1) {
        // one process read every case: its session's results are the whole log's already, and
        // the merge (key sums, all-to-all of the sweep, histogram rounds) would recompute them
        return 0;
    }
    struct merged m;
    memset(&m, 0, sizeof(m));
    iodfg_stats_init(&m.st);
    iodfg_diff_init(&m.groups);
    m.g = iodfg_dfg_new(err);
    m.edge_gaps = p->edge_gaps;
    int rc = mpi_agree(job, m.g ? 0 : -1, err) ? -1 : merge_all(p, s, &m, err);
    iodfg_dfg_free(m.g);
    iodfg_stats_fini(&m.st);
    iodfg_diff_fini(&m.groups);
    free(m.keys);
    free(m.dr_sum);
    free(m.dr_has);
    free(m.act_cases);
    return rc;
}
