/* SPDX-License-Identifier: MIT */
/* `iodfg handles`: every I/O handle of a log with its lifetime, file, flags, traffic. */
#include "config.h"

#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "iodfg/buf.h"
#include "iodfg/error.h"
#include "iodfg/eventlog.h"
#include "iodfg/handles.h"
#include "iodfg/report_json.h"
#include "iodfg/report_table.h"
#include "iodfg/report_tsv.h"
#include "iodfg/strpool.h"

#include "cmdline/cli_analyze.h"
#include "cli/cli_commands.h"

static const char handles_usage[] =
    "usage: iodfg handles [--format table|tsv|json] [--open] [--case NAME]\n"
    "                     [--name-pattern P] [--jobs N] [--mounts FILE]\n"
    "                     LOG.h5|FILES|DIRS...\n"
    "List the I/O handles (file descriptors) of an event log: origin (open, dup,\n"
    "precreated, inherited), parent, path, open flags, creation and destruction\n"
    "time, operations, bytes.\n"
    "Times are seconds since the start of the log; '-' = not in the trace\n"
    "(pre-created, or never closed).\n"
    "      --format F          table (default), tsv or json\n"
    "      --open              only the handles never closed\n"
    "      --case NAME         only the handles of this case\n";

static void usage(FILE *out)
{
    fputs(handles_usage, out);
    fputs(cli_ingest_usage, out);
}

struct hview {
    const struct iodfg_eventlog *log;
    const struct iodfg_strpool *pool;
};

static const char *case_name(const struct hview *v, uint32_t cs)
{
    const struct iodfg_case_info *ci = iodfg_eventlog_case(v->log, cs);
    return ci ? iodfg_strpool_get(v->pool, ci->name) : "?";
}

struct hopts {
    enum cli_format format;
    int open_only;
    const char *case_name;
};

/* The selected handles' ids into *ids (malloc'd) with their summary; -1 when out of memory. */
static int select_handles(const struct hview *v, const struct hopts *o, uint32_t **ids, uint32_t *n,
                          struct iodfg_handle_summary *sum)
{
    uint32_t nc = iodfg_eventlog_case_count(v->log);
    uint8_t *case_on = NULL;
    *ids = malloc(((size_t)iodfg_eventlog_handle_count(v->log) + 1) * sizeof(**ids));
    if (o->case_name) {
        case_on = malloc((size_t)nc + 1);
        for (uint32_t c = 0; case_on && c < nc; c++) {
            case_on[c] = strcmp(case_name(v, c), o->case_name) == 0;
        }
    }
    if (!*ids || (o->case_name && !case_on)) {
        free(*ids);
        free(case_on);
        return -1;
    }
    *n = iodfg_handles_select(v->log, case_on, o->open_only, *ids, sum);
    free(case_on);
    return 0;
}

static int render(struct iodfg_buf *b, const struct hview *v, const struct hopts *o)
{
    struct iodfg_handle_summary sum;
    uint32_t *ids, n;
    if (select_handles(v, o, &ids, &n, &sum)) {
        return -1;
    }
    struct iodfg_report_handles r = {v->log, ids, n, &sum};
    struct iodfg_error err;
    iodfg_error_clear(&err);
    int rc = o->format == CLI_FMT_JSON  ? iodfg_report_json_handles(b, &r, &err)
             : o->format == CLI_FMT_TSV ? iodfg_report_tsv_handles(b, &r, &err)
                                        : iodfg_report_table_handles(b, &r, &err);
    free(ids);
    return rc;
}

int cli_handles(int argc, char **argv)
{
    static const struct option longopts[] = {
        {"format", required_argument, NULL, 'F'},
        {"open", no_argument, NULL, 'O'},
        {"case", required_argument, NULL, 'c'},
        {"help", no_argument, NULL, 'h'},
        CLI_INGEST_LONGOPTS,
        {NULL, 0, NULL, 0},
    };
    struct cli_ingest_opts io = {0};
    struct hopts o = {CLI_FMT_TABLE, 0, NULL};
    int c;
    optind = 1;
    while ((c = getopt_long(argc, argv, "p:j:h", longopts, NULL)) != -1) {
        switch (c) {
        case 'F':
            if (cli_format_parse(optarg, &o.format)) {
                return CLI_USAGE;
            }
            break;
        case 'O':
            o.open_only = 1;
            break;
        case 'c':
            o.case_name = optarg;
            break;
        case 'h':
            usage(stdout);
            return CLI_OK;
        default:
            if (cli_ingest_other_option(c, optarg, &io, usage)) {
                return CLI_USAGE;
            }
        }
    }
    if (cli_need_inputs(optind, argc, "handles needs an event log or trace files", handles_usage)) {
        return CLI_USAGE;
    }
    io.quiet = 1;
    struct iodfg_error err;
    iodfg_error_clear(&err);
    struct cli_ingest_totals totals;
    struct iodfg_eventlog *log =
        cli_load(argv + optind, (size_t)(argc - optind), IODFG_COL_START | IODFG_COL_HANDLE_TABLE,
                 &io, &totals, &err);
    if (!log) {
        cli_error(&err);
        return CLI_FAIL;
    }
    struct hview v = {log, iodfg_eventlog_pool(log)};
    struct iodfg_buf b;
    iodfg_buf_init(&b);
    int rc = CLI_OK;
    if (render(&b, &v, &o) || b.failed) {
        cli_errorf("out of memory");
        rc = CLI_FAIL;
    } else if (fwrite(b.data, 1, b.len, stdout) != b.len || fflush(stdout) != 0) {
        cli_errorf("writing to standard output failed: %s", strerror(errno));
        rc = CLI_FAIL;
    }
    iodfg_buf_fini(&b);
    iodfg_eventlog_free(log);
    return rc;
}
