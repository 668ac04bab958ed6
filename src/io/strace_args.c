// SPDX-License-Identifier: MIT
/* Reading a call's arguments from strace's text: numbers counted from the end (counts and
 * offsets) and the first argument (a descriptor with its path, AT_FDCWD, or a string). */
#include "config.h"

#include <stdint.h>
#include <string.h>

#include "iodfg/eventlog.h"

#include "strace_priv.h"

static int is_digit(char c)
{
    return c >= '0' && c <= '9';
}

/* The value of the n digits at s; *over set when it does not fit 64 bits. Up to 19 digits
 * always fit: only longer runs are checked digit by digit. */
static uint64_t digits_value(const char *s, size_t n, int *over)
{
    uint64_t x = 0;
    size_t i = 0;
    if (n <= 19) {
#ifdef STRACE_SWAR
        for (; i + 8 <= n; i += 8) {
            x = x * 100000000u + sw_parse8(sw_load(s + i));
        }
#endif
        for (; i < n; i++) {
            x = x * 10 + (unsigned)(s[i] - '0');
        }
        return x;
    }
    for (; i < n; i++) {
        unsigned dig = (unsigned)(s[i] - '0');
        *over |= x > (UINT64_MAX - dig) / 10;
        x = x * 10 + dig;
    }
    return x;
}

#ifdef STRACE_SWAR
/* The value of the last k (1..8) bytes of w, all digits. */
static inline __attribute__((always_inline)) uint32_t sw_parse_trail(uint64_t w, unsigned k)
{
    if (k == 8) {
        return sw_parse8(w);
    }
    unsigned sh = 8 * (8 - k); // keep the last k bytes, '0' before them
    return sw_parse8((w >> sh << sh) | (0x3030303030303030ull >> (64 - sh)));
}

/* The argument of p ending at end when it is 1 to 15 digits after blanks and a ',' (or the
 * start): 1 with its value *x, its first digit *at and that ',' *comma (SIZE_MAX: the start).
 * Anything else (a sign, no digit, more digits, too few bytes to read): 0, for the general
 * code. Reads 8 bytes at a time, all inside p[0, end). Inlined: a call per argument cost more
 * than the reading. */
static inline __attribute__((always_inline)) int plain_tail(const char *p, size_t end, uint64_t *x,
                                                            size_t *at, size_t *comma)
{
    if (end < 8) {
        return 0;
    }
    uint64_t w = sw_load(p + end - 8);
    unsigned d = sw_trail(sw_digits(w));
    if (d == 0) {
        return 0;
    }
    *x = sw_parse_trail(w, d);
    if (d == 8) {
        if (end < 16) {
            return 0;
        }
        uint64_t hi = sw_load(p + end - 16);
        unsigned dh = sw_trail(sw_digits(hi));
        if (dh == 8) {
            return 0;
        }
        if (dh) {
            *x += (uint64_t)sw_parse_trail(hi, dh) * 100000000u;
        }
        d += dh;
    }
    size_t j = end - d;
    *at = j;
    if (j >= 2 && p[j - 1] == ' ' && p[j - 2] == ',') { // ", " as strace separates arguments
        *comma = j - 2;
        return 1;
    }
    while (j > 0 && p[j - 1] == ' ') {
        j--;
    }
    if (j > 0 && p[j - 1] != ',') {
        return 0;
    }
    *comma = j > 0 ? j - 1 : SIZE_MAX;
    return 1;
}
#endif

/* The k-th argument from the end as a number: 0 with *v (IODFG_UNKNOWN when the argument is
 * not a plain number: a flag, a pointer, missing; or a size_t of 2^63 or more, as strace shows
 * a count of SIZE_MAX); -1 when it is digits that do not fit 64 bits (or 63 when size is 0),
 * -2 when it is a negative number; *at is then its offset in args. */
int strace_arg_number(struct text args, unsigned k, int size, int64_t *v, size_t *at)
{
    *v = IODFG_UNKNOWN;
#ifdef STRACE_SWAR
    if (k == 1 && args.n >= 8) { // up to seven digits after a blank or a comma
        uint64_t w = sw_load(args.p + args.n - 8);
        unsigned d = sw_trail(sw_digits(w));
        if (d > 0 && d < 8) {
            char before = args.p[args.n - d - 1];
            if (before != ' ' && before != ',' && before != '-') {
                return 0;
            }
            if (before != '-') {
                unsigned sh = 8 * (8 - d); // keep the last d bytes, '0' before them
                *v = (int64_t)sw_parse8((w >> sh << sh) | (0x3030303030303030ull >> (64 - sh)));
                return 0;
            }
        }
    }
    if (k <= 2) { // the last or the one before it (pread64's count), a plain number
        uint64_t x;
        size_t first, comma, end = args.n;
        if (k == 2) {
            end = plain_tail(args.p, end, &x, &first, &comma) ? comma : SIZE_MAX;
        }
        if (end != SIZE_MAX && plain_tail(args.p, end, &x, &first, &comma)) {
            *at = first;
            *v = (int64_t)x;
            return 0;
        }
    }
#endif
    size_t end = args.n;
    for (;;) {
        size_t b = end;
        while (b > 0 && args.p[b - 1] != ',') {
            b--;
        }
        if (--k == 0) {
            size_t i = b;
            while (i < end && args.p[i] == ' ') {
                i++;
            }
            *at = i;
            int neg = i < end && args.p[i] == '-';
            size_t d = i + (size_t)neg;
            for (i = d; i < end && is_digit(args.p[i]); i++) {
            }
            if (i == d || i != end) {
                return 0; // not a number
            }
            int over = 0;
            uint64_t x = digits_value(args.p + d, end - d, &over);
            if (over || (!size && x > (uint64_t)INT64_MAX)) {
                return -1;
            }
            if (neg) {
                return x ? -2 : 0;
            }
            *v = x > (uint64_t)INT64_MAX ? IODFG_UNKNOWN : (int64_t)x;
            return 0;
        }
        if (b == 0) {
            return 0;
        }
        end = b - 1;
    }
}

void strace_arg0_parse(const char *s, size_t n, struct strace_arg0 *a)
{
    a->has_fd = a->at_fdcwd = 0;
    a->fd = 0;
    a->annot.p = a->string.p = NULL;
    a->annot.n = a->string.n = 0;
    a->annot_plain = 0;
    size_t i = 0;
    if (n >= 8 && memcmp(s, "AT_FDCWD", 8) == 0) {
        a->at_fdcwd = 1;
        i = 8;
    } else if (i < n && (is_digit(s[i]) || (s[i] == '-' && i + 1 < n && is_digit(s[i + 1])))) {
        int neg = s[i] == '-';
        i += neg;
        int64_t v = 0;
        while (i < n && is_digit(s[i]) && v <= 0x7fffffff) {
            v = v * 10 + (s[i++] - '0');
        }
        if (v <= 0x7fffffff) {
            a->has_fd = 1;
            a->fd = (int32_t)(neg ? -v : v);
        }
    } else if (i < n && s[i] == '"') {
        size_t j = 1;
        while (j < n && s[j] != '"') {
            j += s[j] == '\\' ? 2 : 1;
        }
        if (j < n) {
            a->string.p = s + 1;
            a->string.n = j - 1;
        }
    }
    if ((a->has_fd || a->at_fdcwd) && i < n && s[i] == '<') {
        size_t plen, e = strace_annot_scan(s + i, n - i, &plen, &a->annot_plain);
        if (e != (size_t)-1) {
            a->annot.p = s + i + 1;
            a->annot.n = plen;
            i += e + 1;
        }
    }
    a->scanned = i;
}

// Index of the ',' or ')' that ends the argument parsed into a (only some calls need it).
size_t strace_arg0_end(const char *s, size_t n, const struct strace_arg0 *a)
{
    size_t i = a->scanned;
    if (a->string.p) {
        i = (size_t)(a->string.p - s) + a->string.n + 1;
    }
    return i + strace_arg_end(s + i, n - i);
}
