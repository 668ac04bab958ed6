/* SPDX-License-Identifier: MIT */
/* Wright et al. 2013: perceived vs effective bandwidth and time shares, per activity, call and
 * case. */
#include "config.h"

#include "iodfg/bandwidth.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "iodfg/buf.h"
#include "iodfg/dfg.h"
#include "iodfg/error.h"
#include "iodfg/eventlog.h"
#include "iodfg/mapping.h"
#include "iodfg/metrics.h"
#include "iodfg/strpool.h"
#include "iodfg/trace.h"

/* Above this many (case, activity) cells the per-case activity matrix is left NULL. */
#define MAX_CASE_CELLS (1u << 26)

void iodfg_bandwidth_init(struct iodfg_bandwidth *bw)
{
    memset(bw, 0, sizeof(*bw));
}

void iodfg_bandwidth_fini(struct iodfg_bandwidth *bw)
{
    free(bw->act);
    free(bw->call_name);
    free(bw->call);
    free(bw->case_row);
    free(bw->case_call_dur);
    free(bw->case_act_dur);
    memset(bw, 0, sizeof(*bw));
}

// Per-key call index (calls numbered by first appearance in key order).
static int number_calls(struct iodfg_bandwidth *bw, const struct iodfg_eventlog *log,
                        uint32_t *call_of_key)
{
    uint32_t nk = iodfg_eventlog_key_count(log);
    uint32_t np = iodfg_strpool_count(iodfg_eventlog_pool(log));
    const struct iodfg_key *keys = iodfg_eventlog_keys(log);
    uint32_t *idx = malloc(((size_t)np + 1) * sizeof(*idx));
    bw->call_name = malloc(((size_t)nk + 1) * sizeof(*bw->call_name));
    if (!idx || !bw->call_name) {
        free(idx);
        return -1;
    }
    memset(idx, 0xff, ((size_t)np + 1) * sizeof(*idx));
    for (uint32_t k = 0; k < nk; k++) {
        uint32_t id = keys[k].call;
        if (idx[id] == UINT32_MAX) {
            bw->call_name[bw->ncalls] = id;
            idx[id] = bw->ncalls++;
        }
        call_of_key[k] = idx[id];
    }
    free(idx);
    return 0;
}

// Per-key sums of one case, folded into the rows when the case ends.
struct key_acc {
    uint64_t count;
    int64_t bytes, dur, first, last;
};

static void row_merge(struct iodfg_bw_row *r, uint32_t *last_case, uint32_t c,
                      const struct key_acc *k)
{
    if (r->count == 0 || k->first < r->first_ns) {
        r->first_ns = k->first;
    }
    if (r->count == 0 || k->last > r->last_ns) {
        r->last_ns = k->last;
    }
    r->count += k->count;
    r->bytes = iodfg_sat_add(r->bytes, k->bytes);
    r->dur_sum_ns = iodfg_sat_add(r->dur_sum_ns, k->dur);
    if (*last_case != c + 1) {
        *last_case = c + 1;
        r->cases++;
    }
}

void iodfg_bw_row_finish(struct iodfg_bw_row *r, int64_t total_dur)
{
    int64_t span = r->last_ns - r->first_ns;
    r->perceived = span > 0 ? (double)r->bytes * 1e9 / (double)span : NAN;
    r->effective = r->dur_sum_ns > 0 ? (double)r->bytes * 1e9 / (double)r->dur_sum_ns : NAN;
    r->share = total_dur > 0 ? (double)r->dur_sum_ns / (double)total_dur : NAN;
}

struct scan {
    const uint32_t *act, *call_of_key;
    const uint8_t *kf;
    uint32_t *last_act, *last_call, last_overall[IODFG_BW__N];
    struct key_acc *acc; /* per key */
    uint32_t *touched;   /* keys with events in the current case */
};

static void fold_case(struct iodfg_bandwidth *bw, struct scan *sc, uint32_t c, size_t ntouched)
{
    struct iodfg_bw_row *crow = &bw->case_row[(size_t)c * IODFG_BW__N];
    int64_t *ccall = bw->case_call_dur + (size_t)c * bw->ncalls;
    int64_t *cact = bw->case_act_dur ? bw->case_act_dur + (size_t)c * bw->nactivities : NULL;
    uint32_t case_marks[IODFG_BW__N] = {0};
    for (size_t i = 0; i < ntouched; i++) {
        uint32_t k = sc->touched[i], a = sc->act[k], ci = sc->call_of_key[k];
        struct key_acc *ka = &sc->acc[k];
        row_merge(&bw->act[a], &sc->last_act[a], c, ka);
        row_merge(&bw->call[ci], &sc->last_call[ci], c, ka);
        row_merge(&bw->overall[IODFG_BW_ALL], &sc->last_overall[IODFG_BW_ALL], c, ka);
        row_merge(&crow[IODFG_BW_ALL], &case_marks[IODFG_BW_ALL], c, ka);
        unsigned f = sc->kf[k];
        if (f & (IODFG_IO_READ | IODFG_IO_WRITE)) {
            int g = (f & IODFG_IO_READ) ? IODFG_BW_READ : IODFG_BW_WRITE;
            row_merge(&bw->overall[g], &sc->last_overall[g], c, ka);
            row_merge(&crow[g], &case_marks[g], c, ka);
        }
        ccall[ci] = iodfg_sat_add(ccall[ci], ka->dur);
        if (cact) {
            cact[a] = iodfg_sat_add(cact[a], ka->dur);
        }
        ka->count = 0;
    }
}

static void scan_case(struct iodfg_bandwidth *bw, struct scan *sc, const struct iodfg_columns *col,
                      uint32_t c, uint64_t from, uint64_t to)
{
    size_t ntouched = 0;
    for (uint64_t e = from; e < to; e++) {
        uint32_t k = col->key[e];
        if (sc->act[k] == IODFG_NO_ACTIVITY) {
            continue;
        }
        int64_t s = col->start_ns[e];
        int64_t d = col->dur_ns && col->dur_ns[e] != IODFG_UNKNOWN ? col->dur_ns[e] : 0;
        int64_t z = col->size && col->size[e] != IODFG_UNKNOWN ? col->size[e] : 0;
        int64_t end = s + (d > 0 ? d : 0);
        struct key_acc *ka = &sc->acc[k];
        if (ka->count++ == 0) {
            sc->touched[ntouched++] = k;
            ka->first = s; // events of a case come in start order
            ka->last = end;
            ka->bytes = z;
            ka->dur = d;
            continue;
        }
        ka->last = end > ka->last ? end : ka->last;
        ka->bytes = iodfg_sat_add(ka->bytes, z);
        ka->dur = iodfg_sat_add(ka->dur, d);
    }
    fold_case(bw, sc, c, ntouched);
}

static int alloc_all(struct iodfg_bandwidth *bw, const struct iodfg_eventlog *log,
                     const struct iodfg_mapping *map, struct scan *sc, uint32_t **call_of_key,
                     uint8_t **kf)
{
    uint32_t nk = iodfg_eventlog_key_count(log);
    bw->nactivities = map->nactivities;
    bw->ncases = iodfg_eventlog_case_count(log);
    *call_of_key = malloc(((size_t)nk + 1) * sizeof(uint32_t));
    *kf = malloc((size_t)nk + 1);
    if (!*call_of_key || !*kf || number_calls(bw, log, *call_of_key)) {
        return -1;
    }
    iodfg_metrics_key_flags(log, *kf);
    size_t na = bw->nactivities, nc = bw->ncases;
    bw->act = calloc(na + 1, sizeof(*bw->act));
    bw->call = calloc((size_t)bw->ncalls + 1, sizeof(*bw->call));
    bw->case_row = calloc(nc * IODFG_BW__N + 1, sizeof(*bw->case_row));
    bw->case_call_dur = calloc(nc * bw->ncalls + 1, sizeof(int64_t));
    if ((uint64_t)nc * na <= MAX_CASE_CELLS) {
        bw->case_act_dur = calloc(nc * na + 1, sizeof(int64_t));
        if (!bw->case_act_dur) {
            return -1;
        }
    }
    sc->acc = calloc((size_t)nk + 1, sizeof(*sc->acc));
    sc->touched = malloc(((size_t)nk + 1) * sizeof(uint32_t));
    sc->last_act = calloc(na + 1, sizeof(uint32_t));
    sc->last_call = calloc((size_t)bw->ncalls + 1, sizeof(uint32_t));
    return bw->act && bw->call && bw->case_row && bw->case_call_dur && sc->last_act && sc->acc &&
                   sc->touched && sc->last_call
               ? 0
               : -1;
}

int iodfg_bandwidth_build(struct iodfg_bandwidth *bw, const struct iodfg_eventlog *log,
                          const struct iodfg_mapping *map, const struct iodfg_selection *sel,
                          struct iodfg_error *err)
{
    iodfg_bandwidth_fini(bw);
    const struct iodfg_columns *col = iodfg_eventlog_columns(log);
    if (!col->start_ns || !col->key) {
        return iodfg_error_set(err, IODFG_E_ARG, "the event log lacks the start or key column");
    }
    if (map->nkeys != iodfg_eventlog_key_count(log)) {
        return iodfg_error_set(err, IODFG_E_ARG, "the mapping does not belong to this log");
    }
    struct scan sc;
    memset(&sc, 0, sizeof(sc));
    uint32_t *call_of_key = NULL;
    uint8_t *kf = NULL;
    int rc = -1;
    if (alloc_all(bw, log, map, &sc, &call_of_key, &kf)) {
        iodfg_error_set(err, IODFG_E_NOMEM, NULL);
        iodfg_bandwidth_fini(bw);
        goto out;
    }
    sc.act = map->activity_of_key;
    sc.call_of_key = call_of_key;
    sc.kf = kf;
    for (uint32_t c = 0; c < bw->ncases; c++) {
        uint64_t lo, hi;
        if (iodfg_trace_case_range(log, sel, c, &lo, &hi)) {
            scan_case(bw, &sc, col, c, lo, hi);
        }
    }
    int64_t total = bw->overall[IODFG_BW_ALL].dur_sum_ns;
    for (uint32_t a = 0; a < bw->nactivities; a++) {
        iodfg_bw_row_finish(&bw->act[a], total);
    }
    for (uint32_t i = 0; i < bw->ncalls; i++) {
        iodfg_bw_row_finish(&bw->call[i], total);
    }
    for (int g = 0; g < IODFG_BW__N; g++) {
        iodfg_bw_row_finish(&bw->overall[g], total);
    }
    for (uint32_t c = 0; c < bw->ncases; c++) {
        struct iodfg_bw_row *crow = &bw->case_row[(size_t)c * IODFG_BW__N];
        int64_t ct = crow[IODFG_BW_ALL].dur_sum_ns;
        for (int g = 0; g < IODFG_BW__N; g++) {
            iodfg_bw_row_finish(&crow[g], ct);
        }
    }
    rc = 0;
out:
    free(sc.acc);
    free(sc.touched);
    free(sc.last_act);
    free(sc.last_call);
    free(call_of_key);
    free(kf);
    return rc;
}

/* ---- stacked bars ---- */

int iodfg_share_cells(const int64_t *v, size_t n, int width, int16_t *seg)
{
    if (width <= 0) {
        return 0;
    }
    for (int x = 0; x < width; x++) {
        seg[x] = -1;
    }
    double total = 0;
    size_t nonzero = 0;
    for (size_t i = 0; i < n; i++) {
        if (v[i] > 0) {
            total += (double)v[i];
            nonzero++;
        }
    }
    if (total <= 0) {
        return 0;
    }
    // cells: floor of the exact share, then the largest remainders; nonzero values first get one
    int *cells = calloc(n + 1, sizeof(int));
    double *rem = calloc(n + 1, sizeof(double));
    if (!cells || !rem) {
        free(cells);
        free(rem);
        return 0;
    }
    int used = 0;
    for (size_t i = 0; i < n; i++) {
        if (v[i] > 0) {
            double exact = (double)v[i] / total * width;
            cells[i] = (int)floor(exact);
            rem[i] = exact - cells[i];
            if (cells[i] == 0 && nonzero <= (size_t)width) {
                cells[i] = 1; // visible even when tiny
                rem[i] = -1;
            }
            used += cells[i];
        }
    }
    while (used > width) { // the minimum cells overshot: take from the largest
        size_t big = 0;
        for (size_t i = 1; i < n; i++) {
            big = cells[i] > cells[big] ? i : big;
        }
        cells[big]--;
        used--;
    }
    while (used < width) {
        size_t best = n;
        for (size_t i = 0; i < n; i++) {
            if (v[i] > 0 && (best == n || rem[i] > rem[best])) {
                best = i;
            }
        }
        cells[best]++;
        rem[best] = -2;
        used++;
    }
    int x = 0;
    for (size_t i = 0; i < n; i++) {
        for (int k = 0; k < cells[i] && x < width; k++) {
            seg[x++] = (int16_t)i;
        }
    }
    free(cells);
    free(rem);
    return x;
}

int iodfg_share_bar(struct iodfg_buf *out, const int64_t *v, size_t n, int width,
                    const char *glyphs)
{
    if (width <= 0) {
        return 0;
    }
    int16_t *seg = malloc((size_t)width * sizeof(*seg));
    if (!seg) {
        return -1;
    }
    iodfg_share_cells(v, n, width, seg);
    size_t ng = glyphs ? strlen(glyphs) : 0;
    for (int x = 0; x < width; x++) {
        char ch = seg[x] < 0 || !ng ? ' ' : glyphs[(size_t)seg[x] % ng];
        iodfg_buf_add(out, &ch, 1);
    }
    free(seg);
    return out->failed ? -1 : 0;
}
