/* SPDX-License-Identifier: MIT */
/* Internals of the strace parser: one line split into its parts. */
#ifndef IODFG_IO_STRACE_PRIV_H
#define IODFG_IO_STRACE_PRIV_H

#include <stddef.h>
#include <stdint.h>

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
    int64_t stamp_ns;    /* TOD: ns since midnight; NUMBER: value in ns */
    int stamp_padded;    /* NUMBER stamp had leading blanks (strace -r aligns its deltas) */
    int has_rel;         /* "(+ 0.000123)" after an absolute stamp */
    struct text body;    /* from the call name (or marker) to the end of the line */
    struct text name;    /* call name (EVENT, UNFINISHED, RESUMED) */
    struct text args;    /* EVENT: inside the parentheses; UNFINISHED: text before the marker;
                            RESUMED: text after "resumed>" up to the return */
    /* return part (EVENT, RESUMED) */
    int has_ret;
    int ret_known;       /* 0 for "= ?" */
    int64_t ret;
    struct text ret_annot; /* "<...>" after the return value, without the brackets */
    struct text err;       /* errno name, e.g. ENOENT */
    int restart;           /* ERESTARTSYS and friends */
    int64_t dur_ns;        /* -1 when absent */
    /* BAD: where and what */
    unsigned long bad_col;
    const char *expected;
};

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

/* Skip one argument starting at s: index of the ',' or ')' that ends it at nesting depth 0,
 * honouring quoted strings, annotations and brackets; n when none. */
size_t strace_arg_end(const char *s, size_t n);

#endif
