/* SPDX-License-Identifier: MIT */
/* The command table, generated from commands.def. */
#include "config.h"

#include "tui/command.h"

#include <assert.h>
#include <string.h>

static const struct tui_cmd_info cmd_table[TUI_CMD_COUNT] = {
#define CMD(id, name, help) [TUI_CMD_##id] = {name, help},
#include "tui/commands.def"
#undef CMD
};

const struct tui_cmd_info *tui_cmd_info(enum tui_cmd cmd)
{
    assert((unsigned)cmd < TUI_CMD_COUNT);
    return &cmd_table[cmd];
}

int tui_cmd_by_name(const char *name)
{
    for (int i = 0; i < TUI_CMD_COUNT; i++) {
        if (strcmp(cmd_table[i].name, name) == 0) {
            return i;
        }
    }
    return -1;
}
