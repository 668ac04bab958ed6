/* SPDX-License-Identifier: MIT */
/* The Call sites view (L) over a small strace -k log: its rows (the figures of the engine's
 * call-site table, ranked by time), Enter's filter on a site and Backspace, the selected
 * activity's sites only, and a log without stacks. */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <check.h>

#include "iodfg/buf.h"
#include "iodfg/callsites.h"
#include "iodfg/error.h"
#include "iodfg/eventlog.h"
#include "iodfg/filter.h"
#include "iodfg/focus.h"
#include "iodfg/session.h"
#include "iodfg/srcline.h"
#include "iodfg/strace.h"
#include "iodfg/strpool.h"

#include "testutil.h"
#include "tui/app.h"
#include "tui/app_priv.h"
#include "tui/listmodel.h"
#include "tui/views/sites_view.h"

#define LIBC " > /usr/lib/x86_64-linux-gnu/libc.so.6(__write+0x4f) [0xf838f]\n"
#define MAIN " > /home/u/prog(main+0x1) [0x1500]\n"

/* write:/d/f from write_header (3 x 10 us), write_payload (2 x 5 us) and libc alone (2 us);
 * read:/d/f from read_back (1 us). */
static const char TRACE[] =
    "write(3</d/f>, \"x\", 64) = 64 <0.000010>\n" LIBC " > /home/u/prog(write_header+0x40) "
    "[0x1239]\n" MAIN "write(3</d/f>, \"x\", 64) = 64 <0.000010>\n" LIBC
    " > /home/u/prog(write_header+0x40) [0x1239]\n" MAIN
    "write(3</d/f>, \"x\", 4096) = 4096 <0.000005>\n" LIBC " > /home/u/prog(write_payload+0x40) "
    "[0x1339]\n" MAIN "write(3</d/f>, \"x\", 64) = 64 <0.000010>\n" LIBC
    " > /home/u/prog(write_header+0x40) [0x1239]\n" MAIN
    "write(3</d/f>, \"x\", 4096) = 4096 <0.000005>\n" LIBC " > /home/u/prog(write_payload+0x40) "
    "[0x1339]\n" MAIN "write(3</d/f>, \"x\", 1) = 1 <0.000002>\n" LIBC
    "read(3</d/f>, \"x\", 64) = 64 <0.000001>\n" LIBC
    " > /home/u/prog(read_back+0x8) [0x1400]\n" MAIN;

static struct iodfg_eventlog *LOG;
static struct tui_app *APP;

/* The log of text (with its stacks when frames), keys split by site, and the app over it. */
static void open_app(const char *text, int frames)
{
    LOG = iodfg_eventlog_new(IODFG_COL_ALL);
    ck_assert_ptr_nonnull(LOG);
    struct iodfg_case_info info;
    memset(&info, 0, sizeof(info));
    struct iodfg_error err;
    iodfg_error_clear(&err);
    ck_assert_int_eq(iodfg_eventlog_begin_case(LOG, &info, &err), 0);
    struct iodfg_strace_result res;
    ck_assert_int_eq(iodfg_strace_parse_frames(text, strlen(text), iodfg_strace_sink_eventlog,
                                               frames ? iodfg_strace_frame_eventlog : NULL, LOG,
                                               &res, &err),
                     0);
    ck_assert_int_eq(iodfg_eventlog_end_case(LOG, &err), 0);
    struct iodfg_focus *f = iodfg_focus_new(NULL, 0, NULL, &err);
    ck_assert_ptr_nonnull(f);
    ck_assert_int_eq(iodfg_callsites_split_keys(f, LOG, &err), 0);
    iodfg_focus_free(f);
    APP = tui_app_new(LOG, 1, "sites.h5", NULL, NULL, &err); // the app frees the log
    ck_assert_msg(APP != NULL, "%s", err.msg);
}

static void setup(void)
{
    open_app(TRACE, 1);
}

static void teardown(void)
{
    tui_app_free(APP);
}

static struct tui_sites_view *sv(void)
{
    return tui_app_view_state(APP, TUI_VIEW_SITES);
}

static const char *cell(size_t i, int col)
{
    static char buf[4200];
    return tui_listmodel_cell(tui_app_table(APP), i, col, buf, sizeof(buf));
}

/* The text of the last filter of the stack. */
static const char *last_filter(void)
{
    static char text[256];
    const struct iodfg_filter_stack *fs = APP->filters;
    struct iodfg_buf b;
    iodfg_buf_init(&b);
    ck_assert_uint_gt(iodfg_filter_stack_count(fs), 0);
    iodfg_filter_format(iodfg_filter_stack_get(fs, iodfg_filter_stack_count(fs) - 1), &b);
    snprintf(text, sizeof(text), "%s", b.data ? b.data : "");
    iodfg_buf_fini(&b);
    return text;
}

START_TEST(test_rows)
{
    tui_app_command(APP, TUI_CMD_VIEW_SITES);
    struct tui_listmodel *lm = tui_app_table(APP);
    ck_assert_uint_eq(tui_listmodel_count(lm), 4);
    // ranked by time: write_header 30 us, write_payload 10 us, libc alone 2 us, read_back 1 us
    ck_assert_str_eq(cell(0, TUI_SC_SITE), "write_header");
    ck_assert_str_eq(cell(0, TUI_SC_ACTIVITY), "write:/d/f");
    ck_assert_str_eq(cell(0, TUI_SC_CALLS), "3");
    ck_assert_str_eq(cell(0, TUI_SC_BYTES), "192 B");
    ck_assert_str_eq(cell(0, TUI_SC_CASES), "1");
    ck_assert_str_eq(cell(0, TUI_SC_OBJECT), "/home/u/prog");
    ck_assert_str_eq(cell(0, TUI_SC_GROUP), ""); // no groups
    // the program is not on this machine: unknown, said as the report says it
    ck_assert_str_eq(cell(0, TUI_SC_LINE),
                     iodfg_srcline_available() ? "?" : "file:line unknown (no libdw)");
    ck_assert_str_eq(cell(1, TUI_SC_SITE), "write_payload");
    ck_assert_str_eq(cell(1, TUI_SC_CALLS), "2");
    ck_assert_str_eq(cell(2, TUI_SC_SITE), "(no frame of the program)");
    ck_assert_str_eq(cell(2, TUI_SC_LINE), "-");
    ck_assert_str_eq(cell(3, TUI_SC_SITE), "read_back");
    ck_assert_str_eq(cell(3, TUI_SC_ACTIVITY), "read:/d/f");
    ck_assert_uint_eq(sv()->cs[0].events, 7);
    ck_assert_uint_eq(sv()->cs[0].with_site, 6);
}
END_TEST

START_TEST(test_enter_filters_backspace_returns)
{
    tui_app_command(APP, TUI_CMD_VIEW_SITES);
    ck_assert_uint_eq(APP->counts->events_shown, 7);
    tui_listmodel_set_cursor(tui_app_table(APP), 1); // write_payload
    tui_app_command(APP, TUI_CMD_FILTER_SITE);
    ck_assert_int_eq(APP->message_error, 0);
    ck_assert_str_eq(last_filter(), "site~^write_payload$");
    ck_assert_uint_eq(APP->counts->events_shown, 2);
    ck_assert_int_eq(tui_app_current_view(APP), TUI_VIEW_SITES); // it stays
    ck_assert_uint_eq(tui_listmodel_count(tui_app_table(APP)), 1);
    ck_assert_str_eq(cell(0, TUI_SC_SITE), "write_payload");
    // Backspace removes the filter: every site again, the cursor still on write_payload
    tui_app_command(APP, TUI_CMD_POP_FILTER);
    ck_assert_uint_eq(iodfg_filter_stack_count(APP->filters), 0);
    ck_assert_uint_eq(APP->counts->events_shown, 7);
    ck_assert_uint_eq(tui_listmodel_count(tui_app_table(APP)), 4);
    ck_assert_str_eq(cell(tui_listmodel_cursor(tui_app_table(APP)), TUI_SC_SITE), "write_payload");
    // the events without a site of the program: the empty site
    tui_listmodel_set_cursor(tui_app_table(APP), 2);
    tui_app_command(APP, TUI_CMD_FILTER_SITE);
    ck_assert_str_eq(last_filter(), "site~^$");
    ck_assert_uint_eq(APP->counts->events_shown, 1);
    // it composes with other filters, and undo takes it back
    tui_app_command(APP, TUI_CMD_UNDO);
    ck_assert_uint_eq(APP->counts->events_shown, 7);
}
END_TEST

START_TEST(test_selected_activity_only)
{
    tui_app_command(APP, TUI_CMD_VIEW_ACTIVITIES);
    tui_app_command(APP, TUI_CMD_MOVE_FIRST); // the most time: write:/d/f
    tui_app_command(APP, TUI_CMD_VIEW_SITES);
    tui_app_command(APP, TUI_CMD_SITES_ONE);
    ck_assert_uint_eq(tui_listmodel_count(tui_app_table(APP)), 3);
    // it follows the Activities cursor
    tui_app_command(APP, TUI_CMD_VIEW_ACTIVITIES);
    tui_app_command(APP, TUI_CMD_MOVE_DOWN);
    tui_app_command(APP, TUI_CMD_VIEW_SITES);
    ck_assert_uint_eq(tui_listmodel_count(tui_app_table(APP)), 1);
    ck_assert_str_eq(cell(0, TUI_SC_SITE), "read_back");
    tui_app_command(APP, TUI_CMD_SITES_ONE);
    ck_assert_uint_eq(tui_listmodel_count(tui_app_table(APP)), 4);
}
END_TEST

START_TEST(test_no_stacks)
{
    tui_app_free(APP);
    open_app(TRACE, 0);
    tui_app_command(APP, TUI_CMD_VIEW_SITES);
    ck_assert_uint_eq(tui_listmodel_count(tui_app_table(APP)), 0);
    ck_assert_int_eq(sv()->stacks, 0);
    tui_app_command(APP, TUI_CMD_FILTER_SITE); // nothing to filter on
    ck_assert_uint_eq(iodfg_filter_stack_count(APP->filters), 0);
}
END_TEST

static Suite *suite(void)
{
    Suite *s = suite_create("tui_sites");
    TCase *tc = tcase_create("sites");
    tcase_add_checked_fixture(tc, setup, teardown);
    tcase_add_test(tc, test_rows);
    tcase_add_test(tc, test_enter_filters_backspace_returns);
    tcase_add_test(tc, test_selected_activity_only);
    tcase_add_test(tc, test_no_stacks);
    suite_add_tcase(s, tc);
    return s;
}

int main(void)
{
    return testutil_run(suite());
}
