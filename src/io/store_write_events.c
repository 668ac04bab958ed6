/* SPDX-License-Identifier: MIT */
/* HDF5 store, writing side: the /events columns (4.0). Rows are gathered in one chunk-sized
 * buffer per column; each whole chunk is coded by our scale-offset codec (the bytes HDF5's
 * filter would write, store_codec.h) and written with H5Dwrite_chunk, the deflate filter
 * marked as skipped, so that a loader can read and decode any rows with pread. The last,
 * partial chunk is padded with the fill value, coded and then deflated with zlib, as HDF5's
 * two filters would (the padding then costs almost nothing on disk; HDF5's own scale-offset
 * coder took longer for that one chunk than ours for all the others). On request each case
 * group gets a virtual view of its rows of every column. */
#include "config.h"

#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <zlib.h>
#include <sys/stat.h>

#include <hdf5.h>

#include "iodfg/bigmem.h"

#include "store_codec.h"
#include "store_priv.h"
#include "store_write_priv.h"

/* The scale-offset parameters of column c's chunks. */
static struct store_so_params so_params(enum store_col c)
{
    struct store_so_params p = {store_cols[c].size, store_cols[c].is_signed, 1, store_col_fill(c),
                                STORE_EVENT_CHUNK_ROWS};
    return p;
}

hid_t store_event_column_create(hid_t g, enum store_col c, uint64_t rows, int deflate)
{
    hsize_t dims[1] = {rows}, maxdims[1] = {H5S_UNLIMITED}, chunk[1] = {STORE_EVENT_CHUNK_ROWS};
    hid_t sp = H5Screate_simple(1, dims, maxdims);
    hid_t dcpl = H5Pcreate(H5P_DATASET_CREATE);
    hid_t d = -1;
    uint64_t fill64 = store_col_fill(c);
    uint32_t fill32 = (uint32_t)fill64;
    const void *fill = store_cols[c].size == 8 ? (const void *)&fill64 : &fill32;
    if (sp >= 0 && dcpl >= 0 && H5Pset_chunk(dcpl, 1, chunk) >= 0 &&
        H5Pset_fill_value(dcpl, store_col_type(c, 0), fill) >= 0 &&
        H5Pset_scaleoffset(dcpl, H5Z_SO_INT, H5Z_SO_INT_MINBITS_DEFAULT) >= 0 &&
        (!deflate || H5Pset_deflate(dcpl, 1) >= 0) &&
        H5Pset_fill_time(dcpl, H5D_FILL_TIME_IFSET) >= 0) {
        d = H5Dcreate2(g, store_cols[c].name, store_col_type(c, 1), sp, H5P_DEFAULT, dcpl,
                       H5P_DEFAULT);
    }
    if (dcpl >= 0) {
        H5Pclose(dcpl);
    }
    if (sp >= 0) {
        H5Sclose(sp);
    }
    return d;
}

void store_events_init(struct store_events *ev)
{
    memset(ev, 0, sizeof(*ev));
    ev->group = -1;
    ev->fd = -1;
    for (int c = 0; c < STORE_C__N; c++) {
        ev->d[c] = -1;
    }
}

/* The descriptor of a file written through HDF5's default driver (sec2), else -1. */
static int file_fd(hid_t file)
{
    hid_t fapl = H5Fget_access_plist(file);
    int fd = -1, *h = NULL;
    if (fapl >= 0 && H5Pget_driver(fapl) == H5FD_SEC2 &&
        H5Fget_vfd_handle(file, H5P_DEFAULT, (void **)&h) >= 0 && h) {
        fd = *h;
    }
    if (fapl >= 0) {
        H5Pclose(fapl);
    }
    return fd;
}

/* Chunks (of about 1 MiB coded, all columns) between two starts of the kernel's writeback. */
#define WRITEBACK_CHUNKS 4
/* Bytes at the end of the file left to the fsync: pages still being written would be written
 * twice, and a write into a page under writeback waits for it. */
#define WRITEBACK_LAG ((off_t)4 << 20)

/* Every few chunks, start writing the file's dirty pages to disk without waiting: the fsync
 * of the commit then finds little left, where it waited 40-80 ms for the whole log. */
static void writeback(const struct store_events *ev)
{
#ifdef SYNC_FILE_RANGE_WRITE
    struct stat st;
    if (ev->fd >= 0 && ev->chunks % WRITEBACK_CHUNKS == 0 && fstat(ev->fd, &st) == 0 &&
        st.st_size > WRITEBACK_LAG) {
        // advice only (errors come at the fsync)
        (void)sync_file_range(ev->fd, 0, st.st_size - WRITEBACK_LAG, SYNC_FILE_RANGE_WRITE);
    }
#else
    (void)ev;
#endif
}

/* Bytes rounded up to a cache line. */
static size_t lines_of(size_t bytes)
{
    return (bytes + 63) & ~(size_t)63;
}

/* The buffers in one block on huge pages: a convert touches them all at least once (the last
 * chunk is padded), and faulting in their 4 KiB pages one by one cost more than the rest of
 * converting a small trace. */
static int alloc_buffers(struct store_events *ev)
{
    struct store_so_params widest = so_params(STORE_C_START);
    size_t coded = lines_of(store_so_bound(&widest)), at = 0;
    ev->zcap = (size_t)compressBound((uLong)store_so_bound(&widest));
    for (int c = 0; c < STORE_C__N; c++) {
        at += lines_of((size_t)STORE_EVENT_CHUNK_ROWS * store_cols[c].size);
    }
    unsigned char *b = iodfg_bigmem_alloc(at + coded + ev->zcap);
    if (!b) {
        return -1;
    }
    ev->block = b;
    at = 0;
    for (int c = 0; c < STORE_C__N; c++) {
        ev->buf[c] = b + at;
        at += lines_of((size_t)STORE_EVENT_CHUNK_ROWS * store_cols[c].size);
    }
    ev->coded = b + at;
    ev->z = b + at + coded;
    return 0;
}

int store_events_create(struct store_events *ev, hid_t file)
{
    ev->group = H5Gcreate2(file, STORE_EVENT_GROUP, H5P_DEFAULT, H5P_DEFAULT, H5P_DEFAULT);
    if (ev->group < 0 || alloc_buffers(ev)) {
        return -1;
    }
    for (int c = 0; c < STORE_C__N; c++) {
        ev->d[c] = store_event_column_create(ev->group, (enum store_col)c, 0, 1);
        if (ev->d[c] < 0) {
            return -1;
        }
    }
    ev->fd = file_fd(file);
    return 0;
}

void store_events_free(struct store_events *ev)
{
    for (int c = 0; c < STORE_C__N; c++) {
        if (ev->d[c] >= 0) {
            H5Dclose(ev->d[c]);
        }
        ev->d[c] = -1;
        ev->buf[c] = NULL;
    }
    free(ev->block);
    ev->block = NULL;
    ev->fd = -1; // HDF5's: closed with the file
    ev->coded = ev->z = NULL;
    if (ev->group >= 0) {
        H5Gclose(ev->group);
    }
    ev->group = -1;
}

/* Column c's chunk number ev->chunks, bytes coded by us (filter mask: deflate, the second
 * filter, skipped), with the columns extended to hold it. */
static int put_coded(struct store_events *ev, enum store_col c, const void *coded, size_t bytes)
{
    hsize_t dims[1] = {((hsize_t)ev->chunks + 1) * STORE_EVENT_CHUNK_ROWS};
    hsize_t offset[1] = {(hsize_t)ev->chunks * STORE_EVENT_CHUNK_ROWS};
    return H5Dset_extent(ev->d[c], dims) < 0 ||
                   H5Dwrite_chunk(ev->d[c], H5P_DEFAULT, STORE_MASK_DEFLATE_SKIPPED, offset, bytes,
                                  coded) < 0
               ? -1
               : 0;
}

/* Write chunk number ev->chunks, scale-offset coded by us, from column c's rows at from[c], or
 * in its buffer where that is NULL. */
static int write_chunk(struct store_events *ev, const void *const *from)
{
    for (int c = 0; c < STORE_C__N; c++) {
        struct store_so_params p = so_params((enum store_col)c);
        size_t bytes = store_so_encode(&p, from && from[c] ? from[c] : ev->buf[c], ev->coded);
        if (put_coded(ev, (enum store_col)c, ev->coded, bytes)) {
            return -1;
        }
    }
    ev->chunks++;
    ev->fill = 0;
    writeback(ev);
    return 0;
}

size_t store_events_code_bound(void)
{
    struct store_so_params widest = so_params(STORE_C_START);
    return store_so_bound(&widest);
}

size_t store_events_code(enum store_col c, const void *rows, void *out)
{
    struct store_so_params p = so_params(c);
    return store_so_encode(&p, rows, out);
}

int store_events_put_coded(struct store_events *ev, const void *const *coded,
                           const uint64_t *bytes)
{
    if (ev->fill != 0) {
        return -1;
    }
    for (int c = 0; c < STORE_C__N; c++) {
        if (put_coded(ev, (enum store_col)c, coded[c], (size_t)bytes[c])) {
            return -1;
        }
    }
    ev->rows += STORE_EVENT_CHUNK_ROWS;
    ev->chunks++;
    writeback(ev);
    return 0;
}

uint32_t store_events_room(const struct store_events *ev)
{
    return STORE_EVENT_CHUNK_ROWS - ev->fill;
}

void *store_events_slot(const struct store_events *ev, enum store_col c)
{
    return (char *)ev->buf[c] + (size_t)ev->fill * store_cols[c].size;
}

int store_events_advance(struct store_events *ev, uint32_t n)
{
    ev->fill += n;
    ev->rows += n;
    return ev->fill == STORE_EVENT_CHUNK_ROWS ? write_chunk(ev, NULL) : 0;
}

int store_events_put_chunk(struct store_events *ev, const void *const *from)
{
    if (ev->fill != 0) {
        return -1;
    }
    ev->rows += STORE_EVENT_CHUNK_ROWS;
    return write_chunk(ev, from);
}

/* Values [from, rows) of a buffer of column c set to the column's fill value. */
static void pad_with_fill(void *buf, enum store_col c, uint32_t from, uint32_t rows)
{
    uint64_t fill = store_col_fill(c);
    if (store_cols[c].size == 8) {
        for (uint32_t i = from; i < rows; i++) {
            ((uint64_t *)buf)[i] = fill;
        }
    } else {
        for (uint32_t i = from; i < rows; i++) {
            ((uint32_t *)buf)[i] = (uint32_t)fill;
        }
    }
}

int store_events_finish(struct store_events *ev)
{
    hsize_t dims[1] = {ev->rows}, offset[1] = {(hsize_t)ev->chunks * STORE_EVENT_CHUNK_ROWS};
    int rc = 0;
    for (int c = 0; rc == 0 && c < STORE_C__N; c++) {
        rc = H5Dset_extent(ev->d[c], dims) < 0 ? -1 : 0;
        if (rc == 0 && ev->fill > 0) {
            // the last chunk: both filters applied (mask 0), as HDF5 would have
            struct store_so_params p = so_params((enum store_col)c);
            pad_with_fill(ev->buf[c], (enum store_col)c, ev->fill, STORE_EVENT_CHUNK_ROWS);
            size_t bytes = store_so_encode(&p, ev->buf[c], ev->coded);
            uLongf zbytes = (uLongf)ev->zcap;
            rc = compress2(ev->z, &zbytes, ev->coded, (uLong)bytes, 1) != Z_OK ||
                         H5Dwrite_chunk(ev->d[c], H5P_DEFAULT, 0, offset, zbytes, ev->z) < 0
                     ? -1
                     : 0;
        }
    }
    ev->fill = 0;
    return rc;
}

/* Case group g's dataset of column c: a virtual view of rows [first, first + n) of
 * /events/<c> (a plain empty dataset for an empty case: a view needs a selection). */
static int create_view(hid_t g, enum store_col c, uint64_t first, uint64_t n)
{
    hsize_t dims[1] = {n}, src_dims[1] = {first + n}, src_max[1] = {H5S_UNLIMITED};
    hsize_t start[1] = {first}, count[1] = {n};
    hid_t vsp = H5Screate_simple(1, dims, NULL);
    hid_t ssp = n ? H5Screate_simple(1, src_dims, src_max) : -1;
    hid_t dcpl = H5Pcreate(H5P_DATASET_CREATE);
    char src[64];
    snprintf(src, sizeof(src), "/%s/%s", STORE_EVENT_GROUP, store_cols[c].name);
    int ok = vsp >= 0 && dcpl >= 0 &&
             (n == 0 || (ssp >= 0 &&
                         H5Sselect_hyperslab(ssp, H5S_SELECT_SET, start, NULL, count, NULL) >= 0 &&
                         H5Pset_virtual(dcpl, vsp, ".", src, ssp) >= 0));
    hid_t d = ok ? H5Dcreate2(g, store_cols[c].name, store_col_type(c, 1), vsp, H5P_DEFAULT, dcpl,
                              H5P_DEFAULT)
                 : -1;
    if (d >= 0) {
        H5Dclose(d);
    }
    if (dcpl >= 0) {
        H5Pclose(dcpl);
    }
    if (ssp >= 0) {
        H5Sclose(ssp);
    }
    if (vsp >= 0) {
        H5Sclose(vsp);
    }
    return d >= 0 ? 0 : -1;
}

int store_events_views(hid_t g, uint64_t first, uint64_t n)
{
    for (int c = 0; c < STORE_C__N; c++) {
        if (create_view(g, (enum store_col)c, first, n)) {
            return -1;
        }
    }
    return 0;
}
