/* SPDX-License-Identifier: MIT */
/* `iodfg stats`: ranked activity and transition tables, aligned for people (human units,
 * escaped names, G/R markers) or as TSV/JSON with exact values for tools. */
#include "config.h"

#include <getopt.h>
#include <stdlib.h>
#include <string.h>

#include "iodfg/buf.h"
#include "iodfg/error.h"
#include "iodfg/export.h"
#include "iodfg/report_json.h"
#include "iodfg/report_table.h"
#include "iodfg/report_tsv.h"

#include "cli_analyze.h"

static const char stats_usage_head[] =
    "usage: iodfg stats [OPTIONS] LOG.h5|FILES|DIRS...\n"
    "Rank the I/O activities (and with --transitions the DFG's edges) by their\n"
    "statistics.\n"
    "      --format F          table (default), tsv or json\n"
    "      --sort COL          sort by a column: activity, count, cases, dur_sum, rd,\n"
    "                          bytes, dr_mean, mc, DR, dur_min, dur_median (p50),\n"
    "                          dur_p95 (p95), dur_max; transitions also by from, to,\n"
    "                          gap_mean, gap_median (default: rd, and count for\n"
    "                          transitions; names ascending, numbers descending)\n"
    "      --reverse           reverse the order\n"
    "      --top N             show at most N rows per table (default: all)\n"
    "      --transitions       also list the transitions (edges) of the DFG\n";

enum { OPT_FORMAT = 300, OPT_SORT, OPT_REVERSE, OPT_TOP, OPT_TRANSITIONS };

static void usage(FILE *out)
{
    cli_usage_put(stats_usage_head, out);
    fputs(cli_analyze_usage, out);
}

/* ---- --sort ------------------------------------------------------------------- */

// Short names people type, and the exported column they stand for.
static const struct {
    const char *alias, *name;
} sort_aliases[] = {
    {"name", "activity"},        {"n", "count"},        {"dur", "dur_sum_ns"},
    {"dr", "dr_mean_Bps"},       {"min", "dur_min_ns"}, {"p50", "dur_median_ns"},
    {"median", "dur_median_ns"}, {"p95", "dur_p95_ns"}, {"max", "dur_max_ns"},
    {"gap", "gap_mean_ns"},
};

// Column of name in one table, trying name, name_ns and name_Bps.
static int find_col(const char *name, int (*find)(const char *))
{
    static const char *const suffixes[] = {"", "_ns", "_Bps"};
    char buf[96];
    for (size_t i = 0; i < sizeof(suffixes) / sizeof(suffixes[0]); i++) {
        snprintf(buf, sizeof(buf), "%s%s", name, suffixes[i]);
        int c = find(buf);
        if (c >= 0) {
            return c;
        }
    }
    return -1;
}

static int parse_sort(struct cli_stats_opts *s, const char *arg)
{
    const char *name = arg;
    for (size_t i = 0; i < sizeof(sort_aliases) / sizeof(sort_aliases[0]); i++) {
        if (strcmp(arg, sort_aliases[i].alias) == 0) {
            name = sort_aliases[i].name;
        }
    }
    s->act_col = find_col(name, iodfg_export_act_col_find);
    s->edge_col = find_col(name, iodfg_export_edge_col_find);
    if (s->act_col < 0 && s->edge_col < 0) {
        cli_errorf("--sort: unknown column '%s'", arg);
        return CLI_USAGE;
    }
    s->sort = arg;
    return 0;
}

static int parse_top(const char *arg, size_t *top)
{
    char *end;
    long long v = strtoll(arg, &end, 10);
    if (!*arg || *end || v < 0) {
        cli_errorf("--top expects a number of rows, not '%s'", arg);
        return CLI_USAGE;
    }
    *top = (size_t)v;
    return 0;
}

static int stats_option(struct cli_stats_opts *s, int c, const char *arg)
{
    switch (c) {
    case OPT_FORMAT:
        if (!strcmp(arg, "table") || !strcmp(arg, "tsv") || !strcmp(arg, "json")) {
            s->format =
                arg[0] == 't' ? (arg[1] == 'a' ? CLI_FMT_TABLE : CLI_FMT_TSV) : CLI_FMT_JSON;
            return 0;
        }
        cli_errorf("--format: unknown value '%s' (table, tsv or json)", arg);
        return CLI_USAGE;
    case OPT_SORT:
        return parse_sort(s, arg);
    case OPT_REVERSE:
        s->reverse = 1;
        return 0;
    case OPT_TOP:
        return parse_top(arg, &s->top);
    case OPT_TRANSITIONS:
        s->transitions = 1;
        return 0;
    default:
        return cli_analyze_option(&s->a, c, arg);
    }
}

static int stats_option_cb(void *ctx, int c, const char *arg)
{
    return stats_option(ctx, c, arg);
}

int cli_stats_parse(struct cli_stats_opts *s, int argc, char **argv)
{
    static const struct option own[] = {
        {"format", required_argument, NULL, OPT_FORMAT},
        {"sort", required_argument, NULL, OPT_SORT},
        {"reverse", no_argument, NULL, OPT_REVERSE},
        {"top", required_argument, NULL, OPT_TOP},
        {"transitions", no_argument, NULL, OPT_TRANSITIONS},
        {"help", no_argument, NULL, 'h'},
        {NULL, 0, NULL, 0},
    };
    memset(s, 0, sizeof(*s));
    s->format = CLI_FMT_TABLE;
    s->act_col = s->edge_col = -1;
    if (cli_analyze_opts_init(&s->a)) {
        return CLI_FAIL;
    }
    int rc = cli_analyze_getopt(argc, argv, own, stats_option_cb, s, usage, "stats");
    if (rc) {
        return rc;
    }
    if (!s->sort || s->act_col < 0) {
        s->act_col = IODFG_AC_RD;
    }
    if (!s->sort || s->edge_col < 0) {
        s->edge_col = IODFG_EC_COUNT;
    }
    return cli_analyze_ready(&s->a, argv, optind, argc, "stats needs an event log or trace files",
                             stats_usage_head);
}

int cli_stats_edge_gaps(const struct cli_stats_opts *s)
{
    return s->transitions;
}

/* ---- the report ------------------------------------------------------------------ */

int cli_stats_report(const struct cli_stats_opts *s, const struct cli_analysis *ca,
                     struct iodfg_buf *b)
{
    int act_desc = s->act_col != IODFG_AC_NAME, edge_desc = s->edge_col > IODFG_EC_TO;
    uint32_t *act = NULL, *edges = NULL, *all = NULL;
    long nact = iodfg_report_activities(ca->ses, s->act_col, act_desc != s->reverse, s->top, &act);
    long total_act = iodfg_report_activities(ca->ses, s->act_col, 1, 0, &all);
    free(all);
    all = NULL;
    long nedges = 0, total_edges = 0;
    if (s->transitions) {
        nedges = iodfg_report_edges(ca->ses, s->edge_col, edge_desc != s->reverse, s->top, &edges);
        total_edges = iodfg_report_edges(ca->ses, s->edge_col, 1, 0, &all);
        free(all);
    }
    struct iodfg_report_analysis a = {
        .ses = ca->ses,
        .act = act,
        .nact = nact > 0 ? (size_t)nact : 0,
        .total_act = total_act > 0 ? (size_t)total_act : 0,
        .edges = s->transitions ? edges : NULL,
        .nedges = nedges > 0 ? (size_t)nedges : 0,
        .total_edges = total_edges > 0 ? (size_t)total_edges : 0,
        .groups = ca->groups,
        .comment = ca->comment.data,
        .act_col = s->act_col,
        .edge_col = s->edge_col,
        .reversed = s->reverse,
        .green = s->a.green,
        .red = s->a.red,
    };
    struct iodfg_error err;
    iodfg_error_clear(&err);
    int rc = -1;
    if (nact < 0 || total_act < 0 || nedges < 0 || total_edges < 0) {
        iodfg_error_set(&err, IODFG_E_NOMEM, NULL);
    } else if (s->format == CLI_FMT_TSV) {
        rc = iodfg_report_tsv_analysis(b, &a, &err);
    } else if (s->format == CLI_FMT_JSON) {
        rc = iodfg_report_json_analysis(b, &a, &err);
    } else {
        rc = iodfg_report_table_analysis(b, &a, &err);
    }
    free(act);
    free(edges);
    if (rc) {
        cli_error(&err);
        return CLI_FAIL;
    }
    return CLI_OK;
}

/* ---- the command --------------------------------------------------------------- */

int cli_stats(int argc, char **argv)
{
    struct cli_stats_opts s;
    struct cli_analysis ca;
    cli_analysis_init(&ca);
    struct iodfg_buf b;
    iodfg_buf_init(&b);
    int rc = cli_stats_parse(&s, argc, argv);
    if (rc == CLI_OK) {
        rc = cli_analysis_run(&ca, &s.a, "stats");
    }
    if (rc == CLI_OK) {
        rc = cli_stats_report(&s, &ca, &b);
    }
    if (rc == CLI_OK) {
        rc = cli_output_write(&s.a, &b);
    }
    iodfg_buf_fini(&b);
    cli_analysis_fini(&ca);
    cli_analyze_opts_fini(&s.a);
    return rc < 0 ? CLI_OK : rc; // -1: --help
}
