/* SPDX-License-Identifier: MIT */
/* A rule edit that only renames activities: the results are relabelled, nothing is recounted. */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "iodfg/error.h"
#include "iodfg/eventlog.h"
#include "iodfg/mapping.h"

#include "analysis_priv.h"

/* Whether the new key -> activity nact is the old one relabelled one-to-one: then sig[a] is old
 * activity a's new label and inv[b] new activity b's old one (UINT32_MAX: none). */
static int is_relabelling(const struct iodfg_analysis *an, const uint32_t *nact, uint32_t *sig,
                          uint32_t *inv, uint32_t nb)
{
    memset(sig, 0xff, ((size_t)an->nactivities + 1) * sizeof(*sig));
    memset(inv, 0xff, ((size_t)nb + 1) * sizeof(*inv));
    for (uint32_t k = 0; k < an->nkeys; k++) {
        uint32_t a = an->act[k], b = nact[k];
        if ((a == IODFG_NO_ACTIVITY) != (b == IODFG_NO_ACTIVITY)) {
            return 0;
        }
        if (a == IODFG_NO_ACTIVITY) {
            continue;
        }
        if (sig[a] == UINT32_MAX && inv[b] == UINT32_MAX) {
            sig[a] = b;
            inv[b] = a;
        } else if (sig[a] != b) {
            return 0;
        }
    }
    return 1;
}

/* The DFG relabelled through sig into g2 (present edges in slot order); slot_of[i] = the new
 * slot of old slot i, SIZE_MAX for absent ones. 0 or -1 (memory). */
static int relabel_dfg(const struct iodfg_analysis *an, const uint32_t *sig, uint32_t nb,
                       struct iodfg_dfg *g2, size_t *slot_of)
{
    uint32_t na = an->nactivities;
    g2->nactivities = nb;
    for (size_t i = 0; i < an->dfg.nedges; i++) {
        const struct iodfg_dfg_edge *e = &an->dfg.edges[i];
        slot_of[i] = SIZE_MAX;
        if (!e->count) {
            continue;
        }
        uint32_t f = e->from < na ? sig[e->from] : e->from, t = e->to < na ? sig[e->to] : e->to;
        struct iodfg_dfg_edge *d = iodfg_dfg_slot(g2, f, t);
        if (!d) {
            return -1;
        }
        slot_of[i] = (size_t)(d - g2->edges);
        *d = *e;
        d->from = f;
        d->to = t;
        g2->stamp[slot_of[i]] = an->dfg.stamp[i];
    }
    g2->traces = an->dfg.traces;
    g2->next_stamp = an->dfg.next_stamp;
    return 0;
}

/* The activity statistics and kept histograms relabelled through inv into ns and nh;
 * activities without keys are empty. */
static void relabel_activities(const struct iodfg_analysis *an, const uint32_t *inv, uint32_t nb,
                               struct iodfg_activity_stats *ns, uint32_t **nh)
{
    for (uint32_t b = 0; b < nb; b++) {
        if (inv[b] != UINT32_MAX) {
            ns[b] = an->stats.act[inv[b]];
            nh[b] = inv[b] < an->hs.nact ? an->hs.act[inv[b]] : NULL;
        } else {
            memset(&ns[b], 0, sizeof(ns[b]));
            ns[b].mc_time_ns = ns[b].dur_min_ns = ns[b].dur_median_ns = IODFG_UNKNOWN;
            ns[b].dur_p95_ns = ns[b].dur_max_ns = IODFG_UNKNOWN;
        }
    }
}

/* The histogram store takes the relabelled activity histograms nh (nb of them) and moves the
 * edge histograms to their new slots; what has no new place is freed. */
static void adopt_histograms(struct iodfg_analysis *an, const uint32_t *sig, uint32_t **nh,
                             uint32_t nb, const size_t *slot_of)
{
    for (uint32_t a = 0; a < an->hs.nact; a++) {
        if (an->hs.act[a] && (a >= an->nactivities || sig[a] == UINT32_MAX)) {
            free(an->hs.act[a]); // an activity without keys keeps no values
            an->hs.count--;
        }
    }
    free(an->hs.act);
    an->hs.act = nh;
    an->hs.nact = nb;
    for (size_t i = 0; i < an->hs.nedge; i++) {
        uint32_t *h = an->hs.edge[i];
        an->hs.edge[i] = NULL;
        if (h && (i >= an->dfg.nedges || slot_of[i] == SIZE_MAX)) {
            free(h);
            an->hs.count--;
        } else if (h) {
            an->hs.edge[slot_of[i]] = h; // slot_of only moves slots down: slot_of[i] <= i
        }
    }
}

/* The timeline codes follow the labels (or are marked stale when they no longer fit). */
static void relabel_codes(struct iodfg_analysis *an, const uint32_t *sig, uint32_t na, uint32_t nb)
{
    if (!an->codes_valid || nb > IODFG_CODE_MAX_ACT) {
        an->codes_valid = 0;
        return;
    }
    uint64_t n = iodfg_eventlog_event_count(an->log);
    for (uint64_t e = 0; e < n; e++) {
        uint16_t c = an->codes[e];
        if (c < na) {
            an->codes[e] = (uint16_t)sig[c];
        }
    }
}

int iodfg_analysis_try_rename(struct iodfg_analysis *an, const struct iodfg_mapping *map,
                              struct iodfg_error *err)
{
    uint32_t na = an->nactivities, nb = map->nactivities;
    uint32_t *sig = malloc(((size_t)na + 1) * sizeof(*sig));
    uint32_t *inv = malloc(((size_t)nb + 1) * sizeof(*inv));
    struct iodfg_activity_stats *ns = malloc(((size_t)nb + 1) * sizeof(*ns));
    uint32_t **nh = calloc((size_t)nb + 1, sizeof(*nh));
    size_t *slot_of = malloc((an->dfg.nedges + 1) * sizeof(*slot_of));
    struct iodfg_dfg g2;
    iodfg_dfg_init(&g2);
    int rc = -1;
    if (!sig || !inv || !ns || !nh || !slot_of) {
        goto out;
    }
    rc = 0;
    if (!is_relabelling(an, map->activity_of_key, sig, inv, nb)) {
        goto out;
    }
    if (relabel_dfg(an, sig, nb, &g2, slot_of)) {
        rc = -1;
        goto out;
    }
    relabel_activities(an, inv, nb, ns, nh);
    adopt_histograms(an, sig, nh, nb, slot_of);
    nh = NULL;
    free(an->stats.act);
    an->stats.act = ns;
    an->stats.nactivities = nb;
    ns = NULL;
    iodfg_stats_finish(&an->stats);
    iodfg_dfg_fini(&an->dfg);
    an->dfg = g2;
    iodfg_dfg_init(&g2);
    relabel_codes(an, sig, na, nb);
    rc = 1;
out:
    if (rc < 0) {
        iodfg_error_set(err, IODFG_E_NOMEM, "out of memory for the update");
    }
    iodfg_dfg_fini(&g2);
    free(sig);
    free(inv);
    free(ns);
    free(nh);
    free(slot_of);
    return rc;
}
