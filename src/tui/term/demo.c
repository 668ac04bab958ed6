/* SPDX-License-Identifier: MIT */
/* tui-demo: the frame, table widget, keymap, themes and line editor on made-up rows, so the
 * curses layer can be checked by hand or in tmux (tests/tui/demo.sh) before the views exist. */
#include "config.h"

#include <locale.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "iodfg/buf.h"
#include "iodfg/diff.h"
#include "iodfg/error.h"

#include "tui/keymap.h"
#include "tui/keys.h"
#include "tui/lineedit.h"
#include "tui/listmodel.h"
#include "tui/term/screen.h"
#include "tui/theme.h"

struct row {
    const char *name;
    long count, cases;
    double dur_ms;
    int mark; /* 0 =, 1 G+, 2 R+ */
};

static const struct row demo_rows[] = {
    {"write:/scratch/ssf", 48, 4, 412.9, 0},
    {"write:/scratch/fpp", 48, 4, 131.7, 0},
    {"openat:/scratch/ssf", 8, 4, 96.3, 1},
    {"openat:/scratch/fpp", 8, 4, 12.0, 2},
    {"read:/usr/lib", 760, 8, 48.0, 0},
    {"lseek:/scratch/ssf", 96, 4, 11.5, 0},
    {"openat:/tmp/\x1b[31mevil\x1b[0m", 3, 1, 0.4, 1},
    {"stat:/home/caf\xc3\xa9/\xe6\x97\xa5\xe8\xa8\x98", 12, 2, 0.9, 0},
    {"read:/proc/self/\xff\xfe", 5, 1, 0.1, 2},
    {"close:/scratch/ssf", 8, 4, 0.8, 0},
    {"fstat:/scratch/ssf", 8, 4, 0.3, 0},
    {"mmap:/usr/lib/x86_64-linux-gnu/libc.so.6", 40, 8, 2.2, 0},
    {"write:/dev/pts/0", 17, 3, 0.6, 0},
    {"getdents64:/scratch", 4, 2, 0.2, 1},
};
#define NROWS (sizeof(demo_rows) / sizeof(demo_rows[0]))

enum { C_MARK, C_NAME, C_COUNT, C_CASES, C_DUR };
static const struct tui_column demo_cols[] = {
    {"G/R", 3, 0, 0, NULL},
    {"Activity", 24, 0, TUI_COL_SORTABLE | TUI_COL_SEARCH | TUI_COL_FLEX, NULL},
    {"Count", 8, 0, TUI_COL_RIGHT | TUI_COL_SORTABLE | TUI_COL_DESC, NULL},
    {"Cases", 7, 2, TUI_COL_RIGHT | TUI_COL_SORTABLE | TUI_COL_DESC, NULL},
    {"Sdur", 11, 1, TUI_COL_RIGHT | TUI_COL_SORTABLE | TUI_COL_DESC, NULL},
};

static size_t demo_nrows(void *ctx)
{
    (void)ctx;
    return NROWS;
}

static const char *demo_cell(void *ctx, size_t row, int col, char *buf, size_t size)
{
    (void)ctx;
    const struct row *r = &demo_rows[row];
    switch (col) {
    case C_MARK:
        return iodfg_diff_side_mark(r->mark == 1   ? IODFG_DIFF_G_ONLY
                                    : r->mark == 2 ? IODFG_DIFF_R_ONLY
                                                   : IODFG_DIFF_BOTH);
    case C_NAME:
        return r->name;
    case C_COUNT:
        snprintf(buf, size, "%ld", r->count);
        return buf;
    case C_CASES:
        snprintf(buf, size, "%ld", r->cases);
        return buf;
    default:
        snprintf(buf, size, "%.1fms", r->dur_ms);
        return buf;
    }
}

static int demo_compare(void *ctx, size_t a, size_t b, int col)
{
    (void)ctx;
    const struct row *x = &demo_rows[a], *y = &demo_rows[b];
    switch (col) {
    case C_NAME:
        return strcmp(x->name, y->name);
    case C_COUNT:
        return (x->count > y->count) - (x->count < y->count);
    case C_CASES:
        return (x->cases > y->cases) - (x->cases < y->cases);
    default:
        return (x->dur_ms > y->dur_ms) - (x->dur_ms < y->dur_ms);
    }
}

static int demo_style(void *ctx, size_t row, int col)
{
    (void)ctx;
    int m = demo_rows[row].mark;
    if (col > C_NAME || m == 0) {
        return -1;
    }
    return m == 1 ? TUI_STYLE_DIFF_GREEN : TUI_STYLE_DIFF_RED;
}

static const struct tui_list_ops demo_ops = {
    .rows = demo_nrows, .cell = demo_cell, .compare = demo_compare, .cell_style = demo_style};

static const struct tui_tab tabs[] = {
    {"1", "Activities"}, {"2", "Transitions"}, {"3", "Graph"}, {"4", "Timeline"},
    {"5", "Diff"},       {"6", "Cases"},       {"7", "Rules"}, {"?", ""}};

struct demo {
    struct tui_screen *scr;
    struct tui_keymaps *km;
    struct tui_listmodel *lm;
    struct tui_lineedit *search;
    struct tui_theme theme;
    struct tui_theme_dirs dirs;
    int view; /* index into tabs; 7 = help */
    int prev_view;
    int searching;
    size_t help_top;
    char message[256];
};

static void draw_help(struct demo *d, struct tui_rect body)
{
    struct iodfg_buf b;
    iodfg_buf_init(&b);
    tui_keymap_help(d->km, TUI_HELP_TEXT, &b);
    size_t line = 0;
    int y = body.y;
    for (char *p = b.data; p && *p && y < body.y + body.h; line++) {
        char *nl = strchr(p, '\n');
        if (nl) {
            *nl = '\0';
        }
        if (line >= d->help_top) {
            int heading = p[0] != ' ';
            tui_screen_text(d->scr, y++, 1, body.w - 1,
                            heading ? TUI_STYLE_HELP_HEADING : TUI_STYLE_NORMAL, p, 0);
        }
        p = nl ? nl + 1 : p + strlen(p);
    }
    iodfg_buf_fini(&b);
}

static void draw(struct demo *d)
{
    if (tui_screen_begin(d->scr) < 0) {
        tui_screen_end(d->scr);
        return;
    }
    tui_screen_tabs(d->scr, "iodfg", "demo.h5", tabs, 8, d->view);
    struct tui_rect body = tui_screen_body(d->scr);
    if (d->view == 7) {
        draw_help(d, body);
    } else {
        tui_table_draw(d->scr, body, d->lm, "no rows");
    }
    char buf[512];
    size_t cur = tui_listmodel_cursor(d->lm);
    snprintf(buf, sizeof(buf), "%s   row %zu of %zu",
             tui_listmodel_cell(d->lm, cur, C_NAME, buf + 256, 256), cur + 1,
             tui_listmodel_count(d->lm));
    tui_screen_detail(d->scr, buf);
    if (d->searching) {
        snprintf(buf, sizeof(buf), "/%s", tui_lineedit_text(d->search));
        tui_screen_status(d->scr, buf, TUI_STYLE_PROMPT);
        int h = tui_screen_height(d->scr);
        tui_screen_cursor(d->scr, h - 1, 2 + (int)tui_lineedit_cursor_col(d->search));
    } else {
        int desc;
        int sc = tui_listmodel_sort_column(d->lm, &desc);
        const char *dot = tui_screen_glyph(d->scr, TUI_G_SEP);
        snprintf(buf, sizeof(buf), "%zu rows %s sort: %s%s %s theme: %s %s %dx%d%s%s%s",
                 tui_listmodel_count(d->lm), dot, sc >= 0 ? demo_cols[sc].title : "none",
                 sc >= 0 ? (desc ? " desc" : " asc") : "", dot, d->theme.name, dot,
                 tui_screen_width(d->scr), tui_screen_height(d->scr), d->message[0] ? " " : "",
                 d->message[0] ? dot : "", d->message[0] ? " " : "");
        if (d->message[0]) {
            strncat(buf, d->message, sizeof(buf) - strlen(buf) - 1);
        }
        tui_screen_status(d->scr, buf, TUI_STYLE_STATUS);
    }
    tui_screen_end(d->scr);
}

static void cycle_theme(struct demo *d)
{
    struct iodfg_error err;
    iodfg_error_clear(&err);
    int rc = tui_theme_load_next(&d->theme, &d->dirs, &err);
    if (rc == 0) {
        tui_screen_set_theme(d->scr, &d->theme);
        d->message[0] = '\0';
    } else if (rc < 0) {
        iodfg_error_format(&err, d->message, sizeof(d->message));
    }
}

static void search_key(struct demo *d, int key)
{
    switch (tui_lineedit_key(d->search, key)) {
    case TUI_LE_CHANGED:
        tui_listmodel_search_set(d->lm, tui_lineedit_text(d->search));
        break;
    case TUI_LE_ACCEPTED:
        d->searching = 0;
        break;
    case TUI_LE_CANCELLED:
        d->searching = 0;
        tui_listmodel_search_set(d->lm, "");
        break;
    default:
        break;
    }
}

/* Returns 1 to quit. */
static int command(struct demo *d, enum tui_cmd cmd)
{
    d->message[0] = '\0';
    switch (cmd) {
    case TUI_CMD_QUIT:
        return 1;
    case TUI_CMD_VIEW_ACTIVITIES:
    case TUI_CMD_VIEW_TRANSITIONS:
    case TUI_CMD_VIEW_GRAPH:
    case TUI_CMD_VIEW_TIMELINE:
    case TUI_CMD_VIEW_DIFF:
    case TUI_CMD_VIEW_CASES:
    case TUI_CMD_VIEW_RULES:
        d->view = (int)(cmd - TUI_CMD_VIEW_ACTIVITIES);
        break;
    case TUI_CMD_HELP:
        d->prev_view = d->view == 7 ? d->prev_view : d->view;
        d->view = 7;
        d->help_top = 0;
        break;
    case TUI_CMD_CLOSE:
        d->view = d->prev_view;
        break;
    case TUI_CMD_MOVE_UP:
        if (d->view == 7) {
            d->help_top -= d->help_top > 0;
        } else {
            tui_listmodel_move(d->lm, -1);
        }
        break;
    case TUI_CMD_MOVE_DOWN:
        if (d->view == 7) {
            d->help_top++;
        } else {
            tui_listmodel_move(d->lm, 1);
        }
        break;
    case TUI_CMD_PAGE_UP:
        tui_listmodel_page(d->lm, -1);
        break;
    case TUI_CMD_PAGE_DOWN:
        tui_listmodel_page(d->lm, 1);
        break;
    case TUI_CMD_MOVE_FIRST:
        tui_listmodel_first(d->lm);
        break;
    case TUI_CMD_MOVE_LAST:
        tui_listmodel_last(d->lm);
        break;
    case TUI_CMD_SORT_NEXT:
        tui_listmodel_sort_next(d->lm);
        break;
    case TUI_CMD_SORT_REVERSE:
        tui_listmodel_sort_reverse(d->lm);
        break;
    case TUI_CMD_SEARCH:
        d->searching = 1;
        tui_lineedit_set(d->search, "");
        tui_listmodel_search_begin(d->lm);
        break;
    case TUI_CMD_SEARCH_NEXT:
    case TUI_CMD_SEARCH_PREV:
        if (!tui_listmodel_search_next(d->lm, cmd == TUI_CMD_SEARCH_NEXT ? 1 : -1)) {
            snprintf(d->message, sizeof(d->message), "no match");
        }
        break;
    case TUI_CMD_CYCLE_THEME:
        cycle_theme(d);
        break;
    case TUI_CMD_NONE:
    case TUI_CMD_REDRAW:
    case TUI_CMD_CANCEL:
        break;
    default:
        snprintf(d->message, sizeof(d->message), "%s: not in the demo", tui_cmd_info(cmd)->name);
        break;
    }
    return 0;
}

static int run(struct demo *d)
{
    draw(d);
    for (;;) {
        int key = tui_screen_getkey(d->scr, -1);
        if (key < 0 || key == TUI_KEY_RESIZE) {
            draw(d);
            continue;
        }
        if (tui_screen_width(d->scr) < TUI_SCREEN_MIN_W ||
            tui_screen_height(d->scr) < TUI_SCREEN_MIN_H) {
            if (key == 'q') {
                return 0;
            }
            continue;
        }
        if (d->searching) {
            search_key(d, key);
        } else {
            static const enum tui_map maps[8] = {
                TUI_MAP_ACTIVITIES, TUI_MAP_TRANSITIONS, TUI_MAP_GRAPH, TUI_MAP_TIMELINE,
                TUI_MAP_DIFF,       TUI_MAP_CASES,       TUI_MAP_RULES, TUI_MAP_HELP};
            if (command(d, tui_keymap_lookup(d->km, maps[d->view], key))) {
                return 0;
            }
        }
        draw(d);
    }
}

int main(int argc, char **argv)
{
    setlocale(LC_ALL, "");
    struct demo d;
    memset(&d, 0, sizeof(d));
    const char *theme = "default";
    unsigned flags = 0;
    for (int i = 1; i < argc; i++) {
        if (strcmp(argv[i], "--theme") == 0 && i + 1 < argc) {
            theme = argv[++i];
        } else if (strcmp(argv[i], "--ascii") == 0) {
            flags |= TUI_SCREEN_ASCII;
        } else if (strcmp(argv[i], "--list-keys") == 0) {
            struct tui_keymaps *km = tui_keymap_new();
            struct iodfg_buf b;
            iodfg_buf_init(&b);
            tui_keymap_help(km, TUI_HELP_TEXT, &b);
            fputs(b.data, stdout);
            iodfg_buf_fini(&b);
            tui_keymap_free(km);
            return 0;
        } else {
            fprintf(stderr, "usage: tui-demo [--theme NAME|PATH] [--ascii] [--list-keys]\n");
            return 2;
        }
    }
    char user_dir[4096], cfg[4096];
    tui_theme_dirs_default(&d.dirs, user_dir, sizeof(user_dir));
    struct iodfg_error err;
    iodfg_error_clear(&err);
    d.km = tui_keymap_new();
    d.lm = tui_listmodel_new(demo_cols, 5, &demo_ops, NULL);
    d.search = tui_lineedit_new(20);
    int rc = 1;
    if (!d.km || !d.lm || !d.search) {
        fprintf(stderr, "tui-demo: out of memory\n");
        goto out;
    }
    if ((tui_keymap_config_path(cfg, sizeof(cfg)) && tui_keymap_load_config(d.km, cfg, &err) < 0) ||
        tui_theme_load(&d.theme, theme, &d.dirs, &err) < 0) {
        char msg[1024];
        fprintf(stderr, "tui-demo: %s\n", iodfg_error_format(&err, msg, sizeof(msg)));
        goto out;
    }
    tui_listmodel_reload(d.lm);
    tui_listmodel_sort(d.lm, C_DUR, 0);
    d.scr = tui_screen_open(&d.theme, flags, &err);
    if (!d.scr) {
        char msg[1024];
        fprintf(stderr, "tui-demo: %s\n", iodfg_error_format(&err, msg, sizeof(msg)));
        goto out;
    }
    rc = run(&d);
    tui_screen_close(d.scr);
out:
    tui_lineedit_free(d.search);
    tui_listmodel_free(d.lm);
    tui_keymap_free(d.km);
    return rc;
}
