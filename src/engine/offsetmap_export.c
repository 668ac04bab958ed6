/* SPDX-License-Identifier: MIT */
/* The offset map's numbers as TSV (one line per point) and JSON. */
#include "config.h"

#include <stdio.h>
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

static void json_dir(struct iodfg_json *j, const char *key, const struct iodfg_offsetmap_dir *d)
{
    iodfg_json_key(j, key);
    iodfg_json_object(j);
    iodfg_json_put_text(j, "pattern", iodfg_pattern_name(d->pattern));
    for (int s = 0; s < IODFG_OFFSET__N; s++) {
        const char *n = iodfg_offset_source_name((enum iodfg_offset_source)s);
        char bytes_key[64];
        snprintf(bytes_key, sizeof bytes_key, "%s_bytes", n);
        iodfg_json_put_u64(j, n, d->n[s]);
        iodfg_json_put_i64(j, bytes_key, d->bytes[s]);
    }
    iodfg_json_put_u64(j, "consecutive", d->consecutive);
    iodfg_json_put_u64(j, "forward", d->forward);
    iodfg_json_put_u64(j, "backward", d->backward);
    iodfg_json_end(j);
}

static void json_cases(struct iodfg_json *j, const struct iodfg_offsetmap *om)
{
    iodfg_json_key(j, "cases");
    iodfg_json_array(j);
    for (uint32_t r = 0; r < om->ncases; r++) {
        const struct iodfg_offsetmap_case *c = &om->cases[r];
        iodfg_json_object(j);
        iodfg_json_put_text(j, "case", iodfg_offsetmap_case_name(om, r));
        iodfg_json_put_text(j, "band", band_name(om, c->band));
        json_dir(j, "read", &c->dir[IODFG_DIR_READ]);
        json_dir(j, "write", &c->dir[IODFG_DIR_WRITE]);
        iodfg_json_put_known(j, "overlap_bytes", c->overlap_bytes);
        iodfg_json_end(j);
    }
    iodfg_json_end(j);
}

static void json_points(struct iodfg_json *j, const struct iodfg_offsetmap *om)
{
    iodfg_json_key(j, "points");
    iodfg_json_array(j);
    for (size_t i = 0; i < om->npoints; i++) {
        const struct iodfg_offset_point *p = &om->points[i];
        iodfg_json_object(j);
        iodfg_json_put_u64(j, "case", p->row);
        iodfg_json_put_text(j, "op", p->write ? "write" : "read");
        iodfg_json_put_i64(j, "start_ns", p->start_ns);
        iodfg_json_put_i64(j, "dur_ns", p->dur_ns);
        iodfg_json_put_i64(j, "offset", p->offset);
        iodfg_json_put_i64(j, "length", p->length);
        iodfg_json_put_text(j, "source",
                            iodfg_offset_source_name((enum iodfg_offset_source)p->source));
        iodfg_json_key(j, "overlap");
        iodfg_json_bool(j, p->overlap);
        iodfg_json_end(j);
    }
    iodfg_json_end(j);
}

static void json_overlaps(struct iodfg_json *j, const struct iodfg_offsetmap *om)
{
    iodfg_json_key(j, "overlaps");
    iodfg_json_array(j);
    for (size_t i = 0; i < om->noverlaps; i++) {
        const struct iodfg_offset_overlap *o = &om->overlaps[i];
        iodfg_json_object(j);
        iodfg_json_put_i64(j, "lo", o->lo);
        iodfg_json_put_i64(j, "hi", o->hi);
        iodfg_json_key(j, "cases");
        iodfg_json_array(j);
        iodfg_json_u64(j, o->a);
        iodfg_json_u64(j, o->b);
        iodfg_json_end(j);
        iodfg_json_end(j);
    }
    iodfg_json_end(j);
}

int iodfg_offsetmap_json(struct iodfg_buf *out, const struct iodfg_offsetmap *om,
                         const struct iodfg_picture_meta *meta)
{
    struct iodfg_json j;
    iodfg_json_init(&j, out);
    iodfg_json_object(&j);
    iodfg_json_put_text(&j, "view", "offsets");
    iodfg_picture_json_meta(&j, meta, om->clock);
    iodfg_json_put_text(&j, "file", om->names ? iodfg_strpool_get(om->names, om->name) : "");
    iodfg_json_put_known(&j, "extent", om->extent);
    iodfg_json_put_known(&j, "from_ns", om->t_from);
    iodfg_json_put_known(&j, "to_ns", om->t_to);
    iodfg_json_key(&j, "handles");
    iodfg_json_bool(&j, om->handles);
    iodfg_json_put_u64(&j, "cases_other_clock", om->clock_dropped);
    iodfg_json_put_u64(&j, "cases_outside_groups", om->outside_groups);
    json_dir(&j, "read", &om->file[IODFG_DIR_READ]);
    json_dir(&j, "write", &om->file[IODFG_DIR_WRITE]);
    iodfg_json_put_known(&j, "write_bytes", om->write_bytes);
    iodfg_json_put_known(&j, "union_bytes", om->union_bytes);
    iodfg_json_put_u64(&j, "union_ranges", om->union_ranges);
    iodfg_json_put_known(&j, "overlap_bytes", om->overlap_bytes);
    json_overlaps(&j, om);
    json_cases(&j, om);
    json_points(&j, om);
    iodfg_json_end(&j);
    iodfg_buf_add(out, "\n", 1);
    return out->failed ? -1 : 0;
}
