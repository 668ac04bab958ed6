/* SPDX-License-Identifier: MIT */
/* The Offsets view's page: the file and why it is the one shown, its access patterns and written
 * ranges, where its offsets come from (inferred ones dim, unknown ones counted and never drawn),
 * the grid of marks with the offsets down the left (rows holding bytes two cases write marked
 * "!") and the time axis, and the legend; and the detail line of the cursor's case. */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "iodfg/eventlog.h"
#include "iodfg/format.h"
#include "iodfg/glyph.h"
#include "iodfg/metrics.h"
#include "iodfg/strpool.h"

#include "tui/app.h"
#include "tui/drawglyph.h"
#include "tui/theme.h"
#include "tui/viewmodel.h"
#include "tui/views/offsets/offsets_view.h"

#define LABEL_W 8 /* the offsets' labels; then the overlap mark and the axis */
#define PLOT_X (LABEL_W + 2)

static const char *file_name(struct tui_app *app, const struct iodfg_offsetmap *om)
{
    return iodfg_strpool_get(iodfg_eventlog_pool(tui_app_log(app)), om->path);
}

static void dir_text(char *out, size_t size, const char *what, const struct iodfg_offsetmap_dir *d)
{
    uint64_t n =
        d->n[IODFG_OFFSET_KNOWN] + d->n[IODFG_OFFSET_INFERRED] + d->n[IODFG_OFFSET_UNKNOWN];
    if (n == 0) {
        snprintf(out, size, "no %s", what);
    } else if (d->pattern == IODFG_PATTERN_NONE) {
        snprintf(out, size, "%s at unknown offsets", what);
    } else {
        snprintf(out, size, "%s %s", what, iodfg_pattern_name(d->pattern));
    }
}

static void head(struct tui_app *app, const struct tui_offsets_view *ov, int w, struct tui_page *pg)
{
    const struct iodfg_offsetmap *om = &ov->om;
    char b[IODFG_FORMAT_MIN], why[64], wr[48], rd[48];
    if (ov->why == TUI_OFFSETS_PICKED) {
        snprintf(why, sizeof(why), "picked");
    } else if (ov->why == TUI_OFFSETS_ACTIVITY) {
        snprintf(why, sizeof(why), "the selected activity's file");
    } else {
        snprintf(why, sizeof(why), "most bytes of %zu data file%s", ov->nfiles,
                 ov->nfiles == 1 ? "" : "s");
    }
    tui_page_textf(pg, 0, 1, w - 2, TUI_STYLE_HEADER, iodfg_glyph_text("%s · reaches %s · %s"),
                   file_name(app, om), iodfg_format_bytes(b, sizeof(b), om->extent, 0), why);
    dir_text(wr, sizeof(wr), "writes", &om->file[IODFG_DIR_WRITE]);
    dir_text(rd, sizeof(rd), "reads", &om->file[IODFG_DIR_READ]);
    char ov_text[160];
    if (om->noverlaps) {
        snprintf(ov_text, sizeof(ov_text), "%s of overlap in %zu range%s (!)",
                 iodfg_format_bytes(b, sizeof(b), om->overlap_bytes, 0), om->noverlaps,
                 om->noverlaps == 1 ? "" : "s");
    } else if (om->write_bytes) {
        snprintf(ov_text, sizeof(ov_text), "no overlap between cases");
    } else {
        ov_text[0] = '\0';
    }
    tui_page_textf(pg, 1, 1, w - 2, TUI_STYLE_NORMAL, iodfg_glyph_text("%s · %s · %u case%s%s%s"),
                   wr, rd, om->ncases, om->ncases == 1 ? "" : "s",
                   ov_text[0] ? iodfg_glyph_text(" · ") : "", ov_text);
}

/* Where the offsets come from; unknown ones are said, never drawn. */
static void sources(const struct iodfg_offsetmap *om, int w, struct tui_page *pg)
{
    uint64_t n[IODFG_OFFSET__N];
    for (int s = 0; s < IODFG_OFFSET__N; s++) {
        n[s] = om->file[0].n[s] + om->file[1].n[s];
    }
    char t[320];
    int k = snprintf(t, sizeof(t), "offsets: %llu known", (unsigned long long)n[0]);
    if (n[IODFG_OFFSET_INFERRED]) {
        k += snprintf(t + k, sizeof(t) - (size_t)k, ", %llu inferred (dim)",
                      (unsigned long long)n[IODFG_OFFSET_INFERRED]);
    }
    if (n[IODFG_OFFSET_UNKNOWN] && k < (int)sizeof(t)) {
        snprintf(t + k, sizeof(t) - (size_t)k,
                 ", %llu unknown: not drawn (no open or lseek traced)",
                 (unsigned long long)n[IODFG_OFFSET_UNKNOWN]);
    }
    int warn = n[IODFG_OFFSET_INFERRED] || n[IODFG_OFFSET_UNKNOWN];
    tui_page_text(pg, 2, 1, w - 2, warn ? TUI_STYLE_WARNING : TUI_STYLE_DIM, t);
}

/* Whether bytes [lo, hi) hold a range two cases write. */
static int overlapped(const struct iodfg_offsetmap *om, int64_t lo, int64_t hi)
{
    for (size_t i = 0; i < om->noverlaps; i++) {
        if (om->overlaps[i].lo < hi && om->overlaps[i].hi > lo) {
            return 1;
        }
    }
    return 0;
}

/* One grid row: runs of cells of one style as text. */
static void grid_row(const struct tui_offsets_cell *c, int ncols, int y, int by_rw,
                     struct tui_page *pg)
{
    char run[1024];
    for (int x = 0; x < ncols;) {
        if (c[x].row == UINT32_MAX) {
            x++;
            continue;
        }
        int style = tui_offsets_cell_style(&c[x], by_rw), n = 0;
        while (x + n < ncols && n < (int)sizeof(run) - 1 && c[x + n].row != UINT32_MAX &&
               tui_offsets_cell_style(&c[x + n], by_rw) == style) {
            run[n] = tui_offsets_cell_char(&c[x + n], by_rw);
            n++;
        }
        run[n] = '\0';
        tui_page_text(pg, y, PLOT_X + x, n, style, run);
        x += n;
    }
}

/* The grid of the window (kept from the last frame when nothing it depends on changed). NULL
 * when out of memory. */
static const struct tui_offsets_cell *grid(struct tui_offsets_view *ov, int64_t from, int64_t to,
                                           int ncols, int nrows, int64_t rb)
{
    if (ov->cells && ov->grid_serial == ov->serial && ov->grid_from == from && ov->grid_to == to &&
        ov->grid_ncols == ncols && ov->grid_nrows == nrows && ov->grid_rb == rb &&
        ov->grid_cursor == ov->cursor) {
        return ov->cells;
    }
    size_t n = (size_t)ncols * (size_t)nrows;
    if (n > ov->cells_cap) {
        free(ov->cells);
        ov->cells = malloc(n * sizeof(*ov->cells));
        ov->cells_cap = ov->cells ? n : 0;
        if (!ov->cells) {
            return NULL;
        }
    }
    uint64_t outside;
    tui_offsets_grid(&ov->om, from, to, ncols, nrows, rb, ov->cursor, ov->cells, &outside);
    ov->grid_serial = ov->serial;
    ov->grid_from = from;
    ov->grid_to = to;
    ov->grid_ncols = ncols;
    ov->grid_nrows = nrows;
    ov->grid_rb = rb;
    ov->grid_cursor = ov->cursor;
    return ov->cells;
}

/* The grid with the offsets up the left; returns the rows used. */
static int plot(struct tui_offsets_view *ov, int64_t from, int64_t to, int ncols, int prow,
                struct tui_page *pg)
{
    const struct iodfg_offsetmap *om = &ov->om;
    int64_t rb = tui_offsets_row_bytes(om->extent, prow);
    int nrows = (int)((om->extent + rb - 1) / rb);
    nrows = nrows < 1 ? 1 : nrows > prow ? prow : nrows;
    const struct tui_offsets_cell *cells = grid(ov, from, to, ncols, nrows, rb);
    if (!cells) {
        pg->failed = 1;
        return 0;
    }
    for (int r = 0; r < nrows; r++) { // offset 0 at the bottom, as in the SVG and DXT Explorer
        char lab[IODFG_FORMAT_MIN];
        int y = 3 + nrows - 1 - r;
        tui_page_right(pg, y, 0, LABEL_W, TUI_STYLE_DIM,
                       iodfg_picture_bytes_label(lab, sizeof(lab), (int64_t)r * rb));
        if (overlapped(om, (int64_t)r * rb, (int64_t)(r + 1) * rb)) {
            tui_page_text(pg, y, LABEL_W, 1, TUI_STYLE_WARNING, "!");
        }
        tui_page_glyph(pg, y, LABEL_W + 1, TUI_STYLE_BORDER, TUI_G_VLINE);
        grid_row(cells + (size_t)r * (size_t)ncols, ncols, y, ov->by_rw, pg);
    }
    return nrows;
}

/* Text at *x on row y, moving *x past it. */
static void put(struct tui_page *pg, int y, int *x, int w, int style, const char *text)
{
    int n = (int)strlen(text);
    tui_page_text(pg, y, *x, n < w - *x ? n : w - *x, style, text);
    *x += n;
}

/* The legend: what a mark's symbol and look say. */
static void legend(const struct tui_offsets_view *ov, int y, int w, struct tui_page *pg)
{
    const struct iodfg_offsetmap *om = &ov->om;
    const char *ovl = om->noverlaps ? "  ! bytes two cases write" : "";
    int x = 1;
    if (ov->by_rw) {
        put(pg, y, &x, w, TUI_STYLE_MARK_WRITE, "W");
        put(pg, y, &x, w, TUI_STYLE_DIM, " write  ");
        put(pg, y, &x, w, TUI_STYLE_MARK_READ, "R");
        put(pg, y, &x, w, TUI_STYLE_DIM, " read  * both  w r: inferred");
        put(pg, y, &x, w, TUI_STYLE_DIM, ovl);
        return;
    }
    for (uint32_t r = 0; r < om->ncases && r < 62 && x < w - 40; r++) { // one round of symbols
        char s[2] = {tui_offsets_case_symbol(r), '\0'};
        put(pg, y, &x, w, tui_offsets_case_style(r), s);
    }
    put(pg, y, &x, w, TUI_STYLE_DIM, om->ncases > 62 ? "... cases" : " cases");
    put(pg, y, &x, w, TUI_STYLE_DIM, " in order (j/k names one)  * several");
    put(pg, y, &x, w, TUI_STYLE_DIM, ovl);
}

void tui_offsets_page(struct tui_app *app, struct tui_offsets_view *ov, int width, int height,
                      struct tui_page *pg)
{
    int ncols = width - PLOT_X - 1, prow = height - 5;
    if (ncols < 8 || prow < 2) {
        tui_page_text(pg, 0, 1, width - 2, TUI_STYLE_DIM, "too small for the offset map");
        return;
    }
    int rc = tui_offsets_update(app, ov);
    if (rc == 2) { // the loop polls the job and redraws when it is ready; keys stay live
        tui_page_textf(
            pg, 0, 1, width - 2, TUI_STYLE_HEADER, "%s",
            iodfg_strpool_get(iodfg_eventlog_pool(tui_app_log(app)), tui_offsets_job_path(ov)));
        tui_page_text(pg, 2, 2, width - 4, TUI_STYLE_DIM,
                      iodfg_glyph_text("computing the offset map of this file…"));
        return;
    }
    if (rc) {
        tui_page_text(pg, 0, 1, width - 2, rc < 0 ? TUI_STYLE_ERROR : TUI_STYLE_DIM,
                      rc < 0 ? ov->error
                             : "no data file is read or written in this selection (filters, "
                               "rules, groups)");
        return;
    }
    const struct iodfg_offsetmap *om = &ov->om;
    head(app, ov, width, pg);
    sources(om, width, pg);
    if (om->npoints == 0) {
        tui_page_text(pg, 4, 2, width - 4, TUI_STYLE_DIM,
                      "no read or write of this file at a known or inferred offset");
        return;
    }
    int64_t from, to;
    tui_picture_window(&ov->z, om->t_from, om->t_to, ncols, &from, &to);
    int nrows = plot(ov, from, to, ncols, prow, pg);
    tui_page_text(pg, 3 + nrows, 0, LABEL_W, TUI_STYLE_DIM, "time (s)");
    tui_picture_axis(pg, 3 + nrows, PLOT_X, ncols, from, to,
                     iodfg_eventlog_time_origin(tui_app_log(app)));
    legend(ov, 4 + nrows, width, pg);
}

void tui_offsets_detail(struct tui_app *app, struct tui_offsets_view *ov, char *buf, size_t size)
{
    (void)app;
    const struct iodfg_offsetmap *om = &ov->om;
    buf[0] = '\0';
    if (!ov->built || ov->cursor >= om->ncases) {
        snprintf(buf, size, "%s", iodfg_glyph_text("Enter: the data files · c marks · +/- zoom"));
        return;
    }
    const struct iodfg_offsetmap_case *c = &om->cases[ov->cursor];
    char t[2][96];
    for (int d = 0; d < 2; d++) {
        const struct iodfg_offsetmap_dir *x = &c->dir[d];
        uint64_t n = x->n[0] + x->n[1] + x->n[2];
        char b[IODFG_FORMAT_MIN];
        int64_t bytes = x->bytes[0] + x->bytes[1] + x->bytes[2];
        snprintf(t[d], sizeof(t[d]), "%s %s (%llu, %s)", d == IODFG_DIR_WRITE ? "writes" : "reads",
                 n ? iodfg_pattern_name(x->pattern) : "none", (unsigned long long)n,
                 iodfg_format_bytes(b, sizeof(b), bytes, 0));
    }
    char ob[IODFG_FORMAT_MIN];
    snprintf(buf, size, iodfg_glyph_text("%c %s · %s · %s%s%s"),
             tui_offsets_case_symbol(ov->cursor), iodfg_offsetmap_case_name(om, ov->cursor),
             t[IODFG_DIR_WRITE], t[IODFG_DIR_READ],
             c->overlap_bytes ? iodfg_glyph_text(" · others write ") : "",
             c->overlap_bytes ? iodfg_format_bytes(ob, sizeof(ob), c->overlap_bytes, 0) : "");
}
