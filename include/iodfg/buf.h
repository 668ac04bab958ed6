/* SPDX-License-Identifier: MIT */
/* A growable byte buffer that exporters write into; the caller decides where it goes. */
#ifndef IODFG_BUF_H
#define IODFG_BUF_H

#include <stdarg.h>
#include <stddef.h>

struct iodfg_buf {
    char *data; /* NUL-terminated while len < cap */
    size_t len, cap;
    int failed; /* set once an allocation failed; later appends do nothing */
};

void iodfg_buf_init(struct iodfg_buf *b);
void iodfg_buf_fini(struct iodfg_buf *b);
/* Append bytes / a printf-formatted text. Return 0, or -1 once out of memory (sticky). */
int iodfg_buf_add(struct iodfg_buf *b, const void *p, size_t n);
int iodfg_buf_addf(struct iodfg_buf *b, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
int iodfg_buf_vaddf(struct iodfg_buf *b, const char *fmt, va_list ap)
    __attribute__((format(printf, 2, 0)));
void iodfg_buf_clear(struct iodfg_buf *b);
/* Keep the first len bytes (nothing when len >= the length). */
void iodfg_buf_truncate(struct iodfg_buf *b, size_t len);

#endif
