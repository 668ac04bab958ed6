/* SPDX-License-Identifier: MIT */
/* Insights per file: a file written by several cases at once, bytes read again by the same
 * case, and files a case opens again and again. */
#include "config.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "iodfg/access.h"
#include "iodfg/eventlog.h"
#include "iodfg/format.h"
#include "iodfg/mapping.h"
#include "iodfg/metrics.h"
#include "iodfg/strpool.h"

#include "insights_families.h"
#include "insights_tally.h"

/* Byte ranges read, as sorted disjoint [lo, hi) intervals (capped: a file read in more pieces
 * than that is no longer judged). */
#define SPANS_MAX 65536
struct spans {
    int64_t *lo, *hi;
    size_t n, cap;
    int overflow;
};

// Add [lo, hi) and return how many of its bytes were already in the set (-1: out of memory).
static int64_t spans_add(struct spans *s, int64_t lo, int64_t hi)
{
    size_t a = 0, b = s->n;
    while (a < b) { // first interval ending at or after lo
        size_t m = (a + b) / 2;
        if (s->hi[m] < lo) {
            a = m + 1;
        } else {
            b = m;
        }
    }
    int64_t seen = 0, nlo = lo, nhi = hi;
    size_t end = a;
    while (end < s->n && s->lo[end] <= hi) {
        int64_t l = s->lo[end] > lo ? s->lo[end] : lo, h = s->hi[end] < hi ? s->hi[end] : hi;
        seen += h > l ? h - l : 0;
        nlo = s->lo[end] < nlo ? s->lo[end] : nlo;
        nhi = s->hi[end] > nhi ? s->hi[end] : nhi;
        end++;
    }
    if (end == a) { // no interval touched: insert one
        if (s->n == s->cap) {
            size_t cap = s->cap ? s->cap * 2 : 4;
            int64_t *l = realloc(s->lo, cap * sizeof(*l));
            if (l) {
                s->lo = l;
            }
            int64_t *h = l ? realloc(s->hi, cap * sizeof(*h)) : NULL;
            if (!h) {
                return -1;
            }
            s->hi = h;
            s->cap = cap;
        }
        end = a + 1;
        memmove(&s->lo[end], &s->lo[a], (s->n - a) * sizeof(*s->lo));
        memmove(&s->hi[end], &s->hi[a], (s->n - a) * sizeof(*s->hi));
        s->n++;
    } else if (end > a + 1) { // several merged into the first
        memmove(&s->lo[a + 1], &s->lo[end], (s->n - end) * sizeof(*s->lo));
        memmove(&s->hi[a + 1], &s->hi[end], (s->n - end) * sizeof(*s->hi));
        s->n -= end - a - 1;
    }
    s->lo[a] = nlo;
    s->hi[a] = nhi;
    s->overflow = s->n > SPANS_MAX;
    return seen;
}

/* One file in the current case. */
struct case_file {
    uint32_t path;
    struct spans read;
    struct ins_set writes; /* for shared-file */
    uint32_t write_act;
    uint64_t opens;
};

/* One file over every case. */
struct file_agg {
    uint32_t path, read_act, open_act;
    struct ins_set reread; /* reads that met bytes read before */
    int64_t read_bytes, reread_bytes;
    uint64_t reads_unknown;
    struct ins_set opens;
    uint64_t max_opens, reopen_cases;
};

/* A (file, case) that wrote, for the shared-file sweep. */
struct write_row {
    uint32_t path, c, act;
    int clock;
    struct ins_set set;
};

struct files {
    struct ins_ctx *x;
    int64_t *at; /* offsets of the current case's events */
    struct case_file *cf;
    size_t ncf, capcf;
    struct ins_map cf_of, agg_of; /* path -> index + 1 */
    struct file_agg *agg;
    size_t nagg, capagg;
    struct write_row *rows;
    size_t nrows, caprows;
};

static void *grow(void *v, size_t *cap, size_t n, size_t size)
{
    if (n < *cap) {
        return v;
    }
    size_t c = *cap ? *cap * 2 : 16;
    void *g = realloc(v, c * size);
    if (g) {
        *cap = c;
    }
    return g;
}

/* The row of path in the array *v (n rows of size bytes, found through map), appended zeroed
 * with its first field set to path when new; NULL when out of memory. The first field of a
 * row is its path. */
static void *row_of(struct ins_map *map, uint32_t path, void **v, size_t *n, size_t *cap,
                    size_t size)
{ // *v is a local void * of the caller (no type punning of the array pointer itself)
    uint64_t *slot = ins_map_get(map, path);
    if (!slot) {
        return NULL;
    }
    if (!*slot) {
        char *g = grow(*v, cap, *n, size);
        if (!g) {
            return NULL;
        }
        *v = g;
        memset(g + *n * size, 0, size);
        memcpy(g + *n * size, &path, sizeof(path));
        *slot = ++*n;
    }
    return (char *)*v + (*slot - 1) * size;
}

static struct case_file *case_file(struct files *fs, uint32_t path)
{
    void *v = fs->cf;
    struct case_file *r = row_of(&fs->cf_of, path, &v, &fs->ncf, &fs->capcf, sizeof(*fs->cf));
    fs->cf = v;
    return r;
}

static struct file_agg *file_agg(struct files *fs, uint32_t path)
{
    void *v = fs->agg;
    struct file_agg *r = row_of(&fs->agg_of, path, &v, &fs->nagg, &fs->capagg, sizeof(*fs->agg));
    fs->agg = v;
    return r;
}

static int file_event(struct files *fs, uint32_t c, uint64_t e, uint64_t first)
{
    struct ins_ctx *x = fs->x;
    const struct iodfg_columns *col = iodfg_eventlog_columns(x->log);
    uint32_t k = col->key[e], a = x->map->activity_of_key[k];
    const struct iodfg_key *key = &iodfg_eventlog_keys(x->log)[k];
    unsigned f = x->kflags[k];
    if (a == IODFG_NO_ACTIVITY || key->kind != IODFG_PATH_FILE || col->err[e] ||
        !(f & (IODFG_IO_READ | IODFG_IO_WRITE | IODFG_IO_OPEN))) {
        return 0;
    }
    struct case_file *cf = case_file(fs, key->path);
    struct file_agg *ag = cf ? file_agg(fs, key->path) : NULL;
    if (!ag) {
        return -1;
    }
    int64_t d = col->dur_ns[e] == IODFG_UNKNOWN ? 0 : col->dur_ns[e], size = col->size[e];
    if (f & IODFG_IO_OPEN) {
        cf->opens++;
        ag->open_act = a;
        ins_set_add(&ag->opens, x->log, c, col->start_ns[e], d, 0);
    } else if (f & IODFG_IO_WRITE) {
        cf->write_act = a;
        ins_set_add(&cf->writes, x->log, c, col->start_ns[e], d, size);
    } else if (size > 0) {
        int64_t at = fs->at[e - first];
        if (at == IODFG_UNKNOWN || cf->read.overflow) {
            ag->reads_unknown++;
            return 0;
        }
        int64_t seen = spans_add(&cf->read, at, iodfg_sat_add(at, size));
        if (seen < 0) {
            return -1;
        }
        ag->read_bytes = iodfg_sat_add(ag->read_bytes, size);
        ag->read_act = a;
        if (seen > 0) {
            ag->reread_bytes = iodfg_sat_add(ag->reread_bytes, seen);
            ins_set_add(&ag->reread, x->log, c, col->start_ns[e], d, seen);
        }
    }
    return 0;
}

// Fold the case's files into the aggregates and the write rows; empty the case's table.
static int end_case(struct files *fs, uint32_t c)
{
    for (size_t i = 0; i < fs->ncf; i++) {
        struct case_file *cf = &fs->cf[i];
        struct file_agg *ag = file_agg(fs, cf->path);
        if (!ag) {
            return -1;
        }
        ag->max_opens = cf->opens > ag->max_opens ? cf->opens : ag->max_opens;
        ag->reopen_cases += cf->opens >= fs->x->t->reopens;
        if (cf->writes.n) {
            struct write_row *v = grow(fs->rows, &fs->caprows, fs->nrows, sizeof(*v));
            if (!v) {
                return -1;
            }
            fs->rows = v;
            v[fs->nrows++] =
                (struct write_row){cf->path, c, cf->write_act,
                                   (int)iodfg_eventlog_case(fs->x->log, c)->clock, cf->writes};
        }
        free(cf->read.lo);
        free(cf->read.hi);
    }
    fs->ncf = 0;
    ins_map_reset(&fs->cf_of);
    return 0;
}

static int scan_files(struct files *fs)
{
    struct ins_ctx *x = fs->x;
    const uint64_t *off = iodfg_eventlog_case_offsets(x->log);
    uint32_t nc = iodfg_eventlog_case_count(x->log);
    for (uint32_t c = 0; c < nc; c++) {
        uint64_t lo, hi;
        if (!ins_case_range(x, c, &lo, &hi)) {
            continue;
        }
        int64_t *at = realloc(fs->at, (size_t)(off[c + 1] - off[c] + 1) * sizeof(*at));
        if (!at) {
            return -1;
        }
        fs->at = at;
        if (iodfg_access_case_offsets(x->log, x->kflags, c, at)) {
            return -1;
        }
        for (uint64_t e = lo; e < hi; e++) {
            if (file_event(fs, c, e, off[c])) {
                return -1;
            }
        }
        if (end_case(fs, c)) {
            return -1;
        }
    }
    return 0;
}

/* ---- findings ---- */

static int by_path_clock(const void *pa, const void *pb)
{
    const struct write_row *a = pa, *b = pb;
    if (a->path != b->path) {
        return a->path < b->path ? -1 : 1;
    }
    return a->clock != b->clock ? (a->clock < b->clock ? -1 : 1) : (a->c > b->c) - (a->c < b->c);
}

struct point {
    int64_t t;
    int delta; /* +1 a case starts writing, -1 it stops */
};

static int by_time(const void *pa, const void *pb)
{
    const struct point *a = pa, *b = pb;
    if (a->t != b->t) {
        return a->t < b->t ? -1 : 1;
    }
    return a->delta - b->delta; // ends before starts: touching spans do not overlap
}

/* The write spans of rows[0..n) (one file, one clock): the most cases writing at once, and the
 * first and last moment two or more did. */
static void sweep(const struct write_row *rows, size_t n, struct point *pts, int *most,
                  int64_t *from, int64_t *to, int64_t *overlap)
{
    for (size_t i = 0; i < n; i++) {
        pts[2 * i] = (struct point){rows[i].set.first_ns, 1};
        pts[2 * i + 1] = (struct point){rows[i].set.last_ns, -1};
    }
    qsort(pts, 2 * n, sizeof(*pts), by_time);
    int active = 0;
    *most = 0;
    *overlap = 0;
    for (size_t i = 0; i < 2 * n; i++) {
        active += pts[i].delta;
        if (active >= 2) {
            *from = *most >= 2 ? *from : pts[i].t;
            *to = i + 1 < 2 * n ? pts[i + 1].t : pts[i].t;
            *overlap = iodfg_sat_add(*overlap, *to - pts[i].t);
        }
        *most = active > *most ? active : *most;
    }
}

struct overlap {
    int most;                  /* the most cases writing at once */
    int64_t from, to, time_ns; /* first and last moment of overlap, time with two or more */
};

static int shared_finding(struct files *fs, const struct write_row *rows, size_t n,
                          const struct overlap *ov, size_t ncases)
{
    struct ins_ctx *x = fs->x;
    struct ins_set all = {0};
    for (size_t i = 0; i < n; i++) {
        all.n += rows[i].set.n;
        all.dur_ns = iodfg_sat_add(all.dur_ns, rows[i].set.dur_ns);
        all.bytes = iodfg_sat_add(all.bytes, rows[i].set.bytes);
    }
    struct iodfg_insight *f = ins_new(x, IODFG_INS_SHARED_FILE, (double)all.dur_ns);
    const struct iodfg_strpool *pool = iodfg_eventlog_pool(x->log);
    if (!f || ins_intern(x, iodfg_strpool_get(pool, rows[0].path),
                         iodfg_strpool_len(pool, rows[0].path), &f->subject)) {
        return -1;
    }
    f->subject_kind = IODFG_SUBJ_PATH;
    f->paths[f->npaths++] = f->subject;
    f->paths_total = 1;
    for (size_t i = 0; i < n; i++) {
        ins_add_act(f, rows[i].act);
        f->cases_total++;
        if (f->ncases < IODFG_INSIGHT_KEEP) {
            f->cases[f->ncases++] = rows[i].c;
        }
    }
    f->has_window = 1;
    f->clock = rows[0].clock;
    f->from_ns = ov->from;
    f->to_ns = ov->to;
    char v[2][IODFG_FORMAT_MIN];
    iodfg_format_bytes(v[0], sizeof(v[0]), all.bytes, 0);
    iodfg_format_duration(v[1], sizeof(v[1]), ov->time_ns, 0);
    ins_text(f,
             "written by %zu cases (%llu writes, %s), up to %d of them at once; two or more "
             "write to it during %s",
             ncases, (unsigned long long)all.n, v[0], ov->most, v[1]);
    ins_num(f, "cases", (double)ncases);
    ins_num(f, "writes", (double)all.n);
    ins_num(f, "bytes", (double)all.bytes);
    ins_num(f, "max_concurrent_cases", ov->most);
    ins_num(f, "overlap_ns", (double)ov->time_ns);
    ins_num(f, "time_ns", (double)all.dur_ns);
    return 0;
}

static int judge_shared(struct files *fs)
{
    if (!fs->nrows) {
        return 0;
    }
    qsort(fs->rows, fs->nrows, sizeof(*fs->rows), by_path_clock);
    struct point *pts = malloc(2 * fs->nrows * sizeof(*pts));
    if (!pts) {
        return -1;
    }
    int rc = 0;
    for (size_t i = 0; rc == 0 && i < fs->nrows;) {
        size_t j = i, best = i, bestn = 0;
        while (j < fs->nrows && fs->rows[j].path == fs->rows[i].path) {
            size_t k = j; // rows of one clock are compared with each other only
            while (k < fs->nrows && fs->rows[k].path == fs->rows[j].path &&
                   fs->rows[k].clock == fs->rows[j].clock) {
                k++;
            }
            if (k - j > bestn) {
                best = j;
                bestn = k - j;
            }
            j = k;
        }
        struct overlap ov = {0};
        if (bestn >= fs->x->t->shared_cases && fs->rows[best].clock != IODFG_CLOCK_NONE) {
            sweep(&fs->rows[best], bestn, pts, &ov.most, &ov.from, &ov.to, &ov.time_ns);
            if (ov.most >= fs->x->t->shared_cases) {
                rc = shared_finding(fs, &fs->rows[best], bestn, &ov, j - i);
            }
        }
        i = j;
    }
    free(pts);
    return rc;
}

static int path_subject(struct files *fs, struct iodfg_insight *f, uint32_t path)
{
    const struct iodfg_strpool *pool = iodfg_eventlog_pool(fs->x->log);
    if (ins_intern(fs->x, iodfg_strpool_get(pool, path), iodfg_strpool_len(pool, path),
                   &f->subject)) {
        return -1;
    }
    f->subject_kind = IODFG_SUBJ_PATH;
    f->paths[0] = f->subject;
    f->npaths = f->paths_total = 1;
    return 0;
}

static int judge_file(struct files *fs, const struct file_agg *ag)
{
    struct ins_ctx *x = fs->x;
    const struct iodfg_insight_thresholds *t = x->t;
    char v[3][IODFG_FORMAT_MIN];
    if (x->on[IODFG_INS_REREAD] && ag->reread_bytes > 0 && ag->reread_bytes >= t->reread_bytes &&
        (double)ag->reread_bytes >= t->reread_share * (double)ag->read_bytes) {
        struct iodfg_insight *f = ins_new(x, IODFG_INS_REREAD, (double)ag->reread.dur_ns);
        if (!f || path_subject(fs, f, ag->path)) {
            return -1;
        }
        ins_add_act(f, ag->read_act);
        ins_evidence(f, &ag->reread);
        iodfg_format_bytes(v[0], sizeof(v[0]), ag->reread_bytes, 0);
        iodfg_format_bytes(v[1], sizeof(v[1]), ag->read_bytes, 0);
        iodfg_format_duration(v[2], sizeof(v[2]), ag->reread.dur_ns, 0);
        ins_text(f,
                 "%s of the %s read (at known offsets) had been read before by the same case "
                 "(%llu reads, %s); %llu reads at unknown offsets not judged",
                 v[0], v[1], (unsigned long long)ag->reread.n, v[2],
                 (unsigned long long)ag->reads_unknown);
        ins_num(f, "reread_bytes", (double)ag->reread_bytes);
        ins_num(f, "read_bytes", (double)ag->read_bytes);
        ins_num(f, "reread_ops", (double)ag->reread.n);
        ins_num(f, "unknown_ops", (double)ag->reads_unknown);
        ins_num(f, "time_ns", (double)ag->reread.dur_ns);
    }
    if (x->on[IODFG_INS_REPEATED_OPEN] && ag->reopen_cases) {
        struct iodfg_insight *f = ins_new(x, IODFG_INS_REPEATED_OPEN, (double)ag->opens.dur_ns);
        if (!f || path_subject(fs, f, ag->path)) {
            return -1;
        }
        ins_add_act(f, ag->open_act);
        ins_evidence(f, &ag->opens);
        iodfg_format_duration(v[0], sizeof(v[0]), ag->opens.dur_ns, 0);
        ins_text(f,
                 "opened up to %llu times by one case; %llu opens in %u case(s), %llu of them "
                 "at %.0f or more; %s in the opens",
                 (unsigned long long)ag->max_opens, (unsigned long long)ag->opens.n,
                 ag->opens.cases_total, (unsigned long long)ag->reopen_cases, t->reopens, v[0]);
        ins_num(f, "max_opens_per_case", (double)ag->max_opens);
        ins_num(f, "opens", (double)ag->opens.n);
        ins_num(f, "cases_over", (double)ag->reopen_cases);
        ins_num(f, "time_ns", (double)ag->opens.dur_ns);
    }
    return 0;
}

int ins_scan_files(struct ins_ctx *x)
{
    struct files fs = {.x = x};
    int rc = scan_files(&fs);
    if (rc == 0 && x->on[IODFG_INS_SHARED_FILE]) {
        rc = judge_shared(&fs);
    }
    for (size_t i = 0; rc == 0 && i < fs.nagg; i++) {
        rc = judge_file(&fs, &fs.agg[i]);
    }
    for (size_t i = 0; i < fs.ncf; i++) { // left by a failure within a case
        free(fs.cf[i].read.lo);
        free(fs.cf[i].read.hi);
    }
    free(fs.at);
    free(fs.cf);
    free(fs.agg);
    free(fs.rows);
    ins_map_fini(&fs.cf_of);
    ins_map_fini(&fs.agg_of);
    return rc;
}
