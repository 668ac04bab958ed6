/* SPDX-License-Identifier: MIT */
/* Small text inputs read whole (rules, sessions, themes, thresholds): one reader, one set of
 * messages, one size limit, so a typo'd path or a huge file fails the same way everywhere. */
#ifndef IODFG_TEXTFILE_H
#define IODFG_TEXTFILE_H

#include <stddef.h>

struct iodfg_error;

/* The text of path, NUL-terminated, in a buffer the caller frees; its length in *len (the
 * text may hold NUL bytes, which the parsers report). What is read: a regular file, a pipe or
 * /proc file; not a directory. NULL with IODFG_E_IO naming the file and the reason ("what"
 * says which kind of file, e.g. "rules file"), or IODFG_E_LIMIT when it is over max bytes. */
char *iodfg_textfile_read(const char *path, const char *what, size_t max, size_t *len,
                          struct iodfg_error *err);

#endif
