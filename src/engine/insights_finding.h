/* SPDX-License-Identifier: MIT */
/* What the rule families of insights share: the build's context, sets of evidence events, and
 * the helpers that fill a finding. The leaf of the insights files: it calls none of them. */
#ifndef IODFG_ENGINE_INSIGHTS_FINDING_H
#define IODFG_ENGINE_INSIGHTS_FINDING_H

#include <stddef.h>
#include <stdint.h>

#include "iodfg/insights.h"

struct iodfg_eventlog;
struct iodfg_mapping;
struct iodfg_selection;

/* A set of events with the evidence a finding needs: count, time, window, the first cases. */
struct ins_set {
    uint64_t n;
    int64_t dur_ns, bytes;
    int64_t first_ns, last_ns;
    int clock, mixed_clocks; /* clock of the first event; 1 once another clock joined */
    uint32_t cases[IODFG_INSIGHT_KEEP], ncases, cases_total;
    uint32_t last_case1; /* the last case + 1 (0: none yet) */
};
/* Add the event [start, start + dur) of case c (cases must come in ascending order). */
void ins_set_add(struct ins_set *s, const struct iodfg_eventlog *log, uint32_t c, int64_t start,
                 int64_t dur, int64_t bytes);

/* What a build shares between the rule families. */
struct ins_ctx {
    struct iodfg_insights *ins;
    const struct iodfg_eventlog *log;
    const struct iodfg_mapping *map;
    const struct iodfg_selection *sel;
    const struct iodfg_insight_thresholds *t;
    const uint8_t *on;           /* rules enabled */
    uint8_t *kflags;             /* per key: iodfg_metrics_call_flags */
    struct ins_set *act_set;     /* per activity: every selected event */
    struct ins_set *case_set;    /* per case: every selected event */
    int first_clock;             /* clock of the first selected case */
    struct iodfg_insight *found; /* findings before ranking */
    size_t nfound, capfound;
    uint32_t fclass;      /* the focus class of this pass (0 when not split) */
    uint64_t pass_events; /* the selected events of this pass */
};

/* A new finding of rule r (zeroed but for rule and impact), or NULL when out of memory. */
struct iodfg_insight *ins_new(struct ins_ctx *x, enum iodfg_insight_rule r, double time_ns);
/* Set the impact (a share, 0..1, or NAN) and the severity that follows from it. */
void ins_impact(const struct ins_ctx *x, struct iodfg_insight *f, double impact);
/* Append a number (ignored past IODFG_INSIGHT_NUMBERS). */
void ins_num(struct iodfg_insight *f, const char *name, double value);
/* printf the finding's text. */
void ins_text(struct iodfg_insight *f, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* Copy a set's cases and window into the finding's evidence. */
void ins_evidence(struct iodfg_insight *f, const struct ins_set *s);
void ins_add_act(struct iodfg_insight *f, uint32_t a);
/* Add a path (or another string) to the evidence, interning it in the insights' pool. */
int ins_add_path(struct ins_ctx *x, struct iodfg_insight *f, const char *s, size_t len);
/* The string id of s in the insights' pool (interned); -1 when out of memory. */
int ins_intern(struct ins_ctx *x, const char *s, size_t len, uint32_t *id);
/* Whether key k names a regular file: a file path outside /dev (pipes, sockets, terminals and
 * devices have no offsets or sizes worth judging). */
int ins_key_is_file(const struct iodfg_eventlog *log, uint32_t k);
/* The selected event range of case c, 0 when it has none. */
int ins_case_range(const struct ins_ctx *x, uint32_t c, uint64_t *lo, uint64_t *hi);

#endif
