/* SPDX-License-Identifier: MIT */
/* The MPI job's store (iodfg-mpi), the side of the processes other than 0: each codes its whole
 * chunks of the /events columns with the serial writer's codec, in parallel with the others, and
 * sends them to process 0 in one message with the rows of the chunks it shares with its
 * neighbours, its handle rows, stack ids and block sums (store_par_priv.h). Compiled only against
 * the MPI build of HDF5. */
#include "config.h"

#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <hdf5.h>

#include "iodfg/buf.h"
#include "iodfg/eventlog.h"
#include "iodfg/handles.h"
#include "iodfg/store_par.h"

#include "store_par_priv.h"
#include "store_stacks.h"
#include "store_write_priv.h"

#define PAR_TAG 41
#define PAR_DONE_TAG 42
#define PAR_PIECE ((uint64_t)1 << 24) // bytes per MPI message

struct store_par_cut store_par_cut_of(uint64_t first, uint64_t n)
{
    const uint64_t ch = STORE_EVENT_CHUNK_ROWS;
    uint64_t up = (first + ch - 1) / ch * ch, end = first + n;
    struct store_par_cut cut = {n, 0, 0};
    if (up < end) {
        cut.head = up - first;
        cut.nchunks = (end - up) / ch;
        cut.tail = end - up - cut.nchunks * ch;
    }
    return cut;
}

void store_par_rows(const struct iodfg_store_par_meta *meta,
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

int store_par_block_sums(const struct iodfg_store_par_meta *meta,
                         const struct iodfg_store_par_part *part, struct store_block_sum **out,
                         uint64_t *n)
{
    uint64_t mine = iodfg_eventlog_event_count(part->log), end = part->first + mine;
    *n = 0;
    for (uint32_t i = 0; i < meta->ncases; i++) {
        uint64_t at = meta->case_first[i];
        if (at >= part->first && at < end) {
            *n += store_blocks_of(meta->case_first[i + 1] - at);
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
                store_par_rows(meta, part, (enum store_col)c, at - part->first + a, k, buf);
                (*out)[b].sum[c] = store_sum_values(buf, k, store_cols[c].size);
            }
        }
    }
    free(buf);
    return rc;
}

int store_par_slab(hid_t d, hid_t mtype, uint64_t first, uint64_t n, const void *buf)
{
    hsize_t start[1] = {first}, count[1] = {n};
    hid_t fsp = H5Dget_space(d), msp = H5Screate_simple(1, count, NULL);
    int ok = fsp >= 0 && msp >= 0 &&
             H5Sselect_hyperslab(fsp, H5S_SELECT_SET, start, NULL, count, NULL) >= 0 &&
             H5Dwrite(d, mtype, msp, fsp, H5P_DEFAULT, buf) >= 0;
    if (msp >= 0) {
        H5Sclose(msp);
    }
    if (fsp >= 0) {
        H5Sclose(fsp);
    }
    return ok ? 0 : -1;
}

/* ---- the message ---- */

static uint64_t pad8(uint64_t n)
{
    return (n + 7) & ~(uint64_t)7;
}

/* n bytes at p, then zeros to a multiple of 8. */
static void add8(struct iodfg_buf *b, const void *p, uint64_t n)
{
    static const char zeros[8];
    if (n == 0) { // p may be NULL then
        return;
    }
    iodfg_buf_add(b, p, (size_t)n);
    iodfg_buf_add(b, zeros, (size_t)(pad8(n) - n));
}

/* Rows [at, at + n) of every column, column by column. */
static void add_rows(struct iodfg_buf *b, const struct iodfg_store_par_meta *meta,
                     const struct iodfg_store_par_part *part, uint64_t at, uint64_t n, void *tmp)
{
    for (int c = 0; c < STORE_C__N && n; c++) {
        store_par_rows(meta, part, (enum store_col)c, at, n, tmp);
        add8(b, tmp, n * store_cols[c].size);
    }
}

/* The whole chunks from row at on, coded; their lengths into sizes. The bytes added. */
static uint64_t add_chunks(struct iodfg_buf *b, const struct iodfg_store_par_meta *meta,
                           const struct iodfg_store_par_part *part, uint64_t at, uint64_t nchunks,
                           uint64_t *sizes, void *tmp, void *coded)
{
    const struct iodfg_columns *cols = iodfg_eventlog_columns(part->log);
    uint64_t len = 0;
    for (uint64_t i = 0; i < nchunks; i++, at += STORE_EVENT_CHUNK_ROWS) {
        for (int c = 0; c < STORE_C__N; c++) {
            const char *plain = store_plain_source(cols, (enum store_col)c);
            const void *rows = plain ? plain + at * store_cols[c].size : tmp;
            if (!plain) {
                store_par_rows(meta, part, (enum store_col)c, at, STORE_EVENT_CHUNK_ROWS, tmp);
            }
            uint64_t n = store_events_code((enum store_col)c, rows, coded);
            add8(b, coded, n);
            sizes[i * STORE_C__N + (uint64_t)c] = n;
            len += pad8(n);
        }
    }
    return len;
}

int store_par_pack(const struct iodfg_store_par_meta *meta, const struct iodfg_store_par_part *part,
                   struct iodfg_buf *b)
{
    uint64_t n = iodfg_eventlog_event_count(part->log);
    struct store_par_cut cut = store_par_cut_of(part->first, n);
    struct store_par_hdr h = {1, cut.head,       cut.nchunks, cut.tail,
                              0, part->nhandles, part->hbase, meta->stacks ? n : 0,
                              0};
    struct store_block_sum *sums = NULL;
    uint64_t *sizes = calloc((size_t)cut.nchunks * STORE_C__N + 1, sizeof(*sizes));
    void *tmp = malloc((size_t)STORE_EVENT_CHUNK_ROWS * 8);
    void *coded = malloc(store_events_code_bound());
    int rc = sizes && tmp && coded && store_par_block_sums(meta, part, &sums, &h.nsums) == 0 &&
                     iodfg_buf_add(b, &h, sizeof(h)) == 0
                 ? 0
                 : -1;
    if (rc == 0) {
        add_rows(b, meta, part, 0, cut.head, tmp);
        h.coded = add_chunks(b, meta, part, cut.head, cut.nchunks, sizes, tmp, coded);
        add8(b, sizes, cut.nchunks * STORE_C__N * sizeof(*sizes));
        add_rows(b, meta, part, n - cut.tail, cut.tail, tmp);
        add8(b, part->handles, (uint64_t)part->nhandles * sizeof(*part->handles));
        add8(b, part->stack_ids, h.nids * sizeof(uint32_t));
        add8(b, sums, h.nsums * sizeof(*sums));
        rc = b->failed ? -1 : 0;
    }
    if (rc) {
        iodfg_buf_clear(b);
        b->failed = 0;
        memset(&h, 0, sizeof(h));
        iodfg_buf_add(b, &h, sizeof(h));
    } else {
        memcpy(b->data, &h, sizeof(h)); // the coded bytes are known now
    }
    free(sums);
    free(sizes);
    free(tmp);
    free(coded);
    return rc;
}

/* Take the next piece of n bytes off *p (left: bytes left); NULL when too few are left. */
static const char *take(const char **p, uint64_t *left, uint64_t n)
{
    const char *at = *p;
    if (n > *left || pad8(n) > *left) {
        return NULL;
    }
    *p += pad8(n);
    *left -= pad8(n);
    return at;
}

/* Column by column rows rows off *p into cols. 0 or -1. */
static int take_rows(const char **p, uint64_t *left, uint64_t rows, const char **cols)
{
    for (int c = 0; c < STORE_C__N; c++) {
        if (rows > STORE_EVENT_CHUNK_ROWS ||
            !(cols[c] = take(p, left, rows * store_cols[c].size))) {
            return -1;
        }
    }
    return 0;
}

int store_par_view_of(const char *msg, uint64_t len, struct store_par_view *v)
{
    memset(v, 0, sizeof(*v));
    if (len < sizeof(v->h)) {
        return -1;
    }
    memcpy(&v->h, msg, sizeof(v->h));
    const char *p = msg + sizeof(v->h);
    uint64_t left = len - sizeof(v->h);
    const struct store_par_hdr *h = &v->h;
    if (!h->ok || h->nchunks > left || h->nhandles > left || h->nids > left || h->nsums > left ||
        take_rows(&p, &left, h->head, v->head) || !(v->coded = take(&p, &left, h->coded)) ||
        !(v->sizes = (const void *)take(&p, &left, h->nchunks * STORE_C__N * 8)) ||
        take_rows(&p, &left, h->tail, v->tail) ||
        !(v->handles = (const void *)take(&p, &left, h->nhandles * sizeof(*v->handles))) ||
        !(v->ids = (const void *)take(&p, &left, h->nids * 4)) ||
        !(v->sums = (const void *)take(&p, &left, h->nsums * sizeof(*v->sums)))) {
        return -1;
    }
    return 0;
}

/* ---- moving it ---- */

int store_par_send(MPI_Comm comm, const void *p, uint64_t len)
{
    int rc = MPI_Send(&len, 1, MPI_UINT64_T, 0, PAR_TAG, comm);
    for (uint64_t at = 0; rc == MPI_SUCCESS && at < len; at += PAR_PIECE) {
        uint64_t n = len - at < PAR_PIECE ? len - at : PAR_PIECE;
        rc = MPI_Send((const char *)p + at, (int)n, MPI_BYTE, 0, PAR_TAG, comm);
    }
    return rc == MPI_SUCCESS ? 0 : -1;
}

char *store_par_recv(MPI_Comm comm, int from, uint64_t *len)
{
    *len = 0;
    if (MPI_Recv(len, 1, MPI_UINT64_T, from, PAR_TAG, comm, MPI_STATUS_IGNORE) != MPI_SUCCESS) {
        return NULL;
    }
    char *buf = malloc(*len ? (size_t)*len : 1);
    char *drop = buf ? NULL : malloc((size_t)PAR_PIECE);
    int ok = buf != NULL;
    for (uint64_t at = 0; at < *len; at += PAR_PIECE) {
        uint64_t n = *len - at < PAR_PIECE ? *len - at : PAR_PIECE;
        char *to = buf ? buf + at : drop;
        if (!to ||
            MPI_Recv(to, (int)n, MPI_BYTE, from, PAR_TAG, comm, MPI_STATUS_IGNORE) != MPI_SUCCESS) {
            ok = 0;
        }
    }
    free(drop);
    if (!ok) {
        free(buf);
        return NULL;
    }
    return buf;
}

void store_par_done(MPI_Comm comm)
{
    int size = 1, done = 1;
    MPI_Comm_size(comm, &size);
    for (int q = 1; q < size; q++) {
        MPI_Send(&done, 1, MPI_INT, q, PAR_DONE_TAG, comm);
    }
}

void store_par_wait_done(MPI_Comm comm)
{
    int done = 0, flag = 0;
    MPI_Request req;
    if (MPI_Irecv(&done, 1, MPI_INT, 0, PAR_DONE_TAG, comm, &req) != MPI_SUCCESS) {
        return;
    }
    struct timespec nap = {0, 100000}; // 0.1 ms, doubling to 2 ms
    while (MPI_Test(&req, &flag, MPI_STATUS_IGNORE) == MPI_SUCCESS && !flag) {
        nanosleep(&nap, NULL);
        nap.tv_nsec = nap.tv_nsec < 1000000 ? nap.tv_nsec * 2 : 2000000;
    }
}
