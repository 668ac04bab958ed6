/* SPDX-License-Identifier: MIT */
/* The glyphs the TUI draws (lines, arrows, bars, sparks), each with a UTF-8 form and an ASCII
 * fallback, in one table: view models name glyphs, the screen picks the form it can show. */
#ifndef IODFG_TUI_DRAWGLYPH_H
#define IODFG_TUI_DRAWGLYPH_H

enum tui_glyph {
    TUI_G_HLINE,
    TUI_G_VLINE,
    TUI_G_CROSS,
    TUI_G_ARROW,
    TUI_G_ELLIPSIS,
    TUI_G_SORT_DOWN,
    TUI_G_SORT_UP,
    TUI_G_DASH,
    TUI_G_CURSOR,
    TUI_G_SPARK0, /* TUI_G_SPARK0 + 0..7: rising sparkline levels */
    TUI_G_FULL = TUI_G_SPARK0 + 7,
    TUI_G_DARK,
    TUI_G_MEDIUM,
    TUI_G_LIGHT,
    TUI_G_SEP,                          /* "·" between status line items */
    TUI_G_BOX0,                         /* TUI_G_BOX0 + bits: line ends towards N E S W (1 2 4 8) */
    TUI_G_ARROW_DOWN = TUI_G_BOX0 + 16, /* an arrowhead at the end of a downward line */
    TUI_G_LOOP,                         /* before the count of a self-loop */
    TUI_G_COUNT
};

/* The form of g: UTF-8 when utf8, else ASCII ("?" for no glyph). Static storage. */
const char *tui_glyph(enum tui_glyph g, int utf8);

/* A glyph as one byte of a glyph run (a page span of kind TUI_SPAN_GLYPHS, viewmodel.h), and
 * back; ' ' leaves the cell as it is. */
#define TUI_GLYPH_CELL(g) ((char)('!' + (int)(g)))
#define TUI_GLYPH_OF_CELL(c) ((enum tui_glyph)((unsigned char)(c) - '!'))

#endif
