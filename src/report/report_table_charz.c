/* SPDX-License-Identifier: MIT */
/* Tables for people of the characterisation and the bandwidths (report_table.h). */
#include "config.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "iodfg/access.h"
#include "iodfg/bandwidth.h"
#include "iodfg/buf.h"
#include "iodfg/characterize.h"
#include "iodfg/error.h"
#include "iodfg/format.h"
#include "iodfg/glyph.h"
#include "iodfg/mapping.h"
#include "iodfg/report_table.h"
#include "iodfg/rules.h"
#include "iodfg/strpool.h"
#include "iodfg/table.h"

#include "report_priv.h"

/* ---- time bins ---- */

/* A metric's row: its label (the program's text, with symbols) and its read and write values. */
static void metric(struct iodfg_table *t, const char *label, const char *r, const char *w)
{
    iodfg_table_add(t, label);
    iodfg_table_add(t, r);
    iodfg_table_add(t, w);
}

/* The same with values of digits decimals. */
static void metricf(struct iodfg_table *t, const char *label, int digits, double r, double w)
{
    char v[2][64];
    snprintf(v[0], sizeof(v[0]), "%.*f", digits, r);
    snprintf(v[1], sizeof(v[1]), "%.*f", digits, w);
    metric(t, label, v[0], v[1]);
}

static int metrics(struct iodfg_buf *b, const struct iodfg_binned *bn)
{
    static const struct iodfg_table_col col[] = {
        {'l', 30, 0, ""}, {'r', 12, 0, " "}, {'r', 12, 0, " "}};
    const struct iodfg_dir_metrics *r = &bn->dir[0], *w = &bn->dir[1];
    char v[2][IODFG_FORMAT_MIN], l[64];
    struct iodfg_table t;
    iodfg_table_init(&t, col, 3);
    metric(&t, "metric (El Sayed et al. 2016)", "read", "write");
    metric(&t, "N, volume (Eq. 4)", iodfg_format_bytes(v[0], sizeof(v[0]), llround(r->volume), 0),
           iodfg_format_bytes(v[1], sizeof(v[1]), llround(w->volume), 0));
    metricf(&t, "operations", 0, r->ops, w->ops);
    metric(&t, "max B(t), bandwidth (Eq. 5)", iodfg_format_rate(v[0], sizeof(v[0]), r->bw_max, 0),
           iodfg_format_rate(v[1], sizeof(v[1]), w->bw_max, 0));
    snprintf(l, sizeof(l), "max %s(t), IOPS (Eq. 6)", iodfg_glyph(IODFG_GL_GAMMA));
    metricf(&t, l, 1, r->iops_max, w->iops_max);
    metric(&t, "max B(s,t) of one server",
           iodfg_format_rate(v[0], sizeof(v[0]), r->server_bw_max, 0),
           iodfg_format_rate(v[1], sizeof(v[1]), w->server_bw_max, 0));
    snprintf(l, sizeof(l), "bins with I/O > c (%sH)", iodfg_glyph(IODFG_GL_SUM));
    metricf(&t, l, 0, r->busy_bins, w->busy_bins);
    metricf(&t, "I, I/O intensity (Eq. 7)", 4, r->intensity, w->intensity);
    metricf(&t, "l_IO (bins)", 2, r->l_io, w->l_io);
    metricf(&t, "l_noIO (bins)", 2, r->l_noio, w->l_noio);
    snprintf(l, sizeof(l), "%s, burstiness (Eq. 8)", iodfg_glyph(IODFG_GL_RHO));
    metricf(&t, l, 4, r->burstiness, w->burstiness);
    snprintf(l, sizeof(l), "%s, parallel (unnormalised)", iodfg_glyph(IODFG_GL_PI));
    metricf(&t, l, 4, r->par_raw, w->par_raw);
    metricf(&t, "P, parallel intensity (Eq. 9)", 4, r->parallel, w->parallel);
    int rc = iodfg_table_print(&t, b);
    iodfg_table_fini(&t);
    return rc;
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

static int servers(struct iodfg_buf *b, const struct iodfg_binned *bn)
{
    static const struct iodfg_table_col col[] = {{'l', 24, 0, ""},
                                                 {'r', 12, 0, " "},
                                                 {'r', 12, 0, " "},
                                                 {'r', 12, 0, " "},
                                                 {'r', 12, 0, " "}};
    static const char *const heads[] = {"server", "N_r", "N_w", "max B_r", "max B_w"};
    struct iodfg_table t;
    iodfg_table_init(&t, col, 5);
    for (int i = 0; i < 5; i++) {
        iodfg_table_add(&t, heads[i]);
    }
    for (uint32_t s = 0; s < bn->nservers; s++) {
        double n[2], mx[2];
        report_server_sums(bn, s, n, mx);
        char v[IODFG_FORMAT_MIN];
        iodfg_table_add_name(&t, bn->server[s], strlen(bn->server[s]));
        iodfg_table_add(&t, iodfg_format_bytes(v, sizeof(v), llround(n[0]), 0));
        iodfg_table_add(&t, iodfg_format_bytes(v, sizeof(v), llround(n[1]), 0));
        iodfg_table_add(&t, iodfg_format_rate(v, sizeof(v), mx[0], 0));
        iodfg_table_add(&t, iodfg_format_rate(v, sizeof(v), mx[1], 0));
    }
    iodfg_buf_addf(b, "\n");
    int rc = iodfg_table_print(&t, b);
    iodfg_table_fini(&t);
    return rc;
}

static int bins(struct iodfg_buf *b, const struct iodfg_binned *bn, int width)
{
    char t[2][IODFG_FORMAT_MIN];
    iodfg_buf_addf(b, "span %s, %st %s (%u bins), c = %.0f B, %u server(s)\n\n",
                   iodfg_format_duration(t[0], sizeof(t[0]), bn->span_ns, 0),
                   iodfg_glyph(IODFG_GL_DELTA),
                   iodfg_format_duration(t[1], sizeof(t[1]), bn->dt_ns, 0), bn->nbins,
                   bn->threshold, bn->nservers);
    if (metrics(b, bn)) {
        return -1;
    }
    chart(b, bn, width);
    return servers(b, bn);
}

/* ---- activities (Wright et al.) and access patterns ---- */

static int activities(struct iodfg_buf *b, const struct iodfg_characterization *r,
                      const struct iodfg_mapping *map)
{
    static const struct iodfg_table_col col[] = {
        {'l', 28, 0, ""},  {'r', 5, 0, " "},  {'r', 8, 0, " "}, {'r', 9, 0, " "},
        {'r', 11, 0, " "}, {'r', 11, 0, " "}, {'r', 6, 0, " "}, {'r', 6, 0, " "}};
    static const char *const heads[] = {"activity (Wright et al.)",
                                        "cases",
                                        "events",
                                        "bytes",
                                        "perceived",
                                        "effective",
                                        "time",
                                        "stair"};
    struct iodfg_table t;
    iodfg_table_init(&t, col, 8);
    for (int i = 0; i < 8; i++) {
        iodfg_table_add(&t, heads[i]);
    }
    for (uint32_t a = 0; a < r->bw.nactivities; a++) {
        const struct iodfg_bw_row *row = &r->bw.act[a];
        if (!row->count) {
            continue;
        }
        const char *name = iodfg_mapping_name(map, a);
        char v[IODFG_FORMAT_MIN];
        iodfg_table_add_name(&t, name, strlen(name));
        snprintf(v, sizeof(v), "%u", row->cases);
        iodfg_table_add(&t, v);
        snprintf(v, sizeof(v), "%llu", (unsigned long long)row->count);
        iodfg_table_add(&t, v);
        iodfg_table_add(&t, iodfg_format_bytes(v, sizeof(v), row->bytes, 0));
        iodfg_table_add(&t, iodfg_format_rate(v, sizeof(v), row->perceived, 0));
        iodfg_table_add(&t, iodfg_format_rate(v, sizeof(v), row->effective, 0));
        iodfg_table_add(&t, iodfg_format_percent(v, sizeof(v), row->share, 0));
        snprintf(v, sizeof(v), "%.3f", r->serial.act[a].stair);
        iodfg_table_add(&t, v);
    }
    iodfg_buf_addf(b, "\n");
    int rc = iodfg_table_print(&t, b);
    iodfg_table_fini(&t);
    return rc;
}

static void access_row(struct iodfg_table *t, const char *name, int x,
                       const struct iodfg_access_dir *d)
{
    if (!d->ops) {
        return;
    }
    char v[IODFG_FORMAT_MIN];
    iodfg_table_add_name(t, name, strlen(name));
    iodfg_table_add(t, report_dir_name[x]);
    snprintf(v, sizeof(v), "%llu", (unsigned long long)d->ops);
    iodfg_table_add(t, v);
    const uint64_t part[] = {d->consecutive, d->sequential, d->random,
                             d->unknown,     d->inferred,   d->unaligned};
    for (int k = 0; k < 6; k++) {
        snprintf(v, sizeof(v), "%.1f%%", report_pct(part[k], d->ops));
        iodfg_table_add(t, v);
    }
    iodfg_table_add(t, iodfg_format_bytes(v, sizeof(v), iodfg_access_median_bin(d), 0));
}

/* The access patterns per (case, file): each file's names on a line, then its rows. */
static void access_files(struct iodfg_table *t, const struct iodfg_characterization *r,
                         const struct iodfg_report_charz_opts *o)
{
    iodfg_table_text(t, "\nper (case, file)\n");
    for (size_t i = 0; i < r->access.nfiles; i++) {
        const struct iodfg_access_file *af = &r->access.files[i];
        const char *cn, *path;
        iodfg_access_file_names(&r->access, o->log, i, &cn, &path);
        for (int x = 0; x < 2; x++) {
            if (!af->row.dir[x].ops) {
                continue;
            }
            struct iodfg_buf line;
            iodfg_buf_init(&line);
            iodfg_buf_addf(&line, "  ");
            iodfg_table_cut(&line, cn, strlen(cn), IODFG_TABLE_CELL_MAX, 0);
            iodfg_buf_addf(&line, " ");
            iodfg_table_cut(&line, path, strlen(path), IODFG_TABLE_CELL_MAX, 0);
            iodfg_buf_addf(&line, "\n");
            line.failed ? (void)(t->failed = 1) : iodfg_table_text(t, line.data);
            iodfg_buf_fini(&line);
            access_row(t, "", x, &af->row.dir[x]);
        }
    }
}

static int access(struct iodfg_buf *b, const struct iodfg_characterization *r,
                  const struct iodfg_report_charz_opts *o)
{
    static const struct iodfg_table_col col[] = {
        {'l', 28, 0, ""}, {'l', 5, 0, " "}, {'r', 8, 0, " "}, {'r', 7, 0, " "}, {'r', 7, 0, " "},
        {'r', 7, 0, " "}, {'r', 7, 0, " "}, {'r', 7, 0, " "}, {'r', 7, 0, " "}, {'r', 9, 0, " "}};
    static const char *const heads[] = {
        "access pattern", "dir",     "ops",     "consec",  "seq",
        "random",         "unknown", "infer'd", "unalign", "median"};
    struct iodfg_table t;
    iodfg_table_init(&t, col, 10);
    for (int i = 0; i < 10; i++) {
        iodfg_table_add(&t, heads[i]);
    }
    for (uint32_t a = 0; a < r->access.nactivities; a++) {
        for (int x = 0; x < 2; x++) {
            access_row(&t, iodfg_mapping_name(o->map, a), x, &r->access.act[a].dir[x]);
        }
    }
    for (int x = 0; x < 2; x++) {
        access_row(&t, "(all)", x, &r->access.overall.dir[x]);
    }
    const struct iodfg_access_dir *all = r->access.overall.dir;
    if (all[0].inferred + all[1].inferred) {
        iodfg_table_text(&t, "infer'd: offsets inferred from the opens and the sizes read or "
                             "written, in traces without any lseek\n(lseek not traced?): where "
                             "the program seeked, consec/seq/random are wrong; record with\n"
                             "strace -e trace=%file,%desc or without -e to know.\n");
    }
    if (o->per_file) {
        access_files(&t, r, o);
    }
    iodfg_buf_addf(b, "\n");
    int rc = iodfg_table_print(&t, b);
    iodfg_table_fini(&t);
    return rc;
}

static void request_sizes(struct iodfg_buf *b, const struct iodfg_characterization *r)
{
    iodfg_buf_addf(b, "\n%-24s %10s %10s\n", "request size", "reads", "writes");
    const struct iodfg_access_dir *d = r->access.overall.dir;
    for (unsigned k = 0; k < IODFG_ACCESS_BINS; k++) {
        if (!d[0].hist[k] && !d[1].hist[k]) {
            continue;
        }
        int64_t lo, hi;
        iodfg_access_bin_range(k, &lo, &hi);
        char v[2][IODFG_FORMAT_MIN], range[80];
        snprintf(range, sizeof(range), "[%s, %s)", iodfg_format_bytes(v[0], sizeof(v[0]), lo, 0),
                 iodfg_format_bytes(v[1], sizeof(v[1]), hi, 0));
        iodfg_buf_addf(b, "%-24s %10llu %10llu\n", range, (unsigned long long)d[0].hist[k],
                       (unsigned long long)d[1].hist[k]);
    }
}

int iodfg_report_table_charz(struct iodfg_buf *b, const struct iodfg_report_charz *g, int ng,
                             const struct iodfg_report_charz_opts *o, struct iodfg_error *err)
{
    for (int i = 0; i < ng; i++) {
        const struct iodfg_characterization *r = g[i].r;
        iodfg_buf_addf(b, "%s== %s: %u case(s), %llu event(s); servers by %s; ", i ? "\n" : "",
                       ng > 1 ? (i ? "group R" : "group G") : "selection", g[i].cases,
                       (unsigned long long)r->bw.overall[IODFG_BW_ALL].count,
                       iodfg_server_by_name(o->by));
        if (bins(b, &r->bins, o->width) || activities(b, r, o->map) || access(b, r, o)) {
            return iodfg_error_set(err, IODFG_E_NOMEM, NULL);
        }
        request_sizes(b, r);
    }
    return report_done(b, err);
}

int iodfg_report_table_counters(struct iodfg_buf *b, const char *path, size_t nsamples,
                                const struct iodfg_binned *bn, int width, struct iodfg_error *err)
{
    iodfg_buf_addf(b, "== counters ");
    iodfg_table_cut(b, path, strlen(path), IODFG_TABLE_CELL_MAX, 0);
    iodfg_buf_addf(b, ": %zu sample(s); ", nsamples);
    if (bins(b, bn, width)) {
        return iodfg_error_set(err, IODFG_E_NOMEM, NULL);
    }
    return report_done(b, err);
}

/* ---- bandwidths ---- */

/* Glyphs of the stacked bars, one per call in call order (legend printed below the bars). */
static const char bar_glyphs[] = "#=*+%@o:x~-^";

static void bw_row(struct iodfg_table *t, const char *name, const struct iodfg_bw_row *r)
{
    char v[IODFG_FORMAT_MIN];
    iodfg_table_add_name(t, name, strlen(name));
    snprintf(v, sizeof(v), "%u", r->cases);
    iodfg_table_add(t, v);
    snprintf(v, sizeof(v), "%llu", (unsigned long long)r->count);
    iodfg_table_add(t, v);
    iodfg_table_add(t, iodfg_format_bytes(v, sizeof(v), r->bytes, 0));
    iodfg_table_add(t, iodfg_format_rate(v, sizeof(v), r->perceived, 0));
    iodfg_table_add(t, iodfg_format_rate(v, sizeof(v), r->effective, 0));
    iodfg_table_add(t, iodfg_format_percent(v, sizeof(v), r->share, 0));
}

/* Per case: its name, a stacked time-share bar by call, and its read, write and all rows; then
 * the bars' legend. */
static void bw_cases(struct iodfg_table *t, const struct iodfg_report_bandwidth *r,
                     const struct iodfg_bandwidth *bw)
{
    const struct iodfg_strpool *pool = iodfg_eventlog_pool(r->log);
    for (uint32_t c = 0; c < bw->ncases; c++) {
        const struct iodfg_bw_row *cr = &bw->case_row[(size_t)c * IODFG_BW__N];
        if (!cr[IODFG_BW_ALL].count) {
            continue;
        }
        const char *cn = report_case_name(r->log, c);
        struct iodfg_buf line;
        iodfg_buf_init(&line);
        iodfg_table_cut(&line, cn, strlen(cn), IODFG_TABLE_CELL_MAX, 0);
        iodfg_buf_addf(&line, "\n  |");
        iodfg_share_bar(&line, bw->case_call_dur + (size_t)c * bw->ncalls, bw->ncalls, r->width,
                        bar_glyphs);
        iodfg_buf_addf(&line, "|\n");
        line.failed ? (void)(t->failed = 1) : iodfg_table_text(t, line.data);
        iodfg_buf_fini(&line);
        for (int g = 0; g < IODFG_BW__N; g++) {
            if (cr[g].count) {
                char name[64];
                snprintf(name, sizeof(name), "  %s", report_bw_group_name[g]);
                bw_row(t, name, &cr[g]);
            }
        }
    }
    struct iodfg_buf legend;
    iodfg_buf_init(&legend);
    iodfg_buf_addf(&legend, "\ntime-share bar legend:");
    for (uint32_t i = 0; i < bw->ncalls; i++) {
        if (bw->call[i].count) {
            const char *call = iodfg_strpool_get(pool, bw->call_name[i]);
            iodfg_buf_addf(&legend, " %c=", bar_glyphs[i % (sizeof(bar_glyphs) - 1)]);
            iodfg_table_cut(&legend, call, strlen(call), IODFG_TABLE_CELL_MAX, 0);
        }
    }
    iodfg_buf_addf(&legend, "\n");
    legend.failed ? (void)(t->failed = 1) : iodfg_table_text(t, legend.data);
    iodfg_buf_fini(&legend);
}

static int bw_table(struct iodfg_buf *b, const struct iodfg_report_bandwidth *r,
                    const struct iodfg_bandwidth *bw)
{
    static const struct iodfg_table_col col[] = {
        {'l', 32, 0, ""},  {'r', 5, 0, " "},  {'r', 8, 0, " "}, {'r', 9, 0, " "},
        {'r', 11, 0, " "}, {'r', 11, 0, " "}, {'r', 6, 0, " "}};
    static const char *const heads[] = {"cases",     "events",    "bytes",
                                        "perceived", "effective", "time"};
    const struct iodfg_strpool *pool = iodfg_eventlog_pool(r->log);
    struct iodfg_table t;
    iodfg_table_init(&t, col, 7);
    iodfg_table_add(&t, iodfg_report_bw_by_name(r->by));
    for (int i = 0; i < 6; i++) {
        iodfg_table_add(&t, heads[i]);
    }
    if (r->by == IODFG_REPORT_BW_ACTIVITY) {
        for (uint32_t a = 0; a < bw->nactivities; a++) {
            if (bw->act[a].count) {
                bw_row(&t, iodfg_mapping_name(r->map, a), &bw->act[a]);
            }
        }
    } else if (r->by == IODFG_REPORT_BW_CALL) {
        for (uint32_t i = 0; i < bw->ncalls; i++) {
            if (bw->call[i].count) {
                bw_row(&t, iodfg_strpool_get(pool, bw->call_name[i]), &bw->call[i]);
            }
        }
    } else {
        bw_cases(&t, r, bw);
    }
    iodfg_table_text(&t, "\n");
    for (int g = 0; g < IODFG_BW__N; g++) {
        bw_row(&t, report_bw_group_name[g], &bw->overall[g]);
    }
    int rc = iodfg_table_print(&t, b);
    iodfg_table_fini(&t);
    return rc;
}

int iodfg_report_table_bandwidth(struct iodfg_buf *b, const struct iodfg_report_bandwidth *r,
                                 struct iodfg_error *err)
{
    for (int g = 0; g < r->ngroups; g++) {
        if (r->ngroups > 1) {
            iodfg_buf_addf(b, "%s== group %s\n", g ? "\n" : "", g ? "R" : "G");
        }
        if (bw_table(b, r, r->bw[g])) {
            return iodfg_error_set(err, IODFG_E_NOMEM, NULL);
        }
    }
    return report_done(b, err);
}
