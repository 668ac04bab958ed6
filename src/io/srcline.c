/* SPDX-License-Identifier: MIT */
/* Source lines of call sites with libdw's offline reporting (a program file read from disk, as
 * eu-addr2line does); without libdw every lookup says unknown. */
#include "config.h"

#include "iodfg/srcline.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#ifdef HAVE_LIBDW
#include <elfutils/libdwfl.h>
#endif

#include "iodfg/eventlog.h"
#include "iodfg/stacks.h"
#include "iodfg/strpool.h"

#define MAX_OBJECTS 64

struct object {
    char *path; // as traced
#ifdef HAVE_LIBDW
    Dwfl *dwfl; // NULL: unreadable
    Dwfl_Module *mod;
    Dwarf_Addr low; // where offline reporting put the module
#endif
};

struct iodfg_srcline {
    char *dir;
    struct object obj[MAX_OBJECTS];
    unsigned n;
};

int iodfg_srcline_available(void)
{
#ifdef HAVE_LIBDW
    return 1;
#else
    return 0;
#endif
}

struct iodfg_srcline *iodfg_srcline_new(const char *dir)
{
    struct iodfg_srcline *sl = calloc(1, sizeof(*sl));
    if (sl && dir && !(sl->dir = strdup(dir))) {
        free(sl);
        return NULL;
    }
    return sl;
}

void iodfg_srcline_free(struct iodfg_srcline *sl)
{
    if (!sl) {
        return;
    }
    for (unsigned i = 0; i < sl->n; i++) {
#ifdef HAVE_LIBDW
        if (sl->obj[i].dwfl) {
            dwfl_end(sl->obj[i].dwfl);
        }
#endif
        free(sl->obj[i].path);
    }
    free(sl->dir);
    free(sl);
}

#ifdef HAVE_LIBDW
static const Dwfl_Callbacks offline = {
    .find_debuginfo = dwfl_standard_find_debuginfo,
    .section_address = dwfl_offline_section_address,
};

// Report the file at path (an ELF file) offline into o. 0, or -1 when it is not readable.
static int open_at(struct object *o, const char *path)
{
    FILE *f = fopen(path, "rb");
    if (!f) {
        return -1;
    }
    fclose(f);
    Dwfl *d = dwfl_begin(&offline);
    Dwfl_Module *m = d ? dwfl_report_offline(d, "", path, -1) : NULL;
    if (!m || dwfl_report_end(d, NULL, NULL) != 0) {
        if (d) {
            dwfl_end(d);
        }
        return -1;
    }
    o->dwfl = d;
    o->mod = m;
    dwfl_module_info(m, NULL, &o->low, NULL, NULL, NULL, NULL, NULL);
    return 0;
}

static void open_object(struct object *o, const char *dir)
{
    if (open_at(o, o->path) == 0 || !dir) {
        return;
    }
    const char *slash = strrchr(o->path, '/');
    const char *base = slash ? slash + 1 : o->path;
    char buf[4096];
    if ((size_t)snprintf(buf, sizeof(buf), "%s/%s", dir, base) < sizeof(buf) &&
        open_at(o, buf) == 0) {
        return;
    }
    if ((size_t)snprintf(buf, sizeof(buf), "%s/%s", dir, o->path) < sizeof(buf)) {
        open_at(o, buf);
    }
}
#endif

static struct object *find(struct iodfg_srcline *sl, const char *object)
{
    for (unsigned i = 0; i < sl->n; i++) {
        if (strcmp(sl->obj[i].path, object) == 0) {
            return &sl->obj[i];
        }
    }
    if (sl->n == MAX_OBJECTS) {
        return NULL; // a call-site report names few programs; past that, unknown
    }
    struct object *o = &sl->obj[sl->n];
    memset(o, 0, sizeof(*o));
    if (!(o->path = strdup(object))) {
        return NULL;
    }
    sl->n++;
#ifdef HAVE_LIBDW
    open_object(o, sl->dir);
#endif
    return o;
}

int iodfg_srcline_lookup(struct iodfg_srcline *sl, const char *object, uint64_t address,
                         int return_address, const char **file, int *line)
{
    *file = NULL;
    *line = 0;
    struct object *o = sl && object && *object ? find(sl, object) : NULL;
#ifdef HAVE_LIBDW
    if (!o || !o->dwfl) {
        return 0;
    }
    Dwarf_Addr a = o->low + address - (return_address && address > 0 ? 1 : 0);
    Dwfl_Line *ln = dwfl_module_getsrc(o->mod, a);
    int l = 0;
    const char *src = ln ? dwfl_lineinfo(ln, NULL, &l, NULL, NULL, NULL) : NULL;
    if (!src || l <= 0) {
        return 0;
    }
    *file = src;
    *line = l;
    return 1;
#else
    (void)o;
    (void)address;
    (void)return_address;
    return 0;
#endif
}

int iodfg_srcline_frame(struct iodfg_srcline *sl, const struct iodfg_eventlog *log, uint32_t frame,
                        const char **file, int *line)
{
    const struct iodfg_stacks *st = iodfg_eventlog_stacks(log);
    *file = NULL;
    *line = 0;
    if (!st || frame == 0 || frame > iodfg_stacks_frame_count(st)) {
        return 0;
    }
    const struct iodfg_frame *f = &iodfg_stacks_frames(st)[frame - 1];
    if (f->flags & IODFG_FRAME_SOURCE) { // OTF2: the trace's own file and line, no lookup
        *file = f->address ? iodfg_strpool_get(iodfg_eventlog_pool(log), f->object) : NULL;
        *line = f->address && f->address <= INT32_MAX ? (int)f->address : 0;
        return *file != NULL && *line > 0;
    }
    // a call site is never a stack's innermost frame (that is the system call's)
    return iodfg_srcline_lookup(sl, iodfg_strpool_get(iodfg_eventlog_pool(log), f->object),
                                f->address, 1, file, line);
}
