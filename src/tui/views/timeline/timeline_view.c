/* SPDX-License-Identifier: MIT */
/* The Timeline view (4): one row per case with the selected activity's busy time in bins, the
 * concurrency sparkline with its peak and the stair-case index (drawn by timeline_draw.c; the
 * grid: timeline_grid.c, over the event index of timeline_index.c); zoom around the time cursor,
 * fit the activity's events, into the concurrency peak (timeline_zoom.c), and Enter lists a
 * case's events from the cursor's time. */
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
#include "tui/views/timeline/timeline_draw.h"
#include "tui/views/timeline/timeline_grid.h"
#include "tui/views/timeline/timeline_job.h"
#include "tui/views/timeline/timeline_zoom.h"
#include "tui/views/timeline/timeline_svg.h"

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

/* + - h l 0 p H L: the window (timeline_zoom.c). */
static unsigned zoom(struct tui_app *app, void *st, enum tui_cmd cmd)
{
    tui_timeline_window(app, st, cmd);
    return TUI_REDRAW;
}

/* Another activity: its own events decide where zooms centre. */
static void activity_moved(struct tui_app *app, void *st)
{
    (void)app;
    struct tui_timeline *tl = st;
    tl->cursor_set = 0;
    tl->fit_activity = 0;
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
    {TUI_CMD_MOVE_UP, move},
    {TUI_CMD_MOVE_DOWN, move},
    {TUI_CMD_PAGE_UP, move},
    {TUI_CMD_PAGE_DOWN, move},
    {TUI_CMD_MOVE_FIRST, move},
    {TUI_CMD_MOVE_LAST, move},
    {TUI_CMD_ZOOM_IN, zoom},
    {TUI_CMD_ZOOM_OUT, zoom},
    {TUI_CMD_PAN_LEFT, zoom},
    {TUI_CMD_PAN_RIGHT, zoom},
    {TUI_CMD_FIT, zoom},
    {TUI_CMD_SHOW_EVENTS, events},
    {TUI_CMD_ZOOM_PEAK, zoom},
    {TUI_CMD_CURSOR_LEFT, zoom},
    {TUI_CMD_CURSOR_RIGHT, zoom},
    {TUI_CMD_CLOSE, close_events},
    {TUI_CMD_CANCEL, close_events},
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

static void render(struct tui_app *app, void *st, const struct tui_render_in *in,
                   struct tui_viewmodel *vm)
{
    struct tui_timeline *tl = st;
    if (tl->show_events && tl->events_lm) {
        render_events(app, tl, in, vm);
        return;
    }
    int nbins = in->width - TUI_TIMELINE_LABEL_W - 2;
    int rc = nbins < 10 ? -1 : tui_app_timeline(app, nbins);
    if (rc == 1) {
        render_indexing(app, in, &vm->page);
    } else if (rc == 0) {
        tui_timeline_chart(app, tl, in->width, in->height, &vm->page);
    }
}

/* The selected case row (its name first: y copies it), the time cursor, the keys. */
static size_t detail(struct tui_app *app, void *st, char *buf, size_t size)
{
    struct tui_timeline *tl = st;
    struct tui_listmodel *lm = table(app, st);
    if (lm && tui_listmodel_count(lm)) {
        return tui_table_detail(lm, buf, size);
    }
    if (tl->clock_dropped) { // what the axis leaves out
        snprintf(buf, size,
                 "%u case%s of other clocks not shown: times of different clocks cannot be "
                 "compared (iodfg --align start)",
                 tl->clock_dropped, tl->clock_dropped == 1 ? "" : "s");
        return 0;
    }
    const char *name =
        tl->nrows && tl->cursor < tl->nrows ? tui_app_case_name(app, tl->rows[tl->cursor]) : "";
    char cur[96] = "";
    if (tl->cursor_set) {
        char t[64];
        snprintf(cur, sizeof(cur), iodfg_glyph_text("cursor %s · "),
                 iodfg_format_clock(t, sizeof(t), (int)tl->clock, tl->cursor_ns, 6));
    }
    snprintf(buf, size,
             iodfg_glyph_text("%s%s%sp peak · +/- zoom · 0 fit · h/l pan · ,/. cursor · Enter "
                              "events · 1 activity"),
             name, name[0] ? "   " : "", cur);
    size_t n = strlen(name);
    return n < size ? n : size - 1;
}

const struct tui_view_ops tui_view_timeline = {
    .open = open_timeline,
    .close = close_timeline,
    .changed = changed,
    .activity_moved = activity_moved,
    .cmds = cmds,
    .ncmds = sizeof(cmds) / sizeof(cmds[0]),
    .prompt = tui_timeline_svg_prompt,
    .render = render,
    .detail = detail,
    .table = table,
    .busy = busy,
    .poll = poll,
};
