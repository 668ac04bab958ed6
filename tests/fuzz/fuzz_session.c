/* SPDX-License-Identifier: MIT */
/* libFuzzer target: session files, as the TUI restores them (rules, filters, groups,
 * thresholds, then its view, sort and Characterisation lines) over the paper's six traces
 * (tests/data/traces/paper). A file is restored or fails at a line, the app usable either way. */
#include "config.h"

#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "iodfg/buf.h"
#include "iodfg/casename.h"
#include "iodfg/error.h"
#include "iodfg/eventlog.h"
#include "iodfg/ingest.h"

#include "fuzz_util.h"
#include "tui/app.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static struct iodfg_eventlog *paper_log(void)
{
    char dir[4200];
    const char *in[] = {fuzz_data("traces/paper", dir, sizeof(dir))};
    struct iodfg_error err;
    iodfg_error_clear(&err);
    struct iodfg_casename *names = iodfg_casename_new(NULL, &err);
    struct iodfg_input_list files;
    struct iodfg_eventlog *log = iodfg_eventlog_new(IODFG_COL_ALL);
    if (!names || !log || iodfg_ingest_list(in, 1, names, &files, &err)) {
        __builtin_trap();
    }
    for (size_t i = 0; i < files.n; i++) {
        struct iodfg_ingest_file info;
        struct iodfg_eventlog *one =
            iodfg_ingest_file(&files.files[i], names, IODFG_COL_ALL, &info, &err);
        if (!one || iodfg_eventlog_append(log, one, &err)) {
            __builtin_trap();
        }
        iodfg_eventlog_free(one);
    }
    iodfg_ingest_list_fini(&files);
    iodfg_casename_free(names);
    return log;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    static struct iodfg_eventlog *log;
    static char path[4200];
    if (!log) {
        log = paper_log();
        fuzz_path(path, sizeof(path), "fuzz.session");
    }
    fuzz_write(path, data, size);
    struct iodfg_error err;
    iodfg_error_clear(&err);
    struct tui_app *app = tui_app_new(log, 0, "paper.h5", NULL, NULL, &err);
    if (!app) {
        __builtin_trap();
    }
    if (tui_app_session_load(app, path, &err)) {
        fuzz_check_error(&err, err.code == IODFG_E_PARSE);
    }
    struct iodfg_buf b; // what it restored saves as a session again
    iodfg_buf_init(&b);
    if (tui_app_session_format(app, &b) && !b.failed) {
        __builtin_trap();
    }
    iodfg_buf_fini(&b);
    tui_app_free(app);
    return 0;
}
