/* SPDX-License-Identifier: MIT */
/* Helpers shared by the unit tests. */
#ifndef IODFG_TESTS_TESTUTIL_H
#define IODFG_TESTS_TESTUTIL_H

#include <check.h>
#include <stddef.h>

/* Run one suite with fork mode on; honours CK_RUN_SUITE/CK_RUN_CASE. Returns the exit code. */
int testutil_run(Suite *s);

/* Path of a file under tests/data ($IODFG_TEST_DATA); static buffer, valid until next call. */
const char *testutil_data(const char *name);

/* A fresh temporary directory (mkdtemp under $TMPDIR); removed with testutil_rmtree. */
char *testutil_tmpdir(void);
void testutil_rmtree(const char *dir);

/* A checked fixture: a fresh temp directory per test, and the path NAME inside it. */
extern char *testutil_fixture_dir;
extern char testutil_fixture_path[4096];
void testutil_fixture_begin(const char *name);
void testutil_fixture_end(void);

/* Write n bytes to path; aborts the test on failure. */
void testutil_write_file(const char *path, const void *data, size_t n);

#endif
