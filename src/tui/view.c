/* SPDX-License-Identifier: MIT */
/* The view registry (views.def) and the command tables' runner. */
#include "config.h"

#include "tui/view.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tui/app.h"
#include "tui/listmodel.h"

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
                     enum tui_cmd cmd)
{
    for (size_t i = 0; i < n; i++) {
        if (t[i].cmd == cmd) {
            return t[i].fn(app, st, cmd);
        }
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

void tui_cmd_move_table(struct tui_listmodel *lm, enum tui_cmd cmd)
{
    long step = tui_cmd_step(cmd);
    if (cmd == TUI_CMD_PAGE_UP || cmd == TUI_CMD_PAGE_DOWN) {
        tui_listmodel_page(lm, step < 0 ? -1 : 1);
    } else if (cmd == TUI_CMD_MOVE_FIRST) {
        tui_listmodel_first(lm);
    } else if (cmd == TUI_CMD_MOVE_LAST) {
        tui_listmodel_last(lm);
    } else {
        tui_listmodel_move(lm, step);
    }
}

size_t tui_table_detail(struct tui_listmodel *lm, char *buf, size_t size)
{
    if (!lm || tui_listmodel_count(lm) == 0 || size == 0) {
        return 0;
    }
    char c0[1024], c1[512];
    size_t cur = tui_listmodel_cursor(lm);
    int named = 0;
    for (int c = 0; c < tui_listmodel_ncols(lm); c++) {
        named |= (tui_listmodel_column(lm, c)->flags & TUI_COL_NAME) != 0;
    }
    const char *name = named ? tui_listmodel_name(lm, cur, c0, sizeof(c0))
                             : tui_listmodel_cell(lm, cur, 1, c0, sizeof(c0));
    // the second cell when it is not part of the name (a transition's To is)
    int second = tui_listmodel_ncols(lm) > 2 &&
                 !(named && (tui_listmodel_column(lm, 2)->flags & TUI_COL_NAME));
    snprintf(buf, size, "%s  %s   row %zu of %zu", name,
             second ? tui_listmodel_cell(lm, cur, 2, c1, sizeof(c1)) : "", cur + 1,
             tui_listmodel_count(lm));
    size_t n = strlen(name);
    return n < size ? n : size - 1;
}

int tui_table_replace(struct tui_listmodel *lm, uint32_t **rows, uint32_t *nrows, uint32_t *fresh,
                      uint32_t n)
{
    int have;
    unsigned long long key = tui_listmodel_cursor_key(lm, &have);
    free(*rows);
    *rows = fresh;
    *nrows = n;
    return tui_listmodel_reload_at(lm, have, key);
}

uint32_t *tui_table_ids(struct tui_listmodel *lm, const uint32_t *rows, size_t *n)
{
    *n = tui_listmodel_count(lm);
    uint32_t *ids = malloc((*n + 1) * sizeof(*ids));
    for (size_t i = 0; ids && i < *n; i++) {
        ids[i] = rows[tui_listmodel_row(lm, i)];
    }
    return ids;
}
