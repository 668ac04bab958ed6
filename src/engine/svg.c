/* SPDX-License-Identifier: MIT */
/* The SVG pieces the pictures share: the document, shapes, escaped text, colours, the header
 * with the meta, the time axis and notes. */
#include "config.h"

#include "iodfg/svg.h"

#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "iodfg/buf.h"
#include "iodfg/picture.h"
#include "iodfg/sanitize.h"

#include "svg_priv.h"

void iodfg_svg_opts_init(struct iodfg_svg_opts *o)
{
    memset(o, 0, sizeof(*o));
}

void svg_num(struct iodfg_buf *b, double v)
{
    if (!isfinite(v)) {
        v = 0;
    }
    long long t = llround(v * 10);
    int neg = t < 0;
    t = neg ? -t : t;
    if (t % 10) {
        iodfg_buf_addf(b, "%s%lld.%lld", neg ? "-" : "", t / 10, t % 10);
    } else {
        iodfg_buf_addf(b, "%s%lld", neg && t ? "-" : "", t / 10);
    }
}

/* attr="v" with a number. */
static void attr(struct iodfg_buf *b, const char *name, double v)
{
    iodfg_buf_addf(b, " %s=\"", name);
    svg_num(b, v);
    iodfg_buf_add(b, "\"", 1);
}

static void low(struct svg *s, double y)
{
    s->y = y > s->y ? y : s->y;
}

void svg_rect(struct svg *s, double x, double y, double w, double h, const char *fill,
              const char *extra)
{
    iodfg_buf_add(s->body, "<rect", 5);
    attr(s->body, "x", x);
    attr(s->body, "y", y);
    attr(s->body, "width", w > 0 ? w : 0);
    attr(s->body, "height", h > 0 ? h : 0);
    iodfg_buf_addf(s->body, " fill=\"%s\"%s%s/>\n", fill, extra && *extra ? " " : "",
                   extra ? extra : "");
    low(s, y + h);
}

void svg_line(struct svg *s, double x1, double y1, double x2, double y2, const char *stroke,
              const char *extra)
{
    iodfg_buf_add(s->body, "<line", 5);
    attr(s->body, "x1", x1);
    attr(s->body, "y1", y1);
    attr(s->body, "x2", x2);
    attr(s->body, "y2", y2);
    iodfg_buf_addf(s->body, " stroke=\"%s\"%s%s/>\n", stroke, extra && *extra ? " " : "",
                   extra ? extra : "");
    low(s, y1 > y2 ? y1 : y2);
}

static void text_open(struct svg *s, double x, double y, const char *cls, const char *anchor)
{
    iodfg_buf_add(s->body, "<text", 5);
    attr(s->body, "x", x);
    attr(s->body, "y", y);
    if (cls && *cls) {
        iodfg_buf_addf(s->body, " class=\"%s\"", cls);
    }
    if (anchor && strcmp(anchor, "start") != 0) {
        iodfg_buf_addf(s->body, " text-anchor=\"%s\"", anchor);
    }
    iodfg_buf_add(s->body, ">", 1);
    low(s, y + 4);
}

void svg_text(struct svg *s, double x, double y, const char *cls, const char *anchor,
              const char *fmt, ...)
{
    char text[1024];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(text, sizeof(text), fmt, ap);
    va_end(ap);
    text_open(s, x, y, cls, anchor);
    iodfg_sanitize_xml(s->body, text, strlen(text));
    iodfg_buf_add(s->body, "</text>\n", 8);
}

/* Byte length of the first n characters (UTF-8 lead bytes) of t[0..len). */
static size_t chars_len(const char *t, size_t len, size_t n)
{
    size_t i = 0;
    for (size_t c = 0; i < len; i++) {
        if (((unsigned char)t[i] & 0xc0) != 0x80 && c++ == n) {
            break;
        }
    }
    return i;
}

static size_t count_chars(const char *t, size_t len)
{
    size_t n = 0;
    for (size_t i = 0; i < len; i++) {
        n += ((unsigned char)t[i] & 0xc0) != 0x80;
    }
    return n;
}

void svg_name(struct svg *s, double x, double y, const char *cls, const char *anchor,
              const char *text, size_t max)
{
    size_t len = strlen(text), n = count_chars(text, len);
    text_open(s, x, y, cls, anchor);
    if (n <= max || max < 3) {
        iodfg_sanitize_xml(s->body, text, len);
    } else { // the head and the tail: paths differ at their ends
        size_t head = (max - 1) / 3, tail = max - 1 - head;
        size_t hb = chars_len(text, len, head), tb = chars_len(text, len, n - tail);
        iodfg_sanitize_xml(s->body, text, hb);
        iodfg_buf_add(s->body, "\xe2\x80\xa6", 3);
        iodfg_sanitize_xml(s->body, text + tb, len - tb);
    }
    iodfg_buf_add(s->body, "</text>\n", 8);
}

void svg_ramp(double t, char out[8])
{
    // viridis at nine stops, from its light end (low values) to its dark end (high values)
    static const unsigned char stop[9][3] = {
        {0xfd, 0xe7, 0x25}, {0xad, 0xdc, 0x30}, {0x5e, 0xc9, 0x62},
        {0x28, 0xae, 0x80}, {0x21, 0x91, 0x8c}, {0x2c, 0x72, 0x8e},
        {0x3b, 0x52, 0x8b}, {0x47, 0x2d, 0x7b}, {0x44, 0x01, 0x54}};
    t = !(t > 0) ? 0 : t > 1 ? 1 : t;
    double x = t * 8;
    int i = x >= 8 ? 7 : (int)x;
    double f = x - i;
    int c[3];
    for (int k = 0; k < 3; k++) {
        c[k] = (int)lround(stop[i][k] + (stop[i + 1][k] - stop[i][k]) * f);
    }
    snprintf(out, 8, "#%02x%02x%02x", c[0], c[1], c[2]);
}

const char *svg_colour(uint32_t i)
{
    // Okabe and Ito (2008), the yellow last: it is faint on white
    static const char *const set[8] = {"#0072b2", "#d55e00", "#009e73", "#cc79a7",
                                       "#e69f00", "#56b4e9", "#000000", "#f0e442"};
    return set[i % 8];
}

void svg_start(struct svg *s, struct iodfg_buf *body, const struct iodfg_svg_opts *o)
{
    iodfg_buf_init(body);
    int w = o && o->width ? o->width : IODFG_SVG_WIDTH;
    w = w < IODFG_SVG_MIN_WIDTH   ? IODFG_SVG_MIN_WIDTH
        : w > IODFG_SVG_MAX_WIDTH ? IODFG_SVG_MAX_WIDTH
                                  : w;
    *s = (struct svg){body, w, 0};
}

int svg_finish(struct iodfg_buf *out, struct svg *s, const char *title)
{
    double h = ceil(s->y + 12);
    iodfg_buf_addf(out, "<?xml version=\"1.0\" encoding=\"UTF-8\" standalone=\"no\"?>\n"
                        "<svg xmlns=\"http://www.w3.org/2000/svg\" version=\"1.1\"");
    attr(out, "width", s->w);
    attr(out, "height", h);
    iodfg_buf_add(out, " viewBox=\"0 0 ", 14);
    svg_num(out, s->w);
    iodfg_buf_add(out, " ", 1);
    svg_num(out, h);
    iodfg_buf_add(out, "\">\n<title>", 10);
    iodfg_sanitize_xml(out, title, strlen(title));
    iodfg_buf_addf(out, "</title>\n<desc>Made by iodfg from a system-call event log.</desc>\n"
                        "<style type=\"text/css\">\n"
                        "text { font-family: 'DejaVu Sans', Verdana, Arial, sans-serif; "
                        "font-size: 11px; fill: #222222; }\n"
                        ".t { font-size: 16px; font-weight: bold; }\n"
                        ".m { fill: #555555; }\n"
                        ".s { font-size: 10px; fill: #555555; }\n"
                        ".b { font-weight: bold; }\n"
                        "</style>\n");
    svg_rect(&(struct svg){out, 0, 0}, 0, 0, s->w, h, "#ffffff", NULL);
    iodfg_buf_add(out, s->body->data ? s->body->data : "", s->body->len);
    iodfg_buf_add(out, "</svg>\n", 7);
    return out->failed || s->body->failed ? -1 : 0;
}

/* "key: value" items of the meta into line (untrusted values escaped later as a whole). */
static void meta_item(struct iodfg_buf *line, const char *key, const char *v)
{
    if (v && *v) {
        iodfg_buf_addf(line, "%s%s: %s", line->len ? "  \xc2\xb7  " : "", key, v);
    }
}

double svg_header(struct svg *s, double y, const char *title, const struct iodfg_picture_meta *meta,
                  enum iodfg_clock clock, int64_t t0)
{
    svg_text(s, 16, y, "t", "start", "%s", title);
    y += 18;
    size_t max = (size_t)((s->w - 32) / (11 * SVG_EM_ADVANCE));
    struct iodfg_buf line;
    iodfg_buf_init(&line);
    meta_item(&line, "log", meta ? meta->log_name : NULL);
    meta_item(&line, "rules", meta ? meta->rules : NULL);
    meta_item(&line, "focus", meta ? meta->focus : NULL);
    char clk[96];
    iodfg_picture_time_title(clk, sizeof(clk), t0, clock, meta);
    meta_item(&line, "clock",
              iodfg_picture_is_relative(meta, clock) && clock != IODFG_CLOCK_NONE
                  ? "seconds from the log's start"
                  : clk);
    svg_name(s, 16, y, "m", "start", line.data ? line.data : "", max);
    y += 15;
    iodfg_buf_clear(&line);
    meta_item(&line, "filters", meta && meta->filters && *meta->filters ? meta->filters : "none");
    meta_item(&line, "groups", meta ? meta->groups : NULL);
    svg_name(s, 16, y, "m", "start", line.data ? line.data : "", max);
    iodfg_buf_fini(&line);
    return y + 10;
}

double svg_time_axis(struct svg *s, double x, double y, double w, int64_t from, int64_t to,
                     enum iodfg_clock clock, const struct iodfg_picture_meta *meta)
{
    int64_t span = to > from ? to - from : 1;
    int64_t step = iodfg_picture_step(span, (int)(w / 90) > 2 ? (int)(w / 90) : 2);
    svg_line(s, x, y, x + w, y, "#444444", NULL);
    // ticks at whole steps of the clock (time of day), or of the time from the origin
    int64_t base = iodfg_picture_is_relative(meta, clock) && meta ? meta->origin_ns : 0;
    int64_t k = (from - base) / step, first = base + k * step;
    first += first < from ? step : 0;
    for (int64_t t = first; t <= to; t += step) {
        double tx = x + w * (double)(t - from) / (double)span;
        char label[64];
        svg_line(s, tx, y, tx, y + 4, "#444444", NULL);
        svg_text(s, tx, y + 15, "", "middle", "%s",
                 iodfg_picture_time_label(label, sizeof(label), t, step, clock, meta));
        if (t > INT64_MAX - step) {
            break;
        }
    }
    char title[96], dur[48];
    iodfg_picture_time_title(title, sizeof(title), from, clock, meta);
    svg_text(s, x + w / 2, y + 30, "m", "middle", "%s; window %s, ticks every %s", title,
             iodfg_picture_dur_label(dur, sizeof(dur), to - from),
             iodfg_picture_dur_label((char[48]){0}, 48, step));
    return y + 36;
}

double svg_note(struct svg *s, double x, double y, const char *fmt, ...)
{
    char text[1024];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(text, sizeof(text), fmt, ap);
    va_end(ap);
    // wrapped at the picture's width (a narrow --width), at spaces, never inside a character
    size_t max = (size_t)((s->w - x - 8) / (10 * SVG_EM_ADVANCE)), n = strlen(text);
    max = max < 24 ? 24 : max;
    const char *p = text;
    while (n > max) {
        size_t cut = max;
        while (cut > max / 2 && p[cut] != ' ') {
            cut--;
        }
        if (p[cut] != ' ') { // one long word: cut it at a character's start
            for (cut = max; cut > 1 && ((unsigned char)p[cut] & 0xc0) == 0x80; cut--) {
            }
        }
        svg_text(s, x, y, "s", "start", "%.*s", (int)cut, p);
        y += 14;
        cut += p[cut] == ' ';
        p += cut;
        n -= cut;
    }
    svg_text(s, x, y, "s", "start", "%s", p);
    return y + 14;
}
