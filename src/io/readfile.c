/* SPDX-License-Identifier: MIT */
/* Whole-file input: mapped when possible, read into memory otherwise; every input is opened
 * without blocking and refused unless it is a regular file. */
#include "config.h"

#include "readfile.h"

#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
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

const char *readfile_kind(unsigned mode)
{
    return S_ISDIR(mode)    ? "a directory"
           : S_ISFIFO(mode) ? "a FIFO (named pipe)"
           : S_ISCHR(mode)  ? "a character device"
           : S_ISBLK(mode)  ? "a block device"
           : S_ISSOCK(mode) ? "a socket"
           : S_ISREG(mode)  ? "a regular file"
                            : "not a regular file";
}

// "16 MiB" for a limit of 16 << 20 bytes, else "N bytes"
static void limit_words(char *out, size_t size, size_t max)
{
    if (max >= (1u << 20) && max % (1u << 20) == 0) {
        snprintf(out, size, "%zu MiB", max >> 20);
    } else if (max >= 1024 && max % 1024 == 0) {
        snprintf(out, size, "%zu KiB", max >> 10);
    } else {
        snprintf(out, size, "%zu bytes", max);
    }
}

static int too_big(struct iodfg_error *err, const char *path, uint64_t size, size_t max)
{
    char lim[32];
    limit_words(lim, sizeof(lim), max);
    if (size) {
        iodfg_error_set(err, IODFG_E_LIMIT, "is %llu bytes, over the limit of %s",
                        (unsigned long long)size, lim);
    } else {
        iodfg_error_set(err, IODFG_E_LIMIT, "holds more than the limit of %s", lim);
    }
    iodfg_error_at(err, path, 0, 0);
    return -1;
}

// A regular file whose size says 0 (/proc files): read up to max bytes.
static int read_all(struct readfile *rf, int fd, const char *path, size_t max,
                    struct iodfg_error *err)
{
    size_t cap = 1 << 16, len = 0;
    char *buf = malloc(cap);
    if (!buf) {
        return iodfg_error_set(err, IODFG_E_NOMEM, NULL);
    }
    for (;;) {
        if (len > max) {
            free(buf);
            return too_big(err, path, 0, max);
        }
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

int readfile_check(const char *path, int *fdp, struct stat *st, struct iodfg_error *err)
{
    // O_NONBLOCK: opening a FIFO without a writer (or some devices) would wait forever
    int fd = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK | O_NOCTTY);
    if (fd < 0) {
        return fail(err, path, "open", errno);
    }
    if (fstat(fd, st) != 0) {
        int e = errno;
        close(fd);
        return fail(err, path, "stat", e);
    }
    if (!S_ISREG(st->st_mode)) {
        close(fd);
        if (S_ISDIR(st->st_mode)) {
            iodfg_error_set(err, IODFG_E_IO, "cannot read: %s", strerror(EISDIR));
        } else {
            iodfg_error_set(err, IODFG_E_IO, "cannot read: %s, not a regular file",
                            readfile_kind(st->st_mode));
        }
        iodfg_error_at(err, path, 0, 0);
        return -1;
    }
    int fl = fcntl(fd, F_GETFL);
    if (fl >= 0) {
        fcntl(fd, F_SETFL, fl & ~O_NONBLOCK);
    }
    *fdp = fd;
    return 0;
}

int readfile_open_fd(const char *path, int *fd, uint64_t *size, struct iodfg_error *err)
{
    struct stat st;
    if (readfile_check(path, fd, &st, err)) {
        return -1;
    }
    *size = st.st_size > 0 ? (uint64_t)st.st_size : 0;
    posix_fadvise(*fd, 0, 0, POSIX_FADV_SEQUENTIAL);
    return 0;
}

int readfile_open_max(struct readfile *rf, const char *path, size_t max, struct iodfg_error *err)
{
    memset(rf, 0, sizeof(*rf));
    int fd;
    struct stat st;
    if (readfile_check(path, &fd, &st, err)) {
        return -1;
    }
    int rc = 0;
    if ((uint64_t)st.st_size > max) {
        rc = too_big(err, path, (uint64_t)st.st_size, max);
    } else if (st.st_size > 0) {
        void *p = mmap(NULL, (size_t)st.st_size, PROT_READ, MAP_PRIVATE, fd, 0);
        if (p != MAP_FAILED) {
            madvise(p, (size_t)st.st_size, MADV_SEQUENTIAL);
            rf->data = p;
            rf->len = (size_t)st.st_size;
            rf->mapped = 1;
        } else {
            rc = read_all(rf, fd, path, max, err);
        }
    } else { // /proc files, whose size says 0 but which have text
        rc = read_all(rf, fd, path, max, err);
    }
    close(fd);
    return rc;
}

int readfile_open(struct readfile *rf, const char *path, struct iodfg_error *err)
{
    return readfile_open_max(rf, path, SIZE_MAX, err);
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

/* readfile says "cannot open: reason" or "is N bytes, over the limit of M": name the kind of
 * file ("cannot open the rules file: reason", "the rules file is N bytes, ..."). */
void readfile_name_kind(struct iodfg_error *err, const char *path, const char *what)
{
    if (!err || (err->code != IODFG_E_IO && err->code != IODFG_E_LIMIT)) {
        return;
    }
    char said[sizeof(err->msg)];
    snprintf(said, sizeof(said), "%s", err->msg);
    enum iodfg_status code = err->code;
    char *colon = strstr(said, ": ");
    iodfg_error_clear(err);
    if (code == IODFG_E_LIMIT) {
        iodfg_error_set(err, code, "the %s %s", what, said);
    } else if (colon) {
        *colon = '\0';
        iodfg_error_set(err, code, "%s the %s: %s", said, what, colon + 2);
    } else {
        iodfg_error_set(err, code, "%s", said);
    }
    iodfg_error_at(err, path, 0, 0);
}
