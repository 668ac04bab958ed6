/* SPDX-License-Identifier: MIT */
/* Kept histograms of the large percentile groups: storage, the moves of a rule edit, and the
 * checks that a later scan may trust one. */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "iodfg/dfg.h"
#include "iodfg/error.h"
#include "iodfg/eventlog.h"
#include "iodfg/mapping.h"
#include "iodfg/trace.h"

#include "dfg_priv.h"
#include "stats_priv.h"

void iodfg_hstore_init(struct iodfg_hstore *hs)
{
    memset(hs, 0, sizeof(*hs));
}

static void hstore_drop(uint32_t **h, size_t n)
{
    for (size_t i = 0; i < n; i++) {
        free(h[i]);
        h[i] = NULL;
    }
}

void iodfg_hstore_clear(struct iodfg_hstore *hs)
{
    hstore_drop(hs->act, hs->nact);
    hstore_drop(hs->edge, hs->nedge);
    hs->count = 0;
}

void iodfg_hstore_clear_edges(struct iodfg_hstore *hs)
{
    for (size_t i = 0; i < hs->nedge; i++) {
        hs->count -= hs->edge[i] != NULL;
    }
    hstore_drop(hs->edge, hs->nedge);
}

void iodfg_hstore_fini(struct iodfg_hstore *hs)
{
    iodfg_hstore_clear(hs);
    free(hs->act);
    free(hs->edge);
    memset(hs, 0, sizeof(*hs));
}

size_t iodfg_hstore_memory(const struct iodfg_hstore *hs)
{
    return (size_t)hs->count * IODFG_PB_N * sizeof(uint32_t) +
           ((size_t)hs->nact + hs->nedge) * sizeof(uint32_t *);
}

/* The entry of activity a (edge 0) or edge slot i (edge 1), grown to hold it when grow. NULL when
 * out of range (or out of memory). */
static uint32_t **hstore_entry(struct iodfg_hstore *hs, int edge, size_t i, int grow)
{
    uint32_t ***arr = edge ? &hs->edge : &hs->act;
    size_t n = edge ? hs->nedge : hs->nact;
    if (i < n) {
        return &(*arr)[i];
    }
    if (!grow) {
        return NULL;
    }
    size_t m = n ? n : 16;
    while (m <= i) {
        m *= 2;
    }
    uint32_t **a = realloc(*arr, m * sizeof(*a));
    if (!a) {
        return NULL;
    }
    memset(a + n, 0, (m - n) * sizeof(*a));
    *arr = a;
    if (edge) {
        hs->nedge = m;
    } else {
        hs->nact = (uint32_t)m;
    }
    return &a[i];
}

struct move_ctx {
    struct iodfg_hstore *hs;
    struct iodfg_dfg *g;
    const int64_t *dur;
    uint32_t sign;
    uint32_t last_from, last_to; /* one-entry cache of the slot lookup */
    uint32_t *last_h;
};

static int move_one(void *vctx, uint32_t from, uint32_t to, int has_gap, int64_t gap,
                    uint32_t trace, uint64_t ev)
{
    (void)trace;
    struct move_ctx *mx = vctx;
    struct iodfg_hstore *hs = mx->hs;
    if (to < hs->nact && hs->act[to] && mx->dur && mx->dur[ev] != IODFG_UNKNOWN) {
        hs->act[to][iodfg_pbucket(mx->dur[ev])] += mx->sign;
    }
    if (!has_gap || !hs->nedge) {
        return 0;
    }
    if (from != mx->last_from || to != mx->last_to) {
        struct iodfg_dfg_edge *e = iodfg_dfg_slot(mx->g, from, to);
        if (!e) {
            return -1;
        }
        size_t slot = (size_t)(e - mx->g->edges);
        mx->last_h = slot < hs->nedge ? hs->edge[slot] : NULL;
        mx->last_from = from;
        mx->last_to = to;
    }
    if (mx->last_h) {
        mx->last_h[iodfg_pbucket(gap)] += mx->sign;
    }
    return 0;
}

int iodfg_hstore_move(struct iodfg_hstore *hs, struct iodfg_dfg *g,
                      const struct iodfg_eventlog *log, const uint32_t *old_act,
                      const uint32_t *new_act, const struct iodfg_selection *sel,
                      const uint32_t *cases, size_t ncases, struct iodfg_error *err)
{
    if (!hs->count) {
        return 0;
    }
    struct move_ctx mx = {hs, g, iodfg_eventlog_columns(log)->dur_ns, 0, 0, 0, NULL};
    for (int pass = 0; pass < 2; pass++) {
        mx.sign = pass ? 1u : UINT32_MAX; // wrapping: -1
        mx.last_from = mx.last_to = IODFG_NO_ACTIVITY;
        for (size_t i = 0; i < ncases; i++) {
            uint64_t lo, hi;
            if (iodfg_trace_case_range(log, sel, cases[i], &lo, &hi) &&
                iodfg_trace_walk_case(log, pass ? new_act : old_act, lo, hi, sel->per_pid, move_one,
                                      &mx, err) < 0) {
                if (err && !err->code) {
                    iodfg_error_set(err, IODFG_E_NOMEM, "out of memory for kept histograms");
                }
                return -1;
            }
        }
    }
    return 0;
}

/* Move the histogram *h into the kept entry i of hs (edge or activity); frees it when the
 * entry cannot be made. */
void iodfg_hstore_take(struct iodfg_hstore *hs, int edge, size_t i, uint32_t **h)
{
    uint32_t **e = hstore_entry(hs, edge, i, 1);
    if (e) {
        if (*e) {
            free(*e);
            hs->count--;
        }
        *e = *h;
        hs->count++;
    } else {
        free(*h);
    }
    *h = NULL;
}

/* The kept histogram of group i if it holds exactly n values (dropping a stale or empty one). */
uint32_t *iodfg_hstore_kept(struct iodfg_hstore *hs, int edge, size_t i, uint64_t n)
{
    uint32_t **h = hs ? hstore_entry(hs, edge, i, 0) : NULL;
    if (!h || !*h) {
        return NULL;
    }
    uint64_t sum = 0;
    for (size_t b = 0; b < IODFG_PB_N; b++) {
        sum += (*h)[b];
    }
    if (sum != n || !n) {
        free(*h);
        *h = NULL;
        hs->count--;
        return NULL;
    }
    return *h;
}

/* Keep the histogram h of group i. */
void iodfg_hstore_put(struct iodfg_hstore *hs, int edge, size_t i, const uint32_t *h)
{
    uint32_t **e = hstore_entry(hs, edge, i, 1);
    if (!e) {
        return; // out of memory: the group is counted again next time
    }
    if (!*e) {
        *e = malloc(IODFG_PB_N * sizeof(**e));
        if (!*e) {
            return;
        }
        hs->count++;
    }
    memcpy(*e, h, IODFG_PB_N * sizeof(**e));
}
