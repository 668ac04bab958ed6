/* SPDX-License-Identifier: MIT */
/* Atomic output files: write a temp file in the target's directory, fsync, then rename. */
#ifndef IODFG_ATOMICFILE_H
#define IODFG_ATOMICFILE_H

#include <stddef.h>

struct iodfg_error;

/* Write n bytes of data to path atomically: a reader sees either the old file (or none) or the
 * whole new one, never a part. Refuses an existing path unless force (IODFG_E_EXISTS); other
 * failures are IODFG_E_IO with the system's reason. No temp file is left behind on failure. */
int iodfg_atomic_write(const char *path, const void *data, size_t n, int force,
                       struct iodfg_error *err);

/* Create an empty temp file ".NAME.tmp-XXXXXX" beside final_path (mode 0666 & ~umask) and
 * return its open descriptor; *tmp_path gets its name (malloc'd, the caller frees it).
 * -1 with err set on failure (nothing is left behind then). */
int iodfg_atomic_tmpfile(const char *final_path, char **tmp_path, struct iodfg_error *err);

/* Make the finished temp file tmp_path appear as final_path: fsync it, move it into place
 * (replacing final_path only when force, otherwise IODFG_E_EXISTS if it exists, checked
 * atomically where the file system allows it) and fsync the directory. On failure tmp_path
 * is left in place for the caller to unlink. */
int iodfg_atomic_publish(const char *tmp_path, const char *final_path, int force,
                         struct iodfg_error *err);

#endif
