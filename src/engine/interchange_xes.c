/* SPDX-License-Identifier: MIT */
/* XES (IEEE 1849): a trace per case, an event per call, with the concept, time and lifecycle
 * extensions; attribute values escaped for XML (tests check it against the XES schema). */
#include "config.h"

#include <string.h>

#include "iodfg/eventlog.h"
#include "iodfg/interchange.h"

#include "interchange_priv.h"

/* Text as an XML attribute value: first escaped like TSV, which leaves no control character
 * (XML 1.0 allows none but tab, CR and LF, not even as a reference) and no invalid UTF-8,
 * then the XML entities. */
static void xml_text(struct xchg *x, const char *s)
{
    for (const char *p = xchg_escaped(x, s); *p; p++) {
        switch (*p) {
        case '&':
            xchg_add(x, "&amp;");
            break;
        case '<':
            xchg_add(x, "&lt;");
            break;
        case '>':
            xchg_add(x, "&gt;");
            break;
        case '"':
            xchg_add(x, "&quot;");
            break;
        default:
            iodfg_buf_add(&x->out, p, 1);
        }
    }
}

static void attr_str(struct xchg *x, const char *indent, const char *key, const char *value)
{
    iodfg_buf_addf(&x->out, "%s<string key=\"%s\" value=\"", indent, key);
    xml_text(x, value);
    xchg_add(x, "\"/>\n");
}

static void attr_int(struct xchg *x, const char *key, int64_t v)
{
    if (v != IODFG_UNKNOWN) {
        iodfg_buf_addf(&x->out, "\t\t\t<int key=\"%s\" value=\"%lld\"/>\n", key, (long long)v);
    }
}

static void attr_date(struct xchg *x, const char *key, int64_t ns)
{
    iodfg_buf_addf(&x->out, "\t\t\t<date key=\"%s\" value=\"", key);
    iodfg_interchange_iso_time(&x->out, ns, x->digits);
    xchg_add(x, "\"/>\n");
}

static int xes_begin(struct xchg *x)
{
    xchg_add(x, "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
                "<log xes.version=\"1849-2016\">\n"
                "\t<extension name=\"Concept\" prefix=\"concept\" "
                "uri=\"http://www.xes-standard.org/concept.xesext\"/>\n"
                "\t<extension name=\"Time\" prefix=\"time\" "
                "uri=\"http://www.xes-standard.org/time.xesext\"/>\n"
                "\t<extension name=\"Lifecycle\" prefix=\"lifecycle\" "
                "uri=\"http://www.xes-standard.org/lifecycle.xesext\"/>\n"
                "\t<global scope=\"trace\">\n"
                "\t\t<string key=\"concept:name\" value=\"\"/>\n"
                "\t</global>\n"
                "\t<global scope=\"event\">\n"
                "\t\t<string key=\"concept:name\" value=\"\"/>\n"
                "\t\t<date key=\"time:timestamp\" value=\"1970-01-01T00:00:00.000000+00:00\"/>\n"
                "\t\t<string key=\"lifecycle:transition\" value=\"complete\"/>\n"
                "\t</global>\n"
                "\t<classifier name=\"Activity\" keys=\"concept:name\"/>\n");
    attr_str(x, "\t", "concept:name", x->src->description ? x->src->description : "iodfg");
    attr_str(x, "\t", "iodfg:generator", x->src->generator ? x->src->generator : "iodfg");
    attr_str(x, "\t", "iodfg:timestamps",
             "Each event is one system call: time:timestamp and start_timestamp are when it "
             "started (the order of the Directly-Follows Graph), end_timestamp when it returned "
             "(absent when the duration was not recorded), duration in seconds.");
    const char *note = xchg_clock_note(x);
    if (*note) {
        attr_str(x, "\t", "iodfg:clocks", note);
    }
    return 0;
}

static int xes_trace_begin(struct xchg *x)
{
    const struct iodfg_case_info *ci = iodfg_eventlog_case(x->src->log, x->c);
    xchg_add(x, "\t<trace>\n");
    attr_str(x, "\t\t", "concept:name", xchg_trace_name(x));
    attr_str(x, "\t\t", "cid", xchg_str(x, ci->cid));
    attr_str(x, "\t\t", "host", xchg_str(x, ci->host));
    attr_str(x, "\t\t", "rid", xchg_str(x, ci->rid));
    attr_str(x, "\t\t", "clock", iodfg_clock_name(ci->clock));
    if (*xchg_group(x, x->c)) {
        attr_str(x, "\t\t", "group", xchg_group(x, x->c));
    }
    return 0;
}

static int xes_event(struct xchg *x, uint64_t e, uint32_t activity)
{
    const struct iodfg_columns *col = x->col;
    const struct iodfg_key *k = &x->keys[col->key[e]];
    int64_t start = col->start_ns[e];
    int64_t dur = col->dur_ns ? col->dur_ns[e] : IODFG_UNKNOWN;
    xchg_add(x, "\t\t<event>\n");
    attr_str(x, "\t\t\t", "concept:name", xchg_activity(x, activity));
    attr_str(x, "\t\t\t", "lifecycle:transition", "complete");
    attr_date(x, "time:timestamp", start);
    attr_date(x, "start_timestamp", start);
    if (dur != IODFG_UNKNOWN) {
        attr_date(x, "end_timestamp", start + dur);
        xchg_add(x, "\t\t\t<float key=\"duration\" value=\"");
        iodfg_interchange_seconds(&x->out, dur, x->digits);
        xchg_add(x, "\"/>\n");
    } else {
        x->tot->unknown_dur++;
    }
    attr_str(x, "\t\t\t", "call", xchg_str(x, k->call));
    attr_str(x, "\t\t\t", "path", xchg_str(x, k->path));
    attr_int(x, "bytes", col->size ? col->size[e] : IODFG_UNKNOWN);
    attr_int(x, "pid", col->pid ? col->pid[e] : IODFG_UNKNOWN);
    attr_int(x, "fd", col->fd && col->fd[e] != IODFG_NO_FD ? col->fd[e] : IODFG_UNKNOWN);
    const char *res = col->err ? xchg_str(x, col->err[e]) : "";
    if (*res) {
        attr_str(x, "\t\t\t", "result", res);
    }
    attr_int(x, "offset", col->offset ? col->offset[e] : IODFG_UNKNOWN);
    attr_int(x, "requested", col->req ? col->req[e] : IODFG_UNKNOWN);
    xchg_add(x, "\t\t</event>\n");
    return 0;
}

static int xes_trace_end(struct xchg *x)
{
    xchg_add(x, "\t</trace>\n");
    return 0;
}

static int xes_end(struct xchg *x)
{
    xchg_add(x, "</log>\n");
    return 0;
}

const struct xchg_ops xchg_xes_ops = {
    .begin = xes_begin,
    .trace_begin = xes_trace_begin,
    .event = xes_event,
    .trace_end = xes_trace_end,
    .end = xes_end,
};
