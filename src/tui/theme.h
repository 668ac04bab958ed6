/* SPDX-License-Identifier: MIT */
/* Themes: style slots (styles.def), colours, and the ini-style theme files of themes/. */
#ifndef IODFG_TUI_THEME_H
#define IODFG_TUI_THEME_H

#include <stddef.h>

struct iodfg_error;

/* A colour: TUI_COLOR_DEFAULT, an index 0-255, or TUI_COLOR_RGB(r, g, b). */
#define TUI_COLOR_DEFAULT (-1)
#define TUI_COLOR_RGB(r, g, b) (0x1000000 | ((r) << 16) | ((g) << 8) | (b))
#define TUI_COLOR_IS_RGB(c) ((c) >= 0x1000000)
enum tui_color_name {
    TUI_COLOR_BLACK,
    TUI_COLOR_RED,
    TUI_COLOR_GREEN,
    TUI_COLOR_YELLOW,
    TUI_COLOR_BLUE,
    TUI_COLOR_MAGENTA,
    TUI_COLOR_CYAN,
    TUI_COLOR_WHITE
};

enum tui_attr {
    TUI_A_BOLD = 1,
    TUI_A_DIM = 2,
    TUI_A_UNDERLINE = 4,
    TUI_A_REVERSE = 8,
    TUI_A_ITALIC = 16
};

enum tui_style_id {
#define STYLE(id, name, fg, bg, attrs, mono) TUI_STYLE_##id,
#include "tui/styles.def"
#undef STYLE
    TUI_STYLE_COUNT
};

struct tui_style {
    int fg, bg;     /* colours */
    unsigned attrs; /* enum tui_attr bits */
};

#define TUI_THEME_PALETTE_MAX 32

struct tui_theme {
    char name[64];
    struct tui_style style[TUI_STYLE_COUNT];
    unsigned char set[TUI_STYLE_COUNT]; /* 1 when the last parsed file set the slot itself */
    struct {
        char name[32];
        int color;
    } palette[TUI_THEME_PALETTE_MAX];
    int npalette;
};

/* Where themes are looked up by name; either may be NULL. */
struct tui_theme_dirs {
    const char *user_dir; /* $XDG_CONFIG_HOME/iodfg/themes */
    const char *data_dir; /* $(pkgdatadir)/themes, or $IODFG_THEMEDIR when set */
    const char *exe_dir;  /* beside the program: a build tree's themes/, or the share dir of an
                           * installation moved to another prefix (NULL: none) */
    char exe_buf[4096];
};

/* The usual dirs (searched in this order: user, data, beside the program); user_buf holds the
 * user dir's path. */
void tui_theme_dirs_default(struct tui_theme_dirs *dirs, char *user_buf, size_t size);

/* The compiled-in default theme, and the monochrome fallbacks (attributes only). */
void tui_theme_init_default(struct tui_theme *t);
void tui_theme_init_mono(struct tui_theme *t);

/* Slot names both ways: "cursor" <-> TUI_STYLE_CURSOR; -1 when unknown. */
const char *tui_style_name(enum tui_style_id id);
int tui_style_by_name(const char *name);

/* Parse a colour ("red", "default", "208", "#ff8800"). Returns 0, or -1. */
int tui_color_parse(const char *s, size_t len, int *color);
/* The colour index to use on a terminal with ncolors colours: -1 (terminal default) or an
 * index below ncolors; RGB and out-of-range indexes map to the nearest available colour. */
int tui_color_resolve(int color, int ncolors);

/* Parse theme text into t. The base is the compiled-in default, or the theme named by
 * `inherits` (found through dirs). where names the text in errors (file:line:col). */
int tui_theme_parse(struct tui_theme *t, const char *text, size_t len, const char *where,
                    const struct tui_theme_dirs *dirs, struct iodfg_error *err);
/* Load a theme by NAME (user dir, then data dir, then compiled-in "default") or by PATH (when
 * it contains '/'). Returns 0, or -1 with err set (IODFG_E_IO when not found). */
int tui_theme_load(struct tui_theme *t, const char *name_or_path, const struct tui_theme_dirs *dirs,
                   struct iodfg_error *err);

/* The names of all themes in dirs plus "default", sorted and unique. The caller frees the
 * array with tui_theme_list_free. Returns the count, or -1 when out of memory. */
int tui_theme_list(const struct tui_theme_dirs *dirs, char ***names);
void tui_theme_list_free(char **names, int n);
/* Load the theme after t's (by name, in tui_theme_list's order, wrapping) into t. Returns 0,
 * 1 when there is no theme to load (t unchanged), or -1 with err set (t unchanged). */
int tui_theme_load_next(struct tui_theme *t, const struct tui_theme_dirs *dirs,
                        struct iodfg_error *err);

#endif
