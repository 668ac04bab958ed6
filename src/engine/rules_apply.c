/* SPDX-License-Identifier: MIT */
/* Applying rules: one decision per (call, path) key, templates expanded, changes reported. */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "iodfg/buf.h"
#include "iodfg/error.h"
#include "iodfg/eventlog.h"
#include "iodfg/mapping.h"
#include "iodfg/rules.h"
#include "iodfg/strpool.h"

#include "rules_priv.h"

#define DECIDE_NONE (-1L)

struct subject {
    const char *call, *path;
    size_t call_len, path_len;
    unsigned kind;
    const char *fs, *fstype, *scope, *layer, *site;
    size_t fs_len, fstype_len, scope_len, layer_len, site_len;
};

static int in_list(const struct cond *c, const char *s, size_t n)
{
    for (size_t i = 0; i < c->nitems; i++) {
        if (strlen(c->items[i]) == n && memcmp(c->items[i], s, n) == 0) {
            return 1;
        }
    }
    return 0;
}

static void field_of(const struct subject *k, enum iodfg_rule_field f, const char **s, size_t *n)
{
    switch (f) {
    case IODFG_FIELD_CALL:
        *s = k->call, *n = k->call_len;
        break;
    case IODFG_FIELD_FS:
        *s = k->fs, *n = k->fs_len;
        break;
    case IODFG_FIELD_FSTYPE:
        *s = k->fstype, *n = k->fstype_len;
        break;
    case IODFG_FIELD_SCOPE:
        *s = k->scope, *n = k->scope_len;
        break;
    case IODFG_FIELD_LAYER:
        *s = k->layer, *n = k->layer_len;
        break;
    case IODFG_FIELD_SITE:
        *s = k->site ? k->site : "", *n = k->site_len;
        break;
    default:
        *s = k->path, *n = k->path_len;
        break;
    }
}

/* Do all conditions of r hold for k? A regex that hits the match or depth limit counts as not
 * matching; *limited is set then. */
static int rule_holds(const struct rule *r, const struct subject *k, struct rx_scratch *ms,
                      uint64_t *evals, int *limited)
{
    int ok = 1;
    for (unsigned c = 0; ok && c < r->info.ncond; c++) {
        const struct iodfg_rule_cond *pc = &r->pub[c];
        const struct cond *cd = &r->conds[c];
        const char *s;
        size_t n;
        field_of(k, pc->field, &s, &n);
        switch (pc->op) {
        case IODFG_OP_MATCH:
        case IODFG_OP_NOMATCH: {
            int rc = rx_match(cd->rx, s, n, ms, c);
            (*evals)++;
            if (rc < 0) { // unknown: this rule does not apply to the key
                *limited = 1;
                return 0;
            }
            ok = (rc == 1) == (pc->op == IODFG_OP_MATCH);
            break;
        }
        case IODFG_OP_IN:
        case IODFG_OP_NOTIN: {
            int hit = pc->field == IODFG_FIELD_KIND ? (int)((cd->kinds >> k->kind) & 1u)
                                                    : in_list(cd, s, n);
            ok = hit == (pc->op == IODFG_OP_IN);
            break;
        }
        }
    }
    return ok;
}

/* Index of the first rule whose conditions all hold, or DECIDE_NONE. A regex that hits the
 * match or depth limit counts as not matching (the next rule decides); *limit_line gets the
 * line of the first rule where that happened (0: none). */
static long decide(const struct rprog *p, const struct subject *k, struct rx_scratch *ms,
                   uint64_t *evals, unsigned long *limit_line)
{
    for (size_t i = 0; i < p->nrules; i++) {
        const struct rule *r = &p->rules[i];
        int limited = 0;
        if (rule_holds(r, k, ms, evals, &limited)) {
            return (long)i;
        }
        if (limited && !*limit_line) {
            *limit_line = r->info.line;
        }
    }
    return DECIDE_NONE;
}

static void expand(const struct rule *r, const struct subject *k, const struct rx_scratch *ms,
                   struct iodfg_buf *out)
{
    iodfg_buf_clear(out);
    for (size_t i = 0; i < r->nparts; i++) {
        const struct tpart *tp = &r->parts[i];
        switch (tp->type) {
        case TP_LIT:
            iodfg_buf_add(out, r->lits + tp->off, tp->len);
            break;
        case TP_CALL:
            iodfg_buf_add(out, k->call, k->call_len);
            break;
        case TP_PATH:
            iodfg_buf_add(out, k->path, k->path_len);
            break;
        case TP_KIND: {
            const char *kn = iodfg_path_kind_name((enum iodfg_path_kind)k->kind);
            iodfg_buf_add(out, kn, strlen(kn));
            break;
        }
        case TP_PATHN:
            iodfg_buf_add(out, k->path, iodfg_rules_path_prefix(k->path, k->path_len, tp->n));
            break;
        case TP_FS:
            iodfg_buf_add(out, k->fs, k->fs_len);
            break;
        case TP_FSTYPE:
            iodfg_buf_add(out, k->fstype, k->fstype_len);
            break;
        case TP_SCOPE:
            iodfg_buf_add(out, k->scope, k->scope_len);
            break;
        case TP_LAYER:
            iodfg_buf_add(out, k->layer, k->layer_len);
            break;
        case TP_SITE:
            iodfg_buf_add(out, k->site ? k->site : "", k->site_len);
            break;
        case TP_GROUP: {
            const char *s;
            size_t n, off, glen;
            field_of(k, r->pub[tp->cond].field, &s, &n);
            if (rx_group(ms, tp->cond, tp->group, &off, &glen) == 0 && off + glen <= n) {
                iodfg_buf_add(out, s + off, glen);
            }
            break;
        }
        }
    }
}

/* Activity id of name in m, adding it when new (ids stay stable: pool id - 1). */
int rules_mapping_intern(struct iodfg_mapping *m, const char *name, size_t len, uint32_t *a)
{
    uint32_t id;
    if (iodfg_strpool_intern(m->names, name, len, &id) < 0) {
        return -1;
    }
    if (id - 1 < m->nactivities) {
        *a = id - 1;
        return 0;
    }
    uint32_t n = m->nactivities;
    if (n == 0 || (n & (n - 1)) == 0) { // capacity is the next power of two
        uint32_t *p = realloc(m->name_of, (n ? 2 * (size_t)n : 16) * sizeof(*p));
        if (!p) {
            return -1;
        }
        m->name_of = p;
    }
    m->name_of[n] = id;
    m->nactivities = n + 1;
    *a = n;
    return 0;
}

/* The per-key and per-rule arrays of the rules report for nkeys keys and nrules rules (0
 * rules: the f-hat default is in force and nothing is counted). 0 or -1. */
static int report_size(struct iodfg_rules_report *rep, uint32_t nkeys, size_t nrules)
{
    if (nrules && nkeys > rep->cap_keys) {
        uint32_t *p = realloc(rep->key_rule, nkeys * sizeof(*p));
        if (!p) {
            return -1;
        }
        rep->key_rule = p;
        rep->cap_keys = nkeys;
    }
    if (nrules > rep->cap_shadow) {
        uint32_t *p = realloc(rep->rule_shadow, nrules * sizeof(*p));
        if (!p) {
            return -1;
        }
        rep->rule_shadow = p;
        rep->cap_shadow = (uint32_t)nrules;
    }
    rep->nkey_rule = nrules ? nkeys : 0;
    for (uint32_t k = 0; k < rep->nkey_rule; k++) {
        rep->key_rule[k] = IODFG_RULE_NONE;
    }
    for (size_t i = 0; i < nrules; i++) {
        rep->rule_shadow[i] = IODFG_RULE_NONE;
    }
    return 0;
}

static int report_reset(struct iodfg_rules_report *rep, size_t nrules)
{
    rep->nchanged = 0;
    rep->regex_evals = 0;
    rep->mapped = rep->dropped = rep->unmatched = rep->filtered = rep->empty = rep->limited = 0;
    rep->limit_key = 0;
    rep->limit_line = 0;
    if (nrules > rep->cap_rules) {
        uint32_t *p = realloc(rep->rule_keys, nrules * sizeof(*p));
        if (!p) {
            return -1;
        }
        rep->rule_keys = p;
        rep->cap_rules = (uint32_t)nrules;
    }
    rep->nrule_keys = (uint32_t)nrules;
    if (nrules) {
        memset(rep->rule_keys, 0, nrules * sizeof(*rep->rule_keys));
    }
    return 0;
}

static int report_changed(struct iodfg_rules_report *rep, uint32_t key)
{
    if (rep->nchanged == rep->cap_changed) {
        uint32_t cap = rep->cap_changed ? 2 * rep->cap_changed : 64;
        uint32_t *p = realloc(rep->changed, cap * sizeof(*p));
        if (!p) {
            return -1;
        }
        rep->changed = p;
        rep->cap_changed = cap;
    }
    rep->changed[rep->nchanged++] = key;
    return 0;
}

/* Decide one key; returns its activity (or IODFG_NO_ACTIVITY), -1 in *fail on no memory. */
static uint32_t map_key(const struct rprog *p, int counted, const struct subject *k,
                        struct rx_scratch *ms, struct iodfg_buf *buf, struct iodfg_mapping *m,
                        struct iodfg_rules_report *rep, uint32_t key, int *fail)
{
    unsigned long line = 0;
    long d = decide(p, k, ms, &rep->regex_evals, &line);
    if (line && rep->limited++ == 0) {
        rep->limit_key = key;
        rep->limit_line = line;
    }
    if (d == DECIDE_NONE) {
        rep->unmatched++;
        return IODFG_NO_ACTIVITY;
    }
    if (counted) {
        rep->rule_keys[d]++;
        rep->key_rule[key] = (uint32_t)d;
    }
    const struct rule *r = &p->rules[d];
    if (r->info.action == IODFG_RULE_DROP) {
        rep->dropped++;
        return IODFG_NO_ACTIVITY;
    }
    expand(r, k, ms, buf);
    uint32_t a;
    if (buf->failed || (buf->len && rules_mapping_intern(m, buf->data, buf->len, &a) < 0)) {
        *fail = 1;
        return IODFG_NO_ACTIVITY;
    }
    if (buf->len == 0) {
        rep->empty++;
        return IODFG_NO_ACTIVITY;
    }
    rep->mapped++;
    return a;
}

/* Key k of the log as the rules see it. */
static void subject_of(const struct iodfg_eventlog *log, uint32_t k, struct subject *s)
{
    const struct iodfg_key *key = &iodfg_eventlog_keys(log)[k];
    const struct iodfg_strpool *pool = iodfg_eventlog_pool(log);
    *s = (struct subject){.call = iodfg_strpool_get(pool, key->call),
                          .call_len = iodfg_strpool_len(pool, key->call),
                          .path = iodfg_strpool_get(pool, key->path),
                          .path_len = iodfg_strpool_len(pool, key->path),
                          .kind = key->kind,
                          .fs = iodfg_strpool_get(pool, key->fs),
                          .fs_len = iodfg_strpool_len(pool, key->fs),
                          .fstype = iodfg_strpool_get(pool, key->fstype),
                          .fstype_len = iodfg_strpool_len(pool, key->fstype),
                          .scope = iodfg_scope_name((enum iodfg_scope)key->scope),
                          .layer = key->layer ? iodfg_strpool_get(pool, key->layer)
                                              : IODFG_LAYER_DEFAULT,
                          .site = iodfg_strpool_get(pool, key->site),
                          .site_len = iodfg_strpool_len(pool, key->site)};
    s->scope_len = strlen(s->scope);
    s->layer_len = key->layer ? iodfg_strpool_len(pool, key->layer) : strlen(IODFG_LAYER_DEFAULT);
}

/* For each rule that decided no key, the earlier rule that takes the keys it would match: its
 * conditions are run (match-limited) on the keys earlier rules decided, and the earlier rule
 * that decided most of those it matches is its shadow. Only rules that decided nothing cost
 * regex runs. 0, or -1 when out of memory. */
static int shadow_pass(const struct rprog *p, const struct iodfg_eventlog *log,
                       struct rx_scratch *ms, struct iodfg_rules_report *rep)
{
    size_t nidle = 0;
    for (size_t j = 0; j < p->nrules; j++) {
        nidle += rep->rule_keys[j] == 0;
    }
    if (nidle == 0) {
        return 0;
    }
    // took[j * nrules + i]: keys rule j matches that rule i < j decided
    uint32_t *took = calloc(p->nrules * p->nrules, sizeof(*took));
    if (!took) {
        return -1;
    }
    for (uint32_t k = 0; k < rep->nkey_rule; k++) {
        uint32_t d = rep->key_rule[k];
        if (d == IODFG_RULE_NONE) {
            continue;
        }
        struct subject s;
        subject_of(log, k, &s);
        for (size_t j = d + 1; j < p->nrules; j++) {
            int limited = 0;
            if (rep->rule_keys[j] == 0 &&
                rule_holds(&p->rules[j], &s, ms, &rep->regex_evals, &limited)) {
                took[j * p->nrules + d]++;
            }
        }
    }
    for (size_t j = 0; j < p->nrules; j++) {
        uint32_t best = 0;
        for (size_t i = 0; i < j; i++) {
            if (took[j * p->nrules + i] > best) {
                best = took[j * p->nrules + i];
                rep->rule_shadow[j] = (uint32_t)i;
            }
        }
    }
    free(took);
    return 0;
}

int iodfg_rules_apply(const struct iodfg_rules *rs, const struct iodfg_eventlog *log,
                      const uint8_t *key_on, struct iodfg_mapping *m,
                      struct iodfg_rules_report *report, struct iodfg_error *err)
{
    uint32_t ml, dl;
    const struct rprog *p = rules_active(rs, &ml, &dl);
    int counted = p->nrules == iodfg_rules_count(rs);
    struct iodfg_rules_report local;
    struct iodfg_rules_report *rep = report ? report : &local;
    if (!report) {
        iodfg_rules_report_init(&local);
    }
    uint32_t nk = iodfg_eventlog_key_count(log);
    struct rx_scratch *ms = rx_scratch_new(RULES_MAX_CONDS, p->max_groups, ml, dl);
    uint32_t *act = malloc((nk ? nk : 1) * sizeof(*act));
    struct iodfg_buf buf;
    iodfg_buf_init(&buf);
    int fail = !ms || !act || report_reset(rep, counted ? p->nrules : 0) < 0 ||
               report_size(rep, nk, counted ? p->nrules : 0) < 0;
    for (uint32_t k = 0; !fail && k < nk; k++) {
        if (key_on && !key_on[k]) {
            rep->filtered++;
            act[k] = IODFG_NO_ACTIVITY;
            continue;
        }
        struct subject s;
        subject_of(log, k, &s);
        act[k] = map_key(p, counted, &s, ms, &buf, m, rep, k, &fail);
    }
    if (!fail && counted && shadow_pass(p, log, ms, rep)) {
        fail = 1;
    }
    for (uint32_t k = 0; !fail && k < nk; k++) {
        uint32_t old = k < m->nkeys ? m->activity_of_key[k] : IODFG_NO_ACTIVITY;
        fail = old != act[k] && report_changed(rep, k) < 0;
    }
    iodfg_buf_fini(&buf);
    rx_scratch_free(ms);
    if (!report) {
        iodfg_rules_report_fini(&local);
    }
    if (fail) {
        free(act);
        return iodfg_error_set(err, IODFG_E_NOMEM, NULL);
    }
    free(m->activity_of_key);
    m->activity_of_key = act;
    m->nkeys = nk;
    return 0;
}

static void subject_field(const char *s, const char **f, size_t *n)
{
    *f = s ? s : "";
    *n = strlen(*f);
}

int rules_map_one(const struct iodfg_rules *rs, const struct rules_key *k, struct iodfg_buf *out,
                  unsigned long *line, int *limited)
{
    uint32_t ml, dl;
    const struct rprog *p = rules_active(rs, &ml, &dl);
    struct subject s = {.kind = k->kind};
    subject_field(k->call, &s.call, &s.call_len);
    subject_field(k->path, &s.path, &s.path_len);
    subject_field(k->fs, &s.fs, &s.fs_len);
    subject_field(k->fstype, &s.fstype, &s.fstype_len);
    subject_field(k->scope, &s.scope, &s.scope_len);
    subject_field(k->layer, &s.layer, &s.layer_len);
    subject_field(k->site, &s.site, &s.site_len);
    struct rx_scratch *ms = rx_scratch_new(RULES_MAX_CONDS, p->max_groups, ml, dl);
    if (!ms) {
        return -1;
    }
    uint64_t evals = 0;
    unsigned long limit_line = 0;
    long d = decide(p, &s, ms, &evals, &limit_line);
    *limited = limit_line != 0;
    *line = d == DECIDE_NONE ? 0 : p->rules[d].info.line;
    iodfg_buf_clear(out);
    if (d != DECIDE_NONE && p->rules[d].info.action == IODFG_RULE_MAP) {
        expand(&p->rules[d], &s, ms, out);
    }
    rx_scratch_free(ms);
    return out->failed ? -1 : out->len > 0;
}

void iodfg_rules_report_init(struct iodfg_rules_report *r)
{
    memset(r, 0, sizeof(*r));
}

void iodfg_rules_report_fini(struct iodfg_rules_report *r)
{
    free(r->changed);
    free(r->rule_keys);
    free(r->key_rule);
    free(r->rule_shadow);
    memset(r, 0, sizeof(*r));
}
