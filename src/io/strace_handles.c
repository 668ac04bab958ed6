/* SPDX-License-Identifier: MIT */
/* Descriptor tracking: per-process fd tables (shared by threads, copied on fork), handles for
 * opens, dups, pipes and sockets, pre-created handles for descriptors used but never opened. */
#include "config.h"

#include "strace_handles.h"

#include <stdlib.h>
#include <string.h>

#include "iodfg/eventlog.h"
#include "iodfg/strace.h"

#include "strace_calls.h"

#define MAX_FD (1u << 20) // larger descriptor numbers get no handle

void strace_handles_init(struct strace_handles *t)
{
    memset(t, 0, sizeof(*t));
}

void strace_handles_fini(struct strace_handles *t)
{
    for (uint32_t i = 0; i < t->ntables; i++) {
        free(t->tables[i].slot);
    }
    free(t->tables);
    free(t->procs);
    free(t->closed);
    memset(t, 0, sizeof(*t));
}

/* A new table, empty or a copy of table `from` (every live handle becomes "inherited"). */
static int new_table(struct strace_handles *t, const struct fd_table *from_tab, uint32_t *idx)
{
    // from_tab may point into t->tables, which the realloc below can move: copy it first.
    struct fd_table src = {NULL, 0};
    const struct fd_table *from = NULL;
    if (from_tab) {
        src = *from_tab;
        from = &src;
    }
    if (t->ntables == t->tables_cap) {
        uint32_t cap = t->tables_cap ? 2 * t->tables_cap : 8;
        struct fd_table *n = realloc(t->tables, cap * sizeof(*n));
        if (!n) {
            return -1;
        }
        t->tables = n;
        t->tables_cap = cap;
    }
    struct fd_table tab = {NULL, 0};
    if (from && from->cap) {
        tab.slot = malloc(from->cap * sizeof(*tab.slot));
        if (!tab.slot) {
            return -1;
        }
        tab.cap = from->cap;
        for (uint32_t fd = 0; fd < from->cap; fd++) {
            uint32_t v = from->slot[fd];
            tab.slot[fd] = v ? (v | INHERIT_MARK) : 0;
        }
    }
    t->tables[t->ntables] = tab;
    *idx = t->ntables++;
    return 0;
}

static struct fd_proc *add_proc(struct strace_handles *t, int32_t pid, uint32_t table)
{
    if (t->nprocs == t->procs_cap) {
        uint32_t cap = t->procs_cap ? 2 * t->procs_cap : 8;
        struct fd_proc *n = realloc(t->procs, cap * sizeof(*n));
        if (!n) {
            return NULL;
        }
        t->procs = n;
        t->procs_cap = cap;
    }
    t->procs[t->nprocs].pid = pid;
    t->procs[t->nprocs].table = table;
    t->last = t->nprocs;
    return &t->procs[t->nprocs++];
}

static struct fd_proc *find_proc(struct strace_handles *t, int32_t pid)
{
    if (t->last < t->nprocs && t->procs[t->last].pid == pid) {
        return &t->procs[t->last];
    }
    for (uint32_t i = t->nprocs; i-- > 0;) {
        if (t->procs[i].pid == pid) {
            t->last = i;
            return &t->procs[i];
        }
    }
    return NULL;
}

/* A process seen for the first time inherits from the parent of a fork in flight. */
static struct fd_proc *first_sight(struct strace_handles *t, int32_t pid, int32_t parent,
                                   int shared)
{
    struct fd_proc *pp = parent >= 0 ? find_proc(t, parent) : NULL;
    uint32_t table;
    if (pp && shared) {
        table = pp->table;
    } else if (new_table(t, pp ? &t->tables[pp->table] : NULL, &table)) {
        return NULL;
    }
    return add_proc(t, pid, table);
}

static struct fd_proc *proc_of(struct strace_handles *t, int32_t pid)
{
    struct fd_proc *p = find_proc(t, pid);
    if (p) {
        return p;
    }
    if (t->nforks) { // the newest fork in flight is the likeliest parent
        struct fd_fork f = t->forks[--t->nforks];
        return first_sight(t, pid, f.pid, f.shared);
    }
    return first_sight(t, pid, -1, 0);
}

static int shares_files(struct text args)
{
    static const char flag[] = "CLONE_FILES";
    return args.n >= sizeof(flag) - 1 && memmem(args.p, args.n, flag, sizeof(flag) - 1) != NULL;
}

void strace_handles_fork_pending(struct strace_handles *t, int32_t pid, struct text args)
{
    if (t->nforks == sizeof(t->forks) / sizeof(t->forks[0])) {
        memmove(t->forks, t->forks + 1, (t->nforks - 1) * sizeof(t->forks[0]));
        t->nforks--;
    }
    t->forks[t->nforks].pid = pid;
    t->forks[t->nforks].shared = shares_files(args);
    t->nforks++;
}

static uint32_t *slot_of(struct strace_handles *t, uint32_t table, int32_t fd)
{
    if (fd < 0 || (uint32_t)fd >= MAX_FD) {
        return NULL;
    }
    struct fd_table *tab = &t->tables[table];
    if ((uint32_t)fd >= tab->cap) {
        uint32_t cap = tab->cap ? tab->cap : 64;
        while (cap <= (uint32_t)fd) {
            cap *= 2;
        }
        uint32_t *s = realloc(tab->slot, cap * sizeof(*s));
        if (!s) {
            return NULL;
        }
        memset(s + tab->cap, 0, (cap - tab->cap) * sizeof(*s));
        tab->slot = s;
        tab->cap = cap;
    }
    return &tab->slot[fd];
}

static struct iodfg_raw_handle *add_def(struct strace_handles *t, struct iodfg_raw_event *ev,
                                        uint32_t origin, uint32_t parent, int32_t fd)
{
    struct iodfg_raw_handle *d = &t->defs[ev->ndef++];
    memset(d, 0, sizeof(*d));
    d->origin = origin;
    d->parent = parent;
    d->pid = ev->pid;
    d->fd = fd;
    d->path = ev->path;
    d->path_len = ev->path_len;
    d->flags = d->layer = "";
    d->mode = IODFG_UNKNOWN;
    return d;
}

/* The handle behind *slot, defining a pre-created or inherited one on first use. */
static uint32_t live_handle(struct strace_handles *t, uint32_t *slot, int32_t fd,
                            struct iodfg_raw_event *ev)
{
    if (*slot && !(*slot & INHERIT_MARK)) {
        return *slot;
    }
    uint32_t parent = *slot & ~INHERIT_MARK;
    add_def(t, ev, parent ? IODFG_HANDLE_INHERITED : IODFG_HANDLE_PRECREATED, parent, fd);
    *slot = ++t->next;
    return *slot;
}

static int note_closed(struct strace_handles *t, uint32_t id)
{
    if (t->nclosed == t->closed_cap) {
        uint32_t cap = t->closed_cap ? 2 * t->closed_cap : 16;
        uint32_t *c = realloc(t->closed, cap * sizeof(*c));
        if (!c) {
            return -1;
        }
        t->closed = c;
        t->closed_cap = cap;
    }
    t->closed[t->nclosed++] = id;
    return 0;
}

/* The n-th argument (0-based) of args, trimmed; .n == 0 when absent. */
static struct text nth_arg(struct text args, unsigned n)
{
    size_t i = 0;
    for (unsigned k = 0;; k++) {
        while (i < args.n && args.p[i] == ' ') {
            i++;
        }
        size_t e = i + strace_arg_end(args.p + i, args.n - i);
        if (k == n) {
            struct text a = {args.p + i, e - i};
            while (a.n && a.p[a.n - 1] == ' ') {
                a.n--;
            }
            return a;
        }
        if (e >= args.n) {
            struct text none = {args.p, 0};
            return none;
        }
        i = e + 1;
    }
}

static int64_t parse_mode(struct text a)
{
    if (a.n == 0 || a.p[0] < '0' || a.p[0] > '7') {
        return IODFG_UNKNOWN;
    }
    int64_t v = 0;
    for (size_t i = 0; i < a.n && i < 12; i++) {
        if (a.p[i] < '0' || a.p[i] > '7') {
            return IODFG_UNKNOWN;
        }
        v = v * 8 + (a.p[i] - '0');
    }
    return v;
}

/* "name=VALUE" inside an openat2 struct argument. */
static struct text struct_field(struct text a, const char *name)
{
    size_t n = strlen(name);
    const char *m = a.n > n ? memmem(a.p, a.n, name, n) : NULL;
    struct text v = {a.p, 0};
    if (m) {
        v.p = m + n;
        size_t left = a.n - (size_t)(v.p - a.p);
        while (v.n < left && v.p[v.n] != ',' && v.p[v.n] != '}') {
            v.n++;
        }
    }
    return v;
}

/* The argument before the comma at args.p[end] (or ending at end when it is args.n). */
static struct text arg_before(struct text args, size_t end, size_t *start)
{
    size_t b = end;
    while (b > 0 && args.p[b - 1] != ',') {
        b--;
    }
    *start = b;
    struct text a = {args.p + b, end - b};
    while (a.n && a.p[0] == ' ') {
        a.p++, a.n--;
    }
    while (a.n && a.p[a.n - 1] == ' ') { // "O_RDONLY <unfinished ...>" leaves a blank
        a.n--;
    }
    return a;
}

/* Open flags and mode of an open-family call, read from the end of the arguments (flags and
 * mode hold no commas; the path before them may). */
static void open_details(const struct iodfg_raw_event *ev, struct text args,
                         struct iodfg_raw_handle *d)
{
    struct text flags = {"", 0}, mode = {"", 0};
    if (ev->call_len == 7 && memcmp(ev->call, "openat2", 7) == 0) {
        flags = struct_field(args, "flags=");
        mode = struct_field(args, "mode=");
    } else {
        size_t b;
        struct text last = arg_before(args, args.n, &b);
        if (last.n >= 2 && last.p[0] == 'O' && last.p[1] == '_') {
            flags = last;
        } else if (b > 0) {
            mode = last;
            struct text prev = arg_before(args, b - 1, &b);
            if (prev.n >= 2 && prev.p[0] == 'O' && prev.p[1] == '_') {
                flags = prev;
            }
        }
        if (ev->call_len == 5 && memcmp(ev->call, "creat", 5) == 0) {
            flags.p = "O_CREAT|O_WRONLY|O_TRUNC";
            flags.n = strlen(flags.p);
        }
    }
    d->flags = flags.p;
    d->flags_len = flags.n;
    d->mode = parse_mode(mode);
}

/* A new handle for descriptor fd of the event's process; an open one there is closed. */
static int create(struct strace_handles *t, uint32_t table, int32_t fd, uint32_t origin,
                  uint32_t parent, struct iodfg_raw_event *ev, uint32_t *id)
{
    uint32_t *slot = slot_of(t, table, fd);
    if (!slot) {
        return (fd < 0 || (uint32_t)fd >= MAX_FD) ? 1 : -1;
    }
    if (*slot && !(*slot & INHERIT_MARK) && note_closed(t, *slot)) {
        return -1;
    }
    add_def(t, ev, origin, parent, fd);
    *slot = *id = ++t->next;
    return 0;
}

/* pipe([3<pipe:[1]>, 4<pipe:[1]>]) and socketpair(..., [3, 4]): two new handles. */
static int pair(struct strace_handles *t, uint32_t table, struct text args,
                struct iodfg_raw_event *ev)
{
    const char *b = memchr(args.p, '[', args.n);
    while (b && (size_t)(b - args.p) + 1 < args.n && !(b[1] >= '0' && b[1] <= '9')) {
        b = memchr(b + 1, '[', args.n - (size_t)(b + 1 - args.p));
    }
    if (!b) {
        return 0;
    }
    struct text inner = {b + 1, args.n - (size_t)(b + 1 - args.p)};
    for (unsigned k = 0; k < 2; k++) {
        struct text a = nth_arg(inner, k);
        int32_t fd = 0;
        size_t i = 0;
        while (i < a.n && a.p[i] >= '0' && a.p[i] <= '9' && fd < (int32_t)MAX_FD) {
            fd = fd * 10 + (a.p[i++] - '0');
        }
        if (i == 0) {
            return 0;
        }
        const char *path = "";
        size_t plen = 0;
        if (i < a.n && a.p[i] == '<') {
            size_t e = strace_annot_end(a.p + i, a.n - i, &plen);
            path = e == (size_t)-1 ? "" : a.p + i + 1;
            plen = e == (size_t)-1 ? 0 : plen;
        }
        const char *opath = ev->path;
        size_t olen = ev->path_len;
        ev->path = path;
        ev->path_len = plen;
        uint32_t id;
        int rc = create(t, table, fd, IODFG_HANDLE_OPEN, 0, ev, &id);
        ev->path = opath;
        ev->path_len = olen;
        if (rc < 0) {
            return -1;
        }
        if (rc == 0 && k == 0) {
            ev->handle = id;
            ev->hop = IODFG_HOP_CREATE;
        }
    }
    return 0;
}

static int is_ebadf(const struct strace_line *ln)
{
    return ln->err.n == 5 && memcmp(ln->err.p, "EBADF", 5) == 0;
}

static int64_t first_number(struct text a)
{
    int64_t v = 0;
    size_t i = 0;
    while (i < a.n && a.p[i] >= '0' && a.p[i] <= '9' && v < INT32_MAX) {
        v = v * 10 + (a.p[i++] - '0');
    }
    return i ? v : -1;
}

static int close_range(struct strace_handles *t, uint32_t table, struct text args)
{
    int64_t first = first_number(nth_arg(args, 0)), last = first_number(nth_arg(args, 1));
    struct fd_table *tab = &t->tables[table];
    if (first < 0) {
        return 0;
    }
    if (last < 0 || last >= (int64_t)tab->cap) { // ~0U prints as 4294967295
        last = (int64_t)tab->cap - 1;
    }
    for (int64_t fd = first; fd <= last; fd++) {
        uint32_t v = tab->slot[fd];
        if (v && !(v & INHERIT_MARK) && note_closed(t, v)) {
            return -1;
        }
        tab->slot[fd] = 0;
    }
    return 0;
}

/* The returned descriptor of a successful call, or -1. */
static int32_t returned_fd(const struct strace_line *ln)
{
    return ln->ret_known && ln->ret >= 0 && ln->ret < (int64_t)MAX_FD ? (int32_t)ln->ret : -1;
}

static int fork_done(struct strace_handles *t, const struct strace_line *ln, struct text args,
                     int32_t parent)
{
    if (!ln->ret_known || ln->ret <= 0 || ln->ret > INT32_MAX) {
        return 0;
    }
    int32_t child = (int32_t)ln->ret;
    for (unsigned i = t->nforks; i-- > 0;) { // its unfinished half is over
        if (t->forks[i].pid == parent) {
            memmove(t->forks + i, t->forks + i + 1, (t->nforks - i - 1) * sizeof(t->forks[0]));
            t->nforks--;
            break;
        }
    }
    if (find_proc(t, child)) {
        return 0; // seen already (and given the table of the fork then in flight)
    }
    return first_sight(t, child, parent, shares_files(args)) ? 0 : -1;
}

static int use(struct strace_handles *t, uint32_t table, const struct strace_line *ln, unsigned hop,
               struct iodfg_raw_event *ev)
{
    if (ev->fd == IODFG_NO_FD || ev->fd < 0 || is_ebadf(ln)) {
        return 0;
    }
    uint32_t *slot = slot_of(t, table, ev->fd);
    if (!slot) {
        return (uint32_t)ev->fd >= MAX_FD ? 0 : -1;
    }
    ev->handle = live_handle(t, slot, ev->fd, ev);
    ev->hop = hop;
    if (hop == IODFG_HOP_CLOSE) {
        *slot = 0;
    }
    return 0;
}

static int dup_fd(struct strace_handles *t, uint32_t table, const struct strace_line *ln,
                  struct iodfg_raw_event *ev)
{
    int32_t nfd = returned_fd(ln);
    if (nfd < 0 || ev->fd == IODFG_NO_FD || ev->fd < 0) {
        return 0;
    }
    if (nfd == ev->fd) { // dup2(fd, fd): nothing changes
        return use(t, table, ln, IODFG_HOP_USE, ev);
    }
    uint32_t *slot = slot_of(t, table, ev->fd);
    if (!slot) {
        return (uint32_t)ev->fd >= MAX_FD ? 0 : -1;
    }
    uint32_t parent = live_handle(t, slot, ev->fd, ev);
    uint32_t id;
    int rc = create(t, table, nfd, IODFG_HANDLE_DUP, parent, ev, &id);
    if (rc == 0) {
        ev->handle = id;
        ev->hop = IODFG_HOP_CREATE;
    }
    return rc < 0 ? -1 : 0;
}

int strace_handles_event(struct strace_handles *t, const struct call_info *ci,
                         const struct strace_line *ln, struct text args, struct iodfg_raw_event *ev)
{
    unsigned hk = ci ? ci->hk : HK_NONE;
    if (hk == HK_NONE) {
        return 0;
    }
    struct fd_proc *p = proc_of(t, ev->pid);
    if (!p) {
        return -1;
    }
    uint32_t table = p->table;
    int32_t parent_pid = p->pid;
    t->nclosed = 0;
    int rc = 0;
    switch ((enum handle_kind)hk) {
    case HK_USE:
        rc = use(t, table, ln, IODFG_HOP_USE, ev);
        break;
    case HK_READ:
        rc = use(t, table, ln, IODFG_HOP_READ, ev);
        break;
    case HK_WRITE:
        rc = use(t, table, ln, IODFG_HOP_WRITE, ev);
        break;
    case HK_CLOSE:
        rc = use(t, table, ln, IODFG_HOP_CLOSE, ev);
        break;
    case HK_NEWFD:
    case HK_ACCEPT: {
        int32_t fd = returned_fd(ln);
        uint32_t id;
        if (fd < 0) {
            break;
        }
        const char *opath = ev->path;
        size_t olen = ev->path_len;
        if (!(ci->flags & IODFG_CALL_OPEN)) { // socket(...) = 3<TCP:[...]>: the handle's file
            ev->path = ln->ret_annot.n ? ln->ret_annot.p : "";
            ev->path_len = ln->ret_annot.n;
        }
        rc = create(t, table, fd, IODFG_HANDLE_OPEN, 0, ev, &id);
        ev->path = opath;
        ev->path_len = olen;
        if (rc == 0) {
            if (ci->flags & IODFG_CALL_OPEN) {
                open_details(ev, args, &t->defs[ev->ndef - 1]);
            }
            ev->handle = id;
            ev->hop = IODFG_HOP_CREATE;
        }
        rc = rc < 0 ? -1 : 0;
        break;
    }
    case HK_DUP:
        rc = dup_fd(t, table, ln, ev);
        break;
    case HK_FCNTL: {
        struct text cmd = nth_arg(args, 1);
        if (cmd.n >= 7 && memcmp(cmd.p, "F_DUPFD", 7) == 0) {
            rc = dup_fd(t, table, ln, ev);
        } else {
            rc = use(t, table, ln, IODFG_HOP_USE, ev);
        }
        break;
    }
    case HK_CLOSE_RANGE:
        if (!ln->ret_known || ln->ret == 0) {
            rc = close_range(t, table, args);
        }
        break;
    case HK_PAIR:
        if (ln->ret_known && ln->ret == 0) {
            rc = pair(t, table, args, ev);
        }
        break;
    case HK_FORK:
        rc = fork_done(t, ln, args, parent_pid);
        break;
    case HK_NONE:
        break;
    }
    ev->hdef = t->defs;
    ev->hclosed = t->closed;
    ev->nclosed = t->nclosed;
    return rc;
}
