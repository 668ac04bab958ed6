/* SPDX-License-Identifier: MIT */
/* A generic undo/redo history of opaque snapshots (e.g. serialized rules + filters + groups). */
#ifndef IODFG_TUI_UNDO_H
#define IODFG_TUI_UNDO_H

#include <stddef.h>

struct tui_undo;

/* A history keeping at most cap (>= 1) states; the oldest are dropped first. NULL on OOM. */
struct tui_undo *tui_undo_new(size_t cap);
void tui_undo_free(struct tui_undo *u);

/* Record a new current state (the bytes are copied). It drops every redo state, and does
 * nothing when equal to the current state. Returns 0, or -1 when out of memory. */
int tui_undo_push(struct tui_undo *u, const void *data, size_t len);

/* Step back / forward and return that state (borrowed until the next push or free), with its
 * length in *len; NULL when there is nothing to undo / redo. */
const void *tui_undo_undo(struct tui_undo *u, size_t *len);
const void *tui_undo_redo(struct tui_undo *u, size_t *len);

/* The current state (NULL before the first push), and what undo / redo would do. */
const void *tui_undo_current(const struct tui_undo *u, size_t *len);
int tui_undo_can_undo(const struct tui_undo *u);
int tui_undo_can_redo(const struct tui_undo *u);
/* Number of states held (undo steps available = position of the current state). */
size_t tui_undo_count(const struct tui_undo *u);

/* Forget everything. */
void tui_undo_clear(struct tui_undo *u);

#endif
