/* SPDX-License-Identifier: MIT */
/* Counting helpers of the insights rule families: a small integer map per case and counted
 * (group, item) pairs. */
#include "config.h"

#include "insights_tally.h"

#include <stdlib.h>
#include <string.h>

#include "iodfg/eventlog.h"
#include "iodfg/strpool.h"

void ins_map_reset(struct ins_map *m)
{
    m->cur++;
    m->used = 0;
}

void ins_map_fini(struct ins_map *m)
{
    free(m->key);
    free(m->val);
    free(m->gen);
    memset(m, 0, sizeof(*m));
}

static size_t slot_of(uint64_t key, size_t cap)
{
    return (size_t)((key * 0x9E3779B97F4A7C15ull) >> 20) & (cap - 1);
}

static int grow(struct ins_map *m)
{
    size_t cap = m->cap ? m->cap * 2 : 64;
    uint64_t *key = malloc(cap * sizeof(*key)), *val = malloc(cap * sizeof(*val));
    uint32_t *gen = calloc(cap, sizeof(*gen));
    if (!key || !val || !gen) {
        free(key);
        free(val);
        free(gen);
        return -1;
    }
    uint32_t cur = m->cur ? m->cur : 1;
    for (size_t i = 0; i < m->cap; i++) {
        if (m->gen[i] == m->cur && m->cur) {
            size_t j = slot_of(m->key[i], cap);
            while (gen[j] == cur) {
                j = (j + 1) & (cap - 1);
            }
            gen[j] = cur;
            key[j] = m->key[i];
            val[j] = m->val[i];
        }
    }
    free(m->key);
    free(m->val);
    free(m->gen);
    m->key = key;
    m->val = val;
    m->gen = gen;
    m->cap = cap;
    m->cur = cur;
    return 0;
}

uint64_t *ins_map_get(struct ins_map *m, uint64_t key)
{
    if (!m->cur) {
        m->cur = 1;
    }
    if ((m->used + 1) * 2 > m->cap && grow(m)) {
        return NULL;
    }
    size_t j = slot_of(key, m->cap);
    while (m->gen[j] == m->cur) {
        if (m->key[j] == key) {
            return &m->val[j];
        }
        j = (j + 1) & (m->cap - 1);
    }
    m->gen[j] = m->cur;
    m->key[j] = key;
    m->val[j] = 0;
    m->used++;
    return &m->val[j];
}

int ins_pairs_add(struct ins_pairs *p, uint32_t group, uint32_t item)
{
    if (p->n == p->cap) {
        size_t cap = p->cap ? p->cap * 2 : 256;
        struct ins_pair *v = realloc(p->v, cap * sizeof(*v));
        if (!v) {
            return -1;
        }
        p->v = v;
        p->cap = cap;
    }
    p->v[p->n++] = (struct ins_pair){group, item};
    return 0;
}

static int by_pair(const void *pa, const void *pb)
{
    const struct ins_pair *a = pa, *b = pb;
    if (a->group != b->group) {
        return a->group < b->group ? -1 : 1;
    }
    return a->item < b->item ? -1 : a->item > b->item;
}

void ins_pairs_sort(struct ins_pairs *p)
{
    if (p->n) {
        qsort(p->v, p->n, sizeof(*p->v), by_pair);
    }
}

void ins_pairs_fini(struct ins_pairs *p)
{
    free(p->v);
    memset(p, 0, sizeof(*p));
}

int ins_pairs_paths(struct ins_ctx *x, const struct ins_pairs *p, uint32_t group,
                    struct iodfg_insight *f, uint64_t *top_count)
{
    size_t lo = 0, hi = p->n;
    while (lo < hi) { // first pair of the group
        size_t mid = (lo + hi) / 2;
        if (p->v[mid].group < group) {
            lo = mid + 1;
        } else {
            hi = mid;
        }
    }
    uint32_t item[IODFG_INSIGHT_KEEP];
    uint64_t count[IODFG_INSIGHT_KEEP];
    size_t ntop = 0, distinct = 0;
    for (size_t i = lo; i < p->n && p->v[i].group == group;) {
        size_t j = i;
        while (j < p->n && p->v[j].group == group && p->v[j].item == p->v[i].item) {
            j++;
        }
        uint64_t c = j - i;
        distinct++;
        size_t at = ntop; // insert into the top list, most frequent first
        while (at > 0 && count[at - 1] < c) {
            at--;
        }
        if (at < IODFG_INSIGHT_KEEP) {
            size_t last = ntop < IODFG_INSIGHT_KEEP ? ntop : IODFG_INSIGHT_KEEP - 1;
            memmove(&item[at + 1], &item[at], (last - at) * sizeof(*item));
            memmove(&count[at + 1], &count[at], (last - at) * sizeof(*count));
            item[at] = p->v[i].item;
            count[at] = c;
            ntop += ntop < IODFG_INSIGHT_KEEP;
        }
        i = j;
    }
    const struct iodfg_strpool *pool = iodfg_eventlog_pool(x->log);
    for (size_t k = 0; k < ntop; k++) {
        if (ins_add_path(x, f, iodfg_strpool_get(pool, item[k]),
                         iodfg_strpool_len(pool, item[k]))) {
            return -1;
        }
    }
    f->paths_total = (uint32_t)distinct;
    if (top_count) {
        *top_count = ntop ? count[0] : 0;
    }
    return 0;
}
