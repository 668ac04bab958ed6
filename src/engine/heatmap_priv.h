/* SPDX-License-Identifier: MIT */
/* Engine-internal: the state of one heatmap build, shared by its passes (heatmap_build.c: rows
 * and grid; heatmap_fill.c: the binning; heatmap_peak.c: the concurrency sweep). */
#ifndef IODFG_ENGINE_HEATMAP_PRIV_H
#define IODFG_ENGINE_HEATMAP_PRIV_H

#include <stdint.h>

#include "iodfg/eventlog.h"
#include "iodfg/heatmap.h"
#include "iodfg/mapping.h"
#include "iodfg/picture.h"

struct iodfg_error;

/* band[] value of a case that is not shown. */
#define HM_OFF IODFG_PICTURE_OFF

struct hm_build {
    const struct iodfg_picture_input *in;
    struct iodfg_heatmap *hm;
    const struct iodfg_columns *col;
    uint8_t *band;      /* per case: its band, HM_OFF when not shown */
    int64_t t0, t1;     /* the counted events' first start and last end */
    uint8_t *has_act;   /* activity rows: [band * nactivities + a] has events */
    uint32_t *case_src; /* per shown case: its source row (case, host, cid rows) */
    uint32_t *disp;     /* per source row: its displayed row */
    uint32_t *case_row; /* per case: its displayed row (case, host, cid rows) */
    uint32_t *act_row;  /* activity rows: [band * nactivities + a]: displayed row */
    uint32_t src_cap;
    uint32_t *erow; /* peaks only: per event, the row the binning pass counted it in, else
                       UINT32_MAX (the sweep's points come in time order, events anywhere) */
};

/* The grid as the passes read it. */
struct hm_grid {
    const int64_t *edge;
    int64_t from, to;
    uint32_t nbins;
    double scale; /* nbins / (to - from) */
};

static inline struct hm_grid hm_grid_of(const struct iodfg_heatmap *hm)
{
    return (struct hm_grid){hm->edge, hm->from_ns, hm->to_ns, hm->nbins,
                            (double)hm->nbins / ((double)hm->to_ns - (double)hm->from_ns)};
}

/* The bin holding t, from <= t < to: a guess from the scale, then a step or two along the
 * edges (bins differ in width by 1 ns at most). */
static inline uint32_t hm_bin_at(const struct hm_grid *g, int64_t t)
{
    double x = (double)(t - g->from) * g->scale;
    uint32_t i = x <= 0 ? 0 : x >= g->nbins ? g->nbins - 1 : (uint32_t)x;
    while (i > 0 && g->edge[i] > t) {
        i--;
    }
    while (i + 1 < g->nbins && g->edge[i + 1] <= t) {
        i++;
    }
    return i;
}

/* The activity of event e when it is counted (mapped and in the focus), else
 * IODFG_NO_ACTIVITY. */
static inline uint32_t hm_counted(const struct hm_build *b, uint64_t e)
{
    uint32_t a = b->in->map->activity_of_key[b->col->key[e]];
    if (a != IODFG_NO_ACTIVITY && b->in->act_on && !b->in->act_on[a]) {
        return IODFG_NO_ACTIVITY;
    }
    return a;
}

/* The duration of event e that the heatmap counts: 0 when unknown or negative. */
static inline int64_t hm_dur(const struct iodfg_columns *col, uint64_t e)
{
    int64_t d = col->dur_ns ? col->dur_ns[e] : 0;
    return d == IODFG_UNKNOWN || d < 0 ? 0 : d;
}

/* The binning pass over the counted events (heatmap_fill.c). Returns 0. */
int hm_fill(struct hm_build *b);
/* The row sums, totals and largest cells. */
void hm_finish(struct hm_build *b);
/* The exact peak concurrency of every cell from the timeline (heatmap_peak.c). 0 or -1. */
int hm_peaks(struct hm_build *b, struct iodfg_error *err);
void hm_build_fini(struct hm_build *b);

#endif
