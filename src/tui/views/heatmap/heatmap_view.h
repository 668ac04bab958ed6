/* SPDX-License-Identifier: MIT */
/* The Heatmap view's state and what its files share: the view (heatmap_view.c: ops, commands,
 * the model kept up to date), its page (heatmap_page.c) and Enter on a cell with Backspace back
 * (heatmap_jump.c). */
#ifndef IODFG_TUI_VIEWS_HEATMAP_HEATMAP_VIEW_H
#define IODFG_TUI_VIEWS_HEATMAP_HEATMAP_VIEW_H

#include <stddef.h>
#include <stdint.h>

#include "iodfg/heatmap.h"

#include "tui/views/picture.h"

struct iodfg_buf;
struct tui_app;
struct tui_page;

/* What Enter changed, for Backspace: the session's inputs before (tui_app_snapshot text) and the
 * view as it was. */
struct tui_heatmap_jump {
    char *state;
    enum iodfg_heatmap_by by;
    struct tui_picture_zoom z;
    uint32_t row, bin;
};
#define TUI_HEATMAP_JUMPS 16

struct tui_heatmap_view {
    struct iodfg_heatmap hm;
    uint64_t built;           /* the app's generation + 1 hm was built for (0: none) */
    enum iodfg_heatmap_by by; /* rows: cases, hosts or cids (g) */
    enum iodfg_heatmap_metric metric;
    struct tui_picture_zoom z; /* over the counted events' span */
    int64_t from_ns, to_ns;    /* the window hm was built for (from >= to: the span) */
    uint32_t nbins, max_rows;  /* hm's shape asked for */
    int64_t span_from, span_to;
    uint64_t span_built; /* the generation + 1 of the span */
    uint32_t row, bin;   /* the cell cursor (displayed row, bin) */
    char error[320];     /* why the last build failed ("" when it did not) */
    struct tui_heatmap_jump jumps[TUI_HEATMAP_JUMPS];
    size_t njumps;
};

/* The columns of the row names (the cursor mark, G or R, the name). */
#define TUI_HEATMAP_LABEL_W 22

/* Bring hv->hm up to date for the current generation, zoom, rows and a grid of nbins bins by
 * max_rows displayed rows at most. 0, or -1 with hv->error set. */
int tui_heatmap_update(struct tui_app *app, struct tui_heatmap_view *hv, uint32_t nbins,
                       uint32_t max_rows);
/* The window's width (ns) of the built heatmap (0 when none). */
int64_t tui_heatmap_width(const struct tui_heatmap_view *hv);

/* The page (heatmap_page.c): heading, axis, rows, legend and notes in width x height. */
void tui_heatmap_page(struct tui_app *app, struct tui_heatmap_view *hv, int width, int height,
                      struct tui_page *pg);
/* The detail line of the cursor's cell. */
void tui_heatmap_detail(struct tui_app *app, struct tui_heatmap_view *hv, char *buf, size_t size);
/* "bytes", "busy time", "calls"; "case", "host", "cid" and their plurals. */
const char *tui_heatmap_metric_text(enum iodfg_heatmap_metric m);
const char *tui_heatmap_by_text(enum iodfg_heatmap_by by, int plural);

/* The filters that select the cell (row, bin) of hm, one a line, into out: its members by name,
 * cid or host ("name=a,b", or a regex of literal names when a name cannot be listed) and its
 * bin ("time=@S.N..@S.N"). 0, or -1 with why into why (a name no filter can hold, a negative
 * time). */
int tui_heatmap_cell_filters(const struct iodfg_heatmap *hm, uint32_t row, uint32_t bin,
                             struct iodfg_buf *out, char *why, size_t why_size);
/* Enter (heatmap_jump.c): filter to the cursor's cell, remembering how to come back. Returns
 * enum tui_result flags. */
unsigned tui_heatmap_enter(struct tui_app *app, struct tui_heatmap_view *hv);
/* Backspace: the inputs and the view as before the last Enter. 1 when it did, 0 when there was
 * nothing to undo, -1 on error (reported). */
int tui_heatmap_back(struct tui_app *app, struct tui_heatmap_view *hv);
void tui_heatmap_jumps_free(struct tui_heatmap_view *hv);

#endif
