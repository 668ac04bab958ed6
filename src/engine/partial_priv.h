/* SPDX-License-Identifier: MIT */
/* Partial results (iodfg/partial.h): what the walks over a session's selection read. */
#ifndef IODFG_ENGINE_PARTIAL_PRIV_H
#define IODFG_ENGINE_PARTIAL_PRIV_H

#include <stdint.h>

#include "iodfg/analysis.h"
#include "iodfg/eventlog.h"
#include "iodfg/partial.h"
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

/* ---- the percentiles' cuts (iodfg_partial_cut), inline for the walks over values ---- */

/* Values v as offsets u = v ^ IODFG_CUT_SIGN, which order like v as unsigned. */
#define IODFG_CUT_SIGN ((uint64_t)1 << 63)

/* A power of two and the 3 bits below it of x: monotone, 0..495; small x (< 8) exactly. */
static inline uint32_t iodfg_cut_log_of(uint64_t x)
{
    if (x < 8) {
        return (uint32_t)x;
    }
    int e = 63 - __builtin_clzll(x);
    return (uint32_t)(8 * (e - 2)) + (uint32_t)((x >> (e - 3)) & 7);
}

/* The first cut's bucket of v: negative values below 512 (larger magnitudes lower), others from
 * 512 on. */
static inline uint32_t iodfg_cut_log_bucket(int64_t v)
{
    return v >= 0 ? 512 + iodfg_cut_log_of((uint64_t)v) : 511 - iodfg_cut_log_of(~(uint64_t)v);
}

static inline uint32_t iodfg_cut_bucket(const struct iodfg_partial_cut *c, int64_t v)
{
    return c->log ? iodfg_cut_log_bucket(v)
                  : (uint32_t)((((uint64_t)v ^ IODFG_CUT_SIGN) - c->lo) >> c->shift);
}

static inline int iodfg_cut_holds(const struct iodfg_partial_cut *c, int64_t v)
{
    uint64_t u = (uint64_t)v ^ IODFG_CUT_SIGN;
    return u >= c->lo && u <= c->hi;
}

#endif
