/* SPDX-License-Identifier: MIT */
/* Unit tests for the undo/redo history. */
#include "config.h"

#include <string.h>

#include <check.h>

#include "iodfg/history.h"

#include "testutil.h"

static void push(struct iodfg_history *u, const char *s)
{
    ck_assert_int_eq(iodfg_history_push(u, s, strlen(s)), 0);
}

static void is_state(const void *p, size_t len, const char *want)
{
    ck_assert_ptr_nonnull(p);
    ck_assert_uint_eq(len, strlen(want));
    ck_assert_mem_eq(p, want, len);
}

static void undo_is(struct iodfg_history *u, const char *want)
{
    size_t len = 99;
    const void *p = iodfg_history_undo(u, &len);
    is_state(p, len, want);
}

static void redo_is(struct iodfg_history *u, const char *want)
{
    size_t len = 99;
    const void *p = iodfg_history_redo(u, &len);
    is_state(p, len, want);
}

static void current_is(struct iodfg_history *u, const char *want)
{
    size_t len = 99;
    const void *p = iodfg_history_current(u, &len);
    is_state(p, len, want);
}

START_TEST(test_undo_redo)
{
    struct iodfg_history *u = iodfg_history_new(10);
    size_t len = 99;
    ck_assert_ptr_null(iodfg_history_current(u, &len));
    ck_assert_ptr_null(iodfg_history_undo(u, &len));
    ck_assert_ptr_null(iodfg_history_redo(u, &len));
    push(u, "rules=1");
    ck_assert_int_eq(iodfg_history_can_undo(u), 0);
    push(u, "rules=1;filter=a");
    push(u, "rules=2;filter=a");
    undo_is(u, "rules=1;filter=a");
    undo_is(u, "rules=1");
    ck_assert_ptr_null(iodfg_history_undo(u, &len));
    current_is(u, "rules=1");
    redo_is(u, "rules=1;filter=a");
    redo_is(u, "rules=2;filter=a");
    ck_assert_ptr_null(iodfg_history_redo(u, &len));
    ck_assert_uint_eq(iodfg_history_count(u), 3);
    iodfg_history_free(u);
}
END_TEST

START_TEST(test_push_drops_redo)
{
    struct iodfg_history *u = iodfg_history_new(10);
    size_t len;
    push(u, "a");
    push(u, "b");
    push(u, "c");
    iodfg_history_undo(u, &len);
    iodfg_history_undo(u, &len);
    push(u, "d"); // a -> d; b and c are gone
    ck_assert_int_eq(iodfg_history_can_redo(u), 0);
    ck_assert_uint_eq(iodfg_history_count(u), 2);
    undo_is(u, "a");
    redo_is(u, "d");
    iodfg_history_free(u);
}
END_TEST

START_TEST(test_same_state_is_not_a_step)
{
    struct iodfg_history *u = iodfg_history_new(10);
    push(u, "a");
    push(u, "a");
    ck_assert_uint_eq(iodfg_history_count(u), 1);
    ck_assert_int_eq(iodfg_history_push(u, "", 0), 0); // empty snapshots are fine
    ck_assert_uint_eq(iodfg_history_count(u), 2);
    size_t len = 5;
    ck_assert_ptr_nonnull(iodfg_history_current(u, &len));
    ck_assert_uint_eq(len, 0);
    iodfg_history_free(u);
}
END_TEST

START_TEST(test_cap)
{
    struct iodfg_history *u = iodfg_history_new(3);
    size_t len;
    push(u, "1");
    push(u, "2");
    push(u, "3");
    push(u, "4"); // "1" falls off
    ck_assert_uint_eq(iodfg_history_count(u), 3);
    undo_is(u, "3");
    undo_is(u, "2");
    ck_assert_ptr_null(iodfg_history_undo(u, &len));
    iodfg_history_clear(u);
    ck_assert_uint_eq(iodfg_history_count(u), 0);
    ck_assert_ptr_null(iodfg_history_current(u, &len));
    iodfg_history_free(u);
    ck_assert_ptr_null(iodfg_history_new(0));
    iodfg_history_free(NULL);
}
END_TEST

static Suite *undo_suite(void)
{
    Suite *s = suite_create("undo");
    TCase *tc = tcase_create("undo");
    tcase_add_test(tc, test_undo_redo);
    tcase_add_test(tc, test_push_drops_redo);
    tcase_add_test(tc, test_same_state_is_not_a_step);
    tcase_add_test(tc, test_cap);
    suite_add_tcase(s, tc);
    return s;
}

int main(void)
{
    return testutil_run(undo_suite());
}
