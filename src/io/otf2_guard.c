/* SPDX-License-Identifier: MIT */
/* OTF2 input, before libotf2 sees an archive: every file of it must be a regular file, and its
 * anchor file must load within a quarter of a second of processor time. libotf2 loops for seconds,
 * or without end, growing its memory, on some anchor files with one byte changed; nothing stops it
 * from outside. So a child process loads the anchor first, under a processor-time limit, and
 * only an anchor that child loaded in time is loaded here. The child allocates, so the fork must
 * happen while no other thread runs (a lock held by another thread at the fork is never released
 * in the child): the ingest guards every archive before its workers start. */
#include "config.h"

#include <dirent.h>
#include <errno.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/time.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "iodfg/error.h"

#include "otf2_priv.h"
#include "readfile.h"

/* Processor time the anchor may take (a good one takes a few milliseconds, under the
 * sanitizers too), and the wall-clock time after which the child is stopped even when it
 * waits (a busy machine gets this long). */
#define ANCHOR_CPU_MS 250
#define ANCHOR_WALL_SECONDS 20

// libotf2 must not write to stderr in the child either.
static OTF2_ErrorCode quiet(void *ud, const char *file, uint64_t line, const char *function,
                            OTF2_ErrorCode code, const char *fmt, va_list va)
{
    (void)ud, (void)file, (void)line, (void)function, (void)fmt, (void)va;
    return code;
}

static void child(const char *path)
{
    // SIGPROF (whose default action ends the process) after that much processor time
    struct itimerval prof = {{0, 0}, {ANCHOR_CPU_MS / 1000, (ANCHOR_CPU_MS % 1000) * 1000}};
    signal(SIGPROF, SIG_DFL);
    setitimer(ITIMER_PROF, &prof, NULL);
    OTF2_Error_RegisterCallback(quiet, NULL);
    OTF2_Reader *rd = OTF2_Reader_Open(path);
    // no atexit handlers and no leak report: the parent reads only the exit status
    _exit(rd ? 0 : 3);
}

static double now_s(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

/* Wait for pid up to ANCHOR_WALL_SECONDS: its status in *st, 0; -1 when it took too long (it
 * is killed) or when no status comes (SIGCHLD ignored: then 1, "no verdict"). */
static int wait_child(pid_t pid, int *st)
{
    double t0 = now_s();
    long nap_ns = 100000;
    for (;;) {
        pid_t w = waitpid(pid, st, WNOHANG);
        if (w == pid) {
            return 0;
        }
        if (w < 0 && errno != EINTR) {
            return 1;
        }
        if (now_s() - t0 > ANCHOR_WALL_SECONDS) {
            kill(pid, SIGKILL);
            while (waitpid(pid, st, 0) < 0 && errno == EINTR) {
            }
            return -1;
        }
        struct timespec nap = {0, nap_ns};
        nanosleep(&nap, NULL);
        nap_ns = nap_ns < 20000000 ? nap_ns * 2 : nap_ns;
    }
}

static int anchor_in_time(const char *path, struct iodfg_error *err)
{
    pid_t pid = fork();
    if (pid == 0) {
        child(path);
    }
    if (pid < 0) { // no process to spare: load it here, unguarded
        return 0;
    }
    int st = 0;
    int rc = wait_child(pid, &st);
    if (rc > 0 || (rc == 0 && WIFEXITED(st) && WEXITSTATUS(st) == 0)) {
        return 0;
    }
    if (rc == 0 && WIFEXITED(st)) {
        return iodfg_error_set(err, IODFG_E_IO, "not an OTF2 archive, or libotf2 cannot open it");
    }
    int sig = WIFSIGNALED(st) ? WTERMSIG(st) : 0;
    if (rc < 0) {
        return iodfg_error_set(err, IODFG_E_FORMAT,
                               "libotf2 did not finish loading the anchor file in %d s",
                               ANCHOR_WALL_SECONDS);
    }
    if (sig == SIGPROF) {
        return iodfg_error_set(err, IODFG_E_FORMAT,
                               "damaged OTF2 archive: libotf2 did not finish loading its anchor "
                               "file in %d ms of processor time",
                               ANCHOR_CPU_MS);
    }
    return iodfg_error_set(err, IODFG_E_FORMAT,
                           "damaged OTF2 archive: libotf2 crashed loading its anchor file (%s)",
                           strsignal(sig));
}

/* Every *.def and *.evt file of the archive's directory "NAME/" and "NAME.def" beside the
 * anchor "NAME.otf2" must be a regular file: libotf2 would block on a FIFO. */
static int files_regular(const char *path, struct iodfg_error *err)
{
    size_t n = strlen(path) - 5; // without ".otf2"
    char *p = malloc(n + 300);
    if (!p) {
        return iodfg_error_set(err, IODFG_E_NOMEM, NULL);
    }
    struct stat st;
    int rc = 0;
    snprintf(p, n + 300, "%.*s.def", (int)n, path);
    if (stat(p, &st) == 0 && !S_ISREG(st.st_mode)) {
        iodfg_error_set(err, IODFG_E_IO, "cannot read %s of the archive: %s, not a regular file", p,
                        readfile_kind(st.st_mode));
        rc = -1;
    }
    snprintf(p, n + 300, "%.*s", (int)n, path);
    DIR *d = rc ? NULL : opendir(p);
    struct dirent *e;
    while (d && rc == 0 && (e = readdir(d)) != NULL) {
        size_t l = strlen(e->d_name);
        if (l < 4 || l > 255 ||
            (strcmp(e->d_name + l - 4, ".def") != 0 && strcmp(e->d_name + l - 4, ".evt") != 0)) {
            continue;
        }
        snprintf(p + n, 300, "/%s", e->d_name);
        if (stat(p, &st) == 0 && !S_ISREG(st.st_mode)) {
            iodfg_error_set(err, IODFG_E_IO,
                            "cannot read %s of the archive: %s, not a regular file", p,
                            readfile_kind(st.st_mode));
            rc = -1;
        }
    }
    if (d) {
        closedir(d);
    }
    free(p);
    return rc;
}

int iodfg_otf2_guard(const char *path, struct iodfg_error *err)
{
    int fd;
    struct stat st;
    if (readfile_check(path, &fd, &st, err)) {
        return -1;
    }
    close(fd);
    if (files_regular(path, err) || anchor_in_time(path, err)) {
        iodfg_error_at(err, path, 0, 0);
        return -1;
    }
    return 0;
}
