/* SPDX-License-Identifier: MIT */
/* The analysing commands (dfg, stats, characterize, bandwidth, insights, export): their shared
 * options, the session they open over the inputs, the output file, and dfg, stats and
 * characterize as steps, which iodfg-mpi runs too over the part of a log it opens itself (with
 * its job on the session: src/mpi). Their reports are written by src/report. */
#ifndef IODFG_CLI_ANALYZE_H
#define IODFG_CLI_ANALYZE_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "iodfg/buf.h"
#include "iodfg/eventlog.h"
#include "iodfg/export.h"
#include "iodfg/filter.h"
#include "iodfg/mapping.h"
#include "iodfg/metrics.h"

#include "cli.h"

struct iodfg_session;
struct option;

/* ---- options (cli_analyze_options.c) ---- */

/* Options shared by the analysing commands. Initialise with _init, release with _fini. */
struct cli_analyze_opts {
    struct cli_ingest_opts ingest;
    const char *rules_path;             /* --rules FILE; NULL = the default f-hat */
    struct iodfg_filter_stack *filters; /* --filter and the short forms, in order */
    struct iodfg_filter_stack *green;   /* --green predicates (ANDed); NULL = not given */
    struct iodfg_filter_stack *red;     /* --red predicates; NULL = not given */
    int per_pid;                        /* --per-pid: a case is (trace file, pid) */
    const char *output;                 /* -o FILE; NULL = standard output */
    int force;                          /* --force: replace an existing -o FILE */
    char **inputs;                      /* after the options: the inputs */
    size_t ninputs;
    int focus;               /* --focus: enum iodfg_focus_mode (all, or the command's default) */
    const char *focus_rules; /* --focus-rules FILE; NULL: the user's focus.rules, else built in */
};
/* 0, or -1 when out of memory (after saying so). */
int cli_analyze_opts_init(struct cli_analyze_opts *o);
void cli_analyze_opts_fini(struct cli_analyze_opts *o);

/* Short options of the shared set, for the getopt_long option string. */
#define CLI_ANALYZE_SHORTOPTS "r:o:fp:j:q"
/* Copy the shared long options, then the command's own ones (NULL-terminated), into out
 * (cap entries, NULL-terminated). Returns 0, or -1 when cap is too small. */
int cli_analyze_longopts(struct option *out, size_t cap, const struct option *own);
/* Handle one getopt_long result: 0 when it was a shared option, 1 when it is not one of them,
 * CLI_USAGE after printing what is wrong with its value. */
int cli_analyze_option(struct cli_analyze_opts *o, int c, const char *arg);
/* The cases every analysing command's own option switch ends with: -h prints usage then the
 * shared options' lines to standard output and returns -1; any other option goes to
 * cli_analyze_option, and one that is not a shared option prints usage to standard error and
 * returns CLI_USAGE. Else cli_analyze_option's answer. */
int cli_analyze_other_option(struct cli_analyze_opts *o, int c, const char *arg, const char *usage);
/* After the options: the inputs are there (else what, usage and CLI_USAGE; o->inputs set) and
 * -o FILE may be written (cli_output_check). CLI_OK or an enum cli_exit after a message. */
int cli_analyze_ready(struct cli_analyze_opts *o, char **argv, int optind_, int argc,
                      const char *what, const char *usage);
/* Run getopt_long over the shared options plus own[]; each result goes to option(ctx, c, arg),
 * which answers like cli_analyze_option. Returns 0 when done (optind at the inputs), -1 after
 * --help printed usage, or CLI_USAGE/CLI_FAIL after saying what is wrong. */
int cli_analyze_getopt(int argc, char **argv, const struct option *own,
                       int (*option)(void *ctx, int c, const char *arg), void *ctx,
                       void (*usage)(FILE *out), const char *command);
/* Usage lines of the shared options. */
extern const char cli_analyze_usage[];

/* ---- the output (cli_output.c) ---- */

/* Refuse early (CLI_FAIL, with a message) when -o FILE exists and --force is not given, or when
 * it is one of the inputs (never replaced, --force or not). */
int cli_output_check(const struct cli_analyze_opts *o, const char *const *inputs, size_t n);
/* Write b to -o FILE atomically (or standard output). CLI_OK or CLI_FAIL after a message. */
int cli_output_write(const struct cli_analyze_opts *o, const struct iodfg_buf *b);
/* Write -o FILE through produce(ctx, fd): into a temp file beside it, published when produce
 * returns CLI_OK and removed otherwise (or on SIGINT/SIGTERM/SIGHUP); without -o, produce
 * writes to standard output. Returns produce's result or CLI_FAIL after a message. */
int cli_output_stream(const struct cli_analyze_opts *o, int (*produce)(void *ctx, int fd),
                      void *ctx);
/* Write all of data to fd (retrying short writes): 0, or -1 with errno. */
int cli_write_all(int fd, const char *data, size_t n);
/* An external program that reads a text on its standard input and writes a rendering. */
struct cli_pipe {
    char *const *args;   /* its argv; args[0] is looked up on PATH */
    const char *name;    /* in messages: "Graphviz 'dot'" */
    const char *command; /* in the message of a failed run: "Graphviz 'dot -Tsvg'" */
    const char *missing; /* the whole message when it is not installed */
};
/* Run p with data[0..len) on its standard input and out_fd as its standard output. CLI_OK, or
 * CLI_FAIL after a message (not installed, failed, killed). */
int cli_pipe_run(const struct cli_pipe *p, const char *data, size_t len, int out_fd);
/* Output formats of the reports. */
enum cli_format { CLI_FMT_TABLE = 0, CLI_FMT_TSV, CLI_FMT_JSON };
/* 0 and *f for "table", "tsv" or "json"; CLI_USAGE after a message otherwise. */
int cli_format_parse(const char *s, enum cli_format *f);

/* ---- the session over the inputs (cli_analysis.c) ---- */

/* The --rules file or preset, checked (a typo fails before a long load); *text (NULL without
 * --rules) is the caller's to free. CLI_OK or CLI_FAIL after a message. */
int cli_rules_read(const char *path, char **text, size_t *len);
/* Load the inputs (with columns) and open a session over them with the options' rules, case
 * definition, groups and filters (cli_session_inputs). Prints errors and returns an enum
 * cli_exit; the caller frees *ses and *log. */
int cli_session_open(const struct cli_analyze_opts *o, char *const *inputs, size_t n,
                     unsigned columns, struct iodfg_eventlog **log, struct iodfg_session **ses,
                     int *groups);
/* The options' case definition, groups (*groups set when --green/--red were given; they then
 * bound the selection) and filters into ses. CLI_OK or CLI_FAIL after a message. */
int cli_session_inputs(struct iodfg_session *ses, const struct cli_analyze_opts *o, int *groups);
/* Say on stderr (unless quiet) when the cases on (NULL: all) of the whole log use more than one
 * clock: the concurrency sweeps are per clock. */
void cli_clock_note(const struct iodfg_session *ses, const uint8_t *case_on, int quiet);

/* An analysis: the log, the session (its results read through its accessors) and the comment
 * that says how it was made. cli_analysis_fini releases everything. */
struct cli_analysis {
    struct iodfg_eventlog *log;
    struct iodfg_session *ses;
    int groups;               /* --green/--red given: the session compares G and R */
    struct iodfg_buf comment; /* command, rules, filters, groups: for DOT and JSON */
};
void cli_analysis_init(struct cli_analysis *ca);
void cli_analysis_fini(struct cli_analysis *ca);
/* The log's columns an analysis needs. */
unsigned cli_analysis_columns(const struct cli_analyze_opts *o);
/* Once ca->log and ca->ses are open (cli_session_open): rebuild the DFG and statistics, say what
 * the user should know, and write the comment for `command`. Prints errors (rule errors with
 * the line and a caret) and returns an enum cli_exit. */
int cli_analysis_build(struct cli_analysis *ca, const struct cli_analyze_opts *o,
                       const char *command);
/* cli_session_open over the options' inputs, then cli_analysis_build. */
int cli_analysis_run(struct cli_analysis *ca, const struct cli_analyze_opts *o,
                     const char *command);
/* The comment (command, rules, filters, groups, case definition) into ca->comment. */
void cli_analysis_comment(struct cli_analysis *ca, const struct cli_analyze_opts *o,
                          const char *command);

/* ---- characterize, bandwidth and insights: the selections they share (cli_metrics.c) ---- */

/* A log with every column, its session, and one or two selections (all, or G and R). */
struct cli_metrics {
    struct iodfg_eventlog *log;
    struct iodfg_session *ses;
    int groups;                      /* --green/--red given */
    const struct iodfg_mapping *map; /* borrowed from the session */
    int ngroups;                     /* 1 (no groups) or 2 (G, R) */
    struct iodfg_selection sel[2];   /* the selection, or G and R (case masks borrowed) */
    uint8_t *own_mask[2];            /* case masks cut to one clock (cli_metrics_one_clock) */
};
void cli_metrics_init(struct cli_metrics *m);
void cli_metrics_fini(struct cli_metrics *m);
/* Once m->log and m->ses are open: the mapping and the selections, then with one_clock only the
 * cases of the clock with the most cases (measures binned over time cannot mix clocks, said
 * unless quiet), else a note on mixed clocks. Prints errors and returns an enum cli_exit. */
int cli_metrics_select(struct cli_metrics *m, const struct cli_analyze_opts *o, int one_clock);
/* cli_session_open over the options' inputs with every column, then cli_metrics_select. */
int cli_metrics_run(struct cli_metrics *m, const struct cli_analyze_opts *o, int one_clock);
/* A command over the selections: cli_metrics_run, report(ctx, m, b), then b to the output.
 * An enum cli_exit. */
int cli_metrics_command(const struct cli_analyze_opts *o, int one_clock,
                        int (*report)(const void *ctx, const struct cli_metrics *m,
                                      struct iodfg_buf *b),
                        const void *ctx);

/* ---- dfg, stats and characterize as steps: parse, report, write ---- */

enum cli_dfg_format { CLI_DFG_DOT, CLI_DFG_TSV, CLI_DFG_JSON };
struct cli_dfg_opts {
    struct cli_analyze_opts a;
    enum cli_dfg_format format;
    int format_given;
    enum iodfg_shade shade;
    enum iodfg_palette palette;
    const char *render; /* "svg", "png" or NULL */
};
struct cli_stats_opts {
    struct cli_analyze_opts a;
    enum cli_format format;
    const char *sort; /* NULL = default */
    int act_col, edge_col, reverse, transitions;
    size_t top;
};
struct cli_char_opts {
    struct cli_analyze_opts a;
    struct iodfg_bin_opts bin;
    enum cli_format format;
    int64_t alignment;
    const char *counters; /* --counters FILE.csv instead of a log */
    int width, per_file;
};
/* The command line, up to ready to run (cli_analyze_ready): CLI_OK, -1 after --help printed
 * usage, or an enum cli_exit after a message. Release with cli_analyze_opts_fini(&x->a) in every
 * case. */
int cli_dfg_parse(struct cli_dfg_opts *d, int argc, char **argv);
int cli_stats_parse(struct cli_stats_opts *s, int argc, char **argv);
int cli_char_parse(struct cli_char_opts *o, int argc, char **argv);
/* Whether the output shows the edges' gap medians (iodfg-mpi's merge finds them only then). */
int cli_dfg_edge_gaps(const struct cli_dfg_opts *d);
int cli_stats_edge_gaps(const struct cli_stats_opts *s);
/* The report of the built analysis into b. CLI_OK or CLI_FAIL after a message. */
int cli_dfg_report(const struct cli_dfg_opts *d, const struct cli_analysis *ca,
                   struct iodfg_buf *b);
int cli_stats_report(const struct cli_stats_opts *s, const struct cli_analysis *ca,
                     struct iodfg_buf *b);
/* Characterise each selection of m (iodfg_session_characterize) and report them into b. */
int cli_char_report(const struct cli_char_opts *o, const struct cli_metrics *m,
                    struct iodfg_buf *b);
/* The same for the counter samples of --counters. */
int cli_char_counters(const struct cli_char_opts *o, struct iodfg_buf *b);
/* dfg's output: b written, or rendered by Graphviz with --svg/--png. */
int cli_dfg_write(const struct cli_dfg_opts *d, const struct iodfg_buf *b);

#endif
