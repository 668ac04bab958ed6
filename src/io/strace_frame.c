/* SPDX-License-Identifier: MIT */
/* strace -k stack frame lines: " > obj(func+0x40) [0x11c9]", " > obj() [0x60c4]" and the
 * unwinder's own messages (" > backtracing_error [0x...]", " > BUG IN ..."). */
#include "config.h"

#include <string.h>

#include "iodfg/stacks.h"

#include "strace_priv.h"

int strace_is_frame(const char *s, size_t n)
{
    return n >= 3 && s[0] == ' ' && s[1] == '>' && s[2] == ' ';
}

// "0x" and 1..16 hex digits filling s[0..n).
static int hex(const char *s, size_t n, uint64_t *v)
{
    if (n < 3 || n > 18 || s[0] != '0' || s[1] != 'x') {
        return -1;
    }
    uint64_t x = 0;
    for (size_t i = 2; i < n; i++) {
        char c = s[i];
        unsigned d = c >= '0' && c <= '9'   ? (unsigned)(c - '0')
                     : c >= 'a' && c <= 'f' ? (unsigned)(c - 'a' + 10)
                     : c >= 'A' && c <= 'F' ? (unsigned)(c - 'A' + 10)
                                            : 16u;
        if (d == 16) {
            return -1;
        }
        x = x << 4 | d;
    }
    *v = x;
    return 0;
}

// strace's unwinder messages are words ("backtracing_error", "BUG IN ..."): no path, no call.
static int is_message(const char *s, size_t n)
{
    if (n == 0 || !((s[0] >= 'a' && s[0] <= 'z') || (s[0] >= 'A' && s[0] <= 'Z'))) {
        return 0;
    }
    for (size_t i = 0; i < n; i++) {
        char c = s[i];
        if (!((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
              c == '_' || c == ' ' || c == '-')) {
            return 0;
        }
    }
    return 1;
}

// "obj(func+0xOFF)" or "obj()" in s[0..n) ending with ')'.
static const char *symbol(const char *s, size_t n, struct iodfg_raw_frame *fr)
{
    const char *lp = memchr(s, '(', n);
    if (!lp || lp == s) {
        return "expected an object and '(' in a stack frame";
    }
    fr->object = s;
    fr->object_len = (size_t)(lp - s);
    const char *in = lp + 1;
    size_t m = (size_t)(s + n - 1 - in);
    if (m == 0) {
        fr->flags = IODFG_FRAME_NO_SYMBOL;
        return NULL;
    }
    for (size_t k = m; k >= 3; k--) { // the last "+0x": C++ names may hold '+' and parentheses
        if (in[k - 3] == '+' && in[k - 2] == '0' && in[k - 1] == 'x') {
            if (k == 3 || hex(in + k - 2, m - (k - 2), &fr->offset)) {
                break;
            }
            fr->function = in;
            fr->function_len = k - 3;
            return NULL;
        }
    }
    return "expected function+0xOFFSET in a stack frame";
}

const char *strace_frame_split(const char *s, size_t n, struct iodfg_raw_frame *fr)
{
    memset(fr, 0, sizeof(*fr));
    fr->object = fr->function = "";
    s += 3; // " > "
    n -= 3;
    size_t body = n;
    if (n && s[n - 1] == ']') {
        const char *br = NULL;
        for (size_t k = n - 1; k-- > 0;) {
            if (s[k] == '[') {
                br = s + k;
                break;
            }
        }
        if (!br || br == s || br[-1] != ' ' ||
            hex(br + 1, (size_t)(s + n - 1 - br - 1), &fr->address)) {
            return "expected [0xADDRESS] at the end of a stack frame";
        }
        body = (size_t)(br - 1 - s);
    } else if (!is_message(s, n)) {
        return "expected a stack frame: obj(function+0xOFFSET) [0xADDRESS]";
    }
    if (body && s[body - 1] == ')') {
        return symbol(s, body, fr);
    }
    if (!is_message(s, body)) {
        return "expected a stack frame: obj(function+0xOFFSET) [0xADDRESS]";
    }
    fr->flags = IODFG_FRAME_ERROR;
    fr->function = s;
    fr->function_len = body;
    return NULL;
}
