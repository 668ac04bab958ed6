/* SPDX-License-Identifier: MIT */
/* A small multi-layer OTF2 trace for the tests (two MPI ranks, MPI-IO over POSIX, ISO C). */
#ifndef IODFG_TESTS_OTF2_TRACE_H
#define IODFG_TESTS_OTF2_TRACE_H

#include <otf2/otf2.h>

/* Write the archive DIR/NAME.otf2 (+ NAME.def, NAME/) with the OTF2 writer API; the trace is
 * described in tests/tools/otf2_trace.c. Returns 0, or -1 (message on stderr). */
int otf2_trace_write(const char *dir, const char *name);
/* The same with other strings as the file's name (/scratch/out.dat) and rank 1's (its case),
 * such as a hostile user's (tests/e2e/hostile_inputs.sh); NULL keeps the usual one. */
int otf2_trace_write_named(const char *dir, const char *name, const char *file, const char *rank1);

/* Write the archive DIR/NAME.otf2 of nlocs locations: events(w, loc, ud) writes each one's
 * events, then defs(g, ud) the global definitions. Returns 0, or -1 (message on stderr). */
int otf2_trace_archive(const char *dir, const char *name, unsigned nlocs,
                       void (*events)(OTF2_EvtWriter *w, OTF2_LocationRef loc, void *ud),
                       void (*defs)(OTF2_GlobalDefWriter *g, void *ud), void *ud);

/* The calling-context test archives of tests/tools/otf2_ctx.c: DIR/NAME.otf2 of one kind, with
 * malformed context records when bad. Returns 0, or -1 (message on stderr). */
enum { OTF2_CTX_KIND_NONE, OTF2_CTX_KIND_REGIONS, OTF2_CTX_KIND_CALLING };
int otf2_ctx_write(const char *dir, const char *name, int kind, int bad);

#endif
