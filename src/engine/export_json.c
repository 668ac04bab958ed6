/* SPDX-License-Identifier: MIT */
/* JSON export of the activity and transition tables (exact values, base units). */
#include "config.h"

#include "iodfg/buf.h"
#include "iodfg/dfg.h"
#include "iodfg/error.h"
#include "iodfg/eventlog.h"
#include "iodfg/export.h"
#include "iodfg/json.h"
#include "iodfg/mapping.h"
#include "iodfg/stats.h"

static void node(struct iodfg_json *j, const struct iodfg_mapping *map, uint32_t id)
{
    size_t len;
    const char *s = iodfg_export_node_name(map, id, &len);
    iodfg_json_string(j, s, len);
}

static void activity(struct iodfg_json *j, const struct iodfg_mapping *map,
                     const struct iodfg_activity_stats *s, uint32_t a)
{
    iodfg_json_object(j);
    iodfg_json_key(j, "activity");
    node(j, map, a);
    iodfg_json_put_u64(j, "id", a);
    iodfg_json_put_u64(j, "count", s->count);
    iodfg_json_put_u64(j, "cases", s->cases);
    iodfg_json_put_known(j, "dur_sum_ns", s->dur_sum_ns);
    iodfg_json_put_double(j, "rd", s->rd);
    iodfg_json_put_known(j, "bytes", s->bytes);
    iodfg_json_put_double(j, "dr_mean_Bps", s->dr_mean);
    iodfg_json_put_u64(j, "dr_n", s->dr_n);
    iodfg_json_put_u64(j, "mc", s->mc);
    iodfg_json_put_known(j, "mc_time_ns", s->mc_time_ns);
    iodfg_json_put_double(j, "DR_Bps", s->DR);
    iodfg_json_put_known(j, "dur_min_ns", s->dur_min_ns);
    iodfg_json_put_known(j, "dur_median_ns", s->dur_median_ns);
    iodfg_json_put_known(j, "dur_p95_ns", s->dur_p95_ns);
    iodfg_json_put_known(j, "dur_max_ns", s->dur_max_ns);
    iodfg_json_end(j);
}

static void transition(struct iodfg_json *j, const struct iodfg_mapping *map,
                       const struct iodfg_dfg_edge *e)
{
    iodfg_json_object(j);
    iodfg_json_key(j, "from");
    node(j, map, e->from);
    iodfg_json_key(j, "to");
    node(j, map, e->to);
    iodfg_json_put_u64(j, "count", e->count);
    iodfg_json_put_u64(j, "cases", e->cases);
    iodfg_json_put_u64(j, "gap_n", e->gap_n);
    iodfg_json_key(j, "gap_mean_ns");
    e->gap_n ? iodfg_json_double(j, e->gap_mean_ns) : iodfg_json_null(j);
    iodfg_json_put_known(j, "gap_median_ns", e->gap_median_ns);
    iodfg_json_end(j);
}

void iodfg_export_json_members(struct iodfg_json *j, const struct iodfg_dfg *g,
                               const struct iodfg_stats *st, const struct iodfg_mapping *map,
                               const uint32_t *act_order, size_t nact, const uint32_t *edge_order,
                               size_t nedge, const char *comment)
{
    iodfg_json_key(j, "comment");
    comment ? iodfg_json_text(j, comment) : iodfg_json_null(j);
    iodfg_json_put_i64(j, "total_dur_ns", st->total_dur_ns);
    iodfg_json_put_u64(j, "traces", iodfg_dfg_traces(g));
    iodfg_json_key(j, "activities");
    iodfg_json_array(j);
    for (size_t i = 0; i < nact; i++) {
        iodfg_json_layout(j, "\n");
        activity(j, map, &st->act[act_order[i]], act_order[i]);
    }
    iodfg_json_end(j);
    iodfg_json_key(j, "transitions");
    iodfg_json_array(j);
    for (size_t i = 0; i < nedge; i++) {
        iodfg_json_layout(j, "\n");
        transition(j, map, iodfg_dfg_edge_at(g, edge_order[i]));
    }
    iodfg_json_end(j);
}

int iodfg_export_json(struct iodfg_buf *b, const struct iodfg_dfg *g, const struct iodfg_stats *st,
                      const struct iodfg_mapping *map, const uint32_t *act_order, size_t nact,
                      const uint32_t *edge_order, size_t nedge, const char *comment,
                      struct iodfg_error *err)
{
    struct iodfg_json j;
    iodfg_json_init(&j, b);
    iodfg_json_object(&j);
    iodfg_export_json_members(&j, g, st, map, act_order, nact, edge_order, nedge, comment);
    iodfg_json_end(&j);
    iodfg_buf_add(b, "\n", 1);
    return b->failed ? iodfg_error_set(err, IODFG_E_NOMEM, "out of memory writing JSON") : 0;
}
