/* SPDX-License-Identifier: MIT */
/* Insights over whole cases, comparing the cases of one run (cid) with each other: I/O time
 * imbalance (the worst case against the median) and stragglers (a case ending late against the
 * median end, among cases of one clock). */
#include "config.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "iodfg/eventlog.h"
#include "iodfg/format.h"
#include "iodfg/strpool.h"

#include "insights_families.h"

struct case_val {
    uint32_t c;
    int64_t v;
};

static int by_val_desc(const void *pa, const void *pb)
{
    const struct case_val *a = pa, *b = pb;
    return a->v > b->v ? -1 : a->v < b->v ? 1 : (a->c > b->c) - (a->c < b->c);
}

// The median of v[0..n) sorted descending (the lower middle for even n).
static int64_t median_desc(const struct case_val *v, size_t n)
{
    return n ? v[n / 2].v : 0;
}

// Cases of v (sorted descending) at or above limit into the evidence, the worst first.
static void outliers(struct iodfg_insight *f, const struct case_val *v, size_t n, int64_t limit)
{
    for (size_t i = 0; i < n && v[i].v >= limit; i++) {
        f->cases_total++;
        if (f->ncases < IODFG_INSIGHT_KEEP) {
            f->cases[f->ncases++] = v[i].c;
        }
    }
}

// Name the finding after the run (cid) whose cases were compared.
static int run_subject(struct ins_ctx *x, struct iodfg_insight *f, uint32_t c)
{
    const struct iodfg_strpool *pool = iodfg_eventlog_pool(x->log);
    uint32_t cid = iodfg_eventlog_case(x->log, c)->cid;
    f->subject_kind = IODFG_SUBJ_RUN;
    return ins_intern(x, iodfg_strpool_get(pool, cid), iodfg_strpool_len(pool, cid), &f->subject);
}

static int judge_imbalance(struct ins_ctx *x, const uint32_t *cases, size_t ncases,
                           struct case_val *v)
{
    size_t n = 0;
    for (size_t i = 0; i < ncases; i++) {
        v[n++] = (struct case_val){cases[i], x->case_set[cases[i]].dur_ns};
    }
    if (n < x->t->imbalance_cases) {
        return 0;
    }
    qsort(v, n, sizeof(*v), by_val_desc);
    int64_t med = median_desc(v, n), max = v[0].v;
    double ratio = med > 0 ? (double)max / (double)med : NAN;
    if (!(ratio >= x->t->imbalance_ratio) || (double)(max - med) < x->t->imbalance_min_s * 1e9) {
        return 0;
    }
    struct iodfg_insight *f = ins_new(x, IODFG_INS_IMBALANCE, 0);
    if (!f || run_subject(x, f, v[0].c)) {
        return -1;
    }
    // the share of the worst case's I/O time that the median case does not need
    ins_impact(x, f, (double)(max - med) / (double)max);
    f->time_ns = NAN;
    outliers(f, v, n, (int64_t)(x->t->imbalance_ratio * (double)med));
    const struct ins_set *w = &x->case_set[v[0].c];
    f->has_window = !w->mixed_clocks;
    f->clock = w->clock;
    f->from_ns = w->first_ns;
    f->to_ns = w->last_ns;
    char a[2][IODFG_FORMAT_MIN];
    iodfg_format_duration(a[0], sizeof(a[0]), max, 0);
    iodfg_format_duration(a[1], sizeof(a[1]), med, 0);
    ins_text(f,
             "the worst case spends %s in calls, %.1f times the median of %s over %zu cases; "
             "%u case(s) at %.1f times the median or more",
             a[0], ratio, a[1], n, f->cases_total, x->t->imbalance_ratio);
    ins_num(f, "worst_ns", (double)max);
    ins_num(f, "median_ns", (double)med);
    ins_num(f, "ratio", ratio);
    ins_num(f, "cases", (double)n);
    ins_num(f, "cases_over", f->cases_total);
    return 0;
}

// The clock most selected cases use (cases of other clocks cannot be compared in time).
static int main_clock(const struct ins_ctx *x)
{
    uint32_t count[IODFG_CLOCK__N] = {0}, nc = iodfg_eventlog_case_count(x->log);
    for (uint32_t c = 0; c < nc; c++) {
        if (x->case_set[c].n) {
            count[iodfg_eventlog_case(x->log, c)->clock]++;
        }
    }
    int best = 0;
    for (int k = 1; k < IODFG_CLOCK__N; k++) {
        best = count[k] > count[best] ? k : best;
    }
    return best;
}

static int judge_straggler(struct ins_ctx *x, int clock, const uint32_t *cases, size_t ncases,
                           struct case_val *ends, struct case_val *spans)
{
    size_t n = 0;
    for (size_t i = 0; i < ncases; i++) {
        uint32_t c = cases[i];
        const struct ins_set *s = &x->case_set[c];
        if ((int)iodfg_eventlog_case(x->log, c)->clock == clock) {
            ends[n] = (struct case_val){c, s->last_ns};
            spans[n++] = (struct case_val){c, s->last_ns - s->first_ns};
        }
    }
    if (n < x->t->imbalance_cases) {
        return 0;
    }
    qsort(ends, n, sizeof(*ends), by_val_desc);
    qsort(spans, n, sizeof(*spans), by_val_desc);
    int64_t med_end = median_desc(ends, n), med_span = median_desc(spans, n);
    int64_t late = ends[0].v - med_end;
    if ((double)late < x->t->straggler_share * (double)med_span ||
        (double)late < x->t->imbalance_min_s * 1e9 || late <= 0) {
        return 0;
    }
    struct iodfg_insight *f = ins_new(x, IODFG_INS_STRAGGLER, 0);
    if (!f || run_subject(x, f, ends[0].c)) {
        return -1;
    }
    // the share of the last case's span spent after the median case had finished
    const struct ins_set *w = &x->case_set[ends[0].c];
    int64_t span = w->last_ns - w->first_ns;
    ins_impact(x, f, span > 0 ? fmin(1.0, (double)late / (double)span) : NAN);
    f->time_ns = NAN;
    outliers(f, ends, n, med_end + (int64_t)(x->t->straggler_share * (double)med_span));
    f->has_window = 1;
    f->clock = clock;
    f->from_ns = med_end;
    f->to_ns = ends[0].v;
    char a[2][IODFG_FORMAT_MIN];
    iodfg_format_duration(a[0], sizeof(a[0]), late, 0);
    iodfg_format_duration(a[1], sizeof(a[1]), med_span, 0);
    ins_text(f, "the last case ends %s after the median end of %zu cases (median span %s)", a[0], n,
             a[1]);
    ins_num(f, "late_ns", (double)late);
    ins_num(f, "median_span_ns", (double)med_span);
    ins_num(f, "cases", (double)n);
    ins_num(f, "cases_late", f->cases_total);
    return 0;
}

struct case_cid {
    uint32_t cid, c;
};

static int by_cid(const void *pa, const void *pb)
{
    const struct case_cid *a = pa, *b = pb;
    return a->cid != b->cid ? (a->cid < b->cid ? -1 : 1) : (a->c > b->c) - (a->c < b->c);
}

// The selected cases with events, grouped by run (cid): ids into cases[], runs by cid order.
static size_t cases_by_run(const struct ins_ctx *x, struct case_cid *cc, uint32_t *cases)
{
    uint32_t nc = iodfg_eventlog_case_count(x->log);
    size_t n = 0;
    for (uint32_t c = 0; c < nc; c++) {
        if (x->case_set[c].n) {
            cc[n++] = (struct case_cid){iodfg_eventlog_case(x->log, c)->cid, c};
        }
    }
    qsort(cc, n, sizeof(*cc), by_cid);
    for (size_t i = 0; i < n; i++) {
        cases[i] = cc[i].c;
    }
    return n;
}

int ins_scan_cases(struct ins_ctx *x)
{
    uint32_t nc = iodfg_eventlog_case_count(x->log);
    struct case_val *a = malloc(((size_t)nc + 1) * sizeof(*a));
    struct case_val *b = malloc(((size_t)nc + 1) * sizeof(*b));
    struct case_cid *cc = malloc(((size_t)nc + 1) * sizeof(*cc));
    uint32_t *cases = malloc(((size_t)nc + 1) * sizeof(*cases));
    int rc = -1, clock = main_clock(x);
    if (a && b && cc && cases) {
        size_t n = cases_by_run(x, cc, cases);
        rc = 0;
        if (clock == IODFG_CLOCK_NONE && x->on[IODFG_INS_STRAGGLER] && n) {
            x->ins->unjudged[IODFG_INS_STRAGGLER] = "the traces have no timestamps";
        }
        for (size_t i = 0; rc == 0 && i < n;) { // cases of one run are compared with each other
            size_t j = i;
            while (j < n && cc[j].cid == cc[i].cid) {
                j++;
            }
            rc = (x->on[IODFG_INS_IMBALANCE] && judge_imbalance(x, cases + i, j - i, a)) ||
                         (x->on[IODFG_INS_STRAGGLER] && clock != IODFG_CLOCK_NONE &&
                          judge_straggler(x, clock, cases + i, j - i, a, b))
                     ? -1
                     : 0;
            i = j;
        }
    }
    free(a);
    free(b);
    free(cc);
    free(cases);
    return rc;
}
