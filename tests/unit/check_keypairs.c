/* SPDX-License-Identifier: MIT */
/* Unit tests: a rule edit's first tier (the key-pair tables, src/engine/keypairs.c, through the
 * session's iodfg_session_rebuild_first) equals the full rebuild's numbers exactly, under many
 * random rule edits, selections and pruning; and the second tier leaves the results a fresh
 * session computes, bit for bit, whether rebuilt in place or computed on another thread while
 * the session is edited again (a stale one is dropped, the published results staying). */
#include "config.h"

#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "iodfg/dfg.h"
#include "iodfg/error.h"
#include "iodfg/eventlog.h"
#include "iodfg/filter.h"
#include "iodfg/mapping.h"
#include "iodfg/rules.h"
#include "iodfg/session.h"
#include "iodfg/stats.h"

#include "../../src/engine/keypairs.h"
#include "dfg_testlog.h"
#include "testutil.h"

static struct iodfg_eventlog *LOG;

/* Every test splits the key-pair build over two threads, however small the log. */
static void setup(void)
{
    iodfg_keypairs_split_min = 0;
    LOG = iodfg_eventlog_new(IODFG_COL_ANALYSIS);
    ck_assert_ptr_nonnull(LOG);
}

static void teardown(void)
{
    iodfg_eventlog_free(LOG);
}

/* A random -f -ttt -T log of ncases cases: a few pids over a dozen files, equal starts. */
static void random_log(unsigned seed, int ncases)
{
    static const char *const calls[] = {"read", "write", "pread64", "close", "getpid"};
    static const char *const paths[] = {"/a/b/c", "/a/b/d", "/a/e", "/f",   "/g/h/i/j",
                                        "/g/h/k", "/l/m",   "/n",   "/o/p", "/q/r/s"};
    srand(seed);
    char *text = malloc(1 << 16);
    for (int c = 0; c < ncases; c++) {
        size_t len = 0;
        long t = rand() % 50;
        for (int i = 0, n = rand() % 40; i < n; i++) {
            t += rand() % 6;
            int call = rand() % 5, pid = 100 + rand() % 3;
            if (call == 4) {
                len += (size_t)snprintf(text + len, 200, "%d 1700000000.%06ld getpid() = %d\n", pid,
                                        t, pid);
            } else {
                len += (size_t)snprintf(
                    text + len, 200, "%d 1700000000.%06ld %s(3<%s>, \"\", 9) = %d <0.%06d>\n", pid,
                    t, calls[call], paths[rand() % 10], rand() % 9, rand() % 8);
            }
        }
        text[len] = '\0';
        char name[32];
        snprintf(name, sizeof(name), "case%d", c);
        tlog_add_case(LOG, name, text);
    }
    free(text);
}

/* The recorded IOR traces of tests/data, one case each. */
static void ior_log(void)
{
    static const char *const runs[] = {"fpp", "fpppio", "ssf", "ssfpio"};
    static const int first[] = {14745, 14777, 14729, 14761};
    for (int r = 0; r < 4; r++) {
        for (int i = 0; i < 4; i++) {
            char name[64], rel[128];
            snprintf(name, sizeof(name), "%s_node1_%d", runs[r], first[r] + i);
            snprintf(rel, sizeof(rel), "traces/ior/%s.st", name);
            FILE *f = fopen(testutil_data(rel), "rb");
            ck_assert_msg(f != NULL, "%s", rel);
            char *text = malloc(1 << 20);
            size_t n = fread(text, 1, (1 << 20) - 1, f);
            fclose(f);
            text[n] = '\0';
            tlog_add_case(LOG, name, text);
            free(text);
        }
    }
}

/* A random rule text: lines from a pool, with the catch-all (a total mapping unless a drop or
 * a call without a path falls through) most of the time. */
static char *random_rules(void)
{
    static const char *const pool[] = {"map kind = file => {call}:{path:1}",
                                       "map kind = file => {call}:{path:3}",
                                       "map call ~ ^(read|pread64)$ => in:{path:1}",
                                       "map path ~ ^/a/ => {call}:A",
                                       "map call = write => w",
                                       "map path ~ ^/g/h/ => {call}:gh",
                                       "drop call ~ ^close$",
                                       "map path ~ /(c|d|k)$ => last",
                                       "map kind = none => {call}",
                                       "map path ~ ^/p/scratch/ => {call}:scratch"};
    size_t np = sizeof(pool) / sizeof(pool[0]);
    char *text = calloc(1, 4096);
    for (int i = 0, n = rand() % 4; i < n; i++) {
        strcat(text, pool[(size_t)rand() % np]);
        strcat(text, "\n");
    }
    strcat(text, "map kind = file => {call}:{path:2}\n");
    if (rand() % 4) {
        strcat(text, "map => {call}:{kind}\n");
    }
    return text;
}

static void set_rules(struct iodfg_session *s, const char *text)
{
    struct iodfg_error err;
    iodfg_error_clear(&err);
    ck_assert_msg(iodfg_session_set_rules(s, text, strlen(text), "rules", &err) == 0, "%s",
                  err.msg);
}

static void rebuild(struct iodfg_session *s)
{
    struct iodfg_error err;
    iodfg_error_clear(&err);
    ck_assert_msg(iodfg_session_rebuild(s, &err) == 0, "rebuild: %s", err.msg);
}

/* The selection and pruning of variant v: all; per pid; a case filter; a time window (IOR);
 * thresholds (edges needed to know what is shown); the focus on the application. */
static void inputs(struct iodfg_session *s, int v)
{
    struct iodfg_filter_stack *fs = iodfg_session_filters(s);
    if (v == 1) {
        iodfg_session_set_per_pid(s, 1);
    } else if (v == 2) {
        ck_assert_int_eq(iodfg_filter_stack_push_text(fs, "name~[13579]$", NULL), 0);
    } else if (v == 3) {
        ck_assert_int_eq(iodfg_filter_stack_push_text(fs, "time=10ms..40ms", NULL), 0);
    } else if (v == 4) {
        iodfg_session_set_thresholds(s, 60, 80);
    } else if (v == 5) {
        iodfg_session_set_focus(s, IODFG_FOCUS_APP);
    }
}

static struct iodfg_session *new_session(const char *rules, int v)
{
    struct iodfg_error err;
    iodfg_error_clear(&err);
    struct iodfg_session *s = iodfg_session_new(LOG, &err);
    ck_assert_ptr_nonnull(s);
    set_rules(s, rules);
    inputs(s, v);
    rebuild(s);
    return s;
}

static int same_double(double a, double b)
{
    return !memcmp(&a, &b, sizeof(a));
}

/* Whether every selected event of s keeps an activity. */
static int total(const struct iodfg_session *s)
{
    const struct iodfg_mapping *map = iodfg_session_mapping(s);
    for (uint32_t k = 0; k < map->nkeys; k++) {
        if (map->activity_of_key[k] == IODFG_NO_ACTIVITY && iodfg_session_key_events(s, k)) {
            return 0;
        }
    }
    return 1;
}

/* Per activity of fresh, the activity of s with its name (IODFG_NO_ACTIVITY: none): a session
 * that was edited keeps the ids of activities that no longer have events. Malloc'd. */
static uint32_t *same_names(const struct iodfg_session *s, const struct iodfg_session *fresh)
{
    uint32_t n = iodfg_session_mapping(fresh)->nactivities,
             m = iodfg_session_mapping(s)->nactivities;
    uint32_t *to = malloc(((size_t)n + 1) * sizeof(*to));
    for (uint32_t a = 0; a < n; a++) {
        to[a] = IODFG_NO_ACTIVITY;
        for (uint32_t b = 0; b < m && to[a] == IODFG_NO_ACTIVITY; b++) {
            if (!strcmp(iodfg_session_activity_name(fresh, a), iodfg_session_activity_name(s, b))) {
                to[a] = b;
            }
        }
    }
    return to;
}

static uint32_t node(const uint32_t *to, uint32_t a)
{
    return a == IODFG_NODE_START || a == IODFG_NODE_END ? a : to[a];
}

/* Activity a of st has no events (for those of an edited session that fresh lacks). */
static uint64_t events_of(const struct iodfg_stats *st, const uint32_t *to, uint32_t n)
{
    uint64_t sum = 0;
    for (uint32_t a = 0; a < n; a++) {
        sum += to[a] == IODFG_NO_ACTIVITY ? 0 : st->act[to[a]].count;
    }
    return sum;
}

/* The first tier f of s equals the full results of fresh in everything it says is exact. */
static void assert_first(const struct iodfg_session *s, const struct iodfg_session_first *f,
                         const struct iodfg_session *fresh, int top_by_id)
{
    const struct iodfg_stats *a = f->stats, *b = iodfg_session_stats(fresh);
    uint32_t *to = same_names(s, fresh);
    ck_assert_int_eq(a->total_dur_ns, b->total_dur_ns);
    uint64_t all = 0;
    for (uint32_t i = 0; i < a->nactivities; i++) {
        all += a->act[i].count;
    }
    ck_assert_uint_eq(all, events_of(a, to, b->nactivities)); // the others have no events
    for (uint32_t i = 0; i < b->nactivities; i++) {
        const struct iodfg_activity_stats *y = &b->act[i];
        if (to[i] == IODFG_NO_ACTIVITY) {
            ck_assert_uint_eq(y->count, 0);
            continue;
        }
        const struct iodfg_activity_stats *x = &a->act[to[i]];
        ck_assert_msg(x->count == y->count && x->dur_n == y->dur_n &&
                          x->dur_sum_ns == y->dur_sum_ns && x->bytes == y->bytes &&
                          x->dr_n == y->dr_n && x->dur_min_ns == y->dur_min_ns &&
                          x->dur_max_ns == y->dur_max_ns,
                      "activity %s differs", iodfg_session_activity_name(fresh, i));
        ck_assert_msg(same_double(x->rd, y->rd) && same_double(x->dr_sum, y->dr_sum) &&
                          same_double(x->dr_mean, y->dr_mean),
                      "activity %s's rates differ", iodfg_session_activity_name(fresh, i));
        ck_assert_msg(top_by_id || f->node_on[to[i]] == iodfg_session_node_on(fresh)[i],
                      "%s shown differently", iodfg_session_activity_name(fresh, i));
    }
    const struct iodfg_session_counts *k = &f->counts, *l = iodfg_session_counts(fresh);
    ck_assert_uint_eq(k->activities, l->activities);
    ck_assert(top_by_id || k->activities_shown == l->activities_shown);
    ck_assert(top_by_id || k->events_shown == l->events_shown);
    ck_assert_uint_eq(k->events_selected, l->events_selected);
    ck_assert_uint_eq(k->unmapped, l->unmapped);
    ck_assert_uint_eq(k->cases_selected, l->cases_selected);
    ck_assert_int_eq(f->dfg != NULL, total(fresh));
    if (f->dfg) {
        const struct iodfg_dfg *g = f->dfg, *h = iodfg_session_dfg(fresh);
        ck_assert_uint_eq(iodfg_dfg_traces(g), iodfg_dfg_traces(h));
        ck_assert_uint_eq(iodfg_dfg_edge_count(g), iodfg_dfg_edge_count(h));
        for (size_t i = 0; i < iodfg_dfg_slots(h); i++) {
            const struct iodfg_dfg_edge *y = iodfg_dfg_edge_at(h, i);
            const struct iodfg_dfg_edge *x =
                y->count ? iodfg_dfg_find(g, node(to, y->from), node(to, y->to)) : NULL;
            ck_assert_msg(y->count == 0 || (x && x->count == y->count), "edge %u->%u differs",
                          y->from, y->to);
        }
    }
    free(to);
}

/* The full results of s equal those of fresh, bit for bit, activities matched by name. */
static void assert_full(const struct iodfg_session *s, const struct iodfg_session *fresh)
{
    const struct iodfg_stats *a = iodfg_session_stats(s), *b = iodfg_session_stats(fresh);
    uint32_t *to = same_names(s, fresh);
    ck_assert_int_eq(a->total_dur_ns, b->total_dur_ns);
    for (uint32_t i = 0; i < b->nactivities; i++) {
        ck_assert_msg(to[i] != IODFG_NO_ACTIVITY || b->act[i].count == 0, "%u lost", i);
        ck_assert_msg(to[i] == IODFG_NO_ACTIVITY ||
                          !memcmp(&a->act[to[i]], &b->act[i], sizeof(b->act[i])),
                      "the statistics of %s differ", iodfg_session_activity_name(fresh, i));
    }
    const struct iodfg_dfg *g = iodfg_session_dfg(s), *h = iodfg_session_dfg(fresh);
    ck_assert_uint_eq(iodfg_dfg_traces(g), iodfg_dfg_traces(h));
    ck_assert_uint_eq(iodfg_dfg_edge_count(g), iodfg_dfg_edge_count(h));
    for (size_t i = 0; i < iodfg_dfg_slots(h); i++) {
        const struct iodfg_dfg_edge *y = iodfg_dfg_edge_at(h, i);
        if (!y->count) {
            continue;
        }
        const struct iodfg_dfg_edge *x = iodfg_dfg_find(g, node(to, y->from), node(to, y->to));
        ck_assert_msg(x && x->count == y->count && x->cases == y->cases && x->gap_n == y->gap_n &&
                          x->gap_sum_ns == y->gap_sum_ns &&
                          same_double(x->gap_mean_ns, y->gap_mean_ns) &&
                          x->gap_median_ns == y->gap_median_ns,
                      "edge %u->%u differs", y->from, y->to);
    }
    const struct iodfg_session_counts *k = iodfg_session_counts(s),
                                      *l = iodfg_session_counts(fresh);
    ck_assert_uint_eq(k->activities, l->activities);
    ck_assert_uint_eq(k->activities_shown, l->activities_shown);
    ck_assert_uint_eq(k->events_shown, l->events_shown);
    ck_assert_uint_eq(k->unmapped, l->unmapped);
    free(to);
}

/* What a first tier said, kept to compare with the second tier of the same session. */
struct snap {
    struct iodfg_stats st;
    uint8_t *node_on;
    struct iodfg_session_counts counts;
    struct iodfg_dfg_edge *edges; /* NULL: the edges were pending */
    size_t nedges;
    uint64_t traces;
};

static void snap_take(struct snap *sn, const struct iodfg_session_first *f)
{
    uint32_t n = f->stats->nactivities;
    sn->st = *f->stats;
    sn->st.act = malloc(((size_t)n + 1) * sizeof(*sn->st.act));
    memcpy(sn->st.act, f->stats->act, (size_t)n * sizeof(*sn->st.act));
    sn->node_on = malloc((size_t)n + 1);
    memcpy(sn->node_on, f->node_on, n);
    sn->counts = f->counts;
    sn->edges = NULL;
    sn->nedges = 0;
    if (f->dfg) {
        sn->edges = malloc((iodfg_dfg_slots(f->dfg) + 1) * sizeof(*sn->edges));
        for (size_t i = 0; i < iodfg_dfg_slots(f->dfg); i++) {
            if (iodfg_dfg_edge_at(f->dfg, i)->count) {
                sn->edges[sn->nedges++] = *iodfg_dfg_edge_at(f->dfg, i);
            }
        }
        sn->traces = iodfg_dfg_traces(f->dfg);
    }
}

/* The first tier sn equals the second's results of its session s, id for id. */
static void snap_check(struct snap *sn, const struct iodfg_session *s)
{
    const struct iodfg_stats *b = iodfg_session_stats(s);
    ck_assert_uint_eq(sn->st.nactivities, b->nactivities);
    ck_assert_int_eq(sn->st.total_dur_ns, b->total_dur_ns);
    for (uint32_t i = 0; i < b->nactivities; i++) {
        const struct iodfg_activity_stats *x = &sn->st.act[i], *y = &b->act[i];
        ck_assert_msg(x->count == y->count && x->dur_n == y->dur_n &&
                          x->dur_sum_ns == y->dur_sum_ns && x->bytes == y->bytes &&
                          x->dr_n == y->dr_n && x->dur_min_ns == y->dur_min_ns &&
                          x->dur_max_ns == y->dur_max_ns && same_double(x->rd, y->rd) &&
                          same_double(x->dr_sum, y->dr_sum) && same_double(x->dr_mean, y->dr_mean),
                      "activity %u differs from the second tier's", i);
        ck_assert_int_eq(sn->node_on[i], iodfg_session_node_on(s)[i]);
    }
    const struct iodfg_session_counts *k = &sn->counts, *l = iodfg_session_counts(s);
    ck_assert_uint_eq(k->activities, l->activities);
    ck_assert_uint_eq(k->activities_shown, l->activities_shown);
    ck_assert_uint_eq(k->events_shown, l->events_shown);
    ck_assert_uint_eq(k->unmapped, l->unmapped);
    if (sn->edges) {
        const struct iodfg_dfg *h = iodfg_session_dfg(s);
        ck_assert_uint_eq(sn->traces, iodfg_dfg_traces(h));
        ck_assert_uint_eq(sn->nedges, iodfg_dfg_edge_count(h));
        for (size_t i = 0; i < sn->nedges; i++) {
            const struct iodfg_dfg_edge *y = iodfg_dfg_find(h, sn->edges[i].from, sn->edges[i].to);
            ck_assert_msg(y && y->count == sn->edges[i].count, "edge %u->%u differs",
                          sn->edges[i].from, sn->edges[i].to);
        }
    }
    free(sn->st.act);
    free(sn->node_on);
    free(sn->edges);
}

static void *compute_main(void *p)
{
    struct iodfg_error err;
    iodfg_error_clear(&err);
    ck_assert_msg(iodfg_session_second_compute(p, &err) == 0, "second tier: %s", err.msg);
    return NULL;
}

/* The pending second tier of s computed on a thread (started; *th joins it). */
static struct iodfg_session_second *second_start(struct iodfg_session *s, pthread_t *th)
{
    struct iodfg_error err;
    iodfg_error_clear(&err);
    struct iodfg_session_second *t = iodfg_session_second_new(s, &err);
    ck_assert_msg(t != NULL, "second tier: %s", err.msg);
    ck_assert_int_eq(pthread_create(th, NULL, compute_main, t), 0);
    return t;
}

/* A copy of the published statistics, to compare bit for bit after a dropped second tier. */
static struct iodfg_stats stats_copy(const struct iodfg_session *s)
{
    struct iodfg_stats st = *iodfg_session_stats(s);
    st.act = malloc(((size_t)st.nactivities + 1) * sizeof(*st.act));
    memcpy(st.act, iodfg_session_stats(s)->act, (size_t)st.nactivities * sizeof(*st.act));
    return st;
}

/* The second tier as the TUI runs it: on a thread, while a further edit (edit2, NULL: none)
 * comes; the stale one must leave the published results as they were. */
static void second_threaded(struct iodfg_session *s, const char *edit2, int *rc)
{
    struct iodfg_error err;
    iodfg_error_clear(&err);
    pthread_t th;
    struct iodfg_session_second *t = second_start(s, &th);
    struct iodfg_stats before = stats_copy(s);
    uint64_t gen = iodfg_session_counts(s)->generation;
    if (edit2) { // meanwhile: the session edited again (a new first tier, or a full rebuild)
        set_rules(s, edit2);
        *rc = iodfg_session_rebuild_first(s, &err);
        ck_assert_msg(*rc >= 0, "first tier: %s", err.msg);
    }
    pthread_join(th, NULL);
    int taken = iodfg_session_second_take(s, t, &err);
    iodfg_session_second_free(t);
    ck_assert_int_eq(taken, edit2 ? 0 : 1);
    if (edit2 && *rc == 1) { // still the results published before either edit
        const struct iodfg_stats *now = iodfg_session_stats(s);
        ck_assert_uint_eq(iodfg_session_counts(s)->generation, gen);
        ck_assert_uint_eq(now->nactivities, before.nactivities);
        ck_assert(!memcmp(now->act, before.act, (size_t)before.nactivities * sizeof(*now->act)));
        t = second_start(s, &th); // restarted for the last edit
        pthread_join(th, NULL);
        ck_assert_int_eq(iodfg_session_second_take(s, t, &err), 1);
        iodfg_session_second_free(t);
    }
    free(before.act);
}

/* rounds random rule edits on LOG under variant v: each first tier, then each second (rebuilt
 * in place, or with threaded on a thread, superseded by a second edit half of the time). */
static void random_edits_how(int v, unsigned seed, int rounds, int threaded)
{
    srand(seed);
    struct iodfg_session *s = new_session("", v);
    int firsts = 0;
    for (int r = 0; r < rounds; r++) {
        struct iodfg_error err;
        iodfg_error_clear(&err);
        char *rules = NULL;
        struct iodfg_session *fresh = NULL;
        int rc = 0;
        int edits = 1 + rand() % 2; // maybe two edits
        for (int edit = 0; edit < edits && !(threaded && edit == 1 && rc == 1); edit++) {
            free(rules);
            iodfg_session_free(fresh);
            rules = random_rules();
            fresh = new_session(rules, v);
            set_rules(s, rules);
            rc = iodfg_session_rebuild_first(s, &err);
            ck_assert_msg(rc >= 0, "first tier: %s", err.msg);
            ck_assert_int_eq(iodfg_session_first(s) != NULL, rc == 1);
            if (rc == 1) {
                assert_first(s, iodfg_session_first(s), fresh, v == 4);
                const struct iodfg_session_focus_counts *x = iodfg_session_focus_counts(s),
                                                        *y = iodfg_session_focus_counts(fresh);
                ck_assert_msg(x->events_folded == y->events_folded &&
                                  x->keys_folded == y->keys_folded &&
                                  x->activities_folded == y->activities_folded,
                              "the focus counts differ");
            } else { // nothing moved, or the pruning needs edges a partial mapping does not give
                ck_assert(!iodfg_session_counts(s)->change.mapping || (v == 4 && !total(fresh)));
            }
        }
        if (threaded && rc == 1) {
            char *edit2 = NULL;
            if (edits == 2) {
                free(rules);
                iodfg_session_free(fresh);
                edit2 = rules = random_rules();
                fresh = new_session(rules, v);
            }
            second_threaded(s, edit2, &rc);
        }
        struct snap sn = {0};
        if (rc == 1 && !threaded) {
            firsts++;
            snap_take(&sn, iodfg_session_first(s));
        }
        firsts += threaded && rc == 1;
        rebuild(s);
        ck_assert_ptr_null(iodfg_session_first(s));
        if (rc == 1 && !threaded) {
            snap_check(&sn, s);
        }
        assert_full(s, fresh);
        iodfg_session_free(fresh);
        free(rules);
    }
    ck_assert_int_gt(firsts, 0);
    iodfg_session_free(s);
}

static void random_edits(int v, unsigned seed, int rounds)
{
    random_edits_how(v, seed, rounds, 0);
}

START_TEST(random_log_first_tier_exact)
{
    random_log(7, 24);
    random_edits(_i, 100 + (unsigned)_i, 40);
}
END_TEST

START_TEST(ior_first_tier_exact)
{
    ior_log();
    random_edits(_i, 200 + (unsigned)_i, 20);
}
END_TEST

START_TEST(paper_log_first_tier_exact)
{
    tlog_paper_log(LOG);
    random_edits(_i, 300 + (unsigned)_i, 30);
}
END_TEST

START_TEST(random_log_second_tier_on_a_thread)
{
    random_log(7, 24);
    random_edits_how(_i, 400 + (unsigned)_i, 30, 1);
}
END_TEST

START_TEST(ior_second_tier_on_a_thread)
{
    ior_log();
    random_edits_how(_i, 500 + (unsigned)_i, 12, 1);
}
END_TEST

START_TEST(paper_log_second_tier_on_a_thread)
{
    tlog_paper_log(LOG);
    random_edits_how(_i, 600 + (unsigned)_i, 20, 1);
}
END_TEST

START_TEST(window_selects_part_of_the_ior_log)
{
    ior_log();
    struct iodfg_session *s = new_session("", 3);
    const struct iodfg_session_counts *k = iodfg_session_counts(s);
    ck_assert_uint_gt(k->events_selected, 0);
    ck_assert_uint_lt(k->events_selected, k->events);
    iodfg_session_free(s);
}
END_TEST

/* A selection change, a groups change or a first build is no first tier: a full rebuild. */
START_TEST(only_mapping_changes_take_the_first_tier)
{
    random_log(3, 8);
    struct iodfg_error err;
    iodfg_error_clear(&err);
    struct iodfg_session *s = iodfg_session_new(LOG, &err);
    ck_assert_int_eq(iodfg_session_rebuild_first(s, &err), 0); // the first build
    ck_assert_ptr_null(iodfg_session_first(s));
    set_rules(s, "map => {call}\n");
    ck_assert_int_eq(iodfg_session_rebuild_first(s, &err), 1);
    ck_assert_ptr_nonnull(iodfg_session_first(s));
    ck_assert_ptr_nonnull(iodfg_session_first(s)->dfg);
    ck_assert_int_eq(iodfg_filter_stack_push_text(iodfg_session_filters(s), "name~1", NULL), 0);
    ck_assert_int_eq(iodfg_session_rebuild_first(s, &err), 0); // the selection changed too
    ck_assert_ptr_null(iodfg_session_first(s));
    ck_assert_int_eq(iodfg_session_counts(s)->change.selection, 1);
    set_rules(s, "drop call = read\nmap => {call}\n");
    ck_assert_int_eq(iodfg_session_rebuild_first(s, &err), 1);
    ck_assert_ptr_null(iodfg_session_first(s)->dfg); // reads vanish: the edges are pending
    iodfg_session_free(s);
}
END_TEST

static Suite *suite(void)
{
    Suite *s = suite_create("keypairs");
    TCase *tc = tcase_create("first tier");
    tcase_add_checked_fixture(tc, setup, teardown);
    tcase_set_timeout(tc, 60);
    tcase_add_loop_test(tc, random_log_first_tier_exact, 0, 6);
    tcase_add_loop_test(tc, ior_first_tier_exact, 0, 6);
    tcase_add_loop_test(tc, paper_log_first_tier_exact, 0, 6);
    tcase_add_loop_test(tc, random_log_second_tier_on_a_thread, 0, 6);
    tcase_add_loop_test(tc, ior_second_tier_on_a_thread, 0, 6);
    tcase_add_loop_test(tc, paper_log_second_tier_on_a_thread, 0, 6);
    tcase_add_test(tc, window_selects_part_of_the_ior_log);
    tcase_add_test(tc, only_mapping_changes_take_the_first_tier);
    suite_add_tcase(s, tc);
    return s;
}

int main(void)
{
    return testutil_run(suite());
}
