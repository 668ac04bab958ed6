/* SPDX-License-Identifier: MIT */
/* `iodfg dfg`: the Directly-Follows Graph as DOT (or TSV/JSON), optionally rendered to SVG/PNG
 * by Graphviz. */
#include "config.h"

#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "iodfg/buf.h"
#include "iodfg/error.h"
#include "iodfg/export.h"
#include "iodfg/report_json.h"
#include "iodfg/report_tsv.h"
#include "iodfg/session.h"

#include "cli_analyze.h"

static const char dfg_usage_head[] =
    "usage: iodfg dfg [OPTIONS] LOG.h5|FILES|DIRS...\n"
    "Write the Directly-Follows Graph of the I/O activities (DOT by default).\n"
    "      --format F          dot (default), tsv or json\n"
    "      --color S           shade nodes by rd (default), bytes, count, mc, dr or\n"
    "                          none\n"
    "      --palette P         G/R colours: default (green/red) or colorblind\n"
    "                          (blue/orange)\n"
    "      --svg, --png        render the DOT with Graphviz 'dot' into an SVG or PNG\n";

enum { OPT_FORMAT = 300, OPT_COLOR, OPT_PALETTE, OPT_SVG, OPT_PNG };

static void usage(FILE *out)
{
    cli_usage_put(dfg_usage_head, out);
    fputs(cli_analyze_usage, out);
}

// Index of arg in the NULL-terminated list names, or -1 after a message.
static int pick(const char *opt, const char *arg, const char *const *names)
{
    for (int i = 0; names[i]; i++) {
        if (strcmp(arg, names[i]) == 0) {
            return i;
        }
    }
    cli_errorf("%s: unknown value '%s'", opt, arg);
    return -1;
}

static int dfg_option(struct cli_dfg_opts *d, int c, const char *arg)
{
    static const char *const formats[] = {"dot", "tsv", "json", NULL};
    static const char *const shades[] = {"rd", "bytes", "count", "mc", "dr", "none", NULL};
    static const enum iodfg_shade shade_of[] = {IODFG_SHADE_RD,    IODFG_SHADE_BYTES,
                                                IODFG_SHADE_COUNT, IODFG_SHADE_MC,
                                                IODFG_SHADE_DR,    IODFG_SHADE_NONE};
    static const char *const palettes[] = {"default", "colorblind", NULL};
    int i;
    switch (c) {
    case OPT_FORMAT:
        if ((i = pick("--format", arg, formats)) < 0) {
            return CLI_USAGE;
        }
        d->format = (enum cli_dfg_format)i;
        d->format_given = 1;
        return 0;
    case OPT_COLOR:
        if ((i = pick("--color", arg, shades)) < 0) {
            return CLI_USAGE;
        }
        d->shade = shade_of[i];
        return 0;
    case OPT_PALETTE:
        if ((i = pick("--palette", arg, palettes)) < 0) {
            return CLI_USAGE;
        }
        d->palette = i ? IODFG_PALETTE_BLUE_ORANGE : IODFG_PALETTE_GREEN_RED;
        return 0;
    case OPT_SVG:
    case OPT_PNG:
        if (d->render) {
            cli_errorf("give only one of --svg and --png");
            return CLI_USAGE;
        }
        d->render = c == OPT_SVG ? "svg" : "png";
        return 0;
    default:
        return cli_analyze_option(&d->a, c, arg);
    }
}

static int dfg_option_cb(void *ctx, int c, const char *arg)
{
    return dfg_option(ctx, c, arg);
}

int cli_dfg_parse(struct cli_dfg_opts *d, int argc, char **argv)
{
    static const struct option own[] = {
        {"format", required_argument, NULL, OPT_FORMAT},
        {"color", required_argument, NULL, OPT_COLOR},
        {"colour", required_argument, NULL, OPT_COLOR},
        {"palette", required_argument, NULL, OPT_PALETTE},
        {"svg", no_argument, NULL, OPT_SVG},
        {"png", no_argument, NULL, OPT_PNG},
        {"help", no_argument, NULL, 'h'},
        {NULL, 0, NULL, 0},
    };
    memset(d, 0, sizeof(*d));
    d->format = CLI_DFG_DOT;
    d->shade = IODFG_SHADE_RD;
    d->palette = IODFG_PALETTE_GREEN_RED;
    if (cli_analyze_opts_init(&d->a)) {
        return CLI_FAIL;
    }
    int rc = cli_analyze_getopt(argc, argv, own, dfg_option_cb, d, usage, "dfg");
    if (rc) {
        return rc;
    }
    if (d->render && d->format_given && d->format != CLI_DFG_DOT) {
        cli_errorf("--%s renders the DOT graph; it cannot be combined with --format tsv/json",
                   d->render);
        return CLI_USAGE;
    }
    if (d->render && !strcmp(d->render, "png") && !d->a.output && isatty(STDOUT_FILENO)) {
        cli_errorf("not writing a PNG to the terminal; give -o FILE.png");
        return CLI_USAGE;
    }
    return cli_analyze_ready(&d->a, argv, optind, argc, "dfg needs an event log or trace files",
                             dfg_usage_head);
}

int cli_dfg_edge_gaps(const struct cli_dfg_opts *d)
{
    return d->format != CLI_DFG_DOT; // TSV and JSON list the edges' gap medians
}

// Run `dot -T<fmt>` with the DOT on its standard input and out_fd as its output.
// CLI_OK or CLI_FAIL after a message.
static int run_dot(const struct iodfg_buf *dot, const char *fmt, int out_fd)
{
    char targ[16], command[64], missing[200];
    snprintf(targ, sizeof(targ), "-T%s", fmt);
    snprintf(command, sizeof(command), "Graphviz 'dot -T%s'", fmt);
    snprintf(missing, sizeof(missing),
             "cannot render --%s: Graphviz 'dot' is not installed or not on PATH (Debian: "
             "apt-get install graphviz); --format dot writes the graph for rendering elsewhere",
             fmt);
    char prog[] = "dot";
    char *args[] = {prog, targ, NULL};
    struct cli_pipe p = {args, "Graphviz 'dot'", command, missing};
    return cli_pipe_run(&p, dot->data, dot->len, out_fd);
}

struct render_ctx {
    const struct iodfg_buf *dot;
    const char *fmt;
};

static int render_to(void *ctx, int fd)
{
    const struct render_ctx *r = ctx;
    return run_dot(r->dot, r->fmt, fd);
}

int cli_dfg_write(const struct cli_dfg_opts *d, const struct iodfg_buf *b)
{
    if (!d->render) {
        return cli_output_write(&d->a, b);
    }
    // into -o FILE atomically (a temp file beside it, renamed when dot succeeded) or stdout
    struct render_ctx r = {b, d->render};
    return cli_output_stream(&d->a, render_to, &r);
}

static int dot(const struct cli_dfg_opts *d, const struct cli_analysis *ca, struct iodfg_buf *b)
{
    const struct iodfg_session *s = ca->ses;
    struct iodfg_dot_options o;
    iodfg_dot_options_init(&o);
    o.comment = ca->comment.data;
    o.shade = d->shade;
    o.palette = d->palette;
    o.diff = ca->groups ? iodfg_session_diff(s) : NULL;
    // masks only when something is hidden (minedge/top): otherwise everything is shown
    o.node_on = iodfg_session_pruned(s) ? iodfg_session_node_on(s) : NULL;
    o.edge_on = iodfg_session_pruned(s) ? iodfg_session_edge_on(s) : NULL;
    struct iodfg_error err;
    iodfg_error_clear(&err);
    if (iodfg_export_dot(b, iodfg_session_dfg(s), iodfg_session_stats(s), iodfg_session_mapping(s),
                         &o, &err)) {
        cli_error(&err);
        return CLI_FAIL;
    }
    return CLI_OK;
}

int cli_dfg_report(const struct cli_dfg_opts *d, const struct cli_analysis *ca, struct iodfg_buf *b)
{
    if (d->format == CLI_DFG_DOT) {
        return dot(d, ca, b);
    }
    uint32_t *act = NULL, *edges = NULL;
    long nact = iodfg_report_activities(ca->ses, IODFG_AC_RD, 1, 0, &act);
    long nedges = iodfg_report_edges(ca->ses, IODFG_EC_COUNT, 1, 0, &edges);
    struct iodfg_report_analysis a = {.ses = ca->ses,
                                      .act = act,
                                      .nact = nact > 0 ? (size_t)nact : 0,
                                      .edges = edges,
                                      .nedges = nedges > 0 ? (size_t)nedges : 0,
                                      .groups = ca->groups,
                                      .comment = ca->comment.data};
    struct iodfg_error err;
    iodfg_error_clear(&err);
    int rc = -1;
    if (nact < 0 || nedges < 0) {
        iodfg_error_set(&err, IODFG_E_NOMEM, NULL);
    } else if (d->format == CLI_DFG_TSV) {
        rc = iodfg_report_tsv_analysis(b, &a, &err);
    } else {
        rc = iodfg_report_json_analysis(b, &a, &err);
    }
    free(act);
    free(edges);
    if (rc) {
        cli_error(&err);
        return CLI_FAIL;
    }
    return CLI_OK;
}

int cli_dfg(int argc, char **argv)
{
    struct cli_dfg_opts d;
    struct cli_analysis ca;
    cli_analysis_init(&ca);
    struct iodfg_buf b;
    iodfg_buf_init(&b);
    int rc = cli_dfg_parse(&d, argc, argv);
    if (rc == CLI_OK) {
        rc = cli_analysis_run(&ca, &d.a, "dfg");
    }
    if (rc == CLI_OK) {
        rc = cli_dfg_report(&d, &ca, &b);
    }
    if (rc == CLI_OK) {
        rc = cli_dfg_write(&d, &b);
    }
    iodfg_buf_fini(&b);
    cli_analysis_fini(&ca);
    cli_analyze_opts_fini(&d.a);
    return rc < 0 ? CLI_OK : rc; // -1: --help
}
