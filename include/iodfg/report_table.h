/* SPDX-License-Identifier: MIT */
/* The reports as text tables, for people (report.h says what each shows): human units, the
 * program's symbols in the chosen form (glyph.h), names sanitised and cut by table.h's width
 * rule. Each writes into b; 0, or -1 with err (out of memory). */
#ifndef IODFG_REPORT_TABLE_H
#define IODFG_REPORT_TABLE_H

#include <stddef.h>

#include "iodfg/report.h"

struct iodfg_binned;
struct iodfg_buf;
struct iodfg_error;

/* With groups, the groups' predicates and the markers' legend; the activities ("N of M, by
 * COLUMN"), and with edges the transitions likewise. */
int iodfg_report_table_analysis(struct iodfg_buf *b, const struct iodfg_report_analysis *a,
                                struct iodfg_error *err);
/* Per selection: its cases and events, the time bins' metrics with two charts and the servers,
 * the activities' bandwidths and stair-case index, the access patterns, the request sizes. */
int iodfg_report_table_charz(struct iodfg_buf *b, const struct iodfg_report_charz *g, int ng,
                             const struct iodfg_report_charz_opts *o, struct iodfg_error *err);
/* The time bins of server-side counters: their file (path) and samples, then as above. */
int iodfg_report_table_counters(struct iodfg_buf *b, const char *path, size_t nsamples,
                                const struct iodfg_binned *bn, int width, struct iodfg_error *err);
int iodfg_report_table_bandwidth(struct iodfg_buf *b, const struct iodfg_report_bandwidth *r,
                                 struct iodfg_error *err);
int iodfg_report_table_insights(struct iodfg_buf *b, const struct iodfg_report_insights *r,
                                struct iodfg_error *err);
int iodfg_report_table_info(struct iodfg_buf *b, const struct iodfg_report_info *r,
                            struct iodfg_error *err);
int iodfg_report_table_handles(struct iodfg_buf *b, const struct iodfg_report_handles *r,
                               struct iodfg_error *err);

#endif
