/* SPDX-License-Identifier: MIT */
/* El Sayed et al. 2016's characterisation metrics: binning events per server, Eq. (3)-(9), call
 * classes. */
#include "config.h"

#include "iodfg/metrics.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "iodfg/cancel.h"
#include "iodfg/dfg.h"
#include "iodfg/error.h"
#include "iodfg/eventlog.h"
#include "iodfg/mapping.h"
#include "iodfg/strpool.h"
#include "iodfg/trace.h"

/* ---- call classes ---- */

struct call_class {
    const char *name;
    unsigned flags;
};

#define RD IODFG_IO_READ
#define WR IODFG_IO_WRITE
#define PO IODFG_IO_POSITIONAL
// Sorted by name for bsearch.
static const struct call_class classes[] = {
    {"_llseek", IODFG_IO_SEEK},
    {"close", IODFG_IO_CLOSE},
    {"creat", IODFG_IO_OPEN},
    {"lseek", IODFG_IO_SEEK},
    {"open", IODFG_IO_OPEN},
    {"openat", IODFG_IO_OPEN},
    {"openat2", IODFG_IO_OPEN},
    {"pread", RD | PO},
    {"pread64", RD | PO},
    {"preadv", RD | PO},
    {"preadv2", RD | PO},
    {"pwrite", WR | PO},
    {"pwrite64", WR | PO},
    {"pwritev", WR | PO},
    {"pwritev2", WR | PO},
    {"read", RD},
    {"readv", RD},
    {"write", WR},
    {"writev", WR},
};

unsigned iodfg_metrics_call_flags(const char *call, size_t len)
{
    size_t lo = 0, hi = sizeof(classes) / sizeof(classes[0]);
    while (lo < hi) {
        size_t mid = (lo + hi) / 2;
        const char *n = classes[mid].name;
        size_t nl = strlen(n);
        int c = memcmp(call, n, len < nl ? len : nl);
        if (c == 0) {
            c = len < nl ? -1 : len > nl;
        }
        if (c == 0) {
            return classes[mid].flags;
        }
        if (c < 0) {
            hi = mid;
        } else {
            lo = mid + 1;
        }
    }
    return 0;
}

void iodfg_metrics_key_flags(const struct iodfg_eventlog *log, uint8_t *flags)
{
    const struct iodfg_strpool *pool = iodfg_eventlog_pool(log);
    const struct iodfg_key *keys = iodfg_eventlog_keys(log);
    uint32_t nk = iodfg_eventlog_key_count(log);
    for (uint32_t k = 0; k < nk; k++) {
        flags[k] = (uint8_t)iodfg_metrics_call_flags(iodfg_strpool_get(pool, keys[k].call),
                                                     iodfg_strpool_len(pool, keys[k].call));
    }
}

static const char *const by_names[] = {"host", "case", "file"};

const char *iodfg_server_by_name(enum iodfg_server_by by)
{
    return (unsigned)by < 3 ? by_names[by] : "?";
}

int iodfg_server_by_parse(const char *s, enum iodfg_server_by *by)
{
    for (int i = 0; i < 3; i++) {
        if (strcmp(s, by_names[i]) == 0) {
            *by = (enum iodfg_server_by)i;
            return 0;
        }
    }
    return -1;
}

/* ---- grid helpers ---- */

int64_t iodfg_metrics_default_dt(int64_t span_ns)
{
    static const int64_t steps[] = {1, 2, 5};
    for (int64_t p = 1000; p <= INT64_MAX / 10; p *= 10) {
        for (int i = 0; i < 3; i++) {
            int64_t dt = steps[i] * p;
            if (span_ns <= dt * 100) {
                return dt;
            }
        }
    }
    return INT64_MAX / 100;
}

void iodfg_metrics_spread(double *bins, uint32_t nbins, int64_t t0, int64_t dt, int64_t start,
                          int64_t dur, double amount)
{
    if (nbins == 0) {
        return;
    }
    int64_t rel = start - t0;
    int64_t b0 = rel < 0 ? 0 : rel / dt;
    if (b0 >= nbins) {
        b0 = nbins - 1;
    }
    if (dur <= 0) {
        bins[b0] += amount;
        return;
    }
    int64_t relend = rel + dur;
    int64_t b1 = relend <= 0 ? 0 : (relend - 1) / dt;
    if (b1 >= nbins) {
        b1 = nbins - 1;
    }
    if (b0 == b1) {
        bins[b0] += amount;
        return;
    }
    double per_ns = amount / (double)dur;
    for (int64_t b = b0; b <= b1; b++) {
        int64_t lo = b == 0 ? INT64_MIN / 2 : b * dt,
                hi = b == nbins - 1 ? INT64_MAX / 2 : (b + 1) * dt;
        int64_t a = rel > lo ? rel : lo, z = relend < hi ? relend : hi;
        if (z > a) {
            bins[b] += per_ns * (double)(z - a);
        }
    }
}

double iodfg_metrics_interpolate(double t, const double *ts, const double *vs, size_t n)
{
    if (n == 0) {
        return 0;
    }
    if (t <= ts[0]) {
        return vs[0];
    }
    if (t >= ts[n - 1]) {
        return vs[n - 1];
    }
    size_t lo = 0, hi = n - 1; // ts[lo] < t < ts[hi]
    while (hi - lo > 1) {
        size_t mid = (lo + hi) / 2;
        if (ts[mid] <= t) {
            lo = mid;
        } else {
            hi = mid;
        }
    }
    // Eq. (1): v_i + (t - t_i) / (t_{i+1} - t_i) * (v_{i+1} - v_i)
    return vs[lo] + (t - ts[lo]) / (ts[hi] - ts[lo]) * (vs[hi] - vs[lo]);
}

/* ---- storage ---- */

void iodfg_binned_init(struct iodfg_binned *b)
{
    memset(b, 0, sizeof(*b));
}

void iodfg_binned_fini(struct iodfg_binned *b)
{
    for (uint32_t s = 0; b->server && s < b->nservers; s++) {
        free(b->server[s]);
    }
    free(b->server);
    for (int x = 0; x < IODFG_DIR__N; x++) {
        free(b->bytes[x]);
        free(b->ops[x]);
        free(b->total_bytes[x]);
        free(b->total_ops[x]);
    }
    memset(b, 0, sizeof(*b));
}

int iodfg_binned_alloc(struct iodfg_binned *b, uint32_t nservers, uint32_t nbins,
                       struct iodfg_error *err)
{
    iodfg_binned_fini(b);
    uint64_t cells = (uint64_t)nservers * nbins;
    if (cells > (1u << 28)) {
        return iodfg_error_set(err, IODFG_E_LIMIT,
                               "%u servers x %u bins is too many; choose a larger --dt", nservers,
                               nbins);
    }
    b->nservers = nservers;
    b->nbins = nbins;
    b->exact = 0;
    memset(b->exact_bytes, 0, sizeof(b->exact_bytes));
    memset(b->exact_ops, 0, sizeof(b->exact_ops));
    b->server = calloc((size_t)nservers + 1, sizeof(*b->server));
    int bad = !b->server;
    for (int x = 0; x < IODFG_DIR__N; x++) {
        b->bytes[x] = calloc(cells + 1, sizeof(double));
        b->ops[x] = calloc(cells + 1, sizeof(double));
        b->total_bytes[x] = calloc((size_t)nbins + 1, sizeof(double));
        b->total_ops[x] = calloc((size_t)nbins + 1, sizeof(double));
        bad |= !b->bytes[x] || !b->ops[x] || !b->total_bytes[x] || !b->total_ops[x];
    }
    if (bad) {
        iodfg_binned_fini(b);
        return iodfg_error_set(err, IODFG_E_NOMEM, NULL);
    }
    return 0;
}

/* ---- Eq. (3)-(9) ---- */

static void finish_dir(struct iodfg_binned *b, int x, double c)
{
    struct iodfg_dir_metrics *m = &b->dir[x];
    memset(m, 0, sizeof(*m));
    uint32_t nb = b->nbins, ns = b->nservers;
    double dt_s = (double)b->dt_ns / 1e9;
    double *tb = b->total_bytes[x], *to = b->total_ops[x];
    memset(tb, 0, (size_t)nb * sizeof(*tb));
    memset(to, 0, (size_t)nb * sizeof(*to));
    for (uint32_t s = 0; s < ns; s++) {
        const double *by = b->bytes[x] + (size_t)s * nb, *op = b->ops[x] + (size_t)s * nb;
        for (uint32_t i = 0; i < nb; i++) {
            tb[i] += by[i];
            to[i] += op[i];
            if (by[i] / dt_s > m->server_bw_max) {
                m->server_bw_max = by[i] / dt_s;
            }
            if (op[i] / dt_s > m->server_iops_max) {
                m->server_iops_max = op[i] / dt_s;
            }
        }
    }
    double sum_pi = 0;
    uint32_t runs_io = 0, runs_noio = 0, noio_bins = 0;
    int prev = -1;
    for (uint32_t i = 0; i < nb; i++) {
        m->volume += tb[i];
        m->ops += to[i];
        if (tb[i] / dt_s > m->bw_max) {
            m->bw_max = tb[i] / dt_s;
            m->bw_max_bin = i;
        }
        if (to[i] / dt_s > m->iops_max) {
            m->iops_max = to[i] / dt_s;
        }
        uint32_t active = 0; // Σ_s δ(s, t_i, Δt), Eq. (3)
        for (uint32_t s = 0; s < ns; s++) {
            active += b->bytes[x][(size_t)s * nb + i] > c;
        }
        int h = active > 0;
        m->busy_bins += (uint32_t)h;
        noio_bins += (uint32_t)!h;
        sum_pi += (double)active / (double)ns;
        if (h != prev) {
            h ? runs_io++ : runs_noio++;
            prev = h;
        }
    }
    if (b->exact) {
        m->volume = (double)b->exact_bytes[x];
        m->ops = (double)b->exact_ops[x];
    }
    if (nb == 0) {
        return;
    }
    m->intensity = (double)m->busy_bins / (double)nb;
    m->l_io = runs_io ? (double)m->busy_bins / runs_io : 0;
    m->l_noio = runs_noio ? (double)noio_bins / runs_noio : 0;
    m->burstiness = m->busy_bins && m->l_noio > 0 ? 1 - tanh(m->l_io / m->l_noio) : 0;
    if (m->busy_bins) {
        m->par_raw = sum_pi / (double)m->busy_bins;
        m->parallel = ns > 1 ? ((double)ns * m->par_raw - 1) / (double)(ns - 1) : 0;
    }
}

void iodfg_binned_finish(struct iodfg_binned *b, double threshold)
{
    b->threshold = threshold;
    for (int x = 0; x < IODFG_DIR__N; x++) {
        finish_dir(b, x, threshold);
    }
}

/* ---- binning an event log ---- */

int iodfg_binned_grid(struct iodfg_binned *b, int64_t t0, int64_t t1, int64_t dt,
                      struct iodfg_error *err)
{
    b->t0_ns = t0;
    b->span_ns = t1 > t0 ? t1 - t0 : 0;
    b->dt_ns = dt > 0 ? dt : iodfg_metrics_default_dt(b->span_ns);
    uint64_t nb = (uint64_t)(b->span_ns / b->dt_ns) + (b->span_ns % b->dt_ns != 0);
    if (nb == 0 && t1 >= t0 && t0 != INT64_MAX) {
        nb = 1; // a single instant still gets one bin
    }
    if (nb > (1u << 24)) {
        return iodfg_error_set(err, IODFG_E_LIMIT,
                               "%llu bins of %lld ns is too many; choose a larger --dt",
                               (unsigned long long)nb, (long long)b->dt_ns);
    }
    b->nbins = (uint32_t)nb;
    return 0;
}

uint32_t iodfg_binned_server_id(const struct iodfg_eventlog *log, enum iodfg_server_by by,
                                uint32_t c, uint32_t key)
{
    if (by == IODFG_BY_CASE) {
        return c;
    }
    if (by == IODFG_BY_FILE) {
        return iodfg_eventlog_keys(log)[key].path;
    }
    const struct iodfg_case_info *ci = iodfg_eventlog_case(log, c);
    return ci->host ? ci->host : ci->name;
}

const char *iodfg_binned_server_name(const struct iodfg_eventlog *log, enum iodfg_server_by by,
                                     uint32_t id)
{
    const struct iodfg_strpool *pool = iodfg_eventlog_pool(log);
    return by == IODFG_BY_CASE ? iodfg_strpool_get(pool, iodfg_eventlog_case(log, id)->name)
                               : iodfg_strpool_get(pool, id);
}

uint32_t iodfg_binned_id_count(const struct iodfg_eventlog *log, enum iodfg_server_by by)
{
    return by == IODFG_BY_CASE ? iodfg_eventlog_case_count(log)
                               : iodfg_strpool_count(iodfg_eventlog_pool(log));
}

int iodfg_binned_scan(struct iodfg_binned_servers *sv, const struct iodfg_eventlog *log,
                      const struct iodfg_mapping *map, const struct iodfg_selection *sel,
                      enum iodfg_server_by by, const uint8_t *kf, struct iodfg_error *err)
{
    const struct iodfg_columns *col = iodfg_eventlog_columns(log);
    uint32_t nc = iodfg_eventlog_case_count(log);
    const uint32_t *act = map->activity_of_key;
    uint32_t nids = iodfg_binned_id_count(log, by);
    memset(sv, 0, sizeof(*sv));
    sv->of = calloc((size_t)nids + 1, sizeof(uint32_t));
    if (!sv->of) {
        return iodfg_error_set(err, IODFG_E_NOMEM, NULL);
    }
    memset(sv->of, 0xff, ((size_t)nids + 1) * sizeof(uint32_t));
    int64_t t0 = INT64_MAX, t1 = INT64_MIN;
    for (uint32_t c = 0; c < nc; c++) {
        uint64_t lo, hi;
        if (!iodfg_trace_case_range(log, sel, c, &lo, &hi)) {
            continue;
        }
        for (uint64_t e = lo; e < hi; e++) {
            int64_t s = col->start_ns[e];
            uint32_t k = col->key[e];
            if (act[k] == IODFG_NO_ACTIVITY) {
                continue;
            }
            int64_t d = col->dur_ns && col->dur_ns[e] > 0 ? col->dur_ns[e] : 0;
            t0 = s < t0 ? s : t0;
            t1 = s + d > t1 ? s + d : t1;
            if ((kf[k] & (IODFG_IO_READ | IODFG_IO_WRITE)) && col->size[e] != IODFG_UNKNOWN) {
                uint32_t id = iodfg_binned_server_id(log, by, c, k);
                if (sv->of[id] == UINT32_MAX) {
                    uint32_t *grown = realloc(sv->id, ((size_t)sv->n + 1) * sizeof(uint32_t));
                    if (!grown) {
                        iodfg_binned_servers_fini(sv);
                        return iodfg_error_set(err, IODFG_E_NOMEM, NULL);
                    }
                    sv->id = grown;
                    sv->id[sv->n] = id;
                    sv->of[id] = sv->n++;
                }
            }
        }
    }
    sv->t0_ns = t0;
    sv->t1_ns = t1;
    return 0;
}

void iodfg_binned_servers_fini(struct iodfg_binned_servers *sv)
{
    free(sv->of);
    free(sv->id);
    memset(sv, 0, sizeof(*sv));
}

void iodfg_binned_spread_events(struct iodfg_binned *b, const struct iodfg_eventlog *log,
                                const struct iodfg_mapping *map, const struct iodfg_selection *sel,
                                enum iodfg_server_by by, const uint8_t *kf, const uint32_t *of)
{
    const struct iodfg_columns *col = iodfg_eventlog_columns(log);
    const uint32_t *act = map->activity_of_key;
    uint32_t nb = b->nbins, nc = iodfg_eventlog_case_count(log);
    const struct iodfg_key *keys = iodfg_eventlog_keys(log);
    for (uint32_t c = 0; c < nc && b->nservers; c++) {
        uint64_t lo, hi;
        if (!iodfg_trace_case_range(log, sel, c, &lo, &hi)) {
            continue;
        }
        uint32_t case_server = iodfg_binned_server_id(log, by, c, 0);
        for (uint64_t e = lo; e < hi; e++) {
            uint32_t k = col->key[e];
            unsigned f = kf[k] & (IODFG_IO_READ | IODFG_IO_WRITE);
            int64_t s = col->start_ns[e];
            if (!f || col->size[e] == IODFG_UNKNOWN || act[k] == IODFG_NO_ACTIVITY) {
                continue;
            }
            int x = (f & IODFG_IO_READ) ? IODFG_DIR_READ : IODFG_DIR_WRITE;
            b->exact_bytes[x] += (uint64_t)col->size[e];
            b->exact_ops[x]++;
            size_t base = (size_t)of[by == IODFG_BY_FILE ? keys[k].path : case_server] * nb;
            int64_t d = col->dur_ns ? col->dur_ns[e] : 0;
            int64_t rel = s - b->t0_ns;
            int64_t bi = rel / b->dt_ns;
            if (d <= 0 || (rel + d - 1) / b->dt_ns == bi) { // the common case: one bin
                bi = bi < nb ? bi : nb - 1;
                b->bytes[x][base + (size_t)bi] += (double)col->size[e];
                b->ops[x][base + (size_t)bi] += 1;
            } else {
                iodfg_metrics_spread(b->bytes[x] + base, nb, b->t0_ns, b->dt_ns, s, d,
                                     (double)col->size[e]);
                iodfg_metrics_spread(b->ops[x] + base, nb, b->t0_ns, b->dt_ns, s, d, 1);
            }
        }
    }
}

static int bin_events(struct iodfg_binned *b, const struct iodfg_eventlog *log,
                      const struct iodfg_mapping *map, const struct iodfg_selection *sel,
                      const struct iodfg_bin_opts *o, const uint8_t *kf,
                      const struct iodfg_cancel *cancel, struct iodfg_error *err)
{
    // pass 1: the span of the selected events and the servers doing reads or writes
    struct iodfg_binned_servers sv;
    if (iodfg_binned_scan(&sv, log, map, sel, o->by, kf, err)) {
        return -1;
    }
    struct iodfg_binned grid;
    iodfg_binned_init(&grid);
    int rc = -1;
    if (iodfg_binned_grid(&grid, sv.t0_ns, sv.t1_ns, o->dt_ns, err) ||
        iodfg_binned_alloc(b, sv.n, grid.nbins, err)) {
        goto out;
    }
    b->exact = 1; // after the allocation, which resets it: volumes and counts sum the events
    b->t0_ns = grid.t0_ns;
    b->dt_ns = grid.dt_ns;
    b->span_ns = grid.span_ns;
    for (uint32_t s = 0; s < sv.n; s++) {
        if (!(b->server[s] = strdup(iodfg_binned_server_name(log, o->by, sv.id[s])))) {
            iodfg_error_set(err, IODFG_E_NOMEM, NULL);
            goto out;
        }
    }
    // pass 2: spread the reads and writes (each pass a look at cancel)
    if (iodfg_cancel_requested(cancel)) {
        iodfg_error_set(err, IODFG_E_CANCELLED, NULL);
        goto out;
    }
    iodfg_binned_spread_events(b, log, map, sel, o->by, kf, sv.of);
    rc = 0;
out:
    iodfg_binned_servers_fini(&sv);
    return rc;
}

int iodfg_binned_build(struct iodfg_binned *b, const struct iodfg_eventlog *log,
                       const struct iodfg_mapping *map, const struct iodfg_selection *sel,
                       const struct iodfg_bin_opts *o, const struct iodfg_cancel *cancel,
                       struct iodfg_error *err)
{
    const struct iodfg_columns *col = iodfg_eventlog_columns(log);
    iodfg_binned_fini(b);
    if (!col->start_ns || !col->key || !col->size) {
        return iodfg_error_set(err, IODFG_E_ARG,
                               "the event log lacks the start, key or size column");
    }
    uint32_t nk = iodfg_eventlog_key_count(log);
    if (map->nkeys != nk) {
        return iodfg_error_set(err, IODFG_E_ARG, "the mapping does not belong to this log");
    }
    uint8_t *kf = malloc((size_t)nk + 1);
    if (!kf) {
        return iodfg_error_set(err, IODFG_E_NOMEM, NULL);
    }
    iodfg_metrics_key_flags(log, kf);
    int rc = bin_events(b, log, map, sel, o, kf, cancel, err);
    free(kf);
    if (rc) {
        iodfg_binned_fini(b);
        return -1;
    }
    iodfg_binned_finish(b, o->threshold);
    return 0;
}
