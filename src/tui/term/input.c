/* SPDX-License-Identifier: MIT */
/* The screen's keys (screen.h): curses' key codes translated, and the escape sequences its
 * terminfo entry does not know decoded here (or dropped whole), so a wrong TERM never turns one
 * key into several. */
#include "config.h"

#include "tui/keys.h"
#include "tui/term/curses.h"
#include "tui/term/screen.h"

static int translate_code(int code)
{
    switch (code) {
    case KEY_UP:
        return TUI_KEY_UP;
    case KEY_DOWN:
        return TUI_KEY_DOWN;
    case KEY_LEFT:
        return TUI_KEY_LEFT;
    case KEY_RIGHT:
        return TUI_KEY_RIGHT;
    case KEY_HOME:
    case KEY_A1:
        return TUI_KEY_HOME;
    case KEY_END:
    case KEY_C1:
        return TUI_KEY_END;
    case KEY_PPAGE:
    case KEY_A3:
        return TUI_KEY_PGUP;
    case KEY_NPAGE:
    case KEY_C3:
        return TUI_KEY_PGDN;
    case KEY_IC:
        return TUI_KEY_INSERT;
    case KEY_DC:
        return TUI_KEY_DELETE;
    case KEY_BTAB:
        return TUI_KEY_BTAB;
    case KEY_BACKSPACE:
        return TUI_KEY_BACKSPACE;
    case KEY_ENTER:
        return TUI_KEY_ENTER;
    case KEY_RESIZE:
        return TUI_KEY_RESIZE;
    default:
        break;
    }
    if (code >= KEY_F(1) && code <= KEY_F(12)) {
        return TUI_KEY_F1 + code - KEY_F(1);
    }
    return -1;
}

/* The next character of an escape sequence, waiting at most ESC_FOLLOW_MS: a character, or -1
 * (none came, or curses returned a key code: not part of a sequence). */
#define ESC_FOLLOW_MS 15
static int esc_next(void)
{
    wint_t c;
    wtimeout(stdscr, ESC_FOLLOW_MS);
    int rc = wget_wch(stdscr, &c);
    return rc == OK && c < 0x80 ? (int)c : -1;
}

/* The key of CSI or SS3 (intro '[' or 'O') with its first numeric parameter p and final
 * byte: the xterm, VT220, rxvt and tmux forms of the keys the TUI binds (modifiers such as
 * ;5 are left aside); -1 for any other. */
static int csi_key(int intro, int p, int final)
{
    static const int tilde[] = {
        [1] = TUI_KEY_HOME,     [2] = TUI_KEY_INSERT,   [3] = TUI_KEY_DELETE,
        [4] = TUI_KEY_END,      [5] = TUI_KEY_PGUP,     [6] = TUI_KEY_PGDN,
        [7] = TUI_KEY_HOME,     [8] = TUI_KEY_END,      [11] = TUI_KEY_F1,
        [12] = TUI_KEY_F1 + 1,  [13] = TUI_KEY_F1 + 2,  [14] = TUI_KEY_F1 + 3,
        [15] = TUI_KEY_F1 + 4,  [17] = TUI_KEY_F1 + 5,  [18] = TUI_KEY_F1 + 6,
        [19] = TUI_KEY_F1 + 7,  [20] = TUI_KEY_F1 + 8,  [21] = TUI_KEY_F1 + 9,
        [23] = TUI_KEY_F1 + 10, [24] = TUI_KEY_F1 + 11,
    };
    switch (final) {
    case 'A':
        return TUI_KEY_UP;
    case 'B':
        return TUI_KEY_DOWN;
    case 'C':
        return TUI_KEY_RIGHT;
    case 'D':
        return TUI_KEY_LEFT;
    case 'H':
        return TUI_KEY_HOME;
    case 'F':
        return TUI_KEY_END;
    case 'Z':
        return intro == '[' ? TUI_KEY_BTAB : -1;
    case 'P':
    case 'Q':
    case 'R':
    case 'S':
        return TUI_KEY_F1 + final - 'P'; // SS3 P..S, or CSI 1;2P with a modifier
    case 'M':
        return intro == 'O' ? TUI_KEY_ENTER : -1; // the keypad's Enter
    case '~':
        return p > 0 && p < (int)(sizeof(tilde) / sizeof(tilde[0])) && tilde[p] ? tilde[p] : -1;
    default:
        return -1;
    }
}

/* After an ESC that curses did not take as a key (its terminfo lacks the sequence, as End's
 * ESC [ 4 ~ under TERM=xterm-256color inside tmux): read the rest of the sequence and decode
 * it. A lone Esc is TUI_KEY_ESC, and so is one followed by a key other than [ or O (which is
 * read next); a CSI or SS3 sequence that is not a known key, or an incomplete one, is dropped
 * whole (-1): never read as separate keys ([ lowers a threshold, 4 switches the view). */
static int escape_key(void)
{
    int c = esc_next();
    if (c < 0) {
        return TUI_KEY_ESC;
    }
    if (c != '[' && c != 'O') { // Esc, then a key typed soon after (or Alt+key): both
        unget_wch((wchar_t)c);
        return TUI_KEY_ESC;
    }
    int p = 0, first = 1, n = 0;
    for (;;) {
        int d = esc_next();
        if (d < 0 || ++n > 32) {
            return -1; // cut short: drop what came
        }
        if (c == 'O' && d >= 0x40 && d <= 0x7e) {
            return csi_key(c, 0, d);
        }
        if (d >= '0' && d <= '9') {
            p = first ? p * 10 + (d - '0') : p;
            p = p > 1000 ? 1000 : p;
        } else if (d == ';') {
            first = 0;
        } else if (d >= 0x20 && d <= 0x3f) {
            continue;                    // other parameter and intermediate bytes
        } else if (d == 'M' && n == 1) { // an X10 mouse report: three raw bytes follow
            for (int k = 0; k < 3; k++) {
                esc_next();
            }
            return -1;
        } else if (d >= 0x40 && d <= 0x7e) {
            return csi_key(c, p, d);
        } else {
            return -1;
        }
    }
}

int tui_screen_getkey(struct tui_screen *s, int timeout_ms)
{
    (void)s;
    for (;;) {
        wint_t wch;
        wtimeout(stdscr, timeout_ms);
        int rc = wget_wch(stdscr, &wch);
        if (rc == ERR) {
            return -1;
        }
        if (rc == KEY_CODE_YES) {
            int k = translate_code((int)wch);
            if (k >= 0) {
                return k;
            }
            continue; // a key we do not know: ignore it
        }
        if (wch == TUI_KEY_ESC) {
            int k = escape_key();
            if (k >= 0) {
                return k;
            }
            continue;
        }
        switch (wch) {
        case '\r':
        case '\n':
            return TUI_KEY_ENTER;
        case 8:
        case 127:
            return TUI_KEY_BACKSPACE;
        default:
            return (int)wch;
        }
    }
}
