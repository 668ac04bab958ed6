/* SPDX-License-Identifier: MIT */
/* Internals of the strace parser: one line split into its parts. */
#ifndef IODFG_IO_STRACE_PRIV_H
#define IODFG_IO_STRACE_PRIV_H

#include <stddef.h>
#include <stdint.h>
#include <string.h>

#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__ && defined(__GNUC__)
/* Eight bytes at a time (SWAR) for the fixed and short fields of a line: digit runs, call
 * names, the -tt stamp and the -T duration. Every fast path accepts only what the general code
 * reads the same way and leaves the rest to it. Loads stay inside the line. */
#define STRACE_SWAR 1
#define SW_ONES 0x0101010101010101ull
#define SW_HIGH 0x8080808080808080ull

static inline uint64_t sw_load(const char *s)
{
    uint64_t v;
    memcpy(&v, s, sizeof(v));
    return v;
}

/* 0x80 in each byte of w in [lo, hi] (ASCII), 0 elsewhere. */
static inline uint64_t sw_range(uint64_t w, unsigned char lo, unsigned char hi)
{
    uint64_t x = w & ~SW_HIGH; // below 0x80: adding up to 0x80 cannot carry into the next byte
    uint64_t ge = x + SW_ONES * (uint64_t)(0x80 - lo);
    uint64_t gt = x + SW_ONES * (uint64_t)(0x7f - hi);
    return ge & ~gt & ~w & SW_HIGH;
}

/* 0x80 in each byte of w equal to c. */
static inline uint64_t sw_eq(uint64_t w, unsigned char c)
{
    uint64_t y = w ^ (SW_ONES * c);
    return ~(((y & ~SW_HIGH) + ~SW_HIGH) | y) & SW_HIGH;
}

static inline uint64_t sw_digits(uint64_t w)
{
    uint64_t x = w ^ (SW_ONES * '0');             // digits become 0..9
    uint64_t t = (x & ~SW_HIGH) + SW_ONES * 0x76; // high bit: low seven bits >= 10
    return ~(t | x) & SW_HIGH;
}

/* Leading (first in memory) bytes of w marked in mask, 0..8. */
static inline unsigned sw_lead(uint64_t mask)
{
    uint64_t miss = ~mask & SW_HIGH;
    return miss ? (unsigned)__builtin_ctzll(miss) >> 3 : 8u;
}

/* Trailing (last in memory) bytes of w marked in mask, 0..8. */
static inline unsigned sw_trail(uint64_t mask)
{
    uint64_t miss = ~mask & SW_HIGH;
    return miss ? (unsigned)__builtin_clzll(miss) >> 3 : 8u;
}

/* Value of eight ASCII digits (first byte most significant). */
static inline uint32_t sw_parse8(uint64_t w)
{
    w = (w & 0x0F0F0F0F0F0F0F0Full) * 2561 >> 8;
    w = (w & 0x00FF00FF00FF00FFull) * 6553601 >> 16;
    return (uint32_t)((w & 0x0000FFFF0000FFFFull) * 42949672960001ull >> 32);
}

/* Value of the first k (1..7) bytes of w, all digits. */
static inline uint32_t sw_parse_lead(uint64_t w, unsigned k)
{
    unsigned sh = 8 * (8 - k);
    return sw_parse8(w << sh | (0x3030303030303030ull >> (64 - sh)));
}
#endif

enum line_kind {
    LINE_EVENT,      /* name(args) = ret ... */
    LINE_UNFINISHED, /* name(args <unfinished ...> */
    LINE_RESUMED,    /* <... name resumed>rest */
    LINE_SIGNAL,     /* --- SIGxxx ... --- */
    LINE_EXIT,       /* +++ exited with N +++ */
    LINE_NOTICE,     /* strace: Process N attached */
    LINE_BLANK,
    LINE_BAD,
};

enum stamp_kind { STAMP_NONE, STAMP_TOD, STAMP_NUMBER };

struct text {
    const char *p;
    size_t n;
};

/* A line split into parts; all views point into the line. */
struct strace_line {
    enum line_kind kind;
    int has_pid;
    int32_t pid;
    enum stamp_kind stamp;
    int64_t stamp_ns; /* TOD: ns since midnight; NUMBER: value in ns */
    int stamp_padded; /* NUMBER stamp had leading blanks (strace -r aligns its deltas) */
    int has_rel;      /* "(+ 0.000123)" after an absolute stamp */
    struct text body; /* from the call name (or marker) to the end of the line */
    struct text name; /* call name (EVENT, UNFINISHED, RESUMED) */
    uint64_t name_w;  /* a name of up to 8 bytes as one word (zero bytes after it), 0 if not
                         known: an exact key for the call lookup */
    struct text args; /* EVENT: inside the parentheses; UNFINISHED: text before the marker;
                         RESUMED: text after "resumed>" up to the return */
    /* return part (EVENT, RESUMED) */
    int has_ret;
    int ret_known; /* 0 for "= ?" */
    int64_t ret;
    struct text ret_annot; /* "<...>" after the return value, without the brackets */
    struct text err;       /* errno name, e.g. ENOENT */
    int restart;           /* ERESTARTSYS and friends */
    int64_t dur_ns;        /* -1 when absent */
    /* BAD: where and what */
    unsigned long bad_col;
    const char *expected;
    const char *bad_at; /* a bad duration's '<' (strace_tail_split), else NULL */
    struct text bad_num; /* a return value past 64 bits (its sign and digits), named in the
                          * message when no other ") = " of the line parses */
};

// A parsed first argument: fd number and/or annotation, or a quoted string.
struct strace_arg0 {
    int has_fd, at_fdcwd;
    int32_t fd;
    struct text annot;  // path from "N<path>" or "AT_FDCWD<path>"
    int annot_plain;    // annot has no backslash (nothing to decode)
    struct text string; // contents of a quoted string argument
    size_t scanned;     // how far strace_arg0_parse looked
};

/* The k-th argument from the end of args (1 = last) as a number: 0 with *v (IODFG_UNKNOWN when
 * it is not a plain number: a flag, a pointer, missing; or a size_t of 2^63 or more, as strace
 * shows a count of SIZE_MAX); -1 when its digits do not fit 64 bits (63 when size is 0), -2 when
 * it is negative; *at is then its offset in args. */
int strace_arg_number(struct text args, unsigned k, int size, int64_t *v, size_t *at);

/* Parse the first argument of the n bytes at s into a. */
void strace_arg0_parse(const char *s, size_t n, struct strace_arg0 *a);

/* Index of the ',' or ')' that ends the argument parsed into a. */
size_t strace_arg0_end(const char *s, size_t n, const struct strace_arg0 *a);

/* Reset ln to an empty line (no pid, stamp, return or duration). */
void strace_line_reset(struct strace_line *ln);

/* Split one line (without its newline). Never fails: bad lines come back as LINE_BAD. */
void strace_line_split(const char *s, size_t n, struct strace_line *ln);

/* Split only the body of a line (after pid and stamps) into ln (kind, name, args, return). */
void strace_body_split(const char *s, size_t n, struct strace_line *ln);

/* Parse the tail "... = ret [annot] [ERR (desc)] [<dur>]" of args+tail text starting at s.
 * Sets args (up to the closing parenthesis) and the return fields. 0 on success. */
int strace_tail_split(const char *s, size_t n, struct strace_line *ln);

/* Decode strace's escapes (\n \t \" \\ \ooo \xHH ...) of n bytes at s into out (room for n
 * bytes). Returns the decoded length. */
size_t strace_unescape(const char *s, size_t n, char *out);

/* Find the end of a "<...>" annotation starting at s[0] == '<': index of its closing '>',
 * honouring backslash escapes and nested -yy annotations; (size_t)-1 when unterminated. The
 * path is s[1 .. first nested '<' or the close). */
size_t strace_annot_end(const char *s, size_t n, size_t *path_len);

/* The same, also saying in *plain whether the path is free of backslashes (then it needs no
 * decoding); *plain may be 0 for a path without them. */
size_t strace_annot_scan(const char *s, size_t n, size_t *path_len, int *plain);

/* Skip one argument starting at s: index of the ',' or ')' that ends it at nesting depth 0,
 * honouring quoted strings, annotations and brackets; n when none. */
size_t strace_arg_end(const char *s, size_t n);

struct iodfg_raw_frame;
/* Whether a line is a strace -k stack frame line (" > ..."). */
int strace_is_frame(const char *s, size_t n);
/* Split a frame line (strace_is_frame) into fr (views into s). NULL, or what was expected. */
const char *strace_frame_split(const char *s, size_t n, struct iodfg_raw_frame *fr);

#endif
