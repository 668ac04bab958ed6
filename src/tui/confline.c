/* SPDX-License-Identifier: MIT */
/* Parse errors of the TUI's configuration readers (confline.h). */
#include "config.h"

#include "tui/confline.h"

#include <stdio.h>

#include "iodfg/error.h"

int tui_conf_clip(size_t len)
{
    return len < 64 ? (int)len : 64;
}

int tui_conf_verror(struct iodfg_error *err, const char *where, unsigned long lineno,
                    unsigned long col, const char *fmt, va_list ap)
{
    char msg[200];
    vsnprintf(msg, sizeof(msg), fmt, ap);
    iodfg_error_set(err, IODFG_E_PARSE, "%s", msg);
    iodfg_error_at(err, where, lineno, col);
    return -1;
}

int tui_conf_error(struct iodfg_error *err, const char *where, unsigned long lineno,
                   unsigned long col, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    tui_conf_verror(err, where, lineno, col, fmt, ap);
    va_end(ap);
    return -1;
}
