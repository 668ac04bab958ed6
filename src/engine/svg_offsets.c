/* SPDX-License-Identifier: MIT */
/* The offset map as SVG (DXT Explorer's picture): offset against time, writes above and reads
 * below. A mark per transfer spans its duration and its bytes; faded when its offset is
 * inferred, outlined when another case writes its range too; ranges written by two cases or more
 * shaded. Beyond max_points marks a panel is drawn as a grid of small cells, said in a note.
 * Unknown offsets are counted, never drawn. */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "iodfg/buf.h"
#include "iodfg/metrics.h"
#include "iodfg/offsetmap.h"
#include "iodfg/picture.h"
#include "iodfg/strpool.h"
#include "iodfg/svg.h"

#include "svg_priv.h"

#define PANEL_H 190.0
#define AXIS_W 70.0
#define OVERLAP_FILL "#cc79a7"
#define ONE_COLOUR "#0072b2"
#define WRITE_COLOUR "#d55e00" /* Okabe and Ito's vermillion and blue */
#define READ_COLOUR "#0072b2"
#define KEY_GREY "#777777"
#define GRID_PX 3.0

struct panel {
    double x0, pw, top;
    int64_t t0, span, extent;
    int write;
    int by_case; /* colour by case (at most 8 cases) */
    int rw;      /* colour by direction instead */
};

static double px_x(const struct panel *p, int64_t t)
{
    return p->x0 + p->pw * (double)(t - p->t0) / (double)p->span;
}

static double px_y(const struct panel *p, int64_t off)
{
    return p->top + PANEL_H - PANEL_H * (double)off / (double)p->extent;
}

static const char *mark_colour(const struct panel *p, uint32_t row)
{
    if (p->rw) {
        return p->write ? WRITE_COLOUR : READ_COLOUR;
    }
    return p->by_case ? svg_colour(row) : ONE_COLOUR;
}

static void offset_axis(struct svg *s, const struct panel *p)
{
    int64_t step = iodfg_picture_step_pow2(p->extent, 5);
    svg_line(s, p->x0, p->top, p->x0, p->top + PANEL_H, "#444444", NULL);
    for (int64_t o = 0; o <= p->extent; o += step) {
        char label[48];
        double y = px_y(p, o);
        svg_line(s, p->x0 - 4, y, p->x0, y, "#444444", NULL);
        svg_line(s, p->x0, y, p->x0 + p->pw, y, "#e4e4e4", NULL);
        svg_text(s, p->x0 - 6, y + 4, "s", "end", "%s",
                 iodfg_picture_bytes_label(label, sizeof(label), o));
        if (o > INT64_MAX - step) {
            break;
        }
    }
}

static void mark(struct svg *s, const struct panel *p, const struct iodfg_offset_point *pt)
{
    double x = px_x(p, pt->start_ns), w = p->pw * (double)pt->dur_ns / (double)p->span;
    double y = px_y(p, pt->offset + pt->length), h = PANEL_H * (double)pt->length / p->extent;
    w = w < 2 ? 2 : w;
    h = h < 1.5 ? 1.5 : h;
    if (y < p->top || y + h > p->top + PANEL_H) { // a negative offset (damaged input): the edge
        y = y < p->top ? p->top : p->top + PANEL_H - 1.5;
        h = 1.5;
    }
    char extra[96] = "";
    size_t n = 0;
    if (pt->source == IODFG_OFFSET_INFERRED) {
        n += (size_t)snprintf(extra, sizeof(extra), "fill-opacity=\"0.35\"");
    }
    if (pt->overlap) {
        snprintf(extra + n, sizeof(extra) - n, "%sstroke=\"#000000\" stroke-width=\"0.8\"",
                 n ? " " : "");
    }
    svg_rect(s, x, y, w, h, mark_colour(p, pt->row), extra);
}

/* A panel of many marks: a grid of GRID_PX cells, each in the colour of the case with most marks
 * there (faded when most of them are inferred). */
static int grid(struct svg *s, const struct panel *p, const struct iodfg_offsetmap *om)
{
    size_t nx = (size_t)(p->pw / GRID_PX) + 1, ny = (size_t)(PANEL_H / GRID_PX) + 1;
    uint32_t *n = calloc(nx * ny, sizeof(*n)), *row = calloc(nx * ny, sizeof(*row));
    uint32_t *inferred = calloc(nx * ny, sizeof(*inferred));
    if (!n || !row || !inferred) {
        free(n);
        free(row);
        free(inferred);
        return -1;
    }
    for (size_t i = 0; i < om->npoints; i++) {
        const struct iodfg_offset_point *pt = &om->points[i];
        if (pt->write != p->write) {
            continue;
        }
        size_t cx = (size_t)((px_x(p, pt->start_ns) - p->x0) / GRID_PX);
        size_t cy = (size_t)((px_y(p, pt->offset) - p->top) / GRID_PX);
        size_t c = (cy < ny ? cy : ny - 1) * nx + (cx < nx ? cx : nx - 1);
        row[c] = n[c]++ == 0 ? pt->row : row[c];
        inferred[c] += pt->source == IODFG_OFFSET_INFERRED;
    }
    for (size_t c = 0; c < nx * ny; c++) {
        if (n[c]) {
            svg_rect(s, p->x0 + (double)(c % nx) * GRID_PX, p->top + (double)(c / nx) * GRID_PX,
                     GRID_PX, GRID_PX, mark_colour(p, row[c]),
                     inferred[c] * 2 > n[c] ? "fill-opacity=\"0.35\"" : NULL);
        }
    }
    free(n);
    free(row);
    free(inferred);
    return 0;
}

static const char *dir_word(int write)
{
    return write ? "writes" : "reads";
}

static double draw_panel(struct svg *s, struct panel *p, const struct iodfg_offsetmap *om,
                         uint32_t max_points)
{
    const struct iodfg_offsetmap_dir *d = &om->file[p->write ? IODFG_DIR_WRITE : IODFG_DIR_READ];
    uint64_t shown = d->n[IODFG_OFFSET_KNOWN] + d->n[IODFG_OFFSET_INFERRED];
    char a[48];
    svg_text(s, p->x0, p->top - 8, "b", "start", "%s: %s at known or inferred offsets, %s",
             dir_word(p->write), iodfg_picture_count_label(a, sizeof(a), shown),
             d->pattern == IODFG_PATTERN_NONE ? "no pattern" : iodfg_pattern_name(d->pattern));
    svg_text(s, p->x0 + p->pw, p->top - 8, "s", "end",
             "%llu consecutive, %llu skipping forward, %llu going back",
             (unsigned long long)d->consecutive, (unsigned long long)d->forward,
             (unsigned long long)d->backward);
    svg_rect(s, p->x0, p->top, p->pw, PANEL_H, "#fafafa", "stroke=\"#cccccc\"");
    offset_axis(s, p);
    for (size_t i = 0; p->write && i < om->noverlaps; i++) {
        const struct iodfg_offset_overlap *o = &om->overlaps[i];
        double y = px_y(p, o->hi), h = px_y(p, o->lo) - y;
        svg_rect(s, p->x0, y, p->pw, h < 1 ? 1 : h, OVERLAP_FILL, "fill-opacity=\"0.3\"");
    }
    if (shown > max_points) {
        if (grid(s, p, om)) {
            s->body->failed = 1;
        }
    } else {
        for (size_t i = 0; i < om->npoints; i++) {
            if (om->points[i].write == p->write) {
                mark(s, p, &om->points[i]);
            }
        }
    }
    if (!shown) {
        svg_text(s, p->x0 + p->pw / 2, p->top + PANEL_H / 2, "m", "middle",
                 "no %s at known or inferred offsets", dir_word(p->write));
    }
    return p->top + PANEL_H;
}

static double draw_cases(struct svg *s, const struct iodfg_offsetmap *om, int by_case, int rw,
                         double y)
{
    double px = 340 * s->w / 960; // the patterns' column (a narrow picture's too)
    size_t max = (size_t)((px - 40) / (11 * SVG_EM_ADVANCE));
    if (rw) {
        svg_rect(s, 16, y - 9, 12, 10, WRITE_COLOUR, NULL);
        svg_text(s, 34, y, "", "start", "writes");
        svg_rect(s, 140, y - 9, 12, 10, READ_COLOUR, NULL);
        svg_text(s, 158, y, "", "start", "reads (marks coloured by direction)");
        y += 15;
        if (om->ncases > 8) {
            return svg_note(s, 16, y, "%u cases.", om->ncases);
        }
    } else if (!by_case) {
        return svg_note(s, 16, y, "%u cases, one colour (more than 8 to tell apart).", om->ncases);
    }
    for (uint32_t r = 0; r < om->ncases; r++) {
        const struct iodfg_offsetmap_case *c = &om->cases[r];
        if (!rw) {
            svg_rect(s, 16, y - 9, 12, 10, svg_colour(r), NULL);
        }
        svg_name(s, 34, y, "", "start", iodfg_offsetmap_case_name(om, r), max);
        char ov[48];
        svg_text(s, px, y, "s", "start", "%s%swrites %s, reads %s%s%s",
                 om->nbands > 1 ? (c->band ? "R  " : "G  ") : "", "",
                 iodfg_pattern_name(c->dir[IODFG_DIR_WRITE].pattern),
                 iodfg_pattern_name(c->dir[IODFG_DIR_READ].pattern),
                 c->overlap_bytes ? "; writes over another case's: " : "",
                 c->overlap_bytes ? iodfg_picture_bytes_label(ov, sizeof(ov), c->overlap_bytes)
                                  : "");
        y += 15;
    }
    return y;
}

static double draw_key(struct svg *s, double y)
{
    // the marks' styles in a neutral grey: colours belong to the cases
    svg_rect(s, 16, y - 9, 12, 10, KEY_GREY, NULL);
    svg_text(s, 34, y, "", "start", "offset known");
    svg_rect(s, 140, y - 9, 12, 10, KEY_GREY, "fill-opacity=\"0.35\"");
    svg_text(s, 158, y, "", "start", "offset inferred");
    svg_rect(s, 270, y - 9, 12, 10, KEY_GREY, "stroke=\"#000000\" stroke-width=\"0.8\"");
    svg_text(s, 288, y, "", "start", "overlaps another case's writes");
    svg_rect(s, 500, y - 9, 12, 10, OVERLAP_FILL, "fill-opacity=\"0.3\"");
    svg_text(s, 518, y, "", "start", "range written by two cases or more");
    return y + 20;
}

static double draw_notes(struct svg *s, const struct iodfg_offsetmap *om, double y)
{
    const struct iodfg_offsetmap_dir *r = &om->file[IODFG_DIR_READ],
                                     *w = &om->file[IODFG_DIR_WRITE];
    char a[48], b[48], c[48];
    y = svg_note(s, 16, y,
                 "Offsets known: pread/pwrite's argument, or an lseek's result right before on "
                 "the same descriptor (%s); inferred: followed from an open or lseek and the",
                 om->handles ? "handles traced" : "this log has no handle column: none");
    y = svg_note(
        s, 16, y,
        "sizes moved since. Inferred: %llu reads, %llu writes. Unknown (no "
        "open or lseek of the descriptor traced): %llu reads and %llu writes "
        "of %s, counted, not drawn.",
        (unsigned long long)r->n[IODFG_OFFSET_INFERRED],
        (unsigned long long)w->n[IODFG_OFFSET_INFERRED],
        (unsigned long long)r->n[IODFG_OFFSET_UNKNOWN],
        (unsigned long long)w->n[IODFG_OFFSET_UNKNOWN],
        iodfg_picture_bytes_label(a, sizeof(a),
                                  r->bytes[IODFG_OFFSET_UNKNOWN] + w->bytes[IODFG_OFFSET_UNKNOWN]));
    y = svg_note(s, 16, y,
                 "Writes: %s in all, covering %s in %llu range%s; written by two cases or "
                 "more: %s.",
                 iodfg_picture_bytes_label(a, sizeof(a), om->write_bytes),
                 iodfg_picture_bytes_label(b, sizeof(b), om->union_bytes),
                 (unsigned long long)om->union_ranges, om->union_ranges == 1 ? "" : "s",
                 iodfg_picture_bytes_label(c, sizeof(c), om->overlap_bytes));
    y = svg_note(s, 16, y,
                 "Patterns (per direction, from consecutive / forward / backward accesses): "
                 "random when a tenth or more go back, strided when a tenth skip forward.");
    if (om->clock_dropped) {
        y = svg_note(s, 16, y, "%u selected cases use another clock and are not shown.",
                     om->clock_dropped);
    }
    return y;
}

int iodfg_svg_offsets(struct iodfg_buf *out, const struct iodfg_offsetmap *om,
                      const struct iodfg_picture_meta *meta, const struct iodfg_svg_opts *opts)
{
    uint32_t max_points = opts && opts->max_points ? opts->max_points : 20000;
    struct iodfg_buf body;
    struct svg s;
    svg_start(&s, &body, opts);
    const char *title = "File offsets over time";
    double y = svg_header(&s, 26, title, meta, om->clock, om->t_from) + 8;
    const char *file = om->names ? iodfg_strpool_get(om->names, om->name) : "";
    char ext[48];
    svg_text(&s, 16, y, "b", "start", "file:");
    svg_name(&s, 48, y, "b", "start", file, (size_t)((s.w - 250) / (11 * SVG_EM_ADVANCE)));
    svg_text(&s, s.w - 16, y, "m", "end", "highest offset reached: %s",
             iodfg_picture_bytes_label(ext, sizeof(ext), om->extent));
    struct panel p = {.x0 = 16 + AXIS_W,
                      .t0 = om->t_from,
                      .extent = om->extent > 0 ? om->extent : 1,
                      .by_case = om->ncases <= 8 && !(opts && opts->offsets_rw),
                      .rw = opts && opts->offsets_rw};
    p.pw = s.w - p.x0 - 24;
    p.span = om->t_to > om->t_from ? om->t_to - om->t_from : 1;
    p.top = y + 30;
    p.write = 1;
    y = draw_panel(&s, &p, om, max_points);
    p.top = y + 30;
    p.write = 0;
    y = draw_panel(&s, &p, om, max_points);
    y = svg_time_axis(&s, p.x0, y, p.pw, p.t0, p.t0 + p.span, om->clock, meta) + 12;
    y = draw_key(&s, y);
    y = draw_cases(&s, om, p.by_case, p.rw, y) + 6;
    uint64_t many = om->file[0].n[IODFG_OFFSET_KNOWN] + om->file[0].n[IODFG_OFFSET_INFERRED];
    uint64_t manyw = om->file[1].n[IODFG_OFFSET_KNOWN] + om->file[1].n[IODFG_OFFSET_INFERRED];
    if (many > max_points || manyw > max_points) {
        y = svg_note(&s, 16, y,
                     "More than %u marks in a panel: drawn as cells of %d px, each in the colour "
                     "of the case with most marks there.",
                     max_points, (int)GRID_PX);
    }
    draw_notes(&s, om, y);
    int rc = svg_finish(out, &s, title);
    iodfg_buf_fini(&body);
    return rc;
}
