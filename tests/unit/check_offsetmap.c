/* SPDX-License-Identifier: MIT */
/* Unit tests: the offset map: offsets known (pread/pwrite, just after an lseek), inferred
 * (followed from open or lseek and the sizes) and unknown (counted, never placed); access
 * patterns named; written ranges, their union and overlaps between cases; the default data
 * file; TSV and JSON; and on the real IOR runs, every transfer of the shared file at the offset
 * of IOR's layout, the written ranges covering the file exactly once. */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "iodfg/buf.h"
#include "iodfg/error.h"
#include "iodfg/eventlog.h"
#include "iodfg/mapping.h"
#include "iodfg/metrics.h"
#include "iodfg/offsetmap.h"
#include "iodfg/picture.h"
#include "iodfg/session.h"
#include "iodfg/strpool.h"

#include "dfg_testlog.h"
#include "picture_test.h"
#include "testutil.h"

static struct iodfg_eventlog *LOG;
static struct iodfg_mapping MAP;
static struct iodfg_offsetmap OM;
static struct iodfg_selection SEL;
static struct iodfg_picture_input IN;

static void setup(void)
{
    LOG = iodfg_eventlog_new(IODFG_COL_ALL);
    ck_assert_ptr_nonnull(LOG);
    iodfg_offsetmap_init(&OM);
    iodfg_selection_all(&SEL);
    memset(&IN, 0, sizeof(IN));
    IN.log = LOG;
    IN.map = &MAP;
    IN.sel = &SEL;
    memset(&MAP, 0, sizeof(MAP));
}

static void teardown(void)
{
    iodfg_offsetmap_fini(&OM);
    if (MAP.activity_of_key) {
        tlog_map_free(&MAP);
    }
    iodfg_eventlog_free(LOG);
}

static uint32_t path_id(const char *path)
{
    uint32_t id;
    ck_assert_int_eq(iodfg_strpool_find(iodfg_eventlog_pool(LOG), path, strlen(path), &id), 0);
    return id;
}

static void build(uint32_t path)
{
    struct iodfg_error err;
    iodfg_error_clear(&err);
    ck_assert_msg(iodfg_offsetmap_build(&OM, &IN, path, &err) == 0, "%s", err.msg);
}

static const char trace[] =
    "1 00:00:01.000000 openat(AT_FDCWD, \"/d/f\", O_RDWR) = 3</d/f> <0.000001>\n"
    "1 00:00:01.000010 write(3</d/f>, \"\", 100) = 100 <0.000001>\n"
    "1 00:00:01.000020 write(3</d/f>, \"\", 100) = 100 <0.000001>\n"
    "1 00:00:01.000030 lseek(3</d/f>, 4096, SEEK_SET) = 4096 <0.000001>\n"
    "1 00:00:01.000040 write(3</d/f>, \"\", 4096) = 4096 <0.000002>\n"
    "1 00:00:01.000050 write(3</d/f>, \"\", 10) = 10 <0.000001>\n"
    "1 00:00:01.000060 fstat(3</d/f>, {st_size=8202}) = 0 <0.000001>\n"
    "1 00:00:01.000070 pwrite64(3</d/f>, \"\", 10, 50) = 10 <0.000001>\n"
    "1 00:00:01.000080 lseek(3</d/f>, 0, SEEK_SET) = 0 <0.000001>\n"
    "1 00:00:01.000090 read(3</d/f>, \"\", 20) = 20 <0.000001>\n"
    "1 00:00:01.000100 read(5</d/f>, \"\", 7) = 7 <0.000001>\n"
    "1 00:00:01.000110 write(3</d/f>, \"\", 9) = -1 ENOSPC (No space left on device) <0.000001>\n"
    "1 00:00:01.000120 write(4</d/g>, \"\", 99999) = 99999 <0.000001>\n";

static const struct iodfg_offset_point *point_at(int64_t start_us)
{
    for (size_t i = 0; i < OM.npoints; i++) {
        if (OM.points[i].start_ns == 1000000000 + start_us * 1000) {
            return &OM.points[i];
        }
    }
    return NULL;
}

static void check_point(int64_t start_us, int write, int64_t off, int64_t len,
                        enum iodfg_offset_source src)
{
    const struct iodfg_offset_point *p = point_at(start_us);
    ck_assert_msg(p != NULL, "no point at %lld us", (long long)start_us);
    ck_assert_int_eq(p->write, write);
    ck_assert_int_eq(p->offset, off);
    ck_assert_int_eq(p->length, len);
    ck_assert_msg(p->source == src, "at %lld us: %s", (long long)start_us,
                  iodfg_offset_source_name((enum iodfg_offset_source)p->source));
}

START_TEST(sources_of_offsets)
{
    tlog_add_case(LOG, "A", trace);
    tlog_map_fhat(&MAP, LOG);
    build(path_id("/d/f"));
    ck_assert_uint_eq(OM.ncases, 1);
    ck_assert_uint_eq(OM.npoints, 6);
    check_point(10, 1, 0, 100, IODFG_OFFSET_INFERRED); // from the open
    check_point(20, 1, 100, 100, IODFG_OFFSET_INFERRED);
    check_point(40, 1, 4096, 4096, IODFG_OFFSET_KNOWN);  // just after the lseek
    check_point(50, 1, 8192, 10, IODFG_OFFSET_INFERRED); // the lseek plus 4096 moved
    check_point(70, 1, 50, 10, IODFG_OFFSET_KNOWN);      // pwrite's argument
    check_point(90, 0, 0, 20, IODFG_OFFSET_KNOWN);
    ck_assert_ptr_null(point_at(100)); // fd 5 was never opened: unknown, not placed
    const struct iodfg_offsetmap_dir *r = &OM.file[IODFG_DIR_READ], *w = &OM.file[IODFG_DIR_WRITE];
    ck_assert_uint_eq(r->n[IODFG_OFFSET_UNKNOWN], 1);
    ck_assert_int_eq(r->bytes[IODFG_OFFSET_UNKNOWN], 7);
    ck_assert_uint_eq(w->n[IODFG_OFFSET_KNOWN], 2);
    ck_assert_uint_eq(w->n[IODFG_OFFSET_INFERRED], 3);
    ck_assert_uint_eq(w->n[IODFG_OFFSET_UNKNOWN], 0); // the failed write moved nothing
    ck_assert_int_eq(OM.extent, 8202);
    // access.c's counts: at 0 and 100 consecutive, 4096 and 8192 forward (8192 follows 8192),
    // 50 backward
    ck_assert_uint_eq(w->consecutive, 3);
    ck_assert_uint_eq(w->forward, 1);
    ck_assert_uint_eq(w->backward, 1);
    ck_assert_int_eq(w->pattern, IODFG_PATTERN_RANDOM);
    ck_assert_int_eq(OM.write_bytes, 4316);
    ck_assert_int_eq(OM.union_bytes, 4316 - 50 + 40); // [0, 200) with [50, 60) inside
    ck_assert_uint_eq(OM.union_ranges, 2);
    ck_assert_uint_eq(OM.noverlaps, 0); // one case: a rewrite is no overlap between cases
}
END_TEST

/* Without the handle column an lseek cannot be tied to the next call: followed, not known. */
START_TEST(no_handles_no_known_seeks)
{
    iodfg_eventlog_free(LOG);
    LOG = iodfg_eventlog_new(IODFG_COL_ALL & ~IODFG_COL_HANDLE);
    IN.log = LOG;
    tlog_add_case(LOG, "A", trace);
    tlog_map_fhat(&MAP, LOG);
    build(path_id("/d/f"));
    ck_assert_int_eq(OM.handles, 0);
    check_point(40, 1, 4096, 4096, IODFG_OFFSET_INFERRED);
    check_point(70, 1, 50, 10, IODFG_OFFSET_KNOWN);
}
END_TEST

/* A writes [0, 100) and [200, 300); B writes [50, 150) and [300, 400): B's first write overlaps
 * A's, the second only touches it. */
START_TEST(overlaps_between_cases)
{
    tlog_add_case(LOG, "A",
                  "1 00:00:01.000000 pwrite64(3</d/f>, \"\", 100, 0) = 100 <0.000001>\n"
                  "1 00:00:01.000010 pwrite64(3</d/f>, \"\", 100, 200) = 100 <0.000001>\n");
    tlog_add_case(LOG, "B",
                  "1 00:00:01.000005 pwrite64(3</d/f>, \"\", 100, 50) = 100 <0.000001>\n"
                  "1 00:00:01.000015 pwrite64(3</d/f>, \"\", 100, 300) = 100 <0.000001>\n"
                  "1 00:00:01.000020 pread64(3</d/f>, \"\", 100, 0) = 100 <0.000001>\n");
    tlog_map_fhat(&MAP, LOG);
    build(UINT32_MAX);
    ck_assert_uint_eq(OM.noverlaps, 1);
    ck_assert_int_eq(OM.overlaps[0].lo, 50);
    ck_assert_int_eq(OM.overlaps[0].hi, 100);
    ck_assert_int_eq(OM.overlap_bytes, 50);
    ck_assert_int_eq(OM.union_bytes, 150 + 200);
    ck_assert_uint_eq(OM.union_ranges, 2);
    ck_assert_int_eq(OM.cases[0].overlap_bytes, 50);
    ck_assert_int_eq(OM.cases[1].overlap_bytes, 50);
    int flagged = 0;
    for (size_t i = 0; i < OM.npoints; i++) {
        flagged += OM.points[i].overlap;
    }
    ck_assert_int_eq(flagged, 2); // A's first write and B's first; not the read
    const struct iodfg_offset_point *a = point_at(0), *b = point_at(5), *c = point_at(15);
    ck_assert(a && b && c);
    ck_assert(a->overlap && b->overlap && !c->overlap);
}
END_TEST

/* Random writes of three cases in random order: the union, its ranges, the bytes written by two
 * cases or more and each case's share of them agree with a byte map of the file. */
START_TEST(random_ranges_exact)
{
    enum { CASES = 3, WRITES = 120, SIZE = 5000 };
    srand(99 + (unsigned)_i);
    static uint8_t who[SIZE]; // bit c: case c writes the byte
    memset(who, 0, sizeof(who));
    int64_t want_write = 0, want_case_ov[CASES] = {0, 0, 0};
    int64_t lens[CASES][WRITES], offs[CASES][WRITES];
    for (int c = 0; c < CASES; c++) {
        char *text = malloc(WRITES * 96);
        size_t o = 0;
        for (int i = 0; i < WRITES; i++) {
            int64_t off = rand() % (SIZE - 300), len = rand() % 5 ? 1 + rand() % 120 : 0;
            offs[c][i] = off;
            lens[c][i] = len;
            want_write += len;
            for (int64_t b = off; b < off + len; b++) {
                who[b] |= (uint8_t)(1u << c);
            }
            o += (size_t)snprintf(text + o, WRITES * 96 - o,
                                  "1 00:00:01.%06d pwrite64(3</d/f>, \"\", %lld, %lld) = %lld "
                                  "<0.000001>\n",
                                  i, (long long)len, (long long)off, (long long)len);
        }
        char name[8];
        snprintf(name, sizeof(name), "c%d", c);
        tlog_add_case(LOG, name, text);
        free(text);
    }
    int64_t want_union = 0, want_ov = 0;
    uint64_t want_ranges = 0;
    for (int b = 0; b < SIZE; b++) {
        want_union += who[b] != 0;
        want_ov += who[b] && (who[b] & (who[b] - 1));
        want_ranges += who[b] && (b == 0 || !who[b - 1]);
    }
    for (int c = 0; c < CASES; c++) { // a case's bytes written by another case too, per write
        for (int i = 0; i < WRITES; i++) {
            for (int64_t b = offs[c][i]; b < offs[c][i] + lens[c][i]; b++) {
                want_case_ov[c] += (who[b] & ~(1u << c)) != 0;
            }
        }
    }
    tlog_map_fhat(&MAP, LOG);
    build(path_id("/d/f"));
    ck_assert_int_eq(OM.write_bytes, want_write);
    ck_assert_int_eq(OM.union_bytes, want_union);
    ck_assert_uint_eq(OM.union_ranges, want_ranges);
    ck_assert_int_eq(OM.overlap_bytes, want_ov);
    for (int c = 0; c < CASES; c++) {
        ck_assert_int_eq(OM.cases[c].overlap_bytes, want_case_ov[c]);
    }
    for (size_t i = 1; i < OM.noverlaps; i++) { // sorted, disjoint, not touching
        ck_assert_int_lt(OM.overlaps[i - 1].hi, OM.overlaps[i].lo);
    }
}
END_TEST

/* Ten writes of 10 bytes each 100 bytes apart: strided; back to back: sequential. */
START_TEST(patterns_named)
{
    char text[4096];
    size_t o = 0;
    for (int i = 0; i < 10; i++) {
        o += (size_t)snprintf(text + o, sizeof(text) - o,
                              "1 00:00:01.%06d pwrite64(3</d/s>, \"\", 10, %d) = 10 <0.000001>\n"
                              "1 00:00:01.%06d pwrite64(4</d/q>, \"\", 10, %d) = 10 <0.000001>\n",
                              2 * i, 100 * i, 2 * i + 1, 10 * i);
    }
    tlog_add_case(LOG, "A", text);
    tlog_map_fhat(&MAP, LOG);
    build(path_id("/d/s"));
    ck_assert_int_eq(OM.file[IODFG_DIR_WRITE].pattern, IODFG_PATTERN_STRIDED);
    ck_assert_int_eq(OM.cases[0].dir[IODFG_DIR_WRITE].pattern, IODFG_PATTERN_STRIDED);
    ck_assert_int_eq(OM.file[IODFG_DIR_READ].pattern, IODFG_PATTERN_NONE);
    build(path_id("/d/q"));
    ck_assert_int_eq(OM.file[IODFG_DIR_WRITE].pattern, IODFG_PATTERN_SEQUENTIAL);
    ck_assert_str_eq(iodfg_pattern_name(IODFG_PATTERN_RANDOM), "random");
}
END_TEST

/* The default file: the data file with the most bytes, never /proc, /sys or /dev. */
START_TEST(default_file)
{
    tlog_add_case(LOG, "A",
                  "1 00:00:01.000000 read(3</proc/self/maps>, \"\", 9000) = 9000 <0.000001>\n"
                  "1 00:00:01.000010 pwrite64(4</d/b>, \"\", 100, 0) = 100 <0.000001>\n"
                  "1 00:00:01.000020 pwrite64(5</d/a>, \"\", 100, 0) = 100 <0.000001>\n"
                  "1 00:00:01.000030 pread64(6</d/c>, \"\", 50, 0) = 50 <0.000001>\n");
    tlog_map_fhat(&MAP, LOG);
    struct iodfg_offsetmap_file *f;
    size_t n;
    struct iodfg_error err;
    ck_assert_int_eq(iodfg_offsetmap_files(&IN, &f, &n, &err), 0);
    ck_assert_uint_eq(n, 3);
    ck_assert_uint_eq(f[0].path, path_id("/d/a")); // a tie with /d/b: by name
    ck_assert_uint_eq(f[1].path, path_id("/d/b"));
    ck_assert_int_eq(f[2].bytes, 50);
    free(f);
    build(UINT32_MAX);
    ck_assert_uint_eq(OM.path, path_id("/d/a"));
    // the focus: without the write activities of /d, /d/c is the one data file
    uint8_t *on = calloc(MAP.nactivities + 1, 1);
    on[tlog_act(&MAP, "pread64:/d/c")] = 1;
    IN.act_on = on;
    build(UINT32_MAX);
    ck_assert_uint_eq(OM.path, path_id("/d/c"));
    on[tlog_act(&MAP, "pread64:/d/c")] = 0;
    iodfg_error_clear(&err);
    ck_assert_int_eq(iodfg_offsetmap_build(&OM, &IN, UINT32_MAX, &err), -1);
    ck_assert_int_eq(err.code, IODFG_E_EMPTY);
    free(on);
}
END_TEST

START_TEST(tsv_and_json)
{
    tlog_add_case(LOG, "A\t<&>", trace);
    tlog_map_fhat(&MAP, LOG);
    build(path_id("/d/f"));
    struct iodfg_buf b;
    iodfg_buf_init(&b);
    ck_assert_int_eq(iodfg_offsetmap_tsv(&b, &OM), 0);
    ck_assert_ptr_nonnull(
        strstr(b.data, "case\tband\top\tstart_ns\tdur_ns\toffset\tlength\tsource\toverlap\n"
                       "A\\t<&>\t\twrite\t1000010000\t1000\t0\t100\tinferred\t0\n"));
    ck_assert_ptr_nonnull(strstr(b.data, "\twrite\t1000040000\t2000\t4096\t4096\tknown\t0\n"));
    iodfg_buf_clear(&b);
    ck_assert_int_eq(iodfg_offsetmap_json(&b, &OM, NULL), 0);
    ck_assert_ptr_nonnull(strstr(b.data, "\"file\":\"/d/f\""));
    ck_assert_ptr_nonnull(strstr(b.data, "\"unknown\":1,\"unknown_bytes\":7"));
    pic_json_ok(b.data, b.len);
    iodfg_buf_fini(&b);
}
END_TEST

/* The points come by row, each row's as many as its known and inferred offsets. */
static void check_points_by_row(void)
{
    size_t i = 0;
    for (uint32_t r = 0; r < OM.ncases; r++) {
        uint64_t want = 0;
        for (int d = 0; d < 2; d++) {
            want += OM.cases[r].dir[d].n[IODFG_OFFSET_KNOWN] +
                    OM.cases[r].dir[d].n[IODFG_OFFSET_INFERRED];
        }
        for (uint64_t k = 0; k < want; k++, i++) {
            ck_assert_uint_lt(i, OM.npoints);
            ck_assert_uint_eq(OM.points[i].row, r);
        }
    }
    ck_assert_uint_eq(i, OM.npoints);
}

/* Two threads write the same map as one: cases of every kind (an unknown offset leaves a gap
 * that is closed), G and R bands, random overlapping writes, split at every case. */
START_TEST(two_threads_same_map)
{
    srand(5);
    for (int c = 0; c < 7; c++) {
        char name[8], *text = malloc(64 * 1024);
        size_t o = (size_t)snprintf(text, 64 * 1024, "%s", trace);
        for (int i = 0; i < 200; i++) {
            int64_t off = rand() % 9000, len = 1 + rand() % 300;
            o += (size_t)snprintf(text + o, 64 * 1024 - o,
                                  "1 00:00:02.%06d pwrite64(3</d/f>, \"\", %lld, %lld) = %lld "
                                  "<0.000001>\n",
                                  i * 10 + c, (long long)len, (long long)off, (long long)len);
        }
        snprintf(name, sizeof(name), "c%d", c);
        tlog_add_case(LOG, name, c == 3 ? "1 00:00:01.000000 getpid() = 1 <0.000001>\n" : text);
        free(text);
    }
    tlog_map_fhat(&MAP, LOG);
    uint8_t g[7] = {1, 0, 1, 0, 1, 0, 1}, r[7] = {0, 1, 0, 1, 0, 1, 0};
    struct iodfg_buf one, two;
    iodfg_buf_init(&one);
    iodfg_buf_init(&two);
    for (int groups = 0; groups < 2; groups++) {
        IN.group[0] = groups ? g : NULL;
        IN.group[1] = groups ? r : NULL;
        struct iodfg_error err;
        iodfg_error_clear(&err);
        ck_assert_int_eq(iodfg_offsetmap_build_split(&OM, &IN, path_id("/d/f"), UINT64_MAX, &err),
                         0);
        ck_assert_uint_gt(OM.noverlaps, 0);
        check_points_by_row();
        iodfg_buf_clear(&one);
        ck_assert_int_eq(iodfg_offsetmap_tsv(&one, &OM), 0);
        ck_assert_int_eq(iodfg_offsetmap_json(&one, &OM, NULL), 0);
        for (uint64_t from = 1; from < 3000; from += 97) {
            ck_assert_int_eq(iodfg_offsetmap_build_split(&OM, &IN, path_id("/d/f"), from, &err), 0);
            iodfg_buf_clear(&two);
            ck_assert_int_eq(iodfg_offsetmap_tsv(&two, &OM), 0);
            ck_assert_int_eq(iodfg_offsetmap_json(&two, &OM, NULL), 0);
            check_points_by_row();
            ck_assert_uint_eq(one.len, two.len);
            ck_assert_msg(memcmp(one.data, two.data, one.len) == 0, "threads from %llu differ",
                          (unsigned long long)from);
        }
    }
    IN.group[0] = IN.group[1] = NULL;
    iodfg_buf_fini(&one);
    iodfg_buf_fini(&two);
}
END_TEST

/* The shared file of a real IOR run (-b 64k -t 16k -s 4, 4 ranks): each case writes and reads
 * 16 transfers of 16 KiB at known offsets; a case's writes are rank r's blocks (segment s at
 * (s * 4 + r) * 64 KiB, four transfers each), the four cases take the four ranks, and the
 * writes cover [0, 1 MiB) exactly once; so do the reads. */
static void check_ssf(const char *cid)
{
    struct pic_run run;
    pic_run_open(&run, cid, NULL);
    IN = run.in;
    build(UINT32_MAX);
    char want[64];
    snprintf(want, sizeof(want), "/tmp/scratch/%s/test", cid);
    ck_assert_str_eq(iodfg_strpool_get(OM.names, OM.name), want);
    ck_assert_uint_eq(OM.ncases, 4);
    ck_assert_uint_eq(OM.npoints, 128);
    ck_assert_int_eq(OM.write_bytes, 1048576);
    ck_assert_int_eq(OM.union_bytes, 1048576);
    ck_assert_uint_eq(OM.union_ranges, 1);
    ck_assert_uint_eq(OM.noverlaps, 0);
    ck_assert_int_eq(OM.extent, 1048576);
    int rank_taken[4] = {0, 0, 0, 0};
    for (uint32_t r = 0; r < OM.ncases; r++) {
        for (int d = 0; d < 2; d++) {
            const struct iodfg_offsetmap_dir *cd = &OM.cases[r].dir[d];
            ck_assert_uint_eq(cd->n[IODFG_OFFSET_KNOWN], 16);
            ck_assert_uint_eq(cd->n[IODFG_OFFSET_INFERRED] + cd->n[IODFG_OFFSET_UNKNOWN], 0);
        }
        ck_assert_int_eq(OM.cases[r].dir[IODFG_DIR_WRITE].pattern, IODFG_PATTERN_STRIDED);
        int rank = -1, seen[16] = {0};
        for (size_t i = 0; i < OM.npoints; i++) {
            const struct iodfg_offset_point *p = &OM.points[i];
            if (p->row != r || !p->write) {
                continue;
            }
            ck_assert_int_eq(p->length, 16384);
            ck_assert_int_eq(p->source, IODFG_OFFSET_KNOWN);
            int64_t block = p->offset / 65536, s4 = block / 4;
            if (rank < 0) {
                rank = (int)(block % 4);
            }
            ck_assert_msg(block % 4 == rank, "%s: a write of rank %d at %lld", cid, rank,
                          (long long)p->offset);
            ck_assert_int_eq(p->offset % 16384, 0);
            int slot = (int)(s4 * 4 + p->offset % 65536 / 16384);
            ck_assert_int_eq(seen[slot]++, 0);
        }
        ck_assert_int_ge(rank, 0);
        ck_assert_int_eq(rank_taken[rank]++, 0);
    }
    // the reads cover the file once too
    int64_t covered[64] = {0};
    for (size_t i = 0; i < OM.npoints; i++) {
        const struct iodfg_offset_point *p = &OM.points[i];
        if (!p->write) {
            ck_assert_int_eq(p->offset % 16384, 0);
            ck_assert_int_eq(covered[p->offset / 16384]++, 0);
        }
    }
    pic_run_close(&run);
}

START_TEST(real_ior_posix_ssf)
{
    check_ssf("posixssf");
}
END_TEST

START_TEST(real_ior_mpiio_ssf)
{
    check_ssf("mpiiossf");
}
END_TEST

/* File per process: the first file by name among four of equal bytes, one case writing its
 * 256 KiB sequentially. */
START_TEST(real_ior_posix_fpp)
{
    struct pic_run run;
    pic_run_open(&run, "posixfpp", NULL);
    IN = run.in;
    build(UINT32_MAX);
    ck_assert_str_eq(iodfg_strpool_get(OM.names, OM.name), "/tmp/scratch/posixfpp/test.00000000");
    ck_assert_uint_eq(OM.ncases, 1);
    ck_assert_int_eq(OM.union_bytes, 262144);
    ck_assert_uint_eq(OM.union_ranges, 1);
    ck_assert_int_eq(OM.file[IODFG_DIR_WRITE].pattern, IODFG_PATTERN_SEQUENTIAL);
    pic_run_close(&run);
}
END_TEST

static Suite *offsetmap_suite(void)
{
    Suite *s = suite_create("offsetmap");
    TCase *tc = tcase_create("core");
    tcase_add_checked_fixture(tc, setup, teardown);
    tcase_add_test(tc, sources_of_offsets);
    tcase_add_test(tc, no_handles_no_known_seeks);
    tcase_add_test(tc, overlaps_between_cases);
    tcase_add_loop_test(tc, random_ranges_exact, 0, 4);
    tcase_add_test(tc, patterns_named);
    tcase_add_test(tc, default_file);
    tcase_add_test(tc, tsv_and_json);
    tcase_add_test(tc, two_threads_same_map);
    suite_add_tcase(s, tc);
    TCase *real = tcase_create("real");
    tcase_add_checked_fixture(real, setup, teardown);
    tcase_add_test(real, real_ior_posix_ssf);
    tcase_add_test(real, real_ior_mpiio_ssf);
    tcase_add_test(real, real_ior_posix_fpp);
    suite_add_tcase(s, real);
    return s;
}

int main(void)
{
    return testutil_run(offsetmap_suite());
}
