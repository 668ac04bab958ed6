/* SPDX-License-Identifier: MIT */
/* Call stacks (strace -k): a deduplicated table of frames and of stacks made of them. */
#ifndef IODFG_STACKS_H
#define IODFG_STACKS_H

#include <stddef.h>
#include <stdint.h>

struct iodfg_error;
struct iodfg_eventlog;
struct iodfg_stacks;

/* Frame flags. */
#define IODFG_FRAME_NO_SYMBOL 1u /* "obj() [0xADDR]": strace knew no function */
#define IODFG_FRAME_ERROR                                                                          \
    2u /* strace's unwinder reported a problem: the message is the                                 \
          function, the object is "" */

/* The frame comes from a trace's calling context (OTF2, Score-P), not from strace -k: address
 * is the source line (0 unknown) and object the source file, or "score-p:PARADIGM" when the
 * archive names none (doc/format.md, "Stacks"). */
#define IODFG_FRAME_SOURCE 4u

/* One frame: object and function are string ids of the owning log's pool. */
struct iodfg_frame {
    uint32_t object, function;
    uint32_t flags;   /* IODFG_FRAME_* */
    uint64_t offset;  /* from the function's start ("func+0x40"), 0 without a symbol */
    uint64_t address; /* "[0x11c9]": the address strace printed (the object's offset) */
};

/* One frame as the parser sees it: strings are views into its buffers. */
struct iodfg_raw_frame {
    const char *object, *function;
    size_t object_len, function_len;
    uint32_t flags;
    uint64_t offset, address;
    uint64_t seq; /* the event's seq (iodfg_raw_event): usually the event pushed last */
};

/* An empty table. NULL when out of memory. */
struct iodfg_stacks *iodfg_stacks_new(void);
void iodfg_stacks_free(struct iodfg_stacks *st);

/* The id (from 1) of frame fr, added when new. 0, or -1 when out of memory or ids. */
int iodfg_stacks_frame(struct iodfg_stacks *st, const struct iodfg_frame *fr, uint32_t *id);
/* The id (from 1; 0 means "no stack") of the stack of n >= 1 frame ids, innermost first,
 * added when new. 0, or -1 when out of memory or ids. */
int iodfg_stacks_intern(struct iodfg_stacks *st, const uint32_t *frames, uint32_t n, uint32_t *id);

/* Add src's frames and stacks to dst, their strings mapped through smap (src pool id -> dst
 * pool id). Returns the map of src stack ids to dst's (count + 1 entries, [0] = 0; malloc'd), or
 * NULL when out of memory. */
uint32_t *iodfg_stacks_merge(struct iodfg_stacks *dst, const struct iodfg_stacks *src,
                             const uint32_t *smap);

/* Frames: count, and frame id f is frames[f - 1]; borrowed until the table changes. */
uint32_t iodfg_stacks_frame_count(const struct iodfg_stacks *st);
const struct iodfg_frame *iodfg_stacks_frames(const struct iodfg_stacks *st);
/* Stacks: count; stack id s has frame ids ids[off[s - 1] .. off[s]) (off has count+1 entries). */
uint32_t iodfg_stacks_count(const struct iodfg_stacks *st);
const uint64_t *iodfg_stacks_offsets(const struct iodfg_stacks *st);
const uint32_t *iodfg_stacks_ids(const struct iodfg_stacks *st);
/* The frame ids of stack s (innermost first) and their number in *n; NULL (n = 0) when s is 0 or
 * out of range. */
const uint32_t *iodfg_stacks_get(const struct iodfg_stacks *st, uint32_t s, uint32_t *n);
/* Bytes of memory held. */
size_t iodfg_stacks_memory(const struct iodfg_stacks *st);

/* A table from stored arrays (a loader's): nframes frames, nstacks stacks of ids[off[i] ..
 * off[i+1]). Checks that offsets increase, that every id names a frame and every stack has a
 * frame; IODFG_E_FORMAT in err otherwise. Copies everything. NULL with err. */
struct iodfg_stacks *iodfg_stacks_from_raw(const struct iodfg_frame *frames, uint32_t nframes,
                                           const uint64_t *off, const uint32_t *ids,
                                           uint32_t nstacks, struct iodfg_error *err);

/* ---- an event log's stacks (src/model/eventlog_stacks.c) ---- */

/* Add frame fr (strace -k, innermost first) to the stack of the open case's event whose seq is
 * fr->seq (the one pushed last, or searched for backwards); the stack is interned when the next
 * event is pushed, a frame of another event comes or the case ends. 0, or -1 with err (out of
 * memory, no such event in the open case). */
int iodfg_eventlog_push_frame(struct iodfg_eventlog *log, const struct iodfg_raw_frame *fr,
                              struct iodfg_error *err);
/* The log's stack table and its stack id per event (0 = none): NULL when no event has a stack
 * (a log from a trace without -k). Borrowed until the log changes. */
const struct iodfg_stacks *iodfg_eventlog_stacks(const struct iodfg_eventlog *log);
const uint32_t *iodfg_eventlog_stack_ids(const struct iodfg_eventlog *log);
/* Split keys by call site: every event whose stack s has site[s] != IODFG_STR_EMPTY (a string id
 * of the log's pool, per stack id; site has stacks + 1 entries) moves to the key of the same
 * call, path and layer with that site (file-system attributes copied). Rules and filters then
 * see the `site` field, and nothing else changes (the default mapping ignores the site). 0, or
 * -1 with err (out of memory: keys may be split in part, each event's key is still valid). */
int iodfg_eventlog_split_keys(struct iodfg_eventlog *log, const uint32_t *site,
                              struct iodfg_error *err);
/* Give a loaded log (no case open, no stacks yet) its table and per-event ids (one per event;
 * malloc'd; ownership taken even on failure). Every id must name a stack of the table and every
 * frame's strings the log's pool: IODFG_E_FORMAT otherwise. */
int iodfg_eventlog_adopt_stacks(struct iodfg_eventlog *log, struct iodfg_stacks *stacks_take,
                                uint32_t *ids_take, struct iodfg_error *err);

#endif
