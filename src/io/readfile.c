/* SPDX-License-Identifier: MIT */
/* Whole-file input: mapped when possible, read into memory otherwise. */
#include "config.h"

#include "readfile.h"

#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include "iodfg/error.h"

static int fail(struct iodfg_error *err, const char *path, const char *what, int e)
{
    iodfg_error_set(err, IODFG_E_IO, "cannot %s: %s", what, strerror(e));
    iodfg_error_at(err, path, 0, 0);
    return -1;
}

static int read_all(struct readfile *rf, int fd, const char *path, struct iodfg_error *err)
{
    size_t cap = 1 << 16, len = 0;
    char *buf = malloc(cap);
    if (!buf) {
        return iodfg_error_set(err, IODFG_E_NOMEM, NULL);
    }
    for (;;) {
        if (len == cap) {
            char *nb = cap < ((size_t)1 << 62) ? realloc(buf, cap * 2) : NULL;
            if (!nb) {
                free(buf);
                return iodfg_error_set(err, IODFG_E_NOMEM, "out of memory reading %s", path);
            }
            buf = nb;
            cap *= 2;
        }
        ssize_t n = read(fd, buf + len, cap - len);
        if (n < 0 && errno == EINTR) {
            continue;
        }
        if (n < 0) {
            int e = errno;
            free(buf);
            return fail(err, path, "read", e);
        }
        if (n == 0) {
            break;
        }
        len += (size_t)n;
    }
    rf->data = buf;
    rf->len = len;
    rf->owned = 1;
    return 0;
}

// Open path for reading (not a directory); its status in *st.
static int open_checked(const char *path, int *fdp, struct stat *st, struct iodfg_error *err)
{
    int fd = open(path, O_RDONLY | O_CLOEXEC);
    if (fd < 0) {
        return fail(err, path, "open", errno);
    }
    if (fstat(fd, st) != 0) {
        int e = errno;
        close(fd);
        return fail(err, path, "stat", e);
    }
    if (S_ISDIR(st->st_mode)) {
        close(fd);
        return fail(err, path, "read", EISDIR);
    }
    *fdp = fd;
    return 0;
}

int readfile_open_fd(const char *path, int *fd, uint64_t *size, struct iodfg_error *err)
{
    struct stat st;
    if (open_checked(path, fd, &st, err)) {
        return -1;
    }
    *size = S_ISREG(st.st_mode) && st.st_size > 0 ? (uint64_t)st.st_size : 0;
    posix_fadvise(*fd, 0, 0, POSIX_FADV_SEQUENTIAL);
    return 0;
}

int readfile_open(struct readfile *rf, const char *path, struct iodfg_error *err)
{
    memset(rf, 0, sizeof(*rf));
    int fd;
    struct stat st;
    if (open_checked(path, &fd, &st, err)) {
        return -1;
    }
    int rc = 0;
    if (S_ISREG(st.st_mode) && st.st_size > 0) {
        void *p = mmap(NULL, (size_t)st.st_size, PROT_READ, MAP_PRIVATE, fd, 0);
        if (p != MAP_FAILED) {
            madvise(p, (size_t)st.st_size, MADV_SEQUENTIAL);
            rf->data = p;
            rf->len = (size_t)st.st_size;
            rf->mapped = 1;
        } else {
            rc = read_all(rf, fd, path, err);
        }
    } else { // pipes, and /proc files whose size says 0 but which have text
        rc = read_all(rf, fd, path, err);
    }
    close(fd);
    return rc;
}

void readfile_close(struct readfile *rf)
{
    if (rf->mapped) {
        munmap((void *)(uintptr_t)rf->data, rf->len);
    } else if (rf->owned) {
        free((void *)(uintptr_t)rf->data);
    }
    memset(rf, 0, sizeof(*rf));
}
