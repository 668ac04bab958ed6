/* SPDX-License-Identifier: MIT */
/* Per-activity I/O statistics (Sankaran et al. 2024, section IV-B): rd, b, dr̄, mc, DR and duration
 * spread. */
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

#endif
