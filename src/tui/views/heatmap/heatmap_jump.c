/* SPDX-License-Identifier: MIT */
/* Enter on a Heatmap cell filters the analysis to the cell's cases (its row's members, by name,
 * host or cid) and its bin's time window; Backspace restores the session's inputs as text (as
 * the Insights jump does) and the view's rows, zoom and cursor. A small stack, so that drilling
 * nests. */
#include "config.h"

#include <ctype.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "iodfg/buf.h"
#include "iodfg/error.h"
#include "iodfg/glyph.h"
#include "iodfg/session.h"

#include "tui/app.h"
#include "tui/views/heatmap/heatmap_view.h"
#include "tui/views/jumpstate.h"

/* A name a "field=a,b" list holds as it is. */
static int plain_name(const char *s)
{
    if (!*s) {
        return 0;
    }
    for (; *s; s++) {
        if (*s == ',' || isspace((unsigned char)*s) || iscntrl((unsigned char)*s)) {
            return 0;
        }
    }
    return 1;
}

/* A name a \Q...\E literal holds (a filter is one line). */
static int quotable_name(const char *s)
{
    return !strstr(s, "\\E") && !strpbrk(s, "\r\n");
}

static int members(const struct iodfg_heatmap *hm, const struct iodfg_heatmap_row *r,
                   struct iodfg_buf *out, char *why, size_t why_size)
{
    static const char *const field[] = {"name", "host", "cid"};
    if ((unsigned)hm->by > IODFG_HEATMAP_CID) {
        snprintf(why, why_size, "rows of activities are not cases");
        return -1;
    }
    int plain = 1, quotable = 1;
    for (uint32_t i = 0; i < r->count; i++) {
        const char *n = iodfg_heatmap_src_name(hm, r->first + i);
        plain = plain && plain_name(n);
        quotable = quotable && quotable_name(n);
    }
    if (!plain && !quotable) {
        snprintf(why, why_size, "a %s name no filter can hold", field[hm->by]);
        return -1;
    }
    iodfg_buf_addf(out, plain ? "%s=" : "%s~^(?:", field[hm->by]);
    for (uint32_t i = 0; i < r->count; i++) {
        const char *n = iodfg_heatmap_src_name(hm, r->first + i);
        iodfg_buf_addf(out, plain ? "%s%s" : "%s\\Q%s\\E", i ? (plain ? "," : "|") : "", n);
    }
    iodfg_buf_add(out, plain ? "\n" : ")$\n", plain ? 1 : 3);
    return 0;
}

int tui_heatmap_cell_filters(const struct iodfg_heatmap *hm, uint32_t row, uint32_t bin,
                             struct iodfg_buf *out, char *why, size_t why_size)
{
    if (row >= hm->nrows || bin >= hm->nbins) {
        snprintf(why, why_size, "no such cell");
        return -1;
    }
    int64_t lo = hm->edge[bin], hi = hm->edge[bin + 1];
    if (lo < 0) {
        snprintf(why, why_size, "a time before 0 no filter can hold");
        return -1;
    }
    if (members(hm, &hm->row[row], out, why, why_size)) {
        return -1;
    }
    iodfg_buf_addf(out, "time=@%" PRId64 ".%09" PRId64 "..@%" PRId64 ".%09" PRId64 "\n",
                   lo / 1000000000, lo % 1000000000, hi / 1000000000, hi % 1000000000);
    if (out->failed) {
        snprintf(why, why_size, "out of memory");
        return -1;
    }
    return 0;
}

static int remember(struct tui_app *app, struct tui_heatmap_view *hv)
{
    char *state = tui_jump_state(app);
    if (!state) {
        return -1;
    }
    if (hv->njumps == TUI_HEATMAP_JUMPS) { // the oldest goes
        free(hv->jumps[0].state);
        memmove(&hv->jumps[0], &hv->jumps[1], (TUI_HEATMAP_JUMPS - 1) * sizeof(hv->jumps[0]));
        hv->njumps--;
    }
    hv->jumps[hv->njumps++] = (struct tui_heatmap_jump){state, hv->by, hv->z, hv->row, hv->bin};
    return 0;
}

unsigned tui_heatmap_enter(struct tui_app *app, struct tui_heatmap_view *hv)
{
    const struct iodfg_heatmap *hm = &hv->hm;
    if (!hv->built || hv->row >= hm->nrows || hv->bin >= hm->nbins) {
        tui_app_set_message(app, 1, "filter-cell: no cell to filter to");
        return TUI_REDRAW;
    }
    if (iodfg_heatmap_cell(hm, hv->row, hv->bin, IODFG_HM_CALLS) == 0) {
        tui_app_set_message(app, 1, "filter-cell: no call starts in this cell");
        return TUI_REDRAW;
    }
    struct iodfg_buf f;
    iodfg_buf_init(&f);
    char why[160];
    struct iodfg_error err;
    iodfg_error_clear(&err);
    if (tui_heatmap_cell_filters(hm, hv->row, hv->bin, &f, why, sizeof(why))) {
        tui_app_set_message(app, 1, "filter-cell: %s", why);
    } else if (remember(app, hv)) {
        tui_app_set_message(app, 1, "filter-cell: out of memory");
    } else if (tui_jump_push_filters(app, f.data, &err)) {
        free(hv->jumps[--hv->njumps].state);
        tui_app_report(app, "filter-cell", &err);
    } else {
        uint32_t k = hm->row[hv->row].count;
        tui_app_set_message(app, 0, "filtered to %u %s and one bin of time (Backspace comes back)",
                            k, tui_heatmap_by_text(hm->by, k != 1));
        hv->z = (struct tui_picture_zoom){0, 0, 0};
        hv->row = hv->bin = 0;
        iodfg_buf_fini(&f);
        return TUI_CHANGED;
    }
    iodfg_buf_fini(&f);
    return TUI_REDRAW;
}

int tui_heatmap_back(struct tui_app *app, struct tui_heatmap_view *hv)
{
    if (!hv || hv->njumps == 0) {
        return 0;
    }
    struct tui_heatmap_jump j = hv->jumps[--hv->njumps];
    int rc = tui_jump_restore(app, j.state);
    free(j.state);
    if (rc) {
        return -1;
    }
    hv->by = j.by;
    hv->z = j.z;
    hv->row = j.row;
    hv->bin = j.bin;
    tui_app_show(app, TUI_VIEW_HEATMAP);
    tui_app_set_message(app, 0, "back: filters and heatmap as before the cell");
    return 1;
}

void tui_heatmap_jumps_free(struct tui_heatmap_view *hv)
{
    for (size_t i = 0; i < hv->njumps; i++) {
        free(hv->jumps[i].state);
    }
    hv->njumps = 0;
}
