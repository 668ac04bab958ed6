/* SPDX-License-Identifier: MIT */
/* The command line of iodfg (and of iodfg-mpi, which runs some of its commands as a job):
 * exit statuses, the commands, messages, the options that read traces, loading a log. */
#ifndef IODFG_CLI_H
#define IODFG_CLI_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "iodfg/eventlog.h"

struct iodfg_csv_columns;
struct iodfg_error;
struct iodfg_eventlog;
struct iodfg_focus;
struct iodfg_input_list;
struct iodfg_insight_thresholds;
struct iodfg_mounts;
struct iodfg_strace_result;

/* Exit statuses (documented in iodfg.1). */
enum cli_exit {
    CLI_OK = 0,
    CLI_FAIL = 1,    /* input could not be read, output not written, damaged log */
    CLI_USAGE = 2,   /* bad command line */
    CLI_SKIPPED = 3, /* --strict and some input lines were unparsable */
};

/* The subcommands both programs have: argv[0] is the subcommand name. Returns an enum
 * cli_exit. iodfg's own commands are in src/cli/cli_commands.h. */
int cli_convert(int argc, char **argv);
int cli_dfg(int argc, char **argv);
int cli_stats(int argc, char **argv);
int cli_characterize(int argc, char **argv);

/* ---- the program and its messages (cli_message.c) ---- */

/* The program that runs the commands, set by its entry before a command runs: its name in
 * messages and usage texts ("iodfg", or "iodfg-mpi"), and whether it reads only event logs
 * (iodfg-mpi: a usage text's "LOG.h5|TRACES..." says LOG.h5 alone). */
extern const char *cli_program;
extern int cli_log_only;
/* Write a usage text to out as the program reads it. */
void cli_usage_put(const char *text, FILE *out);
/* Print "iodfg: <formatted error>" to stderr, on one line through the terminal sanitiser (the
 * names in it stay raw until then). */
void cli_error(const struct iodfg_error *err);
/* Print "iodfg: <printf text>" to stderr, the same way. */
void cli_errorf(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
/* Print err like a compiler, then the offending line of text[0..len) and a caret under the
 * column (when err has a line). */
void cli_error_caret(const struct iodfg_error *err, const char *text, size_t len);
/* Write untrusted text (a name, a path, a parser's message) to out through the sanitiser. */
void cli_put_term(FILE *out, const char *s);
/* The exit status once standard output is flushed: what a command printed must have reached it
 * (`iodfg info >/dev/full` fails as `cat` does). A write error turns CLI_OK or CLI_SKIPPED into
 * CLI_FAIL, said once; a command that failed already said why. */
int cli_stdout_status(int rc);
/* CLI_USAGE after saying the command needs inputs (what) and its usage when none follow the
 * options; 0 otherwise. */
int cli_need_inputs(int optind_, int argc, const char *what, const char *usage);
/* "12.3 MiB" into buf. */
const char *cli_bytes(char *buf, size_t size, double v);

/* ---- the options of every command that reads traces (cli_options.c) ---- */

struct cli_ingest_opts {
    const char *name_pattern;
    unsigned jobs;
    int quiet;
    const char *mounts; /* --mounts FILE; NULL = mounts.txt beside the traces or built-in */
    int align_starts;   /* --align start: every case's times from its first event */
    const struct iodfg_csv_columns *csv; /* convert --csv-columns; NULL: the usual names */
};

/* -p/--name-pattern, -j/--jobs, --mounts (convert, info, handles, tui, the analysis commands).
 * Put CLI_INGEST_LONGOPTS in a getopt_long table ("p:j:" in its short options) and hand each
 * option to cli_ingest_option, which returns 0 when it took it, CLI_USAGE after saying what is
 * wrong with its value, 1 when not its own. */
#define CLI_OPT_MOUNTS 0x4000
#define CLI_INGEST_LONGOPTS                                                                        \
    {"name-pattern", required_argument, NULL, 'p'}, {"jobs", required_argument, NULL, 'j'},        \
    {                                                                                              \
        "mounts", required_argument, NULL, CLI_OPT_MOUNTS                                          \
    }
int cli_ingest_option(int c, const char *arg, struct cli_ingest_opts *o);
/* The default case of such a command's option switch: cli_ingest_option, and for an option not
 * of the set either, usage(stderr). 0 when it took the option, else CLI_USAGE. */
int cli_ingest_other_option(int c, const char *arg, struct cli_ingest_opts *o,
                            void (*usage)(FILE *out));
/* The usage lines of those options (for --help texts). */
extern const char cli_ingest_usage[];
/* Parse a --jobs value into *jobs: 0, or CLI_USAGE after saying what is wrong. */
int cli_opt_jobs(const char *s, unsigned *jobs);
/* Parse --align ("start"): 0, or CLI_USAGE after saying what is wrong. */
int cli_opt_align(const char *s, int *align);
/* Check a --name-pattern value and set *pattern: 0, or CLI_USAGE after saying what is wrong
 * (with a caret under the column). */
int cli_opt_pattern(const char *s, const char **pattern);

/* ---- what an ingest read (cli_totals.c) ---- */

struct cli_ingest_totals {
    uint64_t files, lines, bytes, events, by_pattern;
    uint64_t archives, records; /* of files and lines: OTF2 archives (read by libotf2, named
                                 * after their locations) and their definitions and events */
    uint64_t counts[IODFG_COUNT__N];
    char first_problem[512]; /* "file:line:col: what was expected" of the first bad line, raw */
    uint64_t files_without_events;
    uint64_t clocks[IODFG_CLOCK__N]; /* files with events, by clock */
    uint64_t frames;                 /* strace -k stack frame lines of events and signals */
    char mounts[4200];               /* which mount table classified the files (for `info`) */
};
/* Fold one file's parse result into the totals. */
void cli_totals_add(struct cli_ingest_totals *t, const char *path,
                    const struct iodfg_strace_result *r, int by_pattern);
/* Write the closing summary paragraph of an ingest. */
void cli_totals_print(FILE *out, const struct cli_ingest_totals *t);
/* Say on stderr (unless quiet) what listing the inputs skipped or renamed. */
void cli_list_notes(const struct iodfg_input_list *l, int quiet);

/* ---- loading (cli_load.c) ---- */

/* Refuse inputs that cannot be what they claim: a file named *.h5 that is not HDF5, an HDF5
 * file among traces, or any HDF5 file when logs are not allowed (convert). 0 or -1 with err
 * naming the file. */
int cli_check_inputs(char *const *inputs, size_t n, int logs_allowed, struct iodfg_error *err);
/* Load an event log: one .h5 file, or trace files/directories converted in memory. */
struct iodfg_eventlog *cli_load(char *const *inputs, size_t n, unsigned columns,
                                const struct cli_ingest_opts *o, struct cli_ingest_totals *totals,
                                struct iodfg_error *err);
/* When log has strace -k stacks: split its keys by call site (the `site` field of rules and
 * filters), the program's own frames told by the focus rules of focus_path, else the user's
 * focus.rules, else the built-in ones (cli_sites.c). 0, or -1 with err. */
int cli_callsites_split(struct iodfg_eventlog *log, const char *focus_path,
                        struct iodfg_error *err);
/* The focus rules cli_callsites_split uses (focus_path, the user's or the built-in ones). NULL
 * with err. */
struct iodfg_focus *cli_callsites_focus(const char *focus_path, struct iodfg_error *err);
/* What a log read from a file still needs (also iodfg-mpi's part of one): its files' mount
 * table (the one stored by convert unless --mounts is given; totals->mounts says which) and
 * --align. The log, or NULL with err when it failed (the log is then freed). */
struct iodfg_eventlog *cli_log_finish(struct iodfg_eventlog *log, const struct cli_ingest_opts *o,
                                      struct cli_ingest_totals *totals, struct iodfg_error *err);
/* The mount table for inputs: given (--mounts FILE), else mounts.txt in the first input
 * directory, or beside the first input file, that has one, else the built-in list. Says which
 * in used[0..size). NULL with err set when a table cannot be read or parsed. */
struct iodfg_mounts *cli_mounts_open(char *const *inputs, size_t n, const char *given, char *used,
                                     size_t size, struct iodfg_error *err);
/* The rules text of --rules name: a copy of the preset of that name (iodfg_rules_preset) when no
 * file of that name exists, else the file's text (at most CLI_RULES_MAX bytes); *len its length.
 * The caller frees. NULL with err naming the file. */
#define CLI_RULES_MAX ((size_t)16 << 20)
char *cli_rules_text(const char *name, size_t *len, struct iodfg_error *err);
/* Thresholds of the insights from file (--thresholds), else from the user's insights.conf
 * ($XDG_CONFIG_HOME/iodfg, else ~/.config/iodfg) when it exists, over what t holds; CLI_OK, or
 * CLI_FAIL after saying what is wrong (file:line:col). Shared by `insights` and the TUI. */
int cli_insight_thresholds_file(const char *file, struct iodfg_insight_thresholds *t);

#endif
