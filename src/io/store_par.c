/* SPDX-License-Identifier: MIT */
/* HDF5 store written by every process of an MPI job at once (iodfg-mpi): the string and key
 * tables and case groups are written by all processes alike (collective metadata), the /events
 * columns and /handles by collective writes of each process's slab. HDF5 codes the columns with its
 * scale-offset filter here: direct chunk writes are not safe in parallel HDF5 (they allocate file
 * space on one process only), so the columns have no deflate filter, which HDF5 would apply to
 * every chunk and which would keep loaders from decoding the chunks in place. Compiled only against
 * the MPI build of HDF5, whose <hdf5.h> brings the MPI types. */
#include "config.h"

#include "iodfg/store_par.h"

#include <stdlib.h>
#include <string.h>

#include <hdf5.h>

#include "iodfg/error.h"
#include "iodfg/eventlog.h"
#include "iodfg/handles.h"
#include "iodfg/stacks.h"
#include "iodfg/store.h"
#include "iodfg/strpool.h"

#include "store_priv.h"
#include "store_stacks.h"
#include "store_write_priv.h"

/* Every process runs the same collective calls; ids to close at the end. */
struct par {
    hid_t file, fapl, dxpl, cases, gcpl, events;
    MPI_Comm comm;
};

/* *v summed over every process (mod 2^64), collectively. 0 or -1. */
static int sum_all(const struct par *p, uint64_t *v)
{
    uint64_t mine = *v;
    return MPI_Allreduce(&mine, v, 1, MPI_UINT64_T, MPI_SUM, p->comm) == MPI_SUCCESS ? 0 : -1;
}

static int open_file(struct par *p, const char *path, MPI_Comm comm, int views)
{
    p->comm = comm;
    p->fapl = H5Pcreate(H5P_FILE_ACCESS);
    p->dxpl = H5Pcreate(H5P_DATASET_XFER);
    if (p->fapl < 0 || p->dxpl < 0 || H5Pset_fapl_mpio(p->fapl, comm, MPI_INFO_NULL) < 0 ||
        H5Pset_all_coll_metadata_ops(p->fapl, 1) < 0 ||
        H5Pset_coll_metadata_write(p->fapl, 1) < 0 ||
        H5Pset_dxpl_mpio(p->dxpl, H5FD_MPIO_COLLECTIVE) < 0) {
        return -1;
    }
    p->file = store_file_create(path, p->fapl);
    if (p->file < 0 ||
        (views && H5Fset_libver_bounds(p->file, H5F_LIBVER_V18, H5F_LIBVER_V110) < 0)) {
        return -1;
    }
    p->events = H5Gcreate2(p->file, STORE_EVENT_GROUP, H5P_DEFAULT, H5P_DEFAULT, H5P_DEFAULT);
    p->cases = p->events < 0 ? -1 : store_cases_create(p->file, &p->gcpl);
    return p->cases < 0 ? -1 : 0;
}

/* Rows [at, at + n) of this part's column c, in the file's ids, into buf. */
static void part_rows(const struct iodfg_store_par_meta *meta,
                      const struct iodfg_store_par_part *part, enum store_col c, uint64_t at,
                      uint64_t n, void *buf)
{
    const char *plain = store_plain_source(iodfg_eventlog_columns(part->log), c);
    if (plain) {
        memcpy(buf, plain + at * store_cols[c].size, (size_t)n * store_cols[c].size);
        return;
    }
    struct store_wmaps m = {.src = part->log,
                            .sp = iodfg_eventlog_pool(part->log),
                            .smap = part->smap,
                            .kmap = part->kmap,
                            .hbase = part->hbase};
    store_fill_column(&m, iodfg_eventlog_keys(meta->tab), c, at, n, buf);
}

/* One collective write of n rows of memory type mtype from buf to rows [first, + n) of d (n may
 * be 0 on some processes). */
static int write_slab(const struct par *p, hid_t d, hid_t mtype, uint64_t first, uint64_t n,
                      const void *buf)
{
    return store_par_slab(p->dxpl, d, mtype, first, n, buf);
}

int store_par_slab(hid_t dxpl, hid_t d, hid_t mtype, uint64_t first, uint64_t n, const void *buf)
{
    hsize_t start[1] = {first}, count[1] = {n ? n : 1};
    hid_t fsp = H5Dget_space(d), msp = H5Screate_simple(1, count, NULL);
    int ok = fsp >= 0 && msp >= 0;
    if (ok && n) {
        ok = H5Sselect_hyperslab(fsp, H5S_SELECT_SET, start, NULL, count, NULL) >= 0;
    } else if (ok) {
        ok = H5Sselect_none(fsp) >= 0 && H5Sselect_none(msp) >= 0;
    }
    ok = ok && H5Dwrite(d, mtype, msp, fsp, dxpl, buf) >= 0;
    if (msp >= 0) {
        H5Sclose(msp);
    }
    if (fsp >= 0) {
        H5Sclose(fsp);
    }
    return ok ? 0 : -1;
}

/* The /events columns: every process writes its part in the same number of collective writes
 * (pieces of at most 2^26 rows, which MPI-IO counts in an int). */
static int write_events(const struct par *p, const struct iodfg_store_par_meta *meta,
                        const struct iodfg_store_par_part *part)
{
    const uint64_t piece = (uint64_t)1 << 26;
    uint64_t total = meta->case_first[meta->ncases];
    uint64_t mine = iodfg_eventlog_event_count(part->log);
    uint64_t rounds = (meta->max_part_rows + piece - 1) / piece;
    uint64_t cap = mine < piece ? mine : piece;
    void *buf = malloc((size_t)(cap ? cap : 1) * 8);
    int rc = buf ? 0 : -1;
    for (int c = 0; c < STORE_C__N; c++) {
        hid_t d = store_event_column_create(p->events, (enum store_col)c, total, 0);
        for (uint64_t r = 0; r < rounds; r++) {
            uint64_t at = r * piece < mine ? r * piece : mine;
            uint64_t n = mine - at < piece ? mine - at : piece;
            if (rc == 0 && d >= 0 && n) {
                part_rows(meta, part, (enum store_col)c, at, n, buf);
            }
            // a failed process still takes part in the collective writes, with nothing
            if (write_slab(p, d, store_col_type((enum store_col)c, 0), part->first + at,
                           rc || d < 0 ? 0 : n, buf)) {
                rc = -1;
            }
        }
        if (d < 0 || H5Dclose(d) < 0) {
            rc = -1;
        }
    }
    free(buf);
    return rc;
}

/* This part's rows of /event_checksums (its cases' blocks, from the file's block *first on) into
 * *out (malloc'd), *n of them. 0, or -1 when out of memory. */
static int part_block_sums(const struct iodfg_store_par_meta *meta,
                           const struct iodfg_store_par_part *part, struct store_block_sum **out,
                           uint64_t *first, uint64_t *n)
{
    uint64_t mine = iodfg_eventlog_event_count(part->log), end = part->first + mine;
    *first = *n = 0;
    for (uint32_t i = 0; i < meta->ncases; i++) {
        uint64_t rows = meta->case_first[i + 1] - meta->case_first[i];
        if (meta->case_first[i] < part->first) {
            *first += store_blocks_of(rows);
        } else if (meta->case_first[i] < end) {
            *n += store_blocks_of(rows);
        }
    }
    *out = calloc((size_t)*n + 1, sizeof(**out));
    void *buf = malloc((size_t)STORE_SUM_BLOCK_ROWS * 8);
    int rc = *out && buf ? 0 : -1;
    uint64_t b = 0;
    for (uint32_t i = 0; rc == 0 && i < meta->ncases; i++) {
        uint64_t at = meta->case_first[i], rows = meta->case_first[i + 1] - at;
        if (at < part->first || at >= end) {
            continue;
        }
        for (uint64_t a = 0; a < rows; a += STORE_SUM_BLOCK_ROWS, b++) {
            uint64_t k = rows - a < STORE_SUM_BLOCK_ROWS ? rows - a : STORE_SUM_BLOCK_ROWS;
            for (int c = 0; c < STORE_C__N; c++) {
                part_rows(meta, part, (enum store_col)c, at - part->first + a, k, buf);
                (*out)[b].sum[c] = store_sum_values(buf, k, store_cols[c].size);
            }
        }
    }
    free(buf);
    return rc;
}

/* A 1-D table of rows of type(), created by every process alike. */
struct par_table {
    hid_t d, sp, ft, mt;
};

static int table_create(const struct par *p, const char *name, hid_t (*type)(int), uint64_t n,
                        struct par_table *t)
{
    hsize_t dims[1] = {n};
    t->ft = type(1);
    t->mt = type(0);
    t->sp = H5Screate_simple(1, dims, NULL);
    t->d = t->ft < 0 || t->mt < 0 || t->sp < 0
               ? -1
               : H5Dcreate2(p->file, name, t->ft, t->sp, H5P_DEFAULT, H5P_DEFAULT, H5P_DEFAULT);
    return t->d < 0 ? -1 : 0;
}

/* Give table t its checksum, the sum of every process's part (sum: this process's rows', as
 * store_sum_rows gives it), and close it. rc, or -1 when that fails. */
static int table_finish(const struct par *p, struct par_table *t, uint64_t sum, int rc)
{
    if (sum_all(p, &sum) || (t->d >= 0 && store_attr_u64(t->d, STORE_CHECKSUM, sum))) {
        rc = -1;
    }
    hid_t ids[] = {t->d, t->sp, t->ft, t->mt};
    herr_t (*close[])(hid_t) = {H5Dclose, H5Sclose, H5Tclose, H5Tclose};
    for (int i = 0; i < 4; i++) {
        if (ids[i] >= 0 && close[i](ids[i]) < 0) {
            rc = -1;
        }
    }
    return rc;
}

/* /event_checksums (4.1): every process writes the rows of its cases' blocks, in collective
 * writes of at most 2^22 rows. */
static int write_block_sums(const struct par *p, const struct iodfg_store_par_meta *meta,
                            const struct iodfg_store_par_part *part)
{
    const uint64_t piece = (uint64_t)1 << 22;
    uint64_t total = 0, first = 0, n = 0, most = 0;
    for (uint32_t i = 0; i < meta->ncases; i++) {
        total += store_blocks_of(meta->case_first[i + 1] - meta->case_first[i]);
    }
    struct store_block_sum *sums = NULL;
    int rc = part_block_sums(meta, part, &sums, &first, &n);
    struct par_table t;
    rc = table_create(p, STORE_BLOCK_SUMS, store_block_sum_type, total, &t) || rc ? -1 : 0;
    most = n;
    if (MPI_Allreduce(&n, &most, 1, MPI_UINT64_T, MPI_MAX, p->comm) != MPI_SUCCESS) {
        rc = -1;
    }
    for (uint64_t r = 0; r < (most + piece - 1) / piece; r++) {
        uint64_t at = r * piece < n ? r * piece : n;
        uint64_t k = n - at < piece ? n - at : piece;
        if (write_slab(p, t.d, t.mt, first + at, rc ? 0 : k, sums ? sums + at : NULL)) {
            rc = -1;
        }
    }
    uint64_t sum = t.mt < 0 || !sums ? 0 : store_sum_rows(t.mt, sums, n, first);
    free(sums);
    return table_finish(p, &t, sum, rc);
}

/* /handles: every process writes its own rows in the same number of collective writes (pieces
 * of at most 2^22 rows, which MPI-IO counts in an int), so that no process holds the whole
 * table. */
static int write_handles(const struct par *p, const struct iodfg_store_par_meta *meta,
                         const struct iodfg_store_par_part *part)
{
    const uint64_t piece = (uint64_t)1 << 22;
    struct par_table t;
    int rc = table_create(p, STORE_HANDLES, store_handle_type, meta->nhandles, &t);
    uint64_t rounds = (meta->max_part_handles + piece - 1) / piece;
    for (uint64_t r = 0; r < rounds; r++) {
        uint64_t at = r * piece < part->nhandles ? r * piece : part->nhandles;
        uint64_t n = part->nhandles - at < piece ? part->nhandles - at : piece;
        if (write_slab(p, t.d, t.mt, (uint64_t)part->hbase + at, rc ? 0 : n, part->handles + at)) {
            rc = -1;
        }
    }
    uint64_t sum = t.mt < 0 ? 0 : store_sum_rows(t.mt, part->handles, part->nhandles, part->hbase);
    return table_finish(p, &t, sum, rc);
}

/* Every case group with its attributes, and /case_table (all processes alike). */
static int write_cases(const struct par *p, const struct iodfg_store_par_meta *meta)
{
    const struct iodfg_strpool *pool = iodfg_eventlog_pool(meta->tab);
    struct store_case_row *rows = calloc((size_t)meta->ncases + 1, sizeof(*rows));
    struct iodfg_strpool *taken = iodfg_strpool_new();
    int rc = rows && taken ? 0 : -1;
    for (uint32_t i = 0; rc == 0 && i < meta->ncases; i++) {
        const struct iodfg_case_info *ci = &meta->cases[i];
        uint64_t first = meta->case_first[i], n = meta->case_first[i + 1] - first;
        store_case_row_fill(&rows[i], ci, NULL, first, n);
        char link[300];
        rc = store_case_link(iodfg_strpool_get(pool, ci->name), iodfg_strpool_len(pool, ci->name),
                             p->cases, taken, i, link, sizeof(link));
        hid_t g = rc ? -1 : H5Gcreate2(p->cases, link, H5P_DEFAULT, p->gcpl, H5P_DEFAULT);
        rc = g < 0 || store_case_attrs(g, &rows[i], pool, i) ||
                     (meta->case_views && store_events_views(g, first, n))
                 ? -1
                 : 0;
        if (g >= 0) {
            H5Gclose(g);
        }
    }
    rc = rc || store_write_case_table(p->file, rows, meta->ncases) ? -1 : 0;
    iodfg_strpool_free(taken);
    free(rows);
    return rc;
}

/* /stacks (4.2), when the log has stacks: this process's events' ids a slab of event_stack. */
static int write_stacks(const struct par *p, const struct iodfg_store_par_meta *meta,
                        const struct iodfg_store_par_part *part)
{
    if (!meta->stacks) {
        return 0;
    }
    return store_par_stacks_write(p->file, &p->comm, p->dxpl, meta->stacks, part->stack_ids,
                                  part->first, iodfg_eventlog_event_count(part->log),
                                  meta->case_first[meta->ncases], meta->max_part_rows);
}

static int close_all(struct par *p)
{
    int rc = 0;
    hid_t *ids[] = {&p->events, &p->cases};
    for (int i = 0; i < 2; i++) {
        if (*ids[i] >= 0 && H5Gclose(*ids[i]) < 0) {
            rc = -1;
        }
    }
    if (p->gcpl >= 0) {
        H5Pclose(p->gcpl);
    }
    if (p->dxpl >= 0) {
        H5Pclose(p->dxpl);
    }
    if (p->fapl >= 0) {
        H5Pclose(p->fapl);
    }
    if (p->file >= 0 && H5Fclose(p->file) < 0) {
        rc = -1;
    }
    return rc;
}

uint64_t iodfg_store_par_bytes(const struct iodfg_store_par_meta *meta)
{
    uint64_t row = 0;
    for (int c = 0; c < STORE_C__N; c++) {
        row += store_cols[c].size;
    }
    const struct iodfg_strpool *pool = iodfg_eventlog_pool(meta->tab);
    return meta->case_first[meta->ncases] * row + (uint64_t)meta->nhandles * 64 +
           iodfg_strpool_memory(pool) + (uint64_t)iodfg_eventlog_key_count(meta->tab) * 32 +
           (uint64_t)meta->ncases * 4096 + ((uint64_t)1 << 20) +
           (meta->stacks ? meta->case_first[meta->ncases] * 4 + iodfg_stacks_memory(meta->stacks)
                         : 0);
}

int iodfg_store_par_write(const char *path, const void *mpi_comm,
                          const struct iodfg_store_par_meta *meta,
                          const struct iodfg_store_par_part *part, struct iodfg_error *err)
{
    store_h5_quiet();
    struct par p = {-1, -1, -1, -1, -1, -1, MPI_COMM_NULL};
    int rc = open_file(&p, path, *(const MPI_Comm *)mpi_comm, meta->case_views);
    if (rc) {
        store_h5_error(err, IODFG_E_IO, path, "cannot create the HDF5 file (MPI-IO)");
    }
    // From here on every process makes every collective call, failed or not, so that none waits
    // for another forever; the first failure is the one reported.
    if (rc == 0 && write_events(&p, meta, part)) {
        rc = store_h5_error(err, IODFG_E_IO, path, "cannot write the /events columns");
    }
    if (rc == 0 && (write_cases(&p, meta) || store_write_strings_keys(p.file, meta->tab) ||
                    write_handles(&p, meta, part) || write_block_sums(&p, meta, part) ||
                    write_stacks(&p, meta, part) ||
                    store_write_root(p.file, meta->ncases, meta->case_first[meta->ncases],
                                     meta->stacks ? STORE_MINOR_STACKS : IODFG_STORE_MINOR))) {
        rc = store_h5_error(err, IODFG_E_IO, path, "cannot write the event log tables");
    }
    if (close_all(&p) && rc == 0) {
        rc = store_h5_error(err, IODFG_E_IO, path, "cannot close the event log");
    }
    return rc;
}
