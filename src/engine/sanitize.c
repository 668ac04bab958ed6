/* SPDX-License-Identifier: MIT */
/* Escaping of untrusted bytes for each output format. */
#include "config.h"

#include "iodfg/sanitize.h"

#include <stdint.h>

#include "iodfg/buf.h"

size_t iodfg_utf8_valid(const unsigned char *s, size_t n)
{
    if (!n) {
        return 0;
    }
    unsigned char c = s[0];
    if (c < 0x80) {
        return 1;
    }
    size_t len;
    uint32_t cp, min;
    if (c >= 0xc2 && c <= 0xdf) {
        len = 2, cp = c & 0x1f, min = 0x80;
    } else if (c >= 0xe0 && c <= 0xef) {
        len = 3, cp = c & 0x0f, min = 0x800;
    } else if (c >= 0xf0 && c <= 0xf4) {
        len = 4, cp = c & 0x07, min = 0x10000;
    } else {
        return 0;
    }
    if (n < len) {
        return 0;
    }
    for (size_t i = 1; i < len; i++) {
        if ((s[i] & 0xc0) != 0x80) {
            return 0;
        }
        cp = cp << 6 | (s[i] & 0x3f);
    }
    if (cp < min || cp > 0x10ffff || (cp >= 0xd800 && cp <= 0xdfff)) {
        return 0;
    }
    return len;
}

/* A valid UTF-8 sequence that encodes a C1 control (U+0080..U+009F). */
static int is_c1(const unsigned char *s, size_t len)
{
    return len == 2 && s[0] == 0xc2 && s[1] < 0xa0;
}

enum mode { DOT, JSON, TSV, TERM };

static int hex_escape(struct iodfg_buf *b, enum mode m, unsigned char c)
{
    switch (m) {
    case DOT:
        return iodfg_buf_addf(b, "\\\\x%02x", c);
    case JSON:
        return iodfg_buf_addf(b, "\\u%04x", c);
    default:
        return iodfg_buf_addf(b, "\\x%02x", c);
    }
}

static int escape_ascii(struct iodfg_buf *b, enum mode m, unsigned char c)
{
    if (c == '\\') {
        return iodfg_buf_add(b, "\\\\", 2);
    }
    if (c == '"' && (m == DOT || m == JSON)) {
        return iodfg_buf_add(b, "\\\"", 2);
    }
    if (c == '&' && m == DOT) {
        return iodfg_buf_add(b, "&amp;", 5);
    }
    if (c >= 0x20 && c < 0x7f) {
        return iodfg_buf_add(b, &c, 1);
    }
    if (m == JSON || m == TSV) {
        const char *e = c == '\n' ? "\\n" : c == '\t' ? "\\t" : c == '\r' ? "\\r" : NULL;
        if (e) {
            return iodfg_buf_add(b, e, 2);
        }
    }
    if (m == TERM && c == 0x1b) {
        return iodfg_buf_add(b, "\\e", 2);
    }
    return hex_escape(b, m, c);
}

static int sanitize(struct iodfg_buf *b, const char *str, size_t len, enum mode m)
{
    const unsigned char *s = (const unsigned char *)str;
    size_t i = 0;
    while (i < len) {
        if (s[i] < 0x80) {
            if (escape_ascii(b, m, s[i])) {
                return -1;
            }
            i++;
            continue;
        }
        size_t n = iodfg_utf8_valid(s + i, len - i);
        if (n && !(m != JSON && is_c1(s + i, n))) {
            if (iodfg_buf_add(b, s + i, n)) {
                return -1;
            }
            i += n;
            continue;
        }
        // invalid byte, or a C1 control outside JSON: escape the bytes one by one
        size_t k = n ? n : 1;
        for (size_t j = 0; j < k; j++) {
            if (hex_escape(b, m, s[i + j])) {
                return -1;
            }
        }
        i += k;
    }
    return b->failed ? -1 : 0;
}

int iodfg_sanitize_dot(struct iodfg_buf *b, const char *s, size_t len)
{
    return sanitize(b, s, len, DOT);
}

int iodfg_sanitize_json(struct iodfg_buf *b, const char *s, size_t len)
{
    return sanitize(b, s, len, JSON);
}

int iodfg_sanitize_tsv(struct iodfg_buf *b, const char *s, size_t len)
{
    return sanitize(b, s, len, TSV);
}

int iodfg_sanitize_term(struct iodfg_buf *b, const char *s, size_t len)
{
    return sanitize(b, s, len, TERM);
}
