/* SPDX-License-Identifier: MIT */
/* Unit tests: columnar event log (building, sorting, keys, append). */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "iodfg/bigmem.h"
#include "iodfg/error.h"
#include "iodfg/eventlog.h"
#include "iodfg/handles.h"
#include "iodfg/strpool.h"

#include "testutil.h"

static uint32_t S(struct iodfg_eventlog *log, const char *s)
{
    uint32_t id;
    ck_assert_int_eq(iodfg_strpool_intern(iodfg_eventlog_pool(log), s, strlen(s), &id), 0);
    return id;
}

/* One event; its offset column holds off (IODFG_UNKNOWN: none). */
static void push_at(struct iodfg_eventlog *log, const char *call, const char *path, int64_t start,
                    uint64_t seq, int64_t off)
{
    struct iodfg_raw_event ev = {
        .start_ns = start,
        .dur_ns = 10,
        .size = 5,
        .offset = off,
        .req = IODFG_UNKNOWN,
        .pid = 7,
        .fd = 3,
        .call = call,
        .call_len = strlen(call),
        .path = path,
        .path_len = strlen(path),
        .err = "",
        .err_len = 0,
        .seq = seq,
    };
    ck_assert_int_eq(iodfg_eventlog_push_raw(log, &ev, NULL), 0);
}

static void push(struct iodfg_eventlog *log, const char *call, const char *path, int64_t start,
                 uint64_t seq)
{
    push_at(log, call, path, start, seq, IODFG_UNKNOWN);
}

static void begin(struct iodfg_eventlog *log, const char *name)
{
    struct iodfg_case_info info;
    memset(&info, 0, sizeof(info));
    info.name = S(log, name);
    info.clock = IODFG_CLOCK_TIME_OF_DAY;
    ck_assert_int_eq(iodfg_eventlog_begin_case(log, &info, NULL), 0);
}

START_TEST(times_clamped_to_range)
{
    // Whatever a reader pushes, the log holds starts and durations whose sums of one start and
    // one duration, and differences, fit in an int64.
    struct iodfg_eventlog *log = iodfg_eventlog_new(IODFG_COL_ALL);
    begin(log, "c");
    const int64_t starts[] = {INT64_MIN + 1, -5, 7, INT64_MAX};
    const int64_t durs[] = {-7, IODFG_UNKNOWN, IODFG_DUR_MAX, INT64_MAX};
    for (int i = 0; i < 4; i++) {
        struct iodfg_raw_event ev = {
            .start_ns = starts[i],
            .dur_ns = durs[i],
            .size = 5,
            .offset = IODFG_UNKNOWN,
            .req = IODFG_UNKNOWN,
            .pid = 7,
            .fd = 3,
            .call = "read",
            .call_len = 4,
            .path = "/f",
            .path_len = 2,
            .err = "",
            .err_len = 0,
            .seq = (uint64_t)i,
        };
        ck_assert_int_eq(iodfg_eventlog_push_raw(log, &ev, NULL), 0);
    }
    ck_assert_int_eq(iodfg_eventlog_end_case(log, NULL), 0);
    const struct iodfg_columns *c = iodfg_eventlog_columns(log);
    const int64_t want_start[] = {IODFG_START_MIN, -5, 7, IODFG_START_MAX};
    const int64_t want_dur[] = {IODFG_UNKNOWN, IODFG_UNKNOWN, IODFG_DUR_MAX, IODFG_DUR_MAX};
    for (int i = 0; i < 4; i++) {
        ck_assert_int_eq(c->start_ns[i], want_start[i]);
        ck_assert_int_eq(c->dur_ns[i], want_dur[i]);
    }
    ck_assert_int_eq(iodfg_sat_add(INT64_MAX - 1, 5), INT64_MAX);
    ck_assert_int_eq(iodfg_sat_add(INT64_MIN + 1, -5), INT64_MIN);
    ck_assert_int_eq(iodfg_sat_add(-5, 7), 2);
    iodfg_eventlog_free(log);
}
END_TEST

START_TEST(stable_sort_by_start_then_seq)
{
    struct iodfg_eventlog *log = iodfg_eventlog_new(IODFG_COL_ALL);
    begin(log, "a");
    push(log, "read", "/x", 30, 1);
    push(log, "write", "/x", 10, 2);
    push(log, "read", "/y", 10, 3);
    push(log, "close", "/x", 20, 4);
    ck_assert_int_eq(iodfg_eventlog_end_case(log, NULL), 0);
    const struct iodfg_columns *c = iodfg_eventlog_columns(log);
    const struct iodfg_key *k = iodfg_eventlog_keys(log);
    struct iodfg_strpool *p = iodfg_eventlog_pool(log);
    int64_t want[] = {10, 10, 20, 30};
    const char *calls[] = {"write", "read", "close", "read"};
    for (int i = 0; i < 4; i++) {
        ck_assert_int_eq(c->start_ns[i], want[i]);
        ck_assert_str_eq(iodfg_strpool_get(p, k[c->key[i]].call), calls[i]);
    }
    ck_assert_str_eq(iodfg_strpool_get(p, k[c->key[1]].path), "/y");
    ck_assert_uint_eq(iodfg_eventlog_key_count(log), 4);
    iodfg_eventlog_free(log);
}
END_TEST

START_TEST(time_origin_of_a_part)
{
    // Relative times count from the earliest start over the cases, or from an origin given
    // (one process's part of a larger log); aligning the cases makes it 0 again.
    struct iodfg_eventlog *log = iodfg_eventlog_new(IODFG_COL_ALL);
    ck_assert_int_eq(iodfg_eventlog_earliest_start(log), INT64_MAX);
    ck_assert_int_eq(iodfg_eventlog_time_origin(log), 0);
    begin(log, "late");
    push(log, "read", "/x", 900, 1);
    ck_assert_int_eq(iodfg_eventlog_end_case(log, NULL), 0);
    begin(log, "early");
    push(log, "read", "/x", 700, 1);
    push(log, "read", "/x", 800, 2);
    ck_assert_int_eq(iodfg_eventlog_end_case(log, NULL), 0);
    ck_assert_int_eq(iodfg_eventlog_earliest_start(log), 700);
    ck_assert_int_eq(iodfg_eventlog_time_origin(log), 700);
    iodfg_eventlog_set_time_origin(log, 100);
    ck_assert_int_eq(iodfg_eventlog_time_origin(log), 100);
    ck_assert_int_eq(iodfg_eventlog_earliest_start(log), 700);
    ck_assert_int_eq(iodfg_eventlog_align_starts(log), 0);
    ck_assert_int_eq(iodfg_eventlog_time_origin(log), 0);
    iodfg_eventlog_free(log);
}
END_TEST

START_TEST(keys_shared_and_kinds)
{
    struct iodfg_eventlog *log = iodfg_eventlog_new(IODFG_COL_ANALYSIS);
    begin(log, "a");
    push(log, "read", "/etc/passwd", 1, 1);
    push(log, "read", "/etc/passwd", 2, 2);
    push(log, "write", "pipe:[5018]", 3, 3);
    push(log, "read", "TCP:[127.0.0.1:1->127.0.0.1:2]", 4, 4);
    push(log, "read", "anon_inode:[eventfd]", 5, 5);
    push(log, "brk", "", 6, 6);
    ck_assert_int_eq(iodfg_eventlog_end_case(log, NULL), 0);
    const struct iodfg_columns *c = iodfg_eventlog_columns(log);
    const struct iodfg_key *k = iodfg_eventlog_keys(log);
    ck_assert_ptr_null(c->fd);
    ck_assert_ptr_null(c->offset);
    ck_assert_uint_eq(c->key[0], c->key[1]);
    ck_assert_int_eq(k[c->key[0]].kind, IODFG_PATH_FILE);
    ck_assert_int_eq(k[c->key[2]].kind, IODFG_PATH_PIPE);
    ck_assert_int_eq(k[c->key[3]].kind, IODFG_PATH_SOCKET);
    ck_assert_int_eq(k[c->key[4]].kind, IODFG_PATH_ANON);
    ck_assert_int_eq(k[c->key[5]].kind, IODFG_PATH_NONE);
    iodfg_eventlog_free(log);
}
END_TEST

START_TEST(append_remaps)
{
    struct iodfg_eventlog *a = iodfg_eventlog_new(IODFG_COL_ALL);
    struct iodfg_eventlog *b = iodfg_eventlog_new(IODFG_COL_ALL);
    begin(a, "first");
    push(a, "write", "/out", 5, 1);
    iodfg_eventlog_end_case(a, NULL);
    begin(b, "second");
    push(b, "read", "/in", 1, 1);
    push(b, "write", "/out", 2, 2);
    iodfg_eventlog_open_case(b)->counts[IODFG_COUNT_SIGNALS] = 3;
    iodfg_eventlog_end_case(b, NULL);
    ck_assert_int_eq(iodfg_eventlog_append(a, b, NULL), 0);
    ck_assert_uint_eq(iodfg_eventlog_case_count(a), 2);
    ck_assert_uint_eq(iodfg_eventlog_event_count(a), 3);
    const uint64_t *off = iodfg_eventlog_case_offsets(a);
    ck_assert_uint_eq(off[1], 1);
    ck_assert_uint_eq(off[2], 3);
    const struct iodfg_case_info *ci = iodfg_eventlog_case(a, 1);
    struct iodfg_strpool *p = iodfg_eventlog_pool(a);
    ck_assert_str_eq(iodfg_strpool_get(p, ci->name), "second");
    ck_assert_uint_eq(ci->counts[IODFG_COUNT_SIGNALS], 3);
    const struct iodfg_columns *c = iodfg_eventlog_columns(a);
    ck_assert_uint_eq(c->key[0], c->key[2]); // write:/out shared across cases
    ck_assert_uint_eq(iodfg_eventlog_key_count(a), 2);
    iodfg_eventlog_free(a);
    iodfg_eventlog_free(b);
}
END_TEST

/* A log with fewer columns appended to one with all: its columns copied as they are, the
 * others given their defaults, exactly as pushing the events one by one gives them. */
START_TEST(append_fills_missing_columns)
{
    struct iodfg_eventlog *src =
        iodfg_eventlog_new(IODFG_COL_START | IODFG_COL_DUR | IODFG_COL_KEY | IODFG_COL_OFFSET);
    struct iodfg_eventlog *all = iodfg_eventlog_new(IODFG_COL_ALL);
    struct iodfg_eventlog *dst = iodfg_eventlog_new(IODFG_COL_ALL);
    begin(src, "part");
    push_at(src, "pread64", "/a", 1, 0, 4096);
    push_at(src, "pread64", "/b", 1, 1, 0);
    push_at(src, "pwrite64", "/a", 9, 2, 8192);
    ck_assert_int_eq(iodfg_eventlog_end_case(src, NULL), 0);
    begin(all, "part");
    struct iodfg_event ev[3];
    int64_t starts[3] = {1, 1, 9}, offs[3] = {4096, 0, 8192};
    for (int i = 0; i < 3; i++) {
        struct iodfg_event e = {.start_ns = starts[i], .dur_ns = 10, .size = IODFG_UNKNOWN,
                                .offset = offs[i], .req = IODFG_UNKNOWN, .fd = IODFG_NO_FD};
        ev[i] = e;
    }
    const char *calls[3] = {"pread64", "pread64", "pwrite64"}, *paths[3] = {"/a", "/b", "/a"};
    for (int i = 0; i < 3; i++) {
        ck_assert_int_eq(iodfg_eventlog_key(all, S(all, calls[i]), S(all, paths[i]), &ev[i].key),
                         0);
        ck_assert_int_eq(iodfg_eventlog_push(all, &ev[i], (uint64_t)i, NULL), 0);
    }
    ck_assert_int_eq(iodfg_eventlog_end_case(all, NULL), 0);
    ck_assert_int_eq(iodfg_eventlog_append(dst, src, NULL), 0);
    const struct iodfg_columns *d = iodfg_eventlog_columns(dst), *w = iodfg_eventlog_columns(all);
    ck_assert_uint_eq(iodfg_eventlog_event_count(dst), 3);
    ck_assert_mem_eq(d->start_ns, w->start_ns, 3 * sizeof(int64_t));
    ck_assert_mem_eq(d->dur_ns, w->dur_ns, 3 * sizeof(int64_t));
    ck_assert_mem_eq(d->size, w->size, 3 * sizeof(int64_t));
    ck_assert_mem_eq(d->offset, w->offset, 3 * sizeof(int64_t));
    ck_assert_mem_eq(d->req, w->req, 3 * sizeof(int64_t));
    ck_assert_mem_eq(d->key, w->key, 3 * sizeof(uint32_t));
    ck_assert_mem_eq(d->err, w->err, 3 * sizeof(uint32_t));
    ck_assert_mem_eq(d->pid, w->pid, 3 * sizeof(int32_t));
    ck_assert_mem_eq(d->fd, w->fd, 3 * sizeof(int32_t));
    ck_assert_mem_eq(d->handle, w->handle, 3 * sizeof(uint32_t));
    iodfg_eventlog_free(src);
    iodfg_eventlog_free(all);
    iodfg_eventlog_free(dst);
}
END_TEST

/* A case that is not in start order (adopted as it came) is sorted as it is appended. */
START_TEST(append_sorts_an_unsorted_case)
{
    struct iodfg_eventlog *src = iodfg_eventlog_new(IODFG_COL_START | IODFG_COL_DUR);
    struct iodfg_eventlog *dst = iodfg_eventlog_new(IODFG_COL_START | IODFG_COL_DUR);
    struct iodfg_columns cols;
    memset(&cols, 0, sizeof(cols));
    cols.start_ns = malloc(3 * sizeof(int64_t));
    cols.dur_ns = malloc(3 * sizeof(int64_t));
    struct iodfg_case_info *cases = calloc(1, sizeof(*cases));
    uint64_t *off = malloc(2 * sizeof(*off));
    ck_assert(cols.start_ns && cols.dur_ns && cases && off);
    int64_t starts[3] = {30, 10, 20}, durs[3] = {3, 1, 2};
    memcpy(cols.start_ns, starts, sizeof(starts));
    memcpy(cols.dur_ns, durs, sizeof(durs));
    off[0] = 0;
    off[1] = 3;
    ck_assert_int_eq(iodfg_eventlog_adopt(src, &cols, 3, cases, off, 1, NULL), 0);
    ck_assert_int_eq(iodfg_eventlog_append(dst, src, NULL), 0);
    const struct iodfg_columns *d = iodfg_eventlog_columns(dst);
    ck_assert_int_eq(d->start_ns[0], 10);
    ck_assert_int_eq(d->start_ns[1], 20);
    ck_assert_int_eq(d->start_ns[2], 30);
    ck_assert_int_eq(d->dur_ns[0], 1);
    ck_assert_int_eq(d->dur_ns[2], 3);
    iodfg_eventlog_free(src);
    iodfg_eventlog_free(dst);
}
END_TEST

START_TEST(misuse_reports_errors)
{
    struct iodfg_eventlog *log = iodfg_eventlog_new(IODFG_COL_ALL);
    struct iodfg_error err;
    iodfg_error_clear(&err);
    struct iodfg_event ev = {0};
    ck_assert_int_eq(iodfg_eventlog_push(log, &ev, 0, &err), -1);
    ck_assert_int_eq(err.code, IODFG_E_ARG);
    iodfg_error_clear(&err);
    ck_assert_int_eq(iodfg_eventlog_end_case(log, &err), -1);
    ck_assert_ptr_null(iodfg_eventlog_case(log, 0));
    iodfg_eventlog_free(log);
    iodfg_eventlog_free(NULL);
}
END_TEST

START_TEST(adopt_handles)
{
    struct iodfg_eventlog *log = iodfg_eventlog_new(IODFG_COL_ALL);
    ck_assert_ptr_nonnull(log);
    struct iodfg_handle *hs = calloc(2, sizeof(*hs));
    ck_assert_ptr_nonnull(hs);
    hs[0].pid = 7;
    hs[0].fd = 3;
    hs[1].pid = 7;
    hs[1].fd = 4;
    hs[1].parent = 1;
    ck_assert_int_eq(iodfg_eventlog_adopt_handles(log, hs, 2, NULL), 0);
    ck_assert_uint_eq(iodfg_eventlog_handle_count(log), 2);
    ck_assert_int_eq(iodfg_eventlog_handles(log)[1].fd, 4);
    ck_assert_uint_eq(iodfg_eventlog_handles(log)[1].parent, 1);
    // The adopted table grows like any other.
    struct iodfg_handle h = {.pid = 8, .fd = 5, .parent = 2};
    uint32_t id = 0;
    ck_assert_int_eq(iodfg_eventlog_handle_add(log, &h, &id, NULL), 0);
    ck_assert_uint_eq(id, 3);
    ck_assert_int_eq(iodfg_eventlog_handles(log)[0].fd, 3);
    // A log that has handles refuses another table (and keeps ownership with the caller).
    struct iodfg_handle *more = calloc(1, sizeof(*more));
    struct iodfg_error err;
    iodfg_error_clear(&err);
    ck_assert_int_eq(iodfg_eventlog_adopt_handles(log, more, 1, &err), -1);
    ck_assert_int_eq(err.code, IODFG_E_ARG);
    free(more);
    ck_assert_uint_eq(iodfg_eventlog_handle_count(log), 3);
    iodfg_eventlog_free(log);
}
END_TEST

START_TEST(many_cases_and_events)
{
    struct iodfg_eventlog *log = iodfg_eventlog_new(IODFG_COL_ANALYSIS);
    char name[32];
    for (int cs = 0; cs < 100; cs++) {
        snprintf(name, sizeof(name), "case%d", cs);
        begin(log, name);
        for (int i = 0; i < 1000; i++) {
            push(log, i % 2 ? "read" : "write", "/data", 1000 - i, (uint64_t)i);
        }
        iodfg_eventlog_end_case(log, NULL);
    }
    ck_assert_uint_eq(iodfg_eventlog_event_count(log), 100000);
    const struct iodfg_columns *c = iodfg_eventlog_columns(log);
    const uint64_t *off = iodfg_eventlog_case_offsets(log);
    for (int cs = 0; cs < 100; cs++) {
        for (uint64_t i = off[cs] + 1; i < off[cs + 1]; i++) {
            ck_assert_int_le(c->start_ns[i - 1], c->start_ns[i]);
        }
    }
    ck_assert_uint_gt(iodfg_eventlog_memory(log), 100000 * 32);
    iodfg_eventlog_free(log);
}
END_TEST

START_TEST(growth_to_a_huge_page)
{
    // doubling below 256 KiB, then one whole huge page (2 MiB), then doubling again
    ck_assert_uint_eq(iodfg_bigmem_grow(0, 8, 1024), 1024);
    ck_assert_uint_eq(iodfg_bigmem_grow(1024, 8, 1024), 2048);
    ck_assert_uint_eq(iodfg_bigmem_grow(32768, 8, 1024), 262144);
    ck_assert_uint_eq(iodfg_bigmem_grow(262144, 8, 1024), 524288);
    size_t h = iodfg_bigmem_grow(4096, 88, 64);
    ck_assert_uint_ge(h * 88, (size_t)2 << 20);
    ck_assert_uint_lt((h - 1) * 88, (size_t)2 << 20);
    // a realloc across the jump keeps the contents
    uint64_t *a = NULL;
    size_t cap = 0;
    for (uint64_t i = 0; i < 300000; i++) {
        if (i == cap) {
            size_t next = iodfg_bigmem_grow(cap, sizeof(*a), 1024);
            a = iodfg_bigmem_realloc(a, cap * sizeof(*a), next * sizeof(*a));
            ck_assert_ptr_nonnull(a);
            cap = next;
        }
        a[i] = i * 7;
    }
    for (uint64_t i = 0; i < 300000; i++) {
        ck_assert_uint_eq(a[i], i * 7);
    }
    free(a);
    // one case long enough for its input orders to grow past the jump: the same stable order
    struct iodfg_eventlog *log = iodfg_eventlog_new(IODFG_COL_ALL);
    begin(log, "long");
    for (uint64_t i = 0; i < 300000; i++) {
        push_at(log, "read", "/data", (int64_t)((i * 7919) % 1000), 300000 - i, (int64_t)i);
    }
    ck_assert_int_eq(iodfg_eventlog_end_case(log, NULL), 0);
    const struct iodfg_columns *c = iodfg_eventlog_columns(log);
    for (uint64_t i = 1; i < 300000; i++) { // equal starts: the later input (smaller seq) first
        ck_assert_int_le(c->start_ns[i - 1], c->start_ns[i]);
        ck_assert(c->start_ns[i - 1] < c->start_ns[i] || c->offset[i - 1] > c->offset[i]);
    }
    iodfg_eventlog_free(log);
}
END_TEST

/* Raw events repeating or alternating (call, path) pairs get the keys that interning gives, in
 * whatever order they come back: the last two keys are remembered, compared in full. */
START_TEST(raw_keys_through_the_cache)
{
    char longpath[300];
    memset(longpath, 'p', sizeof(longpath) - 1);
    longpath[0] = '/';
    longpath[sizeof(longpath) - 1] = '\0';
    const char *calls[] = {"lseek", "write", "read", "write", "lseek", "lseek"};
    const char *paths[] = {"/a/f", "/a/f", "/a/f", "/a/g", longpath, "/a/f/x"};
    const size_t plen[] = {4, 4, 4, 4, sizeof(longpath) - 1, 6};
    // a pattern of repeats, alternations and returns to older pairs
    const unsigned order[] = {0, 1, 0, 1, 1, 2, 0, 1, 2, 3, 3, 1, 4, 4, 0, 4, 5, 0, 5, 3, 1, 2};
    const size_t n = sizeof(order) / sizeof(order[0]);
    struct iodfg_eventlog *log = iodfg_eventlog_new(IODFG_COL_ALL);
    begin(log, "c");
    for (size_t i = 0; i < n; i++) {
        struct iodfg_raw_event ev = {.start_ns = (int64_t)i,
                                     .dur_ns = 1,
                                     .size = IODFG_UNKNOWN,
                                     .offset = IODFG_UNKNOWN,
                                     .req = IODFG_UNKNOWN,
                                     .fd = 3,
                                     .call = calls[order[i]],
                                     .call_len = strlen(calls[order[i]]),
                                     .path = paths[order[i]],
                                     .path_len = plen[order[i]],
                                     .err = "",
                                     .seq = i};
        ck_assert_int_eq(iodfg_eventlog_push_raw(log, &ev, NULL), 0);
    }
    ck_assert_int_eq(iodfg_eventlog_end_case(log, NULL), 0);
    const struct iodfg_columns *c = iodfg_eventlog_columns(log);
    const struct iodfg_key *keys = iodfg_eventlog_keys(log);
    const struct iodfg_strpool *sp = iodfg_eventlog_pool(log);
    ck_assert_uint_eq(iodfg_eventlog_key_count(log), 6);
    for (size_t i = 0; i < n; i++) {
        const struct iodfg_key *k = &keys[c->key[i]];
        ck_assert_str_eq(iodfg_strpool_get(sp, k->call), calls[order[i]]);
        ck_assert_uint_eq(iodfg_strpool_len(sp, k->path), plen[order[i]]);
        ck_assert_int_eq(memcmp(iodfg_strpool_get(sp, k->path), paths[order[i]], plen[order[i]]),
                         0);
    }
    iodfg_eventlog_free(log);
}
END_TEST

START_TEST(reserve_fits_huge_pages)
{
    // small arrays as asked; past 256 KiB whole huge pages (2 MiB), never less than asked
    ck_assert_uint_eq(iodfg_bigmem_fit(0, 4), 0);
    ck_assert_uint_eq(iodfg_bigmem_fit(1000, 4), 1000);
    ck_assert_uint_eq(iodfg_bigmem_fit(65536, 4), 65536);
    ck_assert_uint_eq(iodfg_bigmem_fit(65537, 4), 524288);
    ck_assert_uint_eq(iodfg_bigmem_fit(524288, 4), 524288);
    ck_assert_uint_eq(iodfg_bigmem_fit(524289, 4), 1048576);
    ck_assert_uint_eq(iodfg_bigmem_fit(100000, 8), 262144);
    ck_assert_uint_eq(iodfg_bigmem_fit(5, 0), 5);
    ck_assert_uint_eq(iodfg_bigmem_fit(SIZE_MAX / 2, 4), SIZE_MAX / 2);
    // a file's log reserved so: its events go in without growing, and a case past the
    // reservation still grows and keeps its order
    struct iodfg_eventlog *log = iodfg_eventlog_new(IODFG_COL_ALL);
    ck_assert_int_eq(iodfg_eventlog_reserve_case(log, 70000, NULL), 0);
    begin(log, "one");
    for (uint64_t i = 0; i < 600000; i++) {
        push_at(log, "read", "/data", (int64_t)(600000 - i), i, (int64_t)i);
    }
    ck_assert_int_eq(iodfg_eventlog_end_case(log, NULL), 0);
    const struct iodfg_columns *c = iodfg_eventlog_columns(log);
    for (uint64_t i = 0; i < 600000; i++) {
        ck_assert_int_eq(c->start_ns[i], (int64_t)i + 1);
        ck_assert_int_eq(c->offset[i], 600000 - 1 - (int64_t)i);
    }
    iodfg_eventlog_free(log);
}
END_TEST

int main(void)
{
    Suite *s = suite_create("eventlog");
    TCase *tc = tcase_create("core");
    tcase_add_test(tc, stable_sort_by_start_then_seq);
    tcase_add_test(tc, time_origin_of_a_part);
    tcase_add_test(tc, times_clamped_to_range);
    tcase_add_test(tc, keys_shared_and_kinds);
    tcase_add_test(tc, append_remaps);
    tcase_add_test(tc, append_fills_missing_columns);
    tcase_add_test(tc, append_sorts_an_unsorted_case);
    tcase_add_test(tc, misuse_reports_errors);
    tcase_add_test(tc, many_cases_and_events);
    tcase_add_test(tc, adopt_handles);
    tcase_add_test(tc, growth_to_a_huge_page);
    tcase_add_test(tc, reserve_fits_huge_pages);
    tcase_add_test(tc, raw_keys_through_the_cache);
    suite_add_tcase(s, tc);
    return testutil_run(s);
}
