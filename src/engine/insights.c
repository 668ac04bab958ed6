/* SPDX-License-Identifier: MIT */
/* Insights: the rule table, the build over a selection, ranking and evidence helpers. */
#include "config.h"

#include "iodfg/insights.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "iodfg/error.h"
#include "iodfg/eventlog.h"
#include "iodfg/mapping.h"
#include "iodfg/metrics.h"
#include "iodfg/rules.h"
#include "iodfg/session.h"
#include "iodfg/strpool.h"

#include "insights_families.h"
#include "insights_sites.h"

struct rule_info {
    const char *name, *title, *advice;
};

static const struct rule_info rule_info[IODFG_INS__N] = {
#define IODFG_X_INSIGHT(id, name, title) [IODFG_INS_##id] = {name, title, NULL},
    IODFG_INSIGHT_RULE_LIST(IODFG_X_INSIGHT)
#undef IODFG_X_INSIGHT
};

/* One line per rule: what to do about it (doc/insights.md says why). */
static const char *const advice[IODFG_INS__N] = {
    [IODFG_INS_SMALL_IO] = "aggregate small requests into larger ones (buffering, collective I/O)",
    [IODFG_INS_RANDOM_ACCESS] = "order the requests by offset, or use collective I/O or a layout "
                                "that matches the access order",
    [IODFG_INS_ACCESS_UNKNOWN] = "trace lseek too (no -e filter that hides it) so that offsets "
                                 "can be followed",
    [IODFG_INS_SEEK_IO] = "use pread/pwrite: one call instead of lseek plus read/write",
    [IODFG_INS_METADATA] = "open files once and keep them open, cache stat results, avoid "
                           "directory scans in loops",
    [IODFG_INS_REPEATED_OPEN] = "keep the file open across accesses instead of reopening it",
    [IODFG_INS_SHARED_FILE] = "align each case's region to stripe boundaries, or use collective "
                              "I/O or one file per process",
    [IODFG_INS_STAIR_CASE] = "calls wait for each other: spread them over more files or "
                             "servers, or aggregate on fewer ranks",
    [IODFG_INS_LOCK_CYCLE] = "avoid a lock per access: write disjoint regions, or lock once "
                             "around aggregated writes",
    [IODFG_INS_IMBALANCE] = "balance the data over the cases, or overlap the heavy case's I/O "
                            "with computation",
    [IODFG_INS_STRAGGLER] = "look at what the late case does in the evidence window; balance or "
                            "overlap its work",
    [IODFG_INS_FAILED_STORM] = "fix the search path (LD_LIBRARY_PATH, PYTHONPATH ...) or cache "
                               "the result; back off instead of retrying at once",
    [IODFG_INS_REREAD] = "keep the data in memory after the first read, or read it once and "
                         "share it",
    [IODFG_INS_TINY_TTY] = "buffer the output (full stdio buffering, fewer larger writes) or "
                           "write less often",
    [IODFG_INS_BURSTY] = "overlap the bursts with computation or stage them asynchronously; "
                         "shared servers see the peaks",
    [IODFG_INS_FILE_PER_PROCESS] = "fine at this scale; at thousands of processes the files load "
                                   "the metadata servers: write a shared file (MPI-IO collective) "
                                   "or aggregate into fewer files",
    [IODFG_INS_ONE_CASE] = "check that the others do not wait for it; spread the work, or do it "
                           "once and share the result (broadcast)",
};

const char *iodfg_insight_rule_name(enum iodfg_insight_rule r)
{
    return (unsigned)r < IODFG_INS__N ? rule_info[r].name : "?";
}

const char *iodfg_insight_rule_title(enum iodfg_insight_rule r)
{
    return (unsigned)r < IODFG_INS__N ? rule_info[r].title : "?";
}

const char *iodfg_insight_rule_advice(enum iodfg_insight_rule r)
{
    return (unsigned)r < IODFG_INS__N ? advice[r] : "";
}

const char *iodfg_insight_impact_basis(enum iodfg_insight_rule r)
{
    switch (r) {
    case IODFG_INS_IMBALANCE:
        return "of the worst case's call time is above the median";
    case IODFG_INS_STRAGGLER:
        return "of the last case's span comes after the median end";
    default:
        return "of the selection's call time";
    }
}

int iodfg_insight_rule_parse(const char *name, enum iodfg_insight_rule *r)
{
    for (int i = 0; i < IODFG_INS__N; i++) {
        if (strcmp(name, rule_info[i].name) == 0) {
            *r = (enum iodfg_insight_rule)i;
            return 0;
        }
    }
    return -1;
}

const char *iodfg_insight_severity_name(enum iodfg_insight_severity s)
{
    static const char *const names[] = {"info", "low", "medium", "high"};
    return (unsigned)s < 4 ? names[s] : "?";
}

/* ---- results ---- */

const char *iodfg_insight_side_mark(enum iodfg_insight_side side)
{
    static const char *const marks[] = {"changed", "G+", "R+", "="};
    return (unsigned)side < 4 ? marks[side] : "";
}

void iodfg_insights_init(struct iodfg_insights *ins)
{
    memset(ins, 0, sizeof(*ins));
}

void iodfg_insights_fini(struct iodfg_insights *ins)
{
    free(ins->v);
    iodfg_strpool_free(ins->pool);
    memset(ins, 0, sizeof(*ins));
}

/* ---- ranking and the build ---- */

static int by_rank(const void *pa, const void *pb, void *ctx)
{
    const struct iodfg_insight *a = pa, *b = pb;
    int app_first = *(const int *)ctx;
    if (a->severity != b->severity) {
        return a->severity > b->severity ? -1 : 1;
    }
    if (app_first && (a->fclass == 0) != (b->fclass == 0)) {
        return a->fclass == 0 ? -1 : 1; // the application's before the runtime's of a severity
    }
    double ia = isfinite(a->impact) ? a->impact : -1, ib = isfinite(b->impact) ? b->impact : -1;
    if (ia != ib) {
        return ia > ib ? -1 : 1;
    }
    if (a->rule != b->rule) {
        return a->rule < b->rule ? -1 : 1;
    }
    if (a->fclass != b->fclass) {
        return a->fclass < b->fclass ? -1 : 1;
    }
    return a->subject < b->subject ? -1 : a->subject > b->subject;
}

// Keep at most max_per_rule findings of each rule (the best ranked), counting the others.
static void rank(struct ins_ctx *x)
{
    struct iodfg_insights *ins = x->ins;
    if (x->nfound) {
        qsort_r(x->found, x->nfound, sizeof(*x->found), by_rank, &ins->app_first);
    }
    uint64_t kept[IODFG_INS__N] = {0};
    size_t n = 0;
    for (size_t i = 0; i < x->nfound; i++) {
        enum iodfg_insight_rule r = x->found[i].rule;
        if (kept[r] >= (uint64_t)x->t->max_per_rule) {
            ins->omitted[r]++;
            continue;
        }
        kept[r]++;
        x->found[n++] = x->found[i];
    }
    ins->v = x->found;
    ins->n = n;
    x->found = NULL;
}

// Totals of the selection (the base of every impact; whole: over every selected event), per
// activity and per case (over the events of the pass).
static void totals(struct ins_ctx *x, int whole)
{
    const struct iodfg_columns *col = iodfg_eventlog_columns(x->log);
    const uint32_t *act = x->map->activity_of_key;
    uint32_t nc = iodfg_eventlog_case_count(x->log);
    x->pass_events = 0;
    for (uint32_t c = 0; c < nc; c++) {
        uint64_t lo, hi;
        if (!ins_case_range(x, c, &lo, &hi)) {
            continue;
        }
        for (uint64_t e = lo; e < hi; e++) {
            uint32_t a = act[col->key[e]];
            if (a == IODFG_NO_ACTIVITY) {
                continue;
            }
            int64_t d = col->dur_ns[e] == IODFG_UNKNOWN ? 0 : col->dur_ns[e];
            ins_set_add(&x->act_set[a], x->log, c, col->start_ns[e], d, 0);
            ins_set_add(&x->case_set[c], x->log, c, col->start_ns[e], d, 0);
            x->pass_events++;
            if (whole) {
                x->ins->call_time_ns = iodfg_sat_add(x->ins->call_time_ns, d);
                x->ins->events++;
            }
        }
        if (whole && x->case_set[c].n && !x->ins->cases++) {
            x->first_clock = (int)iodfg_eventlog_case(x->log, c)->clock;
        }
    }
}

static int check_columns(const struct iodfg_eventlog *log, const struct iodfg_mapping *map,
                         struct iodfg_error *err)
{
    const struct iodfg_columns *col = iodfg_eventlog_columns(log);
    if (!col->start_ns || !col->dur_ns || !col->size || !col->key || !col->pid || !col->fd ||
        !col->offset || !col->err) {
        return iodfg_error_set(err, IODFG_E_ARG,
                               "the event log lacks a column insights need "
                               "(start, dur, size, key, pid, fd, offset, err)");
    }
    if (map->nkeys != iodfg_eventlog_key_count(log)) {
        return iodfg_error_set(err, IODFG_E_ARG, "the mapping does not belong to this log");
    }
    return 0;
}

// The rule families over the events of x->map. -1 with err.
static int judge(struct ins_ctx *x, struct iodfg_error *err)
{
    uint32_t nc = iodfg_eventlog_case_count(x->log);
    memset(x->act_set, 0, ((size_t)x->map->nactivities + 1) * sizeof(*x->act_set));
    memset(x->case_set, 0, ((size_t)nc + 1) * sizeof(*x->case_set));
    totals(x, 0);
    if (!x->pass_events) {
        return 0;
    }
    if (ins_scan_events(x) || ins_scan_cases(x) || ins_scan_files(x) || ins_scan_spread(x)) {
        return iodfg_error_set(err, IODFG_E_NOMEM, NULL);
    }
    return ins_scan_derived(x, err);
}

/* Rules about whole cases and time (the cases compared with each other, the bursts): judged over
 * every selected event once, not per class. */
static int whole_run_rule(int r)
{
    return r == IODFG_INS_IMBALANCE || r == IODFG_INS_STRAGGLER || r == IODFG_INS_BURSTY;
}

// Judge the application's events, then each runtime class's, each pass over a mapping that
// keeps only the keys of its class; then the whole-run rules over every event.
static int judge_classes(struct ins_ctx *x, const struct iodfg_focus_classes *cl,
                         struct iodfg_error *err)
{
    const struct iodfg_mapping *full = x->map;
    const uint8_t *on = x->on;
    uint8_t per_class[IODFG_INS__N], whole[IODFG_INS__N];
    for (int r = 0; r < IODFG_INS__N; r++) {
        per_class[r] = on[r] && !whole_run_rule(r);
        whole[r] = on[r] && whole_run_rule(r);
    }
    struct iodfg_mapping part = *full;
    uint32_t *act = malloc(((size_t)full->nkeys + 1) * sizeof(*act));
    if (!act) {
        return iodfg_error_set(err, IODFG_E_NOMEM, NULL);
    }
    part.activity_of_key = act;
    x->map = &part;
    x->on = per_class;
    int rc = 0;
    for (uint32_t c = 0; rc == 0 && c < cl->nclasses; c++) {
        for (uint32_t k = 0; k < full->nkeys; k++) {
            act[k] = cl->class_of_key[k] == c ? full->activity_of_key[k] : IODFG_NO_ACTIVITY;
        }
        x->fclass = c;
        rc = judge(x, err);
    }
    x->map = full;
    x->fclass = 0;
    x->on = whole;
    rc = rc ? rc : judge(x, err);
    x->on = on;
    free(act);
    return rc;
}

int iodfg_insights_build_classes(struct iodfg_insights *ins, const struct iodfg_eventlog *log,
                                 const struct iodfg_mapping *map, const struct iodfg_selection *sel,
                                 const struct iodfg_insight_thresholds *t, const uint8_t *rules_on,
                                 const struct iodfg_focus_classes *classes, struct iodfg_error *err)
{
    iodfg_insights_fini(ins);
    ins->changed_ratio = t->changed_ratio;
    ins->nclasses = 1;
    if (iodfg_eventlog_event_count(log) == 0) { // nothing to judge (and no columns allocated)
        return 0;
    }
    if (check_columns(log, map, err) ||
        (classes && classes->nkeys != iodfg_eventlog_key_count(log) &&
         iodfg_error_set(err, IODFG_E_ARG, "the classes do not belong to this log"))) {
        return -1;
    }
    static const uint8_t all[IODFG_INS__N] = {[0 ... IODFG_INS__N - 1] = 1};
    struct ins_ctx x = {
        .ins = ins, .log = log, .map = map, .sel = sel, .t = t, .on = rules_on ? rules_on : all};
    uint32_t nk = iodfg_eventlog_key_count(log), nc = iodfg_eventlog_case_count(log);
    x.kflags = malloc((size_t)nk + 1);
    x.act_set = calloc((size_t)map->nactivities + 1, sizeof(*x.act_set));
    x.case_set = calloc((size_t)nc + 1, sizeof(*x.case_set));
    int rc = -1;
    if (!x.kflags || !x.act_set || !x.case_set) {
        iodfg_error_set(err, IODFG_E_NOMEM, NULL);
        goto done;
    }
    iodfg_metrics_key_flags(log, x.kflags);
    totals(&x, 1);
    if (classes) {
        ins->app_first = 1;
        ins->nclasses = classes->nclasses;
        for (uint32_t c = 0; c < classes->nclasses; c++) {
            const char *name = c ? iodfg_focus_class_name(classes, c) : "";
            if (ins_intern(&x, name, strlen(name), &ins->class_name[c])) {
                iodfg_error_set(err, IODFG_E_NOMEM, NULL);
                goto done;
            }
        }
    }
    if (classes ? judge_classes(&x, classes, err) : judge(&x, err)) {
        goto done;
    }
    if (ins_align(&x)) {
        iodfg_error_set(err, IODFG_E_NOMEM, NULL);
        goto done;
    }
    rank(&x);
    rc = 0;
done:
    if (rc) {
        iodfg_insights_fini(ins);
    }
    free(x.found);
    free(x.kflags);
    free(x.act_set);
    free(x.case_set);
    return rc;
}

int iodfg_insights_build(struct iodfg_insights *ins, const struct iodfg_eventlog *log,
                         const struct iodfg_mapping *map, const struct iodfg_selection *sel,
                         const struct iodfg_insight_thresholds *t, const uint8_t *rules_on,
                         struct iodfg_error *err)
{
    return iodfg_insights_build_classes(ins, log, map, sel, t, rules_on, NULL, err);
}

int iodfg_insights_session(struct iodfg_insights *ins, const struct iodfg_session *ses, int group,
                           const struct iodfg_insight_thresholds *t, const uint8_t *rules_on,
                           struct iodfg_error *err)
{
    struct iodfg_selection sel;
    const struct iodfg_mapping *map = iodfg_session_rules_mapping(ses);
    if (!map->activity_of_key || iodfg_session_selection(ses, (enum iodfg_group)group, &sel)) {
        return iodfg_error_set(err, IODFG_E_ARG, "%s",
                               map->activity_of_key ? "no such group" : "not prepared");
    }
    const struct iodfg_focus_classes *classes =
        iodfg_session_focus(ses) == IODFG_FOCUS_APP ? iodfg_session_focus_classes(ses) : NULL;
    int rc = iodfg_insights_build_classes(ins, iodfg_session_log(ses), map, &sel, t, rules_on,
                                          classes, err);
    return rc ? rc : ins_add_sites(ins, iodfg_session_log(ses), map, &sel, err);
}

const char *iodfg_insight_class(const struct iodfg_insights *ins, const struct iodfg_insight *f)
{
    return f->fclass && f->fclass < ins->nclasses && ins->pool
               ? iodfg_strpool_get(ins->pool, ins->class_name[f->fclass])
               : "";
}

const char *iodfg_insight_subject_text(const struct iodfg_insights *ins,
                                       const struct iodfg_mapping *map,
                                       const struct iodfg_insight *f, char *buf, size_t size)
{
    switch (f->subject_kind) {
    case IODFG_SUBJ_ACTIVITY:
        snprintf(buf, size, "%s", iodfg_mapping_name(map, f->subject));
        break;
    case IODFG_SUBJ_EDGE:
        snprintf(buf, size, "%s -> %s", iodfg_mapping_name(map, f->subject),
                 iodfg_mapping_name(map, f->subject2));
        break;
    case IODFG_SUBJ_PATH:
    case IODFG_SUBJ_NAME:
    case IODFG_SUBJ_RUN:
        snprintf(buf, size, "%s", ins->pool ? iodfg_strpool_get(ins->pool, f->subject) : "");
        break;
    default:
        snprintf(buf, size, "%s", "");
    }
    return buf;
}
