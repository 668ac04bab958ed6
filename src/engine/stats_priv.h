/* SPDX-License-Identifier: MIT */
/* Engine-internal statistics API shared by stats_*.c, dfg.c and analysis.c: the concurrency sweep
 * as a job that several threads can share, kept histograms, the fused recount and scan. */
#ifndef IODFG_ENGINE_STATS_PRIV_H
#define IODFG_ENGINE_STATS_PRIV_H

#include <stdint.h>

#include "iodfg/eventlog.h"
#include "iodfg/forkjoin.h"
#include "iodfg/mapping.h"
#include "iodfg/stats.h"
#include "iodfg/timeline.h"

#include "keysums.h"

struct iodfg_dfg;
struct iodfg_error;
struct iodfg_eventlog;
struct iodfg_selection;
struct iodfg_stats;
struct iodfg_timeline;
struct iodfg_sweep;

/* ---- the statistics walk, sweep and sums (used by the incremental analysis) ---- */

/* Reset every activity's statistics to none (unknown minima, maxima and percentiles). */
void iodfg_stats_reset(struct iodfg_stats *st);

/* Bitmap (one bit per event, (n+63)/64 words) of the selected events. */
int iodfg_stats_select_bits(uint64_t *bits, const struct iodfg_eventlog *log,
                            const struct iodfg_selection *sel);

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

/* The activity a code stands for: IODFG_NO_ACTIVITY for IODFG_CODE_OFF and IODFG_CODE_NONE. */
static inline uint32_t iodfg_code_activity(uint16_t code)
{
    return code < IODFG_CODE_NONE ? code : IODFG_NO_ACTIVITY;
}
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

/* Recompute gap_median_ns of the edges of g flagged in edge_dirty (NULL = all) by walking the
 * listed cases (NULL = every case; they must hold every occurrence of those edges). */
int iodfg_stats_edge_medians(struct iodfg_dfg *g, const struct iodfg_eventlog *log,
                             const uint32_t *act, const struct iodfg_selection *sel,
                             const uint32_t *cases, size_t ncases, const uint8_t *edge_dirty,
                             struct iodfg_error *err);

/* Percentile groups with at least this many values are found through a histogram and a second
 * pass (default 65536; tests lower it to exercise that path). */
extern uint64_t iodfg_pctl_large;
/* The statistics walk splits its cases over two threads when they hold at least this many events
 * (default 16384; tests lower it to exercise the split on small logs). */
extern uint64_t iodfg_scan_split_min;
/* Where a second worker starts over the listed cases (NULL: all nc cases): about half of their
 * events, or nc (one worker) when they hold fewer than iodfg_scan_split_min. */
uint32_t iodfg_scan_split(const struct iodfg_eventlog *log, const uint32_t *cases, uint32_t nc);
/* The statistics walk finds edges in a dense table up to this many activities (default 512),
 * in the DFG's hash index above. */
extern uint32_t iodfg_scan_dense_max;

/* The buckets of the percentile histograms: 64 per power of two (exact below 64), for magnitudes
 * 0..2^64-1 of either sign; iodfg_pbucket maps int64 values to 0..IODFG_PB_N-1, monotone. */
#define IODFG_PB_MAG (59 * 64)
#define IODFG_PB_N (2 * IODFG_PB_MAG)
static inline uint32_t iodfg_pb_mag(uint64_t u)
{
    if (u < 64) {
        return (uint32_t)u;
    }
    // the leading bit e and the next six: u >> (e - 6) is 64 + those six bits
    unsigned e = 63u - (unsigned)__builtin_clzll(u);
    return ((e - 6) << 6) + (uint32_t)(u >> (e - 6));
}
static inline uint32_t iodfg_pbucket(int64_t v)
{
    return v >= 0 ? IODFG_PB_MAG + iodfg_pb_mag((uint64_t)v)
                  : IODFG_PB_MAG - 1 - iodfg_pb_mag((uint64_t)(-(v + 1)));
}

/* Prepare the sweep of iodfg_stats_sweep (same arguments, borrowed until iodfg_sweep_free).
 * NULL with err when out of memory. */
struct iodfg_sweep *iodfg_sweep_new(const struct iodfg_stats *st, const struct iodfg_eventlog *log,
                                    const struct iodfg_timeline *tl, uint16_t *codes,
                                    int rebuild_codes, const uint64_t *bits, const uint32_t *act,
                                    const uint8_t *dirty, const uint64_t *moved, const uint8_t *src,
                                    struct iodfg_error *err);
/* Per key k of the log, the timeline points its events hold: within [span[2k], span[2k+1])
 * (empty: UINT64_MAX, 0). Malloc'd; NULL with err when out of memory. */
uint64_t *iodfg_sweep_key_spans(const struct iodfg_timeline *tl, const struct iodfg_eventlog *log,
                                struct iodfg_error *err);
/* Before any work: a sweep of dirty activities (else nothing changes) covers only the points
 * between the first and the last one of their keys under its act (span of
 * iodfg_sweep_key_spans): the others hold none of theirs, so the results are the same. */
void iodfg_sweep_limit(struct iodfg_sweep *sw, const uint64_t *span, uint32_t nkeys);
/* Sweep time segments until none is left; any number of threads may call this at once (the
 * first one updates the codes first; one arriving meanwhile returns at once, leaving the work to
 * the others, so that the last caller must be one that does not return before the end: join the
 * other threads after calling this). */
void iodfg_sweep_work(struct iodfg_sweep *sw);
/* Update the codes now, on the calling thread, before any thread works on the sweep (then the
 * codes are complete for readers beside the sweep). */
void iodfg_sweep_recode_now(struct iodfg_sweep *sw);
/* After every worker returned: combine the segments into mc and mc_time_ns of st. */
void iodfg_sweep_end(struct iodfg_sweep *sw, struct iodfg_stats *st);
void iodfg_sweep_free(struct iodfg_sweep *sw);
/* The sweep on a second thread while the calling one walks the traces; finishing helps with the
 * segments left. */
struct iodfg_sweep_job {
    struct iodfg_sweep *sw;
    struct iodfg_fork helper;
};
/* Start sw (NULL: -1, nothing started). 0 or -1. */
int iodfg_sweep_job_start(struct iodfg_sweep_job *j, struct iodfg_sweep *sw);
/* Finish the sweep here and wait for the thread; results into st (then sw is freed). */
void iodfg_sweep_job_finish(struct iodfg_sweep_job *j, struct iodfg_stats *st);

/* Histograms of large percentile groups (activity durations, edge gaps by edge slot) kept
 * between scans, so that a later scan of such a group needs no counting pass. A kept histogram
 * must count exactly the group's current values: scans check the total and drop stale ones. */
struct iodfg_hstore {
    uint32_t nact;   /* entries of act */
    uint32_t **act;  /* per activity: histogram or NULL */
    size_t nedge;    /* entries of edge */
    uint32_t **edge; /* per edge slot: histogram or NULL */
    size_t count;    /* histograms held */
};
void iodfg_hstore_init(struct iodfg_hstore *hs);
void iodfg_hstore_fini(struct iodfg_hstore *hs);
/* Drop every histogram (after a full rebuild or a new selection), or those of edges (when the
 * edge slots are made anew). */
void iodfg_hstore_clear(struct iodfg_hstore *hs);
void iodfg_hstore_clear_edges(struct iodfg_hstore *hs);
size_t iodfg_hstore_memory(const struct iodfg_hstore *hs);
/* Activity a (edge 0) or edge slot i (edge 1): the kept histogram if it counts exactly n > 0
 * values, else NULL (a stale one is dropped); borrowed until the next change of hs. */
uint32_t *iodfg_hstore_kept(struct iodfg_hstore *hs, int edge, size_t i, uint64_t n);
/* Keep a copy of h (IODFG_PB_N counts) for entry i; out of memory: nothing kept. */
void iodfg_hstore_put(struct iodfg_hstore *hs, int edge, size_t i, const uint32_t *h);
/* Keep *h for entry i, taking ownership (freed when it cannot be kept); *h becomes NULL. */
void iodfg_hstore_take(struct iodfg_hstore *hs, int edge, size_t i, uint32_t **h);
/* Move the values of the listed cases from the old mapping to the new one in the kept
 * histograms: their traces under old_act are taken out, those under new_act put in (edge slots
 * of g, which must hold every edge of both). 0 or -1 with err (the histograms are then stale). */
int iodfg_hstore_move(struct iodfg_hstore *hs, struct iodfg_dfg *g,
                      const struct iodfg_eventlog *log, const uint32_t *old_act,
                      const uint32_t *new_act, const struct iodfg_selection *sel,
                      const uint32_t *cases, size_t ncases, struct iodfg_error *err);
/* Count the DFG of every selected case (one trace per case: not for per-pid traces) into g
 * (cleared, nactivities set; every slot made is flagged touched), on two threads when the log
 * is large enough, and keep in hs (NULL: none) the exact histograms of the durations of the
 * activities flagged in dirty (NULL = all) whose dur_n in st is at least iodfg_pctl_large, and
 * of the gaps of the edges with at least that many, counted in the same walk. Gap sums, not
 * means or medians. codes (NULL: none; only while g->nactivities <= IODFG_CODE_MAX_ACT) gets
 * the code of every selected event on the way (those of the others are left as they are).
 * 0 or -1 with err (out of memory; g is then half counted). */
int iodfg_dfg_count_hist(struct iodfg_dfg *g, const struct iodfg_eventlog *log, const uint32_t *act,
                         const struct iodfg_selection *sel, const struct iodfg_stats *st,
                         const uint8_t *dirty, struct iodfg_hstore *hs, uint16_t *codes,
                         struct iodfg_error *err);
/* iodfg_dfg_count_hist: edge histograms one worker allocates at most (default 256; tests lower
 * it to exercise the edges left to the statistics walk). */
extern uint32_t iodfg_count_hist_max;
/* The fused full count (one trace per case): iodfg_dfg_count_hist into g (cleared, nactivities
 * set) that also fills sums (nkeys entries of the log; exactly what iodfg_stats_key_sums gives for
 * the selection; NULL: the caller knows them), writes the code of every event to codes (NULL: none;
 * IODFG_CODE_OFF outside the selection) and keeps in hs (NULL: none) the histograms of the
 * activities with at least iodfg_pctl_large durations (counted for every activity while
 * g->nactivities is at most iodfg_count_full_act_max; above, the statistics walk counts them) and
 * of the large edges. 0 or -1 with err (out of memory; g, sums and codes are then half made). */
int iodfg_dfg_count_full(struct iodfg_dfg *g, const struct iodfg_eventlog *log, const uint32_t *act,
                         const struct iodfg_selection *sel, struct iodfg_hstore *hs,
                         uint16_t *codes, struct iodfg_key_sums *sums, struct iodfg_error *err);
/* Full computations of the analysis with one trace per case use iodfg_dfg_count_full (default
 * 1; tests set 0 to compare with the older walk, which per-pid cases always take). */
extern int iodfg_analysis_fused_full;
/* iodfg_dfg_count_full: activity histograms are counted up to this many activities (default
 * 128; tests lower it to exercise the walk without them). */
extern uint32_t iodfg_count_full_act_max;
/* iodfg_stats_scan using and filling the kept histograms of hs (NULL: none). codes (NULL: none)
 * holds the activity code of every selected event under act (complete: no thread writes it),
 * read instead of act[key] when there is a DFG of at most IODFG_CODE_MAX_ACT activities. */
int iodfg_stats_scan_kept(struct iodfg_stats *st, struct iodfg_dfg *g,
                          const struct iodfg_eventlog *log, const uint32_t *act,
                          const struct iodfg_selection *sel, const uint32_t *cases, size_t ncases,
                          const uint8_t *dirty, int act_dirty_none, const uint8_t *edge_dirty,
                          struct iodfg_hstore *hs, const uint16_t *codes, struct iodfg_error *err);
/* Only the traces holding each activity into st->act[a].cases, as iodfg_stats_scan_kept counts
 * them in a full build (codes as there; NULL: act[key]). 0, or -1 with err (memory). */
int iodfg_stats_count_cases(struct iodfg_stats *st, const struct iodfg_eventlog *log,
                            const uint32_t *act, const struct iodfg_selection *sel,
                            const uint16_t *codes, struct iodfg_error *err);
/* iodfg_stats_scan_kept where, in listed case k (cases not NULL), every event taking a value
 * (its duration, or the gap from the event with an activity before it) lies in [span[2k],
 * span[2k+1]) or is the event with an activity just after it: the fast walk reads only those
 * (span NULL: whole cases). */
int iodfg_stats_scan_spans(struct iodfg_stats *st, struct iodfg_dfg *g,
                           const struct iodfg_eventlog *log, const uint32_t *act,
                           const struct iodfg_selection *sel, const uint32_t *cases, size_t ncases,
                           const uint64_t *span, const uint8_t *dirty, int act_dirty_none,
                           const uint8_t *edge_dirty, struct iodfg_hstore *hs,
                           const uint16_t *codes, struct iodfg_error *err);

/* The stair-case sweep (serial.c) of one activity: one boundary of one of its intervals [s, t)
 * after the other, in the timeline's order, into its row r. */
struct iodfg_serial_row;
struct iodfg_serial_state {
    uint32_t inflight;
    int has_prev;
    int64_t prev_end, busy_start;
};
void iodfg_serial_step(struct iodfg_serial_row *r, struct iodfg_serial_state *x, int start,
                       int64_t s, int64_t t);

#endif
