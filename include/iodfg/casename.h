/* SPDX-License-Identifier: MIT */
/* Case attributes (cid, host, rid) from trace file names, by a pattern of named groups. */
#ifndef IODFG_CASENAME_H
#define IODFG_CASENAME_H

#include <stddef.h>

struct iodfg_error;
struct iodfg_casename;

/* The paper's convention: a_host1_9042.st -> cid a, host host1, rid 9042. */
#define IODFG_CASENAME_DEFAULT "^(?<cid>.+)_(?<host>[^_]+)_(?<rid>[^_]+)\\.st$"

/* Compile a name pattern: a PCRE2 regex with named groups cid, host and rid, or a template such
 * as "stio.{rid}.{host}.{cid}.st" where {x} stands for one path component. cid is required,
 * each field appears at most once, and no other field exists. A pattern with a '/' matches
 * the file's path below the argument it was found in ("{cid}/stio.{rid}.{host}.st": cid is
 * the directory); one without matches the base name. NULL means the default. Errors name
 * the column of the pattern. */
struct iodfg_casename *iodfg_casename_new(const char *pattern, struct iodfg_error *err);
void iodfg_casename_free(struct iodfg_casename *cn);

/* Does the file match? rel is its path below the argument it was found in (a file given as an
 * argument: its base name). Fills cid/host/rid (each NUL-terminated, size bytes; "" when the
 * pattern did not match or lacks the field). Returns 1 when the pattern matched, else 0 (the
 * match limits bound its work). Thread-safe. */
int iodfg_casename_apply(const struct iodfg_casename *cn, const char *rel, char *cid, char *host,
                         char *rid, size_t size);

#endif
