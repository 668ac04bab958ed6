/* SPDX-License-Identifier: MIT */
/* libFuzzer target: the strace parser over arbitrary bytes, into a real event log. */
#include "config.h"

#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "iodfg/error.h"
#include "iodfg/eventlog.h"
#include "iodfg/strace.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    struct iodfg_eventlog *log = iodfg_eventlog_new(IODFG_COL_ALL);
    struct iodfg_case_info info;
    memset(&info, 0, sizeof(info));
    if (log && iodfg_eventlog_begin_case(log, &info, NULL) == 0) {
        struct iodfg_strace_result res;
        iodfg_strace_parse((const char *)data, size, iodfg_strace_sink_eventlog, log, &res, NULL);
        iodfg_eventlog_end_case(log, NULL);
    }
    iodfg_eventlog_free(log);
    return 0;
}
