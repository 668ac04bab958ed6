/* SPDX-License-Identifier: MIT */
/* Helpers shared by the unit tests. */
#ifndef IODFG_TESTS_TESTUTIL_H
#define IODFG_TESTS_TESTUTIL_H

#include <stddef.h>

#include <check.h>

/* libcheck records every passing assertion (_mark_point: a write(2) to its message file, so
 * that a crash can name the last line passed). The suites that compare whole logs row by row
 * pass millions of assertions: those writes were most of `make check`'s unit-test CPU time
 * (check_store: 46 s). A passing assertion records nothing here; a failing one reports exactly
 * as before, a crash still names its test, and mark_point() still marks a line. */
#undef ck_assert_msg
#define ck_assert_msg(expr, ...)                                                                   \
    ((expr)                                                                                        \
         ? (void)0                                                                                 \
         : _ck_assert_failed(__FILE__, __LINE__, "Assertion '" #expr "' failed", ##__VA_ARGS__))

/* Run one suite with fork mode on; honours CK_RUN_SUITE/CK_RUN_CASE. Returns the exit code. */
int testutil_run(Suite *s);

/* A test case of s that make check-fast leaves out (tagged "slow", CK_EXCLUDE_TAGS=slow; make
 * check runs it): with the checked fixture setup/teardown and a 60 s timeout. */
TCase *testutil_slow_tcase(Suite *s, const char *name, SFun setup, SFun teardown);

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
