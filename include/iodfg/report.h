/* SPDX-License-Identifier: MIT */
/* The reports of the commands, shared by iodfg and iodfg-mpi: what they show of an analysis, a
 * characterisation, the bandwidths, the insights, an event log and its handles. Each format has
 * one writer: report_table.h (for people), report_tsv.h and report_json.h (for tools); they write
 * into a buffer and never print. Untrusted text goes through the sanitiser (tables are cut by
 * table.h's width rule; TSV and JSON keep values whole). */
#ifndef IODFG_REPORT_H
#define IODFG_REPORT_H

#include <stddef.h>
#include <stdint.h>

#include "iodfg/eventlog.h"
#include "iodfg/handles.h"
#include "iodfg/metrics.h"

struct iodfg_bandwidth;
struct iodfg_characterization;
struct iodfg_filter_stack;
struct iodfg_insight_change;
struct iodfg_insights;
struct iodfg_mapping;
struct iodfg_session;

/* ---- an analysis: the DFG and statistics of a session (stats, dfg) ---- */

struct iodfg_report_analysis {
    const struct iodfg_session *ses; /* the results, read through its accessors */
    const uint32_t *act;             /* activity ids in the order shown */
    size_t nact, total_act;          /* shown, and with events ("N of M" in tables) */
    const uint32_t *edges;           /* edge slots in order; NULL: no transitions */
    size_t nedges, total_edges;
    int groups;          /* --green/--red given: the comparison's columns */
    const char *comment; /* the command, rules, filters and groups (JSON) */
    /* tables: the sort columns (enum iodfg_act_col, iodfg_edge_col), whether reversed, and the
     * groups' predicates (NULL: every other case) */
    int act_col, edge_col, reversed;
    const struct iodfg_filter_stack *green, *red;
};
/* The activities with events, shown after the session's pruning, sorted by an enum
 * iodfg_act_col (descending when desc), at most top of them (0 = all), into *out (malloc'd;
 * the caller frees). How many, or -1 when out of memory. */
long iodfg_report_activities(const struct iodfg_session *s, int col, int desc, size_t top,
                             uint32_t **out);
/* The same for the present edges (slots of the session's DFG) by an enum iodfg_edge_col. */
long iodfg_report_edges(const struct iodfg_session *s, int col, int desc, size_t top,
                        uint32_t **out);

/* ---- characterisation (characterize) ---- */

/* One selection's characterisation as reported: "all", or group "G" or "R". */
struct iodfg_report_charz {
    const char *group;
    uint32_t cases; /* selected cases (of the whole log, under a job) */
    const struct iodfg_characterization *r;
};
struct iodfg_report_charz_opts {
    const struct iodfg_eventlog *log; /* names of cases and files */
    const struct iodfg_mapping *map;  /* names of activities */
    enum iodfg_server_by by;          /* what a server is */
    int width;                        /* chart width in columns (tables) */
    int per_file;                     /* tables: the per-(case, file) access rows too */
};

/* ---- bandwidths (bandwidth) ---- */

enum iodfg_report_bw_by {
    IODFG_REPORT_BW_ACTIVITY = 0,
    IODFG_REPORT_BW_CALL,
    IODFG_REPORT_BW_CASE
};
const char *iodfg_report_bw_by_name(enum iodfg_report_bw_by by);
struct iodfg_report_bandwidth {
    const struct iodfg_eventlog *log;
    const struct iodfg_mapping *map;
    const struct iodfg_bandwidth *bw[2]; /* the selection, or G and R */
    int ngroups;
    enum iodfg_report_bw_by by;
    int width; /* of the time-share bars (tables) */
};

/* ---- insights ---- */

struct iodfg_report_insights {
    const struct iodfg_eventlog *log; /* names of cases */
    const struct iodfg_mapping *map;
    const struct iodfg_insights *ins[2]; /* the selection, or G and R */
    int ngroups;
    const struct iodfg_insight_change *changes; /* with two groups: what differs */
    size_t nchanges;
};

/* ---- an event log (info) and its handles (handles) ---- */

struct iodfg_report_call {
    uint32_t call; /* string id */
    uint64_t n;
};
/* What an event log holds, for info. */
struct iodfg_log_summary {
    uint64_t events, no_dur;
    uint32_t ncalls, npaths;
    struct iodfg_report_call *calls; /* by count, descending */
    uint64_t counts[IODFG_COUNT__N];
    int64_t first[IODFG_CLOCK__N], last[IODFG_CLOCK__N]; /* per clock: earliest start, latest end */
    int have[IODFG_CLOCK__N];
    uint64_t by_scope[IODFG_SCOPE__N]; /* keys of file paths by scope */
};
/* 0, or -1 when out of memory. Release with iodfg_log_summary_fini. */
int iodfg_log_summary_build(struct iodfg_log_summary *s, const struct iodfg_eventlog *log);
void iodfg_log_summary_fini(struct iodfg_log_summary *s);
struct iodfg_report_info {
    const char *source; /* what was read: a path, or "(several inputs)" */
    const struct iodfg_eventlog *log;
    const struct iodfg_log_summary *s;
    /* tables: cases listed (0 = all), calls named, which mount table classified the files, and
     * the first unparsable line of the traces read ("" when none) */
    unsigned max_cases, top;
    const char *mounts, *first_problem;
};

struct iodfg_report_handles {
    const struct iodfg_eventlog *log;
    const uint32_t *ids; /* the handles shown, by id */
    uint32_t n;
    const struct iodfg_handle_summary *sum;
};

/* ---- pieces of text ---- */

/* A start time in its clock's natural form ("05:39:01.699598", "2024-... UTC", "+1.5 s"). */
void iodfg_report_time(char *buf, size_t size, enum iodfg_clock clock, int64_t ns);
/* "1,234,567" into buf; buf. */
const char *iodfg_report_count(char *buf, size_t size, uint64_t v);
/* Cases of clocks[IODFG_CLOCK__N] as text ("12 time-of-day, 4 epoch"); how many clocks are
 * used. */
int iodfg_report_clocks(const uint32_t *clocks, char *buf, size_t size);

#endif
