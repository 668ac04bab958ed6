/* SPDX-License-Identifier: MIT */
/* Chrome trace-event JSON for Perfetto (ui.perfetto.dev, trace_processor): a process per case,
 * a thread track per pid, a complete ("X") slice per call with its data as args. */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "iodfg/eventlog.h"
#include "iodfg/interchange.h"
#include "iodfg/json.h"
#include "iodfg/sanitize.h"

#include "interchange_priv.h"

/* Tracks for calls that overlap the previous call of their pid (clock rounding, or merged
 * unfinished/resumed pairs) get thread ids from here: Linux pids stay below 2^22, and
 * Perfetto drops a slice that overlaps another of its track without nesting in it. */
#define LANE_TID_BASE 0x40000000u

static void jstr(struct xchg *x, const char *s)
{
    iodfg_json_cstr(&x->out, s);
}

// A time in microseconds, exact: integer arithmetic on the nanoseconds, never a double.
static void micros(struct xchg *x, int64_t ns)
{
    uint64_t mag = ns < 0 ? (uint64_t)0 - (uint64_t)ns : (uint64_t)ns;
    iodfg_buf_addf(&x->out, "%s%llu", ns < 0 ? "-" : "", (unsigned long long)(mag / 1000));
    if (mag % 1000) {
        iodfg_buf_addf(&x->out, ".%03u", (unsigned)(mag % 1000));
    }
}

static void item(struct xchg *x)
{
    xchg_add(x, x->first_item ? "\n" : ",\n");
    x->first_item = 0;
}

static int pf_begin(struct xchg *x)
{
    xchg_add(x, "{\"displayTimeUnit\":\"ns\",\"otherData\":{\"generator\":");
    jstr(x, x->src->generator ? x->src->generator : "iodfg");
    xchg_add(x, ",\"description\":");
    jstr(x, x->src->description ? x->src->description : "");
    xchg_add(x, ",\"clocks\":\"");
    for (int k = 0, any = 0; k < IODFG_CLOCK__N; k++) {
        if (x->clocks[k]) {
            iodfg_buf_addf(&x->out, "%s%u %s", any++ ? ", " : "", x->clocks[k],
                           iodfg_clock_name((enum iodfg_clock)k));
        }
    }
    xchg_add(x, "\",\"note\":");
    jstr(x, xchg_clock_note(x));
    xchg_add(x, "},\n\"traceEvents\":[");
    x->first_item = 1;
    x->next_tid = LANE_TID_BASE;
    x->meta_case = -1;
    return 0;
}

static void thread_name(struct xchg *x, uint32_t tid, int lane)
{
    item(x);
    iodfg_buf_addf(&x->out,
                   "{\"ph\":\"M\",\"pid\":%u,\"tid\":%u,\"name\":\"thread_name\",\"args\":{"
                   "\"name\":\"pid %d%s\"}}",
                   x->c + 1, tid, (int)x->pid, lane ? " (overlapping calls)" : "");
}

static uint32_t main_tid(const struct xchg *x)
{
    return x->pid > 0 ? (uint32_t)x->pid : 0;
}

// Process metadata of case c: name, labels (cid, host, group, clock), order.
static void process_meta(struct xchg *x)
{
    const struct iodfg_case_info *ci = iodfg_eventlog_case(x->src->log, x->c);
    item(x);
    iodfg_buf_addf(
        &x->out,
        "{\"ph\":\"M\",\"pid\":%u,\"name\":\"process_name\",\"args\":{\"name\":", x->c + 1);
    jstr(x, xchg_str(x, ci->name));
    xchg_add(x, "}}");
    item(x);
    iodfg_buf_addf(&x->out,
                   "{\"ph\":\"M\",\"pid\":%u,\"name\":\"process_sort_index\",\"args\":"
                   "{\"sort_index\":%u}}",
                   x->c + 1, x->c + 1);
    iodfg_buf_clear(&x->scratch);
    iodfg_buf_addf(&x->scratch, "cid %s, host %s, rid %s, %s clock%s%s", xchg_str(x, ci->cid),
                   xchg_str(x, ci->host), xchg_str(x, ci->rid), iodfg_clock_name(ci->clock),
                   *xchg_group(x, x->c) ? ", group " : "", xchg_group(x, x->c));
    iodfg_buf_add(&x->scratch, "", 0);
    item(x);
    iodfg_buf_addf(&x->out,
                   "{\"ph\":\"M\",\"pid\":%u,\"name\":\"process_labels\",\"args\":"
                   "{\"labels\":",
                   x->c + 1);
    jstr(x, x->scratch.data ? x->scratch.data : "");
    xchg_add(x, "}}");
}

static int pf_trace_begin(struct xchg *x)
{
    if (x->meta_case != (int64_t)x->c) { // the case's process, before its first track
        x->meta_case = x->c;
        process_meta(x);
    }
    x->nlanes = 0;
    thread_name(x, main_tid(x), 0);
    return 0;
}

// The track of a call from start to end: the first whose last slice ended by then.
static int lane_for(struct xchg *x, int64_t start, int64_t end, uint32_t *tid)
{
    size_t i = 0;
    while (i < x->nlanes && x->lane_end[i] > start) {
        i++;
    }
    if (i == x->nlanes) {
        if (x->nlanes == x->lanes_cap) {
            size_t cap = x->lanes_cap ? 2 * x->lanes_cap : 4;
            int64_t *ne = realloc(x->lane_end, cap * sizeof(*ne));
            if (ne) {
                x->lane_end = ne;
            }
            uint32_t *nt = ne ? realloc(x->lane_tid, cap * sizeof(*nt)) : NULL;
            if (!nt) {
                return -1;
            }
            x->lane_tid = nt;
            x->lanes_cap = cap;
        }
        x->lane_tid[i] = i == 0 ? main_tid(x) : x->next_tid++;
        x->nlanes++;
        if (i > 0) {
            x->tot->lanes++;
            thread_name(x, x->lane_tid[i], 1);
        }
    }
    x->lane_end[i] = end;
    *tid = x->lane_tid[i];
    return 0;
}

static void args(struct xchg *x, uint64_t e, uint32_t activity)
{
    const struct iodfg_columns *col = x->col;
    const struct iodfg_key *k = &x->keys[col->key[e]];
    xchg_add(x, ",\"args\":{\"activity\":");
    jstr(x, xchg_activity(x, activity));
    xchg_add(x, ",\"call\":");
    jstr(x, xchg_str(x, k->call));
    xchg_add(x, ",\"path\":");
    jstr(x, xchg_str(x, k->path));
    const char *res = col->err ? xchg_str(x, col->err[e]) : "";
    xchg_add(x, ",\"result\":");
    jstr(x, *res ? res : "ok");
    if (col->size && col->size[e] != IODFG_UNKNOWN) {
        iodfg_buf_addf(&x->out, ",\"bytes\":%lld", (long long)col->size[e]);
    }
    if (col->fd && col->fd[e] != IODFG_NO_FD) {
        iodfg_buf_addf(&x->out, ",\"fd\":%d", (int)col->fd[e]);
    }
    if (col->offset && col->offset[e] != IODFG_UNKNOWN) {
        iodfg_buf_addf(&x->out, ",\"offset\":%lld", (long long)col->offset[e]);
    }
    if (col->req && col->req[e] != IODFG_UNKNOWN) {
        iodfg_buf_addf(&x->out, ",\"requested\":%lld", (long long)col->req[e]);
    }
    xchg_add(x, "}}");
}

static int pf_event(struct xchg *x, uint64_t e, uint32_t activity)
{
    int64_t start = x->col->start_ns[e];
    int64_t dur = x->col->dur_ns ? x->col->dur_ns[e] : IODFG_UNKNOWN;
    uint32_t tid = main_tid(x);
    if (dur != IODFG_UNKNOWN && lane_for(x, start, start + dur, &tid)) {
        return -1;
    }
    item(x);
    if (dur == IODFG_UNKNOWN) { // no duration recorded: an instant, not an invented length
        x->tot->unknown_dur++;
        iodfg_buf_addf(&x->out, "{\"ph\":\"i\",\"s\":\"t\",\"pid\":%u,\"tid\":%u,\"ts\":", x->c + 1,
                       tid);
    } else {
        iodfg_buf_addf(&x->out, "{\"ph\":\"X\",\"pid\":%u,\"tid\":%u,\"ts\":", x->c + 1, tid);
    }
    micros(x, start);
    if (dur != IODFG_UNKNOWN) {
        xchg_add(x, ",\"dur\":");
        micros(x, dur);
    }
    xchg_add(x, ",\"cat\":");
    jstr(x, xchg_str(x, x->keys[x->col->key[e]].call));
    xchg_add(x, ",\"name\":");
    jstr(x, xchg_activity(x, activity));
    args(x, e, activity);
    return 0;
}

static int pf_end(struct xchg *x)
{
    xchg_add(x, "\n]}\n");
    return 0;
}

const struct xchg_ops xchg_perfetto_ops = {
    .begin = pf_begin,
    .trace_begin = pf_trace_begin,
    .event = pf_event,
    .end = pf_end,
};
