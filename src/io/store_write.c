/* SPDX-License-Identifier: MIT */
/* HDF5 store, writing side: temp file, one group per case, the case table, shared string and
 * key tables (the /events columns are in store_write_events.c). */
#include "config.h"

#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <hdf5.h>

#include "iodfg/atomicfile.h"
#include "iodfg/error.h"
#include "iodfg/eventlog.h"
#include "iodfg/handles.h"
#include "iodfg/store.h"
#include "iodfg/strpool.h"

#include "store_priv.h"
#include "store_stacks.h"
#include "store_write_priv.h"

struct iodfg_store_writer {
    char *final_path, *tmp_path;
    int force;
    hid_t file, cases;
    hid_t case_gcpl; // case groups keep their ~20 attributes compact in the object header
    struct iodfg_eventlog *tab; // no columns: the global string pool and key table
    uint32_t ncases;
    uint64_t nevents;
    struct store_events ev;       // the /events columns
    int case_views;               // give case groups virtual views of their rows
    struct store_case_row *crows; // /case_table, written at commit
    uint32_t crows_cap;
    struct store_handle_table handles; // ids and strings already ours
    struct store_block_hash *sums;     // the /events columns' block sums (4.1)
    struct store_stack_writer stacks;  // strace -k stacks (4.2)
};

static int put_attr(hid_t loc, const char *name, hid_t ftype, hid_t mtype, const void *val)
{
    hid_t sp = H5Screate(H5S_SCALAR);
    hid_t a = sp < 0 ? -1 : H5Acreate2(loc, name, ftype, sp, H5P_DEFAULT, H5P_DEFAULT);
    int rc = a < 0 || H5Awrite(a, mtype, val) < 0 ? -1 : 0;
    if (a >= 0) {
        H5Aclose(a);
    }
    if (sp >= 0) {
        H5Sclose(sp);
    }
    return rc;
}

static int put_u64(hid_t loc, const char *name, uint64_t v)
{
    return put_attr(loc, name, H5T_STD_U64LE, H5T_NATIVE_UINT64, &v);
}

int store_attr_u64(hid_t loc, const char *name, uint64_t v)
{
    return put_u64(loc, name, v);
}

static int put_u32(hid_t loc, const char *name, uint32_t v)
{
    return put_attr(loc, name, H5T_STD_U32LE, H5T_NATIVE_UINT32, &v);
}

/* A fixed-length, NUL-terminated string attribute holding exactly len bytes of s. */
static int put_str(hid_t loc, const char *name, const char *s, size_t len)
{
    hid_t t = H5Tcopy(H5T_C_S1);
    if (t < 0) {
        return -1;
    }
    char *buf = calloc(len + 1, 1);
    int rc = -1;
    if (buf && H5Tset_size(t, len + 1) >= 0 && H5Tset_strpad(t, H5T_STR_NULLTERM) >= 0) {
        memcpy(buf, s, len);
        rc = put_attr(loc, name, t, t, buf);
    }
    free(buf);
    H5Tclose(t);
    return rc;
}

static int put_cstr(hid_t loc, const char *name, const char *s)
{
    return put_str(loc, name, s, strlen(s));
}

/* A 1-D contiguous dataset of n elements (n may be 0), with its checksum (4.1). */
static int put_array(hid_t loc, const char *name, hid_t ftype, hid_t mtype, const void *data,
                     uint64_t n)
{
    hsize_t dims[1] = {n};
    hid_t sp = H5Screate_simple(1, dims, NULL);
    hid_t d = sp < 0 ? -1 : H5Dcreate2(loc, name, ftype, sp, H5P_DEFAULT, H5P_DEFAULT, H5P_DEFAULT);
    int rc = d < 0 || (n > 0 && H5Dwrite(d, mtype, H5S_ALL, H5S_ALL, H5P_DEFAULT, data) < 0) ||
             put_u64(d, STORE_CHECKSUM, store_sum_of(mtype, data, n));
    if (d >= 0) {
        H5Dclose(d);
    }
    if (sp >= 0) {
        H5Sclose(sp);
    }
    return rc ? -1 : 0;
}

/* ---- create / abort -------------------------------------------------------------------------- */

static void close_ids(struct iodfg_store_writer *w)
{
    store_events_free(&w->ev);
    if (w->cases >= 0) {
        H5Gclose(w->cases);
    }
    if (w->case_gcpl >= 0) {
        H5Pclose(w->case_gcpl);
    }
    if (w->file >= 0) {
        H5Fclose(w->file);
    }
    w->cases = w->case_gcpl = w->file = -1;
}

static void free_writer(struct iodfg_store_writer *w)
{
    iodfg_eventlog_free(w->tab);
    store_block_hash_free(w->sums);
    free(w->crows);
    store_handle_table_free(&w->handles);
    store_stacks_fini(&w->stacks);
    free(w->final_path);
    free(w->tmp_path);
    free(w);
}

void iodfg_store_abort(struct iodfg_store_writer *w)
{
    if (!w) {
        return;
    }
    store_h5_quiet();
    close_ids(w);
    if (w->tmp_path) {
        unlink(w->tmp_path);
    }
    free_writer(w);
}

int iodfg_store_set_case_views(struct iodfg_store_writer *w, int on, struct iodfg_error *err)
{
    // Virtual datasets need the 1.10 file format; everything else stays 1.8.
    if (on && H5Fset_libver_bounds(w->file, H5F_LIBVER_V18, H5F_LIBVER_V110) < 0) {
        return store_h5_error(err, IODFG_E_HDF5, w->final_path, "cannot allow virtual datasets");
    }
    w->case_views = on;
    return 0;
}

const char *iodfg_store_temp_path(const struct iodfg_store_writer *w)
{
    return w->tmp_path;
}

hid_t store_file_create(const char *path, hid_t fapl)
{
    // Format 1.8 objects carry metadata checksums (damage is detected, not misread) and stay
    // readable by every HDF5 since 1.8, h5py included.
    hid_t own = fapl < 0 ? H5Pcreate(H5P_FILE_ACCESS) : -1;
    hid_t use = fapl < 0 ? own : fapl;
    if (use < 0) {
        return -1;
    }
    hid_t f = -1;
    if (H5Pset_libver_bounds(use, H5F_LIBVER_V18, H5F_LIBVER_V18) >= 0) {
        f = H5Fcreate(path, H5F_ACC_TRUNC, H5P_DEFAULT, use);
    }
    if (own >= 0) {
        H5Pclose(own);
    }
    return f;
}

hid_t store_cases_create(hid_t file, hid_t *case_gcpl)
{
    hid_t gcpl = H5Pcreate(H5P_GROUP_CREATE);
    hid_t g = -1;
    if (gcpl >= 0 &&
        H5Pset_link_creation_order(gcpl, H5P_CRT_ORDER_TRACKED | H5P_CRT_ORDER_INDEXED) >= 0) {
        g = H5Gcreate2(file, STORE_CASES, H5P_DEFAULT, gcpl, H5P_DEFAULT);
    }
    if (gcpl >= 0) {
        H5Pclose(gcpl);
    }
    // Past 8 attributes (or links: one per column) HDF5 would move them into a dense store (a
    // heap and a B-tree per group): several KiB per case and slower to read.
    *case_gcpl = g < 0 ? -1 : H5Pcreate(H5P_GROUP_CREATE);
    if (*case_gcpl < 0 || H5Pset_attr_phase_change(*case_gcpl, 64, 48) < 0 ||
        H5Pset_link_phase_change(*case_gcpl, 16, 14) < 0) {
        if (g >= 0) {
            H5Gclose(g);
        }
        return -1;
    }
    return g;
}

struct iodfg_store_writer *iodfg_store_create(const char *final_path, int force,
                                              struct iodfg_error *err)
{
    store_h5_quiet();
    struct stat st;
    if (!force && lstat(final_path, &st) == 0) {
        iodfg_error_set(err, IODFG_E_EXISTS, "file exists (use --force to overwrite)");
        iodfg_error_at(err, final_path, 0, 0);
        return NULL;
    }
    struct iodfg_store_writer *w = calloc(1, sizeof(*w));
    if (!w) {
        iodfg_error_set(err, IODFG_E_NOMEM, NULL);
        return NULL;
    }
    w->file = w->cases = w->case_gcpl = -1;
    store_events_init(&w->ev);
    w->force = force;
    w->final_path = strdup(final_path);
    w->tab = iodfg_eventlog_new(0);
    w->sums = store_block_hash_new();
    if (!w->final_path || !w->tab || !w->sums) {
        iodfg_error_set(err, IODFG_E_NOMEM, NULL);
        free_writer(w);
        return NULL;
    }
    int fd = iodfg_atomic_tmpfile(final_path, &w->tmp_path, err);
    if (fd < 0) {
        free_writer(w);
        return NULL;
    }
    close(fd);
    w->file = store_file_create(w->tmp_path, -1);
    if (w->file < 0) {
        store_h5_error(err, IODFG_E_IO, w->final_path, "cannot create HDF5 file");
        goto fail;
    }
    w->cases = store_cases_create(w->file, &w->case_gcpl);
    if (w->cases < 0 || store_events_create(&w->ev, w->file) < 0) {
        store_h5_error(err, IODFG_E_HDF5, w->final_path, "cannot set up the event log");
        goto fail;
    }
    return w;
fail:
    iodfg_store_abort(w);
    return NULL;
}

/* ---- cases ----------------------------------------------------------------------------------- */

/* Whether name can be a link under /cases as it is: printable ASCII without '/', not "." or
 * "..", not starting with '#' (numbered names use that). */
static int is_link_name(const char *s, size_t len)
{
    if (len == 0 || len > 255 || s[0] == '#' || strcmp(s, ".") == 0 || strcmp(s, "..") == 0) {
        return 0;
    }
    for (size_t i = 0; i < len; i++) {
        if (s[i] < 0x20 || s[i] > 0x7e || s[i] == '/') {
            return 0;
        }
    }
    return 1;
}

int store_case_link(const char *name, size_t len, hid_t cases, struct iodfg_strpool *taken,
                    uint32_t index, char *link, size_t size)
{
    uint32_t id;
    int own = is_link_name(name, len) && (taken ? iodfg_strpool_find(taken, name, len, &id) != 0
                                                : H5Lexists(cases, name, H5P_DEFAULT) == 0);
    if (own && taken && iodfg_strpool_intern(taken, name, len, &id)) {
        return -1;
    }
    if (own) {
        snprintf(link, size, "%s", name);
    } else {
        snprintf(link, size, "#%u", index);
    }
    return 0;
}

int store_case_attrs(hid_t g, const struct store_case_row *r, const struct iodfg_strpool *sp,
                     uint64_t index)
{
    static const char *const snames[] = {"name", "cid", "host", "rid", "source"};
    const uint32_t sids[] = {r->name, r->cid, r->host, r->rid, r->source};
    for (int i = 0; i < 5; i++) {
        if (put_str(g, snames[i], iodfg_strpool_get(sp, sids[i]), iodfg_strpool_len(sp, sids[i]))) {
            return -1;
        }
    }
    if (put_u64(g, "index", index) || put_u64(g, "first", r->first) ||
        put_u64(g, "rows", r->rows) || put_cstr(g, "naming", store_naming_name(r->naming)) ||
        put_u32(g, "naming_id", r->naming) ||
        put_cstr(g, "clock", iodfg_clock_name((enum iodfg_clock)r->clock)) ||
        put_u32(g, "clock_id", r->clock) || put_u64(g, "lines", r->lines) ||
        put_u64(g, "bytes", r->bytes)) {
        return -1;
    }
    for (int c = 0; c < IODFG_COUNT__N; c++) {
        if (put_u64(g, iodfg_count_name((enum iodfg_count)c), r->counts[c])) {
            return -1;
        }
    }
    return 0;
}

const void *store_plain_source(const struct iodfg_columns *src, enum store_col c)
{
    switch (c) {
    case STORE_C_PID:
        return src->pid;
    case STORE_C_START:
        return src->start_ns;
    case STORE_C_DUR:
        return src->dur_ns;
    case STORE_C_SIZE:
        return src->size;
    case STORE_C_OFFSET:
        return src->offset;
    case STORE_C_REQ:
        return src->req;
    case STORE_C_FD:
        return src->fd;
    default:
        return NULL;
    }
}

static void fill_u32(uint32_t *u32, uint64_t n, uint32_t v)
{
    for (uint64_t j = 0; j < n; j++) {
        u32[j] = v;
    }
}

void store_fill_column(const struct store_wmaps *m, const struct iodfg_key *keys, enum store_col c,
                       uint64_t i, uint64_t n, void *buf)
{
    const struct iodfg_columns *s = iodfg_eventlog_columns(m->src);
    const uint32_t *key = s->key ? s->key + i : NULL;
    uint32_t *u32 = buf;
    int32_t *i32 = buf;
    int64_t *i64 = buf;
    // the tests on the source's columns outside the loops, which run for every event
    switch (c) {
    case STORE_C_KEY:
        if (!key) {
            fill_u32(u32, n, m->nokey);
            break;
        }
        for (uint64_t j = 0; j < n; j++) {
            u32[j] = m->kmap[key[j]];
        }
        break;
    case STORE_C_CALL:
    case STORE_C_FP: {
        size_t field =
            c == STORE_C_CALL ? offsetof(struct iodfg_key, call) : offsetof(struct iodfg_key, path);
        for (uint64_t j = 0; j < n; j++) {
            const char *k = (const char *)&keys[key ? m->kmap[key[j]] : m->nokey];
            memcpy(&u32[j], k + field, sizeof(uint32_t));
        }
        break;
    }
    case STORE_C_ERR:
        if (!s->err) {
            fill_u32(u32, n, IODFG_STR_EMPTY);
            break;
        }
        for (uint64_t j = 0; j < n; j++) {
            u32[j] = m->smap[s->err[i + j]];
        }
        break;
    case STORE_C_HANDLE:
        if (!s->handle) {
            fill_u32(u32, n, 0);
            break;
        }
        for (uint64_t j = 0; j < n; j++) {
            uint32_t h = s->handle[i + j];
            u32[j] = h ? h + m->hbase : 0;
        }
        break;
    case STORE_C_PID:
        memset(i32, 0, (size_t)n * sizeof(*i32));
        break;
    case STORE_C_FD:
        for (uint64_t j = 0; j < n; j++) {
            i32[j] = IODFG_NO_FD;
        }
        break;
    case STORE_C_START:
        memset(i64, 0, (size_t)n * sizeof(*i64));
        break;
    default: // dur, size, offset, req
        for (uint64_t j = 0; j < n; j++) {
            i64[j] = IODFG_UNKNOWN;
        }
        break;
    }
}

/* Put k rows of the source from row `at` on into the slots of the /events columns; with
 * from (a whole chunk into empty buffers) plain columns are only pointed at there. */
static void put_rows(struct iodfg_store_writer *w, const struct store_wmaps *m, uint64_t at,
                     uint32_t k, const void **from)
{
    const struct iodfg_columns *src = iodfg_eventlog_columns(m->src);
    for (int c = 0; c < STORE_C__N; c++) {
        void *to = store_events_slot(&w->ev, (enum store_col)c);
        const char *plain = store_plain_source(src, (enum store_col)c);
        if (!plain) { // computed: ids mapped to ours, defaults
            store_fill_column(m, iodfg_eventlog_keys(w->tab), (enum store_col)c, at, k, to);
        } else if (!from) { // native columns are copied as they are
            memcpy(to, plain + at * store_cols[c].size, (size_t)k * store_cols[c].size);
        }
        if (from) {
            from[c] = plain ? plain + at * store_cols[c].size : NULL;
        }
    }
}

/* Append the source's events [first, first + n) to the /events columns. */
static int append_rows(struct iodfg_store_writer *w, const struct store_wmaps *m, uint64_t first,
                       uint64_t n)
{
    for (uint64_t done = 0; done < n;) {
        uint32_t k = store_events_room(&w->ev);
        k = n - done < k ? (uint32_t)(n - done) : k;
        int rc;
        const void *vals[STORE_C__N]; // the rows' values as written, for the block sums
        for (int c = 0; c < STORE_C__N; c++) {
            vals[c] = store_events_slot(&w->ev, (enum store_col)c);
        }
        if (k == STORE_EVENT_CHUNK_ROWS) { // a whole chunk: no copy of the native columns
            const void *from[STORE_C__N];
            put_rows(w, m, first + done, k, from);
            for (int c = 0; c < STORE_C__N; c++) {
                vals[c] = from[c] ? from[c] : vals[c];
            }
            rc = store_block_hash_add(w->sums, vals, k) || store_events_put_chunk(&w->ev, from);
        } else {
            put_rows(w, m, first + done, k, NULL);
            rc = store_block_hash_add(w->sums, vals, k) || store_events_advance(&w->ev, k);
        }
        if (rc) {
            return -1;
        }
        done += k;
    }
    return 0;
}

void store_case_row_fill(struct store_case_row *r, const struct iodfg_case_info *ci,
                         const uint32_t *smap, uint64_t first, uint64_t n)
{
    memset(r, 0, sizeof(*r));
    r->name = smap ? smap[ci->name] : ci->name;
    r->cid = smap ? smap[ci->cid] : ci->cid;
    r->host = smap ? smap[ci->host] : ci->host;
    r->rid = smap ? smap[ci->rid] : ci->rid;
    r->source = smap ? smap[ci->source] : ci->source;
    r->naming = (uint32_t)ci->naming;
    r->clock = (uint32_t)ci->clock;
    r->first = first;
    r->rows = n;
    r->lines = ci->lines;
    r->bytes = ci->bytes;
    memcpy(r->counts, ci->counts, sizeof(r->counts));
}

/* Remember case cs's row of /case_table (its strings are ours through m). */
static struct store_case_row *add_case_row(struct iodfg_store_writer *w,
                                           const struct store_wmaps *m,
                                           const struct iodfg_case_info *ci, uint64_t first,
                                           uint64_t n)
{
    if (w->ncases == w->crows_cap) {
        uint32_t cap = w->crows_cap ? w->crows_cap * 2 : 64;
        struct store_case_row *p = realloc(w->crows, (size_t)cap * sizeof(*p));
        if (!p) {
            return NULL;
        }
        w->crows = p;
        w->crows_cap = cap;
    }
    store_case_row_fill(&w->crows[w->ncases], ci, m->smap, first, n);
    return &w->crows[w->ncases];
}

static int write_case(struct iodfg_store_writer *w, const struct store_wmaps *m, uint32_t cs,
                      struct iodfg_error *err)
{
    const struct iodfg_case_info *ci = iodfg_eventlog_case(m->src, cs);
    const uint64_t *off = iodfg_eventlog_case_offsets(m->src);
    char link[300];
    store_case_link(iodfg_strpool_get(m->sp, ci->name), iodfg_strpool_len(m->sp, ci->name),
                    w->cases, NULL, w->ncases, link, sizeof(link));
    uint64_t first = w->ev.rows, n = off[cs + 1] - off[cs];
    const struct store_case_row *row = add_case_row(w, m, ci, first, n);
    hid_t g = row ? H5Gcreate2(w->cases, link, H5P_DEFAULT, w->case_gcpl, H5P_DEFAULT) : -1;
    int rc = -1;
    if (g >= 0 && store_case_attrs(g, row, iodfg_eventlog_pool(w->tab), w->ncases) == 0 &&
        append_rows(w, m, off[cs], n) == 0 && store_block_hash_end_case(w->sums) == 0 &&
        (!w->case_views || store_events_views(g, first, n) == 0)) {
        rc = 0;
    }
    if (rc) { // before H5Gclose, which clears HDF5's error stack (the reason: ENOSPC, ...)
        store_h5_error(err, IODFG_E_IO, w->final_path, "cannot write case %s", link);
    }
    if (g >= 0) {
        H5Gclose(g);
    }
    if (rc) {
        return -1;
    }
    w->ncases++;
    w->nevents += n;
    return 0;
}

static int build_maps(struct iodfg_store_writer *w, struct store_wmaps *m)
{
    struct iodfg_strpool *dst = iodfg_eventlog_pool(w->tab);
    uint32_t ns = iodfg_strpool_count(m->sp), nk = iodfg_eventlog_key_count(m->src);
    const struct iodfg_key *keys = iodfg_eventlog_keys(m->src);
    m->smap = malloc((size_t)ns * sizeof(*m->smap));
    m->kmap = malloc(((size_t)nk + 1) * sizeof(*m->kmap));
    if (!m->smap || !m->kmap) {
        return -1;
    }
    for (uint32_t i = 0; i < ns; i++) {
        if (iodfg_strpool_intern(dst, iodfg_strpool_get(m->sp, i), iodfg_strpool_len(m->sp, i),
                                 &m->smap[i])) {
            return -1;
        }
    }
    for (uint32_t k = 0; k < nk; k++) {
        const struct iodfg_key *sk = &keys[k];
        if (iodfg_eventlog_key_layer(w->tab, m->smap[sk->call], m->smap[sk->path],
                                     m->smap[sk->layer], &m->kmap[k])) {
            return -1;
        }
        if (sk->fs || sk->fstype || sk->scope > IODFG_SCOPE_UNKNOWN) {
            iodfg_eventlog_key_set_fs(w->tab, m->kmap[k], m->smap[sk->fs], m->smap[sk->fstype],
                                      (enum iodfg_scope)sk->scope);
        }
    }
    // A log without a key column gets the key ("", "") for its events.
    m->nokey = 0;
    if (!iodfg_eventlog_columns(m->src)->key) {
        return iodfg_eventlog_key(w->tab, IODFG_STR_EMPTY, IODFG_STR_EMPTY, &m->nokey);
    }
    return 0;
}

/* Copy the source's handles into our table (before its cases are written). */
static int add_handles(struct iodfg_store_writer *w, const struct store_wmaps *m)
{
    uint32_t n = iodfg_eventlog_handle_count(m->src);
    const struct iodfg_handle *hs = iodfg_eventlog_handles(m->src);
    for (uint32_t i = 0; i < n; i++) {
        struct iodfg_handle *h = store_handle_table_next(&w->handles);
        if (!h) {
            return -1;
        }
        *h = hs[i];
        iodfg_handle_move(h, m->smap, w->ncases, m->hbase);
    }
    return 0;
}

int iodfg_store_write_cases(struct iodfg_store_writer *w, const struct iodfg_eventlog *log,
                            struct iodfg_error *err)
{
    store_h5_quiet();
    uint32_t ncases = iodfg_eventlog_case_count(log);
    if (ncases == 0) {
        return 0;
    }
    if ((uint64_t)w->ncases + ncases > UINT32_MAX - 1) {
        return iodfg_error_set(err, IODFG_E_LIMIT, "too many cases");
    }
    struct store_wmaps m = {.src = log, .sp = iodfg_eventlog_pool(log), .hbase = w->handles.n};
    int rc = 0;
    if (build_maps(w, &m) || add_handles(w, &m) ||
        store_stacks_add(&w->stacks, log, m.smap, w->nevents)) {
        rc = iodfg_error_set(err, IODFG_E_NOMEM, NULL);
    }
    for (uint32_t cs = 0; rc == 0 && cs < ncases; cs++) {
        rc = write_case(w, &m, cs, err);
    }
    free(m.smap);
    free(m.kmap);
    return rc;
}

/* ---- commit ---------------------------------------------------------------------------------- */

/* keys/layer, keys/fs, keys/fstype (string ids) and keys/scope (uint8), using col (nk+1). */
static int write_key_attrs(hid_t gk, const struct iodfg_key *keys, uint32_t nk, uint32_t *col)
{
    static const char *const names[] = {"layer", "fs", "fstype"};
    for (int f = 0; f < 3; f++) {
        for (uint32_t k = 0; k < nk; k++) {
            col[k] = f == 0 ? keys[k].layer : f == 1 ? keys[k].fs : keys[k].fstype;
        }
        if (put_array(gk, names[f], H5T_STD_U32LE, H5T_NATIVE_UINT32, col, nk)) {
            return -1;
        }
    }
    uint8_t *scope = (uint8_t *)col;
    for (uint32_t k = 0; k < nk; k++) {
        scope[k] = keys[k].scope;
    }
    return put_array(gk, "scope", H5T_STD_U8LE, H5T_NATIVE_UINT8, scope, nk);
}

/* A 1-D table of n compound rows of the type type() makes (store_priv.h). */
static int put_table(hid_t loc, const char *name, hid_t (*type)(int), const void *rows, uint64_t n)
{
    hid_t ft = type(1), mt = type(0);
    int rc = ft < 0 || mt < 0 ? -1 : put_array(loc, name, ft, mt, rows, n);
    if (ft >= 0) {
        H5Tclose(ft);
    }
    if (mt >= 0) {
        H5Tclose(mt);
    }
    return rc;
}

int store_write_strings_keys(hid_t file, const struct iodfg_eventlog *tab)
{
    const struct iodfg_strpool *pool = iodfg_eventlog_pool(tab);
    uint64_t nbytes;
    const char *bytes = iodfg_strpool_bytes(pool, &nbytes);
    uint32_t nstr = iodfg_strpool_count(pool), nk = iodfg_eventlog_key_count(tab);
    const struct iodfg_key *keys = iodfg_eventlog_keys(tab);
    uint32_t *col = malloc(((size_t)nk + 1) * sizeof(*col));
    hid_t gs = H5Gcreate2(file, "strings", H5P_DEFAULT, H5P_DEFAULT, H5P_DEFAULT);
    hid_t gk = H5Gcreate2(file, "keys", H5P_DEFAULT, H5P_DEFAULT, H5P_DEFAULT);
    int rc = -1;
    if (col && gs >= 0 && gk >= 0 &&
        put_array(gs, "bytes", H5T_STD_U8LE, H5T_NATIVE_UINT8, bytes, nbytes) == 0 &&
        put_array(gs, "offsets", H5T_STD_U64LE, H5T_NATIVE_UINT64, iodfg_strpool_offsets(pool),
                  (uint64_t)nstr + 1) == 0) {
        for (uint32_t k = 0; k < nk; k++) {
            col[k] = keys[k].call;
        }
        if (put_array(gk, "call", H5T_STD_U32LE, H5T_NATIVE_UINT32, col, nk) == 0) {
            for (uint32_t k = 0; k < nk; k++) {
                col[k] = keys[k].path;
            }
            rc = put_array(gk, "path", H5T_STD_U32LE, H5T_NATIVE_UINT32, col, nk);
        }
        rc = rc || write_key_attrs(gk, keys, nk, col) ? -1 : 0;
    }
    if (gk >= 0) {
        H5Gclose(gk);
    }
    if (gs >= 0) {
        H5Gclose(gs);
    }
    free(col);
    return rc;
}

int store_write_case_table(hid_t file, const struct store_case_row *rows, uint32_t n)
{
    return put_table(file, STORE_CASE_TABLE, store_case_type, rows, n);
}

int store_write_block_sums(hid_t file, const struct store_block_sum *rows, uint64_t n)
{
    return put_table(file, STORE_BLOCK_SUMS, store_block_sum_type, rows, n);
}

int store_write_root(hid_t f, uint64_t ncases, uint64_t nevents, unsigned minor)
{
    return put_cstr(f, "format", IODFG_STORE_FORMAT) ||
                   put_u32(f, "version", IODFG_STORE_VERSION) || put_u32(f, "minor", minor) ||
                   put_cstr(f, "created_by", PACKAGE_NAME " " PACKAGE_VERSION) ||
                   put_u64(f, "cases", ncases) || put_u64(f, "events", nevents)
               ? -1
               : 0;
}

int iodfg_store_commit(struct iodfg_store_writer *w, struct iodfg_error *err)
{
    store_h5_quiet();
    uint64_t nsums;
    const struct store_block_sum *sums = store_block_hash_sums(w->sums, &nsums);
    if (store_events_finish(&w->ev) || store_write_case_table(w->file, w->crows, w->ncases) ||
        store_write_block_sums(w->file, sums, nsums) || store_write_strings_keys(w->file, w->tab) ||
        store_handle_table_write(w->file, &w->handles) ||
        (w->stacks.stacks && store_stacks_write(w->file, &w->stacks)) ||
        store_write_root(w->file, w->ncases, w->nevents,
                         w->stacks.stacks ? STORE_MINOR_STACKS : IODFG_STORE_MINOR)) {
        store_h5_error(err, IODFG_E_IO, w->final_path, "cannot write the event log tables");
        goto fail;
    }
    H5Gclose(w->cases);
    w->cases = -1;
    store_events_free(&w->ev);
    herr_t closed = H5Fclose(w->file);
    w->file = -1;
    if (closed < 0) {
        store_h5_error(err, IODFG_E_IO, w->final_path, "cannot close the event log");
        goto fail;
    }
    if (iodfg_atomic_publish(w->tmp_path, w->final_path, w->force, err)) {
        goto fail;
    }
    free(w->tmp_path);
    w->tmp_path = NULL;
    free_writer(w);
    return 0;
fail:
    iodfg_store_abort(w);
    return -1;
}
