/* SPDX-License-Identifier: MIT */
/* Unit tests: the event log's checksums (format 4.1): a changed byte in any dataset of a log
 * is refused naming the dataset, never loaded as other values; the block sums of the /events
 * columns follow what a load reads (columns asked for, ranges of cases); a full disk says why. */
#include "config.h"

#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/wait.h>

#include <hdf5.h>

#include "iodfg/error.h"
#include "iodfg/eventlog.h"
#include "iodfg/store.h"
#include "iodfg/strace.h"
#include "iodfg/strpool.h"

#include "../../src/io/store_priv.h"
#include "testutil.h"

#define PATH testutil_fixture_path

static void setup(void)
{
    testutil_fixture_begin("log.h5");
}

/* A case of n read/pwrite events on a few files (strace lines, so that every column has
 * values: fd, offset, req, handles). */
static void add_case(struct iodfg_eventlog *log, const char *name, unsigned n)
{
    size_t cap = (size_t)n * 96 + 256, len = 0;
    char *text = malloc(cap);
    ck_assert_ptr_nonnull(text);
    len += (size_t)snprintf(text, cap,
                            "7 08:00:00.000000 openat(AT_FDCWD, \"/d/%s\", O_RDWR) = "
                            "3</d/%s> <0.000002>\n",
                            name, name);
    for (unsigned i = 0; i < n; i++) {
        unsigned us = i + 1;
        len += (size_t)snprintf(
            text + len, cap - len,
            i % 3 ? "7 08:%02u:%02u.%06u read(3</d/%s>, \"\", %u) = %u <0.00000%u>\n"
                  : "7 08:%02u:%02u.%06u pwrite64(3</d/%s>, \"\", %u, %u) = %u "
                    "<0.00000%u>\n",
            us / 60000000 % 60, us / 1000000 % 60, us % 1000000, name, 4096 + i % 7,
            i % 3 ? 4096 + i % 5 : 8192 * i, 4096 + i % 5, 1 + i % 9);
    }
    struct iodfg_case_info info;
    memset(&info, 0, sizeof(info));
    ck_assert_int_eq(iodfg_strpool_intern(iodfg_eventlog_pool(log), name, strlen(name), &info.name),
                     0);
    ck_assert_int_eq(iodfg_eventlog_begin_case(log, &info, NULL), 0);
    struct iodfg_error err;
    iodfg_error_clear(&err);
    struct iodfg_strace_result res;
    ck_assert_int_eq(iodfg_strace_parse(text, len, iodfg_strace_sink_eventlog, log, &res, &err), 0);
    ck_assert_uint_eq(res.counts[IODFG_COUNT_UNPARSABLE], 0);
    ck_assert_int_eq(iodfg_eventlog_end_case(log, NULL), 0);
    free(text);
}

/* Cases of 300, 70000 (two blocks) and 40 events written to PATH. */
static void write_log(void)
{
    struct iodfg_eventlog *log = iodfg_eventlog_new(IODFG_COL_ALL);
    add_case(log, "a_h_1", 300);
    add_case(log, "b_h_2", 70000);
    add_case(log, "c_h_3", 40);
    struct iodfg_error err;
    iodfg_error_clear(&err);
    struct iodfg_store_writer *w = iodfg_store_create(PATH, 1, &err);
    ck_assert_msg(w && iodfg_store_write_cases(w, log, &err) == 0 &&
                      iodfg_store_commit(w, &err) == 0,
                  "%s", err.msg);
    iodfg_eventlog_free(log);
}

static char *slurp(const char *path, size_t *n)
{
    FILE *f = fopen(path, "rb");
    ck_assert_ptr_nonnull(f);
    fseek(f, 0, SEEK_END);
    *n = (size_t)ftell(f);
    fseek(f, 0, SEEK_SET);
    char *buf = malloc(*n);
    ck_assert_uint_eq(fread(buf, 1, *n, f), *n);
    fclose(f);
    return buf;
}

/* Where dataset name's data lie in the file: contiguous data, or its first chunk. */
static void data_place(const char *name, haddr_t *at, hsize_t *size)
{
    hid_t f = H5Fopen(PATH, H5F_ACC_RDONLY, H5P_DEFAULT);
    hid_t d = H5Dopen2(f, name, H5P_DEFAULT);
    ck_assert_int_ge(d, 0);
    *at = H5Dget_offset(d);
    *size = H5Dget_storage_size(d);
    if (*at == HADDR_UNDEF) { // chunked
        hsize_t off[1] = {0};
        unsigned mask = 0;
        ck_assert_int_ge(H5Dget_chunk_info_by_coord(d, off, &mask, at, size), 0);
    }
    H5Dclose(d);
    H5Fclose(f);
}

/* Load PATH asking for cols; the error message ("" when it loaded). */
static void load_msg(unsigned cols, char *msg, size_t size)
{
    struct iodfg_error err;
    iodfg_error_clear(&err);
    struct iodfg_eventlog *log = iodfg_store_load(PATH, cols, NULL, NULL, &err);
    snprintf(msg, size, "%s", log ? "" : err.msg);
    if (!log) {
        ck_assert_int_eq(err.code, IODFG_E_FORMAT);
        ck_assert_str_eq(err.where, PATH);
    }
    iodfg_eventlog_free(log);
    ck_assert_int_eq(H5Fget_obj_count((hid_t)H5F_OBJ_ALL, H5F_OBJ_ALL), 0);
}

/* Every dataset that is not an /events column: one byte of its data changed is refused, the
 * dataset named. */
START_TEST(each_table_is_checked)
{
    write_log();
    size_t n;
    char *orig = slurp(PATH, &n);
    static const char *const tables[] = {
        "strings/bytes", "strings/offsets", "keys/call",  "keys/path", "keys/layer",     "keys/fs",
        "keys/fstype",   "keys/scope",      "case_table", "handles",   "event_checksums"};
    for (size_t t = 0; t < sizeof(tables) / sizeof(tables[0]); t++) {
        haddr_t at;
        hsize_t size;
        data_place(tables[t], &at, &size);
        ck_assert_uint_gt(size, 0);
        for (hsize_t k = 0; k < 3; k++) { // the first, a middle and the last byte
            char *buf = malloc(n);
            memcpy(buf, orig, n);
            buf[at + k * (size - 1) / 2] ^= 0x10;
            testutil_write_file(PATH, buf, n);
            free(buf);
            char msg[512], want[128];
            load_msg(IODFG_COL_ALL | IODFG_COL_HANDLE_TABLE, msg, sizeof(msg));
            snprintf(want, sizeof(want),
                     "damaged event log: dataset %s does not match its checksum", tables[t]);
            ck_assert_msg(strcmp(msg, want) == 0, "%s byte %llu: \"%s\"", tables[t],
                          (unsigned long long)k, msg);
        }
    }
    free(orig);
}
END_TEST

/* The bytes of a loaded log's column c (call and fp are not kept), *n of them. */
static const void *column_bytes(const struct iodfg_eventlog *log, int c, size_t *n)
{
    const struct iodfg_columns *k = iodfg_eventlog_columns(log);
    const void *cols[STORE_C__N] = {
        [STORE_C_PID] = k->pid,       [STORE_C_START] = k->start_ns, [STORE_C_DUR] = k->dur_ns,
        [STORE_C_SIZE] = k->size,     [STORE_C_KEY] = k->key,        [STORE_C_OFFSET] = k->offset,
        [STORE_C_REQ] = k->req,       [STORE_C_FD] = k->fd,          [STORE_C_ERR] = k->err,
        [STORE_C_HANDLE] = k->handle,
    };
    *n = (size_t)iodfg_eventlog_event_count(log) * store_cols[c].size;
    return cols[c];
}

/* A byte of each /events column's first chunk changed in the file: refused naming the column
 * when it is loaded (by its checksum, whether or not a check of the values would see it), or,
 * when the change decodes to the same values (a column of one value: each coded as the fill
 * value), loaded as it was; never loaded as other values. */
START_TEST(event_columns_are_checked_where_loaded)
{
    write_log();
    struct iodfg_error err;
    iodfg_error_clear(&err);
    struct iodfg_eventlog *good = iodfg_store_load(PATH, IODFG_COL_ALL, NULL, NULL, &err);
    ck_assert_ptr_nonnull(good);
    size_t n;
    char *orig = slurp(PATH, &n);
    int refused = 0;
    for (int c = 0; c < STORE_C__N; c++) {
        char name[64];
        snprintf(name, sizeof(name), "events/%s", store_cols[c].name);
        haddr_t at;
        hsize_t size;
        data_place(name, &at, &size);
        // past the 21-byte scale-offset header of the chunk: a coded value
        char *buf = malloc(n);
        memcpy(buf, orig, n);
        buf[at + 21 + (size - 21) / 3] ^= 0x04;
        testutil_write_file(PATH, buf, n);
        free(buf);
        iodfg_error_clear(&err);
        struct iodfg_eventlog *back = iodfg_store_load(PATH, IODFG_COL_ALL, NULL, NULL, &err);
        if (back) {
            size_t len, len2;
            const void *a = column_bytes(good, c, &len), *b = column_bytes(back, c, &len2);
            ck_assert_msg(a && b && len == len2 && memcmp(a, b, len) == 0, "%s changed", name);
            iodfg_eventlog_free(back);
            continue;
        }
        refused++;
        ck_assert_msg(strstr(err.msg, name) || strstr(err.msg, "(column"), "%s: not named: %s",
                      name, err.msg);
        if (c == STORE_C_SIZE || c == STORE_C_PID || c == STORE_C_OFFSET) {
            // values no other check looks at: only the checksum can tell
            ck_assert_msg(strstr(err.msg, ": the values do not match their checksum"), "%s",
                          err.msg);
            char msg[512];
            load_msg(IODFG_COL_START | IODFG_COL_KEY, msg, sizeof(msg));
            ck_assert_msg(msg[0] == '\0', "%s not loaded, yet refused: %s", name, msg);
        }
    }
    ck_assert_int_ge(refused, 10);
    iodfg_eventlog_free(good);
    free(orig);
}
END_TEST

/* A load of a range of the cases checks the blocks of those cases only. */
START_TEST(ranges_check_their_own_blocks)
{
    write_log();
    // one value of case c_h_3's size column, its only block
    hid_t f = H5Fopen(PATH, H5F_ACC_RDWR, H5P_DEFAULT);
    hid_t d = H5Dopen2(f, "/events/size", H5P_DEFAULT);
    hid_t sp = H5Dget_space(d);
    hsize_t start[1] = {300 + 1 + 70000 + 1 + 5}, one[1] = {1};
    H5Sselect_hyperslab(sp, H5S_SELECT_SET, start, NULL, one, NULL);
    hid_t msp = H5Screate_simple(1, one, NULL);
    int64_t v = 123456;
    ck_assert_int_ge(H5Dwrite(d, H5T_NATIVE_INT64, msp, sp, H5P_DEFAULT, &v), 0);
    H5Sclose(msp);
    H5Sclose(sp);
    H5Dclose(d);
    H5Fclose(f);
    struct iodfg_error err;
    iodfg_error_clear(&err);
    struct iodfg_eventlog *two =
        iodfg_store_load_cases(PATH, IODFG_COL_ALL, 0, 2, NULL, NULL, &err);
    ck_assert_msg(two != NULL, "%s", err.msg);
    ck_assert_uint_eq(iodfg_eventlog_case_count(two), 2);
    iodfg_eventlog_free(two);
    ck_assert_ptr_null(iodfg_store_load_cases(PATH, IODFG_COL_ALL, 1, 2, NULL, NULL, &err));
    ck_assert_str_eq(err.msg, "damaged event log: case c_h_3: events/size, rows 0 to 65535: the "
                              "values do not match their checksum");
}
END_TEST

/* What the checks rest on: the sums are there, the block table has one row per block. */
START_TEST(missing_sums_are_damage)
{
    write_log();
    char cmd[9000];
    snprintf(cmd, sizeof(cmd), "cp '%s' '%s.orig'", PATH, PATH);
    ck_assert_int_eq(system(cmd), 0);
    hid_t f = H5Fopen(PATH, H5F_ACC_RDWR, H5P_DEFAULT);
    ck_assert_int_ge(H5Adelete_by_name(f, "/keys/call", STORE_CHECKSUM, H5P_DEFAULT), 0);
    H5Fclose(f);
    char msg[512];
    load_msg(IODFG_COL_ALL, msg, sizeof(msg));
    ck_assert_str_eq(msg, "damaged event log: dataset keys/call has no checksum");
    snprintf(cmd, sizeof(cmd), "cp '%s.orig' '%s'", PATH, PATH);
    ck_assert_int_eq(system(cmd), 0);
    f = H5Fopen(PATH, H5F_ACC_RDWR, H5P_DEFAULT);
    ck_assert_int_ge(H5Ldelete(f, "/event_checksums", H5P_DEFAULT), 0);
    H5Fclose(f);
    load_msg(IODFG_COL_ALL, msg, sizeof(msg));
    ck_assert_str_eq(msg, "table event_checksums is missing");
}
END_TEST

/* The root and case attributes lie in object headers, which HDF5 checksums itself: a changed
 * byte in one is an error, never another value. */
START_TEST(attributes_are_checked_by_hdf5)
{
    write_log();
    size_t n;
    char *orig = slurp(PATH, &n);
    static const char *const marks[] = {"iodfg-eventlog", "b_h_2"};
    int seen = 0;
    for (size_t m = 0; m < 2; m++) {
        for (size_t at = 0; at + strlen(marks[m]) <= n; at++) {
            if (memcmp(orig + at, marks[m], strlen(marks[m])) != 0) {
                continue;
            }
            char *buf = malloc(n);
            memcpy(buf, orig, n);
            buf[at + 1] ^= 0x01;
            testutil_write_file(PATH, buf, n);
            free(buf);
            char msg[512];
            load_msg(IODFG_COL_ALL | IODFG_COL_HANDLE_TABLE, msg, sizeof(msg));
            if (msg[0]) {
                seen++;
                continue;
            }
            // loaded: the copy it changed is one the loader does not read (a case group's
            // attribute or link name); HDF5 refuses to read that group as it is
            H5Eset_auto2(H5E_DEFAULT, NULL, NULL);
            hid_t f = H5Fopen(PATH, H5F_ACC_RDONLY, H5P_DEFAULT);
            hid_t g = f < 0 ? -1 : H5Gopen2(f, "/cases/b_h_2", H5P_DEFAULT);
            hid_t a = g < 0 ? -1 : H5Aopen(g, "name", H5P_DEFAULT);
            char name[64] = "";
            hid_t t = a < 0 ? -1 : H5Aget_type(a);
            int read = t >= 0 && H5Aread(a, t, name) >= 0;
            ck_assert_msg(!read || strcmp(name, "b_h_2") == 0, "read '%s'", name);
            seen += !read;
            if (t >= 0) {
                H5Tclose(t);
            }
            if (a >= 0) {
                H5Aclose(a);
            }
            if (g >= 0) {
                H5Gclose(g);
            }
            if (f >= 0) {
                H5Fclose(f);
            }
        }
    }
    ck_assert_int_ge(seen, 3);
    free(orig);
}
END_TEST

/* A file system that is full (a file size limit stands in) whenever it fills: creating the
 * file, writing a case, closing it: the writer's error says why. */
START_TEST(a_full_disk_says_why)
{
    iodfg_store_process_init(); // as iodfg does: HDF5's exit-time close of a failed file crashes
    signal(SIGXFSZ, SIG_IGN);
    struct iodfg_eventlog *log = iodfg_eventlog_new(IODFG_COL_ALL);
    add_case(log, "a_h_1", 70000);
    static const rlim_t limits[] = {0, 2048, 64 * 1024, 600 * 1024};
    for (size_t i = 0; i < sizeof(limits) / sizeof(limits[0]); i++) {
        struct rlimit lim = {limits[i], RLIM_INFINITY};
        ck_assert_int_eq(setrlimit(RLIMIT_FSIZE, &lim), 0);
        struct iodfg_error err;
        iodfg_error_clear(&err);
        struct iodfg_store_writer *w = iodfg_store_create(PATH, 1, &err);
        if (w && iodfg_store_write_cases(w, log, &err) == 0) {
            ck_assert_int_ne(iodfg_store_commit(w, &err), 0);
        } else if (w) {
            iodfg_store_abort(w);
        }
        ck_assert_msg(strstr(err.msg, ": File too large"), "limit %llu: %s",
                      (unsigned long long)limits[i], err.msg);
    }
    iodfg_eventlog_free(log);
}
END_TEST

/* The checksums as doc/format.md defines them, computed by h5py and Python's xxhash (the test
 * says so and passes when either is missing). */
START_TEST(h5py_computes_the_same_sums)
{
    write_log();
    const char *src = getenv("IODFG_SRCDIR");
    char cmd[9000];
    snprintf(cmd, sizeof(cmd), "/usr/bin/python3 '%s/tests/tools/check_sums.py' '%s'",
             src ? src : ".", PATH);
    int rc = system(cmd);
    ck_assert_msg(rc == 0 || WEXITSTATUS(rc) == 77, "check_sums.py failed (%d)", rc);
}
END_TEST

static Suite *suite(void)
{
    Suite *s = suite_create("store_sums");
    TCase *tc = tcase_create("sums");
    tcase_add_checked_fixture(tc, setup, testutil_fixture_end);
    tcase_add_test(tc, each_table_is_checked);
    tcase_add_test(tc, event_columns_are_checked_where_loaded);
    tcase_add_test(tc, ranges_check_their_own_blocks);
    tcase_add_test(tc, missing_sums_are_damage);
    tcase_add_test(tc, attributes_are_checked_by_hdf5);
    tcase_add_test(tc, a_full_disk_says_why);
    tcase_add_test(tc, h5py_computes_the_same_sums);
    suite_add_tcase(s, tc);
    return s;
}

int main(void)
{
    return testutil_run(suite());
}
