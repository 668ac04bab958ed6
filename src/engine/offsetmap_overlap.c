/* SPDX-License-Identifier: MIT */
/* The written ranges of an offset map. Each case's writes are merged into the ranges it covers
 * (sorted by offset first by a radix sort, unless they already are: sequential and strided
 * writers are); then
 * one sweep over the cases' ranges, merged in order of position by a heap of the cases, counts
 * how many cases cover each stretch of the file. Covered
 * stretches make the union; stretches that two cases or more cover are the overlaps (merged where
 * they touch). Then each write is flagged when it meets an overlap. */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "iodfg/bigmem.h"
#include "iodfg/error.h"
#include "iodfg/offsetmap.h"

#include "offsetmap_priv.h"

/* A byte range [lo, hi) of one case. */
struct range {
    int64_t lo, hi;
    uint32_t row;
};

/* Sort a[0..n) by lo: least significant digit first, 11 bits a pass over lo - min (offsets of
 * a file span few bits, so a few passes), through buf (n entries). */
#define RADIX_BITS 11
static void sort_ranges(struct range *a, size_t n, struct range *buf)
{
    int64_t min = INT64_MAX, max = INT64_MIN;
    for (size_t i = 0; i < n; i++) {
        min = a[i].lo < min ? a[i].lo : min;
        max = a[i].lo > max ? a[i].lo : max;
    }
    uint64_t span = n ? (uint64_t)max - (uint64_t)min : 0;
    struct range *from = a, *to = buf;
    for (unsigned shift = 0; shift < 64 && span >> shift; shift += RADIX_BITS) {
        size_t count[(1u << RADIX_BITS) + 1] = {0};
        for (size_t i = 0; i < n; i++) {
            count[(((uint64_t)from[i].lo - (uint64_t)min) >> shift & ((1u << RADIX_BITS) - 1)) +
                  1]++;
        }
        for (unsigned d = 0; d < (1u << RADIX_BITS); d++) {
            count[d + 1] += count[d];
        }
        for (size_t i = 0; i < n; i++) {
            to[count[((uint64_t)from[i].lo - (uint64_t)min) >> shift &
                     ((1u << RADIX_BITS) - 1)]++] = from[i];
        }
        struct range *t = from;
        from = to;
        to = t;
    }
    if (from != a) {
        memcpy(a, from, n * sizeof(*a));
    }
}

/* The ranges of all cases, by row: each row's sorted, disjoint and not touching. */
struct ranges {
    struct range *r;
    size_t n;
};

/* Merge the writes of one case (points [a, b), all of row) into its ranges, appended to out
 * (room for b - a more). buf: room for b - a ranges, for a sort. */
static void case_ranges(const struct iodfg_offsetmap *om, size_t a, size_t b, struct range *buf,
                        struct ranges *out)
{
    struct range *t = out->r + out->n;
    size_t n = 0;
    int sorted = 1;
    for (size_t i = a; i < b; i++) {
        const struct iodfg_offset_point *p = &om->points[i];
        if (p->write && p->length > 0) {
            t[n] = (struct range){p->offset, iodfg_sat_add(p->offset, p->length), p->row};
            sorted &= n == 0 || t[n - 1].lo <= t[n].lo;
            n++;
        }
    }
    if (!sorted) {
        sort_ranges(t, n, buf);
    }
    size_t kept = 0;
    for (size_t i = 0; i < n;) {
        struct range r = t[i++];
        for (; i < n && t[i].lo <= r.hi; i++) { // touching or overlapping: one range
            r.hi = t[i].hi > r.hi ? t[i].hi : r.hi;
        }
        t[kept++] = r;
    }
    out->n += kept;
}

/* The next bound of one row's ranges [i, end): the start of range i, or its end (at_hi). */
struct cursor {
    size_t i, end;
    int at_hi;
};

/* Bounds come in the order of (position, ends before starts, row): a touching pair of ranges
 * does not overlap, and ties between rows go by row as a stable sort of the rows' bounds would. */
static int64_t cursor_at(const struct ranges *v, const struct cursor *c)
{
    return c->at_hi ? v->r[c->i].hi : v->r[c->i].lo;
}

static int cursor_before(const struct ranges *v, const struct cursor *a, const struct cursor *b)
{
    int64_t x = cursor_at(v, a), y = cursor_at(v, b);
    if (x != y) {
        return x < y;
    }
    if (a->at_hi != b->at_hi) {
        return a->at_hi; // an end before a start
    }
    return v->r[a->i].row < v->r[b->i].row;
}

/* A binary min-heap of the rows' cursors: the rows' bounds merged, n log(rows) for n bounds
 * where sorting them all cost n log n and as much memory again. */
struct merge {
    const struct ranges *v;
    struct cursor *h;
    size_t n;
};

static void sift_down(struct merge *m, size_t i)
{
    for (;;) {
        size_t l = 2 * i + 1, r = l + 1, least = i;
        if (l < m->n && cursor_before(m->v, &m->h[l], &m->h[least])) {
            least = l;
        }
        if (r < m->n && cursor_before(m->v, &m->h[r], &m->h[least])) {
            least = r;
        }
        if (least == i) {
            return;
        }
        struct cursor t = m->h[i];
        m->h[i] = m->h[least];
        m->h[least] = t;
        i = least;
    }
}

/* Take the least bound: its position, whether it starts a range, and its row. 0 when none. */
static int merge_next(struct merge *m, int64_t *at, int *start, uint32_t *row)
{
    if (!m->n) {
        return 0;
    }
    struct cursor *c = &m->h[0];
    *at = cursor_at(m->v, c);
    *start = !c->at_hi;
    *row = m->v->r[c->i].row;
    if (!c->at_hi) {
        c->at_hi = 1;
    } else if (++c->i < c->end) {
        c->at_hi = 0;
    } else {
        *c = m->h[--m->n];
    }
    sift_down(m, 0);
    return 1;
}

static int merge_start(struct merge *m, const struct ranges *v)
{
    m->v = v;
    m->n = 0;
    size_t rows = 0;
    for (size_t a = 0; a < v->n; a++) {
        rows += a == 0 || v->r[a].row != v->r[a - 1].row;
    }
    if (!(m->h = malloc((rows + 1) * sizeof(*m->h)))) {
        return -1;
    }
    for (size_t a = 0, b; a < v->n; a = b) {
        for (b = a; b < v->n && v->r[b].row == v->r[a].row; b++) {
        }
        m->h[m->n++] = (struct cursor){a, b, 0};
    }
    for (size_t i = m->n / 2; i-- > 0;) {
        sift_down(m, i);
    }
    return 0;
}

static int add_overlap(struct iodfg_offsetmap *om, size_t *cap, int64_t lo, int64_t hi, uint32_t a,
                       uint32_t b)
{
    om->overlap_bytes = iodfg_sat_add(om->overlap_bytes, hi - lo);
    if (om->noverlaps && om->overlaps[om->noverlaps - 1].hi == lo) {
        om->overlaps[om->noverlaps - 1].hi = hi; // touching: one range
        return 0;
    }
    if (om->noverlaps == *cap) {
        size_t c = *cap ? *cap * 2 : 16;
        struct iodfg_offset_overlap *o = realloc(om->overlaps, c * sizeof(*o));
        if (!o) {
            return -1;
        }
        om->overlaps = o;
        *cap = c;
    }
    om->overlaps[om->noverlaps++] = (struct iodfg_offset_overlap){lo, hi, a, b};
    return 0;
}

/* The sweep over the cases' bounds (each case's ranges disjoint, so a case covers a stretch
 * once): active[] lists the covering cases, pos[] where each sits in it. */
static int sweep(struct iodfg_offsetmap *om, struct merge *m, uint32_t *active, uint32_t *pos)
{
    size_t cap = 0;
    uint32_t n = 0;
    int64_t prev = 0, at;
    int start, more;
    uint32_t r;
    for (more = merge_next(m, &at, &start, &r); more;) {
        if (n && at > prev) { // the stretch [prev, at)
            om->union_bytes = iodfg_sat_add(om->union_bytes, at - prev);
            if (n >= 2 && add_overlap(om, &cap, prev, at, active[0], active[1])) {
                return -1;
            }
        }
        uint32_t before = n;
        int64_t here = at;
        for (; more && at == here; more = merge_next(m, &at, &start, &r)) {
            if (start) {
                pos[r] = n;
                active[n++] = r;
            } else { // the last one takes its place
                uint32_t last = active[--n];
                active[pos[r]] = last;
                pos[last] = pos[r];
            }
        }
        om->union_ranges += before == 0 && n > 0;
        prev = here;
    }
    return 0;
}

/* The first overlap ending after lo, or noverlaps. */
static size_t first_after(const struct iodfg_offsetmap *om, int64_t lo)
{
    size_t a = 0, b = om->noverlaps;
    while (a < b) {
        size_t m = a + (b - a) / 2;
        if (om->overlaps[m].hi <= lo) {
            a = m + 1;
        } else {
            b = m;
        }
    }
    return a;
}

static void flag_points(struct iodfg_offsetmap *om)
{
    for (size_t i = 0; om->noverlaps && i < om->npoints; i++) {
        struct iodfg_offset_point *p = &om->points[i];
        if (!p->write || p->length <= 0) {
            continue;
        }
        int64_t end = iodfg_sat_add(p->offset, p->length);
        for (size_t j = first_after(om, p->offset); j < om->noverlaps; j++) {
            const struct iodfg_offset_overlap *o = &om->overlaps[j];
            if (o->lo >= end) {
                break;
            }
            int64_t lo = o->lo > p->offset ? o->lo : p->offset, hi = o->hi < end ? o->hi : end;
            p->overlap = 1;
            om->cases[p->row].overlap_bytes =
                iodfg_sat_add(om->cases[p->row].overlap_bytes, hi - lo);
        }
    }
}

static int ranges_of_cases(struct iodfg_offsetmap *om, struct ranges *all)
{
    size_t most = 0, writes = 0;
    for (size_t a = 0, b; a < om->npoints; a = b) { // the points come by row
        for (b = a; b < om->npoints && om->points[b].row == om->points[a].row; b++) {
            const struct iodfg_offset_point *p = &om->points[b];
            if (p->write && p->length > 0) {
                om->write_bytes = iodfg_sat_add(om->write_bytes, p->length);
                writes++;
            }
        }
        most = b - a > most ? b - a : most;
    }
    // huge pages: on the virtual machines of login nodes small faults cost more than the work
    all->r = iodfg_bigmem_alloc((writes + 1) * sizeof(*all->r));
    struct range *buf = iodfg_bigmem_alloc((most + 1) * sizeof(*buf));
    int rc = all->r && buf ? 0 : -1;
    for (size_t a = 0, b; rc == 0 && a < om->npoints; a = b) {
        for (b = a; b < om->npoints && om->points[b].row == om->points[a].row; b++) {
        }
        case_ranges(om, a, b, buf, all);
    }
    free(buf);
    return rc;
}

int om_overlaps(struct om_build *x, struct iodfg_error *err)
{
    struct iodfg_offsetmap *om = x->om;
    struct ranges all = {NULL, 0};
    struct merge m = {NULL, NULL, 0};
    uint32_t *active = malloc(((size_t)om->ncases + 1) * sizeof(*active));
    uint32_t *pos = malloc(((size_t)om->ncases + 1) * sizeof(*pos));
    int rc = !active || !pos || ranges_of_cases(om, &all) || merge_start(&m, &all) ? -1 : 0;
    if (rc == 0) {
        rc = sweep(om, &m, active, pos);
    }
    if (rc == 0) {
        flag_points(om);
    }
    free(all.r);
    free(m.h);
    free(active);
    free(pos);
    return rc ? iodfg_error_set(err, IODFG_E_NOMEM, "out of memory for the offset map") : 0;
}
