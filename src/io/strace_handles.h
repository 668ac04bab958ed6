/* SPDX-License-Identifier: MIT */
/* Per-process descriptor tracking for the strace parser: which handle each event used. */
#ifndef IODFG_IO_STRACE_HANDLES_H
#define IODFG_IO_STRACE_HANDLES_H

#include <stddef.h>
#include <stdint.h>

#include "iodfg/eventlog.h"
#include "iodfg/handles.h"

#include "strace_calls.h"
#include "strace_priv.h"

#define INHERIT_MARK 0x80000000u /* slot of a descriptor inherited but not used yet */

struct fd_table {
    uint32_t *slot; /* per fd: 0 free, local handle id, or INHERIT_MARK|id (not yet used) */
    uint32_t cap;
};

struct fd_proc {
    int32_t pid;
    uint32_t table; /* index into tables (threads share one) */
};

struct fd_fork {
    int32_t pid; /* parent with a fork-like call in flight */
    int shared;  /* CLONE_FILES: the child shares the table */
};

struct strace_handles {
    struct fd_table *tables;
    uint32_t ntables, tables_cap;
    struct fd_proc *procs;
    uint32_t nprocs, procs_cap;
    uint32_t last; /* index of the last process looked up */
    struct fd_fork forks[8];
    unsigned nforks;
    uint32_t next; /* last local handle id given out */
    struct iodfg_raw_handle defs[2];
    uint32_t *closed; /* handles an event closed besides its own (dup2 target, close_range) */
    uint32_t nclosed, closed_cap;
};

void strace_handles_init(struct strace_handles *t);
void strace_handles_fini(struct strace_handles *t);

/* A fork-like call of pid is in flight (its unfinished half): a process seen for the first time
 * before the call returns is taken as its child. */
void strace_handles_fork_pending(struct strace_handles *t, int32_t pid, struct text args);

/* Give ev (pid, fd, path, return already filled) its handle, handle op and the definitions of
 * handles it creates or first uses. ci may be NULL. 0, or -1 when out of memory. */
int strace_handles_event(struct strace_handles *t, const struct call_info *ci,
                         const struct strace_line *ln, struct text args,
                         struct iodfg_raw_event *ev);

/* The same, inline for the common case: a read, write or other use of a live descriptor of
 * the process seen last. */
static inline int strace_handles_track(struct strace_handles *t, const struct call_info *ci,
                                       const struct strace_line *ln, struct text args,
                                       struct iodfg_raw_event *ev)
{
    unsigned hk = ci->hk;
    if (hk <= HK_WRITE && t->last < t->nprocs && t->procs[t->last].pid == ev->pid && ev->fd >= 0 &&
        !ln->err.n) {
        const struct fd_table *tab = &t->tables[t->procs[t->last].table];
        uint32_t v = (uint32_t)ev->fd < tab->cap ? tab->slot[ev->fd] : 0;
        if (v && !(v & INHERIT_MARK)) {
            ev->handle = v;
            ev->hop = hk == HK_READ    ? IODFG_HOP_READ
                      : hk == HK_WRITE ? IODFG_HOP_WRITE
                                       : IODFG_HOP_USE;
            return 0;
        }
    }
    return strace_handles_event(t, ci, ln, args, ev);
}

#endif
