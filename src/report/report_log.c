/* SPDX-License-Identifier: MIT */
/* What an event log holds, as info reports it (report.h): events, calls, paths, time spans per
 * clock, the counts of skipped lines, file paths by scope. */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "iodfg/report.h"
#include "iodfg/strpool.h"

static int cmp_calls(const void *a, const void *b)
{
    const struct iodfg_report_call *x = a, *y = b;
    if (x->n != y->n) {
        return x->n > y->n ? -1 : 1;
    }
    return x->call < y->call ? -1 : x->call > y->call;
}

/* Events per key, and per clock the earliest start and latest end, case by case. */
static void scan_cases(const struct iodfg_eventlog *log, struct iodfg_log_summary *s,
                       uint64_t *per_key)
{
    const struct iodfg_columns *c = iodfg_eventlog_columns(log);
    const uint64_t *off = iodfg_eventlog_case_offsets(log);
    for (uint32_t cs = 0; cs < iodfg_eventlog_case_count(log); cs++) {
        const struct iodfg_case_info *ci = iodfg_eventlog_case(log, cs);
        for (int k = 0; k < IODFG_COUNT__N; k++) {
            s->counts[k] += ci->counts[k];
        }
        unsigned ck = (unsigned)ci->clock % IODFG_CLOCK__N;
        if (off[cs] == off[cs + 1]) {
            continue;
        }
        // A case's rows are sorted by start: its first row starts first.
        int64_t first = c->start_ns[off[cs]], last = INT64_MIN;
        uint64_t no_dur = 0;
        for (uint64_t i = off[cs]; i < off[cs + 1]; i++) {
            per_key[c->key[i]]++;
            int64_t d = c->dur_ns[i];
            int unknown = d == IODFG_UNKNOWN;
            no_dur += (uint64_t)unknown;
            int64_t end = c->start_ns[i] + (unknown ? 0 : d);
            last = end > last ? end : last;
        }
        s->no_dur += no_dur;
        s->first[ck] = !s->have[ck] || first < s->first[ck] ? first : s->first[ck];
        s->last[ck] = !s->have[ck] || last > s->last[ck] ? last : s->last[ck];
        s->have[ck] = 1;
    }
}

/* Calls by their events, distinct paths, and file keys by scope. */
static int count_keys(const struct iodfg_eventlog *log, struct iodfg_log_summary *s,
                      const uint64_t *per_key, uint64_t *per_call, uint8_t *path_seen)
{
    const struct iodfg_key *keys = iodfg_eventlog_keys(log);
    uint32_t nstr = iodfg_strpool_count(iodfg_eventlog_pool(log));
    for (uint32_t k = 0; k < iodfg_eventlog_key_count(log); k++) {
        if (keys[k].kind == IODFG_PATH_FILE && keys[k].scope < IODFG_SCOPE__N) {
            s->by_scope[keys[k].scope]++;
        }
        if (!per_key[k]) {
            continue;
        }
        if (!per_call[keys[k].call]) {
            s->ncalls++;
        }
        per_call[keys[k].call] += per_key[k];
        if (keys[k].path != IODFG_STR_EMPTY && !path_seen[keys[k].path]) {
            path_seen[keys[k].path] = 1;
            s->npaths++;
        }
    }
    s->calls = calloc((size_t)s->ncalls + 1, sizeof(*s->calls));
    if (!s->calls) {
        return -1;
    }
    uint32_t n = 0;
    for (uint32_t id = 0; id < nstr; id++) {
        if (per_call[id]) {
            s->calls[n].call = id;
            s->calls[n++].n = per_call[id];
        }
    }
    qsort(s->calls, n, sizeof(*s->calls), cmp_calls);
    return 0;
}

int iodfg_log_summary_build(struct iodfg_log_summary *s, const struct iodfg_eventlog *log)
{
    memset(s, 0, sizeof(*s));
    uint32_t nstr = iodfg_strpool_count(iodfg_eventlog_pool(log));
    uint64_t *per_key = calloc((size_t)iodfg_eventlog_key_count(log) + 1, sizeof(*per_key));
    uint64_t *per_call = calloc((size_t)nstr + 1, sizeof(*per_call));
    uint8_t *path_seen = calloc((size_t)nstr + 1, 1);
    int rc = -1;
    if (per_key && per_call && path_seen) {
        scan_cases(log, s, per_key);
        s->events = iodfg_eventlog_event_count(log);
        rc = count_keys(log, s, per_key, per_call, path_seen);
    }
    free(per_key);
    free(per_call);
    free(path_seen);
    return rc;
}

void iodfg_log_summary_fini(struct iodfg_log_summary *s)
{
    free(s->calls);
    memset(s, 0, sizeof(*s));
}
