/* SPDX-License-Identifier: MIT */
/* The Handles view (9): every I/O handle of the log's selected cases as a sortable, searchable
 * table over the log's handle table (iodfg/handles.h), its summary and parent chain; Enter
 * filters the analysis to the selected handle's path. */
#include "config.h"

#include "tui/views/handles_view.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "iodfg/buf.h"
#include "iodfg/error.h"
#include "iodfg/eventlog.h"
#include "iodfg/filter.h"
#include "iodfg/format.h"
#include "iodfg/glyph.h"
#include "iodfg/session.h"
#include "iodfg/strpool.h"

#include "tui/app.h"
#include "tui/listmodel.h"
#include "tui/theme.h"
#include "tui/view.h"
#include "tui/viewmodel.h"

#define NUM (TUI_COL_RIGHT | TUI_COL_SORTABLE | TUI_COL_DESC)
#define TXT (TUI_COL_SORTABLE | TUI_COL_SEARCH)

static const struct tui_column handle_cols[TUI_HC__N] = {
    {"!", 2, 0, TUI_COL_SORTABLE | TUI_COL_DESC, "never_closed"},
    {"Id", 5, 5, TUI_COL_RIGHT | TUI_COL_SORTABLE, "id"},
    {"Case", 12, 4, TXT | TUI_COL_FLEX | TUI_COL_NAME, "case"},
    {"pid", 6, 1, TUI_COL_RIGHT | TUI_COL_SORTABLE, "pid"},
    {"fd", 4, 0, TUI_COL_RIGHT | TUI_COL_SORTABLE, "fd"},
    {"Origin", 10, 0, TXT, "origin"},
    {"Layer", 6, 7, TXT, "layer"},
    {"Path", 16, 0, TXT | TUI_COL_FLEX | TUI_COL_NAME, "path"},
    {"Flags", 12, 6, TXT, "flags"},
    {"Created", 8, 2, NUM & ~TUI_COL_DESC, "created_ns"},
    {"Closed", 8, 3, NUM & ~TUI_COL_DESC, "closed_ns"},
    {"Lifetime", 8, 0, NUM, "lifetime_ns"},
    {"Ops", 5, 0, NUM, "ops"},
    {"Read", 8, 1, NUM, "bytes_read"},
    {"Written", 8, 1, NUM, "bytes_written"},
};

static const struct iodfg_handle *handle_of(const struct tui_app *app, uint32_t id)
{
    return &iodfg_eventlog_handles(tui_app_log(app))[id - 1];
}

static const struct iodfg_handle *row_handle(const struct tui_handles_view *hv, size_t row)
{
    return handle_of(hv->table.app, hv->rows[row]);
}

static const char *str(const struct tui_app *app, uint32_t id)
{
    return iodfg_strpool_get(iodfg_eventlog_pool(tui_app_log(app)), id);
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
static const char *rel_time(const struct tui_handles_view *hv, int64_t t, char *buf, size_t size)
{
    return t == IODFG_UNKNOWN ? iodfg_glyph_text("–")
                              : iodfg_format_duration(buf, size, t - hv->t0, 0);
}

/* ---- the table ---- */

static size_t handle_rows(void *ctx)
{
    return ((struct tui_handles_view *)ctx)->nrows;
}

static const char *handle_cell(void *ctx, size_t row, int col, char *buf, size_t size)
{
    struct tui_handles_view *hv = ctx;
    const struct iodfg_handle *h = row_handle(hv, row);
    int64_t life;
    switch (col) {
    case TUI_HC_MARK:
        return never_closed(h) ? "!" : "";
    case TUI_HC_ID:
        snprintf(buf, size, "%" PRIu32, hv->rows[row]);
        return buf;
    case TUI_HC_CASE:
        return tui_app_case_name(hv->table.app, h->case_id);
    case TUI_HC_PID:
        snprintf(buf, size, "%" PRId32, h->pid);
        return buf;
    case TUI_HC_FD:
        if (h->fd == IODFG_NO_FD) {
            return iodfg_glyph_text("–");
        }
        snprintf(buf, size, "%" PRId32, h->fd);
        return buf;
    case TUI_HC_ORIGIN:
        return iodfg_handle_origin_name((enum iodfg_handle_origin)h->origin);
    case TUI_HC_LAYER:
        return h->layer ? str(hv->table.app, h->layer) : IODFG_LAYER_DEFAULT;
    case TUI_HC_PATH:
        return h->path ? str(hv->table.app, h->path) : "?";
    case TUI_HC_FLAGS:
        return str(hv->table.app, h->flags);
    case TUI_HC_CREATED:
        return rel_time(hv, h->created_ns, buf, size);
    case TUI_HC_DESTROYED:
        return rel_time(hv, h->destroyed_ns, buf, size);
    case TUI_HC_LIFETIME:
        life = iodfg_handle_lifetime(h);
        return life == IODFG_UNKNOWN ? iodfg_glyph_text("–")
                                     : iodfg_format_duration(buf, size, life, 0);
    case TUI_HC_OPS:
        return iodfg_format_count(buf, size, h->ops, 0);
    case TUI_HC_READ:
        return h->bytes_read ? iodfg_format_bytes(buf, size, (int64_t)h->bytes_read, 0)
                             : iodfg_glyph_text("–");
    default:
        return h->bytes_written ? iodfg_format_bytes(buf, size, (int64_t)h->bytes_written, 0)
                                : iodfg_glyph_text("–");
    }
}

/* Exported: times in ns from the log's start, lifetime in ns, plain counts and bytes, "" for
 * what the trace does not show (a pre-created or never-closed handle, no descriptor). */
static const char *handle_exact(void *ctx, size_t row, int col, char *buf, size_t size)
{
    struct tui_handles_view *hv = ctx;
    const struct iodfg_handle *h = row_handle(hv, row);
    int64_t v;
    switch (col) {
    case TUI_HC_MARK:
        return never_closed(h) ? "1" : "0";
    case TUI_HC_FD:
        v = h->fd == IODFG_NO_FD ? IODFG_UNKNOWN : h->fd;
        break;
    case TUI_HC_CREATED:
        v = h->created_ns == IODFG_UNKNOWN ? IODFG_UNKNOWN : h->created_ns - hv->t0;
        break;
    case TUI_HC_DESTROYED:
        v = h->destroyed_ns == IODFG_UNKNOWN ? IODFG_UNKNOWN : h->destroyed_ns - hv->t0;
        break;
    case TUI_HC_LIFETIME:
        v = iodfg_handle_lifetime(h);
        break;
    case TUI_HC_OPS:
        v = (int64_t)h->ops;
        break;
    case TUI_HC_READ:
        v = (int64_t)h->bytes_read;
        break;
    case TUI_HC_WRITTEN:
        v = (int64_t)h->bytes_written;
        break;
    default:
        return handle_cell(ctx, row, col, buf, size);
    }
    if (v == IODFG_UNKNOWN) {
        return "";
    }
    snprintf(buf, size, "%" PRId64, v);
    return buf;
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
    struct tui_handles_view *hv = ctx;
    const struct iodfg_handle *x = row_handle(hv, a), *y = row_handle(hv, b);
    switch (col) {
    case TUI_HC_MARK:
        return never_closed(x) - never_closed(y);
    case TUI_HC_ID:
        return cmp_i64(hv->rows[a], hv->rows[b]);
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
    struct tui_handles_view *hv = ctx;
    return col == TUI_HC_MARK && never_closed(row_handle(hv, row)) ? TUI_STYLE_WARNING : -1;
}

/* The handle id: the cursor stays on its handle across sorts and reloads. */
static unsigned long long handle_key(void *ctx, size_t row)
{
    return ((struct tui_handles_view *)ctx)->rows[row];
}

static const struct tui_list_ops handle_ops = {handle_rows,  handle_cell, handle_compare,
                                               handle_style, handle_key,  handle_exact};

/* Refill the rows now: the handles of the cases the filters keep (only the never-closed ones
 * with open_only) and their summary. 0 or -1 (out of memory). */
static int refill(void *st)
{
    struct tui_handles_view *hv = st;
    struct tui_app *app = hv->table.app;
    size_t nh = iodfg_eventlog_handle_count(tui_app_log(app));
    if (!hv->rows) {
        hv->rows = malloc((nh + 1) * sizeof(*hv->rows));
        if (!hv->rows) {
            return -1;
        }
    }
    int have;
    unsigned long long key = tui_listmodel_cursor_key(hv->table.lm, &have);
    const uint8_t *case_on = iodfg_session_filter_result(tui_app_session(app))->case_on;
    hv->nrows = iodfg_handles_select(tui_app_log(app), case_on, hv->open_only, hv->rows, &hv->sum);
    hv->table.stale = 0;
    return tui_listmodel_reload_at(hv->table.lm, have, key);
}

/* ---- the view ---- */

static void *open_handles(struct tui_app *app)
{
    struct tui_handles_view *hv = tui_table_view_new(sizeof(struct tui_handles_view), app,
                                                     handle_cols, TUI_HC__N, &handle_ops, -1);
    if (!hv) {
        return NULL;
    }
    tui_table_view_lazy(hv, TUI_VIEW_HANDLES, refill);
    hv->t0 = iodfg_handles_time_origin(tui_app_log(app));
    return hv;
}

static void close_handles(struct tui_app *app, void *st)
{
    (void)app;
    tui_table_view_free(st, ((struct tui_handles_view *)st)->rows);
}

/* The handle id under the cursor, 0 when none. */
static uint32_t selected(const struct tui_handles_view *hv)
{
    uint32_t id = tui_table_view_cursor_id(hv, hv->rows);
    return id == UINT32_MAX ? 0 : id;
}

uint32_t tui_handles_view_selected(struct tui_app *app)
{
    return selected(tui_app_view_state(app, TUI_VIEW_HANDLES));
}

static unsigned open_only(struct tui_app *app, void *st, enum tui_cmd cmd)
{
    (void)cmd;
    struct tui_handles_view *hv = st;
    hv->open_only = !hv->open_only;
    if (refill(hv)) {
        tui_app_set_message(app, 1, "handles: out of memory");
    }
    return TUI_REDRAW;
}

/* Enter: a filter on the selected handle's path, shown in the Activities view. */
static unsigned filter_path(struct tui_app *app, void *st, enum tui_cmd cmd)
{
    (void)cmd;
    uint32_t id = selected(st);
    if (id == 0) {
        return TUI_PASS;
    }
    const char *path = str(app, handle_of(app, id)->path);
    if (!path[0] || strchr(path, '\n')) {
        tui_app_set_message(app, 1, "filter-path: handle #%u has no path to filter on", id);
        return TUI_REDRAW;
    }
    struct iodfg_buf f;
    iodfg_buf_init(&f);
    iodfg_buf_addf(&f, "path=%s", path);
    struct iodfg_error err;
    iodfg_error_clear(&err);
    int rc = f.failed ? iodfg_error_set(&err, IODFG_E_NOMEM, NULL)
                      : iodfg_filter_stack_push_text(iodfg_session_filters(tui_app_session(app)),
                                                     f.data, &err);
    iodfg_buf_fini(&f);
    if (rc) {
        tui_app_report(app, "filter", &err);
        return TUI_REDRAW;
    }
    tui_app_show(app, TUI_VIEW_ACTIVITIES);
    tui_app_set_message(app, 0, "filtered to the path of handle #%u (Backspace removes it)", id);
    return TUI_CHANGED; // a rebuild's error replaces the message
}

static const struct tui_cmd_entry cmds[] = {
    {TUI_CMD_OPEN_ONLY, open_only},
    {TUI_CMD_FILTER_PATH, filter_path},
};

/* ---- lines ---- */

static void header(const struct tui_handles_view *hv, char *buf, size_t size)
{
    const struct iodfg_handle_summary *s = &hv->sum;
    snprintf(buf, size,
             iodfg_glyph_text("%" PRIu64 " handles: %" PRIu64 " opened, %" PRIu64 " dup, %" PRIu64
                              " pre-created, %" PRIu64 " inherited · ! %" PRIu64 " never closed%s"),
             s->count, s->by_origin[IODFG_HANDLE_OPEN], s->by_origin[IODFG_HANDLE_DUP],
             s->by_origin[IODFG_HANDLE_PRECREATED], s->by_origin[IODFG_HANDLE_INHERITED],
             s->never_closed, hv->open_only ? iodfg_glyph_text(" · never-closed only (o)") : "");
}

void tui_handles_view_header(struct tui_app *app, char *buf, size_t size)
{
    header(tui_app_view_state(app, TUI_VIEW_HANDLES), buf, size);
}

/* Append "#id fd F origin" (and "pid P" when it differs from pid) to buf at *n. */
static void add_handle(const struct tui_app *app, uint32_t id, int32_t pid, char *buf, size_t size,
                       size_t *n)
{
    const struct iodfg_handle *h = handle_of(app, id);
    char fd[16], p[24] = "";
    if (h->fd != IODFG_NO_FD) {
        snprintf(fd, sizeof(fd), "%" PRId32, h->fd);
    } else {
        snprintf(fd, sizeof(fd), "%s", iodfg_glyph(IODFG_GL_NONE));
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

size_t tui_handles_view_detail(struct tui_app *app, uint32_t id, char *buf, size_t size)
{
    if (size == 0) {
        return 0;
    }
    buf[0] = '\0';
    if (id == 0 || id > iodfg_eventlog_handle_count(tui_app_log(app))) {
        return 0;
    }
    const struct iodfg_handle *h = handle_of(app, id);
    // the path first: it is the name, which loses its middle on a narrow line
    int pw = snprintf(buf, size, "%s   ", h->path ? str(app, h->path) : "?");
    size_t n = pw < 0 ? 0 : (size_t)pw < size ? (size_t)pw : size - 1;
    size_t name = n >= 3 ? n - 3 : 0;
    add_handle(app, id, INT32_MIN, buf, size, &n); // its pid always, the parents' when other
    uint32_t chain[16];
    size_t nc = iodfg_handle_chain(tui_app_log(app), id, chain, 16);
    for (size_t i = 0; i < nc; i++) {
        if (n < size) {
            int w = snprintf(buf + n, size - n, iodfg_glyph_text(" ← "));
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
        snprintf(buf + n, size - n, "   %s %s%s", h->call ? str(app, h->call) : "(no call)",
                 str(app, h->flags), mode);
    }
    return name;
}

static size_t detail(struct tui_app *app, void *st, char *buf, size_t size)
{
    uint32_t id = selected(st);
    if (id) {
        return tui_handles_view_detail(app, id, buf, size);
    }
    snprintf(buf, size,
             iodfg_glyph_text("o never-closed only · Enter filters to the path · s sort"));
    return 0;
}

/* The summary above the table. */
static void render(struct tui_app *app, void *st, const struct tui_render_in *in,
                   struct tui_viewmodel *vm)
{
    struct tui_handles_view *hv = st;
    vm->table = tui_table_view_table(app, st); // refills stale rows first
    char head[512];
    header(hv, head, sizeof(head));
    tui_page_text(&vm->page, 0, 1, in->width - 2, TUI_STYLE_DETAIL, head);
    tui_page_table(&vm->page, 1, 0, in->width, in->height - 1,
                   hv->open_only ? "every handle was closed (o shows all)"
                                 : "no handles in the selected cases");
}

const struct tui_view_ops tui_view_handles = {
    .open = open_handles,
    .close = close_handles,
    .changed = tui_table_view_changed,
    .cmds = cmds,
    .ncmds = sizeof(cmds) / sizeof(cmds[0]),
    .render = render,
    .detail = detail,
    .table = tui_table_view_table,
    .sorted = tui_table_view_sorted,
};
