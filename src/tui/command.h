/* SPDX-License-Identifier: MIT */
/* TUI commands: the enum and the { name, help } table generated from commands.def. */
#ifndef IODFG_TUI_COMMAND_H
#define IODFG_TUI_COMMAND_H

enum tui_cmd {
#define CMD(id, name, help) TUI_CMD_##id,
#include "tui/commands.def"
#undef CMD
    TUI_CMD_COUNT
};

struct tui_cmd_info {
    const char *name; /* "sort-next": used in config files and help */
    const char *help; /* one line, under 40 columns */
};

/* The table entry of cmd (cmd < TUI_CMD_COUNT). Static storage. */
const struct tui_cmd_info *tui_cmd_info(enum tui_cmd cmd);

/* The command called name, or -1 when there is none. */
int tui_cmd_by_name(const char *name);

#endif
