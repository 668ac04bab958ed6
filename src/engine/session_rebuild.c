/* SPDX-License-Identifier: MIT */
/* The session's rebuild: filters, groups, rules, the analysis (full or incremental), the G/R
 * diff, the pruning masks and the counts, each recomputed only when an input it reads changed. */
#include "config.h"

#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "iodfg/analysis.h"
#include "iodfg/dfg.h"
#include "iodfg/error.h"
#include "iodfg/eventlog.h"
#include "iodfg/stats.h"

#include "session_priv.h"

double session_now_ms(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec * 1e3 + (double)ts.tv_nsec / 1e6;
}

static int any(const uint8_t *m, uint32_t n)
{
    for (uint32_t i = 0; i < n; i++) {
        if (m[i]) {
            return 1;
        }
    }
    return 0;
}

int iodfg_session_groups_resolve(struct iodfg_session *s)
{
    const uint8_t *filtered = s->fres.case_on;
    int g_given = any(s->g_mark, s->ncases), r_given = any(s->r_mark, s->ncases);
    int active = g_given || r_given || s->groups_fixed;
    int changed = 0;
    struct iodfg_session_counts *k = &s->counts;
    k->g_cases = k->r_cases = k->cases_selected = 0;
    for (uint32_t c = 0; c < s->ncases; c++) {
        int on = !filtered || filtered[c];
        // a group without members is every other case (within the filters)
        uint8_t g = on && active && (g_given || s->groups_fixed ? s->g_mark[c] : !s->r_mark[c]);
        uint8_t r = on && active && (r_given || s->groups_fixed ? s->r_mark[c] : !s->g_mark[c]);
        uint8_t sel = on && (!s->groups_restrict || !active || g || r);
        changed |= sel != s->case_on[c];
        s->g_on[c] = g;
        s->r_on[c] = r;
        s->case_on[c] = sel;
        k->g_cases += g;
        k->r_cases += r;
        k->cases_selected += sel;
    }
    k->g_given = s->groups_fixed ? s->g_fixed : g_given;
    k->r_given = s->groups_fixed ? s->r_fixed : r_given;
    s->groups_active = active;
    return changed;
}

static int cmp_desc(const void *a, const void *b)
{
    uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
    return (x < y) - (x > y);
}

static int grow(void *pp, size_t *cap, size_t n)
{
    if (n <= *cap) {
        return 0;
    }
    void *p = realloc(*(void **)pp, n);
    if (!p) {
        return -1;
    }
    *(void **)pp = p;
    *cap = n;
    return 0;
}

/* The pruning numbers: the filters' minedge and top, tightened by the thresholds (the smallest
 * count among the top path_pct percent of edges; act_pct percent of the activities). */
static int thresholds(const struct iodfg_session *s, const struct iodfg_dfg *g,
                      const uint64_t *act_count, uint64_t *min_count, uint32_t *top_k)
{
    *min_count = s->fres.min_edge;
    *top_k = s->fres.top;
    if (s->path_pct < 100) {
        size_t n = 0;
        uint64_t *c = malloc((iodfg_dfg_slots(g) + 1) * sizeof(*c));
        if (!c) {
            return -1;
        }
        for (size_t i = 0; i < iodfg_dfg_slots(g); i++) {
            if (iodfg_dfg_edge_at(g, i)->count > 0) {
                c[n++] = iodfg_dfg_edge_at(g, i)->count;
            }
        }
        if (n > 0) {
            qsort(c, n, sizeof(*c), cmp_desc);
            size_t keep = ((size_t)s->path_pct * n + 99) / 100;
            uint64_t cut = c[(keep ? keep : 1) - 1];
            *min_count = cut > *min_count ? cut : *min_count;
        }
        free(c);
    }
    if (s->act_pct < 100) {
        uint32_t with = 0;
        for (uint32_t a = 0; a < iodfg_dfg_nactivities(g); a++) {
            with += act_count[a] > 0;
        }
        uint32_t k = (uint32_t)(((uint64_t)s->act_pct * with + 99) / 100);
        k = k ? k : 1;
        *top_k = *top_k == 0 || k < *top_k ? k : *top_k;
    }
    return 0;
}

int session_prune_into(const struct iodfg_session *s, const struct iodfg_dfg *g,
                       const struct iodfg_stats *st, struct session_masks *m,
                       struct iodfg_session_counts *k, struct iodfg_error *err)
{
    uint32_t na =
        iodfg_dfg_nactivities(g) > st->nactivities ? iodfg_dfg_nactivities(g) : st->nactivities;
    uint64_t *cnt = calloc((size_t)na + 1, sizeof(*cnt));
    if (!cnt || grow(&m->node_on, &m->node_cap, (size_t)na + 1) ||
        grow(&m->edge_on, &m->edge_cap, iodfg_dfg_slots(g) + 1)) {
        free(cnt);
        return iodfg_error_set(err, IODFG_E_NOMEM, NULL);
    }
    for (uint32_t a = 0; a < st->nactivities; a++) {
        cnt[a] = st->act[a].count;
    }
    uint64_t min_count;
    uint32_t top_k;
    int rc = thresholds(s, g, cnt, &min_count, &top_k);
    if (rc) {
        iodfg_error_set(err, IODFG_E_NOMEM, NULL);
    } else {
        rc = iodfg_dfg_prune(g, cnt, min_count, top_k, m->node_on, m->edge_on, err);
    }
    m->pruned = min_count > 0 || top_k > 0;
    k->activities = k->activities_shown = 0;
    k->events_shown = 0;
    for (uint32_t a = 0; rc == 0 && a < iodfg_dfg_nactivities(g); a++) {
        k->activities += cnt[a] > 0;
        if (m->node_on[a]) {
            k->activities_shown++;
            k->events_shown += cnt[a];
        }
    }
    free(cnt);
    return rc;
}

static int prune(struct iodfg_session *s, struct iodfg_error *err)
{
    struct session_masks m = {s->node_on, s->edge_on, s->node_cap, s->edge_cap, s->pruned};
    int rc = session_prune_into(s, iodfg_analysis_dfg(s->an), iodfg_analysis_stats(s->an), &m,
                                &s->counts, err);
    s->node_on = m.node_on;
    s->edge_on = m.edge_on;
    s->node_cap = m.node_cap;
    s->edge_cap = m.edge_cap;
    s->pruned = m.pruned;
    return rc;
}

void session_count_keys(const struct iodfg_session *s, struct iodfg_session_counts *k)
{
    k->events_selected = k->unmapped = 0;
    for (uint32_t key = 0; key < s->map.nkeys; key++) {
        if (s->fres.key_on && !s->fres.key_on[key]) {
            continue;
        }
        uint64_t n = iodfg_analysis_key_events(s->an, key);
        k->events_selected += n;
        if (s->map.activity_of_key[key] == IODFG_NO_ACTIVITY) {
            k->unmapped += n;
        }
    }
    k->rules_limited = s->report.limited;
    k->limit_line = s->report.limited ? s->report.limit_line : 0;
}

/* The analysis for the current mapping and selection: new, reset (a new selection: one full
 * rebuild) or updated incrementally (only some keys changed activity). */
static int analyse(struct iodfg_session *s, int selection_changed, struct iodfg_error *err)
{
    struct iodfg_selection sel;
    iodfg_session_selection(s, IODFG_GROUP_NONE, &sel);
    if (!s->an) {
        s->an = iodfg_analysis_new_with(s->log, &s->map, &sel, s->analysis_flags, err);
        return s->an ? 0 : -1;
    }
    if (selection_changed) {
        return iodfg_analysis_reset(s->an, &s->map, &sel, err);
    }
    return iodfg_analysis_update(s->an, &s->map, s->moved, s->nmoved, err);
}

static int build_diff(struct iodfg_session *s, struct iodfg_error *err)
{
    s->diff_valid = 0;
    if (!s->groups_active) {
        return 0;
    }
    iodfg_diff_fini(&s->diff);
    iodfg_diff_init(&s->diff);
    s->diff.changed_ratio = iodfg_session_changed_ratio(s);
    if (iodfg_diff_build(&s->diff, s->an, s->g_on, s->r_on, err)) {
        return -1;
    }
    s->diff_valid = 1;
    return 0;
}

/* Filters, groups and rules: the mapping and selections. Changes accumulate in s->pending
 * until the analysis takes them. */
int session_prepare(struct iodfg_session *s, struct iodfg_error *err)
{
    struct iodfg_session_change *ch = &s->pending;
    uint64_t rules_gen = iodfg_rules_generation(s->rules);
    uint64_t filters_gen = iodfg_filter_stack_generation(s->filters);
    int filters = !s->prepared || filters_gen != s->filters_gen;
    if (filters && iodfg_filter_stack_apply(s->filters, s->log, &s->fres, err)) {
        s->prepared = 0;
        return -1;
    }
    // a call or path filter only changes activities: the update stays incremental
    ch->selection |= !s->prepared || s->per_pid != s->per_pid_built ||
                     s->fres.from_ns != s->from_ns || s->fres.to_ns != s->to_ns;
    if (filters || s->groups_dirty) {
        ch->selection |= iodfg_session_groups_resolve(s);
        ch->groups = 1;
    }
    int remap = filters || rules_gen != s->rules_gen;
    if (remap || session_focus_stale(s)) { // the rules' mapping, then the focus folds it
        int changed = 0;
        uint32_t nact = s->map.nactivities;
        if (session_focus_begin(s, err) ||
            (remap &&
             iodfg_rules_apply(s->rules, s->log, s->fres.key_on, &s->map, &s->report, err)) ||
            session_focus_apply(s, remap, &changed, err)) {
            s->prepared = 0;
            return -1;
        }
        // new activity names alone (a rule's target the focus folds away) change no key, but
        // the analysis must grow to them: the session indexes its results by the map's ids
        ch->mapping |= changed || !s->prepared || s->map.nactivities != nact;
    }
    ch->pruning |= s->thresholds_dirty;
    s->prepared = 1;
    s->rules_gen = rules_gen;
    s->filters_gen = filters_gen;
    s->per_pid_built = s->per_pid;
    s->from_ns = s->fres.from_ns;
    s->to_ns = s->fres.to_ns;
    s->groups_dirty = s->thresholds_dirty = 0;
    return 0;
}

int iodfg_session_prepare(struct iodfg_session *s, struct iodfg_error *err)
{
    return iodfg_session_job_agree(s, session_prepare(s, err), err);
}

void iodfg_session_on_recompute(struct iodfg_session *s, void (*fn)(void *ctx), void *ctx)
{
    s->on_recompute = fn;
    s->on_recompute_ctx = ctx;
}

void iodfg_session_set_job_part(struct iodfg_session *s)
{
    s->analysis_flags |= IODFG_ANALYSIS_NO_SWEEP | IODFG_ANALYSIS_NO_PERCENTILES;
}

static int rebuild(struct iodfg_session *s, struct iodfg_error *err)
{
    double t0 = session_now_ms();
    session_first_drop(s); // the full results replace the first tier's
    if (session_prepare(s, err)) {
        return -1;
    }
    struct iodfg_session_change ch = s->pending;
    if (s->on_recompute && (!s->an || ch.selection || ch.mapping || ch.groups || ch.pruning)) {
        s->on_recompute(s->on_recompute_ctx);
    }
    if ((ch.selection || ch.mapping || !s->an) && analyse(s, ch.selection, err)) {
        s->built = 0;
        return -1;
    }
    return session_finish(s, ch, t0, err);
}

int session_finish(struct iodfg_session *s, struct iodfg_session_change ch, double t0,
                   struct iodfg_error *err)
{
    session_focus_taken(s);
    ch.groups |= ch.selection || ch.mapping;
    if (ch.groups && build_diff(s, err)) {
        s->built = 0;
        return -1;
    }
    ch.pruning |= ch.groups;
    if (ch.pruning && prune(s, err)) {
        s->built = 0;
        return -1;
    }
    session_count_keys(s, &s->counts);
    session_focus_count(s);
    s->built = 1;
    memset(&s->pending, 0, sizeof(s->pending));
    s->counts.change = ch;
    s->counts.generation += ch.selection || ch.mapping || ch.groups || ch.pruning;
    s->counts.rebuild_ms = session_now_ms() - t0;
    return 0;
}

int iodfg_session_rebuild(struct iodfg_session *s, struct iodfg_error *err)
{
    return iodfg_session_job_merge(s, rebuild(s, err), err);
}

/* The job's group results into the session's comparison, compared against its whole results. */
static int adopt_groups(struct iodfg_session *s, struct iodfg_diff *groups,
                        const uint32_t *group_cases, struct iodfg_error *err)
{
    struct iodfg_diff *d = &s->diff;
    struct iodfg_dfg *gt = d->g_dfg, *rt = d->r_dfg;
    struct iodfg_stats gs = d->g_stats, rs = d->r_stats;
    d->g_dfg = groups->g_dfg;
    d->r_dfg = groups->r_dfg;
    d->g_stats = groups->g_stats;
    d->r_stats = groups->r_stats;
    groups->g_dfg = gt;
    groups->r_dfg = rt;
    groups->g_stats = gs;
    groups->r_stats = rs;
    s->diff_valid = 0;
    if (iodfg_diff_compare(d, s->an, err)) {
        return -1;
    }
    s->diff_valid = 1;
    s->counts.g_cases = group_cases[0];
    s->counts.r_cases = group_cases[1];
    return 0;
}

int iodfg_session_adopt(struct iodfg_session *s, struct iodfg_dfg *g, struct iodfg_stats *st,
                        struct iodfg_diff *groups, const uint32_t *group_cases,
                        struct iodfg_error *err)
{
    if (!s->built || !s->an) {
        return iodfg_error_set(err, IODFG_E_ARG, "the session has no results to replace");
    }
    if (s->groups_active != (groups != NULL && group_cases != NULL)) {
        return iodfg_error_set(err, IODFG_E_ARG,
                               s->groups_active ? "the groups' results are missing"
                                                : "results of groups without groups");
    }
    iodfg_analysis_adopt(s->an, g, st);
    if (groups && adopt_groups(s, groups, group_cases, err)) {
        return -1;
    }
    return prune(s, err);
}
