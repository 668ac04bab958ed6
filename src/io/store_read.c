/* SPDX-License-Identifier: MIT */
/* HDF5 store, reading side: the load driver and public entry points (iodfg_store_load,
 * iodfg_store_load_threads, iodfg_store_stat). Opens the file, loads the shared tables, scans
 * the cases while helper threads read raw columns, then the HDF5-read cases, and hands the
 * columns to the log; the root's totals are checked against what the cases hold. */
#include "config.h"

#include <pthread.h>
#include <stdatomic.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <hdf5.h>

#include "iodfg/bigmem.h"
#include "iodfg/cpus.h"
#include "iodfg/error.h"
#include "iodfg/eventlog.h"
#include "iodfg/forkjoin.h"
#include "iodfg/handles.h"
#include "iodfg/store.h"
#include "iodfg/strpool.h"

#include "store_priv.h"
#include "store_reader.h"
#include "store_stacks.h"

/* Rows per work item of raw cases shared among threads. */
#define ITEM_ROWS (1u << 18)
/* Most threads a load uses, and the least events worth a second one. */
#define MAX_THREADS 4u
#define MIN_EVENTS_PER_THREAD (1u << 18)

static int check_totals(struct reader *r, uint64_t total);

static int alloc_columns(struct iodfg_columns *c, unsigned mask, uint64_t n)
{
    memset(c, 0, sizeof(*c));
    if (n > SIZE_MAX / 8) {
        return -1;
    }
#define ALLOC_COL(bit, col)                                                                        \
    if ((mask & (bit)) && !(c->col = store_alloc_column((size_t)n * sizeof(*c->col)))) {           \
        return -1;                                                                                 \
    }
    ALLOC_COL(IODFG_COL_START, start_ns)
    ALLOC_COL(IODFG_COL_DUR, dur_ns)
    ALLOC_COL(IODFG_COL_SIZE, size)
    ALLOC_COL(IODFG_COL_OFFSET, offset)
    ALLOC_COL(IODFG_COL_REQ, req)
    ALLOC_COL(IODFG_COL_KEY, key)
    ALLOC_COL(IODFG_COL_ERR, err)
    ALLOC_COL(IODFG_COL_PID, pid)
    ALLOC_COL(IODFG_COL_FD, fd)
    ALLOC_COL(IODFG_COL_HANDLE, handle)
#undef ALLOC_COL
    return 0;
}

/* Hand item *it (if any) to the threads, and clear it. */
static void add_item(struct loader *L, struct item *it)
{
    if (it->ncases == 0) {
        return;
    }
    pthread_mutex_lock(&L->lock);
    L->items[L->nitems++] = *it;
    pthread_cond_broadcast(&L->more);
    pthread_mutex_unlock(&L->lock);
    *it = (struct item){0};
}

/* Key -> (path << 32 | call), for the row check. */
static uint64_t *key_pairs(struct reader *r)
{
    uint64_t *kcp = malloc(((size_t)r->nkeys + 1) * sizeof(*kcp));
    const struct iodfg_key *keys = iodfg_eventlog_keys(r->log);
    for (uint32_t k = 0; kcp && k < r->nkeys; k++) {
        kcp[k] = (uint64_t)keys[k].path << 32 | keys[k].call;
    }
    if (kcp) {
        kcp[r->nkeys] = 0;
    }
    return kcp;
}

/* Threads for a load of total events: `threads`, or (0) one per processor this process may
 * use, each with enough events to be worth starting; at most MAX_THREADS. */
static unsigned thread_count(unsigned threads, uint64_t total)
{
    if (threads == 0) {
        unsigned cpus = iodfg_cpu_count();
        threads = cpus > MAX_THREADS ? MAX_THREADS : cpus;
        while (threads > 1 && total / threads < MIN_EVENTS_PER_THREAD) {
            threads--;
        }
    }
    return threads > MAX_THREADS ? MAX_THREADS : threads;
}

/* Scan the cases' plans (offsets as they come) and queue their raw rows for the helpers at once,
 * small 3.0 cases gathered into one item; then close the queue. *sum = the rows of all cases.
 * 0, or -1 when a case cannot be scanned (r->err). */
static int queue_items(struct reader *r, struct loader *L, uint64_t total, uint64_t *sum)
{
    struct item run = {0}; // small 3.0 cases gathered into one item
    *sum = 0;
    for (uint32_t cs = 0; cs < r->ncases; cs++) {
        struct case_plan *p = &r->plan[cs];
        if (!r->ev && store_scan_case(r, cs, p)) { // 3.0 plans come from the case table
            return -1;
        }
        *sum = p->rows > UINT64_MAX - *sum ? UINT64_MAX : *sum + p->rows;
        r->offsets[cs + 1] = *sum;
        if (*sum > total || p->compound || !p->raw || p->rows == 0) {
            continue;
        }
        if (r->ev && p->rows < ITEM_ROWS) { // 3.0: small cases are read together
            if (run.ncases > 0 && run.end + p->rows > ITEM_ROWS) {
                add_item(L, &run);
            }
            run = run.ncases ? run : (struct item){.cs = cs};
            run.ncases = cs + 1 - run.cs; // the empty cases in between come along
            run.end += p->rows;
            continue;
        }
        add_item(L, &run);
        for (uint64_t first = 0; first < p->rows; first += ITEM_ROWS) {
            struct item it = {cs, 1, first,
                              p->rows - first < ITEM_ROWS ? p->rows : first + ITEM_ROWS};
            add_item(L, &it);
        }
    }
    add_item(L, &run);
    pthread_mutex_lock(&L->lock);
    L->closed = 1;
    pthread_cond_broadcast(&L->more);
    pthread_mutex_unlock(&L->lock);
    return 0;
}

/* Read the cases that are not raw columns on this thread: 1.x events tables and columns HDF5
 * must convert, until a failure (recorded in L). 0, or -1 out of memory. */
static int read_other_cases(struct reader *r, struct loader *L, struct scratch *x,
                            struct store_row **rows, struct progress *pr)
{
    for (uint32_t cs = 0; cs < r->ncases && cs <= atomic_load(&L->fail_case); cs++) {
        const struct case_plan *p = &r->plan[cs];
        uint64_t bad = 0;
        int failed = 0;
        if (p->compound) {
            if (!*rows && !(*rows = malloc(STORE_CHUNK_ROWS * sizeof(**rows)))) {
                iodfg_error_set(r->err, IODFG_E_NOMEM, NULL);
                return -1;
            }
            failed = store_read_compound(r, L, cs, *rows, pr);
        } else if (!p->raw) {
            failed = store_read_converted(r, L, cs, x, &bad);
        }
        if (failed) {
            iodfg_error_at(r->err, r->path, 0, 0);
            store_record_failure(L, cs, bad, r->err);
            iodfg_error_clear(r->err);
        }
        store_report(L, pr);
    }
    return 0;
}

/* The first failure of the load (raw column or other case) into r->err. */
static void report_failure(struct reader *r, struct loader *L)
{
    if (L->fail_is_raw) {
        store_put_failure(L, L->fail_cs, &L->fail_f, r->err);
    } else {
        *r->err = L->fail_err;
    }
    iodfg_error_at(r->err, r->path, 0, 0);
}

/* Scan the cases and read their events into the log, expecting `total` events (the root
 * attribute; checked at the end). Helper threads read the columns of raw cases as soon as a
 * case is scanned, while this thread goes on with HDF5: the next cases, the handle table, then
 * the cases HDF5 must convert; the handle ids read meanwhile are checked at the end. */
// The stacks of the cases kept (4.2), when the file has them.
static int load_stacks(struct reader *r)
{
    uint64_t *first = malloc(((size_t)r->ncases + 1) * 2 * sizeof(*first));
    if (!first) {
        return iodfg_error_set(r->err, IODFG_E_NOMEM, NULL);
    }
    uint64_t *rows = first + r->ncases + 1;
    for (uint32_t i = 0; i < r->ncases; i++) {
        first[i] = r->plan[i].first;
        rows[i] = r->plan[i].rows;
    }
    int rc = store_stacks_load(r, first, rows, r->ncases);
    free(first);
    return rc;
}

static int read_events(struct reader *r, uint64_t total, unsigned threads, struct progress *pr)
{
    struct iodfg_columns c = {0};
    struct loader L = {.r = r, .c = &c, .handles = iodfg_eventlog_handles(r->log)};
    struct scratch x = {0};
    struct store_row *rows = NULL;
    uint64_t *kcp = key_pairs(r);
    pthread_t tid[MAX_THREADS];
    unsigned started = 0;
    int rc = -1;
    atomic_init(&L.done, 0);
    atomic_init(&L.fail_case, UINT32_MAX);
    pthread_mutex_init(&L.lock, NULL);
    pthread_cond_init(&L.more, NULL);
    L.kcp = kcp;
    // A case of n rows makes at most n / ITEM_ROWS + 1 items.
    L.cap = (size_t)(total / ITEM_ROWS) + r->ncases + 1;
    L.items = malloc(L.cap * sizeof(*L.items));
    if (!kcp || !L.items || store_scratch_alloc(&x) ||
        alloc_columns(&c, r->columns & IODFG_COL_ALL, total)) {
        iodfg_error_set(r->err, IODFG_E_NOMEM, "out of memory for %llu events",
                        (unsigned long long)total);
        iodfg_error_at(r->err, r->path, 0, 0);
        goto done;
    }
    pr->total = total;
    if (pr->fn) {
        pr->fn(pr->ctx, 0, total);
    }
    started = iodfg_workers_start(tid, thread_count(threads, total) - 1, store_worker,
                                  &L); // and this one
    uint64_t sum = 0;
    if (queue_items(r, &L, total, &sum)) {
        store_stop_helpers(&L, tid, &started);
        goto done;
    }
    if (sum != total) {
        store_stop_helpers(&L, tid, &started);
        check_totals(r, sum);
        goto done;
    }
    // each case's run of handle ids, counted as the table is checked (NULL: ids looked up)
    struct store_handle_span *spans = calloc((size_t)r->ncases + 1, sizeof(*spans));
    if ((r->columns & (IODFG_COL_HANDLE | IODFG_COL_HANDLE_TABLE)) &&
        store_load_handles(r, spans)) {
        free(spans);
        store_stop_helpers(&L, tid, &started); // the table's error comes first, as without threads
        goto done;
    }
    L.handles = iodfg_eventlog_handles(r->log);
    if (spans) {
        store_handle_spans_finish(spans, r->ncases);
    }
    L.spans = spans;
    if (read_other_cases(r, &L, &x, &rows, pr)) {
        store_stop_helpers(&L, tid, &started);
        goto done;
    }
    store_run_items(&L, &x, pr);
    iodfg_workers_join(tid, started);
    if (c.handle) {
        store_check_raw_handles(&L, L.failed ? L.fail_cs : UINT32_MAX);
    }
    if (L.failed) {
        report_failure(r, &L);
        goto done;
    }
    if (pr->fn && total > 0) {
        pr->fn(pr->ctx, total, total);
    }
    rc = iodfg_eventlog_adopt(r->log, &c, total, r->cases_info, r->offsets, r->ncases, r->err);
    if (rc == 0) {
        r->cases_info = NULL;
        r->offsets = NULL;
        rc = r->columns & IODFG_COL_STACKS ? load_stacks(r) : 0;
    }
done:
    if (rc) {
        iodfg_columns_free(&c);
    }
    pthread_cond_destroy(&L.more);
    pthread_mutex_destroy(&L.lock);
    free(L.items);
    free(L.spans);
    free(rows);
    free(kcp);
    store_scratch_free(&x);
    return rc;
}

static void close_reader(struct reader *r)
{
    store_close_event_columns(r);
    if (r->mtype >= 0) {
        H5Tclose(r->mtype);
    }
    if (r->ftype >= 0) {
        H5Tclose(r->ftype);
    }
    if (r->cases >= 0) {
        H5Gclose(r->cases);
    }
    if (r->file >= 0) {
        H5Fclose(r->file);
    }
    iodfg_strpool_free(r->pool);
    free(r->block_sums);
    free(r->plan);
    free(r->cases_info);
    free(r->offsets);
}

/* The root's totals, before the cases are read: 0 with *events when `cases` matches /cases and
 * `events` is possible for the file's size (a column of int64 or more per event, or of 32-bit
 * ids squeezed by at most 1100:1); 1 when they are missing or do not; -1 when unreadable. */
static int root_totals(struct reader *r, uint64_t *events)
{
    uint64_t cases = 0;
    int rc1 = store_get_uint(r, r->file, "cases", &cases);
    int rc2 = rc1 < 0 ? -1 : store_get_uint(r, r->file, "events", events);
    if (rc1 < 0 || rc2 < 0) {
        return -1;
    }
    uint64_t most = r->fsize > UINT64_MAX / 1100 ? UINT64_MAX : r->fsize * 1100 / 20;
    return rc1 || rc2 || cases != r->ncases || *events > most ? 1 : 0;
}

/* The root's totals must agree with what the cases hold (stat relies on them). */
static int check_totals(struct reader *r, uint64_t total)
{
    uint64_t cases = 0, events = 0;
    int rc1 = store_get_uint(r, r->file, "cases", &cases);
    int rc2 = rc1 < 0 ? -1 : store_get_uint(r, r->file, "events", &events);
    if (rc1 < 0 || rc2 < 0) {
        return -1;
    }
    if (rc1 || rc2 || cases != r->ncases || events != total) {
        iodfg_error_set(r->err, IODFG_E_FORMAT,
                        "damaged event log: root attributes cases/events do not match the "
                        "%u cases and %llu events stored",
                        r->ncases, (unsigned long long)total);
        iodfg_error_at(r->err, r->path, 0, 0);
        return -1;
    }
    return 0;
}

/* The cases a load reads: all, [lo, hi), or those part chooses from the log's case count. */
struct load_range {
    int ranged;
    uint32_t lo, hi;
    iodfg_store_part_fn part;
    void *part_ctx;
};

/* Keep only the cases of range of the case table (their plans keep their rows of the /events
 * columns); *sum becomes their events. */
static void keep_range(struct reader *r, const struct load_range *range, uint64_t *sum)
{
    uint32_t lo = range->lo, hi = range->hi;
    if (range->part) { // chosen from the case table (root_totals checked the root's count)
        uint32_t count = 0;
        uint64_t *events = malloc(((size_t)r->ncases + 1) * sizeof(*events));
        for (uint32_t i = 0; events && i < r->ncases; i++) {
            events[i] = r->plan[i].rows;
        }
        range->part(range->part_ctx, r->ncases, events, &lo, &count);
        free(events);
        hi = count > UINT32_MAX - lo ? UINT32_MAX : lo + count;
    }
    lo = lo < r->ncases ? lo : r->ncases;
    hi = hi < r->ncases ? hi : r->ncases;
    hi = hi < lo ? lo : hi;
    memmove(r->cases_info, r->cases_info + lo, (size_t)(hi - lo) * sizeof(*r->cases_info));
    memmove(r->plan, r->plan + lo, (size_t)(hi - lo) * sizeof(*r->plan));
    r->ncases = hi - lo;
    *sum = 0;
    for (uint32_t i = 0; i < r->ncases; i++) {
        *sum += r->plan[i].rows;
        r->offsets[i + 1] = *sum;
    }
}

/* A 3.0 file: the case table, then the /events columns of range's cases. usable and total as
 * root_totals says. */
static int load_v3(struct reader *r, int usable, uint64_t total, unsigned threads,
                   struct progress *pr, const struct load_range *range)
{
    uint64_t sum = 0;
    if (usable < 0 || store_load_case_table(r, &sum)) {
        return -1;
    }
    if (usable > 0 || sum != total) {
        if (check_totals(r, sum) == 0) { // they agree, but cannot fit in the file
            store_damaged(r, "%s", "root attribute events is too large for the file");
        }
        return -1;
    }
    if (r->sums && store_load_block_sums(r)) {
        return -1;
    }
    if (range->ranged) {
        keep_range(r, range, &sum);
    }
    return store_open_event_columns(r, total) ? -1 : read_events(r, sum, threads, pr);
}

struct iodfg_eventlog *iodfg_store_load(const char *path, unsigned columns,
                                        iodfg_progress_fn progress, void *ctx,
                                        struct iodfg_error *err)
{
    return iodfg_store_load_threads(path, columns, 0, progress, ctx, err);
}

/* Load path (the cases of range). */
static struct iodfg_eventlog *load(const char *path, unsigned columns, unsigned threads,
                                   iodfg_progress_fn progress, void *ctx,
                                   const struct load_range *range, struct iodfg_error *err);

struct iodfg_eventlog *iodfg_store_load_threads(const char *path, unsigned columns,
                                                unsigned threads, iodfg_progress_fn progress,
                                                void *ctx, struct iodfg_error *err)
{
    const struct load_range all = {0};
    return load(path, columns, threads, progress, ctx, &all, err);
}

struct iodfg_eventlog *iodfg_store_load_cases(const char *path, unsigned columns, uint32_t first,
                                              uint32_t n, iodfg_progress_fn progress, void *ctx,
                                              struct iodfg_error *err)
{
    // handles belong to the whole log's cases
    columns &= ~(unsigned)(IODFG_COL_HANDLE | IODFG_COL_HANDLE_TABLE);
    const struct load_range some = {1, first, n > UINT32_MAX - first ? UINT32_MAX : first + n, NULL,
                                    NULL};
    return load(path, columns, 1, progress, ctx, &some, err);
}

struct iodfg_eventlog *iodfg_store_load_part(const char *path, unsigned columns,
                                             iodfg_store_part_fn part, void *part_ctx,
                                             struct iodfg_error *err)
{
    columns &= ~(unsigned)(IODFG_COL_HANDLE | IODFG_COL_HANDLE_TABLE);
    const struct load_range chosen = {1, 0, 0, part, part_ctx};
    return load(path, columns, 1, NULL, NULL, &chosen, err);
}

/* A reader of path with nothing open yet, reporting to err (NULL: to *local, cleared). */
static struct reader reader_closed(const char *path, struct iodfg_error *err,
                                   struct iodfg_error *local)
{
    iodfg_error_clear(local);
    return (struct reader){.path = path,
                           .file = -1,
                           .cases = -1,
                           .mtype = -1,
                           .ftype = -1,
                           .vfd = -1,
                           .err = err ? err : local};
}

static struct iodfg_eventlog *load(const char *path, unsigned columns, unsigned threads,
                                   iodfg_progress_fn progress, void *ctx,
                                   const struct load_range *range, struct iodfg_error *err)
{
    struct iodfg_error local;
    struct reader r = reader_closed(path, err, &local);
    r.columns = columns;
    struct progress pr = {.fn = progress, .ctx = ctx};
    unsigned version;
    uint64_t total = 0;
    int rc = -1;
    if (store_open_log(&r, &version) == 0 && store_load_strings(&r) == 0 &&
        store_load_keys(&r, columns) == 0) {
        r.mtype = store_row_type(0);
        r.ftype = store_row_type(1);
        if (r.mtype < 0 || r.ftype < 0) {
            store_h5_error(r.err, IODFG_E_HDF5, path, "cannot build the row type");
        } else if (store_open_cases(&r) == 0) {
            int usable = root_totals(&r, &total);
            if (version >= 3) {
                rc = load_v3(&r, usable, total, threads, &pr, range);
            } else if (range->ranged) {
                iodfg_error_set(r.err, IODFG_E_VERSION,
                                "a part of the cases is read from format 3.0 or newer only "
                                "(convert the traces again)");
                iodfg_error_at(r.err, path, 0, 0);
            } else if (usable == 0) {
                rc = read_events(&r, total, threads, &pr);
            } else if (usable > 0 && store_scan_cases(&r, &total) == 0) {
                check_totals(&r, total); // says what the cases hold
            }
        }
    }
    struct iodfg_eventlog *log = r.log;
    if (rc) {
        iodfg_eventlog_free(log);
        log = NULL;
    }
    close_reader(&r);
    return log;
}

int iodfg_store_stat(const char *path, uint64_t *cases, uint64_t *events, unsigned *version,
                     struct iodfg_error *err)
{
    struct iodfg_error local;
    struct reader r = reader_closed(path, err, &local);
    unsigned v = 0;
    uint64_t nc = 0, ne = 0;
    int rc = store_open_log(&r, &v);
    if (rc == 0) {
        int a = store_get_uint(&r, r.file, "cases", &nc);
        int b = a < 0 ? -1 : store_get_uint(&r, r.file, "events", &ne);
        if (a > 0 || b > 0) {
            store_damaged(&r, "%s", "root attributes cases/events are missing");
        }
        rc = a || b ? -1 : 0;
    }
    close_reader(&r);
    if (rc == 0) {
        if (cases) {
            *cases = nc;
        }
        if (events) {
            *events = ne;
        }
        if (version) {
            *version = v;
        }
    }
    return rc;
}
