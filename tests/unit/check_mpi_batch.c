/* SPDX-License-Identifier: MIT */
/* Unit tests: iodfg-mpi batch lines split into words and redirections (no MPI needed). */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "iodfg/error.h"

#include "mpi/mpi_batch_words.h"
#include "testutil.h"

/* Split s: the result, *c filled when 1, err set when -1. */
static int split(const char *s, struct mpi_batch_cmd *c, struct iodfg_error *err)
{
    iodfg_error_clear(err);
    return mpi_batch_split(s, strlen(s), "b.txt", 7, c, err);
}

/* s is refused at column col with a message holding what. */
static void refused(const char *s, unsigned long col, const char *what)
{
    struct mpi_batch_cmd c;
    struct iodfg_error err;
    ck_assert_int_eq(split(s, &c, &err), -1);
    ck_assert_int_eq(err.code, IODFG_E_PARSE);
    ck_assert_str_eq(err.where, "b.txt");
    ck_assert_uint_eq(err.line, 7);
    ck_assert_msg(err.col == col, "%s: column %lu, expected %lu", s, err.col, col);
    ck_assert_msg(strstr(err.msg, what), "%s: '%s' lacks '%s'", s, err.msg, what);
    ck_assert_ptr_null(c.words);
}

START_TEST(blank_lines_and_comments_hold_no_command)
{
    static const char *const none[] = {"", "   \t", "# stats x.h5", "   # x > y", "\r"};
    for (size_t i = 0; i < sizeof(none) / sizeof(none[0]); i++) {
        struct mpi_batch_cmd c;
        struct iodfg_error err;
        ck_assert_int_eq(split(none[i], &c, &err), 0);
        ck_assert_ptr_null(c.words);
    }
}
END_TEST

START_TEST(words_keep_their_quotes_for_the_expansion)
{
    struct mpi_batch_cmd c;
    struct iodfg_error err;
    ck_assert_int_eq(split("  stats\t--path '^/p s' \"$T/a b.h5\" x\\ y ${HOME}  # note", &c, &err),
                     1);
    ck_assert_str_eq(c.words, "stats --path '^/p s' \"$T/a b.h5\" x\\ y ${HOME}");
    ck_assert_ptr_null(c.out);
    ck_assert_ptr_null(c.err);
    mpi_batch_cmd_fini(&c);
    // quoted operators are text
    ck_assert_int_eq(split("dfg --path 'a|b>c' \"x;y\" 2\\>z", &c, &err), 1);
    ck_assert_str_eq(c.words, "dfg --path 'a|b>c' \"x;y\" 2\\>z");
    ck_assert_ptr_null(c.out);
    mpi_batch_cmd_fini(&c);
}
END_TEST

START_TEST(redirections_take_the_next_word_anywhere_on_the_line)
{
    struct mpi_batch_cmd c;
    struct iodfg_error err;
    ck_assert_int_eq(split("stats >out.txt log.h5 2> '$T/e rr' --top 3", &c, &err), 1);
    ck_assert_str_eq(c.words, "stats log.h5 --top 3");
    ck_assert_str_eq(c.out, "out.txt");
    ck_assert_str_eq(c.err, "'$T/e rr'");
    mpi_batch_cmd_fini(&c);
    // a word ends at '>'; "2>" only at a word's start
    ck_assert_int_eq(split("stats a.h5 x2>o", &c, &err), 1);
    ck_assert_str_eq(c.words, "stats a.h5 x2");
    ck_assert_str_eq(c.out, "o");
    mpi_batch_cmd_fini(&c);
}
END_TEST

START_TEST(a_second_redirection_of_one_output_is_refused)
{
    refused("stats x > a > b", 13, "a second >");
    refused("stats x 2>a 2> b", 13, "a second 2>");
}
END_TEST

START_TEST(what_the_shell_would_run_but_a_batch_does_not_is_refused_at_its_column)
{
    refused("stats x.h5 | head", 12, "'|' is not allowed");
    refused("stats x.h5; dfg x.h5", 11, "';' is not allowed");
    refused("stats x.h5 && dfg", 12, "'&' is not allowed");
    refused("stats < x.h5", 7, "'<' is not allowed");
    refused("(stats x.h5)", 1, "'(' is not allowed");
    refused("stats $(ls)", 7, "command substitution");
    refused("stats \"a`ls`\"", 9, "command substitution");
    refused("stats \"$(ls)\"", 8, "command substitution");
    refused("stats `ls`", 7, "command substitution");
    refused("stats x >> y", 9, "appending");
    refused("stats x 2>&1", 9, "2>& is not supported");
    refused("stats x >", 9, "expected a file name after >");
    refused("stats x 2>   # c", 9, "expected a file name after 2>");
    refused("  > out", 3, "a redirection without a command");
    refused("stats 'x.h5", 7, "expected ' before the end of the line");
    refused("stats \"x.h5\\\"", 7, "expected \" before the end of the line");
    refused("stats x.h5 \\", 12, "a backslash ends the line");
    refused("stats ${HOME", 7, "expected } to close");
}
END_TEST

START_TEST(a_nul_byte_is_refused_where_it_is)
{
    struct mpi_batch_cmd c;
    struct iodfg_error err;
    iodfg_error_clear(&err);
    ck_assert_int_eq(mpi_batch_split("stats a\0b", 9, "b.txt", 2, &c, &err), -1);
    ck_assert_uint_eq(err.col, 8);
    ck_assert_ptr_nonnull(strstr(err.msg, "NUL"));
}
END_TEST

static Suite *suite(void)
{
    Suite *s = suite_create("mpi_batch");
    TCase *tc = tcase_create("split");
    tcase_add_test(tc, blank_lines_and_comments_hold_no_command);
    tcase_add_test(tc, words_keep_their_quotes_for_the_expansion);
    tcase_add_test(tc, redirections_take_the_next_word_anywhere_on_the_line);
    tcase_add_test(tc, a_second_redirection_of_one_output_is_refused);
    tcase_add_test(tc, what_the_shell_would_run_but_a_batch_does_not_is_refused_at_its_column);
    tcase_add_test(tc, a_nul_byte_is_refused_where_it_is);
    suite_add_tcase(s, tc);
    return s;
}

int main(void)
{
    return testutil_run(suite());
}
