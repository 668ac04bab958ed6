/* SPDX-License-Identifier: MIT */
/* iodfg-mpi characterize (the session job's characterisation, session_job.h): every process
 * characterises its range of the log's cases; what characterize prints of each selection is
 * combined exactly into the whole log's (doc/mpi.md): the rows of bandwidths and access patterns
 * add up, the per-file rows and the stair-case index's intervals are gathered on process 0 in case
 * order, and the time bins are handed from process to process in case order. Only what the
 * command prints is combined (not the bandwidths' per-call and per-case rows). */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "iodfg/access.h"
#include "iodfg/bandwidth.h"
#include "iodfg/buf.h"
#include "iodfg/characterize.h"
#include "iodfg/error.h"
#include "iodfg/eventlog.h"
#include "iodfg/mapping.h"
#include "iodfg/metrics.h"
#include "iodfg/partial.h"
#include "iodfg/session.h"
#include "iodfg/strpool.h"

#include "mpi_main.h"

/* What this process characterises: its part of the log, under the session's mapping. */
struct charz_src {
    const struct iodfg_eventlog *log;
    const struct iodfg_mapping *map;
};

/* Gather n rows of size bytes each from every process to process 0, which adds them in process
 * order with add into rows. */
static int gather_rows(const struct mpi_job *job, void *rows, size_t n, size_t size,
                       void (*add)(void *dst, const void *src, size_t n), struct iodfg_error *err)
{
    char *all = NULL;
    uint64_t *off = NULL;
    if (mpi_gather_bytes(job, rows, n * size, &all, &off, err)) {
        return -1;
    }
    if (job->rank == 0) {
        memset(rows, 0, n * size);
        for (int p = 0; p < job->size; p++) {
            add(rows, all + off[p], n);
        }
    }
    free(all);
    free(off);
    return 0;
}

static void bw_add(void *dst, const void *src, size_t n)
{
    iodfg_partial_bw_rows_add(dst, src, n);
}

static void access_add(void *dst, const void *src, size_t n)
{
    iodfg_partial_access_rows_add(dst, src, n);
}

/* The activities' rows and the overall rows, then their rates. */
static int merge_bandwidth(const struct mpi_job *job, struct iodfg_bandwidth *bw,
                           struct iodfg_error *err)
{
    size_t na = bw->nactivities, n = na + IODFG_BW__N;
    struct iodfg_bw_row *rows = calloc(n, sizeof(*rows));
    int rc = mpi_agree(job, rows ? 0 : iodfg_error_set(err, IODFG_E_NOMEM, NULL), err);
    if (rc == 0) {
        memcpy(rows, bw->act, na * sizeof(*rows));
        memcpy(rows + na, bw->overall, sizeof(bw->overall));
        rc = gather_rows(job, rows, n, sizeof(*rows), bw_add, err);
    }
    if (rc == 0 && job->rank == 0) {
        memcpy(bw->act, rows, na * sizeof(*rows));
        memcpy(bw->overall, rows + na, sizeof(bw->overall));
        int64_t total = bw->overall[IODFG_BW_ALL].dur_sum_ns;
        for (size_t a = 0; a < na; a++) {
            iodfg_bw_row_finish(&bw->act[a], total);
        }
        for (int g = 0; g < IODFG_BW__N; g++) {
            iodfg_bw_row_finish(&bw->overall[g], total);
        }
    }
    free(rows);
    return rc;
}

/* This process's per-file rows: the row, then the case's and the file's names, each ending in
 * NUL. */
static int pack_files(const struct iodfg_eventlog *log, const struct iodfg_access *ac,
                      struct iodfg_buf *b)
{
    for (size_t i = 0; i < ac->nfiles; i++) {
        const struct iodfg_access_file *f = &ac->files[i];
        const char *cn, *path;
        iodfg_access_file_names(ac, log, i, &cn, &path);
        iodfg_buf_add(b, (const char *)&f->row, sizeof(f->row));
        iodfg_buf_add(b, cn, strlen(cn) + 1);
        iodfg_buf_add(b, path, strlen(path) + 1);
    }
    return b->failed ? -1 : 0;
}

/* Process 0: the gathered rows (len bytes at all, which ac then owns) as ac's files, their names
 * in ac->names. */
static int unpack_files(struct iodfg_access *ac, char *all, uint64_t len, struct iodfg_error *err)
{
    size_t n = 0;
    for (uint64_t at = 0; at < len; n++) {
        at += sizeof(struct iodfg_access_row);
        at += strlen(all + at) + 1;
        at += strlen(all + at) + 1;
    }
    free(ac->files);
    free(ac->names);
    free(ac->names_bytes);
    ac->nfiles = 0;
    ac->names_bytes = NULL;
    ac->files = calloc(n + 1, sizeof(*ac->files));
    ac->names = calloc(2 * n + 1, sizeof(*ac->names));
    if (!ac->files || !ac->names) {
        return iodfg_error_set(err, IODFG_E_NOMEM, NULL);
    }
    ac->names_bytes = all;
    uint64_t at = 0;
    for (size_t i = 0; i < n; i++) {
        struct iodfg_access_file *f = &ac->files[i];
        memcpy(&f->row, all + at, sizeof(f->row));
        f->case_idx = f->path = (uint32_t)i; // the names are the job's (ac->names)
        at += sizeof(f->row);
        ac->names[2 * i] = all + at;
        at += strlen(all + at) + 1;
        ac->names[2 * i + 1] = all + at;
        at += strlen(all + at) + 1;
    }
    ac->nfiles = n;
    return 0;
}

static int merge_access(const struct mpi_job *job, const struct iodfg_eventlog *log,
                        struct iodfg_access *ac, struct iodfg_error *err)
{
    size_t na = ac->nactivities, n = na + 1;
    struct iodfg_access_row *rows = calloc(n, sizeof(*rows));
    struct iodfg_buf b;
    iodfg_buf_init(&b);
    int rc = rows && pack_files(log, ac, &b) == 0 ? 0 : iodfg_error_set(err, IODFG_E_NOMEM, NULL);
    if (mpi_agree(job, rc, err) == 0) {
        memcpy(rows, ac->act, na * sizeof(*rows));
        rows[na] = ac->overall;
        rc = gather_rows(job, rows, n, sizeof(*rows), access_add, err);
    } else {
        rc = -1;
    }
    if (rc == 0 && job->rank == 0) {
        memcpy(ac->act, rows, na * sizeof(*rows));
        ac->overall = rows[na];
    }
    free(rows);
    char *all = NULL;
    uint64_t *off = NULL;
    if (rc == 0 && mpi_gather_bytes(job, b.data, b.len, &all, &off, err) == 0) {
        rc = job->rank == 0 ? unpack_files(ac, all, off[job->size], err) : 0;
        if (ac->names_bytes != all) {
            free(all);
        }
        rc = mpi_agree(job, rc, err);
    } else {
        rc = -1;
    }
    free(off);
    iodfg_buf_fini(&b);
    return rc;
}

/* Every process's intervals to process 0, which sweeps them in the whole log's order. */
static int merge_serial(const struct mpi_job *job, const struct charz_src *m,
                        const struct iodfg_selection *sel, struct iodfg_serial *out,
                        struct iodfg_error *err)
{
    struct iodfg_partial_span *sp = NULL;
    size_t n = 0;
    int rc = mpi_agree(job, iodfg_partial_spans(m->log, m->map, sel, &sp, &n, err), err);
    char *all = NULL;
    uint64_t *off = NULL;
    if (rc == 0 && mpi_gather_bytes(job, sp, n * sizeof(*sp), &all, &off, err) == 0) {
        uint64_t total = job->rank == 0 ? off[job->size] / sizeof(*sp) : 0;
        // the other processes' results are not printed: empty rows
        rc = iodfg_partial_serial(out, (const void *)all, (size_t)total, m->map->nactivities, err);
        rc = mpi_agree(job, rc, err);
    } else {
        rc = -1;
    }
    free(sp);
    free(all);
    free(off);
    return rc;
}

/* ---- time bins ---- */

/* The servers of every process in process order, each once, into *names (*ns of them, each
 * malloc'd); *of (per id of this process's log) gets this process's servers' indices. */
static int merge_servers(const struct mpi_job *job, const struct charz_src *m,
                         enum iodfg_server_by by, const struct iodfg_binned_servers *sv,
                         char ***names, uint32_t *ns, uint32_t **of, struct iodfg_error *err)
{
    struct iodfg_buf b;
    iodfg_buf_init(&b);
    for (uint32_t s = 0; s < sv->n; s++) {
        const char *name = iodfg_binned_server_name(m->log, by, sv->id[s]);
        iodfg_buf_add(&b, name, strlen(name) + 1);
    }
    uint32_t nids = iodfg_binned_id_count(m->log, by);
    *of = calloc((size_t)nids + 1, sizeof(**of));
    char *all = NULL;
    uint64_t *off = NULL;
    int rc = b.failed || !*of ? iodfg_error_set(err, IODFG_E_NOMEM, NULL) : 0;
    if (mpi_agree(job, rc, err) || mpi_allgather_bytes(job, b.data, b.len, &all, &off, err)) {
        iodfg_buf_fini(&b);
        return -1;
    }
    uint64_t len = off[job->size], nall = 0;
    for (uint64_t at = 0; at < len; at += strlen(all + at) + 1) {
        nall++;
    }
    // a name's server: the first time its pool id is met ("" is in every pool from the start)
    struct iodfg_strpool *pool = iodfg_strpool_new();
    uint32_t *server_of = malloc((nall + 2) * sizeof(*server_of)), id;
    *names = calloc(nall + 1, sizeof(**names));
    rc = pool && server_of && *names ? 0 : -1;
    if (rc == 0) {
        memset(server_of, 0xff, (nall + 2) * sizeof(*server_of));
    }
    for (uint64_t at = 0; rc == 0 && at < len; at += strlen(all + at) + 1) {
        rc = iodfg_strpool_intern(pool, all + at, strlen(all + at), &id);
        if (rc == 0 && server_of[id] == UINT32_MAX) {
            server_of[id] = *ns;
            rc = ((*names)[(*ns)++] = strdup(all + at)) ? 0 : -1;
        }
    }
    for (uint32_t s = 0; rc == 0 && s < sv->n; s++) {
        const char *name = iodfg_binned_server_name(m->log, by, sv->id[s]);
        rc = iodfg_strpool_find(pool, name, strlen(name), &id);
        (*of)[sv->id[s]] = rc == 0 ? server_of[id] : 0;
    }
    iodfg_strpool_free(pool);
    free(server_of);
    free(all);
    free(off);
    iodfg_buf_fini(&b);
    return mpi_agree(job, rc ? iodfg_error_set(err, IODFG_E_NOMEM, NULL) : 0, err);
}

/* The bins and exact totals from the previous process (or to the next), tag 10.. */
static void relay(const struct mpi_job *job, struct iodfg_binned *b, int peer, int send)
{
    int cells = (int)((size_t)b->nservers * b->nbins);
    for (int x = 0; x < IODFG_DIR__N; x++) {
        double *v[2] = {b->bytes[x], b->ops[x]};
        uint64_t *t[2] = {&b->exact_bytes[x], &b->exact_ops[x]};
        for (int k = 0; k < 2; k++) {
            if (send) {
                MPI_Send(v[k], cells, MPI_DOUBLE, peer, 10 + 2 * x + k, job->comm);
                MPI_Send(t[k], 1, MPI_UINT64_T, peer, 20 + 2 * x + k, job->comm);
            } else {
                MPI_Recv(v[k], cells, MPI_DOUBLE, peer, 10 + 2 * x + k, job->comm,
                         MPI_STATUS_IGNORE);
                MPI_Recv(t[k], 1, MPI_UINT64_T, peer, 20 + 2 * x + k, job->comm, MPI_STATUS_IGNORE);
            }
        }
    }
}

/* Every process's events added to the same bins in case order: process p goes on from the
 * sums of processes < p (floating-point sums of spread events depend on their order), and the
 * last hands them to process 0. */
static void spread_in_order(const struct mpi_job *job, const struct charz_src *m,
                            const struct iodfg_selection *sel, enum iodfg_server_by by,
                            const uint8_t *kf, const uint32_t *of, struct iodfg_binned *b)
{
    if (job->rank > 0) {
        relay(job, b, job->rank - 1, 0);
    }
    iodfg_binned_spread_events(b, m->log, m->map, sel, by, kf, of);
    if (job->size > 1) {
        relay(job, b, (job->rank + 1) % job->size, 1);
    }
    if (job->size > 1 && job->rank == 0) {
        relay(job, b, job->size - 1, 0);
    }
}

/* The grid of the whole selection, its servers, and the bins (every process gets the grid and
 * the servers; process 0 the whole job's bins). */
static int merge_bins(const struct mpi_job *job, const struct charz_src *m,
                      const struct iodfg_selection *sel, const struct iodfg_bin_opts *o,
                      struct iodfg_binned *b, struct iodfg_error *err)
{
    const struct iodfg_columns *col = iodfg_eventlog_columns(m->log);
    uint32_t nk = iodfg_eventlog_key_count(m->log), ns = 0;
    uint8_t *kf = malloc((size_t)nk + 1);
    struct iodfg_binned_servers sv;
    memset(&sv, 0, sizeof(sv));
    uint32_t *of = NULL;
    char **names = NULL;
    int rc = kf ? 0 : iodfg_error_set(err, IODFG_E_NOMEM, NULL);
    if (rc == 0 && (!col->start_ns || !col->key || !col->size)) {
        rc = iodfg_error_set(err, IODFG_E_ARG, "the event log lacks the start, key or size column");
    }
    if (rc == 0) {
        iodfg_metrics_key_flags(m->log, kf);
        rc = iodfg_binned_scan(&sv, m->log, m->map, sel, o->by, kf, err);
    }
    if (mpi_agree(job, rc, err) == 0) {
        MPI_Allreduce(MPI_IN_PLACE, &sv.t0_ns, 1, MPI_INT64_T, MPI_MIN, job->comm);
        MPI_Allreduce(MPI_IN_PLACE, &sv.t1_ns, 1, MPI_INT64_T, MPI_MAX, job->comm);
        rc = merge_servers(job, m, o->by, &sv, &names, &ns, &of, err);
    } else {
        rc = -1;
    }
    struct iodfg_binned grid;
    iodfg_binned_init(&grid);
    if (rc == 0 && (iodfg_binned_grid(&grid, sv.t0_ns, sv.t1_ns, o->dt_ns, err) ||
                    iodfg_binned_alloc(b, ns, grid.nbins, err))) {
        rc = -1;
    }
    if (mpi_agree(job, rc, err) == 0) {
        for (uint32_t s = 0; s < ns; s++) { // the bins own the names now
            b->server[s] = names[s];
            names[s] = NULL;
        }
        b->exact = 1;
        b->t0_ns = grid.t0_ns;
        b->dt_ns = grid.dt_ns;
        b->span_ns = grid.span_ns;
        spread_in_order(job, m, sel, o->by, kf, of, b);
        iodfg_binned_finish(b, o->threshold);
    } else {
        rc = -1;
    }
    for (uint32_t s = 0; names && s < ns; s++) {
        free(names[s]);
    }
    free(names);
    free(kf);
    free(of);
    iodfg_binned_servers_fini(&sv);
    return rc;
}

int mpi_charz(void *ctx, const struct iodfg_session *s, const struct iodfg_selection *sel,
              const struct iodfg_bin_opts *o, int64_t alignment, struct iodfg_characterization *r,
              struct iodfg_error *err)
{
    const struct mpi_job *job = ((const struct mpi_part *)ctx)->job;
    struct charz_src src = {iodfg_session_log(s), iodfg_session_mapping(s)};
    const struct charz_src *m = &src;
    iodfg_characterization_fini(r);
    int rc = iodfg_bandwidth_build(&r->bw, m->log, m->map, sel, err) ||
                     iodfg_access_build(&r->access, m->log, m->map, sel, alignment, NULL, err)
                 ? -1
                 : 0;
    if (mpi_agree(job, rc, err) || merge_bandwidth(job, &r->bw, err) ||
        merge_access(job, m->log, &r->access, err) || merge_serial(job, m, sel, &r->serial, err) ||
        merge_bins(job, m, sel, o, &r->bins, err)) {
        iodfg_characterization_fini(r);
        return -1;
    }
    return 0;
}
