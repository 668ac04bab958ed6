/* SPDX-License-Identifier: MIT */
/* The Timeline's grid: per-case busy bins and the concurrency profile of one activity (or all)
 * over the event index of timeline_index.c, and the event list of one case. */
#include "config.h"

#include "tui/views/timeline/timeline_grid.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "iodfg/dfg.h"
#include "iodfg/eventlog.h"
#include "iodfg/format.h"
#include "iodfg/glyph.h"
#include "iodfg/session.h"
#include "iodfg/strpool.h"
#include "iodfg/trace.h"

#include "tui/app.h"
#include "tui/listmodel.h"

/* ---- timeline ----
 *
 * What a cell shows. Each event occupies [start, start + max(dur, 1)) (an unknown or zero
 * duration is one nanosecond). For row r (a case) and bin [bs, be):
 *   busy = the summed overlap of the row's events with the bin, over the bin length;
 *   k    = how many of the row's events touch the bin (start < be and end > bs);
 *   cover = 0 when k = 0, else min(1, max(busy, 0.02 k)):
 * the busy fraction, but at least 0.02 per event in the bin, so an instant still shows and
 * many short calls add up. The concurrency sparkline is the sum of the rows' covers per bin
 * (mean concurrency), and the peak is its first highest bin.
 *
 * How it is computed without visiting the events of the window: with times relative to t0,
 * S(t) = sum over starts s < t of (t - s) - sum over ends e <= t of (t - e) is the busy time of
 * the row before t, so busy = (S(be) - S(bs)) / bin, and k = #(starts < be) - #(ends <= bs).
 * The index keeps, per row, the prefix sums of the starts (in start order) and of the ends
 * (sorted), 16 bytes an event, and every TL_STEP-th start and end apart (the samples); so each
 * bin edge costs a step along the samples, two searches among TL_STEP slots and a few
 * subtractions: a frame costs rows x bins, whatever the number of events in the window. The
 * sums are taken modulo 2^64: every difference used is exact because its true value is below
 * 2^63 (k < 50 events of at most one bin each; with 50 or more the cell is full anyway). */

/* Value j of the row (start or sorted end), from its prefix sums. */
static inline uint64_t nth_start(const struct tui_timeline_sums *sm, uint64_t j)
{
    return sm[j + 1].s - sm[j].s;
}

static inline uint64_t nth_end(const struct tui_timeline_sums *sm, uint64_t j)
{
    return sm[j + 1].e - sm[j].e;
}

/* The number of the row's n starts below t (ends: at or below t), known to lie in [lo, hi]. */
static inline uint64_t count_below(const struct tui_timeline_sums *sm, int ends, uint64_t lo,
                                   uint64_t hi, uint64_t t)
{
    while (lo < hi) {
        uint64_t mid = lo + (hi - lo) / 2;
        if (ends ? nth_end(sm, mid) <= t : nth_start(sm, mid) < t) {
            lo = mid + 1;
        } else {
            hi = mid;
        }
    }
    return lo;
}

/* Where the count of a row's values below t lies, from the samples below t among the row's
 * m samples (relative index off + i * TL_STEP): [*lo, *hi], at most TL_STEP wide. */
static inline void sample_window(uint64_t below, uint64_t off, uint64_t n, uint64_t *lo,
                                 uint64_t *hi)
{
    uint64_t h = off + below * TL_STEP;
    *lo = below ? h - TL_STEP + 1 : 0;
    *hi = h < n ? h : n;
}

/* The number of samples cs[lo..hi) below t (ends: at or below t), the first lo known to be:
 * a gallop away from the guess g, then a binary search. */
static uint64_t samples_below(const struct tui_timeline_sums *cs, int ends, uint64_t lo,
                              uint64_t hi, uint64_t g, uint64_t t)
{
#define BELOW(j) (ends ? cs[j].e <= t : cs[j].s < t)
    g = g < lo ? lo : g > hi ? hi : g;
    uint64_t step = 1;
    if (g < hi && BELOW(g)) { // the answer is above g
        lo = g + 1;
        for (;;) {
            uint64_t p = lo + step - 1;
            if (p >= hi) {
                break;
            }
            if (!BELOW(p)) {
                hi = p;
                break;
            }
            lo = p + 1;
            step *= 2;
        }
    } else { // at or below g
        hi = g;
        while (hi - lo >= step) {
            uint64_t p = hi - step;
            if (BELOW(p)) {
                lo = p + 1;
                break;
            }
            hi = p;
            step *= 2;
        }
    }
    while (lo < hi) {
        uint64_t mid = lo + (hi - lo) / 2;
        if (BELOW(mid)) {
            lo = mid + 1;
        } else {
            hi = mid;
        }
    }
    return lo;
#undef BELOW
}

/* The first phase of a row's cover: where each of the nbins + 1 bin edges t, t + bin, ... lies
 * among the row's n events (index slots [a, a + n), sm = sums + a, so sm[0] is the sum before
 * the row), found among the samples (which lie together) within TL_STEP slots for the starts
 * and for the ends: win gets 4 values an edge. The slots the second phase reads are asked
 * from memory now, so that their loads overlap (with the rest of the frame's work) instead of
 * waiting in turn. Returns the number of bins to compute (past it every event has ended). */
static int locate_row(const struct tui_timeline_sums *sm, const struct tui_timeline_sums *coarse,
                      uint64_t a, uint64_t n, uint64_t t, uint64_t bin, int nbins, uint64_t *win)
{
    if (n == 0) {
        return 0;
    }
    uint64_t k0 = (a + TL_STEP - 1) / TL_STEP, m = (a + n + TL_STEP - 1) / TL_STEP - k0;
    uint64_t off = k0 * TL_STEP - a;
    const struct tui_timeline_sums *cs = coarse + k0;
    // the first edge among the samples (from where the row's mean rate puts it), then walk on
    uint64_t g = 0;
    if (m > 1 && t > cs[0].s) {
        uint64_t span = cs[m - 1].s - cs[0].s;
        g = t > cs[m - 1].s || span == 0
                ? m - 1
                : (uint64_t)((double)(t - cs[0].s) / (double)span * (double)(m - 1));
    }
    uint64_t bs = samples_below(cs, 0, 0, m, g, t);
    uint64_t be = samples_below(cs, 1, 0, bs, bs, t); // no more ends than starts below t
    for (int b = 0; b <= nbins; b++) {
        uint64_t u = t + (uint64_t)b * bin;
        while (bs < m && cs[bs].s < u) {
            bs++;
        }
        while (be < m && cs[be].e <= u) {
            be++;
        }
        uint64_t *w = win + 4 * b;
        sample_window(bs, off, n, &w[0], &w[1]);
        sample_window(be, off, n, &w[2], &w[3]);
#if defined(__GNUC__)
        for (int h = 0; h < 4; h += 2) { // the search reads sm[lo] .. sm[hi]: 4 slots a line
            for (uint64_t j = w[h]; j < w[h + 1] + 4; j += 4) {
                __builtin_prefetch(sm + (j < w[h + 1] ? j : w[h + 1]));
            }
        }
#endif
        if (w[2] >= n) { // every event ended: nothing further on
            return b;
        }
    }
    return nbins;
}

/* The second phase: the exact counts and sums at each edge, the covers of the first nb bins
 * into row (the others stay 0, as do cells nothing touches). */
static void cover_row(const struct tui_timeline_sums *sm, uint64_t t, uint64_t bin, int nb,
                      const uint64_t *win, float *row)
{
    uint64_t ns = count_below(sm, 0, win[0], win[1], t);
    uint64_t ne = count_below(sm, 1, win[2], win[3] < ns ? win[3] : ns, t);
    // busy time before t, modulo 2^64
    uint64_t busy = ns * t - (sm[ns].s - sm[0].s) - (ne * t - (sm[ne].e - sm[0].e));
    for (int b = 0; b < nb; b++) {
        const uint64_t *w = win + 4 * (b + 1);
        uint64_t u = t + bin;
        uint64_t ns1 = count_below(sm, 0, w[0], w[1], u);
        uint64_t k = ns1 - ne; // started before the bin's end, not ended at its start
        uint64_t ne1 = count_below(sm, 1, w[2], w[3] < ns1 ? w[3] : ns1, u);
        uint64_t busy1 = ns1 * u - (sm[ns1].s - sm[0].s) - (ne1 * u - (sm[ne1].e - sm[0].e));
        if (k) {
            double f = k >= 50 ? 1.0 : (double)(busy1 - busy) / (double)bin;
            double mk = 0.02 * (double)k; // an instant still shows
            f = f < mk ? mk : f;
            row[b] = f > 1.0 ? 1.0f : (float)f;
        }
        t = u;
        ns = ns1;
        ne = ne1;
        busy = busy1;
    }
}

/* The window that zoom and pan ask for: from_ns and nbins bins of bin_ns. */
static void set_window(struct tui_timeline *tl, int nbins)
{
    int64_t whole = tl->t1_ns - tl->t0_ns;
    int64_t width = tl->width_ns > 0 ? tl->width_ns : whole >> (tl->zoom > 40 ? 40 : tl->zoom);
    width = width < nbins ? nbins : width;
    if (!tl->pan_set) {
        tl->from_ns = tl->t0_ns;
    }
    if (tl->from_ns > tl->t1_ns - width) {
        tl->from_ns = tl->t1_ns - width;
    }
    if (tl->from_ns < tl->t0_ns) {
        tl->from_ns = tl->t0_ns;
    }
    tl->bin_ns = (width + nbins - 1) / nbins;
    tl->nbins = nbins;
}

/* Fresh (zeroed) cover and concurrency arrays. 0 or -1. */
static int alloc_grid(struct tui_timeline *tl, int nbins)
{
    free(tl->cover);
    free(tl->conc);
    tl->cover = calloc(((size_t)tl->nrows + 1) * (size_t)nbins, sizeof(float));
    tl->conc = calloc((size_t)nbins, sizeof(float));
    tl->peak_bin = -1;
    return tl->cover && tl->conc ? 0 : -1;
}

/* Every row's cover and the concurrency, each row located (see locate_row) before the one
 * before it is computed. 0 or -1 (out of memory). */
static int compute_grid(struct tui_timeline *tl, int nbins)
{
    uint64_t from = (uint64_t)(tl->from_ns - tl->t0_ns);
    size_t wn = ((size_t)nbins + 1) * 4;
    uint64_t *buf = malloc(2 * wn * sizeof(uint64_t));
    if (!buf) {
        return -1;
    }
    uint64_t *win = buf, *wnext = buf + wn;
    const struct tui_timeline_sums *sm = tl->sums + tl->ev_base;
    uint64_t bin = (uint64_t)tl->bin_ns;
    int nb = tl->nrows
                 ? locate_row(sm, tl->coarse, tl->ev_base, tl->row_off[1], from, bin, nbins, win)
                 : 0;
    for (uint32_t r = 0; r < tl->nrows; r++) {
        int nb_next = 0;
        if (r + 1 < tl->nrows) {
            uint64_t o = tl->row_off[r + 1];
            nb_next = locate_row(sm + o, tl->coarse, tl->ev_base + o, tl->row_off[r + 2] - o, from,
                                 bin, nbins, wnext);
        }
        float *row = tl->cover + (size_t)r * (size_t)nbins;
        cover_row(sm + tl->row_off[r], from, bin, nb, win, row);
        for (int b = 0; b < nbins; b++) {
            tl->conc[b] += row[b];
        }
        uint64_t *w = win;
        win = wnext;
        wnext = w;
        nb = nb_next;
    }
    free(buf);
    float peak = 0;
    for (int b = 0; b < nbins; b++) {
        if (tl->conc[b] > peak) {
            peak = tl->conc[b];
            tl->peak_bin = b;
        }
    }
    return 0;
}

/* The grid at zoom 0 is kept, since zooming out comes back to it: restore it (1 when it was
 * there for this index and width) or keep it. */
static int fit_restore(struct tui_timeline *tl, int nbins)
{
    if (tl->fit_stamp != tl->index_stamp || tl->fit_nbins != nbins || !tl->fit_cover) {
        return 0;
    }
    memcpy(tl->cover, tl->fit_cover, (size_t)tl->nrows * (size_t)nbins * sizeof(float));
    memcpy(tl->conc, tl->fit_conc, (size_t)nbins * sizeof(float));
    tl->peak_bin = tl->fit_peak;
    return 1;
}

static void fit_keep(struct tui_timeline *tl, int nbins)
{
    size_t cells = (size_t)tl->nrows * (size_t)nbins;
    free(tl->fit_cover);
    free(tl->fit_conc);
    tl->fit_cover = malloc((cells + 1) * sizeof(float));
    tl->fit_conc = malloc((size_t)nbins * sizeof(float));
    tl->fit_stamp = 0;
    if (tl->fit_cover && tl->fit_conc) { // without memory, the next fit just recomputes
        memcpy(tl->fit_cover, tl->cover, cells * sizeof(float));
        memcpy(tl->fit_conc, tl->conc, (size_t)nbins * sizeof(float));
        tl->fit_nbins = nbins;
        tl->fit_peak = tl->peak_bin;
        tl->fit_stamp = tl->index_stamp;
    }
}

int tui_app_timeline(struct tui_app *app, int nbins)
{
    struct tui_timeline *tl = tui_app_timeline_state(app);
    uint32_t a = tui_app_selected_activity(app);
    if (nbins < 1) {
        nbins = 1;
    }
    if (tl->stamp == tui_app_generation(app) + 1 && tl->nbins == nbins && tl->activity == a &&
        tl->cover) {
        return 0; // cached (zoom and pan reset the stamp)
    }
    int rc = tui_timeline_index(app, tl, a);
    if (rc) {
        return rc; // 1: indexing in the background
    }
    set_window(tl, nbins);
    if (alloc_grid(tl, nbins)) {
        return -1;
    }
    int fit = tl->zoom == 0 && tl->width_ns == 0;
    if (!fit || !fit_restore(tl, nbins)) {
        if (compute_grid(tl, nbins)) {
            return -1;
        }
        if (fit) {
            fit_keep(tl, nbins);
        }
    }
    tl->stamp = tui_app_generation(app) + 1;
    return 0;
}

int tui_timeline_extent(const struct tui_timeline *tl, int64_t *from, int64_t *to)
{
    uint64_t lo = UINT64_MAX, hi = 0;
    for (uint32_t r = 0; r < tl->nrows; r++) {
        uint64_t n = tl->row_off[r + 1] - tl->row_off[r];
        const struct tui_timeline_sums *sm = tl->sums + tl->ev_base + tl->row_off[r];
        if (n == 0) {
            continue;
        }
        uint64_t s = nth_start(sm, 0), e = nth_end(sm, n - 1); // ends are sorted
        lo = s < lo ? s : lo;
        hi = e > hi ? e : hi;
    }
    if (lo == UINT64_MAX) {
        return -1;
    }
    *from = tl->t0_ns + (int64_t)lo;
    *to = tl->t0_ns + (int64_t)hi;
    return 0;
}

/* ---- the event list of one timeline row ---- */

enum { EV_START, EV_DUR, EV_SIZE, EV_CALL, EV_PATH, EV__N };
static const struct tui_column ev_cols[EV__N] = {
    {"Start", 15, 0, TUI_COL_RIGHT | TUI_COL_SORTABLE, "start_ns"},
    {"Dur", 10, 0, TUI_COL_RIGHT | TUI_COL_SORTABLE | TUI_COL_DESC, "dur_ns"},
    {"Size", 9, 1, TUI_COL_RIGHT | TUI_COL_SORTABLE | TUI_COL_DESC, "bytes"},
    {"Call", 10, 0, TUI_COL_SORTABLE | TUI_COL_SEARCH, "call"},
    {"Path", 20, 0, TUI_COL_SORTABLE | TUI_COL_SEARCH | TUI_COL_FLEX | TUI_COL_NAME, "path"},
};

static size_t ev_rows(void *ctx)
{
    return (size_t)((struct tui_timeline *)ctx)->nevents;
}

static int64_t ev_value(const struct tui_timeline *tl, size_t row, int col)
{
    const struct iodfg_columns *c = iodfg_eventlog_columns(tl->log);
    uint64_t i = tl->events[row];
    switch (col) {
    case EV_START:
        return c->start_ns[i];
    case EV_DUR:
        return c->dur_ns ? c->dur_ns[i] : IODFG_UNKNOWN;
    default:
        return c->size ? c->size[i] : IODFG_UNKNOWN;
    }
}

static const char *ev_str(const struct tui_timeline *tl, size_t row, int col)
{
    const struct iodfg_key *k =
        &iodfg_eventlog_keys(tl->log)[iodfg_eventlog_columns(tl->log)->key[tl->events[row]]];
    return iodfg_strpool_get(iodfg_eventlog_pool(tl->log), col == EV_CALL ? k->call : k->path);
}

static const char *ev_cell(void *ctx, size_t row, int col, char *buf, size_t size)
{
    const struct tui_timeline *tl = ctx;
    if (col >= EV_CALL) {
        return ev_str(tl, row, col); // the renderer sanitises odd bytes
    }
    int64_t v = ev_value(tl, row, col);
    if (v == IODFG_UNKNOWN) {
        return iodfg_glyph_text("–");
    }
    if (col == EV_START) { // on the log's clock (the epoch's time of day: the date is one)
        int64_t day = 86400 * (int64_t)1000000000;
        return tl->clock == IODFG_CLOCK_EPOCH
                   ? iodfg_format_clock(buf, size, IODFG_CLOCK_TIME_OF_DAY, ((v % day) + day) % day,
                                        6)
                   : iodfg_format_clock(buf, size, (int)tl->clock, v, 6);
    }
    return col == EV_DUR ? iodfg_format_duration(buf, size, v, 0)
                         : iodfg_format_bytes(buf, size, v, 0);
}

/* Exported: the start in ns from the timeline's origin, duration in ns, bytes; "" unknown. */
static const char *ev_exact(void *ctx, size_t row, int col, char *buf, size_t size)
{
    const struct tui_timeline *tl = ctx;
    if (col >= EV_CALL) {
        return ev_str(tl, row, col);
    }
    int64_t v = ev_value(tl, row, col);
    if (v == IODFG_UNKNOWN) {
        return "";
    }
    snprintf(buf, size, "%" PRId64, col == EV_START ? v - tl->t0_ns : v);
    return buf;
}

static int ev_compare(void *ctx, size_t a, size_t b, int col)
{
    const struct tui_timeline *tl = ctx;
    if (col >= EV_CALL) {
        return strcmp(ev_str(tl, a, col), ev_str(tl, b, col));
    }
    int64_t x = ev_value(tl, a, col), y = ev_value(tl, b, col);
    return (x > y) - (x < y);
}

static unsigned long long ev_key(void *ctx, size_t row)
{
    const struct tui_timeline *tl = ctx;
    return row < tl->nevents ? tl->events[row] : UINT64_MAX;
}

static const struct tui_list_ops ev_ops = {ev_rows, ev_cell, ev_compare, NULL, ev_key, ev_exact};

int tui_app_timeline_events(struct tui_app *app)
{
    struct tui_timeline *tl = tui_app_timeline_state(app);
    uint32_t a = tui_app_selected_activity(app);
    if (tui_timeline_index(app, tl, a)) {
        return -1;
    }
    if (tl->nrows == 0) {
        return -1;
    }
    if (!tl->events_lm) {
        tl->events_lm = tui_listmodel_new(ev_cols, EV__N, &ev_ops, tl);
        if (!tl->events_lm) {
            return -1;
        }
        tui_listmodel_sort(tl->events_lm, EV_START, 0);
    }
    uint32_t r = tl->cursor < tl->nrows ? tl->cursor : tl->nrows - 1;
    uint64_t n = tl->row_off[r + 1] - tl->row_off[r];
    uint64_t *ev = malloc((n + 1) * sizeof(*ev));
    if (!ev) {
        return -1;
    }
    // the case's selected events of the row's group, in start order, as the index took them
    const struct iodfg_columns *col = iodfg_eventlog_columns(tui_app_log(app));
    const uint32_t *act = iodfg_session_key_activities(tui_app_session(app));
    uint64_t lo = 0, hi = 0, k = 0;
    iodfg_trace_case_range(tui_app_log(app), iodfg_session_built_selection(tui_app_session(app)),
                           tl->rows[r], &lo, &hi);
    for (uint64_t i = lo; i < hi && k < n; i++) {
        uint32_t g = tui_timeline_group(act, col->key, i, tl->ngroups, tl->all_index);
        if (g != UINT32_MAX && (tl->all_index || g == a)) {
            ev[k++] = i;
        }
    }
    free(tl->events);
    tl->events = ev;
    tl->nevents = k;
    tl->events_row_case = tl->rows[r];
    tl->show_events = 1;
    if (tui_listmodel_reload(tl->events_lm)) {
        return -1;
    }
    tui_listmodel_first(tl->events_lm);
    // on the first event at or after the time cursor, when there is one
    for (size_t i = 0; tl->cursor_set && i < tl->nevents; i++) {
        if (col->start_ns[tl->events[tui_listmodel_row(tl->events_lm, i)]] >= tl->cursor_ns) {
            tui_listmodel_set_cursor(tl->events_lm, i);
            break;
        }
    }
    return 0;
}
