/* SPDX-License-Identifier: MIT */
/* The key tables of a rule edit's first tier: per pair of keys, the directly-follows counts of
 * a selection (built once per selection, in one pass over its events); with the key sums they
 * give a new mapping's activity statistics that add up, and under a total mapping (no event
 * vanishes, so every trace keeps its pairs) its DFG's edge counts, without reading the events. */
#include "config.h"

#include "keypairs.h"

#include <stdlib.h>
#include <string.h>

#include "iodfg/dfg.h"
#include "iodfg/error.h"
#include "iodfg/eventlog.h"
#include "iodfg/forkjoin.h"
#include "iodfg/mapping.h"
#include "iodfg/stats.h"
#include "iodfg/trace.h"

#include "analysis_priv.h"
#include "dfg_priv.h"

static size_t hash_pair(uint32_t from, uint32_t to, size_t mask)
{
    uint64_t k = ((uint64_t)from << 32) | to;
    k ^= k >> 33;
    k *= 0xff51afd7ed558ccdULL;
    k ^= k >> 33;
    return (size_t)k & mask;
}

/* The slot of (from, to): its own, or the empty one where it goes. */
static struct iodfg_keypair *find(const struct iodfg_keypairs *kp, uint32_t from, uint32_t to)
{
    size_t mask = kp->cap - 1;
    for (size_t i = hash_pair(from, to, mask);; i = (i + 1) & mask) {
        struct iodfg_keypair *p = &kp->slot[i];
        if (!p->count || (p->from == from && p->to == to)) {
            return p;
        }
    }
}

static int grow(struct iodfg_keypairs *kp)
{
    size_t cap = kp->cap ? kp->cap * 2 : 1024;
    struct iodfg_keypair *old = kp->slot, *slot = calloc(cap, sizeof(*slot));
    if (!slot) {
        return -1;
    }
    size_t oldcap = kp->cap;
    kp->slot = slot;
    kp->cap = cap;
    for (size_t i = 0; i < oldcap; i++) {
        if (old[i].count) {
            *find(kp, old[i].from, old[i].to) = old[i];
        }
    }
    free(old);
    return 0;
}

/* Add n to the count of (from, to). 0 or -1 (memory). */
static int add(struct iodfg_keypairs *kp, uint32_t from, uint32_t to, uint64_t n)
{
    if (2 * (kp->n + 1) > kp->cap && grow(kp)) {
        return -1;
    }
    struct iodfg_keypair *p = find(kp, from, to);
    if (!p->count) {
        p->from = from;
        p->to = to;
        kp->n++;
    }
    p->count += n;
    return 0;
}

void iodfg_keypairs_fini(struct iodfg_keypairs *kp)
{
    free(kp->slot);
    memset(kp, 0, sizeof(*kp));
}

/* The pairs of one trace of the events [lo, hi), repeats of one pair added at once. */
static int add_trace(struct iodfg_keypairs *kp, const uint32_t *key, uint64_t lo, uint64_t hi)
{
    uint32_t prev = IODFG_NODE_START, run_from = IODFG_NODE_START, run_to = key[lo];
    uint64_t run = 0;
    for (uint64_t e = lo; e < hi; e++) {
        uint32_t k = key[e];
        if (prev != run_from || k != run_to) {
            if (add(kp, run_from, run_to, run)) {
                return -1;
            }
            run_from = prev;
            run_to = k;
            run = 0;
        }
        run++;
        prev = k;
    }
    if (add(kp, run_from, run_to, run)) {
        return -1;
    }
    return add(kp, prev, IODFG_NODE_END, 1);
}

static int add_walked(void *ctx, uint32_t from, uint32_t to, int has_gap, int64_t gap_ns,
                      uint32_t trace, uint64_t ev)
{
    (void)has_gap;
    (void)gap_ns;
    (void)trace;
    (void)ev;
    return add(ctx, from, to, 1);
}

/* One share of the build: the cases [c0, c1) into kp. */
struct share {
    struct iodfg_keypairs kp;
    const struct iodfg_eventlog *log;
    const struct iodfg_selection *sel;
    const uint32_t *self; /* per-pid traces: every key its own activity, else NULL */
    uint32_t c0, c1;
    int rc;
};

static void *build_share(void *arg)
{
    struct share *sh = arg;
    const uint32_t *key = iodfg_eventlog_columns(sh->log)->key;
    for (uint32_t c = sh->c0; c < sh->c1 && !sh->rc; c++) {
        uint64_t lo, hi;
        if (!iodfg_trace_case_range(sh->log, sh->sel, c, &lo, &hi)) {
            continue;
        }
        sh->rc = sh->self ? iodfg_trace_walk_case(sh->log, sh->self, lo, hi, 1, add_walked, &sh->kp,
                                                  NULL) < 0
                          : add_trace(&sh->kp, key, lo, hi);
    }
    return NULL;
}

/* The first case of the second half of the log's events. */
static uint32_t middle_case(const struct iodfg_eventlog *log)
{
    const uint64_t *off = iodfg_eventlog_case_offsets(log);
    uint32_t n = iodfg_eventlog_case_count(log), c = 0;
    while (c < n && off[c] < off[n] / 2) {
        c++;
    }
    return c;
}

uint64_t iodfg_keypairs_split_min = 1u << 18;

int iodfg_keypairs_build(struct iodfg_keypairs *kp, const struct iodfg_eventlog *log,
                         const struct iodfg_selection *sel, uint32_t nkeys, struct iodfg_error *err)
{
    int per_pid = sel->per_pid && iodfg_eventlog_columns(log)->pid;
    uint32_t *self = NULL;
    if (per_pid && (self = malloc(((size_t)nkeys + 1) * sizeof(*self)))) {
        for (uint32_t k = 0; k < nkeys; k++) {
            self[k] = k;
        }
    }
    if (kp->slot) {
        memset(kp->slot, 0, kp->cap * sizeof(*kp->slot));
    }
    kp->n = 0;
    kp->valid = 0;
    // two shares of about equal events, the second on a thread; their counts add exactly
    uint32_t ncases = iodfg_eventlog_case_count(log), mid = middle_case(log);
    struct share a = {*kp, log, sel, self, 0, mid, per_pid && !self};
    struct share b = {{0}, log, sel, self, mid, ncases, a.rc};
    struct iodfg_fork fork;
    iodfg_fork_start(&fork, iodfg_eventlog_event_count(log) >= iodfg_keypairs_split_min,
                     IODFG_FORK_TASK, build_share, &b);
    build_share(&a);
    iodfg_fork_join(&fork);
    *kp = a.kp;
    int rc = a.rc || b.rc;
    for (size_t i = 0; i < b.kp.cap && !rc; i++) {
        const struct iodfg_keypair *p = &b.kp.slot[i];
        rc = p->count && add(kp, p->from, p->to, p->count);
    }
    iodfg_keypairs_fini(&b.kp);
    free(self);
    if (rc) {
        return iodfg_error_set(err, IODFG_E_NOMEM, "out of memory for the key pairs");
    }
    kp->valid = 1;
    return 0;
}

int iodfg_keypairs_dfg(const struct iodfg_keypairs *kp, const uint32_t *act, uint32_t nact,
                       struct iodfg_dfg *g, struct iodfg_error *err)
{
    iodfg_dfg_clear(g);
    g->nactivities = nact;
    for (size_t i = 0; i < kp->cap; i++) {
        const struct iodfg_keypair *p = &kp->slot[i];
        if (!p->count) {
            continue;
        }
        uint32_t from = p->from == IODFG_NODE_START ? p->from : act[p->from];
        uint32_t to = p->to == IODFG_NODE_END ? p->to : act[p->to];
        struct iodfg_dfg_edge *e = iodfg_dfg_slot(g, from, to);
        if (!e) {
            return iodfg_error_set(err, IODFG_E_NOMEM, "out of memory counting transitions");
        }
        e->count += p->count;
        g->traces += from == IODFG_NODE_START ? p->count : 0;
    }
    return 0;
}

size_t iodfg_keypairs_memory(const struct iodfg_keypairs *kp)
{
    return kp->cap * sizeof(*kp->slot);
}

int iodfg_analysis_first_tier(struct iodfg_analysis *an, const struct iodfg_mapping *map,
                              struct iodfg_stats *st, struct iodfg_dfg *g, int *total,
                              struct iodfg_error *err)
{
    if (an->adopted || !an->memo[an->cur].valid || an->sums != an->memo[an->cur].sums ||
        map->nkeys != an->nkeys) {
        return 1;
    }
    const uint32_t *act = map->activity_of_key;
    iodfg_stats_fini(st);
    if (iodfg_stats_resize(st, map->nactivities, err)) {
        return -1;
    }
    iodfg_stats_aggregate(st, an->sums, act, an->nkeys, NULL);
    *total = 1;
    for (uint32_t k = 0; k < an->nkeys && *total; k++) {
        *total = act[k] != IODFG_NO_ACTIVITY || !an->sums[k].count;
    }
    if (!*total) {
        return 0;
    }
    if (!an->pairs.valid && iodfg_keypairs_build(&an->pairs, an->log, &an->sel, an->nkeys, err)) {
        return -1;
    }
    return iodfg_keypairs_dfg(&an->pairs, act, map->nactivities, g, err);
}
