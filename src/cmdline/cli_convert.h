/* SPDX-License-Identifier: MIT */
/* What `iodfg convert` shares with iodfg-mpi convert: its command line and closing summary. */
#ifndef IODFG_CLI_CONVERT_H
#define IODFG_CLI_CONVERT_H

#include <stdint.h>

#include "iodfg/csvlog.h"

#include "cli.h"

struct iodfg_stale_temp;

/* convert's command line (cli_convert.c). */
struct cli_convert_opts {
    struct cli_ingest_opts in;
    const char *out; /* -o, or def */
    int force, strict, views;
    struct iodfg_csv_columns csv; /* --csv-columns, in.csv points here */
    char def[4096];               /* the default output name */
};
/* Parse convert's options; the inputs start at argv[*first]. CLI_OK to go on, -1 after --help
 * printed usage, else CLI_USAGE after saying what is wrong. */
int cli_convert_getopt(int argc, char **argv, struct cli_convert_opts *o, int *first);
/* The closing summary of a convert that wrote o->out (unless quiet), and its exit status
 * (CLI_SKIPPED with --strict when lines were unparsable). */
int cli_convert_report(const struct cli_convert_opts *o, const struct cli_ingest_totals *t,
                       uint64_t cases, double seconds);
/* A temp file a killed convert left beside the output: say it was removed (its process is
 * gone), or name it (an iodfg_stale_fn). */
void cli_convert_stale_note(void *ctx, const struct iodfg_stale_temp *t);

#endif
