/* SPDX-License-Identifier: MIT */
/* The heatmap as SVG: rows by time bins shaded on a viridis ramp, the sums per bin above and per
 * row on the right (PyDarshan's layout), G and R as two bands, the time axis, a legend and the
 * notes (rows per displayed row, binning, what the window and the clock leave out). */
#include "config.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#include "iodfg/buf.h"
#include "iodfg/heatmap.h"
#include "iodfg/picture.h"
#include "iodfg/svg.h"

#include "svg_priv.h"

#define LABEL_W 220.0 /* the row names' column */
#define MARGIN_W 80.0 /* the per-row sums on the right */
#define TOP_H 46.0    /* the per-bin sums above */
#define BAR "#7a8fa6" /* sums: a neutral blue-grey */
#define EMPTY "#eeeeee"

static const char *const metric_text[IODFG_HM__N] = {"bytes moved", "busy time", "calls started"};
static const char *const by_text[IODFG_HEATMAP__NBY] = {"case", "host", "cid", "activity"};
static const char *const by_plural[IODFG_HEATMAP__NBY] = {"cases", "hosts", "cids", "activities"};

/* A value of the metric with its unit. */
static char *value_label(char *out, size_t size, int64_t v, enum iodfg_heatmap_metric m)
{
    if (m == IODFG_HM_BYTES) {
        return iodfg_picture_bytes_label(out, size, v);
    }
    if (m == IODFG_HM_BUSY) {
        return iodfg_picture_dur_label(out, size, v);
    }
    return iodfg_picture_count_label(out, size, v < 0 ? 0 : (uint64_t)v);
}

/* Where a value falls on the ramp. */
static double shade(int64_t v, int64_t max, int log_scale)
{
    if (v <= 0 || max <= 0) {
        return 0;
    }
    return log_scale ? log1p((double)v) / log1p((double)max) : (double)v / (double)max;
}

struct layout {
    double x0, pw, top, rh, cw; /* plot left, width, top; row height; cell width */
    double band_gap;
};

static int64_t row_sum(const struct iodfg_heatmap *hm, uint32_t r, enum iodfg_heatmap_metric m)
{
    const struct iodfg_heatmap_row *row = &hm->row[r];
    return m == IODFG_HM_BYTES  ? row->bytes
           : m == IODFG_HM_BUSY ? row->busy_ns
                                : (int64_t)row->calls;
}

// The sums of each bin over the rows above the plot, scaled to their largest.
static void draw_top(struct svg *s, const struct iodfg_heatmap *hm, const struct layout *L,
                     enum iodfg_heatmap_metric m)
{
    int64_t *sum = calloc((size_t)hm->nbins + 1, sizeof(*sum)), max = 0;
    if (!sum) {
        s->body->failed = 1;
        return;
    }
    for (uint32_t i = 0; i < hm->nbins; i++) {
        for (uint32_t r = 0; r < hm->nrows; r++) {
            sum[i] += iodfg_heatmap_cell(hm, r, i, m);
        }
        max = sum[i] > max ? sum[i] : max;
    }
    double base = L->top - 8;
    svg_line(s, L->x0, base, L->x0 + L->pw, base, "#999999", NULL);
    for (uint32_t i = 0; max > 0 && i < hm->nbins; i++) {
        double h = TOP_H * (double)sum[i] / (double)max;
        if (sum[i] > 0) {
            svg_rect(s, L->x0 + i * L->cw, base - (h < 1 ? 1 : h), L->cw, h < 1 ? 1 : h, BAR, NULL);
        }
    }
    char v[48];
    svg_text(s, L->x0 - 8, base - TOP_H + 8, "s", "end", "per bin, all rows");
    svg_text(s, L->x0 - 8, base - TOP_H + 20, "s", "end", "max %s", value_label(v, 48, max, m));
    free(sum);
}

static double row_y(const struct iodfg_heatmap *hm, const struct layout *L, uint32_t r)
{
    return L->top + r * L->rh + (hm->nbands > 1 ? L->band_gap * (1 + (r >= hm->band_rows[0])) : 0);
}

static void draw_rows(struct svg *s, const struct iodfg_heatmap *hm, const struct layout *L,
                      const struct iodfg_svg_opts *o)
{
    enum iodfg_heatmap_metric m = o->metric;
    int64_t rmax = 0;
    for (uint32_t r = 0; r < hm->nrows; r++) {
        int64_t v = row_sum(hm, r, m);
        rmax = v > rmax ? v : rmax;
    }
    uint32_t every = L->rh >= 11 ? 1 : (uint32_t)ceil(11 / L->rh); // labels that do not collide
    struct iodfg_buf label;
    iodfg_buf_init(&label);
    size_t max_chars = (size_t)(LABEL_W / (11 * SVG_EM_ADVANCE));
    for (uint32_t r = 0; r < hm->nrows; r++) {
        double y = row_y(hm, L, r);
        if (hm->nbands > 1 && (r == 0 || r == hm->band_rows[0])) {
            uint8_t band = hm->row[r].band;
            uint32_t n = 0, rows = hm->band_rows[band];
            for (uint32_t i = 0; i < hm->nsrc; i++) {
                n += hm->src[i].band == band;
            }
            const char *what = n == 1 ? by_text[hm->by] : by_plural[hm->by];
            if (hm->per_row > 1) {
                svg_text(s, 16, y - 5, "b", "start", "group %s: %u %s in %u row%s",
                         band ? "R" : "G", n, what, rows, rows == 1 ? "" : "s");
            } else {
                svg_text(s, 16, y - 5, "b", "start", "group %s: %u %s", band ? "R" : "G", n, what);
            }
        }
        svg_rect(s, L->x0, y, L->pw, L->rh, EMPTY, NULL);
        if (r % every == 0) {
            iodfg_buf_clear(&label);
            iodfg_heatmap_row_label(hm, r, &label);
            svg_name(s, L->x0 - 6, y + L->rh / 2 + 4, "", "end", label.data ? label.data : "",
                     max_chars);
        }
        iodfg_buf_add(s->body, "<g shape-rendering=\"crispEdges\">\n", 33);
        for (uint32_t i = 0; i < hm->nbins; i++) {
            int64_t v = iodfg_heatmap_cell(hm, r, i, m);
            if (v > 0) {
                char fill[8];
                svg_ramp(shade(v, hm->max_cell[m], o->log_scale), fill);
                svg_rect(s, L->x0 + i * L->cw, y, L->cw + 0.05, L->rh, fill, NULL);
            }
        }
        iodfg_buf_add(s->body, "</g>\n", 5);
        int64_t v = row_sum(hm, r, m);
        if (v > 0 && rmax > 0) {
            double w = MARGIN_W * (double)v / (double)rmax;
            svg_rect(s, L->x0 + L->pw + 10, y + 0.5, w < 1 ? 1 : w, L->rh - 1, BAR, NULL);
        }
    }
    iodfg_buf_fini(&label);
    char v[48];
    svg_text(s, L->x0 + L->pw + 10, L->top - 20, "s", "start", "per row");
    svg_text(s, L->x0 + L->pw + 10, L->top - 8, "s", "start", "max %s",
             value_label(v, sizeof(v), rmax, m));
}

// The ramp with its ends and the empty cell's swatch.
static double draw_legend(struct svg *s, const struct iodfg_heatmap *hm, double x, double y,
                          const struct iodfg_svg_opts *o)
{
    enum iodfg_heatmap_metric m = o->metric;
    svg_text(s, x, y, "b", "start", "%s in a cell (one row, one bin)%s", metric_text[m],
             o->log_scale ? ", logarithmic scale" : "");
    y += 8;
    iodfg_buf_add(s->body, "<g shape-rendering=\"crispEdges\">\n", 33);
    for (int i = 0; i < 100; i++) {
        char fill[8];
        svg_ramp((i + 0.5) / 100, fill);
        svg_rect(s, x + i * 2.4, y, 2.45, 12, fill, NULL);
    }
    iodfg_buf_add(s->body, "</g>\n", 5);
    char lo[48], hi[48];
    int64_t min = hm->max_cell[m] > 0 ? 1 : 0;
    svg_text(s, x, y + 25, "", "start", "%s", value_label(lo, sizeof(lo), min, m));
    svg_text(s, x + 240, y + 25, "", "end", "%s", value_label(hi, sizeof(hi), hm->max_cell[m], m));
    svg_rect(s, x + 260, y, 12, 12, EMPTY, "stroke=\"#bbbbbb\" stroke-width=\"0.5\"");
    svg_text(s, x + 278, y + 10, "", "start", "none");
    return y + 40;
}

static double draw_notes(struct svg *s, const struct iodfg_heatmap *hm, double y)
{
    char a[48], b[48], c[48], d[48];
    int64_t width = hm->nbins ? (hm->to_ns - hm->from_ns) / hm->nbins : 0;
    if (hm->per_row > 1) {
        y = svg_note(s, 16, y, "Rows: %u %s, %u per row (the last row of a band may hold fewer).",
                     hm->nsrc, by_plural[hm->by], hm->per_row);
    } else {
        y = svg_note(s, 16, y, "Rows: %u %s, one per row.", hm->nsrc, by_plural[hm->by]);
    }
    y = svg_note(s, 16, y,
                 "Bins: %u of %s. A call spanning bins is split by time and its bytes are "
                 "spread over its duration (the bins add up to the totals exactly);",
                 hm->nbins, iodfg_picture_dur_label(a, sizeof(a), width));
    y = svg_note(s, 16, y,
                 "a call counts once, in the bin where it starts; %s of zero or unknown duration "
                 "put their bytes there.",
                 iodfg_picture_count_label(a, sizeof(a), hm->zero_dur));
    y = svg_note(s, 16, y,
                 "In the window: %s moved, %s busy, %s calls started; %s of %s counted "
                 "calls lie outside it.",
                 iodfg_picture_bytes_label(a, sizeof(a), hm->bytes_total),
                 iodfg_picture_dur_label(b, sizeof(b), hm->busy_total_ns),
                 iodfg_picture_count_label(c, sizeof(c), hm->calls_total),
                 iodfg_picture_count_label(d, sizeof(d), hm->events_outside),
                 iodfg_picture_count_label((char[48]){0}, 48, hm->events));
    if (hm->clock_dropped) {
        y = svg_note(s, 16, y, "%u selected cases use another clock and are not shown.",
                     hm->clock_dropped);
    }
    if (hm->outside_groups) {
        y = svg_note(s, 16, y, "%u selected cases are in neither group and are not shown.",
                     hm->outside_groups);
    }
    return y;
}

int iodfg_svg_heatmap(struct iodfg_buf *out, const struct iodfg_heatmap *hm,
                      const struct iodfg_picture_meta *meta, const struct iodfg_svg_opts *opts)
{
    struct iodfg_svg_opts o;
    iodfg_svg_opts_init(&o);
    if (opts) {
        o = *opts;
    }
    o.metric = (unsigned)o.metric < IODFG_HM__N ? o.metric : IODFG_HM_BYTES;
    struct iodfg_buf body;
    struct svg s;
    svg_start(&s, &body, &o);
    char title[160];
    snprintf(title, sizeof(title), "I/O heatmap: %s per %s over time", metric_text[o.metric],
             by_text[hm->by]);
    double y = svg_header(&s, 26, title, meta, hm->clock, hm->from_ns);
    struct layout L = {.x0 = 16 + LABEL_W + 8, .band_gap = hm->nbands > 1 ? 18 : 0};
    L.pw = s.w - L.x0 - MARGIN_W - 28;
    L.top = y + TOP_H + 22;
    uint32_t rows = hm->nrows ? hm->nrows : 1;
    L.rh = 380.0 / rows < 4 ? 4 : 380.0 / rows > 16 ? 16 : 380.0 / rows;
    L.cw = L.pw / (hm->nbins ? hm->nbins : 1);
    draw_top(&s, hm, &L, o.metric);
    draw_rows(&s, hm, &L, &o);
    y = row_y(hm, &L, rows - 1) + L.rh + 4;
    if (!hm->nrows) {
        y = svg_note(&s, L.x0, L.top + 12, "No counted events in the selection.");
    }
    y = svg_time_axis(&s, L.x0, y, L.pw, hm->from_ns, hm->to_ns, hm->clock, meta);
    y = draw_legend(&s, hm, 16, y + 16, &o);
    draw_notes(&s, hm, y);
    int rc = svg_finish(out, &s, title);
    iodfg_buf_fini(&body);
    return rc;
}
