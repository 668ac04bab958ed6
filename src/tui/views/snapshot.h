/* SPDX-License-Identifier: MIT */
/* Snapshots of the picture views (Heatmap, Offsets, Timeline) for tickets and reports
 * (snapshot.c): a prompt proposing a file name that does not exist yet, the view's SVG written
 * atomically, or a PNG rendered from it by rsvg-convert when the name ends in ".png" (as `iodfg
 * dfg --png` renders through Graphviz's dot). */
#ifndef IODFG_TUI_VIEWS_SNAPSHOT_H
#define IODFG_TUI_VIEWS_SNAPSHOT_H

#include <stddef.h>

struct iodfg_buf;
struct iodfg_error;
struct iodfg_picture_meta;
struct tui_app;

/* The proposed name: "iodfg-VIEW-N.svg" for the first N from 1 whose file does not exist. */
void tui_snapshot_name(const char *view, char *out, size_t size);
/* Open the prompt for the snapshot of view (its name) with the proposed name. Returns the
 * prompt's flags (app.h). */
unsigned tui_snapshot_ask(struct tui_app *app, const char *view);

/* Write the SVG (len bytes) to path atomically, or the PNG rsvg-convert makes of it when path
 * ends in ".png" (IODFG_E_IO naming rsvg-convert when it is missing or fails); an existing file
 * is never replaced (IODFG_E_EXISTS). 0, or -1 with err; nothing is left behind on failure. */
int tui_snapshot_write(const char *path, const char *svg, size_t len, struct iodfg_error *err);

/* A view's picture as SVG into out, saying what meta says (the log, filters, groups, ...). */
typedef int (*tui_snapshot_fn)(struct tui_app *app, void *st, const struct iodfg_picture_meta *meta,
                               struct iodfg_buf *out, struct iodfg_error *err);
/* The prompt's answer path (NULL or "": cancelled): the view's SVG made by fn (st: its state)
 * and written; the message line says what was written or why not. Returns TUI_REDRAW. */
unsigned tui_snapshot_done(struct tui_app *app, void *st, const char *path, tui_snapshot_fn fn);

#endif
