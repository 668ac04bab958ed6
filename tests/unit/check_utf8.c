/* SPDX-License-Identifier: MIT */
/* Unit tests for UTF-8 helpers and the terminal sanitiser. */
#include "config.h"

#include <locale.h>
#include <stdio.h>
#include <string.h>

#include <check.h>

#include "iodfg/buf.h"
#include "iodfg/glyph.h"
#include "iodfg/sanitize.h"

#include "testutil.h"
#include "tui/utf8.h"

START_TEST(test_decode_encode)
{
    unsigned cp;
    ck_assert_uint_eq(tui_utf8_decode("A", 1, &cp), 1);
    ck_assert_uint_eq(cp, 'A');
    ck_assert_uint_eq(tui_utf8_decode("\xc3\xa9", 2, &cp), 2);
    ck_assert_uint_eq(cp, 0xe9);
    ck_assert_uint_eq(tui_utf8_decode("\xe2\x94\x80", 3, &cp), 3);
    ck_assert_uint_eq(cp, 0x2500);
    ck_assert_uint_eq(tui_utf8_decode("\xf0\x9f\x98\x80", 4, &cp), 4);
    ck_assert_uint_eq(cp, 0x1f600);
    // invalid: lone continuation, overlong, surrogate, truncated, above U+10FFFF
    ck_assert_uint_eq(tui_utf8_decode("\x80", 1, &cp), 1);
    ck_assert_uint_eq(cp, TUI_UTF8_INVALID);
    ck_assert_uint_eq(tui_utf8_decode("\xc0\xaf", 2, &cp), 1);
    ck_assert_uint_eq(cp, TUI_UTF8_INVALID);
    ck_assert_uint_eq(tui_utf8_decode("\xed\xa0\x80", 3, &cp), 1);
    ck_assert_uint_eq(cp, TUI_UTF8_INVALID);
    ck_assert_uint_eq(tui_utf8_decode("\xe2\x94", 2, &cp), 1);
    ck_assert_uint_eq(cp, TUI_UTF8_INVALID);
    ck_assert_uint_eq(tui_utf8_decode("\xf4\x90\x80\x80", 4, &cp), 1);
    ck_assert_uint_eq(cp, TUI_UTF8_INVALID);
    char out[4];
    ck_assert_uint_eq(tui_utf8_encode(0xe9, out), 2);
    ck_assert_mem_eq(out, "\xc3\xa9", 2);
    ck_assert_uint_eq(tui_utf8_encode(0x1f600, out), 4);
    ck_assert_mem_eq(out, "\xf0\x9f\x98\x80", 4);
    ck_assert_uint_eq(tui_utf8_encode(0xd800, out), 0);
    ck_assert_uint_eq(tui_utf8_encode(0x110000, out), 0);
}
END_TEST

START_TEST(test_boundaries)
{
    const char *s = "a\xc3\xa9\xe2\x94\x80z"; // a é ─ z
    size_t len = strlen(s);
    ck_assert_uint_eq(tui_utf8_next(s, len, 0), 1);
    ck_assert_uint_eq(tui_utf8_next(s, len, 1), 3);
    ck_assert_uint_eq(tui_utf8_next(s, len, 3), 6);
    ck_assert_uint_eq(tui_utf8_next(s, len, 6), 7);
    ck_assert_uint_eq(tui_utf8_next(s, len, 7), 7);
    ck_assert_uint_eq(tui_utf8_prev(s, 7), 6);
    ck_assert_uint_eq(tui_utf8_prev(s, 6), 3);
    ck_assert_uint_eq(tui_utf8_prev(s, 3), 1);
    ck_assert_uint_eq(tui_utf8_prev(s, 1), 0);
    ck_assert_uint_eq(tui_utf8_prev(s, 0), 0);
    // an invalid byte is a character of its own
    const char *bad = "a\x80\x80";
    ck_assert_uint_eq(tui_utf8_prev(bad, 3), 2);
    ck_assert_uint_eq(tui_utf8_next(bad, 3, 1), 2);
}
END_TEST

/* Columns of drawn (already sanitised, narrow) text: one per character. */
static size_t drawn_cols(const char *s)
{
    size_t n = 0;
    for (; *s; s++) {
        n += ((unsigned char)*s & 0xc0) != 0x80;
    }
    return n;
}

static void sanitized_is(const char *in, size_t len, unsigned flags, const char *want)
{
    struct iodfg_buf b;
    iodfg_buf_init(&b);
    iodfg_glyph_init(flags ? 0 : 1); // flags: a terminal that is not UTF-8
    ck_assert_int_eq(iodfg_sanitize_term(&b, in, len), 0);
    iodfg_glyph_init(1);
    ck_assert_str_eq(b.data ? b.data : "", want);
    if (!flags) { // the width of raw text is the width of what gets drawn
        ck_assert_uint_eq(tui_utf8_width(in, len), drawn_cols(want));
    }
    iodfg_buf_fini(&b);
}

START_TEST(test_sanitize)
{
    setlocale(LC_ALL, "C.UTF-8");
    sanitized_is("/scratch/ssf", 12, 0, "/scratch/ssf");
    sanitized_is("", 0, 0, "");
    sanitized_is("a\x1b[31mred", 9, 0, "a\\e[31mred");
    sanitized_is("tab\there\nnl\r", 12, 0, "tab\\there\\nnl\\r");
    sanitized_is("bell\x07 del\x7f", 10, 0, "bell\\x07 del\\x7f");
    sanitized_is("nul\0x", 5, 0, "nul\\x00x");
    sanitized_is("bad\xff\xfe", 5, 0, "bad\\xff\\xfe");
    sanitized_is("c1\xc2\x9b"
                 "2J",
                 6, 0, "c1\\u009b2J"); // 8-bit CSI
    sanitized_is("rlo\xe2\x80\xaegnp.exe", 13, 0, "rlo\\u202egnp.exe");
    sanitized_is("caf\xc3\xa9", 5, 0, "caf\xc3\xa9");
    sanitized_is("caf\xc3\xa9", 5, 1, "caf\\xc3\\xa9");
}
END_TEST

START_TEST(test_width)
{
    setlocale(LC_ALL, "C.UTF-8");
    ck_assert_uint_eq(tui_utf8_width("abc", 3), 3);
    ck_assert_uint_eq(tui_utf8_width("caf\xc3\xa9", 5), 4);
    ck_assert_uint_eq(tui_utf8_width("\xe2\x94\x80\xe2\x94\x80", 6), 2);
    ck_assert_uint_eq(tui_utf8_width("\xe6\x97\xa5", 3), 2); // 日 is wide
    ck_assert_uint_eq(tui_utf8_width("\x1b", 1), 2);         // drawn as \e
    ck_assert_uint_eq(tui_utf8_width("\xff", 1), 4);         // drawn as \xff
}
END_TEST

/* s elided to width, the ellipsis as "~". */
static const char *elide(const char *s, int width)
{
    static char out[256];
    size_t head, tail, len = strlen(s);
    if (!tui_utf8_elide_middle(s, len, width, &head, &tail)) {
        snprintf(out, sizeof(out), "%s", s);
    } else {
        snprintf(out, sizeof(out), "%.*s~%s", (int)head, s, s + tail);
    }
    return out;
}

/* Names at 80 columns keep what tells them apart: the middle goes, the last path component
 * stays whole when it can. */
START_TEST(test_elide_middle)
{
    setlocale(LC_ALL, "C.UTF-8");
    ck_assert_str_eq(elide("write:/tmp/scratch/posixfpp/test.00000003", 26),
                     "write:/tmp/~/test.00000003");
    ck_assert_str_eq(elide("write:/tmp/scratch/posixfpp/test.00000003", 41),
                     "write:/tmp/scratch/posixfpp/test.00000003");
    ck_assert_str_eq(elide("write:/tmp/scratch/posixfpp/test.00000003", 40),
                     "write:/tmp/scratch/posixf~/test.00000003");
    ck_assert_str_eq(elide("mpiiofpp_node1_18440", 17), "mpiiofpp~e1_18440");
    // a last component too long for the room: the second half
    ck_assert_str_eq(elide("/a/very_long_file_name_without_end", 12), "/a/ve~ut_end");
    // wide characters are never split, the result never exceeds the width
    const char *wide = "/\xe6\x97\xa5\xe6\x97\xa5\xe6\x97\xa5\xe6\x97\xa5/x";
    size_t head, tail;
    ck_assert_int_eq(tui_utf8_elide_middle(wide, strlen(wide), 7, &head, &tail), 1);
    ck_assert_uint_le(
        tui_utf8_width(wide, head) + 1 + tui_utf8_width(wide + tail, strlen(wide) - tail), 7);
    ck_assert_uint_eq(tui_utf8_skip_cols("abcdef", 6, 2), 2);
    ck_assert_uint_eq(tui_utf8_skip_cols(wide, strlen(wide), 2), 4); // "/" and one wide char
}
END_TEST

static Suite *utf8_suite(void)
{
    Suite *s = suite_create("utf8");
    TCase *tc = tcase_create("utf8");
    tcase_add_test(tc, test_decode_encode);
    tcase_add_test(tc, test_boundaries);
    tcase_add_test(tc, test_sanitize);
    tcase_add_test(tc, test_width);
    tcase_add_test(tc, test_elide_middle);
    suite_add_tcase(s, tc);
    return s;
}

int main(void)
{
    return testutil_run(utf8_suite());
}
