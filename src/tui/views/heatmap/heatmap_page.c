/* SPDX-License-Identifier: MIT */
/* The Heatmap's page: the heading (what shades the cells, the window, the bin), the time axis,
 * one line per displayed row (the cursor mark, G or R, its name, its bins as rising blocks, an
 * ASCII ramp in the C locale), the legend with the scale and how many rows make one, and what
 * the picture leaves out; and the detail line of the cursor's cell. */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "iodfg/buf.h"
#include "iodfg/eventlog.h"
#include "iodfg/format.h"
#include "iodfg/glyph.h"
#include "iodfg/session.h"

#include "tui/app.h"
#include "tui/drawglyph.h"
#include "tui/theme.h"
#include "tui/viewmodel.h"
#include "tui/views/heatmap/heatmap_view.h"

#define LABEL_W TUI_HEATMAP_LABEL_W

const char *tui_heatmap_metric_text(enum iodfg_heatmap_metric m)
{
    static const char *const t[IODFG_HM__N] = {"bytes", "busy time", "calls"};
    return (unsigned)m < IODFG_HM__N ? t[m] : "";
}

const char *tui_heatmap_by_text(enum iodfg_heatmap_by by, int plural)
{
    static const char *const one[IODFG_HEATMAP__NBY] = {"case", "host", "cid", "activity"};
    static const char *const many[IODFG_HEATMAP__NBY] = {"cases", "hosts", "cids", "activities"};
    return (unsigned)by < IODFG_HEATMAP__NBY ? (plural ? many : one)[by] : "";
}

/* A cell's value as text: bytes, a duration or a count. */
static char *value_text(char *out, size_t size, int64_t v, enum iodfg_heatmap_metric m)
{
    if (m == IODFG_HM_BYTES) {
        return iodfg_format_bytes(out, size, v, 0);
    }
    if (m == IODFG_HM_BUSY) {
        return iodfg_format_duration(out, size, v, 0);
    }
    return iodfg_format_count(out, size, (uint64_t)v, 0);
}

/* Time t as seconds from the log's start, with the digits that tell a tenth of steps of step_ns
 * apart (a round number of them). */
static char *time_text(struct tui_app *app, char *out, size_t size, int64_t t, int64_t step_ns)
{
    step_ns = iodfg_picture_step(step_ns > 0 ? step_ns : 1, 10);
    struct iodfg_picture_meta meta = {.relative = 1,
                                      .origin_ns = iodfg_eventlog_time_origin(tui_app_log(app))};
    return iodfg_picture_time_label(out, size, t, step_ns, IODFG_CLOCK_NONE, &meta);
}

static int two_bands(struct tui_app *app)
{
    const struct iodfg_session *s = tui_app_session(app);
    return iodfg_session_group_mask(s, IODFG_GROUP_G) && iodfg_session_group_mask(s, IODFG_GROUP_R);
}

static void head(struct tui_app *app, const struct tui_heatmap_view *hv, int w, struct tui_page *pg)
{
    const struct iodfg_heatmap *hm = &hv->hm;
    int64_t bin = hm->nbins ? (hm->to_ns - hm->from_ns) / hm->nbins : 0;
    char a[48], b[48], d[IODFG_FORMAT_MIN], z[32] = "";
    if (hv->z.zoom > 0) {
        snprintf(z, sizeof(z), "   zoom %d", hv->z.zoom);
    }
    tui_page_textf(pg, 0, 1, w - 2, TUI_STYLE_HEADER,
                   iodfg_glyph_text("%s by %s   %s … %s s   bin %s%s"),
                   tui_heatmap_metric_text(hv->metric), tui_heatmap_by_text(hv->by, 0),
                   time_text(app, a, sizeof(a), hm->from_ns, bin > 0 ? bin : 1),
                   time_text(app, b, sizeof(b), hm->to_ns, bin > 0 ? bin : 1),
                   iodfg_format_duration(d, sizeof(d), bin, 0), z);
    tui_page_text(pg, 1, 1, LABEL_W - 2, TUI_STYLE_DIM, "time (s)");
    tui_picture_axis(pg, 1, LABEL_W, (int)hm->nbins, hm->from_ns, hm->to_ns,
                     iodfg_eventlog_time_origin(tui_app_log(app)));
}

/* The name column of displayed row r at page row y. */
static void row_label(const struct tui_heatmap_view *hv, uint32_t r, int two, int y,
                      struct iodfg_buf *name, struct tui_page *pg)
{
    const struct iodfg_heatmap *hm = &hv->hm;
    int cur = r == hv->row, x = 1;
    if (cur) {
        tui_page_glyph(pg, y, 0, TUI_STYLE_CURSOR, TUI_G_CURSOR);
    }
    if (two) { // the band in text, so that colour does not carry it alone
        int g = hm->row[r].band == 0;
        tui_page_text(pg, y, 1, 1, g ? TUI_STYLE_DIFF_GREEN : TUI_STYLE_DIFF_RED, g ? "G" : "R");
        x = 3;
    }
    iodfg_buf_clear(name);
    iodfg_heatmap_row_label(hm, r, name);
    tui_page_text(pg, y, x, LABEL_W - 1 - x, cur ? TUI_STYLE_CURSOR : TUI_STYLE_NORMAL,
                  name->data ? name->data : "");
}

/* The bins of displayed row r at page row y: runs of cells of one shade style (empty cells are
 * left alone), then the cursor's cell. cells: room for the bins. */
static void row_cells(const struct tui_heatmap_view *hv, uint32_t r, int y, char *cells,
                      struct tui_page *pg)
{
    const struct iodfg_heatmap *hm = &hv->hm;
    int64_t max = hm->max_cell[hv->metric];
    uint32_t n = hm->nbins;
#define LEVEL(b) tui_picture_level(iodfg_heatmap_cell(hm, r, (b), hv->metric), max)
    for (uint32_t b = 0; b < n;) {
        int level = LEVEL(b);
        if (!level) {
            b++;
            continue;
        }
        int style = tui_picture_level_style(level);
        uint32_t k = 0;
        while (b + k < n && (level = LEVEL(b + k)) && tui_picture_level_style(level) == style) {
            cells[k++] = tui_picture_level_cell(level);
        }
        tui_page_glyphs(pg, y, LABEL_W + (int)b, style, cells, (int)k);
        b += k;
    }
    if (r == hv->row && hv->bin < n) { // the cursor's cell, shown even when empty
        int level = LEVEL(hv->bin);
        tui_page_fill(pg, y, LABEL_W + (int)hv->bin, 1, TUI_STYLE_CURSOR);
        if (level) {
            tui_page_glyph(pg, y, LABEL_W + (int)hv->bin, TUI_STYLE_CURSOR,
                           (enum tui_glyph)(TUI_G_SPARK0 + level - 1));
        }
    }
#undef LEVEL
}

/* The rows (G's, a rule, R's); returns the page row after them. */
static int rows(const struct tui_heatmap_view *hv, int two, int w, struct tui_page *pg)
{
    const struct iodfg_heatmap *hm = &hv->hm;
    struct iodfg_buf name;
    iodfg_buf_init(&name);
    char *cells = malloc(hm->nbins + 1);
    int y = 2;
    for (uint32_t r = 0; cells && r < hm->nrows; r++) {
        if (two && r > 0 && hm->row[r].band != hm->row[r - 1].band) {
            tui_page_hline(pg, y++, 1, w - 2, TUI_STYLE_BORDER);
        }
        row_label(hv, r, two, y, &name, pg);
        row_cells(hv, r, y, cells, pg);
        y++;
    }
    pg->failed |= !cells || name.failed;
    free(cells);
    iodfg_buf_fini(&name);
    return y;
}

/* The ramp with the scale, and how many rows make one. */
static void legend(const struct tui_heatmap_view *hv, int y, int w, struct tui_page *pg)
{
    const struct iodfg_heatmap *hm = &hv->hm;
    for (int l = 1; l <= TUI_PICTURE_LEVELS; l++) {
        char c = tui_picture_level_cell(l);
        tui_page_glyphs(pg, y, l, tui_picture_level_style(l), &c, 1);
    }
    char v[IODFG_FORMAT_MIN], rows[96];
    if (hm->per_row > 1) {
        snprintf(rows, sizeof(rows), "%u %s in %u rows of %u", hm->nsrc,
                 tui_heatmap_by_text(hm->by, 1), hm->nrows, hm->per_row);
    } else {
        snprintf(rows, sizeof(rows), "%u %s, one per row", hm->nsrc,
                 tui_heatmap_by_text(hm->by, hm->nsrc != 1));
    }
    tui_page_textf(pg, y, TUI_PICTURE_LEVELS + 2, w - TUI_PICTURE_LEVELS - 3, TUI_STYLE_DIM,
                   iodfg_glyph_text("%s per cell, up to %s · %s"),
                   tui_heatmap_metric_text(hv->metric),
                   value_text(v, sizeof(v), hm->max_cell[hv->metric], hv->metric), rows);
}

/* What the picture leaves out, on one line (0 when nothing). */
static int notes(const struct iodfg_heatmap *hm, int y, int w, struct tui_page *pg)
{
    char a[96] = "", b[96] = "";
    if (hm->clock_dropped) {
        snprintf(a, sizeof(a), "%u selected case%s of another clock not shown", hm->clock_dropped,
                 hm->clock_dropped == 1 ? "" : "s");
    }
    if (hm->outside_groups) {
        snprintf(b, sizeof(b), "%u selected case%s in neither G nor R not shown",
                 hm->outside_groups, hm->outside_groups == 1 ? "" : "s");
    }
    if (!a[0] && !b[0]) {
        return 0;
    }
    tui_page_textf(pg, y, 1, w - 2, TUI_STYLE_WARNING, iodfg_glyph_text("%s%s%s"), a,
                   a[0] && b[0] ? iodfg_glyph_text(" · ") : "", b);
    return 1;
}

void tui_heatmap_page(struct tui_app *app, struct tui_heatmap_view *hv, int width, int height,
                      struct tui_page *pg)
{
    int ncols = width - LABEL_W - 1, two = two_bands(app);
    int noted = hv->built && (hv->hm.clock_dropped || hv->hm.outside_groups);
    int max_rows = height - 3 - two - noted;
    if (ncols < 8 || max_rows < 2) {
        tui_page_text(pg, 0, 1, width - 2, TUI_STYLE_DIM, "too small for the heatmap");
        return;
    }
    int rc = tui_heatmap_update(app, hv, (uint32_t)ncols, (uint32_t)max_rows);
    if (rc == 0 && !noted && (hv->hm.clock_dropped || hv->hm.outside_groups) && max_rows > 2) {
        rc = tui_heatmap_update(app, hv, (uint32_t)ncols, (uint32_t)max_rows - 1); // their line
    }
    if (rc) {
        tui_page_textf(pg, 0, 1, width - 2, TUI_STYLE_ERROR, "heatmap: %s", hv->error);
        return;
    }
    const struct iodfg_heatmap *hm = &hv->hm;
    hv->row = hv->row >= hm->nrows ? (hm->nrows ? hm->nrows - 1 : 0) : hv->row;
    hv->bin = hv->bin >= hm->nbins ? (hm->nbins ? hm->nbins - 1 : 0) : hv->bin;
    head(app, hv, width, pg);
    if (hm->nrows == 0) {
        tui_page_text(pg, 3, 2, width - 4, TUI_STYLE_DIM,
                      "no counted events in this selection (filters, rules, groups)");
        notes(hm, 5, width, pg);
        return;
    }
    int y = rows(hv, two && hm->nbands == 2, width, pg);
    legend(hv, y, width, pg);
    notes(hm, y + 1, width, pg);
}

void tui_heatmap_detail(struct tui_app *app, struct tui_heatmap_view *hv, char *buf, size_t size)
{
    const struct iodfg_heatmap *hm = &hv->hm;
    buf[0] = '\0';
    if (!hv->built || hv->row >= hm->nrows || hv->bin >= hm->nbins) {
        snprintf(buf, size, "%s", hv->built ? iodfg_glyph_text("g rows · m shade · +/- zoom") : "");
        return;
    }
    struct iodfg_buf name;
    iodfg_buf_init(&name);
    iodfg_heatmap_row_label(hm, hv->row, &name);
    int64_t lo = hm->edge[hv->bin], hi = hm->edge[hv->bin + 1], step = hi - lo > 0 ? hi - lo : 1;
    char a[48], b[48], by[IODFG_FORMAT_MIN], bu[IODFG_FORMAT_MIN], c[IODFG_FORMAT_MIN];
    snprintf(buf, size, iodfg_glyph_text("%s · %s … %s s · %s · busy %s · %s call%s"),
             name.data ? name.data : "", time_text(app, a, sizeof(a), lo, step),
             time_text(app, b, sizeof(b), hi, step),
             value_text(by, sizeof(by), iodfg_heatmap_cell(hm, hv->row, hv->bin, IODFG_HM_BYTES),
                        IODFG_HM_BYTES),
             value_text(bu, sizeof(bu), iodfg_heatmap_cell(hm, hv->row, hv->bin, IODFG_HM_BUSY),
                        IODFG_HM_BUSY),
             value_text(c, sizeof(c), iodfg_heatmap_cell(hm, hv->row, hv->bin, IODFG_HM_CALLS),
                        IODFG_HM_CALLS),
             iodfg_heatmap_cell(hm, hv->row, hv->bin, IODFG_HM_CALLS) == 1 ? "" : "s");
    iodfg_buf_fini(&name);
}
