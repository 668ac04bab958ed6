/* SPDX-License-Identifier: MIT */
/* Source file and line of an address in a program or library, from its debug information
 * (elfutils' libdw, an optional build dependency). */
#ifndef IODFG_SRCLINE_H
#define IODFG_SRCLINE_H

#include <stddef.h>
#include <stdint.h>

struct iodfg_eventlog;
struct iodfg_srcline;

/* Whether this build can look lines up (configure found libdw). */
int iodfg_srcline_available(void);

/* A lookup cache: each object file is opened once. dir (may be NULL) is where to look for an
 * object that is not at its traced path (--symbols DIR: DIR/<base name>, then DIR/<path>).
 * NULL when out of memory. */
struct iodfg_srcline *iodfg_srcline_new(const char *dir);
void iodfg_srcline_free(struct iodfg_srcline *sl);

/* The file and line of address (the offset strace -k prints in brackets: from the object's
 * load address) in object; return_address: the address follows a call (every frame but the
 * innermost), so the call's own line is looked up. 1 with file (borrowed until sl is freed) and
 * *line, 0 when unknown (no libdw, object unreadable, no debug information there). */
int iodfg_srcline_lookup(struct iodfg_srcline *sl, const char *object, uint64_t address,
                         int return_address, const char **file, int *line);

/* The same for frame id frame (iodfg/stacks.h) of log's stacks, a call site (a return
 * address): 1 with file and *line, 0 when unknown or log has no such frame. */
int iodfg_srcline_frame(struct iodfg_srcline *sl, const struct iodfg_eventlog *log, uint32_t frame,
                        const char **file, int *line);

#endif
