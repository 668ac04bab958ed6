/* SPDX-License-Identifier: MIT */
/* Unit tests: string pool. */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "iodfg/error.h"
#include "iodfg/strpool.h"

#include "testutil.h"

START_TEST(empty_is_zero)
{
    struct iodfg_strpool *p = iodfg_strpool_new();
    ck_assert_ptr_nonnull(p);
    ck_assert_uint_eq(iodfg_strpool_count(p), 1);
    uint32_t id = 99;
    ck_assert_int_eq(iodfg_strpool_intern(p, "", 0, &id), 0);
    ck_assert_uint_eq(id, IODFG_STR_EMPTY);
    ck_assert_str_eq(iodfg_strpool_get(p, 0), "");
    iodfg_strpool_free(p);
}
END_TEST

START_TEST(intern_dedups_and_grows)
{
    struct iodfg_strpool *p = iodfg_strpool_new();
    char buf[64];
    for (int round = 0; round < 2; round++) {
        for (int i = 0; i < 100000; i++) {
            int n = snprintf(buf, sizeof(buf), "/p/scratch/file.%d", i);
            uint32_t id;
            ck_assert_int_eq(iodfg_strpool_intern(p, buf, (size_t)n, &id), 0);
            ck_assert_uint_eq(id, (uint32_t)i + 1);
        }
    }
    ck_assert_uint_eq(iodfg_strpool_count(p), 100001);
    ck_assert_str_eq(iodfg_strpool_get(p, 12346), "/p/scratch/file.12345");
    ck_assert_uint_eq(iodfg_strpool_len(p, 12346), strlen("/p/scratch/file.12345"));
    uint32_t id;
    ck_assert_int_eq(iodfg_strpool_find(p, "/p/scratch/file.7", 17, &id), 0);
    ck_assert_uint_eq(id, 8);
    ck_assert_int_eq(iodfg_strpool_find(p, "/nope", 5, &id), -1);
    ck_assert_str_eq(iodfg_strpool_get(p, 4000000), "");
    iodfg_strpool_free(p);
}
END_TEST

START_TEST(binary_bytes_kept)
{
    struct iodfg_strpool *p = iodfg_strpool_new();
    const char odd[] = "a\x1b[31m\xff\n";
    uint32_t id, id2;
    ck_assert_int_eq(iodfg_strpool_intern(p, odd, sizeof(odd) - 1, &id), 0);
    ck_assert_int_eq(iodfg_strpool_intern(p, odd, 3, &id2), 0);
    ck_assert_uint_ne(id, id2);
    ck_assert_mem_eq(iodfg_strpool_get(p, id), odd, sizeof(odd));
    iodfg_strpool_free(p);
}
END_TEST

/* A NUL byte cannot be stored (strings are NUL-terminated): it becomes '?', the same string as
 * one written with '?', so that a pool written to an event log reads back. */
START_TEST(nul_bytes_become_question_marks)
{
    struct iodfg_strpool *p = iodfg_strpool_new();
    uint32_t a, b, c;
    ck_assert_int_eq(iodfg_strpool_intern(p, "/p/a\0b\0", 7, &a), 0);
    ck_assert_str_eq(iodfg_strpool_get(p, a), "/p/a?b?");
    ck_assert_uint_eq(iodfg_strpool_len(p, a), 7);
    ck_assert_int_eq(iodfg_strpool_intern(p, "/p/a?b?", 7, &b), 0);
    ck_assert_uint_eq(a, b);
    ck_assert_int_eq(iodfg_strpool_intern(p, "/p/a\0b\0", 7, &c), 0);
    ck_assert_uint_eq(a, c);
    uint64_t nbytes;
    const char *bytes = iodfg_strpool_bytes(p, &nbytes);
    struct iodfg_strpool *q = iodfg_strpool_from_raw(bytes, nbytes, iodfg_strpool_offsets(p),
                                                     iodfg_strpool_count(p), NULL);
    ck_assert_ptr_nonnull(q);
    iodfg_strpool_free(q);
    iodfg_strpool_free(p);
}
END_TEST

START_TEST(raw_round_trip)
{
    struct iodfg_strpool *p = iodfg_strpool_new();
    uint32_t id;
    iodfg_strpool_intern(p, "read", 4, &id);
    iodfg_strpool_intern(p, "/etc/passwd", 11, &id);
    uint64_t nb;
    const char *bytes = iodfg_strpool_bytes(p, &nb);
    struct iodfg_error err;
    iodfg_error_clear(&err);
    struct iodfg_strpool *q =
        iodfg_strpool_from_raw(bytes, nb, iodfg_strpool_offsets(p), iodfg_strpool_count(p), &err);
    ck_assert_ptr_nonnull(q);
    ck_assert_uint_eq(iodfg_strpool_count(q), 3);
    ck_assert_str_eq(iodfg_strpool_get(q, 2), "/etc/passwd");
    ck_assert_int_eq(iodfg_strpool_find(q, "read", 4, &id), 0);
    ck_assert_uint_eq(id, 1);
    iodfg_strpool_free(q);
    iodfg_strpool_free(p);
}
END_TEST

START_TEST(raw_rejects_damage)
{
    struct iodfg_error err;
    const char dup[] = "\0a\0a";
    uint64_t off[] = {0, 1, 3, 5};
    iodfg_error_clear(&err);
    ck_assert_ptr_null(iodfg_strpool_from_raw(dup, 5, off, 3, &err));
    ck_assert_int_eq(err.code, IODFG_E_FORMAT);
    ck_assert_ptr_nonnull(strstr(err.msg, "repeats"));
    const char noterm[] = "\0ab";
    uint64_t off2[] = {0, 1, 3};
    iodfg_error_clear(&err);
    ck_assert_ptr_null(iodfg_strpool_from_raw(noterm, 3, off2, 2, &err));
    ck_assert_int_eq(err.code, IODFG_E_FORMAT);
    uint64_t off3[] = {0, 5, 3};
    iodfg_error_clear(&err);
    ck_assert_ptr_null(iodfg_strpool_from_raw(dup, 5, off3, 2, &err));
    ck_assert_int_eq(err.code, IODFG_E_FORMAT);
}
END_TEST

int main(void)
{
    Suite *s = suite_create("strpool");
    TCase *tc = tcase_create("core");
    tcase_set_timeout(tc, 60); // 200,000 interns: seconds on a loaded 2-core machine, not a timing test
    tcase_add_test(tc, empty_is_zero);
    tcase_add_test(tc, intern_dedups_and_grows);
    tcase_add_test(tc, binary_bytes_kept);
    tcase_add_test(tc, raw_round_trip);
    tcase_add_test(tc, nul_bytes_become_question_marks);
    tcase_add_test(tc, raw_rejects_damage);
    suite_add_tcase(s, tc);
    return testutil_run(s);
}
