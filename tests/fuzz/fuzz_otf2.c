/* SPDX-License-Identifier: MIT */
/* libFuzzer target: OTF2 definitions and events. The input's first byte picks one file of a
 * real Score-P archive (tests/data/otf2/iomix: 0 the global definitions, 1 the location's
 * definitions, 2 its events) and the rest replaces it; the anchor stays the archive's own (its
 * loading is bounded apart: otf2_guard.c). */
#include "config.h"

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/stat.h>

#include "iodfg/error.h"
#include "iodfg/eventlog.h"
#include "iodfg/strace.h"

#include "../../src/io/otf2_priv.h"
#include "fuzz_util.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static const char *const FILES[] = {"traces.def", "traces/0.def", "traces/0.evt"};
#define NFILES 3

static struct {
    char *orig[NFILES];
    size_t len[NFILES];
    int changed[NFILES];
    char anchor[4200];
} A;

static void setup(void)
{
    char src[4200], dst[4200];
    fuzz_path(dst, sizeof(dst), "traces");
    mkdir(dst, 0777);
    fuzz_data("otf2/iomix/traces.otf2", src, sizeof(src));
    size_t n;
    char *anchor = fuzz_read(src, &n);
    fuzz_write(fuzz_path(A.anchor, sizeof(A.anchor), "traces.otf2"), anchor, n);
    free(anchor);
    for (int i = 0; i < NFILES; i++) {
        char rel[64];
        snprintf(rel, sizeof(rel), "otf2/iomix/%s", FILES[i]);
        A.orig[i] = fuzz_read(fuzz_data(rel, src, sizeof(src)), &A.len[i]);
        fuzz_write(fuzz_path(dst, sizeof(dst), FILES[i]), A.orig[i], A.len[i]);
    }
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (!A.anchor[0]) {
        setup();
    }
    if (size < 1) {
        return 0;
    }
    int k = data[0] % NFILES;
    char path[4200];
    for (int i = 0; i < NFILES; i++) { // the other files as the archive has them
        if (A.changed[i] && i != k) {
            fuzz_write(fuzz_path(path, sizeof(path), FILES[i]), A.orig[i], A.len[i]);
            A.changed[i] = 0;
        }
    }
    fuzz_write(fuzz_path(path, sizeof(path), FILES[k]), data + 1, size - 1);
    A.changed[k] = 1;
    struct iodfg_error err;
    iodfg_error_clear(&err);
    struct iodfg_strace_result res;
    struct iodfg_eventlog *log = iodfg_otf2_read_unguarded(A.anchor, IODFG_COL_ALL, &res, &err);
    if (log) {
        if (iodfg_eventlog_event_count(log) > res.counts[IODFG_COUNT_EVENTS] + res.lines) {
            __builtin_trap(); // events come from records read
        }
        iodfg_eventlog_free(log);
    } else {
        fuzz_check_error(&err, 0);
    }
    return 0;
}
