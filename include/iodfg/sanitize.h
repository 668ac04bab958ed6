/* SPDX-License-Identifier: MIT */
/* Escaping of untrusted text (paths, names) for DOT, JSON, TSV, XML (SVG) and the terminal. */
#ifndef IODFG_SANITIZE_H
#define IODFG_SANITIZE_H

#include <stddef.h>

struct iodfg_buf;

/* Length (1-4) of the valid UTF-8 sequence at s[0..n), or 0 when s starts with an invalid
 * byte (overlong forms, surrogates and code points past U+10FFFF are invalid). */
size_t iodfg_utf8_valid(const unsigned char *s, size_t n);

/* Each appends the escaped form of s[0..len) to b and returns 0, or -1 when out of memory.
 * DOT: for the inside of a "quoted" string: \" \\ and &amp; (Graphviz reads entities in
 *   labels); control bytes, DEL, C1 controls and invalid UTF-8 bytes become the visible text
 *   \xNN (backslash escaped), so any input yields a valid DOT file. Valid UTF-8 is kept.
 * JSON: for the inside of a "string": \" \\ \n \r \t, other controls, DEL and C1 controls as
 *   \u00XX (JSON would allow C1 raw, but a terminal showing the file would obey them); a
 *   byte that is not part of valid UTF-8 becomes the code point U+00NN (\u00NN), so the output
 *   is valid UTF-8 JSON and distinct inputs stay distinct (decoding gives Latin-1 for them).
 * TSV: \t \n \r \\ as two-character escapes, other controls, DEL and invalid UTF-8 as \xNN.
 * Terminal: printable text only: ESC as \e, \t \n \r, other controls, DEL and invalid UTF-8
 *   as \xNN, C1 controls and bidirectional controls as \uNNNN, backslash as \\; when the
 *   program's text is ASCII (glyph.h: a locale that is not UTF-8), every non-ASCII byte as
 *   \xNN too. This is the one sanitiser of every human-readable output (tables, notes,
 *   errors, progress, the TUI). */
int iodfg_sanitize_dot(struct iodfg_buf *b, const char *s, size_t len);
int iodfg_sanitize_json(struct iodfg_buf *b, const char *s, size_t len);
int iodfg_sanitize_tsv(struct iodfg_buf *b, const char *s, size_t len);
int iodfg_sanitize_term(struct iodfg_buf *b, const char *s, size_t len);
/* XML (SVG text and attribute values): & < > " ' as entities and backslash as \\; control
 * bytes, DEL, C1 and bidirectional controls dropped; invalid UTF-8 bytes and U+FFFE/U+FFFF (no
 * XML characters) as the visible text \xNN; other valid UTF-8 kept. Any input yields
 * well-formed XML text. */
int iodfg_sanitize_xml(struct iodfg_buf *b, const char *s, size_t len);

#endif
