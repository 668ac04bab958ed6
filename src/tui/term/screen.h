/* SPDX-License-Identifier: MIT */
/* The terminal: setup and restore, theme colours, keys, and the frame every view shares
 * (tab line, body, detail line, status line). Text drawn here is always sanitised.
 * This header does not expose curses; the implementation is the only curses user. */
#ifndef IODFG_TUI_TERM_SCREEN_H
#define IODFG_TUI_TERM_SCREEN_H

#include <stddef.h>

#include "tui/drawglyph.h"

struct iodfg_error;
struct tui_listmodel;
struct tui_theme;

#define TUI_SCREEN_MIN_W 80
#define TUI_SCREEN_MIN_H 24

enum tui_screen_flags {
    TUI_SCREEN_NO_COLOR = 1, /* monochrome fallbacks even if the terminal has colours */
    TUI_SCREEN_ASCII = 2     /* ASCII glyphs and escapes for every non-ASCII byte; also
                              * the default for a non-UTF-8 locale (TERM=vt100: glyphs only) */
};

struct tui_rect {
    int y, x, h, w;
};

struct tui_tab {
    const char *key;  /* "1" */
    const char *name; /* "Activities" */
};

enum tui_text_flags {
    TUI_TEXT_RIGHT = 1, /* right-align within the width */
    TUI_TEXT_PAD = 2,   /* fill the rest of the width with the style */
    TUI_TEXT_MIDDLE = 4 /* a name: too long, it loses its middle, not its end */
};

struct tui_screen;

/* Take over the terminal (the caller has called setlocale(LC_ALL, "")). Colours come from
 * theme unless flags has TUI_SCREEN_NO_COLOR, $NO_COLOR is set or the terminal has none.
 * The terminal is restored by tui_screen_close, at exit, and on fatal signals.
 * NULL with err set when the terminal cannot be used. */
struct tui_screen *tui_screen_open(const struct tui_theme *theme, unsigned flags,
                                   struct iodfg_error *err);
void tui_screen_close(struct tui_screen *s);

/* Switch themes live (colour pairs are rebuilt; the next frame shows it). */
void tui_screen_set_theme(struct tui_screen *s, const struct tui_theme *theme);
/* Colours in use (0 when monochrome), whether line drawing is UTF-8, and the size. */
int tui_screen_colors(const struct tui_screen *s);
int tui_screen_is_utf8(const struct tui_screen *s);
int tui_screen_width(const struct tui_screen *s);
int tui_screen_height(const struct tui_screen *s);
const char *tui_screen_glyph(const struct tui_screen *s, enum tui_glyph g);

/* Wait up to timeout_ms (-1: forever) for a key (tui/keys.h); -1 on timeout. A resize
 * returns TUI_KEY_RESIZE after the new size is known. */
int tui_screen_getkey(struct tui_screen *s, int timeout_ms);

/* Start a frame: clear, and check the size. Returns 0, or -1 when the terminal is below
 * 80x24 (a centred message is drawn instead; draw nothing else). */
int tui_screen_begin(struct tui_screen *s);
/* Show the frame. */
void tui_screen_end(struct tui_screen *s);

/* The frame: tab line (row 0) with title, log name and tabs (the active one highlighted),
 * rules under it and above the detail line, the body between, detail and status lines. */
void tui_screen_tabs(struct tui_screen *s, const char *title, const char *log,
                     const struct tui_tab *tabs, int ntabs, int active);
struct tui_rect tui_screen_body(const struct tui_screen *s);
void tui_screen_detail(struct tui_screen *s, const char *text);
/* The same with a name in its first name bytes, which loses its middle rather than the line
 * its end when the line is too long. */
void tui_screen_detail_name(struct tui_screen *s, const char *text, size_t name);
void tui_screen_status(struct tui_screen *s, const char *text, int style);

/* Draw untrusted text sanitised (tui_sanitize) in style at (y, x), clipped to w columns with
 * an ellipsis. Returns the columns drawn. */
int tui_screen_text(struct tui_screen *s, int y, int x, int w, int style, const char *text,
                    unsigned flags);
/* The same for a name scrolled sideways by skip columns (0: not scrolled): an ellipsis, then
 * the name from that column on. */
int tui_screen_name(struct tui_screen *s, int y, int x, int w, int style, const char *text,
                    unsigned flags, int skip);
void tui_screen_fill(struct tui_screen *s, int y, int x, int w, int style);
void tui_screen_hline(struct tui_screen *s, int y, int x, int w, int style);
/* Put text on the clipboard of the terminal the user sits at (OSC 52, tmux-wrapped inside tmux:
 * clipboard.h); whether it arrives depends on that terminal. 0, or -1 when it could not be
 * written. */
int tui_screen_clipboard(struct tui_screen *s, const char *text);
/* Put the visible terminal cursor at (y, x), or hide it with y < 0 (line editor prompts). */
void tui_screen_cursor(struct tui_screen *s, int y, int x);

/* Draw a list model in rect: a header row (sort column marked) and the visible rows, the
 * cursor row highlighted. Sets the model's height. empty is shown when there are no rows. */
void tui_table_draw(struct tui_screen *s, struct tui_rect rect, struct tui_listmodel *lm,
                    const char *empty);

#endif
