/* SPDX-License-Identifier: MIT */
/* Insights' call-site evidence: "small transfers ... write_header at callsites.c:22 (200 calls)".
 * A log with strace -k stacks has its keys split by call site (callsites.c), so one pass over the
 * selected events tallies each finding's activity by its keys' sites, and each site by the call
 * (frame) that issued its events, whose file:line a front-end looks up. */
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

/* Calls of a site told apart (one frame per call instruction); more count as "more". */
#define TOP_FRAMES 4

/* One site of one activity. */
struct tally {
    uint32_t act, site; // site: string id of the log's pool
    uint64_t calls;
    int64_t dur_ns;
    uint32_t fr[TOP_FRAMES], nfr, more; // the site's frames (calls) seen, with their events
    uint64_t fcalls[TOP_FRAMES];
};

static void add_frame(struct tally *t, uint32_t f)
{
    uint32_t i = 0;
    while (i < t->nfr && t->fr[i] != f) {
        i++;
    }
    if (i == t->nfr && i == TOP_FRAMES) {
        t->more = 1;
        return;
    }
    if (i == t->nfr) {
        t->fr[t->nfr++] = f;
    }
    t->fcalls[i]++;
}

/* The frame of the call with the most events of t, 0 when none is known. */
static uint32_t top_frame(const struct tally *t)
{
    uint32_t best = 0;
    for (uint32_t i = 1; i < t->nfr; i++) {
        best = t->fcalls[i] > t->fcalls[best] ? i : best;
    }
    return t->nfr ? t->fr[best] : 0;
}

/* The frame of stack s that is site (the innermost whose function it is), memoised in memo
 * (UINT32_MAX: not yet); 0 when none is (a site named object+0xADDRESS, no stack). */
static uint32_t site_frame(const struct iodfg_stacks *st, uint32_t *memo, uint32_t s, uint32_t site)
{
    if (s == 0 || site == IODFG_STR_EMPTY || s > iodfg_stacks_count(st)) {
        return 0;
    }
    if (memo[s] == UINT32_MAX) {
        uint32_t n;
        const uint32_t *ids = iodfg_stacks_get(st, s, &n);
        const struct iodfg_frame *fr = iodfg_stacks_frames(st);
        memo[s] = 0;
        for (uint32_t i = 0; i < n && !memo[s]; i++) {
            const struct iodfg_frame *x = &fr[ids[i] - 1];
            memo[s] = !(x->flags & IODFG_FRAME_ERROR) && x->function == site ? ids[i] : 0;
        }
    }
    return memo[s];
}

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
static uint32_t *slots(const struct iodfg_eventlog *log, const struct iodfg_mapping *map,
                       const uint8_t *want, struct tally *t, size_t *n)
{
    uint32_t nk = iodfg_eventlog_key_count(log);
    const struct iodfg_key *keys = iodfg_eventlog_keys(log);
    uint32_t *slot = malloc(((size_t)nk + 1) * sizeof(*slot));
    *n = 0;
    for (uint32_t k = 0; slot && k < nk; k++) { // few keys: a linear search
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
            t[(*n)++] = (struct tally){.act = a, .site = keys[k].site};
        }
        slot[k] = (uint32_t)i;
    }
    return slot;
}

static struct tally *count(const struct iodfg_eventlog *log, const struct iodfg_mapping *map,
                           const struct iodfg_selection *sel, const uint8_t *want, size_t *n)
{
    const struct iodfg_stacks *st = iodfg_eventlog_stacks(log);
    const struct iodfg_columns *col = iodfg_eventlog_columns(log);
    const uint32_t *stack = iodfg_eventlog_stack_ids(log);
    const uint64_t *off = iodfg_eventlog_case_offsets(log);
    struct tally *t = calloc((size_t)iodfg_eventlog_key_count(log) + 1, sizeof(*t));
    uint32_t *memo = malloc(((size_t)iodfg_stacks_count(st) + 1) * sizeof(*memo));
    uint32_t *slot = t && memo ? slots(log, map, want, t, n) : NULL;
    if (!slot) {
        free(t);
        free(memo);
        return NULL;
    }
    memset(memo, 0xff, ((size_t)iodfg_stacks_count(st) + 1) * sizeof(*memo));
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
            uint32_t f = stack ? site_frame(st, memo, stack[e], t[i].site) : 0;
            if (f) {
                add_frame(&t[i], f);
            }
        }
    }
    free(slot);
    free(memo);
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
                f->site_frame[f->nsites] = top_frame(&t[k]);
                f->site_frames[f->nsites] = t[k].nfr + t[k].more;
                f->site_file[f->nsites] = IODFG_STR_EMPTY;
                f->site_line[f->nsites] = 0;
                rc = iodfg_strpool_intern(ins->pool, iodfg_strpool_get(lp, t[k].site),
                                          iodfg_strpool_len(lp, t[k].site), &f->sites[f->nsites++]);
            }
        }
    }
    free(t);
    return rc ? iodfg_error_set(err, IODFG_E_NOMEM, NULL) : 0;
}

int iodfg_insights_site_lines(struct iodfg_insights *ins, iodfg_frame_line_fn line_of, void *ctx,
                              struct iodfg_error *err)
{
    for (size_t i = 0; i < ins->n; i++) {
        struct iodfg_insight *f = &ins->v[i];
        for (uint32_t k = 0; k < f->nsites; k++) {
            const char *file = NULL;
            int line = 0;
            if (!f->site_frame[k] || !line_of(ctx, f->site_frame[k], &file, &line) || !file ||
                line <= 0) {
                continue; // unknown: the function alone names it
            }
            if (iodfg_strpool_intern(ins->pool, file, strlen(file), &f->site_file[k])) {
                return iodfg_error_set(err, IODFG_E_NOMEM, NULL);
            }
            f->site_line[k] = line;
        }
    }
    return 0;
}
