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

static void json_i64_array(struct iodfg_json *j, const char *key, const int64_t *v, uint32_t n)
{
    iodfg_json_key(j, key);
    iodfg_json_array(j);
    for (uint32_t i = 0; i < n; i++) {
        iodfg_json_i64(j, v[i]);
    }
    iodfg_json_end(j);
}

static void json_row(struct iodfg_json *j, const struct iodfg_heatmap *hm, uint32_t r)
{
    const struct iodfg_heatmap_row *row = &hm->row[r];
    size_t base = (size_t)r * hm->nbins;
    iodfg_json_object(j);
    struct iodfg_buf label;
    iodfg_buf_init(&label);
    iodfg_heatmap_row_label(hm, r, &label);
    iodfg_json_key(j, "label");
    iodfg_json_string(j, label.data ? label.data : "", label.len);
    iodfg_buf_fini(&label);
    iodfg_json_put_text(j, "band", band_name(hm, row->band));
    iodfg_json_key(j, "members");
    iodfg_json_array(j);
    for (uint32_t i = 0; i < row->count; i++) {
        iodfg_json_text(j, iodfg_heatmap_src_name(hm, row->first + i));
    }
    iodfg_json_end(j);
    iodfg_json_put_known(j, "bytes_total", row->bytes);
    iodfg_json_put_known(j, "busy_total_ns", row->busy_ns);
    iodfg_json_put_u64(j, "calls_total", row->calls);
    json_i64_array(j, "bytes", hm->bytes + base, hm->nbins);
    json_i64_array(j, "busy_ns", hm->busy_ns + base, hm->nbins);
    iodfg_json_key(j, "calls");
    iodfg_json_array(j);
    for (uint32_t i = 0; i < hm->nbins; i++) {
        iodfg_json_u64(j, hm->calls[base + i]);
    }
    iodfg_json_end(j);
    if (hm->peak) {
        iodfg_json_key(j, "peak");
        iodfg_json_array(j);
        for (uint32_t i = 0; i < hm->nbins; i++) {
            iodfg_json_u64(j, hm->peak[base + i]);
        }
        iodfg_json_end(j);
    }
    iodfg_json_end(j);
}

int iodfg_heatmap_json(struct iodfg_buf *out, const struct iodfg_heatmap *hm,
                       const struct iodfg_picture_meta *meta)
{
    struct iodfg_json j;
    iodfg_json_init(&j, out);
    iodfg_json_object(&j);
    iodfg_json_put_text(&j, "view", "heatmap");
    iodfg_picture_json_meta(&j, meta, hm->clock);
    iodfg_json_put_text(&j, "by", iodfg_heatmap_by_name(hm->by));
    iodfg_json_put_u64(&j, "bands", hm->nbands);
    iodfg_json_put_u64(&j, "per_row", hm->per_row);
    iodfg_json_put_u64(&j, "sources", hm->nsrc);
    iodfg_json_put_known(&j, "from_ns", hm->from_ns);
    iodfg_json_put_known(&j, "to_ns", hm->to_ns);
    iodfg_json_put_known(&j, "span_from_ns", hm->span_from_ns);
    iodfg_json_put_known(&j, "span_to_ns", hm->span_to_ns);
    json_i64_array(&j, "edges_ns", hm->edge, hm->nbins + 1);
    iodfg_json_put_known(&j, "bytes_total", hm->bytes_total);
    iodfg_json_put_known(&j, "busy_total_ns", hm->busy_total_ns);
    iodfg_json_put_u64(&j, "calls_total", hm->calls_total);
    iodfg_json_put_u64(&j, "events", hm->events);
    iodfg_json_put_u64(&j, "events_outside", hm->events_outside);
    iodfg_json_put_u64(&j, "zero_duration", hm->zero_dur);
    iodfg_json_put_u64(&j, "cases_other_clock", hm->clock_dropped);
    iodfg_json_put_u64(&j, "cases_outside_groups", hm->outside_groups);
    iodfg_json_key(&j, "rows");
    iodfg_json_array(&j);
    for (uint32_t r = 0; r < hm->nrows; r++) {
        json_row(&j, hm, r);
    }
    iodfg_json_end(&j);
    iodfg_json_end(&j);
    iodfg_buf_add(out, "\n", 1);
    return out->failed ? -1 : 0;
}
