/* SPDX-License-Identifier: MIT */
/* Growable byte buffer with sticky allocation failure. */
#include "config.h"

#include "iodfg/buf.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void iodfg_buf_init(struct iodfg_buf *b)
{
    memset(b, 0, sizeof(*b));
}

void iodfg_buf_fini(struct iodfg_buf *b)
{
    free(b->data);
    memset(b, 0, sizeof(*b));
}

static int reserve(struct iodfg_buf *b, size_t extra)
{
    if (b->failed) {
        return -1;
    }
    if (b->len + extra + 1 <= b->cap) {
        return 0;
    }
    size_t cap = b->cap ? b->cap : 256;
    while (cap < b->len + extra + 1) {
        cap *= 2;
    }
    char *d = realloc(b->data, cap);
    if (!d) {
        b->failed = 1;
        return -1;
    }
    b->data = d;
    b->cap = cap;
    return 0;
}

int iodfg_buf_add(struct iodfg_buf *b, const void *p, size_t n)
{
    if (reserve(b, n)) {
        return -1;
    }
    memcpy(b->data + b->len, p, n);
    b->len += n;
    b->data[b->len] = '\0';
    return 0;
}

int iodfg_buf_vaddf(struct iodfg_buf *b, const char *fmt, va_list ap)
{
    va_list ap2;
    va_copy(ap2, ap);
    int n = vsnprintf(NULL, 0, fmt, ap2);
    va_end(ap2);
    if (n < 0 || reserve(b, (size_t)n)) {
        return -1;
    }
    vsnprintf(b->data + b->len, (size_t)n + 1, fmt, ap);
    b->len += (size_t)n;
    return 0;
}

int iodfg_buf_addf(struct iodfg_buf *b, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    int rc = iodfg_buf_vaddf(b, fmt, ap);
    va_end(ap);
    return rc;
}

void iodfg_buf_truncate(struct iodfg_buf *b, size_t len)
{
    if (len < b->len) {
        b->len = len;
        b->data[len] = '\0';
    }
}

void iodfg_buf_clear(struct iodfg_buf *b)
{
    b->len = 0;
    if (b->data) {
        b->data[0] = '\0';
    }
}
