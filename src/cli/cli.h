/* SPDX-License-Identifier: MIT */
/* Shared pieces of the iodfg command line: exit codes, subcommands, log loading, output. */
#ifndef IODFG_CLI_H
#define IODFG_CLI_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "iodfg/eventlog.h"

struct iodfg_error;
struct iodfg_strace_result;

/* Exit statuses (documented in iodfg.1). */
enum cli_exit {
    CLI_OK = 0,
    CLI_FAIL = 1,    /* input could not be read, output not written, damaged log */
    CLI_USAGE = 2,   /* bad command line */
    CLI_SKIPPED = 3, /* --strict and some input lines were unparsable */
};

/* Each subcommand: argv[0] is the subcommand name. Returns an enum cli_exit. */
int cli_convert(int argc, char **argv);
int cli_info(int argc, char **argv);

/* Print "iodfg: <formatted error>" to stderr. */
void cli_error(const struct iodfg_error *err);
/* Print "iodfg: <printf text>" to stderr. */
void cli_errorf(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

/* Options for reading traces, shared by every command that accepts them. */
struct cli_ingest_opts {
    const char *name_pattern;
    unsigned jobs;
    int quiet;
};

/* Totals of an ingest, for the closing summary. */
struct cli_ingest_totals {
    uint64_t files, lines, bytes, events, by_pattern;
    uint64_t counts[IODFG_COUNT__N];
    char first_problem[512]; /* "file:line:col: what was expected" of the first bad line */
    uint64_t files_without_events;
};

/* Load an event log: one .h5 file, or trace files/directories converted in memory. */
struct iodfg_eventlog *cli_load(char *const *inputs, size_t n, unsigned columns,
                                const struct cli_ingest_opts *o, struct cli_ingest_totals *totals,
                                struct iodfg_error *err);

/* Fold one file's parse result into the totals. */
void cli_totals_add(struct cli_ingest_totals *t, const char *path,
                    const struct iodfg_strace_result *r, int by_pattern);
/* Write the closing summary paragraph of an ingest. */
void cli_totals_print(FILE *out, const struct cli_ingest_totals *t);

/* Progress bar on stderr (only when it is a terminal): bytes done of total. */
void cli_progress(void *ctx, uint64_t done, uint64_t total);
void cli_progress_end(void);

/* "1,234,567" into buf. */
const char *cli_count(char *buf, size_t size, uint64_t v);
/* "12.3 MiB" into buf. */
const char *cli_bytes(char *buf, size_t size, double v);
/* Parse a --jobs value into *jobs: 0, or CLI_USAGE after saying what is wrong. */
int cli_opt_jobs(const char *s, unsigned *jobs);
/* CLI_USAGE after saying the command needs inputs (and its usage) when none follow
 * the options; 0 otherwise. */
int cli_need_inputs(int optind_, int argc, const char *what, const char *usage);

#endif
