/* SPDX-License-Identifier: MIT */
/* Keys split by call site when a log with strace -k stacks is loaded (the `site` field of rules and
 * filters), for iodfg's analysing commands, iodfg-mpi's and the TUI alike. */
#include "config.h"

#include <stdlib.h>
#include <unistd.h>

#include "iodfg/callsites.h"
#include "iodfg/error.h"
#include "iodfg/eventlog.h"
#include "iodfg/focus.h"
#include "iodfg/stacks.h"
#include "iodfg/textfile.h"

#include "cli.h"

struct iodfg_focus *cli_callsites_focus(const char *focus_path, struct iodfg_error *err)
{
    char user[4096];
    if (!focus_path && iodfg_focus_user_path(user, sizeof(user)) == 0 && access(user, F_OK) == 0) {
        focus_path = user;
    }
    size_t len = 0;
    char *text = NULL;
    if (focus_path &&
        !(text = iodfg_textfile_read(focus_path, "focus rules file", CLI_RULES_MAX, &len, err))) {
        return NULL;
    }
    struct iodfg_focus *f = iodfg_focus_new(text, len, focus_path, err);
    free(text);
    return f;
}

int cli_callsites_split(struct iodfg_eventlog *log, const char *focus_path, struct iodfg_error *err)
{
    if (!iodfg_eventlog_stacks(log)) {
        return 0;
    }
    struct iodfg_focus *f = cli_callsites_focus(focus_path, err);
    int rc = f ? iodfg_callsites_split_keys(f, log, err) : -1;
    iodfg_focus_free(f);
    return rc;
}
