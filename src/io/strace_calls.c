/* SPDX-License-Identifier: MIT */
/* What the parser knows about individual system calls: one table, looked up by name. */
#include "config.h"

#include "strace_calls.h"

#include <stdlib.h>
#include <string.h>

#include "iodfg/strace.h"

#define SZ IODFG_CALL_SIZE
#define OP IODFG_CALL_OPEN
#define DF IODFG_CALL_DIRFD
#define P0 IODFG_CALL_PATH0
#define SK IODFG_CALL_SEEK
#define HU HK_USE
#define HR HK_READ
#define HW HK_WRITE
#define HN HK_NEWFD
#define HA HK_ACCEPT
#define HD HK_DUP
#define HF HK_FCNTL
#define HC HK_CLOSE
#define HCR HK_CLOSE_RANGE
#define HP HK_PAIR
#define HK HK_FORK

// Sorted by name (checked by the unit tests). req/off: argument position counted from the
// last argument (1 = last), 0 = not shown. The last column says what the call does to
// descriptors (enum handle_kind, for the handle tracker).
static const struct call_info calls[] = {
    {"_llseek", SK, 0, 0, HU},
    {"accept", 0, 0, 0, HA},
    {"accept4", 0, 0, 0, HA},
    {"access", P0, 0, 0, 0},
    {"acct", P0, 0, 0, 0},
    {"bind", 0, 0, 0, HU},
    {"chdir", P0, 0, 0, 0},
    {"chmod", P0, 0, 0, 0},
    {"chown", P0, 0, 0, 0},
    {"chroot", P0, 0, 0, 0},
    {"clone", 0, 0, 0, HK},
    {"clone3", 0, 0, 0, HK},
    {"close", 0, 0, 0, HC},
    {"close_range", 0, 0, 0, HCR},
    {"connect", 0, 0, 0, HU},
    {"copy_file_range", SZ, 2, 0, HR},
    {"creat", OP | P0, 0, 0, HN},
    {"dup", 0, 0, 0, HD},
    {"dup2", 0, 0, 0, HD},
    {"dup3", 0, 0, 0, HD},
    {"epoll_create", 0, 0, 0, HN},
    {"epoll_create1", 0, 0, 0, HN},
    {"epoll_ctl", 0, 0, 0, HU},
    {"epoll_pwait", 0, 0, 0, HU},
    {"epoll_wait", 0, 0, 0, HU},
    {"eventfd", 0, 0, 0, HN},
    {"eventfd2", 0, 0, 0, HN},
    {"execve", P0, 0, 0, 0},
    {"execveat", DF, 0, 0, HU},
    {"faccessat", DF, 0, 0, HU},
    {"faccessat2", DF, 0, 0, HU},
    {"fadvise64", 0, 0, 0, HU},
    {"fallocate", 0, 0, 0, HU},
    {"fanotify_init", 0, 0, 0, HN},
    {"fchdir", 0, 0, 0, HU},
    {"fchmod", 0, 0, 0, HU},
    {"fchmodat", DF, 0, 0, HU},
    {"fchmodat2", DF, 0, 0, HU},
    {"fchown", 0, 0, 0, HU},
    {"fchownat", DF, 0, 0, HU},
    {"fcntl", 0, 0, 0, HF},
    {"fcntl64", 0, 0, 0, HF},
    {"fdatasync", 0, 0, 0, HU},
    {"fgetxattr", 0, 0, 0, HU},
    {"flistxattr", 0, 0, 0, HU},
    {"flock", 0, 0, 0, HU},
    {"fork", 0, 0, 0, HK},
    {"fremovexattr", 0, 0, 0, HU},
    {"fsetxattr", 0, 0, 0, HU},
    {"fstat", 0, 0, 0, HU},
    {"fstatat64", DF, 0, 0, HU},
    {"fstatfs", 0, 0, 0, HU},
    {"fsync", 0, 0, 0, HU},
    {"ftruncate", 0, 0, 0, HU},
    {"futimesat", DF, 0, 0, HU},
    {"getdents", 0, 0, 0, HU},
    {"getdents64", 0, 0, 0, HU},
    {"getpeername", 0, 0, 0, HU},
    {"getsockname", 0, 0, 0, HU},
    {"getsockopt", 0, 0, 0, HU},
    {"getxattr", P0, 0, 0, 0},
    {"inotify_init", 0, 0, 0, HN},
    {"inotify_init1", 0, 0, 0, HN},
    {"ioctl", 0, 0, 0, HU},
    {"lchown", P0, 0, 0, 0},
    {"lgetxattr", P0, 0, 0, 0},
    {"link", P0, 0, 0, 0},
    {"linkat", DF, 0, 0, HU},
    {"listen", 0, 0, 0, HU},
    {"listxattr", P0, 0, 0, 0},
    {"llistxattr", P0, 0, 0, 0},
    {"lremovexattr", P0, 0, 0, 0},
    {"lseek", SK, 0, 0, HU},
    {"lsetxattr", P0, 0, 0, 0},
    {"lstat", P0, 0, 0, 0},
    {"lstat64", P0, 0, 0, 0},
    {"memfd_create", 0, 0, 0, HN},
    {"mkdir", P0, 0, 0, 0},
    {"mkdirat", DF, 0, 0, HU},
    {"mknod", P0, 0, 0, 0},
    {"mknodat", DF, 0, 0, HU},
    {"name_to_handle_at", DF, 0, 0, HU},
    {"newfstatat", DF, 0, 0, HU},
    {"open", OP | P0, 0, 0, HN},
    {"openat", OP | DF, 0, 0, HN},
    {"openat2", OP | DF, 0, 0, HN},
    {"perf_event_open", 0, 0, 0, HN},
    {"pidfd_open", 0, 0, 0, HN},
    {"pipe", 0, 0, 0, HP},
    {"pipe2", 0, 0, 0, HP},
    {"pread", SZ, 2, 1, HR},
    {"pread64", SZ, 2, 1, HR},
    {"preadv", SZ, 0, 1, HR},
    {"preadv2", SZ, 0, 2, HR},
    {"pwrite", SZ, 2, 1, HW},
    {"pwrite64", SZ, 2, 1, HW},
    {"pwritev", SZ, 0, 1, HW},
    {"pwritev2", SZ, 0, 2, HW},
    {"read", SZ, 1, 0, HR},
    {"readahead", 0, 0, 0, HU},
    {"readlink", P0, 0, 0, 0},
    {"readlinkat", DF, 0, 0, HU},
    {"readv", SZ, 0, 0, HR},
    {"recv", SZ, 2, 0, HR},
    {"recvfrom", SZ, 4, 0, HR},
    {"recvmsg", SZ, 0, 0, HR},
    {"removexattr", P0, 0, 0, 0},
    {"rename", P0, 0, 0, 0},
    {"renameat", DF, 0, 0, HU},
    {"renameat2", DF, 0, 0, HU},
    {"rmdir", P0, 0, 0, 0},
    {"send", SZ, 2, 0, HW},
    {"sendfile", SZ, 1, 0, HW},
    {"sendfile64", SZ, 1, 0, HW},
    {"sendmsg", SZ, 0, 0, HW},
    {"sendto", SZ, 4, 0, HW},
    {"setsockopt", 0, 0, 0, HU},
    {"setxattr", P0, 0, 0, 0},
    {"shutdown", 0, 0, 0, HU},
    {"signalfd", 0, 0, 0, HN},
    {"signalfd4", 0, 0, 0, HN},
    {"socket", 0, 0, 0, HN},
    {"socketpair", 0, 0, 0, HP},
    {"splice", SZ, 2, 0, HR},
    {"stat", P0, 0, 0, 0},
    {"stat64", P0, 0, 0, 0},
    {"statfs", P0, 0, 0, 0},
    {"statfs64", P0, 0, 0, 0},
    {"statx", DF, 0, 0, HU},
    {"swapoff", P0, 0, 0, 0},
    {"swapon", P0, 0, 0, 0},
    {"symlink", P0, 0, 0, 0},
    {"sync_file_range", 0, 0, 0, HU},
    {"syncfs", 0, 0, 0, HU},
    {"tee", SZ, 2, 0, HR},
    {"timerfd_create", 0, 0, 0, HN},
    {"truncate", P0, 0, 0, 0},
    {"truncate64", P0, 0, 0, 0},
    {"umount2", P0, 0, 0, 0},
    {"unlink", P0, 0, 0, 0},
    {"unlinkat", DF, 0, 0, HU},
    {"uselib", P0, 0, 0, 0},
    {"userfaultfd", 0, 0, 0, HN},
    {"utime", P0, 0, 0, 0},
    {"utimensat", DF, 0, 0, HU},
    {"utimes", P0, 0, 0, 0},
    {"vfork", 0, 0, 0, HK},
    {"vmsplice", SZ, 0, 0, HW},
    {"write", SZ, 1, 0, HW},
    {"writev", SZ, 0, 0, HW},
};

static int cmp_name(const char *a, size_t alen, const char *b)
{
    size_t blen = strlen(b);
    int c = memcmp(a, b, alen < blen ? alen : blen);
    if (c) {
        return c;
    }
    return alen < blen ? -1 : alen > blen;
}

const struct call_info *strace_call_lookup(const char *name, size_t len)
{
    size_t lo = 0, hi = sizeof(calls) / sizeof(calls[0]);
    while (lo < hi) {
        size_t mid = (lo + hi) / 2;
        int c = cmp_name(name, len, calls[mid].name);
        if (c == 0) {
            return &calls[mid];
        }
        if (c < 0) {
            hi = mid;
        } else {
            lo = mid + 1;
        }
    }
    return NULL;
}

const struct call_info *strace_call_table(size_t *count)
{
    *count = sizeof(calls) / sizeof(calls[0]);
    return calls;
}

unsigned iodfg_strace_call_flags(const char *name, size_t len)
{
    const struct call_info *ci = strace_call_lookup(name, len);
    return ci ? ci->flags : 0;
}
