/* SPDX-License-Identifier: MIT */
/* The HDF5 store's schema, shared by its reader and writers (declared in store_priv.h): the
 * column table, the HDF5 row, handle and case types, row transfers, and HDF5 error reports. */
#include "config.h"

#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <hdf5.h>

#include "iodfg/error.h"
#include "iodfg/eventlog.h"
#include "iodfg/handles.h"
#include "iodfg/store.h"

#include "store_priv.h"


void iodfg_store_process_init(void)
{
    H5dont_atexit();
}

const char *store_naming_name(unsigned naming)
{
    return naming == IODFG_NAMING_FILENAME ? "filename" : "pattern";
}

struct h5_walk {
    char outer[128], inner[512];
};

/* HDF5 words a failed read or write as "file write failed: time = ..., filename = ..., file
 * descriptor = 3, errno = 28": the system's words for the errno say it better. */
static int system_reason(char *desc, size_t size)
{
    const char *at = strstr(desc, "errno = ");
    if (!at) {
        return 0;
    }
    int code = atoi(at + 8);
    if (code > 0) {
        snprintf(desc, size, "%s", strerror(code));
    }
    return code > 0;
}

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

/* The last failure HDF5 reported on this thread since store_h5_quiet, walked when it
 * happened: HDF5 clears its error stack at the start of every API call, so the closing calls
 * after a failure would lose its reason (a full disk's ENOSPC) before store_h5_error looks.
 * Per thread, as HDF5's error stacks are. */
static _Thread_local struct h5_walk last_failure;
static _Thread_local int have_last_failure;

static herr_t capture(hid_t estack, void *ctx)
{
    (void)ctx;
    struct h5_walk w = {{0}, {0}};
    H5Ewalk2(estack, H5E_WALK_DOWNWARD, walk_cb, &w);
    if (w.outer[0]) {
        last_failure = w;
        have_last_failure = 1;
    }
    return 0;
}

void store_h5_quiet(void)
{
    // nothing printed: failures are captured for store_h5_error instead
    H5Eset_auto2(H5E_DEFAULT, capture, NULL);
    have_last_failure = 0;
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
    if (!w.outer[0] && have_last_failure) { // cleared by a later call: the one captured
        w = last_failure;
    }
    have_last_failure = 0;
    if (system_reason(w.inner, sizeof(w.inner))) { // the cause (ENOSPC, EIO) says it all
        iodfg_error_set(err, code, "%s: %s", ctx, w.inner);
    } else if (!w.outer[0]) {
        iodfg_error_set(err, code, "%s", ctx);
    } else if (strcmp(w.outer, w.inner) == 0) {
        iodfg_error_set(err, code, "%s: %s", ctx, w.outer);
    } else {
        iodfg_error_set(err, code, "%s: %s (%s)", ctx, w.outer, w.inner);
    }
    iodfg_error_at(err, path, 0, 0);
    return -1;
}

/* The integer types of compound fields, on disk (little-endian) or in memory. */
enum field_type { F_I32, F_U32, F_I64, F_U64 };

static hid_t field_h5_type(enum field_type t, int file)
{
    switch (t) {
    case F_I32:
        return file ? H5T_STD_I32LE : H5T_NATIVE_INT32;
    case F_U32:
        return file ? H5T_STD_U32LE : H5T_NATIVE_UINT32;
    case F_I64:
        return file ? H5T_STD_I64LE : H5T_NATIVE_INT64;
    default:
        return file ? H5T_STD_U64LE : H5T_NATIVE_UINT64;
    }
}

struct field {
    const char *name;
    size_t offset;
    enum field_type type;
};

/* Insert fields f[0..n) into compound t: 0, or -1. */
static int insert_fields(hid_t t, const struct field *f, size_t n, int file)
{
    for (size_t i = 0; i < n; i++) {
        if (H5Tinsert(t, f[i].name, f[i].offset, field_h5_type(f[i].type, file)) < 0) {
            return -1;
        }
    }
    return 0;
}

/* A compound type of size bytes and fields f[0..n); a negative id on failure. */
static hid_t compound_type(size_t size, const struct field *f, size_t n, int file)
{
    hid_t t = H5Tcreate(H5T_COMPOUND, size);
    if (t >= 0 && insert_fields(t, f, n, file)) {
        H5Tclose(t);
        return -1;
    }
    return t;
}

#define NFIELDS(f) (sizeof(f) / sizeof((f)[0]))
/* A field of struct st: its name in the file, where it is, its type. */
#define FIELD(st, name, member, type) {name, offsetof(struct st, member), type}

hid_t store_row_type(int file)
{
#define R(name, member, type) FIELD(store_row, name, member, type)
    static const struct field f[] = {
        R("pid", pid, F_I32),   R("call", call, F_U32),     R("start", start, F_I64),
        R("dur", dur, F_I64),   R("fp", fp, F_U32),         R("key", key, F_U32),
        R("size", size, F_I64), R("offset", offset, F_I64), R("req", req, F_I64),
        R("fd", fd, F_I32),     R("err", err, F_U32),
    };
#undef R
    return compound_type(sizeof(struct store_row), f, NFIELDS(f), file);
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
    enum field_type t = d->size == 8 ? F_I64 : d->is_signed ? F_I32 : F_U32;
    return field_h5_type(t, file);
}

hid_t store_handle_type(int file)
{
#define H(name, member, type) FIELD(iodfg_handle, name, member, type)
    static const struct field f[] = {
        H("case", case_id, F_U32),
        H("pid", pid, F_I32),
        H("fd", fd, F_I32),
        H("path", path, F_U32),
        H("call", call, F_U32),
        H("flags", flags, F_U32),
        H("layer", layer, F_U32),
        H("parent", parent, F_U32),
        H("origin", origin, F_U32),
        H("mode", mode, F_I64),
        H("created", created_ns, F_I64),
        H("destroyed", destroyed_ns, F_I64),
        H("ops", ops, F_U64),
        H("bytes_read", bytes_read, F_U64),
        H("bytes_written", bytes_written, F_U64),
    };
#undef H
    return compound_type(sizeof(struct iodfg_handle), f, NFIELDS(f), file);
}

hid_t store_case_type(int file)
{
#define C(name, member, type) FIELD(store_case_row, name, member, type)
    static const struct field f[] = {
        C("name", name, F_U32),   C("cid", cid, F_U32),       C("host", host, F_U32),
        C("rid", rid, F_U32),     C("source", source, F_U32), C("naming", naming, F_U32),
        C("clock", clock, F_U32), C("first", first, F_U64),   C("rows", rows, F_U64),
        C("lines", lines, F_U64), C("bytes", bytes, F_U64),
    };
#undef C
    hid_t t = compound_type(sizeof(struct store_case_row), f, NFIELDS(f), file);
    // the counters follow, one field each, named as the counters are
    for (int c = 0; t >= 0 && c < IODFG_COUNT__N; c++) {
        size_t at = offsetof(struct store_case_row, counts) + (size_t)c * sizeof(uint64_t);
        if (H5Tinsert(t, iodfg_count_name((enum iodfg_count)c), at, field_h5_type(F_U64, file)) <
            0) {
            H5Tclose(t);
            return -1;
        }
    }
    return t;
}

hid_t store_block_sum_type(int file)
{
    hid_t t = H5Tcreate(H5T_COMPOUND, sizeof(struct store_block_sum));
    for (int c = 0; t >= 0 && c < STORE_C__N; c++) {
        size_t at = offsetof(struct store_block_sum, sum) + (size_t)c * sizeof(uint64_t);
        if (H5Tinsert(t, store_cols[c].name, at, field_h5_type(F_U64, file)) < 0) {
            H5Tclose(t);
            return -1;
        }
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
