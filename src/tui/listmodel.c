/* SPDX-License-Identifier: MIT */
/* Sortable table model: a permutation of source rows, a cursor, search and column layout. */
#include "config.h"

#include "tui/listmodel.h"

#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "iodfg/error.h"
#include "iodfg/glyph.h"
#include "iodfg/rules.h"

#define CELL_MAX 512

struct tui_listmodel {
    const struct tui_column *cols;
    int ncols;
    const struct tui_list_ops *ops;
    void *ctx;
    size_t *order; /* position -> source row */
    size_t n, cap;
    int sort_col; /* -1: source order */
    int sort_desc;
    size_t cursor, top, height;
    char *pattern;
    struct iodfg_rules_pattern *rx; /* the pattern compiled (NULL: plain text) */
    char rx_error[320];             /* why it is not a regex */
    size_t search_origin;
    int wrapped; /* the last search move went past an end */
    int hscroll; /* name columns' sideways scroll */
};

struct tui_listmodel *tui_listmodel_new(const struct tui_column *cols, int ncols,
                                        const struct tui_list_ops *ops, void *ctx)
{
    struct tui_listmodel *lm = calloc(1, sizeof(*lm));
    if (!lm) {
        return NULL;
    }
    lm->cols = cols;
    lm->ncols = ncols;
    lm->ops = ops;
    lm->ctx = ctx;
    lm->sort_col = -1;
    lm->height = 1;
    return lm;
}

void tui_listmodel_free(struct tui_listmodel *lm)
{
    if (!lm) {
        return;
    }
    free(lm->order);
    free(lm->pattern);
    iodfg_rules_pattern_free(lm->rx);
    free(lm);
}

static int compare_rows(const struct tui_listmodel *lm, size_t a, size_t b)
{
    int c;
    if (lm->ops->compare) {
        c = lm->ops->compare(lm->ctx, a, b, lm->sort_col);
    } else {
        char ba[CELL_MAX], bb[CELL_MAX];
        c = strcmp(lm->ops->cell(lm->ctx, a, lm->sort_col, ba, sizeof(ba)),
                   lm->ops->cell(lm->ctx, b, lm->sort_col, bb, sizeof(bb)));
    }
    c = c < 0 ? -1 : c > 0;
    return lm->sort_desc ? -c : c;
}

/* Stable bottom-up merge sort of order[] (ties keep source order in both directions). */
static int sort_rows(struct tui_listmodel *lm)
{
    for (size_t i = 0; i < lm->n; i++) {
        lm->order[i] = i;
    }
    if (lm->sort_col < 0 || lm->n < 2) {
        return 0;
    }
    size_t *tmp = malloc(lm->n * sizeof(*tmp));
    if (!tmp) {
        return -1;
    }
    size_t *src = lm->order, *dst = tmp;
    for (size_t w = 1; w < lm->n; w *= 2) {
        for (size_t lo = 0; lo < lm->n; lo += 2 * w) {
            size_t mid = lo + w < lm->n ? lo + w : lm->n;
            size_t hi = lo + 2 * w < lm->n ? lo + 2 * w : lm->n;
            size_t i = lo, j = mid, k = lo;
            while (i < mid && j < hi) {
                dst[k++] = compare_rows(lm, src[j], src[i]) < 0 ? src[j++] : src[i++];
            }
            while (i < mid) {
                dst[k++] = src[i++];
            }
            while (j < hi) {
                dst[k++] = src[j++];
            }
        }
        size_t *t = src;
        src = dst;
        dst = t;
    }
    if (src != lm->order) {
        memcpy(lm->order, src, lm->n * sizeof(*src));
    }
    free(tmp);
    return 0;
}

static void clamp_view(struct tui_listmodel *lm)
{
    if (lm->n == 0) {
        lm->cursor = lm->top = 0;
        return;
    }
    if (lm->cursor >= lm->n) {
        lm->cursor = lm->n - 1;
    }
    size_t h = lm->height ? lm->height : 1;
    if (lm->cursor < lm->top) {
        lm->top = lm->cursor;
    } else if (lm->cursor >= lm->top + h) {
        lm->top = lm->cursor - h + 1;
    }
    // Do not leave empty lines at the bottom when rows could fill them.
    if (lm->n >= h && lm->top > lm->n - h) {
        lm->top = lm->n - h;
    } else if (lm->n < h) {
        lm->top = 0;
    }
}

static int find_key(const struct tui_listmodel *lm, unsigned long long key, size_t *pos)
{
    for (size_t i = 0; i < lm->n; i++) {
        if (lm->ops->row_key(lm->ctx, lm->order[i]) == key) {
            *pos = i;
            return 1;
        }
    }
    return 0;
}

/* Sort the rows and put the cursor back on the item of key (when have_key). */
static int sort_at(struct tui_listmodel *lm, int have_key, unsigned long long key)
{
    if (sort_rows(lm) < 0) {
        return -1;
    }
    size_t pos;
    if (have_key && find_key(lm, key, &pos)) {
        lm->cursor = pos;
    }
    clamp_view(lm);
    return 0;
}

/* Re-sort keeping the cursor on its item. */
static int resort(struct tui_listmodel *lm)
{
    int have_key;
    unsigned long long key = tui_listmodel_cursor_key(lm, &have_key);
    return sort_at(lm, have_key, key);
}

unsigned long long tui_listmodel_cursor_key(const struct tui_listmodel *lm, int *have)
{
    *have = lm->ops->row_key && lm->cursor < lm->n;
    return *have ? lm->ops->row_key(lm->ctx, lm->order[lm->cursor]) : 0;
}

int tui_listmodel_reload(struct tui_listmodel *lm)
{
    int have_key;
    unsigned long long key = tui_listmodel_cursor_key(lm, &have_key);
    return tui_listmodel_reload_at(lm, have_key, key);
}

int tui_listmodel_reload_at(struct tui_listmodel *lm, int have_key, unsigned long long key)
{
    size_t n = lm->ops->rows(lm->ctx);
    if (n > lm->cap) {
        size_t *o = realloc(lm->order, n * sizeof(*o));
        if (!o) {
            return -1;
        }
        lm->order = o;
        lm->cap = n;
    }
    lm->n = n;
    return sort_at(lm, have_key, key);
}

size_t tui_listmodel_count(const struct tui_listmodel *lm)
{
    return lm->n;
}

size_t tui_listmodel_row(const struct tui_listmodel *lm, size_t i)
{
    return i < lm->n ? lm->order[i] : 0;
}

int tui_listmodel_ncols(const struct tui_listmodel *lm)
{
    return lm->ncols;
}

const struct tui_column *tui_listmodel_column(const struct tui_listmodel *lm, int col)
{
    return col >= 0 && col < lm->ncols ? &lm->cols[col] : NULL;
}

const char *tui_listmodel_cell(const struct tui_listmodel *lm, size_t i, int col, char *buf,
                               size_t size)
{
    if (size) {
        buf[0] = '\0';
    }
    if (i >= lm->n || col < 0 || col >= lm->ncols) {
        return buf;
    }
    const char *s = lm->ops->cell(lm->ctx, lm->order[i], col, buf, size);
    return s ? s : "";
}

const char *tui_listmodel_exact_cell(const struct tui_listmodel *lm, size_t i, int col, char *buf,
                                     size_t size)
{
    if (!lm->ops->exact_cell || i >= lm->n || col < 0 || col >= lm->ncols) {
        return tui_listmodel_cell(lm, i, col, buf, size);
    }
    const char *s = lm->ops->exact_cell(lm->ctx, lm->order[i], col, buf, size);
    return s ? s : "";
}

int tui_listmodel_cell_style(const struct tui_listmodel *lm, size_t i, int col)
{
    if (!lm->ops->cell_style || i >= lm->n) {
        return -1;
    }
    return lm->ops->cell_style(lm->ctx, lm->order[i], col);
}

int tui_listmodel_sort(struct tui_listmodel *lm, int col, int reverse)
{
    if (col >= lm->ncols || (col >= 0 && !(lm->cols[col].flags & TUI_COL_SORTABLE))) {
        return -1;
    }
    lm->sort_col = col;
    int desc = col >= 0 && (lm->cols[col].flags & TUI_COL_DESC);
    lm->sort_desc = reverse ? !desc : desc;
    return resort(lm);
}

int tui_listmodel_sort_next(struct tui_listmodel *lm)
{
    for (int step = 1; step <= lm->ncols; step++) {
        int c = (lm->sort_col + step) % lm->ncols;
        if (c < 0) {
            c += lm->ncols;
        }
        if (lm->cols[c].flags & TUI_COL_SORTABLE) {
            tui_listmodel_sort(lm, c, 0);
            return c;
        }
    }
    return lm->sort_col;
}

void tui_listmodel_sort_reverse(struct tui_listmodel *lm)
{
    if (lm->sort_col < 0) {
        return;
    }
    lm->sort_desc = !lm->sort_desc;
    resort(lm);
}

int tui_listmodel_sort_column(const struct tui_listmodel *lm, int *desc)
{
    if (desc) {
        *desc = lm->sort_desc;
    }
    return lm->sort_col;
}

size_t tui_listmodel_cursor(const struct tui_listmodel *lm)
{
    return lm->cursor;
}

void tui_listmodel_set_cursor(struct tui_listmodel *lm, size_t i)
{
    lm->cursor = i;
    clamp_view(lm);
}

void tui_listmodel_move(struct tui_listmodel *lm, long delta)
{
    if (delta < 0 && (size_t)-delta > lm->cursor) {
        lm->cursor = 0;
    } else {
        lm->cursor = (size_t)((long)lm->cursor + delta);
    }
    clamp_view(lm);
}

void tui_listmodel_page(struct tui_listmodel *lm, int dir)
{
    size_t h = lm->height > 1 ? lm->height - 1 : 1;
    if (dir > 0) {
        lm->top += h;
        lm->cursor += h;
    } else {
        lm->top = lm->top > h ? lm->top - h : 0;
        lm->cursor = lm->cursor > h ? lm->cursor - h : 0;
    }
    clamp_view(lm);
}

void tui_listmodel_first(struct tui_listmodel *lm)
{
    lm->cursor = 0;
    clamp_view(lm);
}

void tui_listmodel_last(struct tui_listmodel *lm)
{
    lm->cursor = lm->n ? lm->n - 1 : 0;
    clamp_view(lm);
}

void tui_listmodel_set_height(struct tui_listmodel *lm, size_t height)
{
    lm->height = height ? height : 1;
    clamp_view(lm);
}

size_t tui_listmodel_top(const struct tui_listmodel *lm)
{
    return lm->top;
}

/* ---- search ------------------------------------------------------------------------------- */

static int contains_ci(const char *hay, const char *needle)
{
    size_t nl = strlen(needle);
    for (const char *h = hay; *h; h++) {
        size_t i = 0;
        while (i < nl && h[i] &&
               tolower((unsigned char)h[i]) == tolower((unsigned char)needle[i])) {
            i++;
        }
        if (i == nl) {
            return 1;
        }
    }
    return nl == 0;
}

/* Does one cell match the search: the regex, else the text as it is. */
static int cell_matches(const struct tui_listmodel *lm, const char *cell)
{
    if (lm->rx) {
        return iodfg_rules_pattern_match(lm->rx, cell, strlen(cell)) == 1;
    }
    return contains_ci(cell, lm->pattern);
}

int tui_listmodel_matches(const struct tui_listmodel *lm, size_t i)
{
    if (!lm->pattern || !lm->pattern[0] || i >= lm->n) {
        return 0;
    }
    int any_flag = 0;
    for (int c = 0; c < lm->ncols; c++) {
        any_flag |= (lm->cols[c].flags & TUI_COL_SEARCH) != 0;
    }
    for (int c = 0; c < lm->ncols; c++) {
        if (any_flag && !(lm->cols[c].flags & TUI_COL_SEARCH)) {
            continue;
        }
        char buf[CELL_MAX];
        if (cell_matches(lm, tui_listmodel_cell(lm, i, c, buf, sizeof(buf)))) {
            return 1;
        }
    }
    return 0;
}

/* Select the first match found walking from start in direction dir (wrapping past an end:
 * wrapped says so). */
static int find_from(struct tui_listmodel *lm, size_t start, int dir)
{
    lm->wrapped = 0;
    for (size_t k = 0; k < lm->n; k++) {
        size_t i = dir > 0 ? (start + k) % lm->n : (start + lm->n - k % lm->n) % lm->n;
        if (tui_listmodel_matches(lm, i)) {
            lm->wrapped = dir > 0 ? i < start : i > start;
            lm->cursor = i;
            clamp_view(lm);
            return 1;
        }
    }
    return 0;
}

void tui_listmodel_search_begin(struct tui_listmodel *lm)
{
    lm->search_origin = lm->cursor;
}

int tui_listmodel_search_set(struct tui_listmodel *lm, const char *pattern)
{
    char *p = strdup(pattern ? pattern : "");
    if (!p) {
        return -1;
    }
    free(lm->pattern);
    lm->pattern = p;
    iodfg_rules_pattern_free(lm->rx);
    lm->rx = NULL;
    lm->rx_error[0] = '\0';
    lm->wrapped = 0;
    if (p[0]) {
        struct iodfg_error err;
        iodfg_error_clear(&err);
        lm->rx = iodfg_rules_pattern_new(p, strlen(p), 1, &err);
        if (!lm->rx && err.code == IODFG_E_NOMEM) {
            return -1;
        }
        if (!lm->rx) {
            snprintf(lm->rx_error, sizeof(lm->rx_error), "%s at column %lu", err.msg, err.col);
        }
    }
    if (!p[0] || lm->n == 0) {
        lm->cursor = lm->search_origin;
        clamp_view(lm);
        return 0;
    }
    return find_from(lm, lm->search_origin < lm->n ? lm->search_origin : 0, +1);
}

int tui_listmodel_search_next(struct tui_listmodel *lm, int dir)
{
    if (!lm->pattern || !lm->pattern[0] || lm->n == 0) {
        return 0;
    }
    size_t start = dir > 0 ? (lm->cursor + 1) % lm->n : (lm->cursor + lm->n - 1) % lm->n;
    int found = find_from(lm, start, dir);
    // moving on from the last row (or back from the first) is a wrap too
    lm->wrapped |= found && (dir > 0 ? start == 0 && lm->n > 1 : start == lm->n - 1 && lm->n > 1);
    return found;
}

const char *tui_listmodel_search_pattern(const struct tui_listmodel *lm)
{
    return lm->pattern ? lm->pattern : "";
}

const char *tui_listmodel_search_error(const struct tui_listmodel *lm)
{
    return lm->rx_error[0] ? lm->rx_error : NULL;
}

int tui_listmodel_search_wrapped(const struct tui_listmodel *lm)
{
    return lm->wrapped;
}

/* ---- names -------------------------------------------------------------------------------- */

int tui_listmodel_hscroll(const struct tui_listmodel *lm)
{
    return lm->hscroll;
}

void tui_listmodel_set_hscroll(struct tui_listmodel *lm, int cols)
{
    lm->hscroll = cols > 0 ? cols : 0;
}

const char *tui_listmodel_name(const struct tui_listmodel *lm, size_t i, char *buf, size_t size)
{
    size_t used = 0;
    buf[0] = '\0';
    for (int c = 0; c < lm->ncols && used < size; c++) {
        if (!(lm->cols[c].flags & TUI_COL_NAME)) {
            continue;
        }
        char cell[CELL_MAX];
        int n = snprintf(buf + used, size - used, "%s%s", used ? iodfg_glyph_text(" → ") : "",
                         tui_listmodel_cell(lm, i, c, cell, sizeof(cell)));
        used += n > 0 ? (size_t)n : 0;
    }
    return buf;
}

/* ---- layout ------------------------------------------------------------------------------- */

int tui_listmodel_layout(const struct tui_listmodel *lm, int width, int sep, int *widths)
{
    int shown = 0, total = 0;
    for (int c = 0; c < lm->ncols; c++) {
        widths[c] = lm->cols[c].width > 0 ? lm->cols[c].width : 1;
        total += widths[c] + (shown ? sep : 0);
        shown++;
    }
    while (total > width) {
        int drop = -1;
        for (int c = 0; c < lm->ncols; c++) {
            if (widths[c] && lm->cols[c].priority > 0 &&
                (drop < 0 || lm->cols[c].priority >= lm->cols[drop].priority)) {
                drop = c;
            }
        }
        if (drop < 0) {
            break;
        }
        total -= widths[drop] + (shown > 1 ? sep : 0);
        widths[drop] = 0;
        shown--;
    }
    int nflex = 0;
    for (int c = 0; c < lm->ncols; c++) {
        nflex += widths[c] && (lm->cols[c].flags & TUI_COL_FLEX);
    }
    int spare = total < width ? width - total : 0, k = 0;
    for (int c = 0; c < lm->ncols && nflex; c++) {
        if (widths[c] && (lm->cols[c].flags & TUI_COL_FLEX)) { // the first gets the remainder
            widths[c] += spare / nflex + (k++ == 0 ? spare % nflex : 0);
        }
    }
    return shown;
}
