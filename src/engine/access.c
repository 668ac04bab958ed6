/* SPDX-License-Identifier: MIT */
/* Access patterns from offsets tracked per (case, pid, fd), and request-size histograms. */
#include "config.h"

#include "iodfg/access.h"

#include <stdlib.h>
#include <string.h>

#include "iodfg/cancel.h"
#include "iodfg/dfg.h"
#include "iodfg/error.h"
#include "iodfg/eventlog.h"
#include "iodfg/mapping.h"
#include "iodfg/metrics.h"
#include "iodfg/strpool.h"
#include "iodfg/trace.h"

void iodfg_access_init(struct iodfg_access *ac)
{
    memset(ac, 0, sizeof(*ac));
}

void iodfg_access_fini(struct iodfg_access *ac)
{
    free(ac->act);
    free(ac->files);
    free(ac->names);
    free(ac->names_bytes);
    memset(ac, 0, sizeof(*ac));
}

void iodfg_access_file_names(const struct iodfg_access *ac, const struct iodfg_eventlog *log,
                             size_t i, const char **case_name, const char **path)
{
    if (i >= ac->nfiles) {
        *case_name = *path = "";
    } else if (ac->names) {
        *case_name = ac->names[2 * i];
        *path = ac->names[2 * i + 1];
    } else {
        const struct iodfg_strpool *pool = iodfg_eventlog_pool(log);
        const struct iodfg_access_file *f = &ac->files[i];
        *case_name = iodfg_strpool_get(pool, iodfg_eventlog_case(log, f->case_idx)->name);
        *path = iodfg_strpool_get(pool, f->path);
    }
}

unsigned iodfg_access_bin(int64_t size)
{
    if (size <= 0) {
        return 0;
    }
    return 64u - (unsigned)__builtin_clzll((unsigned long long)size);
}

void iodfg_access_bin_range(unsigned bin, int64_t *lo, int64_t *hi)
{
    if (bin == 0) {
        *lo = 0;
        *hi = 1;
        return;
    }
    *lo = (int64_t)1 << (bin - 1);
    *hi = bin >= 63 ? INT64_MAX : (int64_t)1 << bin;
}

int64_t iodfg_access_median_bin(const struct iodfg_access_dir *d)
{
    if (d->ops == 0) {
        return -1;
    }
    uint64_t rank = (d->ops + 1) / 2, seen = 0; // nearest rank ceil(n/2)
    for (unsigned b = 0; b < IODFG_ACCESS_BINS; b++) {
        seen += d->hist[b];
        if (seen >= rank) {
            int64_t lo, hi;
            iodfg_access_bin_range(b, &lo, &hi);
            return lo;
        }
    }
    return -1;
}

/* ---- descriptor table: open addressing on (pid, fd), cleared lazily per case ---- */

struct stream {
    uint64_t id;  /* pid << 32 | fd */
    uint32_t gen; /* case generation; stale entries are free */
    int64_t pos;  /* IODFG_UNKNOWN when not known */
    int64_t prev[2];
};

struct table {
    struct stream *s;
    size_t cap, used;
    uint32_t gen;
    struct stream *hit; /* the last stream found: calls on one descriptor come in runs */
};

static size_t slot_of(uint64_t id, size_t cap)
{
    return (size_t)((id * 0x9E3779B97F4A7C15ull) >> 17) & (cap - 1);
}

static int table_grow(struct table *t)
{
    size_t cap = t->cap ? t->cap * 2 : 64;
    struct stream *s = calloc(cap, sizeof(*s));
    if (!s) {
        return -1;
    }
    for (size_t i = 0; i < t->cap; i++) {
        if (t->s[i].gen == t->gen) {
            size_t j = slot_of(t->s[i].id, cap);
            while (s[j].gen == t->gen) {
                j = (j + 1) & (cap - 1);
            }
            s[j] = t->s[i];
        }
    }
    free(t->s);
    t->s = s;
    t->cap = cap;
    t->hit = NULL;
    return 0;
}

// The stream (pid, fd) of the current case, created unknown when absent; NULL out of memory.
static struct stream *table_get(struct table *t, int32_t pid, int32_t fd)
{
    uint64_t id = (uint64_t)(uint32_t)pid << 32 | (uint32_t)fd;
    if (t->hit && t->hit->id == id) {
        return t->hit;
    }
    if ((t->used + 1) * 2 > t->cap && table_grow(t)) {
        return NULL;
    }
    size_t j = slot_of(id, t->cap);
    while (t->s[j].gen == t->gen) {
        if (t->s[j].id == id) {
            return t->hit = &t->s[j];
        }
        j = (j + 1) & (t->cap - 1);
    }
    t->used++;
    t->s[j] = (struct stream){id, t->gen, IODFG_UNKNOWN, {0, 0}};
    return t->hit = &t->s[j];
}

/* Follow the position of a stream through one successful call with flags f. For a read or
 * write with a known size, *at = its offset (IODFG_UNKNOWN when not known) and 1 is returned;
 * 0 for other calls. */
static int stream_step(struct stream *st, unsigned f, int64_t o, int64_t size, int64_t *at)
{
    if (f & IODFG_IO_OPEN) {
        *st = (struct stream){st->id, st->gen, 0, {0, 0}};
    } else if (f & IODFG_IO_CLOSE) {
        *st = (struct stream){st->id, st->gen, IODFG_UNKNOWN, {0, 0}};
    } else if (f & IODFG_IO_SEEK) {
        st->pos = o;
    } else if ((f & (IODFG_IO_READ | IODFG_IO_WRITE)) && size != IODFG_UNKNOWN && size >= 0) {
        *at = (f & IODFG_IO_POSITIONAL) ? o : st->pos;
        if (!(f & IODFG_IO_POSITIONAL) && st->pos != IODFG_UNKNOWN) {
            st->pos = iodfg_sat_add(st->pos, size);
        }
        return 1;
    }
    return 0;
}

/* ---- the scan ---- */

struct files {
    uint32_t *stamp, *idx; /* per path id: case + 1 of the last use, row index */
    size_t cap;
};

static struct iodfg_access_row *file_row(struct iodfg_access *ac, struct files *fs, uint32_t c,
                                         uint32_t path)
{
    if (fs->stamp[path] == c + 1) {
        return &ac->files[fs->idx[path]].row;
    }
    if (ac->nfiles == fs->cap) {
        size_t cap = fs->cap ? fs->cap * 2 : 64;
        struct iodfg_access_file *grown = realloc(ac->files, cap * sizeof(*grown));
        if (!grown) {
            return NULL;
        }
        ac->files = grown;
        fs->cap = cap;
    }
    fs->stamp[path] = c + 1;
    fs->idx[path] = (uint32_t)ac->nfiles;
    struct iodfg_access_file *f = &ac->files[ac->nfiles++];
    memset(f, 0, sizeof(*f));
    f->case_idx = c;
    f->path = path;
    return &f->row;
}

static void count(struct iodfg_access_dir *d, int64_t off, int64_t prev, int64_t size,
                  int64_t align, int inferred)
{
    d->ops++;
    d->bytes = iodfg_sat_add(d->bytes, size);
    d->hist[iodfg_access_bin(size)]++;
    if (off == IODFG_UNKNOWN) {
        d->unknown++;
        return;
    }
    d->inferred += inferred != 0;
    if (off == prev) {
        d->consecutive++;
    } else if (off > prev) {
        d->sequential++;
    } else {
        d->random++;
    }
    d->unaligned += (align & (align - 1)) ? off % align != 0 : (off & (align - 1)) != 0;
}

void iodfg_access_dir_add(struct iodfg_access_dir *to, const struct iodfg_access_dir *d)
{
    to->ops += d->ops;
    to->consecutive += d->consecutive;
    to->sequential += d->sequential;
    to->random += d->random;
    to->unknown += d->unknown;
    to->unaligned += d->unaligned;
    to->inferred += d->inferred;
    to->bytes = iodfg_sat_add(to->bytes, d->bytes);
    for (int b = 0; b < IODFG_ACCESS_BINS; b++) {
        to->hist[b] += d->hist[b];
    }
}

struct ctx {
    struct iodfg_access *ac;
    const struct iodfg_eventlog *log;
    const struct iodfg_selection *sel;
    const uint8_t *kf;
    const uint32_t *act;
    struct table t;
    struct files fs;
    struct iodfg_access_row *key_row; /* per key: counts of the current case */
    uint8_t *key_used;
    uint32_t *touched;
};

// Fold the current case's per-key counts into the activity, overall and (case, file) rows.
static int fold_case(struct ctx *x, uint32_t c, size_t ntouched)
{
    const struct iodfg_key *keys = iodfg_eventlog_keys(x->log);
    for (size_t i = 0; i < ntouched; i++) {
        uint32_t k = x->touched[i];
        struct iodfg_access_row *kr = &x->key_row[k];
        struct iodfg_access_row *fr = file_row(x->ac, &x->fs, c, keys[k].path);
        if (!fr) {
            return -1;
        }
        for (int d = 0; d < 2; d++) {
            iodfg_access_dir_add(&x->ac->act[x->act[k]].dir[d], &kr->dir[d]);
            iodfg_access_dir_add(&x->ac->overall.dir[d], &kr->dir[d]);
            iodfg_access_dir_add(&fr->dir[d], &kr->dir[d]);
        }
        memset(kr, 0, sizeof(*kr));
        x->key_used[k] = 0;
    }
    return 0;
}

/* Whether the events [from, to) hold a seek: then the trace shows every seek of the program,
 * and positions followed from opens and sizes are known, not guessed. */
static int has_seek(const struct ctx *x, const struct iodfg_columns *col, uint64_t from,
                    uint64_t to)
{
    for (uint64_t e = from; e < to; e++) {
        if (x->kf[col->key[e]] & IODFG_IO_SEEK) {
            return 1;
        }
    }
    return 0;
}

static int scan_case(struct ctx *x, uint32_t c, uint64_t from, uint64_t to)
{
    const struct iodfg_columns *col = iodfg_eventlog_columns(x->log);
    int seeks_traced = has_seek(x, col, from, to);
    size_t ntouched = 0;
    uint64_t lo = 0, hi = 0; // the selected (time window) range
    iodfg_trace_case_range(x->log, x->sel, c, &lo, &hi);
    x->t.gen++;
    x->t.used = 0;
    x->t.hit = NULL;
    for (uint64_t e = from; e < to; e++) {
        uint32_t k = col->key[e];
        unsigned f = x->kf[k];
        int32_t fd = col->fd[e];
        if (!f || fd < 0 || (col->err && col->err[e])) {
            continue;
        }
        struct stream *st = table_get(&x->t, col->pid[e], fd);
        if (!st) {
            return -1;
        }
        int64_t size = col->size ? col->size[e] : IODFG_UNKNOWN, at;
        if (stream_step(st, f, col->offset[e], size, &at)) {
            int dir = (f & IODFG_IO_READ) ? IODFG_DIR_READ : IODFG_DIR_WRITE;
            int64_t prev = st->prev[dir];
            if (at != IODFG_UNKNOWN) {
                st->prev[dir] = iodfg_sat_add(at, size);
            }
            uint32_t a = x->act[k];
            if (e < lo || e >= hi || a == IODFG_NO_ACTIVITY) {
                continue;
            }
            if (!x->key_used[k]) {
                x->key_used[k] = 1;
                x->touched[ntouched++] = k;
            }
            count(&x->key_row[k].dir[dir], at, prev, size, x->ac->alignment,
                  !seeks_traced && !(f & IODFG_IO_POSITIONAL));
        }
    }
    return fold_case(x, c, ntouched);
}

int iodfg_access_build(struct iodfg_access *ac, const struct iodfg_eventlog *log,
                       const struct iodfg_mapping *map, const struct iodfg_selection *sel,
                       int64_t alignment, const struct iodfg_cancel *cancel,
                       struct iodfg_error *err)
{
    iodfg_access_fini(ac);
    const struct iodfg_columns *col = iodfg_eventlog_columns(log);
    if (!col->start_ns || !col->key || !col->offset || !col->fd || !col->pid || !col->size) {
        return iodfg_error_set(err, IODFG_E_ARG,
                               "the event log lacks the offset, fd, pid or size column");
    }
    uint32_t nk = iodfg_eventlog_key_count(log);
    if (map->nkeys != nk) {
        return iodfg_error_set(err, IODFG_E_ARG, "the mapping does not belong to this log");
    }
    ac->alignment = alignment > 0 ? alignment : 1;
    uint32_t np = iodfg_strpool_count(iodfg_eventlog_pool(log));
    struct ctx x = {.ac = ac, .log = log, .sel = sel, .act = map->activity_of_key};
    uint8_t *kf = malloc((size_t)nk + 1);
    x.kf = kf;
    x.fs.stamp = calloc((size_t)np + 1, sizeof(uint32_t));
    x.fs.idx = calloc((size_t)np + 1, sizeof(uint32_t));
    ac->act = calloc((size_t)map->nactivities + 1, sizeof(*ac->act));
    ac->nactivities = map->nactivities;
    x.key_row = calloc((size_t)nk + 1, sizeof(*x.key_row));
    x.key_used = calloc((size_t)nk + 1, 1);
    x.touched = malloc(((size_t)nk + 1) * sizeof(uint32_t));
    int rc = -1, stopped = 0;
    if (!kf || !x.fs.stamp || !x.fs.idx || !ac->act || !x.key_row || !x.key_used || !x.touched) {
        goto out;
    }
    iodfg_metrics_key_flags(log, kf);
    const uint64_t *off = iodfg_eventlog_case_offsets(log);
    uint32_t nc = iodfg_eventlog_case_count(log);
    for (uint32_t c = 0; c < nc; c++) {
        if ((stopped = iodfg_cancel_requested(cancel)) != 0) {
            goto out;
        }
        if ((!sel->case_on || sel->case_on[c]) && scan_case(&x, c, off[c], off[c + 1])) {
            goto out;
        }
    }
    rc = 0;
out:
    if (rc) {
        iodfg_error_set(err, stopped ? IODFG_E_CANCELLED : IODFG_E_NOMEM, NULL);
        iodfg_access_fini(ac);
    }
    free(kf);
    free(x.key_row);
    free(x.key_used);
    free(x.touched);
    free(x.t.s);
    free(x.fs.stamp);
    free(x.fs.idx);
    return rc;
}

int iodfg_access_case_offsets(const struct iodfg_eventlog *log, const uint8_t *key_flags,
                              uint32_t c, int64_t *out)
{
    const struct iodfg_columns *col = iodfg_eventlog_columns(log);
    const uint64_t *off = iodfg_eventlog_case_offsets(log);
    struct table t = {.gen = 1};
    int rc = 0;
    for (uint64_t e = off[c]; e < off[c + 1]; e++) {
        int64_t *at = &out[e - off[c]];
        *at = IODFG_UNKNOWN;
        unsigned f = key_flags[col->key[e]];
        if (!f || col->fd[e] < 0 || (col->err && col->err[e])) {
            continue;
        }
        struct stream *st = table_get(&t, col->pid[e], col->fd[e]);
        if (!st) {
            rc = -1;
            break;
        }
        int64_t size = col->size ? col->size[e] : IODFG_UNKNOWN;
        if (!stream_step(st, f, col->offset[e], size, at)) {
            *at = IODFG_UNKNOWN;
        }
    }
    free(t.s);
    return rc;
}
