/* SPDX-License-Identifier: MIT */
/* Filling a finding: evidence sets, impact and severity, numbers, text, activities and paths. */
#include "config.h"

#include "insights_finding.h"

#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "iodfg/eventlog.h"
#include "iodfg/strpool.h"
#include "iodfg/trace.h"

void ins_set_add(struct ins_set *s, const struct iodfg_eventlog *log, uint32_t c, int64_t start,
                 int64_t dur, int64_t bytes)
{
    int clock = (int)iodfg_eventlog_case(log, c)->clock;
    int64_t end = dur > 0 ? iodfg_sat_add(start, dur) : start;
    if (s->n == 0) {
        s->clock = clock;
        s->first_ns = start;
        s->last_ns = end;
    } else if (clock != s->clock) {
        s->mixed_clocks = 1;
    } else {
        s->first_ns = start < s->first_ns ? start : s->first_ns;
        s->last_ns = end > s->last_ns ? end : s->last_ns;
    }
    s->n++;
    s->dur_ns = dur > 0 ? iodfg_sat_add(s->dur_ns, dur) : s->dur_ns;
    s->bytes = bytes > 0 ? iodfg_sat_add(s->bytes, bytes) : s->bytes;
    if (s->last_case1 != c + 1) { // cases come in ascending order: a new one
        s->last_case1 = c + 1;
        s->cases_total++;
        if (s->ncases < IODFG_INSIGHT_KEEP) {
            s->cases[s->ncases++] = c;
        }
    }
}

struct iodfg_insight *ins_new(struct ins_ctx *x, enum iodfg_insight_rule r, double time_ns)
{
    if (x->nfound == x->capfound) {
        size_t cap = x->capfound ? x->capfound * 2 : 32;
        struct iodfg_insight *v = realloc(x->found, cap * sizeof(*v));
        if (!v) {
            return NULL;
        }
        x->found = v;
        x->capfound = cap;
    }
    struct iodfg_insight *f = &x->found[x->nfound++];
    memset(f, 0, sizeof(*f));
    f->rule = r;
    f->clock = x->first_clock;
    f->fclass = x->fclass;
    f->time_ns = time_ns >= 0 ? time_ns : NAN;
    int64_t base = x->ins->call_time_ns;
    ins_impact(x, f, base > 0 && time_ns >= 0 ? fmin(1.0, time_ns / (double)base) : NAN);
    return f;
}

void ins_impact(const struct ins_ctx *x, struct iodfg_insight *f, double impact)
{
    const struct iodfg_insight_thresholds *t = x->t;
    f->impact = impact;
    f->severity = !isfinite(impact)           ? IODFG_SEV_LOW
                  : impact >= t->high_share   ? IODFG_SEV_HIGH
                  : impact >= t->medium_share ? IODFG_SEV_MEDIUM
                                              : IODFG_SEV_LOW;
}

void ins_num(struct iodfg_insight *f, const char *name, double value)
{
    if (f->nnum < IODFG_INSIGHT_NUMBERS) {
        f->num[f->nnum++] = (struct iodfg_insight_number){name, value};
    }
}

void ins_text(struct iodfg_insight *f, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(f->text, sizeof(f->text), fmt, ap);
    va_end(ap);
}

void ins_evidence(struct iodfg_insight *f, const struct ins_set *s)
{
    memcpy(f->cases, s->cases, sizeof(f->cases));
    f->ncases = s->ncases;
    f->cases_total = s->cases_total;
    f->has_window = s->n > 0 && !s->mixed_clocks;
    f->clock = s->clock;
    f->from_ns = s->first_ns;
    f->to_ns = s->last_ns;
}

void ins_add_act(struct iodfg_insight *f, uint32_t a)
{
    for (uint32_t i = 0; i < f->nact; i++) {
        if (f->act[i] == a) {
            return;
        }
    }
    f->act_total++;
    if (f->nact < IODFG_INSIGHT_KEEP) {
        f->act[f->nact++] = a;
    }
}

int ins_intern(struct ins_ctx *x, const char *s, size_t len, uint32_t *id)
{
    if (!x->ins->pool && !(x->ins->pool = iodfg_strpool_new())) {
        return -1;
    }
    return iodfg_strpool_intern(x->ins->pool, s, len, id);
}

int ins_add_path(struct ins_ctx *x, struct iodfg_insight *f, const char *s, size_t len)
{
    uint32_t id;
    if (ins_intern(x, s, len, &id)) {
        return -1;
    }
    f->paths_total++;
    if (f->npaths < IODFG_INSIGHT_KEEP) {
        f->paths[f->npaths++] = id;
    }
    return 0;
}

int ins_key_is_file(const struct iodfg_eventlog *log, uint32_t k)
{
    const struct iodfg_key *key = &iodfg_eventlog_keys(log)[k];
    const char *path = iodfg_strpool_get(iodfg_eventlog_pool(log), key->path);
    return key->kind == IODFG_PATH_FILE && strncmp(path, "/dev/", 5) != 0;
}

int ins_case_range(const struct ins_ctx *x, uint32_t c, uint64_t *lo, uint64_t *hi)
{
    return iodfg_trace_case_range(x->log, x->sel, c, lo, hi);
}
