/* SPDX-License-Identifier: MIT */
/* HDF5 store, reading side: checks, shared tables, cases in slabs, validation of every id. */
#include "config.h"

#include "iodfg/store.h"

#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include <hdf5.h>

#include "iodfg/error.h"
#include "iodfg/eventlog.h"
#include "iodfg/handles.h"
#include "iodfg/strpool.h"

#include "store_priv.h"

/* Longest string attribute accepted (damaged metadata could claim anything). */
#define MAX_STR_ATTR (1u << 20)

struct reader {
    const char *path;
    hid_t file, cases, mtype, ftype; // ftype: our events type as written, for a quick check
    uint64_t fsize; // bound for dataset sizes: we never compress, so rows*size <= file size
    uint32_t nstr;  // strings in the file's table; ids read must be below
    struct iodfg_strpool *pool;
    struct iodfg_eventlog *log;
    uint32_t nkeys;
    struct iodfg_case_info *cases_info;
    uint64_t *offsets;
    uint32_t ncases;
    uint32_t nhandles; // rows of /handles (0 in files before 1.1)
    struct iodfg_error *err;
};

/* IODFG_E_FORMAT with a printf-style context and HDF5's reason, if it has one. */
static int damaged(struct reader *r, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

static int damaged(struct reader *r, const char *fmt, ...)
{
    char buf[160];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(buf, sizeof(buf), fmt, ap);
    va_end(ap);
    return store_h5_error(r->err, IODFG_E_FORMAT, r->path, "%s", buf);
}

int iodfg_store_is_hdf5(const char *path)
{
    store_h5_quiet();
#if H5_VERSION_GE(1, 12, 0)
    htri_t t = H5Fis_accessible(path, H5P_DEFAULT);
#else
    htri_t t = H5Fis_hdf5(path);
#endif
    H5Eclear2(H5E_DEFAULT);
    return t > 0;
}

/* ---- attributes ------------------------------------------------------------------------------ */

/* A string attribute (fixed or variable length) as a malloc'd NUL-terminated copy.
 * 0, or -1 when unreadable (err set). */
static int read_str(struct reader *r, hid_t a, const char *name, char **out, size_t *len)
{
    hid_t t = a < 0 ? -1 : H5Aget_type(a);
    hid_t sp = a < 0 ? -1 : H5Aget_space(a);
    hid_t mt = -1;
    char *buf = NULL;
    int rc = -1;
    if (t < 0 || sp < 0 || H5Tget_class(t) != H5T_STRING || H5Sget_simple_extent_npoints(sp) != 1) {
        goto done;
    }
    mt = H5Tcopy(t);
    if (mt < 0) {
        goto done;
    }
    if (H5Tis_variable_str(t) > 0) {
        char *v = NULL;
        if (H5Aread(a, mt, &v) >= 0 && v) {
            size_t n = strnlen(v, MAX_STR_ATTR);
            buf = malloc(n + 1);
            if (buf) {
                memcpy(buf, v, n);
                buf[n] = '\0';
                rc = 0;
            }
        }
        H5free_memory(v);
    } else {
        size_t n = H5Tget_size(t);
        buf = n > 0 && n <= MAX_STR_ATTR ? calloc(n + 1, 1) : NULL;
        if (buf && H5Aread(a, mt, buf) >= 0) {
            rc = 0;
        }
    }
done:
    if (mt >= 0) {
        H5Tclose(mt);
    }
    if (sp >= 0) {
        H5Sclose(sp);
    }
    if (t >= 0) {
        H5Tclose(t);
    }
    if (rc) {
        free(buf);
        return damaged(r, "attribute %s is not a readable string", name);
    }
    *out = buf;
    *len = strlen(buf);
    return 0;
}

/* The same for an attribute of loc by name: 0 = found, 1 = absent, -1 = unreadable. */
static int get_str(struct reader *r, hid_t loc, const char *name, char **out, size_t *len)
{
    htri_t ex = H5Aexists(loc, name);
    if (ex <= 0) {
        return ex == 0 ? 1 : damaged(r, "cannot read attribute %s", name);
    }
    hid_t a = H5Aopen(loc, name, H5P_DEFAULT);
    int rc = read_str(r, a, name, out, len);
    if (a >= 0) {
        H5Aclose(a);
    }
    return rc;
}

/* A non-negative integer attribute. 0, or -1 when it is not one (err set). */
static int read_uint(struct reader *r, hid_t a, const char *name, uint64_t *v)
{
    hid_t t = a < 0 ? -1 : H5Aget_type(a);
    hid_t sp = a < 0 ? -1 : H5Aget_space(a);
    int rc = -1;
    if (t >= 0 && sp >= 0 && H5Tget_class(t) == H5T_INTEGER &&
        H5Sget_simple_extent_npoints(sp) == 1) {
        // Read signed values as signed so that a negative one is caught, not wrapped.
        long long s = 0;
        unsigned long long u = 0;
        if (H5Tget_sign(t) == H5T_SGN_NONE) {
            rc = H5Aread(a, H5T_NATIVE_ULLONG, &u) < 0 ? -1 : 0;
        } else if (H5Aread(a, H5T_NATIVE_LLONG, &s) >= 0 && s >= 0) {
            u = (unsigned long long)s;
            rc = 0;
        }
        *v = u;
    }
    if (sp >= 0) {
        H5Sclose(sp);
    }
    if (t >= 0) {
        H5Tclose(t);
    }
    return rc ? damaged(r, "attribute %s is not a non-negative integer", name) : 0;
}

/* The same by name. 0 = found, 1 = absent, -1 = bad (err set). */
static int get_uint(struct reader *r, hid_t loc, const char *name, uint64_t *v)
{
    htri_t ex = H5Aexists(loc, name);
    if (ex <= 0) {
        return ex == 0 ? 1 : damaged(r, "cannot read attribute %s", name);
    }
    hid_t a = H5Aopen(loc, name, H5P_DEFAULT);
    int rc = read_uint(r, a, name, v);
    if (a >= 0) {
        H5Aclose(a);
    }
    return rc;
}

/* ---- opening --------------------------------------------------------------------------------- */

/* Plain-file checks before HDF5 sees the file, so that the usual mistakes read well. */
static int check_file(struct reader *r)
{
    int fd = open(r->path, O_RDONLY | O_CLOEXEC);
    if (fd < 0) {
        iodfg_error_set(r->err, IODFG_E_IO, "cannot open: %s", strerror(errno));
        iodfg_error_at(r->err, r->path, 0, 0);
        return -1;
    }
    struct stat st;
    int rc = fstat(fd, &st);
    close(fd);
    if (rc != 0 || !S_ISREG(st.st_mode)) {
        iodfg_error_set(r->err, IODFG_E_IO, "not a regular file");
    } else if (st.st_size == 0) {
        iodfg_error_set(r->err, IODFG_E_FORMAT, "empty file, not an iodfg event log");
    } else if (!iodfg_store_is_hdf5(r->path)) {
        iodfg_error_set(r->err, IODFG_E_FORMAT,
                        "not an HDF5 file (a text trace? convert it with `iodfg convert`)");
    } else {
        r->fsize = (uint64_t)st.st_size;
        return 0;
    }
    iodfg_error_at(r->err, r->path, 0, 0);
    return -1;
}

static int open_log(struct reader *r, unsigned *version)
{
    store_h5_quiet();
    if (check_file(r)) {
        return -1;
    }
    r->file = H5Fopen(r->path, H5F_ACC_RDONLY, H5P_DEFAULT);
    if (r->file < 0) {
        return store_h5_error(r->err, IODFG_E_FORMAT, r->path, "damaged HDF5 file");
    }
    char *fmt = NULL;
    size_t len;
    int rc = get_str(r, r->file, "format", &fmt, &len);
    if (rc < 0) {
        return -1;
    }
    int ours = rc == 0 && strcmp(fmt, IODFG_STORE_FORMAT) == 0;
    free(fmt);
    if (!ours) {
        iodfg_error_set(r->err, IODFG_E_FORMAT,
                        "an HDF5 file but not an iodfg event log (no format=\"%s\" attribute)",
                        IODFG_STORE_FORMAT);
        iodfg_error_at(r->err, r->path, 0, 0);
        return -1;
    }
    uint64_t v;
    rc = get_uint(r, r->file, "version", &v);
    if (rc) {
        return rc < 0 ? -1 : damaged(r, "%s", "no version attribute");
    }
    if (v > IODFG_STORE_VERSION) {
        iodfg_error_set(r->err, IODFG_E_VERSION,
                        "made by a newer iodfg (format version %llu, this build reads %u)",
                        (unsigned long long)v, IODFG_STORE_VERSION);
        iodfg_error_at(r->err, r->path, 0, 0);
        return -1;
    }
    if (v != IODFG_STORE_VERSION) {
        iodfg_error_set(r->err, IODFG_E_FORMAT, "unknown format version %llu",
                        (unsigned long long)v);
        iodfg_error_at(r->err, r->path, 0, 0);
        return -1;
    }
    *version = (unsigned)v;
    return 0;
}

/* A whole 1-D dataset of unsigned integers read as mtype (esize bytes each); at most max
 * elements. *buf is malloc'd (never NULL on success). */
static int get_array(struct reader *r, const char *name, hid_t mtype, size_t esize, uint64_t max,
                     uint64_t *n, void **buf)
{
    htri_t ex = H5Lexists(r->file, name, H5P_DEFAULT);
    if (ex <= 0) {
        return damaged(r, ex == 0 ? "table %s is missing" : "cannot find table %s", name);
    }
    hid_t d = H5Dopen2(r->file, name, H5P_DEFAULT);
    hid_t t = d < 0 ? -1 : H5Dget_type(d);
    hid_t sp = d < 0 ? -1 : H5Dget_space(d);
    int rc = -1;
    hsize_t dims[1] = {0};
    if (t >= 0 && sp >= 0 && H5Tget_class(t) == H5T_INTEGER &&
        H5Sget_simple_extent_ndims(sp) == 1 && H5Sget_simple_extent_dims(sp, dims, NULL) == 1 &&
        dims[0] <= max && dims[0] <= r->fsize / H5Tget_size(t)) {
        *buf = malloc(dims[0] ? dims[0] * esize : 1);
        if (!*buf) {
            rc = iodfg_error_set(r->err, IODFG_E_NOMEM, NULL);
        } else if (dims[0] == 0 || H5Dread(d, mtype, H5S_ALL, H5S_ALL, H5P_DEFAULT, *buf) >= 0) {
            *n = dims[0];
            rc = 0;
        } else {
            free(*buf);
            *buf = NULL;
        }
    }
    if (sp >= 0) {
        H5Sclose(sp);
    }
    if (t >= 0) {
        H5Tclose(t);
    }
    if (d >= 0) {
        H5Dclose(d);
    }
    return rc == 0 || r->err->code ? rc : damaged(r, "table %s is unreadable or damaged", name);
}

static int load_strings(struct reader *r)
{
    void *bytes = NULL, *offsets = NULL;
    uint64_t nbytes = 0, noff = 0;
    int rc = -1;
    if (get_array(r, STORE_STR_BYTES, H5T_NATIVE_UINT8, 1, UINT64_MAX, &nbytes, &bytes) == 0 &&
        get_array(r, STORE_STR_OFFSETS, H5T_NATIVE_UINT64, 8, (uint64_t)UINT32_MAX, &noff,
                  &offsets) == 0) {
        if (noff < 2) {
            damaged(r, "%s", "string table is empty");
        } else {
            r->nstr = (uint32_t)(noff - 1);
            r->pool = iodfg_strpool_from_raw(bytes, nbytes, offsets, r->nstr, r->err);
            rc = r->pool ? 0 : -1;
            iodfg_error_at(r->err, r->path, 0, 0);
        }
    }
    free(bytes);
    free(offsets);
    return rc;
}

/* An optional table (new in a minor version): 1 when absent, else as get_array. */
static int get_optional(struct reader *r, const char *name, hid_t mtype, size_t esize,
                        uint64_t want, void **buf)
{
    htri_t ex = H5Lexists(r->file, name, H5P_DEFAULT);
    if (ex == 0) {
        return 1;
    }
    uint64_t n = 0;
    if (ex < 0 || get_array(r, name, mtype, esize, want, &n, buf)) {
        return ex < 0 ? damaged(r, "cannot find table %s", name) : -1;
    }
    return n == want ? 0 : damaged(r, "table %s has %llu entries, not %llu", name,
                                   (unsigned long long)n, (unsigned long long)want);
}

/* keys/layer, keys/fs, keys/fstype and keys/scope (since 1.1; absent = POSIX, unclassified). */
static int load_key_attrs(struct reader *r, uint64_t nk, void **layer, void **fs, void **fstype,
                          void **scope)
{
    if (nk == 0) {
        return 0;
    }
    void **bufs[] = {layer, fs, fstype};
    static const char *const names[] = {STORE_KEY_LAYER, STORE_KEY_FS, STORE_KEY_FSTYPE};
    for (int f = 0; f < 3; f++) {
        int rc = get_optional(r, names[f], H5T_NATIVE_UINT32, 4, nk, bufs[f]);
        if (rc < 0) {
            return -1;
        }
        for (uint64_t k = 0; rc == 0 && k < nk; k++) {
            if (((const uint32_t *)*bufs[f])[k] >= r->nstr) {
                return damaged(r, "%s: key %llu names a string out of range", names[f],
                               (unsigned long long)k);
            }
        }
    }
    int rc = get_optional(r, STORE_KEY_SCOPE, H5T_NATIVE_UINT8, 1, nk, scope);
    for (uint64_t k = 0; rc == 0 && k < nk; k++) {
        if (((const uint8_t *)*scope)[k] >= IODFG_SCOPE__N) {
            return damaged(r, "%s: key %llu has an unknown scope", STORE_KEY_SCOPE,
                           (unsigned long long)k);
        }
    }
    return rc < 0 ? -1 : 0;
}

static int load_keys(struct reader *r, unsigned columns)
{
    void *call = NULL, *path = NULL, *layer = NULL, *fs = NULL, *fstype = NULL, *scope = NULL;
    uint64_t nc = 0, np = 0;
    r->log = iodfg_eventlog_new_with_pool(columns, r->pool);
    r->pool = NULL; // the log owns it now, even when creation failed
    if (!r->log) {
        return iodfg_error_set(r->err, IODFG_E_NOMEM, NULL);
    }
    int rc = -1;
    if (get_array(r, STORE_KEY_CALL, H5T_NATIVE_UINT32, 4, UINT32_MAX - 1, &nc, &call) == 0 &&
        get_array(r, STORE_KEY_PATH, H5T_NATIVE_UINT32, 4, UINT32_MAX - 1, &np, &path) == 0) {
        rc = 0;
        if (nc != np) {
            rc = damaged(r, "%s", "key tables keys/call and keys/path differ in length");
        } else {
            rc = load_key_attrs(r, nc, &layer, &fs, &fstype, &scope);
        }
        const uint32_t *c = call, *p = path, *ly = layer, *f = fs, *ft = fstype;
        const uint8_t *sc = scope;
        for (uint32_t k = 0; rc == 0 && k < nc; k++) {
            uint32_t id;
            if (c[k] >= r->nstr || p[k] >= r->nstr) {
                iodfg_error_set(r->err, IODFG_E_FORMAT, "key %u names string %u of %u", k,
                                c[k] >= r->nstr ? c[k] : p[k], r->nstr);
                rc = -1;
            } else if (iodfg_eventlog_key_layer(r->log, c[k], p[k], ly ? ly[k] : 0, &id)) {
                rc = iodfg_error_set(r->err, IODFG_E_NOMEM, NULL);
            } else if (id != k) {
                rc = iodfg_error_set(r->err, IODFG_E_FORMAT, "key %u repeats key %u", k, id);
            } else if (f || ft || sc) {
                const struct iodfg_key *key = &iodfg_eventlog_keys(r->log)[k];
                iodfg_eventlog_key_set_fs(r->log, k, f ? f[k] : 0, ft ? ft[k] : 0,
                                          sc ? (enum iodfg_scope)sc[k]
                                             : (enum iodfg_scope)key->scope);
            }
        }
        r->nkeys = (uint32_t)nc;
    }
    iodfg_error_at(r->err, r->path, 0, 0);
    free(call);
    free(path);
    free(layer);
    free(fs);
    free(fstype);
    free(scope);
    return rc;
}

/* /handles (since 1.1): every row checked, then added to the log in order. */
static int load_handles(struct reader *r)
{
    htri_t ex = H5Lexists(r->file, STORE_HANDLES, H5P_DEFAULT);
    if (ex <= 0) {
        return ex == 0 ? 0 : damaged(r, "cannot find table %s", STORE_HANDLES);
    }
    hid_t d = H5Dopen2(r->file, STORE_HANDLES, H5P_DEFAULT);
    hid_t t = d < 0 ? -1 : H5Dget_type(d);
    hid_t sp = d < 0 ? -1 : H5Dget_space(d);
    hid_t mt = store_handle_type(0);
    hsize_t dims[1] = {0};
    struct iodfg_handle *hs = NULL;
    int rc = -1;
    if (t >= 0 && sp >= 0 && mt >= 0 && H5Tget_class(t) == H5T_COMPOUND &&
        H5Sget_simple_extent_ndims(sp) == 1 && H5Sget_simple_extent_dims(sp, dims, NULL) == 1 &&
        dims[0] < UINT32_MAX && dims[0] <= r->fsize / H5Tget_size(t)) {
        hs = malloc(dims[0] ? dims[0] * sizeof(*hs) : 1);
        if (!hs) {
            rc = iodfg_error_set(r->err, IODFG_E_NOMEM, NULL);
        } else if (dims[0] == 0 || H5Dread(d, mt, H5S_ALL, H5S_ALL, H5P_DEFAULT, hs) >= 0) {
            rc = 0;
        }
    }
    const char *bad = NULL;
    for (uint64_t i = 0; rc == 0 && i < dims[0]; i++) {
        const struct iodfg_handle *h = &hs[i];
        uint32_t id;
        if (h->case_id >= r->ncases) {
            bad = "case out of range";
        } else if (h->parent > i) {
            bad = "parent is not an earlier handle";
        } else if (h->path >= r->nstr || h->call >= r->nstr || h->flags >= r->nstr ||
                   h->layer >= r->nstr) {
            bad = "string id out of range";
        } else if (h->origin >= IODFG_HANDLE_ORIGIN__N) {
            bad = "unknown origin";
        } else if (iodfg_eventlog_handle_add(r->log, h, &id, r->err)) {
            rc = -1;
        }
        if (bad) {
            iodfg_error_set(r->err, IODFG_E_FORMAT, "damaged event log: handle %llu: %s",
                            (unsigned long long)i + 1, bad);
            iodfg_error_at(r->err, r->path, 0, 0);
            rc = -1;
        }
    }
    r->nhandles = (uint32_t)dims[0];
    if (rc && !r->err->code) {
        damaged(r, "table %s is unreadable or damaged", STORE_HANDLES);
    }
    free(hs);
    if (mt >= 0) {
        H5Tclose(mt);
    }
    if (sp >= 0) {
        H5Sclose(sp);
    }
    if (t >= 0) {
        H5Tclose(t);
    }
    if (d >= 0) {
        H5Dclose(d);
    }
    return rc;
}

/* ---- cases ----------------------------------------------------------------------------------- */

/* Case attributes are read in one pass over what the group holds (looking each expected name
 * up would cost a search per name); unknown ones, from newer minor versions, are skipped. */
struct case_scan {
    struct reader *r;
    struct iodfg_case_info *ci;
    uint64_t index;
    int has_name, has_index;
};

static int case_str_attr(struct case_scan *cs, hid_t a, const char *name, uint32_t *id)
{
    char *s = NULL;
    size_t len = 0;
    if (read_str(cs->r, a, name, &s, &len)) {
        return -1;
    }
    int rc = iodfg_strpool_intern(iodfg_eventlog_pool(cs->r->log), s, len, id);
    free(s);
    return rc ? iodfg_error_set(cs->r->err, IODFG_E_NOMEM, NULL) : 0;
}

/* The uint64 field of the case info named by an attribute, NULL for an unknown name. */
static uint64_t *case_uint_field(struct case_scan *cs, const char *name)
{
    if (strcmp(name, "lines") == 0) {
        return &cs->ci->lines;
    }
    if (strcmp(name, "bytes") == 0) {
        return &cs->ci->bytes;
    }
    if (strcmp(name, "index") == 0) {
        cs->has_index = 1;
        return &cs->index;
    }
    for (int c = 0; c < IODFG_COUNT__N; c++) {
        if (strcmp(name, iodfg_count_name((enum iodfg_count)c)) == 0) {
            return &cs->ci->counts[c];
        }
    }
    return NULL;
}

static int case_attr(struct case_scan *cs, hid_t a, const char *name)
{
    static const char *const strs[] = {"name", "cid", "host", "rid", "source"};
    uint32_t *ids[] = {&cs->ci->name, &cs->ci->cid, &cs->ci->host, &cs->ci->rid, &cs->ci->source};
    for (int i = 0; i < 5; i++) {
        if (strcmp(name, strs[i]) == 0) {
            cs->has_name |= i == 0;
            return case_str_attr(cs, a, name, ids[i]);
        }
    }
    uint64_t v;
    if (strcmp(name, "naming_id") == 0 || strcmp(name, "clock_id") == 0) {
        int naming = name[0] == 'n';
        if (read_uint(cs->r, a, name, &v)) {
            return -1;
        }
        if (v > (naming ? IODFG_NAMING_FILENAME : IODFG_CLOCK_EPOCH)) {
            return damaged(cs->r, "attribute %s is out of range", name);
        }
        if (naming) {
            cs->ci->naming = (enum iodfg_naming)v;
        } else {
            cs->ci->clock = (enum iodfg_clock)v;
        }
        return 0;
    }
    uint64_t *field = case_uint_field(cs, name);
    return field ? read_uint(cs->r, a, name, field) : 0;
}

static herr_t case_attr_cb(hid_t loc, const char *name, const H5A_info_t *info, void *ctx)
{
    (void)info;
    struct case_scan *cs = ctx;
    hid_t a = H5Aopen(loc, name, H5P_DEFAULT);
    if (a < 0) {
        damaged(cs->r, "cannot open attribute %s", name);
        return -1;
    }
    int rc = case_attr(cs, a, name);
    H5Aclose(a);
    return rc ? -1 : 0;
}

/* Read the attributes of case i (group g) into ci; checks its `index` when present. */
static int case_attrs(struct reader *r, hid_t g, uint32_t i, struct iodfg_case_info *ci)
{
    struct case_scan cs = {.r = r, .ci = ci};
    if (H5Aiterate2(g, H5_INDEX_NAME, H5_ITER_NATIVE, NULL, case_attr_cb, &cs) < 0) {
        return r->err->code ? -1 : damaged(r, "case %u: cannot read its attributes", i);
    }
    if (!cs.has_name) {
        return damaged(r, "case %u: attribute name is missing", i);
    }
    // `index` is for readers that list groups by name; creation order is what counts.
    if (cs.has_index && cs.index != i) {
        return damaged(r, "case %s is stored out of order",
                       iodfg_strpool_get(iodfg_eventlog_pool(r->log), ci->name));
    }
    return 0;
}

/* Whether t, the type of an events table, has every column as an integer. Our own layout is
 * recognised at once; other layouts (extra columns of a newer minor) member by member. */
static int events_type_ok(struct reader *r, hid_t t)
{
    static const char *const members[] = {"pid",  "call",   "start", "dur", "fp", "key",
                                          "size", "offset", "req",   "fd",  "err"};
    if (H5Tget_class(t) != H5T_COMPOUND) {
        return 0;
    }
    if (H5Tequal(t, r->ftype) > 0) {
        return 1;
    }
    for (size_t m = 0; m < sizeof(members) / sizeof(members[0]); m++) {
        int idx = H5Tget_member_index(t, members[m]);
        if (idx < 0 || H5Tget_member_class(t, (unsigned)idx) != H5T_INTEGER) {
            return 0;
        }
    }
    return 1;
}

/* Set err for case i: "case NAME: what" with the group's link name. */
static int case_error(struct reader *r, uint32_t i, const char *what)
{
    char link[128] = "?";
    H5Lget_name_by_idx(r->cases, ".", H5_INDEX_CRT_ORDER, H5_ITER_INC, i, link, sizeof(link),
                       H5P_DEFAULT);
    return store_h5_error(r->err, IODFG_E_FORMAT, r->path, "case %u (%s): %s", i, link, what);
}

/* Open case i (in creation order) and its events table; check the table's shape. */
static int open_case(struct reader *r, uint32_t i, hid_t *g, hid_t *d, uint64_t *rows)
{
    *d = -1;
    *g = H5Oopen_by_idx(r->cases, ".", H5_INDEX_CRT_ORDER, H5_ITER_INC, i, H5P_DEFAULT);
    if (*g < 0 || H5Iget_type(*g) != H5I_GROUP) {
        return case_error(r, i, "not a group");
    }
    *d = H5Dopen2(*g, STORE_EVENTS, H5P_DEFAULT);
    hid_t t = *d < 0 ? -1 : H5Dget_type(*d);
    hid_t sp = *d < 0 ? -1 : H5Dget_space(*d);
    hsize_t dims[1] = {0};
    size_t tsize = t < 0 ? 0 : H5Tget_size(t);
    int ok = t >= 0 && sp >= 0 && tsize > 0 && events_type_ok(r, t) &&
             H5Sget_simple_extent_ndims(sp) == 1 &&
             H5Sget_simple_extent_dims(sp, dims, NULL) == 1 && dims[0] <= r->fsize / tsize;
    if (sp >= 0) {
        H5Sclose(sp);
    }
    if (t >= 0) {
        H5Tclose(t);
    }
    if (!ok) {
        return case_error(r, i, "no valid events table");
    }
    *rows = dims[0];
    return 0;
}

static void close_case(hid_t g, hid_t d)
{
    if (d >= 0) {
        H5Dclose(d);
    }
    if (g >= 0) {
        H5Oclose(g);
    }
}

/* First pass: case attributes and row counts, so that the columns are allocated once. */
static int scan_cases(struct reader *r, uint64_t *total)
{
    H5G_info_t gi;
    hid_t gcpl = -1;
    unsigned order = 0;
    r->cases = H5Gopen2(r->file, STORE_CASES, H5P_DEFAULT);
    if (r->cases < 0 || H5Gget_info(r->cases, &gi) < 0 ||
        (gcpl = H5Gget_create_plist(r->cases)) < 0 ||
        H5Pget_link_creation_order(gcpl, &order) < 0 || !(order & H5P_CRT_ORDER_INDEXED) ||
        gi.nlinks > UINT32_MAX - 1) {
        if (gcpl >= 0) {
            H5Pclose(gcpl);
        }
        return damaged(r, "%s", "group /cases is missing or has no creation order");
    }
    H5Pclose(gcpl);
    r->ncases = (uint32_t)gi.nlinks;
    r->cases_info = calloc((size_t)r->ncases + 1, sizeof(*r->cases_info));
    r->offsets = calloc((size_t)r->ncases + 1, sizeof(*r->offsets));
    if (!r->cases_info || !r->offsets) {
        return iodfg_error_set(r->err, IODFG_E_NOMEM, NULL);
    }
    *total = 0;
    for (uint32_t i = 0; i < r->ncases; i++) {
        hid_t g, d;
        uint64_t rows = 0;
        int rc = open_case(r, i, &g, &d, &rows);
        if (rc == 0) {
            rc = case_attrs(r, g, i, &r->cases_info[i]);
        }
        close_case(g, d);
        if (rc) {
            return -1;
        }
        *total += rows;
        r->offsets[i + 1] = *total;
    }
    return 0;
}

/* Check one slab of rows and scatter it into the columns at out. */
static int scatter(struct reader *r, const struct store_row *rows, uint64_t n,
                   struct iodfg_columns *c, uint64_t out, int64_t *prev_start, uint32_t cs,
                   uint64_t row0)
{
    const struct iodfg_key *keys = iodfg_eventlog_keys(r->log);
    uint32_t nkeys = r->nkeys, nstr = r->nstr;
    int64_t prev = *prev_start;
    for (uint64_t j = 0; j < n; j++) {
        const struct store_row *x = &rows[j];
        const char *bad = NULL;
        if (x->key >= nkeys) {
            bad = "key id out of range";
        } else if (x->call != keys[x->key].call || x->fp != keys[x->key].path) {
            bad = "call/fp do not match the key";
        } else if (x->err >= nstr) {
            bad = "err string id out of range";
        } else if (x->start < prev) {
            bad = "rows not sorted by start";
        }
        if (bad) {
            iodfg_error_set(r->err, IODFG_E_FORMAT, "damaged event log: case %s, row %llu: %s",
                            iodfg_strpool_get(iodfg_eventlog_pool(r->log), r->cases_info[cs].name),
                            (unsigned long long)(row0 + j), bad);
            iodfg_error_at(r->err, r->path, 0, 0);
            return -1;
        }
        prev = x->start;
        uint64_t o = out + j;
        if (c->start_ns) {
            c->start_ns[o] = x->start;
        }
        if (c->dur_ns) {
            c->dur_ns[o] = x->dur;
        }
        if (c->size) {
            c->size[o] = x->size;
        }
        if (c->offset) {
            c->offset[o] = x->offset;
        }
        if (c->req) {
            c->req[o] = x->req;
        }
        if (c->key) {
            c->key[o] = x->key;
        }
        if (c->err) {
            c->err[o] = x->err;
        }
        if (c->pid) {
            c->pid[o] = x->pid;
        }
        if (c->fd) {
            c->fd[o] = x->fd;
        }
    }
    *prev_start = prev;
    return 0;
}

/* Progress is reported at the start, at the end and every this many events in between. */
#define PROGRESS_EVENTS (1u << 20)

struct progress {
    iodfg_progress_fn fn;
    void *ctx;
    uint64_t done, total, reported;
};

/* The case's handle column into c->handle (zeros when the file has none). */
static int read_handle_column(struct reader *r, uint32_t cs, hid_t g, struct iodfg_columns *c,
                              uint64_t n)
{
    uint32_t *out = c->handle + r->offsets[cs];
    htri_t ex = H5Lexists(g, STORE_HANDLE, H5P_DEFAULT);
    if (ex == 0) {
        memset(out, 0, n * sizeof(*out));
        return 0;
    }
    hid_t d = ex < 0 ? -1 : H5Dopen2(g, STORE_HANDLE, H5P_DEFAULT);
    hid_t sp = d < 0 ? -1 : H5Dget_space(d);
    hid_t t = d < 0 ? -1 : H5Dget_type(d);
    hsize_t dims[1] = {0};
    int rc = -1;
    if (sp >= 0 && t >= 0 && H5Tget_class(t) == H5T_INTEGER &&
        H5Sget_simple_extent_ndims(sp) == 1 && H5Sget_simple_extent_dims(sp, dims, NULL) == 1 &&
        dims[0] == n && (n == 0 || H5Dread(d, H5T_NATIVE_UINT32, H5S_ALL, H5S_ALL, H5P_DEFAULT,
                                           out) >= 0)) {
        rc = 0;
    }
    for (uint64_t i = 0; rc == 0 && i < n; i++) {
        if (out[i] > r->nhandles || (out[i] && iodfg_eventlog_handles(r->log)[out[i] - 1].case_id != cs)) {
            rc = -2;
        }
    }
    if (t >= 0) {
        H5Tclose(t);
    }
    if (sp >= 0) {
        H5Sclose(sp);
    }
    if (d >= 0) {
        H5Dclose(d);
    }
    if (rc) {
        return damaged(r, "case %s: %s",
                       iodfg_strpool_get(iodfg_eventlog_pool(r->log), r->cases_info[cs].name),
                       rc == -2 ? "handle id out of range" : "handle column unreadable");
    }
    return 0;
}

static int read_case(struct reader *r, uint32_t cs, struct iodfg_columns *c, struct store_row *rows,
                     struct progress *pr)
{
    hid_t g, d;
    uint64_t n;
    if (open_case(r, cs, &g, &d, &n)) {
        close_case(g, d);
        return -1;
    }
    if (n != r->offsets[cs + 1] - r->offsets[cs]) {
        close_case(g, d);
        return damaged(r, "case %s changed while reading",
                       iodfg_strpool_get(iodfg_eventlog_pool(r->log), r->cases_info[cs].name));
    }
    hid_t fsp = H5Dget_space(d);
    int rc = fsp < 0 ? -1 : 0;
    int64_t prev = INT64_MIN;
    // Slabs that match the writer's chunks are read straight into the buffer.
    uint64_t slab = store_chunk_rows(n);
    for (uint64_t done = 0; rc == 0 && done < n; done += slab) {
        hsize_t start[1] = {done}, count[1] = {n - done < slab ? n - done : slab};
        hid_t msp = H5Screate_simple(1, count, NULL);
        if (msp < 0 || H5Sselect_hyperslab(fsp, H5S_SELECT_SET, start, NULL, count, NULL) < 0 ||
            H5Dread(d, r->mtype, msp, fsp, H5P_DEFAULT, rows) < 0) {
            rc = store_h5_error(
                r->err, IODFG_E_FORMAT, r->path, "case %s: cannot read events",
                iodfg_strpool_get(iodfg_eventlog_pool(r->log), r->cases_info[cs].name));
        } else {
            rc = scatter(r, rows, count[0], c, r->offsets[cs] + done, &prev, cs, done);
        }
        if (msp >= 0) {
            H5Sclose(msp);
        }
        pr->done += count[0];
        if (rc == 0 && pr->fn &&
            (pr->done - pr->reported >= PROGRESS_EVENTS || pr->done == pr->total)) {
            pr->fn(pr->ctx, pr->done, pr->total);
            pr->reported = pr->done;
        }
    }
    if (fsp >= 0) {
        H5Sclose(fsp);
    }
    if (rc == 0 && c->handle) {
        rc = read_handle_column(r, cs, g, c, n);
    }
    close_case(g, d);
    return rc;
}

/* Memory for a column of `bytes` (freed with free()). Large columns are aligned to 2 MiB and
 * marked for transparent huge pages: filling them otherwise costs more in page faults than the
 * reading itself. */
static void *alloc_column(size_t bytes)
{
#ifdef MADV_HUGEPAGE
    const size_t huge = (size_t)2 << 20;
    if (bytes >= 2 * huge) {
        size_t rounded = (bytes + huge - 1) & ~(huge - 1);
        void *p = NULL;
        if (posix_memalign(&p, huge, rounded) != 0) {
            return NULL;
        }
        madvise(p, rounded, MADV_HUGEPAGE); // only advice: failure changes nothing
        return p;
    }
#endif
    return malloc(bytes ? bytes : 1);
}

static int alloc_columns(struct iodfg_columns *c, unsigned mask, uint64_t n)
{
    memset(c, 0, sizeof(*c));
    if (n > SIZE_MAX / 8) {
        return -1;
    }
#define ALLOC_COL(bit, col)                                                                        \
    if ((mask & (bit)) && !(c->col = alloc_column((size_t)n * sizeof(*c->col)))) {                 \
        return -1;                                                                                 \
    }
    ALLOC_COL(IODFG_COL_START, start_ns)
    ALLOC_COL(IODFG_COL_DUR, dur_ns)
    ALLOC_COL(IODFG_COL_SIZE, size)
    ALLOC_COL(IODFG_COL_OFFSET, offset)
    ALLOC_COL(IODFG_COL_REQ, req)
    ALLOC_COL(IODFG_COL_KEY, key)
    ALLOC_COL(IODFG_COL_ERR, err)
    ALLOC_COL(IODFG_COL_PID, pid)
    ALLOC_COL(IODFG_COL_FD, fd)
    ALLOC_COL(IODFG_COL_HANDLE, handle)
#undef ALLOC_COL
    return 0;
}

static int read_events(struct reader *r, unsigned columns, uint64_t total, struct progress *pr)
{
    struct iodfg_columns c = {0};
    struct store_row *rows = alloc_column(STORE_CHUNK_ROWS * sizeof(*rows));
    int rc = -1;
    if (!rows || alloc_columns(&c, columns & IODFG_COL_ALL, total)) {
        iodfg_error_set(r->err, IODFG_E_NOMEM, "out of memory for %llu events",
                        (unsigned long long)total);
        goto done;
    }
    pr->total = total;
    if (pr->fn) {
        pr->fn(pr->ctx, 0, total);
    }
    rc = 0;
    for (uint32_t cs = 0; rc == 0 && cs < r->ncases; cs++) {
        rc = read_case(r, cs, &c, rows, pr);
    }
    if (rc == 0) {
        rc = iodfg_eventlog_adopt(r->log, &c, total, r->cases_info, r->offsets, r->ncases, r->err);
        if (rc == 0) {
            r->cases_info = NULL;
            r->offsets = NULL;
        }
    }
done:
    if (rc) {
        iodfg_columns_free(&c);
    }
    free(rows);
    return rc;
}

static void close_reader(struct reader *r)
{
    if (r->mtype >= 0) {
        H5Tclose(r->mtype);
    }
    if (r->ftype >= 0) {
        H5Tclose(r->ftype);
    }
    if (r->cases >= 0) {
        H5Gclose(r->cases);
    }
    if (r->file >= 0) {
        H5Fclose(r->file);
    }
    iodfg_strpool_free(r->pool);
    free(r->cases_info);
    free(r->offsets);
}

/* The root's totals must agree with what the cases hold (stat relies on them). */
static int check_totals(struct reader *r, uint64_t total)
{
    uint64_t cases = 0, events = 0;
    int rc1 = get_uint(r, r->file, "cases", &cases);
    int rc2 = rc1 < 0 ? -1 : get_uint(r, r->file, "events", &events);
    if (rc1 < 0 || rc2 < 0) {
        return -1;
    }
    if (rc1 || rc2 || cases != r->ncases || events != total) {
        iodfg_error_set(r->err, IODFG_E_FORMAT,
                        "damaged event log: root attributes cases/events do not match the "
                        "%u cases and %llu events stored",
                        r->ncases, (unsigned long long)total);
        iodfg_error_at(r->err, r->path, 0, 0);
        return -1;
    }
    return 0;
}

struct iodfg_eventlog *iodfg_store_load(const char *path, unsigned columns,
                                        iodfg_progress_fn progress, void *ctx,
                                        struct iodfg_error *err)
{
    struct iodfg_error local;
    iodfg_error_clear(&local);
    struct reader r = {
        .path = path, .file = -1, .cases = -1, .mtype = -1, .ftype = -1, .err = err ? err : &local};
    struct progress pr = {.fn = progress, .ctx = ctx};
    unsigned version;
    uint64_t total = 0;
    int rc = -1;
    if (open_log(&r, &version) == 0 && load_strings(&r) == 0 && load_keys(&r, columns) == 0) {
        r.mtype = store_row_type(0);
        r.ftype = store_row_type(1);
        if (r.mtype < 0 || r.ftype < 0) {
            store_h5_error(r.err, IODFG_E_HDF5, path, "cannot build the row type");
        } else if (scan_cases(&r, &total) == 0 && check_totals(&r, total) == 0 &&
                   load_handles(&r) == 0) {
            rc = read_events(&r, columns, total, &pr);
        }
    }
    struct iodfg_eventlog *log = r.log;
    if (rc) {
        iodfg_eventlog_free(log);
        log = NULL;
    }
    close_reader(&r);
    return log;
}

int iodfg_store_stat(const char *path, uint64_t *cases, uint64_t *events, unsigned *version,
                     struct iodfg_error *err)
{
    struct iodfg_error local;
    iodfg_error_clear(&local);
    struct reader r = {
        .path = path, .file = -1, .cases = -1, .mtype = -1, .ftype = -1, .err = err ? err : &local};
    unsigned v = 0;
    uint64_t nc = 0, ne = 0;
    int rc = open_log(&r, &v);
    if (rc == 0) {
        int a = get_uint(&r, r.file, "cases", &nc);
        int b = a < 0 ? -1 : get_uint(&r, r.file, "events", &ne);
        if (a > 0 || b > 0) {
            damaged(&r, "%s", "root attributes cases/events are missing");
        }
        rc = a || b ? -1 : 0;
    }
    close_reader(&r);
    if (rc == 0) {
        if (cases) {
            *cases = nc;
        }
        if (events) {
            *events = ne;
        }
        if (version) {
            *version = v;
        }
    }
    return rc;
}
