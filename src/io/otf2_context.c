/* SPDX-License-Identifier: MIT */
/* OTF2 input, calling context: each I/O event gets the stack of functions it was issued from,
 * like strace -k's. From CallingContext definitions and CallingContextEnter/Leave when the
 * archive has them (Score-P with SCOREP_ENABLE_UNWINDING=true), else from the Enter/Leave
 * region stack when some region is an instrumented function of the program (compiler or user
 * instrumentation). An archive with neither gets no stacks. */
#include "config.h"

#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "iodfg/error.h"
#include "iodfg/eventlog.h"
#include "iodfg/stacks.h"
#include "iodfg/strace.h"

#include "otf2_priv.h"

/* Frames of one stack at most: a longer parent chain (or a loop in a damaged archive) is cut. */
#define OTF2_MAX_FRAMES 256

void iodfg_otf2_context_bad(struct otf2_rd *r, uint64_t pos, const char *fmt, ...)
{
    r->bad++;
    r->res->counts[IODFG_COUNT_UNPARSABLE]++;
    if (r->res->ndiags < IODFG_STRACE_MAX_DIAGS) {
        struct iodfg_strace_diag *d = &r->res->diags[r->res->ndiags++];
        d->line = pos;
        d->col = 0;
        int n = snprintf(d->msg, sizeof(d->msg),
                         "location %llu: ", (unsigned long long)r->locs[r->loc].ref);
        va_list ap;
        va_start(ap, fmt);
        vsnprintf(d->msg + n, sizeof(d->msg) - (size_t)n, fmt, ap);
        va_end(ap);
    }
}

/* ---- definitions ---- */

static OTF2_CallbackCode def_scl(void *ud, OTF2_SourceCodeLocationRef self, OTF2_StringRef file,
                                 uint32_t line)
{
    struct otf2_rd *r = ud;
    struct otf2_scl *d = iodfg_otf2_def(r, (void **)&r->scls, &r->nscls, sizeof(*d), self);
    if (!d) {
        return OTF2_CALLBACK_INTERRUPT;
    }
    *d = (struct otf2_scl){1, file, line};
    return OTF2_CALLBACK_SUCCESS;
}

static OTF2_CallbackCode def_cc(void *ud, OTF2_CallingContextRef self, OTF2_RegionRef region,
                                OTF2_SourceCodeLocationRef scl, OTF2_CallingContextRef parent)
{
    struct otf2_rd *r = ud;
    struct otf2_cc *d = iodfg_otf2_def(r, (void **)&r->ccs, &r->nccs, sizeof(*d), self);
    if (!d) {
        return OTF2_CALLBACK_INTERRUPT;
    }
    *d = (struct otf2_cc){1, region, scl, parent};
    return OTF2_CALLBACK_SUCCESS;
}

void iodfg_otf2_context_def_callbacks(OTF2_GlobalDefReaderCallbacks *cb)
{
    OTF2_GlobalDefReaderCallbacks_SetSourceCodeLocationCallback(cb, def_scl);
    OTF2_GlobalDefReaderCallbacks_SetCallingContextCallback(cb, def_cc);
}

/* A function of the program itself: a user, compiler-instrumented or sampled (unwound) function,
 * not a wrapper of an I/O, MPI or thread library, nor the measurement system's. */
static int region_is_app(const struct otf2_region *d)
{
    int para = d->paradigm == OTF2_PARADIGM_UNKNOWN || d->paradigm == OTF2_PARADIGM_USER ||
               d->paradigm == OTF2_PARADIGM_COMPILER || d->paradigm == OTF2_PARADIGM_SAMPLING ||
               d->paradigm == OTF2_PARADIGM_NONE;
    int role = d->role == OTF2_REGION_ROLE_UNKNOWN || d->role == OTF2_REGION_ROLE_FUNCTION ||
               d->role == OTF2_REGION_ROLE_LOOP || d->role == OTF2_REGION_ROLE_CODE;
    return para && role;
}

void iodfg_otf2_context_mode(struct otf2_rd *r)
{
    r->ctx_mode = OTF2_CTX_NONE;
    for (uint32_t i = 0; i < r->nccs; i++) {
        if (r->ccs[i].defined) {
            r->ctx_mode = OTF2_CTX_CALLING;
            return;
        }
    }
    for (uint32_t i = 0; i < r->nregions; i++) {
        if (r->regions[i].defined && region_is_app(&r->regions[i])) {
            r->ctx_mode = OTF2_CTX_REGIONS;
            return;
        }
    }
}

/* ---- the tree of region stacks ---- */

/* The node for region entered in node parent, made when new; 0 when out of memory. */
static uint32_t rnode_child(struct otf2_rd *r, uint32_t parent, OTF2_RegionRef region)
{
    if (((size_t)r->nrnodes + 1) * 2 > r->rhash_slots) {
        size_t ns = r->rhash_slots ? r->rhash_slots * 2 : 256;
        uint64_t *k = malloc(ns * sizeof(*k));
        uint32_t *id = calloc(ns, sizeof(*id));
        if (!k || !id) {
            free(k);
            free(id);
            return 0;
        }
        for (uint32_t n = 1; n <= r->nrnodes; n++) {
            uint64_t key = (uint64_t)r->rnodes[n - 1].parent << 32 | r->rnodes[n - 1].region;
            size_t h = (size_t)((key * 0x9E3779B97F4A7C15ull) >> 20) & (ns - 1);
            while (id[h]) {
                h = (h + 1) & (ns - 1);
            }
            k[h] = key;
            id[h] = n;
        }
        free(r->rhash_key);
        free(r->rhash_id);
        r->rhash_key = k;
        r->rhash_id = id;
        r->rhash_slots = ns;
    }
    uint64_t key = (uint64_t)parent << 32 | region;
    size_t h = (size_t)((key * 0x9E3779B97F4A7C15ull) >> 20) & (r->rhash_slots - 1);
    while (r->rhash_id[h] && r->rhash_key[h] != key) {
        h = (h + 1) & (r->rhash_slots - 1);
    }
    if (r->rhash_id[h]) {
        return r->rhash_id[h];
    }
    if (r->nrnodes == r->rnodes_cap) {
        uint32_t cap = r->rnodes_cap ? r->rnodes_cap * 2 : 64;
        struct otf2_rnode *n = realloc(r->rnodes, (size_t)cap * sizeof(*n));
        if (!n) {
            return 0;
        }
        r->rnodes = n;
        r->rnodes_cap = cap;
    }
    r->rnodes[r->nrnodes++] = (struct otf2_rnode){parent, region};
    r->rhash_key[h] = key;
    r->rhash_id[h] = r->nrnodes;
    return r->nrnodes;
}

/* ---- events ---- */

void iodfg_otf2_context_reset(struct otf2_rd *r)
{
    r->cur = 0;
    r->bad = 0;
}

// The context stack grows with the region stack (same capacity).
static int ctx_push(struct otf2_rd *r, uint32_t ctx)
{
    if (r->ctx_cap < r->stack_cap) {
        uint32_t *s = realloc(r->ctx_stack, r->stack_cap * sizeof(*s));
        if (!s) {
            return iodfg_error_set(r->err, IODFG_E_NOMEM, NULL);
        }
        r->ctx_stack = s;
        r->ctx_cap = r->stack_cap;
    }
    r->ctx_stack[r->depth - 1] = ctx;
    r->cur = ctx;
    return 0;
}

int iodfg_otf2_context_enter(struct otf2_rd *r, OTF2_RegionRef region)
{
    if (r->ctx_mode != OTF2_CTX_REGIONS) {
        return r->ctx_mode == OTF2_CTX_NONE ? 0 : ctx_push(r, r->cur);
    }
    uint32_t n = rnode_child(r, r->cur, region);
    if (!n) {
        return iodfg_error_set(r->err, IODFG_E_NOMEM, NULL);
    }
    return ctx_push(r, n);
}

void iodfg_otf2_context_leave(struct otf2_rd *r, uint64_t pos, OTF2_RegionRef region, int found)
{
    if (r->ctx_mode == OTF2_CTX_NONE) {
        return;
    }
    if (!found) {
        iodfg_otf2_context_bad(r, pos, "Leave of region %llu without its Enter",
                               (unsigned long long)region);
        return;
    }
    if (r->ctx_mode == OTF2_CTX_REGIONS) {
        r->cur = r->depth ? r->ctx_stack[r->depth - 1] : 0;
    }
}

static const struct otf2_cc *cc_get(const struct otf2_rd *r, OTF2_CallingContextRef cc)
{
    return cc < r->nccs && r->ccs[cc].defined ? &r->ccs[cc] : NULL;
}

static OTF2_CallbackCode ev_cc_enter(OTF2_LocationRef loc, OTF2_TimeStamp t, uint64_t pos, void *ud,
                                     OTF2_AttributeList *attrs, OTF2_CallingContextRef cc,
                                     uint32_t unwind)
{
    struct otf2_rd *r = ud;
    (void)loc, (void)t, (void)attrs, (void)unwind;
    const struct otf2_cc *d = cc_get(r, cc);
    if (!d) {
        iodfg_otf2_context_bad(r, pos, "CallingContextEnter of calling context %llu, not defined",
                               (unsigned long long)cc);
        return OTF2_CALLBACK_SUCCESS;
    }
    // the region stack names the calls (otf2_events.c), as libotf2's Enter emulation would
    if (iodfg_otf2_push_region(r, d->region)) {
        r->failed = 1;
        return OTF2_CALLBACK_INTERRUPT;
    }
    return ctx_push(r, cc + 1) ? (r->failed = 1, OTF2_CALLBACK_INTERRUPT) : OTF2_CALLBACK_SUCCESS;
}

static OTF2_CallbackCode ev_cc_leave(OTF2_LocationRef loc, OTF2_TimeStamp t, uint64_t pos, void *ud,
                                     OTF2_AttributeList *attrs, OTF2_CallingContextRef cc)
{
    struct otf2_rd *r = ud;
    (void)loc, (void)t, (void)attrs;
    const struct otf2_cc *d = cc_get(r, cc);
    if (!d) {
        iodfg_otf2_context_bad(r, pos, "CallingContextLeave of calling context %llu, not defined",
                               (unsigned long long)cc);
        return OTF2_CALLBACK_SUCCESS;
    }
    size_t i = r->depth;
    while (i > 0 && r->ctx_stack[i - 1] != cc + 1) {
        i--;
    }
    if (i == 0) {
        iodfg_otf2_context_bad(r, pos,
                               "CallingContextLeave of calling context %llu without its "
                               "CallingContextEnter",
                               (unsigned long long)cc);
        return OTF2_CALLBACK_SUCCESS;
    }
    r->depth = i - 1;
    // OTF2: the parent of the left context is the current one for the next event
    r->cur = cc_get(r, d->parent) ? d->parent + 1 : 0;
    return OTF2_CALLBACK_SUCCESS;
}

void iodfg_otf2_context_evt_callbacks(OTF2_EvtReaderCallbacks *cb)
{
    OTF2_EvtReaderCallbacks_SetCallingContextEnterCallback(cb, ev_cc_enter);
    OTF2_EvtReaderCallbacks_SetCallingContextLeaveCallback(cb, ev_cc_leave);
}

/* ---- frames ---- */

static const char *const paradigm_names[] = {
    "unknown",   "user",     "compiler",  "openmp",    "mpi",     "cuda",   "measurement",
    "pthread",   "hmpp",     "ompss",     "hardware",  "gaspi",   "upc",    "shmem",
    "winthread", "qtthread", "acethread", "tbbthread", "openacc", "opencl", "mtapi",
    "sampling",  "none",     "hip",       "kokkos"};

/* The frame's object: for a function of the program, its source file when the archive names
 * one; else "score-p:PARADIGM" ("score-p:io" for an I/O wrapper of no library paradigm), which
 * focus.rules counts as the runtime's unless PARADIGM is one of the program's own. */
static const char *frame_object(const struct otf2_rd *r, const struct otf2_region *d,
                                OTF2_StringRef file, char *buf, size_t size)
{
    if (d && region_is_app(d) && *iodfg_otf2_text(r, file)) {
        return iodfg_otf2_text(r, file);
    }
    const char *p = "unknown";
    if (d && d->paradigm < sizeof(paradigm_names) / sizeof(paradigm_names[0])) {
        p = paradigm_names[d->paradigm];
    }
    if (d && !region_is_app(d) &&
        (d->paradigm == OTF2_PARADIGM_UNKNOWN || d->paradigm == OTF2_PARADIGM_USER ||
         d->paradigm == OTF2_PARADIGM_COMPILER || d->paradigm == OTF2_PARADIGM_SAMPLING ||
         d->paradigm == OTF2_PARADIGM_NONE)) {
        p = "io"; // a wrapper (POSIX I/O, ISO C I/O) of no library paradigm
    }
    snprintf(buf, size, "score-p:%s", p);
    return buf;
}

static int push_frame(struct otf2_rd *r, OTF2_RegionRef region, OTF2_SourceCodeLocationRef scl,
                      uint64_t seq)
{
    const struct otf2_region *d =
        region < r->nregions && r->regions[region].defined ? &r->regions[region] : NULL;
    OTF2_StringRef file = d ? d->file : OTF2_UNDEFINED_STRING;
    uint32_t line = d ? d->line : 0;
    if (scl < r->nscls && r->scls[scl].defined) {
        file = r->scls[scl].file;
        line = r->scls[scl].line;
    }
    char buf[32];
    const char *obj = frame_object(r, d, file, buf, sizeof(buf));
    const char *fn = d ? iodfg_otf2_text(r, d->name) : "";
    struct iodfg_raw_frame fr = {.object = obj,
                                 .object_len = strlen(obj),
                                 .function = fn,
                                 .function_len = strlen(fn),
                                 .flags = IODFG_FRAME_SOURCE,
                                 .address = *iodfg_otf2_text(r, file) ? line : 0,
                                 .seq = seq};
    return iodfg_eventlog_push_frame(r->log, &fr, r->err);
}

int iodfg_otf2_context_frames(struct otf2_rd *r, uint32_t ctx, uint64_t seq)
{
    for (int n = 0; ctx && n < OTF2_MAX_FRAMES; n++) {
        if (r->ctx_mode == OTF2_CTX_CALLING) {
            const struct otf2_cc *d = cc_get(r, ctx - 1);
            if (!d || push_frame(r, d->region, d->scl, seq)) {
                return d ? -1 : 0;
            }
            ctx = cc_get(r, d->parent) ? d->parent + 1 : 0;
        } else {
            const struct otf2_rnode *d = &r->rnodes[ctx - 1];
            if (push_frame(r, d->region, OTF2_UNDEFINED_SOURCE_CODE_LOCATION, seq)) {
                return -1;
            }
            ctx = d->parent;
        }
    }
    return 0;
}

void iodfg_otf2_context_fini(struct otf2_rd *r)
{
    free(r->scls);
    free(r->ccs);
    free(r->ctx_stack);
    free(r->rnodes);
    free(r->rhash_key);
    free(r->rhash_id);
}
