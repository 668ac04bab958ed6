/* SPDX-License-Identifier: MIT */
/* What the picture commands (heatmap, offsets, timeline) share: their options, the session and
 * picture input over the inputs, the texts the pictures state (log, filters, focus, groups,
 * rules), and the output: SVG, TSV or JSON written atomically, PNG rendered by rsvg-convert. */
#include "config.h"

#include "cli/cli_picture.h"

#include <getopt.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "iodfg/error.h"
#include "iodfg/eventlog.h"
#include "iodfg/mapping.h"
#include "iodfg/session.h"
#include "iodfg/strpool.h"
#include "iodfg/svg.h"

const char cli_picture_usage[] =
    "      --format F          svg (default), png (rendered by rsvg-convert), tsv or\n"
    "                          json (the same numbers as the picture)\n"
    "      --width PX          the SVG's width in pixels, 600 to 20000 (default 960)\n"
    "      --window A..B       the time window drawn, in seconds from the log's start\n"
    "                          (calls crossing its edges are cut there)\n"
    "      --activity NAME     count only this activity's events (repeatable)\n"
    "      --times rel|clock   time labels in seconds from the log's start (default)\n"
    "                          or in the clock's own form (time of day)\n"
    "  -o -                    standard output (the default without -o)\n";

int cli_picture_opts_init(struct cli_picture_opts *o)
{
    memset(o, 0, sizeof(*o));
    return cli_analyze_opts_init(&o->a);
}

void cli_picture_opts_fini(struct cli_picture_opts *o)
{
    iodfg_filter_stack_free(o->win);
    cli_analyze_opts_fini(&o->a);
}

// --window A..B as a time filter of its own (the filters' time syntax, checked now).
static int window_option(struct cli_picture_opts *o, const char *arg)
{
    char text[256];
    if (snprintf(text, sizeof(text), "time=%s", arg) >= (int)sizeof(text)) {
        cli_errorf("--window: '%s' is too long", arg);
        return CLI_USAGE;
    }
    struct iodfg_error err;
    iodfg_error_clear(&err);
    struct iodfg_filter *f = iodfg_filter_parse(text, strlen(text), &err);
    if (!f) {
        // the column in the value given, not in the "time=" put before it
        err.col = err.line && err.col > 5 ? err.col - 5 : 0;
        err.line = 1;
        iodfg_error_at(&err, "--window", 1, err.col);
        cli_error_caret(&err, arg, strlen(arg));
        return CLI_USAGE;
    }
    const char *dots = strstr(arg, "..");
    if (!dots || dots == arg || !dots[2]) {
        iodfg_filter_free(f);
        cli_errorf("--window needs both ends (A..B, in seconds from the log's start), not '%s'",
                   arg);
        return CLI_USAGE;
    }
    iodfg_filter_stack_free(o->win);
    if (!(o->win = iodfg_filter_stack_new()) || iodfg_filter_stack_push(o->win, f, &err)) {
        cli_errorf("out of memory");
        return CLI_USAGE;
    }
    o->window = arg;
    return 0;
}

int cli_picture_option(struct cli_picture_opts *o, int c, const char *arg)
{
    static const char *const formats[] = {"svg", "png", "tsv", "json"};
    switch (c - CLI_PICTURE_OPT_BASE) {
    case 0:
        for (int i = 0; i < 4; i++) {
            if (strcmp(arg, formats[i]) == 0) {
                o->format = (enum cli_picture_format)i;
                return 0;
            }
        }
        cli_errorf("--format takes svg, png, tsv or json, not '%s'", arg);
        return CLI_USAGE;
    case 1: {
        char *end;
        long v = strtol(arg, &end, 10);
        if (end == arg || *end || v < IODFG_SVG_MIN_WIDTH || v > IODFG_SVG_MAX_WIDTH) {
            cli_errorf("--width takes %d to %d pixels, not '%s'", IODFG_SVG_MIN_WIDTH,
                       IODFG_SVG_MAX_WIDTH, arg);
            return CLI_USAGE;
        }
        o->width = (int)v;
        return 0;
    }
    case 2:
        return window_option(o, arg);
    case 3:
        if (o->nactivity == CLI_PICTURE_MAX_ACTIVITIES) {
            cli_errorf("--activity given more than %d times", CLI_PICTURE_MAX_ACTIVITIES);
            return CLI_USAGE;
        }
        o->activity[o->nactivity++] = arg;
        return 0;
    case 4:
        if (strcmp(arg, "rel") && strcmp(arg, "clock")) {
            cli_errorf("--times takes rel or clock, not '%s'", arg);
            return CLI_USAGE;
        }
        o->clock_times = strcmp(arg, "clock") == 0;
        return 0;
    default:
        return cli_analyze_option(&o->a, c, arg);
    }
}

int cli_picture_ready(struct cli_picture_opts *o, char **argv, int optind_, int argc,
                      const char *command, const char *usage)
{
    if (o->a.output && strcmp(o->a.output, "-") == 0) {
        o->a.output = NULL;
    }
    // minedge and top prune the drawn graph; the pictures count events and would not follow
    if (iodfg_filter_stack_min_edge(o->a.filters) || iodfg_filter_stack_top(o->a.filters)) {
        cli_errorf("--min-edge and --top-activities hide parts of the drawn graph, not events: "
                   "%s counts every selected event (filter by call, path, case or time, or "
                   "give --activity)",
                   command);
        return CLI_USAGE;
    }
    if (o->a.per_pid) {
        cli_errorf("--per-pid: the rows of %s are trace files (a case per trace file)", command);
        return CLI_USAGE;
    }
    if (o->format == CLI_PIC_PNG && !o->text_only && !o->a.output && isatty(STDOUT_FILENO)) {
        cli_errorf("not writing a PNG to the terminal; give -o FILE.png");
        return CLI_USAGE;
    }
    char what[64];
    snprintf(what, sizeof(what), "%s needs an event log or trace files", command);
    return cli_analyze_ready(&o->a, argv, optind_, argc, what, usage);
}

/* ---- the open picture ---- */

// --activity's names as a mask over the session's activities: CLI_OK, or CLI_USAGE naming an
// activity the rules do not give.
static int activity_mask(struct cli_picture *p, const struct cli_picture_opts *o)
{
    if (!o->nactivity) {
        return CLI_OK;
    }
    const struct iodfg_mapping *map = iodfg_session_mapping(p->ca.ses);
    if (!(p->act_on = calloc((size_t)map->nactivities + 1, 1))) {
        cli_errorf("out of memory");
        return CLI_FAIL;
    }
    for (size_t i = 0; i < o->nactivity; i++) {
        uint32_t a = 0;
        while (a < map->nactivities &&
               strcmp(iodfg_session_activity_name(p->ca.ses, a), o->activity[i]) != 0) {
            a++;
        }
        if (a == map->nactivities) {
            cli_errorf("--activity: the rules give no activity '%s' ('iodfg stats' lists them)",
                       o->activity[i]);
            return CLI_USAGE;
        }
        p->act_on[a] = 1;
    }
    return CLI_OK;
}

// --window on the log's clock.
static int window(struct cli_picture *p, const struct cli_picture_opts *o)
{
    p->win_from = p->win_to = 0;
    if (!o->win) {
        return CLI_OK;
    }
    struct iodfg_filter_result r;
    iodfg_filter_result_init(&r);
    struct iodfg_error err;
    iodfg_error_clear(&err);
    int rc = iodfg_filter_stack_apply(o->win, p->ca.log, &r, &err);
    if (rc == 0) {
        p->win_from = r.from_ns;
        p->win_to = r.to_ns;
    }
    iodfg_filter_result_fini(&r);
    if (rc) {
        cli_error(&err);
        return CLI_FAIL;
    }
    if (p->win_to <= p->win_from) {
        cli_errorf("--window %s is empty", o->window);
        return CLI_USAGE;
    }
    return CLI_OK;
}

// The texts a picture states: the inputs, filters, groups, rules and focus.
static void texts(struct cli_picture *p, const struct cli_picture_opts *o)
{
    const struct cli_analyze_opts *a = &o->a;
    const char *first = a->inputs[0], *slash = strrchr(first, '/');
    iodfg_buf_addf(&p->log_name, "%s", slash && slash[1] ? slash + 1 : first);
    if (a->ninputs > 1) {
        iodfg_buf_addf(&p->log_name, " and %zu more", a->ninputs - 1);
    }
    iodfg_filter_stack_format(iodfg_session_filters(p->ca.ses), "  ", &p->filters);
    if (o->window) {
        iodfg_buf_addf(&p->filters, "%swindow=%s", p->filters.len ? "  " : "", o->window);
    }
    if (p->ca.groups) {
        const struct iodfg_session_counts *k = iodfg_session_counts(p->ca.ses);
        iodfg_buf_addf(&p->groups, "G (%u cases): ", k->g_cases);
        a->green ? (void)iodfg_filter_stack_format(a->green, " and ", &p->groups)
                 : (void)iodfg_buf_addf(&p->groups, "the rest");
        iodfg_buf_addf(&p->groups, "  R (%u cases): ", k->r_cases);
        a->red ? (void)iodfg_filter_stack_format(a->red, " and ", &p->groups)
               : (void)iodfg_buf_addf(&p->groups, "the rest");
    }
    iodfg_buf_addf(&p->rules, "%s", a->rules_path ? a->rules_path : "default f-hat");
    iodfg_buf_addf(&p->focus, "%s", iodfg_picture_focus_text(p->ca.ses));
    for (size_t i = 0; i < o->nactivity; i++) {
        iodfg_buf_addf(&p->focus, "%s%s", i ? ", " : "; only ", o->activity[i]);
    }
    p->meta = (struct iodfg_picture_meta){
        .log_name = p->log_name.data,
        .filters = p->filters.data,
        .focus = p->focus.data,
        .groups = p->groups.data,
        .rules = p->rules.data,
        .relative = !o->clock_times,
        .origin_ns = iodfg_eventlog_time_origin(p->ca.log),
    };
}

int cli_picture_open(struct cli_picture *p, const struct cli_picture_opts *o, const char *command,
                     int rebuild)
{
    memset(p, 0, sizeof(*p));
    cli_analysis_init(&p->ca);
    struct iodfg_buf *bufs[] = {&p->log_name, &p->filters, &p->groups, &p->rules, &p->focus};
    for (size_t i = 0; i < sizeof(bufs) / sizeof(bufs[0]); i++) {
        iodfg_buf_init(bufs[i]);
    }
    int rc = cli_session_open(&o->a, o->a.inputs, o->a.ninputs, IODFG_COL_ALL, &p->ca.log,
                              &p->ca.ses, &p->ca.groups);
    struct iodfg_error err;
    iodfg_error_clear(&err);
    if (rc == CLI_OK && rebuild) {
        rc = cli_analysis_build(&p->ca, &o->a, command); // the time order gives the peaks
    } else if (rc == CLI_OK && iodfg_session_prepare(p->ca.ses, &err)) {
        cli_error(&err);
        rc = CLI_FAIL;
    }
    rc = rc == CLI_OK ? activity_mask(p, o) : rc;
    rc = rc == CLI_OK ? window(p, o) : rc;
    if (rc != CLI_OK) {
        return rc;
    }
    iodfg_picture_input_session(&p->in, &p->sel, p->ca.ses, p->act_on);
    texts(p, o);
    for (size_t i = 0; i < sizeof(bufs) / sizeof(bufs[0]); i++) {
        if (bufs[i]->failed) {
            cli_errorf("out of memory");
            return CLI_FAIL;
        }
    }
    return CLI_OK;
}

void cli_picture_fini(struct cli_picture *p)
{
    iodfg_buf_fini(&p->log_name);
    iodfg_buf_fini(&p->filters);
    iodfg_buf_fini(&p->groups);
    iodfg_buf_fini(&p->rules);
    iodfg_buf_fini(&p->focus);
    free(p->act_on);
    cli_analysis_fini(&p->ca);
}

/* ---- the output ---- */

struct png_ctx {
    const struct iodfg_buf *svg;
};

static int render_png(void *ctx, int fd)
{
    const struct iodfg_buf *svg = ((struct png_ctx *)ctx)->svg;
    char prog[] = "rsvg-convert", f[] = "--format=png";
    char *args[] = {prog, f, NULL};
    struct cli_pipe p = {args, "rsvg-convert", "rsvg-convert --format=png",
                         "cannot write a PNG: rsvg-convert is not installed or not on PATH "
                         "(Debian: apt-get install librsvg2-bin); --format svg writes the "
                         "picture for rendering elsewhere"};
    return cli_pipe_run(&p, svg->data, svg->len, fd);
}

int cli_picture_write(const struct cli_picture_opts *o, const struct iodfg_buf *b)
{
    if (o->format != CLI_PIC_PNG || o->text_only || b->failed) {
        return cli_output_write(&o->a, b);
    }
    // into -o FILE atomically (a temp file beside it, renamed when rsvg-convert succeeded)
    struct png_ctx ctx = {b};
    return cli_output_stream(&o->a, render_png, &ctx);
}

// A picture command once its options are read: open, report, write.
static int command(const struct cli_picture_cmd *cmd, const struct cli_picture_opts *o,
                   const void *ctx)
{
    struct cli_picture p;
    struct iodfg_buf b;
    iodfg_buf_init(&b);
    int rc = cli_picture_open(&p, o, cmd->name, cmd->rebuild);
    rc = rc == CLI_OK ? cmd->report(ctx, &p, &b) : rc;
    rc = rc == CLI_OK ? cli_picture_write(o, &b) : rc;
    cli_picture_fini(&p);
    iodfg_buf_fini(&b);
    return rc;
}

int cli_picture_main(const struct cli_picture_cmd *cmd, struct cli_picture_opts *po, void *ctx,
                     int argc, char **argv)
{
    if (cli_picture_opts_init(po)) {
        return CLI_FAIL;
    }
    int rc = cli_analyze_getopt(argc, argv, cmd->own, cmd->option, ctx, cmd->usage, cmd->name);
    if (rc == CLI_OK) {
        rc = cli_picture_ready(po, argv, optind, argc, cmd->name, cmd->usage_text);
    }
    if (rc == CLI_OK) {
        rc = command(cmd, po, ctx);
    }
    cli_picture_opts_fini(po);
    return rc < 0 ? CLI_OK : rc; // -1: --help
}
