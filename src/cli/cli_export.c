/* SPDX-License-Identifier: MIT */
/* `iodfg export`: the selected events as a Perfetto trace, a CSV event table or an XES log,
 * streamed into the output file (atomically) or standard output. */
#include "config.h"

#include <errno.h>
#include <getopt.h>
#include <string.h>

#include "iodfg/error.h"
#include "iodfg/filter.h"
#include "iodfg/interchange.h"
#include "iodfg/report.h"
#include "iodfg/session.h"

#include "cmdline/cli_analyze.h"
#include "cli/cli_commands.h"

static const char export_usage_head[] =
    "usage: iodfg export --format perfetto|csv|xes [OPTIONS] LOG.h5|FILES|DIRS...\n"
    "Write the selected events (rules, filters and --time applied) for other tools.\n"
    "      --format F          perfetto: Chrome trace-event JSON for ui.perfetto.dev\n"
    "                          (a process per case, a thread per pid); csv: a row per\n"
    "                          call with PM4Py/Disco columns; xes: an IEEE XES log.\n"
    "                          Default: from the -o name (.json, .csv, .xes)\n";

enum { OPT_FORMAT = 300 };

struct export_opts {
    struct cli_analyze_opts a;
    enum iodfg_interchange_format format;
    int format_given;
};

static void usage(FILE *out)
{
    fputs(export_usage_head, out);
    fputs(cli_analyze_usage, out);
}

static int export_option(void *ctx, int c, const char *arg)
{
    struct export_opts *x = ctx;
    if (c != OPT_FORMAT) {
        return cli_analyze_option(&x->a, c, arg);
    }
    if (iodfg_interchange_format_parse(arg, &x->format)) {
        cli_errorf("--format: unknown value '%s' (perfetto, csv or xes)", arg);
        return CLI_USAGE;
    }
    x->format_given = 1;
    return 0;
}

// The format an output name implies: 0 and *f, or -1.
static int format_of_name(const char *path, enum iodfg_interchange_format *f)
{
    static const struct {
        const char *ext;
        enum iodfg_interchange_format f;
    } ext[] = {{".json", IODFG_XCHG_PERFETTO}, {".csv", IODFG_XCHG_CSV}, {".xes", IODFG_XCHG_XES}};
    size_t len = path ? strlen(path) : 0;
    for (size_t i = 0; i < sizeof(ext) / sizeof(ext[0]); i++) {
        size_t n = strlen(ext[i].ext);
        if (len > n && strcmp(path + len - n, ext[i].ext) == 0) {
            *f = ext[i].f;
            return 0;
        }
    }
    return -1;
}

static int parse(struct export_opts *x, int argc, char **argv)
{
    static const struct option own[] = {
        {"format", required_argument, NULL, OPT_FORMAT},
        {"help", no_argument, NULL, 'h'},
        {NULL, 0, NULL, 0},
    };
    int rc = cli_analyze_getopt(argc, argv, own, export_option, x, usage, "export");
    if (rc) {
        return rc;
    }
    if (!x->format_given && format_of_name(x->a.output, &x->format)) {
        cli_errorf("give --format perfetto, csv or xes (or an -o name ending in .json, .csv "
                   "or .xes)");
        return CLI_USAGE;
    }
    // minedge and top prune the drawn graph; exported events would not follow them
    if (iodfg_filter_stack_min_edge(x->a.filters) || iodfg_filter_stack_top(x->a.filters)) {
        cli_errorf("--min-edge and --top-activities hide parts of the drawn graph, not events: "
                   "export writes every selected event (filter by call, path, case or time)");
        return CLI_USAGE;
    }
    return cli_analyze_ready(&x->a, argv, optind, argc, "export needs an event log or trace files",
                             export_usage_head);
}

struct stream {
    const struct iodfg_interchange_source *src;
    enum iodfg_interchange_format format;
    struct iodfg_interchange_totals totals;
    int fd;
};

static int flush_fd(void *ctx, const char *data, size_t n, struct iodfg_error *err)
{
    const struct stream *s = ctx;
    if (cli_write_all(s->fd, data, n)) {
        return iodfg_error_set(err, IODFG_E_IO, "cannot write the export: %s", strerror(errno));
    }
    return 0;
}

static int produce(void *ctx, int fd)
{
    struct stream *s = ctx;
    s->fd = fd;
    struct iodfg_error err;
    iodfg_error_clear(&err);
    if (iodfg_interchange_write(s->format, s->src, flush_fd, s, &s->totals, &err)) {
        cli_error(&err);
        return CLI_FAIL;
    }
    return CLI_OK;
}

// What was written, on standard error.
static void summary(const struct export_opts *x, const struct iodfg_interchange_totals *t)
{
    char a[32], b[32];
    cli_errorf(
        "wrote %s: %s events in %s %s (%s, times in %s)",
        x->a.output ? x->a.output : "standard output", iodfg_report_count(a, sizeof(a), t->events),
        iodfg_report_count(b, sizeof(b), t->cases), t->cases == 1 ? "case" : "cases",
        iodfg_interchange_format_name(x->format), t->sub_us ? "nanoseconds" : "microseconds");
    if (t->unknown_dur) {
        cli_errorf("note: %s events have no duration (strace without -T)%s",
                   iodfg_report_count(a, sizeof(a), t->unknown_dur),
                   x->format == IODFG_XCHG_PERFETTO ? ": written as instants" : "");
    }
    if (t->lanes) {
        cli_errorf("note: %llu extra thread tracks hold calls that overlap the previous call of "
                   "their pid (named 'pid N (overlapping calls)')",
                   (unsigned long long)t->lanes);
    }
    uint32_t other = t->clocks[IODFG_CLOCK_TIME_OF_DAY] + t->clocks[IODFG_CLOCK_RELATIVE] +
                     t->clocks[IODFG_CLOCK_NONE];
    if (other) {
        cli_errorf("note: %u cases were not recorded on the wall clock: their times are offsets "
                   "from 1970-01-01 UTC, not dates (the case clock column says which clock)",
                   other);
    }
}

static int run(struct export_opts *x)
{
    struct cli_analysis ca;
    cli_analysis_init(&ca);
    const unsigned columns = IODFG_COL_ALL & ~(unsigned)IODFG_COL_HANDLE;
    int rc =
        cli_session_open(&x->a, x->a.inputs, x->a.ninputs, columns, &ca.log, &ca.ses, &ca.groups);
    struct iodfg_error err;
    iodfg_error_clear(&err);
    if (rc == CLI_OK && iodfg_session_prepare(ca.ses, &err)) {
        cli_error(&err);
        rc = CLI_FAIL;
    }
    if (rc == CLI_OK) {
        cli_analysis_comment(&ca, &x->a, "export");
        struct iodfg_selection sel;
        iodfg_session_selection(ca.ses, IODFG_GROUP_NONE, &sel);
        cli_clock_note(ca.ses, sel.case_on, x->a.ingest.quiet);
        struct iodfg_interchange_source src = {
            .log = ca.log,
            .map = iodfg_session_mapping(ca.ses),
            .sel = &sel,
            .g_mask = ca.groups ? iodfg_session_group_mask(ca.ses, IODFG_GROUP_G) : NULL,
            .r_mask = ca.groups ? iodfg_session_group_mask(ca.ses, IODFG_GROUP_R) : NULL,
            .generator = PACKAGE_STRING,
            .description = ca.comment.failed ? NULL : ca.comment.data,
        };
        struct stream s = {.src = &src, .format = x->format};
        rc = cli_output_stream(&x->a, produce, &s);
        if (rc == CLI_OK && !x->a.ingest.quiet) {
            summary(x, &s.totals);
        }
    }
    cli_analysis_fini(&ca);
    return rc;
}

int cli_export(int argc, char **argv)
{
    struct export_opts x;
    memset(&x, 0, sizeof(x));
    if (cli_analyze_opts_init(&x.a)) {
        return CLI_FAIL;
    }
    int rc = parse(&x, argc, argv);
    if (rc == CLI_OK) {
        rc = run(&x);
    }
    cli_analyze_opts_fini(&x.a);
    return rc < 0 ? CLI_OK : rc;
}
