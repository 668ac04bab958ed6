/* SPDX-License-Identifier: MIT */
/* The concurrency timeline as SVG: one lane per activity (the busiest first; G and R side by
 * side), filled with the mean number of its calls in flight in each bin (busy time over the bin
 * width), with the most in flight at one moment drawn as a line over it. */
#include "config.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#include "iodfg/buf.h"
#include "iodfg/heatmap.h"
#include "iodfg/picture.h"
#include "iodfg/svg.h"

#include "svg_priv.h"

#define LABEL_W 200.0
#define LANE_H 44.0
#define LANE_GAP 12.0
#define MEAN_FILL "#56b4e9"
#define PEAK_LINE "#d55e00"

/* An activity's lanes: its rows (one per band) and their busy time together. */
struct lane_act {
    uint32_t id, rows[2], nrows;
    int64_t busy;
};

static int cmp_busy(const void *x, const void *y)
{
    const struct lane_act *a = x, *b = y;
    if (a->busy != b->busy) {
        return a->busy > b->busy ? -1 : 1;
    }
    return (a->id > b->id) - (a->id < b->id);
}

/* The activities of hm's rows, busiest first, into acts (hm->nrows entries); returns their
 * number. */
static uint32_t rank_activities(const struct iodfg_heatmap *hm, struct lane_act *acts)
{
    uint32_t n = 0;
    for (uint32_t r = 0; r < hm->nrows; r++) {
        uint32_t id = hm->src[hm->row[r].first].id, j = 0;
        while (j < n && acts[j].id != id) {
            j++;
        }
        if (j == n) {
            acts[n++] = (struct lane_act){id, {0, 0}, 0, 0};
        }
        if (acts[j].nrows < 2) {
            acts[j].rows[acts[j].nrows++] = r;
        }
        acts[j].busy = iodfg_sat_add(acts[j].busy, hm->row[r].busy_ns);
    }
    qsort(acts, n, sizeof(*acts), cmp_busy);
    return n;
}

/* The mean calls in flight in bin i of row r. */
static double mean_at(const struct iodfg_heatmap *hm, uint32_t r, uint32_t i)
{
    int64_t w = hm->edge[i + 1] - hm->edge[i];
    return w > 0 ? (double)hm->busy_ns[(size_t)r * hm->nbins + i] / (double)w : 0;
}

/* A step path over the bins of row r: the mean (peak = 0) or the peak, from the baseline base
 * upwards (dir -1) or downwards (dir 1) by h at ymax. */
static void step_path(struct svg *s, const struct iodfg_heatmap *hm, uint32_t r, double x0,
                      double cw, double base, double h, int dir, double ymax, int peak)
{
    struct iodfg_buf *b = s->body;
    iodfg_buf_add(b, "<path d=\"M", 10);
    svg_num(b, x0);
    iodfg_buf_add(b, " ", 1);
    svg_num(b, base);
    for (uint32_t i = 0; i < hm->nbins; i++) {
        double v = peak ? hm->peak[(size_t)r * hm->nbins + i] : mean_at(hm, r, i);
        iodfg_buf_add(b, " V", 2);
        svg_num(b, base + dir * h * (v > ymax ? 1 : v / ymax));
        iodfg_buf_add(b, " H", 2);
        svg_num(b, x0 + (i + 1) * cw);
    }
    iodfg_buf_add(b, " V", 2);
    svg_num(b, base);
    iodfg_buf_addf(b, "\" %s/>\n",
                   peak ? "fill=\"none\" stroke=\"" PEAK_LINE "\" stroke-width=\"1.3\""
                        : "fill=\"" MEAN_FILL "\" fill-opacity=\"0.75\" stroke=\"none\"");
}

/* The scale of a row: its highest peak (or mean without peaks), at least 1. */
static double row_max(const struct iodfg_heatmap *hm, uint32_t r)
{
    double ymax = 0;
    for (uint32_t i = 0; i < hm->nbins; i++) {
        double v = hm->peak ? hm->peak[(size_t)r * hm->nbins + i] : mean_at(hm, r, i);
        ymax = v > ymax ? v : ymax;
    }
    return ymax < 1 ? 1 : ceil(ymax);
}

/* The totals of a row under the lane's name. */
static void row_text(struct svg *s, const struct iodfg_heatmap *hm, uint32_t r, double y,
                     const char *band)
{
    const struct iodfg_heatmap_row *row = &hm->row[r];
    char busy[48], calls[48], peak[48] = "";
    if (hm->peak) {
        snprintf(peak, sizeof(peak), ", max %u", row->peak);
    }
    svg_text(s, 16, y, "s", "start", "%s%s busy, %s calls%s", band,
             iodfg_picture_dur_label(busy, sizeof(busy), row->busy_ns),
             iodfg_picture_count_label(calls, sizeof(calls), row->calls), peak);
}

/* One activity's lane: its G row above a middle axis and its R row below when there are two
 * bands (one scale for both), else its row above the lane's bottom. */
static double draw_lane(struct svg *s, const struct iodfg_heatmap *hm, const struct lane_act *a,
                        double x0, double pw, double y)
{
    int two = hm->nbands > 1;
    double cw = pw / (hm->nbins ? hm->nbins : 1), h = two ? 30 : LANE_H - 8, ymax = 0;
    double lane = two ? 2 * h : h + 8;
    for (uint32_t k = 0; k < a->nrows; k++) {
        double m = row_max(hm, a->rows[k]);
        ymax = m > ymax ? m : ymax;
    }
    svg_rect(s, x0, y, pw, lane, "#f5f5f5", NULL);
    double mid = y + (two ? h : lane);
    for (uint32_t k = 0; k < a->nrows; k++) {
        uint32_t r = a->rows[k];
        int dir = hm->row[r].band ? 1 : -1;
        step_path(s, hm, r, x0, cw, mid, h, dir, ymax, 0);
        if (hm->peak) {
            step_path(s, hm, r, x0, cw, mid, h, dir, ymax, 1);
        }
    }
    svg_line(s, x0, mid, x0 + pw, mid, "#999999", NULL);
    svg_text(s, x0 - 4, y + 9, "s", "end", "%s%lld", two ? "G " : "", (long long)ymax);
    svg_text(s, x0 - 4, mid + 4, "s", "end", "0");
    if (two) {
        svg_text(s, x0 - 4, y + lane, "s", "end", "R %lld", (long long)ymax);
    }
    struct iodfg_buf label;
    iodfg_buf_init(&label);
    iodfg_heatmap_row_label(hm, a->rows[0], &label);
    svg_name(s, 16, y + 12, "", "start", label.data ? label.data : "",
             (size_t)((LABEL_W - 30) / (11 * SVG_EM_ADVANCE)));
    iodfg_buf_fini(&label);
    for (uint32_t k = 0; k < a->nrows; k++) {
        uint8_t band = hm->row[a->rows[k]].band;
        row_text(s, hm, a->rows[k], y + 25 + (two ? 12 * band : 0),
                 two ? (band ? "R " : "G ") : "");
    }
    if (two && a->nrows < 2) {
        svg_text(s, 16, y + 25 + 12 * !hm->row[a->rows[0]].band, "s", "start", "%s none",
                 hm->row[a->rows[0]].band ? "G" : "R");
    }
    return y + lane + LANE_GAP;
}

static double draw_legend(struct svg *s, const struct iodfg_heatmap *hm, double y)
{
    if (hm->nbands > 1) {
        svg_text(s, 16, y, "", "start",
                 "Group G above each lane's middle line, group R below it (one scale for both).");
        y += 16;
    }
    svg_rect(s, 16, y - 9, 14, 10, MEAN_FILL, "fill-opacity=\"0.75\"");
    svg_text(s, 36, y, "", "start",
             "mean calls in flight over a bin (busy time / bin width; the TUI's concurrency)");
    y += 16;
    if (hm->peak) {
        svg_line(s, 16, y - 4, 30, y - 4, PEAK_LINE, "stroke-width=\"1.3\"");
        svg_text(s, 36, y, "", "start",
                 "most calls in flight at one moment of the bin (exact; its highest value, "
                 "\"max\" under the name, is the statistics' mc)");
        y += 16;
    }
    return y + 4;
}

int iodfg_svg_timeline(struct iodfg_buf *out, const struct iodfg_heatmap *hm,
                       const struct iodfg_picture_meta *meta, const struct iodfg_svg_opts *opts)
{
    uint32_t max_lanes = opts && opts->lanes ? opts->lanes : 12;
    struct iodfg_buf body;
    struct svg s;
    svg_start(&s, &body, opts);
    const char *title = "Concurrency per activity over time";
    double y = svg_header(&s, 26, title, meta, hm->clock, hm->from_ns) + 16;
    y = draw_legend(&s, hm, y);
    struct lane_act *acts = malloc(((size_t)hm->nrows + 1) * sizeof(*acts));
    if (!acts) {
        iodfg_buf_fini(&body);
        return -1;
    }
    uint32_t nacts = rank_activities(hm, acts), shown = nacts < max_lanes ? nacts : max_lanes;
    double x0 = 16 + LABEL_W, pw = s.w - x0 - 24;
    int64_t busy_shown = 0;
    for (uint32_t a = 0; a < shown; a++) {
        y = draw_lane(&s, hm, &acts[a], x0, pw, y);
        busy_shown = iodfg_sat_add(busy_shown, acts[a].busy);
    }
    if (!nacts) {
        y = svg_note(&s, x0, y + 12, "No counted events in the selection.") + 8;
    }
    y = svg_time_axis(&s, x0, y - LANE_GAP + 4, pw, hm->from_ns, hm->to_ns, hm->clock, meta) + 8;
    char w[48], pct[24] = "100";
    if (hm->busy_total_ns > 0 && busy_shown < hm->busy_total_ns) { // tenths, without the locale
        long long t = (long long)(1000.0 * (double)busy_shown / (double)hm->busy_total_ns);
        snprintf(pct, sizeof(pct), "%lld.%lld", t / 10, t % 10);
    }
    y = svg_note(&s, 16, y,
                 "Lanes: the %u busiest of %u activities (%s%% of the busy time in the "
                 "window); each lane has its own scale (calls in flight, left).",
                 shown, nacts, pct);
    y = svg_note(&s, 16, y,
                 "Bins: %u of %s; a call's time is split over the bins it spans. "
                 "Calls of zero or unknown duration have no time in flight.",
                 hm->nbins,
                 iodfg_picture_dur_label(w, sizeof(w),
                                         hm->nbins ? (hm->to_ns - hm->from_ns) / hm->nbins : 0));
    if (hm->clock_dropped) {
        svg_note(&s, 16, y, "%u selected cases use another clock and are not shown.",
                 hm->clock_dropped);
    }
    free(acts);
    int rc = svg_finish(out, &s, title);
    iodfg_buf_fini(&body);
    return rc;
}
