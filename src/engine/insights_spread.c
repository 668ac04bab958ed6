/* SPDX-License-Identifier: MIT */
/* Insights on how I/O spreads over cases and files: one file per process (each file of a
 * directory written by exactly one case), and one case doing all of an activity's I/O on files
 * other cases use too. */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "iodfg/eventlog.h"
#include "iodfg/format.h"
#include "iodfg/mapping.h"
#include "iodfg/metrics.h"
#include "iodfg/strpool.h"

#include "insights_families.h"
#include "insights_tally.h"

#define DATA (IODFG_IO_READ | IODFG_IO_WRITE | IODFG_IO_SEEK)

/* A regular file: the cases that use it and those that write it. */
struct file_use {
    uint32_t path;
    uint32_t users, last1;            /* cases with any selected event on it; last case + 1 */
    uint32_t writers, wlast1, writer; /* cases writing it; the last + 1; the first */
    uint32_t write_act;
    struct ins_set writes;
};

/* An activity's reads, writes and seeks of regular files. */
struct act_use {
    uint32_t first1; /* its only case + 1 so far (0: none yet) */
    int several;     /* a second case did some */
    struct ins_set set;
};

struct spread {
    struct ins_ctx *x;
    struct ins_map file_of; /* path -> index + 1 */
    struct file_use *files;
    size_t nfiles, capfiles;
    struct act_use *acts;       /* per activity */
    struct ins_pairs act_paths; /* (activity, path) per data event */
};

static struct file_use *file_use(struct spread *sp, uint32_t path)
{
    uint64_t *slot = ins_map_get(&sp->file_of, path);
    if (!slot) {
        return NULL;
    }
    if (!*slot) {
        if (sp->nfiles == sp->capfiles) {
            size_t cap = sp->capfiles ? 2 * sp->capfiles : 64;
            struct file_use *v = realloc(sp->files, cap * sizeof(*v));
            if (!v) {
                return NULL;
            }
            sp->files = v;
            sp->capfiles = cap;
        }
        memset(&sp->files[sp->nfiles], 0, sizeof(sp->files[0]));
        sp->files[sp->nfiles].path = path;
        *slot = ++sp->nfiles;
    }
    return &sp->files[*slot - 1];
}

static int spread_event(struct spread *sp, uint32_t c, uint64_t e)
{
    struct ins_ctx *x = sp->x;
    const struct iodfg_columns *col = iodfg_eventlog_columns(x->log);
    uint32_t k = col->key[e], a = x->map->activity_of_key[k];
    if (a == IODFG_NO_ACTIVITY || col->err[e] || !ins_key_is_file(x->log, k)) {
        return 0;
    }
    uint32_t path = iodfg_eventlog_keys(x->log)[k].path;
    struct file_use *fu = file_use(sp, path);
    if (!fu) {
        return -1;
    }
    if (fu->last1 != c + 1) {
        fu->users++;
        fu->last1 = c + 1;
    }
    unsigned f = x->kflags[k];
    int64_t d = col->dur_ns[e] == IODFG_UNKNOWN ? 0 : col->dur_ns[e];
    int64_t z = col->size[e] == IODFG_UNKNOWN ? 0 : col->size[e];
    if (f & IODFG_IO_WRITE) {
        if (fu->wlast1 != c + 1) {
            fu->writer = fu->writers++ ? fu->writer : c;
            fu->wlast1 = c + 1;
        }
        fu->write_act = a;
        ins_set_add(&fu->writes, x->log, c, col->start_ns[e], d, z);
    }
    if (f & DATA) {
        struct act_use *au = &sp->acts[a];
        au->several |= au->first1 && au->first1 != c + 1;
        au->first1 = au->first1 ? au->first1 : c + 1;
        ins_set_add(&au->set, x->log, c, col->start_ns[e], d, z);
        return ins_pairs_add(&sp->act_paths, a, path);
    }
    return 0;
}

/* ---- file per process ---- */

struct written {
    const char *path;
    size_t dir_len; /* the directory: path[0 .. dir_len) */
    const struct file_use *fu;
};

static int by_dir(const void *pa, const void *pb)
{
    const struct written *a = pa, *b = pb;
    size_t n = a->dir_len < b->dir_len ? a->dir_len : b->dir_len;
    int c = memcmp(a->path, b->path, n);
    if (c || a->dir_len != b->dir_len) {
        return c ? c : (a->dir_len < b->dir_len ? -1 : 1);
    }
    return (a->fu->writer > b->fu->writer) - (a->fu->writer < b->fu->writer);
}

/* The files w[0..n) of one directory, each written by one case: a finding when they are at
 * least fpp-files and no two share their writer. */
static int judge_dir(struct spread *sp, const struct written *w, size_t n)
{
    struct ins_ctx *x = sp->x;
    if ((double)n < x->t->fpp_files) {
        return 0;
    }
    for (size_t i = 0; i < n; i++) {
        if (w[i].fu->writers != 1 || (i && w[i].fu->writer == w[i - 1].fu->writer)) {
            return 0; // sorted by writer: a case writing two of them is not one file per process
        }
    }
    struct ins_set all = {0};
    int same_clock = 1;
    for (size_t i = 0; i < n; i++) {
        const struct ins_set *s = &w[i].fu->writes;
        all.n += s->n;
        all.dur_ns = iodfg_sat_add(all.dur_ns, s->dur_ns);
        all.bytes = iodfg_sat_add(all.bytes, s->bytes);
        same_clock &= !s->mixed_clocks && s->clock == w[0].fu->writes.clock;
        all.first_ns = i == 0 || s->first_ns < all.first_ns ? s->first_ns : all.first_ns;
        all.last_ns = i == 0 || s->last_ns > all.last_ns ? s->last_ns : all.last_ns;
    }
    struct iodfg_insight *f = ins_new(x, IODFG_INS_FILE_PER_PROCESS, (double)all.dur_ns);
    if (!f || ins_intern(x, w[0].path, w[0].dir_len ? w[0].dir_len : 1, &f->subject)) {
        return -1;
    }
    f->subject_kind = IODFG_SUBJ_PATH;
    for (size_t i = 0; i < n; i++) {
        ins_add_act(f, w[i].fu->write_act);
        if (ins_add_path(x, f, w[i].path, strlen(w[i].path))) {
            return -1;
        }
        f->cases_total++;
        if (f->ncases < IODFG_INSIGHT_KEEP) {
            f->cases[f->ncases++] = w[i].fu->writer;
        }
    }
    f->has_window = same_clock;
    f->clock = w[0].fu->writes.clock;
    f->from_ns = all.first_ns;
    f->to_ns = all.last_ns;
    char v[2][IODFG_FORMAT_MIN];
    iodfg_format_bytes(v[0], sizeof(v[0]), (int64_t)((double)all.bytes / (double)n), 0);
    iodfg_format_duration(v[1], sizeof(v[1]), all.dur_ns, 0);
    ins_text(f,
             "%zu files in one directory, each written by exactly one case and each case writing "
             "one (%s and %.3g writes per file); %s in the writes",
             n, v[0], (double)all.n / (double)n, v[1]);
    ins_num(f, "files", (double)n);
    ins_num(f, "cases", (double)n);
    ins_num(f, "bytes", (double)all.bytes);
    ins_num(f, "writes", (double)all.n);
    ins_num(f, "time_ns", (double)all.dur_ns);
    return 0;
}

static int judge_fpp(struct spread *sp)
{
    const struct iodfg_strpool *pool = iodfg_eventlog_pool(sp->x->log);
    struct written *w = malloc((sp->nfiles + 1) * sizeof(*w));
    if (!w) {
        return -1;
    }
    size_t n = 0;
    for (size_t i = 0; i < sp->nfiles; i++) {
        if (sp->files[i].writers) {
            const char *p = iodfg_strpool_get(pool, sp->files[i].path), *sl = strrchr(p, '/');
            w[n++] = (struct written){p, sl ? (size_t)(sl - p) : 0, &sp->files[i]};
        }
    }
    qsort(w, n, sizeof(*w), by_dir);
    int rc = 0;
    for (size_t i = 0; rc == 0 && i < n;) {
        size_t j = i + 1;
        while (j < n && w[j].dir_len == w[i].dir_len &&
               !memcmp(w[j].path, w[i].path, w[i].dir_len)) {
            j++;
        }
        rc = judge_dir(sp, w + i, j - i);
        i = j;
    }
    free(w);
    return rc;
}

/* ---- one case does all of it ---- */

// The most cases using one of activity a's files.
static uint32_t most_users(struct spread *sp, uint32_t a, size_t lo)
{
    uint32_t most = 0;
    for (size_t i = lo; i < sp->act_paths.n && sp->act_paths.v[i].group == a; i++) {
        uint64_t *slot = ins_map_get(&sp->file_of, sp->act_paths.v[i].item);
        if (slot && *slot) {
            uint32_t u = sp->files[*slot - 1].users;
            most = u > most ? u : most;
        }
    }
    return most;
}

static int judge_one_case(struct spread *sp)
{
    struct ins_ctx *x = sp->x;
    ins_pairs_sort(&sp->act_paths);
    for (size_t i = 0; i < sp->act_paths.n;) {
        uint32_t a = sp->act_paths.v[i].group;
        size_t lo = i;
        while (i < sp->act_paths.n && sp->act_paths.v[i].group == a) {
            i++;
        }
        const struct act_use *au = &sp->acts[a];
        uint32_t users = most_users(sp, a, lo);
        if (au->several || (double)au->set.n < x->t->one_case_ops ||
            (double)users < x->t->shared_cases) {
            continue;
        }
        struct iodfg_insight *f = ins_new(x, IODFG_INS_ONE_CASE, (double)au->set.dur_ns);
        uint64_t top = 0;
        if (!f || ins_pairs_paths(x, &sp->act_paths, a, f, &top)) {
            return -1;
        }
        f->subject_kind = IODFG_SUBJ_ACTIVITY;
        f->subject = a;
        ins_add_act(f, a);
        ins_evidence(f, &au->set);
        char v[IODFG_FORMAT_MIN];
        iodfg_format_duration(v, sizeof(v), au->set.dur_ns, 0);
        ins_text(f,
                 "%llu reads, writes or seeks on %u file(s), all by one case, while up to %u "
                 "cases use the file(s); %s in them",
                 (unsigned long long)au->set.n, f->paths_total, users, v);
        ins_num(f, "ops", (double)au->set.n);
        ins_num(f, "files", f->paths_total);
        ins_num(f, "cases_using", users);
        ins_num(f, "time_ns", (double)au->set.dur_ns);
    }
    return 0;
}

int ins_scan_spread(struct ins_ctx *x)
{
    if (!x->on[IODFG_INS_FILE_PER_PROCESS] && !x->on[IODFG_INS_ONE_CASE]) {
        return 0;
    }
    struct spread sp = {.x = x};
    sp.acts = calloc((size_t)x->map->nactivities + 1, sizeof(*sp.acts));
    int rc = sp.acts ? 0 : -1;
    uint32_t nc = iodfg_eventlog_case_count(x->log);
    for (uint32_t c = 0; rc == 0 && c < nc; c++) {
        uint64_t lo, hi;
        if (!ins_case_range(x, c, &lo, &hi)) {
            continue;
        }
        for (uint64_t e = lo; rc == 0 && e < hi; e++) {
            rc = spread_event(&sp, c, e);
        }
    }
    if (rc == 0 && x->on[IODFG_INS_FILE_PER_PROCESS]) {
        rc = judge_fpp(&sp);
    }
    if (rc == 0 && x->on[IODFG_INS_ONE_CASE]) {
        rc = judge_one_case(&sp);
    }
    free(sp.files);
    free(sp.acts);
    ins_map_fini(&sp.file_of);
    ins_pairs_fini(&sp.act_paths);
    return rc;
}
