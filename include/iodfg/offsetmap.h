/* SPDX-License-Identifier: MIT */
/* The offset map of one file (DXT Explorer's offset-against-time picture): one point per read
 * or write at a known or inferred offset, the reads and writes at unknown offsets counted (never
 * placed), the access pattern of each case and of the file (from iodfg/access.h), and the byte
 * ranges that two cases or more write (doc/metrics.md, "Offset map"). */
#ifndef IODFG_OFFSETMAP_H
#define IODFG_OFFSETMAP_H

#include <stddef.h>
#include <stdint.h>

#include "iodfg/eventlog.h"

struct iodfg_buf;
struct iodfg_error;
struct iodfg_picture_input;
struct iodfg_picture_meta;
struct iodfg_strpool;

/* Where a point's offset comes from. */
enum iodfg_offset_source {
    IODFG_OFFSET_KNOWN = 0, /* the call's offset argument (pread/pwrite), or just after a traced
                             * lseek of its descriptor */
    IODFG_OFFSET_INFERRED,  /* followed from an open or lseek plus the sizes moved since
                             * (iodfg/access.h), or by the trace reader (OTF2) */
    IODFG_OFFSET_UNKNOWN,   /* not known: counted, never drawn */
    IODFG_OFFSET__N
};
const char *iodfg_offset_source_name(enum iodfg_offset_source s);

/* The access pattern of one direction, named from the counts of iodfg/access.h over the accesses
 * at known or inferred offsets: random when at least a tenth go backwards, else strided when at
 * least a tenth skip forward, else sequential; none without such accesses. */
enum iodfg_pattern {
    IODFG_PATTERN_NONE = 0,
    IODFG_PATTERN_SEQUENTIAL,
    IODFG_PATTERN_STRIDED,
    IODFG_PATTERN_RANDOM,
    IODFG_PATTERN__N
};
const char *iodfg_pattern_name(enum iodfg_pattern p);

/* One read or write at a known or inferred offset. */
struct iodfg_offset_point {
    int64_t start_ns, dur_ns; /* dur 0 when unknown */
    int64_t offset, length;   /* length: the bytes moved */
    uint64_t event;           /* index in the log */
    uint32_t row;             /* its case: iodfg_offsetmap.cases[row] */
    uint8_t write;            /* 1 write, 0 read */
    uint8_t source;           /* IODFG_OFFSET_KNOWN or _INFERRED */
    uint8_t overlap;          /* a write of a range that another case writes too */
};

/* One direction of a case or of the whole file. */
struct iodfg_offsetmap_dir {
    uint64_t n[IODFG_OFFSET__N];             /* calls by offset source */
    int64_t bytes[IODFG_OFFSET__N];          /* their bytes */
    uint64_t consecutive, forward, backward; /* iodfg/access.h: consecutive, sequential, random */
    enum iodfg_pattern pattern;
};

struct iodfg_offsetmap_case {
    uint32_t case_idx;                 /* in the log */
    uint32_t name;                     /* string id in iodfg_offsetmap.names */
    uint8_t band;                      /* 0 = G (or the only band), 1 = R */
    struct iodfg_offsetmap_dir dir[2]; /* IODFG_DIR_READ, IODFG_DIR_WRITE (metrics.h) */
    int64_t overlap_bytes;             /* of its writes, bytes another case writes too */
};

/* A byte range [lo, hi) written by two cases or more (merged). a and b: two of them (rows). */
struct iodfg_offset_overlap {
    int64_t lo, hi;
    uint32_t a, b;
};

struct iodfg_offsetmap {
    uint32_t path;  /* string id of the file in the log's pool */
    uint32_t name;  /* its name in names */
    size_t npoints; /* by case row, each case's in time order */
    struct iodfg_offset_point *points;
    size_t points_cap; /* allocated: a build reuses the last one's points when they fit */
    uint32_t ncases;   /* the cases with reads or writes of the file, in log order, G's first */
    struct iodfg_offsetmap_case *cases;
    uint32_t nbands;
    struct iodfg_offsetmap_dir file[2]; /* the file: the cases' sums, its pattern from them */
    int64_t extent;                     /* the highest offset + length of a point */
    int64_t t_from, t_to;               /* the points' first start and last end */
    /* writes: their bytes, the bytes of their union and its ranges, bytes written by two cases
     * or more, and those ranges */
    int64_t write_bytes, union_bytes, overlap_bytes;
    uint64_t union_ranges;
    size_t noverlaps;
    struct iodfg_offset_overlap *overlaps;
    enum iodfg_clock clock;
    uint32_t clock_dropped, outside_groups;
    int handles; /* 1 when the log has the handle column (lseek-then-read/write is known) */
    struct iodfg_strpool *names;
};

/* A file of the selection and the bytes its counted reads and writes moved. */
struct iodfg_offsetmap_file {
    uint32_t path; /* string id in the log's pool */
    int64_t bytes;
    uint64_t calls;
};
/* The data files of in (regular files outside /proc, /sys and /dev whose counted reads and
 * writes moved bytes), most bytes first (ties: by path). *out is malloc'd (free it). 0 or -1
 * (out of memory). */
int iodfg_offsetmap_files(const struct iodfg_picture_input *in, struct iodfg_offsetmap_file **out,
                          size_t *n, struct iodfg_error *err);

void iodfg_offsetmap_init(struct iodfg_offsetmap *om);
void iodfg_offsetmap_fini(struct iodfg_offsetmap *om);
/* The offset map of file path (a string id of the log's pool; UINT32_MAX: the data file with the
 * most bytes) over in (its tl is not used), replacing om's contents (om must be initialised).
 * Positions are followed through every event of a selected case, points are its counted reads and
 * writes in the window. 0, or -1 with err (out of memory; IODFG_E_ARG when the log lacks the
 * offset, fd, pid, size or key column; IODFG_E_EMPTY when no data file is selected). */
int iodfg_offsetmap_build(struct iodfg_offsetmap *om, const struct iodfg_picture_input *in,
                          uint32_t path, struct iodfg_error *err);
/* The same, the cases counted and scanned on two threads from threads_from points (or events)
 * on (iodfg_offsetmap_build: from 65,536; tests use small values). The result is the same. */
int iodfg_offsetmap_build_split(struct iodfg_offsetmap *om, const struct iodfg_picture_input *in,
                                uint32_t path, uint64_t threads_from, struct iodfg_error *err);
/* The name of a case row (borrowed from om). */
const char *iodfg_offsetmap_case_name(const struct iodfg_offsetmap *om, uint32_t row);

/* The same numbers as text: TSV (a header line, then one line per point: case, band, op,
 * start_ns, dur_ns, offset, length, source, overlap) and JSON (meta, the file, its patterns per
 * case and overall, the unknown calls, overlaps and points). 0, or -1 when out of memory. */
int iodfg_offsetmap_tsv(struct iodfg_buf *out, const struct iodfg_offsetmap *om);
int iodfg_offsetmap_json(struct iodfg_buf *out, const struct iodfg_offsetmap *om,
                         const struct iodfg_picture_meta *meta);

#endif
