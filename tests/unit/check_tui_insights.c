/* SPDX-License-Identifier: MIT */
/* Tests of the TUI's Insights view (views/insights*.c): findings judged through the session and
 * again after a rule change, the view a finding's evidence is shown in, Enter's filters and
 * selection, Backspace back (nested, and the oldest of too many jumps forgotten), and the
 * rule presets loaded as an undoable rule edit. */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <check.h>

#include "iodfg/buf.h"
#include "iodfg/error.h"
#include "iodfg/eventlog.h"
#include "iodfg/filter.h"
#include "iodfg/rules.h"

#include "dfg_testlog.h"
#include "testutil.h"
#include "tui/app.h"
#include "tui/app_priv.h"
#include "tui/listmodel.h"
#include "tui/views/insights_view.h"

static struct iodfg_eventlog *LOG;
static struct tui_app *APP;

/* seek_host1_0: 40 lseek + write pairs on one descriptor (seek-io, an edge); two other cases
 * read once each. */
static void setup(void)
{
    LOG = iodfg_eventlog_new(IODFG_COL_ALL);
    ck_assert_ptr_nonnull(LOG);
    struct iodfg_buf b;
    iodfg_buf_init(&b);
    for (int i = 0; i < 40; i++) {
        iodfg_buf_addf(&b,
                       "9054 1700000000.%06d lseek(3</scratch/run/f>, %d, SEEK_SET) = %d "
                       "<0.000100>\n"
                       "9054 1700000000.%06d write(3</scratch/run/f>, \"x\", 65536) = 65536 "
                       "<0.000200>\n",
                       1000 + i * 1000, i * 131072, i * 131072, 1500 + i * 1000);
    }
    tlog_add_case_cid(LOG, "seek_host1_0", "seek", b.data);
    iodfg_buf_fini(&b);
    tlog_add_case_cid(
        LOG, "other_host1_1", "other",
        "9055 1700000000.000100 read(3</etc/passwd>, \"x\", 4096) = 100 <0.000020>\n");
    tlog_add_case_cid(
        LOG, "other_host1_2", "other",
        "9056 1700000000.000200 read(3</etc/passwd>, \"x\", 4096) = 100 <0.000020>\n");
    struct iodfg_error err;
    iodfg_error_clear(&err);
    APP = tui_app_new(LOG, 1, "seek.h5", NULL, NULL, &err);
    ck_assert_msg(APP != NULL, "%s", err.msg);
}

static void teardown(void)
{
    tui_app_free(APP);
}

static struct tui_insights_view *view(void)
{
    return tui_app_view_state(APP, TUI_VIEW_INSIGHTS);
}

/* Show the Insights view with the cursor on the first finding of rule r. */
static const struct tui_ins_row *show_rule(enum iodfg_insight_rule r)
{
    tui_app_command(APP, TUI_CMD_VIEW_INSIGHTS);
    struct tui_listmodel *lm = tui_app_table(APP);
    ck_assert_ptr_nonnull(lm);
    for (size_t i = 0; i < tui_listmodel_count(lm); i++) {
        tui_listmodel_set_cursor(lm, i);
        const struct tui_ins_row *row = tui_insights_selected(view());
        if (row && row->f->rule == r) {
            return row;
        }
    }
    ck_abort_msg("no %s finding", iodfg_insight_rule_name(r));
    return NULL;
}

static const char *filters_text(char *buf, size_t size)
{
    struct iodfg_buf b;
    iodfg_buf_init(&b);
    iodfg_filter_stack_format(APP->filters, " ", &b);
    snprintf(buf, size, "%s", b.data ? b.data : "");
    iodfg_buf_fini(&b);
    return buf;
}

START_TEST(test_findings_and_target)
{
    const struct tui_ins_row *row = show_rule(IODFG_INS_SEEK_IO);
    ck_assert_int_eq(row->f->subject_kind, IODFG_SUBJ_EDGE);
    ck_assert_int_eq(row->mark, TUI_INS_PLAIN);
    ck_assert_int_eq(tui_insights_target(row->f), TUI_VIEW_GRAPH);
    ck_assert_str_eq(tui_app_activity_name(APP, row->f->subject), "lseek:/scratch/run");
    ck_assert_str_eq(tui_app_activity_name(APP, row->f->subject2), "write:/scratch/run");
    char d[512] = "";
    tui_view_ops(TUI_VIEW_INSIGHTS)->detail(APP, view(), d, sizeof(d));
    ck_assert_msg(strstr(d, "Enter shows the evidence in 3 Graph") != NULL, "%s", d);
    // the TSV export: exact impact shares
    struct iodfg_buf out;
    iodfg_buf_init(&out);
    struct iodfg_error err;
    iodfg_error_clear(&err);
    ck_assert_int_eq(tui_app_export_tsv(APP, &out, &err), 0);
    ck_assert_msg(strncmp(out.data, "side\tseverity\trule\timpact_share\tfinding\n", 40) == 0, "%s",
                  out.data);
    char want[128];
    snprintf(want, sizeof(want), "\tseek-io\t%.6f\tlseek:/scratch/run -> write:/scratch/run\n",
             row->f->impact);
    ck_assert_msg(strstr(out.data, want) != NULL, "%s", out.data);
    iodfg_buf_fini(&out);
    // a finding names its view from its rule first
    struct iodfg_insight f = *row->f;
    f.rule = IODFG_INS_IMBALANCE;
    ck_assert_int_eq(tui_insights_target(&f), TUI_VIEW_CASES);
    f.rule = IODFG_INS_RANDOM_ACCESS;
    ck_assert_int_eq(tui_insights_target(&f), TUI_VIEW_CHARZ);
    f.rule = IODFG_INS_STAIR_CASE;
    ck_assert_int_eq(tui_insights_target(&f), TUI_VIEW_TIMELINE);
    f.has_window = 0;
    ck_assert_int_eq(tui_insights_target(&f), TUI_VIEW_GRAPH);
    f.subject_kind = IODFG_SUBJ_NONE;
    f.nact = f.ncases = 0;
    ck_assert_int_eq(tui_insights_target(&f), TUI_VIEW_COUNT);
}
END_TEST

START_TEST(test_jump_and_back)
{
    char buf[512];
    show_rule(IODFG_INS_SEEK_IO);
    size_t cursor = tui_listmodel_cursor(tui_app_table(APP));
    tui_app_command(APP, TUI_CMD_JUMP);
    ck_assert_int_eq(APP->view, TUI_VIEW_GRAPH);
    ck_assert_str_eq(filters_text(buf, sizeof(buf)), "name=seek_host1_0");
    ck_assert_uint_eq(APP->counts->cases_selected, 1);
    ck_assert_str_eq(tui_app_activity_name(APP, tui_app_selected_activity(APP)),
                     "lseek:/scratch/run");
    ck_assert_msg(strstr(APP->message, "Backspace comes back") != NULL, "%s", APP->message);
    // a second jump from the filtered selection: one case, nothing more to filter
    show_rule(IODFG_INS_SEEK_IO);
    tui_app_command(APP, TUI_CMD_JUMP);
    ck_assert_int_eq(APP->view, TUI_VIEW_GRAPH);
    ck_assert_uint_eq(iodfg_filter_stack_count(APP->filters), 1);
    ck_assert_uint_eq(view()->njumps, 2);
    // back twice: each to the Insights view as it was
    tui_app_command(APP, TUI_CMD_JUMP_BACK);
    ck_assert_int_eq(APP->view, TUI_VIEW_INSIGHTS);
    ck_assert_uint_eq(iodfg_filter_stack_count(APP->filters), 1);
    tui_app_command(APP, TUI_CMD_JUMP_BACK);
    ck_assert_int_eq(APP->view, TUI_VIEW_INSIGHTS);
    ck_assert_uint_eq(iodfg_filter_stack_count(APP->filters), 0);
    ck_assert_uint_eq(APP->counts->cases_selected, 3);
    ck_assert_uint_eq(tui_listmodel_cursor(tui_app_table(APP)), cursor);
    // no jump left: Backspace pops a filter, here none
    tui_app_command(APP, TUI_CMD_JUMP_BACK);
    ck_assert_str_eq(APP->message, "no filter to remove");
    // the jump's filter is an ordinary one: undo takes it back too
    show_rule(IODFG_INS_SEEK_IO);
    tui_app_command(APP, TUI_CMD_JUMP);
    ck_assert_uint_eq(iodfg_filter_stack_count(APP->filters), 1);
    tui_app_command(APP, TUI_CMD_UNDO);
    ck_assert_uint_eq(iodfg_filter_stack_count(APP->filters), 0);
}
END_TEST

START_TEST(test_many_jumps)
{
    for (int i = 0; i < TUI_INS_JUMPS + 1; i++) {
        show_rule(IODFG_INS_SEEK_IO);
        tui_app_command(APP, TUI_CMD_JUMP);
        ck_assert_int_eq(APP->view, TUI_VIEW_GRAPH);
    }
    ck_assert_uint_eq(view()->njumps, TUI_INS_JUMPS);
    for (int i = 0; i < TUI_INS_JUMPS; i++) {
        ck_assert_int_eq(tui_app_back(APP), 1);
    }
    // the first jump (from the unfiltered selection) was forgotten: its filter stays
    ck_assert_int_eq(tui_app_back(APP), 0);
    ck_assert_uint_eq(iodfg_filter_stack_count(APP->filters), 1);
}
END_TEST

START_TEST(test_presets)
{
    ck_assert_uint_eq(tui_app_command(APP, TUI_CMD_RULE_PRESET) & TUI_PROMPT, TUI_PROMPT);
    ck_assert_int_eq(APP->prompt, TUI_PROMPT_PRESET);
    ck_assert_str_eq(APP->prompt_label, "rule preset (default, hpc)");
    tui_app_prompt_done(APP, "hpc");
    ck_assert_str_eq(APP->message, "rules: preset hpc loaded (u undoes)");
    struct iodfg_buf b;
    iodfg_buf_init(&b);
    iodfg_rules_format(APP->rules, &b);
    ck_assert_ptr_nonnull(strstr(b.data, "# hpc: "));
    iodfg_buf_fini(&b);
    // the findings follow the new rules: judged again, the same edge under its hpc names
    const struct tui_ins_row *row = show_rule(IODFG_INS_SEEK_IO);
    ck_assert_str_eq(tui_app_activity_name(APP, row->f->subject), "lseek:/scratch/run");
    tui_app_command(APP, TUI_CMD_UNDO);
    iodfg_buf_init(&b);
    iodfg_rules_format(APP->rules, &b);
    ck_assert_ptr_null(strstr(b.data, "# hpc: "));
    iodfg_buf_fini(&b);
    // an unknown name changes nothing
    tui_app_command(APP, TUI_CMD_RULE_PRESET);
    tui_app_prompt_done(APP, "nosuch");
    ck_assert_int_eq(APP->message_error, 1);
    ck_assert_str_eq(APP->message, "rule-preset: no preset called nosuch");
}
END_TEST

static Suite *suite(void)
{
    Suite *s = suite_create("tui_insights");
    TCase *tc = tcase_create("core");
    tcase_add_checked_fixture(tc, setup, teardown);
    tcase_add_test(tc, test_findings_and_target);
    tcase_add_test(tc, test_jump_and_back);
    tcase_add_test(tc, test_many_jumps);
    tcase_add_test(tc, test_presets);
    suite_add_tcase(s, tc);
    return s;
}

int main(void)
{
    return testutil_run(suite());
}
