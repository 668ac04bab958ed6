/* SPDX-License-Identifier: MIT */
/* libFuzzer target: CSV event logs (iodfg_csvlog_read on the bytes written to a file). Every
 * data record is read as a row or counted as unparsable: none is lost. */
#include "config.h"

#include <stddef.h>
#include <stdint.h>

#include "iodfg/csvlog.h"
#include "iodfg/error.h"
#include "iodfg/eventlog.h"
#include "iodfg/strace.h"

#include "fuzz_util.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    static char path[4200];
    if (!path[0]) {
        fuzz_path(path, sizeof(path), "log.csv");
    }
    fuzz_write(path, data, size);
    struct iodfg_error err;
    iodfg_error_clear(&err);
    struct iodfg_strace_result res;
    struct iodfg_eventlog *log = iodfg_csvlog_read(path, NULL, IODFG_COL_ALL, &res, &err);
    if (!log) {
        fuzz_check_error(&err, err.code == IODFG_E_PARSE);
        return 0;
    }
    // every record read is the header, a blank line, a row or an unparsable one: none is lost
    uint64_t rows = iodfg_eventlog_event_count(log);
    if (rows != res.counts[IODFG_COUNT_EVENTS] ||
        rows + res.counts[IODFG_COUNT_UNPARSABLE] + res.counts[IODFG_COUNT_BLANK] + 1 !=
            res.lines) {
        __builtin_trap();
    }
    iodfg_eventlog_free(log);
    return 0;
}
