/* SPDX-License-Identifier: MIT */
/* Atomic output files: temp file beside the target, fsync, then rename or link into place. */
#include "config.h"

#include "iodfg/atomicfile.h"

#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "iodfg/error.h"
#include "iodfg/forkjoin.h"

#include "readfile.h"

static int io_fail(struct iodfg_error *err, const char *path, const char *what, int e)
{
    iodfg_error_set(err, IODFG_E_IO, "%s: %s", what, strerror(e));
    iodfg_error_at(err, path, 0, 0);
    return -1;
}

/* The directory part of path ("." when it has none), malloc'd. */
static char *dir_of(const char *path)
{
    const char *slash = strrchr(path, '/');
    if (!slash) {
        return strdup(".");
    }
    size_t n = slash == path ? 1 : (size_t)(slash - path);
    char *d = malloc(n + 1);
    if (d) {
        memcpy(d, path, n);
        d[n] = '\0';
    }
    return d;
}

static uint64_t mix(uint64_t x)
{
    x ^= x >> 33;
    x *= 0xff51afd7ed558ccdull;
    x ^= x >> 33;
    x *= 0xc4ceb9fe1a85ec53ull;
    return x ^ (x >> 33);
}

void iodfg_atomic_owner(char *out, size_t size)
{
    char host[64] = "";
    if (gethostname(host, sizeof(host) - 1) != 0) {
        host[0] = '\0';
    }
    host[sizeof(host) - 1] = '\0';
    // the host name as a file-name word: letters, digits and '-' only, at most 32 of them
    size_t n = 0;
    for (const char *h = host; *h && n < 32; h++) {
        unsigned char c = (unsigned char)*h;
        if ((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
            c == '-') {
            host[n++] = (char)c;
        } else if (c == '.') {
            break; // the short name
        }
    }
    host[n] = '\0';
    snprintf(out, size, "%s.%ld", n ? host : "host", (long)getpid());
}

int iodfg_atomic_tmpfile(const char *final_path, char **tmp_path, struct iodfg_error *err)
{
    static const char digits[] = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789";
    const char *slash = strrchr(final_path, '/');
    const char *base = slash ? slash + 1 : final_path;
    size_t dlen = (size_t)(base - final_path), blen = strlen(base);
    if (blen == 0) {
        return iodfg_error_set(err, IODFG_E_ARG, "output path %s names a directory", final_path);
    }
    // Temp files a killed run of ours left here go first (every writer calls this, so any
    // command that writes in a directory tidies it; convert also says what it removed).
    iodfg_atomic_clean_stale(final_path, NULL, NULL, NULL);
    char owner[IODFG_ATOMIC_OWNER_MAX];
    iodfg_atomic_owner(owner, sizeof(owner));
    size_t cap = dlen + blen + strlen(owner) + 24;
    char *tmp = malloc(cap);
    if (!tmp) {
        return iodfg_error_set(err, IODFG_E_NOMEM, NULL);
    }
    // mkstemp would create the file with mode 0600; O_EXCL with 0666 lets the umask decide.
    struct timespec ts;
    clock_gettime(CLOCK_REALTIME, &ts);
    uint64_t seed = mix((uint64_t)ts.tv_nsec ^ ((uint64_t)ts.tv_sec << 30) ^
                        ((uint64_t)getpid() << 12) ^ (uint64_t)(uintptr_t)tmp);
    for (int attempt = 0; attempt < 1000; attempt++) {
        uint64_t r = mix(seed + (uint64_t)attempt * 0x9E3779B97F4A7C15ull);
        char suffix[7];
        for (int i = 0; i < 6; i++) {
            suffix[i] = digits[r % (sizeof(digits) - 1)];
            r /= sizeof(digits) - 1;
        }
        suffix[6] = '\0';
        snprintf(tmp, cap, "%.*s.%s.tmp-%s-%s", (int)dlen, final_path, base, owner, suffix);
        int fd = open(tmp, O_RDWR | O_CREAT | O_EXCL | O_CLOEXEC, 0666);
        if (fd >= 0) {
            *tmp_path = tmp;
            return fd;
        }
        if (errno != EEXIST) {
            int e = errno;
            io_fail(err, tmp, "cannot create temporary file", e);
            free(tmp);
            return -1;
        }
    }
    iodfg_error_set(err, IODFG_E_IO, "cannot find a free temporary file name");
    iodfg_error_at(err, final_path, 0, 0);
    free(tmp);
    return -1;
}

static int fsync_path(const char *path, int dir, struct iodfg_error *err)
{
    int fd = open(path, O_RDONLY | O_CLOEXEC | (dir ? O_DIRECTORY : 0));
    if (fd < 0) {
        return io_fail(err, path, dir ? "cannot open directory" : "cannot reopen file", errno);
    }
    // Some file systems cannot sync directories (EINVAL); that is not a failure of ours.
    if (fsync(fd) != 0 && !(dir && (errno == EINVAL || errno == ENOTSUP))) {
        int e = errno;
        close(fd);
        return io_fail(err, path, "fsync failed", e);
    }
    close(fd);
    return 0;
}

/* Move tmp onto final without replacing an existing file: link() fails atomically with
 * EEXIST; file systems without hard links fall back to check-then-rename. */
static int move_noreplace(const char *tmp, const char *final, struct iodfg_error *err)
{
    if (link(tmp, final) == 0) {
        unlink(tmp);
        return 0;
    }
    int e = errno;
    if (e == EEXIST) {
        iodfg_error_set(err, IODFG_E_EXISTS, "file exists (use --force to overwrite)");
        iodfg_error_at(err, final, 0, 0);
        return -1;
    }
    if (e != EPERM && e != ENOTSUP && e != EOPNOTSUPP && e != EXDEV && e != EMLINK && e != ENOSYS) {
        return io_fail(err, final, "cannot move the output into place", e);
    }
    struct stat st;
    if (lstat(final, &st) == 0) {
        iodfg_error_set(err, IODFG_E_EXISTS, "file exists (use --force to overwrite)");
        iodfg_error_at(err, final, 0, 0);
        return -1;
    }
    if (rename(tmp, final) != 0) {
        return io_fail(err, final, "cannot move the output into place", errno);
    }
    return 0;
}

/* Files from this size on have their cached pages dropped before they are replaced. */
#define DROP_MIN_BYTES ((off_t)1 << 20)

/* Drop the cached pages of the regular file at arg, which a forced publish is about to
 * replace: on a second thread beside the fsync, where the rename would free them itself on the
 * caller's (20-40 ms for a 50 MB log). Only the cache: the file is untouched. */
struct replaced {
    const char *path;
};

static void *drop_replaced(void *arg)
{
    const char *path = ((const struct replaced *)arg)->path;
    struct stat st, fst;
    if (lstat(path, &st) != 0 || !S_ISREG(st.st_mode) || st.st_size < DROP_MIN_BYTES) {
        return NULL;
    }
    int fd = open(path, O_RDONLY | O_CLOEXEC | O_NOFOLLOW | O_NONBLOCK | O_NOCTTY);
    if (fd < 0) {
        return NULL;
    }
    if (fstat(fd, &fst) == 0 && S_ISREG(fst.st_mode)) {
        (void)posix_fadvise(fd, 0, 0, POSIX_FADV_DONTNEED); // advice: nothing to undo
    }
    close(fd);
    return NULL;
}

int iodfg_atomic_publish(const char *tmp_path, const char *final_path, int force,
                         struct iodfg_error *err)
{
    struct iodfg_fork drop;
    struct replaced old = {final_path};
    struct stat big;
    int large = force && lstat(final_path, &big) == 0 && S_ISREG(big.st_mode) &&
                big.st_size >= DROP_MIN_BYTES;
    iodfg_fork_start(&drop, large, IODFG_FORK_HELP, drop_replaced, &old);
    int synced = fsync_path(tmp_path, 0, err);
    iodfg_fork_join(&drop);
    if (synced) {
        return -1;
    }
    if (force) {
        // a regular file (or a link, which rename replaces) only: as root, rename would put a
        // file where /dev/null or a FIFO was
        struct stat st;
        if (lstat(final_path, &st) == 0 && !S_ISREG(st.st_mode) && !S_ISLNK(st.st_mode) &&
            !S_ISDIR(st.st_mode)) {
            iodfg_error_set(err, IODFG_E_IO, "cannot replace %s, not a regular file",
                            readfile_kind(st.st_mode));
            iodfg_error_at(err, final_path, 0, 0);
            return -1;
        }
        if (rename(tmp_path, final_path) != 0) {
            return io_fail(err, final_path, "cannot move the output into place", errno);
        }
    } else if (move_noreplace(tmp_path, final_path, err)) {
        return -1;
    }
    // Make the rename durable too. The file is in place already, so this is best effort: a
    // failure here would leave the caller nothing to undo.
    char *dir = dir_of(final_path);
    if (dir) {
        fsync_path(dir, 1, NULL);
        free(dir);
    }
    return 0;
}

static int write_all(int fd, const void *data, size_t n)
{
    const char *p = data;
    while (n > 0) {
        ssize_t w = write(fd, p, n);
        if (w < 0) {
            if (errno == EINTR) {
                continue;
            }
            return -1;
        }
        p += w;
        n -= (size_t)w;
    }
    return 0;
}

int iodfg_atomic_write(const char *path, const void *data, size_t n, int force,
                       struct iodfg_error *err)
{
    struct stat st;
    if (!force && lstat(path, &st) == 0) {
        iodfg_error_set(err, IODFG_E_EXISTS, "file exists (use --force to overwrite)");
        iodfg_error_at(err, path, 0, 0);
        return -1;
    }
    char *tmp = NULL;
    int fd = iodfg_atomic_tmpfile(path, &tmp, err);
    if (fd < 0) {
        return -1;
    }
    if (write_all(fd, data, n) != 0) {
        io_fail(err, path, "write failed", errno);
        close(fd);
        goto fail;
    }
    if (close(fd) != 0) {
        io_fail(err, path, "write failed", errno);
        goto fail;
    }
    if (iodfg_atomic_publish(tmp, path, force, err)) {
        goto fail;
    }
    free(tmp);
    return 0;
fail:
    unlink(tmp);
    free(tmp);
    return -1;
}
