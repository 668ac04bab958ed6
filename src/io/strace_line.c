/* SPDX-License-Identifier: MIT */
/* strace line splitter: prefix (pid, timestamps), body kind, call, arguments, return part. */
#include "config.h"

#include <string.h>
#ifdef __SSE2__
#include <emmintrin.h>
#endif

#include "strace_priv.h"

static int is_digit(char c)
{
    return c >= '0' && c <= '9';
}

static int is_name(char c)
{
    return (c >= 'a' && c <= 'z') || is_digit(c) || c == '_' || (c >= 'A' && c <= 'Z');
}

// is_name() as a table, for the call-name scan of every line.
static const unsigned char NAME_CHAR[256] = {
    ['0'] = 1, ['1'] = 1, ['2'] = 1, ['3'] = 1, ['4'] = 1, ['5'] = 1, ['6'] = 1, ['7'] = 1,
    ['8'] = 1, ['9'] = 1, ['_'] = 1, ['a'] = 1, ['b'] = 1, ['c'] = 1, ['d'] = 1, ['e'] = 1,
    ['f'] = 1, ['g'] = 1, ['h'] = 1, ['i'] = 1, ['j'] = 1, ['k'] = 1, ['l'] = 1, ['m'] = 1,
    ['n'] = 1, ['o'] = 1, ['p'] = 1, ['q'] = 1, ['r'] = 1, ['s'] = 1, ['t'] = 1, ['u'] = 1,
    ['v'] = 1, ['w'] = 1, ['x'] = 1, ['y'] = 1, ['z'] = 1, ['A'] = 1, ['B'] = 1, ['C'] = 1,
    ['D'] = 1, ['E'] = 1, ['F'] = 1, ['G'] = 1, ['H'] = 1, ['I'] = 1, ['J'] = 1, ['K'] = 1,
    ['L'] = 1, ['M'] = 1, ['N'] = 1, ['O'] = 1, ['P'] = 1, ['Q'] = 1, ['R'] = 1, ['S'] = 1,
    ['T'] = 1, ['U'] = 1, ['V'] = 1, ['W'] = 1, ['X'] = 1, ['Y'] = 1, ['Z'] = 1,
};

static size_t name_span(const char *s, size_t i, size_t n)
{
    while (i < n && NAME_CHAR[(unsigned char)s[i]]) {
        i++;
    }
    return i;
}

static void set_bad(struct strace_line *ln, const char *line, const char *at, const char *what)
{
    ln->kind = LINE_BAD;
    ln->bad_col = (unsigned long)(at - line) + 1;
    ln->expected = what;
}

// Parse "SSSS[.ffffff]" into nanoseconds; returns chars used or 0.
static size_t parse_seconds(const char *s, size_t n, int64_t *ns)
{
    // -T durations and -r deltas are nearly always "D.DDDDDD"
    if (n >= 8 && is_digit(s[0]) && s[1] == '.' && (n == 8 || !is_digit(s[8]))) {
        int64_t us = 0;
        size_t k = 2;
        while (k < 8 && is_digit(s[k])) {
            us = us * 10 + (s[k++] - '0');
        }
        if (k == 8) {
            *ns = (s[0] - '0') * 1000000000LL + us * 1000;
            return 8;
        }
    }
    size_t i = 0;
    int64_t sec = 0;
    while (i < n && is_digit(s[i])) {
        sec = sec * 10 + (s[i] - '0');
        if (sec > 9000000000LL) { // beyond year 2255 in ns: not a timestamp
            return 0;
        }
        i++;
    }
    if (i == 0) {
        return 0;
    }
    int64_t frac = 0;
    if (i < n && s[i] == '.') {
        i++;
        int digits = 0;
        while (i < n && is_digit(s[i])) {
            if (digits < 9) {
                frac = frac * 10 + (s[i] - '0');
                digits++;
            }
            i++;
        }
        while (digits < 9) {
            frac *= 10;
            digits++;
        }
    }
    *ns = sec * 1000000000LL + frac;
    return i;
}

// Parse "HH:MM:SS[.ffffff]"; returns chars used or 0.
static size_t parse_tod_general(const char *s, size_t n, int64_t *ns);

#ifdef STRACE_SWAR
// "HH:MM:SS.ffffff" and a non-digit (16 bytes readable at s): the -tt stamp of nearly every
// trace. 1 with *ns set when it is one that parse_tod_general would take as 15 bytes.
static inline int tod_fast(const char *s, int64_t *ns)
{
    uint64_t w = sw_load(s), f = sw_load(s + 8);
    const uint64_t colons = (uint64_t)':' << 16 | (uint64_t)':' << 40;
    if ((w & 0x0000FF0000FF0000ull) == colons &&
        (sw_digits(w) & 0x8080008080008080ull) == 0x8080008080008080ull && (f & 0xFF) == '.' &&
        (sw_digits(f) & 0x0080808080808000ull) == 0x0080808080808000ull && !is_digit(s[15])) {
        uint64_t d = w & 0x0F0F0F0F0F0F0F0Full;
        int h = (int)(d & 0xF) * 10 + (int)(d >> 8 & 0xF);
        int m = (int)(d >> 24 & 0xF) * 10 + (int)(d >> 32 & 0xF);
        int sec = (int)(d >> 48 & 0xF) * 10 + (int)(d >> 56 & 0xF);
        if (h < 24 && m < 60 && sec < 61) {
            uint32_t us = sw_parse8((f << 8 & ~0xFFFFull) | 0x3030u);
            *ns = ((int64_t)h * 3600 + m * 60 + sec) * 1000000000LL + (int64_t)us * 1000;
            return 1;
        }
    }
    return 0;
}
#endif

static size_t parse_tod(const char *s, size_t n, int64_t *ns)
{
#ifdef STRACE_SWAR
    if (n >= 16 && tod_fast(s, ns)) {
        return 15;
    }
#endif
    return parse_tod_general(s, n, ns);
}

static size_t parse_tod_general(const char *s, size_t n, int64_t *ns)
{
    if (n < 8 || !is_digit(s[0]) || !is_digit(s[1]) || s[2] != ':' || !is_digit(s[3]) ||
        !is_digit(s[4]) || s[5] != ':' || !is_digit(s[6]) || !is_digit(s[7])) {
        return 0;
    }
    int h = (s[0] - '0') * 10 + (s[1] - '0');
    int m = (s[3] - '0') * 10 + (s[4] - '0');
    // -tt: exactly six fraction digits, the common case
    if (n >= 15 && s[8] == '.' && (n == 15 || !is_digit(s[15])) && h < 24 && m < 60) {
        int64_t us = 0;
        for (int k = 9; k < 15; k++) {
            if (!is_digit(s[k])) {
                us = -1;
                break;
            }
            us = us * 10 + (s[k] - '0');
        }
        if (us >= 0) {
            int sec = (s[6] - '0') * 10 + (s[7] - '0');
            *ns = ((int64_t)h * 3600 + m * 60 + sec) * 1000000000LL + us * 1000;
            return sec < 61 ? 15 : 0;
        }
    }
    int64_t sec_ns;
    size_t used = parse_seconds(s + 6, n - 6, &sec_ns);
    if (h > 23 || m > 59 || sec_ns >= 61000000000LL) {
        return 0;
    }
    *ns = ((int64_t)h * 3600 + m * 60) * 1000000000LL + sec_ns;
    return 6 + used;
}

static size_t skip_blanks(const char *s, size_t i, size_t n)
{
    while (i < n && (s[i] == ' ' || s[i] == '\t')) {
        i++;
    }
    return i;
}

static void reset_return(struct strace_line *ln)
{
    ln->has_ret = ln->ret_known = ln->restart = 0;
    ln->ret = 0;
    ln->ret_annot.p = ln->err.p = NULL;
    ln->ret_annot.n = ln->err.n = 0;
}

// Field by field: a memset of the whole struct showed up as the top cost per line.
void strace_line_reset(struct strace_line *ln)
{
    ln->kind = LINE_BLANK;
    ln->has_pid = ln->stamp_padded = ln->has_rel = 0;
    ln->pid = 0;
    ln->stamp = STAMP_NONE;
    ln->stamp_ns = 0;
    ln->body.p = ln->name.p = ln->args.p = NULL;
    ln->body.n = ln->name.n = ln->args.n = 0;
    ln->name_w = 0;
    reset_return(ln);
    ln->dur_ns = -1;
    ln->bad_col = 0;
    ln->expected = NULL;
    ln->bad_at = NULL;
    ln->bad_num.p = NULL;
    ln->bad_num.n = 0;
}

#ifdef STRACE_SWAR
/* The usual prefixes "PID  HH:MM:SS.ffffff " (strace -f -tt -o FILE) and "HH:MM:SS.ffffff " (-ff,
 * one file per process) in a few words, then the body: 1 when the line was one of these. Anything
 * else, including "(+ rel)" and extra blanks, goes the general way. */
static int split_usual_prefix(const char *s, size_t n, struct strace_line *ln)
{
    if (n < 32) {
        return 0;
    }
    uint64_t w = sw_load(s);
    unsigned k = sw_lead(sw_digits(w));
    size_t j = n; // where the stamp starts; n: not one of these prefixes
    if (k && k < 8 && s[k] == ' ') {
        j = skip_blanks(s, k, n);
        ln->pid = (int32_t)sw_parse_lead(w, k);
    } else if (k == 2 && s[2] == ':') {
        j = 0;
    }
    int64_t ns;
    if (j < n && n - j >= 17 && tod_fast(s + j, &ns) && s[j + 15] == ' ' && s[j + 16] != ' ' &&
        s[j + 16] != '\t' && s[j + 16] != '(') {
        ln->has_pid = j > 0;
        ln->stamp = STAMP_TOD;
        ln->stamp_ns = ns;
        size_t b = j + 16;
        strace_body_split(s + b, n - b, ln);
        if (ln->kind == LINE_BAD) {
            ln->bad_col += b;
        }
        return 1;
    }
    ln->pid = 0;
    return 0;
}
#endif

/* The pid, as "[pid N]" or a pid column ("PID  ", strace -f -o FILE), from *i on; *padded: blanks
 * came before what follows. 0, or -1 with the line marked bad. */
static int split_pid(const char *s, size_t n, struct strace_line *ln, size_t *at, int *padded)
{
    size_t i = 0;
    if (n >= 5 && memcmp(s, "[pid ", 5) == 0) {
        i = skip_blanks(s, 5, n);
        int32_t pid = 0;
        size_t d = i;
        while (i < n && is_digit(s[i]) && pid < 100000000) {
            pid = pid * 10 + (s[i++] - '0');
        }
        if (i == d || i >= n || s[i] != ']') {
            set_bad(ln, s, s + i, "expected a process id and ']' after \"[pid\"");
            return -1;
        }
        ln->has_pid = 1;
        ln->pid = pid;
        i = skip_blanks(s, i + 1, n);
    }
    size_t start_blank = i;
    i = skip_blanks(s, i, n);
    *padded = i > start_blank;
#ifdef STRACE_SWAR
    // "PID  " (strace -f -o FILE): a short digit run and a blank
    if (i + 8 <= n && !ln->has_pid && !*padded) {
        uint64_t w = sw_load(s + i);
        unsigned k = sw_lead(sw_digits(w));
        if (k && k < 8 && (s[i + k] == ' ' || s[i + k] == '\t')) {
            ln->has_pid = 1;
            ln->pid = (int32_t)sw_parse_lead(w, k);
            i = skip_blanks(s, i + k, n);
            *padded = 0;
        }
    }
#endif
    if (i < n && is_digit(s[i])) {
        size_t j = i;
        int64_t pid = 0;
        while (j < n && is_digit(s[j])) {
            if (pid <= 0x7fffffff) {
                pid = pid * 10 + (s[j] - '0');
            }
            j++;
        }
        if (j < n && (s[j] == ' ' || s[j] == '\t') && !ln->has_pid && !*padded) {
            // a pid column (strace -f -o FILE)
            if (pid > 0x7fffffff) {
                set_bad(ln, s, s + i, "expected a process id that fits 31 bits");
                return -1;
            }
            ln->has_pid = 1;
            ln->pid = (int32_t)pid;
            i = skip_blanks(s, j, n);
            size_t b = i;
            i = skip_blanks(s, i, n);
            *padded = i > b;
        }
    }
    *at = i;
    return 0;
}

/* The timestamp at *at (time of day or seconds) and a "(+ rel)" after it, if any; *at moves past
 * them. 0, or -1 with the line marked bad. */
static int split_stamp(const char *s, size_t n, struct strace_line *ln, size_t *at, int padded)
{
    size_t i = *at;
    if (i >= n || !is_digit(s[i])) {
        return 0;
    }
    int64_t ns;
    size_t used = parse_tod(s + i, n - i, &ns);
    if (used) {
        ln->stamp = STAMP_TOD;
    } else if ((used = parse_seconds(s + i, n - i, &ns)) != 0) {
        ln->stamp = STAMP_NUMBER;
        ln->stamp_padded = padded;
    } else {
        set_bad(ln, s, s + i, "expected a timestamp");
        return -1;
    }
    ln->stamp_ns = ns;
    i += used;
    if (i < n && s[i] != ' ' && s[i] != '\t') {
        set_bad(ln, s, s + i, "expected a blank after the timestamp");
        return -1;
    }
    i = skip_blanks(s, i, n);
    if (i + 1 < n && s[i] == '(' && s[i + 1] == '+') {
        size_t j = skip_blanks(s, i + 2, n);
        int64_t rel;
        size_t used2 = parse_seconds(s + j, n - j, &rel);
        if (!used2 || j + used2 >= n || s[j + used2] != ')') {
            set_bad(ln, s, s + j, "expected a relative time and ')' after \"(+\"");
            return -1;
        }
        ln->has_rel = 1;
        i = skip_blanks(s, j + used2 + 1, n);
    }
    *at = i;
    return 0;
}

void strace_line_split(const char *s, size_t n, struct strace_line *ln)
{
    strace_line_reset(ln);
    while (n && (s[n - 1] == '\r' || s[n - 1] == ' ')) {
        n--;
    }
#ifdef STRACE_SWAR
    if (split_usual_prefix(s, n, ln)) {
        return;
    }
#endif
    size_t i = 0;
    int padded = 0;
    if (split_pid(s, n, ln, &i, &padded) || split_stamp(s, n, ln, &i, padded)) {
        return;
    }
    strace_body_split(s + i, n - i, ln);
    if (ln->kind == LINE_BAD) {
        ln->bad_col += i;
    }
    if (ln->kind == LINE_BLANK && (ln->stamp || ln->has_pid)) {
        set_bad(ln, s, s + i, "expected a system call after the timestamp");
    }
}

static int ends_with(const char *s, size_t n, const char *suffix, size_t m)
{
    return n >= m && memcmp(s + n - m, suffix, m) == 0;
}

static const char UNFINISHED[] = "<unfinished ...>";
#define UNFINISHED_LEN (sizeof(UNFINISHED) - 1)

// "<... NAME resumed>rest" (s starts with "<... ").
static void resumed_split(const char *s, size_t n, struct strace_line *ln)
{
    size_t a = 5, i = name_span(s, 5, n);
    static const char res[] = " resumed>";
    if (i == a || n - i < sizeof(res) - 1 || memcmp(s + i, res, sizeof(res) - 1) != 0) {
        set_bad(ln, s, s + i, "expected \"<... NAME resumed>\"");
        return;
    }
    ln->name.p = s + a;
    ln->name.n = i - a;
    const char *rest = s + i + sizeof(res) - 1;
    size_t rn = n - (i + sizeof(res) - 1);
    size_t trimmed = rn;
    while (trimmed && rest[trimmed - 1] == ' ') {
        trimmed--;
    }
    if (ends_with(rest, trimmed, UNFINISHED, UNFINISHED_LEN)) {
        // resumed and interrupted again: still unfinished
        ln->kind = LINE_UNFINISHED;
        ln->args.p = rest;
        ln->args.n = trimmed - UNFINISHED_LEN;
        return;
    }
    ln->kind = LINE_RESUMED;
    if (strace_tail_split(rest, rn, ln)) {
        set_bad(ln, s, ln->bad_at ? ln->bad_at : rest + rn,
                ln->bad_at ? ln->expected : "expected \") = RETURN\" after \"resumed>\"");
    }
}

void strace_body_split(const char *s, size_t n, struct strace_line *ln)
{
    ln->body.p = s;
    ln->body.n = n;
    if (n == 0) {
        ln->kind = LINE_BLANK;
        return;
    }
    // The markers start with different characters: test only the one that can match.
    switch (s[0]) {
    case '-':
        if (n >= 4 && memcmp(s, "--- ", 4) == 0) {
            ln->kind = LINE_SIGNAL;
            return;
        }
        break;
    case '+':
        if (n >= 4 && memcmp(s, "+++ ", 4) == 0) {
            ln->kind = LINE_EXIT;
            return;
        }
        break;
    case 's':
        if (n >= 8 && memcmp(s, "strace: ", 8) == 0) {
            ln->kind = LINE_NOTICE;
            return;
        }
        break;
    case '<':
        if (n >= 5 && memcmp(s, "<... ", 5) == 0) {
            resumed_split(s, n, ln);
            return;
        }
        break;
    default:
        break;
    }
    size_t i;
#ifdef STRACE_SWAR
    if (n >= 8) {
        uint64_t w = sw_load(s);
        uint64_t nm = sw_range(w, 'a', 'z') | sw_digits(w) | sw_range(w, 'A', 'Z') | sw_eq(w, '_');
        i = sw_lead(nm);
        if (i == 8) {
            i = name_span(s, 8, n);
            ln->name_w = i == 8 ? w : 0;
        } else {
            ln->name_w = w & ((1ull << 8 * i) - 1);
        }
    } else
#endif
        i = name_span(s, 0, n);
    if (i == 0 || i >= n || s[i] != '(') {
        set_bad(ln, s, s + i,
                i ? "expected '(' after the system-call name"
                  : "expected a system-call name, signal or exit line");
        return;
    }
    ln->name.p = s;
    ln->name.n = i;
    const char *rest = s + i + 1;
    size_t rn = n - i - 1;
    if (ends_with(rest, rn, UNFINISHED, UNFINISHED_LEN)) {
        ln->kind = LINE_UNFINISHED;
        ln->args.p = rest;
        ln->args.n = rn - UNFINISHED_LEN;
        return;
    }
    ln->kind = LINE_EVENT;
    if (strace_tail_split(rest, rn, ln)) {
        set_bad(ln, s, ln->bad_at ? ln->bad_at : s + n,
                ln->bad_at ? ln->expected : "expected \") = RETURN\" to end the call");
    }
}

/* Parse "<seconds>" at the end of s[0..n); returns the index of '<' or n when absent. A
 * duration that is negative or too large sets *bad to what was expected instead. */
static size_t split_duration(const char *s, size_t n, int64_t *dur, const char **bad)
{
    if (n < 3 || s[n - 1] != '>') {
        return n;
    }
#ifdef STRACE_SWAR
    // "<D.DDDDDD>", the usual -T duration
    if (n >= 10 && s[n - 10] == '<') {
        uint64_t w = sw_load(s + n - 9);
        if ((w >> 8 & 0xFF) == '.' &&
            (sw_digits(w) & 0x8080808080800080ull) == 0x8080808080800080ull) {
            uint32_t us = sw_parse8((w & ~0xFFFFull) | 0x3030u);
            *dur = (int64_t)(w & 0xF) * 1000000000LL + (int64_t)us * 1000;
            return n - 10;
        }
    }
#endif
    // -T prints "<S.UUUUUU>" (one or more digits before the point): read it in place.
    if (n >= 10 && s[n - 8] == '.' && is_digit(s[n - 9])) {
        int64_t us = 0;
        size_t k = n - 7;
        while (k < n - 1 && is_digit(s[k])) {
            us = us * 10 + (s[k++] - '0');
        }
        int64_t sec = 0, scale = 1;
        size_t i = n - 9;
        while (k == n - 1 && i < n && is_digit(s[i]) && scale <= 1000000) {
            sec += (s[i] - '0') * scale;
            scale *= 10;
            if (i == 0) {
                break;
            }
            i--;
        }
        if (k == n - 1 && s[i] == '<' && i + 9 <= n) {
            *dur = sec * 1000000000LL + us * 1000;
            return i;
        }
    }
    size_t i = n - 1;
    while (i > 0 && (is_digit(s[i - 1]) || s[i - 1] == '.')) {
        i--;
    }
    int neg = i > 1 && s[i - 1] == '-' && s[i - 2] == '<';
    i -= (size_t)neg;
    if (i == 0 || s[i - 1] != '<' || i + (size_t)neg == n - 1) {
        return n;
    }
    int64_t ns = 0;
    size_t used = neg ? 0 : parse_seconds(s + i, n - 1 - i, &ns);
    if (used != n - 1 - i) {
        // " <-0.000011>", " <1.2.3>" or " <99999999999.0>" where -T's duration goes: a line to
        // count as unparsable there, not an event without a duration (a duration that fits but
        // is absurd, past 2^61 ns, is clamped to that when the event is stored)
        if (i > 1 && s[i - 2] == ' ') {
            const char *dot = memchr(s + i, '.', n - 1 - i);
            int two_dots = dot && memchr(dot + 1, '.', (size_t)(s + n - 1 - dot - 1));
            *bad = neg                       ? "expected a duration of 0 or more seconds"
                   : two_dots || s[i] == '.' ? "expected a duration in seconds (like <0.000123>)"
                                             : "expected a duration of at most 9000000000 seconds";
            return i - 1;
        }
        return n;
    }
    *dur = ns;
    return i - 1;
}

size_t strace_annot_end(const char *s, size_t n, size_t *path_len)
{
    int plain;
    return strace_annot_scan(s, n, path_len, &plain);
}

size_t strace_annot_scan(const char *s, size_t n, size_t *path_len, int *plain)
{
    *plain = 0;
#ifdef __SSE2__
    // Sixteen bytes at a time: the first of '>', '<' and '\\' decides the common case.
    if (n >= 17 && s[1] == '/') {
        const __m128i gt = _mm_set1_epi8('>'), lt = _mm_set1_epi8('<'), bs = _mm_set1_epi8('\\');
        for (size_t i = 1; i + 16 <= n; i += 16) {
            __m128i v = _mm_loadu_si128((const __m128i *)(const void *)(s + i));
            __m128i hit = _mm_or_si128(_mm_or_si128(_mm_cmpeq_epi8(v, gt), _mm_cmpeq_epi8(v, lt)),
                                       _mm_cmpeq_epi8(v, bs));
            unsigned m = (unsigned)_mm_movemask_epi8(hit);
            if (m) {
                size_t k = i + (size_t)__builtin_ctz(m);
                if (s[k] != '>') {
                    break; // an escape or a nested annotation: the general way
                }
                *path_len = k - 1;
                *plain = 1;
                return k;
            }
        }
    }
#endif
    // Fast path, nearly every annotation: "</plain/path>" without escapes or nesting.
    const char *gt = n > 1 ? memchr(s + 1, '>', n - 1) : NULL;
    if (gt && s[1] == '/' && !memchr(s + 1, '\\', (size_t)(gt - s - 1)) &&
        !memchr(s + 1, '<', (size_t)(gt - s - 1))) {
        *path_len = (size_t)(gt - s - 1);
        *plain = 1;
        return (size_t)(gt - s);
    }
    size_t depth = 0, brackets = 0;
    int file = n > 1 && s[1] == '/'; // only socket details use brackets
    *path_len = 0;
    for (size_t i = 1; i < n; i++) {
        char c = s[i];
        if (c == '\\') {
            i++;
        } else if (c == '[' && !file) {
            brackets++; // -yy socket details: "TCP:[1.2.3.4:5->6.7.8.9:10]"
        } else if (c == ']' && brackets) {
            brackets--;
        } else if (brackets) {
            continue;
        } else if (c == '<') {
            if (depth == 0 && !*path_len) {
                *path_len = i - 1;
            }
            depth++;
        } else if (c == '>') {
            if (depth == 0) {
                if (!*path_len) {
                    *path_len = i - 1;
                }
                return i;
            }
            depth--;
        }
    }
    return (size_t)-1;
}

// Parse the return part r[0..n): "ret[<annot>][ ERRNO (desc)][ (extra)]". 0 when it fits.
static int parse_return(const char *r, size_t n, size_t avail, struct strace_line *ln)
{
    (void)avail; // bytes readable at r (n and the duration after it), for the SWAR loads
    size_t i = 0;
    ln->has_ret = 1;
    if (n >= 1 && r[0] == '?') {
        ln->ret_known = 0;
        i = 1;
    } else if (n >= 3 && r[0] == '0' && r[1] == 'x') {
        int64_t v = 0;
        i = 2;
        while (i < n && ((r[i] >= '0' && r[i] <= '9') || (r[i] >= 'a' && r[i] <= 'f'))) {
            v = (int64_t)((uint64_t)v << 4 |
                          (uint64_t)(r[i] <= '9' ? r[i] - '0' : r[i] - 'a' + 10));
            i++;
        }
        if (i == 2) {
            return -1;
        }
        ln->ret_known = 1;
        ln->ret = v;
    } else {
        int neg = 0;
        if (i < n && r[i] == '-') {
            neg = 1;
            i++;
        }
        size_t d = i;
        uint64_t v = 0;
#ifdef STRACE_SWAR
        if (i + 8 <= avail) { // up to seven digits at once
            uint64_t w = sw_load(r + i);
            unsigned k = sw_lead(sw_digits(w));
            if (k && k < 8 && i + k <= n) {
                v = sw_parse_lead(w, k);
                i += k;
            }
        }
#endif
        // Up to 17 digits stay below the limit below: no check per digit for them.
        size_t quick = n - i < 17 ? n : i + 17;
        while (i < quick && is_digit(r[i])) {
            v = v * 10 + (uint64_t)(r[i] - '0');
            i++;
        }
        while (i < n && is_digit(r[i])) {
            v = v * 10 + (uint64_t)(r[i] - '0');
            if (v > (uint64_t)INT64_MAX / 10) { // no real return value is this large
                size_t e = i;
                while (e < n && is_digit(r[e])) {
                    e++;
                }
                ln->bad_num.p = r + d - (size_t)neg; // named in the message (strace_file.c)
                ln->bad_num.n = e - d + (size_t)neg;
                return -1;
            }
            i++;
        }
        if (i == d) {
            return -1;
        }
        ln->ret_known = 1;
        ln->ret = neg ? -(int64_t)v : (int64_t)v;
    }
    if (i < n && r[i] == '<') {
        size_t plen, end = strace_annot_end(r + i, n - i, &plen);
        if (end == (size_t)-1) {
            return -1;
        }
        ln->ret_annot.p = r + i + 1;
        ln->ret_annot.n = plen;
        i += end + 1;
    }
    if (i < n && r[i] != ' ') {
        return -1;
    }
    if (i + 2 < n && r[i + 1] == 'E' && r[i + 2] >= 'A' && r[i + 2] <= 'Z') {
        size_t a = i + 1, j = a;
        while (j < n && ((r[j] >= 'A' && r[j] <= 'Z') || is_digit(r[j]) || r[j] == '_')) {
            j++;
        }
        if (j == n || r[j] == ' ') {
            ln->err.p = r + a;
            ln->err.n = j - a;
            ln->restart = j - a >= 8 && memcmp(r + a, "ERESTART", 8) == 0;
        }
    }
    return 0;
}

int strace_tail_split(const char *s, size_t n, struct strace_line *ln)
{
    const char *bad = NULL;
    size_t end = split_duration(s, n, &ln->dur_ns, &bad);
    if (bad) {
        ln->bad_at = s + end;
        ln->expected = bad;
        return -1;
    }
#ifdef STRACE_SWAR
    // ") = N <dur>" with N of up to seven digits, the tail of most calls: what the search below
    // finds for it, read in place
    if (end + 10 == n && n >= 23 && s[end - 1] == ' ') {
        uint64_t w = sw_load(s + end - 9); // the eight bytes before the blank
        unsigned d = sw_trail(sw_digits(w));
        size_t q = end - 3 - d; // the '=' before the number
        if (d && d < 8 && s[q + 1] == ' ' && s[q] == '=' && s[q - 1] == ' ' && s[q - 2] == ')') {
            unsigned sh = 8 * (8 - d);
            ln->has_ret = ln->ret_known = 1;
            ln->ret = sw_parse8((w >> sh << sh) | (0x3030303030303030ull >> (64 - sh)));
            ln->args.p = s;
            ln->args.n = q - 2;
            return 0;
        }
    }
#endif
    while (end && s[end - 1] == ' ') {
        end--;
    }
    // The return is announced by the last ") = " whose tail parses; paths and strings before
    // it may contain the same characters.
    for (size_t q = end; q > 1;) {
        const char *eq = memrchr(s + 1, '=', q - 1);
        if (!eq) {
            break;
        }
        q = (size_t)(eq - s);
        if (q + 1 >= end || s[q + 1] != ' ') {
            continue;
        }
        size_t p = q;
        while (p > 0 && s[p - 1] == ' ') {
            p--;
        }
        if (p == q || p == 0 || s[p - 1] != ')') {
            continue;
        }
        if (parse_return(s + q + 2, end - q - 2, n - q - 2, ln) == 0) {
            ln->args.p = s;
            ln->args.n = p - 1;
            return 0;
        }
        reset_return(ln);
    }
    if (ln->bad_num.n) { // the return's number was out of range: say so at its column
        ln->bad_at = ln->bad_num.p;
        ln->expected = "a return value out of range (more than 64 bits)";
    }
    return -1;
}

size_t strace_arg_end(const char *s, size_t n)
{
    int depth = 0;
    for (size_t i = 0; i < n; i++) {
        char c = s[i];
        switch (c) {
        case '"':
            for (i++; i < n && s[i] != '"'; i++) {
                if (s[i] == '\\') {
                    i++;
                }
            }
            break;
        case '<':
            if (i > 0 && is_name(s[i - 1])) {
                size_t plen, e = strace_annot_end(s + i, n - i, &plen);
                if (e == (size_t)-1) {
                    return n;
                }
                i += e;
            }
            break;
        case '(':
        case '[':
        case '{':
            depth++;
            break;
        case ')':
        case ']':
        case '}':
            if (depth == 0) {
                return i;
            }
            depth--;
            break;
        case ',':
            if (depth == 0) {
                return i;
            }
            break;
        case '/':
            if (i + 1 < n && s[i + 1] == '*') {
                const char *e = memmem(s + i + 2, n - i - 2, "*/", 2);
                i = e ? (size_t)(e - s) + 1 : n;
            }
            break;
        default:
            break;
        }
    }
    return n;
}

static int octal(char c)
{
    return c >= '0' && c <= '7';
}

static int hexval(char c)
{
    if (is_digit(c)) {
        return c - '0';
    }
    if (c >= 'a' && c <= 'f') {
        return c - 'a' + 10;
    }
    if (c >= 'A' && c <= 'F') {
        return c - 'A' + 10;
    }
    return -1;
}

size_t strace_unescape(const char *s, size_t n, char *out)
{
    size_t o = 0;
    for (size_t i = 0; i < n; i++) {
        if (s[i] != '\\' || i + 1 == n) {
            out[o++] = s[i];
            continue;
        }
        char c = s[++i];
        switch (c) {
        case 'n':
            out[o++] = '\n';
            break;
        case 't':
            out[o++] = '\t';
            break;
        case 'r':
            out[o++] = '\r';
            break;
        case 'v':
            out[o++] = '\v';
            break;
        case 'f':
            out[o++] = '\f';
            break;
        case 'x':
            if (i + 2 < n && hexval(s[i + 1]) >= 0 && hexval(s[i + 2]) >= 0) {
                out[o++] = (char)(hexval(s[i + 1]) * 16 + hexval(s[i + 2]));
                i += 2;
            } else {
                out[o++] = '\\';
                out[o++] = 'x';
            }
            break;
        default:
            if (octal(c)) {
                int v = c - '0';
                for (int k = 0; k < 2 && i + 1 < n && octal(s[i + 1]); k++) {
                    v = v * 8 + (s[++i] - '0');
                }
                // A decoded NUL cannot live in a path; keep the escape instead.
                if (v == 0 || v > 255) {
                    out[o++] = '\\';
                    out[o++] = '0';
                } else {
                    out[o++] = (char)v;
                }
            } else {
                out[o++] = c; // \" \\ and unknown escapes stand for the character itself
            }
            break;
        }
    }
    return o;
}
