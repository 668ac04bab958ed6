/* SPDX-License-Identifier: MIT */
/* iodfg entry point: picks the subcommand and maps its result to an exit status. */
#include "config.h"

#include <locale.h>
#include <stdio.h>
#include <string.h>

#include "cli.h"

struct command {
    const char *name;
    int (*run)(int argc, char **argv);
    const char *summary;
};

static const struct command commands[] = {
    {"convert", cli_convert, "turn strace files into one HDF5 event log"},
    {"info", cli_info, "summarise an event log (or trace files)"},
};

static void usage(FILE *out)
{
    fprintf(out, "usage: iodfg COMMAND [OPTIONS] ...\n\ncommands:\n");
    for (size_t i = 0; i < sizeof(commands) / sizeof(commands[0]); i++) {
        fprintf(out, "  %-10s %s\n", commands[i].name, commands[i].summary);
    }
    fprintf(out, "\n'iodfg COMMAND --help' describes a command; 'man iodfg' has the details.\n");
}

int main(int argc, char **argv)
{
    setlocale(LC_ALL, "");
    if (argc < 2) {
        usage(stderr);
        return CLI_USAGE;
    }
    if (strcmp(argv[1], "--version") == 0 || strcmp(argv[1], "-V") == 0) {
        printf("%s\n", PACKAGE_STRING);
        return CLI_OK;
    }
    if (strcmp(argv[1], "--help") == 0 || strcmp(argv[1], "-h") == 0) {
        usage(stdout);
        return CLI_OK;
    }
    for (size_t i = 0; i < sizeof(commands) / sizeof(commands[0]); i++) {
        if (strcmp(argv[1], commands[i].name) == 0) {
            return commands[i].run(argc - 1, argv + 1);
        }
    }
    cli_errorf("unknown command '%s'", argv[1]);
    usage(stderr);
    return CLI_USAGE;
}
