/* SPDX-License-Identifier: MIT */
/* The shape of an activity: the kind of I/O and the place all its keys share. */
#include "config.h"

#include "diff_shape.h"

#include <string.h>

#include "iodfg/eventlog.h"
#include "iodfg/mapping.h"
#include "iodfg/metrics.h"
#include "iodfg/rules.h"
#include "iodfg/strpool.h"

#define FAMILY (IODFG_IO_READ | IODFG_IO_WRITE | IODFG_IO_SEEK | IODFG_IO_OPEN)

const char *diff_key_place(const struct iodfg_eventlog *log, uint32_t k, size_t *len)
{
    const struct iodfg_key *key = &iodfg_eventlog_keys(log)[k];
    const struct iodfg_strpool *pool = iodfg_eventlog_pool(log);
    const char *p = iodfg_strpool_get(pool, key->path);
    *len = key->kind == IODFG_PATH_FILE
               ? iodfg_rules_path_prefix(p, iodfg_strpool_len(pool, key->path), 2)
               : 0;
    return p;
}

void diff_shapes(const struct iodfg_eventlog *log, const struct iodfg_mapping *map,
                 const uint8_t *kflags, const uint8_t *key_on, struct diff_shape *sh)
{
    for (uint32_t a = 0; a < map->nactivities; a++) {
        sh[a] = (struct diff_shape){DIFF_SHAPE_UNSET, DIFF_SHAPE_UNSET};
    }
    for (uint32_t k = 0; k < map->nkeys; k++) {
        uint32_t a = map->activity_of_key[k];
        if (a == IODFG_NO_ACTIVITY || (key_on && !key_on[k])) {
            continue;
        }
        uint32_t f = kflags[k] & FAMILY;
        sh[a].family = sh[a].family == DIFF_SHAPE_UNSET || sh[a].family == f ? f : DIFF_SHAPE_MIXED;
        size_t len, plen;
        const char *p = diff_key_place(log, k, &len);
        if (sh[a].place == DIFF_SHAPE_UNSET) {
            sh[a].place = len ? k : DIFF_SHAPE_MIXED;
        } else if (sh[a].place != DIFF_SHAPE_MIXED) {
            const char *q = diff_key_place(log, sh[a].place, &plen);
            sh[a].place =
                len && len == plen && memcmp(p, q, len) == 0 ? sh[a].place : DIFF_SHAPE_MIXED;
        }
    }
}

int diff_shape_same(const struct iodfg_eventlog *log, const struct diff_shape *a,
                    const struct diff_shape *b)
{
    if (!a->family || a->family >= DIFF_SHAPE_UNSET || a->family != b->family ||
        a->place >= DIFF_SHAPE_UNSET || b->place >= DIFF_SHAPE_UNSET) {
        return 0;
    }
    size_t la, lb;
    const char *pa = diff_key_place(log, a->place, &la), *pb = diff_key_place(log, b->place, &lb);
    return la == lb && memcmp(pa, pb, la) == 0;
}
