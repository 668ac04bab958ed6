/* SPDX-License-Identifier: MIT */
/* What the parser knows about individual system calls: one table, looked up by name. */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "iodfg/strace.h"

#include "strace_calls.h"

#define SZ IODFG_CALL_SIZE
#define OP IODFG_CALL_OPEN
#define DF IODFG_CALL_DIRFD
#define P0 IODFG_CALL_PATH0
#define SK IODFG_CALL_SEEK

// Sorted by name (checked by the unit tests). req/off: argument position counted from the
// last argument (1 = last), 0 = not shown.
static const struct call_info calls[] = {
    {"_llseek", SK, 0, 0},
    {"access", P0, 0, 0},
    {"acct", P0, 0, 0},
    {"chdir", P0, 0, 0},
    {"chmod", P0, 0, 0},
    {"chown", P0, 0, 0},
    {"chroot", P0, 0, 0},
    {"copy_file_range", SZ, 2, 0},
    {"creat", OP | P0, 0, 0},
    {"execve", P0, 0, 0},
    {"execveat", DF, 0, 0},
    {"faccessat", DF, 0, 0},
    {"faccessat2", DF, 0, 0},
    {"fchmodat", DF, 0, 0},
    {"fchmodat2", DF, 0, 0},
    {"fchownat", DF, 0, 0},
    {"fstatat64", DF, 0, 0},
    {"futimesat", DF, 0, 0},
    {"getxattr", P0, 0, 0},
    {"lchown", P0, 0, 0},
    {"lgetxattr", P0, 0, 0},
    {"link", P0, 0, 0},
    {"linkat", DF, 0, 0},
    {"listxattr", P0, 0, 0},
    {"llistxattr", P0, 0, 0},
    {"lremovexattr", P0, 0, 0},
    {"lseek", SK, 0, 0},
    {"lsetxattr", P0, 0, 0},
    {"lstat", P0, 0, 0},
    {"lstat64", P0, 0, 0},
    {"mkdir", P0, 0, 0},
    {"mkdirat", DF, 0, 0},
    {"mknod", P0, 0, 0},
    {"mknodat", DF, 0, 0},
    {"name_to_handle_at", DF, 0, 0},
    {"newfstatat", DF, 0, 0},
    {"open", OP | P0, 0, 0},
    {"openat", OP | DF, 0, 0},
    {"openat2", OP | DF, 0, 0},
    {"pread", SZ, 2, 1},
    {"pread64", SZ, 2, 1},
    {"preadv", SZ, 0, 1},
    {"preadv2", SZ, 0, 2},
    {"pwrite", SZ, 2, 1},
    {"pwrite64", SZ, 2, 1},
    {"pwritev", SZ, 0, 1},
    {"pwritev2", SZ, 0, 2},
    {"read", SZ, 1, 0},
    {"readlink", P0, 0, 0},
    {"readlinkat", DF, 0, 0},
    {"readv", SZ, 0, 0},
    {"recv", SZ, 2, 0},
    {"recvfrom", SZ, 4, 0},
    {"recvmsg", SZ, 0, 0},
    {"removexattr", P0, 0, 0},
    {"rename", P0, 0, 0},
    {"renameat", DF, 0, 0},
    {"renameat2", DF, 0, 0},
    {"rmdir", P0, 0, 0},
    {"send", SZ, 2, 0},
    {"sendfile", SZ, 1, 0},
    {"sendfile64", SZ, 1, 0},
    {"sendmsg", SZ, 0, 0},
    {"sendto", SZ, 4, 0},
    {"setxattr", P0, 0, 0},
    {"splice", SZ, 2, 0},
    {"stat", P0, 0, 0},
    {"stat64", P0, 0, 0},
    {"statfs", P0, 0, 0},
    {"statfs64", P0, 0, 0},
    {"statx", DF, 0, 0},
    {"swapoff", P0, 0, 0},
    {"swapon", P0, 0, 0},
    {"symlink", P0, 0, 0},
    {"tee", SZ, 2, 0},
    {"truncate", P0, 0, 0},
    {"truncate64", P0, 0, 0},
    {"umount2", P0, 0, 0},
    {"unlink", P0, 0, 0},
    {"unlinkat", DF, 0, 0},
    {"uselib", P0, 0, 0},
    {"utime", P0, 0, 0},
    {"utimensat", DF, 0, 0},
    {"utimes", P0, 0, 0},
    {"vmsplice", SZ, 0, 0},
    {"write", SZ, 1, 0},
    {"writev", SZ, 0, 0},
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
