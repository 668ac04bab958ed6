/* SPDX-License-Identifier: MIT */
/* Whole-file input: mapped when possible, read into memory otherwise (pipes, /proc). */
#ifndef IODFG_IO_READFILE_H
#define IODFG_IO_READFILE_H

#include <stddef.h>

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

#endif
