/* SPDX-License-Identifier: MIT */
/* Shared by `iodfg dfg` and `iodfg stats`: rule, filter, group and case options, building the
 * analysis (rules -> filters -> mapping -> DFG + statistics -> G/R diff -> pruning) and the
 * output file. */
#include "config.h"

#include <errno.h>
#include <getopt.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "iodfg/analysis.h"
#include "iodfg/atomicfile.h"
#include "iodfg/buf.h"
#include "iodfg/casename.h"
#include "iodfg/dfg.h"
#include "iodfg/diff.h"
#include "iodfg/error.h"
#include "iodfg/filter.h"
#include "iodfg/focus.h"
#include "iodfg/ingest.h"
#include "iodfg/mapping.h"
#include "iodfg/rules.h"
#include "iodfg/sanitize.h"
#include "iodfg/session.h"
#include "iodfg/stats.h"
#include "iodfg/textfile.h"

#include "cli.h"

enum {
    OPT_FILTER = 256,
    OPT_PATH,
    OPT_CALL,
    OPT_CASE,
    OPT_TIME,
    OPT_MIN_EDGE,
    OPT_TOP_ACT,
    OPT_GREEN,
    OPT_RED,
    OPT_PER_PID,
    OPT_ALIGN,
    OPT_FOCUS,
    OPT_FOCUS_RULES,
};

static const struct option shared_longopts[] = {
    {"rules", required_argument, NULL, 'r'},
    {"filter", required_argument, NULL, OPT_FILTER},
    {"path", required_argument, NULL, OPT_PATH},
    {"call", required_argument, NULL, OPT_CALL},
    {"case", required_argument, NULL, OPT_CASE},
    {"time", required_argument, NULL, OPT_TIME},
    {"min-edge", required_argument, NULL, OPT_MIN_EDGE},
    {"top-activities", required_argument, NULL, OPT_TOP_ACT},
    {"green", required_argument, NULL, OPT_GREEN},
    {"red", required_argument, NULL, OPT_RED},
    {"per-pid", no_argument, NULL, OPT_PER_PID},
    {"output", required_argument, NULL, 'o'},
    {"force", no_argument, NULL, 'f'},
    {"quiet", no_argument, NULL, 'q'},
    CLI_INGEST_LONGOPTS,
    {"align", required_argument, NULL, OPT_ALIGN},
    {"focus", required_argument, NULL, OPT_FOCUS},
    {"focus-rules", required_argument, NULL, OPT_FOCUS_RULES},
};
#define NSHARED (sizeof(shared_longopts) / sizeof(shared_longopts[0]))

const char cli_analyze_usage[] =
    "  -r, --rules FILE        mapping rules (doc/rules.md); default: the f-hat of\n"
    "                          Sankaran et al. 2024 (call + path cut to two levels);\n"
    "                          a preset name: default, hpc (per-process names folded)\n"
    "      --filter F          a filter (repeatable, ANDed): 'cid=a,b', 'name~^b_',\n"
    "                          'call=read,write', 'path~^/scratch', 'kind!=pipe',\n"
    "                          'time=0.5..2', 'minedge=5', 'top=20'\n"
    "      --path RE           same as --filter 'path~RE'\n"
    "      --call LIST         same as --filter 'call=LIST'\n"
    "      --case PRED         a case predicate, e.g. 'cid=ssf' or 'host!=n1'\n"
    "      --time A..B         same as --filter 'time=A..B' (seconds from the start)\n"
    "      --min-edge N        hide edges seen fewer than N times ('minedge=N')\n"
    "      --top-activities K  keep the K most frequent activities ('top=K')\n"
    "      --green P, --red P  compare case groups G and R (case predicates,\n"
    "                          repeatable, ANDed); one alone makes the other group\n"
    "                          every remaining case\n"
    "      --per-pid           a case is (trace file, pid) instead of the trace file\n"
    "  -o, --output FILE       write FILE atomically instead of standard output\n"
    "  -f, --force             replace an existing output FILE\n"
    "  -p, --name-pattern P    how trace file names give cid, host and rid\n"
    "  -j, --jobs N            parse N trace files at a time\n"
    "  -q, --quiet             no progress bar and no notes on standard error\n"
    "      --mounts FILE       mount table giving each file's fs, fstype and scope;\n"
    "                          default: mounts.txt beside the traces, else built in\n"
    "      --align start       compare cases as if they started together (each case's\n"
    "                          times from its first event); cases whose clocks differ\n"
    "                          (strace -tt and -ttt) are otherwise never compared\n"
    "      --focus app|all     app: fold each runtime class (loader, system look-ups,\n"
    "                          MPI runtime, calls on no file, terminal) into one\n"
    "                          activity 'runtime:CLASS' (default for insights); all:\n"
    "                          every activity as the rules give it (default)\n"
    "      --focus-rules FILE  the classes (doc/rules.md, Focus); default: the\n"
    "                          focus.rules of the user's configuration directory\n"
    "                          if there, else the built-in ones\n";

int cli_analyze_opts_init(struct cli_analyze_opts *o)
{
    memset(o, 0, sizeof(*o));
    o->filters = iodfg_filter_stack_new();
    if (!o->filters) {
        cli_errorf("out of memory");
        return -1;
    }
    return 0;
}

void cli_analyze_opts_fini(struct cli_analyze_opts *o)
{
    iodfg_filter_stack_free(o->filters);
    iodfg_filter_stack_free(o->green);
    iodfg_filter_stack_free(o->red);
    memset(o, 0, sizeof(*o));
}

int cli_analyze_longopts(struct option *out, size_t cap, const struct option *own)
{
    size_t n = 0;
    for (size_t i = 0; i < NSHARED; i++) {
        if (n + 1 >= cap) {
            return -1;
        }
        out[n++] = shared_longopts[i];
    }
    for (; own && own->name; own++) {
        if (n + 1 >= cap) {
            return -1;
        }
        out[n++] = *own;
    }
    memset(&out[n], 0, sizeof(out[n]));
    return 0;
}

// Parse `text` (built from option `opt`) as one filter; when want_case, it must be a case
// predicate. Pushes it onto *stack (created on demand). 0 or CLI_USAGE after a message.
static int push_filter(struct iodfg_filter_stack **stack, const char *opt, const char *text,
                       int want_case)
{
    struct iodfg_error err;
    iodfg_error_clear(&err);
    struct iodfg_filter *f = iodfg_filter_parse(text, strlen(text), &err);
    if (!f) {
        iodfg_error_at(&err, opt, 1, 0);
        cli_error_caret(&err, text, strlen(text));
        return CLI_USAGE;
    }
    if (want_case && iodfg_filter_kind(f) != IODFG_FILTER_CASE) {
        cli_errorf("%s takes a case predicate (cid, host, rid, name or source; e.g. 'cid=ssf'), "
                   "not '%s'",
                   opt, text);
        iodfg_filter_free(f);
        return CLI_USAGE;
    }
    if (!*stack && !(*stack = iodfg_filter_stack_new())) {
        iodfg_filter_free(f);
        cli_errorf("out of memory");
        return CLI_USAGE;
    }
    if (iodfg_filter_stack_push(*stack, f, &err)) {
        cli_error(&err);
        return CLI_USAGE;
    }
    return 0;
}

// "PREFIX" + arg as a filter text, pushed onto the filters.
static int push_short(struct cli_analyze_opts *o, const char *opt, const char *prefix,
                      const char *arg)
{
    size_t n = strlen(prefix) + strlen(arg) + 1;
    char *text = malloc(n);
    if (!text) {
        cli_errorf("out of memory");
        return CLI_USAGE;
    }
    snprintf(text, n, "%s%s", prefix, arg);
    int rc = push_filter(&o->filters, opt, text, 0);
    free(text);
    return rc;
}

int cli_analyze_getopt(int argc, char **argv, const struct option *own,
                       int (*option)(void *ctx, int c, const char *arg), void *ctx,
                       void (*usage)(FILE *out), const char *command)
{
    struct option longopts[64];
    if (cli_analyze_longopts(longopts, sizeof(longopts) / sizeof(longopts[0]), own)) {
        cli_errorf("internal error: too many options");
        return CLI_FAIL;
    }
    int c;
    optind = 1;
    while ((c = getopt_long(argc, argv, CLI_ANALYZE_SHORTOPTS "h", longopts, NULL)) != -1) {
        if (c == 'h') {
            usage(stdout);
            return -1;
        }
        int rc = c == '?' ? 1 : option(ctx, c, optarg);
        if (rc == 1) {
            usage(stderr);
            return CLI_USAGE;
        }
        if (rc == CLI_USAGE) {
            fprintf(stderr, "('iodfg %s --help' lists the options)\n", command);
            return CLI_USAGE;
        }
    }
    return 0;
}

int cli_analyze_option(struct cli_analyze_opts *o, int c, const char *arg)
{
    switch (c) {
    case 'r':
        o->rules_path = arg;
        return 0;
    case OPT_FILTER:
        return push_filter(&o->filters, "--filter", arg, 0);
    case OPT_PATH:
        return push_short(o, "--path", "path~", arg);
    case OPT_CALL:
        return push_short(o, "--call", "call=", arg);
    case OPT_CASE:
        return push_filter(&o->filters, "--case", arg, 1);
    case OPT_TIME:
        return push_short(o, "--time", "time=", arg);
    case OPT_MIN_EDGE:
        return push_short(o, "--min-edge", "minedge=", arg);
    case OPT_TOP_ACT:
        return push_short(o, "--top-activities", "top=", arg);
    case OPT_GREEN:
        return push_filter(&o->green, "--green", arg, 1);
    case OPT_RED:
        return push_filter(&o->red, "--red", arg, 1);
    case OPT_PER_PID:
        o->per_pid = 1;
        return 0;
    case 'o':
        o->output = arg;
        return 0;
    case 'f':
        o->force = 1;
        return 0;
    case 'q':
        o->ingest.quiet = 1;
        return 0;
    case OPT_ALIGN:
        return cli_opt_align(arg, &o->ingest.align_starts);
    case OPT_FOCUS:
        if (strcmp(arg, "app") && strcmp(arg, "all")) {
            cli_errorf("--focus takes app or all, not '%s'", arg);
            return CLI_USAGE;
        }
        o->focus = strcmp(arg, "app") == 0 ? IODFG_FOCUS_APP : IODFG_FOCUS_ALL;
        return 0;
    case OPT_FOCUS_RULES:
        o->focus_rules = arg;
        return 0;
    default:
        return cli_ingest_option(c, arg, &o->ingest);
    }
}

int cli_analyze_other_option(struct cli_analyze_opts *o, int c, const char *arg, const char *usage)
{
    if (c == 'h') {
        cli_usage_put(usage, stdout);
        fputs(cli_analyze_usage, stdout);
        return -1;
    }
    int r = cli_analyze_option(o, c, arg);
    if (r == 1) {
        cli_usage_put(usage, stderr);
        return CLI_USAGE;
    }
    return r;
}

int cli_analyze_ready(const struct cli_analyze_opts *o, char *const *argv, int optind_, int argc,
                      const char *what, const char *usage)
{
    int rc = cli_need_inputs(optind_, argc, what, usage);
    return rc == CLI_OK ? cli_output_check(o, (const char *const *)(argv + optind_),
                                           (size_t)(argc - optind_))
                        : rc;
}

/* ---- output ----------------------------------------------------------------- */

int cli_output_check(const struct cli_analyze_opts *o, const char *const *inputs, size_t n)
{
    if (o->output && !o->force && access(o->output, F_OK) == 0) {
        cli_errorf("%s exists; add --force to replace it", o->output);
        return CLI_FAIL;
    }
    if (!o->output || !o->force || access(o->output, F_OK) != 0) {
        return CLI_OK;
    }
    // the files given and every trace of a directory given, listed as the load will list them
    // (a listing that fails is the load's to report: nothing is written then)
    struct iodfg_error err;
    iodfg_error_clear(&err);
    struct iodfg_casename *names = iodfg_casename_new(o->ingest.name_pattern, &err);
    struct iodfg_input_list files;
    int rc = CLI_OK;
    if (names && iodfg_ingest_list(inputs, n, names, &files, &err) == 0) {
        if (iodfg_ingest_list_check_output(&files, o->output, &err)) {
            cli_error(&err);
            rc = CLI_FAIL;
        }
        iodfg_ingest_list_fini(&files);
    }
    iodfg_casename_free(names);
    return rc;
}

int cli_output_write(const struct cli_analyze_opts *o, const struct iodfg_buf *b)
{
    if (!cli_job_writes()) {
        return CLI_OK;
    }
    if (b->failed) {
        cli_errorf("out of memory");
        return CLI_FAIL;
    }
    if (!o->output) {
        if ((b->len && fwrite(b->data, 1, b->len, stdout) != b->len) || fflush(stdout)) {
            cli_errorf("writing to standard output failed: %s", strerror(errno));
            return CLI_FAIL;
        }
        return CLI_OK;
    }
    struct iodfg_error err;
    iodfg_error_clear(&err);
    if (iodfg_atomic_write(o->output, b->data ? b->data : "", b->len, o->force, &err)) {
        if (err.code == IODFG_E_EXISTS) {
            cli_errorf("%s exists; add --force to replace it", o->output);
        } else {
            cli_error(&err);
        }
        return CLI_FAIL;
    }
    return CLI_OK;
}

int cli_write_all(int fd, const char *data, size_t n)
{
    while (n) {
        ssize_t w = write(fd, data, n);
        if (w < 0 && errno == EINTR) {
            continue;
        }
        if (w <= 0) {
            return -1;
        }
        data += w;
        n -= (size_t)w;
    }
    return 0;
}

int cli_output_stream(const struct cli_analyze_opts *o, int (*produce)(void *ctx, int fd),
                      void *ctx)
{
    if (!cli_job_writes()) {
        return CLI_OK;
    }
    if (!o->output) {
        fflush(stdout);
        return produce(ctx, STDOUT_FILENO);
    }
    struct iodfg_error err;
    iodfg_error_clear(&err);
    char *tmp = NULL;
    cli_temp_hold();
    int fd = iodfg_atomic_tmpfile(o->output, &tmp, &err);
    if (fd < 0) {
        cli_temp_forget();
        cli_error(&err);
        return CLI_FAIL;
    }
    cli_temp_guard(tmp);
    int rc = produce(ctx, fd);
    if (close(fd) && rc == CLI_OK) {
        cli_errorf("%s: %s", o->output, strerror(errno));
        rc = CLI_FAIL;
    }
    if (rc == CLI_OK && iodfg_atomic_publish(tmp, o->output, o->force, &err)) {
        if (err.code == IODFG_E_EXISTS) {
            cli_errorf("%s exists; add --force to replace it", o->output);
        } else {
            cli_error(&err);
        }
        rc = CLI_FAIL;
    }
    if (rc != CLI_OK) {
        unlink(tmp);
    }
    cli_temp_forget();
    free(tmp);
    return rc;
}

/* ---- building the analysis -------------------------------------------------- */

// The rules file, checked (a typo fails before a long load); *text is the caller's to free.
static int read_rules(const char *path, char **text, size_t *len)
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

// The filter stack's text (predicates joined by "and") into b.
static void stack_text(struct iodfg_buf *b, const struct iodfg_filter_stack *fs)
{
    if (fs) {
        iodfg_filter_stack_format(fs, " and ", b);
    }
}

// Filters, groups (which then bound the selection) and the case definition into the session.
static int set_inputs(struct iodfg_session *ses, const struct cli_analyze_opts *o, int *groups)
{
    struct iodfg_error err;
    iodfg_error_clear(&err);
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
    iodfg_session_set_per_pid(ses, o->per_pid);
    if (!o->green && !o->red) {
        return CLI_OK;
    }
    int rc = cli_job ? cli_job->groups(cli_job->ctx, ses, o->green, o->red) : CLI_OK;
    if (rc != CLI_OK) { // an MPI job: the cases shared by the groups on every process
        return rc;
    }
    if (iodfg_session_set_groups(ses, o->green, o->red, &err)) {
        cli_error(&err);
        return CLI_FAIL;
    }
    iodfg_session_set_groups_restrict(ses, 1);
    *groups = 1;
    return CLI_OK;
}

// The results the output code reads, borrowed from the session.
static void read_results(struct cli_analysis *ca, const struct cli_analyze_opts *o)
{
    const struct iodfg_session_counts *k = iodfg_session_counts(ca->ses);
    ca->map = iodfg_session_mapping(ca->ses);
    ca->an = iodfg_session_analysis(ca->ses);
    ca->diff = ca->groups ? iodfg_session_diff(ca->ses) : NULL;
    ca->g_cases = k->g_cases;
    ca->r_cases = k->r_cases;
    // masks only when something is hidden (minedge/top): otherwise everything is shown
    int pruned = iodfg_session_pruned(ca->ses);
    ca->node_on = pruned ? iodfg_session_node_on(ca->ses) : NULL;
    ca->edge_on = pruned ? iodfg_session_edge_on(ca->ses) : NULL;
    if (ca->groups && !o->ingest.quiet) {
        if (!ca->g_cases) {
            cli_errorf("note: group G has no case among the selected ones");
        }
        if (!ca->r_cases) {
            cli_errorf("note: group R has no case among the selected ones");
        }
    }
}

void cli_analysis_comment(struct cli_analysis *ca, const struct cli_analyze_opts *o,
                          char *const *inputs, size_t n, const char *command)
{
    struct iodfg_buf *b = &ca->comment;
    iodfg_buf_addf(b, "iodfg %s", command);
    for (size_t i = 0; i < n; i++) {
        iodfg_buf_addf(b, " %s", inputs[i]);
    }
    const struct iodfg_rules *rules = iodfg_session_rules(ca->ses);
    if (o->rules_path && iodfg_rules_count(rules)) {
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
    } else {
        iodfg_buf_addf(b, "\nrules: default f-hat (call + path cut to two levels)\n");
    }
    for (size_t i = 0; i < iodfg_filter_stack_count(o->filters); i++) {
        iodfg_buf_addf(b, "filter: ");
        iodfg_filter_format(iodfg_filter_stack_get(o->filters, i), b);
        iodfg_buf_addf(b, "\n");
    }
    if (ca->groups) {
        iodfg_buf_addf(b, "green (G, %u cases): ", ca->g_cases);
        o->green ? stack_text(b, o->green) : (void)iodfg_buf_addf(b, "all other cases");
        iodfg_buf_addf(b, "\nred (R, %u cases): ", ca->r_cases);
        o->red ? stack_text(b, o->red) : (void)iodfg_buf_addf(b, "all other cases");
        iodfg_buf_addf(b, "\n");
    }
    const struct iodfg_session_counts *k = iodfg_session_counts(ca->ses);
    if (k->rules_limited) {
        iodfg_buf_addf(b,
                       "rules: %u key%s hit the PCRE2 match limit at rule line %lu (that rule "
                       "counted as not matching)\n",
                       k->rules_limited, k->rules_limited == 1 ? "" : "s", k->limit_line);
    }
    iodfg_buf_addf(b, "cases: %s", o->per_pid ? "per (trace file, pid)" : "per trace file");
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

int cli_session_open(const struct cli_analyze_opts *o, char *const *inputs, size_t n,
                     unsigned columns, struct iodfg_eventlog **log, struct iodfg_session **ses,
                     int *groups)
{
    *log = NULL;
    *ses = NULL;
    *groups = 0;
    struct iodfg_error err;
    iodfg_error_clear(&err);
    char *rules = NULL;
    size_t rules_len = 0;
    int rc = read_rules(o->rules_path, &rules, &rules_len);
    struct cli_ingest_totals totals;
    memset(&totals, 0, sizeof(totals));
    if (rc == CLI_OK) {
        *log = cli_load(inputs, n, columns, &o->ingest, &totals, &err);
    }
    if (cli_job) { // relative times count from the whole log's start (every process comes here)
        int64_t t = *log ? iodfg_eventlog_earliest_start(*log) : INT64_MAX;
        cli_job->least(cli_job->ctx, &t);
        if (*log && t != INT64_MAX) {
            iodfg_eventlog_set_time_origin(*log, t);
        }
    }
    if (rc == CLI_OK) {
        if (!*log || !(*ses = iodfg_session_new(*log, &err)) ||
            (rules && iodfg_session_set_rules(*ses, rules, rules_len, o->rules_path, &err))) {
            cli_error(&err);
            rc = CLI_FAIL;
        } else if (cli_job && cli_job->part) {
            iodfg_session_set_job_part(*ses);
        }
    }
    if (rc == CLI_OK) {
        rc = set_focus(*ses, o);
    }
    free(rules);
    if (o->green || o->red) { // the groups are checked by every process at once
        rc = cli_agree(rc);
    }
    if (rc != CLI_OK) {
        return rc;
    }
    if (!o->ingest.quiet && totals.counts[IODFG_COUNT_UNPARSABLE]) {
        cli_errorf("note: skipped %llu unparsable line(s); the first: %s",
                   (unsigned long long)totals.counts[IODFG_COUNT_UNPARSABLE], totals.first_problem);
    }
    return set_inputs(*ses, o, groups);
}

int cli_analysis_run(struct cli_analysis *ca, const struct cli_analyze_opts *o, char *const *inputs,
                     size_t n, const char *command)
{
    memset(ca, 0, sizeof(*ca));
    iodfg_buf_init(&ca->comment);
    // pid only tells cases apart with --per-pid: 4 bytes per event less to load otherwise
    unsigned columns = IODFG_COL_ANALYSIS & ~(o->per_pid ? 0u : (unsigned)IODFG_COL_PID);
    int rc = cli_session_open(o, inputs, n, columns, &ca->log, &ca->ses, &ca->groups);
    rc = cli_agree(rc);
    if (rc != CLI_OK) {
        return rc;
    }
    struct iodfg_error err;
    iodfg_error_clear(&err);
    rc = iodfg_session_rebuild(ca->ses, &err) ? CLI_FAIL : CLI_OK;
    if (rc != CLI_OK) {
        cli_error(&err);
    }
    rc = cli_agree(rc);
    if (cli_job && rc == CLI_OK) {
        rc = cli_job->merge(cli_job->ctx, ca, o);
    }
    if (rc != CLI_OK) {
        return rc;
    }
    read_results(ca, o);
    struct iodfg_selection sel;
    iodfg_session_selection(ca->ses, IODFG_GROUP_NONE, &sel);
    cli_clock_note(ca->log, sel.case_on, o->ingest.quiet);
    const struct iodfg_session_counts *k = iodfg_session_counts(ca->ses);
    if (!o->ingest.quiet && k->rules_limited) {
        cli_errorf("note: for %u key%s a regex of rule line %lu hit the PCRE2 match limit; that "
                   "rule counted as not matching and the next one decided",
                   k->rules_limited, k->rules_limited == 1 ? "" : "s", k->limit_line);
    }
    if (!o->ingest.quiet && iodfg_dfg_traces(iodfg_analysis_dfg(ca->an)) == 0) {
        cli_errorf("note: no event is left after the rules and filters");
    }
    cli_analysis_comment(ca, o, inputs, n, command);
    if (ca->comment.failed) {
        cli_errorf("out of memory");
        return CLI_FAIL;
    }
    return CLI_OK;
}

void cli_analysis_fini(struct cli_analysis *ca)
{
    iodfg_buf_fini(&ca->comment);
    iodfg_session_free(ca->ses);
    iodfg_eventlog_free(ca->log);
    memset(ca, 0, sizeof(*ca));
}
