/* SPDX-License-Identifier: MIT */
/* JSON reports of an analysis, an event log and its handles (report_json.h). */
#include "config.h"

#include "iodfg/report_json.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "iodfg/buf.h"
#include "iodfg/dfg.h"
#include "iodfg/diff.h"
#include "iodfg/error.h"
#include "iodfg/export.h"
#include "iodfg/json.h"
#include "iodfg/mapping.h"
#include "iodfg/session.h"
#include "iodfg/strpool.h"

#include "report_priv.h"

/* ---- an analysis ---- */

static void node(struct iodfg_json *j, const struct iodfg_mapping *map, uint32_t id)
{
    size_t len;
    const char *s = iodfg_export_node_name(map, id, &len);
    iodfg_json_string(j, s, len);
}

static void side(struct iodfg_json *j, enum iodfg_diff_side s)
{
    iodfg_json_put_text(j, "side", iodfg_diff_side_name(s));
    iodfg_json_put_text(j, "marker", iodfg_diff_side_mark(s));
}

static void node_fields(struct iodfg_json *j, const struct iodfg_diff_node *dn)
{
    side(j, dn->side);
    for (int m = 0; m < IODFG_DM__N; m++) {
        const double v[4] = {dn->g[m], dn->r[m], dn->abs[m], dn->rel[m]};
        for (int k = 0; k < 4; k++) {
            char key[64];
            snprintf(key, sizeof(key), "%s%s", report_group_prefix[k],
                     iodfg_diff_metric_name((enum iodfg_diff_metric)m));
            iodfg_json_put_double(j, key, v[k]);
        }
    }
}

static void edge_fields(struct iodfg_json *j, const struct iodfg_diff_edge *de)
{
    side(j, de ? de->side : IODFG_DIFF_NEITHER);
    iodfg_json_put_double(j, "g_count", de ? (double)de->g_count : 0);
    iodfg_json_put_double(j, "r_count", de ? (double)de->r_count : 0);
    iodfg_json_put_double(j, "g_cases", de ? (double)de->g_cases : 0);
    iodfg_json_put_double(j, "r_cases", de ? (double)de->r_cases : 0);
    iodfg_json_put_double(j, "g_gap_mean_ns", de && de->g_count ? de->g_gap_mean_ns : NAN);
    iodfg_json_put_double(j, "r_gap_mean_ns", de && de->r_count ? de->r_gap_mean_ns : NAN);
    iodfg_json_put_double(j, "diff_count", de ? de->count_abs : NAN);
    iodfg_json_put_double(j, "rel_count", de ? de->count_rel : NAN);
}

static void file_systems(struct iodfg_json *j, const struct iodfg_report_analysis *a,
                         const struct report_fs *fs)
{
    const struct iodfg_mapping *map = iodfg_session_mapping(a->ses);
    iodfg_json_key(j, "file_systems");
    iodfg_json_array(j);
    for (size_t i = 0; i < a->nact; i++) {
        const struct report_fs *f = a->act[i] < map->nactivities ? &fs[a->act[i]] : NULL;
        iodfg_json_layout(j, "\n");
        iodfg_json_object(j);
        iodfg_json_key(j, "activity");
        node(j, map, a->act[i]);
        iodfg_json_put_text(j, "scope", f ? f->scope : "");
        iodfg_json_put_text(j, "fstype", f ? f->fstype : "");
        iodfg_json_put_text(j, "fs", f ? f->fs : "");
        iodfg_json_end(j);
    }
    iodfg_json_end(j);
}

static void groups(struct iodfg_json *j, const struct iodfg_report_analysis *a)
{
    const struct iodfg_session *s = a->ses;
    const struct iodfg_mapping *map = iodfg_session_mapping(s);
    const struct iodfg_diff *d = iodfg_session_diff(s);
    const struct iodfg_session_counts *k = iodfg_session_counts(s);
    iodfg_json_key(j, "groups");
    iodfg_json_object(j);
    iodfg_json_put_u64(j, "g_cases", k->g_cases);
    iodfg_json_put_u64(j, "r_cases", k->r_cases);
    iodfg_json_key(j, "activities");
    iodfg_json_array(j);
    for (size_t i = 0; i < a->nact; i++) {
        iodfg_json_layout(j, "\n");
        iodfg_json_object(j);
        iodfg_json_key(j, "activity");
        node(j, map, a->act[i]);
        iodfg_json_put_u64(j, "id", a->act[i]);
        node_fields(j, &d->nodes[a->act[i]]);
        iodfg_json_end(j);
    }
    iodfg_json_end(j);
    iodfg_json_key(j, "transitions");
    iodfg_json_array(j);
    for (size_t i = 0; a->edges && i < a->nedges; i++) {
        const struct iodfg_dfg_edge *e = iodfg_dfg_edge_at(iodfg_session_dfg(s), a->edges[i]);
        iodfg_json_layout(j, "\n");
        iodfg_json_object(j);
        iodfg_json_key(j, "from");
        node(j, map, e->from);
        iodfg_json_key(j, "to");
        node(j, map, e->to);
        edge_fields(j, iodfg_diff_find_edge(d, e->from, e->to));
        iodfg_json_end(j);
    }
    iodfg_json_end(j);
    iodfg_json_end(j);
}

int iodfg_report_json_analysis(struct iodfg_buf *b, const struct iodfg_report_analysis *a,
                               struct iodfg_error *err)
{
    const struct iodfg_session *s = a->ses;
    struct report_fs *fs = report_activity_fs(s);
    if (!fs) {
        return iodfg_error_set(err, IODFG_E_NOMEM, NULL);
    }
    struct iodfg_json j;
    iodfg_json_init(&j, b);
    iodfg_json_object(&j);
    iodfg_export_json_members(&j, iodfg_session_dfg(s), iodfg_session_stats(s),
                              iodfg_session_mapping(s), a->act, a->nact, a->edges,
                              a->edges ? a->nedges : 0, a->comment);
    file_systems(&j, a, fs);
    free(fs);
    if (a->groups) {
        groups(&j, a);
    }
    const struct iodfg_session_counts *k = iodfg_session_counts(s);
    iodfg_json_key(&j, "rules_match_limit");
    iodfg_json_object(&j);
    iodfg_json_put_u64(&j, "keys", k->rules_limited);
    iodfg_json_key(&j, "line");
    k->rules_limited ? iodfg_json_u64(&j, k->limit_line) : iodfg_json_null(&j);
    iodfg_json_end(&j);
    iodfg_json_end(&j);
    iodfg_buf_add(b, "\n", 1);
    return report_done(b, err);
}

/* ---- an event log ---- */

static void counts(struct iodfg_json *j, const uint64_t *n)
{
    for (int k = 0; k < IODFG_COUNT__N; k++) {
        iodfg_json_put_u64(j, iodfg_count_name((enum iodfg_count)k), n[k]);
    }
}

static void info_case(struct iodfg_json *j, const struct iodfg_eventlog *log, uint32_t cs)
{
    const struct iodfg_strpool *pool = iodfg_eventlog_pool(log);
    const struct iodfg_case_info *ci = iodfg_eventlog_case(log, cs);
    const uint64_t *off = iodfg_eventlog_case_offsets(log);
    const char *names[] = {"name", "cid", "host", "rid", "source"};
    const uint32_t ids[] = {ci->name, ci->cid, ci->host, ci->rid, ci->source};
    iodfg_json_object(j);
    for (int f = 0; f < 5; f++) {
        iodfg_json_key(j, names[f]);
        iodfg_json_string(j, iodfg_strpool_get(pool, ids[f]), iodfg_strpool_len(pool, ids[f]));
    }
    iodfg_json_put_text(j, "named_by",
                        ci->naming == IODFG_NAMING_PATTERN ? "pattern" : "file name");
    iodfg_json_put_text(j, "clock", iodfg_clock_name(ci->clock));
    iodfg_json_put_u64(j, "events", off[cs + 1] - off[cs]);
    iodfg_json_put_u64(j, "lines", ci->lines);
    counts(j, ci->counts);
    iodfg_json_end(j);
}

int iodfg_report_json_info(struct iodfg_buf *b, const struct iodfg_report_info *r,
                           struct iodfg_error *err)
{
    const struct iodfg_log_summary *s = r->s;
    const struct iodfg_strpool *pool = iodfg_eventlog_pool(r->log);
    struct iodfg_json j;
    iodfg_json_init(&j, b);
    iodfg_json_object(&j);
    iodfg_json_put_text(&j, "source", r->source);
    iodfg_json_put_u64(&j, "cases", iodfg_eventlog_case_count(r->log));
    iodfg_json_put_u64(&j, "events", s->events);
    iodfg_json_put_u64(&j, "events_without_duration", s->no_dur);
    iodfg_json_put_u64(&j, "distinct_calls", s->ncalls);
    iodfg_json_put_u64(&j, "distinct_paths", s->npaths);
    iodfg_json_key(&j, "lines");
    iodfg_json_object(&j);
    counts(&j, s->counts);
    iodfg_json_end(&j);
    iodfg_json_key(&j, "time_spans");
    iodfg_json_array(&j);
    for (int k = IODFG_CLOCK_NONE + 1; k < IODFG_CLOCK__N; k++) {
        if (s->have[k]) {
            iodfg_json_object(&j);
            iodfg_json_put_text(&j, "clock", iodfg_clock_name((enum iodfg_clock)k));
            iodfg_json_put_i64(&j, "first_ns", s->first[k]);
            iodfg_json_put_i64(&j, "last_ns", s->last[k]);
            iodfg_json_end(&j);
        }
    }
    iodfg_json_end(&j);
    iodfg_json_key(&j, "calls");
    iodfg_json_array(&j);
    for (uint32_t i = 0; i < s->ncalls; i++) {
        iodfg_json_object(&j);
        iodfg_json_key(&j, "call");
        iodfg_json_string(&j, iodfg_strpool_get(pool, s->calls[i].call),
                          iodfg_strpool_len(pool, s->calls[i].call));
        iodfg_json_put_u64(&j, "events", s->calls[i].n);
        iodfg_json_end(&j);
    }
    iodfg_json_end(&j);
    // which table classified the files is in the table only: the same log read from traces or
    // from its converted file gives the same JSON
    iodfg_json_key(&j, "file_keys_by_scope");
    iodfg_json_object(&j);
    for (int k = IODFG_SCOPE_UNKNOWN; k < IODFG_SCOPE__N; k++) {
        iodfg_json_put_u64(&j, iodfg_scope_name((enum iodfg_scope)k), s->by_scope[k]);
    }
    iodfg_json_end(&j);
    iodfg_json_key(&j, "case_list");
    iodfg_json_array(&j);
    for (uint32_t cs = 0; cs < iodfg_eventlog_case_count(r->log); cs++) {
        info_case(&j, r->log, cs);
    }
    iodfg_json_end(&j);
    iodfg_json_end(&j);
    iodfg_buf_add(b, "\n", 1);
    return report_done(b, err);
}

/* ---- handles ---- */

/* Seconds since the log's first event, or null. */
static void handle_time(struct iodfg_json *j, int64_t t, int64_t t0)
{
    if (t == IODFG_UNKNOWN) {
        iodfg_json_null(j);
    } else {
        iodfg_json_fixed(j, (double)(t - t0) / 1e9, 6);
    }
}

static void handle(struct iodfg_json *j, const struct iodfg_eventlog *log, int64_t t0, uint32_t id,
                   const struct iodfg_handle *h)
{
    const struct iodfg_strpool *pool = iodfg_eventlog_pool(log);
    const struct iodfg_case_info *ci = iodfg_eventlog_case(log, h->case_id);
    const char *layer = iodfg_strpool_get(pool, h->layer);
    iodfg_json_object(j);
    iodfg_json_put_u64(j, "id", id);
    iodfg_json_put_text(j, "case", ci ? iodfg_strpool_get(pool, ci->name) : "?");
    iodfg_json_put_i64(j, "pid", h->pid);
    iodfg_json_put_i64(j, "fd", h->fd);
    iodfg_json_put_text(j, "origin", iodfg_handle_origin_name((enum iodfg_handle_origin)h->origin));
    iodfg_json_put_u64(j, "parent", h->parent);
    iodfg_json_put_text(j, "layer", layer[0] ? layer : IODFG_LAYER_DEFAULT);
    iodfg_json_put_text(j, "call", iodfg_strpool_get(pool, h->call));
    iodfg_json_put_text(j, "path", iodfg_strpool_get(pool, h->path));
    iodfg_json_put_text(j, "flags", iodfg_strpool_get(pool, h->flags));
    iodfg_json_key(j, "mode");
    if (h->mode == IODFG_UNKNOWN) { // JSON has no octal numbers: the mode is a string
        iodfg_json_null(j);
    } else {
        char mode[32];
        snprintf(mode, sizeof(mode), "0%03llo", (unsigned long long)h->mode);
        iodfg_json_text(j, mode);
    }
    iodfg_json_key(j, "created");
    handle_time(j, h->created_ns, t0);
    iodfg_json_key(j, "destroyed");
    handle_time(j, h->destroyed_ns, t0);
    iodfg_json_key(j, "closed");
    iodfg_json_bool(j, h->destroyed_ns != IODFG_UNKNOWN);
    iodfg_json_put_u64(j, "ops", h->ops);
    iodfg_json_put_u64(j, "bytes_read", h->bytes_read);
    iodfg_json_put_u64(j, "bytes_written", h->bytes_written);
    iodfg_json_end(j);
}

int iodfg_report_json_handles(struct iodfg_buf *b, const struct iodfg_report_handles *r,
                              struct iodfg_error *err)
{
    const struct iodfg_handle *hs = iodfg_eventlog_handles(r->log);
    int64_t t0 = iodfg_handles_time_origin(r->log);
    struct iodfg_json j;
    iodfg_json_init(&j, b);
    iodfg_json_spaced(&j);
    iodfg_json_object(&j);
    iodfg_json_key(&j, "handles");
    iodfg_json_array(&j);
    for (uint32_t i = 0; i < r->n; i++) {
        iodfg_json_layout(&j, "\n    ");
        handle(&j, r->log, t0, r->ids[i], &hs[r->ids[i] - 1]);
    }
    if (r->n) {
        iodfg_json_layout(&j, "\n");
    }
    iodfg_json_end(&j);
    iodfg_json_layout(&j, "\n ");
    iodfg_json_put_u64(&j, "count", r->sum->count);
    iodfg_json_put_u64(&j, "never_closed", r->sum->never_closed);
    iodfg_json_end(&j);
    iodfg_buf_add(b, "\n", 1);
    return report_done(b, err);
}
