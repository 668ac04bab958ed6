/* SPDX-License-Identifier: MIT */
/* Engine-internal: the concurrency sweep as a job that several threads can share. */
#ifndef IODFG_ENGINE_STATS_PRIV_H
#define IODFG_ENGINE_STATS_PRIV_H

#include <stdint.h>

struct iodfg_error;
struct iodfg_eventlog;
struct iodfg_stats;
struct iodfg_timeline;
struct iodfg_sweep;

/* Percentile groups with at least this many values are found through a histogram and a second
 * pass (default 65536; tests lower it to exercise that path). */
extern uint64_t iodfg_pctl_large;

/* Prepare the sweep of iodfg_stats_sweep (same arguments, borrowed until iodfg_sweep_free).
 * NULL with err when out of memory. */
struct iodfg_sweep *iodfg_sweep_new(const struct iodfg_stats *st, const struct iodfg_eventlog *log,
                                    const struct iodfg_timeline *tl, uint16_t *codes,
                                    int rebuild_codes, const uint64_t *bits, const uint32_t *act,
                                    const uint8_t *dirty, const uint64_t *moved, const uint8_t *src,
                                    struct iodfg_error *err);
/* Sweep time segments until none is left; any number of threads may call this at once. */
void iodfg_sweep_work(struct iodfg_sweep *sw);
/* After every worker returned: combine the segments into mc and mc_time_ns of st. */
void iodfg_sweep_end(struct iodfg_sweep *sw, struct iodfg_stats *st);
void iodfg_sweep_free(struct iodfg_sweep *sw);

#endif
