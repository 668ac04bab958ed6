/* SPDX-License-Identifier: MIT */
/* The written ranges of an offset map. Each case's writes, in order of offset, are merged
 * where they touch into the ranges it covers: read straight from its points when they come
 * sorted (sequential and strided writers), else from a copy sorted by a radix sort. A heap of
 * the cases merges their ranges' bounds, and one sweep over them counts how many cases cover
 * each stretch of the file. Covered stretches make the union; stretches that two cases or more
 * cover are the overlaps (merged where they touch). Then each write is flagged when it meets an
 * overlap. */
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

/* One row's written ranges in order of offset, merged where they touch or overlap: read
 * straight from the row's points when its writes come sorted (sequential and strided writers),
 * else from a sorted copy of them. */
struct cursor {
    const struct iodfg_offset_point *p; /* the row's points [i, end) when sorted, else NULL */
    const struct range *r;              /* else its writes, sorted: [i, end) */
    size_t i, end;
    int64_t lo, hi; /* the current range */
    int64_t next_lo, next_hi;
    int has_next, at_hi; /* at_hi: the next bound is the current range's end, not its start */
    uint32_t row;
};

/* The row's next write [lo, hi) in offset order: 0 when none is left. */
static int next_write(struct cursor *c, int64_t *lo, int64_t *hi)
{
    if (c->r) {
        if (c->i >= c->end) {
            return 0;
        }
        *lo = c->r[c->i].lo;
        *hi = c->r[c->i++].hi;
        return 1;
    }
    for (; c->i < c->end; c->i++) {
        const struct iodfg_offset_point *q = &c->p[c->i];
        if (q->write && q->length > 0) {
            *lo = q->offset;
            *hi = iodfg_sat_add(q->offset, q->length);
            c->i++;
            return 1;
        }
    }
    return 0;
}

/* Move to the row's next range: 0 when none is left. */
static int next_range(struct cursor *c)
{
    if (!c->has_next) {
        return 0;
    }
    c->lo = c->next_lo;
    c->hi = c->next_hi;
    while ((c->has_next = next_write(c, &c->next_lo, &c->next_hi)) && c->next_lo <= c->hi) {
        c->hi = c->next_hi > c->hi ? c->next_hi : c->hi; // touching or overlapping: one range
    }
    c->at_hi = 0;
    return 1;
}

/* Bounds come in the order of (position, ends before starts, row): a touching pair of ranges
 * does not overlap, and ties between rows go by row as a stable sort of the rows' bounds would. */
static int64_t cursor_at(const struct cursor *c)
{
    return c->at_hi ? c->hi : c->lo;
}

static int cursor_before(const struct cursor *a, const struct cursor *b)
{
    int64_t x = cursor_at(a), y = cursor_at(b);
    if (x != y) {
        return x < y;
    }
    if (a->at_hi != b->at_hi) {
        return a->at_hi; // an end before a start
    }
    return a->row < b->row;
}

/* A binary min-heap of the rows' cursors: the rows' bounds merged, n log(rows) for n bounds
 * where sorting them all cost n log n and as much memory again. sorted: the copies of the
 * unsorted rows' writes. */
struct merge {
    struct cursor *h;
    size_t n;
    struct range *sorted;
};

static void sift_down(struct merge *m, size_t i)
{
    for (;;) {
        size_t l = 2 * i + 1, r = l + 1, least = i;
        if (l < m->n && cursor_before(&m->h[l], &m->h[least])) {
            least = l;
        }
        if (r < m->n && cursor_before(&m->h[r], &m->h[least])) {
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
    *at = cursor_at(c);
    *start = !c->at_hi;
    *row = c->row;
    if (!c->at_hi) {
        c->at_hi = 1;
    } else if (!next_range(c)) {
        *c = m->h[--m->n];
    }
    sift_down(m, 0);
    return 1;
}

/* One row's points [a, b): its writes, whether they come sorted by offset, and their bytes. */
struct row_writes {
    size_t a, b, n;
    int sorted;
};

static struct row_writes count_writes(const struct iodfg_offsetmap *om, size_t a, int64_t *bytes)
{
    struct row_writes w = {a, a, 0, 1};
    int64_t last = INT64_MIN;
    for (; w.b < om->npoints && om->points[w.b].row == om->points[a].row; w.b++) {
        const struct iodfg_offset_point *p = &om->points[w.b];
        if (p->write && p->length > 0) {
            w.sorted &= last <= p->offset;
            last = p->offset;
            w.n++;
            *bytes = iodfg_sat_add(*bytes, p->length);
        }
    }
    return w;
}

/* Copy the writes of points [a, b) to t and sort them by offset (buf: as many, for the sort). */
static void sort_writes(const struct iodfg_offsetmap *om, size_t a, size_t b, struct range *t,
                        struct range *buf)
{
    size_t n = 0;
    for (size_t i = a; i < b; i++) {
        const struct iodfg_offset_point *p = &om->points[i];
        if (p->write && p->length > 0) {
            t[n++] = (struct range){p->offset, iodfg_sat_add(p->offset, p->length), p->row};
        }
    }
    sort_ranges(t, n, buf);
}

/* One cursor per row with writes (the points come by row), the unsorted rows' writes sorted into
 * m->sorted; and the file's write bytes. 0, or -1 when out of memory. */
static int merge_start(struct merge *m, struct iodfg_offsetmap *om)
{
    size_t rows = 0, unsorted = 0, most = 0;
    struct row_writes *w = malloc(((size_t)om->ncases + 1) * sizeof(*w)); // a row is a case
    m->h = malloc(((size_t)om->ncases + 1) * sizeof(*m->h));
    if (!w || !m->h) {
        free(w);
        return -1;
    }
    for (size_t a = 0; a < om->npoints && rows <= om->ncases; a = w[rows++].b) { // by row
        w[rows] = count_writes(om, a, &om->write_bytes);
        unsorted += w[rows].sorted ? 0 : w[rows].n;
        most = !w[rows].sorted && w[rows].n > most ? w[rows].n : most;
    }
    // huge pages: on the virtual machines of login nodes small faults cost more than the work
    m->sorted = unsorted ? iodfg_bigmem_alloc(unsorted * sizeof(*m->sorted)) : NULL;
    struct range *buf = unsorted ? iodfg_bigmem_alloc(most * sizeof(*buf)) : NULL;
    if (unsorted && (!m->sorted || !buf)) {
        free(buf);
        free(w);
        return -1;
    }
    size_t used = 0;
    for (size_t r = 0; r < rows; r++) {
        uint32_t row = om->points[w[r].a].row;
        struct cursor c = {.p = om->points, .i = w[r].a, .end = w[r].b, .row = row};
        if (!w[r].sorted) {
            sort_writes(om, w[r].a, w[r].b, m->sorted + used, buf);
            c = (struct cursor){.r = m->sorted + used, .end = w[r].n, .row = row};
            used += w[r].n;
        }
        c.has_next = next_write(&c, &c.next_lo, &c.next_hi);
        if (next_range(&c)) {
            m->h[m->n++] = c;
        }
    }
    free(w);
    free(buf);
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

int om_overlaps(struct om_build *x, struct iodfg_error *err)
{
    struct iodfg_offsetmap *om = x->om;
    struct merge m = {NULL, 0, NULL};
    uint32_t *active = malloc(((size_t)om->ncases + 1) * sizeof(*active));
    uint32_t *pos = malloc(((size_t)om->ncases + 1) * sizeof(*pos));
    int rc = !active || !pos || merge_start(&m, om) ? -1 : 0;
    if (rc == 0) {
        rc = sweep(om, &m, active, pos);
    }
    if (rc == 0) {
        flag_points(om);
    }
    free(m.sorted);
    free(m.h);
    free(active);
    free(pos);
    return rc ? iodfg_error_set(err, IODFG_E_NOMEM, "out of memory for the offset map") : 0;
}
