/* SPDX-License-Identifier: MIT */
/* The written ranges of an offset map. Each case's writes are merged into the ranges it covers
 * (sorted by offset first by a radix sort, unless they already are: sequential and strided
 * writers are); then
 * one sweep over the cases' ranges counts how many cases cover each stretch of the file. Covered
 * stretches make the union; stretches that two cases or more cover are the overlaps (merged where
 * they touch). Then each write is flagged when it meets an overlap. */
#include "config.h"

#include <stdlib.h>
#include <string.h>

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

/* A growing array of ranges. */
struct ranges {
    struct range *r;
    size_t n, cap;
};

static int push(struct ranges *v, struct range r)
{
    if (v->n == v->cap) {
        size_t cap = v->cap ? v->cap * 2 : 64;
        struct range *g = realloc(v->r, cap * sizeof(*g));
        if (!g) {
            return -1;
        }
        v->r = g;
        v->cap = cap;
    }
    v->r[v->n++] = r;
    return 0;
}

/* Merge the writes of one case (points [a, b), all of row) into its ranges, appended to out.
 * tmp and buf hold at least b - a ranges each. */
static int case_ranges(const struct iodfg_offsetmap *om, size_t a, size_t b, struct range *tmp,
                       struct range *buf, struct ranges *out)
{
    size_t n = 0;
    int sorted = 1;
    for (size_t i = a; i < b; i++) {
        const struct iodfg_offset_point *p = &om->points[i];
        if (p->write && p->length > 0) {
            tmp[n] = (struct range){p->offset, iodfg_sat_add(p->offset, p->length), p->row};
            sorted &= n == 0 || tmp[n - 1].lo <= tmp[n].lo;
            n++;
        }
    }
    if (!sorted) {
        sort_ranges(tmp, n, buf);
    }
    for (size_t i = 0; i < n;) {
        struct range r = tmp[i++];
        for (; i < n && tmp[i].lo <= r.hi; i++) { // touching or overlapping: one range
            r.hi = tmp[i].hi > r.hi ? tmp[i].hi : r.hi;
        }
        if (push(out, r)) {
            return -1;
        }
    }
    return 0;
}

struct bound {
    int64_t at;
    int start; /* 1 start, 0 end */
    uint32_t row;
};

static int cmp_bound(const void *a, const void *b)
{
    const struct bound *p = a, *q = b;
    if (p->at != q->at) {
        return p->at < q->at ? -1 : 1;
    }
    return p->start - q->start; // ends first: touching ranges do not overlap
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

/* The sweep over the cases' ranges (each case's disjoint, so a case covers a stretch once):
 * active[] lists the covering cases, pos[] where each sits in it. */
static int sweep(struct iodfg_offsetmap *om, struct bound *bd, size_t nb, uint32_t *active,
                 uint32_t *pos)
{
    size_t cap = 0;
    uint32_t n = 0;
    int64_t prev = 0;
    for (size_t i = 0; i < nb;) {
        int64_t at = bd[i].at;
        if (n && at > prev) { // the stretch [prev, at)
            om->union_bytes = iodfg_sat_add(om->union_bytes, at - prev);
            if (n >= 2 && add_overlap(om, &cap, prev, at, active[0], active[1])) {
                return -1;
            }
        }
        uint32_t before = n;
        for (; i < nb && bd[i].at == at; i++) {
            uint32_t r = bd[i].row;
            if (bd[i].start) {
                pos[r] = n;
                active[n++] = r;
            } else { // the last one takes its place
                uint32_t last = active[--n];
                active[pos[r]] = last;
                pos[last] = pos[r];
            }
        }
        om->union_ranges += before == 0 && n > 0;
        prev = at;
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
    size_t most = 0;
    for (size_t a = 0, b; a < om->npoints; a = b) { // the points come by row
        for (b = a; b < om->npoints && om->points[b].row == om->points[a].row; b++) {
        }
        most = b - a > most ? b - a : most;
    }
    struct range *tmp = malloc((most + 1) * sizeof(*tmp));
    struct range *buf = malloc((most + 1) * sizeof(*buf));
    int rc = tmp && buf ? 0 : -1;
    for (size_t a = 0, b; rc == 0 && a < om->npoints; a = b) {
        for (b = a; b < om->npoints && om->points[b].row == om->points[a].row; b++) {
            const struct iodfg_offset_point *p = &om->points[b];
            if (p->write && p->length > 0) {
                om->write_bytes = iodfg_sat_add(om->write_bytes, p->length);
            }
        }
        rc = case_ranges(om, a, b, tmp, buf, all);
    }
    free(tmp);
    free(buf);
    return rc;
}

int om_overlaps(struct om_build *x, struct iodfg_error *err)
{
    struct iodfg_offsetmap *om = x->om;
    struct ranges all = {NULL, 0, 0};
    struct bound *bd = NULL;
    uint32_t *active = malloc(((size_t)om->ncases + 1) * sizeof(*active));
    uint32_t *pos = malloc(((size_t)om->ncases + 1) * sizeof(*pos));
    int rc = !active || !pos || ranges_of_cases(om, &all) ? -1 : 0;
    if (rc == 0) {
        bd = malloc((2 * all.n + 1) * sizeof(*bd));
        rc = bd ? 0 : -1;
    }
    if (rc == 0) {
        for (size_t i = 0; i < all.n; i++) {
            bd[2 * i] = (struct bound){all.r[i].lo, 1, all.r[i].row};
            bd[2 * i + 1] = (struct bound){all.r[i].hi, 0, all.r[i].row};
        }
        qsort(bd, 2 * all.n, sizeof(*bd), cmp_bound);
        rc = sweep(om, bd, 2 * all.n, active, pos);
    }
    if (rc == 0) {
        flag_points(om);
    }
    free(all.r);
    free(bd);
    free(active);
    free(pos);
    return rc ? iodfg_error_set(err, IODFG_E_NOMEM, "out of memory for the offset map") : 0;
}
