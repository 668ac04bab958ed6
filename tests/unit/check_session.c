/* SPDX-License-Identifier: MIT */
/* Unit tests: the analysis session (inputs, one rebuild choosing full or incremental work,
 * groups, pruning, counts, state text, undo and redo). */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "iodfg/analysis.h"
#include "iodfg/buf.h"
#include "iodfg/characterize.h"
#include "iodfg/dfg.h"
#include "iodfg/error.h"
#include "iodfg/eventlog.h"
#include "iodfg/export.h"
#include "iodfg/filter.h"
#include "iodfg/focus.h"
#include "iodfg/rules.h"
#include "iodfg/session.h"
#include "iodfg/session_job.h"
#include "iodfg/stats.h"

#include "dfg_testlog.h"
#include "testutil.h"

static struct iodfg_eventlog *LOG;

static void setup(void)
{
    LOG = iodfg_eventlog_new(IODFG_COL_ANALYSIS);
    ck_assert_ptr_nonnull(LOG);
    tlog_paper_log(LOG);
}

static void teardown(void)
{
    iodfg_eventlog_free(LOG);
}

static struct iodfg_session *new_session(void)
{
    struct iodfg_error err;
    iodfg_error_clear(&err);
    struct iodfg_session *s = iodfg_session_new(LOG, &err);
    ck_assert_ptr_nonnull(s);
    ck_assert_int_eq(iodfg_session_set_rules(s, NULL, 0, NULL, &err), 0);
    return s;
}

static void rebuild(struct iodfg_session *s)
{
    struct iodfg_error err;
    iodfg_error_clear(&err);
    ck_assert_msg(iodfg_session_rebuild(s, &err) == 0, "rebuild: %s", err.msg);
}

/* The activity and transition tables of a session, sorted by name, as TSV. */
static char *tables(const struct iodfg_session *s)
{
    const struct iodfg_dfg *g = iodfg_session_dfg(s);
    const struct iodfg_stats *st = iodfg_session_stats(s);
    const struct iodfg_mapping *map = iodfg_session_mapping(s);
    uint32_t *ao = malloc(((size_t)map->nactivities + 1) * sizeof(*ao));
    uint32_t *eo = malloc((iodfg_dfg_slots(g) + 1) * sizeof(*eo));
    size_t na = iodfg_export_sort_activities(st, map, IODFG_AC_NAME, 0, 0, ao);
    size_t ne = iodfg_export_sort_edges(g, map, IODFG_EC_FROM, 0, 0, eo);
    struct iodfg_buf b;
    iodfg_buf_init(&b);
    ck_assert_int_eq(iodfg_export_tsv_activities(&b, st, map, ao, na, NULL), 0);
    ck_assert_int_eq(iodfg_export_tsv_edges(&b, g, map, eo, ne, NULL), 0);
    free(ao);
    free(eo);
    char *text = strdup(b.data ? b.data : "");
    iodfg_buf_fini(&b);
    return text;
}

static void assert_same(const struct iodfg_session *a, const struct iodfg_session *b)
{
    char *x = tables(a), *y = tables(b);
    ck_assert_str_eq(x, y);
    free(x);
    free(y);
}

static void push_filter(struct iodfg_session *s, const char *text)
{
    ck_assert_int_eq(iodfg_filter_stack_push_text(iodfg_session_filters(s), text, NULL), 0);
}

START_TEST(first_rebuild_is_full_and_ready)
{
    struct iodfg_session *s = new_session();
    ck_assert_int_eq(iodfg_session_ready(s), 0);
    ck_assert_ptr_null(iodfg_session_dfg(s));
    rebuild(s);
    ck_assert_int_eq(iodfg_session_ready(s), 1);
    ck_assert_int_eq(iodfg_analysis_last(iodfg_session_analysis(s))->full, 1);
    const struct iodfg_session_counts *k = iodfg_session_counts(s);
    ck_assert_uint_eq(k->events, iodfg_eventlog_event_count(LOG));
    ck_assert_uint_eq(k->events_selected, k->events);
    ck_assert_uint_eq(k->unmapped, 0);
    ck_assert_uint_eq(k->cases_selected, 6);
    ck_assert_uint_eq(k->activities_shown, k->activities);
    ck_assert_uint_eq(k->events_shown, k->events);
    ck_assert_int_eq(iodfg_session_pruned(s), 0);
    ck_assert_ptr_null(iodfg_session_diff(s));
    // nothing changed: no work, same generation
    uint64_t gen = k->generation;
    rebuild(s);
    ck_assert_uint_eq(k->generation, gen);
    ck_assert_int_eq(k->change.selection | k->change.mapping | k->change.pruning, 0);
    iodfg_session_free(s);
}
END_TEST

/* A session that is one part of a job builds the same DFG and statistics but for the maximum
 * concurrency and the percentiles, which it leaves unset (the job's merge finds them), with and
 * without one trace per pid: its case counts come from their own walk then. */
static void check_job_part(int per_pid)
{
    struct iodfg_session *whole = new_session(), *part = new_session();
    iodfg_session_set_job_part(part);
    iodfg_session_set_per_pid(whole, per_pid);
    iodfg_session_set_per_pid(part, per_pid);
    rebuild(whole);
    rebuild(part);
    const struct iodfg_stats *a = iodfg_session_stats(whole), *b = iodfg_session_stats(part);
    ck_assert_uint_eq(a->nactivities, b->nactivities);
    uint32_t swept = 0, found = 0, more_cases = 0;
    for (uint32_t i = 0; i < a->nactivities; i++) {
        ck_assert_uint_eq(a->act[i].count, b->act[i].count);
        ck_assert_uint_eq(a->act[i].cases, b->act[i].cases);
        ck_assert_int_eq(a->act[i].dur_sum_ns, b->act[i].dur_sum_ns);
        ck_assert_int_eq(b->act[i].dur_median_ns, IODFG_UNKNOWN);
        ck_assert_int_eq(b->act[i].dur_p95_ns, IODFG_UNKNOWN);
        ck_assert_uint_eq(b->act[i].mc, 0);
        swept += a->act[i].mc > 0;
        found += a->act[i].dur_median_ns != IODFG_UNKNOWN;
        more_cases += a->act[i].cases > 1;
    }
    ck_assert_uint_gt(swept, 0);
    ck_assert_uint_gt(found, 0);
    ck_assert_uint_gt(more_cases, 0);
    const struct iodfg_dfg *ga = iodfg_session_dfg(whole), *gb = iodfg_session_dfg(part);
    ck_assert_uint_eq(iodfg_dfg_edge_count(ga), iodfg_dfg_edge_count(gb));
    for (size_t i = 0; i < iodfg_dfg_slots(gb); i++) {
        const struct iodfg_dfg_edge *e = iodfg_dfg_edge_at(gb, i);
        const struct iodfg_dfg_edge *f = e->count ? iodfg_dfg_find(ga, e->from, e->to) : NULL;
        ck_assert(!e->count || (f && f->cases == e->cases));
        ck_assert_int_eq(e->gap_median_ns, IODFG_UNKNOWN);
    }
    iodfg_session_free(whole);
    iodfg_session_free(part);
}

START_TEST(job_part_leaves_concurrency_and_percentiles_to_the_merge)
{
    check_job_part(0);
    check_job_part(1);
}
END_TEST

/* With one trace per pid a job part counts an activity once in each pid's trace that holds it
 * (two pids of one case reading: two cases), as a whole session does. */
START_TEST(job_part_counts_each_pids_trace)
{
    struct iodfg_eventlog *log = iodfg_eventlog_new(IODFG_COL_ANALYSIS);
    ck_assert_ptr_nonnull(log);
    tlog_add_case(log, "two",
                  "1  1700000000.000000 read(3</a/x>, \"\", 1) = 1 <0.000001>\n"
                  "2  1700000000.000010 read(3</a/x>, \"\", 1) = 1 <0.000001>\n"
                  "1  1700000000.000020 read(3</a/x>, \"\", 1) = 1 <0.000001>\n"
                  "1  1700000000.000040 write(3</b/z>, \"\", 1) = 1 <0.000001>\n");
    tlog_add_case(log, "one", "3  1700000000.000000 read(3</a/x>, \"\", 1) = 1 <0.000001>\n");
    struct iodfg_error err;
    iodfg_error_clear(&err);
    struct iodfg_session *s[2];
    for (int i = 0; i < 2; i++) {
        s[i] = iodfg_session_new(log, &err);
        ck_assert_ptr_nonnull(s[i]);
        ck_assert_int_eq(iodfg_session_set_rules(s[i], NULL, 0, NULL, &err), 0);
        iodfg_session_set_per_pid(s[i], 1);
    }
    iodfg_session_set_job_part(s[1]);
    rebuild(s[0]);
    rebuild(s[1]);
    const struct iodfg_stats *a = iodfg_session_stats(s[0]), *b = iodfg_session_stats(s[1]);
    uint64_t most = 0;
    for (uint32_t i = 0; i < a->nactivities; i++) {
        ck_assert_uint_eq(a->act[i].cases, b->act[i].cases);
        most = a->act[i].cases > most ? a->act[i].cases : most;
    }
    ck_assert_uint_eq(most, 3);
    iodfg_session_free(s[0]);
    iodfg_session_free(s[1]);
    iodfg_eventlog_free(log);
}
END_TEST

/* A job part with one case per pid, edited after its first build, counts as a whole session
 * does (its full builds write no activity codes for a sweep: an edit must not count on them). */
START_TEST(job_part_per_pid_edits_exactly)
{
    struct iodfg_session *whole = new_session(), *part = new_session();
    iodfg_session_set_job_part(part);
    iodfg_session_set_per_pid(whole, 1);
    iodfg_session_set_per_pid(part, 1);
    rebuild(whole);
    rebuild(part);
    struct iodfg_error err;
    iodfg_error_clear(&err);
    const char *rule = "map path ~ ^/usr/lib/ => {call}:libs";
    ck_assert_int_eq(iodfg_rules_insert_line(iodfg_session_rules(whole), 1, rule, &err), 0);
    ck_assert_int_eq(iodfg_rules_insert_line(iodfg_session_rules(part), 1, rule, &err), 0);
    rebuild(whole);
    rebuild(part);
    const struct iodfg_dfg *a = iodfg_session_dfg(whole), *b = iodfg_session_dfg(part);
    ck_assert_uint_eq(iodfg_dfg_edge_count(a), iodfg_dfg_edge_count(b));
    for (size_t i = 0; i < iodfg_dfg_slots(a); i++) {
        const struct iodfg_dfg_edge *e = iodfg_dfg_edge_at(a, i);
        if (e->count) {
            const struct iodfg_dfg_edge *f = iodfg_dfg_find(b, e->from, e->to);
            ck_assert_ptr_nonnull(f);
            ck_assert_uint_eq(e->count, f->count);
        }
    }
    const struct iodfg_stats *sa = iodfg_session_stats(whole), *sb = iodfg_session_stats(part);
    for (uint32_t i = 0; i < sa->nactivities; i++) {
        ck_assert_uint_eq(sa->act[i].count, sb->act[i].count);
        ck_assert_uint_eq(sa->act[i].cases, sb->act[i].cases);
        ck_assert(sb->act[i].mc == 0 || sb->act[i].mc == sa->act[i].mc); // unset or exact
    }
    iodfg_session_free(whole);
    iodfg_session_free(part);
}
END_TEST

static void count_call(void *ctx)
{
    ++*(int *)ctx;
}

/* The recompute hook runs before each rebuild that recomputes results, and only then. */
START_TEST(recompute_hook_runs_before_real_rebuilds)
{
    struct iodfg_session *s = new_session();
    int calls = 0;
    iodfg_session_on_recompute(s, count_call, &calls);
    rebuild(s); // the first: everything
    ck_assert_int_eq(calls, 1);
    rebuild(s); // nothing changed
    ck_assert_int_eq(calls, 1);
    struct iodfg_error err;
    iodfg_error_clear(&err);
    const char *rule = "map path ~ ^/usr/lib/ => {call}:libs";
    ck_assert_int_eq(iodfg_rules_insert_line(iodfg_session_rules(s), 1, rule, &err), 0);
    rebuild(s); // a mapping change
    ck_assert_int_eq(calls, 2);
    iodfg_session_on_recompute(s, NULL, NULL);
    ck_assert_int_eq(iodfg_rules_delete_line(iodfg_session_rules(s), 1, &err), 0);
    rebuild(s);
    ck_assert_int_eq(calls, 2);
    iodfg_session_free(s);
}
END_TEST

START_TEST(rule_edit_is_incremental_and_exact)
{
    struct iodfg_session *s = new_session(), *fresh = new_session();
    rebuild(s);
    const char *rule = "map path ~ ^/usr/lib/ => {call}:libs";
    ck_assert_int_eq(iodfg_rules_insert_line(iodfg_session_rules(s), 1, rule, NULL), 0);
    rebuild(s);
    const struct iodfg_session_counts *k = iodfg_session_counts(s);
    ck_assert_int_eq(k->change.mapping, 1);
    ck_assert_int_eq(k->change.selection, 0);
    ck_assert_int_eq(iodfg_analysis_last(iodfg_session_analysis(s))->full, 0);
    ck_assert_int_eq(iodfg_rules_insert_line(iodfg_session_rules(fresh), 1, rule, NULL), 0);
    rebuild(fresh);
    assert_same(s, fresh);
    iodfg_session_free(s);
    iodfg_session_free(fresh);
}
END_TEST

START_TEST(call_filter_is_incremental_case_filter_full)
{
    struct iodfg_session *s = new_session(), *fresh = new_session();
    rebuild(s);
    push_filter(s, "call=write");
    rebuild(s);
    const struct iodfg_session_counts *k = iodfg_session_counts(s);
    ck_assert_int_eq(k->change.selection, 0);
    ck_assert_int_eq(k->change.mapping, 1);
    ck_assert_int_eq(iodfg_analysis_last(iodfg_session_analysis(s))->full, 0);
    push_filter(fresh, "call=write");
    rebuild(fresh);
    assert_same(s, fresh);
    // filtered-out events are neither selected nor unmapped
    ck_assert_uint_eq(k->unmapped, 0);
    ck_assert_uint_lt(k->events_selected, k->events);
    ck_assert_uint_eq(k->events_shown, k->events_selected);

    push_filter(s, "name~^a_");
    rebuild(s);
    ck_assert_int_eq(k->change.selection, 1);
    ck_assert_int_eq(iodfg_analysis_last(iodfg_session_analysis(s))->full, 1);
    ck_assert_uint_eq(k->cases_selected, 3);
    push_filter(fresh, "name~^a_");
    rebuild(fresh);
    assert_same(s, fresh);
    iodfg_session_free(s);
    iodfg_session_free(fresh);
}
END_TEST

START_TEST(unmapped_counts_dropped_not_filtered)
{
    struct iodfg_session *s = new_session();
    ck_assert_int_eq(
        iodfg_rules_insert_line(iodfg_session_rules(s), 1, "drop call ~ ^write$", NULL), 0);
    rebuild(s);
    const struct iodfg_session_counts *k = iodfg_session_counts(s);
    uint64_t dropped = k->unmapped;
    ck_assert_uint_gt(dropped, 0);
    ck_assert_uint_eq(k->events_shown + dropped, k->events);
    push_filter(s, "call!=write");
    rebuild(s);
    ck_assert_uint_eq(k->unmapped, 0);
    ck_assert_uint_eq(k->events_selected, k->events - dropped);
    iodfg_session_free(s);
}
END_TEST

START_TEST(one_group_makes_the_other_the_rest)
{
    struct iodfg_session *s = new_session();
    struct iodfg_error err;
    iodfg_error_clear(&err);
    ck_assert_int_eq(iodfg_session_group_match(s, "name~^a_", IODFG_GROUP_G, &err), 3);
    rebuild(s);
    const struct iodfg_session_counts *k = iodfg_session_counts(s);
    ck_assert_ptr_nonnull(iodfg_session_diff(s));
    ck_assert_uint_eq(k->g_cases, 3);
    ck_assert_uint_eq(k->r_cases, 3);
    ck_assert_int_eq(k->g_given, 1);
    ck_assert_int_eq(k->r_given, 0);
    const uint8_t *r = iodfg_session_group_mask(s, IODFG_GROUP_R);
    ck_assert_ptr_nonnull(r);
    for (uint32_t c = 0; c < 6; c++) {
        ck_assert_int_eq(r[c], iodfg_session_group_of(s, c) != IODFG_GROUP_G);
    }
    // the same as both groups given
    struct iodfg_session *both = new_session();
    ck_assert_int_eq(iodfg_session_group_match(both, "name~^a_", IODFG_GROUP_G, &err), 3);
    ck_assert_int_eq(iodfg_session_group_match(both, "name~^b_", IODFG_GROUP_R, &err), 3);
    rebuild(both);
    const struct iodfg_diff *d1 = iodfg_session_diff(s), *d2 = iodfg_session_diff(both);
    ck_assert_uint_eq(d1->nedges, d2->nedges);
    for (uint32_t a = 0; a < d1->nactivities; a++) {
        ck_assert_int_eq(iodfg_session_activity_side(s, a), iodfg_session_activity_side(both, a));
    }
    ck_assert_str_eq(iodfg_diff_side_mark(IODFG_DIFF_G_ONLY), "G+");
    ck_assert_str_eq(iodfg_diff_side_mark(IODFG_DIFF_BOTH), "=");
    // a group change alone does not recount the analysis
    iodfg_session_groups_clear(s);
    rebuild(s);
    ck_assert_int_eq(k->change.selection, 0);
    ck_assert_int_eq(k->change.groups, 1);
    ck_assert_ptr_null(iodfg_session_diff(s));
    iodfg_session_free(s);
    iodfg_session_free(both);
}
END_TEST

START_TEST(group_predicates_restrict_and_overlap)
{
    struct iodfg_session *s = new_session();
    struct iodfg_filter_stack *g = iodfg_filter_stack_new(), *r = iodfg_filter_stack_new();
    ck_assert_int_eq(iodfg_filter_stack_push_text(g, "name~^a", NULL), 0);
    ck_assert_int_eq(iodfg_filter_stack_push_text(r, "name~^(a|b)", NULL), 0);
    struct iodfg_error err;
    iodfg_error_clear(&err);
    ck_assert_int_eq(iodfg_session_set_groups(s, g, r, &err), -1);
    ck_assert_ptr_nonnull(strstr(err.msg, "overlap") ? err.msg : strstr(err.msg, "both"));
    iodfg_filter_stack_clear(r);
    ck_assert_int_eq(iodfg_filter_stack_push_text(r, "cid=zzz", NULL), 0);
    iodfg_error_clear(&err);
    ck_assert_int_eq(iodfg_session_set_groups(s, g, r, &err), 0);
    iodfg_session_set_groups_restrict(s, 1);
    rebuild(s);
    const struct iodfg_session_counts *k = iodfg_session_counts(s);
    // an empty R still compares (both groups were given); the analysis covers G and R only
    ck_assert_ptr_nonnull(iodfg_session_diff(s));
    ck_assert_uint_eq(k->g_cases, 3);
    ck_assert_uint_eq(k->r_cases, 0);
    ck_assert_uint_eq(k->cases_selected, 3);
    ck_assert_int_eq(k->r_given, 1);
    iodfg_filter_stack_free(g);
    iodfg_filter_stack_free(r);
    iodfg_session_free(s);
}
END_TEST

/* ---- a session as one part of a job: the other part simulated in this process ---- */

struct fake_job {
    char calls[32];         /* the reductions called, in order: a(gree) s(um) m(erge) o c */
    int other_fails;        /* the other part failed */
    uint32_t other_cases;   /* its cases (all on the epoch clock) */
    uint32_t other_overlap; /* its cases in both groups */
};

static void called(struct fake_job *fj, char c)
{
    size_t n = strlen(fj->calls);
    if (n + 1 < sizeof(fj->calls)) {
        fj->calls[n] = c;
    }
}

static int fake_agree(void *ctx, int rc, struct iodfg_error *err)
{
    struct fake_job *fj = ctx;
    called(fj, 'a');
    if (!rc && fj->other_fails) {
        iodfg_error_set(err, IODFG_E_IO, "the other part failed");
    }
    return rc || fj->other_fails ? -1 : 0;
}

static void fake_sum(void *ctx, uint32_t *v, size_t n)
{
    struct fake_job *fj = ctx;
    called(fj, 's');
    v[n == IODFG_CLOCK__N ? IODFG_CLOCK_EPOCH : 0] += fj->other_cases;
}

static int fake_merge(void *ctx, struct iodfg_session *s, struct iodfg_error *err)
{
    (void)err;
    called(ctx, 'm');
    ck_assert(iodfg_session_ready(s)); // the part's own results are there to merge
    return 0;
}

static int fake_overlaps(void *ctx, struct iodfg_groups_overlap *ov, struct iodfg_error *err)
{
    struct fake_job *fj = ctx;
    (void)err;
    called(fj, 'o');
    if (fj->other_overlap) {
        ov->count += fj->other_overlap;
        snprintf(ov->name[ov->nnames++], sizeof(ov->name[0]), "other_case");
    }
    return 0;
}

static int fake_characterize(void *ctx, const struct iodfg_session *s,
                             const struct iodfg_selection *sel, const struct iodfg_bin_opts *o,
                             int64_t alignment, struct iodfg_characterization *r,
                             struct iodfg_error *err)
{
    (void)s, (void)sel, (void)o, (void)alignment, (void)r, (void)err;
    called(ctx, 'c');
    return 0;
}

static struct iodfg_job fake_job_of(struct fake_job *fj)
{
    memset(fj, 0, sizeof(*fj));
    return (struct iodfg_job){.agree = fake_agree,
                              .sum = fake_sum,
                              .merge = fake_merge,
                              .overlaps = fake_overlaps,
                              .characterize = fake_characterize,
                              .ctx = fj};
}

START_TEST(a_jobs_rebuild_agrees_then_merges)
{
    struct fake_job fj;
    struct iodfg_job job = fake_job_of(&fj);
    struct iodfg_session *s = new_session();
    iodfg_session_set_job(s, &job);
    ck_assert_ptr_eq(iodfg_session_job(s), &job);
    rebuild(s);
    ck_assert_str_eq(fj.calls, "am");
    iodfg_session_free(s);
    // a failure of the other part fails this one too, with its message, and nothing is merged
    s = new_session();
    iodfg_session_set_job(s, &job);
    memset(fj.calls, 0, sizeof(fj.calls));
    fj.other_fails = 1;
    struct iodfg_error err;
    iodfg_error_clear(&err);
    ck_assert_int_eq(iodfg_session_rebuild(s, &err), -1);
    ck_assert_str_eq(err.msg, "the other part failed");
    ck_assert_str_eq(fj.calls, "a");
    iodfg_error_clear(&err);
    ck_assert_int_eq(iodfg_session_prepare(s, &err), -1);
    iodfg_session_free(s);
}
END_TEST

START_TEST(a_jobs_counts_and_groups_cover_every_part)
{
    struct fake_job fj;
    struct iodfg_job job = fake_job_of(&fj);
    struct iodfg_session *s = new_session();
    uint32_t n[IODFG_CLOCK__N], cases = iodfg_eventlog_case_count(LOG);
    ck_assert_uint_eq(iodfg_session_case_total(s, NULL), cases);
    int used = iodfg_session_clocks(s, NULL, n);
    iodfg_session_set_job(s, &job);
    fj.other_cases = 7;
    ck_assert_uint_eq(iodfg_session_case_total(s, NULL), cases + 7);
    ck_assert_int_eq(iodfg_session_clocks(s, NULL, n), n[IODFG_CLOCK_EPOCH] == 7 ? used + 1 : used);
    ck_assert_uint_ge(n[IODFG_CLOCK_EPOCH], 7);
    // groups that share no case here may share one of the other part's
    struct iodfg_filter_stack *g = iodfg_filter_stack_new(), *r = iodfg_filter_stack_new();
    ck_assert_int_eq(iodfg_filter_stack_push_text(g, "name~^a", NULL), 0);
    ck_assert_int_eq(iodfg_filter_stack_push_text(r, "cid=zzz", NULL), 0);
    struct iodfg_error err;
    iodfg_error_clear(&err);
    fj.other_overlap = 2;
    ck_assert_int_eq(iodfg_session_set_groups(s, g, r, &err), -1);
    ck_assert_str_eq(err.msg, "groups G and R overlap in 2 cases: other_case");
    fj.other_overlap = 0;
    iodfg_error_clear(&err);
    ck_assert_int_eq(iodfg_session_set_groups(s, g, r, &err), 0);
    // the characterisation is the job's
    struct iodfg_selection sel;
    struct iodfg_characterization ch;
    iodfg_characterization_init(&ch);
    rebuild(s);
    iodfg_session_selection(s, IODFG_GROUP_NONE, &sel);
    memset(fj.calls, 0, sizeof(fj.calls));
    ck_assert_int_eq(iodfg_session_characterize(s, &sel, NULL, 4096, &ch, &err), 0);
    ck_assert_str_eq(fj.calls, "c");
    iodfg_characterization_fini(&ch);
    iodfg_filter_stack_free(g);
    iodfg_filter_stack_free(r);
    iodfg_session_free(s);
}
END_TEST

START_TEST(thresholds_prune_without_recount)
{
    struct iodfg_session *s = new_session();
    rebuild(s);
    const struct iodfg_session_counts *k = iodfg_session_counts(s);
    uint32_t all = k->activities_shown;
    iodfg_session_set_thresholds(s, 100, 50);
    rebuild(s);
    ck_assert_int_eq(k->change.pruning, 1);
    ck_assert_int_eq(k->change.mapping | k->change.selection, 0);
    ck_assert_int_eq(iodfg_session_pruned(s), 1);
    ck_assert_uint_lt(k->activities_shown, all);
    uint32_t shown = 0;
    for (uint32_t a = 0; a < iodfg_session_mapping(s)->nactivities; a++) {
        shown += iodfg_session_node_on(s)[a];
    }
    ck_assert_uint_eq(shown, k->activities_shown);
    int p, a;
    iodfg_session_thresholds(s, &p, &a);
    ck_assert_int_eq(a, 50);
    iodfg_session_set_thresholds(s, 0, 500); // clamped
    iodfg_session_thresholds(s, &p, &a);
    ck_assert_int_eq(p, 10);
    ck_assert_int_eq(a, 100);
    iodfg_session_free(s);
}
END_TEST

static int other_lines(void *ctx, const char *key, const char *arg, struct iodfg_error *err)
{
    (void)err;
    if (strcmp(key, "view") == 0) {
        snprintf(ctx, 64, "%s", arg);
        return 0;
    }
    return 1;
}

START_TEST(state_round_trip_and_errors)
{
    struct iodfg_session *s = new_session();
    ck_assert_int_eq(
        iodfg_rules_insert_line(iodfg_session_rules(s), 1, "map path ~ ^/etc => etc", NULL), 0);
    push_filter(s, "call!=write");
    iodfg_session_group_set(s, 0, IODFG_GROUP_G);
    iodfg_session_group_set(s, 4, IODFG_GROUP_R);
    iodfg_session_set_thresholds(s, 70, 100);
    iodfg_session_set_per_pid(s, 1);
    struct iodfg_buf a, b;
    iodfg_buf_init(&a);
    iodfg_buf_init(&b);
    ck_assert_int_eq(iodfg_session_state_format(s, &a), 0);
    struct iodfg_session *t = new_session();
    char view[64] = "";
    struct iodfg_error err;
    iodfg_error_clear(&err);
    iodfg_buf_addf(&a, "view rules\n# comment\n\n");
    ck_assert_int_eq(iodfg_session_state_parse(t, a.data, a.len, "x", other_lines, view, &err), 0);
    ck_assert_str_eq(view, "rules");
    ck_assert_int_eq(iodfg_session_state_format(t, &b), 0);
    ck_assert_int_eq(strncmp(a.data, b.data, b.len), 0);
    ck_assert_int_eq(iodfg_session_per_pid(t), 1);
    ck_assert_int_eq(iodfg_session_group_of(t, 4), IODFG_GROUP_R);
    // an unknown line: its line number, and nothing changed
    const char *bad = "paths 50\nbogus 1\n";
    ck_assert_int_eq(iodfg_session_state_parse(t, bad, strlen(bad), "x", NULL, NULL, &err), -1);
    ck_assert_uint_eq(err.line, 2);
    ck_assert_str_eq(err.where, "x");
    int p, q;
    iodfg_session_thresholds(t, &p, &q);
    ck_assert_int_eq(p, 70);
    const char *badf = "filter path~(\n";
    iodfg_error_clear(&err);
    ck_assert_int_eq(iodfg_session_state_parse(t, badf, strlen(badf), "y", NULL, NULL, &err), -1);
    ck_assert_uint_eq(err.line, 1);
    ck_assert_uint_gt(err.col, 7);
    iodfg_buf_fini(&a);
    iodfg_buf_fini(&b);
    iodfg_session_free(s);
    iodfg_session_free(t);
}
END_TEST

static int picky_lines(void *ctx, const char *key, const char *arg, struct iodfg_error *err)
{
    (void)ctx;
    if (strcmp(key, "view") == 0 && strcmp(arg, "rules") != 0) {
        iodfg_error_set(err, IODFG_E_PARSE, "expected a view name, found '%s'", arg);
        err->col = 1; // in arg
        return -1;
    }
    return strcmp(key, "view") == 0 ? 0 : 1;
}

/* A bad value is named, with its column, and nothing changes: numbers out of range, a rule at
 * its own line, a NUL byte, a handler's value. */
START_TEST(state_errors_name_the_value_and_its_place)
{
    struct iodfg_session *t = new_session();
    struct iodfg_error err;
    static const struct {
        const char *text;
        unsigned long line, col;
        const char *msg;
    } bad[] = {
        {"paths 500\n", 1, 7, "expected a number from 0 to 100 for 'paths', found '500'"},
        {"acts x\n", 1, 6, "expected a number from 0 to 100 for 'acts', found 'x'"},
        {"paths 50\nperpid 2\n", 2, 8, "expected a number from 0 to 1 for 'perpid', found '2'"},
        {"view rules\nview bogus\n", 2, 6, "expected a view name, found 'bogus'"},
        {"paths 5\nbogus 1\n", 2, 1, "unknown session line 'bogus'"},
        {"rule map path ~ ^/a => a\n# x\nrule map path ~ ( => b\n", 3, 0, NULL},
        {"paths 50\nrule map\0 call ~ x => y\n", 2, 9, "expected text, found a NUL byte"},
    };
    for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
        iodfg_error_clear(&err);
        size_t len = strlen(bad[i].text);
        if (i == 6) {
            len = 33; // past the NUL
        }
        ck_assert_int_eq(
            iodfg_session_state_parse(t, bad[i].text, len, "s.session", picky_lines, NULL, &err),
            -1);
        ck_assert_str_eq(err.where, "s.session");
        ck_assert_msg(err.line == bad[i].line, "%zu: line %lu", i, err.line);
        if (bad[i].col) {
            ck_assert_msg(err.col == bad[i].col, "%zu: col %lu", i, err.col);
        } else {
            ck_assert_uint_gt(err.col, 5); // in the rule, after "rule "
        }
        if (bad[i].msg) {
            ck_assert_str_eq(err.msg, bad[i].msg);
        }
        int p, a;
        iodfg_session_thresholds(t, &p, &a);
        ck_assert_int_eq(p, 100);
    }
    iodfg_session_free(t);
}
END_TEST

START_TEST(case_names_with_newlines_survive_the_state)
{
    struct iodfg_eventlog *log = iodfg_eventlog_new(IODFG_COL_ANALYSIS);
    tlog_add_case(log, "odd\nname\\x", "1 0.1 read(3</a>, \"\", 1) = 1 <0.1>\n");
    tlog_add_case(log, "plain", "1 0.1 read(3</a>, \"\", 1) = 1 <0.1>\n");
    struct iodfg_session *s = iodfg_session_new(log, NULL);
    ck_assert_ptr_nonnull(s);
    iodfg_session_group_set(s, 0, IODFG_GROUP_R);
    struct iodfg_buf b;
    iodfg_buf_init(&b);
    ck_assert_int_eq(iodfg_session_state_format(s, &b), 0);
    ck_assert_ptr_nonnull(strstr(b.data, "r odd\\nname\\\\x\n"));
    iodfg_session_groups_clear(s);
    ck_assert_int_eq(iodfg_session_state_parse(s, b.data, b.len, "x", NULL, NULL, NULL), 0);
    ck_assert_int_eq(iodfg_session_group_of(s, 0), IODFG_GROUP_R);
    ck_assert_int_eq(iodfg_session_group_of(s, 1), IODFG_GROUP_NONE);
    iodfg_buf_fini(&b);
    iodfg_session_free(s);
    iodfg_eventlog_free(log);
}
END_TEST

START_TEST(undo_redo_restore_inputs_and_results)
{
    struct iodfg_session *s = new_session();
    struct iodfg_error err;
    iodfg_error_clear(&err);
    ck_assert_int_eq(iodfg_session_undo(s, &err), 1); // nothing recorded yet
    rebuild(s);
    ck_assert_int_eq(iodfg_session_record(s), 0);
    char *before = tables(s);
    ck_assert_int_eq(
        iodfg_rules_insert_line(iodfg_session_rules(s), 1, "map call ~ ^read$ => reading", NULL),
        0);
    rebuild(s);
    ck_assert_int_eq(iodfg_session_record(s), 0);
    char *after = tables(s);
    ck_assert_str_ne(before, after);
    ck_assert_int_eq(iodfg_session_undo(s, &err), 0);
    // undoing a rule edit keeps the selection: incremental
    ck_assert_int_eq(iodfg_session_counts(s)->change.selection, 0);
    char *undone = tables(s);
    ck_assert_str_eq(undone, before);
    ck_assert_int_eq(iodfg_session_undo(s, &err), 1);
    ck_assert_int_eq(iodfg_session_redo(s, &err), 0);
    char *redone = tables(s);
    ck_assert_str_eq(redone, after);
    ck_assert_int_eq(iodfg_session_redo(s, &err), 1);
    free(before);
    free(after);
    free(undone);
    free(redone);
    iodfg_session_free(s);
}
END_TEST

/* Σ count over the activities with events, and the number of such activities. */
static uint64_t events_counted(const struct iodfg_session *s, uint32_t *nact)
{
    const struct iodfg_stats *st = iodfg_session_stats(s);
    uint64_t n = 0;
    *nact = 0;
    for (uint32_t a = 0; a < st->nactivities; a++) {
        n += st->act[a].count;
        *nact += st->act[a].count > 0;
    }
    return n;
}

static uint32_t act_of(const struct iodfg_session *s, const char *name)
{
    uint32_t a;
    ck_assert_msg(iodfg_mapping_find(iodfg_session_mapping(s), name, &a) == 0, "no %s", name);
    return a;
}

static uint64_t count_of(const struct iodfg_session *s, const char *name)
{
    return iodfg_session_stats(s)->act[act_of(s, name)].count;
}

/* Focus app folds the runtime's keys into one activity per class: an incremental update equal
 * to a session that had the focus from its start, with every event still counted; and back. */
START_TEST(focus_toggle_is_incremental_and_exact)
{
    struct iodfg_session *s = new_session(), *app = new_session(), *all = new_session();
    rebuild(s);
    uint32_t nall;
    uint64_t before = events_counted(s, &nall);
    ck_assert_uint_eq(iodfg_session_focus_counts(s)->events_folded, 0);
    iodfg_session_set_focus(s, IODFG_FOCUS_APP);
    rebuild(s);
    const struct iodfg_session_counts *k = iodfg_session_counts(s);
    ck_assert_int_eq(k->change.mapping, 1);
    ck_assert_int_eq(k->change.selection, 0);
    ck_assert_int_eq(iodfg_analysis_last(iodfg_session_analysis(s))->full, 0);
    iodfg_session_set_focus(app, IODFG_FOCUS_APP);
    rebuild(app);
    assert_same(s, app);
    // the paper's ls runs are all runtime: the loader's reads, /proc and /etc, the terminal
    uint32_t nact;
    ck_assert_uint_eq(events_counted(s, &nact), before); // nothing vanished
    ck_assert_uint_eq(nact, 3);
    ck_assert_uint_eq(count_of(s, "runtime:loader"), 6 * 3);
    ck_assert_uint_eq(count_of(s, "runtime:system"), 3 * 4 + 3 * 10);
    ck_assert_uint_eq(count_of(s, "runtime:terminal"), 3 * 1 + 3 * 4);
    ck_assert_uint_eq(count_of(s, "read:/usr/lib"), 0);
    ck_assert_uint_gt(iodfg_dfg_edge_count(iodfg_session_dfg(s)), 0);
    const struct iodfg_session_focus_counts *fc = iodfg_session_focus_counts(s);
    ck_assert_uint_eq(fc->events_folded, before);
    ck_assert_uint_eq(fc->activities_folded, nall);
    ck_assert_uint_eq(fc->classes_shown, 3);
    // the rules' mapping keeps the rules' activities; the folded one contains them
    const struct iodfg_mapping *rm = iodfg_session_rules_mapping(s);
    uint32_t lib = act_of(s, "read:/usr/lib"), loader = act_of(s, "runtime:loader");
    uint32_t k0 = iodfg_eventlog_columns(LOG)->key[0];
    ck_assert_uint_eq(rm->activity_of_key[k0], lib);
    ck_assert_uint_eq(iodfg_session_mapping(s)->activity_of_key[k0], loader);
    ck_assert_uint_eq(iodfg_session_fold_activity(s, lib), loader);
    const struct iodfg_focus_classes *fcl = iodfg_session_focus_classes(s);
    ck_assert_ptr_nonnull(fcl);
    ck_assert_str_eq(iodfg_focus_class_name(fcl, iodfg_session_activity_class(s, loader)),
                     "loader");
    ck_assert_str_eq(iodfg_focus_class_name(fcl, iodfg_session_activity_class(s, lib)), "loader");
    // back to all: the f-hat again, incrementally
    iodfg_session_set_focus(s, IODFG_FOCUS_ALL);
    rebuild(s);
    ck_assert_int_eq(iodfg_analysis_last(iodfg_session_analysis(s))->full, 0);
    rebuild(all);
    assert_same(s, all);
    ck_assert_uint_eq(iodfg_session_fold_activity(s, lib), lib);
    ck_assert_uint_eq(iodfg_session_focus_counts(s)->events_folded, 0);
    iodfg_session_free(s);
    iodfg_session_free(app);
    iodfg_session_free(all);
}
END_TEST

/* Rule edits, filters and new class rules under focus app stay equal to a full rebuild. */
START_TEST(focus_with_rule_and_class_edits_is_exact)
{
    const char *classes = "map path ~ ^/usr/lib/ => loader\nmap path ~ ^/proc/ => system\n";
    const char *rule = "map path ~ ^/etc/ => {call}:etc";
    struct iodfg_session *s = new_session(), *fresh = new_session();
    struct iodfg_error err;
    iodfg_error_clear(&err);
    iodfg_session_set_focus(s, IODFG_FOCUS_APP);
    rebuild(s);
    ck_assert_int_eq(iodfg_session_set_focus_rules(s, classes, strlen(classes), "c.rules", &err),
                     0);
    rebuild(s);
    ck_assert_int_eq(iodfg_analysis_last(iodfg_session_analysis(s))->full, 0);
    ck_assert_int_eq(iodfg_rules_insert_line(iodfg_session_rules(s), 1, rule, NULL), 0);
    rebuild(s);
    push_filter(s, "call=read");
    rebuild(s);
    ck_assert_int_eq(
        iodfg_session_set_focus_rules(fresh, classes, strlen(classes), "c.rules", &err), 0);
    ck_assert_int_eq(iodfg_rules_insert_line(iodfg_session_rules(fresh), 1, rule, NULL), 0);
    push_filter(fresh, "call=read");
    iodfg_session_set_focus(fresh, IODFG_FOCUS_APP);
    rebuild(fresh);
    assert_same(s, fresh);
    ck_assert_uint_eq(count_of(s, "read:etc"), 3 * 2 + 3 * 6); // the application's, unfolded
    ck_assert_uint_eq(count_of(s, "runtime:system"), 6 * 2);
    // a bad class rule leaves the ones in force, with its position
    ck_assert_int_eq(iodfg_session_set_focus_rules(s, "map path ~ ( => x\n", 17, "bad.rules", &err),
                     -1);
    ck_assert_str_eq(err.where, "bad.rules");
    ck_assert_uint_eq(err.line, 1);
    rebuild(s);
    assert_same(s, fresh);
    iodfg_session_free(s);
    iodfg_session_free(fresh);
}
END_TEST

/* A rule whose activities the focus folds away changes no key but adds names: the results
 * still cover every activity of the mapping, each (with events or not) as a fresh session's. */
START_TEST(focus_folded_rule_names_keep_results_in_step)
{
    const char *rule = "map path ~ ^/proc/ => {call}:/proc";
    struct iodfg_session *s = new_session(), *fresh = new_session();
    iodfg_session_set_focus(s, IODFG_FOCUS_APP);
    rebuild(s);
    ck_assert_int_eq(iodfg_rules_insert_line(iodfg_session_rules(s), 1, rule, NULL), 0);
    rebuild(s);
    ck_assert_int_eq(iodfg_rules_insert_line(iodfg_session_rules(fresh), 1, rule, NULL), 0);
    iodfg_session_set_focus(fresh, IODFG_FOCUS_APP);
    rebuild(fresh);
    assert_same(s, fresh);
    const struct iodfg_mapping *m = iodfg_session_mapping(s);
    const struct iodfg_stats *a = iodfg_session_stats(s), *b = iodfg_session_stats(fresh);
    ck_assert_uint_eq(a->nactivities, m->nactivities);
    ck_assert_uint_eq(iodfg_dfg_nactivities(iodfg_session_dfg(s)), m->nactivities);
    ck_assert_uint_eq(count_of(s, "read:/proc"), 0); // folded into runtime:system
    for (uint32_t i = 0; i < b->nactivities; i++) {
        const char *name = iodfg_session_activity_name(fresh, i);
        uint32_t j = act_of(s, name);
        ck_assert_uint_lt(j, a->nactivities);
        ck_assert_msg(!memcmp(&a->act[j], &b->act[i], sizeof(b->act[i])),
                      "the statistics of %s differ", name);
    }
    iodfg_session_free(s);
    iodfg_session_free(fresh);
}
END_TEST

/* The focus is part of the state text, its undo steps and session files. */
START_TEST(focus_state_and_undo)
{
    struct iodfg_session *s = new_session(), *t = new_session();
    struct iodfg_error err;
    iodfg_error_clear(&err);
    rebuild(s);
    ck_assert_int_eq(iodfg_session_record(s), 0);
    char *all = tables(s);
    iodfg_session_set_focus(s, IODFG_FOCUS_APP);
    rebuild(s);
    ck_assert_int_eq(iodfg_session_record(s), 0);
    char *app = tables(s);
    ck_assert_str_ne(all, app);
    struct iodfg_buf b;
    iodfg_buf_init(&b);
    ck_assert_int_eq(iodfg_session_state_format(s, &b), 0);
    ck_assert_ptr_nonnull(strstr(b.data, "\nfocus app\n"));
    ck_assert_int_eq(iodfg_session_state_parse(t, b.data, b.len, "s", NULL, NULL, &err), 0);
    ck_assert_int_eq(iodfg_session_focus(t), IODFG_FOCUS_APP);
    rebuild(t);
    assert_same(s, t);
    ck_assert_int_eq(iodfg_session_undo(s, &err), 0);
    ck_assert_int_eq(iodfg_session_focus(s), IODFG_FOCUS_ALL);
    char *undone = tables(s);
    ck_assert_str_eq(undone, all);
    ck_assert_int_eq(iodfg_session_redo(s, &err), 0);
    char *redone = tables(s);
    ck_assert_str_eq(redone, app);
    iodfg_session_set_changed_ratio(s, 3);
    ck_assert(iodfg_session_changed_ratio(s) == 3.0);
    iodfg_buf_clear(&b);
    ck_assert_int_eq(iodfg_session_state_format(s, &b), 0);
    ck_assert_ptr_nonnull(strstr(b.data, "\nchanged 3\n"));
    ck_assert_int_eq(iodfg_session_state_parse(t, b.data, b.len, "s", NULL, NULL, &err), 0);
    ck_assert(iodfg_session_changed_ratio(t) == 3.0);
    const char *badr = "changed 1\n";
    ck_assert_int_eq(iodfg_session_state_parse(t, badr, strlen(badr), "f", NULL, NULL, &err), -1);
    iodfg_error_clear(&err);
    const char *bad = "paths 100\nfocus everything\n";
    ck_assert_int_eq(iodfg_session_state_parse(t, bad, strlen(bad), "f", NULL, NULL, &err), -1);
    ck_assert_uint_eq(err.line, 2);
    ck_assert_ptr_nonnull(strstr(err.msg, "app or all"));
    ck_assert_int_eq(iodfg_session_focus(t), IODFG_FOCUS_APP); // unchanged
    iodfg_buf_fini(&b);
    free(all);
    free(app);
    free(undone);
    free(redone);
    iodfg_session_free(s);
    iodfg_session_free(t);
}
END_TEST

static Suite *suite(void)
{
    Suite *s = suite_create("session");
    TCase *tc = tcase_create("core");
    tcase_add_checked_fixture(tc, setup, teardown);
    tcase_add_test(tc, first_rebuild_is_full_and_ready);
    tcase_add_test(tc, recompute_hook_runs_before_real_rebuilds);
    tcase_add_test(tc, job_part_leaves_concurrency_and_percentiles_to_the_merge);
    tcase_add_test(tc, job_part_counts_each_pids_trace);
    tcase_add_test(tc, job_part_per_pid_edits_exactly);
    tcase_add_test(tc, rule_edit_is_incremental_and_exact);
    tcase_add_test(tc, call_filter_is_incremental_case_filter_full);
    tcase_add_test(tc, unmapped_counts_dropped_not_filtered);
    tcase_add_test(tc, one_group_makes_the_other_the_rest);
    tcase_add_test(tc, group_predicates_restrict_and_overlap);
    tcase_add_test(tc, a_jobs_rebuild_agrees_then_merges);
    tcase_add_test(tc, a_jobs_counts_and_groups_cover_every_part);
    tcase_add_test(tc, thresholds_prune_without_recount);
    tcase_add_test(tc, state_round_trip_and_errors);
    tcase_add_test(tc, case_names_with_newlines_survive_the_state);
    tcase_add_test(tc, state_errors_name_the_value_and_its_place);
    tcase_add_test(tc, undo_redo_restore_inputs_and_results);
    tcase_add_test(tc, focus_toggle_is_incremental_and_exact);
    tcase_add_test(tc, focus_with_rule_and_class_edits_is_exact);
    tcase_add_test(tc, focus_folded_rule_names_keep_results_in_step);
    tcase_add_test(tc, focus_state_and_undo);
    suite_add_tcase(s, tc);
    return s;
}

int main(void)
{
    return testutil_run(suite());
}
