/* SPDX-License-Identifier: MIT */
/* The Handles view (9): every I/O handle of the log's selected cases as a sortable, searchable
 * table over the log's handle table (iodfg/handles.h), its summary and parent chain. */
#include "config.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "iodfg/eventlog.h"
#include "iodfg/format.h"
#include "iodfg/handles.h"
#include "iodfg/strpool.h"

#include "tui/app.h"
#include "tui/listmodel.h"
#include "tui/theme.h"
#include "tui/views.h"

#define NUM (TUI_COL_RIGHT | TUI_COL_SORTABLE | TUI_COL_DESC)
#define TXT (TUI_COL_SORTABLE | TUI_COL_SEARCH)

static const struct tui_column handle_cols[TUI_HC__N] = {
    {"!", 2, 0, TUI_COL_SORTABLE | TUI_COL_DESC},
    {"Id", 5, 5, TUI_COL_RIGHT | TUI_COL_SORTABLE},
    {"Case", 12, 4, TXT},
    {"pid", 6, 1, TUI_COL_RIGHT | TUI_COL_SORTABLE},
    {"fd", 4, 0, TUI_COL_RIGHT | TUI_COL_SORTABLE},
    {"Origin", 10, 0, TXT},
    {"Layer", 6, 7, TXT},
    {"Path", 16, 0, TXT | TUI_COL_FLEX},
    {"Flags", 12, 6, TXT},
    {"Created", 8, 2, NUM & ~TUI_COL_DESC},
    {"Closed", 8, 3, NUM & ~TUI_COL_DESC},
    {"Lifetime", 8, 0, NUM},
    {"Ops", 5, 0, NUM},
    {"Read", 8, 1, NUM},
    {"Written", 8, 1, NUM},
};

static const struct iodfg_handle *handle_of(const struct tui_app *app, uint32_t id)
{
    return &iodfg_eventlog_handles(app->log)[id - 1];
}

static const struct iodfg_handle *row_handle(const struct tui_app *app, size_t row)
{
    return handle_of(app, app->handle_rows[row]);
}

static const char *str(const struct tui_app *app, uint32_t id)
{
    return iodfg_strpool_get(iodfg_eventlog_pool(app->log), id);
}

static int never_closed(const struct iodfg_handle *h)
{
    return h->destroyed_ns == IODFG_UNKNOWN;
}

static int cmp_i64(int64_t a, int64_t b)
{
    return (a > b) - (a < b);
}

/* A time relative to the log start: "–" when not in the trace. */
static const char *rel_time(const struct tui_app *app, int64_t t, char *buf, size_t size)
{
    return t == IODFG_UNKNOWN ? "–" : iodfg_format_duration(buf, size, t - app->handles_t0, 0);
}

static int reload_old; // set while the list model asks for the key of the old cursor row

static size_t handle_rows(void *ctx)
{
    reload_old = 0;
    return ((struct tui_app *)ctx)->nhandle_rows;
}

static const char *handle_cell(void *ctx, size_t row, int col, char *buf, size_t size)
{
    struct tui_app *app = ctx;
    const struct iodfg_handle *h = row_handle(app, row);
    int64_t life;
    switch (col) {
    case TUI_HC_MARK:
        return never_closed(h) ? "!" : "";
    case TUI_HC_ID:
        snprintf(buf, size, "%" PRIu32, app->handle_rows[row]);
        return buf;
    case TUI_HC_CASE:
        return tui_app_case_name(app, h->case_id);
    case TUI_HC_PID:
        snprintf(buf, size, "%" PRId32, h->pid);
        return buf;
    case TUI_HC_FD:
        if (h->fd == IODFG_NO_FD) {
            return "–";
        }
        snprintf(buf, size, "%" PRId32, h->fd);
        return buf;
    case TUI_HC_ORIGIN:
        return iodfg_handle_origin_name((enum iodfg_handle_origin)h->origin);
    case TUI_HC_LAYER:
        return h->layer ? str(app, h->layer) : IODFG_LAYER_DEFAULT;
    case TUI_HC_PATH:
        return h->path ? str(app, h->path) : "?";
    case TUI_HC_FLAGS:
        return str(app, h->flags);
    case TUI_HC_CREATED:
        return rel_time(app, h->created_ns, buf, size);
    case TUI_HC_DESTROYED:
        return rel_time(app, h->destroyed_ns, buf, size);
    case TUI_HC_LIFETIME:
        life = iodfg_handle_lifetime(h);
        return life == IODFG_UNKNOWN ? "–" : iodfg_format_duration(buf, size, life, 0);
    case TUI_HC_OPS:
        return iodfg_format_count(buf, size, h->ops, 0);
    case TUI_HC_READ:
        return h->bytes_read ? iodfg_format_bytes(buf, size, (int64_t)h->bytes_read, 0) : "–";
    default:
        return h->bytes_written ? iodfg_format_bytes(buf, size, (int64_t)h->bytes_written, 0) : "–";
    }
}

/* Sort key of a time column: pre-created handles first, never-closed ones last. */
static int64_t time_key(const struct iodfg_handle *h, int col)
{
    if (col == TUI_HC_CREATED) {
        return h->created_ns; // IODFG_UNKNOWN is INT64_MIN
    }
    if (col == TUI_HC_DESTROYED) {
        return never_closed(h) ? INT64_MAX : h->destroyed_ns;
    }
    int64_t life = iodfg_handle_lifetime(h);
    return life == IODFG_UNKNOWN ? -1 : life;
}

static int handle_compare(void *ctx, size_t a, size_t b, int col)
{
    struct tui_app *app = ctx;
    const struct iodfg_handle *x = row_handle(app, a), *y = row_handle(app, b);
    switch (col) {
    case TUI_HC_MARK:
        return never_closed(x) - never_closed(y);
    case TUI_HC_ID:
        return cmp_i64(app->handle_rows[a], app->handle_rows[b]);
    case TUI_HC_PID:
        return cmp_i64(x->pid, y->pid);
    case TUI_HC_FD:
        return cmp_i64(x->fd, y->fd);
    case TUI_HC_CREATED:
    case TUI_HC_DESTROYED:
    case TUI_HC_LIFETIME:
        return cmp_i64(time_key(x, col), time_key(y, col));
    case TUI_HC_OPS:
        return (x->ops > y->ops) - (x->ops < y->ops);
    case TUI_HC_READ:
        return (x->bytes_read > y->bytes_read) - (x->bytes_read < y->bytes_read);
    case TUI_HC_WRITTEN:
        return (x->bytes_written > y->bytes_written) - (x->bytes_written < y->bytes_written);
    default: {
        char bx[64], by[64];
        return strcmp(handle_cell(ctx, a, col, bx, sizeof(bx)),
                      handle_cell(ctx, b, col, by, sizeof(by)));
    }
    }
}

static int handle_style(void *ctx, size_t row, int col)
{
    struct tui_app *app = ctx;
    return col == TUI_HC_MARK && never_closed(row_handle(app, row)) ? TUI_STYLE_WARNING : -1;
}

/* The handle id: the cursor stays on its handle across sorts and reloads. */
static unsigned long long handle_key(void *ctx, size_t row)
{
    struct tui_app *app = ctx;
    return app->handle_rows[reload_old ? iodfg_eventlog_handle_count(app->log) + row : row];
}

static const struct tui_list_ops handle_ops = {handle_rows, handle_cell, handle_compare,
                                               handle_style, handle_key};

int tui_views_handles_init(struct tui_app *app)
{
    app->lm[TUI_VIEW_HANDLES] = tui_listmodel_new(handle_cols, TUI_HC__N, &handle_ops, app);
    app->handles_t0 = iodfg_handles_time_origin(app->log);
    app->handles_stale = 1;
    return app->lm[TUI_VIEW_HANDLES] ? 0 : -1;
}

int tui_views_handles_reload(struct tui_app *app)
{
    size_t nh = iodfg_eventlog_handle_count(app->log);
    if (!app->handle_rows) {
        // the new rows, then a copy of the old ones (handle_key reads them during the reload)
        app->handle_rows = malloc((2 * nh + 1) * sizeof(*app->handle_rows));
        if (!app->handle_rows) {
            return -1;
        }
    }
    memcpy(app->handle_rows + nh, app->handle_rows, app->nhandle_rows * sizeof(uint32_t));
    app->nhandle_rows =
        iodfg_handles_select(app->log, iodfg_session_filter_result(app->ses)->case_on,
                             app->handles_open_only, app->handle_rows, &app->handles_sum);
    app->handles_stale = 0;
    reload_old = 1;
    int rc = tui_listmodel_reload(app->lm[TUI_VIEW_HANDLES]);
    reload_old = 0;
    return rc;
}

uint32_t tui_views_handle_selected(struct tui_app *app)
{
    struct tui_listmodel *lm = app->lm[TUI_VIEW_HANDLES];
    if (!lm || app->handles_stale || tui_listmodel_count(lm) == 0) {
        return 0;
    }
    return app->handle_rows[tui_listmodel_row(lm, tui_listmodel_cursor(lm))];
}

void tui_views_handles_header(const struct tui_app *app, char *buf, size_t size)
{
    const struct iodfg_handle_summary *s = &app->handles_sum;
    snprintf(buf, size,
             "%" PRIu64 " handles: %" PRIu64 " opened, %" PRIu64 " dup, %" PRIu64
             " pre-created, %" PRIu64 " inherited · ! %" PRIu64 " never closed%s",
             s->count, s->by_origin[IODFG_HANDLE_OPEN], s->by_origin[IODFG_HANDLE_DUP],
             s->by_origin[IODFG_HANDLE_PRECREATED], s->by_origin[IODFG_HANDLE_INHERITED],
             s->never_closed, app->handles_open_only ? " · never-closed only (o)" : "");
}

/* Append "#id fd F origin" (and "pid P" when it differs from pid) to buf at *n. */
static void add_handle(const struct tui_app *app, uint32_t id, int32_t pid, char *buf, size_t size,
                       size_t *n)
{
    const struct iodfg_handle *h = handle_of(app, id);
    char fd[16] = "–", p[24] = "";
    if (h->fd != IODFG_NO_FD) {
        snprintf(fd, sizeof(fd), "%" PRId32, h->fd);
    }
    if (h->pid != pid) {
        snprintf(p, sizeof(p), " pid %" PRId32, h->pid);
    }
    if (*n < size) {
        int w = snprintf(buf + *n, size - *n, "#%" PRIu32 " fd %s%s %s", id, fd, p,
                         iodfg_handle_origin_name((enum iodfg_handle_origin)h->origin));
        *n = w < 0 ? size : *n + (size_t)w;
    }
}

void tui_views_handle_detail(const struct tui_app *app, uint32_t id, char *buf, size_t size)
{
    if (size == 0) {
        return;
    }
    buf[0] = '\0';
    if (id == 0 || id > iodfg_eventlog_handle_count(app->log)) {
        return;
    }
    const struct iodfg_handle *h = handle_of(app, id);
    size_t n = 0;
    add_handle(app, id, INT32_MIN, buf, size, &n); // its pid always, the parents' when other
    uint32_t chain[16];
    size_t nc = iodfg_handle_chain(app->log, id, chain, 16);
    for (size_t i = 0; i < nc; i++) {
        if (n < size) {
            int w = snprintf(buf + n, size - n, " ← ");
            n = w < 0 ? size : n + (size_t)w;
        }
        add_handle(app, chain[i], h->pid, buf, size, &n);
    }
    if (nc == 0 && n < size) {
        int w = snprintf(buf + n, size - n, " (no parent)");
        n = w < 0 ? size : n + (size_t)w;
    }
    char mode[24] = "";
    if (h->mode != IODFG_UNKNOWN) {
        snprintf(mode, sizeof(mode), " mode 0%03llo", (unsigned long long)h->mode);
    }
    if (n < size) {
        snprintf(buf + n, size - n, "   %s %s%s   %s", h->call ? str(app, h->call) : "(no call)",
                 str(app, h->flags), mode, h->path ? str(app, h->path) : "?");
    }
}
