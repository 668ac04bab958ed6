/* SPDX-License-Identifier: MIT */
/* `iodfg bandwidth`: Wright et al.'s perceived vs effective bandwidth and time shares, per
 * activity, per call, per case (with a stacked time-share bar) and overall. */
#include "config.h"

#include <getopt.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "iodfg/bandwidth.h"
#include "iodfg/error.h"
#include "iodfg/format.h"
#include "iodfg/rules.h"
#include "iodfg/sanitize.h"
#include "iodfg/strpool.h"

#include "cli.h"

enum bw_by { BY_ACTIVITY = 0, BY_CALL, BY_CASE };
static const char *const by_names[] = {"activity", "call", "case"};
static const char *const group_names[IODFG_BW__N] = {"(read)", "(write)", "(all)"};
/* Glyphs of the stacked bars, one per call in call order (legend printed below the bars). */
static const char glyphs[] = "#=*+%@o:x~-^";

struct bw_opts {
    struct cli_analyze_opts a;
    enum bw_by by;
    enum cli_format format;
    int width;
};

static void row_out(struct iodfg_buf *b, enum cli_format f, const char *kind, const char *name,
                    const struct iodfg_bw_row *r, int *first)
{
    if (f == CLI_FMT_TABLE) {
        char v[4][IODFG_FORMAT_MIN];
        cli_cell_name(b, f, name, 32);
        iodfg_buf_addf(b, " %5u %8llu %9s %11s %11s %6s\n", r->cases, (unsigned long long)r->count,
                       iodfg_format_bytes(v[0], sizeof(v[0]), r->bytes, 0),
                       iodfg_format_rate(v[1], sizeof(v[1]), r->perceived, 0),
                       iodfg_format_rate(v[2], sizeof(v[2]), r->effective, 0),
                       iodfg_format_percent(v[3], sizeof(v[3]), r->share, 0));
    } else if (f == CLI_FMT_TSV) {
        iodfg_buf_addf(b, "%s\t", kind);
        cli_cell_name(b, f, name, 0);
        iodfg_buf_addf(b, "\t%u\t%llu\t%lld\t%lld\t%lld\t%.17g\t%.17g\t%.17g\n", r->cases,
                       (unsigned long long)r->count, (long long)r->bytes, (long long)r->dur_sum_ns,
                       (long long)(r->last_ns - r->first_ns), r->perceived, r->effective, r->share);
    } else {
        iodfg_buf_addf(b, "%s{\"kind\":\"%s\",\"name\":", *first ? "" : ",\n", kind);
        cli_cell_name(b, f, name, 0);
        iodfg_buf_addf(b,
                       ",\"cases\":%u,\"events\":%llu,\"bytes\":%lld,\"dur_sum_ns\":%lld,"
                       "\"span_ns\":%lld,\"perceived\":",
                       r->cases, (unsigned long long)r->count, (long long)r->bytes,
                       (long long)r->dur_sum_ns, (long long)(r->last_ns - r->first_ns));
        iodfg_json_num(b, r->perceived);
        iodfg_buf_addf(b, ",\"effective\":");
        iodfg_json_num(b, r->effective);
        iodfg_buf_addf(b, ",\"time_share\":");
        iodfg_json_num(b, r->share);
        iodfg_buf_addf(b, "}");
    }
    *first = 0;
}

// Per case: the read/write/all rows, and in a table a stacked time-share bar by call.
static void cases_out(struct iodfg_buf *b, const struct cli_metrics *m,
                      const struct iodfg_bandwidth *bw, const struct bw_opts *o, int *first)
{
    const struct iodfg_strpool *pool = iodfg_eventlog_pool(m->log);
    for (uint32_t c = 0; c < bw->ncases; c++) {
        const struct iodfg_bw_row *cr = &bw->case_row[(size_t)c * IODFG_BW__N];
        if (!cr[IODFG_BW_ALL].count) {
            continue;
        }
        const char *cn = iodfg_strpool_get(pool, iodfg_eventlog_case(m->log, c)->name);
        if (o->format == CLI_FMT_TABLE) {
            cli_cell_name(b, o->format, cn, 0);
            iodfg_buf_addf(b, "\n  |");
            iodfg_share_bar(b, bw->case_call_dur + (size_t)c * bw->ncalls, bw->ncalls, o->width,
                            glyphs);
            iodfg_buf_addf(b, "|\n");
        }
        for (int g = 0; g < IODFG_BW__N; g++) {
            if (!cr[g].count) {
                continue;
            }
            char name[512];
            snprintf(name, sizeof(name), "%s%s", o->format == CLI_FMT_TABLE ? "  " : "",
                     group_names[g]);
            if (o->format == CLI_FMT_TABLE) {
                row_out(b, o->format, "case", name, &cr[g], first);
            } else {
                snprintf(name, sizeof(name), "%s %s", cn, group_names[g]);
                row_out(b, o->format, "case", name, &cr[g], first);
            }
        }
        if (o->format != CLI_FMT_TABLE) { // the per-call time shares of the case
            int64_t total = cr[IODFG_BW_ALL].dur_sum_ns;
            for (uint32_t i = 0; i < bw->ncalls; i++) {
                int64_t d = bw->case_call_dur[(size_t)c * bw->ncalls + i];
                if (!d) {
                    continue;
                }
                struct iodfg_bw_row r = {.count = 0,
                                         .dur_sum_ns = d,
                                         .share = total ? (double)d / (double)total : NAN,
                                         .perceived = NAN,
                                         .effective = NAN};
                char name[512];
                snprintf(name, sizeof(name), "%s %s", cn,
                         iodfg_strpool_get(pool, bw->call_name[i]));
                row_out(b, o->format, "case_call", name, &r, first);
            }
        }
    }
    if (o->format == CLI_FMT_TABLE) {
        iodfg_buf_addf(b, "\ntime-share bar legend:");
        for (uint32_t i = 0; i < bw->ncalls; i++) {
            if (bw->call[i].count) {
                iodfg_buf_addf(b, " %c=", glyphs[i % (sizeof(glyphs) - 1)]);
                cli_cell_name(b, o->format, iodfg_strpool_get(pool, bw->call_name[i]), 0);
            }
        }
        iodfg_buf_addf(b, "\n");
    }
}

static void bandwidth_out(struct iodfg_buf *b, const struct cli_metrics *m,
                          const struct iodfg_bandwidth *bw, const struct bw_opts *o, int *first)
{
    const struct iodfg_strpool *pool = iodfg_eventlog_pool(m->log);
    if (o->format == CLI_FMT_TABLE) {
        iodfg_buf_addf(b, "%-32s %5s %8s %9s %11s %11s %6s\n", by_names[o->by], "cases", "events",
                       "bytes", "perceived", "effective", "time");
    }
    if (o->by == BY_ACTIVITY) {
        for (uint32_t a = 0; a < bw->nactivities; a++) {
            if (bw->act[a].count) {
                row_out(b, o->format, "activity", iodfg_mapping_name(m->map, a), &bw->act[a],
                        first);
            }
        }
    } else if (o->by == BY_CALL) {
        for (uint32_t i = 0; i < bw->ncalls; i++) {
            if (bw->call[i].count) {
                row_out(b, o->format, "call", iodfg_strpool_get(pool, bw->call_name[i]),
                        &bw->call[i], first);
            }
        }
    } else {
        cases_out(b, m, bw, o, first);
    }
    if (o->format == CLI_FMT_TABLE) {
        iodfg_buf_addf(b, "\n");
    }
    for (int g = 0; g < IODFG_BW__N; g++) {
        row_out(b, o->format, "overall", group_names[g], &bw->overall[g], first);
    }
}

static int run(const struct bw_opts *o, char *const *inputs, size_t n)
{
    struct cli_metrics m;
    int rc = cli_metrics_run(&m, &o->a, inputs, n, 0);
    struct iodfg_buf b;
    iodfg_buf_init(&b);
    if (o->format == CLI_FMT_TSV) {
        iodfg_buf_addf(&b, "group\tkind\tname\tcases\tevents\tbytes\tdur_sum_ns\tspan_ns"
                           "\tperceived_Bps\teffective_Bps\ttime_share\n");
    } else if (o->format == CLI_FMT_JSON) {
        iodfg_buf_addf(&b, "{\"by\":\"%s\",\"groups\":[", by_names[o->by]);
    }
    for (int g = 0; rc == CLI_OK && g < m.ngroups; g++) {
        struct iodfg_bandwidth bw;
        struct iodfg_error err;
        iodfg_bandwidth_init(&bw);
        iodfg_error_clear(&err);
        if (iodfg_bandwidth_build(&bw, m.log, m.map, &m.sel[g], &err)) {
            cli_error(&err);
            rc = CLI_FAIL;
            break;
        }
        const char *gn = cli_metrics_group_name(&m, g);
        int first = 1;
        struct iodfg_buf part;
        iodfg_buf_init(&part);
        if (o->format == CLI_FMT_TABLE) {
            if (m.ngroups > 1) {
                iodfg_buf_addf(&b, "%s== group %s\n", g ? "\n" : "", gn);
            }
            bandwidth_out(&b, &m, &bw, o, &first);
        } else if (o->format == CLI_FMT_TSV) {
            bandwidth_out(&part, &m, &bw, o, &first);
            for (const char *p = part.data; p && *p;) { // prefix each row with the group
                const char *nl = strchr(p, '\n');
                size_t len = nl ? (size_t)(nl - p) + 1 : strlen(p);
                iodfg_buf_addf(&b, "%s\t", gn);
                iodfg_buf_add(&b, p, len);
                p += len;
            }
        } else {
            iodfg_buf_addf(&b, "%s{\"group\":\"%s\",\"rows\":[\n", g ? ",\n" : "", gn);
            bandwidth_out(&b, &m, &bw, o, &first);
            iodfg_buf_addf(&b, "]}");
        }
        iodfg_buf_fini(&part);
        iodfg_bandwidth_fini(&bw);
    }
    return cli_metrics_finish(&m, &o->a, &b, rc, o->format == CLI_FMT_JSON);
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
                if (strcmp(optarg, by_names[i]) == 0) {
                    o.by = (enum bw_by)i;
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
        rc = run(&o, argv + optind, (size_t)(argc - optind));
    }
    cli_analyze_opts_fini(&o.a);
    return rc < 0 ? CLI_OK : rc; // -1: --help
}
