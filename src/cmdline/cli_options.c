/* SPDX-License-Identifier: MIT */
/* The options of every command that reads traces: name pattern, jobs, mount table, --align. */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "iodfg/casename.h"
#include "iodfg/error.h"

#include "cli.h"

const char cli_ingest_usage[] =
    "  -p, --name-pattern P    how trace file names give cid, host and rid: a\n"
    "                          template ('{cid}_{host}_{rid}.st', the default) or\n"
    "                          a PCRE2 regex with those named groups\n"
    "  -j, --jobs N            parse N trace files at a time (default: usable cores)\n"
    "      --mounts FILE       mount table (/proc/self/mounts format) giving each\n"
    "                          file's file system; default: mounts.txt beside the\n"
    "                          traces, else a built-in list\n";

int cli_opt_jobs(const char *s, unsigned *jobs)
{
    char *end;
    long v = strtol(s, &end, 10);
    if (*s == '\0' || *end != '\0' || v < 1 || v > 1024) {
        cli_errorf("--jobs expects a number from 1 to 1024, not '%s'", s);
        return CLI_USAGE;
    }
    *jobs = (unsigned)v;
    return 0;
}

int cli_opt_align(const char *s, int *align)
{
    if (strcmp(s, "start") != 0) {
        cli_errorf("--align expects 'start' (each case's times from its first event), not '%s'", s);
        return CLI_USAGE;
    }
    *align = 1;
    return 0;
}

int cli_opt_pattern(const char *s, const char **pattern)
{
    struct iodfg_error err;
    iodfg_error_clear(&err);
    struct iodfg_casename *cn = iodfg_casename_new(s, &err);
    if (!cn) {
        cli_error_caret(&err, s, strlen(s));
        return CLI_USAGE;
    }
    iodfg_casename_free(cn);
    *pattern = s;
    return 0;
}

int cli_ingest_option(int c, const char *arg, struct cli_ingest_opts *o)
{
    switch (c) {
    case 'p':
        return cli_opt_pattern(arg, &o->name_pattern) ? CLI_USAGE : 0;
    case 'j':
        return cli_opt_jobs(arg, &o->jobs) ? CLI_USAGE : 0;
    case CLI_OPT_MOUNTS:
        o->mounts = arg;
        return 0;
    default:
        return 1;
    }
}

int cli_ingest_other_option(int c, const char *arg, struct cli_ingest_opts *o,
                            void (*usage)(FILE *out))
{
    int rc = cli_ingest_option(c, arg, o);
    if (rc == 1) {
        usage(stderr);
    }
    return rc ? CLI_USAGE : 0;
}
