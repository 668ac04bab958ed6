/* SPDX-License-Identifier: MIT */
/* A small program whose Score-P trace is kept as test data (tests/data/otf2/README): in DIR it
 * opens, dups, writes, fsyncs, reads and closes files through ISO C stdio and POSIX, with one
 * short read, one append, one asynchronous write and writes to stdout and stderr, then
 * deletes its files. Each step's sizes are fixed so that the tests can name them.
 * Not built by make: tests/data/otf2/README shows how it was built with Score-P.
 * Usage: iomix DIR */
#include <aio.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static char buf[8192];

static int die(const char *what)
{
    fprintf(stderr, "iomix: %s: %s\n", what, strerror(errno));
    exit(1);
}

/* ISO C: fopen "w", three fwrite of 1000 bytes, fflush, fsync of its descriptor, fclose. */
static void stdio_part(const char *path)
{
    FILE *f = fopen(path, "w");
    if (!f) {
        die(path);
    }
    for (int i = 0; i < 3; i++) {
        if (fwrite(buf, 1, 1000, f) != 1000) {
            die("fwrite");
        }
    }
    if (fflush(f) || fsync(fileno(f)) || fclose(f)) {
        die("fflush/fsync/fclose");
    }
}

/* POSIX: open, write 4096, dup, write 1000 through the copy, fsync, dup2 onto 10, fcntl
 * F_DUPFD, close all four, then an append of 10 bytes. The file then has 5106 bytes. */
static void posix_write_part(const char *path)
{
    int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0644);
    if (fd < 0 || write(fd, buf, 4096) != 4096) {
        die(path);
    }
    int copy = dup(fd);
    if (copy < 0 || write(copy, buf, 1000) != 1000 || fsync(copy)) {
        die("dup/write/fsync");
    }
    int ten = dup2(fd, 10), high = fcntl(fd, F_DUPFD, 20);
    if (ten != 10 || high < 20 || close(high) || close(ten) || close(copy) || close(fd)) {
        die("dup2/fcntl/close");
    }
    fd = open(path, O_WRONLY | O_APPEND);
    if (fd < 0 || write(fd, buf, 10) != 10 || close(fd)) {
        die("append");
    }
}

/* POSIX reads: read of 8192 that gets 5106, lseek to 0, pread of 100 at 4096, close; then
 * ISO C on a dup of a new descriptor: fdopen, fread of 6000 that gets 5106, fclose. */
static void posix_read_part(const char *path)
{
    int fd = open(path, O_RDONLY);
    if (fd < 0 || read(fd, buf, sizeof(buf)) != 5106) {
        die("short read");
    }
    if (lseek(fd, 0, SEEK_SET) != 0 || pread(fd, buf, 100, 4096) != 100) {
        die("lseek/pread");
    }
    FILE *f = fdopen(dup(fd), "r");
    if (!f || fread(buf, 1, 6000, f) != 5106 || fclose(f) || close(fd)) {
        die("fdopen/fread");
    }
}

/* POSIX asynchronous I/O: aio_write of 2048 bytes at 0, aio_suspend, aio_return, close. */
static void aio_part(const char *path)
{
    int fd = open(path, O_RDWR | O_CREAT | O_TRUNC, 0644);
    if (fd < 0) {
        die(path);
    }
    struct aiocb cb;
    memset(&cb, 0, sizeof(cb));
    cb.aio_fildes = fd;
    cb.aio_buf = buf;
    cb.aio_nbytes = 2048;
    cb.aio_offset = 0;
    const struct aiocb *list[1] = {&cb};
    if (aio_write(&cb) || aio_suspend(list, 1, NULL) || aio_return(&cb) != 2048 || close(fd)) {
        die("aio_write");
    }
}

int main(int argc, char **argv)
{
    if (argc != 2) {
        fprintf(stderr, "usage: iomix DIR\n");
        return 2;
    }
    memset(buf, 'x', sizeof(buf));
    char a[4096], b[4096], c[4096];
    snprintf(a, sizeof(a), "%s/stdio.txt", argv[1]);
    snprintf(b, sizeof(b), "%s/posix.bin", argv[1]);
    snprintf(c, sizeof(c), "%s/aio.bin", argv[1]);
    stdio_part(a);
    posix_write_part(b);
    posix_read_part(b);
    aio_part(c);
    printf("iomix done\n"); // stdout and stderr: handles that exist before the program
    fflush(stdout);
    if (write(2, "iomix: stderr\n", 14) != 14 || unlink(a) || unlink(b) || unlink(c)) {
        die("stderr/unlink");
    }
    return 0;
}
