/* SPDX-License-Identifier: MIT */
/* Engine-internal: the pieces every SVG picture is drawn with (svg.c): the document, shapes,
 * text (the program's own, and untrusted text escaped and cut in the middle), colour ramps, the
 * header with the meta, the time axis, notes. Numbers are written without the locale (a decimal
 * comma would break the file). */
#ifndef IODFG_ENGINE_SVG_PRIV_H
#define IODFG_ENGINE_SVG_PRIV_H

#include <stddef.h>
#include <stdint.h>

#include "iodfg/eventlog.h"

struct iodfg_buf;
struct iodfg_picture_meta;

/* A picture being drawn: shapes go to body; the document is written around it at the end, when
 * its height is known. */
struct svg {
    struct iodfg_buf *body;
    double w, y; /* width; the lowest y used so far */
};

/* Average advance of a character of the sans-serif font, in ems (to cut text to fit). */
#define SVG_EM_ADVANCE 0.58

/* Start a picture drawn into body (initialised here; the caller frees it after svg_finish) of
 * the options' width (960 without). */
struct iodfg_svg_opts;
void svg_start(struct svg *s, struct iodfg_buf *body, const struct iodfg_svg_opts *o);
/* Write out the document (header, title, style, body, end). */
int svg_finish(struct iodfg_buf *out, struct svg *s, const char *title);

void svg_rect(struct svg *s, double x, double y, double w, double h, const char *fill,
              const char *extra);
void svg_line(struct svg *s, double x1, double y1, double x2, double y2, const char *stroke,
              const char *extra);
/* The program's own text (printf-formatted; escaped anyway). cls: a class of the style sheet
 * ("" none); anchor: "start", "middle" or "end". */
void svg_text(struct svg *s, double x, double y, const char *cls, const char *anchor,
              const char *fmt, ...) __attribute__((format(printf, 6, 7)));
/* Untrusted text, cut in the middle with an ellipsis to at most max characters. */
void svg_name(struct svg *s, double x, double y, const char *cls, const char *anchor,
              const char *text, size_t max);
/* A number with one decimal, as SVG reads it ("12.5", "-3"). */
void svg_num(struct iodfg_buf *b, double v);

/* The colour of t in [0, 1] on a viridis ramp from light (low) to dark (high), "#rrggbb". */
void svg_ramp(double t, char out[8]);
/* Colour i of Okabe and Ito's set for colour-blind readers (8 colours, then again). */
const char *svg_colour(uint32_t i);

/* The title and the meta lines (log, rules, filters, focus, groups, clock) from y; returns the
 * y below them. */
double svg_header(struct svg *s, double y, const char *title, const struct iodfg_picture_meta *meta,
                  enum iodfg_clock clock, int64_t t0);
/* A time axis along the bottom of [x, x + w) at y for [from, to): ticks, labels and its title;
 * returns the y below it. */
double svg_time_axis(struct svg *s, double x, double y, double w, int64_t from, int64_t to,
                     enum iodfg_clock clock, const struct iodfg_picture_meta *meta);
/* A line of notes in the small grey style at y; returns the y below. */
double svg_note(struct svg *s, double x, double y, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));

#endif
