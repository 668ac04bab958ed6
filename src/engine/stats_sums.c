/* SPDX-License-Identifier: MIT */
/* Activity statistics: their storage, the selected events as a bitmap, the per-key sums of the
 * selection and their aggregation into activities (the decomposable part: counts, sums, min,
 * max, rd, DR); the sweep and the walk add what does not decompose. */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "iodfg/error.h"
#include "iodfg/eventlog.h"
#include "iodfg/mapping.h"
#include "iodfg/stats.h"
#include "iodfg/trace.h"

#include "stats_priv.h"

void iodfg_stats_init(struct iodfg_stats *st)
{
    memset(st, 0, sizeof(*st));
}

void iodfg_stats_fini(struct iodfg_stats *st)
{
    free(st->act);
    memset(st, 0, sizeof(*st));
}

static void reset_one(struct iodfg_activity_stats *s)
{
    memset(s, 0, sizeof(*s));
    s->mc_time_ns = IODFG_UNKNOWN;
    s->dur_min_ns = s->dur_median_ns = s->dur_p95_ns = s->dur_max_ns = IODFG_UNKNOWN;
}

void iodfg_stats_reset(struct iodfg_stats *st)
{
    for (uint32_t a = 0; a < st->nactivities; a++) {
        reset_one(&st->act[a]);
    }
}

int iodfg_stats_resize(struct iodfg_stats *st, uint32_t n, struct iodfg_error *err)
{
    if (n > st->nactivities) {
        struct iodfg_activity_stats *a = realloc(st->act, (size_t)n * sizeof(*a));
        if (!a) {
            return iodfg_error_set(err, IODFG_E_NOMEM, "out of memory for statistics");
        }
        st->act = a;
        for (uint32_t i = st->nactivities; i < n; i++) {
            reset_one(&a[i]);
        }
    }
    st->nactivities = n;
    return 0;
}

int iodfg_stats_copy(struct iodfg_stats *dst, const struct iodfg_stats *src,
                     struct iodfg_error *err)
{
    iodfg_stats_fini(dst);
    if (iodfg_stats_resize(dst, src->nactivities, err)) {
        return -1;
    }
    if (src->nactivities) {
        memcpy(dst->act, src->act, src->nactivities * sizeof(*dst->act));
    }
    dst->total_dur_ns = src->total_dur_ns;
    return 0;
}

int iodfg_stats_select_bits(uint64_t *bits, const struct iodfg_eventlog *log,
                            const struct iodfg_selection *sel)
{
    uint64_t n = iodfg_eventlog_event_count(log);
    memset(bits, 0, (size_t)((n + 63) / 64) * sizeof(*bits));
    uint32_t nc = iodfg_eventlog_case_count(log);
    for (uint32_t c = 0; c < nc; c++) {
        uint64_t lo, hi;
        if (!iodfg_trace_case_range(log, sel, c, &lo, &hi)) {
            continue;
        }
        while (lo < hi && (lo & 63)) {
            bits[lo / 64] |= 1ULL << (lo & 63);
            lo++;
        }
        while (lo + 64 <= hi) {
            bits[lo / 64] = ~0ULL;
            lo += 64;
        }
        while (lo < hi) {
            bits[lo / 64] |= 1ULL << (lo & 63);
            lo++;
        }
    }
    return 0;
}

void iodfg_stats_key_sums(struct iodfg_key_sums *sums, uint32_t nkeys,
                          const struct iodfg_eventlog *log, const uint64_t *bits)
{
    iodfg_key_sums_clear(sums, nkeys);
    const struct iodfg_columns *col = iodfg_eventlog_columns(log);
    const uint32_t *key = col->key;
    const int64_t *dur = col->dur_ns, *size = col->size;
    uint64_t n = iodfg_eventlog_event_count(log);
    for (uint64_t w = 0; w < (n + 63) / 64; w++) {
        uint64_t word = bits[w];
        if (word == ~0ULL && dur && size) { // a run of 64 selected events, in event order
            for (uint64_t e = w * 64; e < w * 64 + 64; e++) {
                iodfg_key_sums_add(&sums[key[e]], dur[e], size[e]);
            }
            continue;
        }
        while (word) {
            uint64_t e = w * 64 + (uint64_t)__builtin_ctzll(word);
            word &= word - 1;
            iodfg_key_sums_add(&sums[key[e]], dur ? dur[e] : IODFG_UNKNOWN,
                               size ? size[e] : IODFG_UNKNOWN);
        }
    }
}

void iodfg_stats_finish(struct iodfg_stats *st)
{
    int64_t total = 0;
    for (uint32_t a = 0; a < st->nactivities; a++) {
        total = iodfg_sat_add(total, st->act[a].dur_sum_ns);
    }
    st->total_dur_ns = total;
    for (uint32_t a = 0; a < st->nactivities; a++) {
        struct iodfg_activity_stats *s = &st->act[a];
        s->rd = total > 0 ? (double)s->dur_sum_ns / (double)total : 0.0;
        s->dr_mean = s->dr_n ? s->dr_sum / (double)s->dr_n : 0.0;
        s->DR = (double)s->mc * s->dr_mean;
    }
}

void iodfg_stats_aggregate(struct iodfg_stats *st, const struct iodfg_key_sums *sums,
                           const uint32_t *act, uint32_t nkeys, const uint8_t *dirty)
{
    for (uint32_t a = 0; a < st->nactivities; a++) {
        if (!dirty || dirty[a]) {
            struct iodfg_activity_stats *s = &st->act[a];
            s->count = s->dur_n = s->dr_n = 0;
            s->dur_sum_ns = s->bytes = 0;
            s->dr_sum = 0.0;
            s->dur_min_ns = s->dur_max_ns = IODFG_UNKNOWN;
        }
    }
    for (uint32_t k = 0; k < nkeys; k++) {
        uint32_t a = act[k];
        if (a == IODFG_NO_ACTIVITY || (dirty && !dirty[a]) || !sums[k].count) {
            continue;
        }
        struct iodfg_activity_stats *s = &st->act[a];
        const struct iodfg_key_sums *ks = &sums[k];
        s->count += ks->count;
        s->dur_n += ks->dur_n;
        s->dur_sum_ns = iodfg_sat_add(s->dur_sum_ns, ks->dur_sum_ns);
        s->bytes = iodfg_sat_add(s->bytes, ks->bytes);
        s->dr_n += ks->dr_n;
        s->dr_sum += ks->dr_sum;
        if (ks->dur_n) {
            if (s->dur_min_ns == IODFG_UNKNOWN || ks->dur_min_ns < s->dur_min_ns) {
                s->dur_min_ns = ks->dur_min_ns;
            }
            if (s->dur_max_ns == IODFG_UNKNOWN || ks->dur_max_ns > s->dur_max_ns) {
                s->dur_max_ns = ks->dur_max_ns;
            }
        }
    }
    iodfg_stats_finish(st);
}
