/* SPDX-License-Identifier: MIT */
/* The offset map's numbers as TSV (one line per point) and JSON. */
#include "config.h"

#include <string.h>

#include "iodfg/buf.h"
#include "iodfg/json.h"
#include "iodfg/metrics.h"
#include "iodfg/offsetmap.h"
#include "iodfg/picture.h"
#include "iodfg/sanitize.h"
#include "iodfg/strpool.h"

static const char *band_name(const struct iodfg_offsetmap *om, uint8_t band)
{
    return om->nbands < 2 ? "" : band ? "R" : "G";
}

int iodfg_offsetmap_tsv(struct iodfg_buf *out, const struct iodfg_offsetmap *om)
{
    iodfg_buf_addf(out, "case\tband\top\tstart_ns\tdur_ns\toffset\tlength\tsource\toverlap\n");
    for (size_t i = 0; i < om->npoints; i++) {
        const struct iodfg_offset_point *p = &om->points[i];
        const char *name = iodfg_offsetmap_case_name(om, p->row);
        iodfg_sanitize_tsv(out, name, strlen(name));
        iodfg_buf_addf(out, "\t%s\t%s\t%lld\t%lld\t%lld\t%lld\t%s\t%d\n",
                       band_name(om, om->cases[p->row].band), p->write ? "write" : "read",
                       (long long)p->start_ns, (long long)p->dur_ns, (long long)p->offset,
                       (long long)p->length,
                       iodfg_offset_source_name((enum iodfg_offset_source)p->source), p->overlap);
    }
    return out->failed ? -1 : 0;
}

static void json_dir(struct iodfg_buf *out, const char *key, const struct iodfg_offsetmap_dir *d)
{
    iodfg_buf_addf(out, ",\"%s\":{\"pattern\":\"%s\"", key, iodfg_pattern_name(d->pattern));
    for (int s = 0; s < IODFG_OFFSET__N; s++) {
        const char *n = iodfg_offset_source_name((enum iodfg_offset_source)s);
        iodfg_buf_addf(out, ",\"%s\":%llu,\"%s_bytes\":%lld", n, (unsigned long long)d->n[s], n,
                       (long long)d->bytes[s]);
    }
    iodfg_buf_addf(out, ",\"consecutive\":%llu,\"forward\":%llu,\"backward\":%llu}",
                   (unsigned long long)d->consecutive, (unsigned long long)d->forward,
                   (unsigned long long)d->backward);
}

static void json_cases(struct iodfg_buf *out, const struct iodfg_offsetmap *om)
{
    iodfg_buf_add(out, ",\"cases\":[", 10);
    for (uint32_t r = 0; r < om->ncases; r++) {
        const struct iodfg_offsetmap_case *c = &om->cases[r];
        iodfg_buf_add(out, r ? ",{\"case\":" : "{\"case\":", r ? 9 : 8);
        iodfg_json_cstr(out, iodfg_offsetmap_case_name(om, r));
        iodfg_buf_addf(out, ",\"band\":\"%s\"", band_name(om, c->band));
        json_dir(out, "read", &c->dir[IODFG_DIR_READ]);
        json_dir(out, "write", &c->dir[IODFG_DIR_WRITE]);
        iodfg_json_member_i64(out, "overlap_bytes", c->overlap_bytes);
        iodfg_buf_add(out, "}", 1);
    }
    iodfg_buf_add(out, "]", 1);
}

static void json_points(struct iodfg_buf *out, const struct iodfg_offsetmap *om)
{
    iodfg_buf_add(out, ",\"points\":[", 11);
    for (size_t i = 0; i < om->npoints; i++) {
        const struct iodfg_offset_point *p = &om->points[i];
        iodfg_buf_addf(out,
                       "%s{\"case\":%u,\"op\":\"%s\",\"start_ns\":%lld,\"dur_ns\":%lld,"
                       "\"offset\":%lld,\"length\":%lld,\"source\":\"%s\",\"overlap\":%s}",
                       i ? "," : "", p->row, p->write ? "write" : "read", (long long)p->start_ns,
                       (long long)p->dur_ns, (long long)p->offset, (long long)p->length,
                       iodfg_offset_source_name((enum iodfg_offset_source)p->source),
                       p->overlap ? "true" : "false");
    }
    iodfg_buf_add(out, "]", 1);
}

int iodfg_offsetmap_json(struct iodfg_buf *out, const struct iodfg_offsetmap *om,
                         const struct iodfg_picture_meta *meta)
{
    iodfg_buf_add(out, "{\"view\":\"offsets\"", 17);
    iodfg_picture_json_meta(out, meta, om->clock);
    iodfg_buf_add(out, ",\"file\":", 8);
    iodfg_json_cstr(out, om->names ? iodfg_strpool_get(om->names, om->name) : "");
    iodfg_json_member_i64(out, "extent", om->extent);
    iodfg_json_member_i64(out, "from_ns", om->t_from);
    iodfg_json_member_i64(out, "to_ns", om->t_to);
    iodfg_buf_addf(out, ",\"handles\":%s,\"cases_other_clock\":%u,\"cases_outside_groups\":%u",
                   om->handles ? "true" : "false", om->clock_dropped, om->outside_groups);
    json_dir(out, "read", &om->file[IODFG_DIR_READ]);
    json_dir(out, "write", &om->file[IODFG_DIR_WRITE]);
    iodfg_json_member_i64(out, "write_bytes", om->write_bytes);
    iodfg_json_member_i64(out, "union_bytes", om->union_bytes);
    iodfg_buf_addf(out, ",\"union_ranges\":%llu", (unsigned long long)om->union_ranges);
    iodfg_json_member_i64(out, "overlap_bytes", om->overlap_bytes);
    iodfg_buf_add(out, ",\"overlaps\":[", 13);
    for (size_t i = 0; i < om->noverlaps; i++) {
        const struct iodfg_offset_overlap *o = &om->overlaps[i];
        iodfg_buf_addf(out, "%s{\"lo\":%lld,\"hi\":%lld,\"cases\":[%u,%u]}", i ? "," : "",
                       (long long)o->lo, (long long)o->hi, o->a, o->b);
    }
    iodfg_buf_add(out, "]", 1);
    json_cases(out, om);
    json_points(out, om);
    iodfg_buf_add(out, "}\n", 2);
    return out->failed ? -1 : 0;
}
