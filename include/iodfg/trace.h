/* SPDX-License-Identifier: MIT */
/* Traces of the selected events: the event range of a case in a selection, and a walk over the
 * transitions of a case's trace (or of one trace per pid), for the DFG, its statistics and the
 * views that list a case's events. */
#ifndef IODFG_TRACE_H
#define IODFG_TRACE_H

#include <stdint.h>

struct iodfg_error;
struct iodfg_eventlog;
struct iodfg_selection;

/* The selected event range [*lo, *hi) of case c (the window is contiguous because a case is
 * sorted by start). Returns 0 when the case is off or has no event in the window. */
int iodfg_trace_case_range(const struct iodfg_eventlog *log, const struct iodfg_selection *sel,
                           uint32_t c, uint64_t *lo, uint64_t *hi);

/* Visitor of the transitions of one trace: from/to node ids (dfg.h: activities, ● and ■), gap
 * (only when has_gap), a trace number unique within one iodfg_trace_walk_case call, and the
 * event index of `to` (UINT64_MAX for ■). The transitions of one trace come together, in trace
 * order. Return 0, or -1 to stop. */
typedef int (*iodfg_transition_fn)(void *ctx, uint32_t from, uint32_t to, int has_gap,
                                   int64_t gap_ns, uint32_t trace, uint64_t ev);

/* Walk the traces of events [lo, hi) of one case: one trace, or one per pid with per_pid.
 * act[key] gives the activity (IODFG_NO_ACTIVITY: the event vanishes). Calls fn for every
 * transition (●→first, a→b, last→■) and returns the number of non-empty traces, or -1 when
 * fn failed or memory ran out (err set). An empty trace adds nothing (no ●→■ edge). The gap of
 * a→b is the start of b minus the end of a (an unknown duration counts as 0). */
long iodfg_trace_walk_case(const struct iodfg_eventlog *log, const uint32_t *act, uint64_t lo,
                           uint64_t hi, int per_pid, iodfg_transition_fn fn, void *ctx,
                           struct iodfg_error *err);

#endif
