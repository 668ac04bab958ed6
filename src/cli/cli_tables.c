/* SPDX-License-Identifier: MIT */
/* Shared by `iodfg dfg` and `iodfg stats`: ordered rows of an analysis, G/R markers, and the
 * TSV/JSON exports with the per-group columns added to the engine's tables. */
#include "config.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "iodfg/analysis.h"
#include "iodfg/buf.h"
#include "iodfg/dfg.h"
#include "iodfg/diff.h"
#include "iodfg/error.h"
#include "iodfg/export.h"
#include "iodfg/sanitize.h"
#include "iodfg/session.h"
#include "iodfg/stats.h"
#include "iodfg/strpool.h"

#include "cli.h"

/* ---- ordered rows --------------------------------------------------------------- */

// Keep, in order, the first top (0: all) of ids[0..n) that the pruning mask on shows (NULL:
// all). Returns how many.
static long keep_shown(uint32_t *ids, size_t n, const uint8_t *on, size_t top)
{
    size_t k = 0;
    for (size_t i = 0; i < n && (top == 0 || k < top); i++) {
        if (!on || on[ids[i]]) {
            ids[k++] = ids[i];
        }
    }
    return (long)k;
}

long cli_analysis_activities(const struct cli_analysis *ca, int col, int desc, size_t top,
                             uint32_t **out)
{
    const struct iodfg_stats *st = iodfg_analysis_stats(ca->an);
    uint32_t *ids = malloc(((size_t)st->nactivities + 1) * sizeof(*ids));
    if (!ids) {
        return -1;
    }
    size_t n = iodfg_export_sort_activities(st, ca->map, (enum iodfg_act_col)col, desc, 0, ids);
    *out = ids;
    return keep_shown(ids, n, ca->node_on, top);
}

long cli_analysis_edges(const struct cli_analysis *ca, int col, int desc, size_t top,
                        uint32_t **out)
{
    const struct iodfg_dfg *g = iodfg_analysis_dfg(ca->an);
    uint32_t *slots = malloc((iodfg_dfg_slots(g) + 1) * sizeof(*slots));
    if (!slots) {
        return -1;
    }
    size_t n = iodfg_export_sort_edges(g, ca->map, (enum iodfg_edge_col)col, desc, 0, slots);
    *out = slots;
    return keep_shown(slots, n, ca->edge_on, top);
}

/* ---- per-group columns for TSV and JSON ------------------------------------------ */

// A value in TSV (empty when unknown) or JSON (null when unknown), with its key for JSON.
static void field(struct iodfg_buf *b, int json, const char *key, double v)
{
    if (json) {
        iodfg_buf_addf(b, ",\"%s\":", key);
    } else {
        iodfg_buf_add(b, "\t", 1);
    }
    if (json) {
        iodfg_json_num(b, v);
    } else if (isfinite(v)) {
        iodfg_buf_addf(b, "%.17g", v);
    }
}

static const char *const group_prefix[] = {"g_", "r_", "diff_", "rel_"};

static void node_header(struct iodfg_buf *b)
{
    iodfg_buf_addf(b, "\tside");
    for (int m = 0; m < IODFG_DM__N; m++) {
        for (int k = 0; k < 4; k++) {
            iodfg_buf_addf(b, "\t%s%s", group_prefix[k],
                           iodfg_diff_metric_name((enum iodfg_diff_metric)m));
        }
    }
}

static void node_fields(struct iodfg_buf *b, int json, const struct iodfg_diff_node *dn)
{
    if (json) {
        iodfg_buf_addf(b, ",\"side\":\"%s\",\"marker\":\"%s\"", iodfg_diff_side_name(dn->side),
                       iodfg_diff_side_mark(dn->side));
    } else {
        iodfg_buf_addf(b, "\t%s", iodfg_diff_side_name(dn->side));
    }
    for (int m = 0; m < IODFG_DM__N; m++) {
        const double v[4] = {dn->g[m], dn->r[m], dn->abs[m], dn->rel[m]};
        for (int k = 0; k < 4; k++) {
            char key[64];
            snprintf(key, sizeof(key), "%s%s", group_prefix[k],
                     iodfg_diff_metric_name((enum iodfg_diff_metric)m));
            field(b, json, key, v[k]);
        }
    }
}

static const char edge_header_text[] = "\tside\tg_count\tr_count\tg_cases\tr_cases\tg_gap_mean_ns"
                                       "\tr_gap_mean_ns\tdiff_count\trel_count";

static void edge_fields(struct iodfg_buf *b, int json, const struct iodfg_diff_edge *de)
{
    enum iodfg_diff_side side = de ? de->side : IODFG_DIFF_NEITHER;
    if (json) {
        iodfg_buf_addf(b, ",\"side\":\"%s\",\"marker\":\"%s\"", iodfg_diff_side_name(side),
                       iodfg_diff_side_mark(side));
    } else {
        iodfg_buf_addf(b, "\t%s", iodfg_diff_side_name(side));
    }
    field(b, json, "g_count", de ? (double)de->g_count : 0);
    field(b, json, "r_count", de ? (double)de->r_count : 0);
    field(b, json, "g_cases", de ? (double)de->g_cases : 0);
    field(b, json, "r_cases", de ? (double)de->r_cases : 0);
    field(b, json, "g_gap_mean_ns", de && de->g_count ? de->g_gap_mean_ns : NAN);
    field(b, json, "r_gap_mean_ns", de && de->r_count ? de->r_gap_mean_ns : NAN);
    field(b, json, "diff_count", de ? de->count_abs : NAN);
    field(b, json, "rel_count", de ? de->count_rel : NAN);
}

static const struct iodfg_diff_edge *edge_diff(const struct cli_analysis *ca, uint32_t slot)
{
    const struct iodfg_dfg_edge *e = iodfg_dfg_edge_at(iodfg_analysis_dfg(ca->an), slot);
    return iodfg_diff_find_edge(ca->diff, e->from, e->to);
}

static const char mixed[] = "mixed";

static void merge_fs(const char **slot, const char *v)
{
    if (!*slot) {
        *slot = v;
    } else if (*slot != mixed && strcmp(*slot, v) != 0) {
        *slot = mixed;
    }
}

struct cli_act_fs *cli_activity_fs(const struct cli_analysis *ca)
{
    uint32_t n = ca->map->nactivities;
    struct cli_act_fs *out = calloc((size_t)n + 1, sizeof(*out));
    if (!out) {
        return NULL;
    }
    const struct iodfg_key *keys = iodfg_eventlog_keys(ca->log);
    const struct iodfg_strpool *pool = iodfg_eventlog_pool(ca->log);
    for (uint32_t k = 0; k < ca->map->nkeys; k++) {
        uint32_t a = ca->map->activity_of_key[k];
        if (a == IODFG_NO_ACTIVITY || a >= n || keys[k].kind != IODFG_PATH_FILE) {
            continue;
        }
        merge_fs(&out[a].scope, keys[k].scope ? iodfg_scope_name(keys[k].scope) : "");
        merge_fs(&out[a].fstype, iodfg_strpool_get(pool, keys[k].fstype));
        merge_fs(&out[a].fs, iodfg_strpool_get(pool, keys[k].fs));
    }
    for (uint32_t a = 0; a < n; a++) {
        out[a].scope = out[a].scope ? out[a].scope : "";
        out[a].fstype = out[a].fstype ? out[a].fstype : "";
        out[a].fs = out[a].fs ? out[a].fs : "";
    }
    return out;
}

// Copy the TSV table t into b, appending the group columns to the header and each row.
static void annotate(const struct cli_analysis *ca, struct iodfg_buf *b, const struct iodfg_buf *t,
                     const uint32_t *rows, int edges, const struct cli_act_fs *fs)
{
    const char *p = t->data ? t->data : "", *end = p + t->len;
    for (size_t line = 0; p < end; line++) {
        const char *nl = memchr(p, '\n', (size_t)(end - p));
        size_t len = nl ? (size_t)(nl - p) : (size_t)(end - p);
        iodfg_buf_add(b, p, len);
        if (ca->groups && line == 0) {
            edges ? (void)iodfg_buf_addf(b, "%s", edge_header_text) : node_header(b);
        } else if (ca->groups && edges) {
            edge_fields(b, 0, edge_diff(ca, rows[line - 1]));
        } else if (ca->groups) {
            node_fields(b, 0, &ca->diff->nodes[rows[line - 1]]);
        }
        if (fs && line == 0) {
            iodfg_buf_addf(b, "\tscope\tfstype\tfs");
        } else if (fs && rows[line - 1] < ca->map->nactivities) {
            const struct cli_act_fs *f = &fs[rows[line - 1]];
            const char *v[] = {f->scope, f->fstype, f->fs};
            for (int i = 0; i < 3; i++) {
                iodfg_buf_add(b, "\t", 1);
                iodfg_sanitize_tsv(b, v[i], strlen(v[i]));
            }
        } else if (fs) {
            iodfg_buf_addf(b, "\t\t\t");
        }
        iodfg_buf_add(b, "\n", 1);
        p += len + (nl != NULL);
    }
}

int cli_analysis_tsv(const struct cli_analysis *ca, struct iodfg_buf *b, const uint32_t *act,
                     size_t nact, const uint32_t *edges, size_t nedges)
{
    struct iodfg_error err;
    iodfg_error_clear(&err);
    struct iodfg_buf t;
    iodfg_buf_init(&t);
    struct cli_act_fs *fs = cli_activity_fs(ca);
    int rc =
        fs ? iodfg_export_tsv_activities(&t, iodfg_analysis_stats(ca->an), ca->map, act, nact, &err)
           : iodfg_error_set(&err, IODFG_E_NOMEM, NULL);
    if (rc == 0) {
        annotate(ca, b, &t, act, 0, fs);
    }
    free(fs);
    if (rc == 0 && edges) {
        iodfg_buf_clear(&t);
        rc = iodfg_export_tsv_edges(&t, iodfg_analysis_dfg(ca->an), ca->map, edges, nedges, &err);
        if (rc == 0) {
            iodfg_buf_add(b, "\n", 1);
            annotate(ca, b, &t, edges, 1, NULL);
        }
    }
    iodfg_buf_fini(&t);
    if (rc || b->failed) {
        err.code ? cli_error(&err) : cli_errorf("out of memory");
        return CLI_FAIL;
    }
    return CLI_OK;
}

static void json_node(const struct cli_analysis *ca, struct iodfg_buf *b, uint32_t node)
{
    size_t len;
    const char *s = iodfg_export_node_name(ca->map, node, &len);
    iodfg_json_str(b, s, len);
}

static void json_groups(const struct cli_analysis *ca, struct iodfg_buf *b, const uint32_t *act,
                        size_t nact, const uint32_t *edges, size_t nedges)
{
    iodfg_buf_addf(b, ",\"groups\":{\"g_cases\":%u,\"r_cases\":%u,\"activities\":[", ca->g_cases,
                   ca->r_cases);
    for (size_t i = 0; i < nact; i++) {
        iodfg_buf_addf(b, "%s{\"activity\":", i ? ",\n" : "\n");
        json_node(ca, b, act[i]);
        iodfg_buf_addf(b, ",\"id\":%u", act[i]);
        node_fields(b, 1, &ca->diff->nodes[act[i]]);
        iodfg_buf_add(b, "}", 1);
    }
    iodfg_buf_addf(b, "],\"transitions\":[");
    const struct iodfg_dfg *g = iodfg_analysis_dfg(ca->an);
    for (size_t i = 0; i < nedges; i++) {
        const struct iodfg_dfg_edge *e = iodfg_dfg_edge_at(g, edges[i]);
        iodfg_buf_addf(b, "%s{\"from\":", i ? ",\n" : "\n");
        json_node(ca, b, e->from);
        iodfg_buf_addf(b, ",\"to\":");
        json_node(ca, b, e->to);
        edge_fields(b, 1, edge_diff(ca, edges[i]));
        iodfg_buf_add(b, "}", 1);
    }
    iodfg_buf_addf(b, "]}");
}

int cli_analysis_json(const struct cli_analysis *ca, struct iodfg_buf *b, const uint32_t *act,
                      size_t nact, const uint32_t *edges, size_t nedges)
{
    struct iodfg_error err;
    iodfg_error_clear(&err);
    struct iodfg_buf t;
    iodfg_buf_init(&t);
    if (iodfg_export_json(&t, iodfg_analysis_dfg(ca->an), iodfg_analysis_stats(ca->an), ca->map,
                          act, nact, edges, nedges, ca->comment.data, &err)) {
        iodfg_buf_fini(&t);
        cli_error(&err);
        return CLI_FAIL;
    }
    int rc = CLI_OK;
    struct cli_act_fs *fs = cli_activity_fs(ca);
    if (!fs || t.len < 2 || memcmp(t.data + t.len - 2, "}\n", 2) != 0) {
        fs ? cli_errorf("internal error: unexpected end of the JSON export")
           : cli_errorf("out of memory");
        rc = CLI_FAIL;
    } else {
        // the engine's object ends with "}\n": add our members before it
        iodfg_buf_add(b, t.data, t.len - 2);
        iodfg_buf_addf(b, ",\"file_systems\":[");
        for (size_t i = 0; i < nact; i++) {
            const struct cli_act_fs *f = act[i] < ca->map->nactivities ? &fs[act[i]] : NULL;
            iodfg_buf_addf(b, "%s{\"activity\":", i ? ",\n" : "\n");
            json_node(ca, b, act[i]);
            iodfg_buf_addf(b, ",\"scope\":");
            iodfg_json_str(b, f ? f->scope : "", f ? strlen(f->scope) : 0);
            iodfg_buf_addf(b, ",\"fstype\":");
            iodfg_json_str(b, f ? f->fstype : "", f ? strlen(f->fstype) : 0);
            iodfg_buf_addf(b, ",\"fs\":");
            iodfg_json_str(b, f ? f->fs : "", f ? strlen(f->fs) : 0);
            iodfg_buf_add(b, "}", 1);
        }
        iodfg_buf_add(b, "]", 1);
        if (ca->groups) {
            json_groups(ca, b, act, nact, edges, nedges);
        }
        const struct iodfg_session_counts *k = iodfg_session_counts(ca->ses);
        iodfg_buf_addf(b, ",\"rules_match_limit\":{\"keys\":%u,\"line\":", k->rules_limited);
        iodfg_buf_addf(b, k->rules_limited ? "%lu}" : "null}", k->limit_line);
        iodfg_buf_add(b, "}\n", 2);
    }
    free(fs);
    iodfg_buf_fini(&t);
    if (rc == CLI_OK && b->failed) {
        cli_errorf("out of memory");
        rc = CLI_FAIL;
    }
    return rc;
}
