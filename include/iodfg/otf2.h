/* SPDX-License-Identifier: MIT */
/* OTF2 input: the I/O records of a Score-P trace archive as an event log (doc/format.md). */
#ifndef IODFG_OTF2_H
#define IODFG_OTF2_H

struct iodfg_error;
struct iodfg_eventlog;
struct iodfg_strace_result;

/* Does path name an OTF2 anchor file (its name ends in ".otf2")? */
int iodfg_otf2_is_anchor(const char *path);

/* Read the archive whose anchor file is path into a new log with the given columns (enum
 * iodfg_column bits): one case per location that has events, one event per completed I/O
 * operation, handle creation, destruction, duplication, seek or file deletion, with the
 * layer, handle and parent handle of each. res (may be NULL) gets the counts: lines =
 * records read, events kept, unmatched = operations never completed or cancelled. The log
 * belongs to the caller. Returns NULL with err set (IODFG_E_IO when libotf2 cannot read the
 * archive, IODFG_E_PARSE for inconsistent definitions, IODFG_E_ARG when iodfg was built
 * without libotf2). */
struct iodfg_eventlog *iodfg_otf2_read(const char *path, unsigned columns,
                                       struct iodfg_strace_result *res, struct iodfg_error *err);

#endif
