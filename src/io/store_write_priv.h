/* SPDX-License-Identifier: MIT */
/* Internals of the HDF5 store's writer: the /events columns (store_write_events.c), used by
 * the case writer (store_write.c). Included only by those files, after <hdf5.h>. */
#ifndef IODFG_IO_STORE_WRITE_PRIV_H
#define IODFG_IO_STORE_WRITE_PRIV_H

#include <stdint.h>

#include "store_priv.h"

/* The /events columns being written: one chunk of rows buffered per column. */
struct store_events {
    hid_t group;
    hid_t d[STORE_C__N];
    void *buf[STORE_C__N]; // STORE_EVENT_CHUNK_ROWS values of the native type
    unsigned char *coded;  // one column's chunk, scale-offset coded
    uint32_t fill;         // rows in the buffers
    uint64_t chunks;       // chunks written
    uint64_t rows;         // rows appended
};

/* An empty state that store_events_free accepts. */
void store_events_init(struct store_events *ev);
/* Create /events and its empty columns (ev initialised). 0, or -1 (free ev anyway). */
int store_events_create(struct store_events *ev, hid_t file);
/* Close the datasets and free the buffers (safe on a failed create). */
void store_events_free(struct store_events *ev);
/* Rows that fit in the buffers before the next chunk is written (at least 1). */
uint32_t store_events_room(const struct store_events *ev);
/* Where the next row of column c goes (room rows may be written from there). */
void *store_events_slot(const struct store_events *ev, enum store_col c);
/* n rows (n <= room) were put in every column's slot: writes the chunk when it is full. 0 or -1. */
int store_events_advance(struct store_events *ev, uint32_t n);
/* Write the last partial chunk and set the columns' final length. 0 or -1. */
int store_events_finish(struct store_events *ev);
/* Give case group g a virtual view of rows [first, first + n) of every /events column, under
 * the column's name. 0 or -1. */
int store_events_views(hid_t g, uint64_t first, uint64_t n);

#endif
