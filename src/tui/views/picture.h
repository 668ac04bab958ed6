/* SPDX-License-Identifier: MIT */
/* What the picture views (Heatmap, Offsets) and the Timeline's snapshot share (picture.c): the
 * picture input over the app's session, the texts a snapshot names (log, filters, focus,
 * groups, rules, clock), the time window of zoom and pan, the time axis, and the shade ramp. */
#ifndef IODFG_TUI_VIEWS_PICTURE_H
#define IODFG_TUI_VIEWS_PICTURE_H

#include <stdint.h>

#include "iodfg/buf.h"
#include "iodfg/mapping.h"
#include "iodfg/picture.h"

#include "tui/command.h"

struct tui_app;
struct tui_page;

/* The input of a picture over the app's session (borrowed until its next rebuild): the
 * selection goes into sel, the focus' activity mask into in->act_on (NULL: every activity). */
void tui_picture_input(struct tui_app *app, struct iodfg_picture_input *in,
                       struct iodfg_selection *sel);

/* What a snapshot says besides its numbers, with the texts it points at. Times are relative to
 * the log's time origin, as the views show them. */
struct tui_picture_texts {
    struct iodfg_picture_meta meta;
    struct iodfg_buf filters, groups, rules;
};
/* Fill t from the app (init'd inside); free with _fini. */
void tui_picture_texts_init(struct tui_picture_texts *t, struct tui_app *app);
void tui_picture_texts_fini(struct tui_picture_texts *t);

/* Zoom and pan over a span, as the Timeline does: each zoom level halves the width, a pan moves
 * it a quarter, fit shows the whole span. */
struct tui_picture_zoom {
    int zoom;    /* 0: the whole span */
    int pan_set; /* from_ns was set by a pan or a zoom (else the window starts the span) */
    int64_t from_ns;
};
#define TUI_PICTURE_MAX_ZOOM 40
/* The window [*from, *to) of z over the span [t0, t1), at least min_ns wide and inside the span
 * (z->from_ns is clamped). */
void tui_picture_window(struct tui_picture_zoom *z, int64_t t0, int64_t t1, int64_t min_ns,
                        int64_t *from, int64_t *to);
/* Apply a zoom, pan or fit command to z whose window is width ns wide. 1 when cmd is one. */
int tui_picture_zoom_cmd(struct tui_picture_zoom *z, enum tui_cmd cmd, int64_t width);

/* A row cursor over n rows after a move command (tui_cmd_step: a row, a page, an end),
 * clamped (0 when there are none). */
uint32_t tui_picture_move(uint32_t cursor, uint32_t n, enum tui_cmd cmd);

/* The time axis of [from, to) over ncols columns at (row, col): tick labels relative to origin
 * ("+10 ms") at nice steps, where they fit. */
void tui_picture_axis(struct tui_page *pg, int row, int col, int ncols, int64_t from, int64_t to,
                      int64_t origin);
/* The column of time t in [from, to) over ncols columns (clamped to 0 .. ncols - 1). */
int tui_picture_col(int64_t t, int64_t from, int64_t to, int ncols);

/* The shade of v against max: 0 for nothing (v <= 0), else 1 .. TUI_PICTURE_LEVELS (any value
 * above zero shows; max reaches the top). */
#define TUI_PICTURE_LEVELS 8
int tui_picture_level(int64_t v, int64_t max);
/* The glyph cell (TUI_GLYPH_CELL) and style of a level 1 .. TUI_PICTURE_LEVELS: the rising
 * eighth blocks (an ASCII ramp in the C locale), coloured low, middle, high. */
char tui_picture_level_cell(int level);
int tui_picture_level_style(int level);

#endif
