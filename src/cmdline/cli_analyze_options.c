/* SPDX-License-Identifier: MIT */
/* The options every analysing command shares: rules, filters and their short forms, groups,
 * case definition, output file, the trace-reading options; and the usage lines that say so. */
#include "config.h"

#include <getopt.h>
#include <stdlib.h>
#include <string.h>

#include "iodfg/error.h"
#include "iodfg/filter.h"
#include "iodfg/session.h"

#include "cli_analyze.h"

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
    "  -o, --output FILE       write FILE atomically instead of standard output ('-':\n"
    "                          standard output)\n"
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
    optind = 0; // glibc starts afresh (a batch runs commands one after another)
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
        o->output = strcmp(arg, "-") == 0 ? NULL : arg; // "-": standard output, not a file "-"
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

int cli_analyze_ready(struct cli_analyze_opts *o, char **argv, int optind_, int argc,
                      const char *what, const char *usage)
{
    int rc = cli_need_inputs(optind_, argc, what, usage);
    if (rc != CLI_OK) {
        return rc;
    }
    o->inputs = argv + optind_;
    o->ninputs = (size_t)(argc - optind_);
    return cli_output_check(o, (const char *const *)o->inputs, o->ninputs);
}

int cli_format_parse(const char *s, enum cli_format *f)
{
    static const char *const names[] = {"table", "tsv", "json"};
    for (int i = 0; i < 3; i++) {
        if (strcmp(s, names[i]) == 0) {
            *f = (enum cli_format)i;
            return 0;
        }
    }
    cli_errorf("--format takes table, tsv or json, not '%s'", s);
    return CLI_USAGE;
}
