/* SPDX-License-Identifier: MIT */
/* Unit tests for commands, key names, keymaps, config overrides and the help text. */
#include "config.h"

#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "iodfg/buf.h"
#include "iodfg/error.h"
#include "testutil.h"
#include "tui/command.h"
#include "tui/keymap.h"
#include "tui/keys.h"
#include "tui/utf8.h"

START_TEST(test_commands_table)
{
    ck_assert_str_eq(tui_cmd_info(TUI_CMD_SORT_NEXT)->name, "sort-next");
    ck_assert_int_eq(tui_cmd_by_name("sort-next"), TUI_CMD_SORT_NEXT);
    ck_assert_int_eq(tui_cmd_by_name("redo"), TUI_CMD_REDO);
    ck_assert_int_eq(tui_cmd_by_name("no-such-command"), -1);
    for (int i = 0; i < TUI_CMD_COUNT; i++) {
        const struct tui_cmd_info *ci = tui_cmd_info((enum tui_cmd)i);
        ck_assert_int_eq(tui_cmd_by_name(ci->name), i); // names are unique
        ck_assert_msg(strlen(ci->help) > 0 && strlen(ci->help) <= 37, "help of %s: %zu chars",
                      ci->name, strlen(ci->help));
    }
}
END_TEST

static void check_key(const char *name, int key, const char *canonical)
{
    int k = -2;
    ck_assert_msg(tui_key_parse(name, &k) == 0, "cannot parse '%s'", name);
    ck_assert_msg(k == key, "'%s' gave %#x, want %#x", name, (unsigned)k, (unsigned)key);
    char buf[32];
    ck_assert_str_eq(tui_key_format(key, buf, sizeof(buf)), canonical);
}

START_TEST(test_key_names)
{
    check_key("s", 's', "s");
    check_key("?", '?', "?");
    check_key("[", '[', "[");
    check_key("C-r", 0x12, "C-r");
    check_key("c-R", 0x12, "C-r");
    check_key("Enter", TUI_KEY_ENTER, "Enter");
    check_key("return", TUI_KEY_ENTER, "Enter");
    check_key("Esc", 27, "Esc");
    check_key("C-[", 27, "Esc");
    check_key("Backspace", TUI_KEY_BACKSPACE, "Backspace");
    check_key("Up", TUI_KEY_UP, "Up");
    check_key("PageDown", TUI_KEY_PGDN, "PgDn");
    check_key("F1", TUI_KEY_F1, "F1");
    check_key("F12", TUI_KEY_F1 + 11, "F12");
    check_key("Tab", 9, "Tab");
    check_key("C-i", 9, "Tab");
    check_key("Space", ' ', "Space");
    check_key("C-\\", 0x1c, "C-\\");
    check_key("\xc3\xa9", 0xe9, "\xc3\xa9"); // é
    int k;
    ck_assert_int_eq(tui_key_parse("", &k), -1);
    ck_assert_int_eq(tui_key_parse("F13", &k), -1);
    ck_assert_int_eq(tui_key_parse("F0", &k), -1);
    ck_assert_int_eq(tui_key_parse("C-1", &k), -1);
    ck_assert_int_eq(tui_key_parse("ab", &k), -1);
    ck_assert_int_eq(tui_key_parse("Resize", &k), -1);
    ck_assert_int_eq(tui_key_parse("\x01", &k), -1);
    ck_assert_int_eq(tui_key_parse("\xc3", &k), -1);
}
END_TEST

START_TEST(test_every_default_key_round_trips)
{
    size_t n;
    const struct tui_binding *d = tui_keymap_defaults(&n);
    for (size_t i = 0; i < n; i++) {
        char buf[32];
        int k;
        tui_key_format(d[i].key, buf, sizeof(buf));
        ck_assert_msg(tui_key_parse(buf, &k) == 0 && k == d[i].key, "key %s", buf);
    }
}
END_TEST

START_TEST(test_no_key_bound_twice)
{
    size_t n;
    const struct tui_binding *d = tui_keymap_defaults(&n);
    ck_assert_uint_gt(n, 40);
    for (size_t i = 0; i < n; i++) {
        for (size_t j = i + 1; j < n; j++) {
            char buf[32];
            ck_assert_msg(d[i].map != d[j].map || d[i].key != d[j].key,
                          "key %s bound twice in keymap %s", tui_key_format(d[i].key, buf, 32),
                          tui_keymap_name(d[i].map));
        }
    }
}
END_TEST

START_TEST(test_every_command_reachable)
{
    // Each command (but "none") has a default key somewhere, so `?` documents all of them.
    size_t n;
    const struct tui_binding *d = tui_keymap_defaults(&n);
    for (int c = 1; c < TUI_CMD_COUNT; c++) {
        int found = 0;
        for (size_t i = 0; i < n; i++) {
            found |= d[i].cmd == (enum tui_cmd)c;
        }
        ck_assert_msg(found, "command %s has no key", tui_cmd_info((enum tui_cmd)c)->name);
    }
}
END_TEST

START_TEST(test_lookup_falls_back_to_global)
{
    struct tui_keymaps *km = tui_keymap_new();
    ck_assert_ptr_nonnull(km);
    ck_assert_int_eq(tui_keymap_lookup(km, TUI_MAP_ACTIVITIES, 's'), TUI_CMD_SORT_NEXT);
    ck_assert_int_eq(tui_keymap_lookup(km, TUI_MAP_RULES, 'd'), TUI_CMD_RULE_DELETE);
    ck_assert_int_eq(tui_keymap_lookup(km, TUI_MAP_DIFF, 'd'), TUI_CMD_DIFF_ONLY);
    ck_assert_int_eq(tui_keymap_lookup(km, TUI_MAP_ACTIVITIES, 'd'), TUI_CMD_NONE);
    ck_assert_int_eq(tui_keymap_lookup(km, TUI_MAP_CASES, 'g'), TUI_CMD_GROUP_G);
    ck_assert_int_eq(tui_keymap_lookup(km, TUI_MAP_TIMELINE, TUI_KEY_LEFT), TUI_CMD_PAN_LEFT);
    ck_assert_int_eq(tui_keymap_lookup(km, TUI_MAP_GRAPH, TUI_KEY_LEFT), TUI_CMD_FOCUS_LEFT);
    ck_assert_int_eq(tui_keymap_lookup(km, TUI_MAP_HELP, 'q'), TUI_CMD_CLOSE);
    ck_assert_int_eq(tui_keymap_lookup(km, TUI_MAP_ACTIVITIES, 'q'), TUI_CMD_QUIT);
    ck_assert_int_eq(tui_keymap_lookup(km, TUI_MAP_GLOBAL, TUI_KEY_CTRL('r')), TUI_CMD_REDO);
    ck_assert_int_eq(tui_keymap_lookup(km, TUI_MAP_RULES, '7'), TUI_CMD_VIEW_RULES);
    int keys[4];
    ck_assert_uint_eq(tui_keymap_keys_for(km, TUI_MAP_GLOBAL, TUI_CMD_MOVE_UP, keys, 4), 2);
    ck_assert_int_eq(keys[0], 'k');
    ck_assert_int_eq(keys[1], TUI_KEY_UP);
    tui_keymap_free(km);
}
END_TEST

START_TEST(test_bind_unbind_and_mask)
{
    struct tui_keymaps *km = tui_keymap_new();
    ck_assert_int_eq(tui_keymap_bind(km, TUI_MAP_ACTIVITIES, 'q', TUI_CMD_NONE, NULL), 0);
    ck_assert_int_eq(tui_keymap_lookup(km, TUI_MAP_ACTIVITIES, 'q'), TUI_CMD_NONE);
    ck_assert_int_eq(tui_keymap_lookup(km, TUI_MAP_CASES, 'q'), TUI_CMD_QUIT);
    ck_assert_int_eq(tui_keymap_unbind(km, TUI_MAP_ACTIVITIES, 'q'), 1);
    ck_assert_int_eq(tui_keymap_unbind(km, TUI_MAP_ACTIVITIES, 'q'), 0);
    ck_assert_int_eq(tui_keymap_lookup(km, TUI_MAP_ACTIVITIES, 'q'), TUI_CMD_QUIT);
    ck_assert_int_eq(tui_keymap_bind(km, TUI_MAP_GLOBAL, 's', TUI_CMD_SEARCH, NULL), 0);
    ck_assert_int_eq(tui_keymap_get(km, TUI_MAP_GLOBAL, 's'), TUI_CMD_SEARCH);
    ck_assert_int_eq(tui_keymap_get(km, TUI_MAP_RULES, 's'), -1);
    tui_keymap_free(km);
}
END_TEST

static void config_error_is(struct tui_keymaps *km, const char *line, const char *want)
{
    struct iodfg_error err;
    iodfg_error_clear(&err);
    ck_assert_int_eq(tui_keymap_config_line(km, line, "config", 7, &err), -1);
    char msg[512];
    ck_assert_str_eq(iodfg_error_format(&err, msg, sizeof(msg)), want);
}

START_TEST(test_config_lines)
{
    struct tui_keymaps *km = tui_keymap_new();
    ck_assert_int_eq(tui_keymap_config_line(km, "bind activities x sort-reverse\n", "c", 1, NULL),
                     0);
    ck_assert_int_eq(tui_keymap_lookup(km, TUI_MAP_ACTIVITIES, 'x'), TUI_CMD_SORT_REVERSE);
    ck_assert_int_eq(tui_keymap_lookup(km, TUI_MAP_CASES, 'x'), TUI_CMD_EXPORT_DOT);
    ck_assert_int_eq(tui_keymap_config_line(km, "  bind\tglobal C-s save-session", "c", 2, NULL),
                     0);
    ck_assert_int_eq(tui_keymap_lookup(km, TUI_MAP_RULES, TUI_KEY_CTRL('s')), TUI_CMD_SAVE_SESSION);
    ck_assert_int_eq(tui_keymap_config_line(km, "bind global # help", "c", 3, NULL), 0);
    ck_assert_int_eq(tui_keymap_lookup(km, TUI_MAP_GLOBAL, '#'), TUI_CMD_HELP);
    ck_assert_int_eq(tui_keymap_config_line(km, "unbind global t", "c", 4, NULL), 0);
    ck_assert_int_eq(tui_keymap_lookup(km, TUI_MAP_GLOBAL, 't'), TUI_CMD_NONE);
    ck_assert_int_eq(tui_keymap_config_line(km, "   # a comment", "c", 5, NULL), 0);
    ck_assert_int_eq(tui_keymap_config_line(km, "", "c", 6, NULL), 0);

    config_error_is(km, "bnd global q quit",
                    "config:7:1: unknown directive 'bnd' (expected bind or unbind)");
    config_error_is(km, "bind globl q quit", "config:7:6: unknown keymap 'globl'");
    config_error_is(km, "bind global Ctrl-q quit", "config:7:13: unknown key name 'Ctrl-q'");
    config_error_is(km, "bind  global q  quitt", "config:7:17: unknown command 'quitt'");
    config_error_is(km, "bind global q", "config:7:14: expected a command");
    config_error_is(km, "bind global", "config:7:12: expected a key name");
    config_error_is(km, "unbind", "config:7:7: expected a keymap name");
    config_error_is(km, "bind global q quit now", "config:7:20: unexpected 'now' at end of line");
    tui_keymap_free(km);
}
END_TEST

START_TEST(test_config_file)
{
    struct tui_keymaps *km = tui_keymap_new();
    char *dir = testutil_tmpdir();
    char path[4200];
    snprintf(path, sizeof(path), "%s/config", dir);
    const char *text = "# my keys\nbind rules x rule-delete\n\nbind graph Enter nonsense\n";
    testutil_write_file(path, text, strlen(text));
    struct iodfg_error err;
    iodfg_error_clear(&err);
    ck_assert_int_eq(tui_keymap_load_config(km, path, &err), -1);
    ck_assert_uint_eq(err.line, 4);
    ck_assert_uint_eq(err.col, 18);
    ck_assert_str_eq(err.where, path);
    ck_assert_str_eq(err.msg, "unknown command 'nonsense'");
    ck_assert_int_eq(tui_keymap_lookup(km, TUI_MAP_RULES, 'x'), TUI_CMD_RULE_DELETE);
    snprintf(path, sizeof(path), "%s/absent", dir);
    ck_assert_int_eq(tui_keymap_load_config(km, path, NULL), 0);
    testutil_rmtree(dir);
    free(dir);
    tui_keymap_free(km);
}
END_TEST

START_TEST(test_config_path)
{
    char buf[256];
    setenv("XDG_CONFIG_HOME", "/cfg", 1);
    ck_assert_str_eq(tui_keymap_config_path(buf, sizeof(buf)), "/cfg/iodfg/config");
    unsetenv("XDG_CONFIG_HOME");
    setenv("HOME", "/home/u", 1);
    ck_assert_str_eq(tui_keymap_config_path(buf, sizeof(buf)), "/home/u/.config/iodfg/config");
    ck_assert_ptr_null(tui_keymap_config_path(buf, 8));
}
END_TEST

START_TEST(test_help_text)
{
    struct tui_keymaps *km = tui_keymap_new();
    struct iodfg_buf b;
    iodfg_buf_init(&b);
    ck_assert_int_eq(tui_keymap_help(km, TUI_HELP_TEXT, &b), 0);
    ck_assert_ptr_nonnull(strstr(b.data, "Everywhere (keymap global)\n"));
    ck_assert_ptr_nonnull(strstr(b.data, "\n7 Rules (keymap rules)\n"));
    ck_assert_ptr_nonnull(
        strstr(b.data, "  s              sort-next                Sort by the next column\n"));
    ck_assert_ptr_nonnull(
        strstr(b.data, "  k Up           move-up                  Move the cursor up\n"));
    ck_assert_ptr_nonnull(strstr(b.data, "  e Enter        rule-edit "));
    // every line fits an 80-column terminal
    for (char *line = b.data; *line;) {
        char *nl = strchr(line, '\n');
        ck_assert_ptr_nonnull(nl);
        ck_assert_msg(tui_utf8_width(line, (size_t)(nl - line)) < 80, "too long: %.*s",
                      (int)(nl - line), line);
        line = nl + 1;
    }
    // a user binding shows up in the help
    tui_keymap_bind(km, TUI_MAP_DIFF, 'D', TUI_CMD_DIFF_ONLY, NULL);
    iodfg_buf_clear(&b);
    tui_keymap_help(km, TUI_HELP_TEXT, &b);
    ck_assert_ptr_nonnull(strstr(b.data, "  d D            diff-only"));
    iodfg_buf_clear(&b);
    ck_assert_int_eq(tui_keymap_help(km, TUI_HELP_MAN, &b), 0);
    ck_assert_ptr_nonnull(strstr(b.data, ".SS Everywhere (keymap global)\n"));
    ck_assert_ptr_nonnull(strstr(b.data, ".TP\n.B \"C\\-r\"\nRedo the undone change (redo)\n"));
    ck_assert_ptr_nonnull(
        strstr(b.data, ".TP\n.B \"\\-\"\nZoom out (wider time bins) (zoom\\-out)\n"));
    iodfg_buf_fini(&b);
    tui_keymap_free(km);
}
END_TEST

static Suite *keymap_suite(void)
{
    Suite *s = suite_create("keymap");
    TCase *tc = tcase_create("tables");
    tcase_add_test(tc, test_commands_table);
    tcase_add_test(tc, test_key_names);
    tcase_add_test(tc, test_every_default_key_round_trips);
    tcase_add_test(tc, test_no_key_bound_twice);
    tcase_add_test(tc, test_every_command_reachable);
    suite_add_tcase(s, tc);
    tc = tcase_create("keymaps");
    tcase_add_test(tc, test_lookup_falls_back_to_global);
    tcase_add_test(tc, test_bind_unbind_and_mask);
    tcase_add_test(tc, test_config_lines);
    tcase_add_test(tc, test_config_file);
    tcase_add_test(tc, test_config_path);
    tcase_add_test(tc, test_help_text);
    suite_add_tcase(s, tc);
    return s;
}

int main(void)
{
    return testutil_run(keymap_suite());
}
