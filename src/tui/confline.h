/* SPDX-License-Identifier: MIT */
/* What the TUI's configuration readers (keymap.c, theme.c) share: a parse error at a file
 * position, and the clipping of a quoted input word in its message. */
#ifndef IODFG_TUI_CONFLINE_H
#define IODFG_TUI_CONFLINE_H

#include <stdarg.h>
#include <stddef.h>

struct iodfg_error;

/* How many bytes of an input word a message quotes ("%.*s"), so messages stay short. */
int tui_conf_clip(size_t len);
/* A parse error in err at where:lineno:col, its message from fmt. Returns -1. */
__attribute__((format(printf, 5, 6))) int tui_conf_error(struct iodfg_error *err, const char *where,
                                                         unsigned long lineno, unsigned long col,
                                                         const char *fmt, ...);
__attribute__((format(printf, 5, 0))) int tui_conf_verror(struct iodfg_error *err,
                                                          const char *where, unsigned long lineno,
                                                          unsigned long col, const char *fmt,
                                                          va_list ap);

#endif
