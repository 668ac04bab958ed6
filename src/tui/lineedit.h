/* SPDX-License-Identifier: MIT */
/* A line editor model (no curses): UTF-8 text, a cursor, readline-style keys and a history.
 * Each key returns an event, so a view can rebuild live while the user types. */
#ifndef IODFG_TUI_LINEEDIT_H
#define IODFG_TUI_LINEEDIT_H

#include <stddef.h>

enum tui_le_event {
    TUI_LE_ERROR = -1, /* out of memory; the text is unchanged */
    TUI_LE_NONE,       /* key ignored (or nothing to do, e.g. Backspace at the start) */
    TUI_LE_MOVED,      /* only the cursor moved */
    TUI_LE_CHANGED,    /* the text changed */
    TUI_LE_ACCEPTED,   /* Enter: the text is final (and was added to the history) */
    TUI_LE_CANCELLED   /* Esc or C-g: the caller drops the edit */
};

#define TUI_LINEEDIT_MAX 65536 /* longest text in bytes; longer input is ignored */

struct tui_lineedit;

/* A new, empty editor keeping up to history_cap accepted lines; NULL when out of memory. */
struct tui_lineedit *tui_lineedit_new(size_t history_cap);
void tui_lineedit_free(struct tui_lineedit *le);

/* Start editing text (copied; may be NULL for ""), cursor at the end. Returns 0 or -1 (OOM). */
int tui_lineedit_set(struct tui_lineedit *le, const char *text);

/* Apply one key (tui/keys.h): printable code points insert; Left/Right, Home/End (C-a/C-e),
 * Backspace, Delete (C-d), C-w (word), C-u (to start), C-k (to end), Up/Down (history),
 * Enter and Esc (C-g). */
enum tui_le_event tui_lineedit_key(struct tui_lineedit *le, int key);

/* The text (borrowed until the next change), its length, and the cursor as a byte offset and as
 * a display column (characters before it as drawn by the screen). */
const char *tui_lineedit_text(const struct tui_lineedit *le);
size_t tui_lineedit_len(const struct tui_lineedit *le);
size_t tui_lineedit_cursor(const struct tui_lineedit *le);
size_t tui_lineedit_cursor_col(const struct tui_lineedit *le);

/* Add text to the history (skipped when empty or equal to the newest entry); the oldest entry
 * goes when the cap is reached. Returns 0 or -1 (OOM). */
int tui_lineedit_history_add(struct tui_lineedit *le, const char *text);
size_t tui_lineedit_history_count(const struct tui_lineedit *le);
/* Entry i, 0 = oldest; borrowed until the history changes. */
const char *tui_lineedit_history_get(const struct tui_lineedit *le, size_t i);

#endif
