/* SPDX-License-Identifier: MIT */
/* The CSV event table: one row per call with the column names PM4Py and Disco expect
 * (case:concept:name, concept:name, time:timestamp, start_timestamp) plus the call's data. */
#include "config.h"

#include <string.h>

#include "iodfg/eventlog.h"
#include "iodfg/interchange.h"
#include "iodfg/mapping.h"

#include "interchange_priv.h"

static const char header[] =
    "case:concept:name,concept:name,time:timestamp,start_timestamp,end_timestamp,duration,"
    "call,path,bytes,pid,fd,result,offset,requested,case:cid,case:host,case:rid,case:clock";

/* A text field: escaped like TSV (\t \n \r \\ \xNN, so that any byte survives and the
 * reader can undo it), then quoted as RFC 4180 asks when it holds a comma or a quote. */
static void field(struct xchg *x, const char *s)
{
    const char *e = xchg_escaped(x, s);
    if (!strpbrk(e, ",\"")) {
        xchg_add(x, e);
        return;
    }
    iodfg_buf_add(&x->out, "\"", 1);
    for (const char *p = e; *p; p++) {
        iodfg_buf_add(&x->out, p, 1);
        if (*p == '"') {
            iodfg_buf_add(&x->out, "\"", 1);
        }
    }
    iodfg_buf_add(&x->out, "\"", 1);
}

static void number(struct xchg *x, int64_t v)
{
    iodfg_buf_add(&x->out, ",", 1);
    if (v != IODFG_UNKNOWN) {
        iodfg_buf_addf(&x->out, "%lld", (long long)v);
    }
}

static int csv_begin(struct xchg *x)
{
    xchg_add(x, header);
    xchg_add(x, x->src->g_mask || x->src->r_mask ? ",case:group\n" : "\n");
    return 0;
}

// Everything of the row after the activity and times.
static void row_data(struct xchg *x, uint64_t e)
{
    const struct iodfg_columns *col = x->col;
    const struct iodfg_key *k = &x->keys[col->key[e]];
    iodfg_buf_add(&x->out, ",", 1);
    field(x, xchg_str(x, k->call));
    iodfg_buf_add(&x->out, ",", 1);
    field(x, xchg_str(x, k->path));
    number(x, col->size ? col->size[e] : IODFG_UNKNOWN);
    number(x, col->pid ? col->pid[e] : IODFG_UNKNOWN);
    number(x, col->fd && col->fd[e] != IODFG_NO_FD ? col->fd[e] : IODFG_UNKNOWN);
    iodfg_buf_add(&x->out, ",", 1);
    field(x, col->err ? xchg_str(x, col->err[e]) : "");
    number(x, col->offset ? col->offset[e] : IODFG_UNKNOWN);
    number(x, col->req ? col->req[e] : IODFG_UNKNOWN);
}

static void case_data(struct xchg *x)
{
    const struct iodfg_case_info *ci = iodfg_eventlog_case(x->src->log, x->c);
    const uint32_t ids[] = {ci->cid, ci->host, ci->rid};
    for (size_t i = 0; i < 3; i++) {
        iodfg_buf_add(&x->out, ",", 1);
        field(x, xchg_str(x, ids[i]));
    }
    iodfg_buf_add(&x->out, ",", 1);
    xchg_add(x, iodfg_clock_name(ci->clock));
    if (x->src->g_mask || x->src->r_mask) {
        iodfg_buf_add(&x->out, ",", 1);
        xchg_add(x, xchg_group(x, x->c));
    }
}

static int csv_event(struct xchg *x, uint64_t e, uint32_t activity)
{
    field(x, xchg_trace_name(x));
    iodfg_buf_add(&x->out, ",", 1);
    field(x, xchg_activity(x, activity));
    int64_t start = x->col->start_ns[e];
    int64_t dur = x->col->dur_ns ? x->col->dur_ns[e] : IODFG_UNKNOWN;
    for (int i = 0; i < 2; i++) {
        iodfg_buf_add(&x->out, ",", 1);
        iodfg_interchange_iso_time(&x->out, start, x->digits);
    }
    iodfg_buf_add(&x->out, ",", 1);
    if (dur != IODFG_UNKNOWN) {
        iodfg_interchange_iso_time(&x->out, start + dur, x->digits);
        iodfg_buf_add(&x->out, ",", 1);
        iodfg_interchange_seconds(&x->out, dur, x->digits);
    } else {
        iodfg_buf_add(&x->out, ",", 1);
        x->tot->unknown_dur++;
    }
    row_data(x, e);
    case_data(x);
    iodfg_buf_add(&x->out, "\n", 1);
    return 0;
}

const struct xchg_ops xchg_csv_ops = {
    .begin = csv_begin,
    .event = csv_event,
};
