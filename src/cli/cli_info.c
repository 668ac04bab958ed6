/* SPDX-License-Identifier: MIT */
/* `iodfg info`: what an event log holds, for a person or (--json) for a script. */
#include "config.h"

#include <getopt.h>
#include <stdlib.h>
#include <string.h>

#include "iodfg/buf.h"
#include "iodfg/error.h"
#include "iodfg/eventlog.h"
#include "iodfg/report.h"
#include "iodfg/report_json.h"
#include "iodfg/report_table.h"

#include "cmdline/cli.h"
#include "cli/cli_commands.h"

static const char info_usage[] =
    "usage: iodfg info [--format table|json] [--cases N] [--top N] [--name-pattern P]\n"
    "                  [--jobs N] [--mounts FILE] LOG.h5|FILES|DIRS...\n"
    "Summarise an event log: cases, events, calls, paths, time spans and clocks,\n"
    "skipped lines, top calls.\n"
    "      --format F          table (default) or json (--json: the same as json)\n"
    "      --cases N           list at most N cases (default 20; 0 = all)\n"
    "      --top N             show the N most frequent calls (default 10)\n";

static void usage(FILE *out)
{
    fputs(info_usage, out);
    fputs(cli_ingest_usage, out);
}

static int parse_uint(const char *s, unsigned *v)
{
    char *end;
    long x = strtol(s, &end, 10);
    if (*s == '\0' || *end || x < 0 || x > 100000000) {
        return -1;
    }
    *v = (unsigned)x;
    return 0;
}

int cli_info(int argc, char **argv)
{
    static const struct option longopts[] = {
        {"json", no_argument, NULL, 'J'},
        {"cases", required_argument, NULL, 'c'},
        {"top", required_argument, NULL, 't'},
        {"help", no_argument, NULL, 'h'},
        {"format", required_argument, NULL, 'F'},
        CLI_INGEST_LONGOPTS,
        {NULL, 0, NULL, 0},
    };
    struct cli_ingest_opts o = {0};
    int json = 0, c;
    unsigned max_cases = 20, top = 10;
    optind = 1;
    while ((c = getopt_long(argc, argv, "p:j:h", longopts, NULL)) != -1) {
        switch (c) {
        case 'J':
            json = 1;
            break;
        case 'F':
            if (strcmp(optarg, "table") != 0 && strcmp(optarg, "json") != 0) {
                cli_errorf("--format takes table or json, not '%s'", optarg);
                return CLI_USAGE;
            }
            json = optarg[0] == 'j';
            break;
        case 'c':
        case 't':
            if (parse_uint(optarg, c == 'c' ? &max_cases : &top)) {
                cli_errorf("--%s expects a number, not '%s'", c == 'c' ? "cases" : "top", optarg);
                return CLI_USAGE;
            }
            break;
        case 'h':
            usage(stdout);
            return CLI_OK;
        default:
            if (cli_ingest_other_option(c, optarg, &o, usage)) {
                return CLI_USAGE;
            }
        }
    }
    if (cli_need_inputs(optind, argc, "info needs an event log or trace files", info_usage)) {
        return CLI_USAGE;
    }
    o.quiet = json;
    struct iodfg_error err;
    iodfg_error_clear(&err);
    struct cli_ingest_totals totals;
    unsigned cols = IODFG_COL_START | IODFG_COL_DUR | IODFG_COL_KEY;
    struct iodfg_eventlog *log =
        cli_load(argv + optind, (size_t)(argc - optind), cols, &o, &totals, &err);
    if (!log) {
        cli_error(&err);
        return CLI_FAIL;
    }
    struct iodfg_log_summary s;
    struct iodfg_buf b;
    iodfg_buf_init(&b);
    int rc = CLI_OK;
    struct iodfg_report_info r = {
        .source = argc - optind == 1 ? argv[optind] : "(several inputs)",
        .log = log,
        .s = &s,
        .max_cases = max_cases,
        .top = top,
        .mounts = totals.mounts,
        .first_problem = totals.files ? totals.first_problem : "",
    };
    if (iodfg_log_summary_build(&s, log) ||
        (json ? iodfg_report_json_info(&b, &r, &err) : iodfg_report_table_info(&b, &r, &err))) {
        cli_errorf("out of memory");
        rc = CLI_FAIL;
    } else {
        fwrite(b.data, 1, b.len, stdout); // cli_stdout_status checks that it arrived
    }
    iodfg_buf_fini(&b);
    iodfg_log_summary_fini(&s);
    iodfg_eventlog_free(log);
    return rc;
}
