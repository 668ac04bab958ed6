/* SPDX-License-Identifier: MIT */
/* Internals of the HDF5 store's writer: the /events columns (store_write_events.c), used by
 * the case writer (store_write.c), and what the parallel writer (store_par.c) shares with them.
 * Included only by those files, after <hdf5.h>. */
#ifndef IODFG_IO_STORE_WRITE_PRIV_H
#define IODFG_IO_STORE_WRITE_PRIV_H

#include <stdint.h>

#include "store_priv.h"

struct iodfg_case_info;
struct iodfg_columns;
struct iodfg_eventlog;
struct iodfg_handle;
struct iodfg_key;
struct iodfg_strpool;

/* ---- pieces of the file shared by the writer and the parallel writer (store_par.c) ---- */

/* Create path (truncating it) with the 1.8 object format, through fapl (-1: the default
 * driver; fapl's library bounds are set). A negative id on failure. */
hid_t store_file_create(const char *path, hid_t fapl);
/* Create /cases (links in creation order) and the property list of its case groups. The group,
 * or a negative id (*case_gcpl then closed or negative). */
hid_t store_cases_create(hid_t file, hid_t *case_gcpl);
/* The link name of case index under /cases into link[size]: its name when that can be a link
 * and no earlier case took it (taken: the names taken so far, the name added when this case
 * takes it; NULL: asks HDF5 whether the link exists), else "#index". 0, or -1 (memory). */
int store_case_link(const char *name, size_t len, hid_t cases, struct iodfg_strpool *taken,
                    uint32_t index, char *link, size_t size);
/* Case row r (string ids of sp) as the attributes of case group g, at position index. */
int store_case_attrs(hid_t g, const struct store_case_row *r, const struct iodfg_strpool *sp,
                     uint64_t index);
/* r from the case info ci, its strings through smap (NULL: ids as they are), its rows
 * [first, first + n). */
void store_case_row_fill(struct store_case_row *r, const struct iodfg_case_info *ci,
                         const uint32_t *smap, uint64_t first, uint64_t n);
/* /strings and /keys (string and key tables of tab). 0 or -1. */
int store_write_strings_keys(hid_t file, const struct iodfg_eventlog *tab);

/* A handle table growing in fixed blocks, so that no row is ever moved. */
struct store_handle_table {
    struct iodfg_handle **block;
    uint32_t nblocks, blocks_cap;
    uint32_t n; // rows
};
/* The next row (uninitialised; counted in t->n), NULL when out of memory or ids. */
struct iodfg_handle *store_handle_table_next(struct store_handle_table *t);
/* The rows as /handles of file. 0 or -1. */
int store_handle_table_write(hid_t file, const struct store_handle_table *t);
void store_handle_table_free(struct store_handle_table *t);
/* /case_table: n rows in case order. 0 or -1. */
int store_write_case_table(hid_t file, const struct store_case_row *rows, uint32_t n);
/* A scalar uint64 attribute name = v on loc. 0 or -1. */
int store_attr_u64(hid_t loc, const char *name, uint64_t v);
/* /event_checksums: n block sums in case order (4.1). 0 or -1. */
int store_write_block_sums(hid_t file, const struct store_block_sum *rows, uint64_t n);
/* The root attributes, the format's minor version minor. 0 or -1. */
int store_write_root(hid_t file, uint64_t ncases, uint64_t nevents, unsigned minor);

/* A source log's ids mapped to those of the file. */
struct store_wmaps {
    const struct iodfg_eventlog *src;
    const struct iodfg_strpool *sp;
    uint32_t *smap, *kmap; // source string id -> ours, source key id -> ours
    uint32_t nokey;        // our key for events of a log without a key column
    uint32_t hbase;        // our id of the source's handle 1, minus 1
};
/* The source array of a column that is written as it is, NULL when it must be computed. */
const void *store_plain_source(const struct iodfg_columns *src, enum store_col c);
/* Values [i, i + n) of computed column c of the source (ids mapped to ours through m and the
 * file's keys, defaults for columns the source lacks) into buf: one loop per column. */
void store_fill_column(const struct store_wmaps *m, const struct iodfg_key *keys, enum store_col c,
                       uint64_t i, uint64_t n, void *buf);
/* Dataset /events/<c> of rows values (extendible), chunked in STORE_EVENT_CHUNK_ROWS rows, with
 * the scale-offset filter (its fill value the column's "no value") and, with deflate, then
 * deflate. A negative id on failure. */
hid_t store_event_column_create(hid_t g, enum store_col c, uint64_t rows, int deflate);

/* The /events columns being written: one chunk of rows buffered per column. */
struct store_events {
    hid_t group;
    hid_t d[STORE_C__N];
    void *buf[STORE_C__N]; // STORE_EVENT_CHUNK_ROWS values of the native type
    unsigned char *coded;  // one column's chunk, scale-offset coded
    unsigned char *z;      // ... and deflated (the last chunk)
    size_t zcap;
    void *block;           // the memory of buf, coded and z, on huge pages
    uint32_t fill;         // rows in the buffers
    uint64_t chunks;       // chunks written
    uint64_t rows;         // rows appended
    int fd;                // the file's descriptor (the default driver), else -1
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
/* With the buffers empty: one whole chunk of rows, column c's at from[c] (NULL: put in its slot
 * already), coded from where they lie instead of copied first. 0 or -1. */
int store_events_put_chunk(struct store_events *ev, const void *const *from);
/* The most bytes a whole chunk of any column takes coded. */
size_t store_events_code_bound(void);
/* A whole chunk of column c (STORE_EVENT_CHUNK_ROWS values of its native type at rows) coded as
 * the writer codes it into out (store_events_code_bound() bytes); its length. */
size_t store_events_code(enum store_col c, const void *rows, void *out);
/* With the buffers empty: one whole chunk coded elsewhere (store_events_code), column c's
 * bytes[c] bytes at coded[c]. 0 or -1. */
int store_events_put_coded(struct store_events *ev, const void *const *coded,
                           const uint64_t *bytes);
/* Write the last partial chunk and set the columns' final length. 0 or -1. */
int store_events_finish(struct store_events *ev);
/* Give case group g a virtual view of rows [first, first + n) of every /events column, under
 * the column's name. 0 or -1. */
int store_events_views(hid_t g, uint64_t first, uint64_t n);

#endif
