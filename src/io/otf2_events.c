/* SPDX-License-Identifier: MIT */
/* OTF2 input, part 2: each location's I/O records (handles created, duplicated, sought and
 * destroyed; operations begun and completed) become the events of its case. */
#include "config.h"

#include <errno.h>
#include <otf2/otf2.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "iodfg/error.h"
#include "iodfg/eventlog.h"
#include "iodfg/handles.h"
#include "iodfg/otf2.h"
#include "iodfg/strace.h"
#include "iodfg/strpool.h"

#include "otf2_priv.h"

/* ---- the case of a location ------------------------------------------------ */

/* The host of a location group: the nearest system-tree ancestor of class "node", else the
 * group's own system-tree node. */
static OTF2_StringRef host_of(const struct otf2_rd *r, const struct otf2_group *g)
{
    OTF2_SystemTreeNodeRef n = g->node;
    for (int depth = 0; depth < 64 && n < r->nnodes && r->nodes[n].defined; depth++) {
        if (strcasecmp(iodfg_otf2_text(r, r->nodes[n].cls), "node") == 0) {
            return r->nodes[n].name;
        }
        n = r->nodes[n].parent;
    }
    return g->node < r->nnodes && r->nodes[g->node].defined ? r->nodes[g->node].name
                                                            : OTF2_UNDEFINED_STRING;
}

/* The experiment: the directory holding the anchor file, else the anchor's name. */
static void experiment_of(const char *path, char *out, size_t size)
{
    const char *slash = strrchr(path, '/');
    if (slash && slash > path) {
        const char *start = slash;
        while (start > path && start[-1] != '/') {
            start--;
        }
        if (!(slash - start == 1 && start[0] == '.') && !(slash - start == 2 && start[0] == '.')) {
            snprintf(out, size, "%.*s", (int)(slash - start), start);
            return;
        }
    }
    const char *base = slash ? slash + 1 : path;
    size_t len = strlen(base);
    if (len > 5 && strcmp(base + len - 5, ".otf2") == 0) {
        len -= 5;
    }
    snprintf(out, size, "%.*s", (int)len, base);
}

static int case_begin(struct otf2_rd *r)
{
    const struct otf2_location *l = &r->locs[r->loc];
    const struct otf2_group none = {0, OTF2_UNDEFINED_STRING, OTF2_UNDEFINED_SYSTEM_TREE_NODE};
    const struct otf2_group *g =
        l->group < r->ngroups && r->groups[l->group].defined ? &r->groups[l->group] : &none;
    // Score-P names every main thread "Master thread": prefix the group when names repeat.
    int unique = 1;
    for (size_t i = 0; i < r->nlocs; i++) {
        if (i != r->loc &&
            strcmp(iodfg_otf2_text(r, r->locs[i].name), iodfg_otf2_text(r, l->name)) == 0) {
            unique = 0;
        }
    }
    char name[1024], cid[512], rid[32];
    if (unique) {
        snprintf(name, sizeof(name), "%s", iodfg_otf2_text(r, l->name));
    } else {
        snprintf(name, sizeof(name), "%s/%s", iodfg_otf2_text(r, g->name),
                 iodfg_otf2_text(r, l->name));
    }
    experiment_of(r->path, cid, sizeof(cid));
    snprintf(rid, sizeof(rid), "%llu",
             (unsigned long long)(g == &none ? l->ref : (uint64_t)l->group));
    struct iodfg_case_info ci;
    memset(&ci, 0, sizeof(ci));
    ci.name = iodfg_otf2_intern(r, name);
    ci.cid = iodfg_otf2_intern(r, cid);
    ci.host = iodfg_otf2_str_id(r, host_of(r, g));
    ci.rid = iodfg_otf2_intern(r, rid);
    ci.source = iodfg_otf2_intern(r, r->path);
    ci.naming = IODFG_NAMING_FILENAME;
    ci.clock = IODFG_CLOCK_RELATIVE;
    if (ci.name == UINT32_MAX || ci.cid == UINT32_MAX || ci.host == UINT32_MAX ||
        ci.rid == UINT32_MAX || ci.source == UINT32_MAX) {
        return iodfg_error_set(r->err, IODFG_E_NOMEM, NULL);
    }
    if (iodfg_eventlog_begin_case(r->log, &ci, r->err)) {
        return -1;
    }
    r->case_open = 1;
    return 0;
}

int iodfg_otf2_location_begin(struct otf2_rd *r, size_t li)
{
    r->loc = li;
    r->case_open = 0;
    r->unmatched = 0;
    r->seq = 0;
    r->depth = 0;
    r->npending = 0;
    iodfg_otf2_context_reset(r);
    if (r->nhandles) {
        free(r->hmap);
        free(r->pos);
        free(r->amode);
        r->hmap = calloc(r->nhandles, sizeof(*r->hmap));
        r->pos = malloc(r->nhandles * sizeof(*r->pos));
        r->amode = malloc(r->nhandles);
        if (!r->hmap || !r->pos || !r->amode) {
            return iodfg_error_set(r->err, IODFG_E_NOMEM, NULL);
        }
        for (uint32_t i = 0; i < r->nhandles; i++) {
            r->pos[i] = IODFG_UNKNOWN;
            const struct otf2_handle *d = &r->handles[i];
            r->amode[i] = d->has_state && d->mode < OTF2_AMODE_UNKNOWN ? (uint8_t)d->mode
                                                                       : OTF2_AMODE_UNKNOWN;
        }
    }
    return 0;
}

int iodfg_otf2_location_end(struct otf2_rd *r)
{
    r->unmatched += r->npending;
    r->res->counts[IODFG_COUNT_UNMATCHED] += r->unmatched;
    r->npending = 0;
    if (!r->case_open) {
        return 0; // a location without I/O (a GPU stream, a metric location) is no case
    }
    struct iodfg_case_info *open = iodfg_eventlog_open_case(r->log);
    open->lines = r->seq;
    open->counts[IODFG_COUNT_EVENTS] = r->seq;
    open->counts[IODFG_COUNT_UNMATCHED] = r->unmatched;
    open->counts[IODFG_COUNT_UNPARSABLE] += r->bad;
    r->case_open = 0;
    return iodfg_eventlog_end_case(r->log, r->err);
}

/* ---- handles ------------------------------------------------------------------ */

static uint32_t layer_of(struct otf2_rd *r, OTF2_IoParadigmRef p)
{
    if (p >= r->nparadigms || !r->paradigms[p].defined) {
        return IODFG_STR_EMPTY;
    }
    // strace input leaves the layer empty for POSIX: keep one spelling for both.
    if (strcmp(iodfg_otf2_text(r, r->paradigms[p].ident), IODFG_LAYER_DEFAULT) == 0) {
        return IODFG_STR_EMPTY;
    }
    return iodfg_otf2_str_id(r, r->paradigms[p].ident);
}

static uint32_t path_of(struct otf2_rd *r, const struct otf2_handle *h)
{
    if (h->file < r->nfiles && r->files[h->file].defined) {
        return iodfg_otf2_str_id(r, r->files[h->file].name);
    }
    return iodfg_otf2_str_id(r, h->name);
}

/* "O_RDWR|O_CREAT|..." from OTF2's access mode and flags, like strace shows them. */
static uint32_t flags_of(struct otf2_rd *r, OTF2_IoAccessMode mode, OTF2_IoCreationFlag create,
                         OTF2_IoStatusFlag status)
{
    static const char *const modes[] = {"O_RDONLY", "O_WRONLY", "O_RDWR", "O_EXEC", "O_SEARCH"};
    static const struct {
        unsigned bit, status;
        const char *name;
    } bits[] = {
        {OTF2_IO_CREATION_FLAG_CREATE, 0, "O_CREAT"},
        {OTF2_IO_CREATION_FLAG_EXCLUSIVE, 0, "O_EXCL"},
        {OTF2_IO_CREATION_FLAG_TRUNCATE, 0, "O_TRUNC"},
        {OTF2_IO_CREATION_FLAG_DIRECTORY, 0, "O_DIRECTORY"},
        {OTF2_IO_CREATION_FLAG_TEMPORARY_FILE, 0, "O_TMPFILE"},
        {OTF2_IO_STATUS_FLAG_APPEND, 1, "O_APPEND"},
        {OTF2_IO_STATUS_FLAG_NON_BLOCKING, 1, "O_NONBLOCK"},
        {OTF2_IO_STATUS_FLAG_SYNC, 1, "O_SYNC"},
        {OTF2_IO_STATUS_FLAG_DATA_SYNC, 1, "O_DSYNC"},
        {OTF2_IO_STATUS_FLAG_AVOID_CACHING, 1, "O_DIRECT"},
        {OTF2_IO_STATUS_FLAG_CLOSE_ON_EXEC, 1, "O_CLOEXEC"},
    };
    // O_TMPFILE needs write access (open(2)): a read-only open flagged TEMPORARY_FILE and
    // DIRECTORY is Score-P 8's reading of O_DIRECTORY (O_TMPFILE includes its bit).
    const unsigned dir_tmp = OTF2_IO_CREATION_FLAG_DIRECTORY | OTF2_IO_CREATION_FLAG_TEMPORARY_FILE;
    if (mode == OTF2_IO_ACCESS_MODE_READ_ONLY && (create & dir_tmp) == dir_tmp) {
        create &= ~(unsigned)OTF2_IO_CREATION_FLAG_TEMPORARY_FILE;
    }
    char buf[256];
    // an unknown access mode is left out rather than guessed
    size_t n = (size_t)snprintf(buf, sizeof(buf), "%s", mode < 5 ? modes[mode] : "");
    for (size_t i = 0; i < sizeof(bits) / sizeof(bits[0]); i++) {
        if ((bits[i].status ? status : create) & bits[i].bit) {
            n += (size_t)snprintf(buf + n, sizeof(buf) - n, "%s%s", n ? "|" : "", bits[i].name);
        }
    }
    return iodfg_otf2_intern(r, buf);
}

/* The log's row for IoHandle ref in this case, added (after its parents) when first seen. */
static int handle_row(struct otf2_rd *r, OTF2_IoHandleRef ref, int depth, uint32_t *id)
{
    if (ref >= r->nhandles || !r->handles[ref].defined) {
        return iodfg_error_set(r->err, IODFG_E_PARSE, "IoHandle %llu is not defined",
                               (unsigned long long)ref);
    }
    if (r->hmap[ref]) {
        *id = r->hmap[ref];
        return 0;
    }
    if (depth > 64) {
        return iodfg_error_set(r->err, IODFG_E_PARSE, "IoHandle %llu: parent chain loops",
                               (unsigned long long)ref);
    }
    if (!r->case_open && case_begin(r)) {
        return -1;
    }
    const struct otf2_handle *d = &r->handles[ref];
    uint32_t parent = 0;
    if (d->parent != OTF2_UNDEFINED_IO_HANDLE && handle_row(r, d->parent, depth + 1, &parent)) {
        return -1;
    }
    // A parent is the handle in whose creation this one was made (MPI_File_open's POSIX open).
    // One destroyed before is none: Score-P 8 leaves a closed handle on its creation stack
    // and names it as the parent of later, unrelated handles.
    if (parent && iodfg_eventlog_handle_get(r->log, parent)->destroyed_ns != IODFG_UNKNOWN) {
        parent = 0;
    }
    const struct otf2_location *l = &r->locs[r->loc];
    struct iodfg_handle h = {
        .case_id = iodfg_eventlog_case_count(r->log),
        .pid = (int32_t)(l->group & 0x7fffffff),
        .fd = IODFG_NO_FD,
        .path = path_of(r, d),
        .flags = d->has_state ? flags_of(r, d->mode, 0, d->status) : IODFG_STR_EMPTY,
        .layer = layer_of(r, d->paradigm),
        .parent = parent,
        // used before any IoCreateHandle: it existed before the trace started
        .origin = IODFG_HANDLE_PRECREATED,
        .mode = IODFG_UNKNOWN,
        .created_ns = IODFG_UNKNOWN,
        .destroyed_ns = IODFG_UNKNOWN,
    };
    if (h.path == UINT32_MAX || h.flags == UINT32_MAX || h.layer == UINT32_MAX) {
        return iodfg_error_set(r->err, IODFG_E_NOMEM, NULL);
    }
    if (iodfg_eventlog_handle_add(r->log, &h, id, r->err)) {
        return -1;
    }
    r->hmap[ref] = *id;
    return 0;
}

/* ---- events -------------------------------------------------------------------- */

static OTF2_CallbackCode stop(struct otf2_rd *r)
{
    r->failed = 1;
    return OTF2_CALLBACK_INTERRUPT;
}

/* The call of an event: the innermost open region when it is an I/O function (role FILE_IO or
 * FILE_IO_METADATA, or a region of a library paradigm such as MPI), else fallback. */
static uint32_t call_of(struct otf2_rd *r, const char *fallback)
{
    if (r->depth) {
        OTF2_RegionRef g = r->stack[r->depth - 1];
        const struct otf2_region *d =
            g < r->nregions && r->regions[g].defined ? &r->regions[g] : NULL;
        if (d &&
            (d->role == OTF2_REGION_ROLE_FILE_IO || d->role == OTF2_REGION_ROLE_FILE_IO_METADATA ||
             (d->paradigm != OTF2_PARADIGM_UNKNOWN && d->paradigm != OTF2_PARADIGM_USER &&
              d->paradigm != OTF2_PARADIGM_COMPILER && d->paradigm != OTF2_PARADIGM_SAMPLING &&
              d->paradigm != OTF2_PARADIGM_NONE &&
              d->paradigm != OTF2_PARADIGM_MEASUREMENT_SYSTEM))) {
            return iodfg_otf2_str_id(r, d->name);
        }
    }
    return iodfg_otf2_intern(r, fallback);
}

struct emit_args {
    int64_t start_ns, dur_ns, size, offset, req;
    uint32_t call, path, layer;
    OTF2_IoHandleRef handle; /* OTF2_UNDEFINED_IO_HANDLE for none */
    unsigned hop;
    uint32_t ctx; /* calling context (otf2_context.c), 0 for none */
};

static int emit(struct otf2_rd *r, const struct emit_args *a)
{
    if (!r->case_open && case_begin(r)) {
        return -1;
    }
    uint32_t id = IODFG_NO_HANDLE, path = a->path, layer = a->layer;
    if (a->handle != OTF2_UNDEFINED_IO_HANDLE) {
        if (handle_row(r, a->handle, 0, &id)) {
            return -1;
        }
        const struct iodfg_handle *h = iodfg_eventlog_handle_get(r->log, id);
        path = h->path;
        layer = h->layer;
    }
    if (a->call == UINT32_MAX || path == UINT32_MAX || layer == UINT32_MAX) {
        return iodfg_error_set(r->err, IODFG_E_NOMEM, NULL);
    }
    const struct otf2_location *l = &r->locs[r->loc];
    struct iodfg_event ev = {
        .start_ns = a->start_ns,
        .dur_ns = a->dur_ns,
        .size = a->size,
        .offset = a->offset,
        .req = a->req,
        .err = IODFG_STR_EMPTY,
        .pid = (int32_t)(l->group & 0x7fffffff),
        .fd = IODFG_NO_FD,
        .handle = id,
    };
    if (iodfg_eventlog_key_layer(r->log, a->call, path, layer, &ev.key)) {
        return iodfg_error_set(r->err, IODFG_E_NOMEM, NULL);
    }
    if (iodfg_eventlog_push(r->log, &ev, r->seq, r->err) ||
        iodfg_otf2_context_frames(r, a->ctx, r->seq)) {
        return -1;
    }
    r->seq++;
    iodfg_eventlog_handle_use(r->log, id, a->hop, a->start_ns, a->dur_ns, a->size);
    r->res->counts[IODFG_COUNT_EVENTS]++;
    return 0;
}

static struct emit_args point(struct otf2_rd *r, OTF2_TimeStamp t, OTF2_IoHandleRef h,
                              uint32_t call, unsigned hop)
{
    return (struct emit_args){.start_ns = iodfg_otf2_to_ns(r, t),
                              .dur_ns = 0,
                              .size = IODFG_UNKNOWN,
                              .offset = IODFG_UNKNOWN,
                              .req = IODFG_UNKNOWN,
                              .call = call,
                              .handle = h,
                              .hop = hop,
                              .ctx = r->cur};
}

int iodfg_otf2_push_region(struct otf2_rd *r, OTF2_RegionRef region)
{
    if (r->depth == r->stack_cap) {
        size_t cap = r->stack_cap ? r->stack_cap * 2 : 32;
        uint32_t *s = realloc(r->stack, cap * sizeof(*s));
        if (!s) {
            return iodfg_error_set(r->err, IODFG_E_NOMEM, NULL);
        }
        r->stack = s;
        r->stack_cap = cap;
    }
    r->stack[r->depth++] = region;
    return 0;
}

static OTF2_CallbackCode ev_enter(OTF2_LocationRef loc, OTF2_TimeStamp t, uint64_t pos, void *ud,
                                  OTF2_AttributeList *attrs, OTF2_RegionRef region)
{
    struct otf2_rd *r = ud;
    (void)loc, (void)t, (void)pos, (void)attrs;
    return iodfg_otf2_push_region(r, region) || iodfg_otf2_context_enter(r, region)
               ? stop(r)
               : OTF2_CALLBACK_SUCCESS;
}

static OTF2_CallbackCode ev_leave(OTF2_LocationRef loc, OTF2_TimeStamp t, uint64_t pos, void *ud,
                                  OTF2_AttributeList *attrs, OTF2_RegionRef region)
{
    struct otf2_rd *r = ud;
    (void)loc, (void)t, (void)attrs;
    // pop up to the matching enter; a leave without one is ignored (counted with stacks)
    int found = 0;
    for (size_t i = r->depth; i > 0 && !found; i--) {
        if (r->stack[i - 1] == region) {
            r->depth = i - 1;
            found = 1;
        }
    }
    iodfg_otf2_context_leave(r, pos, region, found);
    return OTF2_CALLBACK_SUCCESS;
}

static OTF2_CallbackCode ev_create(OTF2_LocationRef loc, OTF2_TimeStamp t, uint64_t pos, void *ud,
                                   OTF2_AttributeList *attrs, OTF2_IoHandleRef handle,
                                   OTF2_IoAccessMode mode, OTF2_IoCreationFlag create,
                                   OTF2_IoStatusFlag status)
{
    struct otf2_rd *r = ud;
    (void)loc, (void)pos, (void)attrs;
    uint32_t id = 0;
    if (handle < r->nhandles && r->hmap[handle]) {
        const struct iodfg_handle *old = iodfg_eventlog_handle_get(r->log, r->hmap[handle]);
        if (old->created_ns != IODFG_UNKNOWN || old->destroyed_ns != IODFG_UNKNOWN) {
            r->hmap[handle] = 0; // created again after a close: a new handle
        }
    }
    uint32_t call = call_of(r, "open");
    if (handle_row(r, handle, 0, &id)) {
        return stop(r);
    }
    struct iodfg_handle *h = iodfg_eventlog_handle_get(r->log, id);
    h->origin = IODFG_HANDLE_OPEN;
    h->call = call;
    h->flags = flags_of(r, mode, create, status);
    if (h->call == UINT32_MAX || h->flags == UINT32_MAX) {
        return iodfg_otf2_fail(r, IODFG_E_NOMEM, "out of memory");
    }
    r->pos[handle] = status & OTF2_IO_STATUS_FLAG_APPEND ? IODFG_UNKNOWN : 0;
    r->amode[handle] = mode < OTF2_AMODE_UNKNOWN ? (uint8_t)mode : OTF2_AMODE_UNKNOWN;
    struct emit_args a = point(r, t, handle, call, IODFG_HOP_CREATE);
    return emit(r, &a) ? stop(r) : OTF2_CALLBACK_SUCCESS;
}

static OTF2_CallbackCode ev_destroy(OTF2_LocationRef loc, OTF2_TimeStamp t, uint64_t pos, void *ud,
                                    OTF2_AttributeList *attrs, OTF2_IoHandleRef handle)
{
    struct otf2_rd *r = ud;
    (void)loc, (void)pos, (void)attrs;
    struct emit_args a = point(r, t, handle, call_of(r, "close"), IODFG_HOP_CLOSE);
    return emit(r, &a) ? stop(r) : OTF2_CALLBACK_SUCCESS;
}

static OTF2_CallbackCode ev_dup(OTF2_LocationRef loc, OTF2_TimeStamp t, uint64_t pos, void *ud,
                                OTF2_AttributeList *attrs, OTF2_IoHandleRef old,
                                OTF2_IoHandleRef handle, OTF2_IoStatusFlag status)
{
    struct otf2_rd *r = ud;
    (void)loc, (void)pos, (void)attrs;
    uint32_t oid = 0, id = 0;
    if (handle < r->nhandles) {
        r->hmap[handle] = 0;
    }
    uint32_t call = call_of(r, "dup");
    if (handle_row(r, old, 0, &oid) || handle_row(r, handle, 0, &id)) {
        return stop(r);
    }
    struct iodfg_handle *h = iodfg_eventlog_handle_get(r->log, id);
    const struct iodfg_handle *o = iodfg_eventlog_handle_get(r->log, oid);
    h->origin = IODFG_HANDLE_DUP;
    h->parent = oid < id ? oid : h->parent;
    h->call = call;
    h->path = o->path;
    // a duplicate shares the original's open file description, so its access mode
    r->amode[handle] = r->amode[old];
    h->flags = flags_of(r, r->amode[old], 0, status);
    if (call == UINT32_MAX || h->flags == UINT32_MAX) {
        return iodfg_otf2_fail(r, IODFG_E_NOMEM, "out of memory");
    }
    r->pos[handle] = r->pos[old];
    struct emit_args a = point(r, t, handle, call, IODFG_HOP_CREATE);
    return emit(r, &a) ? stop(r) : OTF2_CALLBACK_SUCCESS;
}

static OTF2_CallbackCode ev_seek(OTF2_LocationRef loc, OTF2_TimeStamp t, uint64_t pos, void *ud,
                                 OTF2_AttributeList *attrs, OTF2_IoHandleRef handle,
                                 int64_t request, OTF2_IoSeekOption whence, uint64_t result)
{
    struct otf2_rd *r = ud;
    (void)loc, (void)pos, (void)attrs, (void)request, (void)whence;
    struct emit_args a = point(r, t, handle, call_of(r, "seek"), IODFG_HOP_USE);
    a.offset = result <= INT64_MAX ? (int64_t)result : IODFG_UNKNOWN;
    if (emit(r, &a)) {
        return stop(r);
    }
    r->pos[handle] = a.offset;
    return OTF2_CALLBACK_SUCCESS;
}

static OTF2_CallbackCode ev_delete(OTF2_LocationRef loc, OTF2_TimeStamp t, uint64_t pos, void *ud,
                                   OTF2_AttributeList *attrs, OTF2_IoParadigmRef paradigm,
                                   OTF2_IoFileRef file)
{
    struct otf2_rd *r = ud;
    (void)loc, (void)pos, (void)attrs;
    struct emit_args a =
        point(r, t, OTF2_UNDEFINED_IO_HANDLE, call_of(r, "unlink"), IODFG_HOP_NONE);
    a.layer = layer_of(r, paradigm);
    a.path = file < r->nfiles && r->files[file].defined ? iodfg_otf2_str_id(r, r->files[file].name)
                                                        : IODFG_STR_EMPTY;
    return emit(r, &a) ? stop(r) : OTF2_CALLBACK_SUCCESS;
}

static OTF2_CallbackCode ev_begin(OTF2_LocationRef loc, OTF2_TimeStamp t, uint64_t pos, void *ud,
                                  OTF2_AttributeList *attrs, OTF2_IoHandleRef handle,
                                  OTF2_IoOperationMode mode, OTF2_IoOperationFlag flags,
                                  uint64_t req, uint64_t matching)
{
    struct otf2_rd *r = ud;
    (void)loc, (void)pos;
    if (handle >= r->nhandles || !r->handles[handle].defined) {
        return iodfg_otf2_fail(r, IODFG_E_PARSE, "IoOperationBegin on an undefined IoHandle");
    }
    // the name when no I/O region encloses it: [i]read|write|flush[_all]
    char name[32];
    snprintf(name, sizeof(name), "%s%s%s", flags & OTF2_IO_OPERATION_FLAG_NON_BLOCKING ? "i" : "",
             mode == OTF2_IO_OPERATION_MODE_READ    ? "read"
             : mode == OTF2_IO_OPERATION_MODE_WRITE ? "write"
                                                    : "flush",
             flags & OTF2_IO_OPERATION_FLAG_COLLECTIVE ? "_all" : "");
    if (r->npending == r->pending_cap) {
        size_t cap = r->pending_cap ? r->pending_cap * 2 : 16;
        struct otf2_pending *p = realloc(r->pending, cap * sizeof(*p));
        if (!p) {
            return iodfg_otf2_fail(r, IODFG_E_NOMEM, "out of memory");
        }
        r->pending = p;
        r->pending_cap = cap;
    }
    struct otf2_pending *p = &r->pending[r->npending++];
    *p = (struct otf2_pending){.handle = handle,
                               .matching = matching,
                               .start_ns = iodfg_otf2_to_ns(r, t),
                               .offset = r->pos[handle],
                               .req = req,
                               .mode = mode,
                               .call = call_of(r, name),
                               .ctx = r->cur};
    uint64_t at;
    if (attrs && r->offset_attr != OTF2_UNDEFINED_ATTRIBUTE &&
        OTF2_AttributeList_GetUint64(attrs, r->offset_attr, &at) == OTF2_SUCCESS &&
        at <= INT64_MAX) {
        p->offset = (int64_t)at;
        p->positional = 1;
    }
    return OTF2_CALLBACK_SUCCESS;
}

/* Take the pending operation (handle, matching) out of the list; 0 when there is none. */
static int take_pending(struct otf2_rd *r, OTF2_IoHandleRef handle, uint64_t matching,
                        struct otf2_pending *out)
{
    for (size_t i = r->npending; i > 0; i--) {
        if (r->pending[i - 1].handle == handle && r->pending[i - 1].matching == matching) {
            *out = r->pending[i - 1];
            memmove(&r->pending[i - 1], &r->pending[i], (r->npending - i) * sizeof(*r->pending));
            r->npending--;
            return 1;
        }
    }
    return 0;
}

static OTF2_CallbackCode ev_complete(OTF2_LocationRef loc, OTF2_TimeStamp t, uint64_t pos, void *ud,
                                     OTF2_AttributeList *attrs, OTF2_IoHandleRef handle,
                                     uint64_t bytes, uint64_t matching)
{
    struct otf2_rd *r = ud;
    (void)loc, (void)pos, (void)attrs;
    struct otf2_pending p;
    if (!take_pending(r, handle, matching, &p)) {
        r->unmatched++;
        return OTF2_CALLBACK_SUCCESS;
    }
    int64_t size = bytes <= INT64_MAX ? (int64_t)bytes : IODFG_UNKNOWN;
    int data = p.mode == OTF2_IO_OPERATION_MODE_READ || p.mode == OTF2_IO_OPERATION_MODE_WRITE;
    struct emit_args a = {
        .start_ns = p.start_ns,
        .dur_ns = iodfg_sat_add(iodfg_otf2_to_ns(r, t), -p.start_ns),
        .size = data ? size : IODFG_UNKNOWN,
        .offset = data ? p.offset : IODFG_UNKNOWN,
        .req = data && p.req <= INT64_MAX ? (int64_t)p.req : IODFG_UNKNOWN,
        .call = p.call,
        .handle = handle,
        .ctx = p.ctx,
        .hop = p.mode == OTF2_IO_OPERATION_MODE_READ    ? IODFG_HOP_READ
               : p.mode == OTF2_IO_OPERATION_MODE_WRITE ? IODFG_HOP_WRITE
                                                        : IODFG_HOP_USE,
    };
    if (emit(r, &a)) {
        return stop(r);
    }
    if (data && !p.positional && r->pos[handle] != IODFG_UNKNOWN && size != IODFG_UNKNOWN) {
        r->pos[handle] += size;
    }
    return OTF2_CALLBACK_SUCCESS;
}

static OTF2_CallbackCode ev_cancelled(OTF2_LocationRef loc, OTF2_TimeStamp t, uint64_t pos,
                                      void *ud, OTF2_AttributeList *attrs, OTF2_IoHandleRef handle,
                                      uint64_t matching)
{
    struct otf2_rd *r = ud;
    (void)loc, (void)t, (void)pos, (void)attrs;
    struct otf2_pending p;
    take_pending(r, handle, matching, &p);
    r->unmatched++;
    return OTF2_CALLBACK_SUCCESS;
}

void iodfg_otf2_set_event_callbacks(OTF2_EvtReaderCallbacks *cb)
{
    OTF2_EvtReaderCallbacks_SetEnterCallback(cb, ev_enter);
    OTF2_EvtReaderCallbacks_SetLeaveCallback(cb, ev_leave);
    OTF2_EvtReaderCallbacks_SetIoCreateHandleCallback(cb, ev_create);
    OTF2_EvtReaderCallbacks_SetIoDestroyHandleCallback(cb, ev_destroy);
    OTF2_EvtReaderCallbacks_SetIoDuplicateHandleCallback(cb, ev_dup);
    OTF2_EvtReaderCallbacks_SetIoSeekCallback(cb, ev_seek);
    OTF2_EvtReaderCallbacks_SetIoDeleteFileCallback(cb, ev_delete);
    OTF2_EvtReaderCallbacks_SetIoOperationBeginCallback(cb, ev_begin);
    OTF2_EvtReaderCallbacks_SetIoOperationCompleteCallback(cb, ev_complete);
    OTF2_EvtReaderCallbacks_SetIoOperationCancelledCallback(cb, ev_cancelled);
    iodfg_otf2_context_evt_callbacks(cb);
}
