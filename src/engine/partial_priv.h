/* SPDX-License-Identifier: MIT */
/* Partial results (iodfg/partial.h): what the walks over a session's selection read. */
#ifndef IODFG_ENGINE_PARTIAL_PRIV_H
#define IODFG_ENGINE_PARTIAL_PRIV_H

#include <stdint.h>

#include "iodfg/analysis.h"
#include "iodfg/eventlog.h"
#include "iodfg/session.h"

struct part {
    const struct iodfg_eventlog *log;
    const struct iodfg_selection *sel;
    const uint32_t *act; /* activity of each key */
    const struct iodfg_columns *col;
};

static inline struct part part_of(const struct iodfg_session *s)
{
    const struct iodfg_analysis *an = iodfg_session_analysis(s);
    const struct iodfg_eventlog *log = iodfg_session_log(s);
    struct part p = {log, iodfg_analysis_selection(an), iodfg_analysis_activities(an),
                     iodfg_eventlog_columns(log)};
    return p;
}

#endif
