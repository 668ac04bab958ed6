/* SPDX-License-Identifier: MIT */
/* Building the offset map of one file: the selected cases that read or write it, one point per
 * counted read or write at a known or inferred offset (positions followed through every event
 * of the case, as iodfg/access.h does), the unknown ones counted, then the patterns and the
 * written ranges. */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "iodfg/access.h"
#include "iodfg/bigmem.h"
#include "iodfg/error.h"
#include "iodfg/forkjoin.h"
#include "iodfg/handles.h"
#include "iodfg/metrics.h"
#include "iodfg/offsetmap.h"
#include "iodfg/strpool.h"
#include "iodfg/trace.h"

#include "offsetmap_priv.h"

#define RW (IODFG_IO_READ | IODFG_IO_WRITE)

/* Whether event e is a counted, successful read or write of the file that moved a known size. */
static int is_transfer(const struct om_build *x, uint64_t e)
{
    const struct iodfg_columns *col = x->col;
    uint32_t k = col->key[e];
    return x->keys[k].path == x->om->path && (x->kf[k] & RW) && om_counted(x->in, k) &&
           !(col->err && col->err[e]) && col->size[e] != IODFG_UNKNOWN && col->size[e] >= 0;
}

static int add_row(struct om_build *x, uint32_t c)
{
    struct iodfg_offsetmap *om = x->om;
    struct iodfg_offsetmap_case *grown = realloc(om->cases, (om->ncases + 1) * sizeof(*grown));
    if (!grown) {
        return -1;
    }
    om->cases = grown;
    struct iodfg_offsetmap_case *r = &om->cases[om->ncases];
    memset(r, 0, sizeof(*r));
    r->case_idx = c;
    r->band = x->band[c];
    const struct iodfg_strpool *pool = iodfg_eventlog_pool(x->in->log);
    const char *name = iodfg_strpool_get(pool, iodfg_eventlog_case(x->in->log, c)->name);
    if (iodfg_strpool_intern(om->names, name, strlen(name), &r->name)) {
        return -1;
    }
    x->row_of[c] = om->ncases++;
    return 0;
}

/* One thread's share of the scan: the cases order[from, to), each writing its points from
 * base[c] on (got[c] of them), with its own position buffer and the extent and times of its
 * points. */
struct om_share {
    struct om_build *x;
    const uint32_t *order;
    size_t from, to;
    const uint64_t *base;
    uint64_t *got;
    int64_t *pos;
    uint64_t pos_cap;
    int64_t extent, t_from, t_to;
    int rc;
};

/* The offset of transfer e and where it comes from. pos: the followed position. */
static enum iodfg_offset_source locate(const struct om_build *x, uint64_t e, int64_t pos,
                                       int64_t *off)
{
    const struct iodfg_columns *col = x->col;
    unsigned f = x->kf[col->key[e]];
    *off = (f & IODFG_IO_POSITIONAL) ? col->offset[e] : pos;
    if (*off != IODFG_UNKNOWN) {
        uint32_t h = col->handle ? col->handle[e] : IODFG_NO_HANDLE;
        int seeked = h != IODFG_NO_HANDLE && x->seeked[h];
        return (f & IODFG_IO_POSITIONAL) || seeked ? IODFG_OFFSET_KNOWN : IODFG_OFFSET_INFERRED;
    }
    *off = col->offset[e]; // a reader that follows positions itself (OTF2) stored one
    return *off != IODFG_UNKNOWN ? IODFG_OFFSET_INFERRED : IODFG_OFFSET_UNKNOWN;
}

/* One transfer of case c (row r): a point, or an unknown offset counted. */
static void transfer(struct om_share *sh, uint32_t c, uint32_t r, uint64_t e, int64_t pos)
{
    const struct om_build *x = sh->x;
    const struct iodfg_columns *col = x->col;
    int write = (x->kf[col->key[e]] & IODFG_IO_WRITE) != 0;
    int64_t off, len = col->size[e];
    enum iodfg_offset_source src = locate(x, e, pos, &off);
    struct iodfg_offsetmap_dir *d = &x->om->cases[r].dir[write ? IODFG_DIR_WRITE : IODFG_DIR_READ];
    d->n[src]++;
    d->bytes[src] = iodfg_sat_add(d->bytes[src], len);
    if (src == IODFG_OFFSET_UNKNOWN) {
        return;
    }
    struct iodfg_offset_point *p = &x->om->points[sh->base[c] + sh->got[c]++];
    int64_t dur = col->dur_ns ? col->dur_ns[e] : 0;
    *p = (struct iodfg_offset_point){.start_ns = col->start_ns[e],
                                     .dur_ns = dur == IODFG_UNKNOWN || dur < 0 ? 0 : dur,
                                     .offset = off,
                                     .length = len,
                                     .event = e,
                                     .row = r,
                                     .write = (uint8_t)write,
                                     .source = (uint8_t)src};
    int64_t end = iodfg_sat_add(off, len), t = p->start_ns + p->dur_ns;
    sh->extent = end > sh->extent ? end : sh->extent;
    sh->t_from = p->start_ns < sh->t_from ? p->start_ns : sh->t_from;
    sh->t_to = t > sh->t_to ? t : sh->t_to;
}

/* The transfers of case c in the window [lo, hi), with positions followed from its first event
 * and each handle's last use remembered (an lseek just before makes a position known; a handle
 * belongs to one case, so shares never meet). */
static int scan_case(struct om_share *sh, uint32_t c, uint64_t lo, uint64_t hi)
{
    struct om_build *x = sh->x;
    const struct iodfg_columns *col = x->col;
    const uint64_t *off = iodfg_eventlog_case_offsets(x->in->log);
    uint64_t first = off[c], n = off[c + 1] - first;
    if (n > sh->pos_cap) {
        free(sh->pos);
        sh->pos = iodfg_bigmem_alloc((size_t)n * sizeof(*sh->pos));
        sh->pos_cap = sh->pos ? n : 0;
    }
    if (!sh->pos || iodfg_access_case_offsets(x->in->log, x->kf, c, sh->pos)) {
        return -1;
    }
    uint32_t r = x->row_of[c];
    for (uint64_t e = first; e < hi; e++) {
        uint32_t k = col->key[e];
        if (x->keys[k].path != x->om->path || !x->kf[k] || (col->err && col->err[e])) {
            continue;
        }
        if (e >= lo && is_transfer(x, e)) {
            transfer(sh, c, r, e, sh->pos[e - first]);
        }
        uint32_t h = col->handle ? col->handle[e] : IODFG_NO_HANDLE;
        if (h != IODFG_NO_HANDLE) {
            x->seeked[h] = (x->kf[k] & IODFG_IO_SEEK) != 0;
        }
    }
    return 0;
}

static void *scan_share(void *arg)
{
    struct om_share *sh = arg;
    for (size_t i = sh->from; sh->rc == 0 && i < sh->to; i++) {
        uint64_t lo, hi;
        uint32_t c = sh->order[i];
        if (iodfg_trace_case_range(sh->x->in->log, sh->x->in->sel, c, &lo, &hi)) {
            sh->rc = scan_case(sh, c, lo, hi);
        }
    }
    return NULL;
}

/* The transfers of case c in its window [lo, hi) (0 when it has no window). */
static uint64_t count_transfers(const struct om_build *x, uint32_t c)
{
    uint64_t n = 0, lo, hi;
    if (x->band[c] == IODFG_PICTURE_OFF ||
        !iodfg_trace_case_range(x->in->log, x->in->sel, c, &lo, &hi)) {
        return 0;
    }
    for (uint64_t e = lo; e < hi; e++) {
        n += is_transfer(x, e);
    }
    return n;
}

/* Counting on two threads: each case's transfers into n[]. */
struct om_count {
    const struct om_build *x;
    uint64_t *n;
    uint32_t from, to;
};

static void *count_share(void *arg)
{
    struct om_count *k = arg;
    for (uint32_t c = k->from; c < k->to; c++) {
        k->n[c] = count_transfers(k->x, c);
    }
    return NULL;
}

/* Points from this many on: two threads (a thread costs less than a millisecond). */
#define OM_THREADS_FROM 65536u

static void count_all(const struct om_build *x, uint64_t *n)
{
    uint32_t nc = x->ncases_log;
    uint64_t events = iodfg_eventlog_event_count(x->in->log);
    const uint64_t *off = iodfg_eventlog_case_offsets(x->in->log);
    uint32_t mid = 0; // the case where half the events are passed
    while (mid < nc && off[mid + 1] <= events / 2) {
        mid++;
    }
    struct om_count a = {x, n, 0, mid}, b = {x, n, mid, nc};
    struct iodfg_fork f;
    iodfg_fork_start(&f, events >= x->threads_from, IODFG_FORK_TASK, count_share, &b);
    count_share(&a);
    iodfg_fork_join(&f);
}

/* Rows for the cases with transfers, G's first, and their first points; then the points written
 * by two threads, each a half of the points, and moved together where unknown offsets left
 * room. */
static int place_and_scan(struct om_build *x, const uint64_t *n, uint64_t total, uint32_t *order,
                          uint64_t *base, uint64_t *got)
{
    struct iodfg_offsetmap *om = x->om;
    size_t norder = 0;
    uint64_t at = 0;
    for (uint8_t band = 0; band < om->nbands; band++) {
        for (uint32_t c = 0; c < x->ncases_log; c++) {
            if (x->band[c] == band && n[c]) {
                if (add_row(x, c)) {
                    return -1;
                }
                order[norder++] = c;
                base[c] = at;
                at += n[c];
            }
        }
    }
    size_t mid = 0;
    while (mid < norder && base[order[mid]] + n[order[mid]] <= total / 2) {
        mid++;
    }
    struct om_share a = {x, order, 0, mid, base, got, NULL, 0, INT64_MIN, INT64_MAX, INT64_MIN, 0};
    struct om_share b = a;
    b.from = mid;
    b.to = norder;
    struct iodfg_fork f;
    iodfg_fork_start(&f, total >= x->threads_from, IODFG_FORK_TASK, scan_share, &b);
    scan_share(&a);
    iodfg_fork_join(&f);
    free(a.pos);
    free(b.pos);
    om->extent = a.extent > b.extent ? a.extent : b.extent;
    om->t_from = a.t_from < b.t_from ? a.t_from : b.t_from;
    om->t_to = a.t_to > b.t_to ? a.t_to : b.t_to;
    if (a.rc || b.rc) {
        return -1;
    }
    for (size_t i = 0; i < norder; i++) { // unknown offsets leave gaps: close them
        uint32_t c = order[i];
        if (om->npoints != base[c]) {
            memmove(&om->points[om->npoints], &om->points[base[c]], got[c] * sizeof(*om->points));
        }
        om->npoints += got[c];
    }
    return 0;
}

// The cases of each band that read or write the file in the window, and their transfers: the
// points are counted first, so that they are allocated once and each case knows where its go.
static int scan(struct om_build *x)
{
    struct iodfg_offsetmap *om = x->om;
    size_t nc = (size_t)x->ncases_log + 1;
    uint64_t *n = calloc(nc, sizeof(*n)), *base = calloc(nc, sizeof(*base)), total = 0;
    uint64_t *got = calloc(nc, sizeof(*got));
    uint32_t *order = malloc(nc * sizeof(*order));
    int rc = -1;
    if (!n || !base || !got || !order) {
        goto out;
    }
    count_all(x, n);
    for (uint32_t c = 0; c < x->ncases_log; c++) {
        total += n[c];
    }
    // huge pages: faulting in many small pages costs more than filling them (bigmem.h)
    if (total > om->points_cap || !om->points) { // else the last build's memory, faulted in
        free(om->points);
        om->points = iodfg_bigmem_alloc((size_t)(total ? total : 1) * sizeof(*om->points));
        om->points_cap = om->points ? (size_t)total : 0;
    }
    om->t_from = INT64_MAX;
    om->t_to = INT64_MIN;
    rc = om->points ? place_and_scan(x, n, total, order, base, got) : -1;
    if (!om->npoints) {
        om->t_from = om->t_to = 0;
    }
out:
    free(n);
    free(base);
    free(got);
    free(order);
    return rc;
}

static int prepare(struct om_build *x, uint32_t path, struct iodfg_error *err)
{
    const struct iodfg_eventlog *log = x->in->log;
    struct iodfg_offsetmap *om = x->om;
    x->ncases_log = iodfg_eventlog_case_count(log);
    uint32_t nk = iodfg_eventlog_key_count(log), nh = iodfg_eventlog_handle_count(log);
    om->names = iodfg_strpool_new();
    x->kf = malloc((size_t)nk + 1);
    x->band = malloc((size_t)x->ncases_log + 1);
    x->row_of = malloc(((size_t)x->ncases_log + 1) * sizeof(*x->row_of));
    x->seeked = calloc((size_t)nh + 1, 1);
    struct om_cases cs;
    if (!om->names || !x->kf || !x->band || !x->row_of || !x->seeked ||
        iodfg_picture_cases(x->in, x->band, &cs.nbands, &cs.clock, &cs.clock_dropped,
                            &cs.outside_groups)) {
        return iodfg_error_set(err, IODFG_E_NOMEM, "out of memory for the offset map");
    }
    om->nbands = cs.nbands;
    om->clock = cs.clock;
    om->clock_dropped = cs.clock_dropped;
    om->outside_groups = cs.outside_groups;
    memset(x->row_of, 0xff, ((size_t)x->ncases_log + 1) * sizeof(*x->row_of));
    iodfg_metrics_key_flags(log, x->kf);
    if (path == UINT32_MAX) { // the data file with the most bytes
        struct iodfg_offsetmap_file *f;
        size_t n;
        if (iodfg_offsetmap_files(x->in, &f, &n, err)) {
            return -1;
        }
        path = n ? f[0].path : UINT32_MAX;
        free(f);
        if (path == UINT32_MAX) {
            return iodfg_error_set(err, IODFG_E_EMPTY, "no data file is read or written");
        }
    }
    om->path = path;
    const char *name = iodfg_strpool_get(iodfg_eventlog_pool(log), path);
    return iodfg_strpool_intern(om->names, name, strlen(name), &om->name)
               ? iodfg_error_set(err, IODFG_E_NOMEM, "out of memory for the offset map")
               : 0;
}

int iodfg_offsetmap_build(struct iodfg_offsetmap *om, const struct iodfg_picture_input *in,
                          uint32_t path, struct iodfg_error *err)
{
    return iodfg_offsetmap_build_split(om, in, path, OM_THREADS_FROM, err);
}

int iodfg_offsetmap_build_split(struct iodfg_offsetmap *om, const struct iodfg_picture_input *in,
                                uint32_t path, uint64_t threads_from, struct iodfg_error *err)
{
    struct iodfg_offset_point *keep = om->points; // reused when large enough
    size_t keep_cap = om->points_cap;
    om->points = NULL;
    iodfg_offsetmap_fini(om);
    om->points = keep;
    om->points_cap = keep_cap;
    const struct iodfg_eventlog *log = in->log;
    const struct iodfg_columns *col = iodfg_eventlog_columns(log);
    if (!col->start_ns || !col->key || !col->offset || !col->fd || !col->pid || !col->size) {
        return iodfg_error_set(err, IODFG_E_ARG,
                               "the event log lacks the offset, fd, pid or size column");
    }
    if (in->map->nkeys != iodfg_eventlog_key_count(log) ||
        (path != UINT32_MAX && path >= iodfg_strpool_count(iodfg_eventlog_pool(log)))) {
        return iodfg_error_set(err, IODFG_E_ARG, "the mapping or the file is not of this log");
    }
    struct om_build x = {.in = in,
                         .om = om,
                         .col = col,
                         .keys = iodfg_eventlog_keys(log),
                         .threads_from = threads_from};
    om->handles = col->handle != NULL;
    int rc = prepare(&x, path, err);
    if (!rc && scan(&x)) {
        rc = iodfg_error_set(err, IODFG_E_NOMEM, "out of memory for the offset map");
    }
    rc = rc ? rc : om_patterns(&x, err);
    rc = rc ? rc : om_overlaps(&x, err);
    free(x.kf);
    free(x.band);
    free(x.row_of);
    free(x.seeked);
    if (rc) {
        iodfg_offsetmap_fini(om);
    }
    return rc;
}
