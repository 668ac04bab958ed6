/* SPDX-License-Identifier: MIT */
/* The terminal's clipboard over SSH: the OSC 52 escape sequence (no curses; the screen writes
 * it). */
#ifndef IODFG_TUI_CLIPBOARD_H
#define IODFG_TUI_CLIPBOARD_H

#include <stddef.h>

struct iodfg_buf;

/* Append to out the OSC 52 sequence that sets the clipboard ("c") to text[0..len), base64
 * encoded (ESC ] 52 ; c ; BASE64 BEL). With tmux set (running inside tmux), that plain sequence,
 * which tmux takes itself when its set-clipboard option is on, and then the same wrapped for
 * tmux's passthrough (ESC P tmux; ... ESC \, each ESC inside doubled), which reaches the outer
 * terminal when allow-passthrough is on. 0, or -1 when out of memory. */
int tui_osc52(struct iodfg_buf *out, const char *text, size_t len, int tmux);

#endif
