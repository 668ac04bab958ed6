/* SPDX-License-Identifier: MIT */
/* `iodfg convert`: strace files -> one HDF5 event log, written atomically. */
#include "config.h"

#include "cli_convert.h"

#include <getopt.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "iodfg/atomicfile.h"
#include "iodfg/casename.h"
#include "iodfg/csvlog.h"
#include "iodfg/error.h"
#include "iodfg/ingest.h"
#include "iodfg/mounts.h"
#include "iodfg/report.h"
#include "iodfg/store.h"

#include "cli_progress.h"
#include "cli_tempfile.h"

static const char convert_usage[] =
    "usage: iodfg convert [-o OUT.h5] [--name-pattern P] [--jobs N] [--force]\n"
    "                     [--strict] [--case-views] [--csv-columns MAP] [--quiet]\n"
    "                     FILES|DIRS...\n"
    "Parse strace output files (one per process/rank), OTF2 archives or CSV event\n"
    "logs into one HDF5 event log.\n"
    "  -o, --output FILE       output file (default: DIR.h5 for one directory, else\n"
    "                          eventlog.h5)\n"
    "  -p, --name-pattern P    how file names give cid (the run), host and rid (the\n"
    "                          rank's process): a template like 'stio.{rid}.{host}.\n"
    "                          {cid}.st' or a PCRE2 regex with those named groups;\n"
    "                          with a '/' it matches the path below the directory\n"
    "                          given: '{cid}/stio.{rid}.{host}.st' (default:\n"
    "                          {cid}_{host}_{rid}.st)\n"
    "  -j, --jobs N            parse N files at a time (default: usable cores)\n"
    "  -f, --force             replace OUT if it exists\n"
    "      --strict            exit with status 3 if any line could not be parsed\n"
    "      --mounts FILE       mount table (cat /proc/self/mounts) giving each file's\n"
    "                          file system and scope; default: mounts.txt beside the\n"
    "                          traces, else a built-in list of well-known prefixes\n"
    "      --case-views        also give each case group a virtual dataset per column\n"
    "                          (its rows of /events), for tools that want one table\n"
    "                          per case; iodfg does not need them (0.6 ms a case)\n"
    "      --csv-columns MAP   columns of CSV event logs given as FILE.csv, as\n"
    "                          ROLE=HEADER pairs: 'case=rank,call=op,start=t,\n"
    "                          duration=dt' (roles: case activity call path start\n"
    "                          end duration bytes pid fd result offset requested cid\n"
    "                          host rid clock; default: the usual names, doc/\n"
    "                          interchange.md)\n"
    "  -q, --quiet             no progress bar and no summary\n";

static void default_output(char *out, size_t size, char *const *inputs, int n)
{
    if (n == 1) {
        size_t len = strlen(inputs[0]);
        while (len > 1 && inputs[0][len - 1] == '/') {
            len--;
        }
        const char *base = inputs[0];
        for (size_t i = 0; i < len; i++) {
            if (inputs[0][i] == '/' && i + 1 < len) {
                base = inputs[0] + i + 1;
            }
        }
        size_t blen = len - (size_t)(base - inputs[0]);
        if (blen > 3 && memcmp(base + blen - 3, ".st", 3) == 0) {
            blen -= 3;
        }
        if (blen && !(blen == 1 && base[0] == '.') && !(blen == 2 && base[0] == '.')) {
            snprintf(out, size, "%.*s.h5", (int)blen, base);
            return;
        }
    }
    snprintf(out, size, "eventlog.h5");
}

struct convert_ctx {
    struct iodfg_store_writer *w;
    struct cli_ingest_totals totals;
    uint64_t cases; // an OTF2 archive holds several
};

static int write_case(void *ctx, const struct iodfg_eventlog *one,
                      const struct iodfg_ingest_file *file, struct iodfg_error *err)
{
    struct convert_ctx *cc = ctx;
    cli_totals_add(&cc->totals, file->path, &file->result, file->named_by_pattern);
    cc->cases += iodfg_eventlog_case_count(one);
    return iodfg_store_write_cases(cc->w, one, err);
}

static double now_s(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + ts.tv_nsec / 1e9;
}

void cli_convert_stale_note(void *ctx, const struct iodfg_stale_temp *t)
{
    (void)ctx;
    char size[32];
    cli_bytes(size, sizeof(size), (double)t->bytes);
    if (t->removed) {
        cli_errorf("note: removed %s (%s), left by a convert (process %ld) that was killed",
                   t->path, size, t->pid);
    } else {
        cli_errorf("note: %s (%s) looks like the temporary file of an interrupted convert; "
                   "remove it if no convert is writing it",
                   t->path, size);
    }
}

int cli_convert_report(const struct cli_convert_opts *o, const struct cli_ingest_totals *t,
                       uint64_t cases, double seconds)
{
    if (!o->in.quiet) {
        cli_totals_print(stdout, t);
        char a[32];
        printf("Wrote %s: %llu case%s in %.2f s (%s lines/s); file systems from %s.\n", o->out,
               (unsigned long long)cases, cases == 1 ? "" : "s", seconds,
               iodfg_report_count(a, sizeof(a), seconds > 0 ? (uint64_t)(t->lines / seconds) : 0),
               t->mounts);
    }
    return o->strict && t->counts[IODFG_COUNT_UNPARSABLE] ? CLI_SKIPPED : CLI_OK;
}

static int run(const struct cli_convert_opts *co, char *const *inputs, int n)
{
    const char *out = co->out;
    const struct cli_ingest_opts *o = &co->in;
    struct iodfg_error err;
    iodfg_error_clear(&err);
    double t0 = now_s();
    struct iodfg_casename *names = cli_check_inputs(inputs, (size_t)n, 0, &err)
                                       ? NULL
                                       : iodfg_casename_new(o->name_pattern, &err);
    struct iodfg_input_list files;
    int listed = names && iodfg_ingest_list((const char *const *)inputs, (size_t)n, names, &files,
                                            &err) == 0;
    if (listed) {
        cli_list_notes(&files, o->quiet);
    }
    if (listed && co->force && iodfg_ingest_list_check_output(&files, out, &err)) {
        iodfg_ingest_list_fini(&files);
        listed = 0;
    }
    struct convert_ctx cc;
    memset(&cc, 0, sizeof(cc));
    struct iodfg_mounts *mounts =
        listed ? cli_mounts_open(inputs, (size_t)n, o->mounts, cc.totals.mounts,
                                 sizeof(cc.totals.mounts), &err)
               : NULL;
    if (mounts) {
        struct iodfg_error ignored; // an unreadable directory fails at the create just below
        iodfg_atomic_clean_stale(out, cli_convert_stale_note, NULL, &ignored);
    }
    cli_temp_hold();
    cc.w = mounts ? iodfg_store_create(out, co->force, &err) : NULL;
    int rc = CLI_FAIL;
    if (cc.w && iodfg_store_set_case_views(cc.w, co->views, &err)) {
        iodfg_store_abort(cc.w);
        cc.w = NULL;
    }
    if (cc.w) {
        cli_temp_guard(iodfg_store_temp_path(cc.w));
        struct iodfg_ingest_opts io = {.names = names,
                                       .jobs = o->jobs,
                                       .columns = IODFG_COL_ALL,
                                       .progress = o->quiet ? NULL : cli_progress,
                                       .mounts = mounts,
                                       .csv = o->csv};
        if (iodfg_ingest_run(&files, &io, write_case, &cc, &err) == 0 && cc.totals.events == 0) {
            cli_progress_end();
            iodfg_store_abort(cc.w);
            if (!o->quiet) {
                cli_totals_print(stderr, &cc.totals);
            }
            iodfg_error_set(&err, IODFG_E_ARG,
                            "no system-call event in any input: %s not written (are these strace "
                            "logs?)",
                            out);
        } else if (err.code == IODFG_OK) {
            cli_progress_end();
            rc = iodfg_store_commit(cc.w, &err) == 0 ? CLI_OK : CLI_FAIL;
        } else {
            cli_progress_end();
            iodfg_store_abort(cc.w);
        }
    }
    cli_temp_forget();
    if (rc != CLI_OK) {
        cli_error(&err);
    } else {
        rc = cli_convert_report(co, &cc.totals, cc.cases, now_s() - t0);
    }
    if (listed) {
        iodfg_ingest_list_fini(&files);
    }
    iodfg_casename_free(names);
    iodfg_mounts_free(mounts);
    return rc;
}

static void usage(FILE *out)
{
    cli_usage_put(convert_usage, out);
}

int cli_convert_getopt(int argc, char **argv, struct cli_convert_opts *co, int *first)
{
    static const struct option longopts[] = {
        {"output", required_argument, NULL, 'o'},
        {"force", no_argument, NULL, 'f'},
        {"strict", no_argument, NULL, 'S'},
        {"quiet", no_argument, NULL, 'q'},
        {"help", no_argument, NULL, 'h'},
        {"case-views", no_argument, NULL, 'V'},
        {"csv-columns", required_argument, NULL, 'C'},
        CLI_INGEST_LONGOPTS,
        {NULL, 0, NULL, 0},
    };
    memset(co, 0, sizeof(*co));
    struct cli_ingest_opts *o = &co->in;
    int c;
    optind = 0; // glibc starts afresh (a batch runs commands one after another)
    while ((c = getopt_long(argc, argv, "o:p:j:fqh", longopts, NULL)) != -1) {
        switch (c) {
        case 'o':
            co->out = optarg;
            break;
        case 'f':
            co->force = 1;
            break;
        case 'S':
            co->strict = 1;
            break;
        case 'V':
            co->views = 1;
            break;
        case 'C': {
            struct iodfg_error err;
            iodfg_error_clear(&err);
            if (iodfg_csv_columns_parse(&co->csv, optarg, &err)) {
                cli_error_caret(&err, optarg, strlen(optarg));
                return CLI_USAGE;
            }
            o->csv = &co->csv;
            break;
        }
        case 'q':
            o->quiet = 1;
            break;
        case 'h':
            usage(stdout);
            return -1;
        default:
            if (cli_ingest_other_option(c, optarg, o, usage)) {
                return CLI_USAGE;
            }
        }
    }
    if (cli_need_inputs(optind, argc, "convert needs trace files or directories", convert_usage)) {
        return CLI_USAGE;
    }
    if (!co->out) {
        default_output(co->def, sizeof(co->def), argv + optind, argc - optind);
        co->out = co->def;
    }
    *first = optind;
    return CLI_OK;
}

int cli_convert(int argc, char **argv)
{
    struct cli_convert_opts o;
    int first = 0;
    int rc = cli_convert_getopt(argc, argv, &o, &first);
    if (rc) {
        return rc < 0 ? CLI_OK : rc;
    }
    return run(&o, argv + first, argc - first);
}
