/* SPDX-License-Identifier: MIT */
/* Access patterns: consecutive / sequential / random reads and writes from file offsets, and
 * power-of-two request-size histograms (Darshan-style), per activity and per (case, file). */
#ifndef IODFG_ACCESS_H
#define IODFG_ACCESS_H

#include <stddef.h>
#include <stdint.h>

struct iodfg_cancel;
struct iodfg_error;
struct iodfg_eventlog;
struct iodfg_mapping;
struct iodfg_selection;

/* Size bins: bin 0 holds size 0, bin b >= 1 holds [2^(b-1), 2^b). */
#define IODFG_ACCESS_BINS 64

/* One direction (read or write; index IODFG_DIR_* of metrics.h). An access at offset o with the
 * previous access of the same direction on the same (case, pid, fd) stream ending at p (0 for
 * the first) is consecutive when o = p, sequential when o > p, random when o < p; unknown when
 * o cannot be told (no open/lseek seen before a read/write). */
struct iodfg_access_dir {
    uint64_t ops, consecutive, sequential, random, unknown;
    uint64_t unaligned; /* known offset not a multiple of the alignment */
    /* of the accesses with an offset: those whose offset is inferred from the open and the
     * sizes read or written, in a case whose trace holds no lseek at all (a seek of the
     * program would not have been traced: their pattern may be wrong) */
    uint64_t inferred;
    int64_t bytes;
    uint64_t hist[IODFG_ACCESS_BINS];
};
struct iodfg_access_row {
    struct iodfg_access_dir dir[2];
};
struct iodfg_access_file {
    uint32_t case_idx, path; /* case of the log; path string id in the log's pool */
    struct iodfg_access_row row;
};

struct iodfg_access {
    uint32_t nactivities;
    struct iodfg_access_row *act; /* per activity */
    struct iodfg_access_row overall;
    size_t nfiles;
    struct iodfg_access_file *files; /* by case, then first access */
    int64_t alignment;
    /* The names of the files' rows when they come from other logs (an MPI job's rows gathered on
     * one process): case, then path, per row; the strings lie in names_bytes. Both owned (freed by
     * iodfg_access_fini); NULL: the rows name cases and paths of the log they were built from. */
    const char **names;
    char *names_bytes;
};

void iodfg_access_init(struct iodfg_access *ac);
void iodfg_access_fini(struct iodfg_access *ac);
/* The case's and the file's names of per-file row i: from ac->names when set, else from log (the
 * log the rows were built from). Borrowed. */
void iodfg_access_file_names(const struct iodfg_access *ac, const struct iodfg_eventlog *log,
                             size_t i, const char **case_name, const char **path);
/* Track file positions through every event of the selected cases (open/openat/creat set 0,
 * lseek sets the offset column's result, read/write advance by their size, p* calls use their
 * offset column, close forgets) and count the selected reads and writes (window, mapped keys)
 * with a known size. alignment (bytes, > 0; e.g. 4096) judges unaligned offsets. 0 or -1 with
 * err (out of memory; the log lacks the offset, fd or pid column: load it with them;
 * IODFG_E_CANCELLED when cancel was set: cancel.h). */
int iodfg_access_build(struct iodfg_access *ac, const struct iodfg_eventlog *log,
                       const struct iodfg_mapping *map, const struct iodfg_selection *sel,
                       int64_t alignment, const struct iodfg_cancel *cancel,
                       struct iodfg_error *err);

/* The access offset of every event of case c into out[e - first event of c]: the offset of a
 * successful read or write when its position is known (tracked as iodfg_access_build does),
 * IODFG_UNKNOWN otherwise. key_flags as from iodfg_metrics_key_flags. 0 or -1 (out of memory).
 * The log needs the key, offset, size, fd and pid columns. */
int iodfg_access_case_offsets(const struct iodfg_eventlog *log, const uint8_t *key_flags,
                              uint32_t c, int64_t *out);

/* Add d's counts, bytes and histogram to to. */
void iodfg_access_dir_add(struct iodfg_access_dir *to, const struct iodfg_access_dir *d);

/* Bin of a size (negative sizes go to bin 0), and the bin's range [*lo, *hi). */
unsigned iodfg_access_bin(int64_t size);
void iodfg_access_bin_range(unsigned bin, int64_t *lo, int64_t *hi);
/* The nearest-rank median request size from a histogram: the lower edge of its bin (-1 when
 * empty). */
int64_t iodfg_access_median_bin(const struct iodfg_access_dir *d);

#endif
