/* SPDX-License-Identifier: MIT */
/* Unit tests: cancel requests (set once, seen by another thread; NULL is never set). */
#include "config.h"

#include <pthread.h>
#include <sched.h>

#include "iodfg/cancel.h"

#include "testutil.h"

START_TEST(a_request_is_clear_until_set)
{
    struct iodfg_cancel c;
    iodfg_cancel_init(&c);
    ck_assert_int_eq(iodfg_cancel_requested(&c), 0);
    iodfg_cancel_request(&c);
    ck_assert_int_eq(iodfg_cancel_requested(&c), 1);
    iodfg_cancel_request(&c); // twice is the same
    ck_assert_int_eq(iodfg_cancel_requested(&c), 1);
    ck_assert_int_eq(iodfg_cancel_requested(NULL), 0);
}
END_TEST

static void *wait_for_request(void *arg)
{
    while (!iodfg_cancel_requested(arg)) {
        sched_yield();
    }
    return arg;
}

/* A computation on another thread sees the request the caller sets. */
START_TEST(another_thread_sees_the_request)
{
    struct iodfg_cancel c;
    iodfg_cancel_init(&c);
    pthread_t t;
    ck_assert_int_eq(pthread_create(&t, NULL, wait_for_request, &c), 0);
    iodfg_cancel_request(&c);
    void *ret = NULL;
    ck_assert_int_eq(pthread_join(t, &ret), 0);
    ck_assert_ptr_eq(ret, &c);
}
END_TEST

static Suite *suite(void)
{
    Suite *s = suite_create("cancel");
    TCase *tc = tcase_create("request");
    tcase_add_test(tc, a_request_is_clear_until_set);
    tcase_add_test(tc, another_thread_sees_the_request);
    suite_add_tcase(s, tc);
    return s;
}

int main(void)
{
    return testutil_run(suite());
}
