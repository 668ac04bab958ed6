/* SPDX-License-Identifier: MIT */
/* Insights' call-site evidence: "small transfers ... from write_header (200 calls)". A log with
 * strace -k stacks has its keys split by call site (callsites.c), so one pass over the selected
 * events tallies each finding's activity by its keys' sites. */
#include "config.h"

#include "insights_sites.h"

#include <stdlib.h>
#include <string.h>

#include "iodfg/error.h"
#include "iodfg/eventlog.h"
#include "iodfg/insights.h"
#include "iodfg/mapping.h"
#include "iodfg/stacks.h"
#include "iodfg/strpool.h"

/* One site of one activity. */
struct tally {
    uint32_t act, site; // site: string id of the log's pool
    uint64_t calls;
    int64_t dur_ns;
};

static int cmp_tally(const void *a, const void *b)
{
    const struct tally *x = a, *y = b;
    if (x->act != y->act) {
        return x->act < y->act ? -1 : 1;
    }
    if (x->dur_ns != y->dur_ns) {
        return x->dur_ns > y->dur_ns ? -1 : 1;
    }
    return x->calls > y->calls ? -1 : x->calls < y->calls;
}

/* Per key: its activity's slot in want (UINT32_MAX: not a finding's), then a tally per
 * (activity, site) pair, found by key: keys of one site and activity share it. */
static struct tally *count(const struct iodfg_eventlog *log, const struct iodfg_mapping *map,
                           const struct iodfg_selection *sel, const uint8_t *want, size_t *n)
{
    uint32_t nk = iodfg_eventlog_key_count(log);
    const struct iodfg_key *keys = iodfg_eventlog_keys(log);
    const struct iodfg_columns *col = iodfg_eventlog_columns(log);
    const uint64_t *off = iodfg_eventlog_case_offsets(log);
    uint32_t *slot = malloc(((size_t)nk + 1) * sizeof(*slot));
    struct tally *t = calloc((size_t)nk + 1, sizeof(*t));
    if (!slot || !t) {
        free(slot);
        free(t);
        return NULL;
    }
    *n = 0;
    for (uint32_t k = 0; k < nk; k++) { // a slot per (activity, site): few keys, a linear search
        uint32_t a = map->activity_of_key[k];
        slot[k] = UINT32_MAX;
        if (a == IODFG_NO_ACTIVITY || !want[a]) {
            continue;
        }
        size_t i = 0;
        while (i < *n && !(t[i].act == a && t[i].site == keys[k].site)) {
            i++;
        }
        if (i == *n) {
            t[(*n)++] = (struct tally){a, keys[k].site, 0, 0};
        }
        slot[k] = (uint32_t)i;
    }
    for (uint32_t c = 0; c < iodfg_eventlog_case_count(log); c++) {
        for (uint64_t e = off[c]; (!sel->case_on || sel->case_on[c]) && e < off[c + 1]; e++) {
            int64_t s = col->start_ns ? col->start_ns[e] : 0;
            uint32_t i = slot[col->key[e]];
            if (i == UINT32_MAX || s < sel->from_ns || s >= sel->to_ns) {
                continue;
            }
            int64_t d = col->dur_ns ? col->dur_ns[e] : IODFG_UNKNOWN;
            t[i].calls++;
            t[i].dur_ns = iodfg_sat_add(t[i].dur_ns, d > 0 ? d : 0);
        }
    }
    free(slot);
    qsort(t, *n, sizeof(*t), cmp_tally);
    return t;
}

int ins_add_sites(struct iodfg_insights *ins, const struct iodfg_eventlog *log,
                  const struct iodfg_mapping *map, const struct iodfg_selection *sel,
                  struct iodfg_error *err)
{
    if (!iodfg_eventlog_stacks(log) || !iodfg_eventlog_columns(log)->key || ins->n == 0) {
        return 0;
    }
    uint8_t *want = calloc((size_t)map->nactivities + 1, 1);
    if (!want) {
        return iodfg_error_set(err, IODFG_E_NOMEM, NULL);
    }
    for (size_t i = 0; i < ins->n; i++) {
        const struct iodfg_insight *f = &ins->v[i];
        if (f->subject_kind == IODFG_SUBJ_ACTIVITY && f->subject < map->nactivities) {
            want[f->subject] = 1;
        }
    }
    size_t n = 0;
    struct tally *t = count(log, map, sel, want, &n);
    free(want);
    if (!t || (!ins->pool && !(ins->pool = iodfg_strpool_new()))) {
        free(t);
        return iodfg_error_set(err, IODFG_E_NOMEM, NULL);
    }
    const struct iodfg_strpool *lp = iodfg_eventlog_pool(log);
    int rc = 0;
    for (size_t i = 0; rc == 0 && i < ins->n; i++) {
        struct iodfg_insight *f = &ins->v[i];
        for (size_t k = 0; rc == 0 && f->subject_kind == IODFG_SUBJ_ACTIVITY && k < n; k++) {
            if (t[k].act != f->subject || t[k].site == IODFG_STR_EMPTY || t[k].calls == 0) {
                continue; // events without a site of the program are not evidence of one
            }
            f->sites_total++;
            if (f->nsites < IODFG_INSIGHT_KEEP) {
                f->site_calls[f->nsites] = t[k].calls;
                rc = iodfg_strpool_intern(ins->pool, iodfg_strpool_get(lp, t[k].site),
                                          iodfg_strpool_len(lp, t[k].site), &f->sites[f->nsites++]);
            }
        }
    }
    free(t);
    return rc ? iodfg_error_set(err, IODFG_E_NOMEM, NULL) : 0;
}
