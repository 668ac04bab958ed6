/* SPDX-License-Identifier: MIT */
/* What the reports show (report.h): the rows of an analysis in order, the summary of an event
 * log, and the pieces of text every format shares. */
#include "config.h"

#include "iodfg/report.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "iodfg/bandwidth.h"
#include "iodfg/buf.h"
#include "iodfg/dfg.h"
#include "iodfg/error.h"
#include "iodfg/export.h"
#include "iodfg/mapping.h"
#include "iodfg/metrics.h"
#include "iodfg/rules.h"
#include "iodfg/session.h"
#include "iodfg/stats.h"
#include "iodfg/strpool.h"

#include "report_priv.h"

const char *const report_dir_name[2] = {"read", "write"};
const char *const report_group_prefix[4] = {"g_", "r_", "diff_", "rel_"};
const char *const report_bw_group_name[3] = {"(read)", "(write)", "(all)"};
const char *const report_metric_keys[REPORT_NMETRIC] = {
    "volume",    "ops",  "bw_max", "iops_max",   "server_bw_max", "busy_bins",
    "intensity", "l_io", "l_noio", "burstiness", "par_raw",       "parallel"};

void report_metric_values(const struct iodfg_dir_metrics *d, double *v)
{
    const double vals[REPORT_NMETRIC] = {
        d->volume,    d->ops,  d->bw_max, d->iops_max,   d->server_bw_max, d->busy_bins,
        d->intensity, d->l_io, d->l_noio, d->burstiness, d->par_raw,       d->parallel};
    memcpy(v, vals, sizeof(vals));
}

int report_done(const struct iodfg_buf *b, struct iodfg_error *err)
{
    return b->failed ? iodfg_error_set(err, IODFG_E_NOMEM, NULL) : 0;
}

double report_pct(uint64_t part, uint64_t whole)
{
    return whole ? 100.0 * (double)part / (double)whole : 0;
}

const char *report_case_name(const struct iodfg_eventlog *log, uint32_t c)
{
    const struct iodfg_case_info *ci = iodfg_eventlog_case(log, c);
    return ci ? iodfg_strpool_get(iodfg_eventlog_pool(log), ci->name) : "?";
}

/* ---- rows of an analysis ---- */

// Keep, in order, the first top (0: all) of ids[0..n) that the pruning mask on shows (NULL:
// all). Returns how many.
static long keep_shown(uint32_t *ids, size_t n, const uint8_t *on, size_t top)
{
    size_t k = 0;
    for (size_t i = 0; i < n && (top == 0 || k < top); i++) {
        if (!on || on[ids[i]]) {
            ids[k++] = ids[i];
        }
    }
    return (long)k;
}

long iodfg_report_activities(const struct iodfg_session *s, int col, int desc, size_t top,
                             uint32_t **out)
{
    const struct iodfg_stats *st = iodfg_session_stats(s);
    uint32_t *ids = malloc(((size_t)st->nactivities + 1) * sizeof(*ids));
    if (!ids) {
        return -1;
    }
    size_t n = iodfg_export_sort_activities(st, iodfg_session_mapping(s), (enum iodfg_act_col)col,
                                            desc, 0, ids);
    *out = ids;
    // masks only when something is hidden (minedge/top): otherwise everything is shown
    return keep_shown(ids, n, iodfg_session_pruned(s) ? iodfg_session_node_on(s) : NULL, top);
}

long iodfg_report_edges(const struct iodfg_session *s, int col, int desc, size_t top,
                        uint32_t **out)
{
    const struct iodfg_dfg *g = iodfg_session_dfg(s);
    uint32_t *slots = malloc((iodfg_dfg_slots(g) + 1) * sizeof(*slots));
    if (!slots) {
        return -1;
    }
    size_t n = iodfg_export_sort_edges(g, iodfg_session_mapping(s), (enum iodfg_edge_col)col, desc,
                                       0, slots);
    *out = slots;
    return keep_shown(slots, n, iodfg_session_pruned(s) ? iodfg_session_edge_on(s) : NULL, top);
}

/* ---- the file systems of each activity ---- */

static const char mixed[] = "mixed";

static void merge_fs(const char **slot, const char *v)
{
    if (!*slot) {
        *slot = v;
    } else if (*slot != mixed && strcmp(*slot, v) != 0) {
        *slot = mixed;
    }
}

struct report_fs *report_activity_fs(const struct iodfg_session *s)
{
    const struct iodfg_mapping *map = iodfg_session_mapping(s);
    const struct iodfg_eventlog *log = iodfg_session_log(s);
    uint32_t n = map->nactivities;
    struct report_fs *out = calloc((size_t)n + 1, sizeof(*out));
    if (!out) {
        return NULL;
    }
    const struct iodfg_key *keys = iodfg_eventlog_keys(log);
    const struct iodfg_strpool *pool = iodfg_eventlog_pool(log);
    for (uint32_t k = 0; k < map->nkeys; k++) {
        uint32_t a = map->activity_of_key[k];
        if (a == IODFG_NO_ACTIVITY || a >= n || keys[k].kind != IODFG_PATH_FILE) {
            continue;
        }
        merge_fs(&out[a].scope, keys[k].scope ? iodfg_scope_name(keys[k].scope) : "");
        merge_fs(&out[a].fstype, iodfg_strpool_get(pool, keys[k].fstype));
        merge_fs(&out[a].fs, iodfg_strpool_get(pool, keys[k].fs));
    }
    for (uint32_t a = 0; a < n; a++) {
        out[a].scope = out[a].scope ? out[a].scope : "";
        out[a].fstype = out[a].fstype ? out[a].fstype : "";
        out[a].fs = out[a].fs ? out[a].fs : "";
    }
    return out;
}

/* ---- the rows of the bandwidth reports ---- */

/* Per case: its read, write and all rows, then its time shares per call. */
static void bw_cases(const struct iodfg_report_bandwidth *r, const struct iodfg_bandwidth *bw,
                     report_bw_row_fn row, void *ctx)
{
    const struct iodfg_strpool *pool = iodfg_eventlog_pool(r->log);
    for (uint32_t c = 0; c < bw->ncases; c++) {
        const struct iodfg_bw_row *cr = &bw->case_row[(size_t)c * IODFG_BW__N];
        if (!cr[IODFG_BW_ALL].count) {
            continue;
        }
        const char *cn = report_case_name(r->log, c);
        char name[512];
        for (int g = 0; g < IODFG_BW__N; g++) {
            if (cr[g].count) {
                snprintf(name, sizeof(name), "%s %s", cn, report_bw_group_name[g]);
                row(ctx, "case", name, &cr[g]);
            }
        }
        int64_t total = cr[IODFG_BW_ALL].dur_sum_ns;
        for (uint32_t i = 0; i < bw->ncalls; i++) {
            int64_t d = bw->case_call_dur[(size_t)c * bw->ncalls + i];
            if (!d) {
                continue;
            }
            struct iodfg_bw_row shares = {.dur_sum_ns = d,
                                       .share = total ? (double)d / (double)total : NAN,
                                       .perceived = NAN,
                                       .effective = NAN};
            snprintf(name, sizeof(name), "%s %s", cn, iodfg_strpool_get(pool, bw->call_name[i]));
            row(ctx, "case_call", name, &shares);
        }
    }
}

void report_bw_rows(const struct iodfg_report_bandwidth *r, const struct iodfg_bandwidth *bw,
                    report_bw_row_fn row, void *ctx)
{
    const struct iodfg_strpool *pool = iodfg_eventlog_pool(r->log);
    if (r->by == IODFG_REPORT_BW_ACTIVITY) {
        for (uint32_t a = 0; a < bw->nactivities; a++) {
            if (bw->act[a].count) {
                row(ctx, "activity", iodfg_mapping_name(r->map, a), &bw->act[a]);
            }
        }
    } else if (r->by == IODFG_REPORT_BW_CALL) {
        for (uint32_t i = 0; i < bw->ncalls; i++) {
            if (bw->call[i].count) {
                row(ctx, "call", iodfg_strpool_get(pool, bw->call_name[i]), &bw->call[i]);
            }
        }
    } else {
        bw_cases(r, bw, row, ctx);
    }
    for (int g = 0; g < IODFG_BW__N; g++) {
        row(ctx, "overall", report_bw_group_name[g], &bw->overall[g]);
    }
}

void report_server_sums(const struct iodfg_binned *bn, uint32_t s, double n[2], double most[2])
{
    double dt = (double)bn->dt_ns / 1e9;
    for (int x = 0; x < 2; x++) {
        n[x] = most[x] = 0;
        for (uint32_t i = 0; i < bn->nbins; i++) {
            double v = bn->bytes[x][(size_t)s * bn->nbins + i];
            n[x] += v;
            most[x] = fmax(most[x], v / dt);
        }
    }
}

/* ---- pieces of text ---- */

void iodfg_report_time(char *buf, size_t size, enum iodfg_clock clock, int64_t ns)
{
    int64_t sec = ns / 1000000000LL, frac = ns % 1000000000LL / 1000;
    if (clock == IODFG_CLOCK_EPOCH) {
        time_t t = (time_t)sec;
        struct tm tm;
        gmtime_r(&t, &tm);
        char d[64];
        strftime(d, sizeof(d), "%Y-%m-%d %H:%M:%S", &tm);
        snprintf(buf, size, "%s.%06lld UTC", d, (long long)frac);
    } else if (clock == IODFG_CLOCK_TIME_OF_DAY) {
        int64_t day = sec / 86400, s = sec % 86400;
        snprintf(buf, size, "%s%02lld:%02lld:%02lld.%06lld", day ? "+1d " : "",
                 (long long)(s / 3600), (long long)(s / 60 % 60), (long long)(s % 60),
                 (long long)frac);
    } else {
        snprintf(buf, size, "+%lld.%06lld s", (long long)sec, (long long)frac);
    }
}

const char *iodfg_report_count(char *buf, size_t size, uint64_t v)
{
    char digits[32];
    int n = snprintf(digits, sizeof(digits), "%llu", (unsigned long long)v);
    size_t o = 0;
    for (int i = 0; i < n && o + 2 < size; i++) {
        if (i > 0 && (n - i) % 3 == 0) {
            buf[o++] = ',';
        }
        buf[o++] = digits[i];
    }
    buf[o] = '\0';
    return buf;
}

int iodfg_report_clocks(const uint32_t *clocks, char *buf, size_t size)
{
    static const int order[] = {IODFG_CLOCK_TIME_OF_DAY, IODFG_CLOCK_EPOCH, IODFG_CLOCK_RELATIVE,
                                IODFG_CLOCK_NONE};
    size_t o = 0;
    int used = 0;
    buf[0] = '\0';
    for (size_t i = 0; i < sizeof(order) / sizeof(order[0]); i++) {
        uint32_t n = clocks[order[i]];
        if (n && o < size) {
            o += (size_t)snprintf(buf + o, size - o, "%s%u %s", used ? ", " : "", n,
                                  order[i] == IODFG_CLOCK_NONE
                                      ? "without timestamps"
                                      : iodfg_clock_name((enum iodfg_clock)order[i]));
            used++;
        }
    }
    return used;
}

const char *iodfg_report_bw_by_name(enum iodfg_report_bw_by by)
{
    static const char *const names[] = {"activity", "call", "case"};
    return (unsigned)by < 3 ? names[by] : "";
}
