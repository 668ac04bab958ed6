/* SPDX-License-Identifier: MIT */
/* Helpers shared by the unit tests. */
#include "config.h"

#include "testutil.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int testutil_run(Suite *s)
{
    SRunner *sr = srunner_create(s);
    srunner_set_fork_status(sr, CK_FORK);
    srunner_run_all(sr, CK_ENV);
    int failed = srunner_ntests_failed(sr);
    srunner_free(sr);
    return failed == 0 ? EXIT_SUCCESS : EXIT_FAILURE;
}

TCase *testutil_slow_tcase(Suite *s, const char *name, SFun setup, SFun teardown)
{
    TCase *tc = tcase_create(name);
    tcase_set_tags(tc, "slow");
    tcase_add_checked_fixture(tc, setup, teardown);
    tcase_set_timeout(tc, 60);
    suite_add_tcase(s, tc);
    return tc;
}

const char *testutil_data(const char *name)
{
    static char buf[4096];
    const char *dir = getenv("IODFG_TEST_DATA");
    snprintf(buf, sizeof(buf), "%s/%s", dir ? dir : "tests/data", name);
    return buf;
}

char *testutil_tmpdir(void)
{
    const char *t = getenv("TMPDIR");
    char tmpl[4096];
    snprintf(tmpl, sizeof(tmpl), "%s/iodfg-test-XXXXXX", t && *t ? t : "/tmp");
    char *d = mkdtemp(tmpl);
    ck_assert_ptr_nonnull(d);
    return strdup(d);
}

void testutil_rmtree(const char *dir)
{
    char cmd[4200];
    snprintf(cmd, sizeof(cmd), "rm -rf '%s'", dir);
    if (system(cmd) != 0) {
        fprintf(stderr, "could not remove %s\n", dir);
    }
}

void testutil_write_file(const char *path, const void *data, size_t n)
{
    FILE *f = fopen(path, "wb");
    ck_assert_ptr_nonnull(f);
    ck_assert_uint_eq(fwrite(data, 1, n, f), n);
    ck_assert_int_eq(fclose(f), 0);
}

char *testutil_fixture_dir;
char testutil_fixture_path[4096];

void testutil_fixture_begin(const char *name)
{
    testutil_fixture_dir = testutil_tmpdir();
    snprintf(testutil_fixture_path, sizeof(testutil_fixture_path), "%s/%s", testutil_fixture_dir,
             name);
}

void testutil_fixture_end(void)
{
    testutil_rmtree(testutil_fixture_dir);
    free(testutil_fixture_dir);
    testutil_fixture_dir = NULL;
}
