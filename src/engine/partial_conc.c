/* SPDX-License-Identifier: MIT */
/* The maximum concurrency of parts: per bucket of the sweep's order each part's net change, rise
 * and starts per activity (they add up to exact counts at the buckets' starts and bounds of the
 * counts inside), which pairs of bucket and activity must be swept, and the sweep of sorted runs
 * in their merged order with the count of each pair carried in. doc/mpi.md says why it is
 * exact. */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "iodfg/error.h"
#include "iodfg/mapping.h"
#include "iodfg/partial.h"
#include "iodfg/timeline.h"

/* ---- the buckets' sums and the pairs picked ---- */

/* The activity of the point at position i of the view, IODFG_NO_ACTIVITY when it is not one of
 * the session's points (cheaper than iodfg_partial_view_at: no time is read). */
static inline uint32_t act_at(const struct iodfg_partial_view *v, uint64_t i)
{
    uint32_t e = v->ent[i] & ~IODFG_PT_START;
    return v->clk[e] & IODFG_PARTIAL_SELECTED ? v->act[v->key[e]] : IODFG_NO_ACTIVITY;
}

/* Whether bucket b has a pair to sweep (pick NULL: all are swept). */
static int bucket_picked(const uint8_t *pick, uint32_t nact, uint32_t b)
{
    return !pick || memchr(pick + (size_t)b * nact, 1, nact) != NULL;
}

void iodfg_partial_bucket_pos(const struct iodfg_partial_view *v,
                              const struct iodfg_partial_point *split, uint32_t nb, uint64_t *pos)
{
    pos[0] = 0;
    for (uint32_t b = 1; b < nb; b++) {
        pos[b] = iodfg_partial_view_lower(v, &split[b - 1]);
    }
    pos[nb] = v->n;
}

void iodfg_partial_bucket_sums(const struct iodfg_partial_view *v, const uint64_t *pos, uint32_t nb,
                               uint32_t nact, int64_t *sums)
{
    size_t np = (size_t)nb * nact;
    memset(sums, 0, IODFG_PARTIAL_SUMS * np * sizeof(*sums));
    for (uint32_t b = 0; b < nb; b++) {
        int64_t *net = sums + IODFG_PARTIAL_NET * np + (size_t)b * nact;
        int64_t *rise = sums + IODFG_PARTIAL_RISE * np + (size_t)b * nact;
        int64_t *starts = sums + IODFG_PARTIAL_STARTS * np + (size_t)b * nact;
        for (uint64_t i = pos[b]; i < pos[b + 1]; i++) {
            uint32_t a = act_at(v, i);
            if (a == IODFG_NO_ACTIVITY) {
                continue;
            }
            if (v->ent[i] & IODFG_PT_START) {
                starts[a]++;
                rise[a] = ++net[a] > rise[a] ? net[a] : rise[a];
            } else {
                net[a]--;
            }
        }
    }
}

/* Activity a's lower bound of the maximum and the first bucket known to reach it: a bucket with
 * a start reaches at least 1 and at least its end count (only ends follow its last start). */
static int64_t lower_bound(const int64_t *sums, const int64_t *at, uint32_t nb, uint32_t nact,
                           uint32_t a, uint32_t *first)
{
    size_t np = (size_t)nb * nact;
    int64_t low = INT64_MIN;
    for (uint32_t b = 0; b < nb; b++) {
        size_t i = (size_t)b * nact + a;
        int64_t end = at[i] + sums[IODFG_PARTIAL_NET * np + i];
        int64_t reach = end > 1 ? end : 1;
        if (sums[IODFG_PARTIAL_STARTS * np + i] > 0 && reach > low) {
            low = reach;
            *first = b;
        }
    }
    return low;
}

uint64_t iodfg_partial_bucket_pick(const int64_t *sums, uint32_t nb, uint32_t nact, int64_t *at,
                                   uint8_t *pick)
{
    size_t np = (size_t)nb * nact;
    uint64_t n = 0;
    for (uint32_t a = 0; a < nact; a++) {
        int64_t count = 0;
        for (uint32_t b = 0; b < nb; b++) {
            at[(size_t)b * nact + a] = count;
            count += sums[IODFG_PARTIAL_NET * np + (size_t)b * nact + a];
        }
        uint32_t first = 0;
        int64_t low = lower_bound(sums, at, nb, nact, a, &first);
        for (uint32_t b = 0; b < nb; b++) {
            size_t i = (size_t)b * nact + a;
            int64_t bound = at[i] + sums[IODFG_PARTIAL_RISE * np + i];
            // the first point reaching the maximum: a later bucket that only ties is not it
            pick[i] = sums[IODFG_PARTIAL_STARTS * np + i] > 0 &&
                      (bound > low || (bound == low && b <= first));
            n += pick[i];
        }
    }
    return n;
}

uint64_t iodfg_partial_bucket_count(const int64_t *sums, uint32_t nb, uint32_t nact,
                                    const uint8_t *pick, uint32_t b0, uint32_t b1)
{
    size_t np = (size_t)nb * nact;
    uint64_t n = 0;
    for (size_t i = (size_t)b0 * nact; i < (size_t)b1 * nact; i++) {
        // starts and ends: the net is starts minus ends
        n += pick[i] ? (uint64_t)(2 * sums[IODFG_PARTIAL_STARTS * np + i] -
                                  sums[IODFG_PARTIAL_NET * np + i])
                     : 0;
    }
    return n;
}

size_t iodfg_partial_bucket_copy(const struct iodfg_partial_view *v, const uint64_t *pos,
                                 uint32_t nact, const uint8_t *pick, uint32_t b0, uint32_t b1,
                                 struct iodfg_partial_point *out)
{
    size_t k = 0;
    for (uint32_t b = b0; b < b1; b++) {
        const uint8_t *in = pick + (size_t)b * nact;
        uint64_t end = bucket_picked(pick, nact, b) ? pos[b + 1] : pos[b];
        for (uint64_t i = pos[b]; i < end; i++) {
            uint32_t a = act_at(v, i);
            if (a != IODFG_NO_ACTIVITY && in[a]) {
                iodfg_partial_view_at(v, i, &out[k++]);
            }
        }
    }
    return k;
}

/* ---- the sweep of sorted runs in their merged order ---- */

/* The heads of sorted runs as a binary heap (the least point on top), for their merged order;
 * run nruns, when there is a view, is the view's positions of bk's buckets (its points of
 * picked pairs). */
struct heads {
    const struct iodfg_partial_point *const *run;
    const size_t *len;
    size_t nruns;
    const struct iodfg_partial_view *view;
    const struct iodfg_partial_buckets *bk;
    uint32_t nact, vb; /* the bucket of the view's next position */
    uint64_t vat;
    struct iodfg_partial_point *head; /* each run's next point */
    size_t *at;                       /* the position after it */
    size_t *top;                      /* heap of the runs that have points left */
    size_t n;
};

/* The view's next point of a picked pair into *pt; 0 when it has none left. */
static int view_next(struct heads *h, struct iodfg_partial_point *pt)
{
    const struct iodfg_partial_buckets *bk = h->bk;
    while (h->vb < bk->b1) {
        if (h->vat == bk->pos[h->vb] && !bucket_picked(bk->pick, h->nact, h->vb)) {
            h->vat = bk->pos[h->vb + 1]; // a bucket without pairs to sweep is skipped whole
        }
        if (h->vat == bk->pos[h->vb + 1]) {
            h->vb++;
            continue;
        }
        uint32_t a = act_at(h->view, h->vat++);
        if (a != IODFG_NO_ACTIVITY && (!bk->pick || bk->pick[(size_t)h->vb * h->nact + a])) {
            iodfg_partial_view_at(h->view, h->vat - 1, pt);
            return 1;
        }
    }
    return 0;
}

/* Run r's next point into h->head[r]; 0 when it has none left. */
static int head_next(struct heads *h, size_t r)
{
    if (r < h->nruns) {
        if (h->at[r] == h->len[r]) {
            return 0;
        }
        h->head[r] = h->run[r][h->at[r]++];
        return 1;
    }
    return view_next(h, &h->head[r]);
}

static int head_less(const struct heads *h, size_t a, size_t b)
{
    int c = iodfg_partial_point_cmp(&h->head[a], &h->head[b]);
    return c < 0 || (c == 0 && a < b);
}

static void heads_down(struct heads *h, size_t i)
{
    for (;;) {
        size_t l = 2 * i + 1, m = i;
        if (l < h->n && head_less(h, h->top[l], h->top[m])) {
            m = l;
        }
        if (l + 1 < h->n && head_less(h, h->top[l + 1], h->top[m])) {
            m = l + 1;
        }
        if (m == i) {
            return;
        }
        size_t t = h->top[i];
        h->top[i] = h->top[m];
        h->top[m] = t;
        i = m;
    }
}

static void heads_fini(struct heads *h)
{
    free(h->head);
    free(h->at);
    free(h->top);
}

/* The heap of every run's first point. 0, or -1 when out of memory. */
static int heads_init(struct heads *h, size_t all)
{
    h->head = calloc(all + 1, sizeof(*h->head));
    h->at = calloc(all + 1, sizeof(size_t));
    h->top = calloc(all + 1, sizeof(size_t));
    if (!h->head || !h->at || !h->top) {
        heads_fini(h);
        return -1;
    }
    for (size_t r = 0; r < all; r++) {
        if (head_next(h, r)) {
            h->top[h->n++] = r;
        }
    }
    for (size_t i = h->n; i-- > 0;) {
        heads_down(h, i);
    }
    return 0;
}

int iodfg_partial_sweep_buckets(const struct iodfg_partial_view *view,
                                const struct iodfg_partial_buckets *bk,
                                const struct iodfg_partial_point *const *runs, const size_t *len,
                                size_t nruns, uint32_t nact, int64_t *best, int64_t *when,
                                struct iodfg_error *err)
{
    int64_t *cur = malloc(((size_t)nact + 1) * sizeof(*cur));
    uint32_t *in = malloc(((size_t)nact + 1) * sizeof(*in)); // the bucket cur[a] counts in
    struct heads h = {.run = runs,
                      .len = len,
                      .nruns = nruns,
                      .view = view,
                      .bk = bk,
                      .nact = nact,
                      .vb = bk->b0,
                      .vat = view ? bk->pos[bk->b0] : 0};
    if (!cur || !in || heads_init(&h, nruns + (view != NULL))) {
        free(cur);
        free(in);
        return iodfg_error_set(err, IODFG_E_NOMEM, NULL);
    }
    memset(in, 0xff, ((size_t)nact + 1) * sizeof(*in));
    uint32_t b = bk->b0;
    // equal points of one activity have the same effect, so the order among them is free
    while (h.n) {
        size_t r = h.top[0];
        const struct iodfg_partial_point p = h.head[r];
        while (b + 1 < bk->nb && iodfg_partial_point_cmp(&p, &bk->split[b]) >= 0) {
            b++;
        }
        if (in[p.act] != b) { // the pair's first point: its count at the bucket's start
            in[p.act] = b;
            cur[p.act] = bk->at[(size_t)b * nact + p.act];
        }
        if (!p.start) {
            cur[p.act]--;
        } else if (++cur[p.act] > best[p.act]) {
            best[p.act] = cur[p.act];
            when[p.act] = p.time_ns;
        }
        if (!head_next(&h, r)) {
            h.top[0] = h.top[--h.n];
        }
        heads_down(&h, 0);
    }
    free(cur);
    free(in);
    heads_fini(&h);
    return 0;
}

int iodfg_partial_sweep_view(const struct iodfg_partial_view *view, uint64_t lo, uint64_t hi,
                             const struct iodfg_partial_point *const *runs, const size_t *len,
                             size_t nruns, const int64_t *carry, uint32_t nact, int64_t *best,
                             int64_t *when, struct iodfg_error *err)
{
    const uint64_t pos[2] = {lo, hi};
    const struct iodfg_partial_buckets one = {1, 0, 1, NULL, pos, carry, NULL};
    return iodfg_partial_sweep_buckets(view, &one, runs, len, nruns, nact, best, when, err);
}

int iodfg_partial_sweep_runs(const struct iodfg_partial_point *const *runs, const size_t *len,
                             size_t nruns, const int64_t *carry, uint32_t nact, int64_t *best,
                             int64_t *when, struct iodfg_error *err)
{
    return iodfg_partial_sweep_view(NULL, 0, 0, runs, len, nruns, carry, nact, best, when, err);
}

int iodfg_partial_sweep(const struct iodfg_partial_point *pts, size_t n, const int64_t *carry,
                        uint32_t nact, int64_t *best, int64_t *when, struct iodfg_error *err)
{
    return iodfg_partial_sweep_runs(&pts, &n, 1, carry, nact, best, when, err);
}
