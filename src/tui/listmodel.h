/* SPDX-License-Identifier: MIT */
/* A generic sortable table model driven by callbacks: sort column cycling and reversal,
 * incremental search, a cursor with scrolling, and column dropping for narrow terminals.
 * Every table view uses it; the curses renderer (term/table.c) draws it. */
#ifndef IODFG_TUI_LISTMODEL_H
#define IODFG_TUI_LISTMODEL_H

#include <stddef.h>

enum tui_col_flags {
    TUI_COL_RIGHT = 1,    /* right-aligned (numbers) */
    TUI_COL_SORTABLE = 2, /* `s` stops here */
    TUI_COL_DESC = 4,     /* sorts descending first (counts, durations) */
    TUI_COL_SEARCH = 8,   /* `/` looks here; when no column has it, all columns are searched */
    TUI_COL_FLEX = 16,    /* shares the spare width with the other flex columns */
    TUI_COL_NAME = 32     /* a name (activity, path, case): too long, it loses its middle
                           * (write:/tmp/…/test.00000003); it scrolls sideways (hscroll) and
                           * `y` copies it */
};

struct tui_column {
    const char *title;
    int width;       /* display columns; the minimum for a flex column */
    int priority;    /* 0 = always shown; when too narrow, the highest numbers go first */
    unsigned flags;  /* enum tui_col_flags */
    const char *tsv; /* the TSV export's header, naming its base unit; NULL: the title */
};

struct tui_list_ops {
    size_t (*rows)(void *ctx);
    /* The text of a cell: write into buf (size bytes) and return buf, or return a string that
     * lives until the next reload. May be untrusted bytes: the renderer sanitises. */
    const char *(*cell)(void *ctx, size_t row, int col, char *buf, size_t size);
    /* <0, 0, >0 like strcmp for rows a and b by column col. NULL: compare cell texts. */
    int (*compare)(void *ctx, size_t a, size_t b, int col);
    /* Optional: a style slot (enum tui_style_id) for a cell, or -1 for the row's style. */
    int (*cell_style)(void *ctx, size_t row, int col);
    /* Optional: a stable identity, so the cursor stays on its item across reloads. */
    unsigned long long (*row_key)(void *ctx, size_t row);
    /* Optional: the cell as the TSV export writes it, exact and in base units (ns, bytes,
     * plain numbers; "" when unknown). NULL: the shown text. */
    const char *(*exact_cell)(void *ctx, size_t row, int col, char *buf, size_t size);
};

struct tui_listmodel;

/* A model over ops/ctx with ncols columns (cols is borrowed: keep it alive). Unsorted until
 * tui_listmodel_sort; call tui_listmodel_reload to read the rows. NULL when out of memory. */
struct tui_listmodel *tui_listmodel_new(const struct tui_column *cols, int ncols,
                                        const struct tui_list_ops *ops, void *ctx);
void tui_listmodel_free(struct tui_listmodel *lm);

/* Re-read the rows (after a rebuild), re-sort, keep the cursor on the same item when row_key
 * is given (else on the same position). Returns 0, or -1 when out of memory. */
int tui_listmodel_reload(struct tui_listmodel *lm);
/* The same in two steps, for a caller that replaces the rows the callbacks read: the key of the
 * cursor's item before (have 0: none), then the reload that puts the cursor back on it. */
unsigned long long tui_listmodel_cursor_key(const struct tui_listmodel *lm, int *have);
int tui_listmodel_reload_at(struct tui_listmodel *lm, int have, unsigned long long key);

size_t tui_listmodel_count(const struct tui_listmodel *lm);
/* The source row shown at position i (0 = top of the table). */
size_t tui_listmodel_row(const struct tui_listmodel *lm, size_t i);
int tui_listmodel_ncols(const struct tui_listmodel *lm);
const struct tui_column *tui_listmodel_column(const struct tui_listmodel *lm, int col);
/* The cell text of position i (see tui_list_ops.cell) and its style (-1 for default). */
const char *tui_listmodel_cell(const struct tui_listmodel *lm, size_t i, int col, char *buf,
                               size_t size);
/* The cell of position i as exported (tui_list_ops.exact_cell, else the shown text). */
const char *tui_listmodel_exact_cell(const struct tui_listmodel *lm, size_t i, int col, char *buf,
                                     size_t size);
int tui_listmodel_cell_style(const struct tui_listmodel *lm, size_t i, int col);

/* Sort by col (-1: source order); reverse flips the column's natural direction. Returns 0,
 * or -1 when col is not sortable. */
int tui_listmodel_sort(struct tui_listmodel *lm, int col, int reverse);
/* Sort by the next sortable column (wrapping), in its natural direction. Returns the column. */
int tui_listmodel_sort_next(struct tui_listmodel *lm);
void tui_listmodel_sort_reverse(struct tui_listmodel *lm);
/* The sort column (-1 for none), and whether it is descending in *desc (may be NULL). */
int tui_listmodel_sort_column(const struct tui_listmodel *lm, int *desc);

/* Cursor position (0 when empty), moves clamp to the rows. */
size_t tui_listmodel_cursor(const struct tui_listmodel *lm);
void tui_listmodel_set_cursor(struct tui_listmodel *lm, size_t i);
void tui_listmodel_move(struct tui_listmodel *lm, long delta);
void tui_listmodel_page(struct tui_listmodel *lm, int dir);
void tui_listmodel_first(struct tui_listmodel *lm);
void tui_listmodel_last(struct tui_listmodel *lm);

/* The visible height in rows (set by the renderer each frame) and the first visible row,
 * always keeping the cursor visible. */
void tui_listmodel_set_height(struct tui_listmodel *lm, size_t height);
size_t tui_listmodel_top(const struct tui_listmodel *lm);

/* Incremental search: begin remembers the cursor; set moves to the first row at or after it
 * whose searchable cells match pattern, a PCRE2 regex (ASCII case-insensitive, match-limited:
 * a cell that hits the limit does not match), wrapping around the end; a pattern that is not
 * (yet) a valid regex matches as plain text, and search_error says why; an empty pattern
 * returns to where the search began. next(dir = +1/-1) moves to the next / previous match,
 * wrapping too (search_wrapped: the last move went past an end). Both return 1 when a match
 * is selected, 0 otherwise (the cursor then stays). set returns -1 when out of memory. */
void tui_listmodel_search_begin(struct tui_listmodel *lm);
int tui_listmodel_search_set(struct tui_listmodel *lm, const char *pattern);
int tui_listmodel_search_next(struct tui_listmodel *lm, int dir);
const char *tui_listmodel_search_pattern(const struct tui_listmodel *lm);
const char *tui_listmodel_search_error(const struct tui_listmodel *lm); /* NULL: a regex */
int tui_listmodel_search_wrapped(const struct tui_listmodel *lm);
int tui_listmodel_matches(const struct tui_listmodel *lm, size_t i);

/* The name columns' sideways scroll in display columns (0: names lose their middle instead);
 * set clamps at 0, the renderer clamps it to what the longest name shown needs. */
int tui_listmodel_hscroll(const struct tui_listmodel *lm);
void tui_listmodel_set_hscroll(struct tui_listmodel *lm, int cols);
/* The name of position i: its name columns' cells joined by " → " (" -> " in ASCII: a
 * transition's two nodes), into buf; "" when it has none. */
const char *tui_listmodel_name(const struct tui_listmodel *lm, size_t i, char *buf, size_t size);

/* Fit the columns into width display columns with sep columns between them: drop columns by
 * priority, then share the spare width among the flex columns (a wider terminal gives the
 * names its width). widths[c] is 0 for a dropped column. Returns the number of columns shown. */
int tui_listmodel_layout(const struct tui_listmodel *lm, int width, int sep, int *widths);

#endif
