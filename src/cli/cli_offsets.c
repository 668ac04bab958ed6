/* SPDX-License-Identifier: MIT */
/* `iodfg offsets`: the offset map of one file (DXT Explorer's offset against time), one mark per
 * read or write at a known or inferred offset, the access patterns named, unknown offsets
 * counted and never drawn; as SVG, PNG, TSV or JSON, or the data files to choose from. */
#include "config.h"

#include <getopt.h>
#include <stdlib.h>
#include <string.h>

#include "iodfg/error.h"
#include "iodfg/eventlog.h"
#include "iodfg/offsetmap.h"
#include "iodfg/sanitize.h"
#include "iodfg/strpool.h"
#include "iodfg/svg.h"

#include "cli/cli_commands.h"
#include "cli/cli_picture.h"

struct offsets_opts {
    struct cli_picture_opts p;
    const char *file; /* --file PATH; NULL: the data file with the most bytes */
    int rw;           /* --color rw */
    int list;         /* --list-files */
    uint32_t max_points;
};

static const char usage_text[] =
    "usage: iodfg offsets [OPTIONS] LOG.h5|TRACES...\n"
    "The offset map of one file: offset against time, one mark per read or write at\n"
    "a known offset (pread/pwrite, or right after an lseek) or an inferred one\n"
    "(followed from the open or lseek and the sizes moved since); unknown offsets are\n"
    "counted, never drawn. Names each case's access pattern and the ranges that two\n"
    "cases or more write.\n"
    "\n"
    "      --file PATH         the file (default: the data file with the most bytes)\n"
    "      --list-files        list the data files of the selection, most bytes first\n"
    "                          (TSV: bytes, calls, path) instead of a picture\n"
    "      --color case|rw     colour the marks by case (default; up to 8 cases)\n"
    "                          or by read/write\n"
    "      --max-points N      marks drawn one by one per panel up to N, beyond on a\n"
    "                          grid of cells (default 20000)\n";

enum { OPT_FILE = 700, OPT_LIST, OPT_COLOR, OPT_MAX_POINTS };

static void usage(FILE *out)
{
    cli_usage_put(usage_text, out);
    fputs(cli_picture_usage, out);
    fputs(cli_analyze_usage, out);
}

static int option(void *ctx, int c, const char *arg)
{
    struct offsets_opts *o = ctx;
    char *end;
    long n;
    switch (c) {
    case OPT_FILE:
        o->file = arg;
        return 0;
    case OPT_LIST:
        o->list = 1;
        o->p.text_only = 1; // a TSV listing whatever --format says
        return 0;
    case OPT_COLOR:
        if (strcmp(arg, "case") && strcmp(arg, "rw")) {
            cli_errorf("--color takes case or rw, not '%s'", arg);
            return CLI_USAGE;
        }
        o->rw = strcmp(arg, "rw") == 0;
        return 0;
    case OPT_MAX_POINTS:
        n = strtol(arg, &end, 10);
        if (end == arg || *end || n < 1 || n > 10000000) {
            cli_errorf("--max-points takes 1 to 10000000, not '%s'", arg);
            return CLI_USAGE;
        }
        o->max_points = (uint32_t)n;
        return 0;
    default:
        return cli_picture_option(&o->p, c, arg);
    }
}

// The data files of the selection as TSV into b.
static int list_files(const struct cli_picture *p, struct iodfg_buf *b)
{
    struct iodfg_offsetmap_file *files = NULL;
    size_t n = 0;
    struct iodfg_error err;
    iodfg_error_clear(&err);
    if (iodfg_offsetmap_files(&p->in, &files, &n, &err)) {
        cli_error(&err);
        return CLI_FAIL;
    }
    const struct iodfg_strpool *pool = iodfg_eventlog_pool(p->ca.log);
    iodfg_buf_addf(b, "bytes\tcalls\tpath\n");
    for (size_t i = 0; i < n; i++) {
        const char *path = iodfg_strpool_get(pool, files[i].path);
        iodfg_buf_addf(b, "%lld\t%llu\t", (long long)files[i].bytes,
                       (unsigned long long)files[i].calls);
        iodfg_sanitize_tsv(b, path, strlen(path));
        iodfg_buf_add(b, "\n", 1);
    }
    free(files);
    return CLI_OK;
}

// --file as a string id of the log's pool: CLI_OK, or CLI_USAGE when the log has no such path.
static int file_id(const struct offsets_opts *o, const struct cli_picture *p, uint32_t *path)
{
    *path = UINT32_MAX;
    if (!o->file) {
        return CLI_OK;
    }
    const struct iodfg_strpool *pool = iodfg_eventlog_pool(p->ca.log);
    if (iodfg_strpool_find(pool, o->file, strlen(o->file), path) != 0) {
        cli_errorf("--file: the log has no file '%s' ('iodfg offsets --list-files' lists the "
                   "data files)",
                   o->file);
        return CLI_USAGE;
    }
    return CLI_OK;
}

static int report(const void *ctx, struct cli_picture *p, struct iodfg_buf *b)
{
    const struct offsets_opts *o = ctx;
    if (o->list) {
        return list_files(p, b);
    }
    uint32_t path;
    int rc = file_id(o, p, &path);
    if (rc != CLI_OK) {
        return rc;
    }
    if (p->win_to > p->win_from) { // the window: the points that start in it
        p->sel.from_ns = p->win_from > p->sel.from_ns ? p->win_from : p->sel.from_ns;
        p->sel.to_ns = p->win_to < p->sel.to_ns ? p->win_to : p->sel.to_ns;
    }
    struct iodfg_offsetmap om;
    iodfg_offsetmap_init(&om);
    struct iodfg_error err;
    iodfg_error_clear(&err);
    rc = iodfg_offsetmap_build(&om, &p->in, path, &err);
    if (rc == 0) {
        struct iodfg_svg_opts so;
        iodfg_svg_opts_init(&so);
        so.width = o->p.width;
        so.max_points = o->max_points;
        so.offsets_rw = o->rw;
        enum cli_picture_format f = o->p.format;
        rc = f == CLI_PIC_TSV    ? iodfg_offsetmap_tsv(b, &om)
             : f == CLI_PIC_JSON ? iodfg_offsetmap_json(b, &om, &p->meta)
                                 : iodfg_svg_offsets(b, &om, &p->meta, &so);
        if (rc) {
            iodfg_error_set(&err, IODFG_E_NOMEM, NULL);
        }
    }
    iodfg_offsetmap_fini(&om);
    if (rc) {
        cli_error(&err);
        return CLI_FAIL;
    }
    return CLI_OK;
}

int cli_offsets(int argc, char **argv)
{
    static const struct option own[] = {
        CLI_PICTURE_LONGOPTS,
        {"file", required_argument, NULL, OPT_FILE},
        {"list-files", no_argument, NULL, OPT_LIST},
        {"color", required_argument, NULL, OPT_COLOR},
        {"colour", required_argument, NULL, OPT_COLOR},
        {"max-points", required_argument, NULL, OPT_MAX_POINTS},
        {NULL, 0, NULL, 0},
    };
    static const struct cli_picture_cmd cmd = {"offsets", usage_text, usage, own,
                                               option,    report,     0};
    struct offsets_opts o = {.max_points = 0};
    return cli_picture_main(&cmd, &o.p, &o, argc, argv);
}
