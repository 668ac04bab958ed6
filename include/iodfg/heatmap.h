/* SPDX-License-Identifier: MIT */
/* The heatmap: rows (cases, hosts, cids or activities) by time bins, each cell holding the bytes
 * moved, the busy time and the calls of the selected events, with honest edges (a call is split
 * by time, its bytes spread over its duration, sums exact: doc/metrics.md, "Heatmap"). Rows
 * aggregate k per displayed row when there are more than fit; G and R are two bands. */
#ifndef IODFG_HEATMAP_H
#define IODFG_HEATMAP_H

#include <stddef.h>
#include <stdint.h>

#include "iodfg/eventlog.h"

struct iodfg_buf;
struct iodfg_error;
struct iodfg_picture_meta;
struct iodfg_picture_input;
struct iodfg_strpool;

/* What a row is. */
enum iodfg_heatmap_by {
    IODFG_HEATMAP_CASE = 0,
    IODFG_HEATMAP_HOST,
    IODFG_HEATMAP_CID,
    IODFG_HEATMAP_ACTIVITY,
    IODFG_HEATMAP__NBY
};
const char *iodfg_heatmap_by_name(enum iodfg_heatmap_by by);
/* 0 and *by for "case", "host", "cid" or "activity"; -1 otherwise. */
int iodfg_heatmap_by_parse(const char *s, enum iodfg_heatmap_by *by);

/* What a cell's shade shows. */
enum iodfg_heatmap_metric { IODFG_HM_BYTES = 0, IODFG_HM_BUSY, IODFG_HM_CALLS, IODFG_HM__N };
const char *iodfg_heatmap_metric_name(enum iodfg_heatmap_metric m);
int iodfg_heatmap_metric_parse(const char *s, enum iodfg_heatmap_metric *m);

struct iodfg_heatmap_opts {
    enum iodfg_heatmap_by by;
    int64_t from_ns, to_ns; /* the window [from, to); from >= to: the span of the counted events */
    uint32_t nbins;         /* columns (0: 100) */
    uint32_t max_rows;      /* displayed rows at most (0: no limit); beyond, k rows per row */
};

/* A source row: one case, host, cid or activity of one band. */
struct iodfg_heatmap_src {
    uint32_t id;   /* case index, string id of the log's pool (host, cid), or activity */
    uint32_t name; /* string id in iodfg_heatmap.names */
    uint8_t band;  /* 0 = G (or the only band), 1 = R */
};

/* A displayed row: the source rows [first, first + count), all of one band. */
struct iodfg_heatmap_row {
    uint32_t first, count;
    uint8_t band;
    int64_t bytes, busy_ns; /* the row's sums over its bins */
    uint64_t calls;
    uint32_t peak; /* the highest peak of its bins (0 without peaks) */
};

struct iodfg_heatmap {
    enum iodfg_heatmap_by by;
    int64_t from_ns, to_ns;           /* the window (on the clock below) */
    int64_t span_from_ns, span_to_ns; /* the counted events' whole span: first start, last end */
    uint32_t nbins;
    int64_t *edge; /* nbins + 1 bin edges: bin i is [edge[i], edge[i+1]); widths differ <= 1 ns */
    uint32_t nsrc, nrows, per_row; /* source rows, displayed rows, source rows per displayed row */
    uint32_t nbands, band_rows[2]; /* displayed rows of each band (G's first) */
    struct iodfg_heatmap_src *src;
    struct iodfg_heatmap_row *row;
    /* cells [row * nbins + bin] */
    int64_t *bytes;   /* bytes moved: each call's bytes spread over its duration (exact sums) */
    int64_t *busy_ns; /* time inside the calls (the overlap of each call with the bin) */
    uint64_t *calls;  /* calls that start in the bin */
    uint32_t *peak;   /* with a timeline: the most calls in flight at once; else NULL */
    int64_t max_cell[IODFG_HM__N]; /* the largest cell of each metric (0 when none) */
    /* totals over the window, and what the window leaves out */
    int64_t bytes_total, busy_total_ns;
    uint64_t calls_total;
    uint64_t events;         /* counted events (in and out of the window) */
    uint64_t events_outside; /* counted events that do not touch the window */
    uint64_t zero_dur;       /* counted events of duration 0 or unknown (all in their start bin) */
    /* the time axis: the cases of one clock (the one most counted cases use) */
    enum iodfg_clock clock;
    uint32_t clock_dropped;      /* selected cases of other clocks: not shown */
    uint32_t outside_groups;     /* selected cases in neither G nor R (two bands only) */
    struct iodfg_strpool *names; /* row names (copies) */
};

void iodfg_heatmap_init(struct iodfg_heatmap *hm);
void iodfg_heatmap_fini(struct iodfg_heatmap *hm);
/* Build the heatmap of in with o (replacing hm's contents). 0, or -1 with err (out of memory;
 * IODFG_E_LIMIT past 2^28 cells; IODFG_E_ARG for a log without the start, dur, size or key
 * column or a mapping of another log). */
int iodfg_heatmap_build(struct iodfg_heatmap *hm, const struct iodfg_picture_input *in,
                        const struct iodfg_heatmap_opts *o, struct iodfg_error *err);

/* The value of a cell for a metric (bytes, busy ns, calls). */
int64_t iodfg_heatmap_cell(const struct iodfg_heatmap *hm, uint32_t row, uint32_t bin,
                           enum iodfg_heatmap_metric m);
/* Name of source row i (borrowed from hm). */
const char *iodfg_heatmap_src_name(const struct iodfg_heatmap *hm, uint32_t i);
/* A displayed row's label into out: its name, or for k > 1 source rows "FIRST .. LAST (k)" with
 * what LAST shares with FIRST left out up to a word's start ("r_n1_18297 .. 18302 (4)"). */
int iodfg_heatmap_row_label(const struct iodfg_heatmap *hm, uint32_t row, struct iodfg_buf *out);
/* The bin holding time t, or -1 outside the window. */
long iodfg_heatmap_bin_of(const struct iodfg_heatmap *hm, int64_t t);

/* The same numbers as text, per displayed row and bin: TSV (a header line, then one line per
 * cell: row, band, members, bin, from_ns, to_ns, bytes, busy_ns, calls, peak) and JSON (one
 * object: meta, window, edges, rows with their arrays). 0, or -1 when out of memory. */
int iodfg_heatmap_tsv(struct iodfg_buf *out, const struct iodfg_heatmap *hm);
int iodfg_heatmap_json(struct iodfg_buf *out, const struct iodfg_heatmap *hm,
                       const struct iodfg_picture_meta *meta);

/* floor(a * b / c) for 0 <= a, 0 <= b <= c, 0 < c, exact (a 128-bit product): the share of a
 * call's bytes a moved in the first b ns of its c ns. */
int64_t iodfg_heatmap_share(int64_t a, int64_t b, int64_t c);

#endif
