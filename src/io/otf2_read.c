/* SPDX-License-Identifier: MIT */
/* OTF2 input: global definitions, then each location's I/O records, become cases of a log. */
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

/* ---- definitions ----------------------------------------------------------- */

struct otf2_string {
    char *text;
    uint32_t id; /* in the log's pool; UINT32_MAX until interned */
};
struct otf2_node {
    uint8_t defined;
    OTF2_StringRef name, cls;
    OTF2_SystemTreeNodeRef parent;
};
struct otf2_group {
    uint8_t defined;
    OTF2_StringRef name;
    OTF2_SystemTreeNodeRef node;
};
struct otf2_location {
    OTF2_LocationRef ref;
    OTF2_StringRef name;
    OTF2_LocationGroupRef group;
};
struct otf2_region {
    uint8_t defined;
    OTF2_StringRef name;
    OTF2_RegionRole role;
    OTF2_Paradigm paradigm;
};
struct otf2_paradigm {
    uint8_t defined;
    OTF2_StringRef ident;
};
struct otf2_file {
    uint8_t defined;
    OTF2_StringRef name;
};
struct otf2_handle {
    uint8_t defined, has_state;
    OTF2_StringRef name;
    OTF2_IoFileRef file;
    OTF2_IoParadigmRef paradigm;
    OTF2_IoHandleFlag flags;
    OTF2_IoHandleRef parent;
    OTF2_IoAccessMode mode;
    OTF2_IoStatusFlag status;
};

/* An operation begun and not yet completed. */
struct otf2_pending {
    OTF2_IoHandleRef handle;
    uint64_t matching;
    int64_t start_ns, offset;
    uint64_t req;
    OTF2_IoOperationMode mode;
    uint32_t call;
};

struct otf2_rd {
    struct iodfg_eventlog *log;
    struct iodfg_error *err;
    struct iodfg_strace_result *res;
    const char *path;
    int failed;
    uint64_t resolution, offset;
    struct otf2_string *strings;
    struct otf2_node *nodes;
    struct otf2_group *groups;
    struct otf2_region *regions;
    struct otf2_paradigm *paradigms;
    struct otf2_file *files;
    struct otf2_handle *handles;
    uint32_t nstrings, nnodes, ngroups, nregions, nparadigms, nfiles, nhandles;
    struct otf2_location *locs;
    size_t nlocs, locs_cap;
    /* the location being read */
    size_t loc;
    int case_open;
    uint64_t unmatched; /* of this location */
    uint64_t seq;
    uint32_t *hmap; /* IoHandle ref -> handle id in the log (0 = none yet), nhandles entries */
    int64_t *pos;   /* IoHandle ref -> position implied by the trace, IODFG_UNKNOWN if not */
    uint32_t *stack;
    size_t depth, stack_cap;
    struct otf2_pending *pending;
    size_t npending, pending_cap;
};

/* Ids of definitions are dense in practice; larger ones are taken as a broken archive. */
#define OTF2_MAX_REF (1u << 24)

static OTF2_CallbackCode otf2_fail(struct otf2_rd *r, enum iodfg_status code, const char *msg)
{
    iodfg_error_set(r->err, code, "%s", msg);
    r->failed = 1;
    return OTF2_CALLBACK_INTERRUPT;
}

/* The definition slot ref of a table (grown and zeroed as needed); NULL with err set. */
static void *otf2_def(struct otf2_rd *r, void **arr, uint32_t *n, size_t size, uint64_t ref)
{
    if (ref >= OTF2_MAX_REF) {
        iodfg_error_set(r->err, IODFG_E_PARSE, "definition id %llu is too large",
                        (unsigned long long)ref);
        r->failed = 1;
        return NULL;
    }
    if (ref >= *n) {
        uint32_t cap = *n ? *n : 16;
        while (cap <= ref) {
            cap *= 2;
        }
        char *a = realloc(*arr, (size_t)cap * size);
        if (!a) {
            otf2_fail(r, IODFG_E_NOMEM, "out of memory");
            return NULL;
        }
        memset(a + (size_t)*n * size, 0, (size_t)(cap - *n) * size);
        *arr = a;
        *n = cap;
    }
    return (char *)*arr + (size_t)ref * size;
}

static const char *text(const struct otf2_rd *r, OTF2_StringRef s)
{
    return s < r->nstrings && r->strings[s].text ? r->strings[s].text : "";
}

/* String s interned in the log's pool (cached); UINT32_MAX when out of memory. */
static uint32_t str_id(struct otf2_rd *r, OTF2_StringRef s)
{
    if (s >= r->nstrings || !r->strings[s].text) {
        return IODFG_STR_EMPTY;
    }
    struct otf2_string *d = &r->strings[s];
    if (d->id == UINT32_MAX &&
        iodfg_strpool_intern(iodfg_eventlog_pool(r->log), d->text, strlen(d->text), &d->id)) {
        d->id = UINT32_MAX;
    }
    return d->id;
}

static uint32_t intern(struct otf2_rd *r, const char *s)
{
    uint32_t id;
    return iodfg_strpool_intern(iodfg_eventlog_pool(r->log), s, strlen(s), &id) ? UINT32_MAX : id;
}

/* Trace ticks -> nanoseconds since the clock's global offset. */
static int64_t to_ns(const struct otf2_rd *r, OTF2_TimeStamp t)
{
    uint64_t d = t >= r->offset ? t - r->offset : r->offset - t;
    uint64_t whole = d / r->resolution, rest = d % r->resolution;
    int64_t ns = (int64_t)(whole * 1000000000u +
                           (uint64_t)((long double)rest * 1e9L / (long double)r->resolution));
    return t >= r->offset ? ns : -ns;
}

/* ---- the case of a location ------------------------------------------------ */

/* The host of a location group: the nearest system-tree ancestor of class "node", else the
 * group's own system-tree node. */
static OTF2_StringRef host_of(const struct otf2_rd *r, const struct otf2_group *g)
{
    OTF2_SystemTreeNodeRef n = g->node;
    for (int depth = 0; depth < 64 && n < r->nnodes && r->nodes[n].defined; depth++) {
        if (strcasecmp(text(r, r->nodes[n].cls), "node") == 0) {
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
        if (i != r->loc && strcmp(text(r, r->locs[i].name), text(r, l->name)) == 0) {
            unique = 0;
        }
    }
    char name[1024], cid[512], rid[32];
    if (unique) {
        snprintf(name, sizeof(name), "%s", text(r, l->name));
    } else {
        snprintf(name, sizeof(name), "%s/%s", text(r, g->name), text(r, l->name));
    }
    experiment_of(r->path, cid, sizeof(cid));
    snprintf(rid, sizeof(rid), "%llu",
             (unsigned long long)(g == &none ? l->ref : (uint64_t)l->group));
    struct iodfg_case_info ci;
    memset(&ci, 0, sizeof(ci));
    ci.name = intern(r, name);
    ci.cid = intern(r, cid);
    ci.host = str_id(r, host_of(r, g));
    ci.rid = intern(r, rid);
    ci.source = intern(r, r->path);
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

static int otf2_location_begin(struct otf2_rd *r, size_t li)
{
    r->loc = li;
    r->case_open = 0;
    r->unmatched = 0;
    r->seq = 0;
    r->depth = 0;
    r->npending = 0;
    if (r->nhandles) {
        free(r->hmap);
        free(r->pos);
        r->hmap = calloc(r->nhandles, sizeof(*r->hmap));
        r->pos = malloc(r->nhandles * sizeof(*r->pos));
        if (!r->hmap || !r->pos) {
            return iodfg_error_set(r->err, IODFG_E_NOMEM, NULL);
        }
        for (uint32_t i = 0; i < r->nhandles; i++) {
            r->pos[i] = IODFG_UNKNOWN;
        }
    }
    return 0;
}

static int otf2_location_end(struct otf2_rd *r)
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
    if (strcmp(text(r, r->paradigms[p].ident), IODFG_LAYER_DEFAULT) == 0) {
        return IODFG_STR_EMPTY;
    }
    return str_id(r, r->paradigms[p].ident);
}

static uint32_t path_of(struct otf2_rd *r, const struct otf2_handle *h)
{
    if (h->file < r->nfiles && r->files[h->file].defined) {
        return str_id(r, r->files[h->file].name);
    }
    return str_id(r, h->name);
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
    char buf[256];
    size_t n = (size_t)snprintf(buf, sizeof(buf), "%s", mode < 5 ? modes[mode] : "O_ACCMODE?");
    for (size_t i = 0; i < sizeof(bits) / sizeof(bits[0]); i++) {
        if ((bits[i].status ? status : create) & bits[i].bit) {
            n += (size_t)snprintf(buf + n, sizeof(buf) - n, "|%s", bits[i].name);
        }
    }
    return intern(r, buf);
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
            return str_id(r, d->name);
        }
    }
    return intern(r, fallback);
}

struct emit_args {
    int64_t start_ns, dur_ns, size, offset, req;
    uint32_t call, path, layer;
    OTF2_IoHandleRef handle; /* OTF2_UNDEFINED_IO_HANDLE for none */
    unsigned hop;
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
    if (iodfg_eventlog_push(r->log, &ev, r->seq++, r->err)) {
        return -1;
    }
    iodfg_eventlog_handle_use(r->log, id, a->hop, a->start_ns, a->dur_ns, a->size);
    r->res->counts[IODFG_COUNT_EVENTS]++;
    return 0;
}

static struct emit_args point(struct otf2_rd *r, OTF2_TimeStamp t, OTF2_IoHandleRef h,
                              uint32_t call, unsigned hop)
{
    return (struct emit_args){.start_ns = to_ns(r, t),
                              .dur_ns = 0,
                              .size = IODFG_UNKNOWN,
                              .offset = IODFG_UNKNOWN,
                              .req = IODFG_UNKNOWN,
                              .call = call,
                              .handle = h,
                              .hop = hop};
}

static OTF2_CallbackCode ev_enter(OTF2_LocationRef loc, OTF2_TimeStamp t, uint64_t pos, void *ud,
                                  OTF2_AttributeList *attrs, OTF2_RegionRef region)
{
    struct otf2_rd *r = ud;
    (void)loc, (void)t, (void)pos, (void)attrs;
    if (r->depth == r->stack_cap) {
        size_t cap = r->stack_cap ? r->stack_cap * 2 : 32;
        uint32_t *s = realloc(r->stack, cap * sizeof(*s));
        if (!s) {
            return otf2_fail(r, IODFG_E_NOMEM, "out of memory");
        }
        r->stack = s;
        r->stack_cap = cap;
    }
    r->stack[r->depth++] = region;
    return OTF2_CALLBACK_SUCCESS;
}

static OTF2_CallbackCode ev_leave(OTF2_LocationRef loc, OTF2_TimeStamp t, uint64_t pos, void *ud,
                                  OTF2_AttributeList *attrs, OTF2_RegionRef region)
{
    struct otf2_rd *r = ud;
    (void)loc, (void)t, (void)pos, (void)attrs;
    // pop up to the matching enter; a leave without one is ignored
    for (size_t i = r->depth; i > 0; i--) {
        if (r->stack[i - 1] == region) {
            r->depth = i - 1;
            break;
        }
    }
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
        return otf2_fail(r, IODFG_E_NOMEM, "out of memory");
    }
    r->pos[handle] = status & OTF2_IO_STATUS_FLAG_APPEND ? IODFG_UNKNOWN : 0;
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
    const struct otf2_handle *od = &r->handles[old];
    h->flags = flags_of(r, od->has_state ? od->mode : OTF2_IO_ACCESS_MODE_READ_WRITE, 0, status);
    if (call == UINT32_MAX || h->flags == UINT32_MAX) {
        return otf2_fail(r, IODFG_E_NOMEM, "out of memory");
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
    a.path = file < r->nfiles && r->files[file].defined ? str_id(r, r->files[file].name)
                                                        : IODFG_STR_EMPTY;
    return emit(r, &a) ? stop(r) : OTF2_CALLBACK_SUCCESS;
}

static OTF2_CallbackCode ev_begin(OTF2_LocationRef loc, OTF2_TimeStamp t, uint64_t pos, void *ud,
                                  OTF2_AttributeList *attrs, OTF2_IoHandleRef handle,
                                  OTF2_IoOperationMode mode, OTF2_IoOperationFlag flags,
                                  uint64_t req, uint64_t matching)
{
    struct otf2_rd *r = ud;
    (void)loc, (void)pos, (void)attrs;
    if (handle >= r->nhandles || !r->handles[handle].defined) {
        return otf2_fail(r, IODFG_E_PARSE, "IoOperationBegin on an undefined IoHandle");
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
            return otf2_fail(r, IODFG_E_NOMEM, "out of memory");
        }
        r->pending = p;
        r->pending_cap = cap;
    }
    r->pending[r->npending++] = (struct otf2_pending){.handle = handle,
                                                      .matching = matching,
                                                      .start_ns = to_ns(r, t),
                                                      .offset = r->pos[handle],
                                                      .req = req,
                                                      .mode = mode,
                                                      .call = call_of(r, name)};
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
        .dur_ns = to_ns(r, t) - p.start_ns,
        .size = data ? size : IODFG_UNKNOWN,
        .offset = data ? p.offset : IODFG_UNKNOWN,
        .req = data && p.req <= INT64_MAX ? (int64_t)p.req : IODFG_UNKNOWN,
        .call = p.call,
        .handle = handle,
        .hop = p.mode == OTF2_IO_OPERATION_MODE_READ    ? IODFG_HOP_READ
               : p.mode == OTF2_IO_OPERATION_MODE_WRITE ? IODFG_HOP_WRITE
                                                        : IODFG_HOP_USE,
    };
    if (emit(r, &a)) {
        return stop(r);
    }
    if (data && r->pos[handle] != IODFG_UNKNOWN && size != IODFG_UNKNOWN) {
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

static void otf2_set_event_callbacks(OTF2_EvtReaderCallbacks *cb)
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
}

/* ---- reading ------------------------------------------------------------- */

static OTF2_CallbackCode def_string(void *ud, OTF2_StringRef self, const char *s)
{
    struct otf2_rd *r = ud;
    struct otf2_string *d = otf2_def(r, (void **)&r->strings, &r->nstrings, sizeof(*d), self);
    if (!d || !(d->text = strdup(s ? s : ""))) {
        return otf2_fail(r, IODFG_E_NOMEM, "out of memory");
    }
    d->id = UINT32_MAX;
    return OTF2_CALLBACK_SUCCESS;
}

static OTF2_CallbackCode def_clock(void *ud, uint64_t resolution, uint64_t offset, uint64_t length,
                                   uint64_t realtime)
{
    struct otf2_rd *r = ud;
    (void)length;
    (void)realtime;
    if (resolution == 0) {
        return otf2_fail(r, IODFG_E_PARSE, "clock properties with a timer resolution of 0");
    }
    r->resolution = resolution;
    r->offset = offset;
    return OTF2_CALLBACK_SUCCESS;
}

static OTF2_CallbackCode def_node(void *ud, OTF2_SystemTreeNodeRef self, OTF2_StringRef name,
                                  OTF2_StringRef cls, OTF2_SystemTreeNodeRef parent)
{
    struct otf2_rd *r = ud;
    struct otf2_node *d = otf2_def(r, (void **)&r->nodes, &r->nnodes, sizeof(*d), self);
    if (!d) {
        return OTF2_CALLBACK_INTERRUPT;
    }
    *d = (struct otf2_node){1, name, cls, parent};
    return OTF2_CALLBACK_SUCCESS;
}

static OTF2_CallbackCode def_group(void *ud, OTF2_LocationGroupRef self, OTF2_StringRef name,
                                   OTF2_LocationGroupType type, OTF2_SystemTreeNodeRef node,
                                   OTF2_LocationGroupRef creator)
{
    struct otf2_rd *r = ud;
    (void)type;
    (void)creator;
    struct otf2_group *d = otf2_def(r, (void **)&r->groups, &r->ngroups, sizeof(*d), self);
    if (!d) {
        return OTF2_CALLBACK_INTERRUPT;
    }
    *d = (struct otf2_group){1, name, node};
    return OTF2_CALLBACK_SUCCESS;
}

static OTF2_CallbackCode def_location(void *ud, OTF2_LocationRef self, OTF2_StringRef name,
                                      OTF2_LocationType type, uint64_t events,
                                      OTF2_LocationGroupRef group)
{
    struct otf2_rd *r = ud;
    (void)type;
    (void)events;
    if (r->nlocs == r->locs_cap) {
        size_t cap = r->locs_cap ? r->locs_cap * 2 : 16;
        struct otf2_location *l = realloc(r->locs, cap * sizeof(*l));
        if (!l) {
            return otf2_fail(r, IODFG_E_NOMEM, "out of memory");
        }
        r->locs = l;
        r->locs_cap = cap;
    }
    r->locs[r->nlocs++] = (struct otf2_location){self, name, group};
    return OTF2_CALLBACK_SUCCESS;
}

static OTF2_CallbackCode def_region(void *ud, OTF2_RegionRef self, OTF2_StringRef name,
                                    OTF2_StringRef canonical, OTF2_StringRef descr,
                                    OTF2_RegionRole role, OTF2_Paradigm paradigm,
                                    OTF2_RegionFlag flags, OTF2_StringRef file, uint32_t begin,
                                    uint32_t end)
{
    struct otf2_rd *r = ud;
    (void)canonical, (void)descr, (void)flags, (void)file, (void)begin, (void)end;
    struct otf2_region *d = otf2_def(r, (void **)&r->regions, &r->nregions, sizeof(*d), self);
    if (!d) {
        return OTF2_CALLBACK_INTERRUPT;
    }
    *d = (struct otf2_region){1, name, role, paradigm};
    return OTF2_CALLBACK_SUCCESS;
}

static OTF2_CallbackCode def_paradigm(void *ud, OTF2_IoParadigmRef self, OTF2_StringRef ident,
                                      OTF2_StringRef name, OTF2_IoParadigmClass cls,
                                      OTF2_IoParadigmFlag flags, uint8_t nprops,
                                      const OTF2_IoParadigmProperty *props, const OTF2_Type *types,
                                      const OTF2_AttributeValue *values)
{
    struct otf2_rd *r = ud;
    (void)name, (void)cls, (void)flags, (void)nprops, (void)props, (void)types, (void)values;
    struct otf2_paradigm *d = otf2_def(r, (void **)&r->paradigms, &r->nparadigms, sizeof(*d), self);
    if (!d) {
        return OTF2_CALLBACK_INTERRUPT;
    }
    *d = (struct otf2_paradigm){1, ident};
    return OTF2_CALLBACK_SUCCESS;
}

static OTF2_CallbackCode def_file(void *ud, OTF2_IoFileRef self, OTF2_StringRef name,
                                  OTF2_SystemTreeNodeRef scope)
{
    struct otf2_rd *r = ud;
    (void)scope;
    struct otf2_file *d = otf2_def(r, (void **)&r->files, &r->nfiles, sizeof(*d), self);
    if (!d) {
        return OTF2_CALLBACK_INTERRUPT;
    }
    *d = (struct otf2_file){1, name};
    return OTF2_CALLBACK_SUCCESS;
}

static OTF2_CallbackCode def_handle(void *ud, OTF2_IoHandleRef self, OTF2_StringRef name,
                                    OTF2_IoFileRef file, OTF2_IoParadigmRef paradigm,
                                    OTF2_IoHandleFlag flags, OTF2_CommRef comm,
                                    OTF2_IoHandleRef parent)
{
    struct otf2_rd *r = ud;
    (void)comm;
    struct otf2_handle *d = otf2_def(r, (void **)&r->handles, &r->nhandles, sizeof(*d), self);
    if (!d) {
        return OTF2_CALLBACK_INTERRUPT;
    }
    *d = (struct otf2_handle){.defined = 1,
                              .name = name,
                              .file = file,
                              .paradigm = paradigm,
                              .flags = flags,
                              .parent = parent};
    return OTF2_CALLBACK_SUCCESS;
}

static OTF2_CallbackCode def_precreated(void *ud, OTF2_IoHandleRef handle, OTF2_IoAccessMode mode,
                                        OTF2_IoStatusFlag status)
{
    struct otf2_rd *r = ud;
    struct otf2_handle *d = otf2_def(r, (void **)&r->handles, &r->nhandles, sizeof(*d), handle);
    if (!d) {
        return OTF2_CALLBACK_INTERRUPT;
    }
    d->has_state = 1;
    d->mode = mode;
    d->status = status;
    return OTF2_CALLBACK_SUCCESS;
}

static int read_defs(struct otf2_rd *r, OTF2_Reader *rd)
{
    OTF2_GlobalDefReader *gdr = OTF2_Reader_GetGlobalDefReader(rd);
    OTF2_GlobalDefReaderCallbacks *cb = OTF2_GlobalDefReaderCallbacks_New();
    if (!gdr || !cb) {
        OTF2_GlobalDefReaderCallbacks_Delete(cb);
        return iodfg_error_set(r->err, IODFG_E_IO, "cannot read the global definitions");
    }
    OTF2_GlobalDefReaderCallbacks_SetStringCallback(cb, def_string);
    OTF2_GlobalDefReaderCallbacks_SetClockPropertiesCallback(cb, def_clock);
    OTF2_GlobalDefReaderCallbacks_SetSystemTreeNodeCallback(cb, def_node);
    OTF2_GlobalDefReaderCallbacks_SetLocationGroupCallback(cb, def_group);
    OTF2_GlobalDefReaderCallbacks_SetLocationCallback(cb, def_location);
    OTF2_GlobalDefReaderCallbacks_SetRegionCallback(cb, def_region);
    OTF2_GlobalDefReaderCallbacks_SetIoParadigmCallback(cb, def_paradigm);
    OTF2_GlobalDefReaderCallbacks_SetIoRegularFileCallback(cb, def_file);
    OTF2_GlobalDefReaderCallbacks_SetIoDirectoryCallback(cb, def_file);
    OTF2_GlobalDefReaderCallbacks_SetIoHandleCallback(cb, def_handle);
    OTF2_GlobalDefReaderCallbacks_SetIoPreCreatedHandleStateCallback(cb, def_precreated);
    OTF2_Reader_RegisterGlobalDefCallbacks(rd, gdr, cb, r);
    OTF2_GlobalDefReaderCallbacks_Delete(cb);
    uint64_t n = 0;
    OTF2_ErrorCode rc = OTF2_Reader_ReadAllGlobalDefinitions(rd, gdr, &n);
    OTF2_Reader_CloseGlobalDefReader(rd, gdr);
    if (r->failed) {
        return -1;
    }
    if (rc != OTF2_SUCCESS) {
        return iodfg_error_set(r->err, IODFG_E_IO, "global definitions: %s",
                               OTF2_Error_GetDescription(rc));
    }
    return 0;
}

/* Events of one location: register the callbacks, read them all into the case. */
static int read_location(struct otf2_rd *r, OTF2_Reader *rd, size_t li)
{
    OTF2_EvtReader *er = OTF2_Reader_GetEvtReader(rd, r->locs[li].ref);
    OTF2_EvtReaderCallbacks *cb = OTF2_EvtReaderCallbacks_New();
    if (!er || !cb) {
        OTF2_EvtReaderCallbacks_Delete(cb);
        return iodfg_error_set(r->err, IODFG_E_IO, "cannot read the events of location %llu",
                               (unsigned long long)r->locs[li].ref);
    }
    otf2_set_event_callbacks(cb);
    OTF2_Reader_RegisterEvtCallbacks(rd, er, cb, r);
    OTF2_EvtReaderCallbacks_Delete(cb);
    if (otf2_location_begin(r, li)) {
        OTF2_Reader_CloseEvtReader(rd, er);
        return -1;
    }
    uint64_t n = 0;
    OTF2_ErrorCode rc = OTF2_Reader_ReadAllLocalEvents(rd, er, &n);
    OTF2_Reader_CloseEvtReader(rd, er);
    r->res->lines += n;
    if (r->failed) {
        return -1;
    }
    if (rc != OTF2_SUCCESS) {
        return iodfg_error_set(r->err, IODFG_E_IO, "events of location %llu: %s",
                               (unsigned long long)r->locs[li].ref, OTF2_Error_GetDescription(rc));
    }
    return otf2_location_end(r);
}

static int read_events(struct otf2_rd *r, OTF2_Reader *rd)
{
    for (size_t i = 0; i < r->nlocs; i++) {
        OTF2_Reader_SelectLocation(rd, r->locs[i].ref);
    }
    int with_defs = OTF2_Reader_OpenDefFiles(rd) == OTF2_SUCCESS;
    if (OTF2_Reader_OpenEvtFiles(rd) != OTF2_SUCCESS) {
        if (with_defs) {
            OTF2_Reader_CloseDefFiles(rd);
        }
        return iodfg_error_set(r->err, IODFG_E_IO, "cannot open the event files");
    }
    // Local definitions carry the mappings of local to global ids: read them first.
    for (size_t i = 0; with_defs && i < r->nlocs; i++) {
        OTF2_DefReader *dr = OTF2_Reader_GetDefReader(rd, r->locs[i].ref);
        if (dr) {
            uint64_t n = 0;
            OTF2_Reader_ReadAllLocalDefinitions(rd, dr, &n);
            OTF2_Reader_CloseDefReader(rd, dr);
        }
    }
    if (with_defs) {
        OTF2_Reader_CloseDefFiles(rd);
    }
    int rc = 0;
    for (size_t i = 0; rc == 0 && i < r->nlocs; i++) {
        rc = read_location(r, rd, i);
    }
    OTF2_Reader_CloseEvtFiles(rd);
    return rc;
}

static void rd_fini(struct otf2_rd *r)
{
    for (uint32_t i = 0; i < r->nstrings; i++) {
        free(r->strings[i].text);
    }
    free(r->strings);
    free(r->nodes);
    free(r->groups);
    free(r->locs);
    free(r->regions);
    free(r->paradigms);
    free(r->files);
    free(r->handles);
    free(r->hmap);
    free(r->pos);
    free(r->stack);
    free(r->pending);
}

// The library must not write to stderr: libotf2's messages are dropped, its codes kept.
static OTF2_ErrorCode quiet(void *ud, const char *file, uint64_t line, const char *function,
                            OTF2_ErrorCode code, const char *fmt, va_list va)
{
    (void)ud, (void)file, (void)line, (void)function, (void)fmt, (void)va;
    return code;
}

struct iodfg_eventlog *iodfg_otf2_read(const char *path, unsigned columns,
                                       struct iodfg_strace_result *res, struct iodfg_error *err)
{
    struct iodfg_strace_result local;
    if (!res) {
        res = &local;
    }
    memset(res, 0, sizeof(*res));
    res->clock = IODFG_CLOCK_RELATIVE;
    struct otf2_rd r = {.err = err, .res = res, .resolution = 1000000000u, .path = path};
    r.log = iodfg_eventlog_new(columns);
    if (!r.log) {
        iodfg_error_set(err, IODFG_E_NOMEM, NULL);
        return NULL;
    }
    OTF2_Error_RegisterCallback(quiet, NULL);
    // libotf2 leaks its archive when the anchor cannot be opened: look first.
    FILE *probe = fopen(path, "rb");
    int open_errno = probe ? 0 : errno;
    if (probe) {
        fclose(probe);
    }
    OTF2_Reader *rd = probe ? OTF2_Reader_Open(path) : NULL;
    int rc = -1;
    if (!probe) {
        iodfg_error_set(err, IODFG_E_IO, "cannot open: %s", strerror(open_errno));
    } else if (!rd) {
        iodfg_error_set(err, IODFG_E_IO, "not an OTF2 archive, or libotf2 cannot open it");
    } else {
        OTF2_Reader_SetSerialCollectiveCallbacks(rd);
        rc = read_defs(&r, rd);
        if (rc == 0) {
            rc = read_events(&r, rd);
        }
        OTF2_Reader_Close(rd);
    }
    rd_fini(&r);
    if (rc) {
        iodfg_error_at(err, path, 0, 0);
        iodfg_eventlog_free(r.log);
        return NULL;
    }
    return r.log;
}
