/* SPDX-License-Identifier: MIT */
/* Line editor model: a UTF-8 buffer with a cursor, readline-style editing and a history. */
#include "config.h"

#include "tui/lineedit.h"

#include <stdlib.h>
#include <string.h>

#include "tui/keys.h"
#include "tui/utf8.h"

struct tui_lineedit {
    char *text; /* NUL-terminated */
    size_t len, cap, cursor;
    char **hist;
    size_t nhist, hist_cap;
    size_t hist_pos; /* == nhist when not browsing */
    char *draft;     /* the line being typed before browsing the history */
};

struct tui_lineedit *tui_lineedit_new(size_t history_cap)
{
    struct tui_lineedit *le = calloc(1, sizeof(*le));
    if (!le) {
        return NULL;
    }
    le->hist_cap = history_cap;
    if (tui_lineedit_set(le, "") < 0) {
        tui_lineedit_free(le);
        return NULL;
    }
    return le;
}

void tui_lineedit_free(struct tui_lineedit *le)
{
    if (!le) {
        return;
    }
    for (size_t i = 0; i < le->nhist; i++) {
        free(le->hist[i]);
    }
    free(le->hist);
    free(le->draft);
    free(le->text);
    free(le);
}

static int reserve(struct tui_lineedit *le, size_t len)
{
    if (len + 1 <= le->cap) {
        return 0;
    }
    size_t cap = le->cap ? le->cap : 64;
    while (cap < len + 1) {
        cap *= 2;
    }
    char *t = realloc(le->text, cap);
    if (!t) {
        return -1;
    }
    le->text = t;
    le->cap = cap;
    return 0;
}

/* Replace the text without touching the history position. */
static int replace_text(struct tui_lineedit *le, const char *text)
{
    size_t len = text ? strlen(text) : 0;
    if (reserve(le, len) < 0) {
        return -1;
    }
    if (len) {
        memmove(le->text, text, len);
    }
    le->text[len] = '\0';
    le->len = len;
    le->cursor = len;
    return 0;
}

int tui_lineedit_set(struct tui_lineedit *le, const char *text)
{
    if (replace_text(le, text) < 0) {
        return -1;
    }
    le->hist_pos = le->nhist;
    free(le->draft);
    le->draft = NULL;
    return 0;
}

static enum tui_le_event insert(struct tui_lineedit *le, unsigned cp)
{
    char utf[4];
    size_t n = tui_utf8_encode(cp, utf);
    if (n == 0 || le->len + n > TUI_LINEEDIT_MAX) {
        return TUI_LE_NONE;
    }
    if (reserve(le, le->len + n) < 0) {
        return TUI_LE_ERROR;
    }
    memmove(le->text + le->cursor + n, le->text + le->cursor, le->len - le->cursor + 1);
    memcpy(le->text + le->cursor, utf, n);
    le->len += n;
    le->cursor += n;
    return TUI_LE_CHANGED;
}

/* Delete the bytes [from, to) and put the cursor at from. */
static enum tui_le_event delete_range(struct tui_lineedit *le, size_t from, size_t to)
{
    if (from >= to) {
        return TUI_LE_NONE;
    }
    memmove(le->text + from, le->text + to, le->len - to + 1);
    le->len -= to - from;
    le->cursor = from;
    return TUI_LE_CHANGED;
}

static enum tui_le_event move_to(struct tui_lineedit *le, size_t pos)
{
    if (pos == le->cursor) {
        return TUI_LE_NONE;
    }
    le->cursor = pos;
    return TUI_LE_MOVED;
}

static int is_space(char c)
{
    return c == ' ' || c == '\t';
}

static size_t word_start(const struct tui_lineedit *le)
{
    size_t p = le->cursor;
    while (p > 0 && is_space(le->text[p - 1])) {
        p--;
    }
    while (p > 0 && !is_space(le->text[p - 1])) {
        p--;
    }
    return p;
}

static enum tui_le_event history_move(struct tui_lineedit *le, int dir)
{
    if (dir < 0 && le->hist_pos == 0) {
        return TUI_LE_NONE;
    }
    if (dir > 0 && le->hist_pos >= le->nhist) {
        return TUI_LE_NONE;
    }
    if (le->hist_pos == le->nhist) {
        free(le->draft);
        le->draft = strdup(le->text);
        if (!le->draft) {
            return TUI_LE_ERROR;
        }
    }
    size_t pos = dir < 0 ? le->hist_pos - 1 : le->hist_pos + 1;
    const char *t = pos == le->nhist ? le->draft : le->hist[pos];
    if (replace_text(le, t) < 0) {
        return TUI_LE_ERROR;
    }
    le->hist_pos = pos;
    return TUI_LE_CHANGED;
}

enum tui_le_event tui_lineedit_key(struct tui_lineedit *le, int key)
{
    switch (key) {
    case TUI_KEY_LEFT:
    case TUI_KEY_CTRL('b'):
        return move_to(le, tui_utf8_prev(le->text, le->cursor));
    case TUI_KEY_RIGHT:
    case TUI_KEY_CTRL('f'):
        return move_to(le, tui_utf8_next(le->text, le->len, le->cursor));
    case TUI_KEY_HOME:
    case TUI_KEY_CTRL('a'):
        return move_to(le, 0);
    case TUI_KEY_END:
    case TUI_KEY_CTRL('e'):
        return move_to(le, le->len);
    case TUI_KEY_BACKSPACE:
        return delete_range(le, tui_utf8_prev(le->text, le->cursor), le->cursor);
    case TUI_KEY_DELETE:
    case TUI_KEY_CTRL('d'):
        return delete_range(le, le->cursor, tui_utf8_next(le->text, le->len, le->cursor));
    case TUI_KEY_CTRL('w'):
        return delete_range(le, word_start(le), le->cursor);
    case TUI_KEY_CTRL('u'):
        return delete_range(le, 0, le->cursor);
    case TUI_KEY_CTRL('k'):
        return delete_range(le, le->cursor, le->len);
    case TUI_KEY_UP:
    case TUI_KEY_CTRL('p'):
        return history_move(le, -1);
    case TUI_KEY_DOWN:
    case TUI_KEY_CTRL('n'):
        return history_move(le, +1);
    case TUI_KEY_ENTER:
        if (tui_lineedit_history_add(le, le->text) < 0) {
            return TUI_LE_ERROR;
        }
        le->hist_pos = le->nhist;
        return TUI_LE_ACCEPTED;
    case TUI_KEY_ESC:
    case TUI_KEY_CTRL('g'):
        le->hist_pos = le->nhist;
        return TUI_LE_CANCELLED;
    default:
        break;
    }
    if (key >= 0x20 && key < 0x110000 && key != 0x7f && !(key >= 0x80 && key < 0xa0)) {
        return insert(le, (unsigned)key);
    }
    return TUI_LE_NONE;
}

const char *tui_lineedit_text(const struct tui_lineedit *le)
{
    return le->text;
}

size_t tui_lineedit_len(const struct tui_lineedit *le)
{
    return le->len;
}

size_t tui_lineedit_cursor(const struct tui_lineedit *le)
{
    return le->cursor;
}

size_t tui_lineedit_cursor_col(const struct tui_lineedit *le)
{
    return tui_utf8_width(le->text, le->cursor);
}

int tui_lineedit_history_add(struct tui_lineedit *le, const char *text)
{
    if (le->hist_cap == 0 || !text || !*text ||
        (le->nhist && strcmp(le->hist[le->nhist - 1], text) == 0)) {
        return 0;
    }
    char *copy = strdup(text);
    if (!copy) {
        return -1;
    }
    if (le->nhist == le->hist_cap) {
        free(le->hist[0]);
        memmove(le->hist, le->hist + 1, (le->nhist - 1) * sizeof(*le->hist));
        le->nhist--;
    } else if (!le->hist) {
        le->hist = malloc(le->hist_cap * sizeof(*le->hist));
        if (!le->hist) {
            free(copy);
            return -1;
        }
    }
    le->hist[le->nhist++] = copy;
    le->hist_pos = le->nhist;
    return 0;
}

size_t tui_lineedit_history_count(const struct tui_lineedit *le)
{
    return le->nhist;
}

const char *tui_lineedit_history_get(const struct tui_lineedit *le, size_t i)
{
    return i < le->nhist ? le->hist[i] : NULL;
}
