/* SPDX-License-Identifier: MIT */
/* libFuzzer target: counters CSV (per-server I/O counter samples). A text parses into samples
 * sorted by server and time, or fails at a line. */
#include "config.h"

#include <stddef.h>
#include <stdint.h>

#include "iodfg/counters.h"
#include "iodfg/counters_csv.h"
#include "iodfg/error.h"

#include "fuzz_util.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    struct iodfg_counters c;
    iodfg_counters_init(&c);
    struct iodfg_error err;
    iodfg_error_clear(&err);
    if (iodfg_counters_parse(&c, (const char *)data, size, "fuzz", &err)) {
        fuzz_check_error(&err, 1);
    } else {
        for (uint32_t s = 0; s < c.nservers; s++) {
            for (size_t i = c.first[s] + 1; i < c.first[s + 1]; i++) {
                if (!(c.t_s[i] > c.t_s[i - 1])) {
                    __builtin_trap(); // one sample per server and time, in time order
                }
            }
        }
        if (c.nservers && c.first[c.nservers] != c.nsamples) {
            __builtin_trap();
        }
    }
    iodfg_counters_fini(&c);
    return 0;
}
