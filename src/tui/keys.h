/* SPDX-License-Identifier: MIT */
/* Key codes seen by the TUI models: Unicode code points for text and control characters
 * (C-r is 0x12, Tab 9, Esc 27), and codes above Unicode for special keys. The curses layer
 * translates its KEY_* values into these, so nothing outside src/tui/term/ knows curses. */
#ifndef IODFG_TUI_KEYS_H
#define IODFG_TUI_KEYS_H

#define TUI_KEY_CTRL(c) ((c)&0x1f)
#define TUI_KEY_TAB 9
#define TUI_KEY_ESC 27

enum tui_key_special {
    TUI_KEY_SPECIAL = 0x110000, /* first code above Unicode */
    TUI_KEY_ENTER = TUI_KEY_SPECIAL,
    TUI_KEY_BACKSPACE,
    TUI_KEY_UP,
    TUI_KEY_DOWN,
    TUI_KEY_LEFT,
    TUI_KEY_RIGHT,
    TUI_KEY_HOME,
    TUI_KEY_END,
    TUI_KEY_PGUP,
    TUI_KEY_PGDN,
    TUI_KEY_INSERT,
    TUI_KEY_DELETE,
    TUI_KEY_BTAB,
    TUI_KEY_RESIZE, /* the terminal changed size (not bindable) */
    TUI_KEY_F1,     /* F1 .. F12 follow */
    TUI_KEY_F12 = TUI_KEY_F1 + 11,
    TUI_KEY_MAX
};

#endif
