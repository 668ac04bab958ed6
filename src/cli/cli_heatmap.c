/* SPDX-License-Identifier: MIT */
/* `iodfg heatmap`: cases (or hosts, cids, activities) by time bins, shaded by the bytes moved or
 * the time busy (PyDarshan's job-summary heatmap), as SVG, PNG, TSV or JSON. */
#include "config.h"

#include <getopt.h>
#include <stdlib.h>
#include <string.h>

#include "iodfg/error.h"
#include "iodfg/heatmap.h"
#include "iodfg/svg.h"

#include "cli/cli_commands.h"
#include "cli/cli_picture.h"

struct heatmap_opts {
    struct cli_picture_opts p;
    enum iodfg_heatmap_by by;
    enum iodfg_heatmap_metric metric;
    uint32_t bins, max_rows;
    int max_rows_given, log_scale;
};

static const char usage_text[] =
    "usage: iodfg heatmap [OPTIONS] LOG.h5|TRACES...\n"
    "Rows (cases, hosts, cids or activities) by time bins, each cell shaded by the\n"
    "bytes moved or the time busy. A call crossing bins is split by time and its\n"
    "bytes spread over its duration, so the bins sum to the totals (doc/metrics.md).\n"
    "\n"
    "      --rows R            case (default), host, cid or activity\n"
    "      --measure M         the SVG's shade: bytes (default), busy or calls\n"
    "      --log-scale         shades on a logarithmic scale\n"
    "      --bins N            time bins (default 100, at most 10000)\n"
    "      --max-rows N        rows drawn at most; beyond, k rows per row, said in\n"
    "                          the label (default 96 in SVG/PNG, every row in\n"
    "                          TSV/JSON)\n";

enum { OPT_ROWS = 600, OPT_MEASURE, OPT_LOG, OPT_BINS, OPT_MAX_ROWS };

static void usage(FILE *out)
{
    cli_usage_put(usage_text, out);
    fputs(cli_picture_usage, out);
    fputs(cli_analyze_usage, out);
}

// A count option's value in [lo, hi]: 0, or CLI_USAGE after a message.
static int count_arg(const char *opt, const char *arg, long lo, long hi, uint32_t *v)
{
    char *end;
    long n = strtol(arg, &end, 10);
    if (end == arg || *end || n < lo || n > hi) {
        cli_errorf("%s takes %ld to %ld, not '%s'", opt, lo, hi, arg);
        return CLI_USAGE;
    }
    *v = (uint32_t)n;
    return 0;
}

static int option(void *ctx, int c, const char *arg)
{
    struct heatmap_opts *o = ctx;
    switch (c) {
    case OPT_ROWS:
        if (iodfg_heatmap_by_parse(arg, &o->by)) {
            cli_errorf("--rows takes case, host, cid or activity, not '%s'", arg);
            return CLI_USAGE;
        }
        return 0;
    case OPT_MEASURE:
        if (iodfg_heatmap_metric_parse(arg, &o->metric)) {
            cli_errorf("--measure takes bytes, busy or calls, not '%s'", arg);
            return CLI_USAGE;
        }
        return 0;
    case OPT_LOG:
        o->log_scale = 1;
        return 0;
    case OPT_BINS:
        return count_arg("--bins", arg, 1, 10000, &o->bins);
    case OPT_MAX_ROWS:
        o->max_rows_given = 1;
        return count_arg("--max-rows", arg, 1, 100000, &o->max_rows);
    default:
        return cli_picture_option(&o->p, c, arg);
    }
}

// The heatmap of p in the chosen format into b. CLI_OK or CLI_FAIL after a message.
static int report(const void *ctx, struct cli_picture *p, struct iodfg_buf *b)
{
    const struct heatmap_opts *o = ctx;
    int picture = o->p.format == CLI_PIC_SVG || o->p.format == CLI_PIC_PNG;
    struct iodfg_heatmap_opts ho = {
        .by = o->by,
        .from_ns = p->win_from,
        .to_ns = p->win_to,
        .nbins = o->bins,
        .max_rows = o->max_rows_given ? o->max_rows
                    : picture         ? 96
                                      : 0,
    };
    p->in.tl = NULL; // the cells' bytes, busy time and calls; peaks are the timeline's
    struct iodfg_heatmap hm;
    iodfg_heatmap_init(&hm);
    struct iodfg_error err;
    iodfg_error_clear(&err);
    int rc = iodfg_heatmap_build(&hm, &p->in, &ho, &err);
    if (rc == 0) {
        struct iodfg_svg_opts so;
        iodfg_svg_opts_init(&so);
        so.width = o->p.width;
        so.metric = o->metric;
        so.log_scale = o->log_scale;
        rc = picture                      ? iodfg_svg_heatmap(b, &hm, &p->meta, &so)
             : o->p.format == CLI_PIC_TSV ? iodfg_heatmap_tsv(b, &hm)
                                          : iodfg_heatmap_json(b, &hm, &p->meta);
        if (rc) {
            iodfg_error_set(&err, IODFG_E_NOMEM, NULL);
        }
    }
    if (rc == 0 && hm.clock_dropped && !o->p.a.ingest.quiet) {
        cli_errorf("note: %u selected case%s of another clock %s left out (the picture has one "
                   "time axis; --align start puts every case on one)",
                   hm.clock_dropped, hm.clock_dropped == 1 ? "" : "s",
                   hm.clock_dropped == 1 ? "is" : "are");
    }
    iodfg_heatmap_fini(&hm);
    if (rc) {
        cli_error(&err);
        return CLI_FAIL;
    }
    return CLI_OK;
}

int cli_heatmap(int argc, char **argv)
{
    static const struct option own[] = {
        CLI_PICTURE_LONGOPTS,
        {"rows", required_argument, NULL, OPT_ROWS},
        {"measure", required_argument, NULL, OPT_MEASURE},
        {"log-scale", no_argument, NULL, OPT_LOG},
        {"bins", required_argument, NULL, OPT_BINS},
        {"max-rows", required_argument, NULL, OPT_MAX_ROWS},
        {NULL, 0, NULL, 0},
    };
    static const struct cli_picture_cmd cmd = {"heatmap", usage_text, usage, own,
                                               option,    report,     0};
    struct heatmap_opts o = {.by = IODFG_HEATMAP_CASE, .metric = IODFG_HM_BYTES, .bins = 100};
    return cli_picture_main(&cmd, &o.p, &o, argc, argv);
}
