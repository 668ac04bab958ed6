/* SPDX-License-Identifier: MIT */
/* The sweep of the windows (partial_windows.c): every part's points of them merged in the
 * sweep's order, each window from its count at its start, the highest count per activity and
 * the time it is first reached. */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "iodfg/error.h"
#include "iodfg/partial.h"

#include "partial_priv.h"

/* The running counts of a sweep: each window from its count at its start. */
struct sweep_run {
    const struct iodfg_partial_window *w;
    int64_t *cur, *best, *when;
    uint8_t *seen;
};

static inline void sweep_point(struct sweep_run *s, const struct iodfg_partial_point *p)
{
    uint32_t w = p->act, a = s->w[w].act;
    if (!s->seen[w]) { // the window's first point: its count at its start
        s->seen[w] = 1;
        s->cur[w] = s->w[w].at;
    }
    if (!p->start) {
        s->cur[w]--;
    } else if (++s->cur[w] > s->best[a]) {
        s->best[a] = s->cur[w];
        s->when[a] = p->time_ns;
    }
}

/* One sorted source: [p, end). */
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

/* The n sources (none empty) merged into s: two by a plain merge, more through a heap of them
 * (top: room for n), the last one left walked alone. Equal points of one window have the same
 * effect, so the order among them is free. */
static void sweep_sources(struct sweep_run *s, struct source *src, size_t n, size_t *top)
{
    if (n == 2) {
        while (src[0].p < src[0].end && src[1].p < src[1].end) {
            int y = point_before(src[1].p, src[0].p);
            sweep_point(s, src[y].p++);
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
            sweep_point(s, r->p++);
            if (r->p == r->end) {
                top[0] = top[--left];
            }
            sources_down(src, top, left, 0);
        }
    }
    for (size_t i = 0; i < n; i++) {
        while (src[i].p < src[i].end) {
            sweep_point(s, src[i].p++);
        }
    }
}

/* The own pieces' points of bucket b into buf and each run's next points of windows of bucket
 * b (at[r]: the run's first point not yet swept, moved past them) as the sources; how many. */
static size_t bucket_sources(const struct iodfg_partial_pieces *own, uint32_t b,
                             const struct iodfg_partial_point *const *runs, const size_t *len,
                             size_t nruns, const struct iodfg_partial_window *w, size_t *at,
                             struct iodfg_partial_point *buf, struct source *src)
{
    struct iodfg_partial_pieces one = *own;
    one.b0 = b;
    one.b1 = b + 1;
    size_t n = 0, k = iodfg_partial_piece_copy(&one, buf);
    if (k) {
        src[n++] = (struct source){buf, buf + k};
    }
    for (size_t r = 0; r < nruns; r++) {
        size_t end = at[r];
        while (end < len[r] && w[runs[r][end].act].bucket == b) {
            end++;
        }
        if (end > at[r]) {
            src[n++] = (struct source){runs[r] + at[r], runs[r] + end};
        }
        at[r] = end;
    }
    return n;
}

/* The own pieces' largest bucket: room for its points. */
static uint64_t largest_bucket(const struct iodfg_partial_pieces *own)
{
    uint64_t most = 0;
    for (uint32_t b = own->b0; b < own->b1; b++) {
        const uint64_t *p = own->pp + (size_t)b * (own->sub + 1);
        if (has_window(own->wid + (size_t)b * own->nact, own->nact) && p[own->sub] - p[0] > most) {
            most = p[own->sub] - p[0];
        }
    }
    return most;
}

int iodfg_partial_sweep_windows(const struct iodfg_partial_pieces *own,
                                const struct iodfg_partial_point *const *runs, const size_t *len,
                                size_t nruns, const struct iodfg_partial_window *w, uint32_t nw,
                                int64_t *best, int64_t *when, struct iodfg_error *err)
{
    struct sweep_run s = {w, malloc(((size_t)nw + 1) * sizeof(int64_t)), best, when,
                          calloc((size_t)nw + 1, 1)};
    struct source *src = malloc((nruns + 2) * sizeof(*src));
    size_t *top = malloc((nruns + 2) * sizeof(*top)), *at = calloc(nruns + 1, sizeof(*at)), n = 0;
    struct iodfg_partial_point *buf = own ? malloc((largest_bucket(own) + 1) * sizeof(*buf)) : NULL;
    int rc = s.cur && s.seen && src && top && at && (buf || !own)
                 ? 0
                 : iodfg_error_set(err, IODFG_E_NOMEM, NULL);
    for (uint32_t b = own ? own->b0 : 0; rc == 0 && own && b < own->b1; b++) {
        n = bucket_sources(own, b, runs, len, nruns, w, at, buf, src);
        sweep_sources(&s, src, n, top);
    }
    for (size_t r = 0; rc == 0 && !own && r < nruns; r++) {
        if (len[r]) {
            src[n++] = (struct source){runs[r], runs[r] + len[r]};
        }
    }
    if (rc == 0 && !own) {
        sweep_sources(&s, src, n, top);
    }
    free(s.cur);
    free(s.seen);
    free(src);
    free(top);
    free(at);
    free(buf);
    return rc;
}
