/* SPDX-License-Identifier: MIT */
/* HDF5 store, reading side: opening and validating the file and its root attributes, helpers
 * for attributes and whole arrays, and the shared tables (strings, keys, handles) every case
 * refers to. Kept apart from the cases so that the ids they check have one source. */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <hdf5.h>

#include "iodfg/bigmem.h"
#include "iodfg/error.h"
#include "iodfg/eventlog.h"
#include "iodfg/handles.h"
#include "iodfg/store.h"
#include "iodfg/strpool.h"

#include "readfile.h"
#include "store_priv.h"
#include "store_reader.h"

/* Longest string attribute accepted (damaged metadata could claim anything). */
#define MAX_STR_ATTR (1u << 20)

/* Most bytes a dataset may decode to: raw data never exceeds the file, and no filter HDF5 has
 * (deflate tops out near 1032:1) expands more than 1100 times. */
uint64_t store_max_bytes(const struct reader *r, hid_t d)
{
    hid_t dcpl = H5Dget_create_plist(d);
    int filtered = dcpl >= 0 && H5Pget_nfilters(dcpl) > 0;
    if (dcpl >= 0) {
        H5Pclose(dcpl);
    }
    return filtered ? (r->fsize > UINT64_MAX / 1100 ? UINT64_MAX : r->fsize * 1100) : r->fsize;
}

/* IODFG_E_FORMAT with a printf-style context and HDF5's reason, if it has one. */
int store_damaged(struct reader *r, const char *fmt, ...)
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
    struct stat st; // a pipe is never probed: opening it would block or eat its data
    if (stat(path, &st) != 0 || !S_ISREG(st.st_mode)) {
        return 0;
    }
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
int store_read_str(struct reader *r, hid_t a, const char *name, char **out, size_t *len)
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
        return store_damaged(r, "attribute %s is not a readable string", name);
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
        return ex == 0 ? 1 : store_damaged(r, "cannot read attribute %s", name);
    }
    hid_t a = H5Aopen(loc, name, H5P_DEFAULT);
    int rc = store_read_str(r, a, name, out, len);
    if (a >= 0) {
        H5Aclose(a);
    }
    return rc;
}

/* A non-negative integer attribute. 0, or -1 when it is not one (err set). */
int store_read_uint(struct reader *r, hid_t a, const char *name, uint64_t *v)
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
    return rc ? store_damaged(r, "attribute %s is not a non-negative integer", name) : 0;
}

/* The same by name. 0 = found, 1 = absent, -1 = bad (err set). */
int store_get_uint(struct reader *r, hid_t loc, const char *name, uint64_t *v)
{
    htri_t ex = H5Aexists(loc, name);
    if (ex <= 0) {
        return ex == 0 ? 1 : store_damaged(r, "cannot read attribute %s", name);
    }
    hid_t a = H5Aopen(loc, name, H5P_DEFAULT);
    int rc = store_read_uint(r, a, name, v);
    if (a >= 0) {
        H5Aclose(a);
    }
    return rc;
}

/* ---- opening --------------------------------------------------------------------------------- */

/* Plain-file checks before HDF5 sees the file, so that the usual mistakes read well: a FIFO or
 * a device is refused without being opened for reading (HDF5 would block on it). */
static int check_file(struct reader *r)
{
    int fd;
    struct stat st;
    if (readfile_check(r->path, &fd, &st, r->err)) {
        return -1;
    }
    close(fd);
    if (st.st_size == 0) {
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

int store_open_log(struct reader *r, unsigned *version)
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
    rc = store_get_uint(r, r->file, "version", &v);
    if (rc) {
        return rc < 0 ? -1 : store_damaged(r, "%s", "no version attribute");
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
    uint64_t minor = 0;
    rc = store_get_uint(r, r->file, "minor", &minor);
    if (rc < 0) {
        return -1;
    }
    // 4.1 on: every dataset carries its checksum, checked as it is read
    r->sums = v == IODFG_STORE_VERSION && minor >= 1;
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

int store_pread_all(int fd, void *buf, size_t bytes, uint64_t at)
{
    char *out = buf;
    while (bytes > 0) {
        ssize_t got = pread(fd, out, bytes, (off_t)at);
        if (got < 0 && errno == EINTR) {
            continue;
        }
        if (got <= 0) {
            if (got == 0) {
                errno = 0;
            }
            return -1;
        }
        out += got;
        at += (uint64_t)got;
        bytes -= (size_t)got;
    }
    return 0;
}

/* Memory for a column of `bytes` (freed with free()): huge pages for large ones, since
 * filling them otherwise costs more in page faults than the reading itself. */
void *store_alloc_column(size_t bytes)
{
    return iodfg_bigmem_alloc(bytes);
}

/* Read all n elements (esize bytes each in memory type mt) of dataset d into buf: with pread
 * when the dataset is a plain contiguous array of exactly that type inside the file, else with
 * H5Dread. 0, or -1 (with HDF5's error stack or errno telling why). */
int store_read_whole(const struct reader *r, hid_t d, hid_t mt, size_t esize, uint64_t n, void *buf)
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
    return store_pread_all(r->vfd, buf, (size_t)bytes, a);
}

/* Dataset d (name) read into buf (n values of mtype) against its `checksum` attribute. */
static int check_sum(struct reader *r, hid_t d, const char *name, hid_t mtype, const void *buf,
                     uint64_t n)
{
    uint64_t want = 0;
    int rc = store_get_uint(r, d, STORE_CHECKSUM, &want);
    if (rc) {
        return rc < 0 ? -1
                      : store_damaged(r, "damaged event log: dataset %s has no checksum", name);
    }
    if (store_sum_of(mtype, buf, n) != want) {
        iodfg_error_set(r->err, IODFG_E_FORMAT,
                        "damaged event log: dataset %s does not match its checksum", name);
        iodfg_error_at(r->err, r->path, 0, 0);
        return -1;
    }
    return 0;
}

/* The whole 1-D dataset `name` of class cls (at most max elements), read as mtype (esize bytes
 * each) into *buf (from store_alloc_column, never NULL on success), *n elements. 0, or -1
 * with err set. */
static int read_dataset(struct reader *r, const char *name, H5T_class_t cls, hid_t mtype,
                        size_t esize, uint64_t max, uint64_t *n, void **buf)
{
    *n = 0;
    *buf = NULL;
    hid_t d = H5Dopen2(r->file, name, H5P_DEFAULT);
    hid_t t = d < 0 ? -1 : H5Dget_type(d);
    hid_t sp = d < 0 ? -1 : H5Dget_space(d);
    int rc = -1;
    hsize_t dims[1] = {0};
    if (mtype >= 0 && t >= 0 && sp >= 0 && H5Tget_class(t) == cls &&
        H5Sget_simple_extent_ndims(sp) == 1 && H5Sget_simple_extent_dims(sp, dims, NULL) == 1 &&
        dims[0] <= max && dims[0] <= store_max_bytes(r, d) / H5Tget_size(t)) {
        *buf = store_alloc_column(dims[0] * esize);
        if (!*buf) {
            rc = iodfg_error_set(r->err, IODFG_E_NOMEM, NULL);
        } else if (store_read_whole(r, d, mtype, esize, dims[0], *buf) == 0) {
            *n = dims[0];
            rc = r->sums ? check_sum(r, d, name, mtype, *buf, dims[0]) : 0;
        }
        if (rc && *buf) {
            free(*buf);
            *buf = NULL;
            *n = 0;
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
    return rc == 0 || r->err->code ? rc
                                   : store_damaged(r, "table %s is unreadable or damaged", name);
}

/* A whole 1-D dataset of unsigned integers read as mtype (esize bytes each); at most max
 * elements. *buf is malloc'd (never NULL on success). */
static int get_array(struct reader *r, const char *name, hid_t mtype, size_t esize, uint64_t max,
                     uint64_t *n, void **buf)
{
    htri_t ex = H5Lexists(r->file, name, H5P_DEFAULT);
    if (ex <= 0) {
        return store_damaged(r, ex == 0 ? "table %s is missing" : "cannot find table %s", name);
    }
    return read_dataset(r, name, H5T_INTEGER, mtype, esize, max, n, buf);
}

int store_get_array(struct reader *r, const char *name, hid_t mtype, size_t esize, uint64_t max,
                    uint64_t *n, void **buf)
{
    return get_array(r, name, mtype, esize, max, n, buf);
}

int store_load_strings(struct reader *r)
{
    void *bytes = NULL, *offsets = NULL;
    uint64_t nbytes = 0, noff = 0;
    int rc = -1;
    if (get_array(r, STORE_STR_BYTES, H5T_NATIVE_UINT8, 1, UINT64_MAX, &nbytes, &bytes) == 0 &&
        get_array(r, STORE_STR_OFFSETS, H5T_NATIVE_UINT64, 8, (uint64_t)UINT32_MAX, &noff,
                  &offsets) == 0) {
        if (noff < 2) {
            store_damaged(r, "%s", "string table is empty");
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
        return ex < 0 ? store_damaged(r, "cannot find table %s", name) : -1;
    }
    return n == want ? 0
                     : store_damaged(r, "table %s has %llu entries, not %llu", name,
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
                return store_damaged(r, "%s: key %llu names a string out of range", names[f],
                                     (unsigned long long)k);
            }
        }
    }
    int rc = get_optional(r, STORE_KEY_SCOPE, H5T_NATIVE_UINT8, 1, nk, scope);
    for (uint64_t k = 0; rc == 0 && k < nk; k++) {
        if (((const uint8_t *)*scope)[k] >= IODFG_SCOPE__N) {
            return store_damaged(r, "%s: key %llu has an unknown scope", STORE_KEY_SCOPE,
                                 (unsigned long long)k);
        }
    }
    return rc < 0 ? -1 : 0;
}

int store_load_keys(struct reader *r, unsigned columns)
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
            rc = store_damaged(r, "%s", "key tables keys/call and keys/path differ in length");
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

int store_get_table(struct reader *r, const char *name, hid_t (*type)(int), size_t esize,
                    uint64_t max, uint64_t *n, void **buf)
{
    hid_t mt = type(0);
    int rc = read_dataset(r, name, H5T_COMPOUND, mt, esize, max, n, buf);
    if (mt >= 0) {
        H5Tclose(mt);
    }
    return rc;
}

/* Why handle row i is damaged, or NULL. */
static const char *handle_fault(const struct reader *r, const struct iodfg_handle *h, uint64_t i)
{
    return h->case_id >= r->ncases ? "case out of range"
           : h->parent > i         ? "parent is not an earlier handle"
           : h->path >= r->nstr || h->call >= r->nstr || h->flags >= r->nstr || h->layer >= r->nstr
               ? "string id out of range"
           : h->origin >= IODFG_HANDLE_ORIGIN__N ? "unknown origin"
                                                 : NULL;
}

/* Whether any of the n rows is damaged, in one pass without branches on the rows; counts each
 * case's ids into spans (ncases + 1 of them, the last for rows whose case is out of range). */
static int any_handle_fault(const struct reader *r, const struct iodfg_handle *hs, uint64_t n,
                            struct store_handle_span *spans)
{
    uint32_t nc = r->ncases, ns = r->nstr;
    uint64_t bad = 0;
    for (uint64_t i = 0; i < n; i++) {
        const struct iodfg_handle *h = &hs[i];
        bad |= (uint64_t)(h->case_id >= nc) | (uint64_t)(h->parent > i) |
               (uint64_t)(h->path >= ns) | (uint64_t)(h->call >= ns) | (uint64_t)(h->flags >= ns) |
               (uint64_t)(h->layer >= ns) | (uint64_t)(h->origin >= IODFG_HANDLE_ORIGIN__N);
        if (spans) {
            struct store_handle_span *sp = &spans[h->case_id < nc ? h->case_id : nc];
            sp->lo = sp->count ? sp->lo : (uint32_t)(i + 1);
            sp->count++;
            sp->last = (uint32_t)(i + 1);
        }
    }
    return bad != 0;
}

/* /handles (since 1.1): every row checked, then added to the log in order. */
int store_load_handles(struct reader *r, struct store_handle_span *spans)
{
    htri_t ex = H5Lexists(r->file, STORE_HANDLES, H5P_DEFAULT);
    if (ex <= 0) {
        return ex == 0 ? 0 : store_damaged(r, "cannot find table %s", STORE_HANDLES);
    }
    uint64_t n = 0;
    void *buf = NULL;
    int rc = store_get_table(r, STORE_HANDLES, store_handle_type, sizeof(struct iodfg_handle),
                             UINT32_MAX - 1, &n, &buf);
    struct iodfg_handle *hs = buf;
    const char *bad = NULL;
    uint64_t i = 0; // the 1-based id of the first damaged row
    if (rc == 0 && any_handle_fault(r, hs, n, spans)) {
        while (!bad && i < n) {
            bad = handle_fault(r, &hs[i], i);
            i++;
        }
    }
    if (bad) {
        iodfg_error_set(r->err, IODFG_E_FORMAT, "damaged event log: handle %llu: %s",
                        (unsigned long long)i, bad);
        iodfg_error_at(r->err, r->path, 0, 0);
        rc = -1;
    }
    if (rc == 0 && iodfg_eventlog_adopt_handles(r->log, hs, (uint32_t)n, r->err) == 0) {
        hs = NULL;
        r->nhandles = (uint32_t)n;
    } else if (rc == 0) {
        rc = -1;
    }
    free(hs);
    return rc;
}
