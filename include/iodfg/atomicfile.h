/* SPDX-License-Identifier: MIT */
/* Atomic output files: write a temp file in the target's directory, fsync, then rename. */
#ifndef IODFG_ATOMICFILE_H
#define IODFG_ATOMICFILE_H

#include <stddef.h>
#include <stdint.h>

struct iodfg_error;

/* Write n bytes of data to path atomically: a reader sees either the old file (or none) or the
 * whole new one, never a part. Refuses an existing path unless force (IODFG_E_EXISTS); other
 * failures are IODFG_E_IO with the system's reason. No temp file is left behind on failure. */
int iodfg_atomic_write(const char *path, const void *data, size_t n, int force,
                       struct iodfg_error *err);

/* Create an empty temp file ".NAME.tmp-HOST.PID-XXXXXX" beside final_path (mode 0666 & ~umask)
 * and return its open descriptor; *tmp_path gets its name (malloc'd, the caller frees it).
 * HOST.PID names the creator, so that a later run can tell a file left by a killed process;
 * such files beside final_path are removed first (iodfg_atomic_clean_stale, silently).
 * -1 with err set on failure (nothing is left behind then). */
int iodfg_atomic_tmpfile(const char *final_path, char **tmp_path, struct iodfg_error *err);

/* Check that the file system beside final_path has room for bytes more (its free space, the
 * user's quota and file size limit): a temp file is given that many bytes (fallocate; where the
 * file system cannot, its free space is compared) and removed. For writers that cannot get
 * out of a failed write cleanly (parallel HDF5). 0, or -1 with err set, naming final_path. */
int iodfg_atomic_reserve(const char *final_path, uint64_t bytes, struct iodfg_error *err);

/* 0, or -1 with err set (naming output) when output exists and is the same file as the input in
 * (another spelling, a hard link, a symbolic link to it): a command with --force checks every
 * input with it before it writes. */
int iodfg_atomic_not_input(const char *output, const char *in, struct iodfg_error *err);

/* Make the finished temp file tmp_path appear as final_path: fsync it, move it into place
 * (replacing final_path only when force, otherwise IODFG_E_EXISTS if it exists, checked
 * atomically where the file system allows it) and fsync the directory. On failure tmp_path
 * is left in place for the caller to unlink. */
int iodfg_atomic_publish(const char *tmp_path, const char *final_path, int force,
                         struct iodfg_error *err);

/* "HOST.PID" of this process as temp names carry it (HOST: the short host name in letters,
 * digits and '-'). */
#define IODFG_ATOMIC_OWNER_MAX 64
void iodfg_atomic_owner(char *out, size_t size);

/* A temp file of an earlier run found beside an output. */
struct iodfg_stale_temp {
    const char *path; /* borrowed during the callback */
    unsigned long long bytes;
    long pid;    /* its creator, 0 when the name does not say (an older iodfg) */
    int removed; /* 1: its creator on this host is gone and it was removed */
};
typedef void (*iodfg_stale_fn)(void *ctx, const struct iodfg_stale_temp *t);

/* Look in final_path's directory for temp files ".*.tmp-..." of earlier runs: one made on this
 * host by a process that no longer exists is removed; one of a live process or another host is
 * left alone and not reported; one whose name does not say its creator is reported only. Each
 * file found is passed to fn. Returns the number removed, or -1 with err when the directory
 * cannot be read. */
int iodfg_atomic_clean_stale(const char *final_path, iodfg_stale_fn fn, void *ctx,
                             struct iodfg_error *err);

#endif
