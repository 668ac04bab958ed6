/* SPDX-License-Identifier: MIT */
/* El Sayed et al. 2016 on server-side counters (Eq. 1 resampling) and the ASCII bandwidth/IOPS
 * chart. */
#include "config.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "iodfg/buf.h"
#include "iodfg/counters.h"
#include "iodfg/error.h"
#include "iodfg/metrics.h"

/* ---- counters ---- */

// Interpolated cumulative value at each grid edge k = 0..nb, walking the samples once.
static void resample(const double *ts, const double *vs, size_t n, double t0, double dt,
                     uint32_t nb, double *edge)
{
    size_t i = 0;
    for (uint32_t k = 0; k <= nb; k++) {
        double t = t0 + dt * k;
        while (i + 1 < n && ts[i + 1] <= t) {
            i++;
        }
        if (n == 0) {
            edge[k] = 0;
        } else if (t <= ts[0]) {
            edge[k] = vs[0];
        } else if (i + 1 >= n) {
            edge[k] = vs[n - 1];
        } else { // Eq. (1) between samples i and i+1
            edge[k] = vs[i] + (t - ts[i]) / (ts[i + 1] - ts[i]) * (vs[i + 1] - vs[i]);
        }
    }
}

int iodfg_binned_from_counters(struct iodfg_binned *b, const struct iodfg_counters *c,
                               const struct iodfg_bin_opts *o, struct iodfg_error *err)
{
    iodfg_binned_fini(b);
    double lo = INFINITY, hi = -INFINITY;
    for (uint32_t s = 0; s < c->nservers; s++) {
        if (c->first[s + 1] > c->first[s]) {
            lo = fmin(lo, c->t_s[c->first[s]]);
            hi = fmax(hi, c->t_s[c->first[s + 1] - 1]);
        }
    }
    int64_t span = lo <= hi ? (int64_t)llround((hi - lo) * 1e9) : 0;
    int64_t dt = o->dt_ns > 0 ? o->dt_ns : iodfg_metrics_default_dt(span);
    uint64_t nb = lo <= hi ? (uint64_t)(span / dt) + (span % dt != 0) : 0;
    if (lo <= hi && nb == 0) {
        nb = 1;
    }
    if (nb > (1u << 24)) {
        return iodfg_error_set(err, IODFG_E_LIMIT,
                               "%llu bins of %lld ns is too many; choose a larger --dt",
                               (unsigned long long)nb, (long long)dt);
    }
    if (iodfg_binned_alloc(b, c->nservers, (uint32_t)nb, err)) {
        return -1;
    }
    b->t0_ns = lo <= hi ? (int64_t)llround(lo * 1e9) : 0;
    b->dt_ns = dt;
    b->span_ns = span;
    double *edge = malloc(((size_t)nb + 1) * sizeof(*edge));
    if (!edge) {
        iodfg_binned_fini(b);
        return iodfg_error_set(err, IODFG_E_NOMEM, NULL);
    }
    static const int src[4] = {IODFG_CTR_BYTES_READ, IODFG_CTR_BYTES_WRITTEN, IODFG_CTR_READ_OPS,
                               IODFG_CTR_WRITE_OPS};
    for (uint32_t s = 0; s < c->nservers; s++) {
        if (!(b->server[s] = strdup(c->server[s]))) {
            free(edge);
            iodfg_binned_fini(b);
            return iodfg_error_set(err, IODFG_E_NOMEM, NULL);
        }
        size_t f = c->first[s], n = c->first[s + 1] - f;
        for (int q = 0; q < 4; q++) {
            resample(c->t_s + f, c->v[src[q]] + f, n, lo, (double)dt / 1e9, (uint32_t)nb, edge);
            double *out = (q < 2 ? b->bytes[q] : b->ops[q - 2]) + (size_t)s * nb;
            for (uint32_t k = 0; k < nb; k++) {
                out[k] = edge[k + 1] - edge[k];
            }
        }
    }
    free(edge);
    iodfg_binned_finish(b, o->threshold);
    return 0;
}

/* ---- chart ---- */

// The largest value of the bins shown in column x of width columns.
static double column_max(const double *v, uint32_t nb, int x, int width)
{
    uint64_t a = (uint64_t)x * nb / (uint64_t)width, z = (uint64_t)(x + 1) * nb / (uint64_t)width;
    if (z <= a) {
        z = a + 1;
    }
    double m = 0;
    for (uint64_t i = a; i < z && i < nb; i++) {
        m = v[i] > m ? v[i] : m;
    }
    return m;
}

static int bar_height(double v, double max, int rows)
{
    if (v <= 0 || max <= 0 || rows <= 0) {
        return 0;
    }
    int h = (int)ceil(v / max * rows - 1e-9);
    return h < 1 ? 1 : h > rows ? rows : h;
}

double iodfg_binned_chart_cells(const struct iodfg_binned *b, int quantity, int width, int height,
                                uint8_t *cells)
{
    if (width <= 0 || height < 3) {
        return 0;
    }
    memset(cells, IODFG_CELL_EMPTY, (size_t)width * (size_t)height);
    int up = (height - 1) / 2, axis = up, down = height - 1 - up;
    memset(cells + (size_t)axis * (size_t)width, IODFG_CELL_AXIS, (size_t)width);
    const double *r = quantity ? b->total_ops[IODFG_DIR_READ] : b->total_bytes[IODFG_DIR_READ];
    const double *w = quantity ? b->total_ops[IODFG_DIR_WRITE] : b->total_bytes[IODFG_DIR_WRITE];
    if (!b->nbins || !r || !w) {
        return 0;
    }
    double max = 0;
    for (uint32_t i = 0; i < b->nbins; i++) {
        max = fmax(max, fmax(r[i], w[i]));
    }
    for (int x = 0; x < width; x++) {
        int hr = bar_height(column_max(r, b->nbins, x, width), max, up);
        int hw = bar_height(column_max(w, b->nbins, x, width), max, down);
        for (int k = 0; k < hr; k++) {
            cells[(size_t)(axis - 1 - k) * (size_t)width + (size_t)x] = IODFG_CELL_READ;
        }
        for (int k = 0; k < hw; k++) {
            cells[(size_t)(axis + 1 + k) * (size_t)width + (size_t)x] = IODFG_CELL_WRITE;
        }
    }
    return max / ((double)b->dt_ns / 1e9);
}

int iodfg_binned_chart(struct iodfg_buf *out, const struct iodfg_binned *b, int quantity, int width,
                       int height)
{
    if (width <= 0 || height < 3) {
        return -1;
    }
    uint8_t *cells = malloc((size_t)width * (size_t)height);
    char *line = malloc((size_t)width + 1);
    if (!cells || !line) {
        free(cells);
        free(line);
        return -1;
    }
    iodfg_binned_chart_cells(b, quantity, width, height, cells);
    static const char glyph[] = {' ', '#', '#', '-'};
    for (int y = 0; y < height; y++) {
        for (int x = 0; x < width; x++) {
            line[x] = glyph[cells[(size_t)y * (size_t)width + (size_t)x] & 3];
        }
        line[width] = '\n';
        iodfg_buf_add(out, line, (size_t)width + 1);
    }
    free(cells);
    free(line);
    return out->failed ? -1 : 0;
}
