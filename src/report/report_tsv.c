/* SPDX-License-Identifier: MIT */
/* TSV reports (report_tsv.h). */
#include "config.h"

#include "iodfg/report_tsv.h"

#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "iodfg/access.h"
#include "iodfg/bandwidth.h"
#include "iodfg/buf.h"
#include "iodfg/characterize.h"
#include "iodfg/dfg.h"
#include "iodfg/diff.h"
#include "iodfg/error.h"
#include "iodfg/export.h"
#include "iodfg/insights.h"
#include "iodfg/mapping.h"
#include "iodfg/rules.h"
#include "iodfg/sanitize.h"
#include "iodfg/session.h"
#include "iodfg/strpool.h"

#include "report_priv.h"

static void name(struct iodfg_buf *b, const char *s)
{
    iodfg_sanitize_tsv(b, s, strlen(s));
}

/* ---- an analysis: the engine's tables with the comparison's and file systems' columns ---- */

// A value, empty when unknown.
static void field(struct iodfg_buf *b, double v)
{
    iodfg_buf_add(b, "\t", 1);
    if (isfinite(v)) {
        iodfg_buf_addf(b, "%.17g", v);
    }
}

static void node_header(struct iodfg_buf *b)
{
    iodfg_buf_addf(b, "\tside");
    for (int m = 0; m < IODFG_DM__N; m++) {
        for (int k = 0; k < 4; k++) {
            iodfg_buf_addf(b, "\t%s%s", report_group_prefix[k],
                           iodfg_diff_metric_name((enum iodfg_diff_metric)m));
        }
    }
}

static void node_fields(struct iodfg_buf *b, const struct iodfg_diff_node *dn)
{
    iodfg_buf_addf(b, "\t%s", iodfg_diff_side_name(dn->side));
    for (int m = 0; m < IODFG_DM__N; m++) {
        const double v[4] = {dn->g[m], dn->r[m], dn->abs[m], dn->rel[m]};
        for (int k = 0; k < 4; k++) {
            field(b, v[k]);
        }
    }
}

static const char edge_header[] = "\tside\tg_count\tr_count\tg_cases\tr_cases\tg_gap_mean_ns"
                                  "\tr_gap_mean_ns\tdiff_count\trel_count";

static void edge_fields(struct iodfg_buf *b, const struct iodfg_diff_edge *de)
{
    iodfg_buf_addf(b, "\t%s", iodfg_diff_side_name(de ? de->side : IODFG_DIFF_NEITHER));
    field(b, de ? (double)de->g_count : 0);
    field(b, de ? (double)de->r_count : 0);
    field(b, de ? (double)de->g_cases : 0);
    field(b, de ? (double)de->r_cases : 0);
    field(b, de && de->g_count ? de->g_gap_mean_ns : NAN);
    field(b, de && de->r_count ? de->r_gap_mean_ns : NAN);
    field(b, de ? de->count_abs : NAN);
    field(b, de ? de->count_rel : NAN);
}

// The columns added to row `row` (0: the header) of the activities or (edges) the transitions.
static void added(struct iodfg_buf *b, const struct iodfg_report_analysis *a, size_t row, int edges,
                  const struct report_fs *fs)
{
    const struct iodfg_session *s = a->ses;
    const struct iodfg_diff *d = iodfg_session_diff(s);
    uint32_t id = row ? (edges ? a->edges : a->act)[row - 1] : 0;
    if (a->groups && row == 0) {
        edges ? (void)iodfg_buf_addf(b, "%s", edge_header) : node_header(b);
    } else if (a->groups && edges) {
        const struct iodfg_dfg_edge *e = iodfg_dfg_edge_at(iodfg_session_dfg(s), id);
        edge_fields(b, iodfg_diff_find_edge(d, e->from, e->to));
    } else if (a->groups) {
        node_fields(b, &d->nodes[id]);
    }
    if (fs && row == 0) {
        iodfg_buf_addf(b, "\tscope\tfstype\tfs");
    } else if (fs && id < iodfg_session_mapping(s)->nactivities) {
        const char *v[] = {fs[id].scope, fs[id].fstype, fs[id].fs};
        for (int i = 0; i < 3; i++) {
            iodfg_buf_add(b, "\t", 1);
            name(b, v[i]);
        }
    } else if (fs) {
        iodfg_buf_addf(b, "\t\t\t");
    }
}

// Copy the engine's table t into b, each line with the added columns.
static void annotate(struct iodfg_buf *b, const struct iodfg_report_analysis *a,
                     const struct iodfg_buf *t, int edges, const struct report_fs *fs)
{
    const char *p = t->data ? t->data : "", *end = p + t->len;
    for (size_t line = 0; p < end; line++) {
        const char *nl = memchr(p, '\n', (size_t)(end - p));
        size_t len = nl ? (size_t)(nl - p) : (size_t)(end - p);
        iodfg_buf_add(b, p, len);
        added(b, a, line, edges, fs);
        iodfg_buf_add(b, "\n", 1);
        p += len + (nl != NULL);
    }
}

int iodfg_report_tsv_analysis(struct iodfg_buf *b, const struct iodfg_report_analysis *a,
                              struct iodfg_error *err)
{
    const struct iodfg_session *s = a->ses;
    const struct iodfg_mapping *map = iodfg_session_mapping(s);
    struct iodfg_buf t;
    iodfg_buf_init(&t);
    struct report_fs *fs = report_activity_fs(s);
    int rc = fs ? iodfg_export_tsv_activities(&t, iodfg_session_stats(s), map, a->act, a->nact, err)
                : iodfg_error_set(err, IODFG_E_NOMEM, NULL);
    if (rc == 0) {
        annotate(b, a, &t, 0, fs);
    }
    free(fs);
    if (rc == 0 && a->edges) {
        iodfg_buf_clear(&t);
        rc = iodfg_export_tsv_edges(&t, iodfg_session_dfg(s), map, a->edges, a->nedges, err);
        if (rc == 0) {
            iodfg_buf_add(b, "\n", 1);
            annotate(b, a, &t, 1, NULL);
        }
    }
    iodfg_buf_fini(&t);
    return rc ? -1 : report_done(b, err);
}

/* ---- characterisation ---- */

static void servers(struct iodfg_buf *b, const struct iodfg_binned *bn)
{
    iodfg_buf_addf(b, "\nserver\tbytes_read\tbytes_written\tbw_read_max\tbw_write_max\n");
    for (uint32_t s = 0; s < bn->nservers; s++) {
        double n[2], mx[2];
        report_server_sums(bn, s, n, mx);
        name(b, bn->server[s]);
        iodfg_buf_addf(b, "\t%.17g\t%.17g\t%.17g\t%.17g\n", n[0], n[1], mx[0], mx[1]);
    }
}

static void bins(struct iodfg_buf *b, const struct iodfg_binned *bn)
{
    double v[2][REPORT_NMETRIC];
    report_metric_values(&bn->dir[0], v[0]);
    report_metric_values(&bn->dir[1], v[1]);
    iodfg_buf_addf(b, "metric\tread\twrite\n");
    iodfg_buf_addf(b, "t0_ns\t%lld\t%lld\ndt_ns\t%lld\t%lld\nbins\t%u\t%u\n", (long long)bn->t0_ns,
                   (long long)bn->t0_ns, (long long)bn->dt_ns, (long long)bn->dt_ns, bn->nbins,
                   bn->nbins);
    iodfg_buf_addf(b, "threshold\t%.17g\t%.17g\nservers\t%u\t%u\n", bn->threshold, bn->threshold,
                   bn->nservers, bn->nservers);
    for (size_t i = 0; i < REPORT_NMETRIC; i++) {
        iodfg_buf_addf(b, "%s\t%.17g\t%.17g\n", report_metric_keys[i], v[0][i], v[1][i]);
    }
    servers(b, bn);
    iodfg_buf_addf(b, "\nbin\tstart_ns\tbytes_read\tbytes_written\tops_read\tops_written\n");
    for (uint32_t i = 0; i < bn->nbins; i++) {
        iodfg_buf_addf(b, "%u\t%lld\t%.17g\t%.17g\t%.17g\t%.17g\n", i,
                       (long long)(bn->t0_ns + (int64_t)i * bn->dt_ns), bn->total_bytes[0][i],
                       bn->total_bytes[1][i], bn->total_ops[0][i], bn->total_ops[1][i]);
    }
}

static void activities(struct iodfg_buf *b, const struct iodfg_characterization *r,
                       const struct iodfg_mapping *map)
{
    iodfg_buf_addf(b, "\nactivity\tcases\tevents\tbytes\tdur_sum_ns\tperceived_Bps\teffective_Bps"
                      "\ttime_share\tstair\tbusy_ns\n");
    for (uint32_t a = 0; a < r->bw.nactivities; a++) {
        const struct iodfg_bw_row *row = &r->bw.act[a];
        const struct iodfg_serial_row *sr = &r->serial.act[a];
        if (!row->count) {
            continue;
        }
        name(b, iodfg_mapping_name(map, a));
        iodfg_buf_addf(b, "\t%u\t%llu\t%lld\t%lld\t%.17g\t%.17g\t%.17g\t%.17g\t%lld\n", row->cases,
                       (unsigned long long)row->count, (long long)row->bytes,
                       (long long)row->dur_sum_ns, row->perceived, row->effective, row->share,
                       sr->stair, (long long)sr->busy_ns);
    }
}

static void access_line(struct iodfg_buf *b, const char *s, int x, const struct iodfg_access_dir *d)
{
    if (!d->ops) {
        return;
    }
    name(b, s);
    iodfg_buf_addf(b, "\t%s\t%llu\t%llu\t%llu\t%llu\t%llu\t%llu\t%llu\t%lld\t%lld\n",
                   report_dir_name[x], (unsigned long long)d->ops,
                   (unsigned long long)d->consecutive, (unsigned long long)d->sequential,
                   (unsigned long long)d->random, (unsigned long long)d->unknown,
                   (unsigned long long)d->inferred, (unsigned long long)d->unaligned,
                   (long long)d->bytes, (long long)iodfg_access_median_bin(d));
}

static void access(struct iodfg_buf *b, const struct iodfg_characterization *r,
                   const struct iodfg_report_charz_opts *o)
{
    static const char cols[] = "\tdir\tops\tconsecutive\tsequential\trandom\tunknown"
                               "\tinferred\tunaligned\tbytes\tmedian_size_bin\n";
    iodfg_buf_addf(b, "\nactivity%s", cols);
    for (uint32_t a = 0; a < r->access.nactivities; a++) {
        for (int x = 0; x < 2; x++) {
            access_line(b, iodfg_mapping_name(o->map, a), x, &r->access.act[a].dir[x]);
        }
    }
    for (int x = 0; x < 2; x++) {
        access_line(b, "(all)", x, &r->access.overall.dir[x]);
    }
    iodfg_buf_addf(b, "\ncase\tfile%s", cols);
    for (size_t i = 0; i < r->access.nfiles; i++) {
        const struct iodfg_access_file *af = &r->access.files[i];
        const char *cn, *path;
        iodfg_access_file_names(&r->access, o->log, i, &cn, &path);
        for (int x = 0; x < 2; x++) {
            if (af->row.dir[x].ops) {
                name(b, cn);
                iodfg_buf_addf(b, "\t");
                access_line(b, path, x, &af->row.dir[x]);
            }
        }
    }
    iodfg_buf_addf(b, "\nsize_from\tsize_to\treads\twrites\n");
    const struct iodfg_access_dir *d = r->access.overall.dir;
    for (unsigned k = 0; k < IODFG_ACCESS_BINS; k++) {
        if (d[0].hist[k] || d[1].hist[k]) {
            int64_t lo, hi;
            iodfg_access_bin_range(k, &lo, &hi);
            iodfg_buf_addf(b, "%lld\t%lld\t%llu\t%llu\n", (long long)lo, (long long)hi,
                           (unsigned long long)d[0].hist[k], (unsigned long long)d[1].hist[k]);
        }
    }
}

int iodfg_report_tsv_charz(struct iodfg_buf *b, const struct iodfg_report_charz *g, int ng,
                           const struct iodfg_report_charz_opts *o, struct iodfg_error *err)
{
    for (int i = 0; i < ng; i++) {
        iodfg_buf_addf(b, "%sgroup\t%s\n\n", i ? "\n" : "", g[i].group);
        bins(b, &g[i].r->bins);
        activities(b, g[i].r, o->map);
        access(b, g[i].r, o);
    }
    return report_done(b, err);
}

int iodfg_report_tsv_bins(struct iodfg_buf *b, const struct iodfg_binned *bn,
                          struct iodfg_error *err)
{
    bins(b, bn);
    return report_done(b, err);
}

/* ---- bandwidths ---- */

static void bw_row(struct iodfg_buf *b, const char *group, const char *kind, const char *s,
                   const struct iodfg_bw_row *r)
{
    iodfg_buf_addf(b, "%s\t%s\t", group, kind);
    name(b, s);
    iodfg_buf_addf(b, "\t%u\t%llu\t%lld\t%lld\t%lld\t%.17g\t%.17g\t%.17g\n", r->cases,
                   (unsigned long long)r->count, (long long)r->bytes, (long long)r->dur_sum_ns,
                   (long long)(r->last_ns - r->first_ns), r->perceived, r->effective, r->share);
}

/* A row of group ctx->group into ctx->b. */
struct bw_tsv {
    struct iodfg_buf *b;
    const char *group;
};

static void bw_tsv_row(void *ctx, const char *kind, const char *s, const struct iodfg_bw_row *r)
{
    const struct bw_tsv *t = ctx;
    bw_row(t->b, t->group, kind, s, r);
}

int iodfg_report_tsv_bandwidth(struct iodfg_buf *b, const struct iodfg_report_bandwidth *r,
                               struct iodfg_error *err)
{
    iodfg_buf_addf(b, "group\tkind\tname\tcases\tevents\tbytes\tdur_sum_ns\tspan_ns"
                      "\tperceived_Bps\teffective_Bps\ttime_share\n");
    for (int g = 0; g < r->ngroups; g++) {
        struct bw_tsv t = {b, r->ngroups > 1 ? (g ? "R" : "G") : "all"};
        report_bw_rows(r, r->bw[g], bw_tsv_row, &t);
    }
    return report_done(b, err);
}

/* ---- insights: one row per field of a finding ---- */

struct ins_row {
    struct iodfg_buf *b;
    const char *group;
    size_t rank;
    const struct iodfg_insight *f;
};

static void row(const struct ins_row *o, const char *field_name, const char *value)
{
    iodfg_buf_addf(o->b, "%s\t%zu\t%s\t%s\t%s\t", o->group, o->rank,
                   iodfg_insight_severity_name(o->f->severity), iodfg_insight_rule_name(o->f->rule),
                   field_name);
    name(o->b, value);
    iodfg_buf_addf(o->b, "\n");
}

static void numbers(const struct ins_row *o)
{
    const struct iodfg_insight *f = o->f;
    char s[64], key[80];
    snprintf(s, sizeof(s), "%.17g", f->impact);
    row(o, "impact", isfinite(f->impact) ? s : "");
    for (uint32_t i = 0; i < f->nnum; i++) {
        snprintf(key, sizeof(key), "n.%s", f->num[i].name);
        snprintf(s, sizeof(s), "%.17g", f->num[i].value);
        row(o, key, isfinite(f->num[i].value) ? s : "");
    }
}

static void finding(const struct ins_row *o, const struct iodfg_report_insights *r,
                    const struct iodfg_insights *ins)
{
    const struct iodfg_insight *f = o->f;
    char s[4096];
    row(o, "subject", iodfg_insight_subject_text(ins, r->map, f, s, sizeof(s)));
    row(o, "text", f->text);
    numbers(o);
    for (uint32_t i = 0; i < f->nact; i++) {
        row(o, "activity", iodfg_mapping_name(r->map, f->act[i]));
    }
    for (uint32_t i = 0; i < f->nedge; i++) {
        snprintf(s, sizeof(s), "%s -> %s", iodfg_mapping_name(r->map, f->edge[i][0]),
                 iodfg_mapping_name(r->map, f->edge[i][1]));
        row(o, "edge", s);
    }
    for (uint32_t i = 0; i < f->ncases; i++) {
        row(o, "case", report_case_name(r->log, f->cases[i]));
    }
    snprintf(s, sizeof(s), "%u", f->cases_total);
    row(o, "cases_total", s);
    for (uint32_t i = 0; i < f->npaths; i++) {
        row(o, "path", ins->pool ? iodfg_strpool_get(ins->pool, f->paths[i]) : "");
    }
    snprintf(s, sizeof(s), "%u", f->paths_total);
    row(o, "paths_total", s);
    if (f->has_window) {
        snprintf(s, sizeof(s), "%lld..%lld %s", (long long)f->from_ns, (long long)f->to_ns,
                 iodfg_clock_name((enum iodfg_clock)f->clock));
        row(o, "window_ns", s);
    }
    row(o, "advice", iodfg_insight_rule_advice(f->rule));
}

int iodfg_report_tsv_insights(struct iodfg_buf *b, const struct iodfg_report_insights *r,
                              struct iodfg_error *err)
{
    iodfg_buf_addf(b, "group\trank\tseverity\trule\tfield\tvalue\n");
    for (int g = 0; g < r->ngroups; g++) {
        const struct iodfg_insights *ins = r->ins[g];
        for (size_t i = 0; i < ins->n; i++) {
            struct ins_row o = {b, r->ngroups > 1 ? (g ? "R" : "G") : "all", i + 1, &ins->v[i]};
            finding(&o, r, ins);
        }
    }
    for (size_t i = 0; i < r->nchanges; i++) {
        const struct iodfg_insight_change *ch = &r->changes[i];
        const struct iodfg_insight *x = ch->g ? ch->g : ch->r;
        char subj[4096];
        iodfg_insight_subject_text(ch->g ? r->ins[0] : r->ins[1], r->map, x, subj, sizeof(subj));
        iodfg_buf_addf(b, "diff\t%zu\t%s\t%s\t%s\t", i + 1, iodfg_insight_side_mark(ch->side),
                       iodfg_insight_rule_name(x->rule), ch->g && ch->r ? "changed" : "only");
        name(b, subj);
        iodfg_buf_addf(b, " (G %s, R %s)\n",
                       ch->g ? iodfg_insight_severity_name(ch->g->severity) : "-",
                       ch->r ? iodfg_insight_severity_name(ch->r->severity) : "-");
    }
    return report_done(b, err);
}

/* ---- handles ---- */

int iodfg_report_tsv_handles(struct iodfg_buf *b, const struct iodfg_report_handles *r,
                             struct iodfg_error *err)
{
    const struct iodfg_handle *hs = iodfg_eventlog_handles(r->log);
    const struct iodfg_strpool *pool = iodfg_eventlog_pool(r->log);
    int64_t t0 = iodfg_handles_time_origin(r->log);
    iodfg_buf_addf(b, "id\tcase\tpid\tfd\torigin\tparent\tlayer\tcall\tflags\tmode\tcreated\t"
                      "destroyed\tops\tbytes_read\tbytes_written\tpath\n");
    for (uint32_t i = 0; i < r->n; i++) {
        const struct iodfg_handle *h = &hs[r->ids[i] - 1];
        const char *layer = iodfg_strpool_get(pool, h->layer);
        iodfg_buf_addf(b, "%u\t", r->ids[i]);
        name(b, report_case_name(r->log, h->case_id));
        iodfg_buf_addf(b, "\t%d\t%d\t%s\t%u\t", h->pid, h->fd,
                       iodfg_handle_origin_name((enum iodfg_handle_origin)h->origin), h->parent);
        const char *text[] = {layer[0] ? layer : IODFG_LAYER_DEFAULT,
                              iodfg_strpool_get(pool, h->call), iodfg_strpool_get(pool, h->flags)};
        for (int k = 0; k < 3; k++) {
            name(b, text[k]);
            iodfg_buf_add(b, "\t", 1);
        }
        if (h->mode != IODFG_UNKNOWN) {
            iodfg_buf_addf(b, "0%03llo", (unsigned long long)h->mode);
        }
        const int64_t t[2] = {h->created_ns, h->destroyed_ns};
        for (int k = 0; k < 2; k++) {
            iodfg_buf_add(b, "\t", 1);
            if (t[k] != IODFG_UNKNOWN) {
                iodfg_buf_addf(b, "%.6f", (double)(t[k] - t0) / 1e9);
            }
        }
        iodfg_buf_addf(b, "\t%" PRIu64 "\t%" PRIu64 "\t%" PRIu64 "\t", h->ops, h->bytes_read,
                       h->bytes_written);
        name(b, iodfg_strpool_get(pool, h->path));
        iodfg_buf_add(b, "\n", 1);
    }
    return report_done(b, err);
}
