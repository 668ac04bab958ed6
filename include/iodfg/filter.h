/* SPDX-License-Identifier: MIT */
/* Filters: a stack of case, call, path, kind and time predicates (plus DFG pruning numbers),
 * each with a one-line text form; case predicates also define the groups G and R. */
#ifndef IODFG_FILTER_H
#define IODFG_FILTER_H

#include <stddef.h>
#include <stdint.h>

struct iodfg_buf;
struct iodfg_error;
struct iodfg_eventlog;
struct iodfg_filter;
struct iodfg_filter_stack;
struct iodfg_selection;

enum iodfg_filter_kind {
    IODFG_FILTER_CASE = 0, /* cid, host, rid, name, source: = != ~ !~ */
    IODFG_FILTER_CALL,     /* call = read,write | call ~ REGEX (and negations) */
    IODFG_FILTER_PATH,     /* path ~ REGEX | path = EXACT (and negations) */
    IODFG_FILTER_KIND,     /* kind = file,pipe | kind != socket */
    IODFG_FILTER_TIME,     /* time = FROM..TO (seconds from the log start, or @absolute) */
    IODFG_FILTER_MIN_EDGE, /* minedge = N: edges seen fewer than N times are hidden (DFG) */
    IODFG_FILTER_TOP,      /* top = K: keep the K most frequent activities (DFG) */
    /* the key's file system (iodfg/mounts.h) and I/O layer, like call: = != ~ !~ */
    IODFG_FILTER_FS,     /* fs ~ ^/p/scratch (mount point) */
    IODFG_FILTER_FSTYPE, /* fstype = lustre,gpfs */
    IODFG_FILTER_SCOPE,  /* scope = global | scope != local,virtual (names checked) */
    IODFG_FILTER_LAYER,  /* layer = MPI-IO,POSIX */
    IODFG_FILTER_SITE,   /* site ~ payload: the call site's function (strace -k) */
};

/* Parse one filter ("cid=ssf", "path ~ ^/p/scratch", "time=1.5..3"). NULL on error with the
 * 1-based column in err (line 1). Free with iodfg_filter_free. */
struct iodfg_filter *iodfg_filter_parse(const char *text, size_t len, struct iodfg_error *err);
void iodfg_filter_free(struct iodfg_filter *f);
enum iodfg_filter_kind iodfg_filter_kind(const struct iodfg_filter *f);
/* Append the canonical text ("path~^/usr", "time=1.5..3"); parsing it gives the same filter. */
int iodfg_filter_format(const struct iodfg_filter *f, struct iodfg_buf *out);

/* The stack: filters combine with AND, in push order. */
struct iodfg_filter_stack *iodfg_filter_stack_new(void);
void iodfg_filter_stack_free(struct iodfg_filter_stack *fs);
/* A copy (for undo). NULL when out of memory. */
struct iodfg_filter_stack *iodfg_filter_stack_dup(const struct iodfg_filter_stack *fs);
/* Push, taking ownership of f (freed on failure too). */
int iodfg_filter_stack_push(struct iodfg_filter_stack *fs, struct iodfg_filter *f_take,
                            struct iodfg_error *err);
/* Parse text and push it. */
int iodfg_filter_stack_push_text(struct iodfg_filter_stack *fs, const char *text,
                                 struct iodfg_error *err);
/* Remove the last filter: 0, or -1 when the stack is empty. */
int iodfg_filter_stack_pop(struct iodfg_filter_stack *fs);
void iodfg_filter_stack_clear(struct iodfg_filter_stack *fs);
size_t iodfg_filter_stack_count(const struct iodfg_filter_stack *fs);
/* A number that changes with every push and pop (to notice changes made elsewhere). */
uint64_t iodfg_filter_stack_generation(const struct iodfg_filter_stack *fs);
/* Filter i (0 = first pushed), borrowed until it is popped; NULL past the end. */
const struct iodfg_filter *iodfg_filter_stack_get(const struct iodfg_filter_stack *fs, size_t i);
/* Parse one filter per line ('#' comments and blank lines skipped) and push them all, or none
 * on error (err has where, line and column). */
int iodfg_filter_stack_parse(struct iodfg_filter_stack *fs, const char *text, size_t len,
                             const char *where, struct iodfg_error *err);
/* Append the filters' canonical texts joined by sep ("\n" for a file, "  " for a status line). */
int iodfg_filter_stack_format(const struct iodfg_filter_stack *fs, const char *sep,
                              struct iodfg_buf *out);
/* Pruning numbers for the DFG: the largest minedge (0 = none), the smallest top (0 = none). */
uint64_t iodfg_filter_stack_min_edge(const struct iodfg_filter_stack *fs);
uint32_t iodfg_filter_stack_top(const struct iodfg_filter_stack *fs);

/* What a stack selects in one log. */
struct iodfg_filter_result {
    uint8_t *case_on; /* per case: 1 = kept (case filters) */
    uint32_t ncases, ncases_on;
    uint8_t *key_on; /* per key: 1 = kept (call/path/kind filters); pass to iodfg_rules_apply */
    uint32_t nkeys, nkeys_on;
    int64_t from_ns, to_ns; /* time window [from, to) on the log's start_ns clock */
    int64_t log_start_ns;   /* earliest start in the log (0 when empty) */
    uint64_t min_edge;
    uint32_t top;
    uint64_t regex_evals; /* regex matches run (once per case or key and filter) */
};
void iodfg_filter_result_init(struct iodfg_filter_result *r);
void iodfg_filter_result_fini(struct iodfg_filter_result *r);

/* Evaluate the stack over log into r (reused across calls). -1 when out of memory. */
int iodfg_filter_stack_apply(const struct iodfg_filter_stack *fs, const struct iodfg_eventlog *log,
                             struct iodfg_filter_result *r, struct iodfg_error *err);
/* Point sel at r's case mask and window (per_pid untouched); valid while r lives. */
void iodfg_filter_result_selection(const struct iodfg_filter_result *r,
                                   struct iodfg_selection *sel);

/* Groups G and R: a stack holding only case predicates, evaluated into mask (case_count
 * bytes, 1 = member). -1 with an error naming the filter when it is not a case predicate. */
int iodfg_filter_case_mask(const struct iodfg_filter_stack *group, const struct iodfg_eventlog *log,
                           uint8_t *mask, struct iodfg_error *err);
/* 0 when g and r (case masks) share no case, else -1 with a message naming the first few
 * overlapping cases and their count. */
int iodfg_filter_groups_check(const struct iodfg_eventlog *log, const uint8_t *g, const uint8_t *r,
                              struct iodfg_error *err);
/* The same in parts (iodfg-mpi: each process holds some cases): the count of cases in both g
 * and r and the names of the first few, added to ov (zeroed first) in case order; a case
 * without a name is named by # and base + its index. */
#define IODFG_OVERLAP_NAMES 3
struct iodfg_groups_overlap {
    uint32_t count, nnames;
    char name[IODFG_OVERLAP_NAMES][64];
};
void iodfg_filter_groups_overlap(const struct iodfg_eventlog *log, const uint8_t *g,
                                 const uint8_t *r, uint32_t base, struct iodfg_groups_overlap *ov);
/* Add a later part's overlap (its cases come after dst's). */
void iodfg_filter_overlap_add(struct iodfg_groups_overlap *dst,
                              const struct iodfg_groups_overlap *src);
/* 0 when ov counts no case, else -1 with iodfg_filter_groups_check's message. */
int iodfg_filter_overlap_error(const struct iodfg_groups_overlap *ov, struct iodfg_error *err);

#endif
