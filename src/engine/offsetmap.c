/* SPDX-License-Identifier: MIT */
/* The offset map's names, the data files of a selection, and the access patterns of a file from
 * iodfg/access.h (the same counts the characterisation and the insights give). */
#include "config.h"

#include "iodfg/offsetmap.h"

#include <stdlib.h>
#include <string.h>

#include "iodfg/access.h"
#include "iodfg/error.h"
#include "iodfg/mapping.h"
#include "iodfg/metrics.h"
#include "iodfg/picture.h"
#include "iodfg/strpool.h"
#include "iodfg/trace.h"

#include "offsetmap_priv.h"

static const char *const source_names[IODFG_OFFSET__N] = {"known", "inferred", "unknown"};
static const char *const pattern_names[IODFG_PATTERN__N] = {"none", "sequential", "strided",
                                                            "random"};

const char *iodfg_offset_source_name(enum iodfg_offset_source s)
{
    return (unsigned)s < IODFG_OFFSET__N ? source_names[s] : "?";
}

const char *iodfg_pattern_name(enum iodfg_pattern p)
{
    return (unsigned)p < IODFG_PATTERN__N ? pattern_names[p] : "?";
}

void iodfg_offsetmap_init(struct iodfg_offsetmap *om)
{
    memset(om, 0, sizeof(*om));
}

void iodfg_offsetmap_fini(struct iodfg_offsetmap *om)
{
    free(om->points);
    free(om->cases);
    free(om->overlaps);
    iodfg_strpool_free(om->names);
    memset(om, 0, sizeof(*om));
}

const char *iodfg_offsetmap_case_name(const struct iodfg_offsetmap *om, uint32_t row)
{
    return row < om->ncases && om->names ? iodfg_strpool_get(om->names, om->cases[row].name) : "";
}

/* A file whose offsets mean something: a regular file outside /proc, /sys and /dev. */
static int is_data_file(const struct iodfg_key *k, const char *path)
{
    return k->kind == IODFG_PATH_FILE && k->scope != IODFG_SCOPE_VIRTUAL &&
           strncmp(path, "/proc/", 6) != 0 && strncmp(path, "/sys/", 5) != 0 &&
           strncmp(path, "/dev/", 5) != 0;
}

static int cmp_path(const void *x, const void *y)
{
    const struct iodfg_offsetmap_file *a = x, *b = y;
    return (a->path > b->path) - (a->path < b->path);
}

/* A file row with its name, for the order most bytes first, then by name. */
struct named {
    struct iodfg_offsetmap_file f;
    const char *name;
};

static int cmp_bytes(const void *x, const void *y)
{
    const struct named *a = x, *b = y;
    if (a->f.bytes != b->f.bytes) {
        return a->f.bytes > b->f.bytes ? -1 : 1;
    }
    return strcmp(a->name, b->name);
}

/* Sort f[0..n) most bytes first. -1 when out of memory. */
static int sort_files(struct iodfg_offsetmap_file *f, size_t n, const struct iodfg_strpool *pool)
{
    struct named *t = malloc((n + 1) * sizeof(*t));
    if (!t) {
        return -1;
    }
    for (size_t i = 0; i < n; i++) {
        t[i] = (struct named){f[i], iodfg_strpool_get(pool, f[i].path)};
    }
    qsort(t, n, sizeof(*t), cmp_bytes);
    for (size_t i = 0; i < n; i++) {
        f[i] = t[i].f;
    }
    free(t);
    return 0;
}

int iodfg_offsetmap_files(const struct iodfg_picture_input *in, struct iodfg_offsetmap_file **out,
                          size_t *n, struct iodfg_error *err)
{
    const struct iodfg_eventlog *log = in->log;
    const struct iodfg_columns *col = iodfg_eventlog_columns(log);
    uint32_t nk = iodfg_eventlog_key_count(log), nc = iodfg_eventlog_case_count(log);
    struct iodfg_offsetmap_file *f = calloc((size_t)nk + 1, sizeof(*f));
    uint8_t *kf = malloc((size_t)nk + 1), *band = malloc((size_t)nc + 1);
    struct om_cases cs;
    *out = NULL;
    *n = 0;
    if (!f || !kf || !band ||
        iodfg_picture_cases(in, band, &cs.nbands, &cs.clock, &cs.clock_dropped,
                            &cs.outside_groups)) {
        free(f);
        free(kf);
        free(band);
        return iodfg_error_set(err, IODFG_E_NOMEM, "out of memory for the offset map");
    }
    iodfg_metrics_key_flags(log, kf);
    for (uint32_t c = 0; c < nc; c++) { // bytes and calls per key
        uint64_t lo, hi;
        if (band[c] == IODFG_PICTURE_OFF || !iodfg_trace_case_range(log, in->sel, c, &lo, &hi)) {
            continue;
        }
        for (uint64_t e = lo; e < hi; e++) {
            uint32_t k = col->key[e];
            if ((kf[k] & (IODFG_IO_READ | IODFG_IO_WRITE)) && om_counted(in, k) &&
                col->size[e] != IODFG_UNKNOWN && col->size[e] > 0) {
                f[k].bytes = iodfg_sat_add(f[k].bytes, col->size[e]);
                f[k].calls++;
            }
        }
    }
    const struct iodfg_key *keys = iodfg_eventlog_keys(log);
    const struct iodfg_strpool *pool = iodfg_eventlog_pool(log);
    size_t m = 0;
    for (uint32_t k = 0; k < nk; k++) { // data files only, then one row per path
        if (f[k].bytes > 0 && is_data_file(&keys[k], iodfg_strpool_get(pool, keys[k].path))) {
            f[m++] = (struct iodfg_offsetmap_file){keys[k].path, f[k].bytes, f[k].calls};
        }
    }
    qsort(f, m, sizeof(*f), cmp_path);
    size_t w = 0;
    for (size_t i = 0; i < m; i++) {
        if (w && f[w - 1].path == f[i].path) {
            f[w - 1].bytes = iodfg_sat_add(f[w - 1].bytes, f[i].bytes);
            f[w - 1].calls += f[i].calls;
        } else {
            f[w++] = f[i];
        }
    }
    free(kf);
    free(band);
    if (sort_files(f, w, pool)) {
        free(f);
        return iodfg_error_set(err, IODFG_E_NOMEM, "out of memory for the offset map");
    }
    *out = f;
    *n = w;
    return 0;
}

static enum iodfg_pattern name_pattern(const struct iodfg_offsetmap_dir *d)
{
    uint64_t k = d->consecutive + d->forward + d->backward;
    if (!k) {
        return IODFG_PATTERN_NONE;
    }
    if (d->backward * 10 >= k) {
        return IODFG_PATTERN_RANDOM;
    }
    return d->forward * 10 >= k ? IODFG_PATTERN_STRIDED : IODFG_PATTERN_SEQUENTIAL;
}

int om_patterns(struct om_build *x, struct iodfg_error *err)
{
    struct iodfg_offsetmap *om = x->om;
    const struct iodfg_mapping *map = x->in->map;
    struct iodfg_mapping focus = *map; // the mapping with the focus applied
    uint32_t *act = malloc(((size_t)map->nkeys + 1) * sizeof(*act));
    if (!act) {
        return iodfg_error_set(err, IODFG_E_NOMEM, "out of memory for the offset map");
    }
    for (uint32_t k = 0; k < map->nkeys; k++) {
        act[k] = om_counted(x->in, k) ? map->activity_of_key[k] : IODFG_NO_ACTIVITY;
    }
    focus.activity_of_key = act;
    struct iodfg_access ac;
    iodfg_access_init(&ac);
    uint8_t *on = malloc((size_t)x->ncases_log + 1);
    int rc = -1;
    if (on) {
        for (uint32_t c = 0; c < x->ncases_log; c++) {
            on[c] = x->row_of[c] != UINT32_MAX; // the cases that read or write the file
        }
        struct iodfg_selection sel = *x->in->sel;
        sel.case_on = on;
        rc = iodfg_access_build(&ac, x->in->log, &focus, &sel, 4096, NULL, err);
    } else {
        iodfg_error_set(err, IODFG_E_NOMEM, "out of memory for the offset map");
    }
    for (size_t i = 0; rc == 0 && i < ac.nfiles; i++) {
        if (ac.files[i].path != om->path) {
            continue;
        }
        struct iodfg_offsetmap_case *cs = &om->cases[x->row_of[ac.files[i].case_idx]];
        for (int d = 0; d < 2; d++) {
            const struct iodfg_access_dir *a = &ac.files[i].row.dir[d];
            cs->dir[d].consecutive += a->consecutive;
            cs->dir[d].forward += a->sequential;
            cs->dir[d].backward += a->random;
        }
    }
    for (uint32_t r = 0; rc == 0 && r < om->ncases; r++) {
        for (int d = 0; d < 2; d++) {
            struct iodfg_offsetmap_dir *fd = &om->file[d], *cd = &om->cases[r].dir[d];
            cd->pattern = name_pattern(cd);
            fd->consecutive += cd->consecutive;
            fd->forward += cd->forward;
            fd->backward += cd->backward;
            for (int s = 0; s < IODFG_OFFSET__N; s++) {
                fd->n[s] += cd->n[s];
                fd->bytes[s] = iodfg_sat_add(fd->bytes[s], cd->bytes[s]);
            }
        }
    }
    om->file[0].pattern = name_pattern(&om->file[0]);
    om->file[1].pattern = name_pattern(&om->file[1]);
    iodfg_access_fini(&ac);
    free(act);
    free(on);
    return rc;
}
