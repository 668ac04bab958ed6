/* SPDX-License-Identifier: MIT */
/* HDF5 store, reading side: the 2.0 columns. Rows are read in slabs (pread of HDF5's own
 * descriptor for raw cases, H5Dread through a source otherwise), checked in blocks by hot
 * loops kept static here, and shared among helper threads as work items. */
#include "config.h"

#include <errno.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <hdf5.h>

#include "iodfg/error.h"
#include "iodfg/eventlog.h"
#include "iodfg/handles.h"
#include "iodfg/strpool.h"

#include "store_priv.h"
#include "store_read_priv.h"

/* The column of the log filled from dataset c, NULL when not asked for. */
static void *log_column(const struct iodfg_columns *c, int col)
{
    switch (col) {
    case STORE_C_PID:
        return c->pid;
    case STORE_C_START:
        return c->start_ns;
    case STORE_C_DUR:
        return c->dur_ns;
    case STORE_C_SIZE:
        return c->size;
    case STORE_C_KEY:
        return c->key;
    case STORE_C_OFFSET:
        return c->offset;
    case STORE_C_REQ:
        return c->req;
    case STORE_C_FD:
        return c->fd;
    case STORE_C_ERR:
        return c->err;
    case STORE_C_HANDLE:
        return c->handle;
    default: // call and fp are only checked
        return NULL;
    }
}

/* ---- reading events -------------------------------------------------------------------------- */

/* Progress is reported at the start, at the end and every this many events in between. */
#define PROGRESS_EVENTS (1u << 20)
/* Rows checked at a time (their check columns stay in the cache). */
#define SLAB_ROWS 16384u

/* Record a failure of case cs at row; the lowest (case, row) wins, whatever the thread order. */
void store_record_failure(struct loader *L, uint32_t cs, uint64_t row,
                          const struct iodfg_error *err)
{
    pthread_mutex_lock(&L->lock);
    if (!L->failed || cs < L->fail_cs || (cs == L->fail_cs && row < L->fail_row)) {
        L->failed = 1;
        L->fail_cs = cs;
        L->fail_row = row;
        L->fail_err = *err;
        L->fail_is_raw = 0;
        atomic_store(&L->fail_case, cs);
    }
    pthread_mutex_unlock(&L->lock);
}

/* The message of failure f of case cs into err (calling thread only). */
void store_put_failure(const struct loader *L, uint32_t cs, const struct failure *f,
                       struct iodfg_error *err)
{
    const char *name = store_case_name(L, cs);
    if (f->kind == F_READ) {
        iodfg_error_set(err, f->code, "case %s: column %s: %s", name, store_cols[f->col].name,
                        f->errnum ? strerror(f->errnum) : "truncated");
    } else if (f->kind == F_ROW) {
        iodfg_error_set(err, IODFG_E_FORMAT, "damaged event log: case %s, row %llu: %s", name,
                        (unsigned long long)f->row, f->why);
    } else {
        iodfg_error_set(err, IODFG_E_FORMAT, "case %s: handle id out of range", name);
    }
}

/* Record that rows of case cs failed as f says (raw reads, any thread). */
static void record_raw_failure(struct loader *L, uint32_t cs, const struct failure *f)
{
    pthread_mutex_lock(&L->lock);
    if (!L->failed || cs < L->fail_cs || (cs == L->fail_cs && f->row < L->fail_row)) {
        L->failed = 1;
        L->fail_cs = cs;
        L->fail_row = f->row;
        L->fail_is_raw = 1;
        L->fail_f = *f;
        atomic_store(&L->fail_case, cs);
    }
    pthread_mutex_unlock(&L->lock);
}

const char *store_case_name(const struct loader *L, uint32_t cs)
{
    return iodfg_strpool_get(iodfg_eventlog_pool(L->r->log), L->r->cases_info[cs].name);
}

/* n values of column c from row on into buf (native type). */
static int source_read(struct source *s, int c, uint64_t row, uint64_t n, void *buf)
{
    if (n == 0) {
        return 0;
    }
    size_t esz = store_cols[c].size;
    if (!s->ids) {
        char *out = buf;
        size_t want = (size_t)n * esz;
        uint64_t at = s->p->addr[c] + row * esz;
        while (want > 0) {
            ssize_t got = pread(s->L->r->vfd, out, want, (off_t)at);
            if (got < 0 && errno == EINTR) {
                continue;
            }
            if (got <= 0) {
                *s->f = (struct failure){.kind = F_READ,
                                         .code = got < 0 ? IODFG_E_IO : IODFG_E_FORMAT,
                                         .col = c,
                                         .errnum = got < 0 ? errno : 0,
                                         .row = row};
                return -1;
            }
            out += got;
            at += (uint64_t)got;
            want -= (size_t)got;
        }
        return 0;
    }
    hid_t fsp = H5Dget_space(s->ids[c]);
    hsize_t start[1] = {row}, count[1] = {n};
    hid_t msp = H5Screate_simple(1, count, NULL);
    int rc = fsp < 0 || msp < 0 ||
                     H5Sselect_hyperslab(fsp, H5S_SELECT_SET, start, NULL, count, NULL) < 0 ||
                     H5Dread(s->ids[c], store_col_type((enum store_col)c, 0), msp, fsp, H5P_DEFAULT,
                             buf) < 0
                 ? -1
                 : 0;
    if (msp >= 0) {
        H5Sclose(msp);
    }
    if (fsp >= 0) {
        H5Sclose(fsp);
    }
    if (rc) {
        store_h5_error(s->err, IODFG_E_FORMAT, s->L->r->path, "case %s: cannot read column %s",
                       store_case_name(s->L, s->cs), store_cols[c].name);
        *s->f = (struct failure){.kind = F_MSG, .row = row};
    }
    return rc;
}

int store_scratch_alloc(struct scratch *x)
{
    x->key = malloc(SLAB_ROWS * sizeof(uint32_t));
    x->call = malloc(SLAB_ROWS * sizeof(uint32_t));
    x->fp = malloc(SLAB_ROWS * sizeof(uint32_t));
    x->err = malloc(SLAB_ROWS * sizeof(uint32_t));
    x->start = malloc(SLAB_ROWS * sizeof(int64_t));
    return x->key && x->call && x->fp && x->err && x->start ? 0 : -1;
}

void store_scratch_free(struct scratch *x)
{
    free(x->key);
    free(x->call);
    free(x->fp);
    free(x->err);
    free(x->start);
}

/* Index of the first of n rows that fails a check (n when none does), and why. Branch-free
 * passes find whether any row does (ranges and order first, so that the key lookups that follow
 * stay in bounds); only then are the rows looked at one by one. */
#if defined(__GNUC__) && !defined(__clang__)
#define VECTORIZE __attribute__((optimize("O3"))) // the default -O2 leaves these loops scalar
#else
#define VECTORIZE
#endif

/* Largest key and err ids and whether start ever decreases, over n rows. */
VECTORIZE static void scan_ranges(const uint32_t *key, const uint32_t *err, const int64_t *start,
                                  size_t n, uint32_t *kmax_out, uint32_t *emax_out,
                                  int *unsorted_out)
{
    uint32_t kmax = 0, emax = 0;
    int64_t unsorted = 0;
    for (size_t i = 0; i < n; i++) {
        kmax = key[i] > kmax ? key[i] : kmax;
        emax = err[i] > emax ? err[i] : emax;
    }
    for (size_t i = 1; i < n; i++) {
        unsorted |= start[i] < start[i - 1];
    }
    *kmax_out = kmax;
    *emax_out = emax;
    *unsorted_out = unsorted != 0;
}

static size_t first_bad_row(const struct loader *L, const uint32_t *key, const uint32_t *call,
                            const uint32_t *fp, const uint32_t *err, const int64_t *start, size_t n,
                            int64_t prev, const char **why)
{
    const uint64_t *kcp = L->kcp;
    uint32_t nkeys = L->r->nkeys, nstr = L->r->nstr;
    uint32_t kmax, emax;
    int unsorted;
    uint64_t mismatch = 0;
    scan_ranges(key, err, start, n, &kmax, &emax, &unsorted);
    unsorted |= n > 0 && start[0] < prev;
    if (n > 0 && kmax < nkeys) {
        for (size_t i = 0; i < n; i++) {
            mismatch |= kcp[key[i]] ^ ((uint64_t)fp[i] << 32 | call[i]);
        }
    }
    if (n == 0 || (kmax < nkeys && emax < nstr && !unsorted && !mismatch)) {
        return n;
    }
    int64_t p = prev;
    for (size_t i = 0; i < n; i++) {
        uint64_t cp = (uint64_t)fp[i] << 32 | call[i];
        *why = key[i] >= nkeys     ? "key id out of range"
               : kcp[key[i]] != cp ? "call/fp do not match the key"
               : err[i] >= nstr    ? "err string id out of range"
               : start[i] < p      ? "rows not sorted by start"
                                   : NULL;
        if (*why) {
            return i;
        }
        p = start[i];
    }
    return n; // not reached: a pass above saw a bad row
}

/* Read and check rows [first, end) of a columnar case into the log's columns. On failure
 * s->f says what and where. */
int store_read_rows(struct source *s, uint64_t first, uint64_t end, struct scratch *x)
{
    struct loader *L = s->L;
    const struct iodfg_columns *c = L->c;
    uint64_t base = L->r->offsets[s->cs];
    int64_t prev = INT64_MIN;
    if (first > 0 && source_read(s, STORE_C_START, first - 1, 1, &prev)) {
        return -1;
    }
    for (uint64_t row = first; row < end; row += SLAB_ROWS) {
        uint64_t n = end - row < SLAB_ROWS ? end - row : SLAB_ROWS;
        // Columns asked for go straight into the log, the others into the scratch buffers.
        void *to[STORE_C__N];
        for (int k = 0; k < STORE_C__N; k++) {
            char *col = log_column(c, k);
            to[k] = col ? col + (base + row) * store_cols[k].size : NULL;
        }
        to[STORE_C_KEY] = to[STORE_C_KEY] ? to[STORE_C_KEY] : x->key;
        to[STORE_C_START] = to[STORE_C_START] ? to[STORE_C_START] : x->start;
        to[STORE_C_ERR] = to[STORE_C_ERR] ? to[STORE_C_ERR] : x->err;
        to[STORE_C_CALL] = x->call;
        to[STORE_C_FP] = x->fp;
        if (c->handle && !s->p->has_handle) {
            memset(to[STORE_C_HANDLE], 0, (size_t)n * sizeof(uint32_t));
            to[STORE_C_HANDLE] = NULL;
        }
        for (int k = 0; k < STORE_C__N; k++) {
            if (to[k] && source_read(s, k, row, n, to[k])) {
                return -1;
            }
        }
        const int64_t *start = to[STORE_C_START];
        const char *why = NULL;
        size_t bad = first_bad_row(L, to[STORE_C_KEY], x->call, x->fp, to[STORE_C_ERR], start,
                                   (size_t)n, prev, &why);
        if (bad < n) {
            *s->f = (struct failure){.kind = F_ROW, .why = why, .row = row + bad};
            return -1;
        }
        const uint32_t *h = s->check_handles ? to[STORE_C_HANDLE] : NULL;
        for (size_t i = 0; h && i < n; i++) {
            if (h[i] > L->r->nhandles || (h[i] && L->handles[h[i] - 1].case_id != s->cs)) {
                *s->f = (struct failure){.kind = F_HANDLE, .row = row + i};
                return -1;
            }
        }
        prev = start[n - 1];
        atomic_fetch_add(&L->done, n);
    }
    return 0;
}

/* Report progress (main thread only) when enough events were read since the last report. */
void store_report(struct loader *L, struct progress *pr)
{
    uint64_t done = atomic_load(&L->done);
    if (pr && pr->fn && done - pr->reported >= PROGRESS_EVENTS && done < pr->total) {
        pr->fn(pr->ctx, done, pr->total);
        pr->reported = done;
    }
}

/* Take and do raw work items (waiting for more while cases are being scanned) until none is
 * left or an earlier case failed. */
void store_run_items(struct loader *L, struct scratch *x, struct progress *pr)
{
    for (;;) {
        pthread_mutex_lock(&L->lock);
        while (L->next >= L->nitems && !L->closed) {
            pthread_cond_wait(&L->more, &L->lock);
        }
        if (L->next >= L->nitems || L->items[L->next].cs > atomic_load(&L->fail_case)) {
            pthread_mutex_unlock(&L->lock);
            break; // items come in case order: the rest can only fail later
        }
        struct item it = L->items[L->next++];
        pthread_mutex_unlock(&L->lock);
        struct failure f;
        struct source s = {.L = L, .cs = it.cs, .p = &L->r->plan[it.cs], .f = &f};
        if (store_read_rows(&s, it.first, it.end, x)) {
            record_raw_failure(L, it.cs, &f);
        }
        store_report(L, pr);
    }
}

void *store_worker(void *arg)
{
    struct loader *L = arg;
    struct scratch x;
    // Without its buffers a worker just leaves the items to the others.
    if (store_scratch_alloc(&x) == 0) {
        store_run_items(L, &x, NULL);
    }
    store_scratch_free(&x);
    return NULL;
}

/* Stop the helpers (they finish the item in hand) and wait for them. */
void store_stop_helpers(struct loader *L, pthread_t *tid, unsigned *started)
{
    pthread_mutex_lock(&L->lock);
    L->closed = 1;
    atomic_store(&L->fail_case, 0);
    pthread_cond_broadcast(&L->more);
    pthread_mutex_unlock(&L->lock);
    for (unsigned t = 0; t < *started; t++) {
        pthread_join(tid[t], NULL);
    }
    *started = 0;
}

/* The handle columns of the raw cases up to case `last`, read before the handle table was:
 * ids must be in the table and of their case. */
void store_check_raw_handles(struct loader *L, uint32_t last)
{
    const struct iodfg_handle *hs = iodfg_eventlog_handles(L->r->log);
    uint32_t nh = L->r->nhandles;
    for (uint32_t cs = 0; cs < L->r->ncases && cs <= last; cs++) {
        const struct case_plan *p = &L->r->plan[cs];
        if (p->compound || !p->raw || !p->has_handle) {
            continue;
        }
        const uint32_t *h = L->c->handle + L->r->offsets[cs];
        for (uint64_t i = 0; i < p->rows; i++) {
            if (h[i] > nh || (h[i] && hs[h[i] - 1].case_id != cs)) {
                struct failure f = {.kind = F_HANDLE, .row = i};
                record_raw_failure(L, cs, &f);
                break;
            }
        }
    }
}
