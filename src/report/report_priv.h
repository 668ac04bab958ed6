/* SPDX-License-Identifier: MIT */
/* What the report writers share inside the report layer. */
#ifndef IODFG_REPORT_PRIV_H
#define IODFG_REPORT_PRIV_H

#include <stdint.h>

struct iodfg_session;

/* Per activity: the scope, file-system type and mount point its file keys share ("mixed" when
 * they differ, "" when none is classified); strings borrowed from the session's log. The
 * mapping's nactivities entries (malloc'd: free), or NULL when out of memory. */
struct report_fs {
    const char *scope, *fstype, *fs;
};
struct report_fs *report_activity_fs(const struct iodfg_session *s);

/* The end of a writer: 0, or -1 with err when the buffer ran out of memory. */
struct iodfg_buf;
struct iodfg_error;
int report_done(const struct iodfg_buf *b, struct iodfg_error *err);

/* The dir names of access and time-bin reports: "read", "write". */
extern const char *const report_dir_name[2];
/* The prefixes of a comparison's columns: "g_", "r_", "diff_", "rel_". */
extern const char *const report_group_prefix[4];

/* The El Sayed et al. metrics of one direction in report order, with their keys. */
#define REPORT_NMETRIC 12
extern const char *const report_metric_keys[REPORT_NMETRIC];
struct iodfg_dir_metrics;
void report_metric_values(const struct iodfg_dir_metrics *d, double *v);
/* 100 * part / whole, 0 when whole is 0. */
double report_pct(uint64_t part, uint64_t whole);
/* The name of case c of log. */
struct iodfg_eventlog;
const char *report_case_name(const struct iodfg_eventlog *log, uint32_t c);
/* Per case of the bandwidth reports: the read, write and all rows' names. */
extern const char *const report_bw_group_name[3];
/* The rows of one selection's bandwidths as TSV and JSON list them, each to row(ctx, kind, name,
 * r): by activity, call or case (a case's read, write and all rows, named "CASE (read)", then
 * its time shares per call, "CASE CALL"), then the overall rows. */
struct iodfg_bw_row;
struct iodfg_bandwidth;
struct iodfg_report_bandwidth;
typedef void (*report_bw_row_fn)(void *ctx, const char *kind, const char *name,
                                 const struct iodfg_bw_row *r);
void report_bw_rows(const struct iodfg_report_bandwidth *r, const struct iodfg_bandwidth *bw,
                    report_bw_row_fn row, void *ctx);

/* Server s of the time bins: the bytes it read and wrote (n) and its highest rates (most). */
struct iodfg_binned;
void report_server_sums(const struct iodfg_binned *bn, uint32_t s, double n[2], double most[2]);

#endif
