/* SPDX-License-Identifier: MIT */
/* Counting helpers of the insights rule families: a small integer map and (group, item) pairs. */
#ifndef IODFG_ENGINE_INSIGHTS_TALLY_H
#define IODFG_ENGINE_INSIGHTS_TALLY_H

#include <stddef.h>
#include <stdint.h>

#include "insights_finding.h"

/* A map of 64-bit keys to 64-bit values (0 when new), emptied in O(1) by ins_map_reset. */
struct ins_map {
    uint64_t *key, *val;
    uint32_t *gen;
    size_t cap, used;
    uint32_t cur;
};
void ins_map_reset(struct ins_map *m);
/* The value slot of key (created as 0); NULL when out of memory. */
uint64_t *ins_map_get(struct ins_map *m, uint64_t key);
void ins_map_fini(struct ins_map *m);

/* (group, item) pairs with a count, to list the most frequent items of a group. */
struct ins_pair {
    uint32_t group, item;
};
struct ins_pairs {
    struct ins_pair *v;
    size_t n, cap;
};
int ins_pairs_add(struct ins_pairs *p, uint32_t group, uint32_t item);
/* Sort by (group, item) once all are added. */
void ins_pairs_sort(struct ins_pairs *p);
/* Of group's items (log pool string ids): the most frequent into the finding's paths,
 * paths_total = distinct items. *top_count (may be NULL) = the largest count. 0 or -1. */
int ins_pairs_paths(struct ins_ctx *x, const struct ins_pairs *p, uint32_t group,
                    struct iodfg_insight *f, uint64_t *top_count);
void ins_pairs_fini(struct ins_pairs *p);

#endif
