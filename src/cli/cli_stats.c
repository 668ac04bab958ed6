/* SPDX-License-Identifier: MIT */
/* `iodfg stats`: ranked activity and transition tables, aligned for people (human units,
 * escaped names, G/R markers) or as TSV/JSON with exact values for tools. */
#include "config.h"

#include <getopt.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "iodfg/analysis.h"
#include "iodfg/buf.h"
#include "iodfg/dfg.h"
#include "iodfg/diff.h"
#include "iodfg/eventlog.h"
#include "iodfg/export.h"
#include "iodfg/format.h"
#include "iodfg/glyph.h"
#include "iodfg/sanitize.h"
#include "iodfg/stats.h"

#include "cli.h"

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
enum stats_format { FMT_TABLE, FMT_TSV, FMT_JSON };

struct stats_opts {
    struct cli_analyze_opts a;
    enum stats_format format;
    const char *sort; /* NULL = default */
    int act_col, edge_col, reverse, transitions;
    size_t top;
};

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

static int parse_sort(struct stats_opts *s, const char *arg)
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

static int stats_option(struct stats_opts *s, int c, const char *arg)
{
    switch (c) {
    case OPT_FORMAT:
        if (!strcmp(arg, "table") || !strcmp(arg, "tsv") || !strcmp(arg, "json")) {
            s->format = arg[0] == 't' ? (arg[1] == 'a' ? FMT_TABLE : FMT_TSV) : FMT_JSON;
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

static int parse(struct stats_opts *s, int argc, char **argv)
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
    int rc = cli_analyze_getopt(argc, argv, own, stats_option_cb, s, usage, "stats");
    if (rc) {
        return rc;
    }
    return cli_need_inputs(optind, argc, "stats needs an event log or trace files",
                           stats_usage_head);
}

/* ---- aligned tables ------------------------------------------------------------ */

struct table {
    size_t ncols, n, cap; /* n cells so far, row-major; row 0 is the header */
    char **cells;
    const char *left; /* per column: 'l' left-aligned, else right-aligned */
    int failed;
};

static void cell(struct table *t, const char *s)
{
    if (t->n == t->cap) {
        size_t cap = t->cap ? t->cap * 2 : 64;
        char **c = realloc(t->cells, cap * sizeof(*c));
        if (!c) {
            t->failed = 1;
            return;
        }
        t->cells = c;
        t->cap = cap;
    }
    if (!(t->cells[t->n] = strdup(s))) {
        t->failed = 1;
        return;
    }
    t->n++;
}

// A name, escaped for the terminal.
static void name_cell(struct table *t, const char *s, size_t len)
{
    struct iodfg_buf b;
    iodfg_buf_init(&b);
    cli_cell_text(&b, s, len, CLI_CELL_MAX, 0);
    if (b.failed) {
        t->failed = 1;
    } else {
        cell(t, b.data ? b.data : "");
    }
    iodfg_buf_fini(&b);
}

/* A node's name as a table cell: ● and ■ in the chosen forms, activity names sanitised. */
static void node_cell(struct table *t, const struct cli_analysis *ca, uint32_t node)
{
    if (node == IODFG_NODE_START || node == IODFG_NODE_END) {
        cell(t, iodfg_glyph(node == IODFG_NODE_START ? IODFG_GL_START : IODFG_GL_END));
        return;
    }
    size_t len;
    const char *name = iodfg_export_node_name(ca->map, node, &len);
    name_cell(t, name, len);
}

static void table_fini(struct table *t)
{
    for (size_t i = 0; i < t->n; i++) {
        free(t->cells[i]);
    }
    free(t->cells);
}

static void table_print(const struct table *t, struct iodfg_buf *b)
{
    size_t *w = calloc(t->ncols, sizeof(*w));
    if (!w) {
        iodfg_buf_addf(b, "(out of memory)\n");
        return;
    }
    for (size_t i = 0; i < t->n; i++) {
        size_t cw = cli_text_width(t->cells[i], strlen(t->cells[i]));
        w[i % t->ncols] = cw > w[i % t->ncols] ? cw : w[i % t->ncols];
    }
    for (size_t i = 0; i < t->n; i++) {
        size_t c = i % t->ncols;
        size_t pad = w[c] - cli_text_width(t->cells[i], strlen(t->cells[i]));
        int last = c + 1 == t->ncols;
        if (t->left[c] != 'l') {
            iodfg_buf_addf(b, "%*s", (int)pad, "");
        }
        iodfg_buf_addf(b, "%s", t->cells[i]);
        if (t->left[c] == 'l' && !last) {
            iodfg_buf_addf(b, "%*s", (int)pad, "");
        }
        iodfg_buf_addf(b, "%s", last ? "\n" : "  ");
    }
    free(w);
}

/* ---- cell formatting ------------------------------------------------------------- */

static void count_cell(struct table *t, uint64_t n)
{
    char s[IODFG_FORMAT_MIN];
    cell(t, iodfg_format_count(s, sizeof(s), n, 0));
}

static void dur_cell(struct table *t, int64_t ns)
{
    char s[IODFG_FORMAT_MIN];
    cell(t, iodfg_format_duration(s, sizeof(s), ns, 0));
}

static void rate_cell(struct table *t, double bps, int known)
{
    char s[IODFG_FORMAT_MIN];
    cell(t, iodfg_format_rate(s, sizeof(s), known ? bps : NAN, 0));
}

// A signed difference R - G: "+12", "-3", "0"; durations in human units.
static void delta_cell(struct table *t, double v, int is_dur)
{
    char s[IODFG_FORMAT_MIN + 1], d[IODFG_FORMAT_MIN];
    if (!isfinite(v)) {
        cell(t, "-");
    } else if (!is_dur) {
        snprintf(s, sizeof(s), v == 0 ? "%.0f" : "%+.0f", v);
        cell(t, s);
    } else {
        iodfg_format_duration(d, sizeof(d), (int64_t)llround(fabs(v)), 0);
        snprintf(s, sizeof(s), "%s%s", v > 0 ? "+" : v < 0 ? "-" : "", d);
        cell(t, s);
    }
}

static const char act_align[] = "lrrrrrrrrrrrrr";
#define NACT_HEADS 14
#define NACT_GROUP_HEADS 6
#define NEDGE_GROUP_HEADS 3

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

static void activity_row(struct table *t, const struct cli_analysis *ca, uint32_t a,
                         const struct cli_act_fs *fs)
{
    const struct iodfg_activity_stats *s = &iodfg_analysis_stats(ca->an)->act[a];
    char x[IODFG_FORMAT_MIN];
    if (ca->groups) {
        cell(t, iodfg_diff_side_mark(ca->diff->nodes[a].side));
    }
    node_cell(t, ca, a);
    count_cell(t, s->count);
    count_cell(t, s->cases);
    dur_cell(t, s->dur_n ? s->dur_sum_ns : IODFG_UNKNOWN);
    cell(t, iodfg_format_percent(x, sizeof(x), s->rd, 0));
    cell(t, iodfg_format_bytes(x, sizeof(x), s->bytes, 0));
    rate_cell(t, s->dr_mean, s->dr_n > 0);
    count_cell(t, s->mc);
    rate_cell(t, s->DR, s->dr_n > 0);
    dur_cell(t, s->dur_min_ns);
    dur_cell(t, s->dur_median_ns);
    dur_cell(t, s->dur_p95_ns);
    dur_cell(t, s->dur_max_ns);
    cell(t, a < ca->map->nactivities && fs[a].scope[0] ? fs[a].scope : iodfg_glyph(IODFG_GL_NONE));
    if (ca->groups) {
        const struct iodfg_diff_node *dn = &ca->diff->nodes[a];
        count_cell(t, (uint64_t)dn->g[IODFG_DM_COUNT]);
        count_cell(t, (uint64_t)dn->r[IODFG_DM_COUNT]);
        delta_cell(t, dn->abs[IODFG_DM_COUNT], 0);
        dur_cell(t, (int64_t)dn->g[IODFG_DM_DUR_SUM]);
        dur_cell(t, (int64_t)dn->r[IODFG_DM_DUR_SUM]);
        delta_cell(t, dn->abs[IODFG_DM_DUR_SUM], 1);
    }
}

static void heads(struct table *t, const struct cli_analysis *ca, const char *const *base,
                  size_t nbase, const char *const *group, size_t ngroup, const char *align,
                  char *align_out)
{
    size_t k = 0;
    if (ca->groups) {
        cell(t, "G/R");
        align_out[k++] = 'l';
    }
    for (size_t i = 0; i < nbase; i++) {
        cell(t, base[i]);
        align_out[k++] = align[i];
    }
    for (size_t i = 0; ca->groups && i < ngroup; i++) {
        cell(t, group[i]);
        align_out[k++] = 'r';
    }
    t->ncols = k;
    t->left = align_out;
}

static const char edge_align[] = "llrrrr";
static const char *const edge_heads[] = {"from", "to", "count", "cases", "mean gap", "median gap"};

static void edge_row(struct table *t, const struct cli_analysis *ca, uint32_t slot)
{
    const struct iodfg_dfg_edge *e = iodfg_dfg_edge_at(iodfg_analysis_dfg(ca->an), slot);
    const struct iodfg_diff_edge *de =
        ca->groups ? iodfg_diff_find_edge(ca->diff, e->from, e->to) : NULL;
    if (ca->groups) {
        cell(t, iodfg_diff_side_mark(de ? de->side : IODFG_DIFF_NEITHER));
    }
    node_cell(t, ca, e->from);
    node_cell(t, ca, e->to);
    count_cell(t, e->count);
    count_cell(t, e->cases);
    dur_cell(t, e->gap_n ? (int64_t)llround(e->gap_mean_ns) : IODFG_UNKNOWN);
    dur_cell(t, e->gap_median_ns);
    if (ca->groups) {
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

static int print_tables(const struct stats_opts *s, const struct cli_analysis *ca,
                        const uint32_t *act, size_t nact, size_t total_act, const uint32_t *edges,
                        size_t nedges, size_t total_edges, struct iodfg_buf *b)
{
    if (ca->groups) {
        group_line(b, "Groups: G", s->a.green, ca->g_cases);
        group_line(b, ", R", s->a.red, ca->r_cases);
        iodfg_buf_addf(b,
                       "\nG+ only in G, R+ only in R, = in both, != in both and %gx apart per "
                       "case; %s = R - G\n\n",
                       IODFG_DIFF_CHANGED_RATIO, iodfg_glyph(IODFG_GL_DELTA));
    }
    iodfg_buf_addf(b, "Activities: %zu of %zu, by %s%s\n", nact, total_act,
                   iodfg_export_act_col_name((enum iodfg_act_col)s->act_col),
                   s->reverse ? " (reversed)" : "");
    char align[32];
    struct table t = {0};
    const char *ah[NACT_HEADS], *agh[NACT_GROUP_HEADS];
    char hbuf[5][24];
    act_heads(ah, agh, hbuf);
    heads(&t, ca, ah, NACT_HEADS, agh, NACT_GROUP_HEADS, act_align, align);
    struct cli_act_fs *fs = cli_activity_fs(ca);
    for (size_t i = 0; fs && i < nact; i++) {
        activity_row(&t, ca, act[i], fs);
    }
    int failed = t.failed || !fs;
    free(fs);
    if (!failed) {
        table_print(&t, b);
    }
    table_fini(&t);
    if (!failed && edges) {
        iodfg_buf_addf(b, "\nTransitions: %zu of %zu, by %s%s\n", nedges, total_edges,
                       iodfg_export_edge_col_name((enum iodfg_edge_col)s->edge_col),
                       s->reverse ? " (reversed)" : "");
        struct table e = {0};
        char dn[24];
        const char *egh[NEDGE_GROUP_HEADS] = {
            "G n", "R n", head(dn, sizeof(dn), IODFG_GL_DELTA, IODFG_GL_COUNT, "n")};
        heads(&e, ca, edge_heads, sizeof(edge_heads) / sizeof(edge_heads[0]), egh,
              NEDGE_GROUP_HEADS, edge_align, align);
        for (size_t i = 0; i < nedges; i++) {
            edge_row(&e, ca, edges[i]);
        }
        failed = e.failed;
        if (!failed) {
            table_print(&e, b);
        }
        table_fini(&e);
    }
    if (failed || b->failed) {
        cli_errorf("out of memory");
        return CLI_FAIL;
    }
    return CLI_OK;
}

/* ---- the command --------------------------------------------------------------- */

static int produce(struct stats_opts *s, const struct cli_analysis *ca, struct iodfg_buf *b)
{
    if (!s->sort || s->act_col < 0) {
        s->act_col = IODFG_AC_RD;
    }
    if (!s->sort || s->edge_col < 0) {
        s->edge_col = IODFG_EC_COUNT;
    }
    int act_desc = s->act_col != IODFG_AC_NAME, edge_desc = s->edge_col > IODFG_EC_TO;
    uint32_t *act = NULL, *edges = NULL, *all = NULL;
    long nact = cli_analysis_activities(ca, s->act_col, act_desc != s->reverse, s->top, &act);
    long total_act = cli_analysis_activities(ca, s->act_col, 1, 0, &all);
    free(all);
    all = NULL;
    long nedges = 0, total_edges = 0;
    if (s->transitions) {
        nedges = cli_analysis_edges(ca, s->edge_col, edge_desc != s->reverse, s->top, &edges);
        total_edges = cli_analysis_edges(ca, s->edge_col, 1, 0, &all);
        free(all);
    }
    int rc = CLI_FAIL;
    if (nact < 0 || total_act < 0 || nedges < 0 || total_edges < 0) {
        cli_errorf("out of memory");
    } else if (s->format == FMT_TSV) {
        rc = cli_analysis_tsv(ca, b, act, (size_t)nact, s->transitions ? edges : NULL,
                              (size_t)nedges);
    } else if (s->format == FMT_JSON) {
        rc = cli_analysis_json(ca, b, act, (size_t)nact, edges, (size_t)nedges);
    } else {
        rc = print_tables(s, ca, act, (size_t)nact, (size_t)total_act,
                          s->transitions ? edges : NULL, (size_t)nedges, (size_t)total_edges, b);
    }
    free(act);
    free(edges);
    return rc;
}

int cli_stats(int argc, char **argv)
{
    struct stats_opts s;
    memset(&s, 0, sizeof(s));
    s.format = FMT_TABLE;
    s.act_col = s.edge_col = -1;
    if (cli_analyze_opts_init(&s.a)) {
        return CLI_FAIL;
    }
    int rc = parse(&s, argc, argv);
    if (rc != 0) {
        cli_analyze_opts_fini(&s.a);
        return rc < 0 ? CLI_OK : rc;
    }
    s.a.edge_gaps = s.transitions;
    rc = cli_output_check(&s.a, (const char *const *)(argv + optind), (size_t)(argc - optind));
    struct cli_analysis ca;
    memset(&ca, 0, sizeof(ca));
    if (rc == CLI_OK) {
        rc = cli_analysis_run(&ca, &s.a, argv + optind, (size_t)(argc - optind), "stats");
    }
    struct iodfg_buf b;
    iodfg_buf_init(&b);
    if (rc == CLI_OK) {
        rc = produce(&s, &ca, &b);
    }
    if (rc == CLI_OK) {
        rc = cli_output_write(&s.a, &b);
    }
    iodfg_buf_fini(&b);
    cli_analysis_fini(&ca);
    cli_analyze_opts_fini(&s.a);
    return rc;
}
