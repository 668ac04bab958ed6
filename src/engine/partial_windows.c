/* SPDX-License-Identifier: MIT */
/* The maximum concurrency of parts, before any point moves: the picked pairs of the buckets as
 * windows, cut into pieces of equal time round by round, and only the pieces that may still hold
 * the first point reaching an activity's maximum kept. On recorded traces the bucket pass leaves
 * a tenth of the points in picked pairs; two rounds leave a few thousand. doc/mpi.md says why
 * it stays exact. */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "iodfg/partial.h"

#include "partial_priv.h"

uint32_t iodfg_partial_windows_of_pick(const int64_t *at, const uint8_t *pick, uint32_t nb,
                                       uint32_t nact, const int64_t *low, const uint32_t *first,
                                       struct iodfg_partial_window *w, uint32_t *wid,
                                       struct iodfg_partial_reach *reach)
{
    uint32_t nw = 0;
    for (uint32_t b = 0; b < nb; b++) {
        for (uint32_t a = 0; a < nact; a++) {
            size_t i = (size_t)b * nact + a;
            wid[i] = pick[i] ? nw : IODFG_PARTIAL_NO_WINDOW;
            if (pick[i]) {
                w[nw++] = (struct iodfg_partial_window){at[i], a, b};
            }
        }
    }
    for (uint32_t a = 0; a < nact; a++) {
        // the first bucket reaching low is picked (its bound is at least low), so it has a window
        reach[a] = (struct iodfg_partial_reach){low[a], low[a] == INT64_MIN
                                                            ? IODFG_PARTIAL_NO_WINDOW
                                                            : wid[(size_t)first[a] * nact + a]};
    }
    return nw;
}

void iodfg_partial_window_span(const struct iodfg_partial_point *pts, size_t n, uint32_t nw,
                               int64_t *span)
{
    for (size_t i = 0; i < IODFG_PARTIAL_SPAN * (size_t)nw; i++) {
        span[i] = INT64_MAX;
    }
    for (size_t i = 0; i < n; i++) {
        int64_t *s = span + IODFG_PARTIAL_SPAN * (size_t)pts[i].act;
        int64_t c = pts[i].clock, t = pts[i].time_ns;
        s[0] = c < s[0] ? c : s[0];
        s[1] = -c < s[1] ? -c : s[1];
        s[2] = t < s[2] ? t : s[2];
        s[3] = -t < s[3] ? -t : s[3];
    }
}

/* The piece of window p->act that p lies in: its time's share of the job's time span there
 * (every point of one time in the same piece); 0 when the window spans clocks. */
static inline uint32_t piece_of(const int64_t *span, uint32_t sub,
                                const struct iodfg_partial_point *p)
{
    const int64_t *s = span + IODFG_PARTIAL_SPAN * (size_t)p->act;
    if (s[0] != -s[1]) {
        return 0;
    }
    uint64_t width = ((uint64_t)-s[3] - (uint64_t)s[2]) / sub + 1;
    return (uint32_t)(((uint64_t)p->time_ns - (uint64_t)s[2]) / width);
}

int iodfg_partial_window_sums(const struct iodfg_partial_point *pts, size_t n, const int64_t *span,
                              uint32_t nw, uint32_t sub, int64_t *sums)
{
    size_t np = (size_t)nw * sub;
    struct pair_acc *acc = calloc(np + 1, sizeof(*acc));
    if (!acc) {
        return -1;
    }
    for (size_t i = 0; i < n; i++) {
        size_t piece = (size_t)pts[i].act * sub + piece_of(span, sub, &pts[i]);
        pair_acc_add(&acc[piece], pts[i].start);
    }
    for (size_t i = 0; i < np; i++) {
        pair_acc_out(&acc[i], sums, np, i);
    }
    free(acc);
    return 0;
}

/* Each piece's count at its start into at (from its window's, adding the pieces' nets). */
static void pieces_at(const struct iodfg_partial_window *w, uint32_t nw, uint32_t sub,
                      const int64_t *net, int64_t *at)
{
    for (uint32_t i = 0; i < nw; i++) {
        int64_t count = w[i].at;
        for (uint32_t j = 0; j < sub; j++) {
            size_t k = (size_t)i * sub + j;
            at[k] = count;
            count += net[k];
        }
    }
}

/* Per activity: the new count known to be reached and the last piece at or before whose end it
 * is first reached (into low and first_piece). A piece may not show the count its window was
 * known to reach (its bounds are its own): that count is then still reached by the end of the
 * window's last piece. */
static void pieces_reach(const struct iodfg_partial_window *w, uint32_t nw, uint32_t sub,
                         const int64_t *sums, const int64_t *at,
                         const struct iodfg_partial_reach *reach, uint32_t nact, int64_t *low,
                         uint64_t *first_piece)
{
    size_t np = (size_t)nw * sub;
    for (uint32_t a = 0; a < nact; a++) {
        low[a] = reach[a].low;
        first_piece[a] = reach[a].first == IODFG_PARTIAL_NO_WINDOW
                             ? UINT64_MAX
                             : (uint64_t)reach[a].first * sub + sub - 1;
    }
    for (size_t k = 0; k < np; k++) {
        uint32_t a = w[k / sub].act;
        int64_t r = pair_reach(sums, np, at[k], k);
        if (r != INT64_MIN && (r > low[a] || (r == low[a] && k < first_piece[a]))) {
            low[a] = r;
            first_piece[a] = k;
        }
    }
}

int64_t iodfg_partial_window_pick(const struct iodfg_partial_window *w, uint32_t nw, uint32_t sub,
                                  const int64_t *sums, uint32_t nact,
                                  struct iodfg_partial_reach *reach,
                                  struct iodfg_partial_window *next, uint32_t *to)
{
    size_t np = (size_t)nw * sub;
    int64_t *at = malloc((np + 1) * sizeof(*at)), *low = malloc((nact + 1) * sizeof(*low));
    uint64_t *first_piece = malloc((nact + 1) * sizeof(*first_piece));
    if (!at || !low || !first_piece) {
        free(at);
        free(low);
        free(first_piece);
        return -1;
    }
    pieces_at(w, nw, sub, sums + IODFG_PARTIAL_NET * np, at);
    pieces_reach(w, nw, sub, sums, at, reach, nact, low, first_piece);
    for (uint32_t a = 0; a < nact; a++) {
        reach[a] = (struct iodfg_partial_reach){low[a], IODFG_PARTIAL_NO_WINDOW};
    }
    uint32_t n = 0;
    for (size_t k = 0; k < np; k++) {
        uint32_t a = w[k / sub].act;
        int keep = pair_may_hold(sums, np, at[k], k, low[a], k <= first_piece[a]);
        to[k] = keep ? n : IODFG_PARTIAL_NO_WINDOW;
        if (keep) {
            next[n] = (struct iodfg_partial_window){at[k], a, w[k / sub].bucket};
            // the first reach lies in a kept piece at or before first_piece: the last of those
            reach[a].first = k <= first_piece[a] ? n : reach[a].first;
            n++;
        }
    }
    free(at);
    free(low);
    free(first_piece);
    return n;
}

size_t iodfg_partial_window_keep(struct iodfg_partial_point *pts, size_t n, const int64_t *span,
                                 uint32_t sub, const uint32_t *to)
{
    size_t k = 0;
    for (size_t i = 0; i < n; i++) {
        uint32_t next = to[(size_t)pts[i].act * sub + piece_of(span, sub, &pts[i])];
        if (next != IODFG_PARTIAL_NO_WINDOW) {
            pts[k] = pts[i];
            pts[k++].act = next;
        }
    }
    return k;
}

uint64_t iodfg_partial_window_points(const int64_t *sums, uint64_t npieces, const uint32_t *to)
{
    uint64_t n = 0;
    for (uint64_t k = 0; k < npieces; k++) {
        n += to[k] != IODFG_PARTIAL_NO_WINDOW ? pair_points(sums, npieces, k) : 0;
    }
    return n;
}
