/* SPDX-License-Identifier: MIT */
/* Unit tests: two-way fork-join (a task runs exactly once, with or without a thread; help is
 * skipped without one; the join waits; one usable processor starts no thread). */
#include "config.h"

#include <sched.h>
#include <stdatomic.h>
#include <stdio.h>

#include "iodfg/forkjoin.h"

#include "testutil.h"

struct job {
    atomic_int runs;
    pthread_t ran_on;
    atomic_int release; /* the task waits for it, so a join that does not wait is seen */
};

static void *task(void *arg)
{
    struct job *j = arg;
    while (!atomic_load(&j->release)) {
        sched_yield();
    }
    j->ran_on = pthread_self();
    atomic_fetch_add(&j->runs, 1);
    return NULL;
}

/* Threads need a second processor: where the test may use one only, say so. */
static int two_processors(void)
{
    if (iodfg_cpu_count() > 1) {
        return 1;
    }
    fprintf(stderr, "check_forkjoin: one usable processor: no second thread to test\n");
    return 0;
}

START_TEST(a_task_on_a_thread_runs_once_and_the_join_waits)
{
    if (!two_processors()) {
        return;
    }
    struct job j = {0};
    struct iodfg_fork f;
    iodfg_fork_start(&f, 1, IODFG_FORK_TASK, task, &j);
    ck_assert(iodfg_fork_threaded(&f)); // the test machine can start a thread
    ck_assert_int_eq(atomic_load(&j.runs), 0);
    atomic_store(&j.release, 1);
    iodfg_fork_join(&f);
    ck_assert_int_eq(atomic_load(&j.runs), 1);
    ck_assert(!pthread_equal(j.ran_on, pthread_self()));
    iodfg_fork_join(&f); // a second join does nothing
    ck_assert_int_eq(atomic_load(&j.runs), 1);
}
END_TEST

START_TEST(without_a_thread_a_task_runs_in_the_join_on_the_caller)
{
    struct job j = {0};
    atomic_store(&j.release, 1);
    struct iodfg_fork f;
    iodfg_fork_start(&f, 0, IODFG_FORK_TASK, task, &j);
    ck_assert(!iodfg_fork_threaded(&f));
    ck_assert_int_eq(atomic_load(&j.runs), 0);
    iodfg_fork_join(&f);
    ck_assert_int_eq(atomic_load(&j.runs), 1);
    ck_assert(pthread_equal(j.ran_on, pthread_self()));
}
END_TEST

START_TEST(help_without_a_thread_is_skipped_and_with_one_runs_once)
{
    if (!two_processors()) {
        return;
    }
    struct job j = {0};
    atomic_store(&j.release, 1);
    struct iodfg_fork f;
    iodfg_fork_start(&f, 0, IODFG_FORK_HELP, task, &j);
    iodfg_fork_join(&f);
    ck_assert_int_eq(atomic_load(&j.runs), 0);
    iodfg_fork_start(&f, 1, IODFG_FORK_HELP, task, &j);
    iodfg_fork_join(&f);
    ck_assert_int_eq(atomic_load(&j.runs), 1);
}
END_TEST

/* Bound to one processor (as mpirun binds a process, or taskset), a fork starts no thread: the
 * task runs in the join, on the caller. */
START_TEST(one_usable_processor_starts_no_thread)
{
    cpu_set_t all, one;
    ck_assert_int_eq(sched_getaffinity(0, sizeof(all), &all), 0);
    int first = 0;
    while (!CPU_ISSET(first, &all)) {
        first++;
    }
    CPU_ZERO(&one);
    CPU_SET(first, &one);
    ck_assert_int_eq(sched_setaffinity(0, sizeof(one), &one), 0);
    ck_assert_uint_eq(iodfg_cpu_count(), 1);
    struct job j = {0};
    atomic_store(&j.release, 1);
    struct iodfg_fork f;
    iodfg_fork_start(&f, 1, IODFG_FORK_TASK, task, &j);
    ck_assert(!iodfg_fork_threaded(&f));
    iodfg_fork_join(&f);
    ck_assert_int_eq(atomic_load(&j.runs), 1);
    ck_assert(pthread_equal(j.ran_on, pthread_self()));
    ck_assert_int_eq(sched_setaffinity(0, sizeof(all), &all), 0);
    ck_assert_uint_eq(iodfg_cpu_count(), (unsigned)CPU_COUNT(&all));
}
END_TEST

static Suite *suite(void)
{
    Suite *s = suite_create("forkjoin");
    TCase *tc = tcase_create("fork");
    tcase_add_test(tc, a_task_on_a_thread_runs_once_and_the_join_waits);
    tcase_add_test(tc, without_a_thread_a_task_runs_in_the_join_on_the_caller);
    tcase_add_test(tc, help_without_a_thread_is_skipped_and_with_one_runs_once);
    tcase_add_test(tc, one_usable_processor_starts_no_thread);
    suite_add_tcase(s, tc);
    return s;
}

int main(void)
{
    return testutil_run(suite());
}
