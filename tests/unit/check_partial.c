/* SPDX-License-Identifier: MIT */
/* iodfg/partial.h: a log's cases split into parts, each part's session combined as iodfg-mpi
 * combines them (here in one process), give exactly the whole log's DFG and statistics. */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <check.h>

#include "iodfg/analysis.h"
#include "iodfg/bandwidth.h"
#include "iodfg/dfg.h"
#include "iodfg/diff.h"
#include "iodfg/error.h"
#include "iodfg/eventlog.h"
#include "iodfg/filter.h"
#include "iodfg/mapping.h"
#include "iodfg/metrics.h"
#include "iodfg/partial.h"
#include "iodfg/session.h"
#include "iodfg/stats.h"
#include "iodfg/store.h"
#include "iodfg/timeline.h"
#include "iodfg/trace.h"

#include "../../src/engine/analysis_priv.h"
#include "dfg_testlog.h"
#include "testutil.h"

#define NCASES 24
#define MAXPARTS 4

/* Case c's strace text: overlapping calls on shared and private files; case 5 on the epoch
 * clock (its times are never compared with the others'). */
static void case_text(uint32_t c, char *buf, size_t size)
{
    static const char *const calls[] = {"read", "write", "lseek", "close"};
    size_t at = 0;
    double t = 3600 * 9 + (c % 5) * 0.00002;
    for (uint32_t i = 0; i < 6 + c % 7; i++) {
        t += 0.000010 + ((c * 31 + i * 17) % 40) / 1e6;
        char stamp[40];
        if (c == 5) {
            snprintf(stamp, sizeof(stamp), "%.6f", 1753944587 + t);
        } else {
            snprintf(stamp, sizeof(stamp), "%02d:%02d:%09.6f", (int)(t / 3600), (int)(t / 60) % 60,
                     t - 60 * (int)(t / 60));
        }
        const char *call = calls[(c + i) % 4];
        char path[64];
        snprintf(path, sizeof(path), "/scratch/r%u/d%u/f", c % 2, (c + i) % 3);
        int dur = (c * 7 + i * 13) % 50; // some 0: no interval
        int ret = call[0] == 'c' ? 0 : (int)((c * 131 + i * 7) % 5000);
        at += (size_t)snprintf(buf + at, size - at, "%u %s %s(3<%s>%s) = %d <0.%06d>\n", 100 + c,
                               stamp, call, path, call[0] == 'c' ? "" : ", \"\", 8192", ret, dur);
    }
}

struct fixture {
    char *dir, path[4200];
    struct iodfg_eventlog *whole, *part[MAXPARTS];
    struct iodfg_session *sw, *sp[MAXPARTS];
    int nparts;
};

static struct iodfg_session *session_over(struct iodfg_eventlog *log)
{
    struct iodfg_error err;
    iodfg_error_clear(&err);
    struct iodfg_session *s = iodfg_session_new(log, &err);
    ck_assert_ptr_nonnull(s);
    ck_assert_msg(iodfg_session_rebuild(s, &err) == 0, "rebuild: %s", err.msg);
    return s;
}

/* The log of ncases cases of text written and read back whole and in parts cut at
 * cuts[0..nparts-2]. */
static void fixture_init_text(struct fixture *f, const uint32_t *cuts, int nparts,
                              void (*text_of)(uint32_t, char *, size_t), uint32_t ncases)
{
    memset(f, 0, sizeof(*f));
    f->dir = testutil_tmpdir();
    snprintf(f->path, sizeof(f->path), "%s/log.h5", f->dir);
    struct iodfg_eventlog *log = iodfg_eventlog_new(IODFG_COL_ALL);
    char text[4096], name[32];
    for (uint32_t c = 0; c < ncases; c++) {
        text_of(c, text, sizeof(text));
        snprintf(name, sizeof(name), "c%02u", c);
        tlog_add_case(log, name, text);
    }
    struct iodfg_error err;
    iodfg_error_clear(&err);
    struct iodfg_store_writer *w = iodfg_store_create(f->path, 0, &err);
    ck_assert_ptr_nonnull(w);
    ck_assert_int_eq(iodfg_store_write_cases(w, log, &err), 0);
    ck_assert_int_eq(iodfg_store_commit(w, &err), 0);
    iodfg_eventlog_free(log);
    f->whole = iodfg_store_load(f->path, IODFG_COL_ANALYSIS, NULL, NULL, &err);
    ck_assert_ptr_nonnull(f->whole);
    f->sw = session_over(f->whole);
    f->nparts = nparts;
    for (int p = 0; p < nparts; p++) {
        uint32_t lo = p ? cuts[p - 1] : 0, hi = p + 1 < nparts ? cuts[p] : ncases;
        f->part[p] =
            iodfg_store_load_cases(f->path, IODFG_COL_ANALYSIS, lo, hi - lo, NULL, NULL, &err);
        ck_assert_msg(f->part[p] != NULL, "part %d: %s", p, err.msg);
        f->sp[p] = session_over(f->part[p]);
    }
}

static void fixture_init(struct fixture *f, const uint32_t *cuts, int nparts)
{
    fixture_init_text(f, cuts, nparts, case_text, NCASES);
}

static void fixture_fini(struct fixture *f)
{
    for (int p = 0; p < f->nparts; p++) {
        iodfg_session_free(f->sp[p]);
        iodfg_eventlog_free(f->part[p]);
    }
    iodfg_session_free(f->sw);
    iodfg_eventlog_free(f->whole);
    testutil_rmtree(f->dir);
    free(f->dir);
}

/* The rank-th smallest value over every part's values v[p][0..n[p]), by histograms of the parts
 * summed and the range narrowed (as iodfg-mpi does over processes). */
static int64_t bisect(const int64_t *const *v, const uint64_t *n, int nparts, uint64_t rank)
{
    struct iodfg_partial_cut c;
    iodfg_partial_cut_all(&c);
    uint64_t hist[IODFG_PARTIAL_BUCKETS];
    int64_t x;
    int rounds = 0;
    do {
        memset(hist, 0, sizeof(hist));
        for (int p = 0; p < nparts; p++) {
            iodfg_partial_hist(v[p], n[p], &c, hist);
        }
        iodfg_partial_narrow(&c, hist, &rank);
        ck_assert_int_le(++rounds, 8);
    } while (!iodfg_partial_cut_value(&c, &x));
    return x;
}

/* A part's known durations of its selected, mapped events per activity, by a plain walk over its
 * selected cases and their keys (the reference of the reads from the columns): activity a's
 * are v[off[a] .. off[a + 1]). */
struct durations {
    uint32_t nact;
    uint64_t *off;
    int64_t *v;
};

static void durations_of(const struct iodfg_session *s, struct durations *d)
{
    const struct iodfg_eventlog *log = iodfg_session_log(s);
    const struct iodfg_analysis *an = iodfg_session_analysis(s);
    const struct iodfg_selection *sel = iodfg_analysis_selection(an);
    const uint32_t *act = iodfg_analysis_activities(an);
    const struct iodfg_columns *col = iodfg_eventlog_columns(log);
    d->nact = iodfg_session_mapping(s)->nactivities;
    d->off = calloc((size_t)d->nact + 2, sizeof(*d->off));
    d->v = malloc((iodfg_eventlog_event_count(log) + 1) * sizeof(*d->v));
    uint64_t *fill = calloc((size_t)d->nact + 1, sizeof(*fill));
    for (int place = 0; place < 2; place++) { // count, then place
        for (uint32_t c = 0; c < iodfg_eventlog_case_count(log); c++) {
            uint64_t lo = 0, hi = 0;
            if (!iodfg_trace_case_range(log, sel, c, &lo, &hi)) {
                continue;
            }
            for (uint64_t e = lo; e < hi; e++) {
                uint32_t a = act[col->key[e]];
                if (a == IODFG_NO_ACTIVITY || col->dur_ns[e] == IODFG_UNKNOWN) {
                    continue;
                }
                if (place) {
                    d->v[d->off[a] + fill[a]++] = col->dur_ns[e];
                } else {
                    d->off[a + 1]++;
                }
            }
        }
        for (uint32_t a = 0; !place && a < d->nact; a++) {
            d->off[a + 1] += d->off[a];
        }
    }
    free(fill);
}

static void durations_fini(struct durations *d)
{
    free(d->off);
    free(d->v);
}

/* The present edges of session s's DFG in slot order into g. */
static void add_edges(struct iodfg_dfg *g, uint32_t na, const struct iodfg_session *s)
{
    const struct iodfg_dfg *d = iodfg_session_dfg(s);
    size_t n = 0, slots = iodfg_dfg_slots(d);
    struct iodfg_dfg_edge *e = calloc(slots + 1, sizeof(*e));
    for (size_t i = 0; i < slots; i++) {
        if (iodfg_dfg_edge_at(d, i)->count) {
            e[n++] = *iodfg_dfg_edge_at(d, i);
        }
    }
    struct iodfg_error err;
    ck_assert_int_eq(iodfg_partial_dfg_add(g, na, e, n, iodfg_dfg_traces(d), &err), 0);
    free(e);
}

/* The sweep of nruns sorted runs from the counts carry: each activity one window holding all
 * its points (a point's act is its window). */
static int sweep_runs(const struct iodfg_partial_point *const *runs, const size_t *len,
                      size_t nruns, const int64_t *carry, uint32_t na, int64_t *best, int64_t *when,
                      struct iodfg_error *err)
{
    struct iodfg_partial_window *w = calloc(na + 1, sizeof(*w));
    for (uint32_t a = 0; a < na; a++) {
        w[a] = (struct iodfg_partial_window){carry[a], a, 0};
    }
    int rc = iodfg_partial_sweep_windows(NULL, runs, len, nruns, w, na, best, when, err);
    free(w);
    return rc;
}

static int sweep(const struct iodfg_partial_point *pts, size_t n, const int64_t *carry, uint32_t na,
                 int64_t *best, int64_t *when, struct iodfg_error *err)
{
    return sweep_runs(&pts, &n, 1, carry, na, best, when, err);
}

/* Each activity's starts minus ends among n points, added to net. */
static void points_net(const struct iodfg_partial_point *pts, size_t n, int64_t *net)
{
    for (size_t i = 0; i < n; i++) {
        net[pts[i].act] += pts[i].start ? 1 : -1;
    }
}

/* A part's view of its points (what iodfg-mpi reads in place) against their copy pts (k of
 * them): the cut before a point is where the copy has it, and the view's points from a cut on are
 * the copy's from there. */
static void view_matches_points(const struct iodfg_session *s,
                                const struct iodfg_partial_point *pts, size_t k)
{
    struct iodfg_partial_view v;
    struct iodfg_error err;
    ck_assert_int_eq(iodfg_partial_view_init(s, &v, &err), 0);
    struct iodfg_partial_point *tmp = malloc((v.n + 1) * sizeof(*tmp));
    for (size_t j = 0; k && j < 4; j++) {
        size_t at = j * (k - 1) / 3, first = at;
        while (first > 0 && iodfg_partial_point_cmp(&pts[first - 1], &pts[at]) == 0) {
            first--;
        }
        uint64_t lower = iodfg_partial_view_lower(&v, &pts[at]);
        ck_assert_uint_eq(iodfg_partial_view_copy(&v, 0, lower, tmp), first);
        ck_assert_uint_eq(iodfg_partial_view_copy(&v, lower, v.n, tmp), k - first);
        ck_assert_mem_eq(tmp, pts + first, (k - first) * sizeof(*tmp));
    }
    free(tmp);
    iodfg_partial_view_fini(&v);
}

/* The maximum concurrency over all parts' points, swept in two time ranges with the count
 * carried from the first into the second (as two processes would). */
static void concurrency(struct fixture *f, uint32_t na, struct iodfg_stats *st)
{
    struct iodfg_partial_point *all = NULL;
    size_t n = 0;
    struct iodfg_error err;
    for (int p = 0; p < f->nparts; p++) {
        struct iodfg_partial_point *pts;
        size_t k;
        ck_assert_int_eq(iodfg_partial_points(f->sp[p], &pts, &k, &err), 0);
        for (size_t i = 1; i < k; i++) { // in the sweep's order, from the timeline
            ck_assert_int_le(iodfg_partial_point_cmp(&pts[i - 1], &pts[i]), 0);
        }
        view_matches_points(f->sp[p], pts, k);
        all = realloc(all, (n + k + 1) * sizeof(*all));
        memcpy(all + n, pts, k * sizeof(*pts));
        n += k;
        free(pts);
    }
    iodfg_partial_points_sort(all, n);
    size_t cut = n / 2; // equal points stay in one range
    while (cut > 0 && cut < n && iodfg_partial_point_cmp(&all[cut - 1], &all[cut]) == 0) {
        cut++;
    }
    int64_t *net = calloc(na + 1, sizeof(*net)), *zero = calloc(na + 1, sizeof(*zero));
    int64_t *best[2], *when[2];
    for (int r = 0; r < 2; r++) {
        best[r] = malloc((na + 1) * sizeof(**best));
        when[r] = calloc(na + 1, sizeof(**when));
        for (uint32_t a = 0; a < na; a++) {
            best[r][a] = INT64_MIN;
        }
    }
    points_net(all, cut, net);
    ck_assert_int_eq(sweep(all, cut, zero, na, best[0], when[0], &err), 0);
    ck_assert_int_eq(sweep(all + cut, n - cut, net, na, best[1], when[1], &err), 0);
    for (uint32_t a = 0; a < na; a++) {
        int r = best[1][a] > best[0][a]; // on equal counts the earlier range
        st->act[a].mc = best[r][a] > 0 ? (uint32_t)best[r][a] : 0;
        st->act[a].mc_time_ns = best[r][a] > 0 ? when[r][a] : IODFG_UNKNOWN;
    }
    for (int r = 0; r < 2; r++) {
        free(best[r]);
        free(when[r]);
    }
    free(net);
    free(zero);
    free(all);
}

/* Nearest-rank percentiles of every activity's durations and every merged edge's gaps. */
/* The durations' percentiles into st; the edges' gap medians into gap_median (slot order). */
static void percentiles(struct fixture *f, uint32_t na, struct iodfg_stats *st,
                        const struct iodfg_dfg *g, int64_t *gap_median)
{
    struct iodfg_partial_values v[MAXPARTS];
    struct durations dur[MAXPARTS];
    struct iodfg_error err;
    const int64_t *vals[MAXPARTS];
    uint64_t cnt[MAXPARTS];
    for (int p = 0; p < f->nparts; p++) {
        ck_assert_int_eq(iodfg_partial_values_build(f->sp[p], 1, &v[p], &err), 0);
        durations_of(f->sp[p], &dur[p]);
    }
    for (uint32_t a = 0; a < na; a++) {
        uint64_t total = 0;
        for (int p = 0; p < f->nparts; p++) {
            vals[p] = dur[p].v + dur[p].off[a];
            cnt[p] = dur[p].off[a + 1] - dur[p].off[a];
            total += cnt[p];
        }
        ck_assert_uint_eq(total, st->act[a].dur_n);
        st->act[a].dur_median_ns =
            total ? bisect(vals, cnt, f->nparts, iodfg_partial_rank(total, 50)) : IODFG_UNKNOWN;
        st->act[a].dur_p95_ns =
            total ? bisect(vals, cnt, f->nparts, iodfg_partial_rank(total, 95)) : IODFG_UNKNOWN;
    }
    for (size_t i = 0; i < iodfg_dfg_slots(g); i++) {
        const struct iodfg_dfg_edge *e = iodfg_dfg_edge_at(g, i);
        uint64_t total = 0;
        for (int p = 0; p < f->nparts; p++) {
            const struct iodfg_dfg *d = iodfg_session_dfg(f->sp[p]);
            const struct iodfg_dfg_edge *l = iodfg_dfg_find(d, e->from, e->to);
            size_t s = l ? (size_t)(l - iodfg_dfg_edge_at(d, 0)) : 0;
            vals[p] = l ? v[p].edge_v + v[p].edge_off[s] : NULL;
            cnt[p] = l ? v[p].edge_off[s + 1] - v[p].edge_off[s] : 0;
            total += cnt[p];
        }
        ck_assert_uint_eq(total, e->gap_n);
        gap_median[i] =
            total ? bisect(vals, cnt, f->nparts, iodfg_partial_rank(total, 50)) : IODFG_UNKNOWN;
    }
    for (int p = 0; p < f->nparts; p++) {
        iodfg_partial_values_fini(&v[p]);
        durations_fini(&dur[p]);
    }
}

/* Combine the parts into the first part's session, as iodfg-mpi does over processes. */
static void combine(struct fixture *f)
{
    const struct iodfg_mapping *map = iodfg_session_mapping(f->sp[0]);
    uint32_t nk = map->nkeys, na = map->nactivities;
    struct iodfg_partial_key *keys = calloc(nk + 1, sizeof(*keys)),
                             *one = calloc(nk + 1, sizeof(*one));
    double *dr = calloc(nk + 1, sizeof(*dr));
    uint8_t *has = calloc(nk + 1, 1);
    uint64_t *cases = calloc(na + 1, sizeof(*cases));
    struct iodfg_stats st;
    struct iodfg_error err;
    struct iodfg_dfg *g = iodfg_dfg_new(&err);
    ck_assert_ptr_nonnull(g);
    iodfg_stats_init(&st);
    for (int p = 0; p < f->nparts; p++) {
        const struct iodfg_mapping *mp = iodfg_session_mapping(f->sp[p]);
        ck_assert_uint_eq(mp->nkeys, nk);
        ck_assert_uint_eq(mp->nactivities, na);
        ck_assert_int_eq(iodfg_partial_keys(f->sp[p], p ? one : keys, &err), 0);
        if (p) {
            iodfg_partial_keys_add(keys, one, nk);
        }
        ck_assert_int_eq(iodfg_partial_dr_fold(f->sp[p], dr, has, &err), 0);
        const struct iodfg_stats *ps = iodfg_session_stats(f->sp[p]);
        for (uint32_t a = 0; a < na && a < ps->nactivities; a++) {
            cases[a] += ps->act[a].cases;
        }
        add_edges(g, na, f->sp[p]);
    }
    ck_assert_int_eq(iodfg_partial_stats(&st, map, keys, dr, cases, &err), 0);
    concurrency(f, na, &st);
    int64_t *gap_median = calloc(iodfg_dfg_slots(g) + 1, sizeof(*gap_median));
    percentiles(f, na, &st, g, gap_median);
    iodfg_partial_stats_finish(&st);
    iodfg_partial_dfg_finish(g, gap_median);
    ck_assert_msg(iodfg_session_adopt(f->sp[0], g, &st, NULL, NULL, &err) == 0, "adopt: %s",
                  err.msg);
    free(gap_median);
    iodfg_dfg_free(g);
    iodfg_stats_fini(&st);
    free(keys);
    free(one);
    free(dr);
    free(has);
    free(cases);
}

#define SAME(x) ck_assert_msg(memcmp(&a->x, &b->x, sizeof(a->x)) == 0, "%s of %u", #x, i)

static void same_results(const struct iodfg_session *sw, const struct iodfg_session *s)
{
    const struct iodfg_stats *sa = iodfg_session_stats(sw), *sb = iodfg_session_stats(s);
    ck_assert_uint_eq(sa->nactivities, sb->nactivities);
    ck_assert_int_eq(sa->total_dur_ns, sb->total_dur_ns);
    for (uint32_t i = 0; i < sa->nactivities; i++) {
        const struct iodfg_activity_stats *a = &sa->act[i], *b = &sb->act[i];
        SAME(count), SAME(cases), SAME(dur_n), SAME(dur_sum_ns), SAME(rd), SAME(bytes);
        SAME(dr_n), SAME(dr_sum), SAME(dr_mean), SAME(mc), SAME(mc_time_ns), SAME(DR);
        SAME(dur_min_ns), SAME(dur_median_ns), SAME(dur_p95_ns), SAME(dur_max_ns);
    }
    const struct iodfg_dfg *ga = iodfg_session_dfg(sw), *gb = iodfg_session_dfg(s);
    ck_assert_uint_eq(iodfg_dfg_traces(ga), iodfg_dfg_traces(gb));
    ck_assert_uint_eq(iodfg_dfg_slots(ga), iodfg_dfg_slots(gb));
    for (uint32_t i = 0; i < iodfg_dfg_slots(ga); i++) { // the same slots in the same order
        const struct iodfg_dfg_edge *a = iodfg_dfg_edge_at(ga, i), *b = iodfg_dfg_edge_at(gb, i);
        SAME(from), SAME(to), SAME(count), SAME(cases), SAME(gap_n), SAME(gap_sum_ns);
        SAME(gap_mean_ns), SAME(gap_median_ns);
    }
}

static void check_split(const uint32_t *cuts, int nparts)
{
    struct fixture f;
    fixture_init(&f, cuts, nparts);
    combine(&f);
    same_results(f.sw, f.sp[0]);
    fixture_fini(&f);
}

START_TEST(two_halves)
{
    static const uint32_t cuts[] = {12};
    check_split(cuts, 2);
}
END_TEST

START_TEST(four_uneven_parts)
{
    static const uint32_t cuts[] = {1, 9, 17};
    check_split(cuts, 4);
}
END_TEST

START_TEST(empty_parts)
{
    static const uint32_t cuts[] = {0, 5, 24};
    check_split(cuts, 4);
}
END_TEST

START_TEST(one_part)
{
    check_split(NULL, 1);
}
END_TEST

/* Without gaps no edge has a value. */
START_TEST(values_without_gaps)
{
    static const uint32_t cuts[] = {12};
    struct fixture f;
    fixture_init(&f, cuts, 2);
    struct iodfg_error err;
    for (int p = 0; p < 2; p++) {
        struct iodfg_partial_values with, without;
        ck_assert_int_eq(iodfg_partial_values_build(f.sp[p], 1, &with, &err), 0);
        ck_assert_int_eq(iodfg_partial_values_build(f.sp[p], 0, &without, &err), 0);
        ck_assert_uint_eq(with.nslots, without.nslots);
        ck_assert_uint_gt(with.edge_off[with.nslots], 0);
        for (size_t i = 0; i <= without.nslots; i++) {
            ck_assert_uint_eq(without.edge_off[i], 0);
        }
        iodfg_partial_values_fini(&with);
        iodfg_partial_values_fini(&without);
    }
    fixture_fini(&f);
}
END_TEST

/* A session comparing groups takes the job's group results with its own, and only then. */
START_TEST(groups_results_go_with_groups)
{
    static const uint32_t cuts[] = {12};
    struct fixture f;
    fixture_init(&f, cuts, 2);
    struct iodfg_error err;
    struct iodfg_dfg *g = iodfg_dfg_new(&err);
    struct iodfg_stats st;
    struct iodfg_diff groups;
    uint32_t cases[2] = {1, 11};
    ck_assert_ptr_nonnull(g);
    iodfg_stats_init(&st);
    iodfg_diff_init(&groups);
    iodfg_error_clear(&err);
    ck_assert_int_eq(iodfg_session_adopt(f.sp[1], g, &st, &groups, cases, &err), -1);
    ck_assert_int_eq(err.code, IODFG_E_ARG);
    iodfg_session_group_set(f.sp[0], 0, IODFG_GROUP_G);
    iodfg_error_clear(&err);
    ck_assert_int_eq(iodfg_session_rebuild(f.sp[0], &err), 0);
    ck_assert_int_eq(iodfg_session_adopt(f.sp[0], g, &st, NULL, NULL, &err), -1);
    ck_assert_int_eq(err.code, IODFG_E_ARG);
    // the session's own group results, taken back: the comparison and counts are the job's
    iodfg_diff_fini(&groups);
    iodfg_diff_init(&groups);
    iodfg_error_clear(&err);
    const struct iodfg_diff *d = iodfg_session_diff(f.sp[0]);
    ck_assert_ptr_nonnull(d);
    ck_assert_int_eq(iodfg_stats_copy(&groups.g_stats, &d->g_stats, &err), 0);
    ck_assert_int_eq(iodfg_stats_copy(&groups.r_stats, &d->r_stats, &err), 0);
    iodfg_stats_fini(&st);
    iodfg_stats_init(&st);
    ck_assert_int_eq(iodfg_stats_copy(&st, iodfg_session_stats(f.sp[0]), &err), 0);
    uint32_t na = st.nactivities;
    ck_assert_int_eq(iodfg_session_adopt(f.sp[0], g, &st, &groups, cases, &err), 0);
    d = iodfg_session_diff(f.sp[0]);
    ck_assert_ptr_nonnull(d);
    ck_assert_uint_eq(d->nactivities, na);
    ck_assert_uint_eq(iodfg_session_counts(f.sp[0])->g_cases, 1);
    ck_assert_uint_eq(iodfg_session_counts(f.sp[0])->r_cases, 11);
    for (uint32_t a = 0; a < na; a++) {
        ck_assert_int_eq(d->nodes[a].side,
                         (d->g_stats.act[a].count > 0) | (d->r_stats.act[a].count > 0) << 1);
    }
    iodfg_diff_fini(&groups);
    iodfg_dfg_free(g);
    iodfg_stats_fini(&st);
    fixture_fini(&f);
}
END_TEST

/* The whole log's key sums over session sw's selection, by a walk over its selected events in
 * event order (the rates' sums as a serial pass adds them). */
static void walked_sums(const struct iodfg_session *sw, struct iodfg_partial_key *keys, double *dr,
                        uint8_t *has)
{
    const struct iodfg_eventlog *log = iodfg_session_log(sw);
    const struct iodfg_selection *sel = iodfg_analysis_selection(iodfg_session_analysis(sw));
    const struct iodfg_columns *col = iodfg_eventlog_columns(log);
    for (uint32_t c = 0; c < iodfg_eventlog_case_count(log); c++) {
        uint64_t lo = 0, hi = 0;
        if (!iodfg_trace_case_range(log, sel, c, &lo, &hi)) {
            continue;
        }
        for (uint64_t e = lo; e < hi; e++) {
            int64_t d = col->dur_ns[e], z = col->size[e];
            uint32_t k = col->key[e];
            keys[k].count++;
            keys[k].dur_n += d != IODFG_UNKNOWN;
            keys[k].dur_sum_ns += d != IODFG_UNKNOWN ? d : 0;
            if (z != IODFG_UNKNOWN && d != IODFG_UNKNOWN && d > 0) {
                dr[k] = (has[k] ? dr[k] : 0.0) + (double)z * 1e9 / (double)d;
                has[k] = 1;
            }
        }
    }
}

/* Each part's key sums (the session's own) added, and the rates' sums folded part after part
 * (a key's first part takes its session's sum, later ones go on adding), are the walk over the
 * whole log's selected events, bit for bit; with every case and with a case filter. */
START_TEST(key_sums_and_rate_fold_are_the_walk)
{
    static const uint32_t cuts[2][3] = {{12}, {1, 9, 17}};
    static const int nparts[2] = {2, 4};
    for (int i = 0; i < 4; i++) {
        struct fixture f;
        struct iodfg_error err;
        fixture_init(&f, cuts[i % 2], nparts[i % 2]);
        for (int p = -1; i >= 2 && p < f.nparts; p++) { // odd cases only
            struct iodfg_session *s = p < 0 ? f.sw : f.sp[p];
            ck_assert_int_eq(
                iodfg_filter_stack_push_text(iodfg_session_filters(s), "name~[13579]$", NULL), 0);
            ck_assert_int_eq(iodfg_session_rebuild(s, &err), 0);
        }
        uint32_t nk = iodfg_eventlog_key_count(f.whole);
        struct iodfg_partial_key *want = calloc(nk + 1, sizeof(*want)),
                                 *got = calloc(nk + 1, sizeof(*got)),
                                 *one = calloc(nk + 1, sizeof(*one));
        double *want_dr = calloc(nk + 1, sizeof(double)), *got_dr = calloc(nk + 1, sizeof(double));
        uint8_t *want_has = calloc(nk + 1, 1), *got_has = calloc(nk + 1, 1);
        walked_sums(f.sw, want, want_dr, want_has);
        int refolded = 0;
        for (int p = 0; p < f.nparts; p++) {
            ck_assert_int_eq(iodfg_partial_keys(f.sp[p], one, &err), 0);
            for (uint32_t k = 0; k < nk; k++) {
                refolded += got_has[k] && one[k].dr_n;
                got[k].count += one[k].count;
                got[k].dur_n += one[k].dur_n;
                got[k].dur_sum_ns += one[k].dur_sum_ns;
            }
            ck_assert_int_eq(iodfg_partial_dr_fold(f.sp[p], got_dr, got_has, &err), 0);
        }
        ck_assert_int_gt(refolded, 0); // keys met again in a later part: their sums go on
        for (uint32_t k = 0; k < nk; k++) {
            ck_assert_uint_eq(got[k].count, want[k].count);
            ck_assert_uint_eq(got[k].dur_n, want[k].dur_n);
            ck_assert_int_eq(got[k].dur_sum_ns, want[k].dur_sum_ns);
            ck_assert_uint_eq(got_has[k], want_has[k]);
            ck_assert_msg(memcmp(&got_dr[k], &want_dr[k], sizeof(double)) == 0,
                          "rate sum of key %u: %.17g, walked %.17g", k, got_dr[k], want_dr[k]);
        }
        free(want), free(got), free(one), free(want_dr), free(got_dr), free(want_has);
        free(got_has);
        fixture_fini(&f);
    }
}
END_TEST

/* The sweep's order over many points (the radix passes) is the order of the comparison. */
START_TEST(points_sort_in_sweep_order)
{
    size_t n = 5000;
    struct iodfg_partial_point *p = calloc(n, sizeof(*p));
    uint64_t x = 88172645463325252ull;
    for (size_t i = 0; i < n; i++) {
        x ^= x << 13, x ^= x >> 7, x ^= x << 17;
        // few distinct times (ties), negative and large ones, two clocks
        int64_t t = (int64_t)(x % 97) * (i % 3 ? 1 : -1000003);
        p[i] = (struct iodfg_partial_point){i % 5 ? t : (int64_t)(x >> 2), (uint32_t)(x % 7),
                                            (uint8_t)(x >> 40) % 2, (uint8_t)(x >> 50) % 2, 0};
    }
    iodfg_partial_points_sort(p, n);
    for (size_t i = 1; i < n; i++) {
        ck_assert_int_le(iodfg_partial_point_cmp(&p[i - 1], &p[i]), 0);
    }
    free(p);
}
END_TEST

/* A sweep over sorted runs finds what a sweep over their merge finds. */
START_TEST(sweep_of_runs_is_sweep_of_merge)
{
    size_t n = 3000, len[3] = {1000, 0, 2000};
    struct iodfg_partial_point *p = calloc(n, sizeof(*p));
    uint64_t x = 2463534242ull;
    for (size_t i = 0; i < n; i += 2) {
        x ^= x << 13, x ^= x >> 7, x ^= x << 17;
        int64_t t = (int64_t)(x % 500);
        uint32_t a = (uint32_t)(x >> 20) % 3;
        p[i] = (struct iodfg_partial_point){t, a, 0, 1, 0};
        p[i + 1] = (struct iodfg_partial_point){t + 1 + (int64_t)(x >> 30) % 40, a, 0, 0, 0};
    }
    iodfg_partial_points_sort(p, 1000); // two runs, each sorted
    iodfg_partial_points_sort(p + 1000, 2000);
    const struct iodfg_partial_point *runs[3] = {p, p + 1000, p + 1000};
    int64_t zero[3] = {0}, best[2][3], when[2][3];
    for (int a = 0; a < 3; a++) {
        best[0][a] = best[1][a] = INT64_MIN;
    }
    struct iodfg_error err;
    ck_assert_int_eq(sweep_runs(runs, len, 3, zero, 3, best[0], when[0], &err), 0);
    iodfg_partial_points_sort(p, n);
    ck_assert_int_eq(sweep(p, n, zero, 3, best[1], when[1], &err), 0);
    for (int a = 0; a < 3; a++) {
        ck_assert_int_gt(best[0][a], 1);
        ck_assert_int_eq(best[0][a], best[1][a]);
        ck_assert_int_eq(when[0][a], when[1][a]);
    }
    free(p);
}
END_TEST

/* A log made to stress the pruned concurrency sweep: times and durations on a 10 us grid (many
 * equal times, ends where starts are), reads of no duration, one read spanning the whole run,
 * bursts where every case of a clock starts a read at once (the same highest count twice on a
 * clock, and on both clocks: cases 4 to 7 are on the epoch clock). */
static void stress_text(uint32_t c, char *buf, size_t size)
{
    size_t at = 0;
    uint32_t x = c * 2654435761u + 7;
    for (uint32_t i = 0; i < 40; i++) {
        x = x * 1103515245u + 12345u;
        int burst = i == 3 || i == 20, grid = (int)(x >> 16) % 3;
        double t = 3600 * 9 + (i * 3 + (burst ? 0 : grid)) * 1e-5;
        int dur = c == 0 && i == 0 ? 20000 : burst ? 30 : (int)(x >> 8) % 2 * 10;
        const char *call = burst || (x >> 20) % 3 ? "read" : "write";
        char stamp[40];
        if (c >= 4) {
            snprintf(stamp, sizeof(stamp), "%.6f", 1753944587 + t);
        } else {
            snprintf(stamp, sizeof(stamp), "%02d:%02d:%09.6f", (int)(t / 3600), (int)(t / 60) % 60,
                     t - 60 * (int)(t / 60));
        }
        at += (size_t)snprintf(buf + at, size - at,
                               "%u %s %s(3</scratch/s/f>, \"\", 8192) = 10 <0.%06d>\n", 100 + c,
                               stamp, call, dur);
    }
}

/* The stress log with cases 6 and 7 on the relative clock, 50,000 s in: that clock sorts before
 * the others' and its times are later than theirs, so only the clock orders them. */
static void clocks_text(uint32_t c, char *buf, size_t size)
{
    if (c < 6) {
        stress_text(c, buf, size);
        return;
    }
    size_t at = 0;
    uint32_t x = c * 2654435761u + 7;
    int64_t last_us = 0;
    for (uint32_t i = 0; i < 40; i++) {
        x = x * 1103515245u + 12345u;
        int burst = i == 3 || i == 20, grid = (int)(x >> 16) % 3;
        int64_t t_us = 50000 * (int64_t)1000000 + (i * 3 + (burst ? 0 : grid)) * 10;
        int dur = burst ? 30 : (int)(x >> 8) % 2 * 10;
        int64_t d = t_us - last_us;
        last_us = t_us;
        at += (size_t)snprintf(buf + at, size - at,
                               "%u %6lld.%06lld read(3</scratch/s/f>, \"\", 8192) = 10 <0.%06d>\n",
                               100 + c, (long long)(d / 1000000), (long long)(d % 1000000), dur);
    }
}

/* The points of all parts in the sweep's order (*n of them). */
static struct iodfg_partial_point *all_points(const struct fixture *f, size_t *n)
{
    struct iodfg_partial_point *all = NULL;
    struct iodfg_error err;
    *n = 0;
    for (int p = 0; p < f->nparts; p++) {
        struct iodfg_partial_point *pts;
        size_t k;
        ck_assert_int_eq(iodfg_partial_points(f->sp[p], &pts, &k, &err), 0);
        all = realloc(all, (*n + k + 1) * sizeof(*all));
        memcpy(all + *n, pts, k * sizeof(*pts));
        *n += k;
        free(pts);
    }
    iodfg_partial_points_sort(all, *n);
    return all;
}

/* Brute force over n sorted points cut at split (nb buckets): each pair's net, rise and starts
 * (sums) and, unless top is NULL, the highest count after a start in each pair (INT64_MIN:
 * none) and each pair's count at its bucket's start (at). */
static void brute_sums(const struct iodfg_partial_point *pts, size_t n,
                       const struct iodfg_partial_point *split, uint32_t nb, uint32_t na,
                       int64_t *sums, int64_t *top, int64_t *at)
{
    size_t np = (size_t)nb * na, b = 0;
    int64_t *count = calloc(na + 1, sizeof(*count));
    int64_t *net = sums + IODFG_PARTIAL_NET * np, *rise = sums + IODFG_PARTIAL_RISE * np;
    int64_t *fall = sums + IODFG_PARTIAL_FALL * np, *peak = sums + IODFG_PARTIAL_PEAK * np;
    memset(sums, 0, IODFG_PARTIAL_SUMS * np * sizeof(*sums));
    for (size_t i = 0; top && i < np; i++) {
        top[i] = INT64_MIN;
        at[i] = 0;
    }
    for (size_t i = 0; i <= n; i++) {
        while (b + 1 < nb && (i == n || iodfg_partial_point_cmp(&pts[i], &split[b]) >= 0)) {
            b++;
            for (uint32_t a = 0; top && a < na; a++) {
                at[b * na + a] = count[a];
            }
        }
        if (i == n) {
            break;
        }
        size_t k = b * na + pts[i].act;
        count[pts[i].act] += pts[i].start ? 1 : -1;
        net[k] += pts[i].start ? 1 : -1;
        fall[k] = net[k] < fall[k] ? net[k] : fall[k];
        if (pts[i].start) {
            sums[IODFG_PARTIAL_STARTS * np + k]++;
            rise[k] = net[k] > rise[k] ? net[k] : rise[k];
            if (top && count[pts[i].act] > top[k]) {
                top[k] = count[pts[i].act];
            }
        }
    }
    for (size_t i = 0; i < np; i++) {
        peak[i] = rise[i] >= 1 ? rise[i] - fall[i] : INT64_MIN;
    }
    free(count);
}

/* nb - 1 splitters at equal steps of n sorted points, as iodfg-mpi takes them (nb 1 if none). */
static uint32_t split_points(const struct iodfg_partial_point *all, size_t n, uint32_t nb,
                             struct iodfg_partial_point *split)
{
    nb = n ? nb : 1;
    for (uint32_t i = 0; i + 1 < nb; i++) {
        split[i] = all[(size_t)((double)(i + 1) * (double)n / nb)];
    }
    return nb;
}

/* Each part's bucket sums are the brute force's over its points; summed, the counts at the
 * buckets' starts are exact, the rises bound the highest counts inside, and every pair holding a
 * count at least the maximum (the first one reaching it included) is picked. */
/* A view of a session that wrote no activity codes (per-pid cases of a job part) keeps them per
 * event in 32 bits: its sums are the same. */
static void check_sums_without_codes(const struct iodfg_partial_view *v, const uint64_t *pos,
                                     uint32_t nb, uint32_t na, const int64_t *with)
{
    ck_assert_ptr_nonnull(v->code); // this fixture's sessions write them
    size_t ns = IODFG_PARTIAL_SUMS * (size_t)nb * na, nev = 0;
    for (uint64_t i = 0; i < v->n; i++) {
        size_t e = v->ent[i] & ~IODFG_PT_START;
        nev = e + 1 > nev ? e + 1 : nev;
    }
    struct iodfg_partial_view w = *v;
    int64_t *sums = calloc(ns + 1, sizeof(*sums));
    w.code = NULL;
    w.pact = malloc((nev + 1) * sizeof(*w.pact));
    for (uint64_t i = 0; i < v->n; i++) {
        struct iodfg_partial_point pt;
        int on = iodfg_partial_view_at(v, i, &pt);
        w.pact[v->ent[i] & ~IODFG_PT_START] = on ? pt.act : IODFG_NO_ACTIVITY;
    }
    ck_assert_int_eq(iodfg_partial_bucket_sums(&w, pos, nb, na, sums), 0);
    ck_assert_mem_eq(sums, with, ns * sizeof(*sums));
    free(w.pact);
    free(sums);
}

/* The buckets' positions found with known points of the view (every step-th position, as the
 * splitters' samples, from 1 to every point) are those found by searching it all. */
static void check_pos_with_known(const struct iodfg_partial_view *v,
                                 const struct iodfg_partial_point *split, uint32_t nb,
                                 const uint64_t *want)
{
    struct iodfg_partial_point *known = calloc(v->n + 1, sizeof(*known));
    uint64_t *at = calloc(v->n + 1, sizeof(*at)), *pos = calloc(nb + 1, sizeof(*pos));
    for (uint64_t step = 1; step <= v->n + 1; step = step * 3 + 1) {
        size_t k = 0;
        for (uint64_t i = step / 2; i < v->n; i += step) {
            at[k] = i;
            iodfg_partial_view_at(v, i, &known[k++]);
        }
        iodfg_partial_bucket_pos(v, split, nb, known, at, k, pos);
        ck_assert_mem_eq(pos, want, (nb + 1) * sizeof(*pos));
    }
    free(known);
    free(at);
    free(pos);
}

/* A part's sums of np pairs added to total (the first part's replace it): the peaks the highest,
 * the others the sum. */
static void add_part_sums(int64_t *total, const int64_t *mine, size_t np, int first)
{
    for (size_t i = 0; i < IODFG_PARTIAL_SUMS * np; i++) {
        int64_t *t = &total[i];
        *t = first                         ? mine[i]
             : i < IODFG_PARTIAL_PEAK * np ? *t + mine[i]
             : mine[i] > *t                ? mine[i]
                                           : *t;
    }
}

/* The pairs of part sums with points, packed: the others are empty; added up, the packed pairs
 * of the parts so far (into packed) go on equal to the whole arrays added. */
static void add_packed(const int64_t *mine, size_t np, int64_t *packed)
{
    struct iodfg_partial_pair_sums *pairs = calloc(np + 1, sizeof(*pairs));
    uint64_t k = iodfg_partial_pairs_pack(mine, np, pairs);
    ck_assert_uint_eq(k, iodfg_partial_pairs_count(mine, np));
    for (size_t i = 0, j = 0; i < np; i++) {
        if (j < k && pairs[j].pair == i) {
            j++;
            continue;
        }
        for (int q = 0; q < IODFG_PARTIAL_SUMS; q++) {
            ck_assert_int_eq(mine[(size_t)q * np + i], q == IODFG_PARTIAL_PEAK ? INT64_MIN : 0);
        }
    }
    ck_assert_int_eq(iodfg_partial_pairs_add(packed, np, pairs, k), 0);
    pairs[0].pair = np; // no such pair: refused before anything is added
    ck_assert_int_eq(iodfg_partial_pairs_add(packed, np, pairs, 1), -1);
    free(pairs);
}

static void check_bucket_sums(struct fixture *f, const struct iodfg_partial_point *all, size_t n,
                              const struct iodfg_partial_point *split, uint32_t nb, uint32_t na,
                              int64_t *total, uint64_t *pos, uint8_t *pick)
{
    size_t np = (size_t)nb * na, ns = IODFG_PARTIAL_SUMS * np;
    int64_t *mine = calloc(ns + 1, sizeof(*mine)), *want = calloc(ns + 1, sizeof(*want));
    int64_t *top = calloc(np + 1, sizeof(*top)), *at = calloc(np + 1, sizeof(*at));
    int64_t *at_want = calloc(np + 1, sizeof(*at_want)), *packed = calloc(ns + 1, sizeof(*packed));
    struct iodfg_error err;
    memset(total, 0, ns * sizeof(*total));
    iodfg_partial_sums_clear(packed, np);
    for (int p = 0; p < f->nparts; p++) {
        struct iodfg_partial_view v;
        struct iodfg_partial_point *pts;
        size_t k;
        ck_assert_int_eq(iodfg_partial_view_init(f->sp[p], &v, &err), 0);
        ck_assert_int_eq(iodfg_partial_points(f->sp[p], &pts, &k, &err), 0);
        iodfg_partial_bucket_pos(&v, split, nb, NULL, NULL, 0, pos + (size_t)p * (nb + 1));
        check_pos_with_known(&v, split, nb, pos + (size_t)p * (nb + 1));
        ck_assert_int_eq(iodfg_partial_bucket_sums(&v, pos + (size_t)p * (nb + 1), nb, na, mine),
                         0);
        brute_sums(pts, k, split, nb, na, want, NULL, NULL);
        ck_assert_mem_eq(mine, want, ns * sizeof(*mine));
        check_sums_without_codes(&v, pos + (size_t)p * (nb + 1), nb, na, mine);
        iodfg_partial_bucket_vector = 0; // the plain pass, as on processors without SSE4.1
        ck_assert_int_eq(iodfg_partial_bucket_sums(&v, pos + (size_t)p * (nb + 1), nb, na, mine),
                         0);
        ck_assert_mem_eq(mine, want, ns * sizeof(*mine));
        check_sums_without_codes(&v, pos + (size_t)p * (nb + 1), nb, na, mine);
        iodfg_partial_bucket_vector = 1;
        add_part_sums(total, mine, np, p == 0);
        add_packed(mine, np, packed);
        ck_assert_mem_eq(packed, total, ns * sizeof(*total));
        iodfg_partial_view_fini(&v);
        free(pts);
    }
    free(packed);
    iodfg_partial_bucket_pick(total, nb, na, at, pick, NULL, NULL);
    brute_sums(all, n, split, nb, na, want, top, at_want);
    ck_assert_mem_eq(at, at_want, np * sizeof(*at));
    const struct iodfg_stats *st = iodfg_session_stats(f->sw);
    for (size_t i = 0; i < np; i++) { // the bounds of each pair hold
        ck_assert_int_le(top[i], at[i] + total[IODFG_PARTIAL_RISE * np + i]);
        int64_t peak = total[IODFG_PARTIAL_PEAK * np + i];
        if (peak != INT64_MIN) {
            ck_assert_int_ge(top[i], at[i] + total[IODFG_PARTIAL_FALL * np + i] + peak);
        }
    }
    for (uint32_t a = 0; a < na; a++) { // the first bucket reaching the maximum is picked
        size_t b = 0;
        while (b < nb && top[b * na + a] < (int64_t)st->act[a].mc) {
            b++;
        }
        ck_assert_int_eq(b<nb, st->act[a].mc> 0);
        ck_assert_msg(b == nb || pick[b * na + a], "activity %u, bucket %zu of %u", a, b, nb);
    }
    free(mine);
    free(want);
    free(top);
    free(at);
    free(at_want);
}

/* How a check cuts the windows: pieces per window of the round on the views (1: no round), then
 * rounds on the copied points with pieces each. */
struct window_plan {
    uint32_t view_pieces, copy_pieces;
    int rounds;
};

/* The windows of a job of parts (the same for all) and each part's points in them; the round
 * on the views (each part's view and piece positions, the pairs' windows, the pieces' next). */
struct job_windows {
    struct iodfg_partial_window *w;
    uint32_t nw;
    struct iodfg_partial_reach reach[64];
    struct iodfg_partial_point *own[MAXPARTS];
    size_t nown[MAXPARTS];
    struct iodfg_partial_view v[MAXPARTS];
    uint64_t *pp[MAXPARTS];
    uint32_t *wid, *to, sub;
};

static void job_windows_fini(struct job_windows *jw, int nparts)
{
    for (int p = 0; p < nparts; p++) {
        free(jw->own[p]);
        free(jw->pp[p]);
        iodfg_partial_view_fini(&jw->v[p]);
    }
    free(jw->w);
    free(jw->wid);
    free(jw->to);
}

/* The picked pairs as windows, cut into sub pieces on each part's view (pos: the parts' bucket
 * positions), the pieces picked from the parts' sums added up, and each part's points of those
 * kept copied (as many as its sums say, in the sweep's order). */
static void windows_on_views(struct fixture *f, const uint64_t *pos,
                             const struct iodfg_partial_point *split, uint32_t nb, uint32_t na,
                             const int64_t *at, const uint8_t *pick, const int64_t *low,
                             const uint32_t *first, uint32_t sub, struct job_windows *jw)
{
    size_t np = (size_t)nb * na, picked = 0;
    for (size_t i = 0; i < np; i++) {
        picked += pick[i];
    }
    struct iodfg_partial_window *w = calloc(picked + 1, sizeof(*w));
    jw->wid = calloc(np + 1, sizeof(*jw->wid));
    jw->sub = sub;
    jw->nw = iodfg_partial_windows_of_pick(at, pick, nb, na, low, first, w, jw->wid, jw->reach);
    ck_assert_uint_eq(jw->nw, picked);
    size_t npieces = (size_t)jw->nw * sub;
    int64_t *mine[MAXPARTS], *total = calloc(IODFG_PARTIAL_SUMS * npieces + 1, sizeof(*total));
    struct iodfg_error err;
    for (int p = 0; p < f->nparts; p++) {
        ck_assert_int_eq(iodfg_partial_view_init(f->sp[p], &jw->v[p], &err), 0);
        jw->pp[p] = calloc((size_t)nb * (sub + 1) + 1, sizeof(*jw->pp[p]));
        iodfg_partial_piece_pos(&jw->v[p], pos + (size_t)p * (nb + 1), split, nb, na, jw->wid, sub,
                                jw->pp[p]);
        mine[p] = calloc(IODFG_PARTIAL_SUMS * npieces + 1, sizeof(*mine[p]));
        ck_assert_int_eq(
            iodfg_partial_piece_sums(&jw->v[p], jw->pp[p], nb, na, jw->wid, sub, jw->nw, mine[p]),
            0);
        add_part_sums(total, mine[p], npieces, p == 0);
    }
    jw->to = calloc(npieces + 1, sizeof(*jw->to));
    jw->w = calloc(npieces + 1, sizeof(*jw->w));
    int64_t n = jw->nw;
    for (size_t k = 0; sub == 1 && k < npieces; k++) { // one piece a window: all kept
        jw->to[k] = (uint32_t)k;
        jw->w[k] = w[k];
    }
    if (sub > 1) {
        n = iodfg_partial_window_pick(w, jw->nw, sub, total, na, jw->reach, jw->w, jw->to);
    }
    ck_assert_int_ge(n, 0);
    jw->nw = (uint32_t)n;
    for (int p = 0; p < f->nparts; p++) {
        uint64_t k = iodfg_partial_window_points(mine[p], npieces, jw->to);
        const struct iodfg_partial_pieces pc = {&jw->v[p], jw->pp[p], nb, na, sub,
                                                jw->wid,   jw->to,    0,  nb};
        jw->own[p] = malloc((k + 1) * sizeof(*jw->own[p]));
        jw->nown[p] = iodfg_partial_piece_copy(&pc, jw->own[p]);
        ck_assert_uint_eq(jw->nown[p], k);
        for (size_t i = 1; i < k; i++) {
            ck_assert_int_le(iodfg_partial_point_cmp(&jw->own[p][i - 1], &jw->own[p][i]), 0);
        }
        free(mine[p]);
    }
    free(w);
    free(total);
}

/* One round on the parts' copied points: the job's time span of each window, each part's sums
 * of its sub pieces added up, the pieces that may hold the maximum kept as the windows next and
 * each part's points of them (as many as its sums say). */
static void windows_on_copies(struct fixture *f, uint32_t na, uint32_t sub, struct job_windows *jw)
{
    size_t npieces = (size_t)jw->nw * sub, nspan = IODFG_PARTIAL_SPAN * (size_t)jw->nw;
    int64_t *span = malloc((nspan + 1) * sizeof(*span)),
            *part = malloc((nspan + 1) * sizeof(*part));
    int64_t *mine[MAXPARTS], *total = calloc(IODFG_PARTIAL_SUMS * npieces + 1, sizeof(*total));
    for (int p = 0; p < f->nparts; p++) { // the parts' minima
        iodfg_partial_window_span(jw->own[p], jw->nown[p], jw->nw, part);
        for (size_t i = 0; i < nspan; i++) {
            span[i] = p == 0 || part[i] < span[i] ? part[i] : span[i];
        }
    }
    for (int p = 0; p < f->nparts; p++) {
        mine[p] = calloc(IODFG_PARTIAL_SUMS * npieces + 1, sizeof(*mine[p]));
        ck_assert_int_eq(
            iodfg_partial_window_sums(jw->own[p], jw->nown[p], span, jw->nw, sub, mine[p]), 0);
        add_part_sums(total, mine[p], npieces, p == 0);
    }
    struct iodfg_partial_window *next = calloc(npieces + 1, sizeof(*next));
    uint32_t *to = calloc(npieces + 1, sizeof(*to));
    int64_t n = iodfg_partial_window_pick(jw->w, jw->nw, sub, total, na, jw->reach, next, to);
    ck_assert_int_ge(n, 0);
    for (int p = 0; p < f->nparts; p++) {
        uint64_t k = iodfg_partial_window_points(mine[p], npieces, to);
        jw->nown[p] = iodfg_partial_window_keep(jw->own[p], jw->nown[p], span, sub, to);
        ck_assert_uint_eq(jw->nown[p], k);
        free(mine[p]);
    }
    free(jw->w);
    jw->w = next;
    jw->nw = (uint32_t)n;
    free(span);
    free(part);
    free(total);
    free(to);
}

/* Part q's sweep of the windows in its buckets (of nb: the q-th share, as process q of
 * iodfg-mpi) with every part's points of them, into best and when (na each); in_place: q's own
 * points read from its view (the pieces of the round on the views), not from its copy. */
static void sweep_part(struct fixture *f, int q, const struct job_windows *jw, uint32_t nb,
                       uint32_t na, int in_place, int64_t *best, int64_t *when)
{
    uint32_t b0 = (uint32_t)((uint64_t)nb * (uint64_t)q / (uint64_t)f->nparts);
    uint32_t b1 = (uint32_t)((uint64_t)nb * (uint64_t)(q + 1) / (uint64_t)f->nparts);
    const struct iodfg_partial_point *run[MAXPARTS];
    size_t len[MAXPARTS];
    for (int p = 0; p < f->nparts; p++) { // the parts' points lie in the buckets' order
        size_t lo = 0, hi;
        while (lo < jw->nown[p] && jw->w[jw->own[p][lo].act].bucket < b0) {
            lo++;
        }
        for (hi = lo; hi < jw->nown[p] && jw->w[jw->own[p][hi].act].bucket < b1; hi++) {
        }
        run[p] = jw->own[p] + lo;
        len[p] = p == q && in_place ? 0 : hi - lo;
    }
    for (uint32_t a = 0; a < na; a++) {
        best[a] = INT64_MIN;
    }
    const struct iodfg_partial_pieces own = {&jw->v[q], jw->pp[q], nb, na, jw->sub,
                                             jw->wid,   jw->to,    b0, b1};
    struct iodfg_error err;
    ck_assert_int_eq(iodfg_partial_sweep_windows(in_place ? &own : NULL, run, len,
                                                 (size_t)f->nparts, jw->w, jw->nw, best, when,
                                                 &err),
                     0);
}

/* The maximum concurrency found with nb buckets cut into windows as plan says (parts as
 * processes, each sweeping the windows of its buckets) is the whole log's; how many pairs reach
 * their activity's maximum after the first one that does (ties the pruning must not take). */
static uint64_t check_pruned(struct fixture *f, uint32_t want_nb, const struct window_plan *plan)
{
    uint32_t na = iodfg_session_mapping(f->sp[0])->nactivities;
    size_t n;
    struct iodfg_partial_point *all = all_points(f, &n);
    struct iodfg_partial_point *split = calloc(want_nb + 1, sizeof(*split));
    uint32_t nb = split_points(all, n, want_nb, split);
    size_t np = (size_t)nb * na;
    int64_t *sums = calloc(IODFG_PARTIAL_SUMS * np + 1, sizeof(*sums));
    int64_t *at = calloc(np + 1, sizeof(*at)), *top = calloc(np + 1, sizeof(*top));
    int64_t best[MAXPARTS][64], when[MAXPARTS][64], low[64];
    uint32_t first[64];
    uint64_t *pos = calloc((size_t)f->nparts * (nb + 1) + 1, sizeof(*pos));
    uint8_t *pick = calloc(np + 1, 1);
    ck_assert_uint_le(na, 64);
    check_bucket_sums(f, all, n, split, nb, na, sums, pos, pick);
    iodfg_partial_bucket_pick(sums, nb, na, at, pick, low, first);
    // every pair (pick NULL) holds every point; the picked ones some of them
    ck_assert_uint_eq(iodfg_partial_bucket_count(sums, nb, na, NULL, 0, nb), n);
    ck_assert_uint_le(iodfg_partial_bucket_count(sums, nb, na, pick, 0, nb), n);
    struct job_windows jw = {0};
    windows_on_views(f, pos, split, nb, na, at, pick, low, first, plan->view_pieces, &jw);
    for (int r = 0; r < plan->rounds; r++) {
        windows_on_copies(f, na, plan->copy_pieces, &jw);
    }
    const struct iodfg_stats *st = iodfg_session_stats(f->sw);
    // own points from the copies, and (with no round on the copies) from the views
    for (int in_place = 0; in_place <= (plan->rounds == 0); in_place++) {
        for (int q = 0; q < f->nparts; q++) {
            sweep_part(f, q, &jw, nb, na, in_place, best[q], when[q]);
        }
        for (uint32_t a = 0; a < na; a++) {
            int r = 0;
            for (int q = 1; q < f->nparts; q++) { // the higher count, on equal ones the earlier
                r = best[q][a] > best[r][a] ? q : r;
            }
            ck_assert_uint_eq(best[r][a] > 0 ? (uint32_t)best[r][a] : 0, st->act[a].mc);
            ck_assert_int_eq(best[r][a] > 0 ? when[r][a] : IODFG_UNKNOWN, st->act[a].mc_time_ns);
        }
    }
    uint64_t ties = 0;
    brute_sums(all, n, split, nb, na, sums, top, at);
    for (uint32_t a = 0; a < na; a++) {
        size_t b = 0;
        while (b < nb && top[b * na + a] < (int64_t)st->act[a].mc) {
            b++;
        }
        for (b++; b < nb; b++) {
            ties += st->act[a].mc > 0 && top[b * na + a] == (int64_t)st->act[a].mc;
        }
    }
    job_windows_fini(&jw, f->nparts);
    free(all);
    free(split);
    free(sums);
    free(at);
    free(top);
    free(pos);
    free(pick);
    return ties;
}

/* The pruned sweep over bucket counts from one to more than there are points (empty buckets,
 * splitters between equal points), on the parts cut at cuts; the ties it met. */
static uint64_t check_pruned_cuts(void (*text_of)(uint32_t, char *, size_t), uint32_t ncases,
                                  const uint32_t *cuts, int nparts)
{
    struct fixture f;
    fixture_init_text(&f, cuts, nparts, text_of, ncases);
    size_t n;
    free(all_points(&f, &n));
    const uint32_t nbs[] = {1, 2, 3, 7, 64, (uint32_t)n / 2 + 1, (uint32_t)n, 2 * (uint32_t)n + 1};
    // none, on the views only, on the copies only, both, several rounds of few pieces
    static const struct window_plan plans[] = {
        {1, 0, 0}, {16, 0, 0}, {1, 5, 1}, {16, 16, 2}, {3, 2, 3}};
    uint64_t ties = 0;
    for (size_t i = 0; i < sizeof(nbs) / sizeof(*nbs); i++) {
        for (size_t j = 0; j < sizeof(plans) / sizeof(*plans); j++) {
            ties += check_pruned(&f, nbs[i], &plans[j]);
        }
    }
    fixture_fini(&f);
    return ties;
}

START_TEST(pruned_concurrency_is_exact)
{
    static const uint32_t two[] = {12}, four[] = {1, 9, 17}, empty[] = {0, 5, 24};
    check_pruned_cuts(case_text, NCASES, two, 2);
    check_pruned_cuts(case_text, NCASES, four, 4);
    check_pruned_cuts(case_text, NCASES, empty, 4);
    check_pruned_cuts(case_text, NCASES, NULL, 1);
}
END_TEST

/* Bursts reaching the same count twice on each clock, ends at the times of starts, reads of no
 * duration and one spanning every bucket. */
START_TEST(pruned_concurrency_of_ties)
{
    static const uint32_t two[] = {4}, four[] = {2, 4, 6}, uneven[] = {1, 2, 7};
    ck_assert_uint_gt(check_pruned_cuts(stress_text, 8, two, 2), 0);
    ck_assert_uint_gt(check_pruned_cuts(stress_text, 8, four, 4), 0);
    ck_assert_uint_gt(check_pruned_cuts(stress_text, 8, uneven, 4), 0);
}
END_TEST

/* Windows over two clocks (the relative one sorting first with the later times) are not cut by
 * time: a cut would mix the clocks' points. */
START_TEST(pruned_concurrency_over_clocks)
{
    static const uint32_t two[] = {4}, four[] = {2, 5, 7};
    check_pruned_cuts(clocks_text, 8, two, 2);
    check_pruned_cuts(clocks_text, 8, four, 4);
}
END_TEST

static int cmp_int64(const void *pa, const void *pb)
{
    int64_t a = *(const int64_t *)pa, b = *(const int64_t *)pb;
    return (a > b) - (a < b);
}

/* Every rank of values with ties, negative and extreme ones, in two parts, as a sort gives it; the
 * values one part keeps while narrowing find the same. */
START_TEST(percentile_cuts_find_every_rank)
{
    enum { N = 2000 };
    int64_t *v = malloc(N * sizeof(*v)), *w = malloc(N * sizeof(*w));
    int64_t *kept = malloc(N * sizeof(*kept));
    uint64_t x = 88172645463325252ull;
    for (size_t i = 0; i < N; i++) {
        x ^= x << 13, x ^= x >> 7, x ^= x << 17;
        v[i] = i % 3   ? (int64_t)(x % 1000) * 1000 - 20000
               : i % 7 ? (int64_t)x
                       : (i % 2 ? INT64_MIN : INT64_MAX);
        w[i] = v[i];
    }
    qsort(w, N, sizeof(*w), cmp_int64);
    const int64_t *parts[2] = {v, v + 700};
    uint64_t n[2] = {700, N - 700};
    for (uint64_t rank = 1; rank <= N; rank += 37) {
        ck_assert_int_eq(bisect(parts, n, 2, rank), w[rank - 1]);
        struct iodfg_partial_cut c;
        iodfg_partial_cut_all(&c);
        uint64_t hist[IODFG_PARTIAL_BUCKETS], r = rank, m = N;
        int64_t got;
        memcpy(kept, v, sizeof(*v) * N);
        do {
            memset(hist, 0, sizeof(hist));
            iodfg_partial_hist(kept, m, &c, hist);
            iodfg_partial_narrow(&c, hist, &r);
            m = iodfg_partial_keep(kept, m, &c, kept);
        } while (!iodfg_partial_cut_value(&c, &got));
        ck_assert_int_eq(got, w[rank - 1]);
        ck_assert_uint_ge(m, 1);
    }
    // two ranges of the same values kept in one pass: what two passes keep
    struct iodfg_partial_cut c[2];
    uint64_t hist[IODFG_PARTIAL_BUCKETS] = {0}, r[2] = {N / 2, N - N / 20}, k[2];
    int64_t *two = malloc(2 * (N + 1) * sizeof(*two));
    iodfg_partial_cut_all(&c[0]);
    c[1] = c[0];
    iodfg_partial_hist(v, N, &c[0], hist);
    for (int i = 0; i < 2; i++) {
        iodfg_partial_narrow(&c[i], hist, &r[i]);
    }
    iodfg_partial_keep2(v, N, &c[0], two, &k[0], &c[1], two + N + 1, &k[1]);
    for (int i = 0; i < 2; i++) {
        ck_assert_uint_eq(iodfg_partial_keep(v, N, &c[i], kept), k[i]);
        ck_assert_mem_eq(kept, two + i * (N + 1), k[i] * sizeof(*kept));
        ck_assert_uint_gt(k[i], 0);
    }
    ck_assert(memcmp(&c[0], &c[1], sizeof(c[0])) != 0);
    free(two);
    free(v);
    free(w);
    free(kept);
}
END_TEST

/* Part s's durations read from its columns, as iodfg-mpi's percentile rounds read them, are the
 * values collected: the same first-round histograms, and the same values kept in two ranges of
 * each activity (those of its median and its 95th percentile, and any others). */
static void check_durations_in_columns(const struct iodfg_session *s)
{
    struct durations v;
    durations_of(s, &v);
    size_t B = IODFG_PARTIAL_BUCKETS;
    uint64_t *hist = calloc(v.nact * B + 1, sizeof(*hist)), *want = calloc(B, sizeof(*want));
    struct iodfg_partial_keep_to *to = calloc(2 * (size_t)v.nact + 1, sizeof(*to));
    iodfg_partial_dur_hist(s, hist);
    for (uint32_t a = 0; a < v.nact; a++) {
        const int64_t *va = v.v + v.off[a];
        uint64_t n = v.off[a + 1] - v.off[a];
        struct iodfg_partial_cut c;
        iodfg_partial_cut_all(&c);
        memset(want, 0, B * sizeof(*want));
        iodfg_partial_hist(va, n, &c, want);
        ck_assert_mem_eq(hist + a * B, want, B * sizeof(*want));
        for (int j = 0; j < 2; j++) { // the median's and the p95's range, or for j = 1 all
            uint64_t rank = iodfg_partial_rank(n, j ? 95 : 50);
            struct iodfg_partial_cut cj = c;
            if (n && !(j && a % 2)) {
                iodfg_partial_narrow(&cj, want, &rank);
            }
            to[2 * a + j] =
                (struct iodfg_partial_keep_to){cj, malloc((n + 1) * sizeof(int64_t)), n, 0};
        }
    }
    ck_assert_int_eq(iodfg_partial_dur_keep(s, to, 2 * (size_t)v.nact), 0);
    int64_t *kept = malloc((v.off[v.nact] + 1) * sizeof(*kept));
    for (size_t i = 0; i < 2 * (size_t)v.nact; i++) {
        const int64_t *va = v.v + v.off[i / 2];
        uint64_t k = iodfg_partial_keep(va, v.off[i / 2 + 1] - v.off[i / 2], &to[i].cut, kept);
        ck_assert_uint_eq(to[i].k, k);
        ck_assert_mem_eq(to[i].out, kept, k * sizeof(*kept));
    }
    // fewer ranges than activities: the others keep nothing, and nothing beyond them is read
    for (size_t nkeep = 0; nkeep < 2 * (size_t)v.nact; nkeep += 3) {
        struct iodfg_partial_keep_to *few = calloc(nkeep + 1, sizeof(*few));
        for (size_t i = 0; i < nkeep; i++) {
            few[i] = to[i];
            few[i].k = 0;
        }
        ck_assert_int_eq(iodfg_partial_dur_keep(s, few, nkeep), 0);
        for (size_t i = 0; i < nkeep; i++) {
            ck_assert_uint_eq(few[i].k, to[i].k);
        }
        free(few);
    }
    // a range with less room than it holds is refused, not overrun
    for (size_t i = 0; i < 2 * (size_t)v.nact; i++) {
        to[i].cap = to[i].k ? to[i].k - 1 : 0;
        to[i].k = 0;
    }
    ck_assert_int_eq(iodfg_partial_dur_keep(s, to, 2 * (size_t)v.nact), v.off[v.nact] ? -1 : 0);
    for (size_t i = 0; i < 2 * (size_t)v.nact; i++) {
        ck_assert_uint_le(to[i].k, to[i].cap);
        free(to[i].out);
    }
    free(kept);
    free(to);
    free(hist);
    free(want);
    durations_fini(&v);
}

/* With the session's activity codes, and without them (per-pid cases of a job part). */
START_TEST(durations_read_where_they_lie)
{
    static const uint32_t cuts[] = {7};
    struct fixture f;
    fixture_init(&f, cuts, 2);
    struct iodfg_error err;
    for (int p = 0; p < 2; p++) {
        ck_assert_ptr_nonnull(iodfg_analysis_event_codes(iodfg_session_analysis(f.sp[p])));
        check_durations_in_columns(f.sp[p]);
        size_t copies = iodfg_partial_hist_copies_max;
        iodfg_partial_hist_copies_max = 0; // one histogram, as for thousands of activities
        check_durations_in_columns(f.sp[p]);
        iodfg_partial_hist_copies_max = copies;
        struct iodfg_session *pp = iodfg_session_new(f.part[p], &err);
        ck_assert_ptr_nonnull(pp);
        iodfg_session_set_job_part(pp);
        iodfg_session_set_per_pid(pp, 1);
        ck_assert_int_eq(iodfg_session_rebuild(pp, &err), 0);
        ck_assert_ptr_null(iodfg_analysis_event_codes(iodfg_session_analysis(pp)));
        check_durations_in_columns(pp);
        iodfg_session_free(pp);
    }
    fixture_fini(&f);
}
END_TEST

/* The selection of part p (cases from lo) without case 5: binned measures do not mix clocks. */
static void one_clock(struct iodfg_session *s, const struct iodfg_eventlog *log, uint32_t lo,
                      uint8_t *mask, struct iodfg_selection *sel)
{
    iodfg_session_selection(s, IODFG_GROUP_NONE, sel);
    for (uint32_t c = 0; c < iodfg_eventlog_case_count(log); c++) {
        mask[c] = lo + c != 5 && (!sel->case_on || sel->case_on[c]);
    }
    sel->case_on = mask;
}

/* Wright et al.'s rows of the parts added equal the whole's. */
static void check_bw_rows(struct fixture *f, const struct iodfg_selection *sel,
                          const struct iodfg_selection *psel)
{
    struct iodfg_error err;
    iodfg_error_clear(&err);
    const struct iodfg_mapping *map = iodfg_session_mapping(f->sw);
    uint32_t na = map->nactivities;
    struct iodfg_bandwidth bw, pbw;
    iodfg_bandwidth_init(&bw);
    ck_assert_int_eq(iodfg_bandwidth_build(&bw, f->whole, map, sel, &err), 0);
    struct iodfg_bw_row *rows = calloc(na + 1, sizeof(*rows));
    for (int p = 0; p < f->nparts; p++) {
        iodfg_bandwidth_init(&pbw);
        ck_assert_int_eq(iodfg_bandwidth_build(&pbw, f->part[p], iodfg_session_mapping(f->sp[p]),
                                               &psel[p], &err),
                         0);
        iodfg_partial_bw_rows_add(rows, pbw.act, na);
        iodfg_bandwidth_fini(&pbw);
    }
    for (uint32_t a = 0; a < na; a++) {
        iodfg_bw_row_finish(&rows[a], bw.overall[IODFG_BW_ALL].dur_sum_ns);
        ck_assert_int_eq(rows[a].count, bw.act[a].count);
        ck_assert_int_eq(rows[a].cases, bw.act[a].cases);
        ck_assert_int_eq(rows[a].bytes, bw.act[a].bytes);
        ck_assert_int_eq(rows[a].dur_sum_ns, bw.act[a].dur_sum_ns);
        ck_assert_int_eq(rows[a].first_ns, bw.act[a].first_ns);
        ck_assert_int_eq(rows[a].last_ns, bw.act[a].last_ns);
        ck_assert(memcmp(&rows[a].perceived, &bw.act[a].perceived, sizeof(double)) == 0);
        ck_assert(memcmp(&rows[a].share, &bw.act[a].share, sizeof(double)) == 0);
    }
    free(rows);
    iodfg_bandwidth_fini(&bw);
}

/* The stair-case index swept over the parts' intervals equals the whole's. */
static void check_stair(struct fixture *f, const struct iodfg_selection *sel,
                        const struct iodfg_selection *psel)
{
    struct iodfg_error err;
    iodfg_error_clear(&err);
    const struct iodfg_mapping *map = iodfg_session_mapping(f->sw);
    struct iodfg_serial sr, psr;
    iodfg_serial_init(&sr);
    iodfg_serial_init(&psr);
    ck_assert_int_eq(iodfg_serial_build(&sr, f->whole, map, sel, NULL, NULL, &err), 0);
    struct iodfg_partial_span *all = NULL, *sp;
    size_t nall = 0, n;
    for (int p = 0; p < f->nparts; p++) {
        ck_assert_int_eq(iodfg_partial_spans(f->part[p], iodfg_session_mapping(f->sp[p]), &psel[p],
                                             &sp, &n, &err),
                         0);
        all = realloc(all, (nall + n + 1) * sizeof(*all));
        memcpy(all + nall, sp, n * sizeof(*sp));
        nall += n;
        free(sp);
    }
    ck_assert_int_eq(iodfg_partial_serial(&psr, all, nall, map->nactivities, &err), 0);
    uint64_t queued = 0;
    for (uint32_t a = 0; a < map->nactivities; a++) {
        ck_assert_int_eq(psr.act[a].busy_ns, sr.act[a].busy_ns);
        ck_assert_int_eq(psr.act[a].staggered_ns, sr.act[a].staggered_ns);
        ck_assert_int_eq(psr.act[a].queued, sr.act[a].queued);
        queued += sr.act[a].queued;
    }
    ck_assert_uint_gt(queued, 0); // the log holds staggered calls
    free(all);
    iodfg_serial_fini(&psr);
    iodfg_serial_fini(&sr);
}

/* The parts' servers, each once in part order, into names; each part's of[] maps to them. */
static uint32_t merge_names(struct fixture *f, struct iodfg_binned_servers *sv, char **names)
{
    uint32_t n = 0;
    for (int p = 0; p < f->nparts; p++) {
        for (uint32_t i = 0; i < sv[p].n; i++) {
            const char *nm = iodfg_binned_server_name(f->part[p], IODFG_BY_FILE, sv[p].id[i]);
            uint32_t k = 0;
            while (k < n && strcmp(names[k], nm) != 0) {
                k++;
            }
            if (k == n) {
                names[n++] = strdup(nm);
            }
            sv[p].of[sv[p].id[i]] = k;
        }
    }
    return n;
}

/* The bins filled part after part on the merged grid and servers equal the whole's. */
static void check_bins(struct fixture *f, const struct iodfg_selection *sel,
                       const struct iodfg_selection *psel)
{
    struct iodfg_error err;
    iodfg_error_clear(&err);
    struct iodfg_bin_opts o = {20000, 0, IODFG_BY_FILE}; // 20 us: many calls span bins
    struct iodfg_binned bn, pbn, grid;
    iodfg_binned_init(&bn);
    iodfg_binned_init(&pbn);
    iodfg_binned_init(&grid);
    ck_assert_int_eq(
        iodfg_binned_build(&bn, f->whole, iodfg_session_mapping(f->sw), sel, &o, NULL, &err), 0);
    struct iodfg_binned_servers sv[MAXPARTS];
    uint8_t *kf[MAXPARTS];
    int64_t t0 = INT64_MAX, t1 = INT64_MIN;
    for (int p = 0; p < f->nparts; p++) {
        kf[p] = malloc(iodfg_eventlog_key_count(f->part[p]) + 1);
        iodfg_metrics_key_flags(f->part[p], kf[p]);
        ck_assert_int_eq(iodfg_binned_scan(&sv[p], f->part[p], iodfg_session_mapping(f->sp[p]),
                                           &psel[p], o.by, kf[p], &err),
                         0);
        t0 = sv[p].t0_ns < t0 ? sv[p].t0_ns : t0;
        t1 = sv[p].t1_ns > t1 ? sv[p].t1_ns : t1;
    }
    char *names[64];
    uint32_t nnames = merge_names(f, sv, names);
    ck_assert_int_eq(iodfg_binned_grid(&grid, t0, t1, o.dt_ns, &err), 0);
    ck_assert_int_eq(iodfg_binned_alloc(&pbn, nnames, grid.nbins, &err), 0);
    pbn.t0_ns = grid.t0_ns;
    pbn.dt_ns = grid.dt_ns;
    for (int p = 0; p < f->nparts; p++) { // in part order: the order of the additions matters
        iodfg_binned_spread_events(&pbn, f->part[p], iodfg_session_mapping(f->sp[p]), &psel[p],
                                   o.by, kf[p], sv[p].of);
        iodfg_binned_servers_fini(&sv[p]);
        free(kf[p]);
    }
    ck_assert_uint_eq(pbn.nservers, bn.nservers);
    ck_assert_uint_eq(pbn.nbins, bn.nbins);
    ck_assert_uint_gt(bn.nbins, 10);
    for (uint32_t s = 0; s < nnames; s++) {
        ck_assert_str_eq(names[s], bn.server[s]);
        free(names[s]);
    }
    size_t cells = (size_t)bn.nservers * bn.nbins;
    for (int x = 0; x < IODFG_DIR__N; x++) {
        ck_assert(memcmp(pbn.bytes[x], bn.bytes[x], cells * sizeof(double)) == 0);
        ck_assert(memcmp(pbn.ops[x], bn.ops[x], cells * sizeof(double)) == 0);
        ck_assert_uint_eq(pbn.exact_bytes[x], bn.exact_bytes[x]);
    }
    iodfg_binned_fini(&bn);
    iodfg_binned_fini(&pbn);
}

/* The characterisation's pieces from parts, as iodfg-mpi characterize combines them, equal the
 * whole log's bit for bit. */
static void check_charz(const uint32_t *cuts, int nparts)
{
    struct fixture f;
    fixture_init(&f, cuts, nparts);
    struct iodfg_selection sel, psel[MAXPARTS];
    uint8_t mask[NCASES], pmask[MAXPARTS][NCASES];
    one_clock(f.sw, f.whole, 0, mask, &sel);
    for (int p = 0; p < nparts; p++) {
        one_clock(f.sp[p], f.part[p], p ? cuts[p - 1] : 0, pmask[p], &psel[p]);
    }
    check_bw_rows(&f, &sel, psel);
    check_stair(&f, &sel, psel);
    check_bins(&f, &sel, psel);
    fixture_fini(&f);
}

START_TEST(characterization_in_parts)
{
    static const uint32_t four[] = {1, 9, 17}, empty[] = {0, 5, 24};
    check_charz(four, 4);
    check_charz(empty, 4);
    check_charz(NULL, 1);
}
END_TEST

static Suite *partial_suite(void)
{
    Suite *s = suite_create("partial");
    TCase *tc = tcase_create("combine");
    tcase_set_timeout(tc, 60);
    tcase_add_test(tc, two_halves);
    tcase_add_test(tc, four_uneven_parts);
    tcase_add_test(tc, empty_parts);
    tcase_add_test(tc, one_part);
    tcase_add_test(tc, values_without_gaps);
    tcase_add_test(tc, groups_results_go_with_groups);
    tcase_add_test(tc, key_sums_and_rate_fold_are_the_walk);
    tcase_add_test(tc, points_sort_in_sweep_order);
    tcase_add_test(tc, sweep_of_runs_is_sweep_of_merge);
    tcase_add_test(tc, pruned_concurrency_is_exact);
    tcase_add_test(tc, pruned_concurrency_of_ties);
    tcase_add_test(tc, pruned_concurrency_over_clocks);
    tcase_add_test(tc, percentile_cuts_find_every_rank);
    tcase_add_test(tc, durations_read_where_they_lie);
    tcase_add_test(tc, characterization_in_parts);
    suite_add_tcase(s, tc);
    return s;
}

int main(void)
{
    return testutil_run(partial_suite());
}
