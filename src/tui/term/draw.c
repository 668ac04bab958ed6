/* SPDX-License-Identifier: MIT */
/* Renderers of the Graph, Timeline, Rules and Help views, the Diff summary and the filter list
 * (through the screen's sanitising text calls only). */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "iodfg/analysis.h"
#include "iodfg/buf.h"
#include "iodfg/dfg.h"
#include "iodfg/eventlog.h"
#include "iodfg/export.h"
#include "iodfg/format.h"
#include "iodfg/stats.h"

#include "tui/app.h"
#include "tui/charz.h"
#include "tui/keymap.h"
#include "tui/term/screen.h"
#include "tui/term/ui.h"
#include "tui/theme.h"
#include "tui/timeline_job.h"
#include "tui/viewmodel.h"


/* ---- the page painter ---- */

/* A glyph run: each cell its glyph, ' ' cells left alone. */
static void draw_glyphs(struct tui_screen *s, int y, int x, const struct tui_span *sp)
{
    for (int i = 0; i < sp->width && sp->text[i]; i++) {
        if (sp->text[i] != ' ') {
            tui_screen_text(s, y, x + i, 1, sp->style,
                            tui_screen_glyph(s, TUI_GLYPH_OF_CELL(sp->text[i])), 0);
        }
    }
}

/* The Characterisation's chart and bar cells. */
static void draw_cells(struct tui_screen *s, int y, int x, const struct tui_span *sp)
{
    for (int i = 0; sp->text[i] && i < sp->width; i++) {
        char ch = sp->text[i];
        if (ch == ' ') {
            continue;
        }
        if (sp->kind == TUI_SPAN_BAR) {
            // each call has its own glyph; alternate two styles so neighbours stand apart
            char g[2] = {ch, '\0'};
            tui_screen_text(s, y, x + i, 1, i % 2 ? TUI_STYLE_TIMELINE_BAR : TUI_STYLE_SPARK, g, 0);
        } else if (ch == '-') {
            tui_screen_text(s, y, x + i, 1, TUI_STYLE_BORDER, tui_screen_glyph(s, TUI_G_HLINE), 0);
        } else { // read and write cells differ by glyph and side of the axis, not colour only
            int rd = ch == 'r';
            tui_screen_text(s, y, x + i, 1, rd ? TUI_STYLE_DIFF_GREEN : TUI_STYLE_DIFF_RED,
                            tui_screen_glyph(s, rd ? TUI_G_FULL : TUI_G_MEDIUM), 0);
        }
    }
}

static void draw_span(struct tui_screen *s, struct tui_rect r, int y, const struct tui_span *sp,
                      struct tui_listmodel *table)
{
    int x = r.x + sp->col;
    switch (sp->kind) {
    case TUI_SPAN_TEXT:
        tui_screen_text(s, y, x, sp->width, sp->style, sp->text,
                        sp->flags & TUI_SPAN_RIGHT ? TUI_TEXT_RIGHT : 0);
        break;
    case TUI_SPAN_FILL:
        tui_screen_fill(s, y, x, sp->width, sp->style);
        break;
    case TUI_SPAN_HLINE:
        tui_screen_hline(s, y, x, sp->width, sp->style);
        break;
    case TUI_SPAN_GLYPHS:
        draw_glyphs(s, y, x, sp);
        break;
    case TUI_SPAN_TABLE:
        if (table) {
            tui_table_draw(s, (struct tui_rect){y, x, sp->height, sp->width}, table, sp->text);
        }
        break;
    default:
        draw_cells(s, y, x, sp);
        break;
    }
}

void tui_draw_page(struct tui_screen *s, struct tui_rect r, const struct tui_viewmodel *vm)
{
    const struct tui_page *pg = &vm->page;
    for (size_t i = 0; i < pg->n; i++) {
        const struct tui_span *sp = &pg->span[i];
        int y = sp->row - vm->top;
        if (y >= 0 && y < r.h) {
            draw_span(s, r, r.y + y, sp, vm->table);
        }
    }
    if (vm->cursor_row >= 0) {
        tui_screen_cursor(s, r.y + vm->cursor_row, r.x + vm->cursor_col);
    }
}

/* ---- timeline ---- */

static const char *cover_glyph(struct tui_screen *s, float f)
{
    if (f <= 0.0f) {
        return " ";
    }
    return tui_screen_glyph(s, f >= 0.75f   ? TUI_G_FULL
                               : f >= 0.5f  ? TUI_G_DARK
                               : f >= 0.25f ? TUI_G_MEDIUM
                                            : TUI_G_LIGHT);
}

/* The Timeline's drill-in: one case's events of the activity, as a table. */
static void draw_events(struct tui_screen *s, struct tui_rect r, struct tui_app *app)
{
    const struct tui_timeline *tl = &app->tl;
    char head[600];
    snprintf(head, sizeof(head), "%s in %s: %llu events · Esc returns",
             tl->activity != UINT32_MAX ? tui_app_activity_name(app, tl->activity)
                                        : "all activities",
             tui_app_case_name(app, tl->events_row_case), (unsigned long long)tl->nevents);
    tui_screen_text(s, r.y, r.x + 1, r.w - 2, TUI_STYLE_DETAIL, head, 0);
    r.y += 1;
    r.h -= 1;
    tui_table_draw(s, r, app->events_lm, "no events");
}

/* Logs below this many events get their stair-case index at once; larger ones when the
 * background characterisation arrives. */
#define STAIR_SYNC_EVENTS 1000000u

// "stair-case 0.75" ("stair G0.10 R0.75" with groups) for activity a (seed 002's serialisation,
// bandwidth.h); returns 1 when the calls look serialised (index >= 0.25).
static int timeline_stair(struct tui_app *app, uint32_t a, char *out, size_t size)
{
    out[0] = '\0';
    if (a == UINT32_MAX) {
        return 0;
    }
    tui_app_charz_update(app);
    if (tui_app_charz_busy(app) && iodfg_eventlog_event_count(app->log) < STAIR_SYNC_EVENTS) {
        tui_app_charz_wait(app);
    }
    const struct tui_charz *cz = &app->charz;
    if (!cz->have || cz->res_gen != app->generation) {
        return 0;
    }
    double v[2] = {0, 0};
    for (int g = 0; g < cz->ngroups; g++) {
        const struct iodfg_serial *se = &cz->res[g].serial;
        v[g] = a < se->nactivities ? se->act[a].stair : 0;
    }
    if (cz->ngroups == 2) {
        snprintf(out, size, "stair G%.2f R%.2f", v[0], v[1]);
    } else {
        snprintf(out, size, "stair-case %.2f", v[0]);
    }
    return v[0] >= 0.25 || (cz->ngroups == 2 && v[1] >= 0.25);
}

/* While the index is built in the background (timeline_job.h): what and how far; the loop
 * polls the job and redraws when it is ready, the keys stay live meanwhile. */
static void draw_indexing(struct tui_screen *s, struct tui_rect r, struct tui_app *app)
{
    uint32_t a = tui_app_selected_activity(app);
    uint64_t events = 0;
    int pm = tui_app_timeline_progress(app, &events);
    char line[160], n[32];
    tui_screen_text(s, r.y, r.x + 1, r.w - 2, TUI_STYLE_HEADER,
                    a != UINT32_MAX ? tui_app_activity_name(app, a) : "all activities", 0);
    if (events) {
        snprintf(line, sizeof(line), "indexing %s events for the timeline… %d%%",
                 iodfg_format_count(n, sizeof(n), events, 0), pm < 0 ? 0 : pm / 10);
    } else {
        snprintf(line, sizeof(line), "indexing the events for the timeline… %d%%",
                 pm < 0 ? 0 : pm / 10);
    }
    tui_screen_text(s, r.y + 2, r.x + 2, r.w - 4, TUI_STYLE_DIM, line, 0);
}

void tui_draw_timeline(struct tui_screen *s, struct tui_rect r, struct tui_app *app)
{
    if (app->tl.show_events && app->events_lm) {
        draw_events(s, r, app);
        return;
    }
    int label = 22;
    int nbins = r.w - label - 2;
    int rc = nbins < 10 ? -1 : tui_app_timeline(app, nbins);
    if (rc == 1) {
        draw_indexing(s, r, app);
        return;
    }
    if (rc) {
        return;
    }
    struct tui_timeline *tl = &app->tl;
    char head[512], b1[32], b2[32], b3[32];
    uint32_t a = tl->activity;
    const struct iodfg_activity_stats *st =
        a != UINT32_MAX ? &iodfg_analysis_stats(app->an)->act[a] : NULL;
    char peak[96] = "", stair[64] = "";
    if (st && st->mc) {
        snprintf(peak, sizeof(peak), "   max concurrency %u at +%s", st->mc,
                 iodfg_format_duration(b3, 32, st->mc_time_ns - tl->t0_ns, 0));
    }
    int serialised = timeline_stair(app, a, stair, sizeof(stair));
    snprintf(head, sizeof(head), "%s   +%s … +%s   bin %s%s",
             a != UINT32_MAX ? tui_app_activity_name(app, a) : "all activities",
             iodfg_format_duration(b1, 32, tl->from_ns - tl->t0_ns, 0),
             iodfg_format_duration(b2, 32, tl->from_ns - tl->t0_ns + tl->bin_ns * tl->nbins, 0),
             iodfg_format_duration(b3, 32, tl->bin_ns, 0), peak);
    tui_screen_text(s, r.y, r.x + 1, r.w - 2, TUI_STYLE_HEADER, head, 0);
    if (stair[0]) { // the stair-case index under the label, highlighted when serialised
        tui_screen_text(s, r.y + 2, r.x + 1, label - 2,
                        serialised ? TUI_STYLE_TIMELINE_PEAK : TUI_STYLE_DIM, stair, 0);
    }
    // the sparkline: mean concurrency per bin, scaled to the peak
    float max = tl->peak_bin >= 0 ? tl->conc[tl->peak_bin] : 0;
    tui_screen_text(s, r.y + 1, r.x + 1, label - 1, TUI_STYLE_DIM, "concurrency", 0);
    for (int b = 0; b < tl->nbins; b++) {
        float v = tl->conc[b];
        if (v <= 0) {
            continue;
        }
        int level = max > 0 ? (int)(v / max * 7.0f + 0.5f) : 0;
        level = level > 7 ? 7 : level;
        int style = b == tl->peak_bin ? TUI_STYLE_TIMELINE_PEAK : TUI_STYLE_SPARK;
        tui_screen_text(s, r.y + 1, r.x + label + b, 1, style,
                        tui_screen_glyph(s, (enum tui_glyph)(TUI_G_SPARK0 + level)), 0);
    }
    if (tl->peak_bin >= 0) {
        char mk[64];
        snprintf(mk, sizeof(mk), "^ peak %.1f", (double)max);
        int x = r.x + label + tl->peak_bin;
        int w = (int)strlen(mk);
        x = x + w > r.x + r.w ? r.x + r.w - w : x;
        tui_screen_text(s, r.y + 2, x, w, TUI_STYLE_TIMELINE_PEAK, mk, 0);
    }
    int rows = r.h - 3;
    if (tl->cursor >= tl->nrows) {
        tl->cursor = tl->nrows ? tl->nrows - 1 : 0;
    }
    if (tl->cursor < tl->top) {
        tl->top = tl->cursor;
    } else if (rows > 0 && tl->cursor >= tl->top + (uint32_t)rows) {
        tl->top = tl->cursor - (uint32_t)rows + 1;
    }
    for (int i = 0; i < rows && tl->top + (uint32_t)i < tl->nrows; i++) {
        uint32_t row = tl->top + (uint32_t)i;
        int y = r.y + 3 + i;
        int cur = row == tl->cursor;
        char name[300];
        snprintf(name, sizeof(name), "%s%s", cur ? tui_screen_glyph(s, TUI_G_CURSOR) : " ",
                 tui_app_case_name(app, tl->rows[row]));
        tui_screen_text(s, y, r.x, label - 1, cur ? TUI_STYLE_CURSOR : TUI_STYLE_NORMAL, name, 0);
        const float *cv = tl->cover + (size_t)row * (size_t)tl->nbins;
        for (int b = 0; b < tl->nbins; b++) {
            if (cv[b] > 0) {
                tui_screen_text(s, y, r.x + label + b, 1, TUI_STYLE_TIMELINE_BAR,
                                cover_glyph(s, cv[b]), 0);
            }
        }
    }
    if (tl->nrows == 0) {
        tui_screen_text(s, r.y + 4, r.x + 2, r.w - 4, TUI_STYLE_DIM, "no events in this window", 0);
    }
}

/* ---- characterisation ---- */

void tui_draw_charz(struct tui_screen *s, struct tui_rect r, struct tui_app *app)
{
    tui_app_charz_update(app);
    struct tui_viewmodel vm;
    tui_viewmodel_init(&vm);
    tui_charz_page(app, r.w, &vm.page);
    struct tui_charz *cz = &app->charz;
    int max_top = vm.page.rows > r.h ? vm.page.rows - r.h : 0;
    cz->top = cz->top > max_top ? max_top : cz->top < 0 ? 0 : cz->top;
    vm.top = cz->top;
    if (vm.page.failed) {
        vm.page.failed = 0;
        tui_page_text(&vm.page, vm.top + r.h - 1, 1, r.w - 2, TUI_STYLE_ERROR, "out of memory");
    }
    tui_draw_page(s, r, &vm);
    tui_viewmodel_fini(&vm);
}

/* ---- diff summary and filter list ---- */

void tui_draw_filters(struct tui_screen *s, struct tui_rect r, struct tui_app *app)
{
    size_t n = iodfg_filter_stack_count(app->filters);
    int h = (int)n + 2;
    h = h > r.h ? r.h : h;
    int y0 = r.y + r.h - h;
    for (int y = y0; y < r.y + r.h; y++) {
        tui_screen_fill(s, y, r.x, r.w, TUI_STYLE_NORMAL);
    }
    tui_screen_hline(s, y0, r.x, r.w, TUI_STYLE_BORDER);
    tui_screen_text(s, y0, r.x + 2, r.w - 4, TUI_STYLE_HELP_HEADING,
                    n ? " filter stack (Backspace pops the last) " : " no filters (f adds one) ",
                    0);
    for (size_t i = 0; i < n && y0 + 1 + (int)i < r.y + r.h; i++) {
        struct iodfg_buf b;
        iodfg_buf_init(&b);
        iodfg_buf_addf(&b, "%zu  ", i + 1);
        iodfg_filter_format(iodfg_filter_stack_get(app->filters, i), &b);
        tui_screen_text(s, y0 + 1 + (int)i, r.x + 2, r.w - 4, TUI_STYLE_NORMAL,
                        b.data ? b.data : "", 0);
        iodfg_buf_fini(&b);
    }
}
