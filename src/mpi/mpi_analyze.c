/* SPDX-License-Identifier: MIT */
/* iodfg-mpi dfg and stats: the commands of iodfg (src/cli/) run by every process on its range
 * of the log's cases, with one more step after the session is built: its partial results are
 * combined exactly (iodfg/partial.h, doc/mpi.md) into the whole log's DFG and statistics, which
 * process 0's session adopts and prints as iodfg would. */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "iodfg/analysis.h"
#include "iodfg/dfg.h"
#include "iodfg/diff.h"
#include "iodfg/error.h"
#include "iodfg/eventlog.h"
#include "iodfg/filter.h"
#include "iodfg/mapping.h"
#include "iodfg/partial.h"
#include "iodfg/session.h"
#include "iodfg/share.h"
#include "iodfg/stats.h"

#include "cli/cli.h"
#include "mpi_main.h"
#include "mpi_phases.h"
#include "mpi_reduce.h"

/* Where the time goes (IODFG_MPI_PHASES=1): one job per process. */
static struct mpi_phases phases;
/* The index in the log of this process's first case. */
static uint32_t first_case;

/* Cases [first, first + count) of ncases: consecutive, in process order, of about the same
 * number of events each (one process's case may hold most of a job's I/O). */
static void job_cases(void *ctx, const char *path, uint64_t ncases, const uint64_t *events,
                      uint32_t *first, uint32_t *count)
{
    const struct mpi_job *job = ctx;
    (void)path;
    size_t lo, hi;
    iodfg_share_of(events, (size_t)ncases, job->rank, job->size, &lo, &hi);
    *first = (uint32_t)lo;
    *count = (uint32_t)(hi - lo);
    first_case = *first;
}

/* The cases shared by groups G and R on every process, named as iodfg names them: the count
 * summed, the first few names in case order. */
static int job_groups(void *ctx, const struct iodfg_session *ses,
                      const struct iodfg_filter_stack *g, const struct iodfg_filter_stack *r)
{
    const struct mpi_job *job = ctx;
    struct iodfg_groups_overlap ov, all;
    memset(&ov, 0, sizeof(ov));
    memset(&all, 0, sizeof(all));
    struct iodfg_error err;
    iodfg_error_clear(&err);
    int rc = iodfg_session_groups_overlap(ses, g, r, first_case, &ov, &err);
    char *parts = NULL;
    uint64_t *off = NULL;
    if (mpi_agree(job, rc, &err) == 0 &&
        mpi_gather_bytes(job, &ov, sizeof(ov), &parts, &off, &err) == 0) {
        for (int p = 0; job->rank == 0 && p < job->size; p++) {
            iodfg_filter_overlap_add(&all, (const void *)(parts + off[p]));
        }
        rc = job->rank == 0 ? iodfg_filter_overlap_error(&all, &err) : 0;
        rc = mpi_agree(job, rc, &err);
    } else {
        rc = -1;
    }
    free(parts);
    free(off);
    if (rc && job->rank == 0) {
        cli_error(&err);
    }
    return rc ? CLI_FAIL : CLI_OK;
}

static int job_agree(void *ctx, int rc)
{
    mpi_phase(&phases, phases.n == 0 ? "read log, rules" : "session (this process)");
    return mpi_agree_status(ctx, rc);
}

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
    const struct iodfg_dfg *local = iodfg_analysis_dfg(iodfg_session_analysis(s));
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

static int merge_all(const struct mpi_job *job, struct iodfg_session *s, struct merged *m,
                     struct iodfg_error *err)
{
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
    if (mpi_agree(job, rc, err) == 0 && mpi_phase(&phases, "agree") == 0 &&
        merge_keys(job, s, nkeys, m, err) == 0 && mpi_phase(&phases, "merge: key sums") == 0 &&
        merge_edges(job, iodfg_analysis_dfg(iodfg_session_analysis(s)), nact, m->g, err) == 0 &&
        mpi_phase(&phases, "merge: edges") == 0 &&
        mpi_concurrency(job, s, nact, mc, when, err) == 0 &&
        mpi_phase(&phases, "merge: concurrency") == 0) {
        const struct iodfg_stats *st = iodfg_analysis_stats(iodfg_session_analysis(s));
        for (uint32_t a = 0; a < nact && a < st->nactivities; a++) {
            m->act_cases[a] = st->act[a].cases;
        }
        MPI_Allreduce(MPI_IN_PLACE, m->act_cases, (int)nact, MPI_UINT64_T, MPI_SUM, job->comm);
        pctl = malloc((2 * (size_t)nact + iodfg_dfg_slots(m->g) + 1) * sizeof(*pctl));
        rc = pctl ? 0 : iodfg_error_set(err, IODFG_E_NOMEM, NULL);
        if (mpi_agree(job, rc, err) == 0 && merge_percentiles(job, s, nact, m, pctl, err) == 0 &&
            mpi_phase(&phases, "merge: percentiles") == 0 &&
            (!iodfg_session_diff(s) || merge_groups(job, s, nact, m, err) == 0)) {
            rc = job->rank == 0 ? adopt(s, map, m, mc, when, pctl, err) : 0;
            mpi_phase(&phases, "merge: groups, adopt");
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

/* Every process has built its session: check that all read the same tables and rules, and
 * merge. */
static int job_merge(void *ctx, struct cli_analysis *ca, const struct cli_analyze_opts *o)
{
    const struct mpi_job *job = ctx;
    const struct iodfg_mapping *map = iodfg_session_mapping(ca->ses);
    uint32_t shape[2] = {map->nkeys, map->nactivities}, low[2], high[2];
    MPI_Allreduce(shape, low, 2, MPI_UINT32_T, MPI_MIN, job->comm);
    MPI_Allreduce(shape, high, 2, MPI_UINT32_T, MPI_MAX, job->comm);
    if (low[0] != high[0] || low[1] != high[1]) {
        if (job->rank == 0) {
            cli_errorf("the processes mapped the log differently (%u..%u keys, %u..%u "
                       "activities)",
                       low[0], high[0], low[1], high[1]);
        }
        return CLI_FAIL;
    }
    if (job->size == 1) {
        // one process read every case: its session's results are the whole log's already, and
        // the merge (key sums, all-to-all of the sweep, histogram rounds) would recompute them
        return CLI_OK;
    }
    struct iodfg_error err;
    iodfg_error_clear(&err);
    struct merged m;
    memset(&m, 0, sizeof(m));
    iodfg_stats_init(&m.st);
    iodfg_diff_init(&m.groups);
    m.g = iodfg_dfg_new(&err);
    m.edge_gaps = o->edge_gaps;
    int rc = mpi_agree(job, m.g ? 0 : -1, &err) ? -1 : merge_all(job, ca->ses, &m, &err);
    if (rc && job->rank == 0) {
        cli_error(&err);
    }
    iodfg_dfg_free(m.g);
    iodfg_stats_fini(&m.st);
    iodfg_diff_fini(&m.groups);
    free(m.keys);
    free(m.dr_sum);
    free(m.dr_has);
    free(m.act_cases);
    return rc ? CLI_FAIL : CLI_OK;
}

static void job_sum(void *ctx, uint32_t *v, size_t n)
{
    const struct mpi_job *job = ctx;
    MPI_Allreduce(MPI_IN_PLACE, v, (int)n, MPI_UINT32_T, MPI_SUM, job->comm);
}

static void job_least(void *ctx, int64_t *t)
{
    const struct mpi_job *job = ctx;
    MPI_Allreduce(MPI_IN_PLACE, t, 1, MPI_INT64_T, MPI_MIN, job->comm);
}

int mpi_analyze(const struct mpi_job *job, int argc, char **argv)
{
    struct mpi_job self = *job;
    // the merge sweeps the whole job for the maximum concurrency: the sessions need not sweep
    // their parts (dfg and stats; one process merges nothing and keeps its session's)
    int part = job->size > 1 && strcmp(argv[0], "characterize") != 0;
    struct cli_job hooks = {job_cases,  job_agree, job_merge, job->rank == 0,
                            &self,      job_sum,   mpi_charz, mpi_charz_file_names,
                            job_groups, job_least, part};
    cli_job = &hooks;
    mpi_phases_start(&phases, job);
    int rc = strcmp(argv[0], "dfg") == 0            ? cli_dfg(argc, argv)
             : strcmp(argv[0], "characterize") == 0 ? cli_characterize(argc, argv)
                                                    : cli_stats(argc, argv);
    cli_job = NULL;
    // the exit status is process 0's (it wrote the output)
    MPI_Bcast(&rc, 1, MPI_INT, 0, job->comm);
    mpi_phase(&phases, "output, free");
    mpi_phases_report(&phases);
    return rc;
}
