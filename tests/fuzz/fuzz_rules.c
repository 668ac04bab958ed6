/* SPDX-License-Identifier: MIT */
/* libFuzzer target: the rule parser, template checker and apply (see doc/rules.md). */
#include "config.h"

#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "iodfg/buf.h"
#include "iodfg/error.h"
#include "iodfg/eventlog.h"
#include "iodfg/mapping.h"
#include "iodfg/rules.h"
#include "iodfg/strace.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static const char TRACE[] =
    "9054 08:55:54.153994 read(3</usr/lib/x86_64-linux-gnu/libc.so.6>, \"x\", 832) = 832 <0.1>\n"
    "9054 08:55:54.166000 read(3</proc/filesystems>, \"nodev\", 1024) = 478 <0.000030>\n"
    "9054 08:55:54.176260 write(1</dev/pts/7>, \"a\\n\", 50) = 50 <0.000111>\n"
    "9054 08:55:54.176261 write(4<pipe:[5018]>, \"x\", 1) = 1 <0.000001>\n"
    "9054 08:55:54.176262 read(5<TCP:[1.2.3.4:5->6.7.8.9:10]>, \"x\", 1) = 1 <0.000001>\n"
    "9054 08:55:54.176263 getpid() = 9054 <0.000001>\n"
    "9054 08:55:54.176264 openat(AT_FDCWD, \"/p/scratch/p1/ssf/t\", O_RDWR) = "
    "3</p/scratch/p1/ssf/t>"
    " <0.000001>\n";

static struct iodfg_eventlog *test_log(void)
{
    static struct iodfg_eventlog *log;
    if (!log) {
        log = iodfg_eventlog_new(IODFG_COL_ALL);
        struct iodfg_case_info info;
        memset(&info, 0, sizeof(info));
        struct iodfg_strace_result res;
        if (!log || iodfg_eventlog_begin_case(log, &info, NULL) < 0 ||
            iodfg_strace_parse(TRACE, sizeof(TRACE) - 1, iodfg_strace_sink_eventlog, log, &res,
                               NULL) < 0 ||
            iodfg_eventlog_end_case(log, NULL) < 0) {
            __builtin_trap();
        }
    }
    return log;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    struct iodfg_eventlog *log = test_log();
    struct iodfg_rules *rs = iodfg_rules_new();
    struct iodfg_mapping m;
    struct iodfg_error err;
    iodfg_error_clear(&err);
    if (!rs || iodfg_mapping_init(&m, NULL) < 0) {
        __builtin_trap();
    }
    if (iodfg_rules_compile(rs, (const char *)data, size, "fuzz", &err) == 0) {
        struct iodfg_rules_report rep;
        iodfg_rules_report_init(&rep);
        if (iodfg_rules_apply(rs, log, NULL, &m, &rep, NULL) < 0) {
            __builtin_trap();
        }
        // a compiled text formats back to a text that compiles to the same rules
        struct iodfg_buf b;
        iodfg_buf_init(&b);
        iodfg_rules_format(rs, &b);
        size_t n = iodfg_rules_count(rs);
        if (iodfg_rules_compile(rs, b.data ? b.data : "", b.len, "again", NULL) < 0 ||
            iodfg_rules_count(rs) != n) {
            __builtin_trap();
        }
        iodfg_buf_fini(&b);
        iodfg_rules_report_fini(&rep);
    } else if (err.code == 0 || (err.line == 0 && err.code != IODFG_E_NOMEM)) {
        __builtin_trap(); // an error must say what and where
    }
    iodfg_mapping_fini(&m);
    iodfg_rules_free(rs);
    return 0;
}
