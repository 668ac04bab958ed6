/* SPDX-License-Identifier: MIT */
/* The incremental update of an analysis after a rule edit (analysis.c's header says how): the
 * cases holding a changed key are recounted (or every case, from scratch, when they hold most
 * events), the dirty activities swept again beside the recount, and the touched groups'
 * statistics rescanned. */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "iodfg/bigmem.h"
#include "iodfg/dfg.h"
#include "iodfg/error.h"
#include "iodfg/eventlog.h"
#include "iodfg/mapping.h"
#include "iodfg/stats.h"
#include "iodfg/timeline.h"
#include "iodfg/trace.h"

#include "analysis_priv.h"
#include "dfg_priv.h"
#include "stats_priv.h"

/* Mark the cases holding any key k with pick[act[k]] (or key_pick[k]) and list them in order. */
static uint32_t *cases_of(struct iodfg_analysis *an, const uint32_t *act, const uint8_t *pick,
                          const uint8_t *key_pick, size_t *ncases)
{
    memset(an->case_mark, 0, an->ncases);
    for (uint32_t k = 0; k < an->nkeys; k++) {
        int on = key_pick ? key_pick[k] : act[k] != IODFG_NO_ACTIVITY && pick[act[k]];
        if (on) {
            for (uint64_t i = an->kc_off[k]; i < an->kc_off[k + 1]; i++) {
                an->case_mark[an->kc[i]] = 1;
            }
        }
    }
    size_t m = 0;
    for (uint32_t c = 0; c < an->ncases; c++) {
        m += an->case_mark[c];
    }
    uint32_t *list = malloc((m ? m : 1) * sizeof(*list));
    if (list) {
        m = 0;
        for (uint32_t c = 0; c < an->ncases; c++) {
            if (an->case_mark[c]) {
                list[m++] = c;
            }
        }
    }
    *ncases = m;
    return list;
}

/* Flag (on = 1) or clear the events of the changed keys in the listed cases in an->moved. */
static void mark_moved(struct iodfg_analysis *an, const uint32_t *cases, size_t ncases,
                       const uint8_t *key_changed, int on)
{
    const uint32_t *key = iodfg_eventlog_columns(an->log)->key;
    const uint64_t *off = iodfg_eventlog_case_offsets(an->log);
    for (size_t i = 0; i < ncases; i++) {
        for (uint64_t e = off[cases[i]]; e < off[cases[i] + 1]; e++) {
            if (key_changed[key[e]]) {
                if (on) {
                    an->moved[e / 64] |= 1ULL << (e & 63);
                } else {
                    an->moved[e / 64] = 0;
                }
            }
        }
    }
}

/* One incremental update: its inputs, the plan, and the sweep running beside it. */
struct inc_update {
    const struct iodfg_mapping *map;
    const uint32_t *nact;       /* the new key -> activity */
    const uint8_t *key_changed; /* per key: its activity changed */
    uint8_t *dirty;             /* per new activity: its statistics change */
    uint32_t *cases;            /* the cases holding a changed key, in order */
    size_t ncases;
    uint8_t *src;    /* per old activity (+1: none): it lost keys; the sweep recodes from it */
    int scratch;     /* recount every case instead of removing and adding the changed ones */
    int recode;      /* the timeline codes fit the new activities */
    int one_trace;   /* one trace per case (no per-pid traces) */
    int coded_count; /* the scratch count writes the codes, the sweep starts after it */
    int codes_ready; /* the codes match the new mapping before the recount (moved ones recoded) */
    int swept;       /* job runs */
    int relabel;     /* no changed key goes to or from no activity: the events with an activity,
                        hence every trace's event pairs, stay; only their labels change */
    struct iodfg_sweep_job job;
};

/* The cases to recount and whether counting from scratch is cheaper. 0 or -1 (memory). */
static int plan_update(struct iodfg_analysis *an, struct inc_update *u, struct iodfg_error *err)
{
    const struct iodfg_mapping *map = u->map;
    u->cases = cases_of(an, an->act, NULL, u->key_changed, &u->ncases);
    u->src = calloc((size_t)map->nactivities + 1, 1);
    if (!u->cases || !u->src || iodfg_stats_resize(&an->stats, map->nactivities, err)) {
        return -1;
    }
    an->dfg.nactivities = map->nactivities;
    an->last.cases_recounted = u->ncases;
    // when the changed cases hold most events, one count from scratch beats removing and adding
    const uint64_t *off = iodfg_eventlog_case_offsets(an->log);
    uint64_t moved_events = 0;
    for (size_t i = 0; i < u->ncases; i++) {
        moved_events += off[u->cases[i] + 1] - off[u->cases[i]];
    }
    u->scratch = 2 * moved_events > iodfg_eventlog_event_count(an->log);
    u->relabel = 1;
    for (uint32_t k = 0; k < an->nkeys; k++) {
        if (u->key_changed[k]) {
            u->src[an->act[k] == IODFG_NO_ACTIVITY ? map->nactivities : an->act[k]] = 1;
            u->relabel &= an->act[k] != IODFG_NO_ACTIVITY && u->nact[k] != IODFG_NO_ACTIVITY;
        }
    }
    u->recode = an->codes && map->nactivities <= IODFG_CODE_MAX_ACT;
    u->one_trace = !an->sel.per_pid || !iodfg_eventlog_columns(an->log)->pid;
    // a recount from scratch of one trace per case writes the codes of the selected events on
    // the way (the others keep theirs), and the sweep starts after it; otherwise the sweep runs
    // meanwhile and recodes first
    u->coded_count = u->scratch && u->one_trace && u->recode && an->codes_valid;
    return 0;
}

/* sw (NULL allowed) limited to the span of the timeline that holds the dirty activities'
 * points. The key spans are made on the first update, so that a session that never updates
 * (the CLI's) does not pay a pass over the timeline for them; without them (out of memory) the
 * sweep covers the whole timeline, with the same results. */
static struct iodfg_sweep *limit_sweep(struct iodfg_analysis *an, struct iodfg_sweep *sw)
{
    if (sw && !an->key_span) {
        an->key_span = iodfg_sweep_key_spans(&an->tl, an->log, NULL);
    }
    if (sw && an->key_span) {
        iodfg_sweep_limit(sw, an->key_span, an->nkeys);
    }
    return sw;
}

/* Start the sweep of the dirty activities beside the recount (it recodes the moved keys'
 * events first). 0 or -1. */
static int start_sweep(struct iodfg_analysis *an, struct inc_update *u, struct iodfg_error *err)
{
    uint16_t *codes = u->recode ? an->codes : NULL;
    int recode_all = u->recode && (!an->codes_valid || u->scratch);
    struct iodfg_sweep *sw = limit_sweep(
        an, iodfg_sweep_new(&an->stats, an->log, &an->tl, codes, recode_all, an->bits, u->nact,
                            u->dirty, an->moved, u->scratch ? NULL : u->src, err));
    if (sw && u->recode && !recode_all) {
        // only the moved events: recoded here, so that the statistics walk reads the codes
        iodfg_sweep_recode_now(sw);
        u->codes_ready = 1;
    }
    if (iodfg_sweep_job_start(&u->job, sw)) {
        return -1;
    }
    an->codes_valid = u->recode;
    u->swept = 1;
    return 0;
}

/* Count every selected case anew (every edge slot is made anew, so every edge is touched; the
 * histograms are counted anew). 0 or -1. */
static int recount_all(struct iodfg_analysis *an, struct inc_update *u, struct iodfg_error *err)
{
    iodfg_hstore_clear(&an->hs);
    iodfg_dfg_clear(&an->dfg);
    an->dfg.nactivities = u->map->nactivities;
    an->last.cases_recounted = 0;
    for (uint32_t c = 0; c < an->ncases; c++) {
        uint64_t lo, hi;
        if (!iodfg_trace_case_range(an->log, &an->sel, c, &lo, &hi)) {
            continue;
        }
        an->last.cases_recounted++;
        if (!u->one_trace &&
            iodfg_dfg_count_case(&an->dfg, an->log, u->nact, lo, hi, an->sel.per_pid, 1, err)) {
            return -1;
        }
    }
    // one trace per case: count on two threads with the large groups' histograms, so that
    // the statistics walk below needs one pass
    an->codes_valid = an->codes_valid && !u->coded_count; // half written until counted
    if (u->one_trace &&
        iodfg_dfg_count_hist(&an->dfg, an->log, u->nact, &an->sel, &an->stats, u->dirty, &an->hs,
                             u->coded_count ? an->codes : NULL, err)) {
        return -1;
    }
    if (u->coded_count) {
        if (iodfg_sweep_job_start(
                &u->job,
                limit_sweep(an, iodfg_sweep_new(&an->stats, an->log, &an->tl, an->codes, 0,
                                                an->bits, u->nact, u->dirty, NULL, NULL, err)))) {
            return -1;
        }
        an->codes_valid = 1;
        u->swept = 1;
    }
    return 0;
}

/* Subtract the old traces of the changed cases, then add the new ones. 0 or -1. */
static int recount_changed(struct iodfg_analysis *an, const struct inc_update *u,
                           struct iodfg_error *err)
{
    for (int pass = 0; pass < 2; pass++) {
        for (size_t i = 0; i < u->ncases; i++) {
            uint64_t lo, hi;
            if (iodfg_trace_case_range(an->log, &an->sel, u->cases[i], &lo, &hi) &&
                iodfg_dfg_count_case(&an->dfg, an->log, pass ? u->nact : an->act, lo, hi,
                                     an->sel.per_pid, pass ? 1 : -1, err)) {
                return -1;
            }
        }
    }
    return 0;
}

/* Per listed case i (cases, in order): the events of the keys with pick[act[k]] lie in
 * [span[2i], span[2i+1]). Malloc'd, NULL when out of memory. */
static uint64_t *pick_spans(const struct iodfg_analysis *an, const uint32_t *act,
                            const uint8_t *pick, const uint32_t *cases, size_t ncases)
{
    uint64_t *per_case = malloc(((size_t)an->ncases + 1) * 2 * sizeof(*per_case));
    uint64_t *span = malloc((ncases + 1) * 2 * sizeof(*span));
    if (!per_case || !span) {
        free(per_case);
        free(span);
        return NULL;
    }
    for (uint32_t c = 0; c < an->ncases; c++) {
        per_case[2 * (size_t)c] = UINT64_MAX;
        per_case[2 * (size_t)c + 1] = 0;
    }
    for (uint32_t k = 0; k < an->nkeys; k++) {
        if (act[k] == IODFG_NO_ACTIVITY || !pick[act[k]]) {
            continue;
        }
        for (uint64_t j = an->kc_off[k]; j < an->kc_off[k + 1]; j++) {
            uint64_t *pc = &per_case[2 * (size_t)an->kc[j]];
            pc[0] = an->kc_span[2 * j] < pc[0] ? an->kc_span[2 * j] : pc[0];
            pc[1] = an->kc_span[2 * j + 1] > pc[1] ? an->kc_span[2 * j + 1] : pc[1];
        }
    }
    for (size_t i = 0; i < ncases; i++) {
        span[2 * i] = per_case[2 * (size_t)cases[i]];
        span[2 * i + 1] = per_case[2 * (size_t)cases[i] + 1];
    }
    free(per_case);
    return span;
}

/* Whether the gap median of touched edge e is to be found anew: always after a recount from
 * scratch (every slot is new); else when the update only relabels events, an edge between
 * activities (or ●) that did not change has the same event pairs as before, and its median. */
static int edge_changed(const struct inc_update *u, const struct iodfg_dfg_edge *e)
{
    uint32_t na = u->map->nactivities;
    return u->scratch || !u->relabel || (e->from < na && u->dirty[e->from]) ||
           (e->to < na && u->dirty[e->to]);
}

/* Edge medians and durations of what changed: every occurrence of a changed edge lies in a
 * case holding its source activity (or its target, for edges from ●); durations lie in cases
 * holding the activity. Scans just those cases. 0 or -1. */
static int rescan_touched(struct iodfg_analysis *an, const struct inc_update *u,
                          struct iodfg_error *err)
{
    uint32_t nacts = u->map->nactivities;
    size_t ne = an->dfg.nedges, nscan = 0;
    uint8_t *edge_dirty = malloc(ne ? ne : 1);
    uint8_t *pick = calloc((size_t)nacts + 1, 1);
    uint32_t *scan_cases = NULL;
    uint64_t *span = NULL;
    int rc = -1;
    if (!edge_dirty || !pick) {
        iodfg_error_set(err, IODFG_E_NOMEM, "out of memory for the update");
        goto out;
    }
    memcpy(pick, u->dirty, nacts);
    for (size_t i = 0; i < ne; i++) {
        const struct iodfg_dfg_edge *e = &an->dfg.edges[i];
        edge_dirty[i] = an->dfg.touched[i] && edge_changed(u, e);
        an->last.edges_dirty += edge_dirty[i];
        uint32_t from = e->from == IODFG_NODE_START ? e->to : e->from;
        if (edge_dirty[i] && from < nacts) {
            pick[from] = 1;
        }
    }
    scan_cases = cases_of(an, u->nact, pick, NULL, &nscan);
    // the walk's span in each case: the dirty activities' events (their durations, the gaps to
    // them) and those of the sources of changed edges to others (the gaps after them)
    memcpy(pick, u->dirty, nacts);
    for (size_t i = 0; i < ne; i++) {
        const struct iodfg_dfg_edge *e = &an->dfg.edges[i];
        if (edge_dirty[i] && e->from < nacts && e->to < nacts && !u->dirty[e->to]) {
            pick[e->from] = 1;
        }
    }
    span = scan_cases ? pick_spans(an, u->nact, pick, scan_cases, nscan) : NULL;
    if (span && !iodfg_stats_scan_spans(&an->stats, &an->dfg, an->log, u->nact, &an->sel,
                                        scan_cases, nscan, span, u->dirty, 0, edge_dirty, &an->hs,
                                        u->coded_count || u->codes_ready ? an->codes : NULL, err)) {
        rc = 0;
    }
out:
    free(edge_dirty);
    free(pick);
    free(scan_cases);
    free(span);
    return rc;
}

int iodfg_analysis_update_inc(struct iodfg_analysis *an, const struct iodfg_mapping *map,
                              const uint8_t *key_changed, uint8_t *dirty, struct iodfg_error *err)
{
    struct inc_update u = {
        .map = map, .nact = map->activity_of_key, .key_changed = key_changed, .dirty = dirty};
    int rc = -1;
    if (plan_update(an, &u, err)) {
        goto out;
    }
    if (!u.scratch) {
        mark_moved(an, u.cases, u.ncases, key_changed, 1);
    }
    iodfg_stats_aggregate(&an->stats, an->sums, u.nact, an->nkeys, dirty);
    if (!u.coded_count && start_sweep(an, &u, err)) {
        goto out;
    }
    if (an->dfg.nedges) {
        memset(an->dfg.touched, 0, an->dfg.nedges);
    }
    if (u.scratch ? recount_all(an, &u, err) : recount_changed(an, &u, err)) {
        goto out;
    }
    iodfg_dfg_finish_means(&an->dfg);
    if (!u.scratch && iodfg_hstore_move(&an->hs, &an->dfg, an->log, an->act, u.nact, &an->sel,
                                        u.cases, u.ncases, err)) {
        goto out;
    }
    rc = rescan_touched(an, &u, err);
out:
    if (u.swept) {
        iodfg_sweep_job_finish(&u.job, &an->stats);
    }
    if (u.cases && !u.scratch) {
        mark_moved(an, u.cases, u.ncases, key_changed, 0);
    }
    if (rc && err && !err->code) {
        iodfg_error_set(err, IODFG_E_NOMEM, "out of memory for the update");
    }
    free(u.cases);
    free(u.src);
    return rc;
}
