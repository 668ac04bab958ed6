/* SPDX-License-Identifier: MIT */
/* Text tables for people, and the one width rule of every table the program prints: a column is
 * as wide as its widest cell, at least its heading's width and at most its limit; a cell wider
 * than the limit is cut and ends in an ellipsis ("…", or "..." when the program's text is ASCII:
 * glyph.h). Untrusted cells (names, paths) pass through the terminal sanitiser first. */
#ifndef IODFG_TABLE_H
#define IODFG_TABLE_H

#include <stddef.h>

struct iodfg_buf;

/* The limit of a column of names (display columns). */
#define IODFG_TABLE_CELL_MAX 120

/* Display columns of UTF-8 text (combining marks take none). */
size_t iodfg_text_width(const char *s, size_t len);
/* Untrusted s[0..len) as a cell of at most max columns: sanitised for the terminal, cut at a
 * character boundary with the ellipsis when wider, then padded with spaces to pad columns (0:
 * no padding). Only s[0..4 * max + 4) is read when longer: a cell shows no more. */
void iodfg_table_cut(struct iodfg_buf *b, const char *s, size_t len, size_t max, size_t pad);

/* One column: 'l' (left-aligned) or 'r', its least and most width (0: IODFG_TABLE_CELL_MAX),
 * and the text before it on every row (the indentation for the first column). A last column
 * aligned left is not padded. */
struct iodfg_table_col {
    char align;
    unsigned min, max;
    const char *sep;
};

/* Cells added row by row (the first row is the heading), and lines that span the row (a case's
 * name above its rows): each is a copy. Out of memory is sticky (failed) and reported by
 * iodfg_table_print. */
struct iodfg_table {
    const struct iodfg_table_col *col; /* borrowed */
    size_t ncols;
    size_t n, cap;       /* entries so far */
    char **text;         /* cells, and lines */
    unsigned char *line; /* per entry: 1 for a spanning line */
    size_t cells;        /* cells so far (the column of the next is cells % ncols) */
    int failed;
};
void iodfg_table_init(struct iodfg_table *t, const struct iodfg_table_col *col, size_t ncols);
void iodfg_table_fini(struct iodfg_table *t);
/* The program's own text as the next cell (cut to the column's limit when printed). */
void iodfg_table_add(struct iodfg_table *t, const char *text);
/* Untrusted s[0..len) as the next cell (iodfg_table_cut to the column's limit). */
void iodfg_table_add_name(struct iodfg_table *t, const char *s, size_t len);
/* Untrusted s[0..len) on a line of its own after the cells so far (between two rows), after the
 * program's text indent, cut to IODFG_TABLE_CELL_MAX columns. */
void iodfg_table_line(struct iodfg_table *t, const char *indent, const char *s, size_t len);
/* The program's own text (a line with its line break, or more) between two rows, as it is. */
void iodfg_table_text(struct iodfg_table *t, const char *text);
/* Append the rows, each ended by a line break. 0, or -1 when out of memory. */
int iodfg_table_print(const struct iodfg_table *t, struct iodfg_buf *b);

#endif
