/* SPDX-License-Identifier: MIT */
/* The analysis session: its lifetime, its inputs and the accessors of its results. */
#include "config.h"

#include "iodfg/session.h"

#include <stdlib.h>
#include <string.h>

#include "iodfg/analysis.h"
#include "iodfg/buf.h"
#include "iodfg/error.h"
#include "iodfg/eventlog.h"
#include "iodfg/filter.h"
#include "iodfg/history.h"
#include "iodfg/strpool.h"

#include "session_priv.h"

struct iodfg_session *iodfg_session_new(const struct iodfg_eventlog *log, struct iodfg_error *err)
{
    struct iodfg_session *s = calloc(1, sizeof(*s));
    if (!s) {
        iodfg_error_set(err, IODFG_E_NOMEM, NULL);
        return NULL;
    }
    s->log = log;
    s->ncases = iodfg_eventlog_case_count(log);
    s->nkeys = iodfg_eventlog_key_count(log);
    s->path_pct = s->act_pct = 100;
    iodfg_filter_result_init(&s->fres);
    iodfg_rules_report_init(&s->report);
    iodfg_diff_init(&s->diff);
    size_t nc = (size_t)s->ncases + 1;
    s->rules = iodfg_rules_new();
    s->filters = iodfg_filter_stack_new();
    s->g_mark = calloc(nc, 1);
    s->r_mark = calloc(nc, 1);
    s->g_on = calloc(nc, 1);
    s->r_on = calloc(nc, 1);
    s->case_on = calloc(nc, 1);
    if (!s->rules || !s->filters || !s->g_mark || !s->r_mark || !s->g_on || !s->r_on ||
        !s->case_on || iodfg_mapping_init(&s->map, err)) {
        iodfg_error_set(err, IODFG_E_NOMEM, NULL);
        iodfg_session_free(s);
        return NULL;
    }
    s->counts.events = iodfg_eventlog_event_count(log);
    return s;
}

void iodfg_session_free(struct iodfg_session *s)
{
    if (!s) {
        return;
    }
    iodfg_history_free(s->history);
    session_first_free(s);
    session_focus_fini(s);
    free(s->node_on);
    free(s->edge_on);
    iodfg_diff_fini(&s->diff);
    iodfg_analysis_free(s->an);
    iodfg_mapping_fini(&s->map);
    iodfg_rules_report_fini(&s->report);
    iodfg_filter_result_fini(&s->fres);
    free(s->case_on);
    free(s->g_on);
    free(s->r_on);
    free(s->g_mark);
    free(s->r_mark);
    iodfg_filter_stack_free(s->filters);
    iodfg_rules_free(s->rules);
    free(s);
}

const struct iodfg_eventlog *iodfg_session_log(const struct iodfg_session *s)
{
    return s->log;
}

/* ---- inputs ---- */

struct iodfg_rules *iodfg_session_rules(struct iodfg_session *s)
{
    return s->rules;
}

struct iodfg_filter_stack *iodfg_session_filters(struct iodfg_session *s)
{
    return s->filters;
}

int iodfg_session_set_rules(struct iodfg_session *s, const char *text, size_t len,
                            const char *where, struct iodfg_error *err)
{
    if (!text) {
        text = iodfg_rules_default_text();
        len = strlen(text);
    }
    return iodfg_rules_compile(s->rules, text, len, where ? where : "rules", err);
}

void iodfg_session_set_per_pid(struct iodfg_session *s, int per_pid)
{
    s->per_pid = per_pid != 0;
}

int iodfg_session_per_pid(const struct iodfg_session *s)
{
    return s->per_pid;
}

void iodfg_session_set_thresholds(struct iodfg_session *s, int path_pct, int act_pct)
{
    path_pct = path_pct < 10 ? 10 : path_pct > 100 ? 100 : path_pct;
    act_pct = act_pct < 10 ? 10 : act_pct > 100 ? 100 : act_pct;
    s->thresholds_dirty |= path_pct != s->path_pct || act_pct != s->act_pct;
    s->path_pct = path_pct;
    s->act_pct = act_pct;
}

void iodfg_session_thresholds(const struct iodfg_session *s, int *path_pct, int *act_pct)
{
    *path_pct = s->path_pct;
    *act_pct = s->act_pct;
}

/* ---- groups ---- */

void iodfg_session_group_set(struct iodfg_session *s, uint32_t c, enum iodfg_group group)
{
    if (c < s->ncases) {
        s->g_mark[c] = group == IODFG_GROUP_G;
        s->r_mark[c] = group == IODFG_GROUP_R;
        s->groups_dirty = 1;
        s->groups_fixed = 0;
    }
}

enum iodfg_group iodfg_session_group_of(const struct iodfg_session *s, uint32_t c)
{
    if (c >= s->ncases) {
        return IODFG_GROUP_NONE;
    }
    return s->g_mark[c] ? IODFG_GROUP_G : s->r_mark[c] ? IODFG_GROUP_R : IODFG_GROUP_NONE;
}

void iodfg_session_groups_clear(struct iodfg_session *s)
{
    memset(s->g_mark, 0, s->ncases);
    memset(s->r_mark, 0, s->ncases);
    s->groups_dirty = 1;
    s->groups_fixed = 0;
}

void iodfg_session_set_groups_restrict(struct iodfg_session *s, int restrict_selection)
{
    s->groups_dirty |= s->groups_restrict != (restrict_selection != 0);
    s->groups_restrict = restrict_selection != 0;
}

long iodfg_session_group_match(struct iodfg_session *s, const char *pattern, enum iodfg_group group,
                               struct iodfg_error *err)
{
    struct iodfg_filter_stack *fs = iodfg_filter_stack_new();
    uint8_t *mask = calloc((size_t)s->ncases + 1, 1);
    struct iodfg_buf b;
    iodfg_buf_init(&b);
    // A bare word is a regex on the case name; otherwise the filter syntax (cid=ssf, ...).
    iodfg_buf_addf(&b, "%s%s", strpbrk(pattern, "=~") ? "" : "name~", pattern);
    long n = -1;
    if (!fs || !mask || b.failed) {
        iodfg_error_set(err, IODFG_E_NOMEM, NULL);
    } else if (iodfg_filter_stack_push_text(fs, b.data, err) == 0 &&
               iodfg_filter_case_mask(fs, s->log, mask, err) == 0) {
        n = 0;
        for (uint32_t c = 0; c < s->ncases; c++) {
            if (mask[c]) {
                iodfg_session_group_set(s, c, group);
                n++;
            }
        }
    }
    iodfg_buf_fini(&b);
    free(mask);
    iodfg_filter_stack_free(fs);
    return n;
}

/* The case masks of groups g and r (a group not given is every other case). 0, or -1 with
 * err. */
static int group_masks(const struct iodfg_session *s, const struct iodfg_filter_stack *g,
                       const struct iodfg_filter_stack *r, uint8_t *gm, uint8_t *rm,
                       struct iodfg_error *err)
{
    if ((g && iodfg_filter_case_mask(g, s->log, gm, err)) ||
        (r && iodfg_filter_case_mask(r, s->log, rm, err))) {
        return -1;
    }
    // a group not given is every other case: check the overlap of what was given
    for (uint32_t c = 0; c < s->ncases; c++) {
        gm[c] = g ? gm[c] : !rm[c];
        rm[c] = r ? rm[c] : !gm[c];
    }
    return 0;
}

int iodfg_session_groups_overlap(const struct iodfg_session *s, const struct iodfg_filter_stack *g,
                                 const struct iodfg_filter_stack *r, uint32_t base,
                                 struct iodfg_groups_overlap *ov, struct iodfg_error *err)
{
    size_t nc = (size_t)s->ncases + 1;
    uint8_t *gm = calloc(nc, 1), *rm = calloc(nc, 1);
    int rc =
        gm && rm ? group_masks(s, g, r, gm, rm, err) : iodfg_error_set(err, IODFG_E_NOMEM, NULL);
    if (rc == 0) {
        iodfg_filter_groups_overlap(s->log, gm, rm, base, ov);
    }
    free(gm);
    free(rm);
    return rc;
}

int iodfg_session_set_groups(struct iodfg_session *s, const struct iodfg_filter_stack *g,
                             const struct iodfg_filter_stack *r, struct iodfg_error *err)
{
    if (iodfg_session_job_groups(s, g, r, err)) { // a job's groups share no case of any part
        return -1;
    }
    size_t nc = (size_t)s->ncases + 1;
    uint8_t *gm = calloc(nc, 1), *rm = calloc(nc, 1);
    int rc = -1;
    if (!gm || !rm) {
        iodfg_error_set(err, IODFG_E_NOMEM, NULL);
    } else if (group_masks(s, g, r, gm, rm, err) == 0 &&
               iodfg_filter_groups_check(s->log, gm, rm, err) == 0) {
        memcpy(s->g_mark, gm, s->ncases);
        memcpy(s->r_mark, rm, s->ncases);
        s->groups_dirty = 1;
        s->groups_fixed = 1;
        s->g_fixed = g != NULL;
        s->r_fixed = r != NULL;
        rc = 0;
    }
    free(gm);
    free(rm);
    return rc;
}

/* ---- results ---- */

int iodfg_session_ready(const struct iodfg_session *s)
{
    return s->built;
}

const struct iodfg_analysis *iodfg_session_analysis(const struct iodfg_session *s)
{
    return s->an;
}

const struct iodfg_mapping *iodfg_session_mapping(const struct iodfg_session *s)
{
    return &s->map;
}

const struct iodfg_dfg *iodfg_session_dfg(const struct iodfg_session *s)
{
    return s->an ? iodfg_analysis_dfg(s->an) : NULL;
}

const struct iodfg_stats *iodfg_session_stats(const struct iodfg_session *s)
{
    return s->an ? iodfg_analysis_stats(s->an) : NULL;
}

const uint32_t *iodfg_session_key_activities(const struct iodfg_session *s)
{
    return s->an ? iodfg_analysis_activities(s->an) : NULL;
}

uint64_t iodfg_session_key_events(const struct iodfg_session *s, uint32_t k)
{
    return s->an ? iodfg_analysis_key_events(s->an, k) : 0;
}

const struct iodfg_selection *iodfg_session_built_selection(const struct iodfg_session *s)
{
    return s->an ? iodfg_analysis_selection(s->an) : NULL;
}

const struct iodfg_timeline *iodfg_session_timeline(const struct iodfg_session *s)
{
    return s->an ? iodfg_analysis_timeline(s->an) : NULL;
}

const struct iodfg_rules_report *iodfg_session_rules_report(const struct iodfg_session *s)
{
    return &s->report;
}

const struct iodfg_filter_result *iodfg_session_filter_result(const struct iodfg_session *s)
{
    return &s->fres;
}

const char *iodfg_session_activity_name(const struct iodfg_session *s, uint32_t a)
{
    return iodfg_mapping_name(&s->map, a);
}

const char *iodfg_session_case_name(const struct iodfg_session *s, uint32_t c)
{
    const struct iodfg_case_info *ci = iodfg_eventlog_case(s->log, c);
    return ci ? iodfg_strpool_get(iodfg_eventlog_pool(s->log), ci->name) : "";
}

const struct iodfg_diff *iodfg_session_diff(const struct iodfg_session *s)
{
    return s->diff_valid ? &s->diff : NULL;
}

enum iodfg_diff_side iodfg_session_activity_side(const struct iodfg_session *s, uint32_t a)
{
    return s->diff_valid && a < s->diff.nactivities ? s->diff.nodes[a].side : IODFG_DIFF_NEITHER;
}

enum iodfg_diff_side iodfg_session_edge_side(const struct iodfg_session *s, uint32_t from,
                                             uint32_t to)
{
    const struct iodfg_diff_edge *e =
        s->diff_valid ? iodfg_diff_find_edge(&s->diff, from, to) : NULL;
    return e ? e->side : IODFG_DIFF_NEITHER;
}

const uint8_t *iodfg_session_group_mask(const struct iodfg_session *s, enum iodfg_group group)
{
    if (!s->groups_active) {
        return NULL;
    }
    return group == IODFG_GROUP_G ? s->g_on : group == IODFG_GROUP_R ? s->r_on : NULL;
}

int iodfg_session_selection(const struct iodfg_session *s, enum iodfg_group group,
                            struct iodfg_selection *sel)
{
    iodfg_selection_all(sel);
    iodfg_filter_result_selection(&s->fres, sel);
    sel->per_pid = s->per_pid;
    sel->case_on = s->case_on;
    if (group != IODFG_GROUP_NONE) {
        sel->case_on = iodfg_session_group_mask(s, group);
        if (!sel->case_on) {
            return -1;
        }
    }
    return 0;
}

const uint8_t *iodfg_session_node_on(const struct iodfg_session *s)
{
    return s->node_on;
}

const uint8_t *iodfg_session_edge_on(const struct iodfg_session *s)
{
    return s->edge_on;
}

int iodfg_session_pruned(const struct iodfg_session *s)
{
    return s->pruned;
}

const struct iodfg_session_counts *iodfg_session_counts(const struct iodfg_session *s)
{
    return &s->counts;
}

size_t iodfg_session_memory(const struct iodfg_session *s)
{
    size_t n = sizeof(*s) + 5 * ((size_t)s->ncases + 1) + s->node_cap + s->edge_cap;
    n += (s->base_act ? 2 * sizeof(uint32_t) * s->nkeys : 0) + s->act_cap * sizeof(uint32_t) +
         s->cap_moved * sizeof(uint32_t) + (s->classes_valid ? s->nkeys : 0); // the focus
    return n + (s->an ? iodfg_analysis_memory(s->an) : 0);
}
