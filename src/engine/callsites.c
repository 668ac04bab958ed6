/* SPDX-License-Identifier: MIT */
/* Call sites: the innermost application frame of each stack (objects classified once by the
 * focus rules), and the selected events counted by (activity, site). */
#include "config.h"

#include "iodfg/callsites.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "iodfg/error.h"
#include "iodfg/eventlog.h"
#include "iodfg/focus.h"
#include "iodfg/mapping.h"
#include "iodfg/stacks.h"
#include "iodfg/strpool.h"

/* Per string id of the pool: 0 not classified yet, 1 the application's object, 2 another. */
static int object_is_app(const struct iodfg_focus *f, const struct iodfg_strpool *pool,
                         uint8_t *cls, uint32_t obj, struct iodfg_error *err)
{
    if (!cls[obj]) {
        char name[IODFG_FOCUS_NAME_MAX];
        const char *path = iodfg_strpool_get(pool, obj);
        int app = *path ? iodfg_focus_classify_object(f, path, name, sizeof(name), err) : 0;
        if (app < 0) {
            return -1;
        }
        cls[obj] = app ? 1 : 2;
    }
    return cls[obj] == 1;
}

int iodfg_callsites_resolve(const struct iodfg_focus *f, const struct iodfg_eventlog *log,
                            uint32_t **site, struct iodfg_error *err)
{
    const struct iodfg_stacks *st = iodfg_eventlog_stacks(log);
    *site = NULL;
    if (!st) {
        return 0;
    }
    const struct iodfg_strpool *pool = iodfg_eventlog_pool(log);
    const struct iodfg_frame *fr = iodfg_stacks_frames(st);
    uint32_t ns = iodfg_stacks_count(st);
    uint8_t *cls = calloc((size_t)iodfg_strpool_count(pool) + 1, 1);
    uint32_t *out = calloc((size_t)ns + 1, sizeof(*out));
    if (!cls || !out) {
        free(cls);
        free(out);
        return iodfg_error_set(err, IODFG_E_NOMEM, NULL);
    }
    for (uint32_t s = 1; s <= ns; s++) {
        uint32_t n;
        const uint32_t *ids = iodfg_stacks_get(st, s, &n);
        for (uint32_t i = 0; i < n; i++) {
            const struct iodfg_frame *x = &fr[ids[i] - 1];
            if (x->flags & IODFG_FRAME_ERROR) {
                continue;
            }
            int app = object_is_app(f, pool, cls, x->object, err);
            if (app < 0) {
                free(cls);
                free(out);
                return -1;
            }
            if (app) {
                out[s] = ids[i];
                break;
            }
        }
    }
    free(cls);
    *site = out;
    return 0;
}

int iodfg_callsites_names(const struct iodfg_focus *f, struct iodfg_eventlog *log, uint32_t **names,
                          struct iodfg_error *err)
{
    uint32_t *site = NULL;
    *names = NULL;
    if (iodfg_callsites_resolve(f, log, &site, err)) {
        return -1;
    }
    if (!site) {
        return 0; // no stacks
    }
    const struct iodfg_stacks *st = iodfg_eventlog_stacks(log);
    const struct iodfg_frame *fr = iodfg_stacks_frames(st);
    struct iodfg_strpool *pool = iodfg_eventlog_pool(log);
    uint32_t ns = iodfg_stacks_count(st);
    int rc = 0;
    for (uint32_t s = 1; rc == 0 && s <= ns; s++) {
        const struct iodfg_frame *x = site[s] ? &fr[site[s] - 1] : NULL;
        char name[320];
        if (!x) {
            continue;
        }
        if (iodfg_strpool_len(pool, x->function)) {
            rc = iodfg_strpool_intern(pool, iodfg_strpool_get(pool, x->function),
                                      iodfg_strpool_len(pool, x->function), &site[s]);
        } else {
            int n = snprintf(name, sizeof(name), "%s+0x%llx", iodfg_strpool_get(pool, x->object),
                             (unsigned long long)x->address);
            rc = iodfg_strpool_intern(pool, name, n > 0 && (size_t)n < sizeof(name) ? (size_t)n : 0,
                                      &site[s]);
        }
    }
    if (rc) {
        free(site);
        return iodfg_error_set(err, IODFG_E_NOMEM, NULL);
    }
    site[0] = IODFG_STR_EMPTY;
    *names = site;
    return 0;
}

int iodfg_callsites_split_keys(const struct iodfg_focus *f, struct iodfg_eventlog *log,
                               struct iodfg_error *err)
{
    uint32_t *site = NULL;
    if (iodfg_callsites_names(f, log, &site, err)) {
        return -1;
    }
    int rc = site ? iodfg_eventlog_split_keys(log, site, err) : 0;
    free(site);
    return rc;
}

void iodfg_callsites_init(struct iodfg_callsites *cs)
{
    memset(cs, 0, sizeof(*cs));
}

void iodfg_callsites_fini(struct iodfg_callsites *cs)
{
    free(cs->rows);
    free(cs->act_dur_ns);
    memset(cs, 0, sizeof(*cs));
}

/* Open addressing over (activity, site) -> row index + 1. */
struct table {
    uint64_t *keys;
    uint32_t *idx;
    size_t nslots;
    struct iodfg_callsite_row *rows;
    uint32_t *last_case;
    size_t n, cap;
};

static size_t slot_of(const struct table *t, uint64_t key)
{
    size_t h = (size_t)((key * 0x9E3779B97F4A7C15ull) >> 17) & (t->nslots - 1);
    while (t->idx[h] && t->keys[h] != key) {
        h = (h + 1) & (t->nslots - 1);
    }
    return h;
}

static int rehash(struct table *t)
{
    size_t ns = t->nslots ? t->nslots * 2 : 256;
    struct table old = *t;
    t->keys = malloc(ns * sizeof(*t->keys));
    t->idx = calloc(ns, sizeof(*t->idx));
    t->nslots = ns;
    if (!t->keys || !t->idx) {
        free(t->keys);
        free(t->idx);
        *t = old;
        return -1;
    }
    for (size_t i = 0; i < t->n; i++) {
        uint64_t key = (uint64_t)t->rows[i].activity << 32 | t->rows[i].site;
        size_t h = slot_of(t, key);
        t->keys[h] = key;
        t->idx[h] = (uint32_t)i + 1;
    }
    free(old.keys);
    free(old.idx);
    return 0;
}

static struct iodfg_callsite_row *row_of(struct table *t, uint32_t act, uint32_t site, uint32_t c)
{
    uint64_t key = (uint64_t)act << 32 | site;
    if ((t->n + 1) * 2 > t->nslots && rehash(t)) {
        return NULL;
    }
    size_t h = slot_of(t, key);
    if (!t->idx[h]) {
        if (t->n == t->cap) {
            size_t cap = t->cap ? t->cap * 2 : 64;
            struct iodfg_callsite_row *r = realloc(t->rows, cap * sizeof(*r));
            uint32_t *lc = r ? realloc(t->last_case, cap * sizeof(*lc)) : NULL;
            if (r) {
                t->rows = r;
            }
            if (!lc) {
                return NULL;
            }
            t->last_case = lc;
            t->cap = cap;
        }
        t->rows[t->n] = (struct iodfg_callsite_row){.activity = act, .site = site};
        t->last_case[t->n] = UINT32_MAX;
        t->keys[h] = key;
        t->idx[h] = (uint32_t)++t->n;
    }
    uint32_t i = t->idx[h] - 1;
    if (t->last_case[i] != c) {
        t->last_case[i] = c;
        t->rows[i].cases++;
    }
    return &t->rows[i];
}

/* A row with its activity's time, for sorting. */
struct keyed {
    int64_t act_dur;
    struct iodfg_callsite_row r;
};

static int cmp_row(const void *a, const void *b)
{
    const struct keyed *kx = a, *ky = b;
    const struct iodfg_callsite_row *x = &kx->r, *y = &ky->r;
    if (x->activity != y->activity) {
        if (kx->act_dur != ky->act_dur) {
            return kx->act_dur > ky->act_dur ? -1 : 1;
        }
        return x->activity < y->activity ? -1 : 1;
    }
    if (x->dur_ns != y->dur_ns) {
        return x->dur_ns > y->dur_ns ? -1 : 1;
    }
    if (x->calls != y->calls) {
        return x->calls > y->calls ? -1 : 1;
    }
    return x->site < y->site ? -1 : x->site > y->site;
}

// Count events [lo, hi) of case c.
static int scan_case(struct iodfg_callsites *cs, struct table *t, const struct iodfg_eventlog *log,
                     const struct iodfg_mapping *map, const struct iodfg_selection *sel,
                     const uint32_t *site, uint32_t c, uint64_t lo, uint64_t hi)
{
    const struct iodfg_columns *col = iodfg_eventlog_columns(log);
    const uint32_t *stack = iodfg_eventlog_stack_ids(log);
    for (uint64_t e = lo; e < hi; e++) {
        int64_t start = col->start_ns ? col->start_ns[e] : 0;
        uint32_t a = map->activity_of_key[col->key[e]];
        if (a == IODFG_NO_ACTIVITY || start < sel->from_ns || start >= sel->to_ns) {
            continue;
        }
        uint32_t s = stack ? stack[e] : 0;
        uint32_t where = !s ? 0 : site && site[s] ? site[s] : IODFG_CALLSITE_RUNTIME;
        struct iodfg_callsite_row *r = row_of(t, a, where, c);
        if (!r) {
            return -1;
        }
        cs->events++;
        cs->with_stack += s != 0;
        cs->with_site += where != 0 && where != IODFG_CALLSITE_RUNTIME;
        r->calls++;
        int64_t d = col->dur_ns ? col->dur_ns[e] : IODFG_UNKNOWN;
        int64_t b = col->size ? col->size[e] : IODFG_UNKNOWN;
        r->dur_ns = iodfg_sat_add(r->dur_ns, d > 0 ? d : 0);
        r->bytes = iodfg_sat_add(r->bytes, b > 0 ? b : 0);
    }
    return 0;
}

int iodfg_callsites_build(struct iodfg_callsites *cs, const struct iodfg_eventlog *log,
                          const struct iodfg_mapping *map, const struct iodfg_selection *sel,
                          const uint32_t *site, struct iodfg_error *err)
{
    iodfg_callsites_fini(cs);
    if (map->nkeys != iodfg_eventlog_key_count(log) ||
        (iodfg_eventlog_event_count(log) && !iodfg_eventlog_columns(log)->key)) {
        return iodfg_error_set(err, IODFG_E_ARG, "the mapping does not belong to this log");
    }
    struct table t = {0};
    const uint64_t *off = iodfg_eventlog_case_offsets(log);
    uint32_t nc = iodfg_eventlog_case_count(log);
    int rc = 0;
    for (uint32_t c = 0; rc == 0 && c < nc; c++) {
        if (!sel->case_on || sel->case_on[c]) {
            rc = scan_case(cs, &t, log, map, sel, site, c, off[c], off[c + 1]);
        }
    }
    cs->act_dur_ns = calloc((size_t)map->nactivities + 1, sizeof(*cs->act_dur_ns));
    struct keyed *k = malloc((t.n + 1) * sizeof(*k));
    free(t.keys);
    free(t.idx);
    free(t.last_case);
    if (rc || !cs->act_dur_ns || !k) {
        free(k);
        free(t.rows);
        iodfg_callsites_fini(cs);
        return iodfg_error_set(err, IODFG_E_NOMEM, NULL);
    }
    cs->nactivities = map->nactivities;
    for (size_t i = 0; i < t.n; i++) {
        int64_t *d = &cs->act_dur_ns[t.rows[i].activity];
        *d = iodfg_sat_add(*d, t.rows[i].dur_ns);
    }
    for (size_t i = 0; i < t.n; i++) {
        k[i] = (struct keyed){cs->act_dur_ns[t.rows[i].activity], t.rows[i]};
    }
    qsort(k, t.n, sizeof(*k), cmp_row);
    for (size_t i = 0; i < t.n; i++) {
        t.rows[i] = k[i].r;
    }
    free(k);
    cs->rows = t.rows;
    cs->nrows = t.n;
    return 0;
}
