/* SPDX-License-Identifier: MIT */
/* iodfg entry point: picks the subcommand and maps its result to an exit status. */
#include "config.h"

#include <errno.h>
#include <limits.h>
#include <locale.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "iodfg/buf.h"
#include "iodfg/glyph.h"
#include "iodfg/store.h"

#include "cmdline/cli.h"
#include "cli/cli_commands.h"
#include "tui/tui_main.h"

struct command {
    const char *name;
    int (*run)(int argc, char **argv);
    const char *summary;
};

static const struct command commands[] = {
    {"convert", cli_convert, "turn traces (strace, OTF2, CSV) into one HDF5 event log"},
    {"info", cli_info, "summarise an event log (or trace files)"},
    {"tui", tui_main, "explore an event log in the terminal (also: iodfg LOG.h5)"},
    {"dfg", cli_dfg, "write the Directly-Follows Graph (DOT, TSV, JSON, SVG, PNG)"},
    {"stats", cli_stats, "rank activities and transitions by their statistics"},
    {"characterize", cli_characterize, "I/O characterisation: bandwidths, patterns, intensity"},
    {"bandwidth", cli_bandwidth, "perceived vs effective bandwidth and time shares"},
    {"handles", cli_handles, "list I/O handles: lifetime, path, flags, bytes, never closed"},
    {"export", cli_export, "write the events for Perfetto, PM4Py/Disco (CSV) or XES tools"},
    {"insights", cli_insights, "automatic I/O findings with their evidence"},
    {"callsites", cli_callsites, "which function of the program issued the I/O (strace -k)"},
    {"heatmap", cli_heatmap, "cases by time, shaded by bytes or busy time (SVG, PNG, TSV, JSON)"},
    {"offsets", cli_offsets, "a file's offsets over time, one mark per read/write (SVG, ...)"},
    {"timeline", cli_timeline, "calls in flight per activity over time (SVG, PNG, TSV, JSON)"},
};

/* The documents' directory: the installed one, else, for a program run from a build tree
 * (config.status beside it) that was not installed, its source tree's doc/ with the man page
 * (*built set: `man -l` reads it). */
static const char *doc_dir(int *built)
{
    static char src[4096];
    char exe[4096];
    *built = 0;
    ssize_t n = readlink("/proc/self/exe", exe, sizeof(exe) - 32);
    char *slash = n > 0 ? memrchr(exe, '/', (size_t)n) : NULL;
    if (access(IODFG_DOCDIR, R_OK) == 0 || !slash) {
        return IODFG_DOCDIR;
    }
    strcpy(slash, "/config.status");
    *built = access(exe, F_OK) == 0 && realpath(IODFG_SRC_DOCDIR, src) &&
             access(IODFG_SRC_DOCDIR "/iodfg.1", R_OK) == 0;
    return *built ? src : IODFG_DOCDIR;
}

static void usage(FILE *out)
{
    fprintf(out, "usage: iodfg COMMAND [OPTIONS] ...\n\ncommands:\n");
    for (size_t i = 0; i < sizeof(commands) / sizeof(commands[0]); i++) {
        fprintf(out, "  %-12s %s\n", commands[i].name, commands[i].summary);
    }
    int built;
    const char *docs = doc_dir(&built);
    fprintf(out, "\n'iodfg COMMAND --help' describes a command; ");
    if (built) { // not installed: the man page of the source tree
        fprintf(out, "'man -l %s/iodfg.1'\nhas the details.\n", docs);
    } else {
        fprintf(out, "'man iodfg' has the details.\n");
    }
    fprintf(out,
            "'iodfg LOG.h5' opens the terminal UI (the command 'tui' may be left out).\n"
            "Documents: rules.md (mapping rules), metrics.md (characterisation),\n"
            "insights.md (findings), format.md (the HDF5 event log), interchange.md\n"
            "(export, CSV input) and tutorial.md, in\n  %s\n",
            docs);
}

/* `iodfg --version`: the version, what the build includes, where themes and documents are. */
static int version(void)
{
    char themes[4200];
    tui_main_themes_dir(themes, sizeof(themes));
    int built;
    const char *docs = doc_dir(&built);
    printf("%s\nbuild: %s\nthemes: %s\ndocuments: %s%s\n", PACKAGE_STRING, IODFG_BUILD_OPTIONS,
           themes, docs, built ? " (this build tree's source; not installed)" : "");
    return CLI_OK;
}

static int dispatch(int argc, char **argv)
{
    if (argc < 2) {
        usage(stderr);
        return CLI_USAGE;
    }
    if (strcmp(argv[1], "--version") == 0 || strcmp(argv[1], "-V") == 0) {
        return version();
    }
    if (strcmp(argv[1], "--list-themes") == 0) {
        return tui_main_list_themes();
    }
    if (strcmp(argv[1], "--help") == 0 || strcmp(argv[1], "-h") == 0) {
        usage(stdout);
        return CLI_OK;
    }
    if (strcmp(argv[1], "--list-keys") == 0) {
        return tui_main_list_keys(argc > 2 && strcmp(argv[2], "--man") == 0);
    }
    for (size_t i = 0; i < sizeof(commands) / sizeof(commands[0]); i++) {
        if (strcmp(argv[1], commands[i].name) == 0) {
            return commands[i].run(argc - 1, argv + 1);
        }
    }
    // `iodfg [tui options] LOG.h5|TRACES|DIRS`: the synopsis' optional `tui`
    struct stat st;
    if (argv[1][0] == '-' || stat(argv[1], &st) == 0) {
        static char tui_name[] = "tui";
        argv[0] = tui_name;
        return tui_main(argc, argv);
    }
    size_t len = strlen(argv[1]);
    if (strchr(argv[1], '/') || (len > 3 && strcmp(argv[1] + len - 3, ".h5") == 0) ||
        (len > 3 && strcmp(argv[1] + len - 3, ".st") == 0)) {
        cli_errorf("cannot open '%s': %s", argv[1], strerror(errno));
        return CLI_FAIL;
    }
    cli_errorf("unknown command '%s'", argv[1]);
    usage(stderr);
    return CLI_USAGE;
}

int main(int argc, char **argv)
{
    setlocale(LC_ALL, "");
    iodfg_glyph_init(-1); // the program's symbols in UTF-8 or ASCII, from the locale
    iodfg_store_process_init();
    return cli_stdout_status(dispatch(argc, argv));
}
