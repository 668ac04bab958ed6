/* SPDX-License-Identifier: MIT */
/* Incremental analysis: an event log + mapping + selection and their current DFG and statistics,
 * updated in place when rules change (only the touched cases and activities are recomputed). */
#ifndef IODFG_ANALYSIS_H
#define IODFG_ANALYSIS_H

#include <stddef.h>
#include <stdint.h>

struct iodfg_dfg;
struct iodfg_error;
struct iodfg_eventlog;
struct iodfg_mapping;
struct iodfg_selection;
struct iodfg_stats;
struct iodfg_timeline;
struct iodfg_analysis;

/* What the last build or update recomputed. */
struct iodfg_analysis_info {
    int full;                  /* 1 after a full rebuild */
    uint32_t keys_changed;     /* keys whose activity changed */
    uint64_t cases_recounted;  /* cases whose traces were recounted */
    uint32_t activities_dirty; /* activities whose statistics were recomputed */
    size_t edges_dirty;        /* edges whose gap medians were recomputed */
};

/* What an analysis may leave out (iodfg_analysis_new_with). */
enum iodfg_analysis_flags {
    /* One part of an iodfg-mpi job whose merge sweeps the whole log for the maximum concurrency
     * (doc/mpi.md): full builds leave mc and mc_time_ns unset instead of sweeping this part. */
    IODFG_ANALYSIS_NO_SWEEP = 1u << 0,
    /* A part of such a job whose merge finds the nearest-rank percentiles over the whole job:
     * full builds leave the durations' median and p95 and the gaps' medians unset, and keep no
     * histograms for later updates (the part is built once). */
    IODFG_ANALYSIS_NO_PERCENTILES = 1u << 1,
};

/* Index log (borrowed: it must outlive the analysis and not change) and build the DFG and
 * statistics of map over sel (both copied). NULL with err when out of memory or when the log
 * lacks the start/key columns or holds 2^32 events or more. */
struct iodfg_analysis *iodfg_analysis_new(const struct iodfg_eventlog *log,
                                          const struct iodfg_mapping *map,
                                          const struct iodfg_selection *sel,
                                          struct iodfg_error *err);
/* The same with flags (enum iodfg_analysis_flags; 0: iodfg_analysis_new). */
struct iodfg_analysis *iodfg_analysis_new_with(const struct iodfg_eventlog *log,
                                               const struct iodfg_mapping *map,
                                               const struct iodfg_selection *sel, unsigned flags,
                                               struct iodfg_error *err);
void iodfg_analysis_free(struct iodfg_analysis *an);

/* Switch to map (same key count; activity ids stable, nactivities may grow). changed lists the
 * keys whose activity may differ (NULL: compare every key). Recounts only the cases holding
 * those keys and recomputes only the statistics of activities whose event set changed; the
 * result equals a full rebuild bit for bit. 0, or -1 with err (state then rebuilt in full or,
 * when even that fails, the previous results remain). */
int iodfg_analysis_update(struct iodfg_analysis *an, const struct iodfg_mapping *map,
                          const uint32_t *changed, size_t nchanged, struct iodfg_error *err);
/* New selection (cases, window, per_pid): a full rebuild, unless it is the previous selection
 * under the mapping its results were made with (a filter undone or redone): those results are
 * taken back. 0 or -1 with err. */
int iodfg_analysis_set_selection(struct iodfg_analysis *an, const struct iodfg_selection *sel,
                                 struct iodfg_error *err);
/* Full rebuild with map. 0 or -1 with err. */
int iodfg_analysis_rebuild(struct iodfg_analysis *an, const struct iodfg_mapping *map,
                           struct iodfg_error *err);

/* New mapping and selection at once: one full rebuild (or the previous selection's results
 * taken back, as iodfg_analysis_set_selection). 0 or -1 with err. */
int iodfg_analysis_reset(struct iodfg_analysis *an, const struct iodfg_mapping *map,
                         const struct iodfg_selection *sel, struct iodfg_error *err);

/* Selected events (cases and window) whose key is k, whatever its activity. */
/* Take g and st (the DFG and statistics of a whole MPI job, of which this analysis saw some
 * cases) as the results, leaving the previous ones in g and st for the caller to free. The
 * next update rebuilds from the log. */
void iodfg_analysis_adopt(struct iodfg_analysis *an, struct iodfg_dfg *g, struct iodfg_stats *st);
uint64_t iodfg_analysis_key_events(const struct iodfg_analysis *an, uint32_t k);

/* Results, borrowed until the next update/rebuild or free. */
const struct iodfg_dfg *iodfg_analysis_dfg(const struct iodfg_analysis *an);
const struct iodfg_stats *iodfg_analysis_stats(const struct iodfg_analysis *an);
const struct iodfg_selection *iodfg_analysis_selection(const struct iodfg_analysis *an);
const struct iodfg_analysis_info *iodfg_analysis_last(const struct iodfg_analysis *an);
const struct iodfg_eventlog *iodfg_analysis_log(const struct iodfg_analysis *an);
/* The time order of the log's interval boundaries that the analysis built (see stats.h), for
 * other sweeps over the same log (borrowed until free; it never changes). */
const struct iodfg_timeline *iodfg_analysis_timeline(const struct iodfg_analysis *an);
/* The current activity of every key (nkeys entries). */
const uint32_t *iodfg_analysis_activities(const struct iodfg_analysis *an);

/* Compute, without changing the analysis, the DFG and statistics of the current mapping over
 * another selection into g and st (initialised by the caller; replaced). 0 or -1 with err. */
int iodfg_analysis_compute(const struct iodfg_analysis *an, const struct iodfg_selection *sel,
                           struct iodfg_dfg *g, struct iodfg_stats *st, struct iodfg_error *err);

/* Bytes held by the analysis (indexes, results), the log excluded. */
size_t iodfg_analysis_memory(const struct iodfg_analysis *an);

#endif
