/* SPDX-License-Identifier: MIT */
/* Activity and transition tables: column names, sorting, top-N and TSV output. */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "iodfg/buf.h"
#include "iodfg/dfg.h"
#include "iodfg/error.h"
#include "iodfg/eventlog.h"
#include "iodfg/export.h"
#include "iodfg/mapping.h"
#include "iodfg/sanitize.h"
#include "iodfg/stats.h"
#include "iodfg/strpool.h"

static void add_str(struct iodfg_buf *b, const char *s)
{
    iodfg_buf_add(b, s, strlen(s));
}

static const char *const act_cols[IODFG_AC__N] = {
    "activity", "count",  "cases",      "dur_sum_ns",    "rd",         "bytes",      "dr_mean_Bps",
    "mc",       "DR_Bps", "dur_min_ns", "dur_median_ns", "dur_p95_ns", "dur_max_ns",
};
static const char *const edge_cols[IODFG_EC__N] = {
    "from", "to", "count", "cases", "gap_mean_ns", "gap_median_ns",
};

const char *iodfg_export_act_col_name(enum iodfg_act_col c)
{
    return (unsigned)c < IODFG_AC__N ? act_cols[c] : "?";
}

const char *iodfg_export_edge_col_name(enum iodfg_edge_col c)
{
    return (unsigned)c < IODFG_EC__N ? edge_cols[c] : "?";
}

int iodfg_export_act_col_find(const char *name)
{
    for (int i = 0; i < IODFG_AC__N; i++) {
        if (!strcmp(name, act_cols[i])) {
            return i;
        }
    }
    return -1;
}

int iodfg_export_edge_col_find(const char *name)
{
    for (int i = 0; i < IODFG_EC__N; i++) {
        if (!strcmp(name, edge_cols[i])) {
            return i;
        }
    }
    return -1;
}

const char *iodfg_export_node_name(const struct iodfg_mapping *map, uint32_t node, size_t *len)
{
    const char *s;
    if (node == IODFG_NODE_START) {
        s = "\xe2\x97\x8f"; // ● U+25CF
    } else if (node == IODFG_NODE_END) {
        s = "\xe2\x96\xa0"; // ■ U+25A0
    } else {
        *len = iodfg_strpool_len(map->names, map->name_of[node]);
        return iodfg_strpool_get(map->names, map->name_of[node]);
    }
    *len = strlen(s);
    return s;
}

#define CMP(a, b) ((a) < (b) ? -1 : (a) > (b))

struct sort_ctx {
    const struct iodfg_stats *st;
    const struct iodfg_dfg *g;
    const struct iodfg_mapping *map;
    int col, desc;
};

static int cmp_names(const struct iodfg_mapping *map, uint32_t a, uint32_t b)
{
    // ● before every activity, ■ after
    int ra = a == IODFG_NODE_START ? 0 : a == IODFG_NODE_END ? 2 : 1;
    int rb = b == IODFG_NODE_START ? 0 : b == IODFG_NODE_END ? 2 : 1;
    if (ra != rb || ra != 1) {
        return CMP(ra, rb);
    }
    return strcmp(iodfg_strpool_get(map->names, map->name_of[a]),
                  iodfg_strpool_get(map->names, map->name_of[b]));
}

static int cmp_act(const void *pa, const void *pb, void *vctx)
{
    const struct sort_ctx *cx = vctx;
    uint32_t a = *(const uint32_t *)pa, b = *(const uint32_t *)pb;
    const struct iodfg_activity_stats *x = &cx->st->act[a], *y = &cx->st->act[b];
    int r = 0;
    switch ((enum iodfg_act_col)cx->col) {
    case IODFG_AC_NAME:
        r = cmp_names(cx->map, a, b);
        break;
    case IODFG_AC_COUNT:
        r = CMP(x->count, y->count);
        break;
    case IODFG_AC_CASES:
        r = CMP(x->cases, y->cases);
        break;
    case IODFG_AC_DUR_SUM:
        r = CMP(x->dur_sum_ns, y->dur_sum_ns);
        break;
    case IODFG_AC_RD:
        r = CMP(x->rd, y->rd);
        break;
    case IODFG_AC_BYTES:
        r = CMP(x->bytes, y->bytes);
        break;
    case IODFG_AC_DR_MEAN:
        r = CMP(x->dr_mean, y->dr_mean);
        break;
    case IODFG_AC_MC:
        r = CMP(x->mc, y->mc);
        break;
    case IODFG_AC_DR:
        r = CMP(x->DR, y->DR);
        break;
    case IODFG_AC_DUR_MIN:
        r = CMP(x->dur_min_ns, y->dur_min_ns);
        break;
    case IODFG_AC_DUR_MEDIAN:
        r = CMP(x->dur_median_ns, y->dur_median_ns);
        break;
    case IODFG_AC_DUR_P95:
        r = CMP(x->dur_p95_ns, y->dur_p95_ns);
        break;
    case IODFG_AC_DUR_MAX:
        r = CMP(x->dur_max_ns, y->dur_max_ns);
        break;
    case IODFG_AC__N:
        break;
    }
    if (cx->desc) {
        r = -r;
    }
    return r ? r : CMP(a, b);
}

size_t iodfg_export_sort_activities(const struct iodfg_stats *st, const struct iodfg_mapping *map,
                                    enum iodfg_act_col col, int desc, size_t top, uint32_t *out)
{
    size_t n = 0;
    for (uint32_t a = 0; a < st->nactivities; a++) {
        if (st->act[a].count) {
            out[n++] = a;
        }
    }
    struct sort_ctx cx = {st, NULL, map, (int)col, desc};
    qsort_r(out, n, sizeof(*out), cmp_act, &cx);
    return top && top < n ? top : n;
}

static int cmp_edge(const void *pa, const void *pb, void *vctx)
{
    const struct sort_ctx *cx = vctx;
    uint32_t a = *(const uint32_t *)pa, b = *(const uint32_t *)pb;
    const struct iodfg_dfg_edge *x = iodfg_dfg_edge_at(cx->g, a), *y = iodfg_dfg_edge_at(cx->g, b);
    int r = 0;
    switch ((enum iodfg_edge_col)cx->col) {
    case IODFG_EC_FROM:
        r = cmp_names(cx->map, x->from, y->from);
        r = r ? r : cmp_names(cx->map, x->to, y->to);
        break;
    case IODFG_EC_TO:
        r = cmp_names(cx->map, x->to, y->to);
        r = r ? r : cmp_names(cx->map, x->from, y->from);
        break;
    case IODFG_EC_COUNT:
        r = CMP(x->count, y->count);
        break;
    case IODFG_EC_CASES:
        r = CMP(x->cases, y->cases);
        break;
    case IODFG_EC_GAP_MEAN:
        r = CMP(x->gap_mean_ns, y->gap_mean_ns);
        break;
    case IODFG_EC_GAP_MEDIAN:
        r = CMP(x->gap_median_ns, y->gap_median_ns);
        break;
    case IODFG_EC__N:
        break;
    }
    if (cx->desc) {
        r = -r;
    }
    if (r) {
        return r;
    }
    // ties: by (from, to) ids, so the order does not depend on slot order
    r = CMP(x->from, y->from);
    return r ? r : CMP(x->to, y->to);
}

size_t iodfg_export_sort_edges(const struct iodfg_dfg *g, const struct iodfg_mapping *map,
                               enum iodfg_edge_col col, int desc, size_t top, uint32_t *out)
{
    size_t n = 0;
    for (size_t i = 0; i < iodfg_dfg_slots(g); i++) {
        if (iodfg_dfg_edge_at(g, i)->count) {
            out[n++] = (uint32_t)i;
        }
    }
    struct sort_ctx cx = {NULL, g, map, (int)col, desc};
    qsort_r(out, n, sizeof(*out), cmp_edge, &cx);
    return top && top < n ? top : n;
}

static void add_i64(struct iodfg_buf *b, int64_t v)
{
    if (v != IODFG_UNKNOWN) {
        iodfg_buf_addf(b, "%lld", (long long)v);
    }
}

static void add_name(struct iodfg_buf *b, const struct iodfg_mapping *map, uint32_t node)
{
    size_t len;
    const char *s = iodfg_export_node_name(map, node, &len);
    iodfg_sanitize_tsv(b, s, len);
}

int iodfg_export_tsv_activities(struct iodfg_buf *b, const struct iodfg_stats *st,
                                const struct iodfg_mapping *map, const uint32_t *order, size_t n,
                                struct iodfg_error *err)
{
    for (int c = 0; c < IODFG_AC__N; c++) {
        iodfg_buf_addf(b, "%s%s", c ? "\t" : "", act_cols[c]);
    }
    add_str(b, "\n");
    for (size_t i = 0; i < n; i++) {
        const struct iodfg_activity_stats *s = &st->act[order[i]];
        add_name(b, map, order[i]);
        iodfg_buf_addf(b, "\t%llu\t%llu\t%lld\t%.17g\t%lld\t%.17g\t%u\t%.17g\t",
                       (unsigned long long)s->count, (unsigned long long)s->cases,
                       (long long)s->dur_sum_ns, s->rd, (long long)s->bytes, s->dr_mean, s->mc,
                       s->DR);
        add_i64(b, s->dur_min_ns);
        add_str(b, "\t");
        add_i64(b, s->dur_median_ns);
        add_str(b, "\t");
        add_i64(b, s->dur_p95_ns);
        add_str(b, "\t");
        add_i64(b, s->dur_max_ns);
        add_str(b, "\n");
    }
    return b->failed ? iodfg_error_set(err, IODFG_E_NOMEM, "out of memory writing TSV") : 0;
}

int iodfg_export_tsv_edges(struct iodfg_buf *b, const struct iodfg_dfg *g,
                           const struct iodfg_mapping *map, const uint32_t *order, size_t n,
                           struct iodfg_error *err)
{
    for (int c = 0; c < IODFG_EC__N; c++) {
        iodfg_buf_addf(b, "%s%s", c ? "\t" : "", edge_cols[c]);
    }
    add_str(b, "\n");
    for (size_t i = 0; i < n; i++) {
        const struct iodfg_dfg_edge *e = iodfg_dfg_edge_at(g, order[i]);
        add_name(b, map, e->from);
        add_str(b, "\t");
        add_name(b, map, e->to);
        iodfg_buf_addf(b, "\t%llu\t%llu\t", (unsigned long long)e->count,
                       (unsigned long long)e->cases);
        if (e->gap_n) {
            iodfg_buf_addf(b, "%.17g", e->gap_mean_ns);
        }
        add_str(b, "\t");
        add_i64(b, e->gap_median_ns);
        add_str(b, "\n");
    }
    return b->failed ? iodfg_error_set(err, IODFG_E_NOMEM, "out of memory writing TSV") : 0;
}
