/* SPDX-License-Identifier: MIT */
/* Tables for people of an analysis, an event log and its handles (report_table.h). */
#include "config.h"

#include "iodfg/report_table.h"

#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "iodfg/buf.h"
#include "iodfg/dfg.h"
#include "iodfg/diff.h"
#include "iodfg/error.h"
#include "iodfg/export.h"
#include "iodfg/filter.h"
#include "iodfg/format.h"
#include "iodfg/glyph.h"
#include "iodfg/mapping.h"
#include "iodfg/rules.h"
#include "iodfg/sanitize.h"
#include "iodfg/session.h"
#include "iodfg/stats.h"
#include "iodfg/strpool.h"
#include "iodfg/table.h"

#include "report_priv.h"

/* ---- an analysis ---- */

/* A node's name as a cell: ● and ■ in the chosen forms, activity names sanitised. */
static void node_cell(struct iodfg_table *t, const struct iodfg_mapping *map, uint32_t node)
{
    if (node == IODFG_NODE_START || node == IODFG_NODE_END) {
        iodfg_table_add(t, iodfg_glyph(node == IODFG_NODE_START ? IODFG_GL_START : IODFG_GL_END));
        return;
    }
    size_t len;
    const char *name = iodfg_export_node_name(map, node, &len);
    iodfg_table_add_name(t, name, len);
}

static void count_cell(struct iodfg_table *t, uint64_t n)
{
    char s[IODFG_FORMAT_MIN];
    iodfg_table_add(t, iodfg_format_count(s, sizeof(s), n, 0));
}

static void dur_cell(struct iodfg_table *t, int64_t ns)
{
    char s[IODFG_FORMAT_MIN];
    iodfg_table_add(t, iodfg_format_duration(s, sizeof(s), ns, 0));
}

static void rate_cell(struct iodfg_table *t, double bps, int known)
{
    char s[IODFG_FORMAT_MIN];
    iodfg_table_add(t, iodfg_format_rate(s, sizeof(s), known ? bps : NAN, 0));
}

// A signed difference R - G: "+12", "-3", "0"; durations in human units.
static void delta_cell(struct iodfg_table *t, double v, int is_dur)
{
    char s[IODFG_FORMAT_MIN + 1], d[IODFG_FORMAT_MIN];
    if (!isfinite(v)) {
        iodfg_table_add(t, "-");
    } else if (!is_dur) {
        snprintf(s, sizeof(s), v == 0 ? "%.0f" : "%+.0f", v);
        iodfg_table_add(t, s);
    } else {
        iodfg_format_duration(d, sizeof(d), (int64_t)llround(fabs(v)), 0);
        snprintf(s, sizeof(s), "%s%s", v > 0 ? "+" : v < 0 ? "-" : "", d);
        iodfg_table_add(t, s);
    }
}

#define NACT_HEADS 14
#define NACT_GROUP_HEADS 6
#define NEDGE_GROUP_HEADS 3
#define MAX_COLS (1 + NACT_HEADS + NACT_GROUP_HEADS)

/* A head made of up to two symbols and a word ("Σdur", "ΔΣdur"), in the chosen forms. */
static const char *head(char *buf, size_t size, enum iodfg_glyph a, enum iodfg_glyph b,
                        const char *word)
{
    snprintf(buf, size, "%s%s%s", a == IODFG_GL_COUNT ? "" : iodfg_glyph(a),
             b == IODFG_GL_COUNT ? "" : iodfg_glyph(b), word);
    return buf;
}

/* The heads of the activity table and of its group columns. */
static void act_heads(const char **base, const char **group, char (*buf)[24])
{
    static const char *const plain[NACT_HEADS] = {"activity", "count", "cases", NULL,   "rd",
                                                  "bytes",    NULL,    "mc",    "DR",   "min",
                                                  "p50",      "p95",   "max",   "scope"};
    for (int i = 0; i < NACT_HEADS; i++) {
        base[i] = plain[i];
    }
    const enum iodfg_glyph none = IODFG_GL_COUNT;
    base[3] = head(buf[0], 24, IODFG_GL_SUM, none, "dur");
    base[6] = iodfg_glyph(IODFG_GL_MEAN_DR);
    group[0] = "G n";
    group[1] = "R n";
    group[2] = head(buf[1], 24, IODFG_GL_DELTA, none, "n");
    snprintf(buf[2], 24, "G %sdur", iodfg_glyph(IODFG_GL_SUM));
    snprintf(buf[3], 24, "R %sdur", iodfg_glyph(IODFG_GL_SUM));
    group[3] = buf[2];
    group[4] = buf[3];
    snprintf(buf[4], 24, "%s%s%sdur", iodfg_glyph(IODFG_GL_DELTA), iodfg_glyph_utf8() ? "" : " ",
             iodfg_glyph(IODFG_GL_SUM)); // "ΔΣdur", "d sum dur"
    group[5] = buf[4];
}

static void activity_row(struct iodfg_table *t, const struct iodfg_report_analysis *a, uint32_t id,
                         const struct report_fs *fs)
{
    const struct iodfg_mapping *map = iodfg_session_mapping(a->ses);
    const struct iodfg_activity_stats *s = &iodfg_session_stats(a->ses)->act[id];
    const struct iodfg_diff_node *dn = a->groups ? &iodfg_session_diff(a->ses)->nodes[id] : NULL;
    char x[IODFG_FORMAT_MIN];
    if (dn) {
        iodfg_table_add(t, iodfg_diff_side_mark(dn->side));
    }
    node_cell(t, map, id);
    count_cell(t, s->count);
    count_cell(t, s->cases);
    dur_cell(t, s->dur_n ? s->dur_sum_ns : IODFG_UNKNOWN);
    iodfg_table_add(t, iodfg_format_percent(x, sizeof(x), s->rd, 0));
    iodfg_table_add(t, iodfg_format_bytes(x, sizeof(x), s->bytes, 0));
    rate_cell(t, s->dr_mean, s->dr_n > 0);
    count_cell(t, s->mc);
    rate_cell(t, s->DR, s->dr_n > 0);
    dur_cell(t, s->dur_min_ns);
    dur_cell(t, s->dur_median_ns);
    dur_cell(t, s->dur_p95_ns);
    dur_cell(t, s->dur_max_ns);
    iodfg_table_add(t, id < map->nactivities && fs[id].scope[0] ? fs[id].scope
                                                                : iodfg_glyph(IODFG_GL_NONE));
    if (dn) {
        count_cell(t, (uint64_t)dn->g[IODFG_DM_COUNT]);
        count_cell(t, (uint64_t)dn->r[IODFG_DM_COUNT]);
        delta_cell(t, dn->abs[IODFG_DM_COUNT], 0);
        dur_cell(t, (int64_t)dn->g[IODFG_DM_DUR_SUM]);
        dur_cell(t, (int64_t)dn->r[IODFG_DM_DUR_SUM]);
        delta_cell(t, dn->abs[IODFG_DM_DUR_SUM], 1);
    }
}

/* The columns (G/R marker with groups, the base ones, the groups' ones) into col, and the heads
 * as the table's first row. */
static void heads(struct iodfg_table *t, struct iodfg_table_col *col, int groups,
                  const char *const *base, size_t nbase, const char *const *group, size_t ngroup,
                  const char *align)
{
    size_t k = 0;
    if (groups) {
        col[k++] = (struct iodfg_table_col){'l', 0, 0, ""};
    }
    for (size_t i = 0; i < nbase; i++, k++) {
        col[k] = (struct iodfg_table_col){align[i], 0, 0, k ? "  " : ""};
    }
    for (size_t i = 0; groups && i < ngroup; i++) {
        col[k++] = (struct iodfg_table_col){'r', 0, 0, "  "};
    }
    iodfg_table_init(t, col, k);
    if (groups) {
        iodfg_table_add(t, "G/R");
    }
    for (size_t i = 0; i < nbase; i++) {
        iodfg_table_add(t, base[i]);
    }
    for (size_t i = 0; groups && i < ngroup; i++) {
        iodfg_table_add(t, group[i]);
    }
}

static void edge_row(struct iodfg_table *t, const struct iodfg_report_analysis *a, uint32_t slot)
{
    const struct iodfg_dfg_edge *e = iodfg_dfg_edge_at(iodfg_session_dfg(a->ses), slot);
    const struct iodfg_diff_edge *de =
        a->groups ? iodfg_diff_find_edge(iodfg_session_diff(a->ses), e->from, e->to) : NULL;
    if (a->groups) {
        iodfg_table_add(t, iodfg_diff_side_mark(de ? de->side : IODFG_DIFF_NEITHER));
    }
    node_cell(t, iodfg_session_mapping(a->ses), e->from);
    node_cell(t, iodfg_session_mapping(a->ses), e->to);
    count_cell(t, e->count);
    count_cell(t, e->cases);
    dur_cell(t, e->gap_n ? (int64_t)llround(e->gap_mean_ns) : IODFG_UNKNOWN);
    dur_cell(t, e->gap_median_ns);
    if (a->groups) {
        count_cell(t, de ? de->g_count : 0);
        count_cell(t, de ? de->r_count : 0);
        delta_cell(t, de ? de->count_abs : NAN, 0);
    }
}

static void group_line(struct iodfg_buf *b, const char *tag, const struct iodfg_filter_stack *fs,
                       uint32_t ncases)
{
    iodfg_buf_addf(b, "%s = ", tag);
    struct iodfg_buf t;
    iodfg_buf_init(&t);
    if (fs) {
        iodfg_filter_stack_format(fs, " and ", &t);
    }
    iodfg_sanitize_term(b, fs ? (t.data ? t.data : "") : "all other cases",
                        fs ? t.len : strlen("all other cases"));
    iodfg_buf_fini(&t);
    iodfg_buf_addf(b, " (%u case%s)", ncases, ncases == 1 ? "" : "s");
}

static int activities_table(struct iodfg_buf *b, const struct iodfg_report_analysis *a)
{
    static const char align[] = "lrrrrrrrrrrrrr";
    iodfg_buf_addf(b, "Activities: %zu of %zu, by %s%s\n", a->nact, a->total_act,
                   iodfg_export_act_col_name((enum iodfg_act_col)a->act_col),
                   a->reversed ? " (reversed)" : "");
    struct iodfg_table t;
    struct iodfg_table_col col[MAX_COLS];
    const char *ah[NACT_HEADS], *agh[NACT_GROUP_HEADS];
    char hbuf[5][24];
    act_heads(ah, agh, hbuf);
    heads(&t, col, a->groups, ah, NACT_HEADS, agh, NACT_GROUP_HEADS, align);
    struct report_fs *fs = report_activity_fs(a->ses);
    for (size_t i = 0; fs && i < a->nact; i++) {
        activity_row(&t, a, a->act[i], fs);
    }
    int rc = fs ? iodfg_table_print(&t, b) : -1;
    free(fs);
    iodfg_table_fini(&t);
    return rc;
}

static int edges_table(struct iodfg_buf *b, const struct iodfg_report_analysis *a)
{
    static const char *const edge_heads[] = {"from",  "to",       "count",
                                             "cases", "mean gap", "median gap"};
    iodfg_buf_addf(b, "\nTransitions: %zu of %zu, by %s%s\n", a->nedges, a->total_edges,
                   iodfg_export_edge_col_name((enum iodfg_edge_col)a->edge_col),
                   a->reversed ? " (reversed)" : "");
    struct iodfg_table t;
    struct iodfg_table_col col[MAX_COLS];
    char dn[24];
    const char *egh[NEDGE_GROUP_HEADS] = {
        "G n", "R n", head(dn, sizeof(dn), IODFG_GL_DELTA, IODFG_GL_COUNT, "n")};
    heads(&t, col, a->groups, edge_heads, 6, egh, NEDGE_GROUP_HEADS, "llrrrr");
    for (size_t i = 0; i < a->nedges; i++) {
        edge_row(&t, a, a->edges[i]);
    }
    int rc = iodfg_table_print(&t, b);
    iodfg_table_fini(&t);
    return rc;
}

int iodfg_report_table_analysis(struct iodfg_buf *b, const struct iodfg_report_analysis *a,
                                struct iodfg_error *err)
{
    if (a->groups) {
        const struct iodfg_session_counts *k = iodfg_session_counts(a->ses);
        group_line(b, "Groups: G", a->green, k->g_cases);
        group_line(b, ", R", a->red, k->r_cases);
        iodfg_buf_addf(b, "\nG+ only in G, R+ only in R, = in both; %s = R - G\n\n",
                       iodfg_glyph(IODFG_GL_DELTA));
    }
    if (activities_table(b, a) || (a->edges && edges_table(b, a))) {
        return iodfg_error_set(err, IODFG_E_NOMEM, NULL);
    }
    return report_done(b, err);
}

/* ---- an event log ---- */

static void term(struct iodfg_buf *b, const char *s)
{
    iodfg_sanitize_term(b, s, strlen(s));
}

static void info_head(struct iodfg_buf *b, const struct iodfg_report_info *r)
{
    const struct iodfg_log_summary *s = r->s;
    char a[32], t1[80], t2[80];
    iodfg_buf_addf(b, "Event log   ");
    term(b, r->source);
    iodfg_buf_addf(b, "\nCases       %s\n",
                   iodfg_report_count(a, sizeof(a), iodfg_eventlog_case_count(r->log)));
    iodfg_buf_addf(b, "Events      %s", iodfg_report_count(a, sizeof(a), s->events));
    if (s->no_dur) {
        iodfg_buf_addf(b, " (%s without a duration)", iodfg_report_count(a, sizeof(a), s->no_dur));
    }
    iodfg_buf_addf(b, "\nCalls       %u distinct\nPaths       %u distinct\n", s->ncalls, s->npaths);
    for (int k = 0; k < IODFG_CLOCK__N; k++) {
        if (!s->have[k]) {
            continue;
        }
        if (k == IODFG_CLOCK_NONE) {
            iodfg_buf_addf(b, "Time span   (no timestamps in some cases)\n");
            continue;
        }
        iodfg_report_time(t1, sizeof(t1), (enum iodfg_clock)k, s->first[k]);
        iodfg_report_time(t2, sizeof(t2), (enum iodfg_clock)k, s->last[k]);
        iodfg_buf_addf(b, "Time span   %s -> %s (%.6f s, %s clock)\n", t1, t2,
                       (double)(s->last[k] - s->first[k]) / 1e9,
                       iodfg_clock_name((enum iodfg_clock)k));
    }
    uint32_t clocks[IODFG_CLOCK__N];
    char ct[200];
    if (iodfg_eventlog_clocks(r->log, NULL, clocks) > 1) {
        iodfg_report_clocks(clocks, ct, sizeof(ct));
        iodfg_buf_addf(b,
                       "Clocks      %s cases: times of different clocks are never compared "
                       "(concurrency and bandwidth over time are per clock; --align start "
                       "compares the cases as if they started together)\n",
                       ct);
    }
}

static void info_lines(struct iodfg_buf *b, const struct iodfg_report_info *r)
{
    const struct iodfg_log_summary *s = r->s;
    const struct iodfg_strpool *pool = iodfg_eventlog_pool(r->log);
    char a[32], sep[8];
    snprintf(sep, sizeof(sep), " %s", iodfg_glyph(IODFG_GL_SEP));
    iodfg_buf_addf(b, "Lines      ");
    for (int k = 0; k < IODFG_COUNT__N; k++) {
        iodfg_buf_addf(b, " %s %s%s", iodfg_count_name((enum iodfg_count)k),
                       iodfg_report_count(a, sizeof(a), s->counts[k]),
                       k + 1 < IODFG_COUNT__N ? sep : "\n");
    }
    iodfg_buf_addf(b, "Top calls  ");
    for (uint32_t i = 0; i < s->ncalls && i < r->top; i++) {
        iodfg_buf_addf(b, " ");
        term(b, iodfg_strpool_get(pool, s->calls[i].call));
        iodfg_buf_addf(b, " %s (%.1f%%)%s", iodfg_report_count(a, sizeof(a), s->calls[i].n),
                       s->events ? 100.0 * (double)s->calls[i].n / (double)s->events : 0.0,
                       i + 1 < s->ncalls && i + 1 < r->top ? sep : "");
    }
}

static int info_cases(struct iodfg_buf *b, const struct iodfg_report_info *r)
{
    static const struct iodfg_table_col col[] = {{'l', 28, 0, "  "}, {'l', 10, 0, " "},
                                                 {'l', 14, 0, " "},  {'l', 10, 0, " "},
                                                 {'r', 10, 0, " "},  {'l', 0, 0, "  "}};
    static const char *const heads[] = {"case", "cid", "host", "rid", "events", "span"};
    const struct iodfg_strpool *pool = iodfg_eventlog_pool(r->log);
    const uint64_t *off = iodfg_eventlog_case_offsets(r->log);
    const struct iodfg_columns *c = iodfg_eventlog_columns(r->log);
    uint32_t ncases = iodfg_eventlog_case_count(r->log);
    struct iodfg_table t;
    iodfg_table_init(&t, col, 6);
    for (int i = 0; i < 6; i++) {
        iodfg_table_add(&t, heads[i]);
    }
    for (uint32_t cs = 0; cs < ncases && (r->max_cases == 0 || cs < r->max_cases); cs++) {
        const struct iodfg_case_info *ci = iodfg_eventlog_case(r->log, cs);
        const uint32_t ids[] = {ci->name, ci->cid, ci->host, ci->rid};
        for (int f = 0; f < 4; f++) {
            iodfg_table_add_name(&t, iodfg_strpool_get(pool, ids[f]),
                                 iodfg_strpool_len(pool, ids[f]));
        }
        char a[32], span[96];
        uint64_t n = off[cs + 1] - off[cs];
        double sec = n ? (double)(c->start_ns[off[cs + 1] - 1] - c->start_ns[off[cs]]) / 1e9 : 0;
        snprintf(span, sizeof(span), "%.6f s%s", sec,
                 ci->naming == IODFG_NAMING_FILENAME ? "  (named after the file)" : "");
        iodfg_table_add(&t, iodfg_report_count(a, sizeof(a), n));
        iodfg_table_add(&t, span);
    }
    int rc = iodfg_table_print(&t, b);
    iodfg_table_fini(&t);
    if (r->max_cases && ncases > r->max_cases) {
        iodfg_buf_addf(b, "  ... %u more (--cases 0 lists all)\n", ncases - r->max_cases);
    }
    return rc;
}

int iodfg_report_table_info(struct iodfg_buf *b, const struct iodfg_report_info *r,
                            struct iodfg_error *err)
{
    info_head(b, r);
    info_lines(b, r);
    iodfg_buf_addf(b, "\n\n");
    if (info_cases(b, r)) {
        return iodfg_error_set(err, IODFG_E_NOMEM, NULL);
    }
    iodfg_buf_addf(b, "\nFile systems (mount table: ");
    term(b, r->mounts ? r->mounts : "");
    iodfg_buf_addf(b, "): file paths");
    for (int k = IODFG_SCOPE_UNKNOWN; k < IODFG_SCOPE__N; k++) {
        iodfg_buf_addf(b, "%s %llu %s", k > IODFG_SCOPE_UNKNOWN ? "," : "",
                       (unsigned long long)r->s->by_scope[k],
                       iodfg_scope_name((enum iodfg_scope)k));
    }
    iodfg_buf_addf(b, "\n");
    if (r->first_problem && r->first_problem[0]) {
        iodfg_buf_addf(b, "\nFirst unparsable line: ");
        term(b, r->first_problem);
        iodfg_buf_addf(b, "\n");
    }
    return report_done(b, err);
}

/* ---- handles ---- */

static void handle_time(char *buf, size_t size, int64_t t, int64_t t0)
{
    if (t == IODFG_UNKNOWN) {
        snprintf(buf, size, "-");
    } else {
        snprintf(buf, size, "%.6f", (double)(t - t0) / 1e9);
    }
}

static void handle_row(struct iodfg_table *t, const struct iodfg_eventlog *log, int64_t t0,
                       uint32_t id, const struct iodfg_handle *h)
{
    const struct iodfg_strpool *pool = iodfg_eventlog_pool(log);
    const char *layer = iodfg_strpool_get(pool, h->layer), *s;
    char v[64];
    snprintf(v, sizeof(v), "%u", id);
    iodfg_table_add(t, v);
    s = report_case_name(log, h->case_id);
    iodfg_table_add_name(t, s, strlen(s));
    snprintf(v, sizeof(v), "%d", h->pid);
    iodfg_table_add(t, v);
    snprintf(v, sizeof(v), "%d", h->fd);
    iodfg_table_add(t, v);
    iodfg_table_add(t, iodfg_handle_origin_name((enum iodfg_handle_origin)h->origin));
    snprintf(v, sizeof(v), "%u", h->parent);
    iodfg_table_add(t, v);
    s = layer[0] ? layer : IODFG_LAYER_DEFAULT;
    iodfg_table_add_name(t, s, strlen(s));
    handle_time(v, sizeof(v), h->created_ns, t0);
    iodfg_table_add(t, v);
    handle_time(v, sizeof(v), h->destroyed_ns, t0);
    iodfg_table_add(t, v);
    const uint64_t n[3] = {h->ops, h->bytes_read, h->bytes_written};
    for (int k = 0; k < 3; k++) {
        snprintf(v, sizeof(v), "%" PRIu64, n[k]);
        iodfg_table_add(t, v);
    }
    s = iodfg_strpool_get(pool, h->path);
    iodfg_table_add_name(t, s, strlen(s));
}

int iodfg_report_table_handles(struct iodfg_buf *b, const struct iodfg_report_handles *r,
                               struct iodfg_error *err)
{
    static const struct iodfg_table_col col[] = {
        {'r', 5, 0, ""},    {'l', 14, 0, "  "}, {'r', 7, 0, "  "},  {'r', 4, 0, "  "},
        {'l', 10, 0, "  "}, {'r', 6, 0, "  "},  {'l', 8, 0, "  "},  {'r', 10, 0, "  "},
        {'r', 10, 0, "  "}, {'r', 6, 0, "  "},  {'r', 10, 0, "  "}, {'r', 10, 0, "  "},
        {'l', 0, 0, "  "}};
    static const char *const heads[] = {"id",     "case",    "pid",     "fd",        "origin",
                                        "parent", "layer",   "created", "destroyed", "ops",
                                        "read",   "written", "path"};
    const struct iodfg_handle *hs = iodfg_eventlog_handles(r->log);
    int64_t t0 = iodfg_handles_time_origin(r->log);
    struct iodfg_table t;
    iodfg_table_init(&t, col, 13);
    for (int i = 0; i < 13; i++) {
        iodfg_table_add(&t, heads[i]);
    }
    for (uint32_t i = 0; i < r->n; i++) {
        handle_row(&t, r->log, t0, r->ids[i], &hs[r->ids[i] - 1]);
    }
    int rc = iodfg_table_print(&t, b);
    iodfg_table_fini(&t);
    if (rc) {
        return iodfg_error_set(err, IODFG_E_NOMEM, NULL);
    }
    const struct iodfg_handle_summary *sum = r->sum;
    iodfg_buf_addf(b,
                   "\n%" PRIu64 " handles: %" PRIu64 " opened, %" PRIu64 " duplicated, %" PRIu64
                   " pre-created, %" PRIu64 " inherited; %" PRIu64 " never closed.\n",
                   sum->count, sum->by_origin[IODFG_HANDLE_OPEN], sum->by_origin[IODFG_HANDLE_DUP],
                   sum->by_origin[IODFG_HANDLE_PRECREATED], sum->by_origin[IODFG_HANDLE_INHERITED],
                   sum->never_closed);
    return report_done(b, err);
}
