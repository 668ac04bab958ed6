/* SPDX-License-Identifier: MIT */
/* The reports as JSON, for tools (report.h says what each shows): exact values in base units,
 * null for unknown ones, names escaped and whole. Each writes one document ending in a line
 * break into b; 0, or -1 with err (out of memory). */
#ifndef IODFG_REPORT_JSON_H
#define IODFG_REPORT_JSON_H

#include "iodfg/report.h"

struct iodfg_binned;
struct iodfg_buf;
struct iodfg_error;

/* The engine's DFG and statistics (export.h) with each activity's file systems, the comparison
 * of G and R (with groups) and the rules' match-limit count. */
int iodfg_report_json_analysis(struct iodfg_buf *b, const struct iodfg_report_analysis *a,
                               struct iodfg_error *err);
/* Per selection (ng of them): the time bins and the activities' bandwidths and access patterns. */
int iodfg_report_json_charz(struct iodfg_buf *b, const struct iodfg_report_charz *g, int ng,
                            const struct iodfg_report_charz_opts *o, struct iodfg_error *err);
/* Time bins alone (server-side counters). */
int iodfg_report_json_bins(struct iodfg_buf *b, const struct iodfg_binned *bn,
                           struct iodfg_error *err);
int iodfg_report_json_bandwidth(struct iodfg_buf *b, const struct iodfg_report_bandwidth *r,
                                struct iodfg_error *err);
int iodfg_report_json_insights(struct iodfg_buf *b, const struct iodfg_report_insights *r,
                               struct iodfg_error *err);
int iodfg_report_json_info(struct iodfg_buf *b, const struct iodfg_report_info *r,
                           struct iodfg_error *err);
int iodfg_report_json_handles(struct iodfg_buf *b, const struct iodfg_report_handles *r,
                              struct iodfg_error *err);

#endif
