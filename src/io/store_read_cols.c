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
#include "iodfg/forkjoin.h"
#include "iodfg/handles.h"
#include "iodfg/strpool.h"

#include "store_priv.h"
#include "store_reader.h"
#include "store_vectorize.h"

void *store_log_column(const struct iodfg_columns *c, int col)
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
    } else if (f->kind == F_SUM) {
        iodfg_error_set(err, IODFG_E_FORMAT,
                        "damaged event log: case %s: %s/%s, rows %llu to %llu: the values do not "
                        "match their checksum",
                        name, STORE_EVENT_GROUP, store_cols[f->col].name,
                        (unsigned long long)f->row,
                        (unsigned long long)(f->row + STORE_SUM_BLOCK_ROWS - 1));
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
    if (!s->ids) {
        const struct reader *r = s->L->r;
        uint64_t at = s->p->addr[c] + row * store_cols[c].size;
        int rc = r->ev ? store_pread_rows(r, c, s->p->first + row, n, buf)
                       : store_pread_all(r->vfd, buf, (size_t)n * store_cols[c].size, at);
        if (rc) {
            *s->f = (struct failure){.kind = F_READ,
                                     .code = errno ? IODFG_E_IO : IODFG_E_FORMAT,
                                     .col = c,
                                     .errnum = errno,
                                     .row = row};
            return -1;
        }
        return 0;
    }
    int rc = store_h5_rows(s->ids[c], store_col_type((enum store_col)c, 0), s->p->first + row, n,
                           buf, 0);
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

/* Largest key and err ids and whether start ever decreases, over n rows. */
STORE_VECTORIZE static void scan_ranges(const uint32_t *key, const uint32_t *err,
                                        const int64_t *start, size_t n, uint32_t *kmax_out,
                                        uint32_t *emax_out, int *unsorted_out)
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

/* Whether any of n durations is neither unknown nor in [0, IODFG_DUR_MAX]. */
STORE_VECTORIZE static int any_bad_dur(const int64_t *d, size_t n)
{
    uint64_t bad = 0;
    for (size_t i = 0; i < n; i++) {
        bad |= (uint64_t)(d[i] != IODFG_UNKNOWN) & (uint64_t)((uint64_t)d[i] > IODFG_DUR_MAX);
    }
    return bad != 0;
}

static size_t first_bad_row(const struct loader *L, const uint32_t *key, const uint32_t *call,
                            const uint32_t *fp, const uint32_t *err, const int64_t *start,
                            const int64_t *dur, size_t n, int64_t prev, const char **why)
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
    // Sorted rows lie in the time range when the first and the last do.
    int out_of_range = n > 0 && (start[0] < IODFG_START_MIN || start[n - 1] > IODFG_START_MAX ||
                                 (dur && any_bad_dur(dur, n)));
    if (n == 0 || (kmax < nkeys && emax < nstr && !unsorted && !mismatch && !out_of_range)) {
        return n;
    }
    int64_t p = prev;
    for (size_t i = 0; i < n; i++) {
        uint64_t cp = (uint64_t)fp[i] << 32 | call[i];
        *why = key[i] >= nkeys     ? "key id out of range (column key)"
               : kcp[key[i]] != cp ? "call/fp do not match the key (columns call, fp, key)"
               : err[i] >= nstr    ? "err string id out of range (column err)"
               : start[i] < p      ? "rows not sorted by start (column start)"
               : start[i] < IODFG_START_MIN || start[i] > IODFG_START_MAX
                   ? "start out of range (column start)"
               : dur && dur[i] != IODFG_UNKNOWN && (uint64_t)dur[i] > IODFG_DUR_MAX
                   ? "dur out of range (column dur)"
                   : NULL;
        if (*why) {
            return i;
        }
        p = start[i];
    }
    return n; // not reached: a pass above saw a bad row
}

/* Index of the first of n handle ids of case cs that is neither 0 nor one of the case's
 * handles (n when all are). Most cases own one run of ids: then a branch-free pass over the
 * ids decides, and only a failing block is looked at row by row. */
STORE_VECTORIZE static size_t first_bad_handle(const struct loader *L, uint32_t cs,
                                               const uint32_t *h, size_t n)
{
    const struct store_handle_span *sp = L->spans ? &L->spans[cs] : NULL;
    if (sp && sp->exact) {
        uint32_t lo = sp->lo, count = sp->count, bad = 0;
        for (size_t i = 0; i < n; i++) {
            bad |= (uint32_t)(h[i] != 0) & (uint32_t)(h[i] - lo >= count);
        }
        if (!bad) {
            return n;
        }
    }
    for (size_t i = 0; i < n; i++) {
        if (h[i] > L->r->nhandles || (h[i] && L->handles[h[i] - 1].case_id != cs)) {
            return i;
        }
    }
    return n;
}

void store_handle_spans_finish(struct store_handle_span *spans, uint32_t ncases)
{
    for (uint32_t cs = 0; cs < ncases; cs++) {
        struct store_handle_span *sp = &spans[cs];
        sp->lo = sp->count ? sp->lo : 1;
        sp->exact = sp->count == 0 || sp->last - sp->lo + 1 == sp->count;
    }
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
    // Columns that are only copied, not checked, are read in one go (fewer, larger reads).
    static const int copied[] = {STORE_C_PID, STORE_C_SIZE, STORE_C_OFFSET, STORE_C_REQ,
                                 STORE_C_FD};
    for (size_t k = 0; k < sizeof(copied) / sizeof(copied[0]); k++) {
        char *col = store_log_column(c, copied[k]);
        if (col && source_read(s, copied[k], first, end - first,
                               col + (base + first) * store_cols[copied[k]].size)) {
            return -1;
        }
    }
    for (uint64_t row = first; row < end; row += SLAB_ROWS) {
        uint64_t n = end - row < SLAB_ROWS ? end - row : SLAB_ROWS;
        // Checked columns asked for go straight into the log, the others into the scratch
        // buffers.
        void *to[STORE_C__N] = {NULL};
        static const int checked[] = {STORE_C_KEY, STORE_C_START, STORE_C_DUR, STORE_C_ERR,
                                      STORE_C_HANDLE};
        for (size_t k = 0; k < sizeof(checked) / sizeof(checked[0]); k++) {
            char *col = store_log_column(c, checked[k]);
            to[checked[k]] = col ? col + (base + row) * store_cols[checked[k]].size : NULL;
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
                                   to[STORE_C_DUR], (size_t)n, prev, &why);
        if (bad < n) {
            *s->f = (struct failure){.kind = F_ROW, .why = why, .row = row + bad};
            return -1;
        }
        const uint32_t *h = s->check_handles ? to[STORE_C_HANDLE] : NULL;
        size_t badh = h ? first_bad_handle(L, s->cs, h, (size_t)n) : n;
        if (badh < n) {
            *s->f = (struct failure){.kind = F_HANDLE, .row = row + badh};
            return -1;
        }
        prev = start[n - 1];
        atomic_fetch_add(&L->done, n);
    }
    return 0;
}

/* Read and check whole cases [cs0, cs0 + ncs) of a 3.0 file, whose rows lie back to back in
 * the /events columns as in the log (log row = file row): each column is read for all of them
 * at once, so that small cases (one per MPI rank) cost no reads of their own. Handle ids are
 * checked at the end, as for other raw reads. On failure *fcs and *f say where. */
static int read_cases(struct loader *L, uint32_t cs0, uint32_t ncs, struct scratch *x,
                      uint32_t *fcs, struct failure *f)
{
    const struct reader *r = L->r;
    const struct iodfg_columns *c = L->c;
    const uint64_t *off = r->offsets;
    uint64_t g0 = off[cs0], g1 = off[cs0 + ncs];
    // the log's row g is the file's row g + shift (not 0 when a range of the cases is loaded)
    uint64_t shift = r->plan[cs0].first - g0;
    uint32_t cs = cs0;
    *fcs = cs0;
    for (int k = 0; k < STORE_C__N; k++) {
        char *col = store_log_column(c, k);
        if (k != STORE_C_KEY && k != STORE_C_START && k != STORE_C_DUR && k != STORE_C_ERR && col &&
            store_pread_rows(r, k, g0 + shift, g1 - g0, col + g0 * store_cols[k].size)) {
            *f = (struct failure){.kind = F_READ,
                                  .code = errno ? IODFG_E_IO : IODFG_E_FORMAT,
                                  .col = k,
                                  .errnum = errno};
            return -1;
        }
    }
    int64_t prev = INT64_MIN;
    for (uint64_t g = g0; g < g1; g += SLAB_ROWS) {
        size_t n = g1 - g < SLAB_ROWS ? (size_t)(g1 - g) : SLAB_ROWS;
        uint32_t *key = c->key ? c->key + g : x->key;
        uint32_t *err = c->err ? c->err + g : x->err;
        int64_t *start = c->start_ns ? c->start_ns + g : x->start;
        int64_t *dur = c->dur_ns ? c->dur_ns + g : NULL;
        const int cols[] = {STORE_C_KEY,  STORE_C_START, STORE_C_ERR,
                            STORE_C_CALL, STORE_C_FP,    STORE_C_DUR};
        void *to[] = {key, start, err, x->call, x->fp, dur};
        for (int k = 0; k < 6; k++) {
            if (to[k] && store_pread_rows(r, cols[k], g + shift, n, to[k])) {
                while (off[cs + 1] <= g) {
                    cs++;
                }
                *fcs = cs;
                *f = (struct failure){.kind = F_READ,
                                      .code = errno ? IODFG_E_IO : IODFG_E_FORMAT,
                                      .col = cols[k],
                                      .errnum = errno,
                                      .row = g - off[cs]};
                return -1;
            }
        }
        // Check the slab case by case.
        for (uint64_t a = g; a < g + n;) {
            while (off[cs + 1] <= a) {
                cs++;
                prev = INT64_MIN;
            }
            uint64_t b = g + n < off[cs + 1] ? g + n : off[cs + 1];
            size_t at = (size_t)(a - g), m = (size_t)(b - a);
            const char *why = NULL;
            size_t bad = first_bad_row(L, key + at, x->call + at, x->fp + at, err + at, start + at,
                                       dur ? dur + at : NULL, m, prev, &why);
            if (bad < m) {
                *fcs = cs;
                *f = (struct failure){.kind = F_ROW, .why = why, .row = a - off[cs] + bad};
                return -1;
            }
            prev = start[at + m - 1];
            a = b;
        }
        atomic_fetch_add(&L->done, n);
    }
    return 0;
}

/* The checksums of the blocks an item read (4.1): 0, or -1 with the case and f. */
static int check_item(struct loader *L, const struct item *it, uint32_t *fcs, struct failure *f)
{
    const struct reader *r = L->r;
    for (uint32_t cs = it->cs; cs < it->cs + it->ncases; cs++) {
        uint64_t first = it->ncases > 1 ? 0 : it->first;
        uint64_t end = it->ncases > 1 ? r->plan[cs].rows : it->end;
        int col;
        uint64_t row;
        if (store_check_sums(r, L->c, cs, first, end, &col, &row)) {
            *fcs = cs;
            *f = (struct failure){.kind = F_SUM, .col = col, .row = row};
            return -1;
        }
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
        uint32_t fcs = it.cs;
        if (it.ncases > 1 ? read_cases(L, it.cs, it.ncases, x, &fcs, &f)
                          : store_read_rows(&s, it.first, it.end, x)) {
            record_raw_failure(L, fcs, &f);
        } else if (check_item(L, &it, &fcs, &f)) {
            record_raw_failure(L, fcs, &f);
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
    iodfg_workers_join(tid, *started);
    *started = 0;
}

/* The handle columns of the raw cases up to case `last`, read before the handle table was:
 * ids must be in the table and of their case. */
void store_check_raw_handles(struct loader *L, uint32_t last)
{
    for (uint32_t cs = 0; cs < L->r->ncases && cs <= last; cs++) {
        const struct case_plan *p = &L->r->plan[cs];
        if (p->compound || !p->raw || !p->has_handle) {
            continue;
        }
        const uint32_t *h = L->c->handle + L->r->offsets[cs];
        size_t bad = first_bad_handle(L, cs, h, (size_t)p->rows);
        if (bad < p->rows) {
            struct failure f = {.kind = F_HANDLE, .row = bad};
            record_raw_failure(L, cs, &f);
        }
    }
}
