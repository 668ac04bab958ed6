/* SPDX-License-Identifier: MIT */
/* `iodfg bandwidth`: Wright et al.'s perceived vs effective bandwidth and time shares, per
 * activity, per call, per case (with a stacked time-share bar) and overall. */
#include "config.h"

#include <getopt.h>
#include <stdlib.h>
#include <string.h>

#include "iodfg/bandwidth.h"
#include "iodfg/error.h"
#include "iodfg/report_json.h"
#include "iodfg/report_table.h"
#include "iodfg/report_tsv.h"

#include "cmdline/cli_analyze.h"
#include "cli/cli_commands.h"

struct bw_opts {
    struct cli_analyze_opts a;
    enum iodfg_report_bw_by by;
    enum cli_format format;
    int width;
};

/* The bandwidths of each selection, then the report into b. */
static int report(const void *ctx, const struct cli_metrics *m, struct iodfg_buf *b)
{
    const struct bw_opts *o = ctx;
    struct iodfg_bandwidth bw[2];
    struct iodfg_report_bandwidth r = {
        .log = m->log, .map = m->map, .ngroups = m->ngroups, .by = o->by, .width = o->width};
    struct iodfg_error err;
    iodfg_error_clear(&err);
    int rc = 0;
    for (int g = 0; g < m->ngroups; g++) {
        iodfg_bandwidth_init(&bw[g]);
        r.bw[g] = &bw[g];
        rc = rc ? rc : iodfg_bandwidth_build(&bw[g], m->log, m->map, &m->sel[g], &err);
    }
    if (rc == 0) {
        rc = o->format == CLI_FMT_TABLE ? iodfg_report_table_bandwidth(b, &r, &err)
             : o->format == CLI_FMT_TSV ? iodfg_report_tsv_bandwidth(b, &r, &err)
                                        : iodfg_report_json_bandwidth(b, &r, &err);
    }
    if (rc) {
        cli_error(&err);
    }
    for (int g = 0; g < m->ngroups; g++) {
        iodfg_bandwidth_fini(&bw[g]);
    }
    return rc ? CLI_FAIL : CLI_OK;
}

static const char usage_text[] =
    "usage: iodfg bandwidth [OPTIONS] LOG.h5|TRACES...\n"
    "Perceived bandwidth (bytes / wall-clock span of the events), effective bandwidth\n"
    "(bytes / sum of their durations, as if performed serially; Wright et al. 2013)\n"
    "and the share of I/O time, per activity, call or case, then for all reads, all\n"
    "writes and all events.\n"
    "\n"
    "      --by activity|call|case  rows (default activity); case adds a time-share\n"
    "                               bar by call\n"
    "      --width N           width of the time-share bars (default 60)\n"
    "      --format F          table (default), tsv or json\n";

enum { OPT_BY = 512, OPT_FORMAT, OPT_WIDTH };

int cli_bandwidth(int argc, char **argv)
{
    static const struct option own[] = {
        {"by", required_argument, NULL, OPT_BY},
        {"format", required_argument, NULL, OPT_FORMAT},
        {"width", required_argument, NULL, OPT_WIDTH},
        {"help", no_argument, NULL, 'h'},
        {NULL, 0, NULL, 0},
    };
    struct option longopts[64];
    struct bw_opts o = {.width = 60};
    if (cli_analyze_opts_init(&o.a) || cli_analyze_longopts(longopts, 64, own)) {
        cli_analyze_opts_fini(&o.a);
        return CLI_FAIL;
    }
    int rc = CLI_OK, c;
    optind = 1;
    while (rc == CLI_OK &&
           (c = getopt_long(argc, argv, CLI_ANALYZE_SHORTOPTS "h", longopts, NULL)) != -1) {
        switch (c) {
        case OPT_BY:
            rc = CLI_USAGE;
            for (int i = 0; i < 3; i++) {
                if (strcmp(optarg, iodfg_report_bw_by_name((enum iodfg_report_bw_by)i)) == 0) {
                    o.by = (enum iodfg_report_bw_by)i;
                    rc = CLI_OK;
                }
            }
            if (rc != CLI_OK) {
                cli_errorf("--by takes activity, call or case, not '%s'", optarg);
            }
            break;
        case OPT_FORMAT:
            rc = cli_format_parse(optarg, &o.format);
            break;
        case OPT_WIDTH:
            o.width = atoi(optarg);
            if (o.width < 4 || o.width > 1000) {
                cli_errorf("--width takes 4 to 1000 columns, not '%s'", optarg);
                rc = CLI_USAGE;
            }
            break;
        default:
            rc = cli_analyze_other_option(&o.a, c, optarg, usage_text);
        }
    }
    if (rc == CLI_OK) {
        rc = cli_analyze_ready(&o.a, argv, optind, argc, "bandwidth", usage_text);
    }
    if (rc == CLI_OK) {
        rc = cli_metrics_command(&o.a, 0, report, &o);
    }
    cli_analyze_opts_fini(&o.a);
    return rc < 0 ? CLI_OK : rc; // -1: --help
}
