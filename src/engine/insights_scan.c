/* SPDX-License-Identifier: MIT */
/* The event scan of the insights judged event by event (insights_scan_judge.c judges them):
 * each selected event once, counting small transfers, tiny terminal/pipe writes, lseek before
 * read/write, flock cycles, failed calls and metadata time per case and directory. */
#include "config.h"

#include "insights_scan.h"

#include <stdlib.h>
#include <string.h>

#include "iodfg/eventlog.h"
#include "iodfg/mapping.h"
#include "iodfg/metrics.h"
#include "iodfg/strpool.h"

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

/* What the rules need to know about a key (K_*). */
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

static struct ins_seek_edge *edge_of(struct ins_scan *s, uint32_t from, uint32_t to, size_t *idx)
{
    for (size_t i = 0; i < s->nedges; i++) {
        if (s->edges[i].from == from && s->edges[i].to == to) {
            *idx = i;
            return &s->edges[i];
        }
    }
    if (s->nedges == s->capedges) {
        size_t cap = s->capedges ? s->capedges * 2 : 8;
        struct ins_seek_edge *v = realloc(s->edges, cap * sizeof(*v));
        if (!v) {
            return NULL;
        }
        s->edges = v;
        s->capedges = cap;
    }
    *idx = s->nedges;
    s->edges[s->nedges] = (struct ins_seek_edge){.from = from, .to = to};
    return &s->edges[s->nedges++];
}

static struct ins_set *err_of(struct ins_scan *s, uint32_t err, size_t *idx)
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
static int pairs_event(struct ins_scan *s, uint32_t c, uint64_t e, unsigned f, uint8_t kc)
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
        struct ins_seek_edge *se = edge_of(s, act[col->key[prev - 1]], act[col->key[e]], &idx);
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
static int dir_add(struct ins_scan *s, uint32_t k, int64_t d)
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

static int scan_event(struct ins_scan *s, uint32_t c, uint64_t e)
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

static int scan_all(struct ins_scan *s)
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
    struct ins_scan s = {.x = x};
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
    if (scan_all(&s) || ins_judge_transfers(&s) || ins_judge_seeks(&s) || ins_judge_failures(&s) ||
        (x->on[IODFG_INS_METADATA] && ins_judge_metadata(&s))) {
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
