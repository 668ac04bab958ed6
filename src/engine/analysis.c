/* SPDX-License-Identifier: MIT */
/* Incremental engine: a per-key case index lets a rule edit recount only the affected cases.
 * - A pure rename (the new mapping relabels activities one to one) only relabels the results.
 * - When the affected cases hold most events, the DFG is counted once from scratch instead of
 *   removing and adding every trace; with one trace per case on two threads, in a walk that also
 *   writes the events' activity codes for the concurrency sweep (which then starts) and counts
 *   the histograms of the large percentile groups, so that the statistics walk needs one pass
 *   (reading the codes instead of the keys).
 * - Histograms of the large percentile groups are kept and moved with the recounted cases, so
 *   that the statistics walk after an edit needs one pass instead of two.
 * - A full computation (a new selection, a rebuild) with one trace per case counts the DFG on
 *   two threads in the fused walk that also adds the per-key sums, writes the activity codes
 *   (the sweep then starts without recoding) and counts the large groups' histograms (the
 *   statistics walk then needs one pass). With per-pid cases the key sums come from their own
 *   pass and the DFG from one walk, the sweep recoding meanwhile on a second thread.
 * - The key sums of the current and the previous selection are kept: a rebuild for either (a
 *   full recount, undo or redo of a filter) does not add them up again; and the results of the
 *   selection left: coming back to it under the same mapping takes them back (analysis_memo.c).
 */
#include "config.h"

#include "iodfg/analysis.h"

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

static int build_key_index(struct iodfg_analysis *an, struct iodfg_error *err)
{
    const uint32_t *key = iodfg_eventlog_columns(an->log)->key;
    const uint64_t *off = iodfg_eventlog_case_offsets(an->log);
    uint32_t *seen = calloc((size_t)an->nkeys + 1, sizeof(*seen));
    an->kc_off = calloc((size_t)an->nkeys + 2, sizeof(*an->kc_off));
    if (!seen || !an->kc_off) {
        free(seen);
        return iodfg_error_set(err, IODFG_E_NOMEM, "out of memory for the key index");
    }
    for (int pass = 0; pass < 2; pass++) {
        memset(seen, 0, (size_t)an->nkeys * sizeof(*seen));
        for (uint32_t c = 0; c < an->ncases; c++) {
            for (uint64_t e = off[c]; e < off[c + 1]; e++) {
                uint32_t k = key[e];
                if (seen[k] == c + 1) {
                    if (pass) { // the case's entry of k was the last one filled
                        an->kc_span[2 * (an->kc_off[k] - 1) + 1] = e + 1;
                    }
                    continue;
                }
                seen[k] = c + 1;
                if (pass == 0) {
                    an->kc_off[k + 1]++;
                } else {
                    an->kc_span[2 * an->kc_off[k]] = e;
                    an->kc_span[2 * an->kc_off[k] + 1] = e + 1;
                    an->kc[an->kc_off[k]++] = c;
                }
            }
        }
        if (pass == 0) {
            for (uint32_t k = 0; k < an->nkeys; k++) {
                an->kc_off[k + 1] += an->kc_off[k];
            }
            an->kc = malloc((size_t)(an->kc_off[an->nkeys] + 1) * sizeof(*an->kc));
            an->kc_span = malloc((size_t)(an->kc_off[an->nkeys] + 1) * 2 * sizeof(*an->kc_span));
            if (!an->kc || !an->kc_span) {
                free(seen);
                return iodfg_error_set(err, IODFG_E_NOMEM, "out of memory for the key index");
            }
        }
    }
    // the fill pass advanced kc_off[k] to the start of k+1: shift back
    memmove(an->kc_off + 1, an->kc_off, (size_t)an->nkeys * sizeof(*an->kc_off));
    an->kc_off[0] = 0;
    free(seen);
    return 0;
}

static int set_sel(struct iodfg_analysis *an, const struct iodfg_selection *sel,
                   struct iodfg_error *err)
{
    uint8_t *on = NULL;
    if (sel->case_on) {
        on = malloc(an->ncases ? an->ncases : 1);
        if (!on) {
            return iodfg_error_set(err, IODFG_E_NOMEM, "out of memory for the selection");
        }
        memcpy(on, sel->case_on, an->ncases);
    }
    free(an->case_on);
    an->case_on = on;
    an->pairs.valid = 0; // they are the selection's
    an->sel = *sel;
    an->sel.case_on = on;
    return 0;
}

static int set_act(struct iodfg_analysis *an, const struct iodfg_mapping *map,
                   struct iodfg_error *err)
{
    if (map->nkeys != an->nkeys) {
        return iodfg_error_set(err, IODFG_E_ARG, "mapping has %u keys, the log %u", map->nkeys,
                               an->nkeys);
    }
    memcpy(an->act, map->activity_of_key, (size_t)an->nkeys * sizeof(*an->act));
    an->nactivities = map->nactivities;
    return 0;
}

int iodfg_analysis_fused_full = 1;

/* Whether full builds sweep for the maximum concurrency. */
static int sweeps(const struct iodfg_analysis *an)
{
    return !(an->flags & IODFG_ANALYSIS_NO_SWEEP);
}

/* Whether full builds find the percentiles (a job part's merge finds them over the job). */
static int finds_percentiles(const struct iodfg_analysis *an)
{
    return !(an->flags & IODFG_ANALYSIS_NO_PERCENTILES);
}

/* Whether compute_full counts one trace per case in the fused walk (which writes the codes). */
static int fused_walk(const struct iodfg_analysis *an, const struct iodfg_selection *sel)
{
    return iodfg_analysis_fused_full && (!sel->per_pid || !iodfg_eventlog_columns(an->log)->pid);
}

/* compute_full with one trace per case: the fused count first, then the sweep (meanwhile when
 * there are no codes) and the statistics walk. */
static int compute_fused(const struct iodfg_analysis *an, const struct iodfg_selection *sel,
                         const uint32_t *act, uint32_t nact, uint64_t *bits,
                         struct iodfg_key_sums *sums, int sums_known, uint16_t *codes,
                         struct iodfg_dfg *g, struct iodfg_stats *st, struct iodfg_hstore *hs,
                         struct iodfg_error *err)
{
    struct iodfg_sweep_job job = {0};
    codes = nact <= IODFG_CODE_MAX_ACT ? codes : NULL;
    if (!codes && sweeps(an) &&
        iodfg_sweep_job_start(&job, iodfg_sweep_new(st, an->log, &an->tl, NULL, 0, bits, act, NULL,
                                                    NULL, NULL, err))) {
        return -1;
    }
    iodfg_dfg_clear(g);
    g->nactivities = nact;
    int rc = iodfg_dfg_count_full(g, an->log, act, sel, hs, codes, sums_known ? NULL : sums, err);
    iodfg_stats_aggregate(st, sums, act, an->nkeys, NULL);
    if (!rc && codes && sweeps(an) &&
        iodfg_sweep_job_start(&job, iodfg_sweep_new(st, an->log, &an->tl, codes, 0, bits, act, NULL,
                                                    NULL, NULL, err))) {
        rc = -1;
    }
    if (!rc) {
        iodfg_dfg_finish_means(g);
        rc = finds_percentiles(an) ? iodfg_stats_scan_kept(st, g, an->log, act, sel, NULL, 0, NULL,
                                                           0, NULL, hs, codes, err)
                                   : iodfg_stats_count_cases(st, an->log, act, sel, codes, err);
    }
    iodfg_sweep_job_finish(&job, st);
    return rc;
}

/* Full computation of act over sel into g and st, with bits, sums and codes (NULL: none) as
 * scratch (sums_known: sums are those of sel already, the fused count does not add them up);
 * the large groups' histograms go to hs (NULL: dropped). */
static int compute_full(const struct iodfg_analysis *an, const struct iodfg_selection *sel,
                        const uint32_t *act, uint32_t nact, uint64_t *bits,
                        struct iodfg_key_sums *sums, int sums_known, uint16_t *codes,
                        struct iodfg_dfg *g, struct iodfg_stats *st, struct iodfg_hstore *hs,
                        struct iodfg_error *err)
{
    if (hs) {
        iodfg_hstore_clear(hs);
    }
    iodfg_stats_fini(st);
    if (iodfg_stats_resize(st, nact, err)) {
        return -1;
    }
    iodfg_stats_select_bits(bits, an->log, sel);
    if (fused_walk(an, sel)) {
        return compute_fused(an, sel, act, nact, bits, sums, sums_known, codes, g, st, hs, err);
    }
    // the sweep (codes first) runs on a second thread meanwhile; it reads none of the sums
    struct iodfg_sweep_job job = {0};
    if (sweeps(an) &&
        iodfg_sweep_job_start(&job, iodfg_sweep_new(st, an->log, &an->tl, codes, codes != NULL,
                                                    bits, act, NULL, NULL, NULL, err))) {
        return -1;
    }
    // one trace per case: the key sums are added in the walk that counts the DFG (the cases'
    // ranges are exactly the selected events, in event order)
    int rc = 0, fused = !sel->per_pid || !iodfg_eventlog_columns(an->log)->pid;
    if (fused) {
        iodfg_key_sums_clear(sums, an->nkeys);
    } else {
        iodfg_stats_key_sums(sums, an->nkeys, an->log, bits);
    }
    iodfg_dfg_clear(g);
    g->nactivities = nact;
    for (uint32_t c = 0; c < an->ncases && !rc; c++) {
        uint64_t lo, hi;
        if (iodfg_trace_case_range(an->log, sel, c, &lo, &hi) &&
            (fused ? iodfg_dfg_count_case_sums(g, an->log, act, lo, hi, sums, err)
                   : iodfg_dfg_count_case(g, an->log, act, lo, hi, sel->per_pid, 1, err))) {
            rc = -1;
        }
    }
    iodfg_stats_aggregate(st, sums, act, an->nkeys, NULL);
    if (!rc) {
        iodfg_dfg_finish_means(g);
        rc = finds_percentiles(an) ? iodfg_stats_scan_kept(st, g, an->log, act, sel, NULL, 0, NULL,
                                                           0, NULL, hs, NULL, err)
                                   : iodfg_stats_count_cases(st, an->log, act, sel, NULL, err);
    }
    iodfg_sweep_job_finish(&job, st);
    return rc;
}

static int rebuild(struct iodfg_analysis *an, struct iodfg_error *err)
{
    an->adopted = 0;
    memset(&an->last, 0, sizeof(an->last));
    an->last.full = 1;
    an->last.keys_changed = an->nkeys;
    an->last.cases_recounted = an->ncases;
    an->last.activities_dirty = an->nactivities;
    an->codes_valid = an->codes && an->nactivities <= IODFG_CODE_MAX_ACT;
    int known = iodfg_memo_sums_recall(an);
    int rc = compute_full(an, &an->sel, an->act, an->nactivities, an->bits, an->sums, known,
                          an->codes_valid ? an->codes : NULL, &an->dfg, &an->stats,
                          finds_percentiles(an) ? &an->hs : NULL, err);
    if (!rc) {
        iodfg_memo_sums_remember(an);
    } else {
        an->memo[an->cur].valid = 0;
    }
    // the codes are written by the fused walk or else by the sweep
    an->codes_valid = an->codes_valid && !rc && (fused_walk(an, &an->sel) || sweeps(an));
    an->last.edges_dirty = an->dfg.nedges;
    return rc;
}

struct iodfg_analysis *iodfg_analysis_new(const struct iodfg_eventlog *log,
                                          const struct iodfg_mapping *map,
                                          const struct iodfg_selection *sel,
                                          struct iodfg_error *err)
{
    return iodfg_analysis_new_with(log, map, sel, 0, err);
}

struct iodfg_analysis *iodfg_analysis_new_with(const struct iodfg_eventlog *log,
                                               const struct iodfg_mapping *map,
                                               const struct iodfg_selection *sel, unsigned flags,
                                               struct iodfg_error *err)
{
    const struct iodfg_columns *col = iodfg_eventlog_columns(log);
    if (!col->start_ns || !col->key) {
        iodfg_error_set(err, IODFG_E_ARG, "the event log lacks the start or key column");
        return NULL;
    }
    struct iodfg_analysis *an = calloc(1, sizeof(*an));
    if (!an) {
        iodfg_error_set(err, IODFG_E_NOMEM, "out of memory for the analysis");
        return NULL;
    }
    an->log = log;
    an->flags = flags;
    an->nkeys = iodfg_eventlog_key_count(log);
    an->ncases = iodfg_eventlog_case_count(log);
    iodfg_dfg_init(&an->dfg);
    iodfg_stats_init(&an->stats);
    iodfg_hstore_init(&an->hs);
    uint64_t n = iodfg_eventlog_event_count(log);
    an->act = malloc(((size_t)an->nkeys + 1) * sizeof(*an->act));
    an->bits = iodfg_bigmem_alloc((size_t)((n + 63) / 64 + 1) * sizeof(*an->bits));
    for (int m = 0; m < 2; m++) {
        an->memo[m].sums = malloc(((size_t)an->nkeys + 1) * sizeof(*an->sums));
        an->memo[m].act = malloc(((size_t)an->nkeys + 1) * sizeof(*an->act));
        iodfg_dfg_init(&an->memo[m].dfg);
        iodfg_stats_init(&an->memo[m].stats);
        iodfg_hstore_init(&an->memo[m].hs);
    }
    an->sums = an->memo[0].sums;
    an->case_mark = calloc((size_t)an->ncases + 1, 1);
    an->moved = calloc((size_t)((n + 63) / 64 + 1), sizeof(*an->moved));
    if (!an->act || !an->bits || !an->memo[0].sums || !an->memo[1].sums || !an->memo[0].act ||
        !an->memo[1].act || !an->case_mark || !an->moved) {
        iodfg_error_set(err, IODFG_E_NOMEM, "out of memory for the analysis");
        goto fail;
    }
    if (set_sel(an, sel, err) || set_act(an, map, err) || build_key_index(an, err) ||
        iodfg_timeline_build(&an->tl, log, err)) {
        goto fail;
    }
    an->codes = iodfg_bigmem_alloc((size_t)(n ? n : 1) * sizeof(*an->codes));
    if (!an->codes) {
        iodfg_error_set(err, IODFG_E_NOMEM, "out of memory for the analysis");
        goto fail;
    }
    if (rebuild(an, err)) {
        goto fail;
    }
    return an;
fail:
    iodfg_analysis_free(an);
    return NULL;
}

void iodfg_analysis_free(struct iodfg_analysis *an)
{
    if (!an) {
        return;
    }
    free(an->case_on);
    free(an->act);
    iodfg_timeline_fini(&an->tl);
    free(an->codes);
    free(an->moved);
    free(an->bits);
    for (int m = 0; m < 2; m++) {
        free(an->memo[m].sums);
        free(an->memo[m].case_on);
        free(an->memo[m].act);
        iodfg_dfg_fini(&an->memo[m].dfg);
        iodfg_stats_fini(&an->memo[m].stats);
        iodfg_hstore_fini(&an->memo[m].hs);
    }
    free(an->kc_off);
    free(an->kc);
    free(an->kc_span);
    free(an->case_mark);
    free(an->key_span);
    iodfg_keypairs_fini(&an->pairs);
    iodfg_dfg_fini(&an->dfg);
    iodfg_stats_fini(&an->stats);
    iodfg_hstore_fini(&an->hs);
    free(an);
}

int iodfg_analysis_update(struct iodfg_analysis *an, const struct iodfg_mapping *map,
                          const uint32_t *changed, size_t nchanged, struct iodfg_error *err)
{
    if (an->adopted) { // the results are not this log's: nothing to update incrementally
        return iodfg_analysis_rebuild(an, map, err);
    }
    if (map->nkeys != an->nkeys || map->nactivities < an->nactivities) {
        return iodfg_error_set(err, IODFG_E_ARG,
                               "mapping does not extend the current one (%u keys, %u activities)",
                               map->nkeys, map->nactivities);
    }
    const uint32_t *nact = map->activity_of_key;
    uint8_t *key_changed = calloc((size_t)an->nkeys + 1, 1);
    uint8_t *dirty = calloc((size_t)map->nactivities + 1, 1);
    if (!key_changed || !dirty) {
        free(key_changed);
        free(dirty);
        return iodfg_error_set(err, IODFG_E_NOMEM, "out of memory for the update");
    }
    memset(&an->last, 0, sizeof(an->last));
    size_t n = changed ? nchanged : an->nkeys;
    for (size_t i = 0; i < n; i++) {
        uint32_t k = changed ? changed[i] : (uint32_t)i;
        if (k >= an->nkeys || an->act[k] == nact[k] || key_changed[k]) {
            continue;
        }
        key_changed[k] = 1;
        an->last.keys_changed++;
        if (an->act[k] != IODFG_NO_ACTIVITY) {
            dirty[an->act[k]] = 1;
        }
        if (nact[k] != IODFG_NO_ACTIVITY) {
            dirty[nact[k]] = 1;
        }
    }
    for (uint32_t a = 0; a < map->nactivities; a++) {
        an->last.activities_dirty += dirty[a];
    }
    int rc = 0;
    int renamed = an->last.keys_changed ? iodfg_analysis_try_rename(an, map, err) : 0;
    if (renamed < 0) {
        rc = -1;
    } else if (renamed) {
        an->last.cases_recounted = 0;
    } else if (an->last.keys_changed) {
        rc = iodfg_analysis_update_inc(an, map, key_changed, dirty, err);
    } else {
        rc = iodfg_stats_resize(&an->stats, map->nactivities, err);
        an->dfg.nactivities = map->nactivities;
    }
    free(key_changed);
    free(dirty);
    memcpy(an->act, nact, (size_t)an->nkeys * sizeof(*an->act));
    an->nactivities = map->nactivities;
    if (rc) {
        // the incremental state is half updated: restore consistency with a full rebuild
        struct iodfg_analysis_info keep = an->last;
        if (rebuild(an, NULL)) {
            an->last = keep;
        }
    }
    return rc;
}

/* A new selection, and mapping map (NULL: the same): the results of the one left are kept,
 * those of the new one taken back when kept, else rebuilt. */
static int reselect(struct iodfg_analysis *an, const struct iodfg_mapping *map,
                    const struct iodfg_selection *sel, struct iodfg_error *err)
{
    int stashed = iodfg_memo_results_stash(an);
    if ((map && set_act(an, map, err)) || set_sel(an, sel, err)) {
        if (stashed) { // the selection stays: so do its results
            iodfg_memo_results_swap(an, &an->memo[an->cur]);
            an->memo[an->cur].results = 0;
        }
        return -1;
    }
    return iodfg_memo_results_recall(an) ? 0 : rebuild(an, err);
}

int iodfg_analysis_set_selection(struct iodfg_analysis *an, const struct iodfg_selection *sel,
                                 struct iodfg_error *err)
{
    return reselect(an, NULL, sel, err);
}

int iodfg_analysis_rebuild(struct iodfg_analysis *an, const struct iodfg_mapping *map,
                           struct iodfg_error *err)
{
    if (set_act(an, map, err)) {
        return -1;
    }
    return rebuild(an, err);
}

int iodfg_analysis_reset(struct iodfg_analysis *an, const struct iodfg_mapping *map,
                         const struct iodfg_selection *sel, struct iodfg_error *err)
{
    return reselect(an, map, sel, err);
}

void iodfg_analysis_adopt(struct iodfg_analysis *an, struct iodfg_dfg *g, struct iodfg_stats *st)
{
    struct iodfg_dfg gt = an->dfg;
    an->dfg = *g;
    *g = gt;
    struct iodfg_stats stt = an->stats;
    an->stats = *st;
    *st = stt;
    iodfg_hstore_clear(&an->hs); // they counted this log's values
    an->codes_valid = 0;
    an->adopted = 1;
    an->memo[0].results = an->memo[1].results = 0;
}

uint64_t iodfg_analysis_key_events(const struct iodfg_analysis *an, uint32_t k)
{
    return k < an->nkeys ? an->sums[k].count : 0;
}

const struct iodfg_dfg *iodfg_analysis_dfg(const struct iodfg_analysis *an)
{
    return &an->dfg;
}

const struct iodfg_stats *iodfg_analysis_stats(const struct iodfg_analysis *an)
{
    return &an->stats;
}

const struct iodfg_selection *iodfg_analysis_selection(const struct iodfg_analysis *an)
{
    return &an->sel;
}

const struct iodfg_analysis_info *iodfg_analysis_last(const struct iodfg_analysis *an)
{
    return &an->last;
}

const struct iodfg_eventlog *iodfg_analysis_log(const struct iodfg_analysis *an)
{
    return an->log;
}

const struct iodfg_timeline *iodfg_analysis_timeline(const struct iodfg_analysis *an)
{
    return &an->tl;
}

const uint32_t *iodfg_analysis_activities(const struct iodfg_analysis *an)
{
    return an->act;
}

const uint16_t *iodfg_analysis_event_codes(const struct iodfg_analysis *an)
{
    return an->codes_valid ? an->codes : NULL;
}

int iodfg_analysis_compute(const struct iodfg_analysis *an, const struct iodfg_selection *sel,
                           struct iodfg_dfg *g, struct iodfg_stats *st, struct iodfg_error *err)
{
    uint64_t n = iodfg_eventlog_event_count(an->log);
    uint64_t *bits = malloc((size_t)((n + 63) / 64 + 1) * sizeof(*bits));
    struct iodfg_key_sums *sums = malloc(((size_t)an->nkeys + 1) * sizeof(*sums));
    int rc = -1;
    if (!bits || !sums) {
        iodfg_error_set(err, IODFG_E_NOMEM, "out of memory for the analysis");
    } else {
        rc = compute_full(an, sel, an->act, an->nactivities, bits, sums, 0, NULL, g, st, NULL, err);
    }
    free(bits);
    free(sums);
    return rc;
}

/* Bytes held by one set of results: a DFG, its statistics and their kept histograms. */
static size_t results_memory(const struct iodfg_dfg *g, const struct iodfg_stats *st,
                             const struct iodfg_hstore *hs)
{
    return g->cap * (sizeof(struct iodfg_dfg_edge) + 5) + g->index_cap * 4 +
           (size_t)st->nactivities * sizeof(struct iodfg_activity_stats) + iodfg_hstore_memory(hs);
}

size_t iodfg_analysis_memory(const struct iodfg_analysis *an)
{
    uint64_t n = iodfg_eventlog_event_count(an->log);
    size_t m = sizeof(*an);
    m += (size_t)an->nkeys * (sizeof(*an->act) + 2 * sizeof(*an->sums) + sizeof(*an->kc_off) +
                              (an->key_span ? 2 * sizeof(*an->key_span) : 0));
    m += (size_t)an->kc_off[an->nkeys] * (sizeof(*an->kc) + 2 * sizeof(*an->kc_span));
    m += (size_t)an->ncases * 4; /* case_on, case_mark, the memos' selections */
    m += (size_t)an->tl.npts * sizeof(*an->tl.pts) + (size_t)n * sizeof(*an->codes);
    m += (size_t)((n + 63) / 64) * 8 * 2; /* bits, moved */
    m += results_memory(&an->dfg, &an->stats, &an->hs) + iodfg_keypairs_memory(&an->pairs);
    for (int i = 0; i < 2; i++) { // the selections' kept results and their mappings
        const struct iodfg_sums_memo *r = &an->memo[i];
        m += (size_t)an->nkeys * sizeof(*r->act) + results_memory(&r->dfg, &r->stats, &r->hs);
    }
    return m;
}

int iodfg_analysis_compute_act(const struct iodfg_analysis *an, const struct iodfg_selection *sel,
                               const uint32_t *act, uint32_t nact, struct iodfg_key_sums *sums,
                               int sums_known, struct iodfg_dfg *g, struct iodfg_stats *st,
                               struct iodfg_hstore *hs, struct iodfg_error *err)
{
    uint64_t n = iodfg_eventlog_event_count(an->log);
    uint64_t *bits = malloc((size_t)((n + 63) / 64 + 1) * sizeof(*bits));
    if (!bits) {
        return iodfg_error_set(err, IODFG_E_NOMEM, "out of memory for the analysis");
    }
    int rc = compute_full(an, sel, act, nact, bits, sums, sums_known, NULL, g, st,
                          finds_percentiles(an) ? hs : NULL, err);
    free(bits);
    return rc;
}

void iodfg_analysis_take(struct iodfg_analysis *an, const uint32_t *act, uint32_t nact,
                         struct iodfg_sums_memo *r)
{
    iodfg_memo_results_swap(an, r);
    memcpy(an->act, act, (size_t)an->nkeys * sizeof(*an->act));
    an->nactivities = nact;
    an->adopted = 0;
    an->codes_valid = 0; // the codes are the old mapping's: the next update recodes them all
    memset(&an->last, 0, sizeof(an->last));
    an->last.full = 1;
    an->last.keys_changed = an->nkeys;
    an->last.cases_recounted = an->ncases;
    an->last.activities_dirty = nact;
    an->last.edges_dirty = an->dfg.nedges;
}
