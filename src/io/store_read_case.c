/* SPDX-License-Identifier: MIT */
/* HDF5 store, reading side: the cases. Opens each case group, reads its attributes into the
 * case info and works out its layout (1.x `events` table or 2.0 columns, raw or not) and row
 * count, before any event is read, so that the columns are allocated once. */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <hdf5.h>

#include "iodfg/error.h"
#include "iodfg/eventlog.h"
#include "iodfg/strpool.h"

#include "store_priv.h"
#include "store_reader.h"

/* ---- cases ----------------------------------------------------------------------------------- */

/* Case attributes are read in one pass over what the group holds (looking each expected name
 * up would cost a search per name); unknown ones, from newer minor versions, are skipped. */
struct case_scan {
    struct reader *r;
    struct iodfg_case_info *ci;
    uint64_t index;
    int has_name, has_index;
};

static int case_str_attr(struct case_scan *cs, hid_t a, const char *name, uint32_t *id)
{
    char *s = NULL;
    size_t len = 0;
    if (store_read_str(cs->r, a, name, &s, &len)) {
        return -1;
    }
    int rc = iodfg_strpool_intern(iodfg_eventlog_pool(cs->r->log), s, len, id);
    free(s);
    return rc ? iodfg_error_set(cs->r->err, IODFG_E_NOMEM, NULL) : 0;
}

/* The uint64 field of the case info named by an attribute, NULL for an unknown name. */
static uint64_t *case_uint_field(struct case_scan *cs, const char *name)
{
    if (strcmp(name, "lines") == 0) {
        return &cs->ci->lines;
    }
    if (strcmp(name, "bytes") == 0) {
        return &cs->ci->bytes;
    }
    if (strcmp(name, "index") == 0) {
        cs->has_index = 1;
        return &cs->index;
    }
    for (int c = 0; c < IODFG_COUNT__N; c++) {
        if (strcmp(name, iodfg_count_name((enum iodfg_count)c)) == 0) {
            return &cs->ci->counts[c];
        }
    }
    return NULL;
}

static int case_attr(struct case_scan *cs, hid_t a, const char *name)
{
    static const char *const strs[] = {"name", "cid", "host", "rid", "source"};
    uint32_t *ids[] = {&cs->ci->name, &cs->ci->cid, &cs->ci->host, &cs->ci->rid, &cs->ci->source};
    for (int i = 0; i < 5; i++) {
        if (strcmp(name, strs[i]) == 0) {
            cs->has_name |= i == 0;
            return case_str_attr(cs, a, name, ids[i]);
        }
    }
    uint64_t v;
    if (strcmp(name, "naming_id") == 0 || strcmp(name, "clock_id") == 0) {
        int naming = name[0] == 'n';
        if (store_read_uint(cs->r, a, name, &v)) {
            return -1;
        }
        if (v > (naming ? IODFG_NAMING_FILENAME : IODFG_CLOCK_EPOCH)) {
            return store_damaged(cs->r, "attribute %s is out of range", name);
        }
        if (naming) {
            cs->ci->naming = (enum iodfg_naming)v;
        } else {
            cs->ci->clock = (enum iodfg_clock)v;
        }
        return 0;
    }
    uint64_t *field = case_uint_field(cs, name);
    return field ? store_read_uint(cs->r, a, name, field) : 0;
}

static herr_t case_attr_cb(hid_t loc, const char *name, const H5A_info_t *info, void *ctx)
{
    (void)info;
    struct case_scan *cs = ctx;
    hid_t a = H5Aopen(loc, name, H5P_DEFAULT);
    if (a < 0) {
        store_damaged(cs->r, "cannot open attribute %s", name);
        return -1;
    }
    int rc = case_attr(cs, a, name);
    H5Aclose(a);
    return rc ? -1 : 0;
}

/* Read the attributes of case i (group g) into ci; checks its `index` when present. */
static int case_attrs(struct reader *r, hid_t g, uint32_t i, struct iodfg_case_info *ci)
{
    struct case_scan cs = {.r = r, .ci = ci};
    if (H5Aiterate2(g, H5_INDEX_NAME, H5_ITER_NATIVE, NULL, case_attr_cb, &cs) < 0) {
        return r->err->code ? -1 : store_damaged(r, "case %u: cannot read its attributes", i);
    }
    if (!cs.has_name) {
        return store_damaged(r, "case %u: attribute name is missing", i);
    }
    // `index` is for readers that list groups by name; creation order is what counts.
    if (cs.has_index && cs.index != i) {
        return store_damaged(r, "case %s is stored out of order",
                             iodfg_strpool_get(iodfg_eventlog_pool(r->log), ci->name));
    }
    return 0;
}

/* Whether t, the type of an events table, has every column as an integer. Our own layout is
 * recognised at once; other layouts (extra columns of a newer minor) member by member. */
static int events_type_ok(struct reader *r, hid_t t)
{
    static const char *const members[] = {"pid",  "call",   "start", "dur", "fp", "key",
                                          "size", "offset", "req",   "fd",  "err"};
    if (H5Tget_class(t) != H5T_COMPOUND) {
        return 0;
    }
    if (H5Tequal(t, r->ftype) > 0) {
        return 1;
    }
    for (size_t m = 0; m < sizeof(members) / sizeof(members[0]); m++) {
        int idx = H5Tget_member_index(t, members[m]);
        if (idx < 0 || H5Tget_member_class(t, (unsigned)idx) != H5T_INTEGER) {
            return 0;
        }
    }
    return 1;
}

/* Set err for case i: "case NAME: what" with the group's link name. */
static int case_error(struct reader *r, uint32_t i, const char *what)
{
    char link[128] = "?";
    H5Lget_name_by_idx(r->cases, ".", H5_INDEX_CRT_ORDER, H5_ITER_INC, i, link, sizeof(link),
                       H5P_DEFAULT);
    return store_h5_error(r->err, IODFG_E_FORMAT, r->path, "case %u (%s): %s", i, link, what);
}

/* Open case i (in creation order) as a group. */
int store_open_group(struct reader *r, uint32_t i, hid_t *g)
{
    *g = H5Oopen_by_idx(r->cases, ".", H5_INDEX_CRT_ORDER, H5_ITER_INC, i, H5P_DEFAULT);
    if (*g < 0 || H5Iget_type(*g) != H5I_GROUP) {
        return case_error(r, i, "not a group");
    }
    return 0;
}

/* The events table of case i (formats 1.0 and 1.1); check its shape. */
int store_open_events(struct reader *r, uint32_t i, hid_t g, hid_t *d, uint64_t *rows)
{
    *d = H5Dopen2(g, STORE_EVENTS, H5P_DEFAULT);
    hid_t t = *d < 0 ? -1 : H5Dget_type(*d);
    hid_t sp = *d < 0 ? -1 : H5Dget_space(*d);
    hsize_t dims[1] = {0};
    size_t tsize = t < 0 ? 0 : H5Tget_size(t);
    int ok = t >= 0 && sp >= 0 && tsize > 0 && events_type_ok(r, t) &&
             H5Sget_simple_extent_ndims(sp) == 1 &&
             H5Sget_simple_extent_dims(sp, dims, NULL) == 1 &&
             dims[0] <= store_max_bytes(r, *d) / tsize;
    if (sp >= 0) {
        H5Sclose(sp);
    }
    if (t >= 0) {
        H5Tclose(t);
    }
    if (!ok) {
        return case_error(r, i, "no valid events table");
    }
    *rows = dims[0];
    return 0;
}

void store_close_case(hid_t g, hid_t d)
{
    if (d >= 0) {
        H5Dclose(d);
    }
    if (g >= 0) {
        H5Oclose(g);
    }
}

/* Datasets read for the given columns: those asked for and those every load checks. */
unsigned store_needed_datasets(unsigned columns)
{
    static const unsigned bit[STORE_C__N] = {
        [STORE_C_PID] = IODFG_COL_PID, [STORE_C_START] = IODFG_COL_START,
        [STORE_C_DUR] = IODFG_COL_DUR, [STORE_C_SIZE] = IODFG_COL_SIZE,
        [STORE_C_KEY] = IODFG_COL_KEY, [STORE_C_OFFSET] = IODFG_COL_OFFSET,
        [STORE_C_REQ] = IODFG_COL_REQ, [STORE_C_FD] = IODFG_COL_FD,
        [STORE_C_ERR] = IODFG_COL_ERR, [STORE_C_HANDLE] = IODFG_COL_HANDLE,
    };
    unsigned need = 1u << STORE_C_KEY | 1u << STORE_C_START | 1u << STORE_C_CALL |
                    1u << STORE_C_FP | 1u << STORE_C_ERR;
    for (int c = 0; c < STORE_C__N; c++) {
        if (bit[c] & columns) {
            need |= 1u << c;
        }
    }
    return need;
}

/* Open one column dataset of case i and check it: integers, 1-D, `rows` long (set by the first
 * column opened, when *rows is UINT64_MAX). *raw is cleared unless its data can be read with
 * pread as native values at *addr. */
static int open_column(struct reader *r, uint32_t i, hid_t g, int c, hid_t *d, uint64_t *rows,
                       int *raw, uint64_t *addr)
{
    *d = H5Dopen2(g, store_cols[c].name, H5P_DEFAULT);
    hid_t t = *d < 0 ? -1 : H5Dget_type(*d);
    hid_t sp = *d < 0 ? -1 : H5Dget_space(*d);
    hsize_t dims[1] = {0};
    size_t tsize = t < 0 ? 0 : H5Tget_size(t);
    int ok = t >= 0 && sp >= 0 && tsize > 0 && H5Tget_class(t) == H5T_INTEGER &&
             H5Sget_simple_extent_ndims(sp) == 1 &&
             H5Sget_simple_extent_dims(sp, dims, NULL) == 1 &&
             (*rows == UINT64_MAX || dims[0] == *rows);
    if (ok) {
        // Only contiguous datasets without external files have an offset (H5Dget_offset gives
        // HADDR_UNDEF for chunked, compact, external and virtual ones): such data lies in the
        // file as it is, so the file size bounds it; filters may expand the others.
        uint64_t bytes = dims[0] * store_cols[c].size;
        haddr_t a = H5Dget_offset(*d);
        int contiguous = a != HADDR_UNDEF;
        ok = dims[0] <= (contiguous ? r->fsize : store_max_bytes(r, *d)) / tsize;
        // Raw: stored exactly as it is in memory, inside the file.
        if (!(r->vfd >= 0 && contiguous && H5Tequal(t, store_col_type((enum store_col)c, 0)) > 0 &&
              H5Dget_storage_size(*d) == bytes && a <= r->vfd_size && bytes <= r->vfd_size - a) &&
            dims[0] > 0) {
            *raw = 0;
        }
        *rows = dims[0];
        *addr = a;
        H5Eclear2(H5E_DEFAULT);
    }
    if (sp >= 0) {
        H5Sclose(sp);
    }
    if (t >= 0) {
        H5Tclose(t);
    }
    if (!ok) {
        char what[96];
        if (*d < 0 && H5Lexists(g, store_cols[c].name, H5P_DEFAULT) == 0) {
            snprintf(what, sizeof(what), "column %s is missing", store_cols[c].name);
        } else {
            snprintf(what, sizeof(what), "column %s is not a valid integer column",
                     store_cols[c].name);
        }
        return case_error(r, i, what);
    }
    return 0;
}

/* Open the datasets case i needs (ids[c] >= 0 for those, the caller closes them) and fill its
 * plan: rows, whether it is raw, where the data lies. */
int store_open_columns(struct reader *r, uint32_t i, hid_t g, struct case_plan *p,
                       hid_t ids[STORE_C__N])
{
    unsigned need = store_needed_datasets(r->columns);
    for (int c = 0; c < STORE_C__N; c++) {
        ids[c] = -1;
    }
    p->rows = UINT64_MAX;
    p->raw = 1;
    p->has_handle = 0;
    // The key column first: it sets the length the others must have.
    static const int order[STORE_C__N] = {
        STORE_C_KEY, STORE_C_START, STORE_C_CALL,   STORE_C_FP,  STORE_C_ERR, STORE_C_PID,
        STORE_C_DUR, STORE_C_SIZE,  STORE_C_OFFSET, STORE_C_REQ, STORE_C_FD,  STORE_C_HANDLE};
    for (int k = 0; k < STORE_C__N; k++) {
        int c = order[k];
        if (!(need & 1u << c)) {
            continue;
        }
        if (c == STORE_C_HANDLE) {
            htri_t ex = H5Lexists(g, STORE_HANDLE, H5P_DEFAULT);
            if (ex < 0) {
                return case_error(r, i, "cannot look up the handle column");
            }
            if (ex == 0) {
                continue;
            }
            p->has_handle = 1;
        }
        if (open_column(r, i, g, c, &ids[c], &p->rows, &p->raw, &p->addr[c])) {
            return -1;
        }
    }
    return 0;
}

void store_close_columns(hid_t ids[STORE_C__N])
{
    for (int c = 0; c < STORE_C__N; c++) {
        if (ids[c] >= 0) {
            H5Dclose(ids[c]);
        }
        ids[c] = -1;
    }
}

/* First pass: case attributes, layout and row counts, so that the columns are allocated once. */
int store_scan_case(struct reader *r, uint32_t i, struct case_plan *p)
{
    hid_t g = -1, d = -1, ids[STORE_C__N];
    for (int c = 0; c < STORE_C__N; c++) {
        ids[c] = -1;
    }
    int rc = store_open_group(r, i, &g);
    htri_t ex = rc ? -1 : H5Lexists(g, STORE_EVENTS, H5P_DEFAULT);
    if (rc == 0 && ex < 0) {
        rc = case_error(r, i, "cannot look up its events");
    } else if (rc == 0) {
        p->compound = ex > 0;
        rc = p->compound ? store_open_events(r, i, g, &d, &p->rows)
                         : store_open_columns(r, i, g, p, ids);
    }
    if (rc == 0) {
        rc = case_attrs(r, g, i, &r->cases_info[i]);
    }
    store_close_columns(ids);
    store_close_case(g, d);
    return rc;
}

/* Open /cases and size the per-case arrays. */
int store_open_cases(struct reader *r)
{
    H5G_info_t gi;
    hid_t gcpl = -1;
    unsigned order = 0;
    r->cases = H5Gopen2(r->file, STORE_CASES, H5P_DEFAULT);
    if (r->cases < 0 || H5Gget_info(r->cases, &gi) < 0 ||
        (gcpl = H5Gget_create_plist(r->cases)) < 0 ||
        H5Pget_link_creation_order(gcpl, &order) < 0 || !(order & H5P_CRT_ORDER_INDEXED) ||
        gi.nlinks > UINT32_MAX - 1) {
        if (gcpl >= 0) {
            H5Pclose(gcpl);
        }
        return store_damaged(r, "%s", "group /cases is missing or has no creation order");
    }
    H5Pclose(gcpl);
    r->ncases = (uint32_t)gi.nlinks;
    r->cases_info = calloc((size_t)r->ncases + 1, sizeof(*r->cases_info));
    r->offsets = calloc((size_t)r->ncases + 1, sizeof(*r->offsets));
    r->plan = calloc((size_t)r->ncases + 1, sizeof(*r->plan));
    if (!r->cases_info || !r->offsets || !r->plan) {
        return iodfg_error_set(r->err, IODFG_E_NOMEM, NULL);
    }
    return 0;
}

/* Scan every case (without reading events): their total in *total. */
int store_scan_cases(struct reader *r, uint64_t *total)
{
    *total = 0;
    for (uint32_t i = 0; i < r->ncases; i++) {
        if (store_scan_case(r, i, &r->plan[i])) {
            return -1;
        }
        if (r->plan[i].rows > UINT64_MAX - *total) {
            return store_damaged(r, "%s", "too many events");
        }
        *total += r->plan[i].rows;
        r->offsets[i + 1] = *total;
    }
    return 0;
}
