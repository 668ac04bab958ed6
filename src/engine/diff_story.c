/* SPDX-License-Identifier: MIT */
/* The story of a G/R comparison: one scan of each group's events counts per key and activity;
 * rows for the activities that differ per case and for calls one group replaces by another,
 * ranked by the time per case they explain (diff_story_text.c writes their text). */
#include "config.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "iodfg/diff.h"
#include "iodfg/error.h"
#include "iodfg/eventlog.h"
#include "iodfg/mapping.h"
#include "iodfg/metrics.h"
#include "iodfg/session.h"
#include "iodfg/trace.h"

#include "diff_story_priv.h"
#include "insights_tally.h"

#define NONE UINT32_MAX
#define FAMILY (IODFG_IO_READ | IODFG_IO_WRITE | IODFG_IO_SEEK | IODFG_IO_OPEN)

void iodfg_diff_story_init(struct iodfg_diff_story *st)
{
    memset(st, 0, sizeof(*st));
}

void iodfg_diff_story_fini(struct iodfg_diff_story *st)
{
    free(st->rows);
    memset(st, 0, sizeof(*st));
}

static int side_alloc(struct story_side *sd, uint32_t nk, uint32_t na)
{
    sd->ks = calloc((size_t)nk + 1, sizeof(*sd->ks));
    sd->as = calloc((size_t)na + 1, sizeof(*sd->as));
    sd->act_cases = calloc((size_t)na + 1, sizeof(*sd->act_cases));
    sd->act_last1 = calloc((size_t)na + 1, sizeof(*sd->act_last1));
    sd->act_one = calloc((size_t)na + 1, sizeof(*sd->act_one));
    sd->seeked = calloc((size_t)na + 1, sizeof(*sd->seeked));
    if (!sd->ks || !sd->as || !sd->act_cases || !sd->act_last1 || !sd->act_one || !sd->seeked) {
        return -1;
    }
    iodfg_key_sums_clear(sd->ks, nk);
    iodfg_key_sums_clear(sd->as, na);
    return 0;
}

static void side_free(struct story_side *sd)
{
    free(sd->ks);
    free(sd->as);
    free(sd->act_cases);
    free(sd->act_last1);
    free(sd->act_one);
    free(sd->seeked);
}

/* Event e of activity a follows a seek on its descriptor by its process (*last: the process's
 * previous selected event + 1): a read or write that a positional call would do alone. */
static int after_seek(const struct story_ctx *x, uint64_t *last, uint64_t e)
{
    const struct iodfg_columns *col = iodfg_eventlog_columns(x->log);
    uint64_t prev = *last;
    *last = e + 1;
    unsigned f = x->kflags[col->key[e]];
    return prev && (f & (IODFG_IO_READ | IODFG_IO_WRITE)) && !(f & IODFG_IO_POSITIONAL) &&
           (x->kflags[col->key[prev - 1]] & IODFG_IO_SEEK) && col->fd[prev - 1] == col->fd[e] &&
           (!col->err || !col->err[prev - 1]);
}

static int scan_side(struct story_ctx *x, struct story_side *sd, const struct iodfg_selection *sel)
{
    const struct iodfg_columns *col = iodfg_eventlog_columns(x->log);
    const uint32_t *act = x->map->activity_of_key;
    uint32_t nc = iodfg_eventlog_case_count(x->log);
    struct ins_map pid_last = {0};
    for (uint32_t c = 0; c < nc; c++) {
        uint64_t lo, hi;
        if (!iodfg_trace_case_range(x->log, sel, c, &lo, &hi)) {
            continue;
        }
        int any = 0;
        ins_map_reset(&pid_last);
        for (uint64_t e = lo; e < hi; e++) {
            uint32_t k = col->key[e], a = act[k];
            if (a == IODFG_NO_ACTIVITY) {
                continue;
            }
            if (col->pid && col->fd) {
                uint64_t *last = ins_map_get(&pid_last, (uint32_t)col->pid[e]);
                if (!last) {
                    ins_map_fini(&pid_last);
                    return -1;
                }
                sd->seeked[a] += after_seek(x, last, e);
            }
            int64_t d = col->dur_ns ? col->dur_ns[e] : IODFG_UNKNOWN;
            int64_t z = col->size ? col->size[e] : IODFG_UNKNOWN;
            iodfg_key_sums_add(&sd->ks[k], d, z);
            iodfg_key_sums_add(&sd->as[a], d, z);
            if (sd->act_last1[a] != c + 1) {
                sd->act_one[a] = sd->act_cases[a]++ ? sd->act_one[a] : c;
                sd->act_last1[a] = c + 1;
            }
            sd->time_ns = d > 0 ? iodfg_sat_add(sd->time_ns, d) : sd->time_ns;
            any = 1;
        }
        sd->cases += any;
    }
    ins_map_fini(&pid_last);
    return 0;
}

/* Per activity: the kind of I/O and the place its keys with events share; keys by activity. */
static int shapes(struct story_ctx *x)
{
    const uint32_t *act = x->map->activity_of_key;
    uint8_t *used = malloc((size_t)x->nkeys + 1);
    x->shape = malloc(((size_t)x->nact + 1) * sizeof(*x->shape));
    x->first = calloc((size_t)x->nact + 2, sizeof(*x->first));
    x->key_order = malloc(((size_t)x->nkeys + 1) * sizeof(*x->key_order));
    uint32_t *at = malloc(((size_t)x->nact + 1) * sizeof(*at));
    int rc = used && x->shape && x->first && x->key_order && at ? 0 : -1;
    for (uint32_t k = 0; rc == 0 && k < x->nkeys; k++) {
        used[k] = act[k] != IODFG_NO_ACTIVITY && x->side[0].ks[k].count + x->side[1].ks[k].count;
        if (used[k]) {
            x->first[act[k] + 1]++;
        }
    }
    if (rc == 0) {
        diff_shapes(x->log, x->map, x->kflags, used, x->shape);
        for (uint32_t a = 0; a < x->nact; a++) {
            x->first[a + 1] += x->first[a];
        }
        memcpy(at, x->first, (size_t)x->nact * sizeof(*at));
        for (uint32_t k = 0; k < x->nkeys; k++) {
            if (used[k]) {
                x->key_order[at[act[k]]++] = k;
            }
        }
    }
    free(at);
    free(used);
    return rc;
}

static double per_case(double v, uint64_t cases)
{
    return cases ? v / (double)cases : 0.0;
}

/* The numbers of each side's activity, per case of its group. */
static void fill(const struct story_ctx *x, struct iodfg_diff_story_row *r)
{
    const uint32_t acts[2] = {r->g_act, r->r_act};
    for (int g = 0; g < 2; g++) {
        const struct story_side *sd = &x->side[g];
        double *v = g ? r->r : r->g;
        uint32_t a = acts[g];
        const struct iodfg_key_sums *s = a != NONE ? &sd->as[a] : NULL;
        v[IODFG_STORY_COUNT] = s ? per_case((double)s->count, sd->cases) : 0;
        v[IODFG_STORY_TIME] = s ? per_case((double)s->dur_sum_ns, sd->cases) : 0;
        v[IODFG_STORY_BYTES] = s ? per_case((double)s->bytes, sd->cases) : 0;
        *(g ? &r->r_cases : &r->g_cases) = a != NONE ? sd->act_cases[a] : 0;
    }
    for (int m = 0; m < IODFG_STORY__N; m++) {
        r->ratio[m] = r->g[m] > 0 ? r->r[m] / r->g[m] : NAN;
    }
    double gt = r->g[IODFG_STORY_TIME], rt = r->r[IODFG_STORY_TIME];
    r->explained_ns = r->kind == IODFG_STORY_VARIANT  ? gt + rt
                      : r->side == IODFG_DIFF_CHANGED ? fabs(rt - gt)
                                                      : gt + rt; // one side only
    double base = fmax(per_case((double)x->side[0].time_ns, x->side[0].cases),
                       per_case((double)x->side[1].time_ns, x->side[1].cases));
    double share = base > 0 ? r->explained_ns / base : 0;
    r->band = share >= 0.25 ? 2 : share >= 0.05 ? 1 : 0;
    r->fclass = iodfg_session_activity_class(x->s, r->g_act != NONE ? r->g_act : r->r_act);
}

/* The side of activity a: one group, changed per case, or the same (0: no events). */
static enum iodfg_diff_side side_of(const struct story_ctx *x, uint32_t a, double ratio)
{
    const struct iodfg_key_sums *g = &x->side[0].as[a], *r = &x->side[1].as[a];
    if (!g->count || !r->count) {
        return g->count ? IODFG_DIFF_G_ONLY : r->count ? IODFG_DIFF_R_ONLY : IODFG_DIFF_NEITHER;
    }
    uint64_t gc = x->side[0].cases, rc = x->side[1].cases;
    int changed =
        iodfg_diff_changed(per_case((double)g->count, gc), per_case((double)r->count, rc), ratio) ||
        iodfg_diff_changed(per_case((double)g->dur_sum_ns, gc), per_case((double)r->dur_sum_ns, rc),
                           ratio) ||
        iodfg_diff_changed(per_case((double)g->bytes, gc), per_case((double)r->bytes, rc), ratio);
    return changed ? IODFG_DIFF_CHANGED : IODFG_DIFF_BOTH;
}

/* Pair each activity of G only with one of R only of the same shape, the closest in calls. */
static void pair_variants(const struct story_ctx *x, const enum iodfg_diff_side *side,
                          uint32_t *partner)
{
    for (uint32_t a = 0; a < x->nact; a++) {
        partner[a] = NONE;
    }
    for (uint32_t a = 0; a < x->nact; a++) {
        if (side[a] != IODFG_DIFF_G_ONLY) {
            continue;
        }
        double ga = per_case((double)x->side[0].as[a].count, x->side[0].cases), best = INFINITY;
        for (uint32_t b = 0; b < x->nact; b++) {
            if (side[b] != IODFG_DIFF_R_ONLY || partner[b] != NONE ||
                !diff_shape_same(x->log, &x->shape[a], &x->shape[b])) {
                continue;
            }
            double rb = per_case((double)x->side[1].as[b].count, x->side[1].cases);
            double d = fabs(log(rb / ga));
            if (d < best) {
                best = d;
                partner[a] = b;
            }
        }
        if (partner[a] != NONE) {
            partner[partner[a]] = a;
        }
    }
}

static int by_rank(const void *pa, const void *pb, void *ctx)
{
    const struct iodfg_diff_story_row *a = pa, *b = pb;
    int app_first = *(const int *)ctx;
    if (a->band != b->band) {
        return a->band > b->band ? -1 : 1;
    }
    if (app_first && (a->fclass == 0) != (b->fclass == 0)) {
        return a->fclass == 0 ? -1 : 1;
    }
    if (a->explained_ns != b->explained_ns) {
        return a->explained_ns > b->explained_ns ? -1 : 1;
    }
    uint32_t x = a->g_act != NONE ? a->g_act : a->r_act, y = b->g_act != NONE ? b->g_act : b->r_act;
    return (x > y) - (x < y);
}

static int make_rows(struct story_ctx *x, struct iodfg_diff_story *st)
{
    double ratio = iodfg_session_changed_ratio(x->s);
    enum iodfg_diff_side *side = malloc(((size_t)x->nact + 1) * sizeof(*side));
    uint32_t *partner = malloc(((size_t)x->nact + 1) * sizeof(*partner));
    st->rows = calloc((size_t)x->nact + 1, sizeof(*st->rows));
    if (!side || !partner || !st->rows) {
        free(side);
        free(partner);
        return -1;
    }
    for (uint32_t a = 0; a < x->nact; a++) {
        side[a] = side_of(x, a, ratio);
    }
    pair_variants(x, side, partner);
    for (uint32_t a = 0; a < x->nact; a++) {
        int one = side[a] == IODFG_DIFF_G_ONLY || side[a] == IODFG_DIFF_R_ONLY;
        if (!(one || side[a] == IODFG_DIFF_CHANGED) ||
            (one && side[a] == IODFG_DIFF_R_ONLY && partner[a] != NONE)) {
            continue; // the same, no events, or an R half of a variant (made with its G half)
        }
        struct iodfg_diff_story_row *r = &st->rows[st->n++];
        r->kind = one && partner[a] != NONE ? IODFG_STORY_VARIANT : IODFG_STORY_ACTIVITY;
        r->side = r->kind == IODFG_STORY_VARIANT ? IODFG_DIFF_CHANGED : side[a];
        r->g_act = a;
        r->r_act = r->kind == IODFG_STORY_VARIANT ? partner[a] : a;
        fill(x, r);
    }
    free(side);
    free(partner);
    int app_first = iodfg_session_focus(x->s) == IODFG_FOCUS_APP;
    qsort_r(st->rows, st->n, sizeof(*st->rows), by_rank, &app_first);
    for (size_t i = 0; i < st->n; i++) {
        story_text(x, &st->rows[i]);
    }
    return 0;
}

int iodfg_diff_story_build(struct iodfg_diff_story *st, const struct iodfg_session *s,
                           struct iodfg_error *err)
{
    iodfg_diff_story_fini(st);
    struct iodfg_selection sel[2];
    if (iodfg_session_selection(s, IODFG_GROUP_G, &sel[0]) ||
        iodfg_session_selection(s, IODFG_GROUP_R, &sel[1])) {
        return iodfg_error_set(err, IODFG_E_ARG, "no groups G and R to compare");
    }
    struct story_ctx x = {.s = s, .log = iodfg_session_log(s), .map = iodfg_session_mapping(s)};
    x.nkeys = iodfg_eventlog_key_count(x.log);
    x.nact = x.map->nactivities;
    if (x.map->nkeys != x.nkeys || !iodfg_eventlog_columns(x.log)->key) {
        return iodfg_error_set(err, IODFG_E_ARG, "the session is not prepared");
    }
    x.kflags = malloc((size_t)x.nkeys + 1);
    int rc = -1;
    if (x.kflags && side_alloc(&x.side[0], x.nkeys, x.nact) == 0 &&
        side_alloc(&x.side[1], x.nkeys, x.nact) == 0) {
        iodfg_metrics_key_flags(x.log, x.kflags);
        rc = scan_side(&x, &x.side[0], &sel[0]) || scan_side(&x, &x.side[1], &sel[1]) ? -1 : 0;
    }
    if (rc == 0) {
        st->g_cases = x.side[0].cases;
        st->r_cases = x.side[1].cases;
        st->g_time_ns = per_case((double)x.side[0].time_ns, x.side[0].cases);
        st->r_time_ns = per_case((double)x.side[1].time_ns, x.side[1].cases);
        rc = shapes(&x) || make_rows(&x, st) ? -1 : 0;
    }
    free(x.kflags);
    side_free(&x.side[0]);
    side_free(&x.side[1]);
    free(x.shape);
    free(x.first);
    free(x.key_order);
    if (rc) {
        iodfg_diff_story_fini(st);
        return iodfg_error_set(err, IODFG_E_NOMEM, NULL);
    }
    return 0;
}
