/* SPDX-License-Identifier: MIT */
/* Unit tests: listing the inputs (each file and directory once, unique case names), the case
 * name patterns (fields, paths below the argument, errors), and OTF2 archives among strace files
 * (guarded before the workers start; a refused archive stops the ingest in list order). */
#include "config.h"

#include <dirent.h>
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "iodfg/casename.h"
#include "iodfg/error.h"
#include "iodfg/eventlog.h"
#include "iodfg/ingest.h"
#include "iodfg/strpool.h"

#include "testutil.h"

static char *DIR_;

static void setup(void)
{
    DIR_ = testutil_tmpdir();
}

static void teardown(void)
{
    testutil_rmtree(DIR_);
    free(DIR_);
}

static void touch(const char *rel)
{
    char path[4200];
    snprintf(path, sizeof(path), "%s/%s", DIR_, rel);
    for (char *p = path + strlen(DIR_) + 1; *p; p++) { // make the directories on the way
        if (*p == '/') {
            *p = '\0';
            mkdir(path, 0777);
            *p = '/';
        }
    }
    testutil_write_file(path, "1 read(3</a>, \"\", 1) = 1\n", 25);
}

static void list(const char *pattern, struct iodfg_input_list *l, const char *sub)
{
    struct iodfg_error err;
    iodfg_error_clear(&err);
    struct iodfg_casename *cn = iodfg_casename_new(pattern, &err);
    ck_assert_msg(cn != NULL, "%s", err.msg);
    char in[4200];
    snprintf(in, sizeof(in), "%s%s%s", DIR_, sub ? "/" : "", sub ? sub : "");
    const char *inputs[] = {in};
    ck_assert_msg(iodfg_ingest_list(inputs, 1, cn, l, &err) == 0, "%s", err.msg);
    iodfg_casename_free(cn);
}

START_TEST(same_names_in_different_directories_stay_apart)
{
    touch("ssf/stio.0.node1.juwels.st");
    touch("ssf/stio.1.node1.juwels.st");
    touch("fpp/stio.0.node1.juwels.st");
    touch("fpp/stio.1.node1.juwels.st");
    touch("single_node2_7.st");
    struct iodfg_input_list l;
    list("{cid}/stio.{rid}.{host}.juwels.st", &l, NULL);
    ck_assert_uint_eq(l.n, 5);
    ck_assert_uint_eq(l.renamed, 4);
    ck_assert_uint_eq(l.same_name, 0);
    // sorted by path: fpp/... then single..., then ssf/...
    ck_assert_str_eq(l.files[0].rel, "fpp/stio.0.node1.juwels.st");
    ck_assert_str_eq(l.files[0].name, "fpp/stio.0.node1.juwels");
    ck_assert_str_eq(l.files[2].name, "single_node2_7");
    ck_assert_str_eq(l.files[4].name, "ssf/stio.1.node1.juwels");
    char cid[64], host[64], rid[64];
    struct iodfg_casename *cn = iodfg_casename_new("{cid}/stio.{rid}.{host}.juwels.st", NULL);
    ck_assert_int_eq(iodfg_casename_apply(cn, l.files[4].rel, cid, host, rid, 64), 1);
    ck_assert_str_eq(cid, "ssf");
    ck_assert_str_eq(host, "node1");
    ck_assert_str_eq(rid, "1");
    // a file directly in the directory has no directory to match
    ck_assert_int_eq(iodfg_casename_apply(cn, l.files[2].rel, cid, host, rid, 64), 0);
    ck_assert_str_eq(cid, "");
    iodfg_casename_free(cn);
    iodfg_ingest_list_fini(&l);
}
END_TEST

START_TEST(links_reach_each_file_once)
{
    touch("run/a_n1_1.st");
    touch("run/a_n1_2.st");
    char lnk[4200], target[4200];
    snprintf(lnk, sizeof(lnk), "%s/run/again", DIR_); // a symlink to "."
    ck_assert_int_eq(symlink(".", lnk), 0);
    snprintf(lnk, sizeof(lnk), "%s/run/loop", DIR_); // and to its parent
    ck_assert_int_eq(symlink("..", lnk), 0);
    snprintf(lnk, sizeof(lnk), "%s/run/b_n1_3.st", DIR_); // a file linked twice
    snprintf(target, sizeof(target), "%s/run/a_n1_1.st", DIR_);
    ck_assert_int_eq(link(target, lnk), 0);
    struct iodfg_input_list l;
    list(NULL, &l, "run");
    ck_assert_uint_eq(l.n, 2);
    ck_assert_uint_eq(l.files_again, 1);
    ck_assert_uint_ge(l.dirs_again, 2);
    ck_assert_str_eq(l.files[0].name, "a_n1_1");
    ck_assert_str_eq(l.files[1].name, "a_n1_2");
    iodfg_ingest_list_fini(&l);
}
END_TEST

/* Entries named like traces that are no regular files (a FIFO, a device, a link that leads
 * nowhere) are skipped, not opened (a FIFO would block), and counted with the first one's path;
 * a directory with only such entries is refused saying so. Other names are not counted. */
START_TEST(special_files_are_counted_not_read)
{
    touch("run/a_n1_1.st");
    char p[4200];
    snprintf(p, sizeof(p), "%s/run/fifo_n1_2.st", DIR_);
    ck_assert_int_eq(mkfifo(p, 0600), 0);
    snprintf(p, sizeof(p), "%s/run/gone_n1_3.st", DIR_);
    ck_assert_int_eq(symlink("/nonexistent/trace", p), 0);
    snprintf(p, sizeof(p), "%s/run/null_n1_4.st", DIR_);
    ck_assert_int_eq(symlink("/dev/null", p), 0);
    snprintf(p, sizeof(p), "%s/run/notes.txt", DIR_);
    ck_assert_int_eq(symlink("/nonexistent/notes", p), 0);
    struct iodfg_input_list l;
    list(NULL, &l, "run");
    ck_assert_uint_eq(l.n, 1);
    ck_assert_str_eq(l.files[0].name, "a_n1_1");
    ck_assert_uint_eq(l.not_regular, 3);
    ck_assert_ptr_nonnull(strstr(l.not_regular_path, "_n1_"));
    iodfg_ingest_list_fini(&l);

    snprintf(p, sizeof(p), "%s/odd", DIR_);
    ck_assert_int_eq(mkdir(p, 0777), 0);
    snprintf(p, sizeof(p), "%s/odd/fifo_n1_5.st", DIR_);
    ck_assert_int_eq(mkfifo(p, 0600), 0);
    snprintf(p, sizeof(p), "%s/odd", DIR_);
    const char *inputs[] = {p};
    struct iodfg_error err;
    iodfg_error_clear(&err);
    ck_assert_int_eq(iodfg_ingest_list(inputs, 1, NULL, &l, &err), -1);
    ck_assert_int_eq(err.code, IODFG_E_EMPTY);
    ck_assert_str_eq(err.msg, "no trace files here: 1 entry named like one is not a regular file "
                              "(a FIFO, a device or a link that leads nowhere)");
}
END_TEST

START_TEST(patterns_need_cid_and_each_field_once)
{
    struct iodfg_error err;
    iodfg_error_clear(&err);
    ck_assert_ptr_null(iodfg_casename_new("stio.{rid}.{host}.st", &err));
    ck_assert_ptr_nonnull(strstr(err.msg, "no cid"));
    iodfg_error_clear(&err);
    ck_assert_ptr_null(iodfg_casename_new("{cid}.{rid}.{rid}.st", &err));
    ck_assert_ptr_nonnull(strstr(err.msg, "'rid' appears twice"));
    iodfg_error_clear(&err);
    ck_assert_ptr_null(iodfg_casename_new("{cid}_{hots}.st", &err));
    ck_assert_ptr_nonnull(strstr(err.msg, "unknown field 'hots'"));
    ck_assert_uint_eq(err.col, 8);
    iodfg_error_clear(&err);
    ck_assert_ptr_null(iodfg_casename_new("^(?<cid>.+)_(?<cid>.+)$", &err));
    ck_assert_ptr_nonnull(strstr(err.msg, "twice"));
    iodfg_error_clear(&err);
    ck_assert_ptr_null(iodfg_casename_new("^(?<cid>.+", &err));
    ck_assert_int_eq(err.code, IODFG_E_REGEX);
    struct iodfg_casename *cn = iodfg_casename_new(NULL, NULL);
    ck_assert_ptr_nonnull(cn);
    char cid[64], host[64], rid[64];
    ck_assert_int_eq(iodfg_casename_apply(cn, "dir/a_host1_9042.st", cid, host, rid, 64), 1);
    ck_assert_str_eq(cid, "a");
    ck_assert_str_eq(rid, "9042");
    iodfg_casename_free(cn);
}
END_TEST

/* What a file gives its case: cid, host and rid from the name (the name itself as cid when
 * the pattern does not match), and the clock its stamps say. */
START_TEST(case_ids_and_clocks_from_files)
{
    static const struct {
        const char *file, *text;
        const char *name, *cid, *host, *rid;
        enum iodfg_naming naming;
        enum iodfg_clock clock;
    } f[] = {
        {"run/a_host1_9042.st", "1 08:00:00.000001 read(3</a>, \"\", 1) = 1 <0.1>\n",
         "a_host1_9042", "a", "host1", "9042", IODFG_NAMING_PATTERN, IODFG_CLOCK_TIME_OF_DAY},
        {"run/b_host2_7.st", "1 1700000000.000001 read(3</a>, \"\", 1) = 1 <0.1>\n", "b_host2_7",
         "b", "host2", "7", IODFG_NAMING_PATTERN, IODFG_CLOCK_EPOCH},
        {"run/odd.st", "read(3</a>, \"\", 1) = 1 <0.1>\n", "odd", "odd", "", "",
         IODFG_NAMING_FILENAME, IODFG_CLOCK_NONE},
        {"run/rel_h_1.st",
         "     0.000000 read(3</a>, \"\", 1) = 1 <0.1>\n     0.000100 close(3</a>) = 0\n",
         "rel_h_1", "rel", "h", "1", IODFG_NAMING_PATTERN, IODFG_CLOCK_RELATIVE},
    };
    for (size_t i = 0; i < sizeof(f) / sizeof(f[0]); i++) {
        char path[4200];
        snprintf(path, sizeof(path), "%s/run", DIR_);
        mkdir(path, 0777);
        snprintf(path, sizeof(path), "%s/%s", DIR_, f[i].file);
        testutil_write_file(path, f[i].text, strlen(f[i].text));
    }
    struct iodfg_input_list l;
    list(NULL, &l, "run");
    ck_assert_uint_eq(l.n, 4);
    struct iodfg_error err;
    iodfg_error_clear(&err);
    struct iodfg_casename *cn = iodfg_casename_new(NULL, &err);
    for (size_t i = 0; i < l.n; i++) {
        size_t k = 0;
        while (k < 4 && strcmp(l.files[i].name, f[k].name) != 0) {
            k++;
        }
        ck_assert_msg(k < 4, "unexpected case %s", l.files[i].name);
        struct iodfg_ingest_file info;
        struct iodfg_eventlog *log = iodfg_ingest_file(&l.files[i], cn, IODFG_COL_ALL, &info, &err);
        ck_assert_msg(log != NULL, "%s", err.msg);
        const struct iodfg_case_info *ci = iodfg_eventlog_case(log, 0);
        const struct iodfg_strpool *pool = iodfg_eventlog_pool(log);
        ck_assert_str_eq(iodfg_strpool_get(pool, ci->name), f[k].name);
        ck_assert_str_eq(iodfg_strpool_get(pool, ci->cid), f[k].cid);
        ck_assert_str_eq(iodfg_strpool_get(pool, ci->host), f[k].host);
        ck_assert_str_eq(iodfg_strpool_get(pool, ci->rid), f[k].rid);
        ck_assert_msg(ci->naming == f[k].naming, "%s: naming %d", f[k].name, ci->naming);
        ck_assert_msg(ci->clock == f[k].clock, "%s: clock %d", f[k].name, ci->clock);
        ck_assert_int_eq(info.named_by_pattern, f[k].naming == IODFG_NAMING_PATTERN);
        iodfg_eventlog_free(log);
    }
    iodfg_casename_free(cn);
    iodfg_ingest_list_fini(&l);
}
END_TEST

/* ---- OTF2 archives among the inputs: the guard's fork ------------------------------------- */

#ifdef HAVE_OTF2
/* Threads of this process (/proc/self/task), 0 when unknown. */
static int thread_count(void)
{
    DIR *d = opendir("/proc/self/task");
    int n = 0;
    for (struct dirent *e; d && (e = readdir(d)) != NULL;) {
        n += e->d_name[0] != '.';
    }
    if (d) {
        closedir(d);
    }
    return n;
}

/* The threads once those still exiting are gone (a joined thread can stay listed for a moment
 * after pthread_join returns), waiting at most 5 s for the count to come down to want. */
static int settled_thread_count(int want)
{
    int n = thread_count();
    for (int i = 0; i < 5000 && n > want; i++) {
        nanosleep(&(struct timespec){0, 1000000}, NULL);
        n = thread_count();
    }
    return n;
}

// While watching: forks seen, forks from another thread than the watcher, and the most
// threads the process had at one of them.
static volatile int watching, forks, forks_elsewhere, threads_at_fork, threads_before;
static pthread_t watcher;

static void before_fork(void)
{
    if (watching) {
        int elsewhere = !pthread_equal(pthread_self(), watcher);
        int n = elsewhere ? thread_count() : settled_thread_count(threads_before);
        forks++;
        forks_elsewhere += elsewhere;
        threads_at_fork = n > threads_at_fork ? n : threads_at_fork;
    }
}

struct tally {
    uint64_t files, cases, events, archives;
    uint64_t *events_of; // by file index
};

static int count_case(void *ctx, const struct iodfg_eventlog *log,
                      const struct iodfg_ingest_file *file, struct iodfg_error *err)
{
    (void)err;
    struct tally *t = ctx;
    t->files++;
    t->cases += iodfg_eventlog_case_count(log);
    t->events += iodfg_eventlog_event_count(log);
    t->archives += strstr(file->path, ".otf2") != NULL;
    t->events_of[file->index] = iodfg_eventlog_event_count(log);
    return 0;
}

/* The guard forks a child that loads each anchor with libotf2, which allocates. Forked while
 * another thread held an allocator lock (the sanitizers' allocator has no fork handler), the
 * child waited for that lock until the guard's 20 s limit: "libotf2 did not finish loading
 * the anchor file". So the ingest guards every archive before its workers start: at each fork
 * the process has no more threads than before the ingest, in every round. */
START_TEST(archives_are_guarded_before_the_workers_start)
{
    static const char *in_rel[] = {"otf2/ior_posix/traces.otf2", "otf2/ior_mpiio/traces.otf2",
                                   "otf2/iomix/traces.otf2", "traces/ior", "otf2/strace/ior_posix"};
    enum { NIN = sizeof(in_rel) / sizeof(in_rel[0]) };
    char *in[NIN];
    for (size_t i = 0; i < NIN; i++) {
        in[i] = strdup(testutil_data(in_rel[i]));
    }
    struct iodfg_error err;
    iodfg_error_clear(&err);
    struct iodfg_casename *cn = iodfg_casename_new(NULL, &err);
    struct iodfg_input_list l;
    ck_assert_msg(iodfg_ingest_list((const char *const *)in, NIN, cn, &l, &err) == 0, "%s",
                  err.msg);
    // each file alone, on this thread: what every round must deliver
    uint64_t *want = calloc(l.n, sizeof(*want)), total = 0;
    struct tally t = {.events_of = calloc(l.n, sizeof(uint64_t))};
    for (size_t i = 0; i < l.n; i++) {
        struct iodfg_ingest_file info;
        struct iodfg_eventlog *log = iodfg_ingest_file(&l.files[i], cn, IODFG_COL_ALL, &info, &err);
        ck_assert_msg(log != NULL, "%s", err.msg);
        want[i] = iodfg_eventlog_event_count(log);
        total += want[i];
        iodfg_eventlog_free(log);
    }
    threads_before = thread_count();
    ck_assert_int_ge(threads_before, 1);
    watcher = pthread_self();
    pthread_atfork(before_fork, NULL, NULL);
    watching = 1;
    for (unsigned round = 0; round < 4; round++) {
        struct iodfg_ingest_opts o = {.names = cn, .jobs = 2 + round % 2, .columns = IODFG_COL_ALL};
        memset(t.events_of, 0, l.n * sizeof(uint64_t));
        t.files = t.cases = t.events = t.archives = 0;
        ck_assert_msg(iodfg_ingest_run(&l, &o, count_case, &t, &err) == 0, "round %u: %s: %s",
                      round, err.where, err.msg);
        ck_assert_uint_eq(t.files, l.n);
        ck_assert_uint_eq(t.archives, 3);
        ck_assert_uint_eq(t.events, total);
        for (size_t i = 0; i < l.n; i++) {
            ck_assert_msg(t.events_of[i] == want[i], "round %u, %s: %llu events, not %llu", round,
                          l.files[i].path, (unsigned long long)t.events_of[i],
                          (unsigned long long)want[i]);
        }
    }
    watching = 0;
    ck_assert_int_eq(forks, 4 * 3); // one guard per archive and round
    ck_assert_msg(forks_elsewhere == 0, "%d of %d forks from another thread", forks_elsewhere,
                  forks);
    ck_assert_msg(threads_at_fork == threads_before, "forked with %d threads running (%d before)",
                  threads_at_fork, threads_before);
    free(want);
    free(t.events_of);
    iodfg_ingest_list_fini(&l);
    iodfg_casename_free(cn);
    for (size_t i = 0; i < NIN; i++) {
        free(in[i]);
    }
}
END_TEST

/* An archive the guard refuses (its child could not open the anchor) stops the ingest where it
 * is in the list, with the guard's message, after the files before it were delivered; a file
 * before it that fails first is the one named. */
START_TEST(a_refused_archive_stops_the_ingest_in_list_order)
{
    char bad[4200], a[4200];
    snprintf(bad, sizeof(bad), "%s/run/bad.otf2", DIR_);
    snprintf(a, sizeof(a), "%s/run/a.st", DIR_);
    touch("run/a.st");
    touch("run/z.st");
    testutil_write_file(bad, "no anchor\n", 10);
    struct iodfg_input_list l;
    list(NULL, &l, "run");
    ck_assert_uint_eq(l.n, 3);
    struct iodfg_casename *cn = iodfg_casename_new(NULL, NULL);
    uint64_t events_of[3];
    struct tally t = {.events_of = events_of};
    struct iodfg_error err;
    for (unsigned jobs = 1; jobs <= 3; jobs += 2) {
        struct iodfg_ingest_opts o = {.names = cn, .jobs = jobs, .columns = IODFG_COL_ALL};
        t.files = 0;
        iodfg_error_clear(&err);
        ck_assert_int_eq(iodfg_ingest_run(&l, &o, count_case, &t, &err), -1);
        ck_assert_uint_eq(t.files, 1); // a.st, not z.st
        ck_assert_int_eq(err.code, IODFG_E_IO);
        ck_assert_str_eq(err.where, bad);
        ck_assert_str_eq(err.msg, "not an OTF2 archive, or libotf2 cannot open it");
    }
    ck_assert_int_eq(unlink(a), 0); // listed, gone before it is read: its error comes first
    t.files = 0;
    iodfg_error_clear(&err);
    struct iodfg_ingest_opts o = {.names = cn, .jobs = 2, .columns = IODFG_COL_ALL};
    ck_assert_int_eq(iodfg_ingest_run(&l, &o, count_case, &t, &err), -1);
    ck_assert_uint_eq(t.files, 0);
    ck_assert_int_eq(err.code, IODFG_E_IO);
    ck_assert_str_eq(err.where, a);
    iodfg_casename_free(cn);
    iodfg_ingest_list_fini(&l);
}
END_TEST
#endif

static Suite *suite(void)
{
    Suite *s = suite_create("ingest");
    TCase *tc = tcase_create("core");
    tcase_add_checked_fixture(tc, setup, teardown);
    tcase_add_test(tc, same_names_in_different_directories_stay_apart);
    tcase_add_test(tc, links_reach_each_file_once);
    tcase_add_test(tc, special_files_are_counted_not_read);
    tcase_add_test(tc, patterns_need_cid_and_each_field_once);
    tcase_add_test(tc, case_ids_and_clocks_from_files);
#ifdef HAVE_OTF2
    tcase_add_test(tc, archives_are_guarded_before_the_workers_start);
    tcase_add_test(tc, a_refused_archive_stops_the_ingest_in_list_order);
#endif
    suite_add_tcase(s, tc);
    return s;
}

int main(void)
{
    return testutil_run(suite());
}
