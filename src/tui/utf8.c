/* SPDX-License-Identifier: MIT */
/* UTF-8 decoding, boundaries and widths (of text as the sanitiser draws it). */
#include "config.h"

#include "tui/utf8.h"

#include <stdio.h>
#include <string.h>
#include <wchar.h>

#include "iodfg/buf.h"
#include "iodfg/sanitize.h"

size_t tui_utf8_decode(const char *s, size_t len, unsigned *cp)
{
    const unsigned char *u = (const unsigned char *)s;
    *cp = TUI_UTF8_INVALID;
    if (len == 0) {
        return 0;
    }
    if (u[0] < 0x80) {
        *cp = u[0];
        return 1;
    }
    size_t need;
    unsigned c, min;
    if (u[0] >= 0xc2 && u[0] <= 0xdf) {
        need = 2, c = u[0] & 0x1fu, min = 0x80;
    } else if (u[0] >= 0xe0 && u[0] <= 0xef) {
        need = 3, c = u[0] & 0x0fu, min = 0x800;
    } else if (u[0] >= 0xf0 && u[0] <= 0xf4) {
        need = 4, c = u[0] & 0x07u, min = 0x10000;
    } else {
        return 1;
    }
    if (len < need) {
        return 1;
    }
    for (size_t i = 1; i < need; i++) {
        if ((u[i] & 0xc0) != 0x80) {
            return 1;
        }
        c = (c << 6) | (u[i] & 0x3fu);
    }
    if (c < min || c > 0x10ffff || (c >= 0xd800 && c <= 0xdfff)) {
        return 1;
    }
    *cp = c;
    return need;
}

size_t tui_utf8_encode(unsigned cp, char *out)
{
    if (cp < 0x80) {
        out[0] = (char)cp;
        return 1;
    }
    if (cp < 0x800) {
        out[0] = (char)(0xc0 | (cp >> 6));
        out[1] = (char)(0x80 | (cp & 0x3f));
        return 2;
    }
    if (cp >= 0xd800 && cp <= 0xdfff) {
        return 0;
    }
    if (cp < 0x10000) {
        out[0] = (char)(0xe0 | (cp >> 12));
        out[1] = (char)(0x80 | ((cp >> 6) & 0x3f));
        out[2] = (char)(0x80 | (cp & 0x3f));
        return 3;
    }
    if (cp <= 0x10ffff) {
        out[0] = (char)(0xf0 | (cp >> 18));
        out[1] = (char)(0x80 | ((cp >> 12) & 0x3f));
        out[2] = (char)(0x80 | ((cp >> 6) & 0x3f));
        out[3] = (char)(0x80 | (cp & 0x3f));
        return 4;
    }
    return 0;
}

size_t tui_utf8_next(const char *s, size_t len, size_t pos)
{
    if (pos >= len) {
        return len;
    }
    unsigned cp;
    return pos + tui_utf8_decode(s + pos, len - pos, &cp);
}

size_t tui_utf8_prev(const char *s, size_t pos)
{
    if (pos == 0) {
        return 0;
    }
    // Step back over up to 3 continuation bytes, but only if they decode as one character
    // ending exactly at pos; otherwise the previous byte is an invalid byte of its own.
    for (size_t back = 2; back <= 4 && back <= pos; back++) {
        unsigned cp;
        if (tui_utf8_decode(s + pos - back, back, &cp) == back && cp != TUI_UTF8_INVALID) {
            return pos - back;
        }
    }
    return pos - 1;
}

int tui_utf8_cpwidth(unsigned cp)
{
    if (cp < 0x20 || (cp >= 0x7f && cp < 0xa0)) {
        return 0;
    }
    int w = wcwidth((wchar_t)cp);
    return w < 0 ? 1 : w;
}

/* Columns of text that needs no escaping (printable, valid UTF-8). */
static size_t plain_width(const char *s, size_t len)
{
    size_t w = 0, pos = 0;
    while (pos < len) {
        unsigned cp;
        size_t n = tui_utf8_decode(s + pos, len - pos, &cp);
        w += (size_t)tui_utf8_cpwidth(cp);
        pos += n;
    }
    return w;
}

size_t tui_utf8_width(const char *s, size_t len)
{
    int plain = 1;
    for (size_t i = 0; i < len && plain; i++) {
        unsigned char c = (unsigned char)s[i];
        plain = c >= 0x20 && c < 0x7f && c != '\\';
    }
    if (plain) {
        return len;
    }
    struct iodfg_buf b; // measured as drawn: after the sanitiser
    iodfg_buf_init(&b);
    size_t w = iodfg_sanitize_term(&b, s, len) == 0 ? plain_width(b.data, b.len) : len;
    iodfg_buf_fini(&b);
    return w;
}

size_t tui_utf8_skip_cols(const char *s, size_t len, size_t cols)
{
    size_t pos = 0, used = 0;
    while (pos < len && used < cols) {
        size_t next = tui_utf8_next(s, len, pos);
        used += tui_utf8_width(s + pos, next - pos);
        pos = next;
    }
    return pos;
}

/* The start of the last columns columns of s[0..len) (whole characters). */
static size_t tail_cols(const char *s, size_t len, size_t cols)
{
    size_t pos = len, used = 0;
    while (pos > 0) {
        size_t prev = tui_utf8_prev(s, pos);
        size_t cw = tui_utf8_width(s + prev, pos - prev);
        if (used + cw > cols) {
            break;
        }
        used += cw;
        pos = prev;
    }
    return pos;
}

int tui_utf8_elide_middle(const char *s, size_t len, int width, size_t *head, size_t *tail)
{
    size_t total = tui_utf8_width(s, len);
    *head = len;
    *tail = len;
    if (width < 0 || total <= (size_t)width) {
        return 0;
    }
    size_t budget = width > 1 ? (size_t)width - 1 : 0; // the ellipsis takes one column
    // an activity's call ("lseek:") stays whole when it takes at most half the room
    const char *colon = memchr(s, ':', len < 24 ? len : 24);
    size_t hmin = colon && !memchr(s, '/', (size_t)(colon - s))
                      ? tui_utf8_width(s, (size_t)(colon - s) + 1)
                      : 0;
    hmin = hmin > budget / 2 ? 0 : hmin;
    // the tail: the last path component from its '/' when it leaves room for the head, else
    // what the head leaves (half for a name without a call)
    const char *slash = NULL;
    for (size_t i = len; i > 1 && !slash; i--) {
        slash = s[i - 1] == '/' && i < len ? s + i - 1 : NULL;
    }
    size_t keep = budget / 3 < 4 ? budget / 3 : 4;
    size_t room = budget - (hmin > keep ? hmin : keep);
    size_t t = slash ? (size_t)(slash - s) : len;
    if (!slash || tui_utf8_width(s + t, len - t) > room) {
        t = tail_cols(s, len, hmin ? budget - hmin : (budget + 1) / 2);
    }
    size_t tw = tui_utf8_width(s + t, len - t);
    *head = tui_utf8_skip_cols(s, t, budget - tw);
    if (tui_utf8_width(s, *head) > budget - tw) { // a wide character does not fit: leave it
        *head = tui_utf8_prev(s, *head);
    }
    *tail = t;
    return 1;
}
