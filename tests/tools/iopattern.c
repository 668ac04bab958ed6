/* SPDX-License-Identifier: MIT */
/* A small program with one I/O pattern per mode, recorded under strace by the insights tests
 * (tests/tools/record_insights.sh): each mode should raise one insight, "clean" none.
 *   iopattern MODE DIR [RANK]
 * Modes: clean small tty seek random reopen enoent shared reread lock imbalance. */
#define _GNU_SOURCE
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <time.h>
#include <unistd.h>

static char path_buf[4096];

static const char *path_in(const char *dir, const char *name)
{
    snprintf(path_buf, sizeof(path_buf), "%s/%s", dir, name);
    return path_buf;
}

static int open_or_die(const char *path, int flags)
{
    int fd = open(path, flags, 0644);
    if (fd < 0) {
        perror(path);
        exit(1);
    }
    return fd;
}

static void write_all(int fd, const char *buf, size_t n)
{
    if (write(fd, buf, n) != (ssize_t)n) {
        perror("write");
        exit(1);
    }
}

static void nap_us(long us)
{
    struct timespec ts = {us / 1000000, (us % 1000000) * 1000};
    nanosleep(&ts, NULL);
}

static char block[1 << 20];

// A sequential writer of large blocks: no insight should fire.
static void clean(const char *dir)
{
    int fd = open_or_die(path_in(dir, "clean.dat"), O_WRONLY | O_CREAT | O_TRUNC);
    for (int i = 0; i < 16; i++) {
        write_all(fd, block, sizeof(block));
    }
    close(fd);
}

static void small(const char *dir)
{
    int fd = open_or_die(path_in(dir, "small.dat"), O_WRONLY | O_CREAT | O_TRUNC);
    for (int i = 0; i < 200; i++) {
        write_all(fd, "x", 1);
    }
    close(fd);
}

static void tty(void)
{
    for (int i = 0; i < 150; i++) { // standard output is a pipe in the tests
        write_all(STDOUT_FILENO, ".", 1);
    }
}

static void seek(const char *dir)
{
    int fd = open_or_die(path_in(dir, "seek.dat"), O_WRONLY | O_CREAT | O_TRUNC);
    for (int i = 0; i < 40; i++) {
        lseek(fd, (off_t)i * 65536, SEEK_SET);
        write_all(fd, block, 65536);
    }
    close(fd);
}

static void random_reads(const char *dir)
{
    int fd = open_or_die(path_in(dir, "random.dat"), O_RDWR | O_CREAT | O_TRUNC);
    for (int i = 0; i < 8; i++) {
        write_all(fd, block, 65536);
    }
    unsigned x = 12345;
    for (int i = 0; i < 120; i++) { // pread at scattered 4 KiB blocks of the 512 KiB file
        x = x * 1103515245u + 12345u;
        if (pread(fd, block, 4096, (off_t)((x >> 8) % 128) * 4096) < 0) {
            perror("pread");
            exit(1);
        }
    }
    close(fd);
}

static void reopen(const char *dir)
{
    for (int i = 0; i < 20; i++) {
        int fd = open_or_die(path_in(dir, "config.txt"), O_RDWR | O_CREAT);
        write_all(fd, "k=v\n", 4);
        close(fd);
    }
}

// Look a library up along a search path of 25 directories that do not have it.
static void enoent(const char *dir)
{
    for (int i = 0; i < 25; i++) {
        char name[64];
        snprintf(name, sizeof(name), "lib%02d/libmissing.so", i);
        int fd = open(path_in(dir, name), O_RDONLY);
        if (fd >= 0) {
            close(fd);
        }
    }
}

// Rank r of 4 writes its 64 KiB blocks into the one shared file, interleaved in time.
static void shared(const char *dir, int rank)
{
    int fd = open_or_die(path_in(dir, "shared.dat"), O_WRONLY | O_CREAT);
    for (int i = 0; i < 20; i++) {
        if (pwrite(fd, block, 65536, ((off_t)i * 4 + rank) * 65536) != 65536) {
            perror("pwrite");
            exit(1);
        }
        nap_us(2000);
    }
    close(fd);
}

static void reread(const char *dir)
{
    int fd = open_or_die(path_in(dir, "input.dat"), O_RDWR | O_CREAT | O_TRUNC);
    write_all(fd, block, 65536);
    for (int pass = 0; pass < 4; pass++) {
        lseek(fd, 0, SEEK_SET);
        for (int i = 0; i < 4; i++) {
            if (read(fd, block, 16384) != 16384) {
                perror("read");
                exit(1);
            }
        }
    }
    close(fd);
}

static void lock_cycles(const char *dir)
{
    int fd = open_or_die(path_in(dir, "locked.dat"), O_WRONLY | O_CREAT | O_APPEND);
    for (int i = 0; i < 15; i++) {
        flock(fd, LOCK_EX);
        write_all(fd, block, 4096);
        flock(fd, LOCK_UN);
    }
    close(fd);
}

// Rank 3 of 4 writes twenty times as much as the others, each block synced.
static void imbalance(const char *dir, int rank)
{
    char name[64];
    snprintf(name, sizeof(name), "part.%d", rank);
    int fd = open_or_die(path_in(dir, name), O_WRONLY | O_CREAT | O_TRUNC);
    // 120 synced writes (about 70 ms here) keep the heavy rank well above twice the others'
    // I/O time even when a loaded machine stretches their system calls
    for (int i = 0; i < (rank == 3 ? 120 : 2); i++) {
        write_all(fd, block, sizeof(block));
        if (rank == 3) { // the heavy rank also waits for the disk; the others do not
            fsync(fd);
        }
    }
    close(fd);
}

int main(int argc, char **argv)
{
    if (argc < 3) {
        fprintf(stderr, "usage: iopattern MODE DIR [RANK]\n");
        return 2;
    }
    const char *mode = argv[1], *dir = argv[2];
    int rank = argc > 3 ? atoi(argv[3]) : 0;
    memset(block, 'b', sizeof(block));
    if (strcmp(mode, "clean") == 0) {
        clean(dir);
    } else if (strcmp(mode, "small") == 0) {
        small(dir);
    } else if (strcmp(mode, "tty") == 0) {
        tty();
    } else if (strcmp(mode, "seek") == 0) {
        seek(dir);
    } else if (strcmp(mode, "random") == 0) {
        random_reads(dir);
    } else if (strcmp(mode, "reopen") == 0) {
        reopen(dir);
    } else if (strcmp(mode, "enoent") == 0) {
        enoent(dir);
    } else if (strcmp(mode, "shared") == 0) {
        shared(dir, rank);
    } else if (strcmp(mode, "reread") == 0) {
        reread(dir);
    } else if (strcmp(mode, "lock") == 0) {
        lock_cycles(dir);
    } else if (strcmp(mode, "imbalance") == 0) {
        imbalance(dir, rank);
    } else {
        fprintf(stderr, "iopattern: unknown mode '%s'\n", mode);
        return 2;
    }
    return 0;
}
