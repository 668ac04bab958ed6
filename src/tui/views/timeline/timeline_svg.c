/* SPDX-License-Identifier: MIT */
/* The Timeline's snapshot: a heatmap of the activities over the window shown, with the exact
 * peak concurrency per bin (the session's time order), drawn as the concurrency timeline
 * (iodfg/svg.h): the busiest activities' lanes, G above and R below. */
#include "config.h"

#include "tui/views/timeline/timeline_svg.h"

#include "iodfg/error.h"
#include "iodfg/heatmap.h"
#include "iodfg/svg.h"

#include "tui/app.h"
#include "tui/views/picture.h"
#include "tui/views/snapshot.h"
#include "tui/views/timeline/timeline_index.h"

#define SVG_BINS 100

static int make_svg(struct tui_app *app, void *st, const struct iodfg_picture_meta *meta,
                    struct iodfg_buf *out, struct iodfg_error *err)
{
    const struct tui_timeline *tl = st;
    struct iodfg_picture_input in;
    struct iodfg_selection sel;
    tui_picture_input(app, &in, &sel);
    struct iodfg_heatmap_opts o = {.by = IODFG_HEATMAP_ACTIVITY, .nbins = SVG_BINS};
    if (tl->nbins > 0 && tl->bin_ns > 0) { // the window drawn last; else the whole span
        o.from_ns = tl->from_ns;
        o.to_ns = tl->from_ns + tl->bin_ns * tl->nbins;
    }
    struct iodfg_heatmap hm;
    iodfg_heatmap_init(&hm);
    int rc = iodfg_heatmap_build(&hm, &in, &o, err);
    if (rc == 0 && iodfg_svg_timeline(out, &hm, meta, NULL)) {
        rc = iodfg_error_set(err, IODFG_E_NOMEM, NULL);
    }
    iodfg_heatmap_fini(&hm);
    return rc;
}

unsigned tui_timeline_svg_cmd(struct tui_app *app, void *st, enum tui_cmd cmd)
{
    (void)st;
    (void)cmd;
    return tui_snapshot_ask(app, "timeline");
}

unsigned tui_timeline_svg_prompt(struct tui_app *app, void *st, const char *text, int done)
{
    return done ? tui_snapshot_done(app, st, text, make_svg) : TUI_REDRAW;
}
