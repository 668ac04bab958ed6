/* SPDX-License-Identifier: MIT */
/* Case attributes (cid, host, rid) from trace file names, by a pattern of named groups. */
#ifndef IODFG_CASENAME_H
#define IODFG_CASENAME_H

#include <stddef.h>

struct iodfg_error;
struct iodfg_casename;

/* The paper's convention: a_host1_9042.st -> cid a, host host1, rid 9042. */
#define IODFG_CASENAME_DEFAULT "^(?<cid>.+)_(?<host>[^_]+)_(?<rid>[^_]+)\\.st$"

/* Compile a name pattern: a PCRE2 regex with named groups cid, host, rid (any may be absent),
 * or a template such as "stio.{rid}.{host}.{cid}.st" where {x} stands for a group. NULL means
 * the default. Errors name the column of the pattern. */
struct iodfg_casename *iodfg_casename_new(const char *pattern, struct iodfg_error *err);
void iodfg_casename_free(struct iodfg_casename *cn);

/* Does the file's base name match? Fills cid/host/rid (each NUL-terminated, size bytes) and
 * name (base name without a trailing ".st"). Returns 1 when the pattern matched, 0 when the
 * attributes come from the file name alone (cid = name, host = rid = ""). Thread-safe. */
int iodfg_casename_apply(const struct iodfg_casename *cn, const char *path, char *name,
                         char *cid, char *host, char *rid, size_t size);

#endif
