/* SPDX-License-Identifier: MIT */
/* HDF5 store, reading side: the 3.0 and 4.0 layouts. The cases come from /case_table (one
 * read, however many cases) and their events from the /events columns: 12 datasets whose
 * chunks (or contiguous data, after h5repack) are located once (store_read_chunks.c), so that
 * rows are read with pread like the 2.0 columns; columns HDF5 must convert are read with
 * H5Dread. */
#include "config.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <hdf5.h>

#include "iodfg/error.h"
#include "iodfg/eventlog.h"

#include "store_priv.h"
#include "store_reader.h"

/* ---- the case table -------------------------------------------------------------------------- */

static int case_row_ok(struct reader *r, uint32_t i, const struct store_case_row *row,
                       uint64_t first)
{
    const char *bad = NULL;
    if (row->name >= r->nstr || row->cid >= r->nstr || row->host >= r->nstr ||
        row->rid >= r->nstr || row->source >= r->nstr) {
        bad = "string id out of range";
    } else if (row->naming > IODFG_NAMING_FILENAME || row->clock > IODFG_CLOCK_EPOCH) {
        bad = "naming or clock out of range";
    } else if (row->first != first) {
        bad = "its rows do not follow the previous case's";
    } else if (row->rows > UINT64_MAX - first) {
        bad = "too many rows";
    }
    return bad ? store_damaged(r, "%s: case %u: %s", STORE_CASE_TABLE, i, bad) : 0;
}

int store_load_case_table(struct reader *r, uint64_t *total)
{
    *total = 0;
    htri_t ex = H5Lexists(r->file, STORE_CASE_TABLE, H5P_DEFAULT);
    if (ex <= 0) {
        return store_damaged(r, ex == 0 ? "table %s is missing" : "cannot find table %s",
                             STORE_CASE_TABLE);
    }
    uint64_t n = 0;
    void *buf = NULL;
    int rc = store_get_table(r, STORE_CASE_TABLE, store_case_type, sizeof(struct store_case_row),
                             UINT32_MAX, &n, &buf);
    if (rc == 0 && n != r->ncases) {
        rc = store_damaged(r, "%s has %llu rows for %u case groups", STORE_CASE_TABLE,
                           (unsigned long long)n, r->ncases);
    }
    const struct store_case_row *rows = buf;
    for (uint32_t i = 0; rc == 0 && i < r->ncases; i++) {
        const struct store_case_row *row = &rows[i];
        rc = case_row_ok(r, i, row, *total);
        if (rc == 0) {
            struct iodfg_case_info *ci = &r->cases_info[i];
            ci->name = row->name;
            ci->cid = row->cid;
            ci->host = row->host;
            ci->rid = row->rid;
            ci->source = row->source;
            ci->naming = (enum iodfg_naming)row->naming;
            ci->clock = (enum iodfg_clock)row->clock;
            ci->lines = row->lines;
            ci->bytes = row->bytes;
            memcpy(ci->counts, row->counts, sizeof(ci->counts));
            r->plan[i].first = row->first;
            r->plan[i].rows = row->rows;
            *total += row->rows;
            r->offsets[i + 1] = *total;
        }
    }
    free(buf);
    return rc;
}

/* ---- the /events columns --------------------------------------------------------------------- */

/* The rows of column c from ev->tail_first[c] on (the last, partial chunk, when it is not coded
 * like the others: deflated by our writer, or other filters) into ev->tail[c]: decoded here, or
 * through H5Dread; not read when no case to load reaches it (end: the end of their rows). 0, or
 * -1 (err set). */
static int read_tail(struct reader *r, struct store_event_cols *ev, int c, uint64_t n, uint64_t end)
{
    uint64_t first = ev->tail_first[c];
    if (first >= n || end <= first) {
        return 0;
    }
    ev->tail[c] = malloc((size_t)(n - first) * store_cols[c].size);
    if (!ev->tail[c]) {
        return iodfg_error_set(r->err, IODFG_E_NOMEM, NULL);
    }
    if (store_read_deflated_tail(r, ev, c, n, ev->tail[c]) == 0) {
        return 0;
    }
    int rc = store_h5_rows(ev->ids[c], store_col_type((enum store_col)c, 0), first, n - first,
                           ev->tail[c], 0);
    return rc ? store_h5_error(r->err, IODFG_E_FORMAT, r->path, "cannot read column %s/%s",
                               STORE_EVENT_GROUP, store_cols[c].name)
              : 0;
}

/* Whether column c (n values) can be read with pread: contiguous data (chunk_rows 0, addr), or
 * whole chunks stored as they are (the last, partial one is read now when rows before end need
 * it). 0 = yes, 1 = HDF5 must read it, -1 = error (err set). */
static int locate_raw(struct reader *r, struct store_event_cols *ev, int c, uint64_t n,
                      uint64_t end)
{
    hid_t d = ev->ids[c];
    size_t esz = store_cols[c].size;
    hid_t t = H5Dget_type(d);
    hid_t dcpl = H5Dget_create_plist(d);
    int native = r->vfd >= 0 && t >= 0 && dcpl >= 0 &&
                 H5Tequal(t, store_col_type((enum store_col)c, 0)) > 0 &&
                 H5Pget_external_count(dcpl) == 0;
    H5D_layout_t layout = dcpl >= 0 ? H5Pget_layout(dcpl) : H5D_LAYOUT_ERROR;
    int nfilters = dcpl >= 0 ? H5Pget_nfilters(dcpl) : -1;
    hsize_t chunk[1] = {0};
    int chunked = native && layout == H5D_CHUNKED && nfilters >= 0 &&
                  H5Pget_chunk(dcpl, 1, chunk) == 1 && chunk[0] > 0 &&
                  chunk[0] <= r->vfd_size / esz;
    if (dcpl >= 0) {
        H5Pclose(dcpl);
    }
    if (t >= 0) {
        H5Tclose(t);
    }
    int rc = 1;
    if (native && layout == H5D_CONTIGUOUS && nfilters == 0) {
        haddr_t a = H5Dget_offset(d);
        uint64_t bytes = n * esz;
        if (n == 0 || (a != HADDR_UNDEF && H5Dget_storage_size(d) == bytes && a <= r->vfd_size &&
                       bytes <= r->vfd_size - a)) {
            ev->chunk_rows[c] = 0;
            ev->addr[c] = a;
            ev->tail_first[c] = n;
            rc = 0;
        }
    } else if (chunked) {
        rc = store_locate_chunks(r, ev, c, chunk[0], n);
        if (rc < 0) {
            return -1;
        }
    }
    H5Eclear2(H5E_DEFAULT);
    return rc == 0 && read_tail(r, ev, c, n, end) ? -1 : rc;
}

/* Open /events/<c>: an integer 1-D dataset of n values. */
static int open_event_column(struct reader *r, struct store_event_cols *ev, int c, uint64_t n)
{
    char name[64];
    snprintf(name, sizeof(name), "%s/%s", STORE_EVENT_GROUP, store_cols[c].name);
    htri_t ex = H5Lexists(r->file, STORE_EVENT_GROUP, H5P_DEFAULT);
    ex = ex > 0 ? H5Lexists(r->file, name, H5P_DEFAULT) : ex;
    if (ex <= 0) {
        return store_damaged(r, ex == 0 ? "column %s is missing" : "cannot find column %s", name);
    }
    hid_t d = H5Dopen2(r->file, name, H5P_DEFAULT);
    hid_t t = d < 0 ? -1 : H5Dget_type(d);
    hid_t sp = d < 0 ? -1 : H5Dget_space(d);
    hsize_t dims[1] = {0};
    int ok = t >= 0 && sp >= 0 && H5Tget_class(t) == H5T_INTEGER &&
             H5Sget_simple_extent_ndims(sp) == 1 && H5Sget_simple_extent_dims(sp, dims, NULL) == 1;
    if (sp >= 0) {
        H5Sclose(sp);
    }
    if (t >= 0) {
        H5Tclose(t);
    }
    ev->ids[c] = d;
    if (!ok) {
        return store_damaged(r, "column %s is not a valid integer column", name);
    }
    if (dims[0] != n) {
        return store_damaged(r, "column %s has %llu rows, the cases %llu", name,
                             (unsigned long long)dims[0], (unsigned long long)n);
    }
    return 0;
}

int store_open_event_columns(struct reader *r, uint64_t total)
{
    struct store_event_cols *ev = calloc(1, sizeof(*ev));
    if (!ev) {
        return iodfg_error_set(r->err, IODFG_E_NOMEM, NULL);
    }
    r->ev = ev;
    for (int c = 0; c < STORE_C__N; c++) {
        ev->ids[c] = -1;
    }
    unsigned need = store_needed_datasets(r->columns);
    uint64_t end = 0; // of the rows of the cases to load (a range of them, or all)
    for (uint32_t i = 0; i < r->ncases; i++) {
        uint64_t e = r->plan[i].first + r->plan[i].rows;
        end = e > end ? e : end;
    }
    int raw = 1;
    for (int c = 0; c < STORE_C__N; c++) {
        if (!(need & 1u << c)) {
            continue;
        }
        if (open_event_column(r, ev, c, total)) {
            return -1;
        }
        int rc = locate_raw(r, ev, c, total, end);
        if (rc < 0) {
            return -1;
        }
        raw &= rc == 0;
    }
    for (uint32_t i = 0; i < r->ncases; i++) {
        r->plan[i].raw = raw;
        r->plan[i].has_handle = 1;
    }
    return 0;
}

void store_close_event_columns(struct reader *r)
{
    struct store_event_cols *ev = r->ev;
    if (!ev) {
        return;
    }
    for (int c = 0; c < STORE_C__N; c++) {
        if (ev->ids[c] >= 0) {
            H5Dclose(ev->ids[c]);
        }
        free(ev->chunks[c]);
        free(ev->tail[c]);
    }
    free(ev);
    r->ev = NULL;
}
