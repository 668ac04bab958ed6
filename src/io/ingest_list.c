/* SPDX-License-Identifier: MIT */
/* Expanding the ingest's inputs: files as given, directories searched for traces, each file and
 * directory once (links and mounts can reach one twice), and a unique case name per file. */
#include "config.h"

#include <dirent.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "iodfg/atomicfile.h"
#include "iodfg/casename.h"
#include "iodfg/error.h"
#include "iodfg/ingest.h"
#include "iodfg/otf2.h"

/* A file found, before names are given: its identity and where its relative path starts. */
struct found {
    char *path;
    size_t rel; /* offset of the part below the argument */
    dev_t dev;
    ino_t ino;
};

struct scan {
    struct found *f;
    size_t n, cap;
    struct stat *dirs; /* directories entered (device, inode) */
    size_t ndirs, dirs_cap;
    size_t dirs_again;
    size_t not_regular;     /* entries named like traces that are no regular files */
    char *not_regular_path; /* the first of them (malloc'd) */
    const struct iodfg_casename *names;
    struct iodfg_error *err;
};

static int push(struct scan *s, char *path, size_t rel, const struct stat *st)
{
    if (!path) {
        return iodfg_error_set(s->err, IODFG_E_NOMEM, NULL);
    }
    if (s->n == s->cap) {
        size_t cap = s->cap ? s->cap * 2 : 64;
        struct found *f = realloc(s->f, cap * sizeof(*f));
        if (!f) {
            free(path);
            return iodfg_error_set(s->err, IODFG_E_NOMEM, NULL);
        }
        s->f = f;
        s->cap = cap;
    }
    s->f[s->n++] = (struct found){path, rel, st->st_dev, st->st_ino};
    return 0;
}

static char *join(const char *dir, const char *name)
{
    size_t a = strlen(dir), b = strlen(name);
    char *s = malloc(a + b + 2);
    if (s) {
        memcpy(s, dir, a);
        size_t o = a;
        if (a && dir[a - 1] != '/') {
            s[o++] = '/';
        }
        memcpy(s + o, name, b + 1);
    }
    return s;
}

static int is_trace_name(const char *name, const char *rel, const struct iodfg_casename *names)
{
    size_t n = strlen(name);
    if ((n > 3 && strcmp(name + n - 3, ".st") == 0) || iodfg_otf2_is_anchor(name)) {
        return 1;
    }
    char a[512], b[512], c[512];
    return iodfg_casename_apply(names, rel, a, b, c, sizeof(a));
}

/* Enter a directory only once, however many links lead to it: 1 when seen before. */
static int seen_dir(struct scan *s, const struct stat *st)
{
    for (size_t i = 0; i < s->ndirs; i++) {
        if (s->dirs[i].st_dev == st->st_dev && s->dirs[i].st_ino == st->st_ino) {
            s->dirs_again++;
            return 1;
        }
    }
    if (s->ndirs == s->dirs_cap) {
        size_t cap = s->dirs_cap ? s->dirs_cap * 2 : 16;
        struct stat *d = realloc(s->dirs, cap * sizeof(*d));
        if (!d) {
            return -1;
        }
        s->dirs = d;
        s->dirs_cap = cap;
    }
    s->dirs[s->ndirs++] = *st;
    return 0;
}

/* An entry named like a trace that is not a regular file (a FIFO, a device, a socket, a link
 * that leads nowhere): skipped, but counted, with the first one's path, for a note. */
static void skip_not_regular(struct scan *s, char *path, size_t rel, const char *name)
{
    if (!is_trace_name(name, path + rel, s->names)) {
        free(path);
        return;
    }
    if (s->not_regular == 0) {
        s->not_regular_path = path;
    } else {
        free(path);
    }
    s->not_regular++;
}

/* Search dir (reached as path; its relative part starts at rel) for traces. */
static int scan_dir(struct scan *s, const char *dir, size_t rel, const struct stat *dst)
{
    int again = seen_dir(s, dst);
    if (again) {
        return again < 0 ? iodfg_error_set(s->err, IODFG_E_NOMEM, NULL) : 0;
    }
    DIR *d = opendir(dir);
    if (!d) {
        iodfg_error_set(s->err, IODFG_E_IO, "cannot open directory: %s", strerror(errno));
        iodfg_error_at(s->err, dir, 0, 0);
        return -1;
    }
    int rc = 0;
    struct dirent *e;
    while (rc == 0 && (e = readdir(d)) != NULL) {
        if (e->d_name[0] == '.') {
            continue;
        }
        char *path = join(dir, e->d_name);
        struct stat st;
        if (!path) {
            rc = iodfg_error_set(s->err, IODFG_E_NOMEM, NULL);
        } else if (stat(path, &st) != 0) {
            skip_not_regular(s, path, rel, e->d_name); // a dangling link is not a trace
        } else if (S_ISDIR(st.st_mode)) {
            rc = scan_dir(s, path, rel, &st);
            free(path);
        } else if (!S_ISREG(st.st_mode)) {
            skip_not_regular(s, path, rel, e->d_name);
        } else if (is_trace_name(e->d_name, path + rel, s->names)) {
            rc = push(s, path, rel, &st);
        } else {
            free(path);
        }
    }
    closedir(d);
    return rc;
}

static int by_path(const void *a, const void *b)
{
    return strcmp(((const struct found *)a)->path, ((const struct found *)b)->path);
}

static int by_identity(const void *a, const void *b)
{
    const struct found *x = *(struct found *const *)a, *y = *(struct found *const *)b;
    if (x->dev != y->dev) {
        return x->dev < y->dev ? -1 : 1;
    }
    if (x->ino != y->ino) {
        return x->ino < y->ino ? -1 : 1;
    }
    return strcmp(x->path, y->path);
}

/* Keep each file once: the first path (in path order) of every (device, inode). */
static size_t drop_again(struct found *f, size_t n, size_t *files_again)
{
    struct found **p = malloc((n ? n : 1) * sizeof(*p));
    if (!p) {
        return (size_t)-1;
    }
    for (size_t i = 0; i < n; i++) {
        p[i] = &f[i];
    }
    qsort(p, n, sizeof(*p), by_identity);
    for (size_t i = 1; i < n; i++) {
        if (p[i]->dev == p[i - 1]->dev && p[i]->ino == p[i - 1]->ino) {
            free(p[i]->path);
            p[i]->path = NULL;
            (*files_again)++;
        }
    }
    free(p);
    size_t w = 0;
    for (size_t r = 0; r < n; r++) {
        if (f[r].path) {
            f[w++] = f[r];
        }
    }
    return w;
}

/* s without a trailing ".st" (malloc'd). */
static char *strip_st(const char *s)
{
    size_t n = strlen(s);
    if (n > 3 && strcmp(s + n - 3, ".st") == 0) {
        n -= 3;
    }
    char *c = malloc(n + 1);
    if (c) {
        memcpy(c, s, n);
        c[n] = '\0';
    }
    return c;
}

static int by_name(const void *a, const void *b)
{
    return strcmp((*(struct iodfg_input *const *)a)->name, (*(struct iodfg_input *const *)b)->name);
}

/* Mark in clash[] the inputs whose names another input has too. -1 when out of memory. */
static int find_clashes(struct iodfg_input *in, size_t n, uint8_t *clash)
{
    struct iodfg_input **p = malloc((n ? n : 1) * sizeof(*p));
    if (!p) {
        return -1;
    }
    for (size_t i = 0; i < n; i++) {
        p[i] = &in[i];
    }
    qsort(p, n, sizeof(*p), by_name);
    for (size_t i = 1; i < n; i++) {
        if (strcmp(p[i]->name, p[i - 1]->name) == 0) {
            clash[p[i] - in] = clash[p[i - 1] - in] = 1;
        }
    }
    free(p);
    return 0;
}

/* Case names: the base name without ".st"; where base names clash, the relative path
 * (directories included), and where those clash too, the path as found. */
static int give_names(struct iodfg_input_list *l)
{
    uint8_t *clash = calloc(l->n + 1, 1);
    if (!clash) {
        return -1;
    }
    int rc = 0;
    for (int level = 0; level < 3 && rc == 0; level++) {
        for (size_t i = 0; i < l->n && rc == 0; i++) {
            struct iodfg_input *in = &l->files[i];
            if (level && !clash[i]) {
                continue;
            }
            const char *base = strrchr(in->rel, '/');
            const char *src = level == 0   ? (base ? base + 1 : in->rel)
                              : level == 1 ? in->rel
                                           : in->path;
            free(in->name);
            in->name = strip_st(src);
            rc = in->name ? 0 : -1;
        }
        memset(clash, 0, l->n);
        if (rc == 0 && find_clashes(l->files, l->n, clash)) {
            rc = -1;
        }
        if (level == 0) {
            for (size_t i = 0; i < l->n; i++) {
                l->renamed += clash[i];
            }
        }
    }
    for (size_t i = 0; i < l->n; i++) {
        l->same_name += clash[i];
    }
    free(clash);
    return rc;
}

void iodfg_ingest_list_fini(struct iodfg_input_list *l)
{
    for (size_t i = 0; l->files && i < l->n; i++) {
        free(l->files[i].path);
        free(l->files[i].name);
    }
    free(l->files);
    free(l->not_regular_path);
    memset(l, 0, sizeof(*l));
}

/* Expand the arguments into s: files as given (named by their base name), directories searched
 * (files named by their path below the directory). */
int iodfg_ingest_list_check_output(const struct iodfg_input_list *l, const char *output,
                                   struct iodfg_error *err)
{
    for (size_t i = 0; i < l->n; i++) {
        if (iodfg_atomic_not_input(output, l->files[i].path, err)) {
            return -1;
        }
    }
    return 0;
}

static int expand(struct scan *s, const char *const *inputs, size_t n)
{
    for (size_t i = 0; i < n; i++) {
        struct stat st;
        if (stat(inputs[i], &st) != 0) {
            iodfg_error_set(s->err, IODFG_E_IO, "cannot open: %s", strerror(errno));
            iodfg_error_at(s->err, inputs[i], 0, 0);
            return -1;
        }
        size_t before = s->n, odd_before = s->not_regular, len = strlen(inputs[i]);
        if (S_ISDIR(st.st_mode)) {
            size_t rel = len + (len && inputs[i][len - 1] != '/');
            if (scan_dir(s, inputs[i], rel, &st)) {
                return -1;
            }
            if (s->n == before && s->dirs_again == 0) {
                size_t odd = s->not_regular - odd_before;
                if (odd) {
                    iodfg_error_set(s->err, IODFG_E_EMPTY,
                                    "no trace files here: %zu entr%s named like one %s not a "
                                    "regular file (a FIFO, a device or a link that leads nowhere)",
                                    odd, odd == 1 ? "y" : "ies", odd == 1 ? "is" : "are");
                } else {
                    iodfg_error_set(s->err, IODFG_E_EMPTY,
                                    "no trace files (*.st, *.otf2 or "
                                    "matching the name pattern) here");
                }
                iodfg_error_at(s->err, inputs[i], 0, 0);
                return -1;
            }
        } else {
            const char *slash = strrchr(inputs[i], '/');
            if (push(s, strdup(inputs[i]), slash ? (size_t)(slash + 1 - inputs[i]) : 0, &st)) {
                return -1;
            }
        }
    }
    if (s->n == 0) {
        return iodfg_error_set(s->err, IODFG_E_EMPTY, "no input files");
    }
    return 0;
}

int iodfg_ingest_list(const char *const *inputs, size_t n, const struct iodfg_casename *names,
                      struct iodfg_input_list *out, struct iodfg_error *err)
{
    memset(out, 0, sizeof(*out));
    struct scan s = {.names = names, .err = err};
    int rc = expand(&s, inputs, n);
    size_t count = 0;
    if (rc == 0) {
        qsort(s.f, s.n, sizeof(*s.f), by_path);
        count = drop_again(s.f, s.n, &out->files_again);
        if (count != (size_t)-1) {
            s.n = count; // the rest were moved down or freed
        }
        out->files = count == (size_t)-1 ? NULL : calloc(count + 1, sizeof(*out->files));
        rc = out->files ? 0 : iodfg_error_set(err, IODFG_E_NOMEM, NULL);
    }
    if (rc == 0) {
        for (size_t i = 0; i < count; i++) {
            out->files[i] = (struct iodfg_input){s.f[i].path, s.f[i].path + s.f[i].rel, NULL};
            s.f[i].path = NULL;
        }
        out->n = count;
        out->dirs_again = s.dirs_again;
        out->not_regular = s.not_regular;
        out->not_regular_path = s.not_regular_path;
        s.not_regular_path = NULL;
        rc = give_names(out) ? iodfg_error_set(err, IODFG_E_NOMEM, NULL) : 0;
    }
    for (size_t i = 0; i < s.n; i++) {
        free(s.f[i].path);
    }
    free(s.f);
    free(s.dirs);
    free(s.not_regular_path);
    if (rc) {
        iodfg_ingest_list_fini(out);
    }
    return rc;
}
