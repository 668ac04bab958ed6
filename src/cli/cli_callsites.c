/* SPDX-License-Identifier: MIT */
/* `iodfg callsites`: which function of the traced program issued each activity's I/O, from the
 * strace -k stacks in the log, with file:line from the program's debug information. */
#include "config.h"

#include <getopt.h>
#include <stdlib.h>
#include <string.h>

#include "iodfg/callsites.h"
#include "iodfg/error.h"
#include "iodfg/eventlog.h"
#include "iodfg/report_callsites.h"
#include "iodfg/session.h"
#include "iodfg/srcline.h"
#include "iodfg/stacks.h"
#include "iodfg/strpool.h"

#include "cli/cli_commands.h"
#include "cmdline/cli_analyze.h"

struct cs_opts {
    struct cli_analyze_opts a;
    enum cli_format format;
    const char *symbols; /* --symbols DIR */
};

/* file:line of every frame that is a call site of some row (src: frames + 1 entries). */
static void find_lines(struct iodfg_srcline *sl, const struct iodfg_eventlog *log,
                       const struct iodfg_callsites *const *cs, int ngroups,
                       struct iodfg_report_srcline *src)
{
    const struct iodfg_stacks *st = iodfg_eventlog_stacks(log);
    const struct iodfg_frame *fr = iodfg_stacks_frames(st);
    const struct iodfg_strpool *pool = iodfg_eventlog_pool(log);
    uint32_t nf = iodfg_stacks_frame_count(st);
    for (int g = 0; g < ngroups; g++) {
        for (size_t i = 0; i < cs[g]->nrows; i++) {
            uint32_t s = cs[g]->rows[i].site;
            if (s == 0 || s > nf || src[s].file || src[s].line < 0) {
                continue;
            }
            const struct iodfg_frame *f = &fr[s - 1];
            if (f->flags & IODFG_FRAME_SOURCE) { // OTF2: the trace's own file and line
                src[s].file = f->address ? iodfg_strpool_get(pool, f->object) : NULL;
                src[s].line = f->address && f->address <= INT32_MAX ? (int)f->address : -1;
                continue;
            }
            // a call site is never a stack's innermost frame (that is the system call's)
            if (!iodfg_srcline_lookup(sl, iodfg_strpool_get(pool, f->object), f->address, 1,
                                      &src[s].file, &src[s].line)) {
                src[s].line = -1; // looked up: unknown
            }
        }
    }
    for (uint32_t s = 0; s <= nf; s++) {
        if (!src[s].file) {
            src[s].line = 0;
        }
    }
}

static int report(const void *ctx, const struct cli_metrics *m, struct iodfg_buf *b)
{
    const struct cs_opts *o = ctx;
    struct iodfg_error err;
    iodfg_error_clear(&err);
    uint32_t *site = NULL;
    struct iodfg_callsites cs[2];
    const struct iodfg_callsites *csp[2] = {&cs[0], &cs[1]};
    iodfg_callsites_init(&cs[0]);
    iodfg_callsites_init(&cs[1]);
    const struct iodfg_focus *focus = iodfg_session_focus_rules(m->ses, &err);
    int rc = !focus || iodfg_callsites_resolve(focus, m->log, &site, &err) ? -1 : 0;
    for (int g = 0; rc == 0 && g < m->ngroups; g++) {
        rc = iodfg_callsites_build(&cs[g], m->log, m->map, &m->sel[g], site, &err);
    }
    uint32_t nf = iodfg_stacks_frame_count(iodfg_eventlog_stacks(m->log));
    struct iodfg_report_srcline *src = calloc((size_t)nf + 1, sizeof(*src));
    struct iodfg_srcline *sl = iodfg_srcline_new(o->symbols);
    if (rc == 0 && (!src || !sl)) {
        rc = iodfg_error_set(&err, IODFG_E_NOMEM, NULL);
    }
    if (rc == 0) {
        find_lines(sl, m->log, csp, m->ngroups, src);
        struct iodfg_report_callsites r = {.log = m->log,
                                           .map = m->map,
                                           .cs = {csp[0], csp[1]},
                                           .ngroups = m->ngroups,
                                           .src = src,
                                           .libdw = iodfg_srcline_available()};
        rc = o->format == CLI_FMT_TABLE ? iodfg_report_table_callsites(b, &r, &err)
             : o->format == CLI_FMT_TSV ? iodfg_report_tsv_callsites(b, &r, &err)
                                        : iodfg_report_json_callsites(b, &r, &err);
    }
    if (rc) {
        cli_error(&err);
    }
    iodfg_srcline_free(sl); // the files of src live in it
    free(src);
    free(site);
    iodfg_callsites_fini(&cs[0]);
    iodfg_callsites_fini(&cs[1]);
    return rc ? CLI_FAIL : CLI_OK;
}

static const char usage_text[] =
    "usage: iodfg callsites [OPTIONS] LOG.h5|TRACES...\n"
    "Per activity, the call sites that issued its events: the innermost frame of the\n"
    "traced program's own code in each event's stack (record with strace -f -k ...;\n"
    "libraries, the loader and MPI are told apart by the focus rules), with its\n"
    "file:line from the program's debug information, calls, time, bytes and cases,\n"
    "ranked by time. With --green/--red, the sites only one group has are marked.\n"
    "\n"
    "      --symbols DIR       look for programs and libraries that moved since the\n"
    "                          trace in DIR (by base name, then by traced path)\n"
    "      --format F          table (default), tsv or json\n";

enum { OPT_FORMAT = 512, OPT_SYMBOLS };

static void usage(FILE *out)
{
    cli_usage_put(usage_text, out);
    fputs(cli_analyze_usage, out);
}

static int option(void *ctx, int c, const char *arg)
{
    struct cs_opts *o = ctx;
    switch (c) {
    case OPT_FORMAT:
        return cli_format_parse(arg, &o->format);
    case OPT_SYMBOLS:
        o->symbols = arg;
        return 0;
    default:
        return cli_analyze_option(&o->a, c, arg);
    }
}

int cli_callsites(int argc, char **argv)
{
    static const struct option own[] = {
        {"format", required_argument, NULL, OPT_FORMAT},
        {"symbols", required_argument, NULL, OPT_SYMBOLS},
        {"help", no_argument, NULL, 'h'},
        {NULL, 0, NULL, 0},
    };
    struct cs_opts o = {.format = CLI_FMT_TABLE};
    int rc = cli_analyze_opts_init(&o.a)
                 ? CLI_FAIL
                 : cli_analyze_getopt(argc, argv, own, option, &o, usage, "callsites");
    if (rc == CLI_OK) {
        rc = cli_analyze_ready(&o.a, argv, optind, argc, "callsites needs an event log or traces",
                               usage_text);
    }
    if (rc == CLI_OK) {
        rc = cli_metrics_command(&o.a, 0, report, &o);
    }
    cli_analyze_opts_fini(&o.a);
    return rc < 0 ? CLI_OK : rc; // -1: --help
}
