/* SPDX-License-Identifier: MIT */
/* The CSV event-log reader: RFC 4180 records, columns by header name or mapping, one row per
 * event; rows that cannot be read are counted with their line and column, like trace lines. */
#include "config.h"

#include "iodfg/csvlog.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "iodfg/buf.h"
#include "iodfg/error.h"
#include "iodfg/eventlog.h"
#include "iodfg/strace.h"
#include "iodfg/strpool.h"

#include "csvlog_priv.h"
#include "readfile.h"

static const char *const role_names[] = {
#define IODFG_X_ROLE(id, name) name,
    IODFG_CSV_ROLE_LIST(IODFG_X_ROLE)
#undef IODFG_X_ROLE
};

const char *iodfg_csv_role_name(enum iodfg_csv_role r)
{
    return (unsigned)r < IODFG_CSV__N ? role_names[r] : "";
}

/* The usual header names of each role, most specific first (PM4Py's, then plain words). */
static const char *const usual[IODFG_CSV__N][6] = {
    [IODFG_CSV_CASE] = {"case:concept:name", "case", "case_id", "caseid", "case id"},
    [IODFG_CSV_ACTIVITY] = {"concept:name", "activity"},
    [IODFG_CSV_CALL] = {"call", "syscall", "function", "operation"},
    [IODFG_CSV_PATH] = {"path", "file", "filename", "file_name"},
    [IODFG_CSV_START] = {"start_timestamp", "start", "start_time", "time:timestamp", "timestamp"},
    [IODFG_CSV_END] = {"end_timestamp", "end", "end_time"},
    [IODFG_CSV_DURATION] = {"duration", "dur"},
    [IODFG_CSV_BYTES] = {"bytes", "size"},
    [IODFG_CSV_PID] = {"pid", "tid", "thread"},
    [IODFG_CSV_FD] = {"fd"},
    [IODFG_CSV_RESULT] = {"result", "errno", "error"},
    [IODFG_CSV_OFFSET] = {"offset"},
    [IODFG_CSV_REQUESTED] = {"requested", "req"},
    [IODFG_CSV_CID] = {"case:cid", "cid"},
    [IODFG_CSV_HOST] = {"case:host", "host"},
    [IODFG_CSV_RID] = {"case:rid", "rid"},
    [IODFG_CSV_CLOCK] = {"case:clock", "clock"},
};

int iodfg_csvlog_is_csv(const char *path)
{
    size_t n = strlen(path);
    return n > 4 && strcasecmp(path + n - 4, ".csv") == 0;
}

int iodfg_csv_columns_parse(struct iodfg_csv_columns *m, const char *text, struct iodfg_error *err)
{
    memset(m, 0, sizeof(*m));
    for (const char *p = text; *p;) {
        const char *comma = strchr(p, ',');
        size_t n = comma ? (size_t)(comma - p) : strlen(p);
        const char *eq = memchr(p, '=', n);
        unsigned long col = (unsigned long)(p - text) + 1;
        if (!eq || eq == p || eq + 1 == p + n) {
            iodfg_error_set(err, IODFG_E_PARSE, "expected ROLE=HEADER, found '%.*s'", (int)n, p);
            iodfg_error_at(err, "--csv-columns", 1, col);
            return -1;
        }
        int r = 0;
        while (r < IODFG_CSV__N && !(strlen(role_names[r]) == (size_t)(eq - p) &&
                                     memcmp(role_names[r], p, (size_t)(eq - p)) == 0)) {
            r++;
        }
        if (r == IODFG_CSV__N) {
            iodfg_error_set(err, IODFG_E_PARSE,
                            "unknown role '%.*s' (case, activity, call, path, start, end, "
                            "duration, bytes, pid, fd, result, offset, requested, cid, host, "
                            "rid, clock)",
                            (int)(eq - p), p);
            iodfg_error_at(err, "--csv-columns", 1, col);
            return -1;
        }
        m->name[r] = eq + 1;
        m->len[r] = (size_t)(p + n - eq - 1);
        p += n + (comma != NULL);
    }
    return 0;
}

/* ---- columns ------------------------------------------------------------------ */

static int field_is(const struct csv_record *r, size_t i, const char *name, size_t len, int icase)
{
    const struct csv_field *f = &r->f[i];
    const char *s = r->text.data + f->off;
    return f->len == len && (icase ? strncasecmp(s, name, len) == 0 : memcmp(s, name, len) == 0);
}

// Which field of the header holds each role (-1: none). 0, or -1 with err.
static int resolve(const struct csv_record *hdr, const struct iodfg_csv_columns *map, int *at,
                   struct iodfg_error *err)
{
    for (int role = 0; role < IODFG_CSV__N; role++) {
        at[role] = -1;
        if (map && map->name[role]) {
            for (size_t i = 0; i < hdr->n && at[role] < 0; i++) {
                at[role] = field_is(hdr, i, map->name[role], map->len[role], 0) ? (int)i : -1;
            }
            if (at[role] < 0) {
                iodfg_error_set(err, IODFG_E_PARSE, "no column named '%.*s' (the %s column)",
                                (int)map->len[role], map->name[role], role_names[role]);
                return -1;
            }
            continue;
        }
        for (size_t k = 0; k < 6 && usual[role][k] && at[role] < 0; k++) {
            for (size_t i = 0; i < hdr->n && at[role] < 0; i++) {
                const char *u = usual[role][k];
                at[role] = field_is(hdr, i, u, strlen(u), 1) ? (int)i : -1;
            }
        }
    }
    if (at[IODFG_CSV_CASE] < 0 || at[IODFG_CSV_START] < 0 ||
        (at[IODFG_CSV_CALL] < 0 && at[IODFG_CSV_ACTIVITY] < 0)) {
        return iodfg_error_set(err, IODFG_E_PARSE,
                               "expected a header naming the case (case:concept:name or case), "
                               "the start (start_timestamp, start or time:timestamp) and the call "
                               "(call) or activity (concept:name); --csv-columns maps others");
    }
    return 0;
}

/* ---- reading ------------------------------------------------------------------ */

/* A data record that ran over line breaks inside a quote and is not a well-formed row of the
 * header's shape (a quote without its closing one swallows the lines after it, up to the next
 * quote or the end of the file): its first line is counted as unparsable and reading goes on at its
 * second line, so that the rows it swallowed are read as rows (each counted, read or not). 1 when
 * it was such a record (*p, *line moved back), else 0. */
static int broken_quote(struct csv_reader *rd, const struct csv_record *r, const char *start,
                        const char **p, const char *end, unsigned long *line)
{
    if (r->breaks == 0) {
        return 0; // within one line
    }
    if (!r->bad_col && !r->loose && r->n == rd->nfields) {
        return 0; // a quoted field with line breaks in it, as CSV allows
    }
    unsigned long col = r->bad_col;
    for (size_t i = 0; i < r->n && !col; i++) {     // the quote that ran over: the first field
        const char *f = r->text.data + r->f[i].off; // with a line break in it
        if (memchr(f, '\n', r->f[i].len)) {
            col = r->f[i].col;
        }
    }
    struct iodfg_strace_result *res = rd->res;
    res->counts[IODFG_COUNT_UNPARSABLE]++;
    if (res->ndiags < IODFG_STRACE_MAX_DIAGS) {
        struct iodfg_strace_diag *d = &res->diags[res->ndiags++];
        d->line = r->line;
        d->col = col ? col : 1;
        snprintf(d->msg, sizeof(d->msg),
                 "expected a closing quote on this line (the quoted field ran over %lu line "
                 "break%s)",
                 r->breaks, r->breaks == 1 ? "" : "s");
    }
    const char *nl = memchr(start, '\n', (size_t)(end - start));
    *p = nl ? nl + 1 : end;
    *line = r->line + 1;
    return 1;
}

static int read_all(struct csv_reader *rd, const char *data, size_t len)
{
    const char *p = data, *end = data + len;
    unsigned long line = 1;
    struct csv_record *r = &rd->rec;
    int header = 1;
    while (p < end) {
        const char *start = p;
        int k = csv_next_record(&p, end, &line, r);
        if (k < 0) {
            return iodfg_error_set(rd->err, IODFG_E_NOMEM, NULL);
        }
        rd->res->lines++;
        if (r->n == 1 && r->f[0].len == 0 && !r->bad_col) {
            rd->res->counts[IODFG_COUNT_BLANK]++;
            continue;
        }
        if (header) {
            if (r->bad_col || resolve(r, rd->map, rd->at, rd->err)) {
                if (r->bad_col) {
                    iodfg_error_set(rd->err, IODFG_E_PARSE, "unterminated quoted field");
                }
                iodfg_error_at(rd->err, rd->path, r->line, r->bad_col ? r->bad_col : 1);
                return -1;
            }
            rd->nfields = r->n;
            header = 0;
            continue;
        }
        if (broken_quote(rd, r, start, &p, end, &line)) {
            continue;
        }
        if (csv_row(rd, r) < 0) {
            return -1;
        }
    }
    if (header) {
        iodfg_error_set(rd->err, IODFG_E_PARSE, "empty file: expected a header line");
        iodfg_error_at(rd->err, rd->path, 1, 1);
        return -1;
    }
    return 0;
}

struct iodfg_eventlog *iodfg_csvlog_read(const char *path, const struct iodfg_csv_columns *map,
                                         unsigned columns, struct iodfg_strace_result *res,
                                         struct iodfg_error *err)
{
    struct iodfg_strace_result local;
    res = res ? res : &local;
    memset(res, 0, sizeof(*res));
    struct readfile rf;
    if (readfile_open(&rf, path, err)) {
        return NULL;
    }
    struct csv_reader rd;
    memset(&rd, 0, sizeof(rd));
    rd.path = path;
    rd.map = map;
    rd.res = res;
    rd.err = err;
    iodfg_buf_init(&rd.rec.text);
    iodfg_buf_init(&rd.scratch);
    rd.log = iodfg_eventlog_new(columns);
    res->bytes = rf.len;
    int rc = -1;
    if (!rd.log) {
        iodfg_error_set(err, IODFG_E_NOMEM, NULL);
    } else if (read_all(&rd, rf.data, rf.len) == 0 && csv_build(&rd) == 0) {
        rc = 0;
    }
    readfile_close(&rf);
    csv_reader_fini(&rd);
    if (rc) {
        iodfg_error_at(err, path, 0, 0);
        iodfg_eventlog_free(rd.log);
        return NULL;
    }
    return rd.log;
}
