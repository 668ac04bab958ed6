/* SPDX-License-Identifier: MIT */
/* The CSV reader of per-server I/O counter samples (El Sayed et al. 2016). */
#include "config.h"

#include "iodfg/counters_csv.h"

#include "iodfg/counters.h"

#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "iodfg/error.h"

#include "readfile.h"

#define NCOLS (2 + IODFG_CTR__N)

struct row {
    uint32_t server;
    unsigned long line;
    double t, v[IODFG_CTR__N];
};

struct parse {
    struct row *rows;
    size_t n, cap;
    char **names;
    uint32_t nnames;
    int col_of[NCOLS]; /* CSV column -> field (0 server, 1 time, 2.. counters) */
    const char *where;
    struct iodfg_error *err;
};

struct field {
    const char *p;
    size_t n;
    unsigned long col; /* 1-based */
};

// Split [p, end) at commas into at most NCOLS+1 trimmed fields; returns the count.
static size_t split(const char *p, const char *end, struct field *f)
{
    const char *line = p;
    size_t n = 0;
    for (;;) {
        const char *q = memchr(p, ',', (size_t)(end - p));
        const char *fe = q ? q : end;
        const char *a = p;
        while (a < fe && isspace((unsigned char)*a)) {
            a++;
        }
        const char *z = fe;
        while (z > a && isspace((unsigned char)z[-1])) {
            z--;
        }
        if (n <= NCOLS) {
            f[n] = (struct field){a, (size_t)(z - a), (unsigned long)(a - line) + 1};
        }
        n++;
        if (!q) {
            break;
        }
        p = q + 1;
    }
    return n;
}

static int fail(struct parse *ps, unsigned long line, unsigned long col, const char *msg,
                const struct field *f)
{
    if (f) {
        iodfg_error_set(ps->err, IODFG_E_PARSE, "%s, found '%.*s'", msg,
                        (int)(f->n > 40 ? 40 : f->n), f->p);
    } else {
        iodfg_error_set(ps->err, IODFG_E_PARSE, "%s", msg);
    }
    iodfg_error_at(ps->err, ps->where, line, col);
    return -1;
}

static int header(struct parse *ps, const struct field *f, size_t n, unsigned long line)
{
    static const char *const fixed[2] = {"server", "time"};
    int seen[NCOLS] = {0};
    for (size_t i = 0; i < n; i++) {
        int id = -1;
        for (int k = 0; k < NCOLS && id < 0; k++) {
            const char *name = k < 2 ? fixed[k] : iodfg_counter_name((enum iodfg_counter)(k - 2));
            if (strlen(name) == f[i].n && memcmp(name, f[i].p, f[i].n) == 0) {
                id = k;
            }
        }
        if (id < 0 || seen[id]) {
            return fail(ps, line, f[i].col,
                        id < 0 ? "unknown column name (expected server, time, bytes_read, "
                                 "bytes_written, read_ops, write_ops, opens, closes)"
                               : "repeated column name",
                        &f[i]);
        }
        seen[id] = 1;
        ps->col_of[i] = id;
    }
    return 0;
}

static int number(struct parse *ps, const struct field *f, unsigned long line, double *out)
{
    char buf[64];
    if (f->n == 0 || f->n >= sizeof(buf)) {
        return fail(ps, line, f->col, "expected a number", f);
    }
    memcpy(buf, f->p, f->n);
    buf[f->n] = '\0';
    char *endp;
    errno = 0;
    double v = strtod(buf, &endp);
    if (*endp || errno || !isfinite(v) || v < 0) {
        return fail(ps, line, f->col, "expected a non-negative number", f);
    }
    *out = v;
    return 0;
}

static int server_of(struct parse *ps, const struct field *f, uint32_t *id)
{
    for (uint32_t i = ps->nnames; i-- > 0;) {
        if (strlen(ps->names[i]) == f->n && memcmp(ps->names[i], f->p, f->n) == 0) {
            *id = i;
            return 0;
        }
    }
    char **grown = realloc(ps->names, ((size_t)ps->nnames + 1) * sizeof(*grown));
    if (!grown) {
        return iodfg_error_set(ps->err, IODFG_E_NOMEM, NULL);
    }
    ps->names = grown;
    if (!(grown[ps->nnames] = strndup(f->p, f->n))) {
        return iodfg_error_set(ps->err, IODFG_E_NOMEM, NULL);
    }
    *id = ps->nnames++;
    return 0;
}

static int data_line(struct parse *ps, const struct field *f, unsigned long line)
{
    struct row r = {.line = line};
    for (int i = 0; i < NCOLS; i++) {
        int id = ps->col_of[i];
        if (id == 0) {
            if (f[i].n == 0) {
                return fail(ps, line, f[i].col, "expected a server name", NULL);
            }
            if (server_of(ps, &f[i], &r.server)) {
                return -1;
            }
        } else if (number(ps, &f[i], line, id == 1 ? &r.t : &r.v[id - 2])) {
            return -1;
        }
    }
    if (ps->n == ps->cap) {
        size_t cap = ps->cap ? ps->cap * 2 : 256;
        struct row *grown = realloc(ps->rows, cap * sizeof(*grown));
        if (!grown) {
            return iodfg_error_set(ps->err, IODFG_E_NOMEM, NULL);
        }
        ps->rows = grown;
        ps->cap = cap;
    }
    ps->rows[ps->n++] = r;
    return 0;
}

static int row_cmp(const void *a, const void *b)
{
    const struct row *x = a, *y = b;
    if (x->server != y->server) {
        return x->server < y->server ? -1 : 1;
    }
    if (x->t != y->t) {
        return x->t < y->t ? -1 : 1;
    }
    return x->line < y->line ? -1 : x->line > y->line;
}

static int fill(struct iodfg_counters *c, struct parse *ps)
{
    if (ps->n > 1) { // qsort's array must not be NULL, even for no rows
        qsort(ps->rows, ps->n, sizeof(*ps->rows), row_cmp);
    }
    c->nsamples = ps->n;
    c->first = calloc((size_t)ps->nnames + 1, sizeof(*c->first));
    c->t_s = malloc((ps->n + 1) * sizeof(double));
    int bad = !c->first || !c->t_s;
    for (int k = 0; k < IODFG_CTR__N; k++) {
        bad |= !(c->v[k] = malloc((ps->n + 1) * sizeof(double)));
    }
    if (bad) {
        return iodfg_error_set(ps->err, IODFG_E_NOMEM, NULL);
    }
    c->nservers = ps->nnames;
    c->server = ps->names;
    ps->names = NULL;
    ps->nnames = 0;
    double base[IODFG_CTR__N] = {0}, last[IODFG_CTR__N] = {0};
    for (size_t i = 0; i < ps->n; i++) {
        const struct row *r = &ps->rows[i];
        int fresh = i == 0 || ps->rows[i - 1].server != r->server;
        if (fresh) {
            memset(base, 0, sizeof(base));
            c->first[r->server] = i;
        } else if (ps->rows[i - 1].t == r->t) {
            return fail(ps, r->line, 1, "a second sample for the same server and time", NULL);
        }
        c->t_s[i] = r->t;
        for (int k = 0; k < IODFG_CTR__N; k++) {
            if (!fresh && r->v[k] + base[k] < last[k]) {
                base[k] = last[k]; // a counter reset: continue from the last value
            }
            last[k] = c->v[k][i] = r->v[k] + base[k];
        }
    }
    c->first[c->nservers] = ps->n;
    return 0;
}

// A header names its columns: no field is a number.
static int line_is_header(const struct field *f)
{
    for (int i = 0; i < NCOLS; i++) {
        if (f[i].n && (isdigit((unsigned char)f[i].p[0]) || f[i].p[0] == '.')) {
            return 0;
        }
    }
    return 1;
}

int iodfg_counters_parse(struct iodfg_counters *c, const char *text, size_t len, const char *where,
                         struct iodfg_error *err)
{
    iodfg_counters_fini(c);
    struct parse ps = {.where = where ? where : "", .err = err};
    for (int i = 0; i < NCOLS; i++) {
        ps.col_of[i] = i;
    }
    const char *p = text, *end = text + len;
    int rc = 0, seen_data = 0;
    for (unsigned long line = 1; p < end && rc == 0; line++) {
        const char *nl = memchr(p, '\n', (size_t)(end - p));
        const char *le = nl ? nl : end;
        const char *a = p;
        while (a < le && isspace((unsigned char)*a)) {
            a++;
        }
        if (a < le && *a != '#') {
            struct field f[NCOLS + 1];
            size_t n = split(p, le > p && le[-1] == '\r' ? le - 1 : le, f);
            if (n != NCOLS) {
                rc = fail(&ps, line, 1,
                          n < NCOLS ? "too few columns (expected 8)"
                                    : "too many columns (expected 8)",
                          NULL);
            } else if (!seen_data && line_is_header(f)) {
                rc = header(&ps, f, n, line);
            } else {
                rc = data_line(&ps, f, line);
            }
            seen_data = 1;
        }
        p = nl ? nl + 1 : end;
    }
    if (rc == 0) {
        rc = fill(c, &ps);
    }
    for (uint32_t i = 0; i < ps.nnames; i++) {
        free(ps.names[i]);
    }
    free(ps.names);
    free(ps.rows);
    if (rc) {
        iodfg_counters_fini(c);
    }
    return rc;
}

int iodfg_counters_read(struct iodfg_counters *c, const char *path, struct iodfg_error *err)
{
    struct readfile rf;
    if (readfile_open_max(&rf, path, IODFG_COUNTERS_MAX, err)) {
        readfile_name_kind(err, path, "counters file");
        return -1;
    }
    int rc = iodfg_counters_parse(c, rf.data, rf.len, path, err);
    if (rc == 0 && c->nsamples == 0) {
        iodfg_error_set(err, IODFG_E_EMPTY, "no counter samples (a header, comments or nothing)");
        iodfg_error_at(err, path, 0, 0);
        iodfg_counters_fini(c);
        rc = -1;
    }
    readfile_close(&rf);
    return rc;
}
