/* SPDX-License-Identifier: MIT */
/* Keymaps: default bindings as data, lookup with fallback to global, config overrides, help. */
#include "config.h"

#include "tui/keymap.h"

#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>

#include "iodfg/buf.h"
#include "iodfg/error.h"
#include "iodfg/textfile.h"

#include "tui/confline.h"
#include "tui/keys.h"
#include "tui/utf8.h"

#define G TUI_MAP_GLOBAL
#define C(x) TUI_CMD_##x

/* The default bindings. Each command's keys are listed in the order help shows them. */
static const struct tui_binding default_bindings[] = {
#define VIEW(id, ops, name, key, tab, title, help) {G, key, C(VIEW_##id)},
#include "tui/views.def"
#undef VIEW
    {G, '?', C(HELP)},
    {G, TUI_KEY_F1, C(HELP)},
    {G, 'q', C(QUIT)},
    {G, TUI_KEY_CTRL('l'), C(REDRAW)},
    {G, TUI_KEY_ESC, C(CANCEL)},
    {G, 'k', C(MOVE_UP)},
    {G, TUI_KEY_UP, C(MOVE_UP)},
    {G, 'j', C(MOVE_DOWN)},
    {G, TUI_KEY_DOWN, C(MOVE_DOWN)},
    {G, TUI_KEY_PGUP, C(PAGE_UP)},
    {G, TUI_KEY_CTRL('b'), C(PAGE_UP)},
    {G, TUI_KEY_PGDN, C(PAGE_DOWN)},
    {G, TUI_KEY_CTRL('f'), C(PAGE_DOWN)},
    {G, ' ', C(PAGE_DOWN)},
    {G, TUI_KEY_HOME, C(MOVE_FIRST)},
    {G, TUI_KEY_END, C(MOVE_LAST)},
    {G, '<', C(SCROLL_LEFT)},
    {G, TUI_KEY_LEFT, C(SCROLL_LEFT)},
    {G, '>', C(SCROLL_RIGHT)},
    {G, TUI_KEY_RIGHT, C(SCROLL_RIGHT)},
    {G, 's', C(SORT_NEXT)},
    {G, 'S', C(SORT_REVERSE)},
    {G, '/', C(SEARCH)},
    {G, 'n', C(SEARCH_NEXT)},
    {G, 'N', C(SEARCH_PREV)},
    {G, 'f', C(ADD_FILTER)},
    {G, 'F', C(LIST_FILTERS)},
    {G, TUI_KEY_BACKSPACE, C(POP_FILTER)},
    {G, '[', C(PATH_THRESHOLD_DOWN)},
    {G, ']', C(PATH_THRESHOLD_UP)},
    {G, '{', C(ACTIVITY_THRESHOLD_DOWN)},
    {G, '}', C(ACTIVITY_THRESHOLD_UP)},
    {G, 'A', C(FOCUS)},
    {G, 'u', C(UNDO)},
    {G, TUI_KEY_CTRL('r'), C(REDO)},
    {G, 'x', C(EXPORT_DOT)},
    {G, 'T', C(EXPORT_TSV)},
    {G, 'W', C(SAVE_SESSION)},
    {G, 't', C(CYCLE_THEME)},
    {G, 'P', C(RULE_PRESET)},
    {G, 'y', C(COPY_NAME)},
    {G, ':', C(COMMAND_LINE)},

    {TUI_MAP_ACTIVITIES, TUI_KEY_ENTER, C(DRILL_DOWN)},

    {TUI_MAP_TRANSITIONS, TUI_KEY_ENTER, C(DRILL_DOWN)},

    {TUI_MAP_GRAPH, TUI_KEY_ENTER, C(FOLLOW)},
    {TUI_MAP_GRAPH, 'h', C(FOCUS_LEFT)},
    {TUI_MAP_GRAPH, TUI_KEY_LEFT, C(FOCUS_LEFT)},
    {TUI_MAP_GRAPH, 'l', C(FOCUS_RIGHT)},
    {TUI_MAP_GRAPH, TUI_KEY_RIGHT, C(FOCUS_RIGHT)},
    {TUI_MAP_GRAPH, 'o', C(OVERVIEW)},
    {TUI_MAP_GRAPH, TUI_KEY_BACKSPACE, C(JUMP_BACK)},

    {TUI_MAP_TIMELINE, '+', C(ZOOM_IN)},
    {TUI_MAP_TIMELINE, '=', C(ZOOM_IN)},
    {TUI_MAP_TIMELINE, '-', C(ZOOM_OUT)},
    {TUI_MAP_TIMELINE, 'h', C(PAN_LEFT)},
    {TUI_MAP_TIMELINE, TUI_KEY_LEFT, C(PAN_LEFT)},
    {TUI_MAP_TIMELINE, 'l', C(PAN_RIGHT)},
    {TUI_MAP_TIMELINE, TUI_KEY_RIGHT, C(PAN_RIGHT)},
    {TUI_MAP_TIMELINE, '0', C(FIT)},
    {TUI_MAP_TIMELINE, 'p', C(ZOOM_PEAK)},
    {TUI_MAP_TIMELINE, ',', C(CURSOR_LEFT)},
    {TUI_MAP_TIMELINE, '.', C(CURSOR_RIGHT)},
    {TUI_MAP_TIMELINE, TUI_KEY_ENTER, C(SHOW_EVENTS)},
    {TUI_MAP_TIMELINE, TUI_KEY_BACKSPACE, C(JUMP_BACK)},
    {TUI_MAP_TIMELINE, 'X', C(EXPORT_SVG)},

    {TUI_MAP_DIFF, 'd', C(DIFF_ONLY)},
    {TUI_MAP_DIFF, TUI_KEY_ENTER, C(DRILL_DOWN)},

    {TUI_MAP_CASES, 'g', C(GROUP_G)},
    {TUI_MAP_CASES, 'r', C(GROUP_R)},
    {TUI_MAP_CASES, 'G', C(GROUP_G_MATCH)},
    {TUI_MAP_CASES, 'R', C(GROUP_R_MATCH)},
    {TUI_MAP_CASES, 'c', C(GROUP_CID)},
    {TUI_MAP_CASES, 'C', C(GROUP_CLEAR)},
    {TUI_MAP_CASES, 'v', C(VARIANTS)},
    {TUI_MAP_CASES, TUI_KEY_ENTER, C(SHOW_EVENTS)},
    {TUI_MAP_CASES, TUI_KEY_BACKSPACE, C(JUMP_BACK)},

    {TUI_MAP_RULES, 'a', C(RULE_ADD)},
    {TUI_MAP_RULES, 'e', C(RULE_EDIT)},
    {TUI_MAP_RULES, TUI_KEY_ENTER, C(RULE_EDIT)},
    {TUI_MAP_RULES, 'd', C(RULE_DELETE)},
    {TUI_MAP_RULES, 'K', C(RULE_MOVE_UP)},
    {TUI_MAP_RULES, 'J', C(RULE_MOVE_DOWN)},
    {TUI_MAP_RULES, 'w', C(RULE_SAVE)},

    {TUI_MAP_CHARZ, '+', C(ZOOM_IN)},
    {TUI_MAP_CHARZ, '=', C(ZOOM_IN)},
    {TUI_MAP_CHARZ, '-', C(ZOOM_OUT)},
    {TUI_MAP_CHARZ, '0', C(FIT)},
    {TUI_MAP_CHARZ, 'b', C(SERVER_NEXT)},
    {TUI_MAP_CHARZ, 'c', C(THRESHOLD_UP)},
    {TUI_MAP_CHARZ, 'C', C(THRESHOLD_DOWN)},
    {TUI_MAP_CHARZ, 'h', C(ACTIVITY_PREV)},
    {TUI_MAP_CHARZ, TUI_KEY_LEFT, C(ACTIVITY_PREV)},
    {TUI_MAP_CHARZ, 'l', C(ACTIVITY_NEXT)},
    {TUI_MAP_CHARZ, TUI_KEY_RIGHT, C(ACTIVITY_NEXT)},
    {TUI_MAP_CHARZ, TUI_KEY_BACKSPACE, C(JUMP_BACK)},

    {TUI_MAP_HANDLES, 'o', C(OPEN_ONLY)},
    {TUI_MAP_HANDLES, TUI_KEY_ENTER, C(FILTER_PATH)},

    {TUI_MAP_INSIGHTS, TUI_KEY_ENTER, C(JUMP)},
    {TUI_MAP_INSIGHTS, TUI_KEY_BACKSPACE, C(JUMP_BACK)},

    {TUI_MAP_HEATMAP, 'g', C(ROWS_NEXT)},
    {TUI_MAP_HEATMAP, 'm', C(METRIC_NEXT)},
    {TUI_MAP_HEATMAP, '+', C(ZOOM_IN)},
    {TUI_MAP_HEATMAP, '=', C(ZOOM_IN)},
    {TUI_MAP_HEATMAP, '-', C(ZOOM_OUT)},
    {TUI_MAP_HEATMAP, 'h', C(PAN_LEFT)},
    {TUI_MAP_HEATMAP, 'l', C(PAN_RIGHT)},
    {TUI_MAP_HEATMAP, '0', C(FIT)},
    {TUI_MAP_HEATMAP, TUI_KEY_LEFT, C(CELL_LEFT)},
    {TUI_MAP_HEATMAP, TUI_KEY_RIGHT, C(CELL_RIGHT)},
    {TUI_MAP_HEATMAP, TUI_KEY_ENTER, C(FILTER_CELL)},
    {TUI_MAP_HEATMAP, TUI_KEY_BACKSPACE, C(JUMP_BACK)},
    {TUI_MAP_HEATMAP, 'X', C(EXPORT_SVG)},

    {TUI_MAP_OFFSETS, 'c', C(MARKS_NEXT)},
    {TUI_MAP_OFFSETS, '+', C(ZOOM_IN)},
    {TUI_MAP_OFFSETS, '=', C(ZOOM_IN)},
    {TUI_MAP_OFFSETS, '-', C(ZOOM_OUT)},
    {TUI_MAP_OFFSETS, 'h', C(PAN_LEFT)},
    {TUI_MAP_OFFSETS, TUI_KEY_LEFT, C(PAN_LEFT)},
    {TUI_MAP_OFFSETS, 'l', C(PAN_RIGHT)},
    {TUI_MAP_OFFSETS, TUI_KEY_RIGHT, C(PAN_RIGHT)},
    {TUI_MAP_OFFSETS, '0', C(FIT)},
    {TUI_MAP_OFFSETS, TUI_KEY_ENTER, C(PICK_FILE)},
    {TUI_MAP_OFFSETS, 'X', C(EXPORT_SVG)},

    {TUI_MAP_SITES, TUI_KEY_ENTER, C(FILTER_SITE)},
    {TUI_MAP_SITES, 'a', C(SITES_ONE)},

    {TUI_MAP_HELP, 'q', C(CLOSE)},
    {TUI_MAP_HELP, TUI_KEY_ESC, C(CLOSE)},
    {TUI_MAP_HELP, '?', C(CLOSE)},
};

#undef G
#undef C

static const struct {
    const char *name, *title;
} map_names[TUI_MAP_COUNT] = {
    [TUI_MAP_GLOBAL] = {"global", "Everywhere"},
#define VIEW(id, ops, name, key, tab, title, help) [TUI_MAP_##id] = {name, title},
#include "tui/views.def"
#undef VIEW
    [TUI_MAP_HELP] = {"help", "? Help"},
};

struct keymap {
    struct tui_binding *b; /* .map unused here */
    size_t n, cap;
};

struct tui_keymaps {
    struct keymap maps[TUI_MAP_COUNT];
};

const struct tui_binding *tui_keymap_defaults(size_t *n)
{
    *n = sizeof(default_bindings) / sizeof(default_bindings[0]);
    return default_bindings;
}

const char *tui_keymap_name(enum tui_map map)
{
    return (unsigned)map < TUI_MAP_COUNT ? map_names[map].name : "?";
}

const char *tui_keymap_title(enum tui_map map)
{
    return (unsigned)map < TUI_MAP_COUNT ? map_names[map].title : "?";
}

int tui_keymap_by_name(const char *name)
{
    for (int i = 0; i < TUI_MAP_COUNT; i++) {
        if (strcmp(map_names[i].name, name) == 0) {
            return i;
        }
    }
    return -1;
}

struct tui_keymaps *tui_keymap_new(void)
{
    struct tui_keymaps *km = calloc(1, sizeof(*km));
    if (!km) {
        return NULL;
    }
    size_t n;
    const struct tui_binding *d = tui_keymap_defaults(&n);
    for (size_t i = 0; i < n; i++) {
        if (tui_keymap_bind(km, d[i].map, d[i].key, d[i].cmd, NULL) < 0) {
            tui_keymap_free(km);
            return NULL;
        }
    }
    return km;
}

void tui_keymap_free(struct tui_keymaps *km)
{
    if (!km) {
        return;
    }
    for (int i = 0; i < TUI_MAP_COUNT; i++) {
        free(km->maps[i].b);
    }
    free(km);
}

static struct tui_binding *find_binding(const struct keymap *m, int key)
{
    for (size_t i = 0; i < m->n; i++) {
        if (m->b[i].key == key) {
            return &m->b[i];
        }
    }
    return NULL;
}

int tui_keymap_bind(struct tui_keymaps *km, enum tui_map map, int key, enum tui_cmd cmd,
                    struct iodfg_error *err)
{
    struct keymap *m = &km->maps[map];
    struct tui_binding *b = find_binding(m, key);
    if (b) {
        b->cmd = cmd;
        return 0;
    }
    if (m->n == m->cap) {
        size_t cap = m->cap ? 2 * m->cap : 16;
        struct tui_binding *nb = realloc(m->b, cap * sizeof(*nb));
        if (!nb) {
            return iodfg_error_set(err, IODFG_E_NOMEM, "out of memory binding a key");
        }
        m->b = nb;
        m->cap = cap;
    }
    m->b[m->n++] = (struct tui_binding){map, key, cmd};
    return 0;
}

int tui_keymap_unbind(struct tui_keymaps *km, enum tui_map map, int key)
{
    struct keymap *m = &km->maps[map];
    struct tui_binding *b = find_binding(m, key);
    if (!b) {
        return 0;
    }
    size_t i = (size_t)(b - m->b);
    memmove(&m->b[i], &m->b[i + 1], (m->n - i - 1) * sizeof(*b));
    m->n--;
    return 1;
}

int tui_keymap_get(const struct tui_keymaps *km, enum tui_map map, int key)
{
    const struct tui_binding *b = find_binding(&km->maps[map], key);
    return b ? (int)b->cmd : -1;
}

enum tui_cmd tui_keymap_lookup(const struct tui_keymaps *km, enum tui_map view, int key)
{
    int cmd = tui_keymap_get(km, view, key);
    if (cmd < 0 && view != TUI_MAP_GLOBAL) {
        cmd = tui_keymap_get(km, TUI_MAP_GLOBAL, key);
    }
    return cmd < 0 ? TUI_CMD_NONE : (enum tui_cmd)cmd;
}

int tui_keymap_elsewhere(const struct tui_keymaps *km, enum tui_map view, int key,
                         enum tui_cmd *cmd)
{
    for (int m = TUI_MAP_GLOBAL + 1; m < TUI_MAP_COUNT; m++) {
        int c = m == (int)view ? -1 : tui_keymap_get(km, (enum tui_map)m, key);
        if (c > TUI_CMD_NONE) {
            *cmd = (enum tui_cmd)c;
            return m;
        }
    }
    return -1;
}

size_t tui_keymap_keys_for(const struct tui_keymaps *km, enum tui_map map, enum tui_cmd cmd,
                           int *keys, size_t max)
{
    const struct keymap *m = &km->maps[map];
    size_t n = 0;
    for (size_t i = 0; i < m->n; i++) {
        if (m->b[i].cmd == cmd) {
            if (n < max) {
                keys[n] = m->b[i].key;
            }
            n++;
        }
    }
    return n;
}

/* ---- key names ---------------------------------------------------------------------------- */

static const struct {
    const char *name;
    int key;
} key_names[] = {
    /* canonical names first: tui_key_format uses the first entry for a key */
    {"Enter", TUI_KEY_ENTER},
    {"Backspace", TUI_KEY_BACKSPACE},
    {"Up", TUI_KEY_UP},
    {"Down", TUI_KEY_DOWN},
    {"Left", TUI_KEY_LEFT},
    {"Right", TUI_KEY_RIGHT},
    {"Home", TUI_KEY_HOME},
    {"End", TUI_KEY_END},
    {"PgUp", TUI_KEY_PGUP},
    {"PgDn", TUI_KEY_PGDN},
    {"Insert", TUI_KEY_INSERT},
    {"Delete", TUI_KEY_DELETE},
    {"S-Tab", TUI_KEY_BTAB},
    {"Resize", TUI_KEY_RESIZE},
    {"Tab", TUI_KEY_TAB},
    {"Esc", TUI_KEY_ESC},
    {"Space", ' '},
    /* aliases accepted when parsing */
    {"Return", TUI_KEY_ENTER},
    {"Escape", TUI_KEY_ESC},
    {"PageUp", TUI_KEY_PGUP},
    {"PageDown", TUI_KEY_PGDN},
    {"Del", TUI_KEY_DELETE},
    {"BTab", TUI_KEY_BTAB},
    {"BS", TUI_KEY_BACKSPACE},
};

#define N_KEY_NAMES (sizeof(key_names) / sizeof(key_names[0]))

int tui_key_parse(const char *name, int *key)
{
    size_t len = strlen(name);
    if (len == 0) {
        return -1;
    }
    for (size_t i = 0; i < N_KEY_NAMES; i++) {
        if (strcasecmp(key_names[i].name, name) == 0 && key_names[i].key != TUI_KEY_RESIZE) {
            *key = key_names[i].key;
            return 0;
        }
    }
    if ((name[0] == 'F' || name[0] == 'f') && len >= 2 && len <= 3 &&
        isdigit((unsigned char)name[1])) {
        char *end;
        long n = strtol(name + 1, &end, 10);
        if (*end == '\0' && n >= 1 && n <= 12 && name[1] != '0') {
            *key = TUI_KEY_F1 + (int)n - 1;
            return 0;
        }
        return -1;
    }
    if (len == 3 && (name[0] == 'C' || name[0] == 'c') && name[1] == '-') {
        int c = (unsigned char)name[2];
        if (isalpha(c)) {
            *key = TUI_KEY_CTRL(tolower(c));
            return 0;
        }
        if (c == '?') {
            *key = 0x7f;
            return 0;
        }
        if (strchr("[\\]^_", c)) {
            *key = TUI_KEY_CTRL(c);
            return 0;
        }
        return -1;
    }
    unsigned cp;
    size_t used = tui_utf8_decode(name, len, &cp);
    if (used != len || cp == TUI_UTF8_INVALID || cp < 0x20 || cp == 0x7f ||
        (cp >= 0x80 && cp < 0xa0)) {
        return -1;
    }
    *key = (int)cp;
    return 0;
}

char *tui_key_format(int key, char *buf, size_t size)
{
    if (size == 0) {
        return buf;
    }
    for (size_t i = 0; i < N_KEY_NAMES; i++) {
        if (key_names[i].key == key) {
            snprintf(buf, size, "%s", key_names[i].name);
            return buf;
        }
    }
    if (key >= TUI_KEY_F1 && key <= TUI_KEY_F12) {
        snprintf(buf, size, "F%d", key - TUI_KEY_F1 + 1);
    } else if (key >= 1 && key < 0x20) {
        snprintf(buf, size, "C-%c", key <= 26 ? key + 'a' - 1 : key + '@');
    } else if (key == 0x7f) {
        snprintf(buf, size, "C-?");
    } else if (key > 0x20 && key < 0x110000 && !(key >= 0x80 && key < 0xa0)) {
        char utf[5] = {0};
        tui_utf8_encode((unsigned)key, utf);
        snprintf(buf, size, "%s", utf);
    } else {
        snprintf(buf, size, "<%#x>", (unsigned)key);
    }
    return buf;
}

/* ---- config ------------------------------------------------------------------------------- */

struct words {
    const char *w[5];
    size_t len[5];
    unsigned long col[5];
    int n;
    unsigned long end_col; /* column just past the last character */
};

static void split_words(const char *line, struct words *ws)
{
    const char *p = line;
    ws->n = 0;
    while (*p && *p != '\n' && *p != '\r') {
        if (*p == ' ' || *p == '\t') {
            p++;
            continue;
        }
        const char *start = p;
        while (*p && *p != ' ' && *p != '\t' && *p != '\n' && *p != '\r') {
            p++;
        }
        if (ws->n < 5) {
            ws->w[ws->n] = start;
            ws->len[ws->n] = (size_t)(p - start);
            ws->col[ws->n] = (unsigned long)(start - line) + 1;
        }
        ws->n++;
    }
    ws->end_col = (unsigned long)(p - line) + 1;
}

int tui_keymap_config_line(struct tui_keymaps *km, const char *line, const char *where,
                           unsigned long lineno, struct iodfg_error *err)
{
    struct words ws;
    split_words(line, &ws);
    if (ws.n == 0 || ws.w[0][0] == '#') {
        return 0;
    }
    int bind = ws.len[0] == 4 && memcmp(ws.w[0], "bind", 4) == 0;
    int unbind = ws.len[0] == 6 && memcmp(ws.w[0], "unbind", 6) == 0;
    if (!bind && !unbind) {
        return tui_conf_error(err, where, lineno, ws.col[0],
                              "unknown directive '%.*s' (expected bind or unbind)",
                              tui_conf_clip(ws.len[0]), ws.w[0]);
    }
    int want = bind ? 4 : 3;
    if (ws.n < want) {
        const char *what = ws.n == 1 ? "a keymap name" : ws.n == 2 ? "a key name" : "a command";
        return tui_conf_error(err, where, lineno, ws.end_col, "expected %s", what);
    }
    if (ws.n > want) {
        return tui_conf_error(err, where, lineno, ws.col[want], "unexpected '%.*s' at end of line",
                              tui_conf_clip(ws.len[want]), ws.w[want]);
    }
    char tok[64];
    snprintf(tok, sizeof(tok), "%.*s", (int)(ws.len[1] < 63 ? ws.len[1] : 63), ws.w[1]);
    int map = tui_keymap_by_name(tok);
    if (map < 0) {
        return tui_conf_error(err, where, lineno, ws.col[1], "unknown keymap '%.*s'",
                              tui_conf_clip(ws.len[1]), ws.w[1]);
    }
    snprintf(tok, sizeof(tok), "%.*s", (int)(ws.len[2] < 63 ? ws.len[2] : 63), ws.w[2]);
    int key;
    if (ws.len[2] >= 63 || tui_key_parse(tok, &key) < 0) {
        return tui_conf_error(err, where, lineno, ws.col[2], "unknown key name '%.*s'",
                              tui_conf_clip(ws.len[2]), ws.w[2]);
    }
    if (unbind) {
        tui_keymap_unbind(km, (enum tui_map)map, key);
        return 0;
    }
    snprintf(tok, sizeof(tok), "%.*s", (int)(ws.len[3] < 63 ? ws.len[3] : 63), ws.w[3]);
    int cmd = tui_cmd_by_name(tok);
    if (cmd < 0) {
        return tui_conf_error(err, where, lineno, ws.col[3], "unknown command '%.*s'",
                              tui_conf_clip(ws.len[3]), ws.w[3]);
    }
    if (tui_keymap_bind(km, (enum tui_map)map, key, (enum tui_cmd)cmd, err) < 0) {
        iodfg_error_at(err, where, lineno, ws.col[0]);
        return -1;
    }
    return 0;
}

int tui_keymap_load_config(struct tui_keymaps *km, const char *path, struct iodfg_error *err)
{
    struct stat st;
    if (stat(path, &st) != 0 && errno == ENOENT) {
        return 0;
    }
    // read as every input is: a regular file only, never blocking, at most 1 MiB
    size_t len;
    char *text = iodfg_textfile_read(path, "configuration file", (size_t)1 << 20, &len, err);
    if (!text) {
        return -1;
    }
    int rc = 0;
    unsigned long lineno = 0;
    for (char *p = text, *end = text + len; p < end && rc == 0;) {
        char *nl = memchr(p, '\n', (size_t)(end - p));
        if (nl) {
            *nl = '\0';
        }
        rc = tui_keymap_config_line(km, p, path, ++lineno, err) < 0 ? -1 : 0;
        p = nl ? nl + 1 : end;
    }
    free(text);
    return rc;
}

char *tui_keymap_config_path(char *buf, size_t size)
{
    const char *xdg = getenv("XDG_CONFIG_HOME");
    const char *home = getenv("HOME");
    int n;
    if (xdg && *xdg) {
        n = snprintf(buf, size, "%s/iodfg/config", xdg);
    } else if (home && *home) {
        n = snprintf(buf, size, "%s/.config/iodfg/config", home);
    } else {
        return NULL;
    }
    return n >= 0 && (size_t)n < size ? buf : NULL;
}

/* ---- help --------------------------------------------------------------------------------- */

static void add_roff_escaped(struct iodfg_buf *out, const char *s)
{
    for (; *s; s++) {
        if (*s == '\\') {
            iodfg_buf_addf(out, "\\e");
        } else if (*s == '-') {
            iodfg_buf_addf(out, "\\-");
        } else if (*s == '"') {
            iodfg_buf_addf(out, "\\(dq");
        } else if (*s == '\'' || *s == '.') {
            iodfg_buf_addf(out, "\\&%c", *s);
        } else {
            iodfg_buf_add(out, s, 1);
        }
    }
}

static void help_keys(const struct tui_keymaps *km, enum tui_map map, enum tui_cmd cmd, char *keys,
                      size_t size)
{
    int k[8];
    size_t n = tui_keymap_keys_for(km, map, cmd, k, 8);
    keys[0] = '\0';
    for (size_t i = 0; i < n && i < 8; i++) {
        char name[32];
        size_t len = strlen(keys);
        snprintf(keys + len, size - len, "%s%s", i ? " " : "", tui_key_format(k[i], name, 32));
    }
}

int tui_keymap_help(const struct tui_keymaps *km, enum tui_help_format fmt, struct iodfg_buf *out)
{
    return tui_keymap_help_from(km, fmt, TUI_MAP_GLOBAL, out);
}

int tui_keymap_help_from(const struct tui_keymaps *km, enum tui_help_format fmt, enum tui_map first,
                         struct iodfg_buf *out)
{
    first = (unsigned)first < TUI_MAP_COUNT ? first : TUI_MAP_GLOBAL;
    for (int i = 0; i < TUI_MAP_COUNT; i++) {
        // first, then the others in their order (global first among them)
        int map = i == 0 ? (int)first : i <= (int)first ? i - 1 : i;
        if (km->maps[map].n == 0) {
            continue;
        }
        if (fmt == TUI_HELP_MAN) {
            iodfg_buf_addf(out, ".SS %s (keymap %s)\n", map_names[map].title, map_names[map].name);
        } else {
            iodfg_buf_addf(out, "%s%s (keymap %s)\n", i ? "\n" : "", map_names[map].title,
                           map_names[map].name);
        }
        for (int cmd = 0; cmd < TUI_CMD_COUNT; cmd++) {
            char keys[160];
            help_keys(km, (enum tui_map)map, (enum tui_cmd)cmd, keys, sizeof(keys));
            if (!keys[0]) {
                continue;
            }
            const struct tui_cmd_info *ci = tui_cmd_info((enum tui_cmd)cmd);
            if (fmt == TUI_HELP_MAN) {
                iodfg_buf_addf(out, ".TP\n.B \"");
                add_roff_escaped(out, keys);
                iodfg_buf_addf(out, "\"\n");
                add_roff_escaped(out, ci->help);
                iodfg_buf_addf(out, " (");
                add_roff_escaped(out, ci->name);
                iodfg_buf_addf(out, ")\n");
            } else {
                iodfg_buf_addf(out, "  %-14s %-24s %s\n", keys, ci->name, ci->help);
            }
        }
    }
    return out->failed ? -1 : 0;
}
