/* SPDX-License-Identifier: MIT */
/* Unit tests: filters (text form, case/key/time filters, the stack, groups G and R). */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "iodfg/buf.h"
#include "iodfg/error.h"
#include "iodfg/eventlog.h"
#include "iodfg/filter.h"
#include "iodfg/format.h"
#include "iodfg/mapping.h"
#include "iodfg/mounts.h"
#include "iodfg/rules.h"
#include "iodfg/strace.h"
#include "iodfg/strpool.h"

#include "testutil.h"

static struct iodfg_eventlog *LOG;
static struct iodfg_filter_stack *FS;
static struct iodfg_filter_result RES;
static struct iodfg_error ERR;

static uint32_t S(const char *s)
{
    uint32_t id;
    ck_assert_int_eq(iodfg_strpool_intern(iodfg_eventlog_pool(LOG), s, strlen(s), &id), 0);
    return id;
}

static void add_case(const char *cid, const char *host, const char *rid, const char *text)
{
    struct iodfg_case_info info;
    memset(&info, 0, sizeof(info));
    char name[64];
    snprintf(name, sizeof(name), "%s_%s_%s", cid, host, rid);
    info.cid = S(cid);
    info.host = S(host);
    info.rid = S(rid);
    info.name = S(name);
    ck_assert_int_eq(iodfg_eventlog_begin_case(LOG, &info, NULL), 0);
    struct iodfg_strace_result res;
    ck_assert_int_eq(
        iodfg_strace_parse(text, strlen(text), iodfg_strace_sink_eventlog, LOG, &res, NULL), 0);
    ck_assert_int_eq(iodfg_eventlog_end_case(LOG, NULL), 0);
}

/* Four cases (Sankaran et al. 2024's ls / ls -l runs): a on host1, b on host1 and host2; -ttt
 * clocks. */
static void setup(void)
{
    LOG = iodfg_eventlog_new(IODFG_COL_ALL);
    ck_assert_ptr_nonnull(LOG);
    add_case("a", "host1", "9042",
             "9054 1000.100000 read(3</usr/lib/libc.so.6>, \"x\", 832) = 832 <0.000079>\n"
             "9054 1000.200000 write(1</dev/pts/7>, \"a\", 50) = 50 <0.000111>\n");
    add_case("a", "host1", "9043",
             "9055 1000.000000 read(3</usr/lib/libc.so.6>, \"x\", 832) = 832 <0.000079>\n"
             "9055 1002.500000 write(4<pipe:[77]>, \"a\", 1) = 1 <0.000010>\n");
    add_case("b", "host1", "9044",
             "9056 1001.000000 read(3</etc/passwd>, \"x\", 4096) = 100 <0.000020>\n");
    add_case("b", "host2", "9045",
             "9057 1003.000000 read(3</etc/group>, \"x\", 4096) = 100 <0.000020>\n"
             "9057 1004.000000 getpid() = 9057 <0.000001>\n");
    FS = iodfg_filter_stack_new();
    ck_assert_ptr_nonnull(FS);
    iodfg_filter_result_init(&RES);
    iodfg_error_clear(&ERR);
}

static void teardown(void)
{
    iodfg_filter_result_fini(&RES);
    iodfg_filter_stack_free(FS);
    iodfg_eventlog_free(LOG);
}

static void push(const char *text)
{
    iodfg_error_clear(&ERR);
    ck_assert_msg(iodfg_filter_stack_push_text(FS, text, &ERR) == 0, "%s: %s", text, ERR.msg);
}

static void run(void)
{
    ck_assert_int_eq(iodfg_filter_stack_apply(FS, LOG, &RES, NULL), 0);
}

/* Case mask as a string of 0/1 ("1100"). */
static const char *cases(void)
{
    static char buf[16];
    for (uint32_t c = 0; c < RES.ncases; c++) {
        buf[c] = RES.case_on[c] ? '1' : '0';
    }
    buf[RES.ncases] = '\0';
    return buf;
}

/* Is the key (call, path) kept? */
static int key_on(const char *call, const char *path)
{
    const struct iodfg_strpool *pool = iodfg_eventlog_pool(LOG);
    const struct iodfg_key *keys = iodfg_eventlog_keys(LOG);
    for (uint32_t k = 0; k < iodfg_eventlog_key_count(LOG); k++) {
        if (!strcmp(iodfg_strpool_get(pool, keys[k].call), call) &&
            !strcmp(iodfg_strpool_get(pool, keys[k].path), path)) {
            return RES.key_on[k];
        }
    }
    ck_abort_msg("no key %s %s", call, path);
    return -1;
}

START_TEST(round_trip)
{
    static const char *const in[][2] = {
        {"cid=a", "cid=a"},
        {"  host != host1 , host2 ", "host!=host1,host2"},
        {"name ~ ^b_", "name~^b_"},
        {"rid!~90(4[45])", "rid!~90(4[45])"},
        {"source=/x/a_host1_9042.st", "source=/x/a_host1_9042.st"},
        {"call = read,write", "call=read,write"},
        {"path ~ ^/p/scratch/[^/]+ (ssf)", "path~^/p/scratch/[^/]+ (ssf)"},
        {"path=/odd,name", "path=/odd,name"},
        {"kind != socket,pipe", "kind!=socket,pipe"},
        {"time=1.5..3", "time=1.5..3"},
        {"time = 250ms..", "time=0.25.."},
        {"time=..2m", "time=..120"},
        {"time=@1753944587.7538..@1753944590", "time=@1753944587.7538..@1753944590"},
        {"time=1500us..0.001h", "time=0.0015..3.6"},
        {"time=1ns..2", "time=0.000000001..2"},
        // the clock forms every output shows (iodfg_format_clock) are read back as written
        {"time=07:38:50.699678..07:38:57.738686", "time=07:38:50.699678..07:38:57.738686"},
        {"time = 7:38:50.500000 .. 7:39", "time=07:38:50.5..07:39:00"},
        {"time=+1d 00:00:01.25..", "time=+1d 00:00:01.25.."},
        {"time=2025-07-31 06:49:47.753944 UTC..2025-07-31T06:50:00Z",
         "time=2025-07-31 06:49:47.753944 UTC..2025-07-31 06:50:00 UTC"},
        {"time=+1.500000 s..+2s", "time=+1.5s..+2s"},
        {"time=+250ms..", "time=+0.25s.."},
        {"minedge=5", "minedge=5"},
        {"top = 20", "top=20"},
    };
    for (size_t i = 0; i < sizeof(in) / sizeof(in[0]); i++) {
        iodfg_error_clear(&ERR);
        struct iodfg_filter *f = iodfg_filter_parse(in[i][0], strlen(in[i][0]), &ERR);
        ck_assert_msg(f != NULL, "%s: %s", in[i][0], ERR.msg);
        struct iodfg_buf b, b2;
        iodfg_buf_init(&b);
        iodfg_buf_init(&b2);
        ck_assert_int_eq(iodfg_filter_format(f, &b), 0);
        ck_assert_str_eq(b.data, in[i][1]);
        struct iodfg_filter *g = iodfg_filter_parse(b.data, b.len, NULL);
        ck_assert_ptr_nonnull(g);
        ck_assert_int_eq(iodfg_filter_kind(g), iodfg_filter_kind(f));
        iodfg_filter_format(g, &b2);
        ck_assert_str_eq(b2.data, b.data);
        iodfg_filter_free(f);
        iodfg_filter_free(g);
        iodfg_buf_fini(&b);
        iodfg_buf_fini(&b2);
    }
}
END_TEST

START_TEST(parse_errors)
{
    static const struct {
        const char *text;
        unsigned long col;
        enum iodfg_status code;
    } bad[] = {
        {"colour=red", 1, IODFG_E_PARSE},
        {"cid", 4, IODFG_E_PARSE},
        {"cid=", 5, IODFG_E_PARSE},
        {"path ~ ab(", 11, IODFG_E_REGEX},
        {"kind=file,blob", 11, IODFG_E_PARSE},
        {"kind~file", 5, IODFG_E_PARSE},
        {"time~1..2", 5, IODFG_E_PARSE},
        {"time=5..2", 6, IODFG_E_PARSE},
        {"time=1", 6, IODFG_E_PARSE},
        {"time=1..2x", 9, IODFG_E_PARSE},
        {"time=..", 6, IODFG_E_PARSE},
        {"time=24:00:00..", 6, IODFG_E_PARSE},
        {"time=07:60..", 6, IODFG_E_PARSE},
        {"time=07:38:5..", 6, IODFG_E_PARSE},
        {"time=2025-13-01 00:00:00..", 6, IODFG_E_PARSE},
        {"time=1..07:38:61", 9, IODFG_E_PARSE},
        {"top=1x", 6, IODFG_E_PARSE},
        {"call=read,,write", 11, IODFG_E_PARSE},
    };
    for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
        iodfg_error_clear(&ERR);
        ck_assert_msg(iodfg_filter_parse(bad[i].text, strlen(bad[i].text), &ERR) == NULL,
                      "accepted %s", bad[i].text);
        ck_assert_msg(ERR.line == 1 && ERR.col == bad[i].col && ERR.code == bad[i].code,
                      "%s: col %lu want %lu (%s)", bad[i].text, ERR.col, bad[i].col, ERR.msg);
    }
}
END_TEST

START_TEST(case_filters)
{
    run();
    ck_assert_str_eq(cases(), "1111");
    ck_assert_uint_eq(RES.ncases_on, 4);
    push("cid=b");
    run();
    ck_assert_str_eq(cases(), "0011");
    push("host!=host1");
    run();
    ck_assert_str_eq(cases(), "0001");
    ck_assert_int_eq(iodfg_filter_stack_pop(FS), 0);
    ck_assert_int_eq(iodfg_filter_stack_pop(FS), 0);
    ck_assert_int_eq(iodfg_filter_stack_pop(FS), -1);
    push("name~^a_.*_904[3-9]$");
    run();
    ck_assert_str_eq(cases(), "0100");
    ck_assert_uint_eq(RES.regex_evals, 4); // once per case
    iodfg_filter_stack_clear(FS);
    push("rid=9042,9045");
    push("name!~host2");
    run();
    ck_assert_str_eq(cases(), "1000");
    ck_assert_uint_eq(RES.nkeys_on, iodfg_eventlog_key_count(LOG));
}
END_TEST

START_TEST(key_filters)
{
    push("call=read,write");
    run();
    ck_assert_int_eq(key_on("read", "/usr/lib/libc.so.6"), 1);
    ck_assert_int_eq(key_on("getpid", ""), 0);
    push("path!~^/etc/");
    run();
    ck_assert_int_eq(key_on("read", "/etc/passwd"), 0);
    ck_assert_int_eq(key_on("write", "pipe:[77]"), 1);
    push("kind=file");
    run();
    ck_assert_int_eq(key_on("write", "pipe:[77]"), 0);
    ck_assert_int_eq(key_on("write", "/dev/pts/7"), 1);
    ck_assert_uint_eq(RES.nkeys_on, 2);
    ck_assert_str_eq(cases(), "1111"); // key filters leave the cases alone
    // folded into the mapping: filtered keys get no activity, whatever the rules say
    struct iodfg_rules *rs = iodfg_rules_new();
    struct iodfg_mapping m;
    struct iodfg_rules_report rep;
    iodfg_rules_report_init(&rep);
    ck_assert_int_eq(iodfg_mapping_init(&m, NULL), 0);
    ck_assert_int_eq(iodfg_rules_apply(rs, LOG, RES.key_on, &m, &rep, NULL), 0);
    ck_assert_uint_eq(rep.filtered, iodfg_eventlog_key_count(LOG) - 2);
    ck_assert_uint_eq(m.nactivities, 2); // read:/usr/lib, write:/dev/pts
    ck_assert_int_eq(iodfg_mapping_find(&m, "write:/dev/pts", &(uint32_t){0}), 0);
    iodfg_mapping_fini(&m);
    iodfg_rules_report_fini(&rep);
    iodfg_rules_free(rs);
}
END_TEST

START_TEST(fs_scope_layer_filters)
{
    static const char table[] = "/dev/sda1 / ext4 rw 0 0\n"
                                "nfs:/export /usr nfs4 rw 0 0\n"
                                "devtmpfs /dev devtmpfs rw 0 0\n";
    struct iodfg_mounts *mt = iodfg_mounts_parse(table, strlen(table), &ERR);
    ck_assert_ptr_nonnull(mt);
    ck_assert_int_eq(iodfg_mounts_classify(mt, LOG, &ERR), 0);
    iodfg_mounts_free(mt);
    uint32_t k;
    ck_assert_int_eq(
        iodfg_eventlog_key_layer(LOG, S("MPI_File_open"), S("/usr/x"), S("MPI-IO"), &k), 0);
    push("scope=global");
    run();
    ck_assert_int_eq(key_on("read", "/usr/lib/libc.so.6"), 1);
    ck_assert_int_eq(key_on("write", "/dev/pts/7"), 0);
    ck_assert_int_eq(key_on("read", "/etc/passwd"), 0);
    ck_assert_int_eq(RES.key_on[k], 0); // a new key is not classified
    ck_assert_uint_eq(RES.nkeys_on, 1);
    ck_assert_int_eq(iodfg_filter_stack_pop(FS), 0);
    push("fstype = ext4,devtmpfs");
    run();
    ck_assert_int_eq(key_on("write", "/dev/pts/7"), 1);
    ck_assert_int_eq(key_on("read", "/etc/passwd"), 1);
    ck_assert_int_eq(key_on("read", "/etc/group"), 1);
    ck_assert_int_eq(key_on("write", "pipe:[77]"), 0);
    ck_assert_uint_eq(RES.nkeys_on, 3);
    push("fs~^/$");
    run();
    ck_assert_int_eq(key_on("write", "/dev/pts/7"), 0);
    ck_assert_uint_eq(RES.nkeys_on, 2);
    ck_assert_int_eq(iodfg_filter_stack_pop(FS), 0);
    ck_assert_int_eq(iodfg_filter_stack_pop(FS), 0);
    push("scope!=none,unknown");
    run();
    ck_assert_int_eq(key_on("write", "pipe:[77]"), 0);
    ck_assert_int_eq(key_on("getpid", ""), 0);
    ck_assert_uint_eq(RES.nkeys_on, 4); // libc, pts, passwd, group
    ck_assert_int_eq(iodfg_filter_stack_pop(FS), 0);
    push("layer=MPI-IO");
    run();
    ck_assert_uint_eq(RES.nkeys_on, 1);
    ck_assert_int_eq(RES.key_on[k], 1);
    ck_assert_int_eq(iodfg_filter_stack_pop(FS), 0);
    push("layer~^POS");
    run();
    ck_assert_uint_eq(RES.nkeys_on, iodfg_eventlog_key_count(LOG) - 1);
    ck_assert_int_eq(RES.key_on[k], 0);
    // canonical text round trip and errors
    static const char *const texts[] = {"fs~^/p/scratch", "fstype=lustre,gpfs", "scope!=virtual",
                                        "layer=MPI-IO,POSIX"};
    for (size_t i = 0; i < sizeof(texts) / sizeof(texts[0]); i++) {
        struct iodfg_filter *f = iodfg_filter_parse(texts[i], strlen(texts[i]), &ERR);
        ck_assert_ptr_nonnull(f);
        struct iodfg_buf b;
        iodfg_buf_init(&b);
        iodfg_filter_format(f, &b);
        ck_assert_str_eq(b.data, texts[i]);
        iodfg_buf_fini(&b);
        iodfg_filter_free(f);
    }
    iodfg_error_clear(&ERR);
    ck_assert_ptr_null(iodfg_filter_parse("scope=local,nowhere", 19, &ERR));
    ck_assert_uint_eq(ERR.col, 13);
    ck_assert_ptr_nonnull(strstr(ERR.msg, "unknown scope"));
    iodfg_error_clear(&ERR);
    ck_assert_ptr_null(iodfg_filter_parse("fstype~(", 8, &ERR));
    ck_assert_int_eq(ERR.code, IODFG_E_REGEX);
}
END_TEST

START_TEST(time_window)
{
    const int64_t s = 1000000000;
    run();
    ck_assert_int_eq(RES.log_start_ns, 1000 * s);
    ck_assert_int_eq(RES.from_ns, INT64_MIN);
    ck_assert_int_eq(RES.to_ns, INT64_MAX);
    push("time=0.5..3");
    run();
    ck_assert_int_eq(RES.from_ns, 1000 * s + s / 2);
    ck_assert_int_eq(RES.to_ns, 1003 * s);
    push("time=@1001..@1010"); // absolute, intersected with the relative one
    run();
    ck_assert_int_eq(RES.from_ns, 1001 * s);
    ck_assert_int_eq(RES.to_ns, 1003 * s);
    struct iodfg_selection sel;
    iodfg_selection_all(&sel);
    sel.per_pid = 1;
    iodfg_filter_result_selection(&RES, &sel);
    ck_assert_int_eq(sel.from_ns, 1001 * s);
    ck_assert_int_eq(sel.to_ns, 1003 * s);
    ck_assert_ptr_eq(sel.case_on, RES.case_on);
    ck_assert_int_eq(sel.per_pid, 1);
}
END_TEST

/* The window in the forms the program prints: the time of day of a -tt log and the date of a
 * -ttt one mean the same instants as @seconds on the log's clock. */
START_TEST(time_clock_forms)
{
    const int64_t s = 1000000000;
    push("time=00:16:41..00:16:43.5"); // 1001 s and 1003.5 s after midnight
    run();
    ck_assert_int_eq(RES.from_ns, 1001 * s);
    ck_assert_int_eq(RES.to_ns, 1003 * s + s / 2);
    iodfg_filter_stack_pop(FS);
    push("time=1970-01-01 00:16:42 UTC..+1002.25 s");
    run();
    ck_assert_int_eq(RES.from_ns, 1002 * s);
    ck_assert_int_eq(RES.to_ns, 1002 * s + s / 4);
    char t[64];
    ck_assert_str_eq(iodfg_format_clock(t, sizeof(t), IODFG_CLOCK_TIME_OF_DAY, 27530699678000, 6),
                     "07:38:50.699678");
    ck_assert_str_eq(iodfg_format_clock(t, sizeof(t), IODFG_CLOCK_TIME_OF_DAY, 86401 * s, 2),
                     "+1d 00:00:01.00");
    ck_assert_str_eq(iodfg_format_clock(t, sizeof(t), IODFG_CLOCK_EPOCH, 1753944587753944000, 6),
                     "2025-07-31 06:49:47.753944 UTC");
    ck_assert_str_eq(iodfg_format_clock(t, sizeof(t), IODFG_CLOCK_RELATIVE, 1500000000, 3),
                     "+1.500 s");
    ck_assert_str_eq(iodfg_format_clock(t, sizeof(t), IODFG_CLOCK_RELATIVE, -250000000, 2),
                     "-0.25 s");
    ck_assert_str_eq(iodfg_format_clock(t, sizeof(t), IODFG_CLOCK_TIME_OF_DAY, 5 * s, 0),
                     "00:00:05");
}
END_TEST

START_TEST(pruning_numbers)
{
    push("minedge=3");
    push("top=10");
    push("minedge=5");
    push("top=20");
    run();
    ck_assert_uint_eq(RES.min_edge, 5);
    ck_assert_uint_eq(RES.top, 10);
    ck_assert_uint_eq(iodfg_filter_stack_min_edge(FS), 5);
    ck_assert_uint_eq(iodfg_filter_stack_top(FS), 10);
    ck_assert_str_eq(cases(), "1111");
}
END_TEST

START_TEST(stack_text_and_dup)
{
    const char *text = "# session filters\ncid=a\n\n  path ~ ^/usr\ntime=..1\n";
    ck_assert_int_eq(iodfg_filter_stack_parse(FS, text, strlen(text), "s", &ERR), 0);
    ck_assert_uint_eq(iodfg_filter_stack_count(FS), 3);
    ck_assert_int_eq(iodfg_filter_kind(iodfg_filter_stack_get(FS, 1)), IODFG_FILTER_PATH);
    ck_assert_ptr_null(iodfg_filter_stack_get(FS, 3));
    struct iodfg_buf b;
    iodfg_buf_init(&b);
    ck_assert_int_eq(iodfg_filter_stack_format(FS, "  ", &b), 0);
    ck_assert_str_eq(b.data, "cid=a  path~^/usr  time=..1");
    struct iodfg_filter_stack *copy = iodfg_filter_stack_dup(FS);
    ck_assert_ptr_nonnull(copy);
    iodfg_filter_stack_pop(FS);
    ck_assert_uint_eq(iodfg_filter_stack_count(copy), 3);
    iodfg_buf_clear(&b);
    iodfg_filter_stack_format(copy, "\n", &b);
    ck_assert_str_eq(b.data, "cid=a\npath~^/usr\ntime=..1");
    iodfg_filter_stack_free(copy);
    iodfg_buf_fini(&b);
    const char *bad = "cid=a\n# c\n  path ~ (\n";
    ck_assert_int_eq(iodfg_filter_stack_parse(FS, bad, strlen(bad), "s.txt", &ERR), -1);
    ck_assert_str_eq(ERR.where, "s.txt");
    ck_assert_uint_eq(ERR.line, 3);
    ck_assert_uint_eq(ERR.col, 11);                     // end of the pattern "(": the missing ')'
    ck_assert_uint_eq(iodfg_filter_stack_count(FS), 2); // nothing of the bad text pushed
}
END_TEST

START_TEST(groups)
{
    uint8_t g[4], r[4];
    struct iodfg_filter_stack *G = iodfg_filter_stack_new(), *R = iodfg_filter_stack_new();
    ck_assert_int_eq(iodfg_filter_stack_push_text(G, "cid=a", NULL), 0);
    ck_assert_int_eq(iodfg_filter_stack_push_text(R, "name~^b_", NULL), 0);
    ck_assert_int_eq(iodfg_filter_case_mask(G, LOG, g, NULL), 0);
    ck_assert_int_eq(iodfg_filter_case_mask(R, LOG, r, NULL), 0);
    ck_assert(g[0] && g[1] && !g[2] && !g[3]);
    ck_assert(!r[0] && !r[1] && r[2] && r[3]);
    ck_assert_int_eq(iodfg_filter_groups_check(LOG, g, r, NULL), 0);
    iodfg_filter_stack_pop(R);
    ck_assert_int_eq(iodfg_filter_stack_push_text(R, "host=host1", NULL), 0);
    ck_assert_int_eq(iodfg_filter_case_mask(R, LOG, r, NULL), 0);
    ck_assert_int_eq(iodfg_filter_groups_check(LOG, g, r, &ERR), -1);
    ck_assert_str_eq(ERR.msg, "groups G and R overlap in 2 cases: a_host1_9042, a_host1_9043");
    memset(g, 1, 4);
    memset(r, 1, 4);
    iodfg_error_clear(&ERR);
    ck_assert_int_eq(iodfg_filter_groups_check(LOG, g, r, &ERR), -1);
    ck_assert_str_eq(ERR.msg, "groups G and R overlap in 4 cases: a_host1_9042, a_host1_9043, "
                              "b_host1_9044, ...");
    ck_assert_int_eq(iodfg_filter_stack_push_text(R, "path~^/usr", NULL), 0);
    iodfg_error_clear(&ERR);
    ck_assert_int_eq(iodfg_filter_case_mask(R, LOG, r, &ERR), -1);
    ck_assert_ptr_nonnull(strstr(ERR.msg, "'path~^/usr'"));
    iodfg_filter_stack_clear(R);
    ck_assert_int_eq(iodfg_filter_case_mask(R, LOG, r, NULL), 0);
    ck_assert(!r[0] && !r[1] && !r[2] && !r[3]); // an empty group has no members
    iodfg_filter_stack_free(G);
    iodfg_filter_stack_free(R);
}
END_TEST

int main(void)
{
    Suite *s = suite_create("filter");
    TCase *t = tcase_create("text");
    tcase_add_checked_fixture(t, setup, teardown);
    tcase_add_test(t, round_trip);
    tcase_add_test(t, parse_errors);
    tcase_add_test(t, stack_text_and_dup);
    suite_add_tcase(s, t);
    TCase *e = tcase_create("eval");
    tcase_add_checked_fixture(e, setup, teardown);
    tcase_add_test(e, case_filters);
    tcase_add_test(e, key_filters);
    tcase_add_test(e, fs_scope_layer_filters);
    tcase_add_test(e, time_window);
    tcase_add_test(e, time_clock_forms);
    tcase_add_test(e, pruning_numbers);
    tcase_add_test(e, groups);
    suite_add_tcase(s, e);
    return testutil_run(s);
}
