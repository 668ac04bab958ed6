/* SPDX-License-Identifier: MIT */
/* Partial results of a session over part of a log's cases, and their exact combination: the
 * decomposable key sums, the rates' sums folded part after part, the DFG's edges added in case
 * order (doc/mpi.md). */
#include "config.h"

#include "iodfg/partial.h"

#include <stdlib.h>
#include <string.h>

#include "iodfg/analysis.h"
#include "iodfg/dfg.h"
#include "iodfg/error.h"
#include "iodfg/eventlog.h"
#include "iodfg/mapping.h"
#include "iodfg/session.h"
#include "iodfg/stats.h"

#include "analysis_priv.h"
#include "dfg_priv.h"
#include "keysums.h"
#include "stats_priv.h"

/* The session's own key sums over its selection, which its last rebuild made (or recalled): the
 * sums of its selected events added in event order (analysis_priv.h). */
static const struct iodfg_key_sums *session_sums(const struct iodfg_session *s)
{
    return iodfg_session_analysis(s)->sums;
}

int iodfg_partial_keys(const struct iodfg_session *s, struct iodfg_partial_key *out,
                       struct iodfg_error *err)
{
    (void)err;
    const struct iodfg_key_sums *sums = session_sums(s);
    uint32_t nkeys = iodfg_eventlog_key_count(iodfg_session_log(s));
    for (uint32_t k = 0; k < nkeys; k++) {
        const struct iodfg_key_sums *ks = &sums[k];
        out[k] =
            (struct iodfg_partial_key){ks->count, ks->dur_n,      ks->dr_n,      ks->dur_sum_ns,
                                       ks->bytes, ks->dur_min_ns, ks->dur_max_ns};
    }
    return 0;
}

void iodfg_partial_keys_add(struct iodfg_partial_key *dst, const struct iodfg_partial_key *src,
                            uint32_t nkeys)
{
    for (uint32_t k = 0; k < nkeys; k++) {
        struct iodfg_partial_key *d = &dst[k];
        const struct iodfg_partial_key *t = &src[k];
        d->count += t->count;
        d->dur_n += t->dur_n;
        d->dr_n += t->dr_n;
        d->dur_sum_ns = iodfg_sat_add(d->dur_sum_ns, t->dur_sum_ns);
        d->bytes = iodfg_sat_add(d->bytes, t->bytes);
        d->dur_min_ns = t->dur_min_ns < d->dur_min_ns ? t->dur_min_ns : d->dur_min_ns;
        d->dur_max_ns = t->dur_max_ns > d->dur_max_ns ? t->dur_max_ns : d->dur_max_ns;
    }
}

/* Go on with the sums of the keys marked in refold over the selected events, in event order. */
static void dr_refold(const struct iodfg_session *s, const uint8_t *refold, double *sum)
{
    const struct iodfg_analysis *an = iodfg_session_analysis(s);
    const uint64_t *bits = an->bits; // the selected events (the last rebuild's)
    const struct iodfg_columns *col = iodfg_eventlog_columns(an->log);
    uint64_t n = iodfg_eventlog_event_count(an->log);
    for (uint64_t e = 0; col->dur_ns && col->size && col->key && e < n; e++) {
        if (!(bits[e / 64] >> (e & 63) & 1) || !refold[col->key[e]]) {
            continue;
        }
        int64_t d = col->dur_ns[e], z = col->size[e];
        // the term iodfg_key_sums_add adds, in the order it adds them
        if (z == IODFG_UNKNOWN || d == IODFG_UNKNOWN || d <= 0) {
            continue;
        }
        sum[col->key[e]] += (double)z * 1e9 / (double)d;
    }
}

int iodfg_partial_dr_fold(const struct iodfg_session *s, double *sum, uint8_t *has,
                          struct iodfg_error *err)
{
    const struct iodfg_key_sums *own = session_sums(s);
    uint32_t nkeys = iodfg_eventlog_key_count(iodfg_session_log(s));
    uint8_t *refold = NULL;
    for (uint32_t k = 0; k < nkeys; k++) {
        if (!own[k].dr_n) {
            continue;
        }
        if (!has[k]) {
            // from 0, the session's own sum is the very fold: its rates added in event order
            sum[k] = own[k].dr_sum;
            has[k] = 1;
            continue;
        }
        refold = refold ? refold : calloc((size_t)nkeys + 1, 1);
        if (!refold) {
            return iodfg_error_set(err, IODFG_E_NOMEM, NULL);
        }
        refold[k] = 1;
    }
    if (refold) {
        dr_refold(s, refold, sum);
    }
    free(refold);
    return 0;
}

int iodfg_partial_stats(struct iodfg_stats *st, const struct iodfg_mapping *map,
                        const struct iodfg_partial_key *keys, const double *dr_sum,
                        const uint64_t *act_cases, struct iodfg_error *err)
{
    struct iodfg_key_sums *sums = malloc(((size_t)map->nkeys + 1) * sizeof(*sums));
    if (!sums || iodfg_stats_resize(st, map->nactivities, err)) {
        free(sums);
        return iodfg_error_set(err, IODFG_E_NOMEM, NULL);
    }
    for (uint32_t k = 0; k < map->nkeys; k++) {
        const struct iodfg_partial_key *p = &keys[k];
        sums[k] = (struct iodfg_key_sums){p->count, p->dur_n,      p->dr_n,       p->dur_sum_ns,
                                          p->bytes, p->dur_min_ns, p->dur_max_ns, dr_sum[k]};
    }
    iodfg_stats_reset(st);
    iodfg_stats_aggregate(st, sums, map->activity_of_key, map->nkeys, NULL);
    for (uint32_t a = 0; a < map->nactivities; a++) {
        st->act[a].cases = act_cases[a];
    }
    free(sums);
    return 0;
}

void iodfg_partial_stats_finish(struct iodfg_stats *st)
{
    iodfg_stats_finish(st);
}

int iodfg_partial_dfg_add(struct iodfg_dfg *g, uint32_t nact, const struct iodfg_dfg_edge *edges,
                          size_t n, uint64_t traces, struct iodfg_error *err)
{
    g->nactivities = nact;
    for (size_t i = 0; i < n; i++) {
        const struct iodfg_dfg_edge *e = &edges[i];
        struct iodfg_dfg_edge *d = iodfg_dfg_slot(g, e->from, e->to);
        if (!d) {
            return iodfg_error_set(err, IODFG_E_NOMEM, NULL);
        }
        d->count += e->count;
        d->cases += e->cases;
        d->gap_n += e->gap_n;
        d->gap_sum_ns = iodfg_sat_add(d->gap_sum_ns, e->gap_sum_ns);
    }
    g->traces += traces;
    return 0;
}

void iodfg_partial_dfg_finish(struct iodfg_dfg *g, const int64_t *gap_median)
{
    iodfg_dfg_finish_means(g);
    for (size_t i = 0; gap_median && i < g->nedges; i++) {
        g->edges[i].gap_median_ns = gap_median[i];
    }
}
