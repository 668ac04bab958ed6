/* SPDX-License-Identifier: MIT */
/* Unit tests: the processors a process may use (its affinity mask, a process-wide limit) and a
 * process's fair share of the processors it shares with the other processes of its node. */
#include "config.h"

#include <sched.h>
#include <string.h>

#include "iodfg/cpus.h"
#include "iodfg/forkjoin.h"

#include "testutil.h"

enum { W = IODFG_CPU_MASK_WORDS };

/* masks[p] holds processors [lo, hi). */
static void hold(uint64_t *masks, size_t p, unsigned lo, unsigned hi)
{
    for (unsigned c = lo; c < hi; c++) {
        masks[p * W + c / 64] |= (uint64_t)1 << (c % 64);
    }
}

START_TEST(shares_of_disjoint_shared_and_mixed_masks)
{
    uint64_t m[8 * W];
    // bound: each process its own processors
    memset(m, 0, sizeof(m));
    hold(m, 0, 0, 1);
    hold(m, 1, 1, 2);
    ck_assert_uint_eq(iodfg_cpu_share(m, 2, 0), 1);
    ck_assert_uint_eq(iodfg_cpu_share(m, 2, 1), 1);
    memset(m, 0, sizeof(m));
    hold(m, 0, 0, 4);
    hold(m, 1, 4, 12);
    ck_assert_uint_eq(iodfg_cpu_share(m, 2, 0), 4);
    ck_assert_uint_eq(iodfg_cpu_share(m, 2, 1), 8);
    // not bound: three processes see the same 6 processors, beyond the first word too
    memset(m, 0, sizeof(m));
    for (size_t p = 0; p < 3; p++) {
        hold(m, p, 62, 68);
    }
    for (size_t p = 0; p < 3; p++) {
        ck_assert_uint_eq(iodfg_cpu_share(m, 3, p), 2);
    }
    // more processes than processors: at least one each
    memset(m, 0, sizeof(m));
    for (size_t p = 0; p < 8; p++) {
        hold(m, p, 0, 2);
    }
    ck_assert_uint_eq(iodfg_cpu_share(m, 8, 5), 1);
    // mixed: process 0 alone on 0-3, processes 1 and 2 share 4-7
    memset(m, 0, sizeof(m));
    hold(m, 0, 0, 4);
    hold(m, 1, 4, 8);
    hold(m, 2, 4, 8);
    ck_assert_uint_eq(iodfg_cpu_share(m, 3, 0), 4);
    ck_assert_uint_eq(iodfg_cpu_share(m, 3, 1), 2);
    ck_assert_uint_eq(iodfg_cpu_share(m, 3, 2), 2);
    // one process
    ck_assert_uint_eq(iodfg_cpu_share(m, 1, 0), 4);
}
END_TEST

START_TEST(the_mask_is_the_affinity)
{
    cpu_set_t set;
    ck_assert_int_eq(sched_getaffinity(0, sizeof(set), &set), 0);
    uint64_t mask[W];
    iodfg_cpu_mask(mask);
    unsigned n = 0;
    for (unsigned c = 0; c < W * 64; c++) {
        int in = (mask[c / 64] >> (c % 64)) & 1;
        ck_assert_int_eq(in, c < CPU_SETSIZE && CPU_ISSET(c, &set));
        n += (unsigned)in;
    }
    ck_assert_uint_eq(n, iodfg_cpu_count());
    ck_assert_uint_eq(iodfg_cpu_share(mask, 1, 0), n);
}
END_TEST

static void *mark(void *arg)
{
    *(int *)arg = 1;
    return NULL;
}

START_TEST(a_limit_caps_the_count_and_the_threads)
{
    unsigned all = iodfg_cpu_count();
    iodfg_cpu_limit(all + 5); // above the mask: the mask
    ck_assert_uint_eq(iodfg_cpu_count(), all);
    iodfg_cpu_limit(1);
    ck_assert_uint_eq(iodfg_cpu_count(), 1);
    int ran = 0;
    struct iodfg_fork f;
    iodfg_fork_start(&f, 1, IODFG_FORK_TASK, mark, &ran);
    ck_assert(!iodfg_fork_threaded(&f));
    iodfg_fork_join(&f);
    ck_assert_int_eq(ran, 1);
    iodfg_cpu_limit(0);
    ck_assert_uint_eq(iodfg_cpu_count(), all);
}
END_TEST

static Suite *suite(void)
{
    Suite *s = suite_create("cpus");
    TCase *tc = tcase_create("cpus");
    tcase_add_test(tc, shares_of_disjoint_shared_and_mixed_masks);
    tcase_add_test(tc, the_mask_is_the_affinity);
    tcase_add_test(tc, a_limit_caps_the_count_and_the_threads);
    suite_add_tcase(s, tc);
    return s;
}

int main(void)
{
    return testutil_run(suite());
}
