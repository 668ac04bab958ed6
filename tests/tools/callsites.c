/* SPDX-License-Identifier: MIT */
/* A small program whose I/O comes from known functions, for the call-site tests: the parent and
 * a child process each write a header and a payload and read them back, and a thread of the
 * parent appends a log. Recorded under strace -f -k by tests/e2e/callsites.sh (and once, for
 * tests/data/traces/callsites, by tests/tools/record_callsites.sh); built with -g for file:line. */
#define _GNU_SOURCE
#include <fcntl.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

static char block[65536];

static void write_header(int fd)
{
    char h[64];
    for (int i = 0; i < 100; i++) {
        memset(h, 'h', sizeof h);
        if (write(fd, h, sizeof h) != (ssize_t)sizeof h) {
            exit(1);
        }
    }
}

static void write_payload(int fd)
{
    for (int i = 0; i < 16; i++) {
        if (write(fd, block, sizeof block) != (ssize_t)sizeof block) {
            exit(1);
        }
    }
}

static void read_back(int fd)
{
    lseek(fd, 0, SEEK_SET);
    while (read(fd, block, sizeof block) > 0) {
    }
}

static void *append_log(void *arg)
{
    int fd = open((const char *)arg, O_WRONLY | O_CREAT | O_APPEND, 0644);
    for (int i = 0; fd >= 0 && i < 10; i++) {
        if (write(fd, "log line\n", 9) != 9) {
            break;
        }
    }
    if (fd >= 0) {
        close(fd);
    }
    return NULL;
}

static void run(const char *dir, const char *name)
{
    char path[4096];
    snprintf(path, sizeof path, "%s/%s.dat", dir, name);
    int fd = open(path, O_RDWR | O_CREAT | O_TRUNC, 0644);
    if (fd < 0) {
        exit(1);
    }
    write_header(fd);
    write_payload(fd);
    read_back(fd);
    close(fd);
}

int main(int argc, char **argv)
{
    const char *dir = argc > 1 ? argv[1] : ".";
    char log[4096];
    snprintf(log, sizeof log, "%s/run.log", dir);
    pthread_t t;
    if (pthread_create(&t, NULL, append_log, log) != 0) {
        return 1;
    }
    pid_t child = fork();
    if (child == 0) {
        run(dir, "child");
        _exit(0);
    }
    run(dir, "parent");
    pthread_join(t, NULL);
    int st = 0;
    waitpid(child, &st, 0);
    return WIFEXITED(st) && WEXITSTATUS(st) == 0 ? 0 : 1;
}
