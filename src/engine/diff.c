/* SPDX-License-Identifier: MIT */
/* G/R comparison: group DFGs, partition colouring and per-node/edge differences. */
#include "config.h"

#include "iodfg/diff.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "iodfg/analysis.h"
#include "iodfg/error.h"
#include "iodfg/eventlog.h"
#include "iodfg/mapping.h"
#include "iodfg/strpool.h"

const char *iodfg_diff_side_name(enum iodfg_diff_side side)
{
    static const char *const names[] = {"neither", "green", "red", "both", "changed"};
    return (unsigned)side < 5 ? names[side] : "?";
}

const char *iodfg_diff_side_mark(enum iodfg_diff_side side)
{
    static const char *const marks[] = {"", "G+", "R+", "=", "!="};
    return (unsigned)side < 5 ? marks[side] : "";
}

int iodfg_diff_side_in_both(enum iodfg_diff_side side)
{
    return side == IODFG_DIFF_BOTH || side == IODFG_DIFF_CHANGED;
}

int iodfg_diff_changed(double g, double r, double ratio)
{
    if (!(g > 0) || !(r > 0)) {
        return (g > 0) != (r > 0);
    }
    return (g > r ? g / r : r / g) >= ratio;
}

const char *iodfg_diff_metric_name(enum iodfg_diff_metric m)
{
    static const char *const names[] = {"count", "cases", "dur_sum_ns", "dur_mean_ns", "bytes"};
    return (unsigned)m < IODFG_DM__N ? names[m] : "?";
}

void iodfg_diff_init(struct iodfg_diff *d)
{
    memset(d, 0, sizeof(*d));
    d->changed_ratio = IODFG_DIFF_CHANGED_RATIO;
    iodfg_stats_init(&d->g_stats);
    iodfg_stats_init(&d->r_stats);
}

void iodfg_diff_fini(struct iodfg_diff *d)
{
    free(d->nodes);
    free(d->edges);
    iodfg_dfg_free(d->g_dfg);
    iodfg_dfg_free(d->r_dfg);
    iodfg_stats_fini(&d->g_stats);
    iodfg_stats_fini(&d->r_stats);
    memset(d, 0, sizeof(*d));
}

int iodfg_diff_groups_alloc(struct iodfg_diff *d, struct iodfg_error *err)
{
    if (!d->g_dfg && !(d->g_dfg = iodfg_dfg_new(err))) {
        return -1;
    }
    if (!d->r_dfg && !(d->r_dfg = iodfg_dfg_new(err))) {
        return -1;
    }
    return 0;
}

static double rel_of(double g, double r)
{
    return g != 0.0 ? (r - g) / g : NAN;
}

static void side_values(double *v, const struct iodfg_stats *st, uint32_t a)
{
    const struct iodfg_activity_stats *s = &st->act[a];
    v[IODFG_DM_COUNT] = (double)s->count;
    v[IODFG_DM_CASES] = (double)s->cases;
    v[IODFG_DM_DUR_SUM] = (double)s->dur_sum_ns;
    v[IODFG_DM_DUR_MEAN] = s->dur_n ? (double)s->dur_sum_ns / (double)s->dur_n : 0.0;
    v[IODFG_DM_BYTES] = (double)s->bytes;
}

static double per_case(double v, uint64_t cases)
{
    return cases ? v / (double)cases : 0.0;
}

/* The numbers per case of one side: sums divided by the cases, cases as a share of them. */
static void side_per_case(double *pc, const double *v, uint64_t cases)
{
    for (int m = 0; m < IODFG_DM__N; m++) {
        pc[m] = m == IODFG_DM_DUR_MEAN ? v[m] : per_case(v[m], cases);
    }
}

static enum iodfg_diff_side side_of(int in_g, int in_r)
{
    return (enum iodfg_diff_side)((in_g ? 1 : 0) | (in_r ? 2 : 0));
}

static int add_edges(struct iodfg_diff *d, const struct iodfg_dfg *src, size_t *cap)
{
    for (size_t i = 0; i < iodfg_dfg_slots(src); i++) {
        const struct iodfg_dfg_edge *e = iodfg_dfg_edge_at(src, i);
        if (!e->count || iodfg_diff_find_edge(d, e->from, e->to)) {
            continue;
        }
        if (d->nedges == *cap) {
            size_t nc = *cap ? *cap * 2 : 64;
            struct iodfg_diff_edge *ne = realloc(d->edges, nc * sizeof(*ne));
            if (!ne) {
                return -1;
            }
            d->edges = ne;
            *cap = nc;
        }
        struct iodfg_diff_edge *de = &d->edges[d->nedges++];
        memset(de, 0, sizeof(*de));
        de->from = e->from;
        de->to = e->to;
        const struct iodfg_dfg_edge *ge = iodfg_dfg_find(d->g_dfg, e->from, e->to);
        const struct iodfg_dfg_edge *re = iodfg_dfg_find(d->r_dfg, e->from, e->to);
        de->side = side_of(ge != NULL, re != NULL);
        if (ge) {
            de->g_count = ge->count;
            de->g_cases = ge->cases;
            de->g_gap_mean_ns = ge->gap_mean_ns;
        }
        if (re) {
            de->r_count = re->count;
            de->r_cases = re->cases;
            de->r_gap_mean_ns = re->gap_mean_ns;
        }
        de->count_abs = (double)de->r_count - (double)de->g_count;
        de->count_rel = rel_of((double)de->g_count, (double)de->r_count);
        de->g_per_case = per_case((double)de->g_count, d->g_traces);
        de->r_per_case = per_case((double)de->r_count, d->r_traces);
        if (de->side == IODFG_DIFF_BOTH &&
            iodfg_diff_changed(de->g_per_case, de->r_per_case, d->changed_ratio)) {
            de->side = IODFG_DIFF_CHANGED;
        }
    }
    return 0;
}

int iodfg_diff_build(struct iodfg_diff *d, const struct iodfg_analysis *an, const uint8_t *g_on,
                     const uint8_t *r_on, struct iodfg_error *err)
{
    const struct iodfg_eventlog *log = iodfg_analysis_log(an);
    uint32_t nc = iodfg_eventlog_case_count(log);
    for (uint32_t c = 0; c < nc; c++) {
        if (g_on[c] && r_on[c]) {
            const struct iodfg_case_info *ci = iodfg_eventlog_case(log, c);
            return iodfg_error_set(err, IODFG_E_ARG, "groups G and R overlap: case '%s' is in both",
                                   iodfg_strpool_get(iodfg_eventlog_pool(log), ci->name));
        }
    }
    double ratio = d->changed_ratio;
    iodfg_diff_fini(d);
    iodfg_diff_init(d);
    d->changed_ratio = ratio > 0 ? ratio : IODFG_DIFF_CHANGED_RATIO;
    if (iodfg_diff_groups_alloc(d, err)) {
        return -1;
    }
    struct iodfg_selection sel = *iodfg_analysis_selection(an);
    sel.case_on = g_on;
    if (iodfg_analysis_compute(an, &sel, d->g_dfg, &d->g_stats, err)) {
        return -1;
    }
    sel.case_on = r_on;
    if (iodfg_analysis_compute(an, &sel, d->r_dfg, &d->r_stats, err)) {
        return -1;
    }
    return iodfg_diff_compare(d, an, err);
}

int iodfg_diff_compare(struct iodfg_diff *d, const struct iodfg_analysis *an,
                       struct iodfg_error *err)
{
    if (iodfg_diff_groups_alloc(d, err)) {
        return -1;
    }
    free(d->nodes);
    free(d->edges);
    d->nodes = NULL;
    d->edges = NULL;
    d->nedges = 0;
    const struct iodfg_stats *all = iodfg_analysis_stats(an);
    d->nactivities = all->nactivities;
    d->g_traces = iodfg_dfg_traces(d->g_dfg);
    d->r_traces = iodfg_dfg_traces(d->r_dfg);
    double ratio = d->changed_ratio > 0 ? d->changed_ratio : IODFG_DIFF_CHANGED_RATIO;
    d->nodes = calloc((size_t)d->nactivities + 1, sizeof(*d->nodes));
    if (!d->nodes) {
        return iodfg_error_set(err, IODFG_E_NOMEM, "out of memory comparing groups");
    }
    for (uint32_t a = 0; a < d->nactivities; a++) {
        struct iodfg_diff_node *n = &d->nodes[a];
        n->activity = a;
        n->side = side_of(d->g_stats.act[a].count > 0, d->r_stats.act[a].count > 0);
        side_values(n->g, &d->g_stats, a);
        side_values(n->r, &d->r_stats, a);
        side_per_case(n->g_pc, n->g, d->g_traces);
        side_per_case(n->r_pc, n->r, d->r_traces);
        for (int m = 0; m < IODFG_DM__N; m++) {
            n->abs[m] = n->r[m] - n->g[m];
            n->rel[m] = rel_of(n->g[m], n->r[m]);
            n->ratio[m] = n->g_pc[m] != 0.0 ? n->r_pc[m] / n->g_pc[m] : NAN;
        }
        if (n->side == IODFG_DIFF_BOTH &&
            (iodfg_diff_changed(n->g_pc[IODFG_DM_COUNT], n->r_pc[IODFG_DM_COUNT], ratio) ||
             iodfg_diff_changed(n->g_pc[IODFG_DM_DUR_SUM], n->r_pc[IODFG_DM_DUR_SUM], ratio) ||
             iodfg_diff_changed(n->g_pc[IODFG_DM_BYTES], n->r_pc[IODFG_DM_BYTES], ratio))) {
            n->side = IODFG_DIFF_CHANGED;
        }
    }
    size_t cap = 0;
    if (add_edges(d, iodfg_analysis_dfg(an), &cap) || add_edges(d, d->g_dfg, &cap) ||
        add_edges(d, d->r_dfg, &cap)) {
        return iodfg_error_set(err, IODFG_E_NOMEM, "out of memory comparing groups");
    }
    return 0;
}

const struct iodfg_diff_edge *iodfg_diff_find_edge(const struct iodfg_diff *d, uint32_t from,
                                                   uint32_t to)
{
    for (size_t i = 0; i < d->nedges; i++) {
        if (d->edges[i].from == from && d->edges[i].to == to) {
            return &d->edges[i];
        }
    }
    return NULL;
}
