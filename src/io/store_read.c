/* SPDX-License-Identifier: MIT */
/* HDF5 store, reading side: checks, shared tables, cases in slabs, validation of every id. */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdatomic.h>
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
#include "iodfg/store.h"
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
    unsigned columns;  // columns asked for
    int vfd;           // HDF5's own descriptor of the file (sec2 driver), else -1: no raw reads
    uint64_t vfd_size; // its size
    struct case_plan *plan;
    struct iodfg_error *err;
};

/* Most bytes a dataset may decode to: raw data never exceeds the file, and no filter HDF5 has
 * (deflate tops out near 1032:1) expands more than 1100 times. */
static uint64_t max_bytes(const struct reader *r, hid_t d)
{
    hid_t dcpl = H5Dget_create_plist(d);
    int filtered = dcpl >= 0 && H5Pget_nfilters(dcpl) > 0;
    if (dcpl >= 0) {
        H5Pclose(dcpl);
    }
    return filtered ? (r->fsize > UINT64_MAX / 1100 ? UINT64_MAX : r->fsize * 1100) : r->fsize;
}

static int check_totals(struct reader *r, uint64_t total);

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
    if (v < 1) { // 1.x (compound tables) and 2.x (one dataset per column) are read
        iodfg_error_set(r->err, IODFG_E_FORMAT, "unknown format version %llu",
                        (unsigned long long)v);
        iodfg_error_at(r->err, r->path, 0, 0);
        return -1;
    }
    *version = (unsigned)v;
    // HDF5's descriptor, for reading raw column data without a second open (which could meet
    // another file, should the path be replaced meanwhile).
    hid_t fapl = H5Fget_access_plist(r->file);
    void *handle = NULL;
    struct stat st;
    if (fapl >= 0 && H5Pget_driver(fapl) == H5FD_SEC2 &&
        H5Fget_vfd_handle(r->file, fapl, &handle) >= 0 && handle &&
        fstat(*(int *)handle, &st) == 0) {
        r->vfd = *(int *)handle;
        r->vfd_size = (uint64_t)st.st_size;
    }
    if (fapl >= 0) {
        H5Pclose(fapl);
    }
    H5Eclear2(H5E_DEFAULT);
    return 0;
}

static void *alloc_column(size_t bytes);

/* Read all n elements (esize bytes each in memory type mt) of dataset d into buf: with pread
 * when the dataset is a plain contiguous array of exactly that type inside the file, else with
 * H5Dread. 0, or -1 (with HDF5's error stack or errno telling why). */
static int read_whole(const struct reader *r, hid_t d, hid_t mt, size_t esize, uint64_t n,
                      void *buf)
{
    if (n == 0) {
        return 0;
    }
    hid_t t = H5Dget_type(d);
    hid_t dcpl = H5Dget_create_plist(d);
    uint64_t bytes = n * esize;
    haddr_t a = H5Dget_offset(d);
    int raw = r->vfd >= 0 && t >= 0 && dcpl >= 0 && H5Tequal(t, mt) > 0 &&
              H5Pget_layout(dcpl) == H5D_CONTIGUOUS && H5Pget_external_count(dcpl) == 0 &&
              a != HADDR_UNDEF && H5Dget_storage_size(d) == bytes && a <= r->vfd_size &&
              bytes <= r->vfd_size - a;
    if (dcpl >= 0) {
        H5Pclose(dcpl);
    }
    if (t >= 0) {
        H5Tclose(t);
    }
    H5Eclear2(H5E_DEFAULT);
    if (!raw) {
        return H5Dread(d, mt, H5S_ALL, H5S_ALL, H5P_DEFAULT, buf) < 0 ? -1 : 0;
    }
    char *out = buf;
    while (bytes > 0) {
        ssize_t got = pread(r->vfd, out, bytes, (off_t)a);
        if (got < 0 && errno == EINTR) {
            continue;
        }
        if (got <= 0) {
            return -1;
        }
        out += got;
        a += (haddr_t)got;
        bytes -= (uint64_t)got;
    }
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
        dims[0] <= max && dims[0] <= max_bytes(r, d) / H5Tget_size(t)) {
        *buf = malloc(dims[0] ? dims[0] * esize : 1);
        if (!*buf) {
            rc = iodfg_error_set(r->err, IODFG_E_NOMEM, NULL);
        } else if (read_whole(r, d, mtype, esize, dims[0], *buf) == 0) {
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
    return n == want ? 0
                     : damaged(r, "table %s has %llu entries, not %llu", name,
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
        dims[0] < UINT32_MAX && dims[0] <= max_bytes(r, d) / H5Tget_size(t)) {
        hs = alloc_column(dims[0] * sizeof(*hs));
        if (!hs) {
            rc = iodfg_error_set(r->err, IODFG_E_NOMEM, NULL);
        } else if (read_whole(r, d, mt, sizeof(*hs), dims[0], hs) == 0) {
            rc = 0;
        }
    }
    const char *bad = NULL;
    uint64_t i = 0;
    for (; rc == 0 && !bad && i < dims[0]; i++) {
        const struct iodfg_handle *h = &hs[i];
        if (h->case_id >= r->ncases) {
            bad = "case out of range";
        } else if (h->parent > i) {
            bad = "parent is not an earlier handle";
        } else if (h->path >= r->nstr || h->call >= r->nstr || h->flags >= r->nstr ||
                   h->layer >= r->nstr) {
            bad = "string id out of range";
        } else if (h->origin >= IODFG_HANDLE_ORIGIN__N) {
            bad = "unknown origin";
        }
    }
    if (bad) {
        iodfg_error_set(r->err, IODFG_E_FORMAT, "damaged event log: handle %llu: %s",
                        (unsigned long long)i, bad);
        iodfg_error_at(r->err, r->path, 0, 0);
        rc = -1;
    }
    if (rc == 0 && iodfg_eventlog_adopt_handles(r->log, hs, (uint32_t)dims[0], r->err) == 0) {
        hs = NULL;
        r->nhandles = (uint32_t)dims[0];
    } else if (rc == 0) {
        rc = -1;
    }
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

/* Open case i (in creation order) as a group. */
static int open_group(struct reader *r, uint32_t i, hid_t *g)
{
    *g = H5Oopen_by_idx(r->cases, ".", H5_INDEX_CRT_ORDER, H5_ITER_INC, i, H5P_DEFAULT);
    if (*g < 0 || H5Iget_type(*g) != H5I_GROUP) {
        return case_error(r, i, "not a group");
    }
    return 0;
}

/* The events table of case i (formats 1.0 and 1.1); check its shape. */
static int open_events(struct reader *r, uint32_t i, hid_t g, hid_t *d, uint64_t *rows)
{
    *d = H5Dopen2(g, STORE_EVENTS, H5P_DEFAULT);
    hid_t t = *d < 0 ? -1 : H5Dget_type(*d);
    hid_t sp = *d < 0 ? -1 : H5Dget_space(*d);
    hsize_t dims[1] = {0};
    size_t tsize = t < 0 ? 0 : H5Tget_size(t);
    int ok = t >= 0 && sp >= 0 && tsize > 0 && events_type_ok(r, t) &&
             H5Sget_simple_extent_ndims(sp) == 1 &&
             H5Sget_simple_extent_dims(sp, dims, NULL) == 1 && dims[0] <= max_bytes(r, *d) / tsize;
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

/* ---- columns (format 2.0) -------------------------------------------------------------------- */

/* How a case is read. */
struct case_plan {
    uint64_t rows;
    int compound;   // an `events` table (1.0, 1.1)
    int raw;        // every column needed is a plain native array in the file: read with pread
    int has_handle; // the handle dataset exists
    uint64_t addr[STORE_C__N]; // file offsets of the raw data (raw cases)
};

/* The column of the log filled from dataset c, NULL when not asked for. */
static void *log_column(const struct iodfg_columns *c, int col)
{
    switch (col) {
    case STORE_C_PID:
        return c->pid;
    case STORE_C_START:
        return c->start_ns;
    case STORE_C_DUR:
        return c->dur_ns;
    case STORE_C_SIZE:
        return c->size;
    case STORE_C_KEY:
        return c->key;
    case STORE_C_OFFSET:
        return c->offset;
    case STORE_C_REQ:
        return c->req;
    case STORE_C_FD:
        return c->fd;
    case STORE_C_ERR:
        return c->err;
    case STORE_C_HANDLE:
        return c->handle;
    default: // call and fp are only checked
        return NULL;
    }
}

/* Datasets read for the given columns: those asked for and those every load checks. */
static unsigned needed_datasets(unsigned columns)
{
    static const unsigned bit[STORE_C__N] = {
        [STORE_C_PID] = IODFG_COL_PID, [STORE_C_START] = IODFG_COL_START,
        [STORE_C_DUR] = IODFG_COL_DUR, [STORE_C_SIZE] = IODFG_COL_SIZE,
        [STORE_C_KEY] = IODFG_COL_KEY, [STORE_C_OFFSET] = IODFG_COL_OFFSET,
        [STORE_C_REQ] = IODFG_COL_REQ, [STORE_C_FD] = IODFG_COL_FD,
        [STORE_C_ERR] = IODFG_COL_ERR, [STORE_C_HANDLE] = IODFG_COL_HANDLE,
    };
    unsigned need = 1u << STORE_C_KEY | 1u << STORE_C_START | 1u << STORE_C_CALL |
                    1u << STORE_C_FP | 1u << STORE_C_ERR;
    for (int c = 0; c < STORE_C__N; c++) {
        if (bit[c] & columns) {
            need |= 1u << c;
        }
    }
    return need;
}

/* Open one column dataset of case i and check it: integers, 1-D, `rows` long (set by the first
 * column opened, when *rows is UINT64_MAX). *raw is cleared unless its data can be read with
 * pread as native values at *addr. */
static int open_column(struct reader *r, uint32_t i, hid_t g, int c, hid_t *d, uint64_t *rows,
                       int *raw, uint64_t *addr)
{
    *d = H5Dopen2(g, store_cols[c].name, H5P_DEFAULT);
    hid_t t = *d < 0 ? -1 : H5Dget_type(*d);
    hid_t sp = *d < 0 ? -1 : H5Dget_space(*d);
    hsize_t dims[1] = {0};
    size_t tsize = t < 0 ? 0 : H5Tget_size(t);
    int ok = t >= 0 && sp >= 0 && tsize > 0 && H5Tget_class(t) == H5T_INTEGER &&
             H5Sget_simple_extent_ndims(sp) == 1 &&
             H5Sget_simple_extent_dims(sp, dims, NULL) == 1 &&
             (*rows == UINT64_MAX || dims[0] == *rows);
    if (ok) {
        // Only contiguous datasets without external files have an offset (H5Dget_offset gives
        // HADDR_UNDEF for chunked, compact, external and virtual ones): such data lies in the
        // file as it is, so the file size bounds it; filters may expand the others.
        uint64_t bytes = dims[0] * store_cols[c].size;
        haddr_t a = H5Dget_offset(*d);
        int contiguous = a != HADDR_UNDEF;
        ok = dims[0] <= (contiguous ? r->fsize : max_bytes(r, *d)) / tsize;
        // Raw: stored exactly as it is in memory, inside the file.
        if (!(r->vfd >= 0 && contiguous && H5Tequal(t, store_col_type((enum store_col)c, 0)) > 0 &&
              H5Dget_storage_size(*d) == bytes && a <= r->vfd_size && bytes <= r->vfd_size - a) &&
            dims[0] > 0) {
            *raw = 0;
        }
        *rows = dims[0];
        *addr = a;
        H5Eclear2(H5E_DEFAULT);
    }
    if (sp >= 0) {
        H5Sclose(sp);
    }
    if (t >= 0) {
        H5Tclose(t);
    }
    if (!ok) {
        char what[96];
        if (*d < 0 && H5Lexists(g, store_cols[c].name, H5P_DEFAULT) == 0) {
            snprintf(what, sizeof(what), "column %s is missing", store_cols[c].name);
        } else {
            snprintf(what, sizeof(what), "column %s is not a valid integer column",
                     store_cols[c].name);
        }
        return case_error(r, i, what);
    }
    return 0;
}

/* Open the datasets case i needs (ids[c] >= 0 for those, the caller closes them) and fill its
 * plan: rows, whether it is raw, where the data lies. */
static int open_columns(struct reader *r, uint32_t i, hid_t g, struct case_plan *p,
                        hid_t ids[STORE_C__N])
{
    unsigned need = needed_datasets(r->columns);
    for (int c = 0; c < STORE_C__N; c++) {
        ids[c] = -1;
    }
    p->rows = UINT64_MAX;
    p->raw = 1;
    p->has_handle = 0;
    // The key column first: it sets the length the others must have.
    static const int order[STORE_C__N] = {
        STORE_C_KEY, STORE_C_START, STORE_C_CALL,   STORE_C_FP,  STORE_C_ERR, STORE_C_PID,
        STORE_C_DUR, STORE_C_SIZE,  STORE_C_OFFSET, STORE_C_REQ, STORE_C_FD,  STORE_C_HANDLE};
    for (int k = 0; k < STORE_C__N; k++) {
        int c = order[k];
        if (!(need & 1u << c)) {
            continue;
        }
        if (c == STORE_C_HANDLE) {
            htri_t ex = H5Lexists(g, STORE_HANDLE, H5P_DEFAULT);
            if (ex < 0) {
                return case_error(r, i, "cannot look up the handle column");
            }
            if (ex == 0) {
                continue;
            }
            p->has_handle = 1;
        }
        if (open_column(r, i, g, c, &ids[c], &p->rows, &p->raw, &p->addr[c])) {
            return -1;
        }
    }
    return 0;
}

static void close_columns(hid_t ids[STORE_C__N])
{
    for (int c = 0; c < STORE_C__N; c++) {
        if (ids[c] >= 0) {
            H5Dclose(ids[c]);
        }
        ids[c] = -1;
    }
}

/* First pass: case attributes, layout and row counts, so that the columns are allocated once. */
static int scan_case(struct reader *r, uint32_t i, struct case_plan *p)
{
    hid_t g = -1, d = -1, ids[STORE_C__N];
    for (int c = 0; c < STORE_C__N; c++) {
        ids[c] = -1;
    }
    int rc = open_group(r, i, &g);
    htri_t ex = rc ? -1 : H5Lexists(g, STORE_EVENTS, H5P_DEFAULT);
    if (rc == 0 && ex < 0) {
        rc = case_error(r, i, "cannot look up its events");
    } else if (rc == 0) {
        p->compound = ex > 0;
        rc = p->compound ? open_events(r, i, g, &d, &p->rows) : open_columns(r, i, g, p, ids);
    }
    if (rc == 0) {
        rc = case_attrs(r, g, i, &r->cases_info[i]);
    }
    close_columns(ids);
    close_case(g, d);
    return rc;
}

/* Open /cases and size the per-case arrays. */
static int open_cases(struct reader *r)
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
    r->plan = calloc((size_t)r->ncases + 1, sizeof(*r->plan));
    if (!r->cases_info || !r->offsets || !r->plan) {
        return iodfg_error_set(r->err, IODFG_E_NOMEM, NULL);
    }
    return 0;
}

/* Scan every case (without reading events): their total in *total. */
static int scan_cases(struct reader *r, uint64_t *total)
{
    *total = 0;
    for (uint32_t i = 0; i < r->ncases; i++) {
        if (scan_case(r, i, &r->plan[i])) {
            return -1;
        }
        if (r->plan[i].rows > UINT64_MAX - *total) {
            return damaged(r, "%s", "too many events");
        }
        *total += r->plan[i].rows;
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
        dims[0] == n &&
        (n == 0 || H5Dread(d, H5T_NATIVE_UINT32, H5S_ALL, H5S_ALL, H5P_DEFAULT, out) >= 0)) {
        rc = 0;
    }
    for (uint64_t i = 0; rc == 0 && i < n; i++) {
        if (out[i] > r->nhandles ||
            (out[i] && iodfg_eventlog_handles(r->log)[out[i] - 1].case_id != cs)) {
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

/* ---- reading events -------------------------------------------------------------------------- */

/* Progress is reported at the start, at the end and every this many events in between. */
#define PROGRESS_EVENTS (1u << 20)
/* Rows checked at a time (their check columns stay in the cache). */
#define SLAB_ROWS 16384u
/* Rows per work item of raw cases shared among threads. */
#define ITEM_ROWS (1u << 18)
/* Most threads a load uses, and the least events worth a second one. */
#define MAX_THREADS 4u
#define MIN_EVENTS_PER_THREAD (1u << 18)

struct item {
    uint32_t cs;
    uint64_t first, end; // rows of the case
};

/* What went wrong in a raw read (put into words by the calling thread at the end: the string
 * pool that names cases may still grow while the helpers run). */
struct failure {
    enum { F_MSG, F_READ, F_ROW, F_HANDLE } kind; // F_MSG: the message is in source.err
    enum iodfg_status code;
    int col, errnum;
    const char *why;
    uint64_t row;
};

/* The loading state shared by the threads. */
struct loader {
    struct reader *r;
    struct iodfg_columns *c;
    const uint64_t *kcp; // key -> (path << 32 | call); at least one entry
    const struct iodfg_handle *handles;
    // Work items are appended while the cases are scanned, taken in order (under lock).
    struct item *items;
    size_t nitems, cap, next;
    int closed; // no more items will come
    pthread_cond_t more;
    atomic_uint_fast64_t done;      // events read
    atomic_uint_fast32_t fail_case; // lowest case known to fail (UINT32_MAX: none)
    pthread_mutex_t lock;
    int failed;
    uint32_t fail_cs;
    uint64_t fail_row;
    struct iodfg_error fail_err;
    int fail_is_raw; // the failure is fail_f, still to be put into words
    struct failure fail_f;
};

/* Record a failure of case cs at row; the lowest (case, row) wins, whatever the thread order. */
static void record_failure(struct loader *L, uint32_t cs, uint64_t row,
                           const struct iodfg_error *err)
{
    pthread_mutex_lock(&L->lock);
    if (!L->failed || cs < L->fail_cs || (cs == L->fail_cs && row < L->fail_row)) {
        L->failed = 1;
        L->fail_cs = cs;
        L->fail_row = row;
        L->fail_err = *err;
        L->fail_is_raw = 0;
        atomic_store(&L->fail_case, cs);
    }
    pthread_mutex_unlock(&L->lock);
}

/* Where rows of one case come from: raw reads of HDF5's descriptor, or H5Dread (ids). */
struct source {
    struct loader *L;
    uint32_t cs;
    const struct case_plan *p;
    const hid_t *ids;        // NULL for raw reads
    int check_handles;       // check handle ids here (raw reads leave it for the end)
    struct failure *f;       // raw reads: what failed
    struct iodfg_error *err; // H5Dread: the message
};

static const char *case_name(const struct loader *L, uint32_t cs);

/* The message of failure f of case cs into err (calling thread only). */
static void put_failure(const struct loader *L, uint32_t cs, const struct failure *f,
                        struct iodfg_error *err)
{
    const char *name = case_name(L, cs);
    if (f->kind == F_READ) {
        iodfg_error_set(err, f->code, "case %s: column %s: %s", name, store_cols[f->col].name,
                        f->errnum ? strerror(f->errnum) : "truncated");
    } else if (f->kind == F_ROW) {
        iodfg_error_set(err, IODFG_E_FORMAT, "damaged event log: case %s, row %llu: %s", name,
                        (unsigned long long)f->row, f->why);
    } else {
        iodfg_error_set(err, IODFG_E_FORMAT, "case %s: handle id out of range", name);
    }
}

/* Record that rows of case cs failed as f says (raw reads, any thread). */
static void record_raw_failure(struct loader *L, uint32_t cs, const struct failure *f)
{
    pthread_mutex_lock(&L->lock);
    if (!L->failed || cs < L->fail_cs || (cs == L->fail_cs && f->row < L->fail_row)) {
        L->failed = 1;
        L->fail_cs = cs;
        L->fail_row = f->row;
        L->fail_is_raw = 1;
        L->fail_f = *f;
        atomic_store(&L->fail_case, cs);
    }
    pthread_mutex_unlock(&L->lock);
}

static const char *case_name(const struct loader *L, uint32_t cs)
{
    return iodfg_strpool_get(iodfg_eventlog_pool(L->r->log), L->r->cases_info[cs].name);
}

/* n values of column c from row on into buf (native type). */
static int source_read(struct source *s, int c, uint64_t row, uint64_t n, void *buf)
{
    if (n == 0) {
        return 0;
    }
    size_t esz = store_cols[c].size;
    if (!s->ids) {
        char *out = buf;
        size_t want = (size_t)n * esz;
        uint64_t at = s->p->addr[c] + row * esz;
        while (want > 0) {
            ssize_t got = pread(s->L->r->vfd, out, want, (off_t)at);
            if (got < 0 && errno == EINTR) {
                continue;
            }
            if (got <= 0) {
                *s->f = (struct failure){.kind = F_READ,
                                         .code = got < 0 ? IODFG_E_IO : IODFG_E_FORMAT,
                                         .col = c,
                                         .errnum = got < 0 ? errno : 0,
                                         .row = row};
                return -1;
            }
            out += got;
            at += (uint64_t)got;
            want -= (size_t)got;
        }
        return 0;
    }
    hid_t fsp = H5Dget_space(s->ids[c]);
    hsize_t start[1] = {row}, count[1] = {n};
    hid_t msp = H5Screate_simple(1, count, NULL);
    int rc = fsp < 0 || msp < 0 ||
                     H5Sselect_hyperslab(fsp, H5S_SELECT_SET, start, NULL, count, NULL) < 0 ||
                     H5Dread(s->ids[c], store_col_type((enum store_col)c, 0), msp, fsp, H5P_DEFAULT,
                             buf) < 0
                 ? -1
                 : 0;
    if (msp >= 0) {
        H5Sclose(msp);
    }
    if (fsp >= 0) {
        H5Sclose(fsp);
    }
    if (rc) {
        store_h5_error(s->err, IODFG_E_FORMAT, s->L->r->path, "case %s: cannot read column %s",
                       case_name(s->L, s->cs), store_cols[c].name);
        *s->f = (struct failure){.kind = F_MSG, .row = row};
    }
    return rc;
}

/* Per-thread buffers for the columns that are checked but not kept. */
struct scratch {
    uint32_t *key, *call, *fp, *err;
    int64_t *start;
};

static int scratch_alloc(struct scratch *x)
{
    x->key = malloc(SLAB_ROWS * sizeof(uint32_t));
    x->call = malloc(SLAB_ROWS * sizeof(uint32_t));
    x->fp = malloc(SLAB_ROWS * sizeof(uint32_t));
    x->err = malloc(SLAB_ROWS * sizeof(uint32_t));
    x->start = malloc(SLAB_ROWS * sizeof(int64_t));
    return x->key && x->call && x->fp && x->err && x->start ? 0 : -1;
}

static void scratch_free(struct scratch *x)
{
    free(x->key);
    free(x->call);
    free(x->fp);
    free(x->err);
    free(x->start);
}

/* Index of the first of n rows that fails a check (n when none does), and why. Branch-free
 * passes find whether any row does (ranges and order first, so that the key lookups that follow
 * stay in bounds); only then are the rows looked at one by one. */
#if defined(__GNUC__) && !defined(__clang__)
#define VECTORIZE __attribute__((optimize("O3"))) // the default -O2 leaves these loops scalar
#else
#define VECTORIZE
#endif

/* Largest key and err ids and whether start ever decreases, over n rows. */
VECTORIZE static void scan_ranges(const uint32_t *key, const uint32_t *err, const int64_t *start,
                                  size_t n, uint32_t *kmax_out, uint32_t *emax_out,
                                  int *unsorted_out)
{
    uint32_t kmax = 0, emax = 0;
    int64_t unsorted = 0;
    for (size_t i = 0; i < n; i++) {
        kmax = key[i] > kmax ? key[i] : kmax;
        emax = err[i] > emax ? err[i] : emax;
    }
    for (size_t i = 1; i < n; i++) {
        unsorted |= start[i] < start[i - 1];
    }
    *kmax_out = kmax;
    *emax_out = emax;
    *unsorted_out = unsorted != 0;
}

static size_t first_bad_row(const struct loader *L, const uint32_t *key, const uint32_t *call,
                            const uint32_t *fp, const uint32_t *err, const int64_t *start, size_t n,
                            int64_t prev, const char **why)
{
    const uint64_t *kcp = L->kcp;
    uint32_t nkeys = L->r->nkeys, nstr = L->r->nstr;
    uint32_t kmax, emax;
    int unsorted;
    uint64_t mismatch = 0;
    scan_ranges(key, err, start, n, &kmax, &emax, &unsorted);
    unsorted |= n > 0 && start[0] < prev;
    if (n > 0 && kmax < nkeys) {
        for (size_t i = 0; i < n; i++) {
            mismatch |= kcp[key[i]] ^ ((uint64_t)fp[i] << 32 | call[i]);
        }
    }
    if (n == 0 || (kmax < nkeys && emax < nstr && !unsorted && !mismatch)) {
        return n;
    }
    int64_t p = prev;
    for (size_t i = 0; i < n; i++) {
        uint64_t cp = (uint64_t)fp[i] << 32 | call[i];
        *why = key[i] >= nkeys     ? "key id out of range"
               : kcp[key[i]] != cp ? "call/fp do not match the key"
               : err[i] >= nstr    ? "err string id out of range"
               : start[i] < p      ? "rows not sorted by start"
                                   : NULL;
        if (*why) {
            return i;
        }
        p = start[i];
    }
    return n; // not reached: a pass above saw a bad row
}

/* Read and check rows [first, end) of a columnar case into the log's columns. On failure
 * s->f says what and where. */
static int read_rows(struct source *s, uint64_t first, uint64_t end, struct scratch *x)
{
    struct loader *L = s->L;
    const struct iodfg_columns *c = L->c;
    uint64_t base = L->r->offsets[s->cs];
    int64_t prev = INT64_MIN;
    if (first > 0 && source_read(s, STORE_C_START, first - 1, 1, &prev)) {
        return -1;
    }
    for (uint64_t row = first; row < end; row += SLAB_ROWS) {
        uint64_t n = end - row < SLAB_ROWS ? end - row : SLAB_ROWS;
        // Columns asked for go straight into the log, the others into the scratch buffers.
        void *to[STORE_C__N];
        for (int k = 0; k < STORE_C__N; k++) {
            char *col = log_column(c, k);
            to[k] = col ? col + (base + row) * store_cols[k].size : NULL;
        }
        to[STORE_C_KEY] = to[STORE_C_KEY] ? to[STORE_C_KEY] : x->key;
        to[STORE_C_START] = to[STORE_C_START] ? to[STORE_C_START] : x->start;
        to[STORE_C_ERR] = to[STORE_C_ERR] ? to[STORE_C_ERR] : x->err;
        to[STORE_C_CALL] = x->call;
        to[STORE_C_FP] = x->fp;
        if (c->handle && !s->p->has_handle) {
            memset(to[STORE_C_HANDLE], 0, (size_t)n * sizeof(uint32_t));
            to[STORE_C_HANDLE] = NULL;
        }
        for (int k = 0; k < STORE_C__N; k++) {
            if (to[k] && source_read(s, k, row, n, to[k])) {
                return -1;
            }
        }
        const int64_t *start = to[STORE_C_START];
        const char *why = NULL;
        size_t bad = first_bad_row(L, to[STORE_C_KEY], x->call, x->fp, to[STORE_C_ERR], start,
                                   (size_t)n, prev, &why);
        if (bad < n) {
            *s->f = (struct failure){.kind = F_ROW, .why = why, .row = row + bad};
            return -1;
        }
        const uint32_t *h = s->check_handles ? to[STORE_C_HANDLE] : NULL;
        for (size_t i = 0; h && i < n; i++) {
            if (h[i] > L->r->nhandles || (h[i] && L->handles[h[i] - 1].case_id != s->cs)) {
                *s->f = (struct failure){.kind = F_HANDLE, .row = row + i};
                return -1;
            }
        }
        prev = start[n - 1];
        atomic_fetch_add(&L->done, n);
    }
    return 0;
}

struct progress {
    iodfg_progress_fn fn;
    void *ctx;
    uint64_t total, reported;
};

/* Report progress (main thread only) when enough events were read since the last report. */
static void report(struct loader *L, struct progress *pr)
{
    uint64_t done = atomic_load(&L->done);
    if (pr && pr->fn && done - pr->reported >= PROGRESS_EVENTS && done < pr->total) {
        pr->fn(pr->ctx, done, pr->total);
        pr->reported = done;
    }
}

/* Take and do raw work items (waiting for more while cases are being scanned) until none is
 * left or an earlier case failed. */
static void run_items(struct loader *L, struct scratch *x, struct progress *pr)
{
    for (;;) {
        pthread_mutex_lock(&L->lock);
        while (L->next >= L->nitems && !L->closed) {
            pthread_cond_wait(&L->more, &L->lock);
        }
        if (L->next >= L->nitems || L->items[L->next].cs > atomic_load(&L->fail_case)) {
            pthread_mutex_unlock(&L->lock);
            break; // items come in case order: the rest can only fail later
        }
        struct item it = L->items[L->next++];
        pthread_mutex_unlock(&L->lock);
        struct failure f;
        struct source s = {.L = L, .cs = it.cs, .p = &L->r->plan[it.cs], .f = &f};
        if (read_rows(&s, it.first, it.end, x)) {
            record_raw_failure(L, it.cs, &f);
        }
        report(L, pr);
    }
}

static void *worker(void *arg)
{
    struct loader *L = arg;
    struct scratch x;
    // Without its buffers a worker just leaves the items to the others.
    if (scratch_alloc(&x) == 0) {
        run_items(L, &x, NULL);
    }
    scratch_free(&x);
    return NULL;
}

/* ---- the events table of formats 1.0 and 1.1 ------------------------------------------------- */

/* Case cs stored as an `events` table: slabs through HDF5's conversion into the row type, then
 * checked and scattered into the columns. Main thread only. */
static int read_compound(struct reader *r, struct loader *L, uint32_t cs, struct store_row *rows,
                         struct progress *pr)
{
    struct iodfg_columns *c = L->c;
    hid_t g = -1, d = -1;
    uint64_t n = 0;
    if (open_group(r, cs, &g) || open_events(r, cs, g, &d, &n)) {
        close_case(g, d);
        return -1;
    }
    if (n != r->offsets[cs + 1] - r->offsets[cs]) {
        close_case(g, d);
        return damaged(r, "case %s changed while reading", case_name(L, cs));
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
            rc = store_h5_error(r->err, IODFG_E_FORMAT, r->path, "case %s: cannot read events",
                                case_name(L, cs));
        } else {
            rc = scatter(r, rows, count[0], c, r->offsets[cs] + done, &prev, cs, done);
        }
        if (msp >= 0) {
            H5Sclose(msp);
        }
        atomic_fetch_add(&L->done, count[0]);
        report(L, pr);
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

/* A columnar case that needs HDF5 to read it (chunked, compressed, foreign byte order or
 * other integer widths): the same checks as raw cases, through H5Dread. Main thread only. */
static int read_converted(struct reader *r, struct loader *L, uint32_t cs, struct scratch *x,
                          uint64_t *bad_row)
{
    *bad_row = 0;
    hid_t g = -1, ids[STORE_C__N];
    for (int c = 0; c < STORE_C__N; c++) {
        ids[c] = -1;
    }
    struct case_plan p = r->plan[cs];
    int rc = open_group(r, cs, &g) || open_columns(r, cs, g, &p, ids) ? -1 : 0;
    if (rc == 0 && p.rows != r->plan[cs].rows) {
        rc = damaged(r, "case %s changed while reading", case_name(L, cs));
    }
    if (rc == 0) {
        struct failure f;
        struct source s = {
            .L = L, .cs = cs, .p = &p, .ids = ids, .check_handles = 1, .f = &f, .err = r->err};
        rc = read_rows(&s, 0, p.rows, x);
        if (rc) {
            *bad_row = f.row;
            if (f.kind != F_MSG) {
                put_failure(L, cs, &f, r->err);
            }
        }
        iodfg_error_at(r->err, r->path, 0, 0);
    }
    close_columns(ids);
    close_case(g, -1);
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

/* Key -> (path << 32 | call), for the row check. */
static uint64_t *key_pairs(struct reader *r)
{
    uint64_t *kcp = malloc(((size_t)r->nkeys + 1) * sizeof(*kcp));
    const struct iodfg_key *keys = iodfg_eventlog_keys(r->log);
    for (uint32_t k = 0; kcp && k < r->nkeys; k++) {
        kcp[k] = (uint64_t)keys[k].path << 32 | keys[k].call;
    }
    if (kcp) {
        kcp[r->nkeys] = 0;
    }
    return kcp;
}

/* Stop the helpers (they finish the item in hand) and wait for them. */
static void stop_helpers(struct loader *L, pthread_t *tid, unsigned *started)
{
    pthread_mutex_lock(&L->lock);
    L->closed = 1;
    atomic_store(&L->fail_case, 0);
    pthread_cond_broadcast(&L->more);
    pthread_mutex_unlock(&L->lock);
    for (unsigned t = 0; t < *started; t++) {
        pthread_join(tid[t], NULL);
    }
    *started = 0;
}

/* The handle columns of the raw cases up to case `last`, read before the handle table was:
 * ids must be in the table and of their case. */
static void check_raw_handles(struct loader *L, uint32_t last)
{
    const struct iodfg_handle *hs = iodfg_eventlog_handles(L->r->log);
    uint32_t nh = L->r->nhandles;
    for (uint32_t cs = 0; cs < L->r->ncases && cs <= last; cs++) {
        const struct case_plan *p = &L->r->plan[cs];
        if (p->compound || !p->raw || !p->has_handle) {
            continue;
        }
        const uint32_t *h = L->c->handle + L->r->offsets[cs];
        for (uint64_t i = 0; i < p->rows; i++) {
            if (h[i] > nh || (h[i] && hs[h[i] - 1].case_id != cs)) {
                struct failure f = {.kind = F_HANDLE, .row = i};
                record_raw_failure(L, cs, &f);
                break;
            }
        }
    }
}

/* Scan the cases and read their events into the log, expecting `total` events (the root
 * attribute; checked at the end). Helper threads read the columns of raw cases as soon as a
 * case is scanned, while this thread goes on with HDF5: the next cases, the handle table, then
 * the cases HDF5 must convert; the handle ids read meanwhile are checked at the end. */
static int read_events(struct reader *r, uint64_t total, unsigned threads, struct progress *pr)
{
    struct iodfg_columns c = {0};
    struct loader L = {.r = r, .c = &c, .handles = iodfg_eventlog_handles(r->log)};
    struct scratch x = {0};
    struct store_row *rows = NULL;
    uint64_t *kcp = key_pairs(r);
    pthread_t tid[MAX_THREADS];
    unsigned started = 0;
    int rc = -1;
    atomic_init(&L.done, 0);
    atomic_init(&L.fail_case, UINT32_MAX);
    pthread_mutex_init(&L.lock, NULL);
    pthread_cond_init(&L.more, NULL);
    L.kcp = kcp;
    // A case of n rows makes at most n / ITEM_ROWS + 1 items.
    L.cap = (size_t)(total / ITEM_ROWS) + r->ncases + 1;
    L.items = malloc(L.cap * sizeof(*L.items));
    if (!kcp || !L.items || scratch_alloc(&x) ||
        alloc_columns(&c, r->columns & IODFG_COL_ALL, total)) {
        iodfg_error_set(r->err, IODFG_E_NOMEM, "out of memory for %llu events",
                        (unsigned long long)total);
        iodfg_error_at(r->err, r->path, 0, 0);
        goto done;
    }
    pr->total = total;
    if (pr->fn) {
        pr->fn(pr->ctx, 0, total);
    }
    if (threads == 0) { // one per core, each with enough events to be worth starting
        long cpus = sysconf(_SC_NPROCESSORS_ONLN);
        threads = cpus < 1 ? 1 : cpus > (long)MAX_THREADS ? MAX_THREADS : (unsigned)cpus;
        while (threads > 1 && total / threads < MIN_EVENTS_PER_THREAD) {
            threads--;
        }
    }
    threads = threads > MAX_THREADS ? MAX_THREADS : threads;
    for (unsigned t = 1; t < threads; t++) {
        if (pthread_create(&tid[started], NULL, worker, &L) == 0) {
            started++;
        }
    }
    // Scan; raw cases go to the helpers at once (as long as the totals hold).
    uint64_t sum = 0;
    for (uint32_t cs = 0; cs < r->ncases; cs++) {
        struct case_plan *p = &r->plan[cs];
        if (scan_case(r, cs, p)) {
            stop_helpers(&L, tid, &started);
            goto done;
        }
        sum = p->rows > UINT64_MAX - sum ? UINT64_MAX : sum + p->rows;
        r->offsets[cs + 1] = sum;
        if (sum > total || p->compound || !p->raw || p->rows == 0) {
            continue;
        }
        pthread_mutex_lock(&L.lock);
        for (uint64_t first = 0; first < p->rows; first += ITEM_ROWS) {
            L.items[L.nitems++] =
                (struct item){cs, first, p->rows - first < ITEM_ROWS ? p->rows : first + ITEM_ROWS};
        }
        pthread_cond_broadcast(&L.more);
        pthread_mutex_unlock(&L.lock);
    }
    pthread_mutex_lock(&L.lock);
    L.closed = 1;
    pthread_cond_broadcast(&L.more);
    pthread_mutex_unlock(&L.lock);
    if (sum != total) {
        stop_helpers(&L, tid, &started);
        check_totals(r, sum);
        goto done;
    }
    if (load_handles(r)) {
        stop_helpers(&L, tid, &started); // the table's error comes first, as without threads
        goto done;
    }
    L.handles = iodfg_eventlog_handles(r->log);
    for (uint32_t cs = 0; cs < r->ncases && cs <= atomic_load(&L.fail_case); cs++) {
        const struct case_plan *p = &r->plan[cs];
        uint64_t bad = 0;
        int failed = 0;
        if (p->compound) {
            if (!rows && !(rows = malloc(STORE_CHUNK_ROWS * sizeof(*rows)))) {
                stop_helpers(&L, tid, &started);
                iodfg_error_set(r->err, IODFG_E_NOMEM, NULL);
                goto done;
            }
            failed = read_compound(r, &L, cs, rows, pr);
        } else if (!p->raw) {
            failed = read_converted(r, &L, cs, &x, &bad);
        }
        if (failed) {
            iodfg_error_at(r->err, r->path, 0, 0);
            record_failure(&L, cs, bad, r->err);
            iodfg_error_clear(r->err);
        }
        report(&L, pr);
    }
    run_items(&L, &x, pr);
    for (unsigned t = 0; t < started; t++) {
        pthread_join(tid[t], NULL);
    }
    if (c.handle) {
        check_raw_handles(&L, L.failed ? L.fail_cs : UINT32_MAX);
    }
    if (L.failed) {
        if (L.fail_is_raw) {
            put_failure(&L, L.fail_cs, &L.fail_f, r->err);
        } else {
            *r->err = L.fail_err;
        }
        iodfg_error_at(r->err, r->path, 0, 0);
        goto done;
    }
    if (pr->fn && total > 0) {
        pr->fn(pr->ctx, total, total);
    }
    rc = iodfg_eventlog_adopt(r->log, &c, total, r->cases_info, r->offsets, r->ncases, r->err);
    if (rc == 0) {
        r->cases_info = NULL;
        r->offsets = NULL;
    }
done:
    if (rc) {
        iodfg_columns_free(&c);
    }
    pthread_cond_destroy(&L.more);
    pthread_mutex_destroy(&L.lock);
    free(L.items);
    free(rows);
    free(kcp);
    scratch_free(&x);
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
    free(r->plan);
    free(r->cases_info);
    free(r->offsets);
}

/* The root's totals, before the cases are read: 0 with *events when `cases` matches /cases and
 * `events` is possible for the file's size (a column of int64 or more per event, or of 32-bit
 * ids squeezed by at most 1100:1); 1 when they are missing or do not; -1 when unreadable. */
static int root_totals(struct reader *r, uint64_t *events)
{
    uint64_t cases = 0;
    int rc1 = get_uint(r, r->file, "cases", &cases);
    int rc2 = rc1 < 0 ? -1 : get_uint(r, r->file, "events", events);
    if (rc1 < 0 || rc2 < 0) {
        return -1;
    }
    uint64_t most = r->fsize > UINT64_MAX / 1100 ? UINT64_MAX : r->fsize * 1100 / 20;
    return rc1 || rc2 || cases != r->ncases || *events > most ? 1 : 0;
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
    return iodfg_store_load_threads(path, columns, 0, progress, ctx, err);
}

struct iodfg_eventlog *iodfg_store_load_threads(const char *path, unsigned columns,
                                                unsigned threads, iodfg_progress_fn progress,
                                                void *ctx, struct iodfg_error *err)
{
    struct iodfg_error local;
    iodfg_error_clear(&local);
    struct reader r = {.path = path,
                       .file = -1,
                       .cases = -1,
                       .mtype = -1,
                       .ftype = -1,
                       .vfd = -1,
                       .columns = columns,
                       .err = err ? err : &local};
    struct progress pr = {.fn = progress, .ctx = ctx};
    unsigned version;
    uint64_t total = 0;
    int rc = -1;
    if (open_log(&r, &version) == 0 && load_strings(&r) == 0 && load_keys(&r, columns) == 0) {
        r.mtype = store_row_type(0);
        r.ftype = store_row_type(1);
        if (r.mtype < 0 || r.ftype < 0) {
            store_h5_error(r.err, IODFG_E_HDF5, path, "cannot build the row type");
        } else if (open_cases(&r) == 0) {
            int usable = root_totals(&r, &total);
            if (usable == 0) {
                rc = read_events(&r, total, threads, &pr);
            } else if (usable > 0 && scan_cases(&r, &total) == 0) {
                check_totals(&r, total); // says what the cases hold
            }
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
    struct reader r = {.path = path,
                       .file = -1,
                       .cases = -1,
                       .mtype = -1,
                       .ftype = -1,
                       .vfd = -1,
                       .err = err ? err : &local};
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
