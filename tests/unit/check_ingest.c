/* SPDX-License-Identifier: MIT */
/* Unit tests: listing the inputs (each file and directory once, unique case names) and the case
 * name patterns (fields, paths below the argument, errors). */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
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
    suite_add_tcase(s, tc);
    return s;
}

int main(void)
{
    return testutil_run(suite());
}
