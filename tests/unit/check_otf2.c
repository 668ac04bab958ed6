/* SPDX-License-Identifier: MIT */
/* Tests of the OTF2 reader: a trace written with the OTF2 writer API (tests/tools/otf2_trace.c:
 * MPI-IO over POSIX with parent handles, a collective and a non-blocking operation, ISO C over
 * a pre-created POSIX handle) read back into cases, events, layers and handles; and the
 * calling-context archives of tests/tools/otf2_ctx.c read back into stacks. */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <check.h>

#include "iodfg/casename.h"
#include "iodfg/error.h"
#include "iodfg/eventlog.h"
#include "iodfg/focus.h"
#include "iodfg/handles.h"
#include "iodfg/ingest.h"
#include "iodfg/otf2.h"
#include "iodfg/stacks.h"
#include "iodfg/strace.h"
#include "iodfg/strpool.h"

#include "../tools/otf2_trace.h"
#include "testutil.h"

static char *dir;
static char anchor[4200];
static struct iodfg_eventlog *L;
static struct iodfg_strace_result R;

static void setup(void)
{
    dir = testutil_tmpdir();
    snprintf(anchor, sizeof(anchor), "%s/traces.otf2", dir);
    ck_assert_int_eq(otf2_trace_write(dir, "traces"), 0);
    struct iodfg_error err;
    iodfg_error_clear(&err);
    L = iodfg_otf2_read(anchor, IODFG_COL_ALL, &R, &err);
    ck_assert_msg(L != NULL, "%s", err.msg);
}

static void teardown(void)
{
    iodfg_eventlog_free(L);
    testutil_rmtree(dir);
    free(dir);
}

static const char *S(uint32_t id)
{
    return iodfg_strpool_get(iodfg_eventlog_pool(L), id);
}

/* call, layer and path of event i */
static const struct iodfg_key *key(uint64_t i)
{
    return &iodfg_eventlog_keys(L)[iodfg_eventlog_columns(L)->key[i]];
}

static const char *layer(uint64_t i)
{
    const char *s = S(key(i)->layer);
    return *s ? s : IODFG_LAYER_DEFAULT;
}

START_TEST(cases_from_locations)
{
    // the idle location has no I/O: two cases, both "Master thread", told apart by group
    ck_assert_uint_eq(iodfg_eventlog_case_count(L), 2);
    const struct iodfg_case_info *c0 = iodfg_eventlog_case(L, 0), *c1 = iodfg_eventlog_case(L, 1);
    ck_assert_str_eq(S(c0->name), "MPI Rank 0/Master thread");
    ck_assert_str_eq(S(c1->name), "MPI Rank 1/Master thread");
    ck_assert_str_eq(S(c0->host), "node1");
    ck_assert_str_eq(S(c0->rid), "0");
    ck_assert_str_eq(S(c1->rid), "1");
    ck_assert_str_eq(S(c0->cid), strrchr(dir, '/') + 1);
    ck_assert_str_eq(S(c0->source), anchor);
    ck_assert_int_eq(c0->clock, IODFG_CLOCK_RELATIVE);
    const uint64_t *off = iodfg_eventlog_case_offsets(L);
    ck_assert_uint_eq(off[1] - off[0], 12);
    ck_assert_uint_eq(off[2] - off[1], 6);
    ck_assert_uint_eq(c0->counts[IODFG_COUNT_UNMATCHED], 1); // the write never completed
    ck_assert_uint_eq(c1->counts[IODFG_COUNT_UNMATCHED], 0);
    ck_assert_uint_eq(R.counts[IODFG_COUNT_EVENTS], 18);
    ck_assert_uint_eq(R.counts[IODFG_COUNT_UNMATCHED], 1);
}
END_TEST

START_TEST(events_of_rank0)
{
    static const struct {
        const char *call, *layer, *path;
        int64_t start_ns, dur_ns, size, req, offset;
    } want[] = {
        {"open64", "POSIX", "/scratch/out.dat", 120000, 0, IODFG_UNKNOWN, IODFG_UNKNOWN,
         IODFG_UNKNOWN},
        {"MPI_File_open", "MPI-IO", "/scratch/out.dat", 140000, 0, IODFG_UNKNOWN, IODFG_UNKNOWN,
         IODFG_UNKNOWN},
        // collective: begin 1210, complete 1290
        {"MPI_File_write_all", "MPI-IO", "/scratch/out.dat", 210000, 80000, 4096, 4096, 0},
        {"lseek64", "POSIX", "/scratch/out.dat", 225000, 0, IODFG_UNKNOWN, IODFG_UNKNOWN, 8192},
        // positional: the offset is Score-P's "Offset" attribute, the position stays 8192
        {"pwrite64", "POSIX", "/scratch/out.dat", 250000, 20000, 4096, 4096, 16384},
        // non-blocking: begun in MPI_File_iread at 1410, completed in MPI_Wait at 1560
        {"MPI_File_iread", "MPI-IO", "/scratch/out.dat", 410000, 150000, 1000, 1024, 4096},
        // no attribute: the followed position
        {"pread64", "POSIX", "/scratch/out.dat", 520000, 20000, 1000, 1024, 8192},
        {"fwrite", "ISOC", "/dev/stdout", 610000, 30000, 12, 12, IODFG_UNKNOWN},
        {"write", "POSIX", "/dev/stdout", 625000, 5000, 12, 12, IODFG_UNKNOWN},
        {"close", "POSIX", "/scratch/out.dat", 720000, 0, IODFG_UNKNOWN, IODFG_UNKNOWN,
         IODFG_UNKNOWN},
        {"MPI_File_close", "MPI-IO", "/scratch/out.dat", 740000, 0, IODFG_UNKNOWN, IODFG_UNKNOWN,
         IODFG_UNKNOWN},
        // no I/O region around it (only the user function main): the operation's name
        {"flush", "POSIX", "/dev/stdout", 800000, 10000, IODFG_UNKNOWN, IODFG_UNKNOWN,
         IODFG_UNKNOWN},
    };
    const struct iodfg_columns *c = iodfg_eventlog_columns(L);
    for (uint64_t i = 0; i < sizeof(want) / sizeof(want[0]); i++) {
        ck_assert_msg(strcmp(S(key(i)->call), want[i].call) == 0, "event %llu: call %s",
                      (unsigned long long)i, S(key(i)->call));
        ck_assert_str_eq(layer(i), want[i].layer);
        ck_assert_str_eq(S(key(i)->path), want[i].path);
        ck_assert_int_eq(c->start_ns[i], want[i].start_ns);
        ck_assert_int_eq(c->dur_ns[i], want[i].dur_ns);
        ck_assert_int_eq(c->size[i], want[i].size);
        ck_assert_int_eq(c->req[i], want[i].req);
        ck_assert_int_eq(c->offset[i], want[i].offset);
        ck_assert_int_eq(c->pid[i], 0);
        ck_assert_uint_eq(c->err[i], IODFG_STR_EMPTY);
    }
    // POSIX keys use the empty layer, like strace input
    ck_assert_uint_eq(key(0)->layer, IODFG_STR_EMPTY);
}
END_TEST

START_TEST(handles_and_parents)
{
    // rank 0: h0 (MPI-IO) is added first as the parent of h1 (POSIX), then h3 before h2
    ck_assert_uint_eq(iodfg_eventlog_handle_count(L), 6);
    const struct iodfg_handle *h = iodfg_eventlog_handles(L);
    const struct iodfg_columns *c = iodfg_eventlog_columns(L);
    ck_assert_str_eq(S(h[0].layer), "MPI-IO");
    ck_assert_uint_eq(h[0].parent, 0);
    ck_assert_uint_eq(h[0].origin, IODFG_HANDLE_OPEN);
    ck_assert_str_eq(S(h[0].call), "MPI_File_open");
    ck_assert_str_eq(S(h[0].flags), "O_RDWR|O_CREAT");
    ck_assert_int_eq(h[0].created_ns, 140000);
    ck_assert_int_eq(h[0].destroyed_ns, 740000);
    ck_assert_uint_eq(h[0].ops, 4);
    ck_assert_uint_eq(h[0].bytes_written, 4096);
    ck_assert_uint_eq(h[0].bytes_read, 1000);

    ck_assert_str_eq(S(h[1].layer), "");
    ck_assert_uint_eq(h[1].parent, 1);
    ck_assert_str_eq(S(h[1].path), "/scratch/out.dat");
    ck_assert_str_eq(S(h[1].call), "open64");
    ck_assert_str_eq(S(h[1].flags), "O_RDWR|O_CREAT|O_TRUNC");
    ck_assert_int_eq(h[1].created_ns, 120000);
    ck_assert_int_eq(h[1].destroyed_ns, 720000);
    ck_assert_uint_eq(h[1].ops, 5); // open, seek, pwrite, pread, close
    ck_assert_uint_eq(h[1].bytes_written, 4096);
    ck_assert_uint_eq(h[1].bytes_read, 1000);
    ck_assert_uint_eq(h[1].case_id, 0);
    ck_assert_int_eq(h[1].fd, IODFG_NO_FD);

    ck_assert_str_eq(S(h[2].path), "/dev/stdout");
    ck_assert_uint_eq(h[2].origin, IODFG_HANDLE_PRECREATED);
    ck_assert_str_eq(S(h[2].flags), "O_WRONLY");
    ck_assert_str_eq(S(h[2].layer), "");
    ck_assert_uint_eq(h[2].ops, 2); // write, flush
    ck_assert_int_eq(h[2].created_ns, IODFG_UNKNOWN);
    ck_assert_int_eq(h[2].destroyed_ns, IODFG_UNKNOWN);
    ck_assert_str_eq(S(h[3].layer), "ISOC");
    ck_assert_uint_eq(h[3].parent, 3);
    ck_assert_uint_eq(h[3].origin, IODFG_HANDLE_PRECREATED);

    // rank 1: its own handles, in its own case
    ck_assert_str_eq(S(h[4].layer), "MPI-IO");
    ck_assert_uint_eq(h[4].case_id, 1);
    ck_assert_uint_eq(h[5].parent, 5);
    ck_assert_uint_eq(h[5].case_id, 1);
    ck_assert_int_eq(h[5].pid, 1);

    // events carry their handle: MPI_File_write_all on h0 (id 1), pwrite64 on h1 (id 2)
    ck_assert_uint_eq(c->handle[2], 1);
    ck_assert_uint_eq(c->handle[4], 2);
    ck_assert_uint_eq(c->handle[7], 4);
    ck_assert_uint_eq(c->handle[12], 5); // rank 1's MPI_File_open
}
END_TEST

START_TEST(ingest_routes_anchor_files)
{
    ck_assert(iodfg_otf2_is_anchor(anchor));
    ck_assert(!iodfg_otf2_is_anchor("a_host_1.st"));
    ck_assert(!iodfg_otf2_is_anchor(".otf2"));
    struct iodfg_error err;
    iodfg_error_clear(&err);
    struct iodfg_casename *names = iodfg_casename_new(NULL, &err);
    ck_assert_ptr_nonnull(names);
    // a directory scan finds the anchor, not the .def/.evt files beside it
    const char *in[] = {dir};
    struct iodfg_input_list files;
    ck_assert_msg(iodfg_ingest_list(in, 1, names, &files, &err) == 0, "%s", err.msg);
    ck_assert_uint_eq(files.n, 1);
    ck_assert_str_eq(files.files[0].path, anchor);
    struct iodfg_ingest_file info;
    struct iodfg_eventlog *log =
        iodfg_ingest_file(&files.files[0], names, IODFG_COL_ALL, &info, &err);
    ck_assert_msg(log != NULL, "%s", err.msg);
    ck_assert_uint_eq(iodfg_eventlog_case_count(log), 2);
    ck_assert_uint_eq(iodfg_eventlog_event_count(log), 18);
    ck_assert_uint_eq(info.result.counts[IODFG_COUNT_EVENTS], 18);
    iodfg_eventlog_free(log);
    iodfg_ingest_list_fini(&files);
    iodfg_casename_free(names);
}
END_TEST

START_TEST(missing_archive)
{
    struct iodfg_error err;
    iodfg_error_clear(&err);
    char path[4300];
    snprintf(path, sizeof(path), "%s/none.otf2", dir);
    ck_assert_ptr_null(iodfg_otf2_read(path, IODFG_COL_ALL, NULL, &err));
    ck_assert_int_eq(err.code, IODFG_E_IO);
    ck_assert_str_eq(err.where, path);
}
END_TEST

/* A Score-P anchor file with one byte changed on which libotf2 loops (for ever, growing): refused
 * in bounded time, as damaged. */
START_TEST(looping_anchor_is_refused)
{
    FILE *in = fopen(testutil_data("otf2/iomix/traces.otf2"), "rb");
    ck_assert_ptr_nonnull(in);
    unsigned char buf[4096];
    size_t n = fread(buf, 1, sizeof(buf), in);
    fclose(in);
    ck_assert_uint_gt(n, 60);
    buf[46] ^= 1; // the machine name's terminating NUL: the fields after it shift
    char path[4300];
    snprintf(path, sizeof(path), "%s/loop.otf2", dir);
    testutil_write_file(path, buf, n);
    struct iodfg_error err;
    iodfg_error_clear(&err);
    ck_assert_ptr_null(iodfg_otf2_read(path, IODFG_COL_ALL, NULL, &err));
    ck_assert_int_eq(err.code, IODFG_E_FORMAT);
    ck_assert_str_eq(err.where, path);
    ck_assert_str_eq(err.msg, "damaged OTF2 archive: libotf2 did not finish loading its anchor "
                              "file in 250 ms of processor time");
}
END_TEST

START_TEST(archive_files_must_be_regular)
{
    char path[4300];
    snprintf(path, sizeof(path), "%s/traces/7.evt", dir);
    ck_assert_int_eq(mkfifo(path, 0600), 0);
    struct iodfg_error err;
    iodfg_error_clear(&err);
    ck_assert_ptr_null(iodfg_otf2_read(anchor, IODFG_COL_ALL, NULL, &err));
    ck_assert_int_eq(err.code, IODFG_E_IO);
    ck_assert_str_eq(err.where, anchor);
    ck_assert_msg(strstr(err.msg, "7.evt of the archive: a FIFO (named pipe), not a regular file"),
                  "%s", err.msg);
    ck_assert_int_eq(unlink(path), 0);
    ck_assert_int_eq(unlink(anchor), 0);
    ck_assert_int_eq(mkfifo(anchor, 0600), 0);
    iodfg_error_clear(&err);
    ck_assert_ptr_null(iodfg_otf2_read(anchor, IODFG_COL_ALL, NULL, &err));
    ck_assert_str_eq(err.msg, "cannot read: a FIFO (named pipe), not a regular file");
}
END_TEST

/* ---- calling context (tests/tools/otf2_ctx.c) ---- */

/* The archive of kind (bad: with malformed context records) read into L and R. */
static void read_ctx(int kind, int bad)
{
    iodfg_eventlog_free(L);
    snprintf(anchor, sizeof(anchor), "%s/ctx%d%d.otf2", dir, kind, bad);
    char name[16];
    snprintf(name, sizeof(name), "ctx%d%d", kind, bad);
    ck_assert_int_eq(otf2_ctx_write(dir, name, kind, bad), 0);
    struct iodfg_error err;
    iodfg_error_clear(&err);
    L = iodfg_otf2_read(anchor, IODFG_COL_ALL, &R, &err);
    ck_assert_msg(L != NULL, "%s", err.msg);
}

/* Stack of event i as "function@object:line ..." (innermost first). */
static void stack_text(uint64_t i, char *out, size_t size)
{
    const struct iodfg_stacks *st = iodfg_eventlog_stacks(L);
    ck_assert_ptr_nonnull(st);
    uint32_t n;
    const uint32_t *ids = iodfg_stacks_get(st, iodfg_eventlog_stack_ids(L)[i], &n);
    size_t len = 0;
    out[0] = 0;
    for (uint32_t k = 0; k < n; k++) {
        const struct iodfg_frame *f = &iodfg_stacks_frames(st)[ids[k] - 1];
        ck_assert_uint_eq(f->flags, IODFG_FRAME_SOURCE);
        len += (size_t)snprintf(out + len, size - len, "%s%s@%s:%llu", k ? " " : "", S(f->function),
                                S(f->object), (unsigned long long)f->address);
    }
}

/* The calls of the 12 events, in order: rank 0's 8, then rank 1's 4. */
static void same_events(void)
{
    static const char *const calls[] = {"open64",   "write",    "write",    "write",
                                        "pwrite64", "pwrite64", "read",     "close",
                                        "open64",   "write",    "pwrite64", "close"};
    ck_assert_uint_eq(iodfg_eventlog_event_count(L), 12);
    ck_assert_uint_eq(iodfg_eventlog_case_count(L), 2);
    for (uint64_t i = 0; i < 12; i++) {
        ck_assert_str_eq(S(key(i)->call), calls[i]);
    }
    ck_assert_int_eq(iodfg_eventlog_columns(L)->size[6], 4096);
}

#define CTX "@/home/user/run/ctx.c:"
/* Expected stacks: functions' first lines (Enter/Leave regions), or the lines of the calls
 * (CallingContext source code locations). */
static const struct {
    int kind;
    uint64_t event;
    const char *stack;
} want_stacks[] = {
    {OTF2_CTX_KIND_REGIONS, 0, "open64@score-p:io:0 main" CTX "50"},
    {OTF2_CTX_KIND_REGIONS, 2, "write@score-p:io:0 write_header" CTX "10 main" CTX "50"},
    {OTF2_CTX_KIND_REGIONS, 6, "read@score-p:io:0 read_back" CTX "30 main" CTX "50"},
    // rank 1's pwrite64
    {OTF2_CTX_KIND_REGIONS, 10, "pwrite64@score-p:io:0 write_payload" CTX "20 main" CTX "50"},
    {OTF2_CTX_KIND_CALLING, 0, "open64@score-p:io:0 main" CTX "52"},
    {OTF2_CTX_KIND_CALLING, 1, "write@score-p:io:0 write_header" CTX "12 main" CTX "53"},
    {OTF2_CTX_KIND_CALLING, 6, "read@score-p:io:0 read_back" CTX "33 main" CTX "55"},
    {OTF2_CTX_KIND_CALLING, 11, "close@score-p:io:0 main" CTX "58"},
};

START_TEST(context_stacks)
{
    int kind = -1;
    for (size_t i = 0; i < sizeof(want_stacks) / sizeof(want_stacks[0]); i++) {
        if (want_stacks[i].kind != kind) {
            kind = want_stacks[i].kind;
            read_ctx(kind, 0);
            same_events();
            ck_assert_uint_eq(R.counts[IODFG_COUNT_UNPARSABLE], 0);
        }
        char buf[512];
        stack_text(want_stacks[i].event, buf, sizeof(buf));
        ck_assert_str_eq(buf, want_stacks[i].stack);
    }
}
END_TEST

/* Region stacks are deduplicated: rank 1's pwrite64 has rank 0's stack; 5 stacks in all. */
START_TEST(region_stacks_shared)
{
    read_ctx(OTF2_CTX_KIND_REGIONS, 0);
    ck_assert_uint_eq(iodfg_eventlog_stack_ids(L)[10], iodfg_eventlog_stack_ids(L)[4]);
    ck_assert_uint_eq(iodfg_stacks_count(iodfg_eventlog_stacks(L)), 5);
}
END_TEST

START_TEST(no_context_no_stacks)
{
    read_ctx(OTF2_CTX_KIND_NONE, 0);
    same_events();
    ck_assert_ptr_null(iodfg_eventlog_stacks(L));
    ck_assert_uint_eq(R.counts[IODFG_COUNT_UNPARSABLE], 0);
}
END_TEST

START_TEST(malformed_context_is_counted)
{
    read_ctx(OTF2_CTX_KIND_CALLING, 1);
    same_events();
    ck_assert_uint_eq(R.counts[IODFG_COUNT_UNPARSABLE], 2);
    ck_assert_uint_eq(R.ndiags, 2);
    ck_assert_str_eq(R.diags[0].msg,
                     "location 0: CallingContextEnter of calling context 99, not defined");
    ck_assert_str_eq(R.diags[1].msg, "location 0: CallingContextLeave of calling context 12 "
                                     "without its CallingContextEnter");
    ck_assert_uint_eq(iodfg_eventlog_case(L, 0)->counts[IODFG_COUNT_UNPARSABLE], 2);
    // the read after them has its own context still; its parent chain loops: cut at 256 frames
    uint32_t n;
    const uint32_t *ids =
        iodfg_stacks_get(iodfg_eventlog_stacks(L), iodfg_eventlog_stack_ids(L)[6], &n);
    ck_assert_uint_eq(n, 256);
    const struct iodfg_frame *fr = iodfg_stacks_frames(iodfg_eventlog_stacks(L));
    ck_assert_str_eq(S(fr[ids[1] - 1].function), "read_back");
    ck_assert_uint_eq(fr[ids[1] - 1].address, 33);
    ck_assert_str_eq(S(fr[ids[2] - 1].function), "main");
    ck_assert_str_eq(S(fr[ids[3] - 1].function), "read_back");
    char buf[512];
    read_ctx(OTF2_CTX_KIND_REGIONS, 1);
    same_events();
    ck_assert_uint_eq(R.counts[IODFG_COUNT_UNPARSABLE], 1);
    ck_assert_str_eq(R.diags[0].msg, "location 0: Leave of region 3 without its Enter");
    stack_text(6, buf, sizeof(buf));
    ck_assert_str_eq(buf, "read@score-p:io:0 read_back" CTX "30 main" CTX "50");
}
END_TEST

/* focus.rules: Score-P's wrappers, MPI and measurement frames are the runtime's ("score-p"); the
 * program's functions (a source file, or user, compiler, sampling) are the application's. */
START_TEST(focus_classes_of_frames)
{
    struct iodfg_error err;
    iodfg_error_clear(&err);
    struct iodfg_focus *f = iodfg_focus_new(NULL, 0, NULL, &err);
    ck_assert_ptr_nonnull(f);
    static const struct {
        const char *object, *cls;
    } want[] = {{"score-p:io", "score-p"},
                {"score-p:mpi", "score-p"},
                {"score-p:measurement", "score-p"},
                {"score-p:pthread", "score-p"},
                {"score-p:user", "app"},
                {"score-p:compiler", "app"},
                {"score-p:sampling", "app"},
                {"/home/user/run/ctx.c", "app"}};
    for (size_t i = 0; i < sizeof(want) / sizeof(want[0]); i++) {
        char name[IODFG_FOCUS_NAME_MAX];
        int app = iodfg_focus_classify_object(f, want[i].object, name, sizeof(name), &err);
        ck_assert_msg(app == (strcmp(want[i].cls, "app") == 0), "%s", want[i].object);
        ck_assert_str_eq(name, want[i].cls);
    }
    iodfg_focus_free(f);
}
END_TEST

static Suite *suite(void)
{
    Suite *s = suite_create("otf2");
    TCase *tc = tcase_create("read");
    tcase_add_checked_fixture(tc, setup, teardown);
    tcase_add_test(tc, cases_from_locations);
    tcase_add_test(tc, events_of_rank0);
    tcase_add_test(tc, handles_and_parents);
    tcase_add_test(tc, ingest_routes_anchor_files);
    tcase_add_test(tc, missing_archive);
    tcase_add_test(tc, looping_anchor_is_refused);
    tcase_add_test(tc, archive_files_must_be_regular);
    tcase_add_test(tc, context_stacks);
    tcase_add_test(tc, region_stacks_shared);
    tcase_add_test(tc, no_context_no_stacks);
    tcase_add_test(tc, malformed_context_is_counted);
    tcase_add_test(tc, focus_classes_of_frames);
    suite_add_tcase(s, tc);
    return s;
}

int main(void)
{
    return testutil_run(suite());
}
