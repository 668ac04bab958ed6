/* SPDX-License-Identifier: MIT */
/* Expanding the ingest's inputs: files as given, directories searched for traces. */
#include "config.h"

#include <dirent.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "iodfg/casename.h"
#include "iodfg/error.h"
#include "iodfg/ingest.h"
#include "iodfg/otf2.h"

struct list {
    char **items;
    size_t n, cap;
};

static int push(struct list *l, char *s)
{
    if (!s) {
        return -1;
    }
    if (l->n + 1 >= l->cap) {
        size_t cap = l->cap ? l->cap * 2 : 64;
        char **it = realloc(l->items, cap * sizeof(*it));
        if (!it) {
            free(s);
            return -1;
        }
        l->items = it;
        l->cap = cap;
    }
    l->items[l->n++] = s;
    l->items[l->n] = NULL;
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

static int is_trace_name(const char *name, const struct iodfg_casename *names)
{
    size_t n = strlen(name);
    if ((n > 3 && strcmp(name + n - 3, ".st") == 0) || iodfg_otf2_is_anchor(name)) {
        return 1;
    }
    char a[512], b[512], c[512], d[512];
    return iodfg_casename_apply(names, name, a, b, c, d, sizeof(a));
}

static int scan_dir(struct list *l, const char *dir, const struct iodfg_casename *names, int depth,
                    struct iodfg_error *err)
{
    if (depth > 32) {
        return 0; // deeper trees are almost certainly a symlink loop
    }
    DIR *d = opendir(dir);
    if (!d) {
        iodfg_error_set(err, IODFG_E_IO, "cannot open directory: %s", strerror(errno));
        iodfg_error_at(err, dir, 0, 0);
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
            rc = iodfg_error_set(err, IODFG_E_NOMEM, NULL);
        } else if (stat(path, &st) != 0) {
            free(path); // a dangling link is not a trace
        } else if (S_ISDIR(st.st_mode)) {
            rc = scan_dir(l, path, names, depth + 1, err);
            free(path);
        } else if (S_ISREG(st.st_mode) && is_trace_name(e->d_name, names)) {
            if (push(l, path)) {
                rc = iodfg_error_set(err, IODFG_E_NOMEM, NULL);
            }
        } else {
            free(path);
        }
    }
    closedir(d);
    return rc;
}

static int cmp_str(const void *a, const void *b)
{
    return strcmp(*(char *const *)a, *(char *const *)b);
}

void iodfg_ingest_free_list(char **list)
{
    if (!list) {
        return;
    }
    for (char **p = list; *p; p++) {
        free(*p);
    }
    free(list);
}

char **iodfg_ingest_list(const char *const *inputs, size_t n, const struct iodfg_casename *names,
                         size_t *count, struct iodfg_error *err)
{
    struct list l = {0};
    int rc = 0;
    for (size_t i = 0; rc == 0 && i < n; i++) {
        struct stat st;
        if (stat(inputs[i], &st) != 0) {
            rc = iodfg_error_set(err, IODFG_E_IO, "cannot open: %s", strerror(errno));
            iodfg_error_at(err, inputs[i], 0, 0);
        } else if (S_ISDIR(st.st_mode)) {
            size_t before = l.n;
            rc = scan_dir(&l, inputs[i], names, 0, err);
            if (rc == 0 && l.n == before) {
                rc = iodfg_error_set(err, IODFG_E_EMPTY,
                                     "no trace files (*.st, *.otf2 or "
                                     "matching the name pattern) here");
                iodfg_error_at(err, inputs[i], 0, 0);
            }
        } else if (push(&l, strdup(inputs[i]))) {
            rc = iodfg_error_set(err, IODFG_E_NOMEM, NULL);
        }
    }
    if (rc == 0 && l.n == 0) {
        rc = iodfg_error_set(err, IODFG_E_EMPTY, "no input files");
    }
    if (rc) {
        iodfg_ingest_free_list(l.items ? l.items : NULL);
        return NULL;
    }
    qsort(l.items, l.n, sizeof(*l.items), cmp_str);
    size_t w = 0;
    for (size_t r = 0; r < l.n; r++) {
        if (w && strcmp(l.items[w - 1], l.items[r]) == 0) {
            free(l.items[r]);
        } else {
            l.items[w++] = l.items[r];
        }
    }
    l.items[w] = NULL;
    *count = w;
    return l.items;
}
