/* SPDX-License-Identifier: MIT */
/* What the columns and figures of the views mean, for the help view: the same definitions as
 * iodfg(1) and doc/metrics.md, so nobody has to leave the terminal to read a table. */
#include "config.h"

#include "tui/views/glossary.h"

#include <string.h>

#include "iodfg/buf.h"
#include "iodfg/glyph.h"

#include "tui/utf8.h"

/* Term, then its meaning; a NULL term starts a heading. */
static const struct {
    const char *term, *meaning;
} entries[] = {
    {NULL, "Columns and figures"},
    {"Count", "events of the activity (or passes of the transition)"},
    {"Cases", "traces (processes, ranks) that contain it"},
    {"Σdur", "total duration of its calls"},
    {"rd%", "relative duration: its Σdur over the Σdur of all activities"},
    {"Bytes", "bytes transferred (results of reads and writes)"},
    {"dr̄", "mean process data rate: bytes over duration, averaged per case"},
    {"mc", "maximum concurrency: most calls of it in flight at one time"},
    {"DR", "mc × dr̄, an estimate of the aggregate data rate"},
    {"Load", "rd% (and its bytes) in the detail line and the graph"},
    {"p50 p95", "duration percentiles (nearest rank)"},
    {"gap", "from the end of one event to the start of the next"},
    {"G+ R+ =", "only in group G, only in R, in both (Diff, G/R column)"},
    {"g r", "a case compared as \"every other case\" (the group was not given)"},
    {"Severity", "of a finding (Insights): high, medium, low; info: not told"},
    {"Impact", "share of the call time a finding covers (doc/insights.md)"},
    {"changed", "a finding of both G and R, with another severity in each"},
    {"Span", "first event's start to last event's end of a case"},
    {"peak", "the timeline's highest concurrency and when it occurs"},
    {"stair-case", "serialisation index: the share of busy time calls spent queued behind"},
    {"", "the previous completion (Wright et al. 2013); 0 parallel, 1 serial"},
    {"Call site", "innermost frame of the program's own code in a call's stack"},
    {"File:line", "of a call site, from debug information (? unknown; strace -k)"},
    {"inferred", "a figure derived without the call that shows it (offsets without lseek)"},
    {"–", "unknown or undefined (no duration, no bytes, zero time)"},
};

int tui_glossary(struct iodfg_buf *out)
{
    for (size_t i = 0; i < sizeof(entries) / sizeof(entries[0]); i++) {
        if (!entries[i].term) {
            iodfg_buf_addf(out, "\n%s\n", entries[i].meaning);
            continue;
        }
        const char *term = iodfg_glyph_text(entries[i].term);
        int cols = (int)tui_utf8_width(term, strlen(term));
        iodfg_buf_addf(out, "  %s%*s%s\n", term, cols < 13 ? 13 - cols : 1, "",
                       iodfg_glyph_text(entries[i].meaning));
    }
    return out->failed ? -1 : 0;
}
