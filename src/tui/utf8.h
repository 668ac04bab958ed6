/* SPDX-License-Identifier: MIT */
/* UTF-8 helpers for the TUI models: cursor movement and display width. */
#ifndef IODFG_TUI_UTF8_H
#define IODFG_TUI_UTF8_H

#include <stddef.h>

struct iodfg_buf;

#define TUI_UTF8_INVALID 0xffffffffu

/* Decode the code point at s (len > 0 bytes available) into *cp. Returns the bytes used (>= 1);
 * an invalid or truncated sequence yields *cp = TUI_UTF8_INVALID and uses 1 byte. */
size_t tui_utf8_decode(const char *s, size_t len, unsigned *cp);
/* Encode cp into out (up to 4 bytes, not NUL-terminated). Returns the length, 0 if invalid. */
size_t tui_utf8_encode(unsigned cp, char *out);
/* The offset of the next / previous character boundary from pos in s[0..len). */
size_t tui_utf8_next(const char *s, size_t len, size_t pos);
size_t tui_utf8_prev(const char *s, size_t pos);
/* Terminal columns taken by cp (0, 1 or 2); control characters count 0. */
int tui_utf8_cpwidth(unsigned cp);
/* Columns taken by s[0..len) as drawn after the sanitiser (iodfg_sanitize_term). */
size_t tui_utf8_width(const char *s, size_t len);
/* The offset in s[0..len) after its first cols columns (whole characters). */
size_t tui_utf8_skip_cols(const char *s, size_t len, size_t cols);
/* How a name s[0..len) (display text, sanitised) fits width columns by losing its middle to a
 * one-column ellipsis: it shows bytes [0, *head), the ellipsis, then [*tail, len). The last
 * path component is kept whole from its '/' when that leaves some of the head
 * (write:/tmp/…/test.00000003), else the name's second half. 0 when s fits (nothing cut; *head
 * = *tail = len), 1 when cut. */
int tui_utf8_elide_middle(const char *s, size_t len, int width, size_t *head, size_t *tail);

#endif
