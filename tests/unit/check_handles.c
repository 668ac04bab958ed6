/* SPDX-License-Identifier: MIT */
/* Tests of the handle tracker (strace descriptors), the handle table and its store. */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <check.h>

#include "iodfg/error.h"
#include "iodfg/eventlog.h"
#include "iodfg/handles.h"
#include "iodfg/store.h"
#include "iodfg/strace.h"
#include "iodfg/strpool.h"

#include "testutil.h"

static struct iodfg_eventlog *LOG;

/* Parse text as one case of a fresh log with every column. */
static void parse(const char *text)
{
    iodfg_eventlog_free(LOG);
    LOG = iodfg_eventlog_new(IODFG_COL_ALL);
    ck_assert_ptr_nonnull(LOG);
    struct iodfg_case_info ci;
    memset(&ci, 0, sizeof(ci));
    struct iodfg_error err;
    iodfg_error_clear(&err);
    ck_assert_int_eq(iodfg_eventlog_begin_case(LOG, &ci, &err), 0);
    struct iodfg_strace_result res;
    int rc = iodfg_strace_parse(text, strlen(text), iodfg_strace_sink_eventlog, LOG, &res, &err);
    ck_assert_msg(rc == 0, "%s", err.msg);
    ck_assert_int_eq(iodfg_eventlog_end_case(LOG, &err), 0);
}

static void teardown(void)
{
    iodfg_eventlog_free(LOG);
    LOG = NULL;
}

static uint32_t NH(void)
{
    return iodfg_eventlog_handle_count(LOG);
}

static const struct iodfg_handle *H(uint32_t id)
{
    ck_assert_uint_ge(id, 1);
    ck_assert_uint_le(id, NH());
    return &iodfg_eventlog_handles(LOG)[id - 1];
}

static const char *S(uint32_t id)
{
    return iodfg_strpool_get(iodfg_eventlog_pool(LOG), id);
}

/* Handle column of event i (events are sorted by start). */
static uint32_t EH(uint64_t i)
{
    ck_assert_uint_lt(i, iodfg_eventlog_event_count(LOG));
    return iodfg_eventlog_columns(LOG)->handle[i];
}

#define MS(x) ((int64_t)(x)*1000000)

START_TEST(open_read_close)
{
    parse("1 00:00:00.001000 openat(AT_FDCWD</home>, \"/data/x\", O_RDONLY|O_CLOEXEC) = "
          "3</data/x> <0.000010>\n"
          "1 00:00:00.002000 read(3</data/x>, \"abc\", 4096) = 3 <0.000010>\n"
          "1 00:00:00.003000 fstat(3</data/x>, {st_mode=S_IFREG|0644, ...}) = 0 <0.000010>\n"
          "1 00:00:00.004000 close(3</data/x>) = 0 <0.000010>\n"
          "1 00:00:00.005000 getpid() = 1 <0.000010>\n");
    ck_assert_uint_eq(NH(), 1);
    const struct iodfg_handle *h = H(1);
    ck_assert_str_eq(S(h->path), "/data/x");
    ck_assert_str_eq(S(h->call), "openat");
    ck_assert_str_eq(S(h->flags), "O_RDONLY|O_CLOEXEC");
    ck_assert_int_eq(h->mode, IODFG_UNKNOWN);
    ck_assert_uint_eq(h->origin, IODFG_HANDLE_OPEN);
    ck_assert_int_eq(h->fd, 3);
    ck_assert_int_eq(h->pid, 1);
    ck_assert_int_eq(h->created_ns, MS(1));
    ck_assert_int_eq(h->destroyed_ns, MS(4) + 10000);
    ck_assert_uint_eq(h->ops, 4);
    ck_assert_uint_eq(h->bytes_read, 3);
    ck_assert_uint_eq(h->bytes_written, 0);
    for (uint64_t i = 0; i < 4; i++) {
        ck_assert_uint_eq(EH(i), 1);
    }
    ck_assert_uint_eq(EH(4), IODFG_NO_HANDLE);
}
END_TEST

START_TEST(dup_chain_and_close_of_dup)
{
    parse("1 00:00:00.001000 open(\"/o\", O_WRONLY|O_CREAT|O_TRUNC, 0640) = 3</o>\n"
          "1 00:00:00.002000 dup(3</o>) = 4</o>\n"
          "1 00:00:00.003000 dup2(4</o>, 7) = 7</o>\n"
          "1 00:00:00.004000 fcntl(7</o>, F_DUPFD_CLOEXEC, 10) = 10</o>\n"
          "1 00:00:00.005000 close(4</o>) = 0\n"
          "1 00:00:00.006000 write(3</o>, \"hello\", 5) = 5\n"
          "1 00:00:00.007000 write(10</o>, \"hi\", 2) = 2\n"
          "1 00:00:00.008000 fcntl(3</o>, F_GETFL) = 0x8001 (flags O_WRONLY|O_LARGEFILE)\n");
    ck_assert_uint_eq(NH(), 4);
    ck_assert_uint_eq(H(1)->origin, IODFG_HANDLE_OPEN);
    ck_assert_str_eq(S(H(1)->flags), "O_WRONLY|O_CREAT|O_TRUNC");
    ck_assert_int_eq(H(1)->mode, 0640);
    ck_assert_uint_eq(H(2)->origin, IODFG_HANDLE_DUP);
    ck_assert_uint_eq(H(2)->parent, 1);
    ck_assert_int_eq(H(2)->fd, 4);
    ck_assert_uint_eq(H(3)->parent, 2);
    ck_assert_int_eq(H(3)->fd, 7);
    ck_assert_uint_eq(H(4)->parent, 3);
    ck_assert_int_eq(H(4)->fd, 10);
    ck_assert_str_eq(S(H(4)->call), "fcntl");
    // closing the dup destroys only it; the original stays active
    ck_assert_int_eq(H(2)->destroyed_ns, MS(5));
    ck_assert_int_eq(H(1)->destroyed_ns, IODFG_UNKNOWN);
    ck_assert_uint_eq(H(1)->bytes_written, 5);
    ck_assert_uint_eq(H(4)->bytes_written, 2);
    ck_assert_uint_eq(H(1)->ops, 3); // open, write, fcntl(F_GETFL)
    ck_assert_uint_eq(EH(7), 1);
}
END_TEST

START_TEST(fd_reuse_after_close)
{
    parse("1 00:00:01.000000 openat(AT_FDCWD, \"/a\", O_RDONLY) = 3</a>\n"
          "1 00:00:01.000100 close(3</a>) = 0\n"
          "1 00:00:01.000200 openat(AT_FDCWD, \"/b\", O_RDWR|O_CREAT, 0600) = 3</b>\n"
          "1 00:00:01.000300 read(3</b>, \"\", 10) = 0\n"
          "1 00:00:01.000400 close(3</b>) = 0\n"
          "1 00:00:01.000500 close(3) = -1 EBADF (Bad file descriptor)\n");
    ck_assert_uint_eq(NH(), 2);
    ck_assert_str_eq(S(H(1)->path), "/a");
    ck_assert_str_eq(S(H(2)->path), "/b");
    ck_assert_int_eq(H(2)->mode, 0600);
    ck_assert_uint_eq(EH(1), 1);
    ck_assert_uint_eq(EH(2), 2);
    ck_assert_uint_eq(EH(3), 2);
    ck_assert_uint_eq(EH(4), 2);
    ck_assert_uint_eq(EH(5), IODFG_NO_HANDLE); // a failed close of a closed fd uses nothing
    ck_assert_uint_eq(H(2)->ops, 3);
}
END_TEST

START_TEST(unfinished_resumed_open)
{
    parse("7 00:00:01.000000 openat(AT_FDCWD, \"/slow\", O_RDONLY <unfinished ...>\n"
          "8 00:00:01.000100 write(1</dev/pts/0>, \"x\", 1) = 1\n"
          "7 00:00:01.000500 <... openat resumed>) = 5</slow> <0.000500>\n"
          "7 00:00:01.000600 read(5</slow>, \"\", 1) = 0\n");
    ck_assert_uint_eq(NH(), 2);
    // the pre-created stdout of pid 8 is defined first (its line is emitted first)
    ck_assert_uint_eq(H(1)->origin, IODFG_HANDLE_PRECREATED);
    ck_assert_int_eq(H(1)->pid, 8);
    ck_assert_int_eq(H(1)->fd, 1);
    ck_assert_str_eq(S(H(1)->path), "/dev/pts/0");
    ck_assert_int_eq(H(1)->created_ns, IODFG_UNKNOWN);
    ck_assert_uint_eq(H(1)->bytes_written, 1);
    const struct iodfg_handle *h = H(2);
    ck_assert_str_eq(S(h->path), "/slow");
    ck_assert_str_eq(S(h->flags), "O_RDONLY");
    ck_assert_int_eq(h->created_ns, MS(1000)); // the start of the unfinished half
    ck_assert_uint_eq(EH(0), 2);
    ck_assert_uint_eq(EH(1), 1);
    ck_assert_uint_eq(EH(2), 2);
}
END_TEST

START_TEST(fork_inherits_descriptors)
{
    parse("10 00:00:01.000000 openat(AT_FDCWD, \"/f\", O_RDONLY) = 3</f>\n"
          "10 00:00:01.000100 clone(child_stack=NULL, flags=SIGCHLD) = 11\n"
          "11 00:00:01.000200 read(3</f>, \"ab\", 2) = 2\n"
          "11 00:00:01.000300 close(3</f>) = 0\n"
          "10 00:00:01.000400 read(3</f>, \"c\", 2) = 1\n"
          "10 00:00:01.000500 clone(child_stack=0x7f, flags=CLONE_VM|CLONE_FS|CLONE_FILES|"
          "CLONE_SIGHAND|CLONE_THREAD <unfinished ...>\n"
          "12 00:00:01.000600 read(3</f>, \"\", 2) = 0\n"
          "10 00:00:01.000700 <... clone resumed>) = 12\n"
          "12 00:00:01.000800 close(3</f>) = 0\n"
          "10 00:00:01.000900 read(3</f>, \"\", 2) = -1 EBADF (Bad file descriptor)\n");
    ck_assert_uint_eq(NH(), 2);
    ck_assert_uint_eq(H(2)->origin, IODFG_HANDLE_INHERITED);
    ck_assert_uint_eq(H(2)->parent, 1);
    ck_assert_int_eq(H(2)->pid, 11);
    ck_assert_uint_eq(H(2)->bytes_read, 2);
    ck_assert_int_eq(H(2)->destroyed_ns, MS(1000) + 300000);
    // the child's close leaves the parent's handle open; the thread shares the table
    ck_assert_uint_eq(H(1)->bytes_read, 1);
    ck_assert_uint_eq(H(1)->ops, 4); // open, read, the thread's read and close
    ck_assert_int_eq(H(1)->destroyed_ns, MS(1000) + 800000);
    ck_assert_uint_eq(EH(5), IODFG_NO_HANDLE); // the clone itself
    ck_assert_uint_eq(EH(6), 1);
    ck_assert_uint_eq(EH(8), IODFG_NO_HANDLE);
}
END_TEST

START_TEST(precreated_std_and_pipes)
{
    parse("read(0</dev/pts/1>, \"q\", 1) = 1\n"
          "write(2</dev/pts/1>, \"err\", 3) = 3\n"
          "pipe2([3<pipe:[99]>, 4<pipe:[99]>], O_CLOEXEC) = 0\n"
          "dup2(4<pipe:[99]>, 1</dev/pts/1>) = 1<pipe:[99]>\n"
          "write(1<pipe:[99]>, \"out\", 3) = 3\n"
          "socket(AF_INET, SOCK_STREAM, IPPROTO_TCP) = 5<TCP:[1234]>\n"
          "close_range(3, 4294967295, 0) = 0\n");
    ck_assert_uint_eq(NH(), 6);
    ck_assert_uint_eq(H(1)->origin, IODFG_HANDLE_PRECREATED);
    ck_assert_int_eq(H(1)->fd, 0);
    ck_assert_uint_eq(H(1)->bytes_read, 1);
    ck_assert_int_eq(H(2)->fd, 2);
    ck_assert_uint_eq(H(2)->bytes_written, 3);
    ck_assert_str_eq(S(H(3)->path), "pipe:[99]");
    ck_assert_int_eq(H(3)->fd, 3);
    ck_assert_int_eq(H(4)->fd, 4);
    ck_assert_uint_eq(H(4)->origin, IODFG_HANDLE_OPEN);
    ck_assert_int_eq(H(4)->created_ns, 0);
    // dup2 onto fd 1, never used before: only the new handle
    ck_assert_uint_eq(H(5)->origin, IODFG_HANDLE_DUP);
    ck_assert_int_eq(H(5)->fd, 1);
    ck_assert_uint_eq(H(5)->parent, 4);
    ck_assert_uint_eq(H(5)->bytes_written, 3);
    ck_assert_str_eq(S(H(6)->path), "TCP:[1234]");
    ck_assert_str_eq(S(H(6)->call), "socket");
    // close_range closed the pipe ends and the socket, not stdin/stderr/stdout
    ck_assert_int_ne(H(3)->destroyed_ns, IODFG_UNKNOWN);
    ck_assert_int_ne(H(4)->destroyed_ns, IODFG_UNKNOWN);
    ck_assert_int_ne(H(6)->destroyed_ns, IODFG_UNKNOWN);
    ck_assert_int_eq(H(5)->destroyed_ns, IODFG_UNKNOWN);
    ck_assert_int_eq(H(1)->destroyed_ns, IODFG_UNKNOWN);
}
END_TEST

START_TEST(dup2_closes_open_target)
{
    parse("open(\"/a\", O_RDONLY) = 3</a>\n"
          "open(\"/b\", O_RDONLY) = 4</b>\n"
          "dup2(3</a>, 4</b>) = 4</a>\n");
    ck_assert_uint_eq(NH(), 3);
    ck_assert_int_ne(H(2)->destroyed_ns, IODFG_UNKNOWN);
    ck_assert_int_eq(H(1)->destroyed_ns, IODFG_UNKNOWN);
    ck_assert_uint_eq(H(3)->parent, 1);
}
END_TEST

START_TEST(append_shifts_ids)
{
    parse("open(\"/a\", O_RDONLY) = 3</a>\n"
          "dup(3</a>) = 4</a>\n");
    struct iodfg_eventlog *dst = iodfg_eventlog_new(IODFG_COL_ALL);
    struct iodfg_error err;
    iodfg_error_clear(&err);
    ck_assert_int_eq(iodfg_eventlog_append(dst, LOG, &err), 0);
    ck_assert_int_eq(iodfg_eventlog_append(dst, LOG, &err), 0);
    ck_assert_uint_eq(iodfg_eventlog_handle_count(dst), 4);
    const struct iodfg_handle *h = iodfg_eventlog_handles(dst);
    ck_assert_uint_eq(h[3].parent, 3);
    ck_assert_uint_eq(h[3].case_id, 1);
    ck_assert_uint_eq(h[1].case_id, 0);
    ck_assert_uint_eq(iodfg_eventlog_columns(dst)->handle[3], 4);
    ck_assert_str_eq(iodfg_strpool_get(iodfg_eventlog_pool(dst), h[2].path), "/a");
    iodfg_eventlog_free(dst);
}
END_TEST

static void roundtrip(unsigned columns, struct iodfg_eventlog **out)
{
    char path[4096];
    char *dir = testutil_tmpdir();
    snprintf(path, sizeof(path), "%s/h.h5", dir);
    struct iodfg_error err;
    iodfg_error_clear(&err);
    struct iodfg_store_writer *w = iodfg_store_create(path, 1, &err);
    ck_assert_msg(w != NULL, "%s", err.msg);
    ck_assert_int_eq(iodfg_store_write_cases(w, LOG, &err), 0);
    ck_assert_int_eq(iodfg_store_write_cases(w, LOG, &err), 0);
    ck_assert_msg(iodfg_store_commit(w, &err) == 0, "%s", err.msg);
    *out = iodfg_store_load(path, columns, NULL, NULL, &err);
    testutil_rmtree(dir);
    free(dir);
    ck_assert_msg(*out != NULL, "%s", err.msg);
}

START_TEST(store_roundtrip)
{
    parse("1 00:00:00.001000 open(\"/o\", O_WRONLY|O_CREAT, 0640) = 3</o>\n"
          "1 00:00:00.002000 dup(3</o>) = 4</o>\n"
          "1 00:00:00.003000 write(4</o>, \"abcd\", 4) = 4 <0.000001>\n"
          "1 00:00:00.004000 close(4</o>) = 0 <0.000002>\n");
    struct iodfg_eventlog *back;
    roundtrip(IODFG_COL_ALL, &back);
    ck_assert_uint_eq(iodfg_eventlog_handle_count(back), 4);
    const struct iodfg_handle *a = iodfg_eventlog_handles(LOG), *b = iodfg_eventlog_handles(back);
    const struct iodfg_strpool *pb = iodfg_eventlog_pool(back);
    for (uint32_t i = 0; i < 4; i++) {
        const struct iodfg_handle *x = &a[i % 2], *y = &b[i];
        ck_assert_uint_eq(y->case_id, i / 2);
        ck_assert_uint_eq(y->parent, x->parent ? x->parent + 2 * (i / 2) : 0);
        ck_assert_int_eq(y->fd, x->fd);
        ck_assert_int_eq(y->mode, x->mode);
        ck_assert_int_eq(y->created_ns, x->created_ns);
        ck_assert_int_eq(y->destroyed_ns, x->destroyed_ns);
        ck_assert_uint_eq(y->ops, x->ops);
        ck_assert_uint_eq(y->bytes_written, x->bytes_written);
        ck_assert_str_eq(iodfg_strpool_get(pb, y->path), "/o");
        ck_assert_str_eq(iodfg_strpool_get(pb, y->flags), S(x->flags));
    }
    const uint32_t *hc = iodfg_eventlog_columns(back)->handle;
    const uint32_t want[] = {1, 2, 2, 2, 3, 4, 4, 4};
    for (int i = 0; i < 8; i++) {
        ck_assert_uint_eq(hc[i], want[i]);
    }
    iodfg_eventlog_free(back);
    // without the handle column the table comes when asked for, and only then
    roundtrip(IODFG_COL_ANALYSIS | IODFG_COL_HANDLE_TABLE, &back);
    ck_assert_ptr_null(iodfg_eventlog_columns(back)->handle);
    ck_assert_uint_eq(iodfg_eventlog_handle_count(back), 4);
    iodfg_eventlog_free(back);
    roundtrip(IODFG_COL_ANALYSIS, &back);
    ck_assert_uint_eq(iodfg_eventlog_handle_count(back), 0);
    iodfg_eventlog_free(back);
}
END_TEST

START_TEST(store_table_over_blocks)
{
    // The writer keeps the table in blocks of about 52,000 rows: 2 x 40,000 handles cross one
    // block's end and the small first block's growth, in the file's order.
    enum { N = 40000 };
    size_t cap = (size_t)N * 120, at = 0;
    char *text = malloc(cap);
    ck_assert_ptr_nonnull(text);
    for (unsigned i = 0; i < N; i++) {
        at += (size_t)snprintf(text + at, cap - at,
                               "1 00:00:%02u.%06u open(\"/f%u\", O_RDONLY) = 3</f%u>\n", i / 20000,
                               i % 20000 * 10, i, i);
        at += (size_t)snprintf(text + at, cap - at, "1 00:00:%02u.%06u close(3</f%u>) = 0\n",
                               i / 20000, i % 20000 * 10 + 5, i);
    }
    parse(text);
    free(text);
    ck_assert_uint_eq(NH(), N);
    struct iodfg_eventlog *back;
    roundtrip(IODFG_COL_ALL, &back);
    ck_assert_uint_eq(iodfg_eventlog_handle_count(back), 2 * N);
    const struct iodfg_handle *a = iodfg_eventlog_handles(LOG), *b = iodfg_eventlog_handles(back);
    const struct iodfg_strpool *pb = iodfg_eventlog_pool(back);
    for (uint32_t i = 0; i < 2 * N; i++) {
        const struct iodfg_handle *x = &a[i % N], *y = &b[i];
        ck_assert_uint_eq(y->case_id, i / N);
        ck_assert_int_eq(y->fd, 3);
        ck_assert_int_eq(y->created_ns, x->created_ns);
        ck_assert_int_eq(y->destroyed_ns, x->destroyed_ns);
        ck_assert_str_eq(iodfg_strpool_get(pb, y->path), S(x->path));
    }
    iodfg_eventlog_free(back);
}
END_TEST

START_TEST(store_reads_minor_0)
{
    struct iodfg_error err;
    iodfg_error_clear(&err);
    struct iodfg_eventlog *log =
        iodfg_store_load(testutil_data("store/v1_0.h5"), IODFG_COL_ALL, NULL, NULL, &err);
    ck_assert_msg(log != NULL, "%s", err.msg);
    ck_assert_uint_eq(iodfg_eventlog_event_count(log), 503);
    ck_assert_uint_eq(iodfg_eventlog_handle_count(log), 0);
    for (uint64_t i = 0; i < 503; i++) {
        ck_assert_uint_eq(iodfg_eventlog_columns(log)->handle[i], IODFG_NO_HANDLE);
    }
    const struct iodfg_key *k = iodfg_eventlog_keys(log);
    for (uint32_t i = 0; i < iodfg_eventlog_key_count(log); i++) {
        ck_assert_uint_eq(k[i].layer, IODFG_STR_EMPTY);
        ck_assert_uint_eq(k[i].scope,
                          k[i].kind == IODFG_PATH_FILE ? IODFG_SCOPE_UNKNOWN : IODFG_SCOPE_NONE);
    }
    iodfg_eventlog_free(log);
}
END_TEST

static Suite *suite(void)
{
    Suite *s = suite_create("handles");
    TCase *tc = tcase_create("tracker");
    tcase_add_checked_fixture(tc, NULL, teardown);
    tcase_add_test(tc, open_read_close);
    tcase_add_test(tc, dup_chain_and_close_of_dup);
    tcase_add_test(tc, fd_reuse_after_close);
    tcase_add_test(tc, unfinished_resumed_open);
    tcase_add_test(tc, fork_inherits_descriptors);
    tcase_add_test(tc, precreated_std_and_pipes);
    tcase_add_test(tc, dup2_closes_open_target);
    tcase_add_test(tc, append_shifts_ids);
    suite_add_tcase(s, tc);
    TCase *ts = tcase_create("store");
    tcase_add_checked_fixture(ts, NULL, teardown);
    tcase_add_test(ts, store_roundtrip);
    tcase_add_test(ts, store_table_over_blocks);
    tcase_add_test(ts, store_reads_minor_0);
    suite_add_tcase(s, ts);
    return s;
}

int main(void)
{
    return testutil_run(suite());
}
