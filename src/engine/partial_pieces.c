/* SPDX-License-Identifier: MIT */
/* The first round of the windows (partial_windows.c), on a part's view where its points lie:
 * each bucket with a window cut into pieces of equal time, the pieces' first positions found by
 * binary search, this part's sums per piece, and its points of the pieces kept copied. Only the
 * activity of each point is read, and the time of the points kept. */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "iodfg/partial.h"

#include "partial_priv.h"

/* The activity of position i fetched ahead. */
static inline void prefetch_act(const struct iodfg_partial_view *v, uint64_t i)
{
    uint32_t e = v->ent[i] & ~IODFG_PT_START;
    if (v->code) {
        __builtin_prefetch(&v->code[e]);
    } else {
        __builtin_prefetch(&v->pact[e]);
    }
}

/* Position i's place in the sweep's order (its activity not read). */
static inline void place_at(const struct iodfg_partial_view *v, uint64_t i,
                            struct iodfg_partial_point *pt)
{
    uint32_t e = v->ent[i] & ~IODFG_PT_START;
    uint8_t start = (v->ent[i] & IODFG_PT_START) != 0;
    int64_t t = v->start_ns[e] + (start ? 0 : v->dur_ns[e]);
    *pt = (struct iodfg_partial_point){t, 0, v->clk ? v->clk[e] : v->clock, start, 0};
}

void iodfg_partial_lower_batch(const struct iodfg_partial_view *v,
                               const struct iodfg_partial_point *p, size_t m, const uint64_t *lo,
                               const uint64_t *hi, uint64_t *out)
{
    uint64_t base[IODFG_PARTIAL_SEARCH_BATCH], n[IODFG_PARTIAL_SEARCH_BATCH], most = 0;
    for (size_t k = 0; k < m; k++) {
        base[k] = lo[k];
        n[k] = hi[k] - lo[k];
        most = n[k] > most ? n[k] : most;
    }
    for (; most > 1; most -= most / 2) {
        for (size_t k = 0; k < m; k++) {
            // a range down to one place (or none) halves no more: its read, kept in the view,
            // moves nothing
            uint64_t half = n[k] / 2, i = base[k] + half;
            struct iodfg_partial_point x;
            place_at(v, i < v->n ? i : v->n - 1, &x);
            base[k] += point_before(&x, &p[k]) ? half : 0;
            n[k] -= half;
        }
    }
    for (size_t k = 0; k < m; k++) {
        struct iodfg_partial_point x;
        if (n[k] == 1) {
            place_at(v, base[k], &x);
        }
        out[k] = base[k] + (n[k] == 1 && point_before(&x, &p[k]));
    }
}

void iodfg_partial_piece_pos(const struct iodfg_partial_view *v, const uint64_t *pos,
                             const struct iodfg_partial_point *split, uint32_t nb, uint32_t nact,
                             const uint32_t *wid, uint32_t sub, uint64_t *pp)
{
    for (uint32_t b = 0; b < nb; b++) {
        uint64_t *p = pp + (size_t)b * (sub + 1);
        if (!has_window(wid + (size_t)b * nact, nact)) {
            continue;
        }
        p[0] = pos[b];
        for (uint32_t k = 1; k <= sub; k++) {
            p[k] = pos[b + 1];
        }
        if (b == 0 || b + 1 >= nb || split[b - 1].clock != split[b].clock) {
            continue; // no time span shared by every part: one piece
        }
        // time t and later, ends first: every point of one time lies in one piece
        int64_t t0 = split[b - 1].time_ns;
        uint64_t width = ((uint64_t)split[b].time_ns - (uint64_t)t0) / sub + 1;
        for (uint32_t k = 1; k < sub; k += IODFG_PARTIAL_SEARCH_BATCH) {
            struct iodfg_partial_point at[IODFG_PARTIAL_SEARCH_BATCH];
            uint64_t lo[IODFG_PARTIAL_SEARCH_BATCH], hi[IODFG_PARTIAL_SEARCH_BATCH];
            size_t m = sub - k < IODFG_PARTIAL_SEARCH_BATCH ? sub - k : IODFG_PARTIAL_SEARCH_BATCH;
            for (size_t j = 0; j < m; j++) {
                at[j] = (struct iodfg_partial_point){(int64_t)((uint64_t)t0 + (k + j) * width), 0,
                                                     split[b].clock, 0, 0};
                lo[j] = pos[b];
                hi[j] = pos[b + 1];
            }
            iodfg_partial_lower_batch(v, at, m, lo, hi, p + k);
        }
    }
}

int iodfg_partial_piece_sums(const struct iodfg_partial_view *v, const uint64_t *pp, uint32_t nb,
                             uint32_t nact, const uint32_t *wid, uint32_t sub, uint32_t nw,
                             int64_t *sums)
{
    size_t np = (size_t)nw * sub;
    struct pair_acc *acc = calloc(np + 1, sizeof(*acc));
    if (!acc) {
        return -1;
    }
    for (uint32_t b = 0; b < nb; b++) {
        const uint32_t *in = wid + (size_t)b * nact;
        const uint64_t *p = pp + (size_t)b * (sub + 1);
        for (uint32_t k = 0; has_window(in, nact) && k < sub; k++) {
            for (uint64_t i = p[k]; i < p[k + 1]; i++) {
                prefetch_act(v, i + 16 < p[k + 1] ? i + 16 : i);
                uint32_t a = act_at(v, i);
                if (a != IODFG_NO_ACTIVITY && in[a] != IODFG_PARTIAL_NO_WINDOW) {
                    pair_acc_add(&acc[(size_t)in[a] * sub + k], (v->ent[i] & IODFG_PT_START) != 0);
                }
            }
        }
    }
    for (size_t i = 0; i < np; i++) {
        pair_acc_out(&acc[i], sums, np, i);
    }
    free(acc);
    return 0;
}

/* Whether piece k of any window of a bucket (in: its pairs' windows) is kept. */
static int piece_kept(const uint32_t *in, uint32_t nact, uint32_t sub, uint32_t k,
                      const uint32_t *to)
{
    for (uint32_t a = 0; a < nact; a++) {
        if (in[a] != IODFG_PARTIAL_NO_WINDOW &&
            to[(size_t)in[a] * sub + k] != IODFG_PARTIAL_NO_WINDOW) {
            return 1;
        }
    }
    return 0;
}

size_t iodfg_partial_piece_copy(const struct iodfg_partial_pieces *pc,
                                struct iodfg_partial_point *out)
{
    size_t k = 0;
    uint32_t nact = pc->nact, sub = pc->sub;
    for (uint32_t b = pc->b0; b < pc->b1; b++) {
        const uint32_t *in = pc->wid + (size_t)b * nact;
        const uint64_t *p = pc->pp + (size_t)b * (sub + 1);
        for (uint32_t j = 0; has_window(in, nact) && j < sub; j++) {
            uint64_t end = piece_kept(in, nact, sub, j, pc->to) ? p[j + 1] : p[j];
            for (uint64_t i = p[j]; i < end; i++) {
                uint32_t a = act_at(pc->v, i); // the times are read for points kept only
                uint32_t next = a != IODFG_NO_ACTIVITY && in[a] != IODFG_PARTIAL_NO_WINDOW
                                    ? pc->to[(size_t)in[a] * sub + j]
                                    : IODFG_PARTIAL_NO_WINDOW;
                if (next != IODFG_PARTIAL_NO_WINDOW) {
                    iodfg_partial_view_at(pc->v, i, &out[k]);
                    out[k++].act = next;
                }
            }
        }
    }
    return k;
}
