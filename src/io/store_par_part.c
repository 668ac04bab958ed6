/* SPDX-License-Identifier: MIT */
/* The MPI job's store (iodfg-mpi), the side of the processes other than 0: each codes its whole
 * chunks of the /events columns with the serial writer's codec, in parallel with the others, and
 * sends them to process 0 a few chunks a message, coding the next while process 0 writes the
 * last, with the rows of the chunks it shares with its neighbours, its handle rows, stack ids and
 * block sums (store_par_priv.h); every wait sleeps between looks. Compiled only against the MPI
 * build of HDF5. */
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

/* The message of the part's rows [at, at + n) that are not whole chunks (head or tail), into b. */
static void pack_rows(struct iodfg_buf *b, const struct iodfg_store_par_meta *meta,
                      const struct iodfg_store_par_part *part, uint64_t at, uint64_t n, void *tmp)
{
    struct store_par_hdr h = {.ok = 1, .head = n};
    iodfg_buf_clear(b);
    iodfg_buf_add(b, &h, sizeof(h));
    add_rows(b, meta, part, at, n, tmp);
}

/* The message of nchunks whole chunks from row at on: their lengths, then the chunks coded. */
static void pack_chunks(struct iodfg_buf *b, const struct iodfg_store_par_meta *meta,
                        const struct iodfg_store_par_part *part, uint64_t at, uint64_t nchunks,
                        void *tmp, void *coded)
{
    uint64_t sizes[STORE_PAR_BATCH * STORE_C__N] = {0};
    struct store_par_hdr h = {.ok = 1, .nchunks = nchunks};
    iodfg_buf_clear(b);
    iodfg_buf_add(b, &h, sizeof(h));
    iodfg_buf_add(b, sizes, (size_t)nchunks * STORE_C__N * sizeof(*sizes)); // filled below
    h.coded = add_chunks(b, meta, part, at, nchunks, sizes, tmp, coded);
    if (!b->failed) {
        memcpy(b->data, &h, sizeof(h));
        memcpy(b->data + sizeof(h), sizes, (size_t)nchunks * STORE_C__N * sizeof(*sizes));
    }
}

/* The last message: the tail rows, the handle rows, the stack ids and the block sums. */
static int pack_last(struct iodfg_buf *b, const struct iodfg_store_par_meta *meta,
                     const struct iodfg_store_par_part *part, uint64_t tail, void *tmp)
{
    uint64_t n = iodfg_eventlog_event_count(part->log);
    struct store_par_hdr h = {.ok = 1,
                              .tail = tail,
                              .nhandles = part->nhandles,
                              .hbase = part->hbase,
                              .nids = meta->stacks ? n : 0,
                              .last = 1};
    struct store_block_sum *sums = NULL;
    int rc = store_par_block_sums(meta, part, &sums, &h.nsums);
    iodfg_buf_clear(b);
    iodfg_buf_add(b, &h, sizeof(h));
    add_rows(b, meta, part, n - tail, tail, tmp);
    add8(b, part->handles, (uint64_t)part->nhandles * sizeof(*part->handles));
    add8(b, part->stack_ids, h.nids * sizeof(uint32_t));
    add8(b, sums, h.nsums * sizeof(*sums));
    free(sums);
    return rc;
}

/* A message that says the process failed (and ends its part). */
static void pack_failed(struct iodfg_buf *b)
{
    struct store_par_hdr h = {.last = 1};
    iodfg_buf_clear(b);
    b->failed = 0;
    iodfg_buf_add(b, &h, sizeof(h));
}

/* Sends in flight from one of two buffers, so that the next is coded while process 0 takes the
 * last: the length, then the bytes (in pieces MPI counts in an int). */
struct outbox {
    struct iodfg_buf b;
    uint64_t len;
    MPI_Request *req; // the length's, then one per piece
    int nreq;
};

static void outbox_wait(struct outbox *o)
{
    for (int i = 0; i < o->nreq; i++) {
        iodfg_store_par_wait(&o->req[i]);
    }
    o->nreq = 0;
    free(o->req);
    o->req = NULL;
}

static int outbox_post(MPI_Comm comm, struct outbox *o)
{
    o->len = o->b.len;
    o->req = malloc((size_t)(2 + o->len / PAR_PIECE) * sizeof(*o->req));
    if (!o->req) {
        return -1;
    }
    int rc = MPI_Isend(&o->len, 1, MPI_UINT64_T, 0, PAR_TAG, comm, &o->req[o->nreq++]);
    for (uint64_t at = 0; rc == MPI_SUCCESS && at < o->len; at += PAR_PIECE) {
        uint64_t n = o->len - at < PAR_PIECE ? o->len - at : PAR_PIECE;
        rc = MPI_Isend(o->b.data + at, (int)n, MPI_BYTE, 0, PAR_TAG, comm, &o->req[o->nreq++]);
    }
    return rc == MPI_SUCCESS ? 0 : -1;
}

int store_par_send_part(MPI_Comm comm, const struct iodfg_store_par_meta *meta,
                        const struct iodfg_store_par_part *part)
{
    uint64_t n = iodfg_eventlog_event_count(part->log);
    struct store_par_cut cut = store_par_cut_of(part->first, n);
    struct outbox box[2];
    memset(box, 0, sizeof(box));
    iodfg_buf_init(&box[0].b);
    iodfg_buf_init(&box[1].b);
    void *tmp = malloc((size_t)STORE_EVENT_CHUNK_ROWS * 8);
    void *coded = malloc(store_events_code_bound());
    int rc = tmp && coded ? 0 : -1, k = 0;
    if (rc == 0) {
        pack_rows(&box[0].b, meta, part, 0, cut.head, tmp);
        rc = box[0].b.failed || outbox_post(comm, &box[0]) ? -1 : 0;
    }
    for (uint64_t i = 0; rc == 0 && i < cut.nchunks; i += STORE_PAR_BATCH) {
        struct outbox *o = &box[k ^= 1];
        uint64_t m = cut.nchunks - i < STORE_PAR_BATCH ? cut.nchunks - i : STORE_PAR_BATCH;
        outbox_wait(o); // its last message is taken: its memory is coded into again
        pack_chunks(&o->b, meta, part, cut.head + i * STORE_EVENT_CHUNK_ROWS, m, tmp, coded);
        rc = o->b.failed || outbox_post(comm, o) ? -1 : 0;
    }
    struct outbox *o = &box[k ^= 1];
    outbox_wait(o);
    if (rc || pack_last(&o->b, meta, part, cut.tail, tmp) || o->b.failed) {
        rc = -1;
        pack_failed(&o->b);
    }
    if (outbox_post(comm, o)) {
        rc = -1;
    }
    outbox_wait(&box[0]);
    outbox_wait(&box[1]);
    iodfg_buf_fini(&box[0].b);
    iodfg_buf_fini(&box[1].b);
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
        take_rows(&p, &left, h->head, v->head) ||
        !(v->sizes = (const void *)take(&p, &left, h->nchunks * STORE_C__N * 8)) ||
        !(v->coded = take(&p, &left, h->coded)) || take_rows(&p, &left, h->tail, v->tail) ||
        !(v->handles = (const void *)take(&p, &left, h->nhandles * sizeof(*v->handles))) ||
        !(v->ids = (const void *)take(&p, &left, h->nids * 4)) ||
        !(v->sums = (const void *)take(&p, &left, h->nsums * sizeof(*v->sums)))) {
        return -1;
    }
    return 0;
}

/* ---- moving it ---- */

void iodfg_store_par_wait(void *mpi_request)
{
    MPI_Request *req = mpi_request;
    int flag = 0;
    struct timespec nap = {0, 50000}; // 0.05 ms, doubling to 2 ms
    while (MPI_Test(req, &flag, MPI_STATUS_IGNORE) == MPI_SUCCESS && !flag) {
        nanosleep(&nap, NULL);
        nap.tv_nsec = nap.tv_nsec < 1000000 ? nap.tv_nsec * 2 : 2000000;
    }
}

/* MPI_Recv, asleep between looks. */
static int recv_napping(void *to, int n, MPI_Datatype type, int from, MPI_Comm comm)
{
    MPI_Request req;
    if (MPI_Irecv(to, n, type, from, PAR_TAG, comm, &req) != MPI_SUCCESS) {
        return -1;
    }
    iodfg_store_par_wait(&req);
    return 0;
}

int store_par_recv(MPI_Comm comm, int from, struct store_par_inbox *in, struct store_par_hdr *h)
{
    uint64_t len = 0;
    memset(h, 0, sizeof(*h));
    h->last = 1; // what a message too short to say otherwise ends
    in->len = 0;
    if (recv_napping(&len, 1, MPI_UINT64_T, from, comm)) {
        return -1;
    }
    int ok = 1;
    if (len > in->cap) {
        char *more = realloc(in->data, (size_t)len);
        ok = more != NULL;
        in->data = more ? more : in->data;
        in->cap = more ? len : in->cap;
    }
    // without room the message is taken all the same, piece by piece into a dropped buffer, and
    // its header read from the first piece, so that process 0 still knows when the part ends
    char *drop = ok ? NULL : malloc((size_t)PAR_PIECE);
    for (uint64_t at = 0; at < len; at += PAR_PIECE) {
        uint64_t n = len - at < PAR_PIECE ? len - at : PAR_PIECE;
        char *to = ok ? in->data + at : drop;
        if (!to || recv_napping(to, (int)n, MPI_BYTE, from, comm)) {
            ok = 0;
        } else if (at == 0 && n >= sizeof(*h)) {
            memcpy(h, to, sizeof(*h));
        }
    }
    free(drop);
    in->len = ok ? len : 0;
    return ok ? 0 : -1;
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
    int done = 0;
    MPI_Request req;
    if (MPI_Irecv(&done, 1, MPI_INT, 0, PAR_DONE_TAG, comm, &req) == MPI_SUCCESS) {
        iodfg_store_par_wait(&req);
    }
}
