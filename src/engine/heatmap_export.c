/* SPDX-License-Identifier: MIT */
/* The heatmap's numbers as TSV (one line per displayed row and bin) and JSON. */
#include "config.h"

#include <string.h>

#include "iodfg/buf.h"
#include "iodfg/heatmap.h"
#include "iodfg/json.h"
#include "iodfg/picture.h"
#include "iodfg/sanitize.h"

static const char *band_name(const struct iodfg_heatmap *hm, uint8_t band)
{
    return hm->nbands < 2 ? "" : band ? "R" : "G";
}

int iodfg_heatmap_tsv(struct iodfg_buf *out, const struct iodfg_heatmap *hm)
{
    struct iodfg_buf label;
    iodfg_buf_init(&label);
    iodfg_buf_addf(out, "%s\tband\tmembers\tbin\tfrom_ns\tto_ns\tbytes\tbusy_ns\tcalls\tpeak\n",
                   iodfg_heatmap_by_name(hm->by));
    for (uint32_t r = 0; r < hm->nrows; r++) {
        const struct iodfg_heatmap_row *row = &hm->row[r];
        iodfg_buf_clear(&label);
        iodfg_heatmap_row_label(hm, r, &label);
        for (uint32_t i = 0; i < hm->nbins; i++) {
            size_t x = (size_t)r * hm->nbins + i;
            iodfg_sanitize_tsv(out, label.data ? label.data : "", label.len);
            iodfg_buf_addf(out, "\t%s\t%u\t%u\t%lld\t%lld\t%lld\t%lld\t%llu\t",
                           band_name(hm, row->band), row->count, i, (long long)hm->edge[i],
                           (long long)hm->edge[i + 1], (long long)hm->bytes[x],
                           (long long)hm->busy_ns[x], (unsigned long long)hm->calls[x]);
            if (hm->peak) {
                iodfg_buf_addf(out, "%u", hm->peak[x]);
            }
            iodfg_buf_add(out, "\n", 1);
        }
    }
    int failed = label.failed;
    iodfg_buf_fini(&label);
    return out->failed || failed ? -1 : 0;
}

static void json_i64_array(struct iodfg_buf *out, const char *key, const int64_t *v, uint32_t n)
{
    iodfg_buf_addf(out, ",\"%s\":[", key);
    for (uint32_t i = 0; i < n; i++) {
        iodfg_buf_addf(out, "%s%lld", i ? "," : "", (long long)v[i]);
    }
    iodfg_buf_add(out, "]", 1);
}

static void json_row(struct iodfg_buf *out, const struct iodfg_heatmap *hm, uint32_t r)
{
    const struct iodfg_heatmap_row *row = &hm->row[r];
    size_t base = (size_t)r * hm->nbins;
    iodfg_buf_add(out, "{\"label\":", 9);
    struct iodfg_buf label;
    iodfg_buf_init(&label);
    iodfg_heatmap_row_label(hm, r, &label);
    iodfg_json_str(out, label.data ? label.data : "", label.len);
    iodfg_buf_fini(&label);
    iodfg_buf_addf(out, ",\"band\":\"%s\",\"members\":[", band_name(hm, row->band));
    for (uint32_t i = 0; i < row->count; i++) {
        iodfg_buf_add(out, i ? "," : "", i ? 1 : 0);
        iodfg_json_cstr(out, iodfg_heatmap_src_name(hm, row->first + i));
    }
    iodfg_buf_add(out, "]", 1);
    iodfg_json_member_i64(out, "bytes_total", row->bytes);
    iodfg_json_member_i64(out, "busy_total_ns", row->busy_ns);
    iodfg_buf_addf(out, ",\"calls_total\":%llu", (unsigned long long)row->calls);
    json_i64_array(out, "bytes", hm->bytes + base, hm->nbins);
    json_i64_array(out, "busy_ns", hm->busy_ns + base, hm->nbins);
    iodfg_buf_add(out, ",\"calls\":[", 10);
    for (uint32_t i = 0; i < hm->nbins; i++) {
        iodfg_buf_addf(out, "%s%llu", i ? "," : "", (unsigned long long)hm->calls[base + i]);
    }
    iodfg_buf_add(out, "]", 1);
    if (hm->peak) {
        iodfg_buf_add(out, ",\"peak\":[", 9);
        for (uint32_t i = 0; i < hm->nbins; i++) {
            iodfg_buf_addf(out, "%s%u", i ? "," : "", hm->peak[base + i]);
        }
        iodfg_buf_add(out, "]", 1);
    }
    iodfg_buf_add(out, "}", 1);
}

int iodfg_heatmap_json(struct iodfg_buf *out, const struct iodfg_heatmap *hm,
                       const struct iodfg_picture_meta *meta)
{
    iodfg_buf_add(out, "{\"view\":\"heatmap\"", 17);
    iodfg_picture_json_meta(out, meta, hm->clock);
    iodfg_buf_addf(out, ",\"by\":\"%s\",\"bands\":%u,\"per_row\":%u,\"sources\":%u",
                   iodfg_heatmap_by_name(hm->by), hm->nbands, hm->per_row, hm->nsrc);
    iodfg_json_member_i64(out, "from_ns", hm->from_ns);
    iodfg_json_member_i64(out, "to_ns", hm->to_ns);
    iodfg_json_member_i64(out, "span_from_ns", hm->span_from_ns);
    iodfg_json_member_i64(out, "span_to_ns", hm->span_to_ns);
    json_i64_array(out, "edges_ns", hm->edge, hm->nbins + 1);
    iodfg_json_member_i64(out, "bytes_total", hm->bytes_total);
    iodfg_json_member_i64(out, "busy_total_ns", hm->busy_total_ns);
    iodfg_buf_addf(out,
                   ",\"calls_total\":%llu,\"events\":%llu,\"events_outside\":%llu,"
                   "\"zero_duration\":%llu,\"cases_other_clock\":%u,\"cases_outside_groups\":%u",
                   (unsigned long long)hm->calls_total, (unsigned long long)hm->events,
                   (unsigned long long)hm->events_outside, (unsigned long long)hm->zero_dur,
                   hm->clock_dropped, hm->outside_groups);
    iodfg_buf_add(out, ",\"rows\":[", 9);
    for (uint32_t r = 0; r < hm->nrows; r++) {
        iodfg_buf_add(out, r ? "," : "", r ? 1 : 0);
        json_row(out, hm, r);
    }
    iodfg_buf_add(out, "]}\n", 3);
    return out->failed ? -1 : 0;
}
