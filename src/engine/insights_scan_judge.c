/* SPDX-License-Identifier: MIT */
/* Insights judged from the event scan (insights_scan.c): small transfers, tiny terminal/pipe
 * writes, lseek before read/write, flock cycles, failed-call storms and the metadata share. */
#include "config.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "iodfg/eventlog.h"
#include "iodfg/format.h"
#include "iodfg/mapping.h"
#include "iodfg/strpool.h"

#include "insights_scan.h"

static void fmt_dur(char *buf, int64_t ns)
{
    iodfg_format_duration(buf, IODFG_FORMAT_MIN, ns, 0);
}

int ins_judge_transfers(struct ins_scan *s)
{
    struct ins_ctx *x = s->x;
    for (uint32_t a = 0; a < x->map->nactivities; a++) {
        const struct ins_set *sm = &s->small[a], *tt = &s->tty[a];
        char v[3][IODFG_FORMAT_MIN];
        if (x->on[IODFG_INS_SMALL_IO] && s->rw_ops[a] >= x->t->min_ops && sm->n &&
            (double)sm->n >= x->t->small_share * (double)s->rw_ops[a]) {
            struct iodfg_insight *f = ins_new(x, IODFG_INS_SMALL_IO, (double)sm->dur_ns);
            if (!f) {
                return -1;
            }
            f->subject_kind = IODFG_SUBJ_ACTIVITY;
            f->subject = a;
            ins_add_act(f, a);
            ins_evidence(f, sm);
            double share = (double)sm->n / (double)s->rw_ops[a];
            iodfg_format_percent(v[0], sizeof(v[0]), share, 0);
            iodfg_format_bytes(v[1], sizeof(v[1]), (int64_t)x->t->small_size, 0);
            fmt_dur(v[2], sm->dur_ns);
            ins_text(f, "%s of %llu reads/writes move less than %s (mean %.0f B); %s spent in them",
                     v[0], (unsigned long long)s->rw_ops[a], v[1],
                     (double)sm->bytes / (double)sm->n, v[2]);
            ins_num(f, "ops", (double)s->rw_ops[a]);
            ins_num(f, "small_ops", (double)sm->n);
            ins_num(f, "small_share", share);
            ins_num(f, "mean_small_bytes", (double)sm->bytes / (double)sm->n);
            ins_num(f, "time_ns", (double)sm->dur_ns);
        }
        if (x->on[IODFG_INS_TINY_TTY] && tt->n >= x->t->tty_writes) {
            struct iodfg_insight *f = ins_new(x, IODFG_INS_TINY_TTY, (double)tt->dur_ns);
            if (!f) {
                return -1;
            }
            f->subject_kind = IODFG_SUBJ_ACTIVITY;
            f->subject = a;
            ins_add_act(f, a);
            ins_evidence(f, tt);
            double span = f->has_window ? (double)(tt->last_ns - tt->first_ns) / 1e9 : NAN;
            double rate = span > 0 ? (double)tt->n / span : NAN;
            fmt_dur(v[0], tt->dur_ns);
            char per[96];
            if (isfinite(rate)) {
                snprintf(per, sizeof(per), "%.0f per second", rate);
            } else { // never "nan per second": say why the rate is not known
                snprintf(per, sizeof(per), "at an unknown rate (%s)",
                         !f->has_window ? "the cases use different clocks"
                         : tt->n > 1    ? "all at one time stamp: no -tt or -ttt?"
                                        : "one write");
            }
            ins_text(f,
                     "%llu writes of less than %.0f B (mean %.1f B) to a terminal or pipe, "
                     "%s; %s spent in them",
                     (unsigned long long)tt->n, x->t->tty_size, (double)tt->bytes / (double)tt->n,
                     per, v[0]);
            ins_num(f, "writes", (double)tt->n);
            ins_num(f, "mean_bytes", (double)tt->bytes / (double)tt->n);
            ins_num(f, "per_second", rate);
            ins_num(f, "time_ns", (double)tt->dur_ns);
        }
    }
    return 0;
}

int ins_judge_seeks(struct ins_scan *s)
{
    struct ins_ctx *x = s->x;
    ins_pairs_sort(&s->edge_paths);
    for (size_t i = 0; x->on[IODFG_INS_SEEK_IO] && i < s->nedges; i++) {
        const struct ins_seek_edge *se = &s->edges[i];
        if (se->set.n < x->t->seek_pairs) {
            continue;
        }
        struct iodfg_insight *f = ins_new(x, IODFG_INS_SEEK_IO, (double)se->set.dur_ns);
        if (!f || ins_pairs_paths(x, &s->edge_paths, (uint32_t)i, f, NULL)) {
            return -1;
        }
        f->subject_kind = IODFG_SUBJ_EDGE;
        f->subject = se->from;
        f->subject2 = se->to;
        ins_add_act(f, se->from);
        ins_add_act(f, se->to);
        f->edge[0][0] = se->from;
        f->edge[0][1] = se->to;
        f->nedge = 1;
        ins_evidence(f, &se->set);
        char v[IODFG_FORMAT_MIN];
        fmt_dur(v, se->set.dur_ns);
        ins_text(f,
                 "%llu lseek calls directly followed by a read/write on the same descriptor "
                 "(%u file(s)); %s spent in the seeks",
                 (unsigned long long)se->set.n, f->paths_total, v);
        ins_num(f, "pairs", (double)se->set.n);
        ins_num(f, "files", f->paths_total);
        ins_num(f, "seek_time_ns", (double)se->set.dur_ns);
    }
    if (x->on[IODFG_INS_LOCK_CYCLE] && s->cycles >= x->t->lock_cycles) {
        struct iodfg_insight *f = ins_new(x, IODFG_INS_LOCK_CYCLE, (double)s->flock.dur_ns);
        if (!f) {
            return -1;
        }
        ins_evidence(f, &s->flock);
        char v[IODFG_FORMAT_MIN];
        fmt_dur(v, s->flock.dur_ns);
        ins_text(f,
                 "%llu flock/read-or-write/flock cycles on one descriptor (%llu flock calls, "
                 "%s in them)",
                 (unsigned long long)s->cycles, (unsigned long long)s->flock.n, v);
        ins_num(f, "cycles", (double)s->cycles);
        ins_num(f, "flock_calls", (double)s->flock.n);
        ins_num(f, "flock_time_ns", (double)s->flock.dur_ns);
    }
    return 0;
}

static int by_str(const void *a, const void *b)
{
    return strcmp(*(const char *const *)a, *(const char *const *)b);
}

// Of the failed paths of group g: the most directories one file name was looked up in.
static uint64_t max_dirs_per_name(const struct ins_scan *s, uint32_t g)
{
    const struct iodfg_strpool *pool = iodfg_eventlog_pool(s->x->log);
    const struct ins_pairs *p = &s->err_paths;
    size_t n = 0;
    for (size_t i = 0; i < p->n; i++) {
        n += p->v[i].group == g &&
             (i == 0 || p->v[i - 1].group != g || p->v[i - 1].item != p->v[i].item);
    }
    const char **names = malloc((n + 1) * sizeof(*names));
    if (!names) {
        return 0;
    }
    size_t m = 0;
    for (size_t i = 0; i < p->n; i++) {
        if (p->v[i].group == g &&
            (i == 0 || p->v[i - 1].group != g || p->v[i - 1].item != p->v[i].item)) {
            const char *path = iodfg_strpool_get(pool, p->v[i].item), *sl = strrchr(path, '/');
            names[m++] = sl ? sl + 1 : path;
        }
    }
    qsort(names, m, sizeof(*names), by_str);
    uint64_t best = 0;
    for (size_t i = 0; i < m;) {
        size_t j = i;
        while (j < m && strcmp(names[j], names[i]) == 0) {
            j++;
        }
        best = j - i > best ? j - i : best;
        i = j;
    }
    free(names);
    return best;
}

int ins_judge_failures(struct ins_scan *s)
{
    struct ins_ctx *x = s->x;
    const struct iodfg_strpool *pool = iodfg_eventlog_pool(x->log);
    ins_pairs_sort(&s->err_paths);
    for (size_t i = 0; x->on[IODFG_INS_FAILED_STORM] && i < s->nerrs; i++) {
        const struct ins_set *es = &s->err_set[i];
        if (es->n < x->t->storm_calls) {
            continue;
        }
        struct iodfg_insight *f = ins_new(x, IODFG_INS_FAILED_STORM, (double)es->dur_ns);
        uint64_t top = 0;
        if (!f || ins_pairs_paths(x, &s->err_paths, (uint32_t)i, f, &top) ||
            ins_intern(x, iodfg_strpool_get(pool, s->errs[i]), iodfg_strpool_len(pool, s->errs[i]),
                       &f->subject)) {
            return -1;
        }
        f->subject_kind = IODFG_SUBJ_NAME;
        ins_evidence(f, es);
        uint64_t dirs = max_dirs_per_name(s, (uint32_t)i);
        char v[IODFG_FORMAT_MIN];
        fmt_dur(v, es->dur_ns);
        ins_text(f,
                 "%llu failed calls on %u distinct path(s), up to %llu on one path; one file "
                 "name tried in up to %llu directories; %s spent in them",
                 (unsigned long long)es->n, f->paths_total, (unsigned long long)top,
                 (unsigned long long)dirs, v);
        ins_num(f, "calls", (double)es->n);
        ins_num(f, "paths", f->paths_total);
        ins_num(f, "max_per_path", (double)top);
        ins_num(f, "max_dirs_per_name", (double)dirs);
        ins_num(f, "time_ns", (double)es->dur_ns);
    }
    return 0;
}

struct case_share {
    uint32_t c;
    double share;
};

static int by_share(const void *pa, const void *pb)
{
    const struct case_share *a = pa, *b = pb;
    return a->share > b->share ? -1 : a->share < b->share ? 1 : (a->c > b->c) - (a->c < b->c);
}

// The directories with the most metadata time into the evidence.
static void top_dirs(struct ins_scan *s, struct iodfg_insight *f)
{
    for (size_t id = 0; id < s->ndir; id++) {
        if (s->dir_ns[id] <= 0) {
            continue;
        }
        f->paths_total++;
        size_t at = f->npaths;
        while (at > 0 && s->dir_ns[f->paths[at - 1]] < s->dir_ns[id]) {
            at--;
        }
        if (at < IODFG_INSIGHT_KEEP) {
            size_t last = f->npaths < IODFG_INSIGHT_KEEP ? f->npaths : IODFG_INSIGHT_KEEP - 1;
            memmove(&f->paths[at + 1], &f->paths[at], (last - at) * sizeof(f->paths[0]));
            f->paths[at] = (uint32_t)id;
            f->npaths += f->npaths < IODFG_INSIGHT_KEEP;
        }
    }
}

int ins_judge_metadata(struct ins_scan *s)
{
    struct ins_ctx *x = s->x;
    uint32_t nc = iodfg_eventlog_case_count(x->log);
    int64_t meta = 0, data = 0;
    uint64_t calls = 0;
    struct case_share *over = malloc(((size_t)nc + 1) * sizeof(*over));
    if (!over) {
        return -1;
    }
    uint32_t nover = 0;
    for (uint32_t c = 0; c < nc; c++) {
        meta = iodfg_sat_add(meta, s->meta_ns[c]);
        data = iodfg_sat_add(data, s->data_ns[c]);
        calls += s->meta_n[c];
        int64_t io = iodfg_sat_add(s->meta_ns[c], s->data_ns[c]);
        double share = io > 0 ? (double)s->meta_ns[c] / (double)io : 0;
        if (io > 0 && s->meta_n[c] >= x->t->meta_calls && share >= x->t->meta_share) {
            over[nover++] = (struct case_share){c, share};
        }
    }
    int64_t io = iodfg_sat_add(meta, data);
    double share = io > 0 ? (double)meta / (double)io : NAN;
    if (io <= 0 && calls >= x->t->meta_calls) {
        x->ins->unjudged[IODFG_INS_METADATA] = "no call durations in the traces (strace -T)";
    }
    int rc = 0;
    if (nover || (io > 0 && calls >= x->t->meta_calls && share >= x->t->meta_share)) {
        struct iodfg_insight *f = ins_new(x, IODFG_INS_METADATA, (double)meta);
        if (!f) {
            free(over);
            return -1;
        }
        qsort(over, nover, sizeof(*over), by_share);
        for (uint32_t i = 0; i < nover && f->ncases < IODFG_INSIGHT_KEEP; i++) {
            f->cases[f->ncases++] = over[i].c;
        }
        f->cases_total = nover;
        top_dirs(s, f);
        char v[2][IODFG_FORMAT_MIN];
        iodfg_format_percent(v[0], sizeof(v[0]), share, 0);
        fmt_dur(v[1], meta);
        ins_text(f,
                 "open/stat/close/getdents and friends take %s of the I/O time (%llu calls, %s); "
                 "%u case(s) at or above %.0f%%, the worst at %.0f%%",
                 v[0], (unsigned long long)calls, v[1], nover, x->t->meta_share * 100,
                 nover ? over[0].share * 100 : share * 100);
        ins_num(f, "meta_share", share);
        ins_num(f, "meta_calls", (double)calls);
        ins_num(f, "meta_time_ns", (double)meta);
        ins_num(f, "data_time_ns", (double)data);
        ins_num(f, "cases_over", nover);
        ins_num(f, "worst_case_share", nover ? over[0].share : NAN);
    }
    free(over);
    return rc;
}
