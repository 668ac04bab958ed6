/* SPDX-License-Identifier: MIT */
/* JSON export of the activity and transition tables (exact values, base units). */
#include "config.h"

#include <math.h>
#include <string.h>

#include "iodfg/buf.h"
#include "iodfg/dfg.h"
#include "iodfg/error.h"
#include "iodfg/eventlog.h"
#include "iodfg/export.h"
#include "iodfg/json.h"
#include "iodfg/mapping.h"
#include "iodfg/sanitize.h"
#include "iodfg/stats.h"

static void add_str(struct iodfg_buf *b, const char *s)
{
    iodfg_buf_add(b, s, strlen(s));
}

static void node(struct iodfg_buf *b, const struct iodfg_mapping *map, uint32_t id)
{
    size_t len;
    const char *s = iodfg_export_node_name(map, id, &len);
    iodfg_json_str(b, s, len);
}

int iodfg_export_json(struct iodfg_buf *b, const struct iodfg_dfg *g, const struct iodfg_stats *st,
                      const struct iodfg_mapping *map, const uint32_t *act_order, size_t nact,
                      const uint32_t *edge_order, size_t nedge, const char *comment,
                      struct iodfg_error *err)
{
    add_str(b, "{\"comment\":");
    if (comment) {
        iodfg_json_str(b, comment, strlen(comment));
    } else {
        add_str(b, "null");
    }
    iodfg_buf_addf(b, ",\"total_dur_ns\":%lld,\"traces\":%llu,\"activities\":[",
                   (long long)st->total_dur_ns, (unsigned long long)iodfg_dfg_traces(g));
    for (size_t i = 0; i < nact; i++) {
        uint32_t a = act_order[i];
        const struct iodfg_activity_stats *s = &st->act[a];
        add_str(b, i ? ",\n{\"activity\":" : "\n{\"activity\":");
        node(b, map, a);
        iodfg_buf_addf(b, ",\"id\":%u,\"count\":%llu,\"cases\":%llu", a,
                       (unsigned long long)s->count, (unsigned long long)s->cases);
        iodfg_json_member_i64(b, "dur_sum_ns", s->dur_sum_ns);
        iodfg_json_member_num(b, "rd", s->rd);
        iodfg_json_member_i64(b, "bytes", s->bytes);
        iodfg_json_member_num(b, "dr_mean_Bps", s->dr_mean);
        iodfg_buf_addf(b, ",\"dr_n\":%llu,\"mc\":%u", (unsigned long long)s->dr_n, s->mc);
        iodfg_json_member_i64(b, "mc_time_ns", s->mc_time_ns);
        iodfg_json_member_num(b, "DR_Bps", s->DR);
        iodfg_json_member_i64(b, "dur_min_ns", s->dur_min_ns);
        iodfg_json_member_i64(b, "dur_median_ns", s->dur_median_ns);
        iodfg_json_member_i64(b, "dur_p95_ns", s->dur_p95_ns);
        iodfg_json_member_i64(b, "dur_max_ns", s->dur_max_ns);
        add_str(b, "}");
    }
    add_str(b, "],\"transitions\":[");
    for (size_t i = 0; i < nedge; i++) {
        const struct iodfg_dfg_edge *e = iodfg_dfg_edge_at(g, edge_order[i]);
        add_str(b, i ? ",\n{\"from\":" : "\n{\"from\":");
        node(b, map, e->from);
        add_str(b, ",\"to\":");
        node(b, map, e->to);
        iodfg_buf_addf(b, ",\"count\":%llu,\"cases\":%llu,\"gap_n\":%llu",
                       (unsigned long long)e->count, (unsigned long long)e->cases,
                       (unsigned long long)e->gap_n);
        if (e->gap_n) {
            iodfg_json_member_num(b, "gap_mean_ns", e->gap_mean_ns);
        } else {
            add_str(b, ",\"gap_mean_ns\":null");
        }
        iodfg_json_member_i64(b, "gap_median_ns", e->gap_median_ns);
        add_str(b, "}");
    }
    add_str(b, "]}\n");
    return b->failed ? iodfg_error_set(err, IODFG_E_NOMEM, "out of memory writing JSON") : 0;
}
