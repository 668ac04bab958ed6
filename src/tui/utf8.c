/* SPDX-License-Identifier: MIT */
/* UTF-8 decoding, boundaries, widths and the terminal sanitiser. */
#include "config.h"

#include "tui/utf8.h"

#include <stdio.h>
#include <wchar.h>

#include "iodfg/buf.h"

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

static int is_bidi_control(unsigned cp)
{
    return (cp >= 0x202a && cp <= 0x202e) || (cp >= 0x2066 && cp <= 0x2069) || cp == 0x200e ||
           cp == 0x200f || cp == 0x061c;
}

int tui_utf8_cpwidth(unsigned cp)
{
    if (cp < 0x20 || (cp >= 0x7f && cp < 0xa0)) {
        return 0;
    }
    int w = wcwidth((wchar_t)cp);
    return w < 0 ? 1 : w;
}

/* The escape text drawn for cp / byte, or NULL when it is drawn as it is. */
static int escape_for(unsigned cp, const char *raw, size_t rawlen, unsigned flags, char *esc)
{
    if (cp == TUI_UTF8_INVALID) {
        return snprintf(esc, 8, "\\x%02x", (unsigned char)raw[0]);
    }
    switch (cp) {
    case 0x1b:
        return snprintf(esc, 8, "\\e");
    case '\t':
        return snprintf(esc, 8, "\\t");
    case '\n':
        return snprintf(esc, 8, "\\n");
    case '\r':
        return snprintf(esc, 8, "\\r");
    default:
        break;
    }
    if (cp < 0x20 || cp == 0x7f) {
        return snprintf(esc, 8, "\\x%02x", cp);
    }
    if ((cp >= 0x80 && cp < 0xa0) || is_bidi_control(cp)) {
        return snprintf(esc, 8, "\\u%04x", cp);
    }
    if ((flags & TUI_SANITIZE_ASCII) && cp >= 0x80) {
        int n = 0;
        for (size_t i = 0; i < rawlen; i++) {
            n += snprintf(esc + n, 8, "\\x%02x", (unsigned char)raw[i]);
        }
        return n;
    }
    return 0;
}

int tui_sanitize(const char *s, size_t len, unsigned flags, struct iodfg_buf *out)
{
    size_t pos = 0;
    while (pos < len) {
        unsigned cp;
        size_t n = tui_utf8_decode(s + pos, len - pos, &cp);
        char esc[40];
        if (escape_for(cp, s + pos, n, flags, esc) > 0) {
            iodfg_buf_addf(out, "%s", esc);
        } else {
            iodfg_buf_add(out, s + pos, n);
        }
        pos += n;
    }
    if (out->data == NULL) {
        iodfg_buf_add(out, "", 0);
    }
    return out->failed ? -1 : 0;
}

size_t tui_utf8_width(const char *s, size_t len)
{
    size_t w = 0, pos = 0;
    while (pos < len) {
        unsigned cp;
        size_t n = tui_utf8_decode(s + pos, len - pos, &cp);
        char esc[40];
        int e = escape_for(cp, s + pos, n, 0, esc);
        w += e > 0 ? (size_t)e : (size_t)tui_utf8_cpwidth(cp);
        pos += n;
    }
    return w;
}
