/* SPDX-License-Identifier: MIT */
/* The OTF2 reader's shared state (one struct otf2_rd per archive) and the helpers its three
 * parts share: definitions (otf2_defs.c), each location's I/O events (otf2_events.c) and the
 * driver (otf2_read.c). Only these files include <otf2/otf2.h>. */
#ifndef IODFG_IO_OTF2_PRIV_H
#define IODFG_IO_OTF2_PRIV_H

#include <otf2/otf2.h>
#include <stddef.h>
#include <stdint.h>

#include "iodfg/error.h"

#include "otf2_guard.h"

struct iodfg_eventlog;
struct iodfg_strace_result;

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
    OTF2_StringRef file; /* source file, OTF2_UNDEFINED_STRING when none */
    uint32_t line;       /* its first line, 0 when unknown */
};
struct otf2_scl { /* SourceCodeLocation */
    uint8_t defined;
    OTF2_StringRef file;
    uint32_t line;
};
struct otf2_cc { /* CallingContext: a node of the calling-context tree */
    uint8_t defined;
    OTF2_RegionRef region;
    OTF2_SourceCodeLocationRef scl;
    OTF2_CallingContextRef parent;
};
struct otf2_rnode {  /* a node of the tree of region stacks (Enter/Leave) */
    uint32_t parent; /* node id, 0 = the root (no region) */
    OTF2_RegionRef region;
};

/* Where each I/O event's stack comes from (otf2_context.c). */
enum otf2_ctx_mode {
    OTF2_CTX_NONE,    /* no calling context: no stacks */
    OTF2_CTX_REGIONS, /* the Enter/Leave region stack (instrumented functions) */
    OTF2_CTX_CALLING  /* CallingContext definitions and CallingContextEnter/Leave (unwinding) */
};
struct otf2_paradigm {
    uint8_t defined;
    OTF2_StringRef ident;
};
struct otf2_file {
    uint8_t defined;
    OTF2_StringRef name;
};
struct otf2_attribute {
    uint8_t defined;
    OTF2_StringRef name;
    OTF2_Type type;
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
    uint32_t ctx;   /* calling context when it began (struct otf2_rd's cur) */
    int positional; /* offset given by the record: the handle's position does not move */
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
    struct otf2_attribute *attributes;
    uint32_t nstrings, nnodes, ngroups, nregions, nparadigms, nfiles, nhandles, nattributes;
    /* Score-P's "Offset" attribute (uint64) of positional operations; OTF2_UNDEFINED_ATTRIBUTE
     * when the archive defines none */
    OTF2_AttributeRef offset_attr;
    struct otf2_location *locs;
    size_t nlocs, locs_cap;
    /* the location being read */
    size_t loc;
    int case_open;
    uint64_t unmatched; /* of this location */
    uint64_t seq;
    uint32_t *hmap; /* IoHandle ref -> handle id in the log (0 = none yet), nhandles entries */
    int64_t *pos;   /* IoHandle ref -> position implied by the trace, IODFG_UNKNOWN if not */
    uint8_t *amode; /* IoHandle ref -> access mode of its last creation, OTF2_AMODE_UNKNOWN */
    uint32_t *stack;
    size_t depth, stack_cap;
    struct otf2_pending *pending;
    size_t npending, pending_cap;
    /* calling context (otf2_context.c) */
    int ctx_mode; /* enum otf2_ctx_mode */
    struct otf2_scl *scls;
    struct otf2_cc *ccs;
    uint32_t nscls, nccs;
    /* the current context: CallingContext ref + 1, or region node id; 0 = none */
    uint32_t cur;
    uint32_t *ctx_stack; /* per entry of stack: the context after that Enter */
    size_t ctx_cap;
    struct otf2_rnode *rnodes; /* node id n is rnodes[n - 1] */
    uint32_t nrnodes, rnodes_cap;
    uint64_t *rhash_key; /* (parent << 32 | region) -> node id */
    uint32_t *rhash_id;
    size_t rhash_slots;
    uint64_t bad; /* malformed calling-context records of this location */
};

/* No access mode known (neither created in the trace nor a pre-created state). */
#define OTF2_AMODE_UNKNOWN UINT8_MAX

/* Ids of definitions are dense in practice; larger ones are taken as a broken archive. */
#define OTF2_MAX_REF (1u << 24)

/* Set err from msg, mark the read failed and stop libotf2's reading. */
OTF2_CallbackCode iodfg_otf2_fail(struct otf2_rd *r, enum iodfg_status code, const char *msg);
/* The definition slot ref of a table (grown and zeroed as needed); NULL with err set. */
void *iodfg_otf2_def(struct otf2_rd *r, void **arr, uint32_t *n, size_t size, uint64_t ref);
/* A definition string ("" when undefined). */
const char *iodfg_otf2_text(const struct otf2_rd *r, OTF2_StringRef s);
/* String s interned in the log's pool (cached); UINT32_MAX when out of memory. */
uint32_t iodfg_otf2_str_id(struct otf2_rd *r, OTF2_StringRef s);
/* s interned in the log's pool; UINT32_MAX when out of memory. */
uint32_t iodfg_otf2_intern(struct otf2_rd *r, const char *s);
/* Trace ticks -> nanoseconds since the clock's global offset. */
int64_t iodfg_otf2_to_ns(const struct otf2_rd *r, OTF2_TimeStamp t);

/* Read the global definitions into r (otf2_defs.c). 0, or -1 with err set. */
int iodfg_otf2_read_defs(struct otf2_rd *r, OTF2_Reader *rd);

/* Open the case of location li / close it (otf2_events.c). 0, or -1 with err set. */
int iodfg_otf2_location_begin(struct otf2_rd *r, size_t li);
int iodfg_otf2_location_end(struct otf2_rd *r);
/* Push region on the location's region stack. 0, or -1 with err set. */
int iodfg_otf2_push_region(struct otf2_rd *r, OTF2_RegionRef region);
/* Register the event callbacks of the I/O records. */
void iodfg_otf2_set_event_callbacks(OTF2_EvtReaderCallbacks *cb);

/* ---- calling context (otf2_context.c) ---- */

/* Register the definition callbacks of SourceCodeLocation and CallingContext. */
void iodfg_otf2_context_def_callbacks(OTF2_GlobalDefReaderCallbacks *cb);
/* After the definitions: choose r->ctx_mode. */
void iodfg_otf2_context_mode(struct otf2_rd *r);
/* Register CallingContextEnter/Leave (which also keep the region stack of call names). */
void iodfg_otf2_context_evt_callbacks(OTF2_EvtReaderCallbacks *cb);
/* A location's events begin: no current context. */
void iodfg_otf2_context_reset(struct otf2_rd *r);
/* Region region was entered (pushed as entry r->depth - 1 of the region stack): 0, or -1 with
 * err set. Left at position pos of the location (found: a matching Enter was popped). */
int iodfg_otf2_context_enter(struct otf2_rd *r, OTF2_RegionRef region);
void iodfg_otf2_context_leave(struct otf2_rd *r, uint64_t pos, OTF2_RegionRef region, int found);
/* Give the event just pushed with seq its stack: the frames of context ctx, innermost first.
 * 0, or -1 with err set. */
int iodfg_otf2_context_frames(struct otf2_rd *r, uint32_t ctx, uint64_t seq);
/* Count a malformed calling-context record (position pos of the location) as unparsable. */
void iodfg_otf2_context_bad(struct otf2_rd *r, uint64_t pos, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
void iodfg_otf2_context_fini(struct otf2_rd *r);

#endif
