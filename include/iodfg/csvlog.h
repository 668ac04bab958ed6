/* SPDX-License-Identifier: MIT */
/* CSV event logs as input: one row per event (case, call or activity, path, start, end or
 * duration, bytes, ...), e.g. `iodfg export --format csv`, Darshan DXT or Recorder output
 * turned into CSV. Columns are found by their header names or by a mapping. */
#ifndef IODFG_CSVLOG_H
#define IODFG_CSVLOG_H

#include <stddef.h>
#include <stdint.h>

struct iodfg_error;
struct iodfg_eventlog;
struct iodfg_strace_result;

/* What a column holds. */
#define IODFG_CSV_ROLE_LIST(X)                                                                     \
    X(CASE, "case")                                                                                \
    X(ACTIVITY, "activity")                                                                        \
    X(CALL, "call")                                                                                \
    X(PATH, "path")                                                                                \
    X(START, "start")                                                                              \
    X(END, "end")                                                                                  \
    X(DURATION, "duration")                                                                        \
    X(BYTES, "bytes")                                                                              \
    X(PID, "pid")                                                                                  \
    X(FD, "fd")                                                                                    \
    X(RESULT, "result")                                                                            \
    X(OFFSET, "offset")                                                                            \
    X(REQUESTED, "requested")                                                                      \
    X(CID, "cid")                                                                                  \
    X(HOST, "host")                                                                                \
    X(RID, "rid")                                                                                  \
    X(CLOCK, "clock")

enum iodfg_csv_role {
#define IODFG_X_ROLE(id, name) IODFG_CSV_##id,
    IODFG_CSV_ROLE_LIST(IODFG_X_ROLE)
#undef IODFG_X_ROLE
        IODFG_CSV__N
};
const char *iodfg_csv_role_name(enum iodfg_csv_role r);

/* Header names chosen for roles: name[r] (len[r] bytes, borrowed from the mapping text) or
 * NULL to look for the usual names (doc/interchange.md). */
struct iodfg_csv_columns {
    const char *name[IODFG_CSV__N];
    size_t len[IODFG_CSV__N];
};

/* Parse a mapping "case=rank,call=operation,duration=dt" (ROLE=HEADER, comma-separated) into
 * m, whose names then point into text (which must outlive m). 0, or -1 with err (column of
 * the unknown role or of the missing '='). */
int iodfg_csv_columns_parse(struct iodfg_csv_columns *m, const char *text, struct iodfg_error *err);

/* Does path name a CSV event log (its name ends in ".csv")? */
int iodfg_csvlog_is_csv(const char *path);

/* Read the CSV event log at path into a new log with the given columns (enum iodfg_column
 * bits; NULL map = the usual names): one case per distinct case value in order of first
 * appearance, its events sorted by start (ties in row order). Times are ISO 8601 date-times
 * (the epoch clock; without a zone UTC) or decimal seconds (the relative clock), exact to
 * the nanosecond; a clock column overrides. Rows that cannot be read are skipped and counted
 * as unparsable in res (the first few with line, column and what was expected). NULL with err
 * when the file cannot be read, has no header naming a case, a start and a call or activity,
 * or memory runs out. */
struct iodfg_eventlog *iodfg_csvlog_read(const char *path, const struct iodfg_csv_columns *map,
                                         unsigned columns, struct iodfg_strace_result *res,
                                         struct iodfg_error *err);

/* Times as the reader takes them, for tests: an ISO 8601 date-time into ns since the epoch,
 * or decimal seconds ("1.5", "-2", "1e-6") into ns. 0, or -1 when s[0..len) is not one. */
int iodfg_csv_parse_iso(const char *s, size_t len, int64_t *ns);
int iodfg_csv_parse_seconds(const char *s, size_t len, int64_t *ns);

#endif
