/* SPDX-License-Identifier: MIT */
/* Call sites (strace -k): the frame of the traced program's own code that issued each event (the
 * innermost frame whose object the focus rules call the application's), and per activity the
 * calls, time, bytes and cases of each site. */
#ifndef IODFG_CALLSITES_H
#define IODFG_CALLSITES_H

#include <stddef.h>
#include <stdint.h>

struct iodfg_error;
struct iodfg_eventlog;
struct iodfg_focus;
struct iodfg_mapping;
struct iodfg_selection;

/* The call site of every stack of log: site[s] is the frame id (iodfg/stacks.h) of stack s's
 * innermost frame in an object of the application's class (focus f), 0 when the stack has none
 * (all libc, loader, MPI...) or s is 0 (no stack). *site (stacks + 1 entries, malloc'd) is NULL
 * when the log has no stacks. 0, or -1 with err. */
int iodfg_callsites_resolve(const struct iodfg_focus *f, const struct iodfg_eventlog *log,
                            uint32_t **site, struct iodfg_error *err);

/* The site of events whose stack has no frame of the program's own (all in libc, the loader...). */
#define IODFG_CALLSITE_RUNTIME UINT32_MAX

/* The name of every stack's call site as a string id of log's pool (interned there in stack
 * order): its function, or "object+0xADDRESS" without one; IODFG_STR_EMPTY for a stack without a
 * frame of the program and for [0]. *names (stacks + 1 entries, malloc'd) is NULL when the log
 * has no stacks. 0, or -1 with err. */
int iodfg_callsites_names(const struct iodfg_focus *f, struct iodfg_eventlog *log, uint32_t **names,
                          struct iodfg_error *err);

/* Split the keys of log by call site (iodfg_eventlog_split_keys), the site of a stack named by
 * its function (or "object+0xADDRESS" without one); stacks without a frame of the program keep
 * their key. Done once, after loading and before a session opens over the log. 0, or -1 with err.
 */
int iodfg_callsites_split_keys(const struct iodfg_focus *f, struct iodfg_eventlog *log,
                               struct iodfg_error *err);

/* One (activity, call site) pair of the selected events. */
struct iodfg_callsite_row {
    uint32_t activity; /* mapping activity id */
    uint32_t site;     /* frame id; 0: no stack; IODFG_CALLSITE_RUNTIME: no frame of the program */
    uint64_t calls;
    int64_t dur_ns; /* sum of the known durations */
    int64_t bytes;  /* sum of the sizes (read/write results) */
    uint32_t cases; /* cases with such events */
};

/* The rows, by activity (most time first), and in each by site (most time first). */
struct iodfg_callsites {
    struct iodfg_callsite_row *rows;
    size_t nrows;
    int64_t *act_dur_ns; /* nactivities: each activity's time over its rows */
    uint32_t nactivities;
    uint64_t events;     /* selected events that map to an activity */
    uint64_t with_stack; /* ... and have a stack */
    uint64_t with_site;  /* ... and a call site */
};
void iodfg_callsites_init(struct iodfg_callsites *cs);
void iodfg_callsites_fini(struct iodfg_callsites *cs);
/* Count the selected events of log (cases and time window of sel) by activity (map) and call
 * site (site from iodfg_callsites_resolve; NULL: every event has none). 0, or -1 with err (out of
 * memory, a mapping of another log). */
int iodfg_callsites_build(struct iodfg_callsites *cs, const struct iodfg_eventlog *log,
                          const struct iodfg_mapping *map, const struct iodfg_selection *sel,
                          const uint32_t *site, struct iodfg_error *err);

#endif
