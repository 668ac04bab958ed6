/* SPDX-License-Identifier: MIT */
/* libFuzzer target: insights thresholds files. A file parses, and formats to a text that parses
 * to thresholds of that same text, or fails at a line; a failure changes nothing. */
#include "config.h"

#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "iodfg/buf.h"
#include "iodfg/error.h"
#include "iodfg/insights.h"

#include "fuzz_util.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    struct iodfg_insight_thresholds t, before, again;
    iodfg_insight_thresholds_default(&t);
    before = t;
    struct iodfg_error err;
    iodfg_error_clear(&err);
    if (iodfg_insight_thresholds_parse(&t, (const char *)data, size, "fuzz", &err)) {
        fuzz_check_error(&err, 1);
        if (memcmp(&t, &before, sizeof(t)) != 0) {
            __builtin_trap(); // nothing changes on error
        }
        return 0;
    }
    // the thresholds as text (15 digits: for people) parse to thresholds of that same text
    struct iodfg_buf a, b;
    iodfg_buf_init(&a);
    iodfg_buf_init(&b);
    iodfg_insight_thresholds_default(&again);
    if (iodfg_insight_thresholds_format(&t, &a) == 0 &&
        (iodfg_insight_thresholds_parse(&again, a.data ? a.data : "", a.len, "again", NULL) ||
         iodfg_insight_thresholds_format(&again, &b) ||
         (!a.failed && !b.failed && (a.len != b.len || memcmp(a.data, b.data, a.len) != 0)))) {
        __builtin_trap();
    }
    iodfg_buf_fini(&a);
    iodfg_buf_fini(&b);
    return 0;
}
