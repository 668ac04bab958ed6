/* SPDX-License-Identifier: MIT */
/* The parser's table of system calls with a special meaning. */
#ifndef IODFG_IO_STRACE_CALLS_H
#define IODFG_IO_STRACE_CALLS_H

#include <stddef.h>

/* What a call does to descriptors. */
enum handle_kind {
    HK_NONE = 0,
    HK_USE,         /* uses the descriptor in its first argument */
    HK_READ,        /* reads through it (size = bytes read) */
    HK_WRITE,       /* writes through it */
    HK_NEWFD,       /* returns a new descriptor (open, socket, eventfd, ...) */
    HK_ACCEPT,      /* uses its first argument and returns a new descriptor */
    HK_DUP,         /* dup/dup2/dup3: returns a copy of its first argument */
    HK_FCNTL,       /* fcntl: F_DUPFD* duplicate, anything else uses */
    HK_CLOSE,       /* destroys its first argument */
    HK_CLOSE_RANGE, /* destroys the descriptors first..last */
    HK_PAIR,        /* pipe, pipe2, socketpair: two new descriptors in an array argument */
    HK_FORK,        /* clone, fork, vfork: returns a child pid that inherits descriptors */
};

struct call_info {
    const char *name;
    unsigned flags;        /* enum iodfg_call_flag */
    unsigned char req_arg; /* requested bytes: argument position from the end, 0 = none */
    unsigned char off_arg; /* file offset: argument position from the end, 0 = none */
    unsigned char hk;      /* enum handle_kind */
};

/* The entry for a call name, or NULL. */
const struct call_info *strace_call_lookup(const char *name, size_t len);
/* The whole table (sorted by name). */
const struct call_info *strace_call_table(size_t *count);

#endif
