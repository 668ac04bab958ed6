/* SPDX-License-Identifier: MIT */
/* The time order of a log's interval boundaries, shared by every exact sweep line over it
 * (maximum concurrency, serialisation, bandwidth over time). */
#ifndef IODFG_TIMELINE_H
#define IODFG_TIMELINE_H

#include <stdint.h>

struct iodfg_error;
struct iodfg_eventlog;

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
/* The same, a clock's merge cut in two halves merged on two threads from split_points points
 * on (iodfg_timeline_build: from 2^18; tests use small values). */
int iodfg_timeline_build_split(struct iodfg_timeline *tl, const struct iodfg_eventlog *log,
                               uint64_t split_points, struct iodfg_error *err);
void iodfg_timeline_fini(struct iodfg_timeline *tl);

#endif
