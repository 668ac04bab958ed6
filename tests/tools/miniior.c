/* SPDX-License-Identifier: MIT */
/* A tiny IOR-like workload for recording test traces: one rank writes, then reads, blocks of a
 * shared file (ssf, at rank-strided offsets with pwrite/pread or lseek+write/read) or of its
 * own file (fpp). Usage: miniior DIR ssf|fpp RANK NRANKS [BLOCKS] [BLOCKSIZE] [lseek|pio] */
#include "config.h"

#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

int main(int argc, char **argv)
{
    if (argc < 5) {
        fprintf(stderr, "usage: miniior DIR ssf|fpp RANK NRANKS [BLOCKS] [BLOCKSIZE] [lseek|pio]\n");
        return 2;
    }
    const char *dir = argv[1];
    int ssf = strcmp(argv[2], "ssf") == 0;
    long rank = atol(argv[3]), nranks = atol(argv[4]);
    long blocks = argc > 5 ? atol(argv[5]) : 4;
    long bs = argc > 6 ? atol(argv[6]) : 65536;
    int pio = argc > 7 ? strcmp(argv[7], "pio") == 0 : 0;
    char path[4096];
    if (ssf) {
        snprintf(path, sizeof(path), "%s/ssf/test", dir);
    } else {
        snprintf(path, sizeof(path), "%s/fpp/test.%08ld", dir, rank);
    }
    char *buf = malloc((size_t)bs);
    if (!buf || nranks < 1 || blocks < 1 || bs < 1) {
        return 1;
    }
    memset(buf, 'a' + (int)(rank % 26), (size_t)bs);
    int fd = open(path, O_CREAT | O_RDWR, 0644);
    if (fd < 0) {
        perror(path);
        return 1;
    }
    for (int phase = 0; phase < 2; phase++) {
        for (long b = 0; b < blocks; b++) {
            off_t off = ssf ? (off_t)((b * nranks + rank) * bs) : (off_t)(b * bs);
            ssize_t n;
            if (pio) {
                n = phase ? pread(fd, buf, (size_t)bs, off) : pwrite(fd, buf, (size_t)bs, off);
            } else {
                if (lseek(fd, off, SEEK_SET) < 0) {
                    return 1;
                }
                n = phase ? read(fd, buf, (size_t)bs) : write(fd, buf, (size_t)bs);
            }
            if (n != bs) {
                return 1;
            }
        }
        if (phase == 0) {
            fsync(fd);
        }
    }
    close(fd);
    free(buf);
    return 0;
}
