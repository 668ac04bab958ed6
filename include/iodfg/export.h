/* SPDX-License-Identifier: MIT */
/* Exports of a DFG and its statistics: DOT (statistics or partition colouring), TSV, JSON,
 * plus sorting and top-N of the activity and transition tables. */
#ifndef IODFG_EXPORT_H
#define IODFG_EXPORT_H

#include <stddef.h>
#include <stdint.h>

struct iodfg_buf;
struct iodfg_dfg;
struct iodfg_diff;
struct iodfg_error;
struct iodfg_mapping;
struct iodfg_stats;

/* Columns of the activity table (TSV/JSON names in iodfg_export_act_col_name). */
enum iodfg_act_col {
    IODFG_AC_NAME,
    IODFG_AC_COUNT,
    IODFG_AC_CASES,
    IODFG_AC_DUR_SUM,
    IODFG_AC_RD,
    IODFG_AC_BYTES,
    IODFG_AC_DR_MEAN,
    IODFG_AC_MC,
    IODFG_AC_DR,
    IODFG_AC_DUR_MIN,
    IODFG_AC_DUR_MEDIAN,
    IODFG_AC_DUR_P95,
    IODFG_AC_DUR_MAX,
    IODFG_AC__N,
};
/* Columns of the transition table. */
enum iodfg_edge_col {
    IODFG_EC_FROM,
    IODFG_EC_TO,
    IODFG_EC_COUNT,
    IODFG_EC_CASES,
    IODFG_EC_GAP_MEAN,
    IODFG_EC_GAP_MEDIAN,
    IODFG_EC__N,
};
const char *iodfg_export_act_col_name(enum iodfg_act_col c);
const char *iodfg_export_edge_col_name(enum iodfg_edge_col c);
/* Column by name (as above), -1 when unknown. */
int iodfg_export_act_col_find(const char *name);
int iodfg_export_edge_col_find(const char *name);

/* Ids of the activities with events sorted by column col (descending when desc; names compare
 * bytewise; ties by id), at most top of them (0 = all), into out (nactivities entries).
 * Returns how many. */
size_t iodfg_export_sort_activities(const struct iodfg_stats *st, const struct iodfg_mapping *map,
                                    enum iodfg_act_col col, int desc, size_t top, uint32_t *out);
/* Slots of the present edges sorted likewise (out: g->nedges entries). ● sorts first, ■ last
 * by name. */
size_t iodfg_export_sort_edges(const struct iodfg_dfg *g, const struct iodfg_mapping *map,
                               enum iodfg_edge_col col, int desc, size_t top, uint32_t *out);

/* Node name: the activity's name, "●" or "■". Borrowed from map. */
const char *iodfg_export_node_name(const struct iodfg_mapping *map, uint32_t node, size_t *len);

/* Statistic that shades the nodes in blue (Sankaran et al. 2024 IV-C 1); NONE leaves them white. */
enum iodfg_shade {
    IODFG_SHADE_RD,
    IODFG_SHADE_BYTES,
    IODFG_SHADE_COUNT,
    IODFG_SHADE_MC,
    IODFG_SHADE_DR,
    IODFG_SHADE_NONE
};
/* Palette of the partition colouring: green/red, or blue/orange for colour-blind readers. */
enum iodfg_palette { IODFG_PALETTE_GREEN_RED, IODFG_PALETTE_BLUE_ORANGE };

struct iodfg_dot_options {
    const char *comment;    /* caller text (rules, filters) put in // lines at the top; NULL */
    enum iodfg_shade shade; /* statistics colouring (ignored when diff is set) */
    const struct iodfg_diff *diff; /* partition colouring of G/R when non-NULL */
    enum iodfg_palette palette;
    const uint8_t *node_on; /* pruning masks from iodfg_dfg_prune; NULL = everything */
    const uint8_t *edge_on;
};
void iodfg_dot_options_init(struct iodfg_dot_options *o);

/* DOT of g with node labels in the paper's form: name, "Load: rd (b)", "DR: mc × dr̄", and
 * edge counts. With a diff, G-only nodes/edges are green ("G" marker), R-only red ("R").
 * Every text is escaped, so any name yields a valid file. 0, or -1 with err (out of memory). */
int iodfg_export_dot(struct iodfg_buf *b, const struct iodfg_dfg *g, const struct iodfg_stats *st,
                     const struct iodfg_mapping *map, const struct iodfg_dot_options *opt,
                     struct iodfg_error *err);

/* TSV with a header row, exact values in base units (bytes, ns, bytes/s, fractions); unknown
 * values are empty fields. Rows in the given order (n ids / slots from the sort functions). */
int iodfg_export_tsv_activities(struct iodfg_buf *b, const struct iodfg_stats *st,
                                const struct iodfg_mapping *map, const uint32_t *order, size_t n,
                                struct iodfg_error *err);
int iodfg_export_tsv_edges(struct iodfg_buf *b, const struct iodfg_dfg *g,
                           const struct iodfg_mapping *map, const uint32_t *order, size_t n,
                           struct iodfg_error *err);
/* One JSON object {"comment", "total_dur_ns", "traces", "activities": [...], "transitions":
 * [...]} with the same fields as the TSV (unknown values null). */
int iodfg_export_json(struct iodfg_buf *b, const struct iodfg_dfg *g, const struct iodfg_stats *st,
                      const struct iodfg_mapping *map, const uint32_t *act_order, size_t nact,
                      const uint32_t *edge_order, size_t nedge, const char *comment,
                      struct iodfg_error *err);
/* Its members alone, into the object open in j (for reports that add members of their own). */
struct iodfg_json;
void iodfg_export_json_members(struct iodfg_json *j, const struct iodfg_dfg *g,
                               const struct iodfg_stats *st, const struct iodfg_mapping *map,
                               const uint32_t *act_order, size_t nact,
                               const uint32_t *edge_order, size_t nedge, const char *comment);

#endif
