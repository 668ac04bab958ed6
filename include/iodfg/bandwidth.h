/* SPDX-License-Identifier: MIT */
/* Wright et al. 2013 (RIOT): perceived vs effective bandwidth, time shares per call and activity
 * (overall and per case, with a stacked-bar renderer) and a serialisation (stair-case) index. */
#ifndef IODFG_BANDWIDTH_H
#define IODFG_BANDWIDTH_H

#include <stddef.h>
#include <stdint.h>

struct iodfg_buf;
struct iodfg_cancel;
struct iodfg_error;
struct iodfg_eventlog;
struct iodfg_mapping;
struct iodfg_selection;
struct iodfg_timeline;

/* One row: a set of selected events (an activity, a call, a direction, a case...).
 * perceived = bytes / (last_end - first_start); effective = bytes / dur_sum (RIOT: "as if
 * performed serially"); both in bytes per second, NAN when their denominator is 0.
 * share = dur_sum / the scope's total dur_sum (time share; NAN when that is 0). */
struct iodfg_bw_row {
    uint64_t count;            /* events */
    uint32_t cases;            /* cases with at least one event */
    int64_t bytes;             /* Σ size over known sizes */
    int64_t dur_sum_ns;        /* Σ dur over known durations */
    int64_t first_ns, last_ns; /* first start and last end (start + dur); 0 when count = 0 */
    double perceived, effective, share;
};

/* perceived, effective and share of a row whose sums are set; total_dur: the scope's dur sum. */
void iodfg_bw_row_finish(struct iodfg_bw_row *r, int64_t total_dur);

/* Overall rows: reads, writes (by call, see metrics.h) and every selected event. */
enum { IODFG_BW_READ = 0, IODFG_BW_WRITE, IODFG_BW_ALL, IODFG_BW__N };

struct iodfg_bandwidth {
    uint32_t nactivities;
    struct iodfg_bw_row *act; /* per activity id of the mapping */
    uint32_t ncalls;
    uint32_t *call_name;       /* per call: string id in the log's pool */
    struct iodfg_bw_row *call; /* per call */
    struct iodfg_bw_row overall[IODFG_BW__N];
    uint32_t ncases;               /* cases of the log */
    struct iodfg_bw_row *case_row; /* [case * IODFG_BW__N + group], shares within the case */
    int64_t *case_call_dur;        /* [case * ncalls + call]: Σ dur, the per-case time shares */
    int64_t *case_act_dur;         /* [case * nactivities + activity] */
};

void iodfg_bandwidth_init(struct iodfg_bandwidth *bw);
void iodfg_bandwidth_fini(struct iodfg_bandwidth *bw);
/* Compute every row over the selected events (cases, window, mapped keys). Calls are numbered
 * by first appearance in key order. 0 or -1 with err (out of memory, missing columns). */
int iodfg_bandwidth_build(struct iodfg_bandwidth *bw, const struct iodfg_eventlog *log,
                          const struct iodfg_mapping *map, const struct iodfg_selection *sel,
                          struct iodfg_error *err);

/* Serialisation (stair-case, Wright et al. 2013 Fig. 9) per activity, over the events with dur > 0.
 * In each busy period of an activity (time with >= 1 of its calls in flight, across cases),
 * take its calls in completion order; a call i completing after call i-1 was queued for
 * q_i = max(0, e_{i-1} - s_i) before that completion and served v_i = e_i - max(s_i, e_{i-1})
 * after it. stair = Σ min(q_i, v_i) / busy time: 0 for calls that run side by side or one
 * after another, (k-1)/k for k calls issued together that complete one after another at a
 * regular pace. */
struct iodfg_serial_row {
    int64_t busy_ns;      /* union of the activity's call intervals */
    int64_t staggered_ns; /* Σ min(q_i, v_i) */
    uint64_t queued;      /* calls with q_i > 0 and v_i > 0 */
    double stair;         /* staggered_ns / busy_ns, 0 when busy_ns = 0 */
};
struct iodfg_serial {
    uint32_t nactivities;
    struct iodfg_serial_row *act;
};
void iodfg_serial_init(struct iodfg_serial *s);
void iodfg_serial_fini(struct iodfg_serial *s);
/* Compute over the selected events. tl is the log's timeline (stats.h), or NULL to build one
 * here. 0 or -1 with err (IODFG_E_CANCELLED when cancel was set: cancel.h). */
int iodfg_serial_build(struct iodfg_serial *s, const struct iodfg_eventlog *log,
                       const struct iodfg_mapping *map, const struct iodfg_selection *sel,
                       const struct iodfg_timeline *tl, const struct iodfg_cancel *cancel,
                       struct iodfg_error *err);

/* ---- stacked time-share bars ---- */

/* Split width cells among n values in proportion (largest remainders; a nonzero value gets at
 * least one cell when there is room); seg[x] = index of the value owning cell x, or -1 where
 * every value is 0. Returns the number of cells filled (width, or 0). */
int iodfg_share_cells(const int64_t *v, size_t n, int width, int16_t *seg);
/* Append a bar of width characters: cell x shows glyphs[seg[x] % strlen(glyphs)], ' ' when
 * empty. -1 when out of memory. */
int iodfg_share_bar(struct iodfg_buf *out, const int64_t *v, size_t n, int width,
                    const char *glyphs);

#endif
