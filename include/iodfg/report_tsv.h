/* SPDX-License-Identifier: MIT */
/* The reports as TSV, for tools (report.h says what each shows): a header row per table, exact
 * values in base units, names escaped (iodfg_sanitize_tsv) and whole. Each writes into b; 0, or
 * -1 with err (out of memory). */
#ifndef IODFG_REPORT_TSV_H
#define IODFG_REPORT_TSV_H

#include "iodfg/report.h"

struct iodfg_binned;
struct iodfg_buf;
struct iodfg_error;

/* The activities (with groups: the side and per-group columns; then the file systems), then,
 * with edges, a blank line and the transitions likewise. */
int iodfg_report_tsv_analysis(struct iodfg_buf *b, const struct iodfg_report_analysis *a,
                              struct iodfg_error *err);
/* Per selection: its group, the time bins, the activities' bandwidths, the access patterns per
 * activity and per (case, file), and the request sizes. */
int iodfg_report_tsv_charz(struct iodfg_buf *b, const struct iodfg_report_charz *g, int ng,
                           const struct iodfg_report_charz_opts *o, struct iodfg_error *err);
/* Time bins alone (server-side counters). */
int iodfg_report_tsv_bins(struct iodfg_buf *b, const struct iodfg_binned *bn,
                          struct iodfg_error *err);
int iodfg_report_tsv_bandwidth(struct iodfg_buf *b, const struct iodfg_report_bandwidth *r,
                               struct iodfg_error *err);
int iodfg_report_tsv_insights(struct iodfg_buf *b, const struct iodfg_report_insights *r,
                              struct iodfg_error *err);
int iodfg_report_tsv_handles(struct iodfg_buf *b, const struct iodfg_report_handles *r,
                             struct iodfg_error *err);

#endif
