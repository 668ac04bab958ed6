/* SPDX-License-Identifier: MIT */
/* HDF5 store of an MPI job (iodfg-mpi): process 0 alone writes the file, through HDF5's default
 * driver, as the serial writer does: the case groups and their attributes, the tables, and the
 * /events columns in whole chunks coded by the writer's own codec (store_write_events.c), its own
 * files' events as they are parsed. Every other process codes its own whole chunks, in parallel,
 * and sends them to process 0 a few chunks a message with the rows of the chunks it shares with
 * its neighbours, its handle rows, stack ids and block sums (store_par_part.c); process 0 takes
 * the processes in order and writes each message as it arrives, into memory it reuses. Through
 * parallel HDF5 every attribute of every case group was a collective metadata operation (about
 * 1 ms each) and HDF5 coded the columns with its own, slower, scale-offset coder, as direct chunk
 * writes are not safe there. Compiled only against the MPI build of HDF5 (for <mpi.h>). */
#include "config.h"

#include "iodfg/store_par.h"

#include <stdlib.h>
#include <string.h>

#include <hdf5.h>

#include "iodfg/buf.h"
#include "iodfg/error.h"
#include "iodfg/eventlog.h"
#include "iodfg/handles.h"
#include "iodfg/stacks.h"
#include "iodfg/store.h"
#include "iodfg/strpool.h"

#include "store_par_priv.h"
#include "store_priv.h"
#include "store_stacks.h"
#include "store_write_priv.h"

/* Process 0's file while its own files are parsed and the other parts arrive. */
struct iodfg_store_par_sink {
    const struct iodfg_store_par_meta *meta; // from iodfg_store_par_write on
    hid_t file, cases, gcpl;
    struct store_events ev;
    struct store_block_hash *own; // the block sums of process 0's streamed cases
    hid_t hd, hft, hmt;           // /handles
    uint64_t hsum;                // its checksum so far
    struct store_par_stacks stk;
    struct store_block_sum *sums; // every part's, in order
    uint64_t nsums;
};

/* /handles and, with stacks, /stacks, once meta is known. */
static int open_tables(struct iodfg_store_par_sink *s)
{
    hsize_t dims[1] = {s->meta->nhandles};
    s->hft = store_handle_type(1);
    s->hmt = store_handle_type(0);
    hid_t sp = H5Screate_simple(1, dims, NULL);
    s->hd = s->hft < 0 || s->hmt < 0 || sp < 0 ? -1
                                               : H5Dcreate2(s->file, STORE_HANDLES, s->hft, sp,
                                                            H5P_DEFAULT, H5P_DEFAULT, H5P_DEFAULT);
    if (sp >= 0) {
        H5Sclose(sp);
    }
    const struct iodfg_store_par_meta *meta = s->meta;
    return s->hd < 0 || (meta->stacks && store_par_stacks_open(&s->stk, s->file, meta->stacks,
                                                               meta->case_first[meta->ncases]))
               ? -1
               : 0;
}

struct iodfg_store_par_sink *iodfg_store_par_open(const char *path, int case_views,
                                                  struct iodfg_error *err)
{
    store_h5_quiet();
    struct iodfg_store_par_sink *s = calloc(1, sizeof(*s));
    if (!s) {
        iodfg_error_set(err, IODFG_E_NOMEM, NULL);
        return NULL;
    }
    s->file = s->cases = s->gcpl = s->hd = s->hft = s->hmt = -1;
    s->stk.g = s->stk.d = -1;
    store_events_init(&s->ev);
    s->own = store_block_hash_new();
    s->file = s->own ? store_file_create(path, -1) : -1;
    // virtual datasets need the 1.10 file format; everything else stays 1.8
    if (s->file < 0 ||
        (case_views && H5Fset_libver_bounds(s->file, H5F_LIBVER_V18, H5F_LIBVER_V110) < 0) ||
        (s->cases = store_cases_create(s->file, &s->gcpl)) < 0 ||
        store_events_create(&s->ev, s->file)) {
        store_h5_error(err, IODFG_E_IO, path, "cannot create the HDF5 file");
        iodfg_store_par_abort(s);
        return NULL;
    }
    return s;
}

/* ---- one part after the other ---- */

/* n rows of every column, column c's at cols[c], appended to the /events columns. */
static int put_raw(struct iodfg_store_par_sink *s, const char *const *cols, uint64_t n)
{
    for (uint64_t at = 0; at < n;) {
        uint64_t k = store_events_room(&s->ev);
        k = n - at < k ? n - at : k;
        for (int c = 0; c < STORE_C__N; c++) {
            size_t w = store_cols[c].size;
            memcpy(store_events_slot(&s->ev, (enum store_col)c), cols[c] + at * w, (size_t)k * w);
        }
        if (store_events_advance(&s->ev, (uint32_t)k)) {
            return -1;
        }
        at += k;
    }
    return 0;
}

/* Rows [at, at + n) of part's events, coded here (whole chunks from where their native columns
 * lie), and their values into the block sums of the case they belong to. */
static int put_rows(struct iodfg_store_par_sink *s, const struct iodfg_store_par_meta *meta,
                    const struct iodfg_store_par_part *part, uint64_t at, uint64_t n)
{
    const struct iodfg_columns *cols = iodfg_eventlog_columns(part->log);
    for (uint64_t end = at + n; at < end;) {
        uint64_t k = store_events_room(&s->ev);
        k = end - at < k ? end - at : k;
        const void *from[STORE_C__N], *vals[STORE_C__N];
        for (int c = 0; c < STORE_C__N; c++) {
            const char *plain = store_plain_source(cols, (enum store_col)c);
            void *slot = store_events_slot(&s->ev, (enum store_col)c);
            from[c] = k == STORE_EVENT_CHUNK_ROWS && plain ? plain + at * store_cols[c].size : NULL;
            if (!from[c]) {
                store_par_rows(meta, part, (enum store_col)c, at, k, slot);
            }
            vals[c] = from[c] ? from[c] : slot;
        }
        if (store_block_hash_add(s->own, vals, (uint32_t)k) ||
            (k == STORE_EVENT_CHUNK_ROWS ? store_events_put_chunk(&s->ev, from)
                                         : store_events_advance(&s->ev, (uint32_t)k))) {
            return -1;
        }
        at += k;
    }
    return 0;
}

/* log's ids into tab's (which holds them all already: interning finds them), as the serial
 * writer maps a file's. 0 or -1. */
static int map_ids(struct iodfg_eventlog *tab, const struct iodfg_eventlog *log, uint32_t **smap,
                   uint32_t **kmap)
{
    const struct iodfg_strpool *sp = iodfg_eventlog_pool(log);
    struct iodfg_strpool *dst = iodfg_eventlog_pool(tab);
    uint32_t ns = iodfg_strpool_count(sp), nk = iodfg_eventlog_key_count(log);
    const struct iodfg_key *keys = iodfg_eventlog_keys(log);
    *smap = malloc(((size_t)ns + 1) * sizeof(**smap));
    *kmap = malloc(((size_t)nk + 1) * sizeof(**kmap));
    if (!*smap || !*kmap) {
        return -1;
    }
    for (uint32_t i = 0; i < ns; i++) {
        if (iodfg_strpool_intern(dst, iodfg_strpool_get(sp, i), iodfg_strpool_len(sp, i),
                                 &(*smap)[i])) {
            return -1;
        }
    }
    for (uint32_t k = 0; k < nk; k++) {
        const struct iodfg_key *key = &keys[k];
        if (iodfg_eventlog_key_layer(tab, (*smap)[key->call], (*smap)[key->path],
                                     (*smap)[key->layer], &(*kmap)[k])) {
            return -1;
        }
    }
    return 0;
}

int iodfg_store_par_stream(struct iodfg_store_par_sink *s, const struct iodfg_eventlog *log,
                           struct iodfg_eventlog *tab, uint32_t hbase, struct iodfg_error *err)
{
    store_h5_quiet();
    struct iodfg_store_par_meta meta = {.tab = tab};
    struct iodfg_store_par_part part = {.log = log, .hbase = hbase};
    int rc =
        map_ids(tab, log, &part.smap, &part.kmap) ? iodfg_error_set(err, IODFG_E_NOMEM, NULL) : 0;
    const uint64_t *off = iodfg_eventlog_case_offsets(log);
    for (uint32_t cs = 0; rc == 0 && cs < iodfg_eventlog_case_count(log); cs++) {
        if (put_rows(s, &meta, &part, off[cs], off[cs + 1] - off[cs]) ||
            store_block_hash_end_case(s->own)) {
            rc = store_h5_error(err, IODFG_E_IO, NULL, "cannot write the /events columns");
        }
    }
    free(part.smap);
    free(part.kmap);
    return rc;
}

/* A part's events as another process sent them: head rows, coded chunks, tail rows. */
static int put_sent_events(struct iodfg_store_par_sink *s, const struct store_par_view *v)
{
    if (put_raw(s, v->head, v->h.head)) {
        return -1;
    }
    const char *p = v->coded, *end = v->coded + v->h.coded;
    for (uint64_t i = 0; i < v->h.nchunks; i++) {
        const void *coded[STORE_C__N];
        const uint64_t *bytes = v->sizes + i * STORE_C__N;
        for (int c = 0; c < STORE_C__N; c++) {
            if (bytes[c] > (uint64_t)(end - p)) {
                return -1;
            }
            coded[c] = p;
            p += (bytes[c] + 7) & ~(uint64_t)7;
        }
        if (store_events_put_coded(&s->ev, coded, bytes)) {
            return -1;
        }
    }
    return put_raw(s, v->tail, v->h.tail);
}

/* A part's handle rows (from hbase on), stack ids (of the rows from first on) and block sums. */
static int put_rest(struct iodfg_store_par_sink *s, const struct iodfg_handle *handles,
                    uint64_t nhandles, uint64_t hbase, const uint32_t *ids, uint64_t first,
                    uint64_t nids, const struct store_block_sum *sums, uint64_t nsums)
{
    if (nhandles) {
        if (hbase + nhandles > s->meta->nhandles ||
            store_par_slab(s->hd, s->hmt, hbase, nhandles, handles)) {
            return -1;
        }
        s->hsum += store_sum_rows(s->hmt, handles, nhandles, hbase);
    }
    if (s->meta->stacks && store_par_stacks_put(&s->stk, ids, first, nids)) {
        return -1;
    }
    struct store_block_sum *more = realloc(s->sums, (size_t)(s->nsums + nsums + 1) * sizeof(*more));
    if (!more) {
        return -1;
    }
    s->sums = more;
    if (nsums) { // sums may be NULL without them
        memcpy(s->sums + s->nsums, sums, (size_t)nsums * sizeof(*sums));
    }
    s->nsums += nsums;
    return 0;
}

/* Process 0's part: its events are in (iodfg_store_par_stream), with its ids the file's. */
static int put_own(struct iodfg_store_par_sink *s, const struct iodfg_store_par_part *part)
{
    uint64_t nsums = 0, n = iodfg_eventlog_event_count(part->log);
    const struct store_block_sum *sums = store_block_hash_sums(s->own, &nsums);
    if (s->ev.rows != n || part->first != 0 || part->hbase != 0) {
        return -1;
    }
    const struct iodfg_strpool *pool = iodfg_eventlog_pool(part->log);
    for (uint32_t i = 0; i < iodfg_strpool_count(pool); i++) {
        if (part->smap[i] != i) {
            return -1;
        }
    }
    for (uint32_t k = 0; k < iodfg_eventlog_key_count(part->log); k++) {
        if (part->kmap[k] != k) {
            return -1;
        }
    }
    return put_rest(s, part->handles, part->nhandles, part->hbase, part->stack_ids, 0,
                    s->meta->stacks ? n : 0, sums, nsums);
}

/* One message of a part whose first row is first: its events, and with the last its rest. */
static int put_sent(struct iodfg_store_par_sink *s, const struct store_par_view *v, uint64_t first)
{
    return put_sent_events(s, v) ||
                   (v->h.last && put_rest(s, v->handles, v->h.nhandles, v->h.hbase, v->ids, first,
                                          v->h.nids, v->sums, v->h.nsums))
               ? -1
               : 0;
}

/* ---- the tables, once the events are in ---- */

/* Every case group with its attributes, and /case_table. */
static int write_cases(const struct iodfg_store_par_sink *s)
{
    const struct iodfg_store_par_meta *meta = s->meta;
    const struct iodfg_strpool *pool = iodfg_eventlog_pool(meta->tab);
    struct store_case_row *rows = calloc((size_t)meta->ncases + 1, sizeof(*rows));
    struct iodfg_strpool *taken = iodfg_strpool_new();
    int rc = rows && taken ? 0 : -1;
    for (uint32_t i = 0; rc == 0 && i < meta->ncases; i++) {
        const struct iodfg_case_info *ci = &meta->cases[i];
        uint64_t first = meta->case_first[i], n = meta->case_first[i + 1] - first;
        store_case_row_fill(&rows[i], ci, NULL, first, n);
        char link[300];
        rc = store_case_link(iodfg_strpool_get(pool, ci->name), iodfg_strpool_len(pool, ci->name),
                             s->cases, taken, i, link, sizeof(link));
        hid_t g = rc ? -1 : H5Gcreate2(s->cases, link, H5P_DEFAULT, s->gcpl, H5P_DEFAULT);
        rc = g < 0 || store_case_attrs(g, &rows[i], pool, i) ||
                     (meta->case_views && store_events_views(g, first, n))
                 ? -1
                 : 0;
        if (g >= 0) {
            H5Gclose(g);
        }
    }
    rc = rc || store_write_case_table(s->file, rows, meta->ncases) ? -1 : 0;
    iodfg_strpool_free(taken);
    free(rows);
    return rc;
}

static int write_tables(struct iodfg_store_par_sink *s)
{
    const struct iodfg_store_par_meta *meta = s->meta;
    uint64_t total = meta->case_first[meta->ncases];
    if (s->ev.rows != total || store_events_finish(&s->ev) || write_cases(s) ||
        store_write_block_sums(s->file, s->sums, s->nsums) ||
        store_write_strings_keys(s->file, meta->tab) ||
        store_attr_u64(s->hd, STORE_CHECKSUM, s->hsum)) {
        return -1;
    }
    return store_write_root(s->file, meta->ncases, total,
                            meta->stacks ? STORE_MINOR_STACKS : IODFG_STORE_MINOR);
}

/* Close everything (rc: the result so far), free s. rc, or -1 when a close fails. */
static int sink_close(struct iodfg_store_par_sink *s, int rc)
{
    if (s->stk.g >= 0 || s->stk.xxh) {
        rc = store_par_stacks_close(&s->stk, rc);
    }
    store_events_free(&s->ev);
    hid_t ids[] = {s->hd, s->hft, s->hmt, s->cases, s->gcpl};
    herr_t (*close[])(hid_t) = {H5Dclose, H5Tclose, H5Tclose, H5Gclose, H5Pclose};
    for (int i = 0; i < 5; i++) {
        if (ids[i] >= 0 && close[i](ids[i]) < 0) {
            rc = -1;
        }
    }
    if (s->file >= 0 && H5Fclose(s->file) < 0) {
        rc = -1;
    }
    store_block_hash_free(s->own);
    free(s->sums);
    free(s);
    return rc;
}

void iodfg_store_par_abort(struct iodfg_store_par_sink *s)
{
    if (s) {
        store_h5_quiet();
        sink_close(s, -1);
    }
}

/* ---- the two sides ---- */

/* A process other than 0: its part to process 0, then the wait for the file. */
static int send_part(MPI_Comm comm, const struct iodfg_store_par_meta *meta,
                     const struct iodfg_store_par_part *part, struct iodfg_error *err)
{
    int rc = store_par_send_part(comm, meta, part)
                 ? iodfg_error_set(err, IODFG_E_NOMEM, "cannot send the events to process 0")
                 : 0;
    store_par_wait_done(comm);
    return rc;
}

/* Process 0: process q's messages, each written as it arrives, up to its last. A process that
 * failed says why itself: *skip is then set without an error here. */
static int take_part(struct iodfg_store_par_sink *s, const char *path, MPI_Comm comm, int q,
                     struct store_par_inbox *in, int *skip, int rc, struct iodfg_error *err)
{
    uint64_t first = s->ev.rows;
    for (struct store_par_hdr h = {0}; !h.last;) {
        struct store_par_view v;
        if (store_par_recv(comm, q, in, &h)) {
            rc =
                rc ? rc : iodfg_error_set(err, IODFG_E_NOMEM, "cannot take process %d's events", q);
        } else if (h.ok == 0) {
            *skip = 1;
        } else if (store_par_view_of(in->data, in->len, &v)) {
            rc = rc ? rc : iodfg_error_set(err, IODFG_E_IO, "process %d sent a damaged part", q);
        } else if (rc == 0 && !*skip && put_sent(s, &v, first)) {
            rc = store_h5_error(err, IODFG_E_IO, path, "cannot write the /events columns");
        }
    }
    return rc;
}

/* Process 0: every message is received, even after a failure, so that no process waits
 * forever; the file is then left unfinished (the caller removes it). */
static int write_file(struct iodfg_store_par_sink *s, const char *path, MPI_Comm comm,
                      const struct iodfg_store_par_part *part, struct iodfg_error *err)
{
    int size = 1, rc = 0, skip = 0;
    MPI_Comm_size(comm, &size);
    if (open_tables(s) || put_own(s, part)) {
        rc = store_h5_error(err, IODFG_E_IO, path, "cannot write the event log");
    }
    struct store_par_inbox in = {0};
    for (int q = 1; q < size; q++) {
        rc = take_part(s, path, comm, q, &in, &skip, rc, err);
    }
    free(in.data);
    if (rc == 0 && !skip && write_tables(s)) {
        rc = store_h5_error(err, IODFG_E_IO, path, "cannot write the event log tables");
    }
    if (sink_close(s, rc) && rc == 0 && !skip) {
        rc = store_h5_error(err, IODFG_E_IO, path, "cannot close the event log");
    }
    store_par_done(comm);
    return rc;
}

uint64_t iodfg_store_par_bytes(const struct iodfg_store_par_meta *meta)
{
    uint64_t row = 0;
    for (int c = 0; c < STORE_C__N; c++) {
        row += store_cols[c].size;
    }
    const struct iodfg_strpool *pool = iodfg_eventlog_pool(meta->tab);
    return meta->case_first[meta->ncases] * row + (uint64_t)meta->nhandles * 64 +
           iodfg_strpool_memory(pool) + (uint64_t)iodfg_eventlog_key_count(meta->tab) * 32 +
           (uint64_t)meta->ncases * 4096 + ((uint64_t)1 << 20) +
           (meta->stacks ? meta->case_first[meta->ncases] * 4 + iodfg_stacks_memory(meta->stacks)
                         : 0);
}

int iodfg_store_par_write(struct iodfg_store_par_sink *sink, const char *path, const void *mpi_comm,
                          const struct iodfg_store_par_meta *meta,
                          const struct iodfg_store_par_part *part, struct iodfg_error *err)
{
    MPI_Comm comm = *(const MPI_Comm *)mpi_comm;
    store_h5_quiet();
    if (!sink) {
        return send_part(comm, meta, part, err);
    }
    sink->meta = meta;
    return write_file(sink, path, comm, part, err);
}
