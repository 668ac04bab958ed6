/* SPDX-License-Identifier: MIT */
/* Source lines of call sites with libdw's offline reporting (a program file read from disk, as
 * eu-addr2line does); without libdw every lookup says unknown. libdw finds an address's unit
 * through .debug_aranges, which clang-based compilers do not write: then through a table of
 * the units' own address ranges, read once per object. */
#include "config.h"

#include "iodfg/srcline.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#ifdef HAVE_LIBDW
#include <dwarf.h>
#include <elfutils/libdw.h>
#include <elfutils/libdwfl.h>
#endif

#include "iodfg/eventlog.h"
#include "iodfg/stacks.h"
#include "iodfg/strpool.h"

#define MAX_OBJECTS 64
#define MAX_RANGES (1u << 20) // one object's unit ranges: at most 32 MiB for a huge program
#define MAX_BACK 64           // ranges tried per lookup where units' ranges overlap

#ifdef HAVE_LIBDW
struct unit_range {
    Dwarf_Addr low, high; // [low, high) in the DWARF's addresses
    Dwarf_Addr reach;     // the highest high of this and every earlier range (sorted by low)
    size_t unit;          // in object.units
};
#endif

struct object {
    char *path; // as traced
#ifdef HAVE_LIBDW
    Dwfl *dwfl; // NULL: unreadable
    Dwfl_Module *mod;
    Dwarf_Addr low; // where offline reporting put the module
    int ranges_read;
    Dwarf_Addr bias; // a DWARF address + bias = its address in mod
    Dwarf_Die *units;
    size_t nunits;
    struct unit_range *ranges; // sorted by low
    size_t nranges;
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
        free(sl->obj[i].units);
        free(sl->obj[i].ranges);
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

static int range_cmp(const void *a, const void *b)
{
    const struct unit_range *x = a, *y = b;
    return x->low < y->low ? -1 : x->low > y->low;
}

// Append unit die's address ranges to o's table; cap: the allocated ranges and units. 0, or -1
// when out of memory.
static int add_unit(struct object *o, Dwarf_Die *die, size_t cap[2])
{
    Dwarf_Addr base, lo, hi;
    size_t before = o->nranges;
    for (ptrdiff_t off = 0; (off = dwarf_ranges(die, off, &base, &lo, &hi)) > 0;) {
        if (lo == 0 || hi <= lo || o->nranges == MAX_RANGES) {
            continue; // code the linker dropped (at 0, or -1 and wrapping)
        }
        if (o->nranges == cap[0]) {
            size_t n = cap[0] ? cap[0] * 2 : 64;
            struct unit_range *r = realloc(o->ranges, n * sizeof(*r));
            if (!r) {
                return -1;
            }
            o->ranges = r;
            cap[0] = n;
        }
        o->ranges[o->nranges++] = (struct unit_range){lo, hi, 0, o->nunits};
    }
    if (o->nranges == before) {
        return 0;
    }
    if (o->nunits == cap[1]) {
        size_t n = cap[1] ? cap[1] * 2 : 16;
        Dwarf_Die *u = realloc(o->units, n * sizeof(*u));
        if (!u) {
            o->nranges = before;
            return -1;
        }
        o->units = u;
        cap[1] = n;
    }
    o->units[o->nunits++] = *die;
    return 0;
}

// o's table of unit ranges, read once: type and partial units hold no code. Out of memory, the
// table read so far (fewer lines known).
static void read_ranges(struct object *o)
{
    o->ranges_read = 1;
    Dwarf *dw = dwfl_module_getdwarf(o->mod, &o->bias);
    Dwarf_CU *cu = NULL;
    Dwarf_Die die;
    uint8_t type;
    size_t cap[2] = {0, 0};
    while (dw && dwarf_get_units(dw, cu, &cu, NULL, &type, &die, NULL) == 0) {
        if ((type == DW_UT_compile || type == DW_UT_skeleton) && add_unit(o, &die, cap) != 0) {
            break;
        }
    }
    if (o->nranges) {
        qsort(o->ranges, o->nranges, sizeof(*o->ranges), range_cmp);
    }
    for (size_t i = 0; i < o->nranges; i++) {
        Dwarf_Addr prev = i ? o->ranges[i - 1].reach : 0;
        o->ranges[i].reach = o->ranges[i].high > prev ? o->ranges[i].high : prev;
    }
}

// The line of a (an address in o's module) from a unit whose ranges hold it, or NULL.
static Dwarf_Line *line_by_ranges(struct object *o, Dwarf_Addr a)
{
    if (!o->ranges_read) {
        read_ranges(o);
    }
    Dwarf_Addr d = a - o->bias;
    size_t lo = 0, hi = o->nranges;
    while (lo < hi) { // the first range starting after d
        size_t mid = lo + (hi - lo) / 2;
        if (o->ranges[mid].low <= d) {
            lo = mid + 1;
        } else {
            hi = mid;
        }
    }
    // back over the ranges that start at or before d while one of them may still reach past it
    // (units' ranges overlap only in odd programs: the walk is bounded)
    for (size_t i = lo, n = 0; i-- > 0 && o->ranges[i].reach > d && n++ < MAX_BACK;) {
        const struct unit_range *r = &o->ranges[i];
        Dwarf_Line *ln = d < r->high ? dwarf_getsrc_die(&o->units[r->unit], d) : NULL;
        if (ln) {
            return ln;
        }
    }
    return NULL;
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
    Dwarf_Line *dl = ln ? NULL : line_by_ranges(o, a); // no .debug_aranges (clang) or not this unit
    if (dl && dwarf_lineno(dl, &l) == 0) {
        src = dwarf_linesrc(dl, NULL, NULL);
    }
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
