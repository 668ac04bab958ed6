/* SPDX-License-Identifier: MIT */
/* The session object shared by its input, rebuild and state files. */
#ifndef IODFG_ENGINE_SESSION_PRIV_H
#define IODFG_ENGINE_SESSION_PRIV_H

#include <stddef.h>
#include <stdint.h>

#include "iodfg/diff.h"
#include "iodfg/filter.h"
#include "iodfg/focus.h"
#include "iodfg/mapping.h"
#include "iodfg/rules.h"
#include "iodfg/session.h"
#include "iodfg/session_job.h"

struct iodfg_session {
    const struct iodfg_eventlog *log;
    uint32_t ncases, nkeys;

    /* inputs */
    struct iodfg_rules *rules;
    struct iodfg_filter_stack *filters;
    int per_pid;
    uint8_t *g_mark, *r_mark; /* explicit members of G and R */
    int groups_restrict;
    int groups_fixed;     /* set from predicates (iodfg_session_set_groups) */
    int g_fixed, r_fixed; /* which of them were given */
    int groups_active;    /* a comparison is made */
    int path_pct, act_pct;
    int groups_dirty, thresholds_dirty; /* changed since the last rebuild */

    /* what the results were built from */
    int prepared, built;
    struct iodfg_session_change pending; /* prepared, not yet analysed */
    uint64_t rules_gen, filters_gen;
    int per_pid_built;
    int64_t from_ns, to_ns; /* the window */
    unsigned analysis_flags;         /* iodfg_session_set_job_part */
    void (*on_recompute)(void *ctx); /* iodfg_session_on_recompute */
    void *on_recompute_ctx;
    const struct iodfg_job *job; /* iodfg_session_set_job; NULL: the whole log */

    /* results */
    struct iodfg_filter_result fres;
    struct iodfg_mapping map;
    struct iodfg_rules_report report;
    struct iodfg_analysis *an;
    uint8_t *case_on;     /* the analysed cases: filters, and G or R when restricted */
    uint8_t *g_on, *r_on; /* the groups as compared */
    int diff_valid;
    struct iodfg_diff diff;
    uint8_t *node_on, *edge_on;
    size_t node_cap, edge_cap;
    int pruned;
    struct iodfg_session_counts counts;

    struct iodfg_history *history; /* created by the first record */

    /* focus (session_focus.c) */
    int focus;                         /* enum iodfg_focus_mode, as set */
    int focus_built;                   /* the mode the mapping was last folded for */
    int focus_dirty;                   /* the class rules changed */
    struct iodfg_focus *focus_rules;   /* NULL: the built-in ones, compiled on first use */
    int classes_valid;                 /* classes belong to focus_rules */
    struct iodfg_focus_classes classes;
    uint32_t *base_act;                /* per key: the activity its rule gives */
    uint32_t *old_act;                 /* per key: the activity before the last prepare */
    struct iodfg_mapping base;         /* view of the rules' mapping: map's names, base_act */
    uint32_t class_act1[IODFG_FOCUS_CLASSES_MAX]; /* activity "runtime:CLASS" + 1; 0: none yet */
    uint32_t *class_of_act;            /* per activity of map (act_cap entries) */
    uint32_t act_cap;
    uint32_t *moved;                   /* keys whose activity changed since the last analysis */
    size_t nmoved, cap_moved;
    struct iodfg_session_focus_counts fcounts;
    double changed_ratio; /* iodfg_session_set_changed_ratio; 0: the default */

    struct session_first *first; /* a rule edit's first tier (session_first.c); NULL: none yet */
};

/* session_rebuild.c: a monotonic clock in milliseconds (the counts' rebuild_ms). */
double session_now_ms(void);
/* Filters, groups and rules (iodfg_session_prepare without a job's agreement). 0 or -1 with err. */
int session_prepare(struct iodfg_session *s, struct iodfg_error *err);
/* Pruning masks (grown as needed) and whether anything is pruned. */
struct session_masks {
    uint8_t *node_on, *edge_on;
    size_t node_cap, edge_cap;
    int pruned;
};
/* The pruning of g and st under the session's thresholds into m, and the activities and events
 * shown into k. 0 or -1 with err (memory). */
int session_prune_into(const struct iodfg_session *s, const struct iodfg_dfg *g,
                       const struct iodfg_stats *st, struct session_masks *m,
                       struct iodfg_session_counts *k, struct iodfg_error *err);
/* Selected and unmapped events, over the keys the filters keep, into k. */
void session_count_keys(const struct iodfg_session *s, struct iodfg_session_counts *k);
/* After the analysis took the change ch (session_rebuild.c): the focus, the diff, the pruning
 * and the counts of the rebuild that started at t0. 0 or -1 with err. */
int session_finish(struct iodfg_session *s, struct iodfg_session_change ch, double t0,
                   struct iodfg_error *err);
/* session_first.c: bumped whenever a first tier is made or dropped: a second tier computed
 * elsewhere (session_second.c) belongs to the first tier of the serial it was started at. */
uint64_t session_first_serial(const struct iodfg_session *s);
/* session_first.c: the first tier is no longer pending (a full rebuild); free it at the end. */
void session_first_drop(struct iodfg_session *s);
void session_first_free(struct iodfg_session *s);

/* session_job.c: with a job, rc of every part agreed (0 or -1; err the first failure's), and
 * after a rebuild that recomputed results, the whole log's merged in; without one, rc. */
int iodfg_session_job_agree(const struct iodfg_session *s, int rc, struct iodfg_error *err);
int iodfg_session_job_merge(struct iodfg_session *s, int rc, struct iodfg_error *err);
/* With a job: groups g and r share no case of any part (0), else -1 with err naming them. */
int iodfg_session_job_groups(const struct iodfg_session *s, const struct iodfg_filter_stack *g,
                             const struct iodfg_filter_stack *r, struct iodfg_error *err);

/* session_rebuild.c: the effective group masks from the marks and the filtered cases; 1 when
 * the analysed cases changed. */
int iodfg_session_groups_resolve(struct iodfg_session *s);

/* session_focus.c: whether the mapping must be folded anew (the mode or the class rules
 * changed). */
int session_focus_stale(const struct iodfg_session *s);
/* Before the rules are applied again (or the mapping folded anew): remember each key's
 * activity. 0 or -1 with err (memory). */
int session_focus_begin(struct iodfg_session *s, struct iodfg_error *err);
/* After: keep the rules' activities (applied: the rules just ran; else they are base_act),
 * fold the runtime classes' keys when the focus is app, and add every key whose activity
 * changed to the pending list. *changed: whether any did. 0 or -1 with err. */
int session_focus_apply(struct iodfg_session *s, int applied, int *changed,
                        struct iodfg_error *err);
/* The counts of what is folded, once the analysis has its key event counts. */
void session_focus_count(struct iodfg_session *s);
/* The analysis took the pending keys. */
void session_focus_taken(struct iodfg_session *s);
/* Release the focus state (iodfg_session_free). */
void session_focus_fini(struct iodfg_session *s);

#endif
