/* SPDX-License-Identifier: MIT */
/* Insights from the characterisation measures: access patterns (access.h), the stair-case index
 * (Wright et al. 2013) and I/O intensity with burstiness (El Sayed et al. 2016). */
#include "config.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "iodfg/access.h"
#include "iodfg/bandwidth.h"
#include "iodfg/error.h"
#include "iodfg/eventlog.h"
#include "iodfg/format.h"
#include "iodfg/mapping.h"
#include "iodfg/metrics.h"

#include "insights_families.h"

static const char *const dir_name[2] = {"reads", "writes"};

static int access_unknown(struct ins_ctx *x, uint32_t a, int d, const struct iodfg_access_dir *ad)
{
    struct iodfg_insight *f = ins_new(x, IODFG_INS_ACCESS_UNKNOWN, NAN);
    if (!f) {
        return -1;
    }
    f->severity = IODFG_SEV_INFO;
    f->subject_kind = IODFG_SUBJ_ACTIVITY;
    f->subject = a;
    ins_add_act(f, a);
    ins_evidence(f, &x->act_set[a]);
    ins_text(f,
             "%llu of %llu %s at unknown offsets (no open or lseek of their descriptor was "
             "traced): random or sequential cannot be told",
             (unsigned long long)ad->unknown, (unsigned long long)ad->ops, dir_name[d]);
    ins_num(f, "ops", (double)ad->ops);
    ins_num(f, "unknown", (double)ad->unknown);
    return 0;
}

static int access_random(struct ins_ctx *x, uint32_t a, int d, const struct iodfg_access_dir *ad)
{
    uint64_t known = ad->ops - ad->unknown, off = ad->random + ad->sequential;
    if (!known || (double)off < x->t->random_share * (double)known) {
        return 0;
    }
    // time of the activity's events in proportion to the accesses off the sequence
    double t = (double)x->act_set[a].dur_ns * (double)off / (double)ad->ops;
    struct iodfg_insight *f = ins_new(x, IODFG_INS_RANDOM_ACCESS, t);
    if (!f) {
        return -1;
    }
    f->subject_kind = IODFG_SUBJ_ACTIVITY;
    f->subject = a;
    ins_add_act(f, a);
    ins_evidence(f, &x->act_set[a]);
    char share[IODFG_FORMAT_MIN];
    iodfg_format_percent(share, sizeof(share), (double)off / (double)known, 0);
    ins_text(f,
             "%s of %llu %s at known offsets are off the sequence: %llu backwards (random), "
             "%llu skip forward (strided)%s",
             share, (unsigned long long)known, dir_name[d], (unsigned long long)ad->random,
             (unsigned long long)ad->sequential,
             ad->inferred ? "; offsets inferred in traces without any lseek (a seek would not "
                            "have been traced)"
                          : "");
    ins_num(f, "known", (double)known);
    ins_num(f, "random", (double)ad->random);
    ins_num(f, "strided", (double)ad->sequential);
    ins_num(f, "consecutive", (double)ad->consecutive);
    ins_num(f, "unknown", (double)ad->unknown);
    ins_num(f, "inferred", (double)ad->inferred);
    return 0;
}

static int judge_access(struct ins_ctx *x, struct iodfg_error *err)
{
    struct iodfg_access ac;
    iodfg_access_init(&ac);
    if (iodfg_access_build(&ac, x->log, x->map, x->sel, 4096, NULL, err)) {
        return -1;
    }
    // only activities of files: pipes, sockets and terminals have no offsets to follow
    uint8_t *file = calloc((size_t)ac.nactivities + 1, 1);
    int rc = file ? 0 : -1;
    for (uint32_t k = 0; file && k < x->map->nkeys; k++) {
        uint32_t a = x->map->activity_of_key[k];
        if (a != IODFG_NO_ACTIVITY && ins_key_is_file(x->log, k)) {
            file[a] = 1;
        }
    }
    for (uint32_t a = 0; rc == 0 && a < ac.nactivities; a++) {
        for (int d = 0; rc == 0 && file[a] && d < 2; d++) {
            const struct iodfg_access_dir *ad = &ac.act[a].dir[d];
            if (ad->ops < x->t->min_ops) {
                continue;
            }
            if ((double)ad->unknown >= x->t->unknown_share * (double)ad->ops) {
                rc = x->on[IODFG_INS_ACCESS_UNKNOWN] ? access_unknown(x, a, d, ad) : 0;
            } else if (x->on[IODFG_INS_RANDOM_ACCESS]) {
                rc = access_random(x, a, d, ad);
            }
        }
    }
    free(file);
    iodfg_access_fini(&ac);
    return rc ? iodfg_error_set(err, IODFG_E_NOMEM, NULL) : 0;
}

static int judge_stairs(struct ins_ctx *x, struct iodfg_error *err)
{
    struct iodfg_serial sr;
    iodfg_serial_init(&sr);
    if (iodfg_serial_build(&sr, x->log, x->map, x->sel, NULL, NULL, err)) {
        return -1;
    }
    int rc = 0;
    for (uint32_t a = 0; rc == 0 && a < sr.nactivities; a++) {
        const struct iodfg_serial_row *r = &sr.act[a];
        if (r->stair < x->t->stair_index || r->queued < x->t->stair_calls) {
            continue;
        }
        struct iodfg_insight *f = ins_new(x, IODFG_INS_STAIR_CASE, (double)r->staggered_ns);
        if (!f) {
            rc = iodfg_error_set(err, IODFG_E_NOMEM, NULL);
            break;
        }
        f->subject_kind = IODFG_SUBJ_ACTIVITY;
        f->subject = a;
        ins_add_act(f, a);
        ins_evidence(f, &x->act_set[a]);
        char v[2][IODFG_FORMAT_MIN];
        iodfg_format_duration(v[0], sizeof(v[0]), r->staggered_ns, 0);
        iodfg_format_duration(v[1], sizeof(v[1]), r->busy_ns, 0);
        ins_text(f,
                 "stair-case index %.2f: %llu calls completed one after another while queued "
                 "behind each other (%s of %s busy)",
                 r->stair, (unsigned long long)r->queued, v[0], v[1]);
        ins_num(f, "stair", r->stair);
        ins_num(f, "queued", (double)r->queued);
        ins_num(f, "staggered_ns", (double)r->staggered_ns);
        ins_num(f, "busy_ns", (double)r->busy_ns);
    }
    iodfg_serial_fini(&sr);
    return rc;
}

// 1 when the selected cases use one clock (time bins cannot mix clocks).
static int one_clock(const struct ins_ctx *x)
{
    uint32_t n[IODFG_CLOCK__N];
    int used = iodfg_eventlog_clocks(x->log, x->sel->case_on, n);
    return used <= 1 && n[IODFG_CLOCK_NONE] == 0;
}

static int judge_bursts(struct ins_ctx *x, struct iodfg_error *err)
{
    if (!one_clock(x)) {
        x->ins->unjudged[IODFG_INS_BURSTY] =
            "the selected cases use different clocks or none (time bins cannot mix them)";
        return 0;
    }
    struct iodfg_binned b;
    iodfg_binned_init(&b);
    struct iodfg_bin_opts o = {.dt_ns = 0, .threshold = 0, .by = IODFG_BY_CASE};
    if (iodfg_binned_build(&b, x->log, x->map, x->sel, &o, NULL, err)) {
        return -1;
    }
    int rc = 0;
    for (int d = 0; rc == 0 && d < IODFG_DIR__N; d++) {
        const struct iodfg_dir_metrics *m = &b.dir[d];
        if (m->ops < x->t->min_ops || !(m->intensity <= x->t->intensity_max) ||
            !(m->burstiness >= x->t->burstiness_min)) {
            continue; // a measure that is not known (NAN) judges nothing
        }
        struct iodfg_insight *f = ins_new(x, IODFG_INS_BURSTY, NAN);
        if (!f) {
            rc = iodfg_error_set(err, IODFG_E_NOMEM, NULL);
            break;
        }
        if (ins_intern(x, dir_name[d], strlen(dir_name[d]), &f->subject)) {
            rc = iodfg_error_set(err, IODFG_E_NOMEM, NULL);
            break;
        }
        f->subject_kind = IODFG_SUBJ_NAME;
        f->has_window = 1;
        f->from_ns = b.t0_ns;
        f->to_ns = b.t0_ns + b.span_ns;
        char dt[IODFG_FORMAT_MIN];
        iodfg_format_duration(dt, sizeof(dt), b.dt_ns, 0);
        char runs[2][32];
        for (int i = 0; i < 2; i++) {
            double v = i ? m->l_noio : m->l_io;
            snprintf(runs[i], sizeof(runs[i]), isfinite(v) ? "%.1f" : "unknown", v);
        }
        ins_text(f,
                 "%s I/O intensity %.2f (busy in %u of %u bins of %s), burstiness %.2f "
                 "(busy runs of %s bins between idle runs of %s)",
                 dir_name[d], m->intensity, m->busy_bins, b.nbins, dt, m->burstiness, runs[0],
                 runs[1]);
        ins_num(f, "intensity", m->intensity);
        ins_num(f, "burstiness", m->burstiness);
        ins_num(f, "busy_bins", m->busy_bins);
        ins_num(f, "bins", b.nbins);
        ins_num(f, "dt_ns", (double)b.dt_ns);
        ins_num(f, "direction", d);
    }
    iodfg_binned_fini(&b);
    return rc;
}

int ins_scan_derived(struct ins_ctx *x, struct iodfg_error *err)
{
    if ((x->on[IODFG_INS_RANDOM_ACCESS] || x->on[IODFG_INS_ACCESS_UNKNOWN]) &&
        judge_access(x, err)) {
        return -1;
    }
    if (x->on[IODFG_INS_STAIR_CASE] && judge_stairs(x, err)) {
        return -1;
    }
    if (x->on[IODFG_INS_BURSTY] && x->pass_events && judge_bursts(x, err)) {
        return -1;
    }
    return 0;
}
