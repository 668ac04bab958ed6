/* SPDX-License-Identifier: MIT */
/* G/R comparison (Sankaran et al. 2024, section IV-C): partition colouring plus side-by-side
 * statistics. */
#ifndef IODFG_DIFF_H
#define IODFG_DIFF_H

#include <stddef.h>
#include <stdint.h>

#include "iodfg/dfg.h"
#include "iodfg/stats.h"

struct iodfg_analysis;
struct iodfg_error;

/* Where a node or edge occurs: only in G's DFG (green), only in R's (red), in both (plain), or
 * in neither (present in the whole log's DFG only, e.g. from cases in no group). CHANGED is in
 * both with numbers per case (count, time or bytes; iodfg_diff_changed) that differ by the
 * changed ratio or more: the partition colouring treats it as both (plain). */
enum iodfg_diff_side {
    IODFG_DIFF_NEITHER = 0,
    IODFG_DIFF_G_ONLY = 1,
    IODFG_DIFF_R_ONLY = 2,
    IODFG_DIFF_BOTH = 3,
    IODFG_DIFF_CHANGED = 4,
};
/* "neither" "green" "red" "both" "changed" */
const char *iodfg_diff_side_name(enum iodfg_diff_side side);
/* The marker column of tables: "" (neither), "G+", "R+", "=", "!=" (changed). */
const char *iodfg_diff_side_mark(enum iodfg_diff_side side);
/* 1 for BOTH and CHANGED: present in both groups' DFGs. */
int iodfg_diff_side_in_both(enum iodfg_diff_side side);

/* The default changed ratio: a shared activity or edge whose count, time or bytes per case on
 * one side is 1.5 times the other's or more is changed (doc/insights.md, "Comparing two
 * groups"). */
#define IODFG_DIFF_CHANGED_RATIO 1.5
/* Whether two per-case numbers differ by ratio or more (one zero and the other not: they
 * do). */
int iodfg_diff_changed(double g, double r, double ratio);

/* Compared quantities; the difference is R - G, relative to G ((R - G) / G; NAN when G = 0). */
enum iodfg_diff_metric {
    IODFG_DM_COUNT,
    IODFG_DM_CASES,
    IODFG_DM_DUR_SUM,  /* ns */
    IODFG_DM_DUR_MEAN, /* ns: dur_sum / dur_n */
    IODFG_DM_BYTES,
    IODFG_DM__N,
};
const char *iodfg_diff_metric_name(enum iodfg_diff_metric m);

struct iodfg_diff_node {
    uint32_t activity;
    enum iodfg_diff_side side;
    double g[IODFG_DM__N], r[IODFG_DM__N];
    double abs[IODFG_DM__N], rel[IODFG_DM__N];
    /* per case of each group (g_traces, r_traces): count, dur_sum and bytes divided by the
     * group's cases, cases as a share of them, dur_mean as it is; ratio = r_pc / g_pc (NAN
     * when g_pc is 0) */
    double g_pc[IODFG_DM__N], r_pc[IODFG_DM__N], ratio[IODFG_DM__N];
};

struct iodfg_diff_edge {
    uint32_t from, to;
    enum iodfg_diff_side side;
    uint64_t g_count, r_count, g_cases, r_cases;
    double g_gap_mean_ns, r_gap_mean_ns;
    double count_abs, count_rel;   /* R - G and (R - G) / G (NAN when G = 0) */
    double g_per_case, r_per_case; /* count per case of each group */
};

struct iodfg_diff {
    uint32_t nactivities;
    struct iodfg_diff_node *nodes; /* nactivities entries, by activity id */
    struct iodfg_diff_edge *edges; /* union of the edges of G, R and the whole selection */
    size_t nedges;
    struct iodfg_dfg *g_dfg, *r_dfg; /* the group DFGs (NULL until iodfg_diff_groups_alloc) */
    struct iodfg_stats g_stats, r_stats;
    uint64_t g_traces, r_traces; /* cases of each group with selected events */
    double changed_ratio;        /* IODFG_DIFF_CHANGED_RATIO unless set (kept by _build) */
};

void iodfg_diff_init(struct iodfg_diff *d);
void iodfg_diff_fini(struct iodfg_diff *d);
/* Empty group DFGs g_dfg and r_dfg where they are NULL. 0, or -1 with err (out of memory). */
int iodfg_diff_groups_alloc(struct iodfg_diff *d, struct iodfg_error *err);

/* Compare the cases flagged in g_on and r_on (one byte per case of the analysed log), each
 * combined with the analysis' time window and case definition; the whole DFG is the analysis'
 * current one. Overlapping groups are an error (IODFG_E_ARG naming the first shared case).
 * 0, or -1 with err. */
int iodfg_diff_build(struct iodfg_diff *d, const struct iodfg_analysis *an, const uint8_t *g_on,
                     const uint8_t *r_on, struct iodfg_error *err);
/* The comparison (nodes, edges) of the group results already in d (g_dfg, g_stats, r_dfg,
 * r_stats: those of iodfg_diff_build, or of a whole MPI job) against the analysis' DFG and
 * statistics. Reads of the group statistics only count, cases, dur_n, dur_sum_ns and bytes.
 * 0, or -1 with err. */
int iodfg_diff_compare(struct iodfg_diff *d, const struct iodfg_analysis *an,
                       struct iodfg_error *err);
/* The compared edge (from, to), or NULL. */
const struct iodfg_diff_edge *iodfg_diff_find_edge(const struct iodfg_diff *d, uint32_t from,
                                                   uint32_t to);

/* ---- the story: what differs between G and R, per case, ranked by the time it explains ---- */

struct iodfg_session;

/* An activity of iodfg_session_mapping in one group only or changed (ACTIVITY), or a call that
 * replaces another between the groups (VARIANT: G's activity and R's move data the same way,
 * read, write, seek or open, at the same place, the top two directories of their files, and
 * each is in its group only; lseek + write against pwrite64). */
enum iodfg_story_kind { IODFG_STORY_ACTIVITY = 0, IODFG_STORY_VARIANT = 1 };
/* The numbers of a row, per case of its group. */
enum iodfg_story_metric { IODFG_STORY_COUNT, IODFG_STORY_TIME, IODFG_STORY_BYTES, IODFG_STORY__N };
#define IODFG_STORY_TEXT 640

struct iodfg_diff_story_row {
    enum iodfg_story_kind kind;
    enum iodfg_diff_side side; /* G_ONLY, R_ONLY or CHANGED (VARIANT rows: CHANGED) */
    uint32_t g_act, r_act;     /* each side's activity; IODFG_NO_ACTIVITY for none */
    uint32_t fclass;           /* the focus class of its activities (0: the application's) */
    double g[IODFG_STORY__N], r[IODFG_STORY__N]; /* per case: calls, time (ns), bytes */
    double ratio[IODFG_STORY__N];                /* r / g, NAN when g is 0 */
    uint32_t g_cases, r_cases;                   /* cases of each group with events of the row */
    double explained_ns;         /* time per case the row explains: |R - G| when in both, the
                                  * one side's time when in one, both sides' for a variant */
    int band;                    /* 2: explained >= 25% of the larger group's call time per case,
                                  * 1: >= 5%, 0: less */
    char text[IODFG_STORY_TEXT]; /* one line saying what differs, how much and where; it holds
                                  * paths and case names: sanitise before showing */
};

struct iodfg_diff_story {
    struct iodfg_diff_story_row *rows; /* ranked: band, then (focus app) the application's rows
                                        * before the runtime's, then the time explained */
    size_t n;
    uint64_t g_cases, r_cases;   /* cases of each group with selected events */
    double g_time_ns, r_time_ns; /* call time per case of each group */
};
void iodfg_diff_story_init(struct iodfg_diff_story *st);
void iodfg_diff_story_fini(struct iodfg_diff_story *st);
/* The story of the groups of a prepared session (iodfg_session_prepare) over its mapping, with
 * its changed ratio and focus; cases are trace files. -1 with err when the session has no
 * groups or out of memory. */
int iodfg_diff_story_build(struct iodfg_diff_story *st, const struct iodfg_session *s,
                           struct iodfg_error *err);

#endif
