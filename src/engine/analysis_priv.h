/* SPDX-License-Identifier: MIT */
/* The incremental analysis' state, shared by its update (analysis.c) and its pure-rename
 * shortcut (analysis_rename.c). */
#ifndef IODFG_ENGINE_ANALYSIS_PRIV_H
#define IODFG_ENGINE_ANALYSIS_PRIV_H

#include <stddef.h>
#include <stdint.h>

#include "iodfg/analysis.h"
#include "iodfg/stats.h"
#include "iodfg/timeline.h"
#include "iodfg/trace.h"

#include "dfg_priv.h"
#include "keypairs.h"
#include "stats_priv.h"

struct iodfg_mapping;

/* The key sums of one selection (they depend on the selection, not on the mapping): a rebuild
 * for the current selection or the one before it (undo, redo, a filter toggled back) reuses
 * them instead of adding them up in its walk. The previous selection's results are kept with
 * them: a filter toggled back under the same mapping takes them back without a rebuild. */
struct iodfg_sums_memo {
    struct iodfg_key_sums *sums;
    struct iodfg_selection sel; /* sel.case_on is case_on */
    uint8_t *case_on;           /* owned copy, NULL: all cases */
    int valid;
    int results;                /* dfg, stats and hs are the selection's under the mapping act */
    uint32_t *act, nactivities; /* that mapping (nkeys entries) */
    struct iodfg_dfg dfg;
    struct iodfg_stats stats;
    struct iodfg_hstore hs;
};

struct iodfg_analysis {
    const struct iodfg_eventlog *log;
    unsigned flags; /* enum iodfg_analysis_flags */
    struct iodfg_selection sel;
    uint8_t *case_on; /* owned copy of sel.case_on (NULL = all) */
    uint32_t nkeys, ncases, nactivities;
    uint32_t *act; /* current activity of each key */
    struct iodfg_timeline tl;
    uint16_t *codes; /* per event: activity code under the current mapping and selection
                        (NULL while nactivities > IODFG_CODE_MAX_ACT) */
    int codes_valid; /* codes match act and sel */
    uint64_t *moved; /* per event: its key changed in the running update (scratch, kept zero) */
    uint64_t *bits;  /* selected events */
    struct iodfg_key_sums *sums;    /* per key, over the selection: memo[cur].sums */
    struct iodfg_sums_memo memo[2]; /* the selection's key sums and the previous selection's */
    int cur;
    uint64_t *kc_off; /* nkeys+1: cases holding key k are kc[kc_off[k]..kc_off[k+1]) */
    uint32_t *kc;
    uint64_t *kc_span;  /* per kc entry j: its case's events of the key in [2j, 2j+1) */
    uint8_t *case_mark; /* ncases scratch */
    uint64_t *key_span; /* per key: the range of timeline points of its events (2 per key) */
    struct iodfg_keypairs pairs; /* the selection's key pairs, made by the first rule edit */
    struct iodfg_dfg dfg;
    struct iodfg_stats stats;
    struct iodfg_hstore hs; /* histograms of the large percentile groups of dfg and stats */
    struct iodfg_analysis_info last;
    int adopted; /* dfg and stats are a whole job's (iodfg_analysis_adopt): update = rebuild */
};

/* Per event, its activity code under the current mapping and selection (stats_priv.h's
 * IODFG_CODE_*), when the last computation wrote them; else NULL. */
const uint16_t *iodfg_analysis_event_codes(const struct iodfg_analysis *an);

/* The memos (analysis_memo.c). Point an->sums at the memo of the current selection: 1 when its
 * sums are known, 0 when they are to be made (in the other memo when the current one is in use,
 * the previous selection's being dropped). */
int iodfg_memo_sums_recall(struct iodfg_analysis *an);
/* The current memo's sums were made for the current selection: keep a copy of it. */
void iodfg_memo_sums_remember(struct iodfg_analysis *an);
/* Swap the results (DFG, statistics, kept histograms) of an and m. */
void iodfg_memo_results_swap(struct iodfg_analysis *an, struct iodfg_sums_memo *m);
/* Before the selection changes: the results of the current one go to its memo. 1 when they
 * went. */
int iodfg_memo_results_stash(struct iodfg_analysis *an);
/* The results of the new current selection taken back when its memo holds them under the
 * current mapping: 1 when taken, 0 when they are to be computed. */
int iodfg_memo_results_recall(struct iodfg_analysis *an);

/* A pure rename: when the new mapping is the old one followed by a one-to-one relabelling of the
 * activities (every key keeps its events' partition), the DFG and statistics are the old ones
 * relabelled; nothing is recounted. Returns 1 when applied, 0 when map is no rename, -1 when out
 * of memory (nothing changed). */
int iodfg_analysis_try_rename(struct iodfg_analysis *an, const struct iodfg_mapping *map,
                              struct iodfg_error *err);

/* An edit recounted incrementally (analysis_update.c): only the cases holding a changed key
 * (key_changed) are recounted, only the dirty activities swept and rescanned; the caller checked
 * that map extends the current mapping and falls back to a full rebuild on failure. 0 or -1. */
int iodfg_analysis_update_inc(struct iodfg_analysis *an, const struct iodfg_mapping *map,
                              const uint8_t *key_changed, uint8_t *dirty, struct iodfg_error *err);

/* The full computation of act (nact activities) over sel into g, st and hs (NULL: no kept
 * histograms) with scratch of its own (sums: nkeys entries, those of sel when sums_known), for a
 * thread other than the analysis' owner: it reads only the log, the timeline, the sizes and the
 * flags, which never change, so the owner may read and update the analysis meanwhile. 0 or -1. */
int iodfg_analysis_compute_act(const struct iodfg_analysis *an, const struct iodfg_selection *sel,
                               const uint32_t *act, uint32_t nact, struct iodfg_key_sums *sums,
                               int sums_known, struct iodfg_dfg *g, struct iodfg_stats *st,
                               struct iodfg_hstore *hs, struct iodfg_error *err);
/* Take r's results (made by iodfg_analysis_compute_act for the current selection under act) as
 * the analysis' own, as a full rebuild would have made them; r gets the previous ones. */
void iodfg_analysis_take(struct iodfg_analysis *an, const uint32_t *act, uint32_t nact,
                         struct iodfg_sums_memo *r);

#endif
