/* SPDX-License-Identifier: MIT */
/* `iodfg handles`: every I/O handle of a log with its lifetime, file, flags, traffic. */
#include "config.h"

#include <errno.h>
#include <getopt.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "iodfg/buf.h"
#include "iodfg/error.h"
#include "iodfg/eventlog.h"
#include "iodfg/handles.h"
#include "iodfg/sanitize.h"
#include "iodfg/strpool.h"

#include "cli.h"

static const char handles_usage[] =
    "usage: iodfg handles [--format table|tsv|json] [--open] [--case NAME]\n"
    "                     [--name-pattern P] [--jobs N] [--mounts FILE]\n"
    "                     LOG.h5|FILES|DIRS...\n"
    "List the I/O handles (file descriptors) of an event log: origin (open, dup,\n"
    "precreated, inherited), parent, path, open flags, creation and destruction\n"
    "time, operations, bytes.\n"
    "Times are seconds since the start of the log; '-' = not in the trace\n"
    "(pre-created, or never closed).\n"
    "      --format F          table (default), tsv or json\n"
    "      --open              only the handles never closed\n"
    "      --case NAME         only the handles of this case\n";

static void usage(FILE *out)
{
    fputs(handles_usage, out);
    fputs(cli_ingest_usage, out);
}

struct hview {
    const struct iodfg_eventlog *log;
    const struct iodfg_strpool *pool;
    int64_t t0;
};

static const char *str(const struct hview *v, uint32_t id)
{
    return iodfg_strpool_get(v->pool, id);
}

static void add_time(struct iodfg_buf *b, const struct hview *v, int64_t t, const char *none,
                     int width)
{
    if (t == IODFG_UNKNOWN) {
        iodfg_buf_addf(b, "%*s", width, none);
    } else {
        iodfg_buf_addf(b, "%*.6f", width, (double)(t - v->t0) / 1e9);
    }
}

static void add_mode(struct iodfg_buf *b, int64_t mode, const char *none)
{
    if (mode == IODFG_UNKNOWN) {
        iodfg_buf_addf(b, "%s", none);
    } else {
        iodfg_buf_addf(b, "0%03llo", (unsigned long long)mode);
    }
}

static const char *case_name(const struct hview *v, uint32_t cs)
{
    const struct iodfg_case_info *ci = iodfg_eventlog_case(v->log, cs);
    return ci ? str(v, ci->name) : "?";
}

/* An untrusted text field: a table cell (cut, padded to width) or a TSV field, then sep. */
static void text_field(struct iodfg_buf *b, const char *s, int table, int width, const char *sep)
{
    if (table) {
        cli_cell_text(b, s, strlen(s), CLI_CELL_MAX, width);
    } else {
        iodfg_sanitize_tsv(b, s, strlen(s));
    }
    iodfg_buf_addf(b, "%s", sep);
}

static void row_tsv(struct iodfg_buf *b, const struct hview *v, uint32_t id,
                    const struct iodfg_handle *h, int table)
{
    const char *sep = table ? "  " : "\t";
    iodfg_buf_addf(b, table ? "%5u%s" : "%u%s", id, sep);
    text_field(b, case_name(v, h->case_id), table, 14, sep);
    iodfg_buf_addf(b, table ? "%7d%s%4d%s%-10s%s%6u%s" : "%d%s%d%s%s%s%u%s", h->pid, sep, h->fd,
                   sep, iodfg_handle_origin_name((enum iodfg_handle_origin)h->origin), sep,
                   h->parent, sep);
    const char *layer = str(v, h->layer)[0] ? str(v, h->layer) : IODFG_LAYER_DEFAULT;
    text_field(b, layer, table, 8, sep);
    if (!table) {
        text_field(b, str(v, h->call), 0, 0, sep);
        text_field(b, str(v, h->flags), 0, 0, sep);
        add_mode(b, h->mode, "");
        iodfg_buf_addf(b, "%s", sep);
    }
    add_time(b, v, h->created_ns, table ? "-" : "", table ? 10 : 0);
    iodfg_buf_addf(b, "%s", sep);
    add_time(b, v, h->destroyed_ns, table ? "-" : "", table ? 10 : 0);
    iodfg_buf_addf(b,
                   table ? "%s%6" PRIu64 "%s%10" PRIu64 "%s%10" PRIu64 "%s"
                         : "%s%" PRIu64 "%s%" PRIu64 "%s%" PRIu64 "%s",
                   sep, h->ops, sep, h->bytes_read, sep, h->bytes_written, sep);
    text_field(b, str(v, h->path), table, 0, "\n");
}

static void row_json(struct iodfg_buf *b, const struct hview *v, uint32_t id,
                     const struct iodfg_handle *h, int first)
{
    iodfg_buf_addf(b, "%s\n    {\"id\": %u, \"case\": ", first ? "" : ",", id);
    iodfg_json_cstr(b, case_name(v, h->case_id));
    iodfg_buf_addf(
        b, ", \"pid\": %d, \"fd\": %d, \"origin\": \"%s\", \"parent\": %u, \"layer\": ", h->pid,
        h->fd, iodfg_handle_origin_name((enum iodfg_handle_origin)h->origin), h->parent);
    iodfg_json_cstr(b, str(v, h->layer)[0] ? str(v, h->layer) : IODFG_LAYER_DEFAULT);
    iodfg_buf_addf(b, ", \"call\": ");
    iodfg_json_cstr(b, str(v, h->call));
    iodfg_buf_addf(b, ", \"path\": ");
    iodfg_json_cstr(b, str(v, h->path));
    iodfg_buf_addf(b, ", \"flags\": ");
    iodfg_json_cstr(b, str(v, h->flags));
    if (h->mode == IODFG_UNKNOWN) { // JSON has no octal numbers: the mode is a string
        iodfg_buf_addf(b, ", \"mode\": null");
    } else {
        iodfg_buf_addf(b, ", \"mode\": \"0%03llo\"", (unsigned long long)h->mode);
    }
    iodfg_buf_addf(b, ", \"created\": ");
    add_time(b, v, h->created_ns, "null", 0);
    iodfg_buf_addf(b, ", \"destroyed\": ");
    add_time(b, v, h->destroyed_ns, "null", 0);
    iodfg_buf_addf(b,
                   ", \"closed\": %s, \"ops\": %" PRIu64 ", \"bytes_read\": %" PRIu64
                   ", \"bytes_written\": %" PRIu64 "}",
                   h->destroyed_ns != IODFG_UNKNOWN ? "true" : "false", h->ops, h->bytes_read,
                   h->bytes_written);
}

struct hopts {
    enum cli_format format;
    int open_only;
    const char *case_name;
};

/* The selected handles' ids into *ids (malloc'd) with their summary; -1 when out of memory. */
static int select_handles(const struct hview *v, const struct hopts *o, uint32_t **ids, uint32_t *n,
                          struct iodfg_handle_summary *sum)
{
    uint32_t nc = iodfg_eventlog_case_count(v->log);
    uint8_t *case_on = NULL;
    *ids = malloc(((size_t)iodfg_eventlog_handle_count(v->log) + 1) * sizeof(**ids));
    if (o->case_name) {
        case_on = malloc((size_t)nc + 1);
        for (uint32_t c = 0; case_on && c < nc; c++) {
            case_on[c] = strcmp(case_name(v, c), o->case_name) == 0;
        }
    }
    if (!*ids || (o->case_name && !case_on)) {
        free(*ids);
        free(case_on);
        return -1;
    }
    *n = iodfg_handles_select(v->log, case_on, o->open_only, *ids, sum);
    free(case_on);
    return 0;
}

static int render(struct iodfg_buf *b, const struct hview *v, const struct hopts *o)
{
    const struct iodfg_handle *hs = iodfg_eventlog_handles(v->log);
    struct iodfg_handle_summary sum;
    uint32_t *ids, n;
    if (select_handles(v, o, &ids, &n, &sum)) {
        return -1;
    }
    if (o->format == CLI_FMT_JSON) {
        iodfg_buf_addf(b, "{\"handles\": [");
    } else if (o->format == CLI_FMT_TSV) {
        iodfg_buf_addf(b, "id\tcase\tpid\tfd\torigin\tparent\tlayer\tcall\tflags\tmode\tcreated\t"
                          "destroyed\tops\tbytes_read\tbytes_written\tpath\n");
    } else {
        iodfg_buf_addf(b,
                       "%5s  %-14s  %7s  %4s  %-10s  %6s  %-8s  %10s  %10s  %6s  %10s  "
                       "%10s  %s\n",
                       "id", "case", "pid", "fd", "origin", "parent", "layer", "created",
                       "destroyed", "ops", "read", "written", "path");
    }
    for (uint32_t i = 0; i < n; i++) {
        const struct iodfg_handle *h = &hs[ids[i] - 1];
        if (o->format == CLI_FMT_JSON) {
            row_json(b, v, ids[i], h, i == 0);
        } else {
            row_tsv(b, v, ids[i], h, o->format == CLI_FMT_TABLE);
        }
    }
    free(ids);
    if (o->format == CLI_FMT_JSON) {
        iodfg_buf_addf(b, "%s],\n \"count\": %" PRIu64 ", \"never_closed\": %" PRIu64 "}\n",
                       n ? "\n" : "", sum.count, sum.never_closed);
    } else if (o->format == CLI_FMT_TABLE) {
        iodfg_buf_addf(b,
                       "\n%" PRIu64 " handles: %" PRIu64 " opened, %" PRIu64 " duplicated, %" PRIu64
                       " pre-created, %" PRIu64 " inherited; %" PRIu64 " never closed.\n",
                       sum.count, sum.by_origin[IODFG_HANDLE_OPEN], sum.by_origin[IODFG_HANDLE_DUP],
                       sum.by_origin[IODFG_HANDLE_PRECREATED],
                       sum.by_origin[IODFG_HANDLE_INHERITED], sum.never_closed);
    }
    return 0;
}

int cli_handles(int argc, char **argv)
{
    static const struct option longopts[] = {
        {"format", required_argument, NULL, 'F'},
        {"open", no_argument, NULL, 'O'},
        {"case", required_argument, NULL, 'c'},
        {"help", no_argument, NULL, 'h'},
        CLI_INGEST_LONGOPTS,
        {NULL, 0, NULL, 0},
    };
    struct cli_ingest_opts io = {0};
    struct hopts o = {CLI_FMT_TABLE, 0, NULL};
    int c;
    optind = 1;
    while ((c = getopt_long(argc, argv, "p:j:h", longopts, NULL)) != -1) {
        switch (c) {
        case 'F':
            if (cli_format_parse(optarg, &o.format)) {
                return CLI_USAGE;
            }
            break;
        case 'O':
            o.open_only = 1;
            break;
        case 'c':
            o.case_name = optarg;
            break;
        case 'h':
            usage(stdout);
            return CLI_OK;
        default:
            if (cli_ingest_other_option(c, optarg, &io, usage)) {
                return CLI_USAGE;
            }
        }
    }
    if (cli_need_inputs(optind, argc, "handles needs an event log or trace files", handles_usage)) {
        return CLI_USAGE;
    }
    io.quiet = 1;
    struct iodfg_error err;
    iodfg_error_clear(&err);
    struct cli_ingest_totals totals;
    struct iodfg_eventlog *log =
        cli_load(argv + optind, (size_t)(argc - optind), IODFG_COL_START | IODFG_COL_HANDLE_TABLE,
                 &io, &totals, &err);
    if (!log) {
        cli_error(&err);
        return CLI_FAIL;
    }
    struct hview v = {log, iodfg_eventlog_pool(log), iodfg_handles_time_origin(log)};
    struct iodfg_buf b;
    iodfg_buf_init(&b);
    int rc = CLI_OK;
    if (render(&b, &v, &o) || b.failed) {
        cli_errorf("out of memory");
        rc = CLI_FAIL;
    } else if (fwrite(b.data, 1, b.len, stdout) != b.len || fflush(stdout) != 0) {
        cli_errorf("writing to standard output failed: %s", strerror(errno));
        rc = CLI_FAIL;
    }
    iodfg_buf_fini(&b);
    iodfg_eventlog_free(log);
    return rc;
}
