/* SPDX-License-Identifier: MIT */
/* HDF5 store, strace -k stacks (4.2): the /stacks group with the frame table, the stacks as runs
 * of frame rows, and one stack id per /events row. Written only when some event has a stack. */
#include "config.h"

#include "store_stacks.h"

#include <stdlib.h>
#include <string.h>

#include <hdf5.h>

#include "iodfg/error.h"
#include "iodfg/eventlog.h"
#include "iodfg/stacks.h"

#include "store_priv.h"
#include "store_reader.h"

void store_stacks_init(struct store_stack_writer *sw)
{
    memset(sw, 0, sizeof(*sw));
}

void store_stacks_fini(struct store_stack_writer *sw)
{
    iodfg_stacks_free(sw->stacks);
    free(sw->ids);
    memset(sw, 0, sizeof(*sw));
}

static int room(struct store_stack_writer *sw, uint64_t n)
{
    if (n <= sw->cap) {
        return 0;
    }
    uint64_t cap = sw->cap ? sw->cap : 4096;
    while (cap < n) {
        cap *= 2;
    }
    uint32_t *p = realloc(sw->ids, (size_t)cap * sizeof(*p));
    if (!p) {
        return -1;
    }
    sw->ids = p;
    sw->cap = cap;
    return 0;
}

int store_stacks_add(struct store_stack_writer *sw, const struct iodfg_eventlog *src,
                     const uint32_t *smap, uint64_t rows_before)
{
    const struct iodfg_stacks *st = iodfg_eventlog_stacks(src);
    uint64_t n = iodfg_eventlog_event_count(src);
    if (!st && !sw->stacks) {
        return 0; // no stacks so far: nothing to keep
    }
    if (!sw->stacks) { // the first log with stacks: the rows before it have none
        if (!(sw->stacks = iodfg_stacks_new()) || room(sw, rows_before + n)) {
            return -1;
        }
        memset(sw->ids, 0, (size_t)rows_before * sizeof(*sw->ids));
        sw->n = rows_before;
    }
    if (room(sw, sw->n + n)) {
        return -1;
    }
    if (!st) {
        memset(sw->ids + sw->n, 0, (size_t)n * sizeof(*sw->ids));
    } else {
        uint32_t *map = iodfg_stacks_merge(sw->stacks, st, smap);
        if (!map) {
            return -1;
        }
        const uint32_t *ids = iodfg_eventlog_stack_ids(src);
        for (uint64_t i = 0; i < n; i++) {
            sw->ids[sw->n + i] = map[ids[i]];
        }
        free(map);
    }
    sw->n += n;
    return 0;
}

/* A 1-D dataset of n values with its checksum, deflated in chunks when large. */
int store_stacks_put(void *ctx, hid_t g, const char *name, hid_t ft, hid_t mt, const void *data,
                     uint64_t n)
{
    (void)ctx;
    hsize_t dims[1] = {n}, chunk[1] = {n < 65536 ? (n ? n : 1) : 65536};
    hid_t sp = H5Screate_simple(1, dims, NULL), pl = H5Pcreate(H5P_DATASET_CREATE);
    if (pl >= 0 && n >= 4096) {
        H5Pset_chunk(pl, 1, chunk);
        H5Pset_deflate(pl, 4);
    }
    hid_t d = sp < 0 || pl < 0 ? -1 : H5Dcreate2(g, name, ft, sp, H5P_DEFAULT, pl, H5P_DEFAULT);
    int rc = d < 0 || (n > 0 && H5Dwrite(d, mt, H5S_ALL, H5S_ALL, H5P_DEFAULT, data) < 0);
    rc = rc || store_stacks_checksum(d, store_sum_of(mt, data, n));
    if (d >= 0) {
        H5Dclose(d);
    }
    if (pl >= 0) {
        H5Pclose(pl);
    }
    if (sp >= 0) {
        H5Sclose(sp);
    }
    return rc ? -1 : 0;
}

int store_stacks_checksum(hid_t d, uint64_t sum)
{
    hid_t as = H5Screate(H5S_SCALAR);
    hid_t a =
        as < 0 ? -1 : H5Acreate2(d, STORE_CHECKSUM, H5T_STD_U64LE, as, H5P_DEFAULT, H5P_DEFAULT);
    int rc = a < 0 || H5Awrite(a, H5T_NATIVE_UINT64, &sum) < 0;
    if (a >= 0) {
        H5Aclose(a);
    }
    if (as >= 0) {
        H5Sclose(as);
    }
    return rc ? -1 : 0;
}

// The frame table as columns; u32 members (object, function, flags) then u64 ones.
static int put_frames(hid_t g, const struct iodfg_stacks *st, store_stacks_put_fn put_fn, void *ctx)
{
    uint32_t nf = iodfg_stacks_frame_count(st);
    const struct iodfg_frame *fr = iodfg_stacks_frames(st);
    uint64_t *col = malloc(((size_t)nf + 1) * sizeof(*col));
    uint32_t *c32 = (uint32_t *)col;
    static const char *const n32[] = {STORE_FRAME_OBJECT, STORE_FRAME_FUNCTION, STORE_FRAME_FLAGS};
    static const char *const n64[] = {STORE_FRAME_OFFSET, STORE_FRAME_ADDRESS};
    int rc = col ? 0 : -1;
    for (int k = 0; rc == 0 && k < 3; k++) {
        for (uint32_t f = 0; f < nf; f++) {
            c32[f] = k == 0 ? fr[f].object : k == 1 ? fr[f].function : fr[f].flags;
        }
        rc = put_fn(ctx, g, n32[k], H5T_STD_U32LE, H5T_NATIVE_UINT32, c32, nf);
    }
    for (int k = 0; rc == 0 && k < 2; k++) {
        for (uint32_t f = 0; f < nf; f++) {
            col[f] = k == 0 ? fr[f].offset : fr[f].address;
        }
        rc = put_fn(ctx, g, n64[k], H5T_STD_U64LE, H5T_NATIVE_UINT64, col, nf);
    }
    free(col);
    return rc;
}

int store_stacks_write_tables(hid_t g, const struct iodfg_stacks *st, store_stacks_put_fn put_fn,
                              void *ctx)
{
    uint32_t ns = iodfg_stacks_count(st);
    const uint64_t *off = iodfg_stacks_offsets(st);
    uint64_t nids = off[ns];
    // frame rows from 0 in the file (frame ids count from 1 in memory)
    uint32_t *rows = malloc(((size_t)nids + 1) * sizeof(*rows));
    if (!rows) {
        return -1;
    }
    const uint32_t *ids = iodfg_stacks_ids(st);
    for (uint64_t i = 0; i < nids; i++) {
        rows[i] = ids[i] - 1;
    }
    int rc =
        put_frames(g, st, put_fn, ctx) ||
                put_fn(ctx, g, STORE_STACK_OFFSETS, H5T_STD_U64LE, H5T_NATIVE_UINT64, off,
                       (uint64_t)ns + 1) ||
                put_fn(ctx, g, STORE_STACK_FRAMES, H5T_STD_U32LE, H5T_NATIVE_UINT32, rows, nids)
            ? -1
            : 0;
    free(rows);
    return rc;
}

int store_stacks_write(hid_t file, const struct store_stack_writer *sw)
{
    hid_t g = H5Gcreate2(file, STORE_STACKS, H5P_DEFAULT, H5P_DEFAULT, H5P_DEFAULT);
    int rc = -1;
    if (g >= 0) {
        rc = store_stacks_write_tables(g, sw->stacks, store_stacks_put, NULL) ||
                     store_stacks_put(NULL, g, STORE_EVENT_STACK, H5T_STD_U32LE, H5T_NATIVE_UINT32, sw->ids,
                         sw->n)
                 ? -1
                 : 0;
        H5Gclose(g);
    }
    return rc;
}

/* ---- reading ----------------------------------------------------------------------------------
 */

struct stack_arrays {
    void *obj, *fn, *flags, *off64, *addr, *soff, *sframes, *ev;
    uint64_t nf, ns1, nids, nev;
};

static void arrays_free(struct stack_arrays *a)
{
    free(a->obj);
    free(a->fn);
    free(a->flags);
    free(a->off64);
    free(a->addr);
    free(a->soff);
    free(a->sframes);
    free(a->ev);
}

static int read_arrays(struct reader *r, struct stack_arrays *a)
{
    uint64_t n1, n2, n3, n4;
    if (store_get_array(r, STORE_STACKS "/" STORE_FRAME_OBJECT, H5T_NATIVE_UINT32, 4, UINT32_MAX,
                        &a->nf, &a->obj) ||
        store_get_array(r, STORE_STACKS "/" STORE_FRAME_FUNCTION, H5T_NATIVE_UINT32, 4, UINT32_MAX,
                        &n1, &a->fn) ||
        store_get_array(r, STORE_STACKS "/" STORE_FRAME_FLAGS, H5T_NATIVE_UINT32, 4, UINT32_MAX,
                        &n2, &a->flags) ||
        store_get_array(r, STORE_STACKS "/" STORE_FRAME_OFFSET, H5T_NATIVE_UINT64, 8, UINT32_MAX,
                        &n3, &a->off64) ||
        store_get_array(r, STORE_STACKS "/" STORE_FRAME_ADDRESS, H5T_NATIVE_UINT64, 8, UINT32_MAX,
                        &n4, &a->addr) ||
        store_get_array(r, STORE_STACKS "/" STORE_STACK_OFFSETS, H5T_NATIVE_UINT64, 8, UINT32_MAX,
                        &a->ns1, &a->soff) ||
        store_get_array(r, STORE_STACKS "/" STORE_STACK_FRAMES, H5T_NATIVE_UINT32, 4, UINT64_MAX,
                        &a->nids, &a->sframes) ||
        store_get_array(r, STORE_STACKS "/" STORE_EVENT_STACK, H5T_NATIVE_UINT32, 4, UINT64_MAX,
                        &a->nev, &a->ev)) {
        return -1;
    }
    if (n1 != a->nf || n2 != a->nf || n3 != a->nf || n4 != a->nf || a->ns1 == 0 ||
        ((const uint64_t *)a->soff)[a->ns1 - 1] != a->nids) {
        return store_damaged(r, "%s", "the tables of /stacks do not agree in length");
    }
    return 0;
}

// The table from the file's arrays (frame rows from 0 become ids from 1).
static struct iodfg_stacks *make_table(struct reader *r, struct stack_arrays *a)
{
    struct iodfg_frame *fr = malloc(((size_t)a->nf + 1) * sizeof(*fr));
    uint32_t *ids = a->sframes;
    if (!fr) {
        iodfg_error_set(r->err, IODFG_E_NOMEM, NULL);
        return NULL;
    }
    for (uint64_t f = 0; f < a->nf; f++) {
        fr[f] = (struct iodfg_frame){((uint32_t *)a->obj)[f], ((uint32_t *)a->fn)[f],
                                     ((uint32_t *)a->flags)[f], ((uint64_t *)a->off64)[f],
                                     ((uint64_t *)a->addr)[f]};
    }
    for (uint64_t i = 0; i < a->nids; i++) {
        ids[i] = ids[i] < UINT32_MAX ? ids[i] + 1 : 0; // 0: refused below
    }
    struct iodfg_stacks *st =
        iodfg_stacks_from_raw(fr, (uint32_t)a->nf, a->soff, ids, (uint32_t)(a->ns1 - 1), r->err);
    free(fr);
    if (!st) {
        iodfg_error_at(r->err, r->path, 0, 0);
    }
    return st;
}

int store_stacks_load(struct reader *r, const uint64_t *first, const uint64_t *rows,
                      uint32_t ncases)
{
    htri_t ex = H5Lexists(r->file, STORE_STACKS, H5P_DEFAULT);
    if (ex <= 0) {
        return ex == 0 ? 0 : store_damaged(r, "cannot find table %s", STORE_STACKS);
    }
    struct stack_arrays a = {0};
    struct iodfg_stacks *st = NULL;
    uint64_t total = 0;
    for (uint32_t i = 0; i < ncases; i++) {
        total += rows[i];
    }
    uint32_t *ids = NULL;
    int rc = -1;
    if (read_arrays(r, &a) == 0 && (st = make_table(r, &a)) != NULL) {
        ids = malloc(((size_t)total + 1) * sizeof(*ids));
        uint64_t at = 0;
        for (uint32_t i = 0; ids && i < ncases; i++) {
            if (first[i] > a.nev || rows[i] > a.nev - first[i]) {
                store_damaged(r, "%s", "/stacks/event_stack is shorter than /events");
                goto out;
            }
            memcpy(ids + at, (uint32_t *)a.ev + first[i], (size_t)rows[i] * sizeof(*ids));
            at += rows[i];
        }
        if (!ids) {
            iodfg_error_set(r->err, IODFG_E_NOMEM, NULL);
            goto out;
        }
        rc = iodfg_eventlog_adopt_stacks(r->log, st, ids, r->err);
        st = NULL;
        ids = NULL;
        if (rc) {
            iodfg_error_at(r->err, r->path, 0, 0);
        }
    }
out:
    iodfg_stacks_free(st);
    free(ids);
    arrays_free(&a);
    return rc;
}
