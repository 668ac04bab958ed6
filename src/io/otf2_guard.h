/* SPDX-License-Identifier: MIT */
/* The OTF2 guard and the reader behind it, apart (io-internal; no libotf2 types, so the ingest
 * includes it in every build): the guard forks, which is safe only while no other thread runs. */
#ifndef IODFG_IO_OTF2_GUARD_H
#define IODFG_IO_OTF2_GUARD_H

struct iodfg_error;
struct iodfg_eventlog;
struct iodfg_strace_result;

/* Before libotf2 opens the archive of anchor path (otf2_guard.c): the anchor and the .def and
 * .evt files beside it are regular files, and a child process loaded the anchor within a
 * quarter of a second of processor time. 0, or -1 with err naming the archive. It forks: call
 * it only while the process has no other thread (a lock another thread held at the fork, such
 * as the sanitizers' allocator's, stays held in the child, which then waits for ever). Without
 * libotf2: 0 (the reader names what is missing). */
int iodfg_otf2_guard(const char *path, struct iodfg_error *err);
/* iodfg_otf2_read without that guard: for an archive the guard passed (the ingest's workers)
 * and for fuzzing, where the anchor is a known good one. */
struct iodfg_eventlog *iodfg_otf2_read_unguarded(const char *path, unsigned columns,
                                                 struct iodfg_strace_result *res,
                                                 struct iodfg_error *err);

#endif
