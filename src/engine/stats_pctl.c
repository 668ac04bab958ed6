/* SPDX-License-Identifier: MIT */
/* Exact nearest-rank percentiles: quickselect, and the layout, histogram aim and selection of
 * the many groups of values that the statistics walk (stats_scan.c) fills. */
#include "config.h"

#include "stats_pctl.h"

#include <stdlib.h>
#include <string.h>

#include "iodfg/bigmem.h"
#include "iodfg/dfg.h"
#include "iodfg/eventlog.h"
#include "iodfg/forkjoin.h"
#include "iodfg/stats.h"

#include "dfg_priv.h"
#include "stats_priv.h"

/* Quickselect: v[k] becomes the value of rank k (0-based) in sorted order. */
static void select_nth(int64_t *v, size_t n, size_t k)
{
    size_t lo = 0, hi = n - 1;
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        // median of three as pivot
        int64_t a = v[lo], b = v[mid], c = v[hi];
        int64_t p = a < b ? (b < c ? b : (a < c ? c : a)) : (a < c ? a : (b < c ? c : b));
        size_t i = lo, j = hi;
        while (i <= j) {
            while (v[i] < p) {
                i++;
            }
            while (v[j] > p) {
                j--;
            }
            if (i <= j) {
                int64_t t = v[i];
                v[i] = v[j];
                v[j] = t;
                i++;
                if (j == 0) {
                    break;
                }
                j--;
            }
        }
        if (k <= j) {
            hi = j;
        } else if (k >= i) {
            lo = i;
        } else {
            return;
        }
    }
}

int64_t iodfg_stats_percentile(int64_t *v, size_t n, unsigned pct)
{
    if (!n) {
        return IODFG_UNKNOWN;
    }
    size_t rank = (size_t)(((uint64_t)pct * n + 99) / 100); // ceil(pct/100 * n), 1-based
    if (rank < 1) {
        rank = 1;
    }
    select_nth(v, n, rank - 1);
    return v[rank - 1];
}

/* ---- exact nearest-rank percentiles of many groups of values ----
 * Small groups gather their values and select. Large groups first count their values in a
 * histogram of fixed log-spaced buckets (64 per power of two, exact below 64), which gives the
 * bucket holding each wanted rank; a second pass gathers only those buckets' values. A group
 * whose histogram was kept from an earlier scan (and updated since) gathers its target buckets
 * in the first pass already.
 * Up to two workers share one layout: worker 0 fills each region from its low end, worker 1
 * from its high end (a region holds exactly the values of both), and each worker counts into
 * its own histograms, summed between the passes. Selection does not depend on the order of
 * the values, so the result is the same however the work was split. */

uint64_t iodfg_pctl_large = 65536; /* groups with at least this many values use a histogram */

static const unsigned PCT[2][2] = {{50, 0}, {95, 50}};

static uint64_t rank_of(unsigned pct, uint64_t n)
{
    uint64_t r = (pct * n + 99) / 100;
    return r < 1 ? 1 : r;
}

void iodfg_pctl_fini(struct pctl *P)
{
    free(P->g);
    free(P->hist);
    free(P->vals);
    memset(P, 0, sizeof(*P));
}

/* The target buckets of group g from the histogram h of its n values. */
static void pctl_aim(struct pgroup *g, const uint32_t *h)
{
    for (unsigned j = 0; j < g->npct; j++) {
        uint64_t r = rank_of(PCT[g->npct - 1][j], g->n), below = 0;
        uint32_t b = 0;
        while (below + h[b] < r) {
            below += h[b++];
        }
        g->bkt[j] = b;
        g->below[j] = below;
    }
    g->m0 = h[g->bkt[0]];
    g->m1 = g->npct == 2 && g->bkt[1] != g->bkt[0] ? h[g->bkt[1]] : 0;
}

/* Lay out the wanted groups (want, n, npct and kept filled by the caller). */
int iodfg_pctl_layout(struct pctl *P)
{
    uint64_t nv = 0;
    uint32_t nh = 0;
    for (uint32_t i = 0; i < P->ng; i++) {
        struct pgroup *g = &P->g[i];
        g->hist = IODFG_PB_NONE;
        g->kind = g->mode = PM_SKIP;
        if (!g->want || !g->n) {
            continue;
        }
        if (g->kept) {
            pctl_aim(g, g->kept);
            g->kind = g->mode = PM_TARGET;
            g->off = nv;
            g->off1 = nv + g->m0;
            nv += g->m0 + g->m1;
        } else if (g->n >= iodfg_pctl_large) {
            g->hist = nh++;
            g->kind = PM_TARGET;
            g->mode = PM_HIST;
        } else {
            g->kind = g->mode = PM_GATHER;
            g->off = nv;
            nv += g->n;
        }
    }
    P->nh = nh;
    P->hist = nh ? calloc((size_t)nh * IODFG_PB_N, sizeof(*P->hist)) : NULL;
    P->vals_cap = nv ? nv : 1;
    P->vals = iodfg_bigmem_alloc((size_t)P->vals_cap * sizeof(*P->vals));
    return (nh && !P->hist) || !P->vals ? -1 : 0;
}

/* After the first pass (histograms summed): aim the counted groups at their target buckets and
 * make room for their values; they alone take values in the second pass. Returns 1 when a
 * second pass is needed, 0 when not, -1 when out of memory. */
int iodfg_pctl_targets(struct pctl *P)
{
    uint64_t nv = 0, extra = 0;
    for (uint32_t i = 0; i < P->ng; i++) {
        struct pgroup *g = &P->g[i];
        if (g->hist == IODFG_PB_NONE) {
            if (g->kind == PM_GATHER && g->off + g->n > nv) {
                nv = g->off + g->n;
            }
            if (g->kind == PM_TARGET && g->off + g->m0 + g->m1 > nv) {
                nv = g->off + g->m0 + g->m1;
            }
            g->mode = PM_SKIP;
            continue;
        }
        pctl_aim(g, P->hist + (size_t)g->hist * IODFG_PB_N);
        extra += g->m0 + g->m1;
    }
    if (!extra) {
        return 0;
    }
    int64_t *v = iodfg_bigmem_realloc(P->vals, (size_t)P->vals_cap * sizeof(*v),
                                      (size_t)(nv + extra) * sizeof(*v));
    if (!v) {
        return -1;
    }
    P->vals = v;
    P->vals_cap = nv + extra;
    for (uint32_t i = 0; i < P->ng; i++) {
        struct pgroup *g = &P->g[i];
        if (g->hist != IODFG_PB_NONE) {
            g->off = nv;
            g->off1 = nv + g->m0;
            nv += g->m0 + g->m1;
            g->mode = PM_TARGET;
        }
    }
    return 1;
}

/* The exact values of group gi's percentiles (out[0..npct)). */
static void pctl_result(struct pctl *P, uint32_t gi, int64_t *out)
{
    struct pgroup *g = &P->g[gi];
    if (!g->n || g->kind == PM_SKIP) {
        out[0] = out[1] = IODFG_UNKNOWN;
        return;
    }
    int64_t *v = P->vals + g->off;
    if (g->kind == PM_GATHER) {
        // the highest rank first: the lower ranks then lie in the part below it
        uint64_t hi = g->n;
        for (unsigned j = 0; j < g->npct; j++) {
            uint64_t r = rank_of(PCT[g->npct - 1][j], g->n);
            select_nth(v, (size_t)hi, (size_t)(r - 1));
            out[j] = v[r - 1];
            hi = r;
        }
        return;
    }
    for (unsigned j = 0; j < g->npct; j++) {
        int other = j == 1 && g->bkt[1] != g->bkt[0];
        int64_t *w = other ? P->vals + g->off1 : v;
        uint64_t m = other ? g->m1 : g->m0;
        uint64_t k = rank_of(PCT[g->npct - 1][j], g->n) - g->below[j] - 1;
        select_nth(w, (size_t)m, (size_t)k);
        out[j] = w[k];
    }
}

/* The percentiles of groups [lo, hi) into the statistics and the DFG. */
struct results_job {
    struct pctl *P;
    struct iodfg_stats *st;
    struct iodfg_dfg *g;
    uint32_t na, lo, hi;
};

static void *results_run(void *vr)
{
    struct results_job *r = vr;
    for (uint32_t i = r->lo; i < r->hi; i++) {
        if (!r->P->g[i].want) {
            continue;
        }
        int64_t out[2] = {IODFG_UNKNOWN, IODFG_UNKNOWN};
        pctl_result(r->P, i, out);
        if (i < r->na) {
            r->st->act[i].dur_p95_ns = out[0];
            r->st->act[i].dur_median_ns = out[1];
        } else {
            r->g->edges[i - r->na].gap_median_ns = out[0];
        }
    }
    return NULL;
}

/* The values the selections of group g go through. */
static uint64_t pctl_cost(const struct pgroup *g)
{
    return !g->want ? 0 : g->kind == PM_GATHER ? g->n : g->kind == PM_TARGET ? g->m0 + g->m1 : 0;
}

/* Select the percentiles of every wanted group: activity p95 and median into st, edge gap medians
 * into g (groups of activities first, then edge slots). */
void iodfg_pctl_store(struct pctl *P, struct iodfg_stats *st, struct iodfg_dfg *g, uint32_t na)
{
    // the selections, split by their values over two threads when there are many
    struct results_job R[2] = {{P, st, g, na, 0, P->ng}, {P, st, g, na, P->ng, P->ng}};
    uint64_t work = 0, half = 0;
    for (uint32_t i = 0; i < P->ng; i++) {
        work += pctl_cost(&P->g[i]);
    }
    if (work >= iodfg_scan_split_min) {
        for (R[0].hi = 0; R[0].hi < P->ng && 2 * half < work; R[0].hi++) {
            half += pctl_cost(&P->g[R[0].hi]);
        }
        R[1].lo = R[0].hi;
    }
    struct iodfg_fork fork;
    iodfg_fork_start(&fork, R[1].lo < R[1].hi, IODFG_FORK_TASK, results_run, &R[1]);
    results_run(&R[0]);
    iodfg_fork_join(&fork);
}

/* The magnitudes u with iodfg_pb_mag(u) == m: [lo, hi]. */
static void mag_range(uint32_t m, uint64_t *lo, uint64_t *hi)
{
    if (m < 64) {
        *lo = *hi = m;
        return;
    }
    unsigned e = m / 64 + 5; // the leading bit, then six bits of m % 64
    *lo = 1ULL << e | (uint64_t)(m % 64) << (e - 6);
    *hi = *lo + ((1ULL << (e - 6)) - 1);
}

/* The values of bucket b (one that int64 values fall in) as an offset-space range. */
void iodfg_pbucket_range(uint32_t b, uint64_t *lo, uint64_t *span)
{
    uint64_t ulo, uhi;
    if (b >= IODFG_PB_MAG) { // v = u
        mag_range(b - IODFG_PB_MAG, &ulo, &uhi);
        *lo = ulo ^ IODFG_PB_SIGN;
    } else { // v = -(u + 1), so o = 2^63 - 1 - u
        mag_range(IODFG_PB_MAG - 1 - b, &ulo, &uhi);
        *lo = IODFG_PB_SIGN - 1 - uhi;
    }
    *span = uhi - ulo;
}
