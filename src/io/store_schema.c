/* SPDX-License-Identifier: MIT */
/* The HDF5 store's schema, shared by its reader and writers (declared in store_priv.h): the
 * column table, the HDF5 row, handle and case types, row transfers, and HDF5 error reports. */
#include "config.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <hdf5.h>

#include "iodfg/error.h"
#include "iodfg/eventlog.h"
#include "iodfg/handles.h"

#include "store_priv.h"

void store_h5_quiet(void)
{
    H5Eset_auto2(H5E_DEFAULT, NULL, NULL);
}

const char *store_naming_name(unsigned naming)
{
    return naming == IODFG_NAMING_FILENAME ? "filename" : "pattern";
}

struct h5_walk {
    char outer[128], inner[128];
};

static herr_t walk_cb(unsigned n, const H5E_error2_t *e, void *ctx)
{
    struct h5_walk *w = ctx;
    const char *desc = e->desc && e->desc[0] ? e->desc : e->func_name;
    if (n == 0) {
        snprintf(w->outer, sizeof(w->outer), "%s", desc ? desc : "");
    }
    snprintf(w->inner, sizeof(w->inner), "%s", desc ? desc : "");
    return 0;
}

int store_h5_error(struct iodfg_error *err, enum iodfg_status code, const char *path,
                   const char *fmt, ...)
{
    char ctx[160];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(ctx, sizeof(ctx), fmt, ap);
    va_end(ap);
    struct h5_walk w = {{0}, {0}};
    H5Ewalk2(H5E_DEFAULT, H5E_WALK_DOWNWARD, walk_cb, &w);
    H5Eclear2(H5E_DEFAULT);
    if (!w.outer[0]) {
        iodfg_error_set(err, code, "%s", ctx);
    } else if (strcmp(w.outer, w.inner) == 0) {
        iodfg_error_set(err, code, "%s: %s", ctx, w.outer);
    } else {
        iodfg_error_set(err, code, "%s: %s (%s)", ctx, w.outer, w.inner);
    }
    iodfg_error_at(err, path, 0, 0);
    return -1;
}

hid_t store_row_type(int file)
{
    hid_t t = H5Tcreate(H5T_COMPOUND, sizeof(struct store_row));
    if (t < 0) {
        return t;
    }
    hid_t i32 = file ? H5T_STD_I32LE : H5T_NATIVE_INT32;
    hid_t u32 = file ? H5T_STD_U32LE : H5T_NATIVE_UINT32;
    hid_t i64 = file ? H5T_STD_I64LE : H5T_NATIVE_INT64;
    if (H5Tinsert(t, "pid", HOFFSET(struct store_row, pid), i32) < 0 ||
        H5Tinsert(t, "call", HOFFSET(struct store_row, call), u32) < 0 ||
        H5Tinsert(t, "start", HOFFSET(struct store_row, start), i64) < 0 ||
        H5Tinsert(t, "dur", HOFFSET(struct store_row, dur), i64) < 0 ||
        H5Tinsert(t, "fp", HOFFSET(struct store_row, fp), u32) < 0 ||
        H5Tinsert(t, "key", HOFFSET(struct store_row, key), u32) < 0 ||
        H5Tinsert(t, "size", HOFFSET(struct store_row, size), i64) < 0 ||
        H5Tinsert(t, "offset", HOFFSET(struct store_row, offset), i64) < 0 ||
        H5Tinsert(t, "req", HOFFSET(struct store_row, req), i64) < 0 ||
        H5Tinsert(t, "fd", HOFFSET(struct store_row, fd), i32) < 0 ||
        H5Tinsert(t, "err", HOFFSET(struct store_row, err), u32) < 0) {
        H5Tclose(t);
        return -1;
    }
    return t;
}

const struct store_col_desc store_cols[STORE_C__N] = {
    [STORE_C_PID] = {"pid", 4, 1},     [STORE_C_CALL] = {"call", 4, 0},
    [STORE_C_START] = {"start", 8, 1}, [STORE_C_DUR] = {"dur", 8, 1},
    [STORE_C_FP] = {"fp", 4, 0},       [STORE_C_SIZE] = {"size", 8, 1},
    [STORE_C_KEY] = {"key", 4, 0},     [STORE_C_OFFSET] = {"offset", 8, 1},
    [STORE_C_REQ] = {"req", 8, 1},     [STORE_C_FD] = {"fd", 4, 1},
    [STORE_C_ERR] = {"err", 4, 0},     [STORE_C_HANDLE] = {STORE_HANDLE, 4, 0},
};

uint64_t store_col_fill(enum store_col c)
{
    const struct store_col_desc *d = &store_cols[c];
    if (d->size == 8) {
        return (uint64_t)INT64_MIN;
    }
    return d->is_signed ? (uint64_t)(uint32_t)INT32_MIN : 0;
}

hid_t store_col_type(enum store_col c, int file)
{
    const struct store_col_desc *d = &store_cols[c];
    if (d->size == 8) {
        return file ? H5T_STD_I64LE : H5T_NATIVE_INT64;
    }
    if (d->is_signed) {
        return file ? H5T_STD_I32LE : H5T_NATIVE_INT32;
    }
    return file ? H5T_STD_U32LE : H5T_NATIVE_UINT32;
}

hid_t store_handle_type(int file)
{
    hid_t t = H5Tcreate(H5T_COMPOUND, sizeof(struct iodfg_handle));
    if (t < 0) {
        return t;
    }
    hid_t i32 = file ? H5T_STD_I32LE : H5T_NATIVE_INT32;
    hid_t u32 = file ? H5T_STD_U32LE : H5T_NATIVE_UINT32;
    hid_t i64 = file ? H5T_STD_I64LE : H5T_NATIVE_INT64;
    hid_t u64 = file ? H5T_STD_U64LE : H5T_NATIVE_UINT64;
#define HM(name, field, type) H5Tinsert(t, name, HOFFSET(struct iodfg_handle, field), type) < 0
    if (HM("case", case_id, u32) || HM("pid", pid, i32) || HM("fd", fd, i32) ||
        HM("path", path, u32) || HM("call", call, u32) || HM("flags", flags, u32) ||
        HM("layer", layer, u32) || HM("parent", parent, u32) || HM("origin", origin, u32) ||
        HM("mode", mode, i64) || HM("created", created_ns, i64) ||
        HM("destroyed", destroyed_ns, i64) || HM("ops", ops, u64) ||
        HM("bytes_read", bytes_read, u64) || HM("bytes_written", bytes_written, u64)) {
        H5Tclose(t);
        return -1;
    }
#undef HM
    return t;
}

hid_t store_case_type(int file)
{
    hid_t t = H5Tcreate(H5T_COMPOUND, sizeof(struct store_case_row));
    if (t < 0) {
        return t;
    }
    hid_t u32 = file ? H5T_STD_U32LE : H5T_NATIVE_UINT32;
    hid_t u64 = file ? H5T_STD_U64LE : H5T_NATIVE_UINT64;
#define CM(name, field, type) H5Tinsert(t, name, HOFFSET(struct store_case_row, field), type) < 0
    int bad = CM("name", name, u32) || CM("cid", cid, u32) || CM("host", host, u32) ||
              CM("rid", rid, u32) || CM("source", source, u32) || CM("naming", naming, u32) ||
              CM("clock", clock, u32) || CM("first", first, u64) || CM("rows", rows, u64) ||
              CM("lines", lines, u64) || CM("bytes", bytes, u64);
#undef CM
    for (int c = 0; !bad && c < IODFG_COUNT__N; c++) {
        bad = H5Tinsert(t, iodfg_count_name((enum iodfg_count)c),
                        HOFFSET(struct store_case_row, counts) + (size_t)c * sizeof(uint64_t),
                        u64) < 0;
    }
    if (bad) {
        H5Tclose(t);
        return -1;
    }
    return t;
}

int store_h5_rows(hid_t d, hid_t mtype, uint64_t first, uint64_t n, void *buf, int write)
{
    hid_t fsp = H5Dget_space(d);
    hsize_t start[1] = {first}, count[1] = {n};
    hid_t msp = H5Screate_simple(1, count, NULL);
    int rc = fsp < 0 || msp < 0 ||
                     H5Sselect_hyperslab(fsp, H5S_SELECT_SET, start, NULL, count, NULL) < 0 ||
                     (write ? H5Dwrite(d, mtype, msp, fsp, H5P_DEFAULT, buf)
                            : H5Dread(d, mtype, msp, fsp, H5P_DEFAULT, buf)) < 0
                 ? -1
                 : 0;
    if (msp >= 0) {
        H5Sclose(msp);
    }
    if (fsp >= 0) {
        H5Sclose(fsp);
    }
    return rc;
}

/* ---- attributes and small datasets ----------------------------------------------------------- */
