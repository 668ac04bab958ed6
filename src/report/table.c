/* SPDX-License-Identifier: MIT */
/* Text tables for people and the width rule of their cells (table.h). */
#include "config.h"

#include "iodfg/table.h"

#include <stdlib.h>
#include <string.h>

#include "iodfg/buf.h"
#include "iodfg/glyph.h"
#include "iodfg/sanitize.h"

size_t iodfg_text_width(const char *s, size_t len)
{
    size_t w = 0;
    const unsigned char *p = (const unsigned char *)s;
    for (size_t i = 0; i < len;) {
        size_t k = iodfg_utf8_valid(p + i, len - i);
        if (k == 0) {
            k = 1;
        }
        unsigned cp = p[i];
        if (k == 2) {
            cp = ((p[i] & 0x1fu) << 6) | (p[i + 1] & 0x3fu);
        }
        w += !(cp >= 0x300 && cp <= 0x36f); // combining diacritical marks take no column
        i += k;
    }
    return w;
}

/* Cut the text b holds from before on to max columns, ending in the ellipsis; its width. */
static size_t cut(struct iodfg_buf *b, size_t before, size_t max)
{
    const char *t = b->data + before;
    size_t n = b->len - before;
    const char *ell = iodfg_glyph(IODFG_GL_ELLIPSIS);
    size_t ew = iodfg_text_width(ell, strlen(ell)), keep = 0, cols = 0;
    while (keep < n) { // at a character boundary
        size_t k = iodfg_utf8_valid((const unsigned char *)t + keep, n - keep);
        k = k ? k : 1;
        size_t cw = iodfg_text_width(t + keep, k);
        if (cols + cw + ew > max) {
            break;
        }
        cols += cw;
        keep += k;
    }
    iodfg_buf_truncate(b, before + keep);
    iodfg_buf_add(b, ell, strlen(ell));
    return cols + ew;
}

void iodfg_table_cut(struct iodfg_buf *b, const char *s, size_t len, size_t max, size_t pad)
{
    size_t before = b->len;
    // sanitise at most what can show: a cell of max columns needs at most 4 * max bytes of text
    size_t take = len > 4 * max + 4 ? 4 * max + 4 : len;
    iodfg_sanitize_term(b, s, take);
    if (b->failed) {
        return;
    }
    // an empty cell into an empty buffer leaves data NULL: no offset on it
    size_t w = b->len > before ? iodfg_text_width(b->data + before, b->len - before) : 0;
    if (w > max || take < len) {
        w = cut(b, before, max);
    }
    for (; w < pad; w++) {
        iodfg_buf_add(b, " ", 1);
    }
}

void iodfg_table_init(struct iodfg_table *t, const struct iodfg_table_col *col, size_t ncols)
{
    memset(t, 0, sizeof(*t));
    t->col = col;
    t->ncols = ncols;
}

void iodfg_table_fini(struct iodfg_table *t)
{
    for (size_t i = 0; i < t->n; i++) {
        free(t->text[i]);
    }
    free(t->text);
    free(t->line);
    memset(t, 0, sizeof(*t));
}

static unsigned limit(const struct iodfg_table_col *c)
{
    return c->max ? c->max : IODFG_TABLE_CELL_MAX;
}

/* Take text (malloc'd, NULL: out of memory) as the next entry. */
static void take(struct iodfg_table *t, char *text, int line)
{
    if (!text || t->failed) {
        free(text);
        t->failed = 1;
        return;
    }
    if (t->n == t->cap) {
        size_t cap = t->cap ? 2 * t->cap : 64;
        char **p = realloc(t->text, cap * sizeof(*p));
        unsigned char *l = p ? realloc(t->line, cap) : NULL;
        if (p) {
            t->text = p;
        }
        if (!l) {
            free(text);
            t->failed = 1;
            return;
        }
        t->line = l;
        t->cap = cap;
    }
    t->text[t->n] = text;
    t->line[t->n++] = (unsigned char)line;
    t->cells += !line;
}

void iodfg_table_add(struct iodfg_table *t, const char *text)
{
    take(t, strdup(text), 0);
}

/* The buffer's text as a malloc'd string (NULL when out of memory), the buffer emptied. */
static char *text_of(struct iodfg_buf *b)
{
    char *s = b->failed ? NULL : strdup(b->data ? b->data : "");
    iodfg_buf_fini(b);
    return s;
}

void iodfg_table_add_name(struct iodfg_table *t, const char *s, size_t len)
{
    struct iodfg_buf b;
    iodfg_buf_init(&b);
    iodfg_table_cut(&b, s, len, limit(&t->col[t->cells % t->ncols]), 0);
    take(t, text_of(&b), 0);
}

void iodfg_table_line(struct iodfg_table *t, const char *indent, const char *s, size_t len)
{
    struct iodfg_buf b;
    iodfg_buf_init(&b);
    iodfg_buf_add(&b, indent, strlen(indent));
    iodfg_table_cut(&b, s, len, IODFG_TABLE_CELL_MAX, 0);
    iodfg_buf_add(&b, "\n", 1);
    take(t, text_of(&b), 1);
}

void iodfg_table_text(struct iodfg_table *t, const char *text)
{
    take(t, strdup(text), 1);
}

/* One cell at column c of width w: the program's own text is cut here when over the limit. */
static void put_cell(struct iodfg_buf *b, const struct iodfg_table *t, size_t c, size_t w,
                     const char *s)
{
    const struct iodfg_table_col *col = &t->col[c];
    size_t len = strlen(s);
    iodfg_buf_add(b, col->sep ? col->sep : "", col->sep ? strlen(col->sep) : 0);
    size_t at = b->len, sw = iodfg_text_width(s, len);
    if (col->align != 'l' && sw < w) {
        iodfg_buf_addf(b, "%*s", (int)(w - sw), "");
        at = b->len;
    }
    iodfg_buf_add(b, s, len);
    if (sw > limit(col)) {
        sw = cut(b, at, limit(col));
    }
    if (col->align == 'l' && c + 1 < t->ncols && sw < w) {
        iodfg_buf_addf(b, "%*s", (int)(w - sw), "");
    }
}

int iodfg_table_print(const struct iodfg_table *t, struct iodfg_buf *b)
{
    if (t->failed) {
        return -1;
    }
    size_t *w = calloc(t->ncols + 1, sizeof(*w));
    if (!w) {
        return -1;
    }
    for (size_t c = 0; c < t->ncols; c++) {
        w[c] = t->col[c].min;
    }
    for (size_t i = 0, k = 0; i < t->n; i++) {
        if (t->line[i]) {
            continue;
        }
        size_t c = k++ % t->ncols, cw = iodfg_text_width(t->text[i], strlen(t->text[i]));
        cw = cw > limit(&t->col[c]) ? limit(&t->col[c]) : cw;
        w[c] = cw > w[c] ? cw : w[c];
    }
    for (size_t i = 0, k = 0; i < t->n; i++) {
        if (t->line[i]) {
            iodfg_buf_add(b, t->text[i], strlen(t->text[i]));
            continue;
        }
        size_t c = k++ % t->ncols;
        put_cell(b, t, c, w[c], t->text[i]);
        if (c + 1 == t->ncols) {
            iodfg_buf_add(b, "\n", 1);
        }
    }
    free(w);
    return b->failed ? -1 : 0;
}
