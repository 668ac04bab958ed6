/* SPDX-License-Identifier: MIT */
/* Interchange: the selected events of an analysis as a Chrome/Perfetto trace (JSON), a
 * process-mining event table (CSV) or an XES log, streamed through a flush callback. */
#ifndef IODFG_INTERCHANGE_H
#define IODFG_INTERCHANGE_H

#include <stddef.h>
#include <stdint.h>

#include "iodfg/eventlog.h"

struct iodfg_buf;
struct iodfg_error;
struct iodfg_mapping;
struct iodfg_selection;

enum iodfg_interchange_format {
    IODFG_XCHG_PERFETTO = 0, /* Chrome trace-event JSON: a process per case, a thread per pid */
    IODFG_XCHG_CSV,          /* one row per event, PM4Py/Disco column names */
    IODFG_XCHG_XES,          /* IEEE 1849 XES: a trace per case, an event per call */
};
/* "perfetto", "csv", "xes"; iodfg_interchange_format_parse gives 0 and *f, or -1. */
const char *iodfg_interchange_format_name(enum iodfg_interchange_format f);
int iodfg_interchange_format_parse(const char *name, enum iodfg_interchange_format *f);

/* What to export (all borrowed for the call). Events of the selection whose key the mapping
 * maps to an activity are written, case by case (with per_pid: one case per pid) in the
 * order the DFG follows, so that mining the output gives iodfg's DFG. */
struct iodfg_interchange_source {
    const struct iodfg_eventlog *log; /* start, dur, size, offset, req, key, err, pid, fd */
    const struct iodfg_mapping *map;
    const struct iodfg_selection *sel;
    const uint8_t *g_mask, *r_mask; /* groups G and R (case masks), NULL without groups */
    const char *generator;          /* "iodfg 0.1.0" */
    const char *description;        /* the command, rules and filters (may be NULL) */
};

/* Receives the output in pieces of about 1 MiB, in order. 0, or -1 with err to stop. */
typedef int (*iodfg_interchange_flush_fn)(void *ctx, const char *data, size_t n,
                                          struct iodfg_error *err);

/* What was written. */
struct iodfg_interchange_totals {
    uint64_t events, traces;         /* traces: cases, or (case, pid) pairs per pid */
    uint64_t cases;                  /* trace files with events written */
    uint64_t unknown_dur;            /* events without a duration (instants in Perfetto) */
    uint64_t lanes;                  /* Perfetto: extra tracks for overlapping calls */
    uint32_t clocks[IODFG_CLOCK__N]; /* written cases by clock */
    int sub_us;                      /* times with nanoseconds (else microseconds) */
};

/* Write src in format f through flush. Memory stays at the flush buffer plus one case's
 * bookkeeping. 0, or -1 with err (out of memory, or the flush callback's error). */
int iodfg_interchange_write(enum iodfg_interchange_format f,
                            const struct iodfg_interchange_source *src,
                            iodfg_interchange_flush_fn flush, void *ctx,
                            struct iodfg_interchange_totals *totals, struct iodfg_error *err);

/* ---- time text, shared with the CSV reader's tests ---- */

/* ns since 1970-01-01 as "YYYY-MM-DDTHH:MM:SS.ffffff+00:00" (digits: 6 or 9). */
int iodfg_interchange_iso_time(struct iodfg_buf *b, int64_t ns, int digits);
/* ns as decimal seconds "S.ffffff" (digits: 6 or 9), exact. */
int iodfg_interchange_seconds(struct iodfg_buf *b, int64_t ns, int digits);

#endif
