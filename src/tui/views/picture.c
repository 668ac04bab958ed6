/* SPDX-License-Identifier: MIT */
/* What the picture views and the Timeline's snapshot share: the input over the session, the
 * snapshot's texts, zoom and pan, the time axis and the shade ramp. */
#include "config.h"

#include "tui/views/picture.h"

#include <string.h>

#include "iodfg/eventlog.h"
#include "iodfg/filter.h"
#include "iodfg/rules.h"
#include "iodfg/session.h"

#include "tui/app.h"
#include "tui/drawglyph.h"
#include "tui/theme.h"
#include "tui/view.h"
#include "tui/viewmodel.h"

void tui_picture_input(struct tui_app *app, struct iodfg_picture_input *in,
                       struct iodfg_selection *sel)
{
    // every mapped activity counts: the focus app folds the runtime's keys into runtime:CLASS
    // activities (as `iodfg heatmap --focus app` does), it hides none
    iodfg_picture_input_session(in, sel, tui_app_session(app), NULL);
}

static void groups_text(struct tui_app *app, struct iodfg_buf *out)
{
    const struct iodfg_session_counts *n = iodfg_session_counts(tui_app_session(app));
    if (!iodfg_session_diff(tui_app_session(app))) {
        return;
    }
    iodfg_buf_addf(out, "G: %u case%s%s  R: %u case%s%s", n->g_cases, n->g_cases == 1 ? "" : "s",
                   n->g_given ? "" : " (the rest)", n->r_cases, n->r_cases == 1 ? "" : "s",
                   n->r_given ? "" : " (the rest)");
}

/* The rules by name: a preset's ("default f-hat" for the default), the rules file's, or how many
 * were typed in. */
static void rules_text(struct tui_app *app, struct iodfg_buf *out)
{
    const struct iodfg_rules *rs = iodfg_session_rules(tui_app_session(app));
    struct iodfg_buf cur;
    iodfg_buf_init(&cur);
    iodfg_rules_format(rs, &cur);
    const char *name, *text = cur.data ? cur.data : "";
    for (size_t i = 0; (name = iodfg_rules_preset_name(i, NULL)); i++) {
        const char *p = iodfg_rules_preset(name);
        if (p && strcmp(p, text) == 0) {
            iodfg_buf_addf(out, strcmp(name, "default") ? "the %s preset" : "default f-hat", name);
            iodfg_buf_fini(&cur);
            return;
        }
    }
    iodfg_buf_fini(&cur);
    const char *path = tui_app_rules_path(app);
    if (path) {
        iodfg_buf_addf(out, "%s (%zu rules)", path, iodfg_rules_count(rs));
    } else {
        iodfg_buf_addf(out, "%zu rules typed in the TUI", iodfg_rules_count(rs));
    }
}

void tui_picture_texts_init(struct tui_picture_texts *t, struct tui_app *app)
{
    memset(t, 0, sizeof(*t));
    iodfg_buf_init(&t->filters);
    iodfg_buf_init(&t->groups);
    iodfg_buf_init(&t->rules);
    struct iodfg_session *ses = tui_app_session(app);
    iodfg_filter_stack_format(iodfg_session_filters(ses), "  ", &t->filters);
    groups_text(app, &t->groups);
    rules_text(app, &t->rules);
    t->meta.log_name = tui_app_log_name(app);
    t->meta.filters = t->filters.data;
    t->meta.focus = iodfg_picture_focus_text(tui_app_session(app));
    t->meta.groups = t->groups.data;
    t->meta.rules = t->rules.data;
    t->meta.relative = 1; // as the views show times
    t->meta.origin_ns = iodfg_eventlog_time_origin(tui_app_log(app));
}

void tui_picture_texts_fini(struct tui_picture_texts *t)
{
    iodfg_buf_fini(&t->filters);
    iodfg_buf_fini(&t->groups);
    iodfg_buf_fini(&t->rules);
}

/* ---- zoom and pan ---- */

void tui_picture_window(struct tui_picture_zoom *z, int64_t t0, int64_t t1, int64_t min_ns,
                        int64_t *from, int64_t *to)
{
    int64_t whole = t1 > t0 ? t1 - t0 : 1;
    int64_t width = whole >> (z->zoom > TUI_PICTURE_MAX_ZOOM ? TUI_PICTURE_MAX_ZOOM : z->zoom);
    width = width < min_ns ? min_ns : width;
    width = width > whole ? whole : width;
    if (!z->pan_set || z->zoom == 0) {
        z->from_ns = t0;
    }
    if (z->from_ns > t1 - width) {
        z->from_ns = t1 - width;
    }
    if (z->from_ns < t0) {
        z->from_ns = t0;
    }
    *from = z->from_ns;
    *to = z->from_ns + width;
}

int tui_picture_zoom_cmd(struct tui_picture_zoom *z, enum tui_cmd cmd, int64_t width)
{
    switch (cmd) {
    case TUI_CMD_ZOOM_IN:
        if (z->zoom < TUI_PICTURE_MAX_ZOOM) {
            z->zoom++;
            z->pan_set = 1;
            z->from_ns += width / 4; // keep the centre
        }
        return 1;
    case TUI_CMD_ZOOM_OUT:
        if (z->zoom > 0) {
            z->zoom--;
            z->from_ns -= width / 2;
        }
        return 1;
    case TUI_CMD_PAN_LEFT:
    case TUI_CMD_PAN_RIGHT:
        z->pan_set = 1;
        z->from_ns += cmd == TUI_CMD_PAN_LEFT ? -(width / 4) : width / 4;
        return 1;
    case TUI_CMD_FIT:
        z->zoom = 0;
        z->pan_set = 0;
        return 1;
    default:
        return 0;
    }
}

uint32_t tui_picture_move(uint32_t cursor, uint32_t n, enum tui_cmd cmd)
{
    long v = (long)cursor + tui_cmd_step(cmd), max = n ? (long)n - 1 : 0;
    return (uint32_t)(v < 0 ? 0 : v > max ? max : v);
}

/* ---- the time axis ---- */

int tui_picture_col(int64_t t, int64_t from, int64_t to, int ncols)
{
    if (to <= from || ncols <= 0 || t <= from) {
        return 0;
    }
    double c = (double)(t - from) * ncols / (double)(to - from);
    return c >= ncols ? ncols - 1 : (int)c;
}

void tui_picture_axis(struct tui_page *pg, int row, int col, int ncols, int64_t from, int64_t to,
                      int64_t origin)
{
    if (to <= from || ncols < 8) {
        return;
    }
    struct iodfg_picture_meta meta = {.relative = 1, .origin_ns = origin};
    int64_t step = iodfg_picture_step(to - from, ncols / 12 > 1 ? ncols / 12 : 1);
    int64_t rel = from - origin, first = rel / step * step;
    first += first < rel ? step : 0;
    int free_col = 0;
    for (int64_t t = origin + first; t < to; t += step) {
        char label[48];
        iodfg_picture_time_label(label, sizeof(label), t, step, IODFG_CLOCK_NONE, &meta);
        int c = tui_picture_col(t, from, to, ncols), n = (int)strlen(label);
        if (c < free_col || c + n > ncols) {
            continue;
        }
        tui_page_glyph(pg, row, col + c, TUI_STYLE_BORDER, TUI_G_VLINE);
        tui_page_text(pg, row, col + c + 1, n, TUI_STYLE_DIM, label);
        free_col = c + n + 2;
    }
}

/* ---- the shade ramp ---- */

int tui_picture_level(int64_t v, int64_t max)
{
    if (v <= 0 || max <= 0) {
        return 0;
    }
    double x = (double)v * TUI_PICTURE_LEVELS / (double)max;
    int level = (int)x;
    level += level < x; // up: any value above zero shows
    return level < 1 ? 1 : level > TUI_PICTURE_LEVELS ? TUI_PICTURE_LEVELS : level;
}

char tui_picture_level_cell(int level)
{
    level = level < 1 ? 1 : level > TUI_PICTURE_LEVELS ? TUI_PICTURE_LEVELS : level;
    return TUI_GLYPH_CELL(TUI_G_SPARK0 + level - 1);
}

int tui_picture_level_style(int level)
{
    return level <= 3 ? TUI_STYLE_HEAT_LOW : level <= 6 ? TUI_STYLE_HEAT_MID : TUI_STYLE_HEAT_HIGH;
}
