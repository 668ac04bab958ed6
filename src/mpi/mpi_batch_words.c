/* SPDX-License-Identifier: MIT */
/* iodfg-mpi batch: a batch line's words and redirections. The words keep their quotes: wordexp
 * expands them later as the shell would; this pass only finds the command's end and refuses,
 * with a column, what wordexp would refuse without saying where. */
#include "config.h"

#include "mpi_batch_words.h"

#include <stdlib.h>
#include <string.h>

#include "iodfg/buf.h"
#include "iodfg/error.h"

struct lex {
    const char *s;
    size_t len, i;
    const char *where;
    unsigned long lineno;
    struct iodfg_error *err;
};

/* A parse error at x's line and 0-based column at. */
#define fail(x, at, ...)                                                                           \
    iodfg_error_set_at((x)->err, IODFG_E_PARSE, (x)->where, (x)->lineno, (at) + 1, __VA_ARGS__)

static int blank(char c)
{
    return c == ' ' || c == '\t' || c == '\r';
}

/* The end of the double-quoted text opening at x->i (the closing quote), or -1. */
static long double_quoted(const struct lex *x)
{
    for (size_t j = x->i + 1; j < x->len; j++) {
        char c = x->s[j];
        if (c == '\\' && j + 1 < x->len) {
            j++;
        } else if (c == '`' || (c == '$' && j + 1 < x->len && x->s[j + 1] == '(')) {
            return fail(x, j, "command substitution is not allowed in a batch file");
        } else if (c == '"') {
            return (long)j;
        }
    }
    return fail(x, x->i, "this quote is not closed (expected \" before the end of the line)");
}

/* The index just past the unquoted character or quoted text at x->i, or -1. */
static long token_end(const struct lex *x)
{
    const char *s = x->s;
    size_t i = x->i;
    const char *end;
    switch (s[i]) {
    case '\'':
        end = memchr(s + i + 1, '\'', x->len - i - 1);
        return end ? end - s + 1
                   : fail(x, i, "this quote is not closed (expected ' before the end of the line)");
    case '"': {
        long q = double_quoted(x);
        return q < 0 ? -1 : q + 1;
    }
    case '\\':
        return i + 1 < x->len ? (long)i + 2
                              : fail(x, i, "a backslash ends the line (a command takes one line)");
    case '`':
        return fail(x, i, "command substitution is not allowed in a batch file");
    case '$':
        if (i + 1 < x->len && s[i + 1] == '(') {
            return fail(x, i, "command substitution is not allowed in a batch file");
        }
        if (i + 1 < x->len && s[i + 1] == '{') {
            end = memchr(s + i, '}', x->len - i);
            return end ? end - s + 1 : fail(x, i, "expected } to close this ${");
        }
        return (long)i + 1;
    case '\0':
        return fail(x, i, "a NUL byte in a batch line");
    default:
        if (strchr("|&;<(){}", s[i])) {
            return fail(x, i,
                        "'%c' is not allowed here: a batch line is one command, without pipes, "
                        "lists or input redirection (quote it to pass it as text)",
                        s[i]);
        }
        return (long)i + 1;
    }
}

/* Append the word at x->i (as written) to b, up to an unquoted blank or '>'. 0, or -1. */
static int word(struct lex *x, struct iodfg_buf *b)
{
    size_t from = x->i;
    while (x->i < x->len && !blank(x->s[x->i]) && x->s[x->i] != '>') {
        long next = token_end(x);
        if (next < 0) {
            return -1;
        }
        x->i = (size_t)next;
    }
    return iodfg_buf_add(b, x->s + from, x->i - from) ? iodfg_error_set(x->err, IODFG_E_NOMEM, NULL)
                                                      : 0;
}

/* The redirection at x->i (`>` or `2>`) and its file's word into c. 0, or -1. */
static int redirection(struct lex *x, struct mpi_batch_cmd *c)
{
    size_t at = x->i;
    int fd = x->s[at] == '2' ? 2 : 1;
    const char *op = fd == 2 ? "2>" : ">";
    x->i += fd == 2 ? 2 : 1;
    if (x->i < x->len && x->s[x->i] == '>') {
        return fail(x, at, "appending (%s>) is not supported: each output file is written whole",
                    op);
    }
    if (x->i < x->len && x->s[x->i] == '&') {
        return fail(x, at, "%s& is not supported: name a file after %s", op, op);
    }
    while (x->i < x->len && blank(x->s[x->i])) {
        x->i++;
    }
    char **target = fd == 2 ? &c->err : &c->out;
    if (x->i == x->len || x->s[x->i] == '>' || x->s[x->i] == '#') {
        return fail(x, at, "expected a file name after %s", op);
    }
    if (*target) {
        return fail(x, at, "a second %s on one line (one file per output)", op);
    }
    struct iodfg_buf b;
    iodfg_buf_init(&b);
    if (word(x, &b) || iodfg_buf_add(&b, "", 1)) {
        iodfg_buf_fini(&b);
        return iodfg_error_set(x->err, IODFG_E_NOMEM, NULL);
    }
    *target = b.data;
    return 0;
}

int mpi_batch_split(const char *line, size_t len, const char *where, unsigned long lineno,
                    struct mpi_batch_cmd *c, struct iodfg_error *err)
{
    struct lex x = {line, len, 0, where, lineno, err};
    struct iodfg_buf words;
    iodfg_buf_init(&words);
    *c = (struct mpi_batch_cmd){NULL, NULL, NULL};
    long first_redirection = -1;
    int rc = 0;
    while (rc == 0) {
        while (x.i < len && blank(line[x.i])) {
            x.i++;
        }
        if (x.i == len || line[x.i] == '#') {
            break;
        }
        if (line[x.i] == '>' || (line[x.i] == '2' && x.i + 1 < len && line[x.i + 1] == '>')) {
            first_redirection = first_redirection < 0 ? (long)x.i : first_redirection;
            rc = redirection(&x, c);
        } else if (words.len && iodfg_buf_add(&words, " ", 1)) {
            rc = iodfg_error_set(err, IODFG_E_NOMEM, NULL);
        } else {
            rc = word(&x, &words);
        }
    }
    if (rc == 0 && words.len == 0 && first_redirection >= 0) {
        rc = fail(&x, (size_t)first_redirection, "a redirection without a command");
    }
    if (rc == 0 && words.len && iodfg_buf_add(&words, "", 1)) {
        rc = iodfg_error_set(err, IODFG_E_NOMEM, NULL);
    }
    if (rc || words.len == 0) {
        iodfg_buf_fini(&words);
        mpi_batch_cmd_fini(c);
        return rc ? -1 : 0;
    }
    c->words = words.data;
    return 1;
}

void mpi_batch_cmd_fini(struct mpi_batch_cmd *c)
{
    free(c->words);
    free(c->out);
    free(c->err);
    *c = (struct mpi_batch_cmd){NULL, NULL, NULL};
}
