/* SPDX-License-Identifier: MIT */
/* The parser's table of system calls with a special meaning. */
#ifndef IODFG_IO_STRACE_CALLS_H
#define IODFG_IO_STRACE_CALLS_H

#include <stddef.h>

struct call_info {
    const char *name;
    unsigned flags;        /* enum iodfg_call_flag */
    unsigned char req_arg; /* requested bytes: argument position from the end, 0 = none */
    unsigned char off_arg; /* file offset: argument position from the end, 0 = none */
};

/* The entry for a call name, or NULL. */
const struct call_info *strace_call_lookup(const char *name, size_t len);
/* The whole table (sorted by name). */
const struct call_info *strace_call_table(size_t *count);

#endif
