/* SPDX-License-Identifier: MIT */
/* `iodfg timeline`: the concurrency timeline, one lane per activity (the busiest), the mean
 * number of its calls in flight in each time bin and the most at one moment; as SVG, PNG, TSV or
 * JSON (a heatmap by activity with its peaks: the same numbers). */
#include "config.h"

#include <getopt.h>
#include <stdlib.h>
#include <string.h>

#include "iodfg/error.h"
#include "iodfg/heatmap.h"
#include "iodfg/svg.h"

#include "cli/cli_commands.h"
#include "cli/cli_picture.h"

struct timeline_opts {
    struct cli_picture_opts p;
    uint32_t bins, lanes;
};

static const char usage_text[] =
    "usage: iodfg timeline [OPTIONS] LOG.h5|TRACES...\n"
    "The concurrency timeline: a lane per activity (the busiest), the mean number of\n"
    "its calls in flight in each time bin (busy time / bin width) and the most in\n"
    "flight at one moment. TSV and JSON hold every activity's bins (bytes, busy time,\n"
    "calls, peak), G and R as two bands.\n"
    "\n"
    "      --lanes N           activity lanes drawn (the busiest; default 12)\n"
    "      --bins N            time bins (default 100, at most 10000)\n";

enum { OPT_LANES = 800, OPT_BINS };

static void usage(FILE *out)
{
    cli_usage_put(usage_text, out);
    fputs(cli_picture_usage, out);
    fputs(cli_analyze_usage, out);
}

static int option(void *ctx, int c, const char *arg)
{
    struct timeline_opts *o = ctx;
    char *end;
    long n;
    switch (c) {
    case OPT_LANES:
    case OPT_BINS:
        n = strtol(arg, &end, 10);
        if (end == arg || *end || n < 1 || n > (c == OPT_LANES ? 1000 : 10000)) {
            cli_errorf("%s takes 1 to %d, not '%s'", c == OPT_LANES ? "--lanes" : "--bins",
                       c == OPT_LANES ? 1000 : 10000, arg);
            return CLI_USAGE;
        }
        *(c == OPT_LANES ? &o->lanes : &o->bins) = (uint32_t)n;
        return 0;
    default:
        return cli_picture_option(&o->p, c, arg);
    }
}

static int report(const void *ctx, struct cli_picture *p, struct iodfg_buf *b)
{
    const struct timeline_opts *o = ctx;
    struct iodfg_heatmap_opts ho = {
        .by = IODFG_HEATMAP_ACTIVITY,
        .from_ns = p->win_from,
        .to_ns = p->win_to,
        .nbins = o->bins,
    };
    struct iodfg_heatmap hm;
    iodfg_heatmap_init(&hm);
    struct iodfg_error err;
    iodfg_error_clear(&err);
    int rc = iodfg_heatmap_build(&hm, &p->in, &ho, &err); // with the session's time order: peaks
    if (rc == 0) {
        struct iodfg_svg_opts so;
        iodfg_svg_opts_init(&so);
        so.width = o->p.width;
        so.lanes = o->lanes;
        enum cli_picture_format f = o->p.format;
        rc = f == CLI_PIC_TSV    ? iodfg_heatmap_tsv(b, &hm)
             : f == CLI_PIC_JSON ? iodfg_heatmap_json(b, &hm, &p->meta)
                                 : iodfg_svg_timeline(b, &hm, &p->meta, &so);
        if (rc) {
            iodfg_error_set(&err, IODFG_E_NOMEM, NULL);
        }
    }
    iodfg_heatmap_fini(&hm);
    if (rc) {
        cli_error(&err);
        return CLI_FAIL;
    }
    return CLI_OK;
}

int cli_timeline(int argc, char **argv)
{
    static const struct option own[] = {
        CLI_PICTURE_LONGOPTS,
        {"lanes", required_argument, NULL, OPT_LANES},
        {"bins", required_argument, NULL, OPT_BINS},
        {NULL, 0, NULL, 0},
    };
    // rebuilt: the session's time order gives each bin's exact peak
    static const struct cli_picture_cmd cmd = {"timeline", usage_text, usage, own,
                                               option,     report,     1};
    struct timeline_opts o = {.bins = 100, .lanes = 12};
    return cli_picture_main(&cmd, &o.p, &o, argc, argv);
}
