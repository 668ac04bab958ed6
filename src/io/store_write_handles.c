/* SPDX-License-Identifier: MIT */
/* HDF5 store, writing side: the handle table a writer gathers from its source logs, kept in
 * fixed blocks and written as /handles at commit. A doubling array was copied at every growth
 * and faulted in twice over; with blocks every row is written once where it stays. */
#include "config.h"

#include <stdlib.h>

#include <hdf5.h>

#include "iodfg/bigmem.h"
#include "iodfg/handles.h"

#include "store_priv.h"
#include "store_write_priv.h"

/* Rows per block: 4 MiB of rows, two whole huge pages (iodfg/bigmem.h). */
#define BLOCK_ROWS ((uint32_t)(((size_t)4 << 20) / sizeof(struct iodfg_handle)))

/* Rows of the first block until it fills: a log with few handles stays small. */
#define FIRST_ROWS 256u

struct iodfg_handle *store_handle_table_next(struct store_handle_table *t)
{
    if (t->n == UINT32_MAX - 1) {
        return NULL;
    }
    uint32_t b = t->n / BLOCK_ROWS;
    if (b == t->nblocks) {
        if (t->nblocks == t->blocks_cap) {
            uint32_t cap = t->blocks_cap ? t->blocks_cap * 2 : 8;
            struct iodfg_handle **p = realloc(t->block, (size_t)cap * sizeof(*p));
            if (!p) {
                return NULL;
            }
            t->block = p;
            t->blocks_cap = cap;
        }
        size_t rows = b ? BLOCK_ROWS : FIRST_ROWS;
        t->block[b] = iodfg_bigmem_alloc(rows * sizeof(struct iodfg_handle));
        if (!t->block[b]) {
            return NULL;
        }
        t->nblocks++;
    } else if (t->n == FIRST_ROWS) { // the small first block is full: a whole one
        struct iodfg_handle *p = iodfg_bigmem_realloc(t->block[0], (size_t)t->n * sizeof(*p),
                                                      (size_t)BLOCK_ROWS * sizeof(*p));
        if (!p) {
            return NULL;
        }
        t->block[0] = p;
    }
    struct iodfg_handle *h = &t->block[b][t->n % BLOCK_ROWS];
    t->n++;
    return h;
}

void store_handle_table_free(struct store_handle_table *t)
{
    for (uint32_t b = 0; b < t->nblocks; b++) {
        free(t->block[b]);
    }
    free(t->block);
    *t = (struct store_handle_table){0};
}

int store_handle_table_write(hid_t file, const struct store_handle_table *t)
{
    hid_t ft = store_handle_type(1), mt = store_handle_type(0);
    hsize_t dims[1] = {t->n};
    hid_t sp = H5Screate_simple(1, dims, NULL);
    hid_t d = ft < 0 || mt < 0 || sp < 0
                  ? -1
                  : H5Dcreate2(file, STORE_HANDLES, ft, sp, H5P_DEFAULT, H5P_DEFAULT, H5P_DEFAULT);
    int rc = d < 0 ? -1 : 0;
    uint64_t sum = 0; // of the rows, as for every table (store_priv.h)
    for (uint32_t b = 0; rc == 0 && b < t->nblocks; b++) {
        uint64_t first = (uint64_t)b * BLOCK_ROWS;
        uint64_t n = t->n - first < BLOCK_ROWS ? t->n - first : BLOCK_ROWS;
        rc = n ? store_h5_rows(d, mt, first, n, t->block[b], 1) : 0;
        sum += n ? store_sum_rows(mt, t->block[b], n, first) : 0;
    }
    rc = rc || store_attr_u64(d, STORE_CHECKSUM, sum) ? -1 : 0;
    if (d >= 0) {
        H5Dclose(d);
    }
    if (sp >= 0) {
        H5Sclose(sp);
    }
    if (ft >= 0) {
        H5Tclose(ft);
    }
    if (mt >= 0) {
        H5Tclose(mt);
    }
    return rc;
}
