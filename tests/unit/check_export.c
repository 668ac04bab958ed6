/* SPDX-License-Identifier: MIT */
/* Unit tests: DOT/TSV/JSON exports (validated with `dot -Tsvg`), sorting, human formatting. */
#include "config.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "iodfg/analysis.h"
#include "iodfg/buf.h"
#include "iodfg/dfg.h"
#include "iodfg/diff.h"
#include "iodfg/error.h"
#include "iodfg/eventlog.h"
#include "iodfg/export.h"
#include "iodfg/format.h"
#include "iodfg/mapping.h"
#include "iodfg/stats.h"
#include "iodfg/strpool.h"

#include "dfg_testlog.h"
#include "testutil.h"

static struct iodfg_eventlog *LOG;
static struct iodfg_mapping MAP;
static struct iodfg_analysis *AN;
static struct iodfg_buf B;

static void analyse(void)
{
    tlog_map_fhat(&MAP, LOG);
    struct iodfg_selection sel;
    iodfg_selection_all(&sel);
    AN = iodfg_analysis_new(LOG, &MAP, &sel, NULL);
    ck_assert_ptr_nonnull(AN);
}

static void setup(void)
{
    LOG = iodfg_eventlog_new(IODFG_COL_ANALYSIS);
    iodfg_buf_init(&B);
}

static void teardown(void)
{
    iodfg_buf_fini(&B);
    iodfg_analysis_free(AN);
    AN = NULL;
    tlog_map_free(&MAP);
    iodfg_eventlog_free(LOG);
}

static void check_dot(void)
{
    int rc = tlog_dot_ok(B.data, B.len);
    ck_assert_msg(rc == 0 || rc == 77, "dot rejected:\n%s", B.data);
}

static void check_json(void)
{
    if (system("command -v python3 >/dev/null 2>&1") != 0) {
        fprintf(stderr, "SKIP: python3 not found, JSON not parsed\n");
        return;
    }
    char *dir = testutil_tmpdir();
    char path[4096], cmd[8300];
    snprintf(path, sizeof(path), "%s/x.json", dir);
    testutil_write_file(path, B.data, B.len);
    snprintf(cmd, sizeof(cmd),
             "p=/usr/bin/python3; [ -x $p ] || p=python3; " // as pic_json_ok
             "$p -c 'import json,sys; json.load(open(sys.argv[1], encoding=\"utf-8\"))' '%s'",
             path);
    int rc = system(cmd);
    testutil_rmtree(dir);
    free(dir);
    ck_assert_msg(rc == 0, "invalid JSON:\n%s", B.data);
}

START_TEST(paper_dot_stats_colouring)
{
    tlog_paper_log(LOG);
    analyse();
    struct iodfg_dot_options opt;
    iodfg_dot_options_init(&opt);
    opt.comment = "rules: f-hat\nfilter: all cases \x1b[31m";
    ck_assert_int_eq(
        iodfg_export_dot(&B, iodfg_analysis_dfg(AN), iodfg_analysis_stats(AN), &MAP, &opt, NULL),
        0);
    ck_assert(!strncmp(B.data, "// rules: f-hat\n// filter: all cases \\e[31m\n", 44));
    // labels in the paper's form; the three cases of a group run at the same clock times, the
    // two groups ten seconds apart, so mc(read:/usr/lib) = 3
    ck_assert_ptr_nonnull(strstr(B.data, "a0 [label=\"read:/usr/lib\\nLoad: "));
    ck_assert_ptr_nonnull(strstr(B.data, "\\nDR: 3 \xc3\x97 "));
    ck_assert_ptr_nonnull(strstr(B.data, "start -> a0 [label=\"6\"]"));
    check_dot();
    for (int shade = IODFG_SHADE_RD; shade <= IODFG_SHADE_NONE; shade++) {
        iodfg_buf_clear(&B);
        opt.shade = (enum iodfg_shade)shade;
        ck_assert_int_eq(iodfg_export_dot(&B, iodfg_analysis_dfg(AN), iodfg_analysis_stats(AN),
                                          &MAP, &opt, NULL),
                         0);
        check_dot();
    }
}
END_TEST

START_TEST(paper_dot_partition)
{
    static const uint8_t ca[6] = {1, 1, 1, 0, 0, 0}, cb[6] = {0, 0, 0, 1, 1, 1};
    tlog_paper_log(LOG);
    analyse();
    struct iodfg_diff d;
    iodfg_diff_init(&d);
    ck_assert_int_eq(iodfg_diff_build(&d, AN, ca, cb, NULL), 0);
    struct iodfg_dot_options opt;
    iodfg_dot_options_init(&opt);
    opt.diff = &d;
    ck_assert_int_eq(
        iodfg_export_dot(&B, iodfg_analysis_dfg(AN), iodfg_analysis_stats(AN), &MAP, &opt, NULL),
        0);
    // R-only nodes carry the marker and the red colour; the ls-only edge is green
    ck_assert_ptr_nonnull(strstr(B.data, "[R] read:/etc/passwd"));
    ck_assert_ptr_nonnull(strstr(B.data, "[label=\"G 3\", color=\"#1a9641\""));
    check_dot();
    iodfg_buf_clear(&B);
    opt.palette = IODFG_PALETTE_BLUE_ORANGE;
    ck_assert_int_eq(
        iodfg_export_dot(&B, iodfg_analysis_dfg(AN), iodfg_analysis_stats(AN), &MAP, &opt, NULL),
        0);
    ck_assert_ptr_nonnull(strstr(B.data, "#e69f00"));
    ck_assert_ptr_null(strstr(B.data, "#d7191c"));
    check_dot();
    // pruned: top 3 activities
    uint8_t node_on[16], edge_on[64];
    uint64_t cnt[16];
    const struct iodfg_stats *st = iodfg_analysis_stats(AN);
    for (uint32_t a = 0; a < st->nactivities; a++) {
        cnt[a] = st->act[a].count;
    }
    ck_assert_int_eq(iodfg_dfg_prune(iodfg_analysis_dfg(AN), cnt, 1, 3, node_on, edge_on, NULL), 0);
    opt.node_on = node_on;
    opt.edge_on = edge_on;
    iodfg_buf_clear(&B);
    ck_assert_int_eq(iodfg_export_dot(&B, iodfg_analysis_dfg(AN), st, &MAP, &opt, NULL), 0);
    check_dot();
    iodfg_diff_fini(&d);
}
END_TEST

/* Keys with hostile names pushed straight into the log. */
static void hostile_log(void)
{
    static const char *const paths[] = {"/q\"uote/\\back\\slash", "/nl\n/tab\t/cr\r",
                                        "/esc\x1b[31m/red",       "/bad\xff\xfe/utf8\xc3",
                                        "/amp&lt;/brace{}|<>",    "/ok/caf\xc3\xa9"};
    struct iodfg_case_info info;
    memset(&info, 0, sizeof(info));
    ck_assert_int_eq(iodfg_eventlog_begin_case(LOG, &info, NULL), 0);
    for (int i = 0; i < 6; i++) {
        struct iodfg_raw_event ev;
        memset(&ev, 0, sizeof(ev));
        ev.start_ns = 1000 * i;
        ev.dur_ns = 500;
        ev.size = 10 * i;
        ev.offset = ev.req = IODFG_UNKNOWN;
        ev.pid = 1;
        ev.fd = 3;
        ev.call = "read";
        ev.call_len = 4;
        ev.path = paths[i];
        ev.path_len = strlen(paths[i]);
        ev.err = "";
        ev.seq = (uint64_t)i;
        ck_assert_int_eq(iodfg_eventlog_push_raw(LOG, &ev, NULL), 0);
    }
    ck_assert_int_eq(iodfg_eventlog_end_case(LOG, NULL), 0);
}

START_TEST(hostile_names)
{
    hostile_log();
    // map every key to its full "call:path" so the hostile bytes reach the names
    tlog_map_fhat(&MAP, LOG);
    const struct iodfg_key *keys = iodfg_eventlog_keys(LOG);
    for (uint32_t k = 0; k < MAP.nkeys; k++) {
        MAP.activity_of_key[k] =
            tlog_new_act(&MAP, iodfg_strpool_get(iodfg_eventlog_pool(LOG), keys[k].path));
    }
    struct iodfg_selection sel;
    iodfg_selection_all(&sel);
    AN = iodfg_analysis_new(LOG, &MAP, &sel, NULL);
    ck_assert_ptr_nonnull(AN);
    const struct iodfg_dfg *g = iodfg_analysis_dfg(AN);
    const struct iodfg_stats *st = iodfg_analysis_stats(AN);
    ck_assert_int_eq(iodfg_export_dot(&B, g, st, &MAP, NULL, NULL), 0);
    check_dot();
    uint32_t order[64], eorder[64];
    size_t n = iodfg_export_sort_activities(st, &MAP, IODFG_AC_BYTES, 1, 0, order);
    ck_assert_uint_eq(n, 6);
    size_t ne = iodfg_export_sort_edges(g, &MAP, IODFG_EC_FROM, 0, 0, eorder);
    ck_assert_uint_eq(ne, 7);
    iodfg_buf_clear(&B);
    ck_assert_int_eq(iodfg_export_tsv_activities(&B, st, &MAP, order, n, NULL), 0);
    // header + 6 rows, 14 fields each: no stray tab or newline from the names
    int lines = 0;
    for (char *p = B.data; *p; p++) {
        lines += *p == '\n';
    }
    ck_assert_int_eq(lines, 7);
    char *line = B.data;
    for (int l = 0; l < 7; l++) {
        char *nl = strchr(line, '\n');
        int tabs = 0;
        for (char *p = line; p < nl; p++) {
            tabs += *p == '\t';
        }
        ck_assert_int_eq(tabs, IODFG_AC__N - 1);
        line = nl + 1;
    }
    iodfg_buf_clear(&B);
    ck_assert_int_eq(
        iodfg_export_json(&B, g, st, &MAP, order, n, eorder, ne, "hostile \"x\"\n", NULL), 0);
    check_json();
    ck_assert_ptr_nonnull(strstr(B.data, "/bad\\u00ff\\u00fe/utf8\\u00c3"));
}
END_TEST

START_TEST(tables_sorted_exact)
{
    tlog_paper_log(LOG);
    analyse();
    const struct iodfg_stats *st = iodfg_analysis_stats(AN);
    uint32_t order[16];
    size_t n = iodfg_export_sort_activities(st, &MAP, IODFG_AC_COUNT, 1, 2, order);
    ck_assert_uint_eq(n, 2);
    ck_assert_uint_eq(order[0], tlog_act(&MAP, "read:/usr/lib"));  // 18 events
    ck_assert_uint_eq(order[1], tlog_act(&MAP, "write:/dev/pts")); // 15 events
    n = iodfg_export_sort_activities(st, &MAP, IODFG_AC_NAME, 0, 0, order);
    ck_assert_uint_eq(n, 8);
    ck_assert_uint_eq(order[0], tlog_act(&MAP, "read:/etc/group"));
    ck_assert_int_eq(iodfg_export_tsv_activities(&B, st, &MAP, order, 1, NULL), 0);
    // read:/etc/group: 3 events of 872 B, 91 us each, three cases at the same time
    ck_assert_ptr_nonnull(strstr(B.data, "activity\tcount\tcases\tdur_sum_ns\trd\tbytes\t"));
    ck_assert_ptr_nonnull(strstr(B.data, "\nread:/etc/group\t3\t3\t273000\t"));
    ck_assert_ptr_nonnull(strstr(B.data, "\t2616\t"));
    ck_assert_ptr_nonnull(strstr(B.data, "\t91000\t91000\t91000\t91000\n"));
    uint32_t eo[32];
    size_t ne = iodfg_export_sort_edges(iodfg_analysis_dfg(AN), &MAP, IODFG_EC_COUNT, 1, 1, eo);
    ck_assert_uint_eq(ne, 1);
    iodfg_buf_clear(&B);
    ck_assert_int_eq(iodfg_export_tsv_edges(&B, iodfg_analysis_dfg(AN), &MAP, eo, ne, NULL), 0);
    // U->U gaps (us): ls 2443, 2575; ls -l .734569-.732186 = 2383, .737108-.734644 = 2464;
    // three times each: mean 9865/4 = 2466.25 us, lower median (rank 6 of 12) 2443 us
    ck_assert_str_eq(B.data, "from\tto\tcount\tcases\tgap_mean_ns\tgap_median_ns\n"
                             "read:/usr/lib\tread:/usr/lib\t12\t6\t2466250\t2443000\n");
    ck_assert_int_eq(iodfg_export_act_col_find("dur_p95_ns"), IODFG_AC_DUR_P95);
    ck_assert_int_eq(iodfg_export_edge_col_find("nope"), -1);
}
END_TEST

START_TEST(human_formats)
{
    char s[IODFG_FORMAT_MIN];
    ck_assert_str_eq(iodfg_format_bytes(s, sizeof(s), 0, 0), "0 B");
    ck_assert_str_eq(iodfg_format_bytes(s, sizeof(s), 999, 0), "999 B");
    ck_assert_str_eq(iodfg_format_bytes(s, sizeof(s), 1536, 0), "1.50 KiB");
    ck_assert_str_eq(iodfg_format_bytes(s, sizeof(s), 12900000, 0), "12.3 MiB");
    ck_assert_str_eq(iodfg_format_bytes(s, sizeof(s), 5LL << 30, 0), "5.00 GiB");
    ck_assert_str_eq(iodfg_format_bytes(s, sizeof(s), IODFG_UNKNOWN, 4), "   -");
    ck_assert_str_eq(iodfg_format_bytes(s, sizeof(s), 1536, 9), " 1.50 KiB");
    ck_assert_str_eq(iodfg_format_duration(s, sizeof(s), 15, 0), "15 ns");
    ck_assert_str_eq(iodfg_format_duration(s, sizeof(s), 203000, 0), "203 \xc2\xb5s");
    ck_assert_str_eq(iodfg_format_duration(s, sizeof(s), 1234567, 0), "1.23 ms");
    ck_assert_str_eq(iodfg_format_duration(s, sizeof(s), 2500000000LL, 0), "2.50 s");
    ck_assert_str_eq(iodfg_format_duration(s, sizeof(s), 4000000000000LL, 0), "4000 s");
    // µ is two bytes but one column
    ck_assert_str_eq(iodfg_format_duration(s, sizeof(s), 1500, 9), "  1.50 \xc2\xb5s");
    ck_assert_str_eq(iodfg_format_rate(s, sizeof(s), 9192307.7, 0), "8.77 MiB/s");
    ck_assert_str_eq(iodfg_format_rate(s, sizeof(s), 0.0, 0), "0.00 B/s");
    ck_assert_str_eq(iodfg_format_rate(s, sizeof(s), NAN, 0), "-");
    ck_assert_str_eq(iodfg_format_percent(s, sizeof(s), 0.1234, 0), "12.3%");
    ck_assert_str_eq(iodfg_format_percent(s, sizeof(s), 1.0, 0), "100%");
    ck_assert_str_eq(iodfg_format_percent(s, sizeof(s), 0.0001, 0), "<0.1%");
    ck_assert_str_eq(iodfg_format_percent(s, sizeof(s), 0.0, 6), "  0.0%");
    ck_assert_str_eq(iodfg_format_count(s, sizeof(s), 1234567, 9), "  1234567");
}
END_TEST

static Suite *suite(void)
{
    Suite *s = suite_create("export");
    TCase *tc = tcase_create("core");
    tcase_add_checked_fixture(tc, setup, teardown);
    tcase_set_timeout(tc, 60);
    tcase_add_test(tc, paper_dot_stats_colouring);
    tcase_add_test(tc, paper_dot_partition);
    tcase_add_test(tc, hostile_names);
    tcase_add_test(tc, tables_sorted_exact);
    tcase_add_test(tc, human_formats);
    suite_add_tcase(s, tc);
    return s;
}

int main(void) { return testutil_run(suite()); }
