/* SPDX-License-Identifier: MIT */
/* Unit tests: JSON values (strings through the sanitiser, exact numbers, null for unknowns) and the
 * writer (commas, colons, nesting, layout). */
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

START_TEST(the_writer_puts_commas_and_colons)
{
    struct iodfg_json j;
    iodfg_json_init(&j, &B);
    iodfg_json_object(&j);
    iodfg_json_put_known(&j, "bytes", INT64_MAX);
    iodfg_json_put_known(&j, "offset", IODFG_UNKNOWN);
    iodfg_json_put_double(&j, "rd", 0.5);
    iodfg_json_put_double(&j, "dr", NAN);
    iodfg_json_key(&j, "list");
    iodfg_json_array(&j);
    iodfg_json_u64(&j, 18446744073709551615ull);
    iodfg_json_i64(&j, -3);
    iodfg_json_object(&j);
    iodfg_json_end(&j);
    iodfg_json_array(&j);
    iodfg_json_end(&j);
    iodfg_json_bool(&j, 1);
    iodfg_json_null(&j);
    iodfg_json_fixed(&j, 1.5, 6);
    iodfg_json_fixed(&j, INFINITY, 6);
    iodfg_json_end(&j);
    iodfg_json_put_text(&j, "name", "a\"b");
    iodfg_json_end(&j);
    ck_assert_str_eq(text(),
                     "{\"bytes\":9223372036854775807,\"offset\":null,\"rd\":0.5,"
                     "\"dr\":null,\"list\":[18446744073709551615,-3,{},[],true,null,1.500000,null],"
                     "\"name\":\"a\\\"b\"}");
}
END_TEST

START_TEST(layout_comes_after_the_comma_and_before_an_end)
{
    struct iodfg_json j;
    iodfg_json_init(&j, &B);
    iodfg_json_spaced(&j);
    iodfg_json_object(&j);
    iodfg_json_key(&j, "rows");
    iodfg_json_array(&j);
    for (int i = 0; i < 2; i++) {
        iodfg_json_layout(&j, "\n  ");
        iodfg_json_object(&j);
        iodfg_json_put_i64(&j, "id", i);
        iodfg_json_put_text(&j, "k", "v");
        iodfg_json_end(&j);
    }
    iodfg_json_layout(&j, "\n");
    iodfg_json_end(&j);
    iodfg_json_layout(&j, "\n ");
    iodfg_json_put_u64(&j, "count", 2);
    iodfg_json_end(&j);
    ck_assert_str_eq(text(), "{\"rows\": [\n  {\"id\": 0, \"k\": \"v\"},\n  {\"id\": 1, \"k\": "
                             "\"v\"}\n],\n \"count\": 2}");
}
END_TEST

START_TEST(keys_are_escaped_and_too_deep_writes_nothing)
{
    struct iodfg_json j;
    iodfg_json_init(&j, &B);
    for (int i = 0; i < IODFG_JSON_DEPTH + 5; i++) {
        iodfg_json_array(&j);
    }
    for (int i = 0; i < IODFG_JSON_DEPTH + 5; i++) {
        iodfg_json_end(&j);
    }
    size_t n = strlen(text());
    ck_assert_uint_eq(n % 2, 0);
    ck_assert_uint_eq(n, 2 * (IODFG_JSON_DEPTH - 1));
    ck_assert_int_eq(text()[n / 2 - 1], '[');
    ck_assert_int_eq(text()[n / 2], ']');
    iodfg_buf_clear(&B);
    iodfg_json_init(&j, &B);
    iodfg_json_object(&j);
    iodfg_json_put_u64(&j, "a\nb", 1);
    iodfg_json_end(&j);
    ck_assert_str_eq(text(), "{\"a\\nb\":1}");
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
    tcase_add_test(tc, the_writer_puts_commas_and_colons);
    tcase_add_test(tc, layout_comes_after_the_comma_and_before_an_end);
    tcase_add_test(tc, keys_are_escaped_and_too_deep_writes_nothing);
    suite_add_tcase(s, tc);
    return s;
}

int main(void)
{
    return testutil_run(suite());
}
