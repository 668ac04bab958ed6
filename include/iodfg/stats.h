/* SPDX-License-Identifier: MIT */
/* Per-activity I/O statistics (seed 001, section IV-B): rd, b, dr̄, mc, DR and duration spread. */
#ifndef IODFG_STATS_H
#define IODFG_STATS_H

#include <stddef.h>
#include <stdint.h>

struct iodfg_dfg;
struct iodfg_error;
struct iodfg_eventlog;
struct iodfg_mapping;
struct iodfg_selection;

/* Statistics of one activity over the selected events.
 * - dur_sum_ns (Eq. 7) and rd (Eq. 8): events with an unknown dur add 0 but are counted.
 * - bytes (Eq. 9): events with an unknown size add 0.
 * - dr_mean (Eq. 11-13): mean of size*1e9/dur (bytes per second) over the events with
 *   dur > 0 and a known size; dr_n of them; 0 when dr_n = 0.
 * - mc: exact maximum number of events of the activity active at once, over half-open intervals
 *   [start, start+dur) across all selected cases; an interval ending at t and one starting at t
 *   do not overlap; events with dur 0 or unknown have empty intervals and never count.
 *   mc_time_ns: the earliest start at which mc is reached (IODFG_UNKNOWN when mc = 0).
 * - DR = mc * dr_mean (Eq. 17).
 * - dur_min/median/p95/max over the events with a known dur (IODFG_UNKNOWN when none). The
 *   percentiles use the nearest-rank method on the exact values: the p-th percentile of n sorted
 *   values is the one at 1-based rank ceil(p/100 * n); the median is thus the lower median. */
struct iodfg_activity_stats {
    uint64_t count, cases; /* events; traces (cases, or (file, pid) with per_pid) containing it */
    uint64_t dur_n;        /* events with a known dur */
    int64_t dur_sum_ns;
    double rd;
    int64_t bytes;
    uint64_t dr_n;
    double dr_sum; /* sum of the per-event rates, summed per key then over keys in id order */
    double dr_mean;
    uint32_t mc;
    int64_t mc_time_ns;
    double DR;
    int64_t dur_min_ns, dur_median_ns, dur_p95_ns, dur_max_ns;
};

struct iodfg_stats {
    uint32_t nactivities;
    struct iodfg_activity_stats *act; /* nactivities entries */
    int64_t total_dur_ns;             /* denominator of rd */
};

void iodfg_stats_init(struct iodfg_stats *st);
void iodfg_stats_fini(struct iodfg_stats *st);
/* Resize to n activities, zeroing new entries. 0 or -1 (out of memory). */
int iodfg_stats_resize(struct iodfg_stats *st, uint32_t n, struct iodfg_error *err);
int iodfg_stats_copy(struct iodfg_stats *dst, const struct iodfg_stats *src,
                     struct iodfg_error *err);

/* One-shot full computation of the statistics of the selected events (builds a timeline of the
 * log on the way, so prefer struct iodfg_analysis for repeated work). 0 or -1 with err. */
int iodfg_stats_build(struct iodfg_stats *st, const struct iodfg_eventlog *log,
                      const struct iodfg_mapping *map, const struct iodfg_selection *sel,
                      struct iodfg_error *err);

/* The nearest-rank percentile (pct in 1..100) of the n values at v (reordered in place). */
int64_t iodfg_stats_percentile(int64_t *v, size_t n, unsigned pct);

/* ---- building blocks used by the incremental engine ---- */

/* The time order of a log's interval boundaries for sweep lines: for every event with a known
 * dur > 0, its start point (entry e | IODFG_PT_START) and end point (entry e), ordered by time,
 * ends before starts at equal times, then by entry. Built once per log by merging the cases. */
#define IODFG_PT_START 0x80000000u
struct iodfg_timeline {
    uint64_t n;    /* events of the log (< 2^31) */
    uint64_t npts; /* points (2 per event with dur > 0) */
    uint32_t *pts;
};
int iodfg_timeline_build(struct iodfg_timeline *tl, const struct iodfg_eventlog *log,
                         struct iodfg_error *err);
void iodfg_timeline_fini(struct iodfg_timeline *tl);

/* Bitmap (one bit per event, (n+63)/64 words) of the selected events. */
int iodfg_stats_select_bits(uint64_t *bits, const struct iodfg_eventlog *log,
                            const struct iodfg_selection *sel);

/* Per-key sums of the selected events: the decomposable part of the statistics. */
struct iodfg_key_sums {
    uint64_t count, dur_n, dr_n;
    int64_t dur_sum_ns, bytes, dur_min_ns, dur_max_ns;
    double dr_sum;
};
/* Fill sums[nkeys] from the selected events (bits as from iodfg_stats_select_bits). */
void iodfg_stats_key_sums(struct iodfg_key_sums *sums, uint32_t nkeys,
                          const struct iodfg_eventlog *log, const uint64_t *bits);
/* Recompute count, dur_n, dur_sum_ns, bytes, dr_*, min/max of the activities flagged in dirty
 * (NULL = all) from the key sums, keys in id order; then rd of every activity and DR. */
void iodfg_stats_aggregate(struct iodfg_stats *st, const struct iodfg_key_sums *sums,
                           const uint32_t *act, uint32_t nkeys, const uint8_t *dirty);
/* Per event activity codes for fast sweeps: the activity of the event, IODFG_CODE_OFF for events
 * outside the selection, IODFG_CODE_NONE for selected events mapped to no activity. Usable while
 * nactivities <= IODFG_CODE_MAX_ACT. */
#define IODFG_CODE_OFF 0x7fffu
#define IODFG_CODE_NONE 0x7ffeu
#define IODFG_CODE_MAX_ACT 0x7ffeu
/* Recompute mc and mc_time_ns of the flagged activities (NULL = all) with one exact sweep over
 * tl. codes (tl->n entries, one per event, or NULL to look activities up per point) is rebuilt
 * from bits and act when rebuild_codes; otherwise it holds the previous mapping's codes, and the
 * events flagged in moved (a bitmap, used when src is not NULL) are recoded to act. src
 * (nactivities + 1 flags: the old activities of the moved events, src[nactivities] for unmapped
 * ones) only enables the recoding. nthreads (1 or 2) splits the sweep in time segments combined
 * exactly. 0 or -1 with err (out of memory). */
int iodfg_stats_sweep(struct iodfg_stats *st, const struct iodfg_eventlog *log,
                      const struct iodfg_timeline *tl, uint16_t *codes, int rebuild_codes,
                      const uint64_t *bits, const uint32_t *act, const uint8_t *dirty,
                      const uint64_t *moved, const uint8_t *src, int nthreads,
                      struct iodfg_error *err);
/* Recompute cases, dur_median_ns and dur_p95_ns of the flagged activities (NULL = all;
 * act_dirty_none: no activity) and gap_median_ns of the flagged edges of g (NULL = all,
 * g NULL = none) with one walk over the listed cases (NULL = all; they must hold every event of
 * those activities and every occurrence of those edges), plus a second walk when a large group
 * needs its exact value within a histogram bucket. Percentiles are exact (nearest rank).
 * dur_n of the activities and gap_n of the edges must be current. 0 or -1 with err. */
int iodfg_stats_scan(struct iodfg_stats *st, struct iodfg_dfg *g, const struct iodfg_eventlog *log,
                     const uint32_t *act, const struct iodfg_selection *sel, const uint32_t *cases,
                     size_t ncases, const uint8_t *dirty, int act_dirty_none,
                     const uint8_t *edge_dirty, struct iodfg_error *err);
/* DR and rd of every activity from the current sums (called by aggregate and sweep). */
void iodfg_stats_finish(struct iodfg_stats *st);

#endif
