/* SPDX-License-Identifier: MIT */
/* Work shared out by weight: the consecutive items (trace files by bytes, a log's cases by
 * events) one of several parts takes, so that parts get about the same weight however unequal
 * the items are. */
#ifndef IODFG_SHARE_H
#define IODFG_SHARE_H

#include <stddef.h>
#include <stdint.h>

/* Items [*lo, *hi) of the n items of weights w that part p of nparts takes: each goes to the
 * part whose equal share of the total weight holds the item's middle, so the parts' items follow
 * each other in order and cover all n. By count when every weight is 0 or w is NULL. */
void iodfg_share_of(const uint64_t *w, size_t n, int p, int nparts, size_t *lo, size_t *hi);

#endif
