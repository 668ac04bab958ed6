/* SPDX-License-Identifier: MIT */
/* Error values shared by every iodfg library module: a code plus where and why. */
#ifndef IODFG_ERROR_H
#define IODFG_ERROR_H

/* Status codes and their default texts, kept in one list. */
#define IODFG_STATUS_LIST(X)                                                                       \
    X(OK, "no error")                                                                              \
    X(E_NOMEM, "out of memory")                                                                    \
    X(E_IO, "input/output error")                                                                  \
    X(E_ARG, "invalid argument")                                                                   \
    X(E_PARSE, "parse error")                                                                      \
    X(E_FORMAT, "not an iodfg event log")                                                          \
    X(E_VERSION, "unsupported event log version")                                                  \
    X(E_EXISTS, "file exists")                                                                     \
    X(E_REGEX, "invalid regular expression")                                                       \
    X(E_HDF5, "HDF5 error")                                                                        \
    X(E_EMPTY, "nothing to do")                                                                    \
    X(E_LIMIT, "limit exceeded")                                                                   \
    X(E_CANCELLED, "stopped on request")

enum iodfg_status {
#define IODFG_X_ENUM(name, text) IODFG_##name,
    IODFG_STATUS_LIST(IODFG_X_ENUM)
#undef IODFG_X_ENUM
};

struct iodfg_error {
    enum iodfg_status code; /* IODFG_OK when clear */
    char where[256];        /* input file or rule name, "" if none */
    unsigned long line;     /* 1-based, 0 = unknown */
    unsigned long col;      /* 1-based, 0 = unknown */
    char msg[256];
};

/* Reset err to IODFG_OK. err may be NULL. */
void iodfg_error_clear(struct iodfg_error *err);

/* Set code and a printf-style message, unless an error is already recorded (the first error
 * wins). err may be NULL. Always returns -1 so callers can `return iodfg_error_set(...)`. */
int iodfg_error_set(struct iodfg_error *err, enum iodfg_status code, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

/* iodfg_error_set with a printf message, then iodfg_error_at: a parser's error at its place.
 * Always -1. */
int iodfg_error_set_at(struct iodfg_error *err, enum iodfg_status code, const char *where,
                       unsigned long line, unsigned long col, const char *fmt, ...)
    __attribute__((format(printf, 6, 7)));

/* Record the position of the error (file or rule name, 1-based line and column; 0 = unknown).
 * Only fills fields that are still empty, so inner positions win. err may be NULL. */
void iodfg_error_at(struct iodfg_error *err, const char *where, unsigned long line,
                    unsigned long col);

/* The default text of a status code ("out of memory"). Never NULL. */
const char *iodfg_status_text(enum iodfg_status code);

/* Format err as "where:line:col: msg" into buf (always NUL-terminated). Returns buf. */
char *iodfg_error_format(const struct iodfg_error *err, char *buf, unsigned long size);

#endif
