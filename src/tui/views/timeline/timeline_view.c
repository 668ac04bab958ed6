/* SPDX-License-Identifier: MIT */
/* The Timeline view (4): one row per case with the selected activity's busy time in bins, the
 * concurrency sparkline with its peak and the stair-case index (the grid: timeline_grid.c, over the
 * event index of timeline_index.c); zoom, pan, and Enter lists a case's events. */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "iodfg/eventlog.h"
#include "iodfg/format.h"
#include "iodfg/glyph.h"
#include "iodfg/session.h"
#include "iodfg/stats.h"

#include "tui/app.h"
#include "tui/listmodel.h"
#include "tui/theme.h"
#include "tui/view.h"
#include "tui/viewmodel.h"
#include "tui/views/charz/charz.h"
#include "tui/views/timeline/timeline_grid.h"
#include "tui/views/timeline/timeline_job.h"
#include "tui/views/timeline/timeline_svg.h"

#define LABEL_W 22 /* the case names' column */
#define MAX_ZOOM 40

/* Logs below this many events get their stair-case index at once; larger ones when the
 * background characterisation arrives. */
#define STAIR_SYNC_EVENTS 1000000u

static void *open_timeline(struct tui_app *app)
{
    struct tui_timeline *tl = calloc(1, sizeof(*tl));
    if (tl) {
        tl->log = tui_app_log(app);
    }
    return tl;
}

static void close_timeline(struct tui_app *app, void *st)
{
    (void)app;
    struct tui_timeline *tl = st;
    tui_timeline_fini(tl);
    tui_listmodel_free(tl->events_lm);
    free(tl);
}

/* Its activity may have changed: back to the chart. */
static int changed(struct tui_app *app, void *st, const struct iodfg_session_change *what)
{
    (void)app;
    (void)what;
    ((struct tui_timeline *)st)->show_events = 0;
    return 0;
}

static struct tui_listmodel *table(struct tui_app *app, void *st)
{
    (void)app;
    struct tui_timeline *tl = st;
    return tl->show_events ? tl->events_lm : NULL;
}

static int busy(struct tui_app *app, void *st)
{
    (void)st;
    return tui_app_timeline_busy(app);
}

static int poll(struct tui_app *app, void *st)
{
    (void)st;
    return tui_app_timeline_poll(app);
}

/* ---- commands ---- */

/* j / k: the case row (the renderer scrolls to it); in the event list, its table's. */
static unsigned move(struct tui_app *app, void *st, enum tui_cmd cmd)
{
    (void)app;
    struct tui_timeline *tl = st;
    if (tl->show_events) {
        return TUI_PASS;
    }
    long v = (long)tl->cursor + tui_cmd_step(cmd);
    long max = tl->nrows ? (long)tl->nrows - 1 : 0;
    tl->cursor = (uint32_t)(v < 0 ? 0 : v > max ? max : v);
    return TUI_REDRAW;
}

/* + - h l 0: zoom in around the centre, out, pan a quarter, fit the whole span. */
static unsigned zoom(struct tui_app *app, void *st, enum tui_cmd cmd)
{
    (void)app;
    struct tui_timeline *tl = st;
    int64_t width = tl->bin_ns * tl->nbins;
    switch (cmd) {
    case TUI_CMD_ZOOM_IN:
        tl->zoom += tl->zoom < MAX_ZOOM;
        tl->pan_set = 1;
        tl->from_ns += width / 4; // keep the centre
        break;
    case TUI_CMD_ZOOM_OUT:
        tl->zoom -= tl->zoom > 0;
        tl->from_ns -= width / 2;
        break;
    case TUI_CMD_PAN_LEFT:
        tl->pan_set = 1;
        tl->from_ns -= width / 4;
        break;
    case TUI_CMD_PAN_RIGHT:
        tl->pan_set = 1;
        tl->from_ns += width / 4;
        break;
    default: // fit
        tl->zoom = 0;
        tl->pan_set = 0;
        break;
    }
    tl->stamp = 0;
    return TUI_REDRAW;
}

/* Enter: the events of the case row (not while the index is being built). */
static unsigned events(struct tui_app *app, void *st, enum tui_cmd cmd)
{
    (void)cmd;
    struct tui_timeline *tl = st;
    if (!tl->show_events && tui_app_timeline_busy(app)) {
        tui_app_set_message(
            app, 0, iodfg_glyph_text("indexing the timeline… Enter again when it is drawn"));
        return TUI_REDRAW;
    }
    if (!tl->show_events && tui_app_timeline_events(app)) {
        tui_app_set_message(app, 1, "no events to list");
    }
    return TUI_REDRAW;
}

/* Esc: back to the chart (and the global close). */
static unsigned close_events(struct tui_app *app, void *st, enum tui_cmd cmd)
{
    (void)app;
    (void)cmd;
    ((struct tui_timeline *)st)->show_events = 0;
    return TUI_PASS;
}

/* X: a snapshot of the window shown (timeline_svg.c). */
static unsigned svg(struct tui_app *app, void *st, enum tui_cmd cmd)
{
    return tui_timeline_svg_cmd(app, st, cmd);
}

static const struct tui_cmd_entry cmds[] = {
    {TUI_CMD_MOVE_UP, move},       {TUI_CMD_MOVE_DOWN, move},
    {TUI_CMD_PAGE_UP, move},       {TUI_CMD_PAGE_DOWN, move},
    {TUI_CMD_MOVE_FIRST, move},    {TUI_CMD_MOVE_LAST, move},
    {TUI_CMD_ZOOM_IN, zoom},       {TUI_CMD_ZOOM_OUT, zoom},
    {TUI_CMD_PAN_LEFT, zoom},      {TUI_CMD_PAN_RIGHT, zoom},
    {TUI_CMD_FIT, zoom},           {TUI_CMD_SHOW_EVENTS, events},
    {TUI_CMD_CLOSE, close_events}, {TUI_CMD_CANCEL, close_events},
    {TUI_CMD_EXPORT_SVG, svg},
};

/* ---- the view model ---- */

static const char *activity_label(struct tui_app *app, uint32_t a)
{
    return a != UINT32_MAX ? tui_app_activity_name(app, a) : "all activities";
}

/* The drill-in: one case's events of the activity, as a table. */
static void render_events(struct tui_app *app, struct tui_timeline *tl,
                          const struct tui_render_in *in, struct tui_viewmodel *vm)
{
    tui_page_textf(&vm->page, 0, 1, in->width - 2, TUI_STYLE_DETAIL,
                   iodfg_glyph_text("%s in %s: %llu events · Esc returns"),
                   activity_label(app, tl->activity), tui_app_case_name(app, tl->events_row_case),
                   (unsigned long long)tl->nevents);
    vm->table = tl->events_lm;
    tui_page_table(&vm->page, 1, 0, in->width, in->height - 1, "no events");
}

/* While the index is built in the background (timeline_job.h): what and how far; the loop
 * polls the job and redraws when it is ready, the keys stay live meanwhile. */
static void render_indexing(struct tui_app *app, const struct tui_render_in *in,
                            struct tui_page *pg)
{
    uint64_t nev = 0;
    int pm = tui_app_timeline_progress(app, &nev);
    char n[32];
    tui_page_text(pg, 0, 1, in->width - 2, TUI_STYLE_HEADER,
                  activity_label(app, tui_app_selected_activity(app)));
    if (nev) {
        tui_page_textf(pg, 2, 2, in->width - 4, TUI_STYLE_DIM,
                       iodfg_glyph_text("indexing %s events for the timeline… %d%%"),
                       iodfg_format_count(n, sizeof(n), nev, 0), pm < 0 ? 0 : pm / 10);
    } else {
        tui_page_textf(pg, 2, 2, in->width - 4, TUI_STYLE_DIM,
                       iodfg_glyph_text("indexing the events for the timeline… %d%%"),
                       pm < 0 ? 0 : pm / 10);
    }
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

/* The heading (activity, window, bin, peak concurrency) and the stair-case under the label. */
static void render_head(struct tui_app *app, const struct tui_timeline *tl, int w,
                        struct tui_page *pg)
{
    char b1[32], b2[32], b3[32], peak[96] = "", stair[64] = "";
    uint32_t a = tl->activity;
    const struct iodfg_activity_stats *st =
        a != UINT32_MAX ? &iodfg_session_stats(tui_app_session(app))->act[a] : NULL;
    if (st && st->mc && tl->clock_dropped) { // its time may be on another clock's axis
        snprintf(peak, sizeof(peak), "   max concurrency %u (per clock)", st->mc);
    } else if (st && st->mc) {
        snprintf(peak, sizeof(peak), "   max concurrency %u at +%s", st->mc,
                 iodfg_format_duration(b3, 32, st->mc_time_ns - tl->t0_ns, 0));
    }
    int serialised = stair_case(app, a, stair, sizeof(stair));
    tui_page_textf(
        pg, 0, 1, w - 2, TUI_STYLE_HEADER, iodfg_glyph_text("%s   +%s … +%s   bin %s%s   %s clock"),
        activity_label(app, a), iodfg_format_duration(b1, 32, tl->from_ns - tl->t0_ns, 0),
        iodfg_format_duration(b2, 32, tl->from_ns - tl->t0_ns + tl->bin_ns * tl->nbins, 0),
        iodfg_format_duration(b3, 32, tl->bin_ns, 0), peak,
        tl->clock == IODFG_CLOCK_NONE ? "no" : iodfg_clock_name(tl->clock));
    if (stair[0]) { // highlighted when serialised
        tui_page_text(pg, 2, 1, LABEL_W - 2, serialised ? TUI_STYLE_TIMELINE_PEAK : TUI_STYLE_DIM,
                      stair);
    }
}

/* The sparkline: mean concurrency per bin, scaled to the peak, which is marked. */
static void render_spark(const struct tui_timeline *tl, int w, struct tui_page *pg)
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
    if (tl->peak_bin >= 0) {
        tui_page_glyph(pg, 1, LABEL_W + tl->peak_bin, TUI_STYLE_TIMELINE_PEAK, TUI_G_SPARK0 + 7);
        char mk[64];
        snprintf(mk, sizeof(mk), "^ peak %.1f", (double)max);
        int x = LABEL_W + tl->peak_bin, mw = (int)strlen(mk);
        x = x + mw > w ? w - mw : x;
        tui_page_text(pg, 2, x, mw, TUI_STYLE_TIMELINE_PEAK, mk);
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
static void render_rows(struct tui_app *app, struct tui_timeline *tl, int w, int h,
                        struct tui_page *pg)
{
    int rows = h - 3;
    if (tl->cursor >= tl->nrows) {
        tl->cursor = tl->nrows ? tl->nrows - 1 : 0;
    }
    if (tl->cursor < tl->top) {
        tl->top = tl->cursor;
    } else if (rows > 0 && tl->cursor >= tl->top + (uint32_t)rows) {
        tl->top = tl->cursor - (uint32_t)rows + 1;
    }
    char *cells = malloc((size_t)tl->nbins + 1);
    for (int i = 0; cells && i < rows && tl->top + (uint32_t)i < tl->nrows; i++) {
        uint32_t row = tl->top + (uint32_t)i;
        const char *name = tui_app_case_name(app, tl->rows[row]);
        if (row == tl->cursor) {
            tui_page_glyph(pg, 3 + i, 0, TUI_STYLE_CURSOR, TUI_G_CURSOR);
            tui_page_text(pg, 3 + i, 1, LABEL_W - 2, TUI_STYLE_CURSOR, name);
        } else {
            tui_page_textf(pg, 3 + i, 0, LABEL_W - 1, TUI_STYLE_NORMAL, " %s", name);
        }
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

static void render(struct tui_app *app, void *st, const struct tui_render_in *in,
                   struct tui_viewmodel *vm)
{
    struct tui_timeline *tl = st;
    if (tl->show_events && tl->events_lm) {
        render_events(app, tl, in, vm);
        return;
    }
    int nbins = in->width - LABEL_W - 2;
    int rc = nbins < 10 ? -1 : tui_app_timeline(app, nbins);
    if (rc == 1) {
        render_indexing(app, in, &vm->page);
    } else if (rc == 0) {
        render_head(app, tl, in->width, &vm->page);
        render_spark(tl, in->width, &vm->page);
        render_rows(app, tl, in->width, in->height, &vm->page);
    }
}

static void detail(struct tui_app *app, void *st, char *buf, size_t size)
{
    struct tui_listmodel *lm = table(app, st);
    if (lm && tui_listmodel_count(lm)) {
        tui_table_detail(lm, buf, size);
    } else if (tui_app_timeline_state(app)->clock_dropped) { // what the axis leaves out
        uint32_t n = tui_app_timeline_state(app)->clock_dropped;
        snprintf(buf, size,
                 "%u case%s of other clocks not shown: times of different clocks cannot be "
                 "compared (iodfg --align start)",
                 n, n == 1 ? "" : "s");
    } else {
        snprintf(buf, size,
                 iodfg_glyph_text(
                     "+/- zoom · h/l pan · 0 fit · j/k case · Enter its events · 1 activity"));
    }
}

const struct tui_view_ops tui_view_timeline = {
    .open = open_timeline,
    .close = close_timeline,
    .changed = changed,
    .cmds = cmds,
    .ncmds = sizeof(cmds) / sizeof(cmds[0]),
    .prompt = tui_timeline_svg_prompt,
    .render = render,
    .detail = detail,
    .table = table,
    .busy = busy,
    .poll = poll,
};
