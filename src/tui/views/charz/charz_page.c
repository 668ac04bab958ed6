/* SPDX-License-Identifier: MIT */
/* The Characterisation view laid out as text spans: one column per group (G and R side by side
 * when the width allows, else one after the other), drawn by term/draw.c and read by tests. */
#include "config.h"

#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "iodfg/access.h"
#include "iodfg/bandwidth.h"
#include "iodfg/buf.h"
#include "iodfg/eventlog.h"
#include "iodfg/format.h"
#include "iodfg/glyph.h"
#include "iodfg/strpool.h"

#include "tui/app.h"
#include "tui/theme.h"
#include "tui/utf8.h"
#include "tui/views/charz/charz.h"

#define SIDE_BY_SIDE_MIN 96 /* columns for G and R side by side */
#define MAX_CASE_ROWS 100
#define CHART_BW_H 7
#define CHART_IOPS_H 5

/* Glyphs of the calls in time-share bars (cycled); the legend names them. */
static const char call_glyphs[] = "#=+*%@o~x&";

/* ---- a column of lines ---- */

struct col {
    struct tui_page *pg;
    int x, w, row;
};

__attribute__((format(printf, 3, 4))) static void line(struct col *c, int style, const char *fmt,
                                                       ...)
{
    char text[1024];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(text, sizeof(text), fmt, ap);
    va_end(ap);
    tui_page_add(c->pg, c->row++, c->x, c->w, TUI_SPAN_TEXT, style, text);
}

/* Append s padded to w terminal columns (right-aligned when right). */
static void cell(struct iodfg_buf *b, const char *s, int w, int right)
{
    int tw = (int)tui_utf8_width(s, strlen(s));
    if (right) {
        for (int i = tw; i < w; i++) {
            iodfg_buf_add(b, " ", 1);
        }
    }
    iodfg_buf_addf(b, "%s", s);
    if (!right) {
        for (int i = tw; i < w; i++) {
            iodfg_buf_add(b, " ", 1);
        }
    }
}

/* A table row: the label in lw columns, then value i right-aligned in vw[i] columns. */
static void row_w(struct col *c, int style, int lw, const int *vw, const char *label, int n,
                  const char *const *v)
{
    struct iodfg_buf b;
    iodfg_buf_init(&b);
    cell(&b, label, lw, 0);
    for (int i = 0; i < n; i++) {
        cell(&b, v[i], vw[i], 1);
    }
    tui_page_add(c->pg, c->row++, c->x, c->w, TUI_SPAN_TEXT, style, b.data ? b.data : "");
    c->pg->failed |= b.failed;
    iodfg_buf_fini(&b);
}

/* The same with every value in vw columns. */
static void row(struct col *c, int style, int lw, int vw, const char *label, int n,
                const char *const *v)
{
    int w[8];
    for (int i = 0; i < n && i < 8; i++) {
        w[i] = vw;
    }
    row_w(c, style, lw, w, label, n < 8 ? n : 8, v);
}

/* ---- El Sayed et al. 2016: metrics over time bins ---- */

static void metrics(struct col *c, const struct iodfg_binned *bn)
{
    const struct iodfg_dir_metrics *d = bn->dir;
    int lw = c->w - 23 > 30 ? 30 : c->w - 23;
    char v[2][IODFG_FORMAT_MIN];
    const char *p[2] = {v[0], v[1]};
    const char *hdr[2] = {"read", "write"};
    row(c, TUI_STYLE_HEADER, lw, 11, "El Sayed et al. 2016", 2, hdr);
    for (int x = 0; x < 2; x++) {
        iodfg_format_bytes(v[x], sizeof(v[x]), (int64_t)llround(d[x].volume), 0);
    }
    row(c, TUI_STYLE_NORMAL, lw, 11, "N, volume (Eq. 4)", 2, p);
    for (int x = 0; x < 2; x++) {
        snprintf(v[x], sizeof(v[x]), "%.0f", d[x].ops);
    }
    row(c, TUI_STYLE_NORMAL, lw, 11, "operations", 2, p);
    for (int x = 0; x < 2; x++) {
        iodfg_format_rate(v[x], sizeof(v[x]), d[x].bw_max, 0);
    }
    row(c, TUI_STYLE_NORMAL, lw, 11, "max B(t) (Eq. 5)", 2, p);
    for (int x = 0; x < 2; x++) {
        snprintf(v[x], sizeof(v[x]), "%.1f", d[x].iops_max);
    }
    row(c, TUI_STYLE_NORMAL, lw, 11, iodfg_glyph_text("max Γ(t), IOPS (Eq. 6)"), 2, p);
    for (int x = 0; x < 2; x++) {
        snprintf(v[x], sizeof(v[x]), "%u/%u", d[x].busy_bins, bn->nbins);
    }
    row(c, TUI_STYLE_NORMAL, lw, 11, iodfg_glyph_text("busy bins, Σ H(t)"), 2, p);
    const char *const labels[3] = {
        "I, intensity (Eq. 7)", iodfg_glyph_text("ρ, burstiness (Eq. 8)"), "P, parallel (Eq. 9)"};
    for (int k = 0; k < 3; k++) {
        for (int x = 0; x < 2; x++) {
            double val = k == 0 ? d[x].intensity : k == 1 ? d[x].burstiness : d[x].parallel;
            snprintf(v[x], sizeof(v[x]), "%.3f", val);
        }
        row(c, TUI_STYLE_NORMAL, lw, 11, labels[k], 2, p);
    }
}

static void chart(struct col *c, const struct iodfg_binned *bn, int quantity, int height)
{
    int w = c->w;
    uint8_t *cells = malloc((size_t)w * (size_t)height + 1);
    char *text = malloc((size_t)w + 1);
    if (!cells || !text) {
        c->pg->failed = 1;
        free(cells);
        free(text);
        return;
    }
    double max = iodfg_binned_chart_cells(bn, quantity, w, height, cells);
    char v[IODFG_FORMAT_MIN];
    if (quantity == 0) {
        iodfg_format_rate(v, sizeof(v), max, 0);
    } else {
        snprintf(v, sizeof(v), "%.1f ops/s", max);
    }
    line(c, TUI_STYLE_HEADER, iodfg_glyph_text("%s: read ▲ write ▼ (full %s)"),
         quantity ? "IOPS" : "bandwidth", v);
    static const char code[4] = {' ', 'r', 'w', '-'};
    for (int y = 0; y < height; y++) {
        for (int x = 0; x < w; x++) {
            uint8_t k = cells[(size_t)y * (size_t)w + (size_t)x];
            text[x] = code[k < 4 ? k : 0];
        }
        text[w] = '\0';
        tui_page_add(c->pg, c->row++, c->x, w, TUI_SPAN_CHART, TUI_STYLE_NORMAL, text);
    }
    char t1[IODFG_FORMAT_MIN];
    iodfg_format_duration(t1, sizeof(t1), (int64_t)bn->nbins * bn->dt_ns, 0);
    struct iodfg_buf b;
    iodfg_buf_init(&b);
    cell(&b, "+0", 2, 0);
    char end[48];
    snprintf(end, sizeof(end), "+%s", t1);
    cell(&b, end, w - 2, 1);
    tui_page_add(c->pg, c->row++, c->x, w, TUI_SPAN_TEXT, TUI_STYLE_DIM, b.data ? b.data : "");
    iodfg_buf_fini(&b);
    free(cells);
    free(text);
}

/* ---- Wright et al. 2013: bandwidths ---- */

static void bw_values(const struct iodfg_bw_row *r, char v[4][IODFG_FORMAT_MIN])
{
    iodfg_format_rate(v[0], IODFG_FORMAT_MIN, r->count ? r->perceived : NAN, 0);
    iodfg_format_rate(v[1], IODFG_FORMAT_MIN, r->count ? r->effective : NAN, 0);
    iodfg_format_percent(v[2], IODFG_FORMAT_MIN, r->count ? r->share : NAN, 0);
    snprintf(v[3], IODFG_FORMAT_MIN, "%u", r->cases);
}

static void bandwidths(struct col *c, const struct iodfg_bandwidth *bw)
{
    static const int vw[4] = {11, 11, 7, 6};
    int lw = c->w - 35 > 20 ? 20 : c->w - 35;
    const char *hdr[4] = {"perceived", "effective", "time", "cases"};
    row_w(c, TUI_STYLE_HEADER, lw, vw, "Wright et al. 2013", 4, hdr);
    static const char *const names[IODFG_BW__N] = {"reads", "writes", "all"};
    for (int k = 0; k < IODFG_BW__N; k++) {
        char v[4][IODFG_FORMAT_MIN];
        const char *p[4] = {v[0], v[1], v[2], v[3]};
        bw_values(&bw->overall[k], v);
        row_w(c, TUI_STYLE_NORMAL, lw, vw, names[k], 4, p);
    }
}

static void legend(struct col *c, const struct tui_app *app, const struct iodfg_bandwidth *bw)
{
    const struct iodfg_strpool *pool = iodfg_eventlog_pool(tui_app_log(app));
    struct iodfg_buf b;
    iodfg_buf_init(&b);
    int used = 0;
    for (uint32_t k = 0; k < bw->ncalls; k++) {
        if (bw->call[k].dur_sum_ns <= 0) {
            continue;
        }
        char item[128];
        snprintf(item, sizeof(item), "%c %s", call_glyphs[k % (sizeof(call_glyphs) - 1)],
                 iodfg_strpool_get(pool, bw->call_name[k]));
        int w = (int)tui_utf8_width(item, strlen(item)) + 2;
        if (used && used + w > c->w) {
            tui_page_add(c->pg, c->row++, c->x, c->w, TUI_SPAN_TEXT, TUI_STYLE_DIM,
                         b.data ? b.data : "");
            iodfg_buf_clear(&b);
            used = 0;
        }
        iodfg_buf_addf(&b, "%s  ", item);
        used += w;
    }
    if (used) {
        tui_page_add(c->pg, c->row++, c->x, c->w, TUI_SPAN_TEXT, TUI_STYLE_DIM,
                     b.data ? b.data : "");
    }
    iodfg_buf_fini(&b);
}

/* Per case: perceived and effective bandwidth and a bar of the time shares by call. */
static void case_bars(struct col *c, const struct tui_app *app, const struct iodfg_bandwidth *bw)
{
    int nw = c->w / 4 < 10 ? 10 : c->w / 4;
    int barw = c->w - nw - 23;
    if (barw < 4 || bw->ncalls == 0) {
        return;
    }
    line(c, TUI_STYLE_HEADER, "per case: perceived, effective, time by call");
    legend(c, app, bw);
    int16_t *seg = malloc((size_t)barw * sizeof(*seg));
    char *bar = malloc((size_t)barw + 1);
    if (!seg || !bar) {
        c->pg->failed = 1;
        free(seg);
        free(bar);
        return;
    }
    uint32_t shown = 0, more = 0;
    for (uint32_t k = 0; k < bw->ncases; k++) {
        const struct iodfg_bw_row *r = &bw->case_row[(size_t)k * IODFG_BW__N + IODFG_BW_ALL];
        if (r->count == 0) {
            continue;
        }
        if (shown == MAX_CASE_ROWS) {
            more++;
            continue;
        }
        shown++;
        iodfg_share_cells(bw->case_call_dur + (size_t)k * bw->ncalls, bw->ncalls, barw, seg);
        for (int x = 0; x < barw; x++) {
            bar[x] = seg[x] < 0 ? ' ' : call_glyphs[seg[x] % (int)(sizeof(call_glyphs) - 1)];
        }
        bar[barw] = '\0';
        char v[4][IODFG_FORMAT_MIN];
        bw_values(r, v);
        struct iodfg_buf b;
        iodfg_buf_init(&b);
        // too long a name keeps its end, where run names differ (pids, ranks)
        const char *name = tui_app_case_name(app, k);
        size_t len = strlen(name), from = 0;
        while (from < len && (int)tui_utf8_width(name + from, len - from) > nw - 1) {
            from = tui_utf8_next(name, len, from);
        }
        char cut[300]; // the ellipsis takes the place of one more character
        snprintf(cut, sizeof(cut), "%s%s", from ? iodfg_glyph_text("…") : "",
                 name + (from ? tui_utf8_next(name, len, from) : 0));
        cell(&b, cut, nw, 0);
        cell(&b, v[0], 11, 1);
        cell(&b, v[1], 11, 1);
        tui_page_add(c->pg, c->row, c->x, nw + 22, TUI_SPAN_TEXT, TUI_STYLE_NORMAL,
                     b.data ? b.data : "");
        tui_page_add(c->pg, c->row++, c->x + nw + 23, barw, TUI_SPAN_BAR, TUI_STYLE_NORMAL, bar);
        iodfg_buf_fini(&b);
    }
    if (more) {
        line(c, TUI_STYLE_DIM, iodfg_glyph_text("… %u more cases"), more);
    }
    free(seg);
    free(bar);
}

/* ---- the selected activity ---- */

static double pct(uint64_t part, uint64_t whole)
{
    return whole ? 100.0 * (double)part / (double)whole : 0;
}

static void access_table(struct col *c, const struct iodfg_access_row *ar)
{
    const char *hdr[6] = {"ops", "cons", "seq", "rand", "unkn", "unal"};
    struct iodfg_buf b;
    iodfg_buf_init(&b);
    cell(&b, "access", 6, 0);
    cell(&b, hdr[0], 6, 1);
    for (int i = 1; i < 6; i++) {
        cell(&b, hdr[i], 5, 1);
    }
    cell(&b, "median", 9, 1);
    tui_page_add(c->pg, c->row++, c->x, c->w, TUI_SPAN_TEXT, TUI_STYLE_HEADER,
                 b.data ? b.data : "");
    static const char *const dir[2] = {"read", "write"};
    for (int x = 0; x < 2; x++) {
        const struct iodfg_access_dir *d = &ar->dir[x];
        iodfg_buf_clear(&b);
        cell(&b, dir[x], 6, 0);
        char v[IODFG_FORMAT_MIN];
        snprintf(v, sizeof(v), "%llu", (unsigned long long)d->ops);
        cell(&b, v, 6, 1);
        const uint64_t parts[5] = {d->consecutive, d->sequential, d->random, d->unknown,
                                   d->unaligned};
        for (int i = 0; i < 5; i++) {
            snprintf(v, sizeof(v), "%.0f%%", pct(parts[i], d->ops));
            cell(&b, d->ops ? v : iodfg_glyph_text("–"), 5, 1);
        }
        int64_t med = iodfg_access_median_bin(d);
        cell(&b, med >= 0 ? iodfg_format_bytes(v, sizeof(v), med, 0) : iodfg_glyph_text("–"), 9, 1);
        tui_page_add(c->pg, c->row++, c->x, c->w, TUI_SPAN_TEXT, TUI_STYLE_NORMAL,
                     b.data ? b.data : "");
    }
    iodfg_buf_fini(&b);
    for (int x = 0; x < 2; x++) { // offsets nobody traced: say the pattern is a guess
        const struct iodfg_access_dir *d = &ar->dir[x];
        if (d->inferred) {
            line(c, TUI_STYLE_WARNING, "%s: %.0f%% of offsets inferred (no lseek traced)", dir[x],
                 pct(d->inferred, d->ops));
        }
    }
}

static void size_histogram(struct col *c, const struct iodfg_access_row *ar)
{
    uint64_t max = 0;
    for (int k = 0; k < IODFG_ACCESS_BINS; k++) {
        uint64_t n = ar->dir[0].hist[k] + ar->dir[1].hist[k];
        max = n > max ? n : max;
    }
    if (max == 0) {
        line(c, TUI_STYLE_DIM, "no reads or writes with a known size");
        return;
    }
    int barw = c->w - 32;
    line(c, TUI_STYLE_HEADER, "request size      reads writes  # read = write");
    for (unsigned k = 0; k < IODFG_ACCESS_BINS; k++) {
        uint64_t r = ar->dir[0].hist[k], w = ar->dir[1].hist[k];
        if (!r && !w) {
            continue;
        }
        int64_t lo, hi;
        iodfg_access_bin_range(k, &lo, &hi);
        char v[2][IODFG_FORMAT_MIN], range[80], n[2][24];
        snprintf(range, sizeof(range), iodfg_glyph_text("%s–%s"),
                 iodfg_format_bytes(v[0], sizeof(v[0]), lo, 0),
                 iodfg_format_bytes(v[1], sizeof(v[1]), hi, 0));
        snprintf(n[0], sizeof(n[0]), "%llu", (unsigned long long)r);
        snprintf(n[1], sizeof(n[1]), "%llu", (unsigned long long)w);
        struct iodfg_buf b;
        iodfg_buf_init(&b);
        cell(&b, range, 17, 0);
        cell(&b, n[0], 6, 1);
        cell(&b, n[1], 7, 1);
        iodfg_buf_add(&b, "  ", 2);
        int len = barw > 0 ? (int)(((double)(r + w) * barw + (double)max - 1) / (double)max) : 0;
        int rl = r + w ? (int)llround((double)len * (double)r / (double)(r + w)) : 0;
        for (int i = 0; i < len; i++) {
            iodfg_buf_add(&b, i < rl ? "#" : "=", 1);
        }
        tui_page_add(c->pg, c->row++, c->x, c->w, TUI_SPAN_TEXT, TUI_STYLE_NORMAL,
                     b.data ? b.data : "");
        iodfg_buf_fini(&b);
    }
}

static void activity(struct col *c, const struct tui_charz *cz,
                     const struct iodfg_characterization *ch, uint32_t a)
{
    if (a == UINT32_MAX || a >= ch->bw.nactivities || ch->bw.act[a].count == 0) {
        line(c, TUI_STYLE_DIM, "%s",
             a == UINT32_MAX ? "no activity selected (h/l choose one)"
                             : "the selected activity has no events here");
        return;
    }
    const struct iodfg_bw_row *r = &ch->bw.act[a];
    char v[4][IODFG_FORMAT_MIN];
    bw_values(r, v);
    line(c, TUI_STYLE_NORMAL, iodfg_glyph_text("%llu events in %u cases · time share %s"),
         (unsigned long long)r->count, r->cases, v[2]);
    line(c, TUI_STYLE_NORMAL, iodfg_glyph_text("perceived %s · effective %s"), v[0], v[1]);
    if (a < ch->serial.nactivities) {
        const struct iodfg_serial_row *s = &ch->serial.act[a];
        char b1[IODFG_FORMAT_MIN], b2[IODFG_FORMAT_MIN];
        line(c, TUI_STYLE_NORMAL, iodfg_glyph_text("stair-case %.3f · %llu queued · %s of %s"),
             s->stair, (unsigned long long)s->queued,
             iodfg_format_duration(b1, sizeof(b1), s->staggered_ns, 0),
             iodfg_format_duration(b2, sizeof(b2), s->busy_ns, 0));
    }
    if (!cz->access_ok || a >= ch->access.nactivities) {
        line(c, TUI_STYLE_WARNING,
             "access patterns need the offset, fd and pid columns, "
             "which this log was loaded without");
        return;
    }
    access_table(c, &ch->access.act[a]);
    size_histogram(c, &ch->access.act[a]);
}

/* ---- the page ---- */

static void group(struct col *c, struct tui_app *app, int g, uint32_t a)
{
    const struct tui_charz *cz = tui_app_charz(app);
    const struct iodfg_characterization *ch = &cz->res[g];
    line(c, TUI_STYLE_HELP_HEADING, "%s: %u cases, %llu events, %s%s",
         cz->ngroups == 2 ? (g ? "R" : "G") : "selection", cz->ncases[g],
         (unsigned long long)ch->bw.overall[IODFG_BW_ALL].count,
         cz->clock == IODFG_CLOCK_NONE ? "no timestamps" : iodfg_clock_name(cz->clock),
         cz->clock == IODFG_CLOCK_NONE ? "" : " clock");
    metrics(c, &ch->bins);
    c->row++;
    chart(c, &ch->bins, 0, CHART_BW_H);
    chart(c, &ch->bins, 1, CHART_IOPS_H);
    c->row++;
    bandwidths(c, &ch->bw);
    c->row++;
    case_bars(c, app, &ch->bw);
    c->row++;
    line(c, TUI_STYLE_HEADER, "activity %s", a != UINT32_MAX ? tui_app_activity_name(app, a) : "");
    activity(c, cz, ch, a);
}

static void header(struct col *c, const struct tui_charz *cz)
{
    char b1[IODFG_FORMAT_MIN], b2[IODFG_FORMAT_MIN], b3[IODFG_FORMAT_MIN];
    const char *busy = cz->job ? iodfg_glyph_text(" · updating…") : "";
    if (!cz->have) {
        line(c, TUI_STYLE_HEADER, iodfg_glyph_text("I/O characterisation · servers by %s%s"),
             iodfg_server_by_name(cz->by), busy);
        return;
    }
    const struct iodfg_binned *bn = &cz->res[0].bins;
    line(c, TUI_STYLE_HEADER,
         iodfg_glyph_text("I/O characterisation · servers by %s (%u) · Δt %s%s, %u bins · "
                          "c = %s · span %s%s"),
         iodfg_server_by_name(cz->by), bn->nservers,
         iodfg_format_duration(b1, sizeof(b1), bn->dt_ns, 0), cz->dt_ns ? "" : " (auto)", bn->nbins,
         iodfg_format_bytes(b2, sizeof(b2), (int64_t)tui_charz_threshold(cz), 0),
         iodfg_format_duration(b3, sizeof(b3), bn->span_ns, 0), busy);
}

int tui_charz_page(struct tui_app *app, int width, struct tui_page *pg)
{
    const struct tui_charz *cz = tui_app_charz(app);
    struct col c = {pg, 1, width - 2, 0};
    header(&c, cz);
    if (cz->error[0]) {
        line(&c, TUI_STYLE_ERROR, "cannot characterise: %s", cz->error);
    }
    if (cz->have && cz->clock_dropped) {
        line(&c, TUI_STYLE_WARNING,
             "%u case%s of other clocks left out: time bins cannot mix clocks (iodfg --align "
             "start compares every case as if they started together)",
             cz->clock_dropped, cz->clock_dropped == 1 ? "" : "s");
    }
    if (!cz->have) {
        if (!cz->error[0]) {
            line(&c, TUI_STYLE_DIM, iodfg_glyph_text("computing…"));
        }
        return pg->failed ? -1 : 0;
    }
    c.row++;
    uint32_t a = tui_app_selected_activity(app);
    if (cz->ngroups == 2 && width >= SIDE_BY_SIDE_MIN) {
        int cw = (width - 3) / 2;
        struct col g = {pg, 1, cw, c.row};
        struct col r = {pg, 2 + cw, cw, c.row};
        group(&g, app, 0, a);
        group(&r, app, 1, a);
    } else {
        for (int g = 0; g < cz->ngroups; g++) {
            group(&c, app, g, a);
            c.row++;
        }
    }
    return pg->failed ? -1 : 0;
}
