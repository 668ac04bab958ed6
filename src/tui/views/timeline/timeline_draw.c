/* SPDX-License-Identifier: MIT */
/* The Timeline's chart (timeline_draw.h): heading, sparkline, markers, case rows, the sentence
 * that tells the bin's peak from the exact maximum concurrency, and the legend. Times are shown
 * on the log's clock in the form every output uses (iodfg_format_clock). */
#include "config.h"

#include "tui/views/timeline/timeline_draw.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "iodfg/bandwidth.h"
#include "iodfg/eventlog.h"
#include "iodfg/format.h"
#include "iodfg/glyph.h"
#include "iodfg/session.h"
#include "iodfg/stats.h"

#include "tui/app.h"
#include "tui/theme.h"
#include "tui/viewmodel.h"
#include "tui/views/charz/charz.h"

#define LABEL_W TUI_TIMELINE_LABEL_W
#define FOOT 2 /* the sentence and the legend under the rows */

/* Logs below this many events get their stair-case index at once; larger ones when the
 * background characterisation arrives. */
#define STAIR_SYNC_EVENTS 1000000u

/* Digits of the second's fraction that tell bins of bin_ns apart. */
static int digits_for(int64_t bin_ns)
{
    int d = 0;
    for (int64_t unit = 1000000000; d < 9 && unit > bin_ns; unit /= 10) {
        d++;
    }
    return d;
}

/* Time t of the Timeline on its clock; the epoch clock's date only when asked (day). */
static char *clock_text(const struct tui_timeline *tl, int64_t t, int digits, int day, char *buf,
                        size_t size)
{
    if (tl->clock == IODFG_CLOCK_EPOCH && !day) { // the time of day (UTC) of a date shown once
        int64_t d = 86400 * (int64_t)1000000000;
        return iodfg_format_clock(buf, size, IODFG_CLOCK_TIME_OF_DAY, ((t % d) + d) % d, digits);
    }
    return iodfg_format_clock(buf, size, (int)tl->clock, t, digits);
}

/* "stair-case 0.75" ("stair G0.10 R0.75" with groups) for activity a: the serialisation index
 * of Wright et al. 2013 (bandwidth.h); returns 1 when the calls look serialised (>= 0.25). */
static int stair_case(struct tui_app *app, uint32_t a, char *out, size_t size)
{
    out[0] = '\0';
    if (a == UINT32_MAX) {
        return 0;
    }
    tui_app_charz_update(app);
    if (tui_app_charz_busy(app) &&
        iodfg_eventlog_event_count(tui_app_log(app)) < STAIR_SYNC_EVENTS) {
        tui_app_charz_wait(app);
    }
    const struct tui_charz *cz = tui_app_charz(app);
    if (!cz->have || cz->res_gen != tui_app_generation(app)) {
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

/* The heading: the activity (its name loses its middle first), the window on the log's clock,
 * the bin; the stair-case under the label. */
static void head(struct tui_app *app, const struct tui_timeline *tl, int w, struct tui_page *pg)
{
    uint32_t a = tl->activity;
    const char *name = a != UINT32_MAX ? tui_app_activity_name(app, a) : "all activities";
    char t1[64], t2[64], bin[32], rest[256], stair[64];
    int dg = digits_for(tl->bin_ns);
    snprintf(rest, sizeof(rest), iodfg_glyph_text("   %s … %s   bin %s   %s clock"),
             clock_text(tl, tl->from_ns, dg, 1, t1, sizeof(t1)),
             clock_text(tl, tl->from_ns + tl->bin_ns * tl->nbins, dg, 0, t2, sizeof(t2)),
             iodfg_format_duration(bin, sizeof(bin), tl->bin_ns, 0),
             tl->clock == IODFG_CLOCK_NONE ? "no" : iodfg_clock_name(tl->clock));
    int rw = (int)strlen(rest), nw = (int)strlen(name), room = w - 2 - rw;
    room = room < 20 ? 20 : room;
    nw = nw < room ? nw : room;
    tui_page_fill(pg, 0, 0, w, TUI_STYLE_HEADER);
    tui_page_name(pg, 0, 1, nw, TUI_STYLE_HEADER, name);
    tui_page_text(pg, 0, 1 + nw, w - 2 - nw, TUI_STYLE_HEADER, rest);
    int serialised = stair_case(app, a, stair, sizeof(stair));
    if (stair[0]) { // highlighted when serialised
        tui_page_text(pg, 2, 1, LABEL_W - 2, serialised ? TUI_STYLE_TIMELINE_PEAK : TUI_STYLE_DIM,
                      stair);
    }
}

/* The sparkline: mean concurrency per bin, scaled to the peak, which is marked under it, as
 * is the time cursor (the centre of zooms). */
static void spark(const struct tui_timeline *tl, int w, struct tui_page *pg)
{
    float max = tl->peak_bin >= 0 ? tl->conc[tl->peak_bin] : 0;
    tui_page_text(pg, 1, 1, LABEL_W - 1, TUI_STYLE_DIM, "concurrency");
    char *cells = malloc((size_t)tl->nbins + 1);
    if (!cells) {
        pg->failed = 1;
        return;
    }
    for (int b = 0; b < tl->nbins; b++) {
        float v = tl->conc[b];
        int level = max > 0 ? (int)(v / max * 7.0f + 0.5f) : 0;
        level = level > 7 ? 7 : level;
        cells[b] = v > 0 && b != tl->peak_bin ? TUI_GLYPH_CELL(TUI_G_SPARK0 + level) : ' ';
    }
    tui_page_glyphs(pg, 1, LABEL_W, TUI_STYLE_SPARK, cells, tl->nbins);
    free(cells);
    int64_t span = tl->bin_ns * tl->nbins;
    int cx = -1; // the time cursor's column
    if (tl->cursor_set && tl->bin_ns > 0 && tl->cursor_ns >= tl->from_ns &&
        tl->cursor_ns < tl->from_ns + span) {
        cx = LABEL_W + (int)((tl->cursor_ns - tl->from_ns) / tl->bin_ns);
        tui_page_glyph(pg, 2, cx, TUI_STYLE_CURSOR, TUI_G_VLINE);
    }
    if (tl->peak_bin >= 0) {
        tui_page_glyph(pg, 1, LABEL_W + tl->peak_bin, TUI_STYLE_TIMELINE_PEAK, TUI_G_SPARK0 + 7);
        char mk[64], km[64];
        snprintf(mk, sizeof(mk), "^ peak %.1f", (double)max);
        snprintf(km, sizeof(km), "peak %.1f ^", (double)max);
        // "^ peak" from the peak's column, else "peak ^" up to it: where the time cursor's
        // mark is not and the row has room
        int px = LABEL_W + tl->peak_bin, mw = (int)strlen(mk), right = px, left = px - mw + 1;
        int ok_r = right + mw <= w && !(cx >= right && cx < right + mw);
        int ok_l = left >= LABEL_W && !(cx >= left && cx < left + mw);
        if (ok_r || ok_l) {
            tui_page_text(pg, 2, ok_r ? right : left, mw, TUI_STYLE_TIMELINE_PEAK, ok_r ? mk : km);
        }
    }
}

static enum tui_glyph cover_glyph(float f)
{
    return f >= 0.75f   ? TUI_G_FULL
           : f >= 0.5f  ? TUI_G_DARK
           : f >= 0.25f ? TUI_G_MEDIUM
                        : TUI_G_LIGHT;
}

/* The case rows that fit (the cursor's kept in view): name, then each bin's busy fraction. */
static void rows(struct tui_app *app, struct tui_timeline *tl, int w, int nrows,
                 struct tui_page *pg)
{
    if (tl->cursor >= tl->nrows) {
        tl->cursor = tl->nrows ? tl->nrows - 1 : 0;
    }
    if (tl->cursor < tl->top) {
        tl->top = tl->cursor;
    } else if (nrows > 0 && tl->cursor >= tl->top + (uint32_t)nrows) {
        tl->top = tl->cursor - (uint32_t)nrows + 1;
    }
    char *cells = malloc((size_t)tl->nbins + 1);
    for (int i = 0; cells && i < nrows && tl->top + (uint32_t)i < tl->nrows; i++) {
        uint32_t row = tl->top + (uint32_t)i;
        const char *name = tui_app_case_name(app, tl->rows[row]);
        int style = row == tl->cursor ? TUI_STYLE_CURSOR : TUI_STYLE_NORMAL;
        if (row == tl->cursor) {
            tui_page_glyph(pg, 3 + i, 0, style, TUI_G_CURSOR);
        }
        tui_page_name(pg, 3 + i, 1, LABEL_W - 2, style, name);
        const float *cv = tl->cover + (size_t)row * (size_t)tl->nbins;
        for (int b = 0; b < tl->nbins; b++) {
            cells[b] = cv[b] > 0 ? TUI_GLYPH_CELL(cover_glyph(cv[b])) : ' ';
        }
        tui_page_glyphs(pg, 3 + i, LABEL_W, TUI_STYLE_TIMELINE_BAR, cells, tl->nbins);
    }
    pg->failed |= !cells;
    free(cells);
    if (tl->nrows == 0) {
        tui_page_text(pg, 4, 2, w - 4, TUI_STYLE_DIM, "no events in this window");
    }
}

/* What the two numbers are, in one sentence, and the density glyphs' legend. */
static void foot(struct tui_app *app, const struct tui_timeline *tl, int w, int y,
                 struct tui_page *pg)
{
    uint32_t a = tl->activity;
    const struct iodfg_stats *stats = iodfg_session_stats(tui_app_session(app));
    const struct iodfg_activity_stats *st = a < stats->nactivities ? &stats->act[a] : NULL;
    float peak = tl->peak_bin >= 0 ? tl->conc[tl->peak_bin] : 0;
    char line[256];
    if (st && st->mc) {
        snprintf(line, sizeof(line),
                 "peak %.1f = mean calls in flight in its bin; max concurrency %u = most at once",
                 (double)peak, st->mc);
    } else {
        snprintf(line, sizeof(line), "peak %.1f = mean calls in flight in the busiest bin",
                 (double)peak);
    }
    tui_page_text(pg, y, 1, w - 2, TUI_STYLE_DIM, line);
    static const enum tui_glyph g[4] = {TUI_G_FULL, TUI_G_DARK, TUI_G_MEDIUM, TUI_G_LIGHT};
    const char *ge = iodfg_glyph_utf8() ? "\u2265" : ">=";
    char label[4][16];
    snprintf(label[0], 16, "%s75%%", ge);
    snprintf(label[1], 16, "%s50%%", ge);
    snprintf(label[2], 16, "%s25%%", ge);
    snprintf(label[3], 16, "<25%%");
    int x = 1;
    for (int i = 0; i < 4; i++) {
        tui_page_glyph(pg, y + 1, x, TUI_STYLE_TIMELINE_BAR, g[i]);
        int lw = (int)strlen(label[i]) - (iodfg_glyph_utf8() && i < 3 ? 2 : 0);
        tui_page_text(pg, y + 1, x + 2, lw, TUI_STYLE_DIM, label[i]);
        x += 3 + lw;
    }
    tui_page_text(pg, y + 1, x, w - 1 - x, TUI_STYLE_DIM, "of a bin busy   ^ peak   | cursor");
    tui_page_glyph(pg, y + 1, x + (int)strlen("of a bin busy   ^ peak   "), TUI_STYLE_CURSOR,
                   TUI_G_VLINE);
}

void tui_timeline_chart(struct tui_app *app, struct tui_timeline *tl, int w, int h,
                        struct tui_page *pg)
{
    int foot_rows = h >= 3 + 2 + FOOT ? FOOT : 0;
    head(app, tl, w, pg);
    spark(tl, w, pg);
    rows(app, tl, w, h - 3 - foot_rows, pg);
    if (foot_rows) {
        foot(app, tl, w, h - FOOT, pg);
    }
}
