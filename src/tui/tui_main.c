/* SPDX-License-Identifier: MIT */
/* The TUI's entry (tui_main.h): `iodfg tui` (and `iodfg LOG.h5`) parses its options, loads the
 * log in a thread while the terminal shows progress, builds the analysis, then runs the
 * interactive explorer; and the key and theme listings of `iodfg --list-keys`, `--list-themes`
 * and `--version`. Options, loading and messages are the command line's shared ones (cli.h), so
 * that `iodfg tui` reads its inputs and says what is wrong as every other command does. */
#include "config.h"

#include "tui/tui_main.h"

#include <errno.h>
#include <getopt.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "iodfg/buf.h"
#include "iodfg/error.h"
#include "iodfg/eventlog.h"
#include "iodfg/focus.h"
#include "iodfg/glyph.h"
#include "iodfg/insights.h"
#include "iodfg/store.h"
#include "iodfg/textfile.h"

#include "cmdline/cli.h"
#include "tui/app.h"
#include "tui/keymap.h"
#include "tui/term/screen.h"
#include "tui/term/ui.h"
#include "tui/theme.h"

static const char tui_usage[] =
    "usage: iodfg [tui] [--rules FILE] [--session FILE] [--theme NAME|PATH]\n"
    "                 [--ascii] [--no-color] [--align start] [--name-pattern P]\n"
    "                 [--jobs N] [--mounts FILE] [--thresholds FILE]\n"
    "                 [--focus app|all] [--focus-rules FILE]\n"
    "                 LOG.h5|FILES|DIRS...\n"
    "Explore an event log in the terminal ('?' lists the keys; man iodfg has the\n"
    "views).\n"
    "      --rules FILE        mapping rules to start from (default: the f-hat\n"
    "                          rules), or a preset: default, hpc (per-process names\n"
    "                          folded)\n"
    "      --session FILE      restore rules, filters, groups, view and sort from\n"
    "                          FILE (W saves it)\n"
    "      --theme NAME        colour theme: default, light, dark, monochrome,\n"
    "                          colorblind, or a path\n"
    "      --ascii             ASCII symbols and line drawing (the default when the\n"
    "                          locale is not UTF-8)\n"
    "      --no-color          attributes only (also with NO_COLOR set)\n"
    "      --align start       compare cases as if they started together (see stats\n"
    "                          --help)\n"
    "      --thresholds FILE   the Insights view's thresholds (see insights --help;\n"
    "                          default: the user's insights.conf when present)\n"
    "      --focus app|all     app (default): the runtime's activities (loader,\n"
    "                          system look-ups, MPI runtime ...) folded into one row\n"
    "                          per class; all: every activity (A switches)\n"
    "      --focus-rules FILE  the classes (doc/rules.md, Focus); default: the\n"
    "                          user's focus.rules when present, else built in\n";

static void usage(FILE *out)
{
    fputs(tui_usage, out);
    fputs(cli_ingest_usage, out);
}

struct loader {
    char **inputs;
    size_t n;
    struct cli_ingest_opts opts;
    const char *rules_text, *rules_path, *name;
    struct tui_app_focus focus; /* the focus the app opens with, its class rules */
    _Atomic uint64_t done, total;
    atomic_int phase;  /* 0 loading, 1 analysing, 2 finished */
    atomic_int cancel; /* the user quit: stop at the next step, build nothing more */
    struct tui_app *app;
    struct iodfg_error err;
};

static void on_progress(void *ctx, uint64_t done, uint64_t total)
{
    struct loader *l = ctx;
    atomic_store(&l->total, total);
    atomic_store(&l->done, done);
}

/* The analysis columns plus what the Characterisation view's access patterns track (file
 * offsets per descriptor) and what the Insights view judges (errors): 16 more bytes per event. The
 * Handles view needs no column: it reads the log's handle table (loaded with every log, one row per
 * handle), and Enter filters by path. The Offsets view needs the 4-byte handle column: a read or
 * write right after a traced lseek of its handle is at a known offset, not an inferred one. */
#define TUI_COLUMNS                                                                                \
    (IODFG_COL_ANALYSIS | IODFG_COL_OFFSET | IODFG_COL_FD | IODFG_COL_ERR | IODFG_COL_HANDLE |     \
     IODFG_COL_HANDLE_TABLE | IODFG_COL_STACKS)

static void *load_thread(void *arg)
{
    struct loader *l = arg;
    struct iodfg_eventlog *log = NULL;
    if (l->n == 1 && iodfg_store_is_hdf5(l->inputs[0])) {
        log = iodfg_store_load(l->inputs[0], TUI_COLUMNS, on_progress, l, &l->err);
        if (log && l->opts.align_starts && iodfg_eventlog_align_starts(log)) {
            iodfg_error_set(&l->err, IODFG_E_NOMEM, NULL);
            iodfg_eventlog_free(log);
            log = NULL;
        }
    } else {
        struct cli_ingest_totals totals;
        log = cli_load(l->inputs, l->n, TUI_COLUMNS, &l->opts, &totals, &l->err);
    }
    if (log && cli_callsites_split(log, NULL, &l->err)) { // the `site` field of rules, filters
        iodfg_eventlog_free(log);
        log = NULL;
    }
    if (log && atomic_load(&l->cancel)) {
        iodfg_eventlog_free(log);
        log = NULL;
    }
    if (log) {
        atomic_store(&l->phase, 1);
        l->app =
            tui_app_new_focused(log, 1, l->name, l->rules_text, l->rules_path, &l->focus, &l->err);
        if (!l->app) {
            iodfg_eventlog_free(log);
        } else {
            tui_app_set_inputs(l->app, l->inputs, l->n);
        }
    }
    atomic_store(&l->phase, 2);
    return NULL;
}

static const char *base_name(const char *p)
{
    const char *s = strrchr(p, '/');
    return s && s[1] ? s + 1 : p;
}

struct tui_opts {
    const char *rules_path, *session, *theme, *thresholds, *focus_rules;
    int focus_all;  /* --focus all */
    unsigned flags; /* TUI_SCREEN_* */
};

// The options into o and l->opts; -1 after --help, else CLI_OK or CLI_USAGE.
static int parse_options(int argc, char **argv, struct tui_opts *o, struct loader *l)
{
    static const struct option longopts[] = {{"rules", required_argument, NULL, 'r'},
                                             {"session", required_argument, NULL, 's'},
                                             {"theme", required_argument, NULL, 't'},
                                             {"ascii", no_argument, NULL, 'a'},
                                             {"no-color", no_argument, NULL, 'C'},
                                             {"align", required_argument, NULL, 'A'},
                                             {"help", no_argument, NULL, 'h'},
                                             {"thresholds", required_argument, NULL, 'T'},
                                             {"focus", required_argument, NULL, 'F'},
                                             {"focus-rules", required_argument, NULL, 'R'},
                                             CLI_INGEST_LONGOPTS,
                                             {NULL, 0, NULL, 0}};
    int c;
    optind = 1;
    while ((c = getopt_long(argc, argv, "p:j:h", longopts, NULL)) != -1) {
        switch (c) {
        case 'r':
            o->rules_path = optarg;
            break;
        case 's':
            o->session = optarg;
            break;
        case 't':
            o->theme = optarg;
            break;
        case 'T':
            o->thresholds = optarg;
            break;
        case 'F':
            if (strcmp(optarg, "app") != 0 && strcmp(optarg, "all") != 0) {
                cli_errorf("--focus takes app or all, not '%s'", optarg);
                return CLI_USAGE;
            }
            o->focus_all = strcmp(optarg, "all") == 0;
            break;
        case 'R':
            o->focus_rules = optarg;
            break;
        case 'a':
            o->flags |= TUI_SCREEN_ASCII;
            iodfg_glyph_init(0); // the labels too, before anything is formatted
            break;
        case 'C':
            o->flags |= TUI_SCREEN_NO_COLOR;
            break;
        case 'A':
            if (cli_opt_align(optarg, &l->opts.align_starts)) {
                return CLI_USAGE;
            }
            break;
        case 'h':
            usage(stdout);
            return -1;
        default:
            if (cli_ingest_other_option(c, optarg, &l->opts, usage)) {
                return CLI_USAGE;
            }
        }
    }
    if (optind >= argc && o->session) {
        return CLI_OK; // the session file's log lines name the inputs
    }
    return cli_need_inputs(optind, argc,
                           "tui needs an event log (LOG.h5), trace files or directories, or "
                           "--session FILE whose log line names one",
                           tui_usage)
               ? CLI_USAGE
               : CLI_OK;
}

/* A session file's log lines ("log PATH"): the files it was saved over, into a new array of
 * *n paths (each freed, then the array). A relative path counts from the current directory,
 * else from the session file's. NULL with err when the file cannot be read or names none. */
static char **session_inputs(const char *session, size_t *n, struct iodfg_error *err)
{
    size_t len;
    char *text = iodfg_textfile_read(session, "session file", (size_t)16 << 20, &len, err);
    if (!text) {
        return NULL;
    }
    char **in = calloc(len / 5 + 2, sizeof(*in)); // a log line takes at least 5 bytes
    const char *slash = strrchr(session, '/');
    int dirlen = slash ? (int)(slash - session) : 0;
    *n = 0;
    for (char *line = text, *next; in && line && *line; line = next) {
        next = strchr(line, '\n');
        if (next) {
            *next++ = '\0';
        }
        if (strncmp(line, "log ", 4) != 0 || !line[4]) {
            continue;
        }
        const char *p = line + 4;
        char *path = NULL;
        if (p[0] != '/' && access(p, F_OK) != 0 && slash) { // beside the session file
            size_t m = (size_t)dirlen + strlen(p) + 2;
            path = malloc(m);
            if (path) {
                snprintf(path, m, "%.*s/%s", dirlen, session, p);
            }
        } else {
            path = strdup(p);
        }
        if (!path) {
            break;
        }
        in[(*n)++] = path;
    }
    free(text);
    if (!in || *n == 0) {
        free(in);
        iodfg_error_set(err, in ? IODFG_E_ARG : IODFG_E_NOMEM,
                        in ? "no log line names the event log: give it too (iodfg LOG.h5 "
                             "--session FILE)"
                           : NULL);
        iodfg_error_at(err, session, 0, 0);
        return NULL;
    }
    return in;
}

static void free_inputs(char **in, size_t n)
{
    for (size_t i = 0; in && i < n; i++) {
        free(in[i]);
    }
    free(in);
}

// Load and analyse on a thread while the screen shows progress (q stops after the current
// step). 0 when the loader finished (l->app, or l->err), -1 when it could not start.
static int load_with_progress(struct tui_ui *ui, struct loader *l)
{
    pthread_t th;
    if (pthread_create(&th, NULL, load_thread, l)) {
        return -1;
    }
    while (atomic_load(&l->phase) < 2) {
        uint64_t total = atomic_load(&l->total), done = atomic_load(&l->done);
        int phase = atomic_load(&l->phase);
        double frac = phase == 0 && total ? (double)done / (double)total : -1;
        int cancel = atomic_load(&l->cancel);
        const char *what = cancel  ? "stopping after this step…"
                           : phase ? "building the graph…"
                                   : "loading…";
        if (tui_ui_progress(ui, l->name, what, cancel ? -1 : frac, 100) && !cancel) {
            // The store and ingest APIs cannot be interrupted mid-way: the loader checks the
            // flag between steps, and we join it so nothing runs on while the process exits.
            atomic_store(&l->cancel, 1);
        }
    }
    pthread_join(th, NULL);
    return 0;
}

// --session FILE: saved to on request; restored now when it exists. One that cannot be read or
// restored stops the TUI (err says why), as a bad rules file does.
static int open_session(struct tui_app *app, const char *session, struct iodfg_error *err)
{
    if (tui_app_set_session_path(app, session)) {
        iodfg_error_set(err, IODFG_E_NOMEM, NULL);
        return -1;
    }
    if (access(session, F_OK) != 0 && errno == ENOENT) { // a link loop is no new file
        return 0;
    }
    return tui_app_session_load(app, session, err);
}

static int run(const struct tui_opts *o, struct loader *l, char *rules_text,
               const struct iodfg_insight_thresholds *th);

/* The focus the app opens with: the application's I/O first unless --focus all; its class rules
 * from --focus-rules, else the user's focus.rules when there (under app, as the CLI reads it).
 * *text (freed by the caller) holds the file's bytes. 0, or -1 with err. */
static int open_focus(const struct tui_opts *o, struct tui_app_focus *f, char **text, char *user,
                      size_t usize, struct iodfg_error *err)
{
    memset(f, 0, sizeof(*f));
    f->mode = !o->focus_all;
    f->where = o->focus_rules;
    if (!f->where && f->mode && iodfg_focus_user_path(user, usize) == 0 &&
        access(user, F_OK) == 0) {
        f->where = user;
    }
    if (!f->where) {
        return 0;
    }
    *text = iodfg_textfile_read(f->where, "focus rules file", CLI_RULES_MAX, &f->len, err);
    f->rules = *text;
    return *text ? 0 : -1;
}

int tui_main(int argc, char **argv)
{
    struct tui_opts o = {0};
    struct loader l;
    memset(&l, 0, sizeof(l));
    l.opts.quiet = 1;
    int rc = parse_options(argc, argv, &o, &l);
    if (rc) {
        return rc < 0 ? CLI_OK : rc;
    }
    // the thresholds file is checked first: its mistakes are said with file:line:col
    struct iodfg_insight_thresholds thresholds;
    iodfg_insight_thresholds_default(&thresholds);
    if (cli_insight_thresholds_file(o.thresholds, &thresholds)) {
        return CLI_FAIL;
    }
    if (!isatty(STDIN_FILENO) || !isatty(STDOUT_FILENO)) { // two lines, each a message
        cli_errorf("the terminal UI needs a terminal on standard input and output (%s is not "
                   "one)",
                   isatty(STDIN_FILENO) ? "standard output" : "standard input");
        cli_errorf("for scripts use 'iodfg stats', 'iodfg dfg' or 'iodfg info'");
        return CLI_USAGE;
    }
    struct iodfg_error err;
    iodfg_error_clear(&err);
    char **from_session = NULL;
    size_t nfrom = 0;
    if (optind >= argc && !(from_session = session_inputs(o.session, &nfrom, &err))) {
        cli_error(&err);
        return CLI_FAIL;
    }
    char *rules_text = NULL;
    size_t rules_len;
    if (o.rules_path && !(rules_text = cli_rules_text(o.rules_path, &rules_len, &err))) {
        cli_error(&err);
        free_inputs(from_session, nfrom);
        return CLI_FAIL;
    }
    char user[4096], *focus_text = NULL;
    if (open_focus(&o, &l.focus, &focus_text, user, sizeof(user), &err)) {
        cli_error(&err);
        free(rules_text);
        free_inputs(from_session, nfrom);
        return CLI_FAIL;
    }
    l.inputs = from_session ? from_session : argv + optind;
    l.n = from_session ? nfrom : (size_t)(argc - optind);
    rc = run(&o, &l, rules_text, &thresholds); // frees rules_text
    free(focus_text);
    free_inputs(from_session, nfrom);
    return rc;
}

/* Load the inputs and run the explorer until it quits (the terminal taken and given back). */
static int run(const struct tui_opts *o, struct loader *l, char *rules_text,
               const struct iodfg_insight_thresholds *th)
{
    struct iodfg_error err;
    iodfg_error_clear(&err);
    l->rules_text = rules_text;
    l->rules_path = o->rules_path;
    l->name = base_name(l->inputs[0]);
    struct tui_ui *ui = tui_ui_open(o->theme, o->flags, &err);
    if (!ui) {
        cli_error(&err);
        free(rules_text);
        return CLI_FAIL;
    }
    if (load_with_progress(ui, l)) {
        tui_ui_close(ui);
        cli_errorf("cannot start the loading thread");
        free(rules_text);
        return CLI_FAIL;
    }
    free(rules_text);
    if (atomic_load(&l->cancel)) {
        tui_ui_close(ui);
        tui_app_free(l->app);
        return CLI_OK;
    }
    if (!l->app) {
        tui_ui_close(ui);
        cli_error(&l->err);
        if (l->err.code == IODFG_E_FORMAT) {
            // HDF5 1.10 keeps blocks of its free lists after a failed metadata checksum read in
            // a thread other than the first; its exit-time teardown then loops over them and
            // prints ~200 tokens of noise. Nothing of ours is open (the reader closed every
            // handle), so leave without that teardown.
            fflush(NULL);
            _exit(CLI_FAIL);
        }
        return CLI_FAIL;
    }
    tui_app_set_insight_thresholds(l->app, th);
    iodfg_error_clear(&err);
    if (o->session && open_session(l->app, o->session, &err)) {
        tui_ui_close(ui);
        cli_error(&err);
        tui_app_free(l->app);
        return CLI_FAIL;
    }
    tui_ui_run(ui, l->app);
    tui_ui_close(ui);
    tui_app_free(l->app);
    return CLI_OK;
}

int tui_main_list_keys(int man)
{
    struct tui_keymaps *km = tui_keymap_new();
    struct iodfg_buf b;
    iodfg_buf_init(&b);
    if (!km || tui_keymap_help(km, man ? TUI_HELP_MAN : TUI_HELP_TEXT, &b)) {
        cli_errorf("out of memory");
        tui_keymap_free(km);
        iodfg_buf_fini(&b);
        return CLI_FAIL;
    }
    fputs(b.data ? b.data : "", stdout);
    iodfg_buf_fini(&b);
    tui_keymap_free(km);
    return CLI_OK;
}

int tui_main_list_themes(void)
{
    struct tui_theme_dirs dirs;
    char user[4200];
    tui_theme_dirs_default(&dirs, user, sizeof(user));
    char **names = NULL;
    int n = tui_theme_list(&dirs, &names);
    if (n < 0) {
        cli_errorf("out of memory");
        return CLI_FAIL;
    }
    for (int i = 0; i < n; i++) {
        printf("%s\n", names[i]);
    }
    tui_theme_list_free(names, n);
    return CLI_OK;
}

void tui_main_themes_dir(char *buf, size_t size)
{
    struct tui_theme_dirs dirs;
    char user[4200];
    tui_theme_dirs_default(&dirs, user, sizeof(user));
    // the installed data directory, else the one beside the program (a moved installation)
    snprintf(buf, size, "%s",
             access(dirs.data_dir, R_OK) == 0 || !dirs.exe_dir ? dirs.data_dir : dirs.exe_dir);
}
