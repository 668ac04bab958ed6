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

#endif
