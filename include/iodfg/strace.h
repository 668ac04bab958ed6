/* SPDX-License-Identifier: MIT */
/* strace output parser: turns the lines of one trace into events for a sink. */
#ifndef IODFG_STRACE_H
#define IODFG_STRACE_H

#include <stddef.h>
#include <stdint.h>

#include "iodfg/eventlog.h"
#include "iodfg/stacks.h"

struct iodfg_error;

/* The sink: called once per event (merged pairs once). Return 0 to go on, -1 to stop (the
 * parser then returns -1 and leaves err as the sink set it). */
typedef int (*iodfg_emit_fn)(void *ctx, const struct iodfg_raw_event *ev, struct iodfg_error *err);
/* The stack sink (strace -k): called once per frame line of the event emitted last, innermost
 * frame first, before the next event. Return 0 to go on, -1 to stop. */
typedef int (*iodfg_frame_fn)(void *ctx, const struct iodfg_raw_frame *fr, struct iodfg_error *err);

/* A diagnostic for a line the parser skipped or kept only in part. */
struct iodfg_strace_diag {
    uint64_t line; /* 1-based */
    unsigned long col;
    char msg[120]; /* what was expected */
};

#define IODFG_STRACE_MAX_DIAGS 8

struct iodfg_strace_result {
    enum iodfg_clock clock;
    uint64_t lines, bytes;
    uint64_t counts[IODFG_COUNT__N];
    uint64_t frames; /* stack frame lines (strace -k) of events and signals; a frame line after
                        neither is counted unparsable */
    unsigned ndiags; /* the first IODFG_STRACE_MAX_DIAGS problems */
    struct iodfg_strace_diag diags[IODFG_STRACE_MAX_DIAGS];
};

/* Parse a whole trace held in memory (buf need not be NUL-terminated; a last line without a
 * newline is parsed like the others). Fills *res. Returns 0, or -1 when the sink stopped or
 * memory ran out (err says which). Unparsable lines are counted, never fatal. */
int iodfg_strace_parse(const char *buf, size_t len, iodfg_emit_fn emit, void *ctx,
                       struct iodfg_strace_result *res, struct iodfg_error *err);

/* The same, calling tick(tick_ctx, bytes_parsed_since_last_tick) about every MiB. */
int iodfg_strace_parse_ticked(const char *buf, size_t len, iodfg_emit_fn emit, void *ctx,
                              void (*tick)(void *tick_ctx, uint64_t bytes), void *tick_ctx,
                              struct iodfg_strace_result *res, struct iodfg_error *err);

/* The same for a trace read from descriptor fd (a file, pipe or terminal) block by block:
 * memory stays at a block, the longest line and the text of calls still unfinished. tick is
 * called with the bytes of each block parsed (may be NULL). Returns 0, or -1 when the sink
 * stopped, memory ran out or a read failed (IODFG_E_IO "cannot read: ..."). */
int iodfg_strace_parse_fd(int fd, iodfg_emit_fn emit, void *ctx,
                          void (*tick)(void *tick_ctx, uint64_t bytes), void *tick_ctx,
                          struct iodfg_strace_result *res, struct iodfg_error *err);
/* The same with a stack sink for strace -k frame lines (frame may be NULL: then they are counted
 * and dropped, as by the functions above). */
int iodfg_strace_parse_frames(const char *buf, size_t len, iodfg_emit_fn emit, iodfg_frame_fn frame,
                              void *ctx, struct iodfg_strace_result *res, struct iodfg_error *err);
int iodfg_strace_parse_fd_frames(int fd, iodfg_emit_fn emit, iodfg_frame_fn frame, void *ctx,
                                 void (*tick)(void *tick_ctx, uint64_t bytes), void *tick_ctx,
                                 struct iodfg_strace_result *res, struct iodfg_error *err);
/* The longest line iodfg_strace_parse_fd reads (64 MiB; strace prints strings to -s bytes): a
 * longer one is counted as unparsable and skipped, so memory stays bounded on a file without
 * line breaks. Tests set less. */
extern size_t iodfg_strace_line_max;

/* A ready-made sink that pushes into the open case of an event log (ctx = the log). */
int iodfg_strace_sink_eventlog(void *ctx, const struct iodfg_raw_event *ev,
                               struct iodfg_error *err);
/* Its stack sink: the frame goes to the event pushed last (iodfg_eventlog_push_frame). */
int iodfg_strace_frame_eventlog(void *ctx, const struct iodfg_raw_frame *fr,
                                struct iodfg_error *err);

/* Call families the parser knows, exposed for tests and documentation. */
enum iodfg_call_flag {
    IODFG_CALL_SIZE = 1u << 0,  /* return value is bytes transferred (read/write family) */
    IODFG_CALL_OPEN = 1u << 1,  /* returns a descriptor for the file it names */
    IODFG_CALL_DIRFD = 1u << 2, /* first argument is a directory fd, second a path */
    IODFG_CALL_PATH0 = 1u << 3, /* first argument is a path string */
    IODFG_CALL_SEEK = 1u << 4,  /* return value is the new file offset */
};
/* Flags of a call name (0 for calls with no special meaning). */
unsigned iodfg_strace_call_flags(const char *name, size_t len);

#endif
