/* SPDX-License-Identifier: MIT */
/* The heatmap's names, cells, labels and the exact share of a call's bytes. */
#include "config.h"

#include "iodfg/heatmap.h"

#include <ctype.h>
#include <stdlib.h>
#include <string.h>

#include "iodfg/buf.h"
#include "iodfg/strpool.h"

static const char *const by_names[IODFG_HEATMAP__NBY] = {"case", "host", "cid", "activity"};
static const char *const metric_names[IODFG_HM__N] = {"bytes", "busy", "calls"};

const char *iodfg_heatmap_by_name(enum iodfg_heatmap_by by)
{
    return (unsigned)by < IODFG_HEATMAP__NBY ? by_names[by] : "?";
}

int iodfg_heatmap_by_parse(const char *s, enum iodfg_heatmap_by *by)
{
    for (int i = 0; i < IODFG_HEATMAP__NBY; i++) {
        if (!strcmp(s, by_names[i])) {
            *by = (enum iodfg_heatmap_by)i;
            return 0;
        }
    }
    return -1;
}

const char *iodfg_heatmap_metric_name(enum iodfg_heatmap_metric m)
{
    return (unsigned)m < IODFG_HM__N ? metric_names[m] : "?";
}

int iodfg_heatmap_metric_parse(const char *s, enum iodfg_heatmap_metric *m)
{
    for (int i = 0; i < IODFG_HM__N; i++) {
        if (!strcmp(s, metric_names[i])) {
            *m = (enum iodfg_heatmap_metric)i;
            return 0;
        }
    }
    return -1;
}

void iodfg_heatmap_init(struct iodfg_heatmap *hm)
{
    memset(hm, 0, sizeof(*hm));
}

void iodfg_heatmap_fini(struct iodfg_heatmap *hm)
{
    free(hm->edge);
    free(hm->src);
    free(hm->row);
    free(hm->bytes);
    free(hm->busy_ns);
    free(hm->calls);
    free(hm->peak);
    iodfg_strpool_free(hm->names);
    memset(hm, 0, sizeof(*hm));
}

int64_t iodfg_heatmap_cell(const struct iodfg_heatmap *hm, uint32_t row, uint32_t bin,
                           enum iodfg_heatmap_metric m)
{
    if (row >= hm->nrows || bin >= hm->nbins) {
        return 0;
    }
    size_t i = (size_t)row * hm->nbins + bin;
    switch (m) {
    case IODFG_HM_BYTES:
        return hm->bytes[i];
    case IODFG_HM_BUSY:
        return hm->busy_ns[i];
    case IODFG_HM_CALLS:
        return hm->calls[i] > INT64_MAX ? INT64_MAX : (int64_t)hm->calls[i];
    case IODFG_HM__N:
        break;
    }
    return 0;
}

const char *iodfg_heatmap_src_name(const struct iodfg_heatmap *hm, uint32_t i)
{
    return i < hm->nsrc && hm->names ? iodfg_strpool_get(hm->names, hm->src[i].name) : "";
}

int iodfg_heatmap_row_label(const struct iodfg_heatmap *hm, uint32_t row, struct iodfg_buf *out)
{
    if (row >= hm->nrows) {
        return 0;
    }
    const struct iodfg_heatmap_row *r = &hm->row[row];
    const char *first = iodfg_heatmap_src_name(hm, r->first);
    if (r->count <= 1) {
        return iodfg_buf_addf(out, "%s", first);
    }
    // the last name without what it shares with the first, up to a word's start:
    // "rank_node1_18297 .. 18302 (4)"
    const char *last = iodfg_heatmap_src_name(hm, r->first + r->count - 1);
    size_t p = 0;
    while (first[p] && first[p] == last[p]) {
        p++;
    }
    while (p > 0 && (isalnum((unsigned char)last[p - 1]) || (unsigned char)last[p - 1] >= 0x80)) {
        p--;
    }
    return iodfg_buf_addf(out, "%s .. %s (%u)", first, last + p, r->count);
}

long iodfg_heatmap_bin_of(const struct iodfg_heatmap *hm, int64_t t)
{
    if (!hm->nbins || t < hm->from_ns || t >= hm->to_ns) {
        return -1;
    }
    double w = (double)hm->to_ns - (double)hm->from_ns;
    double g = ((double)t - (double)hm->from_ns) * hm->nbins / w;
    uint32_t i = g < 0 ? 0 : g >= hm->nbins ? hm->nbins - 1 : (uint32_t)g;
    while (i > 0 && hm->edge[i] > t) {
        i--;
    }
    while (i + 1 < hm->nbins && hm->edge[i + 1] <= t) {
        i++;
    }
    return (long)i;
}

int64_t iodfg_heatmap_share(int64_t a, int64_t b, int64_t c)
{
    if (c <= 0 || a <= 0 || b <= 0) {
        return 0;
    }
    if (b >= c) {
        return a;
    }
#ifdef __SIZEOF_INT128__
    return (int64_t)((unsigned __int128)a * (unsigned __int128)b / (unsigned __int128)c);
#else
    // a * b / c by long multiplication into two 64-bit halves, then division bit by bit
    uint64_t x = (uint64_t)a, y = (uint64_t)b, d = (uint64_t)c;
    uint64_t xl = x & 0xffffffffu, xh = x >> 32, yl = y & 0xffffffffu, yh = y >> 32;
    uint64_t ll = xl * yl, lh = xl * yh, hl = xh * yl, hh = xh * yh;
    uint64_t mid = (ll >> 32) + (lh & 0xffffffffu) + (hl & 0xffffffffu);
    uint64_t lo = (ll & 0xffffffffu) | (mid << 32);
    uint64_t hi = hh + (lh >> 32) + (hl >> 32) + (mid >> 32);
    uint64_t q = 0, r = hi % d; // the quotient fits in 64 bits because b < c
    for (int i = 63; i >= 0; i--) {
        int carry = (r >> 63) != 0;
        r = r << 1 | (lo >> i & 1);
        q <<= 1;
        if (carry || r >= d) {
            r -= d;
            q |= 1;
        }
    }
    return (int64_t)q;
#endif
}
