/* SPDX-License-Identifier: MIT */
/* Whole-file input: mapped when possible, read into memory otherwise (/proc files). Every input
 * is opened the same way: without blocking (O_NONBLOCK), then checked with fstat, and refused
 * unless it is a regular file, before a byte is read. */
#ifndef IODFG_IO_READFILE_H
#define IODFG_IO_READFILE_H

#include <stddef.h>
#include <stdint.h>

struct iodfg_error;
struct stat;

struct readfile {
    const char *data;
    size_t len;
    int mapped; /* munmap on close */
    int owned;  /* free on close */
};

/* Open path for reading without blocking and check that it is a regular file (a symbolic link
 * to one is followed): its descriptor (blocking again) in *fd, its status in *st. 0, or -1
 * with IODFG_E_IO naming the file and the reason ("cannot open: ...", "cannot read: a FIFO
 * (named pipe), not a regular file", "cannot read: Is a directory"). */
int readfile_check(const char *path, int *fd, struct stat *st, struct iodfg_error *err);

/* "a FIFO (named pipe)", "a directory", ... for a st_mode. */
const char *readfile_kind(unsigned mode);

/* Open and map or read path, at most max bytes (SIZE_MAX: no limit). 0, or -1 with IODFG_E_IO
 * naming the file and the reason, or IODFG_E_LIMIT ("is N bytes, over the limit of 16 MiB")
 * when it is larger. */
int readfile_open_max(struct readfile *rf, const char *path, size_t max, struct iodfg_error *err);
/* Put the kind of file into an error of readfile_open_max ("cannot open the rules file: ...",
 * "the rules file is N bytes, over the limit of 16 MiB"); other errors stay as they are. */
void readfile_name_kind(struct iodfg_error *err, const char *path, const char *what);
/* The same without a limit (traces, event logs). */
int readfile_open(struct readfile *rf, const char *path, struct iodfg_error *err);
void readfile_close(struct readfile *rf);

/* Open path for reading block by block (the same checks and messages as readfile_open): the
 * descriptor in *fd, the size of the file in *size. 0 or -1. */
int readfile_open_fd(const char *path, int *fd, uint64_t *size, struct iodfg_error *err);

#endif
