/* SPDX-License-Identifier: MIT */
/* Pages of styled spans and the view model around them (no curses; term/draw.c paints them). */
#include "config.h"

#include "tui/viewmodel.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "iodfg/buf.h"

#include "tui/utf8.h"

#define BLOCK_MIN 4096

/* Text storage: blocks that never move, reused from frame to frame. */
struct tui_page_block {
    struct tui_page_block *next;
    size_t cap, used;
    char data[];
};

void tui_page_init(struct tui_page *pg)
{
    memset(pg, 0, sizeof(*pg));
}

void tui_page_fini(struct tui_page *pg)
{
    while (pg->blocks) {
        struct tui_page_block *b = pg->blocks;
        pg->blocks = b->next;
        free(b);
    }
    free(pg->span);
    memset(pg, 0, sizeof(*pg));
}

void tui_page_clear(struct tui_page *pg)
{
    for (struct tui_page_block *b = pg->blocks; b; b = b->next) {
        b->used = 0;
    }
    pg->n = 0;
    pg->rows = 0;
    pg->failed = 0;
}

/* A copy of len bytes of text (and a NUL) in the page's blocks; NULL when out of memory. */
static char *copy_text(struct tui_page *pg, const char *text, size_t len)
{
    struct tui_page_block **at = &pg->blocks;
    while (*at && (*at)->cap - (*at)->used < len + 1) {
        at = &(*at)->next;
    }
    if (!*at) {
        size_t cap = len + 1 > BLOCK_MIN ? len + 1 : BLOCK_MIN;
        *at = malloc(sizeof(**at) + cap);
        if (!*at) {
            return NULL;
        }
        (*at)->next = NULL;
        (*at)->cap = cap;
        (*at)->used = 0;
    }
    char *t = (*at)->data + (*at)->used;
    memcpy(t, text, len);
    t[len] = '\0';
    (*at)->used += len + 1;
    return t;
}

static struct tui_span *add(struct tui_page *pg, int row, int col, int width, int kind, int style,
                            const char *text, size_t len)
{
    if (pg->failed || width <= 0) {
        return NULL;
    }
    if (pg->n == pg->cap) {
        size_t cap = pg->cap ? 2 * pg->cap : 64;
        struct tui_span *s = realloc(pg->span, cap * sizeof(*s));
        if (!s) {
            pg->failed = 1;
            return NULL;
        }
        pg->span = s;
        pg->cap = cap;
    }
    char *t = copy_text(pg, text, len);
    if (!t) {
        pg->failed = 1;
        return NULL;
    }
    struct tui_span *s = &pg->span[pg->n++];
    *s = (struct tui_span){row, col, width, kind, style, t, 1, 0};
    if (row + 1 > pg->rows) {
        pg->rows = row + 1;
    }
    return s;
}

void tui_page_add(struct tui_page *pg, int row, int col, int width, int kind, int style,
                  const char *text)
{
    add(pg, row, col, width, kind, style, text, strlen(text));
}

void tui_page_text(struct tui_page *pg, int row, int col, int width, int style, const char *text)
{
    add(pg, row, col, width, TUI_SPAN_TEXT, style, text, strlen(text));
}

void tui_page_right(struct tui_page *pg, int row, int col, int width, int style, const char *text)
{
    struct tui_span *s = add(pg, row, col, width, TUI_SPAN_TEXT, style, text, strlen(text));
    if (s) {
        s->flags |= TUI_SPAN_RIGHT;
    }
}

void tui_page_name(struct tui_page *pg, int row, int col, int width, int style, const char *text)
{
    struct tui_span *s = add(pg, row, col, width, TUI_SPAN_TEXT, style, text, strlen(text));
    if (s) {
        s->flags |= TUI_SPAN_MIDDLE;
    }
}

void tui_page_textf(struct tui_page *pg, int row, int col, int width, int style, const char *fmt,
                    ...)
{
    char text[1024];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(text, sizeof(text), fmt, ap);
    va_end(ap);
    tui_page_text(pg, row, col, width, style, text);
}

void tui_page_fill(struct tui_page *pg, int row, int col, int width, int style)
{
    add(pg, row, col, width, TUI_SPAN_FILL, style, "", 0);
}

void tui_page_hline(struct tui_page *pg, int row, int col, int width, int style)
{
    add(pg, row, col, width, TUI_SPAN_HLINE, style, "", 0);
}

void tui_page_glyph(struct tui_page *pg, int row, int col, int style, enum tui_glyph g)
{
    char c = TUI_GLYPH_CELL(g);
    add(pg, row, col, 1, TUI_SPAN_GLYPHS, style, &c, 1);
}

void tui_page_glyphs(struct tui_page *pg, int row, int col, int style, const char *cells, int n)
{
    add(pg, row, col, n, TUI_SPAN_GLYPHS, style, cells, n > 0 ? (size_t)n : 0);
}

void tui_page_table(struct tui_page *pg, int row, int col, int width, int height, const char *empty)
{
    struct tui_span *s = add(pg, row, col, width, TUI_SPAN_TABLE, 0, empty, strlen(empty));
    if (s) {
        s->height = height;
        if (row + height > pg->rows) {
            pg->rows = row + height;
        }
    }
}

/* Append the text of span s (glyph runs in UTF-8) to b; returns its columns. */
static int span_text(const struct tui_span *s, struct iodfg_buf *b)
{
    if (s->kind != TUI_SPAN_GLYPHS) {
        iodfg_buf_addf(b, "%s", s->text);
        return (int)tui_utf8_width(s->text, strlen(s->text));
    }
    for (int i = 0; i < s->width; i++) {
        char c = s->text[i];
        iodfg_buf_addf(b, "%s", c == ' ' ? " " : tui_glyph(TUI_GLYPH_OF_CELL(c), 1));
    }
    return s->width;
}

static int has_text(const struct tui_span *s)
{
    return s->kind == TUI_SPAN_TEXT || s->kind == TUI_SPAN_CHART || s->kind == TUI_SPAN_BAR ||
           s->kind == TUI_SPAN_GLYPHS;
}

char *tui_page_row_text(const struct tui_page *pg, int row, char *buf, size_t size)
{
    struct iodfg_buf b;
    iodfg_buf_init(&b);
    int at = 0; // columns written
    for (;;) {
        // spans of the row in column order (a page has few spans per row)
        const struct tui_span *next = NULL;
        for (size_t i = 0; i < pg->n; i++) {
            const struct tui_span *s = &pg->span[i];
            if (s->row == row && has_text(s) && s->col >= at && (!next || s->col < next->col)) {
                next = s;
            }
        }
        if (!next) {
            break;
        }
        for (; at < next->col; at++) {
            iodfg_buf_add(&b, " ", 1);
        }
        at += span_text(next, &b);
        at = at > next->col ? at : next->col + 1;
    }
    while (b.len && b.data[b.len - 1] == ' ') {
        b.len--;
    }
    snprintf(buf, size, "%.*s", (int)b.len, b.data ? b.data : "");
    iodfg_buf_fini(&b);
    return buf;
}

void tui_viewmodel_init(struct tui_viewmodel *vm)
{
    memset(vm, 0, sizeof(*vm));
    tui_page_init(&vm->page);
    tui_viewmodel_clear(vm);
}

void tui_viewmodel_fini(struct tui_viewmodel *vm)
{
    tui_page_fini(&vm->page);
}

void tui_viewmodel_clear(struct tui_viewmodel *vm)
{
    tui_page_clear(&vm->page);
    vm->top = 0;
    vm->table = NULL;
    vm->cursor_row = vm->cursor_col = -1;
    vm->detail[0] = vm->status[0] = '\0';
    vm->detail_name = 0;
    vm->detail_style = -1;
    vm->status_style = 0;
    vm->status_cursor = -1;
}
