/* SPDX-License-Identifier: MIT */
/* Unit tests for themes: colours, parsing, inheritance, shipped themes and bad files. */
#include "config.h"

#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "iodfg/error.h"
#include "testutil.h"
#include "tui/theme.h"

static char themes_dir[4096];

static const struct tui_theme_dirs *shipped_dirs(void)
{
    static struct tui_theme_dirs d;
    const char *src = getenv("IODFG_SRCDIR");
    snprintf(themes_dir, sizeof(themes_dir), "%s/themes", src ? src : ".");
    d.user_dir = NULL;
    d.data_dir = themes_dir;
    return &d;
}

START_TEST(test_color_parse)
{
    int c;
    ck_assert_int_eq(tui_color_parse("red", 3, &c), 0);
    ck_assert_int_eq(c, TUI_COLOR_RED);
    ck_assert_int_eq(tui_color_parse("white", 5, &c), 0);
    ck_assert_int_eq(c, 7);
    ck_assert_int_eq(tui_color_parse("default", 7, &c), 0);
    ck_assert_int_eq(c, TUI_COLOR_DEFAULT);
    ck_assert_int_eq(tui_color_parse("0", 1, &c), 0);
    ck_assert_int_eq(c, 0);
    ck_assert_int_eq(tui_color_parse("255", 3, &c), 0);
    ck_assert_int_eq(c, 255);
    ck_assert_int_eq(tui_color_parse("#ff8800", 7, &c), 0);
    ck_assert_int_eq(c, TUI_COLOR_RGB(0xff, 0x88, 0x00));
    ck_assert_int_eq(tui_color_parse("#FF8800", 7, &c), 0);
    ck_assert_int_eq(c, TUI_COLOR_RGB(0xff, 0x88, 0x00));
    ck_assert_int_eq(tui_color_parse("256", 3, &c), -1);
    ck_assert_int_eq(tui_color_parse("007", 3, &c), -1);
    ck_assert_int_eq(tui_color_parse("#ff880", 6, &c), -1);
    ck_assert_int_eq(tui_color_parse("#ff880g", 7, &c), -1);
    ck_assert_int_eq(tui_color_parse("purple", 6, &c), -1);
    ck_assert_int_eq(tui_color_parse("", 0, &c), -1);
    ck_assert_int_eq(tui_color_parse("redx", 3, &c), 0); // only len bytes are read
}
END_TEST

START_TEST(test_color_resolve)
{
    ck_assert_int_eq(tui_color_resolve(TUI_COLOR_DEFAULT, 256), -1);
    ck_assert_int_eq(tui_color_resolve(TUI_COLOR_RED, 0), -1); // monochrome
    ck_assert_int_eq(tui_color_resolve(TUI_COLOR_RED, 8), 1);
    ck_assert_int_eq(tui_color_resolve(9, 16), 9);
    ck_assert_int_eq(tui_color_resolve(9, 8), 1); // bright red -> red
    ck_assert_int_eq(tui_color_resolve(200, 256), 200);
    // index 200 = cube (5,0,4) = #ff00d7, nearest of the 8 basic colours is magenta
    ck_assert_int_eq(tui_color_resolve(200, 8), TUI_COLOR_MAGENTA);
    // orange: yellow (205,205,0) is nearer than red (205,0,0) on 8 colours
    ck_assert_int_eq(tui_color_resolve(TUI_COLOR_RGB(0xff, 0x88, 0x00), 8), TUI_COLOR_YELLOW);
    // #0072b2 -> cube levels (0, 95, 175) = 16 + 0*36 + 1*6 + 3 = 25
    ck_assert_int_eq(tui_color_resolve(TUI_COLOR_RGB(0x00, 0x72, 0xb2), 256), 25);
    ck_assert_int_eq(tui_color_resolve(TUI_COLOR_RGB(0x00, 0x72, 0xb2), 8), TUI_COLOR_CYAN);
    ck_assert_int_eq(tui_color_resolve(TUI_COLOR_RGB(255, 255, 255), 256), 231);
    // #808080 is grey ramp entry 232 + 12 = 244 (8 + 10*12 = 128)
    ck_assert_int_eq(tui_color_resolve(TUI_COLOR_RGB(128, 128, 128), 256), 244);
}
END_TEST

START_TEST(test_style_names)
{
    for (int i = 0; i < TUI_STYLE_COUNT; i++) {
        ck_assert_int_eq(tui_style_by_name(tui_style_name((enum tui_style_id)i)), i);
    }
    ck_assert_int_eq(tui_style_by_name("cursor"), TUI_STYLE_CURSOR);
    ck_assert_int_eq(tui_style_by_name("diff-green"), TUI_STYLE_DIFF_GREEN);
    ck_assert_int_eq(tui_style_by_name("nope"), -1);
}
END_TEST

START_TEST(test_parse_text)
{
    const char *text = "# comment\n"
                       "[theme]\n"
                       "name = mine\n"
                       "[palette]\n"
                       "hot = #ff0000\n"
                       "[styles]\n"
                       "cursor = fg=$hot bg=12 bold underline\n"
                       "  status=reverse  \n";
    struct tui_theme t;
    struct iodfg_error err;
    iodfg_error_clear(&err);
    ck_assert_int_eq(tui_theme_parse(&t, text, strlen(text), "mine.theme", NULL, &err), 0);
    ck_assert_str_eq(t.name, "mine");
    ck_assert_int_eq(t.style[TUI_STYLE_CURSOR].fg, TUI_COLOR_RGB(255, 0, 0));
    ck_assert_int_eq(t.style[TUI_STYLE_CURSOR].bg, 12);
    ck_assert_uint_eq(t.style[TUI_STYLE_CURSOR].attrs, TUI_A_BOLD | TUI_A_UNDERLINE);
    ck_assert_int_eq(t.set[TUI_STYLE_CURSOR], 1);
    ck_assert_int_eq(t.style[TUI_STYLE_STATUS].fg, TUI_COLOR_DEFAULT);
    ck_assert_uint_eq(t.style[TUI_STYLE_STATUS].attrs, TUI_A_REVERSE);
    // unset slots keep the compiled-in default
    struct tui_theme d;
    tui_theme_init_default(&d);
    ck_assert_int_eq(t.set[TUI_STYLE_TITLE], 0);
    ck_assert_mem_eq(&t.style[TUI_STYLE_TITLE], &d.style[TUI_STYLE_TITLE], sizeof(d.style[0]));
}
END_TEST

START_TEST(test_name_from_file)
{
    struct tui_theme t;
    const char *text = "[styles]\ncursor = reverse\n";
    ck_assert_int_eq(tui_theme_parse(&t, text, strlen(text), "/x/y/solar.theme", NULL, NULL), 0);
    ck_assert_str_eq(t.name, "solar");
}
END_TEST

static void load_file_theme(const char *name, struct tui_theme *t)
{
    char path[4200];
    const struct tui_theme_dirs *dirs = shipped_dirs();
    snprintf(path, sizeof(path), "%s/%s.theme", dirs->data_dir, name);
    struct iodfg_error err;
    iodfg_error_clear(&err);
    int rc = tui_theme_load(t, path, dirs, &err);
    char msg[1024];
    ck_assert_msg(rc == 0, "%s", iodfg_error_format(&err, msg, sizeof(msg)));
}

START_TEST(test_shipped_themes_parse)
{
    char **names;
    int n = tui_theme_list(shipped_dirs(), &names);
    ck_assert_int_eq(n, 5);
    const char *want[5] = {"colorblind", "dark", "default", "light", "monochrome"};
    for (int i = 0; i < n; i++) {
        ck_assert_str_eq(names[i], want[i]);
        struct tui_theme t;
        load_file_theme(names[i], &t);
        ck_assert_str_eq(t.name, names[i]);
        struct tui_theme byname;
        ck_assert_int_eq(tui_theme_load(&byname, names[i], shipped_dirs(), NULL), 0);
        ck_assert_mem_eq(byname.style, t.style, sizeof(t.style));
    }
    tui_theme_list_free(names, n);
}
END_TEST

/* The theme key's cycle: each theme after the one shown, in list order, wrapping. */
START_TEST(test_theme_load_next)
{
    struct tui_theme t;
    tui_theme_init_default(&t);
    const char *want[6] = {"light", "monochrome", "colorblind", "dark", "default", "light"};
    for (int i = 0; i < 6; i++) {
        ck_assert_int_eq(tui_theme_load_next(&t, shipped_dirs(), NULL), 0);
        ck_assert_str_eq(t.name, want[i]);
    }
    struct tui_theme_dirs none = {.user_dir = "/nonexistent", .data_dir = "/nonexistent"};
    ck_assert_int_eq(tui_theme_load_next(&t, &none, NULL), 0); // only "default" is left
    ck_assert_str_eq(t.name, "default");
}
END_TEST

START_TEST(test_default_theme_matches_builtin)
{
    struct tui_theme file, builtin;
    load_file_theme("default", &file);
    tui_theme_init_default(&builtin);
    for (int i = 0; i < TUI_STYLE_COUNT; i++) {
        const char *slot = tui_style_name((enum tui_style_id)i);
        ck_assert_msg(file.set[i], "default.theme does not set '%s'", slot);
        ck_assert_msg(file.style[i].fg == builtin.style[i].fg &&
                          file.style[i].bg == builtin.style[i].bg &&
                          file.style[i].attrs == builtin.style[i].attrs,
                      "default.theme differs from styles.def in '%s'", slot);
    }
}
END_TEST

START_TEST(test_monochrome_theme_matches_fallbacks)
{
    struct tui_theme file, mono;
    load_file_theme("monochrome", &file);
    tui_theme_init_mono(&mono);
    for (int i = 0; i < TUI_STYLE_COUNT; i++) {
        const char *slot = tui_style_name((enum tui_style_id)i);
        ck_assert_msg(file.set[i], "monochrome.theme does not set '%s'", slot);
        ck_assert_msg(file.style[i].fg == TUI_COLOR_DEFAULT &&
                          file.style[i].bg == TUI_COLOR_DEFAULT,
                      "monochrome.theme uses a colour in '%s'", slot);
        ck_assert_msg(file.style[i].attrs == mono.style[i].attrs,
                      "monochrome.theme differs from the fallback in '%s'", slot);
    }
}
END_TEST

START_TEST(test_inheritance)
{
    struct tui_theme cb, def;
    load_file_theme("colorblind", &cb);
    load_file_theme("default", &def);
    ck_assert_str_eq(cb.name, "colorblind");
    ck_assert_int_eq(cb.style[TUI_STYLE_DIFF_GREEN].fg, TUI_COLOR_RGB(0x00, 0x72, 0xb2));
    ck_assert_int_eq(cb.style[TUI_STYLE_DIFF_RED].fg, TUI_COLOR_RGB(0xe6, 0x9f, 0x00));
    ck_assert_int_eq(cb.set[TUI_STYLE_DIFF_GREEN], 1);
    // inherited from default.theme, not set by colorblind.theme itself
    ck_assert_int_eq(cb.set[TUI_STYLE_TITLE], 0);
    ck_assert_mem_eq(&cb.style[TUI_STYLE_TITLE], &def.style[TUI_STYLE_TITLE], sizeof(def.style[0]));
    // the parent's palette is usable by the child
    const char *text = "[theme]\ninherits = default\n[styles]\nmarker = fg=$accent\n";
    struct tui_theme t;
    ck_assert_int_eq(tui_theme_parse(&t, text, strlen(text), "child.theme", shipped_dirs(), NULL),
                     0);
    ck_assert_str_eq(t.name, "child");
    ck_assert_int_eq(t.style[TUI_STYLE_MARKER].fg, TUI_COLOR_CYAN);
}
END_TEST

START_TEST(test_search_order)
{
    char *dir = testutil_tmpdir();
    char path[4200];
    snprintf(path, sizeof(path), "%s/dark.theme", dir);
    const char *mine = "[theme]\nname = my-dark\n[styles]\ncursor = fg=1\n";
    testutil_write_file(path, mine, strlen(mine));
    struct tui_theme_dirs dirs = {.user_dir = dir, .data_dir = shipped_dirs()->data_dir};
    struct tui_theme t;
    ck_assert_int_eq(tui_theme_load(&t, "dark", &dirs, NULL), 0);
    ck_assert_str_eq(t.name, "my-dark"); // the user dir wins over the data dir
    ck_assert_int_eq(tui_theme_load(&t, "light", &dirs, NULL), 0);
    ck_assert_str_eq(t.name, "light");
    // "default" without any dir is the compiled-in theme
    struct tui_theme_dirs none = {.user_dir = NULL};
    struct tui_theme builtin;
    tui_theme_init_default(&builtin);
    ck_assert_int_eq(tui_theme_load(&t, "default", &none, NULL), 0);
    ck_assert_mem_eq(t.style, builtin.style, sizeof(t.style));
    struct iodfg_error err;
    iodfg_error_clear(&err);
    ck_assert_int_eq(tui_theme_load(&t, "nosuch", &dirs, &err), -1);
    ck_assert_int_eq(err.code, IODFG_E_IO);
    iodfg_error_clear(&err);
    ck_assert_int_eq(tui_theme_load(&t, "bad name", &dirs, &err), -1);
    ck_assert_int_eq(err.code, IODFG_E_ARG);
    char **names;
    int n = tui_theme_list(&dirs, &names);
    ck_assert_int_eq(n, 5); // dark is listed once
    tui_theme_list_free(names, n);
    testutil_rmtree(dir);
    free(dir);
}
END_TEST

START_TEST(test_bad_themes)
{
    FILE *f = fopen(testutil_data("themes/bad/expected.txt"), "r");
    ck_assert_ptr_nonnull(f);
    char line[1024];
    int checked = 0;
    while (fgets(line, sizeof(line), f)) {
        line[strcspn(line, "\n")] = '\0';
        if (!line[0] || line[0] == '#') {
            continue;
        }
        char file[256];
        snprintf(file, sizeof(file), "%.*s", (int)strcspn(line, ":"), line);
        char rel[300];
        snprintf(rel, sizeof(rel), "themes/bad/%s", file);
        const char *path = testutil_data(rel);
        struct tui_theme t;
        struct iodfg_error err;
        iodfg_error_clear(&err);
        ck_assert_int_eq(tui_theme_load(&t, path, shipped_dirs(), &err), -1);
        char msg[1024];
        iodfg_error_format(&err, msg, sizeof(msg));
        const char *tail = strrchr(err.where, '/');
        tail = tail ? msg + (tail - err.where) + 1 : msg;
        ck_assert_msg(strncmp(tail, line, strlen(line)) == 0, "%s: got '%s', want '%s'", file, tail,
                      line);
        checked++;
    }
    fclose(f);
    ck_assert_int_eq(checked, 13);
}
END_TEST

START_TEST(test_nul_and_unterminated)
{
    struct tui_theme t;
    struct iodfg_error err;
    iodfg_error_clear(&err);
    const char text[] = "[styles]\ncursor = re\0verse\n";
    ck_assert_int_eq(tui_theme_parse(&t, text, sizeof(text) - 1, "n.theme", NULL, &err), -1);
    ck_assert_uint_eq(err.line, 2);
    ck_assert_uint_eq(err.col, 12);
    iodfg_error_clear(&err);
    ck_assert_int_eq(tui_theme_parse(&t, "[styles", 7, "u.theme", NULL, &err), -1);
    ck_assert_str_eq(err.msg, "expected ']'");
    // a last line without a newline is still parsed
    ck_assert_int_eq(tui_theme_parse(&t, "[styles]\ncursor = bold", 22, "e.theme", NULL, NULL), 0);
    ck_assert_uint_eq(t.style[TUI_STYLE_CURSOR].attrs, TUI_A_BOLD);
}
END_TEST

static Suite *theme_suite(void)
{
    Suite *s = suite_create("theme");
    TCase *tc = tcase_create("colours");
    tcase_add_test(tc, test_color_parse);
    tcase_add_test(tc, test_color_resolve);
    tcase_add_test(tc, test_style_names);
    suite_add_tcase(s, tc);
    tc = tcase_create("parse");
    tcase_add_test(tc, test_parse_text);
    tcase_add_test(tc, test_name_from_file);
    tcase_add_test(tc, test_inheritance);
    tcase_add_test(tc, test_nul_and_unterminated);
    suite_add_tcase(s, tc);
    tc = tcase_create("files");
    tcase_add_test(tc, test_shipped_themes_parse);
    tcase_add_test(tc, test_theme_load_next);
    tcase_add_test(tc, test_default_theme_matches_builtin);
    tcase_add_test(tc, test_monochrome_theme_matches_fallbacks);
    tcase_add_test(tc, test_search_order);
    tcase_add_test(tc, test_bad_themes);
    suite_add_tcase(s, tc);
    return s;
}

int main(void)
{
    return testutil_run(theme_suite());
}
