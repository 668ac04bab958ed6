/* SPDX-License-Identifier: MIT */
/* libFuzzer target: the HDF5 event-log loader on the bytes written to a file: every column, the
 * handle table, a range of the cases, and the cheap summary. A load either fails saying why or
 * gives a log whose cases hold its events. */
#include "config.h"

#include <stddef.h>
#include <stdint.h>

#include "iodfg/error.h"
#include "iodfg/eventlog.h"
#include "iodfg/store.h"

#include "fuzz_util.h"

int LLVMFuzzerInitialize(int *argc, char ***argv);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
    (void)argc, (void)argv;
    iodfg_store_process_init();
    return 0;
}

static void check(struct iodfg_eventlog *log, const struct iodfg_error *err)
{
    if (!log) {
        fuzz_check_error(err, 0);
        if (!err->where[0] && err->code != IODFG_E_NOMEM) {
            __builtin_trap(); // the file is named
        }
        return;
    }
    uint32_t nc = iodfg_eventlog_case_count(log);
    if (iodfg_eventlog_case_offsets(log)[nc] != iodfg_eventlog_event_count(log)) {
        __builtin_trap();
    }
    iodfg_eventlog_free(log);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    static char path[4200];
    if (!path[0]) {
        fuzz_path(path, sizeof(path), "log.h5");
    }
    fuzz_write(path, data, size);
    struct iodfg_error err;
    iodfg_error_clear(&err);
    check(iodfg_store_load(path, IODFG_COL_ALL | IODFG_COL_HANDLE_TABLE, NULL, NULL, &err), &err);
    iodfg_error_clear(&err);
    check(iodfg_store_load_cases(path, IODFG_COL_ANALYSIS, 1, 2, NULL, NULL, &err), &err);
    iodfg_error_clear(&err);
    uint64_t cases, events;
    if (iodfg_store_stat(path, &cases, &events, NULL, &err)) {
        fuzz_check_error(&err, 0);
    }
    return 0;
}
