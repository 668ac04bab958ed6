/* SPDX-License-Identifier: MIT */
/* Tests of the TUI app model: tables, sorting and search, filters and undo/redo, drill-down,
 * live rule edits with an invalid regex, groups and the diff marks, timeline, session files. */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <check.h>

#include "iodfg/analysis.h"
#include "iodfg/buf.h"
#include "iodfg/dfg.h"
#include "iodfg/error.h"
#include "iodfg/eventlog.h"
#include "iodfg/filter.h"
#include "iodfg/glyph.h"
#include "iodfg/handles.h"
#include "iodfg/mapping.h"
#include "iodfg/strace.h"
#include "iodfg/strpool.h"
#include "iodfg/trace.h"

#include "testutil.h"
#include "tui/app.h"
#include "tui/app_priv.h"
#include "tui/clipboard.h"
#include "tui/listmodel.h"
#include "tui/views/activities_view.h"
#include "tui/views/cases_view.h"
#include "tui/views/handles_view.h"
#include "tui/views/rules_view.h"
#include "tui/views/timeline/timeline_grid.h"
#include "tui/views/timeline/timeline_job.h"

static struct iodfg_eventlog *LOG;
static struct tui_app *APP;

/* The Activities and Cases views' state. */
static struct tui_activities_view *acts(void)
{
    return tui_app_view_state(APP, TUI_VIEW_ACTIVITIES);
}

static struct tui_cases_view *cases(void)
{
    return tui_app_view_state(APP, TUI_VIEW_CASES);
}

/* The Timeline view's state. */
static struct tui_timeline *timeline(void)
{
    return tui_app_timeline_state(APP);
}

static uint32_t S(const char *s)
{
    uint32_t id;
    ck_assert_int_eq(iodfg_strpool_intern(iodfg_eventlog_pool(LOG), s, strlen(s), &id), 0);
    return id;
}

static void add_case(const char *cid, const char *host, const char *rid, const char *text)
{
    struct iodfg_case_info info;
    memset(&info, 0, sizeof(info));
    char name[64];
    snprintf(name, sizeof(name), "%s_%s_%s", cid, host, rid);
    info.cid = S(cid);
    info.host = S(host);
    info.rid = S(rid);
    info.name = S(name);
    ck_assert_int_eq(iodfg_eventlog_begin_case(LOG, &info, NULL), 0);
    struct iodfg_strace_result res;
    ck_assert_int_eq(
        iodfg_strace_parse(text, strlen(text), iodfg_strace_sink_eventlog, LOG, &res, NULL), 0);
    ck_assert_int_eq(iodfg_eventlog_end_case(LOG, NULL), 0);
}

/* 7 events: read:/usr/lib 4 (cases a1, a2), write:/dev/pts 1, read:/etc/passwd 1, getpid 1. */
static void setup(void)
{
    LOG = iodfg_eventlog_new(IODFG_COL_ALL);
    ck_assert_ptr_nonnull(LOG);
    add_case("a", "host1", "1",
             "9054 1700000000.100000 read(3</usr/lib/libc.so.6>, \"x\", 832) = 832 <0.000079>\n"
             "9054 1700000000.200000 write(1</dev/pts/7>, \"a\", 50) = 50 <0.000111>\n"
             "9054 1700000000.300000 read(3</usr/lib/x/y.so>, \"x\", 832) = 832 <0.000020>\n");
    add_case("a", "host1", "2",
             "9055 1700000000.000000 read(3</usr/lib/libc.so.6>, \"x\", 832) = 832 <0.000079>\n"
             "9055 1700000000.500000 read(3</usr/lib/libc.so.6>, \"x\", 832) = 832 <0.000010>\n");
    add_case("b", "host2", "3",
             "9056 1700000001.000000 read(3</etc/passwd>, \"x\", 4096) = 100 <0.000020>\n"
             "9056 1700000004.000000 getpid() = 9057 <0.000001>\n");
    struct iodfg_error err;
    iodfg_error_clear(&err);
    APP = tui_app_new(LOG, 1, "test.h5", NULL, NULL, &err);
    ck_assert_msg(APP != NULL, "%s", err.msg);
}

static void teardown(void)
{
    tui_app_free(APP);
}

static const char *first_name(void)
{
    struct tui_listmodel *lm = acts()->table.lm;
    return tui_app_activity_name(APP, acts()->rows[tui_listmodel_row(lm, 0)]);
}

START_TEST(test_tables)
{
    ck_assert_uint_eq(APP->counts->activities_shown, 4);
    ck_assert_uint_eq(APP->counts->events_shown, 7);
    ck_assert_uint_eq(APP->counts->events, 7);
    ck_assert_uint_eq(APP->counts->unmapped, 0);
    struct tui_listmodel *lm = acts()->table.lm;
    ck_assert_uint_eq(tui_listmodel_count(lm), 4);
    ck_assert_int_eq(tui_listmodel_sort(lm, TUI_AC_COUNT, 0), 0);
    ck_assert_str_eq(first_name(), "read:/usr/lib");
    ck_assert_int_eq(tui_listmodel_sort(lm, TUI_AC_NAME, 0), 0);
    ck_assert_str_eq(first_name(), "getpid");
    // transitions: a1 ●→r→w→r→■, a2 ●→r→r→■, b ●→p→g→■: 8 distinct edges
    ck_assert_uint_eq(tui_listmodel_count(tui_app_view_table(APP, TUI_VIEW_TRANSITIONS)), 8);
    ck_assert_uint_eq(tui_listmodel_count(cases()->table.lm), 3);
    // search moves the cursor to the match
    tui_app_command(APP, TUI_CMD_VIEW_ACTIVITIES);
    ck_assert_uint_eq(tui_app_command(APP, TUI_CMD_SEARCH) & TUI_PROMPT, TUI_PROMPT);
    tui_app_prompt_change(APP, "pts");
    ck_assert_str_eq(tui_app_activity_name(APP, tui_app_selected_activity(APP)), "write:/dev/pts");
    tui_app_prompt_done(APP, "pts");
    ck_assert_int_eq(APP->prompt, TUI_PROMPT_NONE);
}
END_TEST

START_TEST(test_filter_undo_redo)
{
    tui_app_command(APP, TUI_CMD_ADD_FILTER);
    ck_assert_int_eq(APP->prompt, TUI_PROMPT_FILTER);
    tui_app_prompt_done(APP, "path~^/usr");
    ck_assert_uint_eq(APP->counts->activities_shown, 1);
    ck_assert_uint_eq(APP->counts->events_shown, 4);
    tui_app_command(APP, TUI_CMD_ADD_FILTER);
    tui_app_prompt_done(APP, "cid=b");
    ck_assert_uint_eq(APP->counts->activities_shown, 0);
    tui_app_command(APP, TUI_CMD_UNDO);
    ck_assert_uint_eq(APP->counts->activities_shown, 1);
    tui_app_command(APP, TUI_CMD_UNDO);
    ck_assert_uint_eq(APP->counts->activities_shown, 4);
    tui_app_command(APP, TUI_CMD_UNDO);
    ck_assert_str_eq(APP->message, "nothing to undo");
    tui_app_command(APP, TUI_CMD_REDO);
    ck_assert_uint_eq(APP->counts->events_shown, 4);
    tui_app_command(APP, TUI_CMD_POP_FILTER);
    ck_assert_uint_eq(APP->counts->events_shown, 7);
    // a bad filter is reported and changes nothing
    tui_app_command(APP, TUI_CMD_ADD_FILTER);
    tui_app_prompt_done(APP, "colour=blue");
    ck_assert_int_eq(APP->message_error, 1);
    ck_assert_uint_eq(APP->counts->events_shown, 7);
}
END_TEST

START_TEST(test_drilldown)
{
    struct tui_listmodel *lm = acts()->table.lm;
    tui_listmodel_sort(lm, TUI_AC_COUNT, 0);
    tui_listmodel_first(lm);
    tui_app_command(APP, TUI_CMD_DRILL_DOWN);
    ck_assert_str_eq(iodfg_rules_line(APP->rules, 1),
                     "map call = read path ~ ^/usr/lib(/|$) => {call}:{path:3}");
    // read:/usr/lib/libc.so.6 (3 events) and read:/usr/lib/x (1)
    ck_assert_uint_eq(APP->counts->activities_shown, 2);
    ck_assert_uint_eq(APP->counts->events_shown, 4);
    ck_assert_str_eq(first_name(), "read:/usr/lib/libc.so.6");
    // Enter again on a file of that directory would add the same rule: refused, said so
    unsigned long lines = iodfg_rules_line_count(APP->rules);
    tui_listmodel_first(lm);
    tui_app_command(APP, TUI_CMD_DRILL_DOWN);
    ck_assert_uint_eq(iodfg_rules_line_count(APP->rules), lines);
    ck_assert_str_ne(iodfg_rules_line(APP->rules, 2),
                     "map call = read path ~ ^/usr/lib(/|$) => {call}:{path:3}");
    ck_assert_ptr_nonnull(strstr(APP->message, "drilled into already (rule 1)"));
    ck_assert_uint_eq(APP->counts->activities_shown, 2);
    tui_app_command(APP, TUI_CMD_UNDO);
    ck_assert_uint_eq(APP->counts->activities_shown, 4);
    ck_assert_str_ne(iodfg_rules_line(APP->rules, 1),
                     "map call = read path ~ ^/usr/lib(/|$) => {call}:{path:3}");
}
END_TEST

START_TEST(test_rule_edit_live)
{
    unsigned long n = iodfg_rules_line_count(APP->rules);
    unsigned long line = 0;
    for (unsigned long l = 1; l <= n; l++) {
        if (strncmp(iodfg_rules_line(APP->rules, l), "map kind = file", 15) == 0) {
            line = l;
        }
    }
    ck_assert_uint_gt(line, 0);
    tui_app_command(APP, TUI_CMD_VIEW_RULES);
    struct tui_rules_view *rv = tui_app_view_state(APP, TUI_VIEW_RULES);
    rv->cursor = line;
    ck_assert_uint_eq(tui_app_command(APP, TUI_CMD_RULE_EDIT) & TUI_PROMPT, TUI_PROMPT);
    ck_assert_int_eq(APP->prompt, TUI_PROMPT_RULE);
    tui_app_prompt_change(APP, "map path ~ ^/(usr|etc => files");
    ck_assert_str_ne(rv->error, "");
    ck_assert_uint_gt(rv->error_col, 11);                // inside the regex
    ck_assert_uint_eq(APP->counts->activities_shown, 4); // the last valid rules stay
    tui_app_prompt_change(APP, "map path ~ ^/(usr|etc)/ => files");
    ck_assert_str_eq(rv->error, "");
    // the first tier at once: its exact counts on the status line, the rest marked pending,
    // the last full results kept until the idle loop's poll brings the new ones
    const struct iodfg_session_first *first = iodfg_session_first(APP->ses);
    ck_assert_ptr_nonnull(first);
    ck_assert_uint_eq(first->counts.activities_shown, 3);
    ck_assert_uint_eq(APP->counts->activities_shown, 4);
    char status[512];
    tui_app_status(APP, status, sizeof(status));
    ck_assert_ptr_nonnull(strstr(status, "3 activities"));
    ck_assert_ptr_nonnull(strstr(status, "stats computing"));
    ck_assert_int_eq(tui_app_busy(APP), 1);
    // the idle loop's poll starts the second tier on a thread; a later poll publishes it
    tui_app_poll(APP);
    ck_assert_ptr_nonnull(iodfg_session_first(APP->ses));
    ck_assert_uint_eq(APP->counts->activities_shown, 4);
    tui_app_second_wait(APP);
    ck_assert_ptr_null(iodfg_session_first(APP->ses));
    tui_app_status(APP, status, sizeof(status));
    ck_assert_ptr_null(strstr(status, "computing"));
    // files (5 events), getpid, and write:file from the catch-all `map => {call}:{kind}`
    ck_assert_uint_eq(APP->counts->activities_shown, 3);
    ck_assert_int_eq(iodfg_mapping_find(APP->map, "write:file", &(uint32_t){0}), 0);
    ck_assert_uint_eq(APP->counts->unmapped, 0);
    tui_app_prompt_done(APP, "map path ~ ^/(usr|etc)/ => files");
    tui_app_command(APP, TUI_CMD_UNDO);
    ck_assert_uint_eq(APP->counts->activities_shown, 4);
    // undoing a rule edit leaves the filters alone: an incremental rebuild, like the edit
    ck_assert_int_eq(iodfg_analysis_last(APP->an)->full, 0);
    ck_assert_uint_gt(iodfg_analysis_last(APP->an)->keys_changed, 0);
    // Esc on a new rule removes it
    tui_app_command(APP, TUI_CMD_RULE_ADD);
    ck_assert_uint_eq(iodfg_rules_line_count(APP->rules), n + 1);
    tui_app_prompt_done(APP, NULL);
    ck_assert_uint_eq(iodfg_rules_line_count(APP->rules), n);
    // quitting with unsaved rules asks
    tui_app_command(APP, TUI_CMD_RULE_DELETE);
    ck_assert_uint_eq(tui_app_command(APP, TUI_CMD_QUIT) & TUI_QUIT, 0);
    ck_assert_int_eq(APP->prompt, TUI_PROMPT_QUIT);
    ck_assert_uint_eq(tui_app_prompt_done(APP, "y") & TUI_QUIT, TUI_QUIT);
}
END_TEST

START_TEST(test_groups_diff)
{
    struct iodfg_error err;
    iodfg_error_clear(&err);
    ck_assert_int_eq(iodfg_session_group_match(APP->ses, "cid=a", IODFG_GROUP_G, &err), 2);
    ck_assert_int_eq(iodfg_session_group_match(APP->ses, "^b_", IODFG_GROUP_R, &err), 1);
    ck_assert_int_eq(tui_app_rebuild(APP, &err), 0);
    ck_assert_int_eq((APP->diff != NULL), 1);
    uint32_t a;
    ck_assert_int_eq(iodfg_mapping_find(APP->map, "read:/usr/lib", &a), 0);
    ck_assert_str_eq(tui_app_activity_mark(APP, a), "G+");
    ck_assert_int_eq(iodfg_mapping_find(APP->map, "getpid", &a), 0);
    ck_assert_str_eq(tui_app_activity_mark(APP, a), "R+");
    // 4 activities + 8 edges, none in both
    ck_assert_uint_eq(tui_listmodel_count(tui_app_view_table(APP, TUI_VIEW_DIFF)), 12);
    tui_app_command(APP, TUI_CMD_DIFF_ONLY);
    ck_assert_uint_eq(tui_listmodel_count(tui_app_view_table(APP, TUI_VIEW_DIFF)), 12);
    tui_app_command(APP, TUI_CMD_GROUP_CLEAR);
    ck_assert_int_eq((APP->diff != NULL), 0);
    // variants: a1, a2 and b follow three different sequences
    tui_app_command(APP, TUI_CMD_VIEW_CASES);
    tui_app_command(APP, TUI_CMD_VARIANTS);
    ck_assert_uint_eq(cases()->nvariants, 3);
}
END_TEST

/* The command line: names (whole, a unique start, aliases) with their argument as the answer to
 * what the command asks; Tab completion; the hint while typing; commands of another view. */
START_TEST(test_command_line)
{
    char line[256];
    ck_assert_int_eq(tui_app_command_complete("exp", 0, line, sizeof(line)), 1);
    ck_assert_str_eq(line, "export-");
    ck_assert_int_eq(tui_app_command_complete("exp", 1, line, sizeof(line)), 1);
    ck_assert_str_eq(line, "export-dot");
    ck_assert_int_eq(tui_app_command_complete("exp", 2, line, sizeof(line)), 1);
    ck_assert_str_eq(line, "export-tsv");
    ck_assert_int_eq(tui_app_command_complete("pres", 0, line, sizeof(line)), 1);
    ck_assert_str_eq(line, "preset "); // it takes an argument
    ck_assert_int_eq(tui_app_command_complete("preset h", 0, line, sizeof(line)), 1);
    ck_assert_str_eq(line, "preset hpc");
    ck_assert_int_eq(tui_app_command_complete("zzz", 0, line, sizeof(line)), 0);
    tui_app_command_hint("export-d", line, sizeof(line));
    ck_assert_str_eq(line, "export-dot: Export what is shown as DOT · takes FILE");
    tui_app_command_hint("export", line, sizeof(line));
    ck_assert_str_eq(line, "Tab: export-dot export-tsv export-svg ");
    tui_app_command_hint("zzz", line, sizeof(line));
    ck_assert_str_eq(line, "no command starts with zzz");
    // the argument answers the prompt: a filter, a preset
    tui_app_command_line(APP, "filter path~^/usr");
    ck_assert_uint_eq(iodfg_filter_stack_count(APP->filters), 1);
    ck_assert_uint_eq(APP->counts->activities_shown, 1);
    ck_assert_int_eq(APP->prompt, TUI_PROMPT_NONE);
    tui_app_command_line(APP, "  pop-filter ");
    ck_assert_uint_eq(iodfg_filter_stack_count(APP->filters), 0);
    tui_app_command_line(APP, "preset hpc");
    ck_assert_str_eq(tui_app_message(APP), "rules: preset hpc loaded (u undoes)");
    // a search by name: the row it finds is selected
    tui_app_command_line(APP, "search ^write:");
    ck_assert_str_eq(tui_app_activity_name(APP, tui_app_selected_activity(APP)), "write:/dev/pts");
    ck_assert_int_eq(APP->prompt, TUI_PROMPT_NONE);
    // mistakes are said
    tui_app_command_line(APP, "zoom-in");
    ck_assert_str_eq(tui_app_message(APP), "zoom-in works in 4 Timeline");
    tui_app_command_line(APP, "nosuch");
    ck_assert_str_eq(tui_app_message(APP),
                     "nosuch: no such command (Tab completes a command's name)");
    tui_app_command_line(APP, "redraw now");
    ck_assert_str_eq(tui_app_message(APP), "redraw takes no argument");
    // without an argument, the command's prompt opens as from its key
    ck_assert_uint_eq(tui_app_command_line(APP, "add-filter") & TUI_PROMPT, TUI_PROMPT);
    ck_assert_int_eq(APP->prompt, TUI_PROMPT_FILTER);
}
END_TEST

/* y: the selected row's name, sanitised, for OSC 52 (the sequence tmux-wrapped in tmux). */
START_TEST(test_copy_name)
{
    struct tui_listmodel *lm = acts()->table.lm;
    tui_listmodel_sort(lm, TUI_AC_NAME, 0);
    tui_listmodel_first(lm); // getpid
    ck_assert_uint_eq(tui_app_command(APP, TUI_CMD_COPY_NAME) & TUI_COPY, TUI_COPY);
    ck_assert_str_eq(tui_app_clipboard(APP), "getpid");
    tui_app_command(APP, TUI_CMD_VIEW_TRANSITIONS);
    tui_listmodel_sort(tui_app_table(APP), 1, 0);
    tui_app_command(APP, TUI_CMD_MOVE_LAST);
    ck_assert_uint_eq(tui_app_command(APP, TUI_CMD_COPY_NAME) & TUI_COPY, TUI_COPY);
    ck_assert_ptr_nonnull(strstr(tui_app_clipboard(APP), iodfg_glyph_text(" → ")));
    tui_app_command(APP, TUI_CMD_VIEW_RULES); // no names there
    ck_assert_uint_eq(tui_app_command(APP, TUI_CMD_COPY_NAME) & TUI_COPY, 0);
    struct iodfg_buf b;
    iodfg_buf_init(&b);
    ck_assert_int_eq(tui_osc52(&b, "hi", 2, 0), 0);
    ck_assert_str_eq(b.data, "\033]52;c;aGk=\a");
    iodfg_buf_clear(&b);
    ck_assert_int_eq(tui_osc52(&b, "a\033b", 3, 1), 0);
    ck_assert_str_eq(b.data, "\033]52;c;YRti\a\033Ptmux;\033\033]52;c;YRti\a\033\\");
    iodfg_buf_fini(&b);
}
END_TEST

/* a on the catch-all inserts above it; the report says what each rule maps and who shadows. */
START_TEST(test_rules_add_shadow)
{
    tui_app_command(APP, TUI_CMD_VIEW_RULES);
    struct tui_rules_view *rv = tui_app_view_state(APP, TUI_VIEW_RULES);
    unsigned long n = iodfg_rules_line_count(APP->rules);
    tui_app_command(APP, TUI_CMD_MOVE_LAST); // the catch-all, map => {call}:{kind}
    ck_assert_str_eq(iodfg_rules_line(APP->rules, n), "map => {call}:{kind}");
    ck_assert_uint_eq(tui_app_command(APP, TUI_CMD_RULE_ADD) & TUI_PROMPT, TUI_PROMPT);
    ck_assert_uint_eq(rv->edit_line, n);
    tui_app_prompt_change(APP, "map path ~ ^/usr/ => lib");
    tui_app_prompt_done(APP, "map path ~ ^/usr/ => lib");
    ck_assert_str_eq(iodfg_rules_line(APP->rules, n), "map path ~ ^/usr/ => lib");
    ck_assert_str_eq(iodfg_rules_line(APP->rules, n + 1), "map => {call}:{kind}");
    const struct iodfg_rules_report *rep = iodfg_session_rules_report(APP->ses);
    size_t i = iodfg_rules_count(APP->rules) - 2; // the new rule: rule 2 (files) takes /usr/lib
    ck_assert_uint_eq(rep->rule_keys[i], 0);
    ck_assert_uint_eq(iodfg_rules_get(APP->rules, rep->rule_shadow[i])->line, 2);
}
END_TEST

START_TEST(test_timeline)
{
    struct tui_listmodel *lm = acts()->table.lm;
    tui_listmodel_sort(lm, TUI_AC_COUNT, 0);
    tui_listmodel_first(lm); // read:/usr/lib, in cases a1 and a2
    ck_assert_int_eq(tui_app_timeline(APP, 40), 0);
    ck_assert_uint_eq(timeline()->nrows, 2);
    ck_assert_int_ge(timeline()->peak_bin, 0);
    ck_assert_int_eq(timeline()->t1_ns - timeline()->t0_ns,
                     4000001000LL); // 1700000000.0 .. 1700000004.000001
}
END_TEST

/* Zoom 2 from the start: 40 bins of 25000007 ns over [0, 1.00000025 s) of the 4.000001 s span.
 * a1 reads at 0.1 s (79 us) and 0.3 s (20 us): bins 3-4 and 11-12 (each start lies a few ns
 * before a bin edge); a2 reads at 0.0 s and 0.5 s (10 us): bins 0 and 19-20. */
START_TEST(test_timeline_zoom_bins)
{
    struct tui_listmodel *lm = acts()->table.lm;
    tui_listmodel_sort(lm, TUI_AC_COUNT, 0);
    tui_listmodel_first(lm);
    tui_app_command(APP, TUI_CMD_VIEW_TIMELINE);
    ck_assert_int_eq(tui_app_timeline(APP, 40), 0);
    ck_assert_uint_eq(timeline()->row_off[1], 2);
    ck_assert_uint_eq(timeline()->row_off[2], 4);
    tui_app_command(APP, TUI_CMD_ZOOM_IN);
    tui_app_command(APP, TUI_CMD_ZOOM_IN);
    tui_app_command(APP, TUI_CMD_FIT); // the activity's events: 0 .. 0.5 s + 10 us
    ck_assert_int_eq(tui_app_timeline(APP, 40), 0);
    ck_assert_int_eq(timeline()->fit_activity, 1);
    ck_assert_int_le(timeline()->from_ns, timeline()->t0_ns);
    ck_assert_int_ge(timeline()->from_ns + timeline()->bin_ns * 40, timeline()->t0_ns + 500010000);
    ck_assert_int_lt(timeline()->bin_ns * 40, 600000000); // not the 4 s of the whole log
    tui_app_command(APP, TUI_CMD_FIT); // again: the whole span, then zoom without moving
    ck_assert_int_eq(timeline()->zoom, 0);
    ck_assert_int_eq(timeline()->width_ns, 0);
    timeline()->zoom = 2;
    ck_assert_int_eq(tui_app_timeline(APP, 40), 0);
    ck_assert_int_eq(timeline()->bin_ns, 25000007);
    ck_assert_uint_eq(timeline()->rows[0], 0);
    ck_assert_uint_eq(timeline()->rows[1], 1);
    static const int a1[] = {3, 4, 11, 12}, a2[] = {0, 19, 20};
    for (int b = 0; b < 40; b++) {
        int in1 = 0, in2 = 0;
        for (int i = 0; i < 4; i++) {
            in1 |= a1[i] == b;
        }
        for (int i = 0; i < 3; i++) {
            in2 |= a2[i] == b;
        }
        ck_assert_msg((timeline()->cover[b] > 0) == in1, "a1 bin %d", b);
        ck_assert_msg((timeline()->cover[40 + b] > 0) == in2, "a2 bin %d", b);
    }
    // 0.1 s + 79 us: 28 ns in bin 3 and 78972 ns (0.3% of a bin) in bin 4: both shown with the
    // 0.02 minimum, so every busy bin has the same concurrency and the first one is the peak
    ck_assert_float_eq_tol(timeline()->cover[3], 0.02f, 1e-6f);
    ck_assert_float_eq_tol(timeline()->cover[4], 0.02f, 1e-6f);
    ck_assert_int_eq(timeline()->peak_bin, 0);
    // panned to 1 s: no read:/usr/lib there, the rows stay
    timeline()->pan_set = 1;
    timeline()->from_ns = timeline()->t0_ns + 1000000000;
    timeline()->stamp = 0;
    ck_assert_int_eq(tui_app_timeline(APP, 40), 0);
    ck_assert_uint_eq(timeline()->nrows, 2);
    ck_assert_int_eq(timeline()->peak_bin, -1);
}
END_TEST

/* Enter in the Timeline lists the cursor case's events of the activity; Esc returns. */
START_TEST(test_timeline_events)
{
    struct tui_listmodel *lm = acts()->table.lm;
    tui_listmodel_sort(lm, TUI_AC_COUNT, 0);
    tui_listmodel_first(lm);
    tui_app_command(APP, TUI_CMD_VIEW_TIMELINE);
    ck_assert_int_eq(tui_app_timeline(APP, 40), 0);
    ck_assert_ptr_null(tui_app_table(APP));
    tui_app_command(APP, TUI_CMD_MOVE_DOWN); // a2
    tui_app_command(APP, TUI_CMD_MOVE_DOWN); // stays on the last row
    ck_assert_uint_eq(timeline()->cursor, 1);
    tui_app_command(APP, TUI_CMD_SHOW_EVENTS);
    ck_assert_int_eq(timeline()->show_events, 1);
    struct tui_listmodel *ev = tui_app_table(APP);
    ck_assert_ptr_eq(ev, timeline()->events_lm);
    ck_assert_uint_eq(tui_listmodel_count(ev), 2);
    char buf[64];
    ck_assert_str_eq(tui_listmodel_cell(ev, 0, 3, buf, sizeof(buf)), "read");
    ck_assert_str_eq(tui_listmodel_cell(ev, 1, 4, buf, sizeof(buf)), "/usr/lib/libc.so.6");
    ck_assert_str_eq(tui_app_case_name(APP, timeline()->events_row_case), "a_host1_2");
    // sorted by duration, longest first: 79 us at 0.0 s, then 10 us at 0.5 s
    tui_listmodel_sort(ev, 1, 0);
    ck_assert_uint_eq(timeline()->events[tui_listmodel_row(ev, 0)], 3);
    ck_assert_uint_eq(timeline()->events[tui_listmodel_row(ev, 1)], 4);
    tui_app_command(APP, TUI_CMD_CANCEL);
    ck_assert_int_eq(timeline()->show_events, 0);
    ck_assert_int_eq(APP->view, TUI_VIEW_TIMELINE);
}
END_TEST

/* ---- the timeline against its definition, on random overlapping events ---- */

static uint64_t rng_state;
static uint64_t rnd(uint64_t n)
{
    rng_state ^= rng_state << 13;
    rng_state ^= rng_state >> 7;
    rng_state ^= rng_state << 17;
    return rng_state % n;
}

/* 7 cases of up to 300 events of 2 calls on 2 paths: serial runs, overlaps (ends out of start
 * order), zero and unknown durations; case 3 has bursts of 40 and 60 instants at one time. */
static void setup_random(void)
{
    LOG = iodfg_eventlog_new(IODFG_COL_ALL);
    ck_assert_ptr_nonnull(LOG);
    rng_state = 0x9E3779B97F4A7C15ULL;
    uint32_t keys[4];
    for (int k = 0; k < 4; k++) {
        ck_assert_int_eq(iodfg_eventlog_key(LOG, S(k % 2 ? "read" : "write"),
                                            S(k / 2 ? "/scratch/a/f" : "/home/u/g"), &keys[k]),
                         0);
    }
    for (uint32_t c = 0; c < 7; c++) {
        struct iodfg_case_info info;
        memset(&info, 0, sizeof(info));
        char name[32];
        snprintf(name, sizeof(name), "r_host%u_%u", c, c);
        info.name = S(name);
        info.cid = S("r");
        ck_assert_int_eq(iodfg_eventlog_begin_case(LOG, &info, NULL), 0);
        int64_t t = 1700000000000000000LL + (int64_t)rnd(5000000);
        uint64_t n = c == 5 ? 3 : c == 3 ? 250 : 100 + rnd(200);
        for (uint64_t i = 0; i < n; i++) {
            struct iodfg_event ev;
            memset(&ev, 0, sizeof(ev));
            ev.offset = ev.req = ev.size = IODFG_UNKNOWN;
            ev.key = keys[c == 6 ? 0 : rnd(4)];
            ev.start_ns = t;
            uint64_t kind = rnd(10);
            ev.dur_ns = kind == 0   ? 0
                        : kind == 1 ? IODFG_UNKNOWN
                        : kind < 5  ? (int64_t)rnd(3000000) // often past the next start
                                    : 1000 + (int64_t)rnd(200000);
            ev.pid = (int32_t)(100 + rnd(3));
            int burst = c == 3 && ((i >= 50 && i < 90) || (i >= 150 && i < 210));
            if (burst) {
                ev.dur_ns = 0; // 40, then 60 instants of one activity at one time
                ev.key = keys[1];
            }
            ck_assert_int_eq(iodfg_eventlog_push(LOG, &ev, i, NULL), 0);
            if (burst && i != 89 && i != 209) {
                continue;
            }
            t += (int64_t)rnd(kind < 5 ? 400000 : 2000000);
        }
        ck_assert_int_eq(iodfg_eventlog_end_case(LOG, NULL), 0);
    }
    struct iodfg_error err;
    iodfg_error_clear(&err);
    APP = tui_app_new(LOG, 1, "random.h5", NULL, NULL, &err);
    ck_assert_msg(APP != NULL, "%s", err.msg);
}

/* Check the computed grid against the definition (timeline.c): per row and bin, the summed
 * overlap over the bin, at least 0.02 per event touching it, capped at 1; a = UINT32_MAX: all
 * mapped events. */
static void check_grid(uint32_t a)
{
    const struct tui_timeline *tl = timeline();
    const struct iodfg_columns *col = iodfg_eventlog_columns(LOG);
    const uint32_t *act = iodfg_analysis_activities(APP->an);
    uint32_t nc = iodfg_eventlog_case_count(LOG);
    uint32_t r = 0;
    float *conc = calloc((size_t)tl->nbins, sizeof(float));
    ck_assert_ptr_nonnull(conc);
    for (uint32_t c = 0; c < nc; c++) {
        uint64_t lo, hi;
        if (!iodfg_trace_case_range(LOG, iodfg_analysis_selection(APP->an), c, &lo, &hi)) {
            continue; // filtered out
        }
        uint64_t n = 0;
        for (uint64_t i = lo; i < hi; i++) {
            uint32_t ea = act[col->key[i]];
            n += ea != IODFG_NO_ACTIVITY && (a == UINT32_MAX || ea == a);
        }
        if (n == 0) {
            continue;
        }
        ck_assert_uint_lt(r, tl->nrows);
        ck_assert_uint_eq(tl->rows[r], c);
        ck_assert_uint_eq(tl->row_off[r + 1] - tl->row_off[r], n);
        for (int b = 0; b < tl->nbins; b++) {
            int64_t bs = tl->from_ns + b * tl->bin_ns, be = bs + tl->bin_ns, ov = 0;
            uint64_t k = 0;
            for (uint64_t i = lo; i < hi; i++) {
                uint32_t ea = act[col->key[i]];
                if (ea == IODFG_NO_ACTIVITY || (a != UINT32_MAX && ea != a)) {
                    continue;
                }
                int64_t d = col->dur_ns[i];
                int64_t s = col->start_ns[i], e = s + (d == IODFG_UNKNOWN || d < 1 ? 1 : d);
                int64_t x = s > bs ? s : bs, y = e < be ? e : be;
                if (y > x) {
                    ov += y - x;
                    k++;
                }
            }
            double f = k >= 50 ? 1.0 : (double)ov / (double)tl->bin_ns;
            f = k == 0 ? 0 : f < 0.02 * (double)k ? 0.02 * (double)k : f;
            float want = f > 1.0 ? 1.0f : (float)f;
            float got = tl->cover[(size_t)r * (size_t)tl->nbins + (size_t)b];
            ck_assert_msg(got == want, "activity %u row %u bin %d: %g, want %g (%llu events)", a, r,
                          b, (double)got, (double)want, (unsigned long long)k);
            conc[b] += want;
        }
        r++;
    }
    ck_assert_uint_eq(r, tl->nrows);
    int peak = -1;
    float max = 0;
    for (int b = 0; b < tl->nbins; b++) {
        ck_assert_float_eq(tl->conc[b], conc[b]);
        if (conc[b] > max) {
            max = conc[b];
            peak = b;
        }
    }
    ck_assert_int_eq(tl->peak_bin, peak);
    free(conc);
}

/* Every activity at several zooms, pans and widths, then all activities (an empty table). */
START_TEST(test_timeline_random)
{
    struct tui_listmodel *lm = acts()->table.lm;
    size_t na = tui_listmodel_count(lm);
    ck_assert_uint_ge(na, 4);
    tui_app_command(APP, TUI_CMD_VIEW_TIMELINE);
    uint64_t stamp = 0;
    for (size_t i = 0; i < na; i++) {
        tui_listmodel_first(lm);
        tui_listmodel_move(lm, (long)i);
        uint32_t a = tui_app_selected_activity(APP);
        for (int zoom = 0; zoom <= 12; zoom += 2) {
            for (int pan = 0; pan < 3; pan++) {
                int nbins = pan == 1 ? 77 : 40;
                timeline()->zoom = zoom;
                timeline()->pan_set = pan > 0;
                timeline()->from_ns = timeline()->t0_ns +
                                      (timeline()->t1_ns - timeline()->t0_ns) / 3 * pan +
                                      (int64_t)rnd(1000000);
                timeline()->stamp = 0;
                ck_assert_int_eq(tui_app_timeline(APP, nbins), 0);
                ck_assert_uint_eq(timeline()->activity, a);
                check_grid(a);
            }
        }
        // one index serves every activity
        ck_assert(stamp == 0 || timeline()->index_stamp == stamp);
        stamp = timeline()->index_stamp;
        ck_assert_int_eq(timeline()->all_index, 0);
    }
    // the fit comes back from its cache unchanged
    tui_app_command(APP, TUI_CMD_FIT);
    ck_assert_int_eq(tui_app_timeline(APP, 40), 0);
    check_grid(tui_app_selected_activity(APP));
    // the rows of the last activity list their events: of the activity, in start order
    timeline()->cursor = timeline()->nrows - 1;
    ck_assert_int_eq(tui_app_timeline_events(APP), 0);
    const struct iodfg_columns *col = iodfg_eventlog_columns(LOG);
    ck_assert_uint_eq(timeline()->nevents, timeline()->row_off[timeline()->nrows] -
                                               timeline()->row_off[timeline()->nrows - 1]);
    for (uint64_t j = 0; j < timeline()->nevents; j++) {
        uint64_t i = timeline()->events[j];
        ck_assert_uint_eq(iodfg_analysis_activities(APP->an)[col->key[i]], timeline()->activity);
        ck_assert(j == 0 || i > timeline()->events[j - 1]);
    }
    tui_app_command(APP, TUI_CMD_CANCEL);
    // no activity selected (an empty table): every mapped event, one index group
    uint32_t saved = acts()->nrows;
    acts()->nrows = 0;
    ck_assert_int_eq(tui_listmodel_reload(lm), 0);
    ck_assert_uint_eq(tui_app_selected_activity(APP), UINT32_MAX);
    for (int zoom = 0; zoom <= 6; zoom += 3) {
        timeline()->zoom = zoom;
        timeline()->stamp = 0;
        ck_assert_int_eq(tui_app_timeline(APP, 60), 0);
        ck_assert_int_eq(timeline()->all_index, 1);
        ck_assert_uint_eq(timeline()->nrows, 7);
        check_grid(UINT32_MAX);
    }
    timeline()->cursor = 3;
    ck_assert_int_eq(tui_app_timeline_events(APP), 0);
    ck_assert_uint_eq(timeline()->nevents, timeline()->row_off[4] - timeline()->row_off[3]);
    acts()->nrows = saved;
    ck_assert_int_eq(tui_listmodel_reload(lm), 0);
    // back to an activity: the grouped index again
    timeline()->stamp = 0;
    ck_assert_int_eq(tui_app_timeline(APP, 40), 0);
    ck_assert_int_eq(timeline()->all_index, 0);
    check_grid(tui_app_selected_activity(APP));
}
END_TEST

/* A rebuild (new generation) rebuilds the index; the rows follow a filter on cases. */
START_TEST(test_timeline_rebuild)
{
    struct tui_listmodel *lm = acts()->table.lm;
    tui_listmodel_first(lm);
    tui_app_command(APP, TUI_CMD_VIEW_TIMELINE);
    ck_assert_int_eq(tui_app_timeline(APP, 50), 0);
    uint64_t stamp = timeline()->index_stamp;
    tui_app_command(APP, TUI_CMD_ADD_FILTER);
    tui_app_prompt_done(APP, "name~host[0-2]_");
    ck_assert_uint_ne(APP->generation + 1, stamp);
    tui_listmodel_first(lm);
    ck_assert_int_eq(tui_app_timeline(APP, 50), 0);
    ck_assert_uint_eq(timeline()->index_stamp, APP->generation + 1);
    ck_assert_uint_le(timeline()->nrows, 3);
    ck_assert_uint_ge(timeline()->nrows, 1);
    check_grid(tui_app_selected_activity(APP));
}
END_TEST

/* ---- the index built by a background job (timeline_job.h) ---- */

static void rebuild_same(void)
{
    struct iodfg_error err;
    iodfg_error_clear(&err);
    // same results, but a new generation: pruning changed and changed back
    uint64_t gen = APP->generation;
    iodfg_session_set_thresholds(APP->ses, 90, 100);
    ck_assert_int_eq(tui_app_rebuild(APP, &err), 0);
    iodfg_session_set_thresholds(APP->ses, 100, 100);
    ck_assert_int_eq(tui_app_rebuild(APP, &err), 0);
    ck_assert_uint_ne(APP->generation, gen);
}

/* A copy of the installed index, to compare two builds. */
struct index_copy {
    uint32_t ngroups;
    int all;
    int64_t t0, t1;
    uint64_t nev, nrow;
    uint64_t *group_ev, *group_row, *row_start;
    uint32_t *row_case;
    struct tui_timeline_sums *sums, *coarse;
};

static void *dup_mem(const void *p, size_t n)
{
    void *q = malloc(n + 1);
    ck_assert_ptr_nonnull(q);
    memcpy(q, p, n);
    return q;
}

static void index_copy(struct index_copy *c)
{
    const struct tui_timeline *tl = timeline();
    ck_assert_uint_eq(tl->index_stamp, APP->generation + 1);
    c->ngroups = tl->ngroups;
    c->all = tl->all_index;
    c->t0 = tl->t0_ns;
    c->t1 = tl->t1_ns;
    c->nev = tl->group_ev[tl->ngroups];
    c->nrow = tl->group_row[tl->ngroups];
    size_t ng = (size_t)tl->ngroups + 1;
    c->group_ev = dup_mem(tl->group_ev, ng * sizeof(uint64_t));
    c->group_row = dup_mem(tl->group_row, ng * sizeof(uint64_t));
    c->row_start = dup_mem(tl->row_start, ((size_t)c->nrow + 1) * sizeof(uint64_t));
    c->row_case = dup_mem(tl->row_case, (size_t)c->nrow * sizeof(uint32_t));
    c->sums = dup_mem(tl->sums, ((size_t)c->nev + 1) * sizeof(*c->sums));
    c->coarse = dup_mem(tl->coarse, ((size_t)c->nev / 8 + 1) * sizeof(*c->coarse));
}

/* The installed index equals the copy, field by field. */
static void index_same(const struct index_copy *c)
{
    const struct tui_timeline *tl = timeline();
    ck_assert_uint_eq(tl->index_stamp, APP->generation + 1);
    ck_assert_uint_eq(tl->ngroups, c->ngroups);
    ck_assert_int_eq(tl->all_index, c->all);
    ck_assert_int_eq(tl->t0_ns, c->t0);
    ck_assert_int_eq(tl->t1_ns, c->t1);
    size_t ng = (size_t)c->ngroups + 1;
    ck_assert_mem_eq(tl->group_ev, c->group_ev, ng * sizeof(uint64_t));
    ck_assert_mem_eq(tl->group_row, c->group_row, ng * sizeof(uint64_t));
    ck_assert_mem_eq(tl->row_start, c->row_start, ((size_t)c->nrow + 1) * sizeof(uint64_t));
    ck_assert_mem_eq(tl->row_case, c->row_case, (size_t)c->nrow * sizeof(uint32_t));
    ck_assert_mem_eq(tl->sums, c->sums, ((size_t)c->nev + 1) * sizeof(*c->sums));
    // the samples: every 8th start and end (only the used slots: the array may be larger)
    ck_assert_mem_eq(tl->coarse, c->coarse, (size_t)((c->nev + 7) / 8) * sizeof(*c->coarse));
}

static void index_copy_free(struct index_copy *c)
{
    free(c->group_ev);
    free(c->group_row);
    free(c->row_start);
    free(c->row_case);
    free(c->sums);
    free(c->coarse);
}

/* What the event loop does: poll the job until the timeline is ready (no time limit: check's
 * test timeout stops a job that never ends). */
static int timeline_when_ready(int nbins)
{
    int rc;
    while ((rc = tui_app_timeline(APP, nbins)) == 1) {
        struct timespec ts = {0, 100000};
        nanosleep(&ts, NULL);
        tui_app_timeline_poll(APP);
    }
    return rc;
}

/* The index a background job builds equals the one built at once, for every activity and for
 * all activities; until it is installed the view has no index at all (never a half-built one). */
START_TEST(test_timeline_job_equals_sync)
{
    struct tui_listmodel *lm = acts()->table.lm;
    tui_app_command(APP, TUI_CMD_VIEW_TIMELINE);
    tui_listmodel_first(lm);
    tui_listmodel_move(lm, 1);
    uint32_t a = tui_app_selected_activity(APP);
    ck_assert_int_eq(tui_app_timeline(APP, 40), 0); // a small log: at once
    ck_assert_int_eq(tui_app_timeline_busy(APP), 0);
    uint64_t ev;
    ck_assert_int_eq(tui_app_timeline_progress(APP, &ev), -1);
    struct index_copy c;
    index_copy(&c);
    size_t cells = (size_t)timeline()->nrows * 40;
    float *cover = dup_mem(timeline()->cover, cells * sizeof(float));
    uint32_t nrows = timeline()->nrows;

    timeline()->async_min = 1; // from now on in the background
    rebuild_same();
    ck_assert_int_eq(tui_app_timeline(APP, 40), 1);
    ck_assert_int_eq(tui_app_timeline_busy(APP), 1);
    ck_assert_int_ge(tui_app_timeline_progress(APP, &ev), 0);
    ck_assert(ev == 0 || ev == c.nev);
    ck_assert_uint_eq(timeline()->index_stamp, 0);
    ck_assert_uint_eq(timeline()->nrows, 0);
    ck_assert_ptr_null(timeline()->row_case);
    tui_app_timeline_wait(APP);
    ck_assert_int_eq(tui_app_timeline_busy(APP), 0);
    ck_assert_int_eq(tui_app_timeline(APP, 40), 0);
    index_same(&c);
    ck_assert_uint_eq(timeline()->activity, a);
    ck_assert_uint_eq(timeline()->nrows, nrows);
    ck_assert_mem_eq(timeline()->cover, cover, cells * sizeof(float));
    check_grid(a);
    // zoomed, through the event loop's polling
    rebuild_same();
    timeline()->zoom = 4;
    timeline()->stamp = 0;
    ck_assert_int_eq(timeline_when_ready(77), 0);
    index_same(&c);
    check_grid(a);
    index_copy_free(&c);
    free(cover);

    // all activities (an empty table): one group, built at once and in the background
    uint32_t saved = acts()->nrows;
    acts()->nrows = 0;
    ck_assert_int_eq(tui_listmodel_reload(lm), 0);
    timeline()->async_min = UINT64_MAX;
    timeline()->zoom = 0;
    ck_assert_int_eq(tui_app_timeline(APP, 60), 0);
    ck_assert_int_eq(timeline()->all_index, 1);
    index_copy(&c);
    timeline()->async_min = 1;
    rebuild_same();
    acts()->nrows = 0;
    ck_assert_int_eq(tui_listmodel_reload(lm), 0);
    ck_assert_int_eq(tui_app_timeline(APP, 60), 1);
    tui_app_timeline_wait(APP);
    ck_assert_int_eq(tui_app_timeline(APP, 60), 0);
    index_same(&c);
    ck_assert_uint_eq(timeline()->nrows, 7);
    check_grid(UINT32_MAX);
    index_copy_free(&c);
    // back to an activity: the grouped index again, in the background
    acts()->nrows = saved;
    ck_assert_int_eq(tui_listmodel_reload(lm), 0);
    timeline()->stamp = 0;
    ck_assert_int_eq(timeline_when_ready(40), 0);
    ck_assert_int_eq(timeline()->all_index, 0);
    check_grid(tui_app_selected_activity(APP));
    // the event list of a row works on the installed index
    timeline()->cursor = 0;
    ck_assert_int_eq(tui_app_timeline_events(APP), 0);
    ck_assert_uint_eq(timeline()->nevents, timeline()->row_off[1]);
}
END_TEST

/* A rebuild while a job runs: its result is stale and discarded (never installed), a new job
 * indexes the new selection. */
START_TEST(test_timeline_job_stale)
{
    struct tui_listmodel *lm = acts()->table.lm;
    tui_listmodel_first(lm);
    tui_app_command(APP, TUI_CMD_VIEW_TIMELINE);
    ck_assert_int_eq(tui_app_timeline(APP, 50), 0);
    uint32_t all_rows = timeline()->nrows;
    ck_assert_uint_gt(all_rows, 3);
    timeline()->async_min = 1;
    rebuild_same();
    ck_assert_int_eq(tui_app_timeline(APP, 50), 1);
    // a filter on cases (a new generation) before the job is installed
    tui_app_command(APP, TUI_CMD_ADD_FILTER);
    tui_app_prompt_done(APP, "name~host[0-2]_");
    tui_listmodel_first(lm);
    ck_assert_int_eq(tui_app_timeline_busy(APP), 1);
    tui_app_timeline_wait(APP); // joins it, and drops its result
    ck_assert_int_eq(tui_app_timeline_busy(APP), 0);
    ck_assert_uint_eq(timeline()->index_stamp, 0);
    ck_assert_uint_eq(timeline()->nrows, 0);
    // its big arrays are kept for the next build
    ck_assert_ptr_nonnull(timeline()->sums);
    ck_assert_int_eq(tui_app_timeline(APP, 50), 1); // the current generation's job
    tui_app_timeline_wait(APP);
    ck_assert_int_eq(tui_app_timeline(APP, 50), 0);
    ck_assert_uint_eq(timeline()->index_stamp, APP->generation + 1);
    ck_assert_uint_le(timeline()->nrows, 3);
    ck_assert_uint_ge(timeline()->nrows, 1);
    check_grid(tui_app_selected_activity(APP));
    // a rebuild and a redraw while a job may still run: it is cancelled (or, when it has
    // finished, discarded) and the next one follows, as the event loop polls
    tui_app_command(APP, TUI_CMD_POP_FILTER);
    tui_listmodel_first(lm);
    ck_assert_int_eq(tui_app_timeline(APP, 50), 1);
    rebuild_same();
    ck_assert_int_eq(tui_app_timeline(APP, 50), 1);
    rebuild_same();
    ck_assert_int_eq(timeline_when_ready(50), 0);
    ck_assert_uint_eq(timeline()->index_stamp, APP->generation + 1);
    ck_assert_uint_eq(timeline()->nrows, all_rows);
    check_grid(tui_app_selected_activity(APP));
    // a job whose generation went stale while no view asks: the poll discards it
    rebuild_same();
    ck_assert_int_eq(tui_app_timeline(APP, 50), 1);
    rebuild_same();
    while (!tui_app_timeline_poll(APP)) {
        struct timespec ts = {0, 100000};
        nanosleep(&ts, NULL);
    }
    ck_assert_int_eq(tui_app_timeline_busy(APP), 0);
    ck_assert_uint_eq(timeline()->index_stamp, 0);
    ck_assert_int_eq(tui_app_timeline_poll(APP), 0);
}
END_TEST

/* Quitting while a job runs (or has finished unseen) joins it and frees everything: the
 * teardown frees the app, the sanitizers see no leak or race. */
START_TEST(test_timeline_job_quit)
{
    tui_app_command(APP, TUI_CMD_VIEW_TIMELINE);
    timeline()->async_min = 1;
    rebuild_same();
    ck_assert_int_eq(tui_app_timeline(APP, 40), 1);
    rebuild_same(); // stale too
    ck_assert_int_eq(tui_app_timeline_busy(APP), 1);
}
END_TEST

/* Enter on a case filters to it; Enter on a variant puts its cases into G, r into R. */
START_TEST(test_cases_variants_enter)
{
    tui_app_command(APP, TUI_CMD_VIEW_CASES);
    struct tui_listmodel *lm = tui_app_table(APP);
    tui_listmodel_first(lm);
    uint32_t c = cases()->rows[tui_listmodel_row(lm, 0)];
    const struct iodfg_case_info *ci = iodfg_eventlog_case(APP->log, c);
    tui_app_command(APP, TUI_CMD_SHOW_EVENTS);
    ck_assert_uint_eq(iodfg_filter_stack_count(APP->filters), 1);
    ck_assert_uint_eq(cases()->nrows, 1);
    ck_assert_uint_eq(APP->counts->events_shown, iodfg_eventlog_case_offsets(APP->log)[c + 1] -
                                                     iodfg_eventlog_case_offsets(APP->log)[c]);
    (void)ci;
    tui_app_command(APP, TUI_CMD_POP_FILTER);
    // with call=read, a1 (read write read -> read read) follows a2's variant
    tui_app_command(APP, TUI_CMD_ADD_FILTER);
    tui_app_prompt_done(APP, "call=read");
    tui_app_command(APP, TUI_CMD_VARIANTS);
    ck_assert_uint_eq(cases()->nvariants, 2);
    lm = tui_app_table(APP);
    tui_listmodel_first(lm);
    ck_assert_uint_eq(cases()->variants[tui_listmodel_row(lm, 0)].ncases, 2);
    tui_app_command(APP, TUI_CMD_SHOW_EVENTS);
    ck_assert_uint_eq(APP->counts->g_cases, 2);
    ck_assert_int_eq(APP->g_on[0] && APP->g_on[1], 1);
    tui_listmodel_move(lm, 1);
    tui_app_command(APP, TUI_CMD_GROUP_R);
    ck_assert_uint_eq(APP->counts->r_cases, 1);
    ck_assert_int_eq(APP->r_on[2], 1);
    ck_assert_int_eq((APP->diff != NULL), 1);
    ck_assert_uint_eq(cases()->variants[tui_listmodel_row(lm, 0)].ng, 2);
}
END_TEST

START_TEST(test_session_roundtrip)
{
    struct iodfg_error err;
    iodfg_error_clear(&err);
    iodfg_session_group_match(APP->ses, "cid=a", IODFG_GROUP_G, &err);
    iodfg_session_group_match(APP->ses, "cid=b", IODFG_GROUP_R, &err);
    tui_app_command(APP, TUI_CMD_ADD_FILTER);
    tui_app_prompt_done(APP, "call=read");
    tui_app_command(APP, TUI_CMD_PATH_THRESHOLD_DOWN);
    tui_app_command(APP, TUI_CMD_VIEW_DIFF);
    char path[4096];
    char *dir = testutil_tmpdir();
    snprintf(path, sizeof(path), "%s/s.session", dir);
    ck_assert_int_eq(tui_app_session_save(APP, path, &err), 0);
    struct iodfg_buf a, b;
    iodfg_buf_init(&a);
    iodfg_buf_init(&b);
    tui_app_session_format(APP, &a);
    ck_assert_ptr_nonnull(strstr(a.data, "\nfilter call=read\n"));
    ck_assert_ptr_nonnull(strstr(a.data, "\ng a_host1_1\n"));
    ck_assert_ptr_nonnull(strstr(a.data, "\nr b_host2_3\n"));
    ck_assert_ptr_nonnull(strstr(a.data, "\nview diff\n"));
    ck_assert_ptr_nonnull(strstr(a.data, "\npaths 90\n"));
    struct tui_app *other = tui_app_new(LOG, 0, "test.h5", NULL, NULL, &err);
    ck_assert_ptr_nonnull(other);
    ck_assert_int_eq(tui_app_session_load(other, path, &err), 0);
    tui_app_session_format(other, &b);
    ck_assert_str_eq(a.data, b.data);
    ck_assert_uint_eq(other->counts->g_cases, 2);
    ck_assert_uint_eq(other->counts->r_cases, 1);
    ck_assert_int_eq(other->view, TUI_VIEW_DIFF);
    tui_app_free(other);
    // a bad line is reported with its position
    FILE *f = fopen(path, "w");
    fputs("view activities\nbogus 1\n", f);
    fclose(f);
    other = tui_app_new(LOG, 0, "test.h5", NULL, NULL, &err);
    ck_assert_int_eq(tui_app_session_load(other, path, &err), -1);
    ck_assert_uint_eq(err.line, 2);
    tui_app_free(other);
    // a bad value is named, with its column; sorting needs a column the table has
    static const struct {
        const char *text, *msg;
        unsigned long col;
    } bad[] = {
        {"view bogus\n", "expected a view name (activities, transitions, ...), found 'bogus'", 6},
        {"dt -5\n", "expected a Δt in ns from 0 (automatic) to 2^61, found '-5'", 4},
        {"sort activities 99 1\n", "expected a column from -1 to ", 17},
        {"sort activities 1 7\n", "expected 0 (ascending) or 1 (descending), found '7'", 19},
        {"sort activities 1 1 x\n", "expected VIEW COLUMN DESCENDING", 6},
    };
    for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
        f = fopen(path, "w");
        fputs(bad[i].text, f);
        fclose(f);
        other = tui_app_new(LOG, 0, "test.h5", NULL, NULL, &err);
        iodfg_error_clear(&err);
        ck_assert_int_eq(tui_app_session_load(other, path, &err), -1);
        ck_assert_msg(strstr(err.msg, bad[i].msg) == err.msg, "%s", err.msg);
        ck_assert_uint_eq(err.line, 1);
        ck_assert_uint_eq(err.col, bad[i].col);
        tui_app_free(other);
    }
    iodfg_buf_fini(&a);
    iodfg_buf_fini(&b);
    testutil_rmtree(dir);
    free(dir);
}
END_TEST

/* Handles (view 9): a log with open, dup, a fork with an inherited copy, closes, and handles
 * never closed, plus a second case with one pre-created handle. */
static void setup_handles(void)
{
    LOG = iodfg_eventlog_new(IODFG_COL_ANALYSIS);
    ck_assert_ptr_nonnull(LOG);
    add_case("h", "host1", "1",
             "10 00:00:01.000000 openat(AT_FDCWD, \"/data/in\", O_RDONLY) = 3</data/in>\n"
             "10 00:00:01.000100 read(3</data/in>, \"abcd\", 4) = 4\n"
             "10 00:00:01.000200 dup(3</data/in>) = 4</data/in>\n"
             "10 00:00:01.000300 clone(child_stack=NULL, flags=SIGCHLD) = 11\n"
             "11 00:00:01.000400 read(4</data/in>, \"ef\", 2) = 2\n"
             "11 00:00:01.000500 close(4</data/in>) = 0\n"
             "10 00:00:01.000600 close(3</data/in>) = 0\n"
             "10 00:00:01.000700 openat(AT_FDCWD, \"/data/out\", O_WRONLY|O_CREAT, 0644) = "
             "5</data/out>\n"
             "10 00:00:01.000800 write(5</data/out>, \"hello\", 5) = 5\n"
             "10 00:00:01.000900 write(1</dev/pts/0>, \"x\", 1) = 1\n");
    add_case("b", "host2", "2", "20 00:00:02.000000 read(0</dev/null>, \"\", 10) = 0\n");
    struct iodfg_error err;
    iodfg_error_clear(&err);
    APP = tui_app_new(LOG, 1, "handles.h5", NULL, NULL, &err);
    ck_assert_msg(APP != NULL, "%s", err.msg);
}

/* The Handles view's state; the handle id at table position i, and a cell of it. */
static struct tui_handles_view *hv(void)
{
    return tui_app_view_state(APP, TUI_VIEW_HANDLES);
}

static uint32_t hid(size_t i)
{
    return hv()->rows[tui_listmodel_row(hv()->table.lm, i)];
}

static const char *hcell(size_t i, int col)
{
    static char buf[256];
    return tui_listmodel_cell(hv()->table.lm, i, col, buf, sizeof(buf));
}

START_TEST(test_handles_table)
{
    ck_assert_uint_eq(iodfg_eventlog_handle_count(LOG), 6);
    tui_app_command(APP, TUI_CMD_VIEW_HANDLES);
    ck_assert_int_eq(APP->view, TUI_VIEW_HANDLES);
    struct tui_listmodel *lm = tui_app_table(APP);
    ck_assert_ptr_eq(lm, hv()->table.lm);
    // 1 open /data/in, 2 its dup, 3 the child's inherited copy of fd 4, 4 open /data/out,
    // 5 pre-created fd 1; case b: 6 pre-created fd 0. Never closed: 2, 4, 5, 6.
    ck_assert_uint_eq(tui_listmodel_count(lm), 6);
    ck_assert_uint_eq(hv()->sum.count, 6);
    ck_assert_uint_eq(hv()->sum.by_origin[IODFG_HANDLE_OPEN], 2);
    ck_assert_uint_eq(hv()->sum.by_origin[IODFG_HANDLE_DUP], 1);
    ck_assert_uint_eq(hv()->sum.by_origin[IODFG_HANDLE_INHERITED], 1);
    ck_assert_uint_eq(hv()->sum.by_origin[IODFG_HANDLE_PRECREATED], 2);
    ck_assert_uint_eq(hv()->sum.never_closed, 4);
    char line[512];
    tui_handles_view_header(APP, line, sizeof(line));
    ck_assert_str_eq(line, "6 handles: 2 opened, 1 dup, 2 pre-created, 1 inherited · "
                           "! 4 never closed");
    // source order is handle order; cells of handle 1 and 3 (times from the log start, 1 s)
    ck_assert_uint_eq(hid(0), 1);
    ck_assert_str_eq(hcell(0, TUI_HC_MARK), "");
    ck_assert_str_eq(hcell(0, TUI_HC_CASE), "h_host1_1");
    ck_assert_str_eq(hcell(0, TUI_HC_ORIGIN), "open");
    ck_assert_str_eq(hcell(0, TUI_HC_PATH), "/data/in");
    ck_assert_str_eq(hcell(0, TUI_HC_FLAGS), "O_RDONLY");
    ck_assert_str_eq(hcell(0, TUI_HC_CREATED), "0 ns");
    ck_assert_str_eq(hcell(0, TUI_HC_DESTROYED), "600 µs");
    ck_assert_str_eq(hcell(0, TUI_HC_LIFETIME), "600 µs");
    ck_assert_str_eq(hcell(0, TUI_HC_READ), "4 B");
    ck_assert_str_eq(hcell(2, TUI_HC_PID), "11");
    ck_assert_str_eq(hcell(2, TUI_HC_ORIGIN), "inherited");
    ck_assert_str_eq(hcell(2, TUI_HC_CREATED), "–");
    ck_assert_str_eq(hcell(2, TUI_HC_DESTROYED), "500 µs");
    ck_assert_str_eq(hcell(2, TUI_HC_LIFETIME), "–");
    ck_assert_str_eq(hcell(2, TUI_HC_READ), "2 B");
    ck_assert_str_eq(hcell(3, TUI_HC_MARK), "!");
    ck_assert_str_eq(hcell(3, TUI_HC_DESTROYED), "–");
    ck_assert_str_eq(hcell(3, TUI_HC_WRITTEN), "5 B");
    ck_assert_str_eq(hcell(5, TUI_HC_CREATED), "–");
    ck_assert_str_eq(hcell(5, TUI_HC_CASE), "b_host2_2");
    // the detail line shows the parent chain of the child's copy
    tui_listmodel_set_cursor(lm, 2);
    ck_assert_uint_eq(tui_handles_view_selected(APP), 3);
    // the path first (the name: it loses its middle on a narrow line), then the chain
    size_t nl = tui_handles_view_detail(APP, 3, line, sizeof(line));
    ck_assert_msg(strncmp(line,
                          "/data/in   #3 fd 4 pid 11 inherited ← #2 fd 4 pid 10 dup ← #1 fd 3 pid "
                          "10 open   (no call)",
                          strlen("/data/in   #3 fd 4 pid 11 inherited ← #2 fd 4 pid 10 dup ← #1 fd "
                                 "3 pid 10 open   (no call)")) == 0,
                  "%s", line);
    ck_assert_uint_eq(nl, strlen("/data/in"));
    tui_handles_view_detail(APP, 4, line, sizeof(line));
    ck_assert_str_eq(line, "/data/out   #4 fd 5 pid 10 open (no parent)   openat "
                           "O_WRONLY|O_CREAT mode 0644");
}
END_TEST

START_TEST(test_handles_sort_search_open_only)
{
    tui_app_command(APP, TUI_CMD_VIEW_HANDLES);
    struct tui_listmodel *lm = tui_app_table(APP);
    // bytes read, descending: 4 (h1), 2 (h3), then the rest in handle order
    ck_assert_int_eq(tui_listmodel_sort(lm, TUI_HC_READ, 0), 0);
    ck_assert_uint_eq(hid(0), 1);
    ck_assert_uint_eq(hid(1), 3);
    // lifetime, descending: only h1 (600 µs) has one; unknown lifetimes sort last
    ck_assert_int_eq(tui_listmodel_sort(lm, TUI_HC_LIFETIME, 0), 0);
    ck_assert_uint_eq(hid(0), 1);
    // closing time, ascending: h3 (1.0005 s), h1 (1.0006 s), then the never-closed ones
    ck_assert_int_eq(tui_listmodel_sort(lm, TUI_HC_DESTROYED, 0), 0);
    ck_assert_uint_eq(hid(0), 3);
    ck_assert_uint_eq(hid(1), 1);
    ck_assert_str_eq(hcell(2, TUI_HC_MARK), "!");
    // path, ascending: /data/in x3, /data/out, /dev/null, /dev/pts/0
    ck_assert_int_eq(tui_listmodel_sort(lm, TUI_HC_PATH, 0), 0);
    ck_assert_str_eq(hcell(3, TUI_HC_PATH), "/data/out");
    ck_assert_str_eq(hcell(5, TUI_HC_PATH), "/dev/pts/0");
    // search moves to the match
    tui_app_command(APP, TUI_CMD_SEARCH);
    tui_app_prompt_change(APP, "pts");
    ck_assert_uint_eq(tui_handles_view_selected(APP), 5);
    tui_app_prompt_done(APP, "pts");
    // never-closed only: 2, 4, 5, 6; the cursor stays on handle 5
    tui_app_command(APP, TUI_CMD_OPEN_ONLY);
    ck_assert_uint_eq(tui_listmodel_count(lm), 4);
    ck_assert_uint_eq(hv()->sum.never_closed, 4);
    ck_assert_uint_eq(tui_handles_view_selected(APP), 5);
    for (size_t i = 0; i < 4; i++) {
        ck_assert_str_eq(hcell(i, TUI_HC_MARK), "!");
    }
    tui_app_command(APP, TUI_CMD_OPEN_ONLY);
    ck_assert_uint_eq(tui_listmodel_count(lm), 6);
}
END_TEST

START_TEST(test_handles_filters)
{
    // a case filter hides the other case's handles, also when applied in another view
    tui_app_command(APP, TUI_CMD_ADD_FILTER);
    tui_app_prompt_done(APP, "cid=b");
    tui_app_command(APP, TUI_CMD_VIEW_HANDLES);
    ck_assert_uint_eq(tui_listmodel_count(tui_app_table(APP)), 1);
    ck_assert_uint_eq(tui_handles_view_selected(APP), 6);
    tui_app_command(APP, TUI_CMD_POP_FILTER);
    ck_assert_uint_eq(tui_listmodel_count(tui_app_table(APP)), 6);
    ck_assert_uint_eq(tui_handles_view_selected(APP), 6);
    // Enter filters the analysis to the handle's path: openat and write of /data/out
    tui_listmodel_set_cursor(hv()->table.lm, 3);
    ck_assert_uint_eq(tui_handles_view_selected(APP), 4);
    tui_app_command(APP, TUI_CMD_FILTER_PATH);
    ck_assert_int_eq(APP->view, TUI_VIEW_ACTIVITIES);
    ck_assert_uint_eq(iodfg_filter_stack_count(APP->filters), 1);
    ck_assert_uint_eq(APP->counts->events_shown, 2);
    ck_assert_uint_eq(APP->counts->activities_shown, 2);
    ck_assert_int_eq(APP->message_error, 0);
    // outside the view it only says where to go
    tui_app_command(APP, TUI_CMD_FILTER_PATH);
    ck_assert_int_eq(APP->message_error, 1);
    ck_assert_uint_eq(iodfg_filter_stack_count(APP->filters), 1);
    // undo removes the filter
    tui_app_command(APP, TUI_CMD_UNDO);
    ck_assert_uint_eq(APP->counts->events_shown, 11);
}
END_TEST

/* A and `:focus`: the runtime's activities folded into a row per class (every key of the test
 * log is the runtime's: the loader's libraries, the terminal, /etc, getpid), the status line
 * counts them, one undo step, kept in the state a session saves. */
START_TEST(test_focus)
{
    struct tui_listmodel *lm = acts()->table.lm;
    char status[512];
    ck_assert_int_eq(iodfg_session_focus(APP->ses), IODFG_FOCUS_ALL); // tui_app_new: all
    tui_app_command(APP, TUI_CMD_VIEW_ACTIVITIES);
    tui_app_command(APP, TUI_CMD_FOCUS);
    ck_assert_int_eq(iodfg_session_focus(APP->ses), IODFG_FOCUS_APP);
    ck_assert_msg(strstr(APP->message, "focus app: 4 runtime activities folded into 4 rows"), "%s",
                  APP->message);
    ck_assert_uint_eq(APP->counts->events_shown, 7); // nothing vanishes
    ck_assert_uint_eq(tui_listmodel_count(lm), 4);
    ck_assert_int_eq(tui_listmodel_sort(lm, TUI_AC_NAME, 0), 0);
    ck_assert_str_eq(first_name(), "runtime:loader");
    tui_app_status(APP, status, sizeof(status));
    ck_assert_msg(strstr(status, "4 activities") && strstr(status, "4 runtime folded (A)"), "%s",
                  status);
    struct iodfg_buf b;
    iodfg_buf_init(&b);
    ck_assert_int_eq(tui_app_snapshot(APP, &b), 0);
    ck_assert_ptr_nonnull(strstr(b.data, "focus app\n"));
    iodfg_buf_fini(&b);
    tui_app_command(APP, TUI_CMD_UNDO);
    ck_assert_int_eq(iodfg_session_focus(APP->ses), IODFG_FOCUS_ALL);
    ck_assert_str_eq(first_name(), "getpid");
    tui_app_status(APP, status, sizeof(status));
    ck_assert_ptr_null(strstr(status, "runtime folded"));
    // the command line: an argument, the same again, a mistake
    tui_app_command_line(APP, "focus app");
    ck_assert_int_eq(iodfg_session_focus(APP->ses), IODFG_FOCUS_APP);
    tui_app_command_line(APP, "focus app");
    ck_assert_str_eq(APP->message, "the focus is app already");
    tui_app_command_line(APP, "focus some");
    ck_assert_int_eq(APP->message_error, 1);
    ck_assert_str_eq(APP->message, "focus takes app or all, not 'some'");
    tui_app_command_line(APP, "focus all");
    ck_assert_int_eq(iodfg_session_focus(APP->ses), IODFG_FOCUS_ALL);
    ck_assert_uint_eq(tui_listmodel_count(lm), 4);
}
END_TEST

/* A new app with focus app (the entry's): the opening state, so u has nothing before it. */
START_TEST(test_focus_opening)
{
    struct iodfg_error err;
    iodfg_error_clear(&err);
    struct tui_app_focus f = {1, NULL, NULL, 0};
    struct tui_app *app = tui_app_new_focused(LOG, 0, "test.h5", NULL, NULL, &f, &err);
    ck_assert_msg(app != NULL, "%s", err.msg);
    ck_assert_int_eq(iodfg_session_focus(tui_app_session(app)), IODFG_FOCUS_APP);
    tui_app_command(app, TUI_CMD_UNDO);
    ck_assert_str_eq(app->message, "nothing to undo");
    tui_app_free(app);
    // class rules of the user's: the loader's libraries are the application's here
    const char *rules = "map path ~ ^/etc/ => system\n";
    struct tui_app_focus g = {1, rules, "site.rules", strlen(rules)};
    app = tui_app_new_focused(LOG, 0, "test.h5", NULL, NULL, &g, &err);
    ck_assert_msg(app != NULL, "%s", err.msg);
    ck_assert_uint_eq(app->counts->activities_shown, 4);
    ck_assert_uint_eq(iodfg_session_focus_counts(tui_app_session(app))->activities_folded, 1);
    tui_app_free(app);
    const char *bad = "map path ~ ^(/etc => system\n";
    struct tui_app_focus h = {1, bad, "bad.rules", strlen(bad)};
    ck_assert_ptr_null(tui_app_new_focused(LOG, 0, "test.h5", NULL, NULL, &h, &err));
    ck_assert_ptr_nonnull(strstr(err.where, "bad.rules"));
}
END_TEST

static Suite *suite(void)
{
    Suite *s = suite_create("tui_app");
    TCase *tc = tcase_create("app");
    tcase_add_checked_fixture(tc, setup, teardown);
    tcase_add_test(tc, test_tables);
    tcase_add_test(tc, test_filter_undo_redo);
    tcase_add_test(tc, test_drilldown);
    tcase_add_test(tc, test_rule_edit_live);
    tcase_add_test(tc, test_groups_diff);
    tcase_add_test(tc, test_command_line);
    tcase_add_test(tc, test_copy_name);
    tcase_add_test(tc, test_rules_add_shadow);
    tcase_add_test(tc, test_timeline);
    tcase_add_test(tc, test_timeline_zoom_bins);
    tcase_add_test(tc, test_timeline_events);
    tcase_add_test(tc, test_cases_variants_enter);
    tcase_add_test(tc, test_session_roundtrip);
    tcase_add_test(tc, test_focus);
    tcase_add_test(tc, test_focus_opening);
    suite_add_tcase(s, tc);
    TCase *tt = tcase_create("timeline");
    tcase_add_checked_fixture(tt, setup_random, teardown);
    tcase_add_test(tt, test_timeline_random);
    tcase_add_test(tt, test_timeline_rebuild);
    tcase_add_test(tt, test_timeline_job_equals_sync);
    tcase_add_test(tt, test_timeline_job_stale);
    tcase_add_test(tt, test_timeline_job_quit);
    suite_add_tcase(s, tt);
    TCase *th = tcase_create("handles");
    tcase_add_checked_fixture(th, setup_handles, teardown);
    tcase_add_test(th, test_handles_table);
    tcase_add_test(th, test_handles_sort_search_open_only);
    tcase_add_test(th, test_handles_filters);
    suite_add_tcase(s, th);
    return s;
}

int main(void)
{
    return testutil_run(suite());
}
