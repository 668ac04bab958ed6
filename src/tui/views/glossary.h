/* SPDX-License-Identifier: MIT */
/* The meaning of every column and figure the views show, as help text. */
#ifndef IODFG_TUI_VIEWS_GLOSSARY_H
#define IODFG_TUI_VIEWS_GLOSSARY_H

struct iodfg_buf;

/* Append the glossary (a heading line, then "  term   meaning" lines, in the chosen glyphs) to
 * out. Returns 0, or -1 when out of memory. */
int tui_glossary(struct iodfg_buf *out);

#endif
