/* SPDX-License-Identifier: MIT */
/* Engine-internal: per-key sums of events, the decomposable part of the activity statistics.
 * The DFG count adds them in the same walk as the transitions; the statistics aggregate them. */
#ifndef IODFG_ENGINE_KEYSUMS_H
#define IODFG_ENGINE_KEYSUMS_H

#include <stdint.h>

#include "iodfg/eventlog.h"

struct iodfg_key_sums {
    uint64_t count, dur_n, dr_n;
    int64_t dur_sum_ns, bytes, dur_min_ns, dur_max_ns;
    double dr_sum;
};

/* Reset nkeys entries. */
static inline void iodfg_key_sums_clear(struct iodfg_key_sums *sums, uint32_t nkeys)
{
    for (uint32_t k = 0; k < nkeys; k++) {
        sums[k] = (struct iodfg_key_sums){0, 0, 0, 0, 0, INT64_MAX, INT64_MIN, 0.0};
    }
}

/* Add one event of dur d and size z (IODFG_UNKNOWN: unknown). Adding the selected events in
 * event order gives what iodfg_stats_key_sums gives. */
static inline void iodfg_key_sums_add(struct iodfg_key_sums *s, int64_t d, int64_t z)
{
    s->count++;
    if (d != IODFG_UNKNOWN) {
        s->dur_n++;
        s->dur_sum_ns = iodfg_sat_add(s->dur_sum_ns, d);
        s->dur_min_ns = d < s->dur_min_ns ? d : s->dur_min_ns;
        s->dur_max_ns = d > s->dur_max_ns ? d : s->dur_max_ns;
    }
    if (z != IODFG_UNKNOWN) {
        s->bytes = iodfg_sat_add(s->bytes, z);
        if (d != IODFG_UNKNOWN && d > 0) {
            s->dr_n++;
            s->dr_sum += (double)z * 1e9 / (double)d;
        }
    }
}

#endif
