/* SPDX-License-Identifier: MIT */
/* What `iodfg heatmap`, `offsets` and `timeline` share: their options (format, width, window,
 * activities, times), the session they read, the texts a picture states, and the output (SVG,
 * PNG through rsvg-convert, TSV, JSON) written atomically. */
#ifndef IODFG_CLI_PICTURE_H
#define IODFG_CLI_PICTURE_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "iodfg/buf.h"
#include "iodfg/filter.h"
#include "iodfg/picture.h"

#include "cmdline/cli_analyze.h"

struct option;

enum cli_picture_format { CLI_PIC_SVG = 0, CLI_PIC_PNG, CLI_PIC_TSV, CLI_PIC_JSON };

/* The options of a picture command. Initialise with cli_picture_opts_init, release with
 * cli_picture_opts_fini. */
struct cli_picture_opts {
    struct cli_analyze_opts a;
    enum cli_picture_format format;
    int width;                      /* SVG width in pixels (0: the writer's 960) */
    const char *window;             /* --window A..B as given; NULL: the whole span */
    struct iodfg_filter_stack *win; /* that window as a time filter */
#define CLI_PICTURE_MAX_ACTIVITIES 64
    const char *activity[CLI_PICTURE_MAX_ACTIVITIES]; /* --activity NAME (repeatable) */
    size_t nactivity;
    int clock_times; /* --times clock: the clock's own times, not relative */
    int text_only;   /* the output is text whatever --format (a listing) */
};
int cli_picture_opts_init(struct cli_picture_opts *o);
void cli_picture_opts_fini(struct cli_picture_opts *o);

/* Usage lines of the options every picture command has (before the analysing ones). */
extern const char cli_picture_usage[];
/* The long options of the set, for a command's own table (its first entries). */
#define CLI_PICTURE_OPT_BASE 0x5000
#define CLI_PICTURE_LONGOPTS                                                                       \
    {"format", required_argument, NULL, CLI_PICTURE_OPT_BASE},                                     \
        {"width", required_argument, NULL, CLI_PICTURE_OPT_BASE + 1},                              \
        {"window", required_argument, NULL, CLI_PICTURE_OPT_BASE + 2},                             \
        {"activity", required_argument, NULL, CLI_PICTURE_OPT_BASE + 3},                           \
        {"times", required_argument, NULL, CLI_PICTURE_OPT_BASE + 4},                              \
    {                                                                                              \
        "help", no_argument, NULL, 'h'                                                             \
    }
/* One getopt_long result: 0 when taken, 1 when not of the set (nor a shared analysing option),
 * CLI_USAGE after saying what is wrong. */
int cli_picture_option(struct cli_picture_opts *o, int c, const char *arg);
/* After getopt: the inputs and -o (where "-" is standard output). CLI_OK or an enum cli_exit
 * after a message. */
int cli_picture_ready(struct cli_picture_opts *o, char **argv, int optind_, int argc,
                      const char *command, const char *usage);

/* An open picture: the log, its session (prepared, or rebuilt when the picture wants the time
 * order), the input over it, and the texts of its meta. */
struct cli_picture {
    struct cli_analysis ca;
    struct iodfg_selection sel;
    struct iodfg_picture_input in;
    struct iodfg_picture_meta meta;
    uint8_t *act_on;          /* --activity's mask, NULL: every activity */
    int64_t win_from, win_to; /* --window on the log's clock; from >= to: none */
    struct iodfg_buf log_name, filters, groups, rules, focus;
};
/* Load the inputs, open the session (rebuilt when rebuild, else only prepared), and fill
 * in, meta and the window. Prints errors; an enum cli_exit. Release with cli_picture_fini. */
int cli_picture_open(struct cli_picture *p, const struct cli_picture_opts *o, const char *command,
                     int rebuild);
void cli_picture_fini(struct cli_picture *p);

/* Write b (an SVG for svg and png, else the text) to the output: png is rendered by
 * rsvg-convert into the file. An enum cli_exit after a message. */
int cli_picture_write(const struct cli_picture_opts *o, const struct iodfg_buf *b);

/* A picture command: its name, usage, own options (after CLI_PICTURE_LONGOPTS), their handler
 * (answering like cli_picture_option, which it calls for the others), the report of the open
 * picture into b, and whether the session is rebuilt (the time order: peaks). */
struct cli_picture_cmd {
    const char *name;
    const char *usage_text;
    void (*usage)(FILE *out);
    const struct option *own;
    int (*option)(void *ctx, int c, const char *arg);
    int (*report)(const void *ctx, struct cli_picture *p, struct iodfg_buf *b);
    int rebuild;
};
/* Run it: ctx is the command's options, po the picture options inside them. The options, the
 * inputs, cli_picture_open, the report, then b to the output (cli_picture_write). An enum
 * cli_exit (CLI_OK after --help). */
int cli_picture_main(const struct cli_picture_cmd *cmd, struct cli_picture_opts *po, void *ctx,
                     int argc, char **argv);

#endif
