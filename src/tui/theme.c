/* SPDX-License-Identifier: MIT */
/* Theme files: ini-style [theme]/[palette]/[styles] sections, inheritance, colour mapping. */
#include "config.h"

#include "tui/theme.h"

#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "iodfg/error.h"
#include "iodfg/textfile.h"

#include "tui/confline.h"

#ifndef IODFG_THEMEDIR
#define IODFG_THEMEDIR "/usr/local/share/iodfg/themes"
#endif

#define MAX_DEPTH 8

static const struct {
    const char *name;
    struct tui_style def;
    unsigned mono;
} slots[TUI_STYLE_COUNT] = {
#define STYLE(id, name, fg, bg, attrs, mono) [TUI_STYLE_##id] = {name, {fg, bg, attrs}, mono},
#include "tui/styles.def"
#undef STYLE
};

static const char *const color_names[8] = {"black", "red",     "green", "yellow",
                                           "blue",  "magenta", "cyan",  "white"};

static const struct {
    const char *name;
    unsigned bit;
} attr_names[] = {
    {"bold", TUI_A_BOLD},       {"dim", TUI_A_DIM},       {"underline", TUI_A_UNDERLINE},
    {"reverse", TUI_A_REVERSE}, {"italic", TUI_A_ITALIC},
};

/* The themes beside the running program: <dir>/themes (a build tree, where `make` links the
 * source's themes) or <dir>/../share/iodfg/themes (an installation moved elsewhere). */
static const char *exe_themes(char *buf, size_t size)
{
    char exe[4096];
    ssize_t n = readlink("/proc/self/exe", exe, sizeof(exe) - 1);
    if (n <= 0) {
        return NULL;
    }
    exe[n] = '\0';
    char *slash = strrchr(exe, '/');
    if (!slash) {
        return NULL;
    }
    *slash = '\0';
    static const char *const rel[] = {"themes", "../share/iodfg/themes"};
    for (size_t i = 0; i < sizeof(rel) / sizeof(rel[0]); i++) {
        char probe[4200];
        snprintf(probe, sizeof(probe), "%s/%s/default.theme", exe, rel[i]);
        if (access(probe, R_OK) == 0 && snprintf(buf, size, "%s/%s", exe, rel[i]) < (int)size) {
            return buf;
        }
    }
    return NULL;
}

void tui_theme_dirs_default(struct tui_theme_dirs *dirs, char *user_buf, size_t size)
{
    const char *xdg = getenv("XDG_CONFIG_HOME");
    const char *home = getenv("HOME");
    const char *env_data = getenv("IODFG_THEMEDIR");
    int n = -1;
    if (xdg && *xdg) {
        n = snprintf(user_buf, size, "%s/iodfg/themes", xdg);
    } else if (home && *home) {
        n = snprintf(user_buf, size, "%s/.config/iodfg/themes", home);
    }
    dirs->user_dir = n > 0 && (size_t)n < size ? user_buf : NULL;
    dirs->data_dir = env_data && *env_data ? env_data : IODFG_THEMEDIR;
    dirs->exe_dir = exe_themes(dirs->exe_buf, sizeof(dirs->exe_buf));
}

void tui_theme_init_default(struct tui_theme *t)
{
    memset(t, 0, sizeof(*t));
    snprintf(t->name, sizeof(t->name), "default");
    for (int i = 0; i < TUI_STYLE_COUNT; i++) {
        t->style[i] = slots[i].def;
    }
}

void tui_theme_init_mono(struct tui_theme *t)
{
    memset(t, 0, sizeof(*t));
    snprintf(t->name, sizeof(t->name), "monochrome");
    for (int i = 0; i < TUI_STYLE_COUNT; i++) {
        t->style[i] = (struct tui_style){TUI_COLOR_DEFAULT, TUI_COLOR_DEFAULT, slots[i].mono};
    }
}

const char *tui_style_name(enum tui_style_id id)
{
    return (unsigned)id < TUI_STYLE_COUNT ? slots[id].name : "?";
}

int tui_style_by_name(const char *name)
{
    for (int i = 0; i < TUI_STYLE_COUNT; i++) {
        if (strcmp(slots[i].name, name) == 0) {
            return i;
        }
    }
    return -1;
}

static int hexval(int c)
{
    return isdigit(c) ? c - '0' : isxdigit(c) ? tolower(c) - 'a' + 10 : -1;
}

int tui_color_parse(const char *s, size_t len, int *color)
{
    if (len == 7 && s[0] == '#') {
        int v = 0;
        for (size_t i = 1; i < 7; i++) {
            int h = hexval((unsigned char)s[i]);
            if (h < 0) {
                return -1;
            }
            v = v * 16 + h;
        }
        *color = 0x1000000 | v;
        return 0;
    }
    if (len == 7 && memcmp(s, "default", 7) == 0) {
        *color = TUI_COLOR_DEFAULT;
        return 0;
    }
    for (int i = 0; i < 8; i++) {
        if (strlen(color_names[i]) == len && memcmp(color_names[i], s, len) == 0) {
            *color = i;
            return 0;
        }
    }
    if (len >= 1 && len <= 3) {
        int v = 0;
        for (size_t i = 0; i < len; i++) {
            if (!isdigit((unsigned char)s[i])) {
                return -1;
            }
            v = v * 10 + (s[i] - '0');
        }
        if (v <= 255 && !(len > 1 && s[0] == '0')) {
            *color = v;
            return 0;
        }
    }
    return -1;
}

/* ---- colour mapping ---------------------------------------------------------------------- */

static const unsigned char ansi16[16][3] = {
    {0, 0, 0},     {205, 0, 0},     {0, 205, 0},     {205, 205, 0},   {0, 0, 238}, {205, 0, 205},
    {0, 205, 205}, {229, 229, 229}, {127, 127, 127}, {255, 0, 0},     {0, 255, 0}, {255, 255, 0},
    {92, 92, 255}, {255, 0, 255},   {0, 255, 255},   {255, 255, 255},
};

static const int cube_levels[6] = {0, 95, 135, 175, 215, 255};

static void index_rgb(int idx, int rgb[3])
{
    if (idx < 16) {
        for (int i = 0; i < 3; i++) {
            rgb[i] = ansi16[idx][i];
        }
    } else if (idx < 232) {
        idx -= 16;
        rgb[0] = cube_levels[idx / 36];
        rgb[1] = cube_levels[(idx / 6) % 6];
        rgb[2] = cube_levels[idx % 6];
    } else {
        rgb[0] = rgb[1] = rgb[2] = 8 + 10 * (idx - 232);
    }
}

static long dist2(const int a[3], const int b[3])
{
    long d = 0;
    for (int i = 0; i < 3; i++) {
        d += (long)(a[i] - b[i]) * (a[i] - b[i]);
    }
    return d;
}

/* Nearest of the first n (8 or 16) ANSI colours, or of the 240 cube/grey entries (n = 256). */
static int nearest(const int rgb[3], int n)
{
    int best = 0;
    long best_d = -1;
    for (int i = n == 256 ? 16 : 0; i < n; i++) {
        int c[3];
        index_rgb(i, c);
        long d = dist2(rgb, c);
        if (best_d < 0 || d < best_d) {
            best = i, best_d = d;
        }
    }
    return best;
}

int tui_color_resolve(int color, int ncolors)
{
    if (color == TUI_COLOR_DEFAULT || ncolors < 8) {
        return -1;
    }
    int n = ncolors >= 256 ? 256 : ncolors >= 16 ? 16 : 8;
    if (!TUI_COLOR_IS_RGB(color)) {
        if (color < n) {
            return color;
        }
        if (n == 8 && color < 16) {
            return color - 8; // bright variants fall back to the normal ones
        }
    }
    int rgb[3];
    if (TUI_COLOR_IS_RGB(color)) {
        rgb[0] = (color >> 16) & 0xff, rgb[1] = (color >> 8) & 0xff, rgb[2] = color & 0xff;
    } else {
        index_rgb(color, rgb);
    }
    return nearest(rgb, n);
}

/* ---- parser ------------------------------------------------------------------------------- */

enum section { SEC_NONE, SEC_THEME, SEC_PALETTE, SEC_STYLES };

struct parser {
    struct tui_theme *t;
    const char *where;
    const struct tui_theme_dirs *dirs;
    struct iodfg_error *err;
    unsigned long line;
    const char *line_start;
    enum section sec;
    int seen_entries; /* palette or style entries so far (inherits must come first) */
    int depth;
};

/* Words from the input are clipped (tui_conf_clip) by the callers, so messages stay short. */
__attribute__((format(printf, 3, 4))) static int perr(struct parser *p, const char *at,
                                                      const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    tui_conf_verror(p->err, p->where, p->line, (unsigned long)(at - p->line_start) + 1, fmt, ap);
    va_end(ap);
    return -1;
}

static int load_depth(struct tui_theme *t, const char *name_or_path,
                      const struct tui_theme_dirs *dirs, int depth, struct iodfg_error *err);

static int parse_color_word(struct parser *p, const char *s, size_t len, int *color)
{
    if (len > 1 && s[0] == '$') {
        for (int i = 0; i < p->t->npalette; i++) {
            if (strlen(p->t->palette[i].name) == len - 1 &&
                memcmp(p->t->palette[i].name, s + 1, len - 1) == 0) {
                *color = p->t->palette[i].color;
                return 0;
            }
        }
        return perr(p, s, "undefined palette colour '%.*s'", tui_conf_clip(len), s);
    }
    if (tui_color_parse(s, len, color) < 0) {
        return perr(p, s,
                    "unknown colour '%.*s' (expected a colour name, default, 0-255 or #rrggbb)",
                    tui_conf_clip(len), s);
    }
    return 0;
}

static int parse_style(struct parser *p, const char *v, const char *end, struct tui_style *st)
{
    *st = (struct tui_style){TUI_COLOR_DEFAULT, TUI_COLOR_DEFAULT, 0};
    while (v < end) {
        if (isspace((unsigned char)*v)) {
            v++;
            continue;
        }
        const char *w = v;
        while (v < end && !isspace((unsigned char)*v)) {
            v++;
        }
        size_t len = (size_t)(v - w);
        if (len > 3 && (memcmp(w, "fg=", 3) == 0 || memcmp(w, "bg=", 3) == 0)) {
            if (parse_color_word(p, w + 3, len - 3, w[0] == 'f' ? &st->fg : &st->bg) < 0) {
                return -1;
            }
            continue;
        }
        if (len == 4 && memcmp(w, "none", 4) == 0) {
            continue;
        }
        size_t i;
        for (i = 0; i < sizeof(attr_names) / sizeof(attr_names[0]); i++) {
            if (strlen(attr_names[i].name) == len && memcmp(attr_names[i].name, w, len) == 0) {
                st->attrs |= attr_names[i].bit;
                break;
            }
        }
        if (i == sizeof(attr_names) / sizeof(attr_names[0])) {
            return perr(p, w,
                        "unknown attribute '%.*s' (expected fg=, bg=, bold, dim, underline, "
                        "reverse, italic or none)",
                        tui_conf_clip(len), w);
        }
    }
    return 0;
}

static int do_inherits(struct parser *p, const char *v, size_t len)
{
    if (p->seen_entries) {
        return perr(p, v, "'inherits = %.*s' must come before [palette] and [styles] entries",
                    tui_conf_clip(len), v);
    }
    if (p->depth >= MAX_DEPTH) {
        return perr(p, v, "theme '%.*s' inherits too deeply (a cycle?)", tui_conf_clip(len), v);
    }
    char name[4096], keep[64];
    snprintf(name, sizeof(name), "%.*s", (int)(len < 255 ? len : 255), v);
    // A relative path is relative to the directory of the file that names it.
    const char *slash = strrchr(p->where, '/');
    if (memchr(v, '/', len) && v[0] != '/' && slash) {
        const char *rel = v;
        while (len > 2 && rel[0] == '.' && rel[1] == '/') {
            rel += 2, len -= 2;
        }
        snprintf(name, sizeof(name), "%.*s/%.*s", (int)(slash - p->where), p->where,
                 (int)(len < 255 ? len : 255), rel);
    }
    memcpy(keep, p->t->name, sizeof(keep));
    if (load_depth(p->t, name, p->dirs, p->depth + 1, p->err) < 0) {
        iodfg_error_at(p->err, p->where, p->line, (unsigned long)(v - p->line_start) + 1);
        return -1;
    }
    memcpy(p->t->name, keep, sizeof(keep));
    memset(p->t->set, 0, sizeof(p->t->set));
    return 0;
}

static int do_entry(struct parser *p, const char *k, size_t klen, const char *v, const char *vend)
{
    size_t vlen = (size_t)(vend - v);
    switch (p->sec) {
    case SEC_NONE:
        return perr(p, k, "'%.*s' outside a section (expected [theme], [palette] or [styles])",
                    tui_conf_clip(klen), k);
    case SEC_THEME:
        if (klen == 4 && memcmp(k, "name", 4) == 0) {
            if (vlen == 0 || vlen >= sizeof(p->t->name)) {
                return perr(p, v, "theme name '%.*s' must have 1-63 characters",
                            tui_conf_clip(vlen), v);
            }
            snprintf(p->t->name, sizeof(p->t->name), "%.*s", (int)vlen, v);
            return 0;
        }
        if (klen == 8 && memcmp(k, "inherits", 8) == 0) {
            return do_inherits(p, v, vlen);
        }
        return perr(p, k, "unknown key '%.*s' in [theme] (expected name or inherits)",
                    tui_conf_clip(klen), k);
    case SEC_PALETTE: {
        p->seen_entries = 1;
        int color;
        if (parse_color_word(p, v, vlen, &color) < 0) {
            return -1;
        }
        int i;
        for (i = 0; i < p->t->npalette; i++) {
            if (strlen(p->t->palette[i].name) == klen &&
                memcmp(p->t->palette[i].name, k, klen) == 0) {
                break;
            }
        }
        if (i == p->t->npalette) {
            if (i == TUI_THEME_PALETTE_MAX || klen >= sizeof(p->t->palette[0].name)) {
                return perr(p, k, "palette entry '%.*s': too many entries or name too long",
                            tui_conf_clip(klen), k);
            }
            p->t->npalette++;
        }
        snprintf(p->t->palette[i].name, sizeof(p->t->palette[i].name), "%.*s", (int)klen, k);
        p->t->palette[i].color = color;
        return 0;
    }
    case SEC_STYLES: {
        p->seen_entries = 1;
        char name[64];
        snprintf(name, sizeof(name), "%.*s", (int)(klen < 63 ? klen : 63), k);
        int slot = klen < 63 ? tui_style_by_name(name) : -1;
        if (slot < 0) {
            return perr(p, k, "unknown style slot '%.*s'", tui_conf_clip(klen), k);
        }
        if (parse_style(p, v, vend, &p->t->style[slot]) < 0) {
            return -1;
        }
        p->t->set[slot] = 1;
        return 0;
    }
    }
    return 0;
}

static int parse_section(struct parser *p, const char *s, const char *end)
{
    const char *name = s + 1;
    const char *close = memchr(name, ']', (size_t)(end - name));
    if (!close) {
        return perr(p, end, "expected ']'");
    }
    const char *after = close + 1;
    while (after < end && isspace((unsigned char)*after)) {
        after++;
    }
    if (after < end) {
        return perr(p, after, "unexpected '%.*s' after the section name",
                    tui_conf_clip((size_t)(end - after)), after);
    }
    size_t len = (size_t)(close - name);
    if (len == 5 && memcmp(name, "theme", 5) == 0) {
        p->sec = SEC_THEME;
    } else if (len == 7 && memcmp(name, "palette", 7) == 0) {
        p->sec = SEC_PALETTE;
    } else if (len == 6 && memcmp(name, "styles", 6) == 0) {
        p->sec = SEC_STYLES;
    } else {
        return perr(p, name, "unknown section '[%.*s]' (expected theme, palette or styles)",
                    tui_conf_clip(len), name);
    }
    return 0;
}

static int parse_line(struct parser *p, const char *s, const char *end)
{
    while (s < end && isspace((unsigned char)*s)) {
        s++;
    }
    while (end > s && isspace((unsigned char)end[-1])) {
        end--;
    }
    if (s == end || *s == '#' || *s == ';') {
        return 0;
    }
    if (*s == '[') {
        return parse_section(p, s, end);
    }
    const char *k = s;
    while (s < end && !isspace((unsigned char)*s) && *s != '=') {
        s++;
    }
    size_t klen = (size_t)(s - k);
    while (s < end && isspace((unsigned char)*s)) {
        s++;
    }
    if (s == end || *s != '=') {
        return perr(p, s, "expected '=' after '%.*s'", tui_conf_clip(klen), k);
    }
    s++;
    while (s < end && isspace((unsigned char)*s)) {
        s++;
    }
    return do_entry(p, k, klen, s, end);
}

static int parse_depth(struct tui_theme *t, const char *text, size_t len, const char *where,
                       const struct tui_theme_dirs *dirs, int depth, struct iodfg_error *err)
{
    tui_theme_init_default(t);
    memset(t->set, 0, sizeof(t->set));
    // The name defaults to the file's base name without ".theme".
    const char *base = strrchr(where, '/');
    base = base ? base + 1 : where;
    size_t blen = strlen(base);
    if (blen > 6 && strcmp(base + blen - 6, ".theme") == 0) {
        blen -= 6;
    }
    snprintf(t->name, sizeof(t->name), "%.*s", (int)(blen < 63 ? blen : 63), base);

    struct parser p = {.t = t, .where = where, .dirs = dirs, .err = err, .depth = depth};
    const char *s = text, *end = text + len;
    while (s < end) {
        const char *nl = memchr(s, '\n', (size_t)(end - s));
        const char *eol = nl ? nl : end;
        p.line++;
        p.line_start = s;
        if (memchr(s, '\0', (size_t)(eol - s))) {
            return perr(&p, memchr(s, '\0', (size_t)(eol - s)), "NUL byte in theme file");
        }
        if (parse_line(&p, s, eol) < 0) {
            return -1;
        }
        s = nl ? nl + 1 : end;
    }
    return 0;
}

int tui_theme_parse(struct tui_theme *t, const char *text, size_t len, const char *where,
                    const struct tui_theme_dirs *dirs, struct iodfg_error *err)
{
    return parse_depth(t, text, len, where, dirs, 0, err);
}

static int load_path(struct tui_theme *t, const char *path, const struct tui_theme_dirs *dirs,
                     int depth, struct iodfg_error *err)
{
    size_t len;
    char *text = iodfg_textfile_read(path, "theme", (size_t)1 << 20, &len, err);
    if (!text) {
        return -1;
    }
    int rc = parse_depth(t, text, len, path, dirs, depth, err);
    free(text);
    return rc;
}

static int load_depth(struct tui_theme *t, const char *name_or_path,
                      const struct tui_theme_dirs *dirs, int depth, struct iodfg_error *err)
{
    if (strchr(name_or_path, '/')) {
        return load_path(t, name_or_path, dirs, depth, err);
    }
    for (const char *c = name_or_path; *c; c++) {
        if (!isalnum((unsigned char)*c) && *c != '-' && *c != '_' && *c != '.') {
            return iodfg_error_set(err, IODFG_E_ARG, "invalid theme name '%s'", name_or_path);
        }
    }
    const char *dir_list[3] = {dirs ? dirs->user_dir : NULL, dirs ? dirs->data_dir : NULL,
                               dirs ? dirs->exe_dir : NULL};
    for (int i = 0; i < 3; i++) {
        if (!dir_list[i]) {
            continue;
        }
        char path[4096];
        snprintf(path, sizeof(path), "%s/%s.theme", dir_list[i], name_or_path);
        if (access(path, R_OK) == 0) { // not opened here: a FIFO would block
            return load_path(t, path, dirs, depth, err);
        }
    }
    if (strcmp(name_or_path, "default") == 0) {
        tui_theme_init_default(t);
        return 0;
    }
    return iodfg_error_set(err, IODFG_E_IO, "theme '%s' not found in %s or %s", name_or_path,
                           dir_list[0] ? dir_list[0] : "(no user dir)",
                           dir_list[1] ? dir_list[1] : "(no data dir)");
}

int tui_theme_load(struct tui_theme *t, const char *name_or_path, const struct tui_theme_dirs *dirs,
                   struct iodfg_error *err)
{
    return load_depth(t, name_or_path, dirs, 0, err);
}

/* ---- listing ------------------------------------------------------------------------------ */

static int cmp_str(const void *a, const void *b)
{
    return strcmp(*(char *const *)a, *(char *const *)b);
}

static int add_name(char ***names, int *n, int *cap, const char *name, size_t len)
{
    for (int i = 0; i < *n; i++) {
        if (strlen((*names)[i]) == len && memcmp((*names)[i], name, len) == 0) {
            return 0;
        }
    }
    if (*n == *cap) {
        int nc = *cap ? *cap * 2 : 8;
        char **nn = realloc(*names, (size_t)nc * sizeof(*nn));
        if (!nn) {
            return -1;
        }
        *names = nn;
        *cap = nc;
    }
    char *copy = malloc(len + 1);
    if (!copy) {
        return -1;
    }
    memcpy(copy, name, len);
    copy[len] = '\0';
    (*names)[(*n)++] = copy;
    return 0;
}

int tui_theme_list(const struct tui_theme_dirs *dirs, char ***names)
{
    char **list = NULL;
    int n = 0, cap = 0;
    if (add_name(&list, &n, &cap, "default", 7) < 0) {
        goto fail;
    }
    const char *dir_list[3] = {dirs ? dirs->user_dir : NULL, dirs ? dirs->data_dir : NULL,
                               dirs ? dirs->exe_dir : NULL};
    for (int i = 0; i < 3; i++) {
        DIR *d = dir_list[i] ? opendir(dir_list[i]) : NULL;
        if (!d) {
            continue;
        }
        struct dirent *e;
        while ((e = readdir(d)) != NULL) {
            size_t len = strlen(e->d_name);
            if (len > 6 && e->d_name[0] != '.' && strcmp(e->d_name + len - 6, ".theme") == 0) {
                if (add_name(&list, &n, &cap, e->d_name, len - 6) < 0) {
                    closedir(d);
                    goto fail;
                }
            }
        }
        closedir(d);
    }
    qsort(list, (size_t)n, sizeof(*list), cmp_str);
    *names = list;
    return n;
fail:
    tui_theme_list_free(list, n);
    return -1;
}

void tui_theme_list_free(char **names, int n)
{
    for (int i = 0; i < n; i++) {
        free(names[i]);
    }
    free(names);
}

int tui_theme_load_next(struct tui_theme *t, const struct tui_theme_dirs *dirs,
                        struct iodfg_error *err)
{
    char **names;
    int n = tui_theme_list(dirs, &names);
    if (n <= 0) {
        return 1;
    }
    int next = 0;
    for (int i = 0; i < n; i++) {
        if (strcmp(names[i], t->name) == 0) {
            next = (i + 1) % n;
        }
    }
    struct tui_theme loaded;
    int rc = tui_theme_load(&loaded, names[next], dirs, err);
    if (rc == 0) {
        *t = loaded;
    }
    tui_theme_list_free(names, n);
    return rc;
}
