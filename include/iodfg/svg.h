/* SPDX-License-Identifier: MIT */
/* SVG 1.1 pictures for reports: the heatmap, the offset map and the concurrency timeline, each
 * with axes and units, a legend, the log's name, the filters, focus, groups and clock in force,
 * and the same notes as the screen (aggregated rows, inferred and unknown offsets, what was left
 * out). Colours come from colour-blind-safe sets (viridis; Okabe and Ito) and never carry meaning
 * alone. Untrusted text goes through iodfg_sanitize_xml. No library: text into a buffer. */
#ifndef IODFG_SVG_H
#define IODFG_SVG_H

#include <stdint.h>

#include "iodfg/heatmap.h"

struct iodfg_buf;
struct iodfg_offsetmap;
struct iodfg_picture_meta;

/* Widths in pixels: the default, and the range a picture's texts and legend fit in (a width
 * outside it is taken as the nearer end; front-ends refuse it first). */
#define IODFG_SVG_WIDTH 960
#define IODFG_SVG_MIN_WIDTH 600
#define IODFG_SVG_MAX_WIDTH 20000

struct iodfg_svg_opts {
    int width;                        /* pixels (0: IODFG_SVG_WIDTH) */
    enum iodfg_heatmap_metric metric; /* heatmap: what a cell's shade shows */
    int log_scale;                    /* heatmap: shades on a logarithmic scale */
    uint32_t lanes;                   /* timeline: activity lanes at most (0: 12) */
    uint32_t max_points;              /* offset map: marks drawn one by one up to this many per
                                       * panel, beyond on a grid of cells (0: 20000) */
    int offsets_rw;                   /* offset map: marks coloured by read/write, not by case */
};
void iodfg_svg_opts_init(struct iodfg_svg_opts *o);

/* Each appends one SVG document to out: 0, or -1 when out of memory. meta may be NULL.
 * Heatmap: rows by time bins, shaded by o->metric, with the sums per bin above and per row on
 * the right (as PyDarshan's heatmap), G and R as two bands. */
int iodfg_svg_heatmap(struct iodfg_buf *out, const struct iodfg_heatmap *hm,
                      const struct iodfg_picture_meta *meta, const struct iodfg_svg_opts *o);
/* Offset map: offset against time, writes above and reads below, one mark per point (faded
 * when inferred, outlined when it overlaps another case's writes), overlapping ranges shaded,
 * the patterns named and the unknown offsets counted. */
int iodfg_svg_offsets(struct iodfg_buf *out, const struct iodfg_offsetmap *om,
                      const struct iodfg_picture_meta *meta, const struct iodfg_svg_opts *o);
/* Timeline: one lane per activity (the busiest o->lanes) of a heatmap built by activity: the
 * mean number of its calls in flight in each bin (busy time / bin width) and, when the heatmap
 * has peaks, the most in flight at one moment. */
int iodfg_svg_timeline(struct iodfg_buf *out, const struct iodfg_heatmap *hm,
                       const struct iodfg_picture_meta *meta, const struct iodfg_svg_opts *o);

#endif
