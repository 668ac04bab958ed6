/* SPDX-License-Identifier: MIT */
/* The focus in the TUI (A, `:focus app|all`): the runtime's activities folded into one row per
 * runtime class (loader, system look-ups, MPI runtime ...; doc/rules.md, "Focus"), or every
 * activity; one undo step, kept in session files ("focus app"), counted on the status line. */
#include "config.h"

#include <stdio.h>
#include <string.h>

#include "iodfg/glyph.h"
#include "iodfg/session.h"

#include "tui/app.h"
#include "tui/app_priv.h"

unsigned tui_app_focus_set(struct tui_app *app, const char *mode)
{
    enum iodfg_focus_mode now = iodfg_session_focus(app->ses), want;
    if (!mode || !*mode) {
        want = now == IODFG_FOCUS_APP ? IODFG_FOCUS_ALL : IODFG_FOCUS_APP;
    } else if (strcmp(mode, "app") == 0 || strcmp(mode, "all") == 0) {
        want = strcmp(mode, "app") == 0 ? IODFG_FOCUS_APP : IODFG_FOCUS_ALL;
    } else {
        tui_app_set_message(app, 1, "focus takes app or all, not '%s'", mode);
        return TUI_REDRAW;
    }
    if (want == now) {
        tui_app_set_message(app, 0, "the focus is %s already",
                            want == IODFG_FOCUS_APP ? "app" : "all");
        return TUI_REDRAW;
    }
    iodfg_session_set_focus(app->ses, want);
    unsigned r = tui_app_changed(app);
    const struct iodfg_session_focus_counts *k = iodfg_session_focus_counts(app->ses);
    if (want == IODFG_FOCUS_APP) {
        tui_app_set_message(app, 0,
                            "focus app: %u runtime activities folded into %u rows (A shows all, "
                            "u undoes)",
                            k->activities_folded, k->classes_shown);
    } else {
        tui_app_set_message(app, 0, "focus all: every activity (A folds the runtime's again)");
    }
    return r;
}

void tui_app_focus_status(const struct tui_app *app, char *buf, size_t size)
{
    const struct iodfg_session_focus_counts *k = iodfg_session_focus_counts(app->ses);
    buf[0] = '\0';
    if (iodfg_session_focus(app->ses) == IODFG_FOCUS_APP && k->activities_folded) {
        snprintf(buf, size, iodfg_glyph_text(" · %u runtime folded (A)"), k->activities_folded);
    }
}
