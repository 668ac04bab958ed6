/* SPDX-License-Identifier: MIT */
/* `iodfg insights`: automatic I/O findings (doc/insights.md), ranked, each with its evidence;
 * with --green/--red, the findings of each group and what differs between them. */
#include "config.h"

#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "iodfg/buf.h"
#include "iodfg/diff.h"
#include "iodfg/error.h"
#include "iodfg/insights.h"
#include "iodfg/report_json.h"
#include "iodfg/report_table.h"
#include "iodfg/report_tsv.h"
#include "iodfg/rules.h"
#include "iodfg/session.h"
#include "iodfg/srcline.h"
#include "iodfg/stacks.h"

#include "cmdline/cli_analyze.h"
#include "cli/cli_commands.h"

#define MAX_ASSIGN 64

struct ins_opts {
    struct cli_analyze_opts a;
    enum cli_format format;
    struct iodfg_insight_thresholds t;
    uint8_t on[IODFG_INS__N];
    const char *thresholds_file; /* --thresholds FILE, else the user's config when present */
    const char *assign[MAX_ASSIGN];
    size_t nassign;
};

/* The file:line of a call site from the program's debug information (libdw). */
struct lines {
    struct iodfg_srcline *sl;
    const struct iodfg_eventlog *log;
};

static int frame_line(void *ctx, uint32_t frame, const char **file, int *line)
{
    const struct lines *l = ctx;
    return iodfg_srcline_frame(l->sl, l->log, frame, file, line);
}

/* The file:line of the findings' call sites (a log with strace -k stacks). 0, or -1 with err. */
static int site_lines(struct iodfg_insights *ins, int n, const struct iodfg_eventlog *log,
                      struct iodfg_error *err)
{
    if (!iodfg_eventlog_stacks(log)) {
        return 0;
    }
    struct lines l = {iodfg_srcline_new(NULL), log};
    int rc = l.sl ? 0 : iodfg_error_set(err, IODFG_E_NOMEM, NULL);
    for (int g = 0; rc == 0 && g < n; g++) {
        rc = iodfg_insights_site_lines(&ins[g], frame_line, &l, err);
    }
    iodfg_srcline_free(l.sl); // the insights' pool has copies of the files
    return rc;
}

/* The insights of each selection and what differs between G and R, reported into b. */
static int report(const void *ctx, const struct cli_metrics *m, struct iodfg_buf *b)
{
    const struct ins_opts *o = ctx;
    struct iodfg_insights ins[2];
    iodfg_insights_init(&ins[0]);
    iodfg_insights_init(&ins[1]);
    struct iodfg_report_insights r = {.log = m->log, .map = m->map, .ngroups = m->ngroups};
    struct iodfg_insight_change *changes = NULL;
    struct iodfg_error err;
    iodfg_error_clear(&err);
    int rc = 0;
    for (int g = 0; rc == 0 && g < m->ngroups; g++) {
        r.ins[g] = &ins[g];
        int group = m->ngroups > 1 ? g + 1 : IODFG_GROUP_NONE;
        rc = iodfg_insights_session(&ins[g], m->ses, group, &o->t, o->on, &err);
    }
    if (rc == 0) {
        rc = site_lines(ins, m->ngroups, m->log, &err);
    }
    struct iodfg_diff_story st;
    iodfg_diff_story_init(&st);
    if (rc == 0 && m->ngroups > 1) {
        rc = iodfg_insights_compare(&ins[0], &ins[1], m->map, &changes, &r.nchanges, &err);
        r.changes = changes;
    }
    if (rc == 0 && m->ngroups > 1) { // what differs per case, ranked by the time it explains
        rc = iodfg_diff_story_build(&st, m->ses, &err);
        r.story = &st;
    }
    if (rc == 0) {
        rc = o->format == CLI_FMT_TABLE ? iodfg_report_table_insights(b, &r, &err)
             : o->format == CLI_FMT_TSV ? iodfg_report_tsv_insights(b, &r, &err)
                                        : iodfg_report_json_insights(b, &r, &err);
    }
    if (rc) {
        cli_error(&err);
    }
    free(changes);
    iodfg_diff_story_fini(&st);
    iodfg_insights_fini(&ins[0]);
    iodfg_insights_fini(&ins[1]);
    return rc ? CLI_FAIL : CLI_OK;
}

static const char usage_text[] =
    "usage: iodfg insights [OPTIONS] LOG.h5|TRACES...\n"
    "Automatic I/O findings over the selected events, ranked by severity, each with\n"
    "its numbers, its evidence (activities, cases, files, time window) and a one-line\n"
    "recommendation (doc/insights.md describes every rule). With --green/--red: the\n"
    "findings of each group and what differs between them.\n"
    "\n"
    "      --only LIST         judge only these rules (comma-separated names)\n"
    "      --skip LIST         do not judge these rules\n"
    "      --threshold N=V     set threshold N to V (repeatable; small-size=8192)\n"
    "      --thresholds FILE   'name = value' lines (default: insights.conf in\n"
    "                          $XDG_CONFIG_HOME/iodfg or ~/.config/iodfg if there)\n"
    "      --list              list the rules and the thresholds in force, then exit\n"
    "      --format F          table (default), tsv or json\n";

// Turn the rules of a comma-separated list on (value 1) or off (0).
static int set_rules(uint8_t *on, const char *list, int value, int only)
{
    if (only) {
        memset(on, 0, IODFG_INS__N);
    }
    char buf[1024];
    snprintf(buf, sizeof(buf), "%s", list);
    for (char *save = NULL, *w = strtok_r(buf, ",", &save); w; w = strtok_r(NULL, ",", &save)) {
        enum iodfg_insight_rule r;
        if (iodfg_insight_rule_parse(w, &r)) {
            cli_errorf("unknown insight rule '%s' (iodfg insights --list names them)", w);
            return CLI_USAGE;
        }
        on[r] = (uint8_t)value;
    }
    return CLI_OK;
}

static int load_thresholds(struct ins_opts *o)
{
    if (cli_insight_thresholds_file(o->thresholds_file, &o->t)) {
        return CLI_FAIL;
    }
    struct iodfg_error err;
    iodfg_error_clear(&err);
    for (size_t i = 0; i < o->nassign; i++) {
        if (iodfg_insight_threshold_set(&o->t, o->assign[i], &err)) {
            iodfg_error_at(&err, "--threshold", 1, err.col);
            cli_error_caret(&err, o->assign[i], strlen(o->assign[i]));
            return CLI_USAGE;
        }
    }
    return CLI_OK;
}

static int list_out(const struct ins_opts *o)
{
    printf("rules:\n");
    for (int r = 0; r < IODFG_INS__N; r++) {
        printf("  %-15s %s%s\n", iodfg_insight_rule_name((enum iodfg_insight_rule)r),
               iodfg_insight_rule_title((enum iodfg_insight_rule)r), o->on[r] ? "" : " (off)");
    }
    struct iodfg_buf b;
    iodfg_buf_init(&b);
    int rc = iodfg_insight_thresholds_format(&o->t, &b);
    printf("thresholds:\n");
    for (const char *p = b.data; rc == 0 && p && *p;) {
        const char *nl = strchr(p, '\n');
        printf("  %.*s\n", (int)(nl - p), p);
        p = nl + 1;
    }
    printf("rule presets (--rules NAME):\n");
    const char *summary;
    for (size_t i = 0; iodfg_rules_preset_name(i, &summary); i++) {
        printf("  %-15s %s\n", iodfg_rules_preset_name(i, NULL), summary);
    }
    iodfg_buf_fini(&b);
    if (rc) {
        cli_errorf("out of memory");
    }
    return rc ? CLI_FAIL : CLI_OK;
}

enum { OPT_FORMAT = 512, OPT_ONLY, OPT_SKIP, OPT_THRESHOLD, OPT_THRESHOLDS, OPT_LIST };

static int own_option(struct ins_opts *o, int c, const char *arg, int *list)
{
    switch (c) {
    case OPT_FORMAT:
        return cli_format_parse(arg, &o->format);
    case OPT_ONLY:
    case OPT_SKIP:
        return set_rules(o->on, arg, c == OPT_ONLY, c == OPT_ONLY);
    case OPT_THRESHOLD:
        if (o->nassign == MAX_ASSIGN) {
            cli_errorf("at most %d --threshold options", MAX_ASSIGN);
            return CLI_USAGE;
        }
        o->assign[o->nassign++] = arg;
        return CLI_OK;
    case OPT_THRESHOLDS:
        o->thresholds_file = arg;
        return CLI_OK;
    case OPT_LIST:
        *list = 1;
        return CLI_OK;
    default:
        return cli_analyze_other_option(&o->a, c, arg, usage_text);
    }
}

int cli_insights(int argc, char **argv)
{
    static const struct option own[] = {
        {"format", required_argument, NULL, OPT_FORMAT},
        {"only", required_argument, NULL, OPT_ONLY},
        {"skip", required_argument, NULL, OPT_SKIP},
        {"threshold", required_argument, NULL, OPT_THRESHOLD},
        {"thresholds", required_argument, NULL, OPT_THRESHOLDS},
        {"list", no_argument, NULL, OPT_LIST},
        {"help", no_argument, NULL, 'h'},
        {NULL, 0, NULL, 0},
    };
    struct option longopts[64];
    struct ins_opts o = {.format = CLI_FMT_TABLE};
    memset(o.on, 1, sizeof(o.on));
    iodfg_insight_thresholds_default(&o.t);
    if (cli_analyze_opts_init(&o.a) || cli_analyze_longopts(longopts, 64, own)) {
        cli_analyze_opts_fini(&o.a);
        return CLI_FAIL;
    }
    o.a.focus = IODFG_FOCUS_APP; // the application's findings first
    int rc = CLI_OK, c, list = 0;
    optind = 1;
    while (rc == CLI_OK &&
           (c = getopt_long(argc, argv, CLI_ANALYZE_SHORTOPTS "h", longopts, NULL)) != -1) {
        rc = own_option(&o, c, optarg, &list);
    }
    if (rc == CLI_OK) {
        rc = load_thresholds(&o);
    }
    if (rc == CLI_OK && list) {
        rc = list_out(&o);
        cli_analyze_opts_fini(&o.a);
        return rc;
    }
    if (rc == CLI_OK) {
        rc = cli_analyze_ready(&o.a, argv, optind, argc, "insights", usage_text);
    }
    if (rc == CLI_OK) {
        rc = cli_metrics_command(&o.a, 0, report, &o);
    }
    cli_analyze_opts_fini(&o.a);
    return rc < 0 ? CLI_OK : rc; // -1: --help
}
