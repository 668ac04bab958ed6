/* SPDX-License-Identifier: MIT */
/* The heatmap's binning pass: each counted call is split by time over the bins it overlaps
 * (busy time = the overlap), its bytes are spread over its duration by cumulative shares, so
 * that the parts add up to the call's bytes exactly, and it is counted once, in the bin holding
 * its start. A call of duration 0 (or unknown) puts its bytes and its count in that bin. */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "iodfg/error.h"
#include "iodfg/eventlog.h"
#include "iodfg/strpool.h"
#include "iodfg/trace.h"

#include "heatmap_priv.h"

/* Add one call [s, s + d) of `bytes` bytes to the cells of row base (its first cell). */
static void spread(struct iodfg_heatmap *hm, const struct hm_grid *g, size_t base, int64_t s,
                   int64_t d, int64_t bytes)
{
    hm->events++;
    if (d == 0) {
        hm->zero_dur++;
        if (s < g->from || s >= g->to) {
            hm->events_outside++;
            return;
        }
        size_t i = base + hm_bin_at(g, s);
        hm->bytes[i] = iodfg_sat_add(hm->bytes[i], bytes);
        hm->calls[i]++;
        return;
    }
    int64_t end = s + d;
    if (end <= g->from || s >= g->to) {
        hm->events_outside++;
        return;
    }
    int64_t lo = s > g->from ? s : g->from, hi = end < g->to ? end : g->to;
    uint32_t i = hm_bin_at(g, lo);
    if (s >= g->from) {
        hm->calls[base + i]++;
    }
    if (s >= g->edge[i] && end <= g->edge[i + 1]) { // the whole call in one bin
        hm->bytes[base + i] = iodfg_sat_add(hm->bytes[base + i], bytes);
        hm->busy_ns[base + i] = iodfg_sat_add(hm->busy_ns[base + i], d);
        return;
    }
    // bytes up to time t of the call: floor(|bytes| (t - s) / d); each bin takes the difference
    int neg = bytes < 0;
    int64_t mag = neg ? -bytes : bytes;
    int64_t prev = iodfg_heatmap_share(mag, lo - s, d);
    for (; i < g->nbins && g->edge[i] < hi; i++) {
        int64_t a = g->edge[i] > lo ? g->edge[i] : lo;
        int64_t z = g->edge[i + 1] < hi ? g->edge[i + 1] : hi;
        int64_t sh = iodfg_heatmap_share(mag, z - s, d);
        hm->busy_ns[base + i] = iodfg_sat_add(hm->busy_ns[base + i], z - a);
        hm->bytes[base + i] = iodfg_sat_add(hm->bytes[base + i], neg ? prev - sh : sh - prev);
        prev = sh;
    }
}

int hm_fill(struct hm_build *b)
{
    struct iodfg_heatmap *hm = b->hm;
    const struct iodfg_columns *col = b->col;
    const struct iodfg_eventlog *log = b->in->log;
    struct hm_grid g = hm_grid_of(hm);
    uint32_t nc = iodfg_eventlog_case_count(log), na = b->in->map->nactivities;
    int by_act = hm->by == IODFG_HEATMAP_ACTIVITY;
    int64_t t0 = INT64_MAX, t1 = INT64_MIN;
    for (uint32_t c = 0; c < nc; c++) {
        uint64_t lo, hi;
        if (b->band[c] == HM_OFF || !iodfg_trace_case_range(log, b->in->sel, c, &lo, &hi)) {
            continue;
        }
        const uint32_t *act_row = by_act ? b->act_row + (size_t)b->band[c] * na : NULL;
        for (uint64_t e = lo; e < hi; e++) {
            uint32_t a = hm_counted(b, e);
            if (a == IODFG_NO_ACTIVITY) {
                continue;
            }
            uint32_t r = by_act ? act_row[a] : b->case_row[c];
            if (b->erow) {
                b->erow[e] = r; // for the peak sweep
            }
            int64_t s = col->start_ns[e], d = hm_dur(col, e);
            int64_t z = col->size && col->size[e] != IODFG_UNKNOWN ? col->size[e] : 0;
            t0 = s < t0 ? s : t0;
            t1 = s + (d ? d : 1) > t1 ? s + (d ? d : 1) : t1; // an instant ends 1 ns later
            spread(hm, &g, (size_t)r * hm->nbins, s, d, z);
        }
    }
    hm->span_from_ns = t0 <= t1 ? t0 : 0;
    hm->span_to_ns = t0 <= t1 ? t1 : 0;
    return 0;
}

void hm_finish(struct hm_build *b)
{
    struct iodfg_heatmap *hm = b->hm;
    for (uint32_t r = 0; r < hm->nrows; r++) {
        struct iodfg_heatmap_row *row = &hm->row[r];
        for (uint32_t i = 0; i < hm->nbins; i++) {
            size_t x = (size_t)r * hm->nbins + i;
            row->bytes = iodfg_sat_add(row->bytes, hm->bytes[x]);
            row->busy_ns = iodfg_sat_add(row->busy_ns, hm->busy_ns[x]);
            row->calls += hm->calls[x];
            if (hm->peak && hm->peak[x] > row->peak) {
                row->peak = hm->peak[x];
            }
            for (int m = 0; m < IODFG_HM__N; m++) {
                int64_t v = iodfg_heatmap_cell(hm, r, i, (enum iodfg_heatmap_metric)m);
                hm->max_cell[m] = v > hm->max_cell[m] ? v : hm->max_cell[m];
            }
        }
        hm->bytes_total = iodfg_sat_add(hm->bytes_total, row->bytes);
        hm->busy_total_ns = iodfg_sat_add(hm->busy_total_ns, row->busy_ns);
        hm->calls_total += row->calls;
    }
}

void hm_build_fini(struct hm_build *b)
{
    free(b->band);
    free(b->has_act);
    free(b->case_src);
    free(b->disp);
    free(b->case_row);
    free(b->act_row);
    free(b->erow);
}
