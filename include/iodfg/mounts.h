/* SPDX-License-Identifier: MIT */
/* File scope (Tschüter et al. 2018 Fig. 3): which file system a path lives on, from a mount table
 * in /proc/self/mounts format or a built-in list of well-known prefixes, and whether that file
 * system is local to a node, global (shared over the network) or virtual (/proc, /sys, /dev). */
#ifndef IODFG_MOUNTS_H
#define IODFG_MOUNTS_H

#include <stddef.h>

#include "iodfg/eventlog.h"

struct iodfg_error;
struct iodfg_mounts;

/* One mount: strings owned by the table (escapes like \040 already decoded). */
struct iodfg_mount {
    const char *dir;    /* mount point, without a trailing slash (except "/") */
    const char *type;   /* file-system type ("ext4", "lustre", ...; "" when unknown) */
    const char *device; /* device or source ("" for built-in entries) */
    enum iodfg_scope scope;
};

/* Parse a table in /proc/self/mounts (fstab) format: "device dir type options [freq pass]" per
 * line; blank lines and lines starting with '#' are skipped. A line with fewer than three
 * fields, or a mount point that is not absolute, is an IODFG_E_PARSE error at its line. A
 * later entry for the same mount point hides an earlier one, as in the kernel. NULL with err
 * set on error. */
struct iodfg_mounts *iodfg_mounts_parse(const char *text, size_t len, struct iodfg_error *err);
/* Most bytes a mount table file may have. */
#define IODFG_MOUNTS_MAX ((size_t)16 << 20)
/* Read and parse a file (a regular file of at most IODFG_MOUNTS_MAX bytes); errors name it. */
struct iodfg_mounts *iodfg_mounts_load(const char *path, struct iodfg_error *err);
/* The built-in list used when no table was recorded: /proc (proc), /sys (sysfs), /dev
 * (devtmpfs) virtual; /dev/shm, /run (tmpfs), /tmp, /var/tmp, /usr, /etc, /bin, /sbin, /lib,
 * /lib32, /lib64, /boot, /var local. NULL with err set when out of memory. */
struct iodfg_mounts *iodfg_mounts_builtin(struct iodfg_error *err);
void iodfg_mounts_free(struct iodfg_mounts *m);

/* Distinct mount points of the table, sorted by mount point. */
size_t iodfg_mounts_count(const struct iodfg_mounts *m);
const struct iodfg_mount *iodfg_mounts_get(const struct iodfg_mounts *m, size_t i);
/* Nonzero for the built-in list. */
int iodfg_mounts_is_builtin(const struct iodfg_mounts *m);

/* The mount holding the absolute path[0..len): the longest mount point that is a prefix of it
 * on component boundaries (/p/scratch holds /p/scratch/a, not /p/scratchy). The path is
 * normalised lexically first ("//", "/./", "/../"). NULL for relative paths and paths no entry
 * holds. */
const struct iodfg_mount *iodfg_mounts_find(const struct iodfg_mounts *m, const char *path,
                                            size_t len);

/* Scope of a file-system type: global for network and parallel file systems (gpfs, lustre,
 * nfs, nfs4, beegfs, cephfs, cifs, ...), virtual for kernel file systems (proc, sysfs,
 * devtmpfs, cgroup2, ...), unknown for "", local for anything else. */
enum iodfg_scope iodfg_mounts_type_scope(const char *type);

/* Fill fs, fstype and scope of every key of log naming a file: the mount point and type of
 * the holding mount and its scope; IODFG_SCOPE_UNKNOWN with empty strings when no mount holds
 * the path (or it is relative). Keys of non-files keep IODFG_SCOPE_NONE. 0, or -1 with err set
 * (out of memory). */
int iodfg_mounts_classify(const struct iodfg_mounts *m, struct iodfg_eventlog *log,
                          struct iodfg_error *err);

/* Nonzero when some file key of log has a scope other than unknown (it was classified). */
int iodfg_mounts_log_classified(const struct iodfg_eventlog *log);

#endif
