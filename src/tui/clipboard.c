/* SPDX-License-Identifier: MIT */
/* OSC 52: the clipboard of the terminal the user sits at, which works through SSH and tmux. */
#include "config.h"

#include "tui/clipboard.h"

#include "iodfg/buf.h"

static void base64(struct iodfg_buf *out, const unsigned char *s, size_t len)
{
    static const char digits[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
    for (size_t i = 0; i < len; i += 3) {
        unsigned v = (unsigned)s[i] << 16;
        v |= i + 1 < len ? (unsigned)s[i + 1] << 8 : 0;
        v |= i + 2 < len ? s[i + 2] : 0;
        char q[4] = {digits[v >> 18 & 63], digits[v >> 12 & 63],
                     i + 1 < len ? digits[v >> 6 & 63] : '=', i + 2 < len ? digits[v & 63] : '='};
        iodfg_buf_add(out, q, 4);
    }
}

int tui_osc52(struct iodfg_buf *out, const char *text, size_t len, int tmux)
{
    size_t start = out->len;
    iodfg_buf_add(out, "\033]52;c;", 7);
    base64(out, (const unsigned char *)text, len);
    iodfg_buf_add(out, "\a", 1);
    if (tmux && !out->failed) {
        size_t end = out->len;
        iodfg_buf_add(out, "\033Ptmux;", 7);
        for (size_t i = start; i < end && !out->failed; i++) {
            char c = out->data[i];
            iodfg_buf_add(out, c == '\033' ? "\033\033" : &c, c == '\033' ? 2 : 1);
        }
        iodfg_buf_add(out, "\033\\", 2);
    }
    return out->failed ? -1 : 0;
}
