/* SPDX-License-Identifier: MIT */
/* The Timeline's window (timeline_zoom.h): zoom around the time cursor (else around the
 * selected activity's events in view), pan, fit the activity's events (again: the whole span),
 * zoom into the burst at the concurrency peak, and the time cursor itself. The grid
 * (timeline_grid.c) is recomputed for the new window when drawn. */
#include "config.h"

#include "tui/views/timeline/timeline_zoom.h"

#include "iodfg/session.h"
#include "iodfg/stats.h"

#include "tui/app.h"
#include "tui/views/timeline/timeline_grid.h"

#define MAX_ZOOM 40

/* The window drawn last: [from, from + width). */
static int64_t width_of(const struct tui_timeline *tl)
{
    int64_t w = tl->bin_ns * tl->nbins;
    return w > 0 ? w : tl->t1_ns - tl->t0_ns;
}

/* Where a zoom centres: the time cursor, else the middle of the activity's events in view
 * (its first and last busy bins), else the window's middle. */
static int64_t centre(const struct tui_timeline *tl)
{
    if (tl->cursor_set) {
        return tl->cursor_ns;
    }
    int first = -1, last = -1;
    for (int b = 0; tl->conc && b < tl->nbins; b++) {
        if (tl->conc[b] > 0) {
            first = first < 0 ? b : first;
            last = b;
        }
    }
    if (first < 0) {
        return tl->from_ns + width_of(tl) / 2;
    }
    return tl->from_ns + (int64_t)(first + last + 1) * tl->bin_ns / 2;
}

/* A window of width centred on c (the grid clamps it to the span). */
static void show(struct tui_timeline *tl, int64_t c, int64_t width)
{
    int64_t whole = tl->t1_ns - tl->t0_ns;
    if (width >= whole) { // the whole span: the cached fit
        tl->zoom = 0;
        tl->width_ns = 0;
        tl->pan_set = 0;
    } else {
        tl->zoom = tl->zoom > 0 ? tl->zoom : 1;
        tl->width_ns = width > 1 ? width : 1;
        tl->pan_set = 1;
        tl->from_ns = c - tl->width_ns / 2;
    }
    tl->stamp = 0;
}

static void set_cursor(struct tui_timeline *tl, int64_t t)
{
    tl->cursor_ns = t < tl->t0_ns ? tl->t0_ns : t > tl->t1_ns ? tl->t1_ns : t;
    tl->cursor_set = 1;
}

/* 0: the activity's events (with a bin's margin either side), or the whole span when that is
 * what is shown already or the activity has none. */
static void fit(struct tui_timeline *tl)
{
    int64_t a, b;
    if (tl->fit_activity || tui_timeline_extent(tl, &a, &b)) {
        show(tl, 0, tl->t1_ns - tl->t0_ns);
        tl->fit_activity = 0;
        tl->cursor_set = 0;
        return;
    }
    int64_t w = b - a, margin = w / (tl->nbins > 2 ? tl->nbins - 2 : 1);
    show(tl, a + w / 2, w + 2 * margin + 1);
    set_cursor(tl, a + w / 2);
    tl->fit_activity = 1;
}

/* p: the time cursor to the concurrency peak (the activity's instant of maximum concurrency,
 * exact; else the sparkline's highest bin) and the window to the burst around it: the run of
 * busy bins that holds it, a bin more either side. Again: closer still. */
static void peak(struct tui_app *app, struct tui_timeline *tl)
{
    if (tl->peak_bin < 0 || !tl->conc) {
        return;
    }
    int64_t t = tl->from_ns + tl->peak_bin * tl->bin_ns + tl->bin_ns / 2;
    const struct iodfg_stats *st = iodfg_session_stats(tui_app_session(app));
    uint32_t a = tl->activity;
    if (a < st->nactivities && st->act[a].mc > 0 && !tl->clock_dropped &&
        st->act[a].mc_time_ns >= tl->from_ns &&
        st->act[a].mc_time_ns < tl->from_ns + width_of(tl)) {
        t = st->act[a].mc_time_ns;
    }
    int b = (int)((t - tl->from_ns) / (tl->bin_ns > 0 ? tl->bin_ns : 1));
    b = b < 0 ? 0 : b >= tl->nbins ? tl->nbins - 1 : b;
    int b0 = b, b1 = b;
    while (b0 > 0 && tl->conc[b0 - 1] > 0) {
        b0--;
    }
    while (b1 + 1 < tl->nbins && tl->conc[b1 + 1] > 0) {
        b1++;
    }
    int64_t w = (int64_t)(b1 - b0 + 3) * tl->bin_ns;
    if (w >= width_of(tl)) { // busy everywhere: a quarter of the window around it
        w = width_of(tl) / 4;
    }
    set_cursor(tl, t);
    show(tl, tl->from_ns + (int64_t)(b0 + b1 + 1) * tl->bin_ns / 2, w);
    tl->zoom += tl->zoom < MAX_ZOOM;
    tl->fit_activity = 0;
}

/* H / L: the time cursor one bin back / on; the window follows a quarter when it leaves. */
static void move_cursor(struct tui_timeline *tl, int dir)
{
    int64_t w = width_of(tl);
    set_cursor(tl, (tl->cursor_set ? tl->cursor_ns : centre(tl)) + dir * tl->bin_ns);
    if (tl->cursor_ns < tl->from_ns || tl->cursor_ns >= tl->from_ns + w) {
        tl->pan_set = 1;
        tl->from_ns += dir * (w / 4 > tl->bin_ns ? w / 4 : tl->bin_ns);
        tl->stamp = 0;
    }
}

void tui_timeline_window(struct tui_app *app, struct tui_timeline *tl, enum tui_cmd cmd)
{
    int64_t w = width_of(tl), c = centre(tl);
    switch (cmd) {
    case TUI_CMD_ZOOM_IN:
        if (tl->zoom < MAX_ZOOM && w / 2 >= tl->nbins) {
            set_cursor(tl, c);
            show(tl, c, w / 2);
            tl->zoom++;
        }
        break;
    case TUI_CMD_ZOOM_OUT:
        set_cursor(tl, c);
        show(tl, c, w * 2);
        tl->zoom -= tl->zoom > 1;
        break;
    case TUI_CMD_PAN_LEFT:
    case TUI_CMD_PAN_RIGHT: { // the cursor keeps its place in the window
        int64_t d = (cmd == TUI_CMD_PAN_LEFT ? -1 : 1) * (w / 4);
        tl->pan_set = 1;
        tl->from_ns += d;
        tl->cursor_ns += tl->cursor_set ? d : 0;
        tl->stamp = 0;
        break;
    }
    case TUI_CMD_FIT:
        fit(tl);
        return;
    case TUI_CMD_ZOOM_PEAK:
        peak(app, tl);
        return;
    case TUI_CMD_CURSOR_LEFT:
    case TUI_CMD_CURSOR_RIGHT:
        move_cursor(tl, cmd == TUI_CMD_CURSOR_LEFT ? -1 : 1);
        return;
    default:
        return;
    }
    tl->fit_activity = 0;
}
