/* SPDX-License-Identifier: MIT */
/* `iodfg characterize`: the binned metrics of El Sayed et al. 2016, the bandwidths of Wright et
 * al. 2013 and the access patterns of the selection; also the binned metrics of server-side
 * counter samples (--counters FILE.csv). */
#include "config.h"

#include <ctype.h>
#include <errno.h>
#include <getopt.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "iodfg/characterize.h"
#include "iodfg/counters.h"
#include "iodfg/counters_csv.h"
#include "iodfg/error.h"
#include "iodfg/metrics.h"
#include "iodfg/report_json.h"
#include "iodfg/report_table.h"
#include "iodfg/report_tsv.h"
#include "iodfg/session.h"

#include "cli_analyze.h"

/* ---- option values ---- */

// "250us", "10ms", "2s", "500ns", "1.5" (seconds) -> ns; -1 when malformed or not positive.
static int64_t parse_duration(const char *s)
{
    char *end;
    errno = 0;
    double v = strtod(s, &end);
    static const struct {
        const char *unit;
        double ns;
    } units[] = {{"", 1e9}, {"s", 1e9}, {"ms", 1e6}, {"us", 1e3}, {"µs", 1e3}, {"ns", 1}};
    for (size_t i = 0; errno == 0 && end != s && i < sizeof(units) / sizeof(units[0]); i++) {
        if (strcmp(end, units[i].unit) == 0) {
            double ns = v * units[i].ns;
            return ns >= 1 && ns < 9e18 ? (int64_t)llround(ns) : -1;
        }
    }
    return -1;
}

// "0", "4096", "128KiB", "1M", "2GiB" -> bytes; -1 when malformed.
static double parse_bytes(const char *s)
{
    char *end;
    errno = 0;
    double v = strtod(s, &end);
    if (errno || end == s || !(v >= 0) || !isfinite(v)) {
        return -1;
    }
    static const char *const units[] = {"", "K", "M", "G", "T"};
    for (int i = 0; i < 5; i++) {
        size_t ul = strlen(units[i]);
        if (strncmp(end, units[i], ul) == 0 &&
            (end[ul] == '\0' || strcmp(end + ul, "B") == 0 || (i && strcmp(end + ul, "iB") == 0))) {
            return v * pow(1024, i);
        }
    }
    return -1;
}

static const char usage_text[] =
    "usage: iodfg characterize [OPTIONS] LOG.h5|TRACES...\n"
    "       iodfg characterize --counters FILE.csv [--dt T] [--threshold C]\n"
    "                          [--format F]\n"
    "I/O characterisation of the selected events (doc/metrics.md): volumes,\n"
    "bandwidth, IOPS, I/O intensity, burstiness and parallel intensity over time\n"
    "bins (El Sayed et al. 2016); perceived vs effective bandwidth, time shares and\n"
    "stair-case index per activity (Wright et al. 2013); access patterns with\n"
    "request-size histograms.\n"
    "\n"
    "      --dt T              bin width: 250us, 10ms, 2s (default: from the span, at\n"
    "                          most 100 bins)\n"
    "      --threshold C       c of Eq. (3) in bytes: 0, 4096, 128KiB, 1MiB\n"
    "                          (default 0)\n"
    "      --by host|case|file what a server is (default host)\n"
    "      --alignment N       offsets not a multiple of N are unaligned\n"
    "                          (default 4096)\n"
    "      --per-file          access patterns per (case, file) in the table too\n"
    "      --width N           chart width in columns (default 72)\n"
    "      --counters FILE     server-side counter samples (CSV) instead of a log\n"
    "      --format F          table (default), tsv or json\n";

enum {
    OPT_DT = 512,
    OPT_THRESHOLD,
    OPT_BY,
    OPT_FORMAT,
    OPT_ALIGN,
    OPT_PER_FILE,
    OPT_WIDTH,
    OPT_COUNTERS,
    OPT_HELP
};

/* One option of characterize's own (or the shared ones): CLI_OK, or an enum cli_exit after a
 * message (-1 after --help). */
static int char_option(struct cli_char_opts *o, int c, const char *arg)
{
    double v;
    switch (c) {
    case OPT_DT:
        if ((o->bin.dt_ns = parse_duration(arg)) > 0) {
            return CLI_OK;
        }
        cli_errorf("--dt takes a positive duration like 250us, 10ms or 2s, not '%s'", arg);
        return CLI_USAGE;
    case OPT_THRESHOLD:
        if ((o->bin.threshold = parse_bytes(arg)) >= 0) {
            return CLI_OK;
        }
        cli_errorf("--threshold takes bytes like 0, 4096, 128KiB or 1MiB, not '%s'", arg);
        return CLI_USAGE;
    case OPT_BY:
        if (iodfg_server_by_parse(arg, &o->bin.by) == 0) {
            return CLI_OK;
        }
        cli_errorf("--by takes host, case or file, not '%s'", arg);
        return CLI_USAGE;
    case OPT_FORMAT:
        return cli_format_parse(arg, &o->format);
    case OPT_ALIGN:
        if ((v = parse_bytes(arg)) >= 1 && v <= 1e15) {
            o->alignment = (int64_t)v;
            return CLI_OK;
        }
        cli_errorf("--alignment takes a positive number of bytes, not '%s'", arg);
        return CLI_USAGE;
    case OPT_PER_FILE:
        o->per_file = 1;
        return CLI_OK;
    case OPT_WIDTH:
        o->width = atoi(arg);
        if (o->width >= 8 && o->width <= 1000) {
            return CLI_OK;
        }
        cli_errorf("--width takes 8 to 1000 columns, not '%s'", arg);
        return CLI_USAGE;
    case OPT_COUNTERS:
        o->counters = arg;
        return CLI_OK;
    default:
        return cli_analyze_other_option(&o->a, c, arg, usage_text);
    }
}

int cli_char_parse(struct cli_char_opts *o, int argc, char **argv)
{
    static const struct option own[] = {
        {"dt", required_argument, NULL, OPT_DT},
        {"threshold", required_argument, NULL, OPT_THRESHOLD},
        {"by", required_argument, NULL, OPT_BY},
        {"format", required_argument, NULL, OPT_FORMAT},
        {"alignment", required_argument, NULL, OPT_ALIGN},
        {"per-file", no_argument, NULL, OPT_PER_FILE},
        {"width", required_argument, NULL, OPT_WIDTH},
        {"counters", required_argument, NULL, OPT_COUNTERS},
        {"help", no_argument, NULL, 'h'},
        {NULL, 0, NULL, 0},
    };
    struct option longopts[64];
    memset(o, 0, sizeof(*o));
    o->alignment = 4096;
    o->width = 72;
    if (cli_analyze_opts_init(&o->a) || cli_analyze_longopts(longopts, 64, own)) {
        return CLI_FAIL;
    }
    int rc = CLI_OK, c;
    optind = 0; // glibc starts afresh (a batch runs commands one after another)
    while (rc == CLI_OK &&
           (c = getopt_long(argc, argv, CLI_ANALYZE_SHORTOPTS "h", longopts, NULL)) != -1) {
        rc = char_option(o, c, optarg);
    }
    if (rc == CLI_OK && o->counters && optind < argc) {
        cli_errorf("--counters takes the place of LOG: give one or the other");
        rc = CLI_USAGE;
    }
    if (rc == CLI_OK) {
        rc = o->counters ? cli_output_check(&o->a, &o->counters, 1)
                         : cli_analyze_ready(&o->a, argv, optind, argc, "characterize", usage_text);
    }
    return rc;
}

/* The selections' characterisations into r[ng] (every one initialised, the caller finishes them),
 * and their cases. */
static int characterize_all(const struct cli_char_opts *o, const struct cli_metrics *m,
                            struct iodfg_characterization *r, struct iodfg_report_charz *g)
{
    for (int i = 0; i < m->ngroups; i++) {
        iodfg_characterization_init(&r[i]);
    }
    for (int i = 0; i < m->ngroups; i++) {
        struct iodfg_error err;
        iodfg_error_clear(&err);
        if (iodfg_session_characterize(m->ses, &m->sel[i], &o->bin, o->alignment, &r[i], &err)) {
            cli_error(&err);
            return CLI_FAIL;
        }
        g[i].group = m->ngroups > 1 ? (i ? "R" : "G") : "all";
        g[i].cases = iodfg_session_case_total(m->ses, m->sel[i].case_on); // of the whole log
        g[i].r = &r[i];
    }
    return CLI_OK;
}

int cli_char_report(const struct cli_char_opts *o, const struct cli_metrics *m, struct iodfg_buf *b)
{
    struct iodfg_characterization r[2];
    struct iodfg_report_charz g[2];
    int rc = characterize_all(o, m, r, g);
    struct iodfg_report_charz_opts ro = {
        .log = m->log, .map = m->map, .by = o->bin.by, .width = o->width, .per_file = o->per_file};
    struct iodfg_error err;
    iodfg_error_clear(&err);
    if (rc == CLI_OK) {
        int failed =
            o->format == CLI_FMT_TABLE ? iodfg_report_table_charz(b, g, m->ngroups, &ro, &err)
            : o->format == CLI_FMT_TSV ? iodfg_report_tsv_charz(b, g, m->ngroups, &ro, &err)
                                       : iodfg_report_json_charz(b, g, m->ngroups, &ro, &err);
        if (failed) {
            cli_error(&err);
            rc = CLI_FAIL;
        }
    }
    for (int i = 0; i < m->ngroups; i++) {
        iodfg_characterization_fini(&r[i]);
    }
    return rc;
}

int cli_char_counters(const struct cli_char_opts *o, struct iodfg_buf *b)
{
    struct iodfg_counters c;
    struct iodfg_binned bn;
    struct iodfg_error err;
    iodfg_counters_init(&c);
    iodfg_binned_init(&bn);
    iodfg_error_clear(&err);
    int rc = iodfg_counters_read(&c, o->counters, &err) ||
             iodfg_binned_from_counters(&bn, &c, &o->bin, &err);
    if (rc == 0) {
        rc = o->format == CLI_FMT_TABLE
                 ? iodfg_report_table_counters(b, o->counters, c.nsamples, &bn, o->width, &err)
             : o->format == CLI_FMT_TSV ? iodfg_report_tsv_bins(b, &bn, &err)
                                        : iodfg_report_json_bins(b, &bn, &err);
    }
    if (rc) {
        cli_error(&err);
    }
    iodfg_binned_fini(&bn);
    iodfg_counters_fini(&c);
    return rc ? CLI_FAIL : CLI_OK;
}

static int report(const void *ctx, const struct cli_metrics *m, struct iodfg_buf *b)
{
    return cli_char_report(ctx, m, b);
}

int cli_characterize(int argc, char **argv)
{
    struct cli_char_opts o;
    int rc = cli_char_parse(&o, argc, argv);
    if (rc == CLI_OK && o.counters) {
        struct iodfg_buf b;
        iodfg_buf_init(&b);
        rc = cli_char_counters(&o, &b);
        rc = rc == CLI_OK ? cli_output_write(&o.a, &b) : rc;
        iodfg_buf_fini(&b);
    } else if (rc == CLI_OK) {
        rc = cli_metrics_command(&o.a, 1, report, &o);
    }
    cli_analyze_opts_fini(&o.a);
    return rc < 0 ? CLI_OK : rc; // -1: --help
}
