/* SPDX-License-Identifier: MIT */
/* Insights judged event by event: small transfers, tiny terminal/pipe writes, lseek before
 * read/write, flock cycles, failed-call storms and the metadata share. */
#include "config.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "iodfg/eventlog.h"
#include "iodfg/format.h"
#include "iodfg/mapping.h"
#include "iodfg/metrics.h"
#include "iodfg/strpool.h"

#include "insights_priv.h"

/* Calls on names and descriptors that move no data (sorted for bsearch). */
static const char *const meta_calls[] = {
    "access",     "chdir",    "chmod",      "chown",      "close",      "creat",     "faccessat",
    "faccessat2", "fchmod",   "fchmodat",   "fchown",     "fchownat",   "fstat",     "fstat64",
    "fstatat64",  "fstatfs",  "getdents",   "getdents64", "lchown",     "link",      "linkat",
    "lstat",      "lstat64",  "mkdir",      "mkdirat",    "newfstatat", "open",      "openat",
    "openat2",    "readlink", "readlinkat", "rename",     "renameat",   "renameat2", "rmdir",
    "stat",       "stat64",   "statfs",     "statx",      "symlink",    "symlinkat", "unlink",
    "unlinkat",   "utime",    "utimensat",  "utimes",
};

static int cmp_name(const void *key, const void *elem)
{
    return strcmp(key, *(const char *const *)elem);
}

static int is_meta_call(const char *call)
{
    return bsearch(call, meta_calls, sizeof(meta_calls) / sizeof(meta_calls[0]),
                   sizeof(meta_calls[0]), cmp_name) != NULL;
}

/* Per key: what the rules of this file need to know about it. */
enum { K_META = 1, K_TTY = 2, K_FILE = 4, K_FLOCK = 8 };

static uint8_t key_class(const struct iodfg_eventlog *log, uint32_t key)
{
    const struct iodfg_strpool *pool = iodfg_eventlog_pool(log);
    const struct iodfg_key *k = &iodfg_eventlog_keys(log)[key];
    const char *call = iodfg_strpool_get(pool, k->call), *path = iodfg_strpool_get(pool, k->path);
    uint8_t c = is_meta_call(call) ? K_META : 0;
    c |= strcmp(call, "flock") == 0 ? K_FLOCK : 0;
    if (k->kind == IODFG_PATH_PIPE || strncmp(path, "/dev/pts/", 9) == 0 ||
        strncmp(path, "/dev/tty", 8) == 0 || strcmp(path, "/dev/console") == 0) {
        c |= K_TTY;
    } else if (ins_key_is_file(log, key)) {
        c |= K_FILE;
    }
    return c;
}

struct seek_edge {
    uint32_t from, to;
    struct ins_set set; /* the seeks */
};

struct scan {
    struct ins_ctx *x;
    uint8_t *kc;                 /* per key: K_* */
    uint64_t *rw_ops;            /* per activity: reads and writes of files */
    struct ins_set *small, *tty; /* per activity */
    struct seek_edge *edges;
    size_t nedges, capedges;
    struct ins_pairs edge_paths, err_paths;
    uint32_t *errs; /* distinct errno string ids (log pool) */
    struct ins_set *err_set;
    size_t nerrs, caperrs;
    struct ins_set flock;
    uint64_t cycles;
    struct ins_map pid_last, lock;
    int64_t *meta_ns, *data_ns; /* per case */
    uint64_t *meta_n;
    uint32_t *key_dir; /* per key: directory id in the insights' pool, or UINT32_MAX */
    int64_t *dir_ns;   /* per insights' pool id: metadata time in that directory */
    size_t ndir;
};

static struct seek_edge *edge_of(struct scan *s, uint32_t from, uint32_t to, size_t *idx)
{
    for (size_t i = 0; i < s->nedges; i++) {
        if (s->edges[i].from == from && s->edges[i].to == to) {
            *idx = i;
            return &s->edges[i];
        }
    }
    if (s->nedges == s->capedges) {
        size_t cap = s->capedges ? s->capedges * 2 : 8;
        struct seek_edge *v = realloc(s->edges, cap * sizeof(*v));
        if (!v) {
            return NULL;
        }
        s->edges = v;
        s->capedges = cap;
    }
    *idx = s->nedges;
    s->edges[s->nedges] = (struct seek_edge){.from = from, .to = to};
    return &s->edges[s->nedges++];
}

static struct ins_set *err_of(struct scan *s, uint32_t err, size_t *idx)
{
    for (size_t i = 0; i < s->nerrs; i++) {
        if (s->errs[i] == err) {
            *idx = i;
            return &s->err_set[i];
        }
    }
    if (s->nerrs == s->caperrs) {
        size_t cap = s->caperrs ? s->caperrs * 2 : 8;
        uint32_t *e = realloc(s->errs, cap * sizeof(*e));
        if (e) {
            s->errs = e;
        }
        struct ins_set *v = e ? realloc(s->err_set, cap * sizeof(*v)) : NULL;
        if (!v) {
            return NULL;
        }
        s->err_set = v;
        s->caperrs = cap;
    }
    *idx = s->nerrs;
    s->errs[s->nerrs] = err;
    memset(&s->err_set[s->nerrs], 0, sizeof(s->err_set[0]));
    return &s->err_set[s->nerrs++];
}

// lseek then read/write of the same pid on the same descriptor; flock ... I/O ... flock cycles.
static int pairs_event(struct scan *s, uint32_t c, uint64_t e, unsigned f, uint8_t kc)
{
    const struct iodfg_columns *col = iodfg_eventlog_columns(s->x->log);
    const uint32_t *act = s->x->map->activity_of_key;
    uint64_t *last = ins_map_get(&s->pid_last, (uint32_t)col->pid[e]);
    if (!last) {
        return -1;
    }
    uint64_t prev = *last; // the pid's previous selected event + 1
    *last = e + 1;
    int io = (f & (IODFG_IO_READ | IODFG_IO_WRITE)) && !(f & IODFG_IO_POSITIONAL);
    if (prev && io && (s->x->kflags[col->key[prev - 1]] & IODFG_IO_SEEK) &&
        col->fd[prev - 1] == col->fd[e] && !col->err[prev - 1]) {
        size_t idx;
        struct seek_edge *se = edge_of(s, act[col->key[prev - 1]], act[col->key[e]], &idx);
        if (!se) {
            return -1;
        }
        int64_t d = col->dur_ns[prev - 1];
        ins_set_add(&se->set, s->x->log, c, col->start_ns[prev - 1], d == IODFG_UNKNOWN ? 0 : d, 0);
        if (ins_pairs_add(&s->edge_paths, (uint32_t)idx,
                          iodfg_eventlog_keys(s->x->log)[col->key[e]].path)) {
            return -1;
        }
    }
    if (col->fd[e] < 0 || !(kc & K_FLOCK || f & (IODFG_IO_READ | IODFG_IO_WRITE))) {
        return 0;
    }
    uint64_t *st =
        ins_map_get(&s->lock, (uint64_t)(uint32_t)col->pid[e] << 32 | (uint32_t)col->fd[e]);
    if (!st) {
        return -1;
    }
    if (kc & K_FLOCK) { // state: 0 unlocked, 1 locked, 2 locked with I/O since
        int64_t d = col->dur_ns[e];
        ins_set_add(&s->flock, s->x->log, c, col->start_ns[e], d == IODFG_UNKNOWN ? 0 : d, 0);
        s->cycles += *st == 2;
        *st = *st ? 0 : 1;
    } else if (*st == 1) {
        *st = 2;
    }
    return 0;
}

// Metadata time by the directory of the key's path (files only).
static int dir_add(struct scan *s, uint32_t k, int64_t d)
{
    const struct iodfg_key *key = &iodfg_eventlog_keys(s->x->log)[k];
    if (key->kind != IODFG_PATH_FILE) {
        return 0;
    }
    if (s->key_dir[k] == UINT32_MAX) {
        const struct iodfg_strpool *pool = iodfg_eventlog_pool(s->x->log);
        const char *p = iodfg_strpool_get(pool, key->path);
        const char *slash = strrchr(p, '/');
        size_t len = !slash ? 1 : slash == p ? 1 : (size_t)(slash - p);
        if (ins_intern(s->x, slash ? p : ".", len, &s->key_dir[k])) {
            return -1;
        }
    }
    uint32_t id = s->key_dir[k];
    if (id >= s->ndir) {
        size_t n = (size_t)id * 2 + 16;
        int64_t *v = realloc(s->dir_ns, n * sizeof(*v));
        if (!v) {
            return -1;
        }
        memset(v + s->ndir, 0, (n - s->ndir) * sizeof(*v));
        s->dir_ns = v;
        s->ndir = n;
    }
    s->dir_ns[id] = iodfg_sat_add(s->dir_ns[id], d);
    return 0;
}

static int scan_event(struct scan *s, uint32_t c, uint64_t e)
{
    const struct iodfg_columns *col = iodfg_eventlog_columns(s->x->log);
    uint32_t k = col->key[e], a = s->x->map->activity_of_key[k];
    unsigned f = s->x->kflags[k];
    uint8_t kc = s->kc[k];
    int64_t d = col->dur_ns[e] == IODFG_UNKNOWN ? 0 : col->dur_ns[e], size = col->size[e];
    if (col->err[e]) {
        size_t idx;
        struct ins_set *es = err_of(s, col->err[e], &idx);
        if (!es ||
            ins_pairs_add(&s->err_paths, (uint32_t)idx, iodfg_eventlog_keys(s->x->log)[k].path)) {
            return -1;
        }
        ins_set_add(es, s->x->log, c, col->start_ns[e], d, 0);
    } else if (f & (IODFG_IO_READ | IODFG_IO_WRITE) && size != IODFG_UNKNOWN) {
        if (kc & K_FILE) {
            s->rw_ops[a]++;
            if (size < s->x->t->small_size) {
                ins_set_add(&s->small[a], s->x->log, c, col->start_ns[e], d, size);
            }
        } else if (kc & K_TTY && f & IODFG_IO_WRITE && size < s->x->t->tty_size) {
            ins_set_add(&s->tty[a], s->x->log, c, col->start_ns[e], d, size);
        }
    }
    if (kc & K_META) {
        s->meta_ns[c] = iodfg_sat_add(s->meta_ns[c], d);
        s->meta_n[c]++;
        if (dir_add(s, k, d)) {
            return -1;
        }
    } else if (f & (IODFG_IO_READ | IODFG_IO_WRITE)) {
        s->data_ns[c] = iodfg_sat_add(s->data_ns[c], d);
    }
    return pairs_event(s, c, e, f, kc);
}

/* ---- findings ---- */

static void fmt_dur(char *buf, int64_t ns)
{
    iodfg_format_duration(buf, IODFG_FORMAT_MIN, ns, 0);
}

static int judge_transfers(struct scan *s)
{
    struct ins_ctx *x = s->x;
    for (uint32_t a = 0; a < x->map->nactivities; a++) {
        const struct ins_set *sm = &s->small[a], *tt = &s->tty[a];
        char v[3][IODFG_FORMAT_MIN];
        if (x->on[IODFG_INS_SMALL_IO] && s->rw_ops[a] >= x->t->min_ops && sm->n &&
            (double)sm->n >= x->t->small_share * (double)s->rw_ops[a]) {
            struct iodfg_insight *f = ins_new(x, IODFG_INS_SMALL_IO, (double)sm->dur_ns);
            if (!f) {
                return -1;
            }
            f->subject_kind = IODFG_SUBJ_ACTIVITY;
            f->subject = a;
            ins_add_act(f, a);
            ins_evidence(f, sm);
            double share = (double)sm->n / (double)s->rw_ops[a];
            iodfg_format_percent(v[0], sizeof(v[0]), share, 0);
            iodfg_format_bytes(v[1], sizeof(v[1]), (int64_t)x->t->small_size, 0);
            fmt_dur(v[2], sm->dur_ns);
            ins_text(f, "%s of %llu reads/writes move less than %s (mean %.0f B); %s spent in them",
                     v[0], (unsigned long long)s->rw_ops[a], v[1],
                     (double)sm->bytes / (double)sm->n, v[2]);
            ins_num(f, "ops", (double)s->rw_ops[a]);
            ins_num(f, "small_ops", (double)sm->n);
            ins_num(f, "small_share", share);
            ins_num(f, "mean_small_bytes", (double)sm->bytes / (double)sm->n);
            ins_num(f, "time_ns", (double)sm->dur_ns);
        }
        if (x->on[IODFG_INS_TINY_TTY] && tt->n >= x->t->tty_writes) {
            struct iodfg_insight *f = ins_new(x, IODFG_INS_TINY_TTY, (double)tt->dur_ns);
            if (!f) {
                return -1;
            }
            f->subject_kind = IODFG_SUBJ_ACTIVITY;
            f->subject = a;
            ins_add_act(f, a);
            ins_evidence(f, tt);
            double span = f->has_window ? (double)(tt->last_ns - tt->first_ns) / 1e9 : NAN;
            double rate = span > 0 ? (double)tt->n / span : NAN;
            fmt_dur(v[0], tt->dur_ns);
            ins_text(f,
                     "%llu writes of less than %.0f B (mean %.1f B) to a terminal or pipe, "
                     "%.0f per second; %s spent in them",
                     (unsigned long long)tt->n, x->t->tty_size, (double)tt->bytes / (double)tt->n,
                     rate, v[0]);
            ins_num(f, "writes", (double)tt->n);
            ins_num(f, "mean_bytes", (double)tt->bytes / (double)tt->n);
            ins_num(f, "per_second", rate);
            ins_num(f, "time_ns", (double)tt->dur_ns);
        }
    }
    return 0;
}

static int judge_seeks(struct scan *s)
{
    struct ins_ctx *x = s->x;
    ins_pairs_sort(&s->edge_paths);
    for (size_t i = 0; x->on[IODFG_INS_SEEK_IO] && i < s->nedges; i++) {
        const struct seek_edge *se = &s->edges[i];
        if (se->set.n < x->t->seek_pairs) {
            continue;
        }
        struct iodfg_insight *f = ins_new(x, IODFG_INS_SEEK_IO, (double)se->set.dur_ns);
        if (!f || ins_pairs_paths(x, &s->edge_paths, (uint32_t)i, f, NULL)) {
            return -1;
        }
        f->subject_kind = IODFG_SUBJ_EDGE;
        f->subject = se->from;
        f->subject2 = se->to;
        ins_add_act(f, se->from);
        ins_add_act(f, se->to);
        f->edge[0][0] = se->from;
        f->edge[0][1] = se->to;
        f->nedge = 1;
        ins_evidence(f, &se->set);
        char v[IODFG_FORMAT_MIN];
        fmt_dur(v, se->set.dur_ns);
        ins_text(f,
                 "%llu lseek calls directly followed by a read/write on the same descriptor "
                 "(%u file(s)); %s spent in the seeks",
                 (unsigned long long)se->set.n, f->paths_total, v);
        ins_num(f, "pairs", (double)se->set.n);
        ins_num(f, "files", f->paths_total);
        ins_num(f, "seek_time_ns", (double)se->set.dur_ns);
    }
    if (x->on[IODFG_INS_LOCK_CYCLE] && s->cycles >= x->t->lock_cycles) {
        struct iodfg_insight *f = ins_new(x, IODFG_INS_LOCK_CYCLE, (double)s->flock.dur_ns);
        if (!f) {
            return -1;
        }
        ins_evidence(f, &s->flock);
        char v[IODFG_FORMAT_MIN];
        fmt_dur(v, s->flock.dur_ns);
        ins_text(f,
                 "%llu flock/read-or-write/flock cycles on one descriptor (%llu flock calls, "
                 "%s in them)",
                 (unsigned long long)s->cycles, (unsigned long long)s->flock.n, v);
        ins_num(f, "cycles", (double)s->cycles);
        ins_num(f, "flock_calls", (double)s->flock.n);
        ins_num(f, "flock_time_ns", (double)s->flock.dur_ns);
    }
    return 0;
}

static int by_str(const void *a, const void *b)
{
    return strcmp(*(const char *const *)a, *(const char *const *)b);
}

// Of the failed paths of group g: the most directories one file name was looked up in.
static uint64_t max_dirs_per_name(const struct scan *s, uint32_t g)
{
    const struct iodfg_strpool *pool = iodfg_eventlog_pool(s->x->log);
    const struct ins_pairs *p = &s->err_paths;
    size_t n = 0;
    for (size_t i = 0; i < p->n; i++) {
        n += p->v[i].group == g &&
             (i == 0 || p->v[i - 1].group != g || p->v[i - 1].item != p->v[i].item);
    }
    const char **names = malloc((n + 1) * sizeof(*names));
    if (!names) {
        return 0;
    }
    size_t m = 0;
    for (size_t i = 0; i < p->n; i++) {
        if (p->v[i].group == g &&
            (i == 0 || p->v[i - 1].group != g || p->v[i - 1].item != p->v[i].item)) {
            const char *path = iodfg_strpool_get(pool, p->v[i].item), *sl = strrchr(path, '/');
            names[m++] = sl ? sl + 1 : path;
        }
    }
    qsort(names, m, sizeof(*names), by_str);
    uint64_t best = 0;
    for (size_t i = 0; i < m;) {
        size_t j = i;
        while (j < m && strcmp(names[j], names[i]) == 0) {
            j++;
        }
        best = j - i > best ? j - i : best;
        i = j;
    }
    free(names);
    return best;
}

static int judge_failures(struct scan *s)
{
    struct ins_ctx *x = s->x;
    const struct iodfg_strpool *pool = iodfg_eventlog_pool(x->log);
    ins_pairs_sort(&s->err_paths);
    for (size_t i = 0; x->on[IODFG_INS_FAILED_STORM] && i < s->nerrs; i++) {
        const struct ins_set *es = &s->err_set[i];
        if (es->n < x->t->storm_calls) {
            continue;
        }
        struct iodfg_insight *f = ins_new(x, IODFG_INS_FAILED_STORM, (double)es->dur_ns);
        uint64_t top = 0;
        if (!f || ins_pairs_paths(x, &s->err_paths, (uint32_t)i, f, &top) ||
            ins_intern(x, iodfg_strpool_get(pool, s->errs[i]), iodfg_strpool_len(pool, s->errs[i]),
                       &f->subject)) {
            return -1;
        }
        f->subject_kind = IODFG_SUBJ_NAME;
        ins_evidence(f, es);
        uint64_t dirs = max_dirs_per_name(s, (uint32_t)i);
        char v[IODFG_FORMAT_MIN];
        fmt_dur(v, es->dur_ns);
        ins_text(f,
                 "%llu failed calls on %u distinct path(s), up to %llu on one path; one file "
                 "name tried in up to %llu directories; %s spent in them",
                 (unsigned long long)es->n, f->paths_total, (unsigned long long)top,
                 (unsigned long long)dirs, v);
        ins_num(f, "calls", (double)es->n);
        ins_num(f, "paths", f->paths_total);
        ins_num(f, "max_per_path", (double)top);
        ins_num(f, "max_dirs_per_name", (double)dirs);
        ins_num(f, "time_ns", (double)es->dur_ns);
    }
    return 0;
}

struct case_share {
    uint32_t c;
    double share;
};

static int by_share(const void *pa, const void *pb)
{
    const struct case_share *a = pa, *b = pb;
    return a->share > b->share ? -1 : a->share < b->share ? 1 : (a->c > b->c) - (a->c < b->c);
}

// The directories with the most metadata time into the evidence.
static void top_dirs(struct scan *s, struct iodfg_insight *f)
{
    for (size_t id = 0; id < s->ndir; id++) {
        if (s->dir_ns[id] <= 0) {
            continue;
        }
        f->paths_total++;
        size_t at = f->npaths;
        while (at > 0 && s->dir_ns[f->paths[at - 1]] < s->dir_ns[id]) {
            at--;
        }
        if (at < IODFG_INSIGHT_KEEP) {
            size_t last = f->npaths < IODFG_INSIGHT_KEEP ? f->npaths : IODFG_INSIGHT_KEEP - 1;
            memmove(&f->paths[at + 1], &f->paths[at], (last - at) * sizeof(f->paths[0]));
            f->paths[at] = (uint32_t)id;
            f->npaths += f->npaths < IODFG_INSIGHT_KEEP;
        }
    }
}

static int judge_metadata(struct scan *s)
{
    struct ins_ctx *x = s->x;
    uint32_t nc = iodfg_eventlog_case_count(x->log);
    int64_t meta = 0, data = 0;
    uint64_t calls = 0;
    struct case_share *over = malloc(((size_t)nc + 1) * sizeof(*over));
    if (!over) {
        return -1;
    }
    uint32_t nover = 0;
    for (uint32_t c = 0; c < nc; c++) {
        meta = iodfg_sat_add(meta, s->meta_ns[c]);
        data = iodfg_sat_add(data, s->data_ns[c]);
        calls += s->meta_n[c];
        int64_t io = iodfg_sat_add(s->meta_ns[c], s->data_ns[c]);
        double share = io > 0 ? (double)s->meta_ns[c] / (double)io : 0;
        if (io > 0 && s->meta_n[c] >= x->t->meta_calls && share >= x->t->meta_share) {
            over[nover++] = (struct case_share){c, share};
        }
    }
    int64_t io = iodfg_sat_add(meta, data);
    double share = io > 0 ? (double)meta / (double)io : NAN;
    if (io <= 0 && calls >= x->t->meta_calls) {
        x->ins->unjudged[IODFG_INS_METADATA] = "no call durations in the traces (strace -T)";
    }
    int rc = 0;
    if (nover || (io > 0 && calls >= x->t->meta_calls && share >= x->t->meta_share)) {
        struct iodfg_insight *f = ins_new(x, IODFG_INS_METADATA, (double)meta);
        if (!f) {
            free(over);
            return -1;
        }
        qsort(over, nover, sizeof(*over), by_share);
        for (uint32_t i = 0; i < nover && f->ncases < IODFG_INSIGHT_KEEP; i++) {
            f->cases[f->ncases++] = over[i].c;
        }
        f->cases_total = nover;
        top_dirs(s, f);
        char v[2][IODFG_FORMAT_MIN];
        iodfg_format_percent(v[0], sizeof(v[0]), share, 0);
        fmt_dur(v[1], meta);
        ins_text(f,
                 "open/stat/close/getdents and friends take %s of the I/O time (%llu calls, %s); "
                 "%u case(s) at or above %.0f%%, the worst at %.0f%%",
                 v[0], (unsigned long long)calls, v[1], nover, x->t->meta_share * 100,
                 nover ? over[0].share * 100 : share * 100);
        ins_num(f, "meta_share", share);
        ins_num(f, "meta_calls", (double)calls);
        ins_num(f, "meta_time_ns", (double)meta);
        ins_num(f, "data_time_ns", (double)data);
        ins_num(f, "cases_over", nover);
        ins_num(f, "worst_case_share", nover ? over[0].share : NAN);
    }
    free(over);
    return rc;
}

static int scan_all(struct scan *s)
{
    struct ins_ctx *x = s->x;
    uint32_t nc = iodfg_eventlog_case_count(x->log);
    const struct iodfg_columns *col = iodfg_eventlog_columns(x->log);
    for (uint32_t c = 0; c < nc; c++) {
        uint64_t lo, hi;
        if (!ins_case_range(x, c, &lo, &hi)) {
            continue;
        }
        ins_map_reset(&s->pid_last);
        ins_map_reset(&s->lock);
        for (uint64_t e = lo; e < hi; e++) {
            if (x->map->activity_of_key[col->key[e]] != IODFG_NO_ACTIVITY && scan_event(s, c, e)) {
                return -1;
            }
        }
    }
    return 0;
}

int ins_scan_events(struct ins_ctx *x)
{
    uint32_t nk = iodfg_eventlog_key_count(x->log), na = x->map->nactivities;
    uint32_t nc = iodfg_eventlog_case_count(x->log);
    struct scan s = {.x = x};
    s.kc = malloc((size_t)nk + 1);
    s.key_dir = malloc(((size_t)nk + 1) * sizeof(*s.key_dir));
    s.rw_ops = calloc((size_t)na + 1, sizeof(*s.rw_ops));
    s.small = calloc((size_t)na + 1, sizeof(*s.small));
    s.tty = calloc((size_t)na + 1, sizeof(*s.tty));
    s.meta_ns = calloc((size_t)nc + 1, sizeof(*s.meta_ns));
    s.data_ns = calloc((size_t)nc + 1, sizeof(*s.data_ns));
    s.meta_n = calloc((size_t)nc + 1, sizeof(*s.meta_n));
    int rc = -1;
    if (!s.kc || !s.key_dir || !s.rw_ops || !s.small || !s.tty || !s.meta_ns || !s.data_ns ||
        !s.meta_n) {
        goto out;
    }
    for (uint32_t k = 0; k < nk; k++) {
        s.kc[k] = key_class(x->log, k);
        s.key_dir[k] = UINT32_MAX;
    }
    if (scan_all(&s) || judge_transfers(&s) || judge_seeks(&s) || judge_failures(&s) ||
        (x->on[IODFG_INS_METADATA] && judge_metadata(&s))) {
        goto out;
    }
    rc = 0;
out:
    free(s.kc);
    free(s.key_dir);
    free(s.rw_ops);
    free(s.small);
    free(s.tty);
    free(s.meta_ns);
    free(s.data_ns);
    free(s.meta_n);
    free(s.edges);
    free(s.errs);
    free(s.err_set);
    free(s.dir_ns);
    ins_pairs_fini(&s.edge_paths);
    ins_pairs_fini(&s.err_paths);
    ins_map_fini(&s.pid_last);
    ins_map_fini(&s.lock);
    return rc;
}
