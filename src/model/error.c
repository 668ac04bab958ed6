/* SPDX-License-Identifier: MIT */
/* Error values: first error wins, positions added by callers. */
#include "config.h"

#include "iodfg/error.h"

#include <stdarg.h>
#include <stdio.h>
#include <string.h>

void iodfg_error_clear(struct iodfg_error *err)
{
    if (err) {
        memset(err, 0, sizeof(*err));
    }
}

int iodfg_error_set(struct iodfg_error *err, enum iodfg_status code, const char *fmt, ...)
{
    if (!err || err->code != IODFG_OK) {
        return -1;
    }
    err->code = code;
    if (fmt) {
        va_list ap;
        va_start(ap, fmt);
        vsnprintf(err->msg, sizeof(err->msg), fmt, ap);
        va_end(ap);
    } else {
        snprintf(err->msg, sizeof(err->msg), "%s", iodfg_status_text(code));
    }
    return -1;
}

int iodfg_error_set_at(struct iodfg_error *err, enum iodfg_status code, const char *where,
                       unsigned long line, unsigned long col, const char *fmt, ...)
{
    if (err && err->code == IODFG_OK) {
        err->code = code;
        va_list ap;
        va_start(ap, fmt);
        vsnprintf(err->msg, sizeof(err->msg), fmt, ap);
        va_end(ap);
    }
    iodfg_error_at(err, where, line, col);
    return -1;
}

void iodfg_error_at(struct iodfg_error *err, const char *where, unsigned long line,
                    unsigned long col)
{
    if (!err) {
        return;
    }
    if (where && !err->where[0]) {
        snprintf(err->where, sizeof(err->where), "%s", where);
    }
    if (!err->line) {
        err->line = line;
        err->col = col;
    }
}

const char *iodfg_status_text(enum iodfg_status code)
{
    static const char *const texts[] = {
#define IODFG_X_TEXT(name, text) text,
        IODFG_STATUS_LIST(IODFG_X_TEXT)
#undef IODFG_X_TEXT
    };
    if ((unsigned)code < sizeof(texts) / sizeof(texts[0])) {
        return texts[code];
    }
    return "unknown error";
}

char *iodfg_error_format(const struct iodfg_error *err, char *buf, unsigned long size)
{
    if (!size) {
        return buf;
    }
    const char *msg = err->msg[0] ? err->msg : iodfg_status_text(err->code);
    if (err->where[0] && err->line && err->col) {
        snprintf(buf, size, "%s:%lu:%lu: %s", err->where, err->line, err->col, msg);
    } else if (err->where[0] && err->line) {
        snprintf(buf, size, "%s:%lu: %s", err->where, err->line, msg);
    } else if (err->where[0]) {
        snprintf(buf, size, "%s: %s", err->where, msg);
    } else {
        snprintf(buf, size, "%s", msg);
    }
    return buf;
}
