/* SPDX-License-Identifier: MIT */
/* The shared parts of the table views (table_view.h). */
#include "config.h"

#include "tui/views/table_view.h"

#include <stdlib.h>

#include "iodfg/error.h"

#include "tui/app.h"
#include "tui/listmodel.h"
#include "tui/viewmodel.h"

void *tui_table_view_new(size_t size, struct tui_app *app, const struct tui_column *cols, int ncols,
                         const struct tui_list_ops *ops, int sort_col)
{
    struct tui_table_view *tv = calloc(1, size);
    if (!tv) {
        return NULL;
    }
    tv->app = app;
    tv->lm = tui_listmodel_new(cols, ncols, ops, tv);
    if (!tv->lm) {
        free(tv);
        return NULL;
    }
    if (sort_col >= 0) {
        tui_listmodel_sort(tv->lm, sort_col, 0);
    }
    return tv;
}

void tui_table_view_lazy(void *st, enum tui_view v, int (*fill)(void *st))
{
    struct tui_table_view *tv = st;
    tv->view = v;
    tv->fill = fill;
    tv->stale = 1;
}

void tui_table_view_free(void *st, void *rows)
{
    struct tui_table_view *tv = st;
    tui_listmodel_free(tv->lm);
    free(rows);
    free(tv);
}

int tui_table_view_changed(struct tui_app *app, void *st, const struct iodfg_session_change *what)
{
    (void)what;
    struct tui_table_view *tv = st;
    tv->stale = 1;
    return tui_app_current_view(app) == tv->view ? tv->fill(st) : 0;
}

struct tui_listmodel *tui_table_view_table(struct tui_app *app, void *st)
{
    struct tui_table_view *tv = st;
    if (tv->fill && tv->stale && tv->fill(st)) {
        tui_app_set_message(app, 1, "%s: out of memory", tui_view_name(tv->view));
    }
    return tv->lm;
}

struct tui_listmodel *tui_table_view_sorted(struct tui_app *app, void *st)
{
    (void)app;
    return ((struct tui_table_view *)st)->lm;
}

void tui_table_view_render(struct tui_app *app, void *st, const struct tui_render_in *in,
                           struct tui_viewmodel *vm)
{
    vm->table = tui_table_view_table(app, st);
    tui_page_table(&vm->page, 0, 0, in->width, in->height,
                   "nothing to show (check filters and rules)");
}

size_t tui_table_view_detail(struct tui_app *app, void *st, char *buf, size_t size)
{
    return tui_table_detail(tui_table_view_table(app, st), buf, size);
}

int tui_table_view_cursor(const void *st, size_t *row)
{
    const struct tui_table_view *tv = st;
    if (tv->stale || tui_listmodel_count(tv->lm) == 0) {
        return 0;
    }
    *row = tui_listmodel_row(tv->lm, tui_listmodel_cursor(tv->lm));
    return 1;
}

uint32_t tui_table_view_cursor_id(const void *st, const uint32_t *rows)
{
    size_t row;
    return tui_table_view_cursor(st, &row) ? rows[row] : UINT32_MAX;
}

int tui_table_view_export(void *st, const uint32_t *rows, tui_table_export_fn export,
                          struct iodfg_buf *out, struct iodfg_error *err)
{
    struct tui_table_view *tv = st;
    size_t n;
    uint32_t *order = tui_table_ids(tv->lm, rows, &n);
    if (!order) {
        return iodfg_error_set(err, IODFG_E_NOMEM, NULL);
    }
    int rc = export(tv->app, order, n, out, err);
    free(order);
    return rc;
}
