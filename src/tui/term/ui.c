/* SPDX-License-Identifier: MIT */
/* The TUI event loop: keys through the keymaps into commands, prompts with the line editor
 * (live and debounced for rule edits), the frame, theme cycling and the load progress. */
#include "config.h"

#include "tui/term/ui.h"

#include <stdio.h>
#include <stdlib.h>

#include "iodfg/buf.h"
#include "iodfg/error.h"
#include "iodfg/glyph.h"

#include "tui/app.h"
#include "tui/keymap.h"
#include "tui/keys.h"
#include "tui/lineedit.h"
#include "tui/listmodel.h"
#include "tui/term/screen.h"
#include "tui/theme.h"
#include "tui/view.h"
#include "tui/viewmodel.h"

#define DEBOUNCE_MS 30

struct tui_ui {
    struct tui_screen *scr;
    struct tui_keymaps *km;
    struct tui_theme theme;
    struct tui_theme_dirs dirs;
    char user_dir[4096];
    struct tui_lineedit *le;
    struct tui_tab tabs[TUI_VIEW_COUNT]; /* from the view registry */
    char tab_keys[TUI_VIEW_COUNT][2];
    struct tui_viewmodel vm; /* the frame being drawn (its memory kept) */
    char complete_base[512]; /* the command line as typed before Tab completed it */
    unsigned complete_n;     /* Tabs in a row */
    int last_tab;
};

static void make_tabs(struct tui_ui *ui)
{
    for (int v = 0; v < TUI_VIEW_COUNT; v++) {
        ui->tab_keys[v][0] = (char)tui_view_key((enum tui_view)v);
        ui->tab_keys[v][1] = '\0';
        ui->tabs[v] = (struct tui_tab){ui->tab_keys[v], tui_view_tab((enum tui_view)v)};
    }
}

#define BUSY_POLL_MS 50

struct tui_ui *tui_ui_open(const char *theme, unsigned screen_flags, struct iodfg_error *err)
{
    struct tui_ui *ui = calloc(1, sizeof(*ui));
    if (!ui) {
        iodfg_error_set(err, IODFG_E_NOMEM, NULL);
        return NULL;
    }
    tui_theme_dirs_default(&ui->dirs, ui->user_dir, sizeof(ui->user_dir));
    make_tabs(ui);
    tui_viewmodel_init(&ui->vm);
    ui->km = tui_keymap_new();
    ui->le = tui_lineedit_new(50);
    char cfg[4096];
    if (!ui->km || !ui->le) {
        iodfg_error_set(err, IODFG_E_NOMEM, NULL);
        goto fail;
    }
    if ((tui_keymap_config_path(cfg, sizeof(cfg)) && tui_keymap_load_config(ui->km, cfg, err)) ||
        tui_theme_load(&ui->theme, theme ? theme : "default", &ui->dirs, err)) {
        goto fail;
    }
    ui->scr = tui_screen_open(&ui->theme, screen_flags, err);
    if (!ui->scr) {
        goto fail;
    }
    return ui;
fail:
    tui_ui_close(ui);
    return NULL;
}

void tui_ui_close(struct tui_ui *ui)
{
    if (!ui) {
        return;
    }
    tui_screen_close(ui->scr);
    tui_keymap_free(ui->km);
    tui_lineedit_free(ui->le);
    tui_viewmodel_fini(&ui->vm);
    free(ui);
}

int tui_ui_progress(struct tui_ui *ui, const char *log, const char *what, double fraction,
                    int wait_ms)
{
    if (tui_screen_begin(ui->scr) == 0) {
        tui_screen_tabs(ui->scr, "iodfg", log, ui->tabs, TUI_VIEW_COUNT, -1);
        struct tui_rect b = tui_screen_body(ui->scr);
        char line[256];
        if (fraction >= 0) {
            snprintf(line, sizeof(line), "%s %3.0f%%", what, fraction * 100.0);
        } else {
            snprintf(line, sizeof(line), "%s", what);
        }
        int y = b.y + b.h / 2 - 1, w = b.w - 20;
        tui_screen_text(ui->scr, y, 10, w, TUI_STYLE_NORMAL, line, 0);
        if (fraction >= 0) {
            int fill = (int)(fraction * (w - 2));
            for (int i = 0; i < w - 2; i++) {
                tui_screen_text(ui->scr, y + 1, 11 + i, 1,
                                i < fill ? TUI_STYLE_TIMELINE_BAR : TUI_STYLE_DIM,
                                tui_screen_glyph(ui->scr, i < fill ? TUI_G_FULL : TUI_G_LIGHT), 0);
            }
        }
        tui_screen_detail(ui->scr, "");
        tui_screen_status(ui->scr, iodfg_glyph_text("loading · q quits"), TUI_STYLE_STATUS);
    }
    tui_screen_end(ui->scr);
    int key = tui_screen_getkey(ui->scr, wait_ms);
    return key == 'q' || key == TUI_KEY_CTRL('c');
}

static void cycle_theme(struct tui_ui *ui, struct tui_app *app)
{
    struct iodfg_error err;
    iodfg_error_clear(&err);
    int rc = tui_theme_load_next(&ui->theme, &ui->dirs, &err);
    if (rc == 0) {
        tui_screen_set_theme(ui->scr, &ui->theme);
        tui_app_set_message(app, 0, "theme: %s", ui->theme.name);
    } else if (rc < 0) {
        char msg[300];
        tui_app_set_message(app, 1, "%s", iodfg_error_format(&err, msg, sizeof(msg)));
    }
}

/* The key's command here; a key that only another view binds says where it works instead of
 * doing nothing (what one types next must not run as commands unawares). */
static unsigned key_command(struct tui_ui *ui, struct tui_app *app, int key)
{
    enum tui_map here = tui_view_keymap(tui_app_current_view(app));
    enum tui_cmd cmd = tui_keymap_lookup(ui->km, here, key);
    if (cmd != TUI_CMD_NONE) {
        return tui_app_command(app, cmd);
    }
    int map = tui_keymap_elsewhere(ui->km, here, key, &cmd);
    if (map >= 0) {
        char name[32];
        tui_app_set_message(app, 1, "%s (%s) works in %s", tui_key_format(key, name, sizeof(name)),
                            tui_cmd_info(cmd)->name, tui_keymap_title((enum tui_map)map));
    }
    return TUI_REDRAW;
}

void tui_ui_draw(struct tui_ui *ui, struct tui_app *app)
{
    struct tui_screen *s = ui->scr;
    if (tui_screen_begin(s) < 0) {
        tui_screen_end(s);
        return;
    }
    tui_screen_tabs(s, "iodfg", tui_app_log_name(app), ui->tabs, TUI_VIEW_COUNT,
                    (int)tui_app_current_view(app));
    struct tui_rect body = tui_screen_body(s);
    int prompting = tui_app_open_prompt(app, NULL) != TUI_PROMPT_NONE;
    struct tui_render_in in = {body.w, body.h, prompting ? tui_lineedit_text(ui->le) : NULL,
                               (int)tui_lineedit_cursor_col(ui->le), ui->km};
    struct tui_viewmodel *vm = &ui->vm;
    tui_app_frame(app, &in, vm);
    tui_draw_page(s, body, vm);
    int w = tui_screen_width(s), h = tui_screen_height(s);
    if (vm->detail_style >= 0) { // a message
        tui_screen_fill(s, h - 2, 0, w, TUI_STYLE_DETAIL);
        tui_screen_text(s, h - 2, 1, w - 1, vm->detail_style, vm->detail, 0);
    } else {
        tui_screen_detail_name(s, vm->detail, vm->detail_name);
    }
    tui_screen_status(s, vm->status, vm->status_style);
    if (vm->status_cursor >= 0) {
        tui_screen_cursor(s, h - 1, vm->status_cursor);
    }
    tui_screen_end(s);
}

/* A key while a prompt is open. *pending is set when a live change awaits the debounce. */
static unsigned prompt_key(struct tui_ui *ui, struct tui_app *app, int key, int *pending)
{
    enum tui_prompt prompt = tui_app_open_prompt(app, NULL);
    if (prompt == TUI_PROMPT_QUIT) {
        const char *ans = key == 'y' ? "y" : key == 'w' ? "w" : "";
        return tui_app_prompt_done(app, ans);
    }
    if (prompt == TUI_PROMPT_COMMAND && key == TUI_KEY_TAB) { // complete, then each in turn
        if (!ui->last_tab) {
            snprintf(ui->complete_base, sizeof(ui->complete_base), "%s", tui_lineedit_text(ui->le));
            ui->complete_n = 0;
        } else {
            ui->complete_n++;
        }
        ui->last_tab = 1;
        char line[512];
        if (tui_app_command_complete(ui->complete_base, ui->complete_n, line, sizeof(line))) {
            tui_lineedit_set(ui->le, line);
        }
        return TUI_REDRAW;
    }
    ui->last_tab = 0;
    switch (tui_lineedit_key(ui->le, key)) {
    case TUI_LE_CHANGED:
        if (prompt == TUI_PROMPT_RULE) {
            *pending = 1;
            return TUI_REDRAW;
        }
        return tui_app_prompt_change(app, tui_lineedit_text(ui->le));
    case TUI_LE_ACCEPTED:
        *pending = 0;
        return tui_app_prompt_done(app, tui_lineedit_text(ui->le));
    case TUI_LE_CANCELLED:
        *pending = 0;
        return tui_app_prompt_done(app, NULL);
    default:
        return TUI_REDRAW;
    }
}

int tui_ui_run(struct tui_ui *ui, struct tui_app *app)
{
    int pending = 0;
    for (;;) {
        tui_ui_draw(ui, app);
        // background computations (Characterisation, Timeline index) are polled while the
        // keys stay live
        int busy = tui_app_busy(app);
        int key = tui_screen_getkey(ui->scr, pending ? DEBOUNCE_MS : busy ? BUSY_POLL_MS : -1);
        if (key < 0) {
            if (pending) { // the edit first: a rule edit's second tier waits for a pause
                pending = 0;
                tui_app_prompt_change(app, tui_lineedit_text(ui->le));
            } else {
                tui_app_poll(app);
            }
            continue;
        }
        if (key == TUI_KEY_RESIZE) {
            continue;
        }
        if (tui_screen_width(ui->scr) < TUI_SCREEN_MIN_W ||
            tui_screen_height(ui->scr) < TUI_SCREEN_MIN_H) {
            if (key == 'q') {
                return 0;
            }
            continue;
        }
        unsigned r;
        if (tui_app_open_prompt(app, NULL) != TUI_PROMPT_NONE) {
            r = prompt_key(ui, app, key, &pending);
        } else {
            r = key_command(ui, app, key);
        }
        if (r & TUI_PROMPT) {
            const char *initial;
            tui_app_open_prompt(app, &initial);
            tui_lineedit_set(ui->le, initial);
        }
        if (r & TUI_THEME) {
            cycle_theme(ui, app);
        }
        if ((r & TUI_COPY) && tui_screen_clipboard(ui->scr, tui_app_clipboard(app))) {
            tui_app_set_message(app, 1, "copy-name: could not write to the terminal");
        }
        if (r & TUI_QUIT) {
            return 0;
        }
    }
}
