/* SPDX-License-Identifier: MIT */
/* Escaping of untrusted bytes for each output format. */
#include "config.h"

#include "iodfg/sanitize.h"

#include <stdint.h>
#include <string.h>

#include "iodfg/buf.h"
#include "iodfg/glyph.h"

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

/* The code point of a valid UTF-8 sequence of len 2..4 bytes. */
static uint32_t decode(const unsigned char *s, size_t len)
{
    uint32_t cp = s[0] & (len == 2 ? 0x1f : len == 3 ? 0x0f : 0x07);
    for (size_t i = 1; i < len; i++) {
        cp = cp << 6 | (s[i] & 0x3f);
    }
    return cp;
}

/* Characters that reorder or hide the text around them on a terminal: C1 controls and the
 * bidirectional embeddings, overrides, isolates and marks. */
static int is_hidden_control(uint32_t cp)
{
    return (cp >= 0x80 && cp < 0xa0) || (cp >= 0x202a && cp <= 0x202e) ||
           (cp >= 0x2066 && cp <= 0x2069) || cp == 0x200e || cp == 0x200f || cp == 0x061c;
}

enum mode { DOT, JSON, TSV, TERM, XML };

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

/* XML (SVG) text and attributes: the five markup characters as entities, controls dropped. */
static int escape_xml(struct iodfg_buf *b, unsigned char c)
{
    static const char *const ent[] = {['&'] = "&amp;", ['<'] = "&lt;", ['>'] = "&gt;",
                                      ['"'] = "&quot;", ['\''] = "&apos;", ['\\'] = "\\\\"};
    if (c < sizeof(ent) / sizeof(ent[0]) && ent[c]) {
        return iodfg_buf_add(b, ent[c], strlen(ent[c]));
    }
    return c >= 0x20 && c < 0x7f ? iodfg_buf_add(b, &c, 1) : 0;
}

static int escape_ascii(struct iodfg_buf *b, enum mode m, unsigned char c)
{
    if (m == XML) {
        return escape_xml(b, c);
    }
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
    if (m == JSON || m == TSV || m == TERM) {
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
        if (n && m == TERM) {
            uint32_t cp = decode(s + i, n);
            if (is_hidden_control(cp)) { // visible as \uNNNN
                if (iodfg_buf_addf(b, "\\u%04x", (unsigned)cp)) {
                    return -1;
                }
                i += n;
                continue;
            }
            if (!iodfg_glyph_utf8()) {
                n = 0; // a terminal that is not UTF-8: every byte as \xNN
            }
        }
        if (n && m == XML) { // hidden controls dropped; U+FFFE and U+FFFF are no XML characters
            uint32_t cp = decode(s + i, n);
            if (is_hidden_control(cp)) {
                i += n;
                continue;
            }
            n = cp == 0xfffe || cp == 0xffff ? 0 : n;
        }
        if (n && m == JSON && is_c1(s + i, n)) { // valid JSON raw, but a control on a terminal
            if (iodfg_buf_addf(b, "\\u%04x", (unsigned)decode(s + i, n))) {
                return -1;
            }
            i += n;
            continue;
        }
        if (n && !is_c1(s + i, n)) {
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

int iodfg_sanitize_xml(struct iodfg_buf *b, const char *s, size_t len)
{
    return sanitize(b, s, len, XML);
}
