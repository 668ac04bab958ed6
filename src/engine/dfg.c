/* SPDX-License-Identifier: MIT */
/* Directly-Follows Graph: the edge table, counting the traces of a case into it, pruning. */
#include "config.h"

#include "iodfg/dfg.h"

#include <stdlib.h>
#include <string.h>

#include "iodfg/error.h"
#include "iodfg/eventlog.h"
#include "iodfg/mapping.h"
#include "iodfg/trace.h"

#include "dfg_priv.h"

void iodfg_dfg_init(struct iodfg_dfg *g)
{
    memset(g, 0, sizeof(*g));
}

void iodfg_dfg_fini(struct iodfg_dfg *g)
{
    free(g->edges);
    free(g->stamp);
    free(g->touched);
    free(g->index);
    memset(g, 0, sizeof(*g));
}

struct iodfg_dfg *iodfg_dfg_new(struct iodfg_error *err)
{
    struct iodfg_dfg *g = calloc(1, sizeof(*g));
    if (!g) {
        iodfg_error_set(err, IODFG_E_NOMEM, "out of memory for a DFG");
    }
    return g;
}

void iodfg_dfg_free(struct iodfg_dfg *g)
{
    if (g) {
        iodfg_dfg_fini(g);
        free(g);
    }
}

void iodfg_dfg_clear(struct iodfg_dfg *g)
{
    g->nedges = 0;
    g->traces = 0;
    g->next_stamp = 0;
    if (g->index) {
        memset(g->index, 0, g->index_cap * sizeof(*g->index));
    }
}

static size_t hash_pair(uint32_t from, uint32_t to)
{
    uint64_t k = ((uint64_t)from << 32) | to;
    k ^= k >> 33;
    k *= 0xff51afd7ed558ccdULL;
    k ^= k >> 33;
    return (size_t)k;
}

static size_t find_index(const struct iodfg_dfg *g, uint32_t from, uint32_t to)
{
    size_t mask = g->index_cap - 1;
    size_t i = hash_pair(from, to) & mask;
    while (g->index[i]) {
        const struct iodfg_dfg_edge *e = &g->edges[g->index[i] - 1];
        if (e->from == from && e->to == to) {
            return i;
        }
        i = (i + 1) & mask;
    }
    return i;
}

const struct iodfg_dfg_edge *iodfg_dfg_find(const struct iodfg_dfg *g, uint32_t from, uint32_t to)
{
    if (!g->index_cap) {
        return NULL;
    }
    size_t i = find_index(g, from, to);
    if (!g->index[i]) {
        return NULL;
    }
    const struct iodfg_dfg_edge *e = &g->edges[g->index[i] - 1];
    return e->count ? e : NULL;
}

uint32_t iodfg_dfg_nactivities(const struct iodfg_dfg *g)
{
    return g->nactivities;
}

uint64_t iodfg_dfg_traces(const struct iodfg_dfg *g)
{
    return g->traces;
}

size_t iodfg_dfg_slots(const struct iodfg_dfg *g)
{
    return g->nedges;
}

const struct iodfg_dfg_edge *iodfg_dfg_edge_at(const struct iodfg_dfg *g, size_t slot)
{
    return slot < g->nedges ? &g->edges[slot] : NULL;
}

size_t iodfg_dfg_edge_count(const struct iodfg_dfg *g)
{
    size_t n = 0;
    for (size_t i = 0; i < g->nedges; i++) {
        n += g->edges[i].count != 0;
    }
    return n;
}

static int grow(struct iodfg_dfg *g)
{
    size_t cap = g->cap ? g->cap * 2 : 64;
    struct iodfg_dfg_edge *e = realloc(g->edges, cap * sizeof(*e));
    if (!e) {
        return -1;
    }
    g->edges = e;
    uint32_t *s = realloc(g->stamp, cap * sizeof(*s));
    if (!s) {
        return -1;
    }
    g->stamp = s;
    uint8_t *t = realloc(g->touched, cap);
    if (!t) {
        return -1;
    }
    g->touched = t;
    g->cap = cap;
    uint32_t *idx = calloc(cap * 2, sizeof(*idx));
    if (!idx) {
        return -1;
    }
    free(g->index);
    g->index = idx;
    g->index_cap = cap * 2;
    for (size_t k = 0; k < g->nedges; k++) {
        size_t i = find_index(g, g->edges[k].from, g->edges[k].to);
        g->index[i] = (uint32_t)(k + 1);
    }
    return 0;
}

struct iodfg_dfg_edge *iodfg_dfg_slot(struct iodfg_dfg *g, uint32_t from, uint32_t to)
{
    if (g->index_cap) {
        size_t i = find_index(g, from, to);
        if (g->index[i]) {
            return &g->edges[g->index[i] - 1];
        }
    }
    if (g->nedges == g->cap && grow(g)) {
        return NULL;
    }
    size_t i = find_index(g, from, to);
    struct iodfg_dfg_edge *e = &g->edges[g->nedges];
    memset(e, 0, sizeof(*e));
    e->from = from;
    e->to = to;
    e->gap_median_ns = IODFG_UNKNOWN;
    g->stamp[g->nedges] = 0;
    g->touched[g->nedges] = 0;
    g->index[i] = (uint32_t)++g->nedges;
    return e;
}

struct count_ctx {
    struct iodfg_dfg *g;
    int64_t sign;
    uint32_t base;
    uint32_t last_from, last_to; /* one-entry cache of the slot lookup (runs of one edge) */
    size_t last_slot;
};

static int count_one(void *vctx, uint32_t from, uint32_t to, int has_gap, int64_t gap,
                     uint32_t trace, uint64_t ev)
{
    (void)ev;
    struct count_ctx *cx = vctx;
    struct iodfg_dfg_edge *e;
    size_t slot;
    if (from == cx->last_from && to == cx->last_to) {
        slot = cx->last_slot;
        e = &cx->g->edges[slot];
    } else {
        e = iodfg_dfg_slot(cx->g, from, to);
        if (!e) {
            return -1;
        }
        slot = (size_t)(e - cx->g->edges);
        cx->last_from = from;
        cx->last_to = to;
        cx->last_slot = slot;
    }
    cx->g->touched[slot] = 1;
    e->count += (uint64_t)cx->sign;
    uint32_t stamp = cx->base + trace + 1;
    if (cx->g->stamp[slot] != stamp) {
        cx->g->stamp[slot] = stamp;
        e->cases += (uint64_t)cx->sign;
    }
    if (has_gap) {
        e->gap_n += (uint64_t)cx->sign;
        e->gap_sum_ns = iodfg_sat_add(e->gap_sum_ns, cx->sign * gap);
    }
    return 0;
}

/* The slot of (from, to) through the context's one-entry cache; NULL when out of memory. */
static inline struct iodfg_dfg_edge *cached_slot(struct count_ctx *cx, uint32_t from, uint32_t to,
                                                 size_t *slot)
{
    if (from == cx->last_from && to == cx->last_to) {
        *slot = cx->last_slot;
        return &cx->g->edges[cx->last_slot];
    }
    struct iodfg_dfg_edge *e = iodfg_dfg_slot(cx->g, from, to);
    if (e) {
        *slot = cx->last_slot = (size_t)(e - cx->g->edges);
        cx->last_from = from;
        cx->last_to = to;
    }
    return e;
}

/* count_one on the events [lo, hi) as one trace without the calls (the common case), adding
 * every event to its key's sums when sums is not NULL. Returns the number of non-empty traces
 * (0 or 1), or -1 when out of memory. */
static inline __attribute__((always_inline)) long
count_trace(struct count_ctx *cx, const struct iodfg_columns *col, const uint32_t *act, uint64_t lo,
            uint64_t hi, struct iodfg_key_sums *sums)
{
    struct iodfg_dfg *g = cx->g;
    const uint32_t *key = col->key;
    const int64_t *start = col->start_ns, *dur = col->dur_ns, *size = col->size;
    uint32_t prev = IODFG_NODE_START, stamp = cx->base + 1;
    int64_t prev_end = 0, sign = cx->sign;
    for (uint64_t e = lo; e < hi; e++) {
        uint32_t k = key[e];
        if (sums) {
            iodfg_key_sums_add(&sums[k], dur ? dur[e] : IODFG_UNKNOWN,
                               size ? size[e] : IODFG_UNKNOWN);
        }
        uint32_t a = act[k];
        if (a == IODFG_NO_ACTIVITY) {
            continue;
        }
        size_t slot;
        struct iodfg_dfg_edge *ed = cached_slot(cx, prev, a, &slot);
        if (!ed) {
            return -1;
        }
        g->touched[slot] = 1;
        ed->count += (uint64_t)sign;
        if (g->stamp[slot] != stamp) {
            g->stamp[slot] = stamp;
            ed->cases += (uint64_t)sign;
        }
        int64_t d = dur ? dur[e] : IODFG_UNKNOWN;
        if (prev != IODFG_NODE_START) {
            ed->gap_n += (uint64_t)sign;
            ed->gap_sum_ns = iodfg_sat_add(ed->gap_sum_ns, sign * (start[e] - prev_end));
        }
        prev = a;
        prev_end = start[e] + (d == IODFG_UNKNOWN ? 0 : d);
    }
    if (prev == IODFG_NODE_START) {
        return 0;
    }
    return count_one(cx, prev, IODFG_NODE_END, 0, 0, 0, UINT64_MAX) ? -1 : 1;
}

int iodfg_dfg_count_case(struct iodfg_dfg *g, const struct iodfg_eventlog *log, const uint32_t *act,
                         uint64_t lo, uint64_t hi, int per_pid, int sign, struct iodfg_error *err)
{
    if (g->next_stamp > UINT32_MAX / 2 - (hi - lo) - 2) { // stamps would wrap: restart them
        memset(g->stamp, 0, g->nedges * sizeof(*g->stamp));
        g->next_stamp = 0;
    }
    struct count_ctx cx = {g, sign, g->next_stamp, IODFG_NO_ACTIVITY, IODFG_NO_ACTIVITY, 0};
    const struct iodfg_columns *col = iodfg_eventlog_columns(log);
    long n;
    if (!per_pid || !col->pid) {
        n = count_trace(&cx, col, act, lo, hi, NULL);
        if (n < 0) {
            return iodfg_error_set(err, IODFG_E_NOMEM, "out of memory counting transitions");
        }
    } else {
        n = iodfg_trace_walk_case(log, act, lo, hi, per_pid, count_one, &cx, err);
        if (n < 0) {
            return -1;
        }
    }
    g->next_stamp += (uint32_t)n + 1;
    g->traces += (uint64_t)((int64_t)sign * n);
    return 0;
}

int iodfg_dfg_count_case_sums(struct iodfg_dfg *g, const struct iodfg_eventlog *log,
                              const uint32_t *act, uint64_t lo, uint64_t hi,
                              struct iodfg_key_sums *sums, struct iodfg_error *err)
{
    if (g->next_stamp > UINT32_MAX / 2 - (hi - lo) - 2) { // stamps would wrap: restart them
        memset(g->stamp, 0, g->nedges * sizeof(*g->stamp));
        g->next_stamp = 0;
    }
    struct count_ctx cx = {g, 1, g->next_stamp, IODFG_NO_ACTIVITY, IODFG_NO_ACTIVITY, 0};
    long n = count_trace(&cx, iodfg_eventlog_columns(log), act, lo, hi, sums);
    if (n < 0) {
        return iodfg_error_set(err, IODFG_E_NOMEM, "out of memory counting transitions");
    }
    g->next_stamp += (uint32_t)n + 1;
    g->traces += (uint64_t)n;
    return 0;
}

void iodfg_dfg_finish_means(struct iodfg_dfg *g)
{
    for (size_t i = 0; i < g->nedges; i++) {
        struct iodfg_dfg_edge *e = &g->edges[i];
        e->gap_mean_ns = e->gap_n ? (double)e->gap_sum_ns / (double)e->gap_n : 0.0;
    }
}

static uint32_t node_ix(uint32_t id, uint32_t n)
{
    return id == IODFG_NODE_START ? n : id == IODFG_NODE_END ? n + 1 : id;
}

static int by_count_desc(const void *pa, const void *pb, const uint64_t *count)
{
    uint32_t a = *(const uint32_t *)pa, b = *(const uint32_t *)pb;
    if (count[a] != count[b]) {
        return count[a] > count[b] ? -1 : 1;
    }
    return a < b ? -1 : a > b;
}

/* Flags the top_k activities by count (ties: lower id first) with a partial selection sort:
 * k is a slider value (tens), and qsort has no context argument for the counts. */
static int mark_top(uint8_t *on, const uint64_t *count, uint32_t n, uint32_t top_k)
{
    uint32_t *ids = malloc((n ? n : 1) * sizeof(*ids));
    if (!ids) {
        return -1;
    }
    uint32_t m = 0;
    for (uint32_t a = 0; a < n; a++) {
        if (count[a]) {
            ids[m++] = a;
        }
    }
    uint32_t k = top_k < m ? top_k : m;
    for (uint32_t i = 0; i < k; i++) {
        uint32_t best = i;
        for (uint32_t j = i + 1; j < m; j++) {
            if (by_count_desc(&ids[j], &ids[best], count) < 0) {
                best = j;
            }
        }
        uint32_t t = ids[i];
        ids[i] = ids[best];
        ids[best] = t;
        on[ids[i]] = 1;
    }
    free(ids);
    return 0;
}

/* Breadth-first marks over kept edges: forward from ● (dir 0) or backward from ■ (dir 1). */
static void reach(const struct iodfg_dfg *g, const uint8_t *edge_on, uint32_t n, uint8_t *seen,
                  uint32_t *queue, const size_t *adj_off, const uint32_t *adj, int dir)
{
    uint32_t head = 0, tail = 0;
    uint32_t s = dir ? n + 1 : n;
    seen[s] = 1;
    queue[tail++] = s;
    while (head < tail) {
        uint32_t v = queue[head++];
        for (size_t k = adj_off[v]; k < adj_off[v + 1]; k++) {
            const struct iodfg_dfg_edge *e = &g->edges[adj[k]];
            if (!edge_on[adj[k]]) {
                continue;
            }
            uint32_t w = node_ix(dir ? e->from : e->to, n);
            if (!seen[w]) {
                seen[w] = 1;
                queue[tail++] = w;
            }
        }
    }
}

int iodfg_dfg_prune(const struct iodfg_dfg *g, const uint64_t *act_count, uint64_t min_count,
                    uint32_t top_k, uint8_t *node_on, uint8_t *edge_on, struct iodfg_error *err)
{
    uint32_t n = g->nactivities;
    size_t nn = (size_t)n + 2;
    uint8_t *fw = calloc(nn * 2, 1);
    uint32_t *queue = malloc(nn * sizeof(*queue));
    size_t *off = calloc((nn + 1) * 2, sizeof(*off));
    uint32_t *adj = malloc((g->nedges * 2 + 1) * sizeof(*adj));
    if (!fw || !queue || !off || !adj) {
        goto nomem;
    }
    memset(node_on, 0, n);
    if (top_k > 0) {
        if (mark_top(node_on, act_count, n, top_k)) {
            goto nomem;
        }
    } else {
        for (uint32_t a = 0; a < n; a++) {
            node_on[a] = act_count[a] > 0;
        }
    }
    for (size_t i = 0; i < g->nedges; i++) {
        const struct iodfg_dfg_edge *e = &g->edges[i];
        uint32_t f = node_ix(e->from, n), t = node_ix(e->to, n);
        edge_on[i] =
            e->count && e->count >= min_count && (f >= n || node_on[f]) && (t >= n || node_on[t]);
    }
    // adjacency in CSR form: out-edges at off[0..nn], in-edges at off[nn+1..]
    size_t *oo = off, *io = off + nn + 1;
    for (size_t i = 0; i < g->nedges; i++) {
        oo[node_ix(g->edges[i].from, n) + 1]++;
        io[node_ix(g->edges[i].to, n) + 1]++;
    }
    for (size_t v = 0; v < nn; v++) {
        oo[v + 1] += oo[v];
        io[v + 1] += io[v];
    }
    uint32_t *oa = adj, *ia = adj + g->nedges;
    size_t *fo = calloc(nn * 2, sizeof(*fo));
    if (!fo) {
        goto nomem;
    }
    for (size_t i = 0; i < g->nedges; i++) {
        uint32_t f = node_ix(g->edges[i].from, n), t = node_ix(g->edges[i].to, n);
        oa[oo[f] + fo[f]++] = (uint32_t)i;
        ia[io[t] + fo[nn + t]++] = (uint32_t)i;
    }
    free(fo);
    uint8_t *bw = fw + nn;
    reach(g, edge_on, n, fw, queue, oo, oa, 0);
    reach(g, edge_on, n, bw, queue, io, ia, 1);
    for (uint32_t a = 0; a < n; a++) {
        node_on[a] = node_on[a] && fw[a] && bw[a];
    }
    for (size_t i = 0; i < g->nedges; i++) {
        uint32_t f = node_ix(g->edges[i].from, n), t = node_ix(g->edges[i].to, n);
        edge_on[i] = edge_on[i] && fw[f] && bw[f] && fw[t] && bw[t];
    }
    free(fw);
    free(queue);
    free(off);
    free(adj);
    return 0;
nomem:
    free(fw);
    free(queue);
    free(off);
    free(adj);
    return iodfg_error_set(err, IODFG_E_NOMEM, "out of memory pruning the DFG");
}
