/* SPDX-License-Identifier: MIT */
/* The curses screen: setup/restore, theme colours, keys, frame and sanitised text. */
#include "config.h"

#include "tui/term/screen.h"

#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "iodfg/buf.h"
#include "iodfg/error.h"
#include "iodfg/glyph.h"
#include "iodfg/sanitize.h"

#include "tui/clipboard.h"
#include "tui/term/curses.h"
#include "tui/theme.h"
#include "tui/utf8.h"

struct tui_screen {
    SCREEN *term;
    unsigned flags;
    int ncolors; /* 0: monochrome */
    int default_colors;
    int utf8; /* UTF-8 glyphs for lines, arrows, sparks */
    attr_t attr[TUI_STYLE_COUNT];
    short pair[TUI_STYLE_COUNT];
    struct iodfg_buf tmp;
    int cursor_y, cursor_x;
};

/* ---- restoring the terminal on every way out ------------------------------------------- */

// Signal handlers cannot reach a struct; this flag is the one piece of global UI state.
static volatile sig_atomic_t curses_active;
static int atexit_done;
static const int fatal_signals[] = {SIGINT,  SIGTERM, SIGHUP, SIGQUIT,
                                    SIGSEGV, SIGBUS,  SIGFPE, SIGABRT};
#define N_FATAL (sizeof(fatal_signals) / sizeof(fatal_signals[0]))
static struct sigaction old_actions[N_FATAL];

static void restore_terminal(void)
{
    if (curses_active) {
        curses_active = 0;
        endwin();
    }
}

static void on_fatal_signal(int sig)
{
    restore_terminal();
    signal(sig, SIG_DFL);
    raise(sig);
}

static void install_handlers(void)
{
    if (!atexit_done) {
        atexit(restore_terminal);
        atexit_done = 1;
    }
    struct sigaction sa;
    memset(&sa, 0, sizeof(sa));
    sa.sa_handler = on_fatal_signal;
    sigemptyset(&sa.sa_mask);
    sa.sa_flags = SA_RESETHAND;
    for (size_t i = 0; i < N_FATAL; i++) {
        sigaction(fatal_signals[i], &sa, &old_actions[i]);
    }
}

static void remove_handlers(void)
{
    for (size_t i = 0; i < N_FATAL; i++) {
        sigaction(fatal_signals[i], &old_actions[i], NULL);
    }
}

/* ---- colours ------------------------------------------------------------------------------ */

static attr_t curses_attrs(unsigned a)
{
    attr_t r = A_NORMAL;
    r |= (a & TUI_A_BOLD) ? A_BOLD : 0;
    r |= (a & TUI_A_DIM) ? A_DIM : 0;
    r |= (a & TUI_A_UNDERLINE) ? A_UNDERLINE : 0;
    r |= (a & TUI_A_REVERSE) ? A_REVERSE : 0;
#ifdef A_ITALIC
    r |= (a & TUI_A_ITALIC) ? A_ITALIC : 0;
#endif
    return r;
}

static int resolve(const struct tui_screen *s, int color, int fallback)
{
    int c = tui_color_resolve(color, s->ncolors);
    return c < 0 && !s->default_colors ? fallback : c;
}

void tui_screen_set_theme(struct tui_screen *s, const struct tui_theme *theme)
{
    struct tui_theme mono;
    if (s->ncolors == 0 || !theme) {
        tui_theme_init_mono(&mono);
        theme = &mono;
    }
    for (int i = 0; i < TUI_STYLE_COUNT; i++) {
        const struct tui_style *st = &theme->style[i];
        s->attr[i] = curses_attrs(st->attrs);
        if (s->ncolors) {
            int fg = resolve(s, st->fg, COLOR_WHITE), bg = resolve(s, st->bg, COLOR_BLACK);
            init_pair((short)(i + 1), (short)fg, (short)bg);
            s->attr[i] |= COLOR_PAIR(i + 1);
        }
    }
}

static void setup_colors(struct tui_screen *s, unsigned flags)
{
    const char *no_color = getenv("NO_COLOR");
    s->ncolors = 0;
    if ((flags & TUI_SCREEN_NO_COLOR) || (no_color && *no_color) || !has_colors()) {
        return;
    }
    if (start_color() == ERR || COLORS < 8 || COLOR_PAIRS < TUI_STYLE_COUNT + 1) {
        return;
    }
    s->default_colors = use_default_colors() == OK;
    s->ncolors = COLORS >= 256 ? 256 : COLORS >= 16 ? 16 : 8;
}

/* ---- setup -------------------------------------------------------------------------------- */

/* ASCII line drawing: asked for, text that is not UTF-8 (glyph.h, chosen at start-up), or a
 * terminal known to lack the box-drawing characters. */
static int want_ascii(unsigned flags)
{
    const char *term = getenv("TERM");
    if ((flags & TUI_SCREEN_ASCII) || !iodfg_glyph_utf8()) {
        return 1;
    }
    return term && (strncmp(term, "vt100", 5) == 0 || strncmp(term, "vt52", 4) == 0 ||
                    strcmp(term, "dumb") == 0);
}

struct tui_screen *tui_screen_open(const struct tui_theme *theme, unsigned flags,
                                   struct iodfg_error *err)
{
    struct tui_screen *s = calloc(1, sizeof(*s));
    if (!s) {
        iodfg_error_set(err, IODFG_E_NOMEM, "out of memory");
        return NULL;
    }
    s->flags = flags;
    s->utf8 = !want_ascii(flags);
    s->cursor_y = -1;
    iodfg_buf_init(&s->tmp);
    s->term = newterm(NULL, stdout, stdin);
    if (!s->term) {
        const char *term = getenv("TERM");
        iodfg_error_set(err, IODFG_E_IO, "cannot use the terminal (TERM=%s)", term ? term : "");
        free(s);
        return NULL;
    }
    curses_active = 1;
    install_handlers();
    cbreak();
    noecho();
    nonl();
    keypad(stdscr, TRUE);
    // how long an ESC waits for the rest of its sequence: long enough for a key's bytes to
    // arrive together over SSH, short enough for Esc; the user's ESCDELAY wins
    if (!getenv("ESCDELAY")) {
        set_escdelay(50);
    }
    curs_set(0);
    setup_colors(s, flags);
    tui_screen_set_theme(s, theme);
    return s;
}

void tui_screen_close(struct tui_screen *s)
{
    if (!s) {
        return;
    }
    restore_terminal();
    remove_handlers();
    delscreen(s->term);
    iodfg_buf_fini(&s->tmp);
    free(s);
}

int tui_screen_colors(const struct tui_screen *s)
{
    return s->ncolors;
}

int tui_screen_is_utf8(const struct tui_screen *s)
{
    return s->utf8;
}

int tui_screen_width(const struct tui_screen *s)
{
    (void)s;
    return COLS;
}

int tui_screen_height(const struct tui_screen *s)
{
    (void)s;
    return LINES;
}

const char *tui_screen_glyph(const struct tui_screen *s, enum tui_glyph g)
{
    return tui_glyph(g, s->utf8);
}

/* ---- drawing ------------------------------------------------------------------------------ */

void tui_screen_fill(struct tui_screen *s, int y, int x, int w, int style)
{
    if (w <= 0 || y < 0 || y >= LINES) {
        return;
    }
    attr_t a = (unsigned)style < TUI_STYLE_COUNT ? s->attr[style] : A_NORMAL;
    wattrset(stdscr, (int)a);
    mvwhline(stdscr, y, x, ' ', w);
    wattrset(stdscr, A_NORMAL);
}

/* Draw t[0..len) (sanitised) at (y, x) in at most w columns, cut with an ellipsis at the end
 * when longer; right-aligned when asked and it fits. Returns the columns drawn. */
static int draw_clipped(struct tui_screen *s, int y, int x, int w, const char *t, size_t len,
                        unsigned flags)
{
    size_t total = tui_utf8_width(t, len);
    size_t cut = len, used = total;
    if (total > (size_t)w) {
        // Keep whole characters that fit in w - 1 columns, then the ellipsis.
        size_t pos = 0;
        used = 0;
        while (pos < len) {
            size_t next = tui_utf8_next(t, len, pos);
            size_t cw = tui_utf8_width(t + pos, next - pos);
            if (used + cw > (size_t)w - 1) {
                break;
            }
            used += cw;
            pos = next;
        }
        cut = pos;
    }
    int start = x;
    if ((flags & TUI_TEXT_RIGHT) && total <= (size_t)w) {
        start = x + w - (int)total;
    }
    mvwaddnstr(stdscr, y, start, t, (int)cut);
    int drawn = (int)used;
    if (cut < len) {
        waddstr(stdscr, tui_screen_glyph(s, TUI_G_ELLIPSIS));
        drawn++;
    }
    return drawn;
}

/* A name that loses its middle (t[0..len), sanitised) in w columns from x; a transition's two
 * names ("A -> B") each lose theirs. Returns the columns drawn. */
static int draw_middle(struct tui_screen *s, int y, int x, int w, const char *t, size_t len)
{
    const char *ell = tui_screen_glyph(s, TUI_G_ELLIPSIS);
    // the program's arrow, or the ASCII one texts of the engine use
    const char *seps[2] = {iodfg_glyph_text(" → "), " -> "}, *sep = seps[0];
    size_t sl = 0, head, tail;
    const char *at = NULL;
    for (size_t i = 0; i + 4 <= len && !at; i++) {
        for (int k = 0; k < 2 && !at; k++) {
            sl = strlen(seps[k]);
            sep = seps[k];
            at = i + sl <= len && memcmp(t + i, sep, sl) == 0 ? t + i : NULL;
        }
    }
    int sw = (int)tui_utf8_width(sep, sl);
    if (at && w > sw + 6) {
        size_t ln = (size_t)(at - t), rn = len - ln - sl;
        int lw = (int)tui_utf8_width(t, ln), rw = (int)tui_utf8_width(at + sl, rn);
        int half = (w - sw) / 2, lroom = w - sw - (rw < half ? rw : w - sw - half);
        int dl = draw_middle(s, y, x, lroom < lw ? lroom : lw, t, ln);
        mvwaddstr(stdscr, y, x + dl, sep);
        return dl + sw + draw_middle(s, y, x + dl + sw, w - dl - sw, at + sl, rn);
    }
    if (w < 3 || !tui_utf8_elide_middle(t, len, w, &head, &tail)) {
        return draw_clipped(s, y, x, w, t, len, 0);
    }
    mvwaddnstr(stdscr, y, x, t, (int)head);
    waddstr(stdscr, ell);
    waddnstr(stdscr, t + tail, (int)(len - tail));
    return (int)(tui_utf8_width(t, head) + 1 + tui_utf8_width(t + tail, len - tail));
}

int tui_screen_name(struct tui_screen *s, int y, int x, int w, int style, const char *text,
                    unsigned flags, int skip)
{
    if (w <= 0 || y < 0 || y >= LINES || x >= COLS) {
        return 0;
    }
    if (x + w > COLS) {
        w = COLS - x;
    }
    iodfg_buf_clear(&s->tmp);
    if (iodfg_sanitize_term(&s->tmp, text ? text : "", text ? strlen(text) : 0) < 0) {
        return 0;
    }
    const char *t = s->tmp.data ? s->tmp.data : "";
    size_t len = s->tmp.len;
    if (flags & TUI_TEXT_PAD) {
        tui_screen_fill(s, y, x, w, style);
    }
    attr_t a = (unsigned)style < TUI_STYLE_COUNT ? s->attr[style] : A_NORMAL;
    wattrset(stdscr, (int)a);
    int drawn;
    const char *ell = tui_screen_glyph(s, TUI_G_ELLIPSIS);
    if (skip > 0 && w > 1) { // scrolled sideways: what is left of the name, from its column skip
        size_t off = tui_utf8_skip_cols(t, len, (size_t)skip);
        mvwaddstr(stdscr, y, x, ell);
        drawn = 1 + draw_clipped(s, y, x + 1, w - 1, t + off, len - off, 0);
    } else if ((flags & TUI_TEXT_MIDDLE) && tui_utf8_width(t, len) > (size_t)w) {
        drawn = draw_middle(s, y, x, w, t, len);
    } else {
        drawn = draw_clipped(s, y, x, w, t, len, flags);
    }
    wattrset(stdscr, A_NORMAL);
    return drawn;
}

int tui_screen_text(struct tui_screen *s, int y, int x, int w, int style, const char *text,
                    unsigned flags)
{
    return tui_screen_name(s, y, x, w, style, text, flags, 0);
}

void tui_screen_hline(struct tui_screen *s, int y, int x, int w, int style)
{
    if (w <= 0 || y < 0 || y >= LINES) {
        return;
    }
    attr_t a = (unsigned)style < TUI_STYLE_COUNT ? s->attr[style] : A_NORMAL;
    wattrset(stdscr, (int)a);
    wmove(stdscr, y, x);
    const char *g = tui_screen_glyph(s, TUI_G_HLINE);
    for (int i = 0; i < w && x + i < COLS; i++) {
        waddstr(stdscr, g);
    }
    wattrset(stdscr, A_NORMAL);
}

int tui_screen_clipboard(struct tui_screen *s, const char *text)
{
    const char *tmux = getenv("TMUX");
    iodfg_buf_clear(&s->tmp);
    if (tui_osc52(&s->tmp, text, strlen(text), tmux && *tmux)) {
        return -1;
    }
    // between frames curses has written all it had: the sequence goes straight after it
    fflush(stdout);
    size_t off = 0;
    while (off < s->tmp.len) {
        ssize_t w = write(STDOUT_FILENO, s->tmp.data + off, s->tmp.len - off);
        if (w < 0 && errno == EINTR) {
            continue;
        }
        if (w <= 0) {
            return -1;
        }
        off += (size_t)w;
    }
    return 0;
}

void tui_screen_cursor(struct tui_screen *s, int y, int x)
{
    s->cursor_y = y;
    s->cursor_x = x;
}

static void draw_too_small(struct tui_screen *s)
{
    char l1[64], l2[64];
    snprintf(l1, sizeof(l1), "Terminal too small: %dx%d", COLS, LINES);
    snprintf(l2, sizeof(l2), "iodfg needs at least %dx%d", TUI_SCREEN_MIN_W, TUI_SCREEN_MIN_H);
    const char *lines[3] = {l1, l2, "Resize, or press q to quit"};
    int y0 = LINES / 2 - 1;
    for (int i = 0; i < 3; i++) {
        int len = (int)strlen(lines[i]);
        int x = COLS > len ? (COLS - len) / 2 : 0;
        tui_screen_text(s, y0 + i, x, COLS - x, i == 0 ? TUI_STYLE_ERROR : TUI_STYLE_NORMAL,
                        lines[i], 0);
    }
}

int tui_screen_begin(struct tui_screen *s)
{
    werase(stdscr);
    s->cursor_y = -1;
    if (COLS < TUI_SCREEN_MIN_W || LINES < TUI_SCREEN_MIN_H) {
        draw_too_small(s);
        return -1;
    }
    return 0;
}

void tui_screen_end(struct tui_screen *s)
{
    if (s->cursor_y >= 0) {
        curs_set(1);
        wmove(stdscr, s->cursor_y, s->cursor_x);
    } else {
        curs_set(0);
    }
    wnoutrefresh(stdscr);
    doupdate();
}

struct tui_rect tui_screen_body(const struct tui_screen *s)
{
    (void)s;
    return (struct tui_rect){2, 0, LINES - 5, COLS};
}

/* Width of the tab bar: inactive names cut to abbrev characters (0 = whole, -1 = none: keys
 * only), gap columns between tabs (the active one keeps a column each side for its brackets). */
static int tabs_width(const struct tui_tab *tabs, int ntabs, int active, int abbrev, int gap)
{
    int w = 0;
    for (int i = 0; i < ntabs; i++) {
        int nl = (int)tui_utf8_width(tabs[i].name, strlen(tabs[i].name));
        if (abbrev && i != active && nl > abbrev) {
            nl = abbrev < 0 ? 0 : abbrev;
        }
        w += (int)strlen(tabs[i].key) + (nl ? 1 + nl : 0) + gap;
        w += i == active && gap < 2 ? 1 + (i > 0) : 0; // room for the brackets
    }
    return w;
}

void tui_screen_tabs(struct tui_screen *s, const char *title, const char *log,
                     const struct tui_tab *tabs, int ntabs, int active)
{
    tui_screen_fill(s, 0, 0, COLS, TUI_STYLE_TAB);
    int x = 0;
    char t[80];
    snprintf(t, sizeof(t), " %s ", title);
    x += tui_screen_text(s, 0, x, COLS, TUI_STYLE_TITLE, t, 0) + 1;
    // Full tab names when they fit with (some of) the log name, else the inactive ones
    // shortened to 3 characters, else also one column between them instead of two.
    int abbrev = 0, gap = 2;
    int tw = tabs_width(tabs, ntabs, active, 0, gap);
    int loglen = log ? (int)tui_utf8_width(log, strlen(log)) : 0;
    int want = (loglen < 10 ? loglen : 10) + 2;
    if (x + tw + want > COLS) {
        abbrev = 3;
        tw = tabs_width(tabs, ntabs, active, abbrev, gap);
    }
    if (x + tw + want > COLS) {
        gap = 1;
        tw = tabs_width(tabs, ntabs, active, abbrev, gap);
    }
    if (x + tw > COLS) { // the inactive tabs by their keys alone (the help names them)
        abbrev = -1;
        gap = 2;
        tw = tabs_width(tabs, ntabs, active, abbrev, gap);
    }
    int tx = COLS - tw > x ? COLS - tw : x;
    if (log && *log) {
        tui_screen_text(s, 0, x + 1, tx - x - 2, TUI_STYLE_TAB, log, 0);
    }
    for (int i = 0; i < ntabs && tx < COLS; i++) {
        int style = i == active ? TUI_STYLE_TAB_ACTIVE : TUI_STYLE_TAB;
        char name[64];
        snprintf(name, sizeof(name), "%s", tabs[i].name);
        if (abbrev && i != active) {
            size_t cut = 0;
            for (int k = 0; k < abbrev && name[cut]; k++) {
                cut = tui_utf8_next(name, strlen(name), cut);
            }
            name[cut] = '\0';
        }
        if (i == active && gap < 2 && i > 0) {
            tx++;
        }
        int start = tx;
        tx += tui_screen_text(s, 0, tx, COLS - tx, i == active ? style : TUI_STYLE_TAB_KEY,
                              tabs[i].key, 0);
        if (name[0]) {
            tx += tui_screen_text(s, 0, tx, COLS - tx, style, " ", 0);
            tx += tui_screen_text(s, 0, tx, COLS - tx, style, name, 0);
        }
        if (i == active) {
            // Mark the active tab without colour too (brackets are visible in monochrome).
            tui_screen_text(s, 0, start - 1, 1, TUI_STYLE_TAB_ACTIVE, "[", 0);
            tui_screen_text(s, 0, tx, 1, TUI_STYLE_TAB_ACTIVE, "]", 0);
        }
        tx += i == active && gap < 2 ? 2 : gap;
    }
    tui_screen_hline(s, 1, 0, COLS, TUI_STYLE_BORDER);
    tui_screen_hline(s, LINES - 3, 0, COLS, TUI_STYLE_BORDER);
}

void tui_screen_detail(struct tui_screen *s, const char *text)
{
    tui_screen_detail_name(s, text, 0);
}

void tui_screen_detail_name(struct tui_screen *s, const char *text, size_t name)
{
    tui_screen_fill(s, LINES - 2, 0, COLS, TUI_STYLE_DETAIL);
    size_t len = strlen(text);
    if (name == 0 || name > len) {
        tui_screen_text(s, LINES - 2, 1, COLS - 1, TUI_STYLE_DETAIL, text, 0);
        return;
    }
    // the name keeps at least half the line (more when the rest is short); it loses its middle
    char *copy = strndup(text, name);
    if (!copy) {
        tui_screen_text(s, LINES - 2, 1, COLS - 1, TUI_STYLE_DETAIL, text, 0);
        return;
    }
    int avail = COLS - 1, rest = (int)tui_utf8_width(text + name, len - name);
    int nw = (int)tui_utf8_width(copy, name);
    int room = avail - rest > avail / 2 ? avail - rest : avail / 2;
    int drawn = tui_screen_text(s, LINES - 2, 1, nw < room ? nw : room, TUI_STYLE_DETAIL, copy,
                                TUI_TEXT_MIDDLE);
    tui_screen_text(s, LINES - 2, 1 + drawn, avail - drawn, TUI_STYLE_DETAIL, text + name, 0);
    free(copy);
}

void tui_screen_status(struct tui_screen *s, const char *text, int style)
{
    tui_screen_fill(s, LINES - 1, 0, COLS, style);
    tui_screen_text(s, LINES - 1, 1, COLS - 1, style, text, 0);
}
