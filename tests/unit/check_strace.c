/* SPDX-License-Identifier: MIT */
/* Unit tests: strace parser (formats, odd lines, merging, escapes, clocks). */
#include "config.h"

#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "iodfg/error.h"
#include "iodfg/eventlog.h"
#include "iodfg/handles.h"
#include "iodfg/strace.h"
#include "iodfg/strpool.h"

#include "testutil.h"

static struct iodfg_eventlog *LOG;
static struct iodfg_strace_result RES;

/* A sink that writes every field of every event (and its handle definitions) as text. */
struct record {
    char *buf;
    size_t len, cap;
};

static void rec_put(struct record *r, const char *p, size_t n)
{
    if (r->len + n + 1 > r->cap) {
        r->cap = (r->len + n + 1) * 2;
        r->buf = realloc(r->buf, r->cap);
        ck_assert_ptr_nonnull(r->buf);
    }
    memcpy(r->buf + r->len, p, n);
    r->len += n;
    r->buf[r->len] = '\0';
}

static void rec_num(struct record *r, long long v)
{
    char tmp[32];
    int n = snprintf(tmp, sizeof(tmp), "%lld ", v);
    rec_put(r, tmp, (size_t)n);
}

static void rec_str(struct record *r, const char *p, size_t n)
{
    rec_put(r, p ? p : "", p ? n : 0);
    rec_put(r, "|", 1);
}

static int record_sink(void *ctx, const struct iodfg_raw_event *ev, struct iodfg_error *err)
{
    (void)err;
    struct record *r = ctx;
    long long v[] = {ev->start_ns, ev->dur_ns, ev->size, ev->offset,
                     ev->req,      ev->pid,    ev->fd,   (long long)ev->seq,
                     ev->handle,   ev->hop,    ev->ndef, ev->nclosed};
    for (size_t i = 0; i < sizeof(v) / sizeof(v[0]); i++) {
        rec_num(r, v[i]);
    }
    rec_str(r, ev->call, ev->call_len);
    rec_str(r, ev->path, ev->path_len);
    rec_str(r, ev->err, ev->err_len);
    for (unsigned i = 0; i < ev->ndef; i++) {
        const struct iodfg_raw_handle *h = &ev->hdef[i];
        rec_put(r, "\n def ", 7);
        rec_num(r, h->origin);
        rec_num(r, h->parent);
        rec_num(r, h->pid);
        rec_num(r, h->fd);
        rec_num(r, h->mode);
        rec_str(r, h->path, h->path_len);
        rec_str(r, h->flags, h->flags_len);
    }
    for (unsigned i = 0; i < ev->nclosed; i++) {
        rec_put(r, "\n closed ", 10);
        rec_num(r, ev->hclosed[i]);
    }
    rec_put(r, "\n", 1);
    return 0;
}

static void same_result(const struct iodfg_strace_result *a, const struct iodfg_strace_result *b)
{
    ck_assert_int_eq(a->clock, b->clock);
    ck_assert_uint_eq(a->lines, b->lines);
    ck_assert_uint_eq(a->bytes, b->bytes);
    for (int k = 0; k < IODFG_COUNT__N; k++) {
        ck_assert_uint_eq(a->counts[k], b->counts[k]);
    }
    ck_assert_uint_eq(a->ndiags, b->ndiags);
    for (unsigned k = 0; k < a->ndiags; k++) {
        ck_assert_uint_eq(a->diags[k].line, b->diags[k].line);
        ck_assert_uint_eq(a->diags[k].col, b->diags[k].col);
        ck_assert_str_eq(a->diags[k].msg, b->diags[k].msg);
    }
}

/* text written to a file and parsed by the block reader into *rec and *r. */
static void parse_file_fd(const char *text, size_t len, struct iodfg_strace_result *r,
                          struct record *rec)
{
    char *dir = testutil_tmpdir();
    char path[4096];
    snprintf(path, sizeof(path), "%s/t.st", dir);
    testutil_write_file(path, text, len);
    int fd = open(path, O_RDONLY);
    ck_assert_int_ge(fd, 0);
    struct iodfg_error err;
    iodfg_error_clear(&err);
    ck_assert_int_eq(iodfg_strace_parse_fd(fd, record_sink, rec, NULL, NULL, r, &err), 0);
    close(fd);
    testutil_rmtree(dir);
    free(dir);
}

/* The block reader (iodfg_strace_parse_fd, as convert reads files) must give exactly the events
 * and counts of the whole-buffer parser: every test text goes through both. */
static void check_stream(const char *text, size_t len)
{
    struct record whole = {NULL, 0, 0}, stream = {NULL, 0, 0};
    struct iodfg_strace_result r1, r2;
    struct iodfg_error err;
    iodfg_error_clear(&err);
    ck_assert_int_eq(iodfg_strace_parse(text, len, record_sink, &whole, &r1, &err), 0);
    parse_file_fd(text, len, &r2, &stream);
    same_result(&r1, &r2);
    ck_assert_uint_eq(whole.len, stream.len);
    if (whole.len) {
        ck_assert_int_eq(memcmp(whole.buf, stream.buf, whole.len), 0);
    }
    free(whole.buf);
    free(stream.buf);
}

static void parse(const char *text)
{
    check_stream(text, strlen(text));
    iodfg_eventlog_free(LOG);
    LOG = iodfg_eventlog_new(IODFG_COL_ALL);
    struct iodfg_case_info info;
    memset(&info, 0, sizeof(info));
    ck_assert_int_eq(iodfg_eventlog_begin_case(LOG, &info, NULL), 0);
    struct iodfg_error err;
    iodfg_error_clear(&err);
    ck_assert_int_eq(
        iodfg_strace_parse(text, strlen(text), iodfg_strace_sink_eventlog, LOG, &RES, &err), 0);
    ck_assert_int_eq(iodfg_eventlog_end_case(LOG, NULL), 0);
}

static uint64_t N(void)
{
    return iodfg_eventlog_event_count(LOG);
}

static const struct iodfg_columns *C(void)
{
    return iodfg_eventlog_columns(LOG);
}

static const char *call(uint64_t i)
{
    const struct iodfg_key *k = iodfg_eventlog_keys(LOG);
    return iodfg_strpool_get(iodfg_eventlog_pool(LOG), k[C()->key[i]].call);
}

static const char *path(uint64_t i)
{
    const struct iodfg_key *k = iodfg_eventlog_keys(LOG);
    return iodfg_strpool_get(iodfg_eventlog_pool(LOG), k[C()->key[i]].path);
}

static const char *errname(uint64_t i)
{
    return iodfg_strpool_get(iodfg_eventlog_pool(LOG), C()->err[i]);
}

static void teardown(void)
{
    iodfg_eventlog_free(LOG);
    LOG = NULL;
}

START_TEST(paper_tt_format)
{
    parse("9054  08:55:54.153994 read(3</usr/lib/x86_64-linux-gnu/libselinux.so.1>, "
          "\"\\177ELF\\2\\1\\1\"..., 832) = 832 <0.000203>\n"
          "9054  08:55:54.176260 write(1</dev/pts/7>, \"a\\n\", 50) = 50 <0.000111>\n");
    ck_assert_uint_eq(N(), 2);
    ck_assert_int_eq(RES.clock, IODFG_CLOCK_TIME_OF_DAY);
    ck_assert_int_eq(C()->pid[0], 9054);
    ck_assert_str_eq(call(0), "read");
    ck_assert_str_eq(path(0), "/usr/lib/x86_64-linux-gnu/libselinux.so.1");
    ck_assert_int_eq(C()->start_ns[0], (8 * 3600 + 55 * 60 + 54) * 1000000000LL + 153994000LL);
    ck_assert_int_eq(C()->dur_ns[0], 203000);
    ck_assert_int_eq(C()->size[0], 832);
    ck_assert_int_eq(C()->req[0], 832);
    ck_assert_int_eq(C()->fd[0], 3);
    ck_assert_str_eq(path(1), "/dev/pts/7");
    ck_assert_int_eq(C()->req[1], 50);
    ck_assert_uint_eq(RES.counts[IODFG_COUNT_EVENTS], 2);
    ck_assert_uint_eq(RES.counts[IODFG_COUNT_UNPARSABLE], 0);
}
END_TEST

START_TEST(t_seconds_only)
{
    parse("05:24:20 read(3</etc/hostname>, \"x\\n\", 4096) = 2\n");
    ck_assert_uint_eq(N(), 1);
    ck_assert_int_eq(C()->start_ns[0], (5 * 3600 + 24 * 60 + 20) * 1000000000LL);
    ck_assert_int_eq(C()->dur_ns[0], IODFG_UNKNOWN);
    ck_assert_uint_eq(RES.counts[IODFG_COUNT_NO_DURATION], 1);
    ck_assert_int_eq(C()->pid[0], 0);
}
END_TEST

START_TEST(ttt_epoch_nanoseconds)
{
    parse("1795325060.292454652 read(3, \"\"..., 832) = 832\n");
    ck_assert_int_eq(RES.clock, IODFG_CLOCK_EPOCH);
    ck_assert_int_eq(C()->start_ns[0], 1795325060292454652LL);
    ck_assert_str_eq(path(0), "");
    ck_assert_int_eq(C()->fd[0], 3);
}
END_TEST

START_TEST(relative_accumulates)
{
    parse("     0.000000 openat(AT_FDCWD, \"/etc/ld.so.cache\", O_RDONLY|O_CLOEXEC) = 3\n"
          "     0.000168 read(3, \"\"..., 832) = 832\n"
          "     0.000032 close(3) = 0\n");
    ck_assert_int_eq(RES.clock, IODFG_CLOCK_RELATIVE);
    ck_assert_uint_eq(N(), 3);
    ck_assert_int_eq(C()->start_ns[1], 168000);
    ck_assert_int_eq(C()->start_ns[2], 200000);
    ck_assert_str_eq(path(0), "/etc/ld.so.cache"); // no -y: the string argument
    ck_assert_int_eq(C()->fd[0], 3);
}
END_TEST

START_TEST(absolute_plus_relative)
{
    parse("1753944587.753800 (+     0.000000) read(3</x>, \"\", 1) = 0 <0.000010>\n"
          "[pid  2533] 1753944587.753900 (+     0.000100) close(3<pipe:[5018]>) = 0 <0.000065>\n");
    ck_assert_int_eq(RES.clock, IODFG_CLOCK_EPOCH);
    ck_assert_int_eq(C()->start_ns[0], 1753944587753800000LL);
    ck_assert_int_eq(C()->pid[1], 2533);
    ck_assert_str_eq(path(1), "pipe:[5018]");
    ck_assert_int_eq(C()->size[0], 0);
}
END_TEST

START_TEST(no_timestamps_with_pid)
{
    parse("2126  read(0</dev/null>, \"\", 10) = 0\n2127  write(1, \"ab\", 2) = 2 <0.000001>\n");
    ck_assert_int_eq(RES.clock, IODFG_CLOCK_NONE);
    ck_assert_uint_eq(N(), 2);
    ck_assert_int_eq(C()->pid[1], 2127);
    ck_assert_int_eq(C()->dur_ns[1], 1000);
}
END_TEST

START_TEST(openat_takes_returned_path)
{
    parse("1 10:00:00.000001 openat(AT_FDCWD</tmp/st>, \"/lib/libc.so.6\", O_RDONLY) = "
          "3</usr/lib/x86_64-linux-gnu/libc.so.6> <0.000054>\n"
          "1 10:00:00.000002 openat(AT_FDCWD</tmp/st>, \"missing\", O_RDONLY) = -1 ENOENT (No "
          "such file or directory) <0.000010>\n"
          "1 10:00:00.000003 newfstatat(3</etc/ld.so.cache>, \"\", {st_mode=S_IFREG|0644, "
          "...}, AT_EMPTY_PATH) = 0 <0.000053>\n"
          "1 10:00:00.000004 openat(AT_FDCWD, \"rel\", O_RDONLY) = -1 EACCES (Permission denied)\n"
          "1 10:00:00.000005 open(\"/etc/x\", O_RDONLY) = 4\n"
          "1 10:00:00.000006 creat(\"/tmp/new\", 0644) = 5</tmp/new>\n");
    ck_assert_uint_eq(N(), 6);
    ck_assert_str_eq(path(0), "/usr/lib/x86_64-linux-gnu/libc.so.6");
    ck_assert_int_eq(C()->fd[0], 3);
    ck_assert_str_eq(path(1), "/tmp/st/missing");
    ck_assert_str_eq(errname(1), "ENOENT");
    ck_assert_str_eq(errname(0), "");
    ck_assert_str_eq(path(2), "/etc/ld.so.cache");
    ck_assert_str_eq(path(3), "rel");
    ck_assert_str_eq(errname(3), "EACCES");
    ck_assert_str_eq(path(4), "/etc/x");
    ck_assert_int_eq(C()->fd[4], 4);
    ck_assert_str_eq(path(5), "/tmp/new");
}
END_TEST

START_TEST(yy_sockets_and_devices)
{
    parse("5 read(3<TCP:[127.0.0.1:40000->127.0.0.1:80]>, \"GET\", 3) = 3\n"
          "5 close(3</dev/null<char 1:3>>) = 0\n"
          "5 write(4<UNIX-STREAM:[1234->1235]>, \"x\", 1) = 1\n");
    ck_assert_uint_eq(N(), 3);
    ck_assert_str_eq(path(0), "TCP:[127.0.0.1:40000->127.0.0.1:80]");
    ck_assert_str_eq(path(1), "/dev/null");
    ck_assert_str_eq(path(2), "UNIX-STREAM:[1234->1235]");
}
END_TEST

START_TEST(escaped_paths_decoded)
{
    parse("1 openat(AT_FDCWD</t>, \"a<b>c\", O_RDONLY) = 3</tmp/st/a\\74b\\76c>\n"
          "1 read(3</tmp/st/q\\\"x>, \"\", 1) = 0\n"
          "1 read(3</tmp/st/h\\351>, \"\", 1) = 0\n"
          "1 read(3</tmp/a = b) = 5>, \"\", 1) = 0\n"
          "1 read(3</tmp/n\\nl>, \"x) = 9\", 1) = 1\n");
    ck_assert_uint_eq(N(), 5);
    ck_assert_str_eq(path(0), "/tmp/st/a<b>c");
    ck_assert_str_eq(path(1), "/tmp/st/q\"x");
    ck_assert_str_eq(path(2), "/tmp/st/h\351");
    ck_assert_str_eq(path(3), "/tmp/a = b) = 5");
    ck_assert_str_eq(path(4), "/tmp/n\nl");
    ck_assert_int_eq(C()->size[4], 1);
}
END_TEST

START_TEST(unfinished_resumed_merge)
{
    parse("77423 16:56:40.452431 read(3</usr/lib/libselinux.so.1>, <unfinished ...>\n"
          "77424 16:56:40.452500 write(1</dev/pts/1>, \"hi\", 2) = 2 <0.000010>\n"
          "77423 16:56:40.452660 <... read resumed>\"\"..., 405) = 404 <0.000223>\n");
    ck_assert_uint_eq(N(), 2);
    ck_assert_str_eq(call(0), "read");
    ck_assert_int_eq(C()->pid[0], 77423);
    ck_assert_str_eq(path(0), "/usr/lib/libselinux.so.1");
    ck_assert_int_eq(C()->size[0], 404);
    ck_assert_int_eq(C()->req[0], 405);
    ck_assert_int_eq(C()->dur_ns[0], 223000);
    ck_assert_int_eq(C()->start_ns[0] % 1000000000LL, 452431000);
    ck_assert_uint_eq(RES.counts[IODFG_COUNT_MERGED], 1);
    ck_assert_uint_eq(RES.counts[IODFG_COUNT_EVENTS], 2);
}
END_TEST

START_TEST(interleaved_pairs_across_pids)
{
    parse("1 00:00:01.000000 read(3</a>, <unfinished ...>\n"
          "2 00:00:01.000001 read(4</b>, <unfinished ...>\n"
          "3 00:00:01.000002 write(5</c>, <unfinished ...>\n"
          "2 00:00:01.000003 <... read resumed>\"\", 10) = 7 <0.000002>\n"
          "3 00:00:01.000004 <... write resumed>) = 9 <0.000002>\n"
          "1 00:00:01.000005 <... read resumed>\"\", 10) = 5 <0.000005>\n");
    ck_assert_uint_eq(N(), 3);
    ck_assert_str_eq(path(0), "/a");
    ck_assert_int_eq(C()->size[0], 5);
    ck_assert_str_eq(path(1), "/b");
    ck_assert_int_eq(C()->size[1], 7);
    ck_assert_str_eq(path(2), "/c");
    ck_assert_int_eq(C()->size[2], 9);
    ck_assert_uint_eq(RES.counts[IODFG_COUNT_MERGED], 3);
}
END_TEST

START_TEST(unmatched_halves_kept)
{
    parse("1 00:00:01.000000 <... read resumed>\"\", 10) = 5 <0.000100>\n"
          "2 00:00:02.000000 write(4</b>, \"x\", 1 <unfinished ...>\n");
    ck_assert_uint_eq(N(), 2);
    ck_assert_uint_eq(RES.counts[IODFG_COUNT_UNMATCHED], 2);
    ck_assert_int_eq(C()->start_ns[0], 1000000000LL - 100000);
    ck_assert_int_eq(C()->size[0], 5);
    ck_assert_str_eq(path(1), "/b");
    ck_assert_int_eq(C()->dur_ns[1], IODFG_UNKNOWN);
}
END_TEST

START_TEST(restarts_signals_exits)
{
    parse("1 00:00:01.0 read(0, <unfinished ...>\n"
          "1 00:00:02.0 <... read resumed>0x7ffc, 10) = ? ERESTARTSYS (To be restarted if "
          "SA_RESTART is set) <1.0>\n"
          "1 00:00:02.1 --- SIGINT {si_signo=SIGINT, si_code=SI_KERNEL} ---\n"
          "1 00:00:02.2 read(0, 0x7ffc, 10) = ? ERESTARTNOHAND (To be restarted if no handler)\n"
          "1 00:00:02.3 restart_syscall(<... resuming interrupted read ...>) = 0 <0.1>\n"
          "1 00:00:02.4 exit_group(0) = ?\n"
          "1 00:00:02.5 +++ exited with 0 +++\n"
          "strace: Process 1 detached\n"
          "\n");
    ck_assert_uint_eq(RES.counts[IODFG_COUNT_RESTARTS], 2);
    ck_assert_uint_eq(RES.counts[IODFG_COUNT_SIGNALS], 1);
    ck_assert_uint_eq(RES.counts[IODFG_COUNT_EXITS], 1);
    ck_assert_uint_eq(RES.counts[IODFG_COUNT_NOTICES], 1);
    ck_assert_uint_eq(RES.counts[IODFG_COUNT_BLANK], 1);
    ck_assert_uint_eq(N(), 2);
    ck_assert_str_eq(call(0), "restart_syscall");
    ck_assert_str_eq(call(1), "exit_group");
    // exit_group never returns: it has no duration to record, and none is missing
    ck_assert_uint_eq(RES.counts[IODFG_COUNT_NO_DURATION], 0);
    ck_assert_uint_eq(RES.lines, 9);
}
END_TEST

START_TEST(midnight_rollover)
{
    parse("1 23:59:59.900000 read(3</a>, \"\", 1) = 0\n"
          "1 00:00:00.100000 read(3</a>, \"\", 1) = 0\n");
    ck_assert_int_eq(C()->start_ns[1] - C()->start_ns[0], 200000000LL);
}
END_TEST

START_TEST(pread_offsets_and_lseek)
{
    parse("1 pread64(3</f>, \"\\6\\0\"..., 784, 64) = 784\n"
          "1 pwrite64(3</f>, \"ab\", 1048576, 2097152) = 1048576\n"
          "1 lseek(3</f>, 4096, SEEK_SET) = 4096\n"
          "1 mmap(NULL, 8192, PROT_READ, MAP_PRIVATE, -1, 0) = 0x7f0a514e4000\n"
          "1 readv(3</f>, [{iov_base=\"a,b\", iov_len=3}], 1) = 3\n");
    ck_assert_int_eq(C()->offset[0], 64);
    ck_assert_int_eq(C()->req[0], 784);
    ck_assert_int_eq(C()->offset[1], 2097152);
    ck_assert_int_eq(C()->size[1], 1048576);
    ck_assert_int_eq(C()->offset[2], 4096);
    ck_assert_int_eq(C()->size[2], IODFG_UNKNOWN);
    ck_assert_int_eq(C()->size[3], IODFG_UNKNOWN);
    ck_assert_int_eq(C()->size[4], 3);
    ck_assert_int_eq(C()->req[4], IODFG_UNKNOWN);
}
END_TEST

START_TEST(bad_lines_counted_with_position)
{
    parse("this is not strace\n"
          "1 08:00:00.000000 read(3</a>, \"\", 1\n"
          "\x01\x02\xff\xfe junk\n"
          "1 08:00:00.000001 read(3</a>, \"\", 1) = 0 <0.000001>\n"
          "1 08:00:00.000002\n"
          "1 1753944587.753800 read(3</a>, \"\", 1) = 0\n"
          "[pid abc] read()\n");
    ck_assert_uint_eq(N(), 1);
    ck_assert_uint_eq(RES.counts[IODFG_COUNT_UNPARSABLE], 6);
    ck_assert_uint_eq(RES.ndiags, 6);
    ck_assert_uint_eq(RES.diags[0].line, 1);
    ck_assert_ptr_nonnull(strstr(RES.diags[0].msg, "system-call name"));
    ck_assert_uint_eq(RES.diags[1].line, 2);
    ck_assert_ptr_nonnull(strstr(RES.diags[1].msg, "RETURN"));
    ck_assert_uint_eq(RES.diags[3].line, 5);
    ck_assert_uint_eq(RES.diags[4].line, 6);
    ck_assert_ptr_nonnull(strstr(RES.diags[4].msg, "same timestamp format"));
}
END_TEST

START_TEST(last_line_without_newline_and_crlf)
{
    parse("1 read(3</a>, \"\", 1) = 0\r\n1 write(3</a>, \"\", 1) = 1");
    ck_assert_uint_eq(N(), 2);
    ck_assert_int_eq(C()->size[1], 1);
}
END_TEST

START_TEST(notice_inside_a_line)
{
    parse("05:39:01.676360 clone(child_stack=NULL, flags=SIGCHLDstrace: Process 14726 attached\n"
          ", child_tidptr=0x7fd66e36ba10) = 14726 <0.000197>\n"
          "[pid 14726] 05:39:01.676400 read(3</a>, \"\", 1) = 0 <0.000001>\n");
    ck_assert_uint_eq(N(), 2);
    ck_assert_str_eq(call(0), "clone");
    ck_assert_int_eq(C()->dur_ns[0], 197000);
    ck_assert_uint_eq(RES.counts[IODFG_COUNT_NOTICES], 1);
    ck_assert_uint_eq(RES.counts[IODFG_COUNT_UNPARSABLE], 0);
    parse("05:39:01.676360 clone(flags=SIGCHLDstrace: Process 14726 attached\n");
    ck_assert_uint_eq(RES.counts[IODFG_COUNT_UNPARSABLE], 1);
}
END_TEST

START_TEST(huge_line)
{
    size_t n = 1 << 20;
    char *big = malloc(n + 64);
    strcpy(big, "1 write(1</dev/null>, \"");
    size_t o = strlen(big);
    memset(big + o, 'a', n);
    o += n;
    strcpy(big + o, "\", 1048576) = 1048576 <0.5>\n");
    parse(big);
    free(big);
    ck_assert_uint_eq(N(), 1);
    ck_assert_int_eq(C()->size[0], 1048576);
    ck_assert_int_eq(C()->dur_ns[0], 500000000LL);
}
END_TEST

START_TEST(oversized_numbers_rejected)
{
    parse("1 71795325941.000000 read(3</a>, \"\", 1) = 0\n"
          "1 read(3</a>, \"\", 1) = 99999999999999999999999\n"
          "1 read(3</a>, \"\", 1) = 0 <99999999999999999999.5>\n");
    ck_assert_uint_eq(RES.counts[IODFG_COUNT_UNPARSABLE], 3);
    ck_assert_uint_eq(N(), 0);
    ck_assert_uint_eq(RES.counts[IODFG_COUNT_NO_DURATION], 0);
}
END_TEST

/* A return value past 64 bits is named in the message, at its column (issue 38), also after a
 * ") = " inside a string that does not parse as the return; a long one loses its end. */
START_TEST(oversized_return_named)
{
    parse("1 08:00:00.000001 read(3</a>, \"\", 1) = 99999999999999999999999 <0.1>\n"
          "1 08:00:00.000002 write(3</a>, \") = x\", 1) = "
          "-123456789012345678901234567890123456789012 "
          "<0.1>\n"
          "1 08:00:00.000003 read(3</a>, \"\", 1) = 1 <0.1>\n");
    ck_assert_uint_eq(RES.counts[IODFG_COUNT_UNPARSABLE], 2);
    ck_assert_uint_eq(N(), 1);
    ck_assert_uint_eq(RES.diags[0].col, 40);
    ck_assert_str_eq(
        RES.diags[0].msg,
        "the return value 99999999999999999999999 is out of range (more than 64 bits)");
    ck_assert_uint_eq(RES.diags[1].line, 2);
    ck_assert_str_eq(RES.diags[1].msg,
                     "the return value -123456789012345678901234567890123456... is "
                     "out of range (more than 64 bits)");
}
END_TEST

/* A duration or offset that cannot be is an unparsable line named where it is, not an event
 * without a duration or with an unknown offset. */
START_TEST(bad_durations_and_offsets_are_unparsable)
{
    parse("1 08:00:00.000001 read(3</a>, \"\", 1) = 1 <-0.000011>\n"
          "1 08:00:00.000002 read(3</a>, \"\", 1) = 1 <9000000001.000000>\n"
          "1 08:00:00.000003 read(3</a>, \"\", 1) = 1 <1.2.3>\n"
          "1 08:00:00.000004 pread64(3</a>, \"\", 1, 99999999999999999999) = 1 <0.1>\n"
          "1 08:00:00.000005 pread64(3</a>, \"\", 1, -5) = 1 <0.1>\n"
          "1 08:00:00.000006 pread64(3</a>, \"\", 1, -5) = -1 EINVAL (Invalid argument) <0.1>\n"
          "1 08:00:00.000007 pread64(3</a>, \"\", 99999999999999999999, 0) = 1 <0.1>\n"
          "1 08:00:00.000008 read(3</a>, <unfinished ...>\n"
          "1 08:00:00.000009 <... read resumed>\"\", 1) = 1 <-1.5>\n");
    ck_assert_uint_eq(RES.counts[IODFG_COUNT_NO_DURATION], 1); // the unmatched half-call
    ck_assert_uint_eq(RES.counts[IODFG_COUNT_UNPARSABLE], 7);
    ck_assert_uint_eq(RES.diags[0].line, 1);
    ck_assert_uint_eq(RES.diags[0].col, 42);
    ck_assert_str_eq(RES.diags[0].msg, "expected a duration of 0 or more seconds");
    ck_assert_str_eq(RES.diags[1].msg, "expected a duration of at most 9000000000 seconds");
    ck_assert_str_eq(RES.diags[2].msg, "expected a duration in seconds (like <0.000123>)");
    ck_assert_uint_eq(RES.diags[3].line, 4);
    ck_assert_uint_eq(RES.diags[3].col, 41);
    ck_assert_str_eq(RES.diags[3].msg, "expected an offset that fits 63 bits");
    ck_assert_str_eq(RES.diags[4].msg, "expected an offset of 0 or more");
    ck_assert_uint_eq(RES.diags[5].line, 7);
    ck_assert_str_eq(RES.diags[5].msg, "expected a byte count that fits 64 bits");
    ck_assert_uint_eq(RES.diags[6].line, 9);
    // the failed call that was given a negative offset is an event, its offset unknown; the
    // half-call whose resumed half was refused is kept as unmatched
    ck_assert_uint_eq(N(), 2);
    ck_assert_str_eq(errname(0), "EINVAL");
    ck_assert_int_eq(C()->offset[0], IODFG_UNKNOWN);
    ck_assert_uint_eq(RES.counts[IODFG_COUNT_UNMATCHED], 1);
}
END_TEST

/* "<... read resumed> <unfinished ...>": a call resumed and interrupted again is still the one
 * call, merged when it resumes at last. */
START_TEST(resumed_and_unfinished_again)
{
    parse("1 08:00:00.000000 read(3</a>, <unfinished ...>\n"
          "2 08:00:00.000005 write(4</b>, \"x\", 1) = 1 <0.000001>\n"
          "1 08:00:00.000010 <... read resumed> <unfinished ...>\n"
          "1 08:00:00.000020 <... read resumed>\"xy\", 10) = 2 <0.000020>\n");
    ck_assert_uint_eq(RES.counts[IODFG_COUNT_UNPARSABLE], 0);
    ck_assert_uint_eq(RES.counts[IODFG_COUNT_UNMATCHED], 0);
    ck_assert_uint_eq(RES.counts[IODFG_COUNT_MERGED], 1);
    ck_assert_uint_eq(N(), 2);
    ck_assert_str_eq(call(0), "read");
    ck_assert_str_eq(path(0), "/a");
    ck_assert_int_eq(C()->size[0], 2);
    ck_assert_int_eq(C()->req[0], 10);
    ck_assert_int_eq(C()->start_ns[0] % 1000000, 0);
    ck_assert_str_eq(call(1), "write");
}
END_TEST

/* Without timestamps every event starts at 0: a resumed call keeps its place, the line where it
 * began, before the call that completed while it waited. */
START_TEST(equal_starts_keep_line_order)
{
    parse("[pid 1] read(3</a>, <unfinished ...>\n"
          "[pid 2] write(4</b>, \"x\", 1) = 1\n"
          "[pid 1] <... read resumed>\"\", 10) = 0\n"
          "[pid 2] close(4</b>) = 0\n");
    ck_assert_uint_eq(N(), 3);
    ck_assert_int_eq(C()->start_ns[0], C()->start_ns[2]);
    ck_assert_str_eq(call(0), "read");
    ck_assert_str_eq(call(1), "write");
    ck_assert_str_eq(call(2), "close");
}
END_TEST

START_TEST(empty_input)
{
    parse("");
    ck_assert_uint_eq(N(), 0);
    ck_assert_uint_eq(RES.lines, 0);
}
END_TEST

START_TEST(call_table_sorted)
{
    ck_assert_uint_eq(iodfg_strace_call_flags("read", 4), IODFG_CALL_SIZE);
    ck_assert_uint_eq(iodfg_strace_call_flags("openat", 6), IODFG_CALL_OPEN | IODFG_CALL_DIRFD);
    ck_assert_uint_eq(iodfg_strace_call_flags("brk", 3), 0);
    ck_assert_uint_eq(iodfg_strace_call_flags("writev", 6), IODFG_CALL_SIZE);
    ck_assert_uint_eq(iodfg_strace_call_flags("pwritev2", 8), IODFG_CALL_SIZE);
}
END_TEST

static int stop_sink(void *ctx, const struct iodfg_raw_event *ev, struct iodfg_error *err)
{
    (void)ev;
    int *n = ctx;
    if (++*n == 2) {
        return iodfg_error_set(err, IODFG_E_NOMEM, "sink full");
    }
    return 0;
}

START_TEST(sink_can_stop)
{
    const char *t = "1 read(3, \"\", 1) = 0\n1 read(3, \"\", 1) = 0\n1 read(3, \"\", 1) = 0\n";
    int n = 0;
    struct iodfg_error err;
    iodfg_error_clear(&err);
    ck_assert_int_eq(iodfg_strace_parse(t, strlen(t), stop_sink, &n, &RES, &err), -1);
    ck_assert_int_eq(n, 2);
    ck_assert_str_eq(err.msg, "sink full");
}
END_TEST

/* The usual prefix "PID  HH:MM:SS.ffffff " is read eight bytes at a time; every variant the fast
 * path declines must come out of the general path with the same meaning. */
START_TEST(prefix_fast_path_and_fallbacks)
{
    parse("30000  08:55:00.000040 read(5</p/s/test>, \"\\0\"..., 1048576) = 1048576 <0.000896>\n"
          "30000  08:55:00.000050\tread(5</p/s/test>, \"\"..., 10) = 7 <0.000001>\n"
          "30001  08:55:00.000060  write(1</dev/null>, \"ab\", 2) = 2 <1.500000>\n"
          "12345678 08:55:00.000070 close(5</p/s/test>) = 0 <0.000002>\n"
          "08:55:00.000080 lseek(5</p/s/test>, 4096, SEEK_SET) = 4096 <0.000003>\n"
          "30000  08:55:60.000090 read(5</p/s/test>, \"\", 1) = 0 <0.000004>\n"
          "30000  08:55:61.000000 read(5</p/s/test>, \"\", 1) = 0 <0.000004>\n"
          "[pid 30002] 08:55:61.100000 read(5</p/s/test>, \"\", 1) = 0 <0.000004>\n"
          "30000  24:00:00.000000 read(5</p/s/test>, \"\", 1) = 0\n");
    const int64_t base = (8 * 3600 + 55 * 60) * 1000000000LL;
    ck_assert_uint_eq(N(), 6);
    ck_assert_uint_eq(RES.counts[IODFG_COUNT_UNPARSABLE], 3);
    ck_assert_int_eq(RES.clock, IODFG_CLOCK_TIME_OF_DAY);
    ck_assert_int_eq(C()->pid[0], 30000);
    ck_assert_int_eq(C()->start_ns[0], base + 40000);
    ck_assert_int_eq(C()->dur_ns[0], 896000);
    ck_assert_int_eq(C()->size[0], 1048576);
    ck_assert_int_eq(C()->req[0], 1048576);
    ck_assert_int_eq(C()->fd[0], 5);
    ck_assert_str_eq(path(0), "/p/s/test");
    ck_assert_int_eq(C()->start_ns[1], base + 50000); // a tab after the stamp
    ck_assert_int_eq(C()->size[1], 7);
    ck_assert_int_eq(C()->req[1], 10);
    ck_assert_int_eq(C()->pid[2], 30001); // two blanks after the stamp
    ck_assert_int_eq(C()->dur_ns[2], 1500000000LL);
    ck_assert_str_eq(call(2), "write");
    ck_assert_int_eq(C()->pid[3], 12345678); // eight pid digits
    ck_assert_str_eq(call(3), "close");
    ck_assert_int_eq(C()->pid[4], 0); // -ff: no pid column
    ck_assert_int_eq(C()->offset[4], 4096);
    ck_assert_int_eq(C()->start_ns[5], base + 60000000000LL + 90000); // a leap second
    // second 61, "[pid N]" followed by it, and hour 24 are not stamps
    ck_assert_uint_eq(RES.diags[0].line, 7);
    ck_assert_str_eq(RES.diags[0].msg, "expected a blank after the timestamp");
    ck_assert_uint_eq(RES.diags[1].line, 8);
    ck_assert_uint_eq(RES.diags[2].line, 9);
}
END_TEST

/* Durations, return values and the last argument: short digit runs are read as one word, longer
 * ones digit by digit. */
START_TEST(number_fast_paths_and_fallbacks)
{
    parse("1 00:00:01.000000 read(3</a>, \"\", 12345678) = 12345678 <12.000001>\n"
          "1 00:00:02.000000 read(3</a>, \"\", 1) = 99999999999999999 <0.00089>\n"
          "1 00:00:03.000000 read(3</a>, \"\", 1) = 922337203685477580 <0.0008966>\n"
          "1 00:00:04.000000 read(3</a>, \"\", 0x10) = 1 <0.000001>\n"
          "1 00:00:05.000000 read(3</a>, \"\", 1234567) = 1234567\n"
          "1 00:00:06.000000 read(3</a>,\"\",7) = 7 <0.000001>\n"
          "1 00:00:07.000000 read(3</a>, \"\", 123456789012345678901) = -1 EFAULT (Bad address)\n"
          "1 00:00:08.000000 read(3</a>, \"\", 12) = 922337203685477581 <0.000001>\n");
    ck_assert_uint_eq(N(), 7);
    ck_assert_uint_eq(RES.counts[IODFG_COUNT_UNPARSABLE], 1);
    ck_assert_int_eq(C()->req[0], 12345678);
    ck_assert_int_eq(C()->size[0], 12345678);
    ck_assert_int_eq(C()->dur_ns[0], 12000001000LL);
    ck_assert_int_eq(C()->size[1], 99999999999999999LL);
    ck_assert_int_eq(C()->dur_ns[1], 890000);
    ck_assert_int_eq(C()->size[2], 922337203685477580LL);
    ck_assert_int_eq(C()->dur_ns[2], 896600);
    ck_assert_int_eq(C()->req[3], IODFG_UNKNOWN); // "0x10" is no decimal count
    ck_assert_int_eq(C()->req[4], 1234567);
    ck_assert_int_eq(C()->dur_ns[4], IODFG_UNKNOWN);
    ck_assert_int_eq(C()->req[5], 7);
    ck_assert_int_eq(C()->req[6], IODFG_UNKNOWN); // beyond 18 digits
    ck_assert_str_eq(errname(6), "EFAULT");
    ck_assert_int_eq(C()->size[6], IODFG_UNKNOWN);
    ck_assert_uint_eq(RES.diags[0].line, 8);
}
END_TEST

/* The count and offset of pread64/pwrite64 (the last two arguments) and 8 to 15 digit counts
 * are read a word at a time when they are plain numbers after ", "; every other shape gives
 * what the digit-by-digit reading gives. */
START_TEST(count_and_offset_fast_paths)
{
    parse("1 00:00:01.000000 pwrite64(3</a>, \"x\", 512, 123456789) = 512 <0.000001>\n"
          "1 00:00:02.000000 pread64(3</a>, \"a, 5\", 7, 99) = 7 <0.000001>\n"
          "1 00:00:03.000000 pread64(3</a>,\"x\",7,99) = 7 <0.000001>\n"
          "1 00:00:04.000000 pread64(3</a>, \"x\", 123456789012345, 1) = 1 <0.000001>\n"
          "1 00:00:05.000000 pread64(3</a>, \"x\", 12345678, 1234567890123456) = 1 <0.000001>\n"
          "1 00:00:06.000000 pread64(3</a>, \"x\", -7, 99) = -1 EINVAL (Invalid argument)\n"
          "1 00:00:07.000000 pread64(3</a>, x 7, 99) = 7 <0.000001>\n"
          "1 00:00:08.000000 pread64(3</a>, \"x\", 18446744073709551615, 5) = 7 <0.000001>\n"
          "1 00:00:09.000000 pread64(3</a>, \"x\", 7, 00000000000000000099) = 7 <0.000001>\n"
          "1 00:00:10.000000 read(3</a>, \"\", 1234567890) = 5 <0.000001>\n"
          "1 00:00:11.000000 read(12345678) = 1 <0.000001>\n"
          "1 00:00:12.000000 pwrite64(3</a>, \"x\", 7,\t99) = 7 <0.000001>\n"
          "1 00:00:13.000000 pwrite64(3</a>, \"x\", 7, ) = 7 <0.000001>\n"
          "1 00:00:14.000000 pread64(3, \"\", 1, 2) = 0 <0.000001>\n"
          "1 00:00:15.000000 pread64(3</a>, \"x\",  77777777,  88888888) = 7 <0.000001>\n"
          "1 00:00:16.000000 pread64(3</a>, \"x\", 7, 12345678901234567890) = 7 <0.000001>\n"
          "1 00:00:17.000000 pread64(3</a>, \"x\", 7, -99) = 7 <0.000001>\n"
          "1 00:00:18.000000 pread64(3</a>, \"x\", 1-7, 9) = 7 <0.000001>\n"
          "1 00:00:19.000000 pread64(3</a>, \"x\", 7, 9223372036854775807) = 7 <0.000001>\n");
    ck_assert_uint_eq(N(), 17);
    ck_assert_uint_eq(RES.counts[IODFG_COUNT_UNPARSABLE], 2);
    ck_assert_str_eq(RES.diags[0].msg, "expected an offset that fits 63 bits");
    ck_assert_uint_eq(RES.diags[0].line, 16);
    ck_assert_str_eq(RES.diags[1].msg, "expected an offset of 0 or more");
    ck_assert_uint_eq(RES.diags[1].line, 17);
    const int64_t U = IODFG_UNKNOWN;
    const int64_t req[] = {512, 7, 7, 123456789012345LL, 12345678, U, U, U, 7, 1234567890, 12345678,
                           7,   7, 1, 77777777,          U,        7};
    const int64_t off[] = {123456789, 99, 99,       1, 1234567890123456LL,   99, 99, 5, 99, U, U, U,
                           U,         2,  88888888, 9, 9223372036854775807LL};
    for (uint64_t i = 0; i < N(); i++) {
        ck_assert_int_eq(C()->req[i], req[i]);
        ck_assert_int_eq(C()->offset[i], off[i]);
    }
}
END_TEST

/* The tail ") = N <dur>" is read in place; every other shape takes the general search. */
START_TEST(tail_fast_path_and_fallbacks)
{
    parse("1 00:00:01.000000 write(3</a>, \"x = 1 <\", 7) = 7 <0.000001>\n"
          "1 00:00:02.000000 write(3</a>, \"x\", 1)  = 1 <0.000002>\n"
          "1 00:00:03.000000 write(3</a>, \"x\", 1) = 1  <0.000003>\n"
          "1 00:00:04.000000 write(3</a>, \"x\", 1) = 12345678 <0.000004>\n"
          "1 00:00:05.000000 write(3</a>, \"x\", 1) = 0 <0.000005>\n"
          "1 00:00:06.000000 write(3</a>, \"x\", 1) = -1 EBADF (Bad file descriptor) <0.000006>\n"
          "1 00:00:07.000000 dup(3</a>) = 4</a> <0.000007>\n"
          "1 00:00:08.000000 foo(x=1 = 5 <0.000008>\n"
          "1 00:00:09.000000 write(3</a>, \"x\", 1) = 1\n");
    ck_assert_uint_eq(N(), 8);
    ck_assert_uint_eq(RES.counts[IODFG_COUNT_UNPARSABLE], 1);
    ck_assert_uint_eq(RES.diags[0].line, 8);
    ck_assert_int_eq(C()->size[0], 7); // '=' and '<' inside the string do not count
    ck_assert_int_eq(C()->req[0], 7);
    ck_assert_int_eq(C()->dur_ns[0], 1000);
    ck_assert_int_eq(C()->size[1], 1);
    ck_assert_int_eq(C()->req[1], 1);
    ck_assert_int_eq(C()->size[2], 1);
    ck_assert_int_eq(C()->dur_ns[2], 3000);
    ck_assert_int_eq(C()->size[3], 12345678);
    ck_assert_int_eq(C()->size[4], 0);
    ck_assert_int_eq(C()->size[5], IODFG_UNKNOWN);
    ck_assert_str_eq(errname(5), "EBADF");
    ck_assert_int_eq(C()->dur_ns[5], 6000);
    ck_assert_str_eq(call(6), "dup");
    ck_assert_int_eq(C()->dur_ns[6], 7000);
    ck_assert_int_eq(C()->size[7], 1);
    ck_assert_int_eq(C()->dur_ns[7], IODFG_UNKNOWN);
}
END_TEST

/* Call names up to eight bytes are looked up as one word, longer ones by their text. */
START_TEST(call_lookup_by_word_and_text)
{
    parse("1 00:00:01.000000 pwrite64(3</f>, \"ab\", 2, 512) = 2 <0.000001>\n"
          "1 00:00:02.000000 readlinkat(AT_FDCWD</home>, \"x\", \"\", 4096) = -1 ENOENT (No such "
          "file or directory) <0.000001>\n"
          "1 00:00:03.000000 fooread(3</f>, \"ab\", 2) = 2 <0.000001>\n"
          "1 00:00:04.000000 readv(3</f>, [{iov_base=\"ab\", iov_len=2}], 1) = 2 <0.000001>\n"
          "1 00:00:05.000000 read(3</f>, \"ab\", 2) = 2 <0.000001>\n"
          "1 00:00:06.000000 copy_file_range(3</f>, NULL, 4</g>, NULL, 100, 0) = 100 <0.1>\n"
          "1 00:00:07.000000 pwrite64(3</f>, \"ab\", 2, 1024) = 2 <0.000001>\n");
    ck_assert_uint_eq(N(), 7);
    ck_assert_int_eq(C()->size[0], 2);
    ck_assert_int_eq(C()->offset[0], 512);
    ck_assert_int_eq(C()->req[0], 2);
    ck_assert_str_eq(path(1), "/home/x");
    ck_assert_str_eq(errname(1), "ENOENT");
    ck_assert_int_eq(C()->size[2], IODFG_UNKNOWN); // unknown call: no size
    ck_assert_str_eq(call(2), "fooread");
    ck_assert_int_eq(C()->size[3], 2);
    ck_assert_int_eq(C()->req[3], IODFG_UNKNOWN);
    ck_assert_int_eq(C()->size[4], 2);
    ck_assert_int_eq(C()->req[4], 2);
    ck_assert_int_eq(C()->size[5], 100);
    ck_assert_int_eq(C()->req[5], 100);
    ck_assert_int_eq(C()->offset[6], 1024); // the cached entry of the first pwrite64
}
END_TEST

/* Annotations are scanned sixteen bytes at a time for '>', '<' and '\\'; escapes, nesting and
 * short paths go the general way. */
START_TEST(annotation_fast_path_and_fallbacks)
{
    parse("1 00:00:01.000000 read(3</very/long/path/with\\x20space/and/more>, \"\", 1) = 0\n"
          "1 00:00:02.000000 read(3</dev/pts/0<char 136:0>>, \"\", 1) = 0\n"
          "1 00:00:03.000000 read(3</a>, \"\", 1) = 0\n"
          "1 00:00:04.000000 read(3</aaaaaaaaaaaaa>, \"\", 1) = 0\n"
          "1 00:00:05.000000 read(3</aaaaaaaaaaaaaa>, \"\", 1) = 0\n"
          "1 00:00:06.000000 read(3</aaaaaaaaaaaaaaa>, \"\", 1) = 0\n"
          "1 00:00:07.000000 read(3</aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa>, \"\", 1) = 0\n"
          "1 00:00:08.000000 read(3<TCP:[1.2.3.4:5->6.7.8.9:10]>, \"\", 1) = 0\n"
          "1 00:00:09.000000 read(3</a/very/long/path/here/x\\\\y>, \"\", 1) = 0\n");
    ck_assert_uint_eq(N(), 9);
    ck_assert_str_eq(path(0), "/very/long/path/with space/and/more");
    ck_assert_str_eq(path(1), "/dev/pts/0");
    ck_assert_str_eq(path(2), "/a");
    ck_assert_str_eq(path(3), "/aaaaaaaaaaaaa");
    ck_assert_str_eq(path(4), "/aaaaaaaaaaaaaa");
    ck_assert_str_eq(path(5), "/aaaaaaaaaaaaaaa");
    ck_assert_str_eq(path(6), "/aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa");
    ck_assert_str_eq(path(7), "TCP:[1.2.3.4:5->6.7.8.9:10]");
    ck_assert_str_eq(path(8), "/a/very/long/path/here/x\\y");
}
END_TEST

/* The block reader keeps unfinished calls, a line split by a notice and long lines across its
 * blocks (256 KiB): the same events as the whole-buffer parser (checked in parse()). */
START_TEST(stream_across_blocks)
{
    size_t cap = 3u << 20, o = 0;
    char *t = malloc(cap);
    ck_assert_ptr_nonnull(t);
    o +=
        (size_t)sprintf(t + o, "7 00:00:00.000001 write(4</out/file>, \"x\", 1 <unfinished ...>\n");
    for (int i = 0; i < 5000; i++) { // about 450 KB: the resumed half is two blocks later
        o += (size_t)sprintf(t + o, "8 00:00:00.%06d read(3</in>, \"\", 100) = 100 <0.000001>\n",
                             10 + i);
    }
    o += (size_t)sprintf(t + o, "7 00:00:01.000000 <... write resumed>) = 1 <0.999999>\n");
    o += (size_t)sprintf(t + o, "9 00:00:01.000001 rea");
    o += (size_t)sprintf(t + o, "strace: Process 10 attached\n");
    o += (size_t)sprintf(t + o, "d(3</in>, \"\", 5) = 5 <0.000001>\n");
    o += (size_t)sprintf(t + o, "9 00:00:01.000002 write(1</dev/null>, \"");
    memset(t + o, 'a', 600000); // longer than a block
    o += 600000;
    o += (size_t)sprintf(t + o, "\", 600000) = 600000 <0.000001>\n");
    o += (size_t)sprintf(t + o, "11 00:00:01.000003 close(3</in> <unfinished ...>"); // no newline
    t[o] = '\0';
    parse(t);
    free(t);
    ck_assert_uint_eq(N(), 5004);
    ck_assert_uint_eq(RES.counts[IODFG_COUNT_MERGED], 1);
    ck_assert_uint_eq(RES.counts[IODFG_COUNT_UNMATCHED], 1);
    ck_assert_uint_eq(RES.counts[IODFG_COUNT_NOTICES], 1);
    ck_assert_uint_eq(RES.lines, 5006);
    ck_assert_int_eq(C()->pid[0], 7); // the merged write keeps its start and path
    ck_assert_int_eq(C()->start_ns[0], 1000);
    ck_assert_int_eq(C()->dur_ns[0], 999999000);
    ck_assert_int_eq(C()->size[0], 1);
    ck_assert_str_eq(path(0), "/out/file");
    ck_assert_int_eq(C()->req[5001], 5); // the line the notice split
    ck_assert_int_eq(C()->size[5002], 600000);
    ck_assert_str_eq(call(5003), "close"); // unfinished at the end: kept
    ck_assert_int_eq(C()->pid[5003], 11);
}
END_TEST

/* A fork when the descriptor tables are full: the child's copy comes from the parent's table
 * while the table array grows (a use after free before). */
START_TEST(fork_while_tables_grow)
{
    char text[4096];
    size_t o = 0;
    for (int pid = 1; pid <= 8; pid++) {
        o += (size_t)sprintf(text + o, "%d 00:00:0%d.000000 read(3</f%d>, \"\", 1) = 1\n", pid, pid,
                             pid);
    }
    o +=
        (size_t)sprintf(text + o, "1 00:00:09.000000 clone(child_stack=NULL, flags=SIGCHLD) = 200\n"
                                  "200 00:00:09.500000 read(3</f1>, \"\", 1) = 1\n");
    parse(text);
    ck_assert_uint_eq(N(), 10);
    uint32_t h = C()->handle[9];
    ck_assert_uint_ne(h, 0);
    const struct iodfg_handle *hs = iodfg_eventlog_handles(LOG);
    ck_assert_uint_eq(hs[h - 1].origin, IODFG_HANDLE_INHERITED);
    ck_assert_uint_eq(hs[h - 1].parent, C()->handle[0]);
    ck_assert_int_eq(hs[h - 1].pid, 200);
}
END_TEST

/* A read error of the block reader names the cause. */
START_TEST(stream_read_error)
{
    struct iodfg_strace_result r;
    struct iodfg_error err;
    iodfg_error_clear(&err);
    struct record rec = {NULL, 0, 0};
    ck_assert_int_eq(iodfg_strace_parse_fd(-1, record_sink, &rec, NULL, NULL, &r, &err), -1);
    ck_assert_int_eq(err.code, IODFG_E_IO);
    ck_assert_ptr_nonnull(strstr(err.msg, "cannot read"));
    free(rec.buf);
}
END_TEST

/* A line longer than iodfg_strace_line_max, read across blocks, is counted as unparsable at
 * its own line number and skipped to its end; the lines after it parse, and memory stays at
 * about the limit. Also when the file ends inside it. */
START_TEST(stream_long_line_skipped)
{
    const char *first = "1 08:00:00.000001 read(3</p/a>, \"\", 8) = 8 <0.000002>\n";
    const char *last = "1 08:00:00.000010 write(4</p/b>, \"\", 4) = 4 <0.000001>\n";
    size_t nlong = (size_t)3 << 20, nf = strlen(first), nl = strlen(last);
    char *text = malloc(nf + nlong + 1 + nl);
    ck_assert_ptr_nonnull(text);
    memcpy(text, first, nf);
    memset(text + nf, 'x', nlong);
    text[nf + nlong] = '\n';
    memcpy(text + nf + nlong + 1, last, nl);
    iodfg_strace_line_max = (size_t)128 << 10;
    for (int ends_inside = 0; ends_inside < 2; ends_inside++) {
        struct iodfg_strace_result r;
        struct record rec = {NULL, 0, 0};
        parse_file_fd(text, ends_inside ? nf + nlong : nf + nlong + 1 + nl, &r, &rec);
        ck_assert_uint_eq(r.lines, ends_inside ? 2 : 3);
        ck_assert_uint_eq(r.counts[IODFG_COUNT_EVENTS], ends_inside ? 1 : 2);
        ck_assert_uint_eq(r.counts[IODFG_COUNT_UNPARSABLE], 1);
        ck_assert_uint_eq(r.ndiags, 1);
        ck_assert_uint_eq(r.diags[0].line, 2);
        ck_assert_str_eq(r.diags[0].msg, "expected a line of at most 128 KiB, not a longer one");
        // the same events as with a short unparsable line in its place
        char shorter[512];
        int n = snprintf(shorter, sizeof(shorter), "%sjunk\n%s", first, ends_inside ? "" : last);
        struct iodfg_strace_result r2;
        struct record want = {NULL, 0, 0};
        parse_file_fd(shorter, (size_t)n, &r2, &want);
        ck_assert_uint_eq(rec.len, want.len);
        ck_assert_int_eq(memcmp(rec.buf, want.buf, rec.len), 0);
        free(rec.buf);
        free(want.buf);
    }
    free(text);
}
END_TEST

int main(void)
{
    Suite *s = suite_create("strace");
    TCase *f = tcase_create("formats");
    tcase_add_checked_fixture(f, NULL, teardown);
    tcase_add_test(f, paper_tt_format);
    tcase_add_test(f, oversized_return_named);
    tcase_add_test(f, t_seconds_only);
    tcase_add_test(f, ttt_epoch_nanoseconds);
    tcase_add_test(f, relative_accumulates);
    tcase_add_test(f, absolute_plus_relative);
    tcase_add_test(f, no_timestamps_with_pid);
    tcase_add_test(f, midnight_rollover);
    suite_add_tcase(s, f);
    TCase *p = tcase_create("paths");
    tcase_add_checked_fixture(p, NULL, teardown);
    tcase_add_test(p, openat_takes_returned_path);
    tcase_add_test(p, yy_sockets_and_devices);
    tcase_add_test(p, escaped_paths_decoded);
    tcase_add_test(p, pread_offsets_and_lseek);
    tcase_add_test(p, count_and_offset_fast_paths);
    tcase_add_test(p, call_table_sorted);
    suite_add_tcase(s, p);
    TCase *m = tcase_create("lines");
    tcase_add_checked_fixture(m, NULL, teardown);
    tcase_add_test(m, unfinished_resumed_merge);
    tcase_add_test(m, interleaved_pairs_across_pids);
    tcase_add_test(m, unmatched_halves_kept);
    tcase_add_test(m, restarts_signals_exits);
    tcase_add_test(m, bad_lines_counted_with_position);
    tcase_add_test(m, last_line_without_newline_and_crlf);
    tcase_add_test(m, huge_line);
    tcase_add_test(m, notice_inside_a_line);
    tcase_add_test(m, empty_input);
    tcase_add_test(m, oversized_numbers_rejected);
    tcase_add_test(m, bad_durations_and_offsets_are_unparsable);
    tcase_add_test(m, resumed_and_unfinished_again);
    tcase_add_test(m, equal_starts_keep_line_order);
    tcase_add_test(m, sink_can_stop);
    tcase_add_test(m, stream_across_blocks);
    tcase_add_test(m, stream_read_error);
    tcase_add_test(m, stream_long_line_skipped);
    tcase_add_test(m, fork_while_tables_grow);
    TCase *q = tcase_create("fast paths");
    tcase_add_checked_fixture(q, NULL, teardown);
    tcase_add_test(q, prefix_fast_path_and_fallbacks);
    tcase_add_test(q, number_fast_paths_and_fallbacks);
    tcase_add_test(q, call_lookup_by_word_and_text);
    tcase_add_test(q, tail_fast_path_and_fallbacks);
    tcase_add_test(q, annotation_fast_path_and_fallbacks);
    suite_add_tcase(s, q);
    suite_add_tcase(s, m);
    return testutil_run(s);
}
