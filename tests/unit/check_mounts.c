/* SPDX-License-Identifier: MIT */
/* Tests of the mount-table classifier: parsing, escapes, longest component prefix, bind
 * mounts, shadowed mount points, the built-in list, type scopes and classifying a log. */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <check.h>

#include "iodfg/error.h"
#include "iodfg/eventlog.h"
#include "iodfg/mounts.h"
#include "iodfg/strace.h"
#include "iodfg/strpool.h"

#include "testutil.h"

static const char TABLE[] = "rootfs / rootfs rw 0 0\n"
                            "/dev/sda1 / ext4 rw,relatime 0 0\n"
                            "proc /proc proc rw,nosuid 0 0\n"
                            "sysfs /sys sysfs rw 0 0\n"
                            "\n"
                            "# a comment\n"
                            "scratchfs /p/scratch lustre rw,flock 0 0\n"
                            "/dev/sdb1 /p/scratchy xfs rw 0 0\n"
                            "home:/export /home nfs4 rw,vers=4.2 0 0\n"
                            "/dev/sda1 /home/user/bound ext4 rw,bind 0 0\n"
                            "/dev/nvme0n1 /local\\040disk/ xfs rw 0 0\n"
                            "tmpfs /dev/shm tmpfs rw 0 0\n"
                            "gpfs0 /gpfs gpfs rw 0 0";

static struct iodfg_mounts *M;

static void setup(void)
{
    struct iodfg_error err;
    iodfg_error_clear(&err);
    M = iodfg_mounts_parse(TABLE, strlen(TABLE), &err);
    ck_assert_msg(M != NULL, "%s", err.msg);
}

static void teardown(void)
{
    iodfg_mounts_free(M);
    M = NULL;
}

static const char *dir_of(const char *path)
{
    const struct iodfg_mount *e = iodfg_mounts_find(M, path, strlen(path));
    return e ? e->dir : NULL;
}

START_TEST(test_parse_sorted_and_shadowed)
{
    // 11 entries, two for "/": the later (ext4) hides rootfs
    ck_assert_uint_eq(iodfg_mounts_count(M), 10);
    const struct iodfg_mount *root = iodfg_mounts_get(M, 0);
    ck_assert_str_eq(root->dir, "/");
    ck_assert_str_eq(root->type, "ext4");
    ck_assert_str_eq(root->device, "/dev/sda1");
    ck_assert_int_eq(root->scope, IODFG_SCOPE_LOCAL);
    for (size_t i = 1; i < iodfg_mounts_count(M); i++) {
        ck_assert_int_lt(strcmp(iodfg_mounts_get(M, i - 1)->dir, iodfg_mounts_get(M, i)->dir), 0);
    }
    ck_assert_ptr_null(iodfg_mounts_get(M, 10));
    ck_assert_int_eq(iodfg_mounts_is_builtin(M), 0);
}
END_TEST

START_TEST(test_escapes_and_trailing_slash)
{
    ck_assert_str_eq(dir_of("/local disk/a.dat"), "/local disk");
    const struct iodfg_mount *e = iodfg_mounts_find(M, "/local disk", 11);
    ck_assert_ptr_nonnull(e);
    ck_assert_str_eq(e->type, "xfs");
    // "/local" alone is on the root file system
    ck_assert_str_eq(dir_of("/local/x"), "/");
}
END_TEST

START_TEST(test_longest_component_prefix)
{
    ck_assert_str_eq(dir_of("/p/scratch/run1/out.h5"), "/p/scratch");
    ck_assert_str_eq(dir_of("/p/scratch"), "/p/scratch");
    ck_assert_str_eq(dir_of("/p/scratchy/a"), "/p/scratchy");
    ck_assert_str_eq(dir_of("/p/scratch2/a"), "/");
    ck_assert_str_eq(dir_of("/p"), "/");
    ck_assert_str_eq(dir_of("/dev/shm/sem.x"), "/dev/shm");
    ck_assert_str_eq(dir_of("/proc/self/maps"), "/proc");
    ck_assert_str_eq(dir_of("/procx"), "/");
    ck_assert_str_eq(dir_of("/"), "/");
}
END_TEST

START_TEST(test_normalised_paths)
{
    ck_assert_str_eq(dir_of("//p//scratch/./a"), "/p/scratch");
    ck_assert_str_eq(dir_of("/p/scratchy/../scratch/a"), "/p/scratch");
    ck_assert_str_eq(dir_of("/p/scratch/../x"), "/");
    ck_assert_str_eq(dir_of("/../../gpfs/f"), "/gpfs");
    ck_assert_ptr_null(dir_of("relative/file"));
    ck_assert_ptr_null(iodfg_mounts_find(M, "", 0));
}
END_TEST

START_TEST(test_bind_mount)
{
    // /dev/sda1 is mounted at / and bound at /home/user/bound inside the nfs4 /home
    const struct iodfg_mount *e = iodfg_mounts_find(M, "/home/user/bound/f", 18);
    ck_assert_ptr_nonnull(e);
    ck_assert_str_eq(e->dir, "/home/user/bound");
    ck_assert_str_eq(e->type, "ext4");
    ck_assert_int_eq(e->scope, IODFG_SCOPE_LOCAL);
    e = iodfg_mounts_find(M, "/home/user/other", 16);
    ck_assert_str_eq(e->dir, "/home");
    ck_assert_str_eq(e->type, "nfs4");
    ck_assert_int_eq(e->scope, IODFG_SCOPE_GLOBAL);
}
END_TEST

START_TEST(test_type_scope)
{
    static const char *const global[] = {"gpfs",   "lustre", "nfs", "nfs4",
                                         "beegfs", "cephfs", "cifs"};
    for (size_t i = 0; i < sizeof(global) / sizeof(global[0]); i++) {
        ck_assert_int_eq(iodfg_mounts_type_scope(global[i]), IODFG_SCOPE_GLOBAL);
    }
    ck_assert_int_eq(iodfg_mounts_type_scope("ext4"), IODFG_SCOPE_LOCAL);
    ck_assert_int_eq(iodfg_mounts_type_scope("xfs"), IODFG_SCOPE_LOCAL);
    ck_assert_int_eq(iodfg_mounts_type_scope("tmpfs"), IODFG_SCOPE_LOCAL);
    ck_assert_int_eq(iodfg_mounts_type_scope("proc"), IODFG_SCOPE_VIRTUAL);
    ck_assert_int_eq(iodfg_mounts_type_scope("sysfs"), IODFG_SCOPE_VIRTUAL);
    ck_assert_int_eq(iodfg_mounts_type_scope(""), IODFG_SCOPE_UNKNOWN);
    ck_assert_str_eq(iodfg_scope_name(IODFG_SCOPE_GLOBAL), "global");
    ck_assert_str_eq(iodfg_scope_name(IODFG_SCOPE_LOCAL), "local");
}
END_TEST

START_TEST(test_parse_errors)
{
    struct iodfg_error err;
    iodfg_error_clear(&err);
    const char *bad = "proc /proc proc rw 0 0\nonly-two /fields\n";
    ck_assert_ptr_null(iodfg_mounts_parse(bad, strlen(bad), &err));
    ck_assert_int_eq(err.code, IODFG_E_PARSE);
    ck_assert_uint_eq(err.line, 2);
    iodfg_error_clear(&err);
    const char *rel = "dev relative/dir ext4 rw 0 0\n";
    ck_assert_ptr_null(iodfg_mounts_parse(rel, strlen(rel), &err));
    ck_assert_int_eq(err.code, IODFG_E_PARSE);
    ck_assert_uint_eq(err.line, 1);
    ck_assert_uint_eq(err.col, 5);
    iodfg_error_clear(&err);
    struct iodfg_mounts *empty = iodfg_mounts_parse("", 0, &err);
    ck_assert_ptr_nonnull(empty);
    ck_assert_uint_eq(iodfg_mounts_count(empty), 0);
    ck_assert_ptr_null(iodfg_mounts_find(empty, "/a", 2));
    iodfg_mounts_free(empty);
}
END_TEST

START_TEST(test_load_file)
{
    char path[4096];
    char *dir = testutil_tmpdir();
    ck_assert_ptr_nonnull(dir);
    snprintf(path, sizeof(path), "%s/mounts.txt", dir);
    FILE *f = fopen(path, "w");
    ck_assert_ptr_nonnull(f);
    fputs(TABLE, f);
    fclose(f);
    struct iodfg_error err;
    iodfg_error_clear(&err);
    struct iodfg_mounts *m = iodfg_mounts_load(path, &err);
    ck_assert_ptr_nonnull(m);
    ck_assert_uint_eq(iodfg_mounts_count(m), 10);
    iodfg_mounts_free(m);
    snprintf(path, sizeof(path), "%s/missing.txt", dir);
    ck_assert_ptr_null(iodfg_mounts_load(path, &err));
    ck_assert_int_eq(err.code, IODFG_E_IO);
    testutil_rmtree(dir);
    free(dir);
}
END_TEST

START_TEST(test_builtin)
{
    struct iodfg_error err;
    iodfg_error_clear(&err);
    struct iodfg_mounts *b = iodfg_mounts_builtin(&err);
    ck_assert_ptr_nonnull(b);
    ck_assert_int_eq(iodfg_mounts_is_builtin(b), 1);
    const struct iodfg_mount *e = iodfg_mounts_find(b, "/proc/1/status", 14);
    ck_assert_str_eq(e->type, "proc");
    ck_assert_int_eq(e->scope, IODFG_SCOPE_VIRTUAL);
    e = iodfg_mounts_find(b, "/dev/null", 9);
    ck_assert_str_eq(e->dir, "/dev");
    ck_assert_int_eq(e->scope, IODFG_SCOPE_VIRTUAL);
    e = iodfg_mounts_find(b, "/dev/shm/x", 10);
    ck_assert_str_eq(e->type, "tmpfs");
    ck_assert_int_eq(e->scope, IODFG_SCOPE_LOCAL);
    e = iodfg_mounts_find(b, "/usr/lib/libc.so.6", 18);
    ck_assert_str_eq(e->dir, "/usr");
    ck_assert_str_eq(e->type, "");
    ck_assert_int_eq(e->scope, IODFG_SCOPE_LOCAL);
    ck_assert_str_eq(iodfg_mounts_find(b, "/tmp/a", 6)->dir, "/tmp");
    ck_assert_str_eq(iodfg_mounts_find(b, "/var/tmp/a", 10)->dir, "/var/tmp");
    ck_assert_ptr_null(iodfg_mounts_find(b, "/home/u/data", 12));
    ck_assert_ptr_null(iodfg_mounts_find(b, "/tmpfoo", 7));
    iodfg_mounts_free(b);
}
END_TEST

static const char TRACE[] = "openat(AT_FDCWD, \"/p/scratch/out.dat\", O_WRONLY|O_CREAT, 0644) = 3\n"
                            "write(3, \"abc\", 3) = 3\n"
                            "openat(AT_FDCWD, \"/proc/self/status\", O_RDONLY) = 4\n"
                            "openat(AT_FDCWD, \"rel.txt\", O_RDONLY) = 5\n"
                            "pipe2([6, 7], 0) = 0\n"
                            "openat(AT_FDCWD, \"/home/user/bound/in\", O_RDONLY) = 8\n";

START_TEST(test_classify_log)
{
    struct iodfg_eventlog *log = iodfg_eventlog_new(IODFG_COL_ALL);
    ck_assert_ptr_nonnull(log);
    struct iodfg_case_info ci;
    memset(&ci, 0, sizeof(ci));
    struct iodfg_error err;
    iodfg_error_clear(&err);
    ck_assert_int_eq(iodfg_eventlog_begin_case(log, &ci, &err), 0);
    struct iodfg_strace_result res;
    ck_assert_int_eq(
        iodfg_strace_parse(TRACE, strlen(TRACE), iodfg_strace_sink_eventlog, log, &res, &err), 0);
    ck_assert_int_eq(iodfg_eventlog_end_case(log, &err), 0);
    ck_assert_int_eq(iodfg_mounts_log_classified(log), 0);
    ck_assert_int_eq(iodfg_mounts_classify(M, log, &err), 0);
    ck_assert_int_eq(iodfg_mounts_log_classified(log), 1);
    const struct iodfg_strpool *pool = iodfg_eventlog_pool(log);
    const struct iodfg_key *keys = iodfg_eventlog_keys(log);
    int seen = 0;
    for (uint32_t k = 0; k < iodfg_eventlog_key_count(log); k++) {
        const char *path = iodfg_strpool_get(pool, keys[k].path);
        const char *fs = iodfg_strpool_get(pool, keys[k].fs);
        const char *type = iodfg_strpool_get(pool, keys[k].fstype);
        if (strcmp(path, "/p/scratch/out.dat") == 0) {
            ck_assert_str_eq(fs, "/p/scratch");
            ck_assert_str_eq(type, "lustre");
            ck_assert_int_eq(keys[k].scope, IODFG_SCOPE_GLOBAL);
            seen |= 1;
        } else if (strcmp(path, "/proc/self/status") == 0) {
            ck_assert_str_eq(fs, "/proc");
            ck_assert_int_eq(keys[k].scope, IODFG_SCOPE_VIRTUAL);
            seen |= 2;
        } else if (strcmp(path, "rel.txt") == 0) {
            ck_assert_str_eq(fs, "");
            ck_assert_int_eq(keys[k].scope, IODFG_SCOPE_UNKNOWN);
            seen |= 4;
        } else if (strcmp(path, "/home/user/bound/in") == 0) {
            ck_assert_str_eq(fs, "/home/user/bound");
            ck_assert_str_eq(type, "ext4");
            ck_assert_int_eq(keys[k].scope, IODFG_SCOPE_LOCAL);
            seen |= 8;
        } else if (keys[k].kind != IODFG_PATH_FILE) {
            ck_assert_int_eq(keys[k].scope, IODFG_SCOPE_NONE);
            ck_assert_str_eq(fs, "");
        }
    }
    ck_assert_int_eq(seen, 15);
    iodfg_eventlog_free(log);
}
END_TEST

static Suite *suite(void)
{
    Suite *s = suite_create("mounts");
    TCase *tc = tcase_create("core");
    tcase_add_checked_fixture(tc, setup, teardown);
    tcase_add_test(tc, test_parse_sorted_and_shadowed);
    tcase_add_test(tc, test_escapes_and_trailing_slash);
    tcase_add_test(tc, test_longest_component_prefix);
    tcase_add_test(tc, test_normalised_paths);
    tcase_add_test(tc, test_bind_mount);
    tcase_add_test(tc, test_type_scope);
    tcase_add_test(tc, test_parse_errors);
    tcase_add_test(tc, test_load_file);
    tcase_add_test(tc, test_builtin);
    tcase_add_test(tc, test_classify_log);
    suite_add_tcase(s, tc);
    return s;
}

int main(void)
{
    return testutil_run(suite());
}
