/* SPDX-License-Identifier: MIT */
/* Temp files that killed runs left beside their outputs: found by name, removed when their
 * creator on this host is gone. */
#include "config.h"

#include <dirent.h>
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "iodfg/atomicfile.h"
#include "iodfg/error.h"

/* Whether name is ".X.tmp-SUFFIX" of atomicfile.c; *owner points at SUFFIX. */
static int is_temp_name(const char *name, const char **owner)
{
    if (name[0] != '.') {
        return 0;
    }
    const char *t = strstr(name + 1, ".tmp-");
    if (!t || t == name + 1) {
        return 0;
    }
    *owner = t + 5;
    return **owner != '\0';
}

/* The pid in "HOST.PID-XXXXXX" when HOST is host; 0 when the suffix does not name a creator
 * ("XXXXXX" of older runs); -1 when it names another host. */
static long creator_pid(const char *suffix, const char *host)
{
    size_t hl = strlen(host);
    const char *dash = strrchr(suffix, '-');
    const char *dot = dash ? memchr(suffix, '.', (size_t)(dash - suffix)) : NULL;
    if (!dash || !dot) {
        return 0;
    }
    char *end;
    long pid = strtol(dot + 1, &end, 10);
    if (end != dash || pid <= 0) {
        return 0;
    }
    if ((size_t)(dot - suffix) != hl || memcmp(suffix, host, hl) != 0) {
        return -1;
    }
    return pid;
}

static int process_gone(long pid)
{
    return kill((pid_t)pid, 0) != 0 && errno == ESRCH;
}

int iodfg_atomic_clean_stale(const char *final_path, iodfg_stale_fn fn, void *ctx,
                             struct iodfg_error *err)
{
    const char *slash = strrchr(final_path, '/');
    char dir[4096];
    if (!slash) {
        snprintf(dir, sizeof(dir), ".");
    } else { // "/x" -> "/", "a/b/x" -> "a/b"
        snprintf(dir, sizeof(dir), "%.*s", slash == final_path ? 1 : (int)(slash - final_path),
                 final_path);
    }
    char owner[IODFG_ATOMIC_OWNER_MAX];
    iodfg_atomic_owner(owner, sizeof(owner));
    *strrchr(owner, '.') = '\0'; // the host part
    DIR *d = opendir(dir);
    if (!d) {
        iodfg_error_set(err, IODFG_E_IO, "cannot read the directory: %s", strerror(errno));
        iodfg_error_at(err, dir, 0, 0);
        return -1;
    }
    int removed = 0;
    struct dirent *e;
    while ((e = readdir(d)) != NULL) {
        const char *suffix;
        if (!is_temp_name(e->d_name, &suffix)) {
            continue;
        }
        long pid = creator_pid(suffix, owner);
        char path[8192];
        snprintf(path, sizeof(path), "%s/%s", dir, e->d_name);
        struct stat st;
        if (pid < 0 || (pid > 0 && !process_gone(pid)) || lstat(path, &st) != 0 ||
            !S_ISREG(st.st_mode) || st.st_uid != geteuid()) {
            continue;
        }
        struct iodfg_stale_temp t = {path, (unsigned long long)st.st_size, pid, 0};
        if (pid > 0 && unlink(path) == 0) {
            t.removed = 1;
            removed++;
        }
        if (fn) {
            fn(ctx, &t);
        }
    }
    closedir(d);
    return removed;
}
