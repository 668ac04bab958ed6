/* SPDX-License-Identifier: MIT */
/* Whole-file input: mapped when possible, read into memory otherwise (pipes, /proc). */
#ifndef IODFG_IO_READFILE_H
#define IODFG_IO_READFILE_H

#include <stddef.h>
#include <stdint.h>

struct iodfg_error;

struct readfile {
    const char *data;
    size_t len;
    int mapped; /* munmap on close */
    int owned;  /* free on close */
};

/* Open and map or read path. 0, or -1 with IODFG_E_IO naming the file and the reason. */
int readfile_open(struct readfile *rf, const char *path, struct iodfg_error *err);
void readfile_close(struct readfile *rf);

/* Open path for reading block by block (the same checks and messages as readfile_open): the
 * descriptor in *fd, the size of a regular file in *size (0 otherwise). 0 or -1. */
int readfile_open_fd(const char *path, int *fd, uint64_t *size, struct iodfg_error *err);

#endif
