/* SPDX-License-Identifier: MIT */
/* Inside the CSV event-log reader: records, the rows read so far, the cases they name. */
#ifndef IODFG_IO_CSVLOG_PRIV_H
#define IODFG_IO_CSVLOG_PRIV_H

#include <stddef.h>
#include <stdint.h>

#include "iodfg/buf.h"
#include "iodfg/csvlog.h"
#include "iodfg/eventlog.h"

struct iodfg_strace_result;

/* One field of a record: text[off, off+len) of the record's unquoted text. */
struct csv_field {
    size_t off, len;
    unsigned long col; /* 1-based byte column where the field starts on its line */
};

struct csv_record {
    struct iodfg_buf text; /* the fields' text, unquoted, one after the other */
    struct csv_field *f;
    size_t n, cap;
    unsigned long line;    /* where the record starts */
    unsigned long bad_col; /* column of an unterminated quote (0 = none) */
    unsigned long breaks;  /* line breaks inside quoted fields */
    int loose;             /* a closing quote was followed by text, not by ',' or a line end */
};

/* Read the record at *p (up to an unquoted line break, which is consumed) into r; *line counts
 * the line breaks passed (quoted ones too). 1, or -1 when out of memory. */
int csv_next_record(const char **p, const char *end, unsigned long *line, struct csv_record *r);

/* One row, ready to push. */
struct csv_row {
    int64_t start_ns, dur_ns, size, offset, req;
    uint32_t case_ix, call, path, err;
    int32_t pid, fd;
    uint64_t line;
};

struct csv_case {
    uint32_t name, cid, host, rid;
    enum iodfg_clock clock;
    int iso; /* its times are ISO date-times (else decimal seconds) */
    uint64_t rows;
};

struct csv_reader {
    const char *path;
    const struct iodfg_csv_columns *map;
    struct iodfg_strace_result *res;
    struct iodfg_error *err;
    struct iodfg_eventlog *log;
    int at[IODFG_CSV__N]; /* field index of each role, -1 = none */
    size_t nfields;       /* fields of the header */
    struct csv_record rec;
    struct iodfg_buf scratch; /* a field with its escapes undone */
    struct csv_row *rows;
    size_t nrows, rows_cap;
    struct csv_case *cases;
    uint32_t ncases, cases_cap;
    uint32_t *case_of_str; /* string id -> case index + 1 (0 = not a case yet) */
    size_t case_of_cap;
};

/* Read one data record into a row: 0; or count it as unparsable (its line, column and why in
 * rd->res): 1; or -1 with err (memory). */
int csv_row(struct csv_reader *rd, const struct csv_record *r);
/* Push the rows, case by case, into rd->log. 0, or -1 with err. */
int csv_build(struct csv_reader *rd);
void csv_reader_fini(struct csv_reader *rd);

#endif
