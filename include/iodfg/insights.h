/* SPDX-License-Identifier: MIT */
/* Insights: automatic findings over a selection of an event log (small transfers, seeks before
 * reads and writes, metadata load, shared files, stair-cases, imbalance, failed-call storms...),
 * each with a severity, a one-line recommendation and the evidence that proves it
 * (doc/insights.md describes every rule). */
#ifndef IODFG_INSIGHTS_H
#define IODFG_INSIGHTS_H

#include <stddef.h>
#include <stdint.h>

#include "iodfg/focus.h"

struct iodfg_buf;
struct iodfg_error;
struct iodfg_eventlog;
struct iodfg_mapping;
struct iodfg_selection;
struct iodfg_session;
struct iodfg_strpool;

/* The rules: id, name (for --rule and the output), title. */
#define IODFG_INSIGHT_RULE_LIST(X)                                                                 \
    X(SMALL_IO, "small-io", "many small transfers")                                                \
    X(RANDOM_ACCESS, "random-access", "random or strided access")                                  \
    X(ACCESS_UNKNOWN, "access-unknown", "access pattern unknown (offsets not traced)")             \
    X(SEEK_IO, "seek-io", "lseek then read/write on the same descriptor")                          \
    X(METADATA, "metadata-heavy", "metadata-heavy I/O")                                            \
    X(REPEATED_OPEN, "repeated-open", "the same file opened again and again")                      \
    X(SHARED_FILE, "shared-file", "one file written by several cases at once")                     \
    X(STAIR_CASE, "stair-case", "serialised calls (stair-case)")                                   \
    X(LOCK_CYCLE, "lock-cycle", "lock/read/write/unlock cycles")                                   \
    X(IMBALANCE, "imbalance", "I/O time imbalance between cases")                                  \
    X(STRAGGLER, "straggler", "a case finishing late")                                             \
    X(FAILED_STORM, "failed-storm", "storm of failed calls")                                       \
    X(REREAD, "reread", "the same bytes read again")                                               \
    X(TINY_TTY, "tiny-tty-write", "tiny writes to a terminal or pipe")                             \
    X(BURSTY, "bursty", "low I/O intensity in bursts")                                             \
    X(FILE_PER_PROCESS, "file-per-process", "one file per process")                                \
    X(ONE_CASE, "one-case", "one case does all of some I/O on a file others use")

enum iodfg_insight_rule {
#define IODFG_X_INSIGHT(id, name, title) IODFG_INS_##id,
    IODFG_INSIGHT_RULE_LIST(IODFG_X_INSIGHT)
#undef IODFG_X_INSIGHT
        IODFG_INS__N
};
const char *iodfg_insight_rule_name(enum iodfg_insight_rule r);
const char *iodfg_insight_rule_title(enum iodfg_insight_rule r);
/* The one-line recommendation of a rule (program text). */
const char *iodfg_insight_rule_advice(enum iodfg_insight_rule r);
/* What a finding's impact is a share of ("of the selection's call time" for most rules). */
const char *iodfg_insight_impact_basis(enum iodfg_insight_rule r);
/* 0 and *r for a rule name; -1 when there is none. */
int iodfg_insight_rule_parse(const char *name, enum iodfg_insight_rule *r);

/* Thresholds: field, name (--threshold NAME=VALUE), default, lowest and highest value. */
#define IODFG_INSIGHT_THRESHOLD_LIST(X)                                                            \
    X(small_size, "small-size", 1048576, 1, 1e15)                                                  \
    X(small_share, "small-share", 0.5, 0, 1)                                                       \
    X(min_ops, "min-ops", 100, 1, 1e15)                                                            \
    X(random_share, "random-share", 0.2, 0, 1)                                                     \
    X(unknown_share, "unknown-share", 0.5, 0, 1)                                                   \
    X(seek_pairs, "seek-pairs", 16, 1, 1e15)                                                       \
    X(meta_share, "meta-share", 0.5, 0, 1)                                                         \
    X(meta_calls, "meta-calls", 50, 1, 1e15)                                                       \
    X(reopens, "reopens", 10, 2, 1e15)                                                             \
    X(shared_cases, "shared-cases", 2, 2, 1e9)                                                     \
    X(stair_index, "stair-index", 0.3, 0, 1)                                                       \
    X(stair_calls, "stair-calls", 8, 1, 1e15)                                                      \
    X(lock_cycles, "lock-cycles", 10, 1, 1e15)                                                     \
    X(imbalance_ratio, "imbalance-ratio", 2, 1, 1e9)                                               \
    X(imbalance_cases, "imbalance-cases", 3, 2, 1e9)                                               \
    X(imbalance_min_s, "imbalance-min-s", 0.05, 0, 1e9)                                            \
    X(straggler_share, "straggler-share", 0.2, 0, 1e9)                                             \
    X(storm_calls, "storm-calls", 20, 1, 1e15)                                                     \
    X(reread_share, "reread-share", 0.25, 0, 1)                                                    \
    X(reread_bytes, "reread-bytes", 65536, 0, 1e18)                                                \
    X(tty_writes, "tty-writes", 100, 1, 1e15)                                                      \
    X(tty_size, "tty-size", 128, 1, 1e15)                                                          \
    X(intensity_max, "intensity-max", 0.3, 0, 1)                                                   \
    X(burstiness_min, "burstiness-min", 0.5, 0, 1)                                                 \
    X(high_share, "high-share", 0.25, 0, 1)                                                        \
    X(medium_share, "medium-share", 0.05, 0, 1)                                                    \
    X(max_per_rule, "max-per-rule", 10, 1, 1e6)                                                    \
    X(fpp_files, "fpp-files", 2, 2, 1e15)                                                          \
    X(one_case_ops, "one-case-ops", 4, 1, 1e15)                                                    \
    X(changed_ratio, "changed-ratio", 1.5, 1, 1e9)

struct iodfg_insight_thresholds {
#define IODFG_X_THRESHOLD(field, name, def, lo, hi) double field;
    IODFG_INSIGHT_THRESHOLD_LIST(IODFG_X_THRESHOLD)
#undef IODFG_X_THRESHOLD
};
void iodfg_insight_thresholds_default(struct iodfg_insight_thresholds *t);
/* Set one threshold from "NAME=VALUE" (blanks around both allowed). 0, or -1 with err (an
 * unknown name, a malformed value or one outside the threshold's range; col is the column). */
int iodfg_insight_threshold_set(struct iodfg_insight_thresholds *t, const char *assignment,
                                struct iodfg_error *err);
/* Every "NAME = VALUE" line of a thresholds file (blank lines and '#' comments skipped). Nothing
 * changes on error (err has where, line and column). */
int iodfg_insight_thresholds_parse(struct iodfg_insight_thresholds *t, const char *text, size_t len,
                                   const char *where, struct iodfg_error *err);
/* "name = value" lines of every threshold. -1 when out of memory. */
int iodfg_insight_thresholds_format(const struct iodfg_insight_thresholds *t,
                                    struct iodfg_buf *out);

enum iodfg_insight_severity {
    IODFG_SEV_INFO = 0, /* something could not be told */
    IODFG_SEV_LOW,
    IODFG_SEV_MEDIUM,
    IODFG_SEV_HIGH,
};
const char *iodfg_insight_severity_name(enum iodfg_insight_severity s);

/* What a finding is about. */
enum iodfg_insight_subject {
    IODFG_SUBJ_NONE = 0, /* the selection as a whole */
    IODFG_SUBJ_ACTIVITY, /* subject = activity id of the mapping */
    IODFG_SUBJ_EDGE,     /* subject -> subject2, activity ids */
    IODFG_SUBJ_PATH,     /* subject = string id in the insights' pool */
    IODFG_SUBJ_NAME,     /* subject = string id of a name (errno, direction) in the pool */
    IODFG_SUBJ_RUN,      /* subject = string id of a run (cid) whose cases were compared */
};

/* Evidence lists keep this many items; *_total says how many there were. */
#define IODFG_INSIGHT_KEEP 8
#define IODFG_INSIGHT_NUMBERS 8

struct iodfg_insight_number {
    const char *name; /* static: "ops", "share", "time_ns" ... */
    double value;     /* NAN when not known */
};

struct iodfg_insight {
    enum iodfg_insight_rule rule;
    enum iodfg_insight_severity severity;
    double impact;   /* share of the selection's call time the finding covers; NAN when unknown */
    double time_ns;  /* the call time it covers; NAN when it measures something else */
    uint32_t fclass; /* the focus class judged (0: the application's; iodfg_insight_class) */
    uint32_t align;  /* pool string id of where it is, for comparisons: rule, kind of I/O and
                      * place (the top two directories) instead of the raw path */
    enum iodfg_insight_subject subject_kind;
    uint32_t subject, subject2;
    char text[320]; /* what was measured, with its numbers (program text, no trace strings) */
    uint32_t nnum;
    struct iodfg_insight_number num[IODFG_INSIGHT_NUMBERS];
    /* evidence: activities (ids of the mapping), edges, cases (ids of the log; the worst first
     * where a rule ranks them), paths (string ids in the insights' pool) */
    uint32_t act[IODFG_INSIGHT_KEEP], nact, act_total;
    uint32_t edge[IODFG_INSIGHT_KEEP][2], nedge;
    uint32_t cases[IODFG_INSIGHT_KEEP], ncases, cases_total;
    uint32_t paths[IODFG_INSIGHT_KEEP], npaths, paths_total;
    /* the call sites (strace -k) of the subject activity's events, most time first: their
     * functions (string ids in the insights' pool) and calls */
    uint32_t sites[IODFG_INSIGHT_KEEP], nsites, sites_total;
    uint64_t site_calls[IODFG_INSIGHT_KEEP];
    /* ... the frame (iodfg/stacks.h) of each site's call with the most events (0: unknown), how
     * many calls of that function issued them (frames: one per call instruction; 5 means 5 or
     * more), and that call's file (string id in the pool, IODFG_STR_EMPTY: unknown) and line
     * once iodfg_insights_site_lines looked them up */
    uint32_t site_frame[IODFG_INSIGHT_KEEP], site_frames[IODFG_INSIGHT_KEEP];
    uint32_t site_file[IODFG_INSIGHT_KEEP];
    int32_t site_line[IODFG_INSIGHT_KEEP];
    int has_window; /* 0 when the evidence spans cases of different clocks */
    int clock;      /* enum iodfg_clock of the window */
    int64_t from_ns, to_ns;
};

struct iodfg_insights {
    size_t n;
    struct iodfg_insight *v;        /* ranked: severity, then impact */
    struct iodfg_strpool *pool;     /* paths and errno names of the evidence */
    int64_t call_time_ns;           /* Σ known durations of the selected events (impact's base) */
    uint64_t events;                /* selected mapped events */
    uint32_t cases;                 /* selected cases with events */
    uint64_t omitted[IODFG_INS__N]; /* findings past max-per-rule */
    const char *unjudged[IODFG_INS__N]; /* why a rule could not be judged (static), or NULL */
    int app_first;                      /* judged per focus class, the application's ranked first */
    uint32_t nclasses;                  /* focus classes judged (1: not split) */
    uint32_t class_name[IODFG_FOCUS_CLASSES_MAX]; /* pool string ids of their names */
    double changed_ratio; /* the changed-ratio threshold of the build (for comparisons) */
};

void iodfg_insights_init(struct iodfg_insights *ins);
void iodfg_insights_fini(struct iodfg_insights *ins);
/* Judge every rule enabled in rules_on (IODFG_INS__N flags; NULL = all) over the selected
 * events of log (cases, window, mapped keys; cases are trace files). The log needs the start,
 * dur, size, key, pid, fd, offset and err columns. 0 or -1 with err (memory, columns). */
int iodfg_insights_build(struct iodfg_insights *ins, const struct iodfg_eventlog *log,
                         const struct iodfg_mapping *map, const struct iodfg_selection *sel,
                         const struct iodfg_insight_thresholds *t, const uint8_t *rules_on,
                         struct iodfg_error *err);
/* The same judged once per focus class (classes: focus.h, NULL: not split): the application's
 * events alone, then each runtime class's alone, impacts still shares of the whole selection's
 * call time. Findings carry their class and rank by severity, then the application's before the
 * runtime's (a runtime finding goes first only with a higher severity: "similar impact" is the
 * same severity), then impact. */
int iodfg_insights_build_classes(struct iodfg_insights *ins, const struct iodfg_eventlog *log,
                                 const struct iodfg_mapping *map, const struct iodfg_selection *sel,
                                 const struct iodfg_insight_thresholds *t, const uint8_t *rules_on,
                                 const struct iodfg_focus_classes *classes,
                                 struct iodfg_error *err);
/* The source line of frame (a frame id of the log's stacks, iodfg/stacks.h): 1 with file (borrowed
 * until the lookup's owner goes) and *line, 0 when unknown. A front-end's adapter of
 * iodfg_srcline_frame (debug information is read below the engine). */
typedef int (*iodfg_frame_line_fn)(void *ctx, uint32_t frame, const char **file, int *line);
/* Name the file and line of every finding's call sites (their site_frame) through line_of.
 * Sites whose line is unknown keep only their function. 0, or -1 with err (out of memory). */
int iodfg_insights_site_lines(struct iodfg_insights *ins, iodfg_frame_line_fn line_of, void *ctx,
                              struct iodfg_error *err);
/* The same over the current selection of a prepared session (iodfg_session_prepare), or over one
 * of its groups (IODFG_GROUP_G/R; -1 with err when there is no such group). Under focus app the
 * findings are judged per class; evidence names the rules' activities (before folding: ids of
 * iodfg_session_rules_mapping, named by iodfg_session_mapping as well). */
int iodfg_insights_session(struct iodfg_insights *ins, const struct iodfg_session *ses, int group,
                           const struct iodfg_insight_thresholds *t, const uint8_t *rules_on,
                           struct iodfg_error *err);
/* The subject of a finding as text (activity name, "a -> b", path, errno), "" for none;
 * untrusted: sanitise before showing. Written into buf[size]. */
const char *iodfg_insight_subject_text(const struct iodfg_insights *ins,
                                       const struct iodfg_mapping *map,
                                       const struct iodfg_insight *f, char *buf, size_t size);

/* The name of a finding's focus class: "" for the application's, else the runtime class. */
const char *iodfg_insight_class(const struct iodfg_insights *ins, const struct iodfg_insight *f);

/* ---- comparing two groups ---- */

/* BOTH: in both groups and changed (another severity, or a time per case apart by the
 * changed-ratio threshold or more); SAME: in both, not changed. */
enum iodfg_insight_side { IODFG_INS_BOTH = 0, IODFG_INS_G_ONLY, IODFG_INS_R_ONLY, IODFG_INS_SAME };
struct iodfg_insight_change {
    enum iodfg_insight_side side;
    const struct iodfg_insight *g, *r; /* borrowed; NULL on the side that lacks it */
};
/* The marker column of tables: "changed" (both groups, changed), "G+", "R+", "=" (SAME). */
const char *iodfg_insight_side_mark(enum iodfg_insight_side side);
/* Align the findings of g and r: one row per finding of either group, a finding of each matched
 * when they share rule, focus class and place (the align string: the kind of I/O and the top two
 * directories of their files, the errno, or the rule alone for runs), so that "shared-file on the
 * data file" of two runs is one row although the paths differ. Rows in G's rank order, then
 * those of R only. *out is malloc'd (free it); *n its length. 0 or -1 with err (memory). */
int iodfg_insights_align(const struct iodfg_insights *g, const struct iodfg_insights *r,
                         struct iodfg_insight_change **out, size_t *n, struct iodfg_error *err);
/* The rows of iodfg_insights_align that differ: one side only, or changed (map is not used;
 * kept for the callers). */
int iodfg_insights_compare(const struct iodfg_insights *g, const struct iodfg_insights *r,
                           const struct iodfg_mapping *map, struct iodfg_insight_change **out,
                           size_t *n, struct iodfg_error *err);

#endif
