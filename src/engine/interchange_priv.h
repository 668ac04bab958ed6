/* SPDX-License-Identifier: MIT */
/* Inside the interchange writers: the walk over the exported traces and the format callbacks. */
#ifndef IODFG_ENGINE_INTERCHANGE_PRIV_H
#define IODFG_ENGINE_INTERCHANGE_PRIV_H

#include <stddef.h>
#include <stdint.h>

#include "iodfg/buf.h"
#include "iodfg/interchange.h"

struct xchg;

/* One format: called in document order; each returns 0, or -1 (only out of memory). begin and
 * event are required, the others may be NULL. */
struct xchg_ops {
    int (*begin)(struct xchg *x);
    int (*trace_begin)(struct xchg *x);
    int (*event)(struct xchg *x, uint64_t e, uint32_t activity);
    int (*trace_end)(struct xchg *x);
    int (*end)(struct xchg *x);
};

extern const struct xchg_ops xchg_perfetto_ops, xchg_csv_ops, xchg_xes_ops;

struct xchg {
    const struct iodfg_interchange_source *src;
    const struct iodfg_columns *col;
    const struct iodfg_strpool *pool;
    const struct iodfg_key *keys;
    struct iodfg_buf out;     /* the document, flushed in pieces */
    struct iodfg_buf scratch; /* a trace name or label being built */
    struct iodfg_buf esc;     /* one escaped field at a time (xchg_escaped) */
    struct iodfg_interchange_totals *tot;
    int digits;                      /* fraction digits of times: 6 (microseconds) or 9 */
    uint32_t clocks[IODFG_CLOCK__N]; /* selected cases by clock (known before the first byte) */
    int per_pid;                     /* traces are (case, pid) */
    /* the trace being written */
    uint32_t c;        /* its case */
    int32_t pid;       /* its pid (per_pid) or the pid of its first event */
    uint64_t first_ev; /* its first event */
    int first_item;    /* no element written yet in the current list (JSON commas) */
    /* Perfetto: per trace, the end of the last slice of each track */
    int64_t *lane_end;
    uint32_t *lane_tid;
    size_t nlanes, lanes_cap;
    uint32_t next_tid;
    int64_t meta_case; /* the case whose process was described last, -1 = none */
};

/* Strings of the log and the mapping. */
const char *xchg_str(const struct xchg *x, uint32_t id);
const char *xchg_activity(const struct xchg *x, uint32_t a);
/* The trace's name: the case name, or "case/pid" per pid. Into x->scratch (raw, unescaped). */
const char *xchg_trace_name(struct xchg *x);
/* "G", "R" or "" for case c. */
const char *xchg_group(const struct xchg *x, uint32_t c);
/* The note on the cases' clocks ("" when every written case is on the epoch clock). */
const char *xchg_clock_note(const struct xchg *x);
/* s escaped like TSV (iodfg_sanitize_tsv) into x->esc; valid until the next call. */
const char *xchg_escaped(struct xchg *x, const char *s);
void xchg_add(struct xchg *x, const char *s);

#endif
