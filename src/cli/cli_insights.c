/* SPDX-License-Identifier: MIT */
/* `iodfg insights`: automatic I/O findings (doc/insights.md), ranked, each with its evidence;
 * with --green/--red, the findings of each group and what differs between them. */
#include "config.h"

#include <getopt.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "iodfg/diff.h"
#include "iodfg/error.h"
#include "iodfg/eventlog.h"
#include "iodfg/format.h"
#include "iodfg/glyph.h"
#include "iodfg/insights.h"
#include "iodfg/rules.h"
#include "iodfg/session.h"
#include "iodfg/strpool.h"
#include "iodfg/textfile.h"

#include "cli.h"

#define MAX_ASSIGN 64

struct ins_opts {
    struct cli_analyze_opts a;
    enum cli_format format;
    struct iodfg_insight_thresholds t;
    uint8_t on[IODFG_INS__N];
    const char *thresholds_file; /* --thresholds FILE, else the user's config when present */
    const char *assign[MAX_ASSIGN];
    size_t nassign;
};

/* One finding's report: the log and mapping to name its evidence. */
struct out {
    struct iodfg_buf *b;
    enum cli_format f;
    const struct cli_metrics *m;
    const struct iodfg_insights *ins;
    const char *group;
};

static const char *case_name(const struct cli_metrics *m, uint32_t c)
{
    return iodfg_strpool_get(iodfg_eventlog_pool(m->log), iodfg_eventlog_case(m->log, c)->name);
}

static const char *pool_str(const struct iodfg_insights *ins, uint32_t id)
{
    return ins->pool ? iodfg_strpool_get(ins->pool, id) : "";
}

static void term_text(struct iodfg_buf *b, const char *s)
{
    cli_cell_text(b, s, strlen(s), CLI_CELL_MAX, 0);
}

// "  label: a b c (N in all)" for a table.
static void list_line(struct iodfg_buf *b, const char *label, const char *const *items, size_t n,
                      uint32_t total)
{
    if (!n) {
        return;
    }
    iodfg_buf_addf(b, "      %-12s", label);
    for (size_t i = 0; i < n; i++) {
        iodfg_buf_addf(b, "%s", i ? ", " : "");
        term_text(b, items[i]);
    }
    if (total > n) {
        iodfg_buf_addf(b, " (%u in all)", total);
    }
    iodfg_buf_addf(b, "\n");
}

static void window_text(char *buf, size_t size, const struct iodfg_insight *f)
{
    char a[80], z[80];
    cli_time_text(a, sizeof(a), (enum iodfg_clock)f->clock, f->from_ns);
    cli_time_text(z, sizeof(z), (enum iodfg_clock)f->clock, f->to_ns);
    snprintf(buf, size, "%s %s %s (%.6f s)", a, iodfg_glyph(IODFG_GL_TO), z,
             (double)(f->to_ns - f->from_ns) / 1e9);
}

static void finding_table(const struct out *o, size_t rank, const struct iodfg_insight *f)
{
    struct iodfg_buf *b = o->b;
    const struct iodfg_mapping *map = o->m->map;
    char subj[4096], imp[IODFG_FORMAT_MIN];
    iodfg_insight_subject_text(o->ins, map, f, subj, sizeof(subj));
    iodfg_format_percent(imp, sizeof(imp), f->impact, 0);
    iodfg_buf_addf(b, "%3zu. %-6s %-15s ", rank, iodfg_insight_severity_name(f->severity),
                   iodfg_insight_rule_name(f->rule));
    term_text(b, subj[0] ? subj : iodfg_insight_rule_title(f->rule));
    if (o->ins->app_first && f->fclass) { // focus app: the runtime's findings are marked
        iodfg_buf_addf(b, "  [runtime: ");
        term_text(b, iodfg_insight_class(o->ins, f));
        iodfg_buf_addf(b, "]");
    }
    iodfg_buf_addf(b, "\n      %s\n", f->text);
    if (isfinite(f->impact)) {
        iodfg_buf_addf(b, "      %-12s%s %s\n", "impact:", imp,
                       iodfg_insight_impact_basis(f->rule));
    }
    const char *items[IODFG_INSIGHT_KEEP];
    for (uint32_t i = 0; i < f->nact; i++) {
        items[i] = iodfg_mapping_name(map, f->act[i]);
    }
    list_line(b, "activities:", items, f->nact, f->act_total);
    for (uint32_t i = 0; i < f->ncases; i++) {
        items[i] = case_name(o->m, f->cases[i]);
    }
    list_line(b, "cases:", items, f->ncases, f->cases_total);
    for (uint32_t i = 0; i < f->npaths; i++) {
        items[i] = pool_str(o->ins, f->paths[i]);
    }
    list_line(b, f->rule == IODFG_INS_METADATA ? "dirs:" : "paths:", items, f->npaths,
              f->paths_total);
    if (f->has_window) {
        char w[256];
        window_text(w, sizeof(w), f);
        iodfg_buf_addf(b, "      %-12s%s\n", "window:", w);
    }
    iodfg_buf_addf(b, "      %-12s%s\n\n", "advice:", iodfg_insight_rule_advice(f->rule));
}

static void tsv_row(const struct out *o, size_t rank, const struct iodfg_insight *f,
                    const char *field, const char *value)
{
    iodfg_buf_addf(o->b, "%s\t%zu\t%s\t%s\t%s\t", o->group, rank,
                   iodfg_insight_severity_name(f->severity), iodfg_insight_rule_name(f->rule),
                   field);
    cli_cell_name(o->b, CLI_FMT_TSV, value, 0);
    iodfg_buf_addf(o->b, "\n");
}

static void finding_tsv(const struct out *o, size_t rank, const struct iodfg_insight *f)
{
    const struct iodfg_mapping *map = o->m->map;
    char s[4096];
    tsv_row(o, rank, f, "subject", iodfg_insight_subject_text(o->ins, map, f, s, sizeof(s)));
    tsv_row(o, rank, f, "text", f->text);
    snprintf(s, sizeof(s), "%.17g", f->impact);
    tsv_row(o, rank, f, "impact", isfinite(f->impact) ? s : "");
    if (o->ins->app_first) {
        tsv_row(o, rank, f, "class", f->fclass ? iodfg_insight_class(o->ins, f) : "app");
    }
    for (uint32_t i = 0; i < f->nnum; i++) {
        char field[80];
        snprintf(field, sizeof(field), "n.%s", f->num[i].name);
        snprintf(s, sizeof(s), "%.17g", f->num[i].value);
        tsv_row(o, rank, f, field, isfinite(f->num[i].value) ? s : "");
    }
    for (uint32_t i = 0; i < f->nact; i++) {
        tsv_row(o, rank, f, "activity", iodfg_mapping_name(map, f->act[i]));
    }
    for (uint32_t i = 0; i < f->nedge; i++) {
        snprintf(s, sizeof(s), "%s -> %s", iodfg_mapping_name(map, f->edge[i][0]),
                 iodfg_mapping_name(map, f->edge[i][1]));
        tsv_row(o, rank, f, "edge", s);
    }
    for (uint32_t i = 0; i < f->ncases; i++) {
        tsv_row(o, rank, f, "case", case_name(o->m, f->cases[i]));
    }
    snprintf(s, sizeof(s), "%u", f->cases_total);
    tsv_row(o, rank, f, "cases_total", s);
    for (uint32_t i = 0; i < f->npaths; i++) {
        tsv_row(o, rank, f, "path", pool_str(o->ins, f->paths[i]));
    }
    snprintf(s, sizeof(s), "%u", f->paths_total);
    tsv_row(o, rank, f, "paths_total", s);
    if (f->has_window) {
        snprintf(s, sizeof(s), "%lld..%lld %s", (long long)f->from_ns, (long long)f->to_ns,
                 iodfg_clock_name((enum iodfg_clock)f->clock));
        tsv_row(o, rank, f, "window_ns", s);
    }
    tsv_row(o, rank, f, "advice", iodfg_insight_rule_advice(f->rule));
}

static void json_names(struct iodfg_buf *b, const char *key, const char *const *items, size_t n)
{
    iodfg_buf_addf(b, ",\"%s\":[", key);
    for (size_t i = 0; i < n; i++) {
        iodfg_buf_addf(b, "%s", i ? "," : "");
        iodfg_json_cstr(b, items[i]);
    }
    iodfg_buf_addf(b, "]");
}

static void finding_json(const struct out *o, size_t rank, const struct iodfg_insight *f)
{
    struct iodfg_buf *b = o->b;
    const struct iodfg_mapping *map = o->m->map;
    char s[4096];
    iodfg_buf_addf(
        b, "%s{\"rank\":%zu,\"rule\":\"%s\",\"severity\":\"%s\",\"impact\":", rank > 1 ? ",\n" : "",
        rank, iodfg_insight_rule_name(f->rule), iodfg_insight_severity_name(f->severity));
    iodfg_json_num(b, f->impact);
    iodfg_buf_addf(b, ",\"subject\":");
    iodfg_json_cstr(b, iodfg_insight_subject_text(o->ins, map, f, s, sizeof(s)));
    if (o->ins->app_first) {
        iodfg_buf_addf(b, ",\"class\":");
        iodfg_json_cstr(b, f->fclass ? iodfg_insight_class(o->ins, f) : "app");
    }
    iodfg_buf_addf(b, ",\"text\":");
    iodfg_json_cstr(b, f->text);
    iodfg_buf_addf(b, ",\"advice\":");
    iodfg_json_cstr(b, iodfg_insight_rule_advice(f->rule));
    iodfg_buf_addf(b, ",\"numbers\":{");
    for (uint32_t i = 0; i < f->nnum; i++) {
        iodfg_buf_addf(b, "%s\"%s\":", i ? "," : "", f->num[i].name);
        iodfg_json_num(b, f->num[i].value);
    }
    iodfg_buf_addf(b, "}");
    const char *items[IODFG_INSIGHT_KEEP];
    for (uint32_t i = 0; i < f->nact; i++) {
        items[i] = iodfg_mapping_name(map, f->act[i]);
    }
    json_names(b, "activities", items, f->nact);
    iodfg_buf_addf(b, ",\"edges\":[");
    for (uint32_t i = 0; i < f->nedge; i++) {
        iodfg_buf_addf(b, "%s[", i ? "," : "");
        iodfg_json_cstr(b, iodfg_mapping_name(map, f->edge[i][0]));
        iodfg_buf_addf(b, ",");
        iodfg_json_cstr(b, iodfg_mapping_name(map, f->edge[i][1]));
        iodfg_buf_addf(b, "]");
    }
    iodfg_buf_addf(b, "]");
    for (uint32_t i = 0; i < f->ncases; i++) {
        items[i] = case_name(o->m, f->cases[i]);
    }
    json_names(b, "cases", items, f->ncases);
    for (uint32_t i = 0; i < f->npaths; i++) {
        items[i] = pool_str(o->ins, f->paths[i]);
    }
    json_names(b, "paths", items, f->npaths);
    iodfg_buf_addf(b, ",\"cases_total\":%u,\"paths_total\":%u,\"window\":", f->cases_total,
                   f->paths_total);
    if (f->has_window) {
        iodfg_buf_addf(b, "{\"from_ns\":%lld,\"to_ns\":%lld,\"clock\":\"%s\"}",
                       (long long)f->from_ns, (long long)f->to_ns,
                       iodfg_clock_name((enum iodfg_clock)f->clock));
    } else {
        iodfg_buf_addf(b, "null");
    }
    iodfg_buf_addf(b, "}");
}

static void finding_out(const struct out *o, size_t rank, const struct iodfg_insight *f)
{
    if (o->f == CLI_FMT_TABLE) {
        finding_table(o, rank, f);
    } else if (o->f == CLI_FMT_TSV) {
        finding_tsv(o, rank, f);
    } else {
        finding_json(o, rank, f);
    }
}

// The findings of one group (or of the selection) with what was not judged or left out.
static void group_out(const struct out *o, const char *title)
{
    struct iodfg_buf *b = o->b;
    const struct iodfg_insights *ins = o->ins;
    if (o->f == CLI_FMT_TABLE) {
        char t[IODFG_FORMAT_MIN];
        iodfg_format_duration(t, sizeof(t), ins->call_time_ns, 0);
        iodfg_buf_addf(b, "== %s: %u case(s), %llu event(s), %s in calls; %zu finding(s)\n\n",
                       title, ins->cases, (unsigned long long)ins->events, t, ins->n);
    } else if (o->f == CLI_FMT_JSON) {
        iodfg_buf_addf(b,
                       "{\"group\":\"%s\",\"cases\":%u,\"events\":%llu,\"call_time_ns\":%lld,"
                       "\"findings\":[\n",
                       o->group, ins->cases, (unsigned long long)ins->events,
                       (long long)ins->call_time_ns);
    }
    for (size_t i = 0; i < ins->n; i++) {
        finding_out(o, i + 1, &ins->v[i]);
    }
    if (o->f == CLI_FMT_JSON) {
        iodfg_buf_addf(b, "],\"omitted\":{");
    }
    int first = 1;
    for (int r = 0; r < IODFG_INS__N; r++) {
        if (!ins->omitted[r]) {
            continue;
        }
        const char *name = iodfg_insight_rule_name((enum iodfg_insight_rule)r);
        if (o->f == CLI_FMT_TABLE) {
            iodfg_buf_addf(b, "%s: %llu more finding(s) not shown (--threshold max-per-rule=N)\n",
                           name, (unsigned long long)ins->omitted[r]);
        } else if (o->f == CLI_FMT_JSON) {
            iodfg_buf_addf(b, "%s\"%s\":%llu", first ? "" : ",", name,
                           (unsigned long long)ins->omitted[r]);
        }
        first = 0;
    }
    if (o->f == CLI_FMT_JSON) {
        iodfg_buf_addf(b, "},\"not_judged\":{");
    }
    first = 1;
    for (int r = 0; r < IODFG_INS__N; r++) {
        if (!ins->unjudged[r]) {
            continue;
        }
        const char *name = iodfg_insight_rule_name((enum iodfg_insight_rule)r);
        if (o->f == CLI_FMT_TABLE) {
            iodfg_buf_addf(b, "%s: not judged: %s\n", name, ins->unjudged[r]);
        } else if (o->f == CLI_FMT_JSON) {
            iodfg_buf_addf(b, "%s\"%s\":", first ? "" : ",", name);
            iodfg_json_cstr(b, ins->unjudged[r]);
        }
        first = 0;
    }
    if (o->f == CLI_FMT_JSON) {
        iodfg_buf_addf(b, "}}");
    } else if (o->f == CLI_FMT_TABLE && ins->n == 0) {
        iodfg_buf_addf(b, "no findings at these thresholds\n");
    }
}

// What differs between the groups per case, ranked by the time it explains (iodfg_diff_story).
static int story_out(struct iodfg_buf *b, enum cli_format f, const struct cli_metrics *m)
{
    struct iodfg_diff_story st;
    iodfg_diff_story_init(&st);
    struct iodfg_error err;
    iodfg_error_clear(&err);
    if (iodfg_diff_story_build(&st, m->ses, &err)) {
        cli_error(&err);
        return CLI_FAIL;
    }
    char gt[IODFG_FORMAT_MIN], rt[IODFG_FORMAT_MIN];
    iodfg_format_duration(gt, sizeof(gt), (int64_t)st.g_time_ns, 0);
    iodfg_format_duration(rt, sizeof(rt), (int64_t)st.r_time_ns, 0);
    if (f == CLI_FMT_TABLE) {
        iodfg_buf_addf(
            b,
            "\n== what differs between G and R, per case (G: %llu cases, %s in calls per "
            "case; R: %llu cases, %s): %zu\n",
            (unsigned long long)st.g_cases, gt, (unsigned long long)st.r_cases, rt, st.n);
    } else if (f == CLI_FMT_JSON) {
        iodfg_buf_addf(b, "],\"stories\":[");
    }
    for (size_t i = 0; i < st.n; i++) {
        const struct iodfg_diff_story_row *r = &st.rows[i];
        const char *kind = r->kind == IODFG_STORY_VARIANT ? "variant" : "activity";
        if (f == CLI_FMT_TABLE) {
            iodfg_buf_addf(b, "%3zu. %-2s ", i + 1, iodfg_diff_side_mark(r->side));
            cli_cell_text(b, r->text, strlen(r->text), IODFG_STORY_TEXT, 0);
            iodfg_buf_addf(b, "\n");
        } else if (f == CLI_FMT_TSV) {
            iodfg_buf_addf(b, "story\t%zu\t%s\t%s\ttext\t", i + 1, iodfg_diff_side_mark(r->side),
                           kind);
            cli_cell_name(b, f, r->text, 0);
            iodfg_buf_addf(b, "\n");
        } else {
            iodfg_buf_addf(b,
                           "%s{\"kind\":\"%s\",\"side\":\"%s\",\"explained_ns\":", i ? ",\n" : "",
                           kind, iodfg_diff_side_name(r->side));
            iodfg_json_num(b, r->explained_ns);
            iodfg_buf_addf(b, ",\"g\":[");
            for (int k = 0; k < IODFG_STORY__N; k++) {
                iodfg_buf_addf(b, "%s", k ? "," : "");
                iodfg_json_num(b, r->g[k]);
            }
            iodfg_buf_addf(b, "],\"r\":[");
            for (int k = 0; k < IODFG_STORY__N; k++) {
                iodfg_buf_addf(b, "%s", k ? "," : "");
                iodfg_json_num(b, r->r[k]);
            }
            iodfg_buf_addf(b, "],\"text\":");
            iodfg_json_cstr(b, r->text);
            iodfg_buf_addf(b, "}");
        }
    }
    iodfg_diff_story_fini(&st);
    return CLI_OK;
}

static int differences_out(struct iodfg_buf *b, enum cli_format f, const struct cli_metrics *m,
                           const struct iodfg_insights ins[2])
{
    struct iodfg_insight_change *ch;
    size_t n;
    struct iodfg_error err;
    iodfg_error_clear(&err);
    if (iodfg_insights_compare(&ins[0], &ins[1], m->map, &ch, &n, &err)) {
        cli_error(&err);
        return CLI_FAIL;
    }
    if (f == CLI_FMT_TABLE) {
        iodfg_buf_addf(b, "\n== differences between G and R: %zu\n", n);
    } else if (f == CLI_FMT_JSON) {
        iodfg_buf_addf(b, "],\"differences\":[");
    }
    for (size_t i = 0; i < n; i++) {
        const struct iodfg_insight *x = ch[i].g ? ch[i].g : ch[i].r;
        const struct iodfg_insights *in = ch[i].g ? &ins[0] : &ins[1];
        char subj[4096], rsubj[2048];
        iodfg_insight_subject_text(in, m->map, x, subj, sizeof(subj));
        if (ch[i].g && ch[i].r) { // aligned by place: name R's subject too when it differs
            iodfg_insight_subject_text(&ins[1], m->map, ch[i].r, rsubj, sizeof(rsubj));
            if (strcmp(subj, rsubj)) {
                size_t len = strlen(subj);
                snprintf(subj + len, sizeof(subj) - len, " | %s", rsubj);
            }
        }
        if (f == CLI_FMT_TABLE && in->app_first && x->fclass) {
            size_t len = strlen(subj);
            snprintf(subj + len, sizeof(subj) - len, "%s[runtime: %s]", len ? "  " : "",
                     iodfg_insight_class(in, x));
        }
        const char *gs = ch[i].g ? iodfg_insight_severity_name(ch[i].g->severity) : "-";
        const char *rs = ch[i].r ? iodfg_insight_severity_name(ch[i].r->severity) : "-";
        const char *rule = iodfg_insight_rule_name(x->rule);
        if (f == CLI_FMT_TABLE) {
            iodfg_buf_addf(b, "%-7s G %-6s R %-6s %-15s ", iodfg_insight_side_mark(ch[i].side), gs,
                           rs, rule);
            term_text(b, subj);
            iodfg_buf_addf(b, "\n");
        } else if (f == CLI_FMT_TSV) {
            iodfg_buf_addf(b, "diff\t%zu\t%s\t%s\t%s\t", i + 1, iodfg_insight_side_mark(ch[i].side),
                           rule, ch[i].g && ch[i].r ? "changed" : "only");
            cli_cell_name(b, f, subj, 0);
            iodfg_buf_addf(b, " (G %s, R %s)\n", gs, rs);
        } else {
            iodfg_buf_addf(b, "%s{\"side\":\"%s\",\"rule\":\"%s\",\"subject\":", i ? ",\n" : "",
                           iodfg_insight_side_mark(ch[i].side), rule);
            iodfg_json_cstr(b, subj);
            iodfg_buf_addf(b, ",\"g_severity\":\"%s\",\"r_severity\":\"%s\"}", gs, rs);
        }
    }
    free(ch);
    return CLI_OK;
}

static int run(const struct ins_opts *o, char *const *inputs, size_t n)
{
    struct cli_metrics m;
    int rc = cli_metrics_run(&m, &o->a, inputs, n, 0);
    struct iodfg_buf b;
    iodfg_buf_init(&b);
    struct iodfg_insights ins[2];
    iodfg_insights_init(&ins[0]);
    iodfg_insights_init(&ins[1]);
    static const char *const gtitle[2][2] = {{"selection", ""}, {"group G", "group R"}};
    if (rc == CLI_OK && o->format == CLI_FMT_TSV) {
        iodfg_buf_addf(&b, "group\trank\tseverity\trule\tfield\tvalue\n");
    } else if (rc == CLI_OK && o->format == CLI_FMT_JSON) {
        iodfg_buf_addf(&b, "{\"groups\":[");
    }
    for (int g = 0; rc == CLI_OK && g < m.ngroups; g++) {
        struct iodfg_error err;
        iodfg_error_clear(&err);
        int group = m.ngroups > 1 ? g + 1 : IODFG_GROUP_NONE;
        if (iodfg_insights_session(&ins[g], m.ses, group, &o->t, o->on, &err)) {
            cli_error(&err);
            rc = CLI_FAIL;
            break;
        }
        struct out out = {&b, o->format, &m, &ins[g], cli_metrics_group_name(&m, g)};
        if (g && o->format != CLI_FMT_TSV) {
            iodfg_buf_addf(&b, o->format == CLI_FMT_JSON ? ",\n" : "\n");
        }
        group_out(&out, gtitle[m.ngroups - 1][g]);
    }
    if (rc == CLI_OK && m.ngroups > 1) {
        rc = story_out(&b, o->format, &m);
    }
    if (rc == CLI_OK && m.ngroups > 1) {
        rc = differences_out(&b, o->format, &m, ins);
    } else if (rc == CLI_OK && o->format == CLI_FMT_JSON) {
        iodfg_buf_addf(&b, "],\"differences\":[");
    }
    iodfg_insights_fini(&ins[0]);
    iodfg_insights_fini(&ins[1]);
    return cli_metrics_finish(&m, &o->a, &b, rc, o->format == CLI_FMT_JSON);
}

static const char usage_text[] =
    "usage: iodfg insights [OPTIONS] LOG.h5|TRACES...\n"
    "Automatic I/O findings over the selected events, ranked by severity, each with\n"
    "its numbers, its evidence (activities, cases, files, time window) and a one-line\n"
    "recommendation (doc/insights.md describes every rule). With --green/--red: the\n"
    "findings of each group and what differs between them.\n"
    "\n"
    "      --only LIST         judge only these rules (comma-separated names)\n"
    "      --skip LIST         do not judge these rules\n"
    "      --threshold N=V     set threshold N to V (repeatable; small-size=8192)\n"
    "      --thresholds FILE   'name = value' lines (default: insights.conf in\n"
    "                          $XDG_CONFIG_HOME/iodfg or ~/.config/iodfg if there)\n"
    "      --list              list the rules and the thresholds in force, then exit\n"
    "      --format F          table (default), tsv or json\n";

// Turn the rules of a comma-separated list on (value 1) or off (0).
static int set_rules(uint8_t *on, const char *list, int value, int only)
{
    if (only) {
        memset(on, 0, IODFG_INS__N);
    }
    char buf[1024];
    snprintf(buf, sizeof(buf), "%s", list);
    for (char *save = NULL, *w = strtok_r(buf, ",", &save); w; w = strtok_r(NULL, ",", &save)) {
        enum iodfg_insight_rule r;
        if (iodfg_insight_rule_parse(w, &r)) {
            cli_errorf("unknown insight rule '%s' (iodfg insights --list names them)", w);
            return CLI_USAGE;
        }
        on[r] = (uint8_t)value;
    }
    return CLI_OK;
}

// The thresholds: defaults, then the file, then each --threshold in order.
int cli_insight_thresholds_file(const char *file, struct iodfg_insight_thresholds *t)
{
    char def[4096];
    const char *path = file;
    const char *xdg = getenv("XDG_CONFIG_HOME"), *home = getenv("HOME");
    struct stat st;
    if (!path && ((xdg && *xdg) || (home && *home))) {
        snprintf(def, sizeof(def), "%s%s/iodfg/insights.conf", xdg && *xdg ? xdg : home,
                 xdg && *xdg ? "" : "/.config");
        path = stat(def, &st) == 0 ? def : NULL;
    }
    struct iodfg_error err;
    iodfg_error_clear(&err);
    if (path) {
        size_t len;
        char *text = iodfg_textfile_read(path, "thresholds file", (size_t)1 << 20, &len, &err);
        if (!text) {
            cli_error(&err);
            return CLI_FAIL;
        }
        int rc = iodfg_insight_thresholds_parse(t, text, len, path, &err);
        if (rc) {
            cli_error_caret(&err, text, len);
        }
        free(text);
        if (rc) {
            return CLI_FAIL;
        }
    }
    return CLI_OK;
}

static int load_thresholds(struct ins_opts *o)
{
    if (cli_insight_thresholds_file(o->thresholds_file, &o->t)) {
        return CLI_FAIL;
    }
    struct iodfg_error err;
    iodfg_error_clear(&err);
    for (size_t i = 0; i < o->nassign; i++) {
        if (iodfg_insight_threshold_set(&o->t, o->assign[i], &err)) {
            iodfg_error_at(&err, "--threshold", 1, err.col);
            cli_error_caret(&err, o->assign[i], strlen(o->assign[i]));
            return CLI_USAGE;
        }
    }
    return CLI_OK;
}

static int list_out(const struct ins_opts *o)
{
    printf("rules:\n");
    for (int r = 0; r < IODFG_INS__N; r++) {
        printf("  %-15s %s%s\n", iodfg_insight_rule_name((enum iodfg_insight_rule)r),
               iodfg_insight_rule_title((enum iodfg_insight_rule)r), o->on[r] ? "" : " (off)");
    }
    struct iodfg_buf b;
    iodfg_buf_init(&b);
    int rc = iodfg_insight_thresholds_format(&o->t, &b);
    printf("thresholds:\n");
    for (const char *p = b.data; rc == 0 && p && *p;) {
        const char *nl = strchr(p, '\n');
        printf("  %.*s\n", (int)(nl - p), p);
        p = nl + 1;
    }
    printf("rule presets (--rules NAME):\n");
    const char *summary;
    for (size_t i = 0; iodfg_rules_preset_name(i, &summary); i++) {
        printf("  %-15s %s\n", iodfg_rules_preset_name(i, NULL), summary);
    }
    iodfg_buf_fini(&b);
    if (rc) {
        cli_errorf("out of memory");
    }
    return rc ? CLI_FAIL : CLI_OK;
}

enum { OPT_FORMAT = 512, OPT_ONLY, OPT_SKIP, OPT_THRESHOLD, OPT_THRESHOLDS, OPT_LIST };

static int own_option(struct ins_opts *o, int c, const char *arg, int *list)
{
    switch (c) {
    case OPT_FORMAT:
        return cli_format_parse(arg, &o->format);
    case OPT_ONLY:
    case OPT_SKIP:
        return set_rules(o->on, arg, c == OPT_ONLY, c == OPT_ONLY);
    case OPT_THRESHOLD:
        if (o->nassign == MAX_ASSIGN) {
            cli_errorf("at most %d --threshold options", MAX_ASSIGN);
            return CLI_USAGE;
        }
        o->assign[o->nassign++] = arg;
        return CLI_OK;
    case OPT_THRESHOLDS:
        o->thresholds_file = arg;
        return CLI_OK;
    case OPT_LIST:
        *list = 1;
        return CLI_OK;
    default:
        return cli_analyze_other_option(&o->a, c, arg, usage_text);
    }
}

int cli_insights(int argc, char **argv)
{
    static const struct option own[] = {
        {"format", required_argument, NULL, OPT_FORMAT},
        {"only", required_argument, NULL, OPT_ONLY},
        {"skip", required_argument, NULL, OPT_SKIP},
        {"threshold", required_argument, NULL, OPT_THRESHOLD},
        {"thresholds", required_argument, NULL, OPT_THRESHOLDS},
        {"list", no_argument, NULL, OPT_LIST},
        {"help", no_argument, NULL, 'h'},
        {NULL, 0, NULL, 0},
    };
    struct option longopts[64];
    struct ins_opts o = {.format = CLI_FMT_TABLE};
    memset(o.on, 1, sizeof(o.on));
    iodfg_insight_thresholds_default(&o.t);
    if (cli_analyze_opts_init(&o.a) || cli_analyze_longopts(longopts, 64, own)) {
        cli_analyze_opts_fini(&o.a);
        return CLI_FAIL;
    }
    o.a.focus = IODFG_FOCUS_APP; // the application's findings first
    int rc = CLI_OK, c, list = 0;
    optind = 1;
    while (rc == CLI_OK &&
           (c = getopt_long(argc, argv, CLI_ANALYZE_SHORTOPTS "h", longopts, NULL)) != -1) {
        rc = own_option(&o, c, optarg, &list);
    }
    if (rc == CLI_OK) {
        rc = load_thresholds(&o);
    }
    if (rc == CLI_OK && list) {
        rc = list_out(&o);
        cli_analyze_opts_fini(&o.a);
        return rc;
    }
    if (rc == CLI_OK) {
        rc = cli_analyze_ready(&o.a, argv, optind, argc, "insights", usage_text);
    }
    if (rc == CLI_OK) {
        rc = run(&o, argv + optind, (size_t)(argc - optind));
    }
    cli_analyze_opts_fini(&o.a);
    return rc < 0 ? CLI_OK : rc; // -1: --help
}
