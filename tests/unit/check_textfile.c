/* SPDX-License-Identifier: MIT */
/* Unit tests: small text inputs read whole (rules, sessions, themes, thresholds). */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "iodfg/error.h"
#include "iodfg/textfile.h"

#include "testutil.h"

static char *DIR_;
static char PATH_[4200];

static void setup(void)
{
    DIR_ = testutil_tmpdir();
    snprintf(PATH_, sizeof(PATH_), "%s/in.rules", DIR_);
}

static void teardown(void)
{
    testutil_rmtree(DIR_);
    free(DIR_);
}

START_TEST(reads_the_whole_text_nul_terminated_with_inner_nuls)
{
    testutil_write_file(PATH_, "a\0b\n", 4);
    struct iodfg_error err;
    iodfg_error_clear(&err);
    size_t len = 99;
    char *text = iodfg_textfile_read(PATH_, "rules file", 100, &len, &err);
    ck_assert_msg(text != NULL, "%s", err.msg);
    ck_assert_uint_eq(len, 4);
    ck_assert_int_eq(memcmp(text, "a\0b\n", 5), 0); // and the added NUL
    free(text);
}
END_TEST

START_TEST(an_empty_file_is_an_empty_text)
{
    testutil_write_file(PATH_, "", 0);
    struct iodfg_error err;
    iodfg_error_clear(&err);
    size_t len = 99;
    char *text = iodfg_textfile_read(PATH_, "theme", 100, &len, &err);
    ck_assert_msg(text != NULL, "%s", err.msg);
    ck_assert_uint_eq(len, 0);
    ck_assert_str_eq(text, "");
    free(text);
}
END_TEST

START_TEST(files_without_a_size_are_read_to_their_end)
{
    struct iodfg_error err;
    iodfg_error_clear(&err);
    size_t len = 0;
    char *text = iodfg_textfile_read("/proc/self/status", "session file", 1 << 20, &len, &err);
    ck_assert_msg(text != NULL, "%s", err.msg);
    ck_assert_uint_gt(len, 0);
    ck_assert_uint_eq(strlen(text), len);
    ck_assert_ptr_nonnull(strstr(text, "Pid:"));
    free(text);
}
END_TEST

START_TEST(a_missing_file_or_a_directory_is_named_with_its_kind)
{
    struct iodfg_error err;
    iodfg_error_clear(&err);
    size_t len;
    ck_assert_ptr_null(iodfg_textfile_read(PATH_, "rules file", 100, &len, &err));
    ck_assert_int_eq(err.code, IODFG_E_IO);
    ck_assert_str_eq(err.where, PATH_);
    ck_assert_msg(strstr(err.msg, "cannot open the rules file: ") == err.msg, "%s", err.msg);
    iodfg_error_clear(&err);
    ck_assert_ptr_null(iodfg_textfile_read(DIR_, "theme", 100, &len, &err));
    ck_assert_str_eq(err.where, DIR_);
    ck_assert_msg(strstr(err.msg, "cannot read the theme: ") == err.msg, "%s", err.msg);
}
END_TEST

START_TEST(a_file_over_the_limit_is_refused_with_its_size)
{
    testutil_write_file(PATH_, "0123456789x", 11);
    struct iodfg_error err;
    iodfg_error_clear(&err);
    size_t len;
    char *text = iodfg_textfile_read(PATH_, "theme", 10, &len, &err);
    ck_assert_ptr_null(text);
    ck_assert_int_eq(err.code, IODFG_E_LIMIT);
    ck_assert_str_eq(err.msg, "theme is 11 bytes, over the limit of 10");
    iodfg_error_clear(&err);
    text = iodfg_textfile_read(PATH_, "theme", 11, &len, &err); // exactly at the limit: read
    ck_assert_msg(text != NULL, "%s", err.msg);
    free(text);
}
END_TEST

static Suite *suite(void)
{
    Suite *s = suite_create("textfile");
    TCase *tc = tcase_create("read");
    tcase_add_checked_fixture(tc, setup, teardown);
    tcase_add_test(tc, reads_the_whole_text_nul_terminated_with_inner_nuls);
    tcase_add_test(tc, an_empty_file_is_an_empty_text);
    tcase_add_test(tc, files_without_a_size_are_read_to_their_end);
    tcase_add_test(tc, a_missing_file_or_a_directory_is_named_with_its_kind);
    tcase_add_test(tc, a_file_over_the_limit_is_refused_with_its_size);
    suite_add_tcase(s, tc);
    return s;
}

int main(void)
{
    return testutil_run(suite());
}
