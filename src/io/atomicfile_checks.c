/* SPDX-License-Identifier: MIT */
/* Checks before an output is written: that there is room for it (iodfg_atomic_reserve) and
 * that it is not one of the inputs (iodfg_atomic_not_input). */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/statvfs.h>
#include <unistd.h>

#include "iodfg/atomicfile.h"
#include "iodfg/error.h"

/* errno of giving fd bytes of disk, or 0. Without fallocate (some network file systems) the
 * free space stands in: the quota then goes unchecked. */
static int take(int fd, uint64_t bytes)
{
    if (bytes == 0 || fallocate(fd, 0, 0, (off_t)bytes) == 0) {
        return 0;
    }
    int e = errno;
    if (e != EOPNOTSUPP && e != ENOSYS) {
        return e;
    }
    struct statvfs fs;
    if (fstatvfs(fd, &fs) != 0) {
        return 0; // nothing to go by: the write will tell
    }
    return (uint64_t)fs.f_bavail * fs.f_frsize < bytes ? ENOSPC : 0;
}

int iodfg_atomic_reserve(const char *final_path, uint64_t bytes, struct iodfg_error *err)
{
    char *tmp = NULL;
    int fd = iodfg_atomic_tmpfile(final_path, &tmp, err);
    if (fd < 0) {
        return -1;
    }
    int e = take(fd, bytes);
    close(fd);
    unlink(tmp);
    free(tmp);
    if (e == 0) {
        return 0;
    }
    iodfg_error_set(err, IODFG_E_IO,
                    "no room for the event log (up to %.1f MB while it is written): %s",
                    (double)bytes / 1e6, strerror(e));
    iodfg_error_at(err, final_path, 0, 0);
    return -1;
}

/* 1 when paths a and b both exist and name the same file. */
static int same_file(const char *a, const char *b)
{
    struct stat sa, sb;
    return stat(a, &sa) == 0 && stat(b, &sb) == 0 && sa.st_dev == sb.st_dev &&
           sa.st_ino == sb.st_ino;
}

int iodfg_atomic_not_input(const char *output, const char *in, struct iodfg_error *err)
{
    if (!same_file(output, in)) {
        return 0;
    }
    if (strcmp(output, in) == 0) {
        iodfg_error_set(err, IODFG_E_ARG,
                        "the output is also an input: not replaced (give -o "
                        "another file)");
    } else {
        iodfg_error_set(err, IODFG_E_ARG,
                        "the output is also the input %s: not replaced (give -o another file)", in);
    }
    iodfg_error_at(err, output, 0, 0);
    return -1;
}
