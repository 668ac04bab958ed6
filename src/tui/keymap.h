/* SPDX-License-Identifier: MIT */
/* Keymaps: one per view plus "global", bindings as data, user overrides from a config file,
 * key names both ways, and the key list as help text (for `?` and `iodfg --list-keys`). */
#ifndef IODFG_TUI_KEYMAP_H
#define IODFG_TUI_KEYMAP_H

#include <stddef.h>

#include "tui/command.h"

struct iodfg_buf;
struct iodfg_error;

/* The keymaps in help order: global, one per view (views.def, in tab order), help. */
enum tui_map {
    TUI_MAP_GLOBAL,
#define VIEW(id, ops, name, key, tab, title, help) TUI_MAP_##id,
#include "tui/views.def"
#undef VIEW
    TUI_MAP_HELP,
    TUI_MAP_COUNT
};

/* One default binding; the whole table is tui_keymap_defaults(). */
struct tui_binding {
    enum tui_map map;
    int key; /* see tui/keys.h */
    enum tui_cmd cmd;
};

struct tui_keymaps;

/* Keymaps holding the default bindings; NULL when out of memory. Free with tui_keymap_free. */
struct tui_keymaps *tui_keymap_new(void);
void tui_keymap_free(struct tui_keymaps *km);

/* The compiled-in default bindings (static storage) and their number. */
const struct tui_binding *tui_keymap_defaults(size_t *n);

/* Name / title of a map; the map called name, or -1. */
const char *tui_keymap_name(enum tui_map map);
const char *tui_keymap_title(enum tui_map map);
int tui_keymap_by_name(const char *name);

/* Bind key in map to cmd, replacing its binding there. TUI_CMD_NONE masks the global binding.
 * Returns 0, or -1 (IODFG_E_NOMEM). */
int tui_keymap_bind(struct tui_keymaps *km, enum tui_map map, int key, enum tui_cmd cmd,
                    struct iodfg_error *err);
/* Remove key's binding from map (global bindings show through again). Returns 1 if removed. */
int tui_keymap_unbind(struct tui_keymaps *km, enum tui_map map, int key);

/* The command for key in the view's map, else in global; TUI_CMD_NONE when unbound. */
enum tui_cmd tui_keymap_lookup(const struct tui_keymaps *km, enum tui_map view, int key);
/* For a key unbound in view (and globally): the first view map where it is bound, with its
 * command in *cmd; -1 when no view binds it. */
int tui_keymap_elsewhere(const struct tui_keymaps *km, enum tui_map view, int key,
                         enum tui_cmd *cmd);
/* The command bound to key in exactly this map; -1 when not bound there. */
int tui_keymap_get(const struct tui_keymaps *km, enum tui_map map, int key);
/* Up to max keys bound to cmd in map, in binding order; returns how many there are. */
size_t tui_keymap_keys_for(const struct tui_keymaps *km, enum tui_map map, enum tui_cmd cmd,
                           int *keys, size_t max);

/* Parse a key name ("s", "?", "C-r", "Enter", "F1", "Space", a UTF-8 character) into *key.
 * Returns 0, or -1 when the name is not a key. */
int tui_key_parse(const char *name, int *key);
/* Write key's canonical name into buf (always NUL-terminated). Returns buf. */
char *tui_key_format(int key, char *buf, size_t size);

/* Apply one config line: "bind MAP KEY COMMAND", "unbind MAP KEY", blank or "# comment".
 * On error returns -1 with where:line:col in err (col of the offending word). */
int tui_keymap_config_line(struct tui_keymaps *km, const char *line, const char *where,
                           unsigned long lineno, struct iodfg_error *err);
/* Apply every line of the config file at path. A missing file is not an error (returns 0). */
int tui_keymap_load_config(struct tui_keymaps *km, const char *path, struct iodfg_error *err);
/* The user config path: $XDG_CONFIG_HOME/iodfg/config, else $HOME/.config/iodfg/config.
 * Returns buf, or NULL when neither variable is set or buf is too small. */
char *tui_keymap_config_path(char *buf, size_t size);

enum tui_help_format {
    TUI_HELP_TEXT, /* aligned plain text, lines under 80 columns */
    TUI_HELP_MAN   /* roff .SS/.TP blocks for iodfg.1 */
};
/* Append the whole key list, map by map, to out. Returns 0, or -1 when out of memory. */
int tui_keymap_help(const struct tui_keymaps *km, enum tui_help_format fmt, struct iodfg_buf *out);
/* The same with map first (`?` in a view lists its own keys before the others). */
int tui_keymap_help_from(const struct tui_keymaps *km, enum tui_help_format fmt, enum tui_map first,
                         struct iodfg_buf *out);

#endif
