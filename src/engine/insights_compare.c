/* SPDX-License-Identifier: MIT */
/* Findings of two groups side by side: each finding's place (rule, focus class, kind of I/O and
 * the top two directories of its files, not the raw path: diff_shape.h), and the rows that align
 * them. */
#include "config.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "iodfg/buf.h"
#include "iodfg/diff.h"
#include "iodfg/error.h"
#include "iodfg/eventlog.h"
#include "iodfg/insights.h"
#include "iodfg/mapping.h"
#include "iodfg/metrics.h"
#include "iodfg/rules.h"
#include "iodfg/strpool.h"

#include "diff_shape.h"
#include "insights_families.h"

static const char *family_name(uint32_t f)
{
    switch (f) {
    case IODFG_IO_READ:
        return "read";
    case IODFG_IO_WRITE:
        return "write";
    case IODFG_IO_SEEK:
        return "seek";
    case IODFG_IO_OPEN:
        return "open";
    default:
        return NULL;
    }
}

/* "write /tmp/scratch" for activity a, or its name when its keys do not share both. */
static void where(const struct ins_ctx *x, const struct diff_shape *sh, uint32_t a,
                  struct iodfg_buf *b)
{
    const char *fam = a < x->map->nactivities ? family_name(sh[a].family) : NULL;
    if (fam && sh[a].place < DIFF_SHAPE_UNSET) {
        size_t len;
        const char *p = diff_key_place(x->log, sh[a].place, &len);
        iodfg_buf_addf(b, "%s %.*s", fam, (int)len, p);
    } else {
        iodfg_buf_addf(b, "%s", iodfg_mapping_name(x->map, a));
    }
}

int ins_align(struct ins_ctx *x)
{
    struct diff_shape *sh = malloc(((size_t)x->map->nactivities + 1) * sizeof(*sh));
    if (!sh) {
        return -1;
    }
    diff_shapes(x->log, x->map, x->kflags, NULL, sh);
    struct iodfg_buf b;
    iodfg_buf_init(&b);
    int rc = 0;
    for (size_t i = 0; rc == 0 && i < x->nfound; i++) {
        struct iodfg_insight *f = &x->found[i];
        iodfg_buf_clear(&b);
        iodfg_buf_addf(&b, "%s|%s|", iodfg_insight_rule_name(f->rule),
                       iodfg_insight_class(x->ins, f));
        switch (f->subject_kind) {
        case IODFG_SUBJ_NAME:
            iodfg_buf_addf(&b, "%s", iodfg_strpool_get(x->ins->pool, f->subject));
            break;
        case IODFG_SUBJ_ACTIVITY:
            where(x, sh, f->subject, &b);
            break;
        case IODFG_SUBJ_EDGE:
            where(x, sh, f->subject, &b);
            iodfg_buf_add(&b, ">", 1);
            where(x, sh, f->subject2, &b);
            break;
        case IODFG_SUBJ_PATH:
            if (f->nact) {
                where(x, sh, f->act[0], &b);
            } else {
                iodfg_buf_addf(&b, "%s", iodfg_strpool_get(x->ins->pool, f->subject));
            }
            break;
        default: // the selection or a run: the rule and class alone
            break;
        }
        rc = b.failed || ins_intern(x, b.data, b.len, &f->align) ? -1 : 0;
    }
    iodfg_buf_fini(&b);
    free(sh);
    return rc;
}

/* ---- aligning two groups ---- */

static const char *align_of(const struct iodfg_insights *in, const struct iodfg_insight *f)
{
    return in->pool ? iodfg_strpool_get(in->pool, f->align) : "";
}

static double time_per_case(const struct iodfg_insights *in, const struct iodfg_insight *f)
{
    return in->cases ? f->time_ns / (double)in->cases : NAN;
}

static enum iodfg_insight_side both_side(const struct iodfg_insights *g,
                                         const struct iodfg_insight *fg,
                                         const struct iodfg_insights *r,
                                         const struct iodfg_insight *fr)
{
    double tg = time_per_case(g, fg), tr = time_per_case(r, fr);
    double ratio = g->changed_ratio > 1 ? g->changed_ratio : IODFG_DIFF_CHANGED_RATIO;
    int changed = fg->severity != fr->severity ||
                  (isfinite(tg) && isfinite(tr) && iodfg_diff_changed(tg, tr, ratio));
    return changed ? IODFG_INS_BOTH : IODFG_INS_SAME;
}

int iodfg_insights_align(const struct iodfg_insights *g, const struct iodfg_insights *r,
                         struct iodfg_insight_change **out, size_t *n, struct iodfg_error *err)
{
    *out = calloc(g->n + r->n + 1, sizeof(**out));
    uint8_t *taken = calloc(r->n + 1, 1);
    *n = 0;
    if (!*out || !taken) {
        free(*out);
        free(taken);
        *out = NULL;
        return iodfg_error_set(err, IODFG_E_NOMEM, NULL);
    }
    for (size_t i = 0; i < g->n; i++) { // G's in rank order, each with R's first of its place
        const struct iodfg_insight *fg = &g->v[i], *fr = NULL;
        for (size_t j = 0; !fr && j < r->n; j++) {
            if (!taken[j] && r->v[j].rule == fg->rule &&
                strcmp(align_of(r, &r->v[j]), align_of(g, fg)) == 0) {
                taken[j] = 1;
                fr = &r->v[j];
            }
        }
        enum iodfg_insight_side side = fr ? both_side(g, fg, r, fr) : IODFG_INS_G_ONLY;
        (*out)[(*n)++] = (struct iodfg_insight_change){side, fg, fr};
    }
    for (size_t j = 0; j < r->n; j++) {
        if (!taken[j]) {
            (*out)[(*n)++] = (struct iodfg_insight_change){IODFG_INS_R_ONLY, NULL, &r->v[j]};
        }
    }
    free(taken);
    return 0;
}

int iodfg_insights_compare(const struct iodfg_insights *g, const struct iodfg_insights *r,
                           const struct iodfg_mapping *map, struct iodfg_insight_change **out,
                           size_t *n, struct iodfg_error *err)
{
    (void)map;
    if (iodfg_insights_align(g, r, out, n, err)) {
        return -1;
    }
    size_t m = 0;
    for (size_t i = 0; i < *n; i++) {
        if ((*out)[i].side != IODFG_INS_SAME) {
            (*out)[m++] = (*out)[i];
        }
    }
    *n = m;
    return 0;
}
