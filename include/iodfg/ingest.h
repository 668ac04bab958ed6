/* SPDX-License-Identifier: MIT */
/* Ingest: read many strace files in parallel and deliver one parsed case per file, in order. */
#ifndef IODFG_INGEST_H
#define IODFG_INGEST_H

#include <stddef.h>
#include <stdint.h>

#include "iodfg/strace.h"

struct iodfg_error;
struct iodfg_eventlog;
struct iodfg_casename;
struct iodfg_mounts;
struct iodfg_csv_columns;

/* What the ingest learned about one file, handed to the sink with its case. */
struct iodfg_ingest_file {
    const char *path;
    uint64_t index; /* position in the sorted input list */
    int named_by_pattern;
    struct iodfg_strace_result result;
};

/* Receives each file's case, in input order, on the calling thread. log holds one case (an
 * OTF2 archive: one per location; iodfg/otf2.h) with its own string pool; the sink reads or
 * appends it, and the ingest reuses its memory for a later file after the call. Return 0 to go on,
 * -1 (with err set) to stop. */
typedef int (*iodfg_case_fn)(void *ctx, const struct iodfg_eventlog *log,
                             const struct iodfg_ingest_file *file, struct iodfg_error *err);

/* Called on the calling thread now and then with bytes parsed so far and the total. */
typedef void (*iodfg_ingest_progress_fn)(void *ctx, uint64_t done, uint64_t total);

struct iodfg_ingest_opts {
    const struct iodfg_casename *names; /* required */
    unsigned jobs;                      /* worker threads; 0 = number of online cores */
    unsigned columns;                   /* enum iodfg_column mask of the per-file logs */
    iodfg_ingest_progress_fn progress;  /* may be NULL */
    void *progress_ctx;
    const struct iodfg_mounts *mounts;   /* classify each file's keys (iodfg/mounts.h); NULL: not */
    const struct iodfg_csv_columns *csv; /* columns of CSV event logs (iodfg/csvlog.h); NULL:
                                          * the usual header names */
};

/* One input file as iodfg_ingest_list found it. */
struct iodfg_input {
    char *path;      /* as found: the argument, or argument/dir/.../file */
    const char *rel; /* inside path: the part below the argument it was found in (the base name
                      * of a file given as an argument); --name-pattern may match it */
    char *name;      /* the case name: the base name without ".st"; where base names clash,
                      * rel without ".st"; where those clash too, the path without ".st" */
};

/* The input files, sorted by path, each once. */
struct iodfg_input_list {
    struct iodfg_input *files;
    size_t n;
    size_t dirs_again, files_again; /* reached again through links or mounts: read once */
    size_t renamed;                 /* files named by their directory too (base names clash) */
    size_t same_name;               /* files whose case name another file still has */
    size_t not_regular;     /* entries named like traces that are not regular files: skipped */
    char *not_regular_path; /* the first of them, for the note */
};

/* Expand the inputs: files are taken as given; directories are searched (recursively, hidden
 * entries skipped, each directory entered once) for files whose names end in ".st" or ".otf2"
 * or match the name pattern. Every file (device, inode) is kept once. 0, or -1 with err (a
 * missing input, a directory without traces, out of memory); release with
 * iodfg_ingest_list_fini. */
int iodfg_ingest_list(const char *const *inputs, size_t n, const struct iodfg_casename *names,
                      struct iodfg_input_list *out, struct iodfg_error *err);
void iodfg_ingest_list_fini(struct iodfg_input_list *l);
/* 0, or -1 with err set (naming output) when output exists and is one of l's files
 * (iodfg_atomic_not_input): a command with --force checks its output with it. */
int iodfg_ingest_list_check_output(const struct iodfg_input_list *l, const char *output,
                                   struct iodfg_error *err);

/* Parse the listed files with opts->jobs threads and call sink once per file, in list order.
 * Memory stays bounded by a few files at a time. A file that cannot be opened or read stops
 * the ingest with IODFG_E_IO naming it. */
int iodfg_ingest_run(const struct iodfg_input_list *files, const struct iodfg_ingest_opts *opts,
                     iodfg_case_fn sink, void *ctx, struct iodfg_error *err);

/* Parse one file into a new one-case log (used by the workers and by tests). */
struct iodfg_eventlog *iodfg_ingest_file(const struct iodfg_input *in,
                                         const struct iodfg_casename *names, unsigned columns,
                                         struct iodfg_ingest_file *info, struct iodfg_error *err);

#endif
