/* SPDX-License-Identifier: MIT */
/* OTF2 input, part 1: the global definitions (strings, clock, system tree, locations,
 * regions, I/O paradigms, files and handles) and the helpers the other parts share. */
#include "config.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "iodfg/error.h"
#include "iodfg/eventlog.h"
#include "iodfg/strpool.h"

#include "otf2_priv.h"

OTF2_CallbackCode iodfg_otf2_fail(struct otf2_rd *r, enum iodfg_status code, const char *msg)
{
    iodfg_error_set(r->err, code, "%s", msg);
    r->failed = 1;
    return OTF2_CALLBACK_INTERRUPT;
}

/* The definition slot ref of a table (grown and zeroed as needed); NULL with err set. */
void *iodfg_otf2_def(struct otf2_rd *r, void **arr, uint32_t *n, size_t size, uint64_t ref)
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
            iodfg_otf2_fail(r, IODFG_E_NOMEM, "out of memory");
            return NULL;
        }
        memset(a + (size_t)*n * size, 0, (size_t)(cap - *n) * size);
        *arr = a;
        *n = cap;
    }
    return (char *)*arr + (size_t)ref * size;
}

const char *iodfg_otf2_text(const struct otf2_rd *r, OTF2_StringRef s)
{
    return s < r->nstrings && r->strings[s].text ? r->strings[s].text : "";
}

/* String s interned in the log's pool (cached); UINT32_MAX when out of memory. */
uint32_t iodfg_otf2_str_id(struct otf2_rd *r, OTF2_StringRef s)
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

uint32_t iodfg_otf2_intern(struct otf2_rd *r, const char *s)
{
    uint32_t id;
    return iodfg_strpool_intern(iodfg_eventlog_pool(r->log), s, strlen(s), &id) ? UINT32_MAX : id;
}

/* Trace ticks -> nanoseconds since the clock's global offset. */
int64_t iodfg_otf2_to_ns(const struct otf2_rd *r, OTF2_TimeStamp t)
{
    uint64_t d = t >= r->offset ? t - r->offset : r->offset - t;
    uint64_t whole = d / r->resolution, rest = d % r->resolution;
    // Only a damaged archive goes beyond the event log's time range (iodfg/eventlog.h).
    const uint64_t most = (uint64_t)IODFG_START_MAX;
    uint64_t ns = whole > most / 1000000000u
                      ? most
                      : whole * 1000000000u +
                            (uint64_t)((long double)rest * 1e9L / (long double)r->resolution);
    ns = ns > most ? most : ns;
    return t >= r->offset ? (int64_t)ns : -(int64_t)ns;
}

/* ---- reading ------------------------------------------------------------- */

static OTF2_CallbackCode def_string(void *ud, OTF2_StringRef self, const char *s)
{
    struct otf2_rd *r = ud;
    struct otf2_string *d = iodfg_otf2_def(r, (void **)&r->strings, &r->nstrings, sizeof(*d), self);
    if (!d || !(d->text = strdup(s ? s : ""))) {
        return iodfg_otf2_fail(r, IODFG_E_NOMEM, "out of memory");
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
        return iodfg_otf2_fail(r, IODFG_E_PARSE, "clock properties with a timer resolution of 0");
    }
    r->resolution = resolution;
    r->offset = offset;
    return OTF2_CALLBACK_SUCCESS;
}

static OTF2_CallbackCode def_node(void *ud, OTF2_SystemTreeNodeRef self, OTF2_StringRef name,
                                  OTF2_StringRef cls, OTF2_SystemTreeNodeRef parent)
{
    struct otf2_rd *r = ud;
    struct otf2_node *d = iodfg_otf2_def(r, (void **)&r->nodes, &r->nnodes, sizeof(*d), self);
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
    struct otf2_group *d = iodfg_otf2_def(r, (void **)&r->groups, &r->ngroups, sizeof(*d), self);
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
            return iodfg_otf2_fail(r, IODFG_E_NOMEM, "out of memory");
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
    (void)canonical, (void)descr, (void)flags, (void)end;
    struct otf2_region *d = iodfg_otf2_def(r, (void **)&r->regions, &r->nregions, sizeof(*d), self);
    if (!d) {
        return OTF2_CALLBACK_INTERRUPT;
    }
    *d = (struct otf2_region){1, name, role, paradigm, file, begin};
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
    struct otf2_paradigm *d =
        iodfg_otf2_def(r, (void **)&r->paradigms, &r->nparadigms, sizeof(*d), self);
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
    struct otf2_file *d = iodfg_otf2_def(r, (void **)&r->files, &r->nfiles, sizeof(*d), self);
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
    struct otf2_handle *d = iodfg_otf2_def(r, (void **)&r->handles, &r->nhandles, sizeof(*d), self);
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

static OTF2_CallbackCode def_attribute(void *ud, OTF2_AttributeRef self, OTF2_StringRef name,
                                       OTF2_StringRef description, OTF2_Type type)
{
    struct otf2_rd *r = ud;
    (void)description;
    struct otf2_attribute *d =
        iodfg_otf2_def(r, (void **)&r->attributes, &r->nattributes, sizeof(*d), self);
    if (!d) {
        return OTF2_CALLBACK_INTERRUPT;
    }
    *d = (struct otf2_attribute){1, name, type};
    return OTF2_CALLBACK_SUCCESS;
}

/* Score-P puts the absolute offset of pread, pwrite, MPI_File_read_at ... in an attribute
 * "Offset" of the operation's begin record (the strings may follow the attributes). */
static void find_offset_attribute(struct otf2_rd *r)
{
    r->offset_attr = OTF2_UNDEFINED_ATTRIBUTE;
    for (uint32_t i = 0; i < r->nattributes; i++) {
        const struct otf2_attribute *a = &r->attributes[i];
        if (a->defined && a->type == OTF2_TYPE_UINT64 &&
            strcmp(iodfg_otf2_text(r, a->name), "Offset") == 0) {
            r->offset_attr = i;
            return;
        }
    }
}

static OTF2_CallbackCode def_precreated(void *ud, OTF2_IoHandleRef handle, OTF2_IoAccessMode mode,
                                        OTF2_IoStatusFlag status)
{
    struct otf2_rd *r = ud;
    struct otf2_handle *d =
        iodfg_otf2_def(r, (void **)&r->handles, &r->nhandles, sizeof(*d), handle);
    if (!d) {
        return OTF2_CALLBACK_INTERRUPT;
    }
    d->has_state = 1;
    d->mode = mode;
    d->status = status;
    return OTF2_CALLBACK_SUCCESS;
}

int iodfg_otf2_read_defs(struct otf2_rd *r, OTF2_Reader *rd)
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
    OTF2_GlobalDefReaderCallbacks_SetAttributeCallback(cb, def_attribute);
    iodfg_otf2_context_def_callbacks(cb);
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
    find_offset_attribute(r);
    iodfg_otf2_context_mode(r);
    return 0;
}
