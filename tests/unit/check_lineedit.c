/* SPDX-License-Identifier: MIT */
/* Unit tests for the line editor model. */
#include "config.h"

#include <check.h>
#include <locale.h>
#include <string.h>

#include "testutil.h"
#include "tui/keys.h"
#include "tui/lineedit.h"

static void type(struct tui_lineedit *le, const char *ascii)
{
    for (const char *p = ascii; *p; p++) {
        ck_assert_int_eq(tui_lineedit_key(le, (unsigned char)*p), TUI_LE_CHANGED);
    }
}

START_TEST(test_insert_and_move)
{
    struct tui_lineedit *le = tui_lineedit_new(10);
    ck_assert_str_eq(tui_lineedit_text(le), "");
    type(le, "path ~ ^/scr");
    ck_assert_str_eq(tui_lineedit_text(le), "path ~ ^/scr");
    ck_assert_uint_eq(tui_lineedit_cursor(le), 12);
    ck_assert_int_eq(tui_lineedit_key(le, TUI_KEY_HOME), TUI_LE_MOVED);
    ck_assert_int_eq(tui_lineedit_key(le, TUI_KEY_HOME), TUI_LE_NONE);
    ck_assert_int_eq(tui_lineedit_key(le, TUI_KEY_LEFT), TUI_LE_NONE);
    ck_assert_int_eq(tui_lineedit_key(le, TUI_KEY_RIGHT), TUI_LE_MOVED);
    type(le, "x");
    ck_assert_str_eq(tui_lineedit_text(le), "pxath ~ ^/scr");
    ck_assert_int_eq(tui_lineedit_key(le, TUI_KEY_CTRL('e')), TUI_LE_MOVED);
    ck_assert_uint_eq(tui_lineedit_cursor(le), 13);
    ck_assert_int_eq(tui_lineedit_key(le, TUI_KEY_CTRL('a')), TUI_LE_MOVED);
    ck_assert_int_eq(tui_lineedit_key(le, TUI_KEY_END), TUI_LE_MOVED);
    ck_assert_int_eq(tui_lineedit_key(le, TUI_KEY_RIGHT), TUI_LE_NONE);
    // control characters and unknown keys do nothing
    ck_assert_int_eq(tui_lineedit_key(le, TUI_KEY_CTRL('b')), TUI_LE_MOVED);
    ck_assert_uint_eq(tui_lineedit_cursor(le), 12);
    ck_assert_int_eq(tui_lineedit_key(le, TUI_KEY_CTRL('o')), TUI_LE_NONE);
    ck_assert_int_eq(tui_lineedit_key(le, TUI_KEY_TAB), TUI_LE_NONE);
    ck_assert_int_eq(tui_lineedit_key(le, TUI_KEY_F1), TUI_LE_NONE);
    ck_assert_int_eq(tui_lineedit_key(le, 0x9b), TUI_LE_NONE);
    ck_assert_str_eq(tui_lineedit_text(le), "pxath ~ ^/scr");
    tui_lineedit_free(le);
}
END_TEST

START_TEST(test_delete_keys)
{
    struct tui_lineedit *le = tui_lineedit_new(10);
    tui_lineedit_set(le, "call ~ ^(read|write)$");
    ck_assert_int_eq(tui_lineedit_key(le, TUI_KEY_BACKSPACE), TUI_LE_CHANGED);
    ck_assert_str_eq(tui_lineedit_text(le), "call ~ ^(read|write)");
    ck_assert_int_eq(tui_lineedit_key(le, TUI_KEY_CTRL('w')), TUI_LE_CHANGED);
    ck_assert_str_eq(tui_lineedit_text(le), "call ~ ");
    ck_assert_int_eq(tui_lineedit_key(le, TUI_KEY_CTRL('w')), TUI_LE_CHANGED);
    ck_assert_str_eq(tui_lineedit_text(le), "call ");
    ck_assert_int_eq(tui_lineedit_key(le, TUI_KEY_CTRL('w')), TUI_LE_CHANGED);
    ck_assert_str_eq(tui_lineedit_text(le), "");
    ck_assert_int_eq(tui_lineedit_key(le, TUI_KEY_CTRL('w')), TUI_LE_NONE);
    ck_assert_int_eq(tui_lineedit_key(le, TUI_KEY_BACKSPACE), TUI_LE_NONE);

    tui_lineedit_set(le, "abcdef");
    tui_lineedit_key(le, TUI_KEY_LEFT);
    tui_lineedit_key(le, TUI_KEY_LEFT);
    ck_assert_int_eq(tui_lineedit_key(le, TUI_KEY_DELETE), TUI_LE_CHANGED);
    ck_assert_str_eq(tui_lineedit_text(le), "abcdf");
    ck_assert_int_eq(tui_lineedit_key(le, TUI_KEY_CTRL('u')), TUI_LE_CHANGED);
    ck_assert_str_eq(tui_lineedit_text(le), "f");
    ck_assert_uint_eq(tui_lineedit_cursor(le), 0);
    ck_assert_int_eq(tui_lineedit_key(le, TUI_KEY_CTRL('k')), TUI_LE_CHANGED);
    ck_assert_str_eq(tui_lineedit_text(le), "");
    ck_assert_int_eq(tui_lineedit_key(le, TUI_KEY_DELETE), TUI_LE_NONE);
    tui_lineedit_free(le);
}
END_TEST

START_TEST(test_utf8_cursor)
{
    setlocale(LC_ALL, "C.UTF-8");
    struct tui_lineedit *le = tui_lineedit_new(10);
    tui_lineedit_set(le, "/caf\xc3\xa9/\xe6\x97\xa5"); // /café/日
    ck_assert_uint_eq(tui_lineedit_cursor(le), 10);
    ck_assert_uint_eq(tui_lineedit_cursor_col(le), 8); // 日 is two columns
    tui_lineedit_key(le, TUI_KEY_LEFT);
    ck_assert_uint_eq(tui_lineedit_cursor(le), 7);
    ck_assert_uint_eq(tui_lineedit_cursor_col(le), 6);
    tui_lineedit_key(le, TUI_KEY_LEFT);
    tui_lineedit_key(le, TUI_KEY_LEFT);
    ck_assert_uint_eq(tui_lineedit_cursor(le), 4);
    ck_assert_int_eq(tui_lineedit_key(le, TUI_KEY_DELETE), TUI_LE_CHANGED);
    ck_assert_str_eq(tui_lineedit_text(le), "/caf/\xe6\x97\xa5");
    ck_assert_int_eq(tui_lineedit_key(le, 0xfc), TUI_LE_CHANGED); // ü
    ck_assert_str_eq(tui_lineedit_text(le), "/caf\xc3\xbc/\xe6\x97\xa5");
    ck_assert_int_eq(tui_lineedit_key(le, TUI_KEY_BACKSPACE), TUI_LE_CHANGED);
    ck_assert_str_eq(tui_lineedit_text(le), "/caf/\xe6\x97\xa5");
    tui_lineedit_key(le, TUI_KEY_END);
    ck_assert_int_eq(tui_lineedit_key(le, TUI_KEY_BACKSPACE), TUI_LE_CHANGED);
    ck_assert_str_eq(tui_lineedit_text(le), "/caf/");
    tui_lineedit_free(le);
}
END_TEST

START_TEST(test_accept_cancel_history)
{
    struct tui_lineedit *le = tui_lineedit_new(2);
    type(le, "one");
    ck_assert_int_eq(tui_lineedit_key(le, TUI_KEY_ENTER), TUI_LE_ACCEPTED);
    ck_assert_str_eq(tui_lineedit_text(le), "one");
    tui_lineedit_set(le, "");
    type(le, "two");
    tui_lineedit_key(le, TUI_KEY_ENTER);
    tui_lineedit_set(le, "");
    type(le, "two");
    tui_lineedit_key(le, TUI_KEY_ENTER); // same as the newest: not added again
    ck_assert_uint_eq(tui_lineedit_history_count(le), 2);
    tui_lineedit_set(le, "");
    type(le, "three");
    tui_lineedit_key(le, TUI_KEY_ENTER); // cap 2: "one" falls off
    ck_assert_uint_eq(tui_lineedit_history_count(le), 2);
    ck_assert_str_eq(tui_lineedit_history_get(le, 0), "two");
    ck_assert_ptr_null(tui_lineedit_history_get(le, 2));

    tui_lineedit_set(le, "");
    type(le, "dr");
    ck_assert_int_eq(tui_lineedit_key(le, TUI_KEY_UP), TUI_LE_CHANGED);
    ck_assert_str_eq(tui_lineedit_text(le), "three");
    ck_assert_uint_eq(tui_lineedit_cursor(le), 5);
    ck_assert_int_eq(tui_lineedit_key(le, TUI_KEY_UP), TUI_LE_CHANGED);
    ck_assert_str_eq(tui_lineedit_text(le), "two");
    ck_assert_int_eq(tui_lineedit_key(le, TUI_KEY_UP), TUI_LE_NONE);
    ck_assert_int_eq(tui_lineedit_key(le, TUI_KEY_DOWN), TUI_LE_CHANGED);
    ck_assert_str_eq(tui_lineedit_text(le), "three");
    ck_assert_int_eq(tui_lineedit_key(le, TUI_KEY_DOWN), TUI_LE_CHANGED);
    ck_assert_str_eq(tui_lineedit_text(le), "dr"); // the draft comes back
    ck_assert_int_eq(tui_lineedit_key(le, TUI_KEY_DOWN), TUI_LE_NONE);
    ck_assert_int_eq(tui_lineedit_key(le, TUI_KEY_ESC), TUI_LE_CANCELLED);
    ck_assert_int_eq(tui_lineedit_key(le, TUI_KEY_CTRL('g')), TUI_LE_CANCELLED);
    ck_assert_uint_eq(tui_lineedit_history_count(le), 2); // cancelling adds nothing
    tui_lineedit_set(le, "");
    ck_assert_int_eq(tui_lineedit_key(le, TUI_KEY_ENTER), TUI_LE_ACCEPTED);
    ck_assert_uint_eq(tui_lineedit_history_count(le), 2); // empty lines are not kept
    tui_lineedit_free(le);
}
END_TEST

START_TEST(test_no_history)
{
    struct tui_lineedit *le = tui_lineedit_new(0);
    type(le, "x");
    ck_assert_int_eq(tui_lineedit_key(le, TUI_KEY_ENTER), TUI_LE_ACCEPTED);
    ck_assert_uint_eq(tui_lineedit_history_count(le), 0);
    ck_assert_int_eq(tui_lineedit_key(le, TUI_KEY_UP), TUI_LE_NONE);
    tui_lineedit_free(le);
    tui_lineedit_free(NULL);
}
END_TEST

static Suite *lineedit_suite(void)
{
    Suite *s = suite_create("lineedit");
    TCase *tc = tcase_create("edit");
    tcase_add_test(tc, test_insert_and_move);
    tcase_add_test(tc, test_delete_keys);
    tcase_add_test(tc, test_utf8_cursor);
    tcase_add_test(tc, test_accept_cancel_history);
    tcase_add_test(tc, test_no_history);
    suite_add_tcase(s, tc);
    return s;
}

int main(void)
{
    return testutil_run(lineedit_suite());
}
