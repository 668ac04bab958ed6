/* SPDX-License-Identifier: MIT */
/* Unit tests: atomic output files (temp beside target, no overwrite without force). */
#include "config.h"

#include <dirent.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "iodfg/atomicfile.h"
#include "iodfg/error.h"

#include "testutil.h"

#define DIR_ testutil_fixture_dir
#define PATH testutil_fixture_path

static void setup(void)
{
    testutil_fixture_begin("out.dot");
}

static void teardown(void)
{
    testutil_fixture_end();
}

static int count_entries(const char *dir)
{
    DIR *d = opendir(dir);
    ck_assert_ptr_nonnull(d);
    int n = 0;
    struct dirent *e;
    while ((e = readdir(d))) {
        n += strcmp(e->d_name, ".") != 0 && strcmp(e->d_name, "..") != 0;
    }
    closedir(d);
    return n;
}

/* The whole content of path must be want. */
static void has_content(const char *path, const char *want)
{
    FILE *f = fopen(path, "rb");
    ck_assert_ptr_nonnull(f);
    char buf[256];
    size_t n = fread(buf, 1, sizeof(buf) - 1, f);
    fclose(f);
    buf[n] = '\0';
    ck_assert_str_eq(buf, want);
}

START_TEST(write_new_file)
{
    struct iodfg_error err;
    iodfg_error_clear(&err);
    ck_assert_int_eq(iodfg_atomic_write(PATH, "digraph {}\n", 11, 0, &err), 0);
    ck_assert_int_eq(err.code, IODFG_OK);
    has_content(PATH, "digraph {}\n");
    ck_assert_int_eq(count_entries(DIR_), 1);
}
END_TEST

START_TEST(write_empty_file)
{
    ck_assert_int_eq(iodfg_atomic_write(PATH, "", 0, 0, NULL), 0);
    has_content(PATH, "");
}
END_TEST

START_TEST(refuse_existing)
{
    testutil_write_file(PATH, "old", 3);
    struct iodfg_error err;
    iodfg_error_clear(&err);
    ck_assert_int_eq(iodfg_atomic_write(PATH, "new", 3, 0, &err), -1);
    ck_assert_int_eq(err.code, IODFG_E_EXISTS);
    ck_assert_str_eq(err.where, PATH);
    ck_assert_ptr_nonnull(strstr(err.msg, "--force"));
    has_content(PATH, "old");
    ck_assert_int_eq(count_entries(DIR_), 1);
    // A dangling symlink counts as existing too: we never write through it.
    char link_path[4200];
    snprintf(link_path, sizeof(link_path), "%s/dangling", DIR_);
    ck_assert_int_eq(symlink("/nonexistent/target", link_path), 0);
    iodfg_error_clear(&err);
    ck_assert_int_eq(iodfg_atomic_write(link_path, "x", 1, 0, &err), -1);
    ck_assert_int_eq(err.code, IODFG_E_EXISTS);
}
END_TEST

START_TEST(force_replaces)
{
    testutil_write_file(PATH, "old content", 11);
    ck_assert_int_eq(iodfg_atomic_write(PATH, "new", 3, 1, NULL), 0);
    has_content(PATH, "new");
    ck_assert_int_eq(count_entries(DIR_), 1);
}
END_TEST

START_TEST(missing_directory)
{
    char p[4200];
    snprintf(p, sizeof(p), "%s/nope/out.tsv", DIR_);
    struct iodfg_error err;
    iodfg_error_clear(&err);
    ck_assert_int_eq(iodfg_atomic_write(p, "x", 1, 0, &err), -1);
    ck_assert_int_eq(err.code, IODFG_E_IO);
    ck_assert_ptr_nonnull(strstr(err.msg, "No such file or directory"));
    ck_assert_int_eq(iodfg_atomic_reserve(p, 1, &err), -1);
    ck_assert_int_eq(count_entries(DIR_), 0);
}
END_TEST

START_TEST(target_is_directory)
{
    // rename() onto a directory fails: the temp file must not stay behind.
    char sub[4200];
    snprintf(sub, sizeof(sub), "%s/sub", DIR_);
    ck_assert_int_eq(mkdir(sub, 0755), 0);
    struct iodfg_error err;
    iodfg_error_clear(&err);
    ck_assert_int_eq(iodfg_atomic_write(sub, "x", 1, 1, &err), -1);
    ck_assert_int_eq(err.code, IODFG_E_IO);
    ck_assert_int_eq(count_entries(DIR_), 1);
    iodfg_error_clear(&err);
    ck_assert_int_eq(iodfg_atomic_write(sub, "x", 1, 0, &err), -1);
    ck_assert_int_eq(err.code, IODFG_E_EXISTS);
}
END_TEST

START_TEST(force_never_replaces_a_special_file)
{
    // rename() would put a regular file where a FIFO (or, as root, /dev/null) was: refused,
    // naming what is there, and the special file stays
    char fifo[4200];
    snprintf(fifo, sizeof(fifo), "%s/pipe", DIR_);
    ck_assert_int_eq(mkfifo(fifo, 0600), 0);
    struct iodfg_error err;
    iodfg_error_clear(&err);
    ck_assert_int_eq(iodfg_atomic_write(fifo, "x", 1, 1, &err), -1);
    ck_assert_int_eq(err.code, IODFG_E_IO);
    ck_assert_msg(strstr(err.msg, "a FIFO (named pipe), not a regular file"), "%s", err.msg);
    struct stat st;
    ck_assert_int_eq(lstat(fifo, &st), 0);
    ck_assert(S_ISFIFO(st.st_mode));
    ck_assert_int_eq(count_entries(DIR_), 1);
}
END_TEST

START_TEST(mode_follows_umask)
{
    umask(027);
    ck_assert_int_eq(iodfg_atomic_write(PATH, "x", 1, 0, NULL), 0);
    struct stat st;
    ck_assert_int_eq(stat(PATH, &st), 0);
    ck_assert_int_eq(st.st_mode & 0777, 0640);
}
END_TEST

/* A pid that no process has: one of a child that has been reaped. */
static long dead_pid(void)
{
    pid_t p = fork();
    if (p == 0) {
        _exit(0);
    }
    ck_assert_int_gt(p, 0);
    ck_assert_int_eq(waitpid(p, NULL, 0), p);
    return (long)p;
}

struct seen {
    int n, removed;
    char last[4200];
};

static void on_stale(void *ctx, const struct iodfg_stale_temp *t)
{
    struct seen *s = ctx;
    s->n++;
    s->removed += t->removed;
    snprintf(s->last, sizeof(s->last), "%s", t->path);
}

START_TEST(stale_temps_of_dead_processes_are_removed)
{
    char owner[IODFG_ATOMIC_OWNER_MAX], host[IODFG_ATOMIC_OWNER_MAX];
    iodfg_atomic_owner(owner, sizeof(owner));
    snprintf(host, sizeof(host), "%s", owner);
    *strrchr(host, '.') = '\0';
    char dead[4200], alive[4200], other[4200], old[4200], plain[4200];
    snprintf(dead, sizeof(dead), "%s/.big.h5.tmp-%s.%ld-abcdef", DIR_, host, dead_pid());
    snprintf(alive, sizeof(alive), "%s/.big.h5.tmp-%s-ghijkl", DIR_, owner);
    snprintf(other, sizeof(other), "%s/.big.h5.tmp-elsewhere9.%ld-mnopqr", DIR_, dead_pid());
    snprintf(old, sizeof(old), "%s/.big.h5.tmp-stuvwx", DIR_);
    snprintf(plain, sizeof(plain), "%s/big.h5", DIR_);
    const char *all[] = {dead, alive, other, old, plain};
    for (int i = 0; i < 5; i++) {
        testutil_write_file(all[i], "12345", 5);
    }
    struct seen s = {0, 0, ""};
    ck_assert_int_eq(iodfg_atomic_clean_stale(PATH, on_stale, &s, NULL), 1);
    ck_assert_int_ne(access(dead, F_OK), 0);  // its creator on this host is gone
    ck_assert_int_eq(access(alive, F_OK), 0); // this process still runs
    ck_assert_int_eq(access(other, F_OK), 0); // another host's: cannot tell
    ck_assert_int_eq(access(old, F_OK), 0);   // no creator in the name: only reported
    ck_assert_int_eq(access(plain, F_OK), 0);
    ck_assert_int_eq(s.n, 2);
    ck_assert_int_eq(s.removed, 1);
    ck_assert_int_eq(iodfg_atomic_clean_stale("/nonexistent/dir/x.h5", NULL, NULL, NULL), -1);
}
END_TEST

/* Every writer tidies its directory: a temp file of a killed run goes when any output is
 * written beside it, not only by convert. */
START_TEST(any_write_removes_stale_temps)
{
    char owner[IODFG_ATOMIC_OWNER_MAX], host[IODFG_ATOMIC_OWNER_MAX];
    iodfg_atomic_owner(owner, sizeof(owner));
    snprintf(host, sizeof(host), "%s", owner);
    *strrchr(host, '.') = '\0';
    char dead[4200], out[4200];
    snprintf(dead, sizeof(dead), "%s/.log.h5.tmp-%s.%ld-abcdef", DIR_, host, dead_pid());
    snprintf(out, sizeof(out), "%s/stats.txt", DIR_);
    testutil_write_file(dead, "12345", 5);
    ck_assert_int_eq(iodfg_atomic_write(out, "x\n", 2, 0, NULL), 0);
    ck_assert_int_ne(access(dead, F_OK), 0);
    ck_assert_int_eq(access(out, F_OK), 0);
}
END_TEST

START_TEST(tmpfile_and_publish)
{
    char *tmp = NULL;
    int fd = iodfg_atomic_tmpfile(PATH, &tmp, NULL);
    ck_assert_int_ge(fd, 0);
    char prefix[4200];
    char owner[IODFG_ATOMIC_OWNER_MAX];
    iodfg_atomic_owner(owner, sizeof(owner));
    snprintf(prefix, sizeof(prefix), "%s/.out.dot.tmp-%s-", DIR_, owner);
    ck_assert_int_eq(strncmp(tmp, prefix, strlen(prefix)), 0);
    ck_assert_uint_eq(strlen(tmp), strlen(prefix) + 6);
    ck_assert_int_eq(write(fd, "abc", 3), 3);
    ck_assert_int_eq(close(fd), 0);
    // Two temp files for the same target never share a name.
    char *tmp2 = NULL;
    int fd2 = iodfg_atomic_tmpfile(PATH, &tmp2, NULL);
    ck_assert_int_ge(fd2, 0);
    ck_assert_str_ne(tmp, tmp2);
    close(fd2);
    unlink(tmp2);
    free(tmp2);
    ck_assert_int_ne(access(PATH, F_OK), 0);
    ck_assert_int_eq(iodfg_atomic_publish(tmp, PATH, 0, NULL), 0);
    has_content(PATH, "abc");
    ck_assert_int_ne(access(tmp, F_OK), 0);
    free(tmp);
}
END_TEST

START_TEST(publish_without_force_keeps_other)
{
    // A file that appeared after the temp file was made is not replaced.
    char *tmp = NULL;
    int fd = iodfg_atomic_tmpfile(PATH, &tmp, NULL);
    ck_assert_int_ge(fd, 0);
    close(fd);
    testutil_write_file(PATH, "theirs", 6);
    struct iodfg_error err;
    iodfg_error_clear(&err);
    ck_assert_int_eq(iodfg_atomic_publish(tmp, PATH, 0, &err), -1);
    ck_assert_int_eq(err.code, IODFG_E_EXISTS);
    has_content(PATH, "theirs");
    ck_assert_int_eq(access(tmp, F_OK), 0); // left for the caller
    unlink(tmp);
    free(tmp);
}
END_TEST

START_TEST(reserve_room)
{
    struct iodfg_error err;
    iodfg_error_clear(&err);
    ck_assert_int_eq(iodfg_atomic_reserve(PATH, 1 << 20, &err), 0);
    ck_assert_int_eq(count_entries(DIR_), 0);
}
END_TEST

START_TEST(reserve_beyond_the_file_size_limit)
{
    // a file size limit stands in for a full file system; the soft limit is put back after
    struct rlimit old, lim;
    ck_assert_int_eq(getrlimit(RLIMIT_FSIZE, &old), 0);
    lim = old;
    lim.rlim_cur = 1 << 16;
    void (*was)(int) = signal(SIGXFSZ, SIG_IGN);
    ck_assert_int_eq(setrlimit(RLIMIT_FSIZE, &lim), 0);
    struct iodfg_error err;
    iodfg_error_clear(&err);
    int over = iodfg_atomic_reserve(PATH, 1 << 20, &err);
    char buf[512];
    const char *m = iodfg_error_format(&err, buf, sizeof(buf));
    int within = iodfg_atomic_reserve(PATH, 1 << 12, &err);
    setrlimit(RLIMIT_FSIZE, &old);
    signal(SIGXFSZ, was);
    ck_assert_int_eq(over, -1);
    ck_assert_ptr_nonnull(strstr(m, "out.dot"));
    ck_assert_ptr_nonnull(strstr(m, "no room for the event log (up to 1.0 MB"));
    ck_assert_ptr_nonnull(strstr(m, "File too large"));
    ck_assert_int_eq(within, 0);
    ck_assert_int_eq(count_entries(DIR_), 0);
}
END_TEST

START_TEST(output_that_is_an_input)
{
    char other[4200], link_[4200], hard[4200], missing[4200];
    snprintf(other, sizeof(other), "%s/other.st", DIR_);
    snprintf(link_, sizeof(link_), "%s/link.st", DIR_);
    snprintf(hard, sizeof(hard), "%s/hard.st", DIR_);
    snprintf(missing, sizeof(missing), "%s/missing.st", DIR_);
    struct iodfg_error err;
    iodfg_error_clear(&err);
    ck_assert_int_eq(iodfg_atomic_write(PATH, "x", 1, 0, &err), 0);
    ck_assert_int_eq(iodfg_atomic_write(other, "x", 1, 0, &err), 0);
    ck_assert_int_eq(symlink(PATH, link_), 0);
    ck_assert_int_eq(link(PATH, hard), 0);
    ck_assert_int_eq(iodfg_atomic_not_input(PATH, other, &err), 0);
    ck_assert_int_eq(iodfg_atomic_not_input(missing, PATH, &err), 0);
    ck_assert_int_eq(iodfg_atomic_not_input(PATH, missing, &err), 0);
    ck_assert_int_eq(iodfg_atomic_not_input(PATH, PATH, &err), -1);
    ck_assert_ptr_nonnull(strstr(err.msg, "the output is also an input"));
    iodfg_error_clear(&err);
    ck_assert_int_eq(iodfg_atomic_not_input(link_, PATH, &err), -1);
    ck_assert_ptr_nonnull(strstr(err.msg, "the output is also the input"));
    ck_assert_int_eq(iodfg_atomic_not_input(hard, PATH, &err), -1);
}
END_TEST

START_TEST(relative_path)
{
    ck_assert_int_eq(chdir(DIR_), 0);
    ck_assert_int_eq(iodfg_atomic_write("rel.txt", "r", 1, 0, NULL), 0);
    has_content("rel.txt", "r");
    ck_assert_int_eq(count_entries("."), 1);
    struct iodfg_error err;
    iodfg_error_clear(&err);
    ck_assert_int_eq(iodfg_atomic_tmpfile("dir/", NULL, &err), -1);
    ck_assert_int_eq(err.code, IODFG_E_ARG);
}
END_TEST

static Suite *atomicfile_suite(void)
{
    Suite *s = suite_create("atomicfile");
    TCase *tc = tcase_create("core");
    tcase_add_checked_fixture(tc, setup, teardown);
    tcase_add_test(tc, write_new_file);
    tcase_add_test(tc, write_empty_file);
    tcase_add_test(tc, refuse_existing);
    tcase_add_test(tc, force_replaces);
    tcase_add_test(tc, missing_directory);
    tcase_add_test(tc, target_is_directory);
    tcase_add_test(tc, force_never_replaces_a_special_file);
    tcase_add_test(tc, mode_follows_umask);
    tcase_add_test(tc, tmpfile_and_publish);
    tcase_add_test(tc, stale_temps_of_dead_processes_are_removed);
    tcase_add_test(tc, any_write_removes_stale_temps);
    tcase_add_test(tc, publish_without_force_keeps_other);
    tcase_add_test(tc, relative_path);
    tcase_add_test(tc, reserve_room);
    tcase_add_test(tc, reserve_beyond_the_file_size_limit);
    tcase_add_test(tc, output_that_is_an_input);
    suite_add_tcase(s, tc);
    return s;
}

int main(void)
{
    return testutil_run(atomicfile_suite());
}
