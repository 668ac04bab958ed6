/* SPDX-License-Identifier: MIT */
/* OTF2 input, part 3: open the archive, read the definitions, then every location's events
 * into a case of a new log (iodfg_otf2_read). */
#include "config.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "iodfg/error.h"
#include "iodfg/eventlog.h"
#include "iodfg/otf2.h"
#include "iodfg/strace.h"

#include "otf2_priv.h"

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
    iodfg_otf2_set_event_callbacks(cb);
    OTF2_Reader_RegisterEvtCallbacks(rd, er, cb, r);
    OTF2_EvtReaderCallbacks_Delete(cb);
    if (iodfg_otf2_location_begin(r, li)) {
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
    return iodfg_otf2_location_end(r);
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
    free(r->attributes);
    free(r->hmap);
    free(r->pos);
    free(r->amode);
    free(r->stack);
    free(r->pending);
    iodfg_otf2_context_fini(r);
}

// The library must not write to stderr: libotf2's messages are dropped, its codes kept.
static OTF2_ErrorCode quiet(void *ud, const char *file, uint64_t line, const char *function,
                            OTF2_ErrorCode code, const char *fmt, va_list va)
{
    (void)ud, (void)file, (void)line, (void)function, (void)fmt, (void)va;
    return code;
}

struct iodfg_eventlog *iodfg_otf2_read_unguarded(const char *path, unsigned columns,
                                                 struct iodfg_strace_result *res,
                                                 struct iodfg_error *err)
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
    OTF2_Reader *rd = OTF2_Reader_Open(path);
    int rc = -1;
    if (!rd) {
        iodfg_error_set(err, IODFG_E_IO, "not an OTF2 archive, or libotf2 cannot open it");
    } else {
        OTF2_Reader_SetSerialCollectiveCallbacks(rd);
        rc = iodfg_otf2_read_defs(&r, rd);
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

struct iodfg_eventlog *iodfg_otf2_read(const char *path, unsigned columns,
                                       struct iodfg_strace_result *res, struct iodfg_error *err)
{
    // also keeps libotf2 from leaking its archive on an anchor it cannot open
    if (iodfg_otf2_guard(path, err)) {
        if (res) {
            memset(res, 0, sizeof(*res));
        }
        return NULL;
    }
    return iodfg_otf2_read_unguarded(path, columns, res, err);
}
