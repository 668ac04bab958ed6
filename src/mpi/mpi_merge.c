/* SPDX-License-Identifier: MIT */
/* iodfg-mpi: merging the processes' tables. A serial convert interns each file's strings and
 * keys, in the file's own order, into the file's tables, the files in input order. Process p
 * holds a run of consecutive files and interned them the same way into its own tables
 * (iodfg_eventlog_append); interning the processes' tables in process order, each in its own
 * order, therefore meets every string and key first where the serial convert met it first, and
 * gives it the same id. Handles and cases are concatenated, as the serial writer does. */
#include "config.h"

#include "mpi_merge.h"

#include <stdlib.h>
#include <string.h>

#include "iodfg/buf.h"
#include "iodfg/error.h"
#include "iodfg/eventlog.h"
#include "iodfg/handles.h"
#include "iodfg/strpool.h"

static int put(struct iodfg_buf *b, const void *p, size_t n)
{
    return n ? iodfg_buf_add(b, p, n) : 0;
}

int mpi_tables_pack(const struct iodfg_eventlog *log, struct iodfg_buf *out)
{
    const struct iodfg_strpool *pool = iodfg_eventlog_pool(log);
    uint64_t nbytes;
    const char *bytes = iodfg_strpool_bytes(pool, &nbytes);
    uint32_t ns = iodfg_strpool_count(pool), nk = iodfg_eventlog_key_count(log);
    uint32_t nh = iodfg_eventlog_handle_count(log), nc = iodfg_eventlog_case_count(log);
    const uint64_t *coff = iodfg_eventlog_case_offsets(log);
    put(out, &ns, sizeof(ns));
    put(out, &nbytes, sizeof(nbytes));
    put(out, bytes, (size_t)nbytes);
    put(out, iodfg_strpool_offsets(pool), ((size_t)ns + 1) * sizeof(uint64_t));
    put(out, &nk, sizeof(nk));
    put(out, iodfg_eventlog_keys(log), (size_t)nk * sizeof(struct iodfg_key));
    put(out, &nh, sizeof(nh)); // the rows travel apart (mpi_tables_merge)
    put(out, &nc, sizeof(nc));
    for (uint32_t c = 0; c < nc; c++) {
        uint64_t rows = coff[c + 1] - coff[c];
        put(out, iodfg_eventlog_case(log, c), sizeof(struct iodfg_case_info));
        put(out, &rows, sizeof(rows));
    }
    return out->failed ? -1 : 0;
}

const void *mpi_take(struct mpi_cursor *c, uint64_t n)
{
    if ((uint64_t)(c->end - c->p) < n) {
        return NULL;
    }
    const void *at = c->p;
    c->p += n;
    return at;
}

static int take_u32(struct mpi_cursor *c, uint32_t *v)
{
    const void *p = mpi_take(c, sizeof(*v));
    return p ? (memcpy(v, p, sizeof(*v)), 0) : -1;
}

/* Process strings: intern each into the file's pool, in order, into smap. */
static int merge_strings(struct mpi_cursor *c, struct iodfg_strpool *dst, uint32_t **smap,
                         uint32_t *ns)
{
    uint64_t nbytes;
    const void *p = take_u32(c, ns) ? NULL : mpi_take(c, sizeof(nbytes));
    const char *bytes = p ? (memcpy(&nbytes, p, sizeof(nbytes)), mpi_take(c, nbytes)) : NULL;
    const char *offs = bytes ? mpi_take(c, ((uint64_t)*ns + 1) * sizeof(uint64_t)) : NULL;
    *smap = offs ? malloc(((size_t)*ns + 1) * sizeof(**smap)) : NULL;
    if (!*smap) {
        return -1;
    }
    for (uint32_t i = 0; i < *ns; i++) {
        uint64_t a, b;
        memcpy(&a, offs + (size_t)i * 8, 8);
        memcpy(&b, offs + (size_t)(i + 1) * 8, 8);
        if (a >= b || b > nbytes || iodfg_strpool_intern(dst, bytes + a, b - a - 1, &(*smap)[i])) {
            return -1;
        }
    }
    return 0;
}

static int merge_keys(struct mpi_cursor *c, struct iodfg_eventlog *tab, const uint32_t *smap,
                      uint32_t ns, uint32_t **kmap)
{
    uint32_t nk;
    const struct iodfg_key *keys =
        take_u32(c, &nk) ? NULL : mpi_take(c, (uint64_t)nk * sizeof(*keys));
    *kmap = keys ? malloc(((size_t)nk + 1) * sizeof(**kmap)) : NULL;
    for (uint32_t k = 0; *kmap && k < nk; k++) {
        struct iodfg_key sk;
        memcpy(&sk, &keys[k], sizeof(sk));
        if (sk.call >= ns || sk.path >= ns || sk.layer >= ns || sk.fs >= ns || sk.fstype >= ns ||
            iodfg_eventlog_key_layer(tab, smap[sk.call], smap[sk.path], smap[sk.layer],
                                     &(*kmap)[k])) {
            return -1;
        }
        if (sk.fs || sk.fstype || sk.scope > IODFG_SCOPE_UNKNOWN) {
            iodfg_eventlog_key_set_fs(tab, (*kmap)[k], smap[sk.fs], smap[sk.fstype],
                                      (enum iodfg_scope)sk.scope);
        }
    }
    return *kmap ? 0 : -1;
}

/* Process handles: counted; when they are this process's own rows (own, not NULL), moved to the
 * file's string, case and handle ids where they lie. */
static int merge_handles(struct mpi_cursor *c, struct mpi_merged *m, const uint32_t *smap,
                         uint32_t ns, struct iodfg_handle *own, uint32_t nown)
{
    uint32_t nh;
    if (take_u32(c, &nh) || (own && nh != nown) || (uint64_t)m->nhandles + nh > UINT32_MAX - 1) {
        return -1;
    }
    uint32_t base = m->nhandles;
    m->nhandles += nh;
    m->max_handles = nh > m->max_handles ? nh : m->max_handles;
    for (uint32_t i = 0; own && i < nh; i++) {
        struct iodfg_handle *h = &own[i];
        if (h->path >= ns || h->call >= ns || h->flags >= ns || h->layer >= ns) {
            return -1;
        }
        iodfg_handle_move(h, smap, m->ncases, base);
    }
    return 0;
}

static int merge_cases(struct mpi_cursor *c, struct mpi_merged *m, const uint32_t *smap,
                       uint32_t ns, uint64_t *rows)
{
    uint32_t nc;
    if (take_u32(c, &nc) || (uint64_t)m->ncases + nc > UINT32_MAX - 1) {
        return -1;
    }
    struct iodfg_case_info *cs = realloc(m->cases, ((size_t)m->ncases + nc + 1) * sizeof(*cs));
    uint64_t *first =
        cs ? realloc(m->case_first, ((size_t)m->ncases + nc + 1) * sizeof(*first)) : NULL;
    if (cs) {
        m->cases = cs;
    }
    if (!first) {
        return -1;
    }
    m->case_first = first;
    *rows = 0;
    for (uint32_t i = 0; i < nc; i++) {
        struct iodfg_case_info ci;
        const void *p = mpi_take(c, sizeof(ci));
        const void *r = p ? mpi_take(c, sizeof(uint64_t)) : NULL;
        if (!r) {
            return -1;
        }
        memcpy(&ci, p, sizeof(ci));
        uint64_t n;
        memcpy(&n, r, sizeof(n));
        if (ci.name >= ns || ci.cid >= ns || ci.host >= ns || ci.rid >= ns || ci.source >= ns) {
            return -1;
        }
        ci.name = smap[ci.name];
        ci.cid = smap[ci.cid];
        ci.host = smap[ci.host];
        ci.rid = smap[ci.rid];
        ci.source = smap[ci.source];
        cs[m->ncases] = ci;
        first[m->ncases + 1] = first[m->ncases] + n;
        m->ncases++;
        *rows += n;
    }
    return 0;
}

int mpi_tables_merge(const char *all, const uint64_t *off, struct iodfg_handle *own, uint32_t nown,
                     int n, int mine, struct mpi_merged *m, struct iodfg_error *err)
{
    memset(m, 0, sizeof(*m));
    m->tab = iodfg_eventlog_new(0);
    m->case_first = calloc(1, sizeof(*m->case_first));
    if (!m->tab || !m->case_first) {
        return iodfg_error_set(err, IODFG_E_NOMEM, NULL);
    }
    struct iodfg_strpool *pool = iodfg_eventlog_pool(m->tab);
    for (int p = 0; p < n; p++) {
        struct mpi_cursor c = {all + off[p], all + off[p + 1]};
        uint32_t *smap = NULL, *kmap = NULL, ns = 0, hbase = m->nhandles;
        uint64_t first = m->case_first[m->ncases], rows = 0;
        int rc = merge_strings(&c, pool, &smap, &ns) || merge_keys(&c, m->tab, smap, ns, &kmap) ||
                 merge_handles(&c, m, smap, ns, p == mine ? own : NULL, nown) ||
                 merge_cases(&c, m, smap, ns, &rows);
        if (rc == 0 && p == mine) {
            m->smap = smap;
            m->kmap = kmap;
            m->hbase = hbase;
            m->first = first;
            smap = kmap = NULL;
        }
        free(smap);
        free(kmap);
        if (rc) {
            return iodfg_error_set(err, IODFG_E_NOMEM,
                                   "cannot merge the tables of process %d (out of memory)", p);
        }
        m->max_rows = rows > m->max_rows ? rows : m->max_rows;
    }
    return 0;
}

void mpi_merged_fini(struct mpi_merged *m)
{
    iodfg_eventlog_free(m->tab);
    free(m->cases);
    free(m->case_first);
    free(m->smap);
    free(m->kmap);
    memset(m, 0, sizeof(*m));
}
