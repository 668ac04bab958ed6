/* SPDX-License-Identifier: MIT */
/* The maximum concurrency of parts: a session's interval boundaries read in place from its
 * timeline; per bucket of the sweep's order each part's net change, rise and starts per activity
 * (they add up to exact counts at the buckets' starts and bounds of the counts inside); which
 * pairs of bucket and activity must be swept; and the sweep of sorted runs in their merged order
 * with the count of each pair carried in. doc/mpi.md says why it is exact. */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "iodfg/analysis.h"
#include "iodfg/bigmem.h"
#include "iodfg/error.h"
#include "iodfg/eventlog.h"
#include "iodfg/mapping.h"
#include "iodfg/partial.h"
#include "iodfg/session.h"
#include "iodfg/timeline.h"
#include "iodfg/trace.h"

#include "analysis_priv.h"
#include "partial_priv.h"

/* ---- the session's points, read in place from its timeline ---- */

/* Per event of the log: its case's clock into v->clk when the cases have more than one (else
 * v->clock is every event's); and, when the session wrote no activity codes, its activity when
 * the selection keeps it (else IODFG_NO_ACTIVITY) into v->pact: the passes over the points then
 * read one array per point, not the key and its activity. 0, or -1 (memory). */
static int event_tags(const struct part *pa, struct iodfg_partial_view *v)
{
    uint64_t n = iodfg_eventlog_event_count(pa->log);
    uint32_t nc = iodfg_eventlog_case_count(pa->log);
    const uint64_t *off = iodfg_eventlog_case_offsets(pa->log);
    int one_clock = 1;
    v->clock = nc ? (uint8_t)iodfg_eventlog_case(pa->log, 0)->clock : 0;
    for (uint32_t c = 1; c < nc; c++) {
        one_clock &= (uint8_t)iodfg_eventlog_case(pa->log, c)->clock == v->clock;
    }
    v->clk = one_clock ? NULL : iodfg_bigmem_alloc((size_t)n + 1);
    v->pact = v->code ? NULL : iodfg_bigmem_alloc(((size_t)n + 1) * sizeof(*v->pact));
    if ((!one_clock && !v->clk) || (!v->code && !v->pact)) {
        return -1;
    }
    const uint32_t *key = pa->col->key;
    for (uint32_t c = 0; c < nc; c++) {
        uint8_t clock = (uint8_t)iodfg_eventlog_case(pa->log, c)->clock;
        uint64_t lo, hi;
        if (v->clk) {
            memset(v->clk + off[c], clock, (size_t)(off[c + 1] - off[c]));
        }
        if (v->code) {
            continue;
        }
        if (!iodfg_trace_case_range(pa->log, pa->sel, c, &lo, &hi)) {
            lo = hi = off[c]; // none selected
        }
        for (uint64_t e = off[c]; e < off[c + 1]; e++) {
            v->pact[e] = e >= lo && e < hi ? pa->act[key[e]] : IODFG_NO_ACTIVITY;
        }
    }
    return 0;
}

/* Event e's activity in the view, IODFG_NO_ACTIVITY when it has none or is not selected. */
static inline uint32_t event_act(const struct iodfg_partial_view *v, uint32_t e)
{
    if (v->code) {
        return iodfg_code_activity(v->code[e]);
    }
    return v->pact[e];
}

int iodfg_partial_view_init(const struct iodfg_session *s, struct iodfg_partial_view *v,
                            struct iodfg_error *err)
{
    struct part pa = part_of(s);
    // the session's timeline is already in the sweep's order
    const struct iodfg_timeline *tl = iodfg_analysis_timeline(iodfg_session_analysis(s));
    *v = (struct iodfg_partial_view){.ent = tl->pts,
                                     .n = pa.col->dur_ns ? tl->npts : 0,
                                     .code = iodfg_analysis_event_codes(iodfg_session_analysis(s)),
                                     .start_ns = pa.col->start_ns,
                                     .dur_ns = pa.col->dur_ns};
    if (event_tags(&pa, v)) {
        iodfg_partial_view_fini(v);
        return iodfg_error_set(err, IODFG_E_NOMEM, NULL);
    }
    return 0;
}

void iodfg_partial_view_fini(struct iodfg_partial_view *v)
{
    free(v->clk);
    free(v->pact);
    memset(v, 0, sizeof(*v));
}

int iodfg_partial_view_at(const struct iodfg_partial_view *v, uint64_t i,
                          struct iodfg_partial_point *pt)
{
    uint32_t e = v->ent[i] & ~IODFG_PT_START;
    int start = (v->ent[i] & IODFG_PT_START) != 0;
    uint32_t a = event_act(v, e);
    int64_t t = v->start_ns[e] + (start ? 0 : v->dur_ns[e]);
    *pt = (struct iodfg_partial_point){t, a, v->clk ? v->clk[e] : v->clock, (uint8_t)start, 0};
    return a != IODFG_NO_ACTIVITY;
}

/* The first position in [lo, hi) whose place is not below p, or hi. */
static uint64_t lower_in(const struct iodfg_partial_view *v, const struct iodfg_partial_point *p,
                         uint64_t lo, uint64_t hi)
{
    while (lo < hi) {
        uint64_t mid = lo + (hi - lo) / 2;
        struct iodfg_partial_point m;
        iodfg_partial_view_at(v, mid, &m);
        if (iodfg_partial_point_cmp(&m, p) < 0) {
            lo = mid + 1;
        } else {
            hi = mid;
        }
    }
    return lo;
}

uint64_t iodfg_partial_view_lower(const struct iodfg_partial_view *v,
                                  const struct iodfg_partial_point *p)
{
    return lower_in(v, p, 0, v->n);
}

size_t iodfg_partial_view_copy(const struct iodfg_partial_view *v, uint64_t lo, uint64_t hi,
                               struct iodfg_partial_point *out)
{
    size_t k = 0;
    for (uint64_t i = lo; i < hi; i++) {
        k += (size_t)iodfg_partial_view_at(v, i, &out[k]);
    }
    return k;
}

int iodfg_partial_points(const struct iodfg_session *s, struct iodfg_partial_point **pts, size_t *n,
                         struct iodfg_error *err)
{
    struct iodfg_partial_view v;
    if (iodfg_partial_view_init(s, &v, err)) {
        return -1;
    }
    struct iodfg_partial_point *p = iodfg_bigmem_alloc((size_t)(v.n + 1) * sizeof(*p));
    if (p) {
        *n = iodfg_partial_view_copy(&v, 0, v.n, p);
        *pts = p;
    }
    iodfg_partial_view_fini(&v);
    return p ? 0 : iodfg_error_set(err, IODFG_E_NOMEM, NULL);
}

/* a before b in the sweep's order: the one definition of it, inline for the merges. */
static inline int point_before(const struct iodfg_partial_point *a,
                               const struct iodfg_partial_point *b)
{
    return a->clock != b->clock       ? a->clock < b->clock
           : a->time_ns != b->time_ns ? a->time_ns < b->time_ns
                                      : a->start < b->start;
}

int iodfg_partial_point_cmp(const struct iodfg_partial_point *a,
                            const struct iodfg_partial_point *b)
{
    return point_before(a, b) ? -1 : point_before(b, a);
}

/* ---- the buckets' sums and the pairs picked ---- */

/* The activity of the point at position i of the view, IODFG_NO_ACTIVITY when it is not one of
 * the session's points (cheaper than iodfg_partial_view_at: no time is read). */
static inline uint32_t act_at(const struct iodfg_partial_view *v, uint64_t i)
{
    return event_act(v, v->ent[i] & ~IODFG_PT_START);
}

/* Whether bucket b has a pair to sweep (pick NULL: all are swept). */
static int bucket_picked(const uint8_t *pick, uint32_t nact, uint32_t b)
{
    return !pick || memchr(pick + (size_t)b * nact, 1, nact) != NULL;
}

void iodfg_partial_bucket_pos(const struct iodfg_partial_view *v,
                              const struct iodfg_partial_point *split, uint32_t nb,
                              const struct iodfg_partial_point *known, const uint64_t *at,
                              size_t nknown, uint64_t *pos)
{
    pos[0] = 0;
    size_t k = 0; // the first known point not below the splitter: the answer is at or before it
    for (uint32_t b = 1; b < nb; b++) {
        while (k < nknown && iodfg_partial_point_cmp(&known[k], &split[b - 1]) < 0) {
            k++;
        }
        uint64_t lo = k ? at[k - 1] + 1 : 0, hi = k < nknown ? at[k] : v->n;
        lo = lo > pos[b - 1] ? lo : pos[b - 1]; // the splitters are sorted
        if (lo > hi || hi > v->n) {             // known points not of this view: search it all
            lo = pos[b - 1], hi = v->n;
        }
        pos[b] = lower_in(v, &split[b - 1], lo, hi);
    }
    pos[nb] = v->n;
}

/* One pair's running sums in the bucket pass, side by side: a point touches one cache line. */
struct pair_acc {
    int64_t net, rise, starts, fall;
};

/* The running sums of one bucket's pass: its point at i, then the next one, and its pairs. */
struct bucket_run {
    uint64_t i, end;
    struct pair_acc *acc;
};

/* Point i of the view into r's sums (coded: the view has the session's codes), prefetching the
 * activity of the point `ahead` positions on. Branch-free but for the skip: an end lowers net
 * below a rise already reached and a start raises it above a fall, so taking the maximum and the
 * minimum at every point gives the rise of the starts and the fall of the ends. */
static inline __attribute__((always_inline)) void bucket_point(const struct iodfg_partial_view *v,
                                                               struct bucket_run *r, int coded)
{
    enum { AHEAD = 16 };
    uint64_t i = r->i++;
    uint32_t ahead = i + AHEAD < r->end ? v->ent[i + AHEAD] & ~IODFG_PT_START : 0;
    uint32_t p = v->ent[i], e = p & ~IODFG_PT_START, a;
    if (coded) {
        __builtin_prefetch(&v->code[ahead]);
        a = iodfg_code_activity(v->code[e]);
    } else {
        __builtin_prefetch(&v->pact[ahead]);
        a = v->pact[e];
    }
    if (a == IODFG_NO_ACTIVITY) {
        return;
    }
    int64_t start = (p & IODFG_PT_START) != 0;
    struct pair_acc *x = &r->acc[a];
    int64_t net = x->net + 2 * start - 1;
    x->net = net;
    x->starts += start;
    x->rise = net > x->rise ? net : x->rise;
    x->fall = net < x->fall ? net : x->fall;
}

/* The pairs of bucket b, summed in acc, into sums ([k][b][a]), and acc cleared. */
static void bucket_out(struct pair_acc *acc, uint32_t b, uint32_t nb, uint32_t nact, int64_t *sums)
{
    size_t np = (size_t)nb * nact, at = (size_t)b * nact;
    for (uint32_t a = 0; a < nact; a++) {
        const struct pair_acc *x = &acc[a];
        sums[IODFG_PARTIAL_NET * np + at + a] = x->net;
        sums[IODFG_PARTIAL_RISE * np + at + a] = x->rise;
        sums[IODFG_PARTIAL_STARTS * np + at + a] = x->starts;
        sums[IODFG_PARTIAL_FALL * np + at + a] = x->fall;
        sums[IODFG_PARTIAL_PEAK * np + at + a] = x->rise >= 1 ? x->rise - x->fall : INT64_MIN;
    }
    memset(acc, 0, nact * sizeof(*acc));
}

/* The pass of iodfg_partial_bucket_sums, made once per kind of activity array so that the loop
 * tests neither. Four buckets are walked side by side: their points lie apart in the columns,
 * so four lookups miss the cache at once instead of one after the other. acc: room for four
 * buckets' pairs, cleared. */
static inline __attribute__((always_inline)) void bucket_pass(const struct iodfg_partial_view *v,
                                                              const uint64_t *pos, uint32_t nb,
                                                              uint32_t nact, int64_t *sums,
                                                              struct pair_acc *acc, int coded)
{
    enum { WAYS = 4 };
    for (uint32_t b = 0; b < nb; b += WAYS) {
        struct bucket_run r[WAYS];
        uint32_t ways = nb - b < WAYS ? nb - b : WAYS;
        uint64_t common = UINT64_MAX;
        for (uint32_t j = 0; j < ways; j++) {
            r[j] = (struct bucket_run){pos[b + j], pos[b + j + 1], acc + (size_t)j * nact};
            common = r[j].end - r[j].i < common ? r[j].end - r[j].i : common;
        }
        if (ways == WAYS) {
            for (uint64_t k = 0; k < common; k++) {
                bucket_point(v, &r[0], coded);
                bucket_point(v, &r[1], coded);
                bucket_point(v, &r[2], coded);
                bucket_point(v, &r[3], coded);
            }
        }
        for (uint32_t j = 0; j < ways; j++) {
            while (r[j].i < r[j].end) {
                bucket_point(v, &r[j], coded);
            }
            bucket_out(r[j].acc, b + j, nb, nact, sums);
        }
    }
}

int iodfg_partial_bucket_sums(const struct iodfg_partial_view *v, const uint64_t *pos, uint32_t nb,
                              uint32_t nact, int64_t *sums)
{
    struct pair_acc *acc = calloc(4 * (size_t)nact + 1, sizeof(*acc));
    if (!acc) {
        return -1;
    }
    if (v->code) {
        bucket_pass(v, pos, nb, nact, sums, acc, 1);
    } else {
        bucket_pass(v, pos, nb, nact, sums, acc, 0);
    }
    free(acc);
    return 0;
}

/* Activity a's lower bound of the maximum and the first bucket known to reach it: a bucket with
 * a start reaches at least 1 and at least its end count (only ends follow its last start); and
 * just after the start where a part reaches its rise, the count is at least the start count plus
 * that rise plus every other part's fall: the start count, the falls of all and the highest peak
 * (doc/mpi.md). */
static int64_t lower_bound(const int64_t *sums, const int64_t *at, uint32_t nb, uint32_t nact,
                           uint32_t a, uint32_t *first)
{
    size_t np = (size_t)nb * nact;
    int64_t low = INT64_MIN;
    for (uint32_t b = 0; b < nb; b++) {
        size_t i = (size_t)b * nact + a;
        int64_t end = at[i] + sums[IODFG_PARTIAL_NET * np + i];
        int64_t reach = end > 1 ? end : 1, peak = sums[IODFG_PARTIAL_PEAK * np + i];
        if (peak != INT64_MIN && at[i] + sums[IODFG_PARTIAL_FALL * np + i] + peak > reach) {
            reach = at[i] + sums[IODFG_PARTIAL_FALL * np + i] + peak;
        }
        if (sums[IODFG_PARTIAL_STARTS * np + i] > 0 && reach > low) {
            low = reach;
            *first = b;
        }
    }
    return low;
}

uint64_t iodfg_partial_bucket_pick(const int64_t *sums, uint32_t nb, uint32_t nact, int64_t *at,
                                   uint8_t *pick)
{
    size_t np = (size_t)nb * nact;
    uint64_t n = 0;
    for (uint32_t a = 0; a < nact; a++) {
        int64_t count = 0;
        for (uint32_t b = 0; b < nb; b++) {
            at[(size_t)b * nact + a] = count;
            count += sums[IODFG_PARTIAL_NET * np + (size_t)b * nact + a];
        }
        uint32_t first = 0;
        int64_t low = lower_bound(sums, at, nb, nact, a, &first);
        for (uint32_t b = 0; b < nb; b++) {
            size_t i = (size_t)b * nact + a;
            int64_t bound = at[i] + sums[IODFG_PARTIAL_RISE * np + i];
            // the first point reaching the maximum: a later bucket that only ties is not it
            pick[i] = sums[IODFG_PARTIAL_STARTS * np + i] > 0 &&
                      (bound > low || (bound == low && b <= first));
            n += pick[i];
        }
    }
    return n;
}

uint64_t iodfg_partial_bucket_count(const int64_t *sums, uint32_t nb, uint32_t nact,
                                    const uint8_t *pick, uint32_t b0, uint32_t b1)
{
    size_t np = (size_t)nb * nact;
    uint64_t n = 0;
    for (size_t i = (size_t)b0 * nact; i < (size_t)b1 * nact; i++) {
        // starts and ends: the net is starts minus ends
        n += pick[i] ? (uint64_t)(2 * sums[IODFG_PARTIAL_STARTS * np + i] -
                                  sums[IODFG_PARTIAL_NET * np + i])
                     : 0;
    }
    return n;
}

size_t iodfg_partial_bucket_copy(const struct iodfg_partial_view *v, const uint64_t *pos,
                                 uint32_t nact, const uint8_t *pick, uint32_t b0, uint32_t b1,
                                 struct iodfg_partial_point *out)
{
    size_t k = 0;
    for (uint32_t b = b0; b < b1; b++) {
        const uint8_t *in = pick + (size_t)b * nact;
        uint64_t end = bucket_picked(pick, nact, b) ? pos[b + 1] : pos[b];
        for (uint64_t i = pos[b]; i < end; i++) {
            uint32_t a = act_at(v, i);
            if (a != IODFG_NO_ACTIVITY && in[a]) {
                iodfg_partial_view_at(v, i, &out[k++]);
            }
        }
    }
    return k;
}

/* ---- the sweep: each bucket's points of every source merged in the sweep's order ---- */

/* The running counts of a sweep: each pair from its count at its bucket's start. */
struct sweep_run {
    const struct iodfg_partial_buckets *bk;
    uint32_t nact;
    int64_t *cur, *best, *when;
    uint32_t *in; /* the bucket cur[a] counts in */
};

static inline void sweep_point(struct sweep_run *s, uint32_t b, const struct iodfg_partial_point *p)
{
    uint32_t a = p->act;
    if (s->in[a] != b) { // the pair's first point: its count at the bucket's start
        s->in[a] = b;
        s->cur[a] = s->bk->at[(size_t)b * s->nact + a];
    }
    if (!p->start) {
        s->cur[a]--;
    } else if (++s->cur[a] > s->best[a]) {
        s->best[a] = s->cur[a];
        s->when[a] = p->time_ns;
    }
}

/* One sorted source of a bucket's points: [p, end). */
struct source {
    const struct iodfg_partial_point *p, *end;
};

static void sources_down(const struct source *src, size_t *top, size_t n, size_t i)
{
    for (;;) {
        size_t l = 2 * i + 1, m = i;
        if (l < n && point_before(src[top[l]].p, src[top[m]].p)) {
            m = l;
        }
        if (l + 1 < n && point_before(src[top[l + 1]].p, src[top[m]].p)) {
            m = l + 1;
        }
        if (m == i) {
            return;
        }
        size_t t = top[i];
        top[i] = top[m];
        top[m] = t;
        i = m;
    }
}

/* Bucket b's n sources (none empty) merged into s: two by a plain merge, more through a heap of
 * them (top: room for n), the last one left walked alone. Equal points of one activity have the
 * same effect, so the order among them is free. */
static void sweep_sources(struct sweep_run *s, uint32_t b, struct source *src, size_t n,
                          size_t *top)
{
    if (n == 2) {
        while (src[0].p < src[0].end && src[1].p < src[1].end) {
            int y = point_before(src[1].p, src[0].p);
            sweep_point(s, b, src[y].p++);
        }
    } else if (n > 2) {
        for (size_t i = 0; i < n; i++) {
            top[i] = i;
        }
        for (size_t i = n; i-- > 0;) {
            sources_down(src, top, n, i);
        }
        size_t left = n;
        while (left > 1) {
            struct source *r = &src[top[0]];
            sweep_point(s, b, r->p++);
            if (r->p == r->end) {
                top[0] = top[--left];
            }
            sources_down(src, top, left, 0);
        }
    }
    for (size_t i = 0; i < n; i++) {
        while (src[i].p < src[i].end) {
            sweep_point(s, b, src[i].p++);
        }
    }
}

/* The view's points of bucket b's picked pairs (all with no pick) into out; how many. */
static size_t bucket_points(const struct iodfg_partial_view *v,
                            const struct iodfg_partial_buckets *bk, uint32_t nact, uint32_t b,
                            struct iodfg_partial_point *out)
{
    const uint8_t *in = bk->pick ? bk->pick + (size_t)b * nact : NULL;
    size_t k = 0;
    for (uint64_t i = bk->pos[b]; i < bk->pos[b + 1]; i++) {
        uint32_t a = act_at(v, i); // the times are read for points of picked pairs only
        if (a != IODFG_NO_ACTIVITY && (!in || in[a])) {
            iodfg_partial_view_at(v, i, &out[k++]);
        }
    }
    return k;
}

/* The first of run[lo, n) not before p, or n. */
static size_t run_lower(const struct iodfg_partial_point *run, size_t lo, size_t n,
                        const struct iodfg_partial_point *p)
{
    while (lo < n) {
        size_t mid = lo + (n - lo) / 2;
        if (point_before(&run[mid], p)) {
            lo = mid + 1;
        } else {
            n = mid;
        }
    }
    return lo;
}

/* Bucket b's sources: the view's points (copied to own) and each run's next points below the
 * bucket's end (at[r]: the run's first point not yet swept, moved past them); how many. */
static size_t bucket_sources(const struct iodfg_partial_view *view,
                             const struct iodfg_partial_buckets *bk, uint32_t nact, uint32_t b,
                             const struct iodfg_partial_point *const *runs, const size_t *len,
                             size_t nruns, size_t *at, struct iodfg_partial_point *own,
                             struct source *src)
{
    size_t n = 0, k = view ? bucket_points(view, bk, nact, b, own) : 0;
    if (k) {
        src[n++] = (struct source){own, own + k};
    }
    for (size_t r = 0; r < nruns; r++) {
        size_t end = b + 1 < bk->nb ? run_lower(runs[r], at[r], len[r], &bk->split[b]) : len[r];
        if (end > at[r]) {
            src[n++] = (struct source){runs[r] + at[r], runs[r] + end};
        }
        at[r] = end;
    }
    return n;
}

int iodfg_partial_sweep_buckets(const struct iodfg_partial_view *view,
                                const struct iodfg_partial_buckets *bk,
                                const struct iodfg_partial_point *const *runs, const size_t *len,
                                size_t nruns, uint32_t nact, int64_t *best, int64_t *when,
                                struct iodfg_error *err)
{
    uint64_t most = 0; // the view's largest bucket: room for its points
    for (uint32_t b = bk->b0; view && b < bk->b1; b++) {
        most = bk->pos[b + 1] - bk->pos[b] > most ? bk->pos[b + 1] - bk->pos[b] : most;
    }
    struct sweep_run s = {bk,   nact, malloc(((size_t)nact + 1) * sizeof(int64_t)),
                          best, when, malloc(((size_t)nact + 1) * sizeof(uint32_t))};
    struct iodfg_partial_point *own = malloc((most + 1) * sizeof(*own));
    struct source *src = malloc((nruns + 2) * sizeof(*src));
    size_t *top = malloc((nruns + 2) * sizeof(*top)), *at = calloc(nruns + 1, sizeof(*at));
    int rc =
        s.cur && s.in && own && src && top && at ? 0 : iodfg_error_set(err, IODFG_E_NOMEM, NULL);
    if (rc == 0) {
        memset(s.in, 0xff, ((size_t)nact + 1) * sizeof(*s.in));
    }
    for (uint32_t b = bk->b0; rc == 0 && b < bk->b1; b++) {
        if (bucket_picked(bk->pick, nact, b)) { // the runs hold no point of the others
            size_t n = bucket_sources(view, bk, nact, b, runs, len, nruns, at, own, src);
            sweep_sources(&s, b, src, n, top);
        }
    }
    free(s.cur);
    free(s.in);
    free(own);
    free(src);
    free(top);
    free(at);
    return rc;
}
