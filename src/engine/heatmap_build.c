/* SPDX-License-Identifier: MIT */
/* Building the heatmap: the cases of the bands and of one clock, the source rows and their
 * aggregation, the window and its bins, then one pass over the counted events that splits each
 * call by time and spreads its bytes over its duration (exact sums). */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "iodfg/bigmem.h"
#include "iodfg/error.h"
#include "iodfg/eventlog.h"
#include "iodfg/heatmap.h"
#include "iodfg/mapping.h"
#include "iodfg/picture.h"
#include "iodfg/strpool.h"
#include "iodfg/trace.h"

#include "heatmap_priv.h"

#define MAX_CELLS ((uint64_t)1 << 28)
#define DEFAULT_BINS 100

// The band of every case (HM_OFF: not shown), the clock kept, and the cases left out.
static int case_bands(struct hm_build *b)
{
    struct iodfg_heatmap *hm = b->hm;
    b->band = malloc((size_t)iodfg_eventlog_case_count(b->in->log) + 1);
    return !b->band || iodfg_picture_cases(b->in, b->band, &hm->nbands, &hm->clock,
                                           &hm->clock_dropped, &hm->outside_groups);
}

// Pass 1 (for the default window and activity rows): the counted events' span, and which
// (band, activity) pairs have events.
static int prepass(struct hm_build *b)
{
    const struct iodfg_columns *col = b->col;
    uint32_t nc = iodfg_eventlog_case_count(b->in->log), na = b->in->map->nactivities;
    if (b->hm->by == IODFG_HEATMAP_ACTIVITY) {
        b->has_act = calloc((size_t)na * 2 + 1, 1);
        if (!b->has_act) {
            return -1;
        }
    }
    for (uint32_t c = 0; c < nc; c++) {
        uint64_t lo, hi;
        if (b->band[c] == HM_OFF || !iodfg_trace_case_range(b->in->log, b->in->sel, c, &lo, &hi)) {
            continue;
        }
        for (uint64_t e = lo; e < hi; e++) {
            uint32_t a = hm_counted(b, e);
            if (a == IODFG_NO_ACTIVITY) {
                continue;
            }
            int64_t s = col->start_ns[e], d = hm_dur(col, e),
                    end = s + (d ? d : 1); // instants: 1 ns
            b->t0 = s < b->t0 ? s : b->t0;
            b->t1 = end > b->t1 ? end : b->t1;
            if (b->has_act) {
                b->has_act[(size_t)b->band[c] * na + a] = 1;
            }
        }
    }
    return 0;
}

static int add_src(struct hm_build *b, uint32_t id, uint8_t band, const char *name)
{
    struct iodfg_heatmap *hm = b->hm;
    if (hm->nsrc == b->src_cap) {
        uint32_t cap = b->src_cap ? b->src_cap * 2 : 64;
        struct iodfg_heatmap_src *s = realloc(hm->src, (size_t)cap * sizeof(*s));
        if (!s) {
            return -1;
        }
        hm->src = s;
        b->src_cap = cap;
    }
    struct iodfg_heatmap_src *s = &hm->src[hm->nsrc];
    s->id = id;
    s->band = band;
    if (iodfg_strpool_intern(hm->names, name, strlen(name), &s->name)) {
        return -1;
    }
    hm->nsrc++;
    return 0;
}

struct case_key {
    uint32_t band, id, c; /* band, string id (host or cid), case */
};

static int cmp_key(const void *x, const void *y)
{
    const struct case_key *a = x, *b = y;
    if (a->band != b->band) {
        return a->band < b->band ? -1 : 1;
    }
    if (a->id != b->id) {
        return a->id < b->id ? -1 : 1;
    }
    return (a->c > b->c) - (a->c < b->c);
}

static int cmp_first(const void *x, const void *y)
{
    const struct case_key *a = x, *b = y;
    if (a->band != b->band) {
        return a->band < b->band ? -1 : 1;
    }
    return (a->c > b->c) - (a->c < b->c);
}

// Source rows of hosts or cids: each string once per band, in the order of its first case;
// case_src[c] = the source row of case c.
static int strings_rows(struct hm_build *b)
{
    const struct iodfg_eventlog *log = b->in->log;
    const struct iodfg_strpool *pool = iodfg_eventlog_pool(log);
    uint32_t nc = iodfg_eventlog_case_count(log), n = 0, m = 0;
    struct case_key *k = malloc(((size_t)nc + 1) * sizeof(*k));
    struct case_key *rep = malloc(((size_t)nc + 1) * sizeof(*rep));
    uint32_t *grp = malloc(((size_t)nc + 1) * sizeof(*grp));
    int rc = !k || !rep || !grp ? -1 : 0;
    for (uint32_t c = 0; !rc && c < nc; c++) {
        const struct iodfg_case_info *ci = iodfg_eventlog_case(log, c);
        uint32_t id = b->hm->by == IODFG_HEATMAP_HOST ? ci->host : ci->cid;
        if (b->band[c] != HM_OFF) {
            k[n++] = (struct case_key){b->band[c], id, c};
        }
    }
    if (!rc) {
        qsort(k, n, sizeof(*k), cmp_key);
    }
    for (uint32_t i = 0; !rc && i < n; i++) { // groups of one (band, id), first case first
        if (!m || rep[m - 1].band != k[i].band || rep[m - 1].id != k[i].id) {
            rep[m++] = k[i];
        }
        b->case_src[k[i].c] = m - 1; // the group for now, its source row below
    }
    if (!rc) {
        qsort(rep, m, sizeof(*rep), cmp_first);
    }
    for (uint32_t i = 0; !rc && i < m; i++) { // grp[group] = its source row
        grp[b->case_src[rep[i].c]] = i;
        rc = add_src(b, rep[i].id, (uint8_t)rep[i].band, iodfg_strpool_get(pool, rep[i].id));
    }
    for (uint32_t i = 0; !rc && i < n; i++) {
        b->case_src[k[i].c] = grp[b->case_src[k[i].c]];
    }
    free(k);
    free(rep);
    free(grp);
    return rc;
}

static int make_sources(struct hm_build *b)
{
    const struct iodfg_eventlog *log = b->in->log;
    uint32_t nc = iodfg_eventlog_case_count(log);
    b->case_src = malloc(((size_t)nc + 1) * sizeof(*b->case_src));
    if (!b->case_src) {
        return -1;
    }
    if (b->hm->by == IODFG_HEATMAP_HOST || b->hm->by == IODFG_HEATMAP_CID) {
        return strings_rows(b);
    }
    const struct iodfg_mapping *map = b->in->map;
    const struct iodfg_strpool *pool = iodfg_eventlog_pool(log);
    for (uint8_t band = 0; band < b->hm->nbands; band++) {
        for (uint32_t c = 0; b->hm->by == IODFG_HEATMAP_CASE && c < nc; c++) {
            if (b->band[c] != band) {
                continue;
            }
            b->case_src[c] = b->hm->nsrc;
            if (add_src(b, c, band, iodfg_strpool_get(pool, iodfg_eventlog_case(log, c)->name))) {
                return -1;
            }
        }
        for (uint32_t a = 0; b->hm->by == IODFG_HEATMAP_ACTIVITY && a < map->nactivities; a++) {
            if (b->has_act[(size_t)band * map->nactivities + a] &&
                add_src(b, a, band, iodfg_strpool_get(map->names, map->name_of[a]))) {
                return -1;
            }
        }
    }
    return 0;
}

/* Rows per displayed row: the smallest k with which every band's rows fit in max rows (one row
 * per band at least). */
static uint32_t rows_per_row(const uint32_t *nb, uint32_t nbands, uint32_t nsrc, uint32_t max)
{
    if (!max || nsrc <= max) {
        return 1;
    }
    uint32_t most = nb[0] > nb[1] ? nb[0] : nb[1];
    uint32_t k = (nsrc + max - 1) / max;
    while (k < most) {
        uint32_t rows = 0;
        for (uint32_t i = 0; i < nbands; i++) {
            rows += (nb[i] + k - 1) / k;
        }
        if (rows <= max) {
            break;
        }
        k++;
    }
    return k ? k : 1;
}

// Displayed rows (k source rows each, never across bands), and each source row's displayed row.
static int make_rows(struct hm_build *b, const struct iodfg_heatmap_opts *o)
{
    struct iodfg_heatmap *hm = b->hm;
    uint32_t nb[2] = {0, 0};
    for (uint32_t i = 0; i < hm->nsrc; i++) {
        nb[hm->src[i].band]++;
    }
    hm->per_row = rows_per_row(nb, hm->nbands, hm->nsrc, o->max_rows);
    uint32_t k = hm->per_row;
    hm->row = calloc((size_t)hm->nsrc + 1, sizeof(*hm->row));
    b->disp = malloc(((size_t)hm->nsrc + 1) * sizeof(*b->disp));
    if (!hm->row || !b->disp) {
        return -1;
    }
    uint32_t first = 0;
    for (uint32_t band = 0; band < hm->nbands; band++) {
        for (uint32_t j = 0; j < nb[band]; j += k) {
            struct iodfg_heatmap_row *r = &hm->row[hm->nrows];
            r->first = first + j;
            r->count = nb[band] - j < k ? nb[band] - j : k;
            r->band = (uint8_t)band;
            for (uint32_t i = 0; i < r->count; i++) {
                b->disp[r->first + i] = hm->nrows;
            }
            hm->nrows++;
            hm->band_rows[band]++;
        }
        first += nb[band];
    }
    return 0;
}

// The displayed row of every case (case, host, cid rows) or (band, activity) (activity rows).
static int row_lookup(struct hm_build *b)
{
    struct iodfg_heatmap *hm = b->hm;
    uint32_t nc = iodfg_eventlog_case_count(b->in->log), na = b->in->map->nactivities;
    if (hm->by == IODFG_HEATMAP_ACTIVITY) {
        b->act_row = malloc(((size_t)na * 2 + 1) * sizeof(*b->act_row));
        if (!b->act_row) {
            return -1;
        }
        for (uint32_t i = 0; i < hm->nsrc; i++) {
            b->act_row[(size_t)hm->src[i].band * na + hm->src[i].id] = b->disp[i];
        }
        return 0;
    }
    b->case_row = malloc(((size_t)nc + 1) * sizeof(*b->case_row));
    if (!b->case_row) {
        return -1;
    }
    for (uint32_t c = 0; c < nc; c++) {
        b->case_row[c] = b->band[c] == HM_OFF ? UINT32_MAX : b->disp[b->case_src[c]];
    }
    return 0;
}

// The window and its edges: bin i is [from + floor(i W / n), from + floor((i+1) W / n)).
static int make_grid(struct hm_build *b, const struct iodfg_heatmap_opts *o,
                     struct iodfg_error *err)
{
    struct iodfg_heatmap *hm = b->hm;
    hm->nbins = o->nbins ? o->nbins : DEFAULT_BINS;
    if (o->from_ns < o->to_ns) {
        hm->from_ns = o->from_ns;
        hm->to_ns = o->to_ns;
    } else if (b->t0 <= b->t1) {
        hm->from_ns = b->t0;
        hm->to_ns = b->t1 > b->t0 ? b->t1 : b->t0 + 1; // an instant still gets a window
    } else {
        hm->from_ns = 0;
        hm->to_ns = 1;
    }
    int64_t w;
    if (__builtin_sub_overflow(hm->to_ns, hm->from_ns, &w)) {
        return iodfg_error_set(err, IODFG_E_ARG, "the time window is too wide");
    }
    if ((uint64_t)hm->nbins > (uint64_t)w) {
        hm->nbins = (uint32_t)w; // bins of 1 ns at the least
    }
    if ((uint64_t)hm->nrows * hm->nbins > MAX_CELLS) {
        return iodfg_error_set(err, IODFG_E_LIMIT, "%u rows x %u bins is too many cells", hm->nrows,
                               hm->nbins);
    }
    size_t cells = (size_t)hm->nrows * hm->nbins + 1;
    hm->edge = malloc(((size_t)hm->nbins + 1) * sizeof(*hm->edge));
    hm->bytes = calloc(cells, sizeof(*hm->bytes));
    hm->busy_ns = calloc(cells, sizeof(*hm->busy_ns));
    hm->calls = calloc(cells, sizeof(*hm->calls));
    if (!hm->edge || !hm->bytes || !hm->busy_ns || !hm->calls) {
        return iodfg_error_set(err, IODFG_E_NOMEM, "out of memory for the heatmap");
    }
    for (uint32_t i = 0; i <= hm->nbins; i++) {
        hm->edge[i] = hm->from_ns + iodfg_heatmap_share(w, i, hm->nbins);
    }
    return 0;
}

/* Per event of the log, no row yet (huge pages: 4 bytes an event, filled at once). */
static uint32_t *new_event_rows(const struct iodfg_eventlog *log)
{
    size_t n = (size_t)iodfg_eventlog_event_count(log);
    uint32_t *r = iodfg_bigmem_alloc((n + 1) * sizeof(*r));
    if (r) {
        memset(r, 0xff, (n + 1) * sizeof(*r));
    }
    return r;
}

int iodfg_heatmap_build(struct iodfg_heatmap *hm, const struct iodfg_picture_input *in,
                        const struct iodfg_heatmap_opts *o, struct iodfg_error *err)
{
    iodfg_heatmap_fini(hm);
    const struct iodfg_columns *col = iodfg_eventlog_columns(in->log);
    if (!col->start_ns || !col->key) {
        return iodfg_error_set(err, IODFG_E_ARG, "the event log lacks the start or key column");
    }
    if (in->map->nkeys != iodfg_eventlog_key_count(in->log)) {
        return iodfg_error_set(err, IODFG_E_ARG, "the mapping does not belong to this log");
    }
    hm->by = o->by < IODFG_HEATMAP__NBY ? o->by : IODFG_HEATMAP_CASE;
    hm->names = iodfg_strpool_new();
    struct hm_build b = {.in = in, .hm = hm, .col = col, .t0 = INT64_MAX, .t1 = INT64_MIN};
    int rc = -1;
    int need_span = !(o->from_ns < o->to_ns) || hm->by == IODFG_HEATMAP_ACTIVITY;
    if (!hm->names || case_bands(&b) || (need_span && prepass(&b)) || make_sources(&b) ||
        make_rows(&b, o) || row_lookup(&b)) {
        iodfg_error_set(err, IODFG_E_NOMEM, "out of memory for the heatmap");
        goto out;
    }
    if (in->tl && !(b.erow = new_event_rows(in->log))) {
        iodfg_error_set(err, IODFG_E_NOMEM, "out of memory for the heatmap");
        goto out;
    }
    if (make_grid(&b, o, err) || hm_fill(&b) || (in->tl && hm_peaks(&b, err))) {
        goto out;
    }
    hm_finish(&b);
    rc = 0;
out:
    hm_build_fini(&b);
    if (rc) {
        iodfg_heatmap_fini(hm);
    }
    return rc;
}
