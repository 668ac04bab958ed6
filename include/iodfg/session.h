/* SPDX-License-Identifier: MIT */
/* An analysis session: the inputs a person or a command sets over one event log (mapping rules,
 * filter stack, groups G and R, pruning thresholds, case definition) and their results (mapping,
 * DFG, statistics, G/R diff, pruning masks). One rebuild recomputes what the changed inputs
 * need: nothing, the pruning, the diff, an incremental update or a full rebuild. Every front-end
 * (the commands, the terminal UI, the MPI job) sets inputs and reads results through it. */
#ifndef IODFG_SESSION_H
#define IODFG_SESSION_H

#include <stddef.h>
#include <stdint.h>

#include "iodfg/diff.h"

struct iodfg_analysis;
struct iodfg_buf;
struct iodfg_dfg;
struct iodfg_error;
struct iodfg_eventlog;
struct iodfg_filter_result;
struct iodfg_filter_stack;
struct iodfg_mapping;
struct iodfg_rules;
struct iodfg_rules_report;
struct iodfg_selection;
struct iodfg_session;
struct iodfg_stats;
struct iodfg_timeline;

/* A new session over log (borrowed: it must outlive the session and not change) with the
 * default f-hat rules, no filters, no groups and nothing pruned. Nothing is computed until
 * the first iodfg_session_rebuild. NULL with err when out of memory. */
struct iodfg_session *iodfg_session_new(const struct iodfg_eventlog *log, struct iodfg_error *err);
void iodfg_session_free(struct iodfg_session *s);
const struct iodfg_eventlog *iodfg_session_log(const struct iodfg_session *s);

/* ---- inputs (each takes effect at the next rebuild) ---- */

/* The rules and the filter stack, owned by the session and changed in place by the caller
 * (line edits, pushes, pops): the rebuild notices every change. */
struct iodfg_rules *iodfg_session_rules(struct iodfg_session *s);
struct iodfg_filter_stack *iodfg_session_filters(struct iodfg_session *s);
/* Compile a whole rule text (NULL: the default f-hat rules). On error the rules are unchanged
 * and err has where, line and column. */
int iodfg_session_set_rules(struct iodfg_session *s, const char *text, size_t len,
                            const char *where, struct iodfg_error *err);
/* A case is (trace file, pid) instead of the trace file. */
void iodfg_session_set_per_pid(struct iodfg_session *s, int per_pid);
int iodfg_session_per_pid(const struct iodfg_session *s);

/* Groups. A case is in G, in R or in neither. When only one group is given, the other is every
 * other selected case (the same rule for every front-end). */
enum iodfg_group { IODFG_GROUP_NONE = 0, IODFG_GROUP_G = 1, IODFG_GROUP_R = 2 };
/* Put case c into group (NONE takes it out of both). */
void iodfg_session_group_set(struct iodfg_session *s, uint32_t c, enum iodfg_group group);
enum iodfg_group iodfg_session_group_of(const struct iodfg_session *s, uint32_t c);
/* Put every case matching pattern into group: a filter-syntax case predicate ("cid=ssf",
 * "host!=n1") or a bare word, which is a regex on the case name. Returns the number of cases,
 * or -1 with err for a bad pattern. */
long iodfg_session_group_match(struct iodfg_session *s, const char *pattern, enum iodfg_group group,
                               struct iodfg_error *err);
/* Replace both groups by the cases matching the case predicates of g and r (either may be
 * NULL: not given). Overlapping groups are an error naming the shared cases. */
int iodfg_session_set_groups(struct iodfg_session *s, const struct iodfg_filter_stack *g,
                             const struct iodfg_filter_stack *r, struct iodfg_error *err);
/* What iodfg_session_set_groups would find shared, added to ov (filter.h; base: the index of
 * the log's first case in the whole log, for cases without a name). 0, or -1 with err. */
struct iodfg_groups_overlap;
int iodfg_session_groups_overlap(const struct iodfg_session *s, const struct iodfg_filter_stack *g,
                                 const struct iodfg_filter_stack *r, uint32_t base,
                                 struct iodfg_groups_overlap *ov, struct iodfg_error *err);
void iodfg_session_groups_clear(struct iodfg_session *s);
/* With restrict_selection, the DFG and statistics cover only the cases of G and R (the commands'
 * --green/--red); without (the default), every selected case, G and R only being compared. */
void iodfg_session_set_groups_restrict(struct iodfg_session *s, int restrict_selection);

/* Pruning thresholds of the shown graph: the percentage (10..100) of edges kept by count and of
 * activities kept by count (on top of the filters' minedge and top). */
void iodfg_session_set_thresholds(struct iodfg_session *s, int path_pct, int act_pct);
void iodfg_session_thresholds(const struct iodfg_session *s, int *path_pct, int *act_pct);

/* ---- rebuild ---- */

/* What the last rebuild recomputed. */
struct iodfg_session_change {
    int selection; /* filters, case definition or restricted groups: a full rebuild */
    int mapping;   /* rules or call/path filters: activities of some keys changed */
    int groups;    /* the diff was rebuilt */
    int pruning;   /* the masks were recomputed */
};

/* Bring the results up to date with the inputs. On failure the inputs stay as set, err says
 * why, and the results are those of the last successful rebuild (or none). 0 or -1. */
int iodfg_session_rebuild(struct iodfg_session *s, struct iodfg_error *err);
/* Only the first half: filters, groups and rules, so that the mapping, the filter result, the
 * group masks and the selections are up to date, without the DFG and statistics (for commands
 * that compute other measures over the selection). 0 or -1 with err. */
int iodfg_session_prepare(struct iodfg_session *s, struct iodfg_error *err);
/* fn(ctx) runs in each rebuild that is about to recompute results (the inputs changed the
 * selection, the mapping, the groups or the pruning), before it does: a front-end stops there
 * the background work that the new results make stale. NULL: none. */
void iodfg_session_on_recompute(struct iodfg_session *s, void (*fn)(void *ctx), void *ctx);
/* Before the first rebuild: this session is one part of an iodfg-mpi job whose merge sweeps the
 * whole log for the maximum concurrency and finds the percentiles over it (doc/mpi.md), so its
 * builds leave mc, mc_time_ns and the percentiles unset instead of finding them for its part
 * (IODFG_ANALYSIS_NO_SWEEP, IODFG_ANALYSIS_NO_PERCENTILES). */
void iodfg_session_set_job_part(struct iodfg_session *s);
/* 1 once a rebuild has succeeded (the results below exist). */
int iodfg_session_ready(const struct iodfg_session *s);

/* ---- results (borrowed until the next rebuild or free; NULL before the first rebuild) ---- */

const struct iodfg_analysis *iodfg_session_analysis(const struct iodfg_session *s);
const struct iodfg_mapping *iodfg_session_mapping(const struct iodfg_session *s);
const struct iodfg_dfg *iodfg_session_dfg(const struct iodfg_session *s);
const struct iodfg_stats *iodfg_session_stats(const struct iodfg_session *s);
const struct iodfg_rules_report *iodfg_session_rules_report(const struct iodfg_session *s);
/* The activity of every key under the current rules (the log's nkeys entries). */
const uint32_t *iodfg_session_key_activities(const struct iodfg_session *s);
/* The selected events of key k (0 before the first rebuild or when k is out of range). */
uint64_t iodfg_session_key_events(const struct iodfg_session *s, uint32_t k);
/* The selection the DFG and statistics were built over (cases, window, case definition). */
const struct iodfg_selection *iodfg_session_built_selection(const struct iodfg_session *s);
/* The time order of the log's interval boundaries (stats.h), for other sweeps over the log;
 * it lives as long as the session. */
const struct iodfg_timeline *iodfg_session_timeline(const struct iodfg_session *s);
const struct iodfg_filter_result *iodfg_session_filter_result(const struct iodfg_session *s);
/* Name of activity a ("" when out of range). */
const char *iodfg_session_activity_name(const struct iodfg_session *s, uint32_t a);
/* The name of case c (from the log's string pool; "" when out of range). */
const char *iodfg_session_case_name(const struct iodfg_session *s, uint32_t c);

/* The G/R comparison, NULL unless a group is given. */
const struct iodfg_diff *iodfg_session_diff(const struct iodfg_session *s);
/* The side of activity a / edge (from, to) in the comparison (NEITHER without one), and its
 * marker: "G+", "R+", "=" or "". */
enum iodfg_diff_side iodfg_session_activity_side(const struct iodfg_session *s, uint32_t a);
enum iodfg_diff_side iodfg_session_edge_side(const struct iodfg_session *s, uint32_t from,
                                             uint32_t to);
/* Case masks (one byte per case) of the groups as compared: explicit members, or for a group
 * not given, the other selected cases. NULL when there is no comparison. */
const uint8_t *iodfg_session_group_mask(const struct iodfg_session *s, enum iodfg_group group);
/* The selection of the analysis (group NONE) or of one group: cases, window, case definition.
 * The pointers inside live until the next rebuild. 0, or -1 when the group has no mask. */
int iodfg_session_selection(const struct iodfg_session *s, enum iodfg_group group,
                            struct iodfg_selection *sel);

/* Pruning masks: 1 = shown. node_on has nactivities entries, edge_on one per DFG edge slot.
 * iodfg_session_pruned says whether any threshold, minedge or top filter hides something. */
const uint8_t *iodfg_session_node_on(const struct iodfg_session *s);
const uint8_t *iodfg_session_edge_on(const struct iodfg_session *s);
int iodfg_session_pruned(const struct iodfg_session *s);

/* Counts for a status line. */
struct iodfg_session_counts {
    uint64_t events;          /* in the log */
    uint64_t events_selected; /* in the selected cases and window whose key the filters keep */
    uint64_t events_shown;    /* of the activities shown after pruning */
    uint64_t unmapped;        /* selected events whose key the rules map to no activity */
    uint32_t activities;      /* with at least one event */
    uint32_t activities_shown;
    uint32_t cases_selected;
    uint32_t g_cases, r_cases; /* as compared (0 without a comparison) */
    int g_given, r_given;      /* explicit members (else: every other selected case) */
    uint32_t rules_limited;    /* keys whose rule match hit the PCRE2 match limit */
    unsigned long limit_line;  /* the first such rule's line */
    double rebuild_ms;         /* wall time of the last rebuild */
    uint64_t generation;       /* bumped by every successful rebuild that changed something */
    struct iodfg_session_change change;
};
const struct iodfg_session_counts *iodfg_session_counts(const struct iodfg_session *s);

/* ---- a rule edit in two tiers (doc/architecture.md, "One analysis session") ---- */

/* Like iodfg_session_rebuild, but when only the mapping changed since the last rebuild (a rule
 * edit) and the selection, groups and pruning did not, it computes only the first tier, exact
 * from the selection's key sums and key pairs (its cost depends on the keys, not the events),
 * and leaves the full results those of the last rebuild until iodfg_session_rebuild computes the
 * second. Returns 1 when the first tier is pending, 0 when it rebuilt fully instead (nothing is
 * pending), -1 with err (as iodfg_session_rebuild). */
int iodfg_session_rebuild_first(struct iodfg_session *s, struct iodfg_error *err);
/* The first tier's results, exactly those the full rebuild will have: */
struct iodfg_session_first {
    /* per activity: count, dur_n, dur_sum_ns, rd, bytes, dr_n, dr_sum, dr_mean, dur_min_ns and
     * dur_max_ns; cases, mc, mc_time_ns, DR and the percentiles are 0 (pending) */
    const struct iodfg_stats *stats;
    /* when every selected event keeps an activity (a total mapping): the edges' counts and the
     * traces (their cases and gaps 0, pending); NULL when the mapping leaves events out */
    const struct iodfg_dfg *dfg;
    const uint8_t *node_on; /* the pruning's shown activities */
    /* activities, activities_shown, events_selected, events_shown, unmapped, the rules' match
     * limits, the groups' cases and rebuild_ms (of the first tier) */
    struct iodfg_session_counts counts;
};
/* The pending first tier (borrowed until the next rebuild), NULL when none is pending. */
const struct iodfg_session_first *iodfg_session_first(const struct iodfg_session *s);

/* The second tier computed on another thread, so that a front-end stays live meanwhile and a
 * further edit supersedes it (doc/architecture.md, "One analysis session"). */
struct iodfg_session_second;
/* With a first tier pending: its second tier's inputs, copied (the mapping, the selection, the
 * key sums). NULL when none is pending; NULL with err when out of memory. */
struct iodfg_session_second *iodfg_session_second_new(const struct iodfg_session *s,
                                                      struct iodfg_error *err);
/* Compute it, on any thread. It reads only what never changes of the session (the log and its
 * time order), so the session's own thread may read, edit and rebuild the session meanwhile, but
 * not free it. 0 or -1 with err. */
int iodfg_session_second_compute(struct iodfg_session_second *t, struct iodfg_error *err);
/* Wall time of the computation in ms. */
double iodfg_session_second_ms(const struct iodfg_session_second *t);
/* On the session's thread, once computed: when t still belongs to the pending first tier (no
 * rebuild or other edit since), its results become the session's, exactly those
 * iodfg_session_rebuild would make (the diff and the pruning are made here): 1. 0 when t is
 * stale or failed: nothing changes, the last full results stay. -1 with err (as a rebuild). */
int iodfg_session_second_take(struct iodfg_session *s, struct iodfg_session_second *t,
                              struct iodfg_error *err);
void iodfg_session_second_free(struct iodfg_session_second *t);

/* ---- state text, undo and redo ---- */

/* The inputs as text, one item per line: "paths N", "acts N", "perpid 1", "rule TEXT",
 * "filter TEXT", "g CASE", "r CASE" (case names escaped: \\ \n \r). */
int iodfg_session_state_format(const struct iodfg_session *s, struct iodfg_buf *out);
/* A handler of the lines the session does not know (NULL: they are errors): 0 when it took
 * the line, 1 when it does not know it either, -1 with err for a bad value. */
typedef int (*iodfg_session_line_fn)(void *ctx, const char *keyword, const char *arg,
                                     struct iodfg_error *err);
/* Set the inputs from state text (comments '#' and blank lines skipped; "log" lines ignored);
 * the rebuild is the caller's. Nothing changes on error (err has where and line). */
int iodfg_session_state_parse(struct iodfg_session *s, const char *text, size_t len,
                              const char *where, iodfg_session_line_fn other, void *ctx,
                              struct iodfg_error *err);

/* Record the current inputs as a new undo step (nothing when unchanged). 0 or -1 (memory). */
int iodfg_session_record(struct iodfg_session *s);
/* Step the inputs back / forward to the recorded state and rebuild. 0, 1 when there is
 * nothing to undo / redo, or -1 with err (the inputs are then as before the call). */
int iodfg_session_undo(struct iodfg_session *s, struct iodfg_error *err);
int iodfg_session_redo(struct iodfg_session *s, struct iodfg_error *err);

/* After a rebuild: take g and st (the DFG and statistics of a whole MPI job, of which this
 * session's log holds some cases; merged with iodfg/partial.h) as the results, leaving the
 * previous ones in g and st for the caller to free, and prune them anew. With groups, groups
 * holds the job's group results (g_dfg, g_stats, r_dfg, r_stats: what iodfg_diff_compare
 * reads) and group_cases the job's case counts of G and R; they are taken likewise (swapped)
 * and compared anew. Without groups both are NULL. 0, or -1 with err. */
int iodfg_session_adopt(struct iodfg_session *s, struct iodfg_dfg *g, struct iodfg_stats *st,
                        struct iodfg_diff *groups, const uint32_t *group_cases,
                        struct iodfg_error *err);

/* ---- over the whole log (with a job, every part's: session_job.h) ---- */

/* Cases among case_on (NULL: every case) that use each clock, into n[IODFG_CLOCK__N]; how many
 * clocks are used. */
int iodfg_session_clocks(const struct iodfg_session *s, const uint8_t *case_on, uint32_t *n);
/* Cases among case_on (NULL: every case). */
uint32_t iodfg_session_case_total(const struct iodfg_session *s, const uint8_t *case_on);
/* The characterisation of sel (characterize.h) under the session's mapping, with the stair-case
 * sweep on a second thread. 0, or -1 with err. */
struct iodfg_bin_opts;
struct iodfg_characterization;
int iodfg_session_characterize(const struct iodfg_session *s, const struct iodfg_selection *sel,
                               const struct iodfg_bin_opts *o, int64_t alignment,
                               struct iodfg_characterization *r, struct iodfg_error *err);

/* Bytes held by the session and its analysis, the log excluded. */
size_t iodfg_session_memory(const struct iodfg_session *s);

/* ---- focus: the application's own I/O first (doc/rules.md, "Focus") ---- */

struct iodfg_focus;
struct iodfg_focus_classes;

/* IODFG_FOCUS_ALL: every key keeps the activity its rule gives (the paper's f-hat by default).
 * IODFG_FOCUS_APP: the keys of each runtime class (focus.h) are folded into one activity
 * "runtime:CLASS" with their exact totals, so that nothing vanishes and the DFG keeps its
 * edges; the application's keep theirs. A new session has IODFG_FOCUS_ALL. */
enum iodfg_focus_mode { IODFG_FOCUS_ALL = 0, IODFG_FOCUS_APP = 1 };
/* Takes effect at the next rebuild, as an incremental update (only the folded keys change). */
void iodfg_session_set_focus(struct iodfg_session *s, enum iodfg_focus_mode mode);
enum iodfg_focus_mode iodfg_session_focus(const struct iodfg_session *s);
/* The class rules (text NULL: the built-in focus.rules; where names them in errors). On error
 * the rules in force stay and err has where, line and column. 0 or -1. */
int iodfg_session_set_focus_rules(struct iodfg_session *s, const char *text, size_t len,
                                  const char *where, struct iodfg_error *err);
/* The class rules in force (compiled on first use: NULL with err when that fails). */
const struct iodfg_focus *iodfg_session_focus_rules(struct iodfg_session *s,
                                                    struct iodfg_error *err);
/* Classify the log's keys now (done by every prepare with IODFG_FOCUS_APP), for readers of the
 * classes under IODFG_FOCUS_ALL. 0 or -1 with err. */
int iodfg_session_classify(struct iodfg_session *s, struct iodfg_error *err);
/* The classes of the keys, NULL until classified. Borrowed until the next prepare. */
const struct iodfg_focus_classes *iodfg_session_focus_classes(const struct iodfg_session *s);
/* The mapping the rules give, before any folding: the activity ids and names of
 * iodfg_session_mapping (the same names), each key's activity as its rule made it. Insights
 * judge and name their evidence by it. Borrowed until the next prepare. */
const struct iodfg_mapping *iodfg_session_rules_mapping(const struct iodfg_session *s);
/* The class of activity a of iodfg_session_mapping: that of a folded activity, else the
 * application's when one of its keys is (else the class of its first key); 0 (the application)
 * for every activity while the keys are not classified. */
uint32_t iodfg_session_activity_class(const struct iodfg_session *s, uint32_t a);
/* The activity whose events include those of activity a of the rules' mapping as shown: a
 * itself, or the runtime class activity it is folded into (focus app, all its keys runtime). */
uint32_t iodfg_session_fold_activity(const struct iodfg_session *s, uint32_t a);
/* What folding hides, for a status line (zeros under IODFG_FOCUS_ALL). */
struct iodfg_session_focus_counts {
    uint64_t events_folded;     /* selected events now in a runtime class activity */
    uint32_t keys_folded;       /* keys folded */
    uint32_t activities_folded; /* activities of the rules with events that are all folded */
    uint32_t classes_shown;     /* runtime class activities with events */
};
const struct iodfg_session_focus_counts *iodfg_session_focus_counts(const struct iodfg_session *s);

/* ---- G/R comparison per case ---- */

/* A shared activity or edge is marked changed (IODFG_DIFF_CHANGED) when its count, time or
 * bytes per case differ by this ratio or more (> 1; IODFG_DIFF_CHANGED_RATIO by default; "changed
 * R" in the state text when another). Takes effect at the next rebuild. */
void iodfg_session_set_changed_ratio(struct iodfg_session *s, double ratio);
double iodfg_session_changed_ratio(const struct iodfg_session *s);

#endif
