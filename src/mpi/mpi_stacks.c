/* SPDX-License-Identifier: MIT */
/* iodfg-mpi and strace -k stacks. Convert: a serial writer merges each file's stack table into
 * the log's in file order (frames, then stacks, each in the file's order; iodfg_stacks_merge);
 * process p parsed a run of consecutive files and merged their tables the same way into its
 * part (iodfg_eventlog_append). Merging the parts' tables in process order therefore meets every
 * frame and stack first where the serial writer met it, and gives it the same id. Analysis: keys
 * split by call site get new keys in the order a serial run meets them, on every process. */
#include "config.h"

#include "mpi_stacks.h"

#include <stdlib.h>
#include <string.h>

#include "iodfg/buf.h"
#include "iodfg/callsites.h"
#include "iodfg/error.h"
#include "iodfg/eventlog.h"
#include "iodfg/focus.h"
#include "iodfg/stacks.h"
#include "iodfg/strpool.h"

#include "cmdline/cli.h"
#include "mpi_comm.h"
#include "mpi_merge.h"

void mpi_stacks_fini(struct mpi_stacks *s)
{
    iodfg_stacks_free(s->tab);
    free(s->ids);
    memset(s, 0, sizeof(*s));
}

/* The part's table: u32 has-stacks, u32 frames, the frames (strings in the file's ids), u32
 * stacks, u64 offsets (stacks + 1), u32 frame ids. */
static int pack(const struct iodfg_eventlog *part, const uint32_t *smap, struct iodfg_buf *b)
{
    const struct iodfg_stacks *st = iodfg_eventlog_stacks(part);
    uint32_t has = st != NULL, nf = iodfg_stacks_frame_count(st), ns = iodfg_stacks_count(st);
    iodfg_buf_add(b, &has, sizeof(has));
    if (!has) {
        return b->failed ? -1 : 0;
    }
    const struct iodfg_frame *fr = iodfg_stacks_frames(st);
    const uint64_t *off = iodfg_stacks_offsets(st);
    iodfg_buf_add(b, &nf, sizeof(nf));
    for (uint32_t f = 0; f < nf; f++) {
        struct iodfg_frame x = fr[f];
        x.object = smap[x.object];
        x.function = smap[x.function];
        iodfg_buf_add(b, &x, sizeof(x));
    }
    iodfg_buf_add(b, &ns, sizeof(ns));
    iodfg_buf_add(b, off, ((size_t)ns + 1) * sizeof(*off));
    if (off[ns]) {
        iodfg_buf_add(b, iodfg_stacks_ids(st), (size_t)off[ns] * sizeof(uint32_t));
    }
    return b->failed ? -1 : 0;
}

/* Merge one process's packed table into tab (made when the first one with stacks comes); *map
 * (malloc'd, stacks + 1 entries) its stack ids in tab's when keep. 0, or -1 (memory, damage). */
static int merge_one(struct mpi_cursor *c, struct iodfg_stacks **tab, int keep, uint32_t **map)
{
    uint32_t has, nf, ns;
    const void *p = mpi_take(c, sizeof(has));
    if (!p || (memcpy(&has, p, sizeof(has)), !has)) {
        return p ? 0 : -1;
    }
    if (!(p = mpi_take(c, sizeof(nf)))) {
        return -1;
    }
    memcpy(&nf, p, sizeof(nf));
    const char *frames = mpi_take(c, (uint64_t)nf * sizeof(struct iodfg_frame));
    const void *pn = frames ? mpi_take(c, sizeof(ns)) : NULL;
    if (!pn || (!*tab && !(*tab = iodfg_stacks_new()))) {
        return -1;
    }
    memcpy(&ns, pn, sizeof(ns));
    uint32_t *fmap = malloc(((size_t)nf + 1) * sizeof(*fmap));
    uint32_t *smap = malloc(((size_t)ns + 1) * sizeof(*smap));
    uint64_t *off = malloc(((size_t)ns + 1) * sizeof(*off));
    const void *po = mpi_take(c, ((uint64_t)ns + 1) * sizeof(uint64_t));
    int ok = fmap && smap && off && po;
    for (uint32_t f = 0; ok && f < nf; f++) {
        struct iodfg_frame x;
        memcpy(&x, frames + (size_t)f * sizeof(x), sizeof(x));
        ok = iodfg_stacks_frame(*tab, &x, &fmap[f + 1]) == 0;
    }
    const char *ids = NULL;
    if (ok) {
        memcpy(off, po, ((size_t)ns + 1) * sizeof(*off));
        ok = off[0] == 0 && (ids = mpi_take(c, off[ns] * sizeof(uint32_t))) != NULL;
    }
    uint32_t *run = NULL, cap = 0;
    smap[0] = 0;
    for (uint32_t s = 0; ok && s < ns; s++) {
        uint64_t n = off[s + 1] - off[s];
        ok = off[s + 1] > off[s] && off[s + 1] <= off[ns] && n < UINT32_MAX;
        if (ok && n > cap) {
            uint32_t *r = realloc(run, (size_t)n * sizeof(*r));
            ok = r != NULL;
            run = r ? r : run;
            cap = r ? (uint32_t)n : cap;
        }
        for (uint64_t i = 0; ok && i < n; i++) {
            uint32_t id;
            memcpy(&id, ids + (off[s] + i) * sizeof(id), sizeof(id));
            ok = id >= 1 && id <= nf;
            run[i] = ok ? fmap[id] : 0;
        }
        ok = ok && iodfg_stacks_intern(*tab, run, (uint32_t)n, &smap[s + 1]) == 0;
    }
    free(run);
    free(fmap);
    free(off);
    if (ok && keep) {
        *map = smap;
        smap = NULL;
    }
    free(smap);
    return ok ? 0 : -1;
}

/* This process's events' ids in the merged table (map: NULL when its part has no stacks). */
static uint32_t *event_ids(const struct iodfg_eventlog *part, const uint32_t *map)
{
    uint64_t n = iodfg_eventlog_event_count(part);
    const uint32_t *own = iodfg_eventlog_stack_ids(part);
    uint32_t *ids = calloc((size_t)n + 1, sizeof(*ids));
    for (uint64_t e = 0; ids && map && own && e < n; e++) {
        ids[e] = map[own[e]];
    }
    return ids;
}

int mpi_stacks_merge(const struct mpi_job *job, const struct iodfg_eventlog *part,
                     const uint32_t *smap, struct mpi_stacks *out, struct iodfg_error *err)
{
    memset(out, 0, sizeof(*out));
    struct iodfg_buf b;
    iodfg_buf_init(&b);
    int rc = pack(part, smap, &b) ? iodfg_error_set(err, IODFG_E_NOMEM, NULL) : 0;
    char *all = NULL;
    uint64_t *off = NULL;
    uint32_t *map = NULL;
    if (mpi_agree(job, rc, err) == 0 &&
        mpi_allgather_bytes(job, b.data, b.len, &all, &off, err) == 0) {
        for (int p = 0; rc == 0 && p < job->size; p++) {
            struct mpi_cursor c = {all + off[p], all + off[p + 1]};
            if (merge_one(&c, &out->tab, p == job->rank, &map)) {
                rc = iodfg_error_set(err, IODFG_E_NOMEM, "cannot merge the processes' stacks");
            }
        }
        if (rc == 0 && out->tab && !(out->ids = event_ids(part, map))) {
            rc = iodfg_error_set(err, IODFG_E_NOMEM, NULL);
        }
    } else {
        rc = -1;
    }
    free(map);
    free(all);
    free(off);
    iodfg_buf_fini(&b);
    if (mpi_agree(job, rc, err)) {
        mpi_stacks_fini(out);
        return -1;
    }
    return 0;
}

/* ---- keys split by call site ---- */

/* The distinct (key, site) pairs of this process's events that the split moves, in the order
 * its events meet them: (key << 32 | site) values into b. 0, or -1 when out of memory. */
static int moved_pairs(const struct iodfg_eventlog *log, const uint32_t *site, struct iodfg_buf *b)
{
    const uint32_t *stack = iodfg_eventlog_stack_ids(log);
    const uint32_t *key = iodfg_eventlog_columns(log)->key;
    const struct iodfg_key *keys = iodfg_eventlog_keys(log);
    uint64_t n = iodfg_eventlog_event_count(log), nslots = 64, used = 0;
    uint64_t *slot = calloc(nslots, sizeof(*slot));
    for (uint64_t e = 0; slot && stack && key && e < n; e++) {
        uint32_t s = site[stack[e]];
        if (s == IODFG_STR_EMPTY || keys[key[e]].site == s) {
            continue;
        }
        uint64_t v = (uint64_t)key[e] << 32 | s, h = (v * 0x9E3779B97F4A7C15ull) >> 20;
        while (slot[h & (nslots - 1)] && slot[h & (nslots - 1)] != v + 1) {
            h++;
        }
        if (slot[h & (nslots - 1)]) {
            continue;
        }
        slot[h & (nslots - 1)] = v + 1; // 0: a free slot
        iodfg_buf_add(b, &v, sizeof(v));
        if (++used * 2 > nslots) { // rebuild twice as large from the pairs kept so far
            free(slot);
            nslots *= 2;
            slot = calloc(nslots, sizeof(*slot));
            const uint64_t *kept = (const uint64_t *)b->data;
            for (uint64_t i = 0; slot && i < used; i++) {
                uint64_t k = kept[i], g = (k * 0x9E3779B97F4A7C15ull) >> 20;
                while (slot[g & (nslots - 1)]) {
                    g++;
                }
                slot[g & (nslots - 1)] = k + 1;
            }
        }
    }
    int rc = slot && !b->failed ? 0 : -1;
    free(slot);
    return rc;
}

/* Every process's pairs, in process order, made keys of log as a serial split meets them. */
static int add_keys(struct iodfg_eventlog *log, const char *all, const uint64_t *off, int n)
{
    uint32_t nk = iodfg_eventlog_key_count(log);
    for (int p = 0; p < n; p++) {
        for (uint64_t at = off[p]; at + sizeof(uint64_t) <= off[p + 1]; at += sizeof(uint64_t)) {
            uint64_t v;
            memcpy(&v, all + at, sizeof(v));
            uint32_t k0 = (uint32_t)(v >> 32), s = (uint32_t)v, id;
            if (k0 >= nk) {
                return -1;
            }
            struct iodfg_key k = iodfg_eventlog_keys(log)[k0]; // a copy: the table may move
            if (iodfg_eventlog_key_site(log, k.call, k.path, k.layer, s, &id)) {
                return -1;
            }
            if (k.fs || k.fstype || k.scope > IODFG_SCOPE_UNKNOWN) {
                iodfg_eventlog_key_set_fs(log, id, k.fs, k.fstype, (enum iodfg_scope)k.scope);
            }
        }
    }
    return 0;
}

int mpi_sites_split(const struct mpi_job *job, struct iodfg_eventlog *log, const char *focus_path,
                    struct iodfg_error *err)
{
    // every process read the same /stacks table and string pool: the same site names
    int any = iodfg_eventlog_stacks(log) != NULL;
    MPI_Allreduce(MPI_IN_PLACE, &any, 1, MPI_INT, MPI_MAX, job->comm);
    if (!any) {
        return 0;
    }
    struct iodfg_focus *f = cli_callsites_focus(focus_path, err);
    uint32_t *site = NULL;
    int rc = f && iodfg_callsites_names(f, log, &site, err) == 0 ? 0 : -1;
    iodfg_focus_free(f);
    struct iodfg_buf b;
    iodfg_buf_init(&b);
    if (rc == 0 && site && moved_pairs(log, site, &b)) {
        rc = iodfg_error_set(err, IODFG_E_NOMEM, NULL);
    }
    char *all = NULL;
    uint64_t *off = NULL;
    if (mpi_agree(job, rc, err) == 0 &&
        mpi_allgather_bytes(job, b.data, b.len, &all, &off, err) == 0) {
        // the keys first, then this process's events moved to them (no key is new any more)
        if (add_keys(log, all, off, job->size)) {
            rc = iodfg_error_set(err, IODFG_E_NOMEM, NULL);
        } else if (site) {
            rc = iodfg_eventlog_split_keys(log, site, err);
        }
    } else {
        rc = -1;
    }
    free(all);
    free(off);
    free(site);
    iodfg_buf_fini(&b);
    return mpi_agree(job, rc, err);
}
