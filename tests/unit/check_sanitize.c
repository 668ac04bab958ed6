/* SPDX-License-Identifier: MIT */
/* Unit tests: escaping of hostile text for DOT, JSON, TSV, XML and the terminal. */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "iodfg/buf.h"
#include "iodfg/glyph.h"
#include "iodfg/sanitize.h"

#include "testutil.h"

static struct iodfg_buf B;

static const char *esc(int (*fn)(struct iodfg_buf *, const char *, size_t), const char *s,
                       size_t len)
{
    iodfg_buf_clear(&B);
    ck_assert_int_eq(fn(&B, s, len), 0);
    return B.data ? B.data : "";
}

#define ESC(fn, lit) esc(fn, lit, sizeof(lit) - 1)

static void setup(void)
{
    iodfg_buf_init(&B);
}

static void teardown(void)
{
    iodfg_buf_fini(&B);
}

START_TEST(utf8_validation)
{
    ck_assert_uint_eq(iodfg_utf8_valid((const unsigned char *)"a", 1), 1);
    ck_assert_uint_eq(iodfg_utf8_valid((const unsigned char *)"\xc3\xa9", 2), 2);
    ck_assert_uint_eq(iodfg_utf8_valid((const unsigned char *)"\xe2\x97\x8f", 3), 3);
    ck_assert_uint_eq(iodfg_utf8_valid((const unsigned char *)"\xf0\x9f\x98\x80", 4), 4);
    ck_assert_uint_eq(iodfg_utf8_valid((const unsigned char *)"\xc0\x80", 2), 0);     // overlong
    ck_assert_uint_eq(iodfg_utf8_valid((const unsigned char *)"\xed\xa0\x80", 3), 0); // surrogate
    ck_assert_uint_eq(iodfg_utf8_valid((const unsigned char *)"\xf4\x90\x80\x80", 4), 0);
    ck_assert_uint_eq(iodfg_utf8_valid((const unsigned char *)"\xe2\x97", 2), 0); // truncated
    ck_assert_uint_eq(iodfg_utf8_valid((const unsigned char *)"\xff", 1), 0);
}
END_TEST

START_TEST(dot)
{
    ck_assert_str_eq(ESC(iodfg_sanitize_dot, "/a\"b\\c"), "/a\\\"b\\\\c");
    ck_assert_str_eq(ESC(iodfg_sanitize_dot, "x&y"), "x&amp;y");
    ck_assert_str_eq(ESC(iodfg_sanitize_dot, "a\nb\x1b[31m"), "a\\\\x0ab\\\\x1b[31m");
    ck_assert_str_eq(ESC(iodfg_sanitize_dot, "\xff\xc3\xa9"), "\\\\xff\xc3\xa9");
    ck_assert_str_eq(ESC(iodfg_sanitize_dot, "\xc2\x85"), "\\\\xc2\\\\x85"); // C1 NEL
    ck_assert_str_eq(esc(iodfg_sanitize_dot, "a\0b", 3), "a\\\\x00b");
}
END_TEST

START_TEST(json)
{
    ck_assert_str_eq(ESC(iodfg_sanitize_json, "/a\"b\\c"), "/a\\\"b\\\\c");
    ck_assert_str_eq(ESC(iodfg_sanitize_json, "\t\n\r\x01\x7f"), "\\t\\n\\r\\u0001\\u007f");
    ck_assert_str_eq(ESC(iodfg_sanitize_json, "\xff"
                                              "a\xc3\xa9"),
                     "\\u00ffa\xc3\xa9");
    ck_assert_str_eq(ESC(iodfg_sanitize_json, "\xe2\x82"), "\\u00e2\\u0082");
    ck_assert_str_eq(ESC(iodfg_sanitize_json, "\x1b[0m"), "\\u001b[0m");
    ck_assert_str_eq(ESC(iodfg_sanitize_json, "\xc2\x9b"
                                              "2J"),
                     "\\u009b2J"); // 8-bit CSI
}
END_TEST

START_TEST(tsv)
{
    ck_assert_str_eq(ESC(iodfg_sanitize_tsv, "a\tb\nc\rd\\e"), "a\\tb\\nc\\rd\\\\e");
    ck_assert_str_eq(ESC(iodfg_sanitize_tsv, "\x1b\xfe"), "\\x1b\\xfe");
    ck_assert_ptr_null(strchr(ESC(iodfg_sanitize_tsv, "\t\n\t"), '\t'));
}
END_TEST

/* XML for SVG: markup as entities, controls dropped, invalid bytes visible, UTF-8 kept; every
 * result is well-formed XML (checked by xmllint when installed). */
START_TEST(xml)
{
    ck_assert_str_eq(ESC(iodfg_sanitize_xml, "a&b<c>\"d'e\\f"),
                     "a&amp;b&lt;c&gt;&quot;d&apos;e\\\\f");
    ck_assert_str_eq(ESC(iodfg_sanitize_xml, "x\x1b[31my\n\t\x7fz\0w"), "x[31myzw");
    ck_assert_str_eq(ESC(iodfg_sanitize_xml, "\xc3\xa9\xff\xc2\x85\xe2\x80\xae!"),
                     "\xc3\xa9\\xff!");
    ck_assert_str_eq(ESC(iodfg_sanitize_xml, "\xef\xbf\xbe"), "\\xef\\xbf\\xbe");
    ck_assert_str_eq(ESC(iodfg_sanitize_xml, "\xf0\x9f\x98\x80"), "\xf0\x9f\x98\x80");
    if (system("command -v xmllint >/dev/null 2>&1") != 0) {
        return;
    }
    char hostile[256];
    for (int i = 0; i < 255; i++) {
        hostile[i] = (char)(i + 1);
    }
    hostile[255] = '\0';
    iodfg_buf_clear(&B);
    iodfg_buf_addf(&B, "<a t=\"");
    iodfg_sanitize_xml(&B, hostile, 255);
    iodfg_buf_addf(&B, "\">");
    iodfg_sanitize_xml(&B, hostile, 255);
    iodfg_buf_addf(&B, "</a>\n");
    char *dir = testutil_tmpdir();
    char path[4200], cmd[8600];
    snprintf(path, sizeof(path), "%s/x.xml", dir);
    testutil_write_file(path, B.data, B.len);
    snprintf(cmd, sizeof(cmd), "xmllint --noout '%s'", path);
    ck_assert_int_eq(system(cmd), 0);
    testutil_rmtree(dir);
    free(dir);
}
END_TEST

START_TEST(term)
{
    ck_assert_str_eq(ESC(iodfg_sanitize_term, "\x1b[2J"), "\\e[2J");
    ck_assert_str_eq(ESC(iodfg_sanitize_term, "a\x07\x9b"), "a\\x07\\x9b");
    ck_assert_str_eq(ESC(iodfg_sanitize_term, "\xc2\x9b"
                                              "31m"),
                     "\\u009b31m"); // C1 CSI
    ck_assert_str_eq(ESC(iodfg_sanitize_term, "caf\xc3\xa9 \\"), "caf\xc3\xa9 \\\\");
    ck_assert_str_eq(ESC(iodfg_sanitize_term, "a\tb\nc\rd\x7f"), "a\\tb\\nc\\rd\\x7f");
    // bidirectional overrides would reorder the text around them
    ck_assert_str_eq(ESC(iodfg_sanitize_term, "x\xe2\x80\xaey"), "x\\u202ey");
    // OSC 52 (set the clipboard) in a path
    ck_assert_str_eq(ESC(iodfg_sanitize_term, "/tmp/\x1b]52;c;cHdu\x07"),
                     "/tmp/\\e]52;c;cHdu\\x07");
    // a terminal that is not UTF-8: valid UTF-8 from traces is escaped as well
    iodfg_glyph_init(0);
    ck_assert_str_eq(ESC(iodfg_sanitize_term, "caf\xc3\xa9"), "caf\\xc3\\xa9");
    ck_assert_str_eq(ESC(iodfg_sanitize_tsv, "caf\xc3\xa9"), "caf\xc3\xa9"); // data stays data
    iodfg_glyph_init(1);
    // every output byte is printable ASCII or part of valid UTF-8 >= U+00A0
    const char hostile[] = "\x00\x01\x1b]0;pwn\x07\xff\xc0\xaf\r\n";
    const char *out = esc(iodfg_sanitize_term, hostile, sizeof(hostile) - 1);
    for (const unsigned char *p = (const unsigned char *)out; *p; p++) {
        ck_assert(*p >= 0x20 && *p < 0x7f);
    }
}
END_TEST

static Suite *suite(void)
{
    Suite *s = suite_create("sanitize");
    TCase *tc = tcase_create("core");
    tcase_add_checked_fixture(tc, setup, teardown);
    tcase_add_test(tc, utf8_validation);
    tcase_add_test(tc, dot);
    tcase_add_test(tc, json);
    tcase_add_test(tc, tsv);
    tcase_add_test(tc, term);
    tcase_add_test(tc, xml);
    suite_add_tcase(s, tc);
    return s;
}

int main(void)
{
    return testutil_run(suite());
}
