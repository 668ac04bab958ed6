/* SPDX-License-Identifier: MIT */
/* The maximum concurrency of parts: a session's interval boundaries read in place from its
 * timeline; the buckets of the sweep's order found in it (partial_buckets.c sums each part's
 * net change, rise and starts per activity in them: they add up to exact counts at the buckets'
 * starts and bounds of the counts inside); which pairs of bucket and activity may hold the
 * maximum (partial_pieces.c cuts their windows finer on the view, partial_windows.c on copies,
 * partial_sweep.c sweeps them). doc/mpi.md says why it is exact. */
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

uint64_t iodfg_partial_view_lower(const struct iodfg_partial_view *v,
                                  const struct iodfg_partial_point *p)
{
    uint64_t lo = 0, hi = v->n, at;
    iodfg_partial_lower_batch(v, p, 1, &lo, &hi, &at);
    return at;
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

int iodfg_partial_point_cmp(const struct iodfg_partial_point *a,
                            const struct iodfg_partial_point *b)
{
    return point_before(a, b) ? -1 : point_before(b, a);
}

/* ---- the buckets' sums and the pairs picked ---- */

void iodfg_partial_bucket_pos(const struct iodfg_partial_view *v,
                              const struct iodfg_partial_point *split, uint32_t nb,
                              const struct iodfg_partial_point *known, const uint64_t *at,
                              size_t nknown, uint64_t *pos)
{
    pos[0] = 0;
    pos[nb] = v->n;
    size_t k = 0; // the first known point not below the splitter: the answer is at or before it
    for (uint32_t b = 1; b < nb; b += IODFG_PARTIAL_SEARCH_BATCH) {
        uint64_t lo[IODFG_PARTIAL_SEARCH_BATCH], hi[IODFG_PARTIAL_SEARCH_BATCH];
        size_t m = nb - b < IODFG_PARTIAL_SEARCH_BATCH ? nb - b : IODFG_PARTIAL_SEARCH_BATCH;
        for (size_t j = 0; j < m; j++) {
            while (k < nknown && iodfg_partial_point_cmp(&known[k], &split[b + j - 1]) < 0) {
                k++;
            }
            lo[j] = k ? at[k - 1] + 1 : 0;
            hi[j] = k < nknown ? at[k] : v->n;
            if (lo[j] > hi[j] || hi[j] > v->n) { // known points not of this view: search it all
                lo[j] = 0;
                hi[j] = v->n;
            }
        }
        iodfg_partial_lower_batch(v, split + b - 1, m, lo, hi, pos + b);
    }
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
        int64_t reach = pair_reach(sums, np, at[i], i);
        if (reach > low) {
            low = reach;
            *first = b;
        }
    }
    return low;
}

uint64_t iodfg_partial_bucket_pick(const int64_t *sums, uint32_t nb, uint32_t nact, int64_t *at,
                                   uint8_t *pick, int64_t *low_out, uint32_t *first_out)
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
            pick[i] = (uint8_t)pair_may_hold(sums, np, at[i], i, low, b <= first);
            n += pick[i];
        }
        if (low_out) {
            low_out[a] = low;
            first_out[a] = first;
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
        n += !pick || pick[i] ? pair_points(sums, np, i) : 0;
    }
    return n;
}
