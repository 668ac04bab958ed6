/* SPDX-License-Identifier: MIT */
/* Engine-internal: the shape of an activity, the kind of I/O (read, write, seek, open) and the
 * place (the top two directories of its files) that all its keys share. Comparisons of two
 * groups pair calls and align findings by it (diff_story.c, insights_compare.c). */
#ifndef IODFG_ENGINE_DIFF_SHAPE_H
#define IODFG_ENGINE_DIFF_SHAPE_H

#include <stddef.h>
#include <stdint.h>

struct iodfg_eventlog;
struct iodfg_mapping;

/* A family or place its keys do not share, or none met. */
#define DIFF_SHAPE_MIXED UINT32_MAX
#define DIFF_SHAPE_UNSET (UINT32_MAX - 1)

struct diff_shape {
    uint32_t family; /* IODFG_IO_READ, _WRITE, _SEEK, _OPEN or 0 shared by its keys, else MIXED */
    uint32_t place;  /* a key whose place all its keys share, else MIXED (or UNSET: no key) */
};

/* The place of key k: its path cut to two levels; *len is 0 when the key names no file. */
const char *diff_key_place(const struct iodfg_eventlog *log, uint32_t k, size_t *len);
/* The shapes of map's activities (nactivities entries) over the keys with key_on set (NULL:
 * every key); kflags: iodfg_metrics_key_flags of the log. */
void diff_shapes(const struct iodfg_eventlog *log, const struct iodfg_mapping *map,
                 const uint8_t *kflags, const uint8_t *key_on, struct diff_shape *sh);
/* Whether two activities' shapes give one kind of I/O at one place. */
int diff_shape_same(const struct iodfg_eventlog *log, const struct diff_shape *a,
                    const struct diff_shape *b);

#endif
