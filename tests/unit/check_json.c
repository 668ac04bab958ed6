/* SPDX-License-Identifier: MIT */
/* Unit tests: JSON values (strings through the sanitiser, exact numbers, null for unknowns). */
#include "config.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "iodfg/buf.h"
#include "iodfg/eventlog.h"
#include "iodfg/json.h"

#include "testutil.h"

static struct iodfg_buf B;

static void setup(void)
{
    iodfg_buf_init(&B);
}

static void teardown(void)
{
    iodfg_buf_fini(&B);
}

static const char *text(void)
{
    return B.data ? B.data : "";
}

START_TEST(strings_are_quoted_and_escaped_with_their_length)
{
    iodfg_json_str(&B, "a\"b\\c\n\x01z", 7); // the 'z' is beyond the length
    ck_assert_str_eq(text(), "\"a\\\"b\\\\c\\n\\u0001\"");
}
END_TEST

START_TEST(invalid_utf8_stays_distinct_and_valid)
{
    iodfg_json_cstr(&B, "\xff/\xc3\xa9");
    ck_assert_str_eq(text(), "\"\\u00ff/\xc3\xa9\"");
}
END_TEST

START_TEST(numbers_round_trip_and_non_finite_is_null)
{
    double v = 0.1 + 0.2;
    iodfg_json_num(&B, v);
    ck_assert(strtod(text(), NULL) == v);
    iodfg_buf_fini(&B);
    iodfg_buf_init(&B);
    iodfg_json_num(&B, NAN);
    iodfg_buf_add(&B, " ", 1);
    iodfg_json_num(&B, -INFINITY);
    ck_assert_str_eq(text(), "null null");
}
END_TEST

START_TEST(members_follow_a_first_one_and_unknown_is_null)
{
    iodfg_json_member_i64(&B, "bytes", INT64_MAX);
    iodfg_json_member_i64(&B, "offset", IODFG_UNKNOWN);
    iodfg_json_member_num(&B, "rd", 0.5);
    iodfg_json_member_num(&B, "dr", NAN);
    ck_assert_str_eq(text(),
                     ",\"bytes\":9223372036854775807,\"offset\":null,\"rd\":0.5,\"dr\":null");
}
END_TEST

static Suite *suite(void)
{
    Suite *s = suite_create("json");
    TCase *tc = tcase_create("values");
    tcase_add_checked_fixture(tc, setup, teardown);
    tcase_add_test(tc, strings_are_quoted_and_escaped_with_their_length);
    tcase_add_test(tc, invalid_utf8_stays_distinct_and_valid);
    tcase_add_test(tc, numbers_round_trip_and_non_finite_is_null);
    tcase_add_test(tc, members_follow_a_first_one_and_unknown_is_null);
    suite_add_tcase(s, tc);
    return s;
}

int main(void)
{
    return testutil_run(suite());
}
