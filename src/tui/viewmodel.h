/* SPDX-License-Identifier: MIT */
/* View models: what a view shows, laid out without curses for the terminal code to paint. A
 * page of styled spans at body rows and columns (text, fills, rules, glyph runs, the
 * Characterisation's charts and bars) places at most one table (a list model) with a span; the
 * frame around it adds the detail and status lines and the terminal cursor. Tests read a page
 * as text. */
#ifndef IODFG_TUI_VIEWMODEL_H
#define IODFG_TUI_VIEWMODEL_H

#include <stddef.h>

#include "tui/drawglyph.h"

struct tui_listmodel;
struct tui_page_block;

enum tui_span_kind {
    TUI_SPAN_TEXT,   /* untrusted text in style (sanitised when drawn), clipped to width */
    TUI_SPAN_CHART,  /* chart cells: ' ' empty, 'r' read, 'w' write, '-' axis */
    TUI_SPAN_BAR,    /* a time-share bar: each character is its call's glyph, ' ' empty */
    TUI_SPAN_FILL,   /* width blank cells in style */
    TUI_SPAN_HLINE,  /* a horizontal rule of width cells */
    TUI_SPAN_GLYPHS, /* one glyph a cell (TUI_GLYPH_CELL); ' ' leaves the cell as it is */
    TUI_SPAN_TABLE   /* the view model's table, height rows high; the text shows when empty */
};

enum tui_span_flags {
    TUI_SPAN_RIGHT = 1, /* TEXT: right-aligned within the width */
    TUI_SPAN_MIDDLE = 2 /* TEXT: a name, which loses its middle when too long */
};

struct tui_span {
    int row, col, width;
    int kind;  /* enum tui_span_kind */
    int style; /* enum tui_style_id */
    char *text;
    int height;     /* TABLE: rows */
    unsigned flags; /* enum tui_span_flags */
};

struct tui_page {
    struct tui_span *span; /* painted in order: later spans cover earlier ones */
    size_t n, cap;
    struct tui_page_block *blocks; /* the spans' text (a span's text never moves) */
    int rows;                      /* one past the last row used */
    int failed;                    /* out of memory on the way */
};

void tui_page_init(struct tui_page *pg);
void tui_page_fini(struct tui_page *pg);
/* Empty the page, keeping its memory for the next frame. */
void tui_page_clear(struct tui_page *pg);

/* Add a span of kind with a copy of text (nothing when width <= 0). Out of memory sets
 * pg->failed. */
void tui_page_add(struct tui_page *pg, int row, int col, int width, int kind, int style,
                  const char *text);
void tui_page_text(struct tui_page *pg, int row, int col, int width, int style, const char *text);
void tui_page_right(struct tui_page *pg, int row, int col, int width, int style, const char *text);
/* A name (activity, path, case): too long for width, it loses its middle (utf8.h). */
void tui_page_name(struct tui_page *pg, int row, int col, int width, int style, const char *text);
void tui_page_textf(struct tui_page *pg, int row, int col, int width, int style, const char *fmt,
                    ...) __attribute__((format(printf, 6, 7)));
void tui_page_fill(struct tui_page *pg, int row, int col, int width, int style);
void tui_page_hline(struct tui_page *pg, int row, int col, int width, int style);
void tui_page_glyph(struct tui_page *pg, int row, int col, int style, enum tui_glyph g);
/* A run of n glyph cells (TUI_GLYPH_CELL, ' ' for none). */
void tui_page_glyphs(struct tui_page *pg, int row, int col, int style, const char *cells, int n);
/* Place the view model's table: height rows (its header and rows) of width columns. */
void tui_page_table(struct tui_page *pg, int row, int col, int width, int height,
                    const char *empty);

/* The text of row (text spans and glyph runs joined at their columns, glyphs in their UTF-8
 * form, trailing blanks cut) into buf: for tests. */
char *tui_page_row_text(const struct tui_page *pg, int row, char *buf, size_t size);

/* A view's frame as the terminal code paints it. The view's render fills the page, top, table
 * and cursor (and the status line while it edits something in place); the app adds the rest
 * (app_frame.c). */
struct tui_viewmodel {
    struct tui_page page;        /* the body */
    int top;                     /* the first page row shown */
    struct tui_listmodel *table; /* placed by the page's TABLE span (borrowed) */
    int cursor_row, cursor_col;  /* the terminal cursor in the body; row -1: none */
    char detail[1024];           /* the line under the body */
    size_t detail_name;          /* bytes at its start that are a name (view.h's detail op) */
    int detail_style;            /* -1: the detail line; else a message in this style */
    char status[1024];           /* the last line */
    int status_style;
    int status_cursor; /* the terminal cursor's column on the status line, -1: none */
};

void tui_viewmodel_init(struct tui_viewmodel *vm);
void tui_viewmodel_fini(struct tui_viewmodel *vm);
/* Empty it for the next frame (the page keeps its memory). */
void tui_viewmodel_clear(struct tui_viewmodel *vm);

#endif
