/* SPDX-License-Identifier: MIT */
/* The Offsets view's grid: each read or write at a known or inferred offset marks the cell of
 * its start and offset (unknown offsets are no points: never drawn); a cell says which cases,
 * which directions, where its offsets came from and whether it holds a write of bytes another
 * case writes too. */
#include "config.h"

#include "tui/theme.h"
#include "tui/views/offsets/offsets_view.h"

/* The first point at or after i (of row r from i on) that is not of row r or starts at or after
 * t. */
static size_t first_at(const struct iodfg_offsetmap *om, size_t i, uint32_t r, int64_t t)
{
    size_t hi = om->npoints;
    while (i < hi) {
        size_t mid = i + (hi - i) / 2;
        const struct iodfg_offset_point *p = &om->points[mid];
        if (p->row < r || (p->row == r && p->start_ns < t)) {
            i = mid + 1;
        } else {
            hi = mid;
        }
    }
    return i;
}

/* Mark the cells of points [a, b) (all in the window's time). */
static void mark(const struct iodfg_offsetmap *om, size_t a, size_t b, int ncols, int nrows,
                 int64_t row_bytes, int64_t from, int64_t to, uint32_t cursor,
                 struct tui_offsets_cell *cells, uint64_t *outside)
{
    for (size_t i = a; i < b; i++) {
        const struct iodfg_offset_point *p = &om->points[i];
        if (p->offset < 0 || p->offset / row_bytes >= nrows) {
            (*outside)++;
            continue;
        }
        struct tui_offsets_cell *c = &cells[(size_t)(p->offset / row_bytes) * (size_t)ncols +
                                            (size_t)tui_picture_col(p->start_ns, from, to, ncols)];
        if (c->row == UINT32_MAX) {
            c->row = p->row;
        } else if (c->row != p->row) {
            c->flags |= TUI_OM_CASES;
        }
        c->flags |= (p->write ? TUI_OM_WRITE : TUI_OM_READ) |
                    (p->source == IODFG_OFFSET_KNOWN ? TUI_OM_KNOWN : TUI_OM_INFERRED) |
                    (p->overlap ? TUI_OM_OVERLAP : 0) | (p->row == cursor ? TUI_OM_CURSOR : 0);
    }
}

void tui_offsets_grid(const struct iodfg_offsetmap *om, int64_t from, int64_t to, int ncols,
                      int nrows, int64_t row_bytes, uint32_t cursor, struct tui_offsets_cell *cells,
                      uint64_t *outside)
{
    size_t n = (size_t)ncols * (size_t)nrows;
    for (size_t i = 0; i < n; i++) {
        cells[i] = (struct tui_offsets_cell){UINT32_MAX, 0};
    }
    *outside = 0;
    if (ncols <= 0 || nrows <= 0 || row_bytes <= 0 || to <= from) {
        *outside = om->npoints;
        return;
    }
    // the points are by case row, each row's in time order: only the window's are visited
    size_t lo = 0;
    while (lo < om->npoints) {
        uint32_t r = om->points[lo].row;
        size_t a = first_at(om, lo, r, from), b = first_at(om, a, r, to);
        size_t end = first_at(om, b, r, INT64_MAX);
        *outside += (a - lo) + (end - b);
        mark(om, a, b, ncols, nrows, row_bytes, from, to, cursor, cells, outside);
        lo = end;
    }
}

int64_t tui_offsets_row_bytes(int64_t extent, int nrows)
{
    return iodfg_picture_step_pow2(extent > 0 ? extent : 1, nrows > 0 ? nrows : 1);
}

char tui_offsets_case_symbol(uint32_t r)
{
    static const char sym[] = "0123456789abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ";
    return sym[r % (sizeof(sym) - 1)];
}

int tui_offsets_case_style(uint32_t r)
{
    static const int st[] = {TUI_STYLE_MARK_1, TUI_STYLE_MARK_2, TUI_STYLE_MARK_3,
                             TUI_STYLE_MARK_4, TUI_STYLE_MARK_5, TUI_STYLE_MARK_6};
    return st[r % (sizeof(st) / sizeof(st[0]))];
}

char tui_offsets_cell_char(const struct tui_offsets_cell *c, int by_rw)
{
    if (c->row == UINT32_MAX) {
        return ' ';
    }
    int inferred = !(c->flags & TUI_OM_KNOWN); // every mark of the cell inferred
    if (by_rw) {
        int w = c->flags & TUI_OM_WRITE, r = c->flags & TUI_OM_READ;
        return w && r ? '*' : w ? (inferred ? 'w' : 'W') : (inferred ? 'r' : 'R');
    }
    return c->flags & TUI_OM_CASES ? '*' : tui_offsets_case_symbol(c->row);
}

int tui_offsets_cell_style(const struct tui_offsets_cell *c, int by_rw)
{
    if (c->flags & TUI_OM_OVERLAP) {
        return TUI_STYLE_WARNING;
    }
    if (c->flags & TUI_OM_CURSOR) {
        return TUI_STYLE_SEARCH_MATCH;
    }
    if (!(c->flags & TUI_OM_KNOWN)) {
        return TUI_STYLE_DIM;
    }
    if (by_rw) {
        return c->flags & TUI_OM_WRITE ? TUI_STYLE_MARK_WRITE : TUI_STYLE_MARK_READ;
    }
    return c->flags & TUI_OM_CASES ? TUI_STYLE_NORMAL : tui_offsets_case_style(c->row);
}
