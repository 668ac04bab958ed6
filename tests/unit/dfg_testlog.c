/* SPDX-License-Identifier: MIT */
/* Test support for the DFG suites. */
#include "config.h"

#include "dfg_testlog.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include <check.h>

#include "iodfg/error.h"
#include "iodfg/eventlog.h"
#include "iodfg/strace.h"
#include "iodfg/strpool.h"

#include "testutil.h"

void tlog_add_case(struct iodfg_eventlog *log, const char *name, const char *text)
{
    tlog_add_case_cid(log, name, NULL, text);
}

void tlog_add_case_cid(struct iodfg_eventlog *log, const char *name, const char *cid,
                       const char *text)
{
    struct iodfg_case_info info;
    struct iodfg_strace_result res;
    struct iodfg_error err;
    memset(&info, 0, sizeof(info));
    iodfg_error_clear(&err);
    ck_assert_int_eq(iodfg_strpool_intern(iodfg_eventlog_pool(log), name, strlen(name), &info.name),
                     0);
    if (cid) {
        ck_assert_int_eq(
            iodfg_strpool_intern(iodfg_eventlog_pool(log), cid, strlen(cid), &info.cid), 0);
    }
    ck_assert_int_eq(iodfg_eventlog_begin_case(log, &info, &err), 0);
    ck_assert_int_eq(
        iodfg_strace_parse(text, strlen(text), iodfg_strace_sink_eventlog, log, &res, &err), 0);
    iodfg_eventlog_open_case(log)->clock = res.clock; // as the ingest records it
    ck_assert_int_eq(iodfg_eventlog_end_case(log, &err), 0);
}

uint32_t tlog_new_act(struct iodfg_mapping *map, const char *name)
{
    uint32_t id;
    ck_assert_int_eq(iodfg_strpool_intern(map->names, name, strlen(name), &id), 0);
    for (uint32_t a = 0; a < map->nactivities; a++) {
        if (map->name_of[a] == id) {
            return a;
        }
    }
    map->name_of = realloc(map->name_of, (map->nactivities + 1) * sizeof(*map->name_of));
    ck_assert_ptr_nonnull(map->name_of);
    map->name_of[map->nactivities] = id;
    return map->nactivities++;
}

uint32_t tlog_act(const struct iodfg_mapping *map, const char *name)
{
    uint32_t id;
    if (iodfg_strpool_find(map->names, name, strlen(name), &id)) {
        return IODFG_NO_ACTIVITY;
    }
    for (uint32_t a = 0; a < map->nactivities; a++) {
        if (map->name_of[a] == id) {
            return a;
        }
    }
    return IODFG_NO_ACTIVITY;
}

void tlog_map_fhat(struct iodfg_mapping *map, const struct iodfg_eventlog *log)
{
    const struct iodfg_strpool *pool = iodfg_eventlog_pool(log);
    const struct iodfg_key *keys = iodfg_eventlog_keys(log);
    memset(map, 0, sizeof(*map));
    map->nkeys = iodfg_eventlog_key_count(log);
    map->activity_of_key = malloc((map->nkeys + 1) * sizeof(uint32_t));
    map->names = iodfg_strpool_new();
    ck_assert_ptr_nonnull(map->activity_of_key);
    ck_assert_ptr_nonnull(map->names);
    for (uint32_t k = 0; k < map->nkeys; k++) {
        const char *call = iodfg_strpool_get(pool, keys[k].call);
        const char *path = iodfg_strpool_get(pool, keys[k].path);
        char name[512];
        if (keys[k].kind == IODFG_PATH_FILE && path[0] == '/') {
            const char *p = path + 1;
            const char *cut = strchr(p, '/');
            cut = cut ? strchr(cut + 1, '/') : NULL;
            int len = cut ? (int)(cut - path) : (int)strlen(path);
            snprintf(name, sizeof(name), "%s:%.*s", call, len, path);
        } else if (keys[k].kind != IODFG_PATH_NONE) {
            snprintf(name, sizeof(name), "%s:%s", call, iodfg_path_kind_name(keys[k].kind));
        } else {
            snprintf(name, sizeof(name), "%s", call);
        }
        map->activity_of_key[k] = tlog_new_act(map, name);
    }
}

void tlog_map_free(struct iodfg_mapping *map)
{
    free(map->activity_of_key);
    free(map->name_of);
    iodfg_strpool_free(map->names);
    memset(map, 0, sizeof(*map));
}

int tlog_dot_ok(const char *text, size_t len)
{
    if (system("command -v dot >/dev/null 2>&1") != 0) {
        fprintf(stderr, "SKIP: graphviz 'dot' not found, DOT output not validated\n");
        return 77;
    }
    char *dir = testutil_tmpdir();
    char in[4096], cmd[8400];
    snprintf(in, sizeof(in), "%s/g.dot", dir);
    testutil_write_file(in, text, len);
    snprintf(cmd, sizeof(cmd), "dot -Tsvg '%s' -o '%s/g.svg' 2>'%s/err' && ! test -s '%s/err'", in,
             dir, dir, dir);
    int rc = system(cmd);
    if (rc != 0) {
        snprintf(cmd, sizeof(cmd), "cat '%s/err' >&2", dir);
        if (system(cmd)) {
            fprintf(stderr, "(no dot stderr)\n");
        }
    }
    testutil_rmtree(dir);
    free(dir);
    return rc == 0 ? 0 : 1;
}

/* Fig. 2a and 2b of Sankaran et al. 2024 (strace -f -tt -T -y -e read,write); the other two cases
 * of each group are the same trace (the paper says the three cases of a group map to one trace). */
static const char *const LS =
    "9054  08:55:54.153994 read(3</usr/lib/x86_64-linux-gnu/libselinux.so.1>, \"\"..., 832) = "
    "832 <0.000203>\n"
    "9054  08:55:54.156640 read(3</usr/lib/x86_64-linux-gnu/libc.so.6>, \"\"..., 832) = 832 "
    "<0.000079>\n"
    "9054  08:55:54.159294 read(3</usr/lib/x86_64-linux-gnu/libpcre2-8.so.0.10.4>, \"\"..., "
    "832) = 832 <0.000087>\n"
    "9054  08:55:54.162874 read(3</proc/filesystems>, \"\"..., 1024) = 478 <0.000052>\n"
    "9054  08:55:54.163049 read(3</proc/filesystems>, \"\", 1024) = 0 <0.000040>\n"
    "9054  08:55:54.163560 read(3</etc/locale.alias>, \"\"..., 4096) = 2996 <0.000041>\n"
    "9054  08:55:54.163679 read(3</etc/locale.alias>, \"\", 4096) = 0 <0.000044>\n"
    "9054  08:55:54.176260 write(1</dev/pts/7>, \"\"..., 50) = 50 <0.000111>\n";

static const char *const LSL =
    "9173  08:56:04.731999 read(3</usr/lib/x86_64-linux-gnu/libselinux.so.1>, \"\"..., 832) = "
    "832 <0.000187>\n"
    "9173  08:56:04.734569 read(3</usr/lib/x86_64-linux-gnu/libc.so.6>, \"\"..., 832) = 832 "
    "<0.000075>\n"
    "9173  08:56:04.737108 read(3</usr/lib/x86_64-linux-gnu/libpcre2-8.so.0.10.4>, \"\"..., "
    "832) = 832 <0.000063>\n"
    "9173  08:56:04.740961 read(3</proc/filesystems>, \"\"..., 1024) = 478 <0.000080>\n"
    "9173  08:56:04.741210 read(3</proc/filesystems>, \"\", 1024) = 0 <0.000067>\n"
    "9173  08:56:04.742237 read(3</etc/locale.alias>, \"\"..., 4096) = 2996 <0.000097>\n"
    "9173  08:56:04.742505 read(3</etc/locale.alias>, \"\", 4096) = 0 <0.000083>\n"
    "9173  08:56:04.754208 read(4</etc/nsswitch.conf>, \"\"..., 4096) = 542 <0.000140>\n"
    "9173  08:56:04.754487 read(4</etc/nsswitch.conf>, \"\", 4096) = 0 <0.000027>\n"
    "9173  08:56:04.755279 read(4</etc/passwd>, \"\"..., 4096) = 1612 <0.000037>\n"
    "9173  08:56:04.756740 read(4</etc/group>, \"\"..., 4096) = 872 <0.000091>\n"
    "9173  08:56:04.758661 write(1</dev/pts/7>, \"\"..., 9) = 9 <0.000074>\n"
    "9173  08:56:04.759173 read(3</usr/share/zoneinfo/Europe/Berlin>, \"\"..., 4096) = 2298 "
    "<0.000074>\n"
    "9173  08:56:04.759471 read(3</usr/share/zoneinfo/Europe/Berlin>, \"\"..., 4096) = 1449 "
    "<0.000033>\n"
    "9173  08:56:04.759816 write(1</dev/pts/7>, \"\"..., 74) = 74 <0.000099>\n"
    "9173  08:56:04.760043 write(1</dev/pts/7>, \"\"..., 53) = 53 <0.000073>\n"
    "9173  08:56:04.760233 write(1</dev/pts/7>, \"\"..., 65) = 65 <0.000099>\n";

void tlog_paper_log(struct iodfg_eventlog *log)
{
    tlog_add_case(log, "a_host1_9042", LS);
    tlog_add_case(log, "a_host1_9043", LS);
    tlog_add_case(log, "a_host1_9045", LS);
    tlog_add_case(log, "b_host1_9157", LSL);
    tlog_add_case(log, "b_host1_9158", LSL);
    tlog_add_case(log, "b_host1_9160", LSL);
}
