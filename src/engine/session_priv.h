/* SPDX-License-Identifier: MIT */
/* The session object shared by its input, rebuild and state files. */
#ifndef IODFG_ENGINE_SESSION_PRIV_H
#define IODFG_ENGINE_SESSION_PRIV_H

#include <stddef.h>
#include <stdint.h>

#include "iodfg/diff.h"
#include "iodfg/filter.h"
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
};

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

#endif
