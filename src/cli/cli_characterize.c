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

#include "iodfg/access.h"
#include "iodfg/bandwidth.h"
#include "iodfg/characterize.h"
#include "iodfg/counters.h"
#include "iodfg/counters_csv.h"
#include "iodfg/error.h"
#include "iodfg/format.h"
#include "iodfg/glyph.h"
#include "iodfg/metrics.h"
#include "iodfg/rules.h"
#include "iodfg/sanitize.h"
#include "iodfg/session.h"
#include "iodfg/strpool.h"

#include "cli.h"

/* ---- the shared selection ---- */

int cli_metrics_run(struct cli_metrics *m, const struct cli_analyze_opts *o, char *const *inputs,
                    size_t n, int one_clock)
{
    memset(m, 0, sizeof(*m));
    int groups = 0;
    int rc = cli_session_open(o, inputs, n, IODFG_COL_ALL, &m->log, &m->ses, &groups);
    rc = cli_agree(rc);
    if (rc != CLI_OK) {
        return rc;
    }
    struct iodfg_error err;
    iodfg_error_clear(&err);
    if (iodfg_session_prepare(m->ses, &err)) {
        cli_error(&err);
        rc = CLI_FAIL;
    }
    rc = cli_agree(rc);
    if (rc != CLI_OK) {
        return rc;
    }
    m->map = iodfg_session_mapping(m->ses);
    m->ngroups = groups ? 2 : 1;

    for (int g = 0; g < m->ngroups; g++) {
        iodfg_session_selection(m->ses, groups ? (enum iodfg_group)(g + 1) : IODFG_GROUP_NONE,
                                &m->sel[g]);
    }
    if (one_clock) {
        return cli_metrics_one_clock(m, o->ingest.quiet);
    }
    cli_clock_note(m->log, m->sel[0].case_on, o->ingest.quiet);
    return CLI_OK;
}

const char *cli_metrics_group_name(const struct cli_metrics *m, int g)
{
    return m->ngroups > 1 ? (g ? "R" : "G") : "all";
}

int cli_metrics_one_clock(struct cli_metrics *m, int quiet)
{
    uint32_t n[IODFG_CLOCK__N], all[IODFG_CLOCK__N] = {0}, nc = iodfg_eventlog_case_count(m->log);
    for (int g = 0; g < m->ngroups; g++) {
        iodfg_eventlog_clocks(m->log, m->sel[g].case_on, n);
        for (int k = 0; k < IODFG_CLOCK__N; k++) {
            all[k] += n[k];
        }
    }
    if (cli_job) { // the clocks of every process's cases
        cli_job->sum(cli_job->ctx, all, IODFG_CLOCK__N);
    }
    int used = 0;
    for (int k = 0; k < IODFG_CLOCK__N; k++) {
        used += all[k] > 0;
    }
    if (used < 2) {
        return CLI_OK;
    }
    enum iodfg_clock keep = iodfg_clock_majority(all);
    for (int g = 0; g < m->ngroups; g++) {
        if (!(m->own_mask[g] = malloc((size_t)nc + 1))) {
            cli_errorf("out of memory");
            return CLI_FAIL;
        }
        for (uint32_t c = 0; c < nc; c++) {
            m->own_mask[g][c] = !m->sel[g].case_on || m->sel[g].case_on[c];
        }
        iodfg_eventlog_keep_clock(m->log, m->own_mask[g], keep);
        m->sel[g].case_on = m->own_mask[g];
    }
    if (!quiet) {
        char text[200];
        cli_clocks_text(all, text, sizeof(text));
        cli_errorf("note: the selected cases use different clocks (%s cases); measures over "
                   "time bins cannot mix them, so only the %u %s cases are characterised "
                   "(--align start compares every case as if they started together)",
                   text, all[keep],
                   keep == IODFG_CLOCK_NONE ? "untimed" : iodfg_clock_name((enum iodfg_clock)keep));
    }
    return CLI_OK;
}

int cli_metrics_finish(struct cli_metrics *m, const struct cli_analyze_opts *o, struct iodfg_buf *b,
                       int rc, int json)
{
    if (rc == CLI_OK && json) {
        iodfg_buf_addf(b, "]}\n");
    }
    if (rc == CLI_OK) {
        rc = cli_output_write(o, b);
    }
    iodfg_buf_fini(b);
    cli_metrics_fini(m);
    return rc;
}

void cli_metrics_fini(struct cli_metrics *m)
{
    free(m->own_mask[0]);
    free(m->own_mask[1]);
    iodfg_session_free(m->ses);
    iodfg_eventlog_free(m->log);
    memset(m, 0, sizeof(*m));
}

int cli_format_parse(const char *s, enum cli_format *f)
{
    static const char *const names[] = {"table", "tsv", "json"};
    for (int i = 0; i < 3; i++) {
        if (strcmp(s, names[i]) == 0) {
            *f = (enum cli_format)i;
            return 0;
        }
    }
    cli_errorf("--format takes table, tsv or json, not '%s'", s);
    return CLI_USAGE;
}

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

/* ---- output pieces ---- */

struct char_opts {
    struct cli_analyze_opts a;
    struct iodfg_bin_opts bin;
    enum cli_format format;
    int64_t alignment;
    const char *counters;
    int width;
};

static const char *const dir_name[2] = {"read", "write"};

/* A metric's name padded to 30 display columns (its symbols may take two bytes a column). */
static void metric_label(struct iodfg_buf *b, const char *label)
{
    size_t w = cli_text_width(label, strlen(label));
    iodfg_buf_addf(b, "%s%*s", label, w < 30 ? (int)(30 - w) : 0, "");
}

static void metrics_table(struct iodfg_buf *b, const struct iodfg_binned *bn)
{
    char v[2][IODFG_FORMAT_MIN], l[64];
    const struct iodfg_dir_metrics *r = &bn->dir[0], *w = &bn->dir[1];
    metric_label(b, "metric (El Sayed et al. 2016)");
    iodfg_buf_addf(b, " %12s %12s\n", "read", "write");
#define ROW(label, fn, fr, fw)                                                                     \
    metric_label(b, label);                                                                        \
    iodfg_buf_addf(b, " %12s %12s\n", fn(v[0], sizeof(v[0]), fr, 0), fn(v[1], sizeof(v[1]), fw, 0))
    ROW("N, volume (Eq. 4)", iodfg_format_bytes, (int64_t)llround(r->volume),
        (int64_t)llround(w->volume));
    metric_label(b, "operations");
    iodfg_buf_addf(b, " %12.0f %12.0f\n", r->ops, w->ops);
    ROW("max B(t), bandwidth (Eq. 5)", iodfg_format_rate, r->bw_max, w->bw_max);
    snprintf(l, sizeof(l), "max %s(t), IOPS (Eq. 6)", iodfg_glyph(IODFG_GL_GAMMA));
    metric_label(b, l);
    iodfg_buf_addf(b, " %12.1f %12.1f\n", r->iops_max, w->iops_max);
    ROW("max B(s,t) of one server", iodfg_format_rate, r->server_bw_max, w->server_bw_max);
    snprintf(l, sizeof(l), "bins with I/O > c (%sH)", iodfg_glyph(IODFG_GL_SUM));
    metric_label(b, l);
    iodfg_buf_addf(b, " %12u %12u\n", r->busy_bins, w->busy_bins);
    metric_label(b, "I, I/O intensity (Eq. 7)");
    iodfg_buf_addf(b, " %12.4f %12.4f\n", r->intensity, w->intensity);
    metric_label(b, "l_IO (bins)");
    iodfg_buf_addf(b, " %12.2f %12.2f\n", r->l_io, w->l_io);
    metric_label(b, "l_noIO (bins)");
    iodfg_buf_addf(b, " %12.2f %12.2f\n", r->l_noio, w->l_noio);
    snprintf(l, sizeof(l), "%s, burstiness (Eq. 8)", iodfg_glyph(IODFG_GL_RHO));
    metric_label(b, l);
    iodfg_buf_addf(b, " %12.4f %12.4f\n", r->burstiness, w->burstiness);
    snprintf(l, sizeof(l), "%s, parallel (unnormalised)", iodfg_glyph(IODFG_GL_PI));
    metric_label(b, l);
    iodfg_buf_addf(b, " %12.4f %12.4f\n", r->par_raw, w->par_raw);
    metric_label(b, "P, parallel intensity (Eq. 9)");
    iodfg_buf_addf(b, " %12.4f %12.4f\n", r->parallel, w->parallel);
#undef ROW
}

static void chart(struct iodfg_buf *b, const struct iodfg_binned *bn, int width)
{
    for (int q = 0; q < 2; q++) {
        double max = 0;
        uint8_t *cells = malloc((size_t)width * 9);
        if (cells) {
            max = iodfg_binned_chart_cells(bn, q, width, 9, cells);
            free(cells);
        }
        char v[IODFG_FORMAT_MIN];
        if (q == 0) {
            iodfg_format_rate(v, sizeof(v), max, 0);
        } else {
            snprintf(v, sizeof(v), "%.1f ops/s", max);
        }
        iodfg_buf_addf(b, "\n%s over time (read above the axis, write below; full height %s)\n",
                       q ? "IOPS" : "bandwidth", v);
        iodfg_binned_chart(b, bn, q, width, 9);
    }
}

static void servers_out(struct iodfg_buf *b, const struct iodfg_binned *bn, enum cli_format f)
{
    if (f == CLI_FMT_TABLE) {
        iodfg_buf_addf(b, "\n%-24s %12s %12s %12s %12s\n", "server", "N_r", "N_w", "max B_r",
                       "max B_w");
    } else if (f == CLI_FMT_TSV) {
        iodfg_buf_addf(b, "\nserver\tbytes_read\tbytes_written\tbw_read_max\tbw_write_max\n");
    }
    double dt = (double)bn->dt_ns / 1e9;
    for (uint32_t s = 0; s < bn->nservers; s++) {
        double n[2] = {0, 0}, mx[2] = {0, 0};
        for (int x = 0; x < 2; x++) {
            for (uint32_t i = 0; i < bn->nbins; i++) {
                double v = bn->bytes[x][(size_t)s * bn->nbins + i];
                n[x] += v;
                mx[x] = fmax(mx[x], v / dt);
            }
        }
        if (f == CLI_FMT_TABLE) {
            char v[4][IODFG_FORMAT_MIN];
            cli_cell_name(b, f, bn->server[s], 24);
            iodfg_buf_addf(b, " %12s %12s %12s %12s\n",
                           iodfg_format_bytes(v[0], sizeof(v[0]), (int64_t)llround(n[0]), 0),
                           iodfg_format_bytes(v[1], sizeof(v[1]), (int64_t)llround(n[1]), 0),
                           iodfg_format_rate(v[2], sizeof(v[2]), mx[0], 0),
                           iodfg_format_rate(v[3], sizeof(v[3]), mx[1], 0));
        } else if (f == CLI_FMT_TSV) {
            cli_cell_name(b, f, bn->server[s], 0);
            iodfg_buf_addf(b, "\t%.17g\t%.17g\t%.17g\t%.17g\n", n[0], n[1], mx[0], mx[1]);
        } else {
            iodfg_buf_addf(b, "%s{\"server\":", s ? "," : "");
            cli_cell_name(b, f, bn->server[s], 0);
            iodfg_buf_addf(b,
                           ",\"bytes_read\":%.17g,\"bytes_written\":%.17g,"
                           "\"bw_read_max\":%.17g,\"bw_write_max\":%.17g}",
                           n[0], n[1], mx[0], mx[1]);
        }
    }
}

static const char *const metric_keys[] = {"volume",        "ops",        "bw_max",    "iops_max",
                                          "server_bw_max", "busy_bins",  "intensity", "l_io",
                                          "l_noio",        "burstiness", "par_raw",   "parallel"};

static void metric_values(const struct iodfg_dir_metrics *d, double *v)
{
    const double vals[] = {d->volume,        d->ops,        d->bw_max,    d->iops_max,
                           d->server_bw_max, d->busy_bins,  d->intensity, d->l_io,
                           d->l_noio,        d->burstiness, d->par_raw,   d->parallel};
    memcpy(v, vals, sizeof(vals));
}
#define NMETRIC (sizeof(metric_keys) / sizeof(metric_keys[0]))

// The binned metrics of one selection or of the counters, in the chosen format.
static void time_bins_out(struct iodfg_buf *b, const struct iodfg_binned *bn,
                          const struct char_opts *o)
{
    double v[2][NMETRIC];
    metric_values(&bn->dir[0], v[0]);
    metric_values(&bn->dir[1], v[1]);
    if (o->format == CLI_FMT_TABLE) {
        char t[3][IODFG_FORMAT_MIN];
        iodfg_buf_addf(b, "span %s, %st %s (%u bins), c = %.0f B, %u server(s)\n\n",
                       iodfg_format_duration(t[0], sizeof(t[0]), bn->span_ns, 0),
                       iodfg_glyph(IODFG_GL_DELTA),
                       iodfg_format_duration(t[1], sizeof(t[1]), bn->dt_ns, 0), bn->nbins,
                       bn->threshold, bn->nservers);
        metrics_table(b, bn);
        chart(b, bn, o->width);
        servers_out(b, bn, o->format);
    } else if (o->format == CLI_FMT_TSV) {
        iodfg_buf_addf(b, "metric\tread\twrite\n");
        iodfg_buf_addf(b, "t0_ns\t%lld\t%lld\ndt_ns\t%lld\t%lld\nbins\t%u\t%u\n",
                       (long long)bn->t0_ns, (long long)bn->t0_ns, (long long)bn->dt_ns,
                       (long long)bn->dt_ns, bn->nbins, bn->nbins);
        iodfg_buf_addf(b, "threshold\t%.17g\t%.17g\nservers\t%u\t%u\n", bn->threshold,
                       bn->threshold, bn->nservers, bn->nservers);
        for (size_t i = 0; i < NMETRIC; i++) {
            iodfg_buf_addf(b, "%s\t%.17g\t%.17g\n", metric_keys[i], v[0][i], v[1][i]);
        }
        servers_out(b, bn, o->format);
        iodfg_buf_addf(b, "\nbin\tstart_ns\tbytes_read\tbytes_written\tops_read\tops_written\n");
        for (uint32_t i = 0; i < bn->nbins; i++) {
            iodfg_buf_addf(b, "%u\t%lld\t%.17g\t%.17g\t%.17g\t%.17g\n", i,
                           (long long)(bn->t0_ns + (int64_t)i * bn->dt_ns), bn->total_bytes[0][i],
                           bn->total_bytes[1][i], bn->total_ops[0][i], bn->total_ops[1][i]);
        }
    } else {
        iodfg_buf_addf(b,
                       "{\"t0_ns\":%lld,\"dt_ns\":%lld,\"span_ns\":%lld,\"bins\":%u,"
                       "\"threshold\":%.17g,\"nservers\":%u",
                       (long long)bn->t0_ns, (long long)bn->dt_ns, (long long)bn->span_ns,
                       bn->nbins, bn->threshold, bn->nservers);
        for (int x = 0; x < 2; x++) {
            iodfg_buf_addf(b, ",\"%s\":{", dir_name[x]);
            for (size_t i = 0; i < NMETRIC; i++) {
                iodfg_buf_addf(b, "%s\"%s\":", i ? "," : "", metric_keys[i]);
                iodfg_json_num(b, v[x][i]);
            }
            iodfg_buf_addf(b, ",\"bandwidth\":[");
            for (uint32_t i = 0; i < bn->nbins; i++) {
                iodfg_buf_addf(b, "%s%.17g", i ? "," : "", bn->total_bytes[x][i]);
            }
            iodfg_buf_addf(b, "],\"ops\":[");
            for (uint32_t i = 0; i < bn->nbins; i++) {
                iodfg_buf_addf(b, "%s%.17g", i ? "," : "", bn->total_ops[x][i]);
            }
            iodfg_buf_addf(b, "]}");
        }
        iodfg_buf_addf(b, ",\"servers\":[");
        servers_out(b, bn, o->format);
        iodfg_buf_addf(b, "]}");
    }
}

/* ---- bandwidths (Wright et al.) and access patterns per activity ---- */

void cli_cell_name(struct iodfg_buf *b, enum cli_format f, const char *s, int width)
{
    if (f == CLI_FMT_JSON) {
        iodfg_json_cstr(b, s);
        return;
    }
    if (f == CLI_FMT_TSV) {
        iodfg_sanitize_tsv(b, s, strlen(s));
    } else {
        cli_cell_text(b, s, strlen(s), CLI_CELL_MAX, width);
    }
}

static double pct(uint64_t part, uint64_t whole)
{
    return whole ? 100.0 * (double)part / (double)whole : 0;
}

static void activities_out(struct iodfg_buf *b, const struct cli_metrics *m,
                           const struct iodfg_characterization *r, enum cli_format f)
{
    const char *hdr = "activity\tcases\tevents\tbytes\tdur_sum_ns\tperceived_Bps\teffective_Bps"
                      "\ttime_share\tstair\tbusy_ns";
    if (f == CLI_FMT_TABLE) {
        iodfg_buf_addf(b, "\n%-28s %5s %8s %9s %11s %11s %6s %6s\n", "activity (Wright et al.)",
                       "cases", "events", "bytes", "perceived", "effective", "time", "stair");
    } else if (f == CLI_FMT_TSV) {
        iodfg_buf_addf(b, "\n%s\n", hdr);
    }
    int first = 1;
    for (uint32_t a = 0; a < r->bw.nactivities; a++) {
        const struct iodfg_bw_row *row = &r->bw.act[a];
        const struct iodfg_serial_row *sr = &r->serial.act[a];
        if (!row->count) {
            continue;
        }
        const char *name = iodfg_mapping_name(m->map, a);
        if (f == CLI_FMT_TABLE) {
            char v[4][IODFG_FORMAT_MIN];
            cli_cell_name(b, f, name, 28);
            iodfg_buf_addf(b, " %5u %8llu %9s %11s %11s %6s %6.3f\n", row->cases,
                           (unsigned long long)row->count,
                           iodfg_format_bytes(v[0], sizeof(v[0]), row->bytes, 0),
                           iodfg_format_rate(v[1], sizeof(v[1]), row->perceived, 0),
                           iodfg_format_rate(v[2], sizeof(v[2]), row->effective, 0),
                           iodfg_format_percent(v[3], sizeof(v[3]), row->share, 0), sr->stair);
        } else if (f == CLI_FMT_TSV) {
            cli_cell_name(b, f, name, 0);
            iodfg_buf_addf(b, "\t%u\t%llu\t%lld\t%lld\t%.17g\t%.17g\t%.17g\t%.17g\t%lld\n",
                           row->cases, (unsigned long long)row->count, (long long)row->bytes,
                           (long long)row->dur_sum_ns, row->perceived, row->effective, row->share,
                           sr->stair, (long long)sr->busy_ns);
        } else {
            iodfg_buf_addf(b, "%s{\"activity\":", first ? "" : ",\n");
            cli_cell_name(b, f, name, 0);
            iodfg_buf_addf(b,
                           ",\"cases\":%u,\"events\":%llu,\"bytes\":%lld,\"dur_sum_ns\":%lld,"
                           "\"perceived\":",
                           row->cases, (unsigned long long)row->count, (long long)row->bytes,
                           (long long)row->dur_sum_ns);
            iodfg_json_num(b, row->perceived);
            iodfg_buf_addf(b, ",\"effective\":");
            iodfg_json_num(b, row->effective);
            iodfg_buf_addf(b, ",\"time_share\":");
            iodfg_json_num(b, row->share);
            iodfg_buf_addf(b, ",\"stair\":%.17g,\"busy_ns\":%lld,\"access\":{", sr->stair,
                           (long long)sr->busy_ns);
            for (int x = 0; x < 2; x++) {
                const struct iodfg_access_dir *d = &r->access.act[a].dir[x];
                iodfg_buf_addf(b,
                               "%s\"%s\":{\"ops\":%llu,\"consecutive\":%llu,\"sequential\":%llu,"
                               "\"random\":%llu,\"unknown\":%llu,\"inferred\":%llu,"
                               "\"unaligned\":%llu,\"bytes\":%lld,\"hist\":[",
                               x ? "," : "", dir_name[x], (unsigned long long)d->ops,
                               (unsigned long long)d->consecutive,
                               (unsigned long long)d->sequential, (unsigned long long)d->random,
                               (unsigned long long)d->unknown, (unsigned long long)d->inferred,
                               (unsigned long long)d->unaligned, (long long)d->bytes);
                for (int k = 0; k < IODFG_ACCESS_BINS; k++) {
                    iodfg_buf_addf(b, "%s%llu", k ? "," : "", (unsigned long long)d->hist[k]);
                }
                iodfg_buf_addf(b, "]}");
            }
            iodfg_buf_addf(b, "}}");
        }
        first = 0;
    }
}

static void access_line(struct iodfg_buf *b, enum cli_format f, const char *name, int x,
                        const struct iodfg_access_dir *d)
{
    if (!d->ops) {
        return;
    }
    if (f == CLI_FMT_TABLE) {
        char v[IODFG_FORMAT_MIN];
        cli_cell_name(b, f, name, 28);
        iodfg_buf_addf(b, " %-5s %8llu %6.1f%% %6.1f%% %6.1f%% %6.1f%% %6.1f%% %6.1f%% %9s\n",
                       dir_name[x], (unsigned long long)d->ops, pct(d->consecutive, d->ops),
                       pct(d->sequential, d->ops), pct(d->random, d->ops), pct(d->unknown, d->ops),
                       pct(d->inferred, d->ops), pct(d->unaligned, d->ops),
                       iodfg_format_bytes(v, sizeof(v), iodfg_access_median_bin(d), 0));
    } else {
        cli_cell_name(b, f, name, 0);
        iodfg_buf_addf(b, "\t%s\t%llu\t%llu\t%llu\t%llu\t%llu\t%llu\t%llu\t%lld\t%lld\n",
                       dir_name[x], (unsigned long long)d->ops, (unsigned long long)d->consecutive,
                       (unsigned long long)d->sequential, (unsigned long long)d->random,
                       (unsigned long long)d->unknown, (unsigned long long)d->inferred,
                       (unsigned long long)d->unaligned, (long long)d->bytes,
                       (long long)iodfg_access_median_bin(d));
    }
}

static void access_out(struct iodfg_buf *b, const struct cli_metrics *m,
                       const struct iodfg_characterization *r, enum cli_format f, int per_file)
{
    static const char tsv_cols[] = "\tdir\tops\tconsecutive\tsequential\trandom\tunknown"
                                   "\tinferred\tunaligned\tbytes\tmedian_size_bin\n";
    if (f == CLI_FMT_TABLE) {
        iodfg_buf_addf(b, "\n%-28s %-5s %8s %7s %7s %7s %7s %7s %7s %9s\n", "access pattern", "dir",
                       "ops", "consec", "seq", "random", "unknown", "infer'd", "unalign", "median");
    } else {
        iodfg_buf_addf(b, "\nactivity%s", tsv_cols);
    }
    for (uint32_t a = 0; a < r->access.nactivities; a++) {
        for (int x = 0; x < 2; x++) {
            access_line(b, f, iodfg_mapping_name(m->map, a), x, &r->access.act[a].dir[x]);
        }
    }
    for (int x = 0; x < 2; x++) {
        access_line(b, f, "(all)", x, &r->access.overall.dir[x]);
    }
    const struct iodfg_access_dir *all = r->access.overall.dir;
    if (f == CLI_FMT_TABLE && all[0].inferred + all[1].inferred) {
        iodfg_buf_addf(b, "infer'd: offsets inferred from the opens and the sizes read or written, "
                          "in traces without any lseek\n(lseek not traced?): where the program "
                          "seeked, consec/seq/random are wrong; record with\nstrace -e "
                          "trace=%%file,%%desc or without -e to know.\n");
    }
    if (per_file) {
        const struct iodfg_strpool *pool = iodfg_eventlog_pool(m->log);
        f == CLI_FMT_TABLE ? (void)iodfg_buf_addf(b, "\nper (case, file)\n")
                           : (void)iodfg_buf_addf(b, "\ncase\tfile%s", tsv_cols);
        for (size_t i = 0; i < r->access.nfiles; i++) {
            const struct iodfg_access_file *af = &r->access.files[i];
            const char *cn, *path;
            if (cli_job) {
                cli_job->file_names(cli_job->ctx, i, &cn, &path);
            } else {
                cn = iodfg_strpool_get(pool, iodfg_eventlog_case(m->log, af->case_idx)->name);
                path = iodfg_strpool_get(pool, af->path);
            }
            for (int x = 0; x < 2; x++) {
                if (!af->row.dir[x].ops) {
                    continue;
                }
                if (f == CLI_FMT_TABLE) {
                    iodfg_buf_addf(b, "  ");
                    cli_cell_name(b, f, cn, 0);
                    iodfg_buf_addf(b, " ");
                    cli_cell_name(b, f, path, 0);
                    iodfg_buf_addf(b, "\n");
                    access_line(b, f, "", x, &af->row.dir[x]);
                } else {
                    cli_cell_name(b, f, cn, 0);
                    iodfg_buf_addf(b, "\t");
                    access_line(b, f, path, x, &af->row.dir[x]);
                }
            }
        }
    }
    f == CLI_FMT_TABLE
        ? (void)iodfg_buf_addf(b, "\n%-24s %10s %10s\n", "request size", "reads", "writes")
        : (void)iodfg_buf_addf(b, "\nsize_from\tsize_to\treads\twrites\n");
    for (unsigned k = 0; k < IODFG_ACCESS_BINS; k++) {
        const struct iodfg_access_dir *d = r->access.overall.dir;
        if (!d[0].hist[k] && !d[1].hist[k]) {
            continue;
        }
        int64_t lo, hi;
        iodfg_access_bin_range(k, &lo, &hi);
        if (f == CLI_FMT_TABLE) {
            char v[2][IODFG_FORMAT_MIN], range[80];
            snprintf(range, sizeof(range), "[%s, %s)",
                     iodfg_format_bytes(v[0], sizeof(v[0]), lo, 0),
                     iodfg_format_bytes(v[1], sizeof(v[1]), hi, 0));
            iodfg_buf_addf(b, "%-24s %10llu %10llu\n", range, (unsigned long long)d[0].hist[k],
                           (unsigned long long)d[1].hist[k]);
        } else {
            iodfg_buf_addf(b, "%lld\t%lld\t%llu\t%llu\n", (long long)lo, (long long)hi,
                           (unsigned long long)d[0].hist[k], (unsigned long long)d[1].hist[k]);
        }
    }
}

static int compute(struct iodfg_characterization *r, const struct cli_metrics *m,
                   const struct iodfg_selection *sel, const struct char_opts *o)
{
    if (cli_job) {
        return cli_job->characterize(cli_job->ctx, m, sel, &o->bin, o->alignment, r);
    }
    struct iodfg_error err;
    iodfg_error_clear(&err);
    if (iodfg_characterize(r, m->log, m->map, sel, &o->bin, o->alignment, NULL, 2, NULL, &err)) {
        cli_error(&err);
        return CLI_FAIL;
    }
    return CLI_OK;
}

static int characterize_log(const struct char_opts *o, char *const *inputs, size_t n, int per_file)
{
    struct cli_metrics m;
    int rc = cli_metrics_run(&m, &o->a, inputs, n, 1);
    struct iodfg_buf b;
    iodfg_buf_init(&b);
    if (rc == CLI_OK && o->format == CLI_FMT_JSON) {
        iodfg_buf_addf(&b, "{\"by\":\"%s\",\"groups\":[", iodfg_server_by_name(o->bin.by));
    }
    for (int g = 0; rc == CLI_OK && g < m.ngroups; g++) {
        struct iodfg_characterization r;
        iodfg_characterization_init(&r);
        rc = compute(&r, &m, &m.sel[g], o);
        const char *name = cli_metrics_group_name(&m, g);
        if (rc == CLI_OK && o->format == CLI_FMT_TABLE) {
            uint32_t nc = 0;
            for (uint32_t c = 0; c < iodfg_eventlog_case_count(m.log); c++) {
                nc += m.sel[g].case_on[c];
            }
            if (cli_job) {
                cli_job->sum(cli_job->ctx, &nc, 1);
            }
            iodfg_buf_addf(&b, "%s== %s: %u case(s), %llu event(s); servers by %s; ", g ? "\n" : "",
                           m.ngroups > 1 ? (g ? "group R" : "group G") : "selection", nc,
                           (unsigned long long)r.bw.overall[IODFG_BW_ALL].count,
                           iodfg_server_by_name(o->bin.by));
            time_bins_out(&b, &r.bins, o);
            activities_out(&b, &m, &r, o->format);
            access_out(&b, &m, &r, o->format, per_file);
        } else if (rc == CLI_OK && o->format == CLI_FMT_TSV) {
            iodfg_buf_addf(&b, "%sgroup\t%s\n\n", g ? "\n" : "", name);
            time_bins_out(&b, &r.bins, o);
            activities_out(&b, &m, &r, o->format);
            access_out(&b, &m, &r, o->format, 1);
        } else if (rc == CLI_OK) {
            iodfg_buf_addf(&b, "%s{\"group\":\"%s\",\"time_bins\":", g ? ",\n" : "", name);
            time_bins_out(&b, &r.bins, o);
            iodfg_buf_addf(&b, ",\n\"activities\":[");
            activities_out(&b, &m, &r, o->format);
            iodfg_buf_addf(&b, "]}");
        }
        iodfg_characterization_fini(&r);
    }
    return cli_metrics_finish(&m, &o->a, &b, rc, o->format == CLI_FMT_JSON);
}

static int characterize_counters(const struct char_opts *o)
{
    struct iodfg_counters c;
    struct iodfg_binned bn;
    struct iodfg_error err;
    iodfg_counters_init(&c);
    iodfg_binned_init(&bn);
    iodfg_error_clear(&err);
    int rc = CLI_OK;
    if (iodfg_counters_read(&c, o->counters, &err) ||
        iodfg_binned_from_counters(&bn, &c, &o->bin, &err)) {
        cli_error(&err);
        rc = CLI_FAIL;
    }
    struct iodfg_buf b;
    iodfg_buf_init(&b);
    if (rc == CLI_OK) {
        if (o->format == CLI_FMT_TABLE) {
            iodfg_buf_addf(&b, "== counters %s: %zu sample(s); ", o->counters, c.nsamples);
        }
        time_bins_out(&b, &bn, o);
        if (o->format == CLI_FMT_JSON) {
            iodfg_buf_addf(&b, "\n");
        }
        rc = cli_output_write(&o->a, &b);
    }
    iodfg_buf_fini(&b);
    iodfg_binned_fini(&bn);
    iodfg_counters_fini(&c);
    return rc;
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

int cli_characterize(int argc, char **argv)
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
    struct char_opts o = {.alignment = 4096, .width = 72};
    if (cli_analyze_opts_init(&o.a) || cli_analyze_longopts(longopts, 64, own)) {
        cli_analyze_opts_fini(&o.a);
        return CLI_FAIL;
    }
    int rc = CLI_OK, per_file = 0, c;
    optind = 1;
    while (rc == CLI_OK &&
           (c = getopt_long(argc, argv, CLI_ANALYZE_SHORTOPTS "h", longopts, NULL)) != -1) {
        double v;
        switch (c) {
        case OPT_DT:
            if ((o.bin.dt_ns = parse_duration(optarg)) <= 0) {
                cli_errorf("--dt takes a positive duration like 250us, 10ms or 2s, not '%s'",
                           optarg);
                rc = CLI_USAGE;
            }
            break;
        case OPT_THRESHOLD:
            if ((o.bin.threshold = parse_bytes(optarg)) < 0) {
                cli_errorf("--threshold takes bytes like 0, 4096, 128KiB or 1MiB, not '%s'",
                           optarg);
                rc = CLI_USAGE;
            }
            break;
        case OPT_BY:
            if (iodfg_server_by_parse(optarg, &o.bin.by)) {
                cli_errorf("--by takes host, case or file, not '%s'", optarg);
                rc = CLI_USAGE;
            }
            break;
        case OPT_FORMAT:
            rc = cli_format_parse(optarg, &o.format);
            break;
        case OPT_ALIGN:
            if ((v = parse_bytes(optarg)) < 1 || v > 1e15) {
                cli_errorf("--alignment takes a positive number of bytes, not '%s'", optarg);
                rc = CLI_USAGE;
            }
            o.alignment = (int64_t)v;
            break;
        case OPT_PER_FILE:
            per_file = 1;
            break;
        case OPT_WIDTH:
            o.width = atoi(optarg);
            if (o.width < 8 || o.width > 1000) {
                cli_errorf("--width takes 8 to 1000 columns, not '%s'", optarg);
                rc = CLI_USAGE;
            }
            break;
        case OPT_COUNTERS:
            o.counters = optarg;
            break;
        default:
            rc = cli_analyze_other_option(&o.a, c, optarg, usage_text);
        }
    }
    if (rc == CLI_OK && o.counters && optind < argc) {
        cli_errorf("--counters takes the place of LOG: give one or the other");
        rc = CLI_USAGE;
    }
    if (rc == CLI_OK) {
        rc = o.counters ? cli_output_check(&o.a, &o.counters, 1)
                        : cli_analyze_ready(&o.a, argv, optind, argc, "characterize", usage_text);
    }
    if (rc == CLI_OK) {
        rc = o.counters ? characterize_counters(&o)
                        : characterize_log(&o, argv + optind, (size_t)(argc - optind), per_file);
    }
    cli_analyze_opts_fini(&o.a);
    return rc < 0 ? CLI_OK : rc; // -1: --help
}
