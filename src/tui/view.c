/* SPDX-License-Identifier: MIT */
/* The view registry (views.def) and the command tables' runner. */
#include "config.h"

#include "tui/view.h"

#include <string.h>

#include "tui/app.h"

#define VIEW(id, ops, name, key, tab, title, help) extern const struct tui_view_ops ops;
#include "tui/views.def"
#undef VIEW
extern const struct tui_view_ops tui_view_help;

static const struct {
    const struct tui_view_ops *ops;
    const char *name;
    int key;
    const char *tab;
    enum tui_map map;
} views[TUI_VIEW_COUNT] = {
#define VIEW(id, ops, name, key, tab, title, help)                                                 \
    [TUI_VIEW_##id] = {&ops, name, key, tab, TUI_MAP_##id},
#include "tui/views.def"
#undef VIEW
    [TUI_VIEW_HELP] = {&tui_view_help, "help", '?', "", TUI_MAP_HELP},
};

const struct tui_view_ops *tui_view_ops(enum tui_view v)
{
    return views[(unsigned)v < TUI_VIEW_COUNT ? v : TUI_VIEW_HELP].ops;
}

const char *tui_view_name(enum tui_view v)
{
    return (unsigned)v < TUI_VIEW_COUNT ? views[v].name : "";
}

int tui_view_by_name(const char *name)
{
    for (int i = 0; i < TUI_VIEW_COUNT; i++) {
        if (strcmp(name, views[i].name) == 0) {
            return i;
        }
    }
    return -1;
}

int tui_view_key(enum tui_view v)
{
    return (unsigned)v < TUI_VIEW_COUNT ? views[v].key : 0;
}

const char *tui_view_tab(enum tui_view v)
{
    return (unsigned)v < TUI_VIEW_COUNT ? views[v].tab : "";
}

enum tui_map tui_view_keymap(enum tui_view v)
{
    return (unsigned)v < TUI_VIEW_COUNT ? views[v].map : TUI_MAP_GLOBAL;
}

enum tui_view tui_view_of_command(enum tui_cmd cmd)
{
    switch (cmd) {
#define VIEW(id, ops, name, key, tab, title, help)                                                 \
    case TUI_CMD_VIEW_##id:                                                                        \
        return TUI_VIEW_##id;
#include "tui/views.def"
#undef VIEW
    default:
        return TUI_VIEW_COUNT;
    }
}

unsigned tui_cmd_run(const struct tui_cmd_entry *t, size_t n, struct tui_app *app, void *st,
                     struct tui_listmodel *lm, enum tui_cmd cmd)
{
    for (size_t i = 0; i < n; i++) {
        if (t[i].cmd != cmd) {
            continue;
        }
        if ((t[i].flags & TUI_CF_TABLE) && !lm) {
            return TUI_REDRAW;
        }
        return t[i].fn(app, st, cmd);
    }
    return TUI_PASS;
}

long tui_cmd_step(enum tui_cmd cmd)
{
    switch (cmd) {
    case TUI_CMD_MOVE_UP:
        return -1;
    case TUI_CMD_MOVE_DOWN:
        return 1;
    case TUI_CMD_PAGE_UP:
        return -20;
    case TUI_CMD_PAGE_DOWN:
        return 20;
    case TUI_CMD_MOVE_FIRST:
        return -1000000000L;
    default:
        return 1000000000L;
    }
}
