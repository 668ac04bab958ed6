/* SPDX-License-Identifier: MIT */
/* Evaluating filters: case masks, key masks, the time window, and group overlap checks. */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "iodfg/buf.h"
#include "iodfg/error.h"
#include "iodfg/eventlog.h"
#include "iodfg/filter.h"
#include "iodfg/mapping.h"
#include "iodfg/strpool.h"

#include "filter_priv.h"

int filter_test_string(const struct iodfg_filter *f, const char *s, size_t n, struct rx_scratch *ms,
                       uint64_t *evals)
{
    if (f->rx) {
        (*evals)++;
        int rc = rx_match(f->rx, s, n, ms, 0);
        // A match that hits the limit counts as "no match": the filter keeps nothing it cannot
        // decide (for ~), and excludes nothing it cannot decide (for !~).
        return (rc == 1) == (f->op == IODFG_OP_MATCH);
    }
    int hit = 0;
    for (size_t i = 0; i < f->nitems && !hit; i++) {
        hit = strlen(f->items[i]) == n && memcmp(f->items[i], s, n) == 0;
    }
    return hit == (f->op == IODFG_OP_IN);
}

static uint32_t case_string(const struct iodfg_case_info *ci, enum case_field field)
{
    switch (field) {
    case CF_CID:
        return ci->cid;
    case CF_HOST:
        return ci->host;
    case CF_RID:
        return ci->rid;
    case CF_NAME:
        return ci->name;
    case CF_SOURCE:
        return ci->source;
    case CF_NONE:
        break;
    }
    return IODFG_STR_EMPTY;
}

static int test_case(const struct iodfg_filter *f, const struct iodfg_eventlog *log, uint32_t c,
                     struct rx_scratch *ms, uint64_t *evals)
{
    const struct iodfg_strpool *pool = iodfg_eventlog_pool(log);
    uint32_t id = case_string(iodfg_eventlog_case(log, c), f->field);
    return filter_test_string(f, iodfg_strpool_get(pool, id), iodfg_strpool_len(pool, id), ms,
                              evals);
}

static int test_key(const struct iodfg_filter *f, const struct iodfg_eventlog *log, uint32_t k,
                    struct rx_scratch *ms, uint64_t *evals)
{
    const struct iodfg_strpool *pool = iodfg_eventlog_pool(log);
    const struct iodfg_key *key = &iodfg_eventlog_keys(log)[k];
    if (f->kind == IODFG_FILTER_KIND) {
        return (int)((f->kinds >> key->kind) & 1u) == (f->op == IODFG_OP_IN);
    }
    if (f->kind == IODFG_FILTER_SCOPE) {
        const char *s = iodfg_scope_name((enum iodfg_scope)key->scope);
        return filter_test_string(f, s, strlen(s), ms, evals);
    }
    if (f->kind == IODFG_FILTER_LAYER && key->layer == IODFG_STR_EMPTY) {
        return filter_test_string(f, IODFG_LAYER_DEFAULT, strlen(IODFG_LAYER_DEFAULT), ms, evals);
    }
    uint32_t id = f->kind == IODFG_FILTER_CALL     ? key->call
                  : f->kind == IODFG_FILTER_FS     ? key->fs
                  : f->kind == IODFG_FILTER_FSTYPE ? key->fstype
                  : f->kind == IODFG_FILTER_LAYER  ? key->layer
                  : f->kind == IODFG_FILTER_SITE   ? key->site
                                                   : key->path;
    return filter_test_string(f, iodfg_strpool_get(pool, id), iodfg_strpool_len(pool, id), ms,
                              evals);
}

void iodfg_filter_result_init(struct iodfg_filter_result *r)
{
    memset(r, 0, sizeof(*r));
}

void iodfg_filter_result_fini(struct iodfg_filter_result *r)
{
    free(r->case_on);
    free(r->key_on);
    memset(r, 0, sizeof(*r));
}

static int64_t add_sat(int64_t a, int64_t b)
{
    return (b > 0 && a > INT64_MAX - b) ? INT64_MAX : a + b;
}

static void apply_time(const struct iodfg_filter *f, struct iodfg_filter_result *r)
{
    if (f->has_from) {
        int64_t from = f->from_abs ? f->from_ns : add_sat(r->log_start_ns, f->from_ns);
        r->from_ns = from > r->from_ns ? from : r->from_ns;
    }
    if (f->has_to) {
        int64_t to = f->to_abs ? f->to_ns : add_sat(r->log_start_ns, f->to_ns);
        r->to_ns = to < r->to_ns ? to : r->to_ns;
    }
}

static int grow_mask(uint8_t **mask, uint32_t *cap, uint32_t n)
{
    if (n > *cap || !*mask) {
        uint8_t *p = realloc(*mask, n ? n : 1);
        if (!p) {
            return -1;
        }
        *mask = p;
        *cap = n;
    }
    memset(*mask, 1, n);
    return 0;
}

int iodfg_filter_stack_apply(const struct iodfg_filter_stack *fs, const struct iodfg_eventlog *log,
                             struct iodfg_filter_result *r, struct iodfg_error *err)
{
    uint32_t nc = iodfg_eventlog_case_count(log), nk = iodfg_eventlog_key_count(log);
    struct rx_scratch *ms = rx_scratch_new(1, 0, RX_DEFAULT_MATCH_LIMIT, RX_DEFAULT_DEPTH_LIMIT);
    if (!ms || grow_mask(&r->case_on, &r->ncases, nc) < 0 ||
        grow_mask(&r->key_on, &r->nkeys, nk) < 0) {
        rx_scratch_free(ms);
        return iodfg_error_set(err, IODFG_E_NOMEM, NULL);
    }
    r->ncases = nc;
    r->nkeys = nk;
    r->regex_evals = 0;
    r->log_start_ns = iodfg_eventlog_time_origin(log);
    r->from_ns = INT64_MIN;
    r->to_ns = INT64_MAX;
    r->min_edge = iodfg_filter_stack_min_edge(fs);
    r->top = iodfg_filter_stack_top(fs);
    for (size_t i = 0; i < iodfg_filter_stack_count(fs); i++) {
        const struct iodfg_filter *f = iodfg_filter_stack_get(fs, i);
        if (f->kind == IODFG_FILTER_CASE) {
            for (uint32_t c = 0; c < nc; c++) {
                r->case_on[c] = r->case_on[c] && test_case(f, log, c, ms, &r->regex_evals);
            }
        } else if (filter_on_key(f->kind)) {
            for (uint32_t k = 0; k < nk; k++) {
                r->key_on[k] = r->key_on[k] && test_key(f, log, k, ms, &r->regex_evals);
            }
        } else if (f->kind == IODFG_FILTER_TIME) {
            apply_time(f, r);
        }
    }
    rx_scratch_free(ms);
    r->ncases_on = r->nkeys_on = 0;
    for (uint32_t c = 0; c < nc; c++) {
        r->ncases_on += r->case_on[c];
    }
    for (uint32_t k = 0; k < nk; k++) {
        r->nkeys_on += r->key_on[k];
    }
    return 0;
}

void iodfg_filter_result_selection(const struct iodfg_filter_result *r, struct iodfg_selection *sel)
{
    sel->case_on = r->case_on;
    sel->from_ns = r->from_ns;
    sel->to_ns = r->to_ns;
}

int iodfg_filter_case_mask(const struct iodfg_filter_stack *group, const struct iodfg_eventlog *log,
                           uint8_t *mask, struct iodfg_error *err)
{
    uint32_t nc = iodfg_eventlog_case_count(log);
    size_t n = iodfg_filter_stack_count(group);
    for (size_t i = 0; i < n; i++) {
        const struct iodfg_filter *f = iodfg_filter_stack_get(group, i);
        if (f->kind != IODFG_FILTER_CASE) {
            struct iodfg_buf b;
            iodfg_buf_init(&b);
            iodfg_filter_format(f, &b);
            iodfg_error_set(err, IODFG_E_ARG,
                            "a group takes case predicates (cid, host, rid, name, source), "
                            "not '%s'",
                            b.data ? b.data : "");
            iodfg_buf_fini(&b);
            return -1;
        }
    }
    struct rx_scratch *ms = rx_scratch_new(1, 0, RX_DEFAULT_MATCH_LIMIT, RX_DEFAULT_DEPTH_LIMIT);
    if (!ms) {
        return iodfg_error_set(err, IODFG_E_NOMEM, NULL);
    }
    uint64_t evals = 0;
    for (uint32_t c = 0; c < nc; c++) {
        mask[c] = n > 0; // an empty group has no members
        for (size_t i = 0; i < n && mask[c]; i++) {
            mask[c] = (uint8_t)test_case(iodfg_filter_stack_get(group, i), log, c, ms, &evals);
        }
    }
    rx_scratch_free(ms);
    return 0;
}

void iodfg_filter_groups_overlap(const struct iodfg_eventlog *log, const uint8_t *g,
                                 const uint8_t *r, uint32_t base, struct iodfg_groups_overlap *ov)
{
    uint32_t nc = iodfg_eventlog_case_count(log);
    const struct iodfg_strpool *pool = iodfg_eventlog_pool(log);
    for (uint32_t c = 0; c < nc; c++) {
        if (!g[c] || !r[c]) {
            continue;
        }
        if (ov->nnames < IODFG_OVERLAP_NAMES) {
            const char *nm = iodfg_strpool_get(pool, iodfg_eventlog_case(log, c)->name);
            char *to = ov->name[ov->nnames++];
            if (*nm) {
                snprintf(to, sizeof(ov->name[0]), "%.60s", nm);
            } else {
                snprintf(to, sizeof(ov->name[0]), "#%u", base + c);
            }
        }
        ov->count++;
    }
}

void iodfg_filter_overlap_add(struct iodfg_groups_overlap *dst,
                              const struct iodfg_groups_overlap *src)
{
    for (uint32_t i = 0; i < src->nnames && dst->nnames < IODFG_OVERLAP_NAMES; i++) {
        memcpy(dst->name[dst->nnames++], src->name[i], sizeof(src->name[i]));
    }
    dst->count += src->count;
}

int iodfg_filter_overlap_error(const struct iodfg_groups_overlap *ov, struct iodfg_error *err)
{
    if (ov->count == 0) {
        return 0;
    }
    char names[IODFG_OVERLAP_NAMES * 64];
    size_t used = 0;
    for (uint32_t i = 0; i < ov->nnames; i++) {
        int w = snprintf(names + used, sizeof(names) - used, "%s%s", i ? ", " : "", ov->name[i]);
        used += w > 0 ? (size_t)w : 0;
        used = used < sizeof(names) ? used : sizeof(names) - 1;
    }
    return iodfg_error_set(err, IODFG_E_ARG, "groups G and R overlap in %u case%s: %s%s", ov->count,
                           ov->count == 1 ? "" : "s", names,
                           ov->count > IODFG_OVERLAP_NAMES ? ", ..." : "");
}

int iodfg_filter_groups_check(const struct iodfg_eventlog *log, const uint8_t *g, const uint8_t *r,
                              struct iodfg_error *err)
{
    struct iodfg_groups_overlap ov;
    memset(&ov, 0, sizeof(ov));
    iodfg_filter_groups_overlap(log, g, r, 0, &ov);
    return iodfg_filter_overlap_error(&ov, err);
}
