/* SPDX-License-Identifier: MIT */
/* The `callsites` report: an activity per block, its call sites ranked by time, as a table,
 * TSV or JSON; with groups, the sites only one group has are marked. */
#include "config.h"

#include "iodfg/report_callsites.h"

#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "iodfg/buf.h"
#include "iodfg/callsites.h"
#include "iodfg/error.h"
#include "iodfg/eventlog.h"
#include "iodfg/format.h"
#include "iodfg/json.h"
#include "iodfg/rules.h"
#include "iodfg/sanitize.h"
#include "iodfg/stacks.h"
#include "iodfg/strpool.h"
#include "iodfg/table.h"

#include "report_priv.h"

static const char group_name[2] = {'G', 'R'};

const char *iodfg_report_site_name(const struct iodfg_eventlog *log, uint32_t site, char *buf,
                                   size_t size)
{
    const struct iodfg_stacks *st = iodfg_eventlog_stacks(log);
    if (site == 0) {
        return "(no stack)";
    }
    if (site == IODFG_CALLSITE_RUNTIME || !st || site > iodfg_stacks_frame_count(st)) {
        return "(no frame of the program)";
    }
    const struct iodfg_frame *f = &iodfg_stacks_frames(st)[site - 1];
    const struct iodfg_strpool *pool = iodfg_eventlog_pool(log);
    if (iodfg_strpool_len(pool, f->function)) {
        return iodfg_strpool_get(pool, f->function);
    }
    snprintf(buf, size, "%s+0x%" PRIx64, iodfg_strpool_get(pool, f->object), f->address);
    return buf;
}

const char *iodfg_report_site_object(const struct iodfg_eventlog *log, uint32_t site)
{
    const struct iodfg_stacks *st = iodfg_eventlog_stacks(log);
    if (!st || site == 0 || site > iodfg_stacks_frame_count(st)) {
        return "";
    }
    return iodfg_strpool_get(iodfg_eventlog_pool(log), iodfg_stacks_frames(st)[site - 1].object);
}

static const struct iodfg_report_srcline *site_src(const struct iodfg_report_callsites *r,
                                                   uint32_t site)
{
    const struct iodfg_stacks *st = iodfg_eventlog_stacks(r->log);
    if (!r->src || !st || site == 0 || site > iodfg_stacks_frame_count(st) || !r->src[site].file) {
        return NULL;
    }
    return &r->src[site];
}

/* Whether the other group than g has the pair (activity, site) of row. */
static int other_has(const struct iodfg_report_callsites *r, int g,
                     const struct iodfg_callsite_row *row)
{
    const struct iodfg_callsites *o = r->cs[1 - g];
    for (size_t i = 0; i < o->nrows; i++) {
        if (o->rows[i].activity == row->activity && o->rows[i].site == row->site) {
            return 1;
        }
    }
    return 0;
}

const char *iodfg_report_site_group(const struct iodfg_report_callsites *r, int g,
                                    const struct iodfg_callsite_row *row)
{
    if (r->ngroups != 2) {
        return "";
    }
    static const char *const text[2][2] = {{"G only", "G"}, {"R only", "R"}};
    return text[g != 0][other_has(r, g, row)];
}

const char *iodfg_report_site_line(const struct iodfg_report_callsites *r, uint32_t site, char *buf,
                                   size_t size)
{
    const struct iodfg_report_srcline *src = site_src(r, site);
    if (src) {
        const char *slash = strrchr(src->file, '/');
        snprintf(buf, size, "%s:%d", slash ? slash + 1 : src->file, src->line);
        return buf;
    }
    if (site == 0 || site == IODFG_CALLSITE_RUNTIME) {
        return "-";
    }
    const struct iodfg_stacks *st = iodfg_eventlog_stacks(r->log);
    int traced = st && site <= iodfg_stacks_frame_count(st) &&
                 (iodfg_stacks_frames(st)[site - 1].flags & IODFG_FRAME_SOURCE);
    // an OTF2 frame's line is the archive's to give: libdw has no part in it
    return r->libdw || traced ? "?" : "file:line unknown (no libdw)";
}

/* ---- table ---- */

static const struct iodfg_table_col cols[] = {
    {'l', 0, 48, "    "}, {'l', 0, 48, "  "}, {'r', 0, 0, "  "}, {'r', 0, 0, "  "},
    {'r', 0, 0, "  "},    {'r', 0, 0, "  "},  {'l', 0, 0, "  "}, {'l', 0, 0, "  "},
};

static void table_row(struct iodfg_table *t, const struct iodfg_report_callsites *r, int g,
                      const struct iodfg_callsite_row *row)
{
    char buf[96], num[32];
    const char *name = iodfg_report_site_name(r->log, row->site, buf, sizeof(buf));
    iodfg_table_add_name(t, name, strlen(name));
    char fl[4200];
    const char *line = iodfg_report_site_line(r, row->site, fl, sizeof(fl));
    if (row->site == 0 || row->site == IODFG_CALLSITE_RUNTIME || !site_src(r, row->site)) {
        iodfg_table_add(t, line);
    } else {
        iodfg_table_add_name(t, line, strlen(line));
    }
    iodfg_table_add(t, iodfg_format_count(num, sizeof(num), row->calls, 0));
    iodfg_table_add(t, iodfg_format_duration(num, sizeof(num), row->dur_ns, 0));
    iodfg_table_add(t, iodfg_format_bytes(num, sizeof(num), row->bytes, 0));
    iodfg_table_add(t, iodfg_format_count(num, sizeof(num), row->cases, 0));
    iodfg_table_add(t, iodfg_report_site_group(r, g, row));
    const char *obj = iodfg_report_site_object(r->log, row->site);
    iodfg_table_add_name(t, obj, strlen(obj));
}

int iodfg_report_table_callsites(struct iodfg_buf *b, const struct iodfg_report_callsites *r,
                                 struct iodfg_error *err)
{
    struct iodfg_table t;
    iodfg_table_init(&t, cols, sizeof(cols) / sizeof(cols[0]));
    static const char *const head[] = {"call site", "file:line", "calls", "time",
                                       "bytes",     "cases",     "",      "object"};
    for (size_t i = 0; i < sizeof(head) / sizeof(head[0]); i++) {
        iodfg_table_add(&t, i == 6 && r->ngroups == 2 ? "group" : head[i]);
    }
    for (int g = 0; g < r->ngroups; g++) {
        const struct iodfg_callsites *cs = r->cs[g];
        for (size_t i = 0; i < cs->nrows; i++) {
            const struct iodfg_callsite_row *row = &cs->rows[i];
            if (i == 0 || row->activity != cs->rows[i - 1].activity) {
                const char *a = iodfg_mapping_name(r->map, row->activity);
                iodfg_table_line(&t, r->ngroups == 2 ? (g ? "R " : "G ") : "", a, strlen(a));
            }
            table_row(&t, r, g, row);
        }
    }
    iodfg_table_print(&t, b);
    iodfg_table_fini(&t);
    for (int g = 0; g < r->ngroups; g++) {
        const struct iodfg_callsites *cs = r->cs[g];
        if (r->ngroups == 2) {
            iodfg_buf_addf(b, "%c: ", group_name[g]);
        }
        iodfg_buf_addf(b,
                       "%" PRIu64 " events, %" PRIu64 " with a stack, %" PRIu64
                       " with a call site in the program's own code\n",
                       cs->events, cs->with_stack, cs->with_site);
    }
    if (!iodfg_eventlog_stacks(r->log)) {
        iodfg_buf_addf(b, "This log has no call stacks: record with strace -f -k (strace built "
                          "with libdw or libunwind) to see call sites. An OTF2 archive needs "
                          "Score-P's calling context: record with SCOREP_ENABLE_UNWINDING=true, "
                          "or instrument the program's functions (scorep without --nocompiler)."
                          "\n");
    }
    return report_done(b, err);
}

/* ---- TSV ---- */

static void tsv_name(struct iodfg_buf *b, const char *s)
{
    iodfg_sanitize_tsv(b, s, strlen(s));
    iodfg_buf_add(b, "\t", 1);
}

int iodfg_report_tsv_callsites(struct iodfg_buf *b, const struct iodfg_report_callsites *r,
                               struct iodfg_error *err)
{
    iodfg_buf_addf(b, "%sactivity\tsite\tobject\tfile\tline\tcalls\tdur_sum_ns\tbytes\tcases%s\n",
                   r->ngroups == 2 ? "group\t" : "", r->ngroups == 2 ? "\tonly" : "");
    for (int g = 0; g < r->ngroups; g++) {
        const struct iodfg_callsites *cs = r->cs[g];
        for (size_t i = 0; i < cs->nrows; i++) {
            const struct iodfg_callsite_row *row = &cs->rows[i];
            char buf[96];
            if (r->ngroups == 2) {
                iodfg_buf_addf(b, "%c\t", group_name[g]);
            }
            tsv_name(b, iodfg_mapping_name(r->map, row->activity));
            tsv_name(b, iodfg_report_site_name(r->log, row->site, buf, sizeof(buf)));
            tsv_name(b, iodfg_report_site_object(r->log, row->site));
            const struct iodfg_report_srcline *src = site_src(r, row->site);
            tsv_name(b, src ? src->file : "");
            if (src) {
                iodfg_buf_addf(b, "%d", src->line);
            }
            iodfg_buf_addf(b, "\t%" PRIu64 "\t%" PRId64 "\t%" PRId64 "\t%u", row->calls,
                           row->dur_ns, row->bytes, row->cases);
            if (r->ngroups == 2) {
                iodfg_buf_addf(b, "\t%d", !other_has(r, g, row));
            }
            iodfg_buf_add(b, "\n", 1);
        }
    }
    return report_done(b, err);
}

/* ---- JSON ---- */

static void json_site(struct iodfg_json *j, const struct iodfg_report_callsites *r, int g,
                      const struct iodfg_callsite_row *row)
{
    char buf[96];
    iodfg_json_object(j);
    iodfg_json_put_text(j, "site", iodfg_report_site_name(r->log, row->site, buf, sizeof(buf)));
    iodfg_json_put_text(j, "object", iodfg_report_site_object(r->log, row->site));
    const struct iodfg_report_srcline *src = site_src(r, row->site);
    iodfg_json_key(j, "file");
    if (src) {
        iodfg_json_text(j, src->file);
        iodfg_json_put_i64(j, "line", src->line);
    } else {
        iodfg_json_null(j);
        iodfg_json_key(j, "line");
        iodfg_json_null(j);
    }
    iodfg_json_put_u64(j, "calls", row->calls);
    iodfg_json_put_i64(j, "dur_sum_ns", row->dur_ns);
    iodfg_json_put_i64(j, "bytes", row->bytes);
    iodfg_json_put_u64(j, "cases", row->cases);
    if (r->ngroups == 2) {
        iodfg_json_key(j, "only_this_group");
        iodfg_json_bool(j, !other_has(r, g, row));
    }
    iodfg_json_end(j);
}

static void json_group(struct iodfg_json *j, const struct iodfg_report_callsites *r, int g)
{
    const struct iodfg_callsites *cs = r->cs[g];
    iodfg_json_object(j);
    iodfg_json_put_u64(j, "events", cs->events);
    iodfg_json_put_u64(j, "with_stack", cs->with_stack);
    iodfg_json_put_u64(j, "with_site", cs->with_site);
    iodfg_json_key(j, "activities");
    iodfg_json_array(j);
    for (size_t i = 0; i < cs->nrows; i++) {
        const struct iodfg_callsite_row *row = &cs->rows[i];
        if (i == 0 || row->activity != cs->rows[i - 1].activity) {
            if (i) {
                iodfg_json_end(j); // sites
                iodfg_json_end(j); // activity
            }
            iodfg_json_object(j);
            iodfg_json_put_text(j, "activity", iodfg_mapping_name(r->map, row->activity));
            iodfg_json_put_i64(j, "dur_sum_ns", cs->act_dur_ns[row->activity]);
            iodfg_json_key(j, "sites");
            iodfg_json_array(j);
        }
        json_site(j, r, g, row);
    }
    if (cs->nrows) {
        iodfg_json_end(j);
        iodfg_json_end(j);
    }
    iodfg_json_end(j);
    iodfg_json_end(j);
}

int iodfg_report_json_callsites(struct iodfg_buf *b, const struct iodfg_report_callsites *r,
                                struct iodfg_error *err)
{
    struct iodfg_json j;
    iodfg_json_init(&j, b);
    iodfg_json_object(&j);
    iodfg_json_key(&j, "file_line");
    iodfg_json_text(&j, r->libdw ? "libdw" : "unknown (no libdw)");
    for (int g = 0; g < r->ngroups; g++) {
        iodfg_json_key(&j, r->ngroups == 1 ? "callsites" : g ? "red" : "green");
        json_group(&j, r, g);
    }
    iodfg_json_end(&j);
    iodfg_buf_add(b, "\n", 1);
    return report_done(b, err);
}
