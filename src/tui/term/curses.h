/* SPDX-License-Identifier: MIT */
/* The only way into curses: wide-character ncurses with the X/Open extended API. Include this
 * header, never <curses.h>, and only from src/tui/term/. */
#ifndef IODFG_TUI_TERM_CURSES_H
#define IODFG_TUI_TERM_CURSES_H

#ifndef _XOPEN_SOURCE_EXTENDED
#define _XOPEN_SOURCE_EXTENDED 1
#endif
#ifndef NCURSES_WIDECHAR
#define NCURSES_WIDECHAR 1
#endif

#if defined(HAVE_NCURSESW_CURSES_H)
#include <ncursesw/curses.h>
#else
#include <curses.h>
#endif

#endif
