/* SPDX-License-Identifier: MIT */
/* Unit tests: the width rule of every table (cut with the ellipsis, in UTF-8 and ASCII forms),
 * display widths, and tables whose columns fit their widest cell within their bounds. */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "iodfg/buf.h"
#include "iodfg/glyph.h"
#include "iodfg/table.h"

#include "testutil.h"

static struct iodfg_buf B;

static void setup(void)
{
    iodfg_buf_init(&B);
    iodfg_glyph_init(1);
}

static void teardown(void)
{
    iodfg_buf_fini(&B);
    iodfg_glyph_init(1);
}

static const char *text(void)
{
    return B.data ? B.data : "";
}

START_TEST(widths_count_characters_not_bytes)
{
    ck_assert_uint_eq(iodfg_text_width("abc", 3), 3);
    ck_assert_uint_eq(iodfg_text_width("\xc2\xb5s", 3), 2);    // µs
    ck_assert_uint_eq(iodfg_text_width("e\xcc\x81", 3), 1);    // e + combining acute
    ck_assert_uint_eq(iodfg_text_width("\xe2\x80\xa6", 3), 1); // …
    ck_assert_uint_eq(iodfg_text_width("\xff\xfe", 2), 2);     // invalid bytes: one each
}
END_TEST

START_TEST(a_cell_wider_than_its_limit_ends_in_the_ellipsis)
{
    iodfg_table_cut(&B, "abcdefghij", 10, 6, 0);
    ck_assert_str_eq(text(), "abcde\xe2\x80\xa6");
    iodfg_buf_clear(&B);
    iodfg_table_cut(&B, "abcdef", 6, 6, 8);
    ck_assert_str_eq(text(), "abcdef  ");
    iodfg_buf_clear(&B);
    iodfg_glyph_init(0); // the C locale: the ASCII form, three columns
    iodfg_table_cut(&B, "abcdefghij", 10, 6, 0);
    ck_assert_str_eq(text(), "abc...");
}
END_TEST

START_TEST(the_cut_keeps_whole_characters_and_escapes)
{
    iodfg_table_cut(&B, "\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9", 8, 3, 0); // éééé
    ck_assert_str_eq(text(), "\xc3\xa9\xc3\xa9\xe2\x80\xa6");
    iodfg_buf_clear(&B);
    iodfg_table_cut(&B, "a\x1b[2Jb", 6, 120, 0); // the escape is shown, not obeyed
    ck_assert_str_eq(text(), "a\\e[2Jb");
}
END_TEST

START_TEST(a_long_name_reads_only_what_can_show)
{
    size_t n = 1 << 20;
    char *s = malloc(n);
    ck_assert_ptr_nonnull(s);
    memset(s, 'x', n);
    iodfg_table_cut(&B, s, n, IODFG_TABLE_CELL_MAX, 0);
    ck_assert_uint_eq(iodfg_text_width(B.data, B.len), IODFG_TABLE_CELL_MAX);
    ck_assert_uint_lt(B.len, 4 * IODFG_TABLE_CELL_MAX);
    free(s);
}
END_TEST

START_TEST(columns_fit_their_widest_cell_within_their_bounds)
{
    static const struct iodfg_table_col col[] = {
        {'l', 4, 8, ""}, {'r', 3, 0, "  "}, {'l', 0, 0, " "}};
    struct iodfg_table t;
    iodfg_table_init(&t, col, 3);
    const char *cells[] = {"name", "n", "note", "ab", "12345", "x", "a-very-long-name", "1", "y"};
    for (int i = 0; i < 9; i++) {
        i % 3 == 0 ? iodfg_table_add_name(&t, cells[i], strlen(cells[i]))
                   : iodfg_table_add(&t, cells[i]);
        if (i == 5) {
            iodfg_table_text(&t, "-- between rows --\n");
        }
    }
    ck_assert_int_eq(iodfg_table_print(&t, &B), 0);
    iodfg_table_fini(&t);
    ck_assert_str_eq(text(), "name          n note\n"
                             "ab        12345 x\n"
                             "-- between rows --\n"
                             "a-very-\xe2\x80\xa6      1 y\n");
}
END_TEST

START_TEST(the_programs_text_over_the_limit_is_cut_when_printed)
{
    static const struct iodfg_table_col col[] = {{'r', 0, 5, ""}};
    struct iodfg_table t;
    iodfg_table_init(&t, col, 1);
    iodfg_table_add(&t, "1234567");
    iodfg_table_add(&t, "12");
    ck_assert_int_eq(iodfg_table_print(&t, &B), 0);
    iodfg_table_fini(&t);
    ck_assert_str_eq(text(), "1234\xe2\x80\xa6\n   12\n");
}
END_TEST

static Suite *suite(void)
{
    Suite *s = suite_create("table");
    TCase *tc = tcase_create("width rule");
    tcase_add_checked_fixture(tc, setup, teardown);
    tcase_add_test(tc, widths_count_characters_not_bytes);
    tcase_add_test(tc, a_cell_wider_than_its_limit_ends_in_the_ellipsis);
    tcase_add_test(tc, the_cut_keeps_whole_characters_and_escapes);
    tcase_add_test(tc, a_long_name_reads_only_what_can_show);
    tcase_add_test(tc, columns_fit_their_widest_cell_within_their_bounds);
    tcase_add_test(tc, the_programs_text_over_the_limit_is_cut_when_printed);
    suite_add_tcase(s, tc);
    return s;
}

int main(void)
{
    return testutil_run(suite());
}
