/* SPDX-License-Identifier: MIT */
/* Unit tests: small text inputs read whole (rules, sessions, themes, thresholds). */
#include "config.h"

#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

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
    ck_assert_str_eq(err.msg, "the theme is 11 bytes, over the limit of 10 bytes");
    ck_assert_str_eq(err.where, PATH_);
    iodfg_error_clear(&err);
    text = iodfg_textfile_read(PATH_, "theme", 11, &len, &err); // exactly at the limit: read
    ck_assert_msg(text != NULL, "%s", err.msg);
    free(text);
}
END_TEST

START_TEST(the_limit_is_said_in_mib)
{
    char *big = calloc(1, (1u << 20) + 1);
    ck_assert_ptr_nonnull(big);
    testutil_write_file(PATH_, big, (1u << 20) + 1);
    free(big);
    struct iodfg_error err;
    iodfg_error_clear(&err);
    size_t len;
    ck_assert_ptr_null(iodfg_textfile_read(PATH_, "thresholds file", 1u << 20, &len, &err));
    ck_assert_str_eq(err.msg, "the thresholds file is 1048577 bytes, over the limit of 1 MiB");
}
END_TEST

START_TEST(a_file_without_a_size_stops_at_the_limit)
{
    struct iodfg_error err;
    iodfg_error_clear(&err);
    size_t len;
    // /proc files say size 0: read until the limit, not to the end
    ck_assert_ptr_null(iodfg_textfile_read("/proc/self/status", "session file", 16, &len, &err));
    ck_assert_int_eq(err.code, IODFG_E_LIMIT);
    ck_assert_str_eq(err.msg, "the session file holds more than the limit of 16 bytes");
}
END_TEST

/* Read path in a child that the test kills if it blocks: the error message, or "blocked". */
static void read_no_wait(const char *path, char *msg, size_t size)
{
    int fds[2];
    ck_assert_int_eq(pipe(fds), 0);
    pid_t pid = fork();
    ck_assert_int_ge(pid, 0);
    if (pid == 0) {
        struct iodfg_error err;
        iodfg_error_clear(&err);
        size_t len;
        char *text = iodfg_textfile_read(path, "rules file", 1u << 20, &len, &err);
        const char *out = text ? "read" : err.msg;
        ssize_t w = write(fds[1], out, strlen(out));
        _exit(w < 0);
    }
    close(fds[1]);
    struct pollfd p = {fds[0], POLLIN, 0};
    int ready = poll(&p, 1, 20000);
    ssize_t n = ready > 0 ? read(fds[0], msg, size - 1) : -1;
    snprintf(msg + (n > 0 ? n : 0), size - (size_t)(n > 0 ? n : 0), "%s", n > 0 ? "" : "blocked");
    kill(pid, SIGKILL);
    waitpid(pid, NULL, 0);
    close(fds[0]);
}

START_TEST(a_fifo_a_device_or_a_link_loop_is_refused_without_blocking)
{
    char msg[512];
    ck_assert_int_eq(mkfifo(PATH_, 0600), 0);
    read_no_wait(PATH_, msg, sizeof(msg));
    ck_assert_str_eq(msg, "cannot read the rules file: a FIFO (named pipe), not a regular file");
    read_no_wait("/dev/zero", msg, sizeof(msg));
    ck_assert_str_eq(msg, "cannot read the rules file: a character device, not a regular file");
    char a[4300], b[4300];
    snprintf(a, sizeof(a), "%s/a", DIR_);
    snprintf(b, sizeof(b), "%s/b", DIR_);
    ck_assert_int_eq(symlink(b, a), 0);
    ck_assert_int_eq(symlink(a, b), 0);
    read_no_wait(a, msg, sizeof(msg));
    ck_assert_str_eq(msg, "cannot open the rules file: Too many levels of symbolic links");
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
    tcase_add_test(tc, the_limit_is_said_in_mib);
    tcase_add_test(tc, a_file_without_a_size_stops_at_the_limit);
    tcase_add_test(tc, a_fifo_a_device_or_a_link_loop_is_refused_without_blocking);
    suite_add_tcase(s, tc);
    return s;
}

int main(void)
{
    return testutil_run(suite());
}
