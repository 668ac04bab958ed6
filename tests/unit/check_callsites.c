/* SPDX-License-Identifier: MIT */
/* Call sites from strace -k stacks: frame lines parsed and attached to their events (also
 * across unfinished/resumed pairs, exits and signals), bad frame lines counted, the log's stack
 * table (dedup, sort, append), the HDF5 round trip, and the innermost frame of the program. */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include <check.h>
#include <hdf5.h>
#include <xxhash.h>

#include "iodfg/callsites.h"
#include "iodfg/buf.h"
#include "iodfg/error.h"
#include "iodfg/eventlog.h"
#include "iodfg/filter.h"
#include "iodfg/focus.h"
#include "iodfg/insights.h"
#include "iodfg/mapping.h"
#include "iodfg/report.h"
#include "iodfg/report_json.h"
#include "iodfg/report_table.h"
#include "iodfg/rules.h"
#include "iodfg/session.h"
#include "iodfg/srcline.h"
#include "iodfg/stacks.h"
#include "iodfg/store.h"
#include "iodfg/strace.h"
#include "iodfg/strpool.h"

#include "testutil.h"

#define LIBC " > /usr/lib/x86_64-linux-gnu/libc.so.6(__write+0x4f) [0xf838f]\n"
#define START " > /usr/lib/x86_64-linux-gnu/libc.so.6(__libc_start_main+0x85) [0x27305]\n"

/* A log of one case parsed from text with the stack sink; res filled. */
static struct iodfg_eventlog *parse(const char *text, struct iodfg_strace_result *res)
{
    struct iodfg_eventlog *log = iodfg_eventlog_new(IODFG_COL_ALL);
    ck_assert_ptr_nonnull(log);
    struct iodfg_case_info info;
    memset(&info, 0, sizeof(info));
    struct iodfg_error err;
    ck_assert_int_eq(iodfg_eventlog_begin_case(log, &info, &err), 0);
    ck_assert_int_eq(iodfg_strace_parse_frames(text, strlen(text), iodfg_strace_sink_eventlog,
                                               iodfg_strace_frame_eventlog, log, res, &err),
                     0);
    ck_assert_int_eq(iodfg_eventlog_end_case(log, &err), 0);
    return log;
}

/* The functions of event e's stack, innermost first, joined by ',' ("" for none). */
static const char *stack_text(const struct iodfg_eventlog *log, uint64_t e)
{
    static char buf[512];
    buf[0] = '\0';
    const uint32_t *ids = iodfg_eventlog_stack_ids(log);
    const struct iodfg_stacks *st = iodfg_eventlog_stacks(log);
    uint32_t n = 0;
    const uint32_t *fr = ids ? iodfg_stacks_get(st, ids[e], &n) : NULL;
    const struct iodfg_strpool *pool = iodfg_eventlog_pool(log);
    for (uint32_t i = 0; i < n; i++) {
        const struct iodfg_frame *f = &iodfg_stacks_frames(st)[fr[i] - 1];
        strcat(buf, i ? "," : "");
        strcat(buf, iodfg_strpool_get(pool, f->function));
    }
    return buf;
}

START_TEST(frame_forms)
{
    struct iodfg_strace_result r;
    struct iodfg_eventlog *log = parse("write(1, \"x\", 1) = 1 <0.000001>\n" LIBC
                                       " > /tmp/prog(write_header+0x40) [0x1239]\n"
                                       " > /tmp/prog() [0x60c4]\n"
                                       " > backtracing_error [0x7f00aa]\n"
                                       " > unexpected_backtracing_error\n",
                                       &r);
    ck_assert_uint_eq(r.counts[IODFG_COUNT_EVENTS], 1);
    ck_assert_uint_eq(r.counts[IODFG_COUNT_UNPARSABLE], 0);
    ck_assert_uint_eq(r.frames, 5);
    const struct iodfg_stacks *st = iodfg_eventlog_stacks(log);
    ck_assert_ptr_nonnull(st);
    ck_assert_uint_eq(iodfg_stacks_count(st), 1);
    ck_assert_uint_eq(iodfg_stacks_frame_count(st), 5);
    const struct iodfg_frame *f = iodfg_stacks_frames(st);
    const struct iodfg_strpool *pool = iodfg_eventlog_pool(log);
    ck_assert_str_eq(iodfg_strpool_get(pool, f[1].object), "/tmp/prog");
    ck_assert_str_eq(iodfg_strpool_get(pool, f[1].function), "write_header");
    ck_assert_uint_eq(f[1].offset, 0x40);
    ck_assert_uint_eq(f[1].address, 0x1239);
    ck_assert_uint_eq(f[2].flags, IODFG_FRAME_NO_SYMBOL);
    ck_assert_str_eq(iodfg_strpool_get(pool, f[2].function), "");
    ck_assert_uint_eq(f[2].address, 0x60c4);
    ck_assert_uint_eq(f[3].flags, IODFG_FRAME_ERROR);
    ck_assert_str_eq(iodfg_strpool_get(pool, f[3].function), "backtracing_error");
    ck_assert_uint_eq(f[3].address, 0x7f00aa);
    ck_assert_str_eq(iodfg_strpool_get(pool, f[4].function), "unexpected_backtracing_error");
    iodfg_eventlog_free(log);
}
END_TEST

/* A C++ name holds parentheses and '+': the last "+0x" ends the function. */
START_TEST(frame_cxx_name)
{
    struct iodfg_strace_result r;
    struct iodfg_eventlog *log =
        parse("write(1, \"x\", 1) = 1\n > /tmp/p(ns::f(int, char*)+0x12) [0x99]\n", &r);
    ck_assert_uint_eq(r.counts[IODFG_COUNT_UNPARSABLE], 0);
    ck_assert_str_eq(stack_text(log, 0), "ns::f(int, char*)");
    iodfg_eventlog_free(log);
}
END_TEST

START_TEST(bad_frames_counted)
{
    struct iodfg_strace_result r;
    struct iodfg_eventlog *log =
        parse(LIBC                                                     // orphan: nothing above it
              "write(1, \"x\", 1) = 1\n" LIBC " > /tmp/prog(main+0x\n" // truncated
              " > /tmp/prog(main+0x20) [0xzz]\n"                       // bad address
              " > /tmp/prog(main+0x20) [0x1300]\n"
              "write(1, \"x\", 1 <unfinished ...>\n" LIBC, // after no end
              &r);
    ck_assert_uint_eq(r.counts[IODFG_COUNT_EVENTS], 2);
    ck_assert_uint_eq(r.counts[IODFG_COUNT_UNPARSABLE], 4);
    ck_assert_uint_eq(r.frames, 2);
    ck_assert_uint_ge(r.ndiags, 4);
    ck_assert_uint_eq(r.diags[0].line, 1);
    ck_assert_str_eq(r.diags[0].msg, "expected a call above this stack frame line");
    ck_assert_uint_eq(r.diags[1].line, 4);
    ck_assert_uint_eq(r.diags[3].line, 8);
    // the bad lines shift nothing: the first write keeps __write and main
    ck_assert_str_eq(stack_text(log, 0), "__write,main");
    ck_assert_str_eq(stack_text(log, 1), "");
    iodfg_eventlog_free(log);
}
END_TEST

/* -f: an unfinished call, another pid's call with its stack, then the resumed half with its own;
 * the merged call starts first, so sorting moves it (and its stack) before the other. */
START_TEST(interleaved_pids)
{
    struct iodfg_strace_result r;
    struct iodfg_eventlog *log =
        parse("10 12:00:00.000001 write(3</a>, \"x\", 1 <unfinished ...>\n"
              "11 12:00:00.000002 write(4</b>, \"yy\", 2) = 2 <0.000001>\n" LIBC
              " > /tmp/p(second+0x1) [0x200]\n"
              "[pid 10] 12:00:00.000003 <... write resumed>) = 1 <0.000002>\n" LIBC
              " > /tmp/p(first+0x1) [0x100]\n",
              &r);
    ck_assert_uint_eq(r.counts[IODFG_COUNT_EVENTS], 2);
    ck_assert_uint_eq(r.counts[IODFG_COUNT_UNPARSABLE], 0);
    const struct iodfg_columns *c = iodfg_eventlog_columns(log);
    ck_assert_int_eq(c->pid[0], 10);
    ck_assert_str_eq(stack_text(log, 0), "__write,first");
    ck_assert_int_eq(c->pid[1], 11);
    ck_assert_str_eq(stack_text(log, 1), "__write,second");
    iodfg_eventlog_free(log);
}
END_TEST

/* A call that never returns gets its stack after its process's exit line, maybe later; a
 * signal's stack is counted but belongs to no event. */
START_TEST(exit_and_signal_stacks)
{
    struct iodfg_strace_result r;
    struct iodfg_eventlog *log =
        parse("10 exit_group(0) = ?\n"
              "11 write(1, \"x\", 1) = 1\n" LIBC "10 +++ exited with 0 +++\n"
              " > /usr/lib/x86_64-linux-gnu/libc.so.6(_exit+0x29) [0xd4409]\n"
              " > /tmp/p(main+0x1) [0x100]\n"
              "11 --- SIGCHLD {si_signo=SIGCHLD} ---\n" LIBC START,
              &r);
    ck_assert_uint_eq(r.counts[IODFG_COUNT_UNPARSABLE], 0);
    ck_assert_uint_eq(r.frames, 5);
    ck_assert_str_eq(stack_text(log, 0), "_exit,main");
    ck_assert_str_eq(stack_text(log, 1), "__write");
    iodfg_eventlog_free(log);
}
END_TEST

START_TEST(stacks_deduplicated)
{
    struct iodfg_strace_result r;
    struct iodfg_eventlog *log =
        parse("write(1, \"x\", 1) = 1\n" LIBC START "write(1, \"x\", 1) = 1\n" LIBC START
              "write(1, \"x\", 1) = 1\n" LIBC "read(0, \"\", 1) = 0\n",
              &r);
    const struct iodfg_stacks *st = iodfg_eventlog_stacks(log);
    ck_assert_uint_eq(iodfg_stacks_count(st), 2);
    ck_assert_uint_eq(iodfg_stacks_frame_count(st), 2);
    const uint32_t *ids = iodfg_eventlog_stack_ids(log);
    ck_assert_uint_eq(ids[0], ids[1]);
    ck_assert_uint_ne(ids[0], ids[2]);
    ck_assert_uint_eq(ids[3], 0);
    iodfg_eventlog_free(log);
}
END_TEST

/* Without -k: no table, no column. */
START_TEST(no_stacks_no_table)
{
    struct iodfg_strace_result r;
    struct iodfg_eventlog *log = parse("write(1, \"x\", 1) = 1\n", &r);
    ck_assert_ptr_null(iodfg_eventlog_stacks(log));
    ck_assert_ptr_null(iodfg_eventlog_stack_ids(log));
    iodfg_eventlog_free(log);
}
END_TEST

START_TEST(append_remaps)
{
    struct iodfg_strace_result r;
    struct iodfg_eventlog *plain = parse("read(0, \"\", 1) = 0\n", &r);
    struct iodfg_eventlog *a = parse("write(1, \"x\", 1) = 1\n" LIBC " > /p(f+0x1) [0x1]\n", &r);
    struct iodfg_eventlog *b = parse("write(1, \"x\", 1) = 1\n > /q(g+0x1) [0x2]\n" LIBC, &r);
    struct iodfg_eventlog *all = iodfg_eventlog_new(IODFG_COL_ALL);
    struct iodfg_error err;
    ck_assert_int_eq(iodfg_eventlog_append(all, plain, &err), 0);
    ck_assert_int_eq(iodfg_eventlog_append(all, a, &err), 0);
    ck_assert_int_eq(iodfg_eventlog_append(all, b, &err), 0);
    ck_assert_int_eq(iodfg_eventlog_append(all, a, &err), 0);
    ck_assert_str_eq(stack_text(all, 0), "");
    ck_assert_str_eq(stack_text(all, 1), "__write,f");
    ck_assert_str_eq(stack_text(all, 2), "g,__write");
    ck_assert_str_eq(stack_text(all, 3), "__write,f");
    ck_assert_uint_eq(iodfg_stacks_count(iodfg_eventlog_stacks(all)), 2);
    ck_assert_uint_eq(iodfg_stacks_frame_count(iodfg_eventlog_stacks(all)), 3);
    iodfg_eventlog_free(plain);
    iodfg_eventlog_free(a);
    iodfg_eventlog_free(b);
    iodfg_eventlog_free(all);
}
END_TEST

/* Written and loaded back: the same stacks per event; a first log without stacks gets none. */
START_TEST(store_round_trip)
{
    testutil_fixture_begin("s.h5");
    struct iodfg_strace_result r;
    struct iodfg_eventlog *plain = parse("read(0, \"\", 1) = 0\nread(0, \"\", 1) = 0\n", &r);
    struct iodfg_eventlog *a = parse("write(1, \"x\", 1) = 1\n" LIBC " > /p(f+0x1) [0x1]\n"
                                     "write(1, \"x\", 1) = 1\n > /p() [0x7]\n",
                                     &r);
    struct iodfg_error err;
    struct iodfg_store_writer *w = iodfg_store_create(testutil_fixture_path, 0, &err);
    ck_assert_ptr_nonnull(w);
    ck_assert_int_eq(iodfg_store_write_cases(w, plain, &err), 0);
    ck_assert_int_eq(iodfg_store_write_cases(w, a, &err), 0);
    ck_assert_int_eq(iodfg_store_commit(w, &err), 0);
    struct iodfg_eventlog *back =
        iodfg_store_load(testutil_fixture_path, IODFG_COL_ALL | IODFG_COL_STACKS, NULL, NULL, &err);
    ck_assert_msg(back != NULL, "%s", err.msg);
    ck_assert_str_eq(stack_text(back, 0), "");
    ck_assert_str_eq(stack_text(back, 1), "");
    ck_assert_str_eq(stack_text(back, 2), "__write,f");
    ck_assert_str_eq(stack_text(back, 3), "");
    const struct iodfg_stacks *st = iodfg_eventlog_stacks(back);
    uint32_t n;
    const uint32_t *fr = iodfg_stacks_get(st, iodfg_eventlog_stack_ids(back)[3], &n);
    ck_assert_uint_eq(n, 1);
    ck_assert_uint_eq(iodfg_stacks_frames(st)[fr[0] - 1].flags, IODFG_FRAME_NO_SYMBOL);
    ck_assert_uint_eq(iodfg_stacks_frames(st)[fr[0] - 1].address, 7);
    struct iodfg_eventlog *part = iodfg_store_load_cases(
        testutil_fixture_path, IODFG_COL_ALL | IODFG_COL_STACKS, 1, 1, NULL, NULL, &err);
    ck_assert_ptr_nonnull(part);
    ck_assert_str_eq(stack_text(part, 0), "__write,f");
    struct iodfg_eventlog *bare =
        iodfg_store_load(testutil_fixture_path, IODFG_COL_ALL, NULL, NULL, &err);
    ck_assert_ptr_null(iodfg_eventlog_stacks(bare));
    unsigned version = 0;
    uint64_t cases, events;
    ck_assert_int_eq(iodfg_store_stat(testutil_fixture_path, &cases, &events, &version, &err), 0);
    ck_assert_uint_eq(events, 4);
    iodfg_eventlog_free(back);
    iodfg_eventlog_free(part);
    iodfg_eventlog_free(bare);
    iodfg_eventlog_free(plain);
    iodfg_eventlog_free(a);
    testutil_fixture_end();
}
END_TEST

/* Overwrite value i of the uint32 dataset name of file path. */
static void poke(const char *path, const char *name, uint64_t i, uint32_t v)
{
    hid_t f = H5Fopen(path, H5F_ACC_RDWR, H5P_DEFAULT);
    hid_t d = H5Dopen2(f, name, H5P_DEFAULT);
    hid_t sp = H5Dget_space(d);
    hsize_t n = 0;
    H5Sget_simple_extent_dims(sp, &n, NULL);
    uint32_t *all = calloc(n + 1, sizeof(*all));
    ck_assert_int_ge(H5Dread(d, H5T_NATIVE_UINT32, H5S_ALL, H5S_ALL, H5P_DEFAULT, all), 0);
    all[i] = v;
    ck_assert_int_ge(H5Dwrite(d, H5T_NATIVE_UINT32, H5S_ALL, H5S_ALL, H5P_DEFAULT, all), 0);
    free(all);
    H5Sclose(sp);
    H5Dclose(d);
    H5Fclose(f);
}

/* A damaged /stacks is refused with a message, never loaded: a value that does not match its
 * checksum; and the tables' own checks: an event naming a stack that does not exist, a stack
 * naming no frame, offsets that do not increase. The log loads without its stacks. */
START_TEST(damaged_stacks_refused)
{
    testutil_fixture_begin("d.h5");
    struct iodfg_strace_result r;
    struct iodfg_eventlog *a = parse("write(1, \"x\", 1) = 1\n" LIBC " > /p(f+0x1) [0x1]\n", &r);
    struct iodfg_error err;
    struct iodfg_store_writer *w = iodfg_store_create(testutil_fixture_path, 0, &err);
    ck_assert_int_eq(iodfg_store_write_cases(w, a, &err), 0);
    ck_assert_int_eq(iodfg_store_commit(w, &err), 0);
    iodfg_eventlog_free(a);
    const unsigned cols = IODFG_COL_ALL | IODFG_COL_STACKS;
    poke(testutil_fixture_path, "stacks/event_stack", 0, 7);
    iodfg_error_clear(&err);
    ck_assert_ptr_null(iodfg_store_load(testutil_fixture_path, cols, NULL, NULL, &err));
    ck_assert_msg(strstr(err.msg, "stacks/event_stack does not match its checksum"), "%s", err.msg);
    ck_assert_int_eq(H5Fget_obj_count(H5F_OBJ_ALL, H5F_OBJ_ALL), 0); // the loader closed all
    // what the checksums cannot catch, the tables' own checks do
    struct iodfg_frame fr = {0, 0, 0, 0, 1};
    const uint64_t off[2] = {0, 1};
    const uint32_t bad_ids[1] = {2};
    iodfg_error_clear(&err);
    ck_assert_ptr_null(iodfg_stacks_from_raw(&fr, 1, off, bad_ids, 1, &err));
    ck_assert_str_eq(err.msg, "a stack names a frame that does not exist");
    const uint64_t back[2] = {1, 1};
    iodfg_error_clear(&err);
    ck_assert_ptr_null(iodfg_stacks_from_raw(&fr, 1, back, bad_ids, 1, &err));
    ck_assert_str_eq(err.msg, "stack offsets do not increase");
    struct iodfg_eventlog *one = parse("write(1, \"x\", 1) = 1\n", &r);
    const uint32_t good_ids[1] = {1};
    uint32_t *ids = malloc(sizeof(*ids));
    ids[0] = 2; // stack 2 of a table of one
    iodfg_error_clear(&err);
    ck_assert_int_eq(iodfg_eventlog_adopt_stacks(
                         one, iodfg_stacks_from_raw(&fr, 1, off, good_ids, 1, &err), ids, &err),
                     -1);
    ck_assert_str_eq(err.msg, "an event names a stack that does not exist");
    ck_assert_ptr_null(iodfg_eventlog_stacks(one));
    iodfg_eventlog_free(one);
    // without the stacks asked for, the log still loads
    iodfg_error_clear(&err);
    struct iodfg_eventlog *bare =
        iodfg_store_load(testutil_fixture_path, IODFG_COL_ALL, NULL, NULL, &err);
    ck_assert_ptr_nonnull(bare);
    iodfg_eventlog_free(bare);
    testutil_fixture_end();
}
END_TEST

/* The innermost frame in an object of the application's class; libc, the loader and unwinder
 * messages are passed over; a stack of libc only has no site. Counts by (activity, site). */
START_TEST(sites_counted)
{
    struct iodfg_strace_result r;
    struct iodfg_eventlog *log =
        parse("write(3</d/f>, \"x\", 64) = 64 <0.000002>\n" LIBC " > backtracing_error [0x1]\n"
              " > /home/u/prog(write_header+0x40) [0x1239]\n"
              " > /home/u/prog(main+0x1) [0x1400]\n" START
              "write(3</d/f>, \"x\", 64) = 64 <0.000003>\n" LIBC
              " > /home/u/prog(write_header+0x40) [0x1239]\n"
              " > /home/u/prog(main+0x1) [0x1400]\n" START
              "write(3</d/f>, \"x\", 9) = 9 <0.000001>\n" LIBC
              " > /home/u/lib/libmine.so(log_it+0x3) [0x33]\n"
              " > /home/u/prog(main+0x2) [0x1401]\n"
              "write(3</d/f>, \"x\", 1) = 1\n" LIBC
              " > /opt/openmpi/lib/libmpi.so.40(MPI_File_write+0x10) [0x99]\n"
              " > /opt/hdf5/lib/libhdf5.so.310(H5Dwrite+0x10) [0x98]\n" START
              "write(3</d/f>, \"x\", 1) = 1\n",
              &r);
    struct iodfg_error err;
    struct iodfg_focus *f = iodfg_focus_new(NULL, 0, NULL, &err);
    ck_assert_ptr_nonnull(f);
    uint32_t *site = NULL;
    ck_assert_int_eq(iodfg_callsites_resolve(f, log, &site, &err), 0);
    ck_assert_ptr_nonnull(site);
    struct iodfg_rules *rs = iodfg_rules_new();
    struct iodfg_mapping m;
    ck_assert_int_eq(iodfg_mapping_init(&m, &err), 0);
    ck_assert_int_eq(iodfg_rules_apply(rs, log, NULL, &m, NULL, &err), 0);
    struct iodfg_selection sel;
    iodfg_selection_all(&sel);
    struct iodfg_callsites cs;
    iodfg_callsites_init(&cs);
    ck_assert_int_eq(iodfg_callsites_build(&cs, log, &m, &sel, site, &err), 0);
    ck_assert_uint_eq(cs.events, 5);
    ck_assert_uint_eq(cs.with_stack, 4);
    ck_assert_uint_eq(cs.with_site, 3);
    ck_assert_uint_eq(cs.nrows, 4);
    const struct iodfg_strpool *pool = iodfg_eventlog_pool(log);
    const struct iodfg_frame *fr = iodfg_stacks_frames(iodfg_eventlog_stacks(log));
    // ranked by time: write_header (5 us), log_it in the user's own library (1 us), then none
    ck_assert_str_eq(iodfg_strpool_get(pool, fr[cs.rows[0].site - 1].function), "write_header");
    ck_assert_uint_eq(cs.rows[0].calls, 2);
    ck_assert_int_eq(cs.rows[0].bytes, 128);
    ck_assert_int_eq(cs.rows[0].dur_ns, 5000);
    ck_assert_uint_eq(cs.rows[0].cases, 1);
    ck_assert_str_eq(iodfg_strpool_get(pool, fr[cs.rows[1].site - 1].function), "log_it");
    ck_assert_uint_eq(cs.rows[2].calls + cs.rows[3].calls, 2);
    int runtime =
        cs.rows[2].site == IODFG_CALLSITE_RUNTIME || cs.rows[3].site == IODFG_CALLSITE_RUNTIME;
    int none = cs.rows[2].site == 0 || cs.rows[3].site == 0;
    ck_assert(runtime && none);
    iodfg_callsites_fini(&cs);
    iodfg_mapping_fini(&m);
    iodfg_rules_free(rs);
    free(site);
    iodfg_focus_free(f);
    iodfg_eventlog_free(log);
}
END_TEST

/* Keys split by site: a rule on `site` separates one (call, path) by the code that issued it,
 * a filter keeps one site, the default mapping does not change. */
START_TEST(site_field_splits)
{
    struct iodfg_strace_result r;
    struct iodfg_eventlog *log = parse(
        "write(3</d/f>, \"x\", 64) = 64\n" LIBC " > /home/u/prog(write_header+0x40) [0x1239]\n"
        "write(3</d/f>, \"x\", 64) = 64\n" LIBC " > /home/u/prog(write_payload+0x40) [0x1339]\n"
        "write(3</d/f>, \"x\", 64) = 64\n" LIBC "write(3</d/f>, \"x\", 64) = 64\n",
        &r);
    struct iodfg_error err;
    struct iodfg_focus *f = iodfg_focus_new(NULL, 0, NULL, &err);
    ck_assert_uint_eq(iodfg_eventlog_key_count(log), 1);
    ck_assert_int_eq(iodfg_callsites_split_keys(f, log, &err), 0);
    ck_assert_uint_eq(iodfg_eventlog_key_count(log), 3);
    const struct iodfg_columns *c = iodfg_eventlog_columns(log);
    ck_assert_uint_ne(c->key[0], c->key[1]);
    ck_assert_uint_eq(c->key[2], c->key[3]); // libc only, and no stack: the key without a site
    const struct iodfg_strpool *pool = iodfg_eventlog_pool(log);
    ck_assert_str_eq(iodfg_strpool_get(pool, iodfg_eventlog_keys(log)[c->key[1]].site),
                     "write_payload");
    struct iodfg_rules *rs = iodfg_rules_new();
    const char *text = "map site ~ ^write_header$ => header-writes\n"
                       "map call = write => {call}:{site}\n";
    ck_assert_int_eq(iodfg_rules_compile(rs, text, strlen(text), "t", &err), 0);
    struct iodfg_mapping m;
    ck_assert_int_eq(iodfg_mapping_init(&m, &err), 0);
    ck_assert_int_eq(iodfg_rules_apply(rs, log, NULL, &m, NULL, &err), 0);
    ck_assert_str_eq(iodfg_mapping_name(&m, m.activity_of_key[c->key[0]]), "header-writes");
    ck_assert_str_eq(iodfg_mapping_name(&m, m.activity_of_key[c->key[1]]), "write:write_payload");
    ck_assert_str_eq(iodfg_mapping_name(&m, m.activity_of_key[c->key[2]]), "write:");
    struct iodfg_rules *def = iodfg_rules_new();
    struct iodfg_mapping d;
    ck_assert_int_eq(iodfg_mapping_init(&d, &err), 0);
    ck_assert_int_eq(iodfg_rules_apply(def, log, NULL, &d, NULL, &err), 0);
    ck_assert_uint_eq(d.activity_of_key[c->key[0]], d.activity_of_key[c->key[3]]);
    struct iodfg_filter *flt = iodfg_filter_parse("site~payload", 12, &err);
    ck_assert_ptr_nonnull(flt);
    ck_assert_int_eq(iodfg_filter_kind(flt), IODFG_FILTER_SITE);
    iodfg_filter_free(flt);
    iodfg_mapping_fini(&m);
    iodfg_mapping_fini(&d);
    iodfg_rules_free(rs);
    iodfg_rules_free(def);
    iodfg_focus_free(f);
    iodfg_eventlog_free(log);
}
END_TEST


/* A made-up line table for insights_name_lines: write_header's two calls (0x1239 and 0x1250) are
 * at sites.c:14 and :15; append_log's line is unknown (no debug information). */
static int fake_line(void *ctx, uint32_t frame, const char **file, int *line)
{
    const struct iodfg_eventlog *log = ctx;
    const struct iodfg_frame *f = &iodfg_stacks_frames(iodfg_eventlog_stacks(log))[frame - 1];
    const char *fn = iodfg_strpool_get(iodfg_eventlog_pool(log), f->function);
    if (strcmp(fn, "write_header") != 0) {
        return 0;
    }
    *file = "/home/u/src/sites.c";
    *line = f->address == 0x1239 ? 14 : 15;
    return 1;
}

/* Insights' evidence names a call site's file:line where it is known (the call with the most
 * events, and how many other calls of the function issued some), the function alone where not,
 * in text and JSON. */
START_TEST(insights_name_lines)
{
    struct iodfg_buf t;
    iodfg_buf_init(&t);
    for (int i = 0; i < 70; i++) { // 40 + 10 small writes from write_header, 20 from append_log
        iodfg_buf_addf(&t, "write(3</d/f>, \"x\", 64) = 64 <0.000002>\n" LIBC
                           " > /home/u/prog(%s) [0x%x]\n > /home/u/prog(main+0x1) [0x1400]\n",
                       i < 50 ? "write_header+0x40" : "append_log+0x8",
                       i < 40 ? 0x1239 : i < 50 ? 0x1250 : 0x1300);
    }
    struct iodfg_strace_result r;
    struct iodfg_eventlog *log = parse(t.data, &r);
    iodfg_buf_fini(&t);
    struct iodfg_error err;
    struct iodfg_focus *f = iodfg_focus_new(NULL, 0, NULL, &err);
    ck_assert_int_eq(iodfg_callsites_split_keys(f, log, &err), 0);
    struct iodfg_session *ses = iodfg_session_new(log, &err);
    ck_assert_ptr_nonnull(ses);
    ck_assert_int_eq(iodfg_session_prepare(ses, &err), 0);
    struct iodfg_insight_thresholds th;
    iodfg_insight_thresholds_default(&th);
    th.min_ops = 50; // 70 small writes are many
    struct iodfg_insights ins;
    iodfg_insights_init(&ins);
    ck_assert_int_eq(iodfg_insights_session(&ins, ses, IODFG_GROUP_NONE, &th, NULL, &err), 0);
    const struct iodfg_insight *small = NULL;
    for (size_t i = 0; i < ins.n && !small; i++) {
        small = ins.v[i].rule == IODFG_INS_SMALL_IO ? &ins.v[i] : NULL;
    }
    ck_assert_ptr_nonnull(small);
    ck_assert_uint_eq(small->nsites, 2);
    ck_assert_uint_eq(small->site_frames[0], 2); // write_header: two calls, 40 events at the first
    ck_assert_uint_eq(small->site_frames[1], 1);
    ck_assert_uint_eq(small->site_file[0], IODFG_STR_EMPTY); // nothing looked up yet
    ck_assert_int_eq(iodfg_insights_site_lines(&ins, fake_line, log, &err), 0);
    ck_assert_int_eq(small->site_line[0], 14);
    ck_assert_int_eq(small->site_line[1], 0);
    struct iodfg_report_insights rep = {
        .log = log, .map = iodfg_session_mapping(ses), .ins = {&ins, NULL}, .ngroups = 1};
    struct iodfg_buf out;
    iodfg_buf_init(&out);
    ck_assert_int_eq(iodfg_report_table_insights(&out, &rep, &err), 0);
    ck_assert_ptr_nonnull(strstr(out.data, "call sites: write_header at sites.c:14 and 1 other call "
                                           "(50 calls), append_log (20 calls)\n"));
    out.len = 0;
    ck_assert_int_eq(iodfg_report_json_insights(&out, &rep, &err), 0);
    ck_assert_ptr_nonnull(strstr(out.data, "{\"site\":\"write_header\",\"calls\":50,\"file\":"
                                           "\"/home/u/src/sites.c\",\"line\":14,"
                                           "\"calls_in_code\":2}"));
    ck_assert_ptr_nonnull(strstr(out.data, "{\"site\":\"append_log\",\"calls\":20,\"file\":null,"
                                           "\"line\":null,\"calls_in_code\":1}"));
    iodfg_buf_fini(&out);
    iodfg_insights_fini(&ins);
    iodfg_session_free(ses);
    iodfg_focus_free(f);
    iodfg_eventlog_free(log);
}
END_TEST

/* The line of tests/tools/callsites.c that contains text (as tests/e2e/callsites.sh finds it). */
static int source_line(const char *text)
{
    char path[4096];
    snprintf(path, sizeof(path), "%s/tests/tools/callsites.c", getenv("IODFG_SRCDIR"));
    FILE *f = fopen(path, "r");
    ck_assert_ptr_nonnull(f);
    char buf[512];
    int n = 0, found = 0;
    while (!found && fgets(buf, sizeof(buf), f)) {
        n++;
        found = strstr(buf, text) != NULL;
    }
    fclose(f);
    ck_assert(found);
    return n;
}

/* Programs built by clang (and icx, aocc, CCE) have no .debug_aranges, where libdw finds a
 * line's unit: a copy of tests/tools/callsites without the section gives every address of the
 * program, as a return address and not, the same file and line as the original, the calls'
 * lines among them. */
START_TEST(lines_without_aranges)
{
    if (!iodfg_srcline_available()) {
        return; // nothing to look up in a build without libdw (callsites.sh checks what it says)
    }
    char prog[4096], bare[4096], cmd[9000];
    snprintf(prog, sizeof(prog), "%s/tests/tools/callsites", getenv("IODFG_BUILDDIR"));
    char *dir = testutil_tmpdir();
    snprintf(bare, sizeof(bare), "%s/callsites", dir);
    snprintf(cmd, sizeof(cmd), "objcopy --remove-section .debug_aranges '%s' '%s'", prog, bare);
    ck_assert_int_eq(system(cmd), 0);
    snprintf(cmd, sizeof(cmd), "readelf -SW '%s' | grep -q debug_aranges", bare);
    ck_assert_int_ne(system(cmd), 0);
    struct stat sb;
    ck_assert_int_eq(stat(prog, &sb), 0);
    int want[4] = {source_line("write(fd, h, sizeof h)"), source_line("write(fd, block, sizeof b"),
                   source_line("while (read(fd, block"), source_line("write(fd, \"log line")};
    int seen[4] = {0, 0, 0, 0};
    struct iodfg_srcline *orig = iodfg_srcline_new(NULL), *copy = iodfg_srcline_new(NULL);
    ck_assert(orig && copy);
    uint64_t known = 0;
    for (uint64_t a = 0; a < (uint64_t)sb.st_size; a++) {
        for (int ret = 0; ret < 2; ret++) {
            const char *f1, *f2;
            int l1, l2;
            int k1 = iodfg_srcline_lookup(orig, prog, a, ret, &f1, &l1);
            int k2 = iodfg_srcline_lookup(copy, bare, a, ret, &f2, &l2);
            ck_assert_msg(k1 == k2 && l1 == l2 && (!k1 || strcmp(f1, f2) == 0),
                          "address 0x%llx%s: %s:%d, without aranges %s:%d", (unsigned long long)a,
                          ret ? " (return)" : "", k1 ? f1 : "?", l1, k2 ? f2 : "?", l2);
            known += k1;
            for (int i = 0; i < 4; i++) {
                seen[i] |= k1 && l1 == want[i] && strstr(f1, "callsites.c") != NULL;
            }
        }
    }
    ck_assert_uint_gt(known, 100);
    for (int i = 0; i < 4; i++) {
        ck_assert_msg(seen[i], "callsites.c:%d not found", want[i]);
    }
    iodfg_srcline_free(orig);
    iodfg_srcline_free(copy);
    testutil_rmtree(dir);
    free(dir);
}
END_TEST

int main(void)
{
    Suite *s = suite_create("callsites");
    TCase *p = tcase_create("parse");
    tcase_add_test(p, frame_forms);
    tcase_add_test(p, frame_cxx_name);
    tcase_add_test(p, bad_frames_counted);
    tcase_add_test(p, interleaved_pids);
    tcase_add_test(p, exit_and_signal_stacks);
    suite_add_tcase(s, p);
    TCase *l = tcase_create("log");
    tcase_add_test(l, stacks_deduplicated);
    tcase_add_test(l, no_stacks_no_table);
    tcase_add_test(l, append_remaps);
    tcase_add_test(l, store_round_trip);
    tcase_add_test(l, damaged_stacks_refused);
    suite_add_tcase(s, l);
    TCase *e = tcase_create("sites");
    tcase_add_test(e, sites_counted);
    tcase_add_test(e, site_field_splits);
    tcase_add_test(e, insights_name_lines);
    tcase_add_test(e, lines_without_aranges);
    suite_add_tcase(s, e);
    return testutil_run(s);
}
