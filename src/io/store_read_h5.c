/* SPDX-License-Identifier: MIT */
/* HDF5 store, reading side: the cases HDF5 itself must read, on the main thread: the compound
 * `events` tables of formats 1.0 and 1.1 (with their handle column), and 2.0 columns that are
 * chunked, filtered or of another type (converted by H5Dread, checked as raw ones). */
#include "config.h"

#include <stdatomic.h>
#include <string.h>

#include <hdf5.h>

#include "iodfg/error.h"
#include "iodfg/eventlog.h"
#include "iodfg/handles.h"
#include "iodfg/strpool.h"

#include "store_priv.h"
#include "store_reader.h"

/* Check one slab of rows and scatter it into the columns at out. */
static int scatter(struct reader *r, const struct store_row *rows, uint64_t n,
                   struct iodfg_columns *c, uint64_t out, int64_t *prev_start, uint32_t cs,
                   uint64_t row0)
{
    const struct iodfg_key *keys = iodfg_eventlog_keys(r->log);
    uint32_t nkeys = r->nkeys, nstr = r->nstr;
    int64_t prev = *prev_start;
    for (uint64_t j = 0; j < n; j++) {
        const struct store_row *x = &rows[j];
        const char *bad = NULL;
        if (x->key >= nkeys) {
            bad = "key id out of range";
        } else if (x->call != keys[x->key].call || x->fp != keys[x->key].path) {
            bad = "call/fp do not match the key";
        } else if (x->err >= nstr) {
            bad = "err string id out of range";
        } else if (x->start < prev) {
            bad = "rows not sorted by start";
        } else if (x->start < IODFG_START_MIN || x->start > IODFG_START_MAX) {
            bad = "start out of range";
        } else if (c->dur_ns && x->dur != IODFG_UNKNOWN && (uint64_t)x->dur > IODFG_DUR_MAX) {
            bad = "dur out of range";
        }
        if (bad) {
            iodfg_error_set(r->err, IODFG_E_FORMAT, "damaged event log: case %s, row %llu: %s",
                            iodfg_strpool_get(iodfg_eventlog_pool(r->log), r->cases_info[cs].name),
                            (unsigned long long)(row0 + j), bad);
            iodfg_error_at(r->err, r->path, 0, 0);
            return -1;
        }
        prev = x->start;
        uint64_t o = out + j;
        if (c->start_ns) {
            c->start_ns[o] = x->start;
        }
        if (c->dur_ns) {
            c->dur_ns[o] = x->dur;
        }
        if (c->size) {
            c->size[o] = x->size;
        }
        if (c->offset) {
            c->offset[o] = x->offset;
        }
        if (c->req) {
            c->req[o] = x->req;
        }
        if (c->key) {
            c->key[o] = x->key;
        }
        if (c->err) {
            c->err[o] = x->err;
        }
        if (c->pid) {
            c->pid[o] = x->pid;
        }
        if (c->fd) {
            c->fd[o] = x->fd;
        }
    }
    *prev_start = prev;
    return 0;
}

/* The case's handle column into c->handle (zeros when the file has none). */
static int read_handle_column(struct reader *r, uint32_t cs, hid_t g, struct iodfg_columns *c,
                              uint64_t n)
{
    uint32_t *out = c->handle + r->offsets[cs];
    htri_t ex = H5Lexists(g, STORE_HANDLE, H5P_DEFAULT);
    if (ex == 0) {
        memset(out, 0, n * sizeof(*out));
        return 0;
    }
    hid_t d = ex < 0 ? -1 : H5Dopen2(g, STORE_HANDLE, H5P_DEFAULT);
    hid_t sp = d < 0 ? -1 : H5Dget_space(d);
    hid_t t = d < 0 ? -1 : H5Dget_type(d);
    hsize_t dims[1] = {0};
    int rc = -1;
    if (sp >= 0 && t >= 0 && H5Tget_class(t) == H5T_INTEGER &&
        H5Sget_simple_extent_ndims(sp) == 1 && H5Sget_simple_extent_dims(sp, dims, NULL) == 1 &&
        dims[0] == n &&
        (n == 0 || H5Dread(d, H5T_NATIVE_UINT32, H5S_ALL, H5S_ALL, H5P_DEFAULT, out) >= 0)) {
        rc = 0;
    }
    for (uint64_t i = 0; rc == 0 && i < n; i++) {
        if (out[i] > r->nhandles ||
            (out[i] && iodfg_eventlog_handles(r->log)[out[i] - 1].case_id != cs)) {
            rc = -2;
        }
    }
    if (t >= 0) {
        H5Tclose(t);
    }
    if (sp >= 0) {
        H5Sclose(sp);
    }
    if (d >= 0) {
        H5Dclose(d);
    }
    if (rc) {
        return store_damaged(r, "case %s: %s",
                             iodfg_strpool_get(iodfg_eventlog_pool(r->log), r->cases_info[cs].name),
                             rc == -2 ? "handle id out of range" : "handle column unreadable");
    }
    return 0;
}

/* ---- the events table of formats 1.0 and 1.1 ------------------------------------------------- */

/* Case cs stored as an `events` table: slabs through HDF5's conversion into the row type, then
 * checked and scattered into the columns. Main thread only. */
int store_read_compound(struct reader *r, struct loader *L, uint32_t cs, struct store_row *rows,
                        struct progress *pr)
{
    struct iodfg_columns *c = L->c;
    hid_t g = -1, d = -1;
    uint64_t n = 0;
    if (store_open_group(r, cs, &g) || store_open_events(r, cs, g, &d, &n)) {
        store_close_case(g, d);
        return -1;
    }
    if (n != r->offsets[cs + 1] - r->offsets[cs]) {
        store_close_case(g, d);
        return store_damaged(r, "case %s changed while reading", store_case_name(L, cs));
    }
    int rc = 0;
    int64_t prev = INT64_MIN;
    // Slabs that match the writer's chunks are read straight into the buffer.
    uint64_t slab = store_chunk_rows(n);
    for (uint64_t done = 0; rc == 0 && done < n; done += slab) {
        uint64_t count = n - done < slab ? n - done : slab;
        if (store_h5_rows(d, r->mtype, done, count, rows, 0)) {
            rc = store_h5_error(r->err, IODFG_E_FORMAT, r->path, "case %s: cannot read events",
                                store_case_name(L, cs));
        } else {
            rc = scatter(r, rows, count, c, r->offsets[cs] + done, &prev, cs, done);
        }
        atomic_fetch_add(&L->done, count);
        store_report(L, pr);
    }
    if (rc == 0 && c->handle) {
        rc = read_handle_column(r, cs, g, c, n);
    }
    store_close_case(g, d);
    return rc;
}

/* A columnar case that needs HDF5 to read it (chunked, compressed, foreign byte order or
 * other integer widths): the same checks as raw cases, through H5Dread. Main thread only. */
int store_read_converted(struct reader *r, struct loader *L, uint32_t cs, struct scratch *x,
                         uint64_t *bad_row)
{
    *bad_row = 0;
    hid_t g = -1, ids[STORE_C__N];
    for (int c = 0; c < STORE_C__N; c++) {
        ids[c] = -1;
    }
    struct case_plan p = r->plan[cs];
    const hid_t *use = ids;
    int rc = 0;
    if (r->ev) { // 3.0: the /events columns, already open
        use = r->ev->ids;
    } else if (store_open_group(r, cs, &g) || store_open_columns(r, cs, g, &p, ids)) {
        rc = -1;
    }
    if (rc == 0 && p.rows != r->plan[cs].rows) {
        rc = store_damaged(r, "case %s changed while reading", store_case_name(L, cs));
    }
    if (rc == 0) {
        struct failure f;
        struct source s = {
            .L = L, .cs = cs, .p = &p, .ids = use, .check_handles = 1, .f = &f, .err = r->err};
        rc = store_read_rows(&s, 0, p.rows, x);
        int col;
        uint64_t row;
        if (rc == 0 && store_check_sums(r, L->c, cs, 0, p.rows, &col, &row)) {
            f = (struct failure){.kind = F_SUM, .col = col, .row = row};
            rc = -1;
        }
        if (rc) {
            *bad_row = f.row;
            if (f.kind != F_MSG) {
                store_put_failure(L, cs, &f, r->err);
            }
        }
        iodfg_error_at(r->err, r->path, 0, 0);
    }
    store_close_columns(ids);
    store_close_case(g, -1);
    return rc;
}
