/* SPDX-License-Identifier: MIT */
/* Shared pieces of the iodfg command line: exit codes, subcommands, log loading, output. */
#ifndef IODFG_CLI_H
#define IODFG_CLI_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "iodfg/buf.h"
#include "iodfg/csvlog.h"
#include "iodfg/diff.h"
#include "iodfg/eventlog.h"
#include "iodfg/filter.h"
#include "iodfg/json.h"
#include "iodfg/mapping.h"

struct iodfg_analysis;
struct iodfg_bin_opts;
struct iodfg_characterization;
struct iodfg_csv_columns;
struct iodfg_session;
struct iodfg_error;
struct iodfg_rules;
struct iodfg_strace_result;
struct option;

/* Exit statuses (documented in iodfg.1). */
enum cli_exit {
    CLI_OK = 0,
    CLI_FAIL = 1,    /* input could not be read, output not written, damaged log */
    CLI_USAGE = 2,   /* bad command line */
    CLI_SKIPPED = 3, /* --strict and some input lines were unparsable */
};

/* Each subcommand: argv[0] is the subcommand name. Returns an enum cli_exit. */
int cli_convert(int argc, char **argv);
int cli_info(int argc, char **argv);
int cli_tui(int argc, char **argv);
int cli_dfg(int argc, char **argv);
int cli_stats(int argc, char **argv);
int cli_characterize(int argc, char **argv);
int cli_bandwidth(int argc, char **argv);
int cli_handles(int argc, char **argv);
int cli_export(int argc, char **argv);
int cli_insights(int argc, char **argv);

/* Print "iodfg: <formatted error>" to stderr, on one line through the terminal sanitiser (the
 * names in it stay raw until then). */
void cli_error(const struct iodfg_error *err);
/* Print "iodfg: <printf text>" to stderr, the same way. */
void cli_errorf(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
/* Write untrusted text (a name, a path, a parser's message) to out through the sanitiser. */
void cli_put_term(FILE *out, const char *s);
/* The exit status once standard output is flushed: what a command printed must have reached it
 * (`iodfg info >/dev/full` fails as `cat` does). A write error turns CLI_OK or CLI_SKIPPED into
 * CLI_FAIL, said once; a command that failed already said why. */
int cli_stdout_status(int rc);
/* The program's name in messages and usage texts: "iodfg", or "iodfg-mpi" (set before a command
 * runs). */
extern const char *cli_program;
/* Write a usage text to out with the program's name where it names "iodfg". */
void cli_usage_put(const char *text, FILE *out);

/* Options for reading traces, shared by every command that accepts them. */
struct cli_ingest_opts {
    const char *name_pattern;
    unsigned jobs;
    int quiet;
    const char *mounts; /* --mounts FILE; NULL = mounts.txt beside the traces or built-in */
    int align_starts;   /* --align start: every case's times from its first event */
    const struct iodfg_csv_columns *csv; /* convert --csv-columns; NULL: the usual names */
};

/* The options of every command that reads traces (convert, info, handles, tui, the analysis
 * commands): -p/--name-pattern, -j/--jobs, --mounts. Put CLI_INGEST_LONGOPTS in a getopt_long
 * table ("p:j:" in its short options) and hand each option to cli_ingest_option, which returns
 * 0 when it took it, CLI_USAGE after saying what is wrong with its value, 1 when not its own. */
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

/* Totals of an ingest, for the closing summary. */
struct cli_ingest_totals {
    uint64_t files, lines, bytes, events, by_pattern;
    uint64_t counts[IODFG_COUNT__N];
    char first_problem[512]; /* "file:line:col: what was expected" of the first bad line, raw */
    uint64_t files_without_events;
    uint64_t clocks[IODFG_CLOCK__N]; /* files with events, by clock */
    char mounts[4200];               /* which mount table classified the files (for `info`) */
};

/* convert's command line (cli_convert.c), shared with iodfg-mpi. */
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
struct iodfg_stale_temp;
void cli_convert_stale_note(void *ctx, const struct iodfg_stale_temp *t);

/* Cases of clocks[IODFG_CLOCK__N] as text ("12 time-of-day, 4 epoch"); the number of clocks
 * used is returned. */
int cli_clocks_text(const uint32_t *clocks, char *buf, size_t size);
/* When the selected cases (case_on, NULL = all) of log use more than one clock, say on stderr
 * (unless quiet) that the concurrency sweeps are per clock. */
void cli_clock_note(const struct iodfg_eventlog *log, const uint8_t *case_on, int quiet);
/* A start time of clock in its natural form ("05:39:01.699598", "2024-... UTC", "+1.5 s"). */
void cli_time_text(char *buf, size_t size, enum iodfg_clock clock, int64_t ns);
/* Thresholds of the insights from file (--thresholds), else from the user's insights.conf
 * ($XDG_CONFIG_HOME/iodfg, else ~/.config/iodfg) when it exists, over what t holds; CLI_OK, or
 * CLI_FAIL after saying what is wrong (file:line:col). Shared by `insights` and the TUI. */
struct iodfg_insight_thresholds;
int cli_insight_thresholds_file(const char *file, struct iodfg_insight_thresholds *t);

/* The rules text of --rules name: a copy of the preset of that name (iodfg_rules_preset) when no
 * file of that name exists, else the file's text (at most CLI_RULES_MAX bytes); *len its length.
 * The caller frees. NULL with err naming the file. */
#define CLI_RULES_MAX ((size_t)16 << 20)
char *cli_rules_text(const char *name, size_t *len, struct iodfg_error *err);
/* Say on stderr (unless quiet) what listing the inputs skipped or renamed. */
struct iodfg_input_list;
void cli_list_notes(const struct iodfg_input_list *l, int quiet);
/* Refuse inputs that cannot be what they claim: a file named *.h5 that is not HDF5, an HDF5
 * file among traces, or any HDF5 file when logs are not allowed (convert). 0 or -1 with err
 * naming the file. */
int cli_check_inputs(char *const *inputs, size_t n, int logs_allowed, struct iodfg_error *err);
/* Load an event log: one .h5 file, or trace files/directories converted in memory. */
struct iodfg_eventlog *cli_load(char *const *inputs, size_t n, unsigned columns,
                                const struct cli_ingest_opts *o, struct cli_ingest_totals *totals,
                                struct iodfg_error *err);

/* The mount table for inputs: given (--mounts FILE), else mounts.txt in the first input
 * directory, or beside the first input file, that has one, else the built-in list. Says which
 * in used[0..size). NULL with err set when a table cannot be read or parsed. */
struct iodfg_mounts *cli_mounts_open(char *const *inputs, size_t n, const char *given, char *used,
                                     size_t size, struct iodfg_error *err);

/* Fold one file's parse result into the totals. */
void cli_totals_add(struct cli_ingest_totals *t, const char *path,
                    const struct iodfg_strace_result *r, int by_pattern);
/* Write the closing summary paragraph of an ingest. */
void cli_totals_print(FILE *out, const struct cli_ingest_totals *t);

/* While a temp file is being written: remove it if SIGINT, SIGTERM or SIGHUP ends the process
 * (the signal then takes its default action). One guarded file at a time. cli_temp_hold, before
 * the file is created, holds those signals until cli_temp_guard (or cli_temp_forget, when the
 * creation failed): one that comes between the file's creation and its guard still removes it
 * (under sh, a background job starts with SIGINT ignored, and would lose it). */
void cli_temp_hold(void);
void cli_temp_guard(const char *path);
void cli_temp_forget(void);

/* Progress bar on stderr (only when it is a terminal): bytes done of total. */
void cli_progress(void *ctx, uint64_t done, uint64_t total);
void cli_progress_end(void);

/* Untrusted s[0..len) as a table cell: sanitised for the terminal, cut to max display columns
 * (ending in an ellipsis), then padded with spaces to pad columns (0: no padding). TSV and
 * JSON keep values whole; only tables are cut. */
#define CLI_CELL_MAX 120
void cli_cell_text(struct iodfg_buf *b, const char *s, size_t len, size_t max, int pad);
/* "1,234,567" into buf. */
const char *cli_count(char *buf, size_t size, uint64_t v);
/* "12.3 MiB" into buf. */
const char *cli_bytes(char *buf, size_t size, double v);
/* Parse a --jobs value into *jobs: 0, or CLI_USAGE after saying what is wrong. */
int cli_opt_jobs(const char *s, unsigned *jobs);
/* Parse --align ("start"): 0, or CLI_USAGE after saying what is wrong. */
int cli_opt_align(const char *s, int *align);
/* Check a --name-pattern value and set *pattern: 0, or CLI_USAGE after saying what is wrong
 * (with a caret under the column). */
int cli_opt_pattern(const char *s, const char **pattern);
/* CLI_USAGE after saying the command needs inputs (and its usage) when none follow
 * the options; 0 otherwise. */
int cli_need_inputs(int optind_, int argc, const char *what, const char *usage);

/* ---- dfg and stats: options and analysis (cli_analyze.c), rows and exports (cli_tables.c) */

/* Options shared by `dfg` and `stats`. Initialise with _init, release with _fini. */
struct cli_analyze_opts {
    struct cli_ingest_opts ingest;
    const char *rules_path;             /* --rules FILE; NULL = the default f-hat */
    struct iodfg_filter_stack *filters; /* --filter and the short forms, in order */
    struct iodfg_filter_stack *green;   /* --green predicates (ANDed); NULL = not given */
    struct iodfg_filter_stack *red;     /* --red predicates; NULL = not given */
    int per_pid;                        /* --per-pid: a case is (trace file, pid) */
    const char *output;                 /* -o FILE; NULL = standard output */
    int force;                          /* --force: replace an existing -o FILE */
    int edge_gaps; /* set by the command: its output shows the edges' gap medians (iodfg-mpi's
                    * merge finds them only then) */
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
/* After the options: the inputs are there (else what, usage and CLI_USAGE) and -o FILE may be
 * written (cli_output_check). CLI_OK or an enum cli_exit after a message. */
int cli_analyze_ready(const struct cli_analyze_opts *o, char *const *argv, int optind_, int argc,
                      const char *what, const char *usage);
/* Run getopt_long over the shared options plus own[]; each result goes to option(ctx, c, arg),
 * which answers like cli_analyze_option. Returns 0 when done (optind at the inputs), -1 after
 * --help printed usage, or CLI_USAGE/CLI_FAIL after saying what is wrong. */
int cli_analyze_getopt(int argc, char **argv, const struct option *own,
                       int (*option)(void *ctx, int c, const char *arg), void *ctx,
                       void (*usage)(FILE *out), const char *command);
/* Usage lines of the shared options. */
extern const char cli_analyze_usage[];

/* What `dfg` and `stats` compute: the log, mapping, filters, DFG and statistics, G/R diff and
 * pruning masks. Everything is owned and released by cli_analysis_fini. */
struct cli_analysis {
    struct iodfg_eventlog *log;
    struct iodfg_session *ses;
    /* read from the session after the run (borrowed from it) */
    const struct iodfg_mapping *map;
    const struct iodfg_analysis *an;
    int groups; /* nonzero when --green/--red were given: diff is valid */
    uint32_t g_cases, r_cases;
    const struct iodfg_diff *diff;    /* NULL without groups */
    const uint8_t *node_on, *edge_on; /* pruning (minedge/top); NULL = everything shown */
    struct iodfg_buf comment;         /* command, rules, filters, groups: for DOT and JSON */
};
/* The shared start of dfg, stats, characterize, bandwidth and insights: check the rules file,
 * load the inputs (with columns), and a session over them with the options' rules, filters,
 * case definition and groups (*groups set when --green/--red were given; they then bound the
 * selection). Prints errors and returns an enum cli_exit; the caller frees *ses and *log. */
int cli_session_open(const struct cli_analyze_opts *o, char *const *inputs, size_t n,
                     unsigned columns, struct iodfg_eventlog **log, struct iodfg_session **ses,
                     int *groups);
/* Load the inputs and build everything for `command`. Prints errors (rule errors with the
 * line and a caret) and returns an enum cli_exit; call cli_analysis_fini in every case. */
int cli_analysis_run(struct cli_analysis *ca, const struct cli_analyze_opts *o, char *const *inputs,
                     size_t n, const char *command);
void cli_analysis_fini(struct cli_analysis *ca);
/* The comment (command, rules, filters, groups, case definition) into ca->comment, from
 * ca->ses, ca->groups and the group sizes. */
void cli_analysis_comment(struct cli_analysis *ca, const struct cli_analyze_opts *o,
                          char *const *inputs, size_t n, const char *command);
/* Per activity: the scope, file-system type and mount point its file keys share ("mixed" when
 * they differ, "" when none is classified). ca->map.nactivities entries, strings borrowed from
 * the log; free the array with free(). NULL when out of memory. */
struct cli_act_fs {
    const char *scope, *fstype, *fs;
};
struct cli_act_fs *cli_activity_fs(const struct cli_analysis *ca);

/* Activity ids with events (and kept by pruning) sorted by an enum iodfg_act_col, at most top
 * (0 = all), into *out (malloc'd, the caller frees). Returns the count, or -1 out of memory. */
long cli_analysis_activities(const struct cli_analysis *ca, int col, int desc, size_t top,
                             uint32_t **out);
/* The same for the present edges (slots of the DFG) by an enum iodfg_edge_col. */
long cli_analysis_edges(const struct cli_analysis *ca, int col, int desc, size_t top,
                        uint32_t **out);
/* TSV of the activities in act order (a header row; with groups, side and per-group columns),
 * then, when edges is non-NULL, a blank line and the transitions likewise. 0 or CLI_FAIL. */
int cli_analysis_tsv(const struct cli_analysis *ca, struct iodfg_buf *b, const uint32_t *act,
                     size_t nact, const uint32_t *edges, size_t nedges);
/* The engine's JSON object plus, with groups, a "groups" member. 0 or CLI_FAIL. */
int cli_analysis_json(const struct cli_analysis *ca, struct iodfg_buf *b, const uint32_t *act,
                      size_t nact, const uint32_t *edges, size_t nedges);

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
/* Print err like a compiler, then the offending line of text[0..len) and a caret under the
 * column (when err has a line). */
void cli_error_caret(const struct iodfg_error *err, const char *text, size_t len);
/* Display columns of UTF-8 text (combining marks take none). */
size_t cli_text_width(const char *s, size_t len);

/* ---- characterize and bandwidth: the selection they share (cli_characterize.c) ---- */

/* A loaded log with every column, the mapping, and one or two selections (all, or G and R). */
struct cli_metrics {
    struct iodfg_eventlog *log;
    struct iodfg_session *ses;
    const struct iodfg_mapping *map; /* borrowed from the session */
    int ngroups;                     /* 1 (no groups) or 2 (G, R) */
    struct iodfg_selection sel[2];   /* the selection, or G and R (case masks borrowed) */
    uint8_t *own_mask[2];            /* case masks cut to one clock (cli_metrics_one_clock) */
};
/* Keep only the cases of the clock with the most cases in the selections when they use more
 * than one (measures binned over time cannot mix clocks), saying so unless quiet. 0, or
 * CLI_FAIL after a message (out of memory). */
int cli_metrics_one_clock(struct cli_metrics *m, int quiet);
/* Load inputs and build rules, filters, groups and mapping like `dfg`, then with one_clock keep
 * the cases of one clock (cli_metrics_one_clock), else note mixed clocks (cli_clock_note);
 * prints errors and returns an enum cli_exit. Call cli_metrics_fini in every case. */
int cli_metrics_run(struct cli_metrics *m, const struct cli_analyze_opts *o, char *const *inputs,
                    size_t n, int one_clock);
/* The name of selection g in reports: "all" without groups, else "G" or "R". */
const char *cli_metrics_group_name(const struct cli_metrics *m, int g);
void cli_metrics_fini(struct cli_metrics *m);
/* End a characterize or bandwidth report: close its JSON document (json), write b when rc is
 * CLI_OK, free b and m. Returns rc, or the output's failure. */
int cli_metrics_finish(struct cli_metrics *m, const struct cli_analyze_opts *o, struct iodfg_buf *b,
                       int rc, int json);
/* Output formats of characterize and bandwidth. */
enum cli_format { CLI_FMT_TABLE = 0, CLI_FMT_TSV, CLI_FMT_JSON };
/* 0 and *f for "table", "tsv" or "json"; CLI_USAGE after a message otherwise. */
int cli_format_parse(const char *s, enum cli_format *f);
/* A name as a table cell (terminal-safe, padded to width columns), a TSV field or a JSON
 * string, by format. */
void cli_cell_name(struct iodfg_buf *b, enum cli_format f, const char *s, int width);

/* ---- a command run by the processes of an MPI job at once (iodfg-mpi) ---- */

struct cli_job {
    /* Which of the ncases cases (events[i] events each, or NULL) of the event log at path this
     * process reads. */
    void (*cases)(void *ctx, const char *path, uint64_t ncases, const uint64_t *events,
                  uint32_t *first, uint32_t *count);
    /* Every process's status after a step (an enum cli_exit): the first failure's on all. */
    int (*agree)(void *ctx, int rc);
    /* After the session is rebuilt over this process's cases: make its results the whole
     * job's (every process calls it). CLI_OK, or an enum cli_exit after a message. */
    int (*merge)(void *ctx, struct cli_analysis *ca, const struct cli_analyze_opts *o);
    int writes; /* this process writes the output */
    void *ctx;
    /* Sum n counts over the job's processes, in place on every process (collective). */
    void (*sum)(void *ctx, uint32_t *v, size_t n);
    /* characterize: r over this process's cases of sel, combined with every other process's
     * into the whole job's on the process that writes. CLI_OK, or an enum cli_exit after a
     * message (every process returns the same). */
    int (*characterize)(void *ctx, const struct cli_metrics *m, const struct iodfg_selection *sel,
                        const struct iodfg_bin_opts *o, int64_t alignment,
                        struct iodfg_characterization *r);
    /* The case's and the file's names of per-file access row i of the last characterize. */
    void (*file_names)(void *ctx, size_t i, const char **case_name, const char **path);
    /* Groups G and R (--green, --red) of the session: CLI_OK when they share no case of any
     * process, else CLI_FAIL after iodfg's message about all the shared cases (collective). */
    int (*groups)(void *ctx, const struct iodfg_session *ses, const struct iodfg_filter_stack *g,
                  const struct iodfg_filter_stack *r);
    /* The least t over the job's processes, in place on every process (collective). */
    void (*least)(void *ctx, int64_t *t);
    /* 1: the merge finds the maximum concurrency over the whole job, so this process's session
     * need not sweep its part (iodfg_session_set_job_part). */
    int part;
};
/* NULL in iodfg; iodfg-mpi sets it before it runs a command. */
extern const struct cli_job *cli_job;
/* Whether this process writes the output (always without a job). */
int cli_job_writes(void);
/* Every process of a job goes on, or none: the status all agree on (rc itself without a job). */
int cli_agree(int rc);

#endif
