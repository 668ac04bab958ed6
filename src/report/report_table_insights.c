/* SPDX-License-Identifier: MIT */
/* The insights for people (report_table.h): per group its findings, each with its text, impact,
 * evidence (names cut by the width rule) and advice; then what differs between G and R. */
#include "config.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

#include "iodfg/buf.h"
#include "iodfg/diff.h"
#include "iodfg/error.h"
#include "iodfg/format.h"
#include "iodfg/glyph.h"
#include "iodfg/insights.h"
#include "iodfg/mapping.h"
#include "iodfg/report_table.h"
#include "iodfg/rules.h"
#include "iodfg/strpool.h"
#include "iodfg/table.h"

#include "report_priv.h"

static void cell(struct iodfg_buf *b, const char *s)
{
    iodfg_table_cut(b, s, strlen(s), IODFG_TABLE_CELL_MAX, 0);
}

// "      label:      a, b, c (N in all)": a finding's evidence of one kind.
static void list_line(struct iodfg_buf *b, const char *label, const char *const *items, size_t n,
                      uint32_t total)
{
    if (!n) {
        return;
    }
    iodfg_buf_addf(b, "      %-12s", label);
    for (size_t i = 0; i < n; i++) {
        iodfg_buf_addf(b, "%s", i ? ", " : "");
        cell(b, items[i]);
    }
    if (total > n) {
        iodfg_buf_addf(b, " (%u in all)", total);
    }
    iodfg_buf_addf(b, "\n");
}

static void window_text(char *buf, size_t size, const struct iodfg_insight *f)
{
    char a[80], z[80];
    iodfg_report_time(a, sizeof(a), (enum iodfg_clock)f->clock, f->from_ns);
    iodfg_report_time(z, sizeof(z), (enum iodfg_clock)f->clock, f->to_ns);
    snprintf(buf, size, "%s %s %s (%.6f s)", a, iodfg_glyph(IODFG_GL_TO), z,
             (double)(f->to_ns - f->from_ns) / 1e9);
}

/* " at callsites.c:22" (the file's base name), with " and N other calls" when more calls of the
 * function issued the events; nothing when the line is unknown. */
static void site_line(struct iodfg_buf *b, const struct iodfg_insights *ins,
                      const struct iodfg_insight *f, uint32_t i)
{
    if (!ins->pool || f->site_file[i] == IODFG_STR_EMPTY || f->site_line[i] <= 0) {
        return;
    }
    const char *file = iodfg_strpool_get(ins->pool, f->site_file[i]);
    const char *slash = strrchr(file, '/');
    iodfg_buf_addf(b, " at ");
    cell(b, slash ? slash + 1 : file);
    iodfg_buf_addf(b, ":%d", (int)f->site_line[i]);
    if (f->site_frames[i] > 1) {
        iodfg_buf_addf(b, " and %s%u other call%s", f->site_frames[i] > 4 ? "at least " : "",
                       f->site_frames[i] - 1, f->site_frames[i] == 2 ? "" : "s");
    }
}

static void evidence(struct iodfg_buf *b, const struct iodfg_report_insights *r,
                     const struct iodfg_insights *ins, const struct iodfg_insight *f)
{
    const char *items[IODFG_INSIGHT_KEEP];
    for (uint32_t i = 0; i < f->nact; i++) {
        items[i] = iodfg_mapping_name(r->map, f->act[i]);
    }
    list_line(b, "activities:", items, f->nact, f->act_total);
    for (uint32_t i = 0; i < f->ncases; i++) {
        items[i] = report_case_name(r->log, f->cases[i]);
    }
    list_line(b, "cases:", items, f->ncases, f->cases_total);
    for (uint32_t i = 0; i < f->npaths; i++) {
        items[i] = ins->pool ? iodfg_strpool_get(ins->pool, f->paths[i]) : "";
    }
    list_line(b, f->rule == IODFG_INS_METADATA ? "dirs:" : "paths:", items, f->npaths,
              f->paths_total);
    if (f->nsites) { // "call sites: write_header at callsites.c:22 (200 calls), ..."
        iodfg_buf_addf(b, "      %-12s", "call sites:");
        for (uint32_t i = 0; i < f->nsites; i++) {
            iodfg_buf_addf(b, "%s", i ? ", " : "");
            cell(b, ins->pool ? iodfg_strpool_get(ins->pool, f->sites[i]) : "");
            site_line(b, ins, f, i);
            iodfg_buf_addf(b, " (%llu %s)", (unsigned long long)f->site_calls[i],
                           f->site_calls[i] == 1 ? "call" : "calls");
        }
        if (f->sites_total > f->nsites) {
            iodfg_buf_addf(b, " (%u in all)", f->sites_total);
        }
        iodfg_buf_addf(b, "\n");
    }
}

static void finding(struct iodfg_buf *b, const struct iodfg_report_insights *r,
                    const struct iodfg_insights *ins, size_t rank, const struct iodfg_insight *f)
{
    char subj[4096], imp[IODFG_FORMAT_MIN];
    iodfg_insight_subject_text(ins, r->map, f, subj, sizeof(subj));
    iodfg_format_percent(imp, sizeof(imp), f->impact, 0);
    iodfg_buf_addf(b, "%3zu. %-6s %-15s ", rank, iodfg_insight_severity_name(f->severity),
                   iodfg_insight_rule_name(f->rule));
    cell(b, subj[0] ? subj : iodfg_insight_rule_title(f->rule));
    if (ins->app_first && f->fclass) { // focus app: the runtime's findings are marked
        iodfg_buf_addf(b, "  [runtime: ");
        cell(b, iodfg_insight_class(ins, f));
        iodfg_buf_addf(b, "]");
    }
    iodfg_buf_addf(b, "\n      %s\n", f->text);
    if (isfinite(f->impact)) {
        iodfg_buf_addf(b, "      %-12s%s %s\n", "impact:", imp,
                       iodfg_insight_impact_basis(f->rule));
    }
    evidence(b, r, ins, f);
    if (f->has_window) {
        char w[256];
        window_text(w, sizeof(w), f);
        iodfg_buf_addf(b, "      %-12s%s\n", "window:", w);
    }
    iodfg_buf_addf(b, "      %-12s%s\n\n", "advice:", iodfg_insight_rule_advice(f->rule));
}

// The findings of one group (or of the selection) with what was left out or not judged.
static void group(struct iodfg_buf *b, const struct iodfg_report_insights *r, int g)
{
    static const char *const title[2][2] = {{"selection", ""}, {"group G", "group R"}};
    const struct iodfg_insights *ins = r->ins[g];
    char t[IODFG_FORMAT_MIN];
    iodfg_format_duration(t, sizeof(t), ins->call_time_ns, 0);
    iodfg_buf_addf(b, "%s== %s: %u case(s), %llu event(s), %s in calls; %zu finding(s)\n\n",
                   g ? "\n" : "", title[r->ngroups > 1][g], ins->cases,
                   (unsigned long long)ins->events, t, ins->n);
    for (size_t i = 0; i < ins->n; i++) {
        finding(b, r, ins, i + 1, &ins->v[i]);
    }
    for (int k = 0; k < IODFG_INS__N; k++) {
        if (ins->omitted[k]) {
            iodfg_buf_addf(b, "%s: %llu more finding(s) not shown (--threshold max-per-rule=N)\n",
                           iodfg_insight_rule_name((enum iodfg_insight_rule)k),
                           (unsigned long long)ins->omitted[k]);
        }
    }
    for (int k = 0; k < IODFG_INS__N; k++) {
        if (ins->unjudged[k]) {
            iodfg_buf_addf(b, "%s: not judged: %s\n",
                           iodfg_insight_rule_name((enum iodfg_insight_rule)k), ins->unjudged[k]);
        }
    }
    if (ins->n == 0) {
        iodfg_buf_addf(b, "no findings at these thresholds\n");
    }
}

// What differs between G and R per case, ranked by the time it explains (iodfg_diff_story).
static void story(struct iodfg_buf *b, const struct iodfg_diff_story *st)
{
    char gt[IODFG_FORMAT_MIN], rt[IODFG_FORMAT_MIN];
    iodfg_format_duration(gt, sizeof(gt), (int64_t)st->g_time_ns, 0);
    iodfg_format_duration(rt, sizeof(rt), (int64_t)st->r_time_ns, 0);
    iodfg_buf_addf(b,
                   "\n== what differs between G and R, per case (G: %llu cases, %s in calls per "
                   "case; R: %llu cases, %s): %zu\n",
                   (unsigned long long)st->g_cases, gt, (unsigned long long)st->r_cases, rt, st->n);
    for (size_t i = 0; i < st->n; i++) {
        const struct iodfg_diff_story_row *w = &st->rows[i];
        iodfg_buf_addf(b, "%3zu. %-2s ", i + 1, iodfg_diff_side_mark(w->side));
        iodfg_table_cut(b, w->text, strlen(w->text), IODFG_STORY_TEXT, 0);
        iodfg_buf_addf(b, "\n");
    }
}

int iodfg_report_table_insights(struct iodfg_buf *b, const struct iodfg_report_insights *r,
                                struct iodfg_error *err)
{
    for (int g = 0; g < r->ngroups; g++) {
        group(b, r, g);
    }
    if (r->story) {
        story(b, r->story);
    }
    if (r->ngroups > 1) {
        iodfg_buf_addf(b, "\n== differences between G and R: %zu\n", r->nchanges);
    }
    for (size_t i = 0; i < r->nchanges; i++) {
        const struct iodfg_insight_change *ch = &r->changes[i];
        const struct iodfg_insight *x = ch->g ? ch->g : ch->r;
        const struct iodfg_insights *in = ch->g ? r->ins[0] : r->ins[1];
        char subj[4096], rsubj[2048];
        iodfg_insight_subject_text(in, r->map, x, subj, sizeof(subj));
        if (ch->g && ch->r) { // aligned by place: name R's subject too when it differs
            iodfg_insight_subject_text(r->ins[1], r->map, ch->r, rsubj, sizeof(rsubj));
            if (strcmp(subj, rsubj)) {
                size_t len = strlen(subj);
                snprintf(subj + len, sizeof(subj) - len, " | %s", rsubj);
            }
        }
        if (in->app_first && x->fclass) {
            size_t len = strlen(subj);
            snprintf(subj + len, sizeof(subj) - len, "%s[runtime: %s]", len ? "  " : "",
                     iodfg_insight_class(in, x));
        }
        iodfg_buf_addf(b, "%-7s G %-6s R %-6s %-15s ", iodfg_insight_side_mark(ch->side),
                       ch->g ? iodfg_insight_severity_name(ch->g->severity) : "-",
                       ch->r ? iodfg_insight_severity_name(ch->r->severity) : "-",
                       iodfg_insight_rule_name(x->rule));
        cell(b, subj);
        iodfg_buf_addf(b, "\n");
    }
    return report_done(b, err);
}
