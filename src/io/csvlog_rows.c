/* SPDX-License-Identifier: MIT */
/* CSV event logs: splitting records, reading a row's fields into an event, and building the
 * cases from the rows once the file is read (rows of a case need not be together). */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "iodfg/error.h"
#include "iodfg/strace.h"
#include "iodfg/strpool.h"

#include "csvlog_priv.h"

/* ---- records ------------------------------------------------------------------ */

static int add_field(struct csv_record *r, unsigned long col)
{
    if (r->n == r->cap) {
        size_t cap = r->cap ? 2 * r->cap : 32;
        struct csv_field *f = realloc(r->f, cap * sizeof(*f));
        if (!f) {
            return -1;
        }
        r->f = f;
        r->cap = cap;
    }
    r->f[r->n++] = (struct csv_field){r->text.len, 0, col};
    return 0;
}

// A quoted field's text from just after its opening quote; returns 0 when it was closed.
static int quoted(const char **pp, const char *end, unsigned long *line, const char **line_start,
                  struct iodfg_buf *text)
{
    const char *p = *pp;
    for (;;) {
        const char *q = p;
        while (q < end && *q != '"' && *q != '\n') {
            q++;
        }
        iodfg_buf_add(text, p, (size_t)(q - p));
        if (q == end) {
            *pp = q;
            return -1;
        }
        if (*q == '\n') {
            iodfg_buf_add(text, "\n", 1);
            (*line)++;
            *line_start = p = q + 1;
            continue;
        }
        if (q + 1 < end && q[1] == '"') { // "" is one quote
            iodfg_buf_add(text, "\"", 1);
            p = q + 2;
            continue;
        }
        *pp = q + 1;
        return 0;
    }
}

int csv_next_record(const char **pp, const char *end, unsigned long *line, struct csv_record *r)
{
    const char *p = *pp, *line_start = p;
    iodfg_buf_clear(&r->text);
    r->n = 0;
    r->line = *line;
    r->bad_col = 0;
    r->breaks = 0;
    r->loose = 0;
    for (;;) {
        if (add_field(r, (unsigned long)(p - line_start) + 1)) {
            return -1;
        }
        struct csv_field *f = &r->f[r->n - 1];
        if (p < end && *p == '"') {
            unsigned long qcol = f->col, before = *line;
            p++;
            int open = quoted(&p, end, line, &line_start, &r->text) != 0;
            if (open && !r->bad_col) {
                r->bad_col = qcol;
            }
            // text right after a closing quote ("ab"c): taken as it comes, but not RFC 4180
            r->loose |= !open && p < end && *p != ',' && *p != '\n' && *p != '\r';
            // an unclosed quote's last line break ends the file's last line: not a quoted one
            r->breaks += *line - before - (open && *line > before && end[-1] == '\n');
        }
        const char *q = p; // unquoted text (or what follows a closing quote) up to , or \n
        while (q < end && *q != ',' && *q != '\n') {
            q++;
        }
        iodfg_buf_add(&r->text, p, (size_t)(q - p));
        p = q;
        f->len = r->text.len - f->off;
        if (p < end && *p == ',') {
            p++;
            continue;
        }
        if (f->len && r->text.data[f->off + f->len - 1] == '\r') {
            f->len--; // CRLF line ends
        }
        break;
    }
    if (p < end && *p == '\n') {
        p++;
        (*line)++;
    }
    *pp = p;
    return r->text.failed ? -1 : 1;
}

/* ---- one row -------------------------------------------------------------------- */

struct cell {
    const char *s;
    size_t len;
    unsigned long col;
};

static struct cell cell_of(const struct csv_reader *rd, const struct csv_record *r, int role)
{
    int i = rd->at[role];
    if (i < 0 || (size_t)i >= r->n) {
        return (struct cell){"", 0, 0};
    }
    return (struct cell){rd->rec.text.data + r->f[i].off, r->f[i].len, r->f[i].col};
}

// Count the row as unparsable, remembering the first few problems. Always 1.
static int bad(struct csv_reader *rd, const struct csv_record *r, unsigned long col,
               const char *what, const struct cell *c)
{
    struct iodfg_strace_result *res = rd->res;
    res->counts[IODFG_COUNT_UNPARSABLE]++;
    if (res->ndiags < IODFG_STRACE_MAX_DIAGS) {
        struct iodfg_strace_diag *d = &res->diags[res->ndiags++];
        d->line = r->line;
        d->col = col;
        if (c) {
            snprintf(d->msg, sizeof(d->msg), "%s, found '%.*s'", what,
                     (int)(c->len > 40 ? 40 : c->len), c->s);
        } else {
            snprintf(d->msg, sizeof(d->msg), "%s", what);
        }
    }
    return 1;
}

// An integer cell ("" = unknown; "832.0" as pandas writes integers of a column with gaps).
static int integer(const struct cell *c, int64_t lo, int64_t hi, int64_t *v)
{
    *v = IODFG_UNKNOWN;
    if (!c->len) {
        return 0;
    }
    size_t i = c->s[0] == '-' || c->s[0] == '+';
    int neg = c->s[0] == '-';
    uint64_t m = 0;
    size_t d0 = i;
    for (; i < c->len && c->s[i] >= '0' && c->s[i] <= '9'; i++) {
        if (m > (uint64_t)INT64_MAX / 10) {
            return -1;
        }
        m = m * 10 + (uint64_t)(c->s[i] - '0');
    }
    if (i == d0 || m > (uint64_t)INT64_MAX) {
        return -1;
    }
    if (i < c->len && c->s[i] == '.') {
        for (i++; i < c->len && c->s[i] == '0'; i++) {
        }
    }
    int64_t x = neg ? -(int64_t)m : (int64_t)m;
    if (i != c->len || x < lo || x > hi) {
        return -1;
    }
    *v = x;
    return 0;
}

static int hexval(char c)
{
    return c >= '0' && c <= '9'   ? c - '0'
           : c >= 'a' && c <= 'f' ? c - 'a' + 10
           : c >= 'A' && c <= 'F' ? c - 'A' + 10
                                  : -1;
}

/* Intern the cell's text with the escapes the exports write undone (\\ \t \n \r \xNN; any
 * other backslash stays). 0, or -1 when out of memory. */
static int intern(struct csv_reader *rd, const struct cell *c, uint32_t *id)
{
    struct iodfg_buf *b = &rd->scratch;
    iodfg_buf_clear(b);
    for (size_t i = 0; i < c->len; i++) {
        char ch = c->s[i], n = i + 1 < c->len ? c->s[i + 1] : 0;
        if (ch == '\\' && (n == '\\' || n == 't' || n == 'n' || n == 'r')) {
            ch = n == 't' ? '\t' : n == 'n' ? '\n' : n == 'r' ? '\r' : '\\';
            i++;
        } else if (ch == '\\' && n == 'x' && i + 3 < c->len && hexval(c->s[i + 2]) >= 0 &&
                   hexval(c->s[i + 3]) >= 0) {
            ch = (char)(hexval(c->s[i + 2]) * 16 + hexval(c->s[i + 3]));
            i += 3;
        }
        if (ch == '\0') {
            ch = '?'; // the string pool holds no NUL; \x00 never comes from a trace
        }
        iodfg_buf_add(b, &ch, 1);
    }
    if (b->failed ||
        iodfg_strpool_intern(iodfg_eventlog_pool(rd->log), b->data ? b->data : "", b->len, id)) {
        return iodfg_error_set(rd->err, IODFG_E_NOMEM, NULL);
    }
    return 0;
}

// A time: ISO 8601 (*iso = 1) or decimal seconds (*iso = 0). 0 or -1.
static int time_of(const struct cell *c, int64_t *ns, int *iso)
{
    *iso = iodfg_csv_parse_iso(c->s, c->len, ns) == 0;
    return *iso || iodfg_csv_parse_seconds(c->s, c->len, ns) == 0 ? 0 : -1;
}

static int clock_of(const struct cell *c, enum iodfg_clock *clock)
{
    for (int k = 0; k < IODFG_CLOCK__N; k++) {
        const char *name = iodfg_clock_name((enum iodfg_clock)k);
        if (strlen(name) == c->len && memcmp(name, c->s, c->len) == 0) {
            *clock = (enum iodfg_clock)k;
            return 0;
        }
    }
    return -1;
}

// Duration from the end or duration cell: 0 (IODFG_UNKNOWN when neither), or 1 after bad().
static int duration(struct csv_reader *rd, const struct csv_record *r, struct csv_row *row, int iso)
{
    struct cell end = cell_of(rd, r, IODFG_CSV_END), dur = cell_of(rd, r, IODFG_CSV_DURATION);
    row->dur_ns = IODFG_UNKNOWN;
    if (dur.len) {
        if (iodfg_csv_parse_seconds(dur.s, dur.len, &row->dur_ns) || row->dur_ns < 0) {
            return bad(rd, r, dur.col, "expected a duration in seconds (0 or more)", &dur);
        }
    } else if (end.len) {
        int64_t e;
        int end_iso;
        if (time_of(&end, &e, &end_iso) || end_iso != iso) {
            return bad(rd, r, end.col,
                       iso ? "expected an end time like the start (ISO 8601 date-time)"
                           : "expected an end time like the start (seconds)",
                       &end);
        }
        if (e < row->start_ns) {
            return bad(rd, r, end.col, "expected an end time not before the start", &end);
        }
        row->dur_ns = e - row->start_ns;
    }
    return 0;
}

// The numbers of a row: 0, or 1 after bad().
static int numbers(struct csv_reader *rd, const struct csv_record *r, struct csv_row *row)
{
    static const struct {
        int role;
        int64_t lo, hi;
        const char *what;
    } num[] = {
        {IODFG_CSV_BYTES, INT64_MIN + 1, INT64_MAX, "expected a number of bytes"},
        {IODFG_CSV_PID, INT32_MIN + 1, INT32_MAX, "expected a process id"},
        {IODFG_CSV_FD, INT32_MIN + 1, INT32_MAX, "expected a file descriptor number"},
        {IODFG_CSV_OFFSET, INT64_MIN + 1, INT64_MAX, "expected a file offset"},
        {IODFG_CSV_REQUESTED, INT64_MIN + 1, INT64_MAX, "expected a number of bytes requested"},
    };
    int64_t v[5];
    for (size_t i = 0; i < 5; i++) {
        struct cell c = cell_of(rd, r, num[i].role);
        if (integer(&c, num[i].lo, num[i].hi, &v[i])) {
            return bad(rd, r, c.col, num[i].what, &c);
        }
    }
    row->size = v[0];
    row->pid = v[1] == IODFG_UNKNOWN ? 0 : (int32_t)v[1];
    row->fd = v[2] == IODFG_UNKNOWN ? IODFG_NO_FD : (int32_t)v[2];
    row->offset = v[3];
    row->req = v[4];
    return 0;
}

// The case named by the row's case cell (created with the row's attributes when new).
static int case_of(struct csv_reader *rd, const struct csv_record *r, uint32_t name, int iso,
                   enum iodfg_clock clock, uint32_t *ix)
{
    if (name >= rd->case_of_cap) {
        size_t cap = rd->case_of_cap ? rd->case_of_cap : 64;
        while (cap <= name) {
            cap *= 2;
        }
        uint32_t *m = realloc(rd->case_of_str, cap * sizeof(*m));
        if (!m) {
            return iodfg_error_set(rd->err, IODFG_E_NOMEM, NULL);
        }
        memset(m + rd->case_of_cap, 0, (cap - rd->case_of_cap) * sizeof(*m));
        rd->case_of_str = m;
        rd->case_of_cap = cap;
    }
    if (rd->case_of_str[name]) {
        *ix = rd->case_of_str[name] - 1;
        return 0;
    }
    if (rd->ncases == rd->cases_cap) {
        uint32_t cap = rd->cases_cap ? 2 * rd->cases_cap : 16;
        struct csv_case *c = realloc(rd->cases, cap * sizeof(*c));
        if (!c) {
            return iodfg_error_set(rd->err, IODFG_E_NOMEM, NULL);
        }
        rd->cases = c;
        rd->cases_cap = cap;
    }
    struct csv_case *c = &rd->cases[rd->ncases];
    memset(c, 0, sizeof(*c));
    c->name = c->cid = name;
    c->iso = iso;
    c->clock = clock;
    struct cell cid = cell_of(rd, r, IODFG_CSV_CID), host = cell_of(rd, r, IODFG_CSV_HOST),
                rid = cell_of(rd, r, IODFG_CSV_RID);
    if ((rd->at[IODFG_CSV_CID] >= 0 && intern(rd, &cid, &c->cid)) || intern(rd, &host, &c->host) ||
        intern(rd, &rid, &c->rid)) {
        return -1;
    }
    *ix = rd->ncases++;
    rd->case_of_str[name] = *ix + 1;
    return 0;
}

static int add_row(struct csv_reader *rd, const struct csv_row *row)
{
    if (rd->nrows == rd->rows_cap) {
        size_t cap = rd->rows_cap ? 2 * rd->rows_cap : 1024;
        struct csv_row *n = realloc(rd->rows, cap * sizeof(*n));
        if (!n) {
            return iodfg_error_set(rd->err, IODFG_E_NOMEM, NULL);
        }
        rd->rows = n;
        rd->rows_cap = cap;
    }
    rd->rows[rd->nrows++] = *row;
    rd->cases[row->case_ix].rows++;
    return 0;
}

int csv_row(struct csv_reader *rd, const struct csv_record *r)
{
    if (r->bad_col) {
        return bad(rd, r, r->bad_col, "expected a closing quote", NULL);
    }
    if (r->n != rd->nfields) {
        char what[80];
        snprintf(what, sizeof(what), "expected %zu fields as in the header, found %zu", rd->nfields,
                 r->n);
        // the column of the first field too many, or just after the last field given
        const struct csv_field *last = &r->f[r->n - 1];
        return bad(rd, r, r->n > rd->nfields ? r->f[rd->nfields].col : last->col + last->len, what,
                   NULL);
    }
    struct csv_row row;
    memset(&row, 0, sizeof(row));
    row.line = r->line;
    struct cell kase = cell_of(rd, r, IODFG_CSV_CASE), start = cell_of(rd, r, IODFG_CSV_START);
    struct cell call = cell_of(rd, r, IODFG_CSV_CALL), act = cell_of(rd, r, IODFG_CSV_ACTIVITY);
    struct cell clk = cell_of(rd, r, IODFG_CSV_CLOCK);
    int iso;
    enum iodfg_clock clock = IODFG_CLOCK_NONE;
    if (!kase.len) {
        return bad(rd, r, kase.col, "expected a case name", NULL);
    }
    if (time_of(&start, &row.start_ns, &iso)) {
        return bad(rd, r, start.col, "expected a start time (ISO 8601 date-time or seconds)",
                   &start);
    }
    if (clk.len && clock_of(&clk, &clock)) {
        return bad(rd, r, clk.col, "expected a clock (epoch, time-of-day, relative or none)", &clk);
    }
    if (!clk.len) {
        clock = iso ? IODFG_CLOCK_EPOCH : IODFG_CLOCK_RELATIVE;
    }
    if (!call.len && !act.len) {
        return bad(rd, r, call.col ? call.col : act.col, "expected a call or activity", NULL);
    }
    if (duration(rd, r, &row, iso) || numbers(rd, r, &row)) {
        return 1;
    }
    uint32_t name;
    struct cell path = cell_of(rd, r, IODFG_CSV_PATH), res = cell_of(rd, r, IODFG_CSV_RESULT);
    if (intern(rd, &kase, &name) || case_of(rd, r, name, iso, clock, &row.case_ix) ||
        intern(rd, call.len ? &call : &act, &row.call) || intern(rd, &path, &row.path) ||
        intern(rd, &res, &row.err)) {
        return -1;
    }
    if (rd->cases[row.case_ix].iso != iso) {
        return bad(rd, r, start.col,
                   iso ? "expected a start in seconds like the case's first row"
                       : "expected an ISO 8601 start like the case's first row",
                   &start);
    }
    return add_row(rd, &row);
}
