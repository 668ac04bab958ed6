/* SPDX-License-Identifier: MIT */
/* The terminal UI's entry, beside the command line's and iodfg-mpi's: `iodfg tui` (and `iodfg
 * LOG.h5`), and what the program's other entries ask of the TUI: its key list, its theme names
 * and where its themes are: the one TUI header the program's main includes. The int functions
 * return an exit status (0, 1 failed, 2 bad command line; iodfg.1) after saying what failed. */
#ifndef IODFG_TUI_TUI_MAIN_H
#define IODFG_TUI_TUI_MAIN_H

#include <stddef.h>

/* `iodfg tui [OPTIONS] LOG.h5|FILES|DIRS...` (argv[0] is "tui"): parse the options, load the log
 * while the terminal shows progress, and run the explorer until the user quits. */
int tui_main(int argc, char **argv);
/* `iodfg --list-keys [--man]`: every keymap's keys, from the tables that drive them (man: as
 * the man page's troff). */
int tui_main_list_keys(int man);
/* `iodfg --list-themes`: the theme names --theme accepts, one a line (for completions). */
int tui_main_list_themes(void);
/* The directory the themes are read from (for --version): the installed one, else the one
 * beside the program (a moved installation), into buf. */
void tui_main_themes_dir(char *buf, size_t size);

#endif
