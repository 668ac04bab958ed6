/* SPDX-License-Identifier: MIT */
/* The handle table of an event log: one row per I/O handle (file descriptor, or a handle of a
 * higher I/O layer), with its lifetime, origin, parent, and traffic (Tschüter et al. 2018,
 * Sect. 3.1). */
#ifndef IODFG_HANDLES_H
#define IODFG_HANDLES_H

#include <stddef.h>
#include <stdint.h>

struct iodfg_error;
struct iodfg_eventlog;

/* How a handle came to be. */
enum iodfg_handle_origin {
    IODFG_HANDLE_OPEN = 0,       /* open, openat, creat, socket, pipe, accept, ... */
    IODFG_HANDLE_DUP = 1,        /* dup, dup2, dup3, fcntl(F_DUPFD*): parent = the original */
    IODFG_HANDLE_PRECREATED = 2, /* used but never opened in the trace (0/1/2, inherited) */
    IODFG_HANDLE_INHERITED = 3,  /* a child's copy of its parent's descriptor (fork under -f) */
};
#define IODFG_HANDLE_ORIGIN__N 4
const char *iodfg_handle_origin_name(enum iodfg_handle_origin o);

/* One handle. Ids are 1-based: handle h is row h - 1 of the table. Strings are ids in the log's
 * pool. Times are on the case's clock; IODFG_UNKNOWN when not seen. */
struct iodfg_handle {
    uint32_t case_id;   /* the case whose events use it */
    int32_t pid, fd;    /* process and descriptor number (fd: IODFG_NO_FD for none) */
    uint32_t path;      /* file it refers to ("" unknown) */
    uint32_t call;      /* call that created it ("" for pre-created handles) */
    uint32_t flags;     /* open flags as the trace shows them ("O_RDONLY|O_CLOEXEC"), "" unknown */
    uint32_t layer;     /* I/O layer (paradigm), "" = POSIX */
    uint32_t parent;    /* parent handle id (dup original, parent's copy, upper layer), 0 none */
    uint32_t origin;    /* enum iodfg_handle_origin */
    int64_t mode;       /* creation mode (0644 = 420), IODFG_UNKNOWN when not shown */
    int64_t created_ns; /* start of the creating event; IODFG_UNKNOWN for pre-created */
    int64_t destroyed_ns; /* end of the closing event; IODFG_UNKNOWN when never closed */
    uint64_t ops;         /* events that used it (creation and close included) */
    uint64_t bytes_read, bytes_written;
};

/* A handle definition as a parser sees it (strings are views, parent is case-local). */
struct iodfg_raw_handle {
    uint32_t origin, parent;
    int32_t pid, fd;
    const char *path, *flags, *layer;
    size_t path_len, flags_len, layer_len;
    int64_t mode;
};

/* Handles of the log (borrowed until the log changes). */
uint32_t iodfg_eventlog_handle_count(const struct iodfg_eventlog *log);
const struct iodfg_handle *iodfg_eventlog_handles(const struct iodfg_eventlog *log);

/* A handle of one log as another log numbers it: cases shift by case_base, handles by
 * handle_base, strings go through smap. */
void iodfg_handle_move(struct iodfg_handle *h, const uint32_t *smap, uint32_t case_base,
                       uint32_t handle_base);

/* Append a handle (its strings already ids of the log's pool, parent an existing id or 0) and
 * return its id in *id. Used by loaders and readers of other formats; 0 or -1 with err. */
int iodfg_eventlog_handle_add(struct iodfg_eventlog *log, const struct iodfg_handle *h,
                              uint32_t *id, struct iodfg_error *err);
/* The handle row h (1-based id) for updates by readers; NULL when out of range. */
struct iodfg_handle *iodfg_eventlog_handle_get(struct iodfg_eventlog *log, uint32_t id);

/* Count one use of handle id by an event (ops, bytes, lifetime per hop). Used by
 * iodfg_eventlog_push_raw and by readers that push iodfg_event rows. */
void iodfg_eventlog_handle_use(struct iodfg_eventlog *log, uint32_t id, unsigned hop,
                               int64_t start_ns, int64_t dur_ns, int64_t size);

/* ---- handle tables (the CLI's `iodfg handles` and the TUI's Handles view) ---- */

/* What a selection of handles adds up to. */
struct iodfg_handle_summary {
    uint64_t count, never_closed;
    uint64_t by_origin[IODFG_HANDLE_ORIGIN__N];
};

/* The ids of the handles whose case is on (case_on: one byte per case, NULL = every case) and,
 * with open_only, that were never closed, in id order into ids (room for
 * iodfg_eventlog_handle_count entries; may be NULL to count only), and their summary in *sum
 * (may be NULL). Returns how many were selected. */
uint32_t iodfg_handles_select(const struct iodfg_eventlog *log, const uint8_t *case_on,
                              int open_only, uint32_t *ids, struct iodfg_handle_summary *sum);
/* The origin of handle times: the earliest event start of the log, 0 when it has none (or no
 * start column). */
int64_t iodfg_handles_time_origin(const struct iodfg_eventlog *log);
/* destroyed - created, or IODFG_UNKNOWN when the handle was pre-created or never closed. */
int64_t iodfg_handle_lifetime(const struct iodfg_handle *h);
/* The parent chain of handle id: its parent, that one's parent, ... into chain (at most max
 * ids). Returns how many were written; stops at a missing id or a loop. */
size_t iodfg_handle_chain(const struct iodfg_eventlog *log, uint32_t id, uint32_t *chain,
                          size_t max);

#endif
