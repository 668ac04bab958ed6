/* SPDX-License-Identifier: MIT */
/* Mount tables and file scope: parse /proc/self/mounts, find the mount holding a path by
 * longest component prefix (binary search per prefix), classify the keys of a log. */
#include "config.h"

#include "iodfg/mounts.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "iodfg/error.h"
#include "iodfg/eventlog.h"
#include "iodfg/strpool.h"

#include "readfile.h"

struct iodfg_mounts {
    struct iodfg_mount *v; /* sorted by dir, one entry per mount point */
    size_t n;
    char **strs; /* owned strings */
    size_t nstrs, strs_cap;
    int builtin;
};

static const char *const global_types[] = {
    "afs",         "beegfs",    "ceph",       "cephfs",         "cifs",       "dvs",
    "fuse.beegfs", "fuse.ceph", "fuse.cvmfs", "fuse.glusterfs", "fuse.sshfs", "gfs2",
    "glusterfs",   "gpfs",      "lustre",     "ncpfs",          "nfs",        "nfs4",
    "ocfs2",       "orangefs",  "panfs",      "pvfs2",          "smb3",       "smbfs",
    "wekafs",      "cvmfs",     "9p",         "virtiofs",       "quobyte",    "fuse.quobyte",
};

static const char *const virtual_types[] = {
    "autofs", "binfmt_misc", "bpf",        "cgroup",     "cgroup2",   "configfs", "debugfs",
    "devpts", "devtmpfs",    "efivarfs",   "fusectl",    "hugetlbfs", "mqueue",   "nsfs",
    "proc",   "pstore",      "rpc_pipefs", "securityfs", "selinuxfs", "sysfs",    "tracefs",
};

static int in_list(const char *s, const char *const *list, size_t n)
{
    for (size_t i = 0; i < n; i++) {
        if (strcmp(s, list[i]) == 0) {
            return 1;
        }
    }
    return 0;
}

enum iodfg_scope iodfg_mounts_type_scope(const char *type)
{
    if (!type || !*type) {
        return IODFG_SCOPE_UNKNOWN;
    }
    if (in_list(type, global_types, sizeof(global_types) / sizeof(global_types[0]))) {
        return IODFG_SCOPE_GLOBAL;
    }
    if (in_list(type, virtual_types, sizeof(virtual_types) / sizeof(virtual_types[0]))) {
        return IODFG_SCOPE_VIRTUAL;
    }
    return IODFG_SCOPE_LOCAL;
}

/* ---- building ------------------------------------------------------------- */

static char *keep(struct iodfg_mounts *m, char *s)
{
    if (!s) {
        return NULL;
    }
    if (m->nstrs == m->strs_cap) {
        size_t cap = m->strs_cap ? m->strs_cap * 2 : 64;
        char **v = realloc(m->strs, cap * sizeof(*v));
        if (!v) {
            free(s);
            return NULL;
        }
        m->strs = v;
        m->strs_cap = cap;
    }
    m->strs[m->nstrs++] = s;
    return s;
}

/* Decode the octal escapes of a mounts field (\040 space, \011 tab, \012 newline, \134 \). */
static char *decode(const char *s, size_t n)
{
    char *d = malloc(n + 1);
    if (!d) {
        return NULL;
    }
    size_t o = 0;
    for (size_t i = 0; i < n; i++) {
        if (s[i] == '\\' && i + 3 < n && s[i + 1] >= '0' && s[i + 1] <= '3' && s[i + 2] >= '0' &&
            s[i + 2] <= '7' && s[i + 3] >= '0' && s[i + 3] <= '7') {
            d[o++] = (char)((s[i + 1] - '0') * 64 + (s[i + 2] - '0') * 8 + (s[i + 3] - '0'));
            i += 3;
        } else {
            d[o++] = s[i];
        }
    }
    d[o] = '\0';
    return d;
}

/* Lexical normalisation of an absolute path into out (cap >= len + 2): collapse "//", drop
 * "." components, let ".." remove the previous component, no trailing slash but for "/".
 * Returns the length. */
static size_t normalise(const char *p, size_t len, char *out)
{
    size_t o = 0;
    size_t i = 0;
    while (i < len) {
        while (i < len && p[i] == '/') {
            i++;
        }
        size_t s = i;
        while (i < len && p[i] != '/') {
            i++;
        }
        size_t n = i - s;
        if (n == 0 || (n == 1 && p[s] == '.')) {
            continue;
        }
        if (n == 2 && p[s] == '.' && p[s + 1] == '.') {
            while (o > 0 && out[o - 1] != '/') {
                o--;
            }
            if (o > 0) {
                o--; // the slash before the removed component
            }
            continue;
        }
        out[o++] = '/';
        memcpy(out + o, p + s, n);
        o += n;
    }
    if (o == 0) {
        out[o++] = '/';
    }
    out[o] = '\0';
    return o;
}

struct pending {
    struct iodfg_mount m;
    size_t order;
};

static int cmp_pending(const void *a, const void *b)
{
    const struct pending *x = a, *y = b;
    int c = strcmp(x->m.dir, y->m.dir);
    if (c) {
        return c;
    }
    return x->order < y->order ? -1 : x->order > y->order;
}

/* Sort by mount point and keep the last entry of each mount point. */
static int finish(struct iodfg_mounts *m, struct pending *p, size_t n)
{
    if (n) {
        qsort(p, n, sizeof(*p), cmp_pending);
    }
    m->v = malloc((n ? n : 1) * sizeof(*m->v));
    if (!m->v) {
        return -1;
    }
    m->n = 0;
    for (size_t i = 0; i < n; i++) {
        if (i + 1 < n && strcmp(p[i].m.dir, p[i + 1].m.dir) == 0) {
            continue;
        }
        m->v[m->n++] = p[i].m;
    }
    return 0;
}

void iodfg_mounts_free(struct iodfg_mounts *m)
{
    if (!m) {
        return;
    }
    for (size_t i = 0; i < m->nstrs; i++) {
        free(m->strs[i]);
    }
    free(m->strs);
    free(m->v);
    free(m);
}

struct iodfg_mounts *iodfg_mounts_parse(const char *text, size_t len, struct iodfg_error *err)
{
    struct iodfg_mounts *m = calloc(1, sizeof(*m));
    struct pending *p = NULL;
    size_t np = 0, cap = 0;
    if (!m) {
        iodfg_error_set(err, IODFG_E_NOMEM, NULL);
        return NULL;
    }
    unsigned long line = 0;
    size_t pos = 0;
    while (pos < len) {
        line++;
        const char *ls = text + pos;
        const char *nl = memchr(ls, '\n', len - pos);
        size_t ll = nl ? (size_t)(nl - ls) : len - pos;
        pos += ll + (nl != NULL);
        const char *f[4];
        size_t fl[4];
        int nf = 0;
        size_t i = 0;
        while (nf < 4) {
            while (i < ll && (ls[i] == ' ' || ls[i] == '\t' || ls[i] == '\r')) {
                i++;
            }
            if (i >= ll) {
                break;
            }
            f[nf] = ls + i;
            while (i < ll && ls[i] != ' ' && ls[i] != '\t' && ls[i] != '\r') {
                i++;
            }
            fl[nf] = (size_t)(ls + i - f[nf]);
            nf++;
        }
        if (nf == 0 || f[0][0] == '#') {
            continue;
        }
        if (nf < 3 || f[1][0] != '/') {
            iodfg_error_set(err, IODFG_E_PARSE,
                            nf < 3 ? "expected 'device mount-point type options'"
                                   : "the mount point is not an absolute path");
            iodfg_error_at(err, NULL, line, (unsigned long)(nf < 3 ? 1 : f[1] - ls + 1));
            goto fail;
        }
        if (np == cap) {
            cap = cap ? cap * 2 : 64;
            struct pending *v = realloc(p, cap * sizeof(*p));
            if (!v) {
                goto nomem;
            }
            p = v;
        }
        char *dir = decode(f[1], fl[1]);
        if (!dir || !keep(m, dir)) {
            goto nomem;
        }
        // the decoded mount point, normalised (no trailing slash); fits: never grows
        char *norm = malloc(strlen(dir) + 2);
        if (!norm || !keep(m, norm)) {
            goto nomem;
        }
        normalise(dir, strlen(dir), norm);
        char *dev = decode(f[0], fl[0]);
        char *type = dev && keep(m, dev) ? decode(f[2], fl[2]) : NULL;
        if (!type || !keep(m, type)) {
            goto nomem;
        }
        p[np].m = (struct iodfg_mount){norm, type, dev, iodfg_mounts_type_scope(type)};
        p[np].order = np;
        np++;
    }
    if (finish(m, p, np)) {
        goto nomem;
    }
    free(p);
    return m;
nomem:
    iodfg_error_set(err, IODFG_E_NOMEM, NULL);
fail:
    free(p);
    iodfg_mounts_free(m);
    return NULL;
}

struct iodfg_mounts *iodfg_mounts_load(const char *path, struct iodfg_error *err)
{
    struct readfile rf;
    if (readfile_open_max(&rf, path, IODFG_MOUNTS_MAX, err)) {
        readfile_name_kind(err, path, "mount table");
        return NULL;
    }
    struct iodfg_mounts *m = iodfg_mounts_parse(rf.data, rf.len, err);
    readfile_close(&rf);
    if (!m && err) {
        // keep the line of a parse error, add the file name
        iodfg_error_at(err, path, err->line, err->col);
    }
    return m;
}

struct iodfg_mounts *iodfg_mounts_builtin(struct iodfg_error *err)
{
    static const struct iodfg_mount list[] = {
        {"/proc", "proc", "", IODFG_SCOPE_VIRTUAL},    {"/sys", "sysfs", "", IODFG_SCOPE_VIRTUAL},
        {"/dev", "devtmpfs", "", IODFG_SCOPE_VIRTUAL}, {"/dev/shm", "tmpfs", "", IODFG_SCOPE_LOCAL},
        {"/run", "tmpfs", "", IODFG_SCOPE_LOCAL},      {"/tmp", "", "", IODFG_SCOPE_LOCAL},
        {"/var/tmp", "", "", IODFG_SCOPE_LOCAL},       {"/var", "", "", IODFG_SCOPE_LOCAL},
        {"/usr", "", "", IODFG_SCOPE_LOCAL},           {"/etc", "", "", IODFG_SCOPE_LOCAL},
        {"/bin", "", "", IODFG_SCOPE_LOCAL},           {"/sbin", "", "", IODFG_SCOPE_LOCAL},
        {"/lib", "", "", IODFG_SCOPE_LOCAL},           {"/lib32", "", "", IODFG_SCOPE_LOCAL},
        {"/lib64", "", "", IODFG_SCOPE_LOCAL},         {"/boot", "", "", IODFG_SCOPE_LOCAL},
    };
    size_t n = sizeof(list) / sizeof(list[0]);
    struct iodfg_mounts *m = calloc(1, sizeof(*m));
    struct pending *p = calloc(n, sizeof(*p));
    if (!m || !p) {
        free(m);
        free(p);
        iodfg_error_set(err, IODFG_E_NOMEM, NULL);
        return NULL;
    }
    for (size_t i = 0; i < n; i++) {
        p[i].m = list[i];
        p[i].order = i;
    }
    m->builtin = 1;
    int rc = finish(m, p, n);
    free(p);
    if (rc) {
        iodfg_mounts_free(m);
        iodfg_error_set(err, IODFG_E_NOMEM, NULL);
        return NULL;
    }
    return m;
}

size_t iodfg_mounts_count(const struct iodfg_mounts *m)
{
    return m->n;
}

const struct iodfg_mount *iodfg_mounts_get(const struct iodfg_mounts *m, size_t i)
{
    return i < m->n ? &m->v[i] : NULL;
}

int iodfg_mounts_is_builtin(const struct iodfg_mounts *m)
{
    return m->builtin;
}

/* ---- lookup ---------------------------------------------------------------- */

static const struct iodfg_mount *exact(const struct iodfg_mounts *m, const char *dir, size_t n)
{
    size_t lo = 0, hi = m->n;
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        const char *d = m->v[mid].dir;
        int c = strncmp(d, dir, n);
        if (c == 0 && d[n] != '\0') {
            c = 1; // d is longer: it sorts after the prefix
        }
        if (c == 0) {
            return &m->v[mid];
        }
        if (c < 0) {
            lo = mid + 1;
        } else {
            hi = mid;
        }
    }
    return NULL;
}

static const struct iodfg_mount *find_norm(const struct iodfg_mounts *m, const char *p, size_t n)
{
    // try the whole path, then each prefix ending before a '/', then "/"
    for (;;) {
        const struct iodfg_mount *e = exact(m, p, n);
        if (e) {
            return e;
        }
        if (n <= 1) {
            return NULL;
        }
        while (n > 1 && p[n - 1] != '/') {
            n--;
        }
        if (n > 1) {
            n--; // drop the slash: "/a/b/" -> "/a/b"
        }
    }
}

const struct iodfg_mount *iodfg_mounts_find(const struct iodfg_mounts *m, const char *path,
                                            size_t len)
{
    if (!m || len == 0 || path[0] != '/') {
        return NULL;
    }
    char small[512];
    char *buf = len + 2 <= sizeof(small) ? small : malloc(len + 2);
    if (!buf) {
        return NULL;
    }
    size_t n = normalise(path, len, buf);
    const struct iodfg_mount *e = find_norm(m, buf, n);
    if (buf != small) {
        free(buf);
    }
    return e;
}

/* ---- classifying a log ----------------------------------------------------- */

int iodfg_mounts_classify(const struct iodfg_mounts *m, struct iodfg_eventlog *log,
                          struct iodfg_error *err)
{
    struct iodfg_strpool *pool = iodfg_eventlog_pool(log);
    uint32_t nk = iodfg_eventlog_key_count(log);
    const struct iodfg_key *keys = iodfg_eventlog_keys(log);
    // the same mount is interned once: remember its ids by table position
    uint32_t *ids = calloc(2 * (m->n ? m->n : 1), sizeof(*ids));
    unsigned char *done = calloc(m->n ? m->n : 1, 1);
    if (!ids || !done) {
        free(ids);
        free(done);
        return iodfg_error_set(err, IODFG_E_NOMEM, NULL);
    }
    int rc = 0;
    for (uint32_t k = 0; k < nk && rc == 0; k++) {
        if (keys[k].kind != IODFG_PATH_FILE) {
            continue;
        }
        const char *path = iodfg_strpool_get(pool, keys[k].path);
        const struct iodfg_mount *e =
            iodfg_mounts_find(m, path, iodfg_strpool_len(pool, keys[k].path));
        if (!e) {
            iodfg_eventlog_key_set_fs(log, k, IODFG_STR_EMPTY, IODFG_STR_EMPTY,
                                      IODFG_SCOPE_UNKNOWN);
            continue;
        }
        size_t i = (size_t)(e - m->v);
        if (!done[i]) {
            if (iodfg_strpool_intern(pool, e->dir, strlen(e->dir), &ids[2 * i]) ||
                iodfg_strpool_intern(pool, e->type, strlen(e->type), &ids[2 * i + 1])) {
                rc = iodfg_error_set(err, IODFG_E_NOMEM, NULL);
                break;
            }
            done[i] = 1;
        }
        iodfg_eventlog_key_set_fs(log, k, ids[2 * i], ids[2 * i + 1], e->scope);
        keys = iodfg_eventlog_keys(log);
    }
    free(ids);
    free(done);
    return rc;
}

int iodfg_mounts_log_classified(const struct iodfg_eventlog *log)
{
    uint32_t nk = iodfg_eventlog_key_count(log);
    const struct iodfg_key *keys = iodfg_eventlog_keys(log);
    for (uint32_t k = 0; k < nk; k++) {
        if (keys[k].kind == IODFG_PATH_FILE && keys[k].scope != IODFG_SCOPE_UNKNOWN) {
            return 1;
        }
    }
    return 0;
}
