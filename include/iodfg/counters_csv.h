/* SPDX-License-Identifier: MIT */
/* Reading per-server I/O counter samples (counters.h) from CSV. */
#ifndef IODFG_COUNTERS_CSV_H
#define IODFG_COUNTERS_CSV_H

#include <stddef.h>

struct iodfg_counters;
struct iodfg_error;

/* Parse CSV text: lines "server,time,bytes_read,bytes_written,read_ops,write_ops,opens,closes"
 * (time in seconds, values non-negative numbers); an optional header line naming these
 * columns (in any order), '#' comments and blank lines. Replaces c's contents. -1 with err
 * (where = `where`, line and column) on a malformed line, a repeated time of one server, or
 * out of memory. */
int iodfg_counters_parse(struct iodfg_counters *c, const char *text, size_t len, const char *where,
                         struct iodfg_error *err);
/* Most bytes a counters file may have (a day of 10-second samples of 1000 servers fits). */
#define IODFG_COUNTERS_MAX ((size_t)256 << 20)

/* Read and parse a file (a regular file of at most IODFG_COUNTERS_MAX bytes, else IODFG_E_IO or
 * IODFG_E_LIMIT naming it); a file without samples is IODFG_E_EMPTY. */
int iodfg_counters_read(struct iodfg_counters *c, const char *path, struct iodfg_error *err);

#endif
