/* SPDX-License-Identifier: MIT */
/* JSON reports of the characterisation, the bandwidths and the insights (report_json.h). */
#include "config.h"

#include "iodfg/access.h"
#include "iodfg/bandwidth.h"
#include "iodfg/buf.h"
#include "iodfg/characterize.h"
#include "iodfg/diff.h"
#include "iodfg/error.h"
#include "iodfg/insights.h"
#include "iodfg/json.h"
#include "iodfg/mapping.h"
#include "iodfg/report_json.h"
#include "iodfg/rules.h"
#include "iodfg/strpool.h"

#include "report_priv.h"

/* ---- characterisation ---- */

static void doubles(struct iodfg_json *j, const char *key, const double *v, uint32_t n)
{
    iodfg_json_key(j, key);
    iodfg_json_array(j);
    for (uint32_t i = 0; i < n; i++) {
        iodfg_json_double(j, v[i]);
    }
    iodfg_json_end(j);
}

static void servers(struct iodfg_json *j, const struct iodfg_binned *bn)
{
    iodfg_json_key(j, "servers");
    iodfg_json_array(j);
    for (uint32_t s = 0; s < bn->nservers; s++) {
        double n[2], mx[2];
        report_server_sums(bn, s, n, mx);
        iodfg_json_object(j);
        iodfg_json_put_text(j, "server", bn->server[s]);
        iodfg_json_put_double(j, "bytes_read", n[0]);
        iodfg_json_put_double(j, "bytes_written", n[1]);
        iodfg_json_put_double(j, "bw_read_max", mx[0]);
        iodfg_json_put_double(j, "bw_write_max", mx[1]);
        iodfg_json_end(j);
    }
    iodfg_json_end(j);
}

static void bins(struct iodfg_json *j, const struct iodfg_binned *bn)
{
    iodfg_json_object(j);
    iodfg_json_put_i64(j, "t0_ns", bn->t0_ns);
    iodfg_json_put_i64(j, "dt_ns", bn->dt_ns);
    iodfg_json_put_i64(j, "span_ns", bn->span_ns);
    iodfg_json_put_u64(j, "bins", bn->nbins);
    iodfg_json_put_double(j, "threshold", bn->threshold);
    iodfg_json_put_u64(j, "nservers", bn->nservers);
    for (int x = 0; x < 2; x++) {
        double v[REPORT_NMETRIC];
        report_metric_values(&bn->dir[x], v);
        iodfg_json_key(j, report_dir_name[x]);
        iodfg_json_object(j);
        for (size_t i = 0; i < REPORT_NMETRIC; i++) {
            iodfg_json_put_double(j, report_metric_keys[i], v[i]);
        }
        doubles(j, "bandwidth", bn->total_bytes[x], bn->nbins);
        doubles(j, "ops", bn->total_ops[x], bn->nbins);
        iodfg_json_end(j);
    }
    servers(j, bn);
    iodfg_json_end(j);
}

static void access_dir(struct iodfg_json *j, const struct iodfg_access_dir *d)
{
    iodfg_json_object(j);
    iodfg_json_put_u64(j, "ops", d->ops);
    iodfg_json_put_u64(j, "consecutive", d->consecutive);
    iodfg_json_put_u64(j, "sequential", d->sequential);
    iodfg_json_put_u64(j, "random", d->random);
    iodfg_json_put_u64(j, "unknown", d->unknown);
    iodfg_json_put_u64(j, "inferred", d->inferred);
    iodfg_json_put_u64(j, "unaligned", d->unaligned);
    iodfg_json_put_i64(j, "bytes", d->bytes);
    iodfg_json_key(j, "hist");
    iodfg_json_array(j);
    for (int k = 0; k < IODFG_ACCESS_BINS; k++) {
        iodfg_json_u64(j, d->hist[k]);
    }
    iodfg_json_end(j);
    iodfg_json_end(j);
}

static void activities(struct iodfg_json *j, const struct iodfg_characterization *r,
                       const struct iodfg_mapping *map)
{
    int first = 1;
    for (uint32_t a = 0; a < r->bw.nactivities; a++) {
        const struct iodfg_bw_row *row = &r->bw.act[a];
        const struct iodfg_serial_row *sr = &r->serial.act[a];
        if (!row->count) {
            continue;
        }
        if (!first) {
            iodfg_json_layout(j, "\n");
        }
        first = 0;
        iodfg_json_object(j);
        iodfg_json_put_text(j, "activity", iodfg_mapping_name(map, a));
        iodfg_json_put_u64(j, "cases", row->cases);
        iodfg_json_put_u64(j, "events", row->count);
        iodfg_json_put_i64(j, "bytes", row->bytes);
        iodfg_json_put_i64(j, "dur_sum_ns", row->dur_sum_ns);
        iodfg_json_put_double(j, "perceived", row->perceived);
        iodfg_json_put_double(j, "effective", row->effective);
        iodfg_json_put_double(j, "time_share", row->share);
        iodfg_json_put_double(j, "stair", sr->stair);
        iodfg_json_put_i64(j, "busy_ns", sr->busy_ns);
        iodfg_json_key(j, "access");
        iodfg_json_object(j);
        for (int x = 0; x < 2; x++) {
            iodfg_json_key(j, report_dir_name[x]);
            access_dir(j, &r->access.act[a].dir[x]);
        }
        iodfg_json_end(j);
        iodfg_json_end(j);
    }
}

int iodfg_report_json_charz(struct iodfg_buf *b, const struct iodfg_report_charz *g, int ng,
                            const struct iodfg_report_charz_opts *o, struct iodfg_error *err)
{
    struct iodfg_json j;
    iodfg_json_init(&j, b);
    iodfg_json_object(&j);
    iodfg_json_put_text(&j, "by", iodfg_server_by_name(o->by));
    iodfg_json_key(&j, "groups");
    iodfg_json_array(&j);
    for (int i = 0; i < ng; i++) {
        if (i) {
            iodfg_json_layout(&j, "\n");
        }
        iodfg_json_object(&j);
        iodfg_json_put_text(&j, "group", g[i].group);
        iodfg_json_key(&j, "time_bins");
        bins(&j, &g[i].r->bins);
        iodfg_json_layout(&j, "\n");
        iodfg_json_key(&j, "activities");
        iodfg_json_array(&j);
        activities(&j, g[i].r, o->map);
        iodfg_json_end(&j);
        iodfg_json_end(&j);
    }
    iodfg_json_end(&j);
    iodfg_json_end(&j);
    iodfg_buf_add(b, "\n", 1);
    return report_done(b, err);
}

int iodfg_report_json_bins(struct iodfg_buf *b, const struct iodfg_binned *bn,
                           struct iodfg_error *err)
{
    struct iodfg_json j;
    iodfg_json_init(&j, b);
    bins(&j, bn);
    iodfg_buf_add(b, "\n", 1);
    return report_done(b, err);
}

/* ---- bandwidths ---- */

static void bw_row(void *ctx, const char *kind, const char *name, const struct iodfg_bw_row *r)
{
    struct iodfg_json *j = ctx;
    iodfg_json_layout(j, "\n");
    iodfg_json_object(j);
    iodfg_json_put_text(j, "kind", kind);
    iodfg_json_put_text(j, "name", name);
    iodfg_json_put_u64(j, "cases", r->cases);
    iodfg_json_put_u64(j, "events", r->count);
    iodfg_json_put_i64(j, "bytes", r->bytes);
    iodfg_json_put_i64(j, "dur_sum_ns", r->dur_sum_ns);
    iodfg_json_put_i64(j, "span_ns", r->last_ns - r->first_ns);
    iodfg_json_put_double(j, "perceived", r->perceived);
    iodfg_json_put_double(j, "effective", r->effective);
    iodfg_json_put_double(j, "time_share", r->share);
    iodfg_json_end(j);
}

int iodfg_report_json_bandwidth(struct iodfg_buf *b, const struct iodfg_report_bandwidth *r,
                                struct iodfg_error *err)
{
    struct iodfg_json j;
    iodfg_json_init(&j, b);
    iodfg_json_object(&j);
    iodfg_json_put_text(&j, "by", iodfg_report_bw_by_name(r->by));
    iodfg_json_key(&j, "groups");
    iodfg_json_array(&j);
    for (int g = 0; g < r->ngroups; g++) {
        if (g) {
            iodfg_json_layout(&j, "\n");
        }
        iodfg_json_object(&j);
        iodfg_json_put_text(&j, "group", r->ngroups > 1 ? (g ? "R" : "G") : "all");
        iodfg_json_key(&j, "rows");
        iodfg_json_array(&j);
        report_bw_rows(r, r->bw[g], bw_row, &j);
        iodfg_json_end(&j);
        iodfg_json_end(&j);
    }
    iodfg_json_end(&j);
    iodfg_json_end(&j);
    iodfg_buf_add(b, "\n", 1);
    return report_done(b, err);
}

/* ---- insights ---- */

static void names(struct iodfg_json *j, const char *key, const char *const *items, size_t n)
{
    iodfg_json_key(j, key);
    iodfg_json_array(j);
    for (size_t i = 0; i < n; i++) {
        iodfg_json_text(j, items[i]);
    }
    iodfg_json_end(j);
}

static void evidence(struct iodfg_json *j, const struct iodfg_report_insights *r,
                     const struct iodfg_insights *ins, const struct iodfg_insight *f)
{
    const char *items[IODFG_INSIGHT_KEEP];
    for (uint32_t i = 0; i < f->nact; i++) {
        items[i] = iodfg_mapping_name(r->map, f->act[i]);
    }
    names(j, "activities", items, f->nact);
    iodfg_json_key(j, "edges");
    iodfg_json_array(j);
    for (uint32_t i = 0; i < f->nedge; i++) {
        items[0] = iodfg_mapping_name(r->map, f->edge[i][0]);
        items[1] = iodfg_mapping_name(r->map, f->edge[i][1]);
        iodfg_json_array(j);
        iodfg_json_text(j, items[0]);
        iodfg_json_text(j, items[1]);
        iodfg_json_end(j);
    }
    iodfg_json_end(j);
    for (uint32_t i = 0; i < f->ncases; i++) {
        items[i] = report_case_name(r->log, f->cases[i]);
    }
    names(j, "cases", items, f->ncases);
    for (uint32_t i = 0; i < f->npaths; i++) {
        items[i] = ins->pool ? iodfg_strpool_get(ins->pool, f->paths[i]) : "";
    }
    names(j, "paths", items, f->npaths);
    if (!f->nsites) { // only logs with strace -k stacks have them
        return;
    }
    iodfg_json_key(j, "call_sites"); // the subject activity's sites, most time first
    iodfg_json_array(j);
    for (uint32_t i = 0; i < f->nsites; i++) {
        iodfg_json_object(j);
        iodfg_json_put_text(j, "site", ins->pool ? iodfg_strpool_get(ins->pool, f->sites[i]) : "");
        iodfg_json_put_u64(j, "calls", f->site_calls[i]);
        int known = ins->pool && f->site_file[i] != IODFG_STR_EMPTY && f->site_line[i] > 0;
        iodfg_json_key(j, "file"); // of the call with the most events; null when unknown
        if (known) {
            iodfg_json_text(j, iodfg_strpool_get(ins->pool, f->site_file[i]));
            iodfg_json_put_i64(j, "line", f->site_line[i]);
        } else {
            iodfg_json_null(j);
            iodfg_json_key(j, "line");
            iodfg_json_null(j);
        }
        iodfg_json_put_u64(j, "calls_in_code", f->site_frames[i]); // call instructions (5: 5+)
        iodfg_json_end(j);
    }
    iodfg_json_end(j);
}

static void finding(struct iodfg_json *j, const struct iodfg_report_insights *r,
                    const struct iodfg_insights *ins, size_t rank, const struct iodfg_insight *f)
{
    char s[4096];
    iodfg_json_object(j);
    iodfg_json_put_u64(j, "rank", rank);
    iodfg_json_put_text(j, "rule", iodfg_insight_rule_name(f->rule));
    iodfg_json_put_text(j, "severity", iodfg_insight_severity_name(f->severity));
    iodfg_json_put_double(j, "impact", f->impact);
    iodfg_json_put_text(j, "subject", iodfg_insight_subject_text(ins, r->map, f, s, sizeof(s)));
    if (ins->app_first) { // focus app: the class of every finding
        iodfg_json_put_text(j, "class", f->fclass ? iodfg_insight_class(ins, f) : "app");
    }
    iodfg_json_put_text(j, "text", f->text);
    iodfg_json_put_text(j, "advice", iodfg_insight_rule_advice(f->rule));
    iodfg_json_key(j, "numbers");
    iodfg_json_object(j);
    for (uint32_t i = 0; i < f->nnum; i++) {
        iodfg_json_put_double(j, f->num[i].name, f->num[i].value);
    }
    iodfg_json_end(j);
    evidence(j, r, ins, f);
    iodfg_json_put_u64(j, "cases_total", f->cases_total);
    iodfg_json_put_u64(j, "paths_total", f->paths_total);
    iodfg_json_key(j, "window");
    if (f->has_window) {
        iodfg_json_object(j);
        iodfg_json_put_i64(j, "from_ns", f->from_ns);
        iodfg_json_put_i64(j, "to_ns", f->to_ns);
        iodfg_json_put_text(j, "clock", iodfg_clock_name((enum iodfg_clock)f->clock));
        iodfg_json_end(j);
    } else {
        iodfg_json_null(j);
    }
    iodfg_json_end(j);
}

static void insight_group(struct iodfg_json *j, const struct iodfg_report_insights *r, int g)
{
    const struct iodfg_insights *ins = r->ins[g];
    iodfg_json_object(j);
    iodfg_json_put_text(j, "group", r->ngroups > 1 ? (g ? "R" : "G") : "all");
    iodfg_json_put_u64(j, "cases", ins->cases);
    iodfg_json_put_u64(j, "events", ins->events);
    iodfg_json_put_i64(j, "call_time_ns", ins->call_time_ns);
    iodfg_json_key(j, "findings");
    iodfg_json_array(j);
    iodfg_json_layout(j, "\n");
    for (size_t i = 0; i < ins->n; i++) {
        if (i) {
            iodfg_json_layout(j, "\n");
        }
        finding(j, r, ins, i + 1, &ins->v[i]);
    }
    iodfg_json_end(j);
    iodfg_json_key(j, "omitted");
    iodfg_json_object(j);
    for (int k = 0; k < IODFG_INS__N; k++) {
        if (ins->omitted[k]) {
            iodfg_json_put_u64(j, iodfg_insight_rule_name((enum iodfg_insight_rule)k),
                               ins->omitted[k]);
        }
    }
    iodfg_json_end(j);
    iodfg_json_key(j, "not_judged");
    iodfg_json_object(j);
    for (int k = 0; k < IODFG_INS__N; k++) {
        if (ins->unjudged[k]) {
            iodfg_json_put_text(j, iodfg_insight_rule_name((enum iodfg_insight_rule)k),
                                ins->unjudged[k]);
        }
    }
    iodfg_json_end(j);
    iodfg_json_end(j);
}

// "stories": what differs between G and R per case, each row's numbers per case (count, time
// in ns, bytes) of both sides and its text.
static void stories(struct iodfg_json *j, const struct iodfg_diff_story *st)
{
    iodfg_json_key(j, "stories");
    iodfg_json_array(j);
    for (size_t i = 0; i < st->n; i++) {
        const struct iodfg_diff_story_row *w = &st->rows[i];
        if (i) {
            iodfg_json_layout(j, "\n");
        }
        iodfg_json_object(j);
        iodfg_json_put_text(j, "kind", w->kind == IODFG_STORY_VARIANT ? "variant" : "activity");
        iodfg_json_put_text(j, "side", iodfg_diff_side_name(w->side));
        iodfg_json_put_double(j, "explained_ns", w->explained_ns);
        for (int g = 0; g < 2; g++) {
            iodfg_json_key(j, g ? "r" : "g");
            iodfg_json_array(j);
            for (int k = 0; k < IODFG_STORY__N; k++) {
                iodfg_json_double(j, g ? w->r[k] : w->g[k]);
            }
            iodfg_json_end(j);
        }
        iodfg_json_put_text(j, "text", w->text);
        iodfg_json_end(j);
    }
    iodfg_json_end(j);
}

int iodfg_report_json_insights(struct iodfg_buf *b, const struct iodfg_report_insights *r,
                               struct iodfg_error *err)
{
    struct iodfg_json j;
    iodfg_json_init(&j, b);
    iodfg_json_object(&j);
    iodfg_json_key(&j, "groups");
    iodfg_json_array(&j);
    for (int g = 0; g < r->ngroups; g++) {
        if (g) {
            iodfg_json_layout(&j, "\n");
        }
        insight_group(&j, r, g);
    }
    iodfg_json_end(&j);
    if (r->story) {
        stories(&j, r->story);
    }
    iodfg_json_key(&j, "differences");
    iodfg_json_array(&j);
    for (size_t i = 0; i < r->nchanges; i++) {
        const struct iodfg_insight_change *ch = &r->changes[i];
        const struct iodfg_insight *x = ch->g ? ch->g : ch->r;
        char subj[4096];
        iodfg_insight_subject_text(ch->g ? r->ins[0] : r->ins[1], r->map, x, subj, sizeof(subj));
        if (i) {
            iodfg_json_layout(&j, "\n");
        }
        iodfg_json_object(&j);
        iodfg_json_put_text(&j, "side", iodfg_insight_side_mark(ch->side));
        iodfg_json_put_text(&j, "rule", iodfg_insight_rule_name(x->rule));
        iodfg_json_put_text(&j, "subject", subj);
        iodfg_json_put_text(&j, "g_severity",
                            ch->g ? iodfg_insight_severity_name(ch->g->severity) : "-");
        iodfg_json_put_text(&j, "r_severity",
                            ch->r ? iodfg_insight_severity_name(ch->r->severity) : "-");
        iodfg_json_end(&j);
    }
    iodfg_json_end(&j);
    iodfg_json_end(&j);
    iodfg_buf_add(b, "\n", 1);
    return report_done(b, err);
}
