/* SPDX-License-Identifier: MIT */
/* The views' jumps: the session's inputs kept as text (as undo keeps them), filters pushed all or
 * none, and the inputs brought back. */
#include "config.h"

#include "tui/views/jumpstate.h"

#include <stdlib.h>
#include <string.h>

#include "iodfg/buf.h"
#include "iodfg/error.h"
#include "iodfg/filter.h"
#include "iodfg/session.h"

#include "tui/app.h"

char *tui_jump_state(struct tui_app *app)
{
    struct iodfg_buf b;
    iodfg_buf_init(&b);
    if (tui_app_snapshot(app, &b) || b.failed) {
        iodfg_buf_fini(&b);
        return NULL;
    }
    return b.data ? b.data : strdup("");
}

int tui_jump_push_filters(struct tui_app *app, const char *text, struct iodfg_error *err)
{
    struct iodfg_filter_stack *fs = iodfg_session_filters(tui_app_session(app));
    size_t pushed = 0;
    for (const char *nl; (nl = strchr(text, '\n')); text = nl + 1) {
        char *line = strndup(text, (size_t)(nl - text));
        int rc = line ? iodfg_filter_stack_push_text(fs, line, err)
                      : iodfg_error_set(err, IODFG_E_NOMEM, NULL);
        free(line);
        if (rc) {
            while (pushed--) {
                iodfg_filter_stack_pop(fs);
            }
            return -1;
        }
        pushed++;
    }
    return 0;
}

int tui_jump_restore(struct tui_app *app, const char *state)
{
    struct iodfg_error err;
    iodfg_error_clear(&err);
    if (tui_app_restore(app, state, strlen(state), &err)) {
        tui_app_report(app, "back", &err);
        return -1;
    }
    tui_app_record(app);
    return 0;
}
