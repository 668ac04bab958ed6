/* SPDX-License-Identifier: MIT */
/* Unit tests: HDF5 event-log store (round trips, masks, atomic output, damaged input). */
#include "config.h"

#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <hdf5.h>

#include "iodfg/atomicfile.h"
#include "iodfg/error.h"
#include "iodfg/eventlog.h"
#include "iodfg/handles.h"
#include "iodfg/store.h"
#include "iodfg/strace.h"
#include "iodfg/strpool.h"

#include "../../src/io/store_codec.h"
#include "../../src/io/store_priv.h"
#include "testutil.h"

#define DIR_ testutil_fixture_dir
#define PATH testutil_fixture_path

static void setup(void)
{
    testutil_fixture_begin("log.h5");
}

static void teardown(void)
{
    testutil_fixture_end();
}

/* ---- building logs --------------------------------------------------------------------------- */

static uint32_t S(struct iodfg_eventlog *log, const char *s)
{
    uint32_t id;
    ck_assert_int_eq(iodfg_strpool_intern(iodfg_eventlog_pool(log), s, strlen(s), &id), 0);
    return id;
}

static void begin(struct iodfg_eventlog *log, const char *name, const char *cid, const char *host,
                  const char *rid)
{
    struct iodfg_case_info ci;
    memset(&ci, 0, sizeof(ci));
    ci.name = S(log, name);
    ci.cid = S(log, cid);
    ci.host = S(log, host);
    ci.rid = S(log, rid);
    char src[300];
    snprintf(src, sizeof(src), "/traces/%s.st", name);
    ci.source = S(log, src);
    ci.naming = IODFG_NAMING_PATTERN;
    ck_assert_int_eq(iodfg_eventlog_begin_case(log, &ci, NULL), 0);
}

static void add_strace(struct iodfg_eventlog *log, const char *name, const char *text)
{
    begin(log, name, name, "host1", "7");
    struct iodfg_strace_result res;
    struct iodfg_error err;
    iodfg_error_clear(&err);
    ck_assert_int_eq(
        iodfg_strace_parse(text, strlen(text), iodfg_strace_sink_eventlog, log, &res, &err), 0);
    struct iodfg_case_info *ci = iodfg_eventlog_open_case(log);
    ci->clock = res.clock;
    ci->lines = res.lines;
    ci->bytes = res.bytes;
    memcpy(ci->counts, res.counts, sizeof(ci->counts));
    ck_assert_int_eq(iodfg_eventlog_end_case(log, NULL), 0);
}

static const char TRACE_TT[] =
    "9054  08:55:54.153994 read(3</usr/lib/x86_64-linux-gnu/libselinux.so.1>, "
    "\"\\177ELF\\2\\1\\1\"..., 832) = 832 <0.000203>\n"
    "9054  08:55:54.160000 openat(AT_FDCWD</tmp>, \"missing\", O_RDONLY) = -1 ENOENT (No such "
    "file or directory) <0.000010>\n"
    "9055  08:55:54.170000 read(4</data/in put.dat>, <unfinished ...>\n"
    "9054  08:55:54.176260 write(1</dev/pts/7>, \"a\\n\", 50) = 50 <0.000111>\n"
    "9055  08:55:54.180000 <... read resumed>\"\"..., 4096) = 4096 <0.010000>\n"
    "9054  08:55:54.190000 --- SIGCHLD {si_signo=SIGCHLD, si_code=CLD_EXITED} ---\n"
    "this line is junk\n"
    "9054  08:55:54.200000 lseek(3</usr/lib/x86_64-linux-gnu/libselinux.so.1>, 100, SEEK_SET) "
    "= 100 <0.000002>\n"
    "9054  08:55:54.300000 +++ exited with 0 +++\n";

static const char TRACE_TTT[] =
    "1753944587.753800 write(2</dev/pts/1>, \"x\", 1) = 1 <0.000020>\n"
    "1753944587.753900 pread64(5</scratch/f\\303\\251.bin>, \"\"..., 65536, 131072) = 65536 "
    "<0.000300>\n"
    "1753944587.754000 close(5</scratch/f\\303\\251.bin>) = 0\n";

static struct iodfg_eventlog *strace_log(void)
{
    struct iodfg_eventlog *log = iodfg_eventlog_new(IODFG_COL_ALL);
    ck_assert_ptr_nonnull(log);
    add_strace(log, "run_host1_7", TRACE_TT);
    add_strace(log, "epoch_host1_8", TRACE_TTT);
    add_strace(log, "empty_host1_9", "");
    return log;
}

static void push(struct iodfg_eventlog *log, const char *call, const char *path, int64_t start,
                 int64_t dur, int64_t size, const char *errname)
{
    struct iodfg_event ev = {.start_ns = start,
                             .dur_ns = dur,
                             .size = size,
                             .offset = size == IODFG_UNKNOWN ? IODFG_UNKNOWN : start / 3,
                             .req = size == IODFG_UNKNOWN ? IODFG_UNKNOWN : size + 1,
                             .pid = (int32_t)(start % 5) + 100,
                             .fd = size == IODFG_UNKNOWN ? IODFG_NO_FD : 3,
                             .err = S(log, errname)};
    ck_assert_int_eq(iodfg_eventlog_key(log, S(log, call), S(log, path), &ev.key), 0);
    ck_assert_int_eq(iodfg_eventlog_push(log, &ev, (uint64_t)start, NULL), 0);
}

/* Cases whose names cannot all be link names, unknown values, odd bytes, empty cases. */
static struct iodfg_eventlog *push_log(void)
{
    struct iodfg_eventlog *log = iodfg_eventlog_new(IODFG_COL_ALL);
    ck_assert_ptr_nonnull(log);
    begin(log, "a_host_1", "a", "host", "1");
    push(log, "read", "/tmp/\xff\xfe odd\ttab\nnewline", 10, 5, 100, "");
    push(log, "write", "socket:[1234]", 20, IODFG_UNKNOWN, IODFG_UNKNOWN, "");
    push(log, "openat", "/nonexistent", 20, 1, IODFG_UNKNOWN, "ENOENT");
    push(log, "", "", INT64_MIN + 1, IODFG_UNKNOWN, IODFG_UNKNOWN, "");
    ck_assert_int_eq(iodfg_eventlog_end_case(log, NULL), 0);
    begin(log, "", "", "", ""); // empty name, no events
    iodfg_eventlog_open_case(log)->clock = IODFG_CLOCK_EPOCH;
    iodfg_eventlog_open_case(log)->counts[IODFG_COUNT_UNPARSABLE] = 3;
    ck_assert_int_eq(iodfg_eventlog_end_case(log, NULL), 0);
    begin(log, "dir/with/slash", "dir", "with", "slash");
    push(log, "read", "/tmp/\xff\xfe odd\ttab\nnewline", INT64_MAX, 0, 0, "EINTR");
    iodfg_eventlog_open_case(log)->naming = IODFG_NAMING_FILENAME;
    iodfg_eventlog_open_case(log)->lines = 123456789012ull;
    iodfg_eventlog_open_case(log)->bytes = 1ull << 40;
    ck_assert_int_eq(iodfg_eventlog_end_case(log, NULL), 0);
    begin(log, "a_host_1", "a", "host", "1"); // same name again
    push(log, "close", "pipe:[99]", 1, 1, IODFG_UNKNOWN, "");
    ck_assert_int_eq(iodfg_eventlog_end_case(log, NULL), 0);
    begin(log, "#0", "", "", "");
    ck_assert_int_eq(iodfg_eventlog_end_case(log, NULL), 0);
    begin(log, ".", "", "", "");
    push(log, "read", "/x", -5, 1, 1, "");
    ck_assert_int_eq(iodfg_eventlog_end_case(log, NULL), 0);
    begin(log, "caf\xc3\xa9 \x01", "", "", "");
    ck_assert_int_eq(iodfg_eventlog_end_case(log, NULL), 0);
    return log;
}

/* A deterministic pseudo-random log with ncases cases of sizes[c] events, or of up to
 * max_events events when sizes is NULL. */
static struct iodfg_eventlog *sized_log(uint32_t ncases, const uint32_t *sizes, uint32_t max_events,
                                        uint64_t seed)
{
    static const char *const calls[] = {"read", "write", "openat", "close", "lseek", "pread64"};
    struct iodfg_eventlog *log = iodfg_eventlog_new(IODFG_COL_ALL);
    ck_assert_ptr_nonnull(log);
    uint64_t x = seed;
    for (uint32_t c = 0; c < ncases; c++) {
        char name[64], path[64];
        snprintf(name, sizeof(name), "job%u_node%u_%u", c % 7, c % 3, c);
        begin(log, name, "job", "node", "r");
        x = x * 6364136223846793005ull + 1442695040888963407ull;
        uint32_t n = sizes ? sizes[c] : (uint32_t)(x >> 33) % (max_events + 1);
        int64_t t = 1000;
        for (uint32_t i = 0; i < n; i++) {
            x = x * 6364136223846793005ull + 1442695040888963407ull;
            snprintf(path, sizeof(path), "/scratch/d%u/f%u", (unsigned)(x >> 60),
                     (unsigned)(x >> 40) % 50);
            t += (int64_t)((x >> 20) % 1000);
            push(log, calls[(x >> 50) % 6], path, t, (int64_t)((x >> 10) % 500),
                 (x & 1) ? (int64_t)((x >> 30) % 65536) : IODFG_UNKNOWN, (x & 6) ? "" : "EAGAIN");
        }
        ck_assert_int_eq(iodfg_eventlog_end_case(log, NULL), 0);
    }
    return log;
}

static struct iodfg_eventlog *random_log(uint32_t ncases, uint32_t max_events, uint64_t seed)
{
    return sized_log(ncases, NULL, max_events, seed);
}

/* ---- comparing logs -------------------------------------------------------------------------- */

static void same_case_info(const struct iodfg_case_info *a, const struct iodfg_case_info *b)
{
    ck_assert_uint_eq(a->name, b->name);
    ck_assert_uint_eq(a->cid, b->cid);
    ck_assert_uint_eq(a->host, b->host);
    ck_assert_uint_eq(a->rid, b->rid);
    ck_assert_uint_eq(a->source, b->source);
    ck_assert_int_eq(a->naming, b->naming);
    ck_assert_int_eq(a->clock, b->clock);
    ck_assert_uint_eq(a->lines, b->lines);
    ck_assert_uint_eq(a->bytes, b->bytes);
    for (int c = 0; c < IODFG_COUNT__N; c++) {
        ck_assert_uint_eq(a->counts[c], b->counts[c]);
    }
}

#define SAME_COL(col, bit)                                                                         \
    do {                                                                                           \
        if (mask & (bit)) {                                                                        \
            ck_assert_ptr_nonnull(cb->col);                                                        \
            ck_assert(n == 0 || memcmp(ca->col, cb->col, n * sizeof(*ca->col)) == 0);              \
        } else {                                                                                   \
            ck_assert_ptr_null(cb->col);                                                           \
        }                                                                                          \
    } while (0)

/* b (loaded with mask) holds exactly what a holds: same ids, strings, keys, cases, columns. */
static void same_log(const struct iodfg_eventlog *a, const struct iodfg_eventlog *b, unsigned mask)
{
    const struct iodfg_strpool *pa = iodfg_eventlog_pool(a), *pb = iodfg_eventlog_pool(b);
    ck_assert_uint_eq(iodfg_strpool_count(pa), iodfg_strpool_count(pb));
    for (uint32_t i = 0; i < iodfg_strpool_count(pa); i++) {
        ck_assert_uint_eq(iodfg_strpool_len(pa, i), iodfg_strpool_len(pb, i));
        ck_assert_int_eq(
            memcmp(iodfg_strpool_get(pa, i), iodfg_strpool_get(pb, i), iodfg_strpool_len(pa, i)),
            0);
    }
    ck_assert_uint_eq(iodfg_eventlog_key_count(a), iodfg_eventlog_key_count(b));
    for (uint32_t k = 0; k < iodfg_eventlog_key_count(a); k++) {
        const struct iodfg_key *ka = &iodfg_eventlog_keys(a)[k], *kb = &iodfg_eventlog_keys(b)[k];
        ck_assert_uint_eq(ka->call, kb->call);
        ck_assert_uint_eq(ka->path, kb->path);
        ck_assert_uint_eq(ka->kind, kb->kind);
    }
    uint32_t nc = iodfg_eventlog_case_count(a);
    ck_assert_uint_eq(nc, iodfg_eventlog_case_count(b));
    for (uint32_t c = 0; c < nc; c++) {
        same_case_info(iodfg_eventlog_case(a, c), iodfg_eventlog_case(b, c));
        ck_assert_uint_eq(iodfg_eventlog_case_offsets(a)[c + 1],
                          iodfg_eventlog_case_offsets(b)[c + 1]);
    }
    uint64_t n = iodfg_eventlog_event_count(a);
    ck_assert_uint_eq(n, iodfg_eventlog_event_count(b));
    ck_assert_uint_eq(iodfg_eventlog_column_mask(b), mask);
    const struct iodfg_columns *ca = iodfg_eventlog_columns(a), *cb = iodfg_eventlog_columns(b);
    SAME_COL(start_ns, IODFG_COL_START);
    SAME_COL(dur_ns, IODFG_COL_DUR);
    SAME_COL(size, IODFG_COL_SIZE);
    SAME_COL(offset, IODFG_COL_OFFSET);
    SAME_COL(req, IODFG_COL_REQ);
    SAME_COL(key, IODFG_COL_KEY);
    SAME_COL(err, IODFG_COL_ERR);
    SAME_COL(pid, IODFG_COL_PID);
    SAME_COL(fd, IODFG_COL_FD);
}

static const char *str(const struct iodfg_eventlog *log, uint32_t id)
{
    return iodfg_strpool_get(iodfg_eventlog_pool(log), id);
}

/* b holds the same events and cases as a, compared through strings (ids may differ). */
static void equiv_log(const struct iodfg_eventlog *a, const struct iodfg_eventlog *b)
{
    uint32_t nc = iodfg_eventlog_case_count(a);
    ck_assert_uint_eq(nc, iodfg_eventlog_case_count(b));
    for (uint32_t c = 0; c < nc; c++) {
        const struct iodfg_case_info *x = iodfg_eventlog_case(a, c), *y = iodfg_eventlog_case(b, c);
        ck_assert_str_eq(str(a, x->name), str(b, y->name));
        ck_assert_str_eq(str(a, x->source), str(b, y->source));
        ck_assert_uint_eq(iodfg_eventlog_case_offsets(a)[c + 1],
                          iodfg_eventlog_case_offsets(b)[c + 1]);
    }
    const struct iodfg_columns *ca = iodfg_eventlog_columns(a), *cb = iodfg_eventlog_columns(b);
    const struct iodfg_key *ka = iodfg_eventlog_keys(a), *kb = iodfg_eventlog_keys(b);
    ck_assert_uint_eq(iodfg_eventlog_event_count(a), iodfg_eventlog_event_count(b));
    for (uint64_t i = 0; i < iodfg_eventlog_event_count(a); i++) {
        ck_assert_str_eq(str(a, ka[ca->key[i]].call), str(b, kb[cb->key[i]].call));
        ck_assert_str_eq(str(a, ka[ca->key[i]].path), str(b, kb[cb->key[i]].path));
        ck_assert_str_eq(str(a, ca->err[i]), str(b, cb->err[i]));
        ck_assert_int_eq(ca->start_ns[i], cb->start_ns[i]);
        ck_assert_int_eq(ca->dur_ns[i], cb->dur_ns[i]);
        ck_assert_int_eq(ca->size[i], cb->size[i]);
        ck_assert_int_eq(ca->pid[i], cb->pid[i]);
        ck_assert_int_eq(ca->fd[i], cb->fd[i]);
    }
}

static void write_log(const struct iodfg_eventlog *log, const char *path)
{
    struct iodfg_error err;
    iodfg_error_clear(&err);
    struct iodfg_store_writer *w = iodfg_store_create(path, 0, &err);
    ck_assert_msg(w != NULL, "create: %s", err.msg);
    ck_assert_msg(iodfg_store_write_cases(w, log, &err) == 0, "write: %s", err.msg);
    ck_assert_msg(iodfg_store_commit(w, &err) == 0, "commit: %s", err.msg);
}

/* Every HDF5 object the store opened must be closed again, on success and on failure. */
static void no_open_objects(void)
{
    ck_assert_int_eq(H5Fget_obj_count((hid_t)H5F_OBJ_ALL, H5F_OBJ_ALL), 0);
}

static struct iodfg_eventlog *load_ok(const char *path, unsigned mask)
{
    struct iodfg_error err;
    iodfg_error_clear(&err);
    struct iodfg_eventlog *log = iodfg_store_load(path, mask, NULL, NULL, &err);
    ck_assert_msg(log != NULL, "load: %s", err.msg);
    no_open_objects();
    return log;
}

static void roundtrip(struct iodfg_eventlog *log)
{
    write_log(log, PATH);
    struct iodfg_eventlog *back = load_ok(PATH, IODFG_COL_ALL);
    same_log(log, back, IODFG_COL_ALL);
    iodfg_eventlog_free(back);
    iodfg_eventlog_free(log);
}

/* ---- round trips ----------------------------------------------------------------------------- */

/* A range chosen once the log is open: the one asked for, and the case count and each case's
 * events seen. */
struct chosen_range {
    uint32_t first, n;
    uint64_t seen;
    uint64_t *events;
};

static void choose_range(void *ctx, uint64_t ncases, const uint64_t *events, uint32_t *first,
                         uint32_t *count)
{
    struct chosen_range *c = ctx;
    c->seen = ncases;
    ck_assert_ptr_nonnull(events);
    c->events = malloc((ncases + 1) * sizeof(*c->events));
    memcpy(c->events, events, ncases * sizeof(*c->events));
    *first = c->first;
    *count = c->n;
}

/* Cases [first, first + n) of path, given (chosen: by a chooser that sees the log's case count),
 * equal those cases of the whole log (strings and keys whole). */
static void same_range_as(const struct iodfg_eventlog *all, const char *path, uint32_t first,
                          uint32_t n, int chosen)
{
    struct iodfg_error err;
    iodfg_error_clear(&err);
    struct chosen_range pick = {first, n, UINT64_MAX, NULL};
    struct iodfg_eventlog *part =
        chosen ? iodfg_store_load_part(path, IODFG_COL_ALL, choose_range, &pick, &err)
               : iodfg_store_load_cases(path, IODFG_COL_ALL, first, n, NULL, NULL, &err);
    ck_assert_msg(part != NULL, "load cases %u+%u: %s", first, n, err.msg);
    if (chosen) {
        ck_assert_uint_eq(pick.seen, iodfg_eventlog_case_count(all));
        const uint64_t *off = iodfg_eventlog_case_offsets(all);
        for (uint32_t c = 0; c < pick.seen; c++) { // the chooser saw every case's events
            ck_assert_uint_eq(pick.events[c], off[c + 1] - off[c]);
        }
        free(pick.events);
    }
    no_open_objects();
    uint32_t nc = iodfg_eventlog_case_count(all);
    uint32_t lo = first < nc ? first : nc, hi = n < nc - lo ? lo + n : nc;
    ck_assert_uint_eq(iodfg_eventlog_case_count(part), hi - lo);
    ck_assert_uint_eq(iodfg_eventlog_key_count(part), iodfg_eventlog_key_count(all));
    ck_assert_uint_eq(iodfg_strpool_count(iodfg_eventlog_pool(part)),
                      iodfg_strpool_count(iodfg_eventlog_pool(all)));
    ck_assert_uint_eq(iodfg_eventlog_handle_count(part), 0);
    const uint64_t *oa = iodfg_eventlog_case_offsets(all), *op = iodfg_eventlog_case_offsets(part);
    const struct iodfg_columns *ca = iodfg_eventlog_columns(all),
                               *cp = iodfg_eventlog_columns(part);
    for (uint32_t c = lo; c < hi; c++) {
        same_case_info(iodfg_eventlog_case(all, c), iodfg_eventlog_case(part, c - lo));
        uint64_t rows = oa[c + 1] - oa[c];
        ck_assert_uint_eq(op[c - lo + 1] - op[c - lo], rows);
        for (uint64_t i = 0; i < rows; i++) {
            uint64_t a = oa[c] + i, b = op[c - lo] + i;
            ck_assert_int_eq(ca->start_ns[a], cp->start_ns[b]);
            ck_assert_int_eq(ca->dur_ns[a], cp->dur_ns[b]);
            ck_assert_int_eq(ca->size[a], cp->size[b]);
            ck_assert_uint_eq(ca->key[a], cp->key[b]);
            ck_assert_uint_eq(ca->err[a], cp->err[b]);
            ck_assert_int_eq(ca->pid[a], cp->pid[b]);
        }
    }
    iodfg_eventlog_free(part);
}

static void same_range(const struct iodfg_eventlog *all, const char *path, uint32_t first,
                       uint32_t n)
{
    same_range_as(all, path, first, n, 0);
    same_range_as(all, path, first, n, 1);
}

/* Ranges of cases (what one process of an MPI job reads): small cases read in runs, a case over
 * several chunks, the last partial chunk, empty and out-of-range ranges. */
START_TEST(load_case_ranges)
{
    uint32_t sizes[240];
    for (uint32_t c = 0; c < 240; c++) {
        sizes[c] = c == 37 ? 70000 : c % 11 == 0 ? 0 : 1 + (c * 97) % 300;
    }
    struct iodfg_eventlog *log = sized_log(240, sizes, 0, 12345);
    write_log(log, PATH);
    iodfg_eventlog_free(log);
    struct iodfg_eventlog *all = load_ok(PATH, IODFG_COL_ALL);
    static const uint32_t ranges[][2] = {{0, 240},   {0, 1},   {1, 36},  {36, 3},  {38, 100},
                                         {120, 120}, {200, 0}, {239, 5}, {240, 1}, {500, 2}};
    for (size_t i = 0; i < sizeof(ranges) / sizeof(ranges[0]); i++) {
        same_range(all, PATH, ranges[i][0], ranges[i][1]);
    }
    iodfg_eventlog_free(all);
}
END_TEST

START_TEST(roundtrip_strace)
{
    struct iodfg_eventlog *log = strace_log();
    // The parser's view, so that we know the test covers what it claims.
    ck_assert_uint_eq(iodfg_eventlog_case_count(log), 3);
    ck_assert_uint_eq(iodfg_eventlog_event_count(log), 8);
    ck_assert_uint_eq(iodfg_eventlog_case(log, 0)->counts[IODFG_COUNT_UNPARSABLE], 1);
    ck_assert_uint_eq(iodfg_eventlog_case(log, 0)->counts[IODFG_COUNT_MERGED], 1);
    ck_assert_int_eq(iodfg_eventlog_case(log, 1)->clock, IODFG_CLOCK_EPOCH);
    roundtrip(log);
}
END_TEST

START_TEST(roundtrip_push)
{
    roundtrip(push_log());
}
END_TEST

START_TEST(roundtrip_many_cases)
{
    roundtrip(random_log(300, 40, 1));
}
END_TEST

START_TEST(roundtrip_large_case)
{
    // More rows than one chunk/slab (65536), with a tail.
    const uint32_t sizes[] = {140001, 65537, 65536};
    struct iodfg_eventlog *log = sized_log(3, sizes, 0, 42);
    uint64_t n = iodfg_eventlog_event_count(log);
    roundtrip(log);
    // The file holds little more than its 68 bytes per row: one contiguous dataset per column
    // (since format 2.0), the handle column included.
    struct stat st;
    ck_assert_int_eq(stat(PATH, &st), 0);
    ck_assert_uint_lt((uint64_t)st.st_size, 68 * n + 192 * 1024);
}
END_TEST

START_TEST(roundtrip_empty_log)
{
    roundtrip(iodfg_eventlog_new(IODFG_COL_ALL));
}
END_TEST

START_TEST(roundtrip_partial_columns)
{
    // A log without some columns is written with the unknown markers in their place.
    struct iodfg_eventlog *log = iodfg_eventlog_new(IODFG_COL_START | IODFG_COL_PID);
    begin(log, "c", "", "", "");
    struct iodfg_event ev = {.start_ns = 7, .pid = 3};
    ck_assert_int_eq(iodfg_eventlog_push(log, &ev, 0, NULL), 0);
    ck_assert_int_eq(iodfg_eventlog_end_case(log, NULL), 0);
    write_log(log, PATH);
    struct iodfg_eventlog *back = load_ok(PATH, IODFG_COL_ALL);
    const struct iodfg_columns *c = iodfg_eventlog_columns(back);
    ck_assert_int_eq(c->start_ns[0], 7);
    ck_assert_int_eq(c->pid[0], 3);
    ck_assert_int_eq(c->dur_ns[0], IODFG_UNKNOWN);
    ck_assert_int_eq(c->size[0], IODFG_UNKNOWN);
    ck_assert_int_eq(c->fd[0], IODFG_NO_FD);
    ck_assert_uint_eq(c->err[0], IODFG_STR_EMPTY);
    ck_assert_uint_eq(iodfg_eventlog_key_count(back), 1);
    ck_assert_str_eq(str(back, iodfg_eventlog_keys(back)[c->key[0]].call), "");
    iodfg_eventlog_free(back);
    iodfg_eventlog_free(log);
}
END_TEST

START_TEST(write_several_logs)
{
    // Each log has its own pool; the writer re-interns into one table.
    struct iodfg_eventlog *a = random_log(5, 30, 7), *b = push_log(), *c = strace_log();
    struct iodfg_eventlog *all = iodfg_eventlog_new(IODFG_COL_ALL);
    ck_assert_int_eq(iodfg_eventlog_append(all, a, NULL), 0);
    ck_assert_int_eq(iodfg_eventlog_append(all, b, NULL), 0);
    ck_assert_int_eq(iodfg_eventlog_append(all, c, NULL), 0);
    struct iodfg_store_writer *w = iodfg_store_create(PATH, 0, NULL);
    ck_assert_ptr_nonnull(w);
    ck_assert_int_eq(iodfg_store_write_cases(w, a, NULL), 0);
    ck_assert_int_eq(iodfg_store_write_cases(w, b, NULL), 0);
    ck_assert_int_eq(iodfg_store_write_cases(w, c, NULL), 0);
    ck_assert_int_eq(iodfg_store_commit(w, NULL), 0);
    no_open_objects();
    struct iodfg_eventlog *back = load_ok(PATH, IODFG_COL_ALL);
    equiv_log(all, back);
    // Strings shared by the logs are stored once.
    ck_assert_uint_eq(iodfg_eventlog_key_count(back), iodfg_eventlog_key_count(all));
    iodfg_eventlog_free(back);
    iodfg_eventlog_free(all);
    iodfg_eventlog_free(a);
    iodfg_eventlog_free(b);
    iodfg_eventlog_free(c);
}
END_TEST

static int exists_link(hid_t file, const char *name)
{
    return H5Lexists(file, name, H5P_DEFAULT) > 0;
}

START_TEST(case_group_names)
{
    struct iodfg_eventlog *log = push_log();
    write_log(log, PATH);
    hid_t f = H5Fopen(PATH, H5F_ACC_RDONLY, H5P_DEFAULT);
    ck_assert_int_ge(f, 0);
    ck_assert(exists_link(f, "/cases/a_host_1"));
    ck_assert(exists_link(f, "/cases/#1")); // ""
    ck_assert(exists_link(f, "/cases/#2")); // "dir/with/slash"
    ck_assert(exists_link(f, "/cases/#3")); // second "a_host_1"
    ck_assert(exists_link(f, "/cases/#4")); // "#0" would look numbered
    ck_assert(exists_link(f, "/cases/#5")); // "."
    ck_assert(exists_link(f, "/cases/#6")); // not printable ASCII
    ck_assert(!exists_link(f, "/cases/#0"));
    ck_assert(exists_link(f, "/strings/bytes"));
    ck_assert(exists_link(f, "/keys/call"));
    H5Fclose(f);
    iodfg_eventlog_free(log);
}
END_TEST

START_TEST(column_masks)
{
    struct iodfg_eventlog *log = strace_log();
    write_log(log, PATH);
    const unsigned masks[] = {IODFG_COL_ANALYSIS, 0, IODFG_COL_KEY, IODFG_COL_FD | IODFG_COL_ERR};
    for (size_t m = 0; m < sizeof(masks) / sizeof(masks[0]); m++) {
        struct iodfg_eventlog *back = load_ok(PATH, masks[m]);
        same_log(log, back, masks[m]);
        iodfg_eventlog_free(back);
    }
    iodfg_eventlog_free(log);
}
END_TEST

static void count_progress(void *ctx, uint64_t done, uint64_t total)
{
    uint64_t *last = ctx;
    ck_assert_uint_ge(done, last[0]);
    ck_assert_uint_le(done, total);
    last[0] = done;
    last[1] = total;
    last[2]++;
}

START_TEST(stat_and_progress)
{
    struct iodfg_eventlog *log = random_log(3, 70000, 5);
    uint64_t n = iodfg_eventlog_event_count(log);
    write_log(log, PATH);
    uint64_t cases = 0, events = 0;
    unsigned version = 0;
    ck_assert_int_eq(iodfg_store_stat(PATH, &cases, &events, &version, NULL), 0);
    ck_assert_uint_eq(cases, 3);
    ck_assert_uint_eq(events, n);
    ck_assert_uint_eq(version, IODFG_STORE_VERSION);
    uint64_t seen[3] = {0, 0, 0};
    struct iodfg_eventlog *back = iodfg_store_load(PATH, IODFG_COL_KEY, count_progress, seen, NULL);
    ck_assert_ptr_nonnull(back);
    ck_assert_uint_eq(seen[0], n);
    ck_assert_uint_eq(seen[1], n);
    ck_assert_uint_eq(seen[2], 2); // the start and the end: less than 2^20 events
    ck_assert_int_eq(iodfg_store_is_hdf5(PATH), 1);
    iodfg_eventlog_free(back);
    iodfg_eventlog_free(log);
}
END_TEST

/* ---- atomic output --------------------------------------------------------------------------- */

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

START_TEST(refuse_overwrite)
{
    testutil_write_file(PATH, "keep", 4);
    struct iodfg_error err;
    iodfg_error_clear(&err);
    ck_assert_ptr_null(iodfg_store_create(PATH, 0, &err));
    ck_assert_int_eq(err.code, IODFG_E_EXISTS);
    ck_assert_str_eq(err.where, PATH);
    ck_assert_int_eq(count_entries(DIR_), 1);
    // With force it is replaced.
    struct iodfg_eventlog *log = strace_log();
    struct iodfg_store_writer *w = iodfg_store_create(PATH, 1, NULL);
    ck_assert_ptr_nonnull(w);
    ck_assert_int_eq(iodfg_store_write_cases(w, log, NULL), 0);
    ck_assert_int_eq(iodfg_store_commit(w, NULL), 0);
    struct iodfg_eventlog *back = load_ok(PATH, IODFG_COL_ALL);
    same_log(log, back, IODFG_COL_ALL);
    ck_assert_int_eq(count_entries(DIR_), 1);
    iodfg_eventlog_free(back);
    iodfg_eventlog_free(log);
}
END_TEST

START_TEST(refuse_file_appearing_meanwhile)
{
    struct iodfg_store_writer *w = iodfg_store_create(PATH, 0, NULL);
    ck_assert_ptr_nonnull(w);
    testutil_write_file(PATH, "other", 5);
    struct iodfg_error err;
    iodfg_error_clear(&err);
    ck_assert_int_eq(iodfg_store_commit(w, &err), -1);
    ck_assert_int_eq(err.code, IODFG_E_EXISTS);
    ck_assert_int_eq(count_entries(DIR_), 1); // the temp file is gone, the other file intact
    struct stat st;
    ck_assert_int_eq(stat(PATH, &st), 0);
    ck_assert_int_eq(st.st_size, 5);
}
END_TEST

START_TEST(abort_leaves_nothing)
{
    struct iodfg_eventlog *log = strace_log();
    struct iodfg_store_writer *w = iodfg_store_create(PATH, 0, NULL);
    ck_assert_ptr_nonnull(w);
    ck_assert_int_eq(iodfg_store_write_cases(w, log, NULL), 0);
    ck_assert_int_eq(count_entries(DIR_), 1);
    iodfg_store_abort(w);
    no_open_objects();
    ck_assert_int_eq(count_entries(DIR_), 0);
    iodfg_store_abort(NULL);
    iodfg_eventlog_free(log);
}
END_TEST

START_TEST(temp_file_beside_final)
{
    struct iodfg_eventlog *log = strace_log();
    struct iodfg_store_writer *w = iodfg_store_create(PATH, 0, NULL);
    ck_assert_ptr_nonnull(w);
    ck_assert_int_eq(iodfg_store_write_cases(w, log, NULL), 0);
    const char *tmp = iodfg_store_temp_path(w);
    char prefix[4200];
    char owner[IODFG_ATOMIC_OWNER_MAX];
    iodfg_atomic_owner(owner, sizeof(owner));
    snprintf(prefix, sizeof(prefix), "%s/.log.h5.tmp-%s-", DIR_, owner);
    ck_assert_int_eq(strncmp(tmp, prefix, strlen(prefix)), 0);
    ck_assert_uint_eq(strlen(tmp), strlen(prefix) + 6);
    ck_assert_int_eq(access(tmp, F_OK), 0);
    ck_assert_int_ne(access(PATH, F_OK), 0); // nothing under the final name before commit
    char tmp_copy[4200];
    snprintf(tmp_copy, sizeof(tmp_copy), "%s", tmp);
    ck_assert_int_eq(iodfg_store_commit(w, NULL), 0);
    ck_assert_int_ne(access(tmp_copy, F_OK), 0);
    ck_assert_int_eq(access(PATH, F_OK), 0);
    ck_assert_int_eq(count_entries(DIR_), 1);
    iodfg_eventlog_free(log);
}
END_TEST

START_TEST(create_in_missing_dir)
{
    char p[4200];
    snprintf(p, sizeof(p), "%s/no/such/dir/x.h5", DIR_);
    struct iodfg_error err;
    iodfg_error_clear(&err);
    ck_assert_ptr_null(iodfg_store_create(p, 0, &err));
    ck_assert_int_eq(err.code, IODFG_E_IO);
    ck_assert_ptr_nonnull(strstr(err.msg, "No such file"));
}
END_TEST

/* ---- bad input ------------------------------------------------------------------------------- */

/* Load path expecting failure with code; the message must contain want (if given). */
static void load_fails(const char *path, enum iodfg_status code, const char *want)
{
    struct iodfg_error err;
    iodfg_error_clear(&err);
    struct iodfg_eventlog *log = iodfg_store_load(path, IODFG_COL_ALL, NULL, NULL, &err);
    ck_assert_ptr_null(log);
    no_open_objects();
    ck_assert_msg(err.code == code, "code %d, want %d: %s", err.code, code, err.msg);
    ck_assert_str_ne(err.msg, "");
    ck_assert_str_eq(err.where, path);
    if (want) {
        ck_assert_msg(strstr(err.msg, want) != NULL, "message \"%s\" lacks \"%s\"", err.msg, want);
    }
    // stat gives the same verdict on the file as a whole (it does not read cases).
    if (code == IODFG_E_VERSION || code == IODFG_E_IO) {
        iodfg_error_clear(&err);
        ck_assert_int_eq(iodfg_store_stat(path, NULL, NULL, NULL, &err), -1);
        ck_assert_int_eq(err.code, code);
    }
}

START_TEST(load_text_file)
{
    testutil_write_file(PATH, TRACE_TT, sizeof(TRACE_TT) - 1);
    ck_assert_int_eq(iodfg_store_is_hdf5(PATH), 0);
    load_fails(PATH, IODFG_E_FORMAT, "not an HDF5 file");
}
END_TEST

START_TEST(load_empty_file)
{
    testutil_write_file(PATH, "", 0);
    load_fails(PATH, IODFG_E_FORMAT, "empty");
}
END_TEST

START_TEST(load_missing_file)
{
    ck_assert_int_eq(iodfg_store_is_hdf5(PATH), 0);
    load_fails(PATH, IODFG_E_IO, "No such file");
    load_fails(DIR_, IODFG_E_IO, "Is a directory");
}
END_TEST

static char *slurp(const char *path, size_t *n)
{
    FILE *f = fopen(path, "rb");
    ck_assert_ptr_nonnull(f);
    fseek(f, 0, SEEK_END);
    long len = ftell(f);
    fseek(f, 0, SEEK_SET);
    char *buf = malloc((size_t)len + 1);
    ck_assert_uint_eq(fread(buf, 1, (size_t)len, f), (size_t)len);
    fclose(f);
    *n = (size_t)len;
    return buf;
}

START_TEST(load_truncated)
{
    struct iodfg_eventlog *log = random_log(20, 2000, 3);
    write_log(log, PATH);
    iodfg_eventlog_free(log);
    size_t n;
    char *buf = slurp(PATH, &n);
    char cut[4200];
    snprintf(cut, sizeof(cut), "%s/cut.h5", DIR_);
    testutil_write_file(cut, buf, n / 2);
    load_fails(cut, IODFG_E_FORMAT, "truncated");
    testutil_write_file(cut, buf, 100); // not even the whole superblock area
    load_fails(cut, IODFG_E_FORMAT, NULL);
    free(buf);
}
END_TEST

/* The first chunk of /events/key as the writer coded it (scale-offset by us, deflate
 * skipped), its values decoded: the file's bytes are not the values any more. */
struct chunk0 {
    struct store_so_params p;
    uint32_t key[1u << 16];
    haddr_t addr;
};

static void read_chunk0(const char *path, struct chunk0 *c)
{
    hid_t f = H5Fopen(path, H5F_ACC_RDONLY, H5P_DEFAULT);
    hid_t d = H5Dopen2(f, "/events/key", H5P_DEFAULT);
    ck_assert_int_ge(d, 0);
    hsize_t off[1] = {0}, size = 0;
    unsigned mask = 0;
    ck_assert_int_ge(H5Dget_chunk_info_by_coord(d, off, &mask, &c->addr, &size), 0);
    ck_assert_uint_eq(mask, 2); // deflate skipped: scale-offset coded by the writer
    unsigned char *raw = calloc(1, (size_t)size + 8);
    uint32_t m = 0;
    ck_assert_int_ge(H5Dread_chunk(d, H5P_DEFAULT, off, &m, raw), 0);
    struct store_so_params p = {4, 0, 1, 0, 1u << 16};
    struct store_so_chunk h;
    const char *why = NULL;
    ck_assert_int_eq(store_so_header(&p, raw, size, &h, &why), 0);
    uint64_t at, n;
    store_so_span(&p, &h, 0, p.nelmts, &at, &n);
    store_so_decode(&p, &h, raw + at, 0, p.nelmts, c->key);
    c->p = p;
    free(raw);
    H5Dclose(d);
    H5Fclose(f);
}

/* Write c's values back as chunk 0, coded as the writer codes them. */
static void write_chunk0(const char *path, const struct chunk0 *c)
{
    hid_t f = H5Fopen(path, H5F_ACC_RDWR, H5P_DEFAULT);
    hid_t d = H5Dopen2(f, "/events/key", H5P_DEFAULT);
    ck_assert_int_ge(d, 0);
    unsigned char *coded = calloc(1, store_so_bound(&c->p));
    size_t bytes = store_so_encode(&c->p, c->key, coded);
    hsize_t off[1] = {0};
    ck_assert_int_ge(H5Dwrite_chunk(d, H5P_DEFAULT, 2, off, bytes, coded), 0);
    free(coded);
    H5Dclose(d);
    H5Fclose(f);
}

static void flip(char *buf, size_t at, size_t len)
{
    for (size_t i = 0; i < len; i++) {
        buf[at + i] = (char)~buf[at + i];
    }
}

START_TEST(load_flipped_rows)
{
    // Case 1's rows lie in the first chunk, which the writer coded itself.
    const uint32_t sizes[] = {100, 70000, 100};
    struct iodfg_eventlog *log = sized_log(3, sizes, 0, 9);
    write_log(log, PATH);
    char name[64];
    snprintf(name, sizeof(name), "%s", str(log, iodfg_eventlog_case(log, 1)->name));
    iodfg_eventlog_free(log);
    static struct chunk0 c;
    read_chunk0(PATH, &c);
    c.key[100 + 3] = 0x7fffffff; // the key of case 1's row 3
    write_chunk0(PATH, &c);
    load_fails(PATH, IODFG_E_FORMAT, name);
    load_fails(PATH, IODFG_E_FORMAT, "row 3");
    // A chunk header announcing more bits than a value has is damage, named as such.
    read_chunk0(PATH, &c);
    size_t n;
    char *buf = slurp(PATH, &n);
    buf[c.addr] = 40;
    testutil_write_file(PATH, buf, n);
    free(buf);
    load_fails(PATH, IODFG_E_FORMAT, "events/key, chunk 0: a scale-offset chunk with more bits");
}
END_TEST

START_TEST(load_flipped_anywhere)
{
    // Damage each 1/32 of the file in turn: every load either succeeds (padding or unused
    // bytes) or fails cleanly; none may crash (fork mode turns a crash into a failure).
    struct iodfg_eventlog *log = random_log(4, 300, 11);
    write_log(log, PATH);
    iodfg_eventlog_free(log);
    size_t n;
    char *orig = slurp(PATH, &n);
    char *buf = malloc(n);
    char bad[4200];
    snprintf(bad, sizeof(bad), "%s/bad.h5", DIR_);
    int failed = 0;
    for (int part = 0; part < 32; part++) {
        memcpy(buf, orig, n);
        flip(buf, n * (size_t)part / 32, 48 < n / 32 ? 48 : n / 32);
        testutil_write_file(bad, buf, n);
        struct iodfg_error err;
        iodfg_error_clear(&err);
        struct iodfg_eventlog *back = iodfg_store_load(bad, IODFG_COL_ALL, NULL, NULL, &err);
        no_open_objects();
        if (getenv("STORE_TEST_VERBOSE")) {
            fprintf(stderr, "part %d: %s\n", part, back ? "loaded" : err.msg);
        }
        if (back) {
            iodfg_eventlog_free(back);
        } else {
            failed++;
            ck_assert_msg(err.code == IODFG_E_FORMAT || err.code == IODFG_E_VERSION,
                          "part %d: code %d %s", part, err.code, err.msg);
            ck_assert_str_ne(err.msg, "");
        }
    }
    ck_assert_int_gt(failed, 16); // most of the file is rows, ids and checksummed metadata
    free(buf);
    free(orig);
}
END_TEST

START_TEST(load_foreign_hdf5)
{
    hid_t f = H5Fcreate(PATH, H5F_ACC_TRUNC, H5P_DEFAULT, H5P_DEFAULT);
    ck_assert_int_ge(f, 0);
    hsize_t dims[1] = {4};
    int data[4] = {1, 2, 3, 4};
    hid_t sp = H5Screate_simple(1, dims, NULL);
    hid_t d = H5Dcreate2(f, "data", H5T_STD_I32LE, sp, H5P_DEFAULT, H5P_DEFAULT, H5P_DEFAULT);
    ck_assert_int_ge(H5Dwrite(d, H5T_NATIVE_INT, H5S_ALL, H5S_ALL, H5P_DEFAULT, data), 0);
    H5Dclose(d);
    H5Sclose(sp);
    H5Fclose(f);
    ck_assert_int_eq(iodfg_store_is_hdf5(PATH), 1);
    load_fails(PATH, IODFG_E_FORMAT, "not an iodfg event log");
    struct iodfg_error err;
    iodfg_error_clear(&err);
    ck_assert_int_eq(iodfg_store_stat(PATH, NULL, NULL, NULL, &err), -1);
    ck_assert_int_eq(err.code, IODFG_E_FORMAT);
}
END_TEST

/* Copy a file of tests/data to PATH (to edit it). */
static void copy_fixture(const char *name)
{
    char cmd[9000];
    snprintf(cmd, sizeof(cmd), "cp '%s' '%s' && chmod u+w '%s'", testutil_data(name), PATH, PATH);
    ck_assert_int_eq(system(cmd), 0);
}

/* Open the written file for editing with the HDF5 API. */
static hid_t edit(void)
{
    H5Eset_auto2(H5E_DEFAULT, NULL, NULL);
    hid_t f = H5Fopen(PATH, H5F_ACC_RDWR, H5P_DEFAULT);
    ck_assert_int_ge(f, 0);
    return f;
}

/* Native integer array of dataset d (n values of mt's size) into a new buffer. */
static void *read_all_native(hid_t d, hid_t mt, hsize_t *n)
{
    hid_t sp = H5Dget_space(d);
    ck_assert_int_eq(H5Sget_simple_extent_dims(sp, n, NULL), 1);
    H5Sclose(sp);
    void *buf = malloc((size_t)(*n ? *n : 1) * H5Tget_size(mt));
    ck_assert(*n == 0 || H5Dread(d, mt, H5S_ALL, H5S_ALL, H5P_DEFAULT, buf) >= 0);
    return buf;
}

/* Set dataset name's checksum attribute to what it holds now (mt: its memory type). */
static void resum_dataset(hid_t f, const char *name, hid_t mt)
{
    hid_t d = H5Dopen2(f, name, H5P_DEFAULT);
    ck_assert_int_ge(d, 0);
    hsize_t n = 0;
    void *buf = read_all_native(d, mt, &n);
    uint64_t sum = store_sum_of(mt, buf, n);
    hid_t a = H5Aopen(d, STORE_CHECKSUM, H5P_DEFAULT);
    ck_assert_int_ge(a, 0);
    ck_assert_int_ge(H5Awrite(a, H5T_NATIVE_UINT64, &sum), 0);
    H5Aclose(a);
    free(buf);
    H5Dclose(d);
}

/* Make every checksum of PATH agree with what it holds: as if a writer had written the damage
 * on purpose, so that the checks of the values themselves, under the checksums, are what must
 * catch it. */
static void resum_all(void)
{
    hid_t f = edit();
    hid_t ct = store_case_type(0), ht = store_handle_type(0), bt = store_block_sum_type(0);
    hid_t cd = H5Dopen2(f, "/case_table", H5P_DEFAULT);
    hsize_t ncases = 0;
    struct store_case_row *cases = read_all_native(cd, ct, &ncases);
    H5Dclose(cd);
    hsize_t nblocks = 0;
    for (hsize_t i = 0; i < ncases; i++) {
        nblocks += store_blocks_of(cases[i].rows);
    }
    struct store_block_sum *sums = calloc((size_t)nblocks + 1, sizeof(*sums));
    for (int c = 0; c < STORE_C__N; c++) {
        char name[64];
        snprintf(name, sizeof(name), "/events/%s", store_cols[c].name);
        hid_t d = H5Dopen2(f, name, H5P_DEFAULT);
        ck_assert_int_ge(d, 0);
        hsize_t n = 0;
        unsigned w = store_cols[c].size;
        char *v = read_all_native(d, store_col_type((enum store_col)c, 0), &n);
        H5Dclose(d);
        for (hsize_t i = 0, b = 0; i < ncases; i++) {
            for (uint64_t a = 0; a < cases[i].rows; a += STORE_SUM_BLOCK_ROWS, b++) {
                uint64_t k = cases[i].rows - a < STORE_SUM_BLOCK_ROWS ? cases[i].rows - a
                                                                      : STORE_SUM_BLOCK_ROWS;
                sums[b].sum[c] = store_sum_values(v + (cases[i].first + a) * w, k, w);
            }
        }
        free(v);
    }
    hid_t bd = H5Dopen2(f, "/event_checksums", H5P_DEFAULT);
    ck_assert(nblocks == 0 || H5Dwrite(bd, bt, H5S_ALL, H5S_ALL, H5P_DEFAULT, sums) >= 0);
    H5Dclose(bd);
    free(sums);
    free(cases);
    static const char *const ints[][2] = {{"/strings/bytes", "u8"}, {"/strings/offsets", "u64"},
                                          {"/keys/call", "u32"},    {"/keys/path", "u32"},
                                          {"/keys/layer", "u32"},   {"/keys/fs", "u32"},
                                          {"/keys/fstype", "u32"},  {"/keys/scope", "u8"}};
    for (size_t i = 0; i < sizeof(ints) / sizeof(ints[0]); i++) {
        hid_t mt = ints[i][1][1] == '8'   ? H5T_NATIVE_UINT8
                   : ints[i][1][1] == '6' ? H5T_NATIVE_UINT64
                                          : H5T_NATIVE_UINT32;
        resum_dataset(f, ints[i][0], mt);
    }
    resum_dataset(f, "/case_table", ct);
    resum_dataset(f, "/handles", ht);
    resum_dataset(f, "/event_checksums", bt);
    H5Tclose(ct);
    H5Tclose(ht);
    H5Tclose(bt);
    H5Fclose(f);
}

static void set_u32_attr(hid_t loc, const char *name, uint32_t v)
{
    if (H5Aexists(loc, name) > 0) {
        ck_assert_int_ge(H5Adelete(loc, name), 0);
    }
    hid_t sp = H5Screate(H5S_SCALAR);
    hid_t a = H5Acreate2(loc, name, H5T_STD_U32LE, sp, H5P_DEFAULT, H5P_DEFAULT);
    ck_assert_int_ge(H5Awrite(a, H5T_NATIVE_UINT32, &v), 0);
    H5Aclose(a);
    H5Sclose(sp);
}

START_TEST(load_newer_version)
{
    struct iodfg_eventlog *log = strace_log();
    write_log(log, PATH);
    iodfg_eventlog_free(log);
    hid_t f = edit();
    set_u32_attr(f, "version", IODFG_STORE_VERSION + 1);
    H5Fclose(f);
    load_fails(PATH, IODFG_E_VERSION, "made by a newer iodfg");
    // A newer minor of the same major loads.
    f = edit();
    set_u32_attr(f, "version", IODFG_STORE_VERSION);
    set_u32_attr(f, "minor", 9);
    H5Fclose(f);
    iodfg_eventlog_free(load_ok(PATH, IODFG_COL_ALL));
    f = edit();
    set_u32_attr(f, "version", 0);
    H5Fclose(f);
    load_fails(PATH, IODFG_E_FORMAT, "version 0");
}
END_TEST

static void set_vlen_attr(hid_t loc, const char *obj, const char *name, const char *v)
{
    if (H5Aexists_by_name(loc, obj, name, H5P_DEFAULT) > 0) {
        ck_assert_int_ge(H5Adelete_by_name(loc, obj, name, H5P_DEFAULT), 0);
    }
    hid_t t = H5Tcopy(H5T_C_S1);
    H5Tset_size(t, H5T_VARIABLE);
    H5Tset_cset(t, H5T_CSET_UTF8);
    hid_t sp = H5Screate(H5S_SCALAR);
    hid_t a = H5Acreate_by_name(loc, obj, name, t, sp, H5P_DEFAULT, H5P_DEFAULT, H5P_DEFAULT);
    ck_assert_int_ge(H5Awrite(a, t, &v), 0);
    H5Aclose(a);
    H5Sclose(sp);
    H5Tclose(t);
}

static const char NODE[] = "n\xc3\xb6"
                           "de"; // "nöde" in UTF-8

START_TEST(load_vlen_strings)
{
    // h5py writes variable-length UTF-8 strings; a file edited with it still loads.
    struct iodfg_eventlog *log = strace_log();
    write_log(log, PATH);
    iodfg_eventlog_free(log);
    hid_t f = edit();
    set_vlen_attr(f, ".", "format", "iodfg-eventlog");
    H5Fclose(f);
    log = load_ok(PATH, IODFG_COL_ALL);
    ck_assert_str_eq(str(log, iodfg_eventlog_case(log, 0)->name), "run_host1_7");
    iodfg_eventlog_free(log);
    // Before 3.0 the case attributes were read too.
    copy_fixture("store/v2_0.h5");
    f = edit();
    set_vlen_attr(f, "cases/fpp_node1_14745", "host", NODE);
    H5Fclose(f);
    log = load_ok(PATH, IODFG_COL_ALL);
    ck_assert_str_eq(str(log, iodfg_eventlog_case(log, 0)->host), NODE);
    ck_assert_str_eq(str(log, iodfg_eventlog_case(log, 0)->name), "fpp_node1_14745");
    iodfg_eventlog_free(log);
}
END_TEST

/* The row of /events where case group cs starts (its `first` attribute, 3.0). */
static hsize_t case_first(hid_t f, const char *cs)
{
    char name[256];
    snprintf(name, sizeof(name), "/cases/%s", cs);
    hid_t a = H5Aopen_by_name(f, name, "first", H5P_DEFAULT, H5P_DEFAULT);
    ck_assert_int_ge(a, 0);
    uint64_t first = 0;
    ck_assert_int_ge(H5Aread(a, H5T_NATIVE_UINT64, &first), 0);
    H5Aclose(a);
    return first;
}

/* Set value `row` of /events/<member> to v in the chunk as it is stored: a whole chunk the
 * writer stored unfiltered stays so (an H5Dwrite would deflate it, and the loader would then
 * read the column through HDF5 instead of the raw path under test). 0 when the row lies in
 * such a chunk. */
static int poke_raw_chunk(hid_t d, hsize_t row, int64_t v)
{
    hid_t dcpl = H5Dget_create_plist(d);
    hsize_t chunk[1] = {0};
    int chunked = H5Pget_layout(dcpl) == H5D_CHUNKED && H5Pget_chunk(dcpl, 1, chunk) == 1;
    H5Pclose(dcpl);
    hsize_t off[1] = {chunked ? row / chunk[0] * chunk[0] : 0};
    unsigned mask = 0;
    haddr_t addr;
    hsize_t size = 0;
    if (!chunked || H5Dget_chunk_info_by_coord(d, off, &mask, &addr, &size) < 0 || mask != 1) {
        return -1;
    }
    hid_t t = H5Dget_type(d);
    size_t esz = H5Tget_size(t);
    char *buf = malloc(size);
    uint32_t filters = 0;
    ck_assert_int_ge(H5Dread_chunk(d, H5P_DEFAULT, off, &filters, buf), 0);
    char val[8];
    memcpy(val, &v, sizeof(v));
    ck_assert_int_ge(H5Tconvert(H5T_NATIVE_INT64, t, 1, val, NULL, H5P_DEFAULT), 0);
    memcpy(buf + (row - off[0]) * esz, val, esz);
    ck_assert_int_ge(H5Dwrite_chunk(d, H5P_DEFAULT, filters, off, size, buf), 0);
    free(buf);
    H5Tclose(t);
    return 0;
}

/* Rewrite column `member` of row `row` of case group `cs` with v: in the case's dataset (2.0),
 * else in its rows of /events (3.0). */
static void poke_row(const char *cs, hsize_t row, const char *member, int64_t v)
{
    hid_t f = edit();
    char name[256];
    snprintf(name, sizeof(name), "/cases/%s/%s", cs, member);
    if (H5Lexists(f, name, H5P_DEFAULT) <= 0) {
        row += case_first(f, cs);
        snprintf(name, sizeof(name), "/events/%s", member);
    }
    hid_t d = H5Dopen2(f, name, H5P_DEFAULT);
    ck_assert_int_ge(d, 0);
    if (poke_raw_chunk(d, row, v) == 0) {
        H5Dclose(d);
        H5Fclose(f);
        return;
    }
    hid_t t = H5Tcopy(H5T_NATIVE_INT64);
    hid_t fsp = H5Dget_space(d);
    hsize_t one[1] = {1}, start[1] = {row};
    H5Sselect_hyperslab(fsp, H5S_SELECT_SET, start, NULL, one, NULL);
    hid_t msp = H5Screate_simple(1, one, NULL);
    ck_assert_int_ge(H5Dwrite(d, t, msp, fsp, H5P_DEFAULT, &v), 0);
    H5Sclose(msp);
    H5Sclose(fsp);
    H5Tclose(t);
    H5Dclose(d);
    H5Fclose(f);
}

/* Set member `member` (read as mtype from v) of row `row` of compound dataset dset. */
static void poke_member(const char *dset, hsize_t row, const char *member, hid_t mtype,
                        const void *v)
{
    hid_t f = edit();
    hid_t d = H5Dopen2(f, dset, H5P_DEFAULT);
    ck_assert_int_ge(d, 0);
    hid_t t = H5Tcreate(H5T_COMPOUND, H5Tget_size(mtype));
    H5Tinsert(t, member, 0, mtype);
    hid_t fsp = H5Dget_space(d);
    hsize_t one[1] = {1}, start[1] = {row};
    H5Sselect_hyperslab(fsp, H5S_SELECT_SET, start, NULL, one, NULL);
    hid_t msp = H5Screate_simple(1, one, NULL);
    ck_assert_int_ge(H5Dwrite(d, t, msp, fsp, H5P_DEFAULT, v), 0);
    H5Sclose(msp);
    H5Sclose(fsp);
    H5Tclose(t);
    H5Dclose(d);
    H5Fclose(f);
}

/* The same as poke_row in the `events` table of the 1.0/1.1 layout. */
static void poke_row_events(const char *cs, hsize_t row, const char *member, int64_t v)
{
    char name[256];
    snprintf(name, sizeof(name), "/cases/%s/events", cs);
    poke_member(name, row, member, H5T_NATIVE_INT64, &v);
}

/* Write strace_log() to PATH and a copy of it beside; restore gets the shell command that puts
 * the copy back. The number of handles the log has. */
static uint32_t write_strace_log_with_backup(char *restore, size_t size)
{
    struct iodfg_eventlog *log = strace_log();
    uint32_t nh = iodfg_eventlog_handle_count(log);
    write_log(log, PATH);
    iodfg_eventlog_free(log);
    snprintf(restore, size, "cp '%s' '%s/orig.h5'", PATH, DIR_);
    ck_assert_int_eq(system(restore), 0);
    snprintf(restore, size, "cp '%s/orig.h5' '%s'", DIR_, PATH);
    return nh;
}

START_TEST(load_bad_ids)
{
    char copy[4200];
    write_strace_log_with_backup(copy, sizeof(copy));

    poke_row("run_host1_7", 2, "key", 999);
    load_fails(PATH, IODFG_E_FORMAT, "run_host1_7, row 2: key id out of range");
    ck_assert_int_eq(system(copy), 0);
    poke_row("epoch_host1_8", 0, "call", 1);
    load_fails(PATH, IODFG_E_FORMAT, "call/fp do not match the key");
    ck_assert_int_eq(system(copy), 0);
    poke_row("epoch_host1_8", 1, "err", 1000000);
    load_fails(PATH, IODFG_E_FORMAT, "err string id out of range");
    ck_assert_int_eq(system(copy), 0);
    poke_row("run_host1_7", 3, "start", 0);
    load_fails(PATH, IODFG_E_FORMAT, "not sorted");
    ck_assert_int_eq(system(copy), 0);
    // Times outside the event log's range (iodfg/eventlog.h); the earliest damaged row counts.
    poke_row("run_host1_7", 4, "start", IODFG_START_MAX + 1);
    load_fails(PATH, IODFG_E_FORMAT, "run_host1_7, row 4: start out of range");
    ck_assert_int_eq(system(copy), 0);
    poke_row("run_host1_7", 1, "dur", -5);
    load_fails(PATH, IODFG_E_FORMAT, "run_host1_7, row 1: dur out of range");
    iodfg_eventlog_free(load_ok(PATH, IODFG_COL_START)); // dur is not read then
    poke_row("run_host1_7", 3, "key", 999);
    load_fails(PATH, IODFG_E_FORMAT, "run_host1_7, row 1: dur out of range");
    ck_assert_int_eq(system(copy), 0);
    poke_row("epoch_host1_8", 2, "dur", IODFG_DUR_MAX + 1);
    poke_row("epoch_host1_8", 1, "key", 999);
    load_fails(PATH, IODFG_E_FORMAT, "epoch_host1_8, row 1: key id out of range");
    ck_assert_int_eq(system(copy), 0);
    iodfg_eventlog_free(load_ok(PATH, IODFG_COL_ALL)); // the copy is intact
}
END_TEST

/* Set member `member` (an unsigned integer) of row `row` of /case_table to v. */
static void poke_case_table(hsize_t row, const char *member, uint64_t v)
{
    poke_member("/case_table", row, member, H5T_NATIVE_UINT64, &v);
}

START_TEST(load_bad_tables)
{
    char copy[4200];
    write_strace_log_with_backup(copy, sizeof(copy));

    // A key naming a string past the table.
    hid_t f = edit();
    hid_t d = H5Dopen2(f, "/keys/path", H5P_DEFAULT);
    uint32_t big = 77777;
    hid_t fsp = H5Dget_space(d);
    hsize_t one[1] = {1}, start[1] = {0};
    H5Sselect_hyperslab(fsp, H5S_SELECT_SET, start, NULL, one, NULL);
    hid_t msp = H5Screate_simple(1, one, NULL);
    ck_assert_int_ge(H5Dwrite(d, H5T_NATIVE_UINT32, msp, fsp, H5P_DEFAULT, &big), 0);
    H5Sclose(msp);
    H5Sclose(fsp);
    H5Dclose(d);
    H5Fclose(f);
    resum_all();
    load_fails(PATH, IODFG_E_FORMAT, "key 0 names string 77777");

    // A missing table.
    ck_assert_int_eq(system(copy), 0);
    f = edit();
    ck_assert_int_ge(H5Ldelete(f, "/strings/offsets", H5P_DEFAULT), 0);
    H5Fclose(f);
    load_fails(PATH, IODFG_E_FORMAT, "strings/offsets is missing");

    // Totals that disagree with the cases.
    ck_assert_int_eq(system(copy), 0);
    f = edit();
    ck_assert_int_ge(H5Adelete(f, "events"), 0);
    H5Fclose(f);
    load_fails(PATH, IODFG_E_FORMAT, "do not match");

    // The case table: missing, damaged, or not one row per case group.
    ck_assert_int_eq(system(copy), 0);
    f = edit();
    ck_assert_int_ge(H5Ldelete(f, "/case_table", H5P_DEFAULT), 0);
    H5Fclose(f);
    load_fails(PATH, IODFG_E_FORMAT, "table case_table is missing");
    static const struct {
        hsize_t row;
        const char *member;
        uint64_t v;
        const char *want;
    } damage[] = {
        {1, "first", 0, "case_table: case 1: its rows do not follow"},
        {0, "host", 99999, "case_table: case 0: string id out of range"},
        {2, "clock", 9, "case_table: case 2: naming or clock out of range"},
        {0, "rows", 1, "case_table: case 1: its rows do not follow"},
    };
    for (size_t i = 0; i < sizeof(damage) / sizeof(damage[0]); i++) {
        ck_assert_int_eq(system(copy), 0);
        poke_case_table(damage[i].row, damage[i].member, damage[i].v);
        if (strcmp(damage[i].member, "rows") != 0) {
            resum_all();
        } else { // the blocks cannot be summed by a table that lies about the rows
            hid_t ef = edit(), ct = store_case_type(0);
            resum_dataset(ef, "/case_table", ct);
            H5Tclose(ct);
            H5Fclose(ef);
        }
        load_fails(PATH, IODFG_E_FORMAT, damage[i].want);
    }
    ck_assert_int_eq(system(copy), 0);
    f = edit();
    ck_assert_int_ge(H5Ldelete(f, "/cases/run_host1_7", H5P_DEFAULT), 0);
    H5Fclose(f);
    load_fails(PATH, IODFG_E_FORMAT, "case_table has 3 rows for 2 case groups");

    // Before 3.0, a case without its name.
    copy_fixture("store/v2_0.h5");
    f = edit();
    ck_assert_int_ge(H5Adelete_by_name(f, "/cases/fpp_node1_14746", "name", H5P_DEFAULT), 0);
    H5Fclose(f);
    load_fails(PATH, IODFG_E_FORMAT, "case 1: attribute name is missing");
}
END_TEST

/* ---- other layouts and storage (format 2.0 reads them through HDF5) -------------------------- */

/* Load with a given number of threads. */
static struct iodfg_eventlog *load_threads(const char *path, unsigned mask, unsigned threads)
{
    struct iodfg_error err;
    iodfg_error_clear(&err);
    struct iodfg_eventlog *log = iodfg_store_load_threads(path, mask, threads, NULL, NULL, &err);
    ck_assert_msg(log != NULL, "load (%u threads): %s", threads, err.msg);
    no_open_objects();
    return log;
}

/* The handle tables of a and b hold the same rows (field by field: rows have padding). */
static void same_handles(const struct iodfg_eventlog *a, const struct iodfg_eventlog *b)
{
    uint32_t n = iodfg_eventlog_handle_count(a);
    ck_assert_uint_eq(n, iodfg_eventlog_handle_count(b));
    for (uint32_t i = 0; i < n; i++) {
        const struct iodfg_handle *x = &iodfg_eventlog_handles(a)[i];
        const struct iodfg_handle *y = &iodfg_eventlog_handles(b)[i];
        ck_assert(x->case_id == y->case_id && x->pid == y->pid && x->fd == y->fd &&
                  x->path == y->path && x->call == y->call && x->flags == y->flags &&
                  x->layer == y->layer && x->parent == y->parent && x->origin == y->origin &&
                  x->mode == y->mode && x->created_ns == y->created_ns &&
                  x->destroyed_ns == y->destroyed_ns && x->ops == y->ops &&
                  x->bytes_read == y->bytes_read && x->bytes_written == y->bytes_written);
    }
}

/* A log read from an older file, written again (as 3.0), reads back the same: events, handle
 * column and handle table. */
static void rewrite_reads_same(const struct iodfg_eventlog *old)
{
    write_log(old, PATH);
    struct iodfg_eventlog *back = load_ok(PATH, IODFG_COL_ALL);
    same_log(old, back, IODFG_COL_ALL);
    ck_assert(memcmp(iodfg_eventlog_columns(old)->handle, iodfg_eventlog_columns(back)->handle,
                     iodfg_eventlog_event_count(old) * sizeof(uint32_t)) == 0);
    same_handles(old, back);
    iodfg_eventlog_free(back);
}

START_TEST(read_minor_1)
{
    // Written by the 1.1 writer (`events` tables) from tests/data/traces/ior.
    struct iodfg_eventlog *old = load_ok(testutil_data("store/v1_1.h5"), IODFG_COL_ALL);
    ck_assert_uint_eq(iodfg_eventlog_case_count(old), 16);
    ck_assert_uint_eq(iodfg_eventlog_event_count(old), 352);
    ck_assert_uint_eq(iodfg_eventlog_handle_count(old), 48);
    ck_assert_str_eq(str(old, iodfg_eventlog_case(old, 0)->name), "fpp_node1_14745");
    const struct iodfg_columns *c = iodfg_eventlog_columns(old);
    const uint64_t *off = iodfg_eventlog_case_offsets(old);
    uint64_t with_handle = 0;
    for (uint32_t cs = 0; cs < 16; cs++) {
        for (uint64_t i = off[cs]; i < off[cs + 1]; i++) {
            if (c->handle[i]) {
                with_handle++;
                ck_assert_uint_eq(iodfg_eventlog_handles(old)[c->handle[i] - 1].case_id, cs);
            }
        }
    }
    ck_assert_uint_gt(with_handle, 300);
    rewrite_reads_same(old);
    iodfg_eventlog_free(old);
}
END_TEST

START_TEST(read_version_2)
{
    // Written by the 2.0 writer (a dataset per column in each case group) from the same traces.
    struct iodfg_eventlog *old = load_ok(testutil_data("store/v2_0.h5"), IODFG_COL_ALL);
    ck_assert_uint_eq(iodfg_eventlog_case_count(old), 16);
    ck_assert_uint_eq(iodfg_eventlog_event_count(old), 352);
    ck_assert_uint_eq(iodfg_eventlog_handle_count(old), 48);
    ck_assert_str_eq(str(old, iodfg_eventlog_case(old, 15)->name), "ssfpio_node1_14764");
    ck_assert_uint_eq(iodfg_eventlog_case(old, 0)->counts[IODFG_COUNT_EXITS], 1);
    // Threads and column masks read it as they read 3.0 files.
    for (unsigned threads = 1; threads <= 2; threads++) {
        struct iodfg_eventlog *back =
            load_threads(testutil_data("store/v2_0.h5"), IODFG_COL_ANALYSIS, threads);
        same_log(old, back, IODFG_COL_ANALYSIS);
        iodfg_eventlog_free(back);
    }
    rewrite_reads_same(old);
    iodfg_eventlog_free(old);
}
END_TEST

START_TEST(read_version_3)
{
    // Written by the 3.0 writer (/events columns stored as they are) from the same traces:
    // the same log as the 2.0 file, read through the 3.0 path.
    struct iodfg_eventlog *v2 = load_ok(testutil_data("store/v2_0.h5"), IODFG_COL_ALL);
    for (unsigned threads = 1; threads <= 2; threads++) {
        struct iodfg_eventlog *v3 =
            load_threads(testutil_data("store/v3_0.h5"), IODFG_COL_ALL, threads);
        same_log(v2, v3, IODFG_COL_ALL);
        same_handles(v2, v3);
        iodfg_eventlog_free(v3);
    }
    unsigned version = 0;
    ck_assert_int_eq(iodfg_store_stat(testutil_data("store/v3_0.h5"), NULL, NULL, &version, NULL),
                     0);
    ck_assert_uint_eq(version, 3);
    iodfg_eventlog_free(v2);
}
END_TEST

/* One row of the 1.0/1.1 `events` table (64 bytes, as doc/format.md lists it). */
struct old_row {
    int32_t pid;
    uint32_t call;
    int64_t start, dur;
    uint32_t fp, key;
    int64_t size, offset, req;
    int32_t fd;
    uint32_t err;
};

static hid_t old_row_type(void)
{
    hid_t t = H5Tcreate(H5T_COMPOUND, sizeof(struct old_row));
    H5Tinsert(t, "pid", HOFFSET(struct old_row, pid), H5T_STD_I32LE);
    H5Tinsert(t, "call", HOFFSET(struct old_row, call), H5T_STD_U32LE);
    H5Tinsert(t, "start", HOFFSET(struct old_row, start), H5T_STD_I64LE);
    H5Tinsert(t, "dur", HOFFSET(struct old_row, dur), H5T_STD_I64LE);
    H5Tinsert(t, "fp", HOFFSET(struct old_row, fp), H5T_STD_U32LE);
    H5Tinsert(t, "key", HOFFSET(struct old_row, key), H5T_STD_U32LE);
    H5Tinsert(t, "size", HOFFSET(struct old_row, size), H5T_STD_I64LE);
    H5Tinsert(t, "offset", HOFFSET(struct old_row, offset), H5T_STD_I64LE);
    H5Tinsert(t, "req", HOFFSET(struct old_row, req), H5T_STD_I64LE);
    H5Tinsert(t, "fd", HOFFSET(struct old_row, fd), H5T_STD_I32LE);
    H5Tinsert(t, "err", HOFFSET(struct old_row, err), H5T_STD_U32LE);
    return t;
}

/* Read rows [first, first + n) of a column as int64 (HDF5 converts); n = UINT64_MAX for all
 * of it (then set to the count). malloc'd. */
static int64_t *column_i64(hid_t loc, const char *name, hsize_t first, hsize_t *n)
{
    hid_t d = H5Dopen2(loc, name, H5P_DEFAULT);
    ck_assert_int_ge(d, 0);
    hid_t sp = H5Dget_space(d);
    hsize_t all;
    ck_assert_int_eq(H5Sget_simple_extent_dims(sp, &all, NULL), 1);
    if (*n == UINT64_MAX) {
        *n = all - first;
    }
    int64_t *v = malloc((*n ? *n : 1) * sizeof(*v));
    if (*n > 0) {
        hsize_t start[1] = {first}, count[1] = {*n};
        H5Sselect_hyperslab(sp, H5S_SELECT_SET, start, NULL, count, NULL);
        hid_t msp = H5Screate_simple(1, count, NULL);
        ck_assert(H5Dread(d, H5T_NATIVE_INT64, msp, sp, H5P_DEFAULT, v) >= 0);
        H5Sclose(msp);
    }
    H5Sclose(sp);
    H5Dclose(d);
    return v;
}

/* Turn the file at PATH into the 1.1 layout: each case's rows of /events as an `events` table
 * in its group (chunked past 65536 rows, as the 1.1 writer did), the handle column beside it;
 * no /events or /case_table; version 1.1. */
static void to_compound(void)
{
    static const char *const cols[] = {"pid",  "call",   "start", "dur", "fp", "key",
                                       "size", "offset", "req",   "fd",  "err"};
    hid_t f = edit();
    hid_t cases = H5Gopen2(f, "cases", H5P_DEFAULT);
    hid_t events = H5Gopen2(f, "events", H5P_DEFAULT);
    H5G_info_t gi;
    ck_assert_int_ge(H5Gget_info(cases, &gi), 0);
    hid_t ft = old_row_type();
    for (hsize_t i = 0; i < gi.nlinks; i++) {
        hid_t g = H5Oopen_by_idx(cases, ".", H5_INDEX_CRT_ORDER, H5_ITER_INC, i, H5P_DEFAULT);
        ck_assert_int_ge(g, 0);
        int64_t *v[11];
        hsize_t first = 0, n = 0;
        hid_t a = H5Aopen(g, "first", H5P_DEFAULT);
        ck_assert_int_ge(H5Aread(a, H5T_NATIVE_UINT64, &first), 0);
        H5Aclose(a);
        a = H5Aopen(g, "rows", H5P_DEFAULT);
        ck_assert_int_ge(H5Aread(a, H5T_NATIVE_UINT64, &n), 0);
        H5Aclose(a);
        for (int c = 0; c < 11; c++) {
            hsize_t m = n;
            v[c] = column_i64(events, cols[c], first, &m);
        }
        hsize_t hn = n;
        int64_t *hv = column_i64(events, "handle", first, &hn);
        uint32_t *h32 = malloc((n ? n : 1) * sizeof(*h32));
        for (hsize_t j = 0; j < n; j++) {
            h32[j] = (uint32_t)hv[j];
        }
        hsize_t hdims[1] = {n};
        hid_t hsp = H5Screate_simple(1, hdims, NULL);
        hid_t hd =
            H5Dcreate2(g, "handle", H5T_STD_U32LE, hsp, H5P_DEFAULT, H5P_DEFAULT, H5P_DEFAULT);
        ck_assert(n == 0 ||
                  H5Dwrite(hd, H5T_NATIVE_UINT32, H5S_ALL, H5S_ALL, H5P_DEFAULT, h32) >= 0);
        H5Dclose(hd);
        H5Sclose(hsp);
        free(h32);
        free(hv);
        struct old_row *rows = calloc(n ? n : 1, sizeof(*rows));
        for (hsize_t j = 0; j < n; j++) {
            rows[j] =
                (struct old_row){(int32_t)v[0][j],  (uint32_t)v[1][j], v[2][j],           v[3][j],
                                 (uint32_t)v[4][j], (uint32_t)v[5][j], v[6][j],           v[7][j],
                                 v[8][j],           (int32_t)v[9][j],  (uint32_t)v[10][j]};
        }
        hsize_t dims[1] = {n}, chunk[1] = {65536};
        hid_t sp = H5Screate_simple(1, dims, NULL);
        hid_t dcpl = H5Pcreate(H5P_DATASET_CREATE);
        if (n > 65536) {
            H5Pset_chunk(dcpl, 1, chunk);
        }
        hid_t d = H5Dcreate2(g, "events", ft, sp, H5P_DEFAULT, dcpl, H5P_DEFAULT);
        ck_assert_int_ge(d, 0);
        ck_assert(n == 0 || H5Dwrite(d, ft, H5S_ALL, H5S_ALL, H5P_DEFAULT, rows) >= 0);
        H5Dclose(d);
        H5Pclose(dcpl);
        H5Sclose(sp);
        free(rows);
        for (int c = 0; c < 11; c++) {
            free(v[c]);
        }
        H5Oclose(g);
    }
    H5Tclose(ft);
    H5Gclose(events);
    H5Gclose(cases);
    ck_assert_int_ge(H5Ldelete(f, "events", H5P_DEFAULT), 0);
    ck_assert_int_ge(H5Ldelete(f, "case_table", H5P_DEFAULT), 0);
    set_u32_attr(f, "version", 1);
    set_u32_attr(f, "minor", 1);
    H5Fclose(f);
}

START_TEST(read_compound_layout)
{
    // The 1.1 layout made from a 3.0 file: chunked, contiguous and empty tables.
    const uint32_t sizes[] = {140001, 3, 0, 65536};
    struct iodfg_eventlog *log = sized_log(4, sizes, 0, 77);
    write_log(log, PATH);
    to_compound();
    hid_t f = H5Fopen(PATH, H5F_ACC_RDONLY, H5P_DEFAULT);
    ck_assert(exists_link(f, "/cases/job0_node0_0/events"));
    ck_assert(!exists_link(f, "/events"));
    H5Fclose(f);
    const unsigned masks[] = {IODFG_COL_ALL, IODFG_COL_ANALYSIS, IODFG_COL_KEY};
    for (size_t m = 0; m < 3; m++) {
        struct iodfg_eventlog *back = load_threads(PATH, masks[m], m + 1);
        same_log(log, back, masks[m]);
        iodfg_eventlog_free(back);
    }
    // Its rows are checked as before.
    poke_row_events("job1_node1_1", 2, "key", 1u << 30);
    load_fails(PATH, IODFG_E_FORMAT, "job1_node1_1, row 2: key id out of range");
    poke_row_events("job0_node0_0", 1, "dur", -5);
    load_fails(PATH, IODFG_E_FORMAT, "job0_node0_0, row 1: dur out of range");
    iodfg_eventlog_free(log);
}
END_TEST

/* Replace column `col` of group `group` (/events, or a 2.0 case group) by a dataset of type
 * ftype (chunk rows per chunk, 0 for contiguous; HDF5's scale-offset filter when so; deflate
 * level, 0 for none) holding the same values. */
static void rewrite_column_with(const char *group, const char *col, hid_t ftype, hsize_t chunk,
                                int so, unsigned deflate)
{
    hid_t f = edit();
    hid_t c = H5Gopen2(f, group, H5P_DEFAULT);
    ck_assert_int_ge(c, 0);
    hsize_t n = UINT64_MAX;
    int64_t *v = column_i64(c, col, 0, &n);
    ck_assert_int_ge(H5Ldelete(c, col, H5P_DEFAULT), 0);
    hsize_t dims[1] = {n}, ch[1] = {chunk};
    hid_t sp = H5Screate_simple(1, dims, NULL);
    hid_t dcpl = H5Pcreate(H5P_DATASET_CREATE);
    if (chunk) {
        ck_assert_int_ge(H5Pset_chunk(dcpl, 1, ch), 0);
    }
    if (so) {
        ck_assert_int_ge(H5Pset_scaleoffset(dcpl, H5Z_SO_INT, H5Z_SO_INT_MINBITS_DEFAULT), 0);
    }
    if (deflate) {
        ck_assert_int_ge(H5Pset_deflate(dcpl, deflate), 0);
    }
    hid_t d = H5Dcreate2(c, col, ftype, sp, H5P_DEFAULT, dcpl, H5P_DEFAULT);
    ck_assert_int_ge(d, 0);
    ck_assert(n == 0 || H5Dwrite(d, H5T_NATIVE_INT64, H5S_ALL, H5S_ALL, H5P_DEFAULT, v) >= 0);
    H5Dclose(d);
    H5Pclose(dcpl);
    H5Sclose(sp);
    free(v);
    H5Gclose(c);
    H5Fclose(f);
}

static void rewrite_column(const char *group, const char *col, hid_t ftype, hsize_t chunk,
                           unsigned deflate)
{
    rewrite_column_with(group, col, ftype, chunk, 0, deflate);
}

START_TEST(read_hdf5_coded_columns)
{
    // Columns coded by HDF5's own scale-offset filter, as iodfg-mpi writes them (no deflate):
    // whole chunks and the last, partial one (1,177 of 4,096 rows) are decoded by iodfg, whole
    // logs and ranges of cases alike. Then one column HDF5 also deflated: HDF5 reads it.
    const uint32_t sizes[] = {3000, 2500, 70000, 1, 3500};
    struct iodfg_eventlog *log = sized_log(5, sizes, 0, 5);
    write_log(log, PATH);
    rewrite_column_with("events", "start", H5T_NATIVE_INT64, 4096, 1, 0);
    rewrite_column_with("events", "key", H5T_NATIVE_UINT32, 4096, 1, 0);
    rewrite_column_with("events", "size", H5T_NATIVE_INT64, 4096, 1, 0);
    for (int deflated = 0; deflated < 2; deflated++) {
        if (deflated) {
            rewrite_column_with("events", "dur", H5T_NATIVE_INT64, 4096, 1, 1);
        }
        for (unsigned threads = 1; threads <= 2; threads++) {
            struct iodfg_eventlog *back = load_threads(PATH, IODFG_COL_ALL, threads);
            same_log(log, back, IODFG_COL_ALL);
            iodfg_eventlog_free(back);
        }
        static const uint32_t ranges[][2] = {{0, 2}, {2, 1}, {3, 2}, {4, 1}};
        for (size_t i = 0; i < sizeof(ranges) / sizeof(ranges[0]); i++) {
            same_range(log, PATH, ranges[i][0], ranges[i][1]);
        }
    }
    iodfg_eventlog_free(log);
}
END_TEST

START_TEST(read_converted_columns)
{
    // Columns HDF5 must convert or decode (foreign byte order, other widths, chunked,
    // compressed) load the same as raw ones (contiguous columns are raw too).
    const uint32_t sizes[] = {3000, 2500, 70000, 1, 3500};
    struct iodfg_eventlog *log = sized_log(5, sizes, 0, 5);
    write_log(log, PATH);
    const unsigned masks[] = {IODFG_COL_ALL, IODFG_COL_ANALYSIS, IODFG_COL_ERR | IODFG_COL_FD};
    rewrite_column("events", "offset", H5T_STD_I64LE, 0, 0);
    rewrite_column("events", "req", H5T_STD_I64LE, 1000, 0);
    for (size_t m = 0; m < 3; m++) {
        struct iodfg_eventlog *back = load_threads(PATH, masks[m], 2);
        same_log(log, back, masks[m]);
        iodfg_eventlog_free(back);
    }
    rewrite_column("events", "start", H5T_STD_I64BE, 0, 0);
    rewrite_column("events", "key", H5T_STD_U32BE, 0, 0);
    rewrite_column("events", "pid", H5T_STD_I64LE, 0, 0);
    rewrite_column("events", "err", H5T_STD_U64LE, 0, 0);
    rewrite_column("events", "dur", H5T_STD_I64LE, 700, 1);
    rewrite_column("events", "call", H5T_STD_U32LE, 1000, 6);
    rewrite_column("events", "handle", H5T_STD_U32LE, 333, 0);
    rewrite_column("events", "fd", H5T_STD_I32BE, 7, 0);
    for (unsigned threads = 1; threads <= 3; threads++) {
        for (size_t m = 0; m < 3; m++) {
            struct iodfg_eventlog *back = load_threads(PATH, masks[m], threads);
            same_log(log, back, masks[m]);
            iodfg_eventlog_free(back);
        }
    }
    // Damage in a converted column is found like anywhere else.
    poke_row("job2_node2_2", 1234, "call", 0);
    load_fails(PATH, IODFG_E_FORMAT, "job2_node2_2, row 1234: call/fp do not match the key");
    iodfg_eventlog_free(log);

    // 2.0 files: a case's columns converted, beside raw cases read by other threads.
    copy_fixture("store/v2_0.h5");
    struct iodfg_eventlog *v2 = load_ok(PATH, IODFG_COL_ALL);
    rewrite_column("cases/fpp_node1_14745", "start", H5T_STD_I64BE, 0, 0);
    rewrite_column("cases/fpp_node1_14746", "key", H5T_STD_U32LE, 7, 3);
    rewrite_column("cases/fpp_node1_14746", "handle", H5T_STD_U64LE, 0, 0);
    for (unsigned threads = 1; threads <= 2; threads++) {
        struct iodfg_eventlog *back = load_threads(PATH, IODFG_COL_ALL, threads);
        same_log(v2, back, IODFG_COL_ALL);
        iodfg_eventlog_free(back);
    }
    poke_row("fpp_node1_14746", 5, "call", 0);
    load_fails(PATH, IODFG_E_FORMAT, "fpp_node1_14746, row 5: call/fp do not match the key");
    iodfg_eventlog_free(v2);
}
END_TEST

/* Run a shell command; 77 from it means "skip". */
static int run(const char *cmd)
{
    int rc = system(cmd);
    return WIFEXITED(rc) ? WEXITSTATUS(rc) : -1;
}

START_TEST(read_repacked)
{
    // Files other tools rewrote: h5repack with gzip, with chunks; h5jam with a user block (raw
    // data offsets then start after it). (h5repack cannot compress empty datasets: the ior
    // traces have none.)
    if (run("command -v h5repack && command -v h5jam && command -v timeout") != 0) {
        fprintf(stderr, "read_repacked: skipped, no h5repack/h5jam\n");
        return;
    }
    struct iodfg_eventlog *log = load_ok(testutil_data("store/v1_1.h5"), IODFG_COL_ALL);
    write_log(log, PATH);
    char ub[4200], cmd[13000], out[4200];
    snprintf(ub, sizeof(ub), "%s/ub", DIR_);
    char zeros[512] = {0};
    testutil_write_file(ub, zeros, sizeof(zeros));
    snprintf(out, sizeof(out), "%s/re.h5", DIR_);
    for (int o = 0; o < 3; o++) {
        unlink(out);
        if (o < 2) {
            snprintf(cmd, sizeof(cmd), "timeout 60 h5repack %s '%s' '%s' >/dev/null",
                     o == 0 ? "-f GZIP=1" : "-l CHUNK=100", PATH, out);
        } else {
            snprintf(cmd, sizeof(cmd), "timeout 60 h5jam -i '%s' -u '%s' -o '%s' >/dev/null", PATH,
                     ub, out);
        }
        ck_assert_msg(run(cmd) == 0, "%s", cmd);
        for (unsigned threads = 1; threads <= 2; threads++) {
            struct iodfg_eventlog *back = load_threads(out, IODFG_COL_ALL, threads);
            same_log(log, back, IODFG_COL_ALL);
            same_handles(log, back);
            ck_assert(memcmp(iodfg_eventlog_columns(log)->handle,
                             iodfg_eventlog_columns(back)->handle, 352 * 4) == 0);
            iodfg_eventlog_free(back);
        }
    }
    iodfg_eventlog_free(log);
}
END_TEST

START_TEST(threads_agree)
{
    // A case cut into several work items, and small ones; any number of threads loads the
    // same log and reports the same (first) damage.
    const uint32_t sizes[] = {7, 600000, 12, 70000};
    struct iodfg_eventlog *log = sized_log(4, sizes, 0, 21);
    write_log(log, PATH);
    for (unsigned threads = 0; threads <= 4; threads++) {
        struct iodfg_eventlog *back = load_threads(PATH, IODFG_COL_ALL, threads);
        same_log(log, back, IODFG_COL_ALL);
        iodfg_eventlog_free(back);
    }
    uint64_t seen[3] = {0, 0, 0};
    struct iodfg_eventlog *back =
        iodfg_store_load_threads(PATH, IODFG_COL_KEY, 3, count_progress, seen, NULL);
    ck_assert_ptr_nonnull(back);
    ck_assert_uint_eq(seen[0], 670019);
    ck_assert_uint_eq(seen[1], 670019);
    iodfg_eventlog_free(back);
    poke_row("job3_node0_3", 5, "start", 0);
    poke_row("job1_node1_1", 590000, "err", 1u << 30);
    poke_row("job1_node1_1", 300000, "key", 1u << 30);
    for (unsigned threads = 1; threads <= 4; threads++) {
        struct iodfg_error err;
        iodfg_error_clear(&err);
        ck_assert_ptr_null(
            iodfg_store_load_threads(PATH, IODFG_COL_ANALYSIS, threads, NULL, NULL, &err));
        no_open_objects();
        ck_assert_int_eq(err.code, IODFG_E_FORMAT);
        ck_assert_str_eq(err.where, PATH);
        ck_assert_msg(strstr(err.msg, "job1_node1_1, row 300000: key id out of range") != NULL,
                      "%u threads: %s", threads, err.msg);
    }
    iodfg_eventlog_free(log);
}
END_TEST

START_TEST(small_cases_read_together)
{
    // Many small cases (one per MPI rank) are read several at a time; damage is still named
    // by its case and row, the first in file order whatever the threads.
    uint32_t sizes[300];
    for (uint32_t c = 0; c < 300; c++) {
        sizes[c] = c % 50 == 7 ? 0 : 6 + c * 37 % 900;
    }
    struct iodfg_eventlog *log = sized_log(300, sizes, 0, 31);
    write_log(log, PATH);
    for (unsigned threads = 1; threads <= 3; threads++) {
        const unsigned masks[] = {IODFG_COL_ALL, IODFG_COL_ANALYSIS, IODFG_COL_FD};
        struct iodfg_eventlog *back = load_threads(PATH, masks[threads - 1], threads);
        same_log(log, back, masks[threads - 1]);
        iodfg_eventlog_free(back);
    }
    char c137[64], c250[64];
    snprintf(c137, sizeof(c137), "%s", str(log, iodfg_eventlog_case(log, 137)->name));
    snprintf(c250, sizeof(c250), "%s", str(log, iodfg_eventlog_case(log, 250)->name));
    poke_row(c250, 1, "key", 1u << 30);
    poke_row(c137, 5, "start", -1);
    poke_row(c137, 4, "err", 1u << 30);
    char want[128];
    snprintf(want, sizeof(want), "%s, row 4: err string id out of range", c137);
    for (unsigned threads = 1; threads <= 3; threads++) {
        struct iodfg_error err;
        iodfg_error_clear(&err);
        ck_assert_ptr_null(
            iodfg_store_load_threads(PATH, IODFG_COL_ANALYSIS, threads, NULL, NULL, &err));
        no_open_objects();
        ck_assert_msg(strstr(err.msg, want) != NULL, "%u threads: %s", threads, err.msg);
    }
    // A duration out of range on an earlier row comes first, when durations are loaded.
    poke_row(c137, 2, "dur", -1);
    snprintf(want, sizeof(want), "%s, row 2: dur out of range", c137);
    load_fails(PATH, IODFG_E_FORMAT, want);
    struct iodfg_error err;
    iodfg_error_clear(&err);
    ck_assert_ptr_null(iodfg_store_load(PATH, IODFG_COL_KEY, NULL, NULL, &err));
    ck_assert_ptr_nonnull(strstr(err.msg, "row 4: err string id out of range"));
    iodfg_eventlog_free(log);
}
END_TEST

START_TEST(load_bad_columns)
{
    char copy[4200];
    ck_assert_uint_gt(write_strace_log_with_backup(copy, sizeof(copy)), 0);

    // A column missing, even one not asked for (it is checked).
    hid_t f = edit();
    ck_assert_int_ge(H5Ldelete(f, "/events/err", H5P_DEFAULT), 0);
    H5Fclose(f);
    load_fails(PATH, IODFG_E_FORMAT, "column events/err is missing");

    // A column of another length.
    ck_assert_int_eq(system(copy), 0);
    f = edit();
    hid_t g = H5Gopen2(f, "/events", H5P_DEFAULT);
    ck_assert_int_ge(H5Ldelete(g, "dur", H5P_DEFAULT), 0);
    hsize_t dims[1] = {4};
    hid_t sp = H5Screate_simple(1, dims, NULL);
    int64_t four[4] = {1, 2, 3, 4};
    hid_t d = H5Dcreate2(g, "dur", H5T_STD_I64LE, sp, H5P_DEFAULT, H5P_DEFAULT, H5P_DEFAULT);
    ck_assert_int_ge(H5Dwrite(d, H5T_NATIVE_INT64, H5S_ALL, H5S_ALL, H5P_DEFAULT, four), 0);
    H5Dclose(d);
    // ... and one of floats
    dims[0] = 5;
    H5Sclose(sp);
    sp = H5Screate_simple(1, dims, NULL);
    ck_assert_int_ge(H5Ldelete(g, "size", H5P_DEFAULT), 0);
    d = H5Dcreate2(g, "size", H5T_IEEE_F64LE, sp, H5P_DEFAULT, H5P_DEFAULT, H5P_DEFAULT);
    H5Dclose(d);
    H5Sclose(sp);
    H5Gclose(g);
    H5Fclose(f);
    load_fails(PATH, IODFG_E_FORMAT, "column events/dur has 4 rows, the cases 8");
    // Columns neither asked for nor checked are not read at all.
    iodfg_eventlog_free(load_ok(PATH, IODFG_COL_START));
    struct iodfg_error err;
    iodfg_error_clear(&err);
    ck_assert_ptr_null(iodfg_store_load(PATH, IODFG_COL_SIZE, NULL, NULL, &err));
    ck_assert_ptr_nonnull(strstr(err.msg, "column events/size is not a valid integer column"));

    // A handle row naming a case that does not exist, also when the table is read while
    // other threads read columns (the table asked for without the handle column); a load that
    // asks for neither does not read it.
    ck_assert_int_eq(system(copy), 0);
    uint32_t bad_case = 77;
    poke_member("/handles", 1, "case", H5T_NATIVE_UINT32, &bad_case);
    resum_all();
    load_fails(PATH, IODFG_E_FORMAT, "handle 2: case out of range");
    for (unsigned threads = 1; threads <= 2; threads++) {
        iodfg_error_clear(&err);
        ck_assert_ptr_null(iodfg_store_load_threads(
            PATH, IODFG_COL_ANALYSIS | IODFG_COL_HANDLE_TABLE, threads, NULL, NULL, &err));
        no_open_objects();
        ck_assert_ptr_nonnull(strstr(err.msg, "handle 2: case out of range"));
        ck_assert_str_eq(err.where, PATH);
    }
    iodfg_eventlog_free(load_ok(PATH, IODFG_COL_ANALYSIS));
    // Each other check of a row, alone: the first damaged row is named (1-based id).
    static const struct {
        const char *member;
        uint32_t value;
        const char *want;
    } faults[] = {{"parent", 3, "handle 2: parent is not an earlier handle"},
                  {"flags", 4000000000u, "handle 2: string id out of range"},
                  {"layer", 4000000000u, "handle 2: string id out of range"},
                  {"origin", 4, "handle 2: unknown origin"}};
    for (size_t k = 0; k < sizeof(faults) / sizeof(faults[0]); k++) {
        ck_assert_int_eq(system(copy), 0);
        poke_member("/handles", 1, faults[k].member, H5T_NATIVE_UINT32, &faults[k].value);
        poke_member("/handles", 2, faults[k].member, H5T_NATIVE_UINT32, &faults[k].value);
        resum_all();
        load_fails(PATH, IODFG_E_FORMAT, faults[k].want);
    }

    // A handle id past the table, or of another case.
    ck_assert_int_eq(system(copy), 0);
    poke_row("run_host1_7", 1, "handle", 999999);
    resum_all();
    load_fails(PATH, IODFG_E_FORMAT, "run_host1_7: handle id out of range");
    ck_assert_int_eq(system(copy), 0);
    struct iodfg_eventlog *back = load_ok(PATH, IODFG_COL_ALL);
    uint32_t other = 0; // a handle of the second case
    for (uint32_t h = 1; h <= iodfg_eventlog_handle_count(back) && !other; h++) {
        other = iodfg_eventlog_handles(back)[h - 1].case_id == 1 ? h : 0;
    }
    iodfg_eventlog_free(back);
    ck_assert_uint_gt(other, 0);
    poke_row("run_host1_7", 2, "handle", other);
    resum_all();
    for (unsigned threads = 1; threads <= 2; threads++) {
        iodfg_error_clear(&err);
        ck_assert_ptr_null(
            iodfg_store_load_threads(PATH, IODFG_COL_ALL, threads, NULL, NULL, &err));
        ck_assert_ptr_nonnull(strstr(err.msg, "run_host1_7: handle id out of range"));
    }
    iodfg_eventlog_free(load_ok(PATH, IODFG_COL_ANALYSIS)); // the column is not read then
    ck_assert_int_eq(system(copy), 0);
    iodfg_eventlog_free(load_ok(PATH, IODFG_COL_ALL));
}
END_TEST

/* The h5py example of doc/format.md, run on a file we wrote. Skipped (with a note) when no
 * python3 with h5py is found. */
START_TEST(doc_h5py_example)
{
    const char *src = getenv("IODFG_SRCDIR");
    char cmd[16384], out[4200], script[4200];
    snprintf(script, sizeof(script), "%s/example.py", DIR_);
    snprintf(out, sizeof(out), "%s/out.txt", DIR_);
    snprintf(cmd, sizeof(cmd),
             "sed -n '/^```python/,/^```$/p' '%s/doc/format.md' | sed '1d;$d' > '%s'",
             src ? src : ".", script);
    ck_assert_int_eq(system(cmd), 0);
    struct iodfg_eventlog *log = strace_log();
    write_log(log, PATH);
    iodfg_eventlog_free(log);
    snprintf(cmd, sizeof(cmd),
             "for p in /usr/bin/python3 python3; do "
             "if $p -c 'import h5py' 2>/dev/null; then $p '%s' '%s' > '%s'; exit $?; fi; done; "
             "exit 77",
             script, PATH, out);
    int rc = system(cmd);
    if (WIFEXITED(rc) && WEXITSTATUS(rc) == 77) {
        fprintf(stderr, "doc_h5py_example: skipped, no python3 with h5py\n");
        return;
    }
    ck_assert_int_eq(rc, 0);
    size_t n;
    char *got = slurp(out, &n);
    got[n] = '\0';
    ck_assert_str_eq(got,
                     "run_host1_7 5 events\n"
                     "9054 read 32154153994000 /usr/lib/x86_64-linux-gnu/libselinux.so.1 832 \n"
                     "9054 openat 32154160000000 /tmp/missing ? ENOENT\n"
                     "9055 read 32154170000000 /data/in put.dat 4096 \n"
                     "9054 write 32154176260000 /dev/pts/7 50 \n"
                     "9054 lseek 32154200000000 /usr/lib/x86_64-linux-gnu/libselinux.so.1 ? \n");
    free(got);
}
END_TEST

static Suite *store_suite(void)
{
    Suite *s = suite_create("store");
    TCase *tc = tcase_create("roundtrip");
    tcase_add_checked_fixture(tc, setup, teardown);
    tcase_set_timeout(tc, 60);
    tcase_add_test(tc, roundtrip_strace);
    tcase_add_test(tc, roundtrip_push);
    tcase_add_test(tc, roundtrip_many_cases);
    tcase_add_test(tc, load_case_ranges);
    tcase_add_test(tc, roundtrip_large_case);
    tcase_add_test(tc, roundtrip_empty_log);
    tcase_add_test(tc, roundtrip_partial_columns);
    tcase_add_test(tc, write_several_logs);
    tcase_add_test(tc, case_group_names);
    tcase_add_test(tc, column_masks);
    tcase_add_test(tc, stat_and_progress);
    tcase_add_test(tc, doc_h5py_example);
    tcase_add_test(tc, read_minor_1);
    tcase_add_test(tc, read_version_2);
    tcase_add_test(tc, read_version_3);
    tcase_add_test(tc, read_repacked);
    suite_add_tcase(s, tc);

    // Layouts HDF5 converts or decodes, and large cases over several threads: make check-fast
    // leaves them out (CK_EXCLUDE_TAGS=slow), make check runs them.
    tc = testutil_slow_tcase(s, "layouts", setup, teardown);
    tcase_add_test(tc, small_cases_read_together);
    tcase_add_test(tc, read_compound_layout);
    tcase_add_test(tc, read_converted_columns);
    tcase_add_test(tc, read_hdf5_coded_columns);
    tcase_add_test(tc, threads_agree);

    tc = tcase_create("atomic");
    tcase_add_checked_fixture(tc, setup, teardown);
    tcase_add_test(tc, refuse_overwrite);
    tcase_add_test(tc, refuse_file_appearing_meanwhile);
    tcase_add_test(tc, abort_leaves_nothing);
    tcase_add_test(tc, temp_file_beside_final);
    tcase_add_test(tc, create_in_missing_dir);
    suite_add_tcase(s, tc);

    tc = tcase_create("bad_input");
    tcase_add_checked_fixture(tc, setup, teardown);
    tcase_set_timeout(tc, 60);
    tcase_add_test(tc, load_text_file);
    tcase_add_test(tc, load_empty_file);
    tcase_add_test(tc, load_missing_file);
    tcase_add_test(tc, load_truncated);
    tcase_add_test(tc, load_flipped_rows);
    tcase_add_test(tc, load_flipped_anywhere);
    tcase_add_test(tc, load_foreign_hdf5);
    tcase_add_test(tc, load_newer_version);
    tcase_add_test(tc, load_vlen_strings);
    tcase_add_test(tc, load_bad_ids);
    tcase_add_test(tc, load_bad_tables);
    tcase_add_test(tc, load_bad_columns);
    suite_add_tcase(s, tc);
    return s;
}

int main(void)
{
    return testutil_run(store_suite());
}
