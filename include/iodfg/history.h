/* SPDX-License-Identifier: MIT */
/* A generic undo/redo history of opaque snapshots (e.g. serialized rules + filters + groups). */
#ifndef IODFG_HISTORY_H
#define IODFG_HISTORY_H

#include <stddef.h>

struct iodfg_history;

/* A history keeping at most cap (>= 1) states; the oldest are dropped first. NULL on OOM. */
struct iodfg_history *iodfg_history_new(size_t cap);
void iodfg_history_free(struct iodfg_history *u);

/* Record a new current state (the bytes are copied). It drops every redo state, and does
 * nothing when equal to the current state. Returns 0, or -1 when out of memory. */
int iodfg_history_push(struct iodfg_history *u, const void *data, size_t len);

/* Step back / forward and return that state (borrowed until the next push or free), with its
 * length in *len; NULL when there is nothing to undo / redo. */
const void *iodfg_history_undo(struct iodfg_history *u, size_t *len);
const void *iodfg_history_redo(struct iodfg_history *u, size_t *len);

/* The current state (NULL before the first push), and what undo / redo would do. */
const void *iodfg_history_current(const struct iodfg_history *u, size_t *len);
int iodfg_history_can_undo(const struct iodfg_history *u);
int iodfg_history_can_redo(const struct iodfg_history *u);
/* Number of states held (undo steps available = position of the current state). */
size_t iodfg_history_count(const struct iodfg_history *u);

/* Forget everything. */
void iodfg_history_clear(struct iodfg_history *u);

#endif
