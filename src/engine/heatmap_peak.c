/* SPDX-License-Identifier: MIT */
/* The heatmap's peak concurrency: one sweep over the log's time order of call boundaries
 * (iodfg/timeline.h) counts each row's calls in flight, and every bin keeps the highest count
 * it saw, including the count carried in from before the bin. Half-open intervals: a call
 * ending at t and one starting at t never overlap (ends come first), as for the statistics' mc;
 * calls of duration 0 or unknown have no interval and never count. */
#include "config.h"

#include <stdlib.h>

#include "iodfg/error.h"
#include "iodfg/eventlog.h"
#include "iodfg/mapping.h"
#include "iodfg/timeline.h"

#include "heatmap_priv.h"

/* How many points ahead the sweep fetches the events' cache lines. */
#define AHEAD 16

/* Raise bins [from, to] of row base to level. */
static void raise_bins(uint32_t *peak, size_t base, uint32_t from, uint32_t to, uint32_t level)
{
    for (uint32_t i = from; i <= to; i++) {
        peak[base + i] = level > peak[base + i] ? level : peak[base + i];
    }
}

/* Per row: the calls in flight since its last point, that point's time and bin. */
struct level {
    uint32_t cnt, bin;
    int64_t t;
};

int hm_peaks(struct hm_build *b, struct iodfg_error *err)
{
    struct iodfg_heatmap *hm = b->hm;
    const struct iodfg_timeline *tl = b->in->tl;
    const struct iodfg_columns *col = b->col;
    if (tl->n != iodfg_eventlog_event_count(b->in->log) || !col->dur_ns) {
        return iodfg_error_set(err, IODFG_E_ARG, "the timeline does not belong to this log");
    }
    size_t cells = (size_t)hm->nrows * hm->nbins;
    hm->peak = calloc(cells + 1, sizeof(*hm->peak));
    struct level *lv = malloc(((size_t)hm->nrows + 1) * sizeof(*lv));
    if (!hm->peak || !lv) {
        free(lv);
        return iodfg_error_set(err, IODFG_E_NOMEM, "out of memory for the heatmap");
    }
    for (uint32_t r = 0; r < hm->nrows; r++) {
        lv[r] = (struct level){0, 0, INT64_MIN};
    }
    int64_t from = hm->from_ns;
    struct hm_grid g = hm_grid_of(hm);
    for (uint64_t i = 0; i < tl->npts; i++) {
#ifdef __GNUC__
        if (i + AHEAD < tl->npts) { // the points come in time order: their events lie anywhere
            uint32_t ahead = tl->pts[i + AHEAD] & ~IODFG_PT_START;
            __builtin_prefetch(&b->erow[ahead]);
            __builtin_prefetch(&col->start_ns[ahead]);
            __builtin_prefetch(&col->dur_ns[ahead]);
        }
#endif
        uint32_t p = tl->pts[i], e = p & ~IODFG_PT_START;
        uint32_t r = b->erow[e]; // UINT32_MAX: the binning pass did not count it
        if (r == UINT32_MAX) {
            continue;
        }
        int start = (p & IODFG_PT_START) != 0;
        int64_t t = col->start_ns[e] + (start ? 0 : col->dur_ns[e]);
        if (t >= hm->to_ns) {
            break; // the counted cases share one clock, whose points come in time order
        }
        struct level *l = &lv[r];
        uint32_t bin = t >= from ? hm_bin_at(&g, t) : 0;
        if (t > from && t > l->t && l->cnt) { // the count held over [max(l->t, from), t)
            uint32_t before = hm->edge[bin] < t ? bin : bin - 1; // the bin holding t - 1
            raise_bins(hm->peak, (size_t)r * hm->nbins, l->t >= from ? l->bin : 0, before, l->cnt);
        }
        l->cnt += start ? 1u : (uint32_t)-1;
        l->t = t;
        l->bin = bin;
    }
    for (uint32_t r = 0; r < hm->nrows; r++) { // calls still in flight at the window's end
        if (lv[r].cnt) {
            raise_bins(hm->peak, (size_t)r * hm->nbins, lv[r].t >= from ? lv[r].bin : 0,
                       hm->nbins - 1, lv[r].cnt);
        }
    }
    free(lv);
    return 0;
}
