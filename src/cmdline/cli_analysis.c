/* SPDX-License-Identifier: MIT */
/* The session an analysing command opens over its inputs (rules -> filters -> mapping -> DFG +
 * statistics -> G/R diff -> pruning), what it says about it on standard error, and the comment
 * that records how it was made. */
#include "config.h"

#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "iodfg/dfg.h"
#include "iodfg/error.h"
#include "iodfg/filter.h"
#include "iodfg/focus.h"
#include "iodfg/report.h"
#include "iodfg/rules.h"
#include "iodfg/session.h"
#include "iodfg/textfile.h"

#include "cli_analyze.h"

int cli_rules_read(const char *path, char **text, size_t *len)
{
    *text = NULL;
    *len = 0;
    if (!path) {
        return CLI_OK;
    }
    struct iodfg_error err;
    iodfg_error_clear(&err);
    if (!(*text = cli_rules_text(path, len, &err))) {
        cli_error(&err);
        return CLI_FAIL;
    }
    if (iodfg_rules_check(*text, *len, path, &err)) {
        cli_error_caret(&err, *text, *len);
        return CLI_FAIL;
    }
    return CLI_OK;
}

// The focus and its classes: --focus-rules FILE, else the user's focus.rules when there, else
// the built-in ones (a file is read only when the focus is app or the file was given).
static int set_focus(struct iodfg_session *ses, const struct cli_analyze_opts *o)
{
    char user[4096];
    const char *path = o->focus_rules;
    if (!path && o->focus == IODFG_FOCUS_APP && iodfg_focus_user_path(user, sizeof(user)) == 0 &&
        access(user, F_OK) == 0) {
        path = user;
    }
    iodfg_session_set_focus(ses, (enum iodfg_focus_mode)o->focus);
    if (!path) {
        return CLI_OK;
    }
    struct iodfg_error err;
    iodfg_error_clear(&err);
    size_t len;
    char *text = iodfg_textfile_read(path, "focus rules file", CLI_RULES_MAX, &len, &err);
    if (!text) {
        cli_error(&err);
        return CLI_FAIL;
    }
    int rc = iodfg_session_set_focus_rules(ses, text, len, path, &err);
    if (rc) {
        cli_error_caret(&err, text, len);
    }
    free(text);
    return rc ? CLI_FAIL : CLI_OK;
}

int cli_session_inputs(struct iodfg_session *ses, const struct cli_analyze_opts *o, int *groups)
{
    struct iodfg_error err;
    iodfg_error_clear(&err);
    if (set_focus(ses, o)) {
        return CLI_FAIL;
    }
    iodfg_session_set_per_pid(ses, o->per_pid);
    // the groups first: with a job (iodfg-mpi) their check is collective, so no part may have
    // left before it
    if (o->green || o->red) {
        if (iodfg_session_set_groups(ses, o->green, o->red, &err)) {
            cli_error(&err);
            return CLI_FAIL;
        }
        iodfg_session_set_groups_restrict(ses, 1);
        *groups = 1;
    }
    struct iodfg_filter_stack *fs = iodfg_session_filters(ses);
    for (size_t i = 0; i < iodfg_filter_stack_count(o->filters); i++) {
        struct iodfg_buf b;
        iodfg_buf_init(&b);
        iodfg_filter_format(iodfg_filter_stack_get(o->filters, i), &b);
        int rc = b.failed ? iodfg_error_set(&err, IODFG_E_NOMEM, NULL)
                          : iodfg_filter_stack_push_text(fs, b.data, &err);
        iodfg_buf_fini(&b);
        if (rc) {
            cli_error(&err);
            return CLI_FAIL;
        }
    }
    return CLI_OK;
}

int cli_session_open(const struct cli_analyze_opts *o, char *const *inputs, size_t n,
                     unsigned columns, struct iodfg_eventlog **log, struct iodfg_session **ses,
                     int *groups)
{
    *log = NULL;
    *ses = NULL;
    *groups = 0;
    char *rules = NULL;
    size_t rules_len = 0;
    int rc = cli_rules_read(o->rules_path, &rules, &rules_len);
    struct iodfg_error err;
    iodfg_error_clear(&err);
    struct cli_ingest_totals totals;
    if (rc == CLI_OK &&
        (!(*log = cli_load(inputs, n, columns, &o->ingest, &totals, &err)) ||
         cli_callsites_split(*log, o->focus_rules, &err) ||
         !(*ses = iodfg_session_new(*log, &err)) ||
         (rules && iodfg_session_set_rules(*ses, rules, rules_len, o->rules_path, &err)))) {
        cli_error(&err);
        rc = CLI_FAIL;
    }
    free(rules);
    if (rc != CLI_OK) {
        return rc;
    }
    if (!o->ingest.quiet && totals.counts[IODFG_COUNT_UNPARSABLE]) {
        cli_errorf("note: skipped %llu unparsable line(s); the first: %s",
                   (unsigned long long)totals.counts[IODFG_COUNT_UNPARSABLE], totals.first_problem);
    }
    return cli_session_inputs(*ses, o, groups);
}

void cli_clock_note(const struct iodfg_session *ses, const uint8_t *case_on, int quiet)
{
    uint32_t n[IODFG_CLOCK__N];
    char text[200];
    int used = iodfg_session_clocks(ses, case_on, n); // over the whole log, even when quiet
    if (quiet || used < 2) {
        return;
    }
    iodfg_report_clocks(n, text, sizeof(text));
    cli_errorf("note: the cases use different clocks (%s cases): times of different clocks are "
               "never compared; mc, concurrency and bandwidth over time are computed per clock "
               "(--align start compares the cases as if they started together)",
               text);
}

/* ---- an analysis ---- */

void cli_analysis_init(struct cli_analysis *ca)
{
    memset(ca, 0, sizeof(*ca));
    iodfg_buf_init(&ca->comment);
}

void cli_analysis_fini(struct cli_analysis *ca)
{
    iodfg_buf_fini(&ca->comment);
    iodfg_session_free(ca->ses);
    iodfg_eventlog_free(ca->log);
    memset(ca, 0, sizeof(*ca));
}

unsigned cli_analysis_columns(const struct cli_analyze_opts *o)
{
    // pid only tells cases apart with --per-pid: 4 bytes per event less to load otherwise; the
    // stacks of a strace -k log give rules and filters their `site` field
    return (IODFG_COL_ANALYSIS & ~(o->per_pid ? 0u : (unsigned)IODFG_COL_PID)) | IODFG_COL_STACKS;
}

// The filter stack's text (predicates joined by "and") into b.
static void stack_text(struct iodfg_buf *b, const struct iodfg_filter_stack *fs)
{
    if (fs) {
        iodfg_filter_stack_format(fs, " and ", b);
    }
}

// The rules as the comment gives them: their file and text, or the default.
static void rules_comment(struct iodfg_buf *b, const struct cli_analysis *ca,
                          const struct cli_analyze_opts *o)
{
    const struct iodfg_rules *rules = iodfg_session_rules(ca->ses);
    if (!o->rules_path || !iodfg_rules_count(rules)) {
        iodfg_buf_addf(b, "\nrules: default f-hat (call + path cut to two levels)\n");
        return;
    }
    iodfg_buf_addf(b, "\nrules: %s\n", o->rules_path);
    struct iodfg_buf r;
    iodfg_buf_init(&r);
    iodfg_rules_format(rules, &r);
    for (const char *p = r.data; p && *p;) {
        const char *nl = strchr(p, '\n');
        size_t len = nl ? (size_t)(nl - p) : strlen(p);
        iodfg_buf_add(b, "  ", 2);
        iodfg_buf_add(b, p, len);
        iodfg_buf_add(b, "\n", 1);
        p += len + (nl != NULL);
    }
    iodfg_buf_fini(&r);
}

void cli_analysis_comment(struct cli_analysis *ca, const struct cli_analyze_opts *o,
                          const char *command)
{
    struct iodfg_buf *b = &ca->comment;
    iodfg_buf_addf(b, "iodfg %s", command);
    for (size_t i = 0; i < o->ninputs; i++) {
        iodfg_buf_addf(b, " %s", o->inputs[i]);
    }
    rules_comment(b, ca, o);
    for (size_t i = 0; i < iodfg_filter_stack_count(o->filters); i++) {
        iodfg_buf_addf(b, "filter: ");
        iodfg_filter_format(iodfg_filter_stack_get(o->filters, i), b);
        iodfg_buf_addf(b, "\n");
    }
    const struct iodfg_session_counts *k = iodfg_session_counts(ca->ses);
    if (ca->groups) {
        iodfg_buf_addf(b, "green (G, %u cases): ", k->g_cases);
        o->green ? stack_text(b, o->green) : (void)iodfg_buf_addf(b, "all other cases");
        iodfg_buf_addf(b, "\nred (R, %u cases): ", k->r_cases);
        o->red ? stack_text(b, o->red) : (void)iodfg_buf_addf(b, "all other cases");
        iodfg_buf_addf(b, "\n");
    }
    if (k->rules_limited) {
        iodfg_buf_addf(b,
                       "rules: %u key%s hit the PCRE2 match limit at rule line %lu (that rule "
                       "counted as not matching)\n",
                       k->rules_limited, k->rules_limited == 1 ? "" : "s", k->limit_line);
    }
    iodfg_buf_addf(b, "cases: %s", o->per_pid ? "per (trace file, pid)" : "per trace file");
}

// What the user should know of the results: empty groups, mixed clocks, rules at their match
// limit, nothing left.
static void notes(const struct cli_analysis *ca, const struct cli_analyze_opts *o)
{
    const struct iodfg_session_counts *k = iodfg_session_counts(ca->ses);
    int quiet = o->ingest.quiet;
    if (ca->groups && !quiet && !k->g_cases) {
        cli_errorf("note: group G has no case among the selected ones");
    }
    if (ca->groups && !quiet && !k->r_cases) {
        cli_errorf("note: group R has no case among the selected ones");
    }
    struct iodfg_selection sel;
    iodfg_session_selection(ca->ses, IODFG_GROUP_NONE, &sel);
    cli_clock_note(ca->ses, sel.case_on, quiet);
    if (!quiet && k->rules_limited) {
        cli_errorf("note: for %u key%s a regex of rule line %lu hit the PCRE2 match limit; that "
                   "rule counted as not matching and the next one decided",
                   k->rules_limited, k->rules_limited == 1 ? "" : "s", k->limit_line);
    }
    if (!quiet && iodfg_dfg_traces(iodfg_session_dfg(ca->ses)) == 0) {
        cli_errorf("note: no event is left after the rules and filters");
    }
}

int cli_analysis_build(struct cli_analysis *ca, const struct cli_analyze_opts *o,
                       const char *command)
{
    struct iodfg_error err;
    iodfg_error_clear(&err);
    if (iodfg_session_rebuild(ca->ses, &err)) {
        cli_error(&err);
        return CLI_FAIL;
    }
    notes(ca, o);
    cli_analysis_comment(ca, o, command);
    if (ca->comment.failed) {
        cli_errorf("out of memory");
        return CLI_FAIL;
    }
    return CLI_OK;
}

int cli_analysis_run(struct cli_analysis *ca, const struct cli_analyze_opts *o, const char *command)
{
    int rc = cli_session_open(o, o->inputs, o->ninputs, cli_analysis_columns(o), &ca->log, &ca->ses,
                              &ca->groups);
    return rc == CLI_OK ? cli_analysis_build(ca, o, command) : rc;
}
