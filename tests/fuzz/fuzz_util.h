/* SPDX-License-Identifier: MIT */
/* Shared by the libFuzzer targets: a scratch directory of the process, files written into it,
 * and the check every failed parse must pass (an error that says what and where). */
#ifndef IODFG_TESTS_FUZZ_UTIL_H
#define IODFG_TESTS_FUZZ_UTIL_H

#include <stddef.h>

struct iodfg_error;

/* The process's scratch directory (made on first use, under $TMPDIR or /tmp). */
const char *fuzz_dir(void);
/* dir/name, in a static buffer per call site's choice of buf. */
const char *fuzz_path(char *buf, size_t size, const char *name);
/* Write n bytes of data to path (replacing it); traps when it cannot. */
void fuzz_write(const char *path, const void *data, size_t n);
/* Read path whole into a malloc'd buffer, *n bytes; traps when it cannot. */
void *fuzz_read(const char *path, size_t *n);
/* A failed read must say what went wrong and where (the file; a line when it parsed text). */
void fuzz_check_error(const struct iodfg_error *err, int needs_line);
/* tests/data of the source tree (IODFG_TEST_DATA, else the path configure gave). */
const char *fuzz_data(const char *rel, char *buf, size_t size);

#endif
