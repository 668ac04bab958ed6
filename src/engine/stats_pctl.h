/* SPDX-License-Identifier: MIT */
/* Engine-internal: the percentile groups that the statistics walk fills and stats_pctl.c lays out
 * and selects from (see the comment there for the passes). */
#ifndef IODFG_ENGINE_STATS_PCTL_H
#define IODFG_ENGINE_STATS_PCTL_H

#include <stdint.h>

struct iodfg_dfg;
struct iodfg_stats;

/* No histogram (pgroup.hist) or no group (the walk's edge lookups). */
#define IODFG_PB_NONE UINT32_MAX
/* Values map to offset space (o = v ^ IODFG_PB_SIGN), which orders like v as unsigned. */
#define IODFG_PB_SIGN (1ULL << 63)

/* What a group does with a value in the running pass. */
enum { PM_SKIP, PM_GATHER, PM_HIST, PM_TARGET };

struct pgroup {
    uint64_t n;      /* values expected */
    uint64_t off;    /* gather: region of the n values; target: region of target 0's bucket */
    uint64_t off1;   /* target: region of target 1's bucket (when another bucket) */
    uint64_t m0, m1; /* target: values in those two regions */
    uint32_t *kept;  /* kept histogram of exactly the group's values, or NULL */
    uint32_t hist;   /* counting histogram index (first pass of a large group without one) */
    uint32_t bkt[2];
    uint64_t below[2];
    uint8_t want, npct;
    uint8_t kind; /* PM_GATHER or PM_TARGET once laid out; PM_SKIP: no values */
    uint8_t mode; /* in the running pass */
};

struct pctl {
    uint32_t ng, nh;
    struct pgroup *g;
    uint32_t *hist; /* worker 0's histograms; after a first pass the sums */
    int64_t *vals;
    uint64_t vals_cap; /* entries allocated (on huge pages when large: iodfg/bigmem.h) */
};

/* Free the groups, histograms and values of P and zero it. */
void iodfg_pctl_fini(struct pctl *P);
/* Lay out the wanted groups (want, n, npct and kept set): 0, or -1 when out of memory. */
int iodfg_pctl_layout(struct pctl *P);
/* After a first pass: aim the counted groups at their target buckets; 1 when a second pass is
 * needed, 0 when not, -1 when out of memory. */
int iodfg_pctl_targets(struct pctl *P);
/* Select the percentiles of the wanted groups (activities 0..na, then edge slots of g) into
 * st (dur_p95_ns, dur_median_ns) and g (gap_median_ns), on two threads when they are many. */
void iodfg_pctl_store(struct pctl *P, struct iodfg_stats *st, struct iodfg_dfg *g, uint32_t na);
/* The values of bucket b (one that int64 values fall in) as the offset-space range
 * [lo, lo + span]. */
void iodfg_pbucket_range(uint32_t b, uint64_t *lo, uint64_t *span);

#endif
