/* SPDX-License-Identifier: MIT */
/* The written ranges of an offset map: one sweep over the start and end offsets of the writes
 * counts, for every stretch of the file, how many writes and how many distinct cases cover it.
 * Covered stretches make the union; stretches that two cases or more cover are the overlaps
 * (merged where they touch). Then each write is flagged when it meets an overlap. */
#include "config.h"

#include <stdlib.h>

#include "iodfg/error.h"
#include "iodfg/offsetmap.h"

#include "offsetmap_priv.h"

struct bound {
    int64_t at;
    uint32_t row;
    int start; /* 1 start, 0 end */
};

static int cmp_bound(const void *a, const void *b)
{
    const struct bound *p = a, *q = b;
    if (p->at != q->at) {
        return p->at < q->at ? -1 : 1;
    }
    return p->start - q->start; // ends first: touching writes do not overlap
}

/* Cases covering the current stretch: a count per row and the set of rows with a count. */
struct cover {
    uint32_t *cnt, *set, *pos;
    uint32_t nset;
    uint64_t total; /* writes covering it */
};

static void cover_step(struct cover *cv, const struct bound *b)
{
    uint32_t r = b->row;
    if (b->start) {
        cv->total++;
        if (cv->cnt[r]++ == 0) {
            cv->pos[r] = cv->nset;
            cv->set[cv->nset++] = r;
        }
        return;
    }
    cv->total--;
    if (--cv->cnt[r] == 0) { // out of the set: the last one takes its place
        uint32_t last = cv->set[--cv->nset];
        cv->set[cv->pos[r]] = last;
        cv->pos[last] = cv->pos[r];
    }
}

static int add_overlap(struct iodfg_offsetmap *om, size_t *cap, int64_t lo, int64_t hi,
                       const struct cover *cv)
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
    om->overlaps[om->noverlaps++] = (struct iodfg_offset_overlap){lo, hi, cv->set[0], cv->set[1]};
    return 0;
}

static int sweep(struct iodfg_offsetmap *om, struct bound *bd, size_t nb, struct cover *cv)
{
    size_t cap = 0;
    int64_t prev = 0;
    for (size_t i = 0; i < nb;) {
        int64_t at = bd[i].at;
        if (cv->total && at > prev) { // the stretch [prev, at) as covered so far
            om->union_bytes = iodfg_sat_add(om->union_bytes, at - prev);
            if (cv->nset >= 2 && add_overlap(om, &cap, prev, at, cv)) {
                return -1;
            }
        }
        uint64_t before = cv->total;
        for (; i < nb && bd[i].at == at; i++) {
            cover_step(cv, &bd[i]);
        }
        om->union_ranges += before == 0 && cv->total > 0;
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
    for (size_t i = 0; i < om->npoints; i++) {
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
    size_t nb = 0;
    struct bound *bd = malloc((2 * om->npoints + 1) * sizeof(*bd));
    struct cover cv = {calloc((size_t)om->ncases + 1, sizeof(uint32_t)),
                       malloc(((size_t)om->ncases + 1) * sizeof(uint32_t)),
                       malloc(((size_t)om->ncases + 1) * sizeof(uint32_t)), 0, 0};
    int rc = !bd || !cv.cnt || !cv.set || !cv.pos ? -1 : 0;
    for (size_t i = 0; rc == 0 && i < om->npoints; i++) {
        const struct iodfg_offset_point *p = &om->points[i];
        if (p->write && p->length > 0) {
            om->write_bytes = iodfg_sat_add(om->write_bytes, p->length);
            bd[nb++] = (struct bound){p->offset, p->row, 1};
            bd[nb++] = (struct bound){iodfg_sat_add(p->offset, p->length), p->row, 0};
        }
    }
    if (rc == 0) {
        qsort(bd, nb, sizeof(*bd), cmp_bound);
        rc = sweep(om, bd, nb, &cv);
    }
    if (rc == 0) {
        flag_points(om);
    }
    free(bd);
    free(cv.cnt);
    free(cv.set);
    free(cv.pos);
    return rc ? iodfg_error_set(err, IODFG_E_NOMEM, "out of memory for the offset map") : 0;
}
